"""Balcer and Vadhan's GeoSample, the truncated geometric mechanism by exact integer sampling, as DP-Sniper runs it."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive
from dpcert.mechanisms.zoo._common import ZooMechanism

__all__ = ["DENOMINATOR_BITS", "GEOSAMPLE_EPS_RANGE", "TruncatedGeometric", "max_count"]

GEOSAMPLE_EPS_RANGE = (sympy.Rational(1, 10**25), sympy.Integer(2))
"""eps of truncated-geometric: k = ceil(ln(2/eps)) is then an integer in [0, 59]."""

DENOMINATOR_BITS = 62
"""The common denominator d of GeoSample's probabilities stays below 2^62, so a uniform draw from [1, d] is one int64:
this bounds n for each eps (:func:`max_count`: 19 at eps = 1/10, 61 at eps = 2)."""


def _exponent(eps: sympy.Expr) -> int:
    """k = ceil(ln(2/eps)), DP-Sniper's choice: the output law is geometric with ratio 2^k / (2^k + 1)."""
    return int(sympy.ceiling(sympy.log(2 / eps)))


def _denominator(k: int, n: int) -> int:
    """d = (2^(k+1) + 1) (2^k + 1)^(n-1), the common denominator of the n + 1 output probabilities."""
    return (2 ** (k + 1) + 1) * (2 ** k + 1) ** (n - 1)


def max_count(eps: sympy.Expr) -> int:
    """The largest n whose denominator d stays below 2^DENOMINATOR_BITS at this eps (at least 1 on
    GEOSAMPLE_EPS_RANGE)."""
    k, n = _exponent(eps), 1
    while _denominator(k, n + 1) < 2 ** DENOMINATOR_BITS:
        n += 1
    return n


@dataclass(frozen=True)
class TruncatedGeometric(ZooMechanism):
    """GeoSample (Balcer and Vadhan, "Differential privacy on finite computers", ITCS 2018, Algorithm 4.8) as
    DP-Sniper's TruncatedGeometricMechanism runs it (github.com/eth-sri/dp-sniper, dpsniper/mechanisms/geometric.py,
    at eps = 0.1 with n = 5): a count c in [0, n], k = ceil(ln(2/eps)), d = (2^(k+1) + 1)(2^k + 1)^(n-1), and the
    output is the least z with u <= F(z) for u uniform on {1, ..., d}, where
    F(z) = 2^(k(c-z)) (2^k + 1)^(n-(c-z)) for z < c, F(z) = d - 2^(k(z-c+1)) (2^k + 1)^(n-1-(z-c)) for c <= z < n,
    and F(n) = d.

    Its law is the two-sided geometric clamped onto [0, n]: P(z) proportional to alpha^|z - c| inside, the tails
    collected at 0 and n, with alpha = 2^k / (2^k + 1) (``dpcert.mechanisms.Geometric`` at eps' = ln(1 + 2^-k), lo = 0,
    hi = n), so it is ln(1 + 2^-k)-DP for counts one apart and no better: every output's ratio is 1 + 2^-k.

    Expected verdict: not private at DP-Sniper's eps = 0.1: there k = ceil(ln 20) = 3 and ln(9/8) = 0.1178 > 0.1.
    The natural logarithm makes k too small: k = ceil(log2(2/eps)) would give 2^-k <= eps/2, hence
    ln(1 + 2^-k) <= eps/2. With ln, every eps < 2 e^-5 (k >= 6) fails; larger ones depend on eps (at eps = 1/2,
    k = 2 and ln(5/4) = 0.22 < 0.5: private). DP-Sniper's lower bound: 0.116 at eps = 0.1 (Bichsel et al., S&P 2021).
    """

    name: ClassVar[str] = "truncated-geometric"
    expected_verdict: ClassVar[str] = "not-private"
    eps: sympy.Expr
    n: int = 5

    def __post_init__(self) -> None:
        low, high = GEOSAMPLE_EPS_RANGE
        object.__setattr__(self, "eps", require_positive("eps", self.eps, at_least=low, at_most=high))
        object.__setattr__(self, "n", require_int("n", self.n, minimum=1, maximum=max_count(self.eps),
                                                  maximum_name=f"the most with d < 2^{DENOMINATOR_BITS} at this eps"))

    @cached_property
    def k(self) -> int:
        """k = ceil(ln(2/eps))."""
        return _exponent(self.eps)

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """DP-Sniper's pattern on one integer: 1 against 0 and against 2 (where 2 <= n)."""
        return [(1, other) for other in (0, 2) if other <= self.n]

    def is_neighbour(self, x: Hashable, x2: Hashable) -> bool:
        """Counts in [0, n] at most 1 apart (one individual joins or leaves the counted set)."""
        try:
            a, b = (require_int("x", v, minimum=0, maximum=self.n) for v in (x, x2))
        except InvalidParameterError:
            return False
        return abs(a - b) <= 1

    def cdf_numerators(self, c: int) -> list[int]:
        """d F(z) for z = 0, ..., n on input count c (exact integers; F(n) = 1)."""
        k, n, d = self.k, self.n, _denominator(self.k, self.n)
        return ([2 ** (k * (c - z)) * (2 ** k + 1) ** (n - (c - z)) for z in range(c)]
                + [d - 2 ** (k * (z - c + 1)) * (2 ** k + 1) ** (n - 1 - (z - c)) for z in range(c, n)] + [d])

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        c = require_int("x", x, minimum=0, maximum=self.n)
        cdf = np.array(self.cdf_numerators(c), dtype=np.int64)
        u = rng.integers(1, cdf[-1], size=check_size(size), endpoint=True, dtype=np.int64)
        return np.searchsorted(cdf, u, side="left")
