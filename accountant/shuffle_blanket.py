"""Privacy-blanket bounds (Balle, Bell, Gascon, Nissim, CRYPTO 2019): Hoeffding and Bennett.

**Blanket decomposition.** An eps0-LDP randomizer R can be written R(x) = (1 - gamma) LO(x) + gamma omega
with omega(y) = inf_x R(x)(y) / gamma*, gamma* = sum_y inf_x R(x)(y) >= e^-eps0, for any gamma <= gamma*.
Each of the other n - 1 users independently reports a sample of omega (the "blanket") with probability
gamma. Conditioning on everything else and using joint convexity of the hockey-stick divergence,

    delta(eps) <= E_N [ E_{W ~ omega^(N+1)} ( (1/(N+1)) sum_j L(W_j) )_+ ]
              = (1 / (gamma n)) E_{M ~ Bin(n, gamma)} E [ (L(W_1) + ... + L(W_M))_+ ],

where N ~ Bin(n - 1, gamma) and L(y) = (mu1(y) - e^eps mu0(y)) / omega(y) is the *privacy amplification
random variable* for the changed user's two output laws mu1, mu0 (E L = 1 - e^eps). The two numerical
bounds bound the inner expectation with a concentration inequality and the outer one in closed form.
With a = e^eps - 1 and E_M[z^M] = (1 - gamma + gamma z)^n (the M = 0 term is 0 and is removed):

- Hoeffding (L in an interval of width w):
  delta <= w^2 / (4 a gamma n) * [(1 - gamma + gamma e^(-2 a^2 / w^2))^n - (1 - gamma)^n];
- Bennett (Boucheron, Lugosi, Massart 2013, Theorem 2.9: L <= b, E L^2 <= v):
  delta <= b / (gamma n ln(1 + beta)) * [(1 - gamma + gamma e^(-(v/b^2) phi(beta)))^n - (1 - gamma)^n],
  beta = a b / v, phi(u) = (1 + u) ln(1 + u) - u;
  (from int_0^inf exp(-g(t + M a)) dt <= e^(-g(M a)) / g'(M a) for the convex Bennett exponent g).

**Constants.** k-ary randomized response (s = e^eps0, Z = s + k - 1): gamma = k/Z, omega uniform, L takes
k(s - t)/Z, k(1 - t s)/Z and k(1 - t)/Z with probabilities 1/k, 1/k, (k - 2)/k (t = e^eps), so
w = k (s - 1)(1 + t)/Z, b = k (s - t)/Z, v = (k/Z^2)((s - t)^2 + (1 - t s)^2 + (k - 2)(1 - t)^2).
Any eps0-LDP randomizer: gamma = e^-eps0 for the blanket count, and mu/omega in [gamma*, s gamma*] with
gamma* in [1/s, 1] unknown, which gives w = (s - 1)(1 + t), b = s - t and
v = max over gamma* in [1/s, 1] of (1 + t^2)(gamma*(1 + s) - s gamma*^2) - 2 t (2 gamma* - gamma*^2)
(from E u^2 <= (gamma* + s gamma*) - s gamma*^2 for u in [gamma*, s gamma*] with mean 1, and
uv >= gamma*(u + v) - gamma*^2).

**Rigour.** eps is located with scipy's ``brentq`` on the bound evaluated in mpmath interval arithmetic
(no overflow at eps0 = 700; no cancellation at eps0 = 10^-12 or at gamma = e^-700: the working precision
grows with log2(1/eps), log2(1/eps0), log2 n and log2(1/gamma), and doubles while the interval is wide),
bracketed by the first point of a geometric scan from below where the bound drops under delta
(the bound need not be monotone: near eps0, b -> 0 and the Bennett form tends to a positive constant).
The root is then certified by :func:`~dpcert.proofs.certified_root.certified_root`: the reported upper end
is a rational eps at which the bound, evaluated in mpmath interval arithmetic, is <= delta (the smallest
such float found from the root, to 10^-12 relative, taken as the decimal it prints as, which is how dpcert
reads a float back), and the lower end the largest such point found below it where the interval bound is
> delta, so [lower, upper] contains a crossing of the bound with delta. Where the bound is not certified
<= delta at any eps < eps0 the row is invalid and says so (the blanket bound gives no amplification there;
no-amplification gives eps0).
"""

