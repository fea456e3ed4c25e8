"""certified_root against deliberately simple truths: exact rational roots and 50-digit mpmath roots.

The predicates are exact (Fraction arithmetic), so "certified" is decided exactly; the true crossing r is
known independently, either exactly (a rational root) or as a 50-digit mpmath root of a strictly monotone
function found by plain bisection. Every result must be certified, on its side of r, and bracket r within
the tolerance asked, whatever the float model says (right, shifted either way, flat, or not a number).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import brentq

from dpcert.mechanisms.mp_contexts import real_context
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certified_root import CertifiedRoot, certified_root

MP = real_context(170)  # 51 digits


def _oracle_root(f, lo: Fraction, hi: Fraction):
    """The root of a strictly increasing f on [lo, hi] to 50 digits, by bisection in exact rationals (f exact)."""
    while hi - lo > Fraction(1, 10**50) * max(1, abs(lo)):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) <= 0 else (lo, mid)
    return MP.mpf(lo.numerator) / lo.denominator


def _problems(result: CertifiedRoot, certify, root, side: str, xtol: float, rtol: float) -> list[str]:
    """What is wrong with ``result`` for a predicate crossing at ``root`` (empty when nothing is)."""
    found = []
    x, y = MP.mpf(result.certified), result.uncertified
    if not certify(result.certified):
        found.append("certified point fails certify")
    if (side == "below" and x > root) or (side == "above" and x < root):
        found.append(f"certified point {result.certified!r} on the wrong side of {MP.nstr(root, 20)}")
    if y is not None:
        if certify(y):
            found.append("uncertified point passes certify")
        if not min(x, y) <= root <= max(x, y):
            found.append("bracket does not enclose the root")
        tolerance = xtol + rtol * abs(result.certified)
        if abs(y - result.certified) > tolerance and math.nextafter(result.certified, y) != y:
            found.append(f"bracket {abs(y - result.certified)!r} wider than the tolerance")
    return found


def _counted(certify):
    calls = []

    def wrapped(x):
        calls.append(x)
        return certify(x)
    return wrapped, calls


# ---------------------------------------------------------------------------------------------
# Monotone cubics with exact coefficients: f(x) = a x^3 + b x - c, a, b > 0
# ---------------------------------------------------------------------------------------------

coefficients = st.fractions(min_value=Fraction(1, 1000), max_value=1000, max_denominator=1000)


def _cubic(a: Fraction, b: Fraction, c: Fraction):
    exact = lambda x: a * x ** 3 + b * x - c  # noqa: E731
    model = lambda x: float(a) * x ** 3 + float(b) * x - float(c)  # noqa: E731
    return exact, model


@given(a=coefficients, b=coefficients, c=st.fractions(min_value=-1000, max_value=1000, max_denominator=1000),
       side=st.sampled_from(["below", "above"]), rtol=st.sampled_from([0.0, 2.0 ** -40, 1e-9, 1e-3]),
       xtol=st.sampled_from([0.0, 1e-12]))
def test_cubic_roots_are_certified_and_bracketed(a, b, c, side, rtol, xtol):
    exact, model = _cubic(a, b, c)
    reach = 1 + math.ceil(min(abs(c) / b, float(abs(c) / a) ** (1 / 3)))  # |root| < reach: both terms share x's sign
    lo, hi = -float(reach), float(reach)
    root = _oracle_root(exact, Fraction(lo), Fraction(hi))
    if side == "below":  # largest x with f(x) <= 0
        certify, guide = (lambda x: exact(Fraction(x)) <= 0), model
    else:  # smallest x with f(x) >= 0: model < 0 where certify holds, so -f
        certify, guide = (lambda x: exact(Fraction(x)) >= 0), (lambda x: -model(x))
    counted, calls = _counted(certify)
    result = certified_root(guide, counted, lo, hi, side=side, xtol=xtol, rtol=rtol)
    assert _problems(result, certify, root, side, xtol, rtol) == []
    assert len(calls) == len(set(calls))  # certify is asked at most once per point


@given(q=st.fractions(min_value=Fraction(1, 10**6), max_value=10**6, max_denominator=10**6))
def test_exact_rational_root_is_returned_or_bracketed(q):
    """f(x) = x - q: the crossing is the rational q itself; for "above" certify holds at q (x >= q)."""
    result = certified_root(lambda x: float(Fraction(x) - q), lambda x: Fraction(x) <= q, 0.0, 2e6, side="below",
                            rtol=0.0)
    assert Fraction(result.certified) <= q < Fraction(result.uncertified)
    assert math.nextafter(result.certified, math.inf) == result.uncertified  # adjacent floats around q
    above = certified_root(lambda x: float(q - Fraction(x)), lambda x: Fraction(x) >= q, 0.0, 2e6, side="above",
                           rtol=0.0)
    assert Fraction(above.uncertified) < q <= above.exact
    assert math.nextafter(above.uncertified, math.inf) == above.certified


@given(t=st.fractions(min_value=Fraction(1, 100), max_value=10**4, max_denominator=100), n=st.integers(2, 7))
def test_nth_roots_against_50_digits(t, n):
    """x^n = t on [0, t + 1]: irrational roots, checked against the 50-digit oracle."""
    exact = lambda x: x ** n - t  # noqa: E731
    root = _oracle_root(exact, Fraction(0), t + 1)
    certify = lambda x: Fraction(x) ** n <= t  # noqa: E731
    result = certified_root(lambda x: x ** n - float(t), certify, 0.0, float(t + 1), side="below", rtol=1e-12)
    assert _problems(result, certify, root, "below", 0.0, 1e-12) == []


# ---------------------------------------------------------------------------------------------
# A wrong model: the answer is still certified, on the safe side and tight
# ---------------------------------------------------------------------------------------------

@given(shift=st.one_of(st.floats(-5, 5), st.sampled_from([1e-15, -1e-15, 1e-9, -1e-9, 1e-3, -1e-3])),
       side=st.sampled_from(["below", "above"]))
def test_a_shifted_model_still_gives_a_certified_tight_point(shift, side):
    """The model's root is sqrt(2) + shift, possibly far on the unsafe side; certify is exact."""
    root = MP.sqrt(2)
    if side == "below":
        holds = lambda x: x < 0 or Fraction(x) ** 2 <= 2  # noqa: E731
    else:
        holds = lambda x: x > 0 and Fraction(x) ** 2 >= 2  # noqa: E731
    sign = 1.0 if side == "below" else -1.0
    result = certified_root(lambda x: sign * (x - math.sqrt(2) - shift), holds, -10.0, 10.0, side=side, rtol=1e-10)
    assert _problems(result, holds, root, side, 0.0, 1e-10) == []


