"""Hadamard response and its frequency estimator (Lemma 6.4's baseline).

Reference: Acharya, Sun, Zhang (AISTATS 2019), Section 4 (K = smallest power of two > k, rows 1..k of the
Sylvester matrix, probabilities 2e^eps/(K(1+e^eps)) and 2/(K(1+e^eps))); 002_1def8c9789d6e1bd.txt, Lemma 6.4.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.mechanisms.metric_user_level import HadamardFreqEst, HadamardResponse
from dpcert.mechanisms.metric_user_level.hadamard import hadamard_order, sylvester_signs
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.exact import tightest_epsilon

R = sympy.Rational
FAILURE = 1e-6


def brute_force_hadamard(K: int) -> np.ndarray:
    """Sylvester's recursion H_2K = [[H, H], [H, -H]] from H_1 = [1] (independent of the popcount formula)."""
    H = np.array([[1]])
    while len(H) < K:
        H = np.block([[H, H], [H, -H]])
    return H


@pytest.mark.parametrize("k, K", [(2, 4), (3, 4), (4, 8), (7, 8), (8, 16), (100, 128)])
def test_order_is_the_smallest_power_of_two_above_k(k, K):
    assert hadamard_order(k) == K
    H = brute_force_hadamard(K)
    assert np.array_equal(sylvester_signs(np.arange(K)[:, None], np.arange(K)[None, :]), H)


@pytest.mark.parametrize("k, eps", [(3, R(1, 2)), (5, sympy.log(3))])
def test_channel_is_exact_and_the_estimator_an_exact_mass_preserving_inverse(k, eps):
    mechanism = HadamardResponse(k, eps)
    A, B = mechanism.exact_transition_matrix(), mechanism.exact_estimator_matrix()
    assert all(sympy.simplify(sum(A.row(x)) - 1) == 0 for x in range(k))
    assert (A * B - sympy.eye(k)).applyfunc(sympy.simplify) == sympy.zeros(k, k)
    assert all(sympy.simplify(sum(B.row(y)) - 1) == 0 for y in range(B.rows))
    # the float estimator used for sampling is the same matrix
    assert np.allclose(np.array(B.evalf(20).tolist(), dtype=float), mechanism.float_estimator_matrix())


def test_exact_checker_finds_eps_tight():
    certificate = tightest_epsilon(HadamardResponse(6, R(3, 4)))
    assert certificate.epsilon == R(3, 4)


def _pvalue(mechanism: HadamardResponse, x: int, sample: np.ndarray) -> float:
    """Bonferroni p-value that the sample's output frequencies match the pmf (two-sided binomial tests)."""
    counts = np.bincount(sample, minlength=mechanism.order)
    pmf = mechanism.pmf(x)
    p = min(scipy.stats.binomtest(int(counts[y]), len(sample), float(pmf[y])).pvalue for y in range(mechanism.order))
    return min(1.0, p * mechanism.order)


@pytest.mark.statistical
def test_sampler_follows_the_pmf():
    """False failure <= 1e-6 per input (Bonferroni over outputs); the power check rejects eps's sampler at 2 eps."""
    mechanism = HadamardResponse(5, R(1, 2))
    for x in (0, 3, 4):
        assert _pvalue(mechanism, x, mechanism.sample(x, 40_000, np.random.default_rng(10 + x))) > FAILURE
    broken = HadamardResponse(5, 1)
    assert _pvalue(mechanism, 2, broken.sample(2, 40_000, np.random.default_rng(2))) < FAILURE


def test_frequency_estimate_is_exactly_unbiased():
    """E[F~] = K~ A B' = K~ exactly, for every histogram of 4 items over k = 3 values."""
    mechanism = HadamardResponse(3, R(1, 3))
    A, B = mechanism.exact_transition_matrix(), mechanism.exact_estimator_matrix()
    for items in itertools.combinations_with_replacement(range(3), 4):
        histogram = sympy.Matrix([[R(items.count(x), 4) for x in range(3)]])
        assert (histogram * A * B - histogram).applyfunc(sympy.simplify) == sympy.zeros(1, 3)


@pytest.mark.statistical
def test_release_then_estimate_matches_the_multinomial_sampler():
    """Both routes give F~ with the same mean (K~): 2000 draws each, z-test per coordinate at 1e-6/(2k)."""
    estimator = HadamardFreqEst(HadamardResponse(4, 1))
    users = np.array([[0, 0, 1], [3, 2, 2]])
    target = estimator.normalised_histogram(users)
    rng = np.random.default_rng(4)
    direct = estimator.sample(users, 2000, rng)
    released = np.array([estimator.estimate(estimator.release(users, rng)) for _ in range(2000)])
    z = scipy.stats.norm.isf(FAILURE / 16)
    for draws in (direct, released):
        assert np.allclose(draws.sum(axis=1), 1.0)
        assert np.all(np.abs(draws.mean(axis=0) - target) <= z * draws.std(axis=0) / np.sqrt(len(draws)) + 1e-12)


def test_neighbours_are_one_replaced_user():
    relation = HadamardFreqEst(HadamardResponse(3, 1)).neighbours
    assert relation.is_neighbour(np.array([[0, 1], [2, 2]]), np.array([[0, 1], [1, 1]]))
    assert not relation.is_neighbour(np.array([[0, 1], [2, 2]]), np.array([[1, 1], [1, 1]]))


@pytest.mark.parametrize("call, parameter", [
    (lambda: HadamardResponse(1, 1), "k"),
    (lambda: HadamardResponse(3, 0), "eps"),
    (lambda: HadamardResponse(3, 1).pmf(3), "x"),
    (lambda: HadamardResponse(3, 1).sample(0, -1, np.random.default_rng(0)), "size"),
    (lambda: HadamardFreqEst(HadamardResponse(3, 1)).sample(np.array([[0, 3]]), 1, np.random.default_rng(0)), "x"),
    (lambda: HadamardFreqEst("k-rr"), "mechanism"),
    (lambda: HadamardResponse(3, 1).sample_many(np.array([0.5]), np.random.default_rng(0)), "x"),
    (lambda: HadamardFreqEst(HadamardResponse(3, 1)).estimate([[float("nan"), 1, 1, 1]]), "releases"),
])
def test_invalid_arguments_name_the_parameter(call, parameter):
    with pytest.raises(InvalidParameterError, match=f"^{parameter}"):
        call()
