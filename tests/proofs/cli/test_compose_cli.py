"""``dpcert compose``: the JSON shape of issue 13, the enclosure against the exact Gaussian value, and one-line
errors (exit 2) for bad input."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli

run = run_cli


def test_compose_json_encloses_the_exact_k_fold_gaussian(capsys):
    # Balle-Wang: sigma = 1, k = 10, delta = 1e-5 gives eps = 17.856586830 (the exact reference)
    code, out, _ = run(capsys, "compose", "gaussian:sigma=1*10", "--delta", "1e-5", "--exact", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["valid"] is True and payload["method"] == "pld"
    assert payload["eps_lower"] <= 17.856586830 <= payload["eps_upper"]
    closed = payload["results"][1]
    assert closed["lower"] <= 17.8565868302 and closed["upper"] >= 17.8565868301


def test_compose_delta_of_a_heterogeneous_sequence(capsys):
    code, out, _ = run(capsys, "compose", "gaussian:sigma=2,q=0.1*20", "laplace:b=10*5", "--eps", "1", "--json")
    payload = json.loads(out)
    assert code == 0 and 0 <= payload["delta_lower"] <= payload["delta_upper"] <= 1


@pytest.mark.parametrize(("argv", "named"), [
    (("gaussian:sigma=-1", "--delta", "1e-5"), "sigma"),
    (("gaussian:sigma=1,q=2", "--delta", "1e-5"), "q"),
    (("gaussian:sigma=1*0", "--delta", "1e-5"), "count"),
    (("gaussian:sigma=1", "--delta", "1"), "delta"),
    (("gaussian:sigma=1", "--eps", "-1"), "eps"),
    (("nope:x=1", "--delta", "1e-5"), "mechanism"),
    (("gaussian:sigma=1",), "--delta"),
    (("gaussian:sigma=1", "--delta", "1e-5", "--neighbours", "sideways"), "neighbours"),
])
def test_compose_bad_input_is_one_line_exit_2(capsys, argv, named):
    code, out, err = run(capsys, "compose", *argv)
    assert code == 2 and out == "" and err.startswith("dpcert: error: ") and err.strip().count("\n") == 0
    assert named in err


def test_compose_calibrates_sigma(capsys):
    code, out, _ = run(capsys, "compose", "gaussian:sigma=?*10", "--delta", "1e-5", "--target-eps", "17.856586830",
                       "--json")
    payload = json.loads(out)
    assert code == 0 and payload["parameter"] == "sigma" and float(payload["value"]) >= 1.0
    assert payload["result"]["upper"] <= 17.856586830


def test_plot_composition_writes_the_curve(capsys, tmp_path):
    target = tmp_path / "curve.png"
    code, out, _ = run(capsys, "plot", "composition", "gaussian:sigma=1*4", "--param", "points=5", "--out",
                       str(target), "--json")
    payload = json.loads(out)
    assert code == 0 and target.exists() and len(payload["points"]) == 5
    assert all(lower <= upper for _, lower, upper in payload["points"])


def test_compose_rdp_row_is_an_upper_bound_beside_the_enclosure(capsys):
    code, out, _ = run(capsys, "compose", "gaussian:sigma=1*10", "--delta", "1e-5", "--rdp", "--json")
    payload = json.loads(out)
    rdp = payload["results"][1]
    assert code == 0 and rdp["name"] == "rdp" and rdp["bounds"] == "upper"
    assert rdp["upper"] >= 17.856586830 >= payload["eps_lower"]  # Balle-Wang's exact value lies below the RDP bound
    code, out, _ = run(capsys, "compose", "discrete-laplace:b=2*3", "--eps", "1", "--rdp", "--json")
    row = json.loads(out)["results"][1]
    assert code == 0 and row["valid"] is False and "not offered" in row["note"]
