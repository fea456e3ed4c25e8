"""The user-level baselines' accounting and error bounds (Lemmas 6.1, 6.4, 6.7) against independent oracles.

Oracles: the exact checker on the m-item Hadamard release; a 50-digit mpmath sum over the trinomial law of the
privacy loss; the m-fold randomized response binomial sum; Monte Carlo errors with McDiarmid/Hoeffding slack
(false failure <= 1e-6 each) and a power check on a deliberately noisier variant.
Paper: 002_1def8c9789d6e1bd.txt, Lemmas 6.1, 6.4, 6.7; spec specs/imola_metric_dp_user_level.md A7, A8.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy

from dpcert.accountant.metric_user_level import (
    hadamard_user_level_delta,
    lemma_6_1_bound,
    lemma_6_4_bound,
    lemma_6_4_composition,
    lemma_6_4_per_sample_eps,
    lemma_6_4_rate,
    lemma_6_7_bound,
)
from dpcert.mechanisms.metric_user_level import (
    CentralLaplaceHistogram,
    DuchiLinearQuery,
    HadamardFreqEst,
    HadamardResponse,
    PrivEMDItemWise,
)
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.exact import check_finite
from dpcert.proofs.guarantees import ApproxDP

R = sympy.Rational
FAILURE = 1e-6
LOG = math.log(1 / FAILURE)


def trinomial_delta(eps0: float, m: int, eps: float) -> mpmath.mpf:
    """delta(eps) = sum over (a, b) of P(a, b) max(0, 1 - e^(eps - (a - b) eps0)), 50 digits, every term."""
    with mpmath.workdps(50):
        e0 = mpmath.mpf(eps0)
        p, q = mpmath.exp(e0) / (2 * (1 + mpmath.exp(e0))), 1 / (2 * (1 + mpmath.exp(e0)))
        total = mpmath.mpf(0)
        for a in range(m + 1):
            for b in range(m - a + 1):
                gain = 1 - mpmath.exp(mpmath.mpf(eps) - (a - b) * e0)
                if gain > 0:
                    weight = mpmath.factorial(m) / (mpmath.factorial(a) * mpmath.factorial(b) * mpmath.factorial(m - a - b))
                    total += weight * p**a * q**b * mpmath.mpf(2) ** -(m - a - b) * gain
        return +total


def test_hadamard_delta_matches_the_exact_checker():
    """Exact hockey-stick of the m-item release over all pairs of datasets (k = 3, m = 4, eps0 = 1/3)."""
    release = PrivEMDItemWise(HadamardResponse(3, R(1, 3)), 4)
    exact = check_finite(release, ApproxDP(R(1, 4), R(1, 10**9)), relation=AllPairs()).delta
    result = hadamard_user_level_delta(R(1, 3), 4, R(1, 4))
    assert result.lower_value <= exact <= result.upper_value


@pytest.mark.parametrize("eps0, m, eps", [(R(1, 5), 60, R(1, 2)), (R(1, 20), 150, R(3, 4))])
def test_hadamard_delta_matches_the_trinomial_sum(eps0, m, eps):
    oracle = trinomial_delta(float(eps0), m, float(eps))  # float inputs: the 1e-12 tolerance covers their rounding
    result = hadamard_user_level_delta(eps0, m, eps)
    assert float(result.lower_value) <= float(oracle) * (1 + 1e-12) and float(oracle) <= float(result.upper_value) * (1 + 1e-12)
    assert float(result.upper_value - result.lower_value) <= 1e-12 * float(oracle)


def test_generic_composition_fails_where_hadamard_holds():
    """At the paper's m = 1000, delta = 1e-12 (eps = 1): m-fold randomized response at Lemma 6.4's eps0 needs
    delta(1) = sum_l C(m,l) max(e^((m-l)e0) - e e^(l e0), 0)/(1+e^e0)^m > 1e-12 (oracle: 50-digit sum), so the
    optimal composition's eps' > 1; Hadamard response's own delta(1) is below 1e-18."""
    eps0 = float(lemma_6_4_per_sample_eps(1, 1000, R(1, 10**12)))
    with mpmath.workdps(50):
        e0 = mpmath.mpf(eps0)
        rr = sum(mpmath.binomial(1000, l) * max(mpmath.exp((1000 - l) * e0) - mpmath.e * mpmath.exp(l * e0), 0)
                 for l in range(1001)) / (1 + mpmath.exp(e0)) ** 1000
    assert rr > 1e-12
    composed = lemma_6_4_composition(1, 1000, R(1, 10**12))
    assert composed.lower_value > 1
    assert hadamard_user_level_delta(lemma_6_4_per_sample_eps(1, 1000, R(1, 10**12)), 1000, 1).upper_value < R(1, 10**18)


def test_rate_dominates_the_variance_bound_where_it_claims_to():
    rate = lemma_6_4_rate(1, R(1, 10**6), 6, 1000, 100)
    assert rate.valid and rate.value >= lemma_6_4_bound(lemma_6_4_per_sample_eps(1, R(10**3), R(1, 10**6)), 6, 1000, 100).value
    assert not lemma_6_4_rate(2000, R(1, 2), 50, 2, 1).valid  # eps0 sqrt(k) > 12: not claimed


