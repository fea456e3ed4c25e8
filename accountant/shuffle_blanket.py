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

**Rigour.** eps is located with float64 bisection and then certified: the reported upper end is a
rational eps at which the bound, evaluated in mpmath interval arithmetic, is <= delta.
"""

from __future__ import annotations

import math

import sympy
from mpmath import iv

from accountant.bound_result import BoundResult
from accountant.shuffle_common import interval_result, randomizer_label, validate_shuffle_inputs
from accountant.shuffle_intervals import enclose, exp_enclosure, iv_precision
from mechanisms.parameters import InvalidParameterError, exact_sign, require_positive, to_exact

__all__ = ["blanket_delta", "blanket_hoeffding", "blanket_bennett"]


def _constants(t, s, k: int | None, lib):
    """(gamma, width, b, v) of the blanket bound at t = e^eps (lib: math for floats, iv for intervals)."""
    if k is None:
        gamma = 1 / s
        width = (s - 1) * (1 + t)
        b = s - t
        v = _generic_second_moment(t, s, lib)
    else:
        Z = s + k - 1
        gamma = k / Z
        width = k * (s - 1) * (1 + t) / Z
        b = k * (s - t) / Z
        v = k * ((s - t) ** 2 + (1 - t * s) ** 2 + (k - 2) * (t - 1) ** 2) / Z ** 2
    return gamma, width, b, v


def _generic_second_moment(t, s, lib):
    """Upper bound on E[L^2] for any eps0-LDP randomizer: max of a concave quadratic over [1/s, 1]."""

    def f(g):
        return (1 + t * t) * (g * (1 + s) - s * g * g) - 2 * t * (2 * g - g * g)

    vertex = ((1 + t * t) * (1 + s) - 4 * t) / (2 * ((1 + t * t) * s - 2 * t))
    if lib is math:
        return f(min(1.0, max(1 / s, vertex)))
    lo_end, hi_end = 1 / s, iv.mpf(1)
    candidates = []
    if vertex.b >= lo_end.a and vertex.a <= 1:  # the vertex may lie inside [1/s, 1]
        inside = iv.mpf([max(vertex.a, lo_end.a), min(vertex.b, 1)])
        candidates.append(f(inside).b)
    if vertex.a <= lo_end.b:
        candidates.append(f(lo_end).b)
    if vertex.b >= 1:
        candidates.append(f(hi_end).b)
    return iv.mpf(max(candidates))


def _bound(kind: str, t, s, n: int, k: int | None, lib):
    """The Hoeffding or Bennett bound on delta at t = e^eps (floats or mpmath intervals)."""
    gamma, width, b, v = _constants(t, s, k, lib)
    a = t - 1
    exp, log = (math.exp, math.log) if lib is math else (iv.exp, iv.log)
    if kind == "hoeffding":
        factor = width * width / (4 * a * gamma * n)
        z = exp(-2 * a * a / (width * width))
    else:
        beta = a * b / v
        phi = (1 + beta) * log(1 + beta) - beta
        factor = b / (gamma * n * log(1 + beta))
        z = exp(-(v / (b * b)) * phi)
    mix = 1 - gamma + gamma * z
    return factor * (exp(n * log(mix)) - exp(n * log(1 - gamma)))


def blanket_delta(eps: object, eps0: object, n: object, *, kind: str = "hoeffding", k: object = None) -> float:
    """Upper bound on delta(eps) of n shuffled eps0-LDP reports from the blanket bound (rigorous float).

    ``kind`` is ``"hoeffding"`` or ``"bennett"``; ``k`` selects k-ary randomized response (None: any
    eps0-LDP randomizer). For eps >= eps0 the value is 0 (L <= 0 then).
    """
    if kind not in ("hoeffding", "bennett"):
        raise ValueError(f"kind must be 'hoeffding' or 'bennett'. Got {kind!r}")
    eps = to_exact("eps", eps)
    x = validate_shuffle_inputs(require_positive("eps0", eps0), n, sympy.Rational(1, 2), k)  # delta unused here
    if exact_sign(eps - x.eps0) >= 0:
        return 0.0
    if exact_sign(eps) <= 0:
        raise InvalidParameterError(f"eps must be > 0 for the blanket bounds (they diverge at eps = 0). Got {eps}")
    return _certified_delta(kind, enclose(sympy.exp(eps)), enclose(sympy.exp(x.eps0)), x.n, x.k)


def _certified_delta(kind: str, t: tuple[float, float], s: tuple[float, float], n: int, k: int | None,
                     *, lower: bool = False) -> float:
    """The bound at every e^eps in [t_lo, t_hi]: an upper bound on it (or, with ``lower``, a lower bound)."""
    if t[0] <= 1.0:
        return 0.0 if lower else 1.0  # eps = 0: the bound is vacuous (a = 0)
    with iv_precision():
        value = _bound(kind, iv.mpf(list(t)), iv.mpf(list(s)), n, k, iv)
        if lower:
            return max(0.0, math.nextafter(float(value.a), -math.inf))
        return min(1.0, math.nextafter(float(value.b), math.inf))


def _blanket(kind: str, eps0: object, n: object, delta: object, k: object) -> BoundResult:
    x = validate_shuffle_inputs(eps0, n, delta, k)
    name = f"blanket-{kind}"
    s = enclose(sympy.exp(x.eps0))
    d_lo, d_hi = enclose(x.delta)
    eps0_lo = enclose(x.eps0)[0]
    s_mid = (s[0] + s[1]) / 2

    def estimate(eps: float) -> float:
        try:
            return _bound(kind, math.exp(eps), s_mid, x.n, x.k, math)
        except (OverflowError, ValueError, ZeroDivisionError):
            return math.inf

    # first crossing below delta on a geometric grid from below, then bisection (the bound need not be
    # monotone near eps0, where b -> 0 and the Bennett form tends to a positive constant)
    grid = [eps0_lo * 2.0 ** -i for i in range(60, -1, -1)]
    crossing = next((i for i, e in enumerate(grid) if e < eps0_lo and estimate(e) <= d_lo), None)
    if crossing is None:
        return interval_result(name, x.eps0, x.eps0, f"the blanket {kind} bound gives no eps below eps0 here; "
                               "eps0 itself holds (post-processing)")
    lo, hi = (grid[crossing - 1] if crossing else 0.0), grid[crossing]
    for _ in range(200):
        mid = (lo + hi) / 2
        if estimate(mid) > d_lo:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    step = 1e-12 * hi + 1e-15
    for _ in range(60):
        candidate = hi + step
        if candidate >= eps0_lo:
            break
        if _certified_delta(kind, exp_enclosure(candidate, candidate), s, x.n, x.k) <= d_lo:
            lower = 0.0
            down_step = 1e-12 * lo + 1e-15
            for _ in range(30):
                below = lo - down_step
                if below <= 0:
                    break
                if _certified_delta(kind, exp_enclosure(below, below), s, x.n, x.k, lower=True) > d_hi:
                    lower = below
                    break
                down_step *= 8
            note = (f"{randomizer_label(x.k)}; gamma = {'e^-eps0' if x.k is None else 'k/(e^eps0+k-1)'}; "
                    "the bound is certified <= delta at upper" + (" and > delta at lower" if lower else ""))
            return interval_result(name, lower, candidate, note)
        step *= 8
    return interval_result(name, x.eps0, x.eps0, f"could not certify a blanket {kind} eps below eps0; "
                           "eps0 itself holds (post-processing)")


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
