"""The clone lemmas of the metric-DP shuffle theorem (dpcert.accountant.metric_user_level.shuffle_lemmas), checked exactly.

References: 002_1def8c9789d6e1bd.txt, Lemmas B.1, B.3 and Appendix B.3-B.4; Feldman, McMillan, Talwar
(FOCS 2021), Lemma A.1 and Theorem 3.1; specs/imola_metric_dp_user_level.md, sections 3.2, 4 and 5 (item 2),
T10, T13, T21.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest
import sympy
from conftest import assert_rejects

from dpcert.accountant.hockey_stick import hockey_stick_divergence
from dpcert.accountant.metric_user_level.shuffle_lemmas import (
    clone_pair_divergence,
    lemma_b1,
    lemma_b1_alpha_expression,
    lemma_b1_check,
    lemma_b1_concavity,
    lemma_b3,
    lemma_b3_check,
    lemma_b3_epsilon_expression,
    shuffled_histogram_law,
)
from dpcert.accountant.shuffle_closed_forms import fmt21_closed_expression
from dpcert.accountant.shuffle_exact import shuffled_krr_laws
from dpcert.accountant.shuffle_numeric import clone_delta
from dpcert.accountant.symbolic_facts import nonnegative_everywhere
from dpcert.mechanisms.parameters import exact_sign

R = sympy.Rational


# ---------------------------------------------------------------------------------------------
# Lemma B.3 (T21)
# ---------------------------------------------------------------------------------------------

def _brute_clone_divergence(t: Fraction, p: Fraction, m: int) -> Fraction:
    """D_t(P || Q) for P = (A + 1, C - A), Q = (A, C - A + 1) by summing every output (a, c) directly."""
    total = Fraction(0)
    for c in range(m):
        weight = comb(m - 1, c) * p**c * (1 - p) ** (m - 1 - c)
        for a in range(c + 2):
            P = Fraction(comb(c, a - 1), 2**c) if a >= 1 else Fraction(0)
            Q = Fraction(comb(c, a), 2**c) if a <= c else Fraction(0)
            total += weight * max(P - t * Q, Fraction(0))
    return total


@pytest.mark.parametrize("t, p, m", [(Fraction(3, 2), Fraction(1, 3), 30), (Fraction(6, 5), Fraction(1, 2), 51),
                                     (Fraction(1), Fraction(1, 4), 20), (Fraction(5, 2), Fraction(2, 3), 41)])
def test_clone_pair_divergence_matches_direct_summation(t, p, m):
    """T21's checker: the O(m) recurrence equals the direct sum over every output (exact rationals)."""
    value = clone_pair_divergence(sympy.log(R(t)), R(p), m)
    assert value == R(_brute_clone_divergence(t, p, m))


def test_clone_pair_divergence_irrational_threshold():
    """With e^eps irrational the value is P(S) - e^eps Q(S) exactly; it matches the direct sum at 40 digits."""
    eps = R(1, 5)
    value = clone_pair_divergence(eps, R(1, 3), 40)
    assert value.has(sympy.exp(eps))
    t = Fraction(str(sympy.exp(eps).evalf(60)))
    assert abs(float(value) - float(_brute_clone_divergence(t, Fraction(1, 3), 40))) < 1e-40 + 1e-15 * float(value)


def test_clone_pair_dominates_the_fmt_mixture_pair():
    """Cross-check with dpcert.accountant.shuffle_numeric: FMT's pair mixes Lemma B.3's pair with weight e^eps0/(e^eps0+1),
    so by joint convexity its (rigorously enclosed) divergence is at most the exact clone-pair divergence."""
    eps0, n = sympy.log(2), 300
    for eps in (R(1, 10), R(1, 4)):
        assert clone_delta(eps, eps0, n).lower <= float(clone_pair_divergence(eps, R(1, 2), n))


@pytest.mark.parametrize("p, m, delta", [(R(1, 2), 1000, R(1, 10**3)), (R(1, 4), 2000, R(1, 10**6)),
                                         (R(1, 10), 3000, R(1, 100))])
