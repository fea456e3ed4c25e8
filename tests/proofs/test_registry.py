"""One generic battery over every registered claim (scipy.stats style): each gets its expected verdict,
its certificate re-checks from the mechanism's definition, and a refutation's witness is independently
confirmed by recomputing the probabilities from the pmf with Fractions/mpmath."""

from __future__ import annotations

import mpmath
import pytest

from dpcert.mechanisms.base import FiniteMechanism
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.guarantees import ApproxDP, MetricDP, PureDP
from dpcert.proofs.registry import CLAIMS, claims

_OUTCOMES = {}


def _outcome(claim):
    reason = claim.unavailable()
    if reason is not None:
        pytest.skip(reason)
    if claim.id not in _OUTCOMES:
        _OUTCOMES[claim.id] = claim.check()
    return _OUTCOMES[claim.id]


def test_claim_ids_are_unique_and_sourced():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    for c in CLAIMS:
        assert c.source.strip() and c.statement.strip()
        assert (c.expected in (Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED, Verdict.PROOF_GAP)
                or c.id.startswith("zoo-"))


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.expected is Verdict.UNKNOWN], ids=lambda c: c.id)
def test_only_statistical_audits_may_stay_undecided(claim):
    # a correct mechanism audited statistically cannot be proved private: the registry expects UNKNOWN and
    # the evidence must say the audit found nothing, with the lower bound it reached
    assert _outcome(claim).method == "statistical"
    assert _outcome(claim).evidence.startswith("no violation found: eps lower bound")


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_gets_its_expected_verdict(claim):
    outcome = _outcome(claim)
    assert outcome.verdict is claim.expected, outcome.evidence
    assert outcome.evidence


_INSTANCES = [c for c in CLAIMS if c.kind == "instance"]


@pytest.mark.parametrize("claim", _INSTANCES, ids=[c.id for c in _INSTANCES])
def test_certificate_rechecks(claim):
    certificate = _outcome(claim).certificate
    assert certificate is not None and certificate.recheck()


def _independent_violation(certificate) -> bool:
    """Recompute the witness's probabilities from the pmf at 50 digits and test the violation."""
    w, mechanism, g = certificate.witness, certificate.mechanism, certificate.guarantee
    event = w.output if isinstance(w.output, frozenset) else {w.output}
    with mpmath.workdps(50):
        p = mpmath.fsum(mpmath.mpf(str(v.evalf(60))) for y, v in mechanism.pmf(w.x).items() if y in event)
        q = mpmath.fsum(mpmath.mpf(str(v.evalf(60))) for y, v in mechanism.pmf(w.x_prime).items() if y in event)
        slack = mpmath.mpf(str(g.delta.evalf(60))) if isinstance(g, ApproxDP) else 0
        return p > mpmath.e ** mpmath.mpf(str(g.eps.evalf(60))) * q + slack


@pytest.mark.parametrize("claim", [c for c in _INSTANCES if c.expected is Verdict.REFUTED], ids=lambda c: c.id)
def test_refutation_witness_is_independently_confirmed(claim):
    certificate = _outcome(claim).certificate
    assert certificate.witness is not None
    if isinstance(certificate.mechanism, FiniteMechanism) and isinstance(certificate.guarantee, (PureDP, ApproxDP)):
        assert _independent_violation(certificate)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.kind == "family" and c.expected is Verdict.REFUTED],
                         ids=lambda c: c.id)
def test_refuted_family_names_a_counterexample(claim):
    assert "counterexample" in _outcome(claim).evidence


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.kind == "computed" and c.expected is Verdict.REFUTED],
                         ids=lambda c: c.id)
def test_refuted_computation_states_its_witness(claim):
    assert _outcome(claim).evidence.startswith("witness ")


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.expected is Verdict.PROOF_GAP], ids=lambda c: c.id)
def test_proof_gap_names_the_failing_step_and_its_witness(claim):
    # a proof gap refutes a step of the proof, not the statement: the evidence must say so and show the witness
    evidence = _outcome(claim).evidence
    assert evidence.startswith("not proved by ") and "witness " in evidence and "not refuted" in evidence


def test_every_seed_paper_claim_kind_is_known():
    assert {c.kind for c in CLAIMS} <= {"instance", "family", "computed"}
    assert any(c.kind == "computed" for c in CLAIMS)


def test_source_filter_selects_the_paper():
    selected = claims(source="000_0c6e7fdc3fd68303.txt")
    assert selected and all("000_0c6e7fdc3fd68303.txt" in c.source for c in selected)
    assert not claims(source="no such paper")


def test_metric_claim_uses_the_metric():
    claim = next(c for c in CLAIMS if c.id == "geometric-metric")
    certificate = _outcome(claim).certificate
    assert isinstance(certificate.guarantee, MetricDP)
    assert certificate.epsilon == certificate.guarantee.eps  # the clamped geometric is tight in |x - x'|
