"""Tests of the statistical audit (dpcert.proofs.audit).

False-failure probabilities: every "no false violation" test runs the audit at confidence 1 - 1e-6, so
each single audit of a truly private mechanism reports a violation with probability <= 1e-6 (the
Clopper–Pearson/Bonferroni statement); with fixed seeds the outcome is in any case deterministic.
Power tests use fixed seeds and margins checked to be wide (see the measured values in comments).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from scipy.stats import binom

from dpcert.mechanisms.catalog import make_mechanism
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.audit import AuditResult, AuditStopped, audit, cp_lower, cp_upper, eps_lower_bound
from dpcert.proofs.audit import core as audit_core

STRICT = 1 - 1e-6


def _rr(eps="1"):
    return make_mechanism("randomized-response", raw={"eps": eps})


def test_clopper_pearson_matches_reference_values():
    # Reference: exact two-sided 95% CP interval for 5/10 is [0.187086, 0.812914] (Clopper & Pearson
    # 1934 tables; also statsmodels proportion_confint(method="beta")); one-sided bounds at alpha=0.025.
    assert cp_lower(5, 10, 0.025) == pytest.approx(0.187086, abs=1e-6)
    assert cp_upper(5, 10, 0.025) == pytest.approx(0.812914, abs=1e-6)
    assert cp_lower(0, 10, 0.05) == 0.0 and cp_upper(10, 10, 0.05) == 1.0
    # rule of three: the upper 95% bound for 0/n is 1 - 0.05^(1/n)
    assert cp_upper(0, 100, 0.05) == pytest.approx(1 - 0.05 ** (1 / 100), rel=1e-9)
    assert cp_upper(0, 100, 0.05) >= 1 - 0.05 ** (1 / 100)  # rounded outward


def test_eps_lower_bound_formula_and_rounding_down():
    assert eps_lower_bound(0.5, 0.25, 0.0) <= math.log(2)
    assert eps_lower_bound(0.5, 0.25, 0.0) == pytest.approx(math.log(2), rel=1e-12)
    assert eps_lower_bound(0.5, 0.25, 0.25) == pytest.approx(0.0, abs=1e-12)  # (0.5 - 0.25) / 0.25 = 1
    assert eps_lower_bound(0.2, 0.25, 0.0) == 0.0


@pytest.mark.statistical
@pytest.mark.parametrize("make", [
    lambda: _rr("1"),
    lambda: make_mechanism("noisy-max", raw={"eps": 0.5}),
    lambda: make_mechanism("histogram", raw={"eps": 0.5}),
    lambda: make_mechanism("svt1", raw={"eps": 0.5}),
    lambda: make_mechanism("laplace-exact", raw={"eps": 0.5}),
], ids=["randomized-response", "noisy-max", "histogram", "svt1", "laplace-exact"])
def test_no_false_violation_on_private_mechanisms(make):
    # P(false violation) <= 1e-6 per audit (confidence 1 - 1e-6), 4 seeds: <= 4e-6 per mechanism.
    mechanism = make()
    eps = float(mechanism.eps) if hasattr(mechanism, "eps") else 1.0
    for seed in range(4):
        result = audit(mechanism, eps=eps, samples=40_000, seed=seed, confidence=STRICT)
        assert result.verdict == "no-violation-found", result
        assert result.epsilon_lower_bound <= eps


@pytest.mark.statistical
def test_power_on_tight_randomized_response():
    # RR at eps = 1 is tight: the audit at eps = 0.5 must flag it, and its bound must reach 90% of the
    # best bound any event could give at this sample size (measured: 0.957 vs best 0.949 for seed 0).
    mechanism = _rr("1")
    result = audit(mechanism, eps=1, samples=10**5, seed=0, confidence=STRICT)
    assert result.best_possible_lower_bound is not None
    assert 0.9 < result.best_possible_lower_bound < 1
    assert result.epsilon_lower_bound >= 0.9 * result.best_possible_lower_bound
    assert audit(mechanism, eps=0.5, samples=10**5, seed=0, confidence=STRICT).verdict == "violation"


@pytest.mark.statistical
@pytest.mark.parametrize("name,samples", [
    ("svt5", 20_000),                   # measured lower bound 1.6 at 10^4
    ("svt6", 1_000_000),                # measured 0.116 at 10^6 (true eps unbounded in m)
    ("noisy-max-value", 1_000_000),     # measured 0.167 (true 0.25 on 0^5 vs 1^5)
    ("histogram-wrong-scale", 20_000),  # measured 5.6 (true 10)
])
def test_broken_zoo_mechanisms_are_caught_at_eps_0_1(name, samples):
    mechanism = make_mechanism(name, raw={"eps": "0.1"})
    result = audit(mechanism, eps=0.1, samples=samples, seed=3, confidence=STRICT)
    assert result.verdict == "violation", result
    assert result.epsilon_lower_bound > 0.1
    assert result.recheck()


@pytest.mark.statistical
def test_svt3_is_caught_through_a_joint_event():
    # SVT3 releases the noisy answer of the first "above" query: the leak is in the joint event "the first
    # above is the last query AND its released answer is small" (Lyu et al. 2017, Section 4). One-coordinate
    # events miss it (lower bound 0.54 at eps = 1 with 10^6 samples); events joining both coordinates (a conditioned
    # half-line, or the naive Bayes score of the index and the answer's side) catch it at 10^5 (measured 1.19).
    # False-failure probability: a correct mechanism is flagged with probability <= 1 - STRICT = 1e-6.
    result = audit(make_mechanism("svt3", raw={"eps": 1}), eps=1, samples=100_000, seed=7, confidence=STRICT)
    assert result.verdict == "violation" and result.epsilon_lower_bound > 1
    assert "y[0]" in result.witness.event and "y[1]" in result.witness.event and result.recheck()


def test_wrong_scale_laplace_from_catalogue_is_caught():
    result = audit(make_mechanism("laplace-wrong-scale", raw={"eps": "1/2"}), eps="1/2", samples=20_000, seed=1,
                   confidence=STRICT)
    assert result.verdict == "violation" and result.epsilon_lower_bound > 0.5  # true eps = 4


def test_reproducible_and_executor_independent(tmp_path):
    mechanism = make_mechanism("noisy-max-value", raw={"eps": 0.5})
    a = audit(mechanism, eps=0.5, samples=20_000, seed=7, chunk=3_000)
    with ThreadPoolExecutor(2) as pool:
        b = audit(mechanism, eps=0.5, samples=20_000, seed=7, chunk=3_000, executor=pool)
    assert a.witness == b.witness and a.epsilon_lower_bound == b.epsilon_lower_bound
    c = audit(mechanism, eps=0.5, samples=20_000, seed=8, chunk=3_000)
    assert c.witness != a.witness


def test_a_larger_budget_with_the_same_seed_draws_afresh():
    """The budget is part of the stream's entropy: samples = 2000 and 4000 with one seed share no prefix (a repeated
    verdict is then independent evidence), while the same (seed, samples) reproduces every draw."""
    drawn: dict[int, list[np.ndarray]] = {}

    def recording(budget):
        def sampler(x, size, rng):
            out = rng.random(size)
            drawn.setdefault(budget, []).append(out)
            return out
        return sampler

    for budget in (2000, 4000):
        audit(recording(budget), eps=1, pairs=[(0, 1)], samples=budget, seed=3)
    small, large = (np.concatenate(drawn[b][2:]) for b in (2000, 4000))  # after the two rng-check draws
    assert not np.isin(small[:100], large).any()
    again = []
    audit(lambda x, size, rng: again.append(rng.random(size)) or again[-1], eps=1, pairs=[(0, 1)], samples=2000,
          seed=3)
    assert np.array_equal(np.concatenate(again[2:]), small)


def test_a_sampler_that_draws_no_randomness_passes_the_rng_check():
    """A deterministic sampler returns the same outputs for identical generators: it is not refused (and, being
    constant, shows nothing)."""
    result = audit(lambda x, size, rng: np.full(size, x), eps=1, pairs=[(0, 1)], samples=200, seed=0)
    assert result.verdict == "violation"  # a sampler that reveals its input: P(E|x) = 1, P(E|x') = 0


def test_cli_audit_draws_a_fresh_seed_and_prints_it():
    """Without --seed each run draws its own seed and prints it; rerunning with that seed reproduces the run."""
    import json

    runs = [json.loads(_run_cli("audit", "randomized-response", "--eps", "1", "--samples", "2000", "--json").output)
            for _ in range(2)]
    assert runs[0]["seed"] != runs[1]["seed"]
    again = json.loads(_run_cli("audit", "randomized-response", "--eps", "1", "--samples", "2000", "--seed",
                                str(runs[0]["seed"]), "--json").output)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in runs[0].items() if k != "seconds"}


def test_json_save_load_recheck(tmp_path):
    result = audit(make_mechanism("histogram-wrong-scale", raw={"eps": 0.2}), eps=0.2, samples=10_000, seed=2)
    payload = result.as_json()
    for key in ("mechanism", "claimed_eps", "epsilon_lower_bound", "confidence", "verdict", "witness",
                "samples", "seconds"):
        assert key in payload
    path = tmp_path / "audit.json"
    result.save(path)
    loaded = AuditResult.load(path)
    assert loaded == result
    assert loaded.recheck()
    forged = AuditResult.load(path)
    object.__setattr__(forged, "epsilon_lower_bound", forged.epsilon_lower_bound + 1)
    assert not forged.recheck()


def test_plain_sampler_with_pairs():
    def laplace(x, size, rng):
        return x + rng.laplace(0, 1.0, size)

    result = audit(laplace, eps=1, pairs=[(0.0, 1.0)], samples=20_000, seed=0, confidence=STRICT)
    assert result.verdict == "no-violation-found" and result.mechanism == "laplace"
    assert result.pairs_tested == 2  # both directions


def _raises(x, size, rng):
    raise RuntimeError("boom")


def _bad_shape(x, size, rng):
    return np.zeros(size + 1)


def _nans(x, size, rng):
    return np.full(size, np.nan)


def _ok(x, size, rng):
    return rng.random(size) < 0.5


def _global_state(x, size, rng):  # ignores rng: numpy's global generator
    return np.random.random(size) < 0.5


def _python_random(x, size, rng):  # ignores rng: Python's random module
    import random

    return np.array([random.random() < 0.5 for _ in range(size)])


@pytest.mark.parametrize("target,kwargs,match", [
    (_raises, dict(pairs=[(0, 1)]), "sampler raised RuntimeError"),
    (_bad_shape, dict(pairs=[(0, 1)]), "shape"),
    (_nans, dict(pairs=[(0, 1)]), "NaN"),
    (_ok, dict(pairs=[(0, 1)], samples=1), "samples must be an integer in \\[2"),
    (_ok, dict(pairs=[(0, 1)], confidence=1.0), "confidence must be in \\(0, 1\\)"),
    (_ok, dict(pairs=[(0, 1)], confidence=0), "confidence"),
    (_ok, dict(pairs=[(0, 1)], eps=0), "eps must be in"),
    (_ok, dict(pairs=[(0, 1)], eps=-1), "eps must be in"),
    (_ok, dict(pairs=[(0, 1)], eps="1e400"), "eps must be in"),  # float(eps) was inf
    (_ok, dict(pairs=[(0, 1)], samples="1e308"), "samples must be an integer in \\[2, 10\\^7\\]"),  # once a traceback
    (_ok, dict(pairs=[(0, 1)], samples=10**7 + 1), "samples must be an integer in \\[2, 10\\^7\\]"),
    (_ok, dict(pairs=[(i, i + 1) for i in range(0, 20, 2)], samples=10**7), "samples must be an integer in \\[2, 2000000\\]"),
    (_ok, dict(pairs=[(0, 1)], delta=1), "delta must be in"),
    (_ok, dict(pairs=[]), "at least one"),
    (_ok, dict(), "pairs must be given"),
    (_ok, dict(pairs=[(0, 0)]), "two different inputs"),
    (_ok, dict(pairs=[(0, 1)], seed=-1), "seed"),
    (_ok, dict(pairs=[(np.array([0, 1]), np.array([1, 1]))]), "pairs must hold hashable inputs"),  # once a ValueError
    (_global_state, dict(pairs=[(0, 1)]), "randomness from its rng"),
    (_python_random, dict(pairs=[(0, 1)]), "randomness from its rng"),
    ("not callable", dict(pairs=[(0, 1)]), "target"),
    (make_mechanism("histogram", raw={"eps": 1}), dict(pairs=[((0, 0, 0, 0), (2, 0, 0, 0))]), "neighbours"),
    (make_mechanism("k-rr", raw={"k": "3", "eps": "1"}), dict(pairs=[(0, 5)]), "neighbours"),
    (make_mechanism("laplace", raw={"eps": "1"}), dict(pairs=[(0, 3)]), "neighbours"),
])
def test_bad_input(target, kwargs, match):
    arguments = dict(eps=1, samples=100, seed=0) | kwargs
    with pytest.raises(InvalidParameterError, match=match):
        audit(target, **arguments)


def _run_cli(*args):
    import click

    from dpcert.proofs.cli.audit import audit_command

    group = click.Group(commands={"audit": audit_command})
    from click.testing import CliRunner

    return CliRunner().invoke(group, list(args))


def test_cli_audit_exit_codes_and_json():
    import json

    result = _run_cli("audit", "histogram-wrong-scale", "--eps", "0.1", "--samples", "20000", "--seed", "1", "--json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.output)["verdict"] == "violation"
    result = _run_cli("audit", "randomized-response", "--eps", "1", "--samples", "20000", "--confidence", "0.999999")
    assert result.exit_code == 0, result.output
    assert "no-violation-found" in result.output
    result = _run_cli("audit", "svt1", "--param", "m=6", "--eps", "1", "--samples", "2000")
    assert result.exit_code == 0, result.output
    result = _run_cli("audit", "nope", "--eps", "1", "--samples", "100")
    assert isinstance(result.exception, InvalidParameterError)


def test_progress_reports_every_sample_drawn():
    seen = []
    result = audit(make_mechanism("histogram", raw={"eps": 1}), eps=1, samples=10_000, seed=0, chunk=1_000,
                   progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == result.samples
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:]))


@pytest.mark.statistical
@pytest.mark.parametrize("name", ["svt1", "noisy-max", "histogram", "laplace-exact"])
def test_false_positive_rate_over_many_seeds(name):
    # 100 independent audits of a correct mechanism at its own eps, each at confidence 1 - 1e-8: the
    # probability that any of them flags a violation is <= 100 * 1e-8 = 1e-6 (union bound), so none may.
    mechanism = make_mechanism(name, raw={"eps": "1"})
    flagged = [seed for seed in range(100)
               if audit(mechanism, eps=1, samples=2_000, seed=seed, confidence=1 - 1e-8).verdict == "violation"]
    assert flagged == []


@pytest.mark.statistical
def test_false_positive_harness_has_power():
    # the same 100-seed harness on a broken mechanism (histogram with scale eps, claimed 1/10-DP, true eps 10)
    # flags every run: the harness above can fail
    broken = make_mechanism("histogram-wrong-scale", raw={"eps": "1/10"})
    flagged = sum(audit(broken, eps="1/10", samples=2_000, seed=seed, confidence=1 - 1e-8).verdict == "violation"
                  for seed in range(100))
    assert flagged == 100


def test_auto_budget_stops_at_the_first_stage_that_finds_a_violation():
    """samples="auto": 10^4 samples per input already catch histogram-wrong-scale; the stage ran at confidence
    1 - (1 - confidence) / 4 (four budgets in the schedule: a union over every stage that could have run), the result
    states the confidence asked for and the samples drawn in all (5,000 selecting per input, and the confirmation's
    two Poisson sample sizes), and its counts recheck."""
    confidence = 0.999
    result = audit(make_mechanism("histogram-wrong-scale", raw={"eps": "1/10"}), eps="1/10", samples="auto",
                   confidence=confidence, seed=1)
    assert result.verdict == "violation" and result.stages == 1 and result.samples_per_input == 10_000
    assert result.samples == 2 * 5_000 + result.witness.n + result.witness.n_prime
    assert result.confidence == confidence
    assert result.alpha_per_bound == pytest.approx((1 - confidence) / 4)  # one confirmed pair, one bound on its share
    assert result.recheck()


@pytest.mark.statistical
def test_auto_budget_runs_every_stage_on_a_private_mechanism():
    """Randomized response at its true eps = 1, confidence 1 - 1e-6 (a false violation over all four stages with
    probability <= 1e-6): every stage runs, 2 inputs x (10^4 + 10^5 + 10^6 + 10^7) samples, and the last stage's
    bound is within 0.01 of the truth (measured 0.9978)."""
    result = audit(_rr("1"), eps=1, samples="auto", confidence=STRICT, seed=1)
    assert result.verdict == "no-violation-found" and result.stages == 4
    assert _drawn_about(result.samples, [10**4, 10**5, 10**6, 10**7], inputs=2)
    assert 0.99 <= result.epsilon_lower_bound <= 1.0


def _drawn_about(drawn: int, budgets: list[int], *, inputs: int) -> bool:
    """Whether ``drawn`` samples is what staged pure audits of two-input pairs draw at these budgets, up to the
    confirmation's Poisson sizes: half of each budget per input selects (exact), and each stage's two confirmation
    sizes are Poisson(budget / 2), so their sum over the stages has mean sum(budgets) and variance sum(budgets); it
    is off by more than 7 standard deviations with probability < 1e-11 (Poisson tail, Chernoff)."""
    mean = inputs * sum(b // 2 for b in budgets) + sum(b - b // 2 for b in budgets) * 2
    return abs(drawn - mean) <= 7 * math.sqrt(sum(budgets))


_STAGES, _RUNS, _LOOSE = tuple(range(200, 219)), 150, 0.5


def _staged_false_violations(monkeypatch) -> int:
    """Staged audits (20 budgets of 200-219 samples per input, confidence 0.5) of randomized response at its true
    eps = ln 3, one per seed: how many report a violation, i.e. a lower bound above the truth."""
    monkeypatch.setattr(audit_core, "STAGE_BUDGETS", _STAGES)
    mechanism = make_mechanism("randomized-response", raw={"eps": "log(3)"})
    return sum(audit(mechanism, eps="log(3)", samples="auto", max_samples=_STAGES[-1] + 1, confidence=_LOOSE,
                     seed=seed).verdict == "violation" for seed in range(_RUNS))


@pytest.mark.statistical
def test_the_staged_bound_keeps_its_confidence_under_optional_stopping(monkeypatch):
    """Simulation of the error rate: stopping at the first of 20 stages that finds a violation is wrong with
    probability <= 1 - confidence = 0.5, so over 150 independent runs more than binom.isf(1e-6, 150, 0.5) = 104
    false violations has probability <= 1e-6 (measured 5)."""
    assert _staged_false_violations(monkeypatch) <= binom.isf(1e-6, _RUNS, 1 - _LOOSE)


@pytest.mark.statistical
def test_the_optional_stopping_simulation_fails_stages_that_do_not_share_the_confidence(monkeypatch):
    """Power of the check above: every stage at the full confidence 0.5 (no union over the schedule) is fooled by
    optional stopping far more often than half the time (measured 131 of 150 > 104)."""
    monkeypatch.setattr(audit_core, "_stage_confidence", lambda confidence, stages: confidence)
    assert _staged_false_violations(monkeypatch) > binom.isf(1e-6, _RUNS, 1 - _LOOSE)


_SHARE_RUNS, _SHARE_CONFIDENCE = 300, 0.95


def _share_false_violations(monkeypatch=None) -> int:
    """Pure audits (1,000 samples per input, confidence 0.95) of randomized response at its true eps = ln 3, one per
    seed: how many report a violation. Both its events are tight (P(1|1) / P(1|0) = (3/4) / (1/4) = 3), and their
    probabilities are large, where the share bound needs the confirmation's Poisson sizes to be exact."""
    mechanism = make_mechanism("randomized-response", raw={"eps": "log(3)"})
    return sum(audit(mechanism, eps="log(3)", samples=1_000, confidence=_SHARE_CONFIDENCE, seed=seed).verdict
               == "violation" for seed in range(_SHARE_RUNS))


