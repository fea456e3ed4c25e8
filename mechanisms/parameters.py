"""Exact parameter values and their validation.

Every privacy parameter and probability in dpcert is exact: a sympy ``Rational`` where the value is
rational, otherwise a sympy expression such as ``log(3)`` or ``exp(1)/(1 + exp(1))``. This module turns
user input (int, Fraction, decimal or fraction strings, sympy expressions) into such values and
validates them up front with one error type, :class:`InvalidParameterError`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
import re
from fractions import Fraction
from tokenize import TokenError
from numbers import Integral

import mpmath
import sympy

from dpcert.mechanisms.exact_arithmetic import UndecidedSignError, cancel_exponentials, exact_sign
from sympy.parsing.sympy_parser import rationalize, standard_transformations

__all__ = [
    "EPS_RANGE",
    "ExactValue",
    "InvalidParameterError",
    "UndecidedSignError",
    "cancel_exponentials",
    "decided_sign",
    "range_text",
    "exact_sign",
    "require_bool",
    "require_eps",
    "require_int",
    "require_positive",
    "require_real",
    "require_unit_interval",
    "to_exact",
]

ExactValue = sympy.Expr
"""An exact real number: a sympy ``Rational`` or a closed-form sympy expression."""


class InvalidParameterError(ValueError):
    """A parameter is outside its allowed range; the message names the parameter and the range."""


_SHOWN_CHARS = 60
"""Values longer than this are abbreviated in error messages (a 4000-digit number stays one short line)."""


def _brief(value: object) -> str:
    """``value`` for an error message: as typed when short, else abbreviated with its magnitude."""
    try:
        text = repr(value) if isinstance(value, str) else str(value)
    except ValueError:  # an integer beyond Python's 4300-digit conversion limit
        return "a number of more than 4300 digits"
    if len(text) <= _SHOWN_CHARS:
        return text
    magnitude = ""
    if isinstance(value, sympy.Basic) and value.is_number:
        try:
            magnitude = f", about {sympy.Float(value.evalf(3), 3)}"
        except (TypeError, ValueError, OverflowError):
            magnitude = ""
    return f"{text[:_SHOWN_CHARS // 2]}...{text[-10:]} ({len(text)} characters{magnitude})"


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
        raise InvalidParameterError(f"{name} must be a finite real number. Got {_brief(text)}")
    if not text or not _EXPRESSION_CHARS.match(text):
        raise InvalidParameterError(
            f"{name} must be a number, a fraction such as 3/2, or an expression such as log(3). Got {_brief(text)}"
        )
    unknown = sorted(set(_NAME.findall(text)) - set(_ALLOWED_NAMES))
    if unknown:
        raise InvalidParameterError(
            f"{name} may use only {', '.join(sorted(_ALLOWED_NAMES))} as names. Got {_brief(', '.join(unknown))} in {_brief(text)}"
        )
    too_big = (f"{name} is too large or too small to compute with exactly (rational parts must lie within "
               f"10^-{_MAX_DIGITS}..10^{_MAX_DIGITS}). Got {_brief(text)}")
    if re.search(r"\d{%d,}" % (_MAX_DIGITS + 1), text) or any(
            len(e.lstrip("+-")) > 5 or abs(int(e)) > _MAX_DIGITS for e in re.findall(r"[0-9.][eE]([+-]?\d+)", text)):
        raise InvalidParameterError(too_big)
    if re.fullmatch(r"[+-]?\d+(\.\d*)?([eE][+-]?\d+)?|[+-]?\.\d+([eE][+-]?\d+)?", text):
        return sympy.Rational(Fraction(text))
    if len(text) > _MAX_EXPRESSION_CHARS:
        raise InvalidParameterError(f"{name} must be a number, or an expression of at most {_MAX_EXPRESSION_CHARS} "
                                    f"characters. Got {_brief(text)}")
    try:
        # rationalize: every decimal literal becomes the exact Rational it denotes (1 - 1e-12 is not 1)
        options = {"local_dict": dict(_ALLOWED_NAMES),
                   "global_dict": {"Integer": sympy.Integer, "Float": sympy.Float, "Rational": sympy.Rational,
                                   "Symbol": sympy.Symbol, "Add": sympy.Add, "Mul": sympy.Mul, "Pow": sympy.Pow},
                   "transformations": standard_transformations + (rationalize,)}
        # Size every sub-expression in floating point before evaluating exactly: 9^9^9^9 or
        # exp(exp(exp(100))) must be rejected, not computed (the inner terms are sized first).
        for node in sympy.postorder_traversal(sympy.parse_expr(text.replace("^", "**"), evaluate=False, **options)):
            if isinstance(node, sympy.Basic) and not node.is_Atom:
                # rational sub-expressions become exact integers; exp/log ones stay symbolic and may be larger
                closed_form = node.has(sympy.exp, sympy.log, sympy.E, sympy.pi)
                if _decimal_size(node) > (_MAX_TRANSCENDENTAL_DIGITS if closed_form else _MAX_DIGITS):
                    raise InvalidParameterError(too_big)
        value = sympy.parse_expr(text.replace("^", "**"), evaluate=True, **options)
    except (SyntaxError, TypeError, ValueError, ZeroDivisionError, sympy.SympifyError, TokenError, RecursionError,
            MemoryError) as error:
        if isinstance(error, InvalidParameterError):
            raise
        raise InvalidParameterError(f"{name} could not be parsed as an exact number. Got {_brief(text)}") from error
    return _decimal_floats(value)


def _decimal_floats(expr: sympy.Basic) -> sympy.Basic:
    """``expr`` with every sympy Float replaced by the decimal it prints as (``1.00000000000000e-32`` is 10^-32).

    Exact, unlike ``sympy.nsimplify``, which approximates (it reads 10^-32 as 0 inside an expression and a
    Float as its binary value).
    """
    return expr.xreplace({f: sympy.Rational(str(f)) for f in expr.atoms(sympy.Float)})


_MAX_EXPRESSION_CHARS = 1000
"""The longest expression (as opposed to a plain decimal number) that is parsed."""
_MAX_DIGITS = 4000
"""Parsed rational numbers must lie within 10^-4000 .. 10^4000 in absolute value (or be 0)."""
_MAX_TRANSCENDENTAL_DIGITS = 10**6
"""Closed forms such as exp(-10^5) stay symbolic and may reach 10^(+-10^6); exp(exp(100)) may not."""


def _decimal_size(node: sympy.Basic) -> float:
    """|log10 |node||, from a 15-digit evaluation; 0 when the node is not a non-zero real number."""
    approx = node.evalf(15)
    if not approx.is_Float or approx == 0:
        return 0.0
    return abs(float(mpmath.log10(abs(mpmath.mpf(approx)))))


def to_exact(name: str, value: object) -> sympy.Expr:
    """Convert ``value`` to an exact real sympy number, or raise naming ``name``.

    Floats are read as the decimal they print as (``0.1`` becomes ``1/10``), so what a user types is
    what dpcert computes with.
    """
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be a number. Got {_brief(value)}")
    if isinstance(value, sympy.Basic):
        # a sympy Float is read as the decimal it prints as, like a Python float: values stay exact
        expr = _decimal_floats(value)
    elif isinstance(value, Integral):
        expr = sympy.Integer(int(value))
    elif isinstance(value, Fraction):
        expr = sympy.Rational(value.numerator, value.denominator)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidParameterError(f"{name} must be finite. Got {_brief(value)}")
        expr = sympy.Rational(Fraction(repr(float(value))))  # float(): numpy's repr is np.float64(...)
    elif isinstance(value, str):
        expr = _parse_string(name, value)
    else:
        raise InvalidParameterError(f"{name} must be a number. Got {type(value).__name__} {_brief(value)}")
    if not isinstance(expr, sympy.Expr) or expr.free_symbols:
        raise InvalidParameterError(f"{name} must be a closed-form real number. Got {_brief(value)}")
    if expr.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) or expr.is_real is False or expr.is_finite is False:
        raise InvalidParameterError(f"{name} must be a finite real number. Got {_brief(value)}")
    return expr


def decided_sign(name: str, expr: sympy.Expr, *, sign: Callable[[sympy.Expr], int] = exact_sign) -> int:
    """``sign(expr)``, with a sign that cannot be decided reported as bad input naming ``name``."""
    try:
        return sign(expr)
    except UndecidedSignError as error:
        raise InvalidParameterError(f"{name}: could not decide whether {expr} is in range") from error


def _shown(bound: object) -> str:
    """A range end point as a user reads it: ``10^-12`` rather than ``1/1000000000000``."""
    expr = to_exact("bound", bound)
    if expr.is_Rational and expr != 0:
        numerator, denominator = abs(expr.p), expr.q
        k = _ten_power(numerator) if denominator == 1 else _ten_power(denominator) if numerator == 1 else None
        if k is not None and k >= 6:
            return f"{'-' if expr < 0 else ''}10^{k if denominator == 1 else -k}"
    return str(expr)


def _ten_power(n: int) -> int | None:
    """k when n = 10^k exactly, else None: read from the digits, so no float overflows at any size."""
    digits = str(n)
    return len(digits) - 1 if digits.rstrip("0") == "1" else None


def range_text(low: object | None, high: object | None, *, low_open: bool = False, high_open: bool = False) -> str:
    """An interval written for an error message, e.g. ``(0, 700]`` or ``[10^-12, inf)``."""
    left = "(-inf" if low is None else ("(" if low_open else "[") + _shown(low)
    right = "inf)" if high is None else _shown(high) + (")" if high_open else "]")
    return f"{left}, {right}"


def require_real(name: str, value: object, *, low: object | None = None, high: object | None = None,
                 low_open: bool = False, high_open: bool = False) -> sympy.Expr:
    """``value`` as an exact number in the interval from ``low`` to ``high`` (closed unless said open).

    This is where a parameter's *answerable range* is decided: the values dpcert can compute with
    exactly and within time, not only the values the mathematics allows. An error names the parameter
    and the whole range, e.g. ``eps0 must be in [10^-12, 700]. Got 1000``.
    """
    expr = to_exact(name, value)
    allowed = range_text(low, high, low_open=low_open, high_open=high_open)
    for bound, side, is_open in ((low, 1, low_open), (high, -1, high_open)):
        if bound is None:
            continue
        sign = decided_sign(name, side * (expr - to_exact("bound", bound)))
        if sign < 0 or (sign == 0 and is_open):
            raise InvalidParameterError(f"{name} must be in {allowed}. Got {_brief(expr)}")
    return expr


def require_positive(name: str, value: object, *, at_least: object | None = None,
                     at_most: object | None = None) -> sympy.Expr:
    """``value`` as an exact number that must be > 0 (and within [at_least, at_most] when given)."""
    if at_least is None and at_most is None:
        expr = to_exact(name, value)
        if decided_sign(name, expr) <= 0:
            raise InvalidParameterError(f"{name} must be > 0. Got {_brief(expr)}")
        return expr
    low = 0 if at_least is None else at_least
    return require_real(name, value, low=low, high=at_most, low_open=at_least is None)


EPS_RANGE = (sympy.Rational(1, 10**300), sympy.Integer(10**4))
"""The privacy parameters dpcert answers for: eps (and alpha0, a claimed eps) in [10^-300, 10^4].

