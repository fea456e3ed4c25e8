"""The hierarchical-random-graph likelihood Q_M of Clauset, Moore and Newman (CMN), and its swap deltas.

For a tree T over the vertices of G, internal node i has L_i and R_i leaves on its two sides, and E_i is the
number of edges of G with one endpoint on each side (each undirected edge counts once, at the least common
ancestor of its endpoints). At the maximum-likelihood edge probabilities π_i = E_i/(L_i R_i):

    Q_M(T) = Π_i π_i^{E_i} (1 − π_i)^{L_i R_i − E_i}
    ln Q_M(T) = Σ_i [E_i ln π_i + (L_i R_i − E_i) ln(1 − π_i)] = −Σ_i L_i R_i · H_nat(π_i),   0 ln 0 = 0.

Why: Q_M(T) is the probability that the HRG (T, π) generates exactly G, so CMN's MCMC and CMN-DP's
exponential mechanism maximise it, and Figure 5 scores PRIVACT's and CMN-DP's trees by it (true counts).
A local swap at λ (children A, B; sibling C) changes only λ and its parent p: afterwards λ holds
(stay, C) with E = Σ_{stay,C}, and p holds (λ, moved) with E = E_λ + E_p − Σ_{stay,C}, so Δ ln Q_M needs one
block sum of the adjacency matrix (:func:`local_likelihood_delta`).

The authors' code clamps π to [1e-9, 1 − 1e-9] before taking logs; ``clamp=AUTHORS_PI_CLAMP`` reproduces it
(it moves ln Q_M by about −1e-9·L_iR_i at nodes with π_i ∈ {0, 1}); the default is the exact formula.

References: 004_a0cddc0a7a24fb37.txt, Section 3.1 (Q_M), Section 6 (EQ2, Figure 5); Clauset, Moore and
Newman, Nature 453 (2008) 98–101; spec §1.4(a), TC-T10.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import scipy.special
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact.gentree import _SwapState
from dpcert.mechanisms.privact.graphs import SocialGraph
from dpcert.mechanisms.privact.tree import ClusterTree, cross_sums

__all__ = [
    "AUTHORS_PI_CLAMP",
    "edge_counts",
    "likelihood",
    "likelihood_swap_delta",
    "local_likelihood_delta",
    "log_likelihood",
    "log_likelihood_exact",
    "node_log_likelihoods",
    "pair_counts",
]

AUTHORS_PI_CLAMP = 1e-9
"""The authors' code evaluates ln Q_M with π clipped to [1e-9, 1 − 1e-9] (spec §1.4(a), [code])."""


def _require_graph(graph: object) -> SocialGraph:
    if not isinstance(graph, SocialGraph) or graph.n < 2:
        raise InvalidParameterError(f"graph must be a SocialGraph on n >= 2 vertices. Got {graph!r}")
    return graph


def _check_tree_graph(tree: object, graph: object) -> tuple[ClusterTree, SocialGraph]:
    graph = _require_graph(graph)
    if not isinstance(tree, ClusterTree) or tree.n != graph.n:
        shown = f"{tree.n} leaves" if isinstance(tree, ClusterTree) else type(tree).__name__
        raise InvalidParameterError(f"tree must be a ClusterTree with one leaf per vertex of graph (n = {graph.n}). "
                                    f"Got {shown}")
    return tree, graph


def _dense_adjacency(graph: SocialGraph) -> np.ndarray:
    """The 0/1 adjacency as a dense int8 array (block sums are exact Python ints)."""
    return graph.adjacency.toarray().astype(np.int8)


def edge_counts(tree: ClusterTree, graph: SocialGraph) -> np.ndarray:
    """E_i for the internal nodes n, ..., 2n − 2 (int64): edges with one endpoint on each side of node i."""
    tree, graph = _check_tree_graph(tree, graph)
    sums = cross_sums(tree, _dense_adjacency(graph))
    return np.array([sums[v] for v in tree.internal_nodes.tolist()], dtype=np.int64)


def pair_counts(tree: ClusterTree) -> np.ndarray:
    """L_i·R_i for the internal nodes n, ..., 2n − 2 (int64): the vertex pairs split at node i."""
    if not isinstance(tree, ClusterTree):
        raise InvalidParameterError(f"tree must be a ClusterTree. Got {type(tree).__name__}")
    return tree.sizes[tree.left] * tree.sizes[tree.right]


def node_log_likelihoods(E: object, pairs: object, *, clamp: float | None = None) -> np.ndarray:
    """E ln π + (LR − E) ln(1 − π) = −LR·H_nat(π) with π = E/LR, elementwise (0 ln 0 = 0).

    Args:
        E: edge counts, 0 <= E <= pairs.
        pairs: L·R >= 1.
        clamp: evaluate the logs at π clipped to [clamp, 1 − clamp], as the authors' code does with
            :data:`AUTHORS_PI_CLAMP`; None (default) is the exact maximum-likelihood value.
    """
    E, pairs = np.asarray(E, dtype=np.float64), np.asarray(pairs, dtype=np.float64)
    if E.shape != pairs.shape or not ((pairs >= 1).all() and (E >= 0).all() and (E <= pairs).all()):
        raise InvalidParameterError(f"E and pairs must have one shape with 0 <= E <= pairs, pairs >= 1. Got shapes "
                                    f"{E.shape} and {pairs.shape}")
    pi = E / pairs
    if clamp is None:
        return scipy.special.xlogy(E, pi) + scipy.special.xlogy(pairs - E, 1 - pi)
    if not (isinstance(clamp, (int, float)) and 0 < clamp < 0.5):
        raise InvalidParameterError(f"clamp must be in (0, 0.5) or None. Got {clamp!r}")
    pi = np.clip(pi, clamp, 1 - clamp)
    return E * np.log(pi) + (pairs - E) * np.log1p(-pi)


