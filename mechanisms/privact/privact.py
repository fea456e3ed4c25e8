"""PRIVACT end to end (Algorithm 2): one noisy degree vector per user, then GENTREE on S̄ at the server.

    1  aggregator: uniformly random partition of V into K = ⌊ln n⌋ near-equal bins, sent to every user
    2  user i:     c̄_i = c_i + Lap(0, σ)^K, sent once            (:func:`local_reports`, the only private step)
    3  aggregator: S̄(i, j) = max(1, ‖c̄_i − c̄_j‖_1); T_dp = GENTREE(S̄) with 1000·n iterations   (:func:`aggregate`)

Why it is private: step 2 is the only access to the users' neighbour lists and is ε_u = 1/σ edge-LDP per
user, 2/σ per undirected edge; :func:`aggregate` takes the reports and a fresh random generator, never the
graph, so S̄, T_dp, the degree estimates and every m-closest-users query are post-processing. One query
per user: no budget split.

References: 004_a0cddc0a7a24fb37.txt, Algorithm 2, Section 4.4, Section 7.2 (degree estimate);
spec §2.5, A1, TC-P5.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.privact.degree_vector import (
    PrivactBudget,
    bins_for,
    degree_vectors,
    noisy_degree_vectors,
    random_partition,
    validate_partition,
)
from dpcert.mechanisms.privact.dissimilarity import dissimilarity_matrix
from dpcert.mechanisms.privact.gentree import DEFAULT_ITERATIONS_PER_NODE, GenTreeResult, gentree
from dpcert.mechanisms.privact.graphs import SocialGraph
from dpcert.mechanisms.privact.tree import ClusterTree, clique_constant, closest_users, dasgupta_quality

__all__ = ["PrivateTreeUtility", "PrivactReports", "PrivactResult", "UtilityComparison", "aggregate", "compare_utility",
           "estimated_degrees", "local_reports", "privact"]


@dataclass(frozen=True, eq=False)
class PrivactReports:
    """Everything the aggregator holds after the users' single round.

    Attributes:
        partition: the public bin of every user (n,).
        K: the number of bins.
        noisy_vectors: c̄, one row of K noisy counts per user (n, K).
        budget: σ with its per-user and per-edge ε.
    """

    partition: np.ndarray
    K: int
    noisy_vectors: np.ndarray
    budget: PrivactBudget


@dataclass(frozen=True, eq=False)
class PrivactResult:
    """PRIVACT's release and what it cost.

    Attributes:
        tree: the released tree T_dp.
        reports: the users' reports it was computed from.
        dissimilarity: S̄.
        run: the GENTREE run (quality under S̄, acceptance count, trace).
    """

    tree: ClusterTree
    reports: PrivactReports
    dissimilarity: np.ndarray
    run: GenTreeResult

    @property
    def eps_user(self) -> sympy.Expr:
        """ε spent per user (one bit of one neighbour list): 1/σ."""
        return self.reports.budget.eps_user

    @property
    def eps_edge(self) -> sympy.Expr:
        """ε spent per undirected edge (both endpoints report it): 2/σ."""
        return self.reports.budget.eps_edge

    def closest_users(self, u: int, m: int | None = None) -> np.ndarray:
        """N(u) from T_dp; m defaults to u's estimated degree (Section 7.2)."""
        u = require_int("u", u, minimum=0, maximum=self.tree.n - 1)
        m = int(estimated_degrees(self.reports.noisy_vectors)[u]) if m is None else m
        return closest_users(self.tree, u, m)


def estimated_degrees(noisy_vectors: np.ndarray) -> np.ndarray:
    """m_u = max(0, trunc(Σ_l c̄_u^l)): the degree estimate from the noisy degree vector ([code] ``int``)."""
    noisy = np.asarray(noisy_vectors, dtype=np.float64)
    if noisy.ndim != 2:
        raise InvalidParameterError(f"noisy_vectors must be an (n, K) array. Got shape {noisy.shape}")
    return np.maximum(np.trunc(noisy.sum(axis=1)), 0).astype(np.int64)


def local_reports(graph: SocialGraph, budget: PrivactBudget, rng: np.random.Generator, *, K: int | None = None,
                  partition: object | None = None) -> PrivactReports:
    """Algorithm 2, lines 1–3: the public partition and every user's noisy degree vector.

    Args:
        graph: the federated graph (each row of its adjacency is one user's private bit vector).
        budget: the Laplace scale σ (e.g. ``PrivactBudget.from_eps_edge(1)``).
        rng: the only source of randomness.
        K: number of bins (default ⌊ln n⌋).
        partition: a fixed partition instead of a random one (privacy holds for any partition).
    """
    if not isinstance(graph, SocialGraph):
        raise InvalidParameterError(f"graph must be a SocialGraph. Got {type(graph).__name__}")
    if not isinstance(budget, PrivactBudget):
        raise InvalidParameterError(f"budget must be a PrivactBudget. Got {type(budget).__name__}")
    K = bins_for(graph.n) if K is None else require_int("K", K, minimum=1, maximum=graph.n)
    bins = random_partition(graph.n, K, rng) if partition is None else validate_partition(partition, graph.n, K)
    noisy = noisy_degree_vectors(degree_vectors(graph, bins, K), budget.sigma, rng)
    return PrivactReports(bins, K, noisy, budget)


