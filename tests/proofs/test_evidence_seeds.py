"""Every claim whose decision rests on random instances names their seeds in its evidence.

Issue 16: "every evidence string that rests on random instances names its seed", so that a reader can re-run the
very instances a verdict was decided on (``dpcert claims --id ID`` re-runs the decision with the seeds fixed in
code). A table marks such a claim: ``computed_claim(..., randomized=True)`` (implied by ``method="statistical"``)
or ``deferred_instance_claim(..., seeds=...)``, which sets :attr:`dpcert.proofs.claim.Claim.randomized`. Every
available claim runs here once (about a minute with the PrivaCT data present) under a watch on the ways this code
makes random generators (numpy's ``default_rng``, ``SeedSequence`` and ``RandomState``, ``random.Random``): a claim
that makes one must be marked, and a marked claim's evidence must name its seeds.
"""

from __future__ import annotations

import random
import re

import numpy as np
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


class _Watch:
    """Counts the random generators made while it is on (wrapping what this code calls to make them)."""

    def __init__(self, monkeypatch):
        self.made: list[str] = []
        default_rng, made = np.random.default_rng, self.made

        def counted_default_rng(*args, **kwargs):
            made.append("numpy.random.default_rng")
            return default_rng(*args, **kwargs)

        monkeypatch.setattr(np.random, "default_rng", counted_default_rng)
        for name in ("SeedSequence", "RandomState"):  # subclasses: isinstance checks still hold
            base = getattr(np.random, name)
            monkeypatch.setattr(np.random, name, type(name, (base,), {"__init__": self._counted(name, base.__init__)}))
        monkeypatch.setattr(random.Random, "__init__", self._counted("random.Random", random.Random.__init__))

    def _counted(self, name, init):
        def counted_init(generator, *args, **kwargs):
            self.made.append(name)
            init(generator, *args, **kwargs)
        return counted_init


def _seed_problem(claim, watch: _Watch) -> str | None:
    """Why ``claim``'s run breaks the rule (None when it keeps it): it made a random generator unmarked, or it is
    marked and its evidence names no seed."""
    evidence = claim.check().evidence
    if watch.made and not claim.randomized:
        return f"{claim.id} makes random generators ({', '.join(sorted(set(watch.made)))}) but is not marked randomized"
    if claim.randomized and not _NAMES_A_SEED.search(evidence):
        return f"{claim.id}'s evidence names no seed: {evidence}"
    return None


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_evidence_resting_on_random_instances_names_its_seeds(claim, monkeypatch):
    reason = claim.unavailable()
    if reason is not None:
        pytest.skip(reason)
    assert _seed_problem(claim, _Watch(monkeypatch)) is None


def test_the_watch_catches_an_unmarked_claim_that_draws(monkeypatch):
    """Power check: a claim drawing from a seeded generator without the mark is caught, by each way of making one;
    with the mark and "seed 3" in its evidence it passes."""
    from dpcert.proofs.certificate import Verdict
    from dpcert.proofs.claim import computed_claim

    makers = (lambda: np.random.default_rng(3).random(), lambda: np.random.SeedSequence(3).entropy,
              lambda: np.random.RandomState(3).rand(), lambda: random.Random(3).random())
    for make in makers:
        def decide(make=make):
            make()
            return Verdict.CONFIRMED, "holds on a random instance (seed 3)"
        unmarked = computed_claim("drawing", "a test", "a statement", Verdict.CONFIRMED, decide)
        assert "not marked randomized" in _seed_problem(unmarked, _Watch(monkeypatch))
        monkeypatch.undo()
        marked = computed_claim("drawing", "a test", "a statement", Verdict.CONFIRMED, decide, randomized=True)
        assert _seed_problem(marked, _Watch(monkeypatch)) is None
        monkeypatch.undo()


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
