"""Loss of p-REC by simulation (spec section 5, T16-T18 and T21) and the simulator against the exact pmf.

Statistical tests use fixed seeds and state their false-failure probability (<= 1e-6, by an exact
binomial test or Hoeffding/Bernstein tail bounds with a union bound); each has a power check: the same test
rejects a deliberately broken variant. The pathwise test (T16) is deterministic given the runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.accountant.online_recommendation.bounds import greedy_loss_bound, loss_upper_prec, loss_upper_sim
from dpcert.mechanisms.online_recommendation import (
    PREC,
    AdaptiveInstance,
    PRECSim,
    PRECTranscript,
    planted_instance,
)

ALPHA = 1e-6  # every statistical test's false-failure probability


def bernstein_radius(variance: float, bound: float, delta: float) -> float:
    """t with P(S - E S >= t) <= delta for a sum S of independent terms within `bound` of their means and total
    variance <= `variance` (one-sided Bernstein: exp(-t^2 / (2 (variance + bound t / 3))))."""
    log = math.log(1 / delta)
    return bound * log / 3 + math.sqrt((bound * log / 3) ** 2 + 2 * variance * log)


def _follower_instance(m, T, P, others, seed):
    """Adaptive adversary: the non-peers vote for the object recommended last round if the client disliked
    it, else for a disliked object (they chase the client's losses)."""
    rng = np.random.default_rng(seed)
    liked = rng.integers(0, m, size=T)

    def likes(t, prefix):
        return {int(liked[t])}

    def votes(t, prefix):
        bait = (int(liked[t]) + 1 + (len(prefix) and prefix[-1])) % m
        bait = bait if bait != liked[t] else (bait + 1) % m
        return [int(liked[t])] * P + [bait] * others

    return AdaptiveInstance(m, T, P + others, votes, likes)


class _NoKickSim(PRECSim):
    """Broken p-REC_sim whose UpdateWeight does nothing (no voter is ever kicked out)."""

    def update(self, state, voted, liked):
        return state


# ---------------------------------------------------------------------------------------------
# T16: pathwise bound on the greedy loss rounds (Theorems 10 and 16)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("m, T, R, hostile, adaptive", [(2, 120, 0, True, False), (3, 120, 0, False, False),
                                                        (2, 120, 2, True, False), (3, 80, 0, False, True)])
def test_greedy_loss_rounds_obey_the_pathwise_bound(m, T, R, hostile, adaptive):
    """Spec T16 (proofs of Theorems 10 and 16): in EVERY run, #{t : Z_t = 0 and C dislikes b_t} <=
    ln((2R+1)n/((R+1)P)) / -ln(1 - 1/(2m(2R+1))), also against an adaptive adversary; C^(R)_t never
    drops below (R+1)P."""
    P, others = 6 * m, 60
    if adaptive:
        instance = _follower_instance(m, T, P, others, seed=5)
    else:
        instance = planted_instance(m, T, P=P, R=R, others=others, hostile=hostile, rng=np.random.default_rng(m + R))
    algorithm = PRECSim(m, T) if R == 0 else PREC(m, T, 0, R)
    runs = algorithm.simulate(instance, 300, np.random.default_rng(11))
    bound = float(greedy_loss_bound(m, P + others, P, R=R).value)
    assert runs.greedy_losses.max() <= bound
    assert runs.r_credit.min() >= (R + 1) * P
    assert runs.losses.any()  # the adversary does cause losses


# ---------------------------------------------------------------------------------------------
# T17: expected loss (Theorems 10 and 16)
# ---------------------------------------------------------------------------------------------

def _expected_loss_test(algorithm, instance, bound, runs, seed) -> bool:
    """One-sided: mean loss <= bound + t. Under Theorem 10/16 (loss <= greedy bound + #{Z_t = 1} pathwise,
    #{Z_t = 1} ~ Binomial(T, gamma) independently per run) the mean exceeds bound + t only if the total of
    runs * T Bernoulli(gamma) draws exceeds its mean by runs * t: probability <= ALPHA by Bernstein."""
    result = algorithm.simulate(instance, runs, np.random.default_rng(seed))
    gamma, T = float(algorithm.params.gamma), algorithm.params.T
    t = bernstein_radius(runs * T * gamma * (1 - gamma), 1.0, ALPHA) / runs
    return result.total_loss.mean() <= bound + t


@pytest.mark.statistical
@pytest.mark.parametrize("hostile", [False, True])
def test_expected_loss_of_prec_sim_is_within_theorem_10(hostile):
    """Spec T17 / Theorem 10 (and section 4's setting m = 2, T = 200, P = 12): mean loss <= 2m ln(n/P) + mT/(3T-1);
    false-failure probability <= 1e-6. Power check: p-REC_sim with UpdateWeight disabled, or with gamma = 1
    (always uniform), fails the same test."""
    m, T, P, others = 2, 200, 12, 300
    instance = planted_instance(m, T, P=P, others=others, hostile=hostile, rng=np.random.default_rng(3))
    bound = float(loss_upper_sim(m, P + others, P, T).value)
    assert _expected_loss_test(PRECSim(m, T), instance, bound, 300, seed=1)
    assert not _expected_loss_test(PRECSim(m, T, gamma=1), instance, bound, 300, seed=2)
    if hostile:
        assert not _expected_loss_test(_NoKickSim(m, T), instance, bound, 300, seed=3)


