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
_PREC = ("m", "T", "P", "others", "D", "R", "hostile", "runs")


@click.command("simulate")
@click.argument("algorithm", type=click.Choice(sorted([*_ALGORITHMS, "privact", "p-rec"])))
@param_option
@click.option("--seed", default=0, show_default=True, help="seed of the run")
@json_option
def simulate_command(algorithm: str, params: tuple[str, ...], seed: int, as_json: bool) -> None:
    """Run one of the seed papers' systems and report what it achieved.

    maxsense, multi-maxsense, pairwise-preference: the price-of-privacy recommenders on the paper's
    lower-bound instance, reporting the item-cluster recovery. Parameters: N (items), U (users), w (ratings per user), eps, sampling (subset | independent;
    default subset); maxsense: theta (default 1), sensing (explicit | collapsed); multi-maxsense: Q
    (default ceil(eps)), block_size (default N // w); pairwise-preference: rule.

    privact: network (lastfm | delicious | douban; a random graph of the same size when the data folder is
    absent), eps_edge (per-edge eps, comma-separated for several), iterations_per_node (default 1000),
    data_dir; reports the private trees' quality against the non-private tree (the paper's Table 2).

    p-rec: m (objects per round), T (rounds), P (peers within distance R), others (other voters), D, R
    (default 0), hostile (true: the others vote for disliked objects; default false), runs (default 200);
    reports the client's mean loss against Theorem 16's bound and the eps of Theorem 17.
    """
    if algorithm in ("privact", "p-rec"):
        {"privact": _simulate_privact, "p-rec": _simulate_prec}[algorithm](parse_params(params), seed, as_json)
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


def _simulate_prec(raw: dict[str, str], seed: int, as_json: bool) -> None:
    import numpy as np

    from accountant.online_recommendation_bounds import eps_upper_prec, loss_upper_prec
    from mechanisms.online_recommendation import PREC, planted_instance

    unknown = sorted(set(raw) - set(_PREC))
    if unknown:
        raise InvalidParameterError(f"simulate p-rec has no parameter {unknown[0]!r}; its parameters are "
                                    f"{', '.join(_PREC)}")
    for name in ("m", "T", "P", "others"):
        if name not in raw:
            raise InvalidParameterError(f"simulate p-rec needs --param {name}=VALUE")
    hostile = raw.get("hostile", "false").lower()
    if hostile not in ("true", "false"):
        raise InvalidParameterError(f"hostile must be true or false. Got {raw['hostile']!r}")
    m, T, P = (require_int(k, raw[k], minimum=lo) for k, lo in (("m", 2), ("T", 2), ("P", 1)))
    others = require_int("others", raw["others"], minimum=0)
    D, R = (require_int(k, raw.get(k, 0), minimum=0, maximum=T) for k in ("D", "R"))
    runs = require_int("runs", raw.get("runs", 200), minimum=2)
    rng = np.random.default_rng(seed)
    algorithm = PREC(m, T, D, R)
    instance = planted_instance(m, T, P=P, D=D, R=R, others=others, hostile=hostile == "true", rng=rng)
    with progress_bar() as bar:
        bar.add_task(f"p-REC, {runs} runs of T = {T} rounds", total=None)
        losses = algorithm.simulate(instance, runs, rng).total_loss
    n = P + others
    bound, eps = loss_upper_prec(m, n, P, R, T), eps_upper_prec(m, T, D, R, P)
    payload = {"m": m, "T": T, "P": P, "n": n, "D": D, "R": R, "hostile": hostile == "true", "runs": runs,
               "seed": seed, "mean_loss": float(losses.mean()),
               "standard_error": float(losses.std(ddof=1) / np.sqrt(runs)), "max_loss": int(losses.max()),
               "theorem16_loss_bound": bound.as_json(), "theorem17_eps": eps.as_json()}
    table = Table(title=f"simulate p-rec: m = {m}, T = {T}, n = {n} voters ({P} peers)", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    table.add_row("mean loss", f"{payload['mean_loss']:.3f} ± {payload['standard_error']:.3f} (max {payload['max_loss']})")
    table.add_row("Theorem 16 loss bound", f"{bound.upper:.4g}" if bound.valid else f"not valid: {bound.note}")
    table.add_row("Theorem 17 eps", f"{eps.upper:.4g}" if eps.valid else f"not valid: {eps.note}")
    emit(as_json, payload, table)
