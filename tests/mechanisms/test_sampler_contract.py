"""The sampler contract, run over every concrete mechanism that is not finite.

Continuous mechanisms, the auditing zoo and the seed papers' samplers (PrivEMDLinear, FreqEstLocal, the
bounded-EMD reduction, PrivaCT's reports) have no pmf for the finite contract of test_mechanisms.py; what
every one of them owes its users is this: a frozen dataclass with a unique name, reproducible draws for a
seed, one row per draw, finite values, and a clear error for a bad sample size.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy

from conftest import concrete_subclasses

from dpcert.mechanisms import CATALOG, FiniteMechanism, InvalidParameterError, Mechanism, make_mechanism
from dpcert.mechanisms.metric_user_level import (
    BoundedEMDReduction,
    CentralLaplaceHistogram,
    DuchiLinearQuery,
    FreqEstLocal,
    GeneralizedKRR,
    HadamardFreqEst,
    HadamardResponse,
    KNormMechanism,
    PrivEMDItemWise,
    PrivEMDLinear,
)
from dpcert.mechanisms.privact import AdjacencyRandomizedResponse, NoisyDegreeVector

R = sympy.Rational
_GKRR = GeneralizedKRR(1, 2, 2, R(1, 4))

# Every catalogued sampler with its default parameters, and an input it accepts.
_CATALOGUED_INPUTS = {"laplace": 0, "laplace-wrong-scale": 0, "gaussian": 0}

# Samplers built from other objects, each with an input it accepts.
BUILT_SAMPLERS = {
    "priv-emd-linear[l1]": (lambda: PrivEMDLinear(F=[[0, 1, 0, 0], [0, 0, 0, 1]],
                                                  distance=_GKRR.metric.matrix.tolist(), alpha=2), (2, 0, 1, 1)),
    "freq-est-local[gkrr]": (lambda: FreqEstLocal(_GKRR), np.array([[0, 0, 1, 3], [2, 2, 3, 1]])),
    "bounded-emd-reduction[itemwise]": (lambda: BoundedEMDReduction(PrivEMDItemWise(_GKRR, 6), 3),
                                        [[0], [1, 2, 3, 3, 3]]),
    "privact-degree-vector[K=2]": (lambda: NoisyDegreeVector((0, 1, 1, 0), 2, 0, R(1, 2)), (0, 1, 1, 0)),
    "privact-strawman-rr": (lambda: AdjacencyRandomizedResponse(), (0, 1, 1, 0)),
    "hadamard-freq-est[k=4]": (lambda: HadamardFreqEst(HadamardResponse(4, 1)), np.array([[0, 0, 1], [3, 2, 2]])),
    "central-laplace-histogram[k=3]": (lambda: CentralLaplaceHistogram(1, 3), np.array([[0, 1], [2, 2]])),
    "duchi-linear-query[d=2]": (lambda: DuchiLinearQuery([[1, 0, R(1, 2)], [0, 1, R(1, 2)]], 1), [0, 2, 1]),
    "knorm[d=2]": (lambda: KNormMechanism([[1, 0, 0], [0, 1, R(1, 2)]], 1), np.array([[0, 1], [2, 2]])),
}


def _catalogued(name: str) -> tuple[Mechanism, object]:
    entry = CATALOG[name]
    raw = {p.name: "1" for p in entry.parameters if p.default is None}
    mechanism = make_mechanism(name, raw=raw)
    x = _CATALOGUED_INPUTS[name] if name in _CATALOGUED_INPUTS else mechanism.neighbour_pairs()[0][0]
    return mechanism, x


_SAMPLER_NAMES = sorted(name for name, entry in CATALOG.items() if not issubclass(entry.factory, FiniteMechanism))


@pytest.fixture(params=[*_SAMPLER_NAMES, *BUILT_SAMPLERS])
def sampler(request) -> tuple[Mechanism, object]:
    if request.param in BUILT_SAMPLERS:
        build, x = BUILT_SAMPLERS[request.param]
        return build(), x
    return _catalogued(request.param)


def test_examples_cover_every_sampler():
    """Every concrete non-finite Mechanism in dpcert.mechanisms (catalogued or not) runs through the contract."""
    examples = {type(_catalogued(name)[0]) for name in _SAMPLER_NAMES}
    examples |= {type(build()) for build, _ in BUILT_SAMPLERS.values()}
    assert examples == concrete_subclasses(Mechanism) - concrete_subclasses(FiniteMechanism)


def test_names_are_unique_across_every_mechanism():
    names = [cls.name for cls in concrete_subclasses(Mechanism)]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_frozen_dataclass_with_its_parameters(sampler):
    mechanism, _ = sampler
    assert dataclasses.is_dataclass(mechanism)
    field = dataclasses.fields(mechanism)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(mechanism, field, None)
    assert set(mechanism.parameters()) == {f.name for f in dataclasses.fields(mechanism)}
    assert mechanism.name in mechanism.describe() and mechanism.neighbours.description


def test_draws_are_reproducible_one_row_each_and_finite(sampler):
    mechanism, x = sampler
    a = np.asarray(mechanism.sample(x, 40, np.random.default_rng(5)), dtype=float)
    b = np.asarray(mechanism.sample(x, 40, np.random.default_rng(5)), dtype=float)
    c = np.asarray(mechanism.sample(x, 40, np.random.default_rng(6)), dtype=float)
    assert a.shape[0] == 40 and np.array_equal(a, b) and np.isfinite(a).all()
    # another seed gives other draws (every sampler here draws from a law with more than one atom)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("size", [-1, 1.5, True, "10"])
def test_bad_sample_size_is_rejected_naming_size(sampler, size):
    mechanism, x = sampler
    with pytest.raises(InvalidParameterError, match="size"):
        mechanism.sample(x, size, np.random.default_rng(0))
