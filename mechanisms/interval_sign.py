"""Signs of closed-form reals by interval arithmetic: an enclosure that excludes 0 decides the sign.

sympy's ``evalf`` is not a certified evaluator: it rounds the argument of a function to its working
precision before applying it, so ``log(1 + 10^-40)`` evaluates to exactly 0 at 30 digits, even with
``strict=True``, and a sign read from it can be wrong. Here the expression tree is evaluated in mpmath's
interval arithmetic (``mpmath.iv``, outward rounding at every step, private contexts so no global
precision is touched): every rational becomes an interval containing it, every operation returns an
interval containing every result of its arguments, so the final interval contains the exact value.
If it excludes 0 the sign is proved; otherwise the precision grows, and if it never excludes 0 the
caller decides (the value may be exactly 0).

Supported: integers, rationals, E, pi, +, *, integer and rational powers, exp, log, sqrt, Abs, Max, Min,
loggamma, gamma and factorial (mpmath's interval versions), erfc (monotone: its end points evaluated
30 bits beyond the working precision, where mpmath's erfc is accurate, then widened by 2^-prec), and any
sympy function that encloses itself: a method ``interval_enclosure(ctx)`` returning an interval of
``ctx`` that contains its value (the opaque exact numbers of the mechanisms, such as p-REC's
recommendation shares).
"""

from __future__ import annotations

import sympy

from dpcert.mechanisms.mp_contexts import interval_context, real_context

__all__ = ["interval_sign"]

PRECISIONS = (128, 512, 2048, 8192)
"""Working precisions in bits, tried in turn."""


class _Unsupported(Exception):
    pass


def _enclose(expr: sympy.Expr, ctx) -> object:
    if expr.is_Integer:
        return ctx.mpf(int(expr))
    if expr.is_Rational:
        return ctx.mpf(int(expr.p)) / int(expr.q)
    if expr is sympy.E:
        return ctx.e
    if expr is sympy.pi:
        return ctx.pi
    if expr.is_Add:
        total = ctx.mpf(0)
        for arg in expr.args:
            total += _enclose(arg, ctx)
        return total
    if expr.is_Mul:
        product = ctx.mpf(1)
        for arg in expr.args:
            product *= _enclose(arg, ctx)
        return product
    if expr.is_Pow:
        base, exponent = expr.args
        if exponent.is_Integer:
            return _enclose(base, ctx) ** int(exponent)
        if exponent.is_Rational:
            inner = _enclose(base, ctx)
            return ctx.exp(_enclose(exponent, ctx) * ctx.log(inner))
        return ctx.exp(_enclose(exponent, ctx) * ctx.log(_enclose(base, ctx)))
    if isinstance(expr, sympy.exp):
        return ctx.exp(_enclose(expr.args[0], ctx))
    if isinstance(expr, sympy.log) and len(expr.args) == 1:
        return ctx.log(_enclose(expr.args[0], ctx))
    enclosure = getattr(expr, "interval_enclosure", None)
    if enclosure is not None:
        return enclosure(ctx)
    if isinstance(expr, (sympy.loggamma, sympy.gamma, sympy.factorial)):
        inner = _enclose(expr.args[0], ctx)
        return {sympy.loggamma: ctx.loggamma, sympy.gamma: ctx.gamma, sympy.factorial: ctx.factorial}[
            type(expr)](inner)
    if isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [_enclose(arg, ctx) for arg in expr.args]
        pick = max if isinstance(expr, sympy.Max) else min
        return ctx.mpf([pick(p.a for p in parts), pick(p.b for p in parts)])
    if isinstance(expr, sympy.erfc):
        return _erfc(_enclose(expr.args[0], ctx), ctx)
    if isinstance(expr, sympy.Abs):
        inner = _enclose(expr.args[0], ctx)
        return ctx.mpf([0, max(abs(inner.a), abs(inner.b))]) if inner.a <= 0 <= inner.b else abs(inner)
    raise _Unsupported(type(expr).__name__)


def _erfc(inner, ctx) -> object:
    """erfc over an interval: decreasing, so [erfc(b), erfc(a)], each end widened outward by 2^-prec.

    The end points are evaluated in a private real context, never at mpmath's global precision.
    """
    real = real_context(ctx.prec + 30)
    high, low = real.erfc(real.mpf(inner.a._mpi_[0])), real.erfc(real.mpf(inner.b._mpi_[1]))
    slack = real.mpf(2) ** -ctx.prec
    return ctx.mpf([low * (1 - slack), high * (1 + slack)])


def interval_sign(expr: sympy.Expr) -> int | None:
    """The sign of ``expr`` (1 or -1) when an interval enclosure proves it, else None.

    None means the enclosure always contained 0 (the value may be 0, or closer to it than 2^-8000
    relative), the expression has a function this module does not enclose, or a logarithm's argument
    could not be shown positive.
    """
    for bits in PRECISIONS:
        ctx = interval_context(bits)
        try:
            value = _enclose(expr, ctx)
        except (_Unsupported, ValueError, ZeroDivisionError, OverflowError, TypeError):
            return None
        low, high = value.a, value.b
        if low > 0:
            return 1
        if high < 0:
            return -1
    return None
