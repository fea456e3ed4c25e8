"""PRIVACT: private hierarchical clustering in federated networks, as mechanisms.

Kolluri, Baluta, Saxena, ACM CCS 2021 (004_a0cddc0a7a24fb37.txt); exact formulas and corrections in
specs/kolluri_private_hierarchical_clustering.md.

- :mod:`~dpcert.mechanisms.privact.graphs`: the federated graph, edge lists, LCC, Table 1, planted partitions.
- :mod:`~dpcert.mechanisms.privact.degree_vector`: the local randomizer (noisy degree vectors), ε per user / edge.
- :mod:`~dpcert.mechanisms.privact.strawman`: randomized response on adjacency bits (Section 2.2).
- :mod:`~dpcert.mechanisms.privact.dissimilarity`: S̄ = max(1, L1) and draws of the noisy quality g(T).
- :mod:`~dpcert.mechanisms.privact.tree`: cluster trees, Q_D, θ, local swaps and their ΔQ, m closest users.
- :mod:`~dpcert.mechanisms.privact.gentree`: GENTREE (Algorithm 1), Metropolis–Hastings at temperature 1.
- :mod:`~dpcert.mechanisms.privact.enumeration`: all (2n − 3)!! trees for n <= 8, for exact checks.
- :mod:`~dpcert.mechanisms.privact.privact`: PRIVACT end to end (Algorithm 2).
- :mod:`~dpcert.mechanisms.privact.ratings`: Section 7's ratings, their normalisation, cold-start and existing-user splits.
- :mod:`~dpcert.mechanisms.privact.recommenders`: itemAvg, friendsCF and PRIVACT-CF top-k lists, both fallback rules.
- :mod:`~dpcert.mechanisms.privact.ranking_metrics`: NDCG@k and MAP@k (the paper's and the code's AP normalisation).
- :mod:`~dpcert.mechanisms.privact.cold_start`: the cold-start experiment end to end (Tables 4 and 5).
- :mod:`~dpcert.mechanisms.privact.serec`: SERec as RecQ implements it (Table 3's recommender), and Basic SERec.
- :mod:`~dpcert.mechanisms.privact.existing_users`: the existing-user experiment end to end (Table 3).
"""

from dpcert.mechanisms.privact.degree_vector import (
    NoisyDegreeVector,
    PrivactBudget,
    bins_for,
    degree_vectors,
    edge_privacy_loss,
    noisy_degree_vectors,
    random_partition,
    validate_partition,
)
from dpcert.mechanisms.privact.dissimilarity import dissimilarity_matrix, noisy_quality_samples
from dpcert.mechanisms.privact.enumeration import (
    MAX_ENUMERATED_LEAVES,
    all_trees,
    pair_weight_stack,
    swap_move_counts,
    tree_count,
    tree_qualities,
)
from dpcert.mechanisms.privact.gentree import (
    DEFAULT_ITERATIONS_PER_NODE,
    GenTreeResult,
    acceptance_log_probability,
    gentree,
    proposal_moves,
)
from dpcert.mechanisms.privact.graphs import (
    SOCIAL_GRAPHS_ENV,
    TABLE1,
    SocialGraph,
    generated_like,
    load_social_graph,
    planted_partition_graph,
    read_edge_list,
    social_graphs_dir,
)
from dpcert.mechanisms.privact.privact import (
    PrivactReports,
    PrivactResult,
    PrivateTreeUtility,
    UtilityComparison,
    aggregate,
    compare_utility,
    estimated_degrees,
    local_reports,
    privact,
)
from dpcert.mechanisms.privact.strawman import AdjacencyRandomizedResponse
from dpcert.mechanisms.privact.paper_ids import first_seen_order, paper_labelled_graph
from dpcert.mechanisms.privact.social_similarity import (
    PROFILES,
    SimilarityDistanceSummary,
    hop_distances,
    rating_similarity,
    similarity_distance_correlations,
    summarize_correlations,
    table_6_row,
)
from dpcert.mechanisms.privact.tree import (
    ClusterTree,
    clique_constant,
    closest_users,
    cross_sums,
    dasgupta_quality,
    ideal_clustering_violations,
    local_swap_delta,
    random_tree,
    swap_delta,
    thetas,
    validate_dissimilarity,
)
from dpcert.mechanisms.privact.likelihood import (
    AUTHORS_PI_CLAMP,
    edge_counts,
    likelihood,
    likelihood_swap_delta,
    local_likelihood_delta,
    log_likelihood,
    log_likelihood_exact,
    node_log_likelihoods,
    pair_counts,
)
from dpcert.mechanisms.privact.cmn import (
    CMN_DP_EXPONENT_CLAMP,
    LikelihoodRun,
    cmn,
    cmn_dp,
    cmn_dp_acceptance_log_probability,
    cmn_dp_sensitivity,
)
from dpcert.mechanisms.privact.likelihood_comparison import (
    FIGURE5_EPS_EDGES,
    FIGURE5_SEEDS,
    LikelihoodComparison,
    compare_likelihood,
    privact_likelihood_run,
)

__all__ = [
    "DEFAULT_ITERATIONS_PER_NODE",
    "MAX_ENUMERATED_LEAVES",
    "SOCIAL_GRAPHS_ENV",
    "TABLE1",
    "AdjacencyRandomizedResponse",
    "ClusterTree",
    "GenTreeResult",
    "NoisyDegreeVector",
    "PrivactBudget",
    "PrivactReports",
    "PrivactResult",
    "SocialGraph",
    "acceptance_log_probability",
    "aggregate",
    "all_trees",
    "bins_for",
    "clique_constant",
    "closest_users",
    "cross_sums",
    "dasgupta_quality",
    "degree_vectors",
    "dissimilarity_matrix",
    "edge_privacy_loss",
    "estimated_degrees",
    "generated_like",
    "gentree",
    "ideal_clustering_violations",
    "load_social_graph",
    "local_reports",
    "local_swap_delta",
    "noisy_degree_vectors",
    "noisy_quality_samples",
    "pair_weight_stack",
    "planted_partition_graph",
    "privact",
    "compare_utility",
    "PrivateTreeUtility",
    "UtilityComparison",
    "proposal_moves",
    "random_partition",
    "random_tree",
    "read_edge_list",
    "social_graphs_dir",
    "swap_delta",
    "swap_move_counts",
    "thetas",
    "tree_count",
    "tree_qualities",
    "validate_dissimilarity",
    "validate_partition",
    "first_seen_order",
    "paper_labelled_graph",
    "PROFILES",
    "SimilarityDistanceSummary",
    "hop_distances",
    "rating_similarity",
    "similarity_distance_correlations",
    "summarize_correlations",
    "table_6_row",
    "AUTHORS_PI_CLAMP",
    "edge_counts",
    "likelihood",
    "likelihood_swap_delta",
    "local_likelihood_delta",
    "log_likelihood",
    "log_likelihood_exact",
    "node_log_likelihoods",
    "pair_counts",
    "CMN_DP_EXPONENT_CLAMP",
    "LikelihoodRun",
    "cmn",
    "cmn_dp",
    "cmn_dp_acceptance_log_probability",
    "cmn_dp_sensitivity",
    "FIGURE5_EPS_EDGES",
    "FIGURE5_SEEDS",
    "LikelihoodComparison",
    "compare_likelihood",
    "privact_likelihood_run",
]
