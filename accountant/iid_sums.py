"""E[(X_1 + ... + X_n)_+] for i.i.d. X with finitely many values, bounded from above with every rounding bounded.

The blanket bound of :mod:`dpcert.accountant.shuffle_optimal` is such a mean. X is given by atoms, each a value
and a probability known as exact rational enclosures. X is put on the grid v_j = j h (h an exact power of two)
so that the n-fold sum is a convolution, done by :class:`~dpcert.accountant.loss_grid.LossGrid` (side "upper")
with every float rounding bounded; phi(s) = s_+ is then summed over the grid, rounded up.

**Why it is an upper bound.** phi is non-decreasing and convex, so E[phi(S)] grows when a value or a mass of a
summand is raised (mass is >= 0 and phi >= 0) and under a mean-preserving spread of a summand; sums of
independent spreads are spreads of the sum (the convex order is closed under convolution: Shaked and
Shanthikumar, "Stochastic Orders", 2007, Theorem 3.A.12). Each atom is taken at its value's and mass's upper
ends and, at v strictly between the grid points a h and (a + 1) h, split between them with weights
((a + 1) h - v) / h and (v - a h) / h (a spread: the mean is kept), in exact rational arithmetic, each mass
then rounded up to a float. That is second order in h, where rounding every value up costs h per summand
(n h in all). LossGrid's convolutions and truncations keep the side a bound (rounding errors added to every
entry; the lower tail moved up; the upper tail moved to +infinity and valued here at ``cap``, an upper bound
on the sum).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dpcert.accountant.loss_grid import LossGrid, Truncation
from dpcert.accountant.shuffle_intervals import array_up, sum_upper, up
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.rounding import float_upper

__all__ = ["ValueAtom", "positive_part_mean_upper"]


@dataclass(frozen=True)
class ValueAtom:
    """A value of X and its probability, each as an exact rational enclosure (lo, hi)."""

    value: tuple[Fraction, Fraction]
    mass: tuple[Fraction, Fraction]


def _spread(atoms: Sequence[ValueAtom], step: Fraction) -> dict[int, Fraction]:
    """Grid index -> mass: every atom at its upper ends, split between its two grid points keeping its mean."""
    cells: dict[int, Fraction] = {}
    for atom in atoms:
        v, p = atom.value[1], atom.mass[1]
        if p == 0:
            continue
        a = math.floor(v / step)
        high = (v - a * step) / step * p
        cells[a] = cells.get(a, Fraction(0)) + (p - high)
        if high:
            cells[a + 1] = cells.get(a + 1, Fraction(0)) + high
    return cells


def positive_part_mean_upper(atoms: Sequence[ValueAtom], n: int, *, step: Fraction, tilt: float, tail: float,
                             cap: float) -> float:
    """An upper bound on E[(X_1 + ... + X_n)_+] for i.i.d. X with the given ``atoms``.

    ``step``: the grid's step, a power of two (so the grid's values are exact floats, below 2^53 steps from 0);
    ``tilt``: the exponential tilt of the grid (tightness only; Chernoff's order for the sum's positive tail is the
    natural choice); ``tail``: the true mass each truncation may move to +infinity; ``cap``: an upper bound on every
    value of the sum, the value given to that mass.
    """
    if step <= 0 or (step.numerator & (step.numerator - 1)) or (step.denominator & (step.denominator - 1)):
        raise InvalidParameterError(f"step must be a power of two (1/2^m or 2^m). Got {step}")
    cells = _spread(atoms, step)
    first, last = min(cells), max(cells)
    masses = np.zeros(last - first + 1)
    for a, m in cells.items():
        masses[a - first] = float_upper(m)
    grid = LossGrid.from_masses("upper", step, first, masses, 0.0, tilt=tilt).power(n, Truncation(tail))
    values = grid.losses()  # exact: (start + j) h with h a power of two
    positive = values > 0
    terms = array_up(grid.masses()[positive] * values[positive])
    return min(cap, up(sum_upper(terms) + up(grid.infinity * cap)))