def test_spec_t21_lemma_b3_holds_exactly(p, m, delta):
    """T21 (Lemma B.3): for p >= 16 ln(2/delta)/m, D_{e^eps}(P || Q) <= delta at the lemma's eps (exact)."""
    check = lemma_b3_check(p, m, delta)
    assert check.applies and check.within_delta, check.note
    # the check has power: at an eighth of the lemma's eps the exact divergence exceeds delta
    assert exact_sign(clone_pair_divergence(check.bound / 8, p, m) - delta) > 0


def test_lemma_b3_condition_and_formula():
    """Lemma B.3: invalid below p = 16 ln(2/delta)/m; eps = ln(1 + 8 sqrt(ln(4/delta)/(pm)) + 8/(pm))."""
    assert not lemma_b3(R(1, 100), 1000, R(1, 1000)).valid
    assert not lemma_b3_check(R(1, 100), 1000, R(1, 1000)).within_delta
    p, m, delta = sympy.symbols("p m delta", positive=True)
    printed = sympy.log(1 + 8 * sympy.sqrt(sympy.log(4 / delta)) / sympy.sqrt(p * m) + 8 / (p * m))
    assert sympy.simplify(sympy.exp(lemma_b3_epsilon_expression(p, m, delta)) - sympy.exp(printed)) == 0


# ---------------------------------------------------------------------------------------------
# Lemma B.1 (T10)
# ---------------------------------------------------------------------------------------------

def _logistic_rows() -> tuple[list[list[Fraction]], list[list[Fraction]]]:
    """Binary metric-DP randomizer on X = {0, 1/4, ..., 1}: P(1 | k/4) = r^k / (1 + r^k), r = 6/5; d = |x - x'|."""
    r = Fraction(6, 5)
    rows = [[1 / (1 + r**k), r**k / (1 + r**k)] for k in range(5)]
    return rows, [[Fraction(abs(i - j), 4) for j in range(5)] for i in range(5)]


def _total_variation(rows, changed, others) -> sympy.Expr:
    laws = [shuffled_histogram_law(rows, [x, *others]) for x in changed]
    support = sorted(set(laws[0]) | set(laws[1]))
    return hockey_stick_divergence([laws[0].get(c, 0) for c in support], [laws[1].get(c, 0) for c in support], 0)


@pytest.mark.parametrize("changed", [(0, 4), (1, 3)])
def test_spec_t10_lemma_b1_binary(changed):
    """T10 (Lemma B.1): binary metric-DP randomizer, alpha0 measured exactly, one item changed at d = 1 or 1/2,
    m = 250 items, delta = 1e-3: both orders of the exact shuffled laws are within delta at the lemma's alpha."""
    rows, distances = _logistic_rows()
    others = [k % 5 for k in range(249)]
    check = lemma_b1_check(rows, distances, changed, others, R(1, 1000))
    assert check.applies and check.within_delta and len(check.divergences) == 2, check.note
    # not vacuous: the two laws are more than delta apart in total variation (D at alpha = 0)
    assert exact_sign(_total_variation(rows, changed, others) - R(1, 1000)) > 0


def test_spec_t10_lemma_b1_ternary():
    """T10 (Lemma B.1) with a ternary-output randomizer P(y | x) ~ (11/10)^-|x - y| on {0, 1/2, 1}, m = 150."""
    s = Fraction(11, 10)
    rows = [[s ** -abs(i - j) / sum(s ** -abs(i - k) for k in range(3)) for j in range(3)] for i in range(3)]
    distances = [[Fraction(abs(i - j), 2) for j in range(3)] for i in range(3)]
    others = [k % 3 for k in range(149)]
    delta = R(2, 1000)
    check = lemma_b1_check(rows, distances, (0, 2), others, delta)
    assert check.applies and check.within_delta, check.note
    assert exact_sign(_total_variation(rows, (0, 2), others) - delta) > 0


