"""The exact truth for shuffled randomized response, against independent exact computations.

References: exact rational arithmetic (eps0 = log(r), so e^eps0 = r is rational) over the law of the
shuffled count, built here by brute force (enumerating every output sequence, or by convolving exact
binomials); and dpcert's exact checker (proofs.exact) on the shuffled mechanism as a channel matrix.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from fractions import Fraction

import pytest
import sympy

from accountant.shuffle import exact_shuffled_krr, exact_shuffled_rr, exact_shuffled_rr_delta, exact_truth
from accountant.shuffle_exact import binomial_pmf_enclosure, hockey_stick_epsilon, shuffled_krr_laws
from accountant.shuffle_intervals import enclose
from mechanisms.neighbours import AllPairs
from mechanisms.parameters import InvalidParameterError
from proofs.channel import ExactChannel
from proofs.exact import max_hockey_stick

R = sympy.Rational


def exact_epsilon(P: list[Fraction], Q: list[Fraction], delta: Fraction) -> float:
    """max over likelihood-ratio prefixes S of log((P(S) - delta) / Q(S)), as a float from exact ratios."""
    pairs = sorted(zip(P, Q), key=lambda pq: pq[0] / pq[1] if pq[1] else math.inf, reverse=True)
    best = Fraction(1)
    cp = cq = Fraction(0)
    for p, q in pairs:
        cp, cq = cp + p, cq + q
        if cp > delta and (cp - delta) / cq > best:
            best = (cp - delta) / cq
    return math.log(best.numerator) - math.log(best.denominator)


def rr_laws_fraction(r: Fraction, n: int, j: int) -> tuple[list[Fraction], list[Fraction]]:
    """Exact laws of the shuffled count of ones, j of the n - 1 others holding 1 (e^eps0 = r)."""
    p, q = r / (1 + r), 1 / (1 + r)
    Z = [Fraction(1)]
    for prob in [p] * j + [q] * (n - 1 - j):
        Z = [(Z[i] if i < len(Z) else 0) * (1 - prob) + (Z[i - 1] if i else 0) * prob for i in range(len(Z) + 1)]
    z = lambda i: Z[i] if 0 <= i < len(Z) else Fraction(0)  # noqa: E731
    return ([p * z(k - 1) + q * z(k) for k in range(n + 1)], [q * z(k - 1) + p * z(k) for k in range(n + 1)])


@pytest.mark.parametrize("r, n, delta", [(Fraction(3), 12, Fraction(1, 100)), (Fraction(2), 40, Fraction(1, 1000)),
                                         (Fraction(7, 2), 25, Fraction(1, 50)), (Fraction(5), 3, Fraction(1, 10))])
def test_binary_rr_worst_case_matches_exact_rationals(r, n, delta):
    truth = max(max(exact_epsilon(P, Q, delta), exact_epsilon(Q, P, delta))
                for P, Q in (rr_laws_fraction(r, n, j) for j in range(n)))
    result = exact_shuffled_rr(sympy.log(sympy.Rational(r.numerator, r.denominator)), n,
                               sympy.Rational(delta.numerator, delta.denominator))
    assert result.lower <= truth * (1 + 1e-14) and truth <= result.upper * (1 + 1e-14)
    assert result.upper - result.lower < 1e-9


def test_binary_rr_delta_matches_proofs_exact_on_the_channel():
    """delta(eps) of the shuffled count, worst case over the others' bits, against proofs.exact."""
    n, eps0, eps = 5, sympy.log(3), sympy.log(2)
    p, q = R(3, 4), R(1, 4)
    rows = []
    for bits in itertools.product([0, 1], repeat=n):  # every dataset; the count of reported ones
        law = [sympy.Integer(0)] * (n + 1)
        for reports in itertools.product([0, 1], repeat=n):
            prob = sympy.Integer(1)
            for b, y in zip(bits, reports):
                prob *= p if b == y else q
            law[sum(reports)] += prob
        rows.append(law)
    channel = ExactChannel.from_matrix(rows)
    # neighbours: datasets differing in one bit (worst over them = worst over pairs of such rows)
    worst = 0
    for i, a in enumerate(itertools.product([0, 1], repeat=n)):
        for j, b in enumerate(itertools.product([0, 1], repeat=n)):
            if sum(x != y for x, y in zip(a, b)) == 1:
                sub = ExactChannel.from_matrix([rows[i], rows[j]])
                worst = max(worst, max_hockey_stick(sub, AllPairs(), eps).delta)
    lo, hi = exact_shuffled_rr_delta(eps, eps0, n)
    assert lo <= worst <= hi and hi - lo < 1e-12
    assert channel.inputs  # the full channel validated (rows sum to 1 exactly)


