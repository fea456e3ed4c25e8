"""Table 2's comparison helpers: calibration to the common budgets, the conditions, the measured deciders.

Paper: 002_1def8c9789d6e1bd.txt, Section 6.2 and Table 2; specs/imola_metric_dp_user_level.md, 3.4-3.6.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from dpcert.accountant.metric_user_level import hadamard_user_level_delta, lemma_6_4_per_sample_eps
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.metric_user_level import comparison_checks as cc

Q = sympy.Rational


def test_hadamard_calibration_is_private_and_nearly_largest():
    eps0, how = cc.hadamard_calibrated_eps0(1, Q(1, 10**6), 50, steps=8)
    assert hadamard_user_level_delta(eps0, 50, 1).value <= Q(1, 10**6)
    # exact delta at 1.02 eps0 exceeds 1e-6: the bracket was bisected to within 2^-8 of its width
    assert hadamard_user_level_delta(Q(float(eps0) * 1.02), 50, 1).value > Q(1, 10**6)
    # Lemma 6.4's eps0 = 1/sqrt(50 ln(5e7)) = 0.03373 is certified here, and the calibration exceeds it
    assert eps0 > lemma_6_4_per_sample_eps(1, 50, Q(1, 10**6)) and "bisected" in how


def test_freqest_calibration_takes_the_larger_of_shuffle_and_composition():
    small = cc.FrequencySetting(1, Q(1, 10**6), 4, 4, Q(1, 20), 100, 200)
    cal = {c.name: c for c in cc.calibrate_frequency(small, hadamard_eps0=Q(1, 50))}
    # m = 100: Theorem 4.3's condition fails (100 < 16 ln(400 e^20 / 1e-6)), so alpha0 = alpha/m = 20/100
    assert cal["freqest-local"].parameter == Q(1, 5) and "composition" in cal["freqest-local"].accounting
    # central shuffle size nm = 20000: Theorem 4.4 allows more than 1/5 (0.764 by the exact solve)
    assert cal["freqest-central"].parameter > Q(3, 4) and "Theorem 4.4" in cal["freqest-central"].accounting
    assert cal["laplace"].parameter == Q(1, 100) and cal["laplace"].bound.value == Q(16 * 2, 200)


def test_setting_rejects_out_of_range_parameters():
    with pytest.raises(InvalidParameterError, match="r must be in"):
        cc.FrequencySetting(1, Q(1, 10**6), 4, 4, Q(1, 2), 100, 200)
    with pytest.raises(InvalidParameterError, match="n \\* m must be"):
        cc.FrequencySetting(1, Q(1, 10**6), 4, 4, Q(1, 20), 10**4, 10**4)
    with pytest.raises(InvalidParameterError, match="delta"):
        cc.FrequencySetting(1, 1, 4, 4, Q(1, 20), 10, 10)


def test_conditions_at_hand_computed_points():
    # local, L = ln(100/1e-6) = 18.42: eps = 1 < L/4, so the threshold is eps sqrt(k) = 4
    assert cc.local_condition(1, Q(41, 10), Q(1, 10**6), 16, 100)
    assert not cc.local_condition(1, Q(39, 10), Q(1, 10**6), 16, 100)
    # eps = 5 >= L/4 = 4.6: threshold eps^2 k / L = 400/18.42 = 21.7
    assert cc.local_condition(5, 22, Q(1, 10**6), 16, 100) and not cc.local_condition(5, 21, Q(1, 10**6), 16, 100)
    # central, eps = 1 <= sqrt(L/k) = 1.07: threshold sqrt(k L) = 17.17; eps = 2: threshold eps^2 k = 64
    assert cc.central_condition(1, Q(172, 10), Q(1, 10**6), 16, 100)
    assert not cc.central_condition(1, 17, Q(1, 10**6), 16, 100)
    assert cc.central_condition(2, 64, Q(1, 10**6), 16, 100) and not cc.central_condition(2, 63, Q(1, 10**6), 16, 100)


def test_rate_conditions_confirmed_and_a_wrong_threshold_is_caught(monkeypatch):
    assert cc.rate_conditions()[0] is Verdict.CONFIRMED
    # power check: a condition with threshold eps sqrt(k)/2 disagrees with the rates somewhere on the grid
    monkeypatch.setattr(cc, "local_condition",
                        lambda eps, alpha, delta, k, m: Q(alpha) > Q(eps) * sympy.sqrt(k) / 2)
    verdict, evidence = cc.rate_conditions()
    assert verdict is Verdict.REFUTED and evidence.startswith("witness (local)")


def test_mean_interval_is_distribution_free_and_capped():
    # Hoeffding radius sqrt(ln(1/5e-8)/(2 * 10^4)) = 0.0290; an exponential sample (mean 1, unbounded) capped at 6
    values = np.random.default_rng(3).exponential(1.0, size=10_000)
    low, high = cc.mean_interval(values, cap=6.0, proved=1.5)
    radius = np.sqrt(np.log(1 / cc.MEAN_FAILURE) / 20_000)
    assert abs(radius - 0.0290) < 1e-4
    assert low == pytest.approx(np.minimum(values, 6.0).mean() - 6 * radius) and low < 1.0 < high == 1.5
    # errors known to lie in [0, 1]: the upper end is Hoeffding's when below the proved bound
    uniform = np.random.default_rng(4).random(10_000)
    assert cc.mean_interval(uniform, cap=1.0, proved=2.0, almost_sure=1.0)[1] == pytest.approx(uniform.mean() + radius)
    assert cc.mean_interval(uniform, cap=1.0)[1] == np.inf  # no proved bound, no sure range: no upper end
    for bad in ([1.0], [1.0, -0.5], [1.0, np.nan]):
        with pytest.raises(InvalidParameterError):
            cc.mean_interval(bad, cap=1.0)
    with pytest.raises(InvalidParameterError, match="^cap "):
        cc.mean_interval(uniform, cap=0.0)


def test_central_decider_refutes_and_stops_when_the_baseline_errs_as_much(monkeypatch):
    """False-failure probability: all interval ends hold together with probability >= 1 - 1e-6 (seeded);
    power: with the Laplace errors scaled up 20x the intervals overlap and the decider no longer refutes."""
    verdict, evidence = cc.central_comparison_measured()
    assert verdict is Verdict.REFUTED and "d_EM-DP loses" in evidence and "seed 20240617" in evidence
    original = cc.frequency_errors

    def inflated(*args, **kwargs):
        errors = original(*args, **kwargs)
        errors["laplace"] = errors["laplace"] * 20
        return errors

    monkeypatch.setattr(cc, "frequency_errors", inflated)
    assert cc.central_comparison_measured()[0] is Verdict.UNKNOWN
