"""Plots from the command line: ``plot shuffle`` (every shuffle bound's eps against n, log-log) and
``plot composition SPEC ...`` (a composition's delta(eps) with its certified enclosure)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_real
from dpcert.proofs.cli.output import emit, json_option, param_option, parse_params, progress_bar

__all__ = ["plot_command"]

_FAMILIES = ("shuffle", "composition")
_COMPOSITION_HELP = {
    "points": "number of eps values, an integer in [2, 400] (default 40)",
    "eps_max": "largest eps drawn, in (0, 10^4] (default: the certified eps at delta = 1e-12)",
    "neighbours": "add-remove (default) or substitute",
}
_REQUIRED = ("eps0", "delta")
_DEFAULTS = {"k": None, "n_min": "1000", "n_max": "1e8", "points": "15"}
_HELP = {
    "eps0": "local randomizers' eps0 > 0",
    "delta": "target delta, in (0, 1)",
    "k": "k-ary randomized response (2: binary); omit for any eps0-LDP randomizer",
    "n_min": "smallest n of the grid, an integer in [2, 10^30] (default 1000)",
    "n_max": "largest n of the grid, in (n_min, 10^30] (default 1e8)",
    "points": "number of log-spaced grid points, in [2, 200] (default 15; 200 points take up to ~80 s)",
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


def _writable(out: str, formats: tuple[str, ...]) -> Path:
    """``out`` as a path that a plot can be written to, checked by opening it for writing (without
    truncating an existing file; a file created by the check is removed again)."""
    target = Path(out)
    if target.suffix.lower() not in formats:
        raise InvalidParameterError(f"--out must end in one of {', '.join(formats)}. Got {out!r}")
    if not target.parent.is_dir():
        raise InvalidParameterError(f"--out: directory {str(target.parent)!r} does not exist. Got {out!r}")
    existed = target.exists()
    try:
        with open(target, "ab"):
            pass
    except OSError as error:
        raise InvalidParameterError(f"--out is not writable: {error.strerror or error}. Got {out!r}") from None
    if not existed:
        target.unlink(missing_ok=True)
    return target


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
@click.argument("specs", nargs=-1, metavar="[SPEC ...]")
@param_option
@click.option("--out", "out", default=None, metavar="FILE.png", help="the image to write (.png, .pdf or .svg)")
@json_option
def plot_command(family: str, specs: tuple[str, ...], params: tuple[str, ...], out: str | None, as_json: bool) -> None:
    """Plot FAMILY and save it to --out: ``shuffle`` (every shuffle bound against the number of users n,
    log-log) or ``composition SPEC ...`` (delta(eps) of the composition, with its certified enclosure; SPECs
    as in ``dpcert compose``; parameters points, eps_max, neighbours).

    Parameters: eps0, delta (required; the ranges of ``bound shuffle``); k (k-ary randomized response;
    omit for any eps0-LDP randomizer); n_min (default 1000), n_max (default 1e8, at most 10^30), points
    (default 15, at most 200: about 80 s at the most) for the log grid of n. --out must be writable
    (checked before the computation).
    Each method is drawn where its theorem applies; the exact truth only for small n; the
    no-amplification line is eps0. With --json: the points, each [n, eps rounded up].
    """
    from dpcert.accountant.shuffle_common import N_MAX, validate_shuffle_inputs
    from dpcert.accountant.shuffle_plot import PLOT_FORMATS, log_n_grid, plot_shuffle_curves, shuffle_curves

    if family not in _FAMILIES:
        raise InvalidParameterError(f"plot family must be one of {', '.join(_FAMILIES)}. Got {family!r}")
    if family == "composition":
        _plot_composition(specs, params, out, as_json)
        return
    if specs:
        raise InvalidParameterError(f"plot shuffle takes no SPEC arguments (use --param). Got {specs[0]!r}")
    inputs = _inputs(params)
    if out is None:
        raise InvalidParameterError("--out is required: the image file to write (.png, .pdf or .svg)")
    for name in ("n_min", "n_max"):  # the shuffle bounds' answerable n, named as the plot's parameter
        require_int(name, inputs[name], minimum=2, maximum=N_MAX)
    grid = log_n_grid(inputs["n_min"], inputs["n_max"], inputs["points"])
    checked = validate_shuffle_inputs(inputs["eps0"], 2, inputs["delta"], k=inputs["k"])
    target = _writable(out, PLOT_FORMATS)  # checked before the computation
    with progress_bar() as progress:
        task = progress.add_task("evaluating shuffle bounds", total=len(grid))
        curves = shuffle_curves(checked.eps0, checked.delta, grid, k=checked.k,
                                progress=lambda n: progress.advance(task))
    randomizer = "any eps0-LDP randomizer" if checked.k is None else f"{checked.k}-ary randomized response"
    title = f"shuffle amplification: eps0 = {inputs['eps0']}, delta = {inputs['delta']}, {randomizer}"
    try:
        written = plot_shuffle_curves(curves, target, title=title)
    except OSError as error:  # e.g. the disk filled up while writing
        raise InvalidParameterError(f"--out could not be written: {error.strerror or error}. Got {out!r}") from None
    payload = {"family": family,
               "inputs": {"eps0": inputs["eps0"], "delta": inputs["delta"], "k": checked.k,
                          "n_min": grid[0], "n_max": grid[-1], "points": require_int("points", inputs["points"])},
               "out": str(written),
               "series": {name: [[n, eps] for n, eps in points] for name, points in curves.items()}}
    emit(as_json, payload, _summary_table(escape(f"plot shuffle -> {written}"), curves))


def _plot_composition(specs: tuple[str, ...], params: tuple[str, ...], out: str | None, as_json: bool) -> None:
    from dpcert.accountant.pld_accountant import compose
    from dpcert.accountant.pld_curves import PLOT_FORMATS, default_eps_grid, plot_privacy_curve, privacy_curve

    raw = parse_params(params)
    unknown = sorted(set(raw) - set(_COMPOSITION_HELP))
    if unknown:
        raise InvalidParameterError(f"--param {unknown[0]} is not a parameter of plot composition; allowed: "
                                    + ", ".join(_COMPOSITION_HELP))
    if not specs:
        raise InvalidParameterError("plot composition needs at least one SPEC (as in dpcert compose)")
    if out is None:
        raise InvalidParameterError("--out is required: the image file to write (.png, .pdf or .svg)")
    points = require_int("points", raw.get("points", "40"), minimum=2, maximum=400)
    composition = compose(list(specs), neighbours=raw.get("neighbours", "add-remove"))
    target = _writable(out, PLOT_FORMATS)
    if "eps_max" in raw:
        top = float(require_real("eps_max", raw["eps_max"], low=0, high=10**4, low_open=True))
        grid = [top * i / (points - 1) for i in range(points)]
    else:
        grid = default_eps_grid(composition, points=points)
    curve = privacy_curve(composition, grid)
    try:
        written = plot_privacy_curve(curve, target, title=f"privacy curve of {composition.label}")
    except OSError as error:
        raise InvalidParameterError(f"--out could not be written: {error.strerror or error}. Got {out!r}") from None
    table = Table(title=escape(f"plot composition -> {written}"))
    for column in ("eps", "delta lower", "delta upper"):
        table.add_column(column)
    for p in curve[:: max(1, len(curve) // 10)]:
        table.add_row(f"{p.eps:.6g}", f"{p.lower:.6g}", f"{p.upper:.6g}")
    emit(as_json, {"family": "composition", "specs": list(specs), "out": str(written),
                   "points": [[p.eps, p.lower, p.upper] for p in curve]}, table)
