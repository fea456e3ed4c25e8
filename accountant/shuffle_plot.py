"""Shuffle-amplification bounds against the number of users n: the data and the log-log plot.

:func:`shuffle_curves` evaluates every method of :func:`dpcert.accountant.shuffle.shuffle_family` on a grid
of n and keeps, for each method, the points where its theorem applies (``valid``), each as
(n, upper) with ``upper`` the certified eps rounded up to a float; for ``exact`` with k omitted, the
certified lower bound it gives instead (binary randomized response). :func:`plot_shuffle_curves` draws
them: one line per method, the exact truth (randomized response, small n only) as markers, and the
no-amplification line eps0. Floats here are for display; the exact values stay in
:func:`shuffle_family`.

References:
    Feldman, McMillan, Talwar, "Hiding Among the Clones" (FOCS 2021), Figure 1 plots the same kind of
    curve (eps against n at fixed eps0, delta); the methods and their sources are listed in
    :mod:`dpcert.accountant.shuffle`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from dpcert.accountant.plot_files import PLOT_FORMATS, new_axes, plot_path, save_axes
from dpcert.accountant.shuffle import SHUFFLE_METHODS, shuffle_family
from dpcert.accountant.shuffle_common import N_MAX, validate_shuffle_inputs
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["MAX_GRID_POINTS", "PLOT_FORMATS", "log_n_grid", "plot_shuffle_curves", "shuffle_curves"]

MAX_GRID_POINTS = 200
"""Largest number of grid points :func:`log_n_grid` accepts (each point evaluates every bound)."""


_STYLES = {  # method -> (line style, marker)
    "efmrtt19": ("-", "v"),
    "fmt21-closed": ("-", "s"),
    "fmt21-numeric": ("--", "s"),
    "fmt23-closed": ("-", "D"),
    "fmt23-numeric": ("--", "D"),
    "blanket-hoeffding": ("-", "^"),
    "blanket-bennett": ("--", "^"),
    "imola-thm4.3": (":", "x"),
    "exact": ("", "o"),
    "no-amplification": ("-.", ""),
}


def log_n_grid(n_min: object, n_max: object, points: object) -> list[int]:
    """``points`` integers from ``n_min`` to ``n_max``, evenly spaced in log n (rounded, duplicates dropped).

    Raises:
        InvalidParameterError: n_min < 2, n_max <= n_min or n_max > 10^30 (:data:`N_MAX`), points outside [2, MAX_GRID_POINTS], or a
            non-integer value; the message names the parameter.
    """
    lo = require_int("n_min", n_min, minimum=2, maximum=N_MAX)
    hi = require_int("n_max", n_max, minimum=2, maximum=N_MAX)
    count = require_int("points", points, minimum=2, maximum=MAX_GRID_POINTS)
    if hi <= lo:
        raise InvalidParameterError(f"n_max must be > n_min = {lo}. Got {hi}")
    step = (math.log(hi) - math.log(lo)) / (count - 1)
    grid = {lo, hi}
    grid.update(min(hi, max(lo, round(math.exp(math.log(lo) + i * step)))) for i in range(1, count - 1))
    return sorted(grid)


def shuffle_curves(eps0: object, delta: object, n_values: Iterable[object], *, k: object = None,
                   progress: Callable[[int], None] | None = None) -> dict[str, list[tuple[int, float]]]:
    """Every shuffle bound's certified eps at each n of ``n_values`` where the bound is valid.

    Args:
        eps0: the local randomizers' eps0 > 0.
        delta: target delta in (0, 1).
        n_values: numbers of users (integers >= 2); evaluated in increasing order, duplicates dropped.
        k: the randomizer is k-ary randomized response (2 = binary); None for any eps0-LDP randomizer.
        progress: called with each n after it is evaluated (for a progress bar).

    Returns:
        One entry per method of :data:`dpcert.accountant.shuffle.SHUFFLE_METHODS` (in that order), each a list
        of (n, eps rounded up to a float) over the n where the method is valid; a method valid nowhere on
        the grid has an empty list. ``exact`` is only computed for small n (no value above the exact
        computation's size limit); for k None its points are binary randomized response's exact eps
        rounded down, a lower bound on the worst case over all eps0-LDP randomizers.

    Raises:
        InvalidParameterError: bad eps0, delta, k or n (named), or an empty grid.
    """
    validate_shuffle_inputs(eps0, 2, delta, k=k)  # fail fast, before the first (slow) evaluation
    grid = sorted({require_int("n", n, minimum=2) for n in n_values})
    if not grid:
        raise InvalidParameterError("n_values must contain at least one n >= 2. Got []")
    curves: dict[str, list[tuple[int, float]]] = {name: [] for name in SHUFFLE_METHODS}
    for n in grid:
        for result in shuffle_family(eps0, n, delta, k=k):
            eps = result.lower if result.name == "exact" and result.bounds == "lower" else result.upper
            if eps is not None and math.isfinite(eps):
                curves[result.name].append((n, eps))
        if progress is not None:
            progress(n)
    return curves


def plot_shuffle_curves(curves: Mapping[str, Sequence[tuple[int, float]]], path: str | Path, *,
                        title: str) -> Path:
    """Draw eps against n on log-log axes, one line per method with points, and save to ``path``.

    The exact truth is drawn as markers only, the no-amplification bound eps0 as a dash-dotted line.
    Uses matplotlib's Agg canvas directly (no pyplot, no global backend change). The format follows
    the suffix of ``path`` (one of :data:`PLOT_FORMATS`).

    Returns:
        The path written.

    Raises:
        InvalidParameterError: ``path`` has another suffix, its directory does not exist, or no curve
            has a point.
    """
    path = plot_path(path)
    drawn = {name: points for name, points in curves.items() if points}
    if not drawn:
        raise InvalidParameterError("curves: no method is valid at any n of the grid, nothing to plot")
    figure, axes = new_axes()
    for name, points in drawn.items():
        ns, eps = zip(*points)
        style, marker = _STYLES.get(name, ("-", "."))
        label = name
        if name == "exact":
            label = "exact randomized response (k omitted: binary, a lower bound)"
        elif name == "no-amplification":
            label = "no amplification (eps0)"
        axes.plot(ns, eps, linestyle=style or "none", marker=marker or None, markersize=4 if name != "exact" else 7,
                  label=label, color="black" if name in ("exact", "no-amplification") else None,
                  zorder=3 if name == "exact" else 2)
    axes.set_xscale("log")
    axes.set_yscale("log")
    return save_axes(figure, axes, path, title=title, xlabel="n (users)",
                     ylabel="eps (certified upper bound; exact: the truth)")
