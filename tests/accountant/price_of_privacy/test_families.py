"""Tests for dpcert.accountant.price_of_privacy.families: the ``dpcert bound`` families and their parameter table.

Values are checked against spec §4's table (the "U_unrel" columns, users_unreliable at p_max = 1/2)
with the tolerance implied by the printed digits, and every family is exercised the way a command
line calls it (all parameters as strings, N up to 10^12).
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from conftest import assert_rejects
import sympy
from hypothesis import given
from hypothesis import strategies as st

from dpcert.accountant.exact_intervals import rigorous_interval
from dpcert.accountant.catalog import BOUND_FAMILIES
from dpcert.accountant.price_of_privacy.families import fano_family as fano
from dpcert.accountant.price_of_privacy.families import ldp_mutual_information_family as ldp_mutual_information
from dpcert.accountant.price_of_privacy.fano import theorem_7_user_threshold, users_unreliable
from dpcert.accountant.price_of_privacy.per_user_bounds import theorem_13_bound, theorem_14_bound
from dpcert.mechanisms.parameters import exact_sign

MI_NAMES = ["lemma6", "theorem13", "theorem13-paper", "theorem14", "per-user"]
FANO_NAMES = ["theorem7", "theorem7-paper", "corollary21-lemma6", "corollary21-theorem13", "corollary21-theorem14",
              "theorem23", "theorem23-paper"]


def sign(expr) -> int:
    """The exact sign: decided on a rigorous interval enclosure when it excludes 0, else by exact_sign."""
    lower, upper = rigorous_interval(expr)
    if lower > 0:
        return 1
    if upper < 0:
        return -1
    return exact_sign(sympy.sympify(expr))


def within_printed(lower, upper, printed: str, units: int = 1) -> bool:
    """[lower, upper] within ``units`` units of the last printed digit.

    One unit, not half: the spec computed its "U_unrel" columns from the 5-digit MI values of the same
    table (e.g. 346573.3/6.6527e-5 = 5.2095e9, printed 5.210e9; the exact value is 5.20948e9).
    """
    reference = Decimal(printed)
    half = Decimal(1).scaleb(reference.as_tuple().exponent) * units
    ref, tol = sympy.Rational(str(reference)), sympy.Rational(str(half))
    return sign(lower - (ref - tol)) >= 0 and sign(ref + tol - upper) >= 0


# spec §4 table, eps = 0.5: N, w, U_unrel(13), U_unrel(14), U_unrel(Lemma 6)
SPEC_USERS = [
    ("1e4", "1", "2.549e7", "4.117e7", "6930"),
    ("1e4", "5", "1.020e6", "7.927e6", "6930"),
    ("1e4", "20", "6.431e4", "4.641e5", "6930"),
    ("1e6", "10", "2.550e9", "4.102e10", "6.93e5"),
    ("1e6", "50", "1.021e8", "5.210e9", "6.93e5"),
    ("1e6", "99", "2.608e7", "7.451e8", "6.93e5"),
]


@pytest.mark.parametrize("N,w,u13,u14,u6", SPEC_USERS)
def test_fano_family_matches_spec_section4_users(N, w, u13, u14, u6):
    """spec §4 table "U_unrel" columns: (N/2 - 1)/(I LOG2E) for I = thm13 / thm14 / Lemma 6 (one-unit tolerance)."""
    results = {r.name: r for r in fano(N, "0.5", w=w)}
    for name, printed in [("corollary21-theorem13", u13), ("corollary21-theorem14", u14), ("corollary21-lemma6", u6)]:
        result = results[name]
        assert result.valid and result.units == "users"
        assert within_printed(result.lower_value, result.upper_value, printed), (name, result.display())


def test_mutual_information_family_names_and_units():
    results = ldp_mutual_information("1e4", "5", "1/2")
    assert [r.name for r in results] == MI_NAMES
    assert all(r.units == "nats" and r.valid for r in results)
    assert "theorem14" in results[-1].note and results[-1].value == results[3].value
    assert results[2].note.startswith("paper's")


def test_mutual_information_family_theorem_14_invalid_at_ln2():
    results = {r.name: r for r in ldp_mutual_information("1e12", "10", "log(2)")}
    assert not results["theorem14"].valid and results["theorem14"].value is None
    assert "ln 2" in results["theorem14"].note
    assert results["per-user"].valid and "theorem13" in results["per-user"].note


def test_fano_family_names_and_rows():
    results = fano("1e4", "1/2", w="5")
    assert [r.name for r in results] == FANO_NAMES
    by_name = {r.name: r for r in results}
    assert not by_name["theorem7-paper"].valid and "vacuous" in by_name["theorem7-paper"].note
    assert by_name["corollary21-lemma6"].value == by_name["theorem7"].value  # Lemma 6 in Cor 21 is Theorem 7
    assert by_name["theorem23"].value == by_name["theorem7"].value  # K = 2, d = 0
    thm13 = theorem_13_bound(10**4, 5, "1/2")
    assert by_name["corollary21-theorem13"].value == users_unreliable(thm13.upper_value, 10**4)


def test_fano_family_without_w_marks_the_w_rows_invalid():
    by_name = {r.name: r for r in fano("1e12", "1/2")}
    for name in ("corollary21-theorem13", "corollary21-theorem14"):
        assert not by_name[name].valid and by_name[name].value is None and "needs w" in by_name[name].note
    assert by_name["theorem7"].valid


def test_fano_family_theorem_14_row_invalid_when_eps_at_least_ln2():
    by_name = {r.name: r for r in fano("1e4", "1", w="5")}
    assert not by_name["corollary21-theorem14"].valid and "ln 2" in by_name["corollary21-theorem14"].note
    assert by_name["corollary21-theorem13"].valid


def test_fano_family_theorem_23_rows_for_many_clusters():
    """Spec §9 E4 through the family: at N = 10, K = 10 the paper's form exceeds the proved threshold."""
    by_name = {r.name: r for r in fano("10", "1", K="10", d="0")}
    assert by_name["theorem23"].valid and not by_name["theorem23-paper"].valid


