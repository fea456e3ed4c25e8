"""The checks behind p-REC's claims (001_8845c8f909738498.txt, dpcert.proofs.claims.online_recommendation.checks):
the privacy lemmas on exact traces (and a broken variant they catch), the witnesses for the paper's slips
(spec section 6, A2 and A7), and the proofs' closed-form steps (spec S1-S12).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy

from dpcert.accountant.online_recommendation.bounds import uniform_round_loss
from dpcert.mechanisms.online_recommendation import PREC, Instance, PRECSim, planted_pair, privacy_loss_trace
from dpcert.proofs.claims.online_recommendation.checks import (
    check_privacy_lemmas,
    lemma_4_equivalence_witness,
    online_recommendation_facts,
    uniform_rounds_order_witness,
)


@pytest.mark.parametrize("algorithm, others, hostile", [(PRECSim(2, 5), 9, True), (PREC(2, 6, 2, 0), 4, False),
                                                        (PREC(3, 6, 1, 1), 6, False)])
def test_privacy_lemmas_hold_on_admissible_pairs(algorithm, others, hostile):
    """Spec T6, T8-T13 (Lemmas 12, 14/19, 18, the leaky-round corollary, Theorems 11/17) on every sequence of an
    admissible pair: every check holds, and each compared at least one case."""
    mechanism = planted_pair(algorithm, P=6 * algorithm.params.m, others=others, hostile=hostile,
                             rng=np.random.default_rng(0))
    checks = check_privacy_lemmas(mechanism.loss_trace(*mechanism.inputs()), mechanism.min_peers())
    names = [c.name for c in checks]
    assert names[:2] == ["lemma12", "lemma18"] and names[-1] in ("theorem11", "theorem17") and len(names) == 5
    assert all(c.holds and c.witness is not None for c in checks), [c.evidence for c in checks]
    assert 0 < checks[0].worst < 1


def test_privacy_lemma_checks_can_fail():
    """Power check of check_privacy_lemmas: with gamma = 10^-6 (not the paper's) an object crossing rho
    (x_1 = 4/16 = rho on U', 5/17 on U) breaks Lemma 12 and Theorem 11's bound; the paper's gamma passes."""
    instance = Instance(2, [{0}, {0}, {0}], np.array([[0, 0, 0]] * 12 + [[1, 1, 1]] * 5))
    broken = check_privacy_lemmas(privacy_loss_trace(PRECSim(2, 3, gamma=sympy.Rational(1, 10**6)), instance,
                                                     range(16), 16), 12)
    assert not broken[0].holds and broken[0].witness[0][broken[0].witness[1]] == 1
    assert broken[-1].name == "theorem11" and not broken[-1].holds
    paper = privacy_loss_trace(PRECSim(2, 3), instance, range(16), 16)
    assert all(c.holds for c in check_privacy_lemmas(paper, 12))


@pytest.mark.parametrize("m, T, R", [(2, 10, 0), (3, 100, 4), (5, 1000, 0)])
def test_lemma_4_equivalence_is_only_an_implication(m, T, R):
    """Spec A7 (Lemma 4's proof writes "<=>" for the last step): at lambda d = ln 2 and e^{lambda(x'-rho)} = 3/2
    the lemma's inequality holds (4 <= 4) while x' < rho + ln 2 / lambda; the witness rechecks from phi."""
    witness = lemma_4_equivalence_witness(m, T, R=R)
    assert witness.ratio == 4 and witness.bound == 4
    assert witness.refutes and witness.recheck()


def test_uniform_rounds_are_not_order_r():
    """Spec A2 (Theorem 16's proof: "gamma T = O(R)"): at R = 0 the uniform rounds cost mT/(3T - 1) >= m/3 > 0
    for every T, so no c R bounds them; O(R + 1) does (gamma T <= m(R+1)/2 for T >= R + 1, spec S9)."""
    for m, T in itertools.product((2, 3, 9), (4, 10, 10**6)):
        witness = uniform_rounds_order_witness(m, T)
        assert witness.refutes and witness.recheck()
        assert uniform_round_loss(m, T, R=0).value == witness.cost
    grid = list(itertools.product((2, 5), (10, 100), (0, 3, 8)))
    assert sum(uniform_round_loss(m, T, R=R).valid for m, T, R in grid) >= 10
    assert not uniform_round_loss(5, 10, R=8).valid  # tau = 10/9 <= (m+1)/3
    for m, T, R in itertools.product((2, 5), (10, 100), (0, 3, 8)):
        result = uniform_round_loss(m, T, R=R)
        assert not result.valid or result.value <= sympy.Rational(m * (R + 1), 2)
    assert "A2" in uniform_round_loss(2, 10).note


def test_closed_form_steps_hold_for_every_parameter_value():
    """Spec S1-S12 (steps of Lemmas 4, 8, 12, 13 and Theorems 10, 11, 15, 16, 17): sympy decides every one True."""
    facts = online_recommendation_facts()
    labels = {f.statement.split(":")[0] for f in facts}
    assert {"S1", "S2", "S3", "S4", "S6", "S7", "S8", "S9", "S10", "S11", "S12"} <= labels
    undecided = [f.statement for f in facts if f.holds is not True]
    assert not undecided
    assert all(f.source.startswith("001_8845c8f909738498.txt, ") for f in facts)
