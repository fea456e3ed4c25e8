"""Top-k ranking quality of PRIVACT's Section 7: NDCG@k and MAP@k (Appendix A.2).

For one user with relevance r_i ∈ {0, 1} of the item at rank i (a test item with a rating > 0, [code]),
p_i the precision at cut-off i and R the number of relevant items:

    DCG@k  = Σ_{i=1}^{k} r_i / log2(i + 1),    IDCG@k = Σ_{i=1}^{min(k, R)} 1 / log2(i + 1),    NDCG = DCG / IDCG;
    AP@k   = Σ_{i=1}^{k} p_i r_i / min(R, k)   (the authors' code: standard AP@k, "code" below);
    AP@k   = Σ_{i=1}^{k} p_i r_i / k           (the paper's formula, "paper" below).

MAP@k and NDCG@k are means over the users. The published MAP values come from the code (spec A18); the
paper's 1/k version is at most min(R, k)/k, so it is below 1 even for a perfect list when R < k (TC-E5).
The code divides by min(R, k) + 1e-9; the offset only matters when R = 0, and a user without a relevant
item is refused here (every cold-start test user has held-out ratings, and every rating is > 0).

References: 004_a0cddc0a7a24fb37.txt, Appendix A.2; spec §2.9, TC-E5, A18.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["RankingScores", "hits", "ranking_scores"]


@dataclass(frozen=True, eq=False)
class RankingScores:
    """Per-user scores of top-k lists.

    Attributes:
        k: the cut-off.
        ndcg: NDCG@k per user.
        ap_code: AP@k normalised by min(R, k) (the authors' code; the published MAP).
        ap_paper: AP@k normalised by k (the paper's Appendix A.2 formula).
    """

    k: int
    ndcg: np.ndarray
    ap_code: np.ndarray
    ap_paper: np.ndarray

    @property
    def mean_ndcg(self) -> float:
        """NDCG@k, the mean over users."""
        return float(self.ndcg.mean())

    @property
    def map_code(self) -> float:
        """MAP@k with the code's normalisation."""
        return float(self.ap_code.mean())

    @property
    def map_paper(self) -> float:
        """MAP@k with the paper's 1/k normalisation."""
        return float(self.ap_paper.mean())


def hits(top_k: np.ndarray, relevant: Sequence[np.ndarray]) -> np.ndarray:
    """r_i: whether the item at each rank of each user's list is relevant ((users, k) booleans)."""
    lists = np.asarray(top_k)
    if lists.ndim != 2 or lists.dtype.kind not in "iu":
        raise InvalidParameterError(f"top_k must be a (users, k) integer array. Got shape {lists.shape} of {lists.dtype}")
    if len(relevant) != lists.shape[0]:
        raise InvalidParameterError(f"relevant must hold one item set per user ({lists.shape[0]}). Got {len(relevant)}")
    found = np.zeros(lists.shape, dtype=bool)
    for row, items in enumerate(relevant):
        found[row] = np.isin(lists[row], items)
    return found


def ranking_scores(top_k: np.ndarray, relevant: Sequence[np.ndarray], *, k: int | None = None) -> RankingScores:
    """NDCG@k and AP@k (both normalisations) of every user's list against its relevant items.

    Args:
        top_k: (users, L) item indices, best first; each row free of repeats.
        relevant: per user, the relevant items (at least one each).
        k: the cut-off (default L, the lists' length); lists shorter than k count as padded with misses.
    """
    lists = np.asarray(top_k)
    relevance = hits(lists, relevant).astype(np.float64)
    length = lists.shape[1]
    k = length if k is None else k
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not length <= k:
        raise InvalidParameterError(f"k must be an integer >= the lists' length {length}. Got {k!r}")
    if any(len(np.unique(row)) != length for row in lists):
        raise InvalidParameterError("top_k must not repeat an item within a user's list")
    counts = np.array([np.unique(np.asarray(items)).size for items in relevant], dtype=np.int64)
    if counts.size and counts.min() < 1:
        raise InvalidParameterError("relevant must give every user at least one relevant item. Got an empty set")
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = relevance @ discounts[:length]
    ideal = np.cumsum(discounts)[np.minimum(counts, k) - 1]
    precision_sum = (relevance * np.cumsum(relevance, axis=1) / np.arange(1, length + 1)).sum(axis=1)
    return RankingScores(int(k), dcg / ideal, precision_sum / np.minimum(counts, k), precision_sum / k)
