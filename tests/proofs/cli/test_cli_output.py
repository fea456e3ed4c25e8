"""The command line's output helpers: JSON is strict (RFC 8259: no NaN, no Infinity, whatever a payload holds) and
exact; a table shows numbers for people."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sympy

from dpcert.proofs.cli import main
from dpcert.proofs.cli.output import shown, strict_json


def _strict(text: str) -> object:
    return json.loads(text, parse_constant=lambda constant: pytest.fail(f"not strict JSON: {constant}"))


def test_infinite_floats_become_strings_and_everything_else_is_kept():
    payload = {"upper": math.inf, "lower": -math.inf, "nested": [{"x": np.float64(math.inf)}, (1.5, np.int64(3))],
               "exact": sympy.Rational(1, 3), "flag": True, "none": None}
    assert _strict(strict_json(payload)) == {"upper": "inf", "lower": "-inf", "nested": [{"x": "inf"}, [1.5, 3]],
                                             "exact": "1/3", "flag": True, "none": None}


@pytest.mark.parametrize("bad", [math.nan, np.float32("nan"), [1.0, {"deep": math.nan}]])
def test_nan_is_never_printed(bad):
    with pytest.raises(ValueError, match="NaN"):
        strict_json({"value": bad})


def test_composition_beyond_the_float_range_is_strict_json(capsys):
    # the example: advanced composition at eps = 1000 is e^1000-sized and printed Infinity
    with pytest.raises(SystemExit) as stop:
        main(["bound", "composition", "--param", "eps=1000", "--param", "k=3", "--param", "delta=1e-6", "--json"])
    out = capsys.readouterr().out
    assert stop.value.code in (0, None) and "Infinity" not in out and "NaN" not in out
    advanced = next(r for r in _strict(out)["results"] if r["name"] == "advanced")
    assert advanced["valid"] and advanced["value"].startswith("-3000 + ")  # the exact value is kept


@pytest.mark.parametrize("value, decimals, text", [
    (2.6225190090000297, 2, "2.62"),  # seconds
    (0.42500000000000004, None, "0.425"),
    (np.float64(1 / 3), None, "0.3333"),
    (np.bool_(False), None, "no"),
    (True, None, "yes"),
    (np.int64(40), None, "40"),
    (sympy.Rational(1, 3), None, "1/3"),  # exact numbers stay exact
    ({"N": 40, "U": 200, "eps": "2", "rate": 0.1 + 0.2}, None, "N=40, U=200, eps=2, rate=0.3"),
    ([1.5, 2], None, "1.5, 2"),
])
def test_a_table_shows_values_for_people(value, decimals, text):
    assert shown(value, decimals=decimals) == text
