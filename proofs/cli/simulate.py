"""Running the seed papers' systems from the command line: ``simulate ALGORITHM`` (the price-of-privacy
recommenders on their lower-bound instance; PRIVACT on a social graph)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable

import click
import sympy
from rich.table import Table

from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int, require_positive
from dpcert.proofs.cli.output import emit, fields_table, json_option, param_option, parse_params, progress_bar, shown

__all__ = ["simulate_command"]

_ALGORITHMS = {
    "maxsense": ("theta", "sensing"),
    "multi-maxsense": ("Q", "block_size"),
    "pairwise-preference": ("rule",),
}
_COMMON = ("N", "U", "w", "eps", "sampling")


_PRIVACT = ("network", "eps_edge", "iterations_per_node", "graph", "data_dir")
_GRAPHS = ("real", "generated")
_RECOMMEND = ("network", "eps_edge", "iterations_per_node", "trees", "splits", "k", "data_dir")
_SEREC = (*_RECOMMEND[:-1], "factors", "epochs", "data_dir")
_PREC = ("m", "T", "P", "others", "D", "R", "hostile", "runs")
_SIMILARITY = ("network", "data_dir")
_LIKELIHOOD = ("network", "eps_edge", "iterations_per_node", "data_dir")

# ---------------------------------------------------------------------------------------------
# Answerable ranges: every simulate parameter's range is decided here, next to its check, so that a
# simulation answers within about a minute anywhere in it (measured on one core; see each budget).
# ---------------------------------------------------------------------------------------------

N_MAX = 10**7
"""Items of the recommender simulations (arrays of N scores and clusters: 80 MB at the most)."""
PAIRWISE_N_MAX = 4000
"""Items of Pairwise-Preference: its spectral step falls back to a dense N x N eigensolver when ARPACK
does not converge (4000 x 4000: 128 MB and seconds)."""
U_MAX = 10**7
"""Users of the recommender simulations."""
CELLS_MAX = 3 * 10**8
"""U times the item slots each user touches (rated items, sensing set, blocks): the simulations process
1e7 to 1e8 such cells per second (measured: MaxSense, N = 10^4, U = 10^6, w = 20, explicit sensing,
5.5e8 cells in 18 s; Multi-MaxSense 2e8 cells in 27 s), so 3e8 is at most about 40 s."""
THETA_MIN = sympy.Rational(1, 10**9)
"""Smallest MaxSense sensing constant: the sensing gaps ~ w/theta must fit 64-bit integers."""

PREC_M_MAX = 10**4
PREC_T_MAX = 2 * 10**5
"""p-REC runs its T rounds in a Python loop (about 0.1 ms a round): 2e5 rounds take about 25 s."""
PREC_VOTERS_MAX = 10**7
PREC_RUNS_MAX = 10**6
PREC_WORK_MAX = 10**9
"""runs x T x (P + others + m): the vectorised rounds process about 3e7 of these a second (measured:
2e9 in 58 s), so 1e9 is at most about 30 s."""
PREC_KEYS_MAX = 5 * 10**7
"""(P + others) x T x m random keys (8 bytes each) drawn to plant the instance: at most 400 MB."""

PRIVACT_EPS_VALUES_MAX = 10
PRIVACT_MOVES_MAX = 15 * 10**5
"""(number of eps_edge values + 1) x n x iterations_per_node GENTREE moves: about 2.6e4 a second
(measured on douban, n = 2848: 5.7e5 moves in 22 s), so 1.5e6 is at most about a minute."""
PRIVACT_DEFAULT_ITERATIONS = 250
"""The default iterations per node (the paper's 1000 take about 3 minutes per tree on douban: pass it
through the Python API, dpcert.mechanisms.privact.compare_utility)."""
LIKELIHOOD_DEFAULT_ITERATIONS = 10
"""privact-likelihood's default proposals per node: Figure 5's three budgets on lastfm in about 5 s."""
RECOMMEND_DEFAULT_ITERATIONS = 20
"""privact-recommend's default iterations per node: a quick demo (3 trees on lastfm in about 3 s); the
paper's 1000 exceed :data:`PRIVACT_MOVES_MAX` and run through benchmarks/bench_privact_recommend.py."""
RECOMMEND_K_MAX = 1000
"""Longest top-k list of privact-recommend (the paper's k = 100)."""
SEREC_WORK_MAX = 10**11
"""splits x (2 + trees) x epochs x factors^2 x users x items of privact-serec: each SERec epoch is two batched
matrix products of that many multiply-adds beside three passes of exponentials over users x items, which do not
shrink with the factors. Measured on lastfm (1843 users x 17238 items, three models): 10 epochs at f = 10 in 19 s
(9.5e10), 5 epochs at f = 5 in 10 s, so the largest run allowed, 41 epochs at f = 5, takes about a minute."""
SEREC_DEFAULTS = {"trees": 1, "splits": 1, "factors": 10, "epochs": 10}
"""privact-serec's defaults: one tree and one split with 10 factors and 10 epochs (19 s on lastfm); the
paper's three trees and five splits run through benchmarks/bench_privact_serec.py."""


