"""The sketch channels and channel-mismatch bounds of 000_0c6e7fdc3fd68303.txt, Lemmas 9 and 25
(dpcert.accountant.price_of_privacy.sketch_channels).

Every property is checked by exact enumeration (Fractions, exact logs compared with ``exact_sign``)
at small N <= 6, w <= 3, and every closed form against an independent computation (binomial sums
with ``math.comb``, the literal Theorem 17 recursion) or against the spec's reference table
(``/work/shared/specs/banerjee_price_of_privacy.md``, "spec §4 table"), with the tolerance implied
by the printed digits.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
import sympy
from conftest import assert_rejects, prime_log_form, probability_rows, SMALL_SIZES
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.accountant.exact_intervals import certified_sign
from dpcert.accountant.price_of_privacy.sketch_channels import (
    cluster_channel,
    lemma_9_rhs,
    lemma_25_rhs,
    records,
    sketch_information,
)
from dpcert.proofs.claims.price_of_privacy.checks import lemma_25_sides

sign = certified_sign  # exact sign, decided on a rigorous enclosure when it excludes 0


@st.composite
def record_channels(draw, N: int, w: int) -> list[list[Fraction]]:
    """An arbitrary channel on records(N, w), zeros allowed (not private)."""
    size = math.comb(N, w) * 2**w
    k = draw(st.integers(2, 4))
    return [draw(probability_rows(k)) for _ in range(size)]


def test_records_order_and_count():
    recs = records(4, 2)
    assert len(recs) == math.comb(4, 2) * 4
    assert recs[0] == ((0, 1), (0, 0)) and recs[1] == ((0, 1), (0, 1)) and recs[4] == ((0, 2), (0, 0))


def chi_square_form(rows, N, w) -> Fraction:
    """sum_s P(s)(sum_z p(z|s)^2/p(z) - 1) for uniform Z, from the Z -> S channel (spec: Lemma 9 = chi^2)."""
    zrows = cluster_channel(rows, N, w)
    pz = Fraction(1, 2**N)
    total = Fraction(0)
    for s in range(len(zrows[0])):
        ps = sum(pz * r[s] for r in zrows)
        if ps:
            total += ps * (sum((pz * r[s] / ps) ** 2 / pz for r in zrows) - 1)
    return total


@pytest.mark.parametrize("N,w", SMALL_SIZES)
def test_lemma_9_in_nats_for_arbitrary_channels(N, w):
    """Spec §7 claim 7 (Lemma 9): I(Z;S) [nats] <= sum_s P(s)(q_s^T K q_s - 1) for any channel.

    The kernel form is also checked to equal the chi-square form sum_z p(z|s)^2/p(z) - 1 ([DERIVED]),
    computed independently from the Z -> S channel. Fewer examples at (6, 3) (160 records).
    """

    @settings(max_examples=4 if N == 6 else 12)
    @given(rows=record_channels(N, w))
    def check(rows):
        rhs = lemma_9_rhs(rows, N, w)
        assert rhs == sympy.Rational(chi_square_form(rows, N, w))
        assert sign(rhs - sketch_information(rows, N, w)) >= 0

    check()


def test_lemma_9_bits_counterexample_e1():
    """Spec §9 E1: N = w = 2, S uniform over the 3 states != Z: I = log2(4/3) = 0.415 bits > RHS = 1/3.

    In nats, 0.2877 <= 1/3 holds: Lemma 9 is a nats statement (log x <= x - 1).
    """
    N = w = 2
    channel = {rec: {s: (Fraction(0) if s == rec[1] else Fraction(1, 3)) for s in itertools.product((0, 1), repeat=2)}
               for rec in records(N, w)}
    rhs = lemma_9_rhs(channel, N, w)
    assert rhs == sympy.Rational(1, 3)
    nats = sketch_information(channel, N, w)
    bits = sketch_information(channel, N, w, units="bits")
    assert prime_log_form(nats) == prime_log_form(sympy.log(sympy.Rational(4, 3)))
    assert sign(rhs - nats) > 0
    assert sign(bits - rhs) > 0  # fails in bits
    assert abs(float(bits) - 0.415) < 5e-4 and abs(float(nats) - 0.2877) < 5e-5  # spec §9 E1 printed values


@pytest.mark.parametrize("N,w", [(2, 1), (3, 1), (3, 2)])
@settings(max_examples=15)
@given(data=st.data())
def test_lemma_25_per_sketch_value_for_arbitrary_laws(N, w, data):
    """Spec §7 claim 8 (Lemma 25/18): KL(P_{Z|S=s} || P_Z) <= RHS_s in nats, any law of Z and of I.

    The seeded form is the registered claim lemma25-per-sketch-kl; this draws the laws with hypothesis.
    """
    z_space = list(itertools.product((0, 1), repeat=N))
    z_law = data.draw(probability_rows(len(z_space), allow_zeros=False))
    i_law = data.draw(probability_rows(math.comb(N, w)))
    rows = data.draw(record_channels(N, w))
    sides = lemma_25_sides(rows, z_law, i_law, N, w)
    assert sides  # some sketch value has positive probability
    for _, posterior, kl, rhs in sides:
        assert sum(posterior.values()) == 1
        assert sign(rhs - kl) >= 0
        assert rhs == lemma_25_rhs(dict(posterior), dict(zip(z_space, z_law)))


@settings(max_examples=10)
@given(data=st.data())
def test_lemma_25_reduces_to_lemma_9_for_uniform_laws(data):
    """Lemma 25 with uniform Z and I: sum_s P(s) RHS_s equals the Lemma 9 RHS exactly."""
    N, w = 3, 2
    rows = data.draw(record_channels(N, w))
    recs = records(N, w)
    D = len(recs)
    uniform_z = [Fraction(1, 2**N)] * 2**N
    total = sympy.Integer(0)
    for s in range(len(rows[0])):
        ps = sum(Fraction(1, D) * r[s] for r in rows)
        if ps:
            posterior = {rec: Fraction(1, D) * rows[x][s] / ps for x, rec in enumerate(recs)}
            total += sympy.Rational(ps) * lemma_25_rhs(posterior, uniform_z)
    assert total == lemma_9_rhs(rows, N, w)


GOOD_ROWS = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]]


INVALID = [
    (lambda: lemma_9_rhs(GOOD_ROWS, 2, 1), "channel"),
    (lambda: lemma_9_rhs([[1]] * 4, 2, 3), "w"),
    (lambda: lemma_25_rhs({((0,), (0,)): 1}, [Fraction(1, 3)] * 3), "z_law"),
    (lambda: lemma_25_rhs({((5,), (0,)): 1}, [Fraction(1, 4)] * 4), "posterior"),
    (lambda: lemma_25_rhs({((0,), (0,)): Fraction(1, 2)}, [Fraction(1, 4)] * 4), "posterior"),
    (lambda: records(40, 20), "C(N, w)"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)
