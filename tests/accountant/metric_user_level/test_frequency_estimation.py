"""Theorems 6.5 and 6.6 (utility of FreqEstLocal with GKRR on B x C): Monte Carlo, proof steps, norms.

Spec items: specs/imola_metric_dp_user_level.md section 7, T22, T23, T25.
Paper: 002_1def8c9789d6e1bd.txt, Theorems 6.5 and 6.6, Appendices D.2 and D.3.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from dpcert.accountant.metric_user_level.frequency_estimation import (
    norm_1_to_2,
    theorem_6_5_bound,
    theorem_6_6_bound,
    theorem_6_6_steps,
)
from conftest import assert_rejects
from dpcert.mechanisms.parameters import cancel_exponentials, exact_sign
from dpcert.mechanisms.metric_user_level import FreqEstLocal, GeneralizedKRR, kantorovich_rubinstein_norm

R = sympy.Rational

# The three configurations of spec section 3.4, (s, t, r, alpha0, m, n), with the spec's values of eq. (8)
# and Theorem 6.6 (printed to 3 decimals: tolerance 5e-4).
CONFIGS = [
    (3, 3, R(1, 5), 1, 50, 20),
    (2, 4, R(1, 10), 2, 30, 30),
    (4, 2, R(3, 10), R(1, 2), 40, 10),
]
SPEC_VALUES = {0: (0.549, 0.834), 1: (0.211, 0.312), 2: (1.935, 2.949)}
TRIALS = 2000
FAILURE = 1e-6


def mcdiarmid_slack(B: np.ndarray, m: int, n: int, trials: int) -> float:
    """How far the mean of ``trials`` errors d_EM(F~, K~) may exceed its expectation, w.p. <= FAILURE.

    Changing one randomized item's output y -> y' moves F~ by (B_y' - B_y)/(mn), a zero-mass vector (B 1 = 1),
    so the error (a KR norm with diameter 1) moves by at most D/(2mn), D = max ||B_y - B_y'||_1. The mean of
    the trials is a function of trials * mn independent outputs, each moving it by D/(2mn trials); McDiarmid's
    inequality gives P(mean - E >= eps) <= exp(-8 eps^2 trials mn / D^2).
    """
    spread = max(np.abs(B[i] - B[j]).sum() for i in range(len(B)) for j in range(len(B)))
    return spread * math.sqrt(math.log(1 / FAILURE) / (8 * trials * m * n))


def monte_carlo_error(mechanism: GeneralizedKRR, users: np.ndarray, estimator: np.ndarray, seed: int) -> float:
    """Mean over TRIALS of d_EM(v estimator, K~), the KR norm in its tree closed form (checked against the LP).

    FreqEstLocal draws F~ = v A^{-1}; v = F~ A is recovered to apply ``estimator`` instead of A^{-1}.
    """
    draws = FreqEstLocal(mechanism).sample(users, TRIALS, np.random.default_rng(seed))
    estimates = draws @ mechanism.float_transition_matrix() @ estimator
    target = np.bincount(users.ravel(), minlength=mechanism.metric.k) / users.size
    errors = mechanism.metric.kantorovich_rubinstein_norm(estimates - target)
    lp = [kantorovich_rubinstein_norm(e - target, mechanism.metric.float_matrix()) for e in estimates[:10]]
    assert errors[:10] == pytest.approx(lp, abs=1e-9)  # the closed form is the LP of spec section 8, A21
    return float(errors.mean())


@pytest.mark.statistical
@pytest.mark.parametrize("s, t, r, alpha0, m, n", CONFIGS)
def test_theorem_6_5_and_6_6_bound_the_monte_carlo_error(s, t, r, alpha0, m, n):
    """T22: mean d_EM(F~, K~) <= eq. (8) <= Theorem 6.6, for concentrated and random datasets K.

    The Monte Carlo mean is compared with eq. (8) plus the McDiarmid slack, so a false failure (the theorem
    being true) has probability <= 1e-6 per dataset; eq. (8) <= Theorem 6.6 is decided exactly. Stays a test
    although Theorems 6.5 and 6.6 are the paper's: 2000 Monte Carlo trials per dataset exceed a claim's
    one-second budget (the proof's norm chains are the claim thm6.6-norm-bounds).
    """
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    eq8 = theorem_6_5_bound(mechanism.inverse_matrix, s, t, r, m, n)
    closed = theorem_6_6_bound(alpha0, s, t, r, m, n)
    assert exact_sign(closed.value - eq8.value) >= 0
    spec_eq8, spec_closed = SPEC_VALUES[CONFIGS.index((s, t, r, alpha0, m, n))]
    assert eq8.upper == pytest.approx(spec_eq8, abs=5e-4) and closed.upper == pytest.approx(spec_closed, abs=5e-4)
    estimator = FreqEstLocal(mechanism).estimator
    rng = np.random.default_rng(71)
    for users in (np.zeros((n, m), dtype=int), rng.integers(0, s * t, (n, m))):
        error = monte_carlo_error(mechanism, users, estimator, seed=72)
        assert error <= eq8.upper + mcdiarmid_slack(estimator, m, n, TRIALS)
        assert error < eq8.upper  # the margin is large (spec: 0.211 vs 0.549, 0.082 vs 0.211, 0.694 vs 1.935)


@pytest.mark.statistical
def test_power_a_biased_estimator_breaks_eq_8():
    """Power check for T22: with B = I (no debiasing; I is not a right inverse of A), eq. (8) evaluates to 0
    while the mean error is the bias d_EM(K~ A, K~) > 0; the same Monte Carlo comparison must fail."""
    s, t, r, alpha0, m, n = CONFIGS[2]
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    identity = np.eye(s * t)
    bound = theorem_6_5_bound(sympy.eye(s * t), s, t, r, m, n)
    assert bound.value == 0
    error = monte_carlo_error(mechanism, np.zeros((n, m), dtype=int), identity, seed=73)
    assert error > bound.upper + mcdiarmid_slack(identity, m, n, TRIALS)


@pytest.mark.parametrize("alpha0", [R(1, 10), R(1, 2), 1, 2, 5])
@pytest.mark.parametrize("s, t, r", [(2, 2, R(1, 4)), (3, 2, R(1, 5)), (2, 3, R(2, 5)), (1, 3, R(1, 3))])
def test_theorem_6_6_proof_chains_hold_exactly(alpha0, s, t, r):
    """T23: ||(A^{-1})^T||^2 - 1 <= (a')^2 - 1 <= (t(e^a0 + s)/(e^a0 - e^((1-r)a0)))^2 and
    ||(A^{-1}P)^T||^2 - 1 <= (stc')^2 - 2stc' <= s t^2 (s + 2(e^a0 - 1))/Z'^2, decided exactly."""
    steps = theorem_6_6_steps(alpha0, s, t, r)
    assert steps.holds()
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    a, b, c = mechanism.inverse_coefficients
    # Appendix D.3's identities for the exact quantities (row structure of A^{-1} and A^{-1} P)
    within = (a + b + c) ** 2 + (t - 1) * (b + c) ** 2 + (s - 1) * t * c**2 - 1
    between = s * (s - 1) * (t * c) ** 2 - 2 * (s - 1) * t * c
    assert cancel_exponentials(steps.within[0].value - within) == 0
    assert cancel_exponentials(steps.between[0].value - between) == 0


def test_theorem_6_6_steps_can_fail():
    """The chain check is not vacuous: the reversed comparison (a')^2 - 1 <= ||(A^{-1})^T||^2 - 1 is false."""
    steps = theorem_6_6_steps(1, 2, 2, R(1, 4))
    assert exact_sign(steps.within[0].value - steps.within[1].value) < 0
    assert exact_sign(steps.between[0].value - steps.between[1].value) < 0


def test_printed_intermediate_step_of_appendix_d3_is_false_for_large_alpha0():
    """Erratum (Appendix D.3): the step bounding (a')^2 - 1 by
    [t^2 e^(2a0) + 2(s-1)t^2 e^a0 + (s-1)^2 t^2 + 2t e^(2a0) + 2(s-1)t e^a0] / D^2 and then by (t(e^a0 + s)/D)^2
    fails in its last inequality at alpha0 = 3, s = t = 2 (D = e^a0 - e^((1-r) a0)), although the end points
    still compare correctly: (a')^2 - 1 <= (t(e^a0 + s)/D)^2 since Z <= t e^a0 + (s - 1) t."""
    s, t, r, alpha0 = 2, 2, R(1, 4), 3
    e, e_cluster = sympy.exp(alpha0), sympy.exp((1 - r) * alpha0)
    gap = e - e_cluster
    printed = (t**2 * e**2 + 2 * (s - 1) * t**2 * e + (s - 1) ** 2 * t**2 + 2 * t * e**2 + 2 * (s - 1) * t * e) / gap**2
    steps = theorem_6_6_steps(alpha0, s, t, r)
    assert exact_sign(printed - steps.within[1].value) >= 0  # the first inequality of the step holds
    assert exact_sign(steps.within[2].value - printed) < 0  # the last one does not
    assert steps.holds()


@pytest.mark.parametrize("alpha0, s, t, r, m, n", [(1, 3, 3, R(1, 5), 50, 20), ("log(4)", 2, 2, R(1, 3), 7, 3)])
def test_bounds_are_exact_with_outward_floats(alpha0, s, t, r, m, n):
    """Both bounds are exact sympy values whose floats bracket them (upper >= value >= lower)."""
    for bound in (theorem_6_5_bound(GeneralizedKRR(alpha0, s, t, r).inverse_matrix, s, t, r, m, n),
                  theorem_6_6_bound(alpha0, s, t, r, m, n)):
        assert not bound.value.has(sympy.Float)
        lo, hi = bound.enclosure
        assert hi == bound.upper and exact_sign(sympy.Rational(hi) - bound.value) >= 0
        assert exact_sign(bound.value - sympy.Rational(lo)) >= 0
        assert bound.valid and bound.source.startswith("002_1def8c9789d6e1bd.txt")


def test_norm_1_to_2_is_the_largest_column_norm():
    """T25: ||M||_{1->2} = max_j ||M[:, j]||_2 = sup over the l1 ball, attained at a vertex +-e_j; random points
    of the l1 ball never exceed it; and ||M N||_{1->2} <= ||M||_{2->2} ||N||_{1->2} (submultiplicativity).
    Stays a test: standard norm facts checked against dpcert's helper, not a statement of the paper."""
    rng = np.random.default_rng(74)
    for trial in range(10):
        M = rng.integers(-5, 6, (3, 4))
        N = rng.integers(-5, 6, (4, 5))
        exact = norm_1_to_2(M.tolist())
        assert exact == sympy.sqrt(max(int((M[:, j] ** 2).sum()) for j in range(4)))
        vertices = max(np.linalg.norm(M @ (sign * np.eye(4)[j])) for j in range(4) for sign in (1, -1))
        assert vertices == pytest.approx(float(exact), rel=1e-12)
        points = rng.laplace(size=(2000, 4))
        points /= np.abs(points).sum(axis=1, keepdims=True) / rng.random((2000, 1))  # inside the l1 ball
        assert np.linalg.norm(points @ M.T, axis=1).max() <= float(exact) * (1 + 1e-12)
        assert float(norm_1_to_2((M @ N).tolist())) <= np.linalg.norm(M, 2) * float(norm_1_to_2(N.tolist())) + 1e-9


@pytest.mark.parametrize("call, parameter", [
    (lambda: theorem_6_5_bound([[1, 0], [0, 1]], 2, 2, R(1, 4), 5, 5), "B"),
    (lambda: theorem_6_5_bound([[1, 0, 0, 0]] * 4, 2, 2, R(1, 4), 0, 5), "m"),
    (lambda: theorem_6_5_bound("B", 2, 2, R(1, 4), 5, 5), "B"),
    (lambda: theorem_6_6_bound(0, 2, 2, R(1, 4), 5, 5), "alpha0"),
    (lambda: theorem_6_6_bound(1, 2, 2, R(1, 2), 5, 5), "r"),
    (lambda: theorem_6_6_bound(1, 0, 2, R(1, 4), 5, 5), "s"),
    (lambda: theorem_6_6_bound(1, 2, 2, R(1, 4), 5, "1.5"), "n"),
    (lambda: theorem_6_6_steps(1, 1, 1, R(1, 4)), "t"),
    (lambda: norm_1_to_2([]), "matrix"),
], ids=["B-shape", "m-zero", "B-string", "alpha0-zero", "r-half", "s-zero", "n-fraction", "t-one-point",
        "matrix-empty"])
def test_invalid_arguments_name_the_parameter(call, parameter):
    assert_rejects(call, parameter)