@pytest.mark.parametrize("model", [lambda x: 1.0, lambda x: -1.0, lambda x: math.nan, lambda x: 2 - x * x,
                                   lambda x: math.nan if 0.5 < x < 1.9 else x - 1.2],
                         ids=["positive", "negative", "nan", "reversed", "nan-inside"])
def test_a_model_without_a_usable_sign_change_falls_back_to_bisection(model):
    holds = lambda x: x < 0 or Fraction(x) ** 2 <= 2  # noqa: E731
    result = certified_root(model, holds, 0.0, 2.0, side="below", rtol=1e-12)
    assert result.guess is None or model(0.0) < 0  # "negative": the model puts the crossing at an end
    assert _problems(result, holds, MP.sqrt(2), "below", 0.0, 1e-12) == []


def test_one_step_walks_still_end_certified():
    """max_steps = 1: the walk from a far-off model root stops at once and bisection takes over."""
    holds = lambda x: Fraction(x) ** 3 <= 5  # noqa: E731
    result = certified_root(lambda x: x - 0.1, holds, 0.0, 3.0, side="below", max_steps=1, rtol=1e-12)
    assert _problems(result, holds, MP.cbrt(5), "below", 0.0, 1e-12) == []


def test_an_accurate_model_costs_few_certifications():
    holds = lambda x: Fraction(x) ** 2 >= 3  # noqa: E731
    counted, calls = _counted(holds)
    result = certified_root(lambda x: 3 - x * x, counted, 0.0, 4.0, side="above")
    assert _problems(result, holds, MP.sqrt(3), "above", 0.0, 2.0 ** -40) == []
    assert len(calls) <= 4


