"""Outward rounding of exact numbers to float64: upper bounds never round down, lower bounds never up."""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import sympy

from mechanisms.parameters import exact_sign

__all__ = ["float_upper", "float_lower", "decimal_string"]


def _nearest(value: sympy.Expr) -> float:
    return float(value.evalf(30)) if not value.is_Rational else value.p / value.q


def float_upper(value: sympy.Expr) -> float:
    """The least float64 >= ``value`` (``inf`` for sympy's oo)."""
    if value == sympy.oo:
        return math.inf
    guess = _nearest(value)
    if math.isfinite(guess) and exact_sign(sympy.Rational(guess) - value) < 0:
        guess = math.nextafter(guess, math.inf)
    return guess


def float_lower(value: sympy.Expr) -> float:
    """The greatest float64 <= ``value`` (``-inf`` for sympy's -oo)."""
    if value == -sympy.oo:
        return -math.inf
    guess = _nearest(value)
    if math.isfinite(guess) and exact_sign(sympy.Rational(guess) - value) > 0:
        guess = math.nextafter(guess, -math.inf)
    return guess


def decimal_string(value: sympy.Expr, digits: int = 12, *, upward: bool = True) -> str:
    """``value`` as a decimal with ``digits`` significant digits, rounded up (or, with upward=False, down)."""
    bound = float_upper(value) if upward else float_lower(value)
    if not math.isfinite(bound) or bound == 0:
        return "0" if bound == 0 else str(bound)
    exact = Decimal(repr(bound))
    quantum = Decimal(1).scaleb(exact.adjusted() - digits + 1)
    rounded = exact.quantize(quantum, rounding=ROUND_CEILING if upward else ROUND_FLOOR)
    return format(rounded.normalize(), "f") if -7 < rounded.adjusted() < 16 else format(rounded.normalize(), "e")
