"""Deliberately simple truths for shuffled k-ary randomized response, by brute force in exact arithmetic.

Nothing here uses dpcert's code or its symmetry arguments; everything follows the definitions:

- k-ary randomized response with e^eps0 = t (a rational number > 0): a user holding x reports y with
  probability t / (t + k - 1) if y = x, else 1 / (t + k - 1) (Wang, Blocki, Li, Jha, "Locally
  Differentially Private Protocols for Frequency Estimation", USENIX Security 2017, Section 4.1).
- The shuffler outputs the reports in a uniformly random order, which is the same information as their
  histogram (count of each value); its law is found by summing over all k^n report vectors.
- Neighbouring datasets: x, x' in [k]^n that differ in exactly one user's value.
- (eps, delta)-DP: P(S) <= e^eps Q(S) + delta for every event S and both orders of every neighbouring
  pair (Dwork and Roth 2014, Definition 2.4), equivalently D_{e^eps}(P || Q) <= delta for the
  hockey-stick divergence D_s(P || Q) = sum_y max(P(y) - s Q(y), 0) (its maximising event is
  {y : P(y) > s Q(y)}). The smallest such eps is eps(delta) = ln s* with s* the least s >= 1 at which
  every ordered neighbouring pair has D_s <= delta.

Every probability is a :class:`fractions.Fraction`; only the final ln s* is an mpmath enclosure (a 60-digit
evaluation widened by 10^-50).
A benchmark can call these functions on many points (they are plain functions, cached per argument).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import mpmath

__all__ = [
    "krr_report_probability",
    "shuffled_krr_law",
    "hockey_stick",
    "least_s",
    "shuffled_krr_worst_s",
    "log_enclosure",
    "shuffled_krr_epsilon",
    "shuffled_law",
    "shuffled_worst_s",
    "rational_at_least_exp",
]

Law = dict[tuple[int, ...], Fraction]


def krr_report_probability(t: Fraction, k: int, x: int, y: int) -> Fraction:
    """P(report y | value x) of k-ary randomized response with e^eps0 = t."""
    return (t if x == y else Fraction(1)) / (t + k - 1)


@lru_cache(maxsize=4096)
def shuffled_krr_law(t: Fraction, k: int, dataset: tuple[int, ...]) -> Law:
    """The exact law of the histogram of the reports of ``dataset``, summed over all k^n report vectors.

    A report vector with a truthful reports has probability keep^a lie^(n - a) (reports are independent).
    """
    n = len(dataset)
    keep, lie = krr_report_probability(t, k, 0, 0), krr_report_probability(t, k, 0, 1)
    by_truthful = [keep**a * lie ** (n - a) for a in range(n + 1)]
    law: Counter = Counter()
    for reports in itertools.product(range(k), repeat=n):
        law[tuple(reports.count(v) for v in range(k))] += by_truthful[sum(x == y for x, y in zip(dataset, reports))]
    assert sum(law.values()) == 1
    return dict(law)


def hockey_stick(P: Law, Q: Law, s: Fraction) -> Fraction:
    """D_s(P || Q) = sum over outputs y of max(P(y) - s Q(y), 0)."""
    return sum((max(P.get(y, Fraction(0)) - s * Q.get(y, Fraction(0)), Fraction(0)) for y in set(P) | set(Q)),
               Fraction(0))


def least_s(P: Law, Q: Law, delta: Fraction) -> Fraction | None:
    """The least s >= 1 with D_s(P || Q) <= delta; None when no finite s has it.

    D_s(P || Q) <= delta says P(S) - s Q(S) <= delta for every event S, i.e. s >= (P(S) - delta) / Q(S)
    whenever Q(S) > 0 (and P(S) <= delta when Q(S) = 0). For each s the largest P(S) - s Q(S) is attained
    by S = {y : P(y) > s Q(y)}, a set of the outputs whose ratio P/Q exceeds a threshold; so the least s
    is the largest (P(A) - delta) / Q(A) over those sets A (or 1), and it is checked against the
    definition of D_s.
    """
    outputs = sorted(set(P) | set(Q), key=lambda y: (Q.get(y, 0) == 0, P.get(y, 0) / Q[y] if Q.get(y) else 0),
                     reverse=True)  # outputs with Q = 0 first, then by decreasing ratio
    s, p, q = Fraction(1), Fraction(0), Fraction(0)
    for y in outputs:  # A = the outputs so far: every prefix is an event, and the sets above are prefixes
        p, q = p + P.get(y, Fraction(0)), q + Q.get(y, Fraction(0))
        if q == 0 and p > delta:
            return None
        if q > 0:
            s = max(s, (p - delta) / q)
    assert hockey_stick(P, Q, s) <= delta
    return s


@lru_cache(maxsize=1024)
def shuffled_krr_worst_s(t: Fraction, k: int, n: int, delta: Fraction) -> tuple[Fraction, tuple, tuple]:
    """s* = max over ALL ordered neighbouring pairs (x, x') in [k]^n of least_s, with a pair attaining it.

    Every dataset x and every x' that changes one user's value are enumerated, so both orders of every
    pair are covered.
    """
    worst: tuple[Fraction, tuple, tuple] | None = None
    for x in itertools.product(range(k), repeat=n):
        for i, v in itertools.product(range(n), range(k)):
            if v == x[i]:
                continue
            x_prime = x[:i] + (v,) + x[i + 1:]
            s = least_s(shuffled_krr_law(t, k, x), shuffled_krr_law(t, k, x_prime), delta)
            assert s is not None  # k-RR gives every histogram positive probability
            if worst is None or s > worst[0]:
                worst = (s, x, x_prime)
    assert worst is not None
    return worst


def shuffled_law(rows: tuple[tuple[Fraction, ...], ...], dataset: tuple[int, ...]) -> Law:
    """The exact law of the histogram of the reports of ``dataset`` for any finite randomizer (rows[x][y] =
    P(report y | value x)), summed over all report vectors."""
    law: Counter = Counter()
    outputs = range(len(rows[0]))
    for reports in itertools.product(outputs, repeat=len(dataset)):
        probability = Fraction(1)
        for x, y in zip(dataset, reports):
            probability *= rows[x][y]
        law[tuple(reports.count(v) for v in outputs)] += probability
    assert sum(law.values()) == 1
    return dict(law)


def shuffled_worst_s(rows: tuple[tuple[Fraction, ...], ...], n: int, delta: Fraction) -> Fraction:
    """The largest least_s over all ordered pairs of datasets in [inputs]^n differing in one user's value."""
    worst = Fraction(1)
    inputs = range(len(rows))
    for x in itertools.product(inputs, repeat=n):
        for i, v in itertools.product(range(n), inputs):
            if v != x[i]:
                s = least_s(shuffled_law(rows, x), shuffled_law(rows, x[:i] + (v,) + x[i + 1:]), delta)
                assert s is not None  # every report possible under every value
                worst = max(worst, s)
    return worst


def _widened(value: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(lo, hi) around a 60-digit mpmath value: 10^-50 relative (and absolute) slack covers its rounding."""
    slack = abs(value) * mpmath.mpf(10) ** -50 + mpmath.mpf(10) ** -60
    return value - slack, value + slack


def log_enclosure(s: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(lo, hi) with lo <= ln s <= hi, from a 60-digit evaluation widened by 10^-50 (exactly 0 at s = 1)."""
    if s == 1:
        return mpmath.mpf(0), mpmath.mpf(0)
    with mpmath.workdps(60):
        return _widened(mpmath.log(mpmath.mpf(s.numerator) / s.denominator))


def shuffled_krr_epsilon(t: Fraction, k: int, n: int, delta: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    """eps(delta) of n shuffled k-RR reports with e^eps0 = t, worst case over all datasets, as (lo, hi)."""
    return log_enclosure(shuffled_krr_worst_s(t, k, n, delta)[0])


def rational_at_least_exp(eps0: Fraction, digits: int = 25) -> Fraction:
    """A decimal fraction t >= e^eps0 with ``digits`` decimals (from a 60-digit evaluation widened by 10^-50).

    The shuffled eps of k-RR does not decrease with eps0 (k-RR at a smaller eps0 is a post-processing of
    k-RR at a larger one: keep the report, or replace it by a uniform value), so the truth at this t bounds
    the truth at eps0 from above. Few digits keep the oracle's Fractions small.
    """
    with mpmath.workdps(60):
        upper = _widened(mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator))[1]
        return Fraction(int(mpmath.ceil(upper * 10**digits)), 10**digits)
