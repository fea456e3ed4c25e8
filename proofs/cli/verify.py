"""Deciding claims from the command line: ``mechanisms``, ``epsilon``, ``verify`` and ``claims``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
from rich.markup import escape
from rich.table import Table

from mechanisms.base import FiniteMechanism, Mechanism
from mechanisms.catalog import CATALOG, make_mechanism
from mechanisms.neighbours import Metric
from mechanisms.parameters import InvalidParameterError
from proofs.certificate import Certificate, Verdict
from proofs.cli.output import console, emit, json_option, param_option, parse_params, progress_bar
from proofs.guarantees import ApproxDP, MetricDP, PureDP
from proofs.rounding import decimal_string

__all__ = ["claims_command", "epsilon_command", "mechanisms_command", "verify_command"]


def _mechanism(name: str, params: Sequence[str]) -> Mechanism:
    return make_mechanism(name, parse_params(params))


def _certificate_table(certificate: Certificate, title: str) -> Table:
    table = Table(title=title, show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    table.add_row("mechanism", escape(certificate.mechanism.describe()))
    table.add_row("claim", escape(str(certificate.guarantee)))
    colour = certificate.verdict.colour
    table.add_row("verdict", f"[{colour}]{certificate.verdict.value}[/{colour}]")
    table.add_row("method", certificate.method)
    if certificate.epsilon is not None:
        table.add_row("tightest eps", f"{certificate.epsilon}  (<= {decimal_string(certificate.epsilon)})")
    if certificate.delta is not None:
        table.add_row("delta(eps)", f"{certificate.delta}  (<= {decimal_string(certificate.delta)})")
    if certificate.witness is not None:
        w = certificate.witness
        table.add_row("witness", escape(f"x={w.x!r}, x'={w.x_prime!r}, output={_short(w.output)}"))
        table.add_row("P(output | x)", f"{w.p}  (~{decimal_string(w.p, 8, upward=False)})")
        table.add_row("P(output | x')", f"{w.p_prime}  (~{decimal_string(w.p_prime, 8)})")
    table.add_row("evidence", escape(certificate.evidence))
    return table


def _epsilon_table(certificate: Certificate) -> Table:
    table = Table(title=f"tightest eps of {certificate.mechanism.name}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    table.add_row("mechanism", escape(certificate.mechanism.describe()))
    table.add_row("neighbours", escape(certificate.mechanism.neighbours.description))
    if certificate.epsilon is None:
        table.add_row("tightest eps", "[yellow]undecided[/yellow]")
    else:
        table.add_row("tightest eps", escape(str(certificate.epsilon)))
        table.add_row("rounded up", decimal_string(certificate.epsilon))
    table.add_row("method", certificate.method)
    table.add_row("evidence", escape(certificate.evidence))
    return table


def _short(output: object) -> str:
    if isinstance(output, frozenset):
        items = sorted(output, key=str)
        shown = ", ".join(map(repr, items[:6])) + (", ..." if len(items) > 6 else "")
        return f"{{{shown}}} ({len(items)} outputs)"
    return repr(output)


@click.command("mechanisms")
@json_option
def mechanisms_command(as_json: bool) -> None:
    """List the registered mechanisms and their parameters."""
    payload = {"mechanisms": [
        {"name": e.name, "summary": e.summary, "negative_control": e.negative_control,
         "parameters": [{"name": p.name, "help": p.help, "default": p.default} for p in e.parameters]}
        for e in CATALOG.values()]}
    table = Table(title="mechanisms")
    for column in ("name", "parameters", "what it is"):
        table.add_column(column, overflow="fold")
    for e in CATALOG.values():
        params = ", ".join(p.name if p.default is None else f"{p.name}={p.default}" for p in e.parameters)
        table.add_row(e.name, escape(params), escape(e.summary + (" [negative control]" if e.negative_control else "")))
    emit(as_json, payload, table)


@click.command("epsilon")
@click.argument("mechanism")
@param_option
@json_option
def epsilon_command(mechanism: str, params: tuple[str, ...], as_json: bool) -> None:
    """Print the tightest eps of MECHANISM (exact form and a decimal rounded up)."""
    mech = _mechanism(mechanism, params)
    if isinstance(mech, FiniteMechanism):
        from proofs.exact import tightest_epsilon

        certificate = tightest_epsilon(mech)
    else:
        from proofs.symbolic import check_symbolic

        certificate = check_symbolic(mech, PureDP(1))
    emit(as_json, certificate.as_json(), _epsilon_table(certificate))
    sys.exit(Verdict.UNKNOWN.exit_code if certificate.verdict is Verdict.UNKNOWN else 0)


@click.command("verify")
@click.argument("mechanism")
@param_option
@click.option("--eps", required=True, help="claimed eps (exact)")
@click.option("--delta", default=None, help="claimed delta in [0, 1) for (eps, delta)-DP")
@click.option("--symbolic", is_flag=True, help="decide with the symbolic checker (closed form, any size)")
@click.option("--metric", type=click.Choice(["abs"]), default=None,
              help="metric DP with d(x, x') = |x - x'| instead of the mechanism's neighbours")
@json_option
def verify_command(mechanism: str, params: tuple[str, ...], eps: str, delta: str | None, symbolic: bool,
                   metric: str | None, as_json: bool) -> None:
    """Decide whether MECHANISM satisfies the claimed guarantee.

    A mechanism whose neighbour relation is a metric (e.g. gkrr) is checked for metric DP, ratio <= exp(eps d).
    """
    from proofs.claim import check

    mech = _mechanism(mechanism, params)
    metric_dp = metric is not None or isinstance(mech.neighbours, Metric)
    if metric_dp and delta is not None:
        raise InvalidParameterError("--delta cannot be combined with metric DP (--metric, or a mechanism whose "
                                    f"neighbours are a metric: {mech.neighbours.description})")
    relation = Metric(lambda a, b: abs(a - b), "d(x, x') = |x - x'|") if metric else None
    guarantee = MetricDP(eps) if metric_dp else (ApproxDP(eps, delta) if delta is not None else PureDP(eps))
    certificate = check(mech, guarantee, symbolic=symbolic, relation=relation)
    emit(as_json, certificate.as_json(), _certificate_table(certificate, f"verify {mech.name}"))
    sys.exit(certificate.verdict.exit_code)


@click.command("claims")
@click.option("--source", default=None, help="only claims whose source mentions this (e.g. a seed file name)")
@json_option
def claims_command(source: str | None, as_json: bool) -> None:
    """Check every registered claim and print the report.

    Exit 0 when every claim gets the verdict the registry expects (paper errors and negative controls
    are expected to be refuted), 1 otherwise.
    """
    from proofs.registry import claims

    selected = claims(source)
    if not selected:
        raise InvalidParameterError(f"--source matches no registered claim. Got {source!r}")
    results = []
    with progress_bar() as progress:
        task = progress.add_task("checking claims", total=len(selected))
        for claim in selected:
            progress.update(task, description=f"checking {claim.id}")
            outcome = claim.check()
            results.append((claim, outcome))
            progress.advance(task)
    mismatches = [c.id for c, o in results if o.verdict is not c.expected]
    payload = {"claims": [{"id": c.id, "source": c.source, "statement": c.statement, "expected": c.expected.value,
                           **o.as_json()} for c, o in results],
               "summary": {"total": len(results), "as_expected": len(results) - len(mismatches),
                           "unexpected": mismatches}}
    table = Table(title=f"dpcert claims: {len(results) - len(mismatches)} of {len(results)} as expected")
    for column in ("id", "verdict", "method", "source"):
        table.add_column(column, overflow="fold")
    for c, o in results:
        colour = o.verdict.colour
        mark = "" if o.verdict is c.expected else f" (UNEXPECTED: registry expects {c.expected.value})"
        table.add_row(c.id, f"[{colour}]{o.verdict.value}[/{colour}]{mark}", o.method, escape(c.source))
    if as_json:
        emit(True, payload, table)
    else:
        console.print(table)
        for c, o in results:
            console.print(f"[bold]{escape(c.id)}[/bold]: {escape(c.statement)}\n    {escape(o.evidence)}")
    sys.exit(1 if mismatches else 0)


