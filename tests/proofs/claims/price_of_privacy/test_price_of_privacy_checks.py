"""The machinery behind the Lemma 30, E11 and E13 claims of 000_0c6e7fdc3fd68303.txt
(dpcert.proofs.claims.price_of_privacy.checks), each against a deliberately simple oracle: plain float
entropies, random feasible points of the polytope, and exact mutual information of random LDP channels."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
import sympy

from dpcert.accountant.price_of_privacy import records
from dpcert.proofs.claims.price_of_privacy.checks import (
    _v_signs,
    ldp_information_quadratic_steps,
    lemma_30_cases,
    membership_yes_probability,
    pair_sketch_joint_probability,
    theorem_14_box_vertex_maximum,
    theorem_14_symbolic_steps,
    theorem_14_true_box_maximum,
    vector_facts,
)


def test_lemma_30_cases_match_float_entropies():
    """Recompute H(P0) - H(PT) and D(p || p0) with math.log from the same seeded laws (float oracle, 1e-9)."""
    cases = list(lemma_30_cases(seed=30))
    assert len(cases) == 48
    for N, name, gap, divergence, residual in cases:
        assert float(gap) >= float(divergence) - 1e-12
        assert abs(float(residual)) < 1e-30
        assert 0 <= float(divergence) <= N * math.log(2) + 1e-12
    # equality on laws uniform within the fibres of F, strict inequality somewhere else
    assert any("fibre-constant" in name and abs(float(g - d)) < 1e-30 for _, name, g, d, _ in cases)
    assert any("random" in name and float(g - d) > 1e-3 for _, name, g, d, _ in cases)


def test_lemma_30_case_by_hand():
    """N = 1, F = identity: D(p || p0) = D(PT || P0) = ln 2 - H(PT), so the gap equals the divergence."""
    for N, name, gap, divergence, _ in lemma_30_cases(seed=30):
        if N == 1 and name.startswith("identity"):
            assert abs(float(gap - divergence)) < 1e-30


def test_theorem_14_symbolic_steps_hold():
    assert theorem_14_symbolic_steps() == []
    assert ldp_information_quadratic_steps() == []


@pytest.mark.parametrize("N, w", [(3, 1), (4, 1), (4, 2), (5, 2)])
def test_vector_facts_against_direct_definition(N, w):
    assert vector_facts(N, w)
    recs = records(N, w)
    v = _v_signs(N, w)
    for l, (i, z) in itertools.product(range(N), recs):  # v_l(i, z) = 1{l in i}(1 - 2 z(l)), from the paper
        j = recs.index((i, z))
        assert v[l][j] == ((1 if z[i.index(l)] == 0 else -1) if l in i else 0)


def _main_term(p, v):
    return sum(sum(s * q for s, q in zip(row, p)) ** 2 for row in v)


@pytest.mark.parametrize("N, t", [(3, Fraction(2)), (4, Fraction(3)), (3, Fraction(5))])
def test_true_box_maximum_dominates_random_feasible_points(N, t):
    """Random points of {sum p = 1, p D in [1/t, t]} (seeded) never exceed the enumerated maximum, which lies
    below 2(t - 1)^2 w/N (Theorem 14's main term with any eps, spec E11)."""
    v = _v_signs(N, 1)
    D = len(v[0])
    maximum = theorem_14_true_box_maximum(N, 1, t)
    assert maximum <= 2 * (t - 1) ** 2 * Fraction(1, N)
    rng = random.Random(N)
    lo, hi = float(1 / (t * D)), float(t / D)
    best = 0.0
    for _ in range(3000):
        p = [rng.uniform(lo, hi) for _ in range(D)]
        k = rng.randrange(D)
        p[k] = 1 - (sum(p) - p[k])
        if lo <= p[k] <= hi:
            best = max(best, _main_term(p, v))
    assert 0 < best <= float(maximum) + 1e-12


def test_true_box_maximum_by_hand_n2():
    """N = 2, w = 1, e^eps = 3: records (0,0), (0,1), (1,0), (1,1), D = 4, box [1/12, 3/4]. The vertex
    p = (3/4, 1/12, 1/12, 1/12) (sums to 1) gives (p(0,0) - p(0,1))^2 + (p(1,0) - p(1,1))^2 = (2/3)^2 = 4/9,
    and no feasible point does better (brute force over every choice of the free coordinate)."""
    v = _v_signs(2, 1)
    t = Fraction(3)
    lo, hi = Fraction(1, 4) / t, Fraction(1, 4) * t
    best = Fraction(0)
    for values in itertools.product((lo, hi, None), repeat=4):
        if values.count(None) != 1:
            continue
        rest = 1 - sum(x for x in values if x is not None)
        if lo <= rest <= hi:
            p = [rest if x is None else x for x in values]
            best = max(best, _main_term(p, v))
    assert theorem_14_true_box_maximum(2, 1, t) == best == Fraction(4, 9)


def test_ldp_information_is_quadratic_in_eps():
    """Exact mutual information of random binary eps-LDP channels with random inputs (seeded) stays below
    2(cosh eps - 1) (the E13 bound), and the bit release with a uniform input nears eps^2/8."""
    rng = random.Random(13)
    for t in (Fraction(11, 10), Fraction(3, 2), Fraction(3)):
        low = 1 / (1 + t)
        for _ in range(20):
            rows = [low + Fraction(rng.randint(0, 100), 100) * (1 - 2 * low) for _ in range(4)]
            prior = [Fraction(rng.randint(1, 9)) for _ in range(4)]
            prior = [p / sum(prior) for p in prior]
            py1 = sum(p * a for p, a in zip(prior, rows))
            info = sum(p * (a * math.log(a / py1) + (1 - a) * math.log((1 - a) / (1 - py1))) for p, a in zip(prior, rows))
            eps = math.log(t)
            assert info <= 2 * (math.cosh(eps) - 1) + 1e-15
    eps = 1e-3
    keep = math.exp(eps) / (1 + math.exp(eps))
    bit = math.log(2) + keep * math.log(keep) + (1 - keep) * math.log(1 - keep)
    assert bit == pytest.approx(eps**2 / 8, rel=1e-3)


def test_box_vertex_maximum_by_hand_n2():
    """N = 2, w = 1, eps' = 1/2: D = 4, p^A puts 3/8 on two records and 1/8 on the others. A = {(0,0), (1,0)} gives
    (3/8 - 1/8)^2 + (3/8 - 1/8)^2 = 1/8, A = {(0,0), (0,1)} gives 0; 1/8 is the largest of the 6 vertices, half of
    Theorem 14's 2 eps'^2 w/N = 1/4."""
    assert theorem_14_box_vertex_maximum(2, 1, Fraction(1, 2)) == Fraction(1, 8)


def test_pair_sketch_joint_probability_by_hand():
    """000_0c6e7fdc3fd68303.txt, Appendix B, with the unordered pair: N = 4, w = 2, e^eps = 3, P(rating 1) = 1/3 and
    3/4 for items 0 and 1. b_01 = (1/3)(3/4) + (2/3)(1/4) = 5/12; both rated with probability w(w-1)/(N(N-1)) = 1/6,
    so P(S0 = 1 | P = {0,1}) = 5/72 and P(S = 1 | P) = 1/4 + (1/2)(5/72) = 41/144; P(P = {0,1}) = 1/C(4,2) = 1/6."""
    rates = (Fraction(1, 3), Fraction(3, 4), Fraction(1, 2), Fraction(1, 2))
    assert pair_sketch_joint_probability(4, 2, sympy.log(3), rates) == sympy.Rational(41, 864)
    # the other items' rating probabilities do not matter under rule (a)
    other = (Fraction(1, 3), Fraction(3, 4), Fraction(1, 10), Fraction(9, 10))
    assert pair_sketch_joint_probability(4, 2, sympy.log(3), other) == sympy.Rational(41, 864)


@pytest.mark.parametrize("z", [(0, 0), (0, 1), (1, 1, 0)])
def test_membership_yes_probability_is_one_over_2n(z):
    """Section 4.2: P(I = i) = 1/N and P(b = z(i)) = 1/2, so the answer is yes with probability 1/(2N)."""
    for item in range(len(z)):
        assert membership_yes_probability(z, item) == Fraction(1, 2 * len(z))
