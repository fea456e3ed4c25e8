"""Shared pieces of the command line: parameter parsing, options, JSON or table output, progress bars."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["console", "emit", "fields_table", "json_option", "param_option", "parse_params", "progress_bar", "shown",
           "strict_json"]

console = Console(width=None if sys.stdout.isatty() else 100)
_errors = Console(stderr=True)

param_option = click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
                            help="a parameter (repeat for each); exact values: 1, 0.5, 3/2, log(3), 1e12")
json_option = click.option("--json", "as_json", is_flag=True, help="print one JSON object")


def parse_params(items: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings as a dict; a malformed or repeated name is bad input."""
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise InvalidParameterError(f"--param must look like NAME=VALUE. Got {item!r}")
        if name in params:
            raise InvalidParameterError(f"--param {name} is given twice")
        params[name] = value.strip()
    return params


def _python_scalar(value: object) -> object:
    """A numpy scalar as the Python scalar it holds (its ``str`` when it has none); anything else unchanged."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            return value.item()
        except (TypeError, ValueError):
            return str(value)
    return value


def _finite(value: object, where: str) -> object:
    """``value`` with every infinite float written as the string "inf" / "-inf" (JSON has no infinity)."""
    value = _python_scalar(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError(f"{where} is NaN: an internal error, not an answer")
        return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, Mapping):
        return {str(k): _finite(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return value


def strict_json(payload: Mapping[str, object]) -> str:
    """``payload`` as strict JSON (RFC 8259): no NaN, no Infinity.

    An infinite float (a bound above the float range, rounded up) becomes the string ``"inf"``; the
    exact value stays in the payload's own ``value`` field where there is one. A NaN is never an answer
    and raises. Objects JSON does not know (sympy numbers, paths) are written as their ``str``.
    """
    return json.dumps(_finite(payload, "payload"), indent=2, default=str, allow_nan=False)


def shown(value: object, *, decimals: int | None = None) -> str:
    """``value`` as a table shows it to a person (``--json`` keeps it exact): a float to 4 significant digits, or
    to ``decimals`` places (seconds: 2); a bool as yes or no; a mapping as ``name=value, ...``; a list or tuple
    comma-separated; anything else (integers, exact sympy numbers, text) as its ``str``."""
    value = _python_scalar(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{decimals}f}" if decimals is not None else f"{value:.4g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{name}={shown(v, decimals=decimals)}" for name, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(v, decimals=decimals) for v in value)
    return str(value)


def fields_table(title: str, fields: Iterable[tuple[str, str]]) -> Table:
    """A two-column table of (field, value) rows, the values already :func:`shown` (printed as text, not markup)."""
    table = Table(title=title, show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for field, value in fields:
        table.add_row(field, escape(value))
    return table


def emit(as_json: bool, payload: dict[str, object], table: Table | str) -> None:
    """One strict JSON object (see :func:`strict_json`), or the table."""
    if as_json:
        click.echo(strict_json(payload))
    else:
        console.print(table)


def progress_bar() -> Progress:
    """A progress bar on stderr, shown only when stderr is a terminal."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=_errors, transient=True, disable=not _errors.is_terminal)