def _hadamard_tv_errors(eps0, users, trials, seed):
    estimator = HadamardFreqEst(HadamardResponse(6, eps0))
    draws = estimator.sample(users, trials, np.random.default_rng(seed))
    return 0.5 * np.abs(draws - estimator.normalised_histogram(users)).sum(axis=1), estimator.estimator


@pytest.mark.statistical
def test_lemma_6_4_bound_holds_and_fails_for_a_noisier_randomizer():
    """Discrete metric (d_EM = half the l1 norm of a mass-0 vector). McDiarmid: one item's output moves the mean
    error by <= D/(2 m n T), D = max ||B'_y - B'_y'||_1, so P(mean - E >= D sqrt(ln(1/F)/(8 T m n))) <= F = 1e-6."""
    m, n, trials = 20, 50, 2000
    users = np.zeros((n, m), dtype=np.int64)
    bound = float(lemma_6_4_bound(R(1, 2), 6, m, n).value)
    errors, B = _hadamard_tv_errors(R(1, 2), users, trials, 5)
    spread = max(np.abs(B[i] - B[j]).sum() for i in range(len(B)) for j in range(len(B)))
    slack = spread * math.sqrt(LOG / (8 * trials * m * n))
    assert errors.mean() - slack <= bound
    noisier, B4 = _hadamard_tv_errors(R(1, 4), users, trials, 6)
    spread4 = max(np.abs(B4[i] - B4[j]).sum() for i in range(len(B4)) for j in range(len(B4)))
    assert noisier.mean() - spread4 * math.sqrt(LOG / (8 * trials * m * n)) > bound


@pytest.mark.statistical
def test_lemma_6_7_bound_holds_and_fails_at_eight_times_the_scale():
    """Errors d_EM(K~, F~) on the discrete metric lie in [0, 1]: Hoeffding slack sqrt(ln(1/F)/(2T)), F = 1e-6."""
    n, trials = 50, 4000
    users = np.zeros((n, 20), dtype=np.int64)
    bound = float(lemma_6_7_bound(1, 6, n).value)
    slack = math.sqrt(LOG / (2 * trials))
    for eps, holds in ((1, True), (R(1, 8), False)):
        mechanism = CentralLaplaceHistogram(eps, 6)
        draws = mechanism.sample(users, trials, np.random.default_rng(7))
        mean = (0.5 * np.abs(draws - mechanism.normalised_histogram(users)).sum(axis=1)).mean()
        assert (mean - slack <= bound) if holds else (mean - slack > bound)


@pytest.mark.statistical
def test_lemma_6_1_bound_holds_and_fails_at_half_eps():
    """One user's release moves the mean error by <= 2B/(nT): McDiarmid slack 2B sqrt(ln(1/F)/(2nT)), F = 1e-6."""
    n, trials = 200, 2000
    datasets = np.array([[0, 1, 2]] * n)
    for eps, holds in ((1, True), (R(1, 2), False)):
        mechanism = DuchiLinearQuery([[1, 0, R(1, 2)], [0, 1, R(-1, 2)]], eps)
        rng = np.random.default_rng(8)
        target = mechanism.values(datasets).mean(axis=0)
        errors = np.array([np.linalg.norm(mechanism.estimate(datasets, rng) - target) for _ in range(trials)])
        slack = 2 * float(mechanism.release_norm) * math.sqrt(LOG / (2 * n * trials))
        bound = float(lemma_6_1_bound(1, mechanism.radius, 2, n).value)
        assert (errors.mean() - slack <= bound) if holds else (errors.mean() - slack > bound)


def test_closed_forms():
    assert lemma_6_7_bound(R(1, 2), 10, 100).value == R(2 * 10, 50)
    assert lemma_6_4_per_sample_eps(2, 10, R(1, 10)) == 2 / sympy.sqrt(10 * sympy.log(100))
    # coth(eps/2) sqrt(pi) Gamma(3/2)/Gamma(1) = coth(1/2) pi/2 at d = 2, R = 1 (Duchi et al.'s B)
    assert sympy.simplify(lemma_6_1_bound(1, 1, 2, 1).value - (sympy.E + 1) / (sympy.E - 1) * sympy.pi / 2) == 0


@pytest.mark.parametrize("call, parameter", [
    (lambda: lemma_6_4_per_sample_eps(1, 10, 1), "delta"),
    (lambda: lemma_6_4_per_sample_eps(0, 10, R(1, 2)), "eps"),
    (lambda: hadamard_user_level_delta(1, 10**6, 1), "m"),
    (lambda: lemma_6_4_bound(1, 1, 10, 10), "k"),
    (lambda: lemma_6_7_bound(1, 6, 0), "n"),
    (lambda: lemma_6_1_bound(1, 0, 2, 1), "radius"),
])
def test_invalid_arguments_name_the_parameter(call, parameter):
    with pytest.raises(InvalidParameterError, match=f"^{parameter}"):
        call()
