"""Issue 13's targets for `dpcert compose`: each composition's certified [lower, upper], its gap, the exact or
reference value where one exists, and the time (one run each, on this machine).

    python benchmarks/bench_compose.py

References: the exact k-fold Gaussian (Balle and Wang 2018, enclosed by dpcert.accountant.gaussian_composition);
dp_accounting's PLD at value interval 1e-5 for Laplace (71.5460 at b = 1, k = 100; 18.9503 at b = 10, k = 1000,
as stated in issue 13, not re-run here).
"""

from __future__ import annotations

import resource
import time

from dpcert.accountant.pld_accountant import compose

CASES = (  # spec, delta, the relative gap asked for (--gap; the Gaussians' target is 1e-6 relative), reference
    ("gaussian:sigma=1*10", "1e-5", "1e-6", "exact 17.856586830"),
    ("gaussian:sigma=20*1000", "1e-5", "1e-6", "exact 7.511275901"),
    ("laplace:b=1*100", "1e-6", "1e-3", "reference 71.5460"),
    ("laplace:b=10*1000", "1e-6", "1e-3", "reference 18.9503"),
    ("gaussian:sigma=0.8,q=0.005*1000", "1e-6", "1e-3", ""),
    ("gaussian:sigma=4,q=0.01*1000", "1e-6", "1e-3", ""),
    ("gaussian:sigma=1,q=0.2*10", "1e-6", "1e-3", ""),
    ("gaussian:sigma=4,q=3.3e-4*10000", "1e-18", "1e-3", ""),
)


def main() -> None:
    print("| spec | delta | --gap | lower | upper | gap / upper | reference | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for spec, delta, asked, reference in CASES:
        started = time.perf_counter()
        result = compose([spec]).epsilon(delta, gap=asked)
        seconds = time.perf_counter() - started
        gap = (result.upper - result.lower) / result.upper if result.valid and result.upper else float("nan")
        print(f"| `{spec}` | {delta} | {asked} | {result.lower:.9f} | {result.upper:.9f} | {gap:.1e} | {reference} | "
              f"{seconds:.2f} |", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak resident memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
