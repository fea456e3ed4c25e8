"""The K-norm deciders (Lemma 6.3, Table 2): their verdicts, and that each refutes a deliberately broken variant."""

from __future__ import annotations

from dpcert.mechanisms.metric_user_level.knorm import KNormMechanism
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.metric_user_level import knorm_checks


def test_privacy_is_confirmed_with_the_sup_attained():
    verdict, evidence = knorm_checks.knorm_privacy()
    assert verdict is Verdict.CONFIRMED and "240 replace-one-user pairs" in evidence and "equality at" in evidence


def test_privacy_decider_refutes_a_polytope_half_too_small(monkeypatch):
    """Noise calibrated to D/2 (a gauge twice as large) doubles the sensitivity: the decider names a witness."""
    gauge = KNormMechanism._gauge  # every gauge, density and log ratio of the mechanism goes through it
    monkeypatch.setattr(KNormMechanism, "_gauge", lambda self, v: 2 * gauge(self, v))
    verdict, evidence = knorm_checks.knorm_privacy()
    assert verdict is Verdict.REFUTED and evidence.startswith("witness d=1")


def test_error_rate_is_confirmed_below_the_circumradius_bound():
    verdict, evidence = knorm_checks.knorm_error_rate()
    assert verdict is Verdict.CONFIRMED and "d=4" in evidence


def test_error_decider_refutes_a_bound_four_times_too_small(monkeypatch):
    """A claimed bound d R_D / (4 eps n) lies below E||W||_2 (about 0.7 d R_D/(eps n) here): refuted w.p. 1 - 1e-6."""
    bound = KNormMechanism.error_bound
    monkeypatch.setattr(KNormMechanism, "error_bound", lambda self, n: bound(self, n) / 4)
    verdict, evidence = knorm_checks.knorm_error_rate()
    assert verdict is Verdict.REFUTED and evidence.startswith("witness d=2")
