"""``dpcert plot shuffle``: the image is written, the JSON series agree with the accountant, and bad input
is one line with exit code 2."""

from __future__ import annotations

import contextlib
import io
import itertools
import json

import pytest
import sympy

from dpcert.accountant.shuffle import MAX_EXACT_RR_N, SHUFFLE_METHODS, exact_truth, shuffle_family
from dpcert.accountant.shuffle_plot import log_n_grid, shuffle_curves
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign
from conftest import run_cli
from dpcert.proofs.cli import main

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


run = run_cli


@pytest.fixture(scope="module")
def plotted(tmp_path_factory):
    """One JSON run on a short grid (1e3 .. 1e6, 5 points), shared by the tests below."""
    path = tmp_path_factory.mktemp("plot") / "shuffle.png"
    out = io.StringIO()  # capsys is function-scoped: capture by hand for a module-scoped run
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(["plot", "shuffle", "--param", "eps0=1", "--param", "delta=1e-6", "--param", "n_max=1e6",
              "--param", "points=5", "--out", str(path), "--json"])
    return stop.value.code, json.loads(out.getvalue()), path


def test_png_is_written(plotted):
    code, payload, path = plotted
    assert code == 0
    assert path.is_file() and path.read_bytes()[:8] == PNG_SIGNATURE
    assert payload["family"] == "shuffle" and payload["out"] == str(path)
    assert payload["inputs"] == {"eps0": "1", "delta": "1e-6", "k": None, "n_min": 1000, "n_max": 10**6,
                                 "points": 5}
    assert list(payload["series"]) == list(SHUFFLE_METHODS)


def test_series_are_valid_points_of_the_accountant(plotted):
    _, payload, _ = plotted
    series = payload["series"]
    grid = log_n_grid(1000, 10**6, 5)
    # fmt21-numeric applies at every n here and decreases with n (more users hide the changed one)
    numeric = series["fmt21-numeric"]
    assert [n for n, _ in numeric] == grid
    assert all(b[1] <= a[1] for a, b in itertools.pairwise(numeric))
    assert numeric[-1][1] < numeric[0][1]
    # the no-amplification line is eps0 everywhere; eps0 = 1 > 1/2, so efmrtt19 never applies
    assert series["no-amplification"] == [[n, 1.0] for n in grid]
    assert series["efmrtt19"] == []
    # the exact truth only where the exact computation's size limit allows
    assert [n for n, _ in series["exact"]] == [n for n in grid if n <= MAX_EXACT_RR_N]
    # each point is the accountant's certified upper end at that n
    n = grid[2]
    results = {r.name: r for r in shuffle_family(1, n, "1e-6")}
    for name, points in series.items():
        at_n = [eps for m, eps in points if m == n]
        if results[name].valid:
            assert at_n == [results[name].upper]
        else:
            assert at_n == []


