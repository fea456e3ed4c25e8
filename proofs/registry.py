"""The claim registry: every mechanism's guarantee and every checkable seed theorem, with example parameters.

Like scipy.stats' table of distributions, one table drives one generic test battery and the
``dpcert claims`` report. Each claim records what its verdict should be: the paper errors and the
negative controls are *expected* to be refuted, and the report shows the witness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from mechanisms.base import FiniteMechanism, Mechanism
from mechanisms.catalog import make_mechanism
from mechanisms.neighbours import Metric, NeighbourRelation
from mechanisms.parameters import InvalidParameterError, UndecidedSignError
from proofs.certificate import Certificate, Verdict
from proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP

__all__ = ["Claim", "ClaimOutcome", "CLAIMS", "claims", "check", "mechanism_claim", "family_claim"]


@dataclass(frozen=True)
class ClaimOutcome:
    """What checking a claim found."""

    verdict: Verdict
    method: str
    evidence: str
    certificate: Certificate | None = None

    def as_json(self) -> dict[str, object]:
        """``verdict``, ``method``, ``evidence`` and, where there is one, the certificate's witness."""
        witness = self.certificate.witness if self.certificate is not None else None
        return {"verdict": self.verdict.value, "method": self.method, "evidence": self.evidence,
                "witness": None if witness is None else witness.as_json()}


@dataclass(frozen=True)
class Claim:
    """A registered claim: a statement from a source, the verdict it should get, and how to check it."""

    id: str
    source: str
    statement: str
    expected: Verdict
    run: Callable[[], ClaimOutcome]
    family: bool = False
    """True when the claim is about every parameter value (no per-instance certificate)."""

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
            from proofs.exact import check_finite

            return check_finite(mechanism, guarantee, relation=relation)
        from proofs.symbolic import check_symbolic

        return check_symbolic(mechanism, guarantee)
    except UndecidedSignError as error:
        return Certificate(mechanism, guarantee, Verdict.UNKNOWN, "symbolic" if symbolic else "exact",
                           f"undecided: {error}")


def mechanism_claim(id: str, source: str, name: str, parameters: Mapping[str, object], guarantee: Guarantee,
                    expected: Verdict, *, relation: NeighbourRelation | None = None, note: str = "") -> Claim:
    """A claim that the catalogued mechanism ``name`` at ``parameters`` satisfies ``guarantee``."""
    mechanism = make_mechanism(name, dict(parameters))
    scope = relation.description if relation is not None else mechanism.neighbours.description
    statement = f"{mechanism.describe()} is {guarantee} ({scope})" + (f"; {note}" if note else "")

    def run() -> ClaimOutcome:
        certificate = check(mechanism, guarantee, relation=relation)
        return ClaimOutcome(certificate.verdict, certificate.method, certificate.evidence, certificate)

    return Claim(id, source, statement, expected, run)


def family_claim(id: str, source: str, family: str, kind: str, expected: Verdict) -> Claim:
    """A claim about every parameter value of a mechanism family, decided by the symbolic checker."""

    def run() -> ClaimOutcome:
        from proofs.symbolic import check_family

        result = check_family(family, kind)
        evidence = result.evidence
        if result.counterexample:
            shown = ", ".join(f"{k}={v}" for k, v in result.counterexample.items())
            evidence = f"{evidence} (counterexample: {shown})"
        return ClaimOutcome(result.verdict, "symbolic", evidence)

    kinds = {"pure": "eps-DP", "approx": "(eps, delta(eps))-DP"}
    return Claim(id, source, f"{family} is {kinds.get(kind, kind)} for every parameter value", expected, run,
                 family=True)


_PROP4 = "000_0c6e7fdc3fd68303.txt, Proposition 4"
_WARNER = "Warner 1965; Kairouz, Oh, Viswanath 2014, Section 4"
_UE = "Wang, Blocki, Li, Jha 2017 (USENIX Security), Section 4"
_GEOMETRIC = "Ghosh, Roughgarden, Sundararajan 2009, Definition 2.1"
_EXPONENTIAL = "McSherry, Talwar 2007 (FOCS), Theorem 6"
_LAPLACE = "Dwork, McSherry, Nissim, Smith 2006 (TCC), Proposition 1"
_GAUSSIAN = "Balle, Wang 2018 (ICML), Theorem 8"
_CONTROL = "dpcert negative control"
_METRIC = "Chatzikokolakis et al. 2013 (PETS), Definition 1"

