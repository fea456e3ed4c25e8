"""PrivEMDItemWise: the exact count-vector law, exact (m alpha0)-metric DP w.r.t. d_EM, the sampler.

Paper: 002_1def8c9789d6e1bd.txt, Algorithm 2, Lemma 2.1 and the composition bound (m alpha0, 0) of
Section 4.2 (Fernandes et al. 2019); specs/imola_metric_dp_user_level.md section 3.2.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.mechanisms import Edges, InvalidParameterError, KaryRandomizedResponse
from dpcert.mechanisms.parameters import cancel_exponentials
from dpcert.mechanisms.metric_user_level import GeneralizedKRR, PrivEMDItemWise
from dpcert.proofs import MetricDP, Verdict, check, tightest_epsilon
from dpcert.proofs.channel import ExactChannel

R = sympy.Rational
GKRR = GeneralizedKRR(1, 2, 2, R(1, 4))


def brute_force_law(mechanism: PrivEMDItemWise, dataset) -> dict:
    """Sum over all |Y|^m ordered output sequences of prod_i P(y_i | x_i), grouped by count vector."""
    outputs = list(mechanism.mechanism.outputs())
    law: dict = {}
    for sequence in itertools.product(range(len(outputs)), repeat=len(dataset)):
        probability = sympy.Mul(*(mechanism.mechanism.pmf(x)[outputs[j]] for x, j in zip(dataset, sequence)))
        counts = tuple(sequence.count(j) for j in range(len(outputs)))
        law[counts] = law.get(counts, 0) + probability
    return law


def test_pmf_is_the_convolution_of_the_item_rows():
    """The exact count-vector law equals the brute-force sum over ordered outputs (Algorithm 2, shuffled)."""
    mechanism = PrivEMDItemWise(GKRR, 3)
    for dataset in [(0, 0, 3), (1, 2, 3)]:
        law, reference = mechanism.pmf(dataset), brute_force_law(mechanism, dataset)
        assert set(law) == set(reference)
        assert all(cancel_exponentials(law[c] - reference[c]) == 0 for c in law)


def test_inputs_outputs_and_the_exact_channel():
    """C(k + m - 1, m) datasets and count vectors; every row is a distribution summing exactly to 1."""
    mechanism = PrivEMDItemWise(GKRR, 3)
    assert len(mechanism.inputs()) == math.comb(6, 3) and len(mechanism.outputs()) == math.comb(6, 3)
    assert all(sum(c) == 3 for c in mechanism.outputs())
    ExactChannel.from_mechanism(mechanism)  # raises unless every pmf sums exactly to 1
    assert mechanism.dataset([3, 0, 3]) == (0, 3, 3)


@pytest.mark.parametrize("m", [2, 3])
def test_itemwise_gkrr_is_exactly_m_alpha0_metric_dp_wrt_d_em(m):
    """Composition is tight for pure d_EM-DP: the tightest eps w.r.t. d_EM is exactly m alpha0.

    MetricDP(m alpha0) is PROVED, MetricDP(m alpha0 - 1/100) REFUTED; the worst pair is two datasets
    changed in every item (d_EM = 1 across clusters, or r within one), at the all-unchanged output.
    """
    mechanism = PrivEMDItemWise(GKRR, m)
    alpha = mechanism.composition_alpha(GKRR.alpha0)
    assert alpha == m
    proved = check(mechanism, MetricDP(alpha))
    assert proved.verdict is Verdict.PROVED and proved.recheck()
    assert proved.epsilon == alpha
    refuted = check(mechanism, MetricDP(alpha - R(1, 100)))
    assert refuted.verdict is Verdict.REFUTED and refuted.recheck()
    w = refuted.witness
    assert mechanism.earth_movers_distance(w.x, w.x_prime) in (1, GKRR.r)


def test_one_changed_item_costs_alpha0_d_exactly():
    """No amplification without delta: changing one item across clusters (d = 1, d_EM = 1/m) has the
    tightest eps alpha0 exactly, i.e. m alpha0 per unit of d_EM, so the composition bound is tight here too."""
    mechanism = PrivEMDItemWise(GKRR, 3)
    pairs = tuple((a, b) for a in mechanism.inputs() for b in mechanism.inputs()
                  if a < b and mechanism.earth_movers_distance(a, b) == R(1, 3))
    assert len(pairs) > 10
    certificate = tightest_epsilon(mechanism, relation=Edges(pairs))
    assert certificate.epsilon == GKRR.alpha0


def test_k_rr_items_use_the_discrete_metric():
    """An eps-LDP item mechanism is eps-metric-DP for the discrete metric: the release is (m eps)-d_EM-DP."""
    mechanism = PrivEMDItemWise(KaryRandomizedResponse(k=3, eps=sympy.log(2)), 2)
    assert mechanism.earth_movers_distance((0, 1), (1, 2)) == R(1, 2)
    proved = check(mechanism, MetricDP(2 * sympy.log(2)))
    assert proved.verdict is Verdict.PROVED
    assert sympy.simplify(proved.epsilon - 2 * sympy.log(2)) == 0


def frequency_pvalue(reference: PrivEMDItemWise, sampler: PrivEMDItemWise, dataset, seed: int, n: int = 20_000):
    """Bonferroni-adjusted exact binomial p-value that ``sampler``'s count vectors follow ``reference``'s pmf."""
    draws = sampler.sample(dataset, n, np.random.default_rng(seed))
    assert draws.shape == (n, 4) and np.all(draws.sum(axis=1) == reference.m)
    observed = {}
    for row in map(tuple, draws.tolist()):
        observed[row] = observed.get(row, 0) + 1
    pmf = reference.pmf(dataset)
    assert set(observed) <= set(pmf)
    pvalues = [scipy.stats.binomtest(observed.get(c, 0), n, float(p)).pvalue for c, p in pmf.items()]
    return min(1.0, min(pvalues) * len(pvalues))


@pytest.mark.statistical
def test_sampler_matches_the_exact_pmf():
    # False-failure probability <= 1e-6 (exact binomial tests, union bound over count vectors); fixed seed.
    mechanism = PrivEMDItemWise(GKRR, 3)
    assert frequency_pvalue(mechanism, mechanism, (0, 1, 3), seed=41) >= 1e-6


@pytest.mark.statistical
def test_power_sampler_test_rejects_a_wrong_alpha0():
    # Power check for the test above: count vectors drawn with alpha0 = 3/2 instead of 1 are rejected.
    right = PrivEMDItemWise(GKRR, 3)
    wrong = PrivEMDItemWise(GeneralizedKRR(R(3, 2), 2, 2, R(1, 4)), 3)
    assert frequency_pvalue(right, wrong, (0, 1, 3), seed=42) < 1e-6


def test_sampling_needs_no_enumeration():
    """Large m cannot enumerate its datasets (the guard names m) but samples count vectors."""
    mechanism = PrivEMDItemWise(GKRR, 200)
    with pytest.raises(InvalidParameterError, match="m = 200"):
        mechanism.inputs()
    draws = mechanism.sample([0] * 100 + [3] * 100, 7, np.random.default_rng(0))
    assert draws.shape == (7, 4) and np.all(draws.sum(axis=1) == 200)
