"""One table of invalid arguments to the PRIVACT package and its bounds: each raises InvalidParameterError with a
one-line message naming the parameter (and, where there is one, the allowed range)."""

from __future__ import annotations

import numpy as np
import pytest

from dpcert.accountant.privact.bounds import lemma_5_1_tail_bound, lemma_6_1_bias_bound
from dpcert.proofs.claims.privact.checks import (
    boltzmann_loss_check,
    footnote_2_check,
    lemma_6_statistics,
    median_of_means_failure,
    theorem_3_check,
    theorem_6_vacuity_table,
)
from conftest import assert_rejects
from dpcert.mechanisms.privact import (
    AdjacencyRandomizedResponse,
    ClusterTree,
    NoisyDegreeVector,
    PrivactBudget,
    SocialGraph,
    all_trees,
    bins_for,
    closest_users,
    degree_vectors,
    dissimilarity_matrix,
    edge_privacy_loss,
    gentree,
    load_social_graph,
    local_reports,
    noisy_degree_vectors,
    noisy_quality_samples,
    planted_partition_graph,
    privact,
    random_partition,
    random_tree,
    read_edge_list,
    swap_delta,
)

RNG = np.random.default_rng(0)
TREE = ClusterTree.from_nested(((0, 1), (2, 3)))
S4 = np.array([[0, 1, 2, 3], [1, 0, 1, 2], [2, 1, 0, 1], [3, 2, 1, 0]])
GRAPH = SocialGraph(4, [[0, 1], [1, 2], [2, 3]])
S4_INFINITE = np.where(S4 == 3, np.inf, S4.astype(float))

