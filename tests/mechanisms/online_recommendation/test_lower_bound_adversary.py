"""Theorem 15's randomized adversary (001_8845c8f909738498.txt, Theorem 15, proof; spec section 3) against p-REC.

The dynamic programme of adversary_statistics is checked against brute force (every draw sequence of a small
horizon, every recommendation sequence enumerated exactly with P copies per pattern) and against sampled runs
of the adversary (a statistical test with a stated false-failure probability and a power check).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sympy

from dpcert.accountant.online_recommendation.bounds import eps_lower_theorem_15
from dpcert.mechanisms.online_recommendation import PREC, PRECSim, enumerate_transcripts
from dpcert.mechanisms.online_recommendation.lower_bound_adversary import (
    SETTINGS,
    Theorem15Adversary,
    Theorem15Configuration,
    adversary_statistics,
    simulate_adversary,
)
from dpcert.mechanisms.online_recommendation.model import adjacent
from dpcert.mechanisms.parameters import InvalidParameterError


def _brute_force(algorithm, adversary):
    """Pr[legal], E[loss], E[loss | legal], E[E | legal] by enumerating every draw sequence and every b exactly."""
    q = [float(x) for x in adversary.draw_probabilities]
    legal_mass = loss = legal_loss = legal_kl = 0.0
    for draws in itertools.product(range(3), repeat=adversary.T):
        weight = math.prod(q[x] for x in draws)
        if weight == 0:
            continue
        config = Theorem15Configuration(adversary.settings_of(draws), adversary.P)
        instance = config.instance()
        u, u_prime = config.patterns
        larger = enumerate_transcripts(algorithm, instance, u.voters)
        smaller = enumerate_transcripts(algorithm, instance, u_prime.voters)
        probs = np.array([float(larger.probability(i)) for i in range(len(larger.sequences))])
        probs_prime = np.array([float(smaller.probability(i)) for i in range(len(smaller.sequences))])
        run_loss = float(probs @ instance.losses(larger.sequences))
        kl = float(probs @ (np.log(probs) - np.log(probs_prime)))
        loss += weight * run_loss
        if config.legal(adversary.D, adversary.R):
            legal_mass += weight
            legal_loss += weight * run_loss
            legal_kl += weight * kl
    return legal_mass, loss, legal_loss / legal_mass, legal_kl / legal_mass


@pytest.mark.parametrize("algorithm, D, R, P", [(PREC(2, 5, 2, 1), 2, 1, 2), (PRECSim(2, 4), 1, 1, 1),
                                                (PREC(2, 5, 1, 0, gamma=sympy.Rational(1, 2)), 1, 2, 3)])
def test_dynamic_programme_matches_brute_force(algorithm, D, R, P):
    """Every draw sequence (3^T) and every recommendation sequence (2^T), exact transcript probabilities with P
    copies per pattern: the merged-state programme agrees to 1e-9 (float64 sums of <= 3^5 * 2^5 terms)."""
    adversary = Theorem15Adversary(algorithm.params.T, D, R, P)
    stats = adversary_statistics(algorithm, adversary)
    expected = _brute_force(algorithm, adversary)
    got = (stats.legal_probability, stats.expected_loss, stats.legal_loss, stats.legal_privacy_loss)
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert sum(stats.case_rounds.values()) == pytest.approx(algorithm.params.T)
    assert expected[3] > 0.1  # the brute-force leakage is not trivially zero


def _bernstein_halfwidth(values, *, span, delta):
    """Empirical Bernstein (Maurer and Pontil 2009, Theorem 4): |mean - mu| <= this with prob >= 1 - delta."""
    n = len(values)
    log_term = math.log(4 / delta)
    return math.sqrt(2 * np.var(values, ddof=1) * log_term / n) + 7 * span * log_term / (3 * (n - 1))


def _agrees(runs, stats, T, gamma):
    """Sampled E[loss] and E[E | legal] within their empirical-Bernstein half-widths (1e-7 each, 4e-7 in all
    with the two legal-count terms; Pr[illegal] < 1e-4 here so the legal runs are nearly all of them)."""
    per_round = math.log((1 - gamma / 2) / (gamma / 2))  # |E_t| <= ln((1 - gamma/2)/(gamma/2)) for this adversary
    legal = runs.legal
    loss_ok = abs(runs.loss.mean() - stats.expected_loss) <= _bernstein_halfwidth(runs.loss, span=T, delta=1e-7)
    leak_ok = abs(runs.privacy_loss[legal].mean() - stats.legal_privacy_loss) <= _bernstein_halfwidth(
        runs.privacy_loss[legal], span=2 * T * per_round, delta=1e-7)
    return loss_ok, leak_ok


@pytest.mark.statistical
def test_sampled_adversary_matches_dynamic_programme():
    """Sampled runs (12 voters per pattern, simulated in full) against the programme (one voter per pattern):
    false-failure probability <= 4e-7 (empirical Bernstein at 1e-7 for each of the two means, conditioning on
    legality aside: it changes the legal sample by < 10 runs in expectation). Power: the same test rejects the
    runs of a gamma = 1/8 variant against the paper's programme."""
    T, D, R, P = 64, 24, 1, 12
    paper = PREC(2, T, D, R)
    adversary = Theorem15Adversary(T, D, R, P)
    stats = adversary_statistics(paper, adversary)
    gamma = float(paper.params.gamma)
    runs = simulate_adversary(paper, adversary, 20_000, np.random.default_rng(15))
    assert _agrees(runs, stats, T, gamma) == (True, True)
    broken = simulate_adversary(PREC(2, T, D, R, gamma=sympy.Rational(1, 8)), adversary, 20_000, np.random.default_rng(16))
    assert _agrees(broken, stats, T, gamma) != (True, True)


