"""The Clopper–Pearson bounds are certified outward: checked against exact truth and an independent 60-digit tail.

For 1 <= k <= n, P(Bin(n, p) >= k) strictly increases in p, so for a float b

    b <= p_lo  iff  P(Bin(n, b) >= k) <= alpha,        u >= p_hi  iff  P(Bin(n, u) <= k) <= alpha.

At small n the tails are evaluated exactly (integers: a float is a dyadic rational), so "b <= p_lo" and
"p_lo < b (1 + 1e-9)" are decided exactly: the exact bound is bracketed in [b, b (1 + 1e-9)). At large n
the tail is summed independently in 60-digit mpmath (log-gamma anchor, term recurrence, the short side).
eps_lower_bound, log_odds_lower and share_eps_lower_bound are compared with the exact log ratio, log odds and
log(odds - delta / p') at 50 digits.

References: Clopper and Pearson (Biometrika 1934).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.stats import beta

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.audit import bounds
from dpcert.proofs.audit.bounds import cp_lower, cp_upper, eps_lower_bound, log_odds_lower, share_eps_lower_bound

SMALL_N = (1, 2, 3, 4, 5, 7, 10, 16, 25, 40, 59, 60)
CLOSE = 1e-9


# ---------------------------------------------------------------------------------------------
# Exact tails (small n) and an independent 60-digit tail (large n)
# ---------------------------------------------------------------------------------------------

def _exact_tail_exceeds(n: int, k: int, p: float, alpha: float, *, upper_tail: bool) -> bool:
    """Exactly: P(Bin(n, p) >= k) > alpha (upper_tail) or P(Bin(n, p) <= k) > alpha."""
    num, den = Fraction(p).as_integer_ratio()
    js = range(k, n + 1) if upper_tail else range(0, k + 1)
    scaled = sum(math.comb(n, j) * num ** j * (den - num) ** (n - j) for j in js)  # tail * den^n
    return Fraction(scaled, den ** n) > Fraction(alpha)


def _mp_tail(n: int, k: int, p: float, *, upper_tail: bool) -> mpmath.mpf:
    """P(Bin(n, p) >= k) (upper_tail) or P(Bin(n, p) <= k), at 60 digits, independently of the module.

    The side away from the mode is summed directly (anchor pmf from mpmath's loggamma, then the term
    recurrence) until the terms fall below 1e-40 of the sum; the other side is 1 minus it.
    """
    with mpmath.workdps(60):
        p = mpmath.mpf(p)
        q = 1 - p

        def pmf(j: int) -> mpmath.mpf:
            return mpmath.exp(mpmath.loggamma(n + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(n - j + 1)
                              + j * mpmath.log(p) + (n - j) * mpmath.log(q))

        def away(start: int, step: int) -> mpmath.mpf:
            j, term, total = start, pmf(start), mpmath.mpf(0)
            while 0 <= j <= n and term >= total * mpmath.mpf(10) ** -40:
                total += term
                term = term * ((n - j) * p / ((j + 1) * q) if step > 0 else j * q / ((n - j + 1) * p))
                j += step
            return total

        if upper_tail:
            if k == 0:
                return mpmath.mpf(1)
            return away(k, 1) if k > n * p else 1 - away(k - 1, -1)
        if k == n:
            return mpmath.mpf(1)
        return away(k, -1) if k < n * p else 1 - away(k + 1, 1)


# ---------------------------------------------------------------------------------------------
# Small n: exact truth
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("alpha", [1e-2, 1e-7, 0.9])
@pytest.mark.parametrize("n", SMALL_N)
def test_exact_at_small_n(n, alpha):
    for k in range(n + 1):
        lo, hi = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
        if k == 0:
            assert lo == 0.0
        else:  # lo <= p_lo < lo (1 + 1e-9), decided exactly
            assert not _exact_tail_exceeds(n, k, lo, alpha, upper_tail=True), (k, n, alpha, lo)
            assert _exact_tail_exceeds(n, k, lo * (1 + CLOSE), alpha, upper_tail=True), (k, n, alpha, lo)
        if k == n:
            assert hi == 1.0
        else:  # hi (1 - 1e-9) < p_hi <= hi
            assert not _exact_tail_exceeds(n, k, hi, alpha, upper_tail=False), (k, n, alpha, hi)
            assert _exact_tail_exceeds(n, k, hi * (1 - CLOSE), alpha, upper_tail=False), (k, n, alpha, hi)


def test_known_values_and_trivial_ends():
    # one-sided 97.5% bounds for 5 of 10 (Clopper and Pearson 1934 tables; statsmodels method="beta")
    assert cp_lower(5, 10, 0.025) == pytest.approx(0.187086, abs=1e-6)
    assert cp_upper(5, 10, 0.025) == pytest.approx(0.812914, abs=1e-6)
    # k = n: p_lo = alpha^(1/n); k = 0: p_hi = 1 - alpha^(1/n)
    assert cp_lower(100, 100, 0.05) == pytest.approx(0.05 ** (1 / 100), rel=1e-11)
    assert cp_upper(0, 100, 0.05) == pytest.approx(1 - 0.05 ** (1 / 100), rel=1e-11)
    assert cp_lower(0, 10, 0.05) == 0.0 and cp_upper(10, 10, 0.05) == 1.0


# ---------------------------------------------------------------------------------------------
# Large n: the certificate holds by an independent 60-digit evaluation, and the bound is tight
# ---------------------------------------------------------------------------------------------

def _large_cases():
    for n in (10 ** 6, 10 ** 7, 10 ** 8):
        for k in (0, 1, 2, n // 2, n - 1, n):
            for alpha in (1e-2, 1e-7):
                yield n, k, alpha
    yield 10 ** 8, 1000, 1e-2  # scipy's quantile is ~3e-7 too far in; the old 1e-10 margin was unsound here
    yield 10 ** 7, 1, 1e-7  # the bound ~1e-14 of the brief


@pytest.mark.parametrize(("n", "k", "alpha"), list(_large_cases()))
def test_certificate_holds_at_large_n(n, k, alpha):
    lo, hi = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
    if k == 0:
        assert lo == 0.0
    else:
        assert 0.0 < lo < 1.0
        assert _mp_tail(n, k, lo, upper_tail=True) <= alpha
        assert _mp_tail(n, k, lo * (1 + CLOSE), upper_tail=True) > alpha  # p_lo < lo (1 + 1e-9)
    if k == n:
        assert hi == 1.0
    else:
        assert 0.0 < hi < 1.0
        assert _mp_tail(n, k, hi, upper_tail=False) <= alpha
        assert _mp_tail(n, k, hi * (1 - CLOSE), upper_tail=False) > alpha


@pytest.mark.filterwarnings("ignore:Error in function boost:RuntimeWarning")
def test_extreme_alpha_survives_a_bad_first_guess():
    # scipy's beta.ppf fails here (~7e-53 against the true ~1.4e-156); the search still certifies a tight bound
    n, k, alpha = 10 ** 6, 2, 1e-300
    lo = cp_lower(k, n, alpha)
    assert _mp_tail(n, k, lo, upper_tail=True) <= alpha < _mp_tail(n, k, lo * (1 + CLOSE), upper_tail=True)


@pytest.fixture
def unmemoised():
    """Empty the memo of bounds before and after: results from swapped-in guesses must not leak."""
    for memo in (bounds._cp_lower, bounds._cp_upper):
        memo.cache_clear()
    yield
    for memo in (bounds._cp_lower, bounds._cp_upper):
        memo.cache_clear()


@pytest.mark.parametrize("factor", [1 + 1e-8, 1.1, 1e6, 0.5])
def test_any_first_guess_gives_a_certified_bound(monkeypatch, unmemoised, factor):
    """With scipy's quantiles replaced by wrong ones the results stay certified (exact check) and within 1e-9 of
    the exact bound, whether the guess is too far in (factor > 1) or too far out (factor < 1)."""

    class Wrong:
        @staticmethod
        def ppf(q, a, b):
            return min(beta.ppf(q, a, b) * factor, 0.999)

        @staticmethod
        def isf(q, a, b):
            return beta.isf(q, a, b) / factor

    monkeypatch.setattr(bounds, "beta", Wrong)
    n, alpha = 40, 1e-3
    for k in (1, 7, 20, 39, 40):
        lo = cp_lower(k, n, alpha)
        assert not _exact_tail_exceeds(n, k, lo, alpha, upper_tail=True)
        assert _exact_tail_exceeds(n, k, lo * (1 + CLOSE), alpha, upper_tail=True)
    for k in (0, 1, 20, 33, 39):
        hi = cp_upper(k, n, alpha)
        assert not _exact_tail_exceeds(n, k, hi, alpha, upper_tail=False)
        assert _exact_tail_exceeds(n, k, hi * (1 - CLOSE), alpha, upper_tail=False)


# ---------------------------------------------------------------------------------------------
# Power: an unsound bound is caught
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "alpha"), [(5, 10, 1e-2), (30, 60, 1e-7), (1, 60, 1e-2),
                                               (1, 10 ** 7, 1e-7), (5 * 10 ** 6, 10 ** 7, 1e-2)])
def test_a_nudged_bound_fails_the_certificate(k, n, alpha):
    """scipy's raw quantile moved inward by a relative 1e-6 is refuted by the certificate and by the checks."""
    bad_lower = float(beta.ppf(alpha, k, n - k + 1)) * (1 + 1e-6)
    bad_upper = float(beta.isf(alpha, k + 1, n - k)) * (1 - 1e-6)
    assert not bounds._lower_is_valid(k, n, alpha, bad_lower)
    assert not bounds._upper_is_valid(k, n, alpha, bad_upper)
    assert _mp_tail(n, k, bad_lower, upper_tail=True) > alpha
    assert _mp_tail(n, k, bad_upper, upper_tail=False) > alpha
    if n <= 60:
        assert _exact_tail_exceeds(n, k, bad_lower, alpha, upper_tail=True)
        assert _exact_tail_exceeds(n, k, bad_upper, alpha, upper_tail=False)
    # and the returned bounds pass the same certificate
    assert bounds._lower_is_valid(k, n, alpha, cp_lower(k, n, alpha))
    assert bounds._upper_is_valid(k, n, alpha, cp_upper(k, n, alpha))


