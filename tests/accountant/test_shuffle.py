"""Shuffle amplification: the family, closed forms, validity conditions and invalid arguments.

Reference values are re-derived here from the formulas printed in the papers (cited per test); the
Imola et al. numbers come from specs/imola_metric_dp_user_level.md (section 3.2), whose author
recomputed them independently.
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy

from dpcert.accountant.shuffle import (
    SHUFFLE_METHODS,
    SHUFFLE_PARAMETERS,
    efmrtt19,
    fmt21_closed,
    fmt21_closed_expression,
    fmt23_closed,
    imola_alpha,
    imola_theorem_4_3,
    imola_theorem_4_3_at_delta,
    imola_theorem_4_4,
    imola_theorem_4_4_alpha,
    shuffle_bound,
    shuffle_family,
)
from dpcert.mechanisms.parameters import InvalidParameterError

R = sympy.Rational
DELTA = R(1, 10**6)


# ---------------------------------------------------------------------------------------------
# The family
# ---------------------------------------------------------------------------------------------

def test_family_returns_every_method_in_order():
    results = shuffle_family(1, 1000, DELTA, k=2)
    assert [r.name for r in results] == list(SHUFFLE_METHODS)
    for r in results:
        assert r.units == "eps"
        assert r.source
        if r.valid:  # a certified upper bound on eps: the upper end of its enclosure
            lo, hi = r.enclosure
            assert r.value is not None and r.upper == hi >= lo >= 0
            assert (r.bounds, r.lower) == ("upper", None) or (r.bounds, r.lower) == ("exact", lo)
        else:
            assert r.value is None and r.note


def test_family_one_method_and_parameter_table():
    (only,) = shuffle_family(1, 1000, DELTA, method="fmt21-closed")
    assert only.name == "fmt21-closed"
    assert shuffle_bound("fmt21-closed", 1, 1000, DELTA).value == only.value
    names = [p[0] for p in SHUFFLE_PARAMETERS]
    assert names[:3] == ["eps0", "n", "delta"] and "method" in names and "k" in names
    assert all(len(p) == 3 and isinstance(p[1], str) for p in SHUFFLE_PARAMETERS)


def test_generic_randomizer_gets_no_stronger_clones_without_opt_in():
    by_name = {r.name: r for r in shuffle_family(2, 10**5, DELTA)}
    for name in ("fmt23-closed", "fmt23-numeric"):
        assert not by_name[name].valid
        assert "erratum" in by_name[name].note
    opted = {r.name: r for r in shuffle_family(2, 10**5, DELTA, assume_stronger_clones=True)}
    for name in ("fmt23-closed", "fmt23-numeric"):
        assert opted[name].valid
        assert "assume_stronger_clones=True" in opted[name].note


def test_several_changed_items_only_imola_and_composition_apply():
    by_name = {r.name: r for r in shuffle_family(R(1, 2), 10**5, DELTA, l0=3, l1=2)}
    assert by_name["imola-thm4.3"].valid
    assert by_name["no-amplification"].value == 1  # eps0 * ||v||_1 = 1/2 * 2
    for name in ("efmrtt19", "fmt21-closed", "fmt21-numeric", "blanket-hoeffding", "exact"):
        assert not by_name[name].valid and "imola-thm4.3" in by_name[name].note


def test_exact_row_is_invalid_above_its_size_limit():
    (exact,) = shuffle_family(1, 10**5, DELTA, method="exact")
    assert not exact.valid and "too large" in exact.note


# ---------------------------------------------------------------------------------------------
# Closed forms: values and validity conditions
# ---------------------------------------------------------------------------------------------

def test_efmrtt19_formula_and_conditions():
    # Erlingsson et al. (SODA 2019): 12 eps0 sqrt(ln(1/delta)/n), eps0 <= 1/2, n >= 1000, delta <= 1/100
    result = efmrtt19(R(1, 2), 10**4, DELTA)
    assert result.valid
    assert sympy.simplify(result.value - 6 * sympy.sqrt(sympy.log(10**6) / 10**4)) == 0
    assert math.isclose(result.upper, 12 * 0.5 * math.sqrt(math.log(1e6) / 1e4), rel_tol=1e-14)
    for args, word in [((R(51, 100), 10**4, DELTA), "eps0"), ((R(1, 2), 999, DELTA), "n = 999"),
                       ((R(1, 2), 10**4, R(2, 100)), "delta")]:
        bad = efmrtt19(*args)
        assert not bad.valid and word in bad.note


def test_fmt21_closed_matches_theorem_3_1_and_its_condition():
    # FMT 2021, Theorem 3.1, evaluated independently with mpmath at 50 digits
    mpmath.mp.dps = 50
    e = mpmath.e
    ref = mpmath.log(1 + (e - 1) / (e + 1) * (8 * mpmath.sqrt(e * mpmath.log(4e6) / 10**6) + 8 * e / 10**6))
    result = fmt21_closed(1, 10**6, DELTA)
    assert result.valid and abs(result.upper - float(ref)) <= 1e-15
    assert result.upper >= float(ref)  # rounded up
    # the condition eps0 <= ln(n / (16 ln(2/delta))), decided exactly at the boundary
    n = 10**4
    limit = sympy.log(sympy.Integer(n) / (16 * sympy.log(2 / DELTA)))
    assert fmt21_closed(limit, n, DELTA).valid
    above = fmt21_closed(limit + R(1, 10**30), n, DELTA)
    assert not above.valid and "ln(n/(16 ln(2/delta)))" in above.note


def test_fmt23_closed_formula_and_condition():
    # r = 1/(e^eps0 + 1); valid when n > 8 ln(4/delta)/r
    eps0, n = sympy.Integer(1), 10**5
    r = 1 / (sympy.E + 1)
    expected = sympy.log(1 + (sympy.E - 1) / (sympy.E + 1) * (sympy.sqrt(32 * sympy.log(4 / DELTA) / (r * (n - 1)))
                                                               + 4 / (r * (n - 1))))
    result = fmt23_closed(eps0, n, DELTA, k=2)
    assert result.valid and sympy.simplify(result.value - expected) == 0
    small = fmt23_closed(eps0, 100, DELTA, k=2)
    assert not small.valid and "n > 8 ln(4/delta)" in small.note


def test_imola_reduces_to_fmt21_symbolically():
    """Imola et al. Theorem 4.3 with ||v||_0 = ||v||_1 = 1 (discrete metric) is FMT 2021 Theorem 3.1."""
    a, m, d = sympy.symbols("alpha0 m delta", positive=True)
    difference = imola_alpha(a, m, d, sympy.Integer(1), sympy.Integer(1)) - fmt21_closed_expression(a, m, d)
    assert sympy.simplify(difference) == 0
    # and numerically through the public functions at one point (values, not just expressions)
    assert imola_theorem_4_3(1, 10**6, DELTA).value == fmt21_closed(1, 10**6, DELTA).value


def test_imola_theorem_4_3_condition_and_output_delta():
    bad = imola_theorem_4_3(3, 1000, DELTA)
    assert not bad.valid and "alpha0 < ln(m/(16 ln(4m/delta)))" in bad.note
    at = imola_theorem_4_3_at_delta(1, 10**6, DELTA)
    assert at.valid and "checked exactly" in at.note
    # the internal delta is smaller than delta, so alpha is a little larger than at delta itself
    assert at.upper > imola_theorem_4_3(1, 10**6, DELTA).upper
    with pytest.raises(InvalidParameterError, match="l1"):
        imola_theorem_4_3(1, 10**6, DELTA, l0=2, l1=3)


def test_imola_many_items_is_concave_jensen_bound():
    """sum_i f(d_i) <= l0 f(mean d_i) (Theorem 4.3's Jensen step): the l0, l1 form dominates the sum."""
    alpha0, m, delta = R(1, 2), 10**6, DELTA
    distances = [R(1, 10), R(1, 2), R(9, 10)]
    per_item = [imola_theorem_4_3(alpha0, m, delta / 3, l1=d).upper for d in distances]  # delta/||v||_0 each
    joint = imola_theorem_4_3(alpha0, m, delta, l0=3, l1=sum(distances)).upper
    assert sum(per_item) <= joint * (1 + 1e-12)


def test_imola_theorem_4_4_closed_form_is_the_supremum():
    """sup_w h(M; m, m w)/w equals the closed form (spec T14); checked on a fine grid of w with mpmath."""
    mpmath.mp.dps = 30
    alpha0, m, delta, M = R(27, 10), 1000, R(1, 10**12), 10**8
    closed = float(imola_theorem_4_4_alpha(alpha0, sympy.Integer(m), delta, sympy.Integer(M)))
    a0 = mpmath.mpf(27) / 10
    K = 8 * mpmath.sqrt(mpmath.e ** a0 * mpmath.log(4 * m / mpmath.mpf(delta))) / mpmath.sqrt(M) + 8 * mpmath.e ** a0 / M
    ratios = [m * mpmath.log(1 + mpmath.tanh(a0 * w / 2) * K) / w for w in (mpmath.mpf(10) ** -j for j in range(1, 12))]
    assert all(r <= closed * (1 + 1e-12) for r in ratios)
    assert abs(float(ratios[-1]) - closed) <= 1e-6 * closed


def test_imola_theorem_4_4_concrete_example():
    """Spec section 3.2: alpha0 = 2.701, m = 1e3, n = 1e5, delta = 1e-12 gives alpha ~ 25, delta' ~ 9.4e-6."""
    result = imola_theorem_4_4(R(2701, 1000), 1000, R(1, 10**12), n=10**5)
    assert result.valid
    assert abs(float(result.alpha) - 25) < 0.05
    assert 9.0e-6 < float(result.delta_out) < 9.8e-6


# ---------------------------------------------------------------------------------------------
# Invalid arguments: one table, each naming its parameter
# ---------------------------------------------------------------------------------------------

INVALID = [
    pytest.param(lambda: shuffle_family(1, 1, DELTA), "n", id="n-one"),
    pytest.param(lambda: shuffle_family(1, "ten", DELTA), "n", id="n-text"),
    pytest.param(lambda: shuffle_family(1, 2.5, DELTA), "n", id="n-float"),
    pytest.param(lambda: shuffle_family(0, 100, DELTA), "eps0", id="eps0-zero"),
    pytest.param(lambda: shuffle_family(-1, 100, DELTA), "eps0", id="eps0-negative"),
    pytest.param(lambda: shuffle_family(float("nan"), 100, DELTA), "eps0", id="eps0-nan"),
    pytest.param(lambda: shuffle_family(1, 100, 0), "delta", id="delta-zero"),
    pytest.param(lambda: shuffle_family(1, 100, 1), "delta", id="delta-one"),
    pytest.param(lambda: shuffle_family(1, 100, R(3, 2)), "delta", id="delta-above-one"),
    pytest.param(lambda: shuffle_family(1, 100, -DELTA), "delta", id="delta-negative"),
    pytest.param(lambda: shuffle_family(1, 100, DELTA, k=1), "k", id="k-one"),
    pytest.param(lambda: shuffle_family(1, 100, DELTA, method="fmt99"), "method", id="method-unknown"),
    pytest.param(lambda: shuffle_family(1, 100, DELTA, l0=0), "l0", id="l0-zero"),
    pytest.param(lambda: shuffle_family(1, 100, DELTA, l0=101), "l0", id="l0-above-n"),
    pytest.param(lambda: shuffle_family(1, 100, DELTA, l0=2, l1=3), "l1", id="l1-above-l0"),
    pytest.param(lambda: imola_theorem_4_4(0, 10, DELTA), "alpha0", id="thm44-alpha0"),
    pytest.param(lambda: imola_theorem_4_4(1, 10, 2), "delta", id="thm44-delta"),
]


@pytest.mark.parametrize("function, parameter", INVALID)
def test_invalid_arguments_name_the_parameter(function, parameter):
    with pytest.raises(InvalidParameterError) as info:
        function()
    message = str(info.value)
    assert message.startswith(parameter) or f" {parameter}" in message or f"{parameter} " in message
    assert "\n" not in message


@pytest.mark.parametrize(("eps0", "n", "delta", "delta0"), [
    (1, 10**4, "1e-6", "1e-12"), ("1/10", 100, "1/2", "1/1000"), (2, 10**6, "1e-9", "1e-20"),
])
def test_fmt21_approx_spends_at_most_delta(eps0, n, delta, delta0):
    """FMT 2021 Theorem 3.8 as stated in the module: the reported eps is Theorem 3.1's at some delta' (recovered
    here by inverting Theorem 3.1's formula at 50 digits) with eps0 <= ln(n/(16 ln(4/delta'))) and
    delta' + (e^eps + 1)(1 + e^-eps0/2) n delta0 <= delta."""
    row = shuffle_bound("fmt21-approx", eps0, n, delta, delta0=delta0)
    assert row.valid
    with mpmath.workdps(50):
        e0, eps = mpmath.mpf(sympy.Rational(eps0)), mpmath.mpf(str(sympy.N(row.value, 45)))
        big_e, a = mpmath.exp(e0), (mpmath.exp(e0) - 1) / (mpmath.exp(e0) + 1)
        root = (mpmath.expm1(eps) / a - 8 * big_e / n) / 8  # = sqrt(E ln(4/delta') / n)
        inner = 4 * mpmath.exp(-root ** 2 * n / big_e)
        spent = inner + (mpmath.exp(eps) + 1) * (1 + mpmath.exp(-e0) / 2) * n * mpmath.mpf(sympy.Rational(delta0))
        assert spent <= mpmath.mpf(sympy.Rational(delta)) * (1 + mpmath.mpf(10) ** -40)
        assert e0 <= mpmath.log(n / (16 * mpmath.log(4 / inner)))


def test_fmt21_approx_is_looser_than_theorem_3_1_and_falls_with_delta0():
    """Spending part of delta on the randomizers' delta0 leaves less for Theorem 3.1 (a larger eps)."""
    pure = shuffle_bound("fmt21-closed", 1, 10**4, "1e-6").upper
    approx = [shuffle_bound("fmt21-approx", 1, 10**4, "1e-6", delta0=d).upper for d in ("1e-14", "1e-12", "2e-11")]
    assert pure < approx[0] < approx[1] < approx[2]


@pytest.mark.parametrize("delta0", ["0", "-1e-12", "1e-10", "1e-9", "x"])
def test_fmt21_approx_delta0_outside_zero_to_delta_over_n_is_invalid_parameter(delta0):
    with pytest.raises(InvalidParameterError, match=r"^delta0"):
        shuffle_family(1, 10**4, "1e-6", delta0=delta0)


def test_with_delta0_only_the_approximate_rows_are_valid():
    rows = {r.name: r for r in shuffle_family(1, 10**4, "1e-6", delta0="1e-12")}
    assert {name for name, r in rows.items() if r.valid} == {"fmt21-approx", "no-amplification"}
    assert "delta0" in rows["no-amplification"].note and "use fmt21-approx" in rows["fmt21-numeric"].note
    assert not shuffle_bound("fmt21-approx", 1, 10**4, "1e-6").valid  # no delta0: not applicable


@pytest.mark.parametrize(("typed", "assumed"), [("false", False), ("no", False), ("0", False), (False, False),
                                                ("true", True), ("TRUE", True), (True, True)])
def test_assume_stronger_clones_reads_false_as_false(typed, assumed):
    """Typed on the command line the flag arrives as a string, and "false" once read as true (any non-empty string
    is), making fmt23-numeric valid for any eps0-LDP randomizer without the user's consent."""
    row = shuffle_bound("fmt23-numeric", 1, 1000, "1e-6", assume_stronger_clones=typed)
    assert row.valid is assumed


@pytest.mark.parametrize(("name", "value"), [("assume_stronger_clones", "maybe"), ("lower_end", "2"),
                                             ("lower_end", None)])
def test_flags_reject_what_is_neither_true_nor_false(name, value):
    with pytest.raises(InvalidParameterError, match=f"{name} must be true or false"):
        shuffle_bound("optimal", 1, 1000, "1e-6", k=10, **{name: value})
