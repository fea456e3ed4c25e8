"""The claim registry: every mechanism's guarantee and every checkable seed theorem, with example parameters.

Like scipy.stats' table of distributions, one table drives one generic test battery and the
``dpcert claims`` report. Each claim records what its verdict should be: the paper errors and the
negative controls are *expected* to be refuted, and the report shows the witness.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certificate import Verdict
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

__all__ = ["CLAIMS", "GROUPS", "PAPERS", "Claim", "ClaimGroup", "ClaimOutcome", "check", "claims", "computed_claim",
           "family_claim", "group_of", "is_paper_error", "mechanism_claim", "papers_of"]

@dataclass(frozen=True)
class ClaimGroup:
    """One table of claims: a seed paper's (``key`` is the folder name every package uses for it) or a topic's."""

    key: str
    title: str
    claims: tuple[Claim, ...]
    paper: str | None = None
    """The seed file the paper's sources cite, or None for a topic (its claims cite the literature)."""


GROUPS: tuple[ClaimGroup, ...] = (
    ClaimGroup("price_of_privacy", "Banerjee, Hegde, Massoulié: The Price of Privacy in Untrusted Recommendation "
               "Engines", price_of_privacy.CLAIMS, "000_0c6e7fdc3fd68303.txt"),
    ClaimGroup("online_recommendation", "Gilbert, Liu, Yu: On Differentially Private Online Collaborative "
               "Recommendation Systems (p-REC)", online_recommendation.CLAIMS, "001_8845c8f909738498.txt"),
    ClaimGroup("metric_user_level", "Imola, Roy Chowdhury, Chaudhuri: Metric Differential Privacy at the User-Level",
               metric_user_level.CLAIMS, "002_1def8c9789d6e1bd.txt"),
    ClaimGroup("privact", "Kolluri, Baluta, Saxena: Private Hierarchical Clustering in Federated Networks (PrivaCT)",
               privact.CLAIMS, "004_a0cddc0a7a24fb37.txt"),
    ClaimGroup("standard", "Standard mechanisms and negative controls", standard.CLAIMS),
    ClaimGroup("shuffle", "Amplification by shuffling and the composition theorems", shuffle.CLAIMS),
    ClaimGroup("composition", "Numerical composition against exact truth", composition.CLAIMS),
    ClaimGroup("zoo", "The auditing literature's mechanisms (Lyu et al., StatDP, DP-Sniper)", zoo.CLAIMS),
)
"""Every claim table, the four seed papers first; ``dpcert claims --paper KEY`` and the report use the keys."""

PAPERS = {g.key: g for g in GROUPS if g.paper is not None}


def _all_claims() -> tuple[Claim, ...]:
    registered = tuple(c for group in GROUPS for c in group.claims)
    ids = [c.id for c in registered]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise RuntimeError(f"duplicate claim ids: {sorted(duplicates)}")
    return registered


CLAIMS: tuple[Claim, ...] = _all_claims()

_GROUP_OF = {c.id: g for g in GROUPS for c in g.claims}


def group_of(claim: Claim) -> ClaimGroup:
    """The table ``claim`` is registered in."""
    return _GROUP_OF[claim.id]


def papers_of(claim: Claim) -> tuple[str, ...]:
    """The keys of the seed papers ``claim`` belongs to: its table's, and any whose file its source cites."""
    return tuple(k for k, g in PAPERS.items() if group_of(claim) is g or g.paper in claim.source)


def is_paper_error(claim: Claim) -> bool:
    """A statement of a seed paper that the registry expects refuted, or whose proof it expects to fail (not a
    negative control)."""
    return (claim.expected in (Verdict.REFUTED, Verdict.PROOF_GAP) and bool(papers_of(claim))
            and "negative control" not in claim.source)


def claims(*, source: str | None = None, ids: Sequence[str] = (), paper: str | None = None) -> tuple[Claim, ...]:
    """The registered claims, optionally only those whose source mentions ``source``, whose id is in ``ids`` (each
    must exist), or that belong to the seed paper ``paper`` (a key of PAPERS)."""
    unknown = [i for i in ids if i not in _GROUP_OF]
    if unknown:
        nearest = difflib.get_close_matches(unknown[0], list(_GROUP_OF), n=5, cutoff=0.4)
        raise InvalidParameterError(f"--id {unknown[0]!r} is no registered claim"
                                    + (f"; nearest: {', '.join(nearest)}" if nearest else "")
                                    + " (dpcert claims --json lists them all)")
    if paper is not None and paper not in PAPERS:
        raise InvalidParameterError(f"--paper must be one of {', '.join(PAPERS)}. Got {paper!r}")
    return tuple(c for c in CLAIMS if (source is None or source.lower() in c.source.lower())
                 and (not ids or c.id in ids) and (paper is None or paper in papers_of(c)))
