"""The user-level DP baselines of Section 6: their privacy accounting and their error bounds.

- **Lemma 6.4 (Hadamard response, local).** Each user randomizes each of m items with Hadamard response at
  eps0 = eps / sqrt(m ln(m/delta)) (:func:`lemma_6_4_per_sample_eps`). Any eps0-LDP randomizer composes to
  the optimal (Kairouz, Oh, Viswanath) bound :func:`dpcert.accountant.composition.optimal_composition`
  with k = m, which is tight for m-fold randomized response; Hadamard response itself leaks less:
  between two values its privacy loss is 0 with probability 1/2 and +-eps0 otherwise (the code sets of
  two values share half their outputs), so its exact user-level delta(eps) is
  sum_j C(m, j) 2^-m delta_RR,j(eps), with delta_RR,j the exact delta of j-fold eps0 randomized response
  (:func:`hadamard_user_level_delta`; the all-items-changed pair is the worst, since fewer changed items
  are a post-processing of more).
- **Lemma 6.4's error.** With the mass-preserving inverse B' of
  :class:`~dpcert.mechanisms.metric_user_level.hadamard.HadamardResponse` and c = coth(eps0/2), every row
  of B' has squared norm c^2 k + (1 - c^2 S_y^2)/k <= c^2 k + 1/k (S_y the row's sign sum), and
  F~ - K~ = (1/(mn)) sum_j (z_j - A_{x_j}) B' is a sum of mn independent zero-mean terms with
  E||(z_j - A_{x_j}) B'||^2 <= max_y ||B'_y||^2 - 1. On a metric of diameter <= 1 a signed vector of mass 0
  costs at most ||.||_1 / 2 <= sqrt(k) ||.||_2 / 2 to transport, so by Jensen
  **max_K E[d_EM(F~, K~)] <= (1/2) sqrt((c^2 k^2 - k + 1)/(mn))** (:func:`lemma_6_4_bound`, the
  estimator's exact variance bound). Since coth(x/2) <= 2/x + x/6, at Lemma 6.4's eps0 this is at most
  sqrt(k^2 ln(m/delta)/(n eps^2)) + eps0 k / (12 sqrt(mn)), which is Lemma 6.4's rate
  sqrt(k/(mn)) + sqrt(k^2 ln(m/delta)/(n eps^2)) with constant 1 whenever eps0 sqrt(k) <= 12
  (:func:`lemma_6_4_rate`).
- **Lemma 6.7 (central Laplace), corrected.** Replacing one user's m items (of mn) changes the normalised
  global histogram by at most 2/n in l1, so Lap(2/(n eps)) noise per value is eps-user-level DP (spec A7).
  With Y the noise, clipping at 0 (1-Lipschitz, fixes K~ >= 0) and normalising (changes l1 by
  |1 - ||F+||_1| <= ||F+ - K~||_1) give ||F~ - K~||_1 <= 2 ||Y||_1, so on a metric of diameter <= 1
  **E[d_EM(K~, F~)] <= E||Y||_1 = k b = 2k/(n eps)** (:func:`lemma_6_7_bound`); the paper's O(k/(n eps))
  with the constant 2.
- **Lemma 6.1 (Duchi, Jordan, Wainwright, local linear queries).** The l2 sampling randomizer with radius
  R = ||F Phi||_{1->2} releases a point of norm B = R coth(eps/2) sqrt(pi) Gamma((d+1)/2)/Gamma(d/2), unbiased,
  so E||q^ - q||_2 <= B / sqrt(n) (:func:`lemma_6_1_bound`); Gamma((d+1)/2)/Gamma(d/2) <= sqrt(d/2) makes
  it O(||F Phi||_{1->2} sqrt(d)/(eps sqrt n)).

References: 002_1def8c9789d6e1bd.txt, Lemmas 6.1, 6.4, 6.7 and Table 2; specs/imola_metric_dp_user_level.md,
sections 3.5, 3.6, A7, A8; Kairouz, Oh, Viswanath (ICML 2015), Theorem 3.3; Duchi, Jordan, Wainwright,
"Minimax optimal procedures for locally private estimation" (JASA 2018), Section 4.2.3.
"""

from __future__ import annotations

import math

