"""PrivaCT's closed forms (004_a0cddc0a7a24fb37.txt, dpcert.accountant.privact.bounds): the difference-of-
Laplaces expectations against numerical quadrature (TC-N2) and Monte Carlo (TC-N3), and Lemma 6 / Theorem 6
values (TC-N7). The checks that decide the paper's claims are tested in tests/proofs/claims/privact/.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.integrate
import sympy

from dpcert.accountant.privact.bounds import (
    expected_abs_shifted_difference,
    expected_noisy_dissimilarity,
    laplace_difference_density,
    lemma_6_1_bias_bound,
    lemma_6_2_variance_bound,
    lemma_6_3_radius,
    theorem_6_bound,
    theorem_6_relative_bound,
)
from dpcert.mechanisms.privact import (
    clique_constant,
    degree_vectors,
    noisy_degree_vectors,
    planted_partition_graph,
    random_partition,
    random_tree,
)
from dpcert.proofs.claims.privact.checks import median_of_means_failure


R = sympy.Rational
N, K, SIGMA = 36, 3, 1  # a 36-user graph, K = 3 bins, sigma = 1


@pytest.mark.parametrize("sigma, a", [(1.3, 0.0), (1.3, 0.7), (0.5, 3.0), (2.0, -1.5)])
def test_difference_of_laplaces_closed_forms_match_numerical_quadrature(sigma, a):
    """TC-N1/N2 cross-checked independently: numerical quadrature of the convolution and of E|a+Z| agrees with the
    closed forms to 1e-8, and a wrong constant (E|Z| = σ) does not."""
    z = sympy.Symbol("z", real=True)
    density = sympy.lambdify(z, laplace_difference_density(z, sympy.nsimplify(sigma)))
    laplace = lambda r: math.exp(-abs(r) / sigma) / (2 * sigma)  # noqa: E731
    reach = 80 * sigma + abs(a)  # the tails beyond carry < e^{-75} of the mass
    for point in (0.0, 0.4, 2.5):
        convolution = scipy.integrate.quad(lambda r: laplace(r) * laplace(r - point), -reach, reach,
                                           points=[0, point], limit=200)[0]
        assert abs(convolution - density(point)) < 1e-8
    mean_abs = 2 * scipy.integrate.quad(lambda w: w * density(w), 0, np.inf)[0]
    assert abs(mean_abs - 1.5 * sigma) < 1e-8 and abs(mean_abs - sigma) > 0.1
    shifted = scipy.integrate.quad(lambda w: abs(a + w) * density(w), -reach, reach, points=[-a, 0], limit=200)[0]
    closed = float(expected_abs_shifted_difference(sympy.nsimplify(a), sympy.nsimplify(sigma)))
    assert abs(shifted - closed) < 1e-7 and 0 <= closed - abs(a) <= 1.5 * sigma


def lemma_6_setup() -> tuple[np.ndarray, object]:
    """True degree vectors of a 36-user planted graph (20 + 16, p_in 1/2, p_out 1/10) over K = 3 random bins, and
    a uniformly random fixed tree T (fixed seeds)."""
    rng = np.random.default_rng(606)
    graph, _ = planted_partition_graph((20, 16), R(1, 2), R(1, 10), rng)
    counts = degree_vectors(graph, random_partition(N, K, rng), K)
    return counts, random_tree(N, rng)


def pair_mean_intervals(counts: np.ndarray, pairs: list[tuple[int, int]], sigma: float, seed: int,
                        draws: int = 20_000) -> list[tuple[float, float]]:
    """Median-of-means confidence intervals for E‖c̄_i − c̄_j‖_1 (no floor), one per pair, from reports with scale
    ``sigma``. Each block mean is within 2√(4Kσ_claimed²/m) of the mean with probability >= 3/4 (Chebyshev; the
    proved Var‖c̄_i − c̄_j‖_1 <= 4Kσ²), and B blocks make each interval fail with probability <= 1e-6/len(pairs)."""
    blocks = 1
    while median_of_means_failure(blocks) > 1e-6 / len(pairs):
        blocks += 2
    per_block = draws // blocks
    rng = np.random.default_rng(seed)
    radius = 2 * math.sqrt(4 * K * SIGMA**2 / per_block)
    intervals = []
    for i, j in pairs:
        rows = np.broadcast_to(counts[[i, j]], (blocks * per_block, 2, K))
        noisy = noisy_degree_vectors(rows, sigma, rng)
        distance = np.abs(noisy[:, 0] - noisy[:, 1]).sum(axis=1).reshape(blocks, per_block)
        centre = float(np.median(distance.mean(axis=1)))
        intervals.append((centre - radius, centre + radius))
    return intervals


@pytest.mark.statistical
def test_per_pair_noisy_dissimilarity_mean_matches_the_closed_form():
    """TC-N3: E‖c̄_i − c̄_j‖_1 = Σ_l [|a_l| + e^{−|a_l|/σ}(3σ+|a_l|)/2] for 4 pairs (false-failure probability
    <= 1e-6 over the 4 intervals). Power: reports with half the noise scale miss the formula for some pair."""
    counts, _ = lemma_6_setup()
    gaps = np.abs(counts[:, None, :] - counts[None, :, :]).sum(axis=2)
    pairs = [(0, 1), (0, 30), (int(np.argmax(gaps) // N), int(np.argmax(gaps) % N)), (5, 6)]
    expected = [float(expected_noisy_dissimilarity(counts[i], counts[j], SIGMA)) for i, j in pairs]
    good = pair_mean_intervals(counts, pairs, SIGMA, seed=31)
    assert all(low <= e <= high for (low, high), e in zip(good, expected)), (good, expected)
    halved = pair_mean_intervals(counts, pairs, SIGMA / 2, seed=32)
    assert any(not low <= e <= high for (low, high), e in zip(halved, expected))


def test_lemma_and_theorem_6_values():
    """TC-N7: (3K + 12√K)σ = 105.498, 52.749, 26.375 at K = 7, σ = 1/ε, ε = 0.5, 1, 2; Theorem 6's statement is
    twice Lemma 6.3's P (spec A6); the spec's n = 40, K = 3, σ = 1 example has bias bound 4.5ρ and variance 12ρ²."""
    for eps, printed in ((R(1, 2), 105.498), (1, 52.749), (2, 26.375)):
        assert abs(float(theorem_6_relative_bound(7, 1 / sympy.sympify(eps))) - printed) < 5e-4
    n, rho = 40, clique_constant(40)
    assert theorem_6_bound(n, 7, 1).value == 2 * lemma_6_3_radius(n, 7, 1).value == (21 + 12 * sympy.sqrt(7)) * rho
    assert lemma_6_1_bias_bound(n, 3, 1).value == R(9, 2) * rho and lemma_6_2_variance_bound(n, 3, 1).value == 12 * rho**2
    bound = theorem_6_bound(1843, 7, R(1, 2))
    assert bound.enclosure[0] <= float(bound.value) <= bound.upper and "heuristic" in bound.note
