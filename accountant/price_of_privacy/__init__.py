"""Bounds of the price-of-privacy paper (local-DP recommenders: Pairwise-Preference, MaxSense).

Banerjee, Hegde, Massoulié, "The Price of Privacy in Untrusted Recommendation Engines" (000_0c6e7fdc3fd68303.txt):
what one user's sketch reveals (Lemmas 9, 25; Theorems 10, 13, 14), the Fano-type user counts below which
every eps-LDP clustering learner is unreliable (Theorems 7, 23; Corollary 21), MaxSense's sufficient user
count (Theorem 15) and adaptive queries (Theorem 17). Its claims are decided in
:mod:`dpcert.proofs.claims.price_of_privacy`, its mechanisms are in :mod:`dpcert.mechanisms.price_of_privacy`.
"""

from dpcert.accountant.price_of_privacy.adaptive import adaptive_min_queries, theorem_17_adaptive_bound
from dpcert.accountant.price_of_privacy.families import fano_family, ldp_mutual_information_family
from dpcert.accountant.price_of_privacy.fano import (
    ChernoffCheck,
    FanoWitness,
    appendix_a_chernoff_check,
    fano_distortion_lower_bound,
    fano_error_lower_bound,
    ldp_fano_distortion,
    theorem_10_user_threshold,
    theorem_23_user_threshold,
    theorem_7_paper_witness,
    theorem_7_user_threshold,
    users_unreliable,
)
from dpcert.accountant.price_of_privacy.maxsense_threshold import maxsense_user_threshold
from dpcert.accountant.price_of_privacy.per_user_bounds import (
    per_user_mi_bound,
    theorem_10_bound,
    theorem_13_bound,
    theorem_14_bound,
    theorem_14_main_term,
    theorem_14_main_term_bound,
)
from dpcert.accountant.price_of_privacy.sketch_channels import (
    cluster_channel,
    lemma_25_rhs,
    lemma_9_rhs,
    records,
    sketch_information,
)
from dpcert.accountant.price_of_privacy.subset_overlap import (
    EXACT_RATIO_W_MAX,
    EXACT_W_MAX,
    binomial_ratio,
    binomial_ratio_bounds,
    lemma_12_sandwich,
)

__all__ = [
    "adaptive_min_queries",
    "appendix_a_chernoff_check",
    "binomial_ratio",
    "binomial_ratio_bounds",
    "ChernoffCheck",
    "cluster_channel",
    "EXACT_RATIO_W_MAX",
    "EXACT_W_MAX",
    "fano_family",
    "fano_distortion_lower_bound",
    "fano_error_lower_bound",
    "FanoWitness",
    "ldp_fano_distortion",
    "ldp_mutual_information_family",
    "lemma_12_sandwich",
    "lemma_25_rhs",
    "lemma_9_rhs",
    "maxsense_user_threshold",
    "per_user_mi_bound",
    "records",
    "sketch_information",
    "theorem_10_bound",
    "theorem_10_user_threshold",
    "theorem_13_bound",
    "theorem_14_bound",
    "theorem_14_main_term",
    "theorem_14_main_term_bound",
    "theorem_17_adaptive_bound",
    "theorem_23_user_threshold",
    "theorem_7_paper_witness",
    "theorem_7_user_threshold",
    "users_unreliable",
]
