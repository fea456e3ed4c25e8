"""A pytest plugin: statistical DP assertions with a stated false-failure probability.

Loaded automatically (entry point ``pytest11: dpcert``). It provides

- :func:`assert_dp` and :func:`assert_metric_dp`, importable and usable anywhere, including inside
  hypothesis ``@given`` tests (no fixture needed), and the fixture ``dp_assert`` that returns them;
- ``--dpcert-samples N``: the sample budget per input used when a call does not pass ``samples``;
- ``--dpcert-derandomize`` (also on whenever the environment variable ``CI`` is set): seeds not passed
  explicitly are derived from the test's node id, so CI runs are reproducible.

A failing assertion's traceback ends at the test's own line: the plugin's frames are hidden
(``__tracebackhide__``), as pytest's own helpers do.

False-failure statement. Each assertion runs ``votes`` audits with independent derived seeds, each at
confidence 1 - f (f = ``false_failure``), and fails only when a strict majority, k = floor(votes/2) + 1,
report a violation. For a mechanism that does satisfy the claim, each audit reports a violation with
probability <= f (the audit's lower bound exceeds the true eps with probability <= 1 - confidence), so
by a union bound over the sets of k audits,

    P(false failure) <= C(votes, k) f^k <= C(votes, m) f^m,   m = ceil(votes / 2)

(equal for odd votes; for even votes the first bound is the tighter one). With the defaults
votes = 3, f = 1e-6 this is 3e-12. See :func:`false_failure_bound`.

References: the audit's error statement is in :mod:`dpcert.proofs.audit.core` (Ding et al., CCS 2018;
Bichsel et al., S&P 2021, Section 5).
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from collections.abc import Callable, Hashable, Sequence

import pytest

__all__ = ["DEFAULT_SAMPLES", "DPAssertionError", "assert_dp", "assert_metric_dp", "false_failure_bound"]

DEFAULT_SAMPLES = 20_000
"""Samples per input of each audit when neither the call nor ``--dpcert-samples`` gives a budget."""

_SEED_BITS = 63
# (samples override or None, derandomize) of the active pytest runs; nested runs (pytester) push and pop.
_SETTINGS: list[tuple[int | None, bool]] = []
_PUSHED = pytest.StashKey[bool]()


class DPAssertionError(AssertionError):
    """A majority of the audits found a violation; the message carries the witness."""


def false_failure_bound(votes: int, false_failure: float) -> float:
    """The documented bound C(votes, m) * false_failure^m, m = ceil(votes / 2), on a false failure.

    See the module docstring for why it holds (a strict majority needs floor(votes/2) + 1 >= m audits).
    """
    votes, false_failure = _check_votes(votes, false_failure)
    m = math.ceil(votes / 2)
    return math.comb(votes, m) * false_failure ** m


def _check_votes(votes: object, false_failure: object) -> tuple[int, float]:
    __tracebackhide__ = True
    from dpcert.mechanisms.parameters import InvalidParameterError, require_int

    votes = require_int("votes", votes, minimum=1, maximum=101)
    if isinstance(false_failure, bool) or not isinstance(false_failure, (int, float)) or not 0 < false_failure < 1:
        raise InvalidParameterError(f"false_failure must be in (0, 1). Got {false_failure!r}")
    return votes, float(false_failure)


def _current() -> tuple[int | None, bool]:
    if _SETTINGS:
        return _SETTINGS[-1]
    return None, bool(os.environ.get("CI"))


def _base_seed(seed: int | None, label: str) -> int:
    """The explicit seed; else one from the test's node id (derandomised runs); else fresh entropy."""
    __tracebackhide__ = True
    if seed is not None:
        from dpcert.mechanisms.parameters import require_int

        return require_int("seed", seed, minimum=0)
    if _current()[1]:
        node = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        digest = hashlib.sha256(f"{node}\0{label}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> (64 - _SEED_BITS)
    return secrets.randbits(_SEED_BITS)


def _vote_seeds(base: int, votes: int) -> list[int]:
    import numpy as np

    return [int(child.generate_state(1, np.uint64)[0]) >> (64 - _SEED_BITS)
            for child in np.random.SeedSequence(base).spawn(votes)]


def _samples(samples: int | None) -> int:
    if samples is not None:
        return samples
    override = _current()[0]
    return DEFAULT_SAMPLES if override is None else override


def _label(mechanism: object) -> str:
    describe = getattr(mechanism, "describe", None)
    if callable(describe):
        return str(describe())
    return str(getattr(mechanism, "name", None) or getattr(mechanism, "__name__", "sampler"))


def _decide(runs: list[list], votes: int, false_failure: float, claim: str, label: str, base: int,
            budget: int) -> list:
    """Fail when a strict majority of the votes (each a list of audit results) contain a violation."""
    __tracebackhide__ = True
    flagged = [run for run in runs if any(r.verdict == "violation" for r in run)]
    if len(flagged) < votes // 2 + 1:
        return [r for run in runs for r in run]
    worst = max((r for run in flagged for r in run), key=lambda r: r.epsilon_lower_bound)
    w = worst.witness
    raise DPAssertionError(
        f"{label} violates {claim}: {len(flagged)} of {votes} independent audits found a violation "
        f"(false-failure probability <= {false_failure_bound(votes, false_failure):.3g}).\n"
        f"  eps lower bound {worst.epsilon_lower_bound:.6g} > claimed {worst.claimed_eps:.6g} "
        f"at confidence {worst.confidence}\n"
        f"  witness: x={w.x!r}, x'={w.x_prime!r}, event {w.event}: {w.bounds_text()}\n"
        f"  samples per input {budget}, base seed {base} (pass seed={base} to reproduce)")


def assert_dp(mechanism: object, eps: object, *, delta: object = 0,
              pairs: Sequence[tuple[Hashable, Hashable]] | None = None, samples: int | None = None,
              false_failure: float = 1e-6, votes: int = 3, seed: int | None = None) -> list:
    """Assert that ``mechanism`` looks (eps, delta)-DP to ``votes`` independent statistical audits.

    Fails (raises :class:`DPAssertionError`, an AssertionError, with the witness) only when a strict
    majority of the audits refute the claim; the false-failure probability of one assertion is at most
    :func:`false_failure_bound` ``(votes, false_failure)`` (3e-12 with the defaults).

    Args:
        mechanism: a Mechanism or a sampler ``f(x, size, rng)``, as for :func:`dpcert.proofs.audit.audit`.
        eps, delta: the claim.
        pairs: neighbouring (x, x') pairs; default as in :func:`dpcert.proofs.audit.audit`.
        samples: samples per input of each audit; default ``--dpcert-samples`` or :data:`DEFAULT_SAMPLES`.
        false_failure: 1 - the confidence of each audit, in (0, 1).
        votes: number of independent audits (>= 1).
        seed: root seed of the votes; default from the node id (``CI`` / ``--dpcert-derandomize``) or fresh.

    Returns:
        Every audit's :class:`~dpcert.proofs.audit.AuditResult` when the assertion passes.
    """
    __tracebackhide__ = True  # pytest shows a failure at the caller's line, not in the plugin's frames
    from dpcert.proofs.audit import audit

    votes, false_failure = _check_votes(votes, false_failure)
    label = _label(mechanism)
    base = _base_seed(seed, f"{label}|{eps}|{delta}")
    budget = _samples(samples)
    runs = [[audit(mechanism, eps=eps, delta=delta, pairs=pairs, samples=budget, confidence=1 - false_failure,
                   seed=s)] for s in _vote_seeds(base, votes)]
    return _decide(runs, votes, false_failure, f"({eps}, {delta})-DP", label, base, budget)


def assert_metric_dp(mechanism: object, eps: object, *, metric: object, pairs: Sequence[tuple[Hashable, Hashable]],
                     samples: int | None = None, false_failure: float = 1e-6, votes: int = 3,
                     seed: int | None = None) -> list:
    """Assert that ``mechanism`` looks eps-metric-DP: P(E | x) <= exp(eps d(x, x')) P(E | x') on ``pairs``.

    Each vote audits every pair separately at eps * d(x, x') with confidence 1 - false_failure / len(pairs)
    (Bonferroni), so a vote flags a correct mechanism with probability <= false_failure and the bound of
    :func:`false_failure_bound` holds as for :func:`assert_dp`. The pairs need not be neighbours of the
    mechanism's own relation: its ``sample`` is audited as a black box.

    Args:
        metric: a :class:`dpcert.mechanisms.neighbours.Metric` or a function d(x, x') > 0.
        pairs: the (x, x') pairs to compare (both directions are tested).

    References: Chatzikokolakis et al., "Broadening the scope of differential privacy using metrics"
    (PETS 2013), Definition 1.
    """
    __tracebackhide__ = True
    from dpcert.mechanisms.base import Mechanism
    from dpcert.mechanisms.neighbours import Metric
    from dpcert.mechanisms.parameters import InvalidParameterError, require_positive
    from dpcert.proofs.audit import audit

    votes, false_failure = _check_votes(votes, false_failure)
    eps_exact = require_positive("eps", eps)
    distance: Callable[[Hashable, Hashable], object]
    if isinstance(metric, Metric):
        distance = metric.exact_distance
    elif callable(metric):
        distance = metric
    else:
        raise InvalidParameterError(f"metric must be a Metric or a function d(x, x'). Got {metric!r}")
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Sequence) or not pairs:
        raise InvalidParameterError(f"pairs must be a non-empty list of (x, x') pairs. Got {pairs!r}")
    scaled = []
    for pair in pairs:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InvalidParameterError(f"pairs must be (x, x') pairs. Got {pair!r} among them")
        x, x2 = pair
        scaled.append(((x, x2), require_positive(f"d({x!r}, {x2!r})", distance(x, x2)) * eps_exact))
    label = _label(mechanism)
    sampler = mechanism.sample if isinstance(mechanism, Mechanism) else mechanism
    base = _base_seed(seed, f"{label}|metric|{eps}")
    budget = _samples(samples)
    confidence = 1 - false_failure / len(scaled)
    runs = []
    for s in _vote_seeds(base, votes):
        seeds = _vote_seeds(s, len(scaled))
        runs.append([audit(sampler, eps=scaled_eps, pairs=[pair], samples=budget, confidence=confidence,
                           seed=pair_seed, name=label)
                     for (pair, scaled_eps), pair_seed in zip(scaled, seeds)])
    return _decide(runs, votes, false_failure, f"{eps}-metric-DP", label, base, budget)


