"""Theorem 4.3 with several changed items and Lemmas B.4/B.5 (dpcert.proofs.claims.metric_user_level.shuffle_checks),
each against a deliberately simple oracle: every output sequence enumerated, a plain Fraction dynamic programme
for the Poisson-binomial count law, and sums of max(P - a Q, 0) written out term by term.

References: 002_1def8c9789d6e1bd.txt, Theorem 4.3, Lemmas B.4 and B.5; Balle, Barthe, Gaboardi (NeurIPS 2018),
Theorem 2; Kairouz, Oh, Viswanath (ICML 2015), Theorem 2.5; specs/imola_metric_dp_user_level.md, T11 and A14.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import prod

import pytest
import sympy
from conftest import assert_rejects

from dpcert.accountant.hockey_stick import hockey_stick_divergence
from dpcert.accountant.metric_user_level.shuffle_lemmas import shuffled_histogram_counts
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.metric_user_level.shuffle_checks import (
    THEOREM_4_3_CHANGES,
    _count_divergence,
    _logistic_line,
    advanced_joint_convexity,
    advanced_joint_convexity_facts,
    kov_components,
    kov_decomposition_facts,
    lemma_b5_printed,
    theorem_4_3_check,
)

R = sympy.Rational


def _direct_divergence(P: dict, Q: dict, t: Fraction) -> Fraction:
    """sum over the union of supports of max(P - t Q, 0), term by term."""
    return sum((max(P.get(c, Fraction(0)) - t * Q.get(c, Fraction(0)), Fraction(0)) for c in set(P) | set(Q)),
               Fraction(0))


def _enumerated_law(rows, inputs) -> dict:
    """The histogram law by listing every output sequence (k^m of them) and its probability."""
    law = Counter()
    for outputs in itertools.product(range(len(rows[0])), repeat=len(inputs)):
        histogram = tuple(outputs.count(y) for y in range(len(rows[0])))
        law[histogram] += prod((rows[x][y] for x, y in zip(inputs, outputs)), start=Fraction(1))
    return dict(law)


@pytest.mark.parametrize("rows, x, y", [
    ([[Fraction(1, 3), Fraction(2, 3)], [Fraction(3, 4), Fraction(1, 4)]], [0, 0, 1, 0, 1, 1, 0], [1, 1, 1, 0, 1, 1, 0]),
    ([[Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)], [Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)],
      [Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)]], [0, 1, 2, 0, 2], [2, 1, 0, 0, 2]),
])
@pytest.mark.parametrize("t", [Fraction(1), Fraction(3, 2), Fraction(7, 5)])
def test_count_divergence_matches_enumeration(rows, x, y, t):
    """The integer-weight hockey-stick equals the sum over every enumerated output sequence, exactly."""
    (P, total), (Q, other) = shuffled_histogram_counts(rows, x), shuffled_histogram_counts(rows, y)
    assert total == other
    expected = _direct_divergence(_enumerated_law(rows, x), _enumerated_law(rows, y), t)
    assert _count_divergence(P, Q, total, sympy.Integer(t.numerator) / t.denominator) == R(expected.numerator,
                                                                                            expected.denominator)


def _poisson_binomial(ones: list[Fraction]) -> list[Fraction]:
    """Law of the number of 1s among independent binary outputs, by the textbook recursion (integer
    numerators over the product of the denominators, turned into Fractions at the end)."""
    law, total = [1], 1
    for p in ones:
        a, b = p.numerator, p.denominator
        law = [(law[c] if c < len(law) else 0) * (b - a) + (law[c - 1] * a if c else 0) for c in range(len(law) + 1)]
        total *= b
    return [Fraction(w, total) for w in law]


def _claim_instance(changes):
    rows, distances = _logistic_line()
    inputs = [i % 5 for i in range(500)]
    neighbour = list(inputs)
    for position, value in changes:
        neighbour[position] = value
    return rows, distances, inputs, neighbour


@pytest.mark.parametrize("changes", THEOREM_4_3_CHANGES[1:3])
def test_theorem_4_3_check_matches_an_independent_law(changes):
    """T11: the check's exact divergences equal those of a plain Poisson-binomial law through the generic
    dpcert.accountant.hockey_stick code; both orders stay within delta e^alpha; and the instance is not vacuous
    (the laws are more than delta e^alpha apart in total variation, so a bound of alpha = 0 would fail)."""
    rows, distances, inputs, neighbour = _claim_instance(changes)
    check = theorem_4_3_check(rows, distances, inputs, neighbour, R(1, 1000))
    assert check.applies and check.within and not check.vacuous, check.describe()
    P, Q = (_poisson_binomial([rows[x][1] for x in items]) for items in (inputs, neighbour))
    for mine, (a, b) in zip(check.divergences, ((P, Q), (Q, P))):
        assert sympy.expand(mine - hockey_stick_divergence(a, b, check.bound.value)) == 0
    assert check.total_variation == hockey_stick_divergence(P, Q, 0)
    assert exact_sign(check.total_variation - check.allowed) > 0


def test_theorem_4_3_distances_and_condition():
    """||v||_0 and ||v||_1 come from d_X of the changed pairs; a strong randomizer on few items does not qualify."""
    rows, distances, inputs, neighbour = _claim_instance(THEOREM_4_3_CHANGES[1])
    check = theorem_4_3_check(rows, distances, inputs, neighbour, R(1, 1000))
    assert check.changed == (1, R(3, 4), R(1, 4)) and exact_sign(check.composition - 2 * check.alpha0) == 0
    strong = [[Fraction(4, 5), Fraction(1, 5)], [Fraction(1, 5), Fraction(4, 5)]]
    weak = theorem_4_3_check(strong, [[0, 1], [1, 0]], [0] * 100, [1] * 2 + [0] * 98, R(1, 10))
    assert not weak.applies and not weak.within and weak.vacuous and "needs alpha0" in weak.bound.note


def test_theorem_4_3_check_can_fail():
    """Power: the same comparison at a twentieth of the theorem's alpha exceeds delta e^(alpha/20) on the first
    claim instance (one item at distance 1; D ~ 1.9e-3 > 1.02e-3), so the check rejects a bound that is too
    small. (At alpha/10 it still holds: the theorem is loose by a factor between 10 and 20 here.)"""
    rows, distances, inputs, neighbour = _claim_instance(THEOREM_4_3_CHANGES[0])
    check = theorem_4_3_check(rows, distances, inputs, neighbour, R(1, 1000))
    (P, total), (Q, _) = (shuffled_histogram_counts(rows, items) for items in (inputs, neighbour))
    small = check.bound.value / 20
    assert exact_sign(_count_divergence(P, Q, total, sympy.exp(small)) - check.delta * sympy.exp(small)) > 0


# ---------------------------------------------------------------------------------------------
# Lemma B.4
# ---------------------------------------------------------------------------------------------

def _random_distribution(rng, size):
    weights = [rng.randint(1, 9) for _ in range(size)]
    return [Fraction(w, sum(weights)) for w in weights]


def _plain_hockey_stick(P, Q, a):
    return sum((max(p - a * q, Fraction(0)) for p, q in zip(P, Q)), Fraction(0))


def test_lemma_b4_equality_against_direct_sums():
    """Lemma B.4 holds with equality: both sides recomputed from the definitions (seed 41, 40 instances)."""
    rng = random.Random(41)
    for _ in range(40):
        M, Mp, N = (_random_distribution(rng, 4) for _ in range(3))
        nu, a = Fraction(rng.randint(0, 8), 8), 1 + Fraction(rng.randint(0, 20), 5)
        a2 = 1 + nu * (a - 1)
        beta = a2 / a
        P = [nu * u + (1 - nu) * w for u, w in zip(M, N)]
        Q = [nu * u + (1 - nu) * w for u, w in zip(Mp, N)]
        left = _plain_hockey_stick(P, Q, a2)
        right = nu * _plain_hockey_stick(M, [(1 - beta) * w + beta * u for u, w in zip(Mp, N)], a)
        assert left == right
        assert advanced_joint_convexity(M, Mp, N, nu, a) == (R(left.numerator, left.denominator),) * 2


def test_lemma_b4_needs_the_mixed_reference():
    """Power: with R = M' (beta = 1, plain joint convexity at a) in place of (1 - beta) N + beta M', the
    identity fails: M = (1, 0), M' = (0, 1), N = (1/2, 1/2), nu = 1/2, a = 2 give D_(3/2)(P || Q) = 3/8 and
    nu D_2(M || R) = 1/2 * 3/4 with R = (1/8, 7/8), but nu D_2(M || M') = 1/2."""
    M, Mp, N, nu, a = [1, 0], [0, 1], [Fraction(1, 2)] * 2, Fraction(1, 2), Fraction(2)
    a2 = 1 + nu * (a - 1)
    P = [nu * u + (1 - nu) * w for u, w in zip(M, N)]
    Q = [nu * u + (1 - nu) * w for u, w in zip(Mp, N)]
    assert _plain_hockey_stick(P, Q, a2) == Fraction(3, 8)
    assert nu * _plain_hockey_stick(M, Mp, a) == Fraction(1, 2)
    assert advanced_joint_convexity(M, Mp, N, nu, a) == (R(3, 8), R(3, 8))


def test_lemma_b4_and_b5_facts_are_proved():
    """The symbolic proofs hold for every parameter value (sympy)."""
    for fact in (*advanced_joint_convexity_facts(), *kov_decomposition_facts()):
        assert fact.holds is True, fact.evidence


# ---------------------------------------------------------------------------------------------
# Lemma B.5
# ---------------------------------------------------------------------------------------------

def test_lemma_b5_components_reproduce_the_pair():
    """M, N solve both mixture equations and are distributions exactly when P, Q are pure a-indistinguishable."""
    rng = random.Random(51)
    for _ in range(40):
        P, Q = _random_distribution(rng, 3), _random_distribution(rng, 3)
        a = Fraction(rng.randint(9, 40), 8)
        M, N = kov_components(P, Q, a)
        assert [a / (a + 1) * u + w / (a + 1) for u, w in zip(M, N)] == P
        assert [u / (a + 1) + a / (a + 1) * w for u, w in zip(M, N)] == Q
        assert sum(M) == sum(N) == 1
        indistinguishable = all(p <= a * q and q <= a * p for p, q in zip(P, Q))
        assert (min(M + N) >= 0) == indistinguishable


def test_lemma_b5_printed_coefficient_is_refuted():
    """Spec A14: the printed Q-mixture has mass 2/(a + 1); the decider names the witness."""
    verdict, evidence = lemma_b5_printed()
    assert verdict is Verdict.REFUTED and "2/3" in evidence


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------

_BIN = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 3), Fraction(2, 3)]]
_D = [[0, 1], [1, 0]]
_H = [Fraction(1, 2), Fraction(1, 2)]


