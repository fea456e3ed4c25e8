"""The exact checker against a deliberately simple oracle (tests/oracles/channels.py), hypothesis-driven.

The oracle takes every maximum by brute force over all neighbouring pairs and outputs, in Fractions or
50-digit mpmath, with the catalogue's mechanisms rebuilt from their textbook formulas. For random
rational tables and for catalogue mechanisms at random parameters (eps from 10^-300 to 10^4) the
verdicts of ``check`` (pure, (eps, delta), metric) and ``tightest_epsilon`` must be the definition's,
a proved certificate's eps is never below the truth, a refutation's witness breaks the claim in the
oracle's numbers, and every certificate's ``recheck()`` is True.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import distance_matrices, edge_relations, finite_channels
from dpcert.mechanisms import Edges, Metric, make_mechanism
from oracles import channels as oracle

R = sympy.Rational

FUZZ = settings(max_examples=40, deadline=None, derandomize=True)

TINY_TO_LARGE_EPS = st.one_of(
    st.sampled_from(["1e-300", "1e-100", "1e-32", "1/3", "1", "log(2)", "50", "700", "10000"]),
    st.integers(1, 300).map(lambda n: f"1e-{n}"),
    st.fractions(Fraction(1, 10), 5, max_denominator=20).map(str),
)
"""A mechanism's eps: the ends of the answerable range [10^-300, 10^4] and ordinary values."""

FACTORS = st.sampled_from([R(1, 2), 1 - R(1, 1000), R(1), 1 + R(1, 1000), R(2)])
"""A claimed eps as a multiple of the mechanism's: 1 is the tie, where the right verdict is proved."""


def _claimed(eps: str, factor: sympy.Rational) -> sympy.Expr:
    value = factor * sympy.sympify(eps if not eps.startswith("1e") else R(1, 10 ** int(eps[3:])))
    return min(value, sympy.Integer(10**4)) if value.is_number and value > 10**4 else value


@st.composite
def catalogue_cases(draw):
    """(mechanism, oracle channel, oracle neighbour pairs, eps) for a finite catalogue mechanism."""
    eps = draw(TINY_TO_LARGE_EPS)
    kind = draw(st.sampled_from(["randomized-response", "k-rr", "unary-encoding", "geometric",
                                 "geometric-renormalized", "exponential"]))
    if kind == "randomized-response":
        return make_mechanism(kind, raw={"eps": eps}), oracle.randomized_response(eps, 2), None, eps
    if kind == "k-rr":
        k = draw(st.integers(2, 5))
        return make_mechanism(kind, raw={"k": k, "eps": eps}), oracle.randomized_response(eps, k), None, eps
    if kind == "unary-encoding":
        k, variant = draw(st.integers(2, 3)), draw(st.sampled_from(["sue", "oue"]))
        mechanism = make_mechanism(kind, raw={"k": k, "eps": eps, "variant": variant})
        return mechanism, oracle.unary_encoding(eps, k, variant), None, eps
    if kind in ("geometric", "geometric-renormalized"):
        lo = draw(st.integers(-3, 3))
        hi = lo + draw(st.integers(1, 4))
        build = oracle.geometric if kind == "geometric" else oracle.geometric_renormalized
        channel = build(eps, lo, hi)
        return make_mechanism(kind, raw={"eps": eps, "lo": lo, "hi": hi}), channel, oracle.one_apart(channel), eps
    rows = draw(st.integers(2, 3))
    utilities = draw(st.lists(st.lists(st.sampled_from(["0", "1", "2", "1/2", "3/2"]), min_size=2, max_size=2),
                              min_size=rows, max_size=rows))
    eps = eps if sympy.sympify(eps.replace("e-", "*10**-")) <= 1000 else "1000"  # keeps the weights' spread in range
    mechanism = make_mechanism(kind, raw={"eps": eps, "utilities": str(utilities).replace("'", '"')})
    channel = oracle.exponential(eps, 1, utilities)
    return mechanism, channel, oracle.one_apart(channel), eps


@given(catalogue_cases(), FACTORS)
@FUZZ
def test_catalogue_pure_claims_and_tightest_eps_match_the_oracle(case, factor):
    mechanism, channel, pairs, eps = case
    pairs = pairs or oracle.all_pairs(channel)
    oracle.compare_pure(mechanism, channel, pairs, _claimed(eps, factor))
    oracle.compare_tightest(mechanism, channel, pairs)


