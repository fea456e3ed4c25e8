"""The blanket variables of the named randomizers and of compositions (accountant/blanket_variables.py) against
independent truth.

References: the catalogue's pmfs (unary encoding, k-RR, Hadamard response) taken through the pmf path, whose
kinds come from the tabulated output laws, not from the closed forms; binary local hashing's pmf tabulated here
from its definition (Bassily and Smith, STOC 2015: h uniform over all functions, then binary randomized
response); the brute-force shuffled law of small randomizers in Fractions (tests/oracles/shuffle.py); the Laplace
mechanism's exact hockey-stick divergence, delta(eps) = 1 - e^((eps - eps0)/2) for sensitivity 1 (Balle and Wang,
ICML 2018, Section 3, for the Laplace analogue of their Gaussian analysis), which the blanket mean at n = 1 is.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
import sympy

from dpcert.accountant.blanket_variables import (
    blh_fixed_others,
    blh_variable,
    fixed_others_variables,
    joint_variable,
    krr_variable,
    laplace_fixed_others,
    laplace_variable,
    randomizer_rows,
    randomizer_variables,
    rows_variables,
    unary_fixed_others,
    unary_variable,
)
from dpcert.accountant.shuffle import shuffle_bound, shuffle_family
from dpcert.accountant.shuffle_optimal import blanket_delta_lower, blanket_delta_upper
from dpcert.mechanisms.parameters import InvalidParameterError
from oracles import shuffle as shuffle_oracle

EPS = Fraction(1, 10)


def _bound(variable, n: int = 300) -> float:
    return blanket_delta_upper(variable, EPS, n, 1e-6)


@pytest.mark.parametrize(("named", "catalogue"), [
    ("oue:k=5", "unary-encoding:k=5,variant=oue,eps={e}"),
    ("rappor:D=4", "unary-encoding:k=4,variant=sue,eps={e}"),
    ("k-rr:k=6", "k-rr:k=6,eps={e}"),
    ("hadamard:k=8", "hadamard-response:k=8,eps={e}"),
])
@pytest.mark.parametrize("eps0", [sympy.Rational(1, 2), sympy.Integer(2)])
def test_named_randomizers_match_their_pmf(named, catalogue, eps0):
    """The closed-form kinds give the same blanket mean as the catalogue's tabulated pmf (to 10^-9)."""
    (by_name,) = randomizer_variables(named, eps0).variables
    _, rows = randomizer_rows(catalogue.format(e=f"({eps0})"), eps0)
    (by_rows,) = rows_variables(rows)
    assert _bound(by_name) == pytest.approx(_bound(by_rows), rel=1e-9)


def _blh_rows(domain: int, e: Fraction) -> tuple[tuple[Fraction, ...], ...]:
    """Binary local hashing's pmf from its definition: every h in {0,1}^D, output (h, b)."""
    functions = list(itertools.product((0, 1), repeat=domain))
    kept, flipped = e / (e + 1) / len(functions), 1 / (e + 1) / len(functions)
    return tuple(tuple(kept if b == h[x] else flipped for h in functions for b in (0, 1)) for x in range(domain))


def test_binary_local_hashing_matches_its_tabulated_pmf():
    eps0 = sympy.log(3)
    (by_rows,) = rows_variables(_blh_rows(4, Fraction(3)))
    assert _bound(blh_variable(eps0, 4)) == pytest.approx(_bound(by_rows), rel=1e-9)


@pytest.mark.parametrize(("spec", "eps0", "rows"), [
    ("blh:D=2", sympy.log(3), _blh_rows(2, Fraction(3))),
    # OUE at e^eps0 = 3: the value's bit 1 with probability 1/2, the others with 1/4
    ("oue:k=3", sympy.log(3), tuple(tuple(math.prod(Fraction(1, 2) if j == x else Fraction(1 + 2 * (1 - bit), 4)
                                                    for j, bit in enumerate(y))
                                          for y in itertools.product((0, 1), repeat=3)) for x in range(3))),
    # RAPPOR at e^(eps0/2) = 2: each bit kept with probability 2/3
    ("rappor:D=3", sympy.log(4), tuple(tuple(math.prod(Fraction(2, 3) if bit == (j == x) else Fraction(1, 3)
                                                       for j, bit in enumerate(y))
                                             for y in itertools.product((0, 1), repeat=3)) for x in range(3))),
])
def test_named_randomizers_are_never_below_the_brute_force_truth(spec, eps0, rows):
    """n = 3 users, every dataset and neighbour enumerated in Fractions (tests/oracles/shuffle.py)."""
    assert all(sum(row) == 1 for row in rows)
    low, _ = shuffle_oracle.log_enclosure(shuffle_oracle.shuffled_worst_s(rows, 3, Fraction(1, 20)))
    row = shuffle_bound("optimal", eps0, 3, sympy.Rational(1, 20), randomizer=spec)
    assert row.valid and row.upper >= float(low)