# ---------------------------------------------------------------------------------------------
# eps_lower_bound: rounded down from the exact log ratio
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("p_lo", "p_prime_hi", "delta"), [
    (1.557276879732235e-07, 9.813646381939642e-08, 5.7246841082907865e-08),  # float logs landed 2.4e-15 too high
    (2.7621410039298076e-226, 2.700674899339683e-226, 0.0),  # float logs landed 1.1e-13 too high
    (0.5, 0.25, 0.0), (0.3, 0.1, 1e-6), (0.9, 1e-9, 0.0),
])
def test_eps_lower_bound_is_below_the_exact_log_ratio(p_lo, p_prime_hi, delta):
    with mpmath.workdps(50):
        exact = mpmath.log((mpmath.mpf(p_lo) - mpmath.mpf(delta)) / mpmath.mpf(p_prime_hi))
        bound = eps_lower_bound(p_lo, p_prime_hi, delta)
        assert bound <= exact and exact - bound <= 1e-15 * max(1, exact)


def test_eps_lower_bound_random_and_edge_cases():
    rng = np.random.default_rng(5)
    with mpmath.workdps(50):
        for _ in range(2000):
            p_prime_hi = float(10 ** rng.uniform(-300, -0.01))
            p_lo = min(p_prime_hi * math.exp(rng.uniform(0, 0.5)), 0.999)
            delta = float(p_lo * rng.uniform(0, 0.9)) if rng.random() < 0.5 else 0.0
            exact = mpmath.log((mpmath.mpf(p_lo) - mpmath.mpf(delta)) / mpmath.mpf(p_prime_hi))
            assert eps_lower_bound(p_lo, p_prime_hi, delta) <= max(exact, 0)
    assert eps_lower_bound(0.25, 0.5, 0.0) == 0.0  # ratio below 1
    assert eps_lower_bound(0.5, 0.25, 0.25) == 0.0  # ratio exactly 1
    assert eps_lower_bound(0.1, 0.25, 0.1) == 0.0  # p_lo <= delta
    assert eps_lower_bound(0.3, 0.0, 0.1) == math.inf


