"""Seeded generators of the paper's instance families.

- :func:`planted_instance`: a client with diversity D_C = D and P planted peers (distance <= R) among
  arbitrary other voters, the admissible instances of the upper bounds (spec 1.6: plant the peers among
  the common voters, let the extra voter be arbitrary);
- :func:`lemma_8_chain`: the chain of 2P + 1 voting patterns of Lemma 8 / Claim 1 (Theorem 7);
- :func:`diversity_chain`: Section 8.1's example behind Theorem 15: P copies of a peer who vote one way
  in V_1 and the other in V_2 in the D rounds where the client likes both objects;
- :func:`theorem_6_instance`: Theorem 6's client who likes a uniformly random object in the first R rounds;
- :func:`adaptive_instance`: an adaptive adversary whose likes and votes depend on the recommendations so far.

The random ones draw from an explicit ``numpy.random.Generator``; the constructions are deterministic.

References: 001_8845c8f909738498.txt, Lemma 8, Theorems 6, 7 and 15 (Section 8.1);
specs/gilbert_online_recommendation.md, sections 1.6 and 3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpcert.mechanisms.online_recommendation.algorithms import PREC, PRECSim
from dpcert.mechanisms.online_recommendation.likelihood import PRECTranscript
from dpcert.mechanisms.online_recommendation.model import AdaptiveInstance, Instance, Profile
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = [
    "VotingChain",
    "adaptive_instance",
    "diversity_chain",
    "lemma_8_chain",
    "planted_instance",
    "planted_pair",
    "theorem_6_instance",
]


def _generator(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    return rng


def planted_instance(m: int, T: int, *, P: int, D: int = 0, R: int = 0, others: int = 0, hostile: bool = False,
                     rng: np.random.Generator) -> Instance:
    """A client with exactly D multi-like rounds, P peers (pool voters 0..P-1) and ``others`` other voters.

    The client likes 2..m objects in D random rounds and one random object in the others. Each peer votes
    for a random liked object every round, then switches to a random disliked object in up to R rounds
    (a uniform number in 0..R of the rounds that have a disliked object), so its distance is <= R. Other
    voters vote uniformly at random, or with ``hostile`` always for a random disliked object (where there
    is one).

    References: 001_8845c8f909738498.txt, Section 2.4 (peers, diversity), Table 1.
    """
    rng = _generator(rng)
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    P = require_int("P", P, minimum=0)
    D = require_int("D", D, minimum=0, maximum=T)
    R = require_int("R", R, minimum=0, maximum=T)
    others = require_int("others", others, minimum=0)
    sizes = np.ones(T, dtype=np.int64)
    sizes[rng.choice(T, size=D, replace=False)] = rng.integers(2, m + 1, size=D)
    like_matrix = np.zeros((T, m), dtype=bool)
    for t in range(T):
        like_matrix[t, rng.choice(m, size=sizes[t], replace=False)] = True
    peers = _random_choices(like_matrix, P, rng)
    open_rounds = np.flatnonzero(~like_matrix.all(axis=1))
    disliked = _random_choices(~like_matrix | like_matrix.all(axis=1, keepdims=True), P, rng)
    for i in range(P):
        k = int(rng.integers(0, min(R, open_rounds.size) + 1))
        switched = rng.choice(open_rounds, size=k, replace=False)
        peers[i, switched] = disliked[i, switched]
    if hostile:
        rest = _random_choices(~like_matrix | like_matrix.all(axis=1, keepdims=True), others, rng)
    else:
        rest = rng.integers(0, m, size=(others, T))
    likes = tuple(frozenset(np.flatnonzero(row).tolist()) for row in like_matrix)
    return Instance(m, likes, np.vstack([peers, rest]).reshape(P + others, T))


def planted_pair(algorithm: PREC | PRECSim, *, P: int, others: int = 0, hostile: bool = False,
                 rng: np.random.Generator) -> PRECTranscript:
    """An admissible adjacent pair for ``algorithm``'s (m, T, D, R): U' = a :func:`planted_instance` with P
    peers and ``others`` other voters, U = U' plus one extra voter with uniformly random votes (spec 1.6).

    References: 001_8845c8f909738498.txt, Definition 1, Theorems 11 and 17.
    """
    if not isinstance(algorithm, (PREC, PRECSim)):
        raise InvalidParameterError(f"algorithm must be PREC or PRECSim. Got {type(algorithm).__name__}")
    rng = _generator(rng)
    p = algorithm.params
    instance = planted_instance(p.m, p.T, P=P, D=p.D, R=p.R, others=others, hostile=hostile, rng=rng)
    extra = instance.n_voters
    instance = instance.with_voters(rng.integers(0, p.m, size=(1, p.T)))
    return PRECTranscript.adjacent_pair(algorithm, instance, range(extra), extra)


def adaptive_instance(m: int, T: int, *, P: int, D: int = 0, followers: int = 0) -> AdaptiveInstance:
    """An adaptive adversary (spec T14): pool voters 0..P-1 are peers, then ``followers``, then one extra voter.

    In rounds t < D the client likes objects {0, 1}; afterwards the single object (sum(b_<t) + t) mod m. Peer i
    votes for liked object number i mod (number liked); followers vote for the object recommended in the
    previous round (object 1 in round 0); the extra voter (the last pool voter) votes (first liked + 1) mod m.
    On every path D_C = min(D, T) and the P peers are at distance 0.

    References: 001_8845c8f909738498.txt, Section 2.3 (adaptive adversary), Theorems 11 and 17.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    P = require_int("P", P, minimum=0)
    D = require_int("D", D, minimum=0, maximum=T)
    followers = require_int("followers", followers, minimum=0)

    def likes(t: int, prefix: tuple[int, ...]) -> set[int]:
        return {0, 1} if t < D else {(sum(prefix) + t) % m}

    def votes(t: int, prefix: tuple[int, ...]) -> list[int]:
        liked = sorted(likes(t, prefix))
        return ([liked[i % len(liked)] for i in range(P)] + [prefix[-1] if prefix else 1] * followers
                + [(liked[0] + 1) % m])

    return AdaptiveInstance(m, T, P + followers + 1, votes, likes)


