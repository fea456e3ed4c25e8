"""PRIVACT end to end (Algorithm 2): the spent ε, post-processing data flow (TC-P5), S̄, degree estimates,
and recovery of planted communities at the top split of the tree.

These stay tests: the data flow (TC-P5) is a property of dpcert's implementation, which the paper's privacy
argument assumes; the paper states no planted-community result."""

from __future__ import annotations

import inspect

import numpy as np
import sympy

from dpcert.mechanisms.privact import (
    PrivactBudget,
    PrivactReports,
    aggregate,
    bins_for,
    degree_vectors,
    dissimilarity_matrix,
    estimated_degrees,
    gentree,
    local_reports,
    planted_partition_graph,
    privact,
    random_partition,
)

R = sympy.Rational


def misplaced_at_top_split(tree, labels: np.ndarray) -> int:
    """Users on the wrong side of the root split, for the better of the two ways to match sides to blocks."""
    first, second = (labels[tree.leaves(side)] for side in tree.children(tree.root))
    return int(min((first != 0).sum() + (second != 1).sum(), (first != 1).sum() + (second != 0).sum()))


def planted() -> tuple:
    """Two planted communities of 26 and 14 users (p_in = 0.9, p_out = 0.03), fixed seed."""
    return planted_partition_graph((26, 14), R(9, 10), R(3, 100), np.random.default_rng(2021))


def test_gentree_top_split_recovers_planted_communities():
    """GENTREE on the noiseless S = max(1, ‖c_i − c_j‖_1) (K = ⌊ln 40⌋ = 3 bins) separates the two planted
    communities exactly at the root; PRIVACT at ε_edge = 4 (σ = 1/2) misplaces at most 2 of 40 users.
    Power: the random initial tree (0 iterations) misplaces many."""
    graph, labels = planted()
    rng = np.random.default_rng(7)
    K = bins_for(graph.n)
    assert K == 3
    S = dissimilarity_matrix(degree_vectors(graph, random_partition(graph.n, K, rng), K))
    assert misplaced_at_top_split(gentree(S, rng).tree, labels) == 0
    result = privact(graph, 4, rng)
    assert misplaced_at_top_split(result.tree, labels) <= 2
    assert misplaced_at_top_split(gentree(S, rng, iterations=0).tree, labels) >= 5


def test_privact_reports_its_spent_epsilon():
    """Algorithm 2 with the experiments' per-edge ε: σ = 2/ε_edge, ε_user = ε_edge/2 (spec A1)."""
    graph, _ = planted()
    result = privact(graph, R(1, 2), np.random.default_rng(3), iterations_per_node=5)
    assert result.eps_edge == R(1, 2) and result.eps_user == R(1, 4) and result.reports.budget.sigma == 4
    assert result.reports.noisy_vectors.shape == (40, 3) and result.reports.K == 3
    assert result.run.iterations == 5 * 40
    S = result.dissimilarity
    off = ~np.eye(40, dtype=bool)
    assert (S[off] >= 1).all() and (np.diag(S) == 0).all() and (S == S.T).all()


def test_aggregation_is_post_processing_of_the_reports():
    """TC-P5: the aggregator's step takes the reports and a generator, never the graph; given the same reports and
    seed it is deterministic, and it reads nothing else (a second graph with the same reports gives the same tree)."""
    assert list(inspect.signature(aggregate).parameters) == ["reports", "rng", "iterations_per_node", "iterations"]
    graph, _ = planted()
    reports = local_reports(graph, PrivactBudget.from_eps_edge(1), np.random.default_rng(1))
    trees = [aggregate(reports, np.random.default_rng(9), iterations_per_node=20).tree for _ in range(2)]
    assert trees[0] == trees[1]
    copied = PrivactReports(reports.partition.copy(), reports.K, reports.noisy_vectors.copy(), reports.budget)
    assert aggregate(copied, np.random.default_rng(9), iterations_per_node=20).tree == trees[0]


def test_dissimilarity_matrix_is_the_floored_l1_distance():
    """Algorithm 2, line 4: S̄(i, j) = max(1, Σ_l |c̄_i^l − c̄_j^l|), zero diagonal; exact for integer counts."""
    vectors = np.array([[0, 2], [0, 2], [3, 0]])
    assert dissimilarity_matrix(vectors).tolist() == [[0, 1, 5], [1, 0, 5], [5, 5, 0]]
    assert dissimilarity_matrix(vectors, floor=None).tolist() == [[0, 0, 5], [0, 0, 5], [5, 5, 0]]
    noisy = np.array([[0.25, 2.0], [0.0, 2.5]])
    assert dissimilarity_matrix(noisy).tolist() == [[0.0, 1.0], [1.0, 0.0]]
    assert dissimilarity_matrix(noisy, floor=0).tolist() == [[0.0, 0.75], [0.75, 0.0]]


def test_degree_estimates_and_closest_users_from_the_release():
    """Section 7.2: m_u = max(0, trunc(Σ_l c̄_u^l)) ([code] int()), and N(u) from T_dp defaults to m = m_u."""
    assert estimated_degrees(np.array([[1.7, 2.6], [-0.4, 0.1], [-3.0, 1.0]])).tolist() == [4, 0, 0]
    graph, _ = planted()
    result = privact(graph, 2, np.random.default_rng(4), iterations_per_node=50)
    m = estimated_degrees(result.reports.noisy_vectors)
    for u in (0, 25, 39):
        found = result.closest_users(u)
        assert len(found) == min(int(m[u]), 39) and u not in found
    assert len(result.closest_users(0, 5)) == 5
