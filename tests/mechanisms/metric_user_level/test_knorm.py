"""The K-norm mechanism for linear queries (Hardt and Talwar 2010; Lemma 6.3's central baseline).

Oracles: the gauge's definition as a linear program (scipy's linprog) and a brute-force facet enumeration of
a hand-drawn hexagon; every replace-one-user pair of small instances (exact change of q); for d = 1 the
Laplace mechanism of scale w/(eps n) (density and law). Statistical tests: each fails with probability at
most 1e-6 when the sampler is right (KS / chi-square p-value thresholds 1e-6, Hoeffding intervals at 1e-6),
fixed seeds, and a power check on a deliberately broken sampler.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.optimize
import scipy.stats
import sympy

from dpcert.mechanisms.metric_user_level import KNormMechanism
from dpcert.mechanisms.parameters import InvalidParameterError

R = sympy.Rational
FAILURE = 1e-6

HEXAGON = [[1, 0, 0], [0, 1, 0]]
"""Columns e1, e2, 0: D = conv{+-e1, +-e2, +-(e1 - e2)}, a hexagon of area 3 (six cones of area 1/2)."""

QUERIES = [
    [[0, 1, 3]],
    HEXAGON,
    [[1, R(-1, 2), 0, R(1, 3)], [R(1, 4), 1, -1, 0]],
    [[1, 0, 0, 1, R(1, 2)], [0, 1, 0, 1, R(-1, 2)], [0, 0, 1, R(1, 3), 1]],
    [[1, 0, 0, 0, 1, R(1, 2)], [0, 1, 0, 0, -1, 0], [0, 0, 1, 0, 1, R(1, 3)], [0, 0, 0, 1, R(1, 2), -1]],
]


def _lp_gauge(mechanism: KNormMechanism, v) -> float:
    """min sum(lambda) s.t. sum lambda_g g = v, lambda >= 0: the gauge of conv(generators) by definition."""
    generators = np.array([[float(c) for c in g] for g in mechanism.generators])
    result = scipy.optimize.linprog(np.ones(len(generators)), A_eq=generators.T, b_eq=np.asarray(v, dtype=float),
                                    bounds=(0, None), method="highs")
    assert result.status == 0
    return float(result.fun)


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: f"d={len(q)}")
def test_gauge_equals_the_linear_program(query):
    """Exact gauge vs linprog on 40 random rational vectors (seed 3), agreement to 1e-8 relative."""
    mechanism = KNormMechanism(query, 1)
    rng = np.random.default_rng(3)
    for _ in range(40):
        tops, bottoms = rng.integers(-9, 10, mechanism.d), rng.integers(1, 7, mechanism.d)
        v = [Fraction(int(a), int(b)) for a, b in zip(tops, bottoms)]
        exact = mechanism.gauge(v)
        assert abs(float(exact) - _lp_gauge(mechanism, v)) <= 1e-8 * (1 + float(exact))
    assert mechanism.gauge([0] * mechanism.d) == 0


def test_hexagon_gauge_against_brute_force_facets_and_hand_values():
    """Every pair of generators spanning a valid facet line: ||v||_D = max <h, v>; hand values on the hexagon."""
    mechanism = KNormMechanism(HEXAGON, 1)
    generators = [tuple(sympy.Rational(c.numerator, c.denominator) for c in g) for g in mechanism.generators]
    facets = set()
    for a, b in itertools.combinations(generators, 2):
        matrix = sympy.Matrix([a, b])
        if matrix.det() == 0:
            continue
        h = tuple(matrix.solve(sympy.Matrix([1, 1])))
        if all(sum(x * y for x, y in zip(h, g)) <= 1 for g in generators):
            facets.add(h)
    assert len(facets) == 6 and mechanism.volume == 3  # area of conv{+-e1, +-e2, +-(e1 - e2)}
    for v in itertools.product((R(-3, 2), R(-1), R(0), R(1, 3), R(2)), repeat=2):
        assert mechanism.gauge(v) == max(sum(x * y for x, y in zip(h, v)) for h in facets)
    assert mechanism.gauge([1, 1]) == 2 and mechanism.gauge([1, -1]) == 1 and mechanism.gauge([R(1, 2), 0]) == R(1, 2)


@pytest.mark.parametrize("query, n, m", [(HEXAGON, 2, 2), (QUERIES[2], 2, 1), (QUERIES[3], 3, 1), ([[0, 1, 3]], 2, 2)])
def test_replace_one_user_moves_fill_d_over_n(query, n, m):
    """Over every replace-one-user pair (others fixed in every way): n (q - q') lies in D, and reaches its boundary."""
    mechanism = KNormMechanism(query, 1)
    rows = list(itertools.combinations_with_replacement(range(mechanism.k), m))
    worst = 0
    for others in itertools.product(rows[:3], repeat=n - 1):
        for a, b in itertools.permutations(rows, 2):
            x, y = np.array([*others, a]), np.array([*others, b])
            move = [n * (u - v) for u, v in zip(mechanism.value(x), mechanism.value(y))]
            worst = max(worst, mechanism.gauge(move))
    assert worst == 1


@pytest.mark.parametrize("query", QUERIES[1:4], ids=lambda q: f"d={len(q)}")
def test_log_density_ratio_is_at_most_eps_and_attained(query):
    """Exact log ratios at 25 sampled outputs (seed 11) for every pair of users' datasets: <= eps; = eps on the ray."""
    eps = R(3, 4)
    mechanism = KNormMechanism(query, eps)
    others = [0, 1]
    pairs = [(np.array([others, [a, a]]), np.array([others, [b, b]]))
             for a, b in itertools.permutations(range(mechanism.k), 2)]
    attained = 0
    for x, y in pairs:
        for z in mechanism.sample(x, 25, np.random.default_rng(11)):
            loss = mechanism.log_density_ratio(list(z), x, y)
            assert loss <= eps and -loss <= eps
        q, p = mechanism.value(x), mechanism.value(y)
        ray = [a + 3 * (a - b) for a, b in zip(q, p)]
        assert mechanism.log_density_ratio(ray, x, y) == eps * 2 * mechanism.gauge([a - b for a, b in zip(q, p)])
        attained += mechanism.log_density_ratio(ray, x, y) == eps
    assert attained > 0


def test_one_dimensional_case_is_the_laplace_mechanism():
    """d = 1: D = [-w, w] and p(z) = (eps n / (2 w)) exp(-eps n |z - q| / w), the Laplace density (w = 3)."""
    mechanism = KNormMechanism([[0, 1, 3]], R(1, 2))
    x = np.array([[0, 2], [1, 1]])
    q = mechanism.value(x)[0]
    assert q == R(5, 4) and mechanism.volume == 6
    for z in (R(-2), R(0), R(5, 4), R(7, 3)):
        expected = (R(1, 2) * 2 / 6) * sympy.exp(-R(1, 2) * 2 * abs(z - q) / 3)
        assert sympy.simplify(mechanism.density([z], x) - expected) == 0


@pytest.mark.statistical
def test_one_dimensional_noise_is_laplace():
    """KS against Laplace(w/(eps n)) (p > 1e-6 fails w.p. 1e-6); power: a half-width box gives p < 1e-6."""
    mechanism = KNormMechanism([[0, 1, 3]], 2)
    x = np.array([[0, 2], [1, 1], [2, 2]])
    scale = 3 / (2 * 3)
    noise = mechanism.sample(x, 20_000, np.random.default_rng(4))[:, 0] - float(mechanism.value(x)[0])
    assert scipy.stats.kstest(noise / scale, "laplace").pvalue > FAILURE
    broken = noise / 2  # the box [-w/2, w/2]: wrong sensitivity polytope
    assert scipy.stats.kstest(broken / scale, "laplace").pvalue < FAILURE


def _float_gauge(mechanism: KNormMechanism, points: np.ndarray) -> np.ndarray:
    normals = np.array([[float(c) for c in h] for h in mechanism.facet_normals])
    return (points @ normals.T).max(axis=1)


def _cone_chi_square(mechanism: KNormMechanism, points: np.ndarray) -> float:
    """Chi-square p-value of the counts per boundary facet's cone against the exact cone volumes / vol(D)."""
    normals = np.array([[float(c) for c in h] for h in mechanism.facet_normals])
    keys = [tuple(h) for h in mechanism.facet_normals]
    cells = sorted(set(keys))
    weight = {c: Fraction(0) for c in cells}
    for key, volume in zip(keys, mechanism.cone_volumes):
        weight[key] += volume
    # a facet triangulated into several simplices appears once: group the argmax by its exact normal
    index = {c: i for i, c in enumerate(cells)}
    owner = np.array([index[key] for key in keys])
    counts = np.bincount(owner[np.argmax(points @ normals.T, axis=1)], minlength=len(cells))
    expected = np.array([float(weight[c] / mechanism.volume) for c in cells]) * len(points)
    return float(scipy.stats.chisquare(counts, expected).pvalue)


@pytest.mark.statistical
@pytest.mark.parametrize("query", [HEXAGON, QUERIES[3]], ids=["hexagon", "d=3"])
def test_uniform_in_d_radial_law_and_cones(query):
    """Z uniform in D: ||Z||_D^d ~ U(0, 1) (KS) and the cone counts match exact volumes (chi-square).

    Each test fails a correct sampler with probability 1e-6 (p-value threshold). Power: a box-uniform
    sampler fails the radial test, and a sampler with the right radius but l2-uniform directions (surface
    measure instead of cone measure) fails the cone test.
    """
    mechanism = KNormMechanism(query, 1)
    d = mechanism.d
    points = mechanism.sample_uniform(20_000, np.random.default_rng(7))
    assert scipy.stats.kstest(_float_gauge(mechanism, points) ** d, "uniform").pvalue > FAILURE
    assert _cone_chi_square(mechanism, points) > FAILURE
    rng = np.random.default_rng(8)
    half = np.array([float(max(abs(g[j]) for g in mechanism.generators)) for j in range(d)])
    box = rng.uniform(-half, half, size=(20_000, d))
    assert scipy.stats.kstest(np.minimum(_float_gauge(mechanism, box) ** d, 1.0), "uniform").pvalue < FAILURE
    directions = rng.standard_normal((20_000, d))
    radial = rng.random(20_000) ** (1 / d) / _float_gauge(mechanism, directions)
    wrong_angles = directions * radial[:, None]
    assert scipy.stats.kstest(_float_gauge(mechanism, wrong_angles) ** d, "uniform").pvalue > FAILURE
    assert _cone_chi_square(mechanism, wrong_angles) < FAILURE


@pytest.mark.statistical
def test_noise_gauge_is_gamma_d():
    """eps n ||W||_D ~ Gamma(d, 1) for density exp(-eps n ||w||_D) (KS, false failure 1e-6); power: R ~ Gamma(d)."""
    mechanism = KNormMechanism(QUERIES[2], R(1, 2))
    x = np.array([[0, 1], [3, 3], [2, 0]])
    q = np.array([float(v) for v in mechanism.value(x)])
    noise = mechanism.sample(x, 20_000, np.random.default_rng(9)) - q
    scaled = 0.5 * 3 * _float_gauge(mechanism, noise)
    assert scipy.stats.kstest(scaled, scipy.stats.gamma(2).cdf).pvalue > FAILURE
    rng = np.random.default_rng(10)
    broken = rng.gamma(2, 1 / 0.5, 20_000) / 3 * _float_gauge(mechanism, mechanism.sample_uniform(20_000, rng))
    assert scipy.stats.kstest(0.5 * 3 * broken, scipy.stats.gamma(2).cdf).pvalue < FAILURE


@pytest.mark.statistical
def test_expected_error_interval_and_bound():
    """d = 1: E||W||_2 = w/(eps n) = the bound d R_D/(eps n) exactly (Hoeffding interval at 1e-6 holds it).

    Power: the interval for n = 1 excludes the n = 2 value. The hexagon's interval lies below its bound.
    """
    line = KNormMechanism([[0, 1, 3]], 2)
    assert line.error_bound(2) == R(3, 4)
    low, high = line.expected_error_interval(2, np.random.default_rng(12))
    assert low <= 0.75 <= high
    low1, high1 = line.expected_error_interval(1, np.random.default_rng(13))
    assert not low1 <= 0.75 <= high1
    hexagon = KNormMechanism(HEXAGON, 1)
    assert hexagon.error_bound(5) == 2 * sympy.sqrt(2) / 5 and hexagon.one_to_two_norm == 1
    assert hexagon.expected_error_interval(5, np.random.default_rng(14))[1] < float(hexagon.error_bound(5))


def test_sample_shape_and_value():
    mechanism = KNormMechanism(QUERIES[3], 1)
    x = np.array([[0, 4], [1, 3]])
    # items 0, 4, 1, 3 each with weight 1/4: (a_0 + a_1 + a_3 + a_4) / 4 = (5/2, 3/2, 4/3) / 4
    assert mechanism.value(x) == (R(5, 8), R(3, 8), R(1, 3))
    assert mechanism.sample(x, 7, np.random.default_rng(0)).shape == (7, 3)
    assert mechanism.sample(x, 0, np.random.default_rng(0)).shape == (0, 3)
    assert mechanism.neighbours.description


@pytest.mark.parametrize("build, match", [
    (lambda: KNormMechanism("12", 1), "query must be d rows"),
    (lambda: KNormMechanism([[1, 2]] * 5, 1), r"query must be d rows .* \[1, 4\]"),
    (lambda: KNormMechanism([[1]], 1), r"k in \[2, 16\]"),
    (lambda: KNormMechanism([list(range(17))], 1), r"k in \[2, 16\]"),
    (lambda: KNormMechanism([[1, 0], [0]], 1), "query must be d rows"),
    (lambda: KNormMechanism([[0, "sqrt(2)"]], 1), "irrational"),
    (lambda: KNormMechanism([[1, 0, R(1, 2)], [0, 1, R(1, 2)]], 1), "span R"),
    (lambda: KNormMechanism([[1, 1]], 1), "span R"),
    (lambda: KNormMechanism(HEXAGON, 0), "eps must be"),
    (lambda: KNormMechanism(HEXAGON, 1).sample([[0, 3]], 1, np.random.default_rng(0)),
     r"x must hold item indices in 0\.\.2"),
    (lambda: KNormMechanism(HEXAGON, 1).sample([0, 1], 1, np.random.default_rng(0)), "x must be an n x m"),
    (lambda: KNormMechanism(HEXAGON, 1).gauge([1]), "v must be a vector of d = 2"),
    (lambda: KNormMechanism(HEXAGON, 1).gauge([1, math.inf]), "v must have finite"),
    (lambda: KNormMechanism(HEXAGON, 1).log_density_ratio([0, 0], [[0, 1]], [[0, 1, 2]]),
     "x_prime must have the shape"),
    (lambda: KNormMechanism(HEXAGON, 1).error_bound(0), r"n must be an integer in \[1"),
    (lambda: KNormMechanism(HEXAGON, 1).expected_error_interval(1, np.random.default_rng(0), failure=0),
     r"failure must be in \(0, 1\)"),
    (lambda: KNormMechanism(HEXAGON, 1).expected_error_interval(1, np.random.default_rng(0), samples=1),
     r"samples must be an integer in \[2"),
])
def test_bad_inputs_name_the_parameter(build, match):
    with pytest.raises(InvalidParameterError, match=match):
        build()
