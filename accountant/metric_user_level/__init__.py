"""Bounds of user-level metric DP over the earth mover's distance (d_EM-DP).

Imola et al. (002_1def8c9789d6e1bd.txt): setting alpha (emd_parameters), the sampling reduction and the
user-level translation (emd_reduction), group privacy for the hockey-stick divergence (group_privacy),
frequency-estimation utility (frequency_estimation), Gaussian calibration (gaussian_calibration) and the
clone lemmas behind the metric shuffle theorem (shuffle_lemmas), and the user-level DP baselines' privacy
and error (baseline_bounds). The shuffle theorems themselves are
in :mod:`dpcert.accountant.shuffle`; claims in :mod:`dpcert.proofs.claims.metric_user_level`.
"""

from dpcert.accountant.metric_user_level.baseline_bounds import (
    hadamard_user_level_delta,
    lemma_6_1_bound,
    lemma_6_4_bound,
    lemma_6_4_composition,
    lemma_6_4_per_sample_eps,
    lemma_6_4_rate,
    lemma_6_7_bound,
)
from dpcert.accountant.metric_user_level.emd_parameters import alpha_for_goals, composition_alpha0, linear_query_noise
from dpcert.accountant.metric_user_level.emd_reduction import (
    DiscreteReduction,
    bernstein_constant_facts,
    emd_discrete_family,
    lemma_5_2_threshold,
    lemma_5_2_threshold_expression,
    theorem_1_3_informal,
    theorem_5_3,
    theorem_5_3_alpha_expression,
    user_level_from_discrete,
    user_level_from_metric,
)
from dpcert.accountant.metric_user_level.frequency_estimation import (
    SOURCES,
    Theorem6_6Steps,
    corollary_6_8_bound,
    norm_1_to_2,
    theorem_6_5_bound,
    theorem_6_6_bound,
    theorem_6_6_steps,
)
from dpcert.accountant.metric_user_level.gaussian_calibration import emd_gaussian_sigma
from dpcert.accountant.metric_user_level.group_privacy import (
    MAX_WITNESS_STEPS,
    PRINTED_FORMS,
    ChainWitness,
    PairGuarantee,
    discrete_to_graded,
    fact_5_1_counterexample,
    group_privacy_delta,
    group_privacy_family,
    printed_group_delta,
)
from dpcert.accountant.metric_user_level.shuffle_lemmas import (
    MAX_EXACT_CLONE_M,
    MAX_HISTOGRAM_CELLS,
    LemmaCheck,
    clone_pair_divergence,
    lemma_b1,
    lemma_b1_alpha_expression,
    lemma_b1_check,
    lemma_b1_concavity,
    lemma_b3,
    lemma_b3_check,
    lemma_b3_epsilon_expression,
    shuffled_histogram_law,
)

__all__ = [
    "alpha_for_goals",
    "bernstein_constant_facts",
    "ChainWitness",
    "clone_pair_divergence",
    "composition_alpha0",
    "corollary_6_8_bound",
    "discrete_to_graded",
    "DiscreteReduction",
    "emd_discrete_family",
    "emd_gaussian_sigma",
    "fact_5_1_counterexample",
    "group_privacy_delta",
    "group_privacy_family",
    "hadamard_user_level_delta",
    "lemma_5_2_threshold",
    "lemma_6_1_bound",
    "lemma_6_4_bound",
    "lemma_6_4_composition",
    "lemma_6_4_per_sample_eps",
    "lemma_6_4_rate",
    "lemma_6_7_bound",
    "lemma_5_2_threshold_expression",
    "lemma_b1",
    "lemma_b1_alpha_expression",
    "lemma_b1_check",
    "lemma_b1_concavity",
    "lemma_b3",
    "lemma_b3_check",
    "lemma_b3_epsilon_expression",
    "LemmaCheck",
    "linear_query_noise",
    "MAX_EXACT_CLONE_M",
    "MAX_HISTOGRAM_CELLS",
    "MAX_WITNESS_STEPS",
    "norm_1_to_2",
    "PairGuarantee",
    "PRINTED_FORMS",
    "printed_group_delta",
    "shuffled_histogram_law",
    "SOURCES",
    "Theorem6_6Steps",
    "theorem_1_3_informal",
    "theorem_5_3",
    "theorem_5_3_alpha_expression",
    "theorem_6_5_bound",
    "theorem_6_6_bound",
    "theorem_6_6_steps",
    "user_level_from_discrete",
    "user_level_from_metric",
]
