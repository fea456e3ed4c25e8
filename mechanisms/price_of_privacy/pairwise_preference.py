"""Pairwise-Preference (Fig. 1): one bit per user about a random pair, then spectral clustering.

References: 000_0c6e7fdc3fd68303.txt, Theorem 8 (= Theorem 24), Fig. 1 and Appendix B.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg
import scipy.sparse
import scipy.sparse.linalg

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive
from dpcert.mechanisms.price_of_privacy._userdata import bit_release_probabilities
from dpcert.mechanisms.price_of_privacy.blockmodel import BlockModel, UserRatings, as_generator
from dpcert.mechanisms.price_of_privacy.clustering import (
    ClusteringResult,
    Progress,
    kmeans_rows,
    make_result,
)
from dpcert.mechanisms.price_of_privacy.sketches import PAIR_RULES

__all__ = [
    "pair_bits",
    "pairwise_preference_matrix",
    "preference_matrix",
    "random_pairs",
    "simulate_pairwise_preference",
    "spectral_profiles",
]


def random_pairs(n: int, N: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n uniform unordered pairs {i, j} of distinct items, as arrays i < j."""
    a = rng.integers(0, N, n)
    b = rng.integers(0, N - 1, n)
    b += b >= a
    return np.minimum(a, b), np.maximum(a, b)