@pytest.mark.statistical
def test_the_share_bound_of_pure_audits_keeps_its_confidence():
    """Simulation of the error rate of the conditional share bound (module docstring of dpcert.proofs.audit.core):
    each run is wrong with probability <= 0.05, so over 300 independent runs more than binom.isf(1e-6, 300, 0.05) = 36
    false violations has probability <= 1e-6 (measured 11, near the 15 a tight bound gives)."""
    assert _share_false_violations() <= binom.isf(1e-6, _SHARE_RUNS, 1 - _SHARE_CONFIDENCE)


@pytest.mark.statistical
def test_the_share_simulation_fails_a_bound_without_its_margin(monkeypatch):
    """Power of the check above: the share's point estimate k / (k + k') in place of its Clopper–Pearson bound is
    above the truth about half the time (measured 148 of 300 > 36)."""
    monkeypatch.setattr(audit_core, "cp_lower", lambda k, n, alpha: k / n)
    assert _share_false_violations() > binom.isf(1e-6, _SHARE_RUNS, 1 - _SHARE_CONFIDENCE)


_DELTA_PAIR = {0: 0.605, 1: 0.3}  # P(1|0) = 2 P(1|1) + 1/200: exactly (ln 2, 1/200)-DP, tight on the event {1}


def _bernoulli_pair(x, size, rng):
    return (rng.random(size) < _DELTA_PAIR[x]).astype(np.int8)


