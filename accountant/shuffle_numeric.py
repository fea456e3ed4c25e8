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

**Constants without overflow or cancellation.** Every constant is evaluated in mpmath interval arithmetic
(a private context whose precision grows with log2(1/eps0) and log2(1/eps)) in a form that neither
overflows at eps0 = 700 nor cancels at eps0 = 10^-12:

    kappa = (1 - e^-(eps+eps0)) / ((1 + e^-eps)(1 - e^-eps0)),   (s - t)/(s + 1) = (1 - e^(eps-eps0)) / (1 + e^-eps0),

ln p_clone and ln(1 - p_clone) directly (-eps0 and ln(1 - e^-eps0) for FMT 2021; ln 2 - ln(1 + e^eps0)
and ln(1 - e^-eps0) - ln(1 + e^-eps0) for FMT 2023), and the pmf ratio p/(1 - p) as exp of their difference.

**Rigour.** Every c in a window [c_lo, c_hi] of C is summed individually; nothing is blocked.
The window is swept once with exact integer recurrences,

    B_{c+1}(j) = (B_c(j) + B_c(j - 1)) / 2,   T_{c+1}(j) = T_c(j) + B_c(j - 1) / 2,
    B_c(j + 1) = B_c(j) (c - j) / (j + 1),    Pr[C = c + 1] = Pr[C = c] (n - 1 - c) / (c + 1) * p / (1 - p),

(T_c(j) = Pr[B_c >= j]) in float64 interval arithmetic: each +, -, *, / is rounded to nearest and the
result is stepped one float outward, which by IEEE 754 encloses the exact value (see
:mod:`dpcert.accountant.shuffle_intervals`; c < 2^53, so every integer is exact in float64). The starting values at
c_lo come from Stirling's series with its bounded remainder (:mod:`dpcert.proofs.log_factorial`) in mpmath
interval arithmetic; the starting tail T_{c_lo}(m) is summed term by term and its remainder bounded by the
geometric series of the (decreasing) term ratios. Where the float enclosure of kappa (c + 1) straddles an
integer, both candidate thresholds are evaluated and the larger upper bound kept, so the upper bound always
contains the exact maximising event; should it straddle two integers, h_c <= h_{c-1} is used (h_c is
non-increasing in c because B_{c+1} = B_c + Bern(1/2) is a post-processing of B_c). The mass of C outside
the window is bounded by the Chernoff bound exp(-(n - 1) KL(c / (n - 1) || p)) in mpmath interval
arithmetic (the window's ends are found by bisection on it) and added to the upper bound (with h_c <= 1
below the window and h_c <= h_{c_hi} above it). The result is an interval [lower, upper] that contains the
exact D_{e^eps}(P || Q); the upper end is a valid delta for the shuffled mechanism.

**Locating eps.** scipy's ``brentq`` solves ln D(eps) = ln delta on a float64 model of the same sum
(vectorised: Pr[C = c] and T_c by cumulative sums of the recurrences above, B_c from scipy's binomial
pmf). The root is only a starting point (:func:`~dpcert.proofs.certified_root.certified_root`): the reported
upper end is a rational eps_u near it at which a rigorous sweep proves D <= delta, so it is a valid eps for
the shuffled mechanism; eps_u is the decimal a float prints as (how dpcert reads a float back), within
10^-9 relative of a float where the sweep does not prove it (or eps0 itself, where D = 0 exactly). The
same sweep yields, for the events S_c it used, a lower bound P(S) - e^eps' Q(S) on the divergence at every
eps' (each h_c is a maximum over events); the reported lower end is where that line (P(S) - Q(S), summed
directly, rounded down; Q(S) up) meets delta, so the exact numerical-bound eps lies in [lower, upper].

