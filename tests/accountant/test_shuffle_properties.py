"""Properties every shuffle bound must have, on hypothesis-drawn small (n, eps0, delta, k).

1. Soundness: every valid bound is >= the exact truth (shuffled randomized response; for a generic
   randomizer the binary-RR truth is a lower bound on the worst case, so the bound must exceed it too),
   and no result's certified upper end exceeds eps0 (post-processing).
2. Numerical <= closed form where both are valid (FMT 2021 and FMT 2023).
3. Monotone: eps does not increase with n or delta and does not decrease with eps0.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpcert.accountant.shuffle import shuffle_bound, shuffle_family

R = sympy.Rational

deltas = st.sampled_from([R(1, 10), R(1, 100), R(1, 10**3), R(1, 10**4), R(1, 10**6), R(1, 10**8)])
eps0s = st.fractions(Fraction(1, 20), 5, max_denominator=40).filter(lambda f: f > 0)


def _sympy(f: Fraction) -> sympy.Rational:
    return sympy.Rational(f.numerator, f.denominator)


@settings(max_examples=30)
@given(n=st.integers(2, 300), eps0=eps0s, delta=deltas, k=st.sampled_from([None, 2, 3]))
def test_every_bound_is_at_least_the_exact_truth(n, eps0, delta, k):
    if k == 3:
        n = min(n, 60)
    results = {r.name: r for r in shuffle_family(_sympy(eps0), n, delta, k=k)}
    truth = results.pop("exact")
    assert truth.lower is not None  # the exact eps, or for k omitted a certified lower bound (then not valid)
    assert truth.valid == (truth.bounds == "exact") and (k is None) <= (truth.bounds == "lower")
    assert sympy.sympify(truth.upper_value) <= _sympy(eps0)  # shuffling is post-processing of the reports
    for r in results.values():
        if r.upper is not None:
            assert r.upper >= truth.lower, (r.name, r.upper, truth.lower)
            assert r.certified_upper <= _sympy(eps0), r.name


@settings(max_examples=15)
@given(n=st.integers(1000, 10**6), eps0=eps0s, delta=deltas, k=st.sampled_from([None, 2, 5]))
def test_numerical_at_most_closed_form(n, eps0, delta, k):
    by = {r.name: r for r in shuffle_family(_sympy(eps0), n, delta, k=k, assume_stronger_clones=True)}
    for closed, numeric in (("fmt21-closed", "fmt21-numeric"), ("fmt23-closed", "fmt23-numeric")):
        if by[closed].valid:
            assert by[numeric].upper <= by[closed].upper
    # the generic Bennett constants dominate the k-RR ones (the k-RR randomizer is one eps0-LDP randomizer)
    if k is not None:
        generic = shuffle_bound("blanket-bennett", _sympy(eps0), n, delta)
        assert by["blanket-bennett"].upper <= generic.upper * (1 + 1e-9)


MONOTONE = ["efmrtt19", "fmt21-closed", "fmt21-numeric", "fmt23-closed", "fmt23-numeric", "blanket-hoeffding",
            "blanket-bennett", "imola-thm4.3", "exact"]


def _pair(method, a, b, k):
    first, second = shuffle_bound(method, *a, k=k), shuffle_bound(method, *b, k=k)
    return (first, second) if first.valid and second.valid else (None, None)


def _at_most(smaller, larger) -> bool:
    """smaller's eps <= larger's, up to the certified intervals' widths (the exact values are monotone)."""
    (s_lo, s_hi), (l_lo, l_hi) = smaller.enclosure, larger.enclosure
    return s_lo <= l_hi * (1 + 1e-12) and s_hi <= l_hi + (s_hi - s_lo) + (l_hi - l_lo) + 1e-15


@settings(max_examples=12)
@given(n=st.integers(20, 400), extra=st.integers(1, 400), eps0=eps0s, delta=deltas,
       method=st.sampled_from(MONOTONE))
def test_monotone_in_n(n, extra, eps0, delta, method):
    if method == "efmrtt19":
        n, eps0 = n + 1000, min(eps0, Fraction(1, 2))
    small, large = _pair(method, (_sympy(eps0), n + extra, delta), (_sympy(eps0), n, delta), 2)
    assume(small is not None)
    assert _at_most(small, large)


@settings(max_examples=12)
@given(n=st.integers(20, 400), eps0=eps0s, factor=st.fractions(Fraction(21, 20), 3, max_denominator=20),
       delta=deltas, method=st.sampled_from(MONOTONE))
def test_monotone_in_eps0(n, eps0, factor, delta, method):
    if method == "efmrtt19":
        n, eps0 = n + 1000, min(eps0, Fraction(1, 6))
    small, large = _pair(method, (_sympy(eps0), n, delta), (_sympy(eps0 * factor), n, delta), 2)
    assume(small is not None)
    assert _at_most(small, large)


@settings(max_examples=12)
@given(n=st.integers(20, 400), eps0=eps0s, delta=deltas, shrink=st.sampled_from([2, 10, 1000]),
       method=st.sampled_from(MONOTONE))
def test_monotone_in_delta(n, eps0, delta, shrink, method):
    if method == "efmrtt19":
        n, eps0 = n + 1000, min(eps0, Fraction(1, 2))
    small, large = _pair(method, (_sympy(eps0), n, delta), (_sympy(eps0), n, delta / shrink), 2)
    assume(small is not None)
    assert _at_most(small, large)
