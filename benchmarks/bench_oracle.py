"""Soundness at scale: dpcert's certified bounds and checkers against the test suite's independent oracles.

Run: python benchmarks/bench_oracle.py [--points 100000] [--seed 1] [--workers 2] [--progress 5000]

The oracles are the deliberately simple truths of ``tests/oracles/`` (brute force over all datasets and
outputs in Fractions, the papers' formulas at 50 digits); the fuzz tests run them on a few hundred
hypothesis points, this script on ``--points`` random points (split over the families below in fixed
shares) drawn with numpy from the same answerable ranges. For each family it prints how many points
were compared, how many violated soundness (must be 0) and the closest margin:

- ``shuffle-closed``: efmrtt19, fmt21-closed, fmt23-closed, imola-thm4.3 — the enclosure contains the
  printed formula's 50-digit value; margin = (certified upper - value) / value.
- ``shuffle-blanket``: Hoeffding and Bennett — the formula at the certified upper end is <= delta;
  margin = (delta - bound(upper)) / delta.
- ``shuffle-clone``: fmt21-numeric and fmt23-numeric at n <= 100 — the plain clone sum at the certified
  upper end is <= delta; margin as for blanket.
- ``shuffle-exact``: shuffled k-RR with k^n <= 256 — every certified upper bound of every method is >=
  the brute-force worst case over all datasets; margin = upper - truth (absolute, in eps).
- ``composition``: basic, advanced and optimal composition of k (eps, delta0)-DP mechanisms — every
  certified upper bound is >= Kairouz-Oh-Viswanath's optimal eps (a 50-digit finite sum); margin relative.
- ``exact-checker``: random rational tables (2-4 inputs, 2-5 outputs, all pairs neighbours), the claimed
  eps often exactly a log ratio of two entries (the tightest eps itself in 3 of 10 points) — dpcert's pure and (eps, delta) verdicts, delta(eps) and
  tightest eps agree with brute force over pairs and outputs (``oracles.channels``); a disagreement is a
  violation; margin = the smallest |claimed - true| eps or delta that was decided correctly.
- ``numerical-composition``: the certified PLD enclosure of delta(ln t) for a random two-input mechanism
  (2-3 outputs) composed 1-4 times, plain or Poisson-subsampled at q in {1/2, 1/4, 1/16} (both mixture
  orders) — the enclosure contains the brute-force delta over the k-fold product in Fractions (a lower end
  above it is a violation too); margin = upper - truth (absolute).

Prints one JSON object (and the report so far to stderr every ``--progress`` points, the families
interleaved in their shares); exits 1 if any point violated soundness.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from multiprocessing import Pool
from pathlib import Path

import mpmath
import numpy as np
import sympy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from oracles import channels as channel_oracle  # noqa: E402
from oracles import composition as composition_oracle  # noqa: E402
from oracles import shuffle as shuffle_oracle  # noqa: E402
from oracles import shuffle_numeric as numeric_oracle  # noqa: E402

from dpcert.accountant.composition import composition_family  # noqa: E402
from dpcert.accountant.loss_mechanisms import finite_pair  # noqa: E402
from dpcert.accountant.pld_accountant import NumericalComposition  # noqa: E402
from dpcert.accountant.pld_spec import Component  # noqa: E402
from dpcert.accountant.shuffle import SHUFFLE_METHODS, shuffle_family  # noqa: E402
from dpcert.accountant.shuffle_blanket import blanket_bennett, blanket_hoeffding  # noqa: E402
from dpcert.accountant.shuffle_closed_forms import efmrtt19, fmt21_closed, fmt23_closed, imola_theorem_4_3  # noqa: E402
from dpcert.accountant.shuffle_numeric import fmt21_numeric, fmt23_numeric  # noqa: E402

Margin = float | None
"""The closest margin at one point (>= 0 when sound; None when no bound applied there)."""


def _decimal(rng: np.random.Generator, low_exp: float, high_exp: float, *, clamp: tuple[Fraction, Fraction]) -> str:
    text = f"{10 ** rng.uniform(low_exp, high_exp):.3g}"
    value = min(max(Fraction(text), clamp[0]), clamp[1])
    return text if Fraction(text) == value else str(value)


EPS0 = (Fraction(1, 10**12), Fraction(700))
DELTA = (Fraction(1, 10**100), Fraction(999, 1000))


def _shuffle_point(rng: np.random.Generator) -> tuple[str, int, str]:
    return (_decimal(rng, -12, 2.845, clamp=EPS0), min(max(2, int(10 ** rng.uniform(0.31, 30))), 10**30),
            _decimal(rng, -100, -0.001, clamp=DELTA))


def _relative(upper: float, value: mpmath.mpf) -> float:
    return float((mpmath.mpf(upper) - value) / value) if value else float(upper)


def closed_forms(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    eps0, n, delta = _shuffle_point(rng)
    margins = []
    for compute, value, applies in ((efmrtt19, numeric_oracle.efmrtt19, numeric_oracle.efmrtt19_applies),
                                    (fmt21_closed, numeric_oracle.fmt21_closed, numeric_oracle.fmt21_closed_applies),
                                    (lambda e, m, d: fmt23_closed(e, m, d, k=2), numeric_oracle.fmt23_closed,
                                     numeric_oracle.fmt23_closed_applies)):
        result = compute(eps0, n, delta)
        if result.valid and applies(eps0, n, delta):
            truth = value(eps0, n, delta)
            low, _ = result.enclosure
            margins.append(min(_relative(result.upper, truth), float((truth - mpmath.mpf(low)) / truth) if truth else 0.0))
    l0 = int(rng.integers(1, min(n, 50) + 1))
    result = imola_theorem_4_3(eps0, n, delta, l0=l0, l1=l0)
    if result.valid:
        margins.append(_relative(result.upper, numeric_oracle.imola_theorem_4_3(eps0, n, delta, l0, l0)))
    return min(margins) if margins else None


def blanket(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    eps0, n, delta = _shuffle_point(rng)
    k = [None, 2, int(rng.integers(2, 10**6))][int(rng.integers(0, 3))]
    target = numeric_oracle.mp(Fraction(delta))
    margins = []
    for kind, compute in (("hoeffding", blanket_hoeffding), ("bennett", blanket_bennett)):
        result = compute(eps0, n, delta, k=k)
        if result.valid:
            margins.append(float((target - numeric_oracle.blanket_bound(kind, result.upper, eps0, n, k)) / target))
    return min(margins) if margins else None


def clone(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    eps0, _, delta = _shuffle_point(rng)
    n = int(rng.integers(2, 101))
    target = numeric_oracle.mp(Fraction(delta))
    margins = []
    for variant, compute in (("fmt21", fmt21_numeric), ("fmt23", lambda e, m, d: fmt23_numeric(e, m, d, k=2))):
        result = compute(eps0, n, delta)
        if result.valid:
            margins.append(float((target - numeric_oracle.clone_delta(result.upper, eps0, n, variant)) / target))
    return min(margins) if margins else None


_SIZES = ((2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (3, 5), (4, 4))


def exact_shuffle(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    k, n = _SIZES[int(rng.integers(0, len(_SIZES)))]
    t = Fraction(int(rng.integers(7, 73)), 6)
    delta = [Fraction(1, 2), Fraction(1, 10), Fraction(1, 50), Fraction(1, 1000), Fraction(1, 10**6)][int(rng.integers(0, 5))]
    truth = shuffle_oracle.shuffled_krr_epsilon(t, k, n, delta)[1]
    eps0 = sympy.log(sympy.Rational(t.numerator, t.denominator))
    rows = shuffle_family(eps0, n, sympy.Rational(delta.numerator, delta.denominator), k=k)
    assert [r.name for r in rows] == list(SHUFFLE_METHODS)
    margins = [float(mpmath.mpf(r.upper) - truth) for r in rows if r.upper is not None]
    return min(margins) if margins else None


def composition(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    eps = Fraction(int(rng.integers(1, 10))) * Fraction(10) ** int(rng.integers(-6, 2))
    k = int(rng.integers(1, 41))
    delta = Fraction(int(rng.integers(1, 10)), 10 ** int(rng.integers(1, 13)))
    delta0 = [Fraction(0), Fraction(0), Fraction(1, 10**8), Fraction(1, 10**4)][int(rng.integers(0, 4))]
    truth = composition_oracle.kov_epsilon(eps, k, delta, delta0)
    if truth is None:
        return None
    q = lambda f: sympy.Rational(f.numerator, f.denominator)  # noqa: E731
    rows = composition_family(q(eps), k, q(delta), delta0=q(delta0))
    margins = [_relative(r.upper, truth) for r in rows if r.upper is not None]
    return min(margins) if margins else None


def exact_checker(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    inputs, outputs = int(rng.integers(2, 5)), int(rng.integers(2, 6))
    weights = rng.integers(0, 10, size=(inputs, outputs))
    weights[:, 0] += weights.sum(axis=1) == 0
    rows = [[Fraction(int(w), int(row.sum())) for w in row] for row in weights]
    ratios = sorted({p / q for p_row in rows for q_row in rows for p, q in zip(p_row, q_row) if p > q > 0})
    if ratios and rng.random() < 0.6:  # a log ratio of two entries, the largest (an exact tie) half the time
        ratio = ratios[-1] if rng.random() < 0.5 else ratios[int(rng.integers(0, len(ratios)))]
        eps = sympy.log(sympy.Rational(ratio.numerator, ratio.denominator))
    else:
        eps = [sympy.Rational(1, 10**30), sympy.Rational(1, 10), sympy.Integer(1), sympy.log(3), sympy.Integer(5)][
            int(rng.integers(0, 5))]
    delta = [sympy.Integer(0), sympy.Rational(1, 1000), sympy.Rational(1, 10), sympy.Rational(1, 2)][int(rng.integers(0, 4))]
    mechanism, channel = channel_oracle.table_mechanism(rows), channel_oracle.table_channel(rows)
    pairs = channel_oracle.all_pairs(channel)
    try:
        margins = [channel_oracle.compare_pure(mechanism, channel, pairs, eps),
                   channel_oracle.compare_approx(mechanism, channel, pairs, eps, delta)]
        channel_oracle.compare_tightest(mechanism, channel, pairs)
    except AssertionError:
        return -math.inf
    finite = [abs(m) for m in margins if mpmath.isfinite(m)]
    return float(min(finite)) if finite else None


def numerical_composition(seed: int) -> Margin:
    rng = np.random.default_rng(seed)
    outputs, k = int(rng.integers(2, 4)), int(rng.integers(1, 5))
    weights = rng.integers(1, 10, size=(2, outputs))
    p, q = ([Fraction(int(w), int(row.sum())) for w in row] for row in weights)
    t = [Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(3)][int(rng.integers(0, 4))]
    rate = [None, 0.5, 0.25, 0.0625][int(rng.integers(0, 4))]
    truth = composition_oracle.pair_delta(p, q, k, t, None if rate is None else Fraction(rate))
    rows = [[sympy.Rational(x.numerator, x.denominator) for x in row] for row in (p, q)]
    base = finite_pair(rows, 0, 1, "random")
    if rate is None:
        pairs = {"first": (base,) * 2, "second": (finite_pair(rows, 1, 0, "random"),) * 2}
    else:
        pairs = {order: (base.subsampled(rate, order),) * 2 for order in ("first", "second")}
    result = NumericalComposition((Component("random", (), pairs, k),)).delta(
        sympy.log(sympy.Rational(t.numerator, t.denominator)))
    if not result.lower <= truth <= result.upper:
        return -math.inf
    return float(result.upper - truth)


FAMILIES: dict[str, tuple[Callable[[int], Margin], float]] = {
    "shuffle-closed": (closed_forms, 0.45),
    "shuffle-blanket": (blanket, 0.15),
    "shuffle-clone": (clone, 0.03),
    "shuffle-exact": (exact_shuffle, 0.02),
    "composition": (composition, 0.2),
    "exact-checker": (exact_checker, 0.12),
    "numerical-composition": (numerical_composition, 0.03),
}
"""Family name -> (one point's check, share of --points)."""


def _run(job: tuple[str, int]) -> tuple[str, Margin]:
    name, seed = job
    return name, FAMILIES[name][0](seed)


def _report(report: dict, started: float) -> str:
    total = sum(row["points"] for row in report.values())
    return json.dumps({"points": total, "seconds": round(time.perf_counter() - started, 1), "families": report})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100_000, help="points over all families (default 10^5)")
    parser.add_argument("--seed", type=int, default=1, help="first seed; point i uses seed + i")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--progress", type=int, default=5000,
                        help="print the report so far to stderr every this many points (default 5000)")
    args = parser.parse_args()
    if args.points < len(FAMILIES):
        parser.error(f"--points must be at least {len(FAMILIES)}")
    shares = sum(share for _, share in FAMILIES.values())
    jobs = []
    for name, (_, share) in FAMILIES.items():
        count = math.ceil(args.points * share / shares)
        jobs += [((i + 0.5) / count, name, args.seed + i) for i in range(count)]
    jobs.sort()  # the families interleaved in their shares, so a report so far covers each of them
    started = time.perf_counter()
    report = {name: {"points": 0, "compared": 0, "violations": 0, "closest_margin": None} for name in FAMILIES}
    with Pool(args.workers) as pool:
        done = 0
        for name, margin in pool.imap_unordered(_run, [(name, seed) for _, name, seed in jobs], chunksize=16):
            row = report[name]
            row["points"] += 1
            done += 1
            if margin is not None:
                row["compared"] += 1
                row["violations"] += margin < 0
                row["closest_margin"] = margin if row["closest_margin"] is None else min(row["closest_margin"], margin)
            if done % args.progress == 0:
                print(_report(report, started), file=sys.stderr, flush=True)
    print(json.dumps(json.loads(_report(report, started)), indent=2))
    sys.exit(1 if any(row["violations"] for row in report.values()) else 0)


if __name__ == "__main__":
    main()
