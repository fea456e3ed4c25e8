"""Inequalities of the proofs behind the accountant's bounds, decided for every parameter value with sympy.

A :class:`SymbolicFact` is three-valued like sympy.stats: ``holds`` is True when sympy proved the
statement for every admissible value, False when an exact counterexample point was found, and None when
neither (never an exception). The proofs reduce a statement to "this expression is >= 0" after a
substitution that makes every symbol free and non-negative, and then let sympy's assumptions read the
sign off the expanded or factored form, or check an explicit sum-of-squares certificate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product

import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, UndecidedSignError, exact_sign

__all__ = ["SymbolicFact", "fact_from_cases", "nonnegative_everywhere", "square_certificate"]


@dataclass(frozen=True)
class SymbolicFact:
    """A statement about every parameter value, and sympy's verdict on it.

    Attributes:
        statement: the claim, quantified over its parameters.
        source: paper and theorem (or spec item) it comes from.
        holds: True (proved for every value), False (refuted: see ``evidence``) or None (undecided).
        evidence: the proof (substitution and sign decision) or the counterexample.
    """

    statement: str
    source: str
    holds: bool | None
    evidence: str


def _expression(name: str, value: object) -> sympy.Expr:
    """``value`` as a real sympy expression (numbers, symbols and their combinations)."""
    try:
        expr = sympy.sympify(value, strict=True)
    except sympy.SympifyError:
        expr = None
    if not isinstance(expr, sympy.Expr) or expr.is_real is False:
        raise InvalidParameterError(f"{name} must be a real sympy expression. Got {value!r}")
    return expr


_POSITIVE_PROBES = (sympy.Rational(1, 3), sympy.Integer(1), sympy.Integer(7))


def _probes(symbol: sympy.Symbol) -> tuple[sympy.Expr, ...]:
    """Exact probe values within the symbol's assumptions (positive, non-negative or any real)."""
    if symbol.is_positive:
        return _POSITIVE_PROBES
    if symbol.is_nonnegative:
        return (sympy.Integer(0), *_POSITIVE_PROBES)
    return (*(-p for p in _POSITIVE_PROBES), sympy.Integer(0), *_POSITIVE_PROBES)


def nonnegative_everywhere(expr: sympy.Expr) -> tuple[bool | None, str]:
    """Whether ``expr`` >= 0 for every value of its symbols (under their sympy assumptions).

    Returns (True, form) when sympy's assumptions decide the factored, original or expanded form is
    non-negative; (False, point) when an exact evaluation at probe points (0, +-1/3, +-1, +-7, as the
    symbol's assumptions allow) is negative; (None, reason) otherwise.
    """
    expr = _expression("expr", expr)
    for form in (sympy.factor(sympy.cancel(sympy.together(expr))), expr, sympy.expand(expr)):
        if form.is_nonnegative:
            return True, f"{form} >= 0 by sympy's assumptions"
    symbols = sorted(expr.free_symbols, key=str)
    for values in product(*(_probes(symbol) for symbol in symbols)):
        point = dict(zip(symbols, values))
        try:
            if exact_sign(expr.subs(point)) < 0:
                return False, f"negative at {point}"
        except UndecidedSignError:
            continue
    return None, f"sympy could not decide the sign of {expr}"


def square_certificate(expr: sympy.Expr, root: sympy.Expr, *, rest: sympy.Expr = sympy.Integer(0)
                       ) -> tuple[bool | None, str]:
    """Whether ``expr`` == root^2 + rest identically with ``rest`` >= 0: a sum-of-squares proof of expr >= 0.

    Returns (True, certificate) when the identity expands to 0 and ``rest`` is decided non-negative by
    :func:`nonnegative_everywhere`, else that function's verdict on ``expr`` itself.
    """
    expr, root, rest = (_expression(name, value) for name, value in (("expr", expr), ("root", root), ("rest", rest)))
    if sympy.expand(expr - root**2 - rest) == 0:
        rest_holds, rest_evidence = nonnegative_everywhere(rest)
        if rest_holds:
            return True, f"{expr} = ({root})^2 + {rest} identically, and {rest_evidence}"
    return nonnegative_everywhere(expr)


def fact_from_cases(statement: str, source: str, cases: Mapping[str, tuple[bool | None, str]]) -> SymbolicFact:
    """One fact proved by cases: it holds iff every case holds; refuted if one is refuted."""
    if not isinstance(cases, Mapping) or not cases:
        raise InvalidParameterError(f"cases must be a non-empty mapping of case -> (holds, evidence). Got {cases!r}")
    verdicts = [holds for holds, _ in cases.values()]
    holds = True if all(v is True for v in verdicts) else False if any(v is False for v in verdicts) else None
    evidence = "; ".join(f"{case}: {text}" for case, (_, text) in cases.items())
    return SymbolicFact(statement, source, holds, evidence)

