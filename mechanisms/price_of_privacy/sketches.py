"""The user-side randomizers of the recommender systems, as finite mechanisms on one user's data.

Each sketch is conditioned on its PUBLIC query (a probed pair, a sensing vector, sensing blocks or a
membership set), which the algorithm draws independently of the data. Its input is the user's whole
private data x = (W, R) in [N]_w x {0,1}^w (see :mod:`dpcert.mechanisms.price_of_privacy._userdata`), and all
pairs of inputs are neighbours (local DP). The exact checker therefore verifies the LDP claim over
every pair x, x' of user data.

References: 000_0c6e7fdc3fd68303.txt, Proposition 4, Figures 1-3, Theorems 8, 10, 15 and 16.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, check_size
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive
from dpcert.mechanisms.price_of_privacy._userdata import (
    MAX_CHANNEL_CELLS,
    UserData,
    bit_release_probabilities,
    enumerate_user_data,
    require_enumerable,
    validate_user_data,
)

__all__ = [
    "MAX_ITEMS",
    "MAX_SENSING_BLOCKS",
    "PAIR_RULES",
    "MaxSenseSketch",
    "MembershipQuery",
    "MultiMaxSenseSketch",
    "PairwisePreferenceSketch",
    "RatedPairSketch",
    "RatedPairSketchPublicItems",
    "pair_preference_bit",
    "parse_bit_vector",
    "parse_item_blocks",
    "parse_item_pair",
    "parse_membership_set",
]

PAIR_RULES = ("both-rated-equal", "literal", "both-positive")
"""The three readings of Pairwise-Preference's S0 (spec M2, [AMBIG] E8): (a) Appendix B, (b) Fig. 1, (c) prose."""

MAX_ITEMS = 10**12
"""The largest item count N a sketch takes (the paper's largest catalogue, spec §4); the pmf of one input
works at any N, enumerating every input needs C(N, w) 2^w <= 20000."""

MAX_SENSING_BLOCKS = 12
"""The most sensing blocks Multi-MaxSense may have when its 2^Q outputs are enumerated."""


# ---------------------------------------------------------------------------------------------
# Parsing of the public queries (the command line passes strings)
# ---------------------------------------------------------------------------------------------

def _json_or_none(text: str) -> object | None:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def parse_bit_vector(text: str) -> tuple[int, ...]:
    """A 0/1 vector written as ``0110``, ``0,1,1,0`` or JSON ``[0, 1, 1, 0]``."""
    text = text.strip()
    loaded = _json_or_none(text)
    if isinstance(loaded, list):
        return tuple(loaded)
    parts = [p for p in text.replace(" ", ",").split(",") if p] if "," in text or " " in text else list(text)
    if not parts or not all(p in ("0", "1") for p in parts):
        raise InvalidParameterError(f"sensing must be a 0/1 vector such as 0110 or 0,1,1,0. Got {text!r}")
    return tuple(int(p) for p in parts)


def parse_item_pair(text: str) -> tuple[int, int]:
    """Two items written as ``0,1`` or JSON ``[0, 1]``."""
    loaded = _json_or_none(text.strip())
    parts = loaded if isinstance(loaded, list) else [p for p in text.replace(" ", ",").split(",") if p]
    try:
        items = tuple(int(p) for p in parts)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"pair must be two items such as 0,1. Got {text!r}") from None
    if len(items) != 2:
        raise InvalidParameterError(f"pair must be two items such as 0,1. Got {text!r}")
    return items  # type: ignore[return-value]


def _parse_item_list(text: str) -> tuple[int, ...]:
    loaded = _json_or_none(text.strip())
    parts = loaded if isinstance(loaded, list) else [p for p in text.replace(",", " ").split() if p]
    try:
        return tuple(int(p) for p in parts)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"items must be a list of items such as 0,1,2. Got {text!r}") from None


