"""Corollary 6.8 (FreqEstLocal + GKRR in the central model, alpha0 from eq. (7)) against a Monte Carlo of its error.

Configuration: the paper's alpha = 25, m = 1000, delta = 1e-12, n = 1e5 (Section 4.2's concrete example), on
B x C with s = 2, t = 3, r = 1/4. McDiarmid slack as in test_frequency_estimation.py (false failure 1e-6); the
power check runs GKRR at alpha0/100 (1000 trials), which the bound must not cover.
Paper: 002_1def8c9789d6e1bd.txt, Corollary 6.8 and Appendix D.5; spec A16, A20.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from dpcert.accountant.calibration import imola_recipe_alpha0
from dpcert.accountant.metric_user_level import corollary_6_8_bound, theorem_6_6_bound
from dpcert.mechanisms.metric_user_level import FreqEstLocal, GeneralizedKRR
from dpcert.mechanisms.parameters import InvalidParameterError

R = sympy.Rational
FAILURE = 1e-6
S, T, RADIUS, M, N, ALPHA, DELTA = 2, 3, R(1, 4), 1000, 10**5, 25, R(1, 10**12)


def mean_error(alpha0: sympy.Expr, trials: int, seed: int) -> tuple[float, float]:
    """Mean d_EM(F~, K~) over ``trials`` (tree closed form of the KR norm) and its McDiarmid slack."""
    mechanism = GeneralizedKRR(alpha0, S, T, RADIUS)
    users = np.tile(np.arange(S * T), (N, M // (S * T) + 1))[:, :M]
    draws = FreqEstLocal(mechanism, "central").sample(users, trials, np.random.default_rng(seed))
    target = np.bincount(users.ravel(), minlength=S * T) / users.size
    B = mechanism.float_inverse_matrix()
    spread = max(np.abs(B[i] - B[j]).sum() for i in range(len(B)) for j in range(len(B)))
    slack = spread * math.sqrt(math.log(1 / FAILURE) / (8 * trials * M * N))
    return float(mechanism.metric.kantorovich_rubinstein_norm(draws - target).mean()), slack


@pytest.mark.statistical
def test_corollary_6_8_bounds_the_central_error_and_not_a_noisier_one():
    bound = corollary_6_8_bound(ALPHA, DELTA, S, T, RADIUS, M, N)
    alpha0 = imola_recipe_alpha0(ALPHA, M, DELTA, n=N)
    assert bound.valid
    error, slack = mean_error(sympy.nsimplify(float(alpha0)), 100, 11)
    assert error - slack <= float(theorem_6_6_bound(alpha0, S, T, RADIUS, M, N).value) <= float(bound.value)
    noisy, noisy_slack = mean_error(sympy.nsimplify(float(alpha0)) / 100, 1000, 12)
    assert noisy - noisy_slack > float(bound.value)


def test_closed_form_value():
    """4 sqrt(k^3/(mn)) + 64 sqrt(k^3)/(alpha n) sqrt(ln(4 m e^alpha/delta)), k = 6, by hand."""
    k = 6
    expected = 4 * math.sqrt(k**3 / (M * N)) + 64 * math.sqrt(k**3) / (ALPHA * N) * math.sqrt(
        math.log(4 * M) + ALPHA + 12 * math.log(10))
    assert math.isclose(float(corollary_6_8_bound(ALPHA, DELTA, S, T, RADIUS, M, N).value), expected, rel_tol=1e-12)


@pytest.mark.parametrize("call, parameter", [
    (lambda: corollary_6_8_bound(0, DELTA, S, T, RADIUS, M, N), "alpha"),
    (lambda: corollary_6_8_bound(ALPHA, 2, S, T, RADIUS, M, N), "delta"),
    (lambda: corollary_6_8_bound(ALPHA, DELTA, S, T, R(1, 2), M, N), "r"),
    (lambda: corollary_6_8_bound(ALPHA, DELTA, S, T, RADIUS, 0, N), "m"),
])
def test_invalid_arguments_name_the_parameter(call, parameter):
    with pytest.raises(InvalidParameterError, match=f"^{parameter}"):
        call()
