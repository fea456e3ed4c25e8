"""The exact likelihood of every recommendation sequence, privacy-loss traces, and p-REC as a finite mechanism.

For small m^T the transcript tree is enumerated level by level (vectorised over the nodes of a level):
along every prefix b_<t the voters' state is a deterministic function of b_<t (and, for an adaptive
adversary, so are the votes and likes), so

    Pr[b] = prod_t Pr[b_t | b_<t],   E_t(b) = ln Pr[b_t | b_<t] - ln Pr'[b_t | b_<t],   E(b) = sum_t E_t(b),

with Pr on the larger pattern U and Pr' on U' = U minus one voter. eps-DP of the whole transcript
(Definition 2) is max_b |E(b)| <= eps over adjacent pairs: :class:`PRECTranscript` exposes the exact
distribution as a :class:`~dpcert.mechanisms.base.FiniteMechanism` whose inputs are voting patterns and whose
neighbours are Definition 1's, so the exact checker returns the tightest eps and a witness.

References: 001_8845c8f909738498.txt, Definitions 1-2, Section 5 (privacy-loss variables), Lemmas 12-14
and 18-19, Theorems 11 and 17; specs/gilbert_online_recommendation.md, section 2.4.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import ClassVar

import mpmath
import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, check_size
from dpcert.mechanisms.mp_contexts import real_context
from dpcert.mechanisms.neighbours import Adjacency
from dpcert.mechanisms.online_recommendation.algorithms import PREC, PRECSim
from dpcert.mechanisms.online_recommendation.exact_share import exact_round_probabilities
from dpcert.mechanisms.online_recommendation.model import AdaptiveInstance, Instance, Profile, adjacent
from dpcert.mechanisms.online_recommendation.parameters import PRECParameters
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int

__all__ = [
    "MAX_SEQUENCES",
    "PRECTranscript",
    "PrivacyLossTrace",
    "TranscriptTable",
    "enumerate_transcripts",
    "privacy_loss_trace",
]

MAX_SEQUENCES = 4096
"""The most recommendation sequences (m^T) an exact enumeration may have."""

Algorithm = PREC | PRECSim
AnyInstance = Instance | AdaptiveInstance


@dataclass(frozen=True)
class TranscriptTable:
    """Every recommendation sequence of one execution with each round's exact probability and voter state.

    Attributes:
        sequences: N x T, all m^T sequences in lexicographic order.
        round_probabilities: N x T exact Pr[b_t | b_<t] (sympy numbers, object array).
        survivors: N x T, W_t(b) at the start of round t.
        credit: N x T, C_t(b) (total credit of the survivors) at the start of round t.
        weights: N x T x voters bools, who survives at the start of round t (voters in sorted order).
        voters: the pool indices of the pattern's voters, sorted.
    """

    sequences: np.ndarray
    round_probabilities: np.ndarray
    survivors: np.ndarray
    credit: np.ndarray
    weights: np.ndarray
    voters: tuple[int, ...]

    def probability(self, index: int) -> sympy.Expr:
        """Pr[b] for the sequence in row ``index``, exactly."""
        return sympy.Mul(*self.round_probabilities[index])


def _check_enumerable(m: int, T: int) -> None:
    if m**T > MAX_SEQUENCES:
        raise InvalidParameterError(f"T: exact enumeration needs m^T <= {MAX_SEQUENCES} sequences. "
                                    f"Got m={m}, T={T} ({m**T} sequences)")


def _check_voters(instance: AnyInstance, voters: object) -> tuple[int, ...]:
    try:
        chosen = tuple(sorted({int(i) for i in voters}))  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise InvalidParameterError(f"voters must be a set of pool indices. Got {voters!r}") from None
    if chosen and (chosen[0] < 0 or chosen[-1] >= instance.n_voters):
        raise InvalidParameterError(f"voters must be pool indices in [0, {instance.n_voters - 1}]. Got {sorted(chosen)}")
    return chosen


def _check_compatible(algorithm: Algorithm, instance: AnyInstance) -> None:
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    if not isinstance(instance, (Instance, AdaptiveInstance)):
        raise InvalidParameterError(f"instance must be an Instance or AdaptiveInstance. Got {type(instance).__name__}")
    if instance.m != algorithm.params.m or instance.T != algorithm.params.T:
        raise InvalidParameterError(f"instance must have m={algorithm.params.m} and T={algorithm.params.T}. "
                                    f"Got m={instance.m}, T={instance.T}")


def enumerate_transcripts(algorithm: Algorithm, instance: AnyInstance, voters: object) -> TranscriptTable:
    """The exact distribution of the recommendation sequence of ``algorithm`` on the pattern ``voters``.

    Args:
        algorithm: p-REC or p-REC_sim.
        instance: the client and voter pool.
        voters: the pool indices forming the voting pattern U.

    Returns:
        All m^T sequences with Pr[b_t | b_<t], W_t(b), C_t(b) and the survivors along every prefix.

    References: 001_8845c8f909738498.txt, Algorithms 1-2; specs/gilbert_online_recommendation.md, 2.4.
    """
    _check_compatible(algorithm, instance)
    chosen = _check_voters(instance, voters)
    m, T = algorithm.params.m, algorithm.params.T
    _check_enumerable(m, T)
    columns = np.array(chosen, dtype=np.int64)
    state = algorithm.initial_state((1, len(chosen)))
    prefixes = np.zeros((1, 0), dtype=np.int64)
    levels = []
    for t in range(T):
        votes = np.asarray(instance.votes_at(t, prefixes))[:, columns]
        likes = np.asarray(instance.likes_at(t, prefixes))
        counts = algorithm.counts(state, votes)
        probabilities = np.empty((len(prefixes), m), dtype=object)
        for k, row in enumerate(counts.tolist()):
            probabilities[k] = exact_round_probabilities(algorithm.params, tuple(row))
        alive = algorithm.weights(state)
        levels.append((probabilities, alive.sum(axis=1), algorithm.credit(state), alive))
        nodes = len(prefixes)
        b = np.tile(np.arange(m), nodes)
        liked = np.repeat(likes, m, axis=0)[np.arange(nodes * m), b]
        state = algorithm.update(tuple(np.repeat(s, m, axis=0) for s in state),
                                 np.repeat(votes, m, axis=0) == b[:, None], liked)
        prefixes = np.concatenate([np.repeat(prefixes, m, axis=0), b[:, None]], axis=1)
    N = len(prefixes)
    leaves = np.arange(N)
    round_probabilities = np.empty((N, T), dtype=object)
    survivors = np.zeros((N, T), dtype=np.int64)
    credit = np.zeros((N, T), dtype=np.int64)
    weights = np.zeros((N, T, len(chosen)), dtype=bool)
    for t, (probabilities, W, C, alive) in enumerate(levels):
        ancestor = leaves // m ** (T - t)
        round_probabilities[:, t] = probabilities[ancestor, prefixes[:, t]]
        survivors[:, t], credit[:, t], weights[:, t] = W[ancestor], C[ancestor], alive[ancestor]
    return TranscriptTable(prefixes, round_probabilities, survivors, credit, weights, chosen)


_LOG_CONTEXT = real_context(136)
"""40 digits, private: mpmath's workdps would change the global precision."""