import mpmath
import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.composition import optimal_composition
from dpcert.accountant.mp_enclosures import exact_interval
from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.mechanisms.parameters import (
    exact_sign,
    require_eps,
    require_int,
    require_positive,
    require_real,
    to_exact,
)

__all__ = [
    "BASELINE_SOURCES",
    "MAX_EXACT_HADAMARD_M",
    "hadamard_user_level_delta",
    "lemma_6_1_bound",
    "lemma_6_4_bound",
    "lemma_6_4_composition",
    "lemma_6_4_per_sample_eps",
    "lemma_6_4_rate",
    "lemma_6_7_bound",
]

_PAPER = "002_1def8c9789d6e1bd.txt"
BASELINE_SOURCES = {
    "lemma6.4-eps0": f"{_PAPER}, Lemma 6.4 (remark: per-sample budget)",
    "lemma6.4-composition": f"{_PAPER}, Lemma 6.4 remark; Kairouz, Oh, Viswanath (ICML 2015), Theorem 3.3",
    "hadamard-user-level": f"{_PAPER}, Lemma 6.4 (exact privacy loss of m-fold Hadamard response)",
    "lemma6.4": f"{_PAPER}, Lemma 6.4 (variance bound of the Hadamard estimator)",
    "lemma6.4-rate": f"{_PAPER}, Lemma 6.4 (the O(.) rate with constant 1)",
    "lemma6.7-corrected": f"{_PAPER}, Lemma 6.7 with scale 2/(n eps) (spec A7)",
    "lemma6.1": f"{_PAPER}, Lemma 6.1; Duchi, Jordan, Wainwright (JASA 2018), Section 4.2.3",
}
"""Paper and theorem behind each result name."""

MAX_EXACT_HADAMARD_M = 2000
"""The exact Hadamard delta sums about (m/2) * 8 sqrt(m) interval terms: m <= 2000 keeps it to a few seconds."""

_WINDOW_BITS = 200
"""Binomial tails below 2^-200 are dropped from the exact Hadamard sum and added back as that bound."""


def _open_unit(name: str, value: object) -> sympy.Expr:
    return require_real(name, value, low=0, high=1, low_open=True, high_open=True)


def lemma_6_4_per_sample_eps(eps: object, m: object, delta: object) -> sympy.Expr:
    """eps0 = eps / sqrt(m ln(m/delta)): Lemma 6.4's per-sample budget (exact sympy expression).

    Args:
        eps: the user-level target eps > 0; m: items per user (>= 1); delta: target delta in (0, 1).
    """
    eps = require_positive("eps", eps)
    m = require_int("m", m, minimum=1)
    delta = _open_unit("delta", delta)
    return eps / sympy.sqrt(m * sympy.log(m / delta))


def lemma_6_4_composition(eps: object, m: object, delta: object) -> BoundResult:
    """The eps that optimal composition certifies for m releases of an eps0-LDP randomizer, eps0 from Lemma 6.4.

    Kairouz-Oh-Viswanath's bound is exact for the worst eps0-LDP randomizer (m-fold randomized response
    attains it), so ``value > eps`` means Lemma 6.4's remark ("(eps, delta) follows from composition") fails
    for a generic randomizer at these parameters. ``bounds`` is "exact" (an enclosure of the tight eps').
    """
    eps0 = lemma_6_4_per_sample_eps(eps, m, delta)
    result = optimal_composition(eps0, m, delta)
    return BoundResult("lemma6.4-composition", BASELINE_SOURCES["lemma6.4-composition"], result.value, "eps",
                       result.valid, f"m = {m} releases at eps0 = {eps0}; {result.note}",
                       result.lower_value, result.upper_value, bounds=result.bounds)


def interval_ends(x) -> tuple[mpmath.mpf, mpmath.mpf]:
    a, b = x._mpi_
    return mpmath.mp.make_mpf(a), mpmath.mp.make_mpf(b)


