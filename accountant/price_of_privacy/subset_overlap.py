"""The overlap of two users' item sets: R(N, w), Lemma 12, and the eps-free brackets of Theorems 13-14.

Two independent uniform w-subsets of the N items overlap in ``K ~ Hypergeometric(N, w, w)`` items.
``R(N, w) = C(N-w, w)/C(N, w) = P(K = 0)``, and Theorems 13 and 14 are ``e^{2eps}`` times an
expectation over K (their "bracket"). Both are computed with exact integers for
``w <= EXACT_W_MAX``. Above that, ``R`` comes from ``lgamma`` in mpmath interval arithmetic
(``INTERVAL_BITS``-bit, outward rounding) and the brackets are rigorous enclosures. The Theorem 14
bracket ``1 + w^2/N - (1 + 2w^2/(N-2w+1)) R`` cancels catastrophically in float64 (it is about
``w^4/N^2``); it is never computed in floating point.

References: 000_0c6e7fdc3fd68303.txt (Lemma 12 = Lemma 26; Theorems 13 and 14).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from fractions import Fraction

import sympy

from dpcert.accountant.exact_intervals import (
    _IV,
    INTERVAL_BITS,
    _compact,
    _iv_ends,
    _iv_exact,
    _iv_lgamma,
    _join,
    _rational,
)
from dpcert.accountant.input_validation import _items
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["EXACT_RATIO_W_MAX", "EXACT_W_MAX", "binomial_ratio", "binomial_ratio_bounds", "lemma_12_sandwich"]

EXACT_W_MAX = 2000
"""Closed-form bounds use exact integer arithmetic for w <= EXACT_W_MAX, mpmath intervals above."""

EXACT_RATIO_W_MAX = 20000
""":func:`binomial_ratio` and :func:`lemma_12_sandwich` (always exact) refuse larger w: use :func:`binomial_ratio_bounds`."""

_SERIES_MU_MAX = 4000  # above this mean overlap w^2/N the convex-order enclosure is used (width < e^-2000)

_FULL_SERIES_W = 200
"""Up to this w the overlap series is summed in full (exact); above it, it is cut where the terms fall
below 2^-300 of the largest and the rest is bounded exactly by a geometric series."""


def _ratio_pair(N: int, w: int) -> tuple[int, int]:
    """R(N, w) = prod_{k<w} (N-w-k)/(N-k) as an unreduced (numerator, denominator) pair."""
    if 2 * w > N:
        return 0, 1
    return _product(range(N - 2 * w + 1, N - w + 1)), _product(range(N - w + 1, N + 1))


def _product(values: Iterable[int]) -> int:
    items = list(values)
    if not items:
        return 1
    while len(items) > 1:
        paired = [items[i] * items[i + 1] for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            paired.append(items[-1])
        items = paired
    return items[0]


def binomial_ratio(N: object, w: object) -> sympy.Rational:
    """R(N, w) = C(N-w, w)/C(N, w) = prod_{k=0}^{w-1} (1 - w/(N-k)), exactly (0 when 2w > N).

    R is the probability that two independent uniform w-subsets of [N] are disjoint. Cost: O(w)
    big-integer products, so w <= 20000; :func:`binomial_ratio_bounds` encloses R for any w.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 12 (= Lemma 26).
    """
    n, k = _items(N, w)
    if k > EXACT_RATIO_W_MAX:
        raise InvalidParameterError(f"w must be <= {EXACT_RATIO_W_MAX} for the exact ratio (use "
                                    f"binomial_ratio_bounds). Got {k}")
    num, den = _ratio_pair(n, k)
    return _rational(Fraction(num, den))


def _iv_ratio(N: int, w: int) -> object:
    """An interval enclosing R(N, w), from lgamma: ln R = 2 lnG(N-w+1) - lnG(N-2w+1) - lnG(N+1)."""
    if 2 * w > N:
        return _IV.mpf(0)
    log_ratio = 2 * _iv_lgamma(N - w + 1) - _iv_lgamma(N - 2 * w + 1) - _iv_lgamma(N + 1)
    value = _IV.exp(log_ratio)
    _, hi = _iv_ends(value)
    return value if hi <= 1 else _IV.mpf((value.a, 1))  # R <= 1


def binomial_ratio_bounds(N: object, w: object) -> tuple[sympy.Rational, sympy.Rational]:
    """An enclosure (lower, upper) of R(N, w) = C(N-w, w)/C(N, w) for any 1 <= w <= N.

    Exact (lower == upper) for w <= :data:`EXACT_W_MAX` when the rational is short enough to print;
    otherwise rigorous: mpmath interval arithmetic on ln R = 2 lnGamma(N-w+1) - lnGamma(N-2w+1) -
    lnGamma(N+1) at :data:`~dpcert.accountant.exact_intervals.INTERVAL_BITS` bits, with lnGamma enclosures
    widened by 2^-216 relative.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 12.
    """
    n, k = _items(N, w)
    if k <= EXACT_W_MAX:
        lower, upper, _ = _compact(*_ratio_pair(n, k))
        return lower, upper
    lo, hi = _iv_ends(_iv_ratio(n, k))
    return _rational(lo), _rational(hi)


def lemma_12_sandwich(N: object, w: object) -> tuple[sympy.Rational, sympy.Rational, sympy.Rational]:
    """Lemma 12's exact sandwich ``(1 - w/(N-w+1))^w <= R(N, w) <= (1 - w/N)^w`` for 1 <= w <= N/2.

    Returns ``(lower, R, upper)``, all exact Rationals. Every factor of
    ``R = prod_{k<w} (1 - w/(N-k))`` lies between ``1 - w/(N-w+1)`` and ``1 - w/N``. (The paper's
    ``|R - (1 - w^2/N)| = Theta(w^4/N^2)`` is false at w = 1 and for w >> sqrt N, spec §9 E5.)

    References: 000_0c6e7fdc3fd68303.txt, Lemma 12 (= Lemma 26).
    """
    n, k = _items(N, w, w_max="N/2")
    ratio = binomial_ratio(n, k)
    lower = sympy.Rational(n - 2 * k + 1, n - k + 1) ** k
    upper = sympy.Rational(n - k, n) ** k
    return lower, ratio, upper


def _series(N: int, w: int) -> tuple[int, int, Fraction]:
    """sum_{k=0}^{w} c_k with c_0 = 1, c_{k+1} = c_k r_k, r_k = (w-k)^2 / (2 (k+1) (N-2w+1+k)), for 2w <= N.

    Then E[2^-K] = R(N, w) * sum_k c_k for K ~ Hypergeometric(N, w, w) (h(k) = R c_k 2^k).
    Returns (a, b, tail): a/b is the sum up to the cut, computed exactly by Horner's rule on integers,
    and ``tail`` an exact upper bound on the rest (0 when the sum is complete). The ratios r_k
    decrease in k, so the rest is at most ``c_cut r_cut / (1 - r_cut)`` once r_cut < 1.
    """
    m = N - 2 * w + 1
    cut = w
    if w > _FULL_SERIES_W:
        log_term, best = 0.0, 0.0
        for k in range(w):
            ratio = (w - k) ** 2 / (2 * (k + 1) * (m + k))
            log_term += math.log(ratio)
            best = max(best, log_term)
            if ratio < 0.5 and log_term < best - 210:  # c_{k+1} < e^-210 max_j c_j, about 2^-303
                cut = k + 1
                break
    a, b = 1, 1
    for k in range(cut - 1, -1, -1):
        n_k, d_k = (w - k) ** 2, 2 * (k + 1) * (m + k)
        a, b = d_k * b + n_k * a, d_k * b
    if cut >= w:
        return a, b, Fraction(0)
    rho = Fraction((w - cut) ** 2, 2 * (cut + 1) * (m + cut))
    c_cut = Fraction(_product((w - k) ** 2 for k in range(cut)), _product(2 * (k + 1) * (m + k) for k in range(cut)))
    return a, b, c_cut * rho / (1 - rho)


def _overlap_exact(N: int, w: int, form: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Exact (lower, upper) pairs (num, den) of the eps-free bracket ``form``, for w <= EXACT_W_MAX.

    Brackets, with K ~ Hypergeometric(N, w, w), R = P(K=0), h1 = P(K=1):
    ``thm13`` = 1 - E[2^-K]; ``thm13-paper`` = 1 - R - h1/2; ``thm14`` = 1 + w^2/N - R - 2 h1.
    """
    if 2 * w > N:  # then N < 2 EXACT_W_MAX: direct binomial sums, exact
        total = math.comb(N, w)
        h = {k: math.comb(w, k) * math.comb(N - w, w - k) for k in range(2 * w - N, w + 1)}
        r, h1 = h.get(0, 0), h.get(1, 0)
        if form == "thm13":
            pair = (total * 2**w - sum(v * 2**(w - k) for k, v in h.items()), total * 2**w)
        elif form == "thm13-paper":
            pair = (2 * total - 2 * r - h1, 2 * total)
        else:
            pair = (N * total + w * w * total - N * r - 2 * N * h1, N * total)
        return pair, pair
    rn, rd = _ratio_pair(N, w)
    m = N - 2 * w + 1
    if form == "thm13-paper":  # 1 - R - w^2 R / (2m)
        pair = (2 * m * rd - 2 * m * rn - w * w * rn, 2 * m * rd)
        return pair, pair
    if form == "thm14":  # 1 + w^2/N - R (1 + 2 w^2/m)
        pair = (N * m * rd + w * w * m * rd - N * (m + 2 * w * w) * rn, N * m * rd)
        return pair, pair
    a, b, tail = _series(N, w)  # 1 - R a/b - R tail <= 1 - E[2^-K] <= 1 - R a/b
    upper = (rd * b - rn * a, rd * b)
    tn, td = tail.numerator, tail.denominator
    lower = (rd * b * td - rn * (a * td + tn * b), rd * b * td)
    return lower, upper


