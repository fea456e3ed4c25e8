"""Running the price-of-privacy recommenders from the command line: ``simulate ALGORITHM``."""

from __future__ import annotations

import click
from rich.table import Table

from mechanisms.parameters import InvalidParameterError, require_int
from proofs.cli.output import emit, json_option, param_option, parse_params, progress_bar

__all__ = ["simulate_command"]

_ALGORITHMS = {
    "maxsense": ("theta", "sensing"),
    "multi-maxsense": ("Q", "block_size"),
    "pairwise-preference": ("rule",),
}
_COMMON = ("N", "U", "w", "eps", "sampling")


@click.command("simulate")
@click.argument("algorithm", type=click.Choice(sorted(_ALGORITHMS)))
@param_option
@click.option("--seed", default=0, show_default=True, help="seed of the run")
@json_option
def simulate_command(algorithm: str, params: tuple[str, ...], seed: int, as_json: bool) -> None:
    """Run ALGORITHM on the paper's lower-bound instance and report the item-cluster recovery.

    Parameters: N (items), U (users), w (ratings per user), eps, sampling (subset | independent;
    default subset); maxsense: theta (default 1), sensing (explicit | collapsed); multi-maxsense: Q
    (default ceil(eps)), block_size (default N // w); pairwise-preference: rule.
    """
    from mechanisms.recommenders import (
        BlockModel,
        simulate_maxsense,
        simulate_multi_maxsense,
        simulate_pairwise_preference,
    )

    raw = parse_params(params)
    allowed = _COMMON + _ALGORITHMS[algorithm]
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise InvalidParameterError(f"simulate {algorithm} has no parameter {unknown[0]!r}; "
                                    f"its parameters are {', '.join(allowed)}")
    for name in ("N", "U", "w", "eps"):
        if name not in raw:
            raise InvalidParameterError(f"simulate {algorithm} needs --param {name}=VALUE")
    N = require_int("N", raw.pop("N"), minimum=2)
    U = require_int("U", raw.pop("U"), minimum=1)
    model = BlockModel.lower_bound_instance(N, require_int("w", raw.pop("w"), minimum=1, maximum=N),
                                            sampling=raw.pop("sampling", "subset"))
    eps = raw.pop("eps")
    run = {"maxsense": simulate_maxsense, "multi-maxsense": simulate_multi_maxsense,
           "pairwise-preference": simulate_pairwise_preference}[algorithm]
    for name in ("Q", "block_size"):
        if name in raw:
            raw[name] = require_int(name, raw[name], minimum=1)
    with progress_bar() as bar:
        task = bar.add_task(f"simulating {algorithm}", total=U)
        result = run(model, U, eps, rng=seed, progress=lambda done, total: bar.update(task, completed=done),
                     **raw)
    payload = {**result.as_json(), "parameters": {"N": N, "U": U, "w": model.w, "eps": str(eps), "seed": seed}}
    table = Table(title=f"simulate {algorithm}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in payload.items():
        table.add_row(key, str(value))
    emit(as_json, payload, table)
