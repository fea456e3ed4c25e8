"""mpmath interval values as exact numbers: the ends of an interval, an interval around an exact real, the bits a
small number needs, and an enclosure rounded outward to floats (the number layer of the composition, Gaussian and
Rényi accountants).

Every function rounds outward: an interval contains the exact value, and a float enclosure contains the interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import sympy
from mpmath.ctx_iv import MPIntervalContext

__all__ = ["exact_interval", "float_enclosure", "interval_ends", "interval_fractions", "log2_inverse"]


def interval_ends(x) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The exact end points of an mpmath interval, as mpf numbers."""
    a, b = x._mpi_
    return mpmath.mp.make_mpf(a), mpmath.mp.make_mpf(b)


def interval_fractions(x) -> tuple[Fraction, Fraction]:
    """The exact end points of a finite mpmath interval, as Fractions."""
    def exact(end: mpmath.mpf) -> Fraction:
        man, exp = end.man_exp
        return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)

    lo, hi = interval_ends(x)
    return exact(lo), exact(hi)


def exact_interval(ctx: MPIntervalContext, value: sympy.Expr):
    """An interval of ``ctx`` containing the exact real ``value`` (relative width about 2^-ctx.prec, also
    for tiny values: a strict sympy evaluation to as many digits, widened by 10^5 units of the last)."""
    if value.is_Rational:
        return ctx._mpq((int(value.p), int(value.q)))
    digits = int(ctx.prec * 0.30103) + 10
    approx = sympy.Rational(value.evalf(digits, strict=True))  # every requested digit correct, or it raises
    slack = abs(approx) / 10 ** (digits - 5)
    low, high = approx - slack, approx + slack
    return ctx.mpf((ctx._mpq((int(low.p), int(low.q))).a, ctx._mpq((int(high.p), int(high.q))).b))


def log2_inverse(x: sympy.Expr) -> int:
    """max(0, ceil(log2(1/x))) for an exact x > 0: the bits below 1 that x needs."""
    return max(0, math.ceil(-float(sympy.log(x, 2).evalf(15))))


def float_enclosure(low: mpmath.mpf, high: mpmath.mpf) -> dict[str, sympy.Expr]:
    """``lower_value`` and ``upper_value`` of a BoundResult: [low, high] (low >= 0) rounded outward to floats.

    float() of an mpf rounds to nearest, so one step outward encloses it; an end above the float range
    becomes the largest float (lower) or oo (upper). The floats of such a result never wait on a sympy
    evaluation (which can take minutes for values like e^(10^6)).
    """
    lo = max(math.nextafter(float(low), -math.inf), 0.0)
    hi = math.nextafter(float(high), math.inf) if high > 0 else 0.0
    return {"lower_value": sympy.Rational(lo), "upper_value": sympy.oo if math.isinf(hi) else sympy.Rational(hi)}
