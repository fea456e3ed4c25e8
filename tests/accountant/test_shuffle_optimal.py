"""The ``optimal`` shuffle row (accountant/shuffle_optimal.py, accountant/iid_sums.py) against independent truth.

References: the brute-force shuffled k-RR law in Fractions (tests/oracles/shuffle.py); the blanket bound of
Balle, Bell, Gascon, Nissim (CRYPTO 2019) in exact Fractions by enumeration (binary randomized response,
e^eps0 = 4, e^eps = 2, n = 5: 513/3125, where the exact worst case over the other users' bits is 512/3125);
FMT 2023's stronger-clone numerical bound (dpcert's fmt23-numeric, a separate computation), which for binary
randomized response is the same decomposition.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.accountant.iid_sums import ValueAtom, positive_part_mean_lower, positive_part_mean_upper
from dpcert.accountant.shuffle import shuffle_bound, shuffle_family
from dpcert.accountant import blanket_variables
from dpcert.accountant.blanket_variables import (
    clone_variable,
    fixed_others_variables,
    joint_variable,
    krr_variable,
    randomizer_rows,
    rows_variables,
)
from dpcert.accountant.shuffle_optimal import MAX_OPTIMAL_N, blanket_delta_upper, blanket_optimal
from dpcert.mechanisms.parameters import InvalidParameterError
from oracles import shuffle as shuffle_oracle


def _exact_positive_part(atoms: list[tuple[Fraction, Fraction]], n: int) -> Fraction:
    """E[(X_1 + ... + X_n)_+] by enumerating all len(atoms)^n outcomes."""
    total = Fraction(0)
    for outcome in itertools.product(atoms, repeat=n):
        probability, value = Fraction(1), Fraction(0)
        for v, p in outcome:
            probability *= p
            value += v
        total += probability * max(value, Fraction(0))
    return total


def test_blanket_mean_of_binary_randomized_response_is_513_over_3125():
    # G = e^eps0 - e^eps = 2 (prob 1/5), 1 - e^(eps + eps0) = -7 (1/5), 0 (3/5)
    atoms = [(Fraction(2), Fraction(1, 5)), (Fraction(-7), Fraction(1, 5)), (Fraction(0), Fraction(3, 5))]
    exact = _exact_positive_part(atoms, 5) / 5
    assert exact == Fraction(513, 3125)
    bound = positive_part_mean_upper([ValueAtom((v, v), (p, p)) for v, p in atoms], 5, step=Fraction(1, 4), tilt=0.0,
                                     tail=1e-30, cap=10.0) / 5
    assert exact <= bound <= exact * (1 + Fraction(1, 10**9))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(1, 9)), min_size=2, max_size=3), st.integers(1, 5),
       st.sampled_from([Fraction(1, 2), Fraction(1, 8), Fraction(1, 64)]))
def test_positive_part_mean_is_an_upper_bound(points, n, step):
    """Property: for random atoms (values in tenths) the certified mean is >= the enumerated truth, and within
    10^-9 relative of it when every value sits on the grid (the split is then exact)."""
    total = sum(p for _, p in points)
    atoms = [(Fraction(v, 10), Fraction(p, total)) for v, p in points]
    truth = _exact_positive_part(atoms, n)
    bound = positive_part_mean_upper([ValueAtom((v, v), (p, p)) for v, p in atoms], n, step=step, tilt=0.0,
                                     tail=1e-30, cap=float(n * 2 + 1))
    assert truth <= Fraction(bound)
    if all((v / step).denominator == 1 for v, _ in atoms):
        assert Fraction(bound) <= truth * (1 + Fraction(1, 10**9)) + Fraction(1, 10**300)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(1, 9)), min_size=2, max_size=3), st.integers(1, 6),
       st.sampled_from([Fraction(1, 2), Fraction(1, 8), Fraction(1, 64)]))
def test_positive_part_mean_lower_is_a_lower_bound(points, n, step):
    """Property: for random atoms (values in tenths) the certified lower mean is <= the enumerated truth, and
    within 5 % of it on the finest step (the rounding's first-order loss is added back)."""
    total = sum(p for _, p in points)
    atoms = [(Fraction(v, 10), Fraction(p, total)) for v, p in points]
    truth = _exact_positive_part(atoms, n)
    bound = positive_part_mean_lower([ValueAtom((v, v), (p, p)) for v, p in atoms], n, step=step, tilt=0.0,
                                     tail=1e-30)
    assert Fraction(bound) <= truth
    if step == Fraction(1, 64):
        assert Fraction(bound) >= truth * Fraction(95, 100) - Fraction(1, 10**12)


def test_the_fixed_others_mean_is_the_exact_delta_of_that_pair_of_datasets():
    """(1/n) E[(H_1 + ... + H_n)_+] with Y ~ mu_z, H = (mu_x(Y) - s mu_x'(Y)) / mu_z(Y), enumerated in Fractions,
    equals the brute-force hockey-stick divergence of the shuffled reports of (x, z, ..., z) and (x', z, ..., z)
    (tests/oracles/shuffle.py), for a 3 x 3 randomizer and both choices of z."""
    rows = ((Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 5), Fraction(3, 5), Fraction(1, 5)),
            (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)))
    variables = fixed_others_variables([[sympy.Rational(v.numerator, v.denominator) for v in row] for row in rows])
    s, n = Fraction(3, 2), 4
    x, other = 0, 1  # the largest ratio: 1/2 against 1/5
    for variable, z in zip(variables, (other, 2)):
        # the builder's atoms at eps = 0 enclose (mu_x - mu_x') / mu_z with mass mu_z, output by output
        built = sorted((a.value, a.mass) for a in variable.atoms(Fraction(0)) if a.mass[1] > 0)
        hand = sorted(((rows[x][y] - rows[other][y]) / rows[z][y], rows[z][y]) for y in range(3))
        assert len(built) == len(hand)
        assert all(v[0] <= hv <= v[1] and m[0] <= hm <= m[1] for (v, m), (hv, hm) in zip(built, hand))
        at_s = [((rows[x][y] - s * rows[other][y]) / rows[z][y], rows[z][y]) for y in range(3)]
        mean = _exact_positive_part(at_s, n) / n
        first = shuffle_oracle.shuffled_law(rows, (x,) + (z,) * (n - 1))
        second = shuffle_oracle.shuffled_law(rows, (other,) + (z,) * (n - 1))
        assert mean == shuffle_oracle.hockey_stick(first, second, s)