**Range.** The sweep costs one step per c in the window (about 20 sqrt((n - 1) p (1 - p)) of them) and the
starting tail about 6 sqrt(c_lo) more. The numerical bounds therefore apply for n <= :data:`NUMERIC_N_MAX`
with at most :data:`MAX_CLONE_TERMS` window terms (a few seconds); elsewhere their rows are reported
invalid with that range, and the closed forms (fmt21-closed, fmt23-closed) bound the same reductions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy
from scipy.stats import binom

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.shuffle_common import (
    interval_result,
    invalid,
    randomizer_label,
    validate_shuffle_inputs,
)
from dpcert.accountant.shuffle_intervals import down, enclose, iv_exact, iv_to_floats, up
from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.proofs.log_factorial import log_factorial
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, range_text, require_positive, to_exact
from dpcert.proofs.certified_root import certified_root

__all__ = [
    "CloneDelta",
    "MAX_CLONE_TERMS",
    "NUMERIC_N_MAX",
    "clone_probability",
    "clone_delta",
    "clone_epsilon",
    "clone_sum_limit",
    "fmt21_numeric",
    "fmt23_numeric",
    "stronger_clones_allowed",
    "stronger_clones_condition",
]

_VARIANTS = ("fmt21", "fmt23")

NUMERIC_N_MAX = 10**10
"""Largest n for the numerical clone bounds (the starting tail sum grows like sqrt(n))."""

MAX_CLONE_TERMS = 200_000
"""Largest number of values of C summed one by one (the window grows like sqrt(n p (1 - p)))."""

_BASE_BITS = 160
"""Working precision of the interval constants before the bits added for small eps0 and eps."""


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
# Constants: interval arithmetic in forms that neither overflow nor cancel
# ---------------------------------------------------------------------------------------------

def _binary_exponent(value: object) -> int:
    """e with 2^(e-1) <= |value| < 2^e, up to 1 (value != 0): the bits a small value needs."""
    if isinstance(value, float):
        return math.frexp(value)[1]
    value = sympy.sympify(value)
    if value.is_Rational:
        return abs(value.p).bit_length() - value.q.bit_length()
    return math.frexp(enclose(value)[0])[1]


def _context(*small: object):
    """An interval context with :data:`_BASE_BITS` bits plus those the small positive values need."""
    extra = sum(max(0, -_binary_exponent(v)) for v in small if v != 0)
    return interval_context(_BASE_BITS + min(extra, 4096))


@dataclass(frozen=True)
class _Clones:
    """The eps0-dependent part of a clone pair, as float64 enclosures (lo, hi)."""

    eps0: sympy.Expr
    variant: str
    log_p: tuple[float, float]
    """ln p_clone."""
    log_q: tuple[float, float]
    """ln(1 - p_clone)."""
    rho: tuple[float, float]
    """p_clone / (1 - p_clone)."""
    beta_hi: float
    """Upper end of 1 - alpha = 1 / (s + 1)."""
    gap_lo: float
    """Lower end of alpha - (1 - alpha) = (s - 1) / (s + 1)."""


def _clones(eps0: sympy.Expr, variant: str) -> _Clones:
    if variant not in _VARIANTS:
        raise ValueError(f"variant must be one of {_VARIANTS}. Got {variant!r}")
    ctx = _context(eps0)
    e0 = iv_exact(ctx, eps0)
    decay = ctx.exp(-e0)  # 1/s
    log_non_clone = ctx.log(1 - decay)  # ln(1 - e^-eps0)
    if variant == "fmt21":
        log_p, log_q = -e0, log_non_clone
    else:  # p = 2 / (s + 1), 1 - p = (s - 1) / (s + 1)
        log_p, log_q = ctx.log(2 * decay) - ctx.log(1 + decay), log_non_clone - ctx.log(1 + decay)
    return _Clones(eps0, variant, iv_to_floats(log_p), iv_to_floats(log_q), iv_to_floats(ctx.exp(log_p - log_q)),
                   iv_to_floats(decay / (1 + decay))[1],
                   max(0.0, iv_to_floats((1 - decay) / (1 + decay))[0]))


