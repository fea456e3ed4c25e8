"""Tests of the zoo (dpcert.mechanisms.zoo): shapes, validation, and the audit verdicts the docstrings state.

Audits of private mechanisms run at confidence 1 - 1e-6: a false "violation" has probability <= 1e-6
per audit. Outcomes are deterministic under the fixed seeds.
"""

from __future__ import annotations

import re
from math import exp, log, sqrt

import numpy as np
import pytest
import sympy

from dpcert.mechanisms import Geometric
from dpcert.mechanisms.parameters import EPS_RANGE, InvalidParameterError, range_text
from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.mechanisms.zoo import (SVT1, SVT4, SVT5, LaplaceExact, NumericalSVT, PrefixSum, SVT34Parallel,
                                   TruncatedGeometric)
from dpcert.mechanisms.zoo.geometric import GEOSAMPLE_EPS_RANGE, max_count
from dpcert.proofs.audit import audit

STRICT = 1 - 1e-6
ZOO = sorted(name for name, entry in CATALOG.items() if entry.sampler_only)
_EPS_RANGES = {"truncated-geometric": GEOSAMPLE_EPS_RANGE}  # k = ceil(ln(2/eps)) must be an integer >= 0


def hoeffding(n: int, frequencies: int) -> float:
    """A tolerance t such that any of ``frequencies`` empirical frequencies over n independent draws is off by t or
    more with probability <= 1 - STRICT = 1e-6 (Hoeffding: 2 exp(-2 n t^2) each; a union bound over them)."""
    return sqrt(log(2 * frequencies / (1 - STRICT)) / (2 * n))


def laplace_difference_tail(a: float, b1: float, b2: float) -> float:
    """P(nu - rho >= a) for independent nu ~ Lap(b1), rho ~ Lap(b2), a >= 0, b1 != b2: the sum of the two has the
    density (b1 e^(-|s|/b1) - b2 e^(-|s|/b2)) / (2 (b1^2 - b2^2)) (rho is symmetric), integrated from a."""
    return (b1 ** 2 * exp(-a / b1) - b2 ** 2 * exp(-a / b2)) / (2 * (b1 ** 2 - b2 ** 2))


@pytest.mark.parametrize("name", ZOO)
def test_zoo_contract(name):
    # the sampler contract (test_sampler_contract.py) plus what an auditing benchmark needs
    entry = CATALOG[name]
    mechanism = make_mechanism(name, raw={"eps": "1/2"})
    assert entry.factory.expected_verdict in {"private", "not-private"}
    assert entry.negative_control == (entry.factory.expected_verdict == "not-private")
    assert entry.factory.__doc__ and "Expected verdict" in entry.factory.__doc__
    pairs = list(mechanism.neighbour_pairs())
    assert pairs and all(mechanism.is_neighbour(a, b) for a, b in pairs)


@pytest.mark.parametrize("name", ZOO)
def test_rejects_bad_eps(name):
    allowed = range_text(*_EPS_RANGES.get(name, EPS_RANGE))
    with pytest.raises(InvalidParameterError, match=re.escape(f"eps must be in {allowed}")):
        make_mechanism(name, raw={"eps": 0})


def test_svt_codes():
    # no query noise (SVT5): the answers are a deterministic function of rho
    svt5 = SVT5(eps=1, m=4)
    codes = svt5.sample((0, 0, 1, 1), 10_000, np.random.default_rng(0))
    assert set(np.unique(codes)) <= {0, 12, 15}  # none above, the last two, all four
    svt1 = SVT1(eps=1, m=4)
    assert set(np.unique(svt1.sample((0,) * 4, 10_000, np.random.default_rng(0)))) <= set(range(5))
    with pytest.raises(InvalidParameterError, match="tuple of 4"):
        svt1.sample((0, 0), 10, np.random.default_rng(0))


def test_laplace_exact_outputs_on_grid():
    mechanism = LaplaceExact(eps=1)
    y = mechanism.sample(0.5, 10_000, np.random.default_rng(0))
    assert np.all(y * 1024 == np.round(y * 1024))
    assert abs(np.mean(np.abs(y - 0.5)) - 1.0) < 0.05  # E|Lap(1)| = 1; sd of the mean ~ 0.01
    with pytest.raises(InvalidParameterError, match="multiple of 2\\^-10"):
        mechanism.sample(0.1, 10, np.random.default_rng(0))


@pytest.mark.statistical
@pytest.mark.parametrize("name", [name for name in ZOO if not CATALOG[name].negative_control])
def test_private_zoo_mechanisms_pass_audit(name):
    mechanism = make_mechanism(name, raw={"eps": 1})
    result = audit(mechanism, eps=1, samples=40_000, seed=11, confidence=STRICT)
    assert result.verdict == "no-violation-found", result


