"""The model, the instance generators, the parameters and phi of p-REC (spec sections 1, 2.1-2.5, 3), the
exhaustive per-round checks of Lemmas 12-13, Lemmas 3-5 as properties, and bad input for every public
function of dpcert.mechanisms.online_recommendation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy
from conftest import assert_rejects
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.online_recommendation import (
    PREC,
    AdaptiveInstance,
    Instance,
    PRECParameters,
    PRECSim,
    PRECTranscript,
    Profile,
    adaptive_instance,
    adjacent,
    count_vectors,
    diversity_chain,
    enumerate_transcripts,
    exact_round_probabilities,
    lemma_8_chain,
    per_round_leakage,
    phi,
    phi_exact,
    phi_shares,
    planted_instance,
    planted_pair,
    privacy_loss_trace,
    recommendation_probabilities,
    theorem_6_instance,
)

RNG = np.random.default_rng


# ---------------------------------------------------------------------------------------------
# Model (spec 1.1-1.3, 1.5)
# ---------------------------------------------------------------------------------------------

def test_diversity_distance_peers_and_loss_of_a_hand_made_instance():
    """Spec 1.2-1.3 (Section 2.4, Table 1): D_C counts multi-like rounds, distance counts votes on disliked
    objects, peers are voters within distance R, loss counts disliked recommendations."""
    likes = [{0}, {0, 1}, {2}, {1}]
    votes = [[0, 1, 2, 1],   # distance 0
             [1, 0, 2, 1],   # distance 1 (round 0)
             [2, 2, 0, 0]]   # distance 4
    instance = Instance(3, likes, votes)
    assert instance.diversity == 1
    assert instance.distances().tolist() == [0, 1, 4]
    assert instance.peers(0).tolist() == [0] and instance.peers(1).tolist() == [0, 1]
    assert instance.peer_count(1, frozenset({1, 2})) == 1
    assert instance.losses(np.array([[0, 0, 2, 1], [1, 2, 0, 0]])).tolist() == [0, 4]


def test_adjacency_is_definition_1():
    """Spec 1.5 (Definition 1): same client, voter sets differing by exactly one voter."""
    assert adjacent(Profile(0, frozenset({1, 2})), Profile(0, frozenset({1, 2, 5})))
    assert not adjacent(Profile(0, frozenset({1, 2})), Profile(1, frozenset({1, 2, 5})))
    assert not adjacent(Profile(0, frozenset({1, 2})), Profile(0, frozenset({1, 3})))  # replacing = 2 steps


@pytest.mark.parametrize("m, T, P, D, R", [(2, 8, 12, 3, 1), (3, 10, 18, 4, 2), (4, 6, 24, 6, 0)])
def test_planted_instances_have_the_promised_peers_and_diversity(m, T, P, D, R):
    """Spec 1.6 (test generators): exactly D multi-like rounds, P planted peers within distance R, seeded."""
    instance = planted_instance(m, T, P=P, D=D, R=R, others=7, hostile=True, rng=RNG(1))
    assert instance.diversity == D
    assert np.all(instance.distances()[:P] <= R) and set(range(P)) <= set(instance.peers(R).tolist())
    again = planted_instance(m, T, P=P, D=D, R=R, others=7, hostile=True, rng=RNG(1))
    assert np.array_equal(instance.votes, again.votes) and instance.likes == again.likes
    hostile = instance.votes[P:]
    rounds = np.arange(T)
    open_rounds = ~instance.like_matrix.all(axis=1)
    assert not np.any(instance.like_matrix[rounds, hostile][:, open_rounds])


def test_lemma_8_chain_structure():
    """Lemma 8 / Claim 1: 2P + 1 patterns (the middle one once per client), consecutive ones adjacent, the
    endpoints are each client's P peers at distance 0, the middle has Alice's and Bob's peers."""
    P = 5
    chain = lemma_8_chain(4, P, t=2)
    profiles = chain.profiles
    assert len(profiles) == 2 * P + 2 and profiles[P].voters == profiles[P + 1].voters
    assert all(adjacent(a, b) for a, b in zip(profiles[:P], profiles[1:P + 1]))
    assert all(adjacent(a, b) for a, b in zip(profiles[P + 1:-1], profiles[P + 2:]))
    alice, bob = chain.instances
    assert alice.peer_count(0, chain.endpoints[0].voters) == P and bob.peer_count(0, chain.endpoints[1].voters) == P
    assert alice.likes[2] == {0} and bob.likes[2] == {1} and alice.likes[0] == bob.likes[0]


