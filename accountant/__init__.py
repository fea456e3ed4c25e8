"""Privacy accounting: bounds as outward-rounded, labelled results.

The core is exported here: results and the bound registry, composition, amplification by shuffling,
calibration, the hockey-stick divergence and mutual information. Every other name lives in the module
that defines it (``dpcert.accountant.shuffle``, ``dpcert.accountant.composition``, ...), and each paper's
closed forms in its package: ``dpcert.accountant.price_of_privacy``, ``.metric_user_level``,
``.online_recommendation`` and ``.privact``.
"""

from dpcert.accountant.bound_family import BoundFamily
from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.calibration import CALIBRATION_METHODS, calibrate_eps0, calibrate_imola_alpha0
from dpcert.accountant.catalog import BOUND_FAMILIES, CALIBRATIONS
from dpcert.accountant.channel_information import mutual_information, posterior_prior_ratios
from dpcert.accountant.composition import (
    PrivacyLossDistribution,
    advanced_composition,
    basic_composition,
    compose_channels,
    optimal_composition,
    optimal_composition_delta,
)
from dpcert.accountant.exact_intervals import rigorous_interval
from dpcert.accountant.ledger import LedgerEntry, PrivacyLedger
from dpcert.accountant.hockey_stick import exact_distribution, hockey_stick_divergence
from dpcert.accountant.shuffle import (
    SHUFFLE_METHODS,
    blanket_delta,
    clone_delta,
    clone_epsilon,
    exact_shuffled_krr,
    exact_shuffled_rr,
    exact_truth,
    imola_theorem_4_3,
    imola_theorem_4_4,
    shuffle_bound,
)
from dpcert.accountant.symbolic_facts import SymbolicFact

__all__ = [
    "BOUND_FAMILIES",
    "CALIBRATIONS",
    "CALIBRATION_METHODS",
    "SHUFFLE_METHODS",
    "BoundFamily",
    "BoundResult",
    "LedgerEntry",
    "PrivacyLedger",
    "PrivacyLossDistribution",
    "SymbolicFact",
    "advanced_composition",
    "basic_composition",
    "blanket_delta",
    "calibrate_eps0",
    "calibrate_imola_alpha0",
    "clone_delta",
    "clone_epsilon",
    "compose_channels",
    "exact_distribution",
    "exact_shuffled_krr",
    "exact_shuffled_rr",
    "exact_truth",
    "hockey_stick_divergence",
    "imola_theorem_4_3",
    "imola_theorem_4_4",
    "mutual_information",
    "optimal_composition",
    "optimal_composition_delta",
    "posterior_prior_ratios",
    "rigorous_interval",
    "shuffle_bound",
]
