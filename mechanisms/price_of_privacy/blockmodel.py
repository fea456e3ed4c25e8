"""The bipartite stochastic blockmodel of users, items and binary ratings, with a seeded sampler.

U users fall into K clusters (proportions alpha), N items into L clusters (proportions beta). A user
of cluster k rates an item of cluster l positively with probability b[k][l], independently. Each user
rates w items, drawn either as

- ``"subset"``: a uniform w-subset of the N items (the paper's model), or
- ``"independent"``: every item independently with probability w/N (the model of Theorem 15's
  analysis, under which the MaxSense mean-score formula is exact; spec E7).

Samples are memory-efficient: a user's rated items and ratings are rows of (users, width) arrays
(width = w under ``"subset"``), never a dense users x items matrix, so U = 10^6 users with w = 20 take
about 100 MB; :meth:`BlockModel.user_batches` streams them in chunks.

References: 000_0c6e7fdc3fd68303.txt, Section 2.1 (model), Sections 3.1 and 4 (lower-bound instance),
Theorem 15's proof (independent inclusion).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import sympy

from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    require_int,
    require_unit_interval,
    to_exact,
)

__all__ = [
    "ASSIGNMENTS",
    "SAMPLING_MODELS",
    "BlockModel",
    "RatingSample",
    "UserRatings",
    "as_generator",
    "cluster_sizes",
    "distinct_uniform_items",
]

SAMPLING_MODELS = ("subset", "independent")
_DENSE_CELLS = 1 << 22
"""Random sort keys held at once in the dense regime (rows needing more than N/8 items)."""
_BATCH_CELLS = 1 << 21
"""Default (users x rated items) cells per batch of :meth:`BlockModel.user_batches`."""
ASSIGNMENTS = ("exact", "iid")


def as_generator(rng: np.random.Generator | int) -> np.random.Generator:
    """``rng`` itself, or a new ``numpy.random.Generator`` seeded with the integer ``rng``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) and rng >= 0:
        return np.random.default_rng(int(rng))
    raise InvalidParameterError(f"rng must be a numpy.random.Generator or an integer seed >= 0. Got {rng!r}")


def _probability_vector(name: str, values: object) -> tuple[sympy.Expr, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) == 0:
        raise InvalidParameterError(f"{name} must be a non-empty sequence of probabilities summing to 1. "
                                    f"Got {values!r}")
    exact = tuple(require_unit_interval(f"{name}[{k}]", v, closed_right=True) for k, v in enumerate(values))
    total = sympy.Add(*exact)
    if sympy.simplify(total - 1) != 0:
        raise InvalidParameterError(f"{name} must sum to 1 exactly. Got sum {total}")
    return exact


def cluster_sizes(proportions: Sequence[object], n: int) -> np.ndarray:
    """Sizes n_k summing to n: floor(p_k n), plus one for the largest remainders (Hamilton's method), exactly."""
    quotas = [to_exact(f"proportions[{k}]", p) * n for k, p in enumerate(proportions)]
    floors = [int(sympy.floor(q)) for q in quotas]
    remainders = sorted(range(len(quotas)), key=lambda k: (-(quotas[k] - floors[k]), k))
    for k in remainders[: n - sum(floors)]:
        floors[k] += 1
    return np.asarray(floors, dtype=np.int64)


