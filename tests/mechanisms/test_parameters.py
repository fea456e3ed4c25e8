"""Exact parameter parsing and validation (mechanisms/parameters.py)."""

from __future__ import annotations

import contextlib
import math
import re
import signal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from conftest import exact_eps
from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    UndecidedSignError,
    cancel_exponentials,
    exact_sign,
    require_int,
    require_positive,
    require_unit_interval,
    to_exact,
)

R = sympy.Rational


def names(message: str, parameter: str) -> bool:
    """The message mentions ``parameter`` as a word (not inside another word such as eps-DP)."""
    return re.search(rf"(?<![\w\-]){re.escape(parameter)}(?![\w\-])", message) is not None


# ---------------------------------------------------------------------------------------------
# Accepted input: every form converts to the exact number it denotes
# ---------------------------------------------------------------------------------------------

ACCEPTED = [
    pytest.param(3, R(3), id="int"),
    pytest.param(np.int64(7), R(7), id="numpy-int"),
    pytest.param(Fraction(3, 7), R(3, 7), id="Fraction"),
    pytest.param(0.1, R(1, 10), id="float-read-as-its-decimal"),
    pytest.param("0.1", R(1, 10), id="decimal-string"),
    pytest.param(" 2.50 ", R(5, 2), id="decimal-string-with-spaces"),
    pytest.param("1e-3", R(1, 1000), id="scientific-string"),
    pytest.param(".5", R(1, 2), id="leading-dot"),
    pytest.param("3/2", R(3, 2), id="fraction-string"),
    pytest.param("-3/2", R(-3, 2), id="negative-fraction-string"),
    pytest.param("log(3)", sympy.log(3), id="log"),
    pytest.param("ln(3)", sympy.log(3), id="ln"),
    pytest.param("exp(1)", sympy.E, id="exp"),
    pytest.param("E", sympy.E, id="E"),
    pytest.param("2^3", R(8), id="caret-power"),
    pytest.param("sqrt(2)/2", sympy.sqrt(2) / 2, id="sqrt"),
    pytest.param("pi/10^9", sympy.pi / 10**9, id="pi"),
    pytest.param("log(3/2) + 1/4", sympy.log(R(3, 2)) + R(1, 4), id="compound"),
    pytest.param("1 - 1e-12", 1 - R(1, 10**12), id="decimal-literal-inside-expression-stays-exact"),
    pytest.param("0.1*log(3)", sympy.log(3) / 10, id="decimal-coefficient"),
    pytest.param("2^3000", R(2) ** 3000, id="large-but-reasonable-power"),
    pytest.param("exp(-10^5)", sympy.exp(-(10**5)), id="tiny-closed-form-stays-symbolic"),
    pytest.param(sympy.log(5), sympy.log(5), id="sympy-expression"),
    pytest.param(sympy.Float("0.25"), R(1, 4), id="sympy-Float-made-exact"),
]


@pytest.mark.parametrize("raw, expected", ACCEPTED)
def test_to_exact_accepts_and_is_exact(raw, expected):
    value = to_exact("eps", raw)
    assert isinstance(value, sympy.Expr)
    assert not value.has(sympy.Float), f"{raw!r} became the inexact {value}"
    assert value == expected or sympy.simplify(value - expected) == 0


def test_fraction_strings_and_decimals_agree_with_python_fractions():
    # Independent reference: Python's Fraction parses the same decimal text exactly.
    for text in ["0.3", "12.125", "1e-7", "7/9", "-0.0625"]:
        assert to_exact("x", text) == R(Fraction(text).numerator, Fraction(text).denominator)


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=10**6))
def test_to_exact_round_trips_fractions_and_their_text(f):
    expected = R(f.numerator, f.denominator)
    assert to_exact("x", f) == expected
    assert to_exact("x", str(f)) == expected