@dataclass(frozen=True)
class _Threshold:
    """The eps-dependent constants at one exact eps, as float64 enclosures (lo, hi)."""

    kappa: tuple[float, float]
    a1: tuple[float, float]
    """(s - t) / (s + 1), clamped at 0."""
    tm1: tuple[float, float]
    """t - 1 = e^eps - 1."""


def _threshold(eps: object, eps0: sympy.Expr) -> _Threshold:
    """kappa, (s - t)/(s + 1) and t - 1 at the exact ``eps`` >= 0 (a float or a sympy number)."""
    ctx = _context(eps, eps0)
    e, e0 = iv_exact(ctx, eps), iv_exact(ctx, eps0)
    if eps == 0:
        kappa, tm1 = ctx.mpf(1) / 2, ctx.mpf(0)
    else:
        kappa = (1 - ctx.exp(-(e + e0))) / ((1 + ctx.exp(-e)) * (1 - ctx.exp(-e0)))
        tm1 = ctx.exp(e) - 1
    a1 = (1 - ctx.exp(e - e0)) / (1 + ctx.exp(-e0))
    k_lo, k_hi = iv_to_floats(kappa)
    a_lo, a_hi = iv_to_floats(a1)
    t_lo, t_hi = iv_to_floats(tm1)
    # kappa - 1/2 = (t - 1)(s + 1) / (2 (t + 1)(s - 1)) >= 0
    return _Threshold((max(k_lo, 0.5), min(k_hi, 1.0)), (max(a_lo, 0.0), a_hi), (max(t_lo, 0.0), t_hi))


# ---------------------------------------------------------------------------------------------
# Window of C and rigorous tail bounds
# ---------------------------------------------------------------------------------------------

def _chernoff(N: int, c: int, clones: _Clones, *, upper_tail: bool) -> float:
    """Upper bound on Pr[Bin(N, p) <= c] (or, with ``upper_tail``, >= c): exp(-N KL(c/N || p)).

    Returns 1.0 where the bound does not apply (c/N not provably on the tail's side of p).
    """
    if c < 0 or c > N:
        return 0.0
    ctx = interval_context(_BASE_BITS)
    lp, lq = ctx.mpf(list(clones.log_p)), ctx.mpf(list(clones.log_q))
    x = ctx.mpf(c) / N
    if c == 0:
        if upper_tail:
            return 1.0
        log_x, log_rest = None, ctx.mpf(0)
    elif c == N:
        if not upper_tail:
            return 1.0
        log_x, log_rest = ctx.mpf(0), None
    else:
        log_x, log_rest = ctx.log(x), ctx.log(1 - x)
        on_side = (log_x.a > lp.b) if upper_tail else (log_x.b < lp.a)
        if not on_side:
            return 1.0
    kl = (x * (log_x - lp) if log_x is not None else 0) + ((1 - x) * (log_rest - lq) if log_rest is not None else 0)
    return min(1.0, iv_to_floats(ctx.exp(-N * kl))[1])


def _window(n: int, clones: _Clones, budget: float) -> tuple[int, int, float, float]:
    """[c_lo, c_hi] and upper bounds on Pr[C < c_lo], Pr[C > c_hi], each <= budget.

    The Chernoff bound of Pr[C <= j] increases with j below the mean (and that of Pr[C >= j] decreases
    above it), so each end is found by bisection: c_lo is the smallest j with a bound <= budget on
    Pr[C <= j - 1], c_hi the largest with a bound <= budget on Pr[C >= j + 1].
    """
    N = n - 1
    mean = N * math.exp(sum(clones.log_p) / 2)
    centre = min(N, max(0, int(mean)))
    lo, hi = -1, centre  # bound(lo) <= budget (Pr[C <= -1] = 0), bound(hi) unknown
    if _chernoff(N, hi, clones, upper_tail=False) <= budget:
        lo = hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _chernoff(N, mid, clones, upper_tail=False) <= budget:
            lo = mid
        else:
            hi = mid
    c_lo, low = lo + 1, _chernoff(N, lo, clones, upper_tail=False)
    lo, hi = centre, N + 1  # bound(hi) <= budget (Pr[C >= N + 1] = 0)
    if _chernoff(N, lo, clones, upper_tail=True) <= budget:
        hi = lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _chernoff(N, mid, clones, upper_tail=True) <= budget:
            hi = mid
        else:
            lo = mid
    c_hi, high = max(hi - 1, c_lo), _chernoff(N, hi, clones, upper_tail=True)
    return c_lo, c_hi, low, high


