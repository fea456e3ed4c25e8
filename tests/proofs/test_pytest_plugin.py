"""Tests for the dpcert pytest plugin (dpcert.proofs.pytest_plugin), run through pytest's own ``pytester``.

False-failure probability of the statistical tests here: every assert_dp call on a correct mechanism
uses the defaults (3 votes at 1 - 1e-6), so fails falsely with probability <= 3e-12 (tested below).
"""

pytest_plugins = ["pytester"]

import math
from fractions import Fraction

import numpy as np
import pytest

from dpcert.proofs import audit as audit_module
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.zoo import Histogram, HistogramWrongScale
from dpcert.proofs.pytest_plugin import (
    DPAssertionError,
    assert_dp,
    assert_metric_dp,
    false_failure_bound,
)

GENERATED = '''
from hypothesis import given, settings
from dpcert.mechanisms.zoo import Histogram, HistogramWrongScale
from dpcert.proofs.pytest_plugin import assert_dp
from dpcert.proofs.strategies import histogram_pairs

def test_correct_histogram(dp_assert):
    dp_assert.dp(Histogram(eps="1/2"), "1/2")

@settings(max_examples=3, database=None)
@given(histogram_pairs(bins=4, max_count=2))
def test_correct_histogram_inside_given(pair):
    assert_dp(Histogram(eps="1/2"), "1/2", pairs=[pair], samples=2000)

def test_wrong_scale():
    assert_dp(HistogramWrongScale(eps="1/2"), "1/2")
'''


def test_generated_file_passes_on_correct_and_fails_on_wrong_scale_with_the_witness(pytester):
    pytester.makepyfile(GENERATED)
    result = pytester.runpytest("-p", "no:cacheprovider", "--tb=short", "--dpcert-derandomize")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*DPAssertionError: histogram-wrong-scale(eps=1/2, bins=4) violates (1/2, 0)-DP: 3 of 3 independent audits*",
        "*eps lower bound * > claimed 0.5 at confidence 0.999999",
        "*witness: x=(*), x'=(*), event *: P(E|x) / (P(E|x) + P(E|x')) >= * (* of the * outputs in E came from x; *)",
    ])


FAILING = '''
from dpcert.proofs.pytest_plugin import assert_dp, assert_metric_dp

def leaky(x, size, rng):
    return x + rng.laplace(0.0, 0.01, size)  # noise 1/100 of the claimed scale: refuted at any seed

def test_dp():
    assert_dp(leaky, "1/10", pairs=[(0.0, 1.0)], samples=500, seed=1)  # THE USER'S LINE dp

def test_metric_dp():
    assert_metric_dp(leaky, "1/10", metric=lambda a, b: abs(a - b), pairs=[(0.0, 1.0)], samples=500, seed=1)  # metric

def test_bad_argument():
    assert_dp(leaky, "1/10", pairs=[(0.0, 1.0)], samples=500, votes=0)  # THE USER'S LINE votes
'''


@pytest.mark.parametrize("style", ["long", "short", "auto"])
def test_a_failure_shows_the_users_line_not_the_plugins_frames(pytester, style):
    # __tracebackhide__ in the public assertions and the helpers that raise: the traceback stops at the test
    pytester.makepyfile(FAILING)
    result = pytester.runpytest("-p", "no:cacheprovider", f"--tb={style}")
    result.assert_outcomes(failed=3)
    out = result.stdout.str()
    assert out.count("# THE USER'S LINE") == 2 and "# metric" in out and "DPAssertionError" in out
    assert "pytest_plugin.py" not in out and "_decide" not in out and "_check_votes" not in out, out


SAMPLE_COUNTER = '''
import numpy as np
from dpcert.proofs.pytest_plugin import assert_dp

SIZES = []

def sampler(x, size, rng):
    SIZES.append(size)
    return x + rng.laplace(0.0, 2.0, size)

def test_budget():
    results = assert_dp(sampler, "1/2", pairs=[(0.0, 1.0)], votes=3, seed=1)
    (per_input,) = {r.samples_per_input for r in results}
    # 2 inputs x 3 votes, each input drawn `samples` times on average (a selection half, and a confirmation of
    # Poisson(samples / 2) size); each vote's check that the sampler draws from its rng (two draws of 64 on one input)
    # is not part of the budget. The confirmation sizes' sum (variance 3 * samples) is off by more than 7 sd with
    # probability < 1e-11.
    total = sum(SIZES) - 3 * 2 * 64
    print("BUDGET", per_input, abs(total - 6 * per_input) <= 7 * (3 * per_input) ** 0.5)
'''


def test_dpcert_samples_option_sets_the_default_budget(pytester):
    pytester.makepyfile(SAMPLE_COUNTER)
    pytester.runpytest("-s", "-p", "no:cacheprovider", "--dpcert-samples=500").stdout.fnmatch_lines(["*BUDGET 500 True"])
    pytester.runpytest("-s", "-p", "no:cacheprovider").stdout.fnmatch_lines(["*BUDGET 20000 True"])


SEEDS = '''
from dpcert.proofs.pytest_plugin import assert_dp

def sampler(x, size, rng):
    return x + rng.laplace(0.0, 2.0, size)

def test_seeds():
    results = assert_dp(sampler, "1/2", pairs=[(0.0, 1.0)], samples=100)
    print("SEEDS", [r.seed for r in results])
'''


def _seeds(pytester, *args):
    out = pytester.runpytest("-s", "-p", "no:cacheprovider", *args).stdout.str()
    return next(line for line in out.splitlines() if "SEEDS [" in line)


