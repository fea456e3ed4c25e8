"""User data x = (W, R) of the blockmodel and the eps-DP bit release, shared by the recommender sketches.

A user's data is a pair ``(W, R)``: ``W`` is the strictly increasing tuple of the w items the user
rated (a w-subset of [N] = {0, ..., N-1}) and ``R`` the tuple of the w ratings in {0, 1}, aligned
with ``W``. Unrated items count as rating 0 (R_hat_ui = R_ui if i in W, else 0).

References: 000_0c6e7fdc3fd68303.txt, Section 2.1 (model) and Proposition 4 (bit release).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator
from functools import lru_cache

import numpy as np
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = [
    "MAX_CHANNEL_CELLS",
    "MAX_ENUMERATED_INPUTS",
    "UserData",
    "bit_release_probabilities",
    "enumerate_user_data",
    "input_count",
    "require_enumerable",
    "validate_user_data",
]

UserData = tuple[tuple[int, ...], tuple[int, ...]]
"""``(W, R)``: the rated items (strictly increasing) and their ratings (0 or 1), both of length w."""

MAX_ENUMERATED_INPUTS = 20_000
"""The largest input space C(N, w) * 2^w that ``inputs()`` enumerates (the exact checker visits every input)."""

MAX_CHANNEL_CELLS = 2_000_000
"""The largest number of (input, output) cells an enumerated channel may have."""


def input_count(N: int, w: int) -> int:
    """|[N]_w x {0,1}^w| = C(N, w) * 2^w."""
    return math.comb(N, w) * 2**w


def require_enumerable(name: str, N: int, w: int, *, outputs: int = 2) -> None:
    """Raise unless the input space and the channel are small enough to enumerate exactly."""
    size = input_count(N, w)
    if size > MAX_ENUMERATED_INPUTS:
        raise InvalidParameterError(
            f"N and w must satisfy C(N, w) * 2^w <= {MAX_ENUMERATED_INPUTS} to enumerate the inputs of {name}. "
            f"Got N={N}, w={w}: C({N}, {w}) * 2^{w} = {size}; choose smaller N or w (pmf and sample work at any size)")
    if size * outputs > MAX_CHANNEL_CELLS:
        raise InvalidParameterError(
            f"the channel of {name} must have at most {MAX_CHANNEL_CELLS} (input, output) cells. "
            f"Got {size} inputs x {outputs} outputs; choose smaller N, w or fewer outputs")


def enumerate_user_data(N: int, w: int) -> Iterator[UserData]:
    """Every (W, R) in [N]_w x {0,1}^w, W in lexicographic order, then R."""
    ratings = list(itertools.product((0, 1), repeat=w))
    for items in itertools.combinations(range(N), w):
        for r in ratings:
            yield items, r


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def validate_user_data(x: Hashable, N: int, w: int) -> UserData:
    """Check that ``x`` is a user's data (W, R) for N items and w ratings; return it as plain int tuples."""
    if not (isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], tuple) and isinstance(x[1], tuple)):
        raise InvalidParameterError(
            f"x must be user data (W, R): a tuple of {w} increasing items in [0, {N - 1}] and a tuple of {w} "
            f"ratings in {{0, 1}}. Got {x!r}")
    items, ratings = x
    if len(items) != w or len(ratings) != w:
        raise InvalidParameterError(f"x must rate exactly w = {w} items. Got {len(items)} items and "
                                    f"{len(ratings)} ratings in {x!r}")
    if not all(_is_int(i) and 0 <= i < N for i in items):
        raise InvalidParameterError(f"x's items must be integers in [0, {N - 1}]. Got {items!r}")
    if any(a >= b for a, b in zip(items, items[1:])):
        raise InvalidParameterError(f"x's items must be distinct and in increasing order. Got {items!r}")
    if not all(_is_int(r) and r in (0, 1) for r in ratings):
        raise InvalidParameterError(f"x's ratings must be 0 or 1. Got {ratings!r}")
    return tuple(int(i) for i in items), tuple(int(r) for r in ratings)


@lru_cache(maxsize=256)
def bit_release_probabilities(eps: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """(keep, flip) = (e^eps / (1 + e^eps), 1 / (1 + e^eps)): the eps-DP bit release of Proposition 4.

    References: 000_0c6e7fdc3fd68303.txt, Proposition 4.
    """
    t = sympy.exp(eps)
    return sympy.cancel(t / (1 + t)), sympy.cancel(1 / (1 + t))
