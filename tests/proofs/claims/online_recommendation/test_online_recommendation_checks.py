"""The checks behind p-REC's claims (001_8845c8f909738498.txt, dpcert.proofs.claims.online_recommendation.checks):
the privacy lemmas and the geometric series on exact traces (and a broken variant they catch), the shared
admissible pairs, the witnesses for the paper's slips (spec section 6, A2 and A7), the proofs' closed-form steps
(spec S1-S12), and bad input for every public check.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy

from conftest import assert_rejects

from dpcert.accountant.online_recommendation.bounds import uniform_round_loss
from dpcert.mechanisms.online_recommendation import PREC, Instance, PRECSim, planted_pair, privacy_loss_trace
from dpcert.proofs.claims.online_recommendation.checks import (
    ADAPTIVE_PEERS,
    ADMISSIBLE_PAIRS,
    adaptive_pair,
    admissible_pair,
    bernstein_radius,
    bounds_consistency,
    check_geometric_series,
    check_peer_invariant,
    check_privacy_lemmas,
    expected_loss_check,
    lemma_4_equivalence_witness,
    loss_chasing_instance,
    online_recommendation_facts,
    pathwise_loss_check,
    prec_sim_reduction,
    theorem_6_random_client_loss,
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


class _NoKickSim(PRECSim):
    """Broken p-REC_sim whose UpdateWeight does nothing (no voter is ever kicked out)."""

    def update(self, state, voted, liked):
        return state


def test_geometric_series_check_can_fail():
    """Power check of check_geometric_series (Theorem 11's proof, spec T10), on 12 peers voting 0 and 5 voters
    voting 1, the last of them the extra voter (x_1 = 4/16 = rho on U', 5/17 on U): with gamma = 10^-6 the
    crossing round leaks more than 3 lambda/W, breaking step (15); without kick-outs every one of T = 10 rounds
    leaks at W = 17, and 10 * 3 lambda/17 exceeds 9 m lambda/P = 3 lambda/2, breaking (16)-(17). The paper's
    p-REC_sim passes both."""
    votes = [[0] * 10] * 12 + [[1] * 10] * 5
    instance = Instance(2, [{0}] * 10, np.array(votes))
    broken_gamma = privacy_loss_trace(PRECSim(2, 10, gamma=sympy.Rational(1, 10**6)), instance, range(16), 16)
    leak_sum, _ = check_geometric_series(broken_gamma, 12)
    assert not leak_sum.holds and leak_sum.source.endswith("Theorem 11 (proof)")
    _, series = check_geometric_series(privacy_loss_trace(_NoKickSim(2, 10), instance, range(16), 16), 12)
    assert not series.holds and series.worst > 1
    paper = check_geometric_series(privacy_loss_trace(PRECSim(2, 10), instance, range(16), 16), 12)
    assert all(c.holds and c.witness is not None for c in paper)


def test_shared_pairs_are_admissible():
    """Spec 1.6: every pair of ADMISSIBLE_PAIRS has >= 6m peers among the common voters and D_C <= D; the adaptive
    pair has ADAPTIVE_PEERS = 12 = 6m peers and one extra voter."""
    for index, (m, _, D, _, P, *_rest) in enumerate(ADMISSIBLE_PAIRS):
        mechanism = admissible_pair(index)
        assert mechanism.min_peers() >= max(P, 6 * m) and mechanism.max_diversity() <= D
    small, large = adaptive_pair().inputs()
    assert len(large.voters) - len(small.voters) in (1, -1) and ADAPTIVE_PEERS == 6 * 2


def _trace():
    return privacy_loss_trace(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3] * 3), [0, 1], 2)


BAD_CALLS = [
    (lambda: admissible_pair(len(ADMISSIBLE_PAIRS)), "index"),
    (lambda: check_geometric_series("trace", 12), "trace"),
    (lambda: check_geometric_series(_trace(), 4), "P"),
    (lambda: check_peer_invariant("p-rec", Instance(2, [{0}] * 3, [[0] * 3] * 3), _trace()), "algorithm"),
    (lambda: check_peer_invariant(PRECSim(2, 3), "instance", _trace()), "instance"),
    (lambda: check_peer_invariant(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3] * 3), None), "trace"),
    (lambda: check_peer_invariant(PREC(2, 3, 1, 0), Instance(2, [{0}] * 3, [[0] * 3] * 3), _trace()), "algorithm"),
    (lambda: prec_sim_reduction([[0]]), "instance"),
    (lambda: prec_sim_reduction(Instance(2, [{0}] * 3, [[0] * 3]), D=-1), "D"),
    (lambda: loss_chasing_instance(1, 5, P=2, others=1, seed=0), "m"),
    (lambda: loss_chasing_instance(2, 5, P=2, others=-1, seed=0), "others"),
    (lambda: pathwise_loss_check(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3]), P=2, runs=5, seed=0), "P"),
    (lambda: pathwise_loss_check(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3]), P=1, runs=5, seed=-1), "seed"),
    (lambda: expected_loss_check("p-rec", Instance(2, [{0}] * 3, [[0] * 3]), 1, runs=5, seed=0), "algorithm"),
    (lambda: expected_loss_check(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3]), 1, runs=5, seed=0, alpha=1),
     "alpha"),
    (lambda: expected_loss_check(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3]), float("nan"), runs=5, seed=0),
     "bound"),
    (lambda: expected_loss_check(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3]), -1, runs=5, seed=0), "bound"),
    (lambda: expected_loss_check(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3]), 1, runs=0, seed=0), "runs"),
    (lambda: bernstein_radius(1.0, 1.0, 0.0), "delta"),
    (lambda: theorem_6_random_client_loss(PRECSim(2, 3), 4, P=2), "R"),
    (lambda: theorem_6_random_client_loss(PRECSim(2, 3), 1, P=0), "P"),
    (lambda: bounds_consistency([(10, 0, 0, 12, "many")]), "n"),
]


@pytest.mark.parametrize("call, parameter", BAD_CALLS, ids=[f"{i}-{p}" for i, (_, p) in enumerate(BAD_CALLS)])
def test_bad_input_names_the_parameter(call, parameter):
    """DESIGN (bad input): every public check raises InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
