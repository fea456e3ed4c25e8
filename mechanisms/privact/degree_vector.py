"""PRIVACT's local randomizer: noisy degree vectors over a public random partition (edge-LDP).

The aggregator draws a uniformly random partition b: V -> {0..K-1} into K = floor(ln n) bins of almost
equal size and sends it to every user. User i counts its neighbours per bin, c_i^l = |{j : D_i[j] = 1,
b(j) = l}|, and sends c̄_i = c_i + (Lap(0, σ))^K once. Nothing else ever touches the private bits.

Why it is private: flipping one bit D_i[j] changes exactly one count, c_i^{b(j)}, by exactly ±1 (L1
sensitivity 1 for any partition, K or graph), so the log density ratio of one report is
(|y_l - c'_l| - |y_l - c_l|)/σ ∈ [-1/σ, 1/σ]: per user ε_u = 1/σ. An undirected edge {i, j} is held by
both endpoints, whose independent reports both change: per edge ε = 2/σ. The paper's experiments report
the per-edge ε (σ = 2/ε_edge); its theorems use σ = 1/ε (spec A1).

References: 004_a0cddc0a7a24fb37.txt, Section 4.1, Section 4.4 (Algorithm 2, lines 1-3), Appendix A.3
(two-endpoint rule); spec §2.2, A1, A2, A13.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import scipy.sparse
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.neighbours import Adjacency
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive, to_exact
from dpcert.mechanisms.privact.graphs import SocialGraph

__all__ = [
    "NoisyDegreeVector",
    "PrivactBudget",
    "bins_for",
    "degree_vectors",
    "edge_privacy_loss",
    "noisy_degree_vectors",
    "random_partition",
    "validate_partition",
]


def bins_for(n: int) -> int:
    """K = floor(ln n), the natural log (spec A2: the code's ``int(math.log(n))``), exactly; n >= 3.

    K = 7 for the three networks of Table 1 (n = 1843, 1503, 2848).
    """
    n = require_int("n", n, minimum=3)
    return int(sympy.floor(sympy.log(n)))


def random_partition(n: int, K: int, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random partition of 0..n-1 into K bins whose sizes differ by at most one.

    Shuffles the vertices and cuts them into K contiguous chunks (the code's ``np.array_split``), so
    every assignment with those bin sizes is equally likely. Returns each vertex's bin id.
    """
    n = require_int("n", n, minimum=1)
    K = require_int("K", K, minimum=1, maximum=n)
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    bins = np.empty(n, dtype=np.int64)
    bins[rng.permutation(n)] = np.repeat(np.arange(K), [len(c) for c in np.array_split(np.arange(n), K)])
    return bins


def validate_partition(partition: object, n: int, K: int) -> np.ndarray:
    """``partition`` as an int64 array of n bin ids in [0, K), or InvalidParameterError."""
    try:
        bins = np.asarray(partition)
    except (TypeError, ValueError):
        bins = np.asarray([], dtype=object)
    if bins.shape != (n,) or (n and bins.dtype.kind not in "iu"):
        raise InvalidParameterError(f"partition must be a sequence of {n} integer bin ids in [0, {K - 1}]. "
                                    f"Got shape {bins.shape} of {bins.dtype}")
    if n and (bins.min() < 0 or bins.max() >= K):
        raise InvalidParameterError(f"partition must hold bin ids in [0, {K - 1}]. Got "
                                    f"{int(bins.min()) if bins.min() < 0 else int(bins.max())}")
    return bins.astype(np.int64)


def degree_vectors(adjacency: SocialGraph | scipy.sparse.sparray | np.ndarray, partition: object,
                   K: int) -> np.ndarray:
    """c[i, l] = number of neighbours of user i in bin l, for every row i of the 0/1 adjacency.

    ``adjacency`` is a SocialGraph, a sparse matrix, or a dense (users x n) 0/1 array (one row is one
    user's bit vector D_i). Vectorised: c = A · onehot(b).
    """
    matrix = adjacency.adjacency if isinstance(adjacency, SocialGraph) else adjacency
    if not scipy.sparse.issparse(matrix):
        matrix = np.atleast_2d(np.asarray(matrix))
        if matrix.ndim != 2 or not np.isin(matrix, (0, 1)).all():
            raise InvalidParameterError(f"adjacency must be a 2-d 0/1 matrix. Got shape {matrix.shape}")
    n = matrix.shape[1]
    K = require_int("K", K, minimum=1)
    bins = validate_partition(partition, n, K)
    onehot = scipy.sparse.csr_array((np.ones(n, dtype=np.int64), (np.arange(n), bins)), shape=(n, K))
    counts = matrix @ onehot
    return np.asarray(counts.toarray() if scipy.sparse.issparse(counts) else counts, dtype=np.int64)


def noisy_degree_vectors(counts: np.ndarray, sigma: object, rng: np.random.Generator) -> np.ndarray:
    """c̄ = c + Lap(0, σ) independently per user and bin (Algorithm 2, line 3), as float64."""
    scale = float(require_positive("sigma", sigma))
    if not isinstance(rng, np.random.Generator):
        raise InvalidParameterError(f"rng must be a numpy.random.Generator. Got {type(rng).__name__}")
    counts = np.asarray(counts, dtype=np.float64)
    return counts + rng.laplace(0.0, scale, counts.shape)


@dataclass(frozen=True)
class PrivactBudget:
    """The two views of PRIVACT's ε for per-bin Laplace scale σ (spec A1).

    - per user: ε_u = 1/σ, neighbours differ in one bit of one user's D_i (the theorems' ε);
    - per edge: ε_edge = 2/σ, neighbouring graphs differ in one undirected edge, which both endpoints
      report (App. A.3; the ε of the experiments, the code's σ = 2/ε_edge).

    Attributes:
        sigma: the Laplace scale σ > 0 of every bin of every user.
    """

    sigma: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "sigma", require_positive("sigma", self.sigma))

    @classmethod
    def from_eps_edge(cls, eps_edge: object) -> PrivactBudget:
        """σ = 2/ε_edge (the paper's reported ε; [code] eps_l = ε_edge/2)."""
        return cls(2 / require_positive("eps_edge", eps_edge))

    @classmethod
    def from_eps_user(cls, eps_user: object) -> PrivactBudget:
        """σ = 1/ε_u (Algorithm 2's Lap(0, 1/ε))."""
        return cls(1 / require_positive("eps_user", eps_user))

    @property
    def eps_user(self) -> sympy.Expr:
        """ε_u = 1/σ: one user's report is ε_u-LDP w.r.t. one bit of its neighbour list."""
        return 1 / self.sigma

    @property
    def eps_edge(self) -> sympy.Expr:
        """ε_edge = 2/σ: the two endpoints' reports together are ε_edge-DP w.r.t. one undirected edge."""
        return 2 / self.sigma


