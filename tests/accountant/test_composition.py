"""Composition: closed forms, the exact Kairouz-Oh-Viswanath region, and exact PLD composition.

References: KOV's optimal composition is attained by k-fold binary randomized response, whose exact
(eps, delta) is computed here by dpcert's exact checker (dpcert.proofs.exact) on the product channel, built by
hand; advanced composition is re-evaluated with mpmath from Dwork, Rothblum, Vadhan's formula.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.accountant.composition import (
    COMPOSITION_PARAMETERS,
    PrivacyLossDistribution,
    advanced_composition,
    basic_composition,
    compose_channels,
    composition_family,
    optimal_composition,
    optimal_composition_delta,
)
from dpcert.accountant.ledger import PrivacyLedger
from dpcert.mechanisms import KaryRandomizedResponse
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign
from dpcert.proofs.channel import ExactChannel
from dpcert.proofs.exact import max_hockey_stick

R = sympy.Rational


def rr_matrix(r: sympy.Rational) -> list[list[sympy.Expr]]:
    """Binary randomized response with e^eps = r."""
    return [[r / (1 + r), 1 / (1 + r)], [1 / (1 + r), r / (1 + r)]]


def product_channel(matrices):
    """The non-adaptive composition on one input: rows x, columns (y_1, ..., y_k)."""
    rows = []
    for x in range(len(matrices[0])):
        row = []
        for ys in itertools.product(*[range(len(m[x])) for m in matrices]):
            value = sympy.Integer(1)
            for m, y in zip(matrices, ys):
                value *= m[x][y]
            row.append(value)
        rows.append(row)
    return ExactChannel.from_matrix(rows)


def test_pure_answers_are_exact():
    """One log(3)-DP mechanism is exactly log(3); k eps-DP mechanisms at delta = 0 are exactly k eps."""
    basic, advanced, optimal = composition_family(sympy.log(3), 1, 0)
    assert basic.value == sympy.log(3) and optimal.value == sympy.log(3)
    assert not advanced.valid and "delta' > 0" in advanced.note
    for eps, k in [(R(1, 3), 7), (sympy.log(2), 5), (2, 1)]:
        assert optimal_composition(eps, k, 0).value == k * sympy.sympify(eps)
    assert optimal_composition(R(1, 100), 1000, 0).value == 10  # no infinite eps from truncated tails


@pytest.mark.parametrize("r, k", [(R(3), 1), (R(3), 2), (R(2), 5), (R(5, 2), 6)])
@pytest.mark.parametrize("delta", [R(1, 10), R(1, 100), R(1, 1000)])
def test_optimal_is_exactly_k_fold_randomized_response(r, k, delta):
    """KOV (ICML 2015, Theorem 3.3): the region is that of k-fold RR; equality of exact values."""
    eps = sympy.log(r)
    optimal = optimal_composition(eps, k, delta).value
    pld = compose_channels([rr_matrix(r)] * k, delta=delta).value
    assert exact_sign(sympy.sympify(optimal) - pld) == 0
    # and through dpcert.proofs.exact on the product channel: delta at the optimal eps is exactly the target
    channel = product_channel([rr_matrix(r)] * k)
    assert exact_sign(max_hockey_stick(channel, AllPairs(), optimal).delta - delta) <= 0


@settings(max_examples=15)
@given(r=st.fractions(R(11, 10), 6, max_denominator=12), k=st.integers(1, 8),
       delta=st.sampled_from([R(1, 5), R(1, 50), R(1, 999), R(1, 10**5)]))
def test_optimal_delta_round_trip(r, k, delta):
    eps = sympy.log(R(r.numerator, r.denominator))
    value = optimal_composition(eps, k, delta).value
    back = optimal_composition_delta(eps, k, value)
    assert exact_sign(back - delta) <= 0
    if value != 0:
        assert exact_sign(back - delta) == 0  # on a piece delta(eps') is continuous and strictly decreasing


def test_krr_composition_matches_proofs_exact_on_the_product_channel():
    """Exact PLD composition of 3-RR and binary RR against the hockey-stick of the product channel."""
    k3 = KaryRandomizedResponse(3, sympy.log(2))
    m3 = [[k3.pmf(x)[y] for y in range(3)] for x in range(3)]
    rr = [[R(3, 4), R(1, 4)], [R(1, 4), R(3, 4)]]
    product = product_channel([m3, m3])
    for eps in (R(0), sympy.log(R(3, 2)), sympy.log(3)):
        assert compose_channels([m3, m3], eps=eps).value == max_hockey_stick(product, AllPairs(), eps).delta
    mixed = product_channel([rr, rr])
    for eps in (R(0), sympy.log(2)):
        assert compose_channels([rr, rr], eps=eps).value == max_hockey_stick(mixed, AllPairs(), eps).delta
    # exact with irrational e^eps (k-RR at eps = 1) as finite mechanisms
    m = KaryRandomizedResponse(3, 1)
    value = compose_channels([m, m], delta=R(1, 10)).value
    assert exact_sign(value - 2) < 0 and value.has(sympy.log)


def test_exact_composition_is_dominated_by_optimal():
    """3-RR is eps-DP, so its composition cannot exceed KOV's optimal eps (nor basic's k eps)."""
    eps = sympy.log(2)
    m = KaryRandomizedResponse(3, eps)
    for k, delta in [(2, R(1, 100)), (4, R(1, 10)), (3, 0)]:
        exact = compose_channels([m] * k, delta=delta).value
        assert exact_sign(optimal_composition(eps, k, delta).value - exact) >= 0
        assert exact_sign(k * eps - exact) >= 0


def test_pld_edge_cases():
    pld = PrivacyLossDistribution.from_pair([R(1, 2), R(1, 2), 0], [R(1, 4), R(1, 2), R(1, 4)])
    assert pld.epsilon(0) == sympy.log(2)
    assert pld.delta(0) == R(1, 4)  # total variation
    assert pld.epsilon(R(1, 4)) == 0
    infinite = PrivacyLossDistribution.from_pair([R(1, 2), R(1, 2)], [1, 0])
    assert infinite.epsilon(R(1, 4)) == sympy.oo
    assert infinite.epsilon(R(1, 2)) == 0
    assert infinite.delta(5) == R(1, 2)
    composed = pld.compose(pld)
    assert composed.epsilon(0) == sympy.log(4)


def test_advanced_formula_and_orderings():
    # Dwork, Rothblum, Vadhan: sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), re-evaluated with mpmath
    result = advanced_composition(R(1, 10), 100, R(1, 10**6))
    with mpmath.workdps(40):
        ref = mpmath.sqrt(200 * mpmath.log(10**6)) / 10 + 10 * (mpmath.e ** (mpmath.mpf(1) / 10) - 1)
    assert abs(result.upper - float(ref)) < 1e-14 and result.upper >= float(ref) * (1 - 1e-15)
    for eps, k, delta in [(R(1, 10), 100, R(1, 10**6)), (1, 10, R(1, 10**5)), (R(1, 100), 1000, R(1, 10**6))]:
        basic, advanced, optimal = composition_family(eps, k, delta)
        assert optimal.upper <= basic.upper and optimal.upper <= advanced.upper


def test_large_k_is_a_tight_rigorous_enclosure():
    """k = 1000 at eps = 1/100: an enclosure of width < 1e-12, against a 50-digit mpmath evaluation."""
    result = optimal_composition(R(1, 100), 1000, R(1, 10**6))
    assert result.upper - result.lower < 1e-12 and result.bounds == "exact"
    with mpmath.workdps(60):
        e = mpmath.e ** (mpmath.mpf(1) / 100)
        k = 1000

        def delta(eps_prime):
            t = mpmath.e ** eps_prime
            return sum(mpmath.binomial(k, l) * max(e ** (k - l) - t * e ** l, 0) for l in range(k + 1)) / (1 + e) ** k

        assert delta(mpmath.mpf(result.upper)) <= mpmath.mpf(1) / 10**6 <= delta(mpmath.mpf(result.lower))


def test_approximate_dp_mechanisms():
    """(eps, delta0) mechanisms: the KOV region is 1 - (1 - delta0)^k (1 - delta_RR(eps'))."""
    eps, k, delta, delta0 = sympy.Integer(1), 10, R(1, 10**3), R(1, 10**5)
    optimal = optimal_composition(eps, k, delta, delta0=delta0)
    back = optimal_composition_delta(eps, k, optimal.value, delta0=delta0)
    assert exact_sign(back - delta) <= 0 and float(back) > float(delta) * (1 - 1e-9)
    tight = optimal_composition(eps, k, R(1, 10**6), delta0=delta0)
    assert not tight.valid and "delta must be >=" in tight.note
    basic, _, _ = composition_family(eps, k, R(1, 10**6), delta0=delta0)
    assert not basic.valid


def test_ledger_records_and_reports():
    ledger = PrivacyLedger()
    rr = rr_matrix(R(3))
    for i in range(3):
        ledger.record(f"survey-{i}", sympy.log(3), source="Warner 1965", channel=rr)
    assert [e.label for e in ledger.entries] == ["survey-0", "survey-1", "survey-2"]
    basic, advanced, optimal, exact, numerical = ledger.summary(R(1, 100))
    assert basic.value == 3 * sympy.log(3) and "survey-1" in basic.note
    assert exact_sign(sympy.sympify(optimal.value) - exact.value) == 0
    assert numerical.lower <= float(exact.value.evalf(30)) <= numerical.upper  # the certified enclosure
    assert advanced.valid
    mixed = PrivacyLedger()
    mixed.record("a", 1)
    mixed.record("b", 2, R(1, 1000))
    assert mixed.basic().value == 3 and "delta = 1/1000" in mixed.basic().note
    assert not mixed.optimal(R(1, 100)).valid and not mixed.exact(R(1, 100)).valid
    assert basic_composition([1, 2], delta=[R(1, 10), 0]).note.endswith("delta = 1/10")
    with pytest.raises(InvalidParameterError, match="empty"):
        PrivacyLedger().basic()


def test_parameter_table():
    assert [p[0] for p in COMPOSITION_PARAMETERS] == ["eps", "k", "delta", "delta0"]


INVALID = [
    pytest.param(lambda: composition_family(0, 3, R(1, 10)), "eps", id="eps-zero"),
    pytest.param(lambda: composition_family(1, 0, R(1, 10)), "k", id="k-zero"),
    pytest.param(lambda: composition_family(1, 3, 1), "delta", id="delta-one"),
    pytest.param(lambda: composition_family(1, 3, -R(1, 10)), "delta", id="delta-negative"),
    pytest.param(lambda: composition_family(1, 3, R(1, 10), delta0=2), "delta0", id="delta0"),
    pytest.param(lambda: basic_composition([]), "eps", id="basic-empty"),
    pytest.param(lambda: basic_composition([1, 2], delta=[0]), "delta", id="basic-lengths"),
    pytest.param(lambda: compose_channels([]), "eps or delta", id="channels-neither"),
    pytest.param(lambda: compose_channels([[[1]]], delta=0), "inputs", id="channels-one-input"),
    pytest.param(lambda: PrivacyLossDistribution.from_pair([1], [R(1, 2), R(1, 2)]), "equal length", id="pld-len"),
    # the answerable range: eps in [10^-300, 10^6] (exp(exp(10)) once hung), channels and their sizes bounded
    pytest.param(lambda: composition_family("exp(exp(10))", 3, R(1, 10)), r"eps must be in \[10\^-300, 10\^6\]",
                 id="eps-huge"),
    pytest.param(lambda: composition_family("1e-301", 3, R(1, 10)), r"eps must be in", id="eps-tiny"),
    pytest.param(lambda: basic_composition([1, "1e7"]), r"eps\[1\] must be in", id="basic-eps-range"),
    pytest.param(lambda: PrivacyLedger().record("a", "1e7"), "eps must be in", id="ledger-eps-range"),
    pytest.param(lambda: optimal_composition_delta(1, 1001, 1), "k must be an integer in", id="delta-k"),
    pytest.param(lambda: optimal_composition_delta(1, 3, -1), "eps_prime must be in", id="delta-eps-prime"),
    pytest.param(lambda: compose_channels([rr_matrix(R(3))] * 33, delta=0), "at most|1 to 32", id="channels-many"),
    pytest.param(lambda: compose_channels([[[R(1, 17)] * 17] * 17], delta=0), "at most 16 inputs", id="inputs-many"),
]


@pytest.mark.parametrize("function, parameter", INVALID)
def test_invalid_arguments(function, parameter):
    with pytest.raises(InvalidParameterError, match=parameter):
        function()


def test_huge_k_answers_basic_and_advanced_and_says_why_optimal_is_not_computed():
    """k = 10^30 once hung in the optimal sum: basic and advanced are closed forms, optimal states its limit."""
    basic, advanced, optimal = composition_family(1, "1e30", R(1, 10**6))
    assert basic.value == 10**30 and advanced.valid and advanced.upper >= basic.upper
    assert not optimal.valid and optimal.value is None and "k <= 100000" in optimal.note


def test_near_tie_of_delta_and_delta0_is_decided():
    """delta = 1 - (1 - delta0)^k exactly: the target is 0, so the optimal eps is k eps (basic is invalid)."""
    delta0 = R(1, 10)
    basic, _, optimal = composition_family(1, 3, 1 - (1 - delta0) ** 3, delta0=delta0)
    assert optimal.valid and optimal.value == 3 and not basic.valid
    assert not optimal_composition(1, 3, 1 - (1 - delta0) ** 3 - R(1, 10**30), delta0=delta0).valid


def test_no_float_drift_in_exact_answers():
    """The classic float pitfalls: log(3) stays log(3); 10-fold pure composition is finite at delta = 0."""
    value = compose_channels([rr_matrix(R(3))], delta=0).value
    assert value == sympy.log(3)
    assert math.isclose(float(value), math.log(3), rel_tol=0, abs_tol=0)
    assert compose_channels([rr_matrix(R(3))] * 10, delta=0).value == sympy.log(3**10)