def clone_sum_limit(eps0: object, n: object, delta: object, *, variant: str = "fmt21") -> str | None:
    """None when the clone sum at (eps0, n, delta) is within the numerical range, else the reason.

    The range: n <= :data:`NUMERIC_N_MAX` and at most :data:`MAX_CLONE_TERMS` values of C in the window.
    """
    x = validate_shuffle_inputs(eps0, n, delta)
    return _beyond_range(x.n, _clones(x.eps0, variant), x.delta)


def _beyond_range(n: int, clones: _Clones, delta: sympy.Expr) -> str | None:
    closed = f"{clones.variant}-closed"
    if n > NUMERIC_N_MAX:
        return (f"n = {n} is beyond {range_text(2, NUMERIC_N_MAX)}, where the clone sum is evaluated term by "
                f"term in seconds; {closed} bounds the same reduction in closed form")
    c_lo, c_hi, _, _ = _window(n, clones, _budget(delta))
    if c_hi - c_lo + 1 > MAX_CLONE_TERMS:
        return (f"the clone count C ~ Bin(n-1, p) has {c_hi - c_lo + 1} likely values here, more than the "
                f"{MAX_CLONE_TERMS} summed one by one in seconds (about 20 sqrt(n p (1-p)) <= {MAX_CLONE_TERMS}: "
                f"smaller n or a larger or smaller eps0); {closed} bounds the same reduction")
    return None


def _budget(delta: object) -> float:
    """Mass of C allowed outside the window: 10^-12 delta (so the window barely moves the bound)."""
    return max(enclose(delta)[0] * 1e-12, 1e-300)


# ---------------------------------------------------------------------------------------------
# The rigorous sweep over c
# ---------------------------------------------------------------------------------------------

def _start_values(N: int, c: int, m: int, clones: _Clones) -> tuple[float, ...]:
    """Enclosures of Pr[C = c], B_c(m - 1) and T_c(m) = Pr[Bin(c, 1/2) >= m]."""
    ctx = interval_context(_BASE_BITS + max(N, 1).bit_length())
    log_b = log_factorial(ctx, N) - log_factorial(ctx, c) - log_factorial(ctx, N - c)
    if c:
        log_b += c * ctx.mpf(list(clones.log_p))
    if N - c:
        log_b += (N - c) * ctx.mpf(list(clones.log_q))
    b_lo, b_hi = iv_to_floats(ctx.exp(log_b))
    log_B = log_factorial(ctx, c) - log_factorial(ctx, m - 1) - log_factorial(ctx, c - m + 1) - c * ctx.ln2
    B_lo, B_hi = iv_to_floats(ctx.exp(log_B))
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


