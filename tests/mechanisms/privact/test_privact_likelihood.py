"""The HRG likelihood Q_M (spec §1.4(a)): the product formula against a brute-force HRG likelihood over
vertex pairs with every tree enumerated, its entropy form, the TC-T10 identities, the authors' clamp, and
the swap delta against recomputation."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import scipy.special
import sympy
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.privact import (
    AUTHORS_PI_CLAMP,
    ClusterTree,
    SocialGraph,
    all_trees,
    edge_counts,
    likelihood,
    likelihood_swap_delta,
    log_likelihood,
    log_likelihood_exact,
    node_log_likelihoods,
    pair_counts,
    proposal_moves,
)
from dpcert.mechanisms.privact.likelihood import _dense_adjacency, _LikelihoodState
from dpcert.mechanisms.privact.tree import _grow


def random_graph(n: int, p: float, seed: int) -> SocialGraph:
    rng = np.random.default_rng(seed)
    edges = [(i, j) for i, j in itertools.combinations(range(n), 2) if rng.random() < p]
    return SocialGraph(n, np.array(edges, dtype=np.int64).reshape(-1, 2), f"G({n}, {p}) seed {seed}")


@st.composite
def trees_and_graphs(draw, min_n: int = 3, max_n: int = 14) -> tuple[ClusterTree, SocialGraph]:
    """A random full binary tree (every tree reachable) and a random graph on its leaves."""
    n = draw(st.integers(min_n, max_n))
    tree = _grow(n, [draw(st.integers(0, 2 * k - 2)) for k in range(2, n)])
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs), unique=True))
    return tree, SocialGraph(n, np.array(chosen, dtype=np.int64).reshape(-1, 2))


def brute_force_hrg_likelihood(tree: ClusterTree, graph: SocialGraph, probability=None) -> Fraction:
    """Pr(G | T, π) = Π_{x<y} π_{lca}^{A_xy} (1 − π_{lca})^{1 − A_xy}, pair by pair via T's LCA.

    With ``probability`` None, π at each node is its maximum-likelihood value (edges over pairs split there),
    counted from the pairs themselves; otherwise ``probability[node]`` is used."""
    edges = {tuple(e) for e in graph.edges.tolist()}
    lcas = {(x, y): tree.lca(x, y) for x, y in itertools.combinations(range(graph.n), 2)}
    if probability is None:
        split = {v: [pair in edges for pair, lca in lcas.items() if lca == v] for v in set(lcas.values())}
        probability = {v: Fraction(sum(bits), len(bits)) for v, bits in split.items()}
    value = Fraction(1)
    for pair, v in lcas.items():
        value *= probability[v] if pair in edges else 1 - probability[v]
    return value


@pytest.mark.parametrize("n, p, seed", [(5, 0.5, 1), (5, 0.3, 2), (6, 0.4, 3), (6, 0.6, 4), (7, 0.5, 5)])
def test_product_formula_equals_the_brute_force_likelihood_on_every_tree(n, p, seed):
    """Q_M(T) = Π_i π_i^{E_i}(1 − π_i)^{L_iR_i − E_i} equals the HRG probability of G computed pair by pair,
    exactly, for all (2n − 3)!! trees (105 at n = 5, 945 at n = 6, 10,395 at n = 7); so the best enumerated tree is the
    brute-force maximum-likelihood tree."""
    graph = random_graph(n, p, seed)
    trees = all_trees(n)
    exact = [likelihood(tree, graph) for tree in trees]
    brute = [brute_force_hrg_likelihood(tree, graph) for tree in trees]
    assert exact == brute
    assert max(exact) == max(brute) and len(set(exact)) > 1
    best = int(np.argmax([log_likelihood(tree, graph) for tree in trees]))
    assert exact[best] == max(exact)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_maximum_likelihood_pi_beats_every_other_pi(seed):
    """TC-T10 (last item): for a fixed tree, π_i = E_i/(L_iR_i) maximises the HRG likelihood over π; 200 random
    π vectors (and π nudged by ±1/97 at one node) never beat Q_M."""
    rng = np.random.default_rng(seed)
    graph = random_graph(6, 0.5, seed)
    tree = all_trees(6)[seed * 31]
    best = likelihood(tree, graph)
    mle = dict(zip(tree.internal_nodes.tolist(), (Fraction(e, lr) for e, lr in zip(edge_counts(tree, graph).tolist(),
                                                                                  pair_counts(tree).tolist()))))
    assert brute_force_hrg_likelihood(tree, graph, mle) == best
    for _ in range(200):
        other = {v: Fraction(int(rng.integers(0, 101)), 100) for v in mle}
        assert brute_force_hrg_likelihood(tree, graph, other) <= best
    for v in mle:
        for step in (Fraction(1, 97), Fraction(-1, 97)):
            if 0 <= mle[v] + step <= 1:
                assert brute_force_hrg_likelihood(tree, graph, {**mle, v: mle[v] + step}) < best


@pytest.mark.parametrize("n, p, seed", [(6, 0.5, 21), (8, 0.3, 22), (10, 0.5, 23)])
def test_log_of_product_equals_entropy_form(n, p, seed):
    """ln Π_i π_i^{E_i}(1 − π_i)^{L_iR_i − E_i} = −Σ_i L_iR_i H_nat(π_i): sympy's exact log of the product and the
    exact sum agree to 60 digits; the float (scipy.special.entr for H) to 1e-12 relative."""
    graph = random_graph(n, p, seed)
    tree = _grow(n, [int(t) for t in np.random.default_rng(seed).integers(0, 2 * np.arange(2, n) - 1)])
    product = likelihood(tree, graph)
    exact = log_likelihood_exact(tree, graph)
    assert abs(sympy.N(sympy.log(sympy.Rational(product.numerator, product.denominator)) - exact, 60)) < 1e-50
    pi = edge_counts(tree, graph) / pair_counts(tree)
    entropy_form = -float((pair_counts(tree) * (scipy.special.entr(pi) + scipy.special.entr(1 - pi))).sum())
    assert log_likelihood(tree, graph) == pytest.approx(entropy_form, rel=1e-12)
    assert log_likelihood(tree, graph) == pytest.approx(float(exact), rel=1e-12)


@given(trees_and_graphs())
def test_tc_t10_identities(case):
    """TC-T10: Σ_i E_i = |E|, Σ_i L_iR_i = n(n − 1)/2, ln Q_M <= 0, with equality iff every π_i ∈ {0, 1}."""
    tree, graph = case
    E, pairs = edge_counts(tree, graph), pair_counts(tree)
    assert int(E.sum()) == graph.edge_count and int(pairs.sum()) == graph.n * (graph.n - 1) // 2
    assert ((E >= 0) & (E <= pairs)).all()
    value = log_likelihood(tree, graph)
    degenerate = bool(((E == 0) | (E == pairs)).all())
    assert value <= 0 and (value == 0) == degenerate
    assert (likelihood(tree, graph) == 1) == degenerate


def test_zero_log_likelihood_cases():
    """Equality cases of TC-T10: the empty graph and the clique (every π is 0 or 1 for every tree), and the
    complete bipartite graph under a tree whose root splits its two sides; a tree that mixes the sides is < 0."""
    n = 6
    clique = SocialGraph(n, list(itertools.combinations(range(n), 2)))
    empty = SocialGraph(n, [])
    for tree in all_trees(n)[::50]:
        assert log_likelihood(tree, clique) == 0 == log_likelihood(tree, empty)
    bipartite = SocialGraph(n, [(i, j) for i in range(3) for j in range(3, 6)])
    assert log_likelihood(ClusterTree.from_nested(((0, (1, 2)), ((3, 4), 5))), bipartite) == 0
    assert log_likelihood(ClusterTree.from_nested(((0, (1, 3)), ((2, 4), 5))), bipartite) < 0


def test_authors_clamp_is_an_option_not_the_default():
    """The authors' π ∈ [1e-9, 1 − 1e-9] clamp: at π ∈ {0, 1} each node adds L_iR_i·ln(1 − 1e-9) ≈ −1e-9·L_iR_i,
    elsewhere it changes nothing; the default is the exact value."""
    E, pairs = np.array([0, 3, 4, 2]), np.array([5, 3, 8, 2])
    exact = node_log_likelihoods(E, pairs)
    clamped = node_log_likelihoods(E, pairs, clamp=AUTHORS_PI_CLAMP)
    assert exact[0] == exact[1] == exact[3] == 0 and exact[2] == pytest.approx(8 * np.log(0.5), rel=1e-15)
    assert clamped[2] == pytest.approx(exact[2], rel=1e-15)
    assert clamped[[0, 1, 3]] == pytest.approx(-1e-9 * pairs[[0, 1, 3]], rel=1e-6)
    graph, tree = random_graph(8, 0.4, 5), _grow(8, [1, 2, 0, 5, 3, 9])
    E, pairs = edge_counts(tree, graph), pair_counts(tree)
    degenerate_pairs = pairs[(E == 0) | (E == pairs)]
    assert log_likelihood(tree, graph, clamp=AUTHORS_PI_CLAMP) - log_likelihood(tree, graph) == pytest.approx(
        -1e-9 * degenerate_pairs.sum(), rel=1e-5)


@given(trees_and_graphs(min_n=3), st.data())
def test_swap_delta_equals_recomputation(case, data):
    """Δ ln Q_M from the two changed nodes equals ln Q_M(T') − ln Q_M(T) recomputed from scratch (1e-9 abs)."""
    tree, graph = case
    node, config = data.draw(st.sampled_from(proposal_moves(tree)))
    recomputed = log_likelihood(tree.swap(node, config), graph) - log_likelihood(tree, graph)
    assert likelihood_swap_delta(tree, graph, node, config) == pytest.approx(recomputed, abs=1e-9)


def test_chain_state_keeps_exact_edge_counts_and_score():
    """The MCMC's state after 400 random accepted swaps: every cross sum equals E_i of the tree it holds (exact
    ints) and its running ln Q_M equals a recomputation (1e-8 relative)."""
    rng = np.random.default_rng(9)
    graph = random_graph(15, 0.3, 9)
    tree = _grow(15, [int(rng.integers(0, 2 * k - 1)) for k in range(2, 15)])
    state = _LikelihoodState(tree, _dense_adjacency(graph))
    moves = state.non_root_internal_nodes()
    for _ in range(400):
        lam, config = int(rng.choice(moves)), int(rng.integers(0, 2))
        state.apply(lam, config, *state.propose(lam, config))
    current = state.to_tree()
    assert [state.cross[v] for v in current.internal_nodes.tolist()] == edge_counts(current, graph).tolist()
    assert state.quality == pytest.approx(log_likelihood(current, graph), rel=1e-8)
    assert current != tree
