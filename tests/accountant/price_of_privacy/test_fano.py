"""Tests for dpcert.accountant.price_of_privacy.fano: Fano-type user thresholds of 000_0c6e7fdc3fd68303.txt.

Thresholds are checked against Fano's inequality itself (the threshold is exactly where Fano's
average-error bound crosses p_max), the paper's printed constants against the spec's errata (§9 E2,
E4), and values against spec §4 with the tolerance implied by the printed digits.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from conftest import assert_rejects
import sympy
from hypothesis import assume, given
from hypothesis import strategies as st

import dpcert.accountant.price_of_privacy.fano as fano_module
from dpcert.accountant.channel_information import LOG2E
from dpcert.accountant.exact_intervals import certified_sign
from dpcert.accountant.price_of_privacy.fano import (
    appendix_a_chernoff_check,
    fano_distortion_lower_bound,
    fano_error_lower_bound,
    ldp_fano_distortion,
    theorem_7_paper_witness,
    theorem_7_user_threshold,
    theorem_10_user_threshold,
    theorem_23_user_threshold,
    users_unreliable,
)
from dpcert.accountant.price_of_privacy.per_user_bounds import theorem_10_bound

HALF = sympy.Rational(1, 2)


sign = certified_sign  # exact sign, decided on a rigorous enclosure when it excludes 0


def below(threshold) -> int:
    """The largest integer strictly below a positive exact threshold (certified)."""
    users = int(sympy.ceiling(threshold)) - 1
    assert sign(threshold - users) > 0 and sign(threshold - users - 1) <= 0
    return users


eps_values = st.fractions(Fraction(1, 20), Fraction(5), max_denominator=20)
p_values = st.fractions(Fraction(1, 20), Fraction(19, 20), max_denominator=20)


# ---------------------------------------------------------------------------------------------
# Lemma 5, Lemma 20, Corollaries 21-22
# ---------------------------------------------------------------------------------------------

def test_fano_error_lower_bound_values():
    """Lemma 5: max(0, 1 - (I + 1)/log2 M), exact; M or log2 M."""
    assert fano_error_lower_bound(1, M=8) == sympy.Rational(1, 3)
    assert fano_error_lower_bound(10, log2_M=100) == sympy.Rational(89, 100)
    assert fano_error_lower_bound(7, M=8) == 0  # clipped
    assert fano_error_lower_bound(0, M=2) == 0
    assert sign(fano_error_lower_bound(0, M=3) - (1 - 1 / sympy.log(3, 2))) == 0


def test_fano_distortion_and_corollary_22():
    """Lemma 20 and Cor 22: Cor 22 as printed is weaker than Lemma 20 with U eps log2 e bits (spec §3)."""
    assert fano_distortion_lower_bound(1, M=64, M_d=4) == sympy.Rational(1, 2)  # 1 - 2/(6 - 2)
    assert fano_distortion_lower_bound(1, log2_M=6, log2_M_d=2) == sympy.Rational(1, 2)
    for users in (0, 1, 3, 10):
        printed = ldp_fano_distortion(users, HALF, log2_M=40, log2_M_d=4)
        direct = fano_distortion_lower_bound(users * HALF * LOG2E, log2_M=40, log2_M_d=4)
        assert sign(direct - printed) >= 0
    assert ldp_fano_distortion(10**6, 1, log2_M=40, log2_M_d=4) == 0


def test_users_unreliable_is_where_fano_crosses_p_max():
    """Cor 21: below ((1-p) log2 M - 1)/(I log2 e) users, U I log2 e bits leave Fano's bound > p."""
    info = sympy.Rational(3, 1000)
    threshold = users_unreliable(info, 1000, p_max=HALF)
    assert threshold == (500 - 1) * sympy.log(2) / info
    users = below(threshold)
    assert sign(fano_error_lower_bound(users * info * LOG2E, log2_M=1000) - HALF) > 0
    assert sign(fano_error_lower_bound((users + 1) * info * LOG2E, log2_M=1000) - HALF) <= 0
    assert users_unreliable(1, 2, p_max=HALF) == 0  # (1 - 1/2) * 2 - 1 = 0: Fano proves nothing