def log_likelihood(tree: ClusterTree, graph: SocialGraph, *, clamp: float | None = None) -> float:
    """ln Q_M(T) = −Σ_i L_i R_i · H_nat(E_i/(L_i R_i)) in float64 (<= 0; 0 iff every π_i is 0 or 1).

    ``clamp=AUTHORS_PI_CLAMP`` gives the authors' clipped value instead (see the module docstring).
    """
    return float(node_log_likelihoods(edge_counts(tree, graph), pair_counts(tree), clamp=clamp).sum())


def likelihood(tree: ClusterTree, graph: SocialGraph) -> Fraction:
    """Q_M(T) = Π_i π_i^{E_i} (1 − π_i)^{L_i R_i − E_i} exactly (0^0 = 1), for tests on small graphs."""
    value = Fraction(1)
    for e, lr in zip(edge_counts(tree, graph).tolist(), pair_counts(tree).tolist()):
        value *= Fraction(e, lr) ** e * Fraction(lr - e, lr) ** (lr - e)
    return value


def log_likelihood_exact(tree: ClusterTree, graph: SocialGraph) -> sympy.Expr:
    """ln Q_M(T) = Σ_i [E_i ln(E_i/(L_iR_i)) + (L_iR_i − E_i) ln(1 − E_i/(L_iR_i))] as an exact sympy sum."""
    terms = [count * sympy.log(sympy.Rational(count, lr))
             for e, lr in zip(edge_counts(tree, graph).tolist(), pair_counts(tree).tolist())
             for count in (e, lr - e) if count]
    return sympy.Add(*terms)


def _node_log_likelihood(e: int, pairs: int) -> float:
    """The scalar E ln π + (LR − E) ln(1 − π) of :func:`node_log_likelihoods`, for the MCMC's inner loop."""
    if e == 0 or e == pairs:
        return 0.0
    return e * math.log(e / pairs) + (pairs - e) * math.log((pairs - e) / pairs)


def local_likelihood_delta(e_node: int, e_parent: int, e_stay_c: int, size_moved: int, size_stay: int,
                           size_c: int) -> float:
    """Δ ln Q_M of the swap that makes ``stay`` and C siblings under λ and ``moved`` λ's sibling.

    Before: λ = (stay, moved) with E_λ, p = (λ, C) with E_p. After: λ = (stay, C) with Σ_{stay,C}, and
    p = (λ, moved) with E_λ + E_p − Σ_{stay,C}; no other node changes.
    """
    before = (_node_log_likelihood(e_node, size_stay * size_moved)
              + _node_log_likelihood(e_parent, (size_stay + size_moved) * size_c))
    after = (_node_log_likelihood(e_stay_c, size_stay * size_c)
             + _node_log_likelihood(e_node + e_parent - e_stay_c, (size_stay + size_c) * size_moved))
    return after - before


def likelihood_swap_delta(tree: ClusterTree, graph: SocialGraph, node: int, config: int) -> float:
    """ln Q_M(T') − ln Q_M(T) for T' = ``tree.swap(node, config)``: :func:`local_likelihood_delta` at the two
    nodes the swap changes (the edge counts are read from the MCMC's own state, so this also checks it)."""
    tree, graph = _check_tree_graph(tree, graph)
    node, config = tree._check_move(node, config)
    state = _LikelihoodState(tree, _dense_adjacency(graph))
    return state.propose(node, config)[0]


class _LikelihoodState(_SwapState):
    """GENTREE's swap state on the adjacency matrix: its cross sums are the E_i and its score is ln Q_M."""

    def __init__(self, tree: ClusterTree, adjacency: np.ndarray) -> None:
        super().__init__(tree, adjacency)
        self.quality = sum((_node_log_likelihood(self.cross[v], int(self.size[a] * self.size[b]))
                            for v in tree.postorder for a, b in [tree.children(v)]), start=0.0)

    def propose(self, lam: int, config: int) -> tuple[float, int]:
        """(Δ ln Q_M, Σ_{stay, C}) of the swap (lam, config)."""
        moved, stay, p, c = self.parts(lam, config)
        sum_stay_c = self.block(stay, c)
        size = self.size
        return local_likelihood_delta(self.cross[lam], self.cross[p], sum_stay_c, int(size[moved]), int(size[stay]),
                                      int(size[c])), sum_stay_c


class _BlockMeans:
    """An ``on_step`` observer: the mean of a likelihood state's ln Q_M over every block of n proposals.

    With ``follow`` it first applies each accepted move to its own state (following another chain's trees,
    e.g. GENTREE's on S̄); without, the state is the chain's own and already moved.
    """

    def __init__(self, state: _LikelihoodState, *, follow: bool) -> None:
        self.state, self.follow = state, follow
        self.means: list[float] = []
        self._total, self._count = 0.0, 0

    def __call__(self, move: tuple[int, int] | None) -> None:
        if move is not None and self.follow:
            self.state.apply(*move, *self.state.propose(*move))
        self._total += self.state.quality
        self._count += 1
        if self._count == self.state.n:
            self.means.append(self._total / self._count)
            self._total, self._count = 0.0, 0

