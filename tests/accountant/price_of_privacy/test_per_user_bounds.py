"""What one user's sketch reveals about the clustering: Theorems 10, 13 and 14 of 000_0c6e7fdc3fd68303.txt
(dpcert.accountant.price_of_privacy.per_user_bounds).

Every property is checked by exact enumeration (Fractions, exact logs compared with ``exact_sign``)
at small N <= 6, w <= 3, and every closed form against an independent computation (binomial sums
with ``math.comb``, the literal Theorem 17 recursion) or against the spec's reference table
(``/work/shared/specs/banerjee_price_of_privacy.md``, "spec §4 table"), with the tolerance implied
by the printed digits.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
import sympy
from conftest import assert_rejects, bound_less, max_ratio, SMALL_SIZES, within_printed
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpcert.accountant.channel_information import lemma_6_bound
from dpcert.accountant.exact_intervals import certified_sign
from dpcert.accountant.price_of_privacy import subset_overlap
from dpcert.accountant.price_of_privacy.per_user_bounds import (
    per_user_mi_bound,
    theorem_10_bound,
    theorem_13_bound,
    theorem_14_bound,
    theorem_14_main_term,
    theorem_14_main_term_bound,
)
from dpcert.accountant.price_of_privacy.sketch_channels import lemma_9_rhs, records, sketch_information
from dpcert.accountant.price_of_privacy.subset_overlap import EXACT_W_MAX, lemma_12_sandwich
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.claims.price_of_privacy.checks import theorem_14_box_vertex_maximum

sign = certified_sign  # exact sign, decided on a rigorous enclosure when it excludes 0


@st.composite
def narrow_rows(draw, width: int, spread: int = 3, base: int = 10) -> list[Fraction]:
    """A strictly positive row with weights in [base, base + spread]: column ratios stay below 2."""
    weights = draw(st.lists(st.integers(base, base + spread), min_size=width, max_size=width))
    return [Fraction(x, sum(weights)) for x in weights]


@st.composite
def ldp_record_channels(draw, N: int, w: int, *, below_ln2: bool = False) -> list[list[Fraction]]:
    """A strictly positive channel on records(N, w): either narrow random rows, or k-RR of a function.

    k-RR of a function f: D -> [k] with e^eps = t is the most informative kind of eps-LDP sketch
    (deterministic query, then randomized response); eps = log(t) exactly.
    """
    size = math.comb(N, w) * 2**w
    k = draw(st.integers(2, 4))
    if draw(st.booleans()):
        return [draw(narrow_rows(k, spread=3 if below_ln2 else 20)) for _ in range(size)]
    t = draw(st.fractions(Fraction(11, 10), Fraction(19, 10) if below_ln2 else Fraction(8), max_denominator=10))
    f = draw(st.lists(st.integers(0, k - 1), min_size=size, max_size=size))
    return [[t / (t + k - 1) if s == f[x] else 1 / (t + k - 1) for s in range(k)] for x in range(size)]


def hypergeometric_bracket(N: int, w: int) -> Fraction:
    """sum_{k>=1} h(k)(1 - 2^-k) with h(k) = C(w,k)C(N-w,w-k)/C(N,w), by direct binomial sums."""
    total = math.comb(N, w)
    return sum((Fraction(math.comb(w, k) * math.comb(N - w, w - k), total) * (1 - Fraction(1, 2**k))
                for k in range(1, w + 1)), Fraction(0))


def overlap_law(N: int, w: int) -> dict[int, Fraction]:
    total = math.comb(N, w)
    return {k: Fraction(math.comb(w, k) * math.comb(N - w, w - k), total) for k in range(w + 1)}


@pytest.mark.parametrize("N,largest", [(2, "0.3466"), (3, "0.2158"), (4, "0.1521")])
def test_theorem_10_exhaustive_over_all_sets(N, largest):
    """Spec §7 claim 9 (Thm 10): for w = 1 and every A, I(Z; 1_A) <= (|C1|/2N)(1/|A| + 1/(2N-|A|)) <= 1/N.

    The largest MI over all A matches spec §3 Thm 10 [VERIFIED] within one unit of the 4th printed
    decimal (at N = 4 the exact maximum is 3 log(3/2)/8 = 0.152049..., which the spec prints
    rounded up as 0.1521).
    """
    cells = list(itertools.product(range(N), (0, 1)))
    best = sympy.Integer(0)
    for mask in range(1 << len(cells)):
        A = {cell for b, cell in enumerate(cells) if mask >> b & 1}
        channel = {rec: {1: Fraction(int((rec[0][0], rec[1][0]) in A)), 0: Fraction(int((rec[0][0], rec[1][0]) not in A))}
                   for rec in records(N, 1)}
        info = sketch_information(channel, N, 1)
        bound = theorem_10_bound(A, N)
        assert sign(bound - info) >= 0
        assert bound <= sympy.Rational(1, N)
        if sign(info - best) > 0:
            best = info
    assert within_printed(best, best, largest, units=Fraction(1))


def test_theorem_10_bound_values():
    assert theorem_10_bound(set(), 3) == 0
    assert theorem_10_bound({(i, z) for i in range(3) for z in (0, 1)}, 3) == 0
    assert theorem_10_bound({(0, 0), (1, 0)}, 2) == sympy.Rational(1, 2)  # |C1| = 2, |A| = 2: (2/4)(1/2 + 1/2)
    assert theorem_10_bound({(0, 0), (0, 1)}, 2) == 0  # C1 empty: S reveals only I


# spec §4 table (eps = 0.5): N, w, thm13 exact, thm13 paper, thm14 (5 significant digits printed)
SPEC_TABLE = [
    (10**4, 1, "1.3591e-4", "1.3591e-4", "8.4168e-5"),
    (10**4, 5, "3.3965e-3", "3.3979e-3", "4.3714e-4"),
    (10**4, 20, "5.3878e-2", "5.4355e-2", "7.4668e-3"),
    (10**6, 10, "1.3591e-4", "1.3591e-4", "8.4498e-6"),
    (10**6, 50, "3.3958e-3", "3.3978e-3", "6.6527e-5"),
    (10**6, 99, "1.3289e-2", "1.3321e-2", "4.6513e-4"),
]


@pytest.mark.parametrize("N,w,thm13,thm13_paper,thm14", SPEC_TABLE)
def test_spec_section4_reference_values(N, w, thm13, thm13_paper, thm14):
    """spec §4 table, eps = 0.5, each within half a unit of the last printed digit."""
    for result, printed in [(theorem_13_bound(N, w, "0.5"), thm13),
                            (theorem_13_bound(N, w, "0.5", form="paper"), thm13_paper),
                            (theorem_14_bound(N, w, "0.5"), thm14)]:
        assert result.valid and result.units == "nats"
        assert within_printed(result.lower_value, result.upper_value, printed), (result.name, result.display())


@pytest.mark.parametrize("N,w", [(2, 1), (5, 2), (7, 4), (7, 7), (40, 6), (10**4, 20), (3000, 150)])
def test_theorem_13_exact_form_equals_hypergeometric_sum(N, w):
    """Thm 13 exact form = e^{2eps} sum_{k>=1} h(k)(1-2^-k) (binomial sums); the paper's form is >= it."""
    eps = sympy.log(sympy.Rational(3, 2))  # e^{2eps} = 9/4 is rational
    result = theorem_13_bound(N, w, eps)
    expected = sympy.Rational(9, 4) * sympy.Rational(hypergeometric_bracket(N, w))
    assert result.value == expected
    law = overlap_law(N, w)
    paper = sympy.Rational(9, 4) * sympy.Rational(1 - law[0] - law.get(1, 0) / 2)
    assert theorem_13_bound(N, w, eps, form="paper").value == paper
    assert paper >= expected
    # the identities of spec §5 item 6-7: E^0 K = w^2/N, P(K=1) = w^2 R/(N-2w+1)
    assert sum(k * p for k, p in law.items()) == Fraction(w * w, N)
    if N - 2 * w + 1 > 0:
        assert law.get(1, 0) == Fraction(w * w, N - 2 * w + 1) * law[0]


