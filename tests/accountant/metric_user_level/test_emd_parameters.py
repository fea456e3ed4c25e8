"""The paper's concrete-example arithmetic (dpcert.accountant.metric_user_level.emd_parameters), against its printed numbers.

References: 002_1def8c9789d6e1bd.txt, Section 3 (Concrete Example: alpha = 25), Section 4.1 (noise 0.04 per
user, 1.26e-4 aggregate, 1.6 miles), Section 4.2 (alpha0 = alpha/m = 0.025); specs/imola_metric_dp_user_level.md,
sections 2.5 and 6 and T28 (1.2649e-4 and 1.64 miles, the spec's recomputation to its printed digits).
"""

from __future__ import annotations

import pytest
import sympy
from conftest import assert_rejects

from dpcert.accountant.metric_user_level.emd_parameters import alpha_for_goals, composition_alpha0, linear_query_noise

R = sympy.Rational
MILES = 12930  # the paper's footnote: the largest surface distance on Earth, used to normalize d_X
LOCATION_GOALS = ((R(1, 5), R(1, 30), R(8, 100)), (R(1, 5), 1, R(8, 1000)))  # (eps, tau, q) of Section 3


def test_spec_t28_alpha_is_25():
    """T28: alpha = min{0.2/((1/30) 0.08), 0.2/(1 0.008)} = min{75, 25} = 25 (Section 3, printed 25)."""
    alpha = alpha_for_goals(LOCATION_GOALS)
    assert alpha == 25
    assert alpha_for_goals(LOCATION_GOALS[:1]) == 75  # the day goal alone would allow 75
    assert alpha_for_goals([("0.2", "1/30", "0.08"), ("0.2", "1", "0.008")]) == 25  # command-line style input


def test_spec_t28_linear_query_noise():
    """T28: l/alpha = 0.04 per user; 0.04/sqrt(1e5) = 1.2649e-4 (spec; paper 1.26e-4), x 12930 = 1.64 miles
    (spec; paper 1.6)."""
    alpha = alpha_for_goals(LOCATION_GOALS)
    assert linear_query_noise(1, alpha) == R(1, 25)
    aggregate = linear_query_noise(1, alpha, n=10**5)
    assert float(aggregate) == pytest.approx(1.2649e-4, abs=5e-9)
    assert float(aggregate) == pytest.approx(1.26e-4, abs=5e-7)
    assert float(aggregate * MILES) == pytest.approx(1.64, abs=5e-3)
    assert float(aggregate * MILES) == pytest.approx(1.6, abs=5e-2)


def test_spec_t28_composition_alpha0():
    """T28: composition needs alpha0 = alpha/m = 25/1000 = 0.025 per item (Section 4.2)."""
    assert composition_alpha0(alpha_for_goals(LOCATION_GOALS), 1000) == R(25, 1000)


@pytest.mark.parametrize("call, parameter", [
    (lambda: alpha_for_goals([]), "goals"),
    (lambda: alpha_for_goals("abc"), "goals"),
    (lambda: alpha_for_goals([(1, 1)]), "goals[0]"),
    (lambda: alpha_for_goals([(0, 1, 1)]), "goals[0].eps"),
    (lambda: alpha_for_goals([(1, 2, 1)]), "goals[0].tau"),
    (lambda: alpha_for_goals([(1, 1, 1), (1, 1, 0)]), "goals[1].q"),
    (lambda: composition_alpha0(0, 10), "alpha"),
    (lambda: composition_alpha0(1, 0), "m"),
    (lambda: linear_query_noise(0, 1), "ell"),
    (lambda: linear_query_noise(1, -1), "alpha"),
    (lambda: linear_query_noise(1, 1, n="1/2"), "n"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Every public function rejects out-of-range input with InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
