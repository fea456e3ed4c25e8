"""The shuffle bounds' answerable range: decided in validate_shuffle_inputs, answered in seconds at its corners.

Outside the range every public function raises InvalidParameterError whose one-line message names the
parameter and the range (issue 9: delta = 1e-400 was a ZeroDivisionError, eps0 = 1e-400 a ComplexResult,
eps0 = 1e-20 and n = 1e12 hung). Inside it, at every corner, every method returns a result within a time
limit: a value, or valid=False with the range it applies on in its note (the clone sums beyond n = 10^10).
"""

from __future__ import annotations

import time
from itertools import product

import pytest
import sympy

from dpcert.accountant.shuffle_blanket import blanket_bennett, blanket_delta, blanket_hoeffding
from dpcert.accountant.shuffle_closed_forms import (
    efmrtt19,
    fmt21_closed,
    fmt23_closed,
    imola_theorem_4_3,
    imola_theorem_4_3_at_delta,
    imola_theorem_4_4,
)
from dpcert.accountant.shuffle_common import validate_shuffle_inputs
from dpcert.accountant.shuffle_numeric import clone_delta, clone_sum_limit, fmt21_numeric, fmt23_numeric
from dpcert.mechanisms.parameters import InvalidParameterError

OUTSIDE = [
    pytest.param(lambda: validate_shuffle_inputs("1e-13", 100, "1e-6"), "eps0", "[10^-12, 700]", id="eps0-tiny"),
    pytest.param(lambda: validate_shuffle_inputs("1e-400", 100, "1e-6"), "eps0", "[10^-12, 700]", id="eps0-1e-400"),
    pytest.param(lambda: validate_shuffle_inputs(701, 100, "1e-6"), "eps0", "[10^-12, 700]", id="eps0-701"),
    pytest.param(lambda: validate_shuffle_inputs(0, 100, "1e-6"), "eps0", "[10^-12, 700]", id="eps0-zero"),
    pytest.param(lambda: validate_shuffle_inputs(1, 1, "1e-6"), "n", "[2, 10^30]", id="n-one"),
    pytest.param(lambda: validate_shuffle_inputs(1, 10**30 + 1, "1e-6"), "n", "[2, 10^30]", id="n-above"),
    pytest.param(lambda: validate_shuffle_inputs(1, "1e4000", "1e-6"), "n", "[2, 10^30]", id="n-1e4000"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-101"), "delta", "[10^-100, 1)", id="delta-tiny"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-400"), "delta", "[10^-100, 1)", id="delta-1e-400"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, 1), "delta", "[10^-100, 1)", id="delta-one"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-6", k=1), "k", "[2, 10^6]", id="k-one"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-6", k=10**6 + 1), "k", "[2, 10^6]", id="k-above"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-6", l0=101), "l0", "[1, 100]", id="l0-above-n"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-6", l0=2, l1="1e-13"), "l1", "[10^-12, 2]", id="l1-tiny"),
    pytest.param(lambda: validate_shuffle_inputs(1, 100, "1e-6", l0=2, l1=3), "l1", "[10^-12, 2]", id="l1-above"),
    pytest.param(lambda: imola_theorem_4_3("1e-400", 1000, "1e-6", l0=2, l1=1), "alpha0", "[10^-12, 700]",
                 id="imola-alpha0"),
    pytest.param(lambda: imola_theorem_4_3_at_delta(1, 10**31, "1e-6"), "m", "[2, 10^30]", id="imola-m"),
    pytest.param(lambda: imola_theorem_4_4(1, 10, "1e-300"), "delta", "[10^-100, 1)", id="thm44-delta"),
    pytest.param(lambda: fmt21_numeric("1e-20", 1000, "1e-6"), "eps0", "[10^-12, 700]", id="numeric-eps0"),
    pytest.param(lambda: blanket_bennett(1, 1000, "1e-400"), "delta", "[10^-100, 1)", id="blanket-delta"),
    pytest.param(lambda: blanket_delta("0.1", 1000, 1000), "eps0", "[10^-12, 700]", id="blanket-delta-eps0"),
    pytest.param(lambda: clone_delta("0.1", 1, 10**12), "n", "10^10", id="clone-delta-n"),
]


@pytest.mark.parametrize("call, parameter, allowed", OUTSIDE)
def test_outside_the_range_names_the_parameter_and_the_range(call, parameter, allowed):
    with pytest.raises(InvalidParameterError) as info:
        call()
    message = str(info.value)
    assert message.startswith(parameter) and allowed in message and "\n" not in message, message


def test_the_range_ends_are_accepted():
    x = validate_shuffle_inputs("1e-12", 10**30, "1e-100", k=10**6, l0=10**30, l1="1e-12")
    assert (x.eps0, x.n, x.delta, x.k, x.l0, x.l1) == (sympy.Rational(1, 10**12), 10**30, sympy.Rational(1, 10**100),
                                                     10**6, 10**30, sympy.Rational(1, 10**12))
    assert validate_shuffle_inputs(700, 2, "0.999999").eps0 == 700
    assert validate_shuffle_inputs(1, 5, "0.1").l1 == 1  # l1 defaults to l0


METHODS = {
    "efmrtt19": lambda e, n, d, k: efmrtt19(e, n, d),
    "fmt21-closed": lambda e, n, d, k: fmt21_closed(e, n, d),
    "fmt23-closed": lambda e, n, d, k: fmt23_closed(e, n, d, k=k, assume_stronger_clones=True),
    "fmt21-numeric": lambda e, n, d, k: fmt21_numeric(e, n, d),
    "fmt23-numeric": lambda e, n, d, k: fmt23_numeric(e, n, d, k=k, assume_stronger_clones=True),
    "blanket-hoeffding": lambda e, n, d, k: blanket_hoeffding(e, n, d, k=k),
    "blanket-bennett": lambda e, n, d, k: blanket_bennett(e, n, d, k=k),
    "imola-thm4.3": lambda e, n, d, k: imola_theorem_4_3_at_delta(e, n, d, l0=n, l1="1e-12"),
}
CORNERS = list(product(["1e-12", "700"], [2, 10**10, 10**30], ["1e-100", "0.999999"], [None, 10**6]))


@pytest.mark.parametrize("eps0, n, delta, k", CORNERS)
def test_every_method_answers_at_the_corners_within_seconds(eps0, n, delta, k):
    """A value with an upper end, or valid=False and the reason; never an exception, never more than 10 s
    (about 1 s on one core: the clone sums at n = 10^10 dominate)."""
    for name, compute in METHODS.items():
        start = time.perf_counter()
        result = compute(eps0, n, delta, k)
        assert time.perf_counter() - start < 10, (name, eps0, n, delta, k)
        if result.valid:
            assert result.upper is not None and 0 <= result.upper < float("inf"), (name, result)
        else:
            assert result.note, name


def test_clone_sums_beyond_their_range_name_it():
    """n = 10^30 with eps0 = 1: invalid with the clone sums' own range and the closed form to use; within
    the range clone_sum_limit says nothing."""
    result = fmt21_numeric(1, 10**30, "1e-6")
    assert not result.valid and "[2, 10^10]" in result.note and "fmt21-closed" in result.note
    assert clone_sum_limit(1, 10**30, "1e-6") == result.note
    assert clone_sum_limit(1, 10**6, "1e-6", variant="fmt23") is None
