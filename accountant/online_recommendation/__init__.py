"""Bounds of p-REC, the private online recommender: loss and eps, upper and lower.

Gilbert, Liu, Yu (001_8845c8f909738498.txt). Closed forms only; the checks that decide the paper's claims
are in :mod:`dpcert.proofs.claims.online_recommendation`, its mechanisms in
:mod:`dpcert.mechanisms.online_recommendation`.
"""

from dpcert.accountant.online_recommendation.bounds import (
    KL_CONSTANT,
    eps_bounds_gap,
    eps_lower,
    eps_lower_D0R0,
    eps_lower_theorem_15,
    eps_upper_prec,
    eps_upper_sim,
    greedy_loss_bound,
    leaky_round_bound,
    lemma_13_bound,
    lemma_14_factor,
    lemma_18_bound,
    loss_lower_dp_D0R0,
    loss_lower_nonprivate,
    loss_upper_prec,
    loss_upper_sim,
    online_recommendation_family,
    per_round_leak_bound,
    prec_lambda,
    theorem_15_kl_constant,
    theorem_2_bounds,
    uniform_round_loss,
)

__all__ = [
    "eps_bounds_gap",
    "eps_lower",
    "eps_lower_D0R0",
    "eps_lower_theorem_15",
    "eps_upper_prec",
    "eps_upper_sim",
    "greedy_loss_bound",
    "KL_CONSTANT",
    "leaky_round_bound",
    "lemma_13_bound",
    "lemma_14_factor",
    "lemma_18_bound",
    "loss_lower_dp_D0R0",
    "loss_lower_nonprivate",
    "loss_upper_prec",
    "loss_upper_sim",
    "online_recommendation_family",
    "per_round_leak_bound",
    "prec_lambda",
    "theorem_15_kl_constant",
    "theorem_2_bounds",
    "uniform_round_loss",
]
