"""Exact parameter values and their validation.

Every privacy parameter and probability in dpcert is exact: a sympy ``Rational`` where the value is
rational, otherwise a sympy expression such as ``log(3)`` or ``exp(1)/(1 + exp(1))``. This module turns
user input (int, Fraction, decimal or fraction strings, sympy expressions) into such values and
validates them up front with one error type, :class:`InvalidParameterError`.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from numbers import Integral

import sympy

__all__ = [
    "ExactValue",
    "InvalidParameterError",
    "UndecidedSignError",
    "cancel_exponentials",
    "exact_sign",
    "parse_exact",
    "require_int",
    "require_positive",
    "require_unit_interval",
    "to_exact",
]

ExactValue = sympy.Expr
"""An exact real number: a sympy ``Rational`` or a closed-form sympy expression."""


class InvalidParameterError(ValueError):
    """A parameter is outside its allowed range; the message names the parameter and the range."""


# Only these names may appear in a parsed expression: no attribute access, no other calls.
_ALLOWED_NAMES = {
    "log": sympy.log,
    "ln": sympy.log,
    "exp": sympy.exp,
    "sqrt": sympy.sqrt,
    "pi": sympy.pi,
    "E": sympy.E,
    "e": sympy.E,
}
_EXPRESSION_CHARS = re.compile(r"^[0-9A-Za-z_+\-*/().^ \t]+$")
_NAME = re.compile(r"[A-Za-z_]+")


def _parse_string(name: str, text: str) -> sympy.Expr:
    text = text.strip()
    if text.lower().lstrip("+-") in {"nan", "inf", "infinity", "oo"}:
        raise InvalidParameterError(f"{name} must be a finite real number. Got {text!r}")
    if not text or not _EXPRESSION_CHARS.match(text):
        raise InvalidParameterError(
            f"{name} must be a number, a fraction such as 3/2, or an expression such as log(3). Got {text!r}"
        )
    unknown = sorted(set(_NAME.findall(text)) - set(_ALLOWED_NAMES))
    if unknown:
        raise InvalidParameterError(
            f"{name} may use only {', '.join(sorted(_ALLOWED_NAMES))} as names. Got {', '.join(unknown)} in {text!r}"
        )
    if re.fullmatch(r"[+-]?\d+(\.\d*)?([eE][+-]?\d+)?|[+-]?\.\d+([eE][+-]?\d+)?", text):
        return sympy.Rational(Fraction(text))
    try:
        value = sympy.parse_expr(text.replace("^", "**"), local_dict=dict(_ALLOWED_NAMES),
                                 global_dict={"Integer": sympy.Integer, "Float": sympy.Float,
                                              "Rational": sympy.Rational, "Symbol": sympy.Symbol},
                                 evaluate=True)
    except (SyntaxError, TypeError, ValueError, ZeroDivisionError, sympy.SympifyError) as error:
        raise InvalidParameterError(f"{name} could not be parsed as an exact number. Got {text!r}") from error
    return sympy.nsimplify(value, rational=True) if value.has(sympy.Float) else value


def to_exact(name: str, value: object) -> sympy.Expr:
    """Convert ``value`` to an exact real sympy number, or raise naming ``name``.

    Floats are read as the decimal they print as (``0.1`` becomes ``1/10``), so what a user types is
    what dpcert computes with.
    """
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be a number. Got {value!r}")
    if isinstance(value, sympy.Basic):
        expr = value
    elif isinstance(value, Integral):
        expr = sympy.Integer(int(value))
    elif isinstance(value, Fraction):
        expr = sympy.Rational(value.numerator, value.denominator)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidParameterError(f"{name} must be finite. Got {value!r}")
        expr = sympy.Rational(Fraction(repr(value)))
    elif isinstance(value, str):
        expr = _parse_string(name, value)
    else:
        raise InvalidParameterError(f"{name} must be a number. Got {type(value).__name__} {value!r}")
    if not isinstance(expr, sympy.Expr) or expr.free_symbols:
        raise InvalidParameterError(f"{name} must be a closed-form real number. Got {value!r}")
    if expr.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) or expr.is_real is False or expr.is_finite is False:
        raise InvalidParameterError(f"{name} must be a finite real number. Got {value!r}")
    return expr


parse_exact = to_exact


class UndecidedSignError(ArithmeticError):
    """The sign of a closed-form number could not be decided at the precision dpcert tries."""


def cancel_exponentials(expr: sympy.Expr) -> sympy.Expr:
    """Cancel a rational function of exponentials whose exponents are rational multiples of one number.

    exp(p/q) is rewritten as s**p with s = exp(1/q) (or exp(b/q) for a common irrational b), the
    rational function in s is cancelled, and s is substituted back; logarithms are cancelled inside.
    Example: (exp(3/2) + exp(2) + exp(5/2)) / (exp(1/2) + E + exp(3/2)) becomes E.
    """
    expr = sympy.sympify(expr)
    expr = expr.replace(lambda e: isinstance(e, sympy.log),
                        lambda e: sympy.log(cancel_exponentials(e.args[0])))
    powers = [(a, a.args[0]) for a in expr.atoms(sympy.exp)]
    if expr.has(sympy.E):
        powers.append((sympy.E, sympy.Integer(1)))
    if not powers:
        return sympy.cancel(expr)
    base = next((arg for _, arg in powers if not arg.is_Rational), sympy.Integer(1))
    ratios = [sympy.nsimplify(arg / base) for _, arg in powers]
    if not all(r.is_Rational for r in ratios):
        return expr
    denominator = sympy.ilcm(*(r.q for r in ratios)) if len(ratios) > 1 else ratios[0].q
    s = sympy.Dummy("s", positive=True)
    replaced = expr.xreplace({atom: s ** (r * denominator) for (atom, _), r in zip(powers, ratios)})
    return sympy.cancel(replaced).subs(s, sympy.exp(base / denominator))


def exact_sign(expr: sympy.Expr) -> int:
    """The exact sign (-1, 0 or 1) of a closed-form real number.

    Rationals are compared exactly. Other numbers are evaluated with sympy's ``evalf(strict=True)``,
    which raises instead of returning a value whose requested digits are not all correct, so a
    non-zero result has the right sign; a number that evaluates to zero is decided by simplification.

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
            continue
        if approx.is_Number and approx != 0:
            return 1 if approx > 0 else -1
    if cancel_exponentials(expr) == 0 or sympy.simplify(expr) == 0 or expr.equals(0):
        return 0
    raise UndecidedSignError(f"could not decide the sign of {expr}")


