"""FreqEstLocal (Algorithm 4) with GKRR: frequency estimation on the clustered metric, local or central.

Every item is randomized with GKRR_alpha0 (transition matrix A); the estimate is F~ = v B with v the
mean of the released normalised histograms and B = A^{-1}, so E[F~] = K~ A B = K~. F~ is a signed vector
summing to 1 (B 1 = 1 because A 1 = 1); its error d_EM(F~, K~) is a Kantorovich-Rubinstein norm
(:meth:`~dpcert.mechanisms.metric_user_level.gkrr.ClusteredMetric.kantorovich_rubinstein_norm`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.metric_user_level.earth_movers import exact_matching_distance
from dpcert.mechanisms.metric_user_level.gkrr import GeneralizedKRR
from dpcert.mechanisms.metric_user_level.itemwise import PrivEMDItemWise
from dpcert.mechanisms.metric_user_level.user_datasets import global_histogram, user_datasets

__all__ = ["FreqEstLocal"]


@dataclass(frozen=True)
class FreqEstLocal(Mechanism):
    """FreqEstLocal with GKRR_alpha0: F~ = v B, v = (1/n) sum_i L~_i, B = A^{-1}.

    The input is the family of the n users' datasets, an n x m array of item indices (equal sizes, as
    in Algorithm 4). In the ``local`` model user i releases L_i = PrivEMDItemWise(GKRR, m)(K_i), the
    histogram of its m randomized items; in the ``central`` model a trusted server runs
    PrivEMDItemWise(GKRR, n m) on K_G as if it were one user holding all nm items. With equal sizes
    v = (all output counts) / (nm) either way, so F~ has the same law in both models; they differ in what
    is released (n histograms or one) and in the alpha0 that Theorem 4.4 allows (shuffle size m or nm).

    Why it is private: a release is PrivEMDItemWise with an alpha0-metric-DP item mechanism, hence
    (m alpha0)-metric DP for the distance of :attr:`neighbours` (sum over users of d_EM(K~_i, K~'_i)
    locally; n d_EM(K~_G, K~'_G) <= d_EM(K~_i, K~'_i) centrally, by composition over the nm items), and
    F~ is post-processing. Theorem 4.4 gives the (alpha, delta) shuffle bound instead.

    References: 002_1def8c9789d6e1bd.txt, Algorithm 4, Section 6.2, Theorems 6.5 and 6.6, Corollary 6.8.
    """

    name: ClassVar[str] = "freq-est-local"
    mechanism: GeneralizedKRR
    model: str = "local"

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, GeneralizedKRR):
            raise InvalidParameterError(f"mechanism must be a GeneralizedKRR. Got {type(self.mechanism).__name__}")
        if self.model not in ("local", "central"):
            raise InvalidParameterError(f"model must be 'local' or 'central'. Got {self.model!r}")

    @cached_property
    def _transition(self) -> np.ndarray:
        return self.mechanism.float_transition_matrix()

    @cached_property
    def estimator(self) -> np.ndarray:
        """B = A^{-1} as floats."""
        return self.mechanism.float_inverse_matrix()

    def datasets(self, x: object) -> np.ndarray:
        """``x`` validated as an n x m integer array of item indices in 0..k-1 (one row per user; n, m >= 1)."""
        return user_datasets(x, self.mechanism.metric.k)

    def normalised_histogram(self, x: object) -> np.ndarray:
        """K~_G, the normalised histogram of all users' items, as floats."""
        return global_histogram(x, self.mechanism.metric.k)

    def _itemwise(self, m: int) -> PrivEMDItemWise:
        return PrivEMDItemWise(self.mechanism, m)

    def release(self, x: object, rng: np.random.Generator) -> np.ndarray:
        """What is released: one output histogram per user (local, n x k) or one for K_G (central, 1 x k)."""
        array = self.datasets(x)
        if self.model == "central":
            array = array.reshape(1, -1)
        return self._itemwise(array.shape[1]).release_each(array, rng)

    def estimate(self, releases: object) -> np.ndarray:
        """F~ = v B with v the mean of the released histograms, each normalised to sum 1."""
        counts = np.asarray(releases, dtype=float)
        if counts.ndim != 2 or counts.shape[1] != self.mechanism.metric.k or np.any(counts.sum(axis=1) <= 0):
            raise InvalidParameterError(f"releases must be non-empty count vectors of length {self.mechanism.metric.k}")
        v = (counts / counts.sum(axis=1, keepdims=True)).mean(axis=0)
        return v @ self.estimator

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent estimates F~: a size x k float array.

        F~ depends on the releases only through the total output counts (equal user sizes), whose law is
        a sum of multinomials: the copies of item x give Multinomial(count of x, A[x]).
        """
        size = check_size(size)
        array = self.datasets(x)
        copies = np.bincount(array.ravel(), minlength=self.mechanism.metric.k)
        totals = np.zeros((size, len(copies)), dtype=np.int64)
        for item in np.nonzero(copies)[0]:
            totals += rng.multinomial(copies[item], self._transition[item], size=size)
        return (totals / array.size) @ self.estimator

    def _distance(self, x: object, x_prime: object) -> sympy.Expr:
        a, b = self.datasets(x), self.datasets(x_prime)
        if a.shape != b.shape:
            raise InvalidParameterError(f"x and x' must have the same shape (n users, m items). "
                                        f"Got {a.shape}, {b.shape}")
        d = self.mechanism.metric.distance
        if self.model == "central":
            return a.shape[0] * exact_matching_distance(a.ravel().tolist(), b.ravel().tolist(), d)
        return sympy.Add(*(exact_matching_distance(u.tolist(), w.tolist(), d) for u, w in zip(a, b)))

    @property
    def neighbours(self) -> Metric:
        if self.model == "central":
            return Metric(self._distance, "n d_EM(K~_G, K~'_G) (implies Definition 3.2)")
        return Metric(self._distance, "sum over users of d_EM(K~_i, K~'_i) (Definition 3.1 per user)")
