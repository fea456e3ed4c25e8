"""Running the seed papers' systems from the command line: ``simulate ALGORITHM`` (the price-of-privacy
recommenders on their lower-bound instance; PRIVACT on a social graph)."""

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


_PRIVACT = ("network", "eps_edge", "iterations_per_node", "data_dir")


@click.command("simulate")
@click.argument("algorithm", type=click.Choice(sorted([*_ALGORITHMS, "privact"])))
@param_option
@click.option("--seed", default=0, show_default=True, help="seed of the run")
@json_option
def simulate_command(algorithm: str, params: tuple[str, ...], seed: int, as_json: bool) -> None:
    """Run ALGORITHM on the paper's lower-bound instance and report the item-cluster recovery.

    Parameters: N (items), U (users), w (ratings per user), eps, sampling (subset | independent;
    default subset); maxsense: theta (default 1), sensing (explicit | collapsed); multi-maxsense: Q
    (default ceil(eps)), block_size (default N // w); pairwise-preference: rule.

    privact: network (lastfm | delicious | douban; a random graph of the same size when the data folder is
    absent), eps_edge (per-edge eps, comma-separated for several), iterations_per_node (default 1000),
    data_dir; reports the private trees' quality against the non-private tree (the paper's Table 2).
    """
    if algorithm == "privact":
        _simulate_privact(parse_params(params), seed, as_json)
        return
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


def _simulate_privact(raw: dict[str, str], seed: int, as_json: bool) -> None:
    import numpy as np

    from mechanisms.privact import compare_utility, social_graph_or_fallback

    unknown = sorted(set(raw) - set(_PRIVACT))
    if unknown:
        raise InvalidParameterError(f"simulate privact has no parameter {unknown[0]!r}; its parameters are "
                                    f"{', '.join(_PRIVACT)}")
    for name in ("network", "eps_edge"):
        if name not in raw:
            raise InvalidParameterError(f"simulate privact needs --param {name}=VALUE")
    from mechanisms.privact import TABLE1

    if raw["network"] not in TABLE1:
        raise InvalidParameterError(f"network must be one of {', '.join(TABLE1)}. Got {raw['network']!r}")
    per_node = require_int("iterations_per_node", raw.get("iterations_per_node", 1000), minimum=0)
    graph = social_graph_or_fallback(raw["network"], raw.get("data_dir"), rng=seed)
    eps_values = [eps.strip() for eps in raw["eps_edge"].split(",")]
    with progress_bar() as bar:
        bar.add_task(f"PRIVACT on {graph.name} (n = {graph.n})", total=None)
        result = compare_utility(graph, eps_values, np.random.default_rng(seed), iterations_per_node=per_node)
    payload = {"network": raw["network"], "source": graph.source, "n": graph.n, "edges": graph.edge_count,
               "K": result.K, "iterations_per_node": per_node, "seed": seed,
               "nonprivate_relative_utility": result.relative_utility,
               "private": [{"eps_edge": str(r.eps_edge), "eps_user": str(r.eps_user),
                            "relative_utility": r.relative_utility, "loss": r.loss} for r in result.private]}
    table = Table(title=f"simulate privact: {graph.source}, n = {graph.n}, K = {result.K}")
    for column in ("tree", "eps per edge", "eps per user", "Q_D / rho", "loss vs non-private"):
        table.add_column(column)
    table.add_row("non-private", "-", "-", f"{result.relative_utility:.3f}", "-")
    for r in result.private:
        table.add_row("PRIVACT", str(r.eps_edge), str(r.eps_user), f"{r.relative_utility:.3f}", f"{100 * r.loss:.2f} %")
    emit(as_json, payload, table)
