"""Every claim whose decision rests on random instances names their seeds in its evidence.

Issue 16: "every evidence string that rests on random instances names its seed", so that a reader can re-run the
very instances a verdict was decided on (``dpcert claims --id ID`` re-runs the decision with the seeds fixed in
code). A table marks such a claim: ``computed_claim(..., randomized=True)`` (implied by ``method="statistical"``)
or ``deferred_instance_claim(..., seeds=...)``, which sets :attr:`dpcert.proofs.claim.Claim.randomized`. Only the
marked claims run here (about 40 s with the PrivaCT data present): a randomized claim left unmarked is not caught,
so the mark goes with the seed when a claim is added.
"""

from __future__ import annotations

import re

import pytest

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.claim import seeds_named
from dpcert.proofs.registry import CLAIMS, group_of

_RANDOMIZED = [c for c in CLAIMS if c.randomized]

_NAMES_A_SEED = re.compile(r"\bseeds? \d")
"""What naming a seed means: "seed 7", "seeds 0-3", "tree seeds 1234, 144, 1766" (the phrases of seeds_named)."""


def test_the_randomized_claims_are_marked():
    """One claim of each way of marking, and of each group that draws random instances, is among them."""
    marked = {c.id for c in _RANDOMIZED}
    assert {"zoo-svt1",  # method="statistical", in a table this change does not touch
            "thm11-prec-sim-privacy",  # an instance claim: deferred_instance_claim(..., seeds=...)
            "lemma9-channel-mismatch-nats", "lemma-a2-weak-triangle", "privact-qm-identities",
            "prec-reduces-to-sim"} <= marked
    assert not any(group_of(c).key in ("standard", "shuffle", "composition") for c in _RANDOMIZED)  # all exact


@pytest.mark.parametrize("claim", _RANDOMIZED, ids=[c.id for c in _RANDOMIZED])
def test_randomized_evidence_names_its_seeds(claim):
    reason = claim.unavailable()
    if reason is not None:
        pytest.skip(reason)
    evidence = claim.check().evidence
    assert _NAMES_A_SEED.search(evidence), f"{claim.id}'s evidence names no seed: {evidence}"


def test_the_check_fails_evidence_without_a_seed():
    """Power check: the evidence of before issue 16 is caught, the phrases of seeds_named pass."""
    for unnamed in ("16 random log(3/2)-LDP sketches", "random metrics in [1/2, 1] (random.Random(21))",
                    "six seeded planted pairs", "(numpy default_rng(7))"):
        assert not _NAMES_A_SEED.search(unnamed)
    for named in ("random metrics in [1/2, 1] (seed 21)", "six planted pairs (seeds 0-5)", "runs seed 1"):
        assert _NAMES_A_SEED.search(named)


def test_seeds_named_gives_one_phrase_for_every_seed_list():
    assert seeds_named(7) == "seed 7"
    assert seeds_named([7]) == "seed 7"
    assert seeds_named(range(4)) == "seeds 0-3"
    assert seeds_named([1, 2]) == "seeds 1, 2"  # a run of two is listed
    assert seeds_named([3000, 3001, 3002, 3003, 5000, 5001, 5002, 5003]) == "seeds 3000-3003, 5000-5003"
    assert seeds_named((1234, 144, 1766)) == "seeds 1234, 144, 1766"  # in the order given
    with pytest.raises(InvalidParameterError, match="at least one seed"):
        seeds_named([])