def _delta_false_violations() -> tuple[int, int]:
    """(violations, audits whose confirmation used the share) of 300 (eps, delta) audits (1,000 samples per input,
    confidence 0.95, one per seed) of the Bernoulli pair above at its exact (ln 2, 1/200)."""
    results = [audit(_bernoulli_pair, eps="log(2)", delta="1/200", pairs=[(0, 1)], samples=1_000,
                     confidence=_SHARE_CONFIDENCE, seed=seed) for seed in range(_SHARE_RUNS)]
    return (sum(r.verdict == "violation" for r in results),
            sum(r.witness is not None and r.witness.share_lower is not None for r in results))


@pytest.mark.statistical
def test_the_share_bound_of_eps_delta_audits_keeps_its_confidence():
    """Simulation of the error rate of the share bound with delta (log(s / (1 - s) - delta / p'_lo), each bound at half
    of 1 - confidence; module docstring of dpcert.proofs.audit.core): each run is wrong with probability <= 0.05, so
    over 300 independent runs more than binom.isf(1e-6, 300, 0.05) = 36 false violations has probability <= 1e-6
    (measured 4). The selection chose the share over the two probabilities in most runs (measured 286 of 300), so the
    simulation is of the share bound."""
    violations, by_share = _delta_false_violations()
    assert violations <= binom.isf(1e-6, _SHARE_RUNS, 1 - _SHARE_CONFIDENCE) and by_share >= 250


