"""Laplace samplers on a real input: the textbook float sampler and a floating-point-safe one."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int, to_exact
from dpcert.mechanisms.zoo._common import ZooMechanism

__all__ = ["COPIES_RANGE", "GRANULARITY_RANGE", "LaplaceExact", "LaplaceFloat", "LaplaceParallel"]

GRANULARITY_RANGE = (0, 30)  # the grid is 2^-granularity
COPIES_RANGE = (1, 100)  # the releases of laplace-parallel


@dataclass(frozen=True)
class _RealLaplace(ZooMechanism):
    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        return [(0.0, 1.0)]

    def is_neighbour(self, x: Hashable, x2: Hashable) -> bool:
        """|x - x'| <= 1 (sensitivity 1)."""
        try:
            return abs(to_exact("x", x) - to_exact("x'", x2)) <= 1
        except InvalidParameterError:
            return False


@dataclass(frozen=True)
class LaplaceFloat(_RealLaplace):
    """x + Lap(1/eps) by the textbook inverse CDF in float64: x - b sgn(u) log(1 - 2|u|), u ~ U(-1/2, 1/2).

    Expected verdict: not private in floating point (Mironov, "On significance of the least significant
    bits for differential privacy", CCS 2012): the set of doubles reachable from x and from x' differ, so
    some outputs have probability 0 under one input. This is the floating-point attack target:
    ``audit(..., floating_point=True)`` (``dpcert audit --floating-point``) catches it through the lattice of
    doubles its outputs reach; the default events, which do not look at low-order bits, do not.
    """

    name: ClassVar[str] = "laplace-float"
    expected_verdict: ClassVar[str] = "not-private"

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        u = rng.random(check_size(size)) - 0.5
        return float(to_exact("x", x)) - np.sign(u) * np.log(1 - 2 * np.abs(u)) / float(self.eps)


@dataclass(frozen=True)
class LaplaceExact(_RealLaplace):
    """x + g Z with Z discrete Laplace, P(Z = z) proportional to exp(-eps g |z|), on the grid g = 2^-granularity.

    Inputs must be multiples of g; every output is then an exact multiple of g in float64, so no
    floating-point artefact exists to attack. Z is the difference of two i.i.d. geometric variables.

    Expected verdict: private (eps-DP for |x - x'| <= 1): each grid step changes the log-probability
    by at most eps g, and inputs 1 apart are 1/g steps apart.
    References: Canonne, Kamath, Steinke, "The discrete Gaussian for differential privacy" (NeurIPS
    2020), Section 2 (discrete Laplace); Mironov (CCS 2012) for the attack this avoids.
    """

    name: ClassVar[str] = "laplace-exact"
    expected_verdict: ClassVar[str] = "private"
    granularity: int = 10

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "granularity", require_int("granularity", self.granularity, minimum=GRANULARITY_RANGE[0],
                                                              maximum=GRANULARITY_RANGE[1]))

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        g = Fraction(1, 2 ** self.granularity)
        value = to_exact("x", x)
        if not value.is_Rational or Fraction(int(value.p), int(value.q)) % g != 0 or abs(value) > 2 ** 40:
            raise InvalidParameterError(f"x must be a multiple of 2^-{self.granularity} with |x| <= 2^40. Got {x!r}")
        p = -np.expm1(-float(self.eps) * float(g))  # success probability 1 - exp(-eps g)
        z = rng.geometric(p, size) - rng.geometric(p, size)
        return float(value) + z.astype(float) * float(g)


@dataclass(frozen=True)
class LaplaceParallel(_RealLaplace):
    """n releases of one answer, each x + Lap(1/eps) (DP-Sniper's LaplaceParallel: n = 20, eps = 0.005).

    Expected verdict: not private at eps: n releases of an eps-DP answer are n eps-DP, and no better (their joint
    likelihood ratio reaches e^(n eps) where every release lies beyond both inputs). An audit must combine the
    coordinates to see more than one release's eps (Bichsel et al., S&P 2021, Section 6).
    """

    name: ClassVar[str] = "laplace-parallel"
    expected_verdict: ClassVar[str] = "not-private"
    n: int = 20

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "n", require_int("n", self.n, minimum=COPIES_RANGE[0], maximum=COPIES_RANGE[1]))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """1 against 0 and against 2 (DP-Sniper's pattern generator on a one-dimensional input)."""
        return [(1.0, 0.0), (1.0, 2.0)]

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        return float(to_exact("x", x)) + rng.laplace(0.0, 1.0 / float(self.eps), (check_size(size), self.n))
