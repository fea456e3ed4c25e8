"""The model of online collaborative recommendation: rounds, objects, votes, a client's likes, the loss.

Each round t = 0..T-1 brings m new objects 0..m-1. Every voter votes for exactly one of them ("likes"
it); the system recommends one object b_t to the client, who says whether they like it. The loss of a
recommendation sequence b is the number of rounds in which the client dislikes b_t.

- diversity D_C = #{t : the client likes more than one object in round t};
- distance(C, i) = the number of rounds in which voter i votes for an object the client dislikes;
- voter i is a peer of C for radius R iff distance(C, i) <= R; P_{C,V,R} = the number of peers.

An :class:`Instance` is an oblivious adversary (everything fixed in advance); an
:class:`AdaptiveInstance` lets votes and likes of round t depend on the recommendations b_<t
(spec 1.4, T14). Both are voter *pools*: a voting pattern V<U> is a subset U of the pool's voters, and two
patterns of one instance are adjacent iff they differ by one voter (Definition 1: the common voters
vote the same way in both).

References: 001_8845c8f909738498.txt, Section 2 (model), Definitions 1-2, Table 1;
specs/gilbert_online_recommendation.md, section 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["AdaptiveInstance", "Instance", "Profile", "adjacent", "sequence_losses"]


class Profile(NamedTuple):
    """A voting pattern of one instance: which client (instance index) and which pool voters take part."""

    instance: int
    voters: frozenset[int]


def adjacent(a: Profile, b: Profile) -> bool:
    """Definition 1: same client and voter sets differing by exactly one voter (added or removed)."""
    return a.instance == b.instance and len(a.voters ^ b.voters) == 1


def _like_set(t: int, likes: object, m: int) -> frozenset[int]:
    try:
        chosen = frozenset(int(j) for j in likes)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise InvalidParameterError(f"likes[{t}] must be a set of objects in [0, {m - 1}]. Got {likes!r}") from None
    if not chosen or not chosen <= set(range(m)):
        raise InvalidParameterError(
            f"likes[{t}] must be a non-empty set of objects in [0, {m - 1}] (the client likes at least one). "
            f"Got {sorted(chosen)}")
    return chosen


def _vote_matrix(votes: object, m: int, T: int | None) -> np.ndarray:
    try:
        matrix = np.array(votes, dtype=np.int64)
    except (TypeError, ValueError):
        raise InvalidParameterError("votes must be a voters x rounds array of objects") from None
    if matrix.ndim != 2 or (T is not None and matrix.shape[1] != T):
        raise InvalidParameterError(f"votes must be a voters x rounds array with {T} rounds. Got shape {matrix.shape}")
    if matrix.size and (matrix.min() < 0 or matrix.max() >= m):
        raise InvalidParameterError(f"votes must be objects in [0, {m - 1}] (one vote per voter per round)")
    return matrix


def sequence_losses(like_matrix: np.ndarray, sequences: np.ndarray) -> np.ndarray:
    """Per-round losses 1[client dislikes b_t] for oblivious likes (T x m bools) and sequences (..., T)."""
    sequences = np.asarray(sequences)
    rounds = np.arange(like_matrix.shape[0])
    return ~like_matrix[rounds, sequences]


@dataclass(frozen=True, eq=False)
class Instance:
    """An oblivious instance: a client's likes per round and a pool of voters' votes, fixed in advance.

    Attributes:
        m: objects per round (>= 2).
        likes: per round, the non-empty set of objects the client likes.
        votes: voters x rounds array; votes[i, t] is the object voter i votes for in round t.

    References: 001_8845c8f909738498.txt, Section 2.
    """

    m: int
    likes: tuple[frozenset[int], ...]
    votes: np.ndarray

    def __post_init__(self) -> None:
        m = require_int("m", self.m, minimum=2)
        object.__setattr__(self, "m", m)
        if isinstance(self.likes, (str, bytes)) or not isinstance(self.likes, Sequence) or not self.likes:
            raise InvalidParameterError(f"likes must be a non-empty sequence of like sets, one per round. Got {self.likes!r}")
        object.__setattr__(self, "likes", tuple(_like_set(t, s, m) for t, s in enumerate(self.likes)))
        matrix = _vote_matrix(self.votes, m, len(self.likes))
        matrix.setflags(write=False)
        object.__setattr__(self, "votes", matrix)

    @property
    def T(self) -> int:
        """Number of rounds."""
        return len(self.likes)

    @property
    def n_voters(self) -> int:
        """Number of voters in the pool."""
        return self.votes.shape[0]

    @cached_property
    def like_matrix(self) -> np.ndarray:
        """T x m bools: like_matrix[t, j] = the client likes object j in round t."""
        matrix = np.zeros((self.T, self.m), dtype=bool)
        for t, chosen in enumerate(self.likes):
            matrix[t, sorted(chosen)] = True
        return matrix

    @property
    def diversity(self) -> int:
        """D_C = the number of rounds in which the client likes more than one object."""
        return int((self.like_matrix.sum(axis=1) > 1).sum())

    def distances(self) -> np.ndarray:
        """distance(C, i) for every pool voter: rounds in which i votes for an object the client dislikes."""
        return (~self.like_matrix[np.arange(self.T), self.votes]).sum(axis=1)

    def peers(self, R: int) -> np.ndarray:
        """Indices of the pool voters that are peers of the client for radius R (distance <= R)."""
        R = require_int("R", R, minimum=0)
        return np.flatnonzero(self.distances() <= R)

    def peer_count(self, R: int, voters: frozenset[int] | None = None) -> int:
        """P_{C,V,R}: the peers among ``voters`` (default: the whole pool)."""
        peers = set(self.peers(R).tolist())
        return len(peers if voters is None else peers & set(voters))

    def with_voters(self, extra: object) -> Instance:
        """This instance with more voters appended to the pool (``extra``: voters x rounds)."""
        return Instance(self.m, self.likes, np.vstack([self.votes, _vote_matrix(extra, self.m, self.T)]))

    def votes_at(self, t: int, prefixes: np.ndarray) -> np.ndarray:
        """Votes in round t for a batch of prefixes (runs x t): runs x voters (a broadcast view; the prefixes
        are ignored: the adversary is oblivious)."""
        return np.broadcast_to(self.votes[:, t], (prefixes.shape[0], self.n_voters))

    def likes_at(self, t: int, prefixes: np.ndarray) -> np.ndarray:
        """Likes in round t for a batch of prefixes: runs x m bools."""
        return np.broadcast_to(self.like_matrix[t], (prefixes.shape[0], self.m))

    def losses(self, sequences: np.ndarray) -> np.ndarray:
        """Total loss of each recommendation sequence (..., T): the rounds whose b_t the client dislikes."""
        sequences = np.asarray(sequences)
        if sequences.shape[-1] != self.T or sequences.min(initial=0) < 0 or sequences.max(initial=0) >= self.m:
            raise InvalidParameterError(f"sequences must have {self.T} rounds of objects in [0, {self.m - 1}]")
        return sequence_losses(self.like_matrix, sequences).sum(axis=-1)

    def describe(self) -> str:
        """A short summary: m, T, pool size and D_C."""
        return f"Instance(m={self.m}, T={self.T}, voters={self.n_voters}, D_C={self.diversity})"

    def __repr__(self) -> str:
        return self.describe()


@dataclass(frozen=True, eq=False)
class AdaptiveInstance:
    """An adaptive adversary: round t's votes and likes are deterministic functions of the prefix b_<t.

    Attributes:
        m: objects per round.
        T: number of rounds.
        n_voters: size of the voter pool.
        vote_rule: (t, prefix) -> the pool's n_voters votes in round t.
        like_rule: (t, prefix) -> the non-empty set of objects the client likes in round t.

    Two patterns of one adaptive instance are adjacent when they differ by one voter: every common voter
    uses the same vote rule in both executions (spec 1.5, adaptive reading).

    References: 001_8845c8f909738498.txt, Section 2.3 (adaptive adversary), Theorems 11 and 17.
    """

    m: int
    T: int
    n_voters: int
    vote_rule: Callable[[int, tuple[int, ...]], Sequence[int]]
    like_rule: Callable[[int, tuple[int, ...]], object]

    def __post_init__(self) -> None:
        object.__setattr__(self, "m", require_int("m", self.m, minimum=2))
        object.__setattr__(self, "T", require_int("T", self.T, minimum=1))
        object.__setattr__(self, "n_voters", require_int("n_voters", self.n_voters, minimum=0))
        for name in ("vote_rule", "like_rule"):
            if not callable(getattr(self, name)):
                raise InvalidParameterError(f"{name} must be a function of (t, prefix)")

    def round_votes(self, t: int, prefix: tuple[int, ...]) -> np.ndarray:
        """The pool's votes in round t after the recommendations ``prefix``."""
        votes = _vote_matrix(np.asarray(self.vote_rule(t, tuple(prefix))).reshape(1, -1), self.m, None)[0]
        if votes.shape[0] != self.n_voters:
            raise InvalidParameterError(f"vote_rule must return {self.n_voters} votes. Got {votes.shape[0]}")
        return votes

    def round_likes(self, t: int, prefix: tuple[int, ...]) -> frozenset[int]:
        """The client's likes in round t after ``prefix``."""
        return _like_set(t, self.like_rule(t, tuple(prefix)), self.m)

    def votes_at(self, t: int, prefixes: np.ndarray) -> np.ndarray:
        """Votes in round t for a batch of prefixes (runs x t): runs x voters."""
        return np.stack([self.round_votes(t, tuple(p)) for p in prefixes.tolist()]).reshape(len(prefixes), -1)

    def likes_at(self, t: int, prefixes: np.ndarray) -> np.ndarray:
        """Likes in round t for a batch of prefixes: runs x m bools."""
        rows = np.zeros((prefixes.shape[0], self.m), dtype=bool)
        for r, p in enumerate(prefixes.tolist()):
            rows[r, sorted(self.round_likes(t, tuple(p)))] = True
        return rows

    def describe(self) -> str:
        """A short summary."""
        return f"AdaptiveInstance(m={self.m}, T={self.T}, voters={self.n_voters})"

    def __repr__(self) -> str:
        return self.describe()
