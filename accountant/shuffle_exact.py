"""The exact (eps, delta) of shuffled randomized response at small n: the truth every bound must exceed.

Shuffling n reports from a finite alphabet releases exactly their histogram, so the shuffled output of
binary or k-ary randomized response is a count vector whose law is a convolution of the users'
categorical distributions. Its hockey-stick divergence is computed here directly (Dwork and Roth 2014,
Definition 2.4), and eps(delta) = min{eps >= 0 : sum_y max(P(y) - e^eps Q(y), 0) <= delta} over
both orders of the neighbouring pair.

Binary randomized response (worst case over the other users' data): with j of the other n - 1 users
holding 1, the count of reported ones is Z_j + Bern(p) against Z_j + Bern(q), where
Z_j = Bin(j, p) + Bin(n - 1 - j, q), p = e^eps0 / (e^eps0 + 1) and q = 1 - p. Mirroring the count
(k -> n - k) maps the pair for j to the reversed pair for n - 1 - j, so j <= (n - 1) / 2 with both orders
covers every dataset.

k-ary randomized response: the count vector is built user by user on the (k - 1)-dimensional grid of
counts (the last count is implied), on given datasets or, for the worst case, for every class of the other
users' data up to the symmetries of k-RR (:func:`exact_shuffled_krr_worst`, within
:data:`MAX_EXACT_KRR_WORK`).

**Rigour.** Probabilities are never rounded the wrong way: binomial pmfs are built from their ratio
recurrences (only +, -, *, / and one outward step per operation) and normalised with bounded sums;
convolutions of non-negative arrays carry Higham's gamma bound; every later operation steps outward
(see :mod:`dpcert.accountant.shuffle_intervals`). The result is an interval [lower, upper] that contains the
exact eps: ``lower`` is ln((P(S) - delta) / Q(S)) for an explicit event S with P(S) rounded down and
Q(S) up (any event gives a lower bound), and ``upper`` is a point at which the rounded-up hockey-stick
divergence is <= delta, or eps0 itself (the shuffled reports of an eps0-LDP randomizer are eps0-DP by
post-processing) where the floats cannot certify less: delta near the float underflow threshold, or
e^-eps0 near it (eps0 in the hundreds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.shuffle_common import (
    DELTA_MIN,
    EPS0_RANGE,
    SOURCES,
    interval_result,
    require_open_unit,
    validate_shuffle_inputs,
)
from dpcert.accountant.shuffle_intervals import (
    TINY,
    UNIT_ROUNDOFF,
    array_down,
    array_up,
    down,
    enclose,
    exp_enclosure,
    gamma,
    log_enclosure,
    sum_lower,
    sum_upper,
)
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive, to_exact
from dpcert.proofs.rounding import float_upper

__all__ = [
    "EpsilonEnclosure",
    "hockey_stick_epsilon",
    "binomial_pmf_enclosure",
    "exact_result",
    "binary_rr_enclosure",
    "exact_shuffled_rr",
    "exact_shuffled_rr_delta",
    "krr_pair_enclosure",
    "exact_shuffled_krr",
    "shuffled_krr_laws",
    "krr_cells_fit",
    "krr_worst_case_cost",
    "largest_krr_worst_case_n",
    "krr_worst_enclosure",
    "exact_shuffled_krr_worst",
    "exact_krr_limit_text",
    "MAX_EXACT_RR_N",
    "MAX_EXACT_KRR_CELLS",
    "MAX_EXACT_KRR_WORK",
]


MAX_EXACT_RR_N = 2000
"""Largest n for the worst-case exact truth of shuffled binary randomized response in the bound family."""

MAX_EXACT_KRR_CELLS = 2_000_000
"""Largest number of histogram cells, (n + 1)^(k - 1), for the k-RR exact computation."""

MAX_EXACT_KRR_WORK = 10_000_000
"""Largest (users added to a grid) x (grid cells) for the k-RR worst case over all datasets (a few seconds)."""

Enclosure = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class EpsilonEnclosure:
    """The exact eps of a pair lies in [lower, upper]; ``event`` attains the lower end."""

    lower: float
    upper: float
    event_size: int


# ---------------------------------------------------------------------------------------------
# Enclosures of pmfs
# ---------------------------------------------------------------------------------------------

def _cumulative_product(ratios_lo: np.ndarray, ratios_hi: np.ndarray) -> Enclosure:
    """Enclosures of the running products of positive ratios (each product a non-increasing run).

    A computed running product after k multiplications is within a factor (1 +- u)^k of the product of
    its (float) factors; (1 +- 2(k+1)u) covers that and the final scaling. Values that may have lost
    accuracy through underflow (< TINY) get the enclosure [0, 2 TINY]: the runs decrease, so every later
    exact product is smaller still.
    """
    k = np.arange(1, ratios_lo.size + 1, dtype=float)
    slack = 2.0 * (k + 1) * UNIT_ROUNDOFF
    lo = array_down(np.cumprod(ratios_lo) * (1.0 - slack))
    hi = array_up(np.cumprod(ratios_hi) * (1.0 + slack))
    small = hi < TINY
    lo[small | (lo < TINY)] = 0.0
    hi[small] = 2 * TINY
    return lo, hi


def binomial_pmf_enclosure(m: int, ratio: tuple[float, float]) -> Enclosure:
    """Enclosure of the Bin(m, p) pmf where ``ratio`` encloses p / (1 - p) (> 0).

    w(a) = C(m, a) ratio^a relative to the mode, from w(a) / w(a - 1) = (m - a + 1) / a * ratio, then
    divided by the enclosure of sum_a w(a).
    """
    if m == 0:
        return np.ones(1), np.ones(1)
    r_lo, r_hi = ratio
    mode = min(m, max(0, int(math.floor((m + 1) * r_lo / (1 + r_lo)))))
    w_lo, w_hi = np.empty(m + 1), np.empty(m + 1)
    w_lo[mode] = w_hi[mode] = 1.0
    if mode < m:
        i = np.arange(mode + 1, m + 1, dtype=float)
        frac = (m - i + 1) / i
        up_lo, up_hi = _cumulative_product(array_down(array_down(frac) * r_lo), array_up(array_up(frac) * r_hi))
        w_lo[mode + 1:], w_hi[mode + 1:] = up_lo, up_hi
    if mode > 0:
        i = np.arange(mode, 0, -1, dtype=float)
        frac = i / (m - i + 1)
        dn_lo, dn_hi = _cumulative_product(array_down(array_down(frac) / r_hi), array_up(array_up(frac) / r_lo))
        w_lo[mode - 1::-1], w_hi[mode - 1::-1] = dn_lo, dn_hi
    total_lo, total_hi = sum_lower(w_lo), sum_upper(w_hi)
    return np.maximum(array_down(w_lo / total_hi), 0.0), np.minimum(array_up(w_hi / total_lo), 1.0)


def _convolve(a: Enclosure, b: Enclosure) -> Enclosure:
    """Enclosure of the convolution of two non-negative arrays (numpy's direct method, any order)."""
    terms = min(a[0].size, b[0].size)
    lo = array_down(np.convolve(a[0], b[0]) * (1.0 - gamma(terms + 1)))
    hi = array_up(np.convolve(a[1], b[1]) * (1.0 + gamma(terms + 1)) + terms * 1e-307)  # underflowed products
    return np.maximum(lo, 0.0), np.minimum(hi, 1.0)


def _mix(x: tuple[float, float], a: Enclosure, y: tuple[float, float], b: Enclosure) -> Enclosure:
    """Enclosure of x * a + y * b for non-negative enclosures."""
    lo = array_down(array_down(x[0] * a[0]) + array_down(y[0] * b[0]))
    hi = array_up(array_up(x[1] * a[1]) + array_up(y[1] * b[1]))
    return np.maximum(lo, 0.0), np.minimum(hi, 1.0)


# ---------------------------------------------------------------------------------------------
# eps of a pair of enclosed distributions
# ---------------------------------------------------------------------------------------------

def _hockey_upper(P_hi: np.ndarray, Q_lo: np.ndarray, t_lo: float) -> float:
    """Upper bound on sum_y max(P(y) - t Q(y), 0) for every P <= P_hi, Q >= Q_lo, t >= t_lo."""
    terms = array_up(P_hi - array_down(t_lo * Q_lo))
    return sum_upper(np.maximum(terms, 0.0))


def hockey_stick_epsilon(P: Enclosure, Q: Enclosure, delta: tuple[float, float], *,
                         ceiling: float) -> EpsilonEnclosure:
    """Enclosure of eps(delta) = min{eps >= 0 : D_{e^eps}(P || Q) <= delta} for enclosed P and Q.

    The float midpoint ranks outputs by likelihood ratio; the best prefix event S gives
    ``lower`` = ln((P_lo(S) - delta_hi) / Q_hi(S)) rounded down (valid for any S), and ``upper`` is the
    first point of eps_hat (1 + 10^-12 8^i) at which the rounded-up divergence is <= delta_lo, or
    ``ceiling`` when none below it is found.

    Args:
        P, Q: enclosures of the two laws.
        delta: enclosure of delta.
        ceiling: a finite eps known to hold for the pair, e.g. eps0 rounded up for the shuffled reports of
            an eps0-LDP randomizer (post-processing). Where the floats cannot certify less (delta near the
            underflow threshold, e^-eps0 near it), the upper end is the ceiling.
    """
    if not math.isfinite(ceiling) or ceiling < 0:
        raise ValueError(f"ceiling must be a finite eps >= 0. Got {ceiling}")
    P_lo, P_hi = P
    Q_lo, Q_hi = Q
    d_lo, d_hi = delta
    P_mid, Q_mid = (P_lo + P_hi) / 2, (Q_lo + Q_hi) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(Q_mid > 0, P_mid / Q_mid, np.where(P_mid > 0, np.inf, 0.0))
    order = np.argsort(-ratio, kind="stable")
    cp, cq = np.cumsum(P_mid[order]), np.cumsum(Q_mid[order])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        candidates = np.where(cp > d_hi, np.log((cp - d_hi) / cq), -np.inf)
    best = int(np.argmax(candidates))
    estimate = max(0.0, float(candidates[best])) if np.isfinite(candidates[best]) else (
        math.inf if candidates[best] > 0 else 0.0)

    lower = 0.0
    event = order[:best + 1]
    p_event, q_event = sum_lower(P_lo[event]), sum_upper(Q_hi[event])
    if p_event > d_hi and q_event > 0:
        x = down(down(p_event - d_hi) / q_event)
        if x > 1.0:
            lower = max(0.0, log_enclosure(x, x)[0])

    if estimate == 0.0 and _hockey_upper(P_hi, Q_lo, 1.0) <= d_lo:
        return EpsilonEnclosure(lower, 0.0, int(event.size))
    margin = 1e-12 * estimate + 1e-15
    candidate = estimate + margin
    while candidate < ceiling:
        if _hockey_upper(P_hi, Q_lo, exp_enclosure(candidate, candidate)[0]) <= d_lo:
            return EpsilonEnclosure(lower, candidate, int(event.size))
        margin *= 8
        candidate = estimate + margin
    return EpsilonEnclosure(lower, ceiling, int(event.size))


def _worse(a: EpsilonEnclosure, b: EpsilonEnclosure) -> EpsilonEnclosure:
    return EpsilonEnclosure(max(a.lower, b.lower), max(a.upper, b.upper),
                            a.event_size if a.lower >= b.lower else b.event_size)


# ---------------------------------------------------------------------------------------------
# Binary randomized response: worst case over the other users' data
# ---------------------------------------------------------------------------------------------

def _eps0(value: object) -> sympy.Expr:
    """eps0 in the shuffle accountant's answerable range (e^eps0 and e^-eps0 are normal floats)."""
    return require_positive("eps0", value, at_least=EPS0_RANGE[0], at_most=EPS0_RANGE[1])


def _ceiling(eps0: sympy.Expr) -> float:
    """eps0 rounded up: the shuffled reports of an eps0-LDP randomizer are eps0-DP (post-processing)."""
    return float_upper(eps0)


def exact_result(enclosure: EpsilonEnclosure, eps0: sympy.Expr, note: str, *, bounds: str = "exact",
                 valid: bool = True) -> BoundResult:
    """The ``exact`` row from an enclosure of the shuffled eps, its upper end capped at eps0 exactly."""
    upper = sympy.Rational(enclosure.upper)
    if exact_sign(upper - eps0) >= 0:
        upper = eps0
        note += "; the upper end is eps0 (post-processing: the floats certify nothing smaller)"
    return interval_result("exact", enclosure.lower, upper, note, source=SOURCES["exact"], bounds=bounds,
                           valid=valid)


def _rr_parameters(eps0: sympy.Expr) -> tuple[tuple[float, float], ...]:
    s = sympy.exp(eps0)
    return enclose(s), enclose(s / (s + 1)), enclose(1 / (s + 1))


def _rr_pairs(eps0: sympy.Expr, n: int):
    """Yield (j, P_j, Q_j): the laws of the shuffled count with j of the n - 1 others holding 1."""
    ratio, p, q = _rr_parameters(eps0)
    pmfs = [binomial_pmf_enclosure(m, ratio) for m in range(n)]  # Bin(m, p); Bin(m, q) is its reverse
    for j in range((n - 1) // 2 + 1):
        ones = pmfs[j]
        zeros = pmfs[n - 1 - j]
        Z = _convolve(ones, (zeros[0][::-1], zeros[1][::-1]))
        shifted = (np.concatenate([[0.0], Z[0]]), np.concatenate([[0.0], Z[1]]))  # Z(k - 1)
        same = (np.concatenate([Z[0], [0.0]]), np.concatenate([Z[1], [0.0]]))  # Z(k)
        yield j, _mix(p, shifted, q, same), _mix(q, shifted, p, same)


def binary_rr_enclosure(eps0: sympy.Expr, n: int, delta: sympy.Expr) -> tuple[EpsilonEnclosure, int]:
    """Enclosure of the worst-case eps of shuffled binary RR, and the j (others holding 1) attaining it.

    Arguments validated by :func:`~dpcert.accountant.shuffle_common.validate_shuffle_inputs`."""
    d, ceiling = enclose(delta), _ceiling(eps0)
    worst: EpsilonEnclosure | None = None
    worst_j = 0
    for j, P, Q in _rr_pairs(eps0, n):
        pair = _worse(hockey_stick_epsilon(P, Q, d, ceiling=ceiling), hockey_stick_epsilon(Q, P, d, ceiling=ceiling))
        if worst is None or pair.lower > worst.lower:
            worst_j = j
        worst = pair if worst is None else _worse(worst, pair)
    assert worst is not None
    return worst, worst_j


def exact_shuffled_rr(eps0: object, n: object, delta: object) -> BoundResult:
    """Exact eps(delta) of n shuffled binary randomized-response reports, worst case over datasets.

    Binary randomized response reports the bit with probability e^eps0 / (e^eps0 + 1). Neighbouring
    datasets differ in one user's bit; the other n - 1 bits are arbitrary and the maximum is taken over
    them. The value is an enclosure [lower, upper] of the exact eps (see the module docstring), reported
    with ``bounds="exact"``; every upper bound on shuffled eps0-LDP randomizers must be >= its lower end.

    Args:
        eps0: the randomizer's eps0, in :data:`~dpcert.accountant.shuffle_common.EPS0_RANGE`.
        n: users, 2 <= n (about 1 s at n = 1000 and 10 s at n = 2000).
        delta: target delta in (0, 1).
    """
    inputs = validate_shuffle_inputs(eps0, n, delta)
    worst, j = binary_rr_enclosure(inputs.eps0, inputs.n, inputs.delta)
    note = (f"binary randomized response, worst case over the other users' bits (attained with {j} or "
            f"{inputs.n - 1 - j} of the {inputs.n - 1} others holding 1); the exact eps is in the enclosure")
    return exact_result(worst, inputs.eps0, note)


def exact_shuffled_rr_delta(eps: object, eps0: object, n: object) -> tuple[float, float]:
    """Enclosure of the exact delta(eps) of n shuffled binary RR reports, worst case over datasets."""
    eps = to_exact("eps", eps)
    eps0 = _eps0(eps0)
    n = require_int("n", n, minimum=2)
    t_lo, t_hi = enclose(sympy.exp(eps))
    lo = hi = 0.0
    for _, P, Q in _rr_pairs(eps0, n):
        for A, B in ((P, Q), (Q, P)):
            hi = max(hi, _hockey_upper(A[1], B[0], t_lo))
            lo = max(lo, sum_lower(np.maximum(array_down(A[0] - array_up(t_hi * B[1])), 0.0)))
    return lo, min(hi, 1.0)


# ---------------------------------------------------------------------------------------------
# k-ary randomized response: the histogram grid
# ---------------------------------------------------------------------------------------------

def _krr_row(eps0: sympy.Expr, k: int) -> tuple[tuple[float, float], tuple[float, float]]:
    s = sympy.exp(eps0)
    return enclose(s / (s + k - 1)), enclose(1 / (s + k - 1))


def _add_user(grid: Enclosure, value: int, k: int, keep: tuple[float, float], other: tuple[float, float]) -> Enclosure:
    """The count grid after one more user with true ``value`` (the last category's count is implied).

    Reporting y < k - 1 moves the mass one cell up along axis y; reporting k - 1 leaves it in place. Every
    product and sum is stepped outward (in place on the shifted slices).
    """
    lo, hi = grid
    weight = lambda y: keep if y == value else other  # noqa: E731
    out_lo, out_hi = array_down(weight(k - 1)[0] * lo), array_up(weight(k - 1)[1] * hi)
    for y in range(k - 1):
        src = tuple(slice(0, -1) if axis == y else slice(None) for axis in range(lo.ndim))
        dst = tuple(slice(1, None) if axis == y else slice(None) for axis in range(lo.ndim))
        out_lo[dst] = array_down(out_lo[dst] + array_down(weight(y)[0] * lo[src]))
        out_hi[dst] = array_up(out_hi[dst] + array_up(weight(y)[1] * hi[src]))
    return np.maximum(out_lo, 0.0), np.minimum(out_hi, 1.0)


def _empty_grid(n: int, k: int) -> Enclosure:
    """The law of the histogram of no reports, on the grid of n users' counts (a point mass at 0)."""
    shape = (n + 1,) * (k - 1)
    grid = (np.zeros(shape), np.zeros(shape))
    grid[0][(0,) * (k - 1)] = grid[1][(0,) * (k - 1)] = 1.0
    return grid


def _flat(grid: Enclosure) -> Enclosure:
    return grid[0].ravel(), grid[1].ravel()


def krr_cells_fit(n: int, k: int) -> bool:
    """(n + 1)^(k - 1) <= MAX_EXACT_KRR_CELLS, decided without forming a huge power."""
    return (k - 1) * math.log(n + 1) <= math.log(MAX_EXACT_KRR_CELLS) + 1e-9 and (
        (n + 1) ** (k - 1) <= MAX_EXACT_KRR_CELLS)


# ---------------------------------------------------------------------------------------------
# k-ary randomized response on given datasets
# ---------------------------------------------------------------------------------------------

def _validate_datasets(k: int, dataset: Sequence[int], neighbour: Sequence[int]) -> tuple[list[int], list[int], int]:
    data = [require_int(f"dataset[{i}]", v, minimum=0, maximum=k - 1) for i, v in enumerate(dataset)]
    other = [require_int(f"neighbour[{i}]", v, minimum=0, maximum=k - 1) for i, v in enumerate(neighbour)]
    if len(data) != len(other) or len(data) < 2:
        raise InvalidParameterError(
            f"dataset and neighbour must have the same length >= 2. Got {len(data)} and {len(other)}")
    changed = [i for i, (a, b) in enumerate(zip(data, other)) if a != b]
    if len(changed) != 1:
        raise InvalidParameterError(
            f"neighbour must differ from dataset in exactly one user. Got {len(changed)} differences")
    if not krr_cells_fit(len(data), k):
        raise InvalidParameterError(
            f"n and k too large for the exact k-RR computation: (n + 1)^(k - 1) must be <= "
            f"{MAX_EXACT_KRR_CELLS}. Got n = {len(data)}, k = {k}")
    return data, other, changed[0]


def shuffled_krr_laws(eps0: object, k: object, dataset: Sequence[int], neighbour: Sequence[int]) -> tuple[Enclosure, Enclosure]:
    """Enclosures of the laws of the shuffled k-RR histogram on two datasets differing in one user."""
    eps0 = _eps0(eps0)
    k = require_int("k", k, minimum=2)
    data, other, changed = _validate_datasets(k, dataset, neighbour)
    keep, lie = _krr_row(eps0, k)
    grid = _empty_grid(len(data), k)
    for i, value in enumerate(data):
        if i != changed:
            grid = _add_user(grid, value, k, keep, lie)
    P = _add_user(grid, data[changed], k, keep, lie)
    Q = _add_user(grid, other[changed], k, keep, lie)
    return _flat(P), _flat(Q)


def krr_pair_enclosure(eps0: sympy.Expr, k: int, dataset: Sequence[int], neighbour: Sequence[int],
                       delta: sympy.Expr) -> EpsilonEnclosure:
    """Enclosure of the eps of shuffled k-RR on one neighbouring pair, both orders."""
    P, Q = shuffled_krr_laws(eps0, k, dataset, neighbour)
    d, ceiling = enclose(delta), _ceiling(eps0)
    return _worse(hockey_stick_epsilon(P, Q, d, ceiling=ceiling), hockey_stick_epsilon(Q, P, d, ceiling=ceiling))


def exact_shuffled_krr(eps0: object, k: object, dataset: Sequence[int], neighbour: Sequence[int],
                       delta: object) -> BoundResult:
    """Exact eps(delta) of shuffled k-ary randomized response on two given neighbouring datasets.

    k-RR reports the true value with probability e^eps0 / (e^eps0 + k - 1) and each other value with
    probability 1 / (e^eps0 + k - 1). The shuffled output is the histogram of reports; both orders of the
    pair are considered. The result (``bounds="exact"``) is the eps of this pair; over all datasets it
    is a lower bound (see :func:`exact_shuffled_krr_worst`). Cost: (n + 1)^(k - 1) cells per user
    (k = 3, n = 200: well under a second).
    """
    delta = require_open_unit("delta", delta, at_least=DELTA_MIN)
    eps0 = _eps0(eps0)
    result = krr_pair_enclosure(eps0, k, dataset, neighbour, delta)
    note = f"{k}-ary randomized response, n = {len(dataset)}, on the given datasets (both orders)"
    return exact_result(result, eps0, note)


# ---------------------------------------------------------------------------------------------
# k-ary randomized response: worst case over the other users' data
# ---------------------------------------------------------------------------------------------

def _other_users(k: int, m: int, start, add):
    """Yield (counts, state) for one representative of each class of the other m users' data.

    Classes: WLOG the changed user goes 0 -> 1 (k-RR commutes with relabelling the values); the shuffled
    output depends on the others only through their counts c_0, ..., c_(k-1); values 2..k-1 play the
    same role in the pair, so only the multiset of their counts matters (c_2 >= c_3 >= ... >= c_(k-1));
    and swapping 0 and 1 maps the pair for (c_0, c_1) to the reversed pair for (c_1, c_0), which the
    caller covers by taking both orders, so c_0 <= c_1. ``state`` is ``start`` after ``add(state, v)``
    for each other user's value v, in the order 2, ..., k-1, 1, 0, sharing common prefixes (a
    depth-first walk: each class costs only the users it does not share with the previous one).
    """
    order = list(range(2, k)) + [1, 0]

    def walk(state, position: int, counts: dict[int, int], remaining: int):
        label = order[position]
        if label == 0:  # the rest hold 0, and c_0 <= c_1
            if remaining <= counts[1]:
                for _ in range(remaining):
                    state = add(state, 0)
                yield {**counts, 0: remaining}, state
            return
        cap = min(remaining, counts[label - 1]) if label >= 3 else remaining
        for c in range(cap + 1):
            if c:
                state = add(state, label)
            if label == 1 and remaining - c > c:
                continue
            yield from walk(state, position + 1, {**counts, label: c}, remaining - c)

    yield from walk(start, 0, {}, m)


def krr_worst_case_cost(n: int, k: int) -> int | None:
    """Users added to a histogram grid, times its cells, by :func:`krr_worst_enclosure`; None beyond the limit.

    None also when (n + 1)^(k - 1) > :data:`MAX_EXACT_KRR_CELLS`. The count stops as soon as it passes
    :data:`MAX_EXACT_KRR_WORK`, so deciding is cheap at any n and k.
    """
    if not krr_cells_fit(n, k):
        return None
    cells = (n + 1) ** (k - 1)
    limit = MAX_EXACT_KRR_WORK // cells
    added = 0

    class _Exceeded(Exception):
        pass

    def add(state, label):
        nonlocal added
        added += 1
        if added > limit:
            raise _Exceeded
        return state

    try:
        leaves = sum(1 for _ in _other_users(k, n - 1, None, add))
    except _Exceeded:
        return None
    cost = (added + 2 * leaves) * cells
    return cost if cost <= MAX_EXACT_KRR_WORK else None


def largest_krr_worst_case_n(k: int) -> int:
    """The largest n at which :func:`krr_worst_case_cost` is within the limit for k-RR (1 if none)."""
    lo, hi = 1, 2
    while krr_worst_case_cost(hi, k) is not None:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:  # the cost grows with n
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if krr_worst_case_cost(mid, k) is not None else (lo, mid)
    return lo


def krr_worst_enclosure(eps0: sympy.Expr, k: int, n: int, delta: sympy.Expr) -> tuple[EpsilonEnclosure, dict[int, int]]:
    """Enclosure of the worst-case eps of shuffled k-RR over all neighbouring datasets, and the worst class.

    Every class of :func:`_other_users` gives the pair (others + a user holding 0, others + a user
    holding 1), taken in both orders. Call only when :func:`krr_worst_case_cost` is not None, with arguments
    validated by :func:`~dpcert.accountant.shuffle_common.validate_shuffle_inputs`.
    """
    keep, lie = _krr_row(eps0, k)
    d, ceiling = enclose(delta), _ceiling(eps0)
    worst: EpsilonEnclosure | None = None
    worst_counts: dict[int, int] = {}
    add = lambda grid, value: _add_user(grid, value, k, keep, lie)  # noqa: E731
    for counts, others in _other_users(k, n - 1, _empty_grid(n, k), add):
        P, Q = _flat(add(others, 0)), _flat(add(others, 1))
        pair = _worse(hockey_stick_epsilon(P, Q, d, ceiling=ceiling), hockey_stick_epsilon(Q, P, d, ceiling=ceiling))
        if worst is None or pair.lower > worst.lower:
            worst_counts = counts
        worst = pair if worst is None else _worse(worst, pair)
    assert worst is not None
    return worst, worst_counts


def exact_shuffled_krr_worst(eps0: object, k: object, n: object, delta: object) -> BoundResult:
    """Exact eps(delta) of n shuffled k-ary randomized-response reports, worst case over all datasets.

    Enumerates the other n - 1 users' data up to the symmetries of :func:`_other_users` (the class count
    grows like n^(k + 1), each class costs about (n + 1)^(k - 1) per user added); the result
    (``bounds="exact"``) is an enclosure of the true worst-case eps.

    Raises:
        InvalidParameterError: the enumeration exceeds :data:`MAX_EXACT_KRR_WORK` (see
            :func:`krr_worst_case_cost`), or an argument is out of range.
    """
    x = validate_shuffle_inputs(eps0, n, delta, k=require_int("k", k, minimum=2))
    k = x.k
    if krr_worst_case_cost(x.n, k) is None:
        raise InvalidParameterError(f"n = {x.n} and k = {k} are too large for the exact k-RR worst case: "
                                    f"{exact_krr_limit_text(k)}")
    worst, counts = krr_worst_enclosure(x.eps0, k, x.n, x.delta)
    shown = ", ".join(f"{counts[v]} hold {v}" for v in sorted(counts) if counts[v])
    note = (f"{k}-ary randomized response, worst case over all datasets of the other {x.n - 1} users (every "
            f"class of their value counts enumerated; worst: {shown or 'none'} besides the user changed "
            "from 0 to 1); the exact eps is in the enclosure")
    return exact_result(worst, x.eps0, note)


def exact_krr_limit_text(k: int) -> str:
    """The feasibility limit of :func:`exact_shuffled_krr_worst` for k-RR, for messages."""
    largest = largest_krr_worst_case_n(k)
    return (f"the enumeration of the other users' data must add at most {MAX_EXACT_KRR_WORK:.0e} users x grid "
            f"cells; for k = {k} that is n <= {largest}" if largest >= 2 else
            f"the enumeration of the other users' data must add at most {MAX_EXACT_KRR_WORK:.0e} users x grid "
            f"cells, which no n >= 2 meets for k = {k}")