@pytest.mark.parametrize("call, parameter", [
    (lambda: theorem_4_3_check(_BIN, _D, [0, 1], [0, 0, 1], R(1, 10)), "neighbour"),
    (lambda: theorem_4_3_check(_BIN, _D, [0, 1], [0, 1], R(1, 10)), "neighbour"),
    (lambda: theorem_4_3_check(_BIN, _D, [0, 2], [0, 1], R(1, 10)), "inputs[1]"),
    (lambda: theorem_4_3_check(_BIN, _D, [0, 1], [0, -1], R(1, 10)), "neighbour[1]"),
    (lambda: theorem_4_3_check(_BIN, [[0, 2], [2, 0]], [0, 1], [1, 1], R(1, 10)), "distances[0][1]"),
    (lambda: theorem_4_3_check(_BIN, _D, [0, 1], [1, 1], 1), "delta"),
    (lambda: advanced_joint_convexity(_H, _H, [1, 0, 0], Fraction(1, 2), 2), "M"),
    (lambda: advanced_joint_convexity(_H, _H, _H, Fraction(3, 2), 2), "nu"),
    (lambda: advanced_joint_convexity(_H, _H, _H, Fraction(1, 2), Fraction(1, 2)), "a"),
    (lambda: advanced_joint_convexity(_H, _H, _H, Fraction(1, 2), sympy.E), "a"),
    (lambda: advanced_joint_convexity([Fraction(1, 2), Fraction(1, 3)], _H, _H, Fraction(1, 2), 2), "M"),
    (lambda: kov_components(_H, [1, 0, 0], 2), "P"),
    (lambda: kov_components(_H, _H, 1), "a"),
    (lambda: kov_components(_H, [sympy.exp(-1), 1 - sympy.exp(-1)], 2), "P"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Out-of-range input raises InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
