"""``dpcert simulate privact-recommend``, ``privact-serec``, ``privact-similarity`` and ``privact-likelihood``: the
cold-start Tables 4 and 5, the existing-user Table 3, Table 6 and Figure 5 of 004_a0cddc0a7a24fb37.txt on a made-up
data folder (the real one is not needed), the paper's values beside the measured ones, and bad input. The
measurements themselves are checked in tests/mechanisms/privact/ (Table 6's against a direct loop); here, that the
commands report them unchanged."""

from __future__ import annotations

import json

import pytest
from conftest import write_synthetic_social_data

from dpcert.proofs.claims.privact.similarity_checks import table_6_measurement
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


def test_json_reports_both_profiles_as_measured_beside_the_printed_table(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-similarity", "--param", "network=lastfm", "--param",
                       f"data_dir={data_dir}", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["network"] == "lastfm" and [r["profile"] for r in payload["rows"]] == ["partial", "full"]
    for row in payload["rows"]:
        summary = table_6_measurement("lastfm", profile=row["profile"], directory=data_dir)
        assert (row["users"], row["defined"], row["negative"]) == (summary.n_users, summary.n_defined,
                                                                   summary.n_negative)
        assert row["percent_negative"] == pytest.approx(summary.percent_negative)
    full = payload["rows"][1]  # Table 6 prints lastfm's full profile as 100.0 % negative in [-0.23, 0.02]
    assert (full["paper_percent_negative"], full["paper_minimum"], full["paper_maximum"]) == ("100.0", "-0.23", "0.02")


def test_similarity_table_output(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-similarity", "--param", "network=lastfm", "--param",
                       f"data_dir={data_dir}")
    assert code == 0 and "Table 6" in out and "76.8" in out and "[-0.25, 0.17]" in out  # lastfm partial, printed


@pytest.mark.parametrize(("params", "seed", "name"), [
    (("network=douban",), "0", "network"),  # edges only, no ratings
    (("network=lastfm", "eps_edge=1"), "0", "eps_edge"),
    ((), "0", "network"),
    (("network=lastfm",), "3", "seed"),
])
def test_similarity_bad_input_is_one_line_naming_the_parameter(capsys, data_dir, params, seed, name):
    argv = [arg for p in (*params, f"data_dir={data_dir}") for arg in ("--param", p)]
    code, out, err = run(capsys, "simulate", "privact-similarity", *argv, "--seed", seed)
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and name in err


def test_similarity_refuses_a_named_data_folder_without_the_ratings(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "privact-similarity", "--param", "network=lastfm", "--param",
                       f"data_dir={tmp_path}")
    assert code == 2 and "data_dir must hold lastfm/edges.txt and ratings.txt" in err


def test_likelihood_json_has_every_block_of_every_chain(capsys, data_dir):
    """Figure 5's chains on the made-up 40-user graph: one curve per eps, one point per block of n proposals, the
    same as compare_likelihood's own run with that seed (the chains are seeded, so a rerun repeats them)."""
    from dpcert.mechanisms.privact import compare_likelihood, load_social_graph

    code, out, _ = run(capsys, "simulate", "privact-likelihood", "--param", "network=lastfm", "--param",
                       "eps_edge=1,2", "--param", "iterations_per_node=3", "--param", f"data_dir={data_dir}",
                       "--seed", "5", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["n"] == 40 and [c["eps_edge"] for c in payload["curves"]] == ["1", "2"]
    assert all(len(c["privact"]) == len(c["cmn_dp"]) == 3 for c in payload["curves"])
    again = compare_likelihood(load_social_graph("lastfm", directory=data_dir), eps_edges=(1, 2), seeds=(5,),
                               iterations_per_node=3)
    assert payload["curves"][1]["cmn_dp"] == pytest.approx(again.cmn_dp_mean[1].tolist())


@pytest.mark.parametrize(("params", "name"), [
    (("network=twitter",), "network"),
    (("network=lastfm", "eps_edge=0"), "eps_edge"),
    (("network=lastfm", "iterations_per_node=0"), "iterations_per_node"),
    (("network=douban", "iterations_per_node=100"), "iterations_per_node"),  # 2 x 3 x 2848 x 100 > 1.5e6 proposals
    (("network=lastfm", "k=10"), "k"),
])
def test_likelihood_bad_input_is_one_line_naming_the_parameter(capsys, data_dir, params, name):
    argv = [arg for p in (*params, f"data_dir={data_dir}") for arg in ("--param", p)]
    code, out, err = run(capsys, "simulate", "privact-likelihood", *argv)
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and name in err
