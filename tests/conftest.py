"""Shared test configuration: the derandomised hypothesis profile and strategies for exact channels.

The strategies are plain functions so test modules can import them (``from conftest import ...``):
pytest's default "prepend" import mode puts ``tests/`` on ``sys.path`` when it loads this file, before
any test module under ``tests/`` is collected.

Profiles: ``ci`` (the default) is derandomised, so every run draws the same examples; set the
environment variable ``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
from decimal import Decimal
from fractions import Fraction
from types import ModuleType

import networkx as nx
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import dpcert.mechanisms
from dpcert.accountant.exact_intervals import certified_sign

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("explore", deadline=None, print_blob=True, max_examples=300,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def package_modules(package: ModuleType) -> list[ModuleType]:
    """Every module of an installed dpcert package, imported (pkgutil's walk of its folder)."""
    return [importlib.import_module(info.name)
            for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]


def concrete_subclasses(base: type) -> set[type]:
    """Every concrete public subclass of a dpcert.mechanisms base class, once every module is imported."""
    package_modules(dpcert.mechanisms)
    found, stack = set(), [base]
    while stack:
        for cls in stack.pop().__subclasses__():
            stack.append(cls)
            if cls.__module__.startswith("dpcert.") and not inspect.isabstract(cls) and not cls.__name__.startswith("_"):
                found.add(cls)
    return found


# ---------------------------------------------------------------------------------------------
# Exact channels
# ---------------------------------------------------------------------------------------------

@st.composite
def probability_rows(draw, width: int, *, allow_zeros: bool = True, max_weight: int = 30) -> list[Fraction]:
    """One row of ``width`` Fractions >= 0 summing exactly to 1 (at least one entry positive).

    Drawn as integer weights normalised by their sum, so every row sums to 1 exactly by construction.
    """
    low = 0 if allow_zeros else 1
    weights = draw(st.lists(st.integers(low, max_weight), min_size=width, max_size=width)
                   .filter(lambda w: sum(w) > 0))
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


@st.composite
def finite_channels(draw, *, min_inputs: int = 2, max_inputs: int = 5, min_outputs: int = 2, max_outputs: int = 5,
                    allow_zeros: bool | None = None) -> list[list[Fraction]]:
    """A random small exact channel: rows (inputs) of Fractions summing exactly to 1.

    2..5 inputs and 2..5 outputs by default. With ``allow_zeros=None`` (the default) hypothesis
    decides per channel whether entries may be zero; ``False`` forces strictly positive rows.
    """
    n = draw(st.integers(min_inputs, max_inputs))
    m = draw(st.integers(min_outputs, max_outputs))
    zeros = draw(st.booleans()) if allow_zeros is None else allow_zeros
    return [draw(probability_rows(m, allow_zeros=zeros)) for _ in range(n)]


@st.composite
def near_tie_channels(draw) -> list[list[Fraction]]:
    """A strictly positive channel whose rows differ by perturbations of order 10^-25 to 10^-16.

    Every log-ratio is within a few float64 ulps of 0 (or far below one), so float logs tie or are
    ranked in the wrong order by rounding; only exact arithmetic can tell which pair and output is
    the worst, so the checker's float filter must hand these near-ties to exact comparison.
    """
    n = draw(st.integers(2, 4))
    m = draw(st.integers(2, 4))
    base = draw(probability_rows(m, allow_zeros=False))
    tiny = Fraction(1, 10 ** draw(st.sampled_from([25, 18, 17, 16])))
    rows = []
    for _ in range(n):
        shifts = draw(st.lists(st.integers(-5, 5), min_size=m - 1, max_size=m - 1))
        deltas = [s * tiny for s in shifts]
        deltas.append(-sum(deltas, Fraction(0)))  # keep the row sum exactly 1
        rows.append([b + d for b, d in zip(base, deltas)])
    return rows


@st.composite
def edge_relations(draw, n: int) -> tuple[tuple[int, int], ...]:
    """A non-empty set of unordered pairs of distinct inputs 0..n-1."""
    all_pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    chosen = draw(st.lists(st.sampled_from(all_pairs), min_size=1, max_size=len(all_pairs), unique=True))
    return tuple(chosen)


@st.composite
def distance_matrices(draw, n: int) -> list[list[Fraction]]:
    """A symmetric n x n matrix with zero diagonal and positive rational entries off it (small denominators)."""
    matrix = [[Fraction(0)] * n for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            d = Fraction(draw(st.integers(1, 6)), draw(st.integers(1, 3)))
            matrix[a][b] = matrix[b][a] = d
    return matrix


# ---------------------------------------------------------------------------------------------
# Exact eps values
# ---------------------------------------------------------------------------------------------

def rational_eps() -> st.SearchStrategy[Fraction]:
    """eps as a ``fractions.Fraction`` strictly inside (1/20, 5), small denominators (e^eps is irrational)."""
    return (st.fractions(min_value=Fraction(1, 20), max_value=5, max_denominator=40)
            .filter(lambda f: Fraction(1, 20) < f < 5))


def log_ratios() -> st.SearchStrategy[Fraction]:
    """A rational r with log(r) in (1/20, 5), i.e. 1.052 <= r <= 148 (so e^eps = r is rational)."""
    return (st.fractions(min_value=Fraction(21, 20), max_value=148, max_denominator=40)
            .filter(lambda r: Fraction(21, 20) <= r <= 148))


def log_rational_eps() -> st.SearchStrategy[sympy.Expr]:
    """eps = log(r) for a rational r (see :func:`log_ratios`); sympy keeps it as log(r) exactly."""
    return log_ratios().map(lambda r: sympy.log(sympy.Rational(r.numerator, r.denominator)))


def exact_eps() -> st.SearchStrategy[Fraction | sympy.Expr]:
    """Exact eps in (1/20, 5): a Fraction (e^eps irrational) or sympy's log(r) of a rational (e^eps = r).

    Both are what a user may pass as eps; call ``sympy.sympify`` where a sympy number is needed.
    """
    return st.one_of(rational_eps(), log_rational_eps())


# ---------------------------------------------------------------------------------------------
# Plain helpers
# ---------------------------------------------------------------------------------------------

def as_fraction(value: sympy.Expr) -> Fraction:
    """A sympy Rational as a Fraction (fails loudly on anything that is not rational)."""
    value = sympy.sympify(value)
    assert value.is_Rational, f"expected a rational number, got {value}"
    return Fraction(int(value.p), int(value.q))


def exactly_equal(a: object, b: object) -> bool:
    """a == b as real numbers, decided by sympy simplification (a proof when it returns True)."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    return a == b or sympy.simplify(a - b) == 0


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the ``dpcert`` entry point in-process: (exit code, stdout, stderr)."""
    from dpcert.proofs.cli import main

    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def assert_rejects(call, parameter: str) -> None:
    """``call()`` raises InvalidParameterError with a one-line message naming ``parameter``."""
    from dpcert.mechanisms.parameters import InvalidParameterError

    with pytest.raises(InvalidParameterError) as error:
        call()
    message = str(error.value)
    assert parameter in message and "\n" not in message


# ---------------------------------------------------------------------------------------------
# Exact comparisons shared by the information-bound tests (spec §4's printed tables)
# ---------------------------------------------------------------------------------------------

SMALL_SIZES = [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (5, 2), (6, 3)]


def prime_log_form(expr) -> dict[int, sympy.Rational]:
    """A rational combination of logs of rationals as {prime: coefficient}; zero iff the number is 0.

    log(a/b) = sum_p (v_p(a) - v_p(b)) log p, and logs of distinct primes are linearly independent
    over Q, so two such numbers are equal iff their prime forms are equal.
    """
    form: dict[int, sympy.Rational] = {}
    for term in sympy.Add.make_args(sympy.expand(expr)):
        coefficient, logs = term.as_independent(sympy.log)
        assert isinstance(logs, sympy.log) and logs.args[0].is_Rational and coefficient.is_Rational, term
        for prime, power in sympy.factorint(logs.args[0]).items():
            form[prime] = form.get(prime, 0) + coefficient * power
    return {p: c for p, c in form.items() if c != 0}


def max_ratio(rows: list[list[Fraction]]) -> Fraction:
    """The tightest e^eps of a strictly positive channel under local DP: max over columns of max/min."""
    return max(max(col) / min(col) for col in zip(*rows))


def within_printed(lower, upper, printed: str, units: Fraction = Fraction(1, 2)) -> bool:
    """Whether [lower, upper] lies within ``units`` (half) a unit of the last printed digit of ``printed``."""
    reference = Decimal(printed)
    half = Decimal(1).scaleb(reference.as_tuple().exponent) * Decimal(units.numerator) / units.denominator
    ref = sympy.Rational(str(reference))
    tol = sympy.Rational(str(half))
    return certified_sign(lower - (ref - tol)) >= 0 and certified_sign(ref + tol - upper) >= 0


def bound_less(a, b) -> bool:
    """a <= b for two BoundResults, decided rigorously (a's upper end against b's lower end)."""
    return certified_sign(b.lower_value - a.upper_value) >= 0


def write_synthetic_social_data(folder: str | os.PathLike[str], *, n: int = 40, items: int = 30, seed: int = 0) -> str:
    """A small made-up data folder in the real one's layout: ``lastfm/edges.txt`` (a connected random graph on
    n users) and ``lastfm/ratings.txt`` (about 6 weights per user over ``items`` items), plus
    ``douban/edges.txt`` without ratings. Generated for tests, never the paper's data. Returns the folder."""
    rng = np.random.default_rng(seed)
    graph = nx.connected_watts_strogatz_graph(n, 4, 0.3, seed=seed)
    for name, with_ratings in (("lastfm", True), ("douban", False)):
        os.makedirs(os.path.join(folder, name), exist_ok=True)
        with open(os.path.join(folder, name, "edges.txt"), "w") as out:
            out.writelines(f"{u}\t{v}\n" for u, v in graph.edges)
        if with_ratings:
            with open(os.path.join(folder, name, "ratings.txt"), "w") as out:
                for u in range(n):
                    for item in rng.choice(items, size=6, replace=False):
                        out.write(f"{u}\t{100 + item}\t{int(rng.integers(1, 50))}\n")
    return str(folder)
