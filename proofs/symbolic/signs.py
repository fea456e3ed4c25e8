"""Sign decisions: the sign of a sympy expression for every value of its symbols, or that it is zero.

Signs over all parameter values use sympy's assumptions, after writing e^(eps/2) = 1 + u and k = 2 + j
with u > 0 and integer j >= 0, so that a ratio becomes a rational function of u and j whose sign sympy
can read off. A step sympy cannot decide raises :class:`Undecided`, which the checkers turn into an
UNKNOWN verdict.
"""

from __future__ import annotations

import sympy

from dpcert.mechanisms.parameters import UndecidedSignError, exact_sign
from dpcert.proofs.symbolic.constants import EPS, K

# e^(eps/2) = 1 + u with u > 0, and k = 2 + j with integer j >= 0: ratios become rational functions of u, j.
_U = sympy.Dummy("u", positive=True)
_J = sympy.Dummy("j", integer=True, nonnegative=True)
_REPARAMETRISATION = {EPS: 2 * sympy.log(1 + _U), K: 2 + _J}


class Undecided(Exception):
    """sympy could not decide a step; the message says which (turned into an UNKNOWN verdict)."""


def sign_or_none(expr: sympy.Expr) -> int | None:
    """The sign of ``expr`` for every value of its symbols (under their assumptions), or None if undecided.

    A number is decided exactly (:func:`dpcert.mechanisms.parameters.exact_sign`). An expression in the family
    symbols is tried as it is, cancelled and factored, and after the reparametrisation
    e^(eps/2) = 1 + u, k = 2 + j; None also means that the sign varies with the parameters.
    """
    expr = sympy.sympify(expr)
    if not expr.free_symbols:
        try:
            return exact_sign(expr)
        except UndecidedSignError:
            return None
    forms = [expr, sympy.factor(sympy.cancel(sympy.together(expr)))]
    reparametrised = expr.subs(_REPARAMETRISATION)
    if reparametrised != expr:
        forms.append(sympy.factor(sympy.cancel(sympy.together(sympy.expand(reparametrised)))))
    for form in forms:
        if form.is_zero:
            return 0
        if form.is_positive:
            return 1
        if form.is_negative:
            return -1
    return None


def decided_sign(expr: sympy.Expr, what: str) -> int:
    sign = sign_or_none(expr)
    if sign is None:
        raise Undecided(f"could not decide the sign of {what}: {expr}")
    return sign


def identically_zero(expr: sympy.Expr) -> bool:
    return expr == 0 or sympy.simplify(expr) == 0
