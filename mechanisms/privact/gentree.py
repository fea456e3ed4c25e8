"""GENTREE: Metropolis–Hastings over full binary trees towards the Boltzmann law Pr(T) ∝ exp(Q_D(T)).

Each iteration picks one of the n − 2 non-root internal nodes λ uniformly and one of its two local swaps
uniformly (proposal probability 1/(2(n − 2)); every swap has a reverse swap of the same probability, so
the proposal is symmetric), and accepts the new tree with probability min(1, e^{ΔQ}) at temperature 1.
The default run is 1000·n iterations, as in the paper (no convergence test; spec A10).

A proposal costs O(|A|·|C|) (or O(|B|·|C|)), never O(n²): the sampler keeps every internal node's
cross sum Σ_{L×R} S and a depth-first leaf order in which every subtree is a contiguous block, so ΔQ needs
one block sum; an accepted move costs one more block sum and O(n) vectorised bookkeeping.

Why its output is private in PRIVACT: GENTREE reads only the dissimilarity matrix S̄ built from the
noisy degree vectors; it is post-processing.

References: 004_a0cddc0a7a24fb37.txt, Algorithm 1, Section 4.3; spec §2.4, TC-M1, TC-M2.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.privact.tree import (
    ClusterTree,
    _block_sum,
    _rewire,
    dasgupta_quality,
    local_swap_delta,
    random_tree,
    validate_dissimilarity,
)

__all__ = ["DEFAULT_ITERATIONS_PER_NODE", "GenTreeResult", "acceptance_log_probability", "gentree", "proposal_moves"]

DEFAULT_ITERATIONS_PER_NODE = 1000
"""The paper's 1000·n iterations (Section 6; [code] 1000 epochs of n proposals)."""

_CHUNK = 1 << 16


def acceptance_log_probability(delta: object) -> object:
    """ln min(1, e^{ΔQ}) = min(0, ΔQ): the Metropolis acceptance at temperature 1 (exact for exact ΔQ)."""
    return min(0, delta)


def proposal_moves(tree: ClusterTree) -> list[tuple[int, int]]:
    """The 2(n − 2) equally likely proposals (node, config) from ``tree``."""
    return [(int(node), config) for node in tree.non_root_internal_nodes for config in (0, 1)]


@dataclass(frozen=True, eq=False)
class GenTreeResult:
    """The outcome of a GENTREE run.

    Attributes:
        tree: the final tree T*.
        quality: Q_D(T*; S), recomputed from scratch (exact for exact S).
        initial_quality: Q_D(T_0; S).
        iterations: proposals made.
        accepted: proposals accepted.
        quality_trace: Q_D (as float) after every block of n proposals.
    """

    tree: ClusterTree
    quality: object
    initial_quality: object
    iterations: int
    accepted: int
    quality_trace: np.ndarray


class _SwapState:
    """A mutable tree with cached cross sums and a contiguous leaf layout (GENTREE's working state)."""

    def __init__(self, tree: ClusterTree, S: np.ndarray) -> None:
        self.n, self.root = tree.n, tree.root
        self.left, self.right, self.parent = tree.left.copy(), tree.right.copy(), tree.parent.copy()
        order, start = tree._layout
        self.S, self.order = S, order.copy()
        self.start, self.size = start.copy(), tree.sizes.copy()
        self.cross: list[object] = [0] * (2 * tree.n - 1)
        for v in tree.postorder:
            a, b = tree.children(v)
            self.cross[v] = self.block(a, b)
        self.quality = sum((int(self.size[v]) * self.cross[v] for v in tree.postorder), start=0)

    def block(self, u: int, v: int) -> object:
        """Σ_{x ∈ leaves(u), y ∈ leaves(v)} S(x, y)."""
        su, sv = self.start[u], self.start[v]
        return _block_sum(self.S, self.order[su: su + self.size[u]], self.order[sv: sv + self.size[v]])

    def parts(self, lam: int, config: int) -> tuple[int, int, int, int]:
        """(moved, stay, parent, C) of the swap (lam, config): ``stay`` and C become siblings under lam."""
        k = lam - self.n
        a, b = int(self.left[k]), int(self.right[k])
        moved, stay = (a, b) if config == 0 else (b, a)
        p = int(self.parent[lam])
        c = int(self.right[p - self.n]) if self.left[p - self.n] == lam else int(self.left[p - self.n])
        return moved, stay, p, c

    def propose(self, lam: int, config: int) -> tuple[object, object]:
        """(ΔQ, Σ_{stay, C}) of the swap (lam, config)."""
        moved, stay, _, c = self.parts(lam, config)
        sum_stay_c = self.block(stay, c)
        return local_swap_delta(int(self.size[c]), self.cross[lam], int(self.size[moved]), sum_stay_c), sum_stay_c

    def apply(self, lam: int, config: int, delta: object, sum_stay_c: object) -> None:
        """Accept the swap: rewire, update the two cross sums, the leaf layout and Q."""
        p = int(self.parent[lam])
        moved, stay, c = _rewire(self.left, self.right, self.parent, lam, config)
        self.cross[p] = self.cross[lam] + self.block(moved, c)
        self.cross[lam] = sum_stay_c
        start = self.start
        sm, ss, sc = start[moved], start[stay], start[c]
        if ss < sm < sc or sc < sm < ss:  # moved sits between stay and C: swap the adjacent blocks moved, C
            self._swap_blocks(*((moved, c) if sm < sc else (c, moved)))
        self.size[lam] = self.size[stay] + self.size[c]
        start[lam] = min(start[stay], start[c])
        self.quality += delta

    def _swap_blocks(self, first: int, second: int) -> None:
        start, size = self.start, self.size
        s, x, y = int(start[first]), int(size[first]), int(size[second])
        end = start + size
        inside_first = (start >= s) & (end <= s + x)
        inside_second = (start >= s + x) & (end <= s + x + y)
        start[inside_first] += y
        start[inside_second] -= x
        self.order[s: s + x + y] = np.concatenate([self.order[s + x: s + x + y], self.order[s: s + x]])

    def to_tree(self) -> ClusterTree:
        return ClusterTree(self.left.copy(), self.right.copy(), self.root)

    def non_root_internal_nodes(self) -> np.ndarray:
        """The n − 2 internal nodes a swap is proposed at (the root never moves)."""
        nodes = np.arange(self.n, 2 * self.n - 1)
        return nodes[nodes != self.root]


