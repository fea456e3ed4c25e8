"""Certificates: the verdict on a claim, with the evidence to re-check it without repeating the search."""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import sympy

from dpcert.mechanisms.base import Mechanism
from dpcert.mechanisms.exact_arithmetic import UndecidedSignError, certified_value
from dpcert.proofs.guarantees import Guarantee
from dpcert.proofs.rounding import decimal_string, float_upper

__all__ = ["Verdict", "Witness", "Certificate", "approximately", "json_value", "shown_decimal"]

_SHOWN_MAGNITUDE = 10_000
"""Beyond 10^+-10000 a decimal is shown as a certified 8-digit approximation (see :func:`shown_decimal`)."""


def shown_decimal(value: sympy.Expr, *, digits: int = 12, upward: bool = True) -> str:
    """``value`` as a decimal for evidence and tables.

    Rounded outward with :func:`dpcert.proofs.rounding.decimal_string` (up, or down with ``upward=False``);
    beyond 10^+-10000, where that rounding's exact confirmation takes minutes (a Gaussian witness at
    eps = 1000 has probability 10^-868376), ``"about "`` and 8 of the digits of a certified evaluation.
    """
    value = sympy.sympify(value)
    if value.is_number and not value.is_Rational and value.is_finite is not False:
        try:
            approx = certified_value(value)
        except UndecidedSignError:
            approx = None
        if approx is not None and approx != 0 and abs(int(approx._mpf_[2]) + int(approx._mpf_[3])) > 3.33 * _SHOWN_MAGNITUDE:
            return f"about {sympy.Float(approx, 8)}"
    try:
        return decimal_string(value, digits=digits, upward=upward)
    except UndecidedSignError:  # a display must never turn a decided verdict into an error
        return "no decimal: its digits could not be certified"


def approximately(value: sympy.Expr) -> str:
    """``~x`` with x the decimal of :func:`shown_decimal` (rounded up), or ``about x`` beyond 10^+-10000."""
    shown = shown_decimal(value)
    return shown if shown.startswith("about") else f"~{shown}"


class Verdict(enum.Enum):
    """Outcome of a check (sympy.stats style: refute only what is provably false).

    PROVED and REFUTED are decisions; CONFIRMED means a bound or identity was checked numerically on
    the stated cases (exact enumeration or rigorous arithmetic) without a proof for all cases;
    PROOF_GAP means a step of the source's proof fails (the witness shows the step, not the statement,
    is false), so the statement is not established but not refuted either; UNKNOWN means the checker
    could not decide.
    """

    PROVED = "proved"
    CONFIRMED = "confirmed"
    REFUTED = "refuted"
    PROOF_GAP = "proof-gap"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        """The command line's exit code: 0 holds, 1 refuted, 3 undecided (a proof gap leaves the statement undecided)."""
        return {Verdict.PROVED: 0, Verdict.CONFIRMED: 0, Verdict.REFUTED: 1, Verdict.PROOF_GAP: 3,
                Verdict.UNKNOWN: 3}[self]

    @property
    def colour(self) -> str:
        """The colour the command line shows the verdict in."""
        return {Verdict.PROVED: "green", Verdict.CONFIRMED: "cyan", Verdict.REFUTED: "red",
                Verdict.PROOF_GAP: "magenta", Verdict.UNKNOWN: "yellow"}[self]


def json_value(value: object) -> object:
    """A JSON-friendly form of an input, output or event (exact numbers become strings)."""
    if isinstance(value, sympy.Basic):
        return str(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [json_value(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "item"):  # numpy scalar
        return value.item()
    return value


@dataclass(frozen=True)
class Witness:
    """Two neighbouring inputs and an output (or event) whose probabilities break the claim.

    ``output`` is a single output, or for an event a ``frozenset`` of outputs, or for a continuous
    mechanism a description of the region (e.g. ``"y > 3"``).
    """

    x: Hashable
    x_prime: Hashable
    output: Hashable
    p: sympy.Expr
    p_prime: sympy.Expr

    def as_json(self) -> dict[str, object]:
        """``{"x", "x_prime", "output", "p", "p_prime"}`` with exact probabilities as strings."""
        return {"x": json_value(self.x), "x_prime": json_value(self.x_prime), "output": json_value(self.output),
                "p": str(self.p), "p_prime": str(self.p_prime)}


@dataclass(frozen=True)
class Certificate:
    """The outcome of checking ``guarantee`` for ``mechanism``.

    Attributes:
        verdict: PROVED, REFUTED or UNKNOWN.
        method: how it was decided ("exact", "symbolic").
        epsilon: the tightest eps (pure or metric), exact; ``sympy.oo`` when no finite eps holds;
            ``None`` when the check did not compute it.
        delta: for (eps, delta) claims, the exact hockey-stick divergence at the claimed eps.
        witness: for a refutation, the inputs and output or event that break the claim.
        evidence: one sentence a person can read.
        replay: re-checks the stored result from the mechanism's definition, without the search.
    """

    mechanism: Mechanism
    guarantee: Guarantee
    verdict: Verdict
    method: str
    evidence: str
    epsilon: sympy.Expr | None = None
    delta: sympy.Expr | None = None
    witness: Witness | None = None
    replay: Callable[[Certificate], bool] | None = field(default=None, repr=False, compare=False)

    def recheck(self) -> bool:
        """Re-verify the certificate's content from the mechanism's pmf or density (no search).

        A refutation is re-checked by recomputing the witness's probabilities exactly and confirming
        they violate the guarantee; a proof by confirming the claimed bound at every neighbouring
        pair and output. UNKNOWN certificates have nothing to re-check and return True.
        """
        if self.verdict is Verdict.UNKNOWN or self.replay is None:
            return self.verdict is Verdict.UNKNOWN
        return bool(self.replay(self))

    @property
    def epsilon_upper(self) -> float | None:
        """The tightest eps rounded up to a float (never below the exact value)."""
        return None if self.epsilon is None else float_upper(self.epsilon)

    def as_json(self) -> dict[str, object]:
        """The fields of the command line's JSON for ``verify`` and ``epsilon``."""
        return {
            "mechanism": self.mechanism.name,
            "parameters": {k: json_value(v) for k, v in self.mechanism.parameters().items()},
            "claim": str(self.guarantee),
            "verdict": self.verdict.value,
            "method": self.method,
            "epsilon": None if self.epsilon is None else str(self.epsilon),
            "epsilon_upper": self.epsilon_upper,
            "delta": None if self.delta is None else str(self.delta),
            "delta_upper": None if self.delta is None else float_upper(self.delta),
            "witness": None if self.witness is None else self.witness.as_json(),
            "evidence": self.evidence,
        }