def parse_item_blocks(text: str) -> tuple[tuple[int, ...], ...]:
    """Disjoint item blocks written as JSON ``[[0, 1], [2, 3], []]`` or ``0 1|2 3|`` ('|' between blocks)."""
    loaded = _json_or_none(text.strip())
    if isinstance(loaded, list) and all(isinstance(b, list) for b in loaded):
        return tuple(tuple(b) for b in loaded)
    try:
        return tuple(tuple(int(i) for i in block.replace(",", " ").split()) for block in text.split("|"))
    except ValueError:
        raise InvalidParameterError(
            f"blocks must be a JSON list of item lists such as [[0,1],[2,3]] or 0 1|2 3. Got {text!r}") from None


def parse_membership_set(text: str) -> tuple[tuple[int, int], ...]:
    """A set of (item, cluster bit) pairs written as JSON ``[[0, 1], [3, 0]]``."""
    loaded = _json_or_none(text.strip())
    if not (isinstance(loaded, list) and all(isinstance(p, list) and len(p) == 2 for p in loaded)):
        raise InvalidParameterError(f"A must be a JSON list of [item, bit] pairs such as [[0,1],[3,0]]. Got {text!r}")
    return tuple(tuple(p) for p in loaded)  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# Shared validation
# ---------------------------------------------------------------------------------------------

def _require_items(name: str, items: object, N: int) -> tuple[int, ...]:
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise InvalidParameterError(f"{name} must be a sequence of items in [0, {N - 1}]. Got {items!r}")
    out = []
    for i in items:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < N:
            raise InvalidParameterError(f"{name} must hold items in [0, {N - 1}]. Got {i!r} in {items!r}")
        out.append(int(i))
    return tuple(out)


def _require_rule(rule: object) -> str:
    if rule not in PAIR_RULES:
        raise InvalidParameterError(f"rule must be one of {', '.join(PAIR_RULES)}. Got {rule!r}")
    return str(rule)


def pair_preference_bit(rule: str, rated_i: bool, rating_i: int, rated_j: bool, rating_j: int) -> int:
    """S0 of Pairwise-Preference for one user and the probed pair {i, j} (spec M2).

    - ``both-rated-equal`` (a): 1 iff both items are rated and the ratings are equal (Appendix B);
    - ``literal`` (b): 1 iff R_hat(i) = R_hat(j), unrated items counting as 0 (Fig. 1 as printed);
    - ``both-positive`` (c): 1 iff both items are rated positively (Section 3.2 prose).
    """
    if rule == "both-rated-equal":
        return int(rated_i and rated_j and rating_i == rating_j)
    if rule == "literal":
        return int((rating_i if rated_i else 0) == (rating_j if rated_j else 0))
    return int(rated_i and rated_j and rating_i == 1 and rating_j == 1)


def _released_bits(s0: int, keep: float, size: int, rng: np.random.Generator) -> np.ndarray:
    keep_draw = rng.random(size) < keep
    return np.where(keep_draw, s0, 1 - s0).astype(np.int64)


class _UserSketch(FiniteMechanism):
    """A one-bit (or few-bit) sketch of a user's data x = (W, R), released through eps-DP bit releases."""

    N: int
    w: int
    eps: sympy.Expr

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs("all pairs of user data (W, R): local DP")

    def _validate_common(self, *, min_w: int = 1) -> None:
        object.__setattr__(self, "N", require_int("N", self.N, minimum=2, maximum=MAX_ITEMS))
        object.__setattr__(self, "w", require_int("w", self.w, minimum=min_w, maximum=self.N, maximum_name="N"))
        object.__setattr__(self, "eps", require_positive("eps", self.eps))

    def _output_count(self) -> int:
        return 2

    def inputs(self) -> list[UserData]:
        """Every user data (W, R) in [N]_w x {0,1}^w (C(N, w) * 2^w <= 20000 of them)."""
        require_enumerable(self.name, self.N, self.w, outputs=self._output_count())
        return list(enumerate_user_data(self.N, self.w))

    def validate_input(self, x: Hashable) -> None:
        validate_user_data(x, self.N, self.w)

    @cached_property
    def _bit_release(self) -> tuple[sympy.Expr, sympy.Expr]:
        return bit_release_probabilities(self.eps)