def test_log_odds_lower_is_below_the_exact_log_odds():
    """log_odds_lower(s) <= log(s / (1 - s)) at 50 digits, within 1e-15 relative of it, on random shares from just
    above 1/2 (where 1 - s carries the rounding) to 1 - 2^-52, and at the ends."""
    rng = np.random.default_rng(11)
    shares = [0.5 + 2.0 ** -52, 0.75, 1 - 2.0 ** -52, math.nextafter(0.5, 1.0)]
    shares += [float(1 - 10 ** rng.uniform(-15.9, math.log10(0.5))) for _ in range(2000)]
    with mpmath.workdps(50):
        for share in shares:
            exact = mpmath.log(mpmath.mpf(share) / (1 - mpmath.mpf(share)))
            bound = log_odds_lower(share)
            assert bound <= exact and exact - bound <= 1e-15 * max(1, exact), share
    assert log_odds_lower(0.5) == 0.0 and log_odds_lower(0.2) == 0.0 and log_odds_lower(0.0) == 0.0
    assert log_odds_lower(1.0) == math.inf
    for bad in (math.nan, -0.1, 1.5, "0.7", None, True):
        with pytest.raises(InvalidParameterError, match=r"share_lo must be a real number in \[0, 1\]"):
            log_odds_lower(bad)


