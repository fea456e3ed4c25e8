"""Outward rounding (proofs/rounding.py): an upper bound never rounds down, a lower bound never up.

Reference: every expected result is re-derived here from its definition -- "the least float >= v" --
by comparing floats with v exactly (Fraction for rationals, 80-digit mpmath otherwise), independent of
the library's exact_sign.
"""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from conftest import exact_eps
from dpcert.mechanisms import KaryRandomizedResponse, UnaryEncoding
from dpcert.proofs.exact import tightest_epsilon
from dpcert.proofs.rounding import decimal_string, float_lower, float_upper

R = sympy.Rational
MAX = sys.float_info.max

VALUES = [
    R(1, 3),  # nearest float is below 1/3
    R(2, 3),  # nearest float is above 2/3
    R(1, 10),  # nearest float is above 1/10
    R(3, 10),  # nearest float is below 3/10
    -R(1, 3),
    R(1, 2),  # exactly a float
    R(0),
    R(2**53 + 1),  # halfway between two floats: nearest rounds to even (down)
    R(Fraction(0.1)),  # exactly the float nearest 0.1
    R(Fraction(0.1)) + R(1, 10**40),  # just above a float
    R(Fraction(0.1)) - R(1, 10**40),  # just below a float
    R(1, 2**1074),  # the smallest subnormal, exactly
    R(1, 10**400),  # below every positive float
    -R(1, 10**400),
    R(10) ** 400,  # above every finite float
    -R(10) ** 400,
    R(Fraction(MAX)) + 1,  # above the largest float, rounds to it by nearest
    sympy.log(3),
    sympy.log(2) / 7,
    sympy.pi / 10**9,
    sympy.sqrt(2),
    sympy.E,
    sympy.exp(-50),
    sympy.exp(1000),
    -sympy.exp(1000),
    sympy.exp(-1000),
    1 - sympy.exp(-R(1, 10**20)),  # catastrophic cancellation in float64: 1 - exp(-1e-20) == 0.0
]


def compare(f: float, value: sympy.Expr) -> int:
    """sign(f - value), exactly: Fraction arithmetic for rationals, 80-digit mpmath otherwise."""
    if math.isinf(f):
        return 1 if f > 0 else -1
    if value.is_Rational:
        d = Fraction(f) - Fraction(int(value.p), int(value.q))
        return (d > 0) - (d < 0)
    with mpmath.workdps(80):
        d = mpmath.mpf(f) - mpmath.mpf(sympy.N(value, 80))
        assert d == 0 or abs(d) > mpmath.mpf(10) ** -70 * max(1, abs(mpmath.mpf(f))) or abs(f) < 1e-300
        return (d > 0) - (d < 0)


def is_least_float_at_or_above(f: float, value: sympy.Expr) -> bool:
    below = math.nextafter(f, -math.inf)
    return compare(f, value) >= 0 and (f == -math.inf or compare(below, value) < 0)


def is_greatest_float_at_or_below(f: float, value: sympy.Expr) -> bool:
    above = math.nextafter(f, math.inf)
    return compare(f, value) <= 0 and (f == math.inf or compare(above, value) > 0)


@pytest.mark.parametrize("value", VALUES, ids=[str(v)[:40] for v in VALUES])
def test_float_upper_is_the_least_float_at_or_above(value):
    assert is_least_float_at_or_above(float_upper(value), value)


@pytest.mark.parametrize("value", VALUES, ids=[str(v)[:40] for v in VALUES])
def test_float_lower_is_the_greatest_float_at_or_below(value):
    assert is_greatest_float_at_or_below(float_lower(value), value)


def test_table_contains_values_where_nearest_rounding_goes_the_wrong_way():
    # For the tests above to mean anything, nearest rounding must fail them on some rows: for 1/3
    # (float 0.333...3148) it rounds below, so an upper bound would be rounded down; for 1/10
    # (float 0.1000...0555) it rounds above, so a lower bound would be rounded up.
    nearest_below = [v for v in VALUES if compare(float(sympy.N(v, 30)), v) < 0]
    nearest_above = [v for v in VALUES if compare(float(sympy.N(v, 30)), v) > 0]
    assert R(1, 3) in nearest_below and R(1, 10) in nearest_above
    assert len(nearest_below) >= 5 and len(nearest_above) >= 5
    assert float_upper(R(1, 3)) != float(R(1, 3)) and float_lower(R(1, 10)) != float(R(1, 10))


def test_infinities_and_range_limits():
    assert float_upper(sympy.oo) == math.inf and float_lower(-sympy.oo) == -math.inf
    assert float_upper(R(10) ** 400) == math.inf and float_lower(R(10) ** 400) == MAX
    assert float_upper(-R(10) ** 400) == -MAX and float_lower(-R(10) ** 400) == -math.inf
    assert float_upper(R(1, 10**400)) == 5e-324 and float_lower(R(1, 10**400)) == 0.0


@given(st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**12))
def test_outward_rounding_brackets_every_rational(f):
    value = R(f.numerator, f.denominator)
    up, down = float_upper(value), float_lower(value)
    assert Fraction(down) <= f <= Fraction(up)
    assert up == down or math.nextafter(down, math.inf) == up  # adjacent floats, or exact


