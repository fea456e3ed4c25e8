"""Rigorous floating-point enclosures used by the shuffle accountant.

Every number here is an *enclosure* ``[lo, hi]`` of an exact real. The argument is the IEEE 754
guarantee that +, -, *, / (and the correctly rounded int/int division of Python) return the float
nearest to the exact result: the exact result lies within half a unit in the last place of the
returned float, so stepping one float outward with ``math.nextafter`` (or ``numpy.nextafter``) gives a
bound on the correct side. This is interval arithmetic with round-to-nearest plus one outward step, and
it needs nothing from the platform's libm: transcendental functions (exp, log, log-gamma) are evaluated
in private mpmath interval contexts (:func:`dpcert.mechanisms.mp_contexts.interval_context`; mpmath's global
``iv`` is never touched, so threads do not disturb one another), and exact parameters are enclosed with
:func:`dpcert.proofs.rounding.float_lower` / :func:`dpcert.proofs.rounding.float_upper`, which decide the rounding
direction exactly.

Sums of many non-negative floats (numpy's ``sum`` and ``convolve``, whose order of addition is not
specified) are bounded with Higham's gamma_m = m u / (1 - m u) (u = 2^-53, "Accuracy and Stability of
Numerical Algorithms", 2nd ed., Lemma 3.1 and eq. (4.4)): whatever the order, the computed sum of m
non-negative terms is within a factor (1 +- gamma_(m-1)) of the exact sum. Values below
:data:`TINY` are treated as possible underflow: their lower bound is 0 and their upper bound is
raised to ``TINY``, which is valid because every array bounded this way is unimodal (see the callers).
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from mpmath import libmp
from mpmath.ctx_iv import MPIntervalContext

from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = [
    "UNIT_ROUNDOFF",
    "TINY",
    "up",
    "down",
    "enclose",
    "gamma",
    "iv_exact",
    "iv_evaluate",
    "iv_from_floats",
    "iv_to_floats",
    "exp_enclosure",
    "log_enclosure",
    "sum_lower",
    "sum_upper",
    "array_up",
    "array_down",
]

UNIT_ROUNDOFF = 2.0 ** -53
"""u: the relative error of one correctly rounded float64 operation (normal range)."""

TINY = 1e-280
"""Below this magnitude a computed float may have lost its relative accuracy through underflow."""

_IV_PREC = 113


def iv_exact(ctx: MPIntervalContext, value: object):
    """An interval of ``ctx`` containing the exact real ``value`` (int, float, Fraction or sympy number).

    Rationals (and floats, which are binary rationals) are divided in interval arithmetic, so the width is
    about 2^-ctx.prec relative; an irrational closed form (log(3), exp(1)/2) is enclosed between the
    float64 numbers just below and above it (:func:`enclose`).
    """
    if isinstance(value, float):
        return ctx.mpf(value)
    value = sympy.sympify(value)
    if value.is_Rational:
        return ctx.mpf(int(value.p)) / int(value.q)
    lo, hi = enclose(value)
    return ctx.mpf([lo, hi])


def _iv_node(ctx: MPIntervalContext, expr: sympy.Expr):
    """``expr`` evaluated in interval arithmetic, node by node (each mpmath interval operation rounds outward)."""
    if expr.is_Rational:
        return iv_exact(ctx, expr)
    if expr is sympy.E:
        return ctx.e
    if expr is sympy.pi:
        return ctx.pi
    args = [_iv_node(ctx, a) for a in expr.args]
    if isinstance(expr, sympy.Add):
        total = args[0]
        for a in args[1:]:
            total = total + a
        return total
    if isinstance(expr, sympy.Mul):
        product = args[0]
        for a in args[1:]:
            product = product * a
        return product
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        if exponent.is_Integer:
            return args[0] ** int(exponent)
        if exponent == sympy.Rational(1, 2):
            return ctx.sqrt(args[0])
        return ctx.exp(args[1] * ctx.log(args[0]))
    if isinstance(expr, sympy.exp):
        return ctx.exp(args[0])
    if isinstance(expr, sympy.log):
        return ctx.log(args[0])
    raise ValueError(f"iv_evaluate does not handle {type(expr).__name__} in {expr}")


def iv_evaluate(expr: sympy.Expr, *, relative_width: float = 2.0 ** -60,
                max_bits: int = 16384) -> tuple[sympy.Rational, sympy.Rational]:
    """Exact rational end points of an interval that contains the closed-form real ``expr``.

    ``expr`` may use +, *, powers, exp, log, rationals, E and pi (the shuffle closed forms). It is evaluated
    in mpmath interval arithmetic at 128 bits, then at twice the precision while the interval is wider than
    ``relative_width`` of its magnitude (cancellation, as in log(1 + 10^-60), costs precision), up to
    ``max_bits``; the last interval is returned either way, so the enclosure is always rigorous.

    Raises:
        ValueError: ``expr`` contains another function.
        ArithmeticError: a logarithm or square root of an interval that reaches below 0.
    """
    expr = sympy.sympify(expr)
    bits = 128
    while True:
        value = _iv_node(interval_context(bits), expr)
        lo, hi = value._mpi_
        low, high = sympy.Rational(*libmp.to_rational(lo)), sympy.Rational(*libmp.to_rational(hi))
        if high - low <= relative_width * max(abs(low), abs(high)) or bits >= max_bits:
            return low, high
        bits *= 2


def up(x: float) -> float:
    """The next float above ``x``: an upper bound for a result rounded to nearest."""
    return math.nextafter(x, math.inf)


def down(x: float) -> float:
    """The next float below ``x``: a lower bound for a result rounded to nearest."""
    return math.nextafter(x, -math.inf)


def array_up(x: np.ndarray) -> np.ndarray:
    """Elementwise :func:`up`."""
    return np.nextafter(x, np.inf)


def array_down(x: np.ndarray) -> np.ndarray:
    """Elementwise :func:`down`."""
    return np.nextafter(x, -np.inf)


def enclose(value: object) -> tuple[float, float]:
    """Floats ``(lo, hi)`` with lo <= value <= hi for an exact real (sympy number, int, Fraction)."""
    value = sympy.sympify(value)
    return float_lower(value), float_upper(value)


def gamma(m: int) -> float:
    """An upper bound on Higham's gamma_m = m u / (1 - m u), as a float (valid for m u < 1/2)."""
    if m * UNIT_ROUNDOFF >= 0.5:
        raise ValueError("too many terms for the floating-point error bound")
    # 2 m u >= m u / (1 - m u) when m u <= 1/2; the product 2 m u is exact (a power of two times m)
    return float(2 * m) * UNIT_ROUNDOFF