def test_diversity_chain_keeps_p_peers_in_every_pattern():
    """Section 8.1's example / spec A9: every pattern of the 2P-step chain has >= P peers (D_C = D)."""
    chain = diversity_chain(6, 3, 4)
    instance = chain.instances[0]
    assert instance.diversity == 3
    assert all(instance.peer_count(0, p.voters) >= 4 for p in chain.profiles)
    assert all(adjacent(a, b) for a, b in zip(chain.profiles, chain.profiles[1:]))


def test_theorem_6_instance():
    """Theorem 6's construction: P voters always vote object 0 and are peers (distance <= R)."""
    instance = theorem_6_instance(3, 10, P=4, R=6, rng=RNG(0))
    assert np.all(instance.distances() <= 6) and instance.peer_count(6) == 4
    assert all(likes == {0} for likes in instance.likes[6:])


# ---------------------------------------------------------------------------------------------
# Parameters and phi (spec 2.1, 2.3, 2.5)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("m, T, R", [(2, 10, 0), (3, 20, 3), (5, 50, 9)])
def test_parameters_match_algorithms_1_and_2(m, T, R):
    """Algorithm 2's initialisation (spec 2.3, A4): gamma = m/((3T/(R+1)) - 1) as printed, lambda = 2m ln(T/(R+1)),
    rho = 1/(2m); e^{lambda rho} = tau and phi(1/m) = tau^2 - tau (spec S3)."""
    params = PRECParameters(m, T, 1, R)
    printed_gamma = sympy.Integer(m) / (sympy.Rational(3 * T, R + 1) - 1)
    assert params.gamma == printed_gamma and params.is_paper_gamma
    assert sympy.simplify(params.lam - 2 * m * sympy.log(sympy.Rational(T, R + 1))) == 0
    assert params.rho == sympy.Rational(1, 2 * m)
    assert sympy.simplify(sympy.exp(params.lam * params.rho) - params.tau) == 0
    assert sympy.simplify(phi_exact(sympy.Rational(1, m), params.lam, params.rho) - (params.tau**2 - params.tau)) == 0
    assert PRECSim(m, T).params.gamma == sympy.Rational(m, 3 * T - 1)


def test_privacy_conditions_flag_lemma_13_threshold():
    """Spec 2.5 (Lemma 13 needs tau >= 2^{3/2}): T = 2 (tau = 2) is flagged, T = 3 is not; a non-paper
    gamma is flagged."""
    assert any("2^(3/2)" in c for c in PRECParameters(2, 2).privacy_conditions)
    assert PRECParameters(2, 3).privacy_conditions == ()
    assert PRECParameters(2, 3, gamma=sympy.Rational(1, 2)).privacy_conditions


def test_phi_threshold_continuity_and_float_form():
    """Spec 2.1 and A14: phi(rho) = 0 exactly (non-strict threshold), continuous at rho, non-decreasing and
    convex; the float phi agrees with the exact one."""
    lam, rho = 4 * sympy.log(7), sympy.Rational(1, 4)
    assert phi_exact(rho, lam, rho) == 0
    assert abs(float(phi_exact(rho + sympy.Rational(1, 10**9), lam, rho))) < 1e-7
    xs = np.linspace(-1, 2, 301)
    values = phi(xs, float(lam), float(rho))
    assert np.all(np.diff(values) >= 0) and np.all(np.diff(values, 2) >= -1e-9 * values.max())
    for x in (sympy.Rational(3, 10), sympy.Rational(7, 8), sympy.Integer(1)):
        assert math.isclose(float(phi_exact(x, lam, rho)), float(phi(float(x), float(lam), float(rho))), rel_tol=1e-12)


