"""The clustered metric on X = B x C and generalized k-ary randomized response GKRR_alpha0 on it.

Points: X = B x C with s clusters B = {b_0..b_(s-1)} and t items per cluster C = {c_0..c_(t-1)}, k = s t.
Point (b, c) has index x = b t + c, so cluster b holds the indices b t .. b t + t - 1 (``index``/``cell``
convert). For r in (0, 1/2):

    d((b, c), (b', c')) = 0 if b = b' and c = c';  r if b = b' and c != c';  1 otherwise.

References: 002_1def8c9789d6e1bd.txt (Imola, Roy Chowdhury, Chaudhuri), Section 6.2 and Appendix D.3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, require_index
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError, decided_sign, require_eps, require_int, to_exact

__all__ = [
    "ClusteredMetric",
    "GeneralizedKRR",
    "MAX_CLUSTER_SIZE",
    "MAX_ENUMERATED_POINTS",
    "clustered_matrix",
    "gkrr_coefficients",
    "gkrr_inverse_coefficients",
]

MAX_CLUSTER_SIZE = 10**12
"""s and t are at most 10^12: the closed forms (Theorems 6.5, 6.6) work at any such size."""

MAX_ENUMERATED_POINTS = 200
"""The largest k = s t whose channel is enumerated: the exact checker compares all k^2 pairs under the
metric (about 1.5 s at k = 200, 10 s at k = 400)."""

_HALF = sympy.Rational(1, 2)


def _require_r(value: object) -> sympy.Expr:
    r = to_exact("r", value)
    if decided_sign("r", r) <= 0 or decided_sign("r", r - _HALF) >= 0:
        raise InvalidParameterError(f"r must be in (0, 1/2). Got {r}")
    return r


@dataclass(frozen=True)
class ClusteredMetric:
    """The clustered metric of Section 6.2 on k = s t points (index x = b t + c).

    d = 0 on the diagonal, r within a cluster, 1 across clusters. It is the path metric of a tree:
    every point hangs at length r/2 below its cluster's hub, every hub at length (1 - r)/2 below a root.

    References: 002_1def8c9789d6e1bd.txt, Section 6.2.
    """

    s: int
    t: int
    r: sympy.Expr

    def __post_init__(self) -> None:
        s = require_int("s", self.s, minimum=1, maximum=MAX_CLUSTER_SIZE)
        t = require_int("t", self.t, minimum=1, maximum=MAX_CLUSTER_SIZE)
        if s * t < 2:
            raise InvalidParameterError(f"t must make s * t >= 2 points. Got s = {s}, t = {t}")
        object.__setattr__(self, "s", s)
        object.__setattr__(self, "t", t)
        object.__setattr__(self, "r", _require_r(self.r))

    @property
    def k(self) -> int:
        """The number of points, s t."""
        return self.s * self.t

    def index(self, b: int, c: int) -> int:
        """The index b t + c of point (b, c)."""
        if not (0 <= b < self.s and 0 <= c < self.t):
            raise InvalidParameterError(f"(b, c) must lie in [0, {self.s}) x [0, {self.t}). Got ({b}, {c})")
        return b * self.t + c

    def cell(self, x: int) -> tuple[int, int]:
        """The point (b, c) with index x."""
        self._require_point(x)
        return divmod(x, self.t)

    def _require_point(self, x: object) -> None:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x < self.k:
            raise InvalidParameterError(f"x must be a point index in 0..{self.k - 1}. Got {x!r}")

    def distance(self, x: int, y: int) -> sympy.Expr:
        """d(x, y): 0, r (same cluster) or 1 (different clusters), exactly."""
        self._require_point(x)
        self._require_point(y)
        if x == y:
            return sympy.Integer(0)
        return self.r if x // self.t == y // self.t else sympy.Integer(1)

    @cached_property
    def matrix(self) -> sympy.ImmutableMatrix:
        """The exact k x k distance matrix."""
        return sympy.ImmutableMatrix([[self.distance(x, y) for y in range(self.k)] for x in range(self.k)])

    def float_matrix(self) -> np.ndarray:
        """The distance matrix as floats (for the transportation LP)."""
        return np.array(self.matrix.evalf(17).tolist(), dtype=float)

    @property
    def relation(self) -> Metric:
        """Metric DP w.r.t. this metric: ratio <= exp(eps d(x, x'))."""
        return Metric(self.distance, f"clustered metric B x C (s={self.s}, t={self.t}, r={self.r})")

    @cached_property
    def cluster_sums(self) -> sympy.ImmutableMatrix:
        """P = I_B (x) 1_C, the k x s matrix with vP[b] = sum_c v[(b, c)] (Theorem 6.5)."""
        return sympy.ImmutableMatrix(sympy.kronecker_product(sympy.eye(self.s), sympy.ones(self.t, 1)))

    def kantorovich_rubinstein_norm(self, v: object) -> np.ndarray | float:
        """The transport cost of a signed vector of total mass 0 (rows of a batch), in closed form.

        On a tree, the optimal transport moves across each edge exactly the mass below it:
        ||v||_KR = (r/2) sum_x |v[x]| + ((1 - r)/2) sum_b |sum_c v[(b, c)]|. So d_EM(P, Q) = ||P - Q||_KR.

        References: Evans and Matsen, "The phylogenetic Kantorovich-Rubinstein metric" (JRSS B, 2012),
        eq. (5); 002_1def8c9789d6e1bd.txt, Appendix D.2 bounds the same cost by r ||v||_1 + ||vP||_1.
        """
        values = np.asarray(v, dtype=float)
        if values.shape[-1:] != (self.k,):
            raise InvalidParameterError(f"v must end with an axis of length {self.k}. Got shape {values.shape}")
        total, scale = values.sum(axis=-1), np.abs(values).sum(axis=-1)
        if np.any(np.abs(total) > 1e-9 * np.maximum(1.0, scale)):
            raise InvalidParameterError(f"v must have total mass 0. Got totals {total!r}")
        r = float(self.r)
        per_cluster = values.reshape(values.shape[:-1] + (self.s, self.t)).sum(axis=-1)
        return r / 2 * np.abs(values).sum(axis=-1) + (1 - r) / 2 * np.abs(per_cluster).sum(axis=-1)


def clustered_matrix(a: sympy.Expr, b: sympy.Expr, c: sympy.Expr, s: int, t: int) -> sympy.ImmutableMatrix:
    """a I_X + (b I_B + c J_B) (x) J_C, with J an all-ones matrix (the paper writes 1_B, 1_C).

    Entry (x, y) is a + b + c on the diagonal, b + c within a cluster and c across clusters.
    """
    block = b * sympy.eye(s) + c * sympy.ones(s, s)
    return sympy.ImmutableMatrix(a * sympy.eye(s * t) + sympy.kronecker_product(block, sympy.ones(t, t)))


def gkrr_coefficients(e_same: sympy.Expr, e_cluster: sympy.Expr, s: int, t: int) -> tuple[sympy.Expr, ...]:
    """(a, b, c) with A = a I_X + (b I_B + c J_B) (x) J_C, for e_same = e^alpha0, e_cluster = e^((1-r) alpha0).

    With Z = e_same + (t - 1) e_cluster + (s - 1) t: a = (e_same - e_cluster)/Z, b = (e_cluster - 1)/Z, c = 1/Z.

    References: 002_1def8c9789d6e1bd.txt, Appendix D.3 (proof of Theorem 6.6).
    """
    z = e_same + (t - 1) * e_cluster + (s - 1) * t
    return (e_same - e_cluster) / z, (e_cluster - 1) / z, 1 / z


def gkrr_inverse_coefficients(e_same: sympy.Expr, e_cluster: sympy.Expr, s: int,
                              t: int) -> tuple[sympy.Expr, ...]:
    """(a', b', c') with A^{-1} = a' I_X + (b' I_B + c' J_B) (x) J_C.

    With Z as in :func:`gkrr_coefficients` and Z' = e_same + (t - 1) e_cluster - t:
    a' = Z / (e_same - e_cluster), b' = -(e_cluster - 1) Z / ((e_same - e_cluster) Z'), c' = -1/Z';
    they satisfy a' + t b' + s t c' = 1.

    References: 002_1def8c9789d6e1bd.txt, Appendix D.3 (proof of Theorem 6.6).
    """
    z = e_same + (t - 1) * e_cluster + (s - 1) * t
    z_prime = e_same + (t - 1) * e_cluster - t
    gap = e_same - e_cluster
    return z / gap, -(e_cluster - 1) * z / (gap * z_prime), -1 / z_prime


@dataclass(frozen=True)
class GeneralizedKRR(FiniteMechanism):
    """GKRR_alpha0: generalized k-ary randomized response on the clustered metric B x C.

    P(y | x) = exp(alpha0 (1 - d(x, y))) / Z with Z = e^alpha0 + (t - 1) e^((1-r) alpha0) + (s - 1) t:
    the true point is weighted e^alpha0, the t - 1 other points of its cluster e^((1-r) alpha0), every
    point of another cluster 1. Inputs and outputs are the indices 0..st-1 (point (b, c) is b t + c).
    The transition matrix is A = a I_X + (b I_B + c J_B) (x) J_C (:meth:`transition_matrix`) and its
    inverse has the same shape (:meth:`inverse_matrix`); FreqEstLocal uses B = A^{-1}.

    Why it is private: P(y|x) / P(y|x') = exp(alpha0 (d(x', y) - d(x, y))) <= exp(alpha0 d(x, x')) by the
    triangle inequality, so it is alpha0-metric-DP, with equality at y = x (tight).

    References: 002_1def8c9789d6e1bd.txt, Section 6.2 (definition of GKRR) and Appendix D.3 (A and A^{-1});
    Kairouz, Bonawitz, Ramage (ICML 2016) for k-RR.
    """

    name: ClassVar[str] = "gkrr"
    size_parameters: ClassVar[tuple[str, ...]] = ("s", "t")
    alpha0: sympy.Expr
    s: int
    t: int
    r: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "alpha0", require_eps("alpha0", self.alpha0))
        metric = ClusteredMetric(self.s, self.t, self.r)
        for field in ("s", "t", "r"):
            object.__setattr__(self, field, getattr(metric, field))

    @cached_property
    def metric(self) -> ClusteredMetric:
        """The clustered metric the mechanism is private for."""
        return ClusteredMetric(self.s, self.t, self.r)

    @property
    def neighbours(self) -> Metric:
        return self.metric.relation

    def require_enumerable(self) -> None:
        if self.metric.k > MAX_ENUMERATED_POINTS:
            raise InvalidParameterError(
                f"s and t must have s * t <= {MAX_ENUMERATED_POINTS} to enumerate the channel of gkrr. "
                f"Got s = {self.s}, t = {self.t}")

    def validate_input(self, x: int) -> None:
        require_index(x, 0, self.metric.k - 1)

    def inputs(self) -> tuple[int, ...]:
        self.require_enumerable()
        return tuple(range(self.metric.k))

    def outputs(self) -> tuple[int, ...]:
        self.require_enumerable()
        return tuple(range(self.metric.k))

    @cached_property
    def weights(self) -> tuple[sympy.Expr, sympy.Expr]:
        """(e^alpha0, e^((1-r) alpha0)): the unnormalised weights of the true point and of its cluster mates."""
        return sympy.exp(self.alpha0), sympy.exp((1 - self.r) * self.alpha0)

    @cached_property
    def normaliser(self) -> sympy.Expr:
        """Z = e^alpha0 + (t - 1) e^((1-r) alpha0) + (s - 1) t."""
        e_same, e_cluster = self.weights
        return e_same + (self.t - 1) * e_cluster + (self.s - 1) * self.t

    def pmf(self, x: int) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        self.require_enumerable()
        e_same, e_cluster = self.weights
        weight = {sympy.Integer(0): e_same, self.r: e_cluster, sympy.Integer(1): sympy.Integer(1)}
        return {y: weight[self.metric.distance(x, y)] / self.normaliser for y in self.outputs()}

    @cached_property
    def coefficients(self) -> tuple[sympy.Expr, ...]:
        """(a, b, c) of A = a I_X + (b I_B + c J_B) (x) J_C (Appendix D.3)."""
        return gkrr_coefficients(*self.weights, self.s, self.t)

    @cached_property
    def inverse_coefficients(self) -> tuple[sympy.Expr, ...]:
        """(a', b', c') of A^{-1} = a' I_X + (b' I_B + c' J_B) (x) J_C (Appendix D.3)."""
        return gkrr_inverse_coefficients(*self.weights, self.s, self.t)

    @cached_property
    def transition_matrix(self) -> sympy.ImmutableMatrix:
        """A[x, y] = P(y | x), built from (a, b, c) (002_1def8c9789d6e1bd.txt, Appendix D.3)."""
        return clustered_matrix(*self.coefficients, self.s, self.t)

    @cached_property
    def inverse_matrix(self) -> sympy.ImmutableMatrix:
        """A^{-1}, built from the paper's (a', b', c'): the estimator B of FreqEstLocal on B x C.

        References: 002_1def8c9789d6e1bd.txt, Section 6.2 (Theorem 6.6) and Appendix D.3.
        """
        return clustered_matrix(*self.inverse_coefficients, self.s, self.t)

    def float_transition_matrix(self) -> np.ndarray:
        """A as floats, every row renormalised to sum to 1 (for sampling)."""
        matrix = np.array(self.transition_matrix.evalf(20).tolist(), dtype=float)
        return matrix / matrix.sum(axis=1, keepdims=True)

    def float_inverse_matrix(self) -> np.ndarray:
        """A^{-1} as floats (the estimator matrix B of FreqEstLocal)."""
        return np.array(self.inverse_matrix.evalf(20).tolist(), dtype=float)
