"""Adaptive eps-LDP queries: Theorem 17's bound on what T of them reveal, and the queries it takes.

T adaptively chosen eps-LDP queries, each a sketch of one record (w = 1), reveal at most ``delta_T``
nats about the clustering, by a recursion solved here in closed form; :func:`adaptive_min_queries`
inverts it. The proof has a gap (spec §9 E10): both are the paper's claim.

References: 000_0c6e7fdc3fd68303.txt (Theorem 17, Lemmas 18-19).
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.mp_enclosures import exact_interval
from dpcert.accountant.channel_information import SOURCE
from dpcert.accountant.exact_intervals import (
    _EXPONENT_LIMIT,
    _IV,
    INTERVAL_BITS,
    _compact,
    _iv_ends,
    _iv_exact,
    _iv_expr,
    _join,
    _result,
)
from dpcert.mechanisms.parameters import require_eps, require_int, require_positive

__all__ = ["adaptive_min_queries", "theorem_17_adaptive_bound"]


N_MAX = 10**100
BITS_MAX = 10**100
"""Answerable ranges: N and bits at most 10^100, eps in require_eps's [10^-300, 10^4]. Then 1/c =
N / (40 (e^eps - 1)^2) < 10^700 and the query count T < 10^900: its enclosures stay far inside the
2^30000 of the interval layer and T prints (Python refuses to print integers of more than 4300 digits)."""

_SMALL_EPS = sympy.Rational(1, 2**20)
"""Below this eps (and c), e^eps - 1 and ln(1 + c) are enclosed by their series (no cancellation)."""


def _expm1(e: sympy.Expr) -> object:
    """An interval containing e^eps - 1, relatively tight for every eps in range (no cancellation).

    For 0 < eps <= 2^-20: eps <= e^eps - 1 <= eps + eps^2 (the tail sum_{n>=2} eps^n / n! is at most
    (e - 2) eps^2); above, e^eps - 1 in interval arithmetic loses at most 20 of its 256 bits.
    """
    x = exact_interval(_IV, e)
    if e <= _SMALL_EPS:
        return _IV.mpf((x.a, (x * (1 + x)).b))
    return _IV.exp(x) - 1


def _log1p(c: object) -> object:
    """An interval containing ln(1 + c) for an interval c > 0, tight also for tiny c.

    For c <= 2^-20: c - c^2/2 <= ln(1 + c) <= c (alternating series); above, ln(1 + c) directly.
    """
    if _iv_ends(c)[1] <= Fraction(1, 2**20):
        return _IV.mpf(((c - c * c / 2).a, c.b))
    return _IV.log(1 + c)


def _adaptive_parts(N: int, e: sympy.Expr) -> tuple[sympy.Expr, object, list[int]]:
    """c = 40 (e^eps - 1)^2 / N exactly, its interval, and the candidate switch times t1 = floor(1/c) + 1."""
    c = 40 * (sympy.exp(e) - 1) ** 2 / N
    c_iv = _iv_exact(Fraction(40, N)) * _expm1(e) ** 2
    inverse = 1 / c_iv
    low, high = (math.floor(end) for end in _iv_ends(inverse))
    return c, c_iv, sorted({low + 1, high + 1})


def theorem_17_adaptive_bound(T: object, N: object, eps: object) -> BoundResult:
    """Theorem 17's bound delta_T on I(Z; S_1..S_T) for T adaptive eps-LDP 1-record queries (w = 1), nats.

    The recursion ``delta_{t+1} = delta_t + (C/N) max(1, delta_t)``, ``delta_0 = 0``, ``C = 40 (e^eps - 1)^2``,
    solved in closed form with c = C/N: ``delta_T = T c`` for ``T <= t1 = floor(1/c) + 1`` and
    ``delta_T = t1 c (1 + c)^{T - t1}`` after. Exact (a sympy expression) in the linear regime;
    above it, a rigorous mpmath-interval enclosure (value = its upper end).

    Why: Lemma 18 bounds each step by Var^T[F]/N^2 and Lemma 19 bounds the variance by
    ``Var^0[F] max(20, 10 delta)``. The proof has a gap (Lemma 19 needs a per-realization bound,
    spec §9 E10); treat as the paper's claim.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 17, Lemmas 18-19.
    """
    t = require_int("T", T, minimum=0)
    n = require_int("N", N, minimum=2, maximum=N_MAX)
    e = require_eps("eps", eps)
    source = f"{SOURCE}, Theorem 17"
    note = "delta_{t+1} = delta_t + (40(e^eps-1)^2/N) max(1, delta_t); proof sketch (spec §9 E10)"
    c, c_iv, switches = _adaptive_parts(n, e)
    if t <= switches[0]:
        value = t * c
        return BoundResult("theorem17", source, value, "nats", True, note)
    enclosure = None
    for t1 in switches:
        if t <= t1:
            part = _IV.mpf(t) * c_iv
        else:
            part = _IV.mpf(t1) * c_iv * _IV.exp(_IV.mpf(t - t1) * _log1p(c_iv))
        enclosure = part if enclosure is None else _IV.mpf((min(enclosure.a, part.a), max(enclosure.b, part.b)))
    try:
        lo, hi = _iv_ends(enclosure)
    except OverflowError:  # beyond 2^30000 nats: astronomically above H(Z) = N ln 2, vacuous
        return BoundResult("theorem17", source, sympy.oo, "nats", True,
                           _join(note, "delta_T exceeds 2^30000 nats (vacuous: I(Z; S) <= N ln 2 always)"),
                           lower_value=sympy.Integer(2) ** _EXPONENT_LIMIT, upper_value=sympy.oo)
    lower, _, _ = _compact(lo.numerator, lo.denominator)
    _, upper, _ = _compact(hi.numerator, hi.denominator)
    return _result("theorem17", source, "nats", lower, upper, direction="upper",
                   note=_join(note, f"closed form t1 c (1+c)^(T-t1) in {INTERVAL_BITS}-bit interval arithmetic"))


def adaptive_min_queries(N: object, eps: object, bits: object) -> BoundResult:
    """The fewest adaptive eps-LDP queries T whose Theorem 17 bound reaches ``bits`` bits.

    Returns the smallest T whose rigorous upper enclosure of delta_T (nats) is >= ``bits * ln 2``;
    this never exceeds the exact smallest T, so "at least T queries are needed" stays true. Learning
    C_N with average error <= p_max needs ``(1 - p_max) N - 1`` bits (Fano), so T grows like N log N.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 17.
    """
    n = require_int("N", N, minimum=2, maximum=N_MAX)
    e = require_eps("eps", eps)
    b = require_positive("bits", bits, at_most=BITS_MAX)
    target = _iv_expr(b) * _IV.ln2
    target_low = _iv_ends(target)[0]
    _, c_iv, switches = _adaptive_parts(n, e)

    def upper(t: int) -> Fraction | float:
        ends = []
        for s in switches:
            part = _IV.mpf(t) * c_iv if t <= s else \
                _IV.mpf(s) * c_iv * _IV.exp(_IV.mpf(t - s) * _log1p(c_iv))
            try:
                ends.append(_iv_ends(part)[1])
            except OverflowError:  # above 2^30000 nats: above every target (bits <= 10^100)
                return math.inf
        return max(ends)

    # closed-form estimate from the smaller switch time, then bisection for the first t with upper(t) >= target:
    # upper() is the upper end of a rigorous enclosure, so upper(T - 1) < target proves delta_(T-1) < target
    t1 = switches[0]
    if upper(t1) >= target_low:
        guess = math.floor(_iv_ends(target / c_iv)[0])
    else:
        steps = _IV.log(target / (_IV.mpf(t1) * c_iv)) / _log1p(c_iv)
        guess = t1 + math.floor(_iv_ends(steps)[0])
    low, high = 0, max(guess, 1)  # upper(0) = 0 < target (bits > 0)
    while upper(high) < target_low:
        low, high = high, 2 * high
    if low == 0 and high > 1 and upper(high // 2) < target_low:
        low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if upper(middle) >= target_low else (middle, high)
    guess = high
    return BoundResult("theorem17-queries", f"{SOURCE}, Theorem 17", sympy.Integer(guess), "queries", True,
                       f"smallest T whose bound delta_T reaches {b} bits = {b} ln 2 nats "
                       "(a lower bound on the queries any adaptive eps-LDP scheme needs; proof sketch, spec §9 E10)",
                       bounds="lower")
