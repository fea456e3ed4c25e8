"""p-REC transcripts under the black-box statistical audit (spec 001, T15): the sampler runs the recommender,
the audit only sees its outputs, and its eps lower bound is compared with the exact tightest eps.

The audit's confidence is 1 - 1e-6, so a correct claim is flagged with probability <= 1e-6 (fixed seeds); the
power checks are p-REC_sim without its uniform rounds (gamma = 0, not private for any eps) and a claim of half
the exact eps.

These stay tests: they check the black-box audit tool on p-REC, not a statement of the paper (Theorem 11 itself
is the registered claim thm11-prec-sim-privacy, decided by the exact checker, which T15's spec note prefers).
"""

from __future__ import annotations

import pytest

from dpcert.mechanisms.online_recommendation import Instance, PRECSim, PRECTranscript
from dpcert.proofs.audit import audit
from dpcert.proofs.exact import tightest_epsilon

STRICT = 1 - 1e-6
INSTANCE = Instance(2, [{0}] * 3, [[0, 0, 0]] * 12 + [[1, 1, 1]] * 5)


def _pair(gamma=None) -> PRECTranscript:
    return PRECTranscript.adjacent_pair(PRECSim(2, 3, gamma=gamma), INSTANCE, range(16), 16)


@pytest.mark.statistical
def test_audit_does_not_flag_the_exact_eps_and_stays_below_it():
    mechanism = _pair()
    exact = float(tightest_epsilon(mechanism).epsilon)
    result = audit(mechanism, eps=exact, samples=200_000, seed=5, confidence=STRICT)
    assert result.verdict != "violation" and result.epsilon_lower_bound <= exact


@pytest.mark.statistical
def test_power_half_the_exact_eps_is_flagged():
    mechanism = _pair()
    exact = float(tightest_epsilon(mechanism).epsilon)
    result = audit(mechanism, eps=exact / 2, samples=500_000, seed=6, confidence=STRICT)
    assert result.verdict == "violation" and exact / 2 < result.epsilon_lower_bound <= exact


@pytest.mark.statistical
def test_power_without_uniform_rounds_is_flagged_at_any_eps():
    result = audit(_pair(gamma=0), eps=1, samples=20_000, seed=7, confidence=STRICT)
    assert result.verdict == "violation" and result.epsilon_lower_bound > 1
