"""Speed of every closed-form information and sample-complexity bound at N = 10^12 (target: < 50 ms each).

Run: python benchmarks/bench_bounds.py [--repeat 5] [--strict]

Each bound is evaluated ``--repeat`` times with sympy's cache and dpcert's memoised overlap brackets
and binomial tails cleared before every run (a cold evaluation), and the time includes the outward-rounded floats of the result (``upper``/``lower``),
i.e. everything ``dpcert bound`` needs to print it. Prints one JSON object: the median and maximum
milliseconds per bound, its displayed value, and whether the median meets the target. With
``--strict`` the exit code is 1 when a median misses the target.

Paths exercised: exact integer arithmetic (w <= 2000, including 40-digit compaction of long
rationals), mpmath interval arithmetic (w > 2000, lgamma), the convex-order enclosure (w^2/N large),
and the enclosed binomial tail of Theorem 23 (d > 2000).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import sympy
from sympy.core.cache import clear_cache

import dpcert.accountant.price_of_privacy.fano as fano_module
import dpcert.accountant.price_of_privacy.subset_overlap as subset_overlap_module
from dpcert.accountant.price_of_privacy.adaptive import adaptive_min_queries, theorem_17_adaptive_bound
from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.channel_information import lemma_6_bound
from dpcert.accountant.price_of_privacy.families import fano_family as fano
from dpcert.accountant.price_of_privacy.families import ldp_mutual_information_family as ldp_mutual_information
from dpcert.accountant.price_of_privacy.fano import (
    appendix_a_chernoff_check,
    theorem_7_paper_witness,
    theorem_7_user_threshold,
    theorem_10_user_threshold,
    theorem_23_user_threshold,
    users_unreliable,
)
from dpcert.accountant.price_of_privacy.per_user_bounds import per_user_mi_bound, theorem_13_bound, theorem_14_bound
from dpcert.accountant.price_of_privacy.subset_overlap import binomial_ratio, binomial_ratio_bounds, lemma_12_sandwich

N = 10**12
EPS = sympy.Rational(1, 2)
TARGET_MS = 50.0
W_VALUES = [1, 10, 1000, 2000, 2001, 10**4, 10**6, 10**8]


def _finish(result: object) -> str:
    """Force what printing needs (outward-rounded floats) and return a short display string."""
    if isinstance(result, BoundResult):
        _ = (result.upper, result.lower)
        return result.display()
    if isinstance(result, list):
        return "; ".join(f"{r.name}={_finish(r)}" for r in result)
    if isinstance(result, tuple):
        return str(tuple(str(sympy.sympify(x).evalf(8)) for x in result))
    if hasattr(result, "fano_bound"):
        return f"U={result.users}, fano={sympy.sympify(result.fano_bound).evalf(8)}, refutes={result.refutes}"
    if hasattr(result, "holds"):
        return f"holds={result.holds}, delta={result.chernoff_delta}"
    return str(sympy.sympify(result).evalf(10))


def cases() -> list[tuple[str, str, object]]:
    rows: list[tuple[str, str, object]] = [
        ("lemma_6_bound", "eps=1/2", lambda: lemma_6_bound(EPS)),
        ("binomial_ratio", "w=1000 (exact)", lambda: binomial_ratio(N, 1000)),
        ("binomial_ratio_bounds", "w=10^6 (interval)", lambda: binomial_ratio_bounds(N, 10**6)),
        ("lemma_12_sandwich", "w=1000 (exact)", lambda: lemma_12_sandwich(N, 1000)),
    ]
    for w in W_VALUES:
        rows += [
            ("theorem_13_bound", f"w={w}", lambda w=w: theorem_13_bound(N, w, EPS)),
            ("theorem_13_bound[paper]", f"w={w}", lambda w=w: theorem_13_bound(N, w, EPS, form="paper")),
            ("theorem_14_bound", f"w={w}", lambda w=w: theorem_14_bound(N, w, EPS)),
            ("per_user_mi_bound", f"w={w}", lambda w=w: per_user_mi_bound(N, w, EPS)),
        ]
    rows += [
        ("theorem_17_adaptive_bound", "T=10^6 (linear, exact)", lambda: theorem_17_adaptive_bound(10**6, N, EPS)),
        ("theorem_17_adaptive_bound", "T=10^13 (interval)", lambda: theorem_17_adaptive_bound(10**13, N, EPS)),
        ("adaptive_min_queries", "bits=N/2-1", lambda: adaptive_min_queries(N, EPS, N // 2 - 1)),
        ("theorem_7_user_threshold", "corrected", lambda: theorem_7_user_threshold(N, EPS)),
        ("theorem_7_user_threshold", "paper", lambda: theorem_7_user_threshold(N, EPS, form="paper")),
        ("theorem_7_paper_witness", "", lambda: theorem_7_paper_witness(N, EPS)),
        ("theorem_10_user_threshold", "", lambda: theorem_10_user_threshold(N)),
        ("users_unreliable", "I=thm14(w=10)", lambda: users_unreliable(theorem_14_bound(N, 10, EPS).upper_value, N)),
        ("theorem_23_user_threshold", "K=2, d=0", lambda: theorem_23_user_threshold(N, 2, 0, EPS)),
        ("theorem_23_user_threshold", "K=5, d=1000 (exact tail)", lambda: theorem_23_user_threshold(N, 5, 1000, EPS)),
        ("theorem_23_user_threshold", "K=5, d=10^6 (enclosed)", lambda: theorem_23_user_threshold(N, 5, 10**6, EPS)),
        ("theorem_23_user_threshold[paper]", "K=5, d=1000",
         lambda: theorem_23_user_threshold(N, 5, 1000, EPS, exact_tail=False)),
        ("appendix_a_chernoff_check", "K=3, d=10", lambda: appendix_a_chernoff_check(N, 3, 10)),
        ("family ldp-mutual-information", "w=10", lambda: ldp_mutual_information(N, 10, EPS)),
        ("family ldp-mutual-information", "w=10^6", lambda: ldp_mutual_information(N, 10**6, EPS)),
        ("family fano", "w=10, K=5, d=1000", lambda: fano(N, EPS, w=10, K=5, d=1000)),
    ]
    return rows


def cold() -> None:
    """Clear sympy's cache and dpcert's memoised brackets and tails, so every run is a cold evaluation."""
    clear_cache()
    subset_overlap_module._bracket_cached.cache_clear()
    fano_module._log_tail_sum_cached.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="cold evaluations per bound (median reported)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a median misses the target")
    args = parser.parse_args()
    results = []
    for name, params, function in cases():
        times, shown = [], ""
        for _ in range(args.repeat):
            cold()
            start = time.perf_counter()
            shown = _finish(function())
            times.append((time.perf_counter() - start) * 1e3)
        median = statistics.median(times)
        results.append({"bound": name, "params": params, "median_ms": round(median, 2), "max_ms": round(max(times), 2),
                        "under_target": median < TARGET_MS, "value": shown[:160]})
    report = {"N": "1e12", "eps": "1/2", "target_ms": TARGET_MS, "repeat": args.repeat,
              "all_under_target": all(r["under_target"] for r in results),
              "slowest_median_ms": max(r["median_ms"] for r in results), "results": results}
    print(json.dumps(report, indent=1))
    if args.strict and not report["all_under_target"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