def _random_choices(allowed: np.ndarray, voters: int, rng: np.random.Generator) -> np.ndarray:
    """voters x T: per voter and round, a uniformly random object j with allowed[t, j] (vectorised)."""
    T, m = allowed.shape
    keys = np.where(allowed[None, :, :], rng.random((voters, T, m)), -1.0)
    return keys.argmax(axis=2)


def theorem_6_instance(m: int, T: int, *, P: int, R: int, rng: np.random.Generator) -> Instance:
    """Theorem 6's R-part construction: in rounds 0..R-1 the client likes one uniformly random object,
    afterwards object 0; P voters always vote for object 0 (so they are peers: distance <= R).

    Any algorithm has expected loss (1 - 1/m) in each of the first R rounds over the random client.

    References: 001_8845c8f909738498.txt, Theorem 6 (Section 6).
    """
    rng = _generator(rng)
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    P = require_int("P", P, minimum=1)
    R = require_int("R", R, minimum=0, maximum=T)
    liked = np.concatenate([rng.integers(0, m, size=R), np.zeros(T - R, dtype=np.int64)])
    return Instance(m, tuple(frozenset({int(j)}) for j in liked), np.zeros((P, T), dtype=np.int64))


@dataclass(frozen=True, eq=False)
class VotingChain:
    """Clients with a pool of voters and a chain of voting patterns, consecutive ones adjacent.

    Attributes:
        instances: the clients (sharing one pool of votes).
        profiles: the patterns, chain order; consecutive patterns of the same client are adjacent.
        endpoints: the two end patterns.
        P: number of peers each end pattern has.
    """

    instances: tuple[Instance, ...]
    profiles: tuple[Profile, ...]
    endpoints: tuple[Profile, Profile]
    P: int


def lemma_8_chain(T: int, P: int, *, t: int = 0) -> VotingChain:
    """Lemma 8's chain V_A^(1), ..., V_A^(P), V, V_B^(P), ..., V_B^(1) for the split round ``t`` (m = 2).

    Alice likes object 0 in every round; Bob likes object 1 in round t and object 0 elsewhere. Pool
    voters 0..P-1 (Alice's peers) vote 0 in round t, voters P..2P-1 (Bob's peers) vote 1; in every other
    round everybody votes the common liked object 0. V_A^(k) = Alice's peers + k of Bob's; the middle
    V appears once with each client. Claim 1: max(p_A, p_B) >= (1/2) e^{-P eps} for any eps-DP algorithm,
    where p_A = Pr[b_t = 1] on (Alice, V_A^(1)) and p_B = Pr[b_t = 0] on (Bob, V_B^(1)).

    References: 001_8845c8f909738498.txt, Lemma 8 and Claim 1 (Section 7.1).
    """
    T = require_int("T", T, minimum=1)
    P = require_int("P", P, minimum=1)
    t = require_int("t", t, minimum=0, maximum=T - 1)
    votes = np.zeros((2 * P, T), dtype=np.int64)
    votes[P:, t] = 1
    alice_likes = tuple(frozenset({0}) for _ in range(T))
    bob_likes = tuple(frozenset({1 if s == t else 0}) for s in range(T))
    alice, bob = frozenset(range(P)), frozenset(range(P, 2 * P))
    chain_a = [Profile(0, alice | frozenset(range(P, P + k))) for k in range(P + 1)]
    chain_b = [Profile(1, bob | frozenset(range(k))) for k in range(P, -1, -1)]
    return VotingChain((Instance(2, alice_likes, votes), Instance(2, bob_likes, votes)),
                       tuple(chain_a + chain_b), (chain_a[0], chain_b[-1]), P)


def diversity_chain(T: int, D: int, P: int) -> VotingChain:
    """Section 8.1's example behind Theorem 15: V_1 and V_2 with P peers each, 2P-step adjacent (m = 2).

    The client likes both objects in rounds 0..D-1 and object 0 afterwards. In V_1 the P peers (pool
    voters 0..P-1) vote 0 in every round; in V_2 the P peers (voters P..2P-1) vote 1 in rounds 0..D-1 and
    0 afterwards. Both sets are peers at distance 0. The chain adds V_2's voters one by one to V_1, then
    removes V_1's voters, so every pattern has >= P peers (spec A9).

    References: 001_8845c8f909738498.txt, Section 8.1 (illustrative example) and Theorem 15.
    """
    T = require_int("T", T, minimum=1)
    D = require_int("D", D, minimum=0, maximum=T)
    P = require_int("P", P, minimum=1)
    votes = np.zeros((2 * P, T), dtype=np.int64)
    votes[P:, :D] = 1
    likes = tuple(frozenset({0, 1}) if s < D else frozenset({0}) for s in range(T))
    first, second = frozenset(range(P)), frozenset(range(P, 2 * P))
    adding = [Profile(0, first | frozenset(range(P, P + k))) for k in range(P + 1)]
    removing = [Profile(0, second | frozenset(range(k, P))) for k in range(1, P + 1)]
    profiles = tuple(adding + removing)
    return VotingChain((Instance(2, likes, votes),), profiles, (profiles[0], profiles[-1]), P)
