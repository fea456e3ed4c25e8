"""The whole privacy curve of a composition, delta(eps) on a grid as [lower, upper], and the f-DP trade-off
curve it implies.

**Privacy curve.** Three pairs of grids (pessimistic and optimistic, :mod:`dpcert.accountant.pld_accountant`),
each planned (tilted) for one part of the eps range (at 20 %, 50 % and 90 % of it), answer every eps: every
value is certified as in a single query, and each point keeps the tightest of the three enclosures.

**Trade-off curve.** A mechanism that is (eps, delta(eps))-DP for every eps is f-DP with
f(alpha) = sup_eps max(0, 1 - delta(eps) - e^eps alpha, e^-eps (1 - delta(eps) - alpha)) (Dong, Roth, Su,
"Gaussian differential privacy", JRSS-B 2022, Proposition 2.12). Taken over the finitely many eps of the
grid, with the certified upper delta and every operation rounded down, this is a certified **lower** bound
on the true trade-off function (the type II error any test must make at type I error alpha).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dpcert.accountant.plot_files import PLOT_FORMATS, new_axes, plot_path, save_axes
from dpcert.accountant.pld_accountant import DEFAULT_GAP, NumericalComposition
from dpcert.accountant.shuffle_intervals import down, exp_enclosure
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_real

__all__ = ["MAX_CURVE_POINTS", "PLOT_FORMATS", "CurvePoint", "default_eps_grid", "plot_privacy_curve", "privacy_curve",
           "tradeoff_curve"]

MAX_CURVE_POINTS = 400
"""A curve has at most 400 points (each a pass over the two grids: under a second at 10^6 grid points)."""


@dataclass(frozen=True)
class CurvePoint:
    """delta at one eps: a certified lower and upper bound (floats rounded outward)."""

    eps: float
    lower: float
    upper: float


def _eps_values(eps_values: Sequence[object]) -> list[float]:
    values = [float(require_real("eps", e, low=0, high=10**4)) for e in eps_values]
    if not values or len(values) > MAX_CURVE_POINTS:
        raise InvalidParameterError(f"eps_values must hold 1 to {MAX_CURVE_POINTS} values. Got {len(values)}")
    return sorted(values)


def privacy_curve(composition: NumericalComposition, eps_values: Sequence[object], *,
                  gap: object = DEFAULT_GAP) -> list[CurvePoint]:
    """[lower, upper] of delta(eps) at every eps of ``eps_values`` (sorted), from one pair of grids."""
    values = _eps_values(eps_values)
    span = values[-1] - values[0]
    upper = {e: math.inf for e in values}
    lower = {e: 0.0 for e in values}
    for share in sorted({0.2, 0.5, 0.9} if span > 0 else {0.5}):
        plan = composition._plan(eps=values[0] + share * span, gap=gap).at_finest()
        uppers = [g.delta_function() for g in composition._compose(plan, "upper").values()]
        lowers = [g.delta_function() for g in composition._compose(plan, "lower").values()]
        for e in values:  # the truth is the largest over directions; each plan bounds it
            upper[e] = min(upper[e], max(f(e) for f in uppers))
            lower[e] = max(lower[e], max(f(e) for f in lowers))
    return [CurvePoint(e, lower[e], upper[e]) for e in values]


def tradeoff_curve(curve: Sequence[CurvePoint], alphas: Sequence[object]) -> list[tuple[float, float]]:
    """(alpha, f(alpha)) with f a certified lower bound on the trade-off function (module docstring)."""
    points = []
    grid = [(p.eps, p.upper, exp_enclosure(p.eps, p.eps)) for p in curve]
    for alpha in alphas:
        a = float(require_real("alpha", alpha, low=0, high=1))
        best = 0.0
        for _, delta, (e_low, e_high) in grid:
            rest = down(1.0 - delta)
            first = down(rest - e_high * a * (1 + 2 ** -52))
            second = down(down(rest - a) / e_high) if rest - a > 0 else 0.0
            best = max(best, first, second)
        points.append((a, max(0.0, best)))
    return points


def default_eps_grid(composition: NumericalComposition, *, points: object = 40,
                     delta_floor: object = "1e-12") -> list[float]:
    """``points`` eps values from 0 to the certified eps(delta_floor), evenly spaced."""
    count = require_int("points", points, minimum=2, maximum=MAX_CURVE_POINTS)
    top = composition.epsilon(delta_floor).upper
    if top is None or not math.isfinite(top) or top <= 0:
        top = 1.0
    return [float(x) for x in np.linspace(0.0, top, count)]


def plot_privacy_curve(curve: Sequence[CurvePoint], path: str | Path, *, title: str) -> Path:
    """Draw delta(eps) with its certified enclosure (log delta axis) and save to ``path`` (.png, .pdf or .svg).

    The band between the lower and upper curves contains the true curve; points where the lower bound is 0
    are drawn at the axis floor.
    """
    path = plot_path(path)
    shown = [p for p in curve if p.upper > 0]
    if not shown:
        raise InvalidParameterError("curve: every certified delta is 0, nothing to plot on a log axis")
    floor = min(p.upper for p in shown) / 10
    eps = [p.eps for p in shown]
    figure, axes = new_axes()
    axes.fill_between(eps, [max(p.lower, floor) for p in shown], [p.upper for p in shown], alpha=0.3,
                      label="certified enclosure of the true delta(eps)")
    axes.plot(eps, [p.upper for p in shown], "-", label="upper bound")
    axes.plot(eps, [max(p.lower, floor) for p in shown], "--", label="lower bound")
    axes.set_yscale("log")
    return save_axes(figure, axes, path, title=title, xlabel="eps", ylabel="delta(eps)")
