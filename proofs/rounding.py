"""Outward rounding of exact numbers to float64: upper bounds never round down, lower bounds never up."""

from __future__ import annotations

import math
import sys
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import sympy

from mechanisms.parameters import exact_sign

__all__ = ["float_upper", "float_lower", "decimal_string"]


def _nearest(value: sympy.Expr) -> float:
    if value.is_Rational:
        try:
            return value.p / value.q
        except OverflowError:  # |value| beyond the float range
            return math.inf if value.p > 0 else -math.inf
    return float(value.evalf(30))


def float_upper(value: sympy.Expr) -> float:
    """The least float64 >= ``value`` (``inf`` for sympy's oo and for values above the float range)."""
    value = sympy.sympify(value)
    if value == sympy.oo or value == -sympy.oo:
        return math.inf if value == sympy.oo else -math.inf
    guess = _nearest(value)
    if math.isinf(guess):  # a finite value beyond the range: the bound is inf, or -max above -inf
        return guess if guess > 0 else -sys.float_info.max
    if exact_sign(sympy.Rational(guess) - value) < 0:
        guess = math.nextafter(guess, math.inf)
    return guess


def float_lower(value: sympy.Expr) -> float:
    """The greatest float64 <= ``value`` (``-inf`` for sympy's -oo and for values below the float range)."""
    value = sympy.sympify(value)
    if value == sympy.oo or value == -sympy.oo:
        return math.inf if value == sympy.oo else -math.inf
    guess = _nearest(value)
    if math.isinf(guess):
        return guess if guess < 0 else sys.float_info.max
    if exact_sign(sympy.Rational(guess) - value) > 0:
        guess = math.nextafter(guess, -math.inf)
    return guess


def decimal_string(value: sympy.Expr, digits: int = 12, *, upward: bool = True) -> str:
    """``value`` as a decimal with ``digits`` significant digits, rounded up (or, with upward=False, down).

    The decimal is found from a ``digits + 15``-digit evaluation and then confirmed exactly, stepping
    one unit in the last place outward if the evaluation put it on the wrong side of ``value``.
    """
    value = sympy.sympify(value)
    if value == sympy.oo or value == -sympy.oo:
        return "inf" if value == sympy.oo else "-inf"
    direction = 1 if upward else -1
    if exact_sign(value) == 0:
        return "0"
    approx = Decimal(str(value.evalf(digits + 15)))
    exponent = approx.adjusted()  # the evaluation may have rounded up to the next power of 10
    if exact_sign(abs(value) - sympy.Integer(10) ** exponent) < 0:
        exponent -= 1
    quantum = Decimal(1).scaleb(exponent - digits + 1)
    rounded = approx.quantize(quantum, rounding=ROUND_CEILING if upward else ROUND_FLOOR)
    while exact_sign(sympy.Rational(str(rounded)) - value) * direction < 0:
        rounded += direction * quantum
    rounded = rounded.normalize()
    return format(rounded, "f") if -7 < rounded.adjusted() < 16 else format(rounded, "e")
