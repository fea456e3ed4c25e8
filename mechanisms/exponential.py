"""The exponential mechanism over a finite set of outputs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import sympy

from dpcert.mechanisms.additive_noise import SCALE_RANGE
from dpcert.mechanisms.base import FiniteMechanism, require_index
from dpcert.mechanisms.exact_arithmetic import exact_max
from dpcert.mechanisms.neighbours import Edges
from dpcert.mechanisms.parameters import EPS_RANGE, InvalidParameterError, exact_sign, require_eps, require_positive, require_real

__all__ = ["ExponentialMechanism", "MAX_UTILITIES", "UTILITY_BOUND"]

MAX_UTILITIES = 2500
"""The most utilities (datasets x outputs) the mechanism takes: its pmf is enumerated (about 3 s at 50 x 50)."""

UTILITY_BOUND = 10**6
"""Utilities lie within [-10^6, 10^6] (the sensitivity in :data:`~dpcert.mechanisms.additive_noise.SCALE_RANGE`)."""


@dataclass(frozen=True)
class ExponentialMechanism(FiniteMechanism):
    """Select output r with probability proportional to exp(eps * u(x, r) / (2 * sensitivity)).

    ``utilities[x][r]`` is u(x, r): one row per input (dataset) x = 0..n-1, one column per output.
    Consecutive rows x, x + 1 are the neighbouring datasets. The guarantee holds when the declared
    ``sensitivity`` bounds |u(x, r) - u(x + 1, r)|; a declared sensitivity that is too small is a
    privacy bug that the exact checker refutes.

    Why it is private: the numerator changes by at most e^(eps/2) and so does the normaliser, so every
    ratio is at most e^eps.

    References: McSherry, Talwar, "Mechanism design via differential privacy" (FOCS 2007), Theorem 6.
    """

    name: ClassVar[str] = "exponential"
    eps: sympy.Expr
    sensitivity: sympy.Expr
    utilities: tuple[tuple[sympy.Expr, ...], ...]

    def __post_init__(self) -> None:
        """Validate; the weights' exponents eps u / (2 sensitivity) may spread over at most 10^4 (probabilities
        down to e^-10^4 / outputs, the range every other eps in dpcert keeps to)."""
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "sensitivity", require_positive("sensitivity", self.sensitivity,
                                                                 at_least=SCALE_RANGE[0], at_most=SCALE_RANGE[1]))
        rows = self.utilities
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) < 2:
            raise InvalidParameterError("utilities must be a list of at least 2 rows (one per dataset)")
        if any(isinstance(r, (str, bytes)) or not isinstance(r, Sequence) for r in rows):
            raise InvalidParameterError("utilities must be a list of rows, each a list of numbers")
        width = len(rows[0])
        if width < 2 or any(len(r) != width for r in rows):
            raise InvalidParameterError("utilities rows must all have the same length >= 2 (one column per output)")
        if len(rows) * width > MAX_UTILITIES:
            raise InvalidParameterError(f"utilities must have at most {MAX_UTILITIES} entries (datasets x outputs). "
                                        f"Got {len(rows)} x {width}")
        exact = tuple(
            tuple(require_real(f"utilities[{i}][{j}]", v, low=-UTILITY_BOUND, high=UTILITY_BOUND)
                  for j, v in enumerate(row)) for i, row in enumerate(rows)
        )
        object.__setattr__(self, "utilities", exact)
        values = [u for row in exact for u in row]
        spread = self.eps * (exact_max(values) + exact_max([-u for u in values])) / (2 * self.sensitivity)
        if exact_sign(spread - EPS_RANGE[1]) > 0:
            raise InvalidParameterError(
                f"utilities, eps and sensitivity must keep eps * (max utility - min utility) / (2 sensitivity) "
                f"<= {EPS_RANGE[1]}. Got {sympy.Float(spread, 6)}")

    @property
    def neighbours(self) -> Edges:
        return Edges(tuple((x, x + 1) for x in range(len(self.utilities) - 1)), "consecutive utility rows")

    def inputs(self) -> tuple[int, ...]:
        return tuple(range(len(self.utilities)))

    def validate_input(self, x: int) -> None:
        require_index(x, 0, len(self.utilities) - 1)

    def outputs(self) -> tuple[int, ...]:
        return tuple(range(len(self.utilities[0])))

    @cached_property
    def _tables(self) -> tuple[dict[int, sympy.Expr], ...]:
        scale = self.eps / (2 * self.sensitivity)
        tables = []
        for row in self.utilities:
            weights = [sympy.exp(scale * u) for u in row]
            total = sympy.Add(*weights)
            tables.append({r: w / total for r, w in enumerate(weights)})
        return tuple(tables)

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        return self._tables[x]

