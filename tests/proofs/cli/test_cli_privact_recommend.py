"""``dpcert simulate privact-recommend``: the cold-start Tables 4 and 5 of 004_a0cddc0a7a24fb37.txt on a made-up
data folder (the real one is not needed), the paper's values beside the measured ones, and bad input."""

from __future__ import annotations

import json

import pytest
from conftest import write_synthetic_social_data

from dpcert.proofs.cli import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    captured = capsys.readouterr()
    return stop.value.code, captured.out, captured.err


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return write_synthetic_social_data(tmp_path_factory.mktemp("social"))


def test_json_has_both_tables_with_the_papers_values(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-recommend", "--param", "network=lastfm", "--param",
                       "iterations_per_node=2", "--param", "trees=2", "--param", "splits=2", "--param", "k=10",
                       "--param", f"data_dir={data_dir}", "--seed", "1", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["n"] == 40 and payload["tree_seeds"] == [1235, 145]  # the paper's seeds + 1
    assert payload["split_seeds"] == [67, 13] and payload["k"] == 10
    current = payload["table4_current_ordering"]
    assert current["PRIVACT-CF"]["runs"] == 4 and current["friendsCF"]["runs"] == 2
    assert current["PRIVACT-CF"]["paper_ndcg"] == 5.54e-2 and payload["table5_older_ordering"]["friendsCF"]["paper_map"] == 4.03e-2


def test_table_output(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-recommend", "--param", "network=lastfm", "--param",
                       "iterations_per_node=1", "--param", "trees=1", "--param", "splits=1", "--param",
                       f"data_dir={data_dir}")
    assert code in (0, None) and "paper NDCG" in out and "PRIVACT-CF" in out and "4 (current)" in out


@pytest.mark.parametrize("params, name", [
    ({"network": "douban"}, "network"),
    ({"network": "facebook"}, "network"),
    ({"network": "lastfm", "trees": "4"}, "trees"),
    ({"network": "lastfm", "splits": "0"}, "splits"),
    ({"network": "lastfm", "k": "1001"}, "k"),
    ({"network": "lastfm", "eps_edge": "0"}, "eps_edge"),
    ({"network": "lastfm", "iterations_per_node": "10001"}, "iterations_per_node"),
    ({"network": "lastfm", "K": "3"}, "K"),
    ({"network": "lastfm", "data_dir": "/nonexistent/folder"}, "data_dir"),
])
def test_bad_input_is_one_line_naming_the_parameter(capsys, data_dir, params, name):
    params = {"data_dir": data_dir, **params}
    argv = [item for key, value in params.items() for item in ("--param", f"{key}={value}")]
    code, _, err = run(capsys, "simulate", "privact-recommend", *argv, "--json")
    assert code == 2 and err.startswith("dpcert: error: ") and err.count("\n") == 1 and name in err


def test_the_papers_iterations_exceed_the_command_lines_budget(capsys, tmp_path):
    # 1000 x n on lastfm (n = 1843, 3 trees) is 5.5e6 GENTREE moves, beyond the 1.5e6 the command line answers
    data = write_synthetic_social_data(tmp_path)
    code, _, err = run(capsys, "simulate", "privact-recommend", "--param", "network=lastfm", "--param",
                       "iterations_per_node=1000", "--param", f"data_dir={data}")
    assert code == 2 and "iterations_per_node" in err


def test_serec_json_has_table_3_with_the_papers_values(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-serec", "--param", "network=lastfm", "--param",
                       "iterations_per_node=2", "--param", "trees=2", "--param", "factors=2", "--param", "epochs=2",
                       "--param", "k=10", "--param", f"data_dir={data_dir}", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["split_seeds"] == [67] and payload["tree_seeds"] == [1234, 144]
    table = payload["table3"]
    assert [table[name]["runs"] for name in ("Basic SERec", "SERec", "PRIVACT-SERec")] == [1, 1, 2]
    assert table["PRIVACT-SERec"]["paper_map"] == 0.1419 and payload["serec_epochs"] == 2


def test_serec_table_output(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-serec", "--param", "network=lastfm", "--param", "factors=2",
                       "--param", "epochs=1", "--param", "iterations_per_node=1", "--param", f"data_dir={data_dir}")
    assert code in (0, None) and "paper NDCG" in out and "PRIVACT-SERec" in out and "RecQ" in out


@pytest.mark.parametrize("params, name", [
    ({"network": "douban"}, "network"),
    ({"network": "lastfm", "factors": "0"}, "factors"),
    ({"network": "lastfm", "factors": "201"}, "factors"),
    ({"network": "lastfm", "epochs": "1001"}, "epochs"),
    ({"network": "lastfm", "splits": "6"}, "splits"),
    ({"network": "lastfm", "ordering": "x"}, "ordering"),
])
def test_serec_bad_input_is_one_line_naming_the_parameter(capsys, data_dir, params, name):
    params = {"data_dir": data_dir, **params}
    argv = [item for key, value in params.items() for item in ("--param", f"{key}={value}")]
    code, _, err = run(capsys, "simulate", "privact-serec", *argv, "--json")
    assert code == 2 and err.startswith("dpcert: error: ") and err.count("\n") == 1 and name in err


def test_serec_work_beyond_a_minute_is_refused(capsys, data_dir):
    # 40 users x 30 items: 5 splits x 5 fits x 1000 epochs x 200^2 x 1200 = 1.2e12 multiply-adds > 1e11
    code, _, err = run(capsys, "simulate", "privact-serec", "--param", "network=lastfm", "--param", "splits=5",
                       "--param", "trees=3", "--param", "factors=200", "--param", "epochs=1000",
                       "--param", f"data_dir={data_dir}")
    assert code == 2 and "splits x (2 + trees) x epochs x factors^2 x users x items" in err
