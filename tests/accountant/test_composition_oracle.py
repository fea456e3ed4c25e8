"""Every composition method against independent truths (tests/oracles/composition.py), over the answerable range.

The truths are KOV's optimal composition as a 50-digit finite sum with bisection, the brute-force
hockey-stick of the k-fold product of KOV's worst (eps, delta0)-DP mechanism (all outputs enumerated
in Fractions), basic composition k eps, and Dwork-Rothblum-Vadhan's formula at 50 digits. A method
that claims an upper bound must never be below the truth; the optimal (tight) method's enclosure must
contain it; the exact PLD composition must equal the brute force exactly.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.accountant.composition import (
    EPS_MAX,
    EPS_MIN,
    OPTIMAL_K_MAX,
    compose_channels,
    composition_family,
    optimal_composition,
    optimal_composition_delta,
)
from oracles import composition as oracle

SLACK = mpmath.mpf(10) ** -40
"""The oracles are accurate to 45 digits; a float bound is wrong by at least 1e-16 relative."""


def _sympy(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def _mpf(x: float) -> mpmath.mpf:
    return mpmath.mpf(x)


def _at_least(bound: float, truth: mpmath.mpf) -> bool:
    """``bound`` is not below ``truth`` beyond the oracle's own accuracy."""
    return _mpf(bound) >= truth * (1 - SLACK)


@st.composite
def eps_values(draw) -> Fraction:
    """eps = m 10^e over the whole answerable range [10^-300, 10^6], its ends included."""
    end = draw(st.sampled_from([None, None, None, EPS_MIN, EPS_MAX]))
    if end is not None:
        return Fraction(int(end.p), int(end.q))
    exponent = draw(st.integers(-300, 5))
    return Fraction(draw(st.integers(1, 9))) * Fraction(10) ** exponent


@st.composite
def deltas(draw) -> Fraction:
    kind = draw(st.sampled_from(["zero", "small", "small", "moderate", "near-one"]))
    if kind == "zero":
        return Fraction(0)
    if kind == "small":
        return Fraction(draw(st.integers(1, 9)), 10 ** draw(st.integers(1, 300)))
    if kind == "moderate":
        return Fraction(draw(st.integers(1, 99)), 100)
    return 1 - Fraction(1, 10 ** draw(st.integers(1, 30)))


delta0s = st.one_of(st.just(Fraction(0)), st.builds(lambda j: Fraction(1, 10**j), st.integers(2, 14)))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(eps=eps_values(), k=st.integers(1, 40), delta=deltas(), delta0=delta0s)
def test_every_method_is_at_least_the_optimal_truth(eps, k, delta, delta0):
    truth = oracle.kov_epsilon(eps, k, delta, delta0)
    basic, advanced, optimal = composition_family(_sympy(eps), k, _sympy(delta), delta0=_sympy(delta0))
    if truth is None:  # delta < 1 - (1 - delta0)^k <= k delta0: nothing applies
        assert not (basic.valid or advanced.valid or optimal.valid)
        return
    # optimal (tight): the enclosure contains the truth and is narrow
    assert optimal.valid and optimal.bounds == "exact"
    assert _at_least(optimal.upper, truth) and _mpf(optimal.lower) <= truth * (1 + SLACK), (optimal, truth)
    assert _mpf(optimal.upper) - _mpf(optimal.lower) <= truth * mpmath.mpf(2) ** -40 + mpmath.mpf(10) ** -320
    # basic: exactly k eps, valid when delta >= k delta0
    k_eps, k_delta0 = oracle.basic(eps, k, delta0)
    assert basic.valid == (delta >= k_delta0)
    if basic.valid:
        assert Fraction(basic.upper) >= k_eps and _at_least(basic.upper, truth)
    # advanced: Dwork-Rothblum-Vadhan with delta' = delta - k delta0 > 0
    assert advanced.valid == (delta > k_delta0)
    if advanced.valid:
        drv = oracle.advanced(eps, k, delta - k_delta0)
        assert _at_least(advanced.upper, drv) and _at_least(advanced.upper, truth)
        assert math.isinf(advanced.upper) or _mpf(advanced.upper) <= drv * (1 + mpmath.mpf(2) ** -50)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(t=st.fractions(Fraction(10, 9), 20, max_denominator=9), k=st.integers(1, 5),
       delta=st.fractions(Fraction(0), Fraction(99, 100), max_denominator=1000),
       delta0=st.sampled_from([Fraction(0), Fraction(0), Fraction(1, 100), Fraction(1, 7)]))
