"""The aggregator's dissimilarity matrix S̄(i, j) = max(1, ‖c̄_i − c̄_j‖_1) and the noisy quality g(T).

S is the same construction on the true degree vectors (the code's "eps = 0" run). The floor at 1 keeps
every off-diagonal dissimilarity >= 1, which Section 5's analysis assumes (footnote 4); the diagonal is 0
and never used. g(T) = Q_D(T; S̄) is what GENTREE maximises inside PRIVACT; f(T) = Q_D(T; S).

Why S̄ is private: it is computed from the noisy degree vectors alone (post-processing).

References: 004_a0cddc0a7a24fb37.txt, Algorithm 2 (line 4), Section 5 (footnote 4), Section 5.2
(f, g); spec §1.5, §2.3, §3 (Lemma 6.1 notation).
"""

from __future__ import annotations

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive, to_exact
from dpcert.mechanisms.privact.degree_vector import noisy_degree_vectors
from dpcert.mechanisms.privact.tree import ClusterTree

__all__ = ["dissimilarity_matrix", "noisy_quality_samples"]

_CELLS = 1 << 22
"""Float cells held at once by :func:`noisy_quality_samples`."""


def _floor_value(floor: object) -> float | None:
    if floor is None:
        return None
    value = to_exact("floor", floor)
    if value < 0:
        raise InvalidParameterError(f"floor must be >= 0 or None. Got {value}")
    return float(value) if not value.is_Integer else int(value)


def dissimilarity_matrix(vectors: np.ndarray, *, floor: object = 1) -> np.ndarray:
    """S(i, j) = max(floor, Σ_l |v_i^l − v_j^l|) for i != j, and 0 on the diagonal (n x n).

    Integer vectors give an exact integer matrix; ``floor=None`` drops the floor. Vectorised one bin at a
    time (n² memory).
    """
    v = np.asarray(vectors)
    if v.ndim != 2 or v.shape[0] < 1 or v.dtype.kind not in "iuf":
        raise InvalidParameterError(f"vectors must be an (n, K) numeric array. Got shape {v.shape} of {v.dtype}")
    if v.dtype.kind == "f" and not np.isfinite(v).all():
        raise InvalidParameterError("vectors must be finite. Got inf or nan")
    v = v.astype(np.int64) if v.dtype.kind == "u" else v
    low = _floor_value(floor)
    exact = v.dtype.kind == "i" and not isinstance(low, float)
    distance = np.zeros((v.shape[0], v.shape[0]), dtype=np.int64 if exact else np.float64)
    for column in v.T:
        distance += np.abs(column[:, None] - column[None, :])
    if low is not None:
        np.maximum(distance, low, out=distance)
        np.fill_diagonal(distance, 0)
    return distance


def noisy_quality_samples(counts: np.ndarray, tree: ClusterTree, sigma: object, size: int,
                          rng: np.random.Generator, *, floor: object = 1) -> np.ndarray:
    """``size`` independent draws of g(T) = Σ_{i<j} S̄(i, j)·|leaves(T[i ∨ j])| for a fixed tree T.

    Each draw adds fresh Lap(σ) noise to every entry of the true degree vectors ``counts`` (n x K), builds
    S̄ with the given floor (``None``: no floor) and scores T. Vectorised over draws.

    References: 004_a0cddc0a7a24fb37.txt, Lemmas 6.1–6.3 (g(T) over the randomness R).
    """
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.dtype.kind not in "iuf" or not isinstance(tree, ClusterTree) \
            or counts.shape[0] != tree.n:
        raise InvalidParameterError(f"counts must be an (n, K) array with n = tree.n. Got shape {counts.shape}")
    size = require_int("size", size, minimum=0)
    require_positive("sigma", sigma)
    low = _floor_value(floor)
    first, second = np.triu_indices(tree.n, 1)
    weights = tree.pair_weights()[first, second].astype(np.float64)
    chunk = max(1, _CELLS // max(1, first.size * counts.shape[1]))
    out = np.empty(size)
    for begin in range(0, size, chunk):
        draws = min(chunk, size - begin)
        noisy = noisy_degree_vectors(np.broadcast_to(counts, (draws, *counts.shape)), sigma, rng)
        distance = np.abs(noisy[:, first, :] - noisy[:, second, :]).sum(axis=2)
        if low is not None:
            np.maximum(distance, low, out=distance)
        out[begin: begin + draws] = distance @ weights
    return out