def test_derandomized_profile_fixes_seeds_from_the_node_id(pytester, monkeypatch):
    pytester.makepyfile(SEEDS)
    monkeypatch.delenv("CI", raising=False)
    fixed = _seeds(pytester, "--dpcert-derandomize")
    assert fixed == _seeds(pytester, "--dpcert-derandomize")
    assert _seeds(pytester) != _seeds(pytester)  # fresh entropy without the profile
    monkeypatch.setenv("CI", "true")
    assert _seeds(pytester) == fixed  # CI set: the same derandomised seeds


def _binomial_tail(votes: int, f: Fraction, k: int) -> Fraction:
    return sum((math.comb(votes, i) * f**i * (1 - f) ** (votes - i) for i in range(k, votes + 1)), Fraction(0))


@pytest.mark.parametrize("votes", range(1, 9))
@pytest.mark.parametrize("f", [Fraction(1, 10**6), Fraction(1, 100), Fraction(1, 5)])
def test_false_failure_bound_dominates_the_exact_majority_tail(votes, f):
    # P(at least a strict majority of `votes` independent audits err), each with probability exactly f
    tail = _binomial_tail(votes, f, votes // 2 + 1)
    m = math.ceil(votes / 2)
    assert false_failure_bound(votes, float(f)) == pytest.approx(math.comb(votes, m) * float(f) ** m, rel=1e-12)
    assert float(tail) <= false_failure_bound(votes, float(f)) * (1 + 1e-12)


def test_false_failure_bound_default_value():
    assert false_failure_bound(3, 1e-6) == pytest.approx(3e-12, rel=1e-12)  # C(3, 2) * (1e-6)^2


class _Verdicts:
    """Replaces dpcert.proofs.audit.audit: returns "violation" for the calls whose index is listed."""

    def __init__(self, violating: set[int], real):
        self.violating, self.real, self.calls = violating, real, 0

    def __call__(self, *args, **kwargs):
        result = self.real(*args, **kwargs)
        verdict = "violation" if self.calls in self.violating else "no-violation-found"
        self.calls += 1
        return type(result)(**{**result.__dict__, "verdict": verdict})


@pytest.mark.parametrize("votes, violating, fails", [
    (3, {0}, False), (3, {0, 2}, True), (1, {0}, True), (4, {1, 3}, False), (4, {0, 1, 3}, True),
])
def test_assertion_fails_only_on_a_strict_majority(monkeypatch, votes, violating, fails):
    fake = _Verdicts(violating, audit_module.audit)
    monkeypatch.setattr(audit_module, "audit", fake)
    call = lambda: assert_dp(Histogram(eps=1), 1, samples=200, votes=votes, seed=3)
    if fails:
        with pytest.raises(DPAssertionError, match=f"{len(violating)} of {votes} independent audits"):
            call()
    else:
        assert len(call()) == votes
    assert fake.calls == votes


def _laplace(scale: float):
    def sampler(x, size, rng):
        return x + rng.laplace(0.0, scale, size)
    return sampler


@pytest.mark.statistical
def test_assert_metric_dp_passes_laplace_and_fails_the_wrong_scale():
    # Laplace with scale 1/eps is eps-metric-DP for |x - x'| (Chatzikokolakis et al. 2013, Section 4)
    pairs = [(0.0, 1.0), (0.0, 3.0)]
    assert_metric_dp(_laplace(2.0), "1/2", metric=lambda a, b: abs(a - b), pairs=pairs, samples=20_000, seed=5)
    metric = Metric.from_matrix([0.0, 1.0, 3.0], [[0, 1, 3], [1, 0, 2], [3, 2, 0]])
    with pytest.raises(DPAssertionError, match="violates 1/2-metric-DP"):
        assert_metric_dp(_laplace(0.5), "1/2", metric=metric, pairs=pairs, samples=20_000, seed=5)


@pytest.mark.statistical
def test_assert_dp_power_on_the_zoo_with_fixed_seed():
    assert_dp(Histogram(eps="1/2"), "1/2", seed=11)
    with pytest.raises(DPAssertionError, match="witness: x="):
        assert_dp(HistogramWrongScale(eps="1/2"), "1/2", seed=11)


@pytest.mark.parametrize("kwargs, message", [
    ({"votes": 0}, "votes must be an integer in [1"),
    ({"false_failure": 1.0}, "false_failure must be in (0, 1)"),
    ({"false_failure": True}, "false_failure must be in (0, 1)"),
    ({"seed": -1}, "seed must be an integer in [0"),
])
def test_invalid_arguments(kwargs, message):
    with pytest.raises(InvalidParameterError, match=__import__("re").escape(message)):
        assert_dp(Histogram(eps=1), 1, samples=100, **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"metric": "abs", "pairs": [(0.0, 1.0)]}, "metric must be"),
    ({"metric": abs, "pairs": []}, "pairs must be a non-empty list"),
    ({"metric": lambda a, b: 0, "pairs": [(0.0, 1.0)]}, "must be > 0"),
])
def test_invalid_metric_arguments(kwargs, message):
    with pytest.raises(InvalidParameterError, match=__import__("re").escape(message)):
        assert_metric_dp(_laplace(1.0), 1, samples=100, **kwargs)


def test_samples_per_input_is_what_the_audit_draws():
    results = assert_dp(_laplace(2.0), "1/2", pairs=[(0.0, 1.0)], samples=1000, votes=2, seed=0)
    assert [r.samples_per_input for r in results] == [1000, 1000] and len({r.seed for r in results}) == 2
    assert np.all([r.confidence == 1 - 1e-6 for r in results])
