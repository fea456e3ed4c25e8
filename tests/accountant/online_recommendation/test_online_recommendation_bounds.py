"""The bounds of "On Differentially Private Online Collaborative Recommendation Systems" (001_8845c8f909738498.txt,
dpcert.accountant.online_recommendation.bounds): values recomputed independently, validity conditions, the
paper's and the tight forms, section 4's numbers, and the upper/lower consistency check T22.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest
import sympy
from conftest import assert_rejects

from dpcert.accountant.online_recommendation.bounds import (
    KL_CONSTANT,
    eps_bounds_gap,
    eps_lower,
    eps_lower_D0R0,
    eps_lower_theorem_15,
    eps_upper_prec,
    eps_upper_sim,
    greedy_loss_bound,
    leaky_round_bound,
    lemma_13_bound,
    lemma_14_factor,
    lemma_18_bound,
    loss_lower_dp_D0R0,
    loss_lower_nonprivate,
    loss_upper_prec,
    loss_upper_sim,
    per_round_leak_bound,
    prec_lambda,
    theorem_15_kl_constant,
    theorem_2_bounds,
    uniform_round_loss,
)
from dpcert.mechanisms.online_recommendation import Instance, PRECSim, privacy_loss_trace
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.claims.online_recommendation.checks import (
    CONSISTENCY_GRID,
    bounds_consistency,
    check_privacy_lemmas,
    lemma_4_equivalence_witness,
    uniform_rounds_order_witness,
)


ln = math.log


def _close(result, expected, rel=1e-12):
    assert result.valid, result.note
    assert math.isclose(float(result.value), expected, rel_tol=rel), (result.value, expected)


@pytest.mark.parametrize("m, T, D, R, P, n", [(2, 200, 0, 0, 12, 2012), (3, 50, 2, 1, 20, 500), (5, 1000, 4, 9, 31, 10**5)])
def test_upper_bounds_match_the_spec_formulas(m, T, D, R, P, n):
    """Theorems 10, 11, 16, 17 and Lemmas 12, 13, 18, 14/19 (spec 2.6 and 3): the exact values equal the spec's
    formulas evaluated in floats."""
    tau = T / (R + 1)
    lam = 2 * m * ln(tau)
    k = 2 * D + 2 * R + 1
    gamma_T = m * (R + 1) * T / (3 * T - R - 1)
    _close(eps_upper_sim(m, T, P), 18 * m**2 * ln(T) / P)
    _close(eps_upper_prec(m, T, D, R, P), 36 * m**2 * k * ln(tau) / P)
    _close(eps_upper_prec(m, T, D, R, P, form="tight"), 18 * m**2 * k**2 * ln(tau) / ((D + R + 1) * P))
    _close(loss_upper_sim(m, n, P, T), 2 * m * ln(n / P) + m * T / (3 * T - 1))
    _close(loss_upper_sim(m, n, P, T, form="tight"), ln(n / P) / -ln(1 - 1 / (2 * m)) + m * T / (3 * T - 1))
    _close(loss_upper_prec(m, n, P, R, T), 2 * m * (2 * R + 1) * ln((2 * R + 1) * n / ((R + 1) * P)) + gamma_T)
    _close(greedy_loss_bound(m, n, P, R=R), ln((2 * R + 1) * n / ((R + 1) * P)) / -ln(1 - 1 / (2 * m * (2 * R + 1))))
    _close(uniform_round_loss(m, T, R=R), gamma_T)
    _close(per_round_leak_bound(m, T, R, P), 3 * lam / P)
    _close(lemma_13_bound(m, T, R, P), 2 * lam / P)
    _close(lemma_18_bound(m, T, D, R, P * (D + R + 1)), 3 * k * lam / (P * (D + R + 1)))
    _close(lemma_14_factor(m, D=D, R=R), 1 - 1 / (3 * m * k))
    _close(leaky_round_bound(m, n, P, D=D, R=R), 1 + ln(k * n / ((D + R + 1) * P)) / -ln(1 - 1 / (3 * m * k)))
    loss, eps = theorem_2_bounds(m, n, P, D, R, T)
    assert (loss.name, eps.name) == ("theorem16", "theorem17") and loss.value == loss_upper_prec(m, n, P, R, T).value


@pytest.mark.parametrize("T, L, D, R, P", [(1000, 10, 0, 0, 12), (10**6, 50, 400, 100, 3), (10**5, 20, 80, 0, 7)])
def test_lower_bounds_match_the_spec_formulas(T, L, D, R, P):
    """Theorems 7, 15 and 1, Lemma 8 (spec 3): ln(T/(2L))/P; (0.13/(2P)) min(S/4 - 1, T/8 - 8(L+1) - 1) when
    D + R >= 6 ln T; their max; (T/2) e^{-P eps}."""
    _close(eps_lower_D0R0(T, L, P), ln(T / (2 * L)) / P)
    thm15 = eps_lower_theorem_15(T, L, D, R, P)
    assert thm15.valid is (D + R >= 6 * ln(T))
    expected = ln(T / (2 * L)) / P
    if thm15.valid:
        S = min(D + R, T)
        _close(thm15, 0.13 / (2 * P) * min(S / 4 - 1, T / 8 - 8 * (L + 1) - 1))
        expected = max(expected, float(thm15.value))
    _close(eps_lower(T, L, D, R, P), expected)
    _close(loss_lower_dp_D0R0(T, P, sympy.Rational(1, 10)), T / 2 * math.exp(-P / 10))


def test_theorem_6_floor_is_exact_at_powers():
    """Theorem 6 (spec 3): floor(log_m(n/P)) is computed in integers, exact when n/P is a power of m (where
    float logs can round down), and the R part (1 - 1/m) R wins for large R."""
    for m, k in itertools.product((2, 3, 10), range(1, 12)):
        P = 7
        assert loss_lower_nonprivate(m, P * m**k, P, 0).value == sympy.Rational((m - 1) * k, 2)
        assert loss_lower_nonprivate(m, P * m**k - 1, P, 0).value == sympy.Rational((m - 1) * (k - 1), 2)
    assert loss_lower_nonprivate(3, 100, 2, 50).value == sympy.Rational(100, 3)
    assert "A10" in loss_lower_nonprivate(3, 100, 2, 5).note


def test_validity_conditions_switch_where_the_spec_says():
    """Spec 2.5 and 5 (admissible): P >= 6m, tau >= 2^{3/2} (T = 2 fails, T = 3 holds for sim), tau > (m+1)/3,
    D + R >= 6 ln T for Theorem 15 (switching at ceil(6 ln T)); invalid results carry the reason and no value."""
    assert eps_upper_sim(2, 10, 12).valid and not eps_upper_sim(2, 10, 11).valid
    assert "6m" in eps_upper_sim(2, 10, 11).note and eps_upper_sim(2, 10, 11).value is None
    assert not eps_upper_sim(2, 2, 12).valid and eps_upper_sim(2, 3, 12).valid
    assert not eps_upper_prec(2, 10, 0, 4, 12).valid and eps_upper_prec(2, 9, 0, 2, 12).valid  # tau 2 vs 3
    assert not loss_upper_prec(8, 100, 10, 0, 2).valid  # tau = 2 <= (m+1)/3 = 3: gamma >= 1
    T = 1000
    threshold = math.ceil(6 * ln(T))
    assert eps_lower_theorem_15(T, 5, threshold, 0, 1).valid and not eps_lower_theorem_15(T, 5, threshold - 1, 0, 1).valid
    assert "vacuous" in eps_lower_D0R0(10, 5, 1).note and eps_lower_D0R0(10, 5, 1).value <= 0


def test_bounds_are_rounded_outward():
    """DESIGN (numbers): an eps upper bound's float never rounds down, a lower bound's never up (50-digit check)."""
    upper, lower = eps_upper_prec(3, 77, 2, 1, 19), eps_lower(10**5, 13, 90, 0, 3)
    with mpmath.workdps(50):
        assert mpmath.mpf(upper.upper) >= mpmath.mpf(str(upper.value.evalf(50)))
        assert mpmath.mpf(lower.lower) <= mpmath.mpf(str(lower.value.evalf(50)))


@pytest.mark.parametrize("m, T, D, R, P", [(2, 10, 0, 0, 12), (2, 100, 3, 2, 12), (4, 500, 10, 0, 40)])
def test_tight_forms_are_below_the_printed_ones(m, T, D, R, P):
    """Spec A15: Theorem 17's tight form <= the printed 36 m^2 (2D+2R+1) ln tau / P, equal to Theorem 11 at
    D = R = 0 where the printed form is twice as large; the tight loss forms are below the paper's."""
    paper, tight = eps_upper_prec(m, T, D, R, P), eps_upper_prec(m, T, D, R, P, form="tight")
    assert exact_sign(paper.value - tight.value) >= 0 and "paper" in paper.note and "tight" in tight.note
    if D == R == 0:
        assert tight.value == eps_upper_sim(m, T, P).value and paper.value == 2 * tight.value
    n = 50 * P
    assert exact_sign(loss_upper_prec(m, n, P, R, T).value - loss_upper_prec(m, n, P, R, T, form="tight").value) > 0


