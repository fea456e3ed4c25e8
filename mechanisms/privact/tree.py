"""Hierarchical cluster trees (HCTs): full binary trees over the users, Dasgupta's quality Q_D, θ, swaps.

A tree on n >= 2 leaves has leaves 0..n-1 and internal nodes n..2n-2; ``left[k]``, ``right[k]`` are the
children of internal node n + k (children are unordered: two trees are equal when they have the same
clusters). Each internal node λ splits its leaves into L_λ and R_λ.

- Dasgupta quality over unordered pairs x < y (spec A3):
  Q_D(T) = Σ_{x<y} S(x,y)·|leaves(T[x ∨ y])| = Σ_λ (|L_λ| + |R_λ|)·Σ_{x∈L_λ, y∈R_λ} S(x,y).
- θ(λ) = Σ_{x∈L_λ, y∈R_λ} S(x,y) / (|L_λ|·|R_λ|), the mean dissimilarity across λ's split.
- Local swaps (rooted NNI at the edge parent(λ)–λ): with λ = (A, B) and C its sibling, config 0 makes B and
  C siblings (λ_p → (A, (B, C)), the proof's "N") and config 1 makes A and C siblings ("M"):
  ΔQ(M) = c·Σ_AB − b·Σ_AC and ΔQ(N) = c·Σ_AB − a·Σ_BC (all other pairs keep their LCA).

Exact dissimilarities (Python ints, Fractions, or an integer numpy array) give exact qualities, θs and
deltas; float arrays give floats.

References: 004_a0cddc0a7a24fb37.txt, Section 3 (HCT, ideal clustering), Definition 2 (Q_D), Theorem 3 and
its proof in Appendix A.1 (swap deltas), Theorem 4 (ρ), Section 7.2 (m closest users); spec §1.3, §1.4,
§2.4, §2.7.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = [
    "ClusterTree",
    "clique_constant",
    "closest_users",
    "cross_sums",
    "dasgupta_quality",
    "ideal_clustering_violations",
    "local_swap_delta",
    "random_tree",
    "swap_delta",
    "thetas",
    "validate_dissimilarity",
]

_CONFIGS = (0, 1)


def clique_constant(n: int) -> int:
    """ρ = (n³ − n)/3: Q_D of every full binary tree when all dissimilarities are 1 (Theorem 4)."""
    n = require_int("n", n, minimum=1)
    return (n**3 - n) // 3


def _rewire(left: np.ndarray, right: np.ndarray, parent: np.ndarray, lam: int, config: int) -> tuple[int, int, int]:
    """Apply the swap (lam, config) in place; returns (moved, stay, C).

    With λ = (A, B), p = parent(λ) and C the sibling of λ: config 0 gives λ → (B, C), p → (λ, A);
    config 1 gives λ → (A, C), p → (λ, B). ``moved`` is the child of λ that becomes λ's sibling.
    """
    n = left.size + 1
    k, p = lam - n, int(parent[lam])
    kp = p - n
    a, b = int(left[k]), int(right[k])
    slot = right if left[kp] == lam else left
    c = int(slot[kp])
    moved, stay = (a, b) if config == 0 else (b, a)
    left[k], right[k] = stay, c
    slot[kp] = moved
    parent[c], parent[moved] = lam, p
    return moved, stay, c


@dataclass(frozen=True, eq=False)
class ClusterTree:
    """A rooted full binary tree with leaves 0..n-1 (unordered children).

    Attributes:
        left: (n-1,) the first child of internal node n + k.
        right: (n-1,) the second child of internal node n + k.
        root: the root, an internal node id in [n, 2n-2].
    """

    left: np.ndarray
    right: np.ndarray
    root: int

    def __post_init__(self) -> None:
        left = np.array(self.left, dtype=np.int64).ravel()
        right = np.array(self.right, dtype=np.int64).ravel()
        n = left.size + 1
        if n < 2 or right.size != left.size:
            raise InvalidParameterError(f"left and right must have the same length n - 1 >= 1. Got {left.size} "
                                        f"and {right.size}")
        root = require_int("root", self.root, minimum=n, maximum=2 * n - 2)
        children = np.concatenate([left, right])
        if children.min() < 0 or children.max() > 2 * n - 2:
            raise InvalidParameterError(f"children must be node ids in [0, {2 * n - 2}]. Got {children.tolist()}")
        counts = np.bincount(children, minlength=2 * n - 1)
        counts[root] += 1
        if not np.all(counts == 1):
            raise InvalidParameterError("left and right must make every node except the root the child of exactly "
                                        f"one internal node. Got child counts {counts.tolist()}")
        for array in (left, right):
            array.setflags(write=False)
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)
        object.__setattr__(self, "root", root)
        if len(self.postorder) != n - 1:  # every internal node reachable from the root: no cycles
            raise InvalidParameterError("left and right must form one tree under the root. Got a cycle")

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def from_nested(cls, nested: object) -> ClusterTree:
        """A tree from nested pairs of leaf ids, e.g. ``((0, 1), (2, (3, 4)))``; the leaves must be 0..n-1."""
        pairs: list[tuple[int, int]] = []
        leaves: list[int] = []

        def node_id(item: object) -> tuple[str, int]:
            if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                leaves.append(int(item))
                return "leaf", int(item)
            if not (isinstance(item, Sequence) and not isinstance(item, (str, bytes)) and len(item) == 2):
                raise InvalidParameterError(f"nested must be a leaf id or a pair of subtrees. Got {item!r}")
            first, second = node_id(item[0]), node_id(item[1])
            pairs.append((first, second))  # type: ignore[arg-type]
            return "internal", len(pairs) - 1

        top = node_id(nested)
        n = len(leaves)
        if sorted(leaves) != list(range(n)) or top[0] != "internal":
            raise InvalidParameterError(f"nested must hold the leaves 0..n-1 once each, n >= 2. Got {sorted(leaves)}")

        def resolve(ref: tuple[str, int]) -> int:
            return ref[1] if ref[0] == "leaf" else n + ref[1]

        return cls(np.array([resolve(a) for a, _ in pairs]), np.array([resolve(b) for _, b in pairs]), n + top[1])

    # --- structure ----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """Number of leaves."""
        return self.left.size + 1

    @cached_property
    def postorder(self) -> tuple[int, ...]:
        """The internal nodes, every node after its internal descendants."""
        n, order, stack = self.n, [], [self.root]
        while stack and len(order) < n:
            v = stack.pop()
            order.append(v)
            stack.extend(c for c in (int(self.left[v - n]), int(self.right[v - n])) if c >= n)
        return tuple(reversed(order))

    @cached_property
    def parent(self) -> np.ndarray:
        """parent[v] for every node v (-1 for the root)."""
        parent = np.full(2 * self.n - 1, -1, dtype=np.int64)
        internal = np.arange(self.n, 2 * self.n - 1)
        parent[self.left] = internal
        parent[self.right] = internal
        parent.setflags(write=False)
        return parent

    @cached_property
    def sizes(self) -> np.ndarray:
        """Number of leaves below every node (1 for a leaf)."""
        n, sizes = self.n, np.ones(2 * self.n - 1, dtype=np.int64)
        for v in self.postorder:
            sizes[v] = sizes[self.left[v - n]] + sizes[self.right[v - n]]
        sizes.setflags(write=False)
        return sizes

    @cached_property
    def depth(self) -> np.ndarray:
        """Depth of every node (0 at the root)."""
        n, depth = self.n, np.zeros(2 * self.n - 1, dtype=np.int64)
        for v in reversed(self.postorder):
            depth[self.left[v - n]] = depth[self.right[v - n]] = depth[v] + 1
        depth.setflags(write=False)
        return depth

    @cached_property
    def _layout(self) -> tuple[np.ndarray, np.ndarray]:
        """(order, start): a depth-first leaf order in which every node's leaves are order[start : start + size]."""
        n, start = self.n, np.zeros(2 * self.n - 1, dtype=np.int64)
        sizes = self.sizes
        for v in reversed(self.postorder):
            first, second = self.left[v - n], self.right[v - n]
            start[first] = start[v]
            start[second] = start[v] + sizes[first]
        order = np.empty(n, dtype=np.int64)
        order[start[:n]] = np.arange(n)
        return order, start

    def children(self, node: int) -> tuple[int, int]:
        """The two children of an internal node."""
        node = require_int("node", node, minimum=self.n, maximum=2 * self.n - 2)
        return int(self.left[node - self.n]), int(self.right[node - self.n])

    def leaves(self, node: int) -> np.ndarray:
        """The leaves below ``node``, in the tree's depth-first order."""
        node = require_int("node", node, minimum=0, maximum=2 * self.n - 2)
        order, start = self._layout
        return order[start[node]: start[node] + self.sizes[node]]

    @property
    def internal_nodes(self) -> np.ndarray:
        """n, ..., 2n-2."""
        return np.arange(self.n, 2 * self.n - 1)

    @property
    def non_root_internal_nodes(self) -> np.ndarray:
        """The n - 2 internal nodes GENTREE proposes swaps at."""
        nodes = self.internal_nodes
        return nodes[nodes != self.root]

    def sibling(self, node: int) -> int:
        """The other child of ``node``'s parent."""
        node = require_int("node", node, minimum=0, maximum=2 * self.n - 2)
        if node == self.root:
            raise InvalidParameterError(f"node must not be the root {self.root}. Got {node}")
        first, second = self.children(int(self.parent[node]))
        return second if first == node else first

    def lca(self, x: int, y: int) -> int:
        """The least common ancestor T[x ∨ y] of two nodes."""
        x = require_int("x", x, minimum=0, maximum=2 * self.n - 2)
        y = require_int("y", y, minimum=0, maximum=2 * self.n - 2)
        depth, parent = self.depth, self.parent
        while x != y:
            if depth[x] >= depth[y]:
                x = int(parent[x])
            else:
                y = int(parent[y])
        return x

    def pair_weights(self) -> np.ndarray:
        """w_T(x, y) = |leaves(T[x ∨ y])| for leaves x != y, 0 on the diagonal (n x n int64)."""
        weights = np.zeros((self.n, self.n), dtype=np.int64)
        for v in self.postorder:
            first, second = self.children(v)
            block = np.ix_(self.leaves(first), self.leaves(second))
            weights[block] = self.sizes[v]
        return weights + weights.T

    # --- identity -----------------------------------------------------------------------------

    @cached_property
    def canonical(self) -> tuple[tuple[int, int, int, int], ...]:
        """A flat form equal for equal trees: every non-root node as (min leaf, size) with its parent's."""
        n, low = self.n, np.arange(2 * self.n - 1)
        for v in self.postorder:
            low[v] = min(low[self.left[v - n]], low[self.right[v - n]])
        nodes = np.flatnonzero(self.parent >= 0)
        parents = self.parent[nodes]
        rows = np.stack([low[nodes], self.sizes[nodes], low[parents], self.sizes[parents]], axis=1)
        return tuple(sorted(map(tuple, rows.tolist())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClusterTree) and self.canonical == other.canonical

    def __hash__(self) -> int:
        return hash(self.canonical)

    def to_nested(self) -> object:
        """The tree as nested pairs of leaf ids (inverse of :meth:`from_nested`)."""
        built: dict[int, object] = {v: v for v in range(self.n)}
        for v in self.postorder:
            first, second = self.children(v)
            built[v] = (built.pop(first), built.pop(second))
        return built[self.root]

    def __repr__(self) -> str:
        return f"ClusterTree({self.to_nested()!r})" if self.n <= 16 else f"ClusterTree(n={self.n})"

    # --- moves --------------------------------------------------------------------------------

    def swap(self, node: int, config: int) -> ClusterTree:
        """The tree after the local swap at non-root internal ``node``; config 0 makes node's second child
        and its sibling siblings (λ_p → (A, (B, C))), config 1 its first child and its sibling."""
        node, config = self._check_move(node, config)
        left, right, parent = self.left.copy(), self.right.copy(), self.parent.copy()
        _rewire(left, right, parent, node, config)
        return ClusterTree(left, right, self.root)

    def _check_move(self, node: object, config: object) -> tuple[int, int]:
        node = require_int("node", node, minimum=self.n, maximum=2 * self.n - 2)
        if node == self.root:
            raise InvalidParameterError(f"node must be a non-root internal node (not the root {self.root}). "
                                        f"Got {node}")
        if config not in _CONFIGS or isinstance(config, bool):
            raise InvalidParameterError(f"config must be 0 or 1. Got {config!r}")
        return node, int(config)


def random_tree(n: int, rng: np.random.Generator) -> ClusterTree:
    """A uniformly random tree among the (2n−3)!! trees on n >= 2 leaves.

    Leaf k (k = 2..n−1) is attached above a uniformly chosen node of the tree built so far (2k − 1 choices,
    the root included); every tree arises from exactly one sequence of choices.
    """
    n = require_int("n", n, minimum=2)
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    targets = [int(rng.integers(0, 2 * k - 1)) for k in range(2, n)]
    return _grow(n, targets)


def _grow(n: int, targets: Sequence[int]) -> ClusterTree:
    """The tree from the attachment choices: target t for leaf k is leaf t if t < k, else internal node n + t − k."""
    left, right = np.zeros(n - 1, dtype=np.int64), np.zeros(n - 1, dtype=np.int64)
    parent = np.full(2 * n - 1, -1, dtype=np.int64)
    left[0], right[0], parent[0], parent[1], root = 0, 1, n, n, n
    for k, t in enumerate(targets, start=2):
        x = t if t < k else n + t - k
        v = n + k - 1
        p = int(parent[x])
        left[k - 1], right[k - 1] = x, k
        parent[x] = parent[k] = v
        parent[v] = p
        if p < 0:
            root = v
        elif left[p - n] == x:
            left[p - n] = v
        else:
            right[p - n] = v
    return ClusterTree(left, right, root)


# --- dissimilarities and quality --------------------------------------------------------------

def validate_dissimilarity(S: object, *, n: int | None = None) -> np.ndarray:
    """S as a square symmetric array with finite, non-negative off-diagonal entries.

    Integer and float arrays keep their dtype; nested lists of ints/Fractions become exact object arrays.
    """
    matrix = np.asarray(S)
    if matrix.dtype.kind not in "iufO" or matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise InvalidParameterError(f"S must be a square matrix of numbers. Got shape {matrix.shape} of {matrix.dtype}")
    if n is not None and matrix.shape[0] != n:
        raise InvalidParameterError(f"S must be {n} x {n}, one row per leaf. Got {matrix.shape[0]} x {matrix.shape[1]}")
    if matrix.dtype == object:
        if not all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in matrix.flat):
            raise InvalidParameterError("S must hold ints or Fractions when it is not a numeric array")
    elif matrix.dtype.kind == "f" and not np.isfinite(matrix).all():
        raise InvalidParameterError("S must be finite. Got inf or nan")
    off = ~np.eye(matrix.shape[0], dtype=bool)
    if not (matrix[off] >= 0).all() or not (matrix == matrix.T).all():
        raise InvalidParameterError("S must be symmetric with non-negative entries off the diagonal")
    return matrix


