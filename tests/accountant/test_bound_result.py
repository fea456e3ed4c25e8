"""BoundResult: each field means one thing (value, enclosure, bounds, upper, lower, valid), in Python and JSON."""

from __future__ import annotations

import json

import pytest
import sympy

from dpcert.accountant.bound_result import BOUNDS, BoundResult
from dpcert.mechanisms.parameters import exact_sign

R = sympy.Rational
THIRD = R(1, 3)  # not a float: every float end is rounded outward


def _result(bounds: str, *, valid: bool = True, certified: bool | None = None, interval: bool = False) -> BoundResult:
    ends = {"lower_value": R(1, 4), "upper_value": THIRD} if interval else {}
    value = (R(1, 4) if bounds == "lower" else THIRD) if interval else THIRD
    return BoundResult("b", "source", value, "eps", valid, "", **ends, bounds=bounds, certified=certified)


@pytest.mark.parametrize("interval", [False, True])
def test_upper_and_lower_exist_only_where_certified(interval):
    upper, lower, exact = (_result(b, interval=interval) for b in BOUNDS)
    lo, hi = upper.enclosure
    assert exact_sign(R(lo) - (R(1, 4) if interval else THIRD)) <= 0 < exact_sign(R(hi) - THIRD)  # outward
    assert (upper.upper, upper.lower) == (hi, None)
    assert (lower.upper, lower.lower) == (None, lo)
    assert (exact.upper, exact.lower) == (hi, lo)
    assert lower.value == (R(1, 4) if interval else THIRD)  # a lower bound's value is its safe (lower) end
    assert exact.certified_upper == THIRD and exact.certified_lower == (R(1, 4) if interval else THIRD)


def test_invalid_results_certify_nothing_unless_said():
    for bounds in BOUNDS:
        result = _result(bounds, valid=False)
        assert result.upper is None and result.lower is None and result.enclosure is not None
    # a certified lower bound that is not its family's answer (the exact shuffle row for k omitted)
    lower = _result("lower", valid=False, certified=True)
    assert lower.lower is not None and lower.upper is None
    # certified does not make an invalid row an upper bound
    assert _result("exact", valid=False, certified=True).upper is None


def test_no_value_no_numbers():
    result = BoundResult("b", "s", None, "eps", False, "why", bounds="exact")
    assert (result.enclosure, result.upper, result.lower) == (None, None, None)
    assert result.as_json()["enclosure"] is None and result.display() == "n/a"


def test_json_fields_and_infinity():
    payload = _result("exact", interval=True).as_json()
    assert set(payload) == {"name", "source", "value", "enclosure", "bounds", "upper", "lower", "units", "valid",
                            "note"}
    assert payload["value"] == "1/3" and payload["enclosure"] == [payload["lower"], payload["upper"]]
    infinite = BoundResult("b", "s", sympy.oo, "nats", True, "vacuous", lower_value=R(2) ** 3000, upper_value=sympy.oo)
    data = infinite.as_json()
    assert data["value"] == "oo" and data["upper"] is None and data["enclosure"][1] is None
    assert data["enclosure"][0] == 1.7976931348623157e308  # the largest float below 2^3000
    json.loads(json.dumps(data, allow_nan=False))  # strict JSON: no Infinity


def test_display_rounds_to_the_safe_side():
    assert _result("upper").display() == "0.33333334"
    assert _result("lower").display() == "0.33333333"
    assert _result("exact", interval=True).display() == "[0.25, 0.33333334]"


@pytest.mark.parametrize("kwargs, message", [({"bounds": "upper bound"}, "bounds"),
                                             ({"valid": True, "certified": False}, "certified")])
def test_construction_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BoundResult("b", "s", THIRD, "eps", **kwargs)