@pytest.mark.statistical
def test_the_eps_delta_simulation_fails_bounds_without_their_margins(monkeypatch):
    """Power of the check above: point estimates in place of the Clopper–Pearson bounds land above the truth about
    half the time."""
    monkeypatch.setattr(audit_core, "cp_lower", lambda k, n, alpha: k / n)
    monkeypatch.setattr(audit_core, "cp_upper", lambda k, n, alpha: k / n)
    assert _delta_false_violations()[0] > binom.isf(1e-6, _SHARE_RUNS, 1 - _SHARE_CONFIDENCE)


def _leaky(x, size, rng):
    """Fair bits, and under x = 0 an output 2 with probability 1/100 that x = 1 never gives: not (1/10, 1/1000)-DP."""
    out = rng.integers(0, 2, size)
    if x == 0:
        out[rng.random(size) < 0.01] = 2
    return out


def test_an_eps_delta_audit_bounds_an_event_never_seen_under_x_prime_by_the_two_probabilities():
    """The share needs a lower bound on P(E|x') > 0 to bound delta / P(E|x'), which an event never seen under x' lacks;
    the selection sample foresees that and the confirmation bounds the two probabilities instead (k of n = 984 of
    100,506 against 0 of 99,935 at seed 3: eps >= 3.92), where the share's bound on the same counts would be 0."""
    result = audit(_leaky, eps="1/10", delta="1/1000", pairs=[(0, 1)], samples=200_000, confidence=STRICT, seed=3)
    w = result.witness
    assert result.verdict == "violation" and result.recheck() and w.k_prime == 0
    assert w.share_lower is None and w.p_lower is not None and w.p_prime_upper is not None
    by_share = audit_core._confirmed_bound(w.k, w.n, w.k_prime, w.n_prime, result.alpha_per_bound, result.claimed_delta,
                                           method="share")
    assert by_share[0] == 0.0 < result.epsilon_lower_bound


