"""The exact privacy of n shuffled reports of a leaky binary randomized response, an (eps0, delta0)-LDP randomizer:
the truth the ``fmt21-approx`` shuffle row (FMT 2021, Theorem 3.8) is checked against.

R(x) for x in {0, 1}: with probability delta0 the report L_x (the input revealed); otherwise x with probability
p = E/(E + 1) and 1 - x with probability q = 1/(E + 1), E = e^eps0. R is (eps0, delta0)-LDP. The shuffled reports
are the counts (c, a, b) of reports 1, L_0 and L_1. With user 1's value x and, among the others, j ones and
m = n - 1 - j zeros, the others' leaks are a' ~ Bin(m, delta0) and b' ~ Bin(j, delta0), and their 1s are
Bin(m - a', q) + Bin(j - b', p):

    T(c, a, b) = Bin(m, delta0)(a) Bin(j, delta0)(b) [Bin(m - a, q) * Bin(j - b, p)](c),
    P_x(c, a, b) = (1 - delta0) [(1 - r_x) T(c, a, b) + r_x T(c - 1, a, b)] + delta0 T(c, a - [x = 0], b - [x = 1]),

r_0 = q, r_1 = p. delta(s) = max_j sum max(0, P_0 - s P_1): the pair (1, 0) with j ones is the pair (0, 1) with
n - 1 - j ones after swapping 0 and 1, so the scan over j covers both orders.

**Rounding.** The binomial pmfs are exact Fractions rounded once to floats; each T and P entry is then a sum of
products of non-negative floats with at most n + 12 roundings on any path, so its relative error is at most
gamma_(n+12) (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, Lemma 3.1 and Section 3.1), and a
term max(0, P_0 - s P_1) (s a float) is off by at most gamma_(n+14) (P_0 + s P_1). Summed (math.fsum, correctly
rounded) over all states, the error is at most gamma_(n+14) (1 + s) + 2^-51: :func:`leaky_rr_delta` returns it
beside the value, so a verdict compares value + margin with the target.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from dpcert.accountant.shuffle_intervals import gamma

__all__ = ["leaky_rr_delta"]


@functools.lru_cache(maxsize=4096)
def _binomial(size: int, probability: Fraction) -> np.ndarray:
    """Bin(size, probability)'s pmf, each entry exact then rounded once to a float."""
    return np.array([float(math.comb(size, i) * probability ** i * (1 - probability) ** (size - i))
                     for i in range(size + 1)])


def _pair_delta(s: float, p: Fraction, delta0: Fraction, ones: int, zeros: int) -> float:
    """sum max(0, P_0 - s P_1) for user 1's value 0 against 1, the others holding ``ones`` ones and ``zeros`` zeros."""
    q, n = 1 - p, ones + zeros + 1
    table = np.zeros((n + 1, zeros + 2, ones + 2))  # T, with room for user 1's 1 and leak
    leaks_0, leaks_1 = _binomial(zeros, delta0), _binomial(ones, delta0)
    for a in range(zeros + 1):
        for b in range(ones + 1):
            counts = np.convolve(_binomial(zeros - a, q), _binomial(ones - b, p))
            table[:counts.size, a, b] = leaks_0[a] * leaks_1[b] * counts
    kept, leak = float(1 - delta0), float(delta0)

    def law(r: float, leak_axis: int) -> np.ndarray:
        shifted = np.zeros_like(table)
        shifted[1:] = table[:-1]
        leaked = np.roll(table, 1, axis=leak_axis)  # the last slot along the axis is 0, so the roll is a shift
        return kept * ((1 - r) * table + r * shifted) + leak * leaked

    difference = law(float(q), 1) - s * law(float(p), 2)
    return math.fsum(difference[difference > 0].tolist())


def leaky_rr_delta(s: float, e: Fraction, n: int, delta0: Fraction) -> tuple[float, float]:
    """(delta, margin): the exact delta at e^eps = s (a float) of n shuffled leaky binary randomized responses with
    e^eps0 = ``e`` (rational), the worst over the other users' data, as a float within ``margin`` of it (see the
    module)."""
    p = e / (e + 1)
    worst = max(_pair_delta(s, p, delta0, ones, n - 1 - ones) for ones in range(n))
    return worst, gamma(n + 14) * (1 + s) + 2.0 ** -51
