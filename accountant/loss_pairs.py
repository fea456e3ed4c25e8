"""Dominating pairs of standard mechanisms, and their privacy-loss distributions on a grid (both sides).

A mechanism enters the numerical accountant as a pair (P, Q) of output distributions whose hockey-stick
curve is at least that of every neighbouring pair of datasets (a *dominating pair*, Zhu, Dong, Wang,
AISTATS 2022, Definition 7); the composition of dominating pairs dominates the composition (their
Theorem 10). A :class:`LossPair` holds one ordered pair as

- **atoms**: outputs with a privacy loss l = ln(P/Q) (an exact rational, a float enclosure, or +infinity)
  and a P-mass and Q-mass, each a float enclosure (lo, hi);
- **a monotone segment**: a real output x on which l(x) is strictly monotone, given by the inverse x(l) with
  its float error and the P- and Q-masses of x-intervals with theirs.

:meth:`LossPair.grid` puts it on the grid l_j = j h: side "upper" splits each cell of the segment between its
two grid points keeping its P- and Q-mass (connecting the dots, a dominating pair; :func:`_connected_cells`)
where the floats resolve the split, and elsewhere, and for atoms, sends the loss up to the next grid point;
its upper tail (P-mass <= ``tail``) goes to +infinity and its lower tail up to the first grid point; side
"lower" shrinks the segment's cells by the inverse's error, merges parts of neighbouring cells onto the grid
point between them (joining the dots, a dominated pair; :func:`_joined_cells`), sends the rest and the atoms'
losses down, drops the lower tail and moves the upper tail down. Both are bounds on their side
(:mod:`dpcert.accountant.loss_grid`), and for a segment both keep a cell's loss to second order in h.

The pairs (P first, Q second; sensitivity Delta):

- Gaussian: N(Delta, sigma^2) vs N(0, sigma^2); l(x) = (Delta / sigma^2)(x - Delta/2). Symmetric: one order.
- Laplace: Lap(0, b) vs Lap(Delta, b); atoms +Delta/b (P-mass 1/2) and -Delta/b (P-mass e^(-Delta/b)/2), and
  l(x) = (Delta - 2x)/b on (0, Delta). Symmetric.
- discrete Laplace (P(k) proportional to e^(-|k|/b)) and discrete Gaussian (e^(-k^2/(2 sigma^2))), integer Delta:
  atoms, truncated where the P-mass beyond is below ``tail`` (Canonne, Kamath, Steinke 2020 for the latter).
- randomized response (eps), k-RR (k, eps) and a generic (eps, delta)-DP mechanism (the pair of Kairouz,
  Oh, Viswanath 2015: atoms +infinity with mass delta, +eps and -eps): atoms. Symmetric.
- a finite mechanism's two inputs: atoms, exact from its pmf.
- **subsampled** at rate q (Zhu, Dong, Wang 2022, Theorems 10 and 11; Balle, Barthe, Gaboardi 2018): from a
  pair (P, Q), the pairs ((1 - q) Q + q P, Q) and (Q, (1 - q) Q + q P). Under add/remove neighbours q is the
  Poisson rate and the base pair is for adding one record; under substitution q = m/n of sampling m of n
  records without replacement and the base pair is for replacing one. The loss becomes ln(1 - q + q e^l)
  (first order) or its negative (second), monotone in l, so atoms stay atoms and a monotone segment stays one.

Float error: the inverses and masses use numpy and scipy (ndtr, exp, expm1, log1p); each result is
widened by an explicit bound, assuming scipy's ndtr and numpy's exp, expm1, log1p within
:data:`CDF_RELATIVE_ERROR` = 10^-11 relative (checked against 50-digit mpmath in
``tests/accountant/test_pld_accountant.py``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from dpcert.accountant.loss_grid import LIBM_RELATIVE_ERROR, LossGrid, exp_bounds
from dpcert.accountant.shuffle_intervals import UNIT_ROUNDOFF, array_down, array_up, down, iv_to_floats, up
from dpcert.mechanisms.mp_contexts import interval_context

__all__ = [
    "CDF_RELATIVE_ERROR",
    "Atom",
    "LossPair",
    "MonotoneSegment",
]

CDF_RELATIVE_ERROR = 1e-11
"""Assumed relative error of scipy's ndtr and numpy's exp/expm1/log1p results used for masses and inverses."""

_R = CDF_RELATIVE_ERROR
_L = LIBM_RELATIVE_ERROR


def _widen(lo: np.ndarray, hi: np.ndarray, relative: float = _R) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi] widened by ``relative`` of each end and one float, clipped at 0 below."""
    return (np.maximum(array_down(lo * (1 - relative)), 0.0), array_up(hi * (1 + relative)))


