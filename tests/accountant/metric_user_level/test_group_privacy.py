"""Group privacy (dpcert.accountant.metric_user_level.group_privacy): Lemma A.2 and its chain, Fact 5.1 corrected and refuted.

References: 002_1def8c9789d6e1bd.txt, Lemma A.1, Lemma A.2, Fact 5.1, Table 1;
specs/imola_metric_dp_user_level.md, section 8 (A1) and section 7 (T17, T18, T19, T27). The reference
numbers of T17 (0.0839 > 0.0739; 2.105e-3 > 1.221e-3) are the spec's, checked to their printed digits.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from conftest import assert_rejects, log_rational_eps, probability_rows, rational_eps, run_cli
from hypothesis import given
from hypothesis import strategies as st

from dpcert.accountant.metric_user_level.group_privacy import (
    discrete_to_graded,
    fact_5_1_counterexample,
    group_privacy_delta,
    group_privacy_family,
    printed_group_delta,
)
from dpcert.accountant.hockey_stick import hockey_stick_divergence
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.claims.metric_user_level.spec_checks import lemma_a1_sides

R = sympy.Rational


def at_most(a, b) -> bool:
    """a <= b, decided exactly."""
    return exact_sign(sympy.sympify(b) - sympy.sympify(a)) >= 0


# ---------------------------------------------------------------------------------------------
# T17: the printed forms of Fact 5.1 / Table 1 are false; Lemma A.2's chain bound is attained
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("eps, delta, form, witness_value, printed_value, tolerance", [
    (2, R(1, 100), "fact5.1", 0.0839, 0.0739, 5e-5),  # spec T17, printed to 4 decimals
    (R(1, 10), R(1, 1000), "table1", 2.105e-3, 1.221e-3, 5e-7),  # spec T17, printed to 4 significant digits
])
def test_spec_t17_counterexamples(eps, delta, form, witness_value, printed_value, tolerance):
    """T17 / A1: an (eps, delta) chain P0, P1, P2 with D_{e^{2 eps}}(P0 || P2) above the printed delta term."""
    witness = fact_5_1_counterexample(eps, delta)
    assert witness.k == 2 and len(witness.chain) == 3
    # every adjacent pair is (eps, delta) in both orders, checked exactly
    assert witness.is_chain
    for forward, backward in witness.adjacent:
        assert at_most(forward, delta) and at_most(backward, delta)
    # recomputed here from the chain itself, not taken from the witness
    endpoint = hockey_stick_divergence(witness.chain[0], witness.chain[2], 2 * eps)
    assert sympy.simplify(endpoint - witness.endpoint) == 0
    assert witness.refutes(form) and exact_sign(endpoint - witness.printed(form)) > 0
    assert float(endpoint) == pytest.approx(witness_value, abs=tolerance)
    assert float(witness.printed(form)) == pytest.approx(printed_value, abs=tolerance)


def test_each_printed_form_holds_somewhere_and_fails_elsewhere():
    """A1: neither example refutes both printed forms; the other form is above the witness there."""
    first, second = fact_5_1_counterexample(2, R(1, 100)), fact_5_1_counterexample(R(1, 10), R(1, 1000))
    assert first.refutes("fact5.1") and not first.refutes("table1")
    assert second.refutes("table1") and not second.refutes("fact5.1")


@given(rational_eps(), st.integers(1, 6), st.integers(1, 4))
def test_witness_chain_attains_the_lemma_a2_bound(eps, exponent, k):
    """Lemma A.2 chained is tight: the witness chain's endpoint equals delta sum_{j<k} e^{j eps} exactly."""
    delta = R(1, 10**exponent)
    eps = sympy.Rational(eps.numerator, eps.denominator)
    exists = k == 1 or exact_sign(delta + (sympy.exp(eps) + 1) * group_privacy_delta(eps, delta, k - 1) - 1) <= 0
    if not exists:  # the construction's condition fails: the function refuses rather than return a non-chain
        assert_rejects(lambda: fact_5_1_counterexample(eps, delta, k=k), "delta")
        return
    witness = fact_5_1_counterexample(eps, delta, k=k)
    assert witness.is_chain and witness.attains_chain_bound


def test_witness_realizes_a_discrete_demdp_mechanism():
    """T17: M(K) = P_{floor(d_EM(K, K0)/r)} on X = {0, 1} (K by its fraction f of ones, d_EM = |f - f'|) is
    (eps, delta, 1/2)-discrete d_EM-DP, yet the pair f = 0, f = 1 breaks Fact 5.1's printed delta e^{ceil(d/r)}."""
    eps, delta, r = sympy.Integer(2), R(1, 100), R(1, 2)
    witness = fact_5_1_counterexample(eps, delta, k=2)
    grid = [R(i, 4) for i in range(5)]

    def mechanism(f):
        return witness.chain[min(2, int(sympy.floor(f / r)))]

    for f in grid:
        for g in grid:
            if abs(f - g) <= r:
                assert at_most(hockey_stick_divergence(mechanism(f), mechanism(g), eps), delta), (f, g)
    d = abs(grid[-1] - grid[0])
    steps = int(sympy.ceiling(d / r))
    divergence = hockey_stick_divergence(mechanism(grid[0]), mechanism(grid[-1]), steps * eps)
    assert exact_sign(divergence - delta * sympy.exp(steps)) > 0
    assert exact_sign(divergence - discrete_to_graded(eps, delta, r, d).delta) == 0


