"""``dpcert audit MECH``: a statistical eps lower bound for a catalogued mechanism (the zoo's samplers too).

Exit codes: 1 when the audit finds a violation of the claim, 0 otherwise (a statistical audit never
proves a claim); bad input raises InvalidParameterError, which ``main`` turns into exit code 2.
"""

from __future__ import annotations

import secrets

import click

from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.mechanisms.parameters import require_eps
from dpcert.proofs.cli.output import emit, fields_table, json_option, param_option, parse_params, progress_bar

__all__ = ["audit_command"]


def _build(name: str, raw: dict[str, str], eps: str):
    """The catalogued mechanism MECH with its --param values; its eps (--param eps, else the claimed --eps)
    must lie in the answerable range of eps (dpcert.mechanisms.parameters.require_eps), which its sampler
    can use."""
    require_eps("eps", raw.get("eps", eps))
    if name in CATALOG and "eps" in {p.name for p in CATALOG[name].parameters}:
        raw = {"eps": eps, **raw}
    return make_mechanism(name, raw=raw)


@click.command("audit")
@click.argument("mechanism")
@param_option
@click.option("--eps", required=True,
              help="claimed eps, in [10^-300, 10^4]; also the mechanism's eps unless --param eps=... is given")
@click.option("--delta", default="0", show_default=True, help="claimed delta in [0, 1)")
@click.option("--samples", required=True,
              help="samples per input (half select events, half confirm: Poisson sizes of that mean), in "
                   "[2, 10^7] and at most 4e7 over all "
                   "inputs; or auto: 10^4, 10^5, 10^6, then the most allowed, until a violation is found, the "
                   "confidence split over the stages")
@click.option("--max-samples", default=None,
              help="with --samples auto: the largest budget per input tried, an integer in [2, 10^7] and at most 4e7 "
                   "over all inputs (default: the most allowed)")
@click.option("--confidence", default=1 - 1e-6, show_default="1 - 1e-6, as dpcert claims", type=float,
              help="confidence in (0, 1) that the eps lower bound holds")
@click.option("--seed", default=None,
              help="seed of the run, an integer >= 0 (default: drawn fresh and printed, so reruns are independent "
                   "and each is reproducible from its output)")
@click.option("--floating-point", is_flag=True,
              help="also try events on the float64 bits of scalar outputs (which doubles are reachable: Mironov's "
                   "attack on float noise)")
@json_option
def audit_command(mechanism: str, params: tuple[str, ...], eps: str, delta: str, samples: str,
                  max_samples: str | None, confidence: float, seed: str | None, floating_point: bool,
                  as_json: bool) -> None:
    """Audit MECHANISM's claimed (eps, delta)-DP statistically: an eps lower bound at a stated confidence.

    Exit 1 when the lower bound exceeds the claimed eps (violation), 0 otherwise.
    """
    from dpcert.proofs.audit import audit

    target = _build(mechanism, parse_params(params), eps)
    if seed is None:
        seed = secrets.randbelow(2 ** 63)
    with progress_bar() as bar:
        task = bar.add_task(f"auditing {mechanism}", total=None)
        result = audit(target, eps=eps, delta=delta, samples=samples, confidence=confidence, seed=seed,
                       floating_point=floating_point, max_samples=max_samples,
                       progress=lambda done, total: bar.update(task, completed=done, total=total))
    rows = [("verdict", result.verdict), ("eps lower bound", f"{result.epsilon_lower_bound:.6g}"),
            ("confidence", str(result.confidence)), ("samples per input", str(result.samples_per_input)),
            ("samples drawn in all", str(result.samples)), ("stages", str(result.stages)),
            ("seed", str(result.seed)),
            ("seconds", f"{result.seconds:.2f}")]
    if result.best_possible_lower_bound is not None:
        rows.append(("best possible at this size", f"{result.best_possible_lower_bound:.6g}"))
    if result.witness is not None:
        w = result.witness
        rows += [("x", str(w.x)), ("x'", str(w.x_prime)), ("event", w.event),
                 ("P(E|x)", f"{w.p:.6g} ({w.k}/{w.n})"), ("P(E|x')", f"{w.p_prime:.6g} ({w.k_prime}/{w.n_prime})"),
                 ("bounds", w.bounds_text())]
    emit(as_json, result.as_json(),
         fields_table(f"audit {mechanism}: claimed eps={result.claimed_eps}, delta={result.claimed_delta}", rows))
    if result.verdict == "violation":
        raise click.exceptions.Exit(1)
