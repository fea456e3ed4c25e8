"""``dpcert simulate``: every parameter's answerable range, its ends, and the joint time budgets.

Values beyond a range (1e308 once reached numpy and gave tracebacks; iterations_per_node = 1000 on
douban took 197 s) must give one line naming the parameter and exit 2; values at the ends answer.
"""

from __future__ import annotations

import json
import time

import pytest

from dpcert.proofs.cli import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    captured = capsys.readouterr()
    return stop.value.code, captured.out, captured.err


def _params(**values):
    return [item for name, value in values.items() for item in ("--param", f"{name}={value}")]


_RECOMMENDER = {"N": "20", "U": "200", "w": "2", "eps": "2"}
_PREC = {"m": "2", "T": "20", "P": "4", "others": "20", "runs": "4"}

REJECTED = [
    ("maxsense", {**_RECOMMENDER, "N": "1e308"}, "N must be an integer in [2, 10^7]"),
    ("maxsense", {**_RECOMMENDER, "N": "1e7+1"}, "N must be an integer in [2, 10^7]"),
    ("pairwise-preference", {**_RECOMMENDER, "N": "4001"}, "N must be an integer in [2, 4000]"),
    ("maxsense", {**_RECOMMENDER, "U": "1e7+1"}, "U must be an integer in [1, 10^7]"),
    ("maxsense", {**_RECOMMENDER, "U": "0"}, "U must be"),
    ("maxsense", {**_RECOMMENDER, "w": "21"}, "w must be an integer in [1, N = 20]"),
    ("maxsense", {**_RECOMMENDER, "eps": "1e5"}, "eps must be in"),
    ("maxsense", {**_RECOMMENDER, "eps": "exp(-exp(10))"}, "eps must be in"),
    ("maxsense", {**_RECOMMENDER, "theta": "1e-10"}, "theta must be in"),
    ("maxsense", {**_RECOMMENDER, "theta": "3"}, "theta must be in"),
    ("maxsense", {"N": "1e4", "U": "1e7", "w": "20", "eps": "1"}, "U x (rated items"),
    ("multi-maxsense", {**_RECOMMENDER, "eps": "700"}, "eps must be at most N // block_size = 2"),
    ("multi-maxsense", {**_RECOMMENDER, "Q": "1e308"}, "Q must be an integer in [1, 20]"),
    ("multi-maxsense", {**_RECOMMENDER, "block_size": "21"}, "block_size must be an integer in [1, 20]"),
    ("p-rec", {**_PREC, "T": "1e308"}, "T must be an integer in [2, 200000]"),
    ("p-rec", {**_PREC, "m": "1e4+1"}, "m must be an integer in [2, 10000]"),
    ("p-rec", {**_PREC, "P": "0"}, "P must be"),
    ("p-rec", {**_PREC, "others": "1e7+1"}, "others must be an integer in [0, 10^7]"),
    ("p-rec", {**_PREC, "runs": "1e6+1"}, "runs must be an integer in [2, 10^6]"),
    ("p-rec", {**_PREC, "D": "21"}, "D must be an integer in [0, 20]"),
    ("p-rec", {**_PREC, "T": "2e5", "others": "1e4", "runs": "1000"}, "runs x T x (P + others + m)"),
    ("p-rec", {**_PREC, "m": "1e4", "T": "1e4", "runs": "2"}, "(P + others) x T x m"),
    ("privact", {"network": "douban", "eps_edge": "1", "iterations_per_node": "1000"}, "iterations_per_node"),
    ("privact", {"network": "douban", "eps_edge": "1", "iterations_per_node": "1e4+1"},
     "iterations_per_node must be an integer in [0, 10000]"),
    ("privact", {"network": "lastfm", "eps_edge": ",".join(["1"] * 11)}, "eps_edge must list 1 to 10"),
    ("privact", {"network": "lastfm", "eps_edge": "1e-400"}, "eps_edge must be in"),
    ("privact", {"network": "lastfm", "eps_edge": "1", "data_dir": "9" * 5000}, "data_dir must be an existing"),
]


@pytest.mark.parametrize("algorithm, params, message", REJECTED, ids=[f"{a}-{m[:30]}" for a, _, m in REJECTED])
def test_outside_the_range_is_one_line_naming_the_parameter(capsys, algorithm, params, message):
    start = time.perf_counter()
    code, out, err = run(capsys, "simulate", algorithm, *_params(**params), "--json")
    assert code == 2 and not out and err.count("\n") == 1 and message in err, err
    assert time.perf_counter() - start < 5  # rejected up front, not after simulating


def test_seed_must_be_a_non_negative_integer(capsys):
    code, _, err = run(capsys, "simulate", "maxsense", *_params(**_RECOMMENDER), "--seed", "-1")
    assert code == 2 and "seed must be an integer in [0" in err


@pytest.mark.parametrize("algorithm, params", [
    ("maxsense", {**_RECOMMENDER, "eps": "1e-300"}),
    ("maxsense", {**_RECOMMENDER, "eps": "1e4", "theta": "1e-9", "sampling": "independent"}),
    ("maxsense", {**_RECOMMENDER, "theta": "2", "sensing": "collapsed"}),
    ("multi-maxsense", {**_RECOMMENDER, "Q": "20", "block_size": "1"}),
    ("pairwise-preference", {**_RECOMMENDER, "rule": "literal"}),
    ("p-rec", {**_PREC, "D": "20", "R": "0", "hostile": "true"}),
])
def test_the_ends_of_the_ranges_answer(capsys, algorithm, params):
    code, out, err = run(capsys, "simulate", algorithm, *_params(**params), "--json")
    assert code == 0, err
    json.loads(out, parse_constant=lambda constant: pytest.fail(f"not strict JSON: {constant}"))