@dataclass(frozen=True)
class Atom:
    """One output: loss (a Fraction, a float pair (lo, hi) enclosing it, or math.inf) and mass enclosures."""

    loss: Fraction | tuple[float, float] | float
    p: tuple[float, float]
    q: tuple[float, float]

    def loss_range(self) -> tuple[float, float]:
        if isinstance(self.loss, Fraction):
            return down(float(self.loss)), up(float(self.loss))
        if isinstance(self.loss, tuple):
            return self.loss
        return math.inf, math.inf

    def grid_index(self, step: Fraction, side: str) -> int | None:
        """The grid index of the loss rounded up (upper) or down (lower); None for +infinity."""
        if not isinstance(self.loss, (Fraction, tuple)):
            return None
        if isinstance(self.loss, Fraction):
            ratio = self.loss / step
        else:
            ratio = Fraction(self.loss[1] if side == "upper" else self.loss[0]) / step
        return math.ceil(ratio) if side == "upper" else math.floor(ratio)


@dataclass(frozen=True)
class MonotoneSegment:
    """Outputs x in (-inf, inf) (or a sub-interval) on which the loss l(x) is strictly monotone.

    Attributes:
        increasing: whether l grows with x.
        loss_ends: (smallest, largest) loss on the segment, floats at or beyond the true ends; may be infinite.
        inverse: l (float array) -> (x, error): x(l) and a bound on |x(l) - exact x at the exact l| for the
            exact grid loss within 2u|l| of the float.
        p_mass, q_mass: (a, b) arrays -> (lo, hi) enclosures of P([a, b]) and Q([a, b]) (a <= b, ends may be
            infinite).
        quantiles: tail mass t -> (x_low, x_high) with P(x < x_low), P(x > x_high) <= t (roughly; used only to
            choose the grid's range).
    """

    increasing: bool
    loss_ends: tuple[float, float]
    inverse: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    p_mass: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    q_mass: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    quantiles: Callable[[float], tuple[float, float]]


