"""Exhaustive per-round leakage of RecommendByWeight over all vote-count vectors (Lemmas 12 and 13).

One round's privacy loss depends only on the surviving voters' counts: on U the counts are a (sum W) and
on U' = U minus the extra voter, who votes for object k, they are a - e_k. For every such pair and every
object j this module computes

    |E_t| = |ln Pr_a[j] - ln Pr_{a - e_k}[j]|        (Lemma 12 bounds it by 3 lambda / W),
    |ln(sum_j phi(a_j/W) / sum_j phi(a'_j/(W-1)))|   (Lemma 13 bounds it by 2 lambda / W),

vectorised over all C(W+m-1, m-1) count vectors, in float64 with logs taken in shifted form (relative
error ~1e-15, far below the slack the checks need).

References: 001_8845c8f909738498.txt, Lemmas 12 and 13; specs/gilbert_online_recommendation.md, 2.4-2.5.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from dpcert.mechanisms.online_recommendation.parameters import PRECParameters, recommendation_probabilities
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["PerRoundLeakage", "count_vectors", "per_round_leakage"]

MAX_COUNT_VECTORS = 200_000
"""The most count vectors (times m) one exhaustive per-round check may enumerate."""


def count_vectors(m: int, W: int) -> np.ndarray:
    """All vectors of m non-negative integers summing to W (stars and bars), one per row."""
    m = require_int("m", m, minimum=1)
    W = require_int("W", W, minimum=0)
    bars = np.array(list(itertools.combinations(range(W + m - 1), m - 1)), dtype=np.int64).reshape(-1, m - 1)
    edges = np.hstack([np.full((len(bars), 1), -1), bars, np.full((len(bars), 1), W + m - 1)])
    return np.diff(edges, axis=1) - 1


@dataclass(frozen=True)
class PerRoundLeakage:
    """The worst one-round leakage at survivor count W, relative to Lemmas 12 and 13.

    Attributes:
        W: survivors on the larger pattern.
        worst_loss: max |E_t| over count vectors a, extra-voter objects k and outputs j.
        lemma_12_ratio: worst_loss / (3 lambda / W) (Lemma 12 says <= 1).
        lemma_13_ratio: max |ln(sum phi / sum phi')| / (2 lambda / W) (Lemma 13 says <= 1).
        witness: (a, k, j) attaining worst_loss.
    """

    W: int
    worst_loss: float
    lemma_12_ratio: float
    lemma_13_ratio: float
    witness: tuple[tuple[int, ...], int, int]


def _log_phi_sum(params: PRECParameters, counts: np.ndarray) -> np.ndarray:
    """ln sum_j phi(a_j / W) per row, computed as lambda x_max + ln sum_j (e^{lambda(x_j - x_max)} - e^{lambda(rho - x_max)})_+."""
    W = counts.sum(axis=1, keepdims=True)
    x = counts / W
    top = x.max(axis=1, keepdims=True)
    lam = params.lam_float
    terms = np.where(2 * params.m * counts > W, np.exp(lam * (x - top)) - np.exp(lam * (float(params.rho) - top)), 0.0)
    return lam * top[:, 0] + np.log(terms.sum(axis=1))


def per_round_leakage(params: PRECParameters, W: int) -> PerRoundLeakage:
    """The exhaustive per-round check of Lemmas 12 and 13 at W survivors (W >= 2; the paper needs W >= 6m).

    Args:
        params: m, tau, gamma (the paper's gamma unless overridden).
        W: survivors on the larger pattern, including the extra voter.

    References: 001_8845c8f909738498.txt, Lemmas 12 and 13 (spec 2.4, per-round structure check).
    """
    if not isinstance(params, PRECParameters):
        raise InvalidParameterError(f"params must be PRECParameters. Got {type(params).__name__}")
    W = require_int("W", W, minimum=2)
    m = params.m
    size = math.comb(W + m - 1, m - 1) * m
    if size > MAX_COUNT_VECTORS:
        raise InvalidParameterError(f"W: at most {MAX_COUNT_VECTORS} (count vector, object) pairs. "
                                    f"Got {size} at m={m}, W={W}")
    vectors = count_vectors(m, W)
    a = np.repeat(vectors, m, axis=0)
    k = np.tile(np.arange(m), len(vectors))
    keep = a[np.arange(len(a)), k] >= 1
    a, k = a[keep], k[keep]
    smaller = a.copy()
    smaller[np.arange(len(a)), k] -= 1
    losses = np.abs(np.log(recommendation_probabilities(params, a)) - np.log(recommendation_probabilities(params, smaller)))
    row, j = np.unravel_index(int(losses.argmax()), losses.shape)
    sums = np.abs(_log_phi_sum(params, a) - _log_phi_sum(params, smaller))
    lam = params.lam_float
    worst = float(losses[row, j])
    return PerRoundLeakage(W, worst, worst / (3 * lam / W), float(sums.max()) / (2 * lam / W),
                           (tuple(a[row].tolist()), int(k[row]), int(j)))
