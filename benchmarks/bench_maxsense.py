"""MaxSense end to end at scale (issue target: N = 10^4 items, U = 10^6 users, w = 20 in < 60 s and < 2 GB on 2 cores).

Run: python benchmarks/bench_maxsense.py [--items 10000] [--users 1000000] [--w 20] [--eps 1] [--theta 1]
                                         [--sensing explicit|collapsed|both] [--seed 0]

Each run is measured in a fresh child process, so its peak resident memory (ru_maxrss of the child,
which includes the Python interpreter and numpy/scipy/sympy) is its own. The instance is the paper's
lower-bound model (K = 1, L = 2, Z uniform, deterministic ratings) with uniform w-subsets. Prints one
JSON object: per sensing method, the wall-clock seconds of simulate_maxsense (data generation,
sensing, bit release, scores and 1-D k-means), the peak RSS in MB, the tracemalloc peak of numpy
allocations in MB, and the recovered item error rate.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import sys
import time
import tracemalloc


def _run(arguments: dict, queue) -> None:
    from dpcert.mechanisms.price_of_privacy import BlockModel, simulate_maxsense

    model = BlockModel.lower_bound_instance(arguments["items"], arguments["w"])
    tracemalloc.start()
    start = time.perf_counter()
    result = simulate_maxsense(model, arguments["users"], arguments["eps"], theta=arguments["theta"],
                               rng=arguments["seed"], sensing=arguments["sensing"])
    seconds = time.perf_counter() - start
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    queue.put({"seconds": round(seconds, 2), "peak_rss_mb": round(rss_kb / 1024, 1),
               "tracemalloc_peak_mb": round(traced_peak / 2**20, 1), "error_rate": result.error_rate,
               "exact_recovery": result.exact_recovery})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000, help="N, number of items")
    parser.add_argument("--users", type=int, default=1_000_000, help="U, number of users")
    parser.add_argument("--w", type=int, default=20, help="ratings per user")
    parser.add_argument("--eps", type=str, default="1", help="privacy parameter (exact, e.g. 1 or log(3))")
    parser.add_argument("--theta", type=str, default="1", help="sensing constant (probability theta/w)")
    parser.add_argument("--sensing", choices=("explicit", "collapsed", "both"), default="both")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    methods = ("explicit", "collapsed") if args.sensing == "both" else (args.sensing,)
    report: dict[str, object] = {"benchmark": "maxsense", "N": args.items, "U": args.users, "w": args.w,
                                 "eps": args.eps, "theta": args.theta, "seed": args.seed,
                                 "python": sys.version.split()[0], "runs": {}}
    context = multiprocessing.get_context("spawn")
    for method in methods:
        queue = context.Queue()
        arguments = {"items": args.items, "users": args.users, "w": args.w, "eps": args.eps, "theta": args.theta,
                     "seed": args.seed, "sensing": method}
        child = context.Process(target=_run, args=(arguments, queue))
        child.start()
        outcome = queue.get()
        child.join()
        outcome["within_target"] = outcome["seconds"] < 60 and outcome["peak_rss_mb"] < 2048
        report["runs"][method] = outcome  # type: ignore[index]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