def _exact_ratio(numerator: object, denominator: int) -> object:
    if isinstance(numerator, (int, np.integer, Fraction)):
        return Fraction(int(numerator) if isinstance(numerator, np.integer) else numerator, denominator)
    return float(numerator) / denominator


def _block_sum(S: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> object:
    total = S[rows[:, None], cols].sum()
    return total.item() if isinstance(total, np.generic) else total


def cross_sums(tree: ClusterTree, S: object) -> dict[int, object]:
    """Σ_{x∈L_λ, y∈R_λ} S(x, y) for every internal node λ."""
    S = validate_dissimilarity(S, n=tree.n)
    return {v: _block_sum(S, tree.leaves(a), tree.leaves(b)) for v in tree.postorder for a, b in [tree.children(v)]}


def dasgupta_quality(tree: ClusterTree, S: object) -> object:
    """Q_D(T) = Σ_λ (|L_λ| + |R_λ|)·Σ_{x∈L_λ, y∈R_λ} S(x, y) = Σ_{x<y} S(x, y)·|leaves(T[x ∨ y])| (Definition 2)."""
    sums = cross_sums(tree, S)
    return sum((int(tree.sizes[v]) * s for v, s in sums.items()), start=0)


def thetas(tree: ClusterTree, S: object) -> dict[int, object]:
    """θ(λ) = Σ_{L_λ × R_λ} S / (|L_λ|·|R_λ|) for every internal node (exact Fractions for exact S; Theorem 3)."""
    sizes = tree.sizes
    return {v: _exact_ratio(s, int(sizes[a] * sizes[b]))
            for v, s in cross_sums(tree, S).items() for a, b in [tree.children(v)]}


def ideal_clustering_violations(tree: ClusterTree, S: object) -> list[tuple[int, int]]:
    """The (child, parent) internal-node pairs with θ(child) > θ(parent).

    Empty iff the tree has the (non-strict) ideal clustering property of Section 3; parent–child pairs
    suffice because θ(child) ≤ θ(parent) along every edge chains to every ancestor (spec A4).
    """
    theta = thetas(tree, S)
    parent = tree.parent
    return [(v, int(parent[v])) for v in tree.postorder if v != tree.root and theta[v] > theta[int(parent[v])]]


def swap_delta(tree: ClusterTree, S: object, node: int, config: int) -> object:
    """Q_D(T') − Q_D(T) for T' = ``tree.swap(node, config)``, from the local formula only.

    With λ = node = (A, B) and C its sibling: ΔQ = c·Σ_AB − |moved|·Σ_{stay, C}, i.e.
    config 1 (M, A and C siblings): c·Σ_AB − b·Σ_AC; config 0 (N, B and C siblings): c·Σ_AB − a·Σ_BC.

    References: 004_a0cddc0a7a24fb37.txt, Appendix A.1 (proof of Theorem 3); spec TC-T5.
    """
    node, config = tree._check_move(node, config)
    S = validate_dissimilarity(S, n=tree.n)
    a, b = tree.children(node)
    moved, stay = (a, b) if config == 0 else (b, a)
    c = tree.sibling(node)
    return local_swap_delta(int(tree.sizes[c]), _block_sum(S, tree.leaves(a), tree.leaves(b)),
                            int(tree.sizes[moved]), _block_sum(S, tree.leaves(stay), tree.leaves(c)))


def local_swap_delta(size_c: int, sum_ab: object, size_moved: int, sum_stay_c: object) -> object:
    """ΔQ = |C|·Σ_AB − |moved|·Σ_{stay,C} for the swap that makes ``stay`` and C siblings (Appendix A.1)."""
    return size_c * sum_ab - size_moved * sum_stay_c


def closest_users(tree: ClusterTree, u: int, m: int) -> np.ndarray:
    """N(u): the first min(m, n − 1) users met going up from leaf u, one sibling subtree at a time.

    The leaves of u's sibling subtree come first ("the immediate parent constitutes the closest
    community"), then those of its parent's sibling, and so on to the root; within one sibling subtree
    the tree's depth-first leaf order breaks ties (the paper leaves this open).

    References: 004_a0cddc0a7a24fb37.txt, Section 7.2; spec §2.7, TC-E8.
    """
    u = require_int("u", u, minimum=0, maximum=tree.n - 1)
    m = require_int("m", m, minimum=0)
    found: list[np.ndarray] = []
    count, node = 0, u
    while node != tree.root and count < m:
        block = tree.leaves(tree.sibling(node))
        found.append(block)
        count += block.size
        node = int(tree.parent[node])
    return np.concatenate(found)[:m] if found else np.zeros(0, dtype=np.int64)
