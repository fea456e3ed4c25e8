"""PRIVACT's local randomizer: sensitivity (TC-P1), exact likelihood ratios (TC-P2), per-user vs per-edge ε
(TC-P3), the partition, and the randomized-response strawman (TC-P7).

These stay tests of the randomizer's code; the paper's statements they support are registered claims
(privact-degree-vector-user-ldp, privact-edge-eps-*, privact-strawman-example)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.privact import (
    AdjacencyRandomizedResponse,
    NoisyDegreeVector,
    PrivactBudget,
    degree_vectors,
    edge_privacy_loss,
    planted_partition_graph,
    random_partition,
)
from dpcert.proofs.exact import tightest_epsilon

R = sympy.Rational


@st.composite
def bits_and_partition(draw, max_n: int = 12):
    """A user's bit vector (no self-loop), ANY partition into K bins (not necessarily balanced), a user i, a bit j != i."""
    n = draw(st.integers(2, max_n))
    K = draw(st.integers(1, 5))
    partition = draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n))
    user = draw(st.integers(0, n - 1))
    bits = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    bits[user] = 0
    j = draw(st.integers(0, n - 1).filter(lambda j: j != user))
    return bits, partition, K, user, j


@given(bits_and_partition())
def test_one_flipped_bit_moves_exactly_one_count_by_one(case):
    """TC-P1: for any partition b, any D_i and j != i, c(D_i') - c(D_i) = ±e_{b(j)} exactly (L1 sensitivity 1)."""
    bits, partition, K, user, j = case
    flipped = list(bits)
    flipped[j] = 1 - flipped[j]
    before, after = degree_vectors(np.array([bits, flipped]), partition, K)
    expected = np.zeros(K, dtype=np.int64)
    expected[partition[j]] = 1 if flipped[j] else -1
    assert (after - before).tolist() == expected.tolist()
    # the counts themselves: neighbours per bin, summing to the degree
    assert before.tolist() == [sum(b for b, p in zip(bits, partition) if p == l) for l in range(K)]


@given(bits_and_partition(max_n=8), st.lists(st.fractions(-6, 6, max_denominator=7), min_size=5, max_size=5),
       st.sampled_from([R(1, 2), R(1), R(3, 2), R(2)]))
def test_exact_log_likelihood_ratio_is_within_one_over_sigma_and_attained(case, ys, sigma):
    """TC-P2: ln p(y|c) - ln p(y|c') = (|y_l - c'_l| - |y_l - c_l|)/σ ∈ [-1/σ, 1/σ], with equality exactly
    when y_l is outside the open interval between c_l and c'_l; attained at y = c and y = c'."""
    bits, partition, K, user, j = case
    mechanism = NoisyDegreeVector(tuple(partition), K, user, sigma)
    flipped = list(bits)
    flipped[j] = 1 - flipped[j]
    c, c_prime = mechanism.counts(bits), mechanism.counts(flipped)
    y = [sympy.Rational(f.numerator, f.denominator) for f in ys[:K]]
    ratio = mechanism.log_likelihood_ratio(y, bits, flipped)
    assert ratio.is_Rational and abs(ratio) <= 1 / sigma
    l = partition[j]
    low, high = sorted((int(c[l]), int(c_prime[l])))
    assert (abs(ratio) == 1 / sigma) == (not low < y[l] < high)
    # the density's own log-ratio agrees (sympy density of the mechanism)
    symbols = sympy.symbols(f"y0:{K}", real=True)
    density_ratio = mechanism.density(symbols, bits) / mechanism.density(symbols, flipped)
    assert sympy.simplify(sympy.log(density_ratio.subs(dict(zip(symbols, y)))) - ratio) == 0
    # attained: y = c gives +1/σ, y = c' gives -1/σ; and privacy_loss reports exactly 1/σ with y = c
    assert mechanism.log_likelihood_ratio(list(c), bits, flipped) == 1 / sigma
    assert mechanism.log_likelihood_ratio(list(c_prime), bits, flipped) == -1 / sigma
    assert mechanism.privacy_loss(bits, flipped) == (1 / sigma, tuple(int(v) for v in c))


def test_worst_loss_over_all_neighbours_is_eps_user():
    """TC-P2: over all n - 1 neighbours of a bit vector the worst loss is 1/σ = ε_u; a broken randomizer whose
    counts double-count one bin (sensitivity 2) would report 2/σ, which the same computation detects."""
    partition = (0, 1, 2, 0, 1, 2, 0)
    mechanism = NoisyDegreeVector(partition, 3, 2, R(2, 3))
    loss, neighbour, witness = mechanism.worst_privacy_loss((1, 0, 0, 1, 1, 0, 1))
    assert loss == R(3, 2) == mechanism.budget.eps_user
    assert sum(a != b for a, b in zip(neighbour, (1, 0, 0, 1, 1, 0, 1))) == 1
    assert mechanism.log_likelihood_ratio(witness, (1, 0, 0, 1, 1, 0, 1), neighbour) == loss
    # power: a 2-bit change (not a neighbour) has loss 2/σ under the same formula
    assert mechanism.privacy_loss((1, 0, 0, 1, 1, 0, 1), (0, 0, 0, 0, 1, 0, 1))[0] == 2 * R(3, 2)
    assert not mechanism.neighbours.is_neighbour((1, 0, 0, 1, 1, 0, 1), (0, 0, 0, 0, 1, 0, 1))
    assert not mechanism.neighbours.is_neighbour((1, 0, 0, 1), (1, 0, 1, 1))  # bit 2 is the user's own