def gentree(S: object, rng: np.random.Generator, *, iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE,
            iterations: int | None = None, initial: ClusterTree | None = None,
            on_step: Callable[[tuple[int, int] | None], None] | None = None) -> GenTreeResult:
    """Run GENTREE (Algorithm 1) on the dissimilarity matrix S.

    Args:
        S: n x n symmetric dissimilarities, n >= 2 (float array, integer array, or exact ints/Fractions).
        rng: the only source of randomness.
        iterations_per_node: I = iterations_per_node · n proposals (default 1000, the paper's).
        iterations: the number of proposals, overriding ``iterations_per_node``.
        initial: T_0; default a uniformly random tree drawn with ``rng`` (the paper leaves T_0 open, A24).
        on_step: called after every proposal with the accepted move (node, config), or None when it was
            rejected, so a caller can follow the chain's trees (Figure 5 scores them by log Q_M); it sees
            the moves only and draws nothing from ``rng``.

    Returns:
        The final tree, its quality, the acceptance count and a trace of Q_D every n proposals.
    """
    S = validate_dissimilarity(S)
    n = S.shape[0]
    if n < 2:
        raise InvalidParameterError(f"S must be at least 2 x 2 (n >= 2 leaves). Got {n} x {n}")
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    total = _chain_length(n, iterations_per_node, iterations)
    initial = _initial_tree(n, initial, rng)
    state = _SwapState(initial, S)
    start_quality = state.quality
    accepted, trace = _metropolis_swaps(state, rng, total, acceptance_log_probability, on_step=on_step)
    final = state.to_tree()
    return GenTreeResult(final, dasgupta_quality(final, S), start_quality, total if n > 2 else 0, accepted,
                         trace)


def _chain_length(n: int, iterations_per_node: object, iterations: object) -> int:
    """I = iterations_per_node · n proposals, or ``iterations`` when given."""
    per_node = require_int("iterations_per_node", iterations_per_node, minimum=0)
    return per_node * n if iterations is None else require_int("iterations", iterations, minimum=0)


def _initial_tree(n: int, initial: ClusterTree | None, rng: np.random.Generator) -> ClusterTree:
    """T_0: ``initial`` checked against n, or a uniformly random tree drawn with ``rng``."""
    if initial is None:
        return random_tree(n, rng)
    if not isinstance(initial, ClusterTree) or initial.n != n:
        raise InvalidParameterError(f"initial must be a ClusterTree on {n} leaves. Got {initial!r}")
    return initial


def _metropolis_swaps(state: _SwapState, rng: np.random.Generator, total: int,
                     log_acceptance: Callable[[object], object], *,
                     on_step: Callable[[tuple[int, int] | None], None] | None = None) -> tuple[int, np.ndarray]:
    """``total`` Metropolis–Hastings proposals over local swaps from ``state``, which is updated in place.

    Each proposal is a uniform non-root internal node and a uniform one of its two swaps (symmetric,
    probability 1/(2(n − 2))); it is accepted with probability exp(min(0, log_acceptance(Δ))) for the
    score change Δ that ``state.propose`` returns (GENTREE: Δ = ΔQ_D and log_acceptance = min(0, Δ)).

    Returns:
        (accepted proposals, the state's score as float after every block of n proposals).
    """
    candidates = state.non_root_internal_nodes()
    n = state.n
    trace, accepted, done = [], 0, 0
    while candidates.size and done < total:
        size = min(_CHUNK, total - done)
        nodes = candidates[rng.integers(0, candidates.size, size)].tolist()
        configs = rng.integers(0, 2, size).tolist()
        uniforms = rng.random(size).tolist()
        for step in range(size):
            lam, config = nodes[step], configs[step]
            delta, sum_stay_c = state.propose(lam, config)
            log_a = log_acceptance(delta)
            move = None
            if log_a >= 0 or uniforms[step] < math.exp(log_a):
                state.apply(lam, config, delta, sum_stay_c)
                accepted += 1
                move = (lam, config)
            if on_step is not None:
                on_step(move)
            if (done + step + 1) % n == 0:
                trace.append(float(state.quality))
        done += size
    return accepted, np.asarray(trace)
