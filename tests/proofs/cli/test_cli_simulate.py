"""``dpcert simulate``: every parameter's answerable range, its ends, and the joint time budgets.

Values beyond a range (1e308 once reached numpy and gave tracebacks; iterations_per_node = 1000 on
douban took 197 s) must give one line naming the parameter and exit 2; values at the ends answer.
"""

from __future__ import annotations

import json
import re
import time

import pytest
import sympy

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



def test_recommender_table_is_for_people_and_json_is_exact(capsys):
    # the table once printed reprs ("seconds 0.008361762003914919", "{'N': 20, ...}"); --json keeps the full values
    code, out, _ = run(capsys, "simulate", "maxsense", *_params(**_RECOMMENDER))
    assert code in (0, None) and "{'" not in out and "N=20, U=200, w=2, eps=2, seed=0" in out, out
    assert re.search(r"seconds\s+│ \d+\.\d\d ", out) and re.search(r"exact recovery\s+│ (yes|no) ", out), out
    code, out, _ = run(capsys, "simulate", "maxsense", *_params(**_RECOMMENDER), "--json")
    payload = json.loads(out)
    assert payload["parameters"] == {"N": 20, "U": 200, "w": 2, "eps": "2", "seed": 0}
    assert isinstance(payload["seconds"], float) and isinstance(payload["exact_recovery"], bool)


def test_prec_table_shows_the_bounds_rounded_to_their_safe_side(capsys):
    # Theorem 17's eps is an upper bound: shown rounded up (BoundResult.display), never to the nearest
    params = {**_PREC, "P": "12", "T": "30"}
    code, out, _ = run(capsys, "simulate", "p-rec", *_params(**params), "--json")
    eps = json.loads(out)["theorem17_eps"]
    assert code in (0, None) and eps["valid"]
    code, table, _ = run(capsys, "simulate", "p-rec", *_params(**params))
    shown = re.search(r"Theorem 17 eps\s+│ (\S+) ", table).group(1)
    # 12 log(30) = 40.8143...: to 4 significant digits the old table showed 40.81, below the bound
    assert bool(sympy.Rational(shown) >= sympy.sympify(eps["value"])), (shown, eps)


_PRIVACT = {"network": "lastfm", "eps_edge": "1", "iterations_per_node": "0"}


@pytest.mark.parametrize("algorithm", ["privact", "privact-recommend", "privact-serec"])
def test_a_named_data_folder_that_is_missing_is_an_error_naming_it(capsys, monkeypatch, tmp_path, algorithm):
    params = _PRIVACT if algorithm == "privact" else {"network": "lastfm"}
    missing = str(tmp_path / "no such folder")
    code, out, err = run(capsys, "simulate", algorithm, *_params(**params, data_dir=missing))
    assert code == 2 and not out and err.count("\n") == 1 and "data_dir must be an existing directory" in err, err
    # an existing data_dir without the network's files: data_dir's error (the variable would not be read)
    code, out, err = run(capsys, "simulate", algorithm, *_params(**params, data_dir=str(tmp_path)))
    assert code == 2 and err.startswith("dpcert: error: data_dir must hold lastfm/edges.txt"), err
    assert "DPCERT_SOCIAL_GRAPHS" not in err and "graph=generated" not in err
    # the folder named by the environment variable: its own error, not data_dir's
    monkeypatch.setenv("DPCERT_SOCIAL_GRAPHS", missing)
    code, out, err = run(capsys, "simulate", algorithm, *_params(**params))
    assert code == 2 and not out and err.count("\n") == 1, err
    assert err.startswith("dpcert: error: DPCERT_SOCIAL_GRAPHS must name a folder holding lastfm/edges.txt"), err
    assert missing in err


def test_an_empty_data_dir_is_not_the_current_directory(capsys):
    code, _, err = run(capsys, "simulate", "privact", *_params(**_PRIVACT, data_dir=""))
    assert code == 2 and "data_dir must be an existing directory. Got ''" in err, err


def test_generated_graph_is_refused_with_a_data_dir_and_said_when_used(capsys, tmp_path):
    # data named by the user are read or refused, never silently replaced by a generated graph
    code, out, err = run(capsys, "simulate", "privact", *_params(**_PRIVACT, graph="generated", data_dir=tmp_path))
    assert code == 2 and not out and err.count("\n") == 1 and "data_dir" in err and "graph=generated" in err, err
    # no data named: the generated stand-in runs, and both outputs say so
    code, out, _ = run(capsys, "simulate", "privact", *_params(**_PRIVACT, graph="generated"))
    assert code in (0, None) and "GENERATED lastfm-like G(n, m) graph, not the lastfm data" in out, out
    code, out, _ = run(capsys, "simulate", "privact", *_params(**_PRIVACT, graph="generated"), "--json")
    assert json.loads(out)["source"] == "generated"