def test_lemma_b1_condition_is_checked():
    """Lemma B.1 needs alpha0 <= ln(m/(16 ln(2/delta))): a strong randomizer on few items is not checked."""
    rows = [[Fraction(4, 6), Fraction(1, 6), Fraction(1, 6)], [Fraction(1, 6), Fraction(4, 6), Fraction(1, 6)],
            [Fraction(1, 6), Fraction(1, 6), Fraction(4, 6)]]
    check = lemma_b1_check(rows, [[0, 1, 1], [1, 0, 1], [1, 1, 0]], (0, 1), [k % 3 for k in range(119)], R(1, 5))
    assert not check.applies and not check.within_delta and "needs alpha0" in check.note
    assert "log(4)" in check.note  # measured alpha0 = ln 4 exactly


@pytest.mark.parametrize("eps0, k, n", [(sympy.log(2), 3, 30), (sympy.log(3), 2, 40)])
def test_shuffled_histogram_law_matches_the_krr_enclosures(eps0, k, n):
    """The exact histogram law agrees with dpcert.accountant.shuffle_exact's independently built k-RR enclosures."""
    t = sympy.exp(eps0)
    keep, lie = Fraction(int(t), int(t) + k - 1), Fraction(1, int(t) + k - 1)
    rows = [[keep if y == x else lie for y in range(k)] for x in range(k)]
    dataset = [i % k for i in range(n)]
    neighbour = [(dataset[0] + 1) % k, *dataset[1:]]
    law = shuffled_histogram_law(rows, dataset)
    assert sum(law.values()) == 1
    (P_lo, P_hi), _ = shuffled_krr_laws(eps0, k, dataset, neighbour)
    exact = np.zeros(P_lo.size)
    for counts, probability in law.items():
        exact[np.ravel_multi_index(counts[:-1], (n + 1,) * (k - 1))] = float(probability)
    assert np.all(P_lo <= exact * (1 + 1e-15)) and np.all(exact <= P_hi * (1 + 1e-15))


def test_lemma_b1_closed_form_relations():
    """Lemma B.1 at d = 1 is FMT's Theorem 3.1; and alpha = ln(1 + tanh(alpha0 d/2)(e^eps - 1)) with eps from
    Lemma B.3 at p = e^-alpha0 (the advanced-joint-convexity step of Appendix B.4.2)."""
    alpha0, d, m, delta = sympy.symbols("alpha0 d m delta", positive=True)
    assert sympy.simplify(lemma_b1_alpha_expression(alpha0, 1, m, delta) - fmt21_closed_expression(alpha0, m, delta)) == 0
    b3 = lemma_b3_epsilon_expression(sympy.exp(-alpha0), m, delta)
    composed = sympy.log(1 + sympy.tanh(alpha0 * d / 2) * (sympy.exp(b3) - 1))
    difference = sympy.exp(lemma_b1_alpha_expression(alpha0, d, m, delta)) - sympy.exp(composed)
    assert sympy.simplify(sympy.expand(difference.rewrite(sympy.exp))) == 0
    assert not lemma_b1(2, 1, 100, R(1, 10)).valid and lemma_b1(R(1, 2), R(1, 2), 1000, R(1, 10)).valid


# ---------------------------------------------------------------------------------------------
# Concavity and Jensen (T13)
# ---------------------------------------------------------------------------------------------

def test_concavity_is_proved():
    """Spec section 5 item 2: f(d) = ln(1 + K tanh(a d/2)) has f'' <= 0 (sympy), matching the closed form."""
    fact = lemma_b1_concavity()
    assert fact.holds is True, fact.evidence
    assert "equals the spec's closed form: True" in fact.evidence


def test_the_sign_decision_refutes_convexity():
    """Power of the proof above: the same sign decision refutes f'' >= 0 (it can return False)."""
    K, a = sympy.symbols("K a", positive=True)
    u = sympy.Symbol("u", nonnegative=True)
    f2 = -2 * K * a**2 * (u + 1) * (K * u**2 + 2 * K * u + 2 * K + u**2 + 2 * u) / ((u + 2) ** 2 * (K * u + u + 2) ** 2)
    holds, _ = nonnegative_everywhere(f2)
    assert holds is False


