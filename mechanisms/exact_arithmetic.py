"""Exact arithmetic on closed-form reals: certified signs and cancellation of exponentials.

Privacy probabilities are rational functions of e^eps (and of e^(eps/2), e^(-eps |y - x|), ...).
When every exponent is a rational multiple of one number b, all of them are rational functions of the
single number s = exp(b/q), and exact arithmetic in the field Q(s) is fast and decides equality:
exp(b/q) is transcendental (Lindemann), so a rational function of it vanishes only if it is the zero
function.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import sympy

__all__ = ["UndecidedSignError", "ExponentialField", "cancel_exponentials", "exact_max", "exact_sign"]


class UndecidedSignError(ArithmeticError):
    """The sign of a closed-form number could not be decided at the precision dpcert tries."""


@dataclass(frozen=True, eq=False)
class ExponentialField:
    """Q(s) with s = exp(b/q), holding every value it was built for as a rational function of s."""

    generator: sympy.Dummy
    value: sympy.Expr
    substitution: dict[sympy.Expr, sympy.Expr]
    field: object

    @classmethod
    def covering(cls, exprs: Iterable[sympy.Expr]) -> ExponentialField | None:
        """The field for ``exprs``, or None when their exponents are not rational multiples of one number."""
        powers: dict[sympy.Expr, sympy.Expr] = {}
        for expr in exprs:
            powers.update((a, a.args[0]) for a in expr.atoms(sympy.exp))
            if expr.has(sympy.E):
                powers[sympy.E] = sympy.Integer(1)
        base = next((arg for arg in powers.values() if not arg.is_Rational), sympy.Integer(1))
        # exact ratios only: nsimplify would approximate (it reads 10^-32 as 0 and e * 10^-40 as 0)
        ratios = {atom: _exact_ratio(arg, base) for atom, arg in powers.items()}
        if not all(r is not None for r in ratios.values()):
            return None
        denominator = 1
        for r in ratios.values():
            denominator = sympy.ilcm(denominator, r.q)
        s = sympy.Dummy("s", positive=True)
        return cls(s, sympy.exp(base / denominator), {a: s ** (r * denominator) for a, r in ratios.items()},
                   sympy.QQ.frac_field(s))

    def element(self, expr: sympy.Expr) -> object:
        """``expr`` as an element of Q(s).

        Raises:
            ValueError: ``expr`` has a coefficient outside Q (e.g. log(3)) or is not a rational function of s.
        """
        try:
            return self.field.from_sympy(expr.xreplace(self.substitution))
        except sympy.polys.polyerrors.CoercionFailed as error:
            raise ValueError(str(error)) from error

    def to_sympy(self, element: object) -> sympy.Expr:
        """The closed form of a field element, with s written as exp(b/q) again."""
        return self.field.to_sympy(element).subs(self.generator, self.value)


def _exact_ratio(arg: sympy.Expr, base: sympy.Expr) -> sympy.Rational | None:
    """arg / base when it is provably a rational number, else None (never a rational approximation)."""
    ratio = arg / base
    if not ratio.is_Rational:
        ratio = sympy.expand_log(sympy.cancel(ratio), force=True)
    return ratio if ratio.is_Rational else None


def cancel_exponentials(expr: sympy.Expr) -> sympy.Expr:
    """Cancel a rational function of exponentials whose exponents are rational multiples of one number.

    exp(p/q) is rewritten as s**p with s = exp(1/q) (or exp(b/q) for a common irrational b), the
    rational function in s is cancelled, and s is substituted back; logarithms are cancelled inside.
    Example: (exp(3/2) + exp(2) + exp(5/2)) / (exp(1/2) + E + exp(3/2)) becomes E.
    """
    expr = sympy.sympify(expr).replace(lambda e: isinstance(e, sympy.log),
                                       lambda e: sympy.log(cancel_exponentials(e.args[0])))
    field = ExponentialField.covering([expr])
    if field is None:
        return expr
    try:
        return field.to_sympy(field.element(expr))
    except ValueError:  # coefficients outside Q: cancel with sympy's general rational-function code
        return sympy.cancel(expr.xreplace(field.substitution)).subs(field.generator, field.value)


def exact_sign(expr: sympy.Expr) -> int:
    """The exact sign (-1, 0 or 1) of a closed-form real number.

    Rationals are compared exactly. Other numbers are evaluated with sympy's ``evalf(strict=True)``,
    which raises instead of returning a value whose requested digits are not all correct, so a
    non-zero result has the right sign; a number that evaluates to zero is decided by cancellation in
    Q(exp(b/q)) or by simplification.

    Raises:
        UndecidedSignError: neither the evaluation nor the simplification could decide.
    """
    if expr.is_Rational:
        return (expr.p > 0) - (expr.p < 0)
    if expr.is_zero:
        return 0
    for digits in (30, 120, 500):
        try:
            approx = expr.evalf(digits, strict=True, maxn=4 * digits)
        except sympy.core.evalf.PrecisionExhausted:
            approx = None
        if approx is not None and approx.is_Number and approx != 0:
            return 1 if approx > 0 else -1
        if digits == 30 and cancel_exponentials(expr) == 0:  # an exact tie: cheaper than more digits
            return 0
    if sympy.simplify(expr) == 0 or expr.equals(0):
        return 0
    raise UndecidedSignError(f"could not decide the sign of {expr}")


def exact_max(values: Iterable[sympy.Expr]) -> sympy.Expr:
    """The largest of some closed-form reals, exactly.

    A 20-digit evaluation keeps the values within 1e-9 (relative) of the largest; those are compared
    with :func:`exact_sign`.

    Raises:
        ValueError: ``values`` is empty.
        UndecidedSignError: two candidates could not be ordered.
    """
    values = [sympy.sympify(v) for v in values]
    if not values:
        raise ValueError("exact_max needs at least one value")
    approx = [float(v.evalf(20)) for v in values]
    top = max(approx)
    threshold = top - 1e-9 * max(1.0, abs(top)) if math.isfinite(top) else -math.inf  # beyond floats: compare all
    best = None
    for value, guess in zip(values, approx):
        if guess >= threshold and (
                best is None or (value != best and exact_sign(value - best) > 0)):
            best = value
    return best
