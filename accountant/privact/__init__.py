"""Bounds of PrivaCT, private hierarchical clustering of federated social graphs.

004_a0cddc0a7a24fb37.txt: Lemmas 5.1 and 6.1-6.3, Theorems 5 and 6, closed forms only; the checks that decide
the paper's claims are in :mod:`dpcert.proofs.claims.privact`, its mechanisms in :mod:`dpcert.mechanisms.privact`.
"""

from dpcert.accountant.privact.bounds import (
    clique_quality,
    expected_abs_shifted_difference,
    expected_noisy_dissimilarity,
    expected_noisy_quality,
    laplace_difference_density,
    lemma_5_1_expected_loss_bound,
    lemma_5_1_tail_bound,
    lemma_6_1_bias_bound,
    lemma_6_2_variance_bound,
    lemma_6_3_radius,
    log_tree_count,
    privact_family,
    theorem_5_relative_bound,
    theorem_6_bound,
    theorem_6_relative_bound,
    validate_n_k_sigma,
)

__all__ = [
    "clique_quality",
    "expected_abs_shifted_difference",
    "expected_noisy_dissimilarity",
    "expected_noisy_quality",
    "laplace_difference_density",
    "lemma_5_1_expected_loss_bound",
    "lemma_5_1_tail_bound",
    "lemma_6_1_bias_bound",
    "lemma_6_2_variance_bound",
    "lemma_6_3_radius",
    "log_tree_count",
    "privact_family",
    "theorem_5_relative_bound",
    "theorem_6_bound",
    "theorem_6_relative_bound",
    "validate_n_k_sigma",
]
