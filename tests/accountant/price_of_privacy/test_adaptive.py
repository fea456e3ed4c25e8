"""Adaptive eps-LDP queries, Theorem 17 of 000_0c6e7fdc3fd68303.txt (dpcert.accountant.price_of_privacy.adaptive).

Every property is checked by exact enumeration (Fractions, exact logs compared with ``exact_sign``)
at small N <= 6, w <= 3, and every closed form against an independent computation (binomial sums
with ``math.comb``, the literal Theorem 17 recursion) or against the spec's reference table
(``/work/shared/specs/banerjee_price_of_privacy.md``, "spec §4 table"), with the tolerance implied
by the printed digits.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from conftest import assert_rejects, bound_less, within_printed
from hypothesis import given
from hypothesis import strategies as st

from dpcert.accountant.exact_intervals import certified_sign
from dpcert.accountant.price_of_privacy.adaptive import adaptive_min_queries, theorem_17_adaptive_bound

sign = certified_sign  # exact sign, decided on a rigorous enclosure when it excludes 0


def literal_recursion(T: int, N: int, t: Fraction) -> Fraction:
    """delta <- delta + (40 (t - 1)^2 / N) max(1, delta), T times from 0 (e^eps = t rational)."""
    c = 40 * (t - 1) ** 2 / N
    delta = Fraction(0)
    for _ in range(T):
        delta += c * max(Fraction(1), delta)
    return delta


def test_theorem_17_spec_example():
    """Spec §3 Thm 17 [VERIFIED]: N = 1000, eps = 0.5: T = 10 gives 0.168, T = 100 gives 1.97."""
    ten = theorem_17_adaptive_bound(10, 1000, "0.5")
    hundred = theorem_17_adaptive_bound(100, 1000, "0.5")
    assert within_printed(ten.lower_value, ten.upper_value, "0.168")
    assert within_printed(hundred.lower_value, hundred.upper_value, "1.97")
    assert ten.units == "nats"


@given(T=st.integers(0, 400), N=st.integers(2, 2000), t=st.fractions(Fraction(11, 10), Fraction(3), max_denominator=10))
def test_theorem_17_closed_form_matches_the_recursion(T, N, t):
    """The closed form t1 c (1+c)^(T-t1) encloses the literal recursion (exact Fractions, e^eps = t).

    It stays a test: the closed form and its growth in T (spec §7 claim 16) are properties of this package's
    evaluation of the recursion, not statements of the paper.
    """
    eps = sympy.log(sympy.Rational(t))
    result = theorem_17_adaptive_bound(T, N, eps)
    exact = sympy.Rational(literal_recursion(T, N, t))
    assert result.lower_value <= exact <= result.upper_value
    if T >= 1:
        assert bound_less(theorem_17_adaptive_bound(T - 1, N, eps), result)  # increasing in T


@given(N=st.integers(2, 500), t=st.fractions(Fraction(11, 10), Fraction(3), max_denominator=10),
       bits=st.fractions(Fraction(1, 10), Fraction(20), max_denominator=10))
def test_adaptive_min_queries_is_the_first_t_reaching_the_target(N, t, bits):
    eps = sympy.log(sympy.Rational(t))
    T = int(adaptive_min_queries(N, eps, bits).value)
    target = sympy.Rational(bits) * sympy.log(2)
    assert sign(sympy.Rational(literal_recursion(T, N, t)) - target) >= 0
    if T > 0:
        assert sign(sympy.Rational(literal_recursion(T - 1, N, t)) - target) < 0


def test_adaptive_at_the_smallest_eps_is_tight():
    """eps = 10^-300 gave an infinite interval (e^eps - 1 vanished at 256 bits): against mpmath at 700 digits."""
    import mpmath

    with mpmath.workdps(700):
        c = 40 * mpmath.expm1(mpmath.mpf(10) ** -100) ** 2 / 2  # e^eps - 1 is 0 at 256 bits below eps ~ 1e-77
        low, high = theorem_17_adaptive_bound(10, 2, "1e-100").enclosure
        assert low <= 10 * c <= high <= 10 * c * (1 + 1e-15)
        c = 40 * mpmath.expm1(mpmath.mpf(10) ** -300) ** 2 / 10**12
        T = int(adaptive_min_queries(10**12, "1e-300", 1).value)  # about 1.7e609 queries
        exact = int(mpmath.ceil(mpmath.log(2) / c))  # the smallest T with T c >= ln 2 (linear regime)
        assert exact * (1 - mpmath.mpf(10) ** -60) <= T <= exact  # never above: "at least T" stays true


def test_adaptive_min_queries_at_n_1e12_grows_like_n_log_n():
    N = 10**12
    result = adaptive_min_queries(N, "1/2", N // 2 - 1)
    T = int(result.value)
    assert result.units == "queries"
    bound = theorem_17_adaptive_bound(T, N, "1/2")
    assert sign(bound.upper_value - sympy.Rational(N // 2 - 1) * sympy.log(2)) >= 0
    assert sign(theorem_17_adaptive_bound(T - 1, N, "1/2").upper_value - sympy.Rational(N // 2 - 1) * sympy.log(2)) < 0
    assert T > N  # Omega(N log N): far more than N queries at this eps


INVALID = [
    (lambda: theorem_17_adaptive_bound(-1, 10, 1), "T"),
    (lambda: theorem_17_adaptive_bound(1, 1, 1), "N"),
    (lambda: theorem_17_adaptive_bound(1, 10, 0), "eps"),
    (lambda: adaptive_min_queries(10, 1, 0), "bits"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)
