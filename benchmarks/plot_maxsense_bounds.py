"""Where MaxSense sits between the bounds: users needed at fixed accuracy against N.

On the paper's lower-bound instance (one user class, two item clusters, Z uniform in {0,1}^N,
deterministic ratings; 000_0c6e7fdc3fd68303.txt, Section 3.1) with eps < ln 2, for each N this finds the
smallest U on a geometric grid at which MaxSense recovers every item cluster in at least half of
``--runs`` seeded runs, and plots it beside

- the Theorem 14 lower bound: below ((1/2) N - 1) / (I log2 e) users, with I the Theorem 14 per-user
  information bound in nats, every eps-LDP non-adaptive learner fails more than half of the time
  (Corollary 21 + Fano);
- the Theorem 15 upper bound (re-derived constant) for success probability >= 1/2 (d = ln 2 / ln N),
  with delta_min = e^(-theta/2) for this instance.

Run: python benchmarks/plot_maxsense_bounds.py [--out docs/maxsense_bounds.png]
Prints a JSON table of the numbers behind the plot.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import sympy  # noqa: E402

from dpcert.accountant.price_of_privacy.fano import users_unreliable
from dpcert.accountant.price_of_privacy.maxsense_threshold import maxsense_user_threshold
from dpcert.accountant.price_of_privacy.per_user_bounds import theorem_14_bound
from dpcert.mechanisms.price_of_privacy.blockmodel import BlockModel  # noqa: E402
from dpcert.mechanisms.price_of_privacy.maxsense import simulate_maxsense  # noqa: E402


def users_needed(N: int, w: int, eps: sympy.Expr, runs: int, start: int, seed: int) -> int:
    """The smallest U on the grid start * 1.5^j with exact recovery in >= half of ``runs`` runs."""
    model = BlockModel.lower_bound_instance(N, w, sampling="independent")
    U = start
    while True:
        wins = sum(simulate_maxsense(model, U, eps, rng=seed + r, sensing="collapsed").exact_recovery
                   for r in range(runs))
        if 2 * wins >= runs:
            return U
        U = int(U * 1.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/maxsense_bounds.png")
    parser.add_argument("--sizes", default="10,20,40,80,160", help="comma-separated item counts N")
    parser.add_argument("--w", type=int, default=2)
    parser.add_argument("--eps", default="1/2", help="must be < ln 2 for Theorem 14")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    eps = sympy.Rational(args.eps) if "/" in args.eps else sympy.nsimplify(args.eps)
    rows = []
    start = time.perf_counter()
    previous = 1000
    for N in (int(n) for n in args.sizes.split(",")):
        info = theorem_14_bound(N, args.w, eps)
        lower = users_unreliable(info.upper_value, N)
        d = sympy.log(2) / sympy.log(N)
        upper = maxsense_user_threshold(N, args.w, eps, theta=1, delta_min=sympy.exp(-sympy.Rational(1, 2)), d=d)
        needed = users_needed(N, args.w, eps, args.runs, max(1000, previous // 2), args.seed)
        previous = needed
        rows.append({"N": N, "theorem14_lower": float(lower), "maxsense_users": needed,
                     "theorem15_upper": upper.upper})
        print(json.dumps(rows[-1]), flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    sizes = [r["N"] for r in rows]
    ax.loglog(sizes, [r["theorem15_upper"] for r in rows], "s--", label="Theorem 15 upper bound (re-derived)")
    ax.loglog(sizes, [r["maxsense_users"] for r in rows], "o-", label="MaxSense, simulated (exact recovery >= 1/2)")
    ax.loglog(sizes, [r["theorem14_lower"] for r in rows], "v--", label="Theorem 14 lower bound (any eps-LDP)")
    ax.set_xlabel("items N")
    ax.set_ylabel("users U")
    ax.set_title(f"Users needed at w = {args.w}, eps = {args.eps} (lower-bound instance)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(json.dumps({"plot": str(out), "seconds": round(time.perf_counter() - start, 1),
                      "slope_simulated": _slope(sizes, [r["maxsense_users"] for r in rows])}))


def _slope(xs: list[int], ys: list[float]) -> float:
    """Least-squares slope of log y against log x (the empirical exponent of N)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return round(sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx), 3)


if __name__ == "__main__":
    main()
