"""The ``optimal`` shuffle row on the experiment grid of Su, Cheng and Wang ("Decomposition-Based Optimal Bounds for
Privacy Amplification via Shuffling", IEEE S&P 2026): eps0 = 0.1 per randomizer, delta = 1e-6, n from 10^3 to
10^5.

Four panels, each the certified upper end of eps against n:

(a) the named randomizers (Laplace on a bit, OUE, RAPPOR and binary local hashing over 10 values, 10-RR) beside
    the bound for any eps0-LDP randomizer (fmt21-numeric, what their users had before);
(b) joint composition of 10-RR: 1, 2 and 4 reports per user, each at eps0 = 0.1 (the row's eps0 is 0.1 m);
(c) parallel composition: each user runs 10-RR or binary local hashing (D = 10), chosen uniformly, beside each;
(d) 10-RR with users Poisson-sampled before the shuffler at rates 0.1, 0.3, 0.5, 0.8 and 1.

Lower ends: where the row has one (n <= 10^4, not beside Hadamard response: the exact eps of one pair of
datasets, bounded from below), panel (a) draws it for 10-RR as a dotted line (OUE, RAPPOR, BLH and Laplace have
one too, not drawn).

Run: python benchmarks/plot_shuffle_randomizers.py [--out docs/shuffle_randomizers.png]
     [--summary docs/shuffle_randomizers.md]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import sympy  # noqa: E402

from dpcert.accountant.shuffle import shuffle_bound  # noqa: E402

EPS0 = sympy.Rational(1, 10)
DELTA = sympy.Rational(1, 10**6)
USERS = (1000, 3000, 10000, 30000, 100000)
NAMED = {"Laplace on a bit": "laplace", "OUE (k = 10)": "oue:k=10", "RAPPOR (D = 10)": "rappor:D=10",
         "BLH (D = 10)": "blh:D=10", "10-RR": "k-rr:k=10"}


def curve(eps0: sympy.Expr, **kwargs: object) -> list[float]:
    """The certified upper end of ``optimal`` at every n (kwargs: randomizer, sampling)."""
    return [shuffle_bound("optimal", eps0, n, DELTA, **kwargs).upper for n in USERS]


def lower_curve(eps0: sympy.Expr, **kwargs: object) -> list[float]:
    """The certified lower end of ``optimal`` at every n where it has one (nan elsewhere)."""
    rows = [shuffle_bound("optimal", eps0, n, DELTA, **kwargs) for n in USERS]
    return [float("nan") if row.lower is None else row.lower for row in rows]


def panels() -> dict[str, dict[str, list[float]]]:
    single = {label: curve(EPS0, randomizer=spec) for label, spec in NAMED.items()}
    single["10-RR, lower end (one pair of datasets)"] = lower_curve(EPS0, randomizer="k-rr:k=10")
    single["any eps0-LDP randomizer (fmt21-numeric)"] = [shuffle_bound("fmt21-numeric", EPS0, n, DELTA).upper
                                                         for n in USERS]
    joint = {f"{m} report{'s' if m > 1 else ''} of 10-RR": curve(EPS0 * m, randomizer="&".join(["k-rr:k=10"] * m))
             for m in (1, 2, 4)}
    mixture = {"10-RR or BLH (D = 10), one per user": curve(EPS0, randomizer="k-rr:k=10|blh:D=10"),
               "10-RR": single["10-RR"], "BLH (D = 10)": single["BLH (D = 10)"]}
    sampled = {f"rate {rate}": curve(EPS0, randomizer="k-rr:k=10", sampling=sympy.Rational(rate))
               for rate in ("1/10", "3/10", "1/2", "4/5")}
    sampled["rate 1"] = single["10-RR"]
    return {"(a) named randomizers, eps0 = 0.1": single, "(b) joint composition, eps0 = 0.1 per report": joint,
            "(c) parallel composition, eps0 = 0.1": mixture, "(d) users sampled before the shuffler": sampled}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/shuffle_randomizers.png")
    parser.add_argument("--summary", default="docs/shuffle_randomizers.md")
    args = parser.parse_args()
    started = time.perf_counter()
    data = panels()
    seconds = time.perf_counter() - started
    figure, axes = plt.subplots(2, 2, figsize=(12, 9), sharex=True)
    for axis, (title, curves) in zip(axes.flat, data.items()):
        for label, values in curves.items():
            style = "--" if "any eps0" in label else ":" if "lower end" in label else "-"
            axis.loglog(USERS, values, marker="o", linestyle=style, label=label)
        axis.set_title(title, fontsize=10)
        axis.set_xlabel("users n")
        axis.set_ylabel("certified eps (delta = 1e-6)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle("dpcert bound shuffle --method optimal: the blanket decomposition's mean, certified")
    figure.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.out, dpi=110)
    lines = ["# The optimal shuffle row on Su, Cheng and Wang's grid (eps0 = 0.1, delta = 1e-6)", "",
             f"`python benchmarks/plot_shuffle_randomizers.py` ({seconds:.0f} s); figure `{Path(args.out).name}`. "
             "Certified upper ends of eps, and 10-RR's certified lower end where the row has one (nan: none).", ""]
    for title, curves in data.items():
        lines += [f"## {title}", "", "| curve | " + " | ".join(f"n = {n}" for n in USERS) + " |",
                  "|---|" + "---|" * len(USERS)]
        lines += [f"| {label} | " + " | ".join(f"{v:.5g}" for v in values) + " |" for label, values in curves.items()]
        lines.append("")
    Path(args.summary).write_text("\n".join(lines))
    print(f"wrote {args.out} and {args.summary} in {seconds:.0f} s")


if __name__ == "__main__":
    main()