def _sweep(n: int, clones: _Clones, at: _Threshold, c_lo: int, c_hi: int) -> tuple[float, float, float, float, float]:
    """Rigorous sums over c in [c_lo, c_hi] at one eps.

    Returns (d_lo, d_hi, h_last, gs_lo, qs_hi): an enclosure [d_lo, d_hi] of
    sum_c Pr[C = c] h_c(eps); an upper bound on h_{c_hi}(eps); and, for the events S_c = {a >= m_c}
    used at each c, a lower bound gs_lo on sum_c Pr[C = c] (P_c(S_c) - Q_c(S_c)) =
    sum_c Pr[C = c] (s - 1)/(s + 1) B_c(m_c - 1) and an upper bound qs_hi on sum_c Pr[C = c] Q_c(S_c).
    Since h_c(eps') >= P_c(S_c) - e^eps' Q_c(S_c) for every eps', the line gs_lo - (e^eps' - 1) qs_hi is a
    lower bound on the clone divergence at every eps' (P(S) - Q(S) is summed directly: it is about eps
    times Q(S), and their difference would cancel).
    """
    nx, INF = math.nextafter, math.inf
    N = n - 1
    kappa_lo, kappa_hi = at.kappa
    a1_lo, a1_hi = at.a1
    tm1_lo, tm1_hi = at.tm1
    if a1_hi <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0
    gap_lo, be_hi = clones.gap_lo, clones.beta_hi
    rho_lo, rho_hi = clones.rho

    c = c_lo
    m = min(math.floor(down(kappa_lo * (c + 1))) + 1, c + 1)
    b_lo, b_hi, B_lo, B_hi, T_lo, T_hi = _start_values(N, c, m, clones)
    d_lo = d_hi = gs_lo = qs_hi = 0.0
    floor = math.floor
    h_prev = 1.0  # h_c <= 1, and h_c <= h_{c-1}
    while True:
        h_lo = nx(nx(a1_lo * B_lo, -INF) - nx(tm1_hi * T_hi, INF), -INF)
        if h_lo < 0.0:
            h_lo = 0.0
        h_hi = nx(nx(a1_hi * B_hi, INF) - nx(tm1_lo * T_lo, -INF), INF)
        m_hi = floor(nx(kappa_hi * (c + 1), INF)) + 1
        if m_hi > m + 1:
            h_hi = h_prev  # the threshold is not located to two candidates: monotonicity in c
        elif m_hi == m + 1:
            # the exact threshold may be m + 1: bound that event too and keep the larger upper bound
            Bm_hi = nx(B_hi * nx((c - m + 1) / m, INF), INF)
            T1_lo = nx(T_lo - Bm_hi, -INF)
            if T1_lo < 0.0:
                T1_lo = 0.0
            h2 = nx(nx(a1_hi * Bm_hi, INF) - nx(tm1_lo * T1_lo, -INF), INF)
            if h2 > h_hi:
                h_hi = h2
        if h_hi > h_prev:
            h_hi = h_prev
        h_prev = h_hi
        d_lo = nx(d_lo + nx(b_lo * h_lo, -INF), -INF)
        d_hi = nx(d_hi + nx(b_hi * h_hi, INF), INF)
        gs_lo = nx(gs_lo + nx(b_lo * nx(gap_lo * B_lo, -INF), -INF), -INF)
        qs_hi = nx(qs_hi + nx(b_hi * nx(T_hi + nx(be_hi * B_hi, INF), INF), INF), INF)
        if c == c_hi:
            break
        m_next = min(floor(nx(kappa_lo * (c + 2), -INF)) + 1, m + 1)
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
    return max(d_lo, 0.0), d_hi, h_prev, max(gs_lo, 0.0), qs_hi


def _delta_enclosure(n: int, clones: _Clones, eps: object, budget: float) -> tuple[CloneDelta, float, float]:
    """The delta enclosure at the exact ``eps``, and (gs_lo, qs_hi) for the lower-bound line (see :func:`_sweep`)."""
    at = _threshold(eps, clones.eps0)
    if at.a1[1] <= 0.0:  # e^eps >= e^eps0: every h_c is 0
        return CloneDelta(0.0, 0.0, (0, n - 1), 0.0), 0.0, 0.0
    c_lo, c_hi, low, high = _window(n, clones, budget)
    d_lo, d_hi, h_last, gs_lo, qs_hi = _sweep(n, clones, at, c_lo, c_hi)
    d_hi = up(up(d_hi + low) + up(high * h_last))
    return CloneDelta(d_lo, min(d_hi, 1.0), (c_lo, c_hi), up(low + high)), gs_lo, qs_hi


