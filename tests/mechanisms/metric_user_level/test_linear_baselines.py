"""Duchi, Jordan, Wainwright's l2 sampling randomizer (Lemma 6.1's local baseline).

Oracles: the exact density (two values, ratio e^eps); Monte Carlo of the half-sphere probability and of
unbiasedness (false failure 1e-6 each) with a power check at 2 eps.
Reference: Duchi, Jordan, Wainwright (2013), Section 4.2.3: B = R coth(eps/2) sqrt(pi) Gamma((d+1)/2)/Gamma(d/2).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.mechanisms.metric_user_level import DuchiLinearQuery
from dpcert.mechanisms.parameters import InvalidParameterError

R = sympy.Rational
FAILURE = 1e-6
QUERY = [[1, 0, R(1, 2)], [0, 1, R(1, 2)], [0, 0, R(1, 2)]]


def test_release_norm_and_radius():
    mechanism = DuchiLinearQuery(QUERY, 2)
    assert mechanism.radius == 1
    expected = (sympy.exp(2) + 1) / (sympy.exp(2) - 1) * sympy.sqrt(sympy.pi) * sympy.gamma(2) / sympy.gamma(R(3, 2))
    assert sympy.simplify(mechanism.release_norm - expected) == 0
    draws = mechanism.sample([0, 2], 50, np.random.default_rng(0))
    assert np.allclose(np.linalg.norm(draws, axis=1), float(expected))


def test_radius_is_the_exact_largest_column_norm():
    """Columns of norms 1 and 1 + 10^-17 (equal as floats): R is the larger, exactly."""
    assert DuchiLinearQuery([[1, R(10**17 + 1, 10**17)], [0, 0]], 1).radius == R(10**17 + 1, 10**17)


def test_density_takes_two_values_with_ratio_e_eps():
    mechanism = DuchiLinearQuery(QUERY, 1)
    pi = sympy.E / (1 + sympy.E)
    assert sympy.simplify(mechanism.density([1, 0, 0], [1, 0, 0]) - 2 * pi) == 0
    assert sympy.simplify(mechanism.density([-1, 0, 0], [1, 0, 0]) - 2 * (1 - pi)) == 0
    assert mechanism.density([1, 1, 1], [0, 0, 0]) == 1  # v = 0: both halves equally likely


@pytest.mark.statistical
def test_release_lands_on_the_input_side_with_probability_pi_eps():
    """Unit input: P(<Z, v> > 0) = e^eps/(1+e^eps); two-sided binomial test at 1e-6, power check at 2 eps."""
    mechanism = DuchiLinearQuery(QUERY, 1)
    draws = mechanism.sample([0], 20_000, np.random.default_rng(1))
    hits = int((draws[:, 0] > 0).sum())
    assert scipy.stats.binomtest(hits, 20_000, float(sympy.E / (1 + sympy.E))).pvalue > FAILURE
    broken = DuchiLinearQuery(QUERY, 2).sample([0], 20_000, np.random.default_rng(2))
    assert scipy.stats.binomtest(int((broken[:, 0] > 0).sum()), 20_000, float(sympy.E / (1 + sympy.E))).pvalue < FAILURE


@pytest.mark.statistical
def test_release_is_unbiased():
    """Each coordinate lies in [-B, B]: Hoeffding at 1e-6/3 per coordinate on 40000 draws."""
    mechanism = DuchiLinearQuery(QUERY, 1)
    x = [0, 2, 2, 1]
    draws = mechanism.sample(x, 40_000, np.random.default_rng(3))
    slack = 2 * float(mechanism.release_norm) * np.sqrt(np.log(6 / FAILURE) / (2 * 40_000))
    assert np.all(np.abs(draws.mean(axis=0) - mechanism.values(np.array([x]))[0]) <= slack)


@pytest.mark.parametrize("call, parameter", [
    (lambda: DuchiLinearQuery([[1, 2]], 1), "query"),
    (lambda: DuchiLinearQuery([[0, 0], [0, 0]], 1), "query"),
    (lambda: DuchiLinearQuery(QUERY, 0), "eps"),
    (lambda: DuchiLinearQuery(QUERY, 1).sample([3], 1, np.random.default_rng(0)), "x"),
    (lambda: DuchiLinearQuery(QUERY, 1).randomize([[2, 0, 0]], np.random.default_rng(0)), "v"),
    (lambda: DuchiLinearQuery(QUERY, 1).randomize([[float("nan"), 0, 0]], np.random.default_rng(0)), "v"),
    (lambda: DuchiLinearQuery(QUERY, 1).density([1, 0, 0], [2, 0, 0]), "v"),
])
def test_invalid_arguments_name_the_parameter(call, parameter):
    with pytest.raises(InvalidParameterError, match=f"^{parameter}"):
        call()
