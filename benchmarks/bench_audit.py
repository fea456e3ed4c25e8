"""How fast the statistical audit catches the not-private zoo mechanisms, and that it never flags the
private ones (issue target: each not-private mechanism caught at claimed eps = 0.1 with <= 10^7 samples in
< 60 s; randomized response at eps = 1 with 10^6 samples per input reaches >= 0.95 of the best bound).

Run: python benchmarks/bench_audit.py
Every audit runs at confidence 1 - 1e-6 with a fixed seed and the floating-point events (the zoo's samplers are
implementations: laplace-float is caught only through them); prints one JSON object.
"""

from __future__ import annotations

import json
import time

from dpcert.mechanisms import KaryRandomizedResponse
from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.proofs.audit import audit

CONFIDENCE = 1 - 1e-6
BUDGETS = (10_000, 100_000, 1_000_000, 10_000_000)  # samples per input, tried in turn until a violation is confirmed


def first_catch(name: str, eps: str) -> dict[str, object]:
    """The smallest budget in BUDGETS that confirms a violation (or the last one tried), with its time."""
    mechanism = make_mechanism(name, raw={"eps": eps})
    spent = 0.0
    for samples in BUDGETS:
        result = audit(mechanism, eps=eps, samples=samples, confidence=CONFIDENCE, seed=7, floating_point=True)
        spent += result.seconds
        if result.verdict == "violation":
            break
    return {"mechanism": name, "claimed_eps": eps, "expected": mechanism.expected_verdict, "verdict": result.verdict,
            "samples_per_input": samples, "total_samples": result.samples,
            "epsilon_lower_bound": round(result.epsilon_lower_bound, 4), "seconds_total": round(spent, 2)}


def main() -> None:
    start = time.perf_counter()
    # each zoo sampler once: report-noisy-max1 and -3 are noisy-max and noisy-max-value under DP-Sniper's names
    zoo = sorted(n for n, entry in CATALOG.items() if entry.sampler_only and n == entry.factory.name)
    rows = [first_catch(name, "1/10") for name in zoo]
    rr = audit(KaryRandomizedResponse(2, 1), eps=1, samples=1_000_000, confidence=CONFIDENCE, seed=7)
    report = {"zoo": rows,
              "randomized_response_eps1_1e6": {"lower_bound": round(rr.epsilon_lower_bound, 4),
                                               "best_possible": round(rr.best_possible_lower_bound, 4),
                                               "ratio": round(rr.epsilon_lower_bound / rr.best_possible_lower_bound, 4),
                                               "seconds": round(rr.seconds, 2)},
              "false_positives": [r["mechanism"] for r in rows if r["expected"] == "private" and r["verdict"] == "violation"],
              "seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