@lru_cache(maxsize=1 << 16)
def _log(value: sympy.Expr) -> mpmath.mpf:
    ctx = _LOG_CONTEXT
    if value.is_Rational:
        return ctx.log(ctx.mpf(int(value.p)) / int(value.q))
    return ctx.log(ctx.mpf(value.evalf(45)._mpf_))


@lru_cache(maxsize=1 << 16)
def _round_loss(p: sympy.Expr, q: sympy.Expr) -> tuple[float, bool]:
    """(ln p - ln q as a float, whether p != q exactly)."""
    if p == q:
        return 0.0, False
    difference = _log(p) - _log(q)
    if abs(difference) > _LOG_CONTEXT.mpf(10) ** -30:
        return float(difference), True
    return float(difference), exact_sign(sympy.expand(p - q)) != 0


@dataclass(frozen=True)
class PrivacyLossTrace:
    """The privacy loss of an adjacent pair (U = U' + one voter) along every recommendation sequence.

    Attributes:
        sequences: N x T, all sequences.
        round_loss: N x T floats E_t(b) = ln Pr[b_t|b_<t] - ln Pr'[b_t|b_<t] (from 40-digit evaluations).
        leaky: N x T bools, E_t(b) != 0 (decided exactly).
        survivors: N x T, W_t(b) on the larger pattern U.
        credit: N x T, C_t(b) on U.
        extra_alive: N x T bools, whether the extra voter survives at the start of round t.
        params: the algorithm's parameters (lambda = params.lam).
        larger, smaller: the two transcript tables (U and U').

    References: 001_8845c8f909738498.txt, Section 5 (E_t, E), Lemmas 12, 14, 18, 19, Theorems 11, 17.
    """

    sequences: np.ndarray
    round_loss: np.ndarray
    leaky: np.ndarray
    survivors: np.ndarray
    credit: np.ndarray
    extra_alive: np.ndarray
    params: PRECParameters
    larger: TranscriptTable
    smaller: TranscriptTable

    @property
    def lam(self) -> float:
        """lambda = 2m ln tau as a float."""
        return self.params.lam_float

    @property
    def total_loss(self) -> np.ndarray:
        """E(b) = sum_t E_t(b) for every sequence."""
        return self.round_loss.sum(axis=1)

    @property
    def realized_epsilon(self) -> float:
        """max_b |E(b)| (float; the exact value is what the exact checker gives on :class:`PRECTranscript`)."""
        return float(np.abs(self.total_loss).max())

    @property
    def witness(self) -> tuple[int, ...]:
        """A sequence b attaining max_b |E(b)|."""
        return tuple(self.sequences[int(np.abs(self.total_loss).argmax())].tolist())

    @property
    def instance_bound(self) -> np.ndarray:
        """Per sequence, sum over the leaky rounds of 3 lambda / W_t(b) (the instance form of Theorem 11, T10)."""
        return np.where(self.leaky, 3 * self.lam / np.maximum(self.survivors, 1), 0.0).sum(axis=1)