def test_section4_numbers_recomputed():
    """Spec section 4: the proofs' constants and the spec's Monte Carlo bound, recomputed.
    - 0.13 < KL(Bern(3/4) || Bern(1/2)) = 0.1308120 (quoted to 7 digits; tolerance 5e-8);
    - 18 m^2 = 3 * 3m * 2m: eps_upper_sim / (ln T / P) = 18 m^2;
    - the Monte Carlo setting m = 2, T = 200, P = 12, n = 2012 has loss bound 21.2 (quoted to 3 digits)."""
    kl = theorem_15_kl_constant()
    assert abs(float(kl.value) - 0.1308120) < 5e-8 and exact_sign(kl.value - KL_CONSTANT) > 0
    for m in (2, 3, 7):
        assert sympy.simplify(eps_upper_sim(m, 50, 6 * m).value / (sympy.log(50) / (6 * m)) - 18 * m**2) == 0
    assert round(float(loss_upper_sim(2, 2012, 12, 200).value), 1) == 21.2


@pytest.mark.parametrize("T, L, P", [(10, sympy.Rational(1, 3), 4), (1000, 7, 12), (50, 25, 3)])
def test_theorem_7_inverts_lemma_8(T, L, P):
    """Spec T20 / S12: (T/2) e^{-P eps_lower} = L exactly, and eps_lower > 0 iff L < T/2."""
    eps = eps_lower_D0R0(T, L, P).value
    assert sympy.simplify(loss_lower_dp_D0R0(T, P, eps).value - L) == 0
    assert (exact_sign(eps) > 0) is bool(2 * L < T)


