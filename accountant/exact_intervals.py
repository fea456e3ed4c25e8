"""Exact rationals and rigorous enclosures: the number layer of the information and Fano bounds.

Bounds are exact (Python ``Fraction``/``int`` inside, sympy numbers in the results) wherever that is
affordable. Where it is not (lgamma at N = 10^12, a rational with millions of digits) a value is a
rigorous enclosure ``[lower, upper]`` from mpmath interval arithmetic (:data:`INTERVAL_BITS`-bit,
outward rounding), reported as a :class:`~dpcert.accountant.bound_result.BoundResult` whose ``value`` is the
conservative end and whose note says so. An exact rational too long to print (over
:data:`MAX_EXACT_DIGITS` digits) is reported the same way, rounded outward to 40 significant digits.

References: ARCHITECTURE.md "Numbers" (outward rounding).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.exact_arithmetic import exact_sign
from dpcert.mechanisms.mp_contexts import interval_context

__all__ = ["INTERVAL_BITS", "MAX_EXACT_DIGITS", "certified_sign", "rigorous_interval"]

INTERVAL_BITS = 256
"""Working precision of the interval path. Results are outward-rounded; lgamma is widened further."""

MAX_EXACT_DIGITS = 1000
"""Exact rationals with more digits than this are reported as a 40-digit outward enclosure."""

_COMPACT_DIGITS = 40

_IV = interval_context(INTERVAL_BITS)


def _fraction(value: sympy.Expr | Fraction | int) -> Fraction | None:
    """``value`` as a Fraction when it is rational, else None."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, sympy.Rational):
        return Fraction(int(value.p), int(value.q))
    return None


def _rational(value: Fraction | int) -> sympy.Rational:
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


def _compact(num: int, den: int) -> tuple[sympy.Rational, sympy.Rational, str]:
    """num/den (den > 0, maybe unreduced) as (lower, upper, note): exact if short, else 40 digits outward."""
    if max(num.bit_length(), den.bit_length()) <= 12 * MAX_EXACT_DIGITS:
        exact = Fraction(num, den)
        if max(len(str(abs(exact.numerator))), len(str(exact.denominator))) <= MAX_EXACT_DIGITS:
            value = _rational(exact)
            return value, value, ""
    if num == 0:
        return sympy.Integer(0), sympy.Integer(0), ""
    magnitude = num.bit_length() - den.bit_length()  # log2 |num/den| within 1
    shift = _COMPACT_DIGITS - int(magnitude * 0.30103)  # decimal digits to keep after the point
    if shift >= 0:
        floor = (num * 10**shift) // den
        lower, upper = Fraction(floor, 10**shift), Fraction(floor + 1, 10**shift)
        exact = (num * 10**shift) % den == 0
    else:
        scale = den * 10**(-shift)
        floor = num // scale
        lower, upper = Fraction(floor * 10**(-shift)), Fraction((floor + 1) * 10**(-shift))
        exact = num % scale == 0
    if exact:
        upper = lower
    digits = max(num.bit_length(), den.bit_length()) * 0.30103
    note = (f"the exact rational has about {digits:.0f} digits; reported as an outward enclosure of "
            f"{_COMPACT_DIGITS} significant digits")
    return _rational(lower), _rational(upper), note


def _iv_exact(value: Fraction | int) -> object:
    """An interval containing the rational ``value`` (exact when representable)."""
    value = Fraction(value)
    return _IV._mpq((value.numerator, value.denominator))


def _iv_expr(expr: sympy.Expr) -> object:
    """An interval containing the closed-form real ``expr`` (sympy evaluation checked to 90 digits)."""
    rational = _fraction(expr)
    if rational is not None:
        return _iv_exact(rational)
    approx = sympy.Rational(expr.evalf(90, strict=True))
    radius = abs(approx) * sympy.Rational(1, 10**80) + sympy.Rational(1, 10**300)
    return _IV.mpf((_IV._mpq((int((approx - radius).p), int((approx - radius).q))).a,
                    _IV._mpq((int((approx + radius).p), int((approx + radius).q))).b))


def _iv_widen(x: object, bits: int = INTERVAL_BITS - 40) -> object:
    """x widened by 2^-bits of its magnitude on each side (safety margin for special functions)."""
    lo, hi = _iv_ends(x)
    margin = max(abs(lo), abs(hi)) / 2**bits
    return _IV.mpf((_iv_exact(lo - margin).a, _iv_exact(hi + margin).b))


_EXPONENT_LIMIT = 30000
"""End points below 2^-30000 in magnitude are rounded outward to 0 or 2^-30000 (Fractions of 2^(10^11) bits are
not computable); end points beyond 2^30000 raise OverflowError, which callers turn into an infinite bound."""