def clone_delta(eps: object, eps0: object, n: object, *, variant: str = "fmt21",
                outside_budget: float = 1e-30) -> CloneDelta:
    """Rigorous enclosure of the clone-pair hockey-stick divergence D_{e^eps}(P || Q).

    Args:
        eps: the shuffled eps >= 0 at which delta is evaluated (exact number).
        eps0: the local randomizers' eps0, in the range of :func:`validate_shuffle_inputs`.
        n: the number of users, in that range and within the numerical range (:func:`clone_sum_limit`).
        variant: ``"fmt21"`` (p_clone = e^-eps0) or ``"fmt23"`` (p_clone = 2 / (e^eps0 + 1)).
        outside_budget: target for the rigorous bound on each tail of C outside the summed window.

    Returns:
        :class:`CloneDelta` whose ``upper`` is a valid delta(eps) for n shuffled eps0-LDP randomizers
        (for ``"fmt23"``: for randomizers in the class of the FMT 2023 erratum).

    Raises:
        InvalidParameterError: eps < 0, eps0 or n outside their ranges.
    """
    eps = to_exact("eps", eps)
    if exact_sign(eps) < 0:
        raise InvalidParameterError(f"eps must be >= 0. Got {eps}")
    x = validate_shuffle_inputs(eps0, n, sympy.Rational(1, 2))
    clones = _clones(x.eps0, variant)
    reason = _beyond_range(x.n, clones, sympy.Rational(1, 2))
    if reason:
        raise InvalidParameterError(f"n: {reason}")
    if exact_sign(eps - x.eps0) >= 0:
        return CloneDelta(0.0, 0.0, (0, x.n - 1), 0.0)
    return _delta_enclosure(x.n, clones, eps, max(outside_budget, 1e-300))[0]


# ---------------------------------------------------------------------------------------------
# Locating eps: brentq on a float64 model, then rigorous sweeps
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Model:
    """The clone sum in float64 (an estimate for root finding only): C's window and its log pmf."""

    n: int
    eps0: float
    cs: np.ndarray
    log_w: np.ndarray

    @classmethod
    def build(cls, n: int, clones: _Clones, c_lo: int, c_hi: int) -> _Model:
        N = n - 1
        cs = np.arange(c_lo, c_hi + 1, dtype=np.float64)
        b_lo, b_hi, *_ = _start_values(N, c_lo, c_lo + 1, clones)
        start = math.log(math.sqrt(b_lo * b_hi)) if b_lo > 0 else math.log(max(b_hi, 1e-300))
        log_rho = sum(clones.log_p) / 2 - sum(clones.log_q) / 2
        steps = np.log((N - cs[:-1]) / (cs[:-1] + 1)) + log_rho
        log_w = start + np.concatenate(([0.0], np.cumsum(steps)))
        return cls(n, float(clones.eps0), cs, log_w)

    def delta(self, eps: float) -> float:
        """The clone divergence at eps (float64)."""
        if eps >= self.eps0:
            return 0.0
        kappa = -math.expm1(-(eps + self.eps0)) / ((1 + math.exp(-eps)) * -math.expm1(-self.eps0))
        a1 = -math.expm1(eps - self.eps0) / (1 + math.exp(-self.eps0))
        tm1 = math.expm1(eps)
        m = np.minimum(np.floor(kappa * (self.cs + 1)) + 1, self.cs + 1)
        B = binom.pmf(m - 1, self.cs, 0.5)  # B_c(m_c - 1)
        # T_{c+1}(m_c) = T_c(m_c) + B_c(m_c - 1)/2, less B_{c+1}(m_c) when the threshold moves up by one
        steps = B[:-1] / 2 - (m[1:] - m[:-1]) * B[1:]
        T = np.maximum(binom.sf(m[0] - 1, self.cs[0], 0.5) + np.concatenate(([0.0], np.cumsum(steps))), 0.0)
        h = np.maximum(a1 * B - tm1 * T, 0.0)
        return float(np.sum(np.exp(self.log_w) * h))


