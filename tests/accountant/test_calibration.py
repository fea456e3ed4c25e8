"""Calibration never overshoots, and the paper's alpha0 recipe (Imola et al., eqs. 6/7) can.

Reference numbers for the recipe come from specs/imola_metric_dp_user_level.md, section 3.2 (the
spec's independent audit of eqs. (6)/(7) against Theorem 4.4's closed form): m = 100, n = 10^6,
delta = 10^-6, target alpha = 10 gives alpha0 = 4.88 and an achieved alpha of 12.2.
"""

from __future__ import annotations

import pytest
import sympy

from accountant.calibration import (
    CALIBRATION_METHODS,
    CALIBRATION_PARAMETERS,
    calibrate_eps0,
    calibrate_imola_alpha0,
    calibration_family,
    imola_recipe_alpha0,
    imola_recipe_check,
)
from accountant.shuffle import imola_theorem_4_4, shuffle_bound
from mechanisms.parameters import InvalidParameterError, exact_sign

R = sympy.Rational


def _round_trip(method, target, n, delta, k):
    result = calibrate_eps0(target, n, delta, method=method, k=k)
    assert result.valid and result.units == "eps0"
    eps0 = result.value
    again = shuffle_bound(method, eps0, n, delta, k=k)
    assert again.valid and again.upper <= float(target)  # never overshoots (certified upper end)
    assert exact_sign(sympy.sympify(again.upper_value) - target) <= 0
    # the bracket's upper end is infeasible (or invalid): the returned eps0 is the largest to tolerance
    hi = float(result.note.rsplit(", ", 1)[1].rstrip(")"))
    if hi != float("inf"):
        above = shuffle_bound(method, R(hi), n, delta, k=k)
        assert not above.valid or above.upper > float(target)
        assert hi - float(eps0) <= 1e-6 * float(eps0) * 1.01
    return result


@pytest.mark.parametrize("method", ["efmrtt19", "fmt21-closed", "fmt21-numeric", "fmt23-closed", "fmt23-numeric",
                                    "blanket-hoeffding", "blanket-bennett", "imola-thm4.3"])
def test_round_trip_is_one_sided(method):
    _round_trip(method, R(1, 10), 10**5, R(1, 10**6), 2)


def test_exact_calibration_at_small_n():
    result = _round_trip("exact", R(1, 2), 200, R(1, 10**4), 2)
    # the exact truth allows a larger eps0 than any bound
    bound = calibrate_eps0(R(1, 2), 200, R(1, 10**4), method="fmt21-numeric", k=2)
    assert result.value >= bound.value


def test_family_and_unusable_methods():
    names = [r.name for r in calibration_family(R(1, 5), 10**4, R(1, 10**6), method="fmt21-numeric")]
    assert names == ["fmt21-numeric"]
    generic = calibrate_eps0(R(1, 10), 10**5, R(1, 10**6), method="fmt23-numeric")
    assert not generic.valid and "erratum" in generic.note
    too_big = calibrate_eps0(R(1, 10), 10**5, R(1, 10**6), method="exact")
    assert not too_big.valid and "too large" in too_big.note
    assert "no-amplification" not in CALIBRATION_METHODS
    assert [p[0] for p in CALIBRATION_PARAMETERS][:3] == ["eps", "n", "delta"]


def test_imola_recipe_eq7_overshoots():
    """Eq. (7), second case: alpha0 = 2 ln(alpha sqrt(n) / (16 sqrt(m L'))) = 4.88 gives alpha = 12.2 > 10."""
    alpha0 = imola_recipe_alpha0(10, 100, R(1, 10**6), n=10**6)
    assert abs(float(alpha0) - 4.8756) < 1e-3
    check = imola_recipe_check(10, 100, R(1, 10**6), n=10**6)
    assert not check.valid and "overshoots" in check.note
    assert abs(float(check.value) - 12.19) < 0.01
    # with target 25: alpha0 = 6.30 and the achieved alpha is 39.4 (spec section 3.2)
    worse = imola_recipe_check(25, 100, R(1, 10**6), n=10**6)
    assert not worse.valid and abs(float(worse.value) - 39.4) < 0.1


def test_imola_recipe_eq6_first_case_is_conservative():
    """Eq. (6), first case: valid but about 8x conservative (achieved ~ 0.125 target)."""
    check = imola_recipe_check(1, 10**4, R(1, 10**6))
    assert check.valid
    assert 0.1 < float(check.value) < 0.15


def test_exact_imola_solve():
    """Concrete example (spec section 6): alpha = 25, m = 1e3, n = 1e5, delta = 1e-12 -> alpha0 ~ 2.405."""
    result = calibrate_imola_alpha0(25, 1000, R(1, 10**12), n=10**5)
    assert result.valid and abs(float(result.value) - 2.405) < 1e-3
    delta_in = R(1, 10**12) * sympy.exp(-25)
    at = imola_theorem_4_4(result.value, 1000, delta_in, n=10**5)
    assert at.valid and exact_sign(at.alpha - 25) <= 0 and exact_sign(at.delta_out - R(1, 10**12)) <= 0
    above = imola_theorem_4_4(result.value * (1 + R(1, 10**6)), 1000, delta_in, n=10**5)
    assert exact_sign(above.alpha - 25) > 0
    # where the recipe overshoots, the exact solve gives a smaller alpha0
    assert calibrate_imola_alpha0(10, 100, R(1, 10**6), n=10**6).value < imola_recipe_alpha0(10, 100, R(1, 10**6), n=10**6)


INVALID = [
    pytest.param(lambda: calibrate_eps0(0, 100, R(1, 10), method="fmt21-numeric"), "eps", id="eps-zero"),
    pytest.param(lambda: calibrate_eps0(1, 1, R(1, 10), method="fmt21-numeric"), "n", id="n-one"),
    pytest.param(lambda: calibrate_eps0(1, 100, 0, method="fmt21-numeric"), "delta", id="delta-zero"),
    pytest.param(lambda: calibrate_eps0(1, 100, R(1, 10), method="no-amplification"), "method", id="method"),
    pytest.param(lambda: calibrate_eps0(1, 100, R(1, 10), method="fmt21-numeric", relative_tolerance=0),
                 "relative_tolerance", id="tolerance"),
    pytest.param(lambda: imola_recipe_alpha0(10**6, 100, R(1, 10**6)), "alpha", id="recipe-out-of-range"),
    pytest.param(lambda: calibrate_imola_alpha0(10, 0, R(1, 10)), "m", id="imola-m"),
]


@pytest.mark.parametrize("function, parameter", INVALID)
def test_invalid_arguments(function, parameter):
    with pytest.raises(InvalidParameterError, match=parameter):
        function()