@dataclass(frozen=True)
class LossPair:
    """An ordered pair (P, Q) as atoms plus at most one monotone segment (see the module docstring)."""

    atoms: tuple[Atom, ...] = ()
    segment: MonotoneSegment | None = None
    label: str = ""

    # -------------------------------------------------------------------------------------------
    # subsampling
    # -------------------------------------------------------------------------------------------

    def subsampled(self, q: float, order: str) -> LossPair:
        """((1-q) Q + q P, Q) for order "first", (Q, (1-q) Q + q P) for order "second"."""
        atoms = []
        for atom in self.atoms:
            lo, hi = atom.loss_range()
            mixed = _widen(np.array([down(down((1 - q) * atom.q[0]) + down(q * atom.p[0]))]),
                           np.array([up(up((1 - q) * atom.q[1]) + up(q * atom.p[1]))]), 4 * UNIT_ROUNDOFF)
            mixed = (float(mixed[0][0]), float(mixed[1][0]))
            if order == "first":
                loss = math.inf if hi == math.inf else (_mix_loss(lo, q, "down"), _mix_loss(hi, q, "up"))
                atoms.append(Atom(loss, mixed, atom.q))
            elif hi < math.inf:  # Q-mass 0 (loss +infinity) has loss -infinity in this order: no contribution
                atoms.append(Atom((-_mix_loss(hi, q, "up"), -_mix_loss(lo, q, "down")), atom.q, mixed))
        segment = None if self.segment is None else _subsample_segment(self.segment, q, order)
        return LossPair(tuple(atoms), segment, f"{self.label}, subsampled q = {q}")

    # -------------------------------------------------------------------------------------------
    # discretisation
    # -------------------------------------------------------------------------------------------

    def loss_span(self, tail: float) -> tuple[float, float]:
        """Roughly the smallest and largest finite loss with P-mass above ``tail`` (floats)."""
        lows, highs = [], []
        for atom in self.atoms:
            lo, hi = atom.loss_range()
            if math.isfinite(lo) and atom.p[1] > 0:
                lows.append(lo)
            if math.isfinite(hi) and atom.p[1] > 0:
                highs.append(hi)
        if self.segment is not None:
            a, b = _segment_loss_span(self.segment, tail)
            lows.append(a)
            highs.append(b)
        return (min(lows), max(highs)) if lows else (0.0, 0.0)

    def grid(self, side: str, step: Fraction, tail: float, *, tilt: float = 0.0) -> LossGrid:
        """This pair's loss distribution on the grid of ``step``, a bound on ``side`` (see the module)."""
        entries: dict[int, float] = {}
        infinity = 0.0
        rounding = up if side == "upper" else down
        shares, split = _split_atoms(self.atoms, step) if side == "upper" else ({}, set())
        for index, mass in shares.items():
            entries[index] = up(entries.get(index, 0.0) + mass)
        for position, atom in enumerate(self.atoms):
            mass = atom.p[1] if side == "upper" else atom.p[0]
            if mass == 0.0 or position in split:
                continue
            lo, hi = atom.loss_range()
            if lo == -math.inf and side == "lower":
                continue
            index = None if hi == math.inf else (atom.grid_index(step, side) if lo != -math.inf else None)
            if hi == math.inf:
                infinity = rounding(infinity + mass)
            elif index is None:
                continue  # -infinity on the upper side: handled below as the segment's lowest point
            else:
                entries[index] = rounding(entries.get(index, 0.0) + mass)
        low_atoms = [a for a in self.atoms if a.loss_range()[0] == -math.inf and a.p[1] > 0 and side == "upper"]
        seg_start, seg_masses = 0, np.zeros(0)
        if self.segment is not None:
            seg_start, seg_masses, seg_infinity = _segment_cells(self.segment, side, step, tail)
            infinity = rounding(infinity + seg_infinity)
            occupied = np.flatnonzero(seg_masses > 0)
            if occupied.size:
                seg_start, seg_masses = seg_start + int(occupied[0]), seg_masses[occupied[0]: occupied[-1] + 1]
            else:
                seg_masses = np.zeros(0)
        ends = list(entries) + ([seg_start, seg_start + seg_masses.size - 1] if seg_masses.size else [])
        first, last = (min(ends), max(ends)) if ends else (0, 0)
        masses = np.zeros(last - first + 1)
        masses[seg_start - first: seg_start - first + seg_masses.size] = seg_masses
        for index, mass in entries.items():
            masses[index - first] = rounding(masses[index - first] + mass)
        for atom in low_atoms:  # an atom at -infinity rounds up to anything: the lowest grid point
            masses[0] = up(masses[0] + atom.p[1])
        return LossGrid.from_masses(side, step, first, masses, min(1.0, max(0.0, infinity)), tilt=tilt)


# ---------------------------------------------------------------------------------------------
# subsampling of losses: l -> ln(1 - q + q e^l)
# ---------------------------------------------------------------------------------------------