def _overlap_intervals(N: int, w: int, form: str) -> object:
    """An interval enclosing the bracket ``form`` (see :func:`_overlap_exact`) for large w."""
    m = N - 2 * w + 1
    ratio = _iv_ratio(N, w)
    if m >= 1:
        h1 = ratio * _iv_exact(Fraction(w * w, m))
    elif m == 0:  # N = 2w - 1: P(K=1) = w C(w-1, w-1)/C(N, w) = w/C(N, w)
        log_c = _iv_lgamma(N + 1) - _iv_lgamma(w + 1) - _iv_lgamma(N - w + 1)
        h1 = _IV.mpf((0, (_IV.mpf(w) * _IV.exp(-log_c)).b))
    else:
        h1 = _IV.mpf(0)
    if form == "thm13-paper":
        return 1 - ratio - h1 / 2
    if form == "thm14":
        return 1 + _iv_exact(Fraction(w * w, N)) - ratio - 2 * h1
    mu = Fraction(w * w, N)
    if m >= 1 and mu <= _SERIES_MU_MAX:
        a, b, tail = _series(N, w)
        partial = _IV._mpq((a, b))
        s = ratio * _IV.mpf((partial.a, (partial + _iv_exact(tail)).b))
    else:
        # Convex order (Hoeffding 1963) and Jensen for the convex k -> 2^-k:
        # 2^-(w^2/N) <= E[2^-Hypergeometric] <= E[2^-Binomial(w, w/N)] = (1 - w/(2N))^w.
        low = _IV.exp(-_iv_exact(mu) * _IV.ln2)
        high = _IV.exp(_IV.mpf(w) * _IV.log(_iv_exact(Fraction(2 * N - w, 2 * N))))
        s = _IV.mpf((low.a, high.b))
    return 1 - s