# ---------------------------------------------------------------------------------------------
# T18, T19 and the chain bound on random exact distributions
# ---------------------------------------------------------------------------------------------

@st.composite
def chains(draw):
    width = draw(st.integers(2, 4))
    k = draw(st.integers(1, 4))
    return [draw(probability_rows(width)) for _ in range(k + 1)], sympy.sympify(draw(log_rational_eps()))


@given(chains())
def test_corrected_chain_bound_holds_on_random_chains(case):
    """T17 (corrected Fact 5.1): D_{e^{k eps}}(P_0 || P_k) <= delta sum_{j<k} e^{j eps}, delta the chain's worst step."""
    chain, eps = case
    k = len(chain) - 1
    delta = max((hockey_stick_divergence(a, b, eps) for i in range(k) for a, b in
                 ((chain[i], chain[i + 1]), (chain[i + 1], chain[i]))), key=lambda v: float(v))
    bound = group_privacy_delta(eps, delta, k)
    assert at_most(hockey_stick_divergence(chain[0], chain[k], k * eps), bound)
    assert at_most(hockey_stick_divergence(chain[k], chain[0], k * eps), bound)


@st.composite
def triples(draw):
    width = draw(st.integers(1, 4))
    a = draw(st.sampled_from([sympy.Integer(0)]) | log_rational_eps())
    b = draw(st.sampled_from([sympy.Integer(0)]) | log_rational_eps())
    return [draw(probability_rows(width)) for _ in range(3)], sympy.sympify(a), sympy.sympify(b)


@given(triples())
def test_lemma_a2_weak_triangle_inequality(case):
    """T18 (Lemma A.2): D_{e^{a+b}}(P || R) <= D_{e^a}(P || Q) + e^a D_{e^b}(Q || R), exactly."""
    (P, Q, R_), a, b = case
    lhs = hockey_stick_divergence(P, R_, a + b)
    rhs = hockey_stick_divergence(P, Q, a) + sympy.exp(a) * hockey_stick_divergence(Q, R_, b)
    assert at_most(lhs, rhs)


def test_lemma_a2_needs_the_e_a_factor():
    """Power of T18: without e^a the inequality fails on the witness chain (so the test above can fail)."""
    eps = sympy.Integer(2)
    witness = fact_5_1_counterexample(eps, R(1, 100))
    P, Q, R_ = witness.chain
    lhs = hockey_stick_divergence(P, R_, 2 * eps)
    assert exact_sign(lhs - hockey_stick_divergence(P, Q, eps) - hockey_stick_divergence(Q, R_, eps)) > 0


@st.composite
def couplings(draw):
    n = draw(st.integers(2, 3))
    joint = draw(probability_rows(n * n))
    channel = [draw(probability_rows(draw(st.just(3)))) for _ in range(n)]
    return n, joint, channel, sympy.sympify(draw(log_rational_eps()))


@given(couplings())
def test_lemma_a1_coupling_convexity(case):
    """T19 (Lemma A.1): D_{e^eps}(M(X) || M(Y)) <= sum_{x,y} C(x, y) D_{e^eps}(M(x) || M(y)) for a coupling C.

    Registered as the claim lemma-a1-coupling-convexity; this property test draws its cases with hypothesis."""
    n, joint, channel, eps = case
    C = [[joint[x * n + y] for y in range(n)] for x in range(n)]
    lhs, rhs = lemma_a1_sides(C, channel, eps)
    assert at_most(lhs, rhs)


# ---------------------------------------------------------------------------------------------
# Closed forms, T27, the family and bad input
# ---------------------------------------------------------------------------------------------

def test_chain_delta_closed_forms():
    """Lemma A.2 chained: delta sum_{j<k} e^{j eps} equals delta (e^{k eps} - 1)/(e^eps - 1); k delta at eps = 0."""
    eps = sympy.Rational(3, 7)
    direct = sum(R(1, 50) * sympy.exp(j * eps) for j in range(5))
    assert sympy.simplify(group_privacy_delta(eps, R(1, 50), 5) - direct) == 0
    assert group_privacy_delta(0, R(1, 50), 5) == R(1, 10)
    assert group_privacy_delta(eps, R(1, 50), 1) == R(1, 50)
    assert printed_group_delta(eps, R(1, 50), 3, form="fact5.1") == R(1, 50) * sympy.exp(3)
    assert printed_group_delta(eps, R(1, 50), 3, form="table1") == R(1, 50) * sympy.exp(3 * eps)