def test_require_positive_unit_interval_int_accept():
    assert require_positive("eps", "log(3)") == sympy.log(3)
    assert require_positive("eps", Fraction(1, 10**30)) == R(1, 10**30)
    assert require_unit_interval("delta", 0) == 0
    assert require_unit_interval("delta", "1e-9") == R(1, 10**9)
    assert require_unit_interval("delta", 1, closed_right=True) == 1
    assert require_unit_interval("delta", "1 - exp(-40)") == 1 - sympy.exp(-40)
    assert require_int("k", "12") == 12
    assert require_int("k", sympy.Integer(5), minimum=2) == 5
    assert require_int("k", np.int32(3), minimum=3, maximum=3) == 3
    assert type(require_int("k", np.int32(3))) is int
    # every integer-valued exact number: scientific and power notation, integral floats, Fractions
    for value in ["1e12", "10^12", "10**12", 1e12, np.float64(1e12), Fraction(2 * 10**12, 2), R(10**12)]:
        assert require_int("N", value, minimum=2) == 10**12
    assert require_int("n", "2**40") == 2**40 and type(require_int("n", 1e12)) is int


# ---------------------------------------------------------------------------------------------
# Rejected input: InvalidParameterError naming the parameter
# ---------------------------------------------------------------------------------------------

REJECTED = [
    pytest.param(to_exact, float("nan"), {}, id="to_exact-float-nan"),
    pytest.param(to_exact, float("inf"), {}, id="to_exact-float-inf"),
    pytest.param(to_exact, -float("inf"), {}, id="to_exact-float-minus-inf"),
    pytest.param(to_exact, "nan", {}, id="to_exact-string-nan"),
    pytest.param(to_exact, "-Infinity", {}, id="to_exact-string-infinity"),
    pytest.param(to_exact, "oo", {}, id="to_exact-string-oo"),
    pytest.param(to_exact, sympy.nan, {}, id="to_exact-sympy-nan"),
    pytest.param(to_exact, sympy.oo, {}, id="to_exact-sympy-oo"),
    pytest.param(to_exact, sympy.I, {}, id="to_exact-imaginary"),
    pytest.param(to_exact, "log(-1)", {}, id="to_exact-complex-log"),
    pytest.param(to_exact, "log(0)", {}, id="to_exact-log-zero"),
    pytest.param(to_exact, "1/0", {}, id="to_exact-division-by-zero"),
    pytest.param(to_exact, True, {}, id="to_exact-bool"),
    pytest.param(to_exact, None, {}, id="to_exact-None"),
    pytest.param(to_exact, 1 + 2j, {}, id="to_exact-python-complex"),
    pytest.param(to_exact, [1], {}, id="to_exact-list"),
    pytest.param(to_exact, "", {}, id="to_exact-empty"),
    pytest.param(to_exact, "x + 1", {}, id="to_exact-free-symbol"),
    pytest.param(to_exact, "foo(2)", {}, id="to_exact-unknown-function"),
    pytest.param(to_exact, "__import__('os')", {}, id="to_exact-code-injection"),
    pytest.param(to_exact, "__import__(chr(111))", {}, id="to_exact-code-injection-no-quotes"),
    pytest.param(to_exact, "exp.__class__", {}, id="to_exact-attribute-access"),
    pytest.param(to_exact, "lambda: 1", {}, id="to_exact-lambda"),
    pytest.param(to_exact, "exp(", {}, id="to_exact-unbalanced-parenthesis"),
    pytest.param(to_exact, "1 +", {}, id="to_exact-syntax-error"),
    pytest.param(to_exact, "log(1, 2, 3)", {}, id="to_exact-wrong-arity"),
    pytest.param(to_exact, "9^9^9^9", {}, id="to_exact-power-tower"),
    pytest.param(to_exact, "(10^100000)^100000", {}, id="to_exact-huge-power"),
    pytest.param(to_exact, "exp(exp(exp(100)))", {}, id="to_exact-exponential-tower"),
    pytest.param(to_exact, "log(log(log(10^(10^5))))", {}, id="to_exact-huge-inside-log"),
    pytest.param(to_exact, "1e999999999", {}, id="to_exact-huge-decimal-exponent"),
    pytest.param(to_exact, "2*1e-99999999999999", {}, id="to_exact-tiny-decimal-in-expression"),
    pytest.param(to_exact, "1" * 5000, {}, id="to_exact-5000-digit-integer"),
    pytest.param(require_positive, 0, {}, id="positive-zero"),
    pytest.param(require_positive, "-1/2", {}, id="positive-negative"),
    pytest.param(require_positive, "log(1)", {}, id="positive-log-one-is-zero"),
    pytest.param(require_positive, "log(2) - 1", {}, id="positive-negative-expression"),
    pytest.param(require_positive, float("nan"), {}, id="positive-nan"),
    pytest.param(require_positive, False, {}, id="positive-bool"),
    pytest.param(require_unit_interval, 1, {}, id="unit-one-excluded"),
    pytest.param(require_unit_interval, "-1e-30", {}, id="unit-negative"),
    pytest.param(require_unit_interval, "exp(1)/2", {}, id="unit-above-one"),
    pytest.param(require_unit_interval, R(11, 10), {"closed_right": True}, id="unit-closed-above-one"),
    pytest.param(require_int, 1, {"minimum": 2}, id="int-below-minimum"),
    pytest.param(require_int, 17, {"maximum": 16}, id="int-above-maximum"),
    pytest.param(require_int, 2.5, {}, id="int-float"),
    pytest.param(require_int, "2.5", {}, id="int-decimal-string"),
    pytest.param(require_int, "two", {}, id="int-word"),
    pytest.param(require_int, Fraction(5, 2), {}, id="int-Fraction"),
    pytest.param(require_int, True, {}, id="int-bool"),
    pytest.param(require_int, None, {}, id="int-None"),
]


