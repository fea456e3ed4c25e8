"""dpcert compose against dp_accounting's PLD accountant on DP-SGD, side by side in one run.

dp_accounting is installed in its own environment, never as a dependency of dpcert:

    python3 -m venv /tmp/dpacc && /tmp/dpacc/bin/pip install dp-accounting
    python benchmarks/bench_compose_anchor.py --anchor-python /tmp/dpacc/bin/python

For each DP-SGD setting it times dp_accounting's PLD (Poisson-sampled Gaussian, add/remove, at value
discretisation intervals 1e-3, 1e-4, 1e-5: an uncertified float answer) and dpcert's certified enclosure at
relative gaps 1e-2, 1e-3, 1e-4 and 1e-5, and prints each eps with its time and its error: the distance to the true
eps, bounded through a reference enclosure [L, U] of it (dpcert's at gap 1e-5): at most max(|eps - L|, |eps - U|)
for a float answer and at most upper - L for dpcert's upper end. Equal accuracy is read off these errors.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time

from dpcert.accountant.pld_accountant import compose

SETTINGS = ((0.8, 0.005, 1000, 1e-6), (4.0, 0.01, 1000, 1e-6))

_ANCHOR = """
import json, sys, time
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
sigma, q, steps, delta, interval = json.loads(sys.argv[1])
started = time.perf_counter()
accountant = pld_privacy_accountant.PLDAccountant(value_discretization_interval=interval)
accountant.compose(dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps))
eps = accountant.get_epsilon(delta)
print(json.dumps([eps, time.perf_counter() - started]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor-python", required=True, help="python of the environment with dp-accounting")
    args = parser.parse_args()
    print("| sigma, q, steps, delta | accountant | setting | eps | error at most | seconds |")
    print("|---|---|---|---|---|---|")
    for sigma, q, steps, delta in SETTINGS:
        label = f"{sigma}, {q}, {steps}, {delta:g}"
        spec = f"gaussian:sigma={sigma},q={q}*{steps}"
        anchors, ours = [], []
        for interval in (1e-3, 1e-4, 1e-5):
            out = subprocess.run([args.anchor_python, "-c", _ANCHOR, json.dumps([sigma, q, steps, delta, interval])],
                                 check=True, capture_output=True, text=True).stdout
            anchors.append((interval, *json.loads(out.strip().splitlines()[-1])))
        for gap in ("1e-2", "1e-3", "1e-4", "1e-5"):
            started = time.perf_counter()
            result = compose([spec]).epsilon(delta, gap=gap)
            ours.append((gap, result, time.perf_counter() - started))
        low, high = ours[-1][1].lower, ours[-1][1].upper  # the reference enclosure
        print(f"| {label} | reference | dpcert gap 1e-5 | [{low:.8f}, {high:.8f}] | | |")
        for interval, eps, seconds in anchors:
            error = max(abs(eps - low), abs(eps - high))
            print(f"| {label} | dp_accounting PLD | interval {interval:g} | {eps:.8f} (uncertified) | {error:.1e} | "
                  f"{seconds:.3f} |")
        for gap, result, seconds in ours:
            print(f"| {label} | dpcert compose | gap {gap} | [{result.lower:.8f}, {result.upper:.8f}] | "
                  f"{result.upper - low:.1e} | {seconds:.3f} |", flush=True)


if __name__ == "__main__":
    main()
