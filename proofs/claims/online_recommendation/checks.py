"""The checks behind p-REC's claims: its privacy lemmas on exact traces, the voters' state along every
sequence, the loss bounds on seeded runs, the proofs' closed-form steps, and slips.

:func:`check_privacy_lemmas` evaluates Lemmas 12, 18, 14/19, the leaky-round corollary and Theorems 11/17
at every round of every sequence of an exact privacy-loss trace, and :func:`check_geometric_series` the steps
(15)-(17) of Theorem 17's proof (Theorem 11's at D = R = 0) in between; :func:`check_peer_invariant` replays
the peers' credits (the proofs of Theorems 11, 16 and 17 rest on peers never being removed);
:func:`prec_sim_reduction` compares p-REC at D = R = 0 with p-REC_sim sequence by sequence (Section 8.2);
:func:`pathwise_loss_check` and :func:`expected_loss_check` test Theorems 10 and 16 on seeded runs;
:func:`theorem_6_random_client_loss` computes the expected loss Theorem 6's random client forces, exactly;
:func:`bounds_consistency` compares Theorem 17's upper bound with Theorem 1's lower bound at Theorem 16's loss;
:func:`online_recommendation_facts` decides the closed-form steps of the proofs for every parameter value
with sympy; the witnesses show the paper's slips A7 (Lemma 4's printed equivalent condition) and A2 (uniform
rounds are not O(R)). The bounds they test are in :mod:`dpcert.accountant.online_recommendation.bounds`.

Why the checks decide what they claim: every probability of a recommendation sequence is an exact product of
the per-round probabilities gamma/m + (1 - gamma) phi(x_j)/sum_k phi(x_k), so the inequalities of the
proofs can be compared round by round on all m^T sequences; the loss checks use the simulator, whose
randomness is a seeded numpy Generator, with a Bernstein tail bound for the statistical one.

References: 001_8845c8f909738498.txt; specs/gilbert_online_recommendation.md, sections 2.5, 2.6, 3, 5 and 6.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from dpcert.accountant.online_recommendation.bounds import (
    KL_CONSTANT,
    cited,
    eps_bounds_gap,
    eps_upper_prec,
    eps_upper_sim,
    greedy_loss_bound,
    leaky_round_bound,
    lemma_14_factor,
    prec_lambda,
    theorem_15_kl_constant,
)
from dpcert.accountant.symbolic_facts import SymbolicFact, nonnegative_everywhere
from dpcert.mechanisms.online_recommendation import (
    PREC,
    AdaptiveInstance,
    Instance,
    PRECSim,
    PRECTranscript,
    adaptive_instance,
    enumerate_transcripts,
    planted_pair,
    sequence_losses,
)
from dpcert.mechanisms.online_recommendation.likelihood import PrivacyLossTrace
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int

__all__ = [
    "ADAPTIVE_PEERS",
    "ADMISSIBLE_PAIRS",
    "CONSISTENCY_GRID",
    "BoundsConsistency",
    "ExpectedLossCheck",
    "Lemma4Witness",
    "PathwiseLossCheck",
    "RandomClientLoss",
    "ReductionCheck",
    "TraceLemmaCheck",
    "UniformRoundsWitness",
    "adaptive_pair",
    "admissible_pair",
    "bernstein_radius",
    "bounds_consistency",
    "check_geometric_series",
    "check_peer_invariant",
    "check_privacy_lemmas",
    "expected_loss_check",
    "lemma_4_equivalence_witness",
    "loss_chasing_instance",
    "online_recommendation_facts",
    "pathwise_loss_check",
    "prec_algorithm",
    "prec_sim_reduction",
    "theorem_6_random_client_loss",
    "uniform_rounds_order_witness",
]


@dataclass(frozen=True)
class TraceLemmaCheck:
    """One inequality of the privacy proof checked at every round of every sequence of an exact trace.

    Attributes:
        name: ``lemma12``, ``lemma18``, ``lemma14`` / ``lemma19``, ``leaky-rounds``, ``theorem11`` / ``theorem17``.
        source: paper and lemma.
        worst: the largest left side / right side found (the inequality holds iff worst <= 1).
        holds: worst <= 1 + 1e-9 (the trace's losses come from 40-digit evaluations; the slack is orders larger).
        witness: (sequence b, round t) attaining ``worst``, or None when nothing was compared.
        evidence: one sentence with the numbers.
    """

    name: str
    source: str
    worst: float
    holds: bool
    witness: tuple[tuple[int, ...], int] | None
    evidence: str


def _lemma_check(name: str, where: str, ratios: np.ndarray, mask: np.ndarray, trace: PrivacyLossTrace,
                 what: str) -> TraceLemmaCheck:
    values = np.where(mask, ratios, -np.inf)
    if not mask.any():
        return TraceLemmaCheck(name, cited(where), 0.0, True, None, f"{what}: no case to check in this trace")
    row, t = np.unravel_index(int(values.argmax()), values.shape)
    worst = float(values[row, t])
    sequence = tuple(trace.sequences[row].tolist())
    return TraceLemmaCheck(name, cited(where), worst, worst <= 1 + 1e-9, (sequence, int(t)),
                      f"{what}: largest ratio to the bound {worst:.4g} at b={sequence}, t={t} "
                      f"over {int(mask.sum())} cases")


def check_privacy_lemmas(trace: PrivacyLossTrace, P: object) -> tuple[TraceLemmaCheck, ...]:
    """Lemmas 12, 18, 14/19, the leaky-round corollary and Theorem 11/17 on every sequence of an exact trace.

    Args:
        trace: the exact privacy-loss trace of an adjacent pair (U = U' + one voter).
        P: the client's peers in the larger pattern U (the theorems need P >= 6m).

    Returns:
        One :class:`TraceLemmaCheck` per inequality: |E_t| <= 3 lambda / W_t (Lemma 12); |E_t| <= 3(2D+2R+1) lambda /
        C_t (Lemma 18); after a leaky round C_{t+1} <= (1 - 1/(3m(2D+2R+1))) C_t (Lemma 19; W_t for Lemma 14
        at D = R = 0); #leaky rounds <= the corollary's bound with n = |U|; max_b |E(b)| <= Theorem 11's bound
        (D = R = 0) or Theorem 17's (paper form).

    References: 001_8845c8f909738498.txt, Lemmas 12, 14, 18, 19, Theorems 11 and 17.
    """
    if not isinstance(trace, PrivacyLossTrace):
        raise InvalidParameterError(f"trace must be a PrivacyLossTrace. Got {type(trace).__name__}")
    n = len(trace.larger.voters)
    P = require_int("P", P, minimum=1, maximum=n)
    params = trace.params
    m, T, D, R = params.m, params.T, params.D, params.R
    k = 2 * D + 2 * R + 1
    losses, everywhere = np.abs(trace.round_loss), np.ones(trace.round_loss.shape, dtype=bool)
    checks = [
        _lemma_check("lemma12", "Lemma 12", losses / (3 * trace.lam / trace.survivors), everywhere, trace,
                     "|E_t(b)| <= 3 lambda / W_t(b)"),
        _lemma_check("lemma18", "Lemma 18", losses / (3 * k * trace.lam / trace.credit), everywhere, trace,
                     "|E_t(b)| <= 3(2D+2R+1) lambda / C_t(b)"),
    ]
    sim = D == R == 0
    state = trace.survivors if sim else trace.credit
    factor = float(lemma_14_factor(m, D=D, R=R).value)
    shrink = np.zeros(losses.shape)
    shrink[:, :-1] = state[:, 1:] / (factor * state[:, :-1])
    leaky = trace.leaky.copy()
    leaky[:, -1] = False
    checks.append(_lemma_check("lemma14" if sim else "lemma19", "Lemma 14" if sim else "Lemma 19", shrink, leaky,
                               trace, "after a leaky round the survivors' " + ("count W" if sim else "credit C")
                               + f" shrinks by {factor:.4g}"))
    counts = trace.leaky.sum(axis=1)
    leak_bound = float(leaky_round_bound(m, n, P, D=D, R=R).value)
    first = np.zeros(losses.shape, dtype=bool)
    first[:, 0] = True
    checks.append(_lemma_check("leaky-rounds", "Lemmas 14 and 19", np.repeat(counts[:, None] / leak_bound, T, axis=1),
                               first, trace, f"#{{t : E_t(b) != 0}} <= {leak_bound:.4g}"))
    theorem = eps_upper_sim(m, T, P) if sim else eps_upper_prec(m, T, D, R, P)
    if theorem.valid:
        totals = np.repeat(np.abs(trace.total_loss)[:, None] / float(theorem.value), T, axis=1)
        checks.append(_lemma_check(theorem.name, "Theorem 11" if sim else "Theorem 17", totals, first, trace,
                                   f"|E(b)| <= {theorem.display()}"))
    return tuple(checks)


# ---------------------------------------------------------------------------------------------
# Admissible adjacent pairs: the instances the trace claims and their tests share
# ---------------------------------------------------------------------------------------------

ADMISSIBLE_PAIRS: tuple[tuple[int, int, int, int, int, int, bool, int], ...] = (
    (2, 5, 0, 0, 12, 9, True, 0),
    (2, 6, 2, 0, 12, 4, False, 1),
    (2, 6, 1, 1, 12, 5, False, 2),
    (3, 4, 1, 0, 18, 3, False, 3),
    (2, 7, 3, 1, 13, 6, False, 4),
    (3, 5, 0, 0, 18, 12, True, 5),
)
"""(m, T, D, R, P, others, hostile, seed): seeded planted pairs (spec 1.6) with P >= 6m peers among the common
voters, ``others`` further voters (hostile ones never vote for a liked object) and one extra voter with random
votes. With D = R = 0 the peers agree, so only hostile voters make two objects pass rho."""

ADAPTIVE_PEERS = 12
"""The peers of :func:`adaptive_pair`'s instance (all at distance 0 on every path)."""


def prec_algorithm(m: object, T: object, D: object, R: object) -> PREC | PRECSim:
    """p-REC_sim (Algorithm 1) when D = R = 0, p-REC (Algorithm 2) otherwise, with the paper's gamma."""
    return PRECSim(m, T) if D == R == 0 else PREC(m, T, D, R)


def admissible_pair(index: object) -> PRECTranscript:
    """The adjacent pair of row ``index`` of :data:`ADMISSIBLE_PAIRS` (U = the whole pool, U' = U minus its last voter).

    References: 001_8845c8f909738498.txt, Definition 1; spec 1.6.
    """
    index = require_int("index", index, minimum=0, maximum=len(ADMISSIBLE_PAIRS) - 1)
    m, T, D, R, P, others, hostile, seed = ADMISSIBLE_PAIRS[index]
    return planted_pair(prec_algorithm(m, T, D, R), P=P, others=others, hostile=hostile,
                        rng=np.random.default_rng(seed))


def adaptive_pair() -> PRECTranscript:
    """Spec T14: p-REC (m = 2, T = 6, D = 1, R = 0) against :func:`adaptive_instance` with 12 peers and 3 followers
    (votes and likes are functions of b_<t, the same for the common voters in both patterns); U is the pool of
    16 voters, U' the pool without its last voter.

    References: 001_8845c8f909738498.txt, Section 2.3 (adaptive adversary), Theorems 11 and 17.
    """
    instance = adaptive_instance(2, 6, P=ADAPTIVE_PEERS, D=1, followers=3)
    return PRECTranscript.adjacent_pair(PREC(2, 6, 1, 0), instance, range(instance.n_voters - 1),
                                        instance.n_voters - 1)


def check_geometric_series(trace: PrivacyLossTrace, P: object) -> tuple[TraceLemmaCheck, TraceLemmaCheck]:
    """Steps (15)-(17) of Theorem 17's proof (Theorem 11's at D = R = 0) on every sequence of an exact trace.

    With k = 2D + 2R + 1 and t_1 < ... < t_K the leaky rounds of b (E_t(b) != 0):

        (15)       |E(b)| <= S(b) = sum_i 3 k lambda / C_{t_i}(b)                    (Lemma 18, summed)
        (16)-(17)  S(b) <= 3 k lambda * 3 m k / (P (D + R + 1))                       (Lemma 19, C_{t_K} >= P(D+R+1))

    At D = R = 0, C_t = W_t and the right side is Theorem 11's 3 lambda * 3m / P = 9 m lambda / P. The second step
    holds because each leaky round shrinks C by 1 - 1/(3mk), so the terms 1/C_{t_i} grow at least geometrically
    towards the last one, and the peers keep C_{t_K} >= P(D+R+1).

    Args:
        trace: the exact privacy-loss trace of an adjacent pair (U = U' + one voter).
        P: the client's peers in the larger pattern U.

    Returns:
        ``leak-sum`` (|E(b)| / S(b)) and ``geometric-series`` (S(b) / the closed form), per sequence with a leaky
        round; each holds iff its largest ratio is <= 1.

    References: 001_8845c8f909738498.txt, Theorem 11 (proof) and Theorem 17 (proof, (15)-(17)).
    """
    if not isinstance(trace, PrivacyLossTrace):
        raise InvalidParameterError(f"trace must be a PrivacyLossTrace. Got {type(trace).__name__}")
    P = require_int("P", P, minimum=1, maximum=len(trace.larger.voters))
    m, D, R = trace.params.m, trace.params.D, trace.params.R
    k = 2 * D + 2 * R + 1
    terms = np.where(trace.leaky, 3 * k * trace.lam / np.maximum(trace.credit, 1), 0.0).sum(axis=1)
    closed = 3 * k * trace.lam * 3 * m * k / (P * (D + R + 1))
    first = np.zeros(trace.round_loss.shape, dtype=bool)
    first[:, 0] = trace.leaky.any(axis=1)
    T = trace.params.T
    where = "Theorem 11 (proof)" if D == R == 0 else "Theorem 17 (proof, (15))"
    leak = np.abs(trace.total_loss) / np.where(terms > 0, terms, 1.0)
    return (_lemma_check("leak-sum", where, np.repeat(leak[:, None], T, axis=1), first, trace,
                         "|E(b)| <= sum over leaky rounds of 3(2D+2R+1) lambda / C_t(b)"),
            _lemma_check("geometric-series", "Theorem 11 (proof)" if D == R == 0 else "Theorem 17 (proof, (16)-(17))",
                         np.repeat(terms[:, None] / closed, T, axis=1), first, trace,
                         f"that sum <= 3(2D+2R+1) lambda * 3m(2D+2R+1)/(P(D+R+1)) = {closed:.4g}"))


def check_peer_invariant(algorithm: PREC | PRECSim, instance: Instance,
                         trace: PrivacyLossTrace) -> tuple[TraceLemmaCheck, TraceLemmaCheck]:
    """The voters' state along every sequence of an exact trace: peers are never removed, nobody comes back.

    Replays the algorithm's update for the client's peers in the larger pattern U (distance <= R; P_U of them)
    along every sequence b, and reads the survivors from the trace:

    - every peer keeps credit_R >= R + 1 and credit_D + credit_R >= D + R + 1, so weight 1; hence
      W_t(b) >= P_U and C_t(b) >= P_U (D + R + 1);
    - no weight goes from 0 to 1, and W_t(b) and C_t(b) never increase in t.

    Why peers survive: a peer loses an R-credit only when it voted for a recommended object the client dislikes
    (at most R times, from 2R + 1), and a D-credit only in a like-round where it voted for another object, which
    the client either also likes (at most D rounds) or dislikes (counted in its distance), so at most
    D + R - r_R times, from 2D. The proofs of Theorems 11, 16 and 17 use exactly this.

    Args:
        algorithm: the p-REC or p-REC_sim of the trace.
        instance: the oblivious instance of the trace.
        trace: its exact privacy-loss trace.

    Returns:
        ``peer-credit``: the largest of (R+1)/credit_R, (D+R+1)/(credit_D + credit_R) over the peers,
        P_U/W_t and P_U (D+R+1)/C_t (infinite once a peer is removed); ``monotone``: the largest of
        W_{t+1}/W_t and C_{t+1}/C_t (infinite where a weight returns from 0 to 1). Each holds iff <= 1.

    References: 001_8845c8f909738498.txt, Algorithms 1 and 2, proofs of Theorems 11, 16 and 17; spec T4, T5.
    """
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    if not isinstance(instance, Instance):
        raise InvalidParameterError(f"instance must be an oblivious Instance. Got {type(instance).__name__}")
    if not isinstance(trace, PrivacyLossTrace):
        raise InvalidParameterError(f"trace must be a PrivacyLossTrace. Got {type(trace).__name__}")
    params = algorithm.params
    if (params.m, params.T, params.D, params.R) != (trace.params.m, trace.params.T, trace.params.D, trace.params.R):
        raise InvalidParameterError("algorithm must have the trace's (m, T, D, R). "
                                    f"Got {(params.m, params.T, params.D, params.R)}")
    T, D, R = params.T, params.D, params.R
    members = set(trace.larger.voters)
    peers = np.array([i for i in instance.peers(R).tolist() if i in members], dtype=np.int64)
    sequences = trace.sequences
    credit_ratio = np.zeros(sequences.shape)
    state = algorithm.initial_state((len(sequences), len(peers)))
    for t in range(T):
        credit_d, credit_r = state
        total = credit_d + credit_r
        with np.errstate(divide="ignore"):
            per_peer = np.maximum(np.where(credit_r > 0, (R + 1) / np.maximum(credit_r, 1), np.inf),
                                  np.where(total > 0, (D + R + 1) / np.maximum(total, 1), np.inf))
        per_peer = np.where(algorithm.weights(state), per_peer, np.inf)
        credit_ratio[:, t] = per_peer.max(axis=1, initial=0.0)
        b = sequences[:, t]
        state = algorithm.update(state, instance.votes[peers, t][None, :] == b[:, None], instance.like_matrix[t, b])
    count = len(peers)
    floors = np.zeros(sequences.shape)
    if count:
        floors = np.maximum(np.where(trace.survivors > 0, count / np.maximum(trace.survivors, 1), np.inf),
                            np.where(trace.credit > 0, count * (D + R + 1) / np.maximum(trace.credit, 1), np.inf))
    weights = trace.larger.weights
    comeback = (~weights[:, :-1] & weights[:, 1:]).any(axis=2)
    growth = np.zeros(sequences.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        steps = np.maximum(trace.survivors[:, 1:] / trace.survivors[:, :-1], trace.credit[:, 1:] / trace.credit[:, :-1])
    growth[:, :-1] = np.where(comeback, np.inf, np.nan_to_num(steps, nan=0.0))
    inner = np.ones(sequences.shape, dtype=bool)
    inner[:, -1] = False
    return (_lemma_check("peer-credit", "Theorems 11, 16 and 17 (proofs)", np.maximum(credit_ratio, floors),
                         np.ones(sequences.shape, dtype=bool), trace,
                         f"the {count} peers keep credit_R >= R+1 and credit_D + credit_R >= D+R+1, "
                         f"W_t >= {count}, C_t >= {count * (D + R + 1)}"),
            _lemma_check("monotone", "Algorithms 1 and 2", growth, inner, trace,
                         "no weight returns, W_t and C_t non-increasing"))


@dataclass(frozen=True)
class ReductionCheck:
    """p-REC at (D, R) against p-REC_sim on every sequence of one instance (Section 8.2: D = R = 0 gives p-REC_sim).

    Attributes:
        D, R: p-REC's parameters.
        sequences: the number of sequences compared (m^T).
        witness: the first (b, t) where the exact Pr[b_t | b_<t] differ, or None when all agree.
    """

    D: int
    R: int
    sequences: int
    witness: tuple[tuple[int, ...], int] | None

    @property
    def agrees(self) -> bool:
        """True when every round of every sequence has the same exact probability in both algorithms."""
        return self.witness is None


def prec_sim_reduction(instance: Instance | AdaptiveInstance, *, D: object = 0, R: object = 0) -> ReductionCheck:
    """Compare p-REC(m, T, D, R) with p-REC_sim(m, T) on all the instance's voters, exactly, sequence by sequence.

    At D = R = 0 the credits are 0 and 1: a dislike takes the voters on b_t to R-credit 0, a like takes the others
    to total credit 0, exactly p-REC_sim's kick-outs; gamma = m/(3T - 1) and lambda = 2m ln T coincide.

    References: 001_8845c8f909738498.txt, Section 8.2; spec T3.
    """
    if not isinstance(instance, (Instance, AdaptiveInstance)):
        raise InvalidParameterError(f"instance must be an Instance or AdaptiveInstance. Got {type(instance).__name__}")
    algorithm = PREC(instance.m, instance.T, D, R)
    D, R = algorithm.params.D, algorithm.params.R
    voters = range(instance.n_voters)
    sim = enumerate_transcripts(PRECSim(instance.m, instance.T), instance, voters)
    general = enumerate_transcripts(algorithm, instance, voters)
    for row, t in itertools.product(range(len(sim.sequences)), range(instance.T)):
        a, b = sim.round_probabilities[row, t], general.round_probabilities[row, t]
        if a != b and exact_sign(a - b) != 0:
            return ReductionCheck(D, R, len(sim.sequences), (tuple(sim.sequences[row].tolist()), t))
    return ReductionCheck(D, R, len(sim.sequences), None)


@dataclass(frozen=True)
class Lemma4Witness:
    """A point where Lemma 4's inequality holds although its printed equivalent condition fails (spec A7).

    The proof's chain ends "... <=> e^{lambda x'}/e^{lambda rho} >= (e^{lambda d} + 1)/e^{lambda d}
    <=> x' >= rho + ln 2 / lambda"; the last step is only "<=". At lambda d = ln 2 and
    e^{lambda (x' - rho)} = 3/2 the inequality phi(x)/phi(x') <= e^{2 lambda d} holds (with equality:
    4 <= 4) while x' < rho + ln 2/lambda.

    Attributes:
        lam, rho: phi's parameters.
        x, x_prime: the points (x = x' + d).
        ratio: phi(x)/phi(x') (exact).
        bound: e^{2 lambda d} (exact).
        threshold: rho + ln 2/lambda, the printed condition on x'.
    """

    lam: sympy.Expr
    rho: sympy.Expr
    x: sympy.Expr
    x_prime: sympy.Expr
    ratio: sympy.Expr
    bound: sympy.Expr
    threshold: sympy.Expr

    @property
    def refutes(self) -> bool:
        """True when the inequality holds at x' below the threshold: the printed "<=>" is false."""
        return exact_sign(self.bound - self.ratio) >= 0 and exact_sign(self.threshold - self.x_prime) > 0

    def recheck(self) -> bool:
        """Recompute phi(x)/phi(x') and e^{2 lambda (x - x')} from the definition of phi; confirm the refutation."""
        phi = (lambda y: sympy.exp(self.lam * y) - sympy.exp(self.lam * self.rho))
        ratio = sympy.simplify(phi(self.x) / phi(self.x_prime))
        bound = sympy.simplify(sympy.exp(2 * self.lam * (self.x - self.x_prime)))
        return (exact_sign(ratio - self.ratio) == 0 and exact_sign(bound - self.bound) == 0
                and exact_sign(self.x_prime - self.rho) > 0 and self.refutes)


def lemma_4_equivalence_witness(m: object, T: object, *, R: object = 0) -> Lemma4Witness:
    """The A7 witness for p-REC's lambda = 2m ln(T/(R+1)) and rho = 1/(2m); see :class:`Lemma4Witness`.

    References: 001_8845c8f909738498.txt, Lemma 4 (proof); spec A7.
    """

    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    R = require_int("R", R, minimum=0, maximum=T - 2)
    lam, rho = prec_lambda(m, T, R), sympy.Rational(1, 2 * m)
    x_prime = rho + sympy.log(sympy.Rational(3, 2)) / lam
    x = x_prime + sympy.log(2) / lam
    ratio = sympy.nsimplify(sympy.simplify((sympy.exp(lam * x) - sympy.exp(lam * rho))
                                           / (sympy.exp(lam * x_prime) - sympy.exp(lam * rho))))
    return Lemma4Witness(lam, rho, x, x_prime, ratio, sympy.simplify(sympy.exp(2 * lam * (x - x_prime))),
                         rho + sympy.log(2) / lam)


@dataclass(frozen=True)
class UniformRoundsWitness:
    """At R = 0 the uniform rounds cost gamma T = mT/(3T - 1) > 0 = c R for every c: not O(R) (spec A2).

    Attributes:
        m, T: the parameters.
        cost: gamma T at R = 0 (exact).
    """

    m: int
    T: int
    cost: sympy.Expr

    @property
    def refutes(self) -> bool:
        """True when gamma T at R = 0 is >= m/3 > 0, so no c R (R = 0) bounds it."""
        return exact_sign(self.cost - sympy.Rational(self.m, 3)) >= 0

    def recheck(self) -> bool:
        """Recompute gamma T = mT/(3T - 1) and confirm the refutation."""
        return self.cost == sympy.Rational(self.m * self.T, 3 * self.T - 1) and self.refutes


def uniform_rounds_order_witness(m: object, T: object) -> UniformRoundsWitness:
    """The A2 witness: Theorem 16's proof bounds the uniform rounds' loss by "gamma T = O(R)"; at R = 0 it is
    mT/(3T - 1) >= m/3.

    References: 001_8845c8f909738498.txt, Theorem 16 (proof); spec A2.
    """

    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    return UniformRoundsWitness(m, T, sympy.Rational(m * T, 3 * T - 1))


def online_recommendation_facts() -> tuple[SymbolicFact, ...]:
    """The closed-form steps of the paper's proofs, each decided by sympy for every parameter value.

    References: 001_8845c8f909738498.txt, Lemmas 4, 8, 12, 13, Theorems 10, 11, 15, 16, 17;
    specs/gilbert_online_recommendation.md, section 5 (S1-S12).
    """
    m, tau, T, a, d, P = sympy.symbols("m tau T a d P", positive=True)
    D, R = sympy.symbols("D R", nonnegative=True)
    u = sympy.symbols("u", nonnegative=True)
    s, w = sympy.symbols("s w", positive=True)
    gamma = m / (3 * tau - 1)
    lam = 2 * m * sympy.log(tau)
    facts = []

    def identity(statement: str, where: str, expr: sympy.Expr) -> None:
        reduced = sympy.simplify(expr)
        facts.append(SymbolicFact(statement, cited(where), True if reduced == 0 else None,
                                  f"difference simplifies to {reduced}"))

    def nonnegative(statement: str, where: str, expr: sympy.Expr, substitution: str) -> None:
        holds, evidence = nonnegative_everywhere(expr)
        facts.append(SymbolicFact(statement, cited(where), holds, f"{substitution}: {evidence}"))

    identity("S1: gamma/(m(1-gamma)) = 1/(3 tau - 1 - m) for gamma = m/(3 tau - 1)", "Lemma 12",
             gamma / (m * (1 - gamma)) - 1 / (3 * tau - 1 - m))
    identity("S1': m/((3T/(R+1)) - 1) = m(R+1)/(3T - R - 1) (the printed gamma of Algorithm 2, spec A4)",
             "Algorithm 2", m / (3 * T / (R + 1) - 1) - m * (R + 1) / (3 * T - R - 1))
    identity("S3: e^{lambda rho} = tau for lambda = 2m ln tau, rho = 1/(2m)", "Algorithm 2",
             sympy.exp(lam / (2 * m)) - tau)
    identity("S3': phi(1/m) = tau^2 - tau", "Lemma 12", sympy.exp(lam / m) - sympy.exp(lam / (2 * m)) - (tau**2 - tau))
    # S2 (Lemma 12's last step): with s = e^a - 1 > 0, e^{3a} - 1 = s((1+s)^2 + (1+s) + 1); dividing by s and
    # multiplying by (tau - 1)(3 tau - 1 - m) > 0 leaves (3 + 3s + s^2)(tau - 1) - (3 tau - 1 - m) >= 0, which
    # with tau = 1 + w and m = 2 + k is s(s + 3) w + k.
    k = sympy.symbols("k", nonnegative=True)
    nonnegative("S2: (e^a - 1)/(tau - 1) <= (e^{3a} - 1)/(3 tau - 1 - m) for m >= 2, tau > max(1, (m+1)/3), a > 0",
                "Lemma 12", (3 + 3 * s + s**2) * w - (3 * (1 + w) - 1 - (2 + k)),
                "e^a = 1 + s, tau = 1 + w, m = 2 + k, after dividing by e^a - 1 and clearing denominators")
    identity("S4: 5/(6m) = 1/(2m) + ln 2/(2m ln tau) exactly at tau = 2^{3/2} (and the gap grows with tau)",
             "Lemma 13", (sympy.Rational(5, 6) / m - 1 / (2 * m) - sympy.log(2) / (2 * m * sympy.log(tau)))
             .subs(tau, 2 ** sympy.Rational(3, 2)))
    r = 1 - 1 / (3 * m)
    identity("S6: sum_{j>=0} (1 - 1/(3m))^j = 1/(1 - (1 - 1/(3m))) = 3m", "Theorem 11", 1 / (1 - r) - 3 * m)
    identity("S6': 3 lambda * 3m / P = 18 m^2 ln T / P (lambda = 2m ln T)", "Theorem 11",
             3 * (2 * m * sympy.log(T)) * 3 * m / P - 18 * m**2 * sympy.log(T) / P)
    identity("S7: 3(2D+2R+1) lambda * 6m / P = 36 m^2 (2D+2R+1) ln tau / P", "Theorem 17",
             3 * (2 * D + 2 * R + 1) * lam * 6 * m / P - 36 * m**2 * (2 * D + 2 * R + 1) * sympy.log(tau) / P)
    nonnegative("S7': 3m(2D+2R+1)/(P(D+R+1)) <= 6m/P for D, R >= 0", "Theorem 17",
                6 * m / P - 3 * m * (2 * D + 2 * R + 1) / (P * (D + R + 1)), "D, R >= 0, m, P > 0")
    nonnegative("S8: -ln(1 - x) >= x on [0, 1), so log_{1/(1-rho)}(n/P) <= 2m ln(n/P)", "Theorem 10",
                sympy.diff(-sympy.log(1 - u / (1 + u)) - u / (1 + u), u) * (1 + u) ** 2,
                "x = u/(1+u), u >= 0; the difference is 0 at u = 0 and its derivative times (1+u)^2 is")
    nonnegative("S9: m(R+1)T/(3T-R-1) <= m(R+1)/2 for T >= R + 1", "Theorem 16",
                sympy.factor(m * (R + 1) / 2 - m * (R + 1) * (R + 1 + u) / (3 * (R + 1 + u) - R - 1)),
                "T = R + 1 + u, u >= 0")
    identity("S12: (T/2) e^{-P eps} = L at eps = ln(T/(2L))/P (Lemma 8 <=> Theorem 7)", "Theorem 7",
             (T / 2) * sympy.exp(-P * sympy.log(T / (2 * d)) / P) - d)
    kl = theorem_15_kl_constant()
    facts.append(SymbolicFact("S10: KL(Bern(3/4) || Bern(1/2)) > 0.13", cited("Theorem 15"),
                              exact_sign(kl.value - KL_CONSTANT) > 0, f"KL = {kl.value} = {float(kl.value):.7f}"))
    identity("S11: exp(-(D+R)/6) <= 1/T iff D + R >= 6 ln T: at D + R = 6 ln(T w), 1 - T e^{-(D+R)/6} = (w-1)/w",
             "Theorem 15", 1 - T * sympy.exp(-6 * sympy.log(T * w) / 6) - (w - 1) / w)
    return tuple(facts)


# ---------------------------------------------------------------------------------------------
# Loss: Theorems 10 and 16 on seeded runs, Theorem 6's random client exactly
# ---------------------------------------------------------------------------------------------

def loss_chasing_instance(m: object, T: object, *, P: object, others: object, seed: object) -> AdaptiveInstance:
    """An adaptive adversary chasing the client's losses: P peers vote for the client's (seeded random) liked
    object; ``others`` voters vote, in round t, for a disliked object picked from b_{t-1} (they follow the
    recommendation history, as Section 2.3's adaptive adversary may).

    References: 001_8845c8f909738498.txt, Section 2.3, Theorems 10 and 16.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    P = require_int("P", P, minimum=0)
    others = require_int("others", others, minimum=0)
    seed = require_int("seed", seed, minimum=0)
    liked = np.random.default_rng(seed).integers(0, m, size=T)

    def likes(t: int, prefix: tuple[int, ...]) -> set[int]:
        return {int(liked[t])}

    def votes(t: int, prefix: tuple[int, ...]) -> list[int]:
        bait = (int(liked[t]) + 1 + (prefix[-1] if len(prefix) else 0)) % m
        bait = bait if bait != liked[t] else (bait + 1) % m
        return [int(liked[t])] * P + [bait] * others

    return AdaptiveInstance(m, T, P + others, votes, likes)


@dataclass(frozen=True)
class PathwiseLossCheck:
    """Theorem 10's / 16's pathwise step on seeded runs: loss rounds with Z_t = 0 are at most
    ln((2R+1)n/((R+1)P)) / -ln(1 - 1/(2m(2R+1))) in every run, and C^(R)_t never drops below (R+1)P.

    Attributes:
        runs, seed: the simulation (numpy's default_rng(seed)).
        bound: the pathwise bound (exact).
        worst: the largest number of loss rounds with Z_t = 0 in one run.
        losses: total loss rounds over all runs (0 would make the check vacuous).
        r_credit_min: the smallest C^(R)_t seen; r_credit_floor: (R+1)P.
    """

    runs: int
    seed: int
    bound: sympy.Expr
    worst: int
    losses: int
    r_credit_min: int
    r_credit_floor: int

    @property
    def holds(self) -> bool:
        """Every run within the bound, and the peers' R-credit floor kept."""
        return exact_sign(self.bound - self.worst) >= 0 and self.r_credit_min >= self.r_credit_floor


def pathwise_loss_check(algorithm: PREC | PRECSim, instance: Instance | AdaptiveInstance, *, P: object,
                        runs: object, seed: object) -> PathwiseLossCheck:
    """Simulate ``runs`` executions (seeded) and compare each run's greedy loss rounds with the pathwise bound.

    Why the bound holds: in a loss round with Z_t = 0 only objects with x > rho = 1/(2m) can be drawn, so more
    than a rho fraction of the survivors lose an R-credit: C^(R) shrinks by 1 - 1/(2m(2R+1)); it starts at most
    (2R+1) n and the peers keep it at least (R+1) P.

    Args:
        algorithm: p-REC or p-REC_sim.
        instance: n = instance.n_voters voters, at least P of them peers of the client.
        P: the peers (distance <= R).
        runs, seed: the simulation.

    References: 001_8845c8f909738498.txt, Theorems 10 and 16 (proofs); spec T16.
    """
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    if not isinstance(instance, (Instance, AdaptiveInstance)):
        raise InvalidParameterError(f"instance must be an Instance or AdaptiveInstance. Got {type(instance).__name__}")
    P = require_int("P", P, minimum=1, maximum=instance.n_voters)
    seed = require_int("seed", seed, minimum=0)
    result = algorithm.simulate(instance, runs, np.random.default_rng(seed))
    m, R = algorithm.params.m, algorithm.params.R
    return PathwiseLossCheck(result.losses.shape[0], seed, greedy_loss_bound(m, instance.n_voters, P, R=R).value,
                             int(result.greedy_losses.max(initial=0)), int(result.losses.sum()),
                             int(result.r_credit.min(initial=(R + 1) * P)), (R + 1) * P)


def bernstein_radius(variance: float, bound: float, delta: float) -> float:
    """t with P(S - E S >= t) <= delta for a sum S of independent terms within ``bound`` of their means and total
    variance <= ``variance`` (one-sided Bernstein: P <= exp(-t^2 / (2 (variance + bound t / 3))))."""
    if not variance >= 0:
        raise InvalidParameterError(f"variance must be >= 0. Got {variance}")
    if not bound > 0:
        raise InvalidParameterError(f"bound must be > 0. Got {bound}")
    if not 0 < delta < 1:
        raise InvalidParameterError(f"delta must be in (0, 1). Got {delta}")
    log = math.log(1 / delta)
    radius = bound * log / 3 + math.sqrt((bound * log / 3) ** 2 + 2 * variance * log)
    # rounded outward: the float evaluation is within a few ulps, so 1e-12 relative covers it
    return math.nextafter(radius * (1 + 1e-12), math.inf)


@dataclass(frozen=True)
class ExpectedLossCheck:
    """A one-sided test of E[loss] <= bound on seeded runs (Theorems 10 and 16).

    Attributes:
        runs, seed: the simulation.
        total: the loss summed over the runs (exact).
        mean: the runs' mean loss (total / runs, for display).
        bound: the theorem's expected-loss bound (float, rounded up).
        radius: the Bernstein radius t at level ``alpha`` (rounded up).
        alpha: the false-failure probability when the theorem holds.
    """

    runs: int
    seed: int
    total: int
    mean: float
    bound: float
    radius: float
    alpha: float

    @property
    def passes(self) -> bool:
        """total / runs <= bound + radius, compared exactly (the floats as the rationals they are)."""
        return Fraction(self.total, self.runs) <= Fraction(self.bound) + Fraction(self.radius)


def expected_loss_check(algorithm: PREC | PRECSim, instance: Instance | AdaptiveInstance, bound: object, *,
                        runs: object, seed: object, alpha: float = 1e-6) -> ExpectedLossCheck:
    """Test mean loss <= ``bound`` + t on ``runs`` seeded executions.

    Theorems 10/16 bound the loss pathwise by the greedy bound plus #{Z_t = 1}, and #{Z_t = 1} ~ Binomial(T, gamma)
    independently per run; the bound is the greedy bound + gamma T. So if the theorem holds, the mean exceeds
    bound + t only when the total of runs * T Bernoulli(gamma) draws exceeds its mean by runs * t, which
    Bernstein's inequality bounds by ``alpha``.

    References: 001_8845c8f909738498.txt, Theorems 10 and 16; spec T17.
    """
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    seed = require_int("seed", seed, minimum=0)
    if not 0 < alpha < 1:
        raise InvalidParameterError(f"alpha must be in (0, 1). Got {alpha}")
    try:
        bound_value = float(bound)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        bound_value = math.nan
    if not 0 <= bound_value < math.inf:
        raise InvalidParameterError(f"bound must be a finite number >= 0. Got {bound!r}")
    bound_value = math.nextafter(bound_value, math.inf)  # float() rounds to nearest: one ulp up covers the bound
    result = algorithm.simulate(instance, runs, np.random.default_rng(seed))
    count = result.losses.shape[0]
    if count == 0:
        raise InvalidParameterError(f"runs must be >= 1. Got {runs!r}")
    gamma, T = float(algorithm.params.gamma), algorithm.params.T
    t = math.nextafter(bernstein_radius(count * T * gamma * (1 - gamma), 1.0, alpha) / count, math.inf)
    total = int(result.total_loss.sum())
    return ExpectedLossCheck(count, seed, total, total / count, bound_value, t, alpha)


@dataclass(frozen=True)
class RandomClientLoss:
    """Theorem 6's R-part: the exact expected loss in the first R rounds of every client who likes one object per
    round there (and object 0 afterwards), against P voters who always vote for object 0.

    Attributes:
        m, T, R: the setting.
        clients: m^R, every choice of liked objects.
        mean: the average over the clients of the exact expected loss in rounds 0..R-1.
        worst: the largest expected loss of one client; worst_client: its liked objects.
    """

    m: int
    T: int
    R: int
    clients: int
    mean: sympy.Expr
    worst: sympy.Expr
    worst_client: tuple[int, ...]

    @property
    def target(self) -> sympy.Expr:
        """(1 - 1/m) R, Theorem 6's R-part."""
        return (1 - sympy.Rational(1, self.m)) * self.R


def theorem_6_random_client_loss(algorithm: PREC | PRECSim, R: object, *, P: object) -> RandomClientLoss:
    """Enumerate the m^R clients of Theorem 6's construction and every recommendation sequence, exactly.

    Why the mean is (1 - 1/m) R for ANY algorithm: the client's liked object in round t < R is uniform and
    independent of everything the algorithm has seen before it recommends b_t, so b_t is disliked with probability
    1 - 1/m; some fixed client therefore forces at least the mean.

    References: 001_8845c8f909738498.txt, Theorem 6 (Section 6); spec T21.
    """
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    m, T = algorithm.params.m, algorithm.params.T
    R = require_int("R", R, minimum=0, maximum=T)
    P = require_int("P", P, minimum=1)
    total, worst, worst_client = sympy.Integer(0), sympy.Integer(-1), ()
    for liked in itertools.product(range(m), repeat=R):
        likes = [frozenset({j}) for j in liked] + [frozenset({0})] * (T - R)
        instance = Instance(m, likes, np.zeros((P, T), dtype=np.int64))
        table = enumerate_transcripts(algorithm, instance, range(P))
        lost = sequence_losses(instance.like_matrix, table.sequences)[:, :R].sum(axis=1)
        expected = sympy.Add(*(table.probability(i) * int(lost[i]) for i in range(len(lost))))
        total += expected
        if exact_sign(expected - worst) > 0:
            worst, worst_client = expected, liked
    return RandomClientLoss(m, T, R, m**R, total / m**R, worst, tuple(worst_client))


# ---------------------------------------------------------------------------------------------
# Theorems 1 and 2 together: the upper bound is never below the lower bound at p-REC's loss
# ---------------------------------------------------------------------------------------------

CONSISTENCY_GRID: tuple[tuple[int, int, int, int, int], ...] = tuple(
    itertools.product((10, 100, 10**4, 10**6), (0, 2, 30, 200), (0, 1, 5), (12, 40), (100, 10**5)))
"""(T, D, R, P, n) for :func:`bounds_consistency`; rows outside Theorem 17's conditions are skipped."""


@dataclass(frozen=True)
class BoundsConsistency:
    """Theorem 17's eps (both forms) against Theorem 1's lower bound at Theorem 16's loss, m = 2.

    Attributes:
        cases: the (T, D, R, P, n) rows compared (Theorem 17's conditions hold, D <= T, n >= P, T > R + 1 so
            that ln(T/(R+1)) > 0).
        smallest_gap: the smallest eps_upper - eps_lower (float) and where: (T, D, R, P, n, form).
        witness: the first row with a negative gap, or None.
        largest_ratio: the largest eps_upper (paper form) / ((D+R+1) ln(T/(R+1)) / P), which Theorem 2's
            O((1/P)(D+R+1) log(T/(R+1))) bounds by 72 m^2 = 288 (float, for display).
        ratio_within: every ratio <= 288, its sign decided exactly.
    """

    cases: int
    smallest_gap: float
    smallest_at: tuple[int, int, int, int, int, str] | None
    witness: tuple[int, int, int, int, int, str] | None
    largest_ratio: float
    ratio_within: bool

    @property
    def consistent(self) -> bool:
        """No negative gap, the ratio within 72 m^2, and at least one row compared."""
        return self.cases > 0 and self.witness is None and self.ratio_within


def bounds_consistency(grid: Iterable[tuple[int, int, int, int, int]]) -> BoundsConsistency:
    """Compare eps_upper_pREC(2, T, D, R, P) with eps_lower(T, L = loss_upper_pREC(2, n, P, R, T), D, R, P).

    p-REC's worst-case expected loss is at most Theorem 16's L and Theorem 1's bound decreases in L, so
    eps_lower(L) <= p-REC's true eps <= Theorem 17's eps: a negative gap would expose an inconsistent closed form.
    The lower bounds are proved for m = 2 (spec A11). Signs are decided exactly.

    References: 001_8845c8f909738498.txt, Theorems 1, 2, 16 and 17; spec T22.
    """
    cases, smallest, smallest_at, witness, largest, within = 0, math.inf, None, None, 0.0, True
    for row in grid:
        T, D, R, P, n = (require_int(name, value, minimum=0) for name, value in zip("TDRPn", row))
        if D > T or n < P or P < 1 or T <= R + 1 or not eps_upper_prec(2, T, D, R, P).valid:
            continue
        for form in ("paper", "tight"):
            gap = eps_bounds_gap(2, n, P, D, R, T, form=form)
            if exact_sign(gap.value) < 0 and witness is None:
                witness = (T, D, R, P, n, form)
            if float(gap.value) < smallest:
                smallest, smallest_at = float(gap.value), (T, D, R, P, n, form)
        ratio = eps_upper_prec(2, T, D, R, P).value / ((D + R + 1) * sympy.log(sympy.Rational(T, R + 1)) / P)
        largest = max(largest, float(ratio))
        within = within and exact_sign(288 - ratio) >= 0
        cases += 1
    return BoundsConsistency(cases, smallest, smallest_at, witness, largest, within)
