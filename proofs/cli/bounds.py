"""Bounds from the command line: ``bound FAMILY`` and ``calibrate FAMILY``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import click
from rich.markup import escape
from rich.table import Table

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.cli.output import emit, json_option, param_option, parse_params

__all__ = ["bound_command", "calibrate_command"]


def _results_table(title: str, results: Sequence) -> Table:
    table = Table(title=title)
    for column in ("name", "value", "bounds", "units", "valid", "source", "note"):
        table.add_column(column, overflow="fold")
    for r in results:
        valid = "[green]yes[/green]" if r.valid else "[red]no[/red]"
        table.add_row(r.name, r.display(), r.bounds, r.units, valid, escape(r.source), escape(r.note))
    return table


def _evaluate(kind: str, families: Mapping, family: str, params: Sequence[str], method: str | None,
              as_json: bool) -> None:
    if family not in families:
        raise InvalidParameterError(f"{kind} family must be one of {', '.join(families)}. Got {family!r}")
    entry = families[family]
    raw = parse_params(params)
    accepts_method = any(p.name == "method" for p in entry.parameters)
    if method is not None and accepts_method:
        raw.setdefault("method", method)
    results = entry.evaluate(raw)
    if method is not None and not accepts_method:
        names = [r.name for r in results]
        results = [r for r in results if r.name == method]
        if not results:
            raise InvalidParameterError(f"--method must be one of {', '.join(names)}. Got {method!r}")
    payload = {"family": family, "inputs": raw, "results": [r.as_json() for r in results]}
    emit(as_json, payload, _results_table(f"{kind} {family}", results))


_method_option = click.option("--method", default=None, help="only the result with this name")


@click.command("bound")
@click.argument("family")
@param_option
@_method_option
@json_option
def bound_command(family: str, params: tuple[str, ...], method: str | None, as_json: bool) -> None:
    """Evaluate every bound of FAMILY: ldp-mutual-information, fano, maxsense-users, shuffle, composition,
    emd-discrete, group-privacy, p-rec, privact.

    Each result carries its source (paper and theorem), the exact value and its enclosure (floats rounded
    outward), what the value bounds (upper, lower or exact, with respect to the true quantity), upper and
    lower (certified bounds on the true quantity, only where they exist), its units, and whether the
    theorem's conditions hold at these inputs (valid).
    """
    from dpcert.accountant.catalog import BOUND_FAMILIES

    _evaluate("bound", BOUND_FAMILIES, family, params, method, as_json)


@click.command("calibrate")
@click.argument("family")
@param_option
@_method_option
@json_option
def calibrate_command(family: str, params: tuple[str, ...], method: str | None, as_json: bool) -> None:
    """Find the largest parameter meeting a target, one-sidedly (never overshooting): FAMILY = shuffle."""
    from dpcert.accountant.catalog import CALIBRATIONS

    _evaluate("calibrate", CALIBRATIONS, family, params, method, as_json)
