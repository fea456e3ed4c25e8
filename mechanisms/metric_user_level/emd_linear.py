"""PrivEMDLinear (Algorithm 1): a linear query of the normalised histogram plus K-norm (gamma x sphere) noise.

A linear query is q_f(K) = sum_x f(x) K~(x) = F K~ for a query matrix F whose column x is f(x) in R^d.
A dataset is given by its histogram (count vector over X = 0..k-1; see
:func:`~dpcert.mechanisms.metric_user_level.earth_movers.histogram` for an item list).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.exact_arithmetic import exact_max
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive, to_exact
from dpcert.mechanisms.metric_user_level.earth_movers import exact_earth_movers_distance

__all__ = ["NORMS", "PrivEMDLinear", "lipschitz_constant", "vector_norm"]

NORMS = ("l1", "l2", "linf")
"""The norms whose unit spheres PrivEMDLinear samples from."""


def vector_norm(v: Sequence[sympy.Expr], norm: str) -> sympy.Expr:
    """||v||_1 = sum |v_i|, ||v||_2 = sqrt(sum v_i^2) or ||v||_inf = max |v_i|, exactly."""
    if norm == "l1":
        return sympy.Add(*(abs(e) for e in v))
    if norm == "l2":
        return sympy.sqrt(sympy.Add(*(e**2 for e in v)))
    if norm == "linf":
        return exact_max([abs(e) for e in v])
    raise InvalidParameterError(f"norm must be one of {', '.join(NORMS)}. Got {norm!r}")


def _exact_matrix(name: str, rows: object) -> tuple[tuple[sympy.Expr, ...], ...]:
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (Sequence, np.ndarray, sympy.MatrixBase)):
        raise InvalidParameterError(f"{name} must be a matrix given as a list of rows. Got {rows!r}")
    matrix = [list(row) for row in (rows.tolist() if hasattr(rows, "tolist") else rows)]
    if not matrix or not matrix[0] or len({len(row) for row in matrix}) != 1:
        raise InvalidParameterError(f"{name} must be a non-empty matrix with rows of equal length")
    return tuple(tuple(to_exact(f"{name}[{i}][{j}]", v) for j, v in enumerate(row)) for i, row in enumerate(matrix))


def lipschitz_constant(F: object, distance: object, norm: str) -> sympy.Expr:
    """max over x != x' of ||f(x) - f(x')|| / d(x, x'), exactly; f(x) is column x of F.

    Floats select the pairs within 1e-9 (relative) of the largest ratio; those are compared exactly.

    References: 002_1def8c9789d6e1bd.txt, Section 4.1 (the Lipschitz condition of Theorem 4.1).
    """
    columns = list(zip(*_exact_matrix("F", F)))
    d = _exact_matrix("distance", distance)
    k = len(columns)
    if len(d) != k or len(d[0]) != k:
        raise InvalidParameterError(f"distance must be {k}x{k}, one row and column per column of F")
    if k < 2:
        raise InvalidParameterError("F must have at least two columns (points of X)")
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    order = {"l1": 1, "l2": 2, "linf": np.inf}
    if norm not in order:
        raise InvalidParameterError(f"norm must be one of {', '.join(NORMS)}. Got {norm!r}")
    floats = np.array([[float(e) for e in column] for column in columns])
    ratios = np.array([np.linalg.norm(floats[a] - floats[b], ord=order[norm]) / float(d[a][b]) for a, b in pairs])
    top = float(ratios.max())
    candidates = [pairs[i] for i in np.nonzero(ratios >= top * (1 - 1e-9) - 1e-300)[0]]
    return exact_max([vector_norm([x - y for x, y in zip(columns[a], columns[b])], norm) / d[a][b]
                       for a, b in candidates])


@dataclass(frozen=True)
class PrivEMDLinear(Mechanism):
    """PrivEMDLinear: q_f(K~) + ell g U with g ~ Gamma(shape d, scale omega), U uniform on the unit sphere.

    omega = 1/alpha in the local model and 1/(alpha n) in the central model (n users, each with a dataset
    of the same size). The noise ell g U has density proportional to exp(-||z|| / (ell omega)) (the
    Hardt-Talwar K-norm mechanism); for the l1 norm its coordinates are iid Laplace(ell omega).

    Why it is private: the density ratio at any output is exp((||z - q'|| - ||z - q||) / (ell omega)) <=
    exp(||q - q'|| / (ell omega)) by the triangle inequality, and ||q - q'|| <= ell d_EM(K~, K~') by
    Theorem 4.1 (ell bounds the Lipschitz constant of f). In the central model one user changes K~_G by
    at most d_EM(K~_i, K~'_i) / n in d_EM. Both give alpha-metric DP w.r.t. the relation in
    :attr:`neighbours`: d_EM(K~, K~') (local, any sizes: unbounded local d_EM-DP) or n d_EM(K~_G, K~'_G)
    (central, which bounds d_EM(K~_i, K~'_i) from below: bounded central d_EM-DP).

    Args:
        F: the d x k query matrix (column x is f(x)).
        distance: the k x k metric d_X on X.
        alpha: the d_EM-DP parameter alpha > 0.
        ell: the Lipschitz bound; default the exact Lipschitz constant of f, and never smaller.
        model: "local" or "central".
        n: the number of users (central model; 1 in the local model).
        norm: "l1", "l2" or "linf": the norm of the sensitivity and of the noise sphere.

    References: 002_1def8c9789d6e1bd.txt, Algorithm 1, Theorem 4.1 and Lemma 4.2 (Gamma(d, omega), the
    reading of specs/imola_metric_dp_user_level.md section 8, A2); Hardt and Talwar (STOC 2010).
    """

    name: ClassVar[str] = "priv-emd-linear"
    F: tuple[tuple[sympy.Expr, ...], ...]
    distance: tuple[tuple[sympy.Expr, ...], ...]
    alpha: sympy.Expr
    ell: sympy.Expr | None = None
    model: str = "local"
    n: int = 1
    norm: str = "l1"

    def __post_init__(self) -> None:
        F = _exact_matrix("F", self.F)
        object.__setattr__(self, "F", F)
        k = len(F[0])
        distance = _exact_matrix("distance", self.distance)
        Metric.from_matrix(range(k), distance)  # validates: k x k, zero diagonal, symmetric, > 0 off it
        object.__setattr__(self, "distance", distance)
        object.__setattr__(self, "alpha", require_positive("alpha", self.alpha))
        if self.norm not in NORMS:
            raise InvalidParameterError(f"norm must be one of {', '.join(NORMS)}. Got {self.norm!r}")
        if self.model not in ("local", "central"):
            raise InvalidParameterError(f"model must be 'local' or 'central'. Got {self.model!r}")
        n = require_int("n", self.n, minimum=1)
        if self.model == "local" and n != 1:
            raise InvalidParameterError(f"n must be 1 in the local model (one user per release). Got {n}")
        object.__setattr__(self, "n", n)
        lipschitz = lipschitz_constant(F, distance, self.norm)
        if self.ell is None and lipschitz == 0:
            raise InvalidParameterError("ell must be given (> 0) when f is constant (Lipschitz constant 0)")
        ell = lipschitz if self.ell is None else require_positive("ell", self.ell)
        if exact_sign(ell - lipschitz) < 0:
            raise InvalidParameterError(f"ell must be >= the Lipschitz constant {lipschitz} of f. Got {ell}")
        object.__setattr__(self, "ell", ell)

    @property
    def d(self) -> int:
        """The query dimension (rows of F)."""
        return len(self.F)

    @property
    def k(self) -> int:
        """The number of points of X (columns of F)."""
        return len(self.F[0])

    @property
    def omega(self) -> sympy.Expr:
        """The Gamma scale: 1/alpha (local) or 1/(alpha n) (central)."""
        return 1 / (self.alpha * self.n)

    def counts(self, x: object) -> tuple[int, ...]:
        """``x`` validated as a histogram: k counts >= 0, not all zero."""
        if isinstance(x, (str, bytes)) or not isinstance(x, (Sequence, np.ndarray)) or len(x) != self.k:
            raise InvalidParameterError(f"x must be a histogram with {self.k} counts. Got {x!r}")
        counts = tuple(require_int("x", c, minimum=0) for c in np.asarray(x).tolist())
        if sum(counts) == 0:
            raise InvalidParameterError("x must be a histogram of a non-empty dataset. Got all zeros")
        return counts

    def normalised(self, x: object) -> tuple[sympy.Expr, ...]:
        """K~ = counts / |K|, exactly."""
        counts = self.counts(x)
        total = sum(counts)
        return tuple(sympy.Rational(c, total) for c in counts)

    def query(self, x: object) -> tuple[sympy.Expr, ...]:
        """q_f(K~) = F K~, exactly."""
        weights = self.normalised(x)
        return tuple(sympy.Add(*(f * w for f, w in zip(row, weights))) for row in self.F)

    def earth_movers_distance(self, x: object, x_prime: object) -> sympy.Expr:
        """d_EM(K~, K~') of the normalised histograms, exactly."""
        return exact_earth_movers_distance(self.normalised(x), self.normalised(x_prime),
                                           lambda a, b: self.distance[a][b])

    @property
    def neighbours(self) -> Metric:
        if self.model == "local":
            return Metric(self.earth_movers_distance, "d_EM of normalised histograms, any sizes (Definition 3.1)")
        return Metric(lambda x, x_prime: self.n * self.earth_movers_distance(x, x_prime),
                      f"n d_EM(K~_G, K~'_G) with n = {self.n} users (implies Definition 3.2)")

    def worst_log_ratio(self, x: object, x_prime: object) -> sympy.Expr:
        """sup_z log(p(z | K) / p(z | K')) = ||q_f(K) - q_f(K')|| / (ell omega), exactly (attained on a ray)."""
        difference = [a - b for a, b in zip(self.query(x), self.query(x_prime))]
        return vector_norm(difference, self.norm) / (self.ell * self.omega)

    def noise(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of ell g U: a size x d float array."""
        size = check_size(size)
        radius = float(self.ell * self.omega) * rng.gamma(shape=self.d, scale=1.0, size=(size, 1))
        return radius * _unit_sphere(self.norm, self.d, size, rng)

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` releases q_f(K~) + ell g U on histogram ``x``: a size x d float array."""
        center = np.array([float(v) for v in self.query(x)])
        return center + self.noise(size, rng)

    def release_each(self, datasets: object, rng: np.random.Generator) -> np.ndarray:
        """One release per row of ``datasets`` (N x m item indices in 0..k-1): an N x d float array."""
        array = np.asarray(datasets)
        if array.ndim != 2 or array.shape[1] == 0 or array.dtype.kind not in "iu":
            raise InvalidParameterError(f"datasets must be an N x m array of item indices. Got shape {array.shape}")
        if array.size and (array.min() < 0 or array.max() >= self.k):
            raise InvalidParameterError(f"datasets must hold item indices in 0..{self.k - 1}")
        counts = np.zeros((array.shape[0], self.k))
        np.add.at(counts, (np.repeat(np.arange(array.shape[0]), array.shape[1]), array.ravel()), 1)
        queries = (counts / array.shape[1]) @ np.array(self.F, dtype=float).T
        return queries + self.noise(array.shape[0], rng)


def _unit_sphere(norm: str, d: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform (surface measure = cone measure) draws from {u : ||u|| = 1} for the l1, l2 or l_inf norm."""
    if norm == "l1":  # uniform on the simplex (Dirichlet(1, ..., 1)) with independent random signs
        return rng.dirichlet(np.ones(d), size) * rng.choice((-1.0, 1.0), size=(size, d))
    if norm == "l2":
        gaussian = rng.standard_normal((size, d))
        return gaussian / np.linalg.norm(gaussian, axis=1, keepdims=True)
    # l_inf: a face chosen uniformly (coordinate and sign), uniform on the face
    cube = rng.uniform(-1.0, 1.0, (size, d))
    face = rng.integers(0, d, size)
    cube[np.arange(size), face] = rng.choice((-1.0, 1.0), size)
    return cube