def _rr_delta(ctx, j: int, eps0_float: float, eps_float: float, log_p, log_q, e_eps, tail):
    """An interval containing delta(eps) of j-fold eps0 randomized response, and the count of terms summed.

    l flips (probability C(j,l) p^(j-l) q^l under x, C(j,l) q^(j-l) p^l under x') have loss (j - 2l) eps0;
    only l with (j - 2l) eps0 > eps (up to float slack) can contribute, each term clipped at 0, and terms
    with l below j q - sqrt(j * ``_WINDOW_BITS`` ln 2 / 2) are replaced by their Hoeffding bound ``tail``.
    """
    ratio = eps_float / eps0_float  # inf for a huge eps: then no flip count can contribute
    top = math.floor((j - ratio) / 2 + 1e-9) if ratio <= j + 1 else -1
    if top < 0:
        return ctx.mpf(0), 0
    centre = j / (1 + math.exp(min(eps0_float, 700.0)))  # e^-700 j < 1e-300: the window starts at 0 either way
    low = max(0, math.floor(centre - math.sqrt(j * _WINDOW_BITS * math.log(2) / 2)))
    total = ctx.mpf(0) if low == 0 else ctx.mpf((0, tail.b))
    if low > top:
        return total, 0
    log_binomial = ctx.log(ctx.mpf(math.comb(j, low))) if low else ctx.mpf(0)
    forward = ctx.exp(log_binomial + (j - low) * log_p + low * log_q)
    backward = ctx.exp(log_binomial + (j - low) * log_q + low * log_p)
    up, down = ctx.exp(log_q - log_p), ctx.exp(log_p - log_q)
    for l in range(low, top + 1):
        term = forward - e_eps * backward
        a, b = interval_ends(term)
        total += ctx.mpf((max(a, 0), max(b, 0)))
        step = ctx.mpf(j - l) / (l + 1)
        forward, backward = forward * step * up, backward * step * down
    return total, top - low + 1


def hadamard_user_level_delta(eps0: object, m: object, eps: object) -> BoundResult:
    """The exact smallest delta for which m-fold Hadamard response at eps0 is (eps, delta)-user-level DP.

    delta(eps) = sum_j C(m, j) 2^-m delta_RR,j(eps): between two values, Hadamard response's privacy loss is
    0 with probability 1/2 and otherwise that of eps0 randomized response (module docstring). Computed as a
    rigorous interval (binomial tails below 2^-200 are bounded, not dropped); ``value`` is its upper end.

    Args:
        eps0: per-item eps0 > 0; m: items per user, 1 <= m <= :data:`MAX_EXACT_HADAMARD_M`; eps >= 0.
    """
    eps0 = require_eps("eps0", eps0)
    m = require_int("m", m, minimum=1, maximum=MAX_EXACT_HADAMARD_M)
    eps = require_real("eps", eps, low=0)
    ctx = interval_context(96)
    iv_eps0 = exact_interval(ctx, eps0)
    log_p = iv_eps0 - ctx.log(1 + ctx.exp(iv_eps0))   # ln(e^eps0 / (1 + e^eps0))
    log_q = -ctx.log(1 + ctx.exp(iv_eps0))             # ln(1 / (1 + e^eps0))
    e_eps = ctx.exp(exact_interval(ctx, eps))
    tail = ctx.mpf(2) ** -_WINDOW_BITS
    eps0_float, eps_float = float(eps0), float(eps)
    half = math.sqrt(m * _WINDOW_BITS * math.log(2) / 2)
    j_low, j_high = max(0, math.floor(m / 2 - half)), min(m, math.ceil(m / 2 + half))
    total = ctx.mpf(0) if (j_low == 0 and j_high == m) else ctx.mpf((0, (2 * tail).b))
    log_half = ctx.log(ctx.mpf(2)) * (-m)
    terms = 0
    for j in range(j_low, j_high + 1):
        rr, count = _rr_delta(ctx, j, eps0_float, eps_float, log_p, log_q, e_eps, tail)
        if count or interval_ends(rr)[1] > 0:
            weight = ctx.exp(ctx.log(ctx.mpf(math.comb(m, j))) + log_half)
            total += weight * rr
            terms += count
    low, high = interval_ends(total)
    low, high = max(low, mpmath.mpf(0)), min(high, mpmath.mpf(1))
    upper = sympy.Rational(math.nextafter(float(high), math.inf)) if high > 0 else sympy.Integer(0)
    lower = sympy.Rational(max(math.nextafter(float(low), -math.inf), 0.0))
    return BoundResult("hadamard-user-level", BASELINE_SOURCES["hadamard-user-level"], upper, "probability", True,
                       f"m = {m} items at eps0 = {eps0}, eps = {eps}: {terms} interval terms",
                       lower, upper, bounds="exact")