def _rare_leak(x, size, rng):
    """Fair bits, and an output 2 with probability 1/100 under x = 0 and 4e-6 under x = 1."""
    out = rng.integers(0, 2, size)
    out[rng.random(size) < (0.01 if x == 0 else 4e-6)] = 2
    return out


def test_an_eps_delta_audit_does_not_stake_its_bound_on_an_event_seen_a_few_times_under_x_prime(monkeypatch):
    """The event {2} falls about twice in the confirmation's 500,000 outputs of x = 1: the share's bound, which needs
    P(E|x') bounded from below, is 0 whenever the confirmation sees none (probability e^-2 = 0.14); the two
    probabilities' bound is about 6.4 whatever. The method is chosen on the counts the selection sample predicts
    (negative binomial), not at their means, so every seed bounds the leak (measured at least 6.00 over 60 seeds, the
    share never chosen); the share forced gives 0 at seed 13 (power check)."""
    def bound(seed: int) -> float:
        return audit(_rare_leak, eps="1/10", delta="1e-6", pairs=[(0, 1)], samples=1_000_000, confidence=0.9,
                     seed=seed).epsilon_lower_bound

    assert min(bound(seed) for seed in range(20)) > 6
    monkeypatch.setattr(audit_core, "_method_of", lambda *args: "share")
    assert bound(13) == 0.0