CASES = [
    (lambda: bins_for(2), "n", "[3, inf]"),
    (lambda: random_partition(5, 6, RNG), "K", "[1, 5]"),
    (lambda: random_partition(5, 0, RNG), "K", "[1, 5]"),
    (lambda: random_partition(5, 2, 7), "rng", "Generator"),
    (lambda: degree_vectors(np.eye(3, dtype=int), [0, 1], 2), "partition", "3 integer bin ids"),
    (lambda: degree_vectors(np.eye(3, dtype=int), [0, 1, 2], 2), "partition", "[0, 1]"),
    (lambda: degree_vectors(np.full((2, 3), 2), [0, 1, 1], 2), "adjacency", "0/1"),
    (lambda: noisy_degree_vectors(np.zeros((2, 2)), 0, RNG), "sigma", "> 0"),
    (lambda: PrivactBudget(-1), "sigma", "> 0"),
    (lambda: PrivactBudget.from_eps_edge(0), "eps_edge", "> 0"),
    (lambda: PrivactBudget.from_eps_user("nan"), "eps_user", "finite"),
    (lambda: NoisyDegreeVector((0, 1, 2), 2, 0, 1), "partition", "[0, 1]"),
    (lambda: NoisyDegreeVector((0, 1), 2, 2, 1), "user", "[0, 1]"),
    (lambda: NoisyDegreeVector((0, 1), 2, 0, 0), "sigma", "> 0"),
    (lambda: NoisyDegreeVector((0, 1), 2, 0, 1).counts((1, 0)), "x", "x[0] = 0"),
    (lambda: NoisyDegreeVector((0, 1), 2, 0, 1).log_likelihood_ratio([0], (0, 1), (0, 0)), "y", "K = 2"),
    (lambda: edge_privacy_loss(GRAPH, [0, 0, 1, 1], 2, 1, 2, 2), "j", "differ"),
    (lambda: edge_privacy_loss(GRAPH, [0, 0, 1, 1], 2, 1, 0, 4), "j", "[0, 3]"),
    (lambda: AdjacencyRandomizedResponse("1/2"), "p_keep", "(1/2, 1)"),
    (lambda: AdjacencyRandomizedResponse(1), "p_keep", "[0, 1)"),
    (lambda: AdjacencyRandomizedResponse().expected_reported_degree(10, 10), "d", "[0, 9]"),
    (lambda: SocialGraph(3, [[0, 3]]), "edges", "[0, 2]"),
    (lambda: SocialGraph(3, [[1, 1]]), "edges", "self-loop"),
    (lambda: SocialGraph(0, []), "n", "[1, inf]"),
    (lambda: read_edge_list("/nonexistent/edges.txt"), "path", "existing"),
    (lambda: load_social_graph("facebook"), "name", "lastfm, delicious, douban"),
    (lambda: planted_partition_graph((), 0.5, 0.1, 0), "sizes", "non-empty"),
    (lambda: planted_partition_graph((3, 3), 1.5, 0.1, 0), "p_in", "[0, 1]"),
    (lambda: ClusterTree([4, 0], [1, 2], 4), "left and right", "exactly one"),
    (lambda: ClusterTree([0], [1], 1), "root", "[2, 2]"),
    (lambda: ClusterTree.from_nested(((0, 1), 3)), "nested", "0..n-1"),
    (lambda: ClusterTree.from_nested((0, 1, 2)), "nested", "pair"),
    (lambda: TREE.swap(TREE.root, 0), "node", "non-root"),
    (lambda: TREE.swap(1, 0), "node", "[4, 6]"),
    (lambda: TREE.swap(int(TREE.non_root_internal_nodes[0]), 2), "config", "0 or 1"),
    (lambda: TREE.sibling(TREE.root), "node", "root"),
    (lambda: swap_delta(TREE, S4[:3, :3], int(TREE.non_root_internal_nodes[0]), 0), "S", "4 x 4"),
    (lambda: swap_delta(TREE, -S4, int(TREE.non_root_internal_nodes[0]), 0), "S", "non-negative"),
    (lambda: closest_users(TREE, 4, 1), "u", "[0, 3]"),
    (lambda: closest_users(TREE, 0, -1), "m", "[0, inf]"),
    (lambda: random_tree(1, RNG), "n", "[2, inf]"),
    (lambda: all_trees(9), "n", "[2, 8]"),
    (lambda: gentree(S4, RNG, iterations=-1), "iterations", "[0, inf]"),
    (lambda: gentree(S4, RNG, iterations_per_node=1.5), "iterations_per_node", "[0, inf]"),
    (lambda: gentree(S4, RNG, initial=random_tree(3, RNG)), "initial", "4 leaves"),
    (lambda: gentree(S4_INFINITE, RNG), "S", "finite"),
    (lambda: gentree(S4, None), "rng", "Generator"),
    (lambda: dissimilarity_matrix(np.zeros(3)), "vectors", "(n, K)"),
    (lambda: dissimilarity_matrix(np.zeros((3, 2)), floor=-1), "floor", ">= 0"),
    (lambda: noisy_quality_samples(np.zeros((3, 2)), TREE, 1, 10, RNG), "counts", "n = tree.n"),
    (lambda: local_reports(GRAPH, 1, RNG), "budget", "PrivactBudget"),
    (lambda: local_reports(GRAPH, PrivactBudget(1), RNG, K=5), "K", "[1, 4]"),
    (lambda: privact(GRAPH, -2, RNG), "eps_edge", "> 0"),
    (lambda: lemma_6_1_bias_bound(1, 3, 1), "n", "[2, inf]"),
    (lambda: lemma_6_1_bias_bound(10, 0, 1), "K", "[1, inf]"),
    (lambda: lemma_6_1_bias_bound(10, 3, 0), "sigma", "> 0"),
    (lambda: lemma_5_1_tail_bound(5, -1), "t", ">= 0"),
    (lambda: theorem_3_check(np.ones((8, 8), dtype=int)), "n", "[2, 7]"),
    (lambda: boltzmann_loss_check(np.ones((8, 8), dtype=int)), "n", "[2, 7]"),
    (lambda: boltzmann_loss_check(np.ones((3, 3))), "S", "exact"),
    (lambda: theorem_6_vacuity_table(sigma_per_eps="node"), "sigma_per_eps", "'user' or 'edge'"),
    (lambda: footnote_2_check(eps=0), "eps", "> 0"),
    (lambda: median_of_means_failure(4), "blocks", "odd"),
    (lambda: lemma_6_statistics(np.ones(10), 0, 10, 3, 1), "samples", "at least"),
    (lambda: lemma_6_statistics(np.ones(1000), 0, 10, 3, 1, false_failure=2.0), "false_failure", "(0, 1)"),
]


@pytest.mark.parametrize("call, parameter, allowed", CASES, ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)])
def test_invalid_argument_is_rejected_naming_the_parameter_and_range(call, parameter, allowed):
    """Every row raises one InvalidParameterError naming the parameter and the allowed range or rule."""
    assert_rejects(call, parameter)
    try:
        call()
    except ValueError as error:
        assert allowed in str(error), str(error)
