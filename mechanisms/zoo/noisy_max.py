"""Report-noisy-max: the index (private) and the noisy maximum value (not private), Laplace or exponential noise."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import require_eps, require_int
from dpcert.mechanisms.zoo._common import ZooMechanism, as_vector

__all__ = ["NoisyMax", "NoisyMaxExponential", "NoisyMaxExponentialValue", "NoisyMaxValue", "QUERIES_RANGE"]

QUERIES_RANGE = (2, 1000)  # k, the number of queries


@dataclass(frozen=True)
class _NoisyMaxBase(ZooMechanism):
    eps: sympy.Expr
    k: int = 5
    exponential: ClassVar[bool] = False
    """Exponential noise of scale 2/eps instead of Laplace (Ding et al., CCS 2018, Algorithms 6 and 8)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "k", require_int("k", self.k, minimum=QUERIES_RANGE[0], maximum=QUERIES_RANGE[1]))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """All answers 0 vs all 1, and (1, ..., 1) vs one above and the rest below, (2, 0, ..., 0), and vs one below
        and the rest above, (0, 2, ..., 2) (Ding et al., CCS 2018, Table 2 and Section 5.1). For the index with Laplace
        noise (k = 5, eps = 0.1) the last is the stronger: its best event {0} has privacy loss 0.0946 against 0.0927."""
        ones = (1,) * self.k
        return [((0,) * self.k, ones), (ones, (2,) + (0,) * (self.k - 1)), (ones, (0,) + (2,) * (self.k - 1))]

    def _noisy(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        scale = 2.0 / float(self.eps)
        noise = rng.exponential(scale, (size, self.k)) if self.exponential else rng.laplace(0.0, scale, (size, self.k))
        return as_vector(x, self.k) + noise


@dataclass(frozen=True)
class NoisyMax(_NoisyMaxBase):
    """Report noisy max: argmax_i (q_i + Lap(2/eps)), queries of sensitivity 1.

    Expected verdict: private (eps-DP; Dwork and Roth 2014, Claim 3.9, with Lap(2/eps) for queries that
    may move in both directions). Why: raising the winner's noise by 2 keeps it the winner at cost eps.
    """

    name: ClassVar[str] = "noisy-max"
    expected_verdict: ClassVar[str] = "private"

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        return self._noisy(x, check_size(size), rng).argmax(axis=1)


@dataclass(frozen=True)
class NoisyMaxValue(_NoisyMaxBase):
    """Noisy max returning the value max_i (q_i + Lap(2/eps)) instead of the index.

    Expected verdict: not private: on 0^k vs 1^k, P(max <= t) = F(t)^k vs F(t - 1)^k, a ratio of
    e^{k eps/2} for t <= 0 (Ding et al., CCS 2018, "NoisyMax returning the value").
    """

    name: ClassVar[str] = "noisy-max-value"
    expected_verdict: ClassVar[str] = "not-private"

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        return self._noisy(x, check_size(size), rng).max(axis=1)


@dataclass(frozen=True)
class NoisyMaxExponential(NoisyMax):
    """Report noisy max with exponential noise: argmax_i (q_i + Exp(2/eps)) (DP-Sniper's ReportNoisyMax2).

    Expected verdict: private (eps-DP; Ding et al., CCS 2018, Algorithm 6, a correct variant): as for Laplace noise,
    raising the winner's noise by 2 keeps it the winner at cost eps, the exponential density falling by e^-eps.
    """

    name: ClassVar[str] = "report-noisy-max2"
    expected_verdict: ClassVar[str] = "private"
    exponential: ClassVar[bool] = True


@dataclass(frozen=True)
class NoisyMaxExponentialValue(NoisyMaxValue):
    """Noisy max with exponential noise returning the value max_i (q_i + Exp(2/eps)) (DP-Sniper's ReportNoisyMax4).

    Expected verdict: not private (Ding et al., CCS 2018, Algorithm 8): on 0^k vs 1^k the value is below 1 with
    positive probability under 0^k and never under 1^k (the noise is non-negative).
    """

    name: ClassVar[str] = "report-noisy-max4"
    expected_verdict: ClassVar[str] = "not-private"
    exponential: ClassVar[bool] = True