@pytest.mark.statistical
def test_svt4_is_caught_below_its_true_epsilon():
    # SVT4 is (1 + 6c) eps / 4 = 1.75 eps-DP for c = 1 (Lyu et al., Theorem 5). At eps = 1 it is caught
    # at a claim of 1 (not eps-DP) when the audit's lower bound exceeds 1; measured bound in the report.
    mechanism = SVT4(eps=1, m=10)
    result = audit(mechanism, eps=1, samples=400_000, seed=5, confidence=STRICT)
    assert result.epsilon_lower_bound <= 1.75  # a valid lower bound never exceeds the true eps
    assert result.verdict == "violation", result


def test_dp_sniper_names_are_the_same_samplers():
    for alias, name in (("report-noisy-max1", "noisy-max"), ("report-noisy-max3", "noisy-max-value")):
        assert make_mechanism(alias, raw={"eps": "1/10"}) == make_mechanism(name, raw={"eps": "1/10"})
        assert CATALOG[alias].factory is CATALOG[name].factory
        assert CATALOG[alias].negative_control == CATALOG[name].negative_control


@pytest.mark.parametrize("eps, n", [("1/10", 5), ("1/10", 1), ("1/2", 3), ("2", 4), ("log(3)", 2)])
def test_truncated_geometric_law_is_the_clamped_geometric(eps, n):
    # exact: F(z) = cdf_numerators / d is the cumulative law of the two-sided geometric with ratio 2^k / (2^k + 1)
    # clamped onto [0, n] (dpcert.mechanisms.Geometric, eps' = ln(1 + 2^-k)), for every input count
    mechanism = TruncatedGeometric(eps=eps, n=n)
    oracle = Geometric(eps=sympy.log(1 + sympy.Rational(1, 2 ** mechanism.k)), lo=0, hi=n)
    for c in range(n + 1):
        numerators = mechanism.cdf_numerators(c)
        pmf = oracle.pmf(c)
        cumulative = [sum((pmf[y] for y in range(z + 1)), sympy.Integer(0)) for z in range(n + 1)]
        assert all(v.is_Rational for v in cumulative)  # alpha = 2^k / (2^k + 1): the oracle's law is rational too
        assert [sympy.Rational(f, numerators[-1]) for f in numerators] == cumulative


def test_truncated_geometric_at_dp_snipers_parameters():
    mechanism = TruncatedGeometric(eps="1/10")  # k = ceil(ln 20) = 3, d = 17 * 9^4
    assert mechanism.k == 3 and mechanism.cdf_numerators(1)[-1] == 17 * 9 ** 4 == 111_537
    assert log(1 + 2 ** -mechanism.k) > 0.1  # ln(9/8) = 0.1178: not 0.1-DP
    assert TruncatedGeometric(eps="1/2").k == 2 and log(1 + 2 ** -2) < 0.5  # private at eps = 1/2
    assert mechanism.neighbour_pairs() == [(1, 0), (1, 2)]
    assert TruncatedGeometric(eps=1, n=1).neighbour_pairs() == [(1, 0)]  # 2 is no count of n = 1
    assert mechanism.is_neighbour(5, 4) and not mechanism.is_neighbour(1, 3) and not mechanism.is_neighbour(5, 6)


@pytest.mark.statistical
def test_truncated_geometric_samples_follow_its_law():
    n_draws, mechanism = 200_000, TruncatedGeometric(eps="1/10")
    z = mechanism.sample(1, n_draws, np.random.default_rng(2017))
    pmf = Geometric(eps=sympy.log(sympy.Rational(9, 8)), lo=0, hi=5).pmf(1)  # P(1) = 1/17, P(0) = 8/17
    frequencies = np.bincount(z, minlength=6) / n_draws
    assert np.abs(frequencies - [float(pmf[y]) for y in range(6)]).max() < hoeffding(n_draws, 6)  # 0.0064


def test_truncated_geometric_rejects_bad_parameters_naming_the_range():
    assert max_count(sympy.Rational(1, 10)) == 19 and max_count(sympy.Integer(2)) == 61
    assert max_count(GEOSAMPLE_EPS_RANGE[0]) >= 1
    with pytest.raises(InvalidParameterError, match=re.escape("eps must be in [10^-25, 2]")):
        TruncatedGeometric(eps=3)
    with pytest.raises(InvalidParameterError, match=r"n must be an integer in \[1, .*= 19\]"):
        TruncatedGeometric(eps="1/10", n=20)
    with pytest.raises(InvalidParameterError, match=re.escape("x must be an integer in [0, 5]")):
        TruncatedGeometric(eps="1/10").sample(6, 10, np.random.default_rng(0))


