"""Section 7.4's NDCG-versus-community-distance analysis: are PRIVACT-CF's recommendations worse for a user
when the users they come from are socially far from it?

For a cold-start target u with PRIVACT-CF's top-k list L_u built from its selected users N(u) (the released
tree's m_u closest users), the contributors are

    H_u = {v in N(u) : v rated some item of L_u in training},

and u's community distance is d_u = mean_{v in H_u} hops(u, v), the shortest-path length in the social graph
(a measurement for the analysis only: the private recommender never reads the graph). The paper correlates d_u
with u's NDCG@k across the targets of one run (Pearson) and reports, per seed, lastfm in [-0.31, -0.03],
delicious in [-0.25, -0.006] with four small positive outliers up to 0.08, and douban positive (users at
distance 3 are as similar to the target as those at distance 1). Targets with no contributor, or none
reachable, have no d_u and are left out.

References: 004_a0cddc0a7a24fb37.txt, Section 7.4; spec §4.3 ("NDCG vs community distance").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse
import scipy.stats

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["contributor_distances", "distance_ndcg_correlation"]


def contributor_distances(train: scipy.sparse.csr_array, targets: Sequence[int], selected: Sequence[np.ndarray],
                          lists: np.ndarray, hops: np.ndarray) -> np.ndarray:
    """d_u for each target: the mean hop distance from u to the selected users who rated an item of its list
    (NaN when there is none, or none is reachable).

    Args:
        train: the training ratings (users x items, CSR); a stored entry is a rating.
        targets: the target users u.
        selected: per target, N(u).
        lists: per target, its top-k item list (one row each).
        hops: all-pairs hop distances (inf between components), e.g. ``social_similarity.hop_distances``.
    """
    targets = np.asarray(targets, dtype=np.int64)
    lists = np.asarray(lists)
    if not (len(selected) == targets.size == lists.shape[0]):
        raise InvalidParameterError(f"selected and lists must have one entry per target ({targets.size}). Got "
                                    f"{len(selected)} and {lists.shape[0]}")
    if hops.shape != (train.shape[0], train.shape[0]):
        raise InvalidParameterError(f"hops must be {train.shape[0]} x {train.shape[0]}. Got {hops.shape}")
    rated = train.astype(bool).tocsr()
    distances = np.full(targets.size, np.nan)
    for row, (u, chosen) in enumerate(zip(targets, selected)):
        on_list = np.zeros(train.shape[1], dtype=bool)
        on_list[lists[row]] = True
        contributors = np.asarray(chosen)[np.asarray((rated[np.asarray(chosen)] @ on_list) > 0).ravel()]
        reachable = hops[u, contributors]
        reachable = reachable[np.isfinite(reachable)]
        if reachable.size:
            distances[row] = reachable.mean()
    return distances


def distance_ndcg_correlation(distances: np.ndarray, ndcg: np.ndarray) -> float:
    """Pearson's r of (d_u, NDCG_u) over the targets with a d_u; NaN when fewer than 3 remain or either is
    constant (no correlation is defined)."""
    distances, ndcg = np.asarray(distances, dtype=np.float64), np.asarray(ndcg, dtype=np.float64)
    if distances.shape != ndcg.shape:
        raise InvalidParameterError(f"ndcg must have one value per distance ({distances.size}). Got {ndcg.size}")
    keep = np.isfinite(distances)
    x, y = distances[keep], ndcg[keep]
    if x.size < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(scipy.stats.pearsonr(x, y).statistic)