def test_the_recheck_refuses_a_witness_whose_bounds_do_not_match_its_method():
    """A (eps, delta) share witness without its bound on P(E|x'), or a pure one that carries one, is not re-derivable."""
    import dataclasses

    result = audit(_bernoulli_pair, eps="log(2)", delta="1/200", pairs=[(0, 1)], samples=100_000, confidence=STRICT,
                   seed=1)
    assert result.witness.share_lower is not None and result.witness.p_prime_lower is not None and result.recheck()
    assert not dataclasses.replace(result, witness=dataclasses.replace(result.witness, p_prime_lower=None)).recheck()
    assert not dataclasses.replace(result, claimed_delta=0.0).recheck()


def test_max_samples_caps_the_staged_budget_and_only_it():
    result = audit(_rr("1"), eps=1, samples="auto", max_samples=50_000, confidence=STRICT, seed=1)
    assert result.stages == 2 and result.samples_per_input == 50_000
    assert _drawn_about(result.samples, [10**4, 50_000], inputs=2)
    with pytest.raises(InvalidParameterError, match=r"max_samples must be an integer in \[2, 10\^7\]"):
        audit(_rr("1"), eps=1, samples="auto", max_samples=10**8, seed=1)
    with pytest.raises(InvalidParameterError, match="max_samples applies to samples='auto' only"):
        audit(_rr("1"), eps=1, samples=1000, max_samples=5000, seed=1)