@pytest.mark.parametrize("eps_edge", [R(1, 2), R(1), R(2)])
def test_edge_level_epsilon_is_twice_the_per_user_epsilon(eps_edge):
    """TC-P3: flipping one undirected edge changes both endpoints' reports; the joint log-ratio is 2/σ at worst,
    attained, so ε_edge = 2ε_u and σ = 2/ε_edge (spec A1; App. A.3)."""
    graph, _ = planted_partition_graph((6, 5), R(7, 10), R(1, 5), np.random.default_rng(11))
    budget = PrivactBudget.from_eps_edge(eps_edge)
    assert budget.sigma == 2 / eps_edge and budget.eps_edge == eps_edge and budget.eps_user == eps_edge / 2
    assert PrivactBudget.from_eps_user(eps_edge / 2) == budget
    partition = random_partition(graph.n, 3, np.random.default_rng(12))
    losses = {edge_privacy_loss(graph, partition, 3, budget.sigma, i, j) for i in range(graph.n) for j in range(i)}
    assert losses == {eps_edge}
    # the two endpoint mechanisms each contribute exactly ε_u
    adjacency = graph.adjacency.toarray()
    i, j = map(int, graph.edges[0])
    mechanism = NoisyDegreeVector(tuple(partition.tolist()), 3, i, budget.sigma)
    without = adjacency[i].copy()
    without[j] = 0
    assert mechanism.privacy_loss(adjacency[i], without)[0] == budget.eps_user


def test_random_partition_is_near_equal_and_covers_every_vertex():
    """Algorithm 2, line 1: K bins whose sizes differ by at most one ([code] np.array_split after a shuffle)."""
    rng = np.random.default_rng(4)
    for n, K in [(10, 3), (1843, 7), (7, 7), (5, 1)]:
        bins = random_partition(n, K, rng)
        sizes = np.bincount(bins, minlength=K)
        assert bins.shape == (n,) and sizes.sum() == n and sizes.max() - sizes.min() <= 1
    # different draws give different partitions (it is random, not a fixed split)
    assert not np.array_equal(random_partition(100, 4, rng), random_partition(100, 4, rng))


def laplace_tail_p_values(report_sigma: sympy.Expr, seed: int) -> list[float]:
    """Two-sided exact binomial p-values of Pr(c̄_1 > c_1 + t) = e^{-t/σ}/2 (σ = 3/2) at t = 1/2, 2, 4, on
    60,000 reports drawn with scale ``report_sigma``."""
    from scipy.stats import binom

    bits, draws = (0, 1, 1, 0), 60_000
    reports = NoisyDegreeVector((0, 1, 1, 0), 2, 0, report_sigma).sample(bits, draws, np.random.default_rng(seed))
    count = NoisyDegreeVector((0, 1, 1, 0), 2, 0, 1).counts(bits)[1]
    out = []
    for t in (0.5, 2.0, 4.0):
        hits, p = int(np.count_nonzero(reports[:, 1] > count + t)), 0.5 * np.exp(-t / 1.5)
        out.append(2 * min(binom.cdf(hits, draws, p), binom.sf(hits - 1, draws, p)))
    return out


@pytest.mark.statistical
def test_noisy_degree_vector_noise_has_the_laplace_tail():
    """The report c̄ = c + Lap(σ) has the exact tail Pr(c̄_l > c_l + t) = e^{-t/σ}/2 (spec TC-P4's tail).

    Exact two-sided binomial tests at 3 thresholds, each at level 1e-6/3: false-failure probability <= 1e-6.
    Power: the same test rejects reports drawn with half the scale.
    """
    assert min(laplace_tail_p_values(R(3, 2), seed=99)) > 1e-6 / 3
    assert min(laplace_tail_p_values(R(3, 4), seed=99)) <= 1e-6 / 3


def test_strawman_randomized_response_numbers():
    """TC-P7: p = 0.7 gives ε = ln(7/3) ≈ 0.847298 per bit, and a user with 70 of 10^6 contacts reports
    300,027.7 on average ("will claim to have 300,000 contacts", Section 2.2)."""
    strawman = AdjacencyRandomizedResponse()
    assert strawman.eps == sympy.log(R(7, 3))
    assert abs(float(strawman.eps) - 0.847298) < 5e-7
    assert strawman.expected_reported_degree(10**6, 70) == R(3000277, 10)
    # its per-bit release is binary randomized response, exactly ln(7/3)-DP and no better
    bit = strawman.bit_mechanism
    assert bit.truth_probability == R(7, 10)
    assert sympy.simplify(tightest_epsilon(bit).epsilon - sympy.log(R(7, 3))) == 0
    # the sampler flips 30% of the bits (fixed seed; 200,000 bits, 0.3 +- 0.005 is 15 standard deviations)
    reports = strawman.sample(np.zeros(1000, dtype=int), 200, np.random.default_rng(1))
    assert abs(reports.mean() - 0.3) < 0.005
    assert strawman.neighbours.is_neighbour((0, 1, 0), (0, 1, 1)) and not strawman.neighbours.is_neighbour((0, 1), (1, 0))
    assert AdjacencyRandomizedResponse(Fraction(9, 10)).eps == sympy.log(9)
