"""The exact checker (proofs/exact.py) against brute-force oracles in Fraction arithmetic.

Every oracle below enumerates all (x, x', y) -- or all (x, x') and all events' best case, the
hockey-stick sum -- with ``fractions.Fraction``; it shares no code with the checker, which reduces
per output for local DP and filters with floats before deciding exactly.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import (
    as_fraction,
    distance_matrices,
    edge_relations,
    exact_eps,
    exactly_equal,
    finite_channels,
    log_ratios,
    near_tie_channels,
    probability_rows,
)
from dpcert.mechanisms import (
    Adjacency,
    AllPairs,
    Edges,
    ExponentialMechanism,
    FiniteMechanism,
    Geometric,
    GeometricRenormalized,
    KaryRandomizedResponse,
    Metric,
    RandomizedResponse,
    UnaryEncoding,
)
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.channel import ExactChannel
from dpcert.proofs.exact import check_finite, hockey_stick_delta, max_hockey_stick, max_log_ratio, tightest_epsilon
from dpcert.proofs.guarantees import ApproxDP, MetricDP, PureDP

R = sympy.Rational
F = Fraction
INF = math.inf


def rational(f: Fraction) -> sympy.Rational:
    return R(f.numerator, f.denominator)


# ---------------------------------------------------------------------------------------------
# A finite mechanism given by a matrix (test double for the checker's mechanism interface)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatrixMechanism(FiniteMechanism):
    """Row x of ``rows`` is P(. | x); neighbours are ``relation`` (all pairs by default)."""

    name: ClassVar[str] = "matrix"
    rows: tuple[tuple[Fraction, ...], ...]
    relation: object = AllPairs()

    @property
    def neighbours(self):
        return self.relation

    def inputs(self) -> tuple[int, ...]:
        return tuple(range(len(self.rows)))

    def outputs(self) -> tuple[int, ...]:
        return tuple(range(len(self.rows[0])))

    def pmf(self, x: Hashable) -> Mapping[int, sympy.Expr]:
        self.validate_input(x)
        return {j: rational(p) for j, p in enumerate(self.rows[x]) if p}


def matrix_mechanism(rows, relation=AllPairs()) -> MatrixMechanism:
    return MatrixMechanism(tuple(tuple(r) for r in rows), relation)


# ---------------------------------------------------------------------------------------------
# Brute-force oracles (Fraction arithmetic over every pair and output)
# ---------------------------------------------------------------------------------------------

def all_ordered_pairs(n: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(n) for b in range(n) if a != b]


def both_directions(edges) -> list[tuple[int, int]]:
    return [(a, b) for a, b in edges] + [(b, a) for a, b in edges]


def oracle_max_ratio(rows, pairs) -> Fraction | float:
    """max over (x, x') in pairs and y of P(y|x) / P(y|x'); inf when P(y|x') = 0 < P(y|x)."""
    best: Fraction | float = Fraction(0)
    for a, b in pairs:
        for p, q in zip(rows[a], rows[b]):
            if p == 0:
                continue
            ratio = INF if q == 0 else p / q
            best = max(best, ratio)
    return best


def metric_greater(u: tuple, v: tuple) -> bool:
    """log(r_u) / d_u > log(r_v) / d_v for positive ratios r (inf allowed), decided with integer powers.

    d = num/den, so log(r1)/d1 > log(r2)/d2  <=>  r1^(num2*den1) > r2^(num1*den2).
    """
    (r1, d1), (r2, d2) = u, v
    if r1 == INF or r2 == INF:
        return r1 == INF and r2 != INF
    return r1 ** (d2.numerator * d1.denominator) > r2 ** (d1.numerator * d2.denominator)


def oracle_metric(rows, matrix) -> tuple:
    """The (ratio, distance) maximising log(P(y|x)/P(y|x')) / d(x, x') over all x != x' and y."""
    best = None
    for a, b in all_ordered_pairs(len(rows)):
        for p, q in zip(rows[a], rows[b]):
            if p == 0:
                continue
            candidate = (INF if q == 0 else p / q, matrix[a][b])
            if best is None or metric_greater(candidate, best):
                best = candidate
    return best


def oracle_hockey_stick(rows, pairs, t: Fraction) -> Fraction:
    """max over (x, x') of sum_y max(P(y|x) - t P(y|x'), 0) (Dwork-Roth 2014, Lemma 3.17 form)."""
    return max(sum((max(p - t * q, Fraction(0)) for p, q in zip(rows[a], rows[b])), Fraction(0)) for a, b in pairs)


def assert_search_matches(search, channel, rows, expected_ratio):
    """The checker's worst (x, x', y) is a real entry pair whose ratio is the oracle's maximum."""
    p, q = as_fraction(search.p), as_fraction(search.p_prime)
    assert p == rows[search.i][search.j] and q == rows[search.i_prime][search.j]
    assert search.i != search.i_prime
    if expected_ratio == INF:
        assert search.epsilon == sympy.oo and q == 0 < p
    else:
        assert p / q == expected_ratio
        assert sympy.exp(search.epsilon) == rational(expected_ratio)


# ---------------------------------------------------------------------------------------------
# Tightest eps on random channels
# ---------------------------------------------------------------------------------------------

@given(finite_channels())
def test_max_log_ratio_all_pairs_equals_brute_force(rows):
    channel = ExactChannel.from_matrix(rows)
    search = max_log_ratio(channel, AllPairs())
    assert_search_matches(search, channel, rows, oracle_max_ratio(rows, all_ordered_pairs(len(rows))))


@given(st.data())
def test_max_log_ratio_edges_equals_brute_force(data):
    rows = data.draw(finite_channels())
    edges = data.draw(edge_relations(len(rows)))
    channel = ExactChannel.from_matrix(rows)
    search = max_log_ratio(channel, Edges(edges))
    assert (search.i, search.i_prime) in both_directions(edges)
    assert_search_matches(search, channel, rows, oracle_max_ratio(rows, both_directions(edges)))


@given(near_tie_channels())
def test_max_log_ratio_decides_near_ties_exactly(rows):
    # All log-ratios are within ~1e-24 of 0: the float shadow cannot rank them, exact arithmetic must.
    channel = ExactChannel.from_matrix(rows)
    search = max_log_ratio(channel, AllPairs())
    assert_search_matches(search, channel, rows, oracle_max_ratio(rows, all_ordered_pairs(len(rows))))
    edges = tuple((a, a + 1) for a in range(len(rows) - 1))
    search = max_log_ratio(channel, Edges(edges))
    assert_search_matches(search, channel, rows, oracle_max_ratio(rows, both_directions(edges)))


@given(near_tie_channels())
def test_certificates_on_near_tie_channels_recheck_and_reject_a_tiny_understatement(rows):
    # A valid certificate must re-check even when float64 cannot rank the entries of a column, and
    # an eps understated by 1e-40 -- far below float resolution -- must be caught.
    for relation in (AllPairs(), Edges(tuple((a, a + 1) for a in range(len(rows) - 1)))):
        certificate = tightest_epsilon(matrix_mechanism(rows, relation))
        assert certificate.verdict is Verdict.PROVED and certificate.recheck()
        if certificate.epsilon != 0:
            assert not dataclasses.replace(certificate, epsilon=certificate.epsilon - R(1, 10**40)).recheck()


def test_near_tie_where_float_ranking_is_wrong():
    # Column 0 ratio 1 + 2d, column 1 ratio 1/(1 - 2d) = 1 + 2d + 4d^2 + ...: they differ by 4d^2 = 4e-40,
    # invisible in float64 (both logs round to 2e-20). The maximum is column 1, from x=1 to x'=0.
    d = Fraction(1, 10**20)
    rows = [[Fraction(1, 2) + d, Fraction(1, 2) - d], [Fraction(1, 2), Fraction(1, 2)]]
    search = max_log_ratio(ExactChannel.from_matrix(rows), AllPairs())
    assert (search.i, search.i_prime, search.j) == (1, 0, 1)
    assert sympy.exp(search.epsilon) == rational(1 / (1 - 2 * d))


@given(st.data())
def test_max_log_ratio_explicit_metric_equals_brute_force(data):
    rows = data.draw(finite_channels())
    matrix = data.draw(distance_matrices(len(rows)))
    channel = ExactChannel.from_matrix(rows)
    search = max_log_ratio(channel, Metric.from_matrix(channel.inputs, matrix))
    expected = oracle_metric(rows, matrix)
    p, q = as_fraction(search.p), as_fraction(search.p_prime)
    assert p == rows[search.i][search.j] and q == rows[search.i_prime][search.j]
    assert as_fraction(search.distance) == matrix[search.i][search.i_prime]
    got = (INF if q == 0 else p / q, matrix[search.i][search.i_prime])
    assert not metric_greater(expected, got) and not metric_greater(got, expected)  # same value
    if expected[0] == INF:
        assert search.epsilon == sympy.oo
    else:  # eps = log(p/q) / d exactly
        assert exactly_equal(sympy.exp(search.epsilon * search.distance), rational(p / q))


# ---------------------------------------------------------------------------------------------
# Hockey-stick divergence
# ---------------------------------------------------------------------------------------------

def eps_for(channel_rows, data) -> Fraction:
    """A rational t = e^eps: random, or one of the channel's own ratios (exact ties P = t Q)."""
    own = sorted({p / q for r1 in channel_rows for r2 in channel_rows for p, q in zip(r1, r2)
                  if p and q and Fraction(21, 20) <= p / q <= 148})
    strategy = log_ratios() if not own else st.one_of(log_ratios(), st.sampled_from(own))
    return data.draw(strategy, label="t = e^eps")


@given(st.data())
def test_max_hockey_stick_equals_brute_force(data):
    rows = data.draw(finite_channels())
    t = eps_for(rows, data)
    eps = sympy.log(rational(t))
    channel = ExactChannel.from_matrix(rows)
    search = max_hockey_stick(channel, AllPairs(), eps)
    assert as_fraction(search.delta) == oracle_hockey_stick(rows, all_ordered_pairs(len(rows)), t)
    # the reported event and probabilities are the real ones, and P(S|x) - t P(S|x') is the delta
    a, b = search.i, search.i_prime
    assert search.event == tuple(j for j in range(len(rows[0])) if rows[a][j] > t * rows[b][j])
    assert as_fraction(search.p) == sum((rows[a][j] for j in search.event), Fraction(0))
    assert as_fraction(search.p_prime) == sum((rows[b][j] for j in search.event), Fraction(0))


@given(st.data())
def test_max_hockey_stick_with_edges_equals_brute_force(data):
    rows = data.draw(near_tie_channels() if data.draw(st.booleans(), label="near ties") else finite_channels())
    edges = data.draw(edge_relations(len(rows)))
    t = eps_for(rows, data)
    search = max_hockey_stick(ExactChannel.from_matrix(rows), Edges(edges), sympy.log(rational(t)))
    assert as_fraction(search.delta) == oracle_hockey_stick(rows, both_directions(edges), t)
    assert (search.i, search.i_prime) in both_directions(edges)


@st.composite
def hockey_near_tie(draw):
    """Two inputs and a rational t with P(y0|0) = t P(y0|1) + delta0, |delta0| <= 5e-25 (maybe 0).

    Whether y0 belongs to the event {P > t Q} is invisible in float64; the exact delta depends on it.
    """
    m = draw(st.integers(2, 4))
    q_row = [Fraction(w, 1) for w in draw(st.lists(st.integers(1, 20), min_size=m, max_size=m))]
    q_row = [w / sum(q_row) for w in q_row]
    j0 = draw(st.integers(0, m - 1))
    t = draw(log_ratios().filter(lambda r: r * q_row[j0] < Fraction(9, 10)))
    p0 = t * q_row[j0] + draw(st.integers(-5, 5)) * Fraction(1, 10**25)
    weights = draw(st.lists(st.integers(1, 20), min_size=m - 1, max_size=m - 1))
    rest = [(1 - p0) * Fraction(w, sum(weights)) for w in weights]
    p_row = rest[:j0] + [p0] + rest[j0:]
    return [p_row, q_row], t


ONE_DIRECTION = Adjacency(lambda a, b: (a, b) == (0, 1), "only the ordered pair (0, 1)")


@given(hockey_near_tie())
def test_max_hockey_stick_decides_event_membership_exactly(case):
    rows, t = case
    # only the direction (0, 1), so the near-tied output y0 decides the answer
    search = max_hockey_stick(ExactChannel.from_matrix(rows), ONE_DIRECTION, sympy.log(rational(t)))
    assert as_fraction(search.delta) == oracle_hockey_stick(rows, [(0, 1)], t)
    assert search.event == tuple(j for j in range(len(rows[0])) if rows[0][j] > t * rows[1][j])
    search = max_hockey_stick(ExactChannel.from_matrix(rows), AllPairs(), sympy.log(rational(t)))
    assert as_fraction(search.delta) == oracle_hockey_stick(rows, all_ordered_pairs(2), t)


@st.composite
def hockey_near_tie_pairs(draw):
    """Rows A, A + d, C with d a zero-sum perturbation of order 1e-25..1e-15, and a rational t.

    delta(A, C) and delta(A + d, C) (and the reverse pairs) differ below float resolution, and one of
    them is the maximum, so the checker must rank its float candidates exactly.
    """
    m = draw(st.integers(2, 4))
    a = draw(probability_rows(m, allow_zeros=False))
    c = draw(probability_rows(m, allow_zeros=False))
    tiny = Fraction(1, 10 ** draw(st.sampled_from([25, 17, 16, 15])))
    shifts = [s * tiny for s in draw(st.lists(st.integers(-5, 5), min_size=m - 1, max_size=m - 1))]
    shifts.append(-sum(shifts, Fraction(0)))
    return [a, [x + s for x, s in zip(a, shifts)], c], draw(log_ratios().filter(lambda r: r < 3))


@given(hockey_near_tie_pairs())
def test_max_hockey_stick_ranks_near_tied_pairs_exactly(case):
    rows, t = case
    search = max_hockey_stick(ExactChannel.from_matrix(rows), AllPairs(), sympy.log(rational(t)))
    assert as_fraction(search.delta) == oracle_hockey_stick(rows, all_ordered_pairs(3), t)
    edges = ((0, 2), (1, 2))
    search = max_hockey_stick(ExactChannel.from_matrix(rows), Edges(edges), sympy.log(rational(t)))
    assert as_fraction(search.delta) == oracle_hockey_stick(rows, both_directions(edges), t)


HOCKEY_FLOAT_REVERSALS = [
    # Found by a seeded random search: rows A, A + d (d ~ 1e-17), C where the float64 divergence of
    # (A + d, C) comes out *below* that of (A, C) although exactly it is larger by 2e-17 (3e-17) and is
    # the maximum. The pairs sit in different blocks of the search, so the block filter must keep
    # near-ties, not only float maxima.
    ([[F(1, 5), F(14, 85), F(27, 85), F(27, 85)],
      [F(2499999999999999, 12500000000000000), F(56000000000000017, 340000000000000000),
       F(539999999999999949, 1700000000000000000), F(270000000000000051, 850000000000000000)],
      [F(2, 5), F(2, 25), F(9, 50), F(17, 50)]], F(23, 20)),
    ([[F(27, 74), F(23, 74), F(12, 37)],
      [F(269999999999999963, 740000000000000000), F(143750000000000037, 462500000000000000),
       F(1199999999999999889, 3700000000000000000)],
      [F(1, 29), F(4, 29), F(24, 29)]], F(13, 10)),
]


@pytest.mark.parametrize("rows, t", HOCKEY_FLOAT_REVERSALS)
def test_max_hockey_stick_when_float_ranks_pairs_in_the_wrong_order(rows, t):
    expected = oracle_hockey_stick(rows, all_ordered_pairs(3), t)
    assert expected == oracle_hockey_stick(rows, [(1, 2)], t) > oracle_hockey_stick(rows, [(0, 2)], t)
    search = max_hockey_stick(ExactChannel.from_matrix(rows), AllPairs(), sympy.log(rational(t)))
    assert as_fraction(search.delta) == expected and (search.i, search.i_prime) == (1, 2)


@given(hockey_near_tie_pairs())
def test_max_log_ratio_ranks_near_tied_pairs_exactly(case):
    rows, _ = case
    channel = ExactChannel.from_matrix(rows)
    assert_search_matches(max_log_ratio(channel, AllPairs()), channel, rows,
                          oracle_max_ratio(rows, all_ordered_pairs(3)))
    edges = ((0, 2), (1, 2))
    assert_search_matches(max_log_ratio(channel, Edges(edges)), channel, rows,
                          oracle_max_ratio(rows, both_directions(edges)))


@given(st.data())
def test_hockey_stick_at_irrational_e_eps_matches_high_precision_oracle(data):
    # eps rational, so e^eps is irrational: the oracle sums with 60-digit mpmath instead of Fractions.
    rows = data.draw(finite_channels())
    eps = data.draw(st.fractions(min_value=Fraction(1, 20), max_value=3, max_denominator=20)
                    .filter(lambda f: f > Fraction(1, 20)))
    search = max_hockey_stick(ExactChannel.from_matrix(rows), AllPairs(), rational(eps))
    with mpmath.workdps(60):
        t = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        expected = max(sum((max(mpmath.mpf(p.numerator) / p.denominator - t * mpmath.mpf(q.numerator) / q.denominator, 0)
                            for p, q in zip(rows[a], rows[b])), mpmath.mpf(0))
                       for a, b in all_ordered_pairs(len(rows)))
        assert abs(mpmath.mpf(sympy.N(search.delta, 60)) - expected) < mpmath.mpf(10) ** -50


# ---------------------------------------------------------------------------------------------
# Catalogue mechanisms: the exact tightest eps is the parameter eps (tight mechanisms)
# ---------------------------------------------------------------------------------------------

@settings(max_examples=30)
@given(exact_eps(), st.integers(2, 8))
def test_k_rr_tightest_eps_is_eps(eps, k):
    certificate = tightest_epsilon(KaryRandomizedResponse(k=k, eps=eps))
    assert certificate.verdict is Verdict.PROVED
    assert exactly_equal(certificate.epsilon, eps)
    assert certificate.recheck()


@settings(max_examples=20)
@given(exact_eps(), st.integers(2, 8), st.sampled_from(["sue", "oue"]))
def test_unary_encoding_tightest_eps_is_eps(eps, k, variant):
    certificate = tightest_epsilon(UnaryEncoding(k=k, eps=eps, variant=variant))
    assert certificate.verdict is Verdict.PROVED
    assert exactly_equal(certificate.epsilon, eps)
    assert certificate.recheck()


@settings(max_examples=20)
@given(exact_eps(), st.integers(-3, 3), st.integers(1, 5))
def test_geometric_tightest_eps_is_eps(eps, lo, width):
    certificate = tightest_epsilon(Geometric(eps=eps, lo=lo, hi=lo + width))
    assert certificate.verdict is Verdict.PROVED
    assert exactly_equal(certificate.epsilon, eps)
    assert certificate.recheck()


@given(exact_eps())
def test_randomized_response_tightest_eps_is_eps(eps):
    certificate = tightest_epsilon(RandomizedResponse(eps=eps))
    assert exactly_equal(certificate.epsilon, eps) and certificate.recheck()


# ---------------------------------------------------------------------------------------------
# Verdicts and certificates on random channels
# ---------------------------------------------------------------------------------------------

@given(st.data())
def test_pure_dp_verdict_matches_oracle_and_every_certificate_rechecks(data):
    rows = data.draw(finite_channels())
    relation = AllPairs() if data.draw(st.booleans(), label="all pairs") else Edges(data.draw(edge_relations(len(rows))))
    pairs = all_ordered_pairs(len(rows)) if isinstance(relation, AllPairs) else both_directions(relation.pairs)
    t = eps_for(rows, data)
    mechanism = matrix_mechanism(rows, relation)
    certificate = check_finite(mechanism, PureDP(sympy.log(rational(t))))
    worst = oracle_max_ratio(rows, pairs)
    assert certificate.verdict is (Verdict.PROVED if worst <= t else Verdict.REFUTED)
    assert certificate.recheck()
    if certificate.verdict is Verdict.REFUTED:
        w = certificate.witness
        p, q = rows[w.x][w.output], rows[w.x_prime][w.output]  # recomputed from the matrix itself
        assert (w.x, w.x_prime) in pairs and as_fraction(w.p) == p and as_fraction(w.p_prime) == q
        assert p > t * q
    else:
        assert certificate.witness is None
    if worst != INF:  # the float shown upward is never below the exact eps: exp(upper) >= worst ratio
        with mpmath.workdps(50):
            assert mpmath.exp(mpmath.mpf(certificate.epsilon_upper)) >= mpmath.mpf(worst.numerator) / worst.denominator


@given(st.data())
def test_approx_dp_verdict_matches_oracle_and_every_certificate_rechecks(data):
    rows = data.draw(finite_channels())
    t = eps_for(rows, data)
    delta = data.draw(st.fractions(min_value=0, max_value=Fraction(1, 2), max_denominator=50), label="delta")
    certificate = check_finite(matrix_mechanism(rows), ApproxDP(sympy.log(rational(t)), rational(delta)))
    expected = oracle_hockey_stick(rows, all_ordered_pairs(len(rows)), t)
    assert as_fraction(certificate.delta) == expected
    assert certificate.verdict is (Verdict.PROVED if expected <= delta else Verdict.REFUTED)
    assert certificate.recheck()
    if certificate.verdict is Verdict.REFUTED:
        w = certificate.witness
        p = sum((rows[w.x][y] for y in w.output), Fraction(0))
        q = sum((rows[w.x_prime][y] for y in w.output), Fraction(0))
        assert p > t * q + delta


@given(finite_channels(allow_zeros=True))
def test_tightest_epsilon_certificate_rechecks_including_infinite_eps(rows):
    certificate = tightest_epsilon(matrix_mechanism(rows))
    worst = oracle_max_ratio(rows, all_ordered_pairs(len(rows)))
    assert certificate.recheck()
    if worst == INF:
        assert certificate.verdict is Verdict.REFUTED and certificate.epsilon == sympy.oo
        assert certificate.epsilon_upper == INF
        assert certificate.witness.p_prime == 0 < certificate.witness.p
    else:
        assert certificate.verdict is Verdict.PROVED and sympy.exp(certificate.epsilon) == rational(worst)


def test_recheck_rejects_tampered_certificates():
    # recheck() must be able to fail: understate the proved eps, or move the witness.
    mechanism = KaryRandomizedResponse(k=3, eps=sympy.log(4))
    proved = tightest_epsilon(mechanism)
    assert proved.recheck()
    assert not dataclasses.replace(proved, epsilon=sympy.log(R(39, 10))).recheck()
    refuted = check_finite(mechanism, PureDP(sympy.log(3)))
    assert refuted.verdict is Verdict.REFUTED and refuted.recheck()
    w = refuted.witness
    assert not dataclasses.replace(refuted, witness=dataclasses.replace(w, output=(w.output + 1) % 3)).recheck()
    assert not dataclasses.replace(refuted, witness=dataclasses.replace(w, p=w.p + R(1, 10**30))).recheck()
    assert not dataclasses.replace(refuted, guarantee=PureDP(sympy.log(4))).recheck()
    # a witness between inputs that are not neighbours does not refute anything, however large its ratio
    geometric = GeometricRenormalized(eps=sympy.log(2), lo=0, hi=4)
    refuted = check_finite(geometric, PureDP(sympy.log(2)))
    far = dataclasses.replace(refuted.witness, x=0, x_prime=4, output=0, p=geometric.pmf(0)[0], p_prime=geometric.pmf(4)[0])
    assert far.p > 2 * far.p_prime  # the ratio does exceed e^eps ...
    assert not dataclasses.replace(refuted, witness=far).recheck()  # ... but 0 and 4 are not neighbours
    approx = check_finite(mechanism, ApproxDP(sympy.log(2), R(1, 3)))  # delta(log 2) = (4 - 2)/6 = 1/3
    assert approx.verdict is Verdict.PROVED and approx.recheck()
    assert not dataclasses.replace(approx, guarantee=ApproxDP(sympy.log(2), R(1, 3) - R(1, 10**40))).recheck()
    approx_refuted = check_finite(mechanism, ApproxDP(sympy.log(2), R(1, 4)))
    assert approx_refuted.verdict is Verdict.REFUTED and approx_refuted.recheck()
    # the same witness does not break the guarantee at delta = 1/3, so it must not re-check there
    assert not dataclasses.replace(approx_refuted, guarantee=ApproxDP(sympy.log(2), R(1, 3))).recheck()


def test_recheck_of_a_metric_proof_checks_every_distance():
    # With distances other than 1 a metric proof must be re-checked against eps * d(x, x'):
    # geometric on {0..3} with d = 2|x - x'| has tightest metric eps = log(2)/2.
    mechanism = Geometric(eps=sympy.log(2), lo=0, hi=3)
    metric = Metric.from_matrix(mechanism.inputs(), [[2 * abs(a - b) for b in range(4)] for a in range(4)])
    certificate = tightest_epsilon(mechanism, relation=metric)
    assert exactly_equal(certificate.epsilon, sympy.log(2) / 2) and certificate.recheck()
    for understated in (sympy.log(2) / 3, sympy.log(2) * R(49, 100)):
        assert not dataclasses.replace(certificate, epsilon=understated).recheck()
    half_metric = Metric.from_matrix(mechanism.inputs(), [[R(1, 2) * abs(a - b) for b in range(4)] for a in range(4)])
    certificate = tightest_epsilon(mechanism, relation=half_metric)
    assert exactly_equal(certificate.epsilon, 2 * sympy.log(2)) and certificate.recheck()
    assert not dataclasses.replace(certificate, epsilon=sympy.log(2) * R(199, 100)).recheck()


# ---------------------------------------------------------------------------------------------
# Negative controls and sensitivity bugs
# ---------------------------------------------------------------------------------------------

def renormalized_pmf(alpha, lo: int, hi: int, x: int, y: int):
    """GeometricRenormalized's docstring formula: P(y | x) = alpha^|y - x| / sum_{y' in [lo, hi]} alpha^|y' - x|."""
    return alpha ** abs(y - x) / sum(alpha ** abs(z - x) for z in range(lo, hi + 1))


@pytest.mark.parametrize("lo, hi", [(0, 4), (0, 10), (-3, 2)])
def test_geometric_renormalized_is_refuted_with_an_independently_checked_witness(lo, hi):
    # eps = log 2, so alpha = 1/2 and every probability is a Fraction.
    mechanism = GeometricRenormalized(eps=sympy.log(2), lo=lo, hi=hi)
    certificate = check_finite(mechanism, PureDP(sympy.log(2)))
    assert certificate.verdict is Verdict.REFUTED and certificate.recheck()
    w = certificate.witness
    assert abs(w.x - w.x_prime) == 1 and lo <= min(w.x, w.x_prime) and max(w.x, w.x_prime) <= hi
    p = renormalized_pmf(Fraction(1, 2), lo, hi, w.x, w.output)
    p_prime = renormalized_pmf(Fraction(1, 2), lo, hi, w.x_prime, w.output)
    assert as_fraction(w.p) == p and as_fraction(w.p_prime) == p_prime
    assert p > 2 * p_prime  # P(y|x) > e^eps P(y|x')
    # and the tightest eps is the worst such ratio over all neighbours and outputs (brute force)
    worst = max(renormalized_pmf(Fraction(1, 2), lo, hi, a, y) / renormalized_pmf(Fraction(1, 2), lo, hi, b, y)
                for x in range(lo, hi) for a, b in [(x, x + 1), (x + 1, x)] for y in range(lo, hi + 1))
    assert sympy.exp(certificate.epsilon) == rational(worst)


def test_geometric_renormalized_is_refuted_at_irrational_alpha():
    # eps = 1/2: alpha = e^(-1/2) is irrational; the witness is re-derived with 50-digit mpmath.
    mechanism = GeometricRenormalized(eps=R(1, 2), lo=0, hi=5)
    certificate = check_finite(mechanism, PureDP(R(1, 2)))
    assert certificate.verdict is Verdict.REFUTED and certificate.recheck()
    w = certificate.witness
    with mpmath.workdps(50):
        alpha = mpmath.exp(-mpmath.mpf(1) / 2)
        p = renormalized_pmf(alpha, 0, 5, w.x, w.output)
        p_prime = renormalized_pmf(alpha, 0, 5, w.x_prime, w.output)
        assert abs(mpmath.mpf(sympy.N(w.p, 50)) - p) < mpmath.mpf(10) ** -45
        assert abs(mpmath.mpf(sympy.N(w.p_prime, 50)) - p_prime) < mpmath.mpf(10) ** -45
        assert p > mpmath.exp(mpmath.mpf(1) / 2) * p_prime * (1 + mpmath.mpf(10) ** -10)


def exponential_oracle(eps: Fraction, sensitivity: Fraction, utilities) -> mpmath.mpf:
    """max over consecutive rows and outputs of log P(r|x)/P(r|x'), P(r|x) ~ exp(eps u(x,r) / (2 sensitivity))."""
    with mpmath.workdps(50):
        scale = mpmath.mpf(eps.numerator) / eps.denominator / (2 * mpmath.mpf(sensitivity.numerator) / sensitivity.denominator)
        tables = []
        for row in utilities:
            weights = [mpmath.exp(scale * u) for u in row]
            tables.append([w / sum(weights) for w in weights])
        return max(mpmath.log(tables[a][r] / tables[b][r])
                   for x in range(len(utilities) - 1) for a, b in [(x, x + 1), (x + 1, x)]
                   for r in range(len(utilities[0])))


def test_exponential_mechanism_understated_sensitivity_is_refuted():
    # |u(0, r) - u(1, r)| reaches 10, but the declared sensitivity is 1.
    utilities = [[0, 0, 5], [0, 10, 5]]
    understated = ExponentialMechanism(eps=1, sensitivity=1, utilities=utilities)
    certificate = check_finite(understated, PureDP(1))
    assert certificate.verdict is Verdict.REFUTED and certificate.recheck()
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(sympy.N(certificate.epsilon, 50)) - exponential_oracle(Fraction(1), Fraction(1), utilities)) \
            < mpmath.mpf(10) ** -40
        w = certificate.witness
        assert mpmath.mpf(sympy.N(w.p, 50)) > mpmath.e * mpmath.mpf(sympy.N(w.p_prime, 50))

    correct = ExponentialMechanism(eps=1, sensitivity=10, utilities=utilities)
    certificate = check_finite(correct, PureDP(1))
    assert certificate.verdict is Verdict.PROVED and certificate.recheck()
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(sympy.N(certificate.epsilon, 50)) - exponential_oracle(Fraction(1), Fraction(10), utilities)) \
            < mpmath.mpf(10) ** -40


