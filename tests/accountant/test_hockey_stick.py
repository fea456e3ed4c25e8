"""The exact hockey-stick divergence of explicit distributions (dpcert.accountant.hockey_stick).

References: 002_1def8c9789d6e1bd.txt, Definition A.1 and its dual form (specs/imola_metric_dp_user_level.md
section 2.6, T20); Dwork and Roth 2014, Definition 2.4.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from conftest import assert_rejects, exact_eps, probability_rows
from hypothesis import given
from hypothesis import strategies as st

from dpcert.accountant.hockey_stick import exact_distribution, hockey_stick_divergence, rational_enclosure
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.claims.metric_user_level.spec_checks import hockey_stick_events


@st.composite
def pairs_and_eps(draw):
    width = draw(st.integers(1, 5))
    return draw(probability_rows(width)), draw(probability_rows(width)), sympy.sympify(draw(exact_eps()))


@given(pairs_and_eps())
def test_divergence_is_the_maximum_over_events(case):
    """T20: sum_y max(P - e^eps Q, 0) = max over all subsets S of P(S) - e^eps Q(S), attained at {P > e^eps Q}.

    Registered as the claim defA.1-hockey-stick-events; this property test draws its cases with hypothesis."""
    P, Q, eps = case
    value = hockey_stick_divergence(P, Q, eps)
    best, at_threshold = hockey_stick_events(P, Q, eps)
    assert exact_sign(value - best) == 0
    assert exact_sign(value - at_threshold) == 0


def test_known_values():
    """D_1 is the total variation distance; D at e^eps >= max ratio is 0; irrational entries stay exact."""
    P, Q = [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]
    assert hockey_stick_divergence(P, Q, 0) == sympy.Rational(1, 4)
    assert hockey_stick_divergence(P, Q, sympy.log(2)) == 0
    assert hockey_stick_divergence(P, Q, "1/2") == sympy.Rational(1, 2) - sympy.exp(sympy.Rational(1, 2)) / 4
    e = sympy.exp(1)
    assert sympy.simplify(hockey_stick_divergence([e / 4, 1 - e / 4], ["1/4", "3/4"], 0) - (e - 1) / 4) == 0


def test_exact_distribution_returns_fractions_for_rational_input():
    """The fast path: rational input (also as sympy numbers) becomes Fractions that sum to 1."""
    assert exact_distribution("P", [sympy.Rational(1, 3), "2/3"]) == [Fraction(1, 3), Fraction(2, 3)]


def test_rational_enclosure():
    """The enclosure that decides membership in S = {P > e^eps Q}: exact for rationals, tight around e."""
    assert rational_enclosure(sympy.Rational(3, 7)) == (Fraction(3, 7), Fraction(3, 7))
    lo, hi = rational_enclosure(sympy.E)
    assert exact_sign(sympy.E - sympy.Rational(lo)) > 0 and exact_sign(sympy.Rational(hi) - sympy.E) > 0
    assert hi - lo < Fraction(1, 10**60)


@pytest.mark.parametrize("call, parameter", [
    (lambda: rational_enclosure("x + 1"), "value"),
    (lambda: hockey_stick_divergence([Fraction(1, 2)], [1], 0), "P"),
    (lambda: hockey_stick_divergence([1], [Fraction(3, 2), Fraction(-1, 2)], 0), "Q[1]"),
    (lambda: hockey_stick_divergence([1, 0], [1], 0), "same length"),
    (lambda: hockey_stick_divergence([1], [1], -1), "eps"),
    (lambda: hockey_stick_divergence([], [], 0), "P"),
    (lambda: hockey_stick_divergence("ab", [1], 0), "P"),
    (lambda: exact_distribution("rows[0]", ["1/2", "x"]), "rows[0][1]"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Spec T20 helper: bad distributions and eps raise InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