# ---------------------------------------------------------------------------------------------
# pytest hooks
# ---------------------------------------------------------------------------------------------

def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dpcert", "statistical differential-privacy assertions")
    group.addoption("--dpcert-samples", type=int, default=None, metavar="N",
                    help=f"samples per input for assert_dp / assert_metric_dp calls that do not pass samples "
                         f"(default {DEFAULT_SAMPLES})")
    group.addoption("--dpcert-derandomize", action="store_true", default=False,
                    help="derive unspecified seeds from the test node id (also on when $CI is set)")


def pytest_configure(config: pytest.Config) -> None:
    samples = config.getoption("dpcert_samples", None)
    if samples is not None and samples < 2:
        raise pytest.UsageError(f"--dpcert-samples must be an integer >= 2. Got {samples}")
    derandomize = bool(config.getoption("dpcert_derandomize", False)) or bool(os.environ.get("CI"))
    _SETTINGS.append((samples, derandomize))
    config.stash[_PUSHED] = True


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_PUSHED, False) and _SETTINGS:
        _SETTINGS.pop()



class _Assertions:
    """What the ``dp_assert`` fixture returns: ``dp_assert.dp(...)`` and ``dp_assert.metric_dp(...)``."""

    dp = staticmethod(assert_dp)
    metric_dp = staticmethod(assert_metric_dp)
    false_failure_bound = staticmethod(false_failure_bound)


@pytest.fixture
def dp_assert() -> _Assertions:
    """The plugin's assertions: ``dp_assert.dp`` is :func:`assert_dp`, ``dp_assert.metric_dp``
    :func:`assert_metric_dp`."""
    return _Assertions()
