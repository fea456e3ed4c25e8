"""GKRR_alpha0 on the clustered metric: exact metric DP, the matrix A and its inverse, the tree KR norm.

Spec items: specs/imola_metric_dp_user_level.md section 7, T7 and T8; section 5, item 4.
Paper: 002_1def8c9789d6e1bd.txt, Section 6.2 and Appendix D.3.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from dpcert.mechanisms.parameters import cancel_exponentials
from dpcert.mechanisms.metric_user_level import (
    ClusteredMetric,
    GeneralizedKRR,
    clustered_matrix,
    gkrr_coefficients,
    gkrr_inverse_coefficients,
    kantorovich_rubinstein_norm,
)
from dpcert.proofs import MetricDP, Verdict, check, tightest_epsilon

R = sympy.Rational

CONFIGS = [  # (alpha0, s, t, r)
    (1, 2, 2, R(1, 4)),
    ("log(3)", 2, 3, R(1, 3)),
    (R(1, 2), 3, 1, R(1, 5)),
    (2, 1, 3, R(2, 5)),
]


@pytest.mark.parametrize("alpha0, s, t, r", CONFIGS)
def test_gkrr_is_exactly_alpha0_metric_dp(alpha0, s, t, r):
    """T7: the exact checker proves MetricDP(alpha0) with tightest eps = alpha0 and refutes alpha0 - 1/100."""
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    proved = check(mechanism, MetricDP(mechanism.alpha0))
    assert proved.verdict is Verdict.PROVED and proved.recheck()
    assert sympy.simplify(proved.epsilon - mechanism.alpha0) == 0
    refuted = check(mechanism, MetricDP(mechanism.alpha0 - R(1, 100)))
    assert refuted.verdict is Verdict.REFUTED and refuted.recheck()
    assert sympy.simplify(tightest_epsilon(mechanism).epsilon - mechanism.alpha0) == 0


@pytest.mark.parametrize("alpha0, s, t, r", CONFIGS)
def test_transition_matrix_is_the_definition_and_its_inverse_is_the_papers(alpha0, s, t, r):
    """T8: A from (a, b, c) equals P(y | x) entry by entry; A (A^{-1} from (a', b', c')) = I exactly."""
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    k = s * t
    A, inverse = mechanism.transition_matrix, mechanism.inverse_matrix
    for x in range(k):
        pmf = mechanism.pmf(x)
        assert all(cancel_exponentials(A[x, y] - pmf[y]) == 0 for y in range(k))
    product = (A * inverse).applyfunc(cancel_exponentials)
    assert product == sympy.eye(k)
    a, b, c = mechanism.inverse_coefficients
    assert cancel_exponentials(a + t * b + s * t * c) == 1


def test_inverse_identities_hold_for_every_parameter_value():
    """T8 symbolically: for symbols E0 = e^alpha0 > E1 = e^((1-r) alpha0) > 1 and symbolic s, t,

    a' + t b' + s t c' = 1, and the structured product (a I + (b I + c J) (x) J)(a' I + ...) is I:
    its coefficients (aa', ab' + a'b + t b b', ...) reduce to (1, 0, 0).
    """
    E0, E1, s, t = sympy.symbols("E0 E1 s t", positive=True)
    a, b, c = gkrr_coefficients(E0, E1, s, t)
    a2, b2, c2 = gkrr_inverse_coefficients(E0, E1, s, t)
    assert sympy.simplify(a2 + t * b2 + s * t * c2 - 1) == 0
    # (a I + M (x) J)(a' I + M' (x) J) = a a' I + (a M' + a' M + t M M') (x) J with M = b I + c J_s, J_s^2 = s J_s
    identity_part = a * a2
    diagonal_part = a * b2 + a2 * b + t * b * b2
    ones_part = a * c2 + a2 * c + t * (b * c2 + c * b2 + s * c * c2)
    assert [sympy.simplify(e) for e in (identity_part - 1, diagonal_part, ones_part)] == [0, 0, 0]


def test_inverse_rows_have_the_papers_structure():
    """Section 5, item 4: a row of A^{-1} is one a'+b'+c', t-1 entries b'+c' and (s-1)t entries c'."""
    mechanism = GeneralizedKRR(1, 3, 2, R(1, 4))
    a, b, c = mechanism.inverse_coefficients
    for x in range(6):
        row = list(mechanism.inverse_matrix.row(x))
        cluster = x // 2
        assert row[x] == a + b + c
        assert [row[y] for y in range(6) if y != x and y // 2 == cluster] == [b + c]
        assert [row[y] for y in range(6) if y // 2 != cluster] == [c] * 4


def test_clustered_matrix_layout():
    """clustered_matrix(a, b, c) has a+b+c on the diagonal, b+c within a cluster, c across (index b t + c)."""
    a, b, c = sympy.symbols("a b c")
    matrix = clustered_matrix(a, b, c, 2, 3)
    metric = ClusteredMetric(2, 3, R(1, 3))
    expected = {0: a + b + c, R(1, 3): b + c, 1: c}
    assert all(matrix[x, y] == expected[metric.distance(x, y)] for x in range(6) for y in range(6))


def test_index_and_cell_are_inverse():
    metric = ClusteredMetric(3, 4, R(1, 4))
    assert [metric.index(*metric.cell(x)) for x in range(12)] == list(range(12))
    assert metric.cell(5) == (1, 1) and metric.distance(4, 7) == R(1, 4) and metric.distance(3, 4) == 1


def test_tree_formula_for_the_kr_norm_matches_the_lp():
    """The clustered metric is a tree metric, so ||v||_KR = (r/2)||v||_1 + ((1-r)/2) sum_b |v(cluster b)|.

    Checked against the min-cost transport LP on 40 random zero-mass vectors (tolerance 1e-9).
    """
    rng = np.random.default_rng(5)
    for s, t, r in ((3, 3, R(1, 5)), (2, 4, R(1, 10)), (4, 2, R(3, 10))):
        metric = ClusteredMetric(s, t, r)
        vectors = rng.normal(size=(40, s * t))
        vectors -= vectors.mean(axis=1, keepdims=True)
        closed = metric.kantorovich_rubinstein_norm(vectors)
        lp = [kantorovich_rubinstein_norm(v, metric.float_matrix()) for v in vectors]
        assert closed == pytest.approx(lp, abs=1e-9)


def test_sampler_uses_the_exact_row_probabilities():
    """The float transition matrix used for sampling equals the exact pmf (relative 1e-15)."""
    mechanism = GeneralizedKRR(2, 2, 3, R(1, 3))
    table = mechanism.float_transition_matrix()
    for x in range(6):
        assert table[x] == pytest.approx([float(mechanism.pmf(x)[y]) for y in range(6)], rel=1e-15)