RELATIVE_MARGIN = 1e-8
"""How far (relative) a reported upper end may lie above an eps the sweep does not certify. The float model's
root is within a few 1e-9 (relative) of the rigorous crossing, so the first step of 1e-8 past it usually
certifies: two sweeps instead of six for a margin of 1e-9, and still far inside the 1e-5 target."""

ABSOLUTE_MARGIN = 1e-7
"""The same distance in eps, never exceeded however large eps0 is (at eps0 = 700, 1e-8 relative is 7e-6)."""


def clone_epsilon(eps0: object, n: object, delta: object, *, variant: str = "fmt21",
                  relative_margin: float = RELATIVE_MARGIN) -> tuple[sympy.Expr, sympy.Expr, CloneDelta]:
    """Certified enclosure [lower, upper] of the clone-bound eps at target ``delta``.

    ``upper`` is a rational eps at which the rigorous upper bound on D_{e^upper}(P || Q) is <= delta
    (so it is a valid eps of the shuffled mechanism), or eps0, where D = 0 exactly. ``lower`` comes from
    the same sweep: for the events S_c used there, D_{e^eps'}(P || Q) >= P(S) - e^eps' Q(S) for every
    eps', and ``lower`` is the eps' where the rigorous lower bound of that line equals delta, so the
    exact numerical-bound eps (where D = delta) is >= lower. ``upper`` lies within ``relative_margin``
    (relative, and :data:`ABSOLUTE_MARGIN` absolute) of an eps where the sweep does not prove D <= delta.
    Returns (lower, upper, the delta enclosure at upper).

    Raises:
        InvalidParameterError: an argument outside its range, or (n, eps0, delta) outside the numerical
            range (:func:`clone_sum_limit`).
    """
    x = validate_shuffle_inputs(eps0, n, delta)
    clones = _clones(x.eps0, variant)
    reason = _beyond_range(x.n, clones, x.delta)
    if reason:
        raise InvalidParameterError(f"n: {reason}")
    return _certified_epsilon(x.n, clones, x.delta, relative_margin)