# ---------------------------------------------------------------------------------------------
# Theorem 7 (corrected) and the printed constant (spec §9 E2)
# ---------------------------------------------------------------------------------------------

@given(N=st.integers(4, 10**12), eps=eps_values, p=p_values)
def test_theorem_7_corrected_threshold_is_exactly_fano(N, eps, p):
    """Below T = ((1-p)N - 1)/(eps log2 e), Fano with I <= U eps log2 e bits gives error > p; at ceil(T) it does not."""
    result = theorem_7_user_threshold(N, eps, p_max=p)
    assert result.name == "theorem7" and result.valid and result.units == "users"
    T = result.value
    assume(sign(T - 1) > 0)
    users = below(T)
    assert sign(fano_error_lower_bound(users * eps * LOG2E, log2_M=N) - p) > 0
    assert sign(fano_error_lower_bound((users + 1) * eps * LOG2E, log2_M=N) - p) <= 0


@given(N=st.integers(4, 10**12), eps=st.fractions(Fraction(1, 20), Fraction(5), max_denominator=20))
def test_theorem_7_printed_constant_is_not_proved_by_fano(N, eps):
    """Spec §9 E2: just below N/(eps log2 e), Fano's bound is <= 1/2 whenever eps log2 e <= N/2 + 1 (the
    witness's stated regime; N = 4, eps = 25/9 is outside it: 0 users, bound 3/4); at the threshold it is -1/N."""
    assume(sign(sympy.Rational(N, 2) + 1 - eps * LOG2E) >= 0)
    paper = theorem_7_user_threshold(N, eps, form="paper")
    assert paper.name == "theorem7-paper" and not paper.valid and "vacuous" in paper.note
    witness = theorem_7_paper_witness(N, eps)
    assert witness.threshold == paper.value
    assert witness.refutes and witness.recheck()
    assert sign(witness.fano_bound - HALF) <= 0
    raw = 1 - (paper.value * eps * LOG2E + 1) / N  # unclipped Fano at U = threshold
    assert sympy.simplify(raw + sympy.Rational(1, N)) == 0
    corrected = theorem_7_user_threshold(N, eps)
    assert sign(paper.value - corrected.value) > 0


def test_theorem_7_witness_does_not_refute_the_corrected_constant():
    """Power check: the same construction at the corrected threshold leaves Fano's bound above 1/2."""
    N, eps = 1000, HALF
    T = theorem_7_user_threshold(N, eps).value
    users = below(T)
    assert sign(fano_error_lower_bound(users * eps * LOG2E, log2_M=N) - HALF) > 0


def test_theorem_7_spec_value():
    """Spec §4 table, U_unrel(Lemma 6) at N = 1e4, eps = 0.5: 6930 (= (N/2 - 1) ln 2 / eps)."""
    value = theorem_7_user_threshold(10**4, "0.5").value
    assert abs(float(value) - 6930) <= 0.5


# ---------------------------------------------------------------------------------------------
# Theorem 10
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("N", [2, 3, 10, 10**12])
def test_theorem_10_user_threshold(N):
    """(N/2 - 1) N ln 2 at p_max = 1/2: Cor 21 with Theorem 10's 1/N nats per 1-bit sketch."""
    result = theorem_10_user_threshold(N)
    assert result.value == sympy.Max(0, (sympy.Rational(N, 2) - 1) * N * sympy.log(2))
    assert theorem_10_bound({(0, 0), (1, 1)}, N) <= sympy.Rational(1, N)


# ---------------------------------------------------------------------------------------------
# Appendix A: the Chernoff step (spec §9 E4) and Theorem 23
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("N,K,d,tail,bound", [(10, 10, 0, "1.0e-10", "1.9e-12"), (10, 20, 3, "8.2e-8", "5.9e-13")])
def test_appendix_a_chernoff_failures_e4(N, K, d, tail, bound):
    """Spec §9 E4: the exact tail exceeds the paper's exp bound (values to the printed 2 digits)."""
    check = appendix_a_chernoff_check(N, K, d)
    assert not check.holds and not check.chernoff_applicable
    assert abs(float(check.tail) - float(tail)) <= 0.05 * 10 ** math.floor(math.log10(float(tail)))
    assert abs(float(check.paper_bound) - float(bound)) <= 0.05 * 10 ** math.floor(math.log10(float(bound)))
    assert check.tail == sympy.Rational(sum(math.comb(N, i) * (K - 1) ** i for i in range(d + 1)), K**N)


