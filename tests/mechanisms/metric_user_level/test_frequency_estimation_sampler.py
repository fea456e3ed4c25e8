"""FreqEstLocal with GKRR: unbiasedness, the released histograms, and the vectorised sampler's law.

Spec items: specs/imola_metric_dp_user_level.md section 7, T9; section 3.4 (Algorithm 4).
Paper: 002_1def8c9789d6e1bd.txt, Algorithm 4 and Section 6.2.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.mechanisms.parameters import cancel_exponentials
from dpcert.mechanisms.metric_user_level import FreqEstLocal, GeneralizedKRR

R = sympy.Rational
GKRR = GeneralizedKRR(1, 3, 2, R(1, 5))


@pytest.mark.parametrize("alpha0, s, t, r", [(1, 3, 2, R(1, 5)), ("log(2)", 2, 2, R(1, 3))])
def test_estimate_is_unbiased_exactly(alpha0, s, t, r):
    """T9: E[F~] = E[v] B = K~ A B = K~ for every K~ (exact: B = A^{-1}), and B 1 = 1 so F~ sums to 1."""
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    k = s * t
    A, B = mechanism.transition_matrix, mechanism.inverse_matrix
    rng = np.random.default_rng(11)
    for trial in range(3):
        weights = rng.integers(0, 5, k) + np.eye(k, dtype=int)[trial]
        histogram = sympy.Matrix([[R(int(w), int(weights.sum())) for w in weights]])
        assert (histogram * A * B).applyfunc(cancel_exponentials) == histogram
    assert (B * sympy.ones(k, 1)).applyfunc(cancel_exponentials) == sympy.ones(k, 1)


def test_estimates_sum_to_one():
    """T9: every sampled F~ sums to 1 (float), while its entries may be negative (a signed estimate)."""
    estimates = FreqEstLocal(GKRR).sample(np.zeros((5, 4), dtype=int), 1000, np.random.default_rng(12))
    assert estimates.shape == (1000, 6)
    assert np.allclose(estimates.sum(axis=1), 1, atol=1e-9)
    assert (estimates < 0).any()


@pytest.mark.statistical
def test_mean_estimate_is_the_histogram():
    """T9 by Monte Carlo: each coordinate of the mean of N = 20000 estimates is within 6 standard errors of
    K~. False-failure probability <= 6 * 2 * (1 - Phi(6)) ~ 2e-8 (CLT; 6 coordinates); fixed seed."""
    x = np.array([[0, 0, 1, 5], [2, 2, 3, 4]])
    estimates = FreqEstLocal(GKRR).sample(x, 20_000, np.random.default_rng(13))
    target = np.bincount(x.ravel(), minlength=6) / x.size
    error = np.abs(estimates.mean(axis=0) - target) / (estimates.std(axis=0) / np.sqrt(len(estimates)))
    assert error.max() < 6


def test_local_release_is_one_histogram_per_user_and_central_one_for_all():
    """Local: n histograms of m outputs; central ("one user holding K_G"): one histogram of n m outputs."""
    x = np.array([[0, 1, 2], [3, 4, 5], [5, 5, 5], [0, 0, 1]])
    local = FreqEstLocal(GKRR).release(x, np.random.default_rng(14))
    central = FreqEstLocal(GKRR, model="central").release(x, np.random.default_rng(14))
    assert local.shape == (4, 6) and np.all(local.sum(axis=1) == 3)
    assert central.shape == (1, 6) and central.sum() == 12
    assert np.isclose(FreqEstLocal(GKRR).estimate(local).sum(), 1)


@pytest.mark.statistical
def test_multinomial_sampler_has_the_law_of_release_then_estimate():
    """sample() draws F~ through total output counts (sums of multinomials); estimate(release()) randomizes
    every item. Two-sample KS on the first coordinate (2000 vs 2000), values rounded to 9 decimals so equal
    estimates tie (the two paths round differently in the last bit); with ties the KS test is conservative,
    so the false-failure probability stays <= 1e-6."""
    x = np.array([[0, 1, 1], [4, 5, 2]])
    mechanism = FreqEstLocal(GKRR)
    rng = np.random.default_rng(15)
    slow = np.round([mechanism.estimate(mechanism.release(x, rng))[0] for _ in range(2000)], 9)
    fast = np.round(mechanism.sample(x, 2000, np.random.default_rng(16))[:, 0], 9)
    assert scipy.stats.ks_2samp(slow, fast).pvalue >= 1e-6
    # Power check: the same comparison detects draws made with alpha0 = 2 instead of 1
    wrong = np.round(FreqEstLocal(GeneralizedKRR(2, 3, 2, R(1, 5))).sample(x, 2000, np.random.default_rng(17))[:, 0], 9)
    assert scipy.stats.ks_2samp(slow, wrong).pvalue < 1e-6


def test_neighbour_distances():
    """Local: sum over users of d_EM(K~_i, K~'_i); central: n d_EM(K~_G, K~'_G), never above the local one."""
    x, y = ((0, 1), (2, 3)), ((0, 1), (3, 4))  # user 1 moves item 2 -> 4 (other cluster): d_EM = 1/2
    local, central = FreqEstLocal(GKRR).neighbours, FreqEstLocal(GKRR, model="central").neighbours
    assert local.exact_distance(x, y) == R(1, 2)
    assert central.exact_distance(x, y) == 2 * R(1, 4)
    z = ((2, 3), (0, 1))  # the same multiset K_G, users swapped
    assert central.exact_distance(x, z) == 0 and local.exact_distance(x, z) == 2


def test_normalised_histogram_is_the_global_datasets_histogram():
    """Algorithm 4's target K~ of K_G: item counts over all users' items divided by n m, summing to 1."""
    users = np.array([[0, 0, 5, 2], [2, 2, 2, 1], [4, 0, 3, 3]])
    expected = np.array([3, 1, 4, 2, 1, 1]) / 12
    assert np.array_equal(FreqEstLocal(GKRR).normalised_histogram(users), expected)
    assert np.array_equal(FreqEstLocal(GKRR, model="central").normalised_histogram(users), expected)