def _mpf_fraction(t: tuple, *, upward: bool) -> Fraction:
    """An mpf end point as an exact Fraction, rounded outward (``upward``) if its magnitude is extreme."""
    sign, man, exp, bc = t
    if man == 0:
        if exp == 0:
            return Fraction(0)
        raise OverflowError("interval end point is not finite")
    if exp + bc < -_EXPONENT_LIMIT:  # tiny: replace by 0 or +-2^-LIMIT on the outer side
        if upward:
            return Fraction(0) if sign else Fraction(1, 2**_EXPONENT_LIMIT)
        return Fraction(-1, 2**_EXPONENT_LIMIT) if sign else Fraction(0)
    if exp + bc > _EXPONENT_LIMIT:
        raise OverflowError("interval end point beyond 2^30000")
    value = Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**(-exp))
    return -value if sign else value


def _iv_ends(x: object) -> tuple[Fraction, Fraction]:
    """The end points of an mpmath interval as exact Fractions (outward-rounded if extreme)."""
    a, b = x._mpi_
    return _mpf_fraction(a, upward=False), _mpf_fraction(b, upward=True)


def _iv_lgamma(n: int) -> object:
    """An enclosure of ln Gamma(n) for an integer n >= 1 (mpmath's directed rounding, widened)."""
    if n <= 2:
        return _IV.mpf(0)
    return _iv_widen(_IV.loggamma(_IV.mpf(n)))


def _result(name: str, source: str, units: str, lower: sympy.Expr, upper: sympy.Expr, *, direction: str,
            note: str = "", valid: bool = True) -> BoundResult:
    """A BoundResult from an enclosure: exact when lower == upper, else value = the conservative end."""
    if lower == upper:
        return BoundResult(name, source, lower, units, valid, note, bounds=direction)
    end = "upper" if direction == "upper" else "lower"
    value = upper if direction == "upper" else lower
    return BoundResult(name, source, value, units, valid,
                       f"{note}{'; ' if note else ''}value is the {end} end of a rigorous enclosure",
                       lower_value=lower, upper_value=upper, bounds=direction)


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def rigorous_interval(expr: object) -> tuple[sympy.Rational, sympy.Rational]:
    """A rigorous enclosure (lower, upper) of a closed-form real, e.g. a mutual information.

    Sums, products and integer powers of rationals, ``log`` of positive rationals and ``exp`` of
    rationals are evaluated in mpmath interval arithmetic at :data:`INTERVAL_BITS` bits (outward
    rounding), so two values compare rigorously by their enclosures -- much faster than sympy's exact
    sign decision on long sums of logs. Other forms use a 90-digit strict sympy evaluation, widened by
    10^-80 relative. If the enclosure contains 0, decide with
    :func:`dpcert.mechanisms.parameters.exact_sign`.

    References: ARCHITECTURE.md "Numbers" (outward rounding).
    """
    lo, hi = _iv_ends(_iv_tree(sympy.sympify(expr)))
    return _rational(lo), _rational(hi)


def _iv_tree(expr: sympy.Expr) -> object:
    if expr.is_Rational:
        return _iv_exact(Fraction(int(expr.p), int(expr.q)))
    if isinstance(expr, sympy.Add):
        total = _IV.mpf(0)
        for term in expr.args:
            total = total + _iv_tree(term)
        return total
    if isinstance(expr, sympy.Mul):
        total = _IV.mpf(1)
        for factor in expr.args:
            total = total * _iv_tree(factor)
        return total
    if isinstance(expr, sympy.log) and expr.args[0].is_Rational and expr.args[0] > 0:
        return _IV.log(_iv_tree(expr.args[0]))
    if isinstance(expr, sympy.exp) and expr.args[0].is_Rational:
        return _IV.exp(_iv_tree(expr.args[0]))
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        power = _iv_tree(expr.base) ** int(abs(expr.exp))
        return 1 / power if expr.exp < 0 else power
    return _iv_expr(expr)


def certified_sign(expr: object) -> int:
    """The exact sign of a closed-form real: from :func:`rigorous_interval` when it excludes 0, else
    :func:`dpcert.mechanisms.parameters.exact_sign` (which raises UndecidedSignError when it cannot decide)."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return (expr.p > 0) - (expr.p < 0)
    try:
        lower, upper = rigorous_interval(expr)
        if lower > 0:
            return 1
        if upper < 0:
            return -1
    except (ArithmeticError, ValueError, TypeError, sympy.core.evalf.PrecisionExhausted):
        pass
    return exact_sign(expr)