@given(N=st.integers(2, 60), K=st.integers(2, 8), data=st.data())
def test_chernoff_step_holds_when_delta_at_most_one(N, K, data):
    """The multiplicative Chernoff bound is a theorem for delta = K(1-d/N) - 1 in (0, 1]: the check must agree."""
    d = data.draw(st.integers(0, N - 1))
    check = appendix_a_chernoff_check(N, K, d)
    assert check.tail == sympy.Rational(sum(math.comb(N, i) * (K - 1) ** i for i in range(d + 1)), K**N)
    if 0 < check.chernoff_delta <= 1:
        assert check.holds


def test_chernoff_check_at_large_n_uses_the_log_enclosure():
    check = appendix_a_chernoff_check(10**12, 3, 10)
    assert check.tail is None and check.holds
    assert check.log_tail[0] <= check.log_tail[1] < 0


@pytest.mark.parametrize("N,K,d", [(10, 10, 0), (10, 20, 3)])
def test_theorem_23_paper_form_flagged_where_chernoff_fails(N, K, d):
    paper = theorem_23_user_threshold(N, K, d, 1, exact_tail=False)
    exact = theorem_23_user_threshold(N, K, d, 1)
    assert paper.name == "theorem23-paper" and not paper.valid and "E4" in paper.note
    assert sign(paper.value - exact.value) > 0  # the paper claims more users than its proof gives


@given(N=st.integers(3, 40), K=st.integers(2, 6), eps=eps_values, p=p_values, data=st.data())
def test_theorem_23_threshold_is_exactly_fano_with_distortion(N, K, eps, p, data):
    """Below the exact-tail threshold, Lemma 20 with U eps log2 e bits gives error > p; at ceil it does not."""
    d = data.draw(st.integers(0, N - 1))
    result = theorem_23_user_threshold(N, K, d, eps, p_max=p)
    assert result.name == "theorem23" and result.valid and result.lower_value == result.upper_value
    T = result.value
    assume(sign(T - 1) > 0)
    users = below(T)
    M = K**N
    M_d = sum(math.comb(N, i) * (K - 1) ** i for i in range(d + 1))
    assert sign(fano_distortion_lower_bound(users * eps * LOG2E, M=M, M_d=M_d) - p) > 0
    assert sign(fano_distortion_lower_bound((users + 1) * eps * LOG2E, M=M, M_d=M_d) - p) <= 0


@given(N=st.integers(4, 10**12), eps=eps_values, p=p_values)
def test_theorem_23_with_two_clusters_and_no_tolerance_is_theorem_7(N, eps, p):
    assert theorem_23_user_threshold(N, 2, 0, eps, p_max=p).value == theorem_7_user_threshold(N, eps, p_max=p).value


@pytest.mark.parametrize("N,K,d", [(5000, 3, 2500), (3000, 2, 2100), (10**5, 4, 3000)])
def test_theorem_23_enclosure_path_agrees_with_exact_tail(monkeypatch, N, K, d):
    """For d > 2000 the tail is enclosed (largest term, geometric series); it must contain the exact value."""
    exact = theorem_23_user_threshold(N, K, d, HALF)
    monkeypatch.setattr(fano_module, "_EXACT_TAIL_D_MAX", 0)
    enclosed = theorem_23_user_threshold(N, K, d, HALF)
    assert enclosed.lower_value <= exact.value <= enclosed.upper_value
    assert enclosed.value == enclosed.lower_value  # a threshold reports its lower end


@pytest.mark.parametrize("d", [0, 10, 2000, 2001, 10**6, 10**11])
def test_theorem_23_at_n_1e12_decreases_with_tolerance(d):
    results = [theorem_23_user_threshold(10**12, 5, dd, HALF) for dd in (d, d + 1)]
    for result in results:
        assert 0 <= result.lower_value <= result.upper_value
    assert sign(results[0].upper_value - results[1].lower_value) >= 0  # consistent with T(d) >= T(d + 1)
    if d <= 2000:  # exact tails: strictly decreasing
        assert sign(results[0].value - results[1].value) > 0