@pytest.mark.parametrize(("t", "k", "n"), [(Fraction(3), 3, 5), (Fraction(2), 4, 4), (Fraction(4), 2, 6)])
def test_the_lower_end_is_never_above_the_brute_force_truth(t, k, n):
    """The row's lower end (the exact row's, or one pair of datasets bounded from below) is <= the exact eps of
    shuffled k-RR over all datasets (tests/oracles/shuffle.py)."""
    _, high = shuffle_oracle.shuffled_krr_epsilon(t, k, n, Fraction(1, 20))
    eps0 = sympy.log(sympy.Rational(t.numerator, t.denominator))
    row = shuffle_bound("optimal", eps0, n, sympy.Rational(1, 20), k=k)
    assert row.lower is not None and row.lower <= float(high)


def test_ten_ary_randomized_response_is_enclosed_within_one_percent():
    """10-RR at eps0 = 1, n = 1000, delta = 1e-6: the blanket bound and the exact eps of the pair with the others all
    holding x' (from below) enclose the truth within 1 % (measured 0.59 %): the blanket bound is nearly tight."""
    row = shuffle_bound("optimal", 1, 1000, sympy.Rational(1, 10**6), k=10)
    assert row.bounds == "exact" and row.lower <= row.upper <= row.lower * 1.01


@pytest.mark.parametrize(("t", "k", "n", "delta"), [
    (Fraction(3), 2, 7, Fraction(1, 10)), (Fraction(2), 3, 5, Fraction(1, 20)), (Fraction(4), 3, 4, Fraction(1, 10)),
    (Fraction(3, 2), 4, 4, Fraction(1, 100)),
])
def test_never_below_the_brute_force_truth(t, k, n, delta):
    """The certified upper end is >= the exact eps of shuffled k-RR (all datasets enumerated in Fractions)."""
    low, _ = shuffle_oracle.shuffled_krr_epsilon(t, k, n, delta)
    eps0 = sympy.log(sympy.Rational(t.numerator, t.denominator))
    row = shuffle_bound("optimal", eps0, n, sympy.Rational(delta.numerator, delta.denominator), k=k)
    assert row.valid and row.upper >= float(low)