def aggregate(reports: PrivactReports, rng: np.random.Generator, *,
              iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE, iterations: int | None = None) -> PrivactResult:
    """Algorithm 2, lines 4–5, at the aggregator: S̄ from the reports and T_dp = GENTREE(S̄).

    Post-processing: it receives the reports, never the graph.
    """
    if not isinstance(reports, PrivactReports):
        raise InvalidParameterError(f"reports must be PrivactReports. Got {type(reports).__name__}")
    dissimilarity = dissimilarity_matrix(reports.noisy_vectors)
    run = gentree(dissimilarity, rng, iterations_per_node=iterations_per_node, iterations=iterations)
    return PrivactResult(run.tree, reports, dissimilarity, run)


def privact(graph: SocialGraph, eps_edge: object, rng: np.random.Generator, *, K: int | None = None,
            iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE, iterations: int | None = None) -> PrivactResult:
    """PRIVACT (Algorithm 2) at per-edge budget ε_edge (the paper's reported ε; σ = 2/ε_edge, spec A1).

    Returns the released tree and the spent ε: ``result.eps_edge`` = ε_edge, ``result.eps_user`` = ε_edge/2.
    """
    reports = local_reports(graph, PrivactBudget.from_eps_edge(eps_edge), rng, K=K)
    return aggregate(reports, rng, iterations_per_node=iterations_per_node, iterations=iterations)


@dataclass(frozen=True)
class PrivateTreeUtility:
    """One private tree scored against the non-private one (both with the noiseless S).

    Attributes:
        eps_edge, eps_user: the budget spent (σ = 2/ε_edge).
        relative_utility: Q_D(T_dp; S)/ρ.
        loss: |Q_D(T_dp; S) − Q_D(T; S)| / Q_D(T; S), the paper's utility loss (EQ1).
        seconds: wall-clock time of the users' reports and the aggregation.
    """

    eps_edge: sympy.Expr
    eps_user: sympy.Expr
    relative_utility: float
    loss: float
    seconds: float


@dataclass(frozen=True)
class UtilityComparison:
    """PRIVACT against the non-private tree on one public partition (the paper's Table 2 measurement).

    Attributes:
        n, K, rho: users, bins and ρ = (n³ − n)/3.
        relative_utility: Q_D(T; S)/ρ of the non-private GENTREE tree on S = max(1, ‖c_i − c_j‖_1).
        seconds: wall-clock time of the non-private GENTREE run.
        private: one :class:`PrivateTreeUtility` per ε_edge.
    """

    n: int
    K: int
    rho: int
    relative_utility: float
    seconds: float
    private: tuple[PrivateTreeUtility, ...]


def compare_utility(graph: SocialGraph, eps_edges: Sequence[object], rng: np.random.Generator, *,
                    iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE) -> UtilityComparison:
    """The paper's utility experiment: one partition, the non-private tree, and PRIVACT's tree per ε_edge.

    Both trees are scored with the noiseless S, as in the paper's code (004_a0cddc0a7a24fb37.txt, Section 6,
    Table 2, EQ1).
    """
    if not isinstance(graph, SocialGraph):
        raise InvalidParameterError(f"graph must be a SocialGraph. Got {type(graph).__name__}")
    budgets = [PrivactBudget.from_eps_edge(eps) for eps in eps_edges]
    K = bins_for(graph.n)
    partition = random_partition(graph.n, K, rng)
    S = dissimilarity_matrix(degree_vectors(graph, partition, K))
    rho = clique_constant(graph.n)
    start = time.perf_counter()
    reference = gentree(S, rng, iterations_per_node=iterations_per_node).quality
    seconds = time.perf_counter() - start
    private = []
    for budget in budgets:
        start = time.perf_counter()
        result = aggregate(local_reports(graph, budget, rng, partition=partition), rng,
                           iterations_per_node=iterations_per_node)
        quality = dasgupta_quality(result.tree, S)
        private.append(PrivateTreeUtility(budget.eps_edge, budget.eps_user, float(quality / rho),
                                          float(abs(quality - reference) / reference), time.perf_counter() - start))
    return UtilityComparison(graph.n, K, rho, float(reference / rho), seconds, tuple(private))
