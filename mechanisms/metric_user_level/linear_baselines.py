"""Duchi, Jordan and Wainwright's l2 sampling randomizer: the local user-level baseline of Lemma 6.1.

User i holds a dataset K_i over k values and the query is q(K~_i) = M K~_i with M = F Phi (d x k, column x
the query value a_x of value x). Every q(K~_i) lies in the l2 ball of radius R = ||M||_{1->2} = max_x ||a_x||_2
(a convex combination of the columns). The user releases one point Z_i on the sphere of radius

    B = R coth(eps/2) sqrt(pi) Gamma((d+1)/2) / Gamma(d/2):

with v = q(K~_i), X = R v/||v|| with probability 1/2 + ||v||/(2R), else -R v/||v|| (E[X] = v); then Z is
uniform on the half of the sphere {<z, X> > 0} with probability pi_eps = e^eps/(1 + e^eps), else on the other
half. Since E[U | <U, u> > 0] = E|U_1| u = Gamma(d/2)/(sqrt(pi) Gamma((d+1)/2)) u for U uniform on the unit
sphere, E[Z] = v. The aggregator averages: q^ = (1/n) sum_i Z_i.

Why it is eps-user-level DP: relative to the uniform measure on the sphere of radius B, Z's density is
2 (P(X = x+) h(z, x+) + P(X = x-) h(z, x-)) with h = pi_eps or 1 - pi_eps, so it lies in
[2 (1 - pi_eps), 2 pi_eps] for every input; any two inputs' densities differ by at most the factor
pi_eps/(1 - pi_eps) = e^eps. Each user releases once, so this holds for every pair of datasets (any sizes).

References: Duchi, Jordan, Wainwright, "Local privacy, data processing inequalities, and minimax rates"
(arXiv 1302.3203, 2013), Section 4.2.3, and "Minimax optimal procedures for locally private estimation"
(JASA 2018); 002_1def8c9789d6e1bd.txt, Lemma 6.1 and Section 6.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.exact_arithmetic import exact_max, exact_sign
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, to_exact

__all__ = ["DuchiLinearQuery"]


@dataclass(frozen=True)
class DuchiLinearQuery(Mechanism):
    """One eps-LDP release per user of the linear query q(K~) = M K~ (Lemma 6.1's baseline).

    Args:
        query: M = F Phi as a list of d rows of k exact entries (d >= 2; some column non-zero).
        eps: each user's eps.

    :meth:`randomize` maps query values (N x d) to releases, :meth:`sample` draws releases for one user's
    dataset, :meth:`estimate` averages one release per user, :meth:`density` is the exact density of a
    release relative to the uniform measure on the sphere of radius B (:attr:`release_norm`).

    References: Duchi, Jordan, Wainwright (2013), Section 4.2.3; 002_1def8c9789d6e1bd.txt, Lemma 6.1.
    """

    name: ClassVar[str] = "duchi-linear-query"
    query: tuple[tuple[sympy.Expr, ...], ...]
    eps: sympy.Expr

    def __post_init__(self) -> None:
        if isinstance(self.query, (str, bytes)) or not isinstance(self.query, (Sequence, np.ndarray)) \
                or len(self.query) < 2 or any(len(row) != len(self.query[0]) for row in self.query) \
                or len(self.query[0]) < 2:
            raise InvalidParameterError(f"query must be d >= 2 rows of k >= 2 numbers. Got {self.query!r}")
        rows = tuple(tuple(to_exact("query", v) for v in row) for row in self.query)
        object.__setattr__(self, "query", rows)
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        if self.radius == 0:
            raise InvalidParameterError("query must have a non-zero column. Got all zeros")

    @property
    def d(self) -> int:
        """The query's dimension."""
        return len(self.query)

    @property
    def k(self) -> int:
        """The number of values."""
        return len(self.query[0])

    @cached_property
    def radius(self) -> sympy.Expr:
        """R = ||M||_{1->2}, the largest l2 norm of a column (exact)."""
        return sympy.sqrt(exact_max(sum(row[x] ** 2 for row in self.query) for x in range(self.k)))

    @cached_property
    def keep_probability(self) -> sympy.Expr:
        """pi_eps = e^eps / (1 + e^eps)."""
        t = sympy.exp(self.eps)
        return t / (1 + t)

    @cached_property
    def release_norm(self) -> sympy.Expr:
        """B = R coth(eps/2) sqrt(pi) Gamma((d+1)/2) / Gamma(d/2): the norm of every release."""
        t = sympy.exp(self.eps)
        return (self.radius * (t + 1) / (t - 1) * sympy.sqrt(sympy.pi) * sympy.gamma(sympy.Rational(self.d + 1, 2))
                / sympy.gamma(sympy.Rational(self.d, 2)))

    @cached_property
    def _matrix(self) -> np.ndarray:
        return np.array([[float(v) for v in row] for row in self.query])

    def values(self, datasets: object) -> np.ndarray:
        """q(K~_i) for each row of an n x m integer array of values in 0..k-1 (n x d floats)."""
        array = np.asarray(datasets)
        if array.ndim == 1:
            array = array[None, :]
        if array.ndim != 2 or array.size == 0 or array.dtype.kind not in "iu" or array.min() < 0 \
                or array.max() >= self.k:
            raise InvalidParameterError(f"x must be datasets of item indices in 0..{self.k - 1}. Got {datasets!r}")
        histograms = np.stack([np.bincount(row, minlength=self.k) / row.size for row in array])
        return histograms @ self._matrix.T

    def randomize(self, v: object, rng: np.random.Generator) -> np.ndarray:
        """One release for each row of ``v`` (N x d query values of l2 norm <= R)."""
        values = np.atleast_2d(np.asarray(v, dtype=float))
        radius = float(self.radius)
        norms = np.linalg.norm(values, axis=1) if values.ndim == 2 else np.full(1, np.nan)
        if values.ndim != 2 or values.shape[1] != self.d or not np.all(np.isfinite(values)) \
                or np.any(norms > radius * (1 + 1e-12)):
            raise InvalidParameterError(f"v must be rows of {self.d} numbers of l2 norm <= R = {radius:.6g}")
        direction = np.where(norms[:, None] > 0, values / np.where(norms > 0, norms, 1.0)[:, None],
                             np.eye(1, self.d)[0])
        sign = np.where(rng.random(len(values)) < 0.5 + norms / (2 * radius), 1.0, -1.0)
        toward = direction * sign[:, None]
        gaussian = rng.standard_normal(values.shape)
        unit = gaussian / np.linalg.norm(gaussian, axis=1, keepdims=True)
        wanted = np.where(rng.random(len(values)) < float(self.keep_probability), 1.0, -1.0)
        side = np.where(np.sum(unit * toward, axis=1) > 0, 1.0, -1.0)
        unit *= (side * wanted)[:, None]
        return float(self.release_norm) * unit

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` releases (size x d) of the user holding dataset ``x`` (a sequence of values)."""
        size = check_size(size)
        value = self.values(np.asarray(x).reshape(1, -1))
        return self.randomize(np.repeat(value, size, axis=0), rng)

    def estimate(self, datasets: object, rng: np.random.Generator) -> np.ndarray:
        """q^ = the mean of one release per user (datasets: n x m values), and its target q = mean of q(K~_i)."""
        return self.randomize(self.values(datasets), rng).mean(axis=0)

    def density(self, z: Sequence[object], v: Sequence[object]) -> sympy.Expr:
        """The exact density of the release at direction z given the query value v (relative to uniform).

        2 (P(X = +) h(<z, v>) + P(X = -) h(-<z, v>)) with h(s) = pi_eps if s > 0, else 1 - pi_eps (for v = 0,
        X = +-R e_1 with probability 1/2 each). ``z`` and ``v`` are exact vectors; only z's direction matters.
        """
        point, value = [to_exact("z", c) for c in z], [to_exact("v", c) for c in v]
        if len(point) != self.d or len(value) != self.d:
            raise InvalidParameterError(f"z and v must have d = {self.d} coordinates")
        norm = sympy.sqrt(sum(c**2 for c in value))
        if exact_sign(norm - self.radius) > 0:
            raise InvalidParameterError(f"v must have l2 norm <= R = {self.radius}. Got {norm}")
        toward = value if norm != 0 else [sympy.Integer(1)] + [sympy.Integer(0)] * (self.d - 1)
        plus = sympy.Rational(1, 2) + norm / (2 * self.radius)
        inner = sum(a * b for a, b in zip(point, toward))
        pi = self.keep_probability

        def h(positive: bool) -> sympy.Expr:
            return pi if positive else 1 - pi

        return 2 * (plus * h(inner > 0) + (1 - plus) * h(inner < 0))

    @property
    def neighbours(self) -> AllPairs:
        return AllPairs()