@pytest.mark.parametrize("N,w", [(10**6, 500), (10**5, 300), (2 * 10**5, 1000)])
def test_theorem_13_truncated_series_encloses_exact_sum(N, w):
    """Above w = 200 the overlap series is cut with an exact tail bound: the enclosure holds the exact sum."""
    result = theorem_13_bound(N, w, sympy.log(2))
    exact = 4 * sympy.Rational(hypergeometric_bracket(N, w))
    assert result.lower_value <= exact <= result.upper_value
    assert (result.upper_value - result.lower_value) <= exact * sympy.Rational(1, 10**35)


@pytest.mark.parametrize("N,w", [(10**6, 300), (10**7, 900), (5000, 60), (3000, 1600), (3001, 1501), (400, 300)])
@pytest.mark.parametrize("form", ["thm13", "thm13-paper", "thm14"])
def test_interval_path_agrees_with_exact_path(monkeypatch, N, w, form):
    """The mpmath-interval path (used for w > EXACT_W_MAX) agrees with the exact path where both run.

    Both are enclosures of the same number (the exact path's is a point, or a 40-digit rounding of a
    long rational), so they must intersect; a point must lie inside the interval. (3000, 1600),
    (3001, 1501), (400, 300) have 2w > N and use the convex-order enclosure of E[2^-K].
    """
    exact_lower, exact_upper, _ = subset_overlap._bracket(N, w, form)
    monkeypatch.setattr(subset_overlap, "EXACT_W_MAX", 0)
    lower, upper, note = subset_overlap._bracket(N, w, form)
    assert "interval" in note
    assert max(lower, exact_lower) <= min(upper, exact_upper)
    assert upper - lower <= max(exact_upper, sympy.Rational(1, 10**30)) * sympy.Rational(1, 10**30)


