"""The statistical audit on DP-Sniper's mechanisms, against DP-Sniper's published lower bounds.

    python benchmarks/bench_audit_dpsniper.py [--samples 10000000] [--seeds 1 2 3] [--only RAPPOR ...]

The mechanisms of DP-Sniper's evaluation that the zoo holds, as DP-Sniper defines them (Bichsel et al.,
"DP-Sniper: Black-Box Discovery of Differential Privacy Violations using Classifiers", S&P 2021;
github.com/eth-sri/dp-sniper, dpsniper/mechanisms/, run by dpsniper/experiments/exp_default.py), at its parameters,
each on the zoo's pairs (`neighbour_pairs()`, both orders), which are among DP-Sniper's input patterns or shifts of
them (1 against 0 and 2 for one-number inputs). Each audit: the samples per input given, confidence 0.9 (DP-Sniper's),
each seed given (default 1), in a fresh process whose peak resident memory is reported; prints one Markdown table, a
row per mechanism with the bound at every seed and at how many of them it reaches DP-Sniper's.

The last column is a ceiling: what the first seed's event would give if it had been known beforehand and every one of
the samples per input had confirmed it (no selection half). Its rates are estimated from the witness's counts (k / n and
k' / n', so the ceiling is itself uncertain by about sqrt(1/k + 1/k') in eps), and the confirmation is simulated
10,000 times (Poisson counts, the share's Clopper–Pearson bound at 0.9 by scipy): the median bound and the share of
confirmations that reach DP-Sniper's. An estimate for reading the table, not a bound.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import time

import numpy as np
from scipy.stats import beta

from dpcert.mechanisms.catalog import make_mechanism
from dpcert.proofs.audit import audit

MECHANISMS = {  # DP-Sniper's parameters: f = 0.75 (eps = 8 ln(5/3)), f = 0.95 (8 ln(21/19)), 20 releases at 0.005;
    # the others at its default eps = 0.1: noisy max of 5 answers, 10 answers (c = 2, T = 1) for the sparse vectors and
    # the prefix sums, a count in [0, 5] for GeoSample
    "RAPPOR": ("rappor", {"eps": "8*log(5/3)"}),
    "OneTimeRAPPOR": ("one-time-rappor", {"eps": "8*log(21/19)"}),
    "LaplaceParallel": ("laplace-parallel", {"eps": "1/200", "n": "20"}),
    "ReportNoisyMax1": ("report-noisy-max1", {"eps": "1/10", "k": "5"}),
    "ReportNoisyMax2": ("report-noisy-max2", {"eps": "1/10", "k": "5"}),
    "ReportNoisyMax3": ("report-noisy-max3", {"eps": "1/10", "k": "5"}),
    "ReportNoisyMax4": ("report-noisy-max4", {"eps": "1/10", "k": "5"}),
    "NumericalSVT": ("numerical-svt", {"eps": "1/10", "m": "10", "c": "2", "T": "1"}),
    "SVT34Parallel": ("svt34-parallel", {"eps": "1/10", "m": "10", "c": "2", "T": "1"}),
    "PrefixSum": ("prefix-sum", {"eps": "1/10", "m": "10"}),
    "TruncatedGeometric": ("truncated-geometric", {"eps": "1/10", "n": "5"}),
}
PUBLISHED = {"RAPPOR": 0.293, "OneTimeRAPPOR": 0.598, "LaplaceParallel": 0.035, "ReportNoisyMax1": 0.092,
             "ReportNoisyMax2": 0.098, "ReportNoisyMax3": 0.248, "ReportNoisyMax4": 0.346, "NumericalSVT": 0.034,
             "SVT34Parallel": 0.261, "PrefixSum": 0.504, "TruncatedGeometric": 0.116}
"""DP-Sniper's lower bounds with logistic regression (its evaluation, about 2 * 10^8 samples): ``eps_lcb`` of
eval_sp2021/reference-results/dd_search_reg_data.log (github.com/eth-sri/dp-sniper, commit ee087b2), rounded to 3
places as the bars of its plot of powers are labelled (eval_sp2021/plots/create_plots.py); the first three as issue 15
lists them."""


CONFIDENCE = 0.9


def _audit_one(name: str, raw: dict[str, str], samples: int, seed: int
               ) -> tuple[float, str, float, float, tuple[int, int, int, int]]:
    """(bound, event, seconds, peak resident MB, the witness's (k, n, k', n')) of one audit, in a fresh process."""
    mechanism = make_mechanism(name, raw=raw)
    started = time.perf_counter()
    result = audit(mechanism, eps="1/1000", samples=samples, confidence=CONFIDENCE, seed=seed)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    w = result.witness
    return result.epsilon_lower_bound, w.event, time.perf_counter() - started, peak, (w.k, w.n, w.k_prime, w.n_prime)


def _ceiling(counts: tuple[int, int, int, int], samples: int, target: float, *, draws: int = 10_000
             ) -> tuple[float, float]:
    """(median bound, share reaching ``target``) of a confirmation that spends all ``samples`` per input on the event
    the counts describe (see the module)."""
    k, n, k_prime, n_prime = counts
    rng = np.random.default_rng(0)
    hits, others = rng.poisson(samples * k / n, draws), rng.poisson(samples * k_prime / n_prime, draws)
    share = beta.ppf(1 - CONFIDENCE, np.maximum(hits, 1), others + 1)
    bound = np.where(hits > 0, np.maximum(0.0, np.log(share) - np.log1p(-share)), 0.0)
    return float(np.median(bound)), float(np.mean(bound >= target))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000_000, help="samples per input")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1], help="the audits' seeds")
    parser.add_argument("--only", nargs="+", choices=sorted(MECHANISMS), default=list(MECHANISMS),
                        help="these mechanisms only")
    args = parser.parse_args()
    print("| mechanism | DP-Sniper's bound | dpcert's bound, by seed | reached | event (first seed) | seconds (most) | "
          "peak MB (most) | ceiling: median, share reaching |")
    print("|---|---|---|---|---|---|---|---|")
    spawn = multiprocessing.get_context("spawn")
    for label in args.only:
        name, raw = MECHANISMS[label]
        runs = []
        for seed in args.seeds:
            with spawn.Pool(1) as pool:  # a fresh process each: its peak memory is this audit's
                runs.append(pool.apply(_audit_one, (name, raw, args.samples, seed)))
        bounds = ", ".join(f"{bound:.4f}" for bound, *_ in runs)
        reached = sum(bound >= PUBLISHED[label] for bound, *_ in runs)
        median, share = _ceiling(runs[0][4], args.samples, PUBLISHED[label])
        print(f"| {label} (`{name}`) | {PUBLISHED[label]} | {bounds} | {reached} of {len(runs)} | {runs[0][1][:60]}... | "
              f"{max(r[2] for r in runs):.1f} | {max(r[3] for r in runs):.0f} | {median:.4f}, {share:.2f} |", flush=True)


if __name__ == "__main__":
    main()