@pytest.mark.parametrize("eps0", [sympy.Rational(1, 2), sympy.Integer(1), sympy.Integer(3)])
@pytest.mark.parametrize("eps", [Fraction(0), Fraction(1, 4)])
def test_laplace_at_one_user_is_the_laplace_hockey_stick(eps0, eps):
    """At n = 1 the blanket mean is E[G_+] = the hockey-stick divergence itself, 1 - e^((eps - eps0)/2): the
    certified value is above it and within the cells' rounding (measured 6e-3 relative at 512 cells)."""
    exact = 1 - math.exp((float(eps) - float(eps0)) / 2)
    bound = blanket_delta_upper(laplace_variable(eps0), eps, 1, 1e-9)
    assert exact * (1 - 1e-12) <= bound <= exact * 1.02


@pytest.mark.parametrize("eps0", [sympy.Rational(1, 2), sympy.Integer(1), sympy.Integer(4)])
@pytest.mark.parametrize("eps", [Fraction(0), Fraction(1, 4)])
def test_laplace_lower_end_at_one_user_is_below_the_laplace_hockey_stick(eps0, eps):
    """At n = 1 the fixed pair's mean is the hockey-stick divergence of Laplace(0, 1/eps0) from Laplace(1, 1/eps0),
    1 - e^((eps - eps0)/2): the lower end is below it and within the cells' conditional means (measured 3e-3
    relative at eps0 = 4, 512 cells)."""
    exact = 1 - math.exp((float(eps) - float(eps0)) / 2)
    (variable,) = laplace_fixed_others(eps0)
    bound = blanket_delta_lower(variable, eps, 1, 1e-9)
    assert exact * 0.99 <= bound <= exact * (1 + 1e-12)


def test_laplace_masses_and_mean_enclose_the_exact_ones():
    """The kinds' rho-masses and the 0 atom sum to 1, and E[G] = 1 - e^eps, within their enclosures."""
    variable = laplace_variable(sympy.Integer(1))
    atoms = variable.atoms(EPS)
    mass = (sum(a.mass[0] for a in atoms), sum(a.mass[1] for a in atoms))
    assert mass[0] <= 1 <= mass[1]
    mean_hi = sum(a.value[1] * (a.mass[1] if a.value[1] > 0 else a.mass[0]) for a in atoms)
    assert mean_hi >= 1 - math.exp(float(EPS))


def test_a_mixture_of_one_randomizer_is_that_randomizer():
    (alone,) = randomizer_variables("k-rr:k=5", sympy.Integer(1)).variables
    (mixed,) = randomizer_variables("k-rr:k=5|k-rr:k=5", sympy.Integer(1)).variables
    assert _bound(mixed) == pytest.approx(_bound(alone), rel=1e-9)


def test_parallel_and_joint_composition_match_the_pmf_of_the_composition():
    """Named parts composed from their variables against catalogue parts composed from the tabulated pmf: the
    mixture is exact; for k-RR (k >= 3) the product of the blankets is the product's own blanket (a z outside
    {y1, y2} attains both minima), so joint composition agrees too. Joint parts run at eps0/2 each."""
    eps0 = sympy.Integer(1)
    (named,) = randomizer_variables("k-rr:k=4|hadamard:k=4", eps0).variables
    _, rows = randomizer_rows("k-rr:k=4,eps=1|hadamard-response:k=4,eps=1", eps0)
    assert _bound(named) == pytest.approx(max(_bound(v) for v in rows_variables(rows)), rel=1e-9)
    (named,) = randomizer_variables("k-rr:k=4&k-rr:k=4", eps0).variables
    _, rows = randomizer_rows("k-rr:k=4,eps=1/2&k-rr:k=4,eps=1/2", eps0)
    assert _bound(named) == pytest.approx(max(_bound(v) for v in rows_variables(rows)), rel=1e-9)


def test_the_product_blanket_is_valid_but_looser_for_binary_randomized_response():
    """Binary RR's product blanket is smaller than the product's own (for y1 != y2 every z gives e^eps0 / Z^2):
    the joint variable's mean is then larger than the exact one, never smaller."""
    eps0 = sympy.Rational(1, 2)
    product = joint_variable(krr_variable(eps0, 2), krr_variable(eps0, 2))
    _, rows = randomizer_rows("randomized-response:eps=1/2&randomized-response:eps=1/2", 2 * eps0)
    exact = max(_bound(v) for v in rows_variables(rows))
    assert _bound(product) > exact