@given(exact_eps())
def test_outward_rounding_brackets_every_exact_eps(eps):
    eps = sympy.sympify(eps)
    assert is_least_float_at_or_above(float_upper(eps), eps)
    assert is_greatest_float_at_or_below(float_lower(eps), eps)


# ---------------------------------------------------------------------------------------------
# decimal_string
# ---------------------------------------------------------------------------------------------

def reference_decimal(value: sympy.Expr, digits: int, upward: bool) -> Fraction:
    """The ceiling (floor) of value at ``digits`` significant digits, from 80-digit mpmath + exact check."""
    with mpmath.workdps(80):
        approx = mpmath.mpf(sympy.N(value, 80))
        exponent = int(mpmath.floor(mpmath.log10(abs(approx))))
    quantum = Fraction(10) ** (exponent - digits + 1)
    exact = Fraction(int(value.p), int(value.q)) if value.is_Rational else None
    with mpmath.workdps(80):
        scaled = approx / (mpmath.mpf(quantum.numerator) / quantum.denominator)
        n = int(mpmath.ceil(scaled) if upward else mpmath.floor(scaled))
    if exact is not None:  # exact correction for rationals that sit on a decimal boundary
        n = math.ceil(exact / quantum) if upward else math.floor(exact / quantum)
    return n * quantum


DECIMAL_VALUES = {
    "1/3": R(1, 3), "2/3": R(2, 3), "3/10": R(3, 10), "1/10": R(1, 10), "-1/3": -R(1, 3), "123": R(123),
    "0.1+1e-30": R(1, 10) + R(1, 10**30),  # just above 0.1: "0.1" would round an upper bound down
    "0.1-1e-30": R(1, 10) - R(1, 10**30),  # just below 0.1: "0.1" would round a lower bound up
    "float(0.1)": R(Fraction(0.1)),  # the float 0.1 exactly: 0.1000000000000000055...
    "log(3)": sympy.log(3), "pi/1e9": sympy.pi / 10**9, "exp(-1000)": sympy.exp(-1000),
    "exp(1000)": sympy.exp(1000), "1e400": R(10) ** 400,
    "999999999999.5": R(999_999_999_999_5, 10),  # carry into a new digit when rounding up
}


@pytest.mark.parametrize("upward", [True, False], ids=["up", "down"])
@pytest.mark.parametrize("value", list(DECIMAL_VALUES.values()), ids=list(DECIMAL_VALUES))
def test_decimal_string_is_the_directed_rounding_at_12_digits(value, upward):
    text = decimal_string(value, upward=upward)
    shown = Fraction(Decimal(text))
    assert compare_fraction(shown, value) * (1 if upward else -1) >= 0, f"{text} is on the wrong side of {value}"
    assert shown == reference_decimal(value, 12, upward)
    assert len(Decimal(text).normalize().as_tuple().digits) <= 12


def compare_fraction(f: Fraction, value: sympy.Expr) -> int:
    d = sympy.Rational(f.numerator, f.denominator) - value
    with mpmath.workdps(80):
        n = mpmath.mpf(sympy.N(d, 80))
    return (n > 0) - (n < 0)


def test_decimal_string_short_values():
    assert decimal_string(R(1, 3)) == "0.333333333334"
    assert decimal_string(R(1, 3), upward=False) == "0.333333333333"
    assert decimal_string(R(1, 3), digits=3) == "0.334"
    assert decimal_string(R(0)) == "0"
    assert decimal_string(sympy.oo) == "inf"
    assert decimal_string(R(3, 10)) == "0.3"  # an exact decimal is shown as itself


@given(st.fractions(min_value=Fraction(1, 10**9), max_value=10**9, max_denominator=10**15),
       st.integers(1, 17), st.booleans())
def test_decimal_string_directed_for_random_rationals(f, digits, upward):
    value = R(f.numerator, f.denominator)
    shown = Fraction(Decimal(decimal_string(value, digits=digits, upward=upward)))
    assert (shown >= f) if upward else (shown <= f)
    assert shown == reference_decimal(value, digits, upward)


# ---------------------------------------------------------------------------------------------
# Certificates report eps rounded outward
# ---------------------------------------------------------------------------------------------

@given(exact_eps(), st.integers(2, 6))
def test_certificate_epsilon_upper_is_never_below_the_exact_eps(eps, k):
    certificate = tightest_epsilon(KaryRandomizedResponse(k=k, eps=eps))
    assert compare(certificate.epsilon_upper, certificate.epsilon) >= 0
    assert is_least_float_at_or_above(certificate.epsilon_upper, certificate.epsilon)


def test_epsilon_upper_for_an_eps_whose_nearest_float_is_below_it():
    # log(7) = 1.945910149055313305105...; its nearest float 1.9459101490553132 lies below it, so
    # nearest rounding would report an eps below the truth. (The assertion re-checks that premise.)
    eps = sympy.log(7)
    assert compare(float(sympy.N(eps, 30)), eps) < 0
    certificate = tightest_epsilon(UnaryEncoding(k=2, eps=eps, variant="oue"))
    assert certificate.epsilon == eps
    assert certificate.epsilon_upper == math.nextafter(float(sympy.N(eps, 30)), math.inf)
