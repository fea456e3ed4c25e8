"""Mutual information of finite channels and what local DP says about it (dpcert.accountant.channel_information;
000_0c6e7fdc3fd68303.txt, Lemmas 6 and 11).

Every property is checked by exact enumeration (Fractions, exact logs compared with ``exact_sign``)
at small N <= 6, w <= 3, and every closed form against an independent computation (binomial sums
with ``math.comb``, the literal Theorem 17 recursion) or against the spec's reference table
(``/work/shared/specs/banerjee_price_of_privacy.md``, "spec §4 table"), with the tolerance implied
by the printed digits.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from conftest import assert_rejects, finite_channels, max_ratio, prime_log_form, probability_rows
from hypothesis import given
from hypothesis import strategies as st

from dpcert.accountant.channel_information import LOG2E, lemma_6_bound, mutual_information, posterior_prior_ratios
from dpcert.accountant.exact_intervals import certified_sign
from dpcert.proofs.channel import ExactChannel

sign = certified_sign  # exact sign, decided on a rigorous enclosure when it excludes 0


def test_mutual_information_of_a_noiseless_bit_is_log_2():
    assert mutual_information([[1, 0], [0, 1]], [Fraction(1, 2)] * 2) == sympy.log(2)
    assert mutual_information([[1, 0], [0, 1]], [Fraction(1, 2)] * 2, units="bits") == 1
    assert mutual_information([[Fraction(1, 3)] * 3] * 2, [Fraction(1, 4), Fraction(3, 4)]) == 0


def test_mutual_information_accepts_an_exact_channel_with_irrational_entries():
    """Bit release with e^eps = e (Prop 4): I = ln 2 - h(e/(1+e)) nats (spec M1), exactly."""
    p = sympy.E / (1 + sympy.E)
    channel = ExactChannel.from_matrix([[p, 1 - p], [1 - p, p]])
    value = mutual_information(channel, [Fraction(1, 2)] * 2)
    expected = sympy.log(2) + p * sympy.log(p) + (1 - p) * sympy.log(1 - p)
    assert abs(float((value - expected).evalf(50))) < 1e-45
    assert sign(1 - value) > 0  # Lemma 6 with eps = 1


@given(t=st.fractions(Fraction(21, 20), Fraction(50), max_denominator=30))
def test_lemma_6_bit_release_uniform_input(t):
    """Spec §7 claim 6: for bit release, I = ln 2 - h(e^eps/(1+e^eps)) <= eps (e^eps = t rational)."""
    p = t / (1 + t)
    value = mutual_information([[p, 1 - p], [1 - p, p]], [Fraction(1, 2)] * 2)
    P = sympy.Rational(p.numerator, p.denominator)
    h = -P * sympy.log(P) - (1 - P) * sympy.log(1 - P)
    assert prime_log_form(value) == prime_log_form(sympy.log(2) - h)
    assert sign(sympy.log(sympy.Rational(t.numerator, t.denominator)) - value) >= 0


@given(rows=finite_channels(allow_zeros=False), data=st.data())
def test_lemma_6_mutual_information_at_most_eps_nats(rows, data):
    """Spec §7 claim 6 (Lemma 6): I(X;Y) <= eps nats for eps-LDP channels and any input law."""
    law = data.draw(probability_rows(len(rows)))
    eps = sympy.log(sympy.Rational(max_ratio(rows)))
    info = mutual_information(rows, law)
    assert sign(eps - info) >= 0
    if eps == 0:  # a constant channel: no information at all
        assert info == 0
        return
    bound = lemma_6_bound(eps)
    assert bound.value == eps and bound.units == "nats"
    bits = lemma_6_bound(eps, units="bits")
    assert bits.units == "bits" and sympy.simplify(bits.value / LOG2E - eps) == 0
    assert sign(bits.value - mutual_information(rows, law, units="bits")) >= 0


def test_lemma_6_fails_for_a_channel_that_is_not_private_enough():
    """Power check: a channel with ratio 9 is log(9)-LDP and meets Lemma 6 there, but carries more than
    1/5 nats, so the same comparison fails for an eps below the channel's (the test can fail)."""
    rows = [[Fraction(9, 10), Fraction(1, 10)], [Fraction(1, 10), Fraction(9, 10)]]
    info = mutual_information(rows, [Fraction(1, 2)] * 2)
    assert sign(sympy.log(9) - info) >= 0
    assert sign(sympy.Rational(1, 5) - info) < 0  # not 1/5-LDP: Lemma 6 with eps = 1/5 would be violated


@given(rows=finite_channels(allow_zeros=False), data=st.data())
def test_lemma_11_posterior_prior_ratios_within_e_eps(rows, data):
    """Spec §7 claim 5 (Lemma 11): e^-eps <= P(a|s)/P(a) <= e^eps for every prior and eps-LDP channel."""
    prior = data.draw(probability_rows(len(rows)))
    r = sympy.Rational(max_ratio(rows))
    ratios = posterior_prior_ratios(rows, prior)
    for a, row in enumerate(ratios):
        for value in row:
            if prior[a] == 0:
                assert value is None
            else:
                assert 1 / r <= value <= r
    # the posterior sums to one: sum_a P(a) lambda(a, s) = 1
    for s in range(len(rows[0])):
        assert sum(sympy.Rational(prior[a]) * ratios[a][s] for a in range(len(rows)) if prior[a]) == 1


GOOD_ROWS = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]]


INVALID = [
    (lambda: lemma_6_bound(0), "eps"),
    (lambda: lemma_6_bound(1, units="hartleys"), "units"),
    (lambda: mutual_information([[Fraction(1, 2), Fraction(1, 3)]], [1]), "channel_or_matrix"),
    (lambda: mutual_information([[-1, 2]], [1]), "channel_or_matrix"),
    (lambda: mutual_information(GOOD_ROWS, [Fraction(1, 2)]), "input_law"),
    (lambda: mutual_information(GOOD_ROWS, [Fraction(1, 2), Fraction(1, 3)]), "input_law"),
    (lambda: mutual_information(GOOD_ROWS, [2, -1]), "input_law"),
    (lambda: mutual_information(GOOD_ROWS, [Fraction(1, 2)] * 2, units="hartleys"), "units"),
    (lambda: posterior_prior_ratios(GOOD_ROWS, [1, 1]), "prior"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)
