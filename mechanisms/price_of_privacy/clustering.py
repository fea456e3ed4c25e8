"""Clustering steps and recovery metrics shared by the recommender algorithms.

- :func:`kmeans_1d`: k-means on scores (MaxSense, Multi-MaxSense). Exact (globally optimal) for k = 2
  and, by dynamic programming, for small inputs; Lloyd's algorithm with restarts otherwise.
- :func:`kmeans_rows`: k-means on L-dimensional spectral profiles (Pairwise-Preference), with
  ``scipy.cluster.vq.kmeans2`` and restarts.
- :func:`item_error_rate`: the fraction of items misclustered under the best matching of labels.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.cluster.vq
import scipy.optimize

from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["ClusteringResult", "Progress", "item_error_rate", "kmeans_1d", "kmeans_rows", "make_result"]

Progress = Callable[[int, int], None]
"""A progress hook: called as ``progress(done, total)`` (users processed so far, all users)."""

_DP_LIMIT = 1_000_000
"""Largest n^2 for which 1-D k-means (k >= 3) is solved exactly by dynamic programming."""


@dataclass(frozen=True, eq=False)
class ClusteringResult:
    """The outcome of one simulated run of a recommender algorithm.

    Attributes:
        algorithm: "pairwise-preference", "maxsense" or "multi-maxsense".
        labels: (N,) estimated item clusters.
        true_labels: (N,) true item clusters C_N.
        error_rate: fraction of misclustered items under the best matching of labels to clusters.
        exact_recovery: every item correctly clustered (up to relabelling): error_rate == 0.
        seconds: wall-clock time of the run.
        users: number of users U.
        scores: the per-item scores B_i (MaxSense, Multi-MaxSense) or spectral profiles
            (Pairwise-Preference, (N, L)).
    """

    algorithm: str
    labels: np.ndarray
    true_labels: np.ndarray
    error_rate: float
    exact_recovery: bool
    seconds: float
    users: int
    scores: np.ndarray | None = None

    def as_json(self) -> dict[str, object]:
        """The scalar fields (no arrays), for the command line's ``--json``."""
        return {"algorithm": self.algorithm, "items": int(self.labels.size), "users": self.users,
                "error_rate": self.error_rate, "exact_recovery": self.exact_recovery, "seconds": self.seconds}


def item_error_rate(labels: np.ndarray, true_labels: np.ndarray) -> float:
    """min over matchings of estimated labels to true clusters of the fraction of misclustered items.

    Computed with the Hungarian algorithm on the confusion matrix (equal to the best over all label
    permutations when both use the same number of labels).
    """
    labels, true_labels = np.asarray(labels), np.asarray(true_labels)
    if labels.shape != true_labels.shape or labels.ndim != 1:
        raise InvalidParameterError(f"labels and true_labels must be 1-D of equal length. Got shapes "
                                    f"{labels.shape} and {true_labels.shape}")
    if labels.size == 0:
        return 0.0
    _, est = np.unique(labels, return_inverse=True)
    _, tru = np.unique(true_labels, return_inverse=True)
    confusion = np.zeros((est.max() + 1, tru.max() + 1), dtype=np.int64)
    np.add.at(confusion, (est, tru), 1)
    rows, cols = scipy.optimize.linear_sum_assignment(confusion, maximize=True)
    return float(1.0 - confusion[rows, cols].sum() / labels.size)


def make_result(algorithm: str, labels: np.ndarray, true_labels: np.ndarray, seconds: float, users: int,
                *, scores: np.ndarray | None = None) -> ClusteringResult:
    """A :class:`ClusteringResult` with the error rate and exact-recovery flag filled in."""
    error = item_error_rate(labels, true_labels)
    return ClusteringResult(algorithm, np.asarray(labels), np.asarray(true_labels), float(error), bool(error == 0.0),
                            float(seconds), int(users), scores)