from __future__ import annotations

import functools
import math

import sympy
from mpmath.ctx_iv import MPIntervalContext

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.shuffle_common import interval_result, invalid, randomizer_label, validate_shuffle_inputs
from dpcert.accountant.shuffle_intervals import enclose, iv_exact
from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, to_exact
from dpcert.proofs.certified_root import certified_root

__all__ = ["blanket_delta", "blanket_hoeffding", "blanket_bennett"]

_KINDS = ("hoeffding", "bennett")


_MAX_BITS = 8192
"""Largest working precision tried before an evaluation counts as inconclusive."""


def _bits(eps: float, eps0: float, n: int, k: int | None) -> int:
    """Starting precision: 128 bits plus what small eps, small eps0, large n and a small gamma cancel away.

    1 - (1 - gamma (1 - z)) and mix^n - (1 - gamma)^n lose about 2 log2(1/eps) + log2 n + log2(1/gamma)
    bits (gamma = e^-eps0 or k/(e^eps0 + k - 1)), the differences s - 1, t - 1 and (1 + t^2) s - 2 t about
    log2(1/eps) + 2 log2(1/eps0). :func:`_enclosure` doubles it while the result is too wide.
    """
    small = max(0, -math.frexp(eps)[1]) if eps > 0 else 0
    small0 = max(0, -math.frexp(eps0)[1])
    blanket = max(0.0, eps0 - math.log(k or 1)) / math.log(2)
    return 128 + 3 * small + 2 * small0 + n.bit_length() + int(blanket)


def _constants(t, s, k: int | None):
    """(gamma, width, b, v) of the blanket bound at t = e^eps, s = e^eps0 (intervals)."""
    if k is None:
        return 1 / s, (s - 1) * (1 + t), s - t, _generic_second_moment(t, s)
    Z = s + k - 1
    return (k / Z, k * (s - 1) * (1 + t) / Z, k * (s - t) / Z,
            k * ((s - t) ** 2 + (1 - t * s) ** 2 + (k - 2) * (t - 1) ** 2) / Z ** 2)


def _generic_second_moment(t, s):
    """Upper bound on E[L^2] for any eps0-LDP randomizer: max of a concave quadratic over [1/s, 1]."""

    def f(g):
        return (1 + t * t) * (g * (1 + s) - s * g * g) - 2 * t * (2 * g - g * g)

    ctx = t.ctx
    vertex = ((1 + t * t) * (1 + s) - 4 * t) / (2 * ((1 + t * t) * s - 2 * t))
    lo_end, hi_end = 1 / s, ctx.mpf(1)
    candidates = []
    if vertex.b >= lo_end.a and vertex.a <= 1:  # the vertex may lie inside [1/s, 1]
        inside = ctx.mpf([max(vertex.a, lo_end.a), min(vertex.b, 1)])
        candidates.append(f(inside).b)
    if vertex.a <= lo_end.b:
        candidates.append(f(lo_end).b)
    if vertex.b >= 1:
        candidates.append(f(hi_end).b)
    return ctx.mpf(max(candidates))


def _bound(ctx: MPIntervalContext, kind: str, eps, eps0, n: int, k: int | None):
    """The Hoeffding or Bennett bound on delta at eps (0 < eps < eps0), as an interval of ctx.

    Raises:
        ArithmeticError: a logarithm's argument is not provably positive (the precision is too low).
    """
    t, s = ctx.exp(eps), ctx.exp(eps0)
    gamma, width, b, v = _constants(t, s, k)
    a = t - 1
    if kind == "hoeffding":
        factor = width * width / (4 * a * gamma * n)
        exponent = 2 * a * a / (width * width)
    else:
        beta = a * b / v
        log_beta = _log(1 + beta)
        factor = b / (gamma * n * log_beta)
        exponent = (v / (b * b)) * ((1 + beta) * log_beta - beta)
    mix = 1 - gamma * (1 - ctx.exp(-exponent))  # 1 - gamma + gamma e^-exponent
    return factor * (ctx.exp(n * _log(mix)) - ctx.exp(n * _log(1 - gamma)))


