"""The mechanisms of "Metric Differential Privacy at the User-Level" (002_1def8c9789d6e1bd.txt).

Earth mover's distance on finite metric spaces, the clustered metric and GKRR, PrivEMDLinear
(Algorithm 1), PrivEMDItemWise (Algorithm 2), BoundedEMDReduction (Algorithm 3) and FreqEstLocal
(Algorithm 4); the user-level baselines of Section 6: Hadamard response (Lemma 6.4), the central Laplace
histogram (Lemma 6.7, scale 2/(n eps)), Duchi et al.'s linear-query randomizer (Lemma 6.1) and Hardt and
Talwar's K-norm mechanism for central linear queries (Lemma 6.3).
"""

from dpcert.mechanisms.metric_user_level.central_laplace import CentralLaplaceHistogram
from dpcert.mechanisms.metric_user_level.earth_movers import (
    MAX_EXACT_MATCHING,
    earth_movers_distance,
    exact_earth_movers_distance,
    exact_matching_distance,
    histogram,
    kantorovich_rubinstein_norm,
    matching_distance,
)
from dpcert.mechanisms.metric_user_level.emd_linear import NORMS, PrivEMDLinear, lipschitz_constant, vector_norm
from dpcert.mechanisms.metric_user_level.frequency_estimation import FreqEstLocal
from dpcert.mechanisms.metric_user_level.gkrr import (
    ClusteredMetric,
    GeneralizedKRR,
    clustered_matrix,
    gkrr_coefficients,
    gkrr_inverse_coefficients,
)
from dpcert.mechanisms.metric_user_level.hadamard import HadamardFreqEst, HadamardResponse
from dpcert.mechanisms.metric_user_level.itemwise import MAX_ENUMERATED_DATASETS, PrivEMDItemWise
from dpcert.mechanisms.metric_user_level.knorm import KNormMechanism
from dpcert.mechanisms.metric_user_level.linear_baselines import DuchiLinearQuery
from dpcert.mechanisms.metric_user_level.reduction import BoundedEMDReduction

__all__ = [
    "MAX_ENUMERATED_DATASETS",
    "MAX_EXACT_MATCHING",
    "NORMS",
    "BoundedEMDReduction",
    "CentralLaplaceHistogram",
    "ClusteredMetric",
    "DuchiLinearQuery",
    "FreqEstLocal",
    "GeneralizedKRR",
    "HadamardFreqEst",
    "HadamardResponse",
    "KNormMechanism",
    "PrivEMDItemWise",
    "PrivEMDLinear",
    "clustered_matrix",
    "earth_movers_distance",
    "exact_earth_movers_distance",
    "exact_matching_distance",
    "gkrr_coefficients",
    "gkrr_inverse_coefficients",
    "histogram",
    "kantorovich_rubinstein_norm",
    "lipschitz_constant",
    "matching_distance",
    "vector_norm",
]