def privacy_loss_trace(algorithm: Algorithm, instance: AnyInstance, common: object, extra: int) -> PrivacyLossTrace:
    """E_t(b) for every sequence b between U = common + {extra} and U' = common.

    Args:
        algorithm: p-REC or p-REC_sim.
        instance: client and voter pool.
        common: pool indices of the voters in both patterns.
        extra: pool index of the voter only in U.

    References: 001_8845c8f909738498.txt, Section 5; specs/gilbert_online_recommendation.md, 2.4.
    """
    smaller_voters = _check_voters(instance, common)
    extra = int(_check_voters(instance, [extra])[0])
    if extra in smaller_voters:
        raise InvalidParameterError(f"extra must not be one of the common voters. Got {extra}")
    larger = enumerate_transcripts(algorithm, instance, set(smaller_voters) | {extra})
    return _trace(larger, enumerate_transcripts(algorithm, instance, smaller_voters), extra, algorithm.params)


def _trace(larger: TranscriptTable, smaller: TranscriptTable, extra: int, params: PRECParameters) -> PrivacyLossTrace:
    pairs = [_round_loss(p, q) for p, q in zip(larger.round_probabilities.ravel(), smaller.round_probabilities.ravel())]
    shape = larger.round_probabilities.shape
    round_loss = np.array([d for d, _ in pairs]).reshape(shape)
    leaky = np.array([nz for _, nz in pairs]).reshape(shape)
    extra_alive = larger.weights[:, :, larger.voters.index(extra)]
    return PrivacyLossTrace(larger.sequences, round_loss, leaky, larger.survivors, larger.credit, extra_alive,
                            params, larger, smaller)


