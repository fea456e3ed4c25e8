"""The two-sided geometric mechanism on a bounded integer range, and a broken truncation of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, check_size, require_index
from dpcert.mechanisms.neighbours import Adjacency
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int

__all__ = ["Geometric", "GeometricRenormalized", "MAX_END"]

MAX_END = 10**12
"""lo and hi lie in [-10^12, 10^12]: the closed forms, sampling and the symbolic checker work on any such range."""


class _BoundedIntegerRange(FiniteMechanism):
    eps: sympy.Expr
    lo: int
    hi: int
    size_parameters: ClassVar[tuple[str, ...]] = ("lo", "hi")
    max_enumerated_span: ClassVar[int]
    """The largest hi - lo whose channel is enumerated (the exact checker's work grows like its cube)."""

    def _validate(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "lo", require_int("lo", self.lo, minimum=-MAX_END, maximum=MAX_END))
        object.__setattr__(self, "hi", require_int("hi", self.hi, minimum=-MAX_END, maximum=MAX_END))
        if self.hi <= self.lo:
            raise InvalidParameterError(f"hi must be > lo = {self.lo}. Got {self.hi}")

    def require_enumerable(self) -> None:
        if self.hi - self.lo > self.max_enumerated_span:
            raise InvalidParameterError(
                f"hi - lo must be <= {self.max_enumerated_span} to enumerate the channel of {self.name}. "
                f"Got lo = {self.lo}, hi = {self.hi}{self._symbolic_hint}")

    _symbolic_hint: ClassVar[str] = ""

    def validate_input(self, x: int) -> None:
        require_index(x, self.lo, self.hi)

    @cached_property
    def alpha(self) -> sympy.Expr:
        """alpha = e^-eps."""
        return sympy.exp(-self.eps)

    @property
    def neighbours(self) -> Adjacency:
        """Inputs one apart (a predicate: the range may hold 10^12 inputs, which the checkers never list)."""
        return Adjacency(_one_apart, "inputs that differ by 1")

    def inputs(self) -> tuple[int, ...]:
        self.require_enumerable()
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
    max_enumerated_span: ClassVar[int] = 200
    _symbolic_hint: ClassVar[str] = "; the symbolic checker (--symbolic) decides it on any range"
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
        self.require_enumerable()
        interior, tail = self._by_distance
        table = {self.lo: tail[x - self.lo]}
        table.update((y, interior[abs(y - x)]) for y in range(self.lo + 1, self.hi))
        table[self.hi] = tail[self.hi - x]
        return table

    def sample(self, x: int, size: int, rng: np.random.Generator) -> np.ndarray:
        """x + Z clamped, Z = G - G' with P(G >= k) = alpha^k drawn as floor(E / eps), E ~ Exp(1).

        numpy's own geometric sampler saturates at 2^63 - 1 for success probabilities below 10^-19 (eps
        below 10^-19), which would make Z = 0 always; floor(E / eps) has the same law at every eps.
        """
        size = check_size(size)
        self.validate_input(x)
        eps = float(self.eps)
        noise = np.floor(rng.exponential(size=size) / eps) - np.floor(rng.exponential(size=size) / eps)
        return np.clip(x + noise, self.lo, self.hi).astype(np.int64)


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
    max_enumerated_span: ClassVar[int] = 40
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


def _one_apart(x: int, x_prime: int) -> bool:
    return abs(x - x_prime) == 1