def _one_bit_apart(user: int) -> Adjacency:
    def is_neighbour(x: Hashable, y: Hashable) -> bool:
        differ = [j for j, (a, b) in enumerate(zip(x, y)) if a != b]  # type: ignore[arg-type]
        return len(differ) == 1 and differ[0] != user

    return Adjacency(is_neighbour, f"bit vectors differing in one bit j != {user} (edge LDP)")


@dataclass(frozen=True)
class NoisyDegreeVector(Mechanism):
    """User ``user``'s report c̄ = c(D) + Lap(σ)^K for its bit vector D, given the public partition.

    Input: D ∈ {0,1}^n with D[user] = 0. Output: a point of R^K with density
    Π_l exp(-|y_l - c_l| / σ) / (2σ).

    Why it is private: one flipped bit moves one count by ±1, so the log-ratio is at most 1/σ (Laplace
    mechanism, L1 sensitivity 1); the bound is attained at y = c(D).

    Attributes:
        partition: the public bin b(j) ∈ [0, K) of every vertex j (any partition, even an adversarial one).
        K: the number of bins.
        user: the reporting user i.
        sigma: the Laplace scale σ.

    References: 004_a0cddc0a7a24fb37.txt, Algorithm 2 (line 3), Section 4.1; spec §2.2, TC-P1, TC-P2.
    """

    name: ClassVar[str] = "privact-degree-vector"
    partition: tuple[int, ...]
    K: int
    user: int
    sigma: sympy.Expr

    def __post_init__(self) -> None:
        K = require_int("K", self.K, minimum=1)
        if isinstance(self.partition, (str, bytes)) or not isinstance(self.partition, Sequence | np.ndarray):
            raise InvalidParameterError(f"partition must be a sequence of integer bin ids. Got {self.partition!r}")
        bins = validate_partition(np.asarray(self.partition), len(self.partition), K)
        object.__setattr__(self, "K", K)
        object.__setattr__(self, "partition", tuple(int(b) for b in bins))
        object.__setattr__(self, "user", require_int("user", self.user, minimum=0, maximum=len(bins) - 1))
        object.__setattr__(self, "sigma", require_positive("sigma", self.sigma))

    @property
    def n(self) -> int:
        """Number of users (length of a bit vector)."""
        return len(self.partition)

    @property
    def budget(self) -> PrivactBudget:
        """ε_u = 1/σ and ε_edge = 2/σ."""
        return PrivactBudget(self.sigma)

    @property
    def neighbours(self) -> Adjacency:
        """Bit vectors that differ in exactly one bit j != user (one edge of this user)."""
        return _one_bit_apart(self.user)

    @cached_property
    def _bins(self) -> np.ndarray:
        return np.asarray(self.partition, dtype=np.int64)

    def counts(self, x: object) -> np.ndarray:
        """c(D): the user's neighbour count per bin."""
        bits = np.asarray(x)
        if bits.shape != (self.n,) or not np.isin(bits, (0, 1)).all() or bits[self.user] != 0:
            raise InvalidParameterError(f"x must be a 0/1 vector of length {self.n} with x[{self.user}] = 0 "
                                        f"(no self-loop). Got {x!r}")
        return degree_vectors(bits[None, :].astype(np.int64), self._bins, self.K)[0]

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` reports, shape (size, K)."""
        size = check_size(size)
        counts = np.broadcast_to(self.counts(x), (size, self.K))
        return noisy_degree_vectors(counts, self.sigma, rng)

    def density(self, y: Sequence[sympy.Symbol], x: object) -> sympy.Expr:
        """Π_l exp(-|y_l - c_l| / σ) / (2σ)."""
        counts = self.counts(x)
        if len(y) != self.K:
            raise InvalidParameterError(f"y must have K = {self.K} coordinates. Got {len(y)}")
        return sympy.Mul(*(sympy.exp(-sympy.Abs(yl - int(cl)) / self.sigma) / (2 * self.sigma)
                           for yl, cl in zip(y, counts)))

    def log_likelihood_ratio(self, y: Sequence[object], x: object, x_prime: object) -> sympy.Expr:
        """ln p(y | x) - ln p(y | x') = Σ_l (|y_l - c'_l| - |y_l - c_l|) / σ, exactly (y exact numbers)."""
        c, c_prime = self.counts(x), self.counts(x_prime)
        if len(y) != self.K:
            raise InvalidParameterError(f"y must have K = {self.K} coordinates. Got {len(y)}")
        values = [to_exact(f"y[{l}]", v) for l, v in enumerate(y)]
        return sympy.Add(*(sympy.Abs(v - int(b)) - sympy.Abs(v - int(a))
                           for v, a, b in zip(values, c, c_prime))) / self.sigma

    def privacy_loss(self, x: object, x_prime: object) -> tuple[sympy.Expr, tuple[int, ...]]:
        """sup_y ln p(y|x)/p(y|x') = ‖c - c'‖_1 / σ (triangle inequality), with the witness y = c(x) attaining it."""
        c, c_prime = self.counts(x), self.counts(x_prime)
        return sympy.Integer(int(np.abs(c - c_prime).sum())) / self.sigma, tuple(int(v) for v in c)

    def worst_privacy_loss(self, x: object) -> tuple[sympy.Expr, tuple[int, ...], tuple[int, ...]]:
        """max over the n - 1 neighbours x' of x of :meth:`privacy_loss`: (loss, x', witness y); = 1/σ."""
        bits = np.asarray(x)
        best: tuple[sympy.Expr, tuple[int, ...], tuple[int, ...]] | None = None
        for j in range(self.n):
            if j == self.user:
                continue
            flipped = bits.copy()
            flipped[j] = 1 - flipped[j]
            loss, witness = self.privacy_loss(bits, flipped)
            if best is None or loss > best[0]:
                best = (loss, tuple(int(v) for v in flipped), witness)
        if best is None:
            raise InvalidParameterError(f"x must have a neighbour: n must be >= 2. Got n = {self.n}")
        return best


def edge_privacy_loss(graph: SocialGraph, partition: object, K: int, sigma: object, i: int, j: int) -> sympy.Expr:
    """sup over (y_i, y_j) of the joint log density ratio of users i's and j's reports on G vs G ⊕ {i, j}.

    The two reports are independent, so the loss is the sum of the endpoints' losses
    ‖c_i(G) - c_i(G')‖_1/σ + ‖c_j(G) - c_j(G')‖_1/σ = 2/σ, attained at y = (c_i(G), c_j(G)).

    References: 004_a0cddc0a7a24fb37.txt, Appendix A.3 ("the same edge is queried twice"); spec TC-P3.
    """
    i = require_int("i", i, minimum=0, maximum=graph.n - 1)
    j = require_int("j", j, minimum=0, maximum=graph.n - 1)
    if i == j:
        raise InvalidParameterError(f"j must differ from i = {i}. Got {j}")
    rows = graph.adjacency[[i, j], :].toarray()
    flipped = rows.copy()
    flipped[0, j] = 1 - flipped[0, j]
    flipped[1, i] = 1 - flipped[1, i]
    mechanisms = [NoisyDegreeVector(tuple(validate_partition(partition, graph.n, K)), K, u, sigma) for u in (i, j)]
    return sympy.Add(*(m.privacy_loss(rows[k], flipped[k])[0] for k, m in enumerate(mechanisms)))
