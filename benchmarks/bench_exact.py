"""Speed of the exact checker (issue targets: k-RR k = 1000 tightest eps < 10 s and >= 100x the naive loop;
a 200x200 channel under an explicit metric verified exactly in < 30 s).

Run: python benchmarks/bench_exact.py [--naive-rows 5]

The naive method is the textbook triple loop over (x, x', y) with fractions.Fraction. At k = 1000 it
has 10^9 iterations (hours), so it is timed on the first ``--naive-rows`` inputs x (all x', y) and
scaled linearly by 1000 / rows; at k = 100 it is also run in full, side by side with dpcert.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction

import sympy

from dpcert.mechanisms import KaryRandomizedResponse, Metric, make_mechanism
from dpcert.proofs.exact import check_finite, tightest_epsilon
from dpcert.proofs.guarantees import MetricDP


def naive_max_ratio(k: int, eps_ratio: Fraction, rows: int) -> Fraction:
    """max over x < rows, x' != x, y of P(y|x)/P(y|x') for k-RR with e^eps = eps_ratio, with Fractions."""
    p = eps_ratio / (eps_ratio + k - 1)
    q = 1 / (eps_ratio + k - 1)
    channel = [[p if y == x else q for y in range(k)] for x in range(k)]
    best = Fraction(0)
    for x in range(rows):
        for x_prime in range(k):
            if x_prime == x:
                continue
            for y in range(k):
                ratio = channel[x][y] / channel[x_prime][y]
                if ratio > best:
                    best = ratio
    return best


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive-rows", type=int, default=5, help="inputs x the naive loop runs at k = 1000")
    args = parser.parse_args()
    report = {}

    fast, seconds = timed(tightest_epsilon, KaryRandomizedResponse(1000, 1))
    report["krr1000_eps1_dpcert_s"] = round(seconds, 3)
    assert fast.epsilon == 1

    fast, seconds = timed(tightest_epsilon, KaryRandomizedResponse(1000, sympy.log(2)))
    report["krr1000_eps_log2_dpcert_s"] = round(seconds, 3)
    assert fast.epsilon == sympy.log(2)
    naive, naive_seconds = timed(naive_max_ratio, 1000, Fraction(2), args.naive_rows)
    assert naive == 2
    scaled = naive_seconds * 1000 / args.naive_rows
    report["krr1000_naive_s_extrapolated"] = round(scaled, 1)
    report["krr1000_speedup"] = round(scaled / seconds, 1)

    fast, seconds = timed(tightest_epsilon, KaryRandomizedResponse(100, sympy.log(2)))
    naive, naive_seconds = timed(naive_max_ratio, 100, Fraction(2), 100)
    assert naive == 2 and fast.epsilon == sympy.log(2)
    report["krr100_dpcert_s"] = round(seconds, 3)
    report["krr100_naive_full_s"] = round(naive_seconds, 3)
    report["krr100_speedup"] = round(naive_seconds / seconds, 1)

    start = time.perf_counter()
    geometric = make_mechanism("geometric", raw={"eps": "1/2", "lo": 0, "hi": 199})
    metric = Metric.from_matrix(geometric.inputs(), [[abs(a - b) for b in geometric.inputs()] for a in geometric.inputs()])
    certificate = check_finite(geometric, MetricDP("1/2"), relation=metric)
    report["metric200_verify_s"] = round(time.perf_counter() - start, 3)
    report["metric200_verdict"] = certificate.verdict.value
    report["metric200_tightest_eps"] = str(certificate.epsilon)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
