"""Oracle fuzz of the shuffle accountant: every certified upper bound, the exact row and calibration against
an independent brute-force truth (tests/oracles/shuffle.py: all datasets of all n users, all k^n report
vectors, exact Fractions with e^eps0 = t rational, eps(delta) from the definition).

Sizes stay small (k^n <= 256) so that the oracle's enumeration is fast; hypothesis is derandomised.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.accountant.calibration import CALIBRATION_METHODS, calibrate_eps0
from dpcert.accountant.shuffle import SHUFFLE_METHODS, exact_truth, shuffle_family
from dpcert.mechanisms.parameters import exact_sign
from oracles.shuffle import least_s, rational_at_least_exp, shuffled_krr_epsilon, shuffled_krr_law

SIZES = [(2, 2), (2, 3), (2, 4), (2, 5), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (3, 5), (4, 4)]
"""(k, n) with k^n <= 256: the oracle enumerates k^n datasets, each against n (k - 1) neighbours (the
calibration test, whose e^eps0 is a long decimal, stops before the two largest)."""

ts = st.fractions(Fraction(7, 6), 12, max_denominator=6)
deltas = st.sampled_from([Fraction(1, 2), Fraction(1, 10), Fraction(1, 50), Fraction(1, 1000), Fraction(1, 10**6)])
FUZZ = settings(max_examples=25, deadline=None, derandomize=True)


def _q(f: Fraction) -> sympy.Rational:
    return sympy.Rational(f.numerator, f.denominator)


def _eps0(t: Fraction) -> sympy.Expr:
    return sympy.log(_q(t))


def _truth(t: Fraction, k: int, n: int, delta: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    return shuffled_krr_epsilon(t, k, n, delta)


@FUZZ
@given(t=ts, size=st.sampled_from(SIZES), delta=deltas)
def test_exact_row_encloses_the_oracle_truth(t, size, delta):
    """With k given, the exact row is the worst case over all datasets: its enclosure contains the truth."""
    k, n = size
    lo, hi = _truth(t, k, n, delta)
    row = exact_truth(_eps0(t), n, _q(delta), k=k)
    assert row.valid and row.bounds == "exact"
    e_lo, e_hi = row.enclosure
    assert mpmath.mpf(e_lo) <= lo and hi <= mpmath.mpf(e_hi), (float(lo), row.enclosure)
    assert e_hi - e_lo < 1e-9
    assert row.lower == e_lo and row.upper == e_hi


@FUZZ
@given(t=ts, size=st.sampled_from(SIZES), delta=deltas, generic=st.booleans())
def test_every_certified_upper_bound_is_at_least_the_truth(t, size, delta, generic):
    """Every valid upper bound (all methods, l0 = l1 = 1) is >= the truth; none exceeds eps0.

    For k omitted (any eps0-LDP randomizer) the bound must exceed the k-RR truth of every k here, each a
    lower bound on the worst case; the exact row is then itself only a lower bound (binary RR), not valid.
    """
    k, n = size
    truths = [_truth(t, kk, n, delta)[0] for kk in range(2, k + 1)] if generic else [_truth(t, k, n, delta)[0]]
    rows = shuffle_family(_eps0(t), n, _q(delta), k=None if generic else k)
    assert [r.name for r in rows] == list(SHUFFLE_METHODS)
    for row in rows:
        if row.certified_upper is not None:
            assert row.bounds in ("upper", "exact")
            assert all(mpmath.mpf(row.upper) >= truth for truth in truths), (row.name, row.upper, truths)
            assert exact_sign(row.certified_upper - _eps0(t)) <= 0, row.name  # shuffling is post-processing
    exact = rows[SHUFFLE_METHODS.index("exact")]
    if generic:
        binary_hi = _truth(t, 2, n, delta)[1]
        assert not exact.valid and exact.bounds == "lower" and exact.upper is None
        assert mpmath.mpf(exact.lower) <= binary_hi  # a lower bound, attained by binary RR


def _check_calibration(target: Fraction, size: tuple[int, int], delta: Fraction, method: str, generic: bool) -> None:
    """The returned eps0's true shuffled eps is <= the target (for k omitted: for every k-RR here)."""
    k, n = size
    result = calibrate_eps0(_q(target), n, _q(delta), method=method, k=None if generic else k,
                            relative_tolerance="1e-4")
    if method == "exact" and generic:
        assert not result.valid  # the exact row is only a lower bound there: never used
    if not result.valid:
        return
    assert result.bounds == "lower" and result.units == "eps0"
    t_up = rational_at_least_exp(Fraction(int(result.value.p), int(result.value.q)))
    for kk in (range(2, k + 1) if generic else (k,)):
        with mpmath.workdps(60):
            assert _truth(t_up, kk, n, delta)[1] <= mpmath.mpf(target.numerator) / target.denominator, (method, kk)


targets = st.fractions(Fraction(1, 10), 2, max_denominator=20)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(target=targets, size=st.sampled_from(SIZES[:9]), delta=deltas)
def test_exact_calibration_meets_the_target_in_truth(target, size, delta):
    _check_calibration(target, size, delta, "exact", generic=False)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(target=targets, size=st.sampled_from(SIZES[:9]), delta=deltas, method=st.sampled_from(CALIBRATION_METHODS),
       generic=st.booleans())
def test_calibration_meets_the_target_in_truth(target, size, delta, method, generic):
    _check_calibration(target, size, delta, method, generic)


def test_power_a_worst_case_over_too_few_datasets_is_caught():
    # power check: the exact row once maximised only over datasets whose other users agree; at
    # eps0 = log(34/13) ~ 0.9614, n = 4, delta = 91/2500, k = 3 that gives 0.5929, and the oracle's
    # truth, attained at (0,0,0,1) vs (2,0,0,1), is 0.6240 (issue 9's case: 0.59235 against 0.62334)
    t, k, n, delta = Fraction(34, 13), 3, 4, Fraction(91, 2500)
    broken = max(least_s(shuffled_krr_law(t, k, (x,) + (v,) * (n - 1)),
                         shuffled_krr_law(t, k, (x_prime,) + (v,) * (n - 1)), delta)
                 for v in range(k) for x in range(k) for x_prime in range(k) if x != x_prime)
    truth_low, _ = _truth(t, k, n, delta)
    assert mpmath.log(mpmath.mpf(broken.numerator) / broken.denominator) < truth_low - mpmath.mpf("0.03")
    assert mpmath.mpf(exact_truth(_eps0(t), n, _q(delta), k=k).upper) >= truth_low