def iv_from_floats(ctx: MPIntervalContext, lo: float, hi: float):
    """The interval [lo, hi] of ``ctx`` (floats are exact binary numbers, so this is exact)."""
    return ctx.mpf([lo, hi])


def iv_to_floats(x) -> tuple[float, float]:
    """Floats enclosing an mpmath interval."""
    return down(float(x.a)), up(float(x.b))


def exp_enclosure(lo: float, hi: float) -> tuple[float, float]:
    """Floats enclosing exp([lo, hi])."""
    ctx = interval_context(_IV_PREC)
    return iv_to_floats(ctx.exp(iv_from_floats(ctx, lo, hi)))


def log_enclosure(lo: float, hi: float) -> tuple[float, float]:
    """Floats enclosing log([lo, hi]) for 0 < lo <= hi."""
    ctx = interval_context(_IV_PREC)
    return iv_to_floats(ctx.log(iv_from_floats(ctx, lo, hi)))


def sum_upper(values: np.ndarray) -> float:
    """An upper bound on the exact sum of the non-negative floats ``values`` (any summation order)."""
    m = int(values.size)
    if m == 0:
        return 0.0
    total = float(np.sum(values))  # additions of non-negative floats: relative error <= gamma_(m-1)
    return up(total * (1.0 + gamma(m)))


def sum_lower(values: np.ndarray) -> float:
    """A lower bound on the exact sum of the non-negative floats ``values`` (any summation order)."""
    m = int(values.size)
    if m == 0:
        return 0.0
    total = float(np.sum(values))
    return max(0.0, down(total * (1.0 - gamma(m))))
