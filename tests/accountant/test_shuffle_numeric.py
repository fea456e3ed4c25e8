"""The rigorous clone bounds (FMT 2021 / 2023 numerical): enclosures against a 40-digit brute force.

The reference sums every (c, a) of the clone pair directly with mpmath at 40 significant digits:
Pr[C = c] * max(P_c(a) - e^eps Q_c(a), 0), P_c = alpha (Bin(c, 1/2) + 1) + (1 - alpha) Bin(c, 1/2),
Q_c = alpha Bin(c, 1/2) + (1 - alpha)(Bin(c, 1/2) + 1), alpha = e^eps0 / (e^eps0 + 1) (FMT 2021,
Theorem 3.2). Its error is far below the enclosures' widths (~1e-12 relative).
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.accountant.shuffle import clone_delta, clone_epsilon, fmt21_closed, fmt21_numeric, fmt23_closed, fmt23_numeric
from dpcert.accountant.shuffle_numeric import _tail_sum

R = sympy.Rational


def mp(x):
    """An exact rational (int, Fraction, sympy Rational) as an mpmath number."""
    x = sympy.Rational(x)
    return mpmath.mpf(x.p) / x.q


def brute_clone_delta(eps, eps0, n, variant):
    with mpmath.workdps(40):
        s, t = mpmath.e ** mp(eps0), mpmath.e ** mp(eps)
        p = 1 / s if variant == "fmt21" else 2 / (s + 1)
        alpha = s / (s + 1)
        total = mpmath.mpf(0)
        for c in range(n):
            weight = mpmath.binomial(n - 1, c) * p ** c * (1 - p) ** (n - 1 - c)
            B = [mpmath.mpf(int(sympy.binomial(c, a))) / 2 ** c for a in range(c + 1)]

            def b(a):
                return B[a] if 0 <= a <= c else 0

            h = sum(max(alpha * b(a - 1) + (1 - alpha) * b(a) - t * (alpha * b(a) + (1 - alpha) * b(a - 1)), 0)
                    for a in range(c + 2))
            total += weight * h
        return total


@settings(max_examples=10)
@given(n=st.integers(2, 60), eps0=st.fractions(R(1, 10), 4, max_denominator=20),
       eps_share=st.fractions(0, 1, max_denominator=20), variant=st.sampled_from(["fmt21", "fmt23"]))
def test_enclosure_contains_the_brute_force_divergence(n, eps0, eps_share, variant):
    eps = eps0 * eps_share
    enclosure = clone_delta(eps, eps0, n, variant=variant)
    exact = brute_clone_delta(eps, eps0, n, variant)
    slack = 1e-30  # the 40-digit reference is exact to ~1e-40; at eps = eps0 the exact value is 0
    assert enclosure.lower - slack <= exact <= enclosure.upper + slack
    assert enclosure.upper - enclosure.lower <= 1e-10 * float(exact) + 1e-15  # 1e-15: e^eps0 vs e^eps rounding


@pytest.mark.parametrize("eps0, n, delta", [(1, 60, R(1, 100)), (R(1, 2), 150, R(1, 1000)), (2, 80, R(1, 20))])
def test_certified_epsilon_brackets_the_crossing(eps0, n, delta):
    """D(lower) >= delta >= D(upper) for the brute-force divergence: the numerical eps lies in between."""
    lower, upper, _ = clone_epsilon(eps0, n, delta)
    assert brute_clone_delta(upper, eps0, n, "fmt21") <= delta
    assert brute_clone_delta(lower, eps0, n, "fmt21") >= delta
    assert 0 < upper - lower < 1e-8


def test_window_and_tail_mass_at_large_n():
    """At n = 10^6 only a central window of C is swept; the mass outside is bounded and tiny."""
    enclosure = clone_delta(R(1, 200), 1, 10**6)
    low, high = enclosure.window
    assert 0 < low < high < 10**6 - 1
    assert enclosure.outside_mass < 1e-25
    assert enclosure.lower <= enclosure.upper <= enclosure.lower * (1 + 1e-8) + enclosure.outside_mass


def test_reference_value_n_1e6():
    """FMT 2021's numerical bound at eps0 = 1, n = 10^6, delta = 10^-6 is about 0.00434 (the issue's figure)."""
    result = fmt21_numeric(1, 10**6, R(1, 10**6))
    lo, hi = result.enclosure
    assert 0.004334 < lo <= hi == result.upper < 0.004335
    assert hi - lo < 1e-5


def test_tail_sum_enclosure():
    """T_c(m) = Pr[Bin(c, 1/2) >= m] from B_c(m - 1), against exact rationals."""
    for c, m in [(10, 6), (41, 30), (200, 101), (7, 8)]:
        B = R(sympy.binomial(c, m - 1), 2 ** c)
        lo, hi = _tail_sum(c, m, float(B) * (1 - 1e-15), float(B) * (1 + 1e-15))
        exact = sum(R(sympy.binomial(c, a), 2 ** c) for a in range(m, c + 1))
        assert lo <= exact <= hi


@pytest.mark.parametrize("eps0, n", [(1, 10**4), (3, 10**5), (R(1, 2), 10**5), (5, 10**6)])
def test_numerical_at_most_closed_form(eps0, n):
    """Where Theorem 3.1 (and the FMT 2023 closed form) apply, the numerical bound is not larger."""
    delta = R(1, 10**6)
    closed21, numeric21 = fmt21_closed(eps0, n, delta), fmt21_numeric(eps0, n, delta)
    if closed21.valid:
        assert numeric21.upper <= closed21.upper
    closed23, numeric23 = fmt23_closed(eps0, n, delta, k=2), fmt23_numeric(eps0, n, delta, k=2)
    if closed23.valid:
        assert numeric23.upper <= closed23.upper
    assert numeric23.upper <= numeric21.upper  # more clones: a stronger bound


def test_stronger_clones_need_randomized_response_or_opt_in():
    assert not fmt23_numeric(1, 1000, R(1, 10**6)).valid
    assert fmt23_numeric(1, 1000, R(1, 10**6), k=3).valid
    opted = fmt23_numeric(1, 1000, R(1, 10**6), assume_stronger_clones=True)
    assert opted.valid and "assume_stronger_clones=True" in opted.note


def test_stronger_clone_condition_holds_for_randomized_response_only():
    """The decomposition behind FMT 2023 (p = 1/(e^eps0 + 1)) exists for k-RR but not for every randomizer."""
    from dpcert.accountant.shuffle_numeric import stronger_clones_condition
    from dpcert.mechanisms import KaryRandomizedResponse

    for k in (2, 3, 5):
        for eps0 in (R(1, 3), sympy.log(4), 2):
            m = KaryRandomizedResponse(k, eps0)
            rows = [[m.pmf(x)[y] for y in range(k)] for x in range(k)]
            assert stronger_clones_condition(rows, eps0)
    # a log(2)-LDP randomizer whose rows x0, x1 agree on a heavy output that x2 gives half that mass:
    # (s + 1) min = 3 * 1/4 < 1/2 + 1/2, so the decomposition (and the stronger clones) fail
    ldp_rows = [[R(1, 2), R(1, 4), R(1, 4)], [R(1, 2), R(1, 4), R(1, 4)], [R(1, 4), R(3, 8), R(3, 8)]]
    assert not stronger_clones_condition(ldp_rows, sympy.log(2))
    assert stronger_clones_condition(ldp_rows, sympy.log(8))  # with a larger eps0 the condition is met


@pytest.mark.parametrize("eps0", [400, 700, R(1, 10**10), R(1, 10**12)])
def test_extreme_eps0_is_computed(eps0):
    """Issue 9: eps0 >= 355 gave NaN (e^(2 eps0) overflowed) and eps0 = 1e-10 raised 'the enclosure of kappa
    is too wide'. Now the rows are valid with eps <= eps0: at eps0 = 400 with n = 1000 almost no user is a
    clone (p = e^-400), so eps is eps0 + ln(1 - delta) to within 10^-6; at eps0 <= 1e-10 the total
    variation tanh(eps0/2) is already below delta, so eps = 0."""
    for compute in (fmt21_numeric, lambda e, n, d: fmt23_numeric(e, n, d, k=2)):
        result = compute(eps0, 1000, R(1, 10**6))
        assert result.valid and result.upper <= float(eps0)
        if eps0 >= 400:
            assert abs(result.upper - (float(eps0) + math.log1p(-1e-6))) < 1e-6
        else:
            assert result.upper == 0.0