def _certified_epsilon(n: int, clones: _Clones, delta: sympy.Expr,
                       relative_margin: float) -> tuple[sympy.Expr, sympy.Expr, CloneDelta]:
    d_lo, d_hi = enclose(delta)
    eps0_lo = enclose(clones.eps0)[0]
    budget = _budget(delta)
    c_lo, c_hi, _, _ = _window(n, clones, budget)
    model = _Model.build(n, clones, c_lo, c_hi)
    log_delta = math.log((d_lo + d_hi) / 2)
    sweeps: dict[float, tuple[CloneDelta, float, float]] = {}

    def gap(eps: float) -> float:
        """ln of the float model's divergence minus ln delta (a divergence of 0 counts as e^-800)."""
        d = model.delta(eps)
        return (math.log(d) if d > 0 else -800.0) - log_delta

    def swept(eps: float) -> tuple[CloneDelta, float, float]:
        """One rigorous sweep at the decimal ``eps`` prints as (how dpcert reads a float back)."""
        if eps not in sweeps:
            sweeps[eps] = _delta_enclosure(n, clones, sympy.Rational(repr(eps)), budget)
        return sweeps[eps]

    def at_most_delta(eps: float) -> bool:
        """D <= delta proved at the decimal eps prints as: exactly (D = 0) at eps >= eps0, else by a sweep."""
        return exact_sign(sympy.Rational(repr(eps)) - clones.eps0) >= 0 or swept(eps)[0].upper <= d_lo

    def line_lower(gs_lo: float, qs_hi: float) -> sympy.Expr:
        """Where the rigorous lower line gs_lo - (e^eps' - 1) qs_hi meets delta_hi (0 if it never does for eps' > 0)."""
        if qs_hi > 0 and gs_lo > d_hi:
            tm1 = down(down(gs_lo - d_hi) / qs_hi)
            ctx = _context(tm1)
            log_t = iv_to_floats(ctx.log(1 + ctx.mpf(tm1)))[0]
            return sympy.Rational(min(max(0.0, log_t), eps0_lo))
        return sympy.Integer(0)

    eps0_hi = enclose(clones.eps0)[1]
    root = certified_root(gap, at_most_delta, 0.0, eps0_hi, side="above",
                          rtol=min(relative_margin, ABSOLUTE_MARGIN / eps0_hi))
    upper = sympy.Rational(repr(root.certified))
    if exact_sign(upper - clones.eps0) < 0:
        enclosure, gs_lo, qs_hi = swept(root.certified)
        return line_lower(gs_lo, qs_hi), upper, enclosure
    # no eps below eps0 certified: at eps0 every h_c is 0 exactly, so D = 0 <= delta
    _, gs_lo, qs_hi = _delta_enclosure(n, clones, eps0_lo * (1 - 1e-9), budget)
    return line_lower(gs_lo, qs_hi), clones.eps0, CloneDelta(0.0, 0.0, (0, n - 1), 0.0)


# ---------------------------------------------------------------------------------------------
# BoundResults
# ---------------------------------------------------------------------------------------------

def _numeric_row(name: str, variant: str, x, clone: str, extra_note: str = "") -> BoundResult:
    clones = _clones(x.eps0, variant)
    reason = _beyond_range(x.n, clones, x.delta)
    if reason:
        return invalid(name, reason)
    lower, upper, enclosure = _certified_epsilon(x.n, clones, x.delta, RELATIVE_MARGIN)
    return interval_result(name, lower, upper, _numeric_note(enclosure, clone) + extra_note)


def fmt21_numeric(eps0: object, n: object, delta: object) -> BoundResult:
    """Numerical clone bound of Feldman, McMillan, Talwar (FOCS 2021), Theorem 3.2 / Section 5.

    Valid for every eps0-LDP local randomizer: the shuffled output is (eps, delta)-DP for every eps >= the
    reported upper end, where eps solves sum_c Pr[C = c] h_c(eps) = delta with C ~ Bin(n - 1, e^-eps0)
    (see the module docstring for h_c and for the rigorous enclosure). Outside the numerical range
    (:func:`clone_sum_limit`) the row is invalid and says why.

    References:
        Feldman, McMillan, Talwar, "Hiding Among the Clones" (FOCS 2021), Theorem 3.2 and Lemma 3.3.
    """
    return _numeric_row("fmt21-numeric", "fmt21", validate_shuffle_inputs(eps0, n, delta), "e^-eps0")


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
    x = validate_shuffle_inputs(eps0, n, delta, k=k)
    reason = stronger_clones_allowed(x.k, assume_stronger_clones)
    if reason:
        return invalid("fmt23-numeric", reason)
    note = f"; randomizer: {randomizer_label(x.k)}"
    if x.k is None:
        note += " (assume_stronger_clones=True: the caller asserts the randomizer is in the erratum's class)"
    return _numeric_row("fmt23-numeric", "fmt23", x, "2/(e^eps0+1)", note)


def _numeric_note(enclosure: CloneDelta, clone: str) -> str:
    return (f"C ~ Bin(n-1, {clone}); every c in [{enclosure.window[0]}, {enclosure.window[1]}] summed, "
            f"mass outside <= {enclosure.outside_mass:.3g} added; certified delta(upper) <= "
            f"{enclosure.upper:.6g}; value in [lower, upper], upper is the valid eps")