@contextlib.contextmanager
def time_limit(seconds: int):
    """Fail (instead of hanging) if the block runs longer than ``seconds``: input must never be a DoS."""
    def expire(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("function, raw, options", REJECTED)
def test_rejects_with_named_error(function, raw, options):
    with time_limit(20), pytest.raises(InvalidParameterError) as info:
        function("my_param", raw, **options)
    assert isinstance(info.value, ValueError)
    assert names(str(info.value), "my_param"), str(info.value)
    assert "\n" not in str(info.value), "errors are one line"


def test_injection_strings_are_never_evaluated(tmp_path, monkeypatch):
    # If the parser evaluated Python, this string would create a file; it must be rejected first.
    target = tmp_path / "pwned"
    monkeypatch.chdir(tmp_path)
    for text in [f"open('{target}', 'w')", "open(chr(112), chr(119))", "__import__"]:
        with pytest.raises(InvalidParameterError):
            to_exact("eps", text)
    assert not any(tmp_path.iterdir())


# ---------------------------------------------------------------------------------------------
# exact_sign and cancel_exponentials
# ---------------------------------------------------------------------------------------------

SIGNS = [
    # (expression, sign) -- each sign is elementary: log(3) > 1 since 3 > e; e^pi > pi^e (classic);
    # log(2)^2 + log(2) vs 1: 0.4805 + 0.6931 = 1.17 > 1; 1/3 - 0.3333 (4 digits) > 0; identities are 0.
    (sympy.log(3) - 1, 1),
    (sympy.exp(sympy.pi) - sympy.pi**sympy.E, 1),
    (1 - sympy.log(2) ** 2 - sympy.log(2), -1),
    (R(1, 3) - R(3333, 10000), 1),
    (R(-7, 3), -1),
    (sympy.Integer(0), 0),
    (sympy.log(6) - sympy.log(2) - sympy.log(3), 0),
    (sympy.exp(sympy.log(7) / 2) ** 2 - 7, 0),
    (sympy.sqrt(2) * sympy.sqrt(3) - sympy.sqrt(6), 0),
    # differs from zero only in the 40th digit: a float evaluation would say 0
    (sympy.exp(R(1, 10**40)) - 1, 1),
    (sympy.log(1 + R(1, 10**50)) - R(1, 10**50), -1),
    # log(1 + d) - log(1 / (1 - d)) = log(1 - d^2) < 0, about -1e-50: sympy's own is_zero calls it zero
    (sympy.log(R(10**25 + 1, 10**25)) - sympy.log(R(10**25, 10**25 - 1)), -1),
]


@pytest.mark.parametrize("expr, sign", SIGNS, ids=[str(e) for e, _ in SIGNS])
def test_exact_sign_known_values(expr, sign):
    assert exact_sign(sympy.sympify(expr)) == sign


@given(exact_eps(), exact_eps())
def test_exact_sign_agrees_with_high_precision_evaluation(a, b):
    a, b = sympy.sympify(a), sympy.sympify(b)
    with mpmath.workdps(60):
        reference = mpmath.mpf(sympy.N(a - b, 60))
    if abs(reference) > mpmath.mpf(10) ** -40:  # far from a tie: 60 digits decide the sign
        assert exact_sign(a - b) == (1 if reference > 0 else -1)
    else:  # a tie among these values means a == b
        assert exact_sign(a - b) == 0 and sympy.simplify(a - b) == 0


@given(st.one_of(st.integers(4, 1000), st.integers(10**20, 10**40)), st.integers(-3, 3), st.integers(-3, 3))
def test_exact_sign_of_a_near_tie_of_logarithms(n, i, j):
    # log((n + i) / n) - log(n / (n - j)) has the sign of (n + i)(n - j) - n^2 (log is increasing): a
    # difference as small as 1e-80, which no low-precision evaluation sees
    a, b = Fraction(n + i, n), Fraction(n, n - j)
    expected = (a > b) - (a < b)
    assert exact_sign(sympy.log(R(a)) - sympy.log(R(b))) == expected


def test_exact_sign_of_numbers_far_below_float_range():
    # exp(-10^6) underflows every float format but is positive; its sign comes from the exponent.
    tiny = sympy.exp(-(10**6))
    assert exact_sign(tiny) == 1
    assert exact_sign(-tiny) == -1
    assert issubclass(UndecidedSignError, ArithmeticError)


def E_pow(n, d=1):
    return sympy.exp(R(n, d))


CANCELLATIONS = [
    # (expression, its cancelled form); each identity is checked by hand in the comment.
    # (e^{3/2} + e^2 + e^{5/2}) / (e^{1/2} + e + e^{3/2}) = e * (e^{1/2} + e + e^{3/2}) / (...) = e
    ((E_pow(3, 2) + E_pow(2) + E_pow(5, 2)) / (E_pow(1, 2) + sympy.E + E_pow(3, 2)), sympy.E),
    # (e^2 - 1) / (e - 1) = e + 1
    ((E_pow(2) - 1) / (sympy.E - 1), sympy.E + 1),
    # k-RR ratio: (t / (t + 2)) / (1 / (t + 2)) = t with t = e^{1/3}
    ((E_pow(1, 3) / (E_pow(1, 3) + 2)) / (1 / (E_pow(1, 3) + 2)), E_pow(1, 3)),
    # log inside: log((e^{1/2} + e) / (1 + e^{1/2})) = log(e^{1/2}) = 1/2
    (sympy.log((E_pow(1, 2) + sympy.E) / (1 + E_pow(1, 2))), R(1, 2)),
    # negative exponents: (1 + e^{-1}) / (e + 1) = e^{-1}
    ((1 + E_pow(-1)) / (sympy.E + 1), E_pow(-1)),
    # rational input is just cancelled
    (R(6, 4), R(3, 2)),
]


@pytest.mark.parametrize("expr, expected", CANCELLATIONS, ids=range(len(CANCELLATIONS)))
def test_cancel_exponentials_identities(expr, expected):
    result = cancel_exponentials(expr)
    assert result == expected
    # independent numeric confirmation of the identity itself, 50 digits
    assert abs(sympy.N(expr - expected, 50)) < sympy.Float(10) ** -45


def test_cancel_exponentials_leaves_unrelated_exponents_alone():
    # e^{sqrt 2} and e^{1} have an irrational exponent ratio: nothing to cancel, value unchanged.
    expr = (sympy.exp(sympy.sqrt(2)) + sympy.E) / (sympy.E + 1)
    result = cancel_exponentials(expr)
    assert abs(sympy.N(result - expr, 50)) < sympy.Float(10) ** -45


def test_exact_max_decides_near_ties_and_values_beyond_floats():
    # 1 + 10^-30 beats 1 only exactly (equal as floats); e^1000 + 1 beats e^1000 where both floats are inf.
    from dpcert.mechanisms.exact_arithmetic import exact_max

    assert exact_max([sympy.Integer(1), 1 + R(1, 10**30), R(1, 2)]) == 1 + R(1, 10**30)
    assert exact_max([sympy.exp(1000), sympy.exp(1000) + 1, sympy.Integer(3)]) == sympy.exp(1000) + 1
    assert exact_max([sympy.sqrt(2), R(7, 5)]) == sympy.sqrt(2)
    with pytest.raises(ValueError):
        exact_max([])


def test_float_input_is_read_as_its_shortest_decimal():
    # 0.1 as a float is 3602879701896397/2^55; dpcert reads what the user typed, 1/10.
    assert to_exact("eps", 0.1) == R(1, 10)
    assert to_exact("eps", 1 / 3) == R(Fraction(repr(1 / 3)).numerator, Fraction(repr(1 / 3)).denominator)
    assert math.isclose(float(to_exact("eps", 1e-300)), 1e-300)


def test_exact_max_keeps_a_value_a_plain_evaluation_gets_wrong():
    # e^1000 (1 + e^-1000) - e^1000 is exactly 1; a plain 20-digit evalf returns about 1.6e296 (the
    # cancellation needs 434 more digits), a certified one raises, so the value is compared exactly.
    from dpcert.mechanisms.exact_arithmetic import certified_float, exact_max

    one = sympy.exp(1000) * (1 + sympy.exp(-1000)) - sympy.exp(1000)
    assert abs(float(one.evalf(20))) > 1e200  # the plain evaluation this guards against
    assert certified_float(one) == 1.0
    assert exact_max([one, R(3, 2)]) == R(3, 2)
    assert exact_max([one, R(1, 2)]) == one


def test_sympy_floats_are_read_as_the_decimal_they_print():
    # nsimplify read a sympy Float 1e-32 as its binary value, and inside expressions rounds tiny
    # numbers to 0; the decimal the Float prints as is what the user wrote.
    assert to_exact("eps", sympy.Float("1e-32")) == R(1, 10**32)
    assert to_exact("eps", sympy.Float("1e-300")) == R(1, 10**300)
    assert to_exact("eps", sympy.pi * sympy.Float("1e-40")) == sympy.pi / 10**40
    assert to_exact("eps", sympy.Float("0.1")) == R(1, 10)


def test_certified_float_is_right_where_a_plain_evaluation_is_not():
    # log((1 - e^-eps) / (1 + e^-eps)) at eps = 10^-300 is log(eps / 2) = -691.4687 to 16 digits
    # (Taylor: (1 - e^-eps)/(1 + e^-eps) = tanh(eps/2)); sympy's plain evalf(30) gives -352.8.
    from dpcert.mechanisms.exact_arithmetic import certified_float

    eps = R(1, 10**300)
    a = sympy.exp(-eps)
    value = sympy.log((1 - a) / (1 + a))
    with mpmath.workdps(50):
        truth = mpmath.log(mpmath.mpf(10) ** -300 / 2)
    assert abs(certified_float(value) - float(truth)) <= 2 * math.ulp(float(truth))


@pytest.mark.parametrize("text, fragment", [
    ("+".join(["1/1000"] * 5000), "at most 1000 characters"),   # was a RecursionError from Python's parser
    ("(" * 400 + "1" + ")" * 400, "could not be parsed"),
    ("1" + "0" * 3999, "eps must be in"),                         # a 4000-digit number: one short line
])
def test_long_values_give_one_short_line(text, fragment):
    from dpcert.mechanisms.parameters import require_eps

    with pytest.raises(InvalidParameterError) as error:
        require_eps("eps", text)
    message = str(error.value)
    assert fragment in message and "eps" in message and "\n" not in message and len(message) < 300
