"""Hadamard response (HR): an eps-LDP item randomizer over k values and its frequency estimator.

Order and code words: K is the smallest power of two with K >= k + 1, and H is the K x K Sylvester
Hadamard matrix, H[i, j] = (-1)^popcount(i & j). Value x in 0..k-1 owns row x + 1 (row 0, all ones,
is skipped) and the code set C_x = {y : H[x + 1, y] = +1}, of size K/2. The output y in 0..K-1 has

    P(y | x) = 2 e^eps / (K (1 + e^eps))  if y in C_x,      2 / (K (1 + e^eps))  otherwise,

so the transition matrix is A = q1 J + q2 H[1..k] with q1 = 1/K and q2 = (e^eps - 1) / (K (e^eps + 1)):
every entry is proportional to e^eps or to 1, as 002_1def8c9789d6e1bd.txt (Section 6.2.1) describes
without fixing K; this module fixes it as Acharya, Sun and Zhang do.

Why it is eps-LDP: every column of A takes only the two values above, whose ratio is e^eps (tight).

Estimator: distinct non-first rows of H are orthogonal and sum to 0, so P(Y in C_x) = 1/2 + p(x)
tanh(eps/2)/2 and B[y, x] = coth(eps/2) H[x + 1, y] is a right inverse of A (A B = I). B alone does
not make the estimate sum to 1, so the estimator used here is the right inverse
B' = B + (1 - B 1) 1^T / k (still A B' = I, because A 1 = 1), which spreads the missing mass evenly:
F~ = v B' is unbiased (E[F~] = K~ A B' = K~) and sums to 1, so d_EM(F~, K~) is a transport cost of a
signed vector of total mass 0.

References: Acharya, Sun, Zhang, "Hadamard Response: Estimating Distributions Privately, Efficiently, and
with Little Communication" (AISTATS 2019), Section 4; Chen, Kairouz, Ozgur (NeurIPS 2020), Thm 3.1;
002_1def8c9789d6e1bd.txt, Lemma 6.4 and Algorithm 4; specs/imola_metric_dp_user_level.md, A8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, Mechanism, check_size, require_index
from dpcert.mechanisms.neighbours import Adjacency, AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int
from dpcert.mechanisms.metric_user_level.central_laplace import replace_one_user
from dpcert.mechanisms.metric_user_level.user_datasets import global_histogram, user_datasets

__all__ = ["HadamardFreqEst", "HadamardResponse", "MAX_HADAMARD_K", "MAX_ENUMERATED_HADAMARD_K",
           "hadamard_order", "sylvester_signs"]

MAX_HADAMARD_K = 2**20 - 1
"""k <= 2^20 - 1 (so K <= 2^20): sampling and the estimator hold k x K signs in memory only through
:func:`sylvester_signs` on demand, and the estimator matrix (k x K floats) is formed for k <= 4095."""

MAX_ENUMERATED_HADAMARD_K = 255
"""The largest k whose k x K channel (K <= 256) is enumerated for the exact checker (well under a second)."""

MAX_ESTIMATOR_K = 4095
"""The largest k for which :class:`HadamardFreqEst` forms the K x k estimator matrix (128 MB at K = 4096)."""


def hadamard_order(k: object) -> int:
    """K: the smallest power of two with K >= k + 1 (row 0 of H is skipped, rows 1..k are the code words)."""
    k = require_int("k", k, minimum=2, maximum=MAX_HADAMARD_K)
    return 1 << k.bit_length()


def sylvester_signs(rows: object, columns: object) -> np.ndarray:
    """H[rows, columns] of the Sylvester Hadamard matrix, +1 or -1: (-1)^popcount(row & column).

    ``rows`` and ``columns`` broadcast against each other (numpy integer arrays).
    """
    bits = np.bitwise_and(np.asarray(rows, dtype=np.int64), np.asarray(columns, dtype=np.int64))
    parity = np.zeros(bits.shape, dtype=np.int64)
    while np.any(bits):
        parity ^= bits & 1
        bits = bits >> 1
    return 1 - 2 * parity


@dataclass(frozen=True)
class HadamardResponse(FiniteMechanism):
    """Hadamard response over k values (inputs 0..k-1, outputs 0..K-1), eps-LDP.

    P(y | x) = 2 e^eps / (K (1 + e^eps)) if H[x + 1, y] = +1, else 2 / (K (1 + e^eps)), with K the
    smallest power of two >= k + 1 and H the Sylvester Hadamard matrix (module docstring).

    Why it is private: every output has one of two probabilities under every input, with ratio e^eps,
    so it is eps-LDP; the ratio is attained (tight).

    References: Acharya, Sun, Zhang (AISTATS 2019), Section 4; 002_1def8c9789d6e1bd.txt, Lemma 6.4.
    """

    name: ClassVar[str] = "hadamard-response"
    size_parameters: ClassVar[tuple[str, ...]] = ("k",)
    k: int
    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", require_int("k", self.k, minimum=2, maximum=MAX_HADAMARD_K))
        object.__setattr__(self, "eps", require_eps("eps", self.eps))

    @property
    def order(self) -> int:
        """K, the number of outputs."""
        return hadamard_order(self.k)

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs()

    def require_enumerable(self) -> None:
        if self.k > MAX_ENUMERATED_HADAMARD_K:
            raise InvalidParameterError(
                f"k must be <= {MAX_ENUMERATED_HADAMARD_K} to enumerate the k x K channel of {self.name}. "
                f"Got {self.k}")

    def inputs(self) -> tuple[int, ...]:
        self.require_enumerable()
        return tuple(range(self.k))

    def outputs(self) -> tuple[int, ...]:
        self.require_enumerable()
        return tuple(range(self.order))

    def validate_input(self, x: int) -> None:
        require_index(x, 0, self.k - 1)

    @cached_property
    def probabilities(self) -> tuple[sympy.Expr, sympy.Expr]:
        """(2 e^eps / (K (1 + e^eps)), 2 / (K (1 + e^eps))): the probability of each output in C_x and outside."""
        t = sympy.exp(self.eps)
        return sympy.cancel(2 * t / (self.order * (1 + t))), sympy.cancel(2 / (self.order * (1 + t)))

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        self.require_enumerable()
        inside, outside = self.probabilities
        signs = sylvester_signs(x + 1, np.arange(self.order))
        return {y: inside if s > 0 else outside for y, s in enumerate(signs.tolist())}

    @cached_property
    def keep_probability(self) -> float:
        """e^eps / (1 + e^eps), the probability that the output falls in C_x (as a float, for sampling)."""
        return float(1 / (1 + sympy.exp(-self.eps)))

    def sample_many(self, x: object, rng: np.random.Generator) -> np.ndarray:
        """One output for each entry of the integer array ``x`` (same shape).

        The output lies in C_x with probability e^eps / (1 + e^eps), uniformly inside the chosen half:
        a uniform y is drawn and, when it falls on the wrong side of row x + 1, moved to y XOR 2^b with b
        the lowest set bit of x + 1, which flips H[x + 1, y] and is a bijection between the two halves.
        """
        values = np.asarray(x)
        if values.dtype.kind not in "iu" or (values.size and (values.min() < 0 or values.max() >= self.k)):
            raise InvalidParameterError(f"x must hold integer inputs in 0..{self.k - 1}")
        values = values.astype(np.int64)
        rows = values + 1
        y = rng.integers(0, self.order, size=values.shape)
        inside = rng.random(values.shape) < self.keep_probability
        wrong = (sylvester_signs(rows, y) > 0) != inside
        lowest = rows & -rows
        return np.where(wrong, y ^ lowest, y)

    def sample(self, x: int, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        self.validate_input(x)
        return self.sample_many(np.full(size, x, dtype=np.int64), rng)

    # ---- the estimator -------------------------------------------------------------------------------

    @cached_property
    def inverse_scale(self) -> sympy.Expr:
        """c = coth(eps/2) = (e^eps + 1)/(e^eps - 1): B[y, x] = c H[x + 1, y]."""
        t = sympy.exp(self.eps)
        return sympy.cancel((t + 1) / (t - 1))

    def float_estimator_matrix(self) -> np.ndarray:
        """B' = B + (1 - B 1) 1^T / k as floats (K x k): the unbiased, mass-preserving right inverse of A."""
        if self.k > MAX_ESTIMATOR_K:
            raise InvalidParameterError(f"k must be <= {MAX_ESTIMATOR_K} to form the estimator matrix. Got {self.k}")
        signs = sylvester_signs(np.arange(1, self.k + 1)[None, :], np.arange(self.order)[:, None]).astype(float)
        base = float(self.inverse_scale) * signs
        return base + (1.0 - base.sum(axis=1, keepdims=True)) / self.k

    def exact_transition_matrix(self) -> sympy.ImmutableMatrix:
        """A (k x K) exactly."""
        rows = [self.pmf(x) for x in self.inputs()]
        return sympy.ImmutableMatrix([[row[y] for y in self.outputs()] for row in rows])

    def exact_estimator_matrix(self) -> sympy.ImmutableMatrix:
        """B' (K x k) exactly (A B' = I and B' 1 = 1)."""
        self.require_enumerable()
        c = self.inverse_scale
        rows = []
        for y in range(self.order):
            signs = sylvester_signs(np.arange(1, self.k + 1), y).tolist()
            shift = (1 - c * sum(signs)) / self.k
            rows.append([c * s + shift for s in signs])
        return sympy.ImmutableMatrix(rows)


