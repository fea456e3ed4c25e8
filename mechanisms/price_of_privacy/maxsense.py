"""MaxSense (Fig. 2): one sensing bit per user, scores B_i = sum_u H_ui S_u, 1-D k-means.

The simulation streams users in batches and never builds a users x items matrix, so N = 10^4 items,
U = 10^6 users and w = 20 run end to end in seconds (see benchmarks/bench_maxsense.py).

References: 000_0c6e7fdc3fd68303.txt, Theorem 15 and Fig. 2.
"""

from __future__ import annotations

import math
import time

import numpy as np
import sympy

from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    exact_sign,
    require_int,
    require_positive,
)
from dpcert.mechanisms.price_of_privacy._userdata import bit_release_probabilities
from dpcert.mechanisms.price_of_privacy.blockmodel import BlockModel, UserRatings, as_generator
from dpcert.mechanisms.price_of_privacy.clustering import (
    ClusteringResult,
    Progress,
    kmeans_1d,
    make_result,
)

__all__ = [
    "SENSING_METHODS",
    "bernoulli_positions",
    "maxsense_bits",
    "maxsense_scores",
    "sensed_rated_items",
    "simulate_maxsense",
]

SENSING_METHODS = ("explicit", "collapsed")

_CELLS_PER_BATCH = 4_000_000
"""Target number of sensing entries held at once (about 100 MB of temporaries)."""


def bernoulli_positions(n: int, N: int, p: float, rng: np.random.Generator) -> np.ndarray:
    """n independent Bernoulli(p) subsets of [N], as sorted positions padded with N (an (n, width) int64 array).

    Built from i.i.d. Geometric(p) gaps (floor(E / -log(1 - p)) + 1 with E standard exponential):
    position j is in the set with probability p, independently, and only the ~N p members are drawn.
    """
    if n == 0:
        return np.zeros((0, 0), dtype=np.int64)
    if p >= 1.0:
        return np.tile(np.arange(N, dtype=np.int64), (n, 1))
    mean = N * p
    width = int(math.ceil(mean + 7.0 * math.sqrt(mean * (1.0 - p)) + 8.0))
    rate = -math.log1p(-p)
    gaps = (rng.standard_exponential((n, width)) / rate).astype(np.int64) + 1
    positions = np.cumsum(gaps, axis=1) - 1
    short = np.nonzero(positions[:, -1] < N)[0]  # rows whose set may continue past the drawn width
    while short.size:
        more = (rng.standard_exponential((short.size, width)) / rate).astype(np.int64) + 1
        extra = np.full((n, width), N, dtype=np.int64)
        extra[short] = positions[short, -1:] + np.cumsum(more, axis=1)
        positions = np.concatenate([positions, extra], axis=1)
        short = short[positions[short, -1] < N]
    return np.minimum(positions, N)


def sensed_rated_items(ratings: UserRatings, positions: np.ndarray, N: int) -> np.ndarray:
    """(users, width) bool: whether each rated item is in its user's sensing set (rows of ``positions``)."""
    n = ratings.users
    if n == 0 or positions.shape[1] == 0:
        return np.zeros(ratings.items.shape, dtype=bool)
    offsets = np.arange(n, dtype=np.int64)[:, None] * (N + 1)
    keys = (positions + offsets).ravel()  # rows sorted, padding N < next row's offset: globally sorted
    query = np.where(ratings.valid, ratings.items, N).astype(np.int64) + offsets
    found = np.searchsorted(keys, query.ravel()).reshape(query.shape)
    found = np.minimum(found, keys.size - 1)
    return (keys[found] == query) & ratings.valid


def maxsense_bits(ratings: UserRatings, sensed: np.ndarray, keep: float, rng: np.random.Generator) -> np.ndarray:
    """Released bits S_u = BitRelease(S0_u), S0_u = 1{some sensed item rated positively} (bool array)."""
    s0 = (sensed & ratings.ratings).any(axis=1)
    return np.where(rng.random(s0.size) < keep, s0, ~s0)


def _validate(model: BlockModel, U: int, eps: object, theta: object,
              sensing: str) -> tuple[int, sympy.Expr, sympy.Expr]:
    if not isinstance(model, BlockModel):
        raise InvalidParameterError(f"model must be a BlockModel. Got {type(model).__name__}")
    U = require_int("U", U, minimum=1)
    eps = require_positive("eps", eps)
    theta = require_positive("theta", theta)
    if exact_sign(theta - model.w) > 0:
        raise InvalidParameterError(f"theta must be in (0, w] = (0, {model.w}] (sensing probability theta/w). "
                                    f"Got {theta}")
    if sensing not in SENSING_METHODS:
        raise InvalidParameterError(f"sensing must be one of {', '.join(SENSING_METHODS)}. Got {sensing!r}")
    return U, eps, theta


