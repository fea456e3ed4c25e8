"""RAPPOR reports of a Bloom filter, as DP-Sniper audits them: basic RAPPOR and its one-time variant."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps
from dpcert.mechanisms.zoo._common import ZooMechanism

__all__ = ["BLOOM_BITS", "OneTimeRappor", "Rappor"]

BLOOM_BITS = {0: (0, 11, 18), 1: (3, 10, 13), 2: (7, 10, 11, 19)}
"""The set bits of DP-Sniper's 20-bit Bloom filter for the inputs 0, 1 and 2 (mmh3.hash(str(x), seed=i) % 20 for its
4 hashes i = 0..3; github.com/eth-sri/dp-sniper, dpsniper/mechanisms/rappor.py)."""

_HASHES, _BITS = 4, 20


@dataclass(frozen=True)
class _BloomReports(ZooMechanism):
    """The input's Bloom filter, each bit set to 1 or to 0 with probability f/2 each and else kept (the permanent
    randomized response), f = 2 / (1 + e^(eps / (2h))) for h = 4 hashes."""

    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))

    @property
    def flip(self) -> float:
        """f, from eps = 2h ln((1 - f/2) / (f/2)) (Erlingsson, Pihur, Korolova, CCS 2014, Theorem 1)."""
        return float(2 / (1 + sympy.exp(self.eps / (2 * _HASHES))))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """1 against 0 and against 2 (DP-Sniper's pattern generator on a one-dimensional integer input)."""
        return [(1, 0), (1, 2)]

    def is_neighbour(self, x: Hashable, x2: Hashable) -> bool:
        """Any two of the inputs 0, 1, 2 (one user's value changes)."""
        return x in BLOOM_BITS and x2 in BLOOM_BITS and x != x2

    def _permanent(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        """The permanent randomized response of x's Bloom filter, as booleans."""
        if x not in BLOOM_BITS:
            raise InvalidParameterError(f"x must be one of the inputs {sorted(BLOOM_BITS)}. Got {x!r}")
        bloom = np.zeros(_BITS, dtype=bool)
        bloom[list(BLOOM_BITS[x])] = True
        u = rng.random((check_size(size), _BITS))
        return (u < self.flip / 2) | ((u >= self.flip) & bloom)  # 1 w.p. f/2, 0 w.p. f/2, else the bit


@dataclass(frozen=True)
class OneTimeRappor(_BloomReports):
    """One-time RAPPOR: the permanent randomized response of the input's 20-bit Bloom filter alone (DP-Sniper's
    OneTimeRappor; f = 0.95 there, eps = 8 ln(21/19)).

    Expected verdict: private: two inputs' filters differ in at most 2h bits, each bit's report ratio is at most
    (1 - f/2) / (f/2), so the report is 2h ln((1 - f/2)/(f/2)) = eps-DP (Erlingsson et al., Theorem 1). The
    true eps of DP-Sniper's pairs is smaller (their filters differ in 6 and 5 bits, not 8).
    """

    name: ClassVar[str] = "one-time-rappor"
    expected_verdict: ClassVar[str] = "private"

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        return self._permanent(x, size, rng).astype(float)


@dataclass(frozen=True)
class Rappor(_BloomReports):
    """Basic RAPPOR: the permanent randomized response, then each bit reported 1 with probability 0.55 where set and
    0.45 where not (the instantaneous response; DP-Sniper's Rappor: f = 0.75, eps = 8 ln(5/3)).

    Expected verdict: private: the instantaneous response is post-processing of the eps-DP permanent one.
    """

    name: ClassVar[str] = "rappor"
    expected_verdict: ClassVar[str] = "private"

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        permanent = self._permanent(x, size, rng)
        return (rng.random(permanent.shape) < np.where(permanent, 0.55, 0.45)).astype(float)
