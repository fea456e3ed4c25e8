"""The ``dpcert`` command line.

Every subcommand prints a readable table, or one JSON object with ``--json``. Exit codes: 0 the claim
holds or the command succeeded, 1 the claim is refuted, 2 bad input (one line, no traceback; a usage error
too, even a bare ``dpcert``: ``dpcert: error: missing command (try dpcert --help)``),
3 undecided (also when a number cannot be evaluated with certainty: one line, or ``{"verdict": "unknown",
"undecided": ...}`` with ``--json``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click

from dpcert.mechanisms.exact_arithmetic import UndecidedSignError
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.cli.audit import audit_command
from dpcert.proofs.cli.bounds import bound_command, calibrate_command
from dpcert.proofs.cli.claims import claims_command
from dpcert.proofs.cli.compose import compose_command
from dpcert.proofs.cli.plot import plot_command
from dpcert.proofs.cli.report import report_command
from dpcert.proofs.cli.simulate import simulate_command
from dpcert.proofs.cli.verify import epsilon_command, mechanisms_command, verify_command

__all__ = ["EXIT_BAD_INPUT", "cli", "main"]

EXIT_BAD_INPUT = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, no_args_is_help=False)
@click.version_option(package_name="dpcert")
def cli() -> None:
    """dpcert: decide whether a differential-privacy claim is true."""


for _command in (mechanisms_command, epsilon_command, verify_command, claims_command, bound_command,
                 calibrate_command, compose_command, simulate_command, plot_command, audit_command, report_command):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: run the command line, turning bad input into one line on stderr and exit code 2."""
    args = list(argv) if argv is not None else sys.argv[1:]
    try:
        code = cli.main(args=args, prog_name="dpcert", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)  # click returns a raised Exit's code
    except InvalidParameterError as error:
        click.echo(f"dpcert: error: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except UndecidedSignError as error:  # a number no certified evaluation could place: say so, exit 3
        if "--json" in args:
            click.echo(json.dumps({"verdict": Verdict.UNKNOWN.value, "undecided": str(error)}))
        else:
            click.echo(f"dpcert: undecided: {error}", err=True)
        sys.exit(Verdict.UNKNOWN.exit_code)
    except click.exceptions.Abort:
        click.echo("dpcert: aborted", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as error:
        click.echo(f"dpcert: error: {_usage_message(error, args)}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)


def _usage_message(error: click.UsageError, args: list[str]) -> str:
    """click's usage error in one line (it lists a missing argument's choices on several), in the house style
    (lower case, no final full stop), with where the usage is: ``missing command (try dpcert --help)``."""
    message = " ".join(error.format_message().split()).rstrip(".")
    if error.ctx is not None:
        where = error.ctx.command_path
    else:  # the parser's errors (an option without its value) carry no context: the subcommand typed, if any
        where = f"dpcert {args[0]}" if args and args[0] in cli.commands else "dpcert"
    return f"{message[:1].lower()}{message[1:]} (try {where} --help)"