def _sse_table(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    prefix = np.concatenate([[0.0], np.cumsum(sorted_values)])
    prefix_sq = np.concatenate([[0.0], np.cumsum(sorted_values**2)])
    return prefix, prefix_sq


def _segment_cost(prefix: np.ndarray, prefix_sq: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Sum of squared deviations from the mean of sorted values[start:end] (end > start)."""
    count = end - start
    total = prefix[end] - prefix[start]
    return prefix_sq[end] - prefix_sq[start] - total**2 / np.maximum(count, 1)


def kmeans_1d(values: np.ndarray, k: int, rng: np.random.Generator, *, restarts: int = 10) -> np.ndarray:
    """Labels 0..k-1 (in increasing order of cluster mean) from k-means on 1-D values.

    For k = 2 the globally optimal split is found exactly over the sorted values (an optimal 1-D
    k-means clustering is a set of intervals). For k >= 3 it is exact by dynamic programming when
    n^2 <= 1e6, and otherwise the best of ``restarts`` runs of Lloyd's algorithm (kmeans2, k-means++).
    """
    values = np.asarray(values, dtype=np.float64).ravel()
    k = require_int("k", k, minimum=1)
    n = values.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if k == 1 or np.all(values == values[0]):
        return np.zeros(n, dtype=np.int64)
    k = min(k, n)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    prefix, prefix_sq = _sse_table(ordered)
    if k == 2:
        cut = np.arange(1, n)
        cost = (_segment_cost(prefix, prefix_sq, np.zeros(n - 1, dtype=np.int64), cut)
                + _segment_cost(prefix, prefix_sq, cut, np.full(n - 1, n)))
        bounds = [0, int(cut[np.argmin(cost)]), n]
    elif n * n <= _DP_LIMIT:
        bounds = _dp_bounds(prefix, prefix_sq, n, k)
    else:
        return _lloyd_1d(values, k, rng, restarts)
    labels_sorted = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
    labels = np.empty(n, dtype=np.int64)
    labels[order] = labels_sorted
    return labels


def _dp_bounds(prefix: np.ndarray, prefix_sq: np.ndarray, n: int, k: int) -> list[int]:
    ends = np.arange(1, n + 1)
    best = _segment_cost(prefix, prefix_sq, np.zeros(n, dtype=np.int64), ends)  # one cluster over [0, e)
    choices = []
    starts = np.arange(n)
    for _ in range(1, k):
        # cost[s, e] = best[s] (s points in previous clusters) + cost of segment [s, e)
        s, e = np.meshgrid(starts, ends, indexing="ij")
        valid = s < e
        seg = np.where(valid, _segment_cost(prefix, prefix_sq, s, np.where(valid, e, s + 1)), np.inf)
        prev = np.concatenate([[np.inf], best[:-1]])  # best over the first s points with one fewer cluster
        total = prev[:, None] + seg
        arg = np.argmin(total, axis=0)
        best = total[arg, np.arange(n)]
        choices.append(arg)
    bounds = [n]
    end = n
    for arg in reversed(choices):
        start = int(arg[end - 1])
        bounds.append(start)
        end = start
    bounds.append(0)
    return sorted(set(bounds))


def _lloyd_1d(values: np.ndarray, k: int, rng: np.random.Generator, restarts: int) -> np.ndarray:
    labels = kmeans_rows(values[:, None], k, rng, restarts=restarts)
    means = np.array([values[labels == c].mean() if np.any(labels == c) else np.inf for c in range(k)])
    rank = np.empty(k, dtype=np.int64)
    rank[np.argsort(means)] = np.arange(k)
    return rank[labels]


def kmeans_rows(points: np.ndarray, k: int, rng: np.random.Generator, *, restarts: int = 10) -> np.ndarray:
    """Labels from the best (least within-cluster squared error) of ``restarts`` kmeans2 runs (k-means++)."""
    points = np.asarray(points, dtype=np.float64)
    if points.ndim == 1:
        points = points[:, None]
    n = points.shape[0]
    k = min(require_int("k", k, minimum=1), n)
    if k == 1 or n == 0:
        return np.zeros(n, dtype=np.int64)
    best_labels, best_cost = np.zeros(n, dtype=np.int64), np.inf
    for _ in range(require_int("restarts", restarts, minimum=1)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an empty cluster in one restart is not an error
            centroids, labels = scipy.cluster.vq.kmeans2(points, k, minit="++", rng=rng)
        cost = float(((points - centroids[labels]) ** 2).sum())
        if cost < best_cost:
            best_labels, best_cost = labels.astype(np.int64), cost
    return best_labels