def test_binary_randomized_response_matches_the_stronger_clones():
    """For binary randomized response the blanket and FMT 2023's stronger-clone decompositions coincide: the
    two computations (an FFT of the blanket variable on a grid of sigma / 8; a sum over clone counts) agree to
    10^-3 (measured: 6e-4), and the row reports the smaller, with the exact row's lower end."""
    grid = blanket_optimal(sympy.Integer(1), 1000, sympy.Rational(1, 10**6), 2)
    rows = {r.name: r for r in shuffle_family(1, 1000, sympy.Rational(1, 10**6), k=2)}
    assert grid.upper == pytest.approx(rows["fmt23-numeric"].upper, rel=1e-3)
    assert rows["optimal"].upper == min(grid.upper, rows["fmt23-numeric"].upper)
    assert rows["optimal"].lower == rows["exact"].lower  # the lower end is the exact row's


@pytest.mark.parametrize(("eps0", "n"), [(sympy.Rational(1, 2), 1000), (sympy.Integer(1), 10000),
                                         (sympy.Integer(4), 2000)])
def test_the_clone_variable_matches_the_clone_sums(eps0, n):
    """Any eps0-LDP randomizer: the blanket machinery on the clone decomposition's worst variable
    (:func:`clone_variable`, an FFT on a grid) and fmt21-numeric (exact integer recurrences over the clone counts,
    a separate computation of the same FMT 2021 divergence) agree to 2 10^-3 (measured: <= 1.0e-3 on the grid of
    sigma / 8), and the grid's
    answer is never below the clone sums' certified lower end."""
    target = 1e-6
    clone = shuffle_bound("fmt21-numeric", eps0, n, sympy.Rational(1, 10**6))
    grid = blanket_optimal(eps0, n, sympy.Rational(1, 10**6), None, sampling=sympy.Rational(1, 1))
    low = clone.enclosure[0]
    assert grid.upper == pytest.approx(clone.upper, rel=2e-3) and grid.upper >= low
    assert blanket_delta_upper(clone_variable(eps0), Fraction(low * (1 - 1e-3)), n, target) > target


def test_any_randomizer_is_never_looser_than_the_clone_bound_and_reports_its_gap():
    """k omitted: the row's upper end is <= fmt21-numeric's, and its lower end is the exact eps of shuffled binary
    randomized response (one eps0-LDP randomizer), so the gap to the best known lower bound is on the row."""
    rows = {r.name: r for r in shuffle_family(1, 1000, sympy.Rational(1, 10**6))}
    optimal = rows["optimal"]
    assert optimal.valid and optimal.bounds == "exact"
    assert optimal.upper <= rows["fmt21-numeric"].upper
    assert optimal.lower == pytest.approx(rows["exact"].lower, rel=1e-12) and optimal.lower < optimal.upper


@pytest.mark.parametrize("seed", range(3))
def test_any_randomizer_is_above_a_random_randomizers_brute_force_truth(seed):
    """The k-omitted row is an upper bound for every eps0-LDP randomizer: here random 3 x 3 rational tables
    (entries in [1, 4], so eps0 = ln 4 covers them), n = 4, all datasets enumerated (tests/oracles/shuffle.py);
    and with users sampled at rate 1/2 against the same tables with a void output added."""
    generator = random.Random(seed)
    weights = [[generator.randint(1, 4) for _ in range(3)] for _ in range(3)]
    rows = tuple(tuple(Fraction(w, sum(row)) for w in row) for row in weights)
    ratio = max(rows[i][y] / rows[j][y] for i in range(3) for j in range(3) for y in range(3))
    eps0 = sympy.log(sympy.Rational(ratio.numerator, ratio.denominator))
    delta = Fraction(1, 20)
    low, _ = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(rows, 4, delta))
    assert shuffle_bound("optimal", eps0, 4, sympy.Rational(1, 20)).upper >= float(low)
    half = Fraction(1, 2)
    sampled = tuple(tuple(half * v for v in row) + (half,) for row in rows)
    low, _ = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(sampled, 4, delta))
    row = shuffle_family(eps0, 4, sympy.Rational(1, 20), method="optimal", sampling=sympy.Rational(1, 2))[0]
    assert row.upper >= float(low)


def test_ten_ary_randomized_response_is_tighter_than_every_other_bound():
    """The blanket mean is below Hoeffding's and Bennett's bounds of it, and below the clone bounds (Su, Cheng,
    Wang: the blanket is the best decomposition), here by more than 15 %."""
    rows = {r.name: r for r in shuffle_family(1, 1000, sympy.Rational(1, 10**6), k=10)}
    others = [rows[m].upper for m in ("fmt21-numeric", "fmt23-numeric", "blanket-hoeffding", "blanket-bennett")
              if rows[m].upper is not None]
    assert rows["optimal"].upper * 1.15 <= min(others)


