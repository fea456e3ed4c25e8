"""The ledger with mechanisms of the numerical accountant: a DP-SGD run and a Laplace histogram recorded in one
place, the certified numerical bound beside the (eps, delta) ones, and the closed-form check that a ledger of
Gaussians gives what one Gaussian of mu = sqrt(sum (1/sigma_i)^2) gives (Balle and Wang 2018)."""

from __future__ import annotations

import sympy

from dpcert.accountant.gaussian_composition import gaussian_epsilon
from dpcert.accountant.ledger import PrivacyLedger


def test_a_ledger_of_gaussians_encloses_the_closed_form():
    ledger = PrivacyLedger()
    ledger.record_mechanism("first release", "gaussian:sigma=2*3")
    ledger.record_mechanism("second release", "gaussian:sigma=1")
    truth = gaussian_epsilon(sympy.sqrt(sympy.Rational(3, 4) + 1), sympy.Rational(1, 10**6))
    result = ledger.numerical("1e-6")
    assert result.valid and result.lower <= truth.lower and truth.upper <= result.upper
    assert "first release" in result.note


def test_mixed_ledger_reports_every_bound_and_says_why_the_eps_bounds_do_not_apply():
    ledger = PrivacyLedger()
    ledger.record("histogram", 1)
    ledger.record_mechanism("training", "gaussian:sigma=4,q=0.01*100")
    results = {r.name: r for r in ledger.summary("1e-6")}
    assert set(results) == {"basic", "advanced", "optimal", "exact", "pld"}
    assert not results["basic"].valid and "training" in results["basic"].note
    assert results["pld"].valid and results["pld"].lower > 1  # the histogram alone costs eps = 1 at delta = 0
