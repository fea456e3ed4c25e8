"""Oracle fuzz: every shuffle bound dpcert computes against its paper's formula evaluated plainly at 50 digits.

The oracle (tests/oracles/shuffle_numeric.py) writes each printed expression in mpmath and evaluates it
directly; dpcert rearranges the same expressions (no overflow at eps0 = 700, no cancellation at
eps0 = 10^-12), evaluates them in adaptive interval arithmetic, and certifies numerical crossings. For
points drawn by hypothesis across the whole answerable range (eps0 in [10^-12, 700], n in [2, 10^30], delta
in [10^-100, 1), k up to 10^6) and at its corners:

- closed forms (efmrtt19, fmt21-closed, fmt23-closed, imola-thm4.3): a valid result's enclosure contains
  the oracle's value (so its certified upper bound is >= it), and the result is valid exactly where the
  printed condition holds;
- Imola's Theorem 4.3 at an output delta: the certified upper bound is >= the best alpha the theorem gives
  (the oracle solves delta_in e^alpha = delta), and within 10^-6 of it;
- blanket bounds: the oracle's bound is <= delta at the certified upper end and > delta at the lower end,
  so a crossing lies in the enclosure;
- clone sums (fmt21-numeric, fmt23-numeric): the oracle's plain sum over c and a is <= delta at the upper
  end and >= delta at the lower end (n <= 100, where the O(n^2) sum is fast), so the exact numerical-bound
  eps lies in the enclosure; and clone_delta's enclosure contains the plain sum.

The oracle's own error is below 10^-20 relative at every drawn point; the comparisons allow 10^-18.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dpcert.accountant.shuffle_blanket import blanket_bennett, blanket_hoeffding
from dpcert.accountant.shuffle_closed_forms import (
    efmrtt19,
    fmt21_closed,
    fmt23_closed,
    imola_theorem_4_3,
    imola_theorem_4_3_at_delta,
)
from dpcert.accountant.shuffle_numeric import clone_delta, fmt21_numeric, fmt23_numeric
from oracles import shuffle_numeric as oracle

SLACK = mpmath.mpf(10) ** -18
"""Relative tolerance for the oracle's own rounding (its error is below 10^-20)."""

FUZZ = settings(max_examples=80, deadline=None, derandomize=True, database=None)


def _decimal(exponent: float, low: Fraction, high: Fraction) -> str:
    """10^exponent to 3 significant digits as the string a user would type, clamped into [low, high]."""
    text = f"{10 ** exponent:.3g}"
    value = Fraction(text)
    return text if low <= value <= high else str(min(max(value, low), high))


EPS0_LOW, EPS0_HIGH = Fraction(1, 10**12), Fraction(700)
eps0s = st.floats(-12, 2.845).map(lambda x: _decimal(x, EPS0_LOW, EPS0_HIGH))
ns = st.floats(0.31, 30).map(lambda x: min(max(2, int(10 ** x)), 10**30))
deltas = st.one_of(st.floats(-100, -0.001).map(lambda x: _decimal(x, Fraction(1, 10**100), Fraction(999, 1000))),
                   st.sampled_from(["0.999999", "1e-100"]))
ks = st.one_of(st.none(), st.sampled_from([2, 3, 10**6]), st.integers(2, 10**6))


def _m(x: float) -> mpmath.mpf:
    return mpmath.mpf(x)


def _contains(result, value: mpmath.mpf) -> bool:
    lo, hi = result.enclosure
    slack = SLACK * abs(value)
    return _m(lo) - slack <= value <= _m(hi) + slack and _m(result.upper) >= value - slack


# ---------------------------------------------------------------------------------------------
# Closed forms
# ---------------------------------------------------------------------------------------------

CLOSED = [
    ("efmrtt19", efmrtt19, oracle.efmrtt19, oracle.efmrtt19_applies),
    ("fmt21-closed", fmt21_closed, oracle.fmt21_closed, oracle.fmt21_closed_applies),
    ("fmt23-closed", lambda e, n, d: fmt23_closed(e, n, d, k=2), oracle.fmt23_closed, oracle.fmt23_closed_applies),
]


