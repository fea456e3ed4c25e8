"""The systems of "The Price of Privacy in Untrusted Recommendation Engines" as mechanisms.

Banerjee, Hegde and Massoulie (000_0c6e7fdc3fd68303.txt); exact formulas and corrections in
specs/banerjee_price_of_privacy.md.

- :mod:`~dpcert.mechanisms.price_of_privacy.blockmodel`: the bipartite stochastic blockmodel and its sampler.
- :mod:`~dpcert.mechanisms.price_of_privacy.sketches`: the user-side randomizers as finite mechanisms on one
  user's data (W, R), for the exact LDP checker.
- :mod:`~dpcert.mechanisms.price_of_privacy.pairwise_preference`, :mod:`~dpcert.mechanisms.price_of_privacy.maxsense`,
  :mod:`~dpcert.mechanisms.price_of_privacy.multi_maxsense`: the algorithms of Figs. 1-3, simulated end to end.
- :mod:`~dpcert.mechanisms.price_of_privacy.analysis`: the exact closed forms of their analyses.
- :mod:`~dpcert.mechanisms.price_of_privacy.one_bit`: the w = 1 toy schemes (2N^2 and coupon-collector users).
"""

from dpcert.mechanisms.price_of_privacy._userdata import (
    MAX_ENUMERATED_INPUTS,
    UserData,
    bit_release_probabilities,
    enumerate_user_data,
    input_count,
)
from dpcert.mechanisms.price_of_privacy.analysis import (
    eps_hat,
    maxsense_delta,
    maxsense_delta_min,
    maxsense_expected_scores,
    maxsense_q0,
    maxsense_score_gap,
    multimaxsense_queries,
    multimaxsense_rate_factor,
    multimaxsense_tight_epsilon,
    pairwise_pair_probability,
    pairwise_same_rating_probability,
)
from dpcert.mechanisms.price_of_privacy.blockmodel import (
    BlockModel,
    RatingSample,
    UserRatings,
    as_generator,
    cluster_sizes,
    distinct_uniform_items,
)
from dpcert.mechanisms.price_of_privacy.clustering import (
    ClusteringResult,
    Progress,
    item_error_rate,
    kmeans_1d,
    kmeans_rows,
)
from dpcert.mechanisms.price_of_privacy.maxsense import (
    bernoulli_positions,
    maxsense_scores,
    simulate_maxsense,
)
from dpcert.mechanisms.price_of_privacy.multi_maxsense import (
    multi_maxsense_scores,
    simulate_multi_maxsense,
)
from dpcert.mechanisms.price_of_privacy.one_bit import (
    coupon_collector_mean_users,
    membership_scheme_mean_users,
    simulate_coupon_collector,
    simulate_membership_scheme,
)
from dpcert.mechanisms.price_of_privacy.pairwise_preference import (
    pairwise_preference_matrix,
    simulate_pairwise_preference,
)
from dpcert.mechanisms.price_of_privacy.sketches import (
    PAIR_RULES,
    MaxSenseSketch,
    MembershipQuery,
    MultiMaxSenseSketch,
    PairwisePreferenceSketch,
    RatedPairSketch,
    RatedPairSketchPublicItems,
    parse_bit_vector,
    parse_item_blocks,
    parse_item_pair,
    parse_membership_set,
)

__all__ = [
    "MAX_ENUMERATED_INPUTS",
    "PAIR_RULES",
    "BlockModel",
    "ClusteringResult",
    "MaxSenseSketch",
    "MembershipQuery",
    "MultiMaxSenseSketch",
    "PairwisePreferenceSketch",
    "Progress",
    "RatedPairSketch",
    "RatedPairSketchPublicItems",
    "RatingSample",
    "UserData",
    "UserRatings",
    "as_generator",
    "bernoulli_positions",
    "bit_release_probabilities",
    "cluster_sizes",
    "coupon_collector_mean_users",
    "distinct_uniform_items",
    "enumerate_user_data",
    "eps_hat",
    "input_count",
    "item_error_rate",
    "kmeans_1d",
    "kmeans_rows",
    "maxsense_delta",
    "maxsense_delta_min",
    "maxsense_expected_scores",
    "maxsense_q0",
    "maxsense_score_gap",
    "maxsense_scores",
    "membership_scheme_mean_users",
    "multi_maxsense_scores",
    "multimaxsense_queries",
    "multimaxsense_rate_factor",
    "multimaxsense_tight_epsilon",
    "pairwise_pair_probability",
    "pairwise_preference_matrix",
    "pairwise_same_rating_probability",
    "parse_bit_vector",
    "parse_item_blocks",
    "parse_item_pair",
    "parse_membership_set",
    "simulate_coupon_collector",
    "simulate_maxsense",
    "simulate_membership_scheme",
    "simulate_multi_maxsense",
    "simulate_pairwise_preference",
]
