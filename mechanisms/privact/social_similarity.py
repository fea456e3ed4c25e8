"""Rating similarity against social distance, per user (Section 7.4 and Table 6 of PrivaCT).

For users u, v with rating rows r_u, r_v (a users x items matrix, 0 = unrated):

    partial profile:  sim(u, v) = Pearson(r_u[I_uv], r_v[I_uv]),  I_uv = items rated by both u and v
    full profile:     sim(u, v) = Pearson(r_u, r_v) over all items, unrated items counted as 0

and d(u, v) is the shortest-path (hop) distance in the social graph. Each user u then gets

    c_u = Pearson( (sim(u, v))_{v in P_u}, (d(u, v))_{v in P_u} ),
    P_u = { v != u : sim(u, v) is defined and d(u, v) is finite }.

sim(u, v) is defined when both profiles have positive variance over the items compared (and, for the
partial profile, |I_uv| >= 2); c_u is defined when |P_u| >= 2 and both sequences vary. Users whose c_u is
undefined (no ratings, too few co-rating users, a constant profile) are left out of the summary and counted.
Table 6 reports, per network and profile, the share of users with c_u < 0 and the range [min c_u, max c_u].

Pearson's r is unchanged when a user's ratings are multiplied by a positive constant, so each row is divided
by its largest absolute value before the sums below; that keeps play counts of 10^5 from cancelling
catastrophically in n * sum(x^2) - sum(x)^2. A variance is taken as zero when it is below
``RELATIVE_VARIANCE_FLOOR`` times n * sum(x^2) (the size of the rounding error of that difference).

Why it matters: the paper reads negative c_u ("similarity falls with distance") as the reason PRIVACT-CF
helps; the text says the full-profile correlation "is negative for all users" while Table 6 prints ranges
ending at +0.02 (spec A21, decided in :mod:`dpcert.proofs.claims.privact.similarity_checks`).

References: 004_a0cddc0a7a24fb37.txt, Section 7.4 and Appendix A.4, Table 6; spec §4.3 (Table 6), §6 A21.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact.graphs import SocialGraph

__all__ = [
    "PROFILES",
    "RELATIVE_VARIANCE_FLOOR",
    "SimilarityDistanceSummary",
    "hop_distances",
    "rating_similarity",
    "similarity_distance_correlations",
    "summarize_correlations",
    "table_6_row",
]

PROFILES = ("partial", "full")
"""The two rating profiles of Section 7.4: co-rated items only, or all items with unrated = 0."""

RELATIVE_VARIANCE_FLOOR = 1e-9
"""A centred sum of squares below this fraction of n * sum(x^2) counts as zero variance (float rounding)."""


@dataclass(frozen=True)
class SimilarityDistanceSummary:
    """One row of Table 6: how many users' similarity falls with distance, and the range of c_u.

    Attributes:
        profile: ``"partial"`` or ``"full"``.
        n_users: users in the graph.
        n_defined: users whose c_u is defined (the denominator of the percentage).
        n_negative: users with c_u < 0.
        minimum: smallest c_u (NaN when no c_u is defined).
        maximum: largest c_u (NaN when no c_u is defined).
    """

    profile: str
    n_users: int
    n_defined: int
    n_negative: int
    minimum: float
    maximum: float

    @property
    def percent_negative(self) -> float:
        """100 * n_negative / n_defined (NaN when no c_u is defined)."""
        return 100.0 * self.n_negative / self.n_defined if self.n_defined else float("nan")


def _profile(profile: str) -> str:
    if profile not in PROFILES:
        raise InvalidParameterError(f"profile must be one of {PROFILES}. Got {profile!r}")
    return profile


def _ratings_csr(ratings: object, n_users: int | None = None) -> scipy.sparse.csr_array:
    """``ratings`` as a float CSR array, each row scaled by its largest |value| (Pearson is scale-free)."""
    try:
        matrix = scipy.sparse.csr_array(ratings, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise InvalidParameterError(f"ratings must be a 2-D users x items array or sparse matrix. Got {error}") from None
    if matrix.ndim != 2:
        raise InvalidParameterError(f"ratings must be 2-D (users x items). Got shape {matrix.shape}")
    if n_users is not None and matrix.shape[0] != n_users:
        raise InvalidParameterError(f"ratings must have one row per graph vertex ({n_users}). Got {matrix.shape[0]}")
    matrix.eliminate_zeros()
    if not np.all(np.isfinite(matrix.data)):
        raise InvalidParameterError("ratings must be finite. Got a NaN or infinite value")
    scale = np.zeros(matrix.shape[0])
    np.maximum.at(scale, np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr)), np.abs(matrix.data))
    scale[scale == 0] = 1.0
    return scipy.sparse.csr_array(scipy.sparse.diags_array(1.0 / scale) @ matrix)


def _pearson(count, sum_x, sum_y, sum_xx, sum_yy, sum_xy) -> np.ndarray:
    """Pearson's r from its sums, NaN where a variance is (numerically) zero or count < 2."""
    var_x = count * sum_xx - sum_x * sum_x
    var_y = count * sum_yy - sum_y * sum_y
    with np.errstate(invalid="ignore", divide="ignore"):
        defined = (count >= 2) & (var_x > RELATIVE_VARIANCE_FLOOR * count * sum_xx) & (
            var_y > RELATIVE_VARIANCE_FLOOR * count * sum_yy)
        r = (count * sum_xy - sum_x * sum_y) / np.sqrt(var_x * var_y)
    return np.where(defined, np.clip(r, -1.0, 1.0), np.nan)


