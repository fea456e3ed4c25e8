"""One-sided calibration: the certified eps at the returned value meets the target, and one step further does
not (so the value is as tight as the search's tolerance). Reference: the exact Gaussian (Balle and Wang 2018):
sigma with k = 10 steps at eps 17.856586830, delta = 1e-5 is 1 (the issue's reference value)."""

from __future__ import annotations

import pytest

from dpcert.accountant.pld_calibration import calibrate
from dpcert.mechanisms.parameters import InvalidParameterError


def test_sigma_meets_the_target_and_is_near_the_exact_answer():
    found = calibrate(["gaussian:sigma=?*10"], "17.856586830", "1e-5")
    assert found.parameter == "sigma" and found.result.upper <= 17.856586830
    assert 1.0 <= float(found.value) <= 1.01  # never below the exact sigma = 1; within the search gap above it
    assert float(found.infeasible) < float(found.value)


def test_count_is_the_largest_meeting_the_target():
    found = calibrate(["gaussian:sigma=1,q=0.01*?"], 1, "1e-5")
    assert found.result.upper <= 1 and int(found.infeasible) == int(found.value) + 1


def test_q_is_calibrated_downwards():
    found = calibrate(["gaussian:sigma=1,q=?*100"], 1, "1e-5")
    assert found.result.upper <= 1 and float(found.infeasible) > float(found.value)


@pytest.mark.parametrize(("specs", "target", "message"), [
    (["gaussian:sigma=1*10"], 1, "exactly one '\\?'"),
    (["gaussian:sigma=?,q=?*10"], 1, "exactly one '\\?'"),
    (["k-rr:k=?,eps=1"], 1, "can be calibrated"),
    (["gaussian:sigma=?*10"], 0, "target_eps must be"),
])
def test_bad_input(specs, target, message):
    with pytest.raises(InvalidParameterError, match=message):
        calibrate(specs, target, "1e-5")
