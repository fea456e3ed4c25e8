"""Tests of the zoo (dpcert.mechanisms.zoo): shapes, validation, and the audit verdicts the docstrings state.

Audits of private mechanisms run at confidence 1 - 1e-6: a false "violation" has probability <= 1e-6
per audit. Outcomes are deterministic under the fixed seeds.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.mechanisms.zoo import SVT1, SVT4, SVT5, LaplaceExact
from dpcert.proofs.audit import audit

STRICT = 1 - 1e-6
ZOO = sorted(name for name, entry in CATALOG.items() if entry.sampler_only)


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
    with pytest.raises(InvalidParameterError, match=r"eps must be in \[10\^-300, 10000\]"):
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
