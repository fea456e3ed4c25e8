"""Deciding privacy claims: exact and symbolic checkers, guarantees, certificates and numbers.

The names below are imported on first use (PEP 562), so importing a submodule (the pytest plugin at
every pytest start-up, the number helpers from the accountant) loads nothing else. The claim registry is
the application layer and is not exported here: ``from dpcert.proofs.registry import CLAIMS``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dpcert.proofs.certificate import Certificate, Verdict, Witness
    from dpcert.proofs.channel import ExactChannel
    from dpcert.proofs.exact import check_finite, hockey_stick_delta, max_hockey_stick, max_log_ratio, tightest_epsilon
    from dpcert.proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP
    from dpcert.proofs.claim import Claim, ClaimOutcome, check
    from dpcert.proofs.rounding import decimal_string, float_lower, float_upper

_EXPORTS = {
    "ApproxDP": "guarantees",
    "Certificate": "certificate",
    "Claim": "claim",
    "ClaimOutcome": "claim",
    "ExactChannel": "channel",
    "Guarantee": "guarantees",
    "MetricDP": "guarantees",
    "PureDP": "guarantees",
    "Verdict": "certificate",
    "Witness": "certificate",
    "check": "claim",
    "check_finite": "exact",
    "decimal_string": "rounding",
    "float_lower": "rounding",
    "float_upper": "rounding",
    "hockey_stick_delta": "exact",
    "max_hockey_stick": "exact",
    "max_log_ratio": "exact",
    "tightest_epsilon": "exact",
}
"""Public name -> the submodule of dpcert.proofs that defines it."""

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