def _log(x):
    if x.a <= 0:
        raise ArithmeticError("logarithm of an interval that reaches 0")
    return x.ctx.log(x)


def _enclosure(kind: str, eps: float | sympy.Expr, eps0: float | sympy.Expr, n: int, k: int | None, *,
               relative_width: float):
    """The bound at the exact eps as an mpmath interval, at the first precision (doubling from
    :func:`_bits`) where it is narrower than ``relative_width``; None if even :data:`_MAX_BITS` bits give
    no interval with a positive lower end or that narrow."""
    bits = _bits(enclose(eps)[0], enclose(eps0)[0], n, k)
    while bits <= _MAX_BITS:
        ctx = interval_context(bits)
        try:
            value = _bound(ctx, kind, iv_exact(ctx, eps), iv_exact(ctx, eps0), n, k)
        except (ArithmeticError, ZeroDivisionError):
            value = None
        if value is not None and value.a > 0 and value.b - value.a <= relative_width * value.b:
            return value
        bits *= 2
    return None


def _log_gap(eps: float, kind: str, eps0: float, n: int, k: int | None, delta: float) -> float:
    """ln(bound at eps) - ln(delta) to about 9 digits (an estimate for root finding), clamped to
    [-10^4, 10^4] (10^4 where the bound cannot be evaluated)."""
    value = _enclosure(kind, eps, eps0, n, k, relative_width=1e-9)
    if value is None:
        return 1e4
    return max(-1e4, min(1e4, float(value.ctx.log(value.b).a) - math.log(delta)))


def _certified(kind: str, eps: float | sympy.Expr, eps0: sympy.Expr, n: int, k: int | None, *,
               lower: bool = False) -> float:
    """An upper bound on the bound at the exact eps (or, with ``lower``, a lower bound on it); 1 or 0 where
    the interval evaluation is not conclusive."""
    value = _enclosure(kind, eps, eps0, n, k, relative_width=1e-13)
    if value is None:
        return 0.0 if lower else 1.0
    if lower:
        return max(0.0, math.nextafter(float(value.a), -math.inf))
    return min(1.0, math.nextafter(float(value.b), math.inf))