def _gaussian_eps(sigma: float, delta: float) -> float:
    """The exact eps(delta) of x + N(0, sigma^2) for |x - x'| <= 1 (Balle and Wang, ICML 2018, Theorem 8:
    delta = Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)), by brentq."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    def excess(eps: float) -> float:
        return norm.cdf(0.5 / sigma - eps * sigma) - math.exp(eps) * norm.cdf(-0.5 / sigma - eps * sigma) - delta

    return brentq(excess, 0.0, 50.0, xtol=1e-12)


_SIGMA_1 = 3.7306316348161808  # eps(1e-5) = 1 by the formula above (checked in the test)


@pytest.mark.statistical
def test_an_eps_delta_audit_of_the_gaussian_mechanism_neither_flags_it_nor_misses_a_weaker_one():
    """(eps, delta) = (1, 1e-5) and confidence 1 - 1e-6: the Gaussian mechanism calibrated to it is not flagged
    (probability <= 1e-6) and its bound comes within 0.3 of the truth (measured 0.749 at 4 * 10^6 samples per input
    by the share; 0.69 by the two probabilities); the same claim for sigma two thirds as large (true eps(1e-5) = 1.56)
    is refuted (measured 1.18; 1.14)."""
    assert _gaussian_eps(_SIGMA_1, 1e-5) == pytest.approx(1.0, abs=1e-9)
    mechanism = make_mechanism("gaussian", raw={"sigma": repr(_SIGMA_1)})
    honest = audit(mechanism, eps=1, delta="1e-5", samples=4_000_000, confidence=STRICT, seed=1)
    assert honest.verdict == "no-violation-found" and honest.epsilon_lower_bound > 0.7
    weaker = make_mechanism("gaussian", raw={"sigma": repr(_SIGMA_1 * 2 / 3)})
    assert _gaussian_eps(_SIGMA_1 * 2 / 3, 1e-5) > 1.5
    caught = audit(weaker, eps=1, delta="1e-5", samples=4_000_000, confidence=STRICT, seed=1)
    assert caught.verdict == "violation" and caught.recheck()


def test_a_staged_audit_whose_sampler_fails_later_keeps_the_finished_stages():
    """A sampler that raises once asked for 10^5 samples: the first stage (10^4 per input) is kept in the error, valid
    at the confidence asked for (stopping there is one of the schedule's stopping points)."""
    def fragile(x, size, rng):
        if size > 20_000:  # chunks of the second stage's selection half (50,000 per input)
            raise RuntimeError("out of entropy")
        return rng.binomial(1, 0.5 + 0.1 * x, size)

    message = r"out of entropy \(in stage 2, 100000 samples per input; the 1 finished stages found an eps lower bound"
    with pytest.raises(AuditStopped, match=message) as stopped:
        audit(fragile, eps=1, pairs=[(0, 1)], samples="auto", confidence=0.99, seed=1, chunk=50_000)
    partial = stopped.value.partial
    assert partial.stages == 1 and partial.samples == 2 * 5_000 + partial.witness.n + partial.witness.n_prime
    assert partial.confidence == 0.99 and partial.recheck()
    with pytest.raises(InvalidParameterError, match="out of entropy") as first:  # nothing finished: the plain error
        audit(lambda x, size, rng: fragile(x, 10**6, rng), eps=1, pairs=[(0, 1)], samples="auto", seed=1)
    assert not isinstance(first.value, AuditStopped)


def _os_laplace(x, size, rng):
    """x + Lap(1) from a generator seeded by the operating system on every call (ignores ``rng``, as OpenDP and
    python-dp do); a 1-DP sampler for |x - x'| <= 1."""
    return x + np.random.default_rng().laplace(0.0, 1.0, size)


@pytest.mark.statistical
def test_a_sampler_of_os_entropy_is_audited_with_randomness_os():
    """Refused by default (it ignores its rng); accepted with randomness="os", recorded so; at its true eps = 1 and
    confidence 1 - 1e-6 not flagged (probability <= 1e-6), and against a claim of 1/2 refuted (measured bounds near
    0.9 at 10^5 samples per input; the streams are fresh, so these numbers vary from run to run)."""
    with pytest.raises(InvalidParameterError, match="must draw all its randomness from its rng"):
        audit(_os_laplace, eps=1, pairs=[(0.0, 1.0)], samples=1000, seed=0)
    honest = audit(_os_laplace, eps=1, pairs=[(0.0, 1.0)], samples=100_000, confidence=STRICT, seed=0,
                   randomness="os")
    assert honest.randomness == "os" and honest.verdict == "no-violation-found"
    assert audit(_os_laplace, eps="1/2", pairs=[(0.0, 1.0)], samples=100_000, confidence=STRICT, seed=0,
                 randomness="os").verdict == "violation"


def test_randomness_os_refuses_repeated_noise_an_executor_and_other_words():
    with pytest.raises(InvalidParameterError, match="fresh noise on every call"):
        audit(lambda x, size, rng: np.full(size, float(x)), eps=1, pairs=[(0, 1)], samples=1000, seed=0,
              randomness="os")
    with ThreadPoolExecutor(2) as pool, pytest.raises(InvalidParameterError, match="executor cannot be combined"):
        audit(_os_laplace, eps=1, pairs=[(0.0, 1.0)], samples=1000, seed=0, randomness="os", executor=pool)
    with pytest.raises(InvalidParameterError, match="randomness must be 'rng' or 'os'"):
        audit(_os_laplace, eps=1, pairs=[(0.0, 1.0)], samples=1000, seed=0, randomness="system")


def test_a_word_other_than_auto_is_not_a_budget():
    with pytest.raises(InvalidParameterError, match="samples must be an integer"):
        audit(_ok, eps=1, pairs=[(0, 1)], samples="many", seed=0)
