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
from dpcert.accountant.shuffle_intervals import array_down, array_up, down, sum_lower, sum_upper, up
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = ["ValueAtom", "positive_part_mean_lower", "positive_part_mean_upper"]


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


def _require_power_of_two(step: Fraction) -> None:
    if step <= 0 or (step.numerator & (step.numerator - 1)) or (step.denominator & (step.denominator - 1)):
        raise InvalidParameterError(f"step must be a power of two (1/2^m or 2^m). Got {step}")


def positive_part_mean_upper(atoms: Sequence[ValueAtom], n: int, *, step: Fraction, tilt: float, tail: float,
                             cap: float) -> float:
    """An upper bound on E[(X_1 + ... + X_n)_+] for i.i.d. X with the given ``atoms``.

    ``step``: the grid's step, a power of two (so the grid's values are exact floats, below 2^53 steps from 0);
    ``tilt``: the exponential tilt of the grid (tightness only; Chernoff's order for the sum's positive tail is the
    natural choice); ``tail``: the true mass each truncation may move to +infinity; ``cap``: an upper bound on every
    value of the sum, the value given to that mass.
    """
    _require_power_of_two(step)
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


def positive_part_mean_lower(atoms: Sequence[ValueAtom], n: int, *, step: Fraction, tilt: float,
                             tail: float) -> float:
    """A lower bound on E[(X_1 + ... + X_n)_+] for i.i.d. X with the given ``atoms`` (arguments as for
    :func:`positive_part_mean_upper`).

    Each atom is taken at its lower ends and its value v rounded down to the grid point a h (X_d <= X; a mass
    left out only lowers the mean of a non-negative function), the remainder R = v - a h >= 0. By convexity,
    phi(S) >= phi(S_d) + 1{S_d > 0} (S - S_d) with S - S_d = R_1 + ... + R_n, and with S' = X_d,1 + ... +
    X_d,n-1 independent of the n-th summand,

        E[(S)_+] >= E[(S_d)_+] + n sum_a m_a r_a P(S' > -a h),

    m_a r_a the summed mass times remainder of the atoms rounded to a h. S' and S_d = S' + X_d are composed on
    the lower side of :class:`~dpcert.accountant.loss_grid.LossGrid` (masses and tail probabilities at most the
    true ones). The correction returns the first-order term of rounding down; what is left grows like the square
    of the drift n h, so the step must be small against sigma_X / sqrt(n) for the bound to be tight.
    """
    _require_power_of_two(step)
    cells: dict[int, tuple[Fraction, Fraction]] = {}  # grid index -> (mass, mass times remainder)
    for atom in atoms:
        v, p = atom.value[0], atom.mass[0]
        if p <= 0:
            continue
        a = math.floor(v / step)
        mass, moment = cells.get(a, (Fraction(0), Fraction(0)))
        cells[a] = (mass + p, moment + p * (v - a * step))
    if not cells:
        return 0.0
    first, last = min(cells), max(cells)
    masses = np.zeros(last - first + 1)
    for a, (m, _) in cells.items():
        masses[a - first] = float_lower(m)
    base = LossGrid.from_masses("lower", step, first, masses, 0.0, tilt=tilt)
    truncation = Truncation(tail)
    others = base.power(n - 1, truncation) if n > 1 else None
    total = others.convolve(base, truncation) if others is not None else base
    values = total.losses()
    positive = values > 0
    main = sum_lower(array_down(total.masses()[positive] * values[positive]))
    if others is None:
        tails = {a: 1.0 if a > 0 else 0.0 for a in cells}  # S' = 0
    else:
        losses, kept = others.losses(), others.masses()
        tails = {a: sum_lower(kept[losses > float(-a * step)]) for a in cells}  # the losses are exact floats
    correction = sum_lower(np.array([down(float_lower(moment) * tails[a]) for a, (_, moment) in cells.items()]))
    return max(0.0, down(main + down(n * correction)))