def blanket_delta(eps: object, eps0: object, n: object, *, kind: str = "hoeffding", k: object = None) -> float:
    """Upper bound on delta(eps) of n shuffled eps0-LDP reports from the blanket bound (rigorous float).

    ``kind`` is ``"hoeffding"`` or ``"bennett"``; ``k`` selects k-ary randomized response (None: any
    eps0-LDP randomizer). For eps >= eps0 the value is 0 (L <= 0 then).
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be 'hoeffding' or 'bennett'. Got {kind!r}")
    eps = to_exact("eps", eps)
    x = validate_shuffle_inputs(eps0, n, sympy.Rational(1, 2), k=k)  # delta unused here
    if exact_sign(eps - x.eps0) >= 0:
        return 0.0
    if exact_sign(eps) <= 0:
        raise InvalidParameterError(f"eps must be > 0 for the blanket bounds (they diverge at eps = 0). Got {eps}")
    return _certified(kind, eps, x.eps0, x.n, x.k)


def _crossing(kind: str, eps0: float, n: int, k: int | None, delta: float) -> tuple[float, float] | None:
    """A bracket (below, above) of a crossing of the bound with delta: bound(below) > delta >= bound(above),
    with ``above`` the first point of a geometric scan upward where the bound is <= delta; None if none."""
    def gap(eps: float) -> float:
        return _log_gap(eps, kind, eps0, n, k, delta)

    below = eps0 / 2
    for _ in range(400):  # the bound grows like 1/eps as eps -> 0: find a point above delta
        if gap(below) > 0:
            break
        below /= 256
    else:
        return None
    factor = 2 ** 0.25
    while True:
        above = min(below * factor, eps0 * (1 - 2 ** -40))
        if gap(above) <= 0:
            return below, above
        if above >= eps0 * (1 - 2 ** -40):
            return None
        below = above


def _blanket(kind: str, eps0: object, n: object, delta: object, k: object) -> BoundResult:
    x = validate_shuffle_inputs(eps0, n, delta, k=k)
    name = f"blanket-{kind}"
    d_lo, d_hi = enclose(x.delta)
    eps0_lo = enclose(x.eps0)[0]
    bracket = _crossing(kind, eps0_lo, x.n, x.k, (d_lo + d_hi) / 2)
    none_below = (f"the blanket {kind} bound exceeds delta at every eps < eps0 here: no amplification by this "
                  "bound (no-amplification gives eps0)")
    if bracket is None:
        return invalid(name, none_below)

    below, above = bracket

    @functools.cache
    def scanned_gap(eps: float) -> float:
        return _log_gap(eps, kind, eps0_lo, x.n, x.k, d_lo)

    def gap(eps: float) -> float:
        """The float model, trusted on the scan's bracket only (constant outside it)."""
        return scanned_gap(min(max(eps, below), above))

    def at_most_delta(eps: float) -> bool:
        """The bound at the decimal eps prints as (how dpcert reads a float back) is <= delta in interval
        arithmetic (0 for eps >= eps0: L <= 0 there)."""
        exact = sympy.Rational(repr(eps))
        return exact_sign(exact - x.eps0) >= 0 or _certified(kind, exact, x.eps0, x.n, x.k) <= d_lo

    def above_delta(eps: float) -> bool:
        """The bound at the decimal eps prints as is > delta in interval arithmetic (at eps = 0 it diverges)."""
        return eps <= 0 or _certified(kind, sympy.Rational(repr(eps)), x.eps0, x.n, x.k, lower=True) > d_hi

    upper = certified_root(gap, at_most_delta, below, enclose(x.eps0)[1], side="above", rtol=1e-12).certified
    if exact_sign(sympy.Rational(repr(upper)) - x.eps0) >= 0:
        return invalid(name, f"the blanket {kind} bound could not be certified <= delta at any eps < eps0 (its "
                             f"float model crosses delta between eps = {below:.6g} and {above:.6g}); "
                             "no-amplification gives eps0")
    # below the upper end, guided by it: the bound's crossing lies just under it
    lower = certified_root(lambda eps: eps - upper, above_delta, 0.0, upper, side="below", rtol=1e-12).certified
    note = (f"{randomizer_label(x.k)}; gamma = {'e^-eps0' if x.k is None else 'k/(e^eps0+k-1)'}; the bound is "
            f"certified <= delta at upper" + (" and > delta at lower (a crossing lies between)" if lower else ""))
    return interval_result(name, sympy.Rational(repr(lower)), sympy.Rational(repr(upper)), note)


def blanket_hoeffding(eps0: object, n: object, delta: object, *, k: object = None) -> BoundResult:
    """Balle, Bell, Gascon, Nissim (CRYPTO 2019): privacy-blanket bound with Hoeffding's inequality.

    Valid for every eps0 > 0 and n >= 2; ``k`` for k-ary randomized response (exact blanket
    constants), None for any eps0-LDP randomizer (gamma = e^-eps0). Formula in the module docstring.

    References:
        Balle, Bell, Gascon, Nissim, "The Privacy Blanket of the Shuffle Model" (CRYPTO 2019;
        arXiv:1903.02837), the blanket decomposition and its Hoeffding bound.
    """
    return _blanket("hoeffding", eps0, n, delta, k)


def blanket_bennett(eps0: object, n: object, delta: object, *, k: object = None) -> BoundResult:
    """Balle, Bell, Gascon, Nissim (CRYPTO 2019): privacy-blanket bound with Bennett's inequality.

    Valid for every eps0 > 0 and n >= 2; ``k`` as in :func:`blanket_hoeffding`. Formula in the module
    docstring (the Bennett form with L <= b and E L^2 <= v of Boucheron, Lugosi, Massart, Theorem 2.9).

    References:
        Balle, Bell, Gascon, Nissim (CRYPTO 2019; arXiv:1903.02837), the Bennett bound; Boucheron,
        Lugosi, Massart, "Concentration Inequalities" (2013), Theorem 2.9.
    """
    return _blanket("bennett", eps0, n, delta, k)
