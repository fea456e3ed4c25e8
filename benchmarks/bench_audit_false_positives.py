"""The statistical audit never flags a private mechanism: 10 seeds each of every private sampler of the zoo and of
catalogue mechanisms audited at their exact eps (issue target: no private mechanism flagged over 10 seeds each of
at least 6 private mechanisms).

    python benchmarks/bench_audit_false_positives.py [--samples 1000000] [--seeds 10]

Each audit runs at confidence 1 - 1e-6, so a flag would be a false violation of probability <= 1e-6 per audit;
the zoo's private samplers are audited at their claimed eps = 0.1 (with the floating-point events where their
outputs are scalar doubles), the catalogue's at their exact eps (randomized response, 4-ary randomized response,
Laplace) or (eps, delta) (the Gaussian mechanism calibrated by Balle and Wang's exact formula). Prints one Markdown
table: per mechanism, the seeds flagged and the largest lower bound found against the claim.
"""

from __future__ import annotations

import argparse
import time

from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.proofs.audit import audit

CONFIDENCE = 1 - 1e-6

CATALOGUED = {  # name: (parameters, claimed eps, claimed delta); each claim is the mechanism's exact privacy
    "randomized-response": ({"eps": "1"}, "1", "0"),
    "k-rr": ({"k": "4", "eps": "1"}, "1", "0"),
    "laplace": ({"eps": "1"}, "1", "0"),
    "gaussian": ({"sigma": "3.7306316348161808"}, "1", "1e-5"),  # eps(1e-5) = 1 (tests/proofs/audit/test_audit.py)
}


def _audits(samples: int, seeds: int):
    """(label, claimed eps, results) for every private mechanism."""
    zoo = sorted(n for n, entry in CATALOG.items() if entry.sampler_only
                 and make_mechanism(n, raw={"eps": "1/10"}).expected_verdict == "private")
    for name in zoo:
        mechanism = make_mechanism(name, raw={"eps": "1/10"})
        yield name, "1/10", [audit(mechanism, eps="1/10", samples=samples, confidence=CONFIDENCE, seed=seed,
                                   floating_point=True) for seed in range(seeds)]
    for name, (raw, eps, delta) in CATALOGUED.items():
        mechanism = make_mechanism(name, raw=raw)
        yield name, eps, [audit(mechanism, eps=eps, delta=delta, samples=samples, confidence=CONFIDENCE, seed=seed)
                          for seed in range(seeds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples per input")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per mechanism (0, 1, ...)")
    args = parser.parse_args()
    started, mechanisms, flagged = time.perf_counter(), 0, 0
    print("| mechanism | claimed eps | seeds flagged | largest lower bound | seconds |")
    print("|---|---|---|---|---|")
    for name, eps, results in _audits(args.samples, args.seeds):
        hits = [r.seed for r in results if r.verdict == "violation"]
        mechanisms, flagged = mechanisms + 1, flagged + len(hits)
        largest, seconds = max(r.epsilon_lower_bound for r in results), sum(r.seconds for r in results)
        print(f"| `{name}` | {eps} | {len(hits)} of {len(results)} {hits or ''} | {largest:.4f} | {seconds:.1f} |",
              flush=True)
    print(f"\n{flagged} flagged in {mechanisms} private mechanisms x {args.seeds} seeds at {args.samples} samples per "
          f"input; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
