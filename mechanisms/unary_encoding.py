"""Unary encoding (one-hot vector, every bit flipped independently): symmetric SUE and optimised OUE."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, check_size, require_index
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int

__all__ = ["UnaryEncoding", "MAX_ENUMERATED_K", "MAX_K"]

MAX_K = 10**6
"""The largest k: a report is k bits (sampling draws size x k bits); the symbolic checker works at any k."""

MAX_ENUMERATED_K = 16
"""The largest k for which the 2^k-output pmf is enumerated (the symbolic checker has no limit)."""


@dataclass(frozen=True)
class UnaryEncoding(FiniteMechanism):
    """Unary encoding of x in {0..k-1}: bit i of the report is 1 with probability p if i = x, else q.

    - ``sue`` (symmetric, basic one-time RAPPOR): p = e^(eps/2) / (e^(eps/2) + 1), q = 1 - p.
    - ``oue`` (optimised): p = 1/2, q = 1 / (e^eps + 1).

    Why it is private: two inputs x, x' change only bits x and x', so a ratio is the product of two
    one-bit ratios, at most (p / q) * ((1 - q) / (1 - p)) = e^eps for both variants (tight).

    References: Erlingsson, Pihur, Korolova, "RAPPOR" (CCS 2014); Wang, Blocki, Li, Jha, "Locally
    differentially private protocols for frequency estimation" (USENIX Security 2017), Section 4.
    """

    name: ClassVar[str] = "unary-encoding"
    size_parameters: ClassVar[tuple[str, ...]] = ("k",)
    k: int
    eps: sympy.Expr
    variant: str = "oue"

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", require_int("k", self.k, minimum=2, maximum=MAX_K))
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        if self.variant not in ("sue", "oue"):
            raise InvalidParameterError(f"variant must be 'sue' or 'oue'. Got {self.variant!r}")

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs()

    @cached_property
    def bit_probabilities(self) -> tuple[sympy.Expr, sympy.Expr]:
        """(p, q): P(bit = 1) for the true position and for every other position."""
        if self.variant == "sue":
            t = sympy.exp(self.eps / 2)
            return sympy.cancel(t / (t + 1)), sympy.cancel(1 / (t + 1))
        return sympy.Rational(1, 2), sympy.cancel(1 / (sympy.exp(self.eps) + 1))

    def inputs(self) -> tuple[int, ...]:
        return tuple(range(self.k))

    def require_enumerable(self) -> None:
        if self.k > MAX_ENUMERATED_K:
            raise InvalidParameterError(
                f"k must be <= {MAX_ENUMERATED_K} to enumerate the 2^k outputs of unary-encoding. Got {self.k}; "
                "the symbolic checker (--symbolic) decides it for any k"
            )

    def validate_input(self, x: int) -> None:
        require_index(x, 0, self.k - 1)

    def outputs(self) -> list[tuple[int, ...]]:
        self.require_enumerable()
        return list(itertools.product((0, 1), repeat=self.k))

    @cached_property
    def _probability_by_shape(self) -> dict[tuple[int, int], sympy.Expr]:
        """P(report) depends only on (bit at x, number of ones elsewhere)."""
        p, q = self.bit_probabilities
        return {
            (own, ones): sympy.cancel((p if own else 1 - p) * q**ones * (1 - q) ** (self.k - 1 - ones))
            for own in (0, 1)
            for ones in range(self.k)
        }

    def pmf(self, x: int) -> Mapping[tuple[int, ...], sympy.Expr]:
        self.validate_input(x)
        table = self._probability_by_shape
        return {y: table[(y[x], sum(y) - y[x])] for y in self.outputs()}

    def sample(self, x: int, size: int, rng: np.random.Generator) -> np.ndarray:
        """A (size, k) array of report bits."""
        size = check_size(size)
        self.validate_input(x)
        p, q = (float(v) for v in self.bit_probabilities)
        threshold = np.full(self.k, q)
        threshold[x] = p
        return (rng.random((size, self.k)) < threshold).astype(np.int8)
