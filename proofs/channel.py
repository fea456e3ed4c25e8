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
from dataclasses import dataclass, field
from functools import cached_property

import math

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.exact_arithmetic import ExponentialField, UndecidedSignError, certified_value, exact_sign
from dpcert.mechanisms.mp_contexts import real_context
from dpcert.mechanisms.parameters import InvalidParameterError, to_exact

__all__ = ["ExactChannel", "FILTER_TOLERANCE", "MAX_CELLS", "ValueArithmetic", "float_log", "exact_compare"]

FILTER_TOLERANCE = 1e-9
"""Relative float margin below which a comparison is decided exactly instead of by the float shadow."""

MAX_CELLS = 4_000_000
"""The most probabilities (inputs x outputs) the exact checker enumerates: 16 MB of value indices,
a few seconds of exact work for k-RR with k = 2000."""


_LOG_BITS = 100
"""Working precision of :func:`float_log` (30 digits), in a private context."""


def float_log(value: sympy.Expr) -> float:
    """log(value) as a float64 (``-inf`` for zero), from a certified evaluation of ``value``.

    The error is at most 2 ulps plus 10^-18: ``value`` is evaluated to 20 certified digits (sympy's
    ``evalf(strict=True)``), then its log is rounded. A plain ``evalf`` is not enough: at eps = 10^-300
    it puts log((1 - e^-eps)/(1 + e^-eps)) at -352.8 instead of -691.5, and the float filter would then
    drop the output that decides the claim.

    Raises:
        UndecidedSignError: ``value`` cannot be evaluated to 20 certified digits.
        InvalidParameterError: ``value`` is negative.
    """
    value = sympy.sympify(value)
    if value == 0:
        return float("-inf")
    if value.is_Rational:
        if value < 0:
            raise InvalidParameterError(f"a probability must be >= 0. Got {value}")
        ctx = real_context(_LOG_BITS)
        return float(ctx.log(ctx.mpf(int(value.p)) / int(value.q)))
    approx = certified_value(value)
    if approx < 0:
        raise InvalidParameterError(f"a probability must be >= 0. Got {value}")
    ctx = real_context(_LOG_BITS)
    return float(ctx.log(ctx.mpf(approx._mpf_)))


def exact_compare(a: sympy.Expr, b: sympy.Expr) -> int:
    """The exact sign of a - b (:func:`dpcert.mechanisms.exact_arithmetic.exact_sign`: an interval enclosure,
    then sums of logarithms compared through their arguments, so near ties of log ratios cancel exactly)."""
    return exact_sign(a - b)


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
        """Enumerate the pmf of every input, checking that probabilities are >= 0 and sum exactly to 1.

        Raises:
            InvalidParameterError: the mechanism is too large to enumerate (its own
                :meth:`~dpcert.mechanisms.base.FiniteMechanism.require_enumerable`, then at most
                :data:`MAX_CELLS` probabilities), or its pmf is not a probability distribution.
        """
        mechanism.require_enumerable()
        inputs = tuple(mechanism.inputs())
        outputs = tuple(mechanism.outputs())
        if len(inputs) * len(outputs) > MAX_CELLS:
            raise InvalidParameterError(
                f"{mechanism.describe()}: the exact checker enumerates at most {MAX_CELLS} probabilities "
                f"(inputs x outputs). Got {len(inputs)} x {len(outputs)}")
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
        values, ids, logs = cls._validate_signs(inputs, outputs, values, ids, label)
        channel = cls(inputs, outputs, tuple(values), ids, np.array(logs))
        channel._validate(label)
        return channel

    @staticmethod
    def _validate_signs(inputs: tuple[Hashable, ...], outputs: tuple[Hashable, ...], values: list[sympy.Expr],
                        ids: np.ndarray, label: str) -> tuple[list[sympy.Expr], np.ndarray, list[float]]:
        """Reject negative probabilities and take the float logs of the others (see :func:`float_log`).

        A value that is exactly 0 in another form (1 - 1/2 - 1/2) becomes 0; a positive one must have a
        finite float log, the filter's premise (probabilities above 10^(-10^307)).
        """
        kept, logs, renumber = [values[0]], [-math.inf], np.zeros(len(values), dtype=ids.dtype)
        for k, v in enumerate(values[1:], start=1):
            try:
                log = float_log(v)
                sign = 1
            except UndecidedSignError:  # 0 in a form sympy does not reduce, or too close to 0 to evaluate
                try:
                    sign = exact_sign(v)
                except UndecidedSignError as error:
                    raise InvalidParameterError(f"{label}: could not decide the sign of probability {v}") from error
                if sign > 0:
                    raise InvalidParameterError(f"{label}: could not evaluate the probability {v}")
            except InvalidParameterError:
                sign = -1
            if sign < 0:
                i, j = (int(n[0]) for n in np.nonzero(ids == k))
                raise InvalidParameterError(f"{label}: probabilities must be >= 0. "
                                            f"Got P({outputs[j]!r} | {inputs[i]!r}) = {v}")
            if sign == 0:
                continue  # exactly 0: renumbered to the zero value
            if not math.isfinite(log):
                raise InvalidParameterError(f"{label}: probabilities must be 0 or above 10^(-10^307) for the float "
                                            f"filter. Got one whose log is {log}")
            renumber[k] = len(kept)
            kept.append(v)
            logs.append(log)
        return kept, renumber[ids], logs

    def _validate(self, label: str) -> None:
        arithmetic = ValueArithmetic(self.values)
        checked: dict[tuple[tuple[int, int], ...], bool] = {}
        for i, x in enumerate(self.inputs):
            found, counts = np.unique(self.ids[i], return_counts=True)
            key = tuple(zip(found.tolist(), counts.tolist()))
            if key not in checked:
                checked[key] = arithmetic.sign(dict(key), constant=-1) == 0
            if not checked[key]:
                raise InvalidParameterError(f"{label}: probabilities of input {x!r} must sum exactly to 1")

    @cached_property
    def log_difference_error(self) -> float:
        """A bound on the error of a difference of two float logs: 2 ulps + 10^-18 each (see :func:`float_log`)."""
        finite = np.abs(self.logs[np.isfinite(self.logs)])
        return 9e-16 * float(finite.max(initial=1.0)) + 1e-17

    def tolerance(self, scale: float, *, distance: float | np.ndarray = 1.0) -> float | np.ndarray:
        """The float margin below which a log-ratio comparison at magnitude ``scale`` is decided exactly.

        :data:`FILTER_TOLERANCE` relative to the scale, plus twice the error of the float logs (large
        when probabilities are tiny: a log of -10^6 carries an error of 10^-10), divided by the distance
        for a log-ratio per unit distance.
        """
        scale = abs(scale) if np.isfinite(scale) else 1.0
        return FILTER_TOLERANCE * max(1.0, scale) + 2 * self.log_difference_error / distance

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