def _sign(name: str, expr: sympy.Expr) -> int:
    try:
        return exact_sign(expr)
    except UndecidedSignError as error:
        raise InvalidParameterError(f"{name}: could not decide whether {expr} is in range") from error


def require_positive(name: str, value: object) -> sympy.Expr:
    """``value`` as an exact number that must be > 0."""
    expr = to_exact(name, value)
    if _sign(name, expr) <= 0:
        raise InvalidParameterError(f"{name} must be > 0. Got {expr}")
    return expr


def require_unit_interval(name: str, value: object, *, closed_right: bool = False) -> sympy.Expr:
    """``value`` as an exact number in [0, 1) (or [0, 1] with ``closed_right``)."""
    expr = to_exact(name, value)
    upper = _sign(name, expr - 1)
    if _sign(name, expr) < 0 or upper > 0 or (upper == 0 and not closed_right):
        interval = "[0, 1]" if closed_right else "[0, 1)"
        raise InvalidParameterError(f"{name} must be in {interval}. Got {expr}")
    return expr


def require_int(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a Python int within [minimum, maximum]."""
    if isinstance(value, str):
        value = value.strip()
        if not re.fullmatch(r"[+-]?\d+", value):
            raise InvalidParameterError(f"{name} must be an integer. Got {value!r}")
        value = int(value)
    elif isinstance(value, sympy.Integer):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidParameterError(f"{name} must be an integer. Got {value!r}")
    value = int(value)
    if minimum is not None and value < minimum or maximum is not None and value > maximum:
        low = "-inf" if minimum is None else str(minimum)
        high = "inf" if maximum is None else str(maximum)
        raise InvalidParameterError(f"{name} must be an integer in [{low}, {high}]. Got {value}")
    return value
