"""The figures ``dpcert report`` embeds: one :class:`ReportFigure` row per figure in :data:`FIGURES`, each
belonging to a paper's or topic's section, with its caption and the shell command that redraws it (or, where no
``dpcert plot`` draws it, prints every number it draws).

Each row's ``draw`` returns the figure as SVG text, drawn by the accountant's own plots (``dpcert plot``'s code)
where they exist. :func:`draw_figures` turns that text into inline SVG that scales with the page (the fixed width
and height dropped, the viewBox kept, every id prefixed with the figure's anchor so that figures cannot clash);
a figure that fails to draw becomes a one-line note naming the error, never a lost report. :func:`draw_in` submits
them to the worker processes that check the claims, ahead of the claims.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import sympy

from dpcert.accountant.catalog import BOUND_FAMILIES
from dpcert.accountant.pld_accountant import compose
from dpcert.accountant.pld_curves import default_eps_grid, plot_privacy_curve, privacy_curve
from dpcert.accountant.plot_files import new_axes, save_axes
from dpcert.accountant.shuffle_plot import log_n_grid, plot_shuffle_curves, shuffle_curves

__all__ = ["FIGURES", "DrawnFigure", "ReportFigure", "draw_figures", "draw_in", "drawn", "figures_of"]


@dataclass(frozen=True)
class ReportFigure:
    """One figure of the report.

    Attributes:
        group: the key of the registry table (``ClaimGroup``) whose section shows it.
        name: its anchor in the report is ``figure-NAME``, which also prefixes its SVG's ids.
        title: the figure's heading, as the table of contents lists it.
        caption: what is drawn, for the reader; it ends by introducing ``command``.
        command: the shell command that redraws the figure (or prints every number it draws).
        draw: returns the figure as SVG text.
    """

    group: str
    name: str
    title: str
    caption: str
    command: str
    draw: Callable[[], str]

    @property
    def anchor(self) -> str:
        return f"figure-{self.name}"


@dataclass(frozen=True)
class DrawnFigure:
    """A figure as the report shows it: its row and its inline SVG, or the one-line note of why it is missing."""

    figure: ReportFigure
    svg: str | None = None
    error: str | None = None


def _svg(write: Callable[[Path], object]) -> str:
    """What ``write(path)`` draws into a temporary .svg file, as text."""
    with tempfile.TemporaryDirectory(prefix="dpcert-figure-") as folder:
        path = Path(folder) / "figure.svg"
        write(path)
        return path.read_text(encoding="utf-8")


def _params(values: dict[str, str]) -> str:
    return " ".join(f"--param {name}={value}" for name, value in values.items())


_SHUFFLE = {"eps0": "1", "delta": "1e-6", "points": "6"}  # dpcert plot shuffle's parameters; n_min, n_max its defaults


def _shuffle_bounds() -> str:
    curves = shuffle_curves(_SHUFFLE["eps0"], _SHUFFLE["delta"], log_n_grid("1000", "1e8", _SHUFFLE["points"]))
    title = f"shuffle amplification: eps0 = {_SHUFFLE['eps0']}, delta = {_SHUFFLE['delta']}, any eps0-LDP randomizer"
    return _svg(lambda path: plot_shuffle_curves(curves, path, title=title))


_SPEC = "gaussian:sigma=1*10"  # claim pld-encloses-k-fold-gaussian's first case


def _composition_curve() -> str:
    composition = compose([_SPEC], neighbours="add-remove")
    curve = privacy_curve(composition, default_eps_grid(composition, points=40))
    return _svg(lambda path: plot_privacy_curve(curve, path, title=f"privacy curve of {composition.label}"))


_USERS = {"N": "1000", "w": "5"}  # dpcert bound fano's and maxsense-users' parameters, as in the README's example
_MAXSENSE = {"delta_min": "exp(-1/2)"}
_EPS_VALUES = ("1/16", "1/8", "1/4", "1/2", "1", "2", "4")
_SERIES = {  # result name -> (label, line style)
    "theorem7": ("lower: Theorem 7, any eps-LDP learner", "v--"),
    "corollary21-theorem13": ("lower: Corollary 21 + Theorem 13, non-adaptive", "^--"),
    "corollary21-theorem14": ("lower: Corollary 21 + Theorem 14, non-adaptive, eps < ln 2", "<--"),
    "theorem15": ("sufficient for MaxSense: Theorem 15 (re-derived constant)", "s-"),
}


def _users_against_eps() -> str:
    points: dict[str, list[tuple[float, float]]] = {name: [] for name in _SERIES}
    for eps in _EPS_VALUES:
        results = (BOUND_FAMILIES["fano"].evaluate({**_USERS, "eps": eps})
                   + BOUND_FAMILIES["maxsense-users"].evaluate({**_USERS, **_MAXSENSE, "eps": eps}))
        for result in results:
            users = result.lower if result.bounds == "lower" else result.upper
            if result.name in points and users is not None:  # None: the theorem does not apply at this eps
                points[result.name].append((float(Fraction(eps)), users))
    figure, axes = new_axes()
    for name, (label, style) in _SERIES.items():
        axes.plot(*zip(*points[name]), style, label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    title = f"users against eps: N = {_USERS['N']} items, w = {_USERS['w']} ratings per user"
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="eps (local DP)", ylabel="users U"))


_AUDIT = {"eps": "1/10", "samples": "100000", "seed": "7"}  # dpcert audit's options for every zoo mechanism
_ALIASES = ("report-noisy-max1", "report-noisy-max3")  # the same samplers as noisy-max and noisy-max-value


def _zoo_names() -> list[str]:
    from dpcert.mechanisms.catalog import CATALOG

    return [name for name, entry in CATALOG.items() if entry.sampler_only and name not in _ALIASES]


def _audit_bounds() -> str:
    from dpcert.mechanisms.catalog import make_mechanism
    from dpcert.proofs.audit import audit

    names = _zoo_names()
    rows = []
    for name in names:
        mechanism = make_mechanism(name, raw={"eps": _AUDIT["eps"]})
        result = audit(mechanism, eps=_AUDIT["eps"], samples=int(_AUDIT["samples"]), seed=int(_AUDIT["seed"]),
                       floating_point=True)
        rows.append((name, result.epsilon_lower_bound, mechanism.expected_verdict == "private"))
    figure, axes = new_axes()
    ticks = range(len(rows))
    axes.barh(ticks, [bound for _, bound, _ in rows], color=["#1f77b4" if private else "#d62728"
                                                             for _, _, private in rows])
    axes.set_yticks(list(ticks), [f"{name} ({'private' if private else 'not private'})" for name, _, private in rows],
                    fontsize=7)
    axes.invert_yaxis()
    axes.axvline(float(Fraction(_AUDIT["eps"])), color="black", linestyle="--", label="claimed eps = 1/10")
    axes.set_xscale("symlog", linthresh=0.01)
    title = "zoo audits at claimed eps = 1/10, 10^5 samples per input"
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="eps lower bound (symlog)",
                                       ylabel="mechanism"))


_PRIVACT = {"network": "lastfm", "eps_edge": "1/2,1,2", "iterations_per_node": "20"}  # dpcert simulate privact's
_PRIVACT_SEED = 0


def _privact_utility() -> str:
    import numpy as np

    from dpcert.mechanisms.privact import compare_utility, load_social_graph

    graph = load_social_graph(_PRIVACT["network"])  # the paper's data, read in place; refused when absent
    eps_values = [sympy.Rational(e) for e in _PRIVACT["eps_edge"].split(",")]
    result = compare_utility(graph, eps_values, np.random.default_rng(_PRIVACT_SEED),
                             iterations_per_node=int(_PRIVACT["iterations_per_node"]))
    labels = ["non-private"] + [f"PRIVACT, eps per edge = {r.eps_edge}" for r in result.private]
    values = [result.relative_utility] + [r.relative_utility for r in result.private]
    figure, axes = new_axes()
    bars = axes.bar(range(len(values)), values, color=["#7f7f7f"] + ["#1f77b4"] * len(result.private),
                    label="Q_D / rho (grey: non-private)")
    axes.bar_label(bars, [f"{values[0]:.2f}"] + [f"{r.relative_utility:.2f} (loss {100 * r.loss:.2f} %)"
                                                  for r in result.private], fontsize=8)
    axes.set_xticks(range(len(values)), labels, fontsize=7)
    axes.set_ylim(0, 1.2 * max(values))  # room above the bars for the legend
    title = (f"PRIVACT on {graph.name} (n = {graph.n}, K = {result.K}), "
             f"{_PRIVACT['iterations_per_node']} x n GENTREE proposals")
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="tree", ylabel="Q_D / rho"))


_FREQUENCY = {"s": 4, "t": 4, "m": 200, "n": (50, 200, 1000, 5000), "trials": 300, "seed": 7}
"""The "vs n" panel of benchmarks/plot_metric_user_level_comparison.py: its settings, trials and seeds (7 + n)."""
_FREQUENCY_STYLES = {  # estimator -> (label, colour)
    "hadamard": ("Hadamard response (local, eps-user)", "tab:red"),
    "freqest-local": ("FreqEstLocal+GKRR (local, d_EM)", "tab:blue"),
    "laplace": ("Laplace 2/(n eps) (central, eps-user)", "tab:orange"),
    "freqest-central": ("FreqEstLocal+GKRR (central, d_EM)", "tab:green"),
}


def _frequency_errors() -> str:
    import numpy as np

    from dpcert.proofs.claims.metric_user_level.comparison_checks import (FrequencySetting, calibrate_frequency,
                                                                            frequency_errors,
                                                                            hadamard_calibrated_eps0,
                                                                            skewed_datasets)

    eps, delta, r = sympy.Integer(1), sympy.Rational(1, 10**6), sympy.Rational(1, 20)
    f = _FREQUENCY
    eps0 = hadamard_calibrated_eps0(eps, delta, f["m"])[0]
    series: dict[str, list[tuple[int, float, float, float]]] = {}
    for n in f["n"]:
        setting = FrequencySetting(eps, delta, f["s"], f["t"], r, f["m"], n)
        rng = np.random.default_rng(f["seed"] + n)
        calibrated = calibrate_frequency(setting, hadamard_eps0=eps0)
        errors = frequency_errors(setting, calibrated, skewed_datasets(setting, rng), f["trials"], rng)
        for item in calibrated:
            e = errors[item.name]
            half = 1.96 * float(e.std(ddof=1)) / len(e) ** 0.5
            series.setdefault(item.name, []).append((n, float(e.mean()), half, float(item.bound.value)))
    figure, axes = new_axes()
    for name, (label, colour) in _FREQUENCY_STYLES.items():
        ns, mean, half, bound = (np.array(column) for column in zip(*series[name]))
        axes.plot(ns, mean, "o-", color=colour, label=label)
        axes.fill_between(ns, mean - half, mean + half, color=colour, alpha=0.25)
        axes.plot(ns, bound, "--", color=colour, alpha=0.7)
    axes.set_xscale("log")
    axes.set_yscale("log")
    title = f"frequency estimation, k = {f['s'] * f['t']}, m = {f['m']}: user-level DP vs d_EM-DP"
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="n users",
                                       ylabel="mean d_EM error"))


def _grouped_log_bars(axes, groups: Sequence[str], bars: Sequence[tuple[Sequence[float], str, str]]) -> None:
    """Bars side by side over each of ``groups``, on a log scale: one (heights, label, colour) per bar, in order."""
    import numpy as np

    width = 0.8 / len(bars)
    for i, (heights, label, colour) in enumerate(bars):
        axes.bar(np.arange(len(groups)) + (i - (len(bars) - 1) / 2) * width, heights, width, label=label, color=colour)
    axes.set_xticks(range(len(groups)), groups)
    axes.set_yscale("log")


_COLD_START = {"network": "lastfm", "iterations_per_node": "20"}  # dpcert simulate privact-recommend's defaults
_COLD_START_BARS = (  # (table key of the JSON, measured or the paper's, label, colour)
    ("table4_current_ordering", "ndcg", "Table 4 (current rule), measured", "#1f77b4"),
    ("table4_current_ordering", "paper_ndcg", "Table 4, the paper", "#aec7e8"),
    ("table5_older_ordering", "ndcg", "Table 5 (older rule), measured", "#ff7f0e"),
    ("table5_older_ordering", "paper_ndcg", "Table 5, the paper", "#ffbb78"),
)


def _cold_start_ndcg() -> str:
    from dpcert.mechanisms.privact.cold_start import cold_start_tables

    tables = cold_start_tables(_COLD_START["network"],
                               iterations_per_node=int(_COLD_START["iterations_per_node"])).as_json()
    strategies = list(tables["table4_current_ordering"])
    figure, axes = new_axes()
    _grouped_log_bars(axes, strategies, [([tables[table][s][value] for s in strategies], label, colour)
                                         for table, value, label, colour in _COLD_START_BARS])
    title = (f"cold-start recommendation on {tables['network']}: NDCG@{tables['k']}, "
             f"{tables['iterations_per_node']} x n proposals")
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="strategy",
                                       ylabel=f"NDCG@{tables['k']}"))


_EXISTING = {"network": "lastfm", "factors": "10", "epochs": "5"}  # privact-serec: one tree, one split, 20 x n moves
_EXISTING_BARS = (  # (value in the JSON's Table 3, label, colour)
    ("ndcg", "NDCG@100, measured", "#1f77b4"),
    ("paper_ndcg", "NDCG@100, the paper", "#aec7e8"),
    ("map", "MAP@100, measured", "#ff7f0e"),
    ("paper_map", "MAP@100, the paper", "#ffbb78"),
)


def _existing_users_scores() -> str:
    from dpcert.mechanisms.privact.existing_users import existing_users_table
    from dpcert.proofs.cli.simulate import _serec_inputs

    result = existing_users_table(**_serec_inputs(dict(_EXISTING), 0))  # the arguments of the figure's command
    table = result.as_json()["table3"]
    models = list(table)
    figure, axes = new_axes()
    _grouped_log_bars(axes, models, [([table[m][value] for m in models], label, colour)
                                     for value, label, colour in _EXISTING_BARS])
    title = (f"existing users on {result.network}: SERec f = {result.parameters.factors}, {result.parameters.epochs} "
             f"epochs, one split, {result.iterations_per_node} x n proposals")
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="model", ylabel="score at k = 100"))


_LIKELIHOOD = {"network": "lastfm", "iterations_per_node": "10"}  # dpcert simulate privact-likelihood's default
_LIKELIHOOD_SEED = 1234  # the paper's first seed
_LIKELIHOOD_COLOURS = ("tab:blue", "tab:orange", "tab:green")


def _likelihood_curves() -> str:
    from dpcert.mechanisms.privact import FIGURE5_EPS_EDGES, compare_likelihood, load_social_graph

    graph = load_social_graph(_LIKELIHOOD["network"])  # the paper's data, read in place; refused when absent
    per_node = int(_LIKELIHOOD["iterations_per_node"])
    comparison = compare_likelihood(graph, eps_edges=FIGURE5_EPS_EDGES, seeds=(_LIKELIHOOD_SEED,),
                                    iterations_per_node=per_node)
    figure, axes = new_axes()
    steps = range(1, per_node + 1)
    for k, eps in enumerate(comparison.eps_edges):
        colour = _LIKELIHOOD_COLOURS[k % len(_LIKELIHOOD_COLOURS)]
        axes.plot(steps, comparison.privact_mean[k], "-", color=colour, label=f"PRIVACT (local), eps per edge {eps}")
        axes.plot(steps, comparison.cmn_dp_mean[k], "--", color=colour, label=f"CMN-DP (central), eps {eps}")
    title = f"ln Q_M along the chains on {graph.name} (n = {graph.n}), seed {_LIKELIHOOD_SEED}"
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="proposals / n",
                                       ylabel="ln Q_M (true edge counts)"))


_SIMILARITY_NETWORKS = ("lastfm", "delicious")  # douban's ratings are not in the data folder


def _similarity_shares() -> str:
    import numpy as np

    from dpcert.mechanisms.privact import PROFILES
    from dpcert.mechanisms.privact.ratings import ratings_file
    from dpcert.proofs.claims.privact.similarity_checks import TABLE6, table_6_measurement

    labels, measured, printed, spans = [], [], [], []
    for network in _SIMILARITY_NETWORKS:
        ratings_file(network)  # refused, with where the data were looked for, when absent
        for profile in PROFILES:
            summary = table_6_measurement(network, profile=profile)
            percent, low, high = TABLE6[(network, profile)]
            labels.append(f"{network}, {profile}")
            measured.append(summary.percent_negative)
            printed.append(float(percent))
            spans.append((f"[{summary.minimum:.2f}, {summary.maximum:.2f}]", f"[{float(low):.2f}, {float(high):.2f}]"))
    figure, axes = new_axes()
    at = np.arange(len(labels))
    ours = axes.bar(at - 0.2, measured, 0.4, label="measured", color="#1f77b4")
    theirs = axes.bar(at + 0.2, printed, 0.4, label="Table 6 as printed", color="#aec7e8")
    axes.bar_label(ours, [f"{m:.1f} %\n{span}" for m, (span, _) in zip(measured, spans)], fontsize=7)
    axes.bar_label(theirs, [f"{p:.1f} %\n{span}" for p, (_, span) in zip(printed, spans)], fontsize=7)
    axes.set_xticks(at, labels, fontsize=8)
    axes.set_ylim(0, 125)  # room above the bars for their labels and the legend
    title = "users whose rating similarity falls with hop distance (PrivaCT Table 6)"
    return _svg(lambda path: save_axes(figure, axes, path, title=title, xlabel="network, rating profile",
                                       ylabel="% of users with c_u < 0"))


FIGURES: tuple[ReportFigure, ...] = (
    ReportFigure(
        "shuffle", "shuffle-bounds", "Shuffle amplification against the number of users",
        "Every shuffle-amplification bound's certified eps (rounded up) against the number of users n, log-log, for "
        f"n users who each apply any eps0-LDP randomizer with eps0 = {_SHUFFLE['eps0']}, at delta = "
        f"{_SHUFFLE['delta']}. Each method is drawn where its theorem applies; the round markers are binary randomized "
        "response's exact eps (a lower bound on the worst case), computed for small n only; the dash-dotted line is "
        "eps0, no amplification. Drawn at six values of n, one per decade from 10^3 to 10^8, a coarser grid than the "
        "command's default of 15 points, to keep the report quick. Redrawn by:",
        f"dpcert plot shuffle {_params(_SHUFFLE)} --out shuffle.svg", _shuffle_bounds),
    ReportFigure(
        "composition", "composition-curve", "A composition's privacy curve and its certified enclosure",
        "delta(eps) of ten composed Gaussian mechanisms of sigma = 1 (add-remove neighbours) from the numerical "
        "composition, on a log delta axis: the true curve lies in the shaded band between the certified lower and "
        "upper bounds (here narrower than the lines). The truth is Balle and Wang's curve of one Gaussian with "
        "mu = sqrt(10); claim pld-encloses-k-fold-gaussian checks it at delta = 1e-5. 40 values of eps, from 0 to "
        "the certified eps at delta = 1e-12. Redrawn by:",
        f"dpcert plot composition '{_SPEC}' --out composition.svg", _composition_curve),
    ReportFigure(
        "price_of_privacy", "maxsense-users", "MaxSense between the bounds: users against eps",
        f"Users against the local-DP eps, log-log, for N = {_USERS['N']} items and w = {_USERS['w']} ratings per user "
        f"at eps = {', '.join(_EPS_VALUES)}. Dashed, lower bounds (Fano): with fewer users every eps-LDP learner of a "
        "uniformly random split of the items into two clusters has average error above 1/2; Theorem 7 (corrected "
        "constant) holds for any learner, adaptive or not, Corollary 21 for non-adaptive learners such as MaxSense, "
        "with the per-user information bound of Theorem 13, or of Theorem 14 where it applies (eps < ln 2). Solid, "
        "the users sufficient for MaxSense (Theorem 15, re-derived constant, theta = 1, d = 1) to recover every "
        "item's cluster with probability at least 1 - 1/N on the paper's lower-bound instance (one user class, two "
        "item clusters, 0/1 ratings), with delta_min = exp(-1/2), its value for a balanced split (other splits "
        "change it by at most a factor e). The two do not state the same thing: the lower bounds concern every "
        "learner of their class at average error 1/2 over random splits, the upper bound one algorithm at success "
        "probability 1 - 1/N, by a proof that models each item as rated independently with probability w/N; so the "
        "gap between them, a factor of 2.6 x 10^5 to 1.2 x 10^7 here, measures how far apart the bounds are, not the "
        "price of privacy. No "
        "dpcert plot command draws this figure; every number drawn (the rows theorem7, corollary21-theorem13, "
        "corollary21-theorem14 and theorem15) is printed by:",
        f"for eps in {' '.join(_EPS_VALUES)}; do dpcert bound fano {_params(_USERS)} --param eps=$eps; "
        f"dpcert bound maxsense-users {_params(_USERS)} --param eps=$eps --param 'delta_min={_MAXSENSE['delta_min']}' "
        "--method theorem15; done", _users_against_eps),
    ReportFigure(
        "metric_user_level", "frequency-errors", "User-level DP against d_EM-DP: frequency estimation against n",
        "Table 2 of the metric-DP paper measured: the mean earth mover's error of each frequency estimator against the "
        "number of users n (log-log; shaded, 95 % normal bands over 300 trials at seed 7 + n; dashed, each "
        "estimator's proved bound), on the clustered metric with 4 clusters of 4 points (distance 1/20 inside a "
        "cluster, 1 across), m = 200 items per user, a skewed dataset, each estimator calibrated to (eps, delta) = "
        "(1, 10^-6) user-level DP or to (alpha, delta) = (20, 10^-6) d_EM-DP (alpha = eps / r): Hadamard response at "
        "the largest eps0 whose exact delta(eps) is at most delta, FreqEstLocal with GKRR (local, and central through "
        "Theorem 4.4's shuffle), and the central Laplace at scale 2/(n eps). The same panel, with the other three "
        "(against k, m and a linear query), is drawn by the benchmark (not installed with the package; in the source "
        "tree, docs/metric_user_level_comparison.md):",
        "python benchmarks/plot_metric_user_level_comparison.py", _frequency_errors),
    ReportFigure(
        "privact", "privact-utility", "PRIVACT's tree quality on lastfm (Table 2's protocol, short chains)",
        "Dasgupta's tree quality relative to the clique's, Q_D / rho, of the non-private GENTREE tree and of "
        "PRIVACT's trees at per-edge eps = 1/2, 1 and 2 (per-user eps half that), on lastfm's largest connected "
        "component read from the paper's data, K = floor(ln n) bins, 20 x n Metropolis-Hastings proposals, seed 0; "
        "each private bar gives its loss against the non-private tree. A quick run of Table 2's protocol, not the "
        "paper's numbers: the paper ran 1000 x n proposals over seeds 1234, 144 and 1766, which "
        "benchmarks/bench_privact.py reproduces in about 26 minutes (docs/privact_table2.md in the source tree). "
        "Without the data the figure is not drawn (its note says where the data were looked for). Redrawn (as a "
        "table) by:",
        f"dpcert simulate privact {_params(_PRIVACT)} --seed {_PRIVACT_SEED}", _privact_utility),
    ReportFigure(
        "privact", "privact-cold-start",
        "PRIVACT's cold-start recommendations on lastfm (Tables 4 and 5, short chains)",
        "NDCG@100 of Section 7's cold-start recommenders on lastfm (log scale): itemAvg, friendsCF (the social graph "
        "itself) and PRIVACT-CF (the released tree only, per-edge eps = 1), mean over the paper's three tree seeds and "
        "five cold-start splits, under the current and the older ordering rule (Tables 4 and 5), beside the paper's "
        "values. 20 x n GENTREE proposals: a quick run, not the paper's 1000 x n (benchmarks/"
        "bench_privact_recommend.py, docs/privact_recommendation.md in the source tree); MAP@100 and Section 7.4's "
        "correlations are in the command's output. Without the data (edges and ratings) the figure is not drawn. "
        "Every bar and the MAP values are printed by:",
        f"dpcert simulate privact-recommend {_params(_COLD_START)}", _cold_start_ndcg),
    ReportFigure(
        "privact", "privact-existing-users",
        "PRIVACT-SERec for existing users on lastfm (Table 3, a short protocol)",
        "NDCG@100 and MAP@100 (log scale) of Basic SERec (no social term), SERec (the social graph) and PRIVACT-SERec "
        "(the released tree's top-m relation, per-edge eps = 1), SERec as the RecQ library implements it, beside the "
        "paper's Table 3. A short protocol: one existing-user split (seed 67), one tree (seed 1234, 20 x n GENTREE "
        "proposals), 10 factors and 5 EM epochs; the paper gives neither its factors nor its epochs. Result 4 says "
        "PRIVACT-SERec performs like SERec; since this SERec reads the social relation only through each user's "
        "number of contacts, that comparison says nothing about communities (claim privact-serec-contact-counts-"
        "only). The paper's protocol (three splits, three trees of 1000 x n proposals, 20 factors, 10 epochs) runs "
        "through benchmarks/bench_privact_serec.py (docs/privact_table3.md in the source tree). Without the data "
        "the figure is not drawn. Every bar is printed by:",
        f"dpcert simulate privact-serec {_params(_EXISTING)}", _existing_users_scores),
    ReportFigure(
        "privact", "privact-likelihood",
        "PRIVACT's trees against CMN-DP's by likelihood (Figure 5, short chains)",
        "ln Q_M, the hierarchical random graph likelihood of the released tree scored with the true edge counts, along "
        "PRIVACT's chain (solid; local noisy degree vectors, GENTREE) and CMN-DP's (dashed; the authors' code's "
        "exponential-mechanism chain on the true graph), each point the mean over a block of n proposals, at per-edge "
        "eps = 1/2, 1 and 2 on lastfm's largest component. Result 2 says PRIVACT's curve ends above CMN-DP's. "
        "10 x n proposals and one seed: a quick run, not the paper's 1000 x n over three seeds "
        "(benchmarks/plot_privact_likelihood.py, docs/privact_figure5.md in the source tree); the chains have not "
        "converged. Without the data the figure is not drawn. Every point is printed by:",
        f"dpcert simulate privact-likelihood {_params(_LIKELIHOOD)} --seed {_LIKELIHOOD_SEED} --json",
        _likelihood_curves),
    ReportFigure(
        "privact", "privact-similarity",
        "Rating similarity against social distance (Table 6)",
        "For each user u, c_u is the Pearson correlation, over the other users v, of the similarity of u's and v's "
        "ratings with their hop distance in the social graph; the bars are the share of users with c_u < 0 on partial "
        "profiles (co-rated items only) and full ones (unrated items as 0), measured on the paper's data beside Table "
        "6, each with its range of c_u. The paper says the correlation is negative for every user on full profiles; "
        "its own row (100.0 % with a maximum of +0.02) cannot be, and the data give well under 100 % (the claims "
        "table6-full-negative-printed-* and -measured-*). Computed on the whole data, nothing sampled; douban's "
        "ratings are not in the data folder. Without the data the figure is not drawn. Every number is printed by:",
        "for n in lastfm delicious; do dpcert simulate privact-similarity --param network=$n; done",
        _similarity_shares),
    ReportFigure(
        "zoo", "audit-bounds", "The auditing zoo: eps lower bounds against the claim",
        "Each zoo mechanism audited at its claimed eps = 1/10 (the mechanism built at that eps) with 10^5 samples per "
        "input, confidence 1 - 10^-6 and the floating-point events, seed 7: the eps lower bound (a symlog axis, linear "
        "below 0.01). Red bars are the mechanisms the literature shows not private, blue the private ones; a bar "
        "beyond the dashed claimed eps is a violation found (this small budget catches some of the not-private ones; "
        "the zoo's claims use up to 2 x 10^6 samples per input and catch every one). ReportNoisyMax1 and 3 are drawn "
        "as noisy-max and noisy-max-value, the same samplers. Every bar is printed by:",
        "for m in " + " ".join(_zoo_names()) + f"; do dpcert audit $m --eps {_AUDIT['eps']} --samples "
        f"{_AUDIT['samples']} --seed {_AUDIT['seed']} --floating-point --json; done",
        _audit_bounds),
)
"""The report's figures, in the order each section shows them (none for the standard mechanisms and the online
recommender, whose claims are exact)."""


def figures_of(paper: str | None) -> tuple[ReportFigure, ...]:
    """The figures of the report of ``paper`` (a key of the registry's PAPERS), or all of them for None."""
    return tuple(f for f in FIGURES if paper is None or f.group == paper)


_IDS = re.compile(r'(\bid="|url\(#|href="#)')


def _inline_svg(text: str, *, prefix: str) -> str:
    """An SVG file's text as an ``<svg>`` element to place in HTML: the XML prolog and metadata dropped, the root's
    fixed width and height removed (its viewBox scales it), each id and reference to one prefixed by ``prefix-``.

    Raises:
        ValueError: ``text`` has no ``<svg`` element, or its root has no viewBox (it could not scale).
    """
    svg = text[text.index("<svg"):]
    end = svg.index(">")
    root = re.sub(r'\s(?:width|height)="[^"]*"', "", svg[:end])
    if "viewBox=" not in root:
        raise ValueError("the SVG has no viewBox, so it cannot scale with the page")
    body = re.sub(r"\s*<metadata>.*?</metadata>", "", svg[end:], flags=re.S)
    return _IDS.sub(lambda match: f"{match.group(1)}{prefix}-", root + body)


def _one_line(error: BaseException) -> str:
    message = str(error).strip().splitlines()
    return type(error).__name__ + (f": {message[0][:300]}" if message else "")


def draw_figures(figures: Sequence[ReportFigure]) -> tuple[DrawnFigure, ...]:
    """Each figure drawn, or its one-line note: a figure that fails never stops the others or the report."""
    drawn = []
    for figure in figures:
        try:
            drawn.append(DrawnFigure(figure, svg=_inline_svg(figure.draw(), prefix=figure.anchor)))
        except Exception as error:  # noqa: BLE001 - the note names it; the report goes on
            drawn.append(DrawnFigure(figure, error=_one_line(error)))
    return tuple(drawn)


def draw_in(pool: Executor, figures: Sequence[ReportFigure]) -> list[tuple[ReportFigure, Future]]:
    """Each of ``figures`` submitted to ``pool`` to be drawn (one job each, submitted before the claims: the figures are
    the long jobs, so the workers stay busy to the end)."""
    return [(figure, pool.submit(draw_figures, (figure,))) for figure in figures]


def drawn(jobs: Sequence[tuple[ReportFigure, Future]]) -> tuple[DrawnFigure, ...]:
    """The figures of :func:`draw_in`'s jobs; a job that could not draw at all (its worker died, or its row could not
    be sent to it) is its figure's one-line note."""
    results = []
    for figure, job in jobs:
        try:
            results += job.result()
        except Exception as error:  # noqa: BLE001 - the figure's note names it; the report goes on
            results.append(DrawnFigure(figure, error=_one_line(error)))
    return tuple(results)