def test_krr_laws_match_enumeration_of_output_sequences():
    """The shuffled 3-RR histogram law, against enumerating all 3^n report sequences exactly."""
    k, n, r = 3, 4, Fraction(2)
    data, neighbour = [2, 0, 1, 0], [2, 0, 1, 1]
    keep, lie = r / (r + k - 1), 1 / (r + k - 1)

    def law(dataset):
        counts: Counter = Counter()
        for reports in itertools.product(range(k), repeat=n):
            prob = Fraction(1)
            for x, y in zip(dataset, reports):
                prob *= keep if x == y else lie
            histogram = tuple(reports.count(v) for v in range(k - 1))
            counts[histogram] += prob
        return counts

    P, Q = shuffled_krr_laws(sympy.log(2), k, data, neighbour)
    for enclosure, exact in ((P, law(data)), (Q, law(neighbour))):
        for c1 in range(n + 1):
            for c2 in range(n + 1):
                value = exact.get((c1, c2), Fraction(0))
                index = c1 * (n + 1) + c2
                assert enclosure[0][index] <= value <= enclosure[1][index]
    delta = Fraction(1, 20)
    cells = [(c1, c2) for c1 in range(n + 1) for c2 in range(n + 1)]
    Pe, Qe = law(data), law(neighbour)
    Pl, Ql = [Pe.get(c, Fraction(0)) for c in cells], [Qe.get(c, Fraction(0)) for c in cells]
    nonzero = [i for i in range(len(cells)) if Pl[i] or Ql[i]]
    truth = max(exact_epsilon([Pl[i] for i in nonzero], [Ql[i] for i in nonzero], delta),
                exact_epsilon([Ql[i] for i in nonzero], [Pl[i] for i in nonzero], delta))
    result = exact_shuffled_krr(sympy.log(2), k, data, neighbour, R(1, 20))
    assert result.lower <= truth * (1 + 1e-14) and truth <= result.upper * (1 + 1e-14)


def test_binary_rr_is_the_k2_case_of_krr():
    eps0, n, delta = sympy.Integer(1), 30, R(1, 1000)
    worst = exact_shuffled_rr(eps0, n, delta)
    pairs = []
    for ones in range(n):  # every dataset of the others, up to order, and both orders of the changed bit
        rest = [1] * ones + [0] * (n - 1 - ones)
        pairs.append(exact_shuffled_krr(eps0, 2, rest + [0], rest + [1], delta))
    assert abs(max(p.upper for p in pairs) - worst.upper) < 1e-9
    assert abs(max(p.lower for p in pairs) - worst.lower) < 1e-9


def test_binomial_enclosure_against_exact_rationals():
    for m, r in [(1, Fraction(3)), (17, Fraction(5, 2)), (300, Fraction(1, 7))]:
        lo, hi = binomial_pmf_enclosure(m, enclose(sympy.Rational(r.numerator, r.denominator)))
        p = r / (1 + r)
        for a in range(m + 1):
            exact = math.comb(m, a) * p ** a * (1 - p) ** (m - a)
            assert lo[a] <= exact <= hi[a]


def test_hockey_epsilon_zero_and_identity():
    import numpy as np

    P = (np.array([0.5, 0.5]), np.array([0.5, 0.5]))
    assert hockey_stick_epsilon(P, P, (1e-3, 1e-3)).upper == 0.0


def test_sizes_within_time_targets():
    """Binary worst case at n = 2000 and 3-RR on given datasets at n = 200, each well under 30 s."""
    start = time.perf_counter()
    big = exact_shuffled_rr(1, 2000, R(1, 10**6))
    middle = time.perf_counter()
    rest = [i % 3 for i in range(199)]
    krr = exact_shuffled_krr(1, 3, rest + [0], rest + [1], R(1, 10**6))
    end = time.perf_counter()
    assert big.valid and krr.valid and 0 < big.lower <= big.upper < 1
    assert middle - start < 30 and end - middle < 30


INVALID = [
    pytest.param(lambda: exact_shuffled_krr(1, 3, [0, 1], [0, 1], R(1, 10)), "neighbour", id="no-difference"),
    pytest.param(lambda: exact_shuffled_krr(1, 3, [0, 1], [1, 0], R(1, 10)), "neighbour", id="two-differences"),
    pytest.param(lambda: exact_shuffled_krr(1, 3, [0, 1], [0, 1, 2], R(1, 10)), "dataset", id="lengths"),
    pytest.param(lambda: exact_shuffled_krr(1, 3, [0, 3], [0, 1], R(1, 10)), "dataset[1]", id="value-out-of-range"),
    pytest.param(lambda: exact_shuffled_krr(1, 3, [0, 1], [0, 2], 0), "delta", id="delta-zero"),
    pytest.param(lambda: exact_shuffled_krr(1, 30, [0] * 5, [0] * 4 + [1], R(1, 10)), "n and k", id="too-many-cells"),
    pytest.param(lambda: exact_shuffled_rr(1, 1, R(1, 10)), "n", id="rr-n-one"),
    pytest.param(lambda: exact_truth(0, 10, R(1, 10)), "eps0", id="truth-eps0"),
]


@pytest.mark.parametrize("function, parameter", INVALID)
def test_invalid_arguments(function, parameter):
    with pytest.raises(InvalidParameterError, match=parameter.replace("[", r"\[").replace("]", r"\]")):
        function()
