"""The claim registry: every mechanism's guarantee and every checkable seed theorem, with example parameters.

Like scipy.stats' table of distributions, one table drives one generic test battery and the
``dpcert claims`` report. Each claim records what its verdict should be: the paper errors and the
negative controls are *expected* to be refuted, and the report shows the witness.
"""

from __future__ import annotations

from collections.abc import Iterable

from dpcert.proofs.claim import Claim, ClaimOutcome, check, computed_claim, family_claim, mechanism_claim
from dpcert.proofs.claims import (
    composition,
    metric_user_level,
    online_recommendation,
    price_of_privacy,
    privact,
    shuffle,
    standard,
    zoo,
)

__all__ = ["CLAIMS", "Claim", "ClaimOutcome", "check", "claims", "computed_claim", "family_claim", "mechanism_claim"]

_TABLES = (standard.CLAIMS, price_of_privacy.CLAIMS, shuffle.CLAIMS, composition.CLAIMS, metric_user_level.CLAIMS,
           privact.CLAIMS, online_recommendation.CLAIMS, zoo.CLAIMS)


def _all_claims() -> tuple[Claim, ...]:
    registered = tuple(c for table in _TABLES for c in table)
    ids = [c.id for c in registered]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise RuntimeError(f"duplicate claim ids: {sorted(duplicates)}")
    return registered


CLAIMS: tuple[Claim, ...] = _all_claims()


def claims(*, source: str | None = None) -> Iterable[Claim]:
    """The registered claims, optionally only those whose source mentions ``source``."""
    return tuple(c for c in CLAIMS if source is None or source.lower() in c.source.lower())
