"""Outward rounding of exact numbers to float64: upper bounds never round down, lower bounds never up."""

from __future__ import annotations

import math
import sys
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext

import sympy

from dpcert.mechanisms.exact_arithmetic import proved_bracket
from dpcert.mechanisms.parameters import UndecidedSignError, exact_sign

__all__ = ["float_upper", "float_lower", "decimal_string"]


def _candidates(value: sympy.Expr):
    """Floats near ``value``: exact division for a rational, else evaluations at growing precision.

    An evaluation is only a guess (sympy's ``evalf`` put log(1 + 10^-40) at 0, even with strict=True);
    every candidate is proved against ``value`` by :func:`_outward` before it is returned.
    """
    if value.is_Rational:
        try:
            yield value.p / value.q
        except OverflowError:  # |value| beyond the float range
            yield math.inf if value.p > 0 else -math.inf
        return
    for digits in (30, 120, 500, 2000):
        yield float(value.evalf(digits, maxn=4 * digits))


def _on_side(candidate: float, value: sympy.Expr, side: int) -> bool:
    """Whether ``candidate`` lies at or beyond ``value`` in the direction ``side`` (infinities decided as such)."""
    if math.isinf(candidate):
        return candidate * side > 0
    return exact_sign(sympy.Rational(candidate) - value) * side >= 0


def _outward(value: sympy.Expr, side: int) -> float:
    """The float nearest ``value`` on its ``side`` (+1 at or above, -1 at or below), proved exactly."""
    infinite = math.inf * side
    for guess in _candidates(value):
        if math.isinf(guess):  # a finite value beyond the range: inf, or the largest float towards it
            return guess if guess == infinite else -side * sys.float_info.max
        for candidate in (math.nextafter(guess, -infinite), guess, math.nextafter(guess, infinite)):
            if _on_side(candidate, value, side) and not _on_side(math.nextafter(candidate, -infinite), value, side):
                return candidate
    raise UndecidedSignError(f"no float on the {'upper' if side > 0 else 'lower'} side of {value} was found")


def float_upper(value: sympy.Expr) -> float:
    """The least float64 >= ``value`` (``inf`` for sympy's oo and for values above the float range)."""
    value = sympy.sympify(value)
    if value == sympy.oo or value == -sympy.oo:
        return math.inf if value == sympy.oo else -math.inf
    return _outward(value, 1)


def float_lower(value: sympy.Expr) -> float:
    """The greatest float64 <= ``value`` (``-inf`` for sympy's -oo and for values below the float range)."""
    value = sympy.sympify(value)
    if value == sympy.oo or value == -sympy.oo:
        return math.inf if value == sympy.oo else -math.inf
    return _outward(value, -1)


def decimal_string(value: sympy.Expr, *, digits: int = 12, upward: bool = True) -> str:
    """``value`` as a decimal with ``digits`` significant digits, rounded up (or, with upward=False, down).

    The decimal is found from a proved ``digits + 15``-digit bracket (:func:`proved_bracket`; a plain
    evalf can be wrong) and then confirmed exactly, stepping one unit in the last place outward if it is
    on the wrong side of ``value``.

    Raises:
        UndecidedSignError: ``value`` is beyond 2^(+-100000) or cannot be evaluated (see
            :func:`proved_bracket`); callers keep their values inside that range.
    """
    value = sympy.sympify(value)
    if value == sympy.oo or value == -sympy.oo:
        return "inf" if value == sympy.oo else "-inf"
    direction = 1 if upward else -1
    if exact_sign(value) == 0:
        return "0"
    centre = value if value.is_Rational else sum(proved_bracket(value, digits + 15)) / 2
    with localcontext() as context:
        context.prec = digits + 20
        approx = Decimal(int(centre.p)) / Decimal(int(centre.q))
    exponent = approx.adjusted()  # the evaluation may have rounded up to the next power of 10
    if exact_sign(abs(value) - sympy.Integer(10) ** exponent) < 0:
        exponent -= 1
    quantum = Decimal(1).scaleb(exponent - digits + 1)
    rounded = approx.quantize(quantum, rounding=ROUND_CEILING if upward else ROUND_FLOOR)
    while exact_sign(sympy.Rational(str(rounded)) - value) * direction < 0:
        rounded += direction * quantum
    rounded = rounded.normalize()
    return format(rounded, "f") if -7 < rounded.adjusted() < 16 else format(rounded, "e")