def test_unary_encoding_keeps_a_mass_below_the_floats():
    """k = 10^6: the all-ones output's mass (1/(e + 1))^(10^6) underflows floats; its enclosure stays positive."""
    variable = unary_variable(sympy.Integer(1), 10**6, symmetric=False)
    assert all(lo > 0 for lo, _ in variable.rho)
    assert shuffle_bound("optimal", 1, 1000, sympy.Rational(1, 10**6), randomizer="oue:k=1000000").valid


@pytest.mark.parametrize(("spec", "message"), [
    ("oue:k=1", "k must be an integer in [2,"),
    ("blh", "blh takes D=..."),
    ("laplace:b=1", "laplace takes no parameters"),
    ("rappor:D=4*2", "no repeat count"),
    ("k-rr:k=3&oue:k=4", "must take the same inputs"),
    ("oue:k=3&geometric:eps=1/4,hi=2", "input pairs are all alike"),
    ("k-rr:k=3&k-rr:k=3|k-rr:k=3", "not both"),
])
def test_bad_named_randomizer_is_invalid_parameter(spec, message):
    with pytest.raises(InvalidParameterError, match=message.replace("[", r"\[").replace("*", r"\*")):
        shuffle_family(1, 100, sympy.Rational(1, 10**6), method="optimal", randomizer=spec)



def _unary_rows(k: int, a: sympy.Expr, b: sympy.Expr) -> list[list[sympy.Expr]]:
    return [[math.prod((a if y[j] else 1 - a) if j == x else (b if y[j] else 1 - b) for j in range(k))
             for y in itertools.product((0, 1), repeat=k)] for x in range(k)]


@pytest.mark.parametrize(("named", "rows"), [
    (unary_fixed_others(sympy.log(3), 4, symmetric=False), _unary_rows(4, sympy.Rational(1, 2), sympy.Rational(1, 4))),
    (unary_fixed_others(sympy.log(4), 4, symmetric=True), _unary_rows(4, sympy.Rational(2, 3), sympy.Rational(1, 3))),
    (blh_fixed_others(sympy.log(3), 3), [[sympy.Rational(v.numerator, v.denominator) for v in row]
                                         for row in _blh_rows(3, Fraction(3))]),
])
def test_named_fixed_others_match_their_tabulated_pmf(named, rows):
    """The closed-form pairs of datasets of OUE, RAPPOR and BLH (others holding x', then a third value) give the
    same lower mean as the pairs built from the tabulated pmf (to 10^-9)."""
    for by_name, by_rows in zip(named, fixed_others_variables(rows), strict=True):
        for eps in (Fraction(1, 10), Fraction(1, 2)):
            assert blanket_delta_lower(by_name, eps, 50, 1e-6) == pytest.approx(
                blanket_delta_lower(by_rows, eps, 50, 1e-6), rel=1e-9)


@pytest.mark.parametrize(("named", "catalogue"), [
    ("k-rr:k=3&k-rr:k=3", "k-rr:k=3,eps=(1/2)&k-rr:k=3,eps=(1/2)"),
    ("k-rr:k=3|oue:k=3", "k-rr:k=3,eps=1|unary-encoding:k=3,variant=oue,eps=1"),
    ("rappor:D=3&oue:k=3", "unary-encoding:k=3,variant=sue,eps=(1/2)&unary-encoding:k=3,variant=oue,eps=(1/2)"),
])
def test_composed_named_fixed_pairs_match_the_pmf_of_the_composition(named, catalogue):
    """The lower end's pairs of datasets of a composition of named randomizers (their closed-form pairs combined
    variant by variant) against those built from the composition's tabulated pmf (to 10^-9)."""
    eps0 = sympy.Integer(1)
    by_name = randomizer_variables(named, eps0).fixed
    by_rows = randomizer_variables(catalogue, eps0).fixed
    assert len(by_name) == len(by_rows) == 2
    for a, b in zip(by_name, by_rows):
        for eps in (Fraction(1, 10), Fraction(1, 2)):
            assert blanket_delta_lower(a, eps, 50, 1e-6) == pytest.approx(blanket_delta_lower(b, eps, 50, 1e-6),
                                                                          rel=1e-9)


def test_a_composition_with_hadamard_has_no_lower_end():
    """Hadamard response's pair of datasets is the tabulated pmf's largest ratio, not the aligned (0, 1): a
    composition with it offers no lower end rather than pairing datasets that do not exist."""
    assert randomizer_variables("k-rr:k=4|hadamard:k=4", sympy.Integer(1)).fixed == ()
