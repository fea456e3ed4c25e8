"""Earth mover's distance: metric properties, LP vs assignment vs exact matchings, the KR norm.

Spec items: specs/imola_metric_dp_user_level.md section 7, T1 and T2; section 8, A21.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy

from dpcert.mechanisms.metric_user_level import (
    ClusteredMetric,
    earth_movers_distance,
    exact_earth_movers_distance,
    exact_matching_distance,
    histogram,
    kantorovich_rubinstein_norm,
    matching_distance,
)
from dpcert.proofs.claims.metric_user_level.spec_checks import brute_force_matching

R = sympy.Rational


def random_metric(rng: np.random.Generator, k: int) -> np.ndarray:
    """Euclidean distances of k random points in the unit square, divided by the largest (so d <= 1)."""
    points = rng.random((k, 2))
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    return d / d.max()


def rational_metric(rng: np.random.Generator, k: int) -> list[list[Fraction]]:
    """A random metric with rational values in [1/2, 1] off the diagonal (any such matrix is a metric)."""
    d = [[Fraction(0)] * k for _ in range(k)]
    for a, b in itertools.combinations(range(k), 2):
        d[a][b] = d[b][a] = Fraction(int(rng.integers(6, 13)), 12)
    return d


def test_d_em_is_a_metric_bounded_by_one():
    """T1: 0 <= d_EM <= 1 (d <= 1), d_EM(P, P) = 0, symmetry and the triangle inequality (Definition 2.4)."""
    rng = np.random.default_rng(1)
    for trial in range(25):
        k = int(rng.integers(2, 7))
        metric = random_metric(rng, k)
        p, q, w = rng.dirichlet(np.ones(k), 3)
        pq, qp = earth_movers_distance(p, q, metric), earth_movers_distance(q, p, metric)
        assert 0 <= pq <= 1 + 1e-12
        assert pq == pytest.approx(qp, abs=1e-12)
        assert earth_movers_distance(p, p, metric) == pytest.approx(0, abs=1e-12)
        assert earth_movers_distance(p, w, metric) <= pq + earth_movers_distance(q, w, metric) + 1e-12
        assert kantorovich_rubinstein_norm(p - q, metric) == pytest.approx(pq, abs=1e-12)


def test_d_em_of_point_masses_is_the_distance():
    """d_EM(delta_x, delta_y) = d(x, y): the only coupling of two point masses moves all mass from x to y."""
    metric = random_metric(np.random.default_rng(2), 5)
    for x, y in itertools.product(range(5), repeat=2):
        assert earth_movers_distance(np.eye(5)[x], np.eye(5)[y], metric) == pytest.approx(metric[x, y], abs=1e-12)


def test_lp_matching_exact_and_brute_force_agree():
    """T2 (Lemma 2.1): LP on the histograms = scipy assignment = exact Hungarian = brute force over permutations."""
    rng = np.random.default_rng(3)
    for trial in range(30):
        k, m = int(rng.integers(2, 6)), int(rng.integers(1, 7))
        exact = rational_metric(rng, k)
        floats = np.array(exact, dtype=float)
        xs, ys = rng.integers(0, k, m).tolist(), rng.integers(0, k, m).tolist()
        reference = brute_force_matching(xs, ys, lambda a, b: exact[a][b])
        found = exact_matching_distance(xs, ys, lambda a, b: exact[a][b])
        assert found == R(reference.numerator, reference.denominator)
        assert matching_distance(xs, ys, floats) == pytest.approx(float(reference), abs=1e-12)
        p, q = (np.array(histogram(v, k)) / m for v in (xs, ys))
        assert earth_movers_distance(p, q, floats) == pytest.approx(float(reference), abs=1e-9)


def test_exact_matching_with_irrational_distances():
    """T2 with sympy distances: sqrt(2)/2 and 1/sqrt(3) are compared exactly, not by floats."""
    values = {frozenset({0, 1}): sympy.sqrt(2) / 2, frozenset({0, 2}): 1 / sympy.sqrt(3), frozenset({1, 2}): R(3, 4)}

    def distance(a, b):
        return sympy.Integer(0) if a == b else values[frozenset({a, b})]

    xs, ys = [0, 1, 2, 2], [1, 2, 0, 0]
    best = min(sum((distance(a, b) for a, b in zip(xs, perm)), sympy.Integer(0)) for perm in itertools.permutations(ys))
    found = exact_matching_distance(xs, ys, distance)
    assert sympy.simplify(found - best / 4) == 0


def test_exact_d_em_of_different_sizes_matches_the_lp():
    """Lemma 2.1 after expanding to the common denominator: exact d_EM(K~, K~') for |K| != |K'| equals the LP."""
    rng = np.random.default_rng(4)
    metric = ClusteredMetric(2, 3, R(1, 3))
    for trial in range(15):
        sizes = rng.integers(1, 6, 2)
        p, q = (np.array(histogram(rng.integers(0, 6, size).tolist(), 6)) for size in sizes)
        exact = exact_earth_movers_distance([R(int(c), int(p.sum())) for c in p], [R(int(c), int(q.sum())) for c in q],
                                            metric.distance)
        assert float(exact) == pytest.approx(earth_movers_distance(p / p.sum(), q / q.sum(), metric.float_matrix()),
                                             abs=1e-9)


def test_kantorovich_rubinstein_norm_of_a_signed_vector():
    """A21: for signed F~ (entries < 0 allowed) the KR norm equals the d_EM of the two parts' transport.

    Reference computed by hand on the clustered metric (s = 2, t = 2, r = 1/4): v = (1/2, -1/5, -3/10, 0).
    Mass 1/5 moves within cluster 0 (cost r = 1/4) and 3/10 across (cost 1): 1/20 + 3/10 = 0.35.
    """
    metric = ClusteredMetric(2, 2, R(1, 4))
    v = [0.5, -0.2, -0.3, 0.0]
    assert kantorovich_rubinstein_norm(v, metric.float_matrix()) == pytest.approx(0.35, abs=1e-12)
    assert metric.kantorovich_rubinstein_norm(v) == pytest.approx(0.35, abs=1e-12)
    assert kantorovich_rubinstein_norm([1.5, -2.0, 0.0, 0.5], metric.float_matrix()) == pytest.approx(
        1.5 * 0.25 + 0.5, abs=1e-12)  # beyond the simplex: 3/2 moves within cluster 0, 1/2 comes across from point 3


def test_zero_vector_has_zero_norm():
    assert kantorovich_rubinstein_norm([0.0, 0.0, 0.0], np.ones((3, 3)) - np.eye(3)) == 0.0