def _check_closed(name, compute, value, applies, eps0, n, delta):
    result = compute(eps0, n, delta)
    assert result.valid == applies(eps0, n, delta), (name, eps0, n, delta, result.note)
    if result.valid:
        assert _contains(result, value(eps0, n, delta)), (name, eps0, n, delta, result.enclosure)


@FUZZ
@given(eps0=eps0s, n=ns, delta=deltas)
@example(eps0="1e-12", n=10**30, delta="1e-100")
@example(eps0="1e-12", n=2, delta="0.999999")
@example(eps0="700", n=10**30, delta="1e-100")
@example(eps0="0.5", n=1000, delta="0.01")
@example(eps0="1e-12", n=10**30, delta="0.999999")
def test_closed_forms_enclose_the_printed_formula(eps0, n, delta):
    for name, compute, value, applies in CLOSED:
        _check_closed(name, compute, value, applies, eps0, n, delta)


@FUZZ
@given(alpha0=eps0s, m=ns, delta=deltas, data=st.data())
@example(alpha0="1e-12", m=10**30, delta="1e-100", data=None)
@example(alpha0="700", m=10**30, delta="0.999999", data=None)
def test_imola_theorem_4_3_encloses_the_printed_formula(alpha0, m, delta, data):
    l0 = 1 if data is None else data.draw(st.integers(1, min(m, 10**6)))
    l1 = Fraction(l0) if data is None else data.draw(st.fractions(Fraction(1, 10**12), l0, max_denominator=10**12))
    result = imola_theorem_4_3(alpha0, m, delta, l0=l0, l1=l1)
    assert result.valid == oracle.imola_theorem_4_3_applies(alpha0, m, delta), (alpha0, m, delta, result.note)
    if result.valid:
        assert _contains(result, oracle.imola_theorem_4_3(alpha0, m, delta, l0, l1))


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(alpha0=st.floats(-12, 1.2).map(lambda x: _decimal(x, EPS0_LOW, EPS0_HIGH)),
       m=st.floats(3, 30).map(lambda x: int(10 ** x)), delta=deltas, l0=st.integers(1, 50))
@example(alpha0="1e-12", m=10**30, delta="1e-100", l0=1)
@example(alpha0="1", m=10**6, delta="1e-6", l0=1)
def test_imola_at_output_delta_is_at_least_the_best_alpha(alpha0, m, delta, l0):
    result = imola_theorem_4_3_at_delta(alpha0, m, delta, l0=l0)
    best, log_delta_in = oracle.imola_at_output_delta(alpha0, m, delta, l0, l0)
    if not oracle.imola_theorem_4_3_applies(alpha0, m, mpmath.exp(log_delta_in)):
        assert not result.valid
        return
    assert result.valid, result.note
    assert best * (1 - SLACK) <= _m(result.upper) <= best * (1 + mpmath.mpf(10) ** -6) + mpmath.mpf(10) ** -300


# ---------------------------------------------------------------------------------------------
# Blanket bounds
# ---------------------------------------------------------------------------------------------

@FUZZ
@given(eps0=eps0s, n=ns, delta=deltas, k=ks)
@example(eps0="4", n=2000, delta="1e-6", k=2)  # the crossing lies at 2.0477; a factor-2 grid gave eps0 = 4
@example(eps0="1e-12", n=10**30, delta="1e-100", k=2)
@example(eps0="1e-12", n=2, delta="0.999999", k=None)
@example(eps0="700", n=10**30, delta="1e-100", k=10**6)
@example(eps0="40", n=10**30, delta="1e-100", k=10**6)
def test_blanket_crossing_lies_in_the_enclosure(eps0, n, delta, k):
    target = oracle.mp(Fraction(delta))
    for kind, compute in (("hoeffding", blanket_hoeffding), ("bennett", blanket_bennett)):
        result = compute(eps0, n, delta, k=k)
        if not result.valid:
            assert "delta" in result.note and "eps0" in result.note
            continue
        lo, hi = result.enclosure
        assert oracle.blanket_bound(kind, hi, eps0, n, k) <= target * (1 + SLACK), (kind, eps0, n, delta, k, hi)
        if lo > 0:
            assert oracle.blanket_bound(kind, lo, eps0, n, k) >= target * (1 - SLACK), (kind, eps0, n, delta, k, lo)


