"""The statistical audit on DP-Sniper's vector-output mechanisms, against DP-Sniper's published lower bounds.

    python benchmarks/bench_audit_dpsniper.py [--samples 10000000]

RAPPOR, OneTimeRAPPOR and LaplaceParallel as DP-Sniper defines them (Bichsel et al., "DP-Sniper: Black-Box
Discovery of Differential Privacy Violations using Classifiers", S&P 2021; github.com/eth-sri/dp-sniper,
dpsniper/experiments/exp_default.py), the zoo's `rappor`, `one-time-rappor` and `laplace-parallel` at its
parameters, with its input pattern (1 against 0 and 2, both orders). Each audit: the samples per input given,
confidence 0.9 (DP-Sniper's), one seed; prints one Markdown table.
"""

from __future__ import annotations

import argparse
import time

from dpcert.mechanisms.catalog import make_mechanism
from dpcert.proofs.audit import audit

MECHANISMS = {  # DP-Sniper's parameters: f = 0.75 (eps = 8 ln(5/3)), f = 0.95 (8 ln(21/19)), 20 releases at 0.005
    "RAPPOR": ("rappor", {"eps": "8*log(5/3)"}),
    "OneTimeRAPPOR": ("one-time-rappor", {"eps": "8*log(21/19)"}),
    "LaplaceParallel": ("laplace-parallel", {"eps": "1/200", "n": "20"}),
}
PUBLISHED = {"RAPPOR": 0.293, "OneTimeRAPPOR": 0.598, "LaplaceParallel": 0.035}
"""DP-Sniper's lower bounds (its evaluation, about 2 * 10^8 samples), as issue 15 lists them."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000_000, help="samples per input")
    args = parser.parse_args()
    print("| mechanism | DP-Sniper's bound | dpcert's bound | event | seconds |")
    print("|---|---|---|---|---|")
    for label, (name, raw) in MECHANISMS.items():
        mechanism = make_mechanism(name, raw=raw)
        started = time.perf_counter()
        result = audit(mechanism, eps="1/1000", samples=args.samples, confidence=0.9, seed=1)
        print(f"| {label} (`{name}`) | {PUBLISHED[label]} | {result.epsilon_lower_bound:.4f} | "
              f"{result.witness.event[:60]}... | {time.perf_counter() - started:.1f} |", flush=True)


if __name__ == "__main__":
    main()