@pytest.mark.parametrize("N,w", SMALL_SIZES)
@settings(max_examples=10)
@given(data=st.data())
def test_theorem_13_bounds_lemma_9_rhs_for_ldp_sketches(N, w, data):
    """Spec §7 claim 10 (Thm 13): Lemma9_RHS <= e^{2eps} sum_k h(k)(1 - 2^-k) for every eps-LDP sketch."""
    rows = data.draw(ldp_record_channels(N, w))
    assume(max_ratio(rows) > 1)
    eps = sympy.log(sympy.Rational(max_ratio(rows)))
    rhs = lemma_9_rhs(rows, N, w)
    bound = theorem_13_bound(N, w, eps)
    assert sign(bound.lower_value - rhs) >= 0
    assert sign(theorem_13_bound(N, w, eps, form="paper").lower_value - rhs) >= 0


@pytest.mark.parametrize("N,w", SMALL_SIZES)
@settings(max_examples=10)
@given(data=st.data())
def test_theorem_14_bounds_lemma_9_rhs_for_ldp_sketches(N, w, data):
    """Spec §7 claim 11 (Thm 14): Lemma9_RHS <= thm14(N, w, eps) for every eps-LDP sketch, eps < ln 2."""
    rows = data.draw(ldp_record_channels(N, w, below_ln2=True))
    ratio = max_ratio(rows)
    assume(1 < ratio < 2)
    eps = sympy.log(sympy.Rational(ratio))
    bound = theorem_14_bound(N, w, eps)
    assert bound.valid
    assert sign(bound.lower_value - lemma_9_rhs(rows, N, w)) >= 0


