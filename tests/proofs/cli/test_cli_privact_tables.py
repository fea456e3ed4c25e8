"""``dpcert simulate privact-similarity`` and ``privact-likelihood``: Table 6 (Section 7.4, Appendix A.4) and
Figure 5 of 004_a0cddc0a7a24fb37.txt on a made-up data folder, the paper's printed values beside the measured ones,
and bad input. Table 6's measurement is checked against a direct loop in tests/mechanisms/privact/, Figure 5's
chains in tests/mechanisms/privact/ too; here, that the commands report them unchanged."""

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


def test_table_output(capsys, data_dir):
    code, out, _ = run(capsys, "simulate", "privact-similarity", "--param", "network=lastfm", "--param",
                       f"data_dir={data_dir}")
    assert code == 0 and "Table 6" in out and "76.8" in out and "[-0.25, 0.17]" in out  # lastfm partial, printed


@pytest.mark.parametrize(("params", "seed", "name"), [
    (("network=douban",), "0", "network"),  # edges only, no ratings
    (("network=lastfm", "eps_edge=1"), "0", "eps_edge"),
    ((), "0", "network"),
    (("network=lastfm",), "3", "seed"),
])
def test_bad_input_is_one_line_naming_the_parameter(capsys, data_dir, params, seed, name):
    argv = [arg for p in (*params, f"data_dir={data_dir}") for arg in ("--param", p)]
    code, out, err = run(capsys, "simulate", "privact-similarity", *argv, "--seed", seed)
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and name in err


def test_a_named_data_folder_without_the_ratings_is_an_error(capsys, tmp_path):
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
