"""Hierarchical cluster trees: enumeration (TC-T1), the clique identity (TC-T2), Q_D's two forms (TC-T3),
bounds (TC-T4), exact swap deltas (TC-T5), the local swap lemma (TC-T6), ideal clustering at local optima
(TC-T7), linearity (TC-T9) and the m-closest-users query (TC-E8).

These stay tests: they check dpcert's tree code (enumeration, the two Q_D formulas, swap deltas, the query) or
steps of Theorem 3's proof, whose statement is the registered claim thm3-ideal-clustering (and thm4-clique-quality
for TC-T2)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.privact import (
    ClusterTree,
    all_trees,
    clique_constant,
    closest_users,
    cross_sums,
    dasgupta_quality,
    ideal_clustering_violations,
    pair_weight_stack,
    random_tree,
    swap_delta,
    thetas,
    tree_count,
)
from dpcert.mechanisms.privact.tree import _grow


@st.composite
def trees(draw, min_n: int = 3, max_n: int = 12) -> ClusterTree:
    """A random full binary tree (all (2n-3)!! trees reachable: one attachment choice per leaf)."""
    n = draw(st.integers(min_n, max_n))
    return _grow(n, [draw(st.integers(0, 2 * k - 2)) for k in range(2, n)])


@st.composite
def dissimilarities(draw, n: int, *, exact: bool = True) -> np.ndarray:
    """A symmetric n x n matrix, zero diagonal; Fractions (exact) with small denominators, or integers >= 1."""
    matrix = np.zeros((n, n), dtype=object)
    for i in range(n):
        for j in range(i + 1, n):
            value = draw(st.fractions(0, 9, max_denominator=4)) if exact else draw(st.integers(1, 9))
            matrix[i, j] = matrix[j, i] = value
    return matrix


def pairwise_quality(tree: ClusterTree, S) -> object:
    """Σ_{x<y} S(x,y)·|leaves(T[x ∨ y])| via the LCA of each pair (Definition 2, unordered pairs)."""
    return sum((S[x][y] * int(tree.sizes[tree.lca(x, y)]) for x in range(tree.n) for y in range(x + 1, tree.n)),
               start=0)


def test_tree_counts_are_double_factorials():
    """TC-T1: 1, 3, 15, 105, 945, 10395 distinct trees for n = 2..7, every one reached once."""
    assert [tree_count(n) for n in range(2, 8)] == [1, 3, 15, 105, 945, 10395]
    for n in range(2, 8):
        listed = all_trees(n)
        assert len(listed) == len(set(listed)) == tree_count(n)
        assert len({t.canonical for t in listed}) == tree_count(n)


def test_clique_identity_holds_for_every_tree_up_to_seven_leaves():
    """TC-T2 / Theorem 4: Σ_λ (l+r)·l·r = Σ_{x<y} |leaves(T[x∨y])| = (n³ - n)/3 for all trees, and Σ_λ l·r = n(n-1)/2."""
    for n in range(2, 8):
        weights = pair_weight_stack(n)
        assert set(weights.sum(axis=1).tolist()) == {clique_constant(n)} == {(n**3 - n) // 3}
    for tree in all_trees(6):
        left, right = tree.sizes[tree.left], tree.sizes[tree.right]
        assert int(((left + right) * left * right).sum()) == 70 and int((left * right).sum()) == 15


@given(trees(), st.data())
def test_pairwise_and_per_node_quality_agree(tree, data):
    """TC-T3: Σ_{x<y} S·w_T = Σ_λ (l+r)·Σ_{L×R} S = Σ_λ (l+r)·l·r·θ(λ), exactly."""
    S = data.draw(dissimilarities(tree.n))
    per_node = dasgupta_quality(tree, S)
    assert per_node == pairwise_quality(tree, S)
    assert per_node == sum((S * tree.pair_weights()).ravel(), start=Fraction(0)) / 2
    sizes, theta = tree.sizes, thetas(tree, S)
    assert per_node == sum((int(sizes[v]) * int(sizes[a] * sizes[b]) * theta[v]
                            for v in tree.postorder for a, b in [tree.children(v)]), start=0)


@given(trees(), st.data())
def test_quality_lies_between_rho_min_and_rho_max(tree, data):
    """TC-T4: ρ·min S <= Q_D(T) <= ρ·max S; with S >= 1 off the diagonal, Q_D(T) >= ρ."""
    S = data.draw(dissimilarities(tree.n, exact=False))
    off = S[~np.eye(tree.n, dtype=bool)]
    quality, rho = dasgupta_quality(tree, S), clique_constant(tree.n)
    assert rho * min(off) <= quality <= rho * max(off) and quality >= rho


@given(trees(), st.data())
def test_swap_deltas_match_full_recomputation(tree, data):
    """TC-T5: for every non-root internal λ = (A, B) with sibling C, Q(M) - Q(L) = c·Σ_AB - b·Σ_AC and
    Q(N) - Q(L) = c·Σ_AB - a·Σ_BC exactly (Fractions), against recomputing Q_D from scratch."""
    S = data.draw(dissimilarities(tree.n))
    base = dasgupta_quality(tree, S)
    for node in tree.non_root_internal_nodes.tolist():
        a, b = tree.children(node)
        c = tree.sibling(node)
        size = tree.sizes
        s_ab = cross_sums(tree, S)[node]
        s_ac = sum((S[x][y] for x in tree.leaves(a) for y in tree.leaves(c)), start=Fraction(0))
        s_bc = sum((S[x][y] for x in tree.leaves(b) for y in tree.leaves(c)), start=Fraction(0))
        for config, formula in ((1, size[c] * s_ab - size[b] * s_ac), (0, size[c] * s_ab - size[a] * s_bc)):
            swapped = tree.swap(node, config)
            assert dasgupta_quality(swapped, S) - base == swap_delta(tree, S, node, config) == formula
            # the move is the rooted NNI of the proof: A-and-C (config 1) or B-and-C (config 0) become siblings
            together = {a, c} if config == 1 else {b, c}
            assert set(swapped.children(node)) == together


def test_local_swap_lemma_and_ideal_clustering_at_local_optima():
    """TC-T6: θ(λ) > θ(parent(λ)) implies max(ΔQ(M), ΔQ(N)) > 0. TC-T7: a tree no swap improves has
    θ(child) <= θ(parent) everywhere. Exact (integer S >= 1), 150 random trees with n = 4..10; the premise of
    TC-T6 occurs (hundreds of times) and the random starting trees do violate ideal clustering, so both
    checks can fail."""
    rng = np.random.default_rng(2021)
    premises = violating_starts = 0
    for _ in range(150):
        n = int(rng.integers(4, 11))
        S = np.triu(rng.integers(1, 20, (n, n)), 1)
        S = S + S.T
        tree = random_tree(n, rng)
        theta, parent = thetas(tree, S), tree.parent
        for node in tree.non_root_internal_nodes.tolist():
            if theta[node] > theta[int(parent[node])]:
                premises += 1
                assert max(swap_delta(tree, S, node, 0), swap_delta(tree, S, node, 1)) > 0
        violating_starts += bool(ideal_clustering_violations(tree, S))
        while True:  # steepest ascent to a local optimum of the 2(n-2) swaps
            moves = [(swap_delta(tree, S, v, c), v, c) for v in tree.non_root_internal_nodes.tolist() for c in (0, 1)]
            best = max(moves)
            if best[0] <= 0:
                break
            tree = tree.swap(best[1], best[2])
        assert ideal_clustering_violations(tree, S) == []
    assert premises > 100 and violating_starts > 50


@given(trees(), st.data())
def test_quality_is_linear_in_the_dissimilarities(tree, data):
    """TC-T9: Q_D(T; S̄) - Q_D(T; S) = Σ_{x<y} w_T(x,y)·(S̄ - S)(x,y), exactly."""
    S, noisy = data.draw(dissimilarities(tree.n)), data.draw(dissimilarities(tree.n))
    weights = tree.pair_weights()
    upper = np.triu_indices(tree.n, 1)
    assert dasgupta_quality(tree, noisy) - dasgupta_quality(tree, S) == sum(
        (weights[upper] * (noisy - S)[upper]).tolist(), start=Fraction(0))


@given(trees(min_n=2, max_n=14), st.data())
def test_closest_users_come_community_by_community(tree, data):
    """TC-E8: N(u) has min(m, n-1) distinct users, excludes u, and depth(LCA(u, N_j)) never increases along the
    list (closer communities first; the first block is u's sibling subtree)."""
    u = data.draw(st.integers(0, tree.n - 1))
    m = data.draw(st.integers(0, 2 * tree.n))
    found = closest_users(tree, u, m).tolist()
    assert len(found) == len(set(found)) == min(m, tree.n - 1) and u not in found
    depths = [int(tree.depth[tree.lca(u, v)]) for v in found]
    assert depths == sorted(depths, reverse=True)
    if found:
        assert set(found[: tree.sizes[tree.sibling(u)]]) <= set(tree.leaves(tree.sibling(u)).tolist())
    full = closest_users(tree, u, tree.n)
    assert sorted(full.tolist()) == [v for v in range(tree.n) if v != u]


def test_closest_users_example_and_reversed_order_fails():
    """TC-E8 on ((((0, 1), 2), 3), (4, 5)): from user 0 the communities are {1}, {2}, {3}, {4, 5}; the reverse
    order breaks the depth condition (so the property check above can fail)."""
    tree = ClusterTree.from_nested(((((0, 1), 2), 3), (4, 5)))
    assert closest_users(tree, 0, 10).tolist() == [1, 2, 3, 4, 5]
    assert closest_users(tree, 0, 3).tolist() == [1, 2, 3]
    assert sorted(closest_users(tree, 4, 3).tolist()[:1]) == [5]
    reversed_depths = [int(tree.depth[tree.lca(0, v)]) for v in [5, 4, 3, 2, 1]]
    assert reversed_depths != sorted(reversed_depths, reverse=True)


def test_nested_round_trip_equality_and_structure():
    """Trees are equal exactly when they have the same clusters (children unordered)."""
    tree = ClusterTree.from_nested(((0, 1), (2, (3, 4))))
    assert tree == ClusterTree.from_nested((((4, 3), 2), (1, 0)))
    assert tree != ClusterTree.from_nested(((0, 2), (1, (3, 4))))
    assert ClusterTree.from_nested(tree.to_nested()) == tree
    assert tree.n == 5 and tree.sizes[tree.root] == 5 and sorted(tree.leaves(tree.root).tolist()) == [0, 1, 2, 3, 4]
    assert tree.lca(3, 4) != tree.lca(2, 3) and tree.depth[tree.lca(3, 4)] == 2
    assert len(tree.non_root_internal_nodes) == 3


@pytest.mark.statistical
def test_random_tree_is_uniform_over_all_trees():
    """random_tree draws each of the 15 trees on 4 leaves with probability 1/15: 10,000 draws, every frequency
    within Hoeffding's radius sqrt(ln(2·15/1e-6)/(2·10000)) (false-failure probability <= 1e-6 by a union bound).
    Power: attaching new leaves only above leaves (never above internal nodes) is far from uniform and fails."""
    draws = 10_000
    radius = np.sqrt(np.log(2 * 15 / 1e-6) / (2 * draws))
    rng = np.random.default_rng(77)
    counts = Counter(random_tree(4, rng) for _ in range(draws))
    assert len(counts) == 15
    assert max(abs(c / draws - 1 / 15) for c in counts.values()) < radius
    broken = Counter(_grow(4, [int(rng.integers(0, k)) for k in range(2, 4)]) for _ in range(draws))
    frequencies = [broken.get(t, 0) / draws for t in all_trees(4)]
    assert max(abs(f - 1 / 15) for f in frequencies) >= radius