def _lookup(ratings: UserRatings, item: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    match = ratings.items == item[:, None]
    return match.any(axis=1), (match & ratings.ratings).any(axis=1)


def pair_bits(ratings: UserRatings, i: np.ndarray, j: np.ndarray, rule: str) -> np.ndarray:
    """S0 for each user and its probed pair {i_u, j_u} (bool array), under ``rule`` (spec M2)."""
    rated_i, positive_i = _lookup(ratings, i)
    rated_j, positive_j = _lookup(ratings, j)
    if rule == "both-rated-equal":
        return rated_i & rated_j & (positive_i == positive_j)
    if rule == "literal":  # unrated items count as 0
        return positive_i == positive_j
    return positive_i & positive_j


def preference_matrix(i: np.ndarray, j: np.ndarray, N: int) -> scipy.sparse.csr_matrix:
    """The symmetric N x N count matrix A_hat: A_hat_ij = number of (i, j) pairs given (S_u = 1 pairs)."""
    data = np.ones(i.size, dtype=np.float64)
    upper = scipy.sparse.coo_matrix((data, (i, j)), shape=(N, N)).tocsr()
    upper.sum_duplicates()
    return (upper + upper.T).tocsr()


def spectral_profiles(a_hat: scipy.sparse.spmatrix, L: int, rng: np.random.Generator) -> np.ndarray:
    """Rows of A_hat projected on its top-L eigenvectors (largest |eigenvalue|): an (N, L) array.

    Uses ``scipy.sparse.linalg.eigsh`` (seeded start vector); dense ``eigh`` when N <= L + 1 or if
    ARPACK does not converge.
    """
    N = a_hat.shape[0]
    if a_hat.nnz == 0:
        return np.zeros((N, L))
    vectors = None
    if N > L + 1:
        try:
            _, vectors = scipy.sparse.linalg.eigsh(a_hat.astype(np.float64), k=L, which="LM", v0=rng.random(N))
        except scipy.sparse.linalg.ArpackNoConvergence:
            vectors = None
    if vectors is None:
        values, all_vectors = scipy.linalg.eigh(a_hat.toarray())
        vectors = all_vectors[:, np.argsort(-np.abs(values))[:L]]
    return np.asarray(a_hat @ vectors)


def _validate(model: BlockModel, U: int, eps: object, rule: str) -> tuple[int, object]:
    if not isinstance(model, BlockModel):
        raise InvalidParameterError(f"model must be a BlockModel. Got {type(model).__name__}")
    U = require_int("U", U, minimum=1)
    eps = require_positive("eps", eps)
    if rule not in PAIR_RULES:
        raise InvalidParameterError(f"rule must be one of {', '.join(PAIR_RULES)}. Got {rule!r}")
    return U, eps


def pairwise_preference_matrix(model: BlockModel, item_clusters: np.ndarray, U: int, eps: object, *,
                               rule: str = "both-rated-equal", rng: np.random.Generator | int,
                               batch_size: int | None = None,
                               progress: Progress | None = None) -> scipy.sparse.csr_matrix:
    """Stages 1-2 of Pairwise-Preference for U users of ``model``: the symmetric count matrix A_hat.

    Each user u draws a uniform unordered pair P_u = {i_u, j_u} (public, independent of the data),
    computes S0 under ``rule`` and releases S_u = BitRelease_eps(S0); A_hat_ij = sum of S_u over the
    users with P_u = {i, j}. By Appendix B, A_hat_ij ~ Binomial(U, P[S_u = 1, P_u = {i, j}]) (see
    :func:`~dpcert.mechanisms.price_of_privacy.analysis.pairwise_pair_probability`).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 8 (Fig. 1) and Appendix B.
    """
    U, eps = _validate(model, U, eps, rule)
    rng = as_generator(rng)
    keep = float(bit_release_probabilities(eps)[0])
    user_classes = model.user_classes(U, rng)
    firsts, seconds = [], []
    for part, batch in model.user_batches(user_classes, item_clusters, rng, batch_size):
        i, j = random_pairs(batch.users, model.N, rng)
        s0 = pair_bits(batch, i, j, rule)
        released = np.where(rng.random(s0.size) < keep, s0, ~s0)
        firsts.append(i[released])
        seconds.append(j[released])
        if progress is not None:
            progress(part.stop, U)
    return preference_matrix(np.concatenate(firsts), np.concatenate(seconds), model.N)


def simulate_pairwise_preference(model: BlockModel, U: int, eps: object, *, rule: str = "both-rated-equal",
                                 rng: np.random.Generator | int, batch_size: int | None = None, restarts: int = 10,
                                 progress: Progress | None = None) -> ClusteringResult:
    """Run Pairwise-Preference end to end on U users of ``model`` and score the recovered item clusters.

    Stage 1: each user u probes a uniform random pair P_u = {i_u, j_u} (public, data-independent) and
    computes S0 (rule (a) by default: both rated with equal ratings). Stage 2: S_u = BitRelease_eps(S0).
    Stage 3: A_hat_ij = sum of S_u over users with P_u = {i, j} (symmetric, sparse); project its rows on
    the top-L eigenvectors (``eigsh``) and cluster the profiles with k-means (k = L, ``kmeans2``,
    best of ``restarts``).

    Args:
        model: the blockmodel (the information-rich regime is w = Omega(N)).
        U: number of users.
        eps: each user's privacy parameter (eps-LDP by Theorem 8).
        rule: "both-rated-equal" (a), "literal" (b) or "both-positive" (c).
        rng: a numpy Generator or an integer seed.
        batch_size: users per batch (default: about 2e6 rated-item cells per batch).
        restarts: k-means restarts.
        progress: called as progress(users done, U) after each batch.

    Returns:
        ClusteringResult with ``scores`` = the (N, L) spectral profiles.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 8 (Fig. 1) and Appendix B.
    """
    start = time.perf_counter()
    _validate(model, U, eps, rule)
    rng = as_generator(rng)
    item_clusters = model.item_clusters(rng)
    a_hat = pairwise_preference_matrix(model, item_clusters, U, eps, rule=rule, rng=rng, batch_size=batch_size,
                                       progress=progress)
    profiles = spectral_profiles(a_hat, model.L, rng)
    labels = kmeans_rows(profiles, model.L, rng, restarts=restarts)
    return make_result("pairwise-preference", labels, item_clusters, time.perf_counter() - start, U, scores=profiles)