def test_discrete_to_graded_steps():
    """Fact 5.1 corrected: k = max(1, ceil(d/r)) steps; d = 0 keeps Definition 5.1's (eps, delta)."""
    eps, delta = sympy.Integer(1), R(1, 100)
    assert discrete_to_graded(eps, delta, R(1, 4), R(3, 5)).steps == 3
    assert discrete_to_graded(eps, delta, R(1, 4), R(1, 2)).steps == 2
    zero = discrete_to_graded(eps, delta, R(1, 4), 0)
    assert (zero.eps, zero.delta, zero.steps) == (eps, delta, 1)
    far = discrete_to_graded(eps, delta, R(1, 3), 1)
    assert far.eps == 3 and sympy.simplify(far.delta - delta * (1 + sympy.E + sympy.E**2)) == 0


@given(st.fractions(Fraction(1, 50), 1, max_denominator=50), st.fractions(0, 1, max_denominator=50),
       rational_eps())
def test_spec_t27_ceil_bound(r, x, eps):
    """T27: for d >= r > 0, the graded eps = eps ceil(d/r) is <= 2 eps d / r (d drawn in [r, 1])."""
    r, eps = sympy.Rational(r), sympy.Rational(eps)
    d = r + (1 - r) * sympy.Rational(x)
    graded = discrete_to_graded(eps, R(1, 100), r, d)
    assert graded.eps <= 2 * eps * d / r


def test_spec_t27_needs_d_at_least_r():
    """Power of T27: below d = r the bound fails (eps ceil(d/r) = eps > 2 eps d / r for d < r/2)."""
    eps, r = sympy.Integer(1), R(1, 2)
    assert discrete_to_graded(eps, R(1, 100), r, R(1, 5)).eps > 2 * eps * R(1, 5) / r


def test_group_privacy_family_and_cli(capsys):
    """CLI ``dpcert bound group-privacy``: lemma-a2-chain valid, both printed forms invalid, JSON shape of issue 3."""
    results = group_privacy_family(2, "0.01", 2)
    assert [r.name for r in results] == ["lemma-a2-chain", "fact5.1-printed", "table1-printed"]
    assert [r.valid for r in results] == [True, False, False]
    assert "false at these inputs" in results[1].note and "false at these inputs" not in results[2].note
    code, out, _ = run_cli(capsys, "bound", "group-privacy", "--param", "eps=2", "--param", "delta=0.01",
                           "--param", "k=2", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["family"] == "group-privacy"
    assert payload["inputs"] == {"eps": "2", "delta": "0.01", "k": "2"}
    for r in payload["results"]:
        assert set(r) == {"name", "source", "value", "enclosure", "bounds", "upper", "lower", "units", "valid", "note"}
        assert r["enclosure"][0] <= r["enclosure"][1] and r["units"] == "probability" and r["bounds"] == "upper"
        assert r["lower"] is None and (r["upper"] == r["enclosure"][1] if r["valid"] else r["upper"] is None)
    chain = payload["results"][0]
    assert chain["enclosure"][0] <= float(fact_5_1_counterexample(2, R(1, 100)).endpoint) <= chain["upper"]


@pytest.mark.parametrize("argv, named", [
    (("--param", "eps=-1", "--param", "delta=0.01", "--param", "k=2"), "eps"),
    (("--param", "eps=1", "--param", "delta=2", "--param", "k=2"), "delta"),
    (("--param", "eps=1", "--param", "delta=0.01", "--param", "k=0"), "k"),
    (("--param", "eps=1", "--param", "delta=0.01", "--param", "k=1.5"), "k"),
    (("--param", "eps=1", "--param", "delta=0.01"), "k"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, named):
    """CLI bad input for group-privacy: one line naming the parameter, exit code 2, no traceback."""
    code, out, err = run_cli(capsys, "bound", "group-privacy", *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and named in err
    assert "Traceback" not in err


@pytest.mark.parametrize("call, parameter", [
    (lambda: group_privacy_delta(-1, R(1, 10), 2), "eps"),
    (lambda: group_privacy_delta(1, R(3, 2), 2), "delta"),
    (lambda: group_privacy_delta(1, R(1, 10), 0), "k"),
    (lambda: printed_group_delta(1, R(1, 10), 2, form="paper"), "form"),
    (lambda: printed_group_delta(1, -1, 2, form="table1"), "delta"),
    (lambda: discrete_to_graded(0, R(1, 10), R(1, 2), R(1, 2)), "eps"),
    (lambda: discrete_to_graded(1, R(1, 10), 0, R(1, 2)), "r"),
    (lambda: discrete_to_graded(1, R(1, 10), R(1, 2), R(3, 2)), "d"),
    (lambda: discrete_to_graded(1, R(1, 10), R(1, 2), -1), "d"),
    (lambda: fact_5_1_counterexample(0, R(1, 10)), "eps"),
    (lambda: fact_5_1_counterexample(1, 0), "delta"),
    (lambda: fact_5_1_counterexample(1, 1), "delta"),
    (lambda: fact_5_1_counterexample(1, R(1, 10), k=0), "k"),
    (lambda: fact_5_1_counterexample(R(1, 100), R(1, 10**9), k=33), "k"),
    (lambda: fact_5_1_counterexample(3, R(1, 10)), "delta"),
    (lambda: group_privacy_family(1, R(1, 10), "x"), "k"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Every public function rejects out-of-range input with InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
