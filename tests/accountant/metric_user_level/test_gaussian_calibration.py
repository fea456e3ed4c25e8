"""The corrected Gaussian width for PrivEMDLinear (002_1def8c9789d6e1bd.txt, Section 4.1 / Lemma 6.2; spec A4),
checked against the exact Balle-Wang hockey-stick (ICML 2018, Theorem 8) at every distance on a grid."""

from __future__ import annotations

import pytest
import sympy

from dpcert.accountant.metric_user_level.gaussian_calibration import emd_gaussian_sigma
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign
from dpcert.proofs.symbolic.closed_form_deltas import gaussian_delta

R = sympy.Rational
CASES = [(R(1, 10), R(1, 10**12), 1), (1, R(1, 10**6), 1), (25, R(1, 10**12), R(1, 3)), (R(1, 2), R(1, 1000), 2)]


@pytest.mark.parametrize("alpha, delta, ell", CASES)
def test_sigma_meets_delta_at_every_distance_and_is_tight(alpha, delta, ell):
    sigma = emd_gaussian_sigma(alpha, delta, ell=ell).value
    # pairs at d_EM = w: query values ell w apart, allowed eps = alpha w; the worst is w = 1
    needed = [gaussian_delta(alpha * w, sigma, ell * w) for w in (R(1, 100), R(1, 10), R(1, 2), R(9, 10), 1)]
    assert all(exact_sign(x - delta) <= 0 for x in needed)
    assert all(exact_sign(b - a) > 0 for a, b in zip(needed, needed[1:]))  # increasing in w, as the proof says
    # tight: a sigma smaller by a relative 1e-6 no longer meets delta at d_EM = 1
    assert exact_sign(gaussian_delta(alpha, sigma * (1 - R(1, 10**6)), ell) - delta) > 0


def test_the_papers_width_is_too_small_where_the_registry_refutes_it():
    sigma = emd_gaussian_sigma(R(1, 10), R(1, 10**12)).value
    printed = sympy.sqrt(R(5, 4) * sympy.log(10**12)) / R(1, 10)
    assert exact_sign(printed - sigma) < 0


@pytest.mark.parametrize("arguments, parameter", [
    ({"alpha": 0, "delta": R(1, 100)}, "alpha"), ({"alpha": 1, "delta": 0}, "delta"), ({"alpha": 1, "delta": 1}, "delta"),
    ({"alpha": 1, "delta": R(1, 100), "ell": -1}, "ell"),
])
def test_bad_input_names_the_parameter(arguments, parameter):
    with pytest.raises(InvalidParameterError, match=parameter):
        emd_gaussian_sigma(**arguments)
