"""Theorem 15's randomized oblivious adversary, run against p-REC, and the privacy loss it forces.

The adversary (m = 2 objects alpha = 0 and beta = 1 per round) holds two voting patterns of P identical
voters each, U (pool voters 0..P-1) and U' (pool voters P..2P-1), both peers of the client, and picks
round t's setting from an independent draw X_t:

    X_t = 0 with probability (D+R)/(2T), 1 or 2 with probability (1 - (D+R)/(2T))/2 each;
    X_t = 1: S1, the client likes alpha only, U and U' vote alpha;
    X_t = 2: S2, the client likes beta only, U and U' vote beta;
    X_t = 0: S3 (the client likes both; U votes alpha, U' votes beta) while fewer than D rounds were S3,
             else S4 (the client likes alpha only; U votes alpha, U' votes beta: one unit of U''s radius).

A configuration is legal when it has at most R S4 rounds (then every voter is a peer and D_C <= D). U and
U' are 2P-step adjacent (add U''s voters one by one, then remove U's: every pattern of the chain keeps
>= P peers), so an eps-DP algorithm has |ln(Pr[b]/Pr'[b])| <= 2P eps for every b, and in particular

    eps >= E[ KL(Pr_F || Pr'_F) | F legal ] / (2P),

with Pr_F the distribution of the recommendations on (C, U) and Pr'_F on (C, U'). The proof shows that in
every round the algorithm either loses >= 1/4 in expectation under S1 or S2 (cases 1.a, 1.b) or leaks
> 0.13 nats in expectation under S2 (case 2.a) or S3/S4 (case 2.b), and concludes
E[KL | legal] >= 0.13 min((D+R)/4 - 1, T/8 - 8(L+1) - 1) for an algorithm of worst expected loss L.

:func:`adversary_statistics` computes these expectations exactly (up to float64 rounding), over the
adversary's draws and the algorithm's coins together, by dynamic programming over the joint state
(the voters' credits in both executions, the S3 and S4 rounds used so far): the future of an oblivious
configuration depends on the past only through that state. :func:`simulate_adversary` runs the same
adversary by sampling, one configuration and one execution per run.

References: 001_8845c8f909738498.txt, Theorem 15 and its proof (Section 8.1);
specs/gilbert_online_recommendation.md, section 3 (Theorem 15) and A8, A13.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.online_recommendation.algorithms import PREC, PRECSim
from dpcert.mechanisms.online_recommendation.model import Instance, Profile
from dpcert.mechanisms.online_recommendation.parameters import recommendation_probabilities
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = [
    "AdversaryStatistics",
    "AdversaryRuns",
    "SETTINGS",
    "Theorem15Adversary",
    "Theorem15Configuration",
    "adversary_statistics",
    "simulate_adversary",
]

SETTINGS: dict[int, tuple[frozenset[int], int, int]] = {
    1: (frozenset({0}), 0, 0),
    2: (frozenset({1}), 1, 1),
    3: (frozenset({0, 1}), 0, 1),
    4: (frozenset({0}), 0, 1),
}
"""Setting -> (objects the client likes, U's vote, U''s vote); object 0 is alpha_t, object 1 is beta_t."""

_LIKES = np.array([[False, False], [True, False], [False, True], [True, True], [True, False]])
_U_VOTE = np.array([0, 0, 1, 0, 0])
_U_PRIME_VOTE = np.array([0, 0, 1, 1, 1])


@dataclass(frozen=True)
class Theorem15Configuration:
    """One configuration F = (C, U, U') the adversary draws: a setting S1-S4 per round, P voters per pattern.

    Attributes:
        settings: the setting (1-4) of every round.
        P: voters per pattern (identical copies).
    """

    settings: tuple[int, ...]
    P: int

    def __post_init__(self) -> None:
        if isinstance(self.settings, (str, bytes)) or not isinstance(self.settings, Sequence) or not self.settings:
            raise InvalidParameterError(f"settings must be a non-empty sequence of values in 1..4. Got {self.settings!r}")
        settings = tuple(require_int("settings", s, minimum=1, maximum=4) for s in self.settings)
        object.__setattr__(self, "settings", settings)
        object.__setattr__(self, "P", require_int("P", self.P, minimum=1))

    @property
    def T(self) -> int:
        """Number of rounds."""
        return len(self.settings)

    def legal(self, D: object, R: object) -> bool:
        """At most D rounds S3 (the client's diversity) and at most R rounds S4 (U''s distance)."""
        D = require_int("D", D, minimum=0)
        R = require_int("R", R, minimum=0)
        return self.settings.count(3) <= D and self.settings.count(4) <= R

    def instance(self) -> Instance:
        """The client and the pool: voters 0..P-1 form U, voters P..2P-1 form U'."""
        codes = np.array(self.settings)
        votes = np.vstack([np.repeat(_U_VOTE[codes][None, :], self.P, axis=0),
                           np.repeat(_U_PRIME_VOTE[codes][None, :], self.P, axis=0)])
        return Instance(2, tuple(SETTINGS[s][0] for s in self.settings), votes)

    @property
    def patterns(self) -> tuple[Profile, Profile]:
        """(U, U') as profiles of :meth:`instance`."""
        return Profile(0, frozenset(range(self.P))), Profile(0, frozenset(range(self.P, 2 * self.P)))

    def chain(self) -> tuple[Profile, ...]:
        """U, then U''s voters added one by one, then U's removed one by one, ending at U' (2P steps)."""
        first, second = (p.voters for p in self.patterns)
        adding = [Profile(0, first | frozenset(range(self.P, self.P + k))) for k in range(self.P + 1)]
        removing = [Profile(0, second | frozenset(range(k, self.P))) for k in range(1, self.P + 1)]
        return tuple(adding + removing)


@dataclass(frozen=True)
class Theorem15Adversary:
    """Theorem 15's random oblivious adversary for T rounds, diversity D, radius R and P voters per pattern.

    Attributes:
        T: rounds (>= 1).
        D: S3 rounds allowed (>= 0).
        R: S4 rounds a legal configuration may have (>= 0); D + R <= 2T, so that Pr[X_t = 0] <= 1.
        P: voters per pattern (>= 1).
        mimic: a deliberately broken adversary in which U' votes like U in S3 and S4 (nothing is forced);
            for power checks only.

    References: 001_8845c8f909738498.txt, Theorem 15 (proof, the randomized construction).
    """

    T: int
    D: int
    R: int
    P: int = 1
    mimic: bool = False

    def __post_init__(self) -> None:
        T = require_int("T", self.T, minimum=1)
        D = require_int("D", self.D, minimum=0, maximum=2 * T)
        R = require_int("R", self.R, minimum=0, maximum=2 * T - D)
        if not isinstance(self.mimic, bool):
            raise InvalidParameterError(f"mimic must be True or False. Got {self.mimic!r}")
        for name, value in (("T", T), ("D", D), ("R", R), ("P", require_int("P", self.P, minimum=1))):
            object.__setattr__(self, name, value)

    @property
    def draw_probabilities(self) -> tuple[sympy.Rational, sympy.Rational, sympy.Rational]:
        """(Pr[X_t = 0], Pr[X_t = 1], Pr[X_t = 2]) = ((D+R)/(2T), (1 - (D+R)/(2T))/2, the same)."""
        q0 = sympy.Rational(self.D + self.R, 2 * self.T)
        return q0, (1 - q0) / 2, (1 - q0) / 2

    def settings_of(self, draws: object) -> tuple[int, ...]:
        """The settings for draws X_1..X_T: X = 1 -> S1, X = 2 -> S2, X = 0 -> S3 while fewer than D were S3, else S4."""
        settings, used = [], 0
        for x in draws:  # type: ignore[union-attr]
            x = require_int("draws", x, minimum=0, maximum=2)
            if x:
                settings.append(x)
            else:
                settings.append(3 if used < self.D else 4)
                used += settings[-1] == 3
        return tuple(settings)

    def draw(self, rng: np.random.Generator) -> Theorem15Configuration:
        """One configuration, the X_t drawn from ``rng``."""
        if not isinstance(rng, np.random.Generator):
            raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
        p = np.array([float(q) for q in self.draw_probabilities])
        return Theorem15Configuration(self.settings_of(rng.choice(3, size=self.T, p=p / p.sum())), self.P)

    def votes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """U's and U''s votes for an array of setting codes (U' copies U's under ``mimic``)."""
        return _U_VOTE[codes], (_U_VOTE if self.mimic else _U_PRIME_VOTE)[codes]


@dataclass(frozen=True)
class AdversaryStatistics:
    """Expectations over the adversary's draws and the algorithm's coins (the proof of Theorem 15).

    Attributes:
        legal_probability: Pr[F legal].
        expected_loss: E[sum_t L_t] over every configuration (the loss on (C, U)).
        legal_loss: E[sum_t L_t | F legal].
        legal_privacy_loss: E[E(b) | F legal] = the average over legal F of KL(Pr_F || Pr'_F).
        case_rounds: E[sum_t I_t] for the proof's cases 1.a, 1.b, 2.a, 2.b (keys "1a", "1b", "2a", "2b").
        nodes: the largest number of joint states the dynamic programme held in one round.
    """

    legal_probability: float
    expected_loss: float
    legal_loss: float
    legal_privacy_loss: float
    case_rounds: dict[str, float]
    nodes: int

    def forced_epsilon(self, P: object) -> float:
        """E[E | legal] / (2P): every eps-DP algorithm on the adversary's 2P-step chains has eps at least this."""
        return self.legal_privacy_loss / (2 * require_int("P", P, minimum=1))


Algorithm = PREC | PRECSim


def _check_pair(algorithm: Algorithm, adversary: Theorem15Adversary) -> None:
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    if not isinstance(adversary, Theorem15Adversary):
        raise InvalidParameterError(f"adversary must be a Theorem15Adversary. Got {type(adversary).__name__}")
    if algorithm.params.m != 2 or algorithm.params.T != adversary.T:
        raise InvalidParameterError(f"algorithm must have m = 2 and T = {adversary.T} (the adversary's). "
                                    f"Got m = {algorithm.params.m}, T = {algorithm.params.T}")


def _probabilities(algorithm: Algorithm, state: tuple[np.ndarray, np.ndarray], vote: np.ndarray) -> np.ndarray:
    """Pr[b_t = j] (nodes x 2) when every voter of the pattern votes ``vote`` (per node)."""
    votes = np.repeat(vote[:, None], state[0].shape[1], axis=1)
    return recommendation_probabilities(algorithm.params, algorithm.counts(state, votes))


def _canonical(algorithm: Algorithm, state: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Removed voters' credits set to 0: credits only decrease, so a removed voter's state no longer matters."""
    alive = algorithm.weights(state)
    return np.where(alive, state[0], 0), np.where(alive, state[1], 0)


def _cases(p_alpha: np.ndarray, p_beta: np.ndarray, p_beta_prime: np.ndarray) -> dict[str, np.ndarray]:
    low = np.minimum(p_alpha, p_beta) <= 0.75
    return {"1a": low & (p_alpha <= 0.75), "1b": low & (p_alpha > 0.75),
            "2a": ~low & (p_beta_prime <= 0.5), "2b": ~low & (p_beta_prime > 0.5)}


def adversary_statistics(algorithm: Algorithm, adversary: Theorem15Adversary) -> AdversaryStatistics:
    """The exact expectations of Theorem 15's proof for ``algorithm`` against ``adversary``.

    Dynamic programming over rounds: a node is (the credits of U's voters in the execution on U, those of
    U''s voters in the execution on U', S3 rounds used, S4 rounds used capped at R + 1; the P voters of a
    pattern are identical, so one stands for all) with its probability
    and its probability-weighted accumulated loss and privacy loss; nodes with equal state are merged. The
    proof's case of every round (from p_alpha, p_beta on U and p'_beta on U') is accumulated on the way.
    Float64 throughout (relative error ~1e-13 at T = 200).

    References: 001_8845c8f909738498.txt, Theorem 15 (proof, inequalities (5)-(12)).
    """
    _check_pair(algorithm, adversary)
    # The P voters of a pattern vote alike and so are updated alike; the vote fractions, hence every
    # probability, do not depend on P. One voter per pattern represents all of them.
    P, D, R = 1, adversary.D, adversary.R
    q = [float(x) for x in adversary.draw_probabilities]
    state_u = algorithm.initial_state((1, P))
    state_v = algorithm.initial_state((1, P))
    s3, s4 = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    mass, mass_e, mass_l = np.ones(1), np.zeros(1), np.zeros(1)
    cases = dict.fromkeys(("1a", "1b", "2a", "2b"), 0.0)
    largest = 1
    offset = adversary.T + 1
    radix = adversary.T + 2 * D + 2 * R + 3
    for _ in range(adversary.T):
        ones = np.ones(len(mass), dtype=np.int64)
        p_alpha = _probabilities(algorithm, state_u, 0 * ones)[:, 0]
        p_beta = _probabilities(algorithm, state_u, ones)[:, 1]
        p_beta_prime = _probabilities(algorithm, state_v, ones)[:, 1]
        for name, indicator in _cases(p_alpha, p_beta, p_beta_prime).items():
            cases[name] += float(mass[indicator].sum())
        pieces = []
        for x, qx in enumerate(q):
            if qx == 0:
                continue
            code = np.full(len(mass), x, dtype=np.int64) if x else np.where(s3 < D, 3, 4)
            vote_u, vote_v = adversary.votes(code)
            probs_u = _probabilities(algorithm, state_u, vote_u)
            probs_v = _probabilities(algorithm, state_v, vote_v)
            for b in (0, 1):
                step = qx * probs_u[:, b]
                leak = np.log(probs_u[:, b]) - np.log(probs_v[:, b])
                liked = _LIKES[code, b]
                bb = np.full(len(mass), b)
                new_u = algorithm.update(state_u, (vote_u == bb)[:, None] & np.ones((1, P), bool), liked)
                new_v = algorithm.update(state_v, (vote_v == bb)[:, None] & np.ones((1, P), bool), liked)
                pieces.append((_canonical(algorithm, new_u), _canonical(algorithm, new_v), s3 + (code == 3),
                               np.minimum(s4 + (code == 4), R + 1), step * mass, step * (mass_e + mass * leak),
                               step * (mass_l + mass * ~liked)))
        keys = np.hstack([np.concatenate([p[0][0] for p in pieces]), np.concatenate([p[0][1] for p in pieces]),
                          np.concatenate([p[1][0] for p in pieces]), np.concatenate([p[1][1] for p in pieces]),
                          np.concatenate([p[2] for p in pieces])[:, None], np.concatenate([p[3] for p in pieces])[:, None]])
        keep = np.concatenate([p[4] for p in pieces]) > 0
        keys = keys[keep]
        # one int64 per row (mixed radix; every column lies in [-T - 1, 2D + 2R + 1]) makes merging a 1-d unique
        codes = np.zeros(len(keys), dtype=np.int64)
        for column in keys.T:
            codes = codes * radix + (column + offset)
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        keys, inverse = keys[first], inverse.reshape(-1)

        def merged(k: int) -> np.ndarray:
            return np.bincount(inverse, weights=np.concatenate([p[k] for p in pieces])[keep], minlength=len(keys))

        mass, mass_e, mass_l = merged(4), merged(5), merged(6)
        state_u = (keys[:, :P], keys[:, P:2 * P])
        state_v = (keys[:, 2 * P:3 * P], keys[:, 3 * P:4 * P])
        s3, s4 = keys[:, 4 * P], keys[:, 4 * P + 1]
        largest = max(largest, len(mass))
    legal = s4 <= R
    legal_mass = float(mass[legal].sum())  # > 0: draws without X_t = 0 are legal; if Pr[X_t = 0] = 1 all are
    return AdversaryStatistics(legal_mass, float(mass_l.sum()), float(mass_l[legal].sum()) / legal_mass,
                               float(mass_e[legal].sum()) / legal_mass, cases, largest)


@dataclass(frozen=True)
class AdversaryRuns:
    """Sampled runs: one configuration and one execution on (C, U) per run.

    Attributes:
        settings: runs x T settings (1-4).
        legal: per run, whether the configuration is legal.
        loss: per run, the loss of the execution on (C, U).
        privacy_loss: per run, E(b) = ln(Pr[b] / Pr'[b]) of the sampled sequence b (exact along the path).
    """

    settings: np.ndarray
    legal: np.ndarray
    loss: np.ndarray
    privacy_loss: np.ndarray


def simulate_adversary(algorithm: Algorithm, adversary: Theorem15Adversary, runs: int,
                       rng: np.random.Generator) -> AdversaryRuns:
    """``runs`` independent draws of a configuration, each with one execution of ``algorithm`` on (C, U).

    Vectorised over runs: per round the settings, then b_t from the execution on U, the feedback, and the
    probability of the same b_t in the execution on U' (replayed along b), so E(b) is exact per run.

    References: 001_8845c8f909738498.txt, Theorem 15 (proof).
    """
    _check_pair(algorithm, adversary)
    runs = check_size(runs)
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    P, T = adversary.P, adversary.T
    p = np.array([float(x) for x in adversary.draw_probabilities])
    draws = rng.choice(3, size=(runs, T), p=p / p.sum())
    settings = np.zeros((runs, T), dtype=np.int64)
    used = np.zeros(runs, dtype=np.int64)
    state_u, state_v = algorithm.initial_state((runs, P)), algorithm.initial_state((runs, P))
    loss, privacy = np.zeros(runs, dtype=np.int64), np.zeros(runs)
    rows = np.arange(runs)
    for t in range(T):
        code = np.where(draws[:, t] > 0, draws[:, t], np.where(used < adversary.D, 3, 4))
        used += code == 3
        settings[:, t] = code
        vote_u, vote_v = adversary.votes(code)
        probs_u = _probabilities(algorithm, state_u, vote_u)
        probs_v = _probabilities(algorithm, state_v, vote_v)
        b = (rng.random(runs) >= probs_u[:, 0]).astype(np.int64)
        privacy += np.log(probs_u[rows, b]) - np.log(probs_v[rows, b])
        liked = _LIKES[code, b]
        loss += ~liked
        state_u = algorithm.update(state_u, np.repeat((vote_u == b)[:, None], P, axis=1), liked)
        state_v = algorithm.update(state_v, np.repeat((vote_v == b)[:, None], P, axis=1), liked)
    legal = ((settings == 3).sum(axis=1) <= adversary.D) & ((settings == 4).sum(axis=1) <= adversary.R)
    return AdversaryRuns(settings, legal, loss, privacy)