def test_delta_falls_with_eps():
    eps0 = sympy.Integer(1)
    deltas = [blanket_delta_upper(krr_variable(eps0, 3), Fraction(e), 500, 1e-6) for e in (0.05, 0.1, 0.2, 0.4)]
    assert deltas == sorted(deltas, reverse=True) and deltas[-1] < deltas[0]


@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"eps0": 1, "n": MAX_OPTIMAL_N + 1, "k": 2}, "beyond the evaluated range"),
    ({"eps0": 11, "n": 1000, "k": 2}, "beyond the evaluated range"),
    ({"eps0": 1, "n": 1000, "k": 1001}, "beyond the evaluated range"),
])
def test_out_of_range_rows_say_why(kwargs, reason):
    row = shuffle_bound("optimal", kwargs["eps0"], kwargs["n"], sympy.Rational(1, 10**6), k=kwargs["k"])
    assert not row.valid and reason in row.note


def test_a_run_of_every_method_skips_its_lower_end_beyond_2000_users_and_it_beyond_a_million():
    rows = {r.name: r for r in shuffle_family(1, 5000, sympy.Rational(1, 10**6), k=10)}
    assert rows["optimal"].valid and rows["optimal"].lower is None
    assert shuffle_bound("optimal", 1, 5000, sympy.Rational(1, 10**6), k=10).lower is not None  # by name it has one
    rows = {r.name: r for r in shuffle_family(1, 2 * 10**6, sympy.Rational(1, 10**6), k=10)}
    assert not rows["optimal"].valid and "--method optimal" in rows["optimal"].note


def test_a_randomizer_given_by_its_pmf_matches_the_closed_form_of_k_rr():
    """The finite-mechanism path (its pmf's outputs grouped into kinds, the pairs of inputs into classes) gives
    k-RR exactly the closed form's blanket variable, so the same certified number."""
    by_rows = shuffle_bound("optimal", 1, 500, sympy.Rational(1, 10**6), randomizer="k-rr:k=4,eps=1")
    closed = blanket_optimal(sympy.Integer(1), 500, sympy.Rational(1, 10**6), 4)
    assert by_rows.valid and by_rows.upper == closed.upper


def test_randomizer_rows_group_symmetric_pairs_into_one_kind():
    _, rows = randomizer_rows("unary-encoding:k=4,eps=1", sympy.Integer(1))
    assert len(rows_variables(rows)) == 1  # every ordered pair of OUE's inputs is alike
    _, rows = randomizer_rows("geometric:eps=1/2,hi=4", sympy.Integer(3))
    assert len(rows_variables(rows)) > 1  # the truncated geometric's pairs differ


@pytest.mark.parametrize(("spec", "eps0", "message"), [
    ("k-rr:k=3,eps=2", 1, "not eps0-LDP"),
    ("membership-query:N=3,A=[[0, 1]]", 1, "every output is impossible under some input"),
    ("gaussian:sigma=1", 1, "not a finite mechanism"),
    ("unary-encoding:k=30,eps=1", 1, "randomizer must be a finite mechanism"),
    ("k-rr:k=3,eps=1*2", 1, "no repeat count"),
    ("nope:x=1", 1, "mechanism must be"),
])
def test_bad_randomizer_is_invalid_parameter(spec, eps0, message):
    with pytest.raises(InvalidParameterError, match=message):
        shuffle_family(eps0, 1000, sympy.Rational(1, 10**6), randomizer=spec)


def test_randomizer_and_k_together_are_refused():
    with pytest.raises(InvalidParameterError, match="not both"):
        shuffle_family(1, 1000, sympy.Rational(1, 10**6), k=3, randomizer="k-rr:k=3,eps=1")


def test_calibration_by_name_finds_a_larger_eps0_than_the_clone_bound():
    """calibrate_eps0(method="optimal"): the returned eps0's certified optimal bound meets the target (rechecked),
    and the tighter bound admits a larger eps0 than fmt21-numeric's calibration."""
    from dpcert.accountant.calibration import calibrate_eps0

    target, n, delta = sympy.Rational(1, 2), 1000, sympy.Rational(1, 10**6)
    optimal = calibrate_eps0(target, n, delta, method="optimal", k=10, relative_tolerance="1e-3")
    clone = calibrate_eps0(target, n, delta, method="fmt21-numeric", k=10, relative_tolerance="1e-3")
    assert optimal.valid and optimal.value > clone.value
    assert shuffle_bound("optimal", optimal.value, n, delta, k=10).upper <= float(target)


