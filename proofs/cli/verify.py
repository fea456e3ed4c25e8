"""Deciding mechanisms' guarantees from the command line: ``mechanisms``, ``epsilon`` and ``verify``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
import sympy
from rich.markup import escape
from rich.table import Table

from dpcert.mechanisms.base import FiniteMechanism, Mechanism
from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import (
    EPS_RANGE,
    InvalidParameterError,
    UndecidedSignError,
    range_text,
    require_eps,
    require_unit_interval,
)
from dpcert.proofs.certificate import Certificate, Verdict, shown_decimal
from dpcert.proofs.cli.output import emit, json_option, param_option, parse_params
from dpcert.proofs.guarantees import ApproxDP, MetricDP, PureDP

__all__ = ["epsilon_command", "mechanisms_command", "verify_command"]


def _mechanism(name: str, params: Sequence[str]) -> Mechanism:
    """The catalogued mechanism with an exact law: a sampler of the zoo is audited, not checked."""
    if name in CATALOG and CATALOG[name].sampler_only:
        raise InvalidParameterError(f"MECHANISM {name} is a sampler without an exact law, which dpcert decides only "
                                    f"statistically: dpcert audit {name} --eps EPS --samples N")
    return make_mechanism(name, raw=parse_params(params))


def _bounded(value: sympy.Expr, digits: int = 12, *, upward: bool = True) -> str:
    """``<= x`` (or ``>= x``) with x rounded outward, or ``about x`` for astronomically large or small values."""
    shown = shown_decimal(value, digits=digits, upward=upward)
    return shown if shown.startswith("about") else ("<= " if upward else ">= ") + shown


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
        table.add_row("tightest eps", f"{certificate.epsilon}  ({_bounded(certificate.epsilon)})")
    if certificate.delta is not None:
        table.add_row("delta(eps)", f"{certificate.delta}  ({_bounded(certificate.delta)})")
    if certificate.witness is not None:
        w = certificate.witness
        table.add_row("witness", escape(f"x={w.x!r}, x'={w.x_prime!r}, output={_short(w.output)}"))
        table.add_row("P(output | x)", f"{w.p}  ({_bounded(w.p, 8, upward=False)})")
        table.add_row("P(output | x')", f"{w.p_prime}  ({_bounded(w.p_prime, 8)})")
    table.add_row("evidence", escape(certificate.evidence))
    return table


def _epsilon_table(certificate: Certificate) -> Table:
    table = Table(title=f"tightest eps of {certificate.mechanism.name}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    table.add_row("mechanism", escape(certificate.mechanism.describe()))
    table.add_row("neighbours", escape(certificate.mechanism.neighbours.description))
    if certificate.epsilon is None or certificate.verdict is Verdict.UNKNOWN:
        table.add_row("tightest eps", "[yellow]undecided[/yellow]")
    else:
        table.add_row("tightest eps", escape(str(certificate.epsilon)))
        table.add_row("rounded up", _bounded(certificate.epsilon))
    table.add_row("method", certificate.method)
    table.add_row("evidence", escape(certificate.evidence))
    return table


def _short(output: object) -> str:
    if isinstance(output, frozenset):
        items = sorted(output, key=str)
        shown = ", ".join(map(repr, items[:6])) + (", ..." if len(items) > 6 else "")
        return f"{{{shown}}} ({len(items)} outputs)"
    return repr(output)


def _rechecked(certificate: Certificate) -> Certificate:
    """``certificate`` if its ``recheck()`` confirms it, else an UNKNOWN one saying so (and a line on stderr).

    The command line prints no verdict that did not pass its own recheck: a certificate whose recheck
    fails (or cannot decide) means a checker is inconsistent, so the honest answer is "undecided", exit 3.
    """
    try:
        confirmed = certificate.recheck()
    except (UndecidedSignError, InvalidParameterError) as error:
        confirmed, reason = False, f"the recheck could not decide ({error})"
    else:
        reason = "its recheck failed"
    if confirmed:
        return certificate
    message = (f"internal inconsistency: the {certificate.method} checker's {certificate.verdict.value} certificate "
               f"for {certificate.guarantee} did not pass its recheck; the verdict is withheld")
    click.echo(f"dpcert: warning: {message}", err=True)
    return Certificate(certificate.mechanism, certificate.guarantee, Verdict.UNKNOWN, certificate.method,
                       f"{message} ({reason}; it said: {certificate.evidence})")


def _undecided(mechanism: Mechanism, guarantee: PureDP | ApproxDP | MetricDP, method: str,
               error: UndecidedSignError) -> Certificate:
    return Certificate(mechanism, guarantee, Verdict.UNKNOWN, method, f"undecided: {error}")


@click.command("mechanisms")
@json_option
def mechanisms_command(as_json: bool) -> None:
    """List the registered mechanisms, their parameters and the range dpcert answers for each."""
    payload = {"mechanisms": [
        {"name": e.name, "summary": e.summary, "negative_control": e.negative_control, "sampler_only": e.sampler_only,
         "parameters": [{"name": p.name, "help": p.help, "default": p.default} for p in e.parameters]}
        for e in CATALOG.values()]}
    table = Table(title="mechanisms")
    for column in ("name", "parameters", "what it is"):
        table.add_column(column, overflow="fold")
    for e in CATALOG.values():
        params = "\n".join(f"{p.name}{'' if p.default is None else '=' + p.default}: {p.help}" for p in e.parameters)
        tags = ((" [negative control]" if e.negative_control else "")
                + (" [sampler: dpcert audit]" if e.sampler_only else ""))
        table.add_row(e.name, escape(params), escape(e.summary + tags))
    emit(as_json, payload, table)


@click.command("epsilon")
@click.argument("mechanism")
@param_option
@click.option("--symbolic", is_flag=True,
              help="use the symbolic checker (closed form, any size) instead of enumerating a finite mechanism")
@json_option
def epsilon_command(mechanism: str, params: tuple[str, ...], symbolic: bool, as_json: bool) -> None:
    """Print the tightest eps of MECHANISM (exact form and a decimal rounded up).

    Finite mechanisms are enumerated exactly (up to the size each states in `dpcert mechanisms`);
    --symbolic decides randomized response, k-rr, unary encoding and the geometric mechanism at any size.
    The printed certificate has passed its recheck (the bound holds at every neighbouring pair and is
    attained), or the answer is undecided (exit 3).
    """
    mech = _mechanism(mechanism, params)
    if isinstance(mech, FiniteMechanism) and not symbolic:
        from dpcert.proofs.exact import tightest_epsilon

        try:
            certificate = tightest_epsilon(mech)
        except UndecidedSignError as error:
            certificate = _undecided(mech, PureDP(1), "exact", error)
    else:
        from dpcert.proofs.symbolic import tightest_symbolic

        certificate = tightest_symbolic(mech)
    certificate = _rechecked(certificate)
    emit(as_json, certificate.as_json(), "" if as_json else _epsilon_table(certificate))
    sys.exit(Verdict.UNKNOWN.exit_code if certificate.verdict is Verdict.UNKNOWN else 0)


@click.command("verify")
@click.argument("mechanism")
@param_option
@click.option("--eps", required=True, help=f"claimed eps, exact, in {range_text(*EPS_RANGE)}")
@click.option("--delta", default=None, help="claimed delta in [0, 1) for (eps, delta)-DP")
@click.option("--symbolic", is_flag=True, help="decide with the symbolic checker (closed form, any size)")
@click.option("--metric", type=click.Choice(["abs"]), default=None,
              help="metric DP with d(x, x') = |x - x'| instead of the mechanism's neighbours")
@json_option
def verify_command(mechanism: str, params: tuple[str, ...], eps: str, delta: str | None, symbolic: bool,
                   metric: str | None, as_json: bool) -> None:
    """Decide whether MECHANISM satisfies the claimed guarantee.

    A mechanism whose neighbour relation is a metric (e.g. gkrr) is checked for metric DP, ratio <= exp(eps d).
    The printed verdict has passed the certificate's recheck, or the answer is undecided (exit 3).
    """
    from dpcert.proofs.claim import check

    claimed_eps = require_eps("--eps", eps)
    claimed_delta = None if delta is None else require_unit_interval("--delta", delta)
    mech = _mechanism(mechanism, params)
    metric_dp = metric is not None or isinstance(mech.neighbours, Metric)
    if metric_dp and delta is not None:
        raise InvalidParameterError("--delta cannot be combined with metric DP (--metric, or a mechanism whose "
                                    f"neighbours are a metric: {mech.neighbours.description})")
    relation = Metric(lambda a, b: abs(a - b), "d(x, x') = |x - x'|") if metric else None
    guarantee = (MetricDP(claimed_eps) if metric_dp
                 else (ApproxDP(claimed_eps, claimed_delta) if delta is not None else PureDP(claimed_eps)))
    certificate = _rechecked(check(mech, guarantee, symbolic=symbolic, relation=relation))
    emit(as_json, certificate.as_json(), "" if as_json else _certificate_table(certificate, f"verify {mech.name}"))
    sys.exit(certificate.verdict.exit_code)