def _coth_half(eps: sympy.Expr) -> sympy.Expr:
    t = sympy.exp(eps)
    return (t + 1) / (t - 1)


def lemma_6_4_bound(eps0: object, k: object, m: object, n: object) -> BoundResult:
    """max_K E[d_EM(F~, K~)] <= (1/2) sqrt((c^2 k^2 - k + 1)/(m n)), c = coth(eps0/2), on any metric of diameter <= 1.

    The exact variance bound of FreqEstLocal with Hadamard response at eps0 and the mass-preserving
    inverse B' (module docstring), for n users of m items over k values.
    """
    eps0 = require_eps("eps0", eps0)
    k = require_int("k", k, minimum=2)
    m, n = require_int("m", m, minimum=1), require_int("n", n, minimum=1)
    c = _coth_half(eps0)
    value = sympy.sqrt((c**2 * k**2 - k + 1) / (m * n)) / 2
    return BoundResult("lemma6.4", BASELINE_SOURCES["lemma6.4"], value, "d_EM",
                       note="expected d_EM error of Hadamard-response FreqEstLocal (variance bound, any metric "
                            "with d_X <= 1)")


def lemma_6_4_rate(eps: object, delta: object, k: object, m: object, n: object) -> BoundResult:
    """Lemma 6.4's rate with constant 1: sqrt(k/(mn)) + sqrt(k^2 ln(m/delta)/(n eps^2)).

    It bounds :func:`lemma_6_4_bound` at eps0 = :func:`lemma_6_4_per_sample_eps` whenever eps0 sqrt(k) <= 12
    (module docstring); ``valid`` says whether that condition holds here.
    """
    eps0 = lemma_6_4_per_sample_eps(eps, m, delta)
    eps, delta = to_exact("eps", eps), to_exact("delta", delta)
    k, m, n = require_int("k", k, minimum=2), int(m), require_int("n", n, minimum=1)
    value = sympy.sqrt(sympy.Rational(k, m * n)) + sympy.sqrt(k**2 * sympy.log(m / delta) / (n * eps**2))
    holds = exact_sign(eps0**2 * k - 144) <= 0
    return BoundResult("lemma6.4-rate", BASELINE_SOURCES["lemma6.4-rate"], value, "d_EM", holds,
                       "constant 1 holds since eps0 sqrt(k) <= 12" if holds else
                       f"eps0 sqrt(k) = {float(eps0 * sympy.sqrt(k)):.4g} > 12: the constant-1 form is not proved here")


def lemma_6_7_bound(eps: object, k: object, n: object) -> BoundResult:
    """E[d_EM(K~, F~)] <= 2k/(n eps) for the central Laplace baseline at the corrected scale 2/(n eps).

    Any metric with d_X <= 1; F~ clips the noisy histogram at 0 and normalises (module docstring).
    """
    eps = require_positive("eps", eps)
    k, n = require_int("k", k, minimum=2), require_int("n", n, minimum=1)
    return BoundResult("lemma6.7-corrected", BASELINE_SOURCES["lemma6.7-corrected"], 2 * k / (n * eps), "d_EM",
                       note="k times the Laplace scale 2/(n eps)")


def lemma_6_1_bound(eps: object, radius: object, d: object, n: object) -> BoundResult:
    """E||q^ - q||_2 <= B / sqrt(n), B = radius coth(eps/2) sqrt(pi) Gamma((d+1)/2) / Gamma(d/2).

    Args:
        eps: each user's eps; radius: ||F Phi||_{1->2} (every user's query value lies in that l2 ball);
        d: the query's dimension (>= 2); n: users.
    """
    eps = require_eps("eps", eps)
    radius = require_positive("radius", radius)
    d, n = require_int("d", d, minimum=2), require_int("n", n, minimum=1)
    norm = radius * _coth_half(eps) * sympy.sqrt(sympy.pi) * sympy.gamma(sympy.Rational(d + 1, 2)) \
        / sympy.gamma(sympy.Rational(d, 2))
    return BoundResult("lemma6.1", BASELINE_SOURCES["lemma6.1"], norm / sympy.sqrt(n), "l2",
                       note="root mean square error of the mean of n unbiased releases of norm B")

