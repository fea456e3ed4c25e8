"""The exponential mechanism over a finite set of outputs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import sympy

from mechanisms.base import FiniteMechanism
from mechanisms.neighbours import Edges
from mechanisms.parameters import InvalidParameterError, require_positive, to_exact

__all__ = ["ExponentialMechanism"]


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
        object.__setattr__(self, "eps", require_positive("eps", self.eps))
        object.__setattr__(self, "sensitivity", require_positive("sensitivity", self.sensitivity))
        rows = self.utilities
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) < 2:
            raise InvalidParameterError("utilities must be a list of at least 2 rows (one per dataset)")
        if any(isinstance(r, (str, bytes)) or not isinstance(r, Sequence) for r in rows):
            raise InvalidParameterError("utilities must be a list of rows, each a list of numbers")
        width = len(rows[0])
        if width < 2 or any(len(r) != width for r in rows):
            raise InvalidParameterError("utilities rows must all have the same length >= 2 (one column per output)")
        exact = tuple(
            tuple(to_exact(f"utilities[{i}][{j}]", v) for j, v in enumerate(row)) for i, row in enumerate(rows)
        )
        object.__setattr__(self, "utilities", exact)

    @property
    def neighbours(self) -> Edges:
        return Edges(tuple((x, x + 1) for x in range(len(self.utilities) - 1)), "consecutive utility rows")

    def inputs(self) -> tuple[int, ...]:
        return tuple(range(len(self.utilities)))

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