def test_table_output_writes_the_image(capsys, tmp_path):
    path = tmp_path / "rr.svg"
    code, out, err = run(capsys, "plot", "shuffle", "--param", "eps0=1/2", "--param", "delta=1e-6", "--param", "k=2",
                         "--param", "n_min=5000", "--param", "n_max=1e5", "--param", "points=3", "--out", str(path))
    assert code == 0 and not err
    assert "fmt23-numeric" in out and str(path.name) in out
    assert path.is_file() and path.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("params, out, named", [
    (("eps0=1", "delta=1e-6"), None, "--out"),
    (("eps0=1", "delta=1e-6", "n_min=1e5", "n_max=1e3"), "x.png", "n_max"),
    (("eps0=1", "delta=1e-6", "n_min=1e3", "n_max=1e3"), "x.png", "n_max"),
    (("eps0=1", "delta=1e-6", "points=1"), "x.png", "points"),
    (("eps0=1", "delta=1e-6", "points=2.5"), "x.png", "points"),
    (("eps0=1", "delta=1e-6", "zeta=3"), "x.png", "zeta"),
    (("delta=1e-6",), "x.png", "eps0"),
    (("eps0=0", "delta=1e-6"), "x.png", "eps0"),
    (("eps0=1", "delta=1"), "x.png", "delta"),
    (("eps0=1", "delta=1e-6", "k=1"), "x.png", "k"),
    (("eps0=1", "delta=1e-6", "n_min=1"), "x.png", "n_min"),
    (("eps0=1", "delta=1e-6"), "x.txt", "--out"),
    (("eps0=1", "delta=1e-6"), "missing-dir/x.png", "--out"),
    (("eps0=1", "delta=1e-6"), "/proc/x.png", "--out"),  # an unwritable path was a FileNotFoundError traceback
    (("eps0=1", "delta=1e-6", "n_max=1e308"), "x.png", "n_max"),  # was named "n" (and 2**4096 overflowed)
    (("eps0=1", "delta=1e-6", "n_min=2**4096", "n_max=2**4097"), "x.png", "n_min"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, params, out, named):
    argv = ["plot", "shuffle"]
    for p in params:
        argv += ["--param", p]
    if out is not None:
        argv += ["--out", str(tmp_path / out)]
    code, stdout, err = run(capsys, *argv)
    assert code == 2 and not stdout
    assert err.count("\n") == 1 and err.startswith("dpcert: error:") and named in err
    assert "Traceback" not in err
    assert not any(tmp_path.iterdir())  # nothing written


def test_out_that_cannot_be_opened_is_bad_input_and_an_existing_file_is_kept(capsys, tmp_path):
    (tmp_path / "x.png").mkdir()
    code, _, err = run(capsys, "plot", "shuffle", "--param", "eps0=1", "--param", "delta=1e-6",
                       "--out", str(tmp_path / "x.png"))
    assert code == 2 and err.startswith("dpcert: error: --out is not writable") and err.count("\n") == 1
    kept = tmp_path / "kept.png"
    kept.write_bytes(b"old")
    code, _, err = run(capsys, "plot", "shuffle", "--param", "eps0=1", "--param", "delta=1e-6", "--param", "zeta=1",
                       "--out", str(kept))
    assert code == 2 and kept.read_bytes() == b"old"


def test_unknown_family_is_bad_input(capsys, tmp_path):
    code, _, err = run(capsys, "plot", "histogram", "--param", "eps0=1", "--param", "delta=1e-6",
                       "--out", str(tmp_path / "x.png"))
    assert code == 2 and "family" in err and err.count("\n") == 1


def test_grid_and_curves_functions():
    grid = log_n_grid(2, 10**6, 7)
    assert grid[0] == 2 and grid[-1] == 10**6 and grid == sorted(set(grid))
    assert log_n_grid(2, 3, 50) == [2, 3]  # duplicates dropped
    curves = shuffle_curves(2, "1e-3", [10, 5, 10], k=2)
    assert set(curves) == set(SHUFFLE_METHODS)
    assert [n for n, _ in curves["exact"]] == [5, 10]  # sorted, deduplicated
    # every plotted bound (rounded up) is at least the exact truth's certified lower end at the same n. Not its
    # rounded-up end: for binary RR FMT23's clone bound is the truth itself (1.99811187557450618... at n = 5 by
    # brute force over all datasets, tests/oracles/shuffle.py), so the two rounded-up ends may cross.
    for n, _ in curves["exact"]:
        truth = exact_truth(2, n, "1e-3", k=2)
        assert truth.bounds == "exact"
        for name, points in curves.items():
            assert all(exact_sign(sympy.Rational(eps) - truth.lower_value) >= 0 for m, eps in points if m == n), name
    with pytest.raises(InvalidParameterError, match="n_values"):
        shuffle_curves(1, "1e-6", [])
    with pytest.raises(InvalidParameterError, match="n must"):
        shuffle_curves(1, "1e-6", [1])
