"""Deciding privacy claims: exact and symbolic checkers, certificates and the claim registry."""

from dpcert.proofs.certificate import Certificate, Verdict, Witness
from dpcert.proofs.channel import ExactChannel
from dpcert.proofs.exact import check_finite, hockey_stick_delta, max_hockey_stick, max_log_ratio, tightest_epsilon
from dpcert.proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP
from dpcert.proofs.registry import CLAIMS, Claim, ClaimOutcome, check, claims
from dpcert.proofs.rounding import decimal_string, float_lower, float_upper

__all__ = [
    "CLAIMS",
    "ApproxDP",
    "Certificate",
    "Claim",
    "ClaimOutcome",
    "ExactChannel",
    "Guarantee",
    "MetricDP",
    "PureDP",
    "Verdict",
    "Witness",
    "check",
    "check_finite",
    "claims",
    "decimal_string",
    "float_lower",
    "float_upper",
    "hockey_stick_delta",
    "max_hockey_stick",
    "max_log_ratio",
    "tightest_epsilon",
]
