"""The cold-start recommenders of PRIVACT's Section 7: itemAvg, friendsCF and PRIVACT-CF, as top-k lists.

All three predict with the friendsCF formula for a target user u and an item i,

    r_{u,i} = r̄_u + Σ_{u'∈𝒰_i} S(u', u)(r_{u',i} − r̄_{u'}) / (Σ_{u'∈𝒰_i} S(u', u) + 1e-9),

where 𝒰_i is the set of training users who rated i, r̄_x is the mean of x's training ratings (0 for a
cold-start target, as the authors' code; it is constant per user, so it never changes u's ranking) and the
1e-9 is the code's. They differ in S:

- itemAvg: S ≡ 1 (a mean-centred item average; private, non-social);
- friendsCF: S(u', u) = 1 iff u' is u's friend in the social graph (the non-private baseline: it reads edges);
- PRIVACT-CF: S(u', u) = 1 iff u' ∈ N(u), the m closest users in PRIVACT's released tree with m = u's noisy
  degree estimate (:func:`hct_neighbours`). It reads the tree and the degree estimates only, so it is
  post-processing of PRIVACT's ε-edge-LDP release and spends no further budget.

Items none of the selected users rated ("fallback" items) have no social score. The current rule
(Appendix A.2, Table 4) ranks every item scored by the selected users first, by score; then the fallback
items by their itemAvg score; items nobody rated in training last (the code scores them −99999999). The
older rule of Table 5 puts the fallback items in dataset order. In both, ties go to the lower item index
(dataset order). The paper computes the fallback itemAvg "across users outside of top-m"; the code, and
this module, over all training raters of the item (spec A16).

References: 004_a0cddc0a7a24fb37.txt, Sections 7.1–7.2 and Appendix A.2; spec §2.7, §2.8, A15, A16.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.privact.tree import ClusterTree, closest_users

__all__ = [
    "DENOMINATOR_OFFSET",
    "ORDERINGS",
    "TOP_K",
    "cf_top_k",
    "fallback_order",
    "friends",
    "hct_neighbours",
    "item_average",
    "item_average_top_k",
    "neighbourhood_scores",
    "user_means",
]

DENOMINATOR_OFFSET = 1e-9
"""Added to Σ S(u', u) by the authors' code ([code]; spec §2.8)."""

ORDERINGS = ("itemavg", "dataset")
"""Fallback orderings: ``itemavg`` (the current rule, Table 4) and ``dataset`` (the older rule, Table 5)."""

TOP_K = 100
"""The paper's list length (top-100)."""


def _training(train: object) -> scipy.sparse.csr_array:
    if not scipy.sparse.issparse(train) or train.ndim != 2:
        raise InvalidParameterError(f"train must be a 2-d scipy.sparse matrix of ratings. Got {type(train).__name__}")
    matrix = scipy.sparse.csr_array(train)
    matrix.sum_duplicates()
    if matrix.nnz and not np.isfinite(matrix.data).all():
        raise InvalidParameterError("train must hold finite ratings. Got inf or nan")
    return matrix


def user_means(train: object) -> np.ndarray:
    """r̄_x = the mean of user x's training ratings (stored entries), 0 for a user without any."""
    matrix = _training(train)
    counts = np.diff(matrix.indptr)
    sums = np.asarray(matrix.sum(axis=1), dtype=np.float64).ravel()
    return np.divide(sums, counts, out=np.zeros(matrix.shape[0]), where=counts > 0)


def _centred(matrix: scipy.sparse.csr_array) -> np.ndarray:
    """r_{x,i} − r̄_x for every stored entry, in CSR order."""
    return matrix.data - np.repeat(user_means(matrix), np.diff(matrix.indptr))


def item_average(train: object) -> tuple[np.ndarray, np.ndarray]:
    """(itemAvg score, rated mask) per item: Σ_{u'∈𝒰_i} (r_{u',i} − r̄_{u'}) / (|𝒰_i| + 1e-9), S ≡ 1."""
    matrix = _training(train)
    counts = np.bincount(matrix.indices, minlength=matrix.shape[1])
    sums = np.bincount(matrix.indices, weights=_centred(matrix), minlength=matrix.shape[1])
    return sums / (counts + DENOMINATOR_OFFSET), counts > 0


def fallback_order(train: object, *, ordering: str = "itemavg") -> np.ndarray:
    """Every item in the order fallback items are ranked.

    ``itemavg``: the items rated in training by decreasing itemAvg score, then the items nobody rated;
    ``dataset``: all items in dataset order (Table 5's older rule). Ties: lower item index first.
    """
    if ordering not in ORDERINGS:
        raise InvalidParameterError(f"ordering must be one of {', '.join(ORDERINGS)}. Got {ordering!r}")
    scores, rated = item_average(train)
    if ordering == "dataset":
        return np.arange(scores.size)
    return np.lexsort((np.arange(scores.size), -scores, ~rated))


def neighbourhood_scores(train: object, selected: np.ndarray, *, target_mean: float = 0.0
                         ) -> tuple[np.ndarray, np.ndarray]:
    """(items, r_{u,i}) for the items rated by at least one selected user, increasing item index.

    r_{u,i} = target_mean + Σ_{u'∈selected∩𝒰_i} (r_{u',i} − r̄_{u'}) / (|selected∩𝒰_i| + 1e-9): the friendsCF
    formula with S(u', u) = 1 on ``selected`` (repeated ids count once).
    """
    matrix = _training(train)
    chosen = np.unique(np.asarray(selected, dtype=np.int64))
    if chosen.size and (chosen[0] < 0 or chosen[-1] >= matrix.shape[0]):
        raise InvalidParameterError(f"selected must hold user ids in [0, {matrix.shape[0] - 1}]. Got {chosen}")
    rows = matrix[chosen]
    items, slot = np.unique(rows.indices, return_inverse=True)
    counts = np.bincount(slot, minlength=items.size)
    sums = np.bincount(slot, weights=_centred(rows), minlength=items.size)  # a row's mean is its user's r̄
    return items, float(target_mean) + sums / (counts + DENOMINATOR_OFFSET)


def friends(adjacency: object, users: Sequence[int]) -> list[np.ndarray]:
    """S for friendsCF: each user's neighbours in the social graph (the non-private baseline reads the edges)."""
    graph = scipy.sparse.csr_array(adjacency) if scipy.sparse.issparse(adjacency) else None
    if graph is None or graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
        raise InvalidParameterError("adjacency must be a square scipy.sparse matrix (SocialGraph.adjacency)")
    return [graph.indices[graph.indptr[u]: graph.indptr[u + 1]].copy()
            for u in (require_int("users", u, minimum=0, maximum=graph.shape[0] - 1) for u in users)]


def hct_neighbours(tree: ClusterTree, users: Sequence[int], m: Sequence[int]) -> list[np.ndarray]:
    """S for PRIVACT-CF: N(u), the m_u closest users of u in the released tree (Section 7.2), m_u >= 1.

    Reads the tree and m only (post-processing of PRIVACT's release).
    """
    if not isinstance(tree, ClusterTree):
        raise InvalidParameterError(f"tree must be a ClusterTree. Got {type(tree).__name__}")
    users, m = list(users), list(m)
    if len(users) != len(m):
        raise InvalidParameterError(f"m must give one count per user ({len(users)}). Got {len(m)}")
    return [closest_users(tree, u, require_int("m", count, minimum=1)) for u, count in zip(users, m)]


def _check_k(k: object) -> int:
    return require_int("k", k, minimum=1, maximum=10**6)


def cf_top_k(train: object, selected: Sequence[np.ndarray], *, k: int = TOP_K, ordering: str = "itemavg",
             target_means: Sequence[float] | None = None) -> np.ndarray:
    """Top-k lists of friendsCF or PRIVACT-CF: one row of min(k, items) item indices per target.

    The items the target's selected users rated come first, by decreasing r_{u,i}
    (:func:`neighbourhood_scores`); then the fallback items in :func:`fallback_order`'s order for
    ``ordering``. Ties: lower item index first.

    Args:
        train: the training ratings (users x items).
        selected: per target, the users u' with S(u', u) = 1 (:func:`friends`, :func:`hct_neighbours`).
        k: list length (the paper's 100).
        ordering: ``itemavg`` (current rule, Table 4) or ``dataset`` (older rule, Table 5).
        target_means: r̄_u per target (default 0, the cold-start convention); a constant per row, so it
            never changes the list (spec TC-E7).
    """
    matrix = _training(train)
    k = _check_k(k)
    order = fallback_order(matrix, ordering=ordering)
    means = np.zeros(len(selected)) if target_means is None else np.asarray(target_means, dtype=np.float64)
    if means.shape != (len(selected),) or not np.isfinite(means).all():
        raise InvalidParameterError(f"target_means must be {len(selected)} finite numbers, one per target")
    length = min(k, matrix.shape[1])
    lists = np.empty((len(selected), length), dtype=np.int64)
    for row, (chosen, mean) in enumerate(zip(selected, means)):
        items, scores = neighbourhood_scores(matrix, chosen, target_mean=mean)
        social = items[np.lexsort((items, -scores))][:length]
        rest = order[: length + items.size]
        rest = rest[~np.isin(rest, items, assume_unique=True)][: length - social.size]
        lists[row] = np.concatenate([social, rest])
    return lists


def item_average_top_k(train: object, targets: int, *, k: int = TOP_K) -> np.ndarray:
    """itemAvg's top-k list (the same for every target: S ≡ 1 and r̄_u = 0), repeated for ``targets`` rows."""
    targets = require_int("targets", targets, minimum=0)
    order = fallback_order(train, ordering="itemavg")[: _check_k(k)]
    return np.tile(order, (targets, 1))
