"""Shared pieces of the command line: parameter parsing, options, JSON or table output, progress bars."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from mechanisms.parameters import InvalidParameterError

__all__ = ["console", "emit", "json_option", "param_option", "parse_params", "progress_bar"]

console = Console(width=None if sys.stdout.isatty() else 120)
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


def emit(as_json: bool, payload: dict[str, object], table: Table | str) -> None:
    """One JSON object, or the table."""
    if as_json:
        click.echo(json.dumps(payload, indent=2, default=str))
    else:
        console.print(table)


def progress_bar() -> Progress:
    """A progress bar on stderr, shown only when stderr is a terminal."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=_errors, transient=True, disable=not _errors.is_terminal)
