"""Laplace histograms: the right noise scale 1/eps and the classic wrong scale eps."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import require_eps, require_int
from dpcert.mechanisms.zoo._common import ZooMechanism, as_vector

__all__ = ["Histogram", "HistogramWrongScale", "BINS_RANGE"]

BINS_RANGE = (1, 1000)


@dataclass(frozen=True)
class _HistogramBase(ZooMechanism):
    eps: sympy.Expr
    bins: int = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "bins", require_int("bins", self.bins, minimum=BINS_RANGE[0], maximum=BINS_RANGE[1]))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """Adding one record to an empty dataset: (1, 0, ..., 0) vs (0, ..., 0)."""
        return [((1,) + (0,) * (self.bins - 1), (0,) * self.bins)]

    def is_neighbour(self, x: Hashable, x2: Hashable) -> bool:
        """Add/remove one record: the count vectors differ by 1 in exactly one bin."""
        try:
            a, b = np.asarray(x, dtype=float), np.asarray(x2, dtype=float)
        except (TypeError, ValueError):
            return False
        return a.shape == b.shape == (self.bins,) and float(np.abs(a - b).sum()) == 1.0

    def _scale(self) -> float:
        raise NotImplementedError

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        counts = as_vector(x, self.bins)
        return counts + rng.laplace(0.0, self._scale(), (check_size(size), self.bins))


@dataclass(frozen=True)
class Histogram(_HistogramBase):
    """Counts + Lap(1/eps) per bin. Expected verdict: private (eps-DP; one record moves one count by 1).

    References: Dwork, McSherry, Nissim, Smith (TCC 2006), Example 3 (histogram queries).
    """

    name: ClassVar[str] = "histogram"
    expected_verdict: ClassVar[str] = "private"

    def _scale(self) -> float:
        return 1.0 / float(self.eps)


@dataclass(frozen=True)
class HistogramWrongScale(_HistogramBase):
    """Counts + Lap(eps) per bin (scale eps instead of 1/eps).

    Expected verdict: not private for eps < 1: it is (1/eps)-DP, so eps-DP only when eps >= 1.
    """

    name: ClassVar[str] = "histogram-wrong-scale"
    expected_verdict: ClassVar[str] = "not-private"

    def _scale(self) -> float:
        return float(self.eps)
