"""Figure 5's data: ln Q_M along PRIVACT's chain and along CMN-DP's at equal ε, averaged over seeds (EQ2).

PRIVACT's chain is Algorithm 2 exactly as :func:`~dpcert.mechanisms.privact.privact.privact` runs it with
the same generator (reports, then GENTREE on S̄ from a uniformly random T_0); gentree's ``on_step``
observer follows its trees on the true adjacency and scores each by ln Q_M with the true edge counts. The
score is the evaluation, not part of the release. CMN-DP's chain is :func:`~dpcert.mechanisms.privact.cmn.cmn_dp`
(the authors' code's reading, spec A23). Each curve is ln Q_M averaged over every block of n proposals
(x-axis steps/n), then over the seeds.

Result 2 says PRIVACT's trees beat CMN-DP's on Q_M for every graph and ε: :meth:`LikelihoodComparison.privact_above`
compares the seed-averaged last block of the two curves.

References: 004_a0cddc0a7a24fb37.txt, Section 6 (EQ2, Figure 5, Result 2); spec §4.2 (seeds 1234, 144, 1766;
ε ∈ {0.5, 1, 2} per edge; 1000·n proposals), A10, A23.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int
from dpcert.mechanisms.privact.cmn import LikelihoodRun, cmn_dp
from dpcert.mechanisms.privact.degree_vector import PrivactBudget
from dpcert.mechanisms.privact.dissimilarity import dissimilarity_matrix
from dpcert.mechanisms.privact.gentree import DEFAULT_ITERATIONS_PER_NODE, gentree
from dpcert.mechanisms.privact.likelihood import (
    _BlockMeans,
    _dense_adjacency,
    _LikelihoodState,
    _require_graph,
    log_likelihood,
)
from dpcert.mechanisms.privact.privact import local_reports
from dpcert.mechanisms.privact.tree import random_tree

__all__ = ["FIGURE5_EPS_EDGES", "FIGURE5_SEEDS", "LikelihoodComparison", "compare_likelihood",
           "privact_likelihood_run"]

FIGURE5_EPS_EDGES = (sympy.Rational(1, 2), sympy.Integer(1), sympy.Integer(2))
"""Figure 5's per-edge budgets ε ∈ {0.5, 1, 2} (spec §4.2)."""

FIGURE5_SEEDS = (1234, 144, 1766)
"""The authors' code's seeds for Figure 5 (spec §4.2, [code])."""


def privact_likelihood_run(graph: object, eps_edge: object, rng: np.random.Generator, *,
                           iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE, K: int | None = None
                           ) -> LikelihoodRun:
    """PRIVACT (Algorithm 2) at per-edge budget ε_edge, its GENTREE trees scored by ln Q_M (true counts).

    Draws exactly what ``privact(graph, eps_edge, rng, K=K, iterations_per_node=...)`` draws, in the same
    order, so the final tree is PRIVACT's release for that generator.
    """
    graph = _require_graph(graph)
    reports = local_reports(graph, PrivactBudget.from_eps_edge(eps_edge), rng, K=K)
    initial = random_tree(graph.n, rng)
    follower = _LikelihoodState(initial, _dense_adjacency(graph))
    start = follower.quality
    means = _BlockMeans(follower, follow=True)
    run = gentree(dissimilarity_matrix(reports.noisy_vectors), rng, iterations_per_node=iterations_per_node,
                  initial=initial, on_step=means)
    return LikelihoodRun(run.tree, log_likelihood(run.tree, graph), start, run.iterations, run.accepted,
                         np.asarray(means.means))


@dataclass(frozen=True, eq=False)
class LikelihoodComparison:
    """PRIVACT against CMN-DP on one graph, by ln Q_M along the chains (Figure 5).

    Attributes:
        network: the graph's name.
        n: its number of vertices.
        eps_edges: the per-edge budgets.
        seeds: one generator seed per repetition (each chain gets ``numpy.random.default_rng(seed)``).
        iterations_per_node: proposals per chain divided by n (the paper: 1000).
        privact_traces: (ε, seed, block) ln Q_M block means of PRIVACT's chain.
        cmn_dp_traces: the same for CMN-DP's.
        seconds: wall-clock time of all the chains.
    """

    network: str
    n: int
    eps_edges: tuple[sympy.Expr, ...]
    seeds: tuple[int, ...]
    iterations_per_node: int
    privact_traces: np.ndarray
    cmn_dp_traces: np.ndarray
    seconds: float

    @property
    def privact_mean(self) -> np.ndarray:
        """(ε, block): PRIVACT's curve, averaged over the seeds."""
        return self.privact_traces.mean(axis=1)

    @property
    def cmn_dp_mean(self) -> np.ndarray:
        """(ε, block): CMN-DP's curve, averaged over the seeds."""
        return self.cmn_dp_traces.mean(axis=1)

    def final_gaps(self) -> np.ndarray:
        """(ε,): PRIVACT's minus CMN-DP's seed-averaged ln Q_M over the last block of n proposals."""
        return self.privact_mean[:, -1] - self.cmn_dp_mean[:, -1]

    def privact_above(self) -> tuple[bool, ...]:
        """Result 2 at each ε: PRIVACT's seed-averaged last block is above CMN-DP's."""
        return tuple(bool(gap > 0) for gap in self.final_gaps())


def compare_likelihood(graph: object, *, eps_edges: Sequence[object] = FIGURE5_EPS_EDGES,
                       seeds: Sequence[int] = FIGURE5_SEEDS,
                       iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE) -> LikelihoodComparison:
    """Figure 5 for one graph: PRIVACT's and CMN-DP's ln Q_M curves at every ε and seed.

    Costs 2·|eps_edges|·|seeds|·iterations_per_node·n proposals (about 30–50 µs each at n ≈ 2000).
    """
    graph = _require_graph(graph)
    if isinstance(eps_edges, (str, bytes)) or not isinstance(eps_edges, Sequence) or not eps_edges:
        raise InvalidParameterError(f"eps_edges must be a non-empty sequence of budgets. Got {eps_edges!r}")
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or not seeds:
        raise InvalidParameterError(f"seeds must be a non-empty sequence of ints >= 0. Got {seeds!r}")
    budgets = tuple(require_eps(f"eps_edges[{k}]", eps) for k, eps in enumerate(eps_edges))
    seeds = tuple(require_int(f"seeds[{k}]", seed, minimum=0) for k, seed in enumerate(seeds))
    per_node = require_int("iterations_per_node", iterations_per_node, minimum=1)
    start = time.perf_counter()
    privact_runs = [[privact_likelihood_run(graph, eps, np.random.default_rng(seed), iterations_per_node=per_node)
                     for seed in seeds] for eps in budgets]
    cmn_dp_runs = [[cmn_dp(graph, eps, np.random.default_rng(seed), iterations_per_node=per_node) for seed in seeds]
                   for eps in budgets]
    seconds = time.perf_counter() - start
    return LikelihoodComparison(graph.name, graph.n, budgets, seeds, per_node, _traces(privact_runs),
                                _traces(cmn_dp_runs), seconds)


def _traces(runs: list[list[LikelihoodRun]]) -> np.ndarray:
    return np.array([[run.log_likelihood_trace for run in row] for row in runs])