def rating_similarity(ratings: object, *, profile: str = "full") -> np.ndarray:
    """The users x users matrix sim(u, v) of Pearson correlations of rating profiles (NaN = undefined).

    Partial profile: Pearson over the co-rated items I_uv, from the sparse sums over I_uv of x, y, x^2,
    y^2 and xy (B is the 0/1 pattern of R): count = B B^T, sum_x = R B^T, sum_xy = R R^T, and so on.
    Full profile: Pearson over all m items with unrated = 0, from R R^T and the row sums. Zeros in
    ``ratings`` mean "unrated". The diagonal is left NaN: a user is not compared with itself.

    Args:
        ratings: users x items ratings (numpy array or scipy.sparse), 0 = unrated.
        profile: ``"partial"`` (co-rated items) or ``"full"`` (all items, unrated = 0).

    References: 004_a0cddc0a7a24fb37.txt, Section 7.4 ("partial" and "full" rating profiles).
    """
    profile = _profile(profile)
    r = _ratings_csr(ratings)
    n_users, n_items = r.shape
    r2 = r.multiply(r).tocsr()
    if profile == "full":
        row_sum = np.asarray(r.sum(axis=1)).ravel()
        row_sq = np.asarray(r2.sum(axis=1)).ravel()
        ones = np.ones(n_users)
        sim = _pearson(float(n_items), np.outer(row_sum, ones), np.outer(ones, row_sum),
                       np.outer(row_sq, ones), np.outer(ones, row_sq), (r @ r.T).toarray())
    else:
        pattern = r.copy()
        pattern.data[:] = 1.0
        sum_x = (r @ pattern.T).toarray()
        sum_xx = (r2 @ pattern.T).toarray()
        sim = _pearson((pattern @ pattern.T).toarray(), sum_x, sum_x.T, sum_xx, sum_xx.T, (r @ r.T).toarray())
    np.fill_diagonal(sim, np.nan)
    return sim


def hop_distances(graph: SocialGraph) -> np.ndarray:
    """All-pairs shortest-path lengths in hops (inf between components), by breadth-first search.

    References: scipy.sparse.csgraph.shortest_path with ``unweighted=True``.
    """
    if not isinstance(graph, SocialGraph):
        raise InvalidParameterError(f"graph must be a SocialGraph. Got {type(graph).__name__}")
    return scipy.sparse.csgraph.shortest_path(graph.adjacency, directed=False, unweighted=True)


def similarity_distance_correlations(graph: SocialGraph, ratings: object, *, profile: str = "full") -> np.ndarray:
    """c_u for every user u: Pearson's r between sim(u, v) and d(u, v) over v in P_u (NaN = undefined).

    P_u = { v != u : sim(u, v) defined, d(u, v) finite }; c_u is defined when |P_u| >= 2 and neither
    sequence is constant. Computed for all users at once from masked row sums.

    Args:
        graph: the social graph on users 0..n-1 (the LCC ids of :func:`load_social_graph`).
        ratings: n x items ratings, row u = user u, 0 = unrated.
        profile: ``"partial"`` or ``"full"`` (see :func:`rating_similarity`).

    References: 004_a0cddc0a7a24fb37.txt, Section 7.4, Table 6.
    """
    distances = hop_distances(graph)
    sim = rating_similarity(_ratings_csr(ratings, graph.n), profile=profile)
    mask = np.isfinite(sim) & np.isfinite(distances)
    x = np.where(mask, sim, 0.0)
    y = np.where(mask, distances, 0.0)
    return _pearson(mask.sum(axis=1).astype(float), x.sum(axis=1), y.sum(axis=1), (x * x).sum(axis=1),
                    (y * y).sum(axis=1), (x * y).sum(axis=1))


def summarize_correlations(correlations: object, *, profile: str) -> SimilarityDistanceSummary:
    """Table 6's row from per-user c_u: users with c_u < 0 among those with c_u defined, and the range."""
    profile = _profile(profile)
    values = np.asarray(correlations, dtype=float)
    if values.ndim != 1:
        raise InvalidParameterError(f"correlations must be 1-D (one c_u per user). Got shape {values.shape}")
    defined = values[np.isfinite(values)]
    low, high = (float(defined.min()), float(defined.max())) if defined.size else (float("nan"), float("nan"))
    return SimilarityDistanceSummary(profile, int(values.size), int(defined.size), int((defined < 0).sum()), low, high)


def table_6_row(graph: SocialGraph, ratings: object, *, profile: str) -> SimilarityDistanceSummary:
    """:func:`similarity_distance_correlations` summarised as one row of Table 6."""
    return summarize_correlations(similarity_distance_correlations(graph, ratings, profile=profile), profile=profile)
