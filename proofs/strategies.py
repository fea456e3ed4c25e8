"""Hypothesis strategies for neighbouring inputs, exact privacy parameters and exact eps-DP channels.

Every function validates its arguments when it is called (not when the strategy is first drawn from)
and raises :class:`~dpcert.mechanisms.parameters.InvalidParameterError` naming the argument and its range.

Example::

    from hypothesis import given
    from dpcert.proofs.strategies import histogram_pairs
    from dpcert.proofs.pytest_plugin import assert_dp

    @given(histogram_pairs(bins=4, max_count=3))
    def test_histogram_is_dp(pair):
        assert_dp(Histogram(eps=1), 1, pairs=[pair], samples=5_000)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction

import sympy
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    require_int,
    require_positive,
    to_exact,
)
from dpcert.proofs.channel import exact_compare

__all__ = [
    "RELATIONS",
    "bit_flip_pairs",
    "edge_flip_pairs",
    "histogram_pairs",
    "ldp_channels",
    "metric_pairs",
    "neighbouring_datasets",
    "privacy_parameters",
]

RELATIONS = ("add-remove", "replace-one")
"""Dataset neighbour relations: add or remove one record (unbounded DP), or replace one (bounded DP)."""

_MAX_SIZE = 10_000
_GRID = 64  # rational parameters are drawn on grids of this many steps


def _as_strategy(name: str, elements: object) -> SearchStrategy:
    if isinstance(elements, SearchStrategy):
        return elements
    if isinstance(elements, (str, bytes)) or not isinstance(elements, Sequence) or len(elements) == 0:
        raise InvalidParameterError(f"{name} must be a hypothesis strategy or a non-empty sequence of records. "
                                    f"Got {elements!r}")
    return st.sampled_from(list(elements))


def neighbouring_datasets(elements: SearchStrategy | Sequence[Hashable], *, relation: str = "add-remove",
                          min_size: int = 0, max_size: int = 10) -> SearchStrategy:
    """Pairs (D, D') of datasets (tuples of records) that are neighbours under ``relation``.

    - "add-remove": D' is D with one record inserted or removed (in either order of the pair), so
      ``|len(D) - len(D')| = 1`` and the shorter is the longer with one position deleted.
    - "replace-one": ``len(D) = len(D')`` and they differ in exactly one position.

    Both datasets have sizes in [min_size, max_size].

    Args:
        elements: a strategy for one record, or a non-empty sequence of records to sample from.
        relation: "add-remove" or "replace-one".
        min_size, max_size: bounds on both datasets' sizes; add-remove needs max_size >= min_size + 1,
            replace-one needs max_size >= 1.

    References: Dwork and Roth, "The Algorithmic Foundations of Differential Privacy" (2014), Section 2.3.
    """
    records = _as_strategy("elements", elements)
    if relation not in RELATIONS:
        raise InvalidParameterError(f"relation must be one of {', '.join(RELATIONS)}. Got {relation!r}")
    min_size = require_int("min_size", min_size, minimum=0, maximum=_MAX_SIZE)
    low_max = min_size + 1 if relation == "add-remove" else max(min_size, 1)
    max_size = require_int("max_size", max_size, minimum=low_max, maximum=_MAX_SIZE)

    @st.composite
    def pairs(draw) -> tuple[tuple, tuple]:
        if relation == "add-remove":
            small = draw(st.lists(records, min_size=min_size, max_size=max_size - 1))
            at = draw(st.integers(0, len(small)))
            large = small[:at] + [draw(records)] + small[at:]
            pair = (tuple(small), tuple(large))
            return pair if draw(st.booleans()) else pair[::-1]
        d = draw(st.lists(records, min_size=max(min_size, 1), max_size=max_size))
        at = draw(st.integers(0, len(d) - 1))
        new = draw(records)
        assume(new != d[at])
        return tuple(d), tuple(d[:at] + [new] + d[at + 1:])

    return pairs()


def bit_flip_pairs(length: int) -> SearchStrategy:
    """Pairs (b, b') of 0/1 tuples of the given length that differ in exactly one position."""
    length = require_int("length", length, minimum=1, maximum=_MAX_SIZE)

    @st.composite
    def pairs(draw) -> tuple[tuple[int, ...], tuple[int, ...]]:
        bits = draw(st.lists(st.integers(0, 1), min_size=length, max_size=length))
        at = draw(st.integers(0, length - 1))
        return tuple(bits), tuple(bits[:at] + [1 - bits[at]] + bits[at + 1:])

    return pairs()


def edge_flip_pairs(nodes: int) -> SearchStrategy:
    """Pairs (G, G') of simple graphs on nodes 0..nodes-1 that differ in exactly one edge (edge-level DP).

    A graph is a frozenset of edges ``(i, j)`` with ``i < j``; G' is G with one such edge added or removed.
    """
    nodes = require_int("nodes", nodes, minimum=2, maximum=1000)
    all_edges = [(i, j) for i in range(nodes) for j in range(i + 1, nodes)]

    @st.composite
    def pairs(draw) -> tuple[frozenset, frozenset]:
        graph = draw(st.frozensets(st.sampled_from(all_edges), max_size=min(len(all_edges), 50)))
        edge = draw(st.sampled_from(all_edges))
        return graph, graph ^ {edge}

    return pairs()


def histogram_pairs(bins: int, max_count: int) -> SearchStrategy:
    """Pairs (h, h') of count tuples in [0, max_count]^bins that differ by exactly 1 in exactly one bin.

    This is the add/remove-one-record relation on histograms (one record moves one count by 1).
    """
    bins = require_int("bins", bins, minimum=1, maximum=_MAX_SIZE)
    max_count = require_int("max_count", max_count, minimum=1)

    @st.composite
    def pairs(draw) -> tuple[tuple[int, ...], tuple[int, ...]]:
        counts = draw(st.lists(st.integers(0, max_count), min_size=bins, max_size=bins))
        at = draw(st.integers(0, bins - 1))
        step = 1 if counts[at] == 0 else -1 if counts[at] == max_count else draw(st.sampled_from([1, -1]))
        return tuple(counts), tuple(counts[:at] + [counts[at] + step] + counts[at + 1:])

    return pairs()


def metric_pairs(points: Sequence[Hashable], distance: Callable[[Hashable, Hashable], object],
                 d: object) -> SearchStrategy:
    """Ordered pairs (x, x') of ``points`` with ``distance(x, x') == d`` exactly.

    The pairs are enumerated when this function is called (``len(points)**2`` distance evaluations,
    compared exactly), so an impossible distance is reported at once rather than as an unsatisfiable test.

    Raises:
        InvalidParameterError: fewer than two points, d not > 0, a distance that is not an exact number,
            or no pair of points at distance d.
    """
    if isinstance(points, (str, bytes)) or not isinstance(points, Sequence) or len(points) < 2:
        raise InvalidParameterError(f"points must be a sequence of at least 2 points. Got {points!r}")
    if not callable(distance):
        raise InvalidParameterError(f"distance must be a function d(x, x'). Got {distance!r}")
    target = require_positive("d", d)
    found = [(a, b) for i, a in enumerate(points) for j, b in enumerate(points)
             if i != j and exact_compare(to_exact("distance", distance(a, b)), target) == 0]
    if not found:
        raise InvalidParameterError(f"d: no pair of points is at distance {target}. Got d={d!r}")
    return st.sampled_from(found)


def _rational(name: str, value: object) -> sympy.Rational:
    exact = to_exact(name, value)
    if not exact.is_Rational:
        raise InvalidParameterError(f"{name} must be a rational number. Got {value!r}")
    return exact


def privacy_parameters(min_eps: object, max_eps: object, *, with_delta: bool = False) -> SearchStrategy:
    """Exact eps in [min_eps, max_eps] (sympy Rationals), or (eps, delta) pairs with delta in [0, 1).

    eps = min_eps + (max_eps - min_eps) * k / N for integers 0 <= k <= N <= 64, so both ends are drawn;
    delta = k / (N * 10^m) with 0 <= k < N and 0 <= m <= 9, covering 0 and the usual 10^-9..10^-1 range.

    Args:
        min_eps: rational > 0.
        max_eps: rational >= min_eps.
        with_delta: draw ``(eps, delta)`` tuples instead of eps alone.
    """
    low = _rational("min_eps", min_eps)
    if not low > 0:
        raise InvalidParameterError(f"min_eps must be > 0. Got {low}")
    high = _rational("max_eps", max_eps)
    if high < low:
        raise InvalidParameterError(f"max_eps must be >= min_eps = {low}. Got {high}")
    if not isinstance(with_delta, bool):
        raise InvalidParameterError(f"with_delta must be True or False. Got {with_delta!r}")

    @st.composite
    def eps_values(draw) -> sympy.Rational:
        n = draw(st.integers(1, _GRID))
        return low + (high - low) * sympy.Rational(draw(st.integers(0, n)), n)

    @st.composite
    def delta_values(draw) -> sympy.Rational:
        n = draw(st.integers(1, _GRID))
        return sympy.Rational(draw(st.integers(0, n - 1)), n * 10 ** draw(st.integers(0, 9)))

    return st.tuples(eps_values(), delta_values()) if with_delta else eps_values()


def _ratio_cap(eps: sympy.Expr) -> Fraction:
    """A rational T with 1 < T <= e^eps: e^eps itself when rational (eps = log 3), else 1 + r for r <= eps.

    The second case is provable from e^x >= 1 + x, with r = floor(eps * 2^40) / 2^40 computed exactly.
    """
    power = sympy.exp(eps)
    if power.is_Rational:
        return Fraction(int(power.p), int(power.q))
    r = sympy.Rational(int(sympy.floor(eps * 2**40)), 2**40)
    if not r > 0:
        raise InvalidParameterError(f"eps must be >= 2^-40 for ldp_channels. Got {eps}")
    return 1 + Fraction(int(r.p), int(r.q))


def ldp_channels(n_inputs: int, n_outputs: int, eps: object) -> SearchStrategy:
    """Random exact channels that are eps-DP under all pairs of inputs (local DP), by construction.

    A channel is a tuple of ``n_inputs`` rows, each a tuple of ``n_outputs`` positive Fractions summing to 1,
    with P(y | x) <= e^eps P(y | x') for all x, x', y. Construction (all arithmetic exact):

    1. T = e^eps if that is rational, else T = 1 + r with rational r <= eps (so T <= e^eps as e^x >= 1 + x);
       draw a rational t in [1, T].
    2. Draw integer weights w_j >= 1 for the n - 1 "free" outputs and multipliers m_ij in [1, t];
       row i gives u_ij = w_j * m_ij, with sum S_i in [W, t W] where W = sum_j w_j.
    3. Fix Z = (t + 1) W + z (z >= 0 drawn) and set P(j | i) = u_ij / Z for the free outputs and
       P(pad | i) = (Z - S_i) / Z for one padding output; every row sums to 1.
    4. Shuffle the outputs (one permutation for all rows).

    Why it is eps-DP: on a free output the ratio is m_ij / m_kj <= t. On the padding output it is
    (Z - S_k) / (Z - S_i) <= (Z - W) / (Z - t W), which is <= t exactly when Z >= (t + 1) W. So every
    ratio is <= t <= T <= e^eps, and the bound is attained (ratio t) when the multipliers hit 1 and t.
    """
    n_inputs = require_int("n_inputs", n_inputs, minimum=1, maximum=1000)
    n_outputs = require_int("n_outputs", n_outputs, minimum=1, maximum=1000)
    cap = _ratio_cap(require_positive("eps", eps))

    @st.composite
    def channels(draw) -> tuple[tuple[Fraction, ...], ...]:
        steps = st.sampled_from([0, _GRID]) | st.integers(0, _GRID)  # the ends (ratio exactly t) often
        t = 1 + (cap - 1) * Fraction(draw(steps), _GRID)
        free = n_outputs - 1
        weights = draw(st.lists(st.integers(1, 20), min_size=free, max_size=free))
        total = sum(weights)
        z = draw(st.integers(0 if free else 1, 20) | st.just(0 if free else 1))  # z = 0: tightest padding
        big = (t + 1) * total + z
        rows = []
        for _ in range(n_inputs):
            u = [w * (1 + (t - 1) * Fraction(draw(steps), _GRID)) for w in weights]
            rows.append([x / big for x in u] + [(big - sum(u)) / big])
        order = draw(st.permutations(range(n_outputs)))
        return tuple(tuple(row[j] for j in order) for row in rows)

    return channels()