@pytest.mark.statistical
def test_prefix_sum_is_the_running_sum_of_laplace_answers():
    # the increments y_j - y_(j-1) - q_j are i.i.d. Lap(1/eps): median 0, P(<= 1/eps) = 1 - e^-1 / 2, independent
    n_draws, eps, q = 100_000, 0.5, np.arange(10.0)
    y = PrefixSum(eps="1/2", m=10).sample(tuple(q), n_draws, np.random.default_rng(2017))
    noise = np.diff(y, axis=1, prepend=0.0) - q
    observed = [*(noise <= 0).mean(axis=0), *(noise <= 1 / eps).mean(axis=0),
                ((noise[:, 0] <= 0) & (noise[:, 1] <= 0)).mean()]
    expected = [0.5] * 10 + [1 - exp(-1) / 2] * 10 + [0.25]
    assert np.abs(np.subtract(observed, expected)).max() < hoeffding(n_draws, 21)


def test_cutoff_svt_validation_names_the_range():
    with pytest.raises(InvalidParameterError, match=re.escape("c must be an integer in [1, 30]")):
        NumericalSVT(eps=1, c=0)
    with pytest.raises(InvalidParameterError, match=re.escape("m must be an integer in [1, 100]")):
        PrefixSum(eps=1, m=101)
    with pytest.raises(InvalidParameterError, match="tuple of 10"):
        SVT34Parallel(eps=1).sample((0,) * 9, 10, np.random.default_rng(0))


def _codes_end_runs(columns: np.ndarray, answered: np.ndarray, stop: float, c: int) -> bool:
    """Every run stops right after its c-th answered "above": ``stop`` fills the columns after it, and only those."""
    after = np.cumsum(answered, axis=1) - answered >= c
    return bool(np.array_equal(columns == stop, after))


@pytest.mark.statistical
def test_numerical_svt_follows_its_definition():
    # eps = 1, c = 2, T = 1, answers 0: rho ~ Lap(3), nu ~ Lap(12), a release q + Lap(6)
    n_draws, mechanism = 200_000, NumericalSVT(eps=1)
    y = mechanism.sample((0,) * 10, n_draws, np.random.default_rng(2017))
    released = (y != 0) & (y != -1000)
    assert _codes_end_runs(y, released, -1000.0, c=2) and released.sum(axis=1).max() == 2
    first = y[released[:, 0], 0]  # released noise is independent of which queries were above
    observed = [released[:, 0].mean(), (first <= 0).mean(), (np.abs(first) <= 6).mean()]
    expected = [laplace_difference_tail(1, 12, 3), 0.5, 1 - exp(-1)]
    assert np.abs(np.subtract(observed, expected)).max() < hoeffding(int(released[:, 0].sum()), 3)


@pytest.mark.statistical
def test_svt34_parallel_follows_its_definition():
    # eps = 1, c = 2, T = 1, answers 0: Algorithm 3 with rho ~ Lap(2), nu ~ Lap(4), Algorithm 4 with rho ~ Lap(4),
    # nu ~ Lap(4/3), on independent noise
    n_draws, mechanism = 200_000, SVT34Parallel(eps=1)
    y = mechanism.sample((0,) * 10, n_draws, np.random.default_rng(2017))
    algorithm3, algorithm4 = y[:, :10], y[:, 10:]
    above3, above4 = algorithm3 > -1000, algorithm4 == 1
    assert _codes_end_runs(algorithm3, above3, -2000.0, c=2) and _codes_end_runs(algorithm4, above4, -1.0, c=2)
    assert set(np.unique(algorithm4)) <= {-1.0, 0.0, 1.0} and np.all(algorithm3[above3] >= -1000)
    p3, p4 = laplace_difference_tail(1, 4, 2), laplace_difference_tail(1, 4 / 3, 4)
    observed = [above3[:, 0].mean(), above4[:, 0].mean(), (above3[:, 0] & above4[:, 0]).mean()]
    assert np.abs(np.subtract(observed, [p3, p4, p3 * p4])).max() < hoeffding(n_draws, 3)


@pytest.mark.statistical
@pytest.mark.parametrize("name, eps, samples, true_eps", [
    ("prefix-sum", "1/10", 60_000, 1.0),                       # m eps at m = 10
    ("truncated-geometric", "1/10", 3_000_000, log(9 / 8)),    # ln(1 + 2^-3)
    ("svt34-parallel", "2", 20_000, float("inf")),             # Algorithm 3's releases: no finite eps
])
def test_dp_sniper_violations_are_caught(name, eps, samples, true_eps):
    # another seed than the claims' (proofs/claims/zoo.py, seed 2017); a valid bound stays below the true eps
    result = audit(make_mechanism(name, raw={"eps": eps}), eps=eps, samples=samples, seed=3, confidence=STRICT)
    assert result.verdict == "violation" and result.recheck(), result
    assert float(sympy.sympify(eps)) < result.epsilon_lower_bound <= true_eps