@settings(max_examples=15)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=4), min_size=2, max_size=4)
       .filter(lambda rows: len({len(r) for r in rows}) == 1),
       st.fractions(min_value=Fraction(1, 4), max_value=3, max_denominator=4))
def test_exponential_mechanism_with_true_sensitivity_is_eps_dp(utilities, eps):
    # McSherry-Talwar (2007), Theorem 6: with sensitivity >= max |u(x, r) - u(x', r)| it is eps-DP.
    sensitivity = max([abs(a - b) for x in range(len(utilities) - 1)
                       for a, b in zip(utilities[x], utilities[x + 1])] + [1])
    mechanism = ExponentialMechanism(eps=rational(eps), sensitivity=sensitivity, utilities=utilities)
    certificate = check_finite(mechanism, PureDP(rational(eps)))
    assert certificate.verdict is Verdict.PROVED and certificate.recheck()
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(sympy.N(certificate.epsilon, 50))
                   - exponential_oracle(eps, Fraction(sensitivity), utilities)) < mpmath.mpf(10) ** -40


# ---------------------------------------------------------------------------------------------
# Metric DP
# ---------------------------------------------------------------------------------------------

@settings(max_examples=20)
@given(exact_eps(), st.integers(-2, 2), st.integers(1, 5))
def test_geometric_is_eps_metric_dp_for_the_absolute_distance(eps, lo, width):
    eps = sympy.sympify(eps)
    # Ghosh et al. (2009): P(y|x)/P(y|x') <= alpha^-|x - x'|, with equality at y <= min(x, x').
    mechanism = Geometric(eps=eps, lo=lo, hi=lo + width)
    distance = Metric(lambda a, b: abs(a - b), "|x - x'|")
    certificate = tightest_epsilon(mechanism, relation=distance)
    assert certificate.verdict is Verdict.PROVED and exactly_equal(certificate.epsilon, eps)
    assert certificate.recheck()
    assert check_finite(mechanism, MetricDP(eps), relation=distance).verdict is Verdict.PROVED
    smaller = check_finite(mechanism, MetricDP(eps * R(99, 100)), relation=distance)
    assert smaller.verdict is Verdict.REFUTED and smaller.recheck()
    w = smaller.witness
    ratio_allowed = sympy.exp(eps * R(99, 100) * abs(w.x - w.x_prime))
    assert sympy.N(w.p - ratio_allowed * w.p_prime, 50) > 0