def test_share_eps_lower_bound_is_below_the_exact_log_of_odds_less_delta_over_p():
    """share_eps_lower_bound(s, delta, p') <= log(s / (1 - s) - delta / p') at 50 digits, within 1e-14 relative of it,
    on random shares, deltas up to the whole odds above 1 and p' from 10^-300; 0 where that is not positive; and
    log_odds_lower itself at delta = 0."""
    rng = np.random.default_rng(13)
    with mpmath.workdps(50):
        for _ in range(2000):
            share = float(1 - 10 ** rng.uniform(-15.9, math.log10(0.5)))
            p_prime = float(10 ** rng.uniform(-300, 0))
            odds = mpmath.mpf(share) / (1 - mpmath.mpf(share))
            delta = float(min(0.999, float((odds - 1) * p_prime) * rng.uniform(0, 1.2)))
            exact = mpmath.log(max(odds - mpmath.mpf(delta) / mpmath.mpf(p_prime), mpmath.mpf(1)))
            bound = share_eps_lower_bound(share, delta, p_prime)
            assert bound <= exact and exact - bound <= 1e-14 * max(1, exact) + 1e-300, (share, delta, p_prime)
    assert share_eps_lower_bound(0.75, 0.0, 0.0) == log_odds_lower(0.75)
    assert share_eps_lower_bound(0.75, 0.2, 0.1) == 0.0  # 3 - 2 = 1: no bound
    assert share_eps_lower_bound(0.75, 1e-9, 0.0) == 0.0  # no lower bound on P(E|x'): delta / p' unbounded
    assert share_eps_lower_bound(1.0, 1e-9, 0.5) == math.inf
    for name, args in (("share_lo", (1.5, 0.1, 0.5)), ("p_prime_lo", (0.7, 0.1, -1.0)), ("delta", (0.7, 1.0, 0.5)),
                       ("delta", (0.7, math.nan, 0.5))):
        with pytest.raises(InvalidParameterError, match=name):
            share_eps_lower_bound(*args)


# ---------------------------------------------------------------------------------------------
# Input checking and speed
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "alpha", "name"), [
    (-1, 10, 0.05, "k"), (11, 10, 0.05, "k"), (2.5, 10, 0.05, "k"), ("two", 10, 0.05, "k"), (True, 10, 0.05, "k"),
    (0, 0, 0.05, "n"), (1, -3, 0.05, "n"), (1, 10.5, 0.05, "n"), (1, None, 0.05, "n"),
    (1, 10, 0, "alpha"), (1, 10, 1, "alpha"), (1, 10, -0.1, "alpha"), (1, 10, 1.5, "alpha"),
    (1, 10, math.nan, "alpha"), (1, 10, math.inf, "alpha"), (1, 10, "0.05", "alpha"), (1, 10, True, "alpha"),
])
@pytest.mark.parametrize("bound", [cp_lower, cp_upper])
def test_bad_input_names_the_parameter(bound, k, n, alpha, name):
    with pytest.raises(InvalidParameterError, match=rf"^{name} must"):
        bound(k, n, alpha)


def test_accepted_input_kinds():
    assert cp_lower(np.int64(5), 10.0, np.float64(0.025)) == cp_lower(5, 10, 0.025)
    # an alpha that is not a float is rounded down (a smaller alpha only widens the bound)
    assert cp_lower(5, 10, Fraction(1, 10)) == cp_lower(5, 10, math.nextafter(0.1, 0.0))
    assert cp_upper(5, 10, Fraction(1, 4)) == cp_upper(5, 10, 0.25)