def _require_params(raw: dict[str, str], command: str, names: tuple[str, ...], required: tuple[str, ...]) -> None:
    """Refuse a parameter ``simulate command`` does not have, or a missing one of ``required``."""
    unknown = sorted(set(raw) - set(names))
    if unknown:
        raise InvalidParameterError(f"simulate {command} has no parameter {unknown[0]!r}; its parameters are "
                                    f"{', '.join(names)}")
    for name in required:
        if name not in raw:
            raise InvalidParameterError(f"simulate {command} needs --param {name}=VALUE")


def _budget(what: str, names: str, value: int, limit: int, seconds: str) -> None:
    """A joint limit on several parameters (named in ``names``): ``value`` must be at most ``limit``."""
    if value > limit:
        raise InvalidParameterError(f"{names} must be at most {limit:.3g} ({what}: {seconds}). Got {value:.3g}")


def _recommender_inputs(algorithm: str, raw: dict[str, str]) -> tuple[object, int, sympy.Expr, dict[str, object]]:
    """(model, U, eps, keyword arguments) of a recommender simulation, every parameter in its range.

    N in [2, 10^7] (Pairwise-Preference: [2, 4000]), U in [1, 10^7], w in [1, N], eps in the range of
    dpcert.mechanisms.parameters.require_eps, theta in [10^-9, w], Q and block_size in [1, N] with
    Q * block_size <= N, and U times the cells each user touches at most :data:`CELLS_MAX`.
    """
    from dpcert.mechanisms.price_of_privacy import BlockModel
    from dpcert.mechanisms.price_of_privacy.multi_maxsense import multi_maxsense_parameters

    _require_params(raw, algorithm, _COMMON + _ALGORITHMS[algorithm], ("N", "U", "w", "eps"))
    N = require_int("N", raw.pop("N"), minimum=2,
                    maximum=PAIRWISE_N_MAX if algorithm == "pairwise-preference" else N_MAX)
    U = require_int("U", raw.pop("U"), minimum=1, maximum=U_MAX)
    w = require_int("w", raw.pop("w"), minimum=1, maximum=N, maximum_name="N")
    eps = require_eps("eps", raw.pop("eps"))
    model = BlockModel.lower_bound_instance(N, w, sampling=raw.pop("sampling", "subset"))
    per_user = N if 8 * w > N else w  # the dense regime draws N sort keys per user
    if algorithm == "maxsense":
        raw["theta"] = require_positive("theta", raw.get("theta", 1), at_least=THETA_MIN, at_most=w)
        if raw.get("sensing", "explicit") == "explicit":
            mean = N * float(raw["theta"]) / w
            per_user += int(mean + 7 * math.sqrt(mean) + 8)
        names = "U x (rated items w, or N when 8 w > N, + sensing set N theta / w)"
    elif algorithm == "multi-maxsense":
        for name in ("Q", "block_size"):
            if name in raw:
                raw[name] = require_int(name, raw[name], minimum=1, maximum=N)
        if "Q" not in raw:  # the default Q = ceil(eps) blocks must fit: say so in terms of eps
            block_size = raw.get("block_size", max(1, N // w))
            if sympy.ceiling(eps) * block_size > N:
                raise InvalidParameterError(f"eps must be at most N // block_size = {N // block_size} (the default "
                                            f"Q = ceil(eps) disjoint blocks of {block_size} items), or give Q. "
                                            f"Got {eps}")
        _, Q, block_size = multi_maxsense_parameters(model, eps, Q=raw.get("Q"), block_size=raw.get("block_size"))
        per_user += N if 8 * Q * block_size > N else Q * block_size
        names = "U x (rated items w, or N when 8 w > N, + Q x block_size)"
    else:
        names = "U x rated items (w, or N when 8 w > N)"
    _budget("cells simulated", names, U * per_user, CELLS_MAX, "about 40 s")
    return model, U, eps, raw


def _privact_inputs(raw: dict[str, str]) -> tuple[str, list[sympy.Expr], int, bool, str | None]:
    """(network, eps_edge values, iterations_per_node, generated, data_dir): network one of Table 1's, 1 to 10
    eps_edge values each in require_eps's range, iterations_per_node in [0, 10^4] (default
    :data:`PRIVACT_DEFAULT_ITERATIONS`), graph ``real`` (default: the network's edge list, which must be found)
    or ``generated`` (a G(n, m) graph of its size, only when asked for, and then no data_dir), data_dir an existing
    directory when given; (eps_edge values + 1) x n x iterations_per_node at most :data:`PRIVACT_MOVES_MAX` with
    Table 1's n."""
    from dpcert.mechanisms.privact.graphs import edges_file

    _require_params(raw, "privact", _PRIVACT, ("network", "eps_edge"))
    n = _table1_n(raw["network"])
    eps_values = _eps_edges(raw["eps_edge"])
    per_node = require_int("iterations_per_node", raw.get("iterations_per_node", PRIVACT_DEFAULT_ITERATIONS),
                           minimum=0, maximum=10**4)
    graph = raw.get("graph", "real")
    if graph not in _GRAPHS:
        raise InvalidParameterError(f"graph must be one of {', '.join(_GRAPHS)}. Got {graph!r}")
    if graph == "generated" and "data_dir" in raw:  # named data are read or refused, never replaced
        raise InvalidParameterError(f"data_dir is read only with graph=real (graph=generated reads no data). Got "
                                    f"data_dir={raw['data_dir'][:80]!r} with graph=generated")
    # the ranges first, with Table 1's n (the LCC's; a generated stand-in's LCC is no larger), then the data
    _budget("GENTREE moves", "(eps_edge values + 1) x n x iterations_per_node",
            (len(eps_values) + 1) * n * per_node, PRIVACT_MOVES_MAX, "about a minute")
    data_dir = _data_dir(raw.get("data_dir"))
    if graph == "real":
        _require_data(edges_file, raw["network"], data_dir, "edges.txt",
                      hint="; --param graph=generated runs on a random graph of its size")
    return raw["network"], eps_values, per_node, graph == "generated", data_dir


def _table1_n(network: str) -> int:
    """The n of ``network``'s largest component in Table 1 (the budgets' n), refusing a network not in it."""
    from dpcert.mechanisms.privact import TABLE1

    if network not in TABLE1:
        raise InvalidParameterError(f"network must be one of {', '.join(TABLE1)}. Got {network!r}")
    return TABLE1[network][0]


def _eps_edges(text: str) -> list[sympy.Expr]:
    """Comma-separated per-edge budgets: 1 to :data:`PRIVACT_EPS_VALUES_MAX` of them, each in require_eps's range."""
    texts = text.split(",")
    if len(texts) > PRIVACT_EPS_VALUES_MAX:
        raise InvalidParameterError(f"eps_edge must list 1 to {PRIVACT_EPS_VALUES_MAX} values. Got {len(texts)}")
    return [require_eps("eps_edge", part.strip()) for part in texts]


def _require_data(find: Callable[..., object], network: str, data_dir: str | None, files: str, *,
                  hint: str = "") -> None:
    """``find(network, directory=data_dir)`` (a data file lookup), its missing-data error said as the error of
    what named the folder: data_dir, else $DPCERT_SOCIAL_GRAPHS, else data_dir as what to give."""
    from dpcert.mechanisms.privact.graphs import SOCIAL_GRAPHS_ENV, searched_folder

    try:
        find(network, directory=data_dir)
    except InvalidParameterError as error:
        if str(error).startswith(("network", "name")):
            raise
        looked = f"Looked in {searched_folder(directory=data_dir)[:200]!r}"
        if data_dir is not None:
            raise InvalidParameterError(f"data_dir must hold {network}/{files}. {looked}") from None
        if os.environ.get(SOCIAL_GRAPHS_ENV):
            raise InvalidParameterError(f"{SOCIAL_GRAPHS_ENV} must name a folder holding {network}/{files} (or pass "
                                        f"--param data_dir=FOLDER{hint}). {looked}") from None
        raise InvalidParameterError(f"data_dir must hold {network}/{files} (or set {SOCIAL_GRAPHS_ENV}{hint}). "
                                    f"{looked}") from None


def _data_dir(data_dir: str | None) -> str | None:
    """``data_dir`` when it names an existing directory (or is absent; an empty name is not the current one)."""
    from dpcert.mechanisms.privact.graphs import social_graphs_dir

    if data_dir is not None and (not data_dir or social_graphs_dir(directory=data_dir) is None):
        raise InvalidParameterError(f"data_dir must be an existing directory. Got {data_dir[:80]!r}")
    return data_dir


def _recommend_inputs(raw: dict[str, str], seed: int, *, command: str = "privact-recommend",
                      names: tuple[str, ...] = _RECOMMEND, defaults: dict[str, int] | None = None
                      ) -> dict[str, object]:
    """privact-recommend's (and privact-serec's) keyword arguments for cold_start_tables (existing_users_table),
    each in its range: network lastfm or delicious with its ratings in data_dir (or the default data folder),
    eps_edge in require_eps's range, iterations_per_node in [0, 10^4] (default
    :data:`RECOMMEND_DEFAULT_ITERATIONS`), trees in [1, 3], splits in [1, 5] (defaults all of them, or
    ``defaults``), k in [1, :data:`RECOMMEND_K_MAX`]; the caller checks the GENTREE moves against
    :data:`PRIVACT_MOVES_MAX` with the network's n of Table 1."""
    from dpcert.mechanisms.privact.cold_start import TREE_SEEDS
    from dpcert.mechanisms.privact.ratings import SPLIT_SEEDS, ratings_file

    defaults = defaults or {"trees": len(TREE_SEEDS), "splits": len(SPLIT_SEEDS)}
    _require_params(raw, command, names, ("network",))
    eps_edge = require_eps("eps_edge", raw.get("eps_edge", 1))
    per_node = require_int("iterations_per_node", raw.get("iterations_per_node", RECOMMEND_DEFAULT_ITERATIONS),
                           minimum=0, maximum=10**4)
    trees = require_int("trees", raw.get("trees", defaults["trees"]), minimum=1, maximum=len(TREE_SEEDS))
    splits = require_int("splits", raw.get("splits", defaults["splits"]), minimum=1, maximum=len(SPLIT_SEEDS))
    k = require_int("k", raw.get("k", 100), minimum=1, maximum=RECOMMEND_K_MAX)
    data_dir = _data_dir(raw.get("data_dir"))
    _require_data(ratings_file, raw["network"], data_dir, "edges.txt and ratings.txt")
    if seed + max(TREE_SEEDS) >= 2**32:
        raise InvalidParameterError(f"seed must be at most {2**32 - 1 - max(TREE_SEEDS)} (it shifts the tree seeds). "
                                    f"Got {seed}")
    return {"network": raw["network"], "eps_edge": eps_edge, "iterations_per_node": per_node, "k": k,
            "tree_seeds": tuple(s + seed for s in TREE_SEEDS[:trees]), "split_seeds": SPLIT_SEEDS[:splits],
            "directory": data_dir}


def _serec_inputs(raw: dict[str, str], seed: int) -> dict[str, object]:
    """privact-serec's keyword arguments for existing_users_table: privact-recommend's (trees and splits
    default to 1), factors in [1, 200] and epochs in [1, 1000] (defaults :data:`SEREC_DEFAULTS`); the caller
    checks the work against :data:`SEREC_WORK_MAX` once the ratings' size is known."""
    from dpcert.mechanisms.privact.serec import SERecParameters

    arguments = _recommend_inputs(raw, seed, command="privact-serec", names=_SEREC, defaults=SEREC_DEFAULTS)
    factors = require_int("factors", raw.get("factors", SEREC_DEFAULTS["factors"]), minimum=1, maximum=200)
    epochs = require_int("epochs", raw.get("epochs", SEREC_DEFAULTS["epochs"]), minimum=1, maximum=1000)
    return {**arguments, "parameters": SERecParameters(factors=factors, epochs=epochs)}


def _prec_inputs(raw: dict[str, str]) -> tuple[int, int, int, int, int, int, bool, int]:
    """(m, T, P, others, D, R, hostile, runs) of p-REC, each in its range: m in [2, 10^4], T in [2, 2 * 10^5],
    P in [1, 10^7], others in [0, 10^7], D and R in [0, T], runs in [2, 10^6]; with runs x T x (P + others + m)
    at most :data:`PREC_WORK_MAX` and (P + others) x T x m at most :data:`PREC_KEYS_MAX`."""
    _require_params(raw, "p-rec", _PREC, ("m", "T", "P", "others"))
    hostile = raw.get("hostile", "false").lower()
    if hostile not in ("true", "false"):
        raise InvalidParameterError(f"hostile must be true or false. Got {raw['hostile']!r}")
    m = require_int("m", raw["m"], minimum=2, maximum=PREC_M_MAX)
    T = require_int("T", raw["T"], minimum=2, maximum=PREC_T_MAX)
    P = require_int("P", raw["P"], minimum=1, maximum=PREC_VOTERS_MAX)
    others = require_int("others", raw["others"], minimum=0, maximum=PREC_VOTERS_MAX)
    D, R = (require_int(k, raw.get(k, 0), minimum=0, maximum=T) for k in ("D", "R"))
    runs = require_int("runs", raw.get("runs", 200), minimum=2, maximum=PREC_RUNS_MAX)
    _budget("voter-rounds simulated", "runs x T x (P + others + m)", runs * T * (P + others + m), PREC_WORK_MAX,
            "about 30 s")
    _budget("random keys of the planted instance", "(P + others) x T x m", (P + others) * T * m, PREC_KEYS_MAX,
            "400 MB")
    return m, T, P, others, D, R, hostile == "true", runs


def _simulate_privact(raw: dict[str, str], seed: int, as_json: bool) -> None:
    import numpy as np

    from dpcert.mechanisms.privact import compare_utility, generated_like, load_social_graph

    network, eps_values, per_node, generated, data_dir = _privact_inputs(raw)
    # a named network is read or refused (exit 2); a stand-in graph only with --param graph=generated
    graph = generated_like(network, rng=seed) if generated else load_social_graph(network, directory=data_dir)
    with progress_bar() as bar:
        bar.add_task(f"PRIVACT on {graph.name} (n = {graph.n})", total=None)
        result = compare_utility(graph, eps_values, np.random.default_rng(seed), iterations_per_node=per_node)
    payload = {"network": network, "source": graph.source, "n": graph.n, "edges": graph.edge_count,
               "K": result.K, "iterations_per_node": per_node, "seed": seed,
               "nonprivate_relative_utility": result.relative_utility,
               "private": [{"eps_edge": str(r.eps_edge), "eps_user": str(r.eps_user),
                            "relative_utility": r.relative_utility, "loss": r.loss} for r in result.private]}
    shown_source = f"GENERATED {graph.name} graph, not the {network} data" if generated else graph.source
    table = Table(title=f"simulate privact: {shown_source}, n = {graph.n}, K = {result.K}")
    for column in ("tree", "eps per edge", "eps per user", "Q_D / rho", "loss vs non-private"):
        table.add_column(column)
    table.add_row("non-private", "-", "-", f"{result.relative_utility:.3f}", "-")
    for r in result.private:
        table.add_row("PRIVACT", str(r.eps_edge), str(r.eps_user), f"{r.relative_utility:.3f}", f"{100 * r.loss:.2f} %")
    emit(as_json, payload, table)


def _simulate_privact_recommend(raw: dict[str, str], seed: int, as_json: bool) -> None:
    from dpcert.mechanisms.privact.cold_start import STRATEGIES, TABLE4, TABLE5, cold_start_tables

    arguments = _recommend_inputs(raw, seed)
    n = _table1_n(arguments["network"])
    _budget("GENTREE moves", "trees x n x iterations_per_node",
            len(arguments["tree_seeds"]) * n * arguments["iterations_per_node"], PRIVACT_MOVES_MAX, "about a minute")
    with progress_bar() as bar:
        task = bar.add_task(f"PRIVACT trees and cold-start splits on {arguments['network']}",
                            total=len(arguments["tree_seeds"]) + len(arguments["split_seeds"]))
        tables = cold_start_tables(**arguments, progress=lambda done, total: bar.update(task, completed=done))
    payload = {**tables.as_json(), "seed": seed}
    table = Table(title=f"simulate privact-recommend: {tables.network} (n = {tables.n}, {tables.items} items), "
                        f"eps_edge = {tables.eps_edge}, {tables.iterations_per_node} x n GENTREE proposals "
                        f"(the paper: 1000 x n), top-{tables.k}")
    for column in ("table", "strategy", "NDCG", "paper NDCG", "MAP", "paper MAP", "MAP (1/k)"):
        table.add_column(column)
    for label, measured, paper in (("4 (current)", tables.current, TABLE4), ("5 (older)", tables.older, TABLE5)):
        for name in STRATEGIES:
            scores, (ndcg, map_) = measured[name], paper[tables.network][name]
            table.add_row(label, name, f"{scores.ndcg:.3e}", f"{float(ndcg):.3e}", f"{scores.map_code:.3e}",
                          f"{float(map_):.3e}", f"{scores.map_paper:.3e}")
    defined = [r for r in tables.distance_correlations if r == r]
    if defined:
        table.caption = (f"Section 7.4: r(community distance, NDCG) of PRIVACT-CF's targets per run in "
                         f"[{min(defined):.3f}, {max(defined):.3f}], {sum(r < 0 for r in defined)} of {len(defined)} "
                         "negative")
    emit(as_json, payload, table)


def _simulate_privact_serec(raw: dict[str, str], seed: int, as_json: bool) -> None:
    from dpcert.mechanisms.privact.existing_users import SEREC_MODELS, TABLE3, existing_users_table
    from dpcert.mechanisms.privact.ratings import load_ratings

    arguments = _serec_inputs(raw, seed)
    n = _table1_n(arguments["network"])
    trees, splits, p = len(arguments["tree_seeds"]), len(arguments["split_seeds"]), arguments["parameters"]
    _budget("GENTREE moves", "trees x n x iterations_per_node", trees * n * arguments["iterations_per_node"],
            PRIVACT_MOVES_MAX, "about a minute")
    ratings = load_ratings(arguments["network"], directory=arguments["directory"])
    users, items = ratings.n_users, ratings.n_items
    _budget("SERec multiply-adds", "splits x (2 + trees) x epochs x factors^2 x users x items",
            splits * (2 + trees) * p.epochs * p.factors**2 * users * items, SEREC_WORK_MAX, "about a minute")
    with progress_bar() as bar:
        task = bar.add_task(f"PRIVACT trees and SERec fits on {arguments['network']}",
                            total=trees + splits * (2 + trees))
        table3 = existing_users_table(**arguments, progress=lambda done, total: bar.update(task, completed=done))
    payload = {**table3.as_json(), "seed": seed}
    table = Table(title=f"simulate privact-serec: {table3.network} (n = {table3.n}, {table3.items} items), existing "
                        f"users, eps_edge = {table3.eps_edge}, {table3.iterations_per_node} x n GENTREE proposals, "
                        f"SERec f = {p.factors}, {p.epochs} epochs, top-{table3.k}")
    for column in ("model", "NDCG", "paper NDCG", "MAP", "paper MAP", "MAP (1/k)", "runs"):
        table.add_column(column)
    for name in SEREC_MODELS:
        scores, (ndcg, map_) = table3.scores[name], TABLE3[table3.network][name]
        table.add_row(name, f"{scores.ndcg:.3e}", f"{float(ndcg):.3e}", f"{scores.map_code:.3e}", f"{float(map_):.3e}",
                      f"{scores.map_paper:.3e}", str(scores.runs))
    table.caption = ("SERec as RecQ implements it (the implementation the paper used); the paper's factors and epochs "
                     "are not given")
    emit(as_json, payload, table)


def _likelihood_inputs(raw: dict[str, str]) -> tuple[str, list[sympy.Expr], int, str | None]:
    """(network, eps_edge values, iterations_per_node, data_dir) of privact-likelihood: network one of Table 1's with
    its edges in data_dir (or the default data folder), eps_edge as :func:`_eps_edges` (default Figure 5's 1/2, 1,
    2), iterations_per_node in [1, 10^4] (default :data:`LIKELIHOOD_DEFAULT_ITERATIONS`); 2 x eps_edge values x n x
    iterations_per_node at most :data:`PRIVACT_MOVES_MAX` with Table 1's n (each proposal costs about a GENTREE
    move)."""
    from dpcert.mechanisms.privact import FIGURE5_EPS_EDGES
    from dpcert.mechanisms.privact.graphs import edges_file

    _require_params(raw, "privact-likelihood", _LIKELIHOOD, ("network",))
    n = _table1_n(raw["network"])
    eps_values = _eps_edges(raw["eps_edge"]) if "eps_edge" in raw else list(FIGURE5_EPS_EDGES)
    per_node = require_int("iterations_per_node", raw.get("iterations_per_node", LIKELIHOOD_DEFAULT_ITERATIONS),
                           minimum=1, maximum=10**4)
    _budget("chain proposals", "2 x eps_edge values x n x iterations_per_node",
            2 * len(eps_values) * n * per_node, PRIVACT_MOVES_MAX, "about a minute")
    data_dir = _data_dir(raw.get("data_dir"))
    _require_data(edges_file, raw["network"], data_dir, "edges.txt")
    return raw["network"], eps_values, per_node, data_dir


def _simulate_privact_likelihood(raw: dict[str, str], seed: int, as_json: bool) -> None:
    from dpcert.mechanisms.privact import compare_likelihood, load_social_graph

    network, eps_values, per_node, data_dir = _likelihood_inputs(raw)
    graph = load_social_graph(network, directory=data_dir)
    with progress_bar() as bar:
        bar.add_task(f"PRIVACT and CMN-DP chains on {graph.name} (n = {graph.n})", total=None)
        comparison = compare_likelihood(graph, eps_edges=eps_values, seeds=(seed,), iterations_per_node=per_node)
    rows = [{"eps_edge": str(eps), "privact": [float(v) for v in comparison.privact_mean[k]],
             "cmn_dp": [float(v) for v in comparison.cmn_dp_mean[k]]} for k, eps in enumerate(comparison.eps_edges)]
    payload = {"network": network, "n": graph.n, "iterations_per_node": per_node, "seed": seed,
               "seconds": comparison.seconds, "curves": rows,
               "note": "ln Q_M with the true edge counts, the mean of each block of n proposals"}
    table = Table(title=f"simulate privact-likelihood: {graph.name} (n = {graph.n}), {per_node} x n proposals per "
                        f"chain, seed {seed}: ln Q_M over the last block of n proposals")
    for column in ("eps per edge", "PRIVACT", "CMN-DP", "gap", "PRIVACT above"):
        table.add_column(column)
    for row in rows:
        gap = row["privact"][-1] - row["cmn_dp"][-1]
        table.add_row(row["eps_edge"], f"{row['privact'][-1]:.1f}", f"{row['cmn_dp'][-1]:.1f}", f"{gap:.1f}",
                      "yes" if gap > 0 else "no")
    table.caption = ("Result 2 says PRIVACT's trees score higher; the paper ran 1000 x n proposals over seeds 1234, "
                     "144 and 1766 (--json prints every block's ln Q_M)")
    emit(as_json, payload, table)


def _similarity_inputs(raw: dict[str, str], seed: int) -> tuple[str, str | None]:
    """(network, data_dir) of privact-similarity: network lastfm or delicious with its edges and ratings in data_dir
    (or the default data folder); no seed (nothing is drawn at random), so --seed must stay 0."""
    from dpcert.mechanisms.privact.ratings import ratings_file

    _require_params(raw, "privact-similarity", _SIMILARITY, ("network",))
    if seed != 0:
        raise InvalidParameterError(f"seed must be 0 (left out) for privact-similarity, which draws nothing at random. "
                                    f"Got {seed}")
    data_dir = _data_dir(raw.get("data_dir"))
    _require_data(ratings_file, raw["network"], data_dir, "edges.txt and ratings.txt")
    return raw["network"], data_dir


def _simulate_privact_similarity(raw: dict[str, str], seed: int, as_json: bool) -> None:
    from dpcert.mechanisms.privact import PROFILES
    from dpcert.proofs.claims.privact.similarity_checks import TABLE6, table_6_measurement

    network, data_dir = _similarity_inputs(raw, seed)
    rows = []
    for profile in PROFILES:
        summary = table_6_measurement(network, profile=profile, directory=data_dir)
        assert summary is not None  # _similarity_inputs found the ratings
        percent, low, high = TABLE6[(network, profile)]
        defined = summary.n_defined > 0
        rows.append({"profile": profile, "users": summary.n_users, "defined": summary.n_defined,
                     "negative": summary.n_negative,
                     "percent_negative": summary.percent_negative if defined else None,
                     "minimum": summary.minimum if defined else None, "maximum": summary.maximum if defined else None,
                     "paper_percent_negative": f"{float(percent):.1f}",  # as printed: exact decimals
                     "paper_minimum": f"{float(low):.2f}", "paper_maximum": f"{float(high):.2f}"})
    table = Table(title=f"simulate privact-similarity: {network}, Table 6 (Section 7.4): Pearson correlation of "
                        "rating similarity with hop distance, per user")
    for column in ("profile", "% negative", "paper", "range of c_u", "paper's range", "users (defined)"):
        table.add_column(column)
    for row in rows:
        measured = "-" if row["percent_negative"] is None else f"{row['percent_negative']:.1f}"
        spread = "-" if row["minimum"] is None else f"[{row['minimum']:.2f}, {row['maximum']:.2f}]"
        table.add_row(row["profile"], measured, row["paper_percent_negative"], spread,
                      f"[{row['paper_minimum']}, {row['paper_maximum']}]", f"{row['users']} ({row['defined']})")
    table.caption = ("users numbered as the paper's ratings files; a user whose c_u is undefined is left out of the "
                     "percentage")
    emit(as_json, {"network": network, "rows": rows}, table)


def _simulate_prec(raw: dict[str, str], seed: int, as_json: bool) -> None:
    import numpy as np

    from dpcert.accountant.online_recommendation.bounds import eps_upper_prec, loss_upper_prec
    from dpcert.mechanisms.online_recommendation import PREC, planted_instance

    m, T, P, others, D, R, hostile, runs = _prec_inputs(raw)
    rng = np.random.default_rng(seed)
    algorithm = PREC(m, T, D, R)
    instance = planted_instance(m, T, P=P, D=D, R=R, others=others, hostile=hostile, rng=rng)
    with progress_bar() as bar:
        bar.add_task(f"p-REC, {runs} runs of T = {T} rounds", total=None)
        losses = algorithm.simulate(instance, runs, rng).total_loss
    n = P + others
    bound, eps = loss_upper_prec(m, n, P, R, T), eps_upper_prec(m, T, D, R, P)
    payload = {"m": m, "T": T, "P": P, "n": n, "D": D, "R": R, "hostile": hostile, "runs": runs,
               "seed": seed, "mean_loss": float(losses.mean()),
               "standard_error": float(losses.std(ddof=1) / np.sqrt(runs)), "max_loss": int(losses.max()),
               "theorem16_loss_bound": bound.as_json(), "theorem17_eps": eps.as_json()}
    mean, error = shown(payload["mean_loss"]), shown(payload["standard_error"])
    emit(as_json, payload, fields_table(f"simulate p-rec: m = {m}, T = {T}, n = {n} voters ({P} peers)", [
        ("mean loss", f"{mean} ± {error} (max {payload['max_loss']})"),
        *((name, r.display() if r.valid else f"not valid: {r.note}")  # rounded to the safe side
          for name, r in (("Theorem 16 loss bound", bound), ("Theorem 17 eps", eps)))]))


_SYSTEMS: dict[str, Callable[[dict[str, str], int, bool], None]] = {
    "privact": _simulate_privact, "privact-recommend": _simulate_privact_recommend,
    "privact-serec": _simulate_privact_serec, "privact-similarity": _simulate_privact_similarity,
    "privact-likelihood": _simulate_privact_likelihood, "p-rec": _simulate_prec}
"""The seed papers' systems that ``simulate`` runs with parameters of their own, and the function that runs each."""


@click.command("simulate")
@click.argument("algorithm", type=click.Choice(sorted([*_ALGORITHMS, *_SYSTEMS])))
@param_option
@click.option("--seed", default="0", show_default=True, help="seed of the run, an integer >= 0")
@json_option
def simulate_command(algorithm: str, params: tuple[str, ...], seed: int, as_json: bool) -> None:
    """Run one of the seed papers' systems and report what it achieved.

    maxsense, multi-maxsense, pairwise-preference: the price-of-privacy recommenders on the paper's
    lower-bound instance, reporting the item-cluster recovery. Parameters: N (items, at most 10^7;
    pairwise-preference 4000), U (users, at most 10^7), w (ratings per user), eps, sampling (subset |
    independent; default subset); maxsense: theta (in [10^-9, w], default 1), sensing (explicit |
    collapsed); multi-maxsense: Q (default ceil(eps)), block_size (default N // w); pairwise-preference:
    rule. U times the items each user touches is at most 3e8 (about 40 s).

    privact: network (lastfm | delicious | douban, read from the data folder), eps_edge (per-edge eps,
    comma-separated for up to 10), iterations_per_node (default 250; the paper's 1000 takes minutes), graph
    (real, the default, or generated: a random graph of the network's size, said so in the output; not with
    data_dir), data_dir; reports the private trees' quality against the non-private tree (the paper's Table 2).
    A data folder named (data_dir, or $DPCERT_SOCIAL_GRAPHS) that lacks the network's files is an error.

    privact-recommend: network (lastfm | delicious; douban's ratings are not in the data), eps_edge (default
    1), iterations_per_node (default 20; the paper's 1000 runs through benchmarks/bench_privact_recommend.py),
    trees (1 to 3 of the paper's tree seeds 1234, 144, 1766, each shifted by --seed; default 3), splits (1 to
    5 of the cold-start split seeds 67, 13, 45, 7, 82; default 5), k (top-k, default 100), data_dir; reports
    the cold-start NDCG@k and MAP@k of itemAvg, friendsCF and PRIVACT-CF beside the paper's Tables 4 and 5.
    trees x n x iterations_per_node at most 1.5e6 GENTREE moves (about a minute).

    privact-serec: the existing-user Table 3 (Basic SERec, SERec, PRIVACT-SERec; SERec as RecQ implements
    it): privact-recommend's parameters with trees and splits defaulting to 1, factors (default 10, at most
    200) and epochs (default 10, at most 1000); splits x (2 + trees) x epochs x factors^2 x users x items at
    most 1e11 (about a minute).

    privact-likelihood: Figure 5, ln Q_M along PRIVACT's chains against CMN-DP's (the authors' code's
    exponential-mechanism chain), one chain each per eps and --seed (the paper's seeds: 1234, 144, 1766): network,
    eps_edge (default 1/2,1,2), iterations_per_node (default 10; the paper's 1000 runs through
    benchmarks/plot_privact_likelihood.py), data_dir; 2 x eps_edge values x n x iterations_per_node at most 1.5e6
    proposals (about a minute); reports each chain's ln Q_M by block of n proposals (in --json) and the last
    block's gap.

    privact-similarity: Table 6, Section 7.4's per-user correlation of rating similarity with hop distance, for
    partial and full rating profiles, beside the paper's: network (lastfm | delicious), data_dir; deterministic (no
    --seed); a few seconds.

    p-rec: m (objects per round), T (rounds), P (peers within distance R), others (other voters), D, R
    (default 0), hostile (true: the others vote for disliked objects; default false), runs (default 200);
    reports the client's mean loss against Theorem 16's bound and the eps of Theorem 17. T at most 2e5,
    runs x T x (P + others + m) at most 1e9 (about 30 s).

    Every range is chosen so that a run answers within about a minute; outside it the command says so.
    """
    seed = require_int("seed", seed, minimum=0)
    if algorithm in _SYSTEMS:
        _SYSTEMS[algorithm](parse_params(params), seed, as_json)
        return
    from dpcert.mechanisms.price_of_privacy import (
        simulate_maxsense,
        simulate_multi_maxsense,
        simulate_pairwise_preference,
    )

    model, U, eps, raw = _recommender_inputs(algorithm, parse_params(params))
    run = {"maxsense": simulate_maxsense, "multi-maxsense": simulate_multi_maxsense,
           "pairwise-preference": simulate_pairwise_preference}[algorithm]
    with progress_bar() as bar:
        task = bar.add_task(f"simulating {algorithm}", total=U)
        result = run(model, U, eps, rng=seed, progress=lambda done, total: bar.update(task, completed=done),
                     **raw)
    payload = {**result.as_json(), "parameters": {"N": model.N, "U": U, "w": model.w, "eps": str(eps), "seed": seed}}
    emit(as_json, payload, fields_table(f"simulate {algorithm}", [
        (key.replace("_", " "), shown(value, decimals=2 if key == "seconds" else None))
        for key, value in payload.items()]))
