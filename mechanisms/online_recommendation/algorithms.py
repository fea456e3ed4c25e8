"""p-REC_sim (Algorithm 1) and p-REC (Algorithm 2): the voter-state updates and a vectorised simulator.

Both recommend by RecommendByWeight: draw Z_t ~ Bernoulli(gamma) once per round (spec A3); if Z_t = 1
recommend uniformly, else object j with probability phi(x_j) / sum_k phi(x_k). They differ in how the
client's feedback updates the voters:

- p-REC_sim (UpdateWeight): on a dislike, every voter who voted for the recommended object is kicked out
  (weight 0); on a like, every voter who did not vote for it is kicked out.
- p-REC (UpdateCreditAndWeight): voters start with credit_D = 2D and credit_R = 2R + 1; a dislike costs
  the voters on the object one R-credit, a like costs the other voters one D-credit (decrements apply to
  every matching voter, surviving or not), and a voter survives while credit_R > 0 and
  credit_D + credit_R > 0.

Voter states are pairs of integer arrays (credit_D, credit_R) of any leading shape, so a batch of runs
(or of transcript-tree nodes) is updated at once. For p-REC_sim, credit_R is the 0/1 weight.

References: 001_8845c8f909738498.txt, Algorithm 1 (Section 7.2) and Algorithm 2 (Section 8.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.online_recommendation.model import AdaptiveInstance, Instance
from dpcert.mechanisms.online_recommendation.parameters import PRECParameters, phi_shares
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["PREC", "PRECSim", "SimulationResult", "VoterState"]

VoterState = tuple[np.ndarray, np.ndarray]
"""(credit_D, credit_R): integer arrays of shape (..., voters)."""


@dataclass(frozen=True)
class SimulationResult:
    """Runs of p-REC on one instance: per run and round, what was recommended and the voters' state.

    Attributes:
        recommendations: runs x T objects b_t.
        uniform: runs x T bools Z_t (True: the round's recommendation was uniform).
        losses: runs x T bools: the client dislikes b_t.
        survivors: runs x T: W_t, surviving voters at the start of round t.
        credit: runs x T: C_t, total credit (D + R) of the survivors at the start of round t.
        r_credit: runs x T: C^(R)_t, total R-credit of the survivors at the start of round t.
    """

    recommendations: np.ndarray
    uniform: np.ndarray
    losses: np.ndarray
    survivors: np.ndarray
    credit: np.ndarray
    r_credit: np.ndarray

    @property
    def total_loss(self) -> np.ndarray:
        """Loss of every run."""
        return self.losses.sum(axis=1)

    @property
    def greedy_losses(self) -> np.ndarray:
        """Per run, the loss rounds with Z_t = 0 (the ones Theorems 10 and 16 bound pathwise)."""
        return (self.losses & ~self.uniform).sum(axis=1)


class _Recommender:
    """RecommendByWeight plus an update rule; subclasses give the initial state and the update."""

    name: ClassVar[str]
    params: PRECParameters

    def initial_state(self, shape: tuple[int, ...]) -> VoterState:
        """The voters' state before round 1, for a batch of the given shape (..., voters)."""
        raise NotImplementedError

    def update(self, state: VoterState, voted: np.ndarray, liked: np.ndarray) -> VoterState:
        """The state after feedback: ``voted`` (..., voters) marks who voted for b_t, ``liked`` (...) the feedback."""
        raise NotImplementedError

    def weights(self, state: VoterState) -> np.ndarray:
        """The 0/1 weights (surviving voters) as bools."""
        raise NotImplementedError

    def credit(self, state: VoterState) -> np.ndarray:
        """C = sum_i weight[i] (credit_D[i] + credit_R[i]) over the last axis."""
        credit_d, credit_r = state
        return np.where(self.weights(state), credit_d + credit_r, 0).sum(axis=-1)

    def r_credit(self, state: VoterState) -> np.ndarray:
        """C^(R) = sum_i weight[i] credit_R[i] over the last axis."""
        return np.where(self.weights(state), state[1], 0).sum(axis=-1)

    def counts(self, state: VoterState, votes: np.ndarray) -> np.ndarray:
        """Surviving voters per object: (..., voters) votes -> (..., m) counts."""
        alive = self.weights(state)
        lead = votes.shape[:-1]
        flat = votes.reshape(-1, votes.shape[-1])
        rows = np.arange(flat.shape[0])[:, None] * self.params.m + flat
        counts = np.bincount(rows[alive.reshape(flat.shape)], minlength=flat.shape[0] * self.params.m)
        return counts.reshape(*lead, self.params.m)

    def simulate(self, instance: Instance | AdaptiveInstance, runs: int, rng: np.random.Generator, *,
                 voters: np.ndarray | None = None) -> SimulationResult:
        """``runs`` independent executions on ``instance`` (restricted to ``voters``), vectorised over runs.

        Args:
            instance: the client and voter pool (oblivious or adaptive).
            runs: number of independent runs.
            rng: the only source of randomness.
            voters: indices of the pool voters taking part (default: all).

        Returns:
            The per-run, per-round record, including Z_t and the voters' W_t, C_t, C^(R)_t.
        """
        runs = check_size(runs)
        if not isinstance(rng, np.random.Generator):
            raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
        if instance.m != self.params.m or instance.T != self.params.T:
            raise InvalidParameterError(f"instance must have m={self.params.m} and T={self.params.T}. "
                                        f"Got m={instance.m}, T={instance.T}")
        chosen = np.arange(instance.n_voters) if voters is None else np.asarray(voters, dtype=np.int64)
        if chosen.size and (chosen.min() < 0 or chosen.max() >= instance.n_voters):
            raise InvalidParameterError(f"voters must be pool indices in [0, {instance.n_voters - 1}]")
        m, T, gamma = self.params.m, self.params.T, float(self.params.gamma)
        state = self.initial_state((runs, chosen.size))
        fields = {name: np.zeros((runs, T), dtype=dtype) for name, dtype in
                  (("recommendations", np.int64), ("uniform", bool), ("losses", bool),
                   ("survivors", np.int64), ("credit", np.int64), ("r_credit", np.int64))}
        rows = np.arange(runs)
        for t in range(T):
            prefixes = fields["recommendations"][:, :t]
            votes = instance.votes_at(t, prefixes)[:, chosen]
            likes = instance.likes_at(t, prefixes)
            counts = self.counts(state, votes)
            cumulative = np.cumsum(phi_shares(self.params, counts), axis=1)
            by_weight = (cumulative / cumulative[:, -1:] <= rng.random(runs)[:, None]).sum(axis=1)
            uniform = rng.random(runs) < gamma
            b = np.where(uniform, rng.integers(0, m, size=runs), by_weight)
            liked = likes[rows, b]
            fields["recommendations"][:, t] = b
            fields["uniform"][:, t] = uniform
            fields["losses"][:, t] = ~liked
            fields["survivors"][:, t] = self.weights(state).sum(axis=1)
            fields["credit"][:, t] = self.credit(state)
            fields["r_credit"][:, t] = self.r_credit(state)
            state = self.update(state, votes == b[:, None], liked)
        return SimulationResult(**fields)


@dataclass(frozen=True)
class PRECSim(_Recommender):
    """p-REC_sim (Algorithm 1): gamma = m/(3T - 1), lambda = 2m ln T, rho = 1/(2m); 0/1 weights, kick-out updates.

    Why it is private: a round leaks only while the extra voter survives and only through the vote
    fractions, which one voter moves by at most 1/W_t (Lemma 12: |E_t| <= 3 lambda / W_t); every leaky
    round kicks out a 1/(3m) fraction of the survivors (Lemma 14), so the leaks form a geometric series
    summing to at most 9 m lambda / P = 18 m^2 ln T / P (Theorem 11).

    Attributes:
        m: objects per round.
        T: number of rounds.
        gamma: None for the paper's m/(3T - 1), or a rational in [0, 1] for a deliberately broken variant.

    References: 001_8845c8f909738498.txt, Algorithm 1, Theorems 10 and 11.
    """

    name: ClassVar[str] = "p-rec-sim"
    m: int
    T: int
    gamma: object = None

    @cached_property
    def params(self) -> PRECParameters:
        """The validated parameters (D = R = 0)."""
        return PRECParameters(self.m, self.T, 0, 0, self.gamma)

    def __post_init__(self) -> None:
        object.__setattr__(self, "m", self.params.m)
        object.__setattr__(self, "T", self.params.T)
        object.__setattr__(self, "gamma", self.params.gamma)

    def initial_state(self, shape: tuple[int, ...]) -> VoterState:
        return np.zeros(shape, dtype=np.int64), np.ones(shape, dtype=np.int64)

    def update(self, state: VoterState, voted: np.ndarray, liked: np.ndarray) -> VoterState:
        kicked = np.where(np.asarray(liked)[..., None], ~voted, voted)
        return state[0], np.where(kicked, 0, state[1])

    def weights(self, state: VoterState) -> np.ndarray:
        return state[1] > 0


@dataclass(frozen=True)
class PREC(_Recommender):
    """p-REC (Algorithm 2): gamma = m(R+1)/(3T-R-1), lambda = 2m ln(T/(R+1)), rho = 1/(2m); D- and R-credits.

    Why it is private: as for p-REC_sim, with the survivors' total credit C_t in place of W_t: every
    leaky round removes a 1/(3m(2D+2R+1)) fraction of C_t (Lemma 19) and C_t >= P(D+R+1) because peers
    are never removed, so the leaks sum to at most 18 m (2D+2R+1) lambda / P (Theorem 17).

    Attributes:
        m: objects per round.
        T: number of rounds.
        D: diversity bound (initial D-credit 2D).
        R: peer radius (initial R-credit 2R + 1).
        gamma: None for the paper's value, or a rational in [0, 1] for a deliberately broken variant.

    References: 001_8845c8f909738498.txt, Algorithm 2, Theorems 16 and 17.
    """

    name: ClassVar[str] = "p-rec"
    m: int
    T: int
    D: int = 0
    R: int = 0
    gamma: object = None

    @cached_property
    def params(self) -> PRECParameters:
        """The validated parameters."""
        return PRECParameters(self.m, self.T, self.D, self.R, self.gamma)

    def __post_init__(self) -> None:
        for name in ("m", "T", "D", "R", "gamma"):
            object.__setattr__(self, name, getattr(self.params, name))

    def initial_state(self, shape: tuple[int, ...]) -> VoterState:
        return (np.full(shape, 2 * self.params.D, dtype=np.int64),
                np.full(shape, 2 * self.params.R + 1, dtype=np.int64))

    def update(self, state: VoterState, voted: np.ndarray, liked: np.ndarray) -> VoterState:
        liked = np.asarray(liked)[..., None]
        return state[0] - (liked & ~voted), state[1] - (~liked & voted)

    def weights(self, state: VoterState) -> np.ndarray:
        return (state[1] > 0) & (state[0] + state[1] > 0)
