"""p-REC's loss against its eps, beside the paper's bounds (001_8845c8f909738498.txt, Theorems 15, 16, 17).

p-REC has no eps knob: its eps is set by the number P of the client's peers (Theorem 17). Three panels:

(a) loss against eps: for P on a grid (m = 2, T = 200, n = 400 voters, R = D = 0; P planted peers, the other
    voters hostile), the mean loss of seeded p-REC runs with its 99.9% Student-t interval, beside Theorem 16's
    loss bound, each at Theorem 17's printed eps for that P;
(b) the exact tightest eps of small instances (m = 2, T = 8, D = 1, R = 0; the exact checker on seeded planted
    pairs, the largest over the seeds) against Theorem 17's printed and tight eps, for P = 1..24 peers
    (P < 12 = 6m lies outside the proof's condition);
(c) the trade-off Theorem 15 forces: its randomized adversary (m = 2, T = 128, D = 29, R = 1, P = 12) against
    p-REC with gamma from the paper's value to 1 (uniform), exact expected loss and forced eps
    E[KL | legal]/(2P), beside Theorem 15's lower bound as a function of the loss.

Run: python benchmarks/plot_prec.py [--out docs/prec_loss_eps.png] [--summary docs/prec_loss_eps.md]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import scipy.stats  # noqa: E402
import sympy  # noqa: E402

from dpcert.accountant.online_recommendation.bounds import (  # noqa: E402
    eps_lower_theorem_15,
    eps_upper_prec,
    loss_upper_prec,
)
from dpcert.mechanisms.online_recommendation import PREC, PRECSim, planted_instance, planted_pair  # noqa: E402
from dpcert.mechanisms.online_recommendation.lower_bound_adversary import (  # noqa: E402
    Theorem15Adversary,
    adversary_statistics,
)
from dpcert.proofs.exact import tightest_epsilon  # noqa: E402


def loss_panel(runs: int, seed: int) -> list[dict[str, float]]:
    m, T, n = 2, 200, 400
    rows = []
    for P in (12, 16, 24, 32, 48, 64, 96, 128, 200):
        rng = np.random.default_rng(seed + P)
        instance = planted_instance(m, T, P=P, others=n - P, hostile=True, rng=rng)
        loss = PRECSim(m, T).simulate(instance, runs, rng).total_loss
        half = scipy.stats.t.ppf(1 - 0.0005, runs - 1) * loss.std(ddof=1) / math.sqrt(runs)
        rows.append({"P": P, "eps": float(eps_upper_prec(m, T, 0, 0, P).value), "loss": float(loss.mean()),
                     "half": float(half), "bound": float(loss_upper_prec(m, n, P, 0, T).value)})
    return rows


def exact_panel(seeds: int) -> list[dict[str, float]]:
    m, T, D, R = 2, 8, 1, 0
    rows = []
    for P in (1, 2, 3, 4, 6, 8, 12, 16, 24):
        worst = 0.0
        for s in range(seeds):
            mechanism = planted_pair(PREC(m, T, D, R), P=P, others=4, hostile=s % 2 == 0, rng=np.random.default_rng(s))
            worst = max(worst, float(tightest_epsilon(mechanism).epsilon))
        k = 2 * D + 2 * R + 1
        rows.append({"P": P, "exact": worst, "paper": 36 * m**2 * k * math.log(T / (R + 1)) / P,
                     "tight": 18 * m**2 * k**2 * math.log(T / (R + 1)) / ((D + R + 1) * P)})
    return rows


def tradeoff_panel() -> tuple[list[dict[str, float]], list[tuple[float, float]]]:
    T, D, R, P = 128, 29, 1, 12
    adversary = Theorem15Adversary(T, D, R, P)
    rows = []
    for gamma in (None, sympy.Rational(1, 16), sympy.Rational(1, 8), sympy.Rational(1, 4), sympy.Rational(3, 8),
                  sympy.Rational(1, 2), sympy.Rational(3, 4), sympy.Integer(1)):
        algorithm = PREC(2, T, D, R, gamma=gamma)
        stats = adversary_statistics(algorithm, adversary)
        rows.append({"gamma": float(algorithm.params.gamma), "loss": stats.legal_loss, "forced": stats.forced_epsilon(P)})
    curve = [(L, float(eps_lower_theorem_15(T, sympy.Rational(L), D, R, P).value)) for L in np.linspace(0.05, 2.2, 60)]
    return rows, curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/prec_loss_eps.png")
    parser.add_argument("--summary", default="docs/prec_loss_eps.md")
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    start = time.perf_counter()
    loss_rows = loss_panel(args.runs, args.seed)
    exact_rows = exact_panel(args.seeds)
    trade_rows, curve = tradeoff_panel()
    elapsed = time.perf_counter() - start

    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    ax = axes[0]
    eps = [r["eps"] for r in loss_rows]
    ax.errorbar(eps, [r["loss"] for r in loss_rows], yerr=[r["half"] for r in loss_rows], fmt="o-",
                label=f"p-REC, mean loss of {args.runs} runs (99.9% CI)")
    ax.plot(eps, [r["bound"] for r in loss_rows], "s--", label="Theorem 16 loss bound")
    ax.set(xscale="log", xlabel="Theorem 17 eps (P = 200 ... 12 peers)", ylabel="loss (disliked recommendations)",
           title="(a) m=2, T=200, n=400, D=R=0")
    ax.legend(fontsize=8)
    ax = axes[1]
    Ps = [r["P"] for r in exact_rows]
    ax.plot(Ps, [r["exact"] for r in exact_rows], "o-", label=f"exact tightest eps (max of {args.seeds} pairs)")
    ax.plot(Ps, [r["paper"] for r in exact_rows], "--", label="Theorem 17, printed")
    ax.plot(Ps, [r["tight"] for r in exact_rows], ":", label="Theorem 17, tight form")
    ax.axvspan(0.8, 12, color="0.9", label="P < 6m: outside the proof")
    ax.set(xscale="log", yscale="log", xlabel="peers P in the larger pattern", ylabel="eps",
           title="(b) m=2, T=8, D=1, R=0")
    ax.legend(fontsize=8)
    ax = axes[2]
    ax.plot([r["loss"] for r in trade_rows], [r["forced"] for r in trade_rows], "o-",
            label="p-REC, gamma = paper ... 1: forced eps")
    ax.plot([c[0] for c in curve], [c[1] for c in curve], "--", label="Theorem 15 lower bound at loss L")
    ax.axhline(0, color="0.5", lw=0.5)
    ax.set(xscale="log", xlabel="expected loss on legal configurations", ylabel="eps forced on the 2P-step chain",
           title="(c) Theorem 15's adversary, T=128, D=29, R=1, P=12")
    ax.legend(fontsize=8)
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)

    lines = ["# p-REC: loss against eps, exact eps against Theorem 17, Theorem 15's forced trade-off", "",
             f"Command: `python benchmarks/plot_prec.py --runs {args.runs} --seeds {args.seeds} --seed {args.seed}` "
             f"({elapsed:.0f} s on one core). Figure: `{args.out}`.", "",
             "(a) m = 2, T = 200, n = 400 voters (P peers, the rest hostile), D = R = 0:", "",
             "| P | Theorem 17 eps | mean loss (99.9% CI) | Theorem 16 bound |", "|---|---|---|---|"]
    lines += [f"| {r['P']} | {r['eps']:.2f} | {r['loss']:.2f} ± {r['half']:.2f} | {r['bound']:.1f} |" for r in loss_rows]
    lines += ["", "(b) m = 2, T = 8, D = 1, R = 0, exact tightest eps (largest over the seeded pairs):", "",
              "| P | exact eps | Theorem 17 printed | tight form |", "|---|---|---|---|"]
    lines += [f"| {r['P']} | {r['exact']:.4f} | {r['paper']:.1f} | {r['tight']:.1f} |" for r in exact_rows]
    lines += ["", "(c) Theorem 15's adversary, m = 2, T = 128, D = 29, R = 1, P = 12 (exact expectations):", "",
              "| gamma | E[loss \\| legal] | forced eps | Theorem 15 bound at that loss |", "|---|---|---|---|"]
    lines += [f"| {r['gamma']:.4f} | {r['loss']:.3f} | {r['forced']:.4f} | "
              f"{float(eps_lower_theorem_15(128, sympy.Rational(r['loss']), 29, 1, 12).value):.4f} |" for r in trade_rows]
    Path(args.summary).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