@dataclass(frozen=True)
class HadamardFreqEst(Mechanism):
    """FreqEstLocal (Algorithm 4) with Hadamard response: the user-level baseline of Lemma 6.4.

    The input is the family of the n users' datasets, an n x m array of values in 0..k-1. Each user runs
    :class:`HadamardResponse` at eps0 on each of their m items and releases the histogram of the m
    outputs; the aggregator averages the n normalised histograms into v and returns F~ = v B' (the
    unbiased, mass-preserving inverse of :class:`HadamardResponse`). Lemma 6.4 takes
    eps0 = eps / sqrt(m ln(m/delta)) (:func:`dpcert.accountant.metric_user_level.lemma_6_4_per_sample_eps`).

    Why it is private: a user's release is m eps0-LDP releases, so it is (m eps0)-user-level DP by basic
    composition, and (eps, delta)-user-level DP for the eps of
    :func:`dpcert.accountant.metric_user_level.hadamard_user_level_delta`; F~ is post-processing.

    References: 002_1def8c9789d6e1bd.txt, Algorithm 4 and Lemma 6.4.
    """

    name: ClassVar[str] = "hadamard-freq-est"
    mechanism: HadamardResponse

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, HadamardResponse):
            raise InvalidParameterError(f"mechanism must be a HadamardResponse. Got {type(self.mechanism).__name__}")

    @cached_property
    def estimator(self) -> np.ndarray:
        """B' (K x k) as floats."""
        return self.mechanism.float_estimator_matrix()

    def datasets(self, x: object) -> np.ndarray:
        """``x`` validated as an n x m integer array of item indices in 0..k-1 (one row per user; n, m >= 1)."""
        return user_datasets(x, self.mechanism.k)

    def normalised_histogram(self, x: object) -> np.ndarray:
        """K~_G, the normalised histogram of all users' items, as floats."""
        return global_histogram(x, self.mechanism.k)

    def release(self, x: object, rng: np.random.Generator) -> np.ndarray:
        """What the users release: one output histogram per user (n x K counts)."""
        array = self.datasets(x)
        outputs = self.mechanism.sample_many(array, rng)
        counts = np.zeros((array.shape[0], self.mechanism.order), dtype=np.int64)
        np.add.at(counts, (np.repeat(np.arange(array.shape[0]), array.shape[1]), outputs.ravel()), 1)
        return counts

    def estimate(self, releases: object) -> np.ndarray:
        """F~ = v B' with v the mean of the released histograms, each normalised to sum 1."""
        counts = np.asarray(releases, dtype=float)
        if counts.ndim != 2 or counts.shape[1] != self.mechanism.order or not np.all(np.isfinite(counts)) \
                or np.any(counts < 0) or np.any(counts.sum(axis=1) <= 0):
            raise InvalidParameterError(f"releases must be non-empty vectors of non-negative counts of length "
                                        f"{self.mechanism.order}")
        v = (counts / counts.sum(axis=1, keepdims=True)).mean(axis=0)
        return v @ self.estimator

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent estimates F~: a size x k float array.

        With equal user sizes F~ depends on the releases only through the total output counts, whose law
        is a sum of multinomials: the copies of value x give Multinomial(count of x, A[x]).
        """
        size = check_size(size)
        array = self.datasets(x)
        copies = np.bincount(array.ravel(), minlength=self.mechanism.k)
        inside, outside = (float(p) for p in self.mechanism.probabilities)
        totals = np.zeros((size, self.mechanism.order), dtype=np.int64)
        columns = np.arange(self.mechanism.order)
        for item in np.nonzero(copies)[0]:
            row = np.where(sylvester_signs(item + 1, columns) > 0, inside, outside)
            totals += rng.multinomial(copies[item], row / row.sum(), size=size)
        return (totals / array.size) @ self.estimator

    @property
    def neighbours(self) -> Adjacency:
        return Adjacency(replace_one_user,
                         "datasets of n users with m items each, one user's items replaced (bounded user level)")