def test_forced_leakage_meets_theorem_15_and_a_mimic_forces_nothing():
    """The claim's comparison has power: p-REC's forced eps exceeds Theorem 15's positive bound at the measured
    loss, while an adversary whose U' votes like U (no S3/S4 disagreement) forces 0 < that bound."""
    T, D, R, P = 128, 29, 1, 12
    algorithm = PREC(2, T, D, R)
    stats = adversary_statistics(algorithm, Theorem15Adversary(T, D, R, P))
    bound = float(eps_lower_theorem_15(T, sympy.Rational(stats.legal_loss), D, R, P).value)
    assert 0 < bound < stats.forced_epsilon(P)
    mimic = adversary_statistics(algorithm, Theorem15Adversary(T, D, R, P, mimic=True))
    assert mimic.forced_epsilon(P) == 0 < bound
    assert stats.case_rounds["2b"] == pytest.approx(T)  # p-REC follows the voters: case 2.b in every round


def test_uniform_recommender_pays_in_loss():
    """gamma = 1 (uniform, 0-DP): no leakage, every round is case 1.a, and E[loss] = (T - E[#S3])/2 exactly:
    S1, S2 and S4 rounds cost 1/2, S3 rounds (both liked) nothing; E[#S3] from the draw distribution."""
    T, D, R = 12, 2, 1
    stats = adversary_statistics(PREC(2, T, D, R, gamma=1), Theorem15Adversary(T, D, R, 3))
    q0 = (D + R) / (2 * T)
    s3 = sum(min(k, D) * math.comb(T, k) * q0**k * (1 - q0) ** (T - k) for k in range(T + 1))
    assert stats.legal_privacy_loss == 0 and stats.case_rounds["1a"] == pytest.approx(T)
    assert stats.expected_loss == pytest.approx((T - s3) / 2, rel=1e-12)


def test_settings_chain_and_legality():
    """S3 while fewer than D were used, then S4; the chain is 2P adjacent steps from U to U', and on a legal
    configuration every pattern of it has >= P peers (radius R) and the client's diversity is <= D."""
    adversary = Theorem15Adversary(8, 2, 1, 3)
    assert adversary.settings_of([0, 1, 0, 2, 0, 0, 1, 2]) == (3, 1, 3, 2, 4, 4, 1, 2)
    config = Theorem15Configuration((3, 1, 3, 2, 4, 1, 2, 1), 3)
    assert config.legal(2, 1) and not config.legal(1, 1) and not config.legal(2, 0)
    chain = config.chain()
    assert chain[0] == config.patterns[0] and chain[-1] == config.patterns[1] and len(chain) == 2 * 3 + 1
    assert all(adjacent(a, b) for a, b in zip(chain, chain[1:]))
    instance = config.instance()
    assert instance.diversity == 2
    assert all(instance.peer_count(1, p.voters) >= 3 for p in chain)
    for s, (likes, u, u_prime) in SETTINGS.items():
        assert u in likes and (u_prime in likes) == (s != 4)


@pytest.mark.parametrize("make, name", [
    (lambda: Theorem15Adversary(0, 1, 1), "T"),
    (lambda: Theorem15Adversary(4, 9, 0), "D"),
    (lambda: Theorem15Adversary(4, 5, 4), "R"),
    (lambda: Theorem15Adversary(4, 1, 1, 0), "P"),
    (lambda: Theorem15Configuration((1, 5), 1), "settings"),
    (lambda: Theorem15Configuration((1.5, 2), 1), "settings"),
    (lambda: Theorem15Configuration("12", 1), "settings"),
    (lambda: Theorem15Adversary(4, 1, 1, mimic="yes"), "mimic"),
    (lambda: adversary_statistics(PREC(3, 5), Theorem15Adversary(5, 1, 1)), "algorithm"),
    (lambda: simulate_adversary(PREC(2, 5), Theorem15Adversary(5, 1, 1), 10, 3), "rng"),
])
def test_invalid_parameters(make, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}"):
        make()
