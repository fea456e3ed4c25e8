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
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int

__all__ = ["RandomizedResponse", "KaryRandomizedResponse", "MAX_K", "MAX_ENUMERATED_K"]

MAX_K = 10**12
"""The largest k: its closed forms, sampling and the symbolic checker work at any k up to it."""

MAX_ENUMERATED_K = 2000
"""The largest k whose k x k channel is enumerated (the exact checker: about 3 s at k = 2000)."""


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