def distinct_uniform_items(counts: np.ndarray, N: int, rng: np.random.Generator,
                           *, width: int | None = None) -> np.ndarray:
    """Rows of distinct uniform items: row r holds a uniform counts[r]-subset of [N], padded with -1.

    Sparse regime (width <= N/8): draw with replacement and redraw repeated entries until every row is
    distinct. The procedure commutes with every relabelling of the items, and the permutations of [N]
    act transitively on the sequences of c distinct items, so each row is exactly a uniform c-subset in
    uniformly random order. Dense regime: the c items with the smallest of N i.i.d. uniform sort keys
    (same law), in increasing key order.
    """
    counts = np.asarray(counts, dtype=np.int64)
    n = counts.size
    width = int(counts.max(initial=0)) if width is None else width
    out = np.full((n, width), -1, dtype=np.int32)
    if n == 0 or width == 0:
        return out
    valid = np.arange(width)[None, :] < counts[:, None]
    if 8 * width > N:  # dense regime: the rows' smallest random sort keys, O(N) per row
        step = max(1, _DENSE_CELLS // N)
        for start in range(0, n, step):
            rows = slice(start, start + step)
            keys = rng.random((min(step, n - start), N))
            smallest = np.argpartition(keys, width - 1, axis=1)[:, :width]
            order = np.argsort(np.take_along_axis(keys, smallest, axis=1), axis=1)
            ranked = np.take_along_axis(smallest, order, axis=1).astype(np.int32)
            out[rows] = np.where(valid[rows], ranked, -1)
        return out
    draw = rng.integers(0, N, size=(n, width), dtype=np.int32)
    sentinel = (N + np.arange(width, dtype=np.int32))[None, :]
    draw = np.where(valid, draw, sentinel)
    rows = np.arange(n)
    while rows.size:
        block = draw[rows]
        order = np.argsort(block, axis=1, kind="stable")
        ordered = np.take_along_axis(block, order, axis=1)
        repeat = np.zeros_like(ordered, dtype=bool)
        repeat[:, 1:] = ordered[:, 1:] == ordered[:, :-1]
        hit_rows, hit_sorted = np.nonzero(repeat)
        if hit_rows.size == 0:
            break
        hit_cols = order[hit_rows, hit_sorted]
        block[hit_rows, hit_cols] = rng.integers(0, N, size=hit_rows.size, dtype=np.int32)
        draw[rows] = block
        rows = rows[np.unique(hit_rows)]
    return np.where(valid, draw, -1)


@dataclass(frozen=True, eq=False)
class UserRatings:
    """A batch of users' rated items and ratings.

    Attributes:
        items: (users, width) int32; row u holds user u's rated items (in random order), padded with -1.
        ratings: (users, width) bool; the rating of each rated item (False at the padding).
        counts: (users,) number of rated items (w for every user under the "subset" model).
    """

    items: np.ndarray
    ratings: np.ndarray
    counts: np.ndarray

    @property
    def users(self) -> int:
        """Number of users in the batch."""
        return int(self.items.shape[0])

    @property
    def valid(self) -> np.ndarray:
        """(users, width) mask of the real (non-padding) entries."""
        return self.items >= 0


@dataclass(frozen=True, eq=False)
class RatingSample:
    """A full sample of the blockmodel: the clusters and every user's ratings."""

    item_clusters: np.ndarray
    user_classes: np.ndarray
    ratings: UserRatings


@dataclass(frozen=True)
class BlockModel:
    """Bipartite stochastic blockmodel with w ratings per user.

    P(user u rates item i positively | u rated i) = b[k(u)][l(i)], independently over user-item pairs;
    user clusters have proportions alpha (K of them), item clusters beta (L of them).

    Args:
        N: number of items, in [2, 2^30] (items are int32 indices).
        w: ratings per user, 1 <= w <= N (the mean number under ``"independent"`` sampling).
        alpha: user-cluster proportions, exact, summing to 1.
        beta: item-cluster proportions, exact, summing to 1.
        b: K x L matrix of positive-rating probabilities in [0, 1].
        sampling: ``"subset"`` (uniform w-subsets: the paper's model) or ``"independent"`` (each item
            rated independently with probability w/N: Theorem 15's analysis).
        assignment: ``"exact"`` (cluster sizes round(alpha_k U), round(beta_l N) by largest remainder,
            randomly placed) or ``"iid"`` (each user or item draws its cluster independently).

    References: 000_0c6e7fdc3fd68303.txt, Section 2.1 and Theorem 15.
    """

    N: int
    w: int
    alpha: tuple[sympy.Expr, ...]
    beta: tuple[sympy.Expr, ...]
    b: tuple[tuple[sympy.Expr, ...], ...]
    sampling: str = "subset"
    assignment: str = "exact"

    def __post_init__(self) -> None:
        # items are int32 indices, and the sampler's sentinels N + j (j < w <= N) must fit too
        object.__setattr__(self, "N", require_int("N", self.N, minimum=2, maximum=2**30))
        object.__setattr__(self, "w", require_int("w", self.w, minimum=1, maximum=self.N, maximum_name="N"))
        object.__setattr__(self, "alpha", _probability_vector("alpha", self.alpha))
        object.__setattr__(self, "beta", _probability_vector("beta", self.beta))
        if isinstance(self.b, (str, bytes)) or not isinstance(self.b, Sequence) or len(self.b) != len(self.alpha):
            raise InvalidParameterError(f"b must be a K x L matrix with K = {len(self.alpha)} rows. Got {self.b!r}")
        rows = []
        for k, row in enumerate(self.b):
            if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != len(self.beta):
                raise InvalidParameterError(f"b[{k}] must have L = {len(self.beta)} entries. Got {row!r}")
            rows.append(tuple(require_unit_interval(f"b[{k}][{l}]", v, closed_right=True) for l, v in enumerate(row)))
        object.__setattr__(self, "b", tuple(rows))
        if self.sampling not in SAMPLING_MODELS:
            raise InvalidParameterError(f"sampling must be one of {', '.join(SAMPLING_MODELS)}. Got {self.sampling!r}")
        if self.assignment not in ASSIGNMENTS:
            raise InvalidParameterError(f"assignment must be one of {', '.join(ASSIGNMENTS)}. Got {self.assignment!r}")

    @classmethod
    def lower_bound_instance(cls, N: int, w: int, *, sampling: str = "subset") -> BlockModel:
        """The simplified lower-bound model: K = 1, L = 2, Z uniform on {0,1}^N, deterministic ratings.

        alpha = (1), beta = (1/2, 1/2), b = [[0, 1]] and i.i.d. uniform item clusters, so a user's
        rating of item i is exactly its cluster bit Z(i).

        References: 000_0c6e7fdc3fd68303.txt, Section 3.1 and spec Section 6.
        """
        half = sympy.Rational(1, 2)
        return cls(N, w, (sympy.Integer(1),), (half, half), ((sympy.Integer(0), sympy.Integer(1)),),
                   sampling=sampling, assignment="iid")

    @property
    def K(self) -> int:
        """Number of user clusters."""
        return len(self.alpha)

    @property
    def L(self) -> int:
        """Number of item clusters."""
        return len(self.beta)

    @cached_property
    def b_float(self) -> np.ndarray:
        """b as a float64 K x L array (for sampling)."""
        return np.array([[float(v) for v in row] for row in self.b])

    def _assign(self, proportions: tuple[sympy.Expr, ...], n: int, rng: np.random.Generator) -> np.ndarray:
        if self.assignment == "iid":
            p = np.array([float(v) for v in proportions])
            return rng.choice(len(proportions), size=n, p=p / p.sum()).astype(np.int32)
        labels = np.repeat(np.arange(len(proportions), dtype=np.int32), cluster_sizes(proportions, n))
        return rng.permutation(labels)

    def item_clusters(self, rng: np.random.Generator | int) -> np.ndarray:
        """The clustering C_N: an (N,) int32 array of item clusters in [0, L)."""
        return self._assign(self.beta, self.N, as_generator(rng))

    def user_classes(self, U: int, rng: np.random.Generator | int) -> np.ndarray:
        """A (U,) int32 array of user clusters in [0, K)."""
        U = require_int("U", U, minimum=0)
        return self._assign(self.alpha, U, as_generator(rng))

    def rate(self, user_classes: np.ndarray, item_clusters: np.ndarray, rng: np.random.Generator) -> UserRatings:
        """Draw the rated items and ratings of the given users (a batch; vectorised)."""
        n = int(np.asarray(user_classes).shape[0])
        if self.sampling == "subset":
            counts = np.full(n, self.w, dtype=np.int64)
            width = self.w
        else:
            counts = rng.binomial(self.N, self.w / self.N, size=n).astype(np.int64)
            width = int(counts.max(initial=0))
        items = distinct_uniform_items(counts, self.N, rng, width=width)
        valid = items >= 0
        probability = self.b_float[np.asarray(user_classes)[:, None], item_clusters[np.where(valid, items, 0)]]
        ratings = (rng.random(items.shape) < probability) & valid
        return UserRatings(items, ratings, counts)

    def default_batch_size(self) -> int:
        """Users per batch holding about 2 million (user, rated item) cells (at most 65536 users)."""
        return int(max(1, min(65536, _BATCH_CELLS // self.w)))

    def user_batches(self, user_classes: np.ndarray, item_clusters: np.ndarray, rng: np.random.Generator,
                     batch_size: int | None = None) -> Iterator[tuple[slice, UserRatings]]:
        """Stream the users' ratings in batches: yields (slice of users, their UserRatings)."""
        batch_size = self.default_batch_size() if batch_size is None else require_int("batch_size", batch_size,
                                                                                      minimum=1)
        for start in range(0, len(user_classes), batch_size):
            part = slice(start, min(start + batch_size, len(user_classes)))
            yield part, self.rate(user_classes[part], item_clusters, rng)

    def sample(self, U: int, rng: np.random.Generator | int) -> RatingSample:
        """Draw item clusters, U users' clusters and all their ratings (about 5 (w + 1) bytes per user)."""
        rng = as_generator(rng)
        items = self.item_clusters(rng)
        users = self.user_classes(U, rng)
        return RatingSample(items, users, self.rate(users, items, rng))
