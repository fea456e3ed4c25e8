"""Claims: a statement from a source, the verdict it should get, and how to check it; and ``check``."""

from __future__ import annotations

import dataclasses
import json
import numbers
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dpcert.mechanisms.base import FiniteMechanism, Mechanism
from dpcert.mechanisms.catalog import make_mechanism
from dpcert.mechanisms.neighbours import NeighbourRelation
from dpcert.mechanisms.parameters import InvalidParameterError, UndecidedSignError
from dpcert.proofs.certificate import Certificate, Verdict
from dpcert.proofs.exact import check_finite
from dpcert.proofs.guarantees import ApproxDP, Guarantee, MetricDP
from dpcert.proofs.symbolic import check_family, check_symbolic

__all__ = ["Claim", "ClaimOutcome", "check", "cited_in", "computed_claim", "deferred_instance_claim", "facts_outcome",
           "family_claim", "instance_claim", "mechanism_claim", "seeds_named"]


@dataclass(frozen=True)
class ClaimOutcome:
    """What checking a claim found."""

    verdict: Verdict
    method: str
    evidence: str
    certificate: Certificate | None = None
    witness_json: dict[str, object] | None = field(default=None, kw_only=True)
    """The certificate's witness as JSON, kept by :meth:`portable` when the certificate itself is dropped."""

    def as_json(self) -> dict[str, object]:
        """``verdict``, ``method``, ``evidence`` and, where there is one, the certificate's witness (or the one
        :meth:`portable` kept)."""
        witness = self.certificate.witness if self.certificate is not None else None
        return {"verdict": self.verdict.value, "method": self.method, "evidence": self.evidence,
                "witness": self.witness_json if witness is None else witness.as_json()}

    def portable(self) -> ClaimOutcome:
        """The outcome without its certificate object (whose replay may be a closure that cannot leave its process),
        its witness kept as JSON: what ``dpcert claims`` and ``dpcert report`` show is unchanged."""
        return dataclasses.replace(self, certificate=None, witness_json=self.as_json()["witness"])


@dataclass(frozen=True)
class Claim:
    """A registered claim: a statement from a source, the verdict it should get, and how to check it."""

    id: str
    source: str
    statement: str
    expected: Verdict
    run: Callable[[], ClaimOutcome]
    kind: str = "instance"
    """"instance" (a mechanism at given parameters, with a certificate), "family" (every parameter
    value, decided symbolically) or "computed" (a bound, identity or enumeration; no certificate)."""
    requires: Callable[[], str | None] | None = None
    """What the claim needs beyond dpcert: returns why it cannot be decided here (e.g. the paper's data
    folder is absent), or None when it can. ``dpcert claims`` reports such a claim as skipped."""
    command: str | None = None
    """A shell command of another subcommand that re-derives the verdict from scratch (``dpcert verify ...``), where
    one does; see :attr:`reproduce`."""
    randomized: bool = field(default=False, kw_only=True)
    """Whether the decision rests on random instances or samples drawn from seeds fixed in code (Monte Carlo tests,
    random channels, graphs or inputs); its evidence then names those seeds (:func:`seeds_named`), so that a reader
    can re-run them (issue 16). :func:`computed_claim` sets it for every ``method="statistical"`` claim."""

    @property
    def reproduce(self) -> str:
        """The shell command that re-derives this claim's verdict and evidence from scratch: :attr:`command`, or
        ``dpcert claims --id ID`` (which re-runs its decision, with the seeds the evidence names)."""
        return self.command or f"dpcert claims --id {self.id}"

    def unavailable(self) -> str | None:
        """Why the claim cannot be decided on this machine, or None."""
        return None if self.requires is None else self.requires()

    def check(self) -> ClaimOutcome:
        """Decide the claim now."""
        return self.run()


def check(mechanism: Mechanism, guarantee: Guarantee, *, symbolic: bool = False,
          relation: NeighbourRelation | None = None) -> Certificate:
    """Decide ``guarantee`` for ``mechanism``: exactly for finite mechanisms, symbolically otherwise.

    Args:
        mechanism: any catalogued or user-defined mechanism.
        guarantee: PureDP, ApproxDP or MetricDP.
        symbolic: use the symbolic checker even for a finite mechanism (closed-form families).
        relation: neighbour relation overriding the mechanism's (e.g. a Metric for metric DP).
    """
    if symbolic and (relation is not None or isinstance(guarantee, MetricDP)):
        raise InvalidParameterError("symbolic checks take the mechanism's own neighbours: drop symbolic "
                                    "(--symbolic) to check metric DP or another relation exactly")
    try:
        if isinstance(mechanism, FiniteMechanism) and not symbolic:
            return check_finite(mechanism, guarantee, relation=relation)

        return check_symbolic(mechanism, guarantee)
    except UndecidedSignError as error:
        return Certificate(mechanism, guarantee, Verdict.UNKNOWN, "symbolic" if symbolic else "exact",
                           f"undecided: {error}")


def mechanism_claim(id: str, source: str, name: str, parameters: Mapping[str, object], guarantee: Guarantee,
                    expected: Verdict, *, relation: NeighbourRelation | None = None, note: str = "") -> Claim:
    """A claim that the catalogued mechanism ``name`` at ``parameters`` satisfies ``guarantee``."""
    claim = instance_claim(id, source, make_mechanism(name, raw=dict(parameters)), guarantee, expected,
                           relation=relation, note=note)
    return claim if relation is not None else dataclasses.replace(claim, command=_verify_command(name, parameters,
                                                                                                  guarantee))


