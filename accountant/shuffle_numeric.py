"""Numerical clone bounds for shuffled eps0-LDP randomizers, rigorously enclosed.

The clone reduction (Feldman, McMillan, Talwar, FOCS 2021, Theorem 3.2; with the stronger clone
probability of FMT, SODA 2023) says that the shuffled outputs of n eps0-LDP randomizers on neighbouring
datasets are a post-processing of the pair

    P = (A + Delta, C - A + 1 - Delta),   Q = (A + 1 - Delta, C - A + Delta),

with C ~ Bin(n - 1, p_clone), A | C ~ Bin(C, 1/2), Delta ~ Bern(alpha), alpha = e^eps0 / (e^eps0 + 1)
and p_clone = e^-eps0 (FMT 2021) or 2 / (e^eps0 + 1) (FMT 2023). So delta(eps) <= D_{e^eps}(P || Q).
C is a function of the output (the coordinates sum to C + 1), hence

    D_{e^eps}(P || Q) = sum_c Pr[C = c] h_c(eps),   h_c(eps) = sum_a max(P_c(a) - e^eps Q_c(a), 0),

with P_c = alpha (B_c + 1) + (1 - alpha) B_c and Q_c = alpha B_c + (1 - alpha)(B_c + 1) the laws of
the first coordinate and B_c = Bin(c, 1/2). The ratio P_c(a) / Q_c(a) increases with a, so with
s = e^eps0, t = e^eps (1 <= t < s) the positive terms are a >= m_c = floor(kappa (c + 1)) + 1,
kappa = (t s - 1) / ((t + 1)(s - 1)), and

    h_c(eps) = (s - t) / (s + 1) * B_c(m_c - 1) - (t - 1) * Pr[B_c >= m_c]          (h_c = 0 for t >= s).

**Rigour.** Every c in a central window [c_lo, c_hi] of C is summed individually; nothing is blocked.
The window is swept once with exact integer recurrences,

    B_{c+1}(j) = (B_c(j) + B_c(j - 1)) / 2,   T_{c+1}(j) = T_c(j) + B_c(j - 1) / 2,
    B_c(j + 1) = B_c(j) (c - j) / (j + 1),    Pr[C = c + 1] = Pr[C = c] (n - 1 - c) / (c + 1) * p / (1 - p),

(T_c(j) = Pr[B_c >= j]) in float64 interval arithmetic: each +, -, *, / is rounded to nearest and the
result is stepped one float outward, which by IEEE 754 encloses the exact value (see
:mod:`accountant.shuffle_intervals`). The starting values at c_lo come from Stirling's series with its
bounded remainder (DLMF 5.11(ii)) in mpmath interval arithmetic; the starting tail T_{c_lo}(m) is summed
term by term and its remainder bounded by the geometric series of the (decreasing) term ratios. Where
the float enclosure of kappa (c + 1) straddles an integer, both candidate thresholds are evaluated and
the larger upper bound kept, so the upper bound always contains the exact maximising event. The mass of
C outside the window is bounded above by the Chernoff bound exp(-(n - 1) KL(c / (n - 1) || p)) in mpmath
interval arithmetic and added to the upper bound (with h_c <= 1 below the window and h_c <= h_{c_hi}
above it: h_c is non-increasing in c because B_{c+1} = B_c + Bern(1/2) is a post-processing of B_c). The
result is an interval [lower, upper] that contains the exact D_{e^eps}(P || Q); the upper end is a valid
delta for the shuffled mechanism.

eps for a target delta is located by a fast, non-rigorous float64 sweep (the same recurrences without
outward steps, which also gives d delta / d eps = -e^eps sum_c Pr[C = c] Q_c(S_c)) and a safeguarded
Newton iteration on log delta, and then *certified* with one rigorous sweep at a point eps_u slightly
above the estimate: the reported upper end is eps_u, where the rigorous upper bound on the divergence is
<= delta, so it is a valid eps for the shuffled mechanism. The same sweep yields, for the events S_c it
used, a lower bound P(S) - e^eps' Q(S) on the divergence at every eps' (each h_c is a maximum over
events); the reported lower end is where that line (P(S) rounded down, Q(S) up) meets delta, so the
exact numerical-bound eps lies in [lower, upper]. At n = 10^8 the gap is about 10^-8 (the enclosure
width grows linearly along the 10^5-step sweep), far below the 10^-5 target.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy
from mpmath import iv

from accountant.bound_result import BoundResult
from accountant.shuffle_common import (
    interval_result,
    invalid,
    randomizer_label,
    validate_shuffle_inputs,
)
from accountant.shuffle_intervals import (
    down,
    enclose,
    exp_enclosure,
    iv_precision,
    iv_to_floats,
    log_enclosure,
    up,
)
from mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive, to_exact

__all__ = [
    "CloneDelta",
    "clone_probability",
    "clone_delta",
    "clone_epsilon",
    "fmt21_numeric",
    "fmt23_numeric",
    "stronger_clones_allowed",
    "stronger_clones_condition",
]

_VARIANTS = ("fmt21", "fmt23")


def clone_probability(eps0: sympy.Expr, variant: str) -> sympy.Expr:
    """p_clone: e^-eps0 (FMT 2021, Lemma 3.3) or 2 / (e^eps0 + 1) (FMT 2023, stronger clones)."""
    if variant == "fmt21":
        return sympy.exp(-eps0)
    if variant == "fmt23":
        return 2 / (sympy.exp(eps0) + 1)
    raise ValueError(f"variant must be one of {_VARIANTS}. Got {variant!r}")


@dataclass(frozen=True)
class CloneDelta:
    """An enclosure [lower, upper] of D_{e^eps}(P || Q) for the clone pair, and how it was computed."""

    lower: float
    upper: float
    window: tuple[int, int]
    outside_mass: float
    """Upper bound on Pr[C outside the window] (added to ``upper``)."""


# ---------------------------------------------------------------------------------------------
# Window of C and rigorous tail bounds
# ---------------------------------------------------------------------------------------------

def _chernoff_lower_tail(N: int, c: int, p_lo: float, p_hi: float) -> float:
    """Upper bound on Pr[Bin(N, p) <= c] for all p in [p_lo, p_hi], c < N p_lo: exp(-N KL(c/N || p))."""
    if c < 0:
        return 0.0
    with iv_precision():
        p = iv.mpf([p_lo, p_hi])
        x = iv.mpf(c) / N
        kl = (x * iv.log(x / p) if c > 0 else iv.mpf(0)) + (1 - x) * iv.log((1 - x) / (1 - p))
        return iv_to_floats(iv.exp(-N * kl))[1]


def _chernoff_upper_tail(N: int, c: int, p_lo: float, p_hi: float) -> float:
    """Upper bound on Pr[Bin(N, p) >= c] for all p in [p_lo, p_hi], c > N p_hi."""
    if c > N:
        return 0.0
    with iv_precision():
        p = iv.mpf([p_lo, p_hi])
        x = iv.mpf(c) / N
        kl = x * iv.log(x / p) + ((1 - x) * iv.log((1 - x) / (1 - p)) if c < N else iv.mpf(0))
        return iv_to_floats(iv.exp(-N * kl))[1]


def _window(n: int, p_lo: float, p_hi: float, budget: float) -> tuple[int, int, float, float]:
    """[c_lo, c_hi] and upper bounds on Pr[C < c_lo], Pr[C > c_hi], each <= budget."""
    N = n - 1
    mean = N * (p_lo + p_hi) / 2
    sd = math.sqrt(max(mean * (1 - (p_lo + p_hi) / 2), 1e-300))
    z = math.sqrt(2 * math.log(1 / budget)) if budget < 1 else 1.0
    while True:
        c_lo = max(0, int(math.floor(mean - z * sd)))
        c_hi = min(N, int(math.ceil(mean + z * sd)) + 1)
        low = _chernoff_lower_tail(N, c_lo - 1, p_lo, p_hi) if c_lo > 0 and c_lo - 1 < N * p_lo else (
            0.0 if c_lo == 0 else 1.0)
        high = _chernoff_upper_tail(N, c_hi + 1, p_lo, p_hi) if c_hi < N and c_hi + 1 > N * p_hi else (
            0.0 if c_hi == N else 1.0)
        if low <= budget and high <= budget:
            return c_lo, c_hi, low, high
        z += 0.5


# ---------------------------------------------------------------------------------------------
# The rigorous sweep over c
# ---------------------------------------------------------------------------------------------

def _log_factorial_iv(n: int):
    """ln n! as an mpmath interval: exact for n < 64, else Stirling's series with a bounded remainder.

    ln n! = n ln n - n + ln(2 pi n)/2 + 1/(12 n) - 1/(360 n^3) + 1/(1260 n^5) + R, where R lies between 0
    and the first omitted term -1/(1680 n^7) (for real arguments the remainder of Stirling's series has
    the sign of, and is smaller than, the first neglected term: DLMF 5.11(ii)). Only mpmath's interval
    log and pi (directed rounding) are used, so the enclosure is rigorous.
    """
    if n < 64:
        return iv.log(iv.mpf(math.factorial(n)))
    m = iv.mpf(n)
    series = m * iv.log(m) - m + iv.log(2 * iv.pi * m) / 2 + 1 / (12 * m) - 1 / (360 * m ** 3) + 1 / (1260 * m ** 5)
    return series + iv.mpf([-(1 / (1680 * m ** 7)).b, 0])


def _log_binomial_pmf_iv(N: int, c: int, p) -> object:
    """log Pr[Bin(N, p) = c] as an mpmath interval (p an interval)."""
    value = _log_factorial_iv(N) - _log_factorial_iv(c) - _log_factorial_iv(N - c)
    if c:
        value += c * iv.log(p)
    if N - c:
        value += (N - c) * iv.log(1 - p)
    return value


def _start_values(N: int, c: int, m: int, p_lo: float, p_hi: float) -> tuple[float, ...]:
    """Enclosures of Pr[C = c], B_c(m - 1) and T_c(m) = Pr[Bin(c, 1/2) >= m]."""
    with iv_precision():
        b_lo, b_hi = iv_to_floats(iv.exp(_log_binomial_pmf_iv(N, c, iv.mpf([p_lo, p_hi]))))
        log_b = _log_factorial_iv(c) - _log_factorial_iv(m - 1) - _log_factorial_iv(c - m + 1) - c * iv.log(2)
        B_lo, B_hi = iv_to_floats(iv.exp(log_b))
    b_lo, B_lo = max(b_lo, 0.0), max(B_lo, 0.0)
    T_lo, T_hi = _tail_sum(c, m, B_lo, B_hi)
    return b_lo, b_hi, B_lo, B_hi, T_lo, T_hi


def _tail_sum(c: int, m: int, B_lo: float, B_hi: float) -> tuple[float, float]:
    """Enclosure of T_c(m) = sum_{a >= m} B_c(a) from an enclosure of B_c(m - 1).

    Terms follow B_c(a + 1) = B_c(a) (c - a) / (a + 1); the ratios decrease in a, so after the last
    summed term B_c(a) the rest is at most B_c(a) r / (1 - r) with r = (c - a) / (a + 1) < 1.
    """
    if m > c:
        return 0.0, 0.0
    ratio = (c - m + 1) / m
    term_lo, term_hi = max(0.0, down(B_lo * down(ratio))), up(B_hi * up(ratio))  # B_c(m)
    total_lo, total_hi = term_lo, term_hi
    a = m
    while a < c:
        r = (c - a) / (a + 1)
        r_hi = up(r)
        if r_hi < 1.0:
            remainder = up(up(term_hi * r_hi) / down(1.0 - r_hi))
            if remainder <= max(1e-25 * total_lo, 1e-300):
                total_hi = up(total_hi + remainder)
                break
        term_lo = max(0.0, down(term_lo * down(r)))
        term_hi = up(term_hi * r_hi)
        total_lo = down(total_lo + term_lo)
        total_hi = up(total_hi + term_hi)
        a += 1
    return max(total_lo, 0.0), min(total_hi, 1.0)


def _sweep(n: int, s: tuple[float, float], p: tuple[float, float], t: tuple[float, float],
           c_lo: int, c_hi: int) -> tuple[float, float, float, float, float]:
    """Rigorous sums over c in [c_lo, c_hi] at e^eps in [t_lo, t_hi].

    Returns (d_lo, d_hi, h_last, ps_lo, qs_hi): an enclosure [d_lo, d_hi] of
    sum_c Pr[C = c] h_c(eps); an upper bound on h_{c_hi}(eps); and, for the events S_c = {a >= m_c}
    used at each c, a lower bound ps_lo on sum_c Pr[C = c] P_c(S_c) and an upper bound qs_hi on
    sum_c Pr[C = c] Q_c(S_c). Since h_c(eps') >= P_c(S_c) - e^eps' Q_c(S_c) for every eps', the line
    ps_lo - e^eps' qs_hi is a lower bound on the clone divergence at every eps'.
    """
    nx, INF = math.nextafter, math.inf
    s_lo, s_hi = s
    p_lo, p_hi = p
    t_lo, t_hi = t
    N = n - 1
    # kappa = (t s - 1) / ((t + 1)(s - 1)) increases in t and decreases in s
    kappa_lo = max(0.5, down(down(down(t_lo * s_hi) - 1.0) / up(up(t_lo + 1.0) * up(s_hi - 1.0))))
    kappa_hi = min(1.0, up(up(up(t_hi * s_lo) - 1.0) / down(down(t_hi + 1.0) * down(s_lo - 1.0))))
    # A1 = (s - t) / (s + 1) increases in s and decreases in t; tm1 = t - 1
    a1_lo = max(0.0, down(down(s_lo - t_hi) / up(s_lo + 1.0)))
    a1_hi = up(up(s_hi - t_lo) / down(s_hi + 1.0))
    tm1_lo, tm1_hi = max(0.0, down(t_lo - 1.0)), up(t_hi - 1.0)
    if a1_hi <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0
    # alpha = s / (s + 1) and 1 - alpha = 1 / (s + 1), for P_c(S) = T + alpha B and Q_c(S) = T + B / (s + 1)
    al_lo = down(s_lo / up(s_lo + 1.0))
    be_hi = up(1.0 / down(s_lo + 1.0))
    rho_lo = down(p_lo / up(1.0 - p_lo))
    rho_hi = up(p_hi / down(1.0 - p_hi))

    c = c_lo
    m = math.floor(down(kappa_lo * (c + 1))) + 1
    b_lo, b_hi, B_lo, B_hi, T_lo, T_hi = _start_values(N, c, m, p_lo, p_hi)
    d_lo = d_hi = ps_lo = qs_hi = 0.0
    floor = math.floor
    h_hi = 0.0
    while True:
        h_lo = nx(nx(a1_lo * B_lo, -INF) - nx(tm1_hi * T_hi, INF), -INF)
        if h_lo < 0.0:
            h_lo = 0.0
        h_hi = nx(nx(a1_hi * B_hi, INF) - nx(tm1_lo * T_lo, -INF), INF)
        m_hi = floor(nx(kappa_hi * (c + 1), INF)) + 1
        if m_hi != m:
            # the exact threshold may be m + 1: bound that event too and keep the larger upper bound
            if m_hi > m + 1:
                raise ArithmeticError("the enclosure of kappa is too wide to locate the threshold")
            Bm_hi = nx(B_hi * nx((c - m + 1) / m, INF), INF)
            T1_lo = nx(T_lo - Bm_hi, -INF)
            if T1_lo < 0.0:
                T1_lo = 0.0
            h2 = nx(nx(a1_hi * Bm_hi, INF) - nx(tm1_lo * T1_lo, -INF), INF)
            if h2 > h_hi:
                h_hi = h2
        if h_hi > 1.0:
            h_hi = 1.0
        d_lo = nx(d_lo + nx(b_lo * h_lo, -INF), -INF)
        d_hi = nx(d_hi + nx(b_hi * h_hi, INF), INF)
        ps_lo = nx(ps_lo + nx(b_lo * nx(T_lo + nx(al_lo * B_lo, -INF), -INF), -INF), -INF)
        qs_hi = nx(qs_hi + nx(b_hi * nx(T_hi + nx(be_hi * B_hi, INF), INF), INF), INF)
        if c == c_hi:
            break
        m_next = floor(nx(kappa_lo * (c + 2), -INF)) + 1
        if m_next == m:
            f = (c + 1) / (2 * (c - m + 2))
            T_lo, T_hi = nx(T_lo + B_lo * 0.5, -INF), nx(T_hi + B_hi * 0.5, INF)
        else:
            f = (c + 1) / (2 * m)
            g = (c - m + 1) / (2 * m)
            T_lo = nx(T_lo - nx(B_hi * nx(g, INF), INF), -INF)
            T_hi = nx(T_hi - nx(B_lo * nx(g, -INF), -INF), INF)
            if T_lo < 0.0:
                T_lo = 0.0
            m = m_next
        B_lo, B_hi = nx(B_lo * nx(f, -INF), -INF), nx(B_hi * nx(f, INF), INF)
        r = (N - c) / (c + 1)
        b_lo = nx(nx(b_lo * nx(r, -INF), -INF) * rho_lo, -INF)
        b_hi = nx(nx(b_hi * nx(r, INF), INF) * rho_hi, INF)
        c += 1
    return max(d_lo, 0.0), d_hi, h_hi, max(ps_lo, 0.0), qs_hi


def _sweep_float(n: int, s: float, p: float, t: float, c_lo: int, c_hi: int) -> tuple[float, float]:
    """Plain float64 version of :func:`_sweep` (an estimate, for root finding only).

    Returns (delta, q): the estimated clone divergence at t = e^eps and sum_c Pr[C = c] Q_c(S_c), so
    that d delta / d eps = -t q.
    """
    N = n - 1
    if t >= s:
        return 0.0, 0.0
    kappa = (t * s - 1) / ((t + 1) * (s - 1))
    a1 = (s - t) / (s + 1)
    beta = 1 / (s + 1)
    rho = p / (1 - p)
    c = c_lo
    m = min(math.floor(kappa * (c + 1)) + 1, c + 1)
    b = math.exp(math.lgamma(N + 1) - math.lgamma(c + 1) - math.lgamma(N - c + 1)
                 + (c * math.log(p) if c else 0.0) + ((N - c) * math.log1p(-p) if N - c else 0.0))
    B = math.exp(math.lgamma(c + 1) - math.lgamma(m) - math.lgamma(c - m + 2) - c * math.log(2))
    T = _tail_sum_float(c, m, B)
    d = q = 0.0
    floor = math.floor
    tm1 = t - 1
    while True:
        h = a1 * B - tm1 * T
        if h > 0:
            d += b * h
        q += b * (T + beta * B)
        if c == c_hi:
            break
        m_next = min(floor(kappa * (c + 2)) + 1, c + 2)
        if m_next == m:
            T += B * 0.5
            B *= (c + 1) / (2 * (c - m + 2))
        else:
            T -= B * (c - m + 1) / (2 * m)
            B *= (c + 1) / (2 * m)
            m = m_next
        b *= (N - c) / (c + 1) * rho
        c += 1
    return d, q


def _tail_sum_float(c: int, m: int, B: float) -> float:
    if m > c:
        return 0.0
    term = B * (c - m + 1) / m
    total = term
    a = m
    while a < c:
        r = (c - a) / (a + 1)
        if r < 1.0 and term * r / (1 - r) <= max(1e-18 * total, 1e-300):
            break
        term *= r
        total += term
        a += 1
    return total


def _parameters(eps0: sympy.Expr, variant: str) -> tuple[tuple[float, float], tuple[float, float]]:
    s = enclose(sympy.exp(eps0))
    p = enclose(clone_probability(eps0, variant))
    return s, p


def _delta_enclosure(n: int, s: tuple[float, float], p: tuple[float, float], t: tuple[float, float],
                     budget: float) -> tuple[CloneDelta, float, float]:
    """The delta enclosure at t, and (ps_lo, qs_hi) for the lower-bound line (see :func:`_sweep`)."""
    if t[0] >= s[1]:  # e^eps >= e^eps0: every h_c is 0
        return CloneDelta(0.0, 0.0, (0, n - 1), 0.0), 0.0, 0.0
    c_lo, c_hi, low, high = _window(n, p[0], p[1], budget)
    d_lo, d_hi, h_last, ps_lo, qs_hi = _sweep(n, s, p, t, c_lo, c_hi)
    d_hi = up(up(d_hi + low) + up(high * h_last))
    return CloneDelta(d_lo, min(d_hi, 1.0), (c_lo, c_hi), up(low + high)), ps_lo, qs_hi


def clone_delta(eps: object, eps0: object, n: object, *, variant: str = "fmt21",
                outside_budget: float = 1e-30) -> CloneDelta:
    """Rigorous enclosure of the clone-pair hockey-stick divergence D_{e^eps}(P || Q).

    Args:
        eps: the shuffled eps >= 0 at which delta is evaluated (exact number).
        eps0: the local randomizers' eps0 > 0.
        n: the number of users (>= 2).
        variant: ``"fmt21"`` (p_clone = e^-eps0) or ``"fmt23"`` (p_clone = 2 / (e^eps0 + 1)).
        outside_budget: target for the rigorous bound on each tail of C outside the summed window.

    Returns:
        :class:`CloneDelta` whose ``upper`` is a valid delta(eps) for n shuffled eps0-LDP randomizers
        (for ``"fmt23"``: for randomizers in the class of the FMT 2023 erratum).
    """
    eps = to_exact("eps", eps)
    if exact_sign(eps) < 0:
        raise InvalidParameterError(f"eps must be >= 0. Got {eps}")
    eps0 = require_positive("eps0", eps0)
    n = require_int("n", n, minimum=2)
    s, p = _parameters(eps0, variant)
    return _delta_enclosure(n, s, p, enclose(sympy.exp(eps)), outside_budget)[0]


# ---------------------------------------------------------------------------------------------
# Locating eps: float64 Newton iteration, then one rigorous sweep
# ---------------------------------------------------------------------------------------------

def _estimate_epsilon(n: int, s: float, p: float, delta: float, eps0: float, c_lo: int, c_hi: int) -> float:
    """Float64 estimate of the eps with clone divergence = delta (safeguarded Newton on log delta).

    log delta(eps) is decreasing; d delta / d eps = -e^eps q where q = sum_c Pr[C = c] Q_c(S_c). Steps
    that leave the bracket fall back to bisection. This number is only a starting point for the
    rigorous certification in :func:`clone_epsilon`.
    """
    d0, _ = _sweep_float(n, s, p, 1.0, c_lo, c_hi)
    if d0 <= delta:
        return 0.0
    lo, hi = 0.0, eps0
    closed = math.log1p((s - 1) / (s + 1) * (8 * math.sqrt(math.log(4 / delta) / (p * n)) + 8 / (p * n)))
    eps = min(closed / 3, eps0 / 2)
    for _ in range(200):
        t = math.exp(eps)
        d, q = _sweep_float(n, s, p, t, c_lo, c_hi)
        if d > delta:
            lo = eps
        else:
            hi = eps
        new = eps + (math.log(d) - math.log(delta)) * d / (t * q) if d > 0 and q > 0 else -1.0
        if not lo < new < hi:
            new = (lo + hi) / 2
        if abs(new - eps) <= 1e-12 * eps or hi - lo <= 1e-15 * hi:
            return new
        eps = new
    return hi


def clone_epsilon(eps0: object, n: object, delta: object, *, variant: str = "fmt21",
                  relative_margin: float = 1e-9) -> tuple[sympy.Expr, sympy.Expr, CloneDelta]:
    """Certified enclosure [lower, upper] of the clone-bound eps at target ``delta``.

    ``upper`` is a rational eps at which the rigorous upper bound on D_{e^upper}(P || Q) is <= delta
    (so it is a valid eps of the shuffled mechanism). ``lower`` comes from the same sweep: for the events
    S_c used there, D_{e^eps'}(P || Q) >= P(S) - e^eps' Q(S) for every eps', and ``lower`` is the
    eps' where the rigorous lower bound of that line equals delta, so the exact numerical-bound eps
    (where D = delta) is >= lower. Returns (lower, upper, the delta enclosure at upper).
    """
    inputs = validate_shuffle_inputs(eps0, n, delta)
    eps0, n, delta = inputs.eps0, inputs.n, inputs.delta
    s, p = _parameters(eps0, variant)
    d_lo, d_hi = enclose(delta)
    eps0_lo = enclose(eps0)[0]
    budget = max(d_lo * 1e-12, 1e-300)
    c_lo, c_hi, _, _ = _window(n, p[0], p[1], budget)
    guess = _estimate_epsilon(n, (s[0] + s[1]) / 2, (p[0] + p[1]) / 2, (d_lo + d_hi) / 2, eps0_lo, c_lo, c_hi)

    def line_lower(ps_lo: float, qs_hi: float) -> sympy.Expr:
        """Where the rigorous lower line ps_lo - e^eps' qs_hi meets delta_hi (0 if it never does for eps' > 0)."""
        if qs_hi > 0 and ps_lo > d_hi:
            t_line = down(down(ps_lo - d_hi) / qs_hi)
            if t_line > 1.0:
                return sympy.Rational(min(max(0.0, log_enclosure(t_line, t_line)[0]), eps0_lo))
        return sympy.Integer(0)

    if guess == 0.0:
        enclosure, _, _ = _delta_enclosure(n, s, p, (1.0, 1.0), budget)
        if enclosure.upper <= d_lo:
            return sympy.Integer(0), sympy.Integer(0), enclosure
    margin = relative_margin * guess + 1e-15
    for _ in range(60):
        candidate = guess + margin
        if candidate >= eps0_lo:
            break
        enclosure, ps_lo, qs_hi = _delta_enclosure(n, s, p, exp_enclosure(candidate, candidate), budget)
        if enclosure.upper <= d_lo:
            return line_lower(ps_lo, qs_hi), sympy.Rational(candidate), enclosure
        margin *= 8
    # no eps below eps0 certified: eps0 itself is valid (shuffling is post-processing; D = 0 at eps0)
    probe = eps0_lo * (1 - 1e-9)
    _, ps_lo, qs_hi = _delta_enclosure(n, s, p, exp_enclosure(probe, probe), budget)
    return line_lower(ps_lo, qs_hi), eps0, CloneDelta(0.0, 0.0, (0, n - 1), 0.0)


# ---------------------------------------------------------------------------------------------
# BoundResults
# ---------------------------------------------------------------------------------------------

def fmt21_numeric(eps0: object, n: object, delta: object) -> BoundResult:
    """Numerical clone bound of Feldman, McMillan, Talwar (FOCS 2021), Theorem 3.2 / Section 5.

    Valid for every eps0-LDP local randomizer (any eps0 > 0, n >= 2, 0 < delta < 1): the shuffled output
    is (eps, delta)-DP for every eps >= the reported upper end, where eps solves
    sum_c Pr[C = c] h_c(eps) = delta with C ~ Bin(n - 1, e^-eps0) (see the module docstring for h_c and
    for the rigorous enclosure).

    References:
        Feldman, McMillan, Talwar, "Hiding Among the Clones" (FOCS 2021), Theorem 3.2 and Lemma 3.3.
    """
    inputs = validate_shuffle_inputs(eps0, n, delta)
    lower, upper, enclosure = clone_epsilon(inputs.eps0, inputs.n, inputs.delta, variant="fmt21")
    return interval_result("fmt21-numeric", lower, upper, _numeric_note(enclosure, "e^-eps0"))


def stronger_clones_allowed(k: int | None, assume_stronger_clones: bool) -> str | None:
    """None when FMT 2023's stronger clones apply, else the reason they do not.

    The arXiv erratum of FMT 2023 restricts its general theorems to a class of local randomizers.
    Binary and k-ary randomized response belong to it: for k-RR with s = e^eps0 and Z = s + k - 1,
    every row satisfies R(x) >= (R(x0) + R(x1)) / (s + 1) pointwise (equality on the outputs x0, x1
    for x outside {x0, x1}), which is the decomposition with clone probability 2 / (s + 1).
    """
    if k is not None or assume_stronger_clones:
        return None
    return ("FMT 2023's erratum restricts the stronger-clone theorems to a class of randomizers (binary and "
            "k-ary randomized response among them); pass k for randomized response, or opt in with "
            "assume_stronger_clones=True for a randomizer in that class (stronger_clones_condition checks a "
            "finite one)")


def stronger_clones_condition(rows: object, eps0: object) -> bool:
    """Whether a finite eps0-LDP randomizer admits the stronger-clone decomposition with p = 1/(e^eps0 + 1).

    With s = e^eps0, the decomposition R(x0) = s p Q0 + p Q1, R(x1) = p Q0 + s p Q1 and
    R(x) = p Q0 + p Q1 + (1 - 2p) LO(x) for every other x exists (Q0, Q1, LO(x) distributions) exactly when
    the randomizer is eps0-LDP and (s + 1) R(x)(y) >= R(x0)(y) + R(x1)(y) for all x, x0, x1 and outputs y
    (derived here from the decomposition; it holds for binary and k-ary randomized response). Decided
    exactly, per output: (s + 1) min_x R(x)(y) >= the sum of the two largest R(x)(y).

    Args:
        rows: the randomizer as a matrix of exact probabilities (rows = inputs, columns = outputs).
        eps0: the eps0 the decomposition is built for.
    """
    eps0 = require_positive("eps0", eps0)
    matrix = [[to_exact(f"rows[{i}][{j}]", v) for j, v in enumerate(row)] for i, row in enumerate(rows)]
    if len(matrix) < 2 or len({len(r) for r in matrix}) != 1:
        raise InvalidParameterError("rows must have at least 2 inputs and rows of equal length")
    t = sympy.exp(eps0)
    for column in zip(*matrix):
        ordered = sorted(column, key=lambda v: float(v.evalf(30)))
        low, top, second = ordered[0], ordered[-1], ordered[-2]
        if exact_sign(t * low - top) < 0 or exact_sign((t + 1) * low - top - second) < 0:
            return False
    return True


def fmt23_numeric(eps0: object, n: object, delta: object, *, k: object = None,
                  assume_stronger_clones: bool = False) -> BoundResult:
    """Numerical stronger-clone bound of Feldman, McMillan, Talwar (SODA 2023, with the arXiv erratum).

    As :func:`fmt21_numeric` with clone probability 2 / (e^eps0 + 1) instead of e^-eps0. Valid only for
    local randomizers in the erratum's class: binary and k-ary randomized response (pass ``k``), or any
    randomizer the caller vouches for with ``assume_stronger_clones=True`` (recorded in the note).

    References:
        Feldman, McMillan, Talwar (SODA 2023; arXiv:2208.04591 with its erratum).
    """
    inputs = validate_shuffle_inputs(eps0, n, delta, k)
    reason = stronger_clones_allowed(inputs.k, assume_stronger_clones)
    if reason:
        return invalid("fmt23-numeric", reason)
    lower, upper, enclosure = clone_epsilon(inputs.eps0, inputs.n, inputs.delta, variant="fmt23")
    note = _numeric_note(enclosure, "2/(e^eps0+1)") + f"; randomizer: {randomizer_label(inputs.k)}"
    if inputs.k is None:
        note += " (assume_stronger_clones=True: the caller asserts the randomizer is in the erratum's class)"
    return interval_result("fmt23-numeric", lower, upper, note)


def _numeric_note(enclosure: CloneDelta, clone: str) -> str:
    return (f"C ~ Bin(n-1, {clone}); every c in [{enclosure.window[0]}, {enclosure.window[1]}] summed, "
            f"mass outside <= {enclosure.outside_mass:.3g} added; certified delta(upper) <= "
            f"{enclosure.upper:.6g}; value in [lower, upper], upper is the valid eps")