# ---------------------------------------------------------------------------------------------
# Pairwise-Preference (Fig. 1)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PairwisePreferenceSketch(_UserSketch):
    """Pairwise-Preference's user sketch for a public probed pair {i, j} (Fig. 1, information-rich regime).

    S0 = 1{both rated and R(i) = R(j)} (rule (a); see :func:`pair_preference_bit` for (b) and (c)),
    and the released bit is S = BitRelease_eps(S0):
    P(S = S0 | x) = e^eps / (1 + e^eps), P(S = 1 - S0 | x) = 1 / (1 + e^eps).

    Why it is private: the pair is drawn independently of the data, and given it the output is an
    eps-DP bit release of a function of x, so every ratio is e^eps, 1 or e^-eps. The bound e^eps is
    attained when two inputs have different S0 (always for w >= 2; never for w = 1 under rules (a), (c)).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 8 (Fig. 1) and Proposition 4.
    """

    name: ClassVar[str] = "pairwise-preference-sketch"
    N: int
    w: int
    eps: sympy.Expr
    pair: tuple[int, int] = (0, 1)
    rule: str = "both-rated-equal"

    def __post_init__(self) -> None:
        self._validate_common()
        pair = parse_item_pair(self.pair) if isinstance(self.pair, str) else self.pair
        pair = _require_items("pair", pair, self.N)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise InvalidParameterError(f"pair must be two different items in [0, {self.N - 1}]. Got {self.pair!r}")
        object.__setattr__(self, "pair", tuple(sorted(pair)))
        object.__setattr__(self, "rule", _require_rule(self.rule))

    def outputs(self) -> tuple[int, int]:
        return (0, 1)

    def preference_bit(self, x: UserData) -> int:
        """S0(x) for the probed pair."""
        items, ratings = validate_user_data(x, self.N, self.w)
        rating = dict(zip(items, ratings))
        i, j = self.pair
        return pair_preference_bit(self.rule, i in rating, rating.get(i, 0), j in rating, rating.get(j, 0))

    def pmf(self, x: UserData) -> Mapping[int, sympy.Expr]:
        s0 = self.preference_bit(x)
        keep, flip = self._bit_release
        return {s0: keep, 1 - s0: flip}

    def sample(self, x: UserData, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` released bits (int64 array)."""
        size = check_size(size)
        return _released_bits(self.preference_bit(x), float(self._bit_release[0]), size, rng)

    @cached_property
    def tight_epsilon(self) -> sympy.Expr:
        """The derived exact max log-ratio: eps if S0 takes both values over [N]_w x {0,1}^w, else 0 (spec M2)."""
        varies = self.w >= 2 or self.rule == "literal"
        return self.eps if varies else sympy.Integer(0)


# ---------------------------------------------------------------------------------------------
# Pairwise-Preference variant (ii): the pair is drawn from the rated items
# ---------------------------------------------------------------------------------------------

class _RatedPair(_UserSketch):
    """Shared pmf and sampler of variant (ii): a uniform pair of the rated items and its released bit."""

    rule: str

    def _pair_bit(self, ri: int, rj: int) -> int:
        return pair_preference_bit(self.rule, True, ri, True, rj)

    def _rated_pair_pmf(self, items: tuple[int, ...],
                        ratings: tuple[int, ...]) -> dict[tuple[int, int, int], sympy.Expr]:
        weight = sympy.Rational(1, math.comb(len(items), 2))
        keep, flip = self._bit_release
        high, low = weight * keep, weight * flip
        pmf = {}
        for a, b in itertools.combinations(range(len(items)), 2):
            s0 = self._pair_bit(ratings[a], ratings[b])
            pmf[(items[a], items[b], s0)] = high
            pmf[(items[a], items[b], 1 - s0)] = low
        return pmf

    def _rated_pair_sample(self, items: tuple[int, ...], ratings: tuple[int, ...], size: int,
                           rng: np.random.Generator) -> np.ndarray:
        w = len(items)
        a = rng.integers(0, w, size)
        b = rng.integers(0, w - 1, size)
        b += b >= a
        first, second = np.minimum(a, b), np.maximum(a, b)
        item_array, rating_array = np.asarray(items, dtype=np.int64), np.asarray(ratings, dtype=np.int64)
        ri, rj = rating_array[first], rating_array[second]
        if self.rule == "both-positive":
            s0 = ri & rj
        else:  # both items are rated, so rules (a) and (b) agree: equal ratings
            s0 = (ri == rj).astype(np.int64)
        keep = rng.random(size) < float(self._bit_release[0])
        released = np.where(keep, s0, 1 - s0)
        return np.stack([item_array[first], item_array[second], released], axis=1)


@dataclass(frozen=True)
class RatedPairSketch(_RatedPair):
    """Pairwise-Preference variant (ii) with W private: the probed pair is two random RATED items.

    P_u = {i, j} is uniform over the C(w, 2) pairs inside W and the output is (i, j, S) with
    S = BitRelease_eps(S0(R_i, R_j)), i < j: P((i, j, s) | x) = [e^eps or 1] / (C(w, 2) (1 + e^eps)) if
    {i, j} is inside W, and 0 otherwise.

    NOT eps-LDP with respect to which items were rated: a pair outside W has probability 0 under x and
    positive probability under any x' that rated it, so the max ratio is infinite (whenever w < N). The
    paper restricts this variant to a public W (spec E9); see :class:`RatedPairSketchPublicItems`.

    References: 000_0c6e7fdc3fd68303.txt, Section 3.2 (variant (ii)) and Theorem 8.
    """

    name: ClassVar[str] = "rated-pair-sketch"
    N: int
    w: int
    eps: sympy.Expr
    rule: str = "both-rated-equal"

    def __post_init__(self) -> None:
        self._validate_common(min_w=2)
        object.__setattr__(self, "rule", _require_rule(self.rule))

    def _output_count(self) -> int:
        return self.N * (self.N - 1)

    def outputs(self) -> list[tuple[int, int, int]]:
        """(i, j, s) for every pair i < j of items and bit s."""
        return [(i, j, s) for i, j in itertools.combinations(range(self.N), 2) for s in (0, 1)]

    def pmf(self, x: UserData) -> Mapping[tuple[int, int, int], sympy.Expr]:
        items, ratings = validate_user_data(x, self.N, self.w)
        return self._rated_pair_pmf(items, ratings)

    def sample(self, x: UserData, size: int, rng: np.random.Generator) -> np.ndarray:
        """A (size, 3) int64 array of rows (i, j, s)."""
        size = check_size(size)
        items, ratings = validate_user_data(x, self.N, self.w)
        return self._rated_pair_sample(items, ratings, size, rng)

    @cached_property
    def tight_epsilon(self) -> sympy.Expr:
        """The derived exact max log-ratio: infinite when W can vary (w < N), else eps (spec M2 caveat)."""
        return sympy.oo if self.w < self.N else self.eps


@dataclass(frozen=True)
class RatedPairSketchPublicItems(_RatedPair):
    """Pairwise-Preference variant (ii) with the rated items W PUBLIC: the input is the ratings R only.

    For the fixed public W = ``items``, P_u = {i, j} is uniform over the C(w, 2) pairs of W and the
    output is (i, j, S) with S = BitRelease_eps(S0(R_i, R_j)).

    Why it is private: the pair's law does not depend on R, and given the pair the output is an eps-DP
    bit release of a function of R; so it is eps-DP with respect to R (tight: the ratings of a pair
    can be equal or not).

    References: 000_0c6e7fdc3fd68303.txt, Section 3.2 (variant (ii): only the ratings are private).
    """

    name: ClassVar[str] = "rated-pair-sketch-public-items"
    eps: sympy.Expr
    items: tuple[int, ...] = (0, 1)
    rule: str = "both-rated-equal"

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_positive("eps", self.eps))
        items = _parse_item_list(self.items) if isinstance(self.items, str) else self.items
        if isinstance(items, (bytes,)) or not isinstance(items, Sequence):
            raise InvalidParameterError(f"items must be a sequence of distinct items >= 0. Got {self.items!r}")
        for i in items:
            if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i < 0:
                raise InvalidParameterError(f"items must be integers >= 0. Got {i!r} in {self.items!r}")
        checked = tuple(int(i) for i in items)
        if len(set(checked)) != len(checked) or len(checked) < 2:
            raise InvalidParameterError(f"items must be at least 2 distinct items >= 0. Got {self.items!r}")
        object.__setattr__(self, "items", tuple(sorted(checked)))
        object.__setattr__(self, "rule", _require_rule(self.rule))

    @property
    def w(self) -> int:  # type: ignore[override]
        """The number of rated (public) items."""
        return len(self.items)

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs("all pairs of ratings R given the public rated items W: local DP on R")

    def inputs(self) -> list[tuple[int, ...]]:
        """Every rating vector R in {0,1}^w."""
        if 2**self.w * self.w * (self.w - 1) > MAX_CHANNEL_CELLS:  # 2^w inputs x w(w-1) outputs
            raise InvalidParameterError(f"items must list at most 13 items to enumerate the 2^w rating vectors. "
                                        f"Got {self.w}")
        return list(itertools.product((0, 1), repeat=self.w))

    def validate_input(self, x: Hashable) -> None:
        if not (isinstance(x, tuple) and len(x) == self.w and all(
                isinstance(r, (int, np.integer)) and not isinstance(r, bool) and r in (0, 1) for r in x)):
            raise InvalidParameterError(f"x must be a tuple of {self.w} ratings in {{0, 1}}. Got {x!r}")

    def outputs(self) -> list[tuple[int, int, int]]:
        """(i, j, s) for every pair i < j of the public items and bit s."""
        return [(i, j, s) for i, j in itertools.combinations(self.items, 2) for s in (0, 1)]

    def pmf(self, x: tuple[int, ...]) -> Mapping[tuple[int, int, int], sympy.Expr]:
        self.validate_input(x)
        return self._rated_pair_pmf(self.items, tuple(int(r) for r in x))

    def sample(self, x: tuple[int, ...], size: int, rng: np.random.Generator) -> np.ndarray:
        """A (size, 3) int64 array of rows (i, j, s)."""
        size = check_size(size)
        self.validate_input(x)
        return self._rated_pair_sample(self.items, tuple(int(r) for r in x), size, rng)

    @cached_property
    def tight_epsilon(self) -> sympy.Expr:
        """The derived exact max log-ratio with W public: eps (spec M2, claim 2)."""
        return self.eps


# ---------------------------------------------------------------------------------------------
# MaxSense (Fig. 2)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MaxSenseSketch(_UserSketch):
    """MaxSense's user sketch for a public sensing vector H in {0,1}^N (Fig. 2, information-scarce regime).

    S0 = max_i H_i R_hat_i = 1{the user rated some sensed item positively}, and S = BitRelease_eps(S0):
    P(S = 1 | x, H) = 1/(1 + e^eps) + ((e^eps - 1)/(1 + e^eps)) * S0(x).

    Why it is private: H is drawn independently of the data, and (W, R) -> S0 -> S is a Markov chain
    ending in an eps-DP bit release (post-processing). The max ratio is exactly e^eps when H != 0 (one
    user rates a sensed item positively, another rates nothing sensed positively) and 1 when H = 0.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (Fig. 2) and Proposition 4.
    """

    name: ClassVar[str] = "maxsense-sketch"
    N: int
    w: int
    eps: sympy.Expr
    sensing: tuple[int, ...]

    def __post_init__(self) -> None:
        self._validate_common()
        sensing = parse_bit_vector(self.sensing) if isinstance(self.sensing, str) else self.sensing
        if isinstance(sensing, (bytes,)) or not isinstance(sensing, Sequence):
            raise InvalidParameterError(f"sensing must be a 0/1 vector of length N = {self.N}. Got {self.sensing!r}")
        if len(sensing) != self.N or not all(
                isinstance(h, (int, np.integer)) and not isinstance(h, bool) and h in (0, 1) for h in sensing):
            raise InvalidParameterError(f"sensing must be a 0/1 vector of length N = {self.N}. Got {self.sensing!r}")
        object.__setattr__(self, "sensing", tuple(int(h) for h in sensing))

    def outputs(self) -> tuple[int, int]:
        return (0, 1)

    def sensed_bit(self, x: UserData) -> int:
        """S0(x) = 1 iff some sensed item was rated positively."""
        items, ratings = validate_user_data(x, self.N, self.w)
        return int(any(self.sensing[i] and r for i, r in zip(items, ratings)))

    def pmf(self, x: UserData) -> Mapping[int, sympy.Expr]:
        s0 = self.sensed_bit(x)
        keep, flip = self._bit_release
        return {s0: keep, 1 - s0: flip}

    def sample(self, x: UserData, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` released bits (int64 array)."""
        size = check_size(size)
        return _released_bits(self.sensed_bit(x), float(self._bit_release[0]), size, rng)

    @cached_property
    def tight_epsilon(self) -> sympy.Expr:
        """The derived exact max log-ratio: eps if H != 0, else 0 (spec M3, claim 3)."""
        return self.eps if any(self.sensing) else sympy.Integer(0)


# ---------------------------------------------------------------------------------------------
# Multi-MaxSense (Fig. 3)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MultiMaxSenseSketch(_UserSketch):
    """Multi-MaxSense's user sketch for Q public disjoint sensing blocks (Fig. 3).

    Block q gives S0_q = 1{the user rated some item of block q positively}, released with an
    independent (eps/Q)-DP bit release; the output is the Q released bits:
    P(s | x) = prod_q (e^(eps/Q) / (1 + e^(eps/Q)))^[s_q = S0_q(x)] (1 / (1 + e^(eps/Q)))^[s_q != S0_q(x)].

    Why it is private: composition of Q bit releases of budget eps/Q (Proposition 2). The exact max
    ratio is exp((eps/Q) max_{x,x'} d_H(S0(x), S0(x'))) = exp((eps/Q) min(Q', 2w)), Q' the number of
    non-empty blocks: x can light at most w blocks and x' at most w others (the blocks are disjoint).
    So the composition bound e^eps is attained iff Q' = Q <= 2w.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 16 (Fig. 3) and Proposition 2.
    """

    name: ClassVar[str] = "multi-maxsense-sketch"
    N: int
    w: int
    eps: sympy.Expr
    blocks: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        self._validate_common()
        blocks = parse_item_blocks(self.blocks) if isinstance(self.blocks, str) else self.blocks
        if isinstance(blocks, (bytes,)) or not isinstance(blocks, Sequence) or len(blocks) == 0:
            raise InvalidParameterError(f"blocks must be a non-empty sequence of item tuples. Got {self.blocks!r}")
        checked = tuple(tuple(sorted(_require_items(f"blocks[{q}]", b, self.N))) for q, b in enumerate(blocks))
        seen: set[int] = set()
        for q, block in enumerate(checked):
            repeated = (seen & set(block)) or {i for i in block if block.count(i) > 1}
            if repeated:
                raise InvalidParameterError(f"blocks must be disjoint sets of items. Got item(s) {sorted(repeated)} "
                                            f"repeated in blocks[{q}]")
            seen.update(block)
        object.__setattr__(self, "blocks", checked)

    @property
    def Q(self) -> int:
        """The number of sensing blocks (queries per user)."""
        return len(self.blocks)

    @property
    def nonempty_blocks(self) -> int:
        """Q', the number of non-empty sensing blocks."""
        return sum(1 for b in self.blocks if b)

    def _output_count(self) -> int:
        return 2**self.Q

    def outputs(self) -> list[tuple[int, ...]]:
        """Every Q-tuple of released bits (Q <= 12)."""
        if self.Q > MAX_SENSING_BLOCKS:
            raise InvalidParameterError(
                f"blocks must number at most {MAX_SENSING_BLOCKS} to enumerate the 2^Q outputs. Got Q = {self.Q}")
        return list(itertools.product((0, 1), repeat=self.Q))

    @cached_property
    def _block_of(self) -> dict[int, int]:
        return {i: q for q, block in enumerate(self.blocks) for i in block}

    def sensed_bits(self, x: UserData) -> tuple[int, ...]:
        """(S0_1(x), ..., S0_Q(x))."""
        items, ratings = validate_user_data(x, self.N, self.w)
        lit = {self._block_of[i] for i, r in zip(items, ratings) if r and i in self._block_of}
        return tuple(int(q in lit) for q in range(self.Q))

    @cached_property
    def _by_agreement(self) -> tuple[sympy.Expr, ...]:
        keep, flip = bit_release_probabilities(self.eps / self.Q)
        return tuple(keep**a * flip ** (self.Q - a) for a in range(self.Q + 1))

    def pmf(self, x: UserData) -> Mapping[tuple[int, ...], sympy.Expr]:
        s0 = self.sensed_bits(x)
        table = self._by_agreement
        return {y: table[sum(a == b for a, b in zip(y, s0))] for y in self.outputs()}

    def sample(self, x: UserData, size: int, rng: np.random.Generator) -> np.ndarray:
        """A (size, Q) int8 array of released bits."""
        size = check_size(size)
        s0 = np.asarray(self.sensed_bits(x), dtype=np.int8)
        keep = rng.random((size, self.Q)) < float(bit_release_probabilities(self.eps / self.Q)[0])
        return np.where(keep, s0, 1 - s0).astype(np.int8)

    @cached_property
    def tight_epsilon(self) -> sympy.Expr:
        """The derived exact max log-ratio (eps/Q) * min(Q', 2w) (spec M4, claim 4)."""
        return self.eps * sympy.Rational(min(self.nonempty_blocks, 2 * self.w), self.Q)


# ---------------------------------------------------------------------------------------------
# Theorem 10's non-private 1-bit membership query (w = 1)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MembershipQuery(_UserSketch):
    """The deterministic 1-bit query "is (I, Z) in A?" of Theorem 10's proof (w = 1, NOT private).

    The user holds one rated item I and its cluster bit Z, as x = ((I,), (Z,)); the answer is
    S = 1_A(I, Z) with probability 1.

    Not a privacy mechanism: for A neither empty nor all of [N] x {0,1}, some x answers 1 with
    probability 1 and some x' with probability 0, so no finite eps holds. It shows that a per-user
    1-bit constraint alone forces Omega(N^2) users (Theorem 10).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 10 (proof) and Section 4.2.
    """

    name: ClassVar[str] = "membership-query"
    N: int
    A: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "N", require_int("N", self.N, minimum=1, maximum=MAX_ITEMS))
        members = parse_membership_set(self.A) if isinstance(self.A, str) else self.A
        if isinstance(members, (bytes,)) or not isinstance(members, (Sequence, frozenset, set)):
            raise InvalidParameterError(f"A must be a set of (item, bit) pairs. Got {self.A!r}")
        checked = set()
        for pair in members:
            if not (isinstance(pair, Sequence) and len(pair) == 2 and all(
                    isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in pair)
                    and 0 <= pair[0] < self.N and pair[1] in (0, 1)):
                raise InvalidParameterError(
                    f"A must hold pairs (item in [0, {self.N - 1}], bit in {{0, 1}}). Got {pair!r}")
            checked.add((int(pair[0]), int(pair[1])))
        object.__setattr__(self, "A", tuple(sorted(checked)))

    @property
    def w(self) -> int:  # type: ignore[override]
        """Each user rated exactly one item."""
        return 1

    @property
    def eps(self) -> sympy.Expr:  # type: ignore[override]
        """No privacy budget: the answer is deterministic (reported as infinity)."""
        return sympy.oo

    def outputs(self) -> tuple[int, int]:
        return (0, 1)

    def answer(self, x: UserData) -> int:
        """1_A(I, Z)."""
        (i,), (z,) = validate_user_data(x, self.N, 1)
        return int((i, z) in set(self.A))

    def pmf(self, x: UserData) -> Mapping[int, sympy.Expr]:
        return {self.answer(x): sympy.Integer(1)}

    def sample(self, x: UserData, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` copies of the deterministic answer (int64 array; ``rng`` is not used)."""
        size = check_size(size)
        return np.full(size, self.answer(x), dtype=np.int64)

    @cached_property
    def tight_epsilon(self) -> sympy.Expr:
        """Infinite unless A is empty or all of [N] x {0,1} (then the answer is constant: 0)."""
        return sympy.oo if 0 < len(self.A) < 2 * self.N else sympy.Integer(0)
