"""The central Laplace baseline at scale 2/(n eps) (Lemma 6.7 corrected, spec A7).

Oracles: brute-force enumeration of every replace-one-user pair (exact l1 change of K~_G); a KS test of the noise
law (false failure 1e-6) with a power check at the paper's scale 1/(n eps).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.mechanisms.metric_user_level import CentralLaplaceHistogram
from dpcert.mechanisms.metric_user_level.central_laplace import normalise_clipped, replace_one_user
from dpcert.mechanisms.parameters import InvalidParameterError

R = sympy.Rational
FAILURE = 1e-6


@pytest.mark.parametrize("n, m, k", [(2, 2, 3), (3, 1, 2), (2, 3, 2)])
def test_replace_one_user_sensitivity_is_two_over_n(n, m, k):
    """Every pair of n-user datasets differing in one user: ||K~_G - K~'_G||_1 <= 2/n, with equality attained."""
    mechanism = CentralLaplaceHistogram(1, k)
    rows = list(itertools.product(range(k), repeat=m))
    worst = 0
    for others in itertools.product(rows, repeat=n - 1):
        for a, b in itertools.permutations(rows, 2):
            x, y = np.array([*others, a]), np.array([*others, b])
            assert replace_one_user(x, y)
            q, p = mechanism.exact_histogram(x), mechanism.exact_histogram(y)
            worst = max(worst, sum(abs(u - v) for u, v in zip(q, p)))
    assert worst == R(2, n)
    assert mechanism.scale(n) * 1 == R(2, n)  # so the Laplace mechanism's eps is (2/n) / b = 1


def test_log_density_ratio_is_bounded_by_eps_and_attained():
    mechanism = CentralLaplaceHistogram(R(1, 2), 3)
    x, y = np.array([[0, 0], [1, 1]]), np.array([[0, 0], [2, 2]])  # user 2 moves all items: l1 change 2/n
    q, p = mechanism.exact_histogram(x), mechanism.exact_histogram(y)
    far = [a + 5 * (a - b) for a, b in zip(q, p)]
    assert mechanism.log_density_ratio(far, x, y) == R(1, 2)
    for z in itertools.product((R(-1), R(0), R(1, 4), R(1, 2), R(2)), repeat=3):
        assert mechanism.log_density_ratio(list(z), x, y) <= R(1, 2)


@pytest.mark.statistical
def test_noise_is_laplace_of_scale_two_over_n_eps():
    """KS test of (F - K~_G)/b against Laplace(1) (p > 1e-6 fails w.p. 1e-6); the paper's scale 1/(n eps) is rejected."""
    users = np.array([[0, 1], [1, 1], [2, 0]])
    mechanism = CentralLaplaceHistogram(R(3, 2), 3)
    b = float(mechanism.scale(3))
    noise = mechanism.noisy_histogram(users, 20_000, np.random.default_rng(1)) - mechanism.normalised_histogram(users)
    assert scipy.stats.kstest(noise.ravel() / b, "laplace").pvalue > FAILURE
    paper = np.random.default_rng(2).laplace(0, b / 2, size=60_000)
    assert scipy.stats.kstest(paper / b, "laplace").pvalue < FAILURE


def test_released_estimate_is_a_probability_vector():
    draws = CentralLaplaceHistogram(R(1, 10), 4).sample(np.array([[0, 1]]), 500, np.random.default_rng(3))
    assert np.all(draws >= 0) and np.allclose(draws.sum(axis=1), 1)
    assert np.allclose(normalise_clipped([[-1.0, -2.0]]), [[0.5, 0.5]])
    assert np.allclose(normalise_clipped([[3.0, -2.0, 1.0]]), [[0.75, 0.0, 0.25]])


@pytest.mark.parametrize("call, parameter", [
    (lambda: CentralLaplaceHistogram(0, 3), "eps"),
    (lambda: CentralLaplaceHistogram(1, 1), "k"),
    (lambda: CentralLaplaceHistogram(1, 3).sample(np.array([[0, 3]]), 2, np.random.default_rng(0)), "x"),
    (lambda: CentralLaplaceHistogram(1, 3).sample(np.array([[0, 1]]), -2, np.random.default_rng(0)), "size"),
    (lambda: CentralLaplaceHistogram(1, 2).log_density_ratio([float("nan"), 0], [[0]], [[1]]), "z"),
    (lambda: CentralLaplaceHistogram(1, 2).log_density_ratio([1, 0], [[0]], [[1], [1]]), "x_prime"),
])
def test_invalid_arguments_name_the_parameter(call, parameter):
    with pytest.raises(InvalidParameterError, match=f"^{parameter}"):
        call()
