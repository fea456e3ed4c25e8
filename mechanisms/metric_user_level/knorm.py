"""Hardt and Talwar's K-norm mechanism: the central user-level linear-query baseline of Lemma 6.3.

A trusted server holds n users' datasets of m items each over k values (bounded user level: m and n are
public) and answers the linear query q = M K~_G, where M = F Phi is d x k with column a_x the query value of
value x and K~_G = (1/n) sum_i K~_i is the normalised histogram of all n m items.

Sensitivity polytope. Replacing user i's m items by m others moves q by (1/n) M (K~_i - K~'_i). Both
histograms lie in the simplex and every vertex e_x is an m-item histogram (all items equal to x), so the
set of moves has the convex hull

    K = D / n,   D = conv{a_x - a_y : x, y in 0..k-1},

for every m >= 1 (p - p' = sum_{x,y} p_x p'_y (e_x - e_y) writes every move as a convex combination of the
vertex moves). D is symmetric; it is a norm's unit ball when the differences a_x - a_y span R^d.

The mechanism releases q + W with density p(w) = (eps n)^d / (d! vol D) exp(-eps n ||w||_D), where
||v||_D = min{t >= 0 : v in t D} is D's gauge: W = (R / n) Z with R ~ Gamma(d + 1, scale 1/eps) and Z
uniform in D (the density of R Z at w integrates the Gamma density over r >= ||w||_D).

Why it is eps-DP: the log density ratio at z between neighbours with query values q, q' is
eps n (||z - q'||_D - ||z - q||_D) <= eps n ||q - q'||_D <= eps (triangle inequality; n (q - q') lies in
D); it equals eps on the ray z = q + t (q - q') for t >= 0 when n (q - q') is on D's boundary, which
happens for the user whose items all move from x to y with a_x - a_y a vertex of D.

Error: E||W||_2 = ((d + 1)/(eps n)) E_{Z ~ U(D)} ||Z||_2 <= d R_D / (eps n), since ||Z||_2 <= R_D ||Z||_D
with R_D = max_{x,y} ||a_x - a_y||_2 (D's circumradius about 0) and ||Z||_D ~ U^(1/d) has mean d/(d + 1).
As R_D <= 2 ||M||_{1->2}, this is at most 2 d ||M||_{1->2} / (eps n).

Exact norm. D's facets are taken from scipy's ConvexHull of the generators a_x - a_y (triangulated) and
certified exactly: every simplex S of vertices g_1..g_d gets its exact normal h (<h, g_i> = 1), checked
against every generator (<h, g> <= 1, so ||v||_D >= <h, v>), and the simplices must close up (every ridge
shared by two). ||v||_D is returned only with a certificate: a simplex with v = sum mu_i g_i, mu >= 0 exactly,
which gives ||v||_D <= sum mu_i = <h, v>.

References: Hardt and Talwar, "On the geometry of differential privacy" (STOC 2010), Theorem 4.3 (the K-norm
mechanism); 002_1def8c9789d6e1bd.txt, Lemma 6.3 and Table 2; specs/imola_metric_dp_user_level.md, 3.5-3.6.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import ClassVar

import numpy as np
import scipy.spatial
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.metric_user_level.central_laplace import replace_one_user
from dpcert.mechanisms.metric_user_level.user_datasets import user_datasets
from dpcert.mechanisms.neighbours import Adjacency
from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    require_eps,
    require_int,
    require_unit_interval,
    to_exact,
)

__all__ = ["KNormMechanism", "MAX_KNORM_DIMENSION", "MAX_KNORM_VALUES"]

MAX_KNORM_DIMENSION = 4
"""The largest query dimension d: the certified hull of the k (k - 1) generators stays small up to d = 4."""

MAX_KNORM_VALUES = 16
"""The largest number of values k: at most 240 generators, certified against every facet in well under a second."""


def _solve_inverse(rows: list[list[Fraction]]) -> tuple[list[list[Fraction]], Fraction] | None:
    """The exact inverse and determinant of a square matrix of Fractions (None if singular)."""
    size = len(rows)
    work = [list(row) + [Fraction(int(i == j)) for j in range(size)] for i, row in enumerate(rows)]
    det = Fraction(1)
    for col in range(size):
        pivot = next((r for r in range(col, size) if work[r][col] != 0), None)
        if pivot is None:
            return None
        if pivot != col:
            work[col], work[pivot] = work[pivot], work[col]
            det = -det
        lead = work[col][col]
        det *= lead
        work[col] = [v / lead for v in work[col]]
        for r in range(size):
            if r != col and work[r][col] != 0:
                factor = work[r][col]
                work[r] = [a - factor * b for a, b in zip(work[r], work[col])]
    return [row[size:] for row in work], det


def _exact_rank(vectors: Sequence[Sequence[Fraction]]) -> int:
    """The rank of a list of Fraction vectors (exact elimination)."""
    rows = [list(v) for v in vectors]
    rank, width = 0, len(rows[0]) if rows else 0
    for col in range(width):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][col] != 0), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(rank + 1, len(rows)):
            if rows[r][col] != 0:
                factor = rows[r][col] / rows[rank][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[rank])]
        rank += 1
    return rank


@dataclass(frozen=True)
class _CertifiedPolytope:
    """D = conv(generators) with its certified triangulated boundary (cones from 0 over the simplices)."""

    generators: tuple[tuple[Fraction, ...], ...]
    simplices: tuple[tuple[int, ...], ...]
    inverses: tuple[tuple[tuple[Fraction, ...], ...], ...]  # (G_S^T)^-1 per simplex: mu = inverse @ v
    normals: tuple[tuple[Fraction, ...], ...]  # h per simplex: <h, g_i> = 1 on the simplex, <= 1 on D
    cone_volumes: tuple[Fraction, ...]  # |det G_S| / d!

    @cached_property
    def float_inverses(self) -> np.ndarray:
        return np.array([[[float(v) for v in row] for row in inv] for inv in self.inverses])

    @cached_property
    def float_normals(self) -> np.ndarray:
        return np.array([[float(v) for v in h] for h in self.normals])


def _certify(generators: tuple[tuple[Fraction, ...], ...], d: int) -> _CertifiedPolytope:
    """Triangulate D's boundary with qhull and certify every simplex exactly (see the module docstring).

    qhull joggles the input ("QJ"), so every facet it returns is a simplex; a simplex whose exact vertices are
    affinely dependent (several generators on one face of a lattice polytope) is kept for the closure check and
    skipped otherwise. The exact cone volumes must add up to qhull's own (unjoggled) volume of D.
    """
    if d == 1:
        width = max(g[0] for g in generators)
        candidates = [(generators.index((width,)),), (generators.index((-width,)),)]
        reference = float(2 * width)
    else:
        points = np.array([[float(v) for v in g] for g in generators])
        candidates = [tuple(int(i) for i in s)
                      for s in scipy.spatial.ConvexHull(points, qhull_options="QJ").simplices]
        reference = float(scipy.spatial.ConvexHull(points).volume)
    kept, inverses, normals, volumes = [], [], [], []
    for simplex in candidates:
        transposed = [[generators[i][row] for i in simplex] for row in range(d)]  # columns g_i
        solved = _solve_inverse(transposed)
        if solved is None:
            continue
        inverse, det = solved
        kept.append(simplex)
        inverses.append(tuple(tuple(row) for row in inverse))
        normals.append(tuple(sum(inverse[r][c] for r in range(d)) for c in range(d)))  # h = inverse^T 1
        volumes.append(abs(det) / math.factorial(d))
    # exact validity: <h, g> <= 1 for every generator and every simplex's normal (integer arithmetic)
    scale = math.lcm(*(v.denominator for g in generators for v in g))
    scaled = np.array([[int(v * scale) for v in g] for g in generators], dtype=object)
    for normal in normals:
        denominator = math.lcm(*(v.denominator for v in normal))
        numerators = np.array([int(v * denominator) for v in normal], dtype=object)
        if max(scaled.dot(numerators)) > denominator * scale:
            raise ArithmeticError("a qhull facet is not a supporting hyperplane of D")
    # closure: every ridge (d - 1 vertices) of the triangulated boundary is shared by exactly two simplices
    ridges = Counter(frozenset(r) for s in candidates for r in combinations(s, d - 1))
    if any(count != 2 for count in ridges.values()):
        raise ArithmeticError("qhull's boundary triangulation of D is not closed")
    total = float(sum(volumes, Fraction(0)))
    if abs(total - reference) > 1e-9 * reference:
        raise ArithmeticError(f"the certified cones' volume {total} differs from qhull's volume {reference} of D")
    return _CertifiedPolytope(generators, tuple(kept), tuple(inverses), tuple(normals), tuple(volumes))


def _fraction(name: str, value: object) -> Fraction:
    """An exact rational coordinate (floats are read exactly as the binary number they hold)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise InvalidParameterError(f"{name} must have finite coordinates. Got {value!r}")
        return Fraction(float(value))
    expr = to_exact(name, value)
    if not expr.is_Rational:
        raise InvalidParameterError(f"{name} must have rational coordinates. Got {value!r}")
    return Fraction(int(expr.p), int(expr.q))


