"""Interval signs: an enclosure that excludes 0 decides the sign, whatever sympy's evalf says.

Reference values: 50-digit mpmath evaluations with the working precision raised past each
expression's cancellation (log(1 + 10^-k) = 10^-k - 10^-2k/2 + ...), independent of the module.
"""

from __future__ import annotations

import math

import mpmath
import sympy
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.interval_sign import interval_sign
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.rounding import float_lower, float_upper

R = sympy.Rational


def test_log_near_one_is_not_zero():
    # sympy 1.14 evaluates log(1 + 10^-40) to exactly 0 at 30 digits even with strict=True, so the sign of
    # log(1 + 10^-40) - 10^-300 was read as -1 and float_lower(-log(1 + 10^-40)) returned -5e-324
    value = sympy.log(1 + R(1, 10**40))
    assert interval_sign(value - R(1, 10**300)) == 1
    assert exact_sign(value - R(1, 10**300)) == 1
    assert exact_sign(value - R(1, 10**40)) == -1  # log(1 + x) < x
    with mpmath.workdps(120):
        truth = -mpmath.log1p(mpmath.mpf(10) ** -40)
        low, high = float_lower(-value), float_upper(-value)
        assert low <= truth <= high  # the adjacent floats around -1e-40, not -5e-324
        assert math.nextafter(low, math.inf) > truth and math.nextafter(high, -math.inf) < truth


def test_undecided_when_the_value_is_zero_or_unsupported():
    assert interval_sign(sympy.exp(R(1, 2)) - sympy.sqrt(sympy.E)) is None  # exactly 0
    assert interval_sign(sympy.erf(1) - R(1, 2)) is None  # erf is not enclosed here
    assert exact_sign(sympy.erf(1) - R(1, 2)) == 1  # the caller's fallback still decides it


@given(k=st.integers(1, 400), a=st.integers(1, 9), shift=st.integers(-3, 3), exponent=st.integers(1, 60))
def test_sign_agrees_with_a_high_precision_evaluation(k, a, shift, exponent):
    # log(1 + a 10^-k) against a 10^-k (1 + shift 10^-exponent): the two differ at digit k + exponent or 2k
    x = R(a, 10**k)
    expr = sympy.log(1 + x) - x * (1 + shift * R(1, 10**exponent))
    with mpmath.workdps(2 * k + exponent + 60):
        xm = mpmath.mpf(a) / mpmath.mpf(10) ** k
        truth = mpmath.log1p(xm) - xm * (1 + shift * mpmath.mpf(10) ** -exponent)
    expected = (truth > 0) - (truth < 0)
    decided = interval_sign(expr)
    assert decided in (None, expected)
    if decided is None:  # within 2^-8192 of zero relative: the module may not decide, never decide wrongly
        assert abs(truth) < abs(xm) * mpmath.mpf(2) ** -2000


@given(st.fractions(-5, 5, max_denominator=50), st.integers(2, 40))
def test_special_functions_are_enclosed_against_50_digit_values(x, digits):
    # reference: mpmath at 60 digits; the enclosure must put each value on the right side of its own
    # evaluation moved by 10^-digits (relative), for erfc, loggamma and a Max
    q = R(x.numerator, x.denominator)
    with mpmath.workdps(60):
        cases = [(sympy.erfc(q), mpmath.erfc(mpmath.mpf(x.numerator) / x.denominator)),
                 (sympy.loggamma(q + 5 + sympy.sqrt(2)),  # never 1 or 2, the zeros of loggamma
                  mpmath.loggamma(mpmath.mpf(x.numerator) / x.denominator + 5 + mpmath.sqrt(2))),
                 (sympy.Max(sympy.sqrt(2), q), max(mpmath.sqrt(2), mpmath.mpf(x.numerator) / x.denominator))]
        for expr, truth in cases:
            step = abs(truth) * mpmath.mpf(10) ** -digits
            below, above = R(mpmath.nstr(truth - step, 55)), R(mpmath.nstr(truth + step, 55))
            assert interval_sign(expr - below) == 1 and interval_sign(expr - above) == -1, expr


def test_log_differences_are_decided_through_their_arguments():
    # 5670 - log(A) with A = (2 s^4 + s^2 + s^3 + s^5) / (1 + s + s^2 + s^3 + s^4), s = e^5670, is
    # -log(1 + (s^4 - s^3 ... ) / ...) ~ -e^-5670: beyond every interval and evaluation tried, and exact
    # once written as e^5670 - A (the renormalised geometric mechanism's tightest eps at eps = 5670)
    s = sympy.exp(5670)
    a = (2 * s**4 + s**2 + s**3 + s**5) / (1 + s + s**2 + s**3 + s**4)
    assert exact_sign(5670 - sympy.log(a)) == -1
    assert exact_sign(sympy.log(a) - 5670) == 1
    assert exact_sign(sympy.log(a) - sympy.log(a * (1 + R(1, 10**5000)))) == -1
