"""Group privacy for the hockey-stick divergence: Lemma A.2 chained, and Fact 5.1 corrected and refuted.

Lemma A.2 of Imola, Roy Chowdhury, Chaudhuri (a weak triangle inequality) says, for all P, Q, R,

    D_{e^{a+b}}(P || R) <= D_{e^a}(P || Q) + e^a D_{e^b}(Q || R).

Chained along P_0, ..., P_k whose adjacent pairs are (eps, delta)-indistinguishable it gives

    D_{e^{k eps}}(P_0 || P_k) <= delta sum_{j<k} e^{j eps} = delta (e^{k eps} - 1) / (e^eps - 1),

and :func:`fact_5_1_counterexample` shows the bound is attained, so it cannot be improved. Fact 5.1 turns an
(eps, delta, r)-discrete d_EM-DP guarantee into a graded one for d = d_EM(K, K') with k = ceil(d/r)
steps; the paper prints the delta term as delta exp(ceil(d/r)) (Fact 5.1) and as delta exp(eps ceil(d/r))
(Table 1). Both are false in general (spec section 8, A1): the tight chain exceeds each of them for some
(eps, delta). :func:`discrete_to_graded` is the corrected statement.

References: 002_1def8c9789d6e1bd.txt, Lemma A.2, Fact 5.1 and Table 1;
specs/imola_metric_dp_user_level.md, section 8 (A1) and section 7 (T17).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.hockey_stick import hockey_stick_divergence
from dpcert.accountant.input_validation import _nonnegative
from dpcert.mechanisms.parameters import EPS_RANGE, InvalidParameterError, exact_sign, require_int, require_positive, to_exact

__all__ = [
    "ChainWitness",
    "MAX_WITNESS_STEPS",
    "PRINTED_FORMS",
    "PairGuarantee",
    "discrete_to_graded",
    "fact_5_1_counterexample",
    "group_privacy_delta",
    "group_privacy_family",
    "printed_group_delta",
]

SOURCE = "002_1def8c9789d6e1bd.txt"

MAX_WITNESS_STEPS = 32
"""Largest k for the explicit witness chain (2k exact divergences are computed)."""

PRINTED_FORMS = {"fact5.1": "delta exp(k)", "table1": "delta exp(eps k)"}
"""The two printed delta terms of the k-step group-privacy guarantee (k = ceil(d/r))."""


@dataclass(frozen=True)
class PairGuarantee:
    """(eps, delta)-indistinguishability of a pair of inputs: D_{e^eps}(M(K) || M(K')) <= delta, both orders.

    Attributes:
        eps, delta: exact values (delta may exceed 1, where the guarantee is vacuous).
        steps: how many (eps0, delta0) steps of Lemma A.2 were chained to get it (1: none).
    """

    eps: sympy.Expr
    delta: sympy.Expr
    steps: int = 1


MAX_STEPS = 10**4
"""Largest k the chain is evaluated for: Fact 5.1's printed delta e^k, like the chain's e^{k eps}, is
printed, and beyond e^10000 it has more digits than can be evaluated in seconds."""


def _chain_inputs(eps: object, delta: object, k: object) -> tuple[sympy.Expr, sympy.Expr, int]:
    """eps in [0, 10^4] (:data:`dpcert.mechanisms.parameters.EPS_RANGE`'s top), delta in [0, 1], k in [1, 10^4], k eps <= 10^4."""
    eps = _nonnegative("eps", eps)
    if exact_sign(eps - EPS_RANGE[1]) > 0:
        raise InvalidParameterError(f"eps must be in [0, {EPS_RANGE[1]}]. Got {eps}")
    delta = _nonnegative("delta", delta)
    if exact_sign(delta - 1) > 0:
        raise InvalidParameterError(f"delta must be in [0, 1]. Got {delta}")
    k = require_int("k", k, minimum=1, maximum=MAX_STEPS)
    if exact_sign(k * eps - EPS_RANGE[1]) > 0:  # e^{k eps} is printed: keep it below e^10000
        raise InvalidParameterError(f"k eps must be <= {EPS_RANGE[1]} (the composed eps'). Got k = {k}, eps = {eps}")
    return eps, delta, k


def _geometric_sum(eps: sympy.Expr, k: int) -> sympy.Expr:
    """sum_{j<k} e^{j eps} = (e^{k eps} - 1)/(e^eps - 1) (k when eps = 0)."""
    if eps == 0:
        return sympy.Integer(k)
    return (sympy.exp(k * eps) - 1) / (sympy.exp(eps) - 1)


def group_privacy_delta(eps: object, delta: object, k: object) -> sympy.Expr:
    """delta_k = delta sum_{j<k} e^{j eps}: the delta of k chained (eps, delta) steps at e^{k eps}.

    If P_0, ..., P_k have D_{e^eps}(P_j || P_{j+1}) <= delta for every j, then
    D_{e^{k eps}}(P_0 || P_k) <= delta_k (and the same for the reversed chain).

    Args:
        eps: eps >= 0 of each step.
        delta: delta in [0, 1] of each step.
        k: number of steps (integer >= 1).

    Returns:
        The exact delta (e^{k eps} - 1)/(e^eps - 1) * delta (k delta when eps = 0).

    References: 002_1def8c9789d6e1bd.txt, Lemma A.2, applied k - 1 times. Why it holds: by induction,
    D_{e^{k eps}}(P_0 || P_k) <= D_{e^eps}(P_0 || P_1) + e^eps D_{e^{(k-1) eps}}(P_1 || P_k)
    <= delta + e^eps delta_{k-1}.
    """
    eps, delta, k = _chain_inputs(eps, delta, k)
    return delta * _geometric_sum(eps, k)


def printed_group_delta(eps: object, delta: object, k: object, *, form: str) -> sympy.Expr:
    """The paper's PRINTED delta term of the k-step guarantee: false in general (see the module docstring).

    Args:
        eps, delta, k: as in :func:`group_privacy_delta`.
        form: ``"fact5.1"`` for delta exp(k) (Fact 5.1) or ``"table1"`` for delta exp(eps k) (Table 1).

    References: 002_1def8c9789d6e1bd.txt, Fact 5.1 and Table 1 (as printed); refuted by
    :func:`fact_5_1_counterexample` (specs/imola_metric_dp_user_level.md, A1 and T17).
    """
    if form not in PRINTED_FORMS:
        raise InvalidParameterError(f"form must be one of {', '.join(PRINTED_FORMS)}. Got {form!r}")
    eps, delta, k = _chain_inputs(eps, delta, k)
    return delta * sympy.exp(k if form == "fact5.1" else k * eps)


def discrete_to_graded(eps: object, delta: object, r: object, d: object) -> PairGuarantee:
    """Fact 5.1, corrected: an (eps, delta, r)-discrete d_EM-DP mechanism protects a pair at distance d.

    With k = max(1, ceil(d/r)) the pair is (k eps, delta sum_{j<k} e^{j eps})-indistinguishable. The
    max(1, .) matters at d = 0: datasets of different sizes with the same normalized histogram are only
    protected by the (eps, delta) of Definition 5.1 (the printed formula would give (0, delta)).

    Args:
        eps: eps > 0 of the discrete guarantee.
        delta: delta in [0, 1].
        r: the distance unit r > 0 (r >= 1 makes every pair one step: user-level DP).
        d: d_EM(K, K') of normalized histograms, in [0, 1] (d_X <= 1).

    References: 002_1def8c9789d6e1bd.txt, Definition 5.1 and Fact 5.1, corrected per
    specs/imola_metric_dp_user_level.md, section 8 (A1). Why it holds: K and K' are joined by k datasets
    at d_EM steps <= r (interpolate along the optimal coupling, using datasets large enough to hold the
    intermediate histograms), so Lemma A.2 chains k discrete steps.
    """
    eps = require_positive("eps", eps)
    r = require_positive("r", r)
    d = _nonnegative("d", d)
    if exact_sign(d - 1) > 0:
        raise InvalidParameterError(f"d must be in [0, 1] (d_EM of normalized histograms with d_X <= 1). Got {d}")
    steps = max(1, int(sympy.ceiling(d / r)))
    return PairGuarantee(steps * eps, group_privacy_delta(eps, delta, steps), steps)


@dataclass(frozen=True)
class ChainWitness:
    """An explicit chain P_0, ..., P_k on outputs {0, 1} that attains Lemma A.2's chain bound.

    P_k = (0, 1) and P_j(0) = delta sum_{i < k - j} e^{i eps}, so each adjacent pair is
    (eps, delta)-indistinguishable in both orders while D_{e^{k eps}}(P_0 || P_k) = P_0(0) equals
    delta sum_{j<k} e^{j eps}. A mechanism M(K) = P_{min(k, floor(d_EM(K, K_0)/r))} is (eps, delta, r)-discrete
    d_EM-DP (adjacent indices differ by at most one step by the triangle inequality), and its pair
    (K_0, K) at d_EM = k r realizes the chain.

    Attributes:
        eps, delta, k: the step parameters and the number of steps.
        chain: the distributions P_0, ..., P_k, each (P_j(0), P_j(1)) exactly.
        adjacent: for each j, (D_{e^eps}(P_j || P_{j+1}), D_{e^eps}(P_{j+1} || P_j)), exact.
        endpoint: D_{e^{k eps}}(P_0 || P_k), exact.
    """

    eps: sympy.Expr
    delta: sympy.Expr
    k: int
    chain: tuple[tuple[sympy.Expr, sympy.Expr], ...]
    adjacent: tuple[tuple[sympy.Expr, sympy.Expr], ...]
    endpoint: sympy.Expr

    @property
    def chain_bound(self) -> sympy.Expr:
        """Lemma A.2's delta sum_{j<k} e^{j eps}."""
        return group_privacy_delta(self.eps, self.delta, self.k)

    def printed(self, form: str) -> sympy.Expr:
        """The printed delta term ``form`` ("fact5.1" or "table1") at these parameters."""
        return printed_group_delta(self.eps, self.delta, self.k, form=form)

    @property
    def is_chain(self) -> bool:
        """Every adjacent pair has divergence <= delta in both orders (decided exactly)."""
        return all(exact_sign(self.delta - value) >= 0 for pair in self.adjacent for value in pair)

    @property
    def attains_chain_bound(self) -> bool:
        """The endpoint divergence equals Lemma A.2's bound (decided exactly)."""
        return exact_sign(self.endpoint - self.chain_bound) == 0

    def refutes(self, form: str) -> bool:
        """Whether this valid chain breaks the printed delta term ``form``: endpoint > printed (exactly)."""
        return self.is_chain and exact_sign(self.endpoint - self.printed(form)) > 0


def fact_5_1_counterexample(eps: object, delta: object, *, k: object = 2) -> ChainWitness:
    """The explicit chain of spec T17, with its exact hockey-stick divergences.

    With k = 2 and (eps, delta) = (2, 1/100) it gives D_{e^4}(P_0 || P_2) = delta (1 + e^2) = 0.0839 > 0.0739 =
    delta e^2 (Fact 5.1's printed term); with (1/10, 1/1000) it gives 2.105e-3 > 1.221e-3 = delta e^{0.2}
    (Table 1's printed term). Use :meth:`ChainWitness.refutes` to decide each printed form.

    Args:
        eps: eps > 0 of each step.
        delta: delta in (0, 1) of each step; the construction needs
            delta + (e^eps + 1) delta sum_{i < k-1} e^{i eps} <= 1 (the reversed adjacent pairs).
        k: number of steps (integer, 1 <= k <= :data:`MAX_WITNESS_STEPS`).

    Raises:
        InvalidParameterError: invalid eps, delta, k, or delta too large for the chain to exist.

    References: 002_1def8c9789d6e1bd.txt, Fact 5.1 and Table 1 (refuted); Lemma A.2 (attained);
    specs/imola_metric_dp_user_level.md, T17. Why each step is (eps, delta): on output 0,
    P_j(0) - e^eps P_{j+1}(0) = delta, and on output 1 the ratio goes the other way; the reversed pair
    loses at most (e^eps - 1)(delta + (e^eps + 1) P_{j+1}(0) - 1) + delta <= delta on output 1.
    """
    eps = require_positive("eps", eps)
    delta = to_exact("delta", delta)
    if exact_sign(delta) <= 0 or exact_sign(delta - 1) >= 0:
        raise InvalidParameterError(f"delta must be in (0, 1). Got {delta}")
    k = require_int("k", k, minimum=1, maximum=MAX_WITNESS_STEPS)
    t = sympy.exp(eps)
    mass = [delta * _geometric_sum(eps, k - j) if j < k else sympy.Integer(0) for j in range(k + 1)]
    limit = delta + (t + 1) * mass[1]
    if exact_sign(limit - 1) > 0:
        raise InvalidParameterError(
            f"delta must satisfy delta (1 + (e^eps + 1) sum_{{i<k-1}} e^(i eps)) <= 1 for the witness chain. "
            f"Got delta = {delta} (the left side is {float(limit):.6g})")
    chain = tuple((a, 1 - a) for a in mass)
    adjacent = tuple((hockey_stick_divergence(chain[j], chain[j + 1], eps),
                      hockey_stick_divergence(chain[j + 1], chain[j], eps)) for j in range(k))
    endpoint = hockey_stick_divergence(chain[0], chain[k], k * eps)
    return ChainWitness(eps, delta, k, chain, adjacent, endpoint)


def _witness_or_none(eps: sympy.Expr, delta: sympy.Expr, k: int) -> ChainWitness | None:
    """The witness chain at these parameters, or None where it is not built (eps = 0, delta = 0 or too large,
    k > MAX_WITNESS_STEPS)."""
    if exact_sign(eps) == 0 or exact_sign(delta) == 0 or k > MAX_WITNESS_STEPS:
        return None
    try:
        return fact_5_1_counterexample(eps, delta, k=k)
    except InvalidParameterError:
        return None


def _printed_result(witness: ChainWitness | None, eps: sympy.Expr, delta: sympy.Expr, k: int, form: str,
                    name: str, where: str) -> BoundResult:
    value = printed_group_delta(eps, delta, k, form=form)
    note = (f"as printed in {where}: {PRINTED_FORMS[form]} at eps' = k eps; not a valid bound in general "
            "(spec A1, refuted by dpcert.accountant.metric_user_level.group_privacy.fact_5_1_counterexample)")
    if witness is not None and witness.refutes(form):
        note += (f"; false at these inputs: the witness chain has D = {float(witness.endpoint):.6g} "
                 f"> {float(value):.6g}")
    return BoundResult(name, f"{SOURCE}, {where} (as printed)", value, "probability", False, note)


def group_privacy_family(eps: object, delta: object, k: object) -> list[BoundResult]:
    """The delta of k chained (eps, delta) steps: Lemma A.2's bound and the paper's two printed forms.

    Results, in order: ``lemma-a2-chain`` (delta sum_{j<k} e^{j eps}, valid), ``fact5.1-printed``
    (delta e^k) and ``table1-printed`` (delta e^{k eps}), both valid=False; every delta is at
    eps' = k eps. The notes say where the witness chain of :func:`fact_5_1_counterexample` exists at these
    inputs: there Lemma A.2's bound is attained and each printed form below it is false.

    Args:
        eps: eps >= 0 of each step; delta: delta in [0, 1]; k: steps (integer >= 1).

    References: 002_1def8c9789d6e1bd.txt, Lemma A.2, Fact 5.1, Table 1.
    """
    eps, delta, k = _chain_inputs(eps, delta, k)
    witness = _witness_or_none(eps, delta, k)
    note = f"(eps', delta') = (k eps, delta sum_{{j<k}} e^(j eps)) with k eps = {k * eps}"
    if witness is not None:
        note += "; attained by the witness chain (fact_5_1_counterexample), so it cannot be improved"
    chain = BoundResult("lemma-a2-chain", f"{SOURCE}, Lemma A.2 (chained k - 1 times)",
                        group_privacy_delta(eps, delta, k), "probability", True, note)
    return [chain, _printed_result(witness, eps, delta, k, "fact5.1", "fact5.1-printed", "Fact 5.1"),
            _printed_result(witness, eps, delta, k, "table1", "table1-printed", "Table 1")]
