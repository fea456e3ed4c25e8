"""Randomized response: the eps-DP bit release and its k-ary generalisation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, check_size, require_index
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int, require_real

__all__ = ["DELTA0_RANGE", "LeakyRandomizedResponse", "RandomizedResponse", "KaryRandomizedResponse", "MAX_K",
           "MAX_ENUMERATED_K"]

MAX_K = 10**12
"""The largest k: its closed forms, sampling and the symbolic checker work at any k up to it."""

MAX_ENUMERATED_K = 2000
"""The largest k whose k x k channel is enumerated (the exact checker: about 3 s at k = 2000)."""

DELTA0_RANGE = (sympy.Rational(1, 10**300), sympy.Rational(1, 2))
"""The leak probabilities of ``leaky-rr``: [10^-300, 1/2] (exact arithmetic below; above 1/2 the leak is most of
the report)."""


class _RandomizedResponse(FiniteMechanism):
    """Report the true value with probability e^eps / (e^eps + k - 1), else one of the other k - 1 uniformly."""

    eps: sympy.Expr
    k: int

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs()

    def require_enumerable(self) -> None:
        if self.k > MAX_ENUMERATED_K:
            raise InvalidParameterError(
                f"k must be <= {MAX_ENUMERATED_K} to enumerate the k x k channel of {self.name}. Got {self.k}; "
                "the symbolic checker (--symbolic) decides it for any k")

    def inputs(self) -> tuple[int, ...]:
        self.require_enumerable()
        return tuple(range(self.k))

    def outputs(self) -> tuple[int, ...]:
        self.require_enumerable()
        return tuple(range(self.k))

    def validate_input(self, x: int) -> None:
        require_index(x, 0, self.k - 1)

    @cached_property
    def truth_probability(self) -> sympy.Expr:
        """p = e^eps / (e^eps + k - 1)."""
        t = sympy.exp(self.eps)
        return sympy.cancel(t / (t + self.k - 1))

    @cached_property
    def lie_probability(self) -> sympy.Expr:
        """q = 1 / (e^eps + k - 1), the probability of each particular other value."""
        return sympy.cancel(1 / (sympy.exp(self.eps) + self.k - 1))

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        self.require_enumerable()
        p, q = self.truth_probability, self.lie_probability
        return {y: p if y == x else q for y in range(self.k)}

    def sample(self, x: int, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        self.validate_input(x)
        keep = rng.random(size) < float(self.truth_probability)
        other = rng.integers(0, self.k - 1, size)
        other += other >= x
        return np.where(keep, x, other)


@dataclass(frozen=True)
class KaryRandomizedResponse(_RandomizedResponse):
    """k-ary randomized response (k-RR).

    P(y | x) = e^eps / (e^eps + k - 1) if y = x, else 1 / (e^eps + k - 1).

    Why it is private: any two rows differ only in where the larger entry sits, so every ratio is
    e^eps, 1 or e^-eps: exactly eps-LDP (tight).

    References: Warner (1965); Kairouz, Oh, Viswanath, "Extremal mechanisms for local differential
    privacy" (NeurIPS 2014), Section 4.
    """

    name: ClassVar[str] = "k-rr"
    size_parameters: ClassVar[tuple[str, ...]] = ("k",)
    k: int
    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", require_int("k", self.k, minimum=2, maximum=MAX_K))
        object.__setattr__(self, "eps", require_eps("eps", self.eps))


@dataclass(frozen=True)
class RandomizedResponse(_RandomizedResponse):
    """The eps-DP bit release (binary randomized response).

    Output S = S0 with probability e^eps / (1 + e^eps), otherwise 1 - S0.

    Why it is private: P(S = s | S0 = s) / P(S = s | S0 = 1 - s) = e^eps exactly, for both s.

    References: Proposition 4 of 000_0c6e7fdc3fd68303.txt (Banerjee, Hegde, Massoulié); Warner (1965).
    """

    name: ClassVar[str] = "randomized-response"
    k: ClassVar[int] = 2
    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))


@dataclass(frozen=True)
class LeakyRandomizedResponse(FiniteMechanism):
    """Binary randomized response that reveals its input with probability delta0: an (eps, delta0)-DP bit release.

    Outputs 0 and 1: randomized response scaled by 1 - delta0, P(S0 | S0) = (1 - delta0) e^eps / (1 + e^eps) and
    P(1 - S0 | S0) = (1 - delta0) / (1 + e^eps); outputs 2 and 3 reveal S0 = 0 and S0 = 1, each with probability
    delta0 under its own input and 0 under the other.

    Why it is (eps, delta0)-DP: on outputs 0 and 1 the ratio is e^eps, and the revealing output of x has probability
    delta0 under x and 0 under x', so delta(eps) = delta0 exactly; it is eps'-DP for no eps'.

    References: the standard (eps0, delta0)-LDP randomizer (Feldman, McMillan, Talwar, FOCS 2021, Section 3.3, for
    shuffling one); as a shuffled report, the exact truth of :mod:`dpcert.proofs.claims.leaky_shuffle`.
    """

    name: ClassVar[str] = "leaky-rr"
    eps: sympy.Expr
    delta0: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "delta0", require_real("delta0", self.delta0, low=DELTA0_RANGE[0],
                                                         high=DELTA0_RANGE[1]))

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs()

    def inputs(self) -> tuple[int, ...]:
        return (0, 1)

    def outputs(self) -> tuple[int, ...]:
        return (0, 1, 2, 3)

    def validate_input(self, x: int) -> None:
        require_index(x, 0, 1)

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        t = sympy.exp(self.eps)
        kept = 1 - self.delta0
        return {x: kept * t / (t + 1), 1 - x: kept / (t + 1), 2 + x: self.delta0}

    def sample(self, x: int, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        self.validate_input(x)
        draw = rng.random(size)
        leak = float(self.delta0)
        truth = leak + (1 - leak) * float(sympy.exp(self.eps) / (sympy.exp(self.eps) + 1))
        return np.where(draw < leak, 2 + x, np.where(draw < truth, x, 1 - x))
