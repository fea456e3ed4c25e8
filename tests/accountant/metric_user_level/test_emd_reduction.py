"""BoundedEMDReduction (dpcert.accountant.metric_user_level.emd_reduction): Lemma 5.2, Theorem 5.3, Theorem 1.3 (informal), user-level DP.

References: 002_1def8c9789d6e1bd.txt, Lemma 5.2, Theorem 5.3, Theorem 1.3, Appendix C, Table 1;
specs/imola_metric_dp_user_level.md, sections 3.3 and 5 (item 3), T15, T16, T26, A9, A10.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from conftest import assert_rejects, run_cli
from scipy.optimize import linprog

from dpcert.accountant.metric_user_level.emd_reduction import (
    bernstein_constant_facts,
    emd_discrete_family,
    lemma_5_2_threshold,
    lemma_5_2_threshold_expression,
    theorem_1_3_informal,
    theorem_5_3,
    theorem_5_3_alpha_expression,
    user_level_from_discrete,
    user_level_from_metric,
)
from dpcert.accountant.metric_user_level.group_privacy import fact_5_1_counterexample
from dpcert.accountant.hockey_stick import hockey_stick_divergence
from dpcert.accountant.symbolic_facts import nonnegative_everywhere
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.audit.bounds import cp_lower

R = sympy.Rational


# ---------------------------------------------------------------------------------------------
# T16: Theorem 5.3's parameters
# ---------------------------------------------------------------------------------------------

def test_spec_t16_identity():
    """T16: alpha ((1 + sqrt 2) r + (3/s) ln(1/delta)) == eps for all symbols, and the output delta is 2 delta."""
    eps, r, s, delta = sympy.symbols("eps r s delta", positive=True)
    printed = (1 + sympy.sqrt(2)) * r + 3 * sympy.log(1 / delta) / s  # the paper's Theorem 5.3, typed in
    assert sympy.simplify(theorem_5_3_alpha_expression(eps, r, s, delta) * printed - eps) == 0
    reduction = theorem_5_3(1, R(1, 10), 1000, R(1, 10**6))
    assert reduction.delta_out == R(2, 10**6)
    assert exact_sign(reduction.alpha * lemma_5_2_threshold(R(1, 10), 1000, R(1, 10**6)) - 1) == 0
    assert reduction.s == 1000 and reduction.r == R(1, 10)


def test_lemma_5_2_threshold_value():
    """Lemma 5.2 (not the sketch's 2 d_EM + (6/s) log(1/delta), A9): (1 + sqrt 2) mu + (3/s) ln(1/delta)."""
    value = lemma_5_2_threshold(R(1, 5), 50, R(1, 20))
    assert sympy.simplify(value - ((1 + sympy.sqrt(2)) / 5 + 3 * sympy.log(20) / 50)) == 0
    assert exact_sign(value - (2 * R(1, 5) + 6 * sympy.log(20) / 50)) < 0


def test_informal_theorem_1_3_is_reported_invalid():
    """A10: the informal Theorem 1.3 (alpha r, delta, r) is labelled informal, valid=False, with the reason."""
    informal = theorem_1_3_informal(1, R(1, 10), 1000, R(1, 10**6))
    assert informal.valid is False and informal.value == 10
    assert "informal" in informal.note and "A10" in informal.note and "met here" in informal.note
    assert "not met" in theorem_1_3_informal(1, R(1, 100), 100, R(1, 10**6)).note
    # the informal alpha is larger than the formal one: it would be the less private choice
    assert exact_sign(informal.value - theorem_5_3(1, R(1, 10), 1000, R(1, 10**6)).alpha) > 0


def test_emd_discrete_family_and_cli(capsys):
    """CLI ``dpcert bound emd-discrete``: Theorem 5.3's alpha and 2 delta, the informal form invalid; JSON shape."""
    results = emd_discrete_family(1, "0.1", 1000, "1e-6")
    assert [r.name for r in results] == ["theorem5.3", "theorem5.3-delta", "theorem1.3-informal"]
    assert [r.valid for r in results] == [True, True, False]
    code, out, _ = run_cli(capsys, "bound", "emd-discrete", "--param", "eps=1", "--param", "r=0.1",
                           "--param", "s=1000", "--param", "delta=1e-6", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["family"] == "emd-discrete"
    assert payload["inputs"] == {"eps": "1", "r": "0.1", "s": "1000", "delta": "1e-6"}
    names = {r["name"]: r for r in payload["results"]}
    for r in payload["results"]:
        assert set(r) == {"name", "source", "value", "enclosure", "bounds", "upper", "lower", "units", "valid", "note"}
    expected = 1 / ((1 + 2**0.5) * 0.1 + 3 * np.log(1e6) / 1000)  # float re-evaluation of the printed formula
    assert names["theorem5.3"]["lower"] == pytest.approx(expected, rel=1e-12)  # a sufficient alpha: a lower bound
    assert names["theorem5.3"]["bounds"] == "lower" and names["theorem5.3"]["upper"] is None
    assert names["theorem5.3-delta"]["value"] == "1/500000"
    assert names["theorem1.3-informal"]["valid"] is False


@pytest.mark.parametrize("argv, named", [
    (("--param", "eps=0", "--param", "r=0.1", "--param", "s=10", "--param", "delta=0.1"), "eps"),
    (("--param", "eps=1", "--param", "r=2", "--param", "s=10", "--param", "delta=0.1"), "r"),
    (("--param", "eps=1", "--param", "r=0.1", "--param", "s=0", "--param", "delta=0.1"), "s"),
    (("--param", "eps=1", "--param", "r=0.1", "--param", "s=10", "--param", "delta=1"), "delta"),
    (("--param", "eps=1", "--param", "r=0.1", "--param", "s=10"), "delta"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, named):
    """CLI bad input for emd-discrete: one line naming the parameter, exit code 2, no traceback."""
    code, out, err = run_cli(capsys, "bound", "emd-discrete", *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and named in err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# Spec section 5 item 3: the Bernstein constants, proved; and a wrong constant, refuted
# ---------------------------------------------------------------------------------------------

def test_bernstein_constant_facts_are_proved():
    """Spec section 5 item 3 (Appendix C.1): every constant of Lemma 5.2's proof is proved for all values."""
    facts = bernstein_constant_facts()
    assert len(facts) == 4
    for fact in facts:
        assert fact.holds is True, (fact.statement, fact.evidence)
        assert "Lemma 5.2" in fact.source


def test_the_prover_refutes_a_wrong_constant():
    """Power of the facts above: with constant 1 instead of 1 + sqrt 2 the dominance step is refuted."""
    v, l = sympy.symbols("v l", nonnegative=True)
    holds, evidence = nonnegative_everywhere(v**2 + 3 * l**2 - (v**2 + 2 * v * l + R(4, 3) * l**2))
    assert holds is False and "negative at" in evidence


# ---------------------------------------------------------------------------------------------
# T15: Lemma 5.2 by Monte Carlo (statistical, with a power check)
# ---------------------------------------------------------------------------------------------

FALSE_FAILURE = 1e-6
TRIALS = 4000


def _optimal_coupling(points: np.ndarray, K: np.ndarray, K_prime: np.ndarray) -> tuple[np.ndarray, float]:
    """A minimum-cost coupling of K and K' for d(x, y) = |x - y| (LP, HiGHS), and mu = its cost."""
    n = len(points)
    cost = np.abs(points[:, None] - points[None, :]).ravel()
    rows = np.kron(np.eye(n), np.ones(n))
    cols = np.kron(np.ones(n), np.eye(n))
    solution = linprog(cost, A_eq=np.vstack([rows, cols]), b_eq=np.concatenate([K, K_prime]), bounds=(0, None),
                       method="highs")
    coupling = np.clip(solution.x, 0, None)
    return coupling / coupling.sum(), float(cost @ coupling / coupling.sum())


def _violations(points, K, K_prime, s, threshold, rng) -> int:
    """How many of TRIALS draws of s pairs from the coupling have d_EM(L, L') >= threshold(mu)."""
    coupling, mu = _optimal_coupling(points, K, K_prime)
    n = len(points)
    counts = rng.multinomial(s, coupling, size=TRIALS).reshape(TRIALS, n, n)
    gap = (counts.sum(axis=2) - counts.sum(axis=1)) / s  # L - L' as signed measures on the points
    distance = np.abs(np.cumsum(gap, axis=1)[:, :-1]) @ np.diff(points)  # d_EM on a line: int |F - G|
    return int(np.sum(distance >= threshold(mu) - 1e-12))


def _lemma_threshold(s: int, delta: float):
    return lambda mu: float(lemma_5_2_threshold_expression(mu, s, delta).evalf(30))


def _rejects(violations: int, delta: float, tests: int) -> bool:
    """Pr[violation] > delta at confidence 1 - FALSE_FAILURE / tests (one-sided Clopper-Pearson)."""
    return cp_lower(violations, TRIALS, FALSE_FAILURE / tests) > delta


def _instances(rng):
    points = np.array([0, 1 / 3, 2 / 3, 1])
    cases = []
    for s, delta in ((50, 0.05), (200, 0.05), (200, 0.2), (1000, 0.05)):
        K, K_prime = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        cases.append((points, K, K_prime, s, delta))
    # designed: two points at distance 1, K' moves a mass mu of K (then d_EM(L, L') = (moved samples)/s exactly)
    for mu, s in ((0.003, 100), (0.5, 1000)):
        cases.append((np.array([0.0, 1.0]), np.array([1.0, 0.0]) if mu == 0.5 else np.array([0.5, 0.5]),
                      np.array([0.5, 0.5]) if mu == 0.5 else np.array([0.5 - mu, 0.5 + mu]), s, 0.05))
    return cases


@pytest.mark.statistical
def test_spec_t15_lemma_5_2_monte_carlo():
    """T15 (Lemma 5.2): Pr[d_EM(L, L') >= (1 + sqrt 2) mu + (3/s) ln(1/delta)] <= delta on random and designed
    instances; one-sided Clopper-Pearson per instance at (1e-6 / instances): false-failure probability <= 1e-6
    (Bonferroni), fixed seed. Stays a test although Lemma 5.2 is the paper's: a Monte Carlo run with a stated
    false-failure rate exceeds a claim's one-second budget (its constants are the claim lemma5.2-bernstein-constants)."""
    rng = np.random.default_rng(20240531)
    cases = _instances(rng)
    for points, K, K_prime, s, delta in cases:
        violations = _violations(points, K, K_prime, s, _lemma_threshold(s, delta), rng)
        assert not _rejects(violations, delta, len(cases)), (s, delta, violations)


@pytest.mark.statistical
@pytest.mark.parametrize("wrong, case", [
    ("without (3/s) ln(1/delta)", -2),
    ("constant 1 instead of 1 + sqrt 2", -1),
])
def test_spec_t15_power_wrong_thresholds_are_detected(wrong, case):
    """Power of T15: the same test rejects a deliberately wrong threshold on a designed instance."""
    rng = np.random.default_rng(7)
    points, K, K_prime, s, delta = _instances(np.random.default_rng(20240531))[case]
    if wrong.startswith("without"):
        threshold = lambda mu: (1 + 2**0.5) * mu  # noqa: E731
    else:
        threshold = lambda mu: mu + 3 * np.log(1 / delta) / s  # noqa: E731
    violations = _violations(points, K, K_prime, s, threshold, rng)
    assert _rejects(violations, delta, len(_instances(np.random.default_rng(20240531)))), (wrong, violations)


# ---------------------------------------------------------------------------------------------
# T26: implication to user-level DP
# ---------------------------------------------------------------------------------------------

def _rows(alpha_ratio: Fraction, grid: list[Fraction]) -> list[list[Fraction]]:
    """Exponential mechanism on X = {0, 1}: K by its fraction f of ones (d_EM = |f - f'|), output y in {0, 1},
    P(y | f) ~ e^{alpha u_y(f)} with u_1 = f/2, u_0 = (1 - f)/2 and e^{alpha/8} = ``alpha_ratio`` (f on quarters)."""
    rows = []
    for f in grid:
        one, zero = alpha_ratio ** int(4 * f), alpha_ratio ** int(4 * (1 - f))
        rows.append([zero / (one + zero), one / (one + zero)])
    return rows


def test_spec_t26_metric_to_user_level():
    """T26: an (alpha, 0)-d_EM-DP mechanism is (alpha, 0)-user-level DP (every pair, d_EM <= 1), exactly;
    and for binary randomized response on all-zeros/all-ones datasets (d_EM = 1) the alpha is the exact eps.
    Stays a test: the implication is the spec's consequence of the definitions (d_EM <= 1 is the claim
    section2-emd-at-most-one), not a statement of the paper, and this checks dpcert's conversion helper."""
    ratio = Fraction(5, 4)
    alpha = 8 * sympy.log(R(5, 4))
    grid = [Fraction(i, 4) for i in range(5)]
    rows = _rows(ratio, grid)
    # the mechanism is alpha-d_EM-DP: every log-ratio <= alpha |f - f'|, checked exactly
    for i, f in enumerate(grid):
        for j, g in enumerate(grid):
            if i != j:
                for y in range(2):
                    assert exact_sign(alpha * abs(R(f) - R(g)) - sympy.log(R(rows[i][y]) / R(rows[j][y]))) >= 0
    guarantee = user_level_from_metric(alpha, 0)
    assert guarantee.eps == alpha and guarantee.delta == 0
    assert all(hockey_stick_divergence(a, b, guarantee.eps) == 0 for a in rows for b in rows)
    # tight: binary randomized response with e^alpha is alpha-d_EM-DP between d_EM = 1 datasets, exact eps alpha
    t = R(3)
    rr = [[t / (1 + t), 1 / (1 + t)], [1 / (1 + t), t / (1 + t)]]
    eps = user_level_from_metric(sympy.log(t), 0).eps
    assert hockey_stick_divergence(rr[0], rr[1], eps) == 0
    assert hockey_stick_divergence(rr[0], rr[1], eps * R(99, 100)) > 0


def test_spec_t26_discrete_to_user_level():
    """T26: (eps, delta, r)-discrete with r >= 1 is (eps, delta)-user-level; with r = 1/2 it is the two-step
    chain, attained by the witness chain (so it cannot be smaller). Stays a test: the spec derives this from
    the definitions; the paper does not state it."""
    plain = user_level_from_discrete(1, R(1, 100), 1)
    assert (plain.eps, plain.delta, plain.steps) == (1, R(1, 100), 1)
    chained = user_level_from_discrete(2, R(1, 100), R(1, 2))
    witness = fact_5_1_counterexample(2, R(1, 100), k=2)
    assert chained.eps == 4 and exact_sign(chained.delta - witness.endpoint) == 0


@pytest.mark.parametrize("call, parameter", [
    (lambda: lemma_5_2_threshold(R(3, 2), 10, R(1, 10)), "mu"),
    (lambda: lemma_5_2_threshold(-1, 10, R(1, 10)), "mu"),
    (lambda: lemma_5_2_threshold(R(1, 2), 0, R(1, 10)), "s"),
    (lambda: lemma_5_2_threshold(R(1, 2), R(3, 2), R(1, 10)), "s"),
    (lambda: lemma_5_2_threshold(R(1, 2), 10, 0), "delta"),
    (lambda: theorem_5_3(0, R(1, 10), 10, R(1, 10)), "eps"),
    (lambda: theorem_5_3(1, 0, 10, R(1, 10)), "r"),
    (lambda: theorem_5_3(1, 2, 10, R(1, 10)), "r"),
    (lambda: theorem_5_3(1, R(1, 10), 0, R(1, 10)), "s"),
    (lambda: theorem_5_3(1, R(1, 10), 10, 1), "delta"),
    (lambda: theorem_1_3_informal(1, R(1, 10), 10, "nan"), "delta"),
    (lambda: emd_discrete_family(1, R(1, 10), "many", R(1, 10)), "s"),
    (lambda: user_level_from_metric(0, R(1, 10)), "alpha"),
    (lambda: user_level_from_metric(1, 2), "delta"),
    (lambda: user_level_from_discrete(1, R(1, 10), 0), "r"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Every public function rejects out-of-range input with InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