@given(catalogue_cases(), FACTORS, st.sampled_from([R(0), R(1, 10**6), R(1, 100), R(1, 2)]))
@FUZZ
def test_catalogue_approx_claims_match_the_oracle(case, factor, delta):
    mechanism, channel, pairs, eps = case
    oracle.compare_approx(mechanism, channel, pairs or oracle.all_pairs(channel), _claimed(eps, factor), delta)


@st.composite
def table_cases(draw):
    """A random rational table with all pairs or random edges as neighbours, and a claimed eps that is
    often exactly a log ratio of two of its entries (a tie)."""
    rows = draw(finite_channels(max_inputs=4, max_outputs=4))
    if draw(st.booleans()):
        relation, pairs = None, None
    else:
        edges = draw(edge_relations(len(rows)))
        relation, pairs = Edges(edges), [(a, b) for a, b in edges] + [(b, a) for a, b in edges]
    entries = sorted({p for row in rows for p in row if p})
    if draw(st.booleans()) and len(entries) > 1:
        a, b = draw(st.sampled_from(entries)), draw(st.sampled_from(entries))
        eps = sympy.log(R(max(a, b).numerator * min(a, b).denominator, max(a, b).denominator * min(a, b).numerator))
        eps = eps if eps != 0 else R(1, 10)
    else:
        eps = draw(st.sampled_from([R(1, 10**30), R(1, 10), R(1), sympy.log(3), R(5)]))
    return rows, relation, pairs, eps


@given(table_cases(), st.sampled_from([R(0), R(1, 1000), R(1, 10), R(1, 2)]))
@FUZZ
def test_random_tables_match_the_oracle(case, delta):
    rows, relation, pairs, eps = case
    mechanism = oracle.table_mechanism(rows, relation)
    channel = oracle.table_channel(rows)
    pairs = pairs or oracle.all_pairs(channel)
    oracle.compare_pure(mechanism, channel, pairs, eps)
    oracle.compare_approx(mechanism, channel, pairs, eps, delta)
    oracle.compare_tightest(mechanism, channel, pairs)


@st.composite
def metric_cases(draw):
    """A random rational table under a random rational distance matrix, or GKRR on its clustered metric."""
    if draw(st.booleans()):
        alpha0 = draw(st.sampled_from(["1e-300", "1e-20", "1/3", "1", "log(2)", "100", "10000"]))
        s, t, r = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.sampled_from(["1/4", "1/3", "1/7"]))
        if s * t < 2:
            t = 2
        mechanism = make_mechanism("gkrr", raw={"alpha0": alpha0, "s": s, "t": t, "r": r})
        channel, distance = oracle.gkrr(alpha0, s, t, r)
        return mechanism, None, channel, distance, sympy.sympify(alpha0.replace("1e-", "10**-"))
    rows = draw(finite_channels(max_inputs=4, max_outputs=4))
    matrix = draw(distance_matrices(len(rows)))
    relation = Metric.from_matrix(tuple(range(len(rows))), [[str(d) for d in row] for row in matrix])
    eps = draw(st.sampled_from([R(1, 10**20), R(1, 3), R(1), sympy.log(2), R(7)]))
    return oracle.table_mechanism(rows), relation, oracle.table_channel(rows), (lambda a, b: matrix[a][b]), eps


@given(metric_cases(), FACTORS)
@FUZZ
def test_metric_claims_match_the_oracle(case, factor):
    mechanism, relation, channel, distance, eps = case
    oracle.compare_metric(mechanism, channel, distance, factor * eps, relation=relation)
    oracle.compare_tightest(mechanism, channel, oracle.all_pairs(channel), distance, relation=relation)


def test_power_a_checker_that_allows_twice_the_eps_is_caught(monkeypatch):
    # power check: a checker that proves eps-DP whenever 2 eps-DP holds disagrees with the oracle on
    # 3-RR at eps = 1 claimed at 3/4 (the truth is 1: refuted, not proved)
    from dpcert.proofs import claim as claim_module
    from dpcert.proofs.guarantees import PureDP

    honest = claim_module.check
    monkeypatch.setattr(claim_module, "check", lambda mechanism, claim, **kw: honest(mechanism, PureDP(2 * claim.eps), **kw))
    mechanism = make_mechanism("k-rr", raw={"k": 3, "eps": 1})
    channel = oracle.randomized_response("1", 3)
    with pytest.raises(AssertionError, match="oracle says refuted"):
        oracle.compare_pure(mechanism, channel, oracle.all_pairs(channel), R(3, 4))