@dataclass(frozen=True)
class KNormMechanism(Mechanism):
    """The K-norm mechanism for q = M K~_G: eps-bounded user-level central DP (Lemma 6.3's baseline).

    Releases q + W, W with density (eps n)^d / (d! vol D) exp(-eps n ||w||_D), D = conv{a_x - a_y} the
    sensitivity polytope of one user's replacement scaled by n (module docstring); sampled as
    (Gamma(d + 1, 1/eps) / n) times a uniform point of D.

    Why it is private: the log density ratio between neighbours is eps n (||z - q'||_D - ||z - q||_D)
    <= eps n ||q - q'||_D <= eps by the triangle inequality, as n (q - q') lies in D.

    Args:
        query: M = F Phi as d rows of k exact rationals (1 <= d <= 4, 2 <= k <= 16); the differences of its
            columns must span R^d.
        eps: the user-level eps.

    :meth:`sample` draws releases for an n x m dataset (one row per user), :meth:`gauge` is the exact
    ||v||_D, :meth:`log_density_ratio` and :meth:`density` are exact, :meth:`error_bound` is d R_D/(eps n)
    and :meth:`expected_error_interval` a Monte Carlo interval for E||W||_2.

    References: Hardt and Talwar (STOC 2010), Theorem 4.3; 002_1def8c9789d6e1bd.txt, Lemma 6.3 and Table 2.
    """

    name: ClassVar[str] = "knorm-linear-query"
    query: tuple[tuple[sympy.Rational, ...], ...]
    eps: sympy.Expr

    def __post_init__(self) -> None:
        shape = (f"query must be d rows of k rational numbers with d in [1, {MAX_KNORM_DIMENSION}] and k in "
                 f"[2, {MAX_KNORM_VALUES}]")
        if isinstance(self.query, (str, bytes)) or not isinstance(self.query, (Sequence, np.ndarray)) \
                or not 1 <= len(self.query) <= MAX_KNORM_DIMENSION \
                or any(isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray))
                       for row in self.query) \
                or any(len(row) != len(self.query[0]) for row in self.query) \
                or not 2 <= len(self.query[0]) <= MAX_KNORM_VALUES:
            raise InvalidParameterError(f"{shape}. Got {self.query!r}")
        rows = tuple(tuple(to_exact("query", v) for v in row) for row in self.query)
        if not all(v.is_Rational for row in rows for v in row):
            raise InvalidParameterError(f"{shape}. Got an irrational entry in {self.query!r}")
        object.__setattr__(self, "query", rows)
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        if _exact_rank(self.generators) < self.d:
            raise InvalidParameterError(f"query's column differences a_x - a_y must span R^d (d = {self.d}): "
                                        "drop dependent rows. Got a lower-dimensional sensitivity polytope")
        try:
            self._polytope  # certify D now, so a query qhull cannot handle fails here, naming the parameter
        except (OverflowError, scipy.spatial.QhullError) as error:
            raise InvalidParameterError(f"{shape}, each within the float range qhull works in. Got {self.query!r} "
                                        f"({type(error).__name__})") from error

    @property
    def d(self) -> int:
        """The query's dimension."""
        return len(self.query)

    @property
    def k(self) -> int:
        """The number of values."""
        return len(self.query[0])

    @cached_property
    def columns(self) -> tuple[tuple[Fraction, ...], ...]:
        """The columns a_x of M, exactly."""
        return tuple(tuple(Fraction(int(row[x].p), int(row[x].q)) for row in self.query) for x in range(self.k))

    @cached_property
    def generators(self) -> tuple[tuple[Fraction, ...], ...]:
        """The distinct non-zero differences a_x - a_y (D is their convex hull), sorted."""
        found = {tuple(u - v for u, v in zip(a, b)) for a in self.columns for b in self.columns}
        return tuple(sorted(g for g in found if any(g)))

    @cached_property
    def _polytope(self) -> _CertifiedPolytope:
        return _certify(self.generators, self.d)

    @property
    def facet_normals(self) -> tuple[tuple[Fraction, ...], ...]:
        """The exact normals h of D's boundary simplices: D = {v : <h, v> <= 1 for every h}."""
        return self._polytope.normals

    @property
    def cone_volumes(self) -> tuple[Fraction, ...]:
        """vol of the cone from 0 over each boundary simplex (aligned with :attr:`facet_normals`), exactly."""
        return self._polytope.cone_volumes

    @cached_property
    def volume(self) -> Fraction:
        """vol(D), exactly: the sum of the cones from 0 over the boundary simplices, |det G_S| / d!."""
        return sum(self._polytope.cone_volumes, Fraction(0))

    @cached_property
    def circumradius(self) -> sympy.Expr:
        """R_D = max_{x,y} ||a_x - a_y||_2, exactly (the largest l2 norm of a point of D)."""
        square = max(sum(v * v for v in g) for g in self.generators)
        return sympy.sqrt(sympy.Rational(square.numerator, square.denominator))

    @cached_property
    def one_to_two_norm(self) -> sympy.Expr:
        """||M||_{1->2} = max_x ||a_x||_2, exactly."""
        square = max(sum(v * v for v in a) for a in self.columns)
        return sympy.sqrt(sympy.Rational(square.numerator, square.denominator))

    def _gauge(self, v: tuple[Fraction, ...]) -> Fraction:
        if not any(v):
            return Fraction(0)
        polytope = self._polytope
        mu = polytope.float_inverses @ np.array([float(c) for c in v])
        slack = 1e-9 * (1.0 + np.abs(mu).max(axis=1))
        order = np.argsort(-(polytope.float_normals @ np.array([float(c) for c in v])))
        likely = [int(i) for i in order if mu[i].min() >= -slack[i]]
        chosen = set(likely)
        for index in likely + [i for i in range(len(polytope.simplices)) if i not in chosen]:
            exact = [sum(a * b for a, b in zip(row, v)) for row in polytope.inverses[index]]
            if min(exact) >= 0:
                return sum(exact, Fraction(0))
        raise ArithmeticError(f"no boundary simplex of D certifies the gauge of {v}")

    def gauge(self, v: Sequence[object]) -> sympy.Rational:
        """||v||_D = min{t >= 0 : v in t D}, exactly, for an exact (or float, read exactly) vector ``v``.

        Certified: a boundary simplex S of D with v = sum_i mu_i g_i, mu >= 0, and normal h valid on D, so
        sum mu_i = <h, v> is both an upper and a lower bound.
        """
        point = self._point("v", v)
        value = self._gauge(point)
        return sympy.Rational(value.numerator, value.denominator)

    def _point(self, name: str, v: Sequence[object]) -> tuple[Fraction, ...]:
        if isinstance(v, (str, bytes)) or not isinstance(v, (Sequence, np.ndarray)) or len(v) != self.d:
            raise InvalidParameterError(f"{name} must be a vector of d = {self.d} numbers. Got {v!r}")
        return tuple(_fraction(name, c) for c in v)

    def datasets(self, x: object) -> np.ndarray:
        """``x`` validated as an n x m integer array of item indices in 0..k-1 (one row per user; n, m >= 1)."""
        return user_datasets(x, self.k)

    def _exact_value(self, x: object) -> tuple[Fraction, ...]:
        array = self.datasets(x)
        counts = np.bincount(array.ravel(), minlength=self.k)
        total = array.size
        return tuple(sum(Fraction(int(c), total) * a[j] for c, a in zip(counts, self.columns)) for j in range(self.d))

    def value(self, x: object) -> tuple[sympy.Rational, ...]:
        """q = M K~_G, exactly."""
        return tuple(sympy.Rational(v.numerator, v.denominator) for v in self._exact_value(x))

    def log_density_ratio(self, z: Sequence[object], x: object, x_prime: object) -> sympy.Expr:
        """ln(p_x(z) / p_x'(z)) = eps n (||z - q'||_D - ||z - q||_D), exactly (x, x' of the same n x m shape)."""
        n = self.datasets(x).shape[0]
        if self.datasets(x_prime).shape != self.datasets(x).shape:
            raise InvalidParameterError("x_prime must have the shape of x (bounded user level: n and m are public)")
        point = self._point("z", z)
        q, q_prime = self._exact_value(x), self._exact_value(x_prime)
        far = self._gauge(tuple(a - b for a, b in zip(point, q_prime)))
        near = self._gauge(tuple(a - b for a, b in zip(point, q)))
        return self.eps * n * sympy.Rational((far - near).numerator, (far - near).denominator)

    def density(self, z: Sequence[object], x: object) -> sympy.Expr:
        """p_x(z) = (eps n)^d / (d! vol D) exp(-eps n ||z - q||_D), exactly."""
        n = self.datasets(x).shape[0]
        point = self._point("z", z)
        distance = self._gauge(tuple(a - b for a, b in zip(point, self._exact_value(x))))
        rate = self.eps * n
        volume = sympy.Rational(self.volume.numerator, self.volume.denominator)
        return rate**self.d / (sympy.factorial(self.d) * volume) \
            * sympy.exp(-rate * sympy.Rational(distance.numerator, distance.denominator))

    def sample_uniform(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` points uniform in D (size x d), by rejection from D's bounding box.

        A box point is kept when <h, u> <= 1 for every certified facet normal h (float products: only points
        within about 1e-15 of D's boundary can be misjudged, a set of relative volume below 1e-13).
        """
        size = check_size(size)
        half = np.array([float(max(abs(g[j]) for g in self.generators)) for j in range(self.d)])
        accept = float(self.volume) / float(np.prod(2 * half))
        normals = self._polytope.float_normals
        kept: list[np.ndarray] = []
        remaining = size
        while remaining > 0:
            batch = int(math.ceil(1.2 * remaining / accept)) + 16
            box = rng.uniform(-half, half, size=(batch, self.d))
            inside = box[(box @ normals.T).max(axis=1) <= 1.0][:remaining]
            kept.append(inside)
            remaining -= len(inside)
        return np.concatenate(kept) if kept else np.empty((0, self.d))

    def noise(self, n: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of W = (R / n) Z, R ~ Gamma(d + 1, scale 1/eps), Z uniform in D (size x d)."""
        users = require_int("n", n, minimum=1)
        size = check_size(size)
        radius = rng.gamma(self.d + 1, 1.0 / float(self.eps), size=size)
        return self.sample_uniform(size, rng) * (radius / users)[:, None]

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` releases q + W (size x d floats) for the n x m dataset ``x``."""
        size = check_size(size)
        array = self.datasets(x)
        q = np.array([float(v) for v in self._exact_value(array)])
        return q + self.noise(array.shape[0], size, rng)

    def error_bound(self, n: object) -> sympy.Expr:
        """E||W||_2 <= d R_D / (eps n), exactly (<= 2 d ||M||_{1->2} / (eps n)); see the module docstring."""
        users = require_int("n", n, minimum=1)
        return self.d * self.circumradius / (self.eps * users)

    def expected_error_interval(self, n: object, rng: np.random.Generator, *, samples: int = 20_000,
                                failure: object = sympy.Rational(1, 10**6)) -> tuple[float, float]:
        """An interval holding E||W||_2 = ((d + 1)/(eps n)) E_{Z ~ U(D)} ||Z||_2 except with probability ``failure``.

        Hoeffding's inequality for the mean of ``samples`` values of ||Z||_2 in [0, R_D]: half-width
        R_D sqrt(ln(2/failure) / (2 samples)); the ends are widened by 1e-9 relative for float rounding.
        """
        users = require_int("n", n, minimum=1)
        count = require_int("samples", samples, minimum=2, maximum=10**7)
        beta = require_unit_interval("failure", failure)
        if beta == 0:
            raise InvalidParameterError("failure must be in (0, 1). Got 0")
        radius = float(self.circumradius)
        mean = float(np.linalg.norm(self.sample_uniform(count, rng), axis=1).mean())
        half = radius * math.sqrt(math.log(2 / float(beta)) / (2 * count))
        factor = (self.d + 1) / (float(self.eps) * users)
        low, high = max(mean - half, 0.0), min(mean + half, radius)
        return factor * low * (1 - 1e-9), factor * high * (1 + 1e-9)

    @property
    def neighbours(self) -> Adjacency:
        return Adjacency(replace_one_user, "n x m datasets differing in one user's items (bounded user level)")