def test_optimal_and_exact_composition_equal_the_brute_force_product(t, k, delta, delta0):
    p, q = oracle.kov_mechanism(t, delta0)
    truth = oracle.product_epsilon(p, q, k, delta)  # e^eps', exact
    eps = sympy.log(_sympy(t))
    optimal = optimal_composition(eps, k, _sympy(delta), delta0=_sympy(delta0))
    exact = compose_channels([[p, q]] * k, delta=_sympy(delta))
    if truth is None:
        assert not optimal.valid and exact.value == sympy.oo
        return
    with mpmath.workdps(50):
        log_truth = mpmath.log(mpmath.mpf(truth.numerator) / truth.denominator)
        assert optimal.valid and _at_least(optimal.upper, log_truth)
        assert _mpf(optimal.lower) <= log_truth * (1 + SLACK)
        assert abs(mpmath.mpf(sympy.N(optimal.value, 50)) - log_truth) <= SLACK * max(1, log_truth)
    assert exact.value == sympy.log(_sympy(truth))  # exact arithmetic on both sides: the same rational
    # and the delta direction, at the rational level s = e^eps' (KOV's formula vs the enumeration)
    s = truth + 1
    assert optimal_composition_delta(eps, k, sympy.log(_sympy(s)), delta0=_sympy(delta0)) == \
        _sympy(oracle.product_delta(p, q, k, s))


@pytest.mark.parametrize("eps, k", [(Fraction(1, 100), 10**4), (Fraction(3), 2 * 10**4), (Fraction(1, 10**9), 10**4)])
def test_large_k_enclosure_brackets_the_oracle(eps, k):
    """At large k the enclosure [lower, upper] satisfies delta(upper) <= target <= delta(lower) (KOV's sum)."""
    delta = Fraction(1, 10**6)
    result = optimal_composition(_sympy(eps), k, _sympy(delta))
    target = mpmath.mpf(delta.numerator) / delta.denominator
    assert oracle.kov_delta(eps, k, result.upper) <= target
    if result.lower > 0:
        assert oracle.kov_delta(eps, k, result.lower) >= target


@pytest.mark.parametrize("eps, k, delta", [
    ("1e-300", OPTIMAL_K_MAX, "1e-300"), ("1e6", OPTIMAL_K_MAX, "1/2"), ("1", OPTIMAL_K_MAX, "1e-6"),
    ("exp(-690)", 7, "1e-4000"), ("1e6", "10^4000", "1e-6"), ("1e-300", "10^4000", "1/2"),
    ("1/10", "10^4000 - 1", "1e-6"),  # sympy's sqrt factored 2k ln(1/delta') for 47 s
])
def test_the_ends_of_the_range_answer_in_seconds(eps, k, delta):
    """Every corner of the answerable range answers, with a finite lower and an upper >= it, in seconds."""
    start = time.perf_counter()
    results = composition_family(eps, k, delta)
    [r.as_json() for r in results] and [r.display() for r in results]
    assert time.perf_counter() - start < 30
    for r in results:
        if r.valid:
            assert r.enclosure[0] <= r.enclosure[1]


def test_power_an_understated_composition_is_caught():
    # power check: basic composition with k - 1 for k (an off-by-one) is below the truth: two eps = 1
    # mechanisms at delta = 10^-12 need nearly 2 (the optimal delta at eps' = 1 is about 0.23)
    truth = oracle.kov_epsilon(Fraction(1), 2, Fraction(1, 10**12), Fraction(0))
    assert not _at_least(1.0, truth)
    basic, _, optimal = composition_family(sympy.Integer(1), 2, sympy.Rational(1, 10**12))
    assert _at_least(basic.upper, truth) and _at_least(optimal.upper, truth)