@given(eps1=st.fractions("1/20", "69/100", max_denominator=100), eps2=st.fractions("1/20", "69/100", max_denominator=100),
       w=st.integers(1, 30))
def test_fano_family_thresholds_decrease_in_eps(eps1, eps2, w):
    """Spec §7 claim 16: every user threshold decreases as eps grows.

    Stays a test: the paper states no monotonicity; this is a sanity property of this package's Fano family (spec
    §7 claim 16).
    """
    if eps1 == eps2:
        return
    small, large = sorted((eps1, eps2))
    for a, b in zip(fano(10**6, small, w=w), fano(10**6, large, w=w)):
        assert a.name == b.name
        if a.value is not None:
            assert sign(a.lower_value - b.upper_value) >= 0


@pytest.mark.parametrize("w", ["1", "1000", "2001", "1e6", "1e12"])
def test_families_at_n_1e12_are_json_serialisable(w):
    """Every row at N = 10^12 (exact, compacted and interval paths) prints as JSON without huge integers."""
    rows = ldp_mutual_information("1e12", w, "1/2") + fano("1e12", "1/2", w=w, K="5", d="1000")
    text = json.dumps([r.as_json() for r in rows])
    assert len(text) < 20_000
    for row in rows:
        if row.value is not None:
            assert row.enclosure is not None and row.enclosure[0] <= row.enclosure[1]


@pytest.mark.parametrize("name", ["ldp-mutual-information", "fano"])
def test_paper_families_evaluate_from_strings(name):
    family = BOUND_FAMILIES[name]
    required = {s.name: "1e4" if s.name == "N" else ("5" if s.name == "w" else "1/2")
                for s in family.parameters if s.required}
    assert family.evaluate(required)  # callable from the registry with the strings a command line passes


INVALID = [
    (lambda: ldp_mutual_information("10", "11", "1"), "w"),
    (lambda: ldp_mutual_information("10", "none", "1"), "w"),
    (lambda: ldp_mutual_information("1", "1", "1"), "N"),
    (lambda: ldp_mutual_information("10", "2", "0"), "eps"),
    (lambda: ldp_mutual_information("10", "2", "-1/2"), "eps"),
    (lambda: ldp_mutual_information("1e2.5", "2", "1"), "N"),
    (lambda: ldp_mutual_information("10", "2", "x"), "eps"),
    (lambda: fano("10", "1", w="11"), "w"),
    (lambda: fano("10", "1", p_max="0"), "p_max"),
    (lambda: fano("10", "1", p_max="1"), "p_max"),
    (lambda: fano("10", "1", K="1"), "K"),
    (lambda: fano("10", "1", d="10"), "d"),
    (lambda: fano("10", "0"), "eps"),
]


@pytest.mark.parametrize("call,parameter", INVALID, ids=[f"{i}-{p}" for i, (_, p) in enumerate(INVALID)])
def test_invalid_arguments(call, parameter):
    assert_rejects(call, parameter)


def test_thresholds_are_lower_ends_of_their_enclosures():
    """A user threshold is a lower bound on a sample complexity: an enclosed one reports its lower end."""
    by_name = {r.name: r for r in fano("1e12", "1/2", w="1e6", K="3", d="5000")}
    for name in ("corollary21-theorem13", "theorem23"):
        result = by_name[name]
        assert result.value == result.lower_value <= result.upper_value
    assert by_name["theorem7"].value == theorem_7_user_threshold(10**12, sympy.Rational(1, 2)).value
    assert theorem_14_bound(10**12, 10**6, "1/2").value == theorem_14_bound(10**12, 10**6, "1/2").upper_value