@dataclass(eq=False)
class ValueArithmetic:
    """Exact signs of linear combinations sum_k c_k v_k + t sum_k c'_k v_k + c of some values v_k and a scale t.

    The values and t are held in one field of exponentials (:class:`ExponentialField`: Q(exp(b/q)) when
    every exponent is a rational multiple of one number, else one independent generator per
    exponential); a combination is summed there over one common denominator and its sign read from a
    polynomial: an exact tie is the zero polynomial, found without numerics. Values with coefficients
    outside Q (sqrt(2), log(3)) are combined as a sympy expression and decided by :func:`exact_sign`.
    """

    values: Sequence[sympy.Expr]
    t: sympy.Expr = sympy.Integer(1)
    common_field: ExponentialField | None = field(init=False)
    _parts_cache: dict[tuple[int, bool], tuple[object, int, object]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        numbers = [*self.values, self.t]
        self.common_field = ExponentialField.covering(numbers, max_degree=None) or ExponentialField.independent(numbers)

    def sign(self, plain: Mapping[int, object], scaled: Mapping[int, object] | None = None,
             constant: object = 0) -> int:
        """The exact sign of sum c v_k (``plain``) + t sum c' v_k (``scaled``) + ``constant``."""
        scaled = scaled or {}
        domain = self.common_field
        if domain is not None:
            try:
                terms = [(c, self._parts(k, False)) for k, c in plain.items()]
                terms += [(c, self._parts(k, True)) for k, c in scaled.items()]
                terms.append((constant, domain.parts(domain.fraction(sympy.Integer(1)))))
                return domain.sign(*domain.total(terms))
            except ValueError:  # a coefficient outside Q: sympy decides
                self.common_field = None
        expr = (sympy.Add(*(sympy.Rational(c) * self.values[k] for k, c in plain.items()))
                + self.t * sympy.Add(*(sympy.Rational(c) * self.values[k] for k, c in scaled.items()))
                + sympy.Rational(constant))
        return exact_sign(sympy.expand(expr))

    def _parts(self, k: int, scaled: bool) -> tuple[object, tuple[int, ...], object]:
        """v_k (or t v_k) in the field, split for :meth:`ExponentialField.total`; computed once."""
        if (k, scaled) not in self._parts_cache:
            numerator, denominator = self.common_field.fraction(self.values[k])
            if scaled:
                t_numerator, t_denominator = self.common_field.fraction(self.t)
                numerator, denominator = numerator * t_numerator, denominator * t_denominator
            self._parts_cache[(k, scaled)] = self.common_field.parts((numerator, denominator))
        return self._parts_cache[(k, scaled)]