def test_phi_shares_use_integer_threshold():
    """Spec A14: with W = 8 and m = 2, a count of 2 (x = 1/4 = rho) has share exactly 0, 3 does not."""
    params = PRECParameters(2, 10)
    shares = phi_shares(params, np.array([[2, 6], [3, 5], [0, 0]]))
    assert shares[0, 0] == 0.0 and shares[1, 0] > 0 and np.allclose(shares[2], 0.5)
    assert np.allclose(recommendation_probabilities(params, np.array([[0, 0]])), 0.5)


_reals = st.floats(-2, 2, allow_nan=False)
_lams = st.floats(0.1, 30)


@given(x=_reals, x_prime=_reals, lam=_lams, rho=st.floats(-1, 1))
def test_lemma_3(x, x_prime, lam, rho):
    """Lemma 3: phi(x) <= e^{lam|x-x'|} phi(x') + (e^{lam|x-x'|} - 1) e^{lam rho} for all reals x, x'."""
    grow = math.exp(lam * abs(x - x_prime))
    right = grow * phi(x_prime, lam, rho) + (grow - 1) * math.exp(lam * rho)
    assert phi(x, lam, rho) <= right * (1 + 1e-9) + 1e-12


@given(x_prime=st.floats(0, 2), d=st.floats(0, 1), lam=_lams, rho=st.floats(-1, 1))
def test_lemma_4(x_prime, d, lam, rho):
    """Lemma 4: phi(x)/phi(x') <= e^{2 lam (x - x')} for x >= x' >= rho + ln 2 / lam."""
    x_prime = max(x_prime, rho + math.log(2) / lam)
    ratio = phi(x_prime + d, lam, rho) / phi(x_prime, lam, rho)
    assert ratio <= math.exp(2 * lam * d) * (1 + 1e-9)


@given(xs=st.lists(_reals, min_size=2, max_size=5), thetas=st.lists(st.floats(0, 1), min_size=4, max_size=4),
       lam=_lams, rho=st.floats(-1, 1))
def test_lemma_5(xs, thetas, lam, rho):
    """Lemma 5: for x_1 <= ... <= x_{n+1} and theta_i >= 0, moving the thetas from the x_i to x_{n+1} does not
    decrease sum phi (convexity)."""
    xs = sorted(xs)
    theta = np.array(thetas[:len(xs) - 1])
    low, top = np.array(xs[:-1]), xs[-1]
    left = phi(low + theta, lam, rho).sum() + phi(top, lam, rho)
    right = phi(low, lam, rho).sum() + phi(top + theta.sum(), lam, rho)
    assert left <= right * (1 + 1e-9) + 1e-12


# ---------------------------------------------------------------------------------------------
# Exhaustive per-round checks (spec 2.4, 2.5; Lemmas 12-13)
# ---------------------------------------------------------------------------------------------

def test_count_vectors_are_all_compositions():
    """Spec 2.4's per-round check enumerates every count vector a with sum W: C(W+m-1, m-1) distinct rows."""
    vectors = count_vectors(3, 6)
    assert len(vectors) == math.comb(8, 2) and np.all(vectors.sum(axis=1) == 6) and np.all(vectors >= 0)
    assert len({tuple(v) for v in vectors.tolist()}) == len(vectors)


@pytest.mark.parametrize("m, T, R", [(2, 3, 0), (2, 1000, 0), (3, 10, 1), (4, 50, 0)])
def test_per_round_leak_is_within_lemmas_12_and_13(m, T, R):
    """Spec T6/T7 (Lemma 12: |E_t| <= 3 lambda / W; Lemma 13: |ln sum phi/sum phi'| <= 2 lambda / W), exhaustively
    over all count vectors for 6m <= W <= 6m + 8."""
    params = PRECParameters(m, T, 0, R)
    for W in range(6 * m, 6 * m + 9):
        leak = per_round_leakage(params, W)
        assert leak.lemma_12_ratio <= 1 and leak.lemma_13_ratio <= 1