# ---------------------------------------------------------------------------------------------
# Clone sums
# ---------------------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(eps0=eps0s, n=st.integers(2, 100), delta=deltas, variant=st.sampled_from(["fmt21", "fmt23"]))
@example(eps0="1e-12", n=100, delta="1e-100", variant="fmt21")
@example(eps0="700", n=2, delta="0.999999", variant="fmt23")
@example(eps0="1", n=2, delta="1e-52", variant="fmt21")  # upper = eps0, where the clone divergence is 0
@example(eps0="1", n=100, delta="1e-6", variant="fmt21")
@example(eps0="0.3", n=100, delta="1e-100", variant="fmt23")
def test_clone_numeric_brackets_the_plain_sum(eps0, n, delta, variant):
    result = fmt21_numeric(eps0, n, delta) if variant == "fmt21" else fmt23_numeric(eps0, n, delta, k=2)
    assert result.valid, result.note
    lo, hi = result.enclosure
    target = oracle.mp(Fraction(delta))
    assert oracle.clone_delta(hi, eps0, n, variant) <= target * (1 + SLACK), (eps0, n, delta, variant, hi)
    if lo > 0:
        assert oracle.clone_delta(lo, eps0, n, variant) >= target * (1 - SLACK), (eps0, n, delta, variant, lo)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(eps0=eps0s, n=st.integers(2, 100), share=st.fractions(0, 1, max_denominator=1000),
       variant=st.sampled_from(["fmt21", "fmt23"]))
@example(eps0="1e-12", n=100, share=Fraction(1, 2), variant="fmt21")
@example(eps0="700", n=100, share=Fraction(999, 1000), variant="fmt23")
def test_clone_delta_encloses_the_plain_sum(eps0, n, share, variant):
    eps = Fraction(eps0) * share
    enclosure = clone_delta(eps, eps0, n, variant=variant)
    exact = oracle.clone_delta(eps, eps0, n, variant)
    slack = SLACK * exact + mpmath.mpf(10) ** -300
    assert _m(enclosure.lower) - slack <= exact <= _m(enclosure.upper) + slack, (eps0, n, eps, variant)


@pytest.mark.parametrize("compute, variant", [(fmt21_numeric, "fmt21"),
                                              (lambda e, n, d: fmt23_numeric(e, n, d, k=2), "fmt23")])
def test_clone_numeric_rows_outside_their_range_say_so(compute, variant):
    """n = 10^12 (or 2 10^5 window terms) is beyond the clone sums' range: invalid, with the range and the
    closed form named, in milliseconds instead of a hang."""
    far = compute(1, 10**12, "1e-6")
    assert not far.valid and "10^10" in far.note and f"{variant}-closed" in far.note
    wide = compute("0.7", 10**10, "1e-6")
    assert not wide.valid and "200000" in wide.note


def test_the_oracle_comparisons_catch_an_upper_end_slightly_too_small():
    """Power check: 10^-9 (blanket) or 10^-7 (clone sum) below the certified upper end, the oracle's delta
    already exceeds the target, so the comparisons above fail on an upper bound that low."""
    result = blanket_bennett(4, 2000, "1e-6", k=2)
    assert oracle.blanket_bound("bennett", result.upper * (1 - 1e-9), 4, 2000, 2) > mpmath.mpf("1e-6")
    clone = fmt21_numeric(1, 60, "1e-2")
    assert oracle.clone_delta(clone.upper * (1 - 1e-7), 1, 60) > mpmath.mpf("1e-2")


def test_blanket_bennett_finds_the_crossing_between_grid_points():
    """Issue 9: at eps0 = 4, n = 2000, delta = 1e-6, k = 2 the factor-2 grid fell back to 4.0 where 2.048 is
    certifiable; the root search finds the crossing (the oracle's bound is <= delta there, see above)."""
    result = blanket_bennett(4, 2000, "1e-6", k=2)
    assert result.valid and 2.047 < result.upper < 2.048
