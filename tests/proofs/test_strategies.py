"""Tests for dpcert.proofs.strategies: every drawn pair satisfies its relation; ldp_channels are eps-DP exactly."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy
from hypothesis import find, given
from hypothesis import strategies as st

from dpcert.mechanisms.neighbours import AllPairs
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.channel import ExactChannel, exact_compare
from dpcert.proofs.exact import max_log_ratio
from dpcert.proofs.strategies import (
    bit_flip_pairs,
    edge_flip_pairs,
    histogram_pairs,
    ldp_channels,
    metric_pairs,
    neighbouring_datasets,
    privacy_parameters,
)


def _one_deletion(long: tuple, short: tuple) -> bool:
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1:] == short for i in range(len(long)))


@given(neighbouring_datasets(st.integers(0, 3), relation="add-remove", min_size=1, max_size=5))
def test_add_remove_pairs_differ_by_one_record(pair):
    d, d2 = pair
    assert 1 <= len(d) <= 5 and 1 <= len(d2) <= 5
    assert _one_deletion(d, d2) or _one_deletion(d2, d)


@given(neighbouring_datasets(["a", "b", "c"], relation="replace-one", max_size=4))
def test_replace_one_pairs_differ_in_one_position(pair):
    d, d2 = pair
    assert len(d) == len(d2) and 1 <= len(d) <= 4
    assert sum(a != b for a, b in zip(d, d2)) == 1


def test_add_remove_draws_both_orders():
    strategy = neighbouring_datasets(st.integers(), max_size=3)
    find(strategy, lambda p: len(p[0]) > len(p[1]))
    find(strategy, lambda p: len(p[0]) < len(p[1]))


@given(bit_flip_pairs(6))
def test_bit_flip_pairs_have_hamming_distance_one(pair):
    b, b2 = pair
    assert len(b) == len(b2) == 6 and set(b) | set(b2) <= {0, 1}
    assert sum(x != y for x, y in zip(b, b2)) == 1


@given(edge_flip_pairs(5))
def test_edge_flip_pairs_differ_in_one_edge(pair):
    g, g2 = pair
    assert isinstance(g, frozenset) and isinstance(g2, frozenset)
    assert all(0 <= i < j < 5 for i, j in g | g2)
    assert len(g ^ g2) == 1


@given(histogram_pairs(bins=3, max_count=2))
def test_histogram_pairs_move_one_count_by_one(pair):
    h, h2 = pair
    assert len(h) == len(h2) == 3 and all(0 <= c <= 2 for c in h + h2)
    assert sorted(abs(a - b) for a, b in zip(h, h2)) == [0, 0, 1]


@given(metric_pairs([0, 1, 2, 3, 5], lambda a, b: abs(a - b), 2))
def test_metric_pairs_are_at_the_distance(pair):
    x, x2 = pair
    assert abs(x - x2) == 2


@given(privacy_parameters("1/10", 2))
def test_privacy_parameters_are_exact_rationals_in_range(eps):
    assert isinstance(eps, sympy.Rational) and sympy.Rational(1, 10) <= eps <= 2


@given(privacy_parameters(1, 1, with_delta=True))
def test_privacy_parameters_with_delta(params):
    eps, delta = params
    assert eps == 1 and isinstance(delta, sympy.Rational) and 0 <= delta < 1


@given(st.data(), st.sampled_from(["1/2", "log(3)", "1/1000", 2, "log(2)/3"]),
       st.integers(2, 4), st.integers(1, 4))
def test_ldp_channels_are_eps_dp_by_the_exact_checker(data, eps, n_inputs, n_outputs):
    rows = data.draw(ldp_channels(n_inputs, n_outputs, eps))
    assert len(rows) == n_inputs and all(len(r) == n_outputs for r in rows)
    assert all(isinstance(p, Fraction) and p > 0 for r in rows for p in r)
    assert all(sum(r) == 1 for r in rows)
    search = max_log_ratio(ExactChannel.from_matrix(rows), AllPairs())
    assert exact_compare(search.epsilon, sympy.sympify(sympy.parse_expr(str(eps)))) <= 0


@given(ldp_channels(2, 2, "log(3)"))
def test_two_by_two_ldp_channels_never_exceed_ratio_three(rows):
    # the padding output's ratio is the delicate one: with one free output it is often the worst
    (a, b), (c, d) = rows
    assert max(a / c, c / a, b / d, d / b) <= 3


def test_ldp_channels_attain_the_bound_when_exp_eps_is_rational():
    # e^log(3) = 3 is rational, so the construction can reach ratio exactly 3 (tightest eps = log 3)
    rows = find(ldp_channels(2, 3, "log(3)"),
                lambda c: max_log_ratio(ExactChannel.from_matrix(c), AllPairs()).epsilon == sympy.log(3))
    assert max(p / q for a, b in [rows, rows[::-1]] for p, q in zip(a, b)) == 3


@pytest.mark.parametrize("make, message", [
    (lambda: neighbouring_datasets(st.integers(), relation="swap"), "relation must be one of"),
    (lambda: neighbouring_datasets([], max_size=3), "elements must be"),
    (lambda: neighbouring_datasets(st.integers(), min_size=3, max_size=3), "max_size must be an integer in [4"),
    (lambda: neighbouring_datasets(st.integers(), relation="replace-one", max_size=0), "max_size"),
    (lambda: neighbouring_datasets(st.integers(), min_size=-1), "min_size"),
    (lambda: bit_flip_pairs(0), "length must be an integer in [1"),
    (lambda: edge_flip_pairs(1), "nodes must be an integer in [2"),
    (lambda: histogram_pairs(0, 3), "bins"),
    (lambda: histogram_pairs(2, 0), "max_count"),
    (lambda: metric_pairs([1], abs, 1), "points must be"),
    (lambda: metric_pairs([1, 2], "abs", 1), "distance must be"),
    (lambda: metric_pairs([1, 2], lambda a, b: abs(a - b), 0), "d must be > 0"),
    (lambda: metric_pairs([1, 2], lambda a, b: abs(a - b), 3), "no pair of points"),
    (lambda: privacy_parameters(0, 1), "min_eps must be > 0"),
    (lambda: privacy_parameters(1, "1/2"), "max_eps must be >= min_eps"),
    (lambda: privacy_parameters("log(2)", 1), "min_eps must be a rational"),
    (lambda: privacy_parameters(1, 2, with_delta=1), "with_delta"),
    (lambda: ldp_channels(0, 2, 1), "n_inputs"),
    (lambda: ldp_channels(2, 0, 1), "n_outputs"),
    (lambda: ldp_channels(2, 2, 0), "eps must be > 0"),
    (lambda: ldp_channels(2, 2, "1e-20"), "eps must be >= 2^-40"),
])
def test_invalid_arguments_raise_at_call_time(make, message):
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        make()
