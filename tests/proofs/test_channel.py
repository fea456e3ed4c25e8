"""The exact channel and its certified float shadow (proofs/channel.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from conftest import as_fraction, finite_channels, near_tie_channels
from dpcert.mechanisms import Geometric, InvalidParameterError, KaryRandomizedResponse, UnaryEncoding
from dpcert.proofs.channel import ExactChannel, exact_compare, float_log

R = sympy.Rational


@given(finite_channels())
def test_from_matrix_keeps_every_probability_exactly(rows):
    channel = ExactChannel.from_matrix(rows)
    assert channel.inputs == tuple(range(len(rows))) and channel.outputs == tuple(range(len(rows[0])))
    assert channel.values[0] == 0
    for i, row in enumerate(rows):
        for j, p in enumerate(row):
            assert as_fraction(channel.probability(i, j)) == p


@given(finite_channels())
def test_values_are_stored_once(rows):
    channel = ExactChannel.from_matrix(rows)
    distinct = {p for row in rows for p in row} | {Fraction(0)}
    assert len(channel.values) == len(distinct)


@given(finite_channels())
def test_log_matrix_is_within_one_ulp_of_the_true_log(rows):
    channel = ExactChannel.from_matrix(rows)
    logs = channel.log_matrix()
    for i, row in enumerate(rows):
        for j, p in enumerate(row):
            if p == 0:
                assert logs[i, j] == -math.inf
                continue
            with mpmath.workdps(50):
                true = mpmath.log(mpmath.mpf(p.numerator) / p.denominator)
                error = abs(mpmath.mpf(logs[i, j]) - true)
            ulp = math.ulp(logs[i, j]) if logs[i, j] != 0 else 5e-324
            assert error <= ulp, f"log({p}) off by {error}, more than one ulp {ulp}"


def test_float_log_of_irrational_values_and_extremes():
    for value in (sympy.exp(-R(1, 3)), 1 / (1 + sympy.E), sympy.sqrt(2) / 2, R(1, 10**400), R(1)):
        with mpmath.workdps(50):
            true = mpmath.log(mpmath.mpf(sympy.N(value, 60)))
        got = float_log(value)
        assert abs(mpmath.mpf(got) - true) <= (math.ulp(got) if got else 5e-324)
    assert float_log(sympy.Integer(0)) == -math.inf
    assert float_log(R(1, 10**400)) == pytest.approx(-400 * math.log(10), rel=1e-15)  # no underflow


@given(finite_channels(), st.data())
def test_event_probability_is_the_exact_sum(rows, data):
    channel = ExactChannel.from_matrix(rows)
    i = data.draw(st.integers(0, len(rows) - 1))
    columns = data.draw(st.lists(st.integers(0, len(rows[0]) - 1), unique=True))
    assert as_fraction(channel.event_probability(i, columns)) == sum((rows[i][j] for j in columns), Fraction(0))


@given(near_tie_channels())
def test_near_tie_channels_are_kept_distinct(rows):
    # Entries that differ by 1e-25 have the same float log but must stay distinct exact values.
    channel = ExactChannel.from_matrix(rows)
    for i, row in enumerate(rows):
        for j, p in enumerate(row):
            assert as_fraction(channel.probability(i, j)) == p


@pytest.mark.parametrize("mechanism", [
    KaryRandomizedResponse(k=4, eps=sympy.log(3)),
    KaryRandomizedResponse(k=3, eps=R(1, 2)),
    UnaryEncoding(k=3, eps=1, variant="sue"),
    Geometric(eps=sympy.log(2), lo=-2, hi=2),
], ids=lambda m: m.describe())
def test_from_mechanism_matches_the_pmf(mechanism):
    channel = ExactChannel.from_mechanism(mechanism)
    assert channel.inputs == tuple(mechanism.inputs()) and channel.outputs == tuple(mechanism.outputs())
    for i, x in enumerate(channel.inputs):
        pmf = mechanism.pmf(x)
        for j, y in enumerate(channel.outputs):
            assert channel.probability(i, j) == pmf.get(y, 0)
    assert channel.index(channel.inputs[-1]) == len(channel.inputs) - 1
    with pytest.raises(InvalidParameterError, match="x must be one of"):
        channel.index("not an input")


def test_from_matrix_accepts_exactly_summing_irrational_rows():
    t = sympy.exp(R(1, 3))
    channel = ExactChannel.from_matrix([[t / (1 + t), 1 / (1 + t)], [1 / (1 + t), t / (1 + t)]])
    assert channel.probability(0, 0) == t / (1 + t)


@pytest.mark.parametrize("rows, fragment", [
    ([[R(1, 2), R(1, 2) + R(1, 10**40)], [1, 0]], "sum exactly to 1"),  # off by 1e-40: only exact sums see it
    ([[sympy.exp(-1), 1 - sympy.exp(-1) + R(1, 10**40)], [1, 0]], "sum exactly to 1"),
    ([[R(3, 2), R(-1, 2)], [1, 0]], ">= 0"),
    ([[1, 0], [R(1, 2) - R(1, 10**60), R(1, 2) - R(1, 10**60)]], "sum exactly to 1"),
])
def test_from_matrix_validation_is_exact(rows, fragment):
    with pytest.raises(InvalidParameterError, match=fragment):
        ExactChannel.from_matrix(rows)


def test_from_matrix_accepts_rows_that_sum_to_one_only_after_simplification():
    rows = [[1, 0], [R(1, 2) + sympy.sqrt(2) - sympy.sqrt(2) - R(1, 10**50), R(1, 2) + R(1, 10**50)],
            [sympy.log(2) / sympy.log(8), 1 - sympy.log(2) / sympy.log(8)]]
    channel = ExactChannel.from_matrix(rows)
    assert channel.event_probability(2, [0, 1]) == 1 or sympy.simplify(channel.event_probability(2, [0, 1])) == 1


@given(st.fractions(min_value=0, max_value=1), st.fractions(min_value=0, max_value=1))
def test_exact_compare_agrees_with_fractions(a, b):
    expected = (a > b) - (a < b)
    assert exact_compare(R(a.numerator, a.denominator), R(b.numerator, b.denominator)) == expected


def test_exact_compare_on_irrational_near_ties():
    t = sympy.exp(R(1, 2))
    assert exact_compare(t / (t + 2) * (t + 2), t) == 0
    assert exact_compare(sympy.log(3) + R(1, 10**45), sympy.log(3)) == 1
    assert exact_compare(sympy.exp(R(1, 10**40)), sympy.Integer(1)) == 1


def test_float_log_is_certified_at_tiny_eps():
    # The geometric mechanism's interior probability (1 - a)/(1 + a) a^d, a = e^-eps, at eps = 10^-300:
    # log = log(tanh(eps/2)) - d eps = -691.4686750787737 (50-digit mpmath). A plain 30-digit evalf gave
    # -352.8, so the float filter saw different logs for values that differ by 10^-300.
    eps = R(1, 10**300)
    a = sympy.exp(-eps)
    with mpmath.workdps(60):
        truth = float(mpmath.log(mpmath.tanh(mpmath.mpf(10) ** -300 / 2)))
    for d in (0, 3):
        got = float_log((1 - a) / (1 + a) * a**d)
        assert abs(got - truth) <= 2 * math.ulp(truth) + 1e-18


def test_a_probability_below_the_float_range_of_logs_is_rejected():
    # exp(-exp(1000)) has log -e^1000, beyond float64: the filter cannot place it.
    tiny = sympy.exp(-sympy.exp(1000))
    with pytest.raises(InvalidParameterError, match="could not evaluate the probability"):
        ExactChannel.from_matrix([[tiny, 1 - tiny], [R(1, 2), R(1, 2)]])


def test_a_zero_in_another_form_is_zero():
    # 1 - 1/2 - 1/2 written with exponentials: e/(1+e) + 1/(1+e) - 1 is exactly 0
    zero = sympy.E / (1 + sympy.E) + 1 / (1 + sympy.E) - 1
    channel = ExactChannel.from_matrix([[zero, 1], [R(1, 2), R(1, 2)]])
    assert channel.probability(0, 0) == 0 and channel.log_matrix()[0, 0] == -math.inf