def maxsense_scores(model: BlockModel, item_clusters: np.ndarray, U: int, eps: object, *, theta: object = 1,
                    rng: np.random.Generator | int, sensing: str = "explicit", batch_size: int | None = None,
                    progress: Progress | None = None) -> np.ndarray:
    """The scores B_i = sum_u H_ui S_u of U users drawn from ``model`` (an (N,) int64 array).

    Each user u: H_ui ~ Bernoulli(theta/w) i.i.d. over items (public, independent of the data),
    S0_u = max_i H_ui R_hat_ui, S_u = BitRelease_eps(S0_u).

    ``sensing="explicit"`` draws every user's whole sensing set (about N theta/w items). ``"collapsed"``
    draws H only on the user's rated items (all S0 depends on) and then adds, for each item i, one
    Binomial(n1 - c_i, theta/w) draw, where n1 users released S = 1 and c_i of them rated i: the H_ui
    of unrated items are independent of everything else, so the scores have exactly the same joint
    law, at O(U w) cost.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (Fig. 2).
    """
    U, eps, theta = _validate(model, U, eps, theta, sensing)
    rng = as_generator(rng)
    N = model.N
    p = float(theta / model.w)
    keep = float(bit_release_probabilities(eps)[0])
    user_classes = model.user_classes(U, rng)
    if batch_size is None:
        width = N * p + 7 * math.sqrt(N * p) + 8 if sensing == "explicit" else model.w
        batch_size = int(max(1, min(model.default_batch_size(), _CELLS_PER_BATCH // max(1.0, width))))
    scores = np.zeros(N, dtype=np.int64)
    rated_by_ones = np.zeros(N, dtype=np.int64)
    ones = 0
    done = 0
    for part, batch in model.user_batches(user_classes, item_clusters, rng, batch_size):
        if sensing == "explicit":
            positions = bernoulli_positions(batch.users, N, p, rng)
            sensed = sensed_rated_items(batch, positions, N)
            released = maxsense_bits(batch, sensed, keep, rng)
            chosen = positions[released]
            scores += np.bincount(chosen[chosen < N], minlength=N)
        else:
            sensed = (rng.random(batch.items.shape) < p) & batch.valid
            released = maxsense_bits(batch, sensed, keep, rng)
            scores += np.bincount(batch.items[released][sensed[released]], minlength=N)
            rated_by_ones += np.bincount(batch.items[released][batch.valid[released]], minlength=N)
            ones += int(released.sum())
        done = part.stop
        if progress is not None:
            progress(done, U)
    if sensing == "collapsed":
        scores += rng.binomial(ones - rated_by_ones, p)
    return scores


def simulate_maxsense(model: BlockModel, U: int, eps: object, *, theta: object = 1, rng: np.random.Generator | int,
                      sensing: str = "explicit", batch_size: int | None = None,
                      progress: Progress | None = None) -> ClusteringResult:
    """Run MaxSense end to end on U users of ``model`` and score the recovered item clusters.

    Stage 1-2: every user releases S_u = BitRelease_eps(max_i H_ui R_hat_ui) with a fresh public sensing
    vector H_u, H_ui ~ Bernoulli(theta/w). Stage 3: B_i = sum_u H_ui S_u and 1-D k-means (k = L) on
    the B_i (exact 2-means for L = 2).

    Args:
        model: the blockmodel (its ``sampling`` decides uniform w-subsets or independent inclusion).
        U: number of users.
        eps: each user's privacy parameter (exact; eps-LDP by Theorem 15).
        theta: sensing constant, 0 < theta <= w (sensing probability theta/w).
        rng: a numpy Generator or an integer seed.
        sensing: "explicit" or "collapsed" (same law of the scores; see :func:`maxsense_scores`).
        batch_size: users per batch (default: about 4e6 sensing entries per batch).
        progress: called as progress(users done, U) after each batch.

    Returns:
        ClusteringResult with ``scores`` = B.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (Fig. 2).
    """
    start = time.perf_counter()
    rng = as_generator(rng)
    _validate(model, U, eps, theta, sensing)
    item_clusters = model.item_clusters(rng)
    scores = maxsense_scores(model, item_clusters, U, eps, theta=theta, rng=rng, sensing=sensing,
                             batch_size=batch_size, progress=progress)
    labels = kmeans_1d(scores, model.L, rng)
    return make_result("maxsense", labels, item_clusters, time.perf_counter() - start, U, scores=scores)