@pytest.mark.parametrize("N,w", [(3, 1), (4, 1), (5, 1), (3, 2)])
def test_theorem_14_main_term_at_every_vertex(N, w):
    """Spec §7 claims 11-12 (Lemma 28): at every vertex p^A of the box (|A| = D/2), the main term is

    sum_l (pi_l0 - pi_l1)^2 <= 2 eps'^2 w/N (claim thm14-box-main-term decides this with the same helper).
    The helper is checked here against the literal definition of the vertices (D/2 up, D/2 down, sum 1).
    """
    D = math.comb(N, w) * 2**w
    eps_prime = Fraction(1, 2)
    bound = theorem_14_main_term_bound(N, w, sympy.log(1 + sympy.Rational(eps_prime)))
    best = sympy.Integer(0)
    for A in itertools.combinations(range(D), D // 2):
        chosen = set(A)
        p = [(1 + eps_prime) / D if x in chosen else (1 - eps_prime) / D for x in range(D)]
        assert sum(p) == 1
        best = max(best, theorem_14_main_term(p, N, w))
    assert theorem_14_box_vertex_maximum(N, w, eps_prime) == best
    assert best <= bound
    assert best >= bound / 4  # the Bessel bound is within a small factor of the true max (spec: 2-2.6x loose)


@settings(max_examples=30)
@given(data=st.data())
def test_theorem_14_main_term_in_the_box(data):
    """Any point of the box (18): p_x D in [1 - eps', 1 + eps'], sum 1, has main term <= 2 eps'^2 w/N."""
    N, w = data.draw(st.sampled_from([(3, 1), (4, 1), (4, 2), (5, 2)]))
    D = math.comb(N, w) * 2**w
    eps_prime = data.draw(st.fractions(Fraction(1, 20), Fraction(19, 20), max_denominator=20))
    offsets = data.draw(st.lists(st.integers(-20, 20), min_size=D, max_size=D))
    mean = Fraction(sum(offsets), D)
    spread = max(abs(o - mean) for o in offsets) or 1
    p = [(1 + eps_prime * (o - mean) / spread) / D for o in offsets]  # in the box, sums to 1
    assert sum(p) == 1
    bound = theorem_14_main_term_bound(N, w, sympy.log(1 + sympy.Rational(eps_prime)))
    assert theorem_14_main_term(p, N, w) <= bound


def test_theorem_14_requires_eps_below_ln2():
    result = theorem_14_bound(100, 2, sympy.log(2))
    assert not result.valid and result.value is None and "ln 2" in result.note
    assert not theorem_14_bound(100, 2, 1).valid
    assert theorem_14_bound(100, 2, "0.69").valid


def test_theorem_14_any_eps_drops_only_the_hypothesis():
    """any_eps=True (claim thm14-any-eps, spec E11) gives the same closed form at eps >= ln 2."""
    for eps in (sympy.log(2), sympy.Integer(1), sympy.log(5)):
        result = theorem_14_bound(10**4, 1, eps, any_eps=True)
        assert result.valid and "E11" in result.note
        assert sympy.simplify(result.upper_value - 2 * (sympy.exp(eps) - 1) ** 2 / 10**4) == 0  # w = 1: main term
    below = theorem_14_bound(100, 2, "1/2", any_eps=True)
    assert below.upper_value == theorem_14_bound(100, 2, "1/2").upper_value and "E11" not in below.note
    with pytest.raises(InvalidParameterError, match="^any_eps"):
        theorem_14_bound(100, 2, 1, any_eps="yes")


@pytest.mark.parametrize("N, w", [(3, 1), (4, 1), (4, 2)])
def test_theorem_14_any_eps_bounds_lemma_9_rhs_beyond_ln2(N, w):
    """Exact Lemma 9 RHS of ln 4-LDP binary sketches (P(S = 1 | x) in [1/5, 4/5], seeded) below the bound."""
    rng = random.Random(N * 10 + w)
    for _ in range(3):
        channel = [[1 - a, a] for a in (Fraction(rng.randint(12, 48), 60) for _ in records(N, w))]
        rhs = sympy.sympify(lemma_9_rhs(channel, N, w))
        assert sign(theorem_14_bound(N, w, sympy.log(4), any_eps=True).lower_value - rhs) > 0


def test_theorem_14_at_w_1_is_the_main_term_exactly():
    """At w = 1 the overlap tail vanishes exactly (K <= 1), so thm14 = 2(e^eps - 1)^2/N."""
    assert theorem_14_bound(10**4, 1, "1/2").value == theorem_14_main_term_bound(10**4, 1, "1/2")


def test_theorem_14_tail_float64_fails_where_exact_succeeds():
    """Why exactness matters: at N = 10^12, w = 10 the Theorem 14 tail 1 + w^2/N - (1 + 2w^2/(N-2w+1)) R
    is about 1.5e-20, far below float64's resolution near 1; naive evaluation returns rounding noise.

    With eps = 10^-6 the tail dominates the whole bound, so float64 gets thm14 wrong by orders of
    magnitude (or negative) while the exact value is positive and inside the Lemma 12 sandwich bounds.
    """
    N, w = 10**12, 10
    R_float = 1.0
    for k in range(w):
        R_float *= 1 - w / (N - k)
    naive_tail = 1 + w * w / N - (1 + 2 * w * w / (N - 2 * w + 1)) * R_float
    eps = sympy.Rational(1, 10**6)
    exact = theorem_14_bound(N, w, eps)
    exact_tail = (exact.value - theorem_14_main_term_bound(N, w, eps)) / sympy.exp(2 * eps)
    assert exact_tail > 0
    # the exact tail lies between the values obtained from Lemma 12's sandwich
    lower_R, _, upper_R = lemma_12_sandwich(N, w)
    c = 1 + sympy.Rational(2 * w * w, N - 2 * w + 1)
    assert 1 + sympy.Rational(w * w, N) - c * upper_R <= exact_tail <= 1 + sympy.Rational(w * w, N) - c * lower_R
    assert 1e-21 < float(exact_tail) < 1e-19
    assert naive_tail <= 0 or abs(naive_tail - float(exact_tail)) > 100 * float(exact_tail)
    naive_bound = 2 * math.expm1(1e-6) ** 2 * w / N + math.exp(2e-6) * naive_tail
    exact_float = float(exact.value)
    assert naive_bound <= 0 or not exact_float / 10 <= naive_bound <= 10 * exact_float


@pytest.mark.parametrize("w", [1, 10, 1000, EXACT_W_MAX, EXACT_W_MAX + 1, 10**4, 10**6, 10**8, 5 * 10**11, 10**12])
def test_closed_form_bounds_at_n_1e12(w):
    """N = 10^12 works on every path; enclosures are ordered, non-negative, and hold e^{2eps} times a probability."""
    N = 10**12
    t13 = theorem_13_bound(N, w, "1/2")
    t14 = theorem_14_bound(N, w, "1/2")
    paper = theorem_13_bound(N, w, "1/2", form="paper")
    for result in (t13, t14, paper):
        assert 0 <= result.lower_value <= result.value <= result.upper_value
        assert result.upper is not None and result.enclosure[0] <= result.enclosure[1] == result.upper
    assert sign(t13.upper_value - sympy.E) <= 0  # 1 - E[2^-K] <= 1
    assert sign(paper.upper_value - t13.lower_value) >= 0  # the paper's form is >= the exact form
    if w > EXACT_W_MAX:
        assert "interval" in t13.note


eps_below_ln2 = st.fractions(Fraction(1, 100), Fraction(69, 100), max_denominator=100)


@given(N=st.integers(10, 10**9), eps1=eps_below_ln2, eps2=eps_below_ln2, data=st.data())
def test_bounds_increase_in_eps(N, eps1, eps2, data):
    """Stays a test: the paper states no monotonicity; this is a sanity property of this package's closed forms
    (spec §7 claim 16).
    """
    assume(eps1 < eps2)
    w = data.draw(st.integers(1, min(N // 2, 50)))
    for bound in (theorem_13_bound, theorem_14_bound):
        assert bound_less(bound(N, w, eps1), bound(N, w, eps2))


@given(N=st.integers(10, 10**9), eps=eps_below_ln2, data=st.data())
def test_bounds_increase_in_w(N, eps, data):
    """Stays a test: the paper states no monotonicity; this is a sanity property of this package's closed forms
    (spec §7 claim 16).
    """
    w = data.draw(st.integers(1, max(1, min(math.isqrt(N) - 1, 60))))
    assume((w + 1) ** 2 <= N)
    for bound in (theorem_13_bound, theorem_14_bound):
        assert bound_less(bound(N, w, eps), bound(N, w + 1, eps))


@given(w=st.integers(1, 40), eps=eps_below_ln2, data=st.data())
def test_bounds_decrease_in_n_when_w_squared_is_small(w, eps, data):
    """Stays a test: the paper states no monotonicity; this is a sanity property of this package's closed forms
    (spec §7 claim 16).
    """
    N = data.draw(st.integers(4 * w * w, 10**9))
    N2 = data.draw(st.integers(N + 1, 2 * 10**9))
    for bound in (theorem_13_bound, theorem_14_bound):
        assert bound_less(bound(N2, w, eps), bound(N, w, eps))


@pytest.mark.parametrize("N,w,eps,winner", [
    (10**4, 5, "1/2", "theorem14"), (10**4, 5, 1, "theorem13"), (100, 90, "1/2", "lemma6"),
    (10**12, 10**6, "1/2", "lemma6"),
])
def test_per_user_bound_is_the_minimum(N, w, eps, winner):
    result = per_user_mi_bound(N, w, eps)
    assert result.name == "per-user" and result.units == "nats" and winner in result.note
    candidates = [lemma_6_bound(eps), theorem_13_bound(N, w, eps), theorem_14_bound(N, w, eps)]
    for candidate in candidates:
        if candidate.valid:
            assert sign(candidate.upper_value - result.upper_value) >= 0


INVALID = [
    (lambda: theorem_13_bound(10, 11, 1), "w"),
    (lambda: theorem_13_bound(10, 0, 1), "w"),
    (lambda: theorem_13_bound(1, 1, 1), "N"),
    (lambda: theorem_13_bound("2.5", 1, 1), "N"),
    (lambda: theorem_13_bound(10, 2, 0), "eps"),
    (lambda: theorem_13_bound(10, 2, -1), "eps"),
    (lambda: theorem_13_bound(10, 2, "nan"), "eps"),
    (lambda: theorem_13_bound(10, 2, 1, form="approx"), "form"),
    (lambda: theorem_14_bound(10, 11, "1/2"), "w"),
    (lambda: theorem_14_bound(10, 2, 0), "eps"),
    (lambda: per_user_mi_bound(0, 1, 1), "N"),
    (lambda: theorem_10_bound({(2, 0)}, 2), "A"),
    (lambda: theorem_10_bound({(0, 2)}, 2), "A"),
    (lambda: theorem_10_bound(set(), 1), "N"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)


def test_integer_parameters_accept_integer_valued_strings():
    assert theorem_13_bound("1e4", "5", "1/2").value == theorem_13_bound(10**4, 5, sympy.Rational(1, 2)).value
    assert theorem_14_bound(1e4, 5.0, "0.5").value == theorem_14_bound(10**4, 5, sympy.Rational(1, 2)).value
