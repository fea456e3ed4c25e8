"""BoundedEMDReduction (Algorithm 3): s draws with replacement per user, then a bounded mechanism.

Paper: 002_1def8c9789d6e1bd.txt, Algorithm 3, Lemma 5.2 and Theorem 5.3.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
import sympy

from dpcert.mechanisms.metric_user_level import BoundedEMDReduction, GeneralizedKRR, PrivEMDItemWise, PrivEMDLinear

R = sympy.Rational
GKRR = GeneralizedKRR(1, 2, 2, R(1, 4))


@pytest.mark.statistical
def test_sampled_items_follow_the_users_histogram():
    """With an almost-identity item mechanism (GKRR at alpha0 = 200: P(y != x) < e^-50) the released counts are
    the sampled items: for one user holding {0, 1, 1, 3}, s = 8 draws with replacement give Multinomial(8, K~).
    Exact binomial tests on the totals of items 0, 1, 3 (union bound): false-failure probability <= 1e-6."""
    almost_identity = GeneralizedKRR(200, 2, 2, R(1, 4))
    reduction = BoundedEMDReduction(PrivEMDItemWise(almost_identity, 8), 8)
    counts = reduction.sample([[0, 1, 1, 3]], 5000, np.random.default_rng(61))
    assert counts.shape == (5000, 4) and np.all(counts.sum(axis=1) == 8)
    assert counts[:, 2].sum() == 0  # item 2 is not in the dataset
    totals = counts.sum(axis=0)
    pvalues = [scipy.stats.binomtest(int(totals[x]), 5000 * 8, p).pvalue for x, p in ((0, 0.25), (1, 0.5), (3, 0.25))]
    assert min(pvalues) * 3 >= 1e-6
    # Power check: the same test rejects a wrong histogram (item 0 drawn with probability 1/5 instead of 1/4)
    assert scipy.stats.binomtest(int(totals[0]), 5000 * 8, 0.2).pvalue < 1e-6


def test_central_reduction_concatenates_users():
    """Central model: n users with any sizes give a list L of n s items for the bounded mechanism."""
    reduction = BoundedEMDReduction(PrivEMDItemWise(GKRR, 6), 3)
    counts = reduction.sample([[0], [1, 2, 3, 3, 3]], 10, np.random.default_rng(62))
    assert counts.shape == (10, 4) and np.all(counts.sum(axis=1) == 6)
    linear = PrivEMDLinear(F=[[0, 1, 0, 0], [0, 0, 0, 1]], distance=GKRR.metric.matrix.tolist(), alpha=2,
                           model="central", n=2)
    assert BoundedEMDReduction(linear, 5).sample([[0, 1], [3]], 4, np.random.default_rng(63)).shape == (4, 2)


def test_neighbour_distance_is_d_em_of_any_sizes():
    """Definitions 5.1 and 5.2 compare datasets of any sizes by d_EM(K~, K~'): {0, 1} vs {0, 0, 1, 1} is 0."""
    reduction = BoundedEMDReduction(PrivEMDItemWise(GKRR, 2), 2)
    assert reduction.neighbours.exact_distance(((0, 1),), ((0, 0, 1, 1),)) == 0
    assert reduction.neighbours.exact_distance(((0, 1),), ((1, 1, 1),)) == R(1, 8)  # mass 1/2 moves r = 1/4
