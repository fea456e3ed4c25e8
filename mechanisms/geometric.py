"""The two-sided geometric mechanism on a bounded integer range, and a broken truncation of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from mechanisms.base import FiniteMechanism, check_size
from mechanisms.neighbours import Edges
from mechanisms.parameters import InvalidParameterError, require_int, require_positive

__all__ = ["Geometric", "GeometricRenormalized"]


class _BoundedIntegerRange(FiniteMechanism):
    eps: sympy.Expr
    lo: int
    hi: int

    def _validate(self) -> None:
        object.__setattr__(self, "eps", require_positive("eps", self.eps))
        object.__setattr__(self, "lo", require_int("lo", self.lo))
        object.__setattr__(self, "hi", require_int("hi", self.hi))
        if self.hi <= self.lo:
            raise InvalidParameterError(f"hi must be > lo = {self.lo}. Got {self.hi}")

    @cached_property
    def alpha(self) -> sympy.Expr:
        """alpha = e^-eps."""
        return sympy.exp(-self.eps)

    @property
    def neighbours(self) -> Edges:
        return Edges(tuple((x, x + 1) for x in range(self.lo, self.hi)), "inputs that differ by 1")

    def inputs(self) -> tuple[int, ...]:
        return tuple(range(self.lo, self.hi + 1))

    def outputs(self) -> tuple[int, ...]:
        return self.inputs()


@dataclass(frozen=True)
class Geometric(_BoundedIntegerRange):
    """Two-sided geometric noise, output clamped onto [lo, hi].

    Z has P(Z = z) = (1 - alpha) / (1 + alpha) * alpha^|z| with alpha = e^-eps; the output is
    clamp(x + Z, lo, hi), so the end points collect the tails: P(lo | x) = alpha^(x - lo) / (1 + alpha),
    P(hi | x) = alpha^(hi - x) / (1 + alpha).

    Why it is private: clamping is post-processing of x + Z, whose ratio between inputs one apart
    is alpha^(|y-x| - |y-x'|) in [e^-eps, e^eps]. Tight at every output.

    References: Ghosh, Roughgarden, Sundararajan, "Universally utility-maximizing privacy mechanisms"
    (STOC 2009), Definition 2.1.
    """

    name: ClassVar[str] = "geometric"
    eps: sympy.Expr
    lo: int = 0
    hi: int = 10

    def __post_init__(self) -> None:
        self._validate()

    @cached_property
    def _by_distance(self) -> tuple[tuple[sympy.Expr, ...], tuple[sympy.Expr, ...]]:
        """(interior, tail) probabilities indexed by the distance |y - x| (computed once per mechanism)."""
        a = self.alpha
        interior = (1 - a) / (1 + a)
        span = range(self.hi - self.lo + 1)
        return tuple(interior * a**d for d in span), tuple(a**d / (1 + a) for d in span)

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        interior, tail = self._by_distance
        table = {self.lo: tail[x - self.lo]}
        table.update((y, interior[abs(y - x)]) for y in range(self.lo + 1, self.hi))
        table[self.hi] = tail[self.hi - x]
        return table

    def sample(self, x: int, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        self.validate_input(x)
        success = 1.0 - float(self.alpha)
        noise = rng.geometric(success, size) - rng.geometric(success, size)
        return np.clip(x + noise, self.lo, self.hi)


@dataclass(frozen=True)
class GeometricRenormalized(_BoundedIntegerRange):
    """NEGATIVE CONTROL. Geometric noise truncated to [lo, hi] by renormalising instead of clamping.

    P(y | x) = alpha^|y - x| / Z(x) with Z(x) = sum over y in [lo, hi] of alpha^|y - x|.

    Why it is NOT eps-DP: the ratio between neighbours x, x + 1 picks up the factor Z(x + 1) / Z(x),
    which is not 1 (an input near the centre of the range has more mass to share than one at the
    edge), so at y <= x the ratio is e^eps * Z(x + 1) / Z(x) > e^eps when x + 1 is more central.
    dpcert refutes its eps-DP claim with that witness.
    """

    name: ClassVar[str] = "geometric-renormalized"
    eps: sympy.Expr
    lo: int = 0
    hi: int = 10

    def __post_init__(self) -> None:
        self._validate()

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        weights = {y: self.alpha ** abs(y - x) for y in self.outputs()}
        total = sympy.Add(*weights.values())
        return {y: w / total for y, w in weights.items()}