@dataclass(frozen=True, eq=False)
class PRECTranscript(FiniteMechanism):
    """p-REC's whole recommendation sequence as a finite mechanism over voting patterns (small m^T).

    Inputs are :class:`~dpcert.mechanisms.online_recommendation.model.Profile` s (instance index, voter set);
    two are neighbours iff they have the same client and pool and differ by one voter (Definition 1).
    Outputs are all sequences b in {0..m-1}^T; pmf(x) gives every Pr[b] exactly, as products of the
    per-round numbers of :func:`~dpcert.mechanisms.online_recommendation.exact_share.exact_round_probabilities`.

    Why it is private (on admissible pairs, where the larger pattern has P >= 6m peers): Theorems 11 and
    17; the exact checker computes the tightest eps over the listed pairs.

    Attributes:
        algorithm: p-REC or p-REC_sim.
        instances: the clients with their voter pools.
        profiles: the voting patterns (inputs).

    References: 001_8845c8f909738498.txt, Definitions 1-2, Theorems 11 and 17.
    """

    name: ClassVar[str] = "p-rec-transcript"
    algorithm: Algorithm
    instances: tuple[AnyInstance, ...]
    profiles: tuple[Profile, ...]

    def __post_init__(self) -> None:
        if isinstance(self.instances, (Instance, AdaptiveInstance)) or not isinstance(self.instances, Sequence) \
                or not self.instances:
            raise InvalidParameterError("instances must be a non-empty sequence of Instance/AdaptiveInstance")
        for instance in self.instances:
            _check_compatible(self.algorithm, instance)
        _check_enumerable(self.algorithm.params.m, self.algorithm.params.T)
        profiles = []
        for profile in self.profiles:
            try:
                k, voters = profile
            except (TypeError, ValueError):
                raise InvalidParameterError(f"profiles must be (instance, voters) pairs. Got {profile!r}") from None
            if not (isinstance(k, (int, np.integer)) and 0 <= k < len(self.instances)):
                raise InvalidParameterError(f"profiles: instance must be in [0, {len(self.instances) - 1}]. Got {k!r}")
            profiles.append(Profile(int(k), frozenset(_check_voters(self.instances[k], voters))))
        if len(set(profiles)) != len(profiles) or not any(adjacent(a, b) for a, b in itertools.combinations(profiles, 2)):
            raise InvalidParameterError("profiles must be distinct and contain at least one adjacent pair")
        object.__setattr__(self, "instances", tuple(self.instances))
        object.__setattr__(self, "profiles", tuple(profiles))

    @classmethod
    def adjacent_pair(cls, algorithm: Algorithm, instance: AnyInstance, common: object, extra: int) -> PRECTranscript:
        """The two patterns U' = common and U = common + {extra} of one instance."""
        smaller = frozenset(_check_voters(instance, common))
        return cls(algorithm, (instance,), (Profile(0, smaller), Profile(0, smaller | {int(extra)})))

    @property
    def neighbours(self) -> Adjacency:
        return Adjacency(adjacent, "add or remove one voter, same client (Definition 1)")

    def inputs(self) -> tuple[Profile, ...]:
        return self.profiles

    def outputs(self) -> list[tuple[int, ...]]:
        return list(itertools.product(range(self.algorithm.params.m), repeat=self.algorithm.params.T))

    def table(self, x: Hashable) -> TranscriptTable:
        """The enumerated transcript tree of input ``x``."""
        self.validate_input(x)
        return self._tables[x]

    @cached_property
    def _tables(self) -> dict[Profile, TranscriptTable]:
        return {p: enumerate_transcripts(self.algorithm, self.instances[p.instance], p.voters) for p in self.profiles}

    def pmf(self, x: Hashable) -> Mapping[tuple[int, ...], sympy.Expr]:
        table = self.table(x)
        return {tuple(b): table.probability(i) for i, b in enumerate(table.sequences.tolist())}

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` recommendation sequences from simulating the algorithm: a (size, T) integer array, one row
        per run (the output is the row as a tuple, like every vector-valued mechanism's)."""
        size = check_size(size)
        self.validate_input(x)
        runs = self.algorithm.simulate(self.instances[x.instance], size, rng, voters=np.array(sorted(x.voters)))
        return np.asarray(runs.recommendations, dtype=np.int64).reshape(size, self.algorithm.params.T)

    def round_marginal(self, x: Hashable, t: int, objects: object) -> sympy.Expr:
        """Pr[b_t in objects] on input ``x``, exactly (e.g. Claim 1's p_A: the disliked object in the split round)."""
        table = self.table(x)
        t = require_int("t", t, minimum=0, maximum=self.algorithm.params.T - 1)
        chosen = np.isin(table.sequences[:, t], list(objects))  # type: ignore[call-overload]
        return sympy.Add(*(table.probability(i) for i in np.flatnonzero(chosen)))

    def loss_trace(self, x: Hashable, x_prime: Hashable) -> PrivacyLossTrace:
        """The privacy-loss trace of two adjacent inputs (either order), from the cached transcript tables."""
        self.validate_input(x)
        self.validate_input(x_prime)
        x, x_prime = Profile(*x), Profile(*x_prime)
        if not adjacent(x, x_prime):
            raise InvalidParameterError(f"x_prime must be adjacent to x (one voter more or less). Got {x!r}, {x_prime!r}")
        small, large = sorted((x, x_prime), key=lambda p: len(p.voters))
        (extra,) = large.voters - small.voters
        return _trace(self._tables[large], self._tables[small], extra, self.algorithm.params)

    def adjacent_pairs(self) -> list[tuple[Profile, Profile]]:
        """Every adjacent pair of inputs as (smaller, larger)."""
        return [tuple(sorted((a, b), key=lambda p: len(p.voters)))  # type: ignore[misc]
                for a, b in itertools.combinations(self.profiles, 2) if adjacent(a, b)]

    def min_peers(self) -> int:
        """min over adjacent pairs of the client's peers (radius R) in the larger pattern: the P the pairs admit."""
        R = self.algorithm.params.R
        return min(self._peer_count(large, R) for _, large in self.adjacent_pairs())

    def _peer_count(self, profile: Profile, R: int) -> int:
        instance = self.instances[profile.instance]
        if not isinstance(instance, Instance):
            raise InvalidParameterError("min_peers needs oblivious instances (peers of an adaptive one depend on b)")
        return instance.peer_count(R, profile.voters)

    def max_diversity(self) -> int:
        """max over the oblivious instances of the client's diversity D_C."""
        return max(i.diversity for i in self.instances if isinstance(i, Instance))

    def parameters(self) -> dict[str, object]:
        """The algorithm's parameters and the sizes of the input space (JSON-friendly)."""
        p = self.algorithm.params
        return {"algorithm": self.algorithm.name, "m": p.m, "T": p.T, "D": p.D, "R": p.R, "gamma": p.gamma,
                "clients": len(self.instances), "patterns": len(self.profiles)}