def _mix_loss(loss: float, q: float, direction: str) -> float:
    """ln(1 - q + q e^loss) for the float ``loss`` (or +-infinity) and rate ``q``, rounded ``direction`` ("up" or
    "down"): evaluated as ln(e^ln(1-q) + e^(ln q + loss)) in 113-bit interval arithmetic (well conditioned for
    every q and loss, unlike log1p(q expm1(loss)) near q = 1)."""
    if loss == math.inf:
        return math.inf
    ctx = interval_context(113)
    rest = ctx.mpf(1) - ctx.mpf(q)
    value = ctx.log(rest) if loss == -math.inf else ctx.log(rest + ctx.mpf(q) * ctx.exp(ctx.mpf(loss)))
    low, high = iv_to_floats(value)
    return high if direction == "up" else low


def _subsample_segment(segment: MonotoneSegment, q: float, order: str) -> MonotoneSegment:
    """The segment of ((1-q) Q + q P, Q) (order "first") or of its reverse."""
    sign = 1 if order == "first" else -1

    def inverse(loss: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # first: base loss = ln((e^l - 1 + q) / q); second: the same at -l
        own = sign * loss
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            excess = np.expm1(own) + q
            base = np.log(excess / q)
            # the exact grid loss is within 2u|l| of the float; expm1 carries L relative, the sum and the quotient
            # one rounding each, the log L relative (L = LIBM_RELATIVE_ERROR)
            error_excess = (2 * UNIT_ROUNDOFF * np.abs(own) * np.exp(own) + _L * np.abs(np.expm1(own))
                            + UNIT_ROUNDOFF * np.abs(excess)) * 1.1
            base_error = (error_excess / np.maximum(excess - error_excess, 1e-300) * 1.1 + _L * np.abs(base)
                          + 2 * UNIT_ROUNDOFF + 1e-300)
        base = np.where(excess > 0, base, -np.inf)
        x, x_error = segment.inverse(base)
        # the base inverse bounds its error for an input within 2u|l|; propagate the extra base error through
        # its slope, bounded by the difference quotient over the error interval
        x_hi, _ = segment.inverse(base + base_error)
        x_lo, _ = segment.inverse(base - base_error)
        with np.errstate(invalid="ignore"):
            spread = np.maximum(np.abs(x_hi - x), np.abs(x - x_lo))
        return x, np.where(np.isfinite(spread), x_error + spread * 1.01, np.inf)

    def mixed(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p_lo, p_hi = segment.p_mass(a, b)
        q_lo, q_hi = segment.q_mass(a, b)
        return _widen(array_down(array_down((1 - q) * q_lo) + array_down(q * p_lo)),
                      array_up(array_up((1 - q) * q_hi) + array_up(q * p_hi)), 4 * UNIT_ROUNDOFF)

    lo, hi = segment.loss_ends
    if order == "first":
        ends = (_mix_loss(lo, q, "down"), _mix_loss(hi, q, "up"))
        return MonotoneSegment(segment.increasing, ends, inverse, mixed, segment.q_mass,
                               segment.quantiles)
    ends = (-_mix_loss(hi, q, "up"), -_mix_loss(lo, q, "down"))
    return MonotoneSegment(not segment.increasing, ends, inverse, segment.q_mass, mixed, segment.quantiles)


# ---------------------------------------------------------------------------------------------
# cells of a monotone segment
# ---------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _segment_loss_span(segment: MonotoneSegment, tail: float) -> tuple[float, float]:
    """The losses at the segment's tail quantiles, clipped to its loss range (floats, no direction)."""
    x_low, x_high = segment.quantiles(tail)
    grid = np.array([x_low, x_high])
    loss = _loss_at(segment, grid)
    lo, hi = sorted(float(v) for v in loss)
    ends = sorted(segment.loss_ends)
    return max(lo, ends[0]), min(hi, ends[1])


def _loss_at(segment: MonotoneSegment, x: np.ndarray) -> np.ndarray:
    """l(x) by 16-section on the inverse to about 2e-8 (floats; only for choosing the grid's range): each round
    evaluates 15 points per bracket in one call and keeps the sixteenth the crossing lies in."""
    lo_end, hi_end = segment.loss_ends
    low = np.full(x.shape, max(lo_end, -1e4))
    width = np.full(x.shape, min(hi_end, 1e4)) - low
    parts = np.arange(1, 16) / 16
    for _ in range(10):
        points = low[:, None] + width[:, None] * parts[None, :]
        at, _ = segment.inverse(points.ravel())
        at = at.reshape(points.shape)
        beyond = (at > x[:, None]) if segment.increasing else (at < x[:, None])
        low = low + width * np.sum(~beyond, axis=1) / 16
        width = width / 16
    return low + width / 2


def _split_atoms(atoms: tuple[Atom, ...], step: Fraction) -> tuple[dict[int, float], set[int]]:
    """The upper side's shares of the atoms whose loss lies strictly inside one cell [l_a, l_a + h] (connecting the
    dots, as for a segment's cells: an atom is an output, so splitting it keeps a dominating pair), as grid index ->
    mass rounded up, and the positions of the atoms split; atoms on a grid point or at +-infinity are not split."""
    chosen, indices = [], []
    for position, atom in enumerate(atoms):
        lo, hi = atom.loss_range()
        if atom.p[1] == 0.0 or not (math.isfinite(lo) and math.isfinite(hi)):
            continue
        if isinstance(atom.loss, Fraction) and (atom.loss / step).denominator == 1:
            continue  # on the grid already
        index = math.floor(Fraction(lo) / step)
        if Fraction(hi) <= (index + 1) * step:
            chosen.append(position)
            indices.append(index)
    if not chosen:
        return {}, set()
    picked = [atoms[i] for i in chosen]
    alpha, beta = _split_shares(np.array(indices, dtype=float), np.array([a.p[1] for a in picked]),
                                np.array([a.q[0] for a in picked]), step)
    shares: dict[int, float] = {}
    for index, low_share, high_share in zip(indices, alpha.tolist(), beta.tolist()):
        shares[index] = up(shares.get(index, 0.0) + low_share)
        shares[index + 1] = up(shares.get(index + 1, 0.0) + high_share)
    return shares, set(chosen)


def _split_shares(indices: np.ndarray, p_max: np.ndarray, q_min: np.ndarray,
                  step: Fraction) -> tuple[np.ndarray, np.ndarray]:
    """Upper-side shares (alpha at l_a, beta at l_a + h, l_a = index h) for outputs with loss in [l_a, l_a + h],
    P-mass at most p_max and Q-mass at least q_min (see :func:`_connected_cells`).

    The true split of the outputs' P-mass p is beta = (p - q e^(l_a)) / (1 - e^(-h)) and alpha = p - beta. Any
    (alpha', beta') with beta' >= beta and alpha' + beta' >= p dominates it (mass moved from l_a up to l_a + h, or
    added), so beta' is the bound from (p_max, q_min), at most p_max, and alpha' = p_max - beta'. The masses'
    float error then moves mass up by h instead of adding it, which costs about that error, not that error / h."""
    h = float(step)
    lower_ends = indices * h
    e_low = exp_bounds(lower_ends, 2 * UNIT_ROUNDOFF * np.abs(lower_ends) + 1e-300, "lower")
    ctx = interval_context(113)
    width_low, _ = iv_to_floats(-ctx.expm1(-ctx.mpf(step.numerator) / step.denominator))
    with np.errstate(over="ignore", invalid="ignore"):
        beta = array_up(array_up(p_max - array_down(q_min * e_low)) / width_low)
    beta = np.minimum(np.clip(np.nan_to_num(beta, nan=np.inf), 0.0, None), p_max)
    return np.maximum(array_up(p_max - beta), 0.0), beta


def _connected_cells(segment: MonotoneSegment, first: int, x: np.ndarray, error: np.ndarray,
                     step: Fraction) -> tuple[int, np.ndarray, float]:
    """The upper side's cells by connecting the dots (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, PETS 2022):
    the outputs with loss in (l_a, l_a + h] are split between l_a and l_a + h keeping their P- and Q-mass,
    alpha = (q e^(l_a) - p e^(-h)) / (1 - e^(-h)) at l_a and beta = (p - q e^(l_a)) / (1 - e^(-h)) at l_a + h.

    Why it is an upper bound: splitting each output so is the reverse of merging two outputs, so the split
    pair dominates the true one (the true one is its post-processing), for every eps and under composition;
    and alpha, beta are linear in (p, q), so splitting the cell's total is splitting each output. The cell's
    (p, q) are enclosed from the nominal x-interval plus the masses of the slivers [x - err, x + err] at its
    ends (outputs whose cell the float boundary may misplace); beta grows with p and falls with q, so it is bounded
    above from (p_max, q_min), and the rest of p_max stays at l_a (:func:`_split_shares`: where the bound lost the
    masses' precision, in tiny cells or with Q-masses below the float range, the whole cell goes up to l_a + h, the
    losses only larger, as for rounding up). The lower tail goes to the first grid point, the upper tail to
    +infinity, as for rounding up.
    """
    n = x.size
    starts = np.concatenate(([-np.inf], x))
    ends = np.concatenate((x, [np.inf]))
    with np.errstate(invalid="ignore"):
        _, p_hi = segment.p_mass(starts, ends)
        q_lo, _ = segment.q_mass(starts, ends)
        sliver_p = segment.p_mass(x - error, x + error)[1]
        sliver_q = segment.q_mass(x - error, x + error)[1]
    zero = np.zeros(1)
    near_p = np.concatenate((zero, sliver_p)) + np.concatenate((sliver_p, zero))
    near_q = np.concatenate((zero, sliver_q)) + np.concatenate((sliver_q, zero))
    p_max = np.nan_to_num(array_up(p_hi + near_p), nan=0.0)
    q_min = np.maximum(np.nan_to_num(array_down(q_lo - near_q), nan=0.0), 0.0)
    if not segment.increasing:  # to increasing loss: interval i between grid indices first+i-1 and first+i
        p_max, q_min = p_max[::-1], q_min[::-1]
    inner = slice(1, n)
    alpha, beta = _split_shares(first + np.arange(n - 1), p_max[inner], q_min[inner], step)
    cells = np.zeros(n)
    cells[0] = p_max[0]  # the lower tail, up to l_first
    cells[: n - 1] = array_up(cells[: n - 1] + alpha)
    cells[1:] = array_up(cells[1:] + beta)
    return first, cells, float(p_max[n])


def _segment_cells(segment: MonotoneSegment, side: str, step: Fraction,
                   tail: float) -> tuple[int, np.ndarray, float]:
    """(first index, masses, mass at +infinity) of the segment on the grid, a bound on ``side``.

    The grid covers the losses between the tail quantiles; below them (lower tail) the mass goes to the
    first grid point (upper side) or is dropped (lower side), above them to +infinity (upper) or the last
    grid point (lower). Cell j holds the outputs with loss in (l_(j-1), l_j] (upper side, mass at l_j) or
    in [l_j, l_(j+1)) (lower side, mass at l_j).
    """
    lo, hi = _segment_loss_span(segment, tail)
    h = float(step)
    first = math.floor(lo / h) - 1
    last = math.ceil(hi / h) + 1
    x, error = segment.inverse(np.arange(first, last + 1) * h)
    error = np.where(np.isfinite(x), error, 0.0)
    if not segment.increasing:  # boundaries in increasing x
        x, error = x[::-1], error[::-1]
    if side == "upper":
        return _connected_cells(segment, first, x, error, step)
    return _joined_cells(segment, first, x, error, step)


def _joined_cells(segment: MonotoneSegment, first: int, x: np.ndarray, error: np.ndarray,
                  step: Fraction) -> tuple[int, np.ndarray, float]:
    """The lower side's cells by joining the dots, the reverse of connecting them: cell j (the outputs with loss
    in [l_j, l_(j+1)), P-mass p_j, Q-mass q_j) keeps a fraction 1 - a_j at l_j and sends a_j up to l_(j+1), where
    it is merged with the part 1 - a_(j+1) of cell j+1 that stays there.

    Why it is a lower bound: splitting a cell at random and merging parts of two cells is post-processing, so
    the true pair dominates the joined one for every eps and under composition; the merged output's loss
    ln((a_j p_j + (1 - a_(j+1)) p_(j+1)) / (a_j q_j + (1 - a_(j+1)) q_(j+1))) is >= l_(j+1) when
    a_j D_j <= (1 - a_(j+1)) S_(j+1), with the deficit D_j >= e^(l_(j+1)) q_j - p_j and the surplus
    S_(j+1) <= p_(j+1) - e^(l_(j+1)) q_(j+1) bounded from the masses' enclosures, and placing it at l_(j+1)
    only lowers the loss (loss_grid). With r_j = S_(j+1) / D_j and a cap c_j = r_j / (1 + r_j) (where a = (1 - a) r
    balances), a_j = min(c_j, r_j (1 - c_(j+1))) rounded down meets that, as every a_(j+1) <= c_(j+1). Each cell's
    P-mass is enclosed from below on its x-interval shrunk by the inverse's error (outputs certainly in the cell;
    the slivers are dropped, which lowers delta). Where the densities are smooth r_j is near 1, a_j near 1/2, and
    the cell's mean loss is kept to second order in h, where rounding every loss down costs h/2 per composed
    mechanism. The lower tail is dropped; the upper tail goes to the last grid point.
    """
    h = float(step)
    starts = np.concatenate(([-np.inf], x + error))
    ends = np.concatenate((x - error, [np.inf]))
    with np.errstate(invalid="ignore"):
        p_lo, _ = segment.p_mass(np.minimum(starts, ends), ends)
        _, q_hi = segment.q_mass(np.minimum(starts, ends), ends)
    inside = ends > starts
    p_lo = np.nan_to_num(np.where(inside, p_lo, 0.0), nan=0.0)
    q_hi = np.nan_to_num(np.where(inside, q_hi, 0.0), nan=np.inf)
    if not segment.increasing:  # back to increasing loss: interval i lies between grid indices first+i-1, first+i
        p_lo, q_hi = p_lo[::-1], q_hi[::-1]
    p_lo, q_hi = p_lo[1:], q_hi[1:]  # cell j: losses in [l_(first+j), l_(first+j+1)); the lower tail dropped
    n = p_lo.size
    joints = (first + 1 + np.arange(n - 1)) * h  # l_(j+1) between cells j and j+1
    e_high = exp_bounds(joints, 2 * UNIT_ROUNDOFF * np.abs(joints) + 1e-300, "upper")
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        deficit = array_up(array_up(q_hi[:-1] * e_high) - p_lo[:-1])
        surplus = array_down(p_lo[1:] - array_up(q_hi[1:] * e_high))
        ratio = array_down(surplus / deficit)
    ratio = np.where((surplus > 0) & (deficit > 0) & np.isfinite(deficit), np.nan_to_num(ratio, nan=0.0), 0.0)
    cap = np.append(ratio / (1 + ratio), 0.0)  # a_j <= cap_j; r/(1+r) is where a = (1 - a) r balances
    share = np.minimum(cap[:-1], array_down(ratio * array_down(1 - cap[1:])))
    moved = array_down(share * p_lo[:-1])
    cells = p_lo.copy()
    cells[:-1] = np.maximum(array_down(cells[:-1] - array_up(share * p_lo[:-1])), 0.0)
    cells[1:] = array_down(cells[1:] + moved)
    return first, cells, 0.0
