"""Plots from the command line: ``plot shuffle`` (every shuffle bound's eps against n, log-log)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from mechanisms.parameters import InvalidParameterError, require_int
from proofs.cli.output import emit, json_option, param_option, parse_params, progress_bar

__all__ = ["plot_command"]

_FAMILIES = ("shuffle",)
_REQUIRED = ("eps0", "delta")
_DEFAULTS = {"k": None, "n_min": "1000", "n_max": "1e8", "points": "15"}
_HELP = {
    "eps0": "local randomizers' eps0 > 0",
    "delta": "target delta, in (0, 1)",
    "k": "k-ary randomized response (2: binary); omit for any eps0-LDP randomizer",
    "n_min": "smallest n of the grid, an integer >= 2 (default 1000)",
    "n_max": "largest n of the grid, > n_min (default 1e8)",
    "points": "number of log-spaced grid points, in [2, 200] (default 15)",
}


def _inputs(params: tuple[str, ...]) -> dict[str, str | None]:
    raw = parse_params(params)
    unknown = sorted(set(raw) - set(_HELP))
    if unknown:
        raise InvalidParameterError(f"--param {unknown[0]} is not a parameter of plot shuffle; allowed: "
                                    + ", ".join(_HELP))
    for name in _REQUIRED:
        if name not in raw:
            raise InvalidParameterError(f"--param {name} is required ({_HELP[name]})")
    return {**_DEFAULTS, **raw}


def _summary_table(title: str, curves: dict[str, list[tuple[int, float]]]) -> Table:
    table = Table(title=title)
    for column in ("method", "valid points", "n range", "eps at smallest n", "eps at largest n"):
        table.add_column(column, overflow="fold")
    for name, points in curves.items():
        if not points:
            table.add_row(name, "0", "[red]not valid on the grid[/red]", "", "")
            continue
        table.add_row(name, str(len(points)), f"{points[0][0]:.4g} .. {points[-1][0]:.4g}",
                      f"{points[0][1]:.6g}", f"{points[-1][1]:.6g}")
    return table


@click.command("plot")
@click.argument("family")
@param_option
@click.option("--out", "out", default=None, metavar="FILE.png", help="the image to write (.png, .pdf or .svg)")
@json_option
def plot_command(family: str, params: tuple[str, ...], out: str | None, as_json: bool) -> None:
    """Plot every bound of FAMILY (shuffle) against the number of users n, log-log, and save it to --out.

    Parameters: eps0, delta (required); k (k-ary randomized response; omit for any eps0-LDP
    randomizer); n_min (default 1000), n_max (default 1e8), points (default 15) for the log grid of n.
    Each method is drawn where its theorem applies; the exact truth only for small n; the
    no-amplification line is eps0. With --json: the points, each [n, eps rounded up].
    """
    from accountant.shuffle_common import validate_shuffle_inputs
    from accountant.shuffle_plot import PLOT_FORMATS, log_n_grid, plot_shuffle_curves, shuffle_curves

    if family not in _FAMILIES:
        raise InvalidParameterError(f"plot family must be one of {', '.join(_FAMILIES)}. Got {family!r}")
    inputs = _inputs(params)
    if out is None:
        raise InvalidParameterError("--out is required: the image file to write (.png, .pdf or .svg)")
    grid = log_n_grid(inputs["n_min"], inputs["n_max"], inputs["points"])
    checked = validate_shuffle_inputs(inputs["eps0"], 2, inputs["delta"], inputs["k"])
    target = Path(out)  # checked before the computation
    if target.suffix.lower() not in PLOT_FORMATS:
        raise InvalidParameterError(f"--out must end in one of {', '.join(PLOT_FORMATS)}. Got {out!r}")
    if not target.parent.is_dir():
        raise InvalidParameterError(f"--out: directory {str(target.parent)!r} does not exist. Got {out!r}")
    with progress_bar() as progress:
        task = progress.add_task("evaluating shuffle bounds", total=len(grid))
        curves = shuffle_curves(checked.eps0, checked.delta, grid, k=checked.k,
                                progress=lambda n: progress.advance(task))
    randomizer = "any eps0-LDP randomizer" if checked.k is None else f"{checked.k}-ary randomized response"
    title = f"shuffle amplification: eps0 = {inputs['eps0']}, delta = {inputs['delta']}, {randomizer}"
    written = plot_shuffle_curves(curves, target, title=title)
    payload = {"family": family,
               "inputs": {"eps0": inputs["eps0"], "delta": inputs["delta"], "k": checked.k,
                          "n_min": grid[0], "n_max": grid[-1], "points": require_int("points", inputs["points"])},
               "out": str(written),
               "series": {name: [[n, eps] for n, eps in points] for name, points in curves.items()}}
    emit(as_json, payload, _summary_table(escape(f"plot shuffle -> {written}"), curves))