@pytest.mark.statistical
def test_expected_loss_of_prec_is_within_theorem_16():
    """Spec T17 / Theorem 16: mean loss <= 2m(2R+1) ln((2R+1)n/((R+1)P)) + m(R+1)T/(3T-R-1) with D = 2, R = 2;
    false-failure probability <= 1e-6. Power check: gamma = 1 fails."""
    m, T, D, R, P, others = 3, 150, 2, 2, 18, 200
    instance = planted_instance(m, T, P=P, D=D, R=R, others=others, hostile=True, rng=np.random.default_rng(8))
    bound = float(loss_upper_prec(m, P + others, P, R, T).value)
    assert _expected_loss_test(PREC(m, T, D, R), instance, bound, 300, seed=4)
    assert not _expected_loss_test(PREC(m, T, D, R, gamma=1), instance, bound, 300, seed=5)


# ---------------------------------------------------------------------------------------------
# T18: the number of uniform rounds
# ---------------------------------------------------------------------------------------------

def _uniform_rounds_consistent(algorithm, gamma, instance, runs, seed) -> bool:
    """Exact two-sided binomial test of #{Z_t = 1} over runs * T rounds against Binomial(runs T, gamma)."""
    result = algorithm.simulate(instance, runs, np.random.default_rng(seed))
    total = int(result.uniform.sum())
    return scipy.stats.binomtest(total, result.uniform.size, float(gamma)).pvalue >= ALPHA


@pytest.mark.statistical
def test_uniform_rounds_have_mean_gamma_t():
    """Spec T18 (Theorems 10/16 proofs): E[#{Z_t = 1}] = gamma T with gamma = m(R+1)/(3T-R-1); exact binomial
    test, false-failure probability <= 1e-6. Power check: a variant drawing Z_t with 2 gamma is rejected."""
    m, T, R = 2, 40, 3
    instance = planted_instance(m, T, P=12, R=R, others=10, rng=np.random.default_rng(0))
    gamma = sympy.Rational(m * (R + 1), 3 * T - R - 1)
    assert _uniform_rounds_consistent(PREC(m, T, 0, R), gamma, instance, 2000, seed=6)
    assert not _uniform_rounds_consistent(PREC(m, T, 0, R, gamma=2 * gamma), gamma, instance, 2000, seed=7)


# ---------------------------------------------------------------------------------------------
# T21: Theorem 6's R-part (random client in the first R rounds)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _RandomClients:
    """Theorem 6's construction with an independent random client per run (P voters always vote 0)."""

    m: int
    T: int
    n_voters: int
    liked: np.ndarray  # runs x T

    def votes_at(self, t, prefixes):
        return np.zeros((prefixes.shape[0], self.n_voters), dtype=np.int64)

    def likes_at(self, t, prefixes):
        return np.eye(self.m, dtype=bool)[self.liked[:, t]]


def _first_rounds_loss_matches(m, R, liked, seed) -> bool:
    """Two-sided Hoeffding: |mean loss in rounds < R - (1 - 1/m) R| <= R sqrt(ln(2/ALPHA) / (2 N))."""
    runs, T = liked.shape
    result = PRECSim(m, T).simulate(_RandomClients(m, T, 12, liked), runs, np.random.default_rng(seed))
    mean = result.losses[:, :R].sum(axis=1).mean()
    return abs(mean - (1 - 1 / m) * R) <= R * math.sqrt(math.log(2 / ALPHA) / (2 * runs))


@pytest.mark.statistical
def test_theorem_6_random_client_forces_loss_in_the_first_r_rounds():
    """Spec T21 (Theorem 6's R part): against a client liking a uniform random object in each of the first R
    rounds, every algorithm, p-REC_sim included, loses (1 - 1/m) R in expectation there; false-failure
    probability <= 1e-6. Power check: with the client's likes fixed (object 0) the same test fails."""
    m, R, T, runs = 3, 20, 24, 2000
    rng = np.random.default_rng(9)
    random_client = np.hstack([rng.integers(0, m, size=(runs, R)), np.zeros((runs, T - R), dtype=np.int64)])
    assert _first_rounds_loss_matches(m, R, random_client, seed=10)
    assert not _first_rounds_loss_matches(m, R, np.zeros((runs, T), dtype=np.int64), seed=11)


# ---------------------------------------------------------------------------------------------
# The simulator samples the exact distribution (spec 2.4; Algorithm 1 with one Z_t per round, A3)
# ---------------------------------------------------------------------------------------------

def _frequencies_match(mechanism, profile, pmf, runs, seed) -> bool:
    """Per sequence, an exact two-sided binomial test of its count against pmf; Bonferroni over the m^T sequences."""
    samples = mechanism.sample(profile, runs, np.random.default_rng(seed))
    counts = {}
    for row in samples:
        b = tuple(int(v) for v in row)
        counts[b] = counts.get(b, 0) + 1
    level = ALPHA / len(pmf)
    return all(scipy.stats.binomtest(counts.get(b, 0), runs, float(p)).pvalue >= level for b, p in pmf.items())


@pytest.mark.statistical
def test_simulator_samples_the_exact_transcript_distribution():
    """Spec 2.4 / A3 (one Bernoulli Z_t per round): PRECTranscript.sample (the vectorised simulator) matches
    the exact pmf of every sequence; false-failure probability <= 1e-6. Power check: the same samples are
    rejected against the exact pmf of a variant with gamma = 1/2."""
    instance = planted_instance(2, 4, P=12, D=2, others=6, rng=np.random.default_rng(2))
    instance = instance.with_voters(np.array([[1, 0, 1, 1]]))
    mechanism = PRECTranscript.adjacent_pair(PREC(2, 4, 2, 0), instance, range(18), 18)
    broken = PRECTranscript.adjacent_pair(PREC(2, 4, 2, 0, gamma=sympy.Rational(1, 2)), instance, range(18), 18)
    for profile in mechanism.inputs():
        assert _frequencies_match(mechanism, profile, mechanism.pmf(profile), 20000, seed=12)
    assert not _frequencies_match(mechanism, mechanism.inputs()[1], broken.pmf(broken.inputs()[1]), 20000, seed=12)
