"""The exact truth for shuffled randomized response, against independent exact computations.

References: exact rational arithmetic (eps0 = log(r), so e^eps0 = r is rational) over the law of the
shuffled count, built here by brute force (enumerating every output sequence, or by convolving exact
binomials); dpcert's exact checker (dpcert.proofs.exact) on the shuffled mechanism as a channel matrix; and the
brute-force oracle over all datasets (tests/oracles/shuffle.py, fuzzed in test_shuffle_oracle.py).
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
import sympy

from dpcert.accountant.shuffle import (
    MAX_EXACT_KRR_N,
    exact_shuffled_krr,
    exact_shuffled_krr_worst,
    exact_shuffled_rr,
    exact_shuffled_rr_delta,
    exact_truth,
)
from dpcert.accountant.shuffle_exact import (
    MAX_EXACT_KRR_WORK,
    binomial_pmf_enclosure,
    hockey_stick_epsilon,
    krr_worst_case_cost,
    largest_krr_worst_case_n,
    shuffled_krr_laws,
)
from dpcert.accountant.shuffle_intervals import enclose
from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign
from oracles.shuffle import shuffled_krr_epsilon
from dpcert.proofs.channel import ExactChannel
from dpcert.proofs.exact import max_hockey_stick

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
    assert result.bounds == "exact" and result.enclosure == (result.lower, result.upper)
    assert result.lower <= truth * (1 + 1e-14) and truth <= result.upper * (1 + 1e-14)
    assert result.upper - result.lower < 1e-9


def test_binary_rr_delta_matches_proofs_exact_on_the_channel():
    """delta(eps) of the shuffled count, worst case over the others' bits, against dpcert.proofs.exact."""
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
    # and the k-RR worst-case enumeration at k = 2 is the binary worst case
    enumerated = exact_shuffled_krr_worst(eps0, 2, n, delta)
    assert abs(enumerated.upper - worst.upper) < 1e-9 and abs(enumerated.lower - worst.lower) < 1e-9


def test_binomial_enclosure_against_exact_rationals():
    for m, r in [(1, Fraction(3)), (17, Fraction(5, 2)), (300, Fraction(1, 7))]:
        lo, hi = binomial_pmf_enclosure(m, enclose(sympy.Rational(r.numerator, r.denominator)))
        p = r / (1 + r)
        for a in range(m + 1):
            exact = math.comb(m, a) * p ** a * (1 - p) ** (m - a)
            assert lo[a] <= exact <= hi[a]


def test_hockey_epsilon_zero_identity_and_ceiling():
    P = (np.array([0.5, 0.5]), np.array([0.5, 0.5]))
    assert hockey_stick_epsilon(P, P, (1e-3, 1e-3), ceiling=1.0).upper == 0.0
    # randomized response with e^eps0 = 3 at a delta the floats cannot resolve: the ceiling eps0 is the answer
    Q = (np.array([0.75, 0.25]), np.array([0.75, 0.25]))
    R_ = (np.array([0.25, 0.75]), np.array([0.25, 0.75]))
    ceiling = math.nextafter(math.log(3), 2)  # ln 3 rounded up
    tiny = hockey_stick_epsilon(Q, R_, (0.0, 5e-324), ceiling=ceiling)
    assert tiny.upper == ceiling and math.log(3) - 1e-14 <= tiny.lower <= math.log(3)


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
    start = time.perf_counter()
    worst = exact_truth(1, largest_krr_worst_case_n(3), R(1, 10**6), k=3)  # the largest enumeration for k = 3
    assert worst.valid and worst.bounds == "exact" and time.perf_counter() - start < 30


# ---------------------------------------------------------------------------------------------
# The exact row: worst case over all datasets, lower bounds where that is out of reach
# ---------------------------------------------------------------------------------------------

def test_krr_worst_case_finds_the_issue_pair():
    """Issue 9's smallest case: eps0 = 0.9609, n = 4, delta = 0.0364, k = 3. Three canonical datasets gave
    0.59235; the datasets (0,1,1,2) vs (1,1,1,2) give 0.62334 (the issue's brute force over all 81 outputs)."""
    row = exact_truth(R(9609, 10000), 4, R(364, 10000), k=3)
    assert row.valid and row.bounds == "exact"
    assert row.lower <= 0.623345 and row.upper >= 0.623335 and row.upper - row.lower < 1e-9
    pair = exact_shuffled_krr(R(9609, 10000), 3, [0, 1, 1, 2], [1, 1, 1, 2], R(364, 10000))
    assert abs(pair.upper - row.upper) < 1e-9  # the issue's pair attains the worst case