Below 10^-300, telling e^eps from 1 takes more than the 500 digits :func:`exact_sign` evaluates with
(and more than :func:`dpcert.mechanisms.exact_arithmetic.certified_float` may use to place log probabilities);
above 10^4, probabilities reach e^-10^4 and the symbolic checker's closed forms in e^eps take minutes
(unary encoding at eps = 10^6: 8 s, 10^100: hours). Both ends are far outside any meaningful privacy level.
"""


def require_eps(name: str, value: object) -> sympy.Expr:
    """``value`` as an exact privacy parameter in :data:`EPS_RANGE`, e.g. ``eps must be in [10^-300, 10000]``."""
    return require_positive(name, value, at_least=EPS_RANGE[0], at_most=EPS_RANGE[1])


def require_unit_interval(name: str, value: object, *, closed_right: bool = False) -> sympy.Expr:
    """``value`` as an exact number in [0, 1) (or [0, 1] with ``closed_right``)."""
    expr = to_exact(name, value)
    upper = decided_sign(name, expr - 1)
    if decided_sign(name, expr) < 0 or upper > 0 or (upper == 0 and not closed_right):
        interval = "[0, 1]" if closed_right else "[0, 1)"
        raise InvalidParameterError(f"{name} must be in {interval}. Got {_brief(expr)}")
    return expr


def require_bool(name: str, value: object) -> bool:
    """``value`` as a bool: True or False, or (as typed on a command line) true/false, yes/no or 1/0 in any case.
    Anything else, a non-empty string such as "maybe" among them, is rejected with an error naming ``name``
    rather than read as true."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("true", "yes", "1"):
            return True
        if text in ("false", "no", "0"):
            return False
    raise InvalidParameterError(f"{name} must be true or false. Got {_brief(value)}")