@pytest.mark.parametrize(("spec", "eps0", "rows", "n", "delta"), [
    # joint: each user sends RR(ln 2) twice on its bit, the pair as one report (the product of the laws)
    ("randomized-response:eps=log(2)&randomized-response:eps=log(2)", sympy.log(4),
     ((Fraction(4, 9), Fraction(2, 9), Fraction(2, 9), Fraction(1, 9)),
      (Fraction(1, 9), Fraction(2, 9), Fraction(2, 9), Fraction(4, 9))), 4, Fraction(1, 20)),
    # parallel: each user runs RR(ln 2) or RR(ln 3) with probability 1/2, and the report says which
    ("randomized-response:eps=log(2)|randomized-response:eps=log(3)", sympy.log(3),
     ((Fraction(1, 3), Fraction(1, 6), Fraction(3, 8), Fraction(1, 8)),
      (Fraction(1, 6), Fraction(1, 3), Fraction(1, 8), Fraction(3, 8))), 4, Fraction(1, 20)),
])
def test_composed_randomizers_are_never_below_the_brute_force_truth(spec, eps0, rows, n, delta):
    """Joint (&) and parallel (|) composition in the shuffle model: the certified upper end is >= the exact eps of
    the shuffled reports, every dataset and neighbour enumerated in Fractions (tests/oracles/shuffle.py)."""
    label, exact_rows = randomizer_rows(spec, eps0)
    assert [[Fraction(int(v.p), int(v.q)) for v in row] for row in exact_rows] == [list(r) for r in rows]
    low, _ = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(rows, n, delta))
    row = shuffle_bound("optimal", eps0, n, sympy.Rational(delta.numerator, delta.denominator), randomizer=spec)
    assert row.valid and row.upper >= float(low)


@pytest.mark.parametrize("use_k", [True, False])
def test_sampled_users_are_never_below_the_brute_force_truth(use_k):
    """Poisson sampling of users at rate 1/2 before the shuffler (a user left out sends the void report): the
    certified upper end is >= the exact eps of the shuffled reports with the void output, enumerated in Fractions
    (tests/oracles/shuffle.py), for binary randomized response with e^eps0 = 2, given by k or by its pmf."""
    rows = ((Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)), (Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)))
    low, high = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(rows, 5, Fraction(1, 20)))
    options = {"k": 2} if use_k else {"randomizer": "randomized-response:eps=log(2)"}
    row = shuffle_bound("optimal", sympy.log(2), 5, sympy.Rational(1, 20), sampling="1/2", **options)
    plain = shuffle_bound("optimal", sympy.log(2), 5, sympy.Rational(1, 20), **options)
    assert row.valid and float(low) <= row.upper < plain.upper  # sampling only helps
    # the lower end: one pair of datasets of the sampled randomizer, never above the truth
    assert "sampled at rate 1/2" in row.note and row.lower is not None and row.lower <= float(high)


@pytest.mark.parametrize("value", ["0", "2", "pi/4"])
def test_bad_sampling_rate_is_invalid_parameter(value):
    with pytest.raises(InvalidParameterError, match="sampling"):
        shuffle_bound("optimal", 1, 100, sympy.Rational(1, 10**6), k=2, sampling=value)


def test_a_randomizer_with_several_kinds_of_pairs_is_never_below_the_brute_force_truth():
    """The truncated geometric on {0, 1, 2} (e^eps = 2, so 4-LDP) has three kinds of ordered input pairs; the row
    is certified for every kind at one eps, which is >= the exact eps of the shuffled reports (tests/oracles/shuffle.py)."""
    spec = "geometric:eps=log(2),hi=2"
    _, rows = randomizer_rows(spec, sympy.log(4))
    assert len(rows_variables(rows)) == 3
    exact = tuple(tuple(Fraction(int(v.p), int(v.q)) for v in row) for row in rows)
    low, _ = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(exact, 4, Fraction(1, 20)))
    row = shuffle_bound("optimal", sympy.log(4), 4, sympy.Rational(1, 20), randomizer=spec)
    assert row.valid and row.upper >= float(low)


