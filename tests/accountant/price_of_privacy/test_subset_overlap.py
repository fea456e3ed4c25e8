"""The overlap of two users' item sets, R(N, w) and Lemma 12 of 000_0c6e7fdc3fd68303.txt
(dpcert.accountant.price_of_privacy.subset_overlap).

Every property is checked by exact enumeration (Fractions, exact logs compared with ``exact_sign``)
at small N <= 6, w <= 3, and every closed form against an independent computation (binomial sums
with ``math.comb``, the literal Theorem 17 recursion) or against the spec's reference table
(``/work/shared/specs/banerjee_price_of_privacy.md``, "spec §4 table"), with the tolerance implied
by the printed digits.
"""

from __future__ import annotations

import math

import pytest
import sympy
from conftest import assert_rejects
from hypothesis import given
from hypothesis import strategies as st

from dpcert.accountant.price_of_privacy.subset_overlap import (
    EXACT_W_MAX,
    binomial_ratio,
    binomial_ratio_bounds,
    lemma_12_sandwich,
)


@given(N=st.integers(2, 10**6), data=st.data())
def test_lemma_12_sandwich(N, data):
    """Spec §7 claim 13 (Lemma 12): (1 - w/(N-w+1))^w <= R(N,w) <= (1 - w/N)^w for 1 <= w <= N/2."""
    w = data.draw(st.integers(1, min(N // 2, 200)))
    lower, ratio, upper = lemma_12_sandwich(N, w)
    assert lower <= ratio <= upper
    if N <= 3000:
        assert ratio == sympy.Rational(math.comb(N - w, w), math.comb(N, w))
    if w * w <= N:  # |R - (1 - w^2/N)| <= w^4/N^2 (c = 1), spec §7 claim 13
        assert abs(ratio - (1 - sympy.Rational(w * w, N))) <= sympy.Rational(w**4, N**2)


def test_lemma_12_theta_claim_false_at_w_1():
    """Spec §9 E5: at w = 1 the difference R - (1 - w^2/N) is exactly 0, not Theta(w^4/N^2)."""
    assert binomial_ratio(1000, 1) == 1 - sympy.Rational(1, 1000)


@pytest.mark.parametrize("N,w", [(10**7, 2500), (10**9, 3000), (50_000, 12_000), (4001, 2001)])
def test_binomial_ratio_interval_path_encloses_exact_value(N, w):
    """Above EXACT_W_MAX, R comes from interval lgamma: the enclosure contains the exact ratio, tightly."""
    assert w > EXACT_W_MAX
    exact = binomial_ratio(N, w)
    lower, upper = binomial_ratio_bounds(N, w)
    assert lower <= exact <= upper
    if exact:
        assert (upper - lower) / exact < sympy.Rational(1, 10**50)


def test_binomial_ratio_is_zero_when_subsets_cannot_be_disjoint():
    assert binomial_ratio(5, 3) == 0 and binomial_ratio_bounds(10**12, 6 * 10**11) == (0, 0)


INVALID = [
    (lambda: binomial_ratio(10, 11), "w"),
    (lambda: binomial_ratio(10**9, 10**5), "w"),
    (lambda: lemma_12_sandwich(10, 6), "w"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)