def require_int(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None,
                maximum_name: str | None = None) -> int:
    """``value`` as a Python int within [minimum, maximum].

    Any exact number equal to an integer is accepted: ints (numpy's too), integral floats such as
    ``1e12``, Fractions and sympy numbers with denominator 1, and strings such as ``"12"``, ``"1e12"``,
    ``"10^6"`` or ``"2**40"`` (read by :func:`to_exact`). Booleans and non-integers (``"1.5"``, ``0.5``,
    ``"log(3)"``) are rejected with an error naming ``name`` and the range. When the maximum is another
    parameter's value, ``maximum_name`` names it too ("w must be an integer in [1, N = 2]"), so the user
    sees which of the two to change.
    """
    def refused(got: object) -> InvalidParameterError:  # the range is written out only for an error
        low = "-inf" if minimum is None else _shown(minimum)
        high = "inf" if maximum is None else _shown(maximum)
        if maximum_name is not None:
            high = f"{maximum_name} = {high}"
        allowed = "" if minimum is None and maximum is None else f" in [{low}, {high}]"
        return InvalidParameterError(f"{name} must be an integer{allowed}. Got {_brief(got)}")

    if isinstance(value, bool):
        raise refused(value)
    if isinstance(value, Integral):
        number = int(value)
    else:
        try:
            exact = to_exact(name, value)
        except InvalidParameterError:
            raise refused(value) from None
        if not exact.is_Integer:
            raise refused(value)
        number = int(exact)
    if minimum is not None and number < minimum or maximum is not None and number > maximum:
        raise refused(number)
    return number