def test_spec_t13_jensen():
    """T13: for random d_i in (0, 1], sum_i f(d_i) <= n f(mean d_i) with f(d) = ln(1 + K tanh(alpha0 d/2)),
    K from Lemma B.1's clone terms; exact sign decisions. A convex function breaks it (power). Stays a test:
    Jensen's step follows from the concavity the claim thm4.3-concavity proves; these are instances of it."""
    rng = random.Random(5)
    alpha0, m, delta = R(1, 2), 1000, R(1, 10**6)
    for _ in range(20):
        ds = [R(rng.randint(1, 100), 100) for _ in range(rng.randint(2, 6))]
        mean = sum(ds) / len(ds)
        total = sum(lemma_b1_alpha_expression(alpha0, d, m, delta) for d in ds)
        assert exact_sign(len(ds) * lemma_b1_alpha_expression(alpha0, mean, m, delta) - total) >= 0
        convex = sum(sympy.exp(alpha0 * d) for d in ds)
        if len(set(ds)) > 1:
            assert exact_sign(len(ds) * sympy.exp(alpha0 * mean) - convex) < 0


@pytest.mark.parametrize("call, parameter", [
    (lambda: lemma_b3(0, 100, R(1, 10)), "p"),
    (lambda: lemma_b3(R(1, 2), 1, R(1, 10)), "m"),
    (lambda: lemma_b3(R(1, 2), 100, 2), "delta"),
    (lambda: lemma_b1(0, 1, 100, R(1, 10)), "alpha0"),
    (lambda: lemma_b1(1, R(3, 2), 100, R(1, 10)), "d"),
    (lambda: lemma_b1(1, 1, R(1, 2), R(1, 10)), "m"),
    (lambda: lemma_b1(1, 1, 100, 0), "delta"),
    (lambda: clone_pair_divergence(-1, R(1, 2), 10), "eps"),
    (lambda: clone_pair_divergence(1, sympy.exp(-1), 10), "p"),
    (lambda: clone_pair_divergence(1, R(1, 2), 10**6), "m"),
    (lambda: lemma_b3_check(R(1, 2), 100, 1), "delta"),
    (lambda: shuffled_histogram_law([[Fraction(1, 2), Fraction(1, 2)]], [1]), "inputs[0]"),
    (lambda: shuffled_histogram_law([[Fraction(1, 2), Fraction(1, 3)]], [0]), "rows[0]"),
    (lambda: shuffled_histogram_law([[1]], [0]), "outputs"),
    (lambda: shuffled_histogram_law([[sympy.exp(-1), 1 - sympy.exp(-1)]], [0]), "rational"),
    (lambda: shuffled_histogram_law([[1, 0, 0]], [0] * 400), "inputs too long"),
    (lambda: lemma_b1_check([[1, 0], [0, 1]], [[0, 1], [1, 0]], (0, 0), [0], R(1, 10)), "changed"),
    (lambda: lemma_b1_check([[1, 0], [0, 1]], [[0, 1], [1, 0]], (0, 2), [0], R(1, 10)), "changed[1]"),
    (lambda: lemma_b1_check([[1, 0], [0, 1]], [[0, 2], [2, 0]], (0, 1), [0], R(1, 10)), "distances[0][1]"),
    (lambda: lemma_b1_check([[1, 0], [0, 1]], [[0, 1], [1, 0]], (0, 1), [0], 0), "delta"),
    (lambda: lemma_b1_check([[1, 0], [0, 1]], [[0, 1], [1, 0]], (0, 1), [0, 5], R(1, 10)), "others[1]"),
    (lambda: lemma_b1_check([[1, 0], [0, 1]], [[0, 1], [1, 0]], (0, 1), [], R(1, 10)), "m"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Every public function rejects out-of-range input with InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