def _verify_command(name: str, parameters: Mapping[str, object], guarantee: Guarantee) -> str:
    """``dpcert verify NAME --param k=v ... --eps E [--delta D]``, in the command line's syntax (a tuple as 0,1,0)."""
    def shown(value: object) -> str:
        if not isinstance(value, (tuple, list)):
            return str(value)
        if any(isinstance(v, (tuple, list)) for v in value):
            return json.dumps([list(v) for v in value], separators=(",", ":"))
        return ",".join(str(v) for v in value)

    words = ["dpcert", "verify", name]
    for key, value in parameters.items():
        words += ["--param", f"{key}={shown(value)}"]
    words += ["--eps", str(guarantee.eps)] + (["--delta", str(guarantee.delta)] if isinstance(guarantee, ApproxDP)
                                              else [])
    return shlex.join(words)


def instance_claim(id: str, source: str, mechanism: Mechanism, guarantee: Guarantee, expected: Verdict, *,
                   relation: NeighbourRelation | None = None, note: str = "") -> Claim:
    """A claim that ``mechanism`` (any mechanism object, catalogued or composed) satisfies ``guarantee``."""
    scope = relation.description if relation is not None else mechanism.neighbours.description
    statement = f"{mechanism.describe()} is {guarantee} ({scope})" + (f"; {note}" if note else "")
    return deferred_instance_claim(id, source, statement, lambda: (mechanism, guarantee), expected, relation=relation)


def deferred_instance_claim(id: str, source: str, statement: str,
                            build: Callable[[], tuple[Mechanism, Guarantee]], expected: Verdict, *,
                            relation: NeighbourRelation | None = None, seeds: Iterable[int] = ()) -> Claim:
    """An instance claim whose mechanism and guarantee are built only when it is checked.

    For guarantees computed by the accountant (a theorem's eps at the instance's parameters): building
    them when the registry is imported would import the accountant, which itself imports proofs. ``seeds``:
    the seeds ``build`` draws a random instance from, if it does; the claim is then :attr:`Claim.randomized`
    and its evidence ends with "(instance drawn from seed ...)".
    """
    seeds = tuple(seeds)

    def run() -> ClaimOutcome:
        mechanism, guarantee = build()
        certificate = check(mechanism, guarantee, relation=relation)
        evidence = certificate.evidence + (f" (instance drawn from {seeds_named(seeds)})" if seeds else "")
        return ClaimOutcome(certificate.verdict, certificate.method, evidence, certificate)

    return Claim(id, source, statement, expected, run, randomized=bool(seeds))


def family_claim(id: str, source: str, family: str, kind: str, expected: Verdict) -> Claim:
    """A claim about every parameter value of a mechanism family, decided by the symbolic checker."""

    def run() -> ClaimOutcome:
        result = check_family(family, kind)
        evidence = result.evidence
        if result.counterexample:
            shown = ", ".join(f"{k}={v}" for k, v in result.counterexample.items())
            evidence = f"{evidence} (counterexample: {shown})"
        return ClaimOutcome(result.verdict, "symbolic", evidence)

    kinds = {"pure": "eps-DP", "approx": "(eps, delta(eps))-DP"}
    return Claim(id, source, f"{family} is {kinds.get(kind, kind)} for every parameter value", expected, run,
                 kind="family")


def cited_in(paper: str) -> Callable[[str], str]:
    """The source strings of one paper's claims: ``cited_in("001_x.txt")("Lemma 8")`` is "001_x.txt, Lemma 8"."""
    return lambda where: f"{paper}, {where}"


def computed_claim(id: str, source: str, statement: str, expected: Verdict,
                   decide: Callable[[], tuple[Verdict, str]], *, method: str = "exact",
                   requires: Callable[[], str | None] | None = None, randomized: bool = False) -> Claim:
    """A claim decided by a computation (a bound evaluated exactly, an enumeration, a counterexample).

    ``decide`` returns the verdict and the evidence sentence (which names the witness for a refutation
    and the cases checked for a confirmation); ``requires`` says why it cannot run here (see
    :attr:`Claim.requires`); ``randomized``: the computation draws random instances from fixed seeds, which the
    evidence names (:attr:`Claim.randomized`; implied by ``method="statistical"``).
    """

    def run() -> ClaimOutcome:
        verdict, evidence = decide()
        return ClaimOutcome(verdict, method, evidence)

    return Claim(id, source, statement, expected, run, kind="computed", requires=requires,
                 randomized=randomized or method == "statistical")


def seeds_named(seeds: int | Iterable[int]) -> str:
    """How evidence names the seeds its random instances came from: "seed 7", "seeds 1, 5" or, for runs of three
    or more consecutive seeds, "seeds 0-3" ("seeds 3000-3003, 5000-5003"); in the order given."""
    values = [int(seeds)] if isinstance(seeds, numbers.Integral) else [int(s) for s in seeds]
    if not values:
        raise InvalidParameterError("seeds must name at least one seed")
    if len(values) == 1:
        return f"seed {values[0]}"
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    shown = [f"{run[0]}-{run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)) for run in runs]
    return "seeds " + ", ".join(shown)


def facts_outcome(facts: Sequence[object]) -> tuple[Verdict, str]:
    """The verdict of statements each decided for every parameter value (``holds``: True, False or None).

    PROVED when every fact holds, REFUTED when one is refuted (its evidence is the witness), UNKNOWN when one
    is undecided. The evidence lists each fact with its proof, or only the facts that did not hold.
    """
    refuted = [f for f in facts if f.holds is False]
    undecided = [f for f in facts if f.holds is None]
    shown = refuted or undecided or list(facts)
    evidence = " | ".join(f"{f.statement}: {f.evidence}" for f in shown)
    if refuted:
        return Verdict.REFUTED, f"witness {evidence}"
    return (Verdict.UNKNOWN if undecided else Verdict.PROVED), evidence
