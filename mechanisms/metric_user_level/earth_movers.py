"""Earth mover's distance d_EM (1-Wasserstein) on a finite metric space, for distributions and datasets.

- :func:`earth_movers_distance`: d_EM(P, Q) = min over couplings C of P and Q of sum_{x, x'} C(x, x') d(x, x'),
  the transportation linear program, solved with HiGHS (floats).
- :func:`kantorovich_rubinstein_norm`: the same cost for a signed vector v of total mass 0 (a signed estimate
  minus a histogram): transport the positive part of v onto its negative part.
- :func:`matching_distance` / :func:`exact_matching_distance`: for two datasets of equal size m, the
  Birkhoff-von Neumann form d_EM = min over permutations pi of (1/m) sum_i d(x_i, y_pi(i)), by the
  Hungarian method (scipy's for floats; an exact one over Fractions or sympy numbers).
- :func:`exact_earth_movers_distance`: d_EM of two rational distributions, exactly, by expanding both to
  datasets of the common denominator's size and matching them exactly.

References: 002_1def8c9789d6e1bd.txt (Imola, Roy Chowdhury, Chaudhuri, "Metric Differential Privacy at the
User-Level"), Definition 2.4 and Lemma 2.1; Villani, "Optimal Transport" (2009), Remark 6.5 (Kantorovich-
Rubinstein duality).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction

import numpy as np
import scipy.optimize
import scipy.sparse
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, to_exact

__all__ = [
    "MAX_EXACT_MATCHING",
    "earth_movers_distance",
    "exact_earth_movers_distance",
    "exact_matching_distance",
    "histogram",
    "kantorovich_rubinstein_norm",
    "matching_distance",
]

MAX_EXACT_MATCHING = 400
"""The largest dataset size the exact Hungarian method accepts (it costs O(m^3) exact operations)."""

_TOLERANCE = 1e-9
"""Float inputs: how far a distribution's total may be from 1 (and a signed vector's from 0)."""


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------

def _metric_matrix(metric: object) -> np.ndarray:
    """A float k x k distance matrix: finite, >= 0, zero diagonal, symmetric."""
    try:
        matrix = np.asarray(metric, dtype=float)
    except (TypeError, ValueError) as error:
        raise InvalidParameterError(f"metric must be a square matrix of numbers. Got {metric!r}") from error
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] == 0:
        raise InvalidParameterError(f"metric must be a non-empty square matrix. Got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
        raise InvalidParameterError("metric must have finite entries >= 0")
    if np.any(np.diag(matrix) != 0):
        raise InvalidParameterError("metric must have a zero diagonal")
    if not np.allclose(matrix, matrix.T, rtol=0, atol=_TOLERANCE * max(1.0, float(matrix.max()))):
        raise InvalidParameterError("metric must be symmetric")
    return matrix


def _vector(name: str, values: object, k: int) -> np.ndarray:
    try:
        vector = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise InvalidParameterError(f"{name} must be a vector of numbers. Got {values!r}") from error
    if vector.shape != (k,):
        raise InvalidParameterError(f"{name} must have one entry per point of the metric ({k}). "
                                    f"Got shape {vector.shape}")
    if not np.all(np.isfinite(vector)):
        raise InvalidParameterError(f"{name} must have finite entries")
    return vector


def _distribution(name: str, values: object, k: int) -> np.ndarray:
    vector = _vector(name, values, k)
    if np.any(vector < 0):
        raise InvalidParameterError(f"{name} must have entries >= 0. Got min {vector.min()}")
    if abs(vector.sum() - 1) > _TOLERANCE:
        raise InvalidParameterError(f"{name} must sum to 1. Got {vector.sum()!r}")
    return vector


def histogram(items: Sequence[int], k: int) -> tuple[int, ...]:
    """The count vector of a dataset (a multiset of items 0..k-1): entry x is the number of copies of x."""
    values = np.asarray(items)
    if values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iu":
        raise InvalidParameterError(f"items must be a non-empty list of integers. Got {items!r}")
    if values.min() < 0 or values.max() >= k:
        raise InvalidParameterError(f"items must lie in 0..{k - 1}. Got {items!r}")
    return tuple(int(c) for c in np.bincount(values, minlength=k))


# ---------------------------------------------------------------------------------------------
# Floats: the transportation linear program
# ---------------------------------------------------------------------------------------------

def _transport_cost(supply: np.ndarray, demand: np.ndarray, cost: np.ndarray) -> float:
    """min sum C * cost over C >= 0 with row sums ``supply`` and column sums ``demand`` (HiGHS).

    The last column constraint is implied by the others (both sides have the same total) and is
    dropped, so float rounding in the totals cannot make the program infeasible.
    """
    rows, columns = len(supply), len(demand)
    row_sums = scipy.sparse.kron(scipy.sparse.eye(rows), np.ones((1, columns)))
    column_sums = scipy.sparse.kron(np.ones((1, rows)), scipy.sparse.eye(columns))
    constraints = scipy.sparse.vstack([row_sums, column_sums.tocsr()[:-1]]).tocsc()
    result = scipy.optimize.linprog(cost.ravel(), A_eq=constraints, b_eq=np.concatenate([supply, demand[:-1]]),
                                    bounds=(0, None), method="highs")
    if result.status != 0:  # a validated transportation problem is always feasible and bounded
        raise ArithmeticError(f"the transportation LP failed: {result.message}")
    return max(0.0, float(result.fun))


def earth_movers_distance(p: object, q: object, metric: object) -> float:
    """d_EM(P, Q) = min over couplings C of P and Q of sum C(x, x') d(x, x') (float, HiGHS).

    Args:
        p, q: distributions on the k points of the metric (entries >= 0 summing to 1).
        metric: the k x k distance matrix d.

    References: 002_1def8c9789d6e1bd.txt, Definition 2.4 and the definition of d_EM after it.
    """
    matrix = _metric_matrix(metric)
    k = matrix.shape[0]
    return _transport_cost(_distribution("p", p, k), _distribution("q", q, k), matrix)


def kantorovich_rubinstein_norm(v: object, metric: object) -> float:
    """||v||_KR = min cost of transporting v's positive part onto its negative part (v of total mass 0).

    For a metric d this is the min-cost flow norm, and ||P - Q||_KR = d_EM(P, Q); it is how the error
    d_EM(F~, K~) of a signed estimate F~ is measured (specs/imola_metric_dp_user_level.md section 8, A21).
    The program runs on the supports of the two parts only.
    """
    matrix = _metric_matrix(metric)
    vector = _vector("v", v, matrix.shape[0])
    scale = float(np.abs(vector).sum())
    if abs(vector.sum()) > _TOLERANCE * max(1.0, scale):
        raise InvalidParameterError(f"v must have total mass 0. Got {vector.sum()!r}")
    sources, sinks = np.nonzero(vector > 0)[0], np.nonzero(vector < 0)[0]
    if sources.size == 0 or sinks.size == 0:
        return 0.0
    return _transport_cost(vector[sources], -vector[sinks], matrix[np.ix_(sources, sinks)])


def _dataset_pair(xs: object, ys: object) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(xs), np.asarray(ys)
    for name, values in (("xs", a), ("ys", b)):
        if values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iu":
            raise InvalidParameterError(f"{name} must be a non-empty list of item indices. Got {values!r}")
    if a.size != b.size:
        raise InvalidParameterError(f"ys must have as many items as xs ({a.size}). Got {b.size}")
    return a, b


def matching_distance(xs: object, ys: object, metric: object) -> float:
    """d_EM of two equal-size datasets = min over permutations pi of (1/m) sum_i d(x_i, y_pi(i)) (floats).

    Items are indices into ``metric``; scipy's ``linear_sum_assignment`` finds the optimal matching.

    References: 002_1def8c9789d6e1bd.txt, Lemma 2.1 (Birkhoff-von Neumann), eq. (3).
    """
    matrix = _metric_matrix(metric)
    a, b = _dataset_pair(xs, ys)
    if min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= matrix.shape[0]:
        raise InvalidParameterError(f"xs and ys must hold item indices in 0..{matrix.shape[0] - 1}")
    cost = matrix[np.ix_(a, b)]
    rows, columns = scipy.optimize.linear_sum_assignment(cost)
    return float(cost[rows, columns].sum()) / a.size


# ---------------------------------------------------------------------------------------------
# Exact: the Hungarian method over an ordered field
# ---------------------------------------------------------------------------------------------

def _less(a: object, b: object) -> bool:
    if b is None:  # None stands for +infinity
        return a is not None
    if a is None:
        return False
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a < b
    return exact_sign(sympy.sympify(a) - sympy.sympify(b)) < 0


def _exact_assignment(cost: list[list[object]]) -> list[int]:
    """An optimal permutation for the square ``cost`` matrix: row i goes to column result[i].

    The Hungarian method with potentials (Kuhn 1955; Munkres 1957), O(m^3) exact additions and
    comparisons; every number stays exact, so the optimum is exact.
    """
    m = len(cost)
    zero = Fraction(0) if isinstance(cost[0][0], Fraction) else sympy.Integer(0)
    u, v = [zero] * (m + 1), [zero] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)  # owner[j]: row matched to column j (1-based, 0 = none)
    for i in range(1, m + 1):
        owner[0], j0 = i, 0
        slack: list[object] = [None] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], None, 0
            for j in range(1, m + 1):
                if used[j]:
                    continue
                reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                if _less(reduced, slack[j]):
                    slack[j], way[j] = reduced, j0
                if _less(slack[j], delta):
                    delta, j1 = slack[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] = slack[j] - delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    assignment = [0] * m
    for j in range(1, m + 1):
        assignment[owner[j] - 1] = j - 1
    return assignment


def exact_matching_distance(xs: Sequence[Hashable], ys: Sequence[Hashable],
                            distance: Callable[[Hashable, Hashable], object]) -> sympy.Expr:
    """d_EM of two datasets of equal size m, exactly: min over pi of (1/m) sum_i d(x_i, y_pi(i)).

    Args:
        xs, ys: the two datasets (sequences of items, any order).
        distance: d(x, y) as an exact number (e.g. a :class:`~dpcert.mechanisms.neighbours.Metric`'s ``distance``).

    References: 002_1def8c9789d6e1bd.txt, Lemma 2.1 (Birkhoff-von Neumann), eq. (3).
    """
    if isinstance(xs, (str, bytes)) or isinstance(ys, (str, bytes)) or len(xs) == 0:
        raise InvalidParameterError(f"xs must be a non-empty sequence of items. Got {xs!r}")
    if len(ys) != len(xs):
        raise InvalidParameterError(f"ys must have as many items as xs ({len(xs)}). Got {len(ys)}")
    if len(xs) > MAX_EXACT_MATCHING:
        raise InvalidParameterError(f"xs may hold at most {MAX_EXACT_MATCHING} items for an exact matching. "
                                    f"Got {len(xs)}")
    table: dict[tuple[Hashable, Hashable], object] = {}
    for a in set(xs):
        for b in set(ys):
            value = to_exact("distance", distance(a, b))
            if exact_sign(value) < 0:
                raise InvalidParameterError(f"distance must be >= 0. Got d({a!r}, {b!r}) = {value}")
            table[(a, b)] = value
    if all(value.is_Rational for value in table.values()):  # Fractions: fast exact arithmetic
        table = {key: Fraction(int(value.p), int(value.q)) for key, value in table.items()}
    cost = [[table[(a, b)] for b in ys] for a in xs]
    assignment = _exact_assignment(cost)
    total = sum((sympy.sympify(cost[i][j]) for i, j in enumerate(assignment)), sympy.Integer(0))
    return total / len(xs)


def exact_earth_movers_distance(p: Sequence[object], q: Sequence[object],
                                distance: Callable[[int, int], object]) -> sympy.Expr:
    """d_EM(P, Q) exactly, for distributions with rational probabilities on the points 0..k-1.

    With N the common denominator, P and Q are the normalised histograms of two datasets of size N
    (N P(x) and N Q(x) copies of x), so d_EM(P, Q) is their exact matching distance (Lemma 2.1).

    References: 002_1def8c9789d6e1bd.txt, Lemma 2.1.
    """
    if len(p) != len(q) or len(p) == 0:
        raise InvalidParameterError(f"q must have as many entries as p ({len(p)}). Got {len(q)}")
    exact = {}
    for name, values in (("p", p), ("q", q)):
        entries = [to_exact(f"{name}[{i}]", v) for i, v in enumerate(values)]
        if not all(e.is_Rational and e >= 0 for e in entries) or sum(entries) != 1:
            raise InvalidParameterError(f"{name} must hold rational probabilities >= 0 summing exactly to 1")
        exact[name] = entries
    size = math.lcm(*(int(e.q) for e in exact["p"] + exact["q"]))
    if size > MAX_EXACT_MATCHING:
        raise InvalidParameterError(f"p and q must have a common denominator <= {MAX_EXACT_MATCHING} for an exact "
                                    f"d_EM. Got {size}")
    xs, ys = ([x for x, e in enumerate(exact[name]) for _ in range(int(e * size))] for name in ("p", "q"))
    return exact_matching_distance(xs, ys, distance)
