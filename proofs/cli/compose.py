"""``dpcert compose SPEC ... (--delta D | --eps E)``: certified numerical composition, as [lower, upper]."""

from __future__ import annotations

import click
from rich.markup import escape
from rich.table import Table

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import InvalidParameterError, require_real
from dpcert.proofs.cli.output import emit, json_option

__all__ = ["compose_command"]


@click.command("compose")
@click.argument("specs", nargs=-1, required=True, metavar="SPEC [SPEC ...]")
@click.option("--delta", default=None, help="target delta in [10^-300, 1): report eps(delta)")
@click.option("--eps", default=None, help="target eps in [0, 10^4]: report delta(eps)")
@click.option("--neighbours", type=click.Choice(["add-remove", "substitute"]), default="add-remove",
              show_default=True, help="add-remove: q is a Poisson rate; substitute: q = m/n sampled without replacement")
@click.option("--gap", default="1e-3", show_default=True,
              help="relative gap the grid aims at, in [1e-6, 0.5] (smaller: finer grid, slower)")
@click.option("--target-eps", default=None,
              help="calibrate: the '?' in a SPEC (sigma=?, b=?, q=? or *?) becomes the least noise or the largest "
                   "rate or count whose certified eps(--delta) is at most this")
@click.option("--exact", is_flag=True, help="also the closed form where one exists (Gaussians, randomized response)")
@click.option("--rdp", is_flag=True, help="also the Renyi-DP accountant's bound (an upper bound only; Gaussian, "
                                          "subsampled Gaussian, Laplace, randomized response, finite mechanisms)")
@json_option
def compose_command(specs: tuple[str, ...], delta: str | None, eps: str | None, neighbours: str, gap: str,
                    target_eps: str | None, exact: bool, rdp: bool, as_json: bool) -> None:
    """Compose mechanisms and report eps(delta) or delta(eps) as a certified enclosure [lower, upper].

    A SPEC is NAME:param=value,...[*count], e.g. 'gaussian:sigma=0.8,q=0.005*1000' 'laplace:b=10*20'.
    Names: gaussian (sigma, sensitivity), laplace (b or eps, sensitivity), discrete-laplace (b, sensitivity),
    discrete-gaussian (sigma, sensitivity), randomized-response (eps), k-rr (k, eps), approximate-dp (eps,
    delta), shuffle (one shuffled round: eps0, n, delta, and k or randomizer as for `dpcert bound shuffle`;
    with --neighbours substitute, no q), or a finite mechanism of `dpcert mechanisms` (pair=i/j picks its
    inputs); the others take q, the sampling rate. The upper end is a certified upper bound on the true value, the lower end a certified
    lower bound.
    """
    from dpcert.accountant.pld_accountant import compose

    if (delta is None) == (eps is None):
        raise InvalidParameterError("compose needs exactly one of --delta D or --eps E")
    if target_eps is not None or any("?" in s for s in specs):
        _calibrate(specs, delta, target_eps, neighbours, as_json)
        return
    composition = compose(list(specs), neighbours=neighbours)
    result = composition.epsilon(delta, gap=gap) if delta is not None else composition.delta(eps, gap=gap)
    rows = [result]
    if exact:
        closed = composition.exact(delta=delta, eps=eps)
        if closed is not None:
            rows.append(closed)
    if rdp:
        rows.append(_rdp_row(specs, neighbours, delta, eps))
    lower, upper = (result.lower, result.upper) if result.valid else (None, None)
    key = "eps" if delta is not None else "delta"
    payload = {"specs": list(specs), "neighbours": neighbours, "target": {"delta": delta, "eps": eps},
               f"{key}_upper": upper, f"{key}_lower": lower, "valid": result.valid, "method": result.name,
               "note": result.note, "results": [r.as_json() for r in rows]}
    table = Table(title=f"compose {' '.join(specs)}")
    for column in ("method", "lower", "upper", "gap", "note"):
        table.add_column(column, overflow="fold")
    for r in rows:
        low, high = (r.lower, r.upper) if r.valid else (None, None)
        gap = "n/a" if low is None or high is None else f"{high - low:.3g}"
        table.add_row(r.name, "n/a" if low is None else f"{low:.10g}", "n/a" if high is None else f"{high:.10g}",
                      gap, escape(r.note))
    emit(as_json, payload, table)


def _rdp_row(specs: tuple[str, ...], neighbours: str, delta: str | None, eps: str | None) -> BoundResult:
    from dpcert.accountant.rdp import SOURCES
    from dpcert.accountant.rdp_spec import rdp_curve

    curve, reason = rdp_curve(specs, neighbours=neighbours)
    if curve is None:
        return BoundResult("rdp", SOURCES["conversion"], None, "eps" if delta is not None else "probability", False,
                           f"not offered: {reason}")
    return curve.epsilon(delta) if delta is not None else curve.delta(eps)


def _calibrate(specs: tuple[str, ...], delta: str | None, target_eps: str | None, neighbours: str,
               as_json: bool) -> None:
    from dpcert.accountant.pld_calibration import calibrate

    if delta is None or target_eps is None:
        raise InvalidParameterError(f"calibration needs --delta D, --target-eps E and one '?' in a SPEC. Got "
                                    f"--target-eps {target_eps} with SPECs {' '.join(specs)!r}")
    require_real("target-eps", target_eps, low=0, high=10**4, low_open=True)  # the range calibrate() answers
    try:
        found = calibrate(list(specs), target_eps, delta, neighbours=neighbours)
    except InvalidParameterError as error:  # the accountant's target_eps is this command's --target-eps
        raise InvalidParameterError(str(error).replace("target_eps", f"--target-eps {target_eps}", 1)) from error
    table = Table(title=f"calibrate {' '.join(specs)}: eps(delta = {delta}) <= {target_eps}")
    for column in ("parameter", "value", "certified eps", "next value (fails)", "evaluations"):
        table.add_column(column, overflow="fold")
    table.add_row(found.parameter, found.value, found.result.display(), found.infeasible or "none in range",
                  str(found.evaluations))
    emit(as_json, {"specs": list(specs), "delta": delta, "target_eps": target_eps, **found.as_json()}, table)
