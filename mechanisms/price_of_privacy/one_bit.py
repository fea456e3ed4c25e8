"""The toy w = 1 schemes of the Introduction and Section 4.2: how many users learn all N cluster bits.

Every user holds one uniformly random item I and its cluster bit Z(I) (the lower-bound instance
with w = 1). The schemes differ in what a user may reveal:

- :func:`simulate_membership_scheme`: exactly one bit, through the adaptive query "is (I, Z) = (i, b)?"
  for a not-yet-learned item i and a random bit b (a :class:`~dpcert.mechanisms.price_of_privacy.sketches.MembershipQuery`
  with A = {(i, b)}). A user answers yes with probability 1/(2N) whatever was learned before, so the
  number of users is a sum of N independent Geometric(1/(2N)): mean 2N^2 (spec M6, claim 23).
- :func:`simulate_coupon_collector`: each user reveals (I, Z) with probability q (q = 1: non-private,
  unlimited communication; q = 1/log N: one bit on average). Mean N H_N / q (H_N the harmonic number).

References: 000_0c6e7fdc3fd68303.txt, Section 1 and Section 4.2 (Theorem 10's discussion).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy

from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    require_int,
    require_unit_interval,
)
from dpcert.mechanisms.price_of_privacy.blockmodel import as_generator

__all__ = [
    "coupon_collector_mean_users",
    "membership_scheme_mean_users",
    "simulate_coupon_collector",
    "simulate_membership_scheme",
]


def membership_scheme_mean_users(N: int, *, adaptive: bool = True) -> Fraction:
    """E[users] of the membership scheme: N * 2N = 2N^2 adaptive, 2N * N H_N non-adaptive (exact)."""
    N = require_int("N", N, minimum=1)
    if adaptive:
        return Fraction(2 * N * N)
    return 2 * N * N * sum(Fraction(1, k) for k in range(1, N + 1))


def coupon_collector_mean_users(N: int, *, q: object = 1) -> sympy.Expr:
    """E[users] when each user reveals (I, Z) with probability q: N H_N / q (exact).

    With k items still unseen a user reveals a new one with probability q k / N, so the count is a sum
    of independent Geometric(q k / N), k = 1..N.
    """
    N = require_int("N", N, minimum=1)
    q = require_unit_interval("q", q, closed_right=True)
    if q == 0:
        raise InvalidParameterError("q must be in (0, 1]. Got 0")
    return N * sympy.harmonic(N) / q


def simulate_membership_scheme(N: int, rng: np.random.Generator | int, *, runs: int = 1, adaptive: bool = True,
                               batch_size: int | None = None) -> np.ndarray:
    """Users needed by the adaptive "is (I, Z) = (i, b)?" scheme to learn every Z(i), for ``runs`` runs.

    Users are simulated one by one in vectorised batches: user t draws its data (I_t, Z(I_t)); the
    query (i_t, b_t) has i_t uniform over the items still unknown and b_t a uniform bit; the answer is
    1_A(I_t, Z(I_t)) with A = {(i_t, b_t)}, and a yes reveals Z(i_t) = b_t. Within a batch the queries
    use the knowledge at the batch start; users after the batch's first yes are discarded (they are
    i.i.d. fresh draws), so the adaptivity is exact.

    With ``adaptive=False`` the queried item is uniform over all N items (known or not), as a
    non-adaptive scheme must do: a coupon collector with mean 2N * N H_N users.

    Returns:
        (runs,) int64 array of user counts.
    """
    N = require_int("N", N, minimum=1)
    runs = require_int("runs", runs, minimum=1)
    batch_size = max(64, 8 * N) if batch_size is None else require_int("batch_size", batch_size, minimum=1)
    rng = as_generator(rng)
    totals = np.zeros(runs, dtype=np.int64)
    for r in range(runs):
        z = rng.integers(0, 2, N)
        unknown = np.ones(N, dtype=bool)
        users = 0
        while unknown.any():
            candidates = np.nonzero(unknown)[0] if adaptive else np.arange(N)
            item = rng.integers(0, N, batch_size)
            bit = z[item]
            query_item = candidates[rng.integers(0, candidates.size, batch_size)]
            query_bit = rng.integers(0, 2, batch_size)
            yes = np.nonzero((item == query_item) & (bit == query_bit))[0]
            if yes.size == 0:
                users += batch_size
                continue
            first = int(yes[0])
            users += first + 1
            unknown[query_item[first]] = False  # a repeated yes (non-adaptive queries) teaches nothing new
        totals[r] = users
    return totals


def simulate_coupon_collector(N: int, rng: np.random.Generator | int, *, q: object = 1, runs: int = 1,
                              batch_size: int = 4096) -> np.ndarray:
    """Users needed until every item has been revealed, each user revealing (I, Z) with probability q.

    Returns:
        (runs,) int64 array of user counts.
    """
    N = require_int("N", N, minimum=1)
    runs = require_int("runs", runs, minimum=1)
    batch_size = require_int("batch_size", batch_size, minimum=1)
    q = require_unit_interval("q", q, closed_right=True)
    if q == 0:
        raise InvalidParameterError("q must be in (0, 1]. Got 0")
    reveal = float(q)
    rng = as_generator(rng)
    totals = np.zeros(runs, dtype=np.int64)
    for r in range(runs):
        seen = np.zeros(N, dtype=bool)
        remaining = N
        users = 0
        while remaining:
            item = rng.integers(0, N, batch_size)
            revealed = rng.random(batch_size) < reveal
            new_items = item[revealed]
            unseen = np.nonzero(~seen[new_items])[0]
            _, first = np.unique(new_items[unseen], return_index=True)
            if first.size >= remaining:  # stop at the user who reveals the last unseen item
                last = np.sort(unseen[first])[remaining - 1]
                users += int(np.nonzero(revealed)[0][last]) + 1
                break
            seen[new_items] = True
            remaining = N - int(seen.sum())
            users += batch_size
        totals[r] = users
    return totals
