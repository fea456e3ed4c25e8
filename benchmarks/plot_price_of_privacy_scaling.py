"""Users needed against eps: MaxSense (Theorem 15) and Multi-MaxSense (Theorem 16), beside their bounds.

On the paper's lower-bound instance (one user class, two item clusters, Z uniform in {0,1}^N,
deterministic ratings, uniform w-subsets; 000_0c6e7fdc3fd68303.txt, Section 3.1), for each eps this finds
the smallest U on the grid 2^(j/4) at which the algorithm recovers every item cluster in at least half of
``--runs`` seeded runs (run r uses seed ``--seed + r`` at every U, so the search compares like with like),
and draws it beside

- the Theorem 15 upper bound (re-derived constant, success probability >= 1/2, delta_min = e^(-1/2),
  theta = 1) for MaxSense: it scales as 1 / eps_hat(eps)^2, i.e. 1/eps^2 for small eps and flat for
  large eps;
- the Theorem 16 upper bound for Multi-MaxSense: Theorem 15's with U -> Q U and eps -> eps/Q,
  Q = ceil(eps), i.e. 1 / (Q eps_hat(eps/Q)^2): 1/eps^2 for eps < 1 (Q = 1) and 1/eps for eps >= 1
  (spec E3, E13);
- the lower bound for every non-adaptive eps-LDP learner: below ((1/2) N - 1) / (I log2 e) users,
  with I = min(Lemma 6, Theorem 13, Theorem 14 for every eps (claim thm14-any-eps)) nats per user, the
  average error exceeds 1/2 (Corollary 21 + Fano).

It fits the log-log slope of the measured users against eps on eps <= 1 and on eps >= 1 (least squares,
with its standard error), and writes the figure, a Markdown summary and the JSONL rows.

Run: python benchmarks/plot_price_of_privacy_scaling.py [--out docs/price_of_privacy_scaling.png]
(about 3 minutes on one core with the defaults).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import sympy  # noqa: E402

from dpcert.accountant.channel_information import lemma_6_bound  # noqa: E402
from dpcert.accountant.price_of_privacy.fano import users_unreliable  # noqa: E402
from dpcert.accountant.price_of_privacy.maxsense_threshold import maxsense_user_threshold  # noqa: E402
from dpcert.accountant.price_of_privacy.per_user_bounds import theorem_13_bound, theorem_14_bound  # noqa: E402
from dpcert.mechanisms.price_of_privacy.analysis import multimaxsense_queries  # noqa: E402
from dpcert.mechanisms.price_of_privacy.blockmodel import BlockModel  # noqa: E402
from dpcert.mechanisms.price_of_privacy.maxsense import simulate_maxsense  # noqa: E402
from dpcert.mechanisms.price_of_privacy.multi_maxsense import simulate_multi_maxsense  # noqa: E402

_STEPS_PER_DOUBLING = 4


def _grid(j: int) -> int:
    return max(1, round(2 ** (j / _STEPS_PER_DOUBLING)))


def users_needed(succeeds: Callable[[int], bool], guess: int) -> tuple[int, int]:
    """(smallest grid U with ``succeeds(U)``, evaluations), bracketing from ``guess`` by doublings, then bisecting.

    Assumes success is monotone in U over the bracket (with fixed seeds it is, up to the noise of the
    runs; the reported U is the grid point found, to within one grid step of 2^(1/4)).
    """
    j = round(_STEPS_PER_DOUBLING * math.log2(max(guess, 1)))
    evaluations = 0
    cache: dict[int, bool] = {}

    def ok(index: int) -> bool:
        nonlocal evaluations
        if index not in cache:
            cache[index] = succeeds(_grid(index))
            evaluations += 1
        return cache[index]

    if ok(j):
        hi = j
        while hi > 0 and ok(hi - _STEPS_PER_DOUBLING):
            hi -= _STEPS_PER_DOUBLING
        lo = hi - _STEPS_PER_DOUBLING
    else:
        lo = j
        while not ok(lo + _STEPS_PER_DOUBLING):
            lo += _STEPS_PER_DOUBLING
        hi = lo + _STEPS_PER_DOUBLING
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return _grid(hi), evaluations


def fit_slope(eps: list[float], users: list[float]) -> tuple[float, float]:
    """Least-squares slope of ln U against ln eps and its standard error (0 with only two points)."""
    lx, ly = [math.log(x) for x in eps], [math.log(y) for y in users]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((a - mx) ** 2 for a in lx)
    slope = sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sxx
    if n <= 2:
        return slope, 0.0
    residual = sum((b - my - slope * (a - mx)) ** 2 for a, b in zip(lx, ly))
    return slope, math.sqrt(residual / (n - 2) / sxx)


def lower_bound(N: int, w: int, eps: sympy.Expr) -> tuple[float, str]:
    """Users below which every non-adaptive eps-LDP learner errs more than half the time, and which bound gave it."""
    candidates = [lemma_6_bound(eps), theorem_13_bound(N, w, eps), theorem_14_bound(N, w, eps, any_eps=True)]
    best = min(candidates, key=lambda r: float(r.upper_value))
    return float(users_unreliable(best.upper_value, N)), best.name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/price_of_privacy_scaling.png")
    parser.add_argument("--N", type=int, default=32)
    parser.add_argument("--w", type=int, default=2, help="ratings per user")
    parser.add_argument("--blocks", type=int, default=4,
                        help="both algorithms sense N/blocks items per query: MaxSense's theta = w/blocks, "
                             "Multi-MaxSense's blocks have N/blocks items (the paper's N/w allows only Q <= w)")
    parser.add_argument("--eps", default="1/4,3/8,1/2,3/4,1,3/2,2,3,4", help="comma-separated exact eps values")
    parser.add_argument("--runs", type=int, default=24)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args()
    N, w, blocks = args.N, args.w, args.blocks
    theta = sympy.Rational(w, blocks)
    model = BlockModel.lower_bound_instance(N, w, sampling="subset")
    delta_min = sympy.exp(-theta / 2)
    d = sympy.log(2) / sympy.log(N)
    algorithms = {
        "maxsense": lambda U, eps, seed: simulate_maxsense(model, U, eps, theta=theta, rng=seed, sensing="collapsed"),
        "multi-maxsense": lambda U, eps, seed: simulate_multi_maxsense(model, U, eps, block_size=N // blocks, rng=seed),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    start = time.perf_counter()
    guesses: dict[str, float] = {}
    previous_bounds: dict[str, float] = {}
    for text in args.eps.split(","):
        eps = sympy.Rational(text)
        Q = multimaxsense_queries(eps)
        lower, lower_name = lower_bound(N, w, eps)
        row = {"eps": text, "Q": Q, "lower_bound": lower, "lower_bound_from": lower_name,
               "theorem15_upper": float(maxsense_user_threshold(N, w, eps, theta=theta, delta_min=delta_min,
                                                                d=d).upper),
               "theorem16_upper": float(maxsense_user_threshold(N, w, eps / Q, theta=theta, delta_min=delta_min,
                                                                d=d).upper) / Q}
        for name, run in algorithms.items():
            began = time.perf_counter()
            bound = row["theorem15_upper" if name == "maxsense" else "theorem16_upper"]
            # start where the bound's eps-scaling predicts (the first point: 1/64 of the bound)
            guess = bound / 64 if name not in guesses else guesses[name] * bound / previous_bounds[name]
            previous_bounds[name] = bound

            def succeeds(U: int, run=run, eps=eps) -> bool:
                return 2 * sum(run(U, eps, args.seed + r).exact_recovery for r in range(args.runs)) >= args.runs

            needed, evaluations = users_needed(succeeds, round(guess))
            guesses[name] = needed
            row[f"{name}_users"] = needed
            row[f"{name}_seconds"] = round(time.perf_counter() - began, 1)
            row[f"{name}_evaluations"] = evaluations
        rows.append(row)
        print(json.dumps(row), flush=True)
    seconds = time.perf_counter() - start
    eps_values = [float(sympy.Rational(r["eps"])) for r in rows]
    fits = {}
    for name in algorithms:
        for regime, keep in (("eps<=1", lambda e: e <= 1), ("eps>=1", lambda e: e >= 1)):
            chosen = [(e, r[f"{name}_users"]) for e, r in zip(eps_values, rows) if keep(e)]
            if len(chosen) >= 2:
                slope, error = fit_slope([c[0] for c in chosen], [c[1] for c in chosen])
                fits[f"{name} {regime}"] = (slope, error, min(c[0] for c in chosen), max(c[0] for c in chosen))
    bound_fits = {}
    for key, column in (("Theorem 15 (MaxSense)", "theorem15_upper"), ("Theorem 16 (Multi-MaxSense)", "theorem16_upper"),
                        ("lower bound", "lower_bound")):
        for regime, keep in (("eps<=1", lambda e: e <= 1), ("eps>=1", lambda e: e >= 1)):
            chosen = [(e, r[column]) for e, r in zip(eps_values, rows) if keep(e)]
            if len(chosen) >= 2:
                bound_fits[f"{key} {regime}"] = fit_slope([c[0] for c in chosen], [c[1] for c in chosen])[0]
    _plot(out, rows, eps_values, N, w, args.runs)
    summary = {"plot": str(out), "seconds": round(seconds, 1), "N": N, "w": w, "blocks": blocks,
               "runs": args.runs, "seed": args.seed,
               "slopes": {k: {"slope": round(v[0], 3), "stderr": round(v[1], 3), "eps_range": [v[2], v[3]]}
                          for k, v in fits.items()},
               "bound_slopes": {k: round(v, 3) for k, v in bound_fits.items()}}
    print(json.dumps(summary))
    out.with_suffix(".jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + json.dumps(summary) + "\n")
    out.with_suffix(".md").write_text(_markdown(rows, fits, bound_fits, summary))


def _plot(out: Path, rows: list[dict], eps_values: list[float], N: int, w: int, runs: int) -> None:
    fig, ax = plt.subplots(figsize=(6.6, 4.6))
    ax.loglog(eps_values, [r["theorem15_upper"] for r in rows], "s--", color="tab:blue", alpha=0.6,
              label="Theorem 15 upper bound (MaxSense)")
    ax.loglog(eps_values, [r["theorem16_upper"] for r in rows], "D--", color="tab:orange", alpha=0.6,
              label="Theorem 16 upper bound (Multi-MaxSense, Q = ceil(eps))")
    ax.loglog(eps_values, [r["maxsense_users"] for r in rows], "o-", color="tab:blue", label="MaxSense, simulated")
    ax.loglog(eps_values, [r["multi-maxsense_users"] for r in rows], "^-", color="tab:orange",
              label="Multi-MaxSense, simulated")
    ax.loglog(eps_values, [r["lower_bound"] for r in rows], "v:", color="black",
              label="lower bound, any non-adaptive eps-LDP learner")
    ax.axvline(1, color="grey", lw=0.6)
    ax.set_xlabel("eps")
    ax.set_ylabel("users U (exact recovery in >= half the runs)")
    ax.set_title(f"Users needed against eps (N = {N}, w = {w}, {runs} runs per point)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def _markdown(rows: list[dict], fits: dict, bound_fits: dict, summary: dict) -> str:
    lines = [
        "# Users needed against eps: MaxSense and Multi-MaxSense",
        "",
        f"Lower-bound instance of 000_0c6e7fdc3fd68303.txt (Section 3.1): N = {summary['N']} items, w = {summary['w']} "
        "ratings per user (uniform w-subsets), Z uniform, deterministic ratings. \"Users\" is the smallest U on the "
        f"grid 2^(j/4) with exact recovery in at least half of {summary['runs']} runs (seeds {summary['seed']}.."
        f"{summary['seed'] + summary['runs'] - 1}); both algorithms sense N/{summary['blocks']} items per query: "
        f"MaxSense with theta = w/{summary['blocks']}, Multi-MaxSense with Q = ceil(eps) disjoint blocks of "
        f"N/{summary['blocks']} items (the paper's N/w blocks would allow only Q <= w). Upper bounds: Theorem 15 (re-derived constant 300, success >= 1/2) and Theorem 16 "
        "(Theorem 15 with U -> QU, eps -> eps/Q). Lower bound: Corollary 21 + Fano with the per-user information "
        "min(Lemma 6, Theorem 13, Theorem 14 for every eps).",
        "",
        f"Produced by `python benchmarks/plot_price_of_privacy_scaling.py` in {summary['seconds']} s on one core; "
        "figure `docs/price_of_privacy_scaling.png`, rows `docs/price_of_privacy_scaling.jsonl`.",
        "",
        "| eps | Q | MaxSense users | Multi-MaxSense users | Theorem 15 upper | Theorem 16 upper | lower bound (from) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['eps']} | {r['Q']} | {r['maxsense_users']} | {r['multi-maxsense_users']} | "
                     f"{r['theorem15_upper']:.3g} | {r['theorem16_upper']:.3g} | "
                     f"{r['lower_bound']:.3g} ({r['lower_bound_from']}) |")
    lines += ["", "Fitted log-log slopes of users against eps (least squares; +- one standard error):", "",
              "| series | eps range | measured slope | bound's slope on the same range |", "|---|---|---|---|"]
    bound_of = {"maxsense": "Theorem 15 (MaxSense)", "multi-maxsense": "Theorem 16 (Multi-MaxSense)"}
    for key, (slope, error, lo, hi) in fits.items():
        name, regime = key.split(" ")
        lines.append(f"| {name} | [{lo:g}, {hi:g}] | {slope:.2f} +- {error:.2f} | "
                     f"{bound_fits[f'{bound_of[name]} {regime}']:.2f} |")
    lines += ["", "Lower bound's slope: " + ", ".join(f"{k.split(' ')[-1]}: {v:.2f}" for k, v in bound_fits.items()
                                                    if k.startswith("lower")) + ".", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
