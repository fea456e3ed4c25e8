"""Deciding a claim for every parameter value: its result, and the decision from the signs of its excesses.

Holds :class:`FamilyResult`, mechanisms whose parameters are sympy symbols, and the decision that a
claim holds iff every excess is <= 0, with a counterexample found by solving an inequality otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy

from dpcert.mechanisms.base import Mechanism
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.symbolic.constants import K
from dpcert.proofs.symbolic.signs import sign_or_none


@dataclass(frozen=True)
class FamilyResult:
    """The verdict on a claim about every member of a mechanism family.

    Attributes:
        name: the family's name (one of :data:`FAMILIES`).
        statement: the claim, quantified over the parameters.
        verdict: PROVED (for every parameter value), REFUTED or UNKNOWN.
        evidence: how it was decided.
        counterexample: for REFUTED, parameter values (name -> exact value) at which the claim fails.
    """

    name: str
    statement: str
    verdict: Verdict
    evidence: str
    counterexample: dict[str, sympy.Expr] | None = None


def symbolic_instance(cls: type[Mechanism], **fields: sympy.Expr) -> Mechanism:
    """An instance of ``cls`` whose parameters are sympy symbols.

    Validation (``__post_init__``) accepts only numbers, so it is skipped; the family checks then use the
    class's own formulas (probabilities, density, scale), which are plain sympy expressions in the fields.
    """
    instance = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(instance, name, value)
    return instance


def _counterexample(excess: sympy.Expr, params: dict[str, sympy.Symbol]) -> dict[str, sympy.Expr] | None:
    """Parameter values where ``excess`` > 0, found by solving ``excess > 0`` for one real parameter.

    The other parameters are set to 1 (k to 2); the point is the midpoint of the first interval of
    solutions, or its start + 1 if it is unbounded, and is confirmed by exact evaluation.
    """
    for name, symbol in params.items():
        if symbol.is_integer:
            continue
        others = {s: sympy.Integer(2 if s is K else 1) for s in params.values() if s is not symbol}
        try:
            region = sympy.solve_univariate_inequality(excess.subs(others) > 0, symbol, relational=False)
        except (NotImplementedError, ValueError):
            continue
        region = region.intersect(sympy.Interval.open(0, sympy.oo))
        if isinstance(region, sympy.Union):
            region = region.args[0]
        if not isinstance(region, sympy.Interval) or region.measure == 0:
            continue
        point = region.inf + 1 if region.sup == sympy.oo else (region.inf + region.sup) / 2
        values = {**others, symbol: point}
        if exact_sign(excess.subs(values)) > 0:
            return {n: values[s] for n, s in params.items()}
    return None


def decide(name: str, statement: str, excesses: Sequence[sympy.Expr], params: dict[str, sympy.Symbol],
           derivation: str) -> FamilyResult:
    """The claim holds iff every excess is <= 0 for every parameter value; tight iff one is identically 0.

    An excess whose sign sympy cannot show is <= 0 is searched for a counterexample (:func:`_counterexample`).
    """
    signs = [sign_or_none(e) for e in excesses]
    if all(s is not None and s <= 0 for s in signs):
        tight = "tight: equality holds identically" if 0 in signs else "not tight"
        return FamilyResult(name, statement, Verdict.PROVED, f"{derivation}; proved for every value ({tight})")
    for excess, sign in zip(excesses, signs):
        found = None if sign is not None and sign <= 0 else _counterexample(excess, params)
        if found is not None:
            scope = "for every value" if sign == 1 else f"found by solving {excess} > 0"
            return FamilyResult(name, statement, Verdict.REFUTED,
                                f"{derivation}; {excess} > 0 {scope}, e.g. at {found}", found)
    return FamilyResult(name, statement, Verdict.UNKNOWN, f"{derivation}; sympy could not decide the sign")
