"""Multi-MaxSense (Fig. 3): Q disjoint sensing blocks per user, each bit released at eps/Q.

References: 000_0c6e7fdc3fd68303.txt, Theorem 16 and Fig. 3; spec Section 9, E3 and E12.
"""

from __future__ import annotations

import time

import numpy as np
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive
from dpcert.mechanisms.price_of_privacy._userdata import bit_release_probabilities
from dpcert.mechanisms.price_of_privacy.analysis import multimaxsense_queries
from dpcert.mechanisms.price_of_privacy.blockmodel import (
    BlockModel,
    UserRatings,
    as_generator,
    distinct_uniform_items,
)
from dpcert.mechanisms.price_of_privacy.clustering import (
    ClusteringResult,
    Progress,
    kmeans_1d,
    make_result,
)

__all__ = ["block_sensed_bits", "multi_maxsense_parameters", "multi_maxsense_scores", "simulate_multi_maxsense"]

_CELLS_PER_BATCH = 2_000_000


def multi_maxsense_parameters(model: BlockModel, eps: object, *, Q: int | None = None,
                              block_size: int | None = None) -> tuple[sympy.Expr, int, int]:
    """Validated (eps, Q, block size): Q = ceil(eps) and block size N // w by default; Q * block size <= N.

    The paper's blocks have N/w items (sensing probability p = 1/w; MaxSense used theta/w). The block
    size is a parameter here (spec E12).
    """
    if not isinstance(model, BlockModel):
        raise InvalidParameterError(f"model must be a BlockModel. Got {type(model).__name__}")
    eps = require_positive("eps", eps)
    Q = multimaxsense_queries(eps) if Q is None else require_int("Q", Q, minimum=1)
    block_size = max(1, model.N // model.w) if block_size is None else require_int("block_size", block_size, minimum=1)
    if Q * block_size > model.N:
        raise InvalidParameterError(f"Q * block_size must be <= N = {model.N} (disjoint blocks). "
                                    f"Got Q = {Q}, block_size = {block_size}")
    return eps, Q, block_size


def block_sensed_bits(ratings: UserRatings, blocks: np.ndarray, Q: int, block_size: int, N: int) -> np.ndarray:
    """(users, Q) bool: S0_(u,q) = 1{user u rated some item of its block q positively}.

    ``blocks`` is (users, Q * block_size): row u lists user u's Q blocks one after the other.
    """
    n = ratings.users
    s0 = np.zeros((n, Q), dtype=bool)
    if n == 0:
        return s0
    order = np.argsort(blocks, axis=1)
    ordered = np.take_along_axis(blocks, order, axis=1).astype(np.int64)
    offsets = np.arange(n, dtype=np.int64)[:, None] * (N + 1)
    keys = (ordered + offsets).ravel()
    positive = ratings.valid & ratings.ratings
    query = np.where(positive, ratings.items, N).astype(np.int64) + offsets
    found = np.minimum(np.searchsorted(keys, query.ravel()), keys.size - 1).reshape(query.shape)
    hit = (keys[found] == query) & positive
    rows, cols = np.nonzero(hit)
    sorted_index = found[rows, cols] - rows * blocks.shape[1]  # position within the row's sorted blocks
    column_in_row = order[rows, sorted_index]
    s0[rows, column_in_row // block_size] = True
    return s0


def multi_maxsense_scores(model: BlockModel, item_clusters: np.ndarray, U: int, eps: object, *,
                          Q: int | None = None, block_size: int | None = None, rng: np.random.Generator | int,
                          batch_size: int | None = None, progress: Progress | None = None) -> np.ndarray:
    """Scores B_i = sum_u sum_q H_(u,q)i S_(u,q) of U users of ``model`` (an (N,) int64 array).

    Each user gets Q disjoint uniformly random blocks of ``block_size`` items (a uniform random
    sequence of Q * block_size distinct items, cut into blocks), computes S0_(u,q) as MaxSense does for
    each block and releases each with an independent (eps/Q)-DP bit release.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 16 (Fig. 3).
    """
    eps, Q, block_size = multi_maxsense_parameters(model, eps, Q=Q, block_size=block_size)
    U = require_int("U", U, minimum=1)
    rng = as_generator(rng)
    N = model.N
    keep = float(bit_release_probabilities(eps / Q)[0])
    user_classes = model.user_classes(U, rng)
    width = Q * block_size
    if batch_size is None:
        batch_size = int(max(1, min(model.default_batch_size(), _CELLS_PER_BATCH // (N if 2 * width > N else width))))
    scores = np.zeros(N, dtype=np.int64)
    for part, batch in model.user_batches(user_classes, item_clusters, rng, batch_size):
        blocks = distinct_uniform_items(np.full(batch.users, width), N, rng, width=width)
        s0 = block_sensed_bits(batch, blocks, Q, block_size, N)
        released = np.where(rng.random(s0.shape) < keep, s0, ~s0)
        on = np.repeat(released, block_size, axis=1)
        scores += np.bincount(blocks[on], minlength=N)
        if progress is not None:
            progress(part.stop, U)
    return scores


def simulate_multi_maxsense(model: BlockModel, U: int, eps: object, *, Q: int | None = None,
                            block_size: int | None = None, rng: np.random.Generator | int,
                            batch_size: int | None = None, progress: Progress | None = None) -> ClusteringResult:
    """Run Multi-MaxSense end to end on U users of ``model`` and score the recovered item clusters.

    Args:
        model: the blockmodel.
        U: number of users.
        eps: each user's total privacy parameter (eps-LDP by composition of Q (eps/Q)-DP bits).
        Q: queries per user (default ceil(eps), Theorem 16).
        block_size: items per sensing block (default N // w, the paper's N p with p = 1/w).
        rng: a numpy Generator or an integer seed.
        batch_size: users per batch.
        progress: called as progress(users done, U) after each batch.

    Returns:
        ClusteringResult with ``scores`` = B, labels from 1-D k-means with k = L.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 16 (Fig. 3).
    """
    start = time.perf_counter()
    rng = as_generator(rng)
    multi_maxsense_parameters(model, eps, Q=Q, block_size=block_size)
    item_clusters = model.item_clusters(rng)
    scores = multi_maxsense_scores(model, item_clusters, U, eps, Q=Q, block_size=block_size, rng=rng,
                                   batch_size=batch_size, progress=progress)
    labels = kmeans_1d(scores, model.L, rng)
    return make_result("multi-maxsense", labels, item_clusters, time.perf_counter() - start, U, scores=scores)
