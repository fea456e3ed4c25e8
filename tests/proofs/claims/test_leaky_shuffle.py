"""The exact leaky shuffled randomized response (proofs/claims/leaky_shuffle.py) against brute force.

Reference: the shuffled law of every dataset enumerated in Fractions (tests/oracles/shuffle.py), the randomizer's
four reports (0, 1, and the leaks L_0, L_1) tabulated here from its definition.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from dpcert.proofs.claims.leaky_shuffle import leaky_rr_delta
from oracles import shuffle as shuffle_oracle


def _rows(e: Fraction, delta0: Fraction) -> tuple[tuple[Fraction, ...], ...]:
    p, q = e / (e + 1), 1 / (e + 1)
    return tuple(tuple([(1 - delta0) * (p if y == x else q) for y in (0, 1)]
                       + [delta0 if x == 0 else Fraction(0), delta0 if x == 1 else Fraction(0)]) for x in (0, 1))


def _brute_force(rows, n: int, s: Fraction) -> Fraction:
    worst = Fraction(0)
    for data in itertools.product((0, 1), repeat=n):
        changed = (1 - data[0],) + data[1:]
        worst = max(worst, shuffle_oracle.hockey_stick(shuffle_oracle.shuffled_law(rows, data),
                                                       shuffle_oracle.shuffled_law(rows, changed), s))
    return worst


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("s", [Fraction(1), Fraction(3, 2), Fraction(5, 2)])
@pytest.mark.parametrize(("e", "delta0"), [(Fraction(3), Fraction(1, 10)), (Fraction(11, 10), Fraction(1, 1000))])
def test_leaky_delta_is_the_brute_force_delta_within_its_margin(n, s, e, delta0):
    value, margin = leaky_rr_delta(float(s), e, n, delta0)
    truth = _brute_force(_rows(e, delta0), n, s)
    assert abs(Fraction(value) - truth) <= Fraction(margin) and margin < 1e-12


def test_the_leak_alone_costs_delta0():
    """Power check: a bound that ignores the leak (a claimed delta below delta0 at any eps) is refuted by it."""
    value, margin = leaky_rr_delta(10.0, Fraction(3), 20, Fraction(1, 1000))  # eps = ln 10 > eps0 = ln 3
    assert value - margin >= 1 / 1000 * (1 - 1e-9)