@given(st.data())
def test_metric_dp_verdict_on_random_channel_and_metric_matches_oracle(data):
    rows = data.draw(finite_channels(allow_zeros=False))
    matrix = data.draw(distance_matrices(len(rows)))
    eps = data.draw(st.fractions(min_value=Fraction(1, 20), max_value=5, max_denominator=20)
                    .filter(lambda f: f > Fraction(1, 20)), label="eps")
    mechanism = matrix_mechanism(rows)
    metric = Metric.from_matrix(mechanism.inputs(), matrix)
    certificate = check_finite(mechanism, MetricDP(rational(eps)), relation=metric)
    # oracle: eps-metric-DP iff every P(y|x) <= exp(eps d) P(y|x'), i.e. log(p/q)/d <= eps (50-digit check,
    # away from ties because eps has a small denominator and log-ratios of rationals are irrational)
    ratio, d = oracle_metric(rows, matrix)
    with mpmath.workdps(50):
        worst = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator) / (mpmath.mpf(d.numerator) / d.denominator)
        holds = worst <= mpmath.mpf(eps.numerator) / eps.denominator
    assert certificate.verdict is (Verdict.PROVED if holds else Verdict.REFUTED)
    assert certificate.recheck()


# ---------------------------------------------------------------------------------------------
# Approximate DP of k-RR below its eps
# ---------------------------------------------------------------------------------------------

@settings(max_examples=30)
@given(st.integers(2, 6), log_ratios(), log_ratios())
def test_k_rr_delta_below_its_eps_equals_brute_force_hockey_stick(k, r1, r2):
    r, r_prime = max(r1, r2), min(r1, r2)  # eps' = log r' <= eps = log r
    mechanism = KaryRandomizedResponse(k=k, eps=sympy.log(rational(r)))
    rows = [[r / (r + k - 1) if y == x else 1 / (r + k - 1) for y in range(k)] for x in range(k)]  # k-RR by definition
    expected = oracle_hockey_stick(rows, all_ordered_pairs(k), r_prime)
    delta = hockey_stick_delta(mechanism, sympy.log(rational(r_prime)))
    assert as_fraction(delta) == expected
    certificate = check_finite(mechanism, ApproxDP(sympy.log(rational(r_prime)), rational(expected)))
    assert certificate.verdict is Verdict.PROVED and certificate.recheck()
    if expected > 0:
        below = check_finite(mechanism, ApproxDP(sympy.log(rational(r_prime)), rational(expected * Fraction(999, 1000))))
        assert below.verdict is Verdict.REFUTED and below.recheck()