def test_canonical_datasets_are_only_a_lower_bound():
    """Power: the three datasets the exact row used to maximise over fall below the oracle's worst case."""
    t, n, delta = Fraction(8, 3), 4, Fraction(364, 10000)
    truth_lo, _ = shuffled_krr_epsilon(t, 3, n, delta)
    eps0 = sympy.log(R(8, 3))
    canonical = max(exact_shuffled_krr(eps0, 3, rest + [0], rest + [1], R(364, 10000)).upper
                    for rest in ([2] * (n - 1), [0] * (n - 1), [i % 3 for i in range(n - 1)]))
    assert canonical < float(truth_lo) - 1e-3
    row = exact_truth(eps0, n, R(364, 10000), k=3)
    assert row.lower <= truth_lo and float(truth_lo) <= row.upper


def test_k_omitted_is_a_certified_lower_bound_and_not_valid():
    """Any eps0-LDP randomizer: binary RR's exact eps bounds the worst case from below only."""
    row = exact_truth(1, 40, R(1, 1000))
    binary = exact_shuffled_rr(1, 40, R(1, 1000))
    assert not row.valid and row.bounds == "lower" and row.certified
    assert row.upper is None and row.certified_upper is None and row.lower == binary.lower
    assert row.value == row.lower_value and "LOWER bound" in row.note
    assert row.as_json()["upper"] is None and row.as_json()["lower"] == binary.lower


def test_beyond_the_enumeration_a_lower_bound_then_nothing():
    n = largest_krr_worst_case_n(3) + 1
    assert krr_worst_case_cost(n, 3) is None
    lower = exact_truth(1, n, R(1, 10**6), k=3)
    assert not lower.valid and lower.bounds == "lower" and lower.lower > 0 and lower.upper is None
    assert f"n <= {n - 1}" in lower.note
    beyond = exact_truth(1, MAX_EXACT_KRR_N + 1, R(1, 10**6), k=3)
    assert not beyond.valid and beyond.value is None and "too large" in beyond.note
    with pytest.raises(InvalidParameterError, match="too large"):
        exact_shuffled_krr_worst(1, 3, n, R(1, 10**6))


def test_feasibility_limit_is_decided_quickly_at_any_size():
    start = time.perf_counter()
    for n, k in ((10**12, 3), (10**30, 2), (1000, 3), (5, 10**9), (60, 3)):
        assert krr_worst_case_cost(n, k) is None
    assert time.perf_counter() - start < 1
    assert [largest_krr_worst_case_n(k) for k in (3, 4, 5)] == sorted([largest_krr_worst_case_n(k) for k in (3, 4, 5)],
                                                                     reverse=True)
    assert 0 < krr_worst_case_cost(largest_krr_worst_case_n(4), 4) <= MAX_EXACT_KRR_WORK


@pytest.mark.parametrize("eps0", [650, 690, 700])
@pytest.mark.parametrize("k", [None, 2, 3])
def test_upper_end_never_exceeds_eps0(eps0, k):
    """Shuffling is post-processing: the exact eps is <= eps0 (it was 999.2 at eps0 = 690)."""
    row = exact_truth(eps0, 10, R(1, 100), k=k)
    assert exact_sign(row.upper_value - eps0) <= 0 and row.lower_value > eps0 - 1
    with pytest.raises(InvalidParameterError, match="eps0"):
        exact_truth(701, 10, R(1, 100), k=k)


@pytest.mark.parametrize("delta", [R(1, 10**40), R(1, 10**100)])
@pytest.mark.parametrize("k", [2, 3])
def test_tiny_delta_is_answered(delta, k):
    """Tiny deltas raised ArithmeticError (1e-300) or ZeroDivisionError (1e-400): where the floats cannot
    certify less, eps0 bounds the exact eps from above (eps(delta) -> eps0 as delta -> 0)."""
    row = exact_truth(1, 10, delta, k=k)
    assert row.valid and row.bounds == "exact" and exact_sign(row.upper_value - 1) <= 0 and 1 - 1e-12 < row.lower <= 1


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