def test_certify_holding_everywhere_returns_the_far_end():
    below = certified_root(lambda x: x - 5, lambda x: True, 0.0, 1.0, side="below")
    assert below == CertifiedRoot(1.0, None, None)
    above = certified_root(lambda x: -1.0, lambda x: True, 0.0, 1.0, side="above")
    assert above.certified == 0.0 and above.uncertified is None


def test_a_root_at_the_safe_end():
    """certify holds only at lo itself: lo is returned with the next point above it."""
    result = certified_root(lambda x: x, lambda x: x <= 0.0, 0.0, 1.0, side="below", rtol=0.0, xtol=1e-6)
    assert result.certified == 0.0 and 0.0 < result.uncertified <= 1e-6


# ---------------------------------------------------------------------------------------------
# Power: variants that skip the certification are caught by the same assertions
# ---------------------------------------------------------------------------------------------

def _trusting_the_model(model, certify, lo, hi, *, side, xtol=0.0, rtol=2.0 ** -40):
    """The pattern certified_root replaces, with its outward step left out: brentq's root as the answer."""
    sign = -1.0 if side == "below" else 1.0
    guess = brentq(model, lo, hi, xtol=max(xtol, 1e-300), rtol=max(rtol, 1e-15))
    return CertifiedRoot(guess, math.nextafter(guess, sign * -math.inf), guess)


def _stepping_the_wrong_way(model, certify, lo, hi, *, side, xtol=0.0, rtol=2.0 ** -40):
    """A walk outward in the wrong direction: the first point past the model's root, certified or not."""
    other = "above" if side == "below" else "below"
    return certified_root(lambda x: -model(x), lambda x: not certify(x), lo, hi, side=other, xtol=xtol, rtol=rtol)


@pytest.mark.parametrize("broken", [_trusting_the_model, _stepping_the_wrong_way])
def test_the_checks_catch_a_search_that_skips_the_outward_step(broken):
    holds = lambda x: x < 0 or Fraction(x) ** 2 <= 2  # noqa: E731
    model = lambda x: x - math.sqrt(2) - 1e-9  # noqa: E731  model root on the unsafe side
    arguments = (model, holds, 0.0, 2.0)
    assert _problems(certified_root(*arguments, side="below", rtol=1e-12), holds, MP.sqrt(2), "below", 0.0, 1e-12) == []
    assert _problems(broken(*arguments, side="below", rtol=1e-12), holds, MP.sqrt(2), "below", 0.0, 1e-12) != []


# ---------------------------------------------------------------------------------------------
# Bad input: one error type naming the parameter
# ---------------------------------------------------------------------------------------------

def _call(**changes):
    arguments = dict(model=lambda x: x - 1, certify=lambda x: x <= 1, lo=0.0, hi=2.0, side="below")
    arguments.update(changes)
    return certified_root(arguments.pop("model"), arguments.pop("certify"), arguments.pop("lo"), arguments.pop("hi"),
                          **arguments)


@pytest.mark.parametrize(("changes", "name"), [
    ({"lo": math.nan}, "lo"), ({"lo": -math.inf}, "lo"), ({"hi": math.inf}, "hi"), ({"hi": "2"}, "hi"),
    ({"lo": True}, "lo"), ({"lo": 10**400}, "lo"), ({"lo": 2.0}, "lo"), ({"lo": 3.0}, "lo"),
    ({"side": "left"}, "side"), ({"xtol": -1e-9}, "xtol"), ({"rtol": math.nan}, "rtol"), ({"rtol": -0.5}, "rtol"),
    ({"max_steps": 0}, "max_steps"), ({"max_steps": 2.5}, "max_steps"), ({"max_steps": True}, "max_steps"),
    ({"certify": lambda x: False}, "lo"), ({"certify": lambda x: False, "side": "above"}, "hi"),
])
def test_bad_input_names_the_parameter(changes, name):
    with pytest.raises(InvalidParameterError, match=rf"^{name} must"):
        _call(**changes)


def test_accepted_input_kinds():
    assert _call(lo=0, hi=Fraction(2)).certified == _call().certified
    assert _call().exact == Fraction(_call().certified)
