"""``dpcert bound``, ``calibrate`` and ``simulate``: the JSON shape of issue 3, values cross-checked against
the spec's reference table, and one-line errors for bad input."""

from __future__ import annotations

import json
import math

import pytest

from conftest import run_cli


run = run_cli


def test_ldp_mutual_information_json_shape_and_reference_values(capsys):
    code, out, _ = run(capsys, "bound", "ldp-mutual-information", "--param", "N=1e4", "--param", "w=20",
                       "--param", "eps=1/2", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["family"] == "ldp-mutual-information"
    assert payload["inputs"] == {"N": "1e4", "w": "20", "eps": "1/2"}
    results = {r["name"]: r for r in payload["results"]}
    assert {"lemma6", "theorem13", "theorem14"} <= set(results)
    for r in payload["results"]:
        assert set(r) >= {"name", "source", "value", "enclosure", "bounds", "upper", "lower", "units", "valid", "note"}
        assert r["units"] == "nats" and r["bounds"] == "upper" and r["lower"] is None
        assert r["enclosure"][0] <= r["enclosure"][1] == r["upper"] or not r["valid"]
    # spec 000 section 4 table (eps = 0.5, N = 1e4, w = 20): thm13 exact 5.3878e-2, thm14 7.4668e-3
    assert results["theorem13"]["upper"] == pytest.approx(5.3878e-2, abs=5e-7)
    assert results["theorem14"]["upper"] == pytest.approx(7.4668e-3, abs=5e-8)
    assert results["lemma6"]["value"] == "1/2"


def test_theorem_14_is_invalid_above_ln2_with_a_reason(capsys):
    code, out, _ = run(capsys, "bound", "ldp-mutual-information", "--param", "N=100", "--param", "w=2",
                       "--param", "eps=1", "--json")
    theorem_14 = next(r for r in json.loads(out)["results"] if r["name"] == "theorem14")
    assert code == 0 and theorem_14["valid"] is False and "ln 2" in theorem_14["note"]


def test_fano_thresholds_and_method_filter(capsys):
    code, out, _ = run(capsys, "bound", "fano", "--param", "N=1e4", "--param", "eps=1/2", "--method", "theorem7",
                       "--json")
    results = json.loads(out)["results"]
    assert code == 0 and [r["name"] for r in results] == ["theorem7"]
    # spec section 4: U_unrel(Lemma 6) = (N/2 - 1)/(eps log2 e) = 6930 at N = 1e4, eps = 0.5
    assert results[0]["lower"] == pytest.approx(6930.09, abs=0.01)  # a lower bound on the users needed
    assert results[0]["bounds"] == "lower" and results[0]["upper"] is None


def test_p_rec_family_reproduces_the_papers_example(capsys):
    # 001 spec section 4: m = 2, T = 200, P = 12, n = 2012 gives Theorem 16's loss bound 21.2; the tight form is
    # below the printed one, and Theorem 1's eps lower bound lies below Theorem 17's upper bound
    code, out, _ = run(capsys, "bound", "p-rec", "--param", "m=2", "--param", "n=2012", "--param", "P=12",
                       "--param", "T=200", "--json")
    results = {r["name"]: r for r in json.loads(out)["results"]}
    assert code == 0 and set(results) == {"theorem16", "theorem16-tight", "theorem17", "theorem17-tight",
                                          "theorem6", "theorem1"}
    assert results["theorem16"]["upper"] == pytest.approx(21.16, abs=0.01)
    assert results["theorem16-tight"]["upper"] < results["theorem16"]["enclosure"][0]
    assert results["theorem1"]["bounds"] == "lower" and results["theorem1"]["upper"] is None
    assert results["theorem1"]["enclosure"][1] < results["theorem17-tight"]["enclosure"][0] < \
        results["theorem17"]["enclosure"][0]


def test_privact_family_at_the_papers_scale(capsys):
    # 004 spec TC-N7: at n = 1843 (K = floor(ln n) = 7) and eps_edge = 1 (sigma = 2), Theorem 6's bound is
    # (3K + 12 sqrt K) sigma rho with rho = (n^3 - n)/3; ln((2n - 3)!!) has thousands of digits' worth of N
    code, out, _ = run(capsys, "bound", "privact", "--param", "n=1843", "--param", "eps_edge=1", "--json")
    results = {r["name"]: r for r in json.loads(out)["results"]}
    rho = (1843**3 - 1843) / 3
    assert code == 0 and results["theorem6"]["upper"] == pytest.approx((21 + 12 * 7**0.5) * 2 * rho, rel=1e-12)
    assert results["lemma5.1-expected-loss"]["enclosure"][0] == pytest.approx(
        1 + sum(math.log(k) for k in range(1, 2 * 1843 - 2, 2)), rel=1e-9)


def test_simulate_privact_reports_both_eps_and_the_utility_loss(capsys):
    # 004 Algorithm 2 on a generated lastfm-sized graph, asked for with graph=generated:
    # eps per user is half eps per edge (spec A1), Q_D/rho >= 1 because S >= 1 off the diagonal (Theorem 4),
    # and the loss is a fraction of the non-private tree's quality
    code, out, err = run(capsys, "simulate", "privact", "--param", "network=lastfm", "--param", "eps_edge=1,2",
                         "--param", "iterations_per_node=5", "--param", "graph=generated", "--seed", "3", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["source"] == "generated" and payload["K"] == 7 and err == ""
    assert [(r["eps_edge"], r["eps_user"]) for r in payload["private"]] == [("1", "1/2"), ("2", "1")]
    assert payload["nonprivate_relative_utility"] >= 1
    assert all(r["relative_utility"] >= 1 and 0 <= r["loss"] < 1 for r in payload["private"])


def test_simulate_privact_refuses_a_named_network_whose_data_is_absent(capsys, tmp_path):
    # the user named lastfm and the folder has no lastfm/edges.txt: one line, exit 2, nothing generated in its place
    code, out, err = run(capsys, "simulate", "privact", "--param", "network=lastfm", "--param", "eps_edge=1",
                         "--param", f"data_dir={tmp_path}", "--json")
    assert code == 2 and out == "" and err.startswith("dpcert: error: data_dir must hold lastfm/edges.txt")
    assert err.count("\n") == 1


def test_simulate_p_rec_against_theorems_16_and_17(capsys):
    # 001 spec section 4: m = 2, T = 200, 12 peers among n = 2012 voters; Theorem 16's loss bound is 21.2 and the
    # measured mean loss (fixed seed, hostile other voters) lies far below it
    code, out, _ = run(capsys, "simulate", "p-rec", "--param", "m=2", "--param", "T=200", "--param", "P=12",
                       "--param", "others=2000", "--param", "hostile=true", "--param", "runs=50", "--seed", "2",
                       "--json")
    payload = json.loads(out)
    assert code == 0 and payload["n"] == 2012 and payload["runs"] == 50
    assert payload["theorem16_loss_bound"]["upper"] == pytest.approx(21.16, abs=0.01)
    assert 0 < payload["mean_loss"] < payload["theorem16_loss_bound"]["enclosure"][0] and payload["standard_error"] > 0
    assert payload["theorem17_eps"]["name"] == "theorem17" and payload["theorem17_eps"]["valid"]


@pytest.mark.parametrize("argv, named", [
    (("bound", "nope"), "family"),
    (("bound", "ldp-mutual-information", "--param", "N=10", "--param", "w=11", "--param", "eps=1"), "w"),
    (("bound", "ldp-mutual-information", "--param", "N=10", "--param", "w=2", "--param", "eps=0"), "eps"),
    (("bound", "ldp-mutual-information", "--param", "N=10", "--param", "w=2"), "eps"),
    (("bound", "fano", "--param", "N=10", "--param", "eps=1", "--param", "zeta=1"), "zeta"),
    (("bound", "fano", "--param", "N=10", "--param", "eps=1", "--method", "theorem99"), "--method"),
    (("bound", "p-rec", "--param", "m=1", "--param", "n=100", "--param", "P=5", "--param", "T=20"), "m"),
    (("bound", "p-rec", "--param", "m=2", "--param", "n=100", "--param", "P=5"), "T"),
    (("bound", "privact", "--param", "n=2", "--param", "eps_edge=1"), "n"),
    (("simulate", "privact", "--param", "network=facebook", "--param", "eps_edge=1"), "network"),
    (("simulate", "p-rec", "--param", "m=1", "--param", "T=20", "--param", "P=3", "--param", "others=5"), "m"),
    (("simulate", "p-rec", "--param", "m=2", "--param", "T=20", "--param", "P=3"), "others"),
    (("simulate", "p-rec", "--param", "m=2", "--param", "T=20", "--param", "P=3", "--param", "others=5",
      "--param", "hostile=maybe"), "hostile"),
    (("simulate", "privact", "--param", "network=lastfm", "--param", "eps_edge=-1"), "eps_edge"),
    (("simulate", "privact", "--param", "network=lastfm", "--param", "eps_edge=1", "--param", "K=3"), "K"),
    (("simulate", "privact", "--param", "network=lastfm", "--param", "eps_edge=1", "--param", "graph=random"),
     "graph"),
    (("bound", "privact", "--param", "n=100", "--param", "eps_edge=0"), "eps_edge"),
    (("simulate", "maxsense", "--param", "N=10", "--param", "U=10", "--param", "w=11", "--param", "eps=1"), "w"),
    (("simulate", "maxsense", "--param", "N=10", "--param", "U=10", "--param", "w=2"), "eps"),
    (("simulate", "maxsense", "--param", "N=10", "--param", "U=10", "--param", "w=2", "--param", "eps=1",
      "--param", "rule=literal"), "rule"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err and "Traceback" not in err


def test_simulate_maxsense_recovers_with_many_users(capsys):
    # spec 000 section 6 sizing: N = 40, w = 2, eps = 2 recovers exactly in 100% of runs at U = 3.2e5.
    code, out, _ = run(capsys, "simulate", "maxsense", "--param", "N=40", "--param", "U=320000", "--param", "w=2",
                       "--param", "eps=2", "--seed", "1", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["algorithm"] == "maxsense" and payload["users"] == 320000
    assert payload["exact_recovery"] is True and payload["error_rate"] == 0


def test_simulate_with_too_few_users_fails_to_recover(capsys):
    # the power side of the test above: at U = 500 MaxSense cannot separate 40 items (spec section 6: 0% at 5e3)
    code, out, _ = run(capsys, "simulate", "maxsense", "--param", "N=40", "--param", "U=500", "--param", "w=2",
                       "--param", "eps=2", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["exact_recovery"] is False


@pytest.mark.parametrize("spec", ["oue:k=1", "blh", "k-rr:k=3&oue:k=4", "laplace:b=1"])
def test_bad_named_shuffle_randomizer_is_one_line_and_exit_2(capsys, spec):
    code, out, err = run(capsys, "bound", "shuffle", "--param", "eps0=1", "--param", "n=100", "--param", "delta=1e-6",
                         "--method", "optimal", "--param", f"randomizer={spec}")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("dpcert: error: randomizer")


def test_named_shuffle_randomizer_json(capsys):
    code, out, _ = run(capsys, "bound", "shuffle", "--param", "eps0=1", "--param", "n=1000", "--param", "delta=1e-6",
                       "--method", "optimal", "--param", "randomizer=blh:D=10", "--json")
    (row,) = json.loads(out)["results"]
    assert code == 0 and row["valid"] and "binary local hashing" in row["note"] and 0 < row["upper"] < 1