def test_per_round_worst_ratio_recomputed():
    """Spec 2.5 [numerical check]: over m in {2,3,4}, W up to ~40 (also below 6m, down to 2) and the spec's tau
    grid, max |E_t| / (3 lambda / W) is 0.384 (reference value quoted to 3 digits; tolerance 5e-4)."""
    worst = 0.0
    for m in (2, 3, 4):
        for T, R in [(3, 1), (2, 0), (29, 9), (3, 0), (5, 0), (10, 0), (50, 0), (100, 0), (1000, 0)]:
            if 3 * T <= (m + 1) * (R + 1):
                continue
            for W in range(2, 41 if m < 4 else 31):
                worst = max(worst, per_round_leakage(PRECParameters(m, T, 0, R), W).lemma_12_ratio)
    assert abs(worst - 0.384) < 5e-4


def test_per_round_check_detects_a_broken_gamma():
    """Spec 2.5 (Lemma 12's last step needs gamma/(m(1-gamma)) >= (e^a - 1) e^{lambda rho} / ((e^{3a} - 1) phi(1/m))):
    with gamma = 10^-7 at tau = 100 an object crossing rho moves its probability by far more than
    e^{3 lambda / W} (power check of the exhaustive check)."""
    broken = PRECParameters(2, 100, gamma=sympy.Rational(1, 10**7))
    assert max(per_round_leakage(broken, W).lemma_12_ratio for W in range(48, 53)) > 1
    assert max(per_round_leakage(PRECParameters(2, 100), W).lemma_12_ratio for W in range(48, 53)) <= 1


# ---------------------------------------------------------------------------------------------
# Bad input for every public function (one table)
# ---------------------------------------------------------------------------------------------

def _instance():
    return Instance(2, [{0}, {1}, {0}], [[0, 1, 0]] * 3)


def _pair():
    return PRECTranscript.adjacent_pair(PRECSim(2, 3), _instance(), [0], 1)


def _adaptive(votes=lambda t, p: [0, 0], likes=lambda t, p: {0}):
    return AdaptiveInstance(2, 3, 2, votes, likes)