def test_upper_and_lower_bounds_are_consistent():
    """Spec T22 (claim thm1-thm2-bounds-consistent, via bounds_consistency): for m = 2 and admissible
    (T, D, R, P, n), eps_lower(T, L = loss_upper_pREC, D, R, P) <= eps_upper_pREC (both forms), since p-REC's true
    eps lies between them; and eps_upper / ((D+R+1) ln tau / P) <= 72 m^2. Power check: a garbled upper bound
    without its m^2 (2D+2R+1) factor gives a negative gap."""
    result = bounds_consistency(CONSISTENCY_GRID)
    assert result.consistent and result.cases > 50 and result.smallest_gap > 0
    for T, D, R, P, n in [(10, 0, 0, 12, 100), (10**6, 200, 5, 40, 10**5), (100, 30, 1, 12, 10**5)]:
        for form in ("paper", "tight"):
            gap = eps_bounds_gap(2, n, P, D, R, T, form=form)
            assert gap.valid and exact_sign(gap.value) >= 0, (T, D, R, P, n, form)
    assert bounds_consistency([(10, 11, 0, 12, 100), (10, 0, 0, 12, 5)]).cases == 0  # D > T, n < P: skipped
    assert not bounds_consistency([]).consistent
    assert not eps_bounds_gap(2, 100, 11, 0, 0, 100).valid  # P < 6m
    garbled = sympy.log(10**6) / (8 * 12)
    lower = eps_lower(10**6, loss_upper_prec(2, 100, 12, 0, 10**6).value, 0, 0, 12).value
    assert exact_sign(garbled - lower) < 0


BAD_CALLS = [
    (lambda: loss_lower_nonprivate(1, 10, 2, 0), "m"),
    (lambda: loss_lower_nonprivate(2, 1, 2, 0), "n"),
    (lambda: loss_lower_nonprivate(2, 10, 0, 0), "P"),
    (lambda: loss_lower_nonprivate(2, 10, 2, -1), "R"),
    (lambda: loss_lower_dp_D0R0(10, 2, -1), "eps"),
    (lambda: loss_lower_dp_D0R0(0, 2, 1), "T"),
    (lambda: eps_lower_D0R0(10, 0, 2), "L"),
    (lambda: eps_lower_D0R0(10, 1, 0), "P"),
    (lambda: eps_lower_theorem_15(10, 1, -1, 0, 1), "D"),
    (lambda: eps_lower_theorem_15(10, "x", 1, 0, 1), "L"),
    (lambda: eps_lower(10, 1, 0, "1.5", 1), "R"),
    (lambda: uniform_round_loss(2, 0), "T"),
    (lambda: greedy_loss_bound(2, 10, 20), "n"),
    (lambda: loss_upper_sim(2, 100, 12, 10, form="printed"), "form"),
    (lambda: loss_upper_prec(2, 100, 12, -1, 10), "R"),
    (lambda: per_round_leak_bound(2, 10, 0, 0), "W"),
    (lambda: lemma_13_bound(1, 10, 0, 12), "m"),
    (lambda: prec_lambda(2, "10.5", 0), "T"),
    (lambda: prec_lambda(2, 10, -1), "R"),
    (lambda: lemma_18_bound(2, 10, 0, 0, 0), "C"),
    (lambda: lemma_14_factor(2, D=-1), "D"),
    (lambda: leaky_round_bound(2, 10, 12), "n"),
    (lambda: eps_upper_sim(2, 1, 12), "T"),
    (lambda: eps_upper_prec(2, 10, 11, 0, 12), "D"),
    (lambda: eps_upper_prec(2, 10, 0, 0, 12, form=3), "form"),
    (lambda: theorem_2_bounds(2, 100, 12, 0, 0, True), "T"),
    (lambda: lemma_4_equivalence_witness(2, 10, R=9), "R"),
    (lambda: uniform_rounds_order_witness(1, 10), "m"),
    (lambda: check_privacy_lemmas("trace", 12), "trace"),
    (lambda: eps_bounds_gap(2, 100, 12, 0, 0, 100, form="printed"), "form"),
    (lambda: check_privacy_lemmas(privacy_loss_trace(PRECSim(2, 3), Instance(2, [{0}] * 3, [[0] * 3] * 3), [0, 1], 2),
                                  4), "P"),
]


@pytest.mark.parametrize("call, parameter", BAD_CALLS, ids=[f"{i}-{p}" for i, (_, p) in enumerate(BAD_CALLS)])
def test_bad_input_names_the_parameter(call, parameter):
    """DESIGN (bad input): every public bound function raises InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