def _bracket(N: int, w: int, form: str) -> tuple[sympy.Rational, sympy.Rational, str]:
    """Rational enclosure (lower, upper, note) of the eps-free bracket of Theorem 13 / 13-paper / 14."""
    return _bracket_cached(N, w, form, EXACT_W_MAX)


@functools.lru_cache(maxsize=512)
def _bracket_cached(N: int, w: int, form: str, exact_w_max: int) -> tuple[sympy.Rational, sympy.Rational, str]:
    if w <= exact_w_max:
        (ln, ld), (un, ud) = _overlap_exact(N, w, form)
        lower, _, n1 = _compact(ln, ld)
        _, upper, n2 = _compact(un, ud)
        truncated = (ln, ld) != (un, ud)
        note = "overlap series summed exactly to 2^-300, rest bounded exactly" if truncated else ""
        return lower, upper, _join(note, n1 or n2)
    lo, hi = _iv_ends(_overlap_intervals(N, w, form))
    lo = max(lo, Fraction(0))  # every bracket is an expectation of non-negative terms
    lower, _, _ = _compact(lo.numerator, lo.denominator)
    _, upper, _ = _compact(hi.numerator, hi.denominator)
    return lower, upper, (f"R(N, w) by mpmath interval arithmetic ({INTERVAL_BITS}-bit lgamma, widened), "
                          "ends rounded outward")
