"""CMN and CMN-DP: Metropolis–Hastings over full binary trees towards high HRG likelihood Q_M.

Both use GENTREE's proposal (a uniform non-root internal node, a uniform one of its two local swaps;
symmetric, probability 1/(2(n − 2))) and its swap state, on the graph's adjacency matrix instead of S:

- CMN (Clauset, Moore, Newman): acceptance min(1, Q_M(T')/Q_M(T)) = min(1, exp(Δ ln Q_M)); stationary law
  π(T) ∝ Q_M(T).
- CMN-DP, **as read from the authors' code** (``hrg_global.py``, used for Figure 5; spec §2.6, A23): the
  exponential mechanism with utility u(T) = ln Q_M(T) and sensitivity Δu = ln(3n²/4), i.e. target
  π(T) ∝ exp(ε·u(T)/(2Δu)), run as MCMC with acceptance min(1, exp(clip(ε·Δ ln Q_M/(2 ln(3n²/4)), −30, 30))).
  The paper gives neither the budget split nor the sensitivity; the real mechanism is Xiao, Chen and Tan,
  "Differentially private network data release via structural inference", KDD 2014, which also spends
  budget on noisy E_i after convergence. Figure 5 scores the trees with the true E_i, so that step is not
  here. The clamp at −30 puts a floor e^−30 under every acceptance, so the clamped chain does not satisfy
  detailed balance for moves with ε·Δ ln Q_M/(2Δu) < −30.

Why CMN-DP is meant to be private: an exact draw from exp(ε·u/(2Δu)) is ε-DP when u changes by at most Δu
between neighbouring graphs (McSherry and Talwar 2007); ln(3n²/4) is the code's constant, not checked here,
and a finite chain only approximates the draw.

Each chain records ln Q_M (true counts) after every proposal, averaged over each block of n proposals:
Figure 5's curves, whose x-axis is steps/n.

References: 004_a0cddc0a7a24fb37.txt, Section 3.1 (CMN, CMN-DP), Section 6 (EQ2, Figure 5, Result 2);
spec §1.4(a), §2.6, §4.2, A10, A23, A24.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int
from dpcert.mechanisms.privact.gentree import (
    DEFAULT_ITERATIONS_PER_NODE,
    _chain_length,
    _initial_tree,
    _metropolis_swaps,
    acceptance_log_probability,
)
from dpcert.mechanisms.privact.graphs import SocialGraph
from dpcert.mechanisms.privact.likelihood import (
    _BlockMeans,
    _dense_adjacency,
    _LikelihoodState,
    _require_graph,
    log_likelihood,
)
from dpcert.mechanisms.privact.tree import ClusterTree

__all__ = ["CMN_DP_EXPONENT_CLAMP", "LikelihoodRun", "cmn", "cmn_dp", "cmn_dp_acceptance_log_probability",
           "cmn_dp_sensitivity"]

CMN_DP_EXPONENT_CLAMP = 30.0
"""The authors' code clamps CMN-DP's acceptance exponent to [−30, 30] (spec §2.6, [code])."""


@dataclass(frozen=True, eq=False)
class LikelihoodRun:
    """A chain over trees scored by ln Q_M with the true edge counts.

    Attributes:
        tree: the final tree.
        log_likelihood: ln Q_M of the final tree, recomputed from scratch.
        initial_log_likelihood: ln Q_M(T_0).
        iterations: proposals made.
        accepted: proposals accepted.
        log_likelihood_trace: ln Q_M averaged over each complete block of n proposals (Figure 5's curve; a
            final partial block is dropped).
    """

    tree: ClusterTree
    log_likelihood: float
    initial_log_likelihood: float
    iterations: int
    accepted: int
    log_likelihood_trace: np.ndarray


def cmn_dp_sensitivity(n: int) -> sympy.Expr:
    """Δu = ln(3n²/4), the sensitivity of ln Q_M the authors' code assumes (spec §2.6; not in the paper)."""
    n = require_int("n", n, minimum=2)
    return sympy.log(sympy.Rational(3 * n * n, 4))


def cmn_dp_acceptance_log_probability(delta: float, eps: object, n: int) -> float:
    """ln of CMN-DP's acceptance: min(0, clip(ε·Δ/(2·ln(3n²/4)), −30, 30)) for Δ = Δ ln Q_M.

    Unclamped, exp of this is min(1, π(T')/π(T)) for the exponential mechanism's π ∝ exp(ε·u/(2Δu)).
    """
    scale = float(require_eps("eps", eps)) / (2 * float(cmn_dp_sensitivity(n)))
    return _clamped_log_acceptance(scale)(delta)


def _clamped_log_acceptance(scale: float) -> Callable[[float], float]:
    def log_acceptance(delta: float) -> float:
        return min(0.0, max(-CMN_DP_EXPONENT_CLAMP, min(CMN_DP_EXPONENT_CLAMP, scale * delta)))

    return log_acceptance


def _likelihood_chain(graph: object, rng: np.random.Generator, log_acceptance: Callable[[float], float],
                      iterations_per_node: object, iterations: object, initial: ClusterTree | None) -> LikelihoodRun:
    graph = _require_graph(graph)
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    total = _chain_length(graph.n, iterations_per_node, iterations)
    initial = _initial_tree(graph.n, initial, rng)
    state = _LikelihoodState(initial, _dense_adjacency(graph))
    start = state.quality
    means = _BlockMeans(state, follow=False)
    accepted, _ = _metropolis_swaps(state, rng, total, log_acceptance, on_step=means)
    final = state.to_tree()
    return LikelihoodRun(final, log_likelihood(final, graph), start, total if graph.n > 2 else 0, accepted,
                         np.asarray(means.means))


def cmn(graph: SocialGraph, rng: np.random.Generator, *, iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE,
        iterations: int | None = None, initial: ClusterTree | None = None) -> LikelihoodRun:
    """CMN: Metropolis–Hastings towards π(T) ∝ Q_M(T) on the raw graph (not private).

    Args:
        graph: the graph, n >= 2.
        rng: the only source of randomness.
        iterations_per_node: I = iterations_per_node · n proposals (default 1000, the paper's budget).
        iterations: the number of proposals, overriding ``iterations_per_node``.
        initial: T_0; default a uniformly random tree drawn with ``rng`` (A24).
    """
    return _likelihood_chain(graph, rng, acceptance_log_probability, iterations_per_node, iterations, initial)


def cmn_dp(graph: SocialGraph, eps: object, rng: np.random.Generator, *,
           iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE, iterations: int | None = None,
           initial: ClusterTree | None = None) -> LikelihoodRun:
    """CMN-DP as the authors' code runs it: the exponential-mechanism chain with utility ln Q_M.

    Acceptance min(1, exp(clip(ε·Δ ln Q_M/(2 ln(3n²/4)), −30, 30))) (module docstring: a reading of the
    code, not the paper, which defers to Xiao, Chen and Tan, KDD 2014). Arguments as :func:`cmn`, plus the
    budget ``eps`` > 0 spent entirely in the exponent.
    """
    eps = require_eps("eps", eps)
    graph = _require_graph(graph)
    scale = float(eps) / (2 * float(cmn_dp_sensitivity(graph.n)))
    return _likelihood_chain(graph, rng, _clamped_log_acceptance(scale), iterations_per_node, iterations, initial)
