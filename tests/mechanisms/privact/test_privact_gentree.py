"""GENTREE: exact detailed balance towards e^{Q_D} (TC-M1), a symmetric proposal (TC-M2), the sampler's
bookkeeping, and its climb from the initial tree (TC-M5, a smoke check)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import (
    acceptance_log_probability,
    all_trees,
    dasgupta_quality,
    gentree,
    proposal_moves,
    random_tree,
    swap_move_counts,
    tree_qualities,
)
from dpcert.proofs.claims.privact.gentree_checks import stationarity_defects


def test_gentree_kernel_satisfies_exact_detailed_balance():
    """TC-M1: for n = 5 (105 trees) and integer S, the Metropolis kernel (uniform non-root node × uniform of 2
    swaps, acceptance min(1, e^{ΔQ}) as GENTREE uses it) leaves π ∝ e^{Q_D} exactly invariant.
    Power: acceptance min(1, e^{2ΔQ}) (temperature 1/2 against the temperature-1 target) is not invariant."""
    rng = np.random.default_rng(5)
    S = np.triu(rng.integers(1, 4, (5, 5)), 1)
    S = S + S.T
    assert stationarity_defects(S, acceptance_log_probability) == []
    assert len(stationarity_defects(S, lambda delta: min(0, 2 * delta))) > 50
    assert acceptance_log_probability(Fraction(-3, 2)) == Fraction(-3, 2) and acceptance_log_probability(7) == 0
    with pytest.raises(InvalidParameterError, match="^S "):  # Q_D not an integer: the exponents would be truncated
        stationarity_defects(S + 0.3, acceptance_log_probability)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_swap_proposal_is_symmetric(n):
    """TC-M2: each tree has 2(n−2) proposals, each leads to a different tree, and the move-count matrix is
    symmetric (every swap has a reverse swap with the same probability 1/(2(n−2)))."""
    moves = swap_move_counts(n)
    assert (moves == moves.T).all()
    assert set(moves.sum(axis=1).tolist()) == {2 * (n - 2)} and moves.max() == 1 and np.trace(moves) == 0
    assert all(len(proposal_moves(t)) == 2 * (n - 2) for t in all_trees(n)[:20])


def test_gentree_bookkeeping_matches_recomputation_exactly():
    """The incremental cross sums and leaf layout give the exact quality: with Fraction dissimilarities the
    final Q_D and every traced value equal a from-scratch recomputation (any layout error would show)."""
    rng = np.random.default_rng(8)
    n = 9
    values = rng.integers(1, 30, (n, n))
    S = np.array([[Fraction(int(values[min(i, j), max(i, j)]), 7) if i != j else 0 for j in range(n)]
                  for i in range(n)], dtype=object)
    initial = random_tree(n, rng)
    run = gentree(S, rng, iterations=400, initial=initial)
    assert run.quality == dasgupta_quality(run.tree, S) and run.initial_quality == dasgupta_quality(initial, S)
    assert isinstance(run.quality, Fraction) and run.iterations == 400 and 0 < run.accepted <= 400
    assert run.quality_trace.shape == (400 // n,)
    assert run.tree != initial
    # an explicit generator is the only randomness: the same seed gives the same run
    first, second = (gentree(S, np.random.default_rng(81), iterations=300, initial=initial) for _ in range(2))
    assert first.tree == second.tree and first.accepted == second.accepted


def test_gentree_climbs_from_the_initial_tree():
    """TC-M5 (smoke check, not a theorem): after 1000·n proposals on a 30-user S, Q_D is above the initial tree's
    and the traced Q_D (every n proposals) ends higher than it starts; with 0 iterations nothing moves."""
    rng = np.random.default_rng(30)
    n = 30
    S = rng.random((n, n)) * 10
    S = np.maximum(1, S + S.T)
    np.fill_diagonal(S, 0)
    run = gentree(S, rng)
    assert run.iterations == 1000 * n and run.quality > run.initial_quality
    assert run.quality_trace[-1] > run.quality_trace[0] and run.quality_trace.size == 1000
    still = gentree(S, rng, iterations=0)
    assert still.quality == still.initial_quality and still.accepted == 0


def test_two_and_three_leaves():
    """Edge cases: n = 2 has one tree and no proposal; n = 3 has one non-root internal node and 3 trees."""
    run = gentree(np.array([[0, 4], [4, 0]]), np.random.default_rng(0))
    assert run.tree.to_nested() in ((0, 1), (1, 0)) and run.quality == 8 and run.iterations == 0
    S = np.array([[0, 1, 9], [1, 0, 9], [9, 9, 0]])
    assert gentree(S, np.random.default_rng(1), iterations=200).quality == max(tree_qualities(S).tolist()) == 56