_P, _R = Verdict.PROVED, Verdict.REFUTED


def _core_claims() -> list[Claim]:
    return [
        mechanism_claim("prop4-bit-release", _PROP4, "randomized-response", {"eps": 1}, PureDP(1), _P),
        mechanism_claim("prop4-bit-release-tight", _PROP4, "randomized-response", {"eps": "log(3)"},
                        PureDP("log(3) - 1/1000"), _R, note="the bound e^eps is attained, so no smaller eps holds"),
        family_claim("prop4-bit-release-all-eps", _PROP4, "randomized-response", "pure", _P),
        mechanism_claim("k-rr", _WARNER, "k-rr", {"k": 5, "eps": "log(2)"}, PureDP("log(2)"), _P),
        family_claim("k-rr-all-parameters", _WARNER, "k-rr", "pure", _P),
        mechanism_claim("unary-encoding-sue", _UE, "unary-encoding", {"k": 4, "eps": 1, "variant": "sue"},
                        PureDP(1), _P),
        mechanism_claim("unary-encoding-oue", _UE, "unary-encoding", {"k": 4, "eps": 1, "variant": "oue"},
                        PureDP(1), _P),
        family_claim("unary-encoding-all-parameters", _UE, "unary-encoding", "pure", _P),
        mechanism_claim("geometric-clamped", _GEOMETRIC, "geometric", {"eps": "1/2", "lo": 0, "hi": 8},
                        PureDP("1/2"), _P),
        mechanism_claim("geometric-metric", _METRIC, "geometric", {"eps": "1/2", "lo": 0, "hi": 8},
                        MetricDP("1/2"), _P, relation=Metric(lambda a, b: abs(a - b), "d(x, x') = |x - x'|")),
        family_claim("geometric-all-parameters", _GEOMETRIC, "geometric", "pure", _P),
        mechanism_claim("geometric-renormalized", _CONTROL, "geometric-renormalized",
                        {"eps": "1/2", "lo": 0, "hi": 8}, PureDP("1/2"), _R,
                        note="renormalising the truncated noise breaks the ratio bound"),
        mechanism_claim("exponential", _EXPONENTIAL, "exponential",
                        {"eps": 1, "sensitivity": 1, "utilities": ((0, 1, 2), (1, 0, 2), (1, 1, 3))}, PureDP(1), _P),
        mechanism_claim("exponential-understated-sensitivity", _CONTROL, "exponential",
                        {"eps": 1, "sensitivity": 1, "utilities": ((0, 0), (3, 0))}, PureDP(1), _R,
                        note="utilities change by 3 between neighbours but sensitivity says 1"),
        mechanism_claim("laplace", _LAPLACE, "laplace", {"eps": 1, "sensitivity": 1}, PureDP(1), _P),
        family_claim("laplace-all-parameters", _LAPLACE, "laplace", "pure", _P),
        mechanism_claim("laplace-wrong-scale", _CONTROL, "laplace-wrong-scale", {"eps": "1/2", "sensitivity": 1},
                        PureDP("1/2"), _R, note="scale eps instead of sensitivity/eps"),
        family_claim("laplace-wrong-scale-all-parameters", _CONTROL, "laplace-wrong-scale", "pure", _R),
        mechanism_claim("gaussian-not-pure", _GAUSSIAN, "gaussian", {"sigma": 2, "sensitivity": 1}, PureDP(5), _R,
                        note="the privacy loss is unbounded"),
        family_claim("gaussian-never-pure", _GAUSSIAN, "gaussian", "pure", _R),
        mechanism_claim("gaussian-approx", _GAUSSIAN, "gaussian", {"sigma": 2, "sensitivity": 1},
                        ApproxDP(1, "1/50"), _P),
        family_claim("gaussian-balle-wang", _GAUSSIAN, "gaussian", "approx", _P),
    ]


def _all_claims() -> tuple[Claim, ...]:
    registered = tuple(_core_claims())
    ids = [c.id for c in registered]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise RuntimeError(f"duplicate claim ids: {sorted(duplicates)}")
    return registered


CLAIMS: tuple[Claim, ...] = _all_claims()


def claims(source: str | None = None) -> Iterable[Claim]:
    """The registered claims, optionally only those whose source mentions ``source``."""
    return tuple(c for c in CLAIMS if source is None or source.lower() in c.source.lower())
