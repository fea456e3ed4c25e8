"""Exact privacy of p-REC on small instances: spec section 5, T1-T14 and T19, against Theorems 7, 11 and 17.

Every probability is exact; the exact checker (dpcert.proofs.check) decides eps-DP of the whole recommendation
sequence over Definition 1's adjacent patterns. Instances are the spec's admissible family (section 1.6):
P >= 6m planted peers among the common voters, an arbitrary extra voter (ADMISSIBLE_PAIRS, shared with the
registered claims of dpcert.proofs.claims.online_recommendation, which decide the paper's statements on them).
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np
import pytest
import sympy

from dpcert.accountant.online_recommendation.bounds import (
    eps_lower_D0R0,
    eps_upper_prec,
    eps_upper_sim,
    leaky_round_bound,
    lemma_14_factor,
)
from dpcert.mechanisms.online_recommendation import (
    PREC,
    Instance,
    PRECParameters,
    PRECSim,
    PRECTranscript,
    adaptive_instance,
    diversity_chain,
    enumerate_transcripts,
    exact_round_probabilities,
    lemma_8_chain,
    planted_instance,
    privacy_loss_trace,
    recommendation_probabilities,
)
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import check
from dpcert.proofs.claims.online_recommendation.checks import (
    ADMISSIBLE_PAIRS,
    admissible_pair,
    check_geometric_series,
    check_peer_invariant,
    prec_algorithm,
    prec_sim_reduction,
)
from dpcert.proofs.exact import tightest_epsilon
from dpcert.proofs.guarantees import PureDP

CASES = ADMISSIBLE_PAIRS  # (m, T, D, R, P, other voters, hostile others, seed); the extra voter is the last one


@functools.cache
def _case(index):
    mechanism = admissible_pair(index)
    instance = mechanism.instances[0]
    extra = instance.n_voters - 1
    return prec_algorithm(*CASES[index][:4]), instance, extra, mechanism.loss_trace(*mechanism.inputs())


ALL = list(range(len(CASES)))


# ---------------------------------------------------------------------------------------------
# T1, T2: the per-round distribution
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("m, T, R", [(2, 5, 0), (3, 7, 1), (4, 12, 2)])
def test_round_distribution_is_exact_and_matches_the_float_formula(m, T, R):
    """Spec T1 (Algorithm 1, RecommendByWeight): sum_j Pr[b_t = j] = 1 exactly, each >= gamma/m, and the
    exact values equal the float formula gamma/m + (1-gamma) phi(x_j)/sum phi to 1e-12. This stays a test: it checks
    that the implementation evaluates the paper's formula as a distribution, which the paper takes for granted
    rather than states (spec 1.5 derives the gamma/m floor)."""
    params = PRECParameters(m, T, 0, R)
    rng = np.random.default_rng(m * T)
    for counts in rng.integers(0, 9, size=(30, m)).tolist():
        if sum(counts) == 0:
            continue
        exact = exact_round_probabilities(params, counts)
        assert sympy.Add(*exact) == 1
        values = np.array([float(p) for p in exact])
        assert np.all(values >= float(params.gamma) / m * (1 - 1e-12))
        np.testing.assert_allclose(values, recommendation_probabilities(params, np.array(counts)), rtol=1e-12)


def test_objects_at_or_below_the_threshold_get_exactly_gamma_over_m():
    """Spec T2 and A14: x_j <= 1/(2m) (including x_j = 1/(2m) exactly) gives Pr = gamma/m exactly. This stays a
    test: the non-strict threshold is the spec's reading A14 of how phi must be implemented, not a statement the
    paper makes."""
    params = PRECParameters(2, 9)
    gamma = params.gamma
    for counts in [(3, 9), (6, 18), (0, 5), (1, 3)]:  # x_0 = 1/4 (boundary), 1/4, 0, 1/4
        assert exact_round_probabilities(params, counts)[0] == gamma / 2
    assert exact_round_probabilities(params, (4, 11))[0] != gamma / 2  # x_0 = 4/15 > 1/4
    params3 = PRECParameters(3, 9)
    assert exact_round_probabilities(params3, (1, 1, 4))[:2] == (params3.gamma / 3,) * 2  # x = 1/6 = rho


# ---------------------------------------------------------------------------------------------
# T3: p-REC with D = R = 0 is p-REC_sim
# ---------------------------------------------------------------------------------------------

def test_prec_with_zero_credits_equals_prec_sim_on_every_sequence():
    """Spec T3 (Section 8.2: "we can get back p-REC_sim by setting D = R = 0"; claim prec-reduces-to-sim): the same
    exact Pr[b_t | b_<t] for every b, on random (also inadmissible) and adaptive instances."""
    rng = np.random.default_rng(7)
    instances = [planted_instance(2, 6, P=3, D=2, R=1, others=5, rng=rng),
                 planted_instance(3, 4, P=0, D=1, R=0, others=9, rng=rng), adaptive_instance(2, 6, P=12, D=1, followers=5)]
    for instance in instances:
        result = prec_sim_reduction(instance)
        assert result.agrees and result.sequences == instance.m ** instance.T


def test_prec_with_credits_differs_from_prec_sim():
    """Spec T3, power check of prec_sim_reduction: with D = 1 the credit rule keeps voters that p-REC_sim kicks
    out, and the comparison names the first round where the probabilities differ."""
    instance = planted_instance(2, 5, P=4, D=2, R=0, others=3, rng=np.random.default_rng(3))
    voters = range(instance.n_voters)
    sim = enumerate_transcripts(PRECSim(2, 5), instance, voters)
    general = enumerate_transcripts(PREC(2, 5, 1, 0), instance, voters)
    assert (general.survivors > sim.survivors).any()
    result = prec_sim_reduction(instance, D=1)
    assert not result.agrees
    row = sim.sequences.tolist().index(list(result.witness[0]))
    t = result.witness[1]
    assert sim.round_probabilities[row, t] != general.round_probabilities[row, t]


# ---------------------------------------------------------------------------------------------
# T4, T5: peer invariant and monotonicity
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("index", ALL)
def test_peers_keep_their_credit_along_every_sequence(index):
    """Spec T4 (proofs of Theorems 16 and 17; claim prec-peers-never-removed): every peer keeps weight 1 with
    credit_R >= R+1 and credit_D + credit_R >= D+R+1 along every b, so W_t(b) >= P and C_t(b) >= P(D+R+1)."""
    algorithm, instance, extra, trace = _case(index)
    P = CASES[index][4]
    credit, _ = check_peer_invariant(algorithm, instance, trace)
    assert credit.name == "peer-credit" and credit.holds, credit.evidence
    assert np.all(trace.survivors >= P) and np.all(trace.credit >= P * (algorithm.params.D + algorithm.params.R + 1))


def test_peer_invariant_check_catches_prec_sim_on_diverse_rounds():
    """Power check of check_peer_invariant: p-REC_sim has no D-credit, so on a client with D_C = 2 a peer that voted
    for the other liked object is kicked out when its object is not recommended; p-REC with D = 2 keeps it."""
    instance = planted_instance(2, 5, P=12, D=2, R=0, others=3, rng=np.random.default_rng(3))
    voters, extra = range(instance.n_voters - 1), instance.n_voters - 1
    broken = check_peer_invariant(PRECSim(2, 5), instance, privacy_loss_trace(PRECSim(2, 5), instance, voters, extra))
    assert not broken[0].holds and broken[0].worst == math.inf and broken[1].holds
    paper = check_peer_invariant(PREC(2, 5, 2, 0), instance, privacy_loss_trace(PREC(2, 5, 2, 0), instance, voters, extra))
    assert all(c.holds for c in paper)


@pytest.mark.parametrize("index", ALL)
def test_weights_never_come_back_and_survivors_shrink(index):
    """Spec T5 (Algorithms 1-2; claim prec-peers-never-removed): weights never go 0 -> 1; W_t(b) and C_t(b) are
    non-increasing in t. The direct reading of the trace agrees with check_peer_invariant."""
    algorithm, instance, _, trace = _case(index)
    weights = trace.larger.weights
    assert not np.any(~weights[:, :-1] & weights[:, 1:])
    assert np.all(np.diff(trace.survivors, axis=1) <= 0) and np.all(np.diff(trace.credit, axis=1) <= 0)
    assert check_peer_invariant(algorithm, instance, trace)[1].holds


# ---------------------------------------------------------------------------------------------
# T6-T13: per-round leaks, leaky rounds, whole-sequence privacy
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("index", ALL)
def test_per_round_loss_is_at_most_three_lambda_over_survivors(index):
    """Spec T6: Lemma 12, |E_t(b)| <= 3 lambda / W_t(b), and Lemma 18, <= 3(2D+2R+1) lambda / C_t(b); a
    round whose extra voter is already kicked out leaks nothing (Lemma 12's first case)."""
    algorithm, _, _, trace = _case(index)
    D, R = algorithm.params.D, algorithm.params.R
    losses = np.abs(trace.round_loss)
    assert np.all(losses <= 3 * trace.lam / trace.survivors)
    assert np.all(losses <= 3 * (2 * D + 2 * R + 1) * trace.lam / trace.credit)
    assert not np.any(trace.leaky & ~trace.extra_alive)
    assert trace.leaky.any()  # the instance does leak, so the bounds are exercised


@pytest.mark.parametrize("index", ALL)
def test_leaky_rounds_shrink_the_survivors(index):
    """Spec T8/T9: Lemma 14 (D = R = 0), W_{t+1} <= (1 - 1/(3m)) W_t after a leaky round, and Lemma 19,
    C_{t+1} <= (1 - 1/(3m(2D+2R+1))) C_t (claim lemmas14-19-leaky-rounds-shrink); spec T13: the number of leaky
    rounds obeys its corollary. T13 stays a test: the spec derives that count from Lemma 19 (section 3), the paper
    states no such bound."""
    algorithm, instance, extra, trace = _case(index)
    m, D, R = algorithm.params.m, algorithm.params.D, algorithm.params.R
    leaky = trace.leaky[:, :-1]
    credit_factor = float(lemma_14_factor(m, D=D, R=R).value)
    assert np.all(trace.credit[:, 1:][leaky] <= credit_factor * trace.credit[:, :-1][leaky])
    if D == R == 0:
        w_factor = float(lemma_14_factor(m).value)
        assert np.all(trace.survivors[:, 1:][leaky] <= w_factor * trace.survivors[:, :-1][leaky])
    P = instance.peer_count(R, frozenset(range(extra)))
    assert trace.leaky.sum(axis=1).max() <= float(leaky_round_bound(m, extra + 1, P, D=D, R=R).value)


@pytest.mark.parametrize("index", ALL)
def test_whole_sequence_loss_is_within_the_instance_bound(index):
    """Spec T10: |E(b)| <= sum over leaky rounds of 3 lambda / W_t(b) <= 9 m lambda / P (the geometric series
    of Theorem 11, Lemma 19's version for credits; claim thm11-17-geometric-series, via check_geometric_series)."""
    algorithm, instance, extra, trace = _case(index)
    m, D, R = algorithm.params.m, algorithm.params.D, algorithm.params.R
    P = instance.peer_count(R, frozenset(range(extra)))
    assert np.all(np.abs(trace.total_loss) <= trace.instance_bound + 1e-12)
    credit_sum = 3 * m * (2 * D + 2 * R + 1) / (P * (D + R + 1))  # Theorem 17's (16)-(17)
    assert np.all(trace.instance_bound <= 3 * trace.lam * credit_sum * (2 * D + 2 * R + 1) + 1e-12)
    leak_sum, series = check_geometric_series(trace, P)
    assert leak_sum.holds and series.holds and leak_sum.witness is not None and 0 < series.worst < 1


@pytest.mark.parametrize("index", ALL)
def test_exact_tightest_eps_is_within_theorems_11_and_17(index):
    """Spec T11/T12: the exact checker proves the transcript eps-DP at Theorem 11's 18 m^2 ln T / P (sim) and
    Theorem 17's bound in both forms, over the pair; its tightest eps equals the trace's max_b |E(b)|."""
    algorithm, instance, extra, trace = _case(index)
    m, T, D, R = (algorithm.params.m, algorithm.params.T, algorithm.params.D, algorithm.params.R)
    mechanism = PRECTranscript.adjacent_pair(algorithm, instance, range(extra), extra)
    P = mechanism.min_peers()
    assert P >= 6 * m and mechanism.max_diversity() <= D
    bounds = [eps_upper_prec(m, T, D, R, P), eps_upper_prec(m, T, D, R, P, form="tight")]
    if D == R == 0:
        bounds.append(eps_upper_sim(m, T, P))
        assert bounds[1].value == bounds[2].value  # the tight form reduces to Theorem 11 (spec A15)
    for bound in bounds:
        assert bound.valid
        certificate = check(mechanism, PureDP(bound.value))
        assert certificate.verdict is Verdict.PROVED, certificate.evidence
    assert math.isclose(float(certificate.epsilon), trace.realized_epsilon, rel_tol=1e-12, abs_tol=1e-15)
    assert json.loads(json.dumps(certificate.as_json()))["parameters"]["T"] == T


@pytest.mark.parametrize("index", [1, 4])
def test_exact_checker_refutes_just_below_the_tightest_eps(index):
    """Spec 2.4 (exact checker): eps = 0.999 x the tightest eps is refuted, and the witness is the sequence
    attaining max_b |E(b)| in the independent trace (the two exact computations agree)."""
    algorithm, instance, extra, trace = _case(index)
    mechanism = PRECTranscript.adjacent_pair(algorithm, instance, range(extra), extra)
    certificate = check(mechanism, PureDP(sympy.Rational(999, 1000) * sympy.nsimplify(trace.realized_epsilon)))
    assert certificate.verdict is Verdict.REFUTED and certificate.recheck()
    row = trace.sequences.tolist().index(list(certificate.witness.output))
    assert math.isclose(abs(trace.total_loss[row]), trace.realized_epsilon, rel_tol=1e-12)


def test_adaptive_adversary_keeps_the_bounds():
    """Spec T14: Lemmas 12/18 and Theorems 11/17 hold when likes and votes are functions of b_<t (the same
    functions for the common voters in both executions; claim thm17-adaptive-adversary)."""
    instance = adaptive_instance(2, 6, P=12, D=1, followers=5)
    algorithm = PREC(2, 6, 1, 0)
    trace = privacy_loss_trace(algorithm, instance, range(17), 17)
    assert trace.leaky.any()
    assert np.all(np.abs(trace.round_loss) <= 3 * trace.lam / trace.survivors)
    mechanism = PRECTranscript.adjacent_pair(algorithm, instance, range(17), 17)
    for form in ("paper", "tight"):
        certificate = check(mechanism, PureDP(eps_upper_prec(2, 6, 1, 0, 12, form=form).value))
        assert certificate.verdict is Verdict.PROVED
    assert math.isclose(float(certificate.epsilon), trace.realized_epsilon, rel_tol=1e-12)


def test_without_exploration_no_finite_eps_holds():
    """Negative control for Theorem 11's proof (Lemma 12 needs gamma > 0): 12 peers vote 0, 4 voters vote 1,
    the extra voter votes 1, so x_1 = 4/16 = rho on U' and 5/17 > rho on U. With gamma = 0 object 1 has
    probability 0 on U' and > 0 on U: the checker refutes every eps with that witness; with the paper's
    gamma the same pair is proved at Theorem 11's bound."""
    votes = np.array([[0, 0, 0]] * 12 + [[1, 1, 1]] * 5)
    instance = Instance(2, [{0}, {0}, {0}], votes)
    broken = PRECTranscript.adjacent_pair(PRECSim(2, 3, gamma=0), instance, range(16), 16)
    certificate = tightest_epsilon(broken)
    assert certificate.verdict is Verdict.REFUTED and certificate.epsilon == sympy.oo and certificate.recheck()
    witness = certificate.witness
    assert witness.p_prime == 0 < witness.p and len(witness.x.voters) == 17 and 1 in witness.output
    paper = PRECTranscript.adjacent_pair(PRECSim(2, 3), instance, range(16), 16)
    assert check(paper, PureDP(eps_upper_sim(2, 3, 12).value)).verdict is Verdict.PROVED
    uniform = PRECTranscript.adjacent_pair(PRECSim(2, 3, gamma=1), instance, range(16), 16)
    assert tightest_epsilon(uniform).epsilon == 0  # gamma = 1 ignores the votes: 0-DP (and loss T/2)


# ---------------------------------------------------------------------------------------------
# Lower bounds: Lemma 8 / Theorem 7 (T19) and Section 8.1's example behind Theorem 15
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("T, P", [(3, 12), (5, 12), (4, 13)])
def test_lemma_8_chain_exact_eps_meets_theorem_7(T, P):
    """Spec T19 (Lemma 8, Claim 1) and Theorem 7 (claim thm7-lower-bound at T = 4): on the chain of 2P+1
    patterns the exact tightest eps of p-REC_sim satisfies max(p_A, p_B) >= (1/2) e^{-P eps}, i.e.
    eps >= ln(T/(2L))/P with L = T max(p_A, p_B)."""
    chain = lemma_8_chain(T, P, t=0)
    mechanism = PRECTranscript(PRECSim(2, T), chain.instances, chain.profiles)
    eps = tightest_epsilon(mechanism).epsilon
    alice, bob = chain.endpoints
    p_a, p_b = mechanism.round_marginal(alice, 0, {1}), mechanism.round_marginal(bob, 0, {0})
    worst = max(float(p_a), float(p_b))
    assert worst >= 0.5 * math.exp(-P * float(eps))
    lower = eps_lower_D0R0(T, sympy.nsimplify(T * worst), P)
    assert lower.bounds == "lower" and float(eps) >= lower.enclosure[1]
    assert float(eps) < 3 * lower.enclosure[1]  # p-REC_sim is within a small factor of the lower bound here


def test_diversity_example_leaks_in_proportion_to_D():
    """Section 8.1's example (behind Theorem 15; claim sec8.1-diversity-example): P peers voting differently in
    the D rounds where the client likes both objects; p-REC's exact tightest eps over the 2P-step chain grows
    linearly in D."""
    T, P = 5, 12
    values = []
    for D in range(4):
        chain = diversity_chain(T, D, P)
        mechanism = PRECTranscript(PREC(2, T, D, 0), chain.instances, chain.profiles)
        values.append(float(tightest_epsilon(mechanism).epsilon))
    assert values[0] == 0.0
    steps = np.diff(values)
    assert np.all(steps > 0) and np.ptp(steps) < 1e-9 * steps.max()