# ---------------------------------------------------------------------------------------------
# Monotonicity (spec §7 claim 16): thresholds decrease in eps
# ---------------------------------------------------------------------------------------------

@given(N=st.integers(4, 10**9), eps1=eps_values, eps2=eps_values, K=st.integers(2, 6), data=st.data())
def test_thresholds_decrease_in_eps(N, eps1, eps2, K, data):
    """Stays a test: the paper states no monotonicity; this is a sanity property of this package's Fano thresholds
    (spec §7 claim 16).
    """
    assume(eps1 < eps2)
    d = data.draw(st.integers(0, min(N - 1, 50)))
    for make in (lambda e: theorem_7_user_threshold(N, e), lambda e: theorem_7_user_threshold(N, e, form="paper"),
                 lambda e: theorem_23_user_threshold(N, K, d, e), lambda e: theorem_23_user_threshold(N, K, d, e, exact_tail=False)):
        low, high = make(eps2), make(eps1)
        assert sign(high.lower_value - low.upper_value) >= 0
        if sign(high.lower_value) > 0:
            assert sign(high.lower_value - low.upper_value) > 0


# ---------------------------------------------------------------------------------------------
# invalid arguments
# ---------------------------------------------------------------------------------------------

INVALID = [
    (lambda: fano_error_lower_bound(-1, M=8), "I_bits"),
    (lambda: fano_error_lower_bound(1, M=1), "M"),
    (lambda: fano_error_lower_bound(1), "M"),
    (lambda: fano_error_lower_bound(1, M=8, log2_M=3), "M"),
    (lambda: fano_error_lower_bound(1, log2_M="1/2"), "log2_M"),
    (lambda: fano_distortion_lower_bound(1, M=8, M_d=8), "M_d"),
    (lambda: fano_distortion_lower_bound(1, M=8, M_d=0), "M_d"),
    (lambda: ldp_fano_distortion(-1, 1, M=8, M_d=2), "U"),
    (lambda: ldp_fano_distortion(1, 0, M=8, M_d=2), "eps"),
    (lambda: users_unreliable(0, 10), "I_per_user_nats"),
    (lambda: users_unreliable(1, 0), "log2M"),
    (lambda: users_unreliable(1, 10, p_max=0), "p_max"),
    (lambda: users_unreliable(1, 10, p_max=1), "p_max"),
    (lambda: theorem_7_user_threshold(1, 1), "N"),
    (lambda: theorem_7_user_threshold(10, 0), "eps"),
    (lambda: theorem_7_user_threshold(10, -2), "eps"),
    (lambda: theorem_7_user_threshold(10, 1, p_max="3/2"), "p_max"),
    (lambda: theorem_7_user_threshold(10, 1, form="printed"), "form"),
    (lambda: theorem_7_paper_witness(1, 1), "N"),
    (lambda: theorem_10_user_threshold(1), "N"),
    (lambda: theorem_10_user_threshold(10, p_max=0), "p_max"),
    (lambda: theorem_23_user_threshold(10, 1, 0, 1), "K"),
    (lambda: theorem_23_user_threshold(10, 2, 10, 1), "d"),
    (lambda: theorem_23_user_threshold(10, 2, -1, 1), "d"),
    (lambda: theorem_23_user_threshold(10, 2, 0, 0), "eps"),
    (lambda: theorem_23_user_threshold(10, 2, 0, 1, p_max=2), "p_max"),
    (lambda: theorem_23_user_threshold("1.5", 2, 0, 1), "N"),
    (lambda: appendix_a_chernoff_check(1, 2, 0), "N"),
    (lambda: appendix_a_chernoff_check(10, 2, 11), "d"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)


def test_theorem_7_witness_outside_its_regime_does_not_refute():
    """N = 4, eps = 25/9 (eps log2 e = 4.007 > N/2 + 1): the threshold 36 ln 2/25 < 1 leaves 0 users, and
    Fano's bound there, 1 - 1/4 = 3/4 > 1/2, proves the printed threshold rather than refuting it."""
    witness = theorem_7_paper_witness(4, Fraction(25, 9))
    assert witness.users == 0 and witness.fano_bound == sympy.Rational(3, 4)
    assert not witness.refutes
