"""Speed and tightness of the shuffle accountant (issue targets).

Targets: ``fmt21-numeric`` at n = 10^6 in under 1 s and at n = 10^8 in under 5 s on 2 cores, with an
upper-lower gap under 10^-5 in eps, rigorously; the exact truth for shuffled binary randomized response
(worst case over the other users' data) at n = 2000 and for 3-ary randomized response on given
datasets at n = 200, each under 30 s.

Run: python benchmarks/bench_shuffle.py [--skip-blocks] [--block-steps 100,1000]

Side by side, the *block procedure* of Feldman, McMillan and Talwar's published numerical analysis,
re-implemented here from its description (not from their code): C ~ Bin(n - 1, e^-eps0) is cut into
blocks of ``step`` consecutive values; since h_c(eps) does not increase with c, a block [a, b)
contributes at most Pr[C in [a, b)] max(h_a, h_b) and at least Pr[C in [a, b)] min(h_a, h_b); the
two sums are inverted by bisection in eps. Everything is float64 (scipy's binomial cdf and incomplete
beta), so neither end is rigorous, and the block width sets the gap. dpcert instead sums every c of a
certified window in interval arithmetic (see accountant/shuffle_numeric.py).
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
import sympy
from scipy import special, stats

from dpcert.accountant.shuffle import exact_shuffled_krr, exact_shuffled_rr, fmt21_numeric


def _h(eps: float, s: float, c: np.ndarray) -> np.ndarray:
    """h_c(eps) in float64 (FMT 2021 clone pair, first coordinate law given C = c)."""
    t = math.exp(eps)
    if t >= s:
        return np.zeros_like(c, dtype=float)
    kappa = (t * s - 1) / ((t + 1) * (s - 1))
    m = np.floor(kappa * (c + 1)) + 1
    log_b = special.gammaln(c + 1) - special.gammaln(m) - special.gammaln(c - m + 2) - c * math.log(2)
    tail = np.where(m <= c, special.betainc(np.minimum(m, c), np.maximum(c - m + 1, 1), 0.5), 0.0)
    return np.maximum((s - t) / (s + 1) * np.exp(log_b) - (t - 1) * tail, 0.0)


def block_procedure(eps0: float, n: int, delta: float, step: int, iterations: int = 40) -> dict[str, float]:
    """The published block procedure (float64), re-implemented from its description."""
    s, p = math.exp(eps0), math.exp(-eps0)
    edges = np.arange(0, n + step, step, dtype=float)
    edges[-1] = min(edges[-1], n)
    edges = np.unique(np.minimum(edges, n))  # block [edges[i], edges[i+1]) of C in [0, n - 1]
    mass = np.diff(stats.binom.cdf(edges - 1, n - 1, p))
    starts, ends = edges[:-1], np.minimum(edges[1:] - 1, n - 1)

    def bounds(eps: float) -> tuple[float, float]:
        h_start, h_end = _h(eps, s, starts), _h(eps, s, ends)
        return float(np.sum(mass * np.maximum(h_start, h_end))), float(np.sum(mass * np.minimum(h_start, h_end)))

    def invert(which: int) -> float:
        lo, hi = 0.0, eps0
        for _ in range(iterations):
            mid = (lo + hi) / 2
            if bounds(mid)[which] > delta:
                lo = mid
            else:
                hi = mid
        return hi if which == 0 else lo

    start = time.perf_counter()
    upper, lower = invert(0), invert(1)
    return {"upper": upper, "lower": lower, "gap": upper - lower, "seconds": time.perf_counter() - start}


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-blocks", action="store_true", help="do not run the float block procedure")
    parser.add_argument("--block-steps", default="100,1000", help="block sizes at n = 10^6 (10^5 is used at 10^8)")
    args = parser.parse_args()
    delta = sympy.Rational(1, 10**6)
    report: dict[str, object] = {}

    for n in (10**6, 10**8):
        result, seconds = timed(fmt21_numeric, 1, n, delta)
        low, high = result.enclosure
        report[f"dpcert_fmt21_numeric_n{n:.0e}"] = {
            "enclosure": [low, high], "upper": result.upper, "gap": high - low,
            "seconds": round(seconds, 3), "rigorous": True}
    if not args.skip_blocks:
        for step in (int(x) for x in args.block_steps.split(",")):
            report[f"blocks{step}_n1e+06"] = {k: round(v, 9) if k != "seconds" else round(v, 3)
                                            for k, v in block_procedure(1.0, 10**6, 1e-6, step).items()}
        report["blocks100000_n1e+08"] = {k: round(v, 9) if k != "seconds" else round(v, 3)
                                         for k, v in block_procedure(1.0, 10**8, 1e-6, 10**5).items()}

    truth, seconds = timed(exact_shuffled_rr, 1, 2000, delta)
    report["exact_binary_rr_worst_case_n2000"] = {"lower": truth.lower, "upper": truth.upper,
                                                  "seconds": round(seconds, 3)}
    rest = [i % 3 for i in range(199)]
    truth, seconds = timed(exact_shuffled_krr, 1, 3, rest + [0], rest + [1], delta)
    report["exact_3rr_given_datasets_n200"] = {"lower": truth.lower, "upper": truth.upper,
                                               "seconds": round(seconds, 3)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
