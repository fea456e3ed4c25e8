"""A finite mechanism as an exact channel matrix with a certified floating-point shadow.

The channel stores each distinct exact probability once, and the matrix of their indices. Beside
every distinct value it keeps log(value) correctly rounded to float64 (computed with 30 significant
digits, so its error is at most one unit in the last place). Checkers search and filter with these
floats and decide every near-tie exactly: an inequality whose float margin exceeds :data:`FILTER_TOLERANCE`
(many orders of magnitude above the accumulated rounding error) cannot be decided wrongly, and every
other one is decided in exact arithmetic. This is the floating-point-filter technique of exact
geometric predicates, applied to privacy ratios.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy

from mechanisms.base import FiniteMechanism
from mechanisms.exact_arithmetic import ExponentialField, UndecidedSignError, cancel_exponentials, exact_sign
from mechanisms.parameters import InvalidParameterError, to_exact

__all__ = ["ExactChannel", "FILTER_TOLERANCE", "float_log", "exact_compare"]

FILTER_TOLERANCE = 1e-9
"""Relative float margin below which a comparison is decided exactly instead of by the float shadow."""


def float_log(value: sympy.Expr) -> float:
    """log(value) rounded to the nearest float64 (``-inf`` for zero); exact to within one ulp."""
    if value == 0:
        return float("-inf")
    if value.is_Rational:
        with mpmath.workdps(30):
            return float(mpmath.log(mpmath.mpf(value.p) / value.q))
    return float(sympy.log(value).evalf(30))


def exact_compare(a: sympy.Expr, b: sympy.Expr) -> int:
    """The exact sign of a - b (see :func:`mechanisms.parameters.exact_sign`)."""
    return exact_sign(sympy.expand(a - b) if not (a.is_Rational and b.is_Rational) else a - b)


@dataclass(frozen=True, eq=False)
class ExactChannel:
    """P(y | x) of a finite mechanism: ``values[ids[i, j]]`` is P(outputs[j] | inputs[i]) exactly.

    ``values[0]`` is zero. ``logs[k]`` is :func:`float_log` of ``values[k]``.
    """

    inputs: tuple[Hashable, ...]
    outputs: tuple[Hashable, ...]
    values: tuple[sympy.Expr, ...]
    ids: np.ndarray
    logs: np.ndarray

    @classmethod
    def from_mechanism(cls, mechanism: FiniteMechanism) -> ExactChannel:
        """Enumerate the pmf of every input, checking that probabilities are >= 0 and sum exactly to 1."""
        inputs = tuple(mechanism.inputs())
        outputs = tuple(mechanism.outputs())
        return cls._assemble(inputs, outputs, (mechanism.pmf(x) for x in inputs), mechanism.describe())

    @classmethod
    def from_matrix(cls, matrix: Sequence[Sequence[object]]) -> ExactChannel:
        """A channel given directly as rows of exact probabilities (row i is input i, column j output j)."""
        rows = [[to_exact(f"matrix[{i}][{j}]", v) for j, v in enumerate(r)] for i, r in enumerate(matrix)]
        if not rows or len({len(r) for r in rows}) != 1:
            raise InvalidParameterError("matrix must be non-empty with rows of equal length")
        return cls._assemble(tuple(range(len(rows))), tuple(range(len(rows[0]))),
                             (dict(enumerate(r)) for r in rows), "matrix")

    @classmethod
    def _assemble(cls, inputs: tuple[Hashable, ...], outputs: tuple[Hashable, ...],
                  rows: Iterable[Mapping[Hashable, sympy.Expr]], label: str) -> ExactChannel:
        column = {y: j for j, y in enumerate(outputs)}
        value_id: dict[sympy.Expr, int] = {sympy.Integer(0): 0}
        values: list[sympy.Expr] = [sympy.Integer(0)]
        ids = np.zeros((len(inputs), len(outputs)), dtype=np.int32)
        for i, pmf in enumerate(rows):
            row = ids[i]
            for y, p in pmf.items():
                j = column.get(y)
                if j is None:
                    raise InvalidParameterError(f"{label}: input {inputs[i]!r} gives probability to {y!r}, "
                                                "which is not an output")
                k = value_id.get(p)
                if k is None:
                    k = value_id[p] = len(values)
                    values.append(p)
                row[j] = k
        cls._validate_signs(inputs, outputs, values, ids, label)  # before taking logs of the values
        channel = cls(inputs, outputs, tuple(values), ids, np.array([float_log(v) for v in values]))
        channel._validate(label)
        return channel

    @staticmethod
    def _validate_signs(inputs: tuple[Hashable, ...], outputs: tuple[Hashable, ...], values: list[sympy.Expr],
                        ids: np.ndarray, label: str) -> None:
        for k, v in enumerate(values):
            try:
                negative = exact_sign(v) < 0
            except UndecidedSignError as error:
                raise InvalidParameterError(f"{label}: could not decide the sign of probability {v}") from error
            if negative:
                i, j = (int(n[0]) for n in np.nonzero(ids == k))
                raise InvalidParameterError(f"{label}: probabilities must be >= 0. "
                                            f"Got P({outputs[j]!r} | {inputs[i]!r}) = {v}")

    def _validate(self, label: str) -> None:
        field = ExponentialField.covering(self.values)
        elements: dict[int, object] = {}
        checked: dict[tuple[tuple[int, int], ...], bool] = {}
        for i, x in enumerate(self.inputs):
            found, counts = np.unique(self.ids[i], return_counts=True)
            key = tuple(zip(found.tolist(), counts.tolist()))
            if key not in checked:
                checked[key] = self._sums_to_one(key, field, elements)
            if not checked[key]:
                raise InvalidParameterError(f"{label}: probabilities of input {x!r} must sum exactly to 1")

    def _sums_to_one(self, counts: tuple[tuple[int, int], ...], field: ExponentialField | None,
                     elements: dict[int, object]) -> bool:
        """Whether sum of count * values[k] is exactly 1: in Q(exp(b/q)) when possible, else by sign."""
        if field is not None:
            try:
                numerators: dict[tuple, tuple[object, object]] = {}  # denominator -> (denominator, sum of numerators)
                for k, c in counts:
                    if k not in elements:
                        elements[k] = field.element(self.values[k])
                    element = elements[k]
                    key = tuple(sorted(element.denom.terms()))
                    denominator, numerator = numerators.get(key, (element.denom, 0))
                    numerators[key] = (denominator, numerator + element.numer * c)
                total = field.field.zero
                for denominator, numerator in numerators.values():  # few distinct denominators: few gcds
                    total += field.field.field.new(numerator, denominator)
                return total == field.field.one
            except ValueError:
                pass
        total = sympy.Add(*(c * self.values[k] for k, c in counts))
        return total == 1 or exact_compare(cancel_exponentials(total), sympy.Integer(1)) == 0

    def probability(self, i: int, j: int) -> sympy.Expr:
        """P(outputs[j] | inputs[i]), exact."""
        return self.values[int(self.ids[i, j])]

    def index(self, x: Hashable) -> int:
        """Row of input ``x``."""
        try:
            return self.inputs.index(x)
        except ValueError:
            raise InvalidParameterError(f"x must be one of the mechanism's inputs. Got {x!r}") from None

    def log_matrix(self) -> np.ndarray:
        """log P(y | x) as floats (``-inf`` where P = 0), rows are inputs."""
        return self.logs[self.ids]

    def event_probability(self, i: int, columns: Sequence[int]) -> sympy.Expr:
        """P(Y in {outputs[j] for j in columns} | inputs[i]), exact."""
        found, counts = np.unique(self.ids[i, list(columns)], return_counts=True)
        return sympy.Add(*(int(c) * self.values[int(k)] for k, c in zip(found, counts)))
