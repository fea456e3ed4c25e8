"""The statistical audit on DP-Sniper's vector-output mechanisms, against DP-Sniper's published lower bounds.

    python benchmarks/bench_audit_dpsniper.py [--samples 10000000]

RAPPOR, OneTimeRAPPOR and LaplaceParallel as DP-Sniper defines them (Bichsel et al., "DP-Sniper: Black-Box
Discovery of Differential Privacy Violations using Classifiers", S&P 2021; github.com/eth-sri/dp-sniper,
dpsniper/mechanisms/rappor.py and parallel.py, dpsniper/experiments/exp_default.py): a 20-bit Bloom filter with
4 hashes (the bits of inputs 0, 1 and 2 under its mmh3 hashing: {0, 11, 18}, {3, 10, 13}, {7, 10, 11, 19}),
permanent randomized response (f = 0.75, then instantaneous p = 0.45, q = 0.55; one-time: f = 0.95 alone), and
20 Laplace releases of eps = 0.005 each; inputs by its pattern generator (1 against 0 and 2, both orders). Each
audit: the samples per input given, confidence 0.9 (DP-Sniper's), one seed; prints one Markdown table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dpcert.proofs.audit import audit

BLOOM_BITS = {0: (0, 11, 18), 1: (3, 10, 13), 2: (7, 10, 11, 19)}
PAIRS = [(1, 0), (1, 2)]
PUBLISHED = {"RAPPOR": 0.293, "OneTimeRAPPOR": 0.598, "LaplaceParallel": 0.035}
"""DP-Sniper's lower bounds (its evaluation, about 2 * 10^8 samples), as issue 15 lists them."""


def bloom_reports(flip: float, instantaneous: tuple[float, float] | None):
    """A sampler: the input's Bloom filter, each bit set to 1 or 0 with probability flip / 2 each (else kept), then
    (instantaneous = (p, q)) reported as 1 with probability q where set and p where not."""
    def sampler(x, size, rng):
        bloom = np.zeros((size, 20))
        bloom[:, list(BLOOM_BITS[x])] = 1
        u = rng.random((size, 20))
        kept = np.where(u < flip / 2, 1.0, np.where(u < flip, 0.0, bloom))
        if instantaneous is None:
            return kept
        p, q = instantaneous
        return (rng.random((size, 20)) < np.where(kept == 1, q, p)).astype(float)
    return sampler


def laplace_parallel(x, size, rng):
    return x + rng.laplace(0.0, 1 / 0.005, (size, 20))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000_000, help="samples per input")
    args = parser.parse_args()
    samplers = {"RAPPOR": bloom_reports(0.75, (0.45, 0.55)), "OneTimeRAPPOR": bloom_reports(0.95, None),
                "LaplaceParallel": laplace_parallel}
    print("| mechanism | DP-Sniper's bound | dpcert's bound | event | seconds |")
    print("|---|---|---|---|---|")
    for name, sampler in samplers.items():
        pairs = [(float(a), float(b)) for a, b in PAIRS] if name == "LaplaceParallel" else PAIRS
        started = time.perf_counter()
        result = audit(sampler, eps="1/1000", pairs=pairs, samples=args.samples, confidence=0.9, seed=1, name=name)
        print(f"| {name} | {PUBLISHED[name]} | {result.epsilon_lower_bound:.4f} | {result.witness.event[:60]}... | "
              f"{time.perf_counter() - started:.1f} |", flush=True)


if __name__ == "__main__":
    main()