@pytest.mark.parametrize("step", [Fraction(3, 8), Fraction(0), Fraction(-1, 4)])
def test_positive_part_mean_takes_only_power_of_two_steps(step):
    atoms = [ValueAtom((Fraction(1), Fraction(1)), (Fraction(1), Fraction(1)))]
    with pytest.raises(InvalidParameterError, match="step must be a power of two"):
        positive_part_mean_upper(atoms, 2, step=step, tilt=0.0, tail=1e-30, cap=2.0)


_LEAKY_ROWS = tuple(tuple(Fraction(99, 100) * v for v in rr) + leak for rr, leak in
                    (((Fraction(2, 3), Fraction(1, 3)), (Fraction(1, 100), Fraction(0))),
                     ((Fraction(1, 3), Fraction(2, 3)), (Fraction(0), Fraction(1, 100)))))
"""leaky-rr at e^eps = 2, delta0 = 1/100: randomized response scaled by 99/100, and the revealing outputs 2, 3."""


@pytest.mark.parametrize(("n", "delta"), [(4, Fraction(1, 20)), (4, Fraction(1, 50)), (5, Fraction(1, 20))])
def test_an_approximate_ldp_randomizer_is_enclosed_by_its_brute_force_shuffled_law(monkeypatch, n, delta):
    """leaky-rr is (eps, delta0)-LDP, not pure: its revealing outputs are outside the blanket and add their
    hockey-stick divergence unamplified. The row's [lower, upper] encloses the exact eps of the shuffled reports,
    every dataset enumerated in Fractions (tests/oracles/shuffle.py); dropping the leak (the broken variant) puts
    the upper end below that truth at n = 4 (measured 0.403 < 0.423 and 0.587 < 0.604)."""
    spec = "leaky-rr:eps=log(2),delta0=1/100"
    _, rows = randomizer_rows(spec, sympy.log(2))
    assert tuple(tuple(Fraction(int(v.p), int(v.q)) for v in row) for row in rows) == _LEAKY_ROWS
    low, high = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(_LEAKY_ROWS, n, delta))
    exact_delta = sympy.Rational(delta.numerator, delta.denominator)
    row = shuffle_bound("optimal", sympy.log(2), n, exact_delta, randomizer=spec)
    assert row.valid and row.lower <= float(high) and float(low) <= row.upper
    assert "not pure LDP" in row.note
    if n == 4:
        monkeypatch.setattr(blanket_variables.BlanketVariable, "leak", lambda self, eps, side: Fraction(0))
        blanket_variables.randomizer_variables.cache_clear()
        broken = shuffle_bound("optimal", sympy.log(2), n, exact_delta, randomizer=spec)
        blanket_variables.randomizer_variables.cache_clear()
        assert broken.upper < float(low)


def test_a_joint_report_leaks_where_any_part_leaks():
    """Joint composition of leaky-rr with randomized response: the product of the parts' variables leaks exactly what
    the product pmf's own variable leaks (an output of the pair is outside the blanket when a part's is)."""
    eps0 = sympy.log(2)
    _, leaky = randomizer_rows("leaky-rr:eps=log(2),delta0=1/100", eps0)
    _, plain = randomizer_rows("randomized-response:eps=log(2)", eps0)
    _, product = randomizer_rows("leaky-rr:eps=log(2),delta0=1/100&randomized-response:eps=log(2)", 2 * eps0)
    joint = joint_variable(rows_variables(leaky)[0], rows_variables(plain)[0])
    direct = [v for v in rows_variables(product) if v.leaks]
    assert joint.leaks and direct
    for eps in (Fraction(0), Fraction(1, 2), Fraction(2)):  # the same exact leak, each within its enclosures
        ours = joint.leak(eps, "lower"), joint.leak(eps, "upper")
        theirs = max(v.leak(eps, "lower") for v in direct), max(v.leak(eps, "upper") for v in direct)
        assert ours[0] <= theirs[1] and theirs[0] <= ours[1]
        assert ours[1] - ours[0] <= Fraction(1, 10**14) and ours[0] >= Fraction(99, 10**4)  # 1/100 of the pair


def test_a_leak_at_least_delta_leaves_no_eps():
    """When the revealing outputs alone carry delta0 >= delta, no eps certifies delta: an invalid row saying so."""
    row = shuffle_bound("optimal", sympy.log(2), 100, sympy.Rational(1, 200), randomizer="leaky-rr:eps=log(2),delta0=1/100")
    assert not row.valid and "reveal it with probability 0.01 >= delta" in row.note