BAD_CALLS = [
    (lambda: PRECParameters(1, 10), "m"),
    (lambda: PRECParameters(2, 1), "T"),
    (lambda: PRECParameters(2, 10, 11, 0), "D"),
    (lambda: PRECParameters(2, 10, 0, 9), "R"),
    (lambda: PRECParameters(5, 2, 0, 0), "T"),
    (lambda: PRECParameters(2, 10, gamma=2), "gamma"),
    (lambda: PRECParameters(2, 10, gamma="log(2)"), "gamma"),
    (lambda: PRECSim(2, "x"), "T"),
    (lambda: PREC(2, 10, -1, 0), "D"),
    (lambda: phi_exact(1, 0, 0), "lam"),
    (lambda: phi_exact("nan", 1, 0), "x"),
    (lambda: phi(1.0, -1.0, 0.0), "lam"),
    (lambda: phi_shares(PRECParameters(2, 10), np.array([1, 2, 3])), "counts"),
    (lambda: recommendation_probabilities(PRECParameters(2, 10), np.array([[-1, 2]])), "counts"),
    (lambda: exact_round_probabilities(PRECParameters(2, 10), (1, 2, 3)), "counts"),
    (lambda: Instance(1, [{0}], [[0]]), "m"),
    (lambda: Instance(2, [set()], [[0]]), "likes[0]"),
    (lambda: Instance(2, [{0}, {2}], [[0, 0]]), "likes[1]"),
    (lambda: Instance(2, [{0}], [[0, 1]]), "votes"),
    (lambda: Instance(2, [{0}], [[3]]), "votes"),
    (lambda: Instance(2, "ab", [[0]]), "likes"),
    (lambda: _instance().peers(-1), "R"),
    (lambda: _instance().losses(np.array([[0, 2, 0]])), "sequences"),
    (lambda: AdaptiveInstance(2, 3, 2, None, lambda t, p: {0}), "vote_rule"),
    (lambda: _adaptive(votes=lambda t, p: [0]).round_votes(0, ()), "vote_rule"),
    (lambda: _adaptive(likes=lambda t, p: {5}).round_likes(0, ()), "likes[0]"),
    (lambda: PRECSim(2, 3).simulate(_instance(), 5, "seed"), "rng"),
    (lambda: PRECSim(2, 3).simulate(_instance(), -1, RNG(0)), "size"),
    (lambda: PRECSim(2, 4).simulate(_instance(), 5, RNG(0)), "instance"),
    (lambda: PRECSim(2, 3).simulate(_instance(), 5, RNG(0), voters=[7]), "voters"),
    (lambda: enumerate_transcripts(PRECSim(2, 13), Instance(2, [{0}] * 13, [[0] * 13]), [0]), "T"),
    (lambda: enumerate_transcripts(PRECSim(2, 3), _instance(), [0, 9]), "voters"),
    (lambda: enumerate_transcripts("p-rec", _instance(), [0]), "algorithm"),
    (lambda: privacy_loss_trace(PRECSim(2, 3), _instance(), [0, 1], 1), "extra"),
    (lambda: PRECTranscript(PRECSim(2, 3), (_instance(),), ((0, {0}), (0, {1}))), "profiles"),
    (lambda: PRECTranscript(PRECSim(2, 3), (_instance(),), ((3, {0}), (3, {0, 1}))), "profiles"),
    (lambda: PRECTranscript(PRECSim(2, 3), _instance(), ((0, {0}), (0, {0, 1}))), "instances"),
    (lambda: PRECTranscript.adjacent_pair(PRECSim(2, 3), _instance(), [0], 1).table((0, frozenset({2}))), "x"),
    (lambda: PRECTranscript.adjacent_pair(PRECSim(2, 3), _adaptive(), [0], 1).min_peers(), "min_peers"),
    (lambda: planted_instance(2, 5, P=-1, rng=RNG(0)), "P"),
    (lambda: planted_instance(2, 5, P=3, D=6, rng=RNG(0)), "D"),
    (lambda: planted_instance(2, 5, P=3, rng=0), "rng"),
    (lambda: theorem_6_instance(2, 5, P=3, R=6, rng=RNG(0)), "R"),
    (lambda: lemma_8_chain(3, 4, t=3), "t"),
    (lambda: lemma_8_chain(3, 0), "P"),
    (lambda: diversity_chain(3, 4, 2), "D"),
    (lambda: adaptive_instance(2, 5, P=3, D=6), "D"),
    (lambda: adaptive_instance(2, 5, P=3, followers=-1), "followers"),
    (lambda: _pair().round_marginal((0, frozenset({0})), 3, {0}), "t"),
    (lambda: _pair().loss_trace((0, frozenset({0})), (0, frozenset({0}))), "x_prime"),
    (lambda: planted_pair("p-rec", P=3, rng=RNG(0)), "algorithm"),
    (lambda: per_round_leakage(PRECParameters(2, 10), 1), "W"),
    (lambda: per_round_leakage((2, 10), 12), "params"),
    (lambda: per_round_leakage(PRECParameters(4, 10), 200), "W"),
    (lambda: count_vectors(0, 3), "m"),
]


@pytest.mark.parametrize("call, parameter", BAD_CALLS, ids=[f"{i}-{p}" for i, (_, p) in enumerate(BAD_CALLS)])
def test_bad_input_names_the_parameter(call, parameter):
    """DESIGN (bad input): every public function raises InvalidParameterError naming the parameter, one line."""
    assert_rejects(call, parameter)
