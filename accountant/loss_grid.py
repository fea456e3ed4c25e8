"""Privacy-loss distributions on a grid, composed by FFT with every rounding bounded: one side of an enclosure.

A :class:`LossGrid` is a distribution of the privacy loss L = ln(P(o)/Q(o)), o ~ P, whose finite values lie
on the grid l_j = j h (h an exact positive rational), plus a mass at +infinity (outputs Q cannot produce).
The hockey-stick divergence of the pair is delta(eps) = E[(1 - e^(eps - L))_+] (with the infinite mass
counting 1), and the composition of independent mechanisms sums their losses, so the composed
distribution is the convolution of theirs (Sommer, Meiser, Mohammadi, PoPETs 2019; Koskela, Jalko,
Honkela, AISTATS 2020).

**Why one side is a certified bound.** ``(1 - e^(eps - x))_+`` is non-decreasing in x and non-negative, so:

- side ``"upper"``: if every component's loss is replaced by a value at least as large (the loss rounded up
  onto the grid, a lower tail moved up to a cut, an upper tail moved to +infinity) and every stored mass is
  at least the true mass, the formula gives at least the true delta of the composition, for every eps;
- side ``"lower"``: losses rounded down, tails dropped or moved down, masses at most the true ones: at
  most the true delta.

Convolution preserves both orders (the arrays are non-negative), so each side stays a bound through any
number of compositions and truncations. What truncation costs is tightness, never soundness; the gap
between the two sides is the answer's certified width.

**Stored tilted.** Entry j holds ``values[j]`` with true mass ``values[j] * 2^scale2 * exp(log_scale - tilt l_j)``:
an exponential tilt by e^(tilt L) (a homomorphism of convolution) moves the float array's weight to where
delta(eps) is decided, so the absolute rounding error of the FFT, which is relative to the array's largest
entries, becomes relative to delta itself even at delta = 10^-18 (the tilt of Chernoff's bound at the
target eps is the natural choice).

**Rounding, bounded.** Each float operation is accounted for:

- FFT convolution: every entry of a convolution computed by FFT is within a rigorous bound of the exact one
  (Higham's Theorem 24.2, under the assumption stated in :mod:`dpcert.accountant.fft_convolution`, tested there);
  the upper side stores the computed entry plus the bound, the lower side minus it (at least 0), each stepped one
  float outward. A k-fold self-composition whose window and precision allow it is one FFT raised to the k-th
  power (:meth:`LossGrid.power`), the tails that the cyclic window folds bounded by Chernoff's inequality.
- exp and expm1 of a float argument: numpy's results are assumed within :data:`LIBM_RELATIVE_ERROR`
  = 2^-50 (8 units in the last place) relative of the exact function at the float argument; the error of
  the argument itself (an exponent built from l_j, the tilt and the scale) is bounded term by term.
  ``tests/accountant/test_pld_accountant.py`` checks numpy's exp and expm1 against 50-digit mpmath.
- sums of non-negative floats: Higham's gamma bound (:func:`~dpcert.accountant.shuffle_intervals.sum_upper`).

Masses below 10^-300 (where floats lose relative accuracy) are raised to 10^-300 on the upper side and
dropped on the lower side.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.fft

from dpcert.accountant.fft_convolution import cyclic_power, fft_error_bound, power_error_bound
from dpcert.accountant.shuffle_intervals import (UNIT_ROUNDOFF, array_down, array_up, down, exp_enclosure,
                                                 log_enclosure, sum_lower, sum_upper, up)
from dpcert.mechanisms.mp_contexts import interval_context

__all__ = [
    "LIBM_RELATIVE_ERROR",
    "MAX_GRID_POINTS",
    "SIDES",
    "LossGrid",
    "Truncation",
    "exp_bounds",
    "log_sum_exp",
]

LIBM_RELATIVE_ERROR = 2.0 ** -50
"""Assumed bound on the relative error of numpy's exp, expm1 and log at a float argument (8 ulps)."""

MAX_GRID_POINTS = 1 << 23
"""The most grid points a composed distribution keeps: beyond, tails are truncated (soundly, at a cost in
tightness) whatever their mass. 2^23 points need about 0.5 GB at the FFT of two such arrays."""

SIDES = ("upper", "lower")

_FLOOR = 1e-300
"""Below this a mass is raised to it (upper side) or dropped (lower side)."""

_LN2 = math.log(2.0)

POWER_PRECISION = 2.0 ** -30
"""A power is taken by one FFT (:meth:`LossGrid.power`) when its error bound summed over its window is at most
this fraction (about 9.3e-10) of the window's mass, or at most four times a guess of what repeated squaring
would accumulate; otherwise the base is squared once more first."""



def exp_bounds(x: np.ndarray, error: np.ndarray | float, side: str) -> np.ndarray:
    """Bounds on exp(X) for exact reals X with |X - x| <= error: above for side "upper", below for "lower".

    exp(X) lies within a factor e^(+-error) of exp(x), and numpy's exp(x) within LIBM_RELATIVE_ERROR of that.
    Results beyond the float range come out as inf (upper) and 0 (lower); below 10^-300 the upper side
    gives 10^-300.
    """
    with np.errstate(over="ignore", under="ignore"):
        value = np.exp(x)
        slack = np.expm1(np.asarray(error, dtype=float) * (1 + 1e-6)) + LIBM_RELATIVE_ERROR * 1.01
        if side == "upper":
            return np.maximum(array_up(value * (1 + slack) * (1 + 4 * UNIT_ROUNDOFF)), _FLOOR)
        low = array_down(value * (1 - slack) * (1 - 4 * UNIT_ROUNDOFF))
    return np.where(low < _FLOOR, 0.0, np.maximum(low, 0.0))


@dataclass(frozen=True)
class _RunningSums:
    """Running sums of the true masses e^logs from the first entry up (``prefix``) and from the last down
    (``suffix``), scaled by e^-top with top the largest finite log: floats, a guide for choosing cuts (a mass below
    e^-745 of the largest reads as e^-745 of it, never 0; zero masses, -inf, stay out)."""

    top: float
    prefix: np.ndarray
    suffix: np.ndarray

    @classmethod
    def of(cls, logs: np.ndarray) -> _RunningSums:
        finite = np.isfinite(logs)
        top = float(np.max(logs[finite])) if finite.any() else 0.0
        with np.errstate(under="ignore", invalid="ignore"):
            scaled = np.where(finite, np.exp(np.maximum(logs - top, -745.0)), 0.0)
        return cls(top, np.cumsum(scaled), np.cumsum(scaled[::-1])[::-1])

    def scaled(self, mass: float) -> float:
        """``mass`` in the sums' units."""
        return math.exp(min(max(math.log(mass) - self.top, -745.0), 709.0))


def log_sum_exp(rows: np.ndarray) -> np.ndarray:
    """ln sum_j e^rows[i, j] for each row, in floats (a guide for tilts and windows; -inf entries are zero masses,
    and a row of them gives -inf)."""
    top = np.max(rows, axis=1)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(under="ignore", divide="ignore"):
        return np.log(np.sum(np.exp(rows - top[:, None]), axis=1)) + top


def _log_moment_upper(values: np.ndarray, rate: float) -> float:
    """An upper bound on ln sum_j values_j e^(rate j) (j = 0, 1, ...; values non-negative, not all 0)."""
    present = np.nonzero(values > 0)[0]
    exponents = rate * present.astype(float)  # one rounding each: within u |rate j|
    top = float(np.max(exponents))
    shifted = exponents - top
    error = UNIT_ROUNDOFF * (np.abs(exponents) + np.abs(shifted)) * 1.01
    total = sum_upper(array_up(values[present] * exp_bounds(shifted, error, "upper")))
    return up(top + log_enclosure(total, total)[1])


@dataclass(frozen=True)
class _MomentGuide:
    """ln sum_j values_j e^(r j) on a grid of orders r > 0, and ln sum_j values_j e^(-r j) on the same grid
    shifted by ``least`` (orders >= least), in floats, from the values pooled into at most 2048 blocks, each
    block's mass at its far end (a guide for choosing a power's window and Chernoff orders)."""

    rates: np.ndarray
    moments: np.ndarray
    negative_rates: np.ndarray
    negative: np.ndarray

    @classmethod
    def of(cls, values: np.ndarray, least: float) -> _MomentGuide:
        width = max(1, -(-values.size // 2048))
        starts = np.arange(0, values.size, width)
        with np.errstate(divide="ignore"):
            logs = np.log(np.add.reduceat(values, starts))
        ends = np.minimum(starts + width - 1, values.size - 1).astype(float)
        rates = np.geomspace(1e-9, 50.0, 32)
        negative_rates = rates + least
        moments = log_sum_exp(logs[None, :] + rates[:, None] * ends[None, :])
        negative = log_sum_exp(logs[None, :] - negative_rates[:, None] * starts[None, :])
        return cls(rates, moments, negative_rates, negative)


def _norms_upper(values: np.ndarray) -> tuple[float, float]:
    """Upper bounds on |values|_1 and |values|_2 of a non-negative array."""
    l1 = sum_upper(values)
    squares = values * values  # each square within a factor (1 + u) of the exact one
    l2 = up(math.sqrt(up(sum_upper(squares) * (1 + 2 * UNIT_ROUNDOFF))))
    return l1, l2


@dataclass(frozen=True)
class Truncation:
    """How much of a composed distribution's tails to fold away after each convolution (tightness only).

    Attributes:
        tail: the largest total true mass moved off the upper tail per truncation (to +infinity on the
            upper side, down to the cut on the lower side): each such move changes delta by at most it.
        relative: the lower tail below the cut is moved up to it (upper side) or dropped (lower side) when
            its tilted weight is at most this fraction of the array's total tilted weight.
        max_points: the most grid points kept; a longer array has its tails cut regardless (still sound).
    """

    tail: float
    relative: float = 1e-18
    max_points: int = MAX_GRID_POINTS

    def shared(self, uses: int) -> Truncation:
        """This truncation for a distribution the result composes ``uses`` times: what a fold moves then counts
        ``uses`` times (masses at +infinity add up under composition), so each use gets 1/uses of the budget."""
        return dataclasses.replace(self, tail=self.tail / uses, relative=self.relative / uses)


@dataclass(frozen=True)
class DeltaCurve:
    """eps -> a bound on one side of delta(eps) = sum_j m_j (1 - e^(eps - l_j))_+ + the mass at +infinity, from the
    true masses' bounds ``masses`` at the float losses ``losses`` (each within 2u |l_j| of the exact l_j), each
    evaluation with every rounding bounded; :meth:`epsilon_guess` is a float guide for searches."""

    upper: bool
    losses: np.ndarray
    masses: np.ndarray
    shifted: np.ndarray
    """The losses moved by their error outwards: beyond eps for sure (lower side) or possibly (upper side)."""
    infinity: float

    def __call__(self, eps: float) -> float:
        first = int(np.searchsorted(self.shifted, eps, side="right")) if self._ordered else 0
        keep = self.shifted[first:] > eps
        l, m = self.losses[first:][keep], self.masses[first:][keep]
        if l.size == 0:
            return min(1.0, self.infinity) if self.upper else max(0.0, self.infinity)
        y = eps - l  # float subtraction: within u |y| of eps - l~, and l~ within reach of the exact l
        with np.errstate(over="ignore"):
            hinge = -np.expm1(y)
            error = (2 * UNIT_ROUNDOFF * np.abs(l) + UNIT_ROUNDOFF * np.abs(y)) * np.exp(np.minimum(y, 0)) * 1.01 \
                + LIBM_RELATIVE_ERROR * np.abs(hinge) * 1.01
        if self.upper:
            terms = array_up(m * np.maximum(array_up(hinge + error), 0.0))
            total = sum_upper(terms) + l.size * _FLOOR  # a product below the float range is < 10^-300
            return min(1.0, up(total + self.infinity))
        terms = array_down(m * np.maximum(array_down(hinge - error), 0.0))
        return max(0.0, down(sum_lower(np.maximum(terms, 0.0)) + self.infinity))

    @functools.cached_property
    def _ordered(self) -> bool:
        return bool(np.all(np.diff(self.shifted) >= 0))

    def epsilon_guess(self, delta: float) -> float | None:
        """The eps >= 0 where the float delta(eps) crosses ``delta`` (no rounding direction; None when it does not
        cross on [0, the top loss]). Between grid points delta(eps) = A - e^eps B with A, B the mass and the
        e^(-l)-weighted mass above eps, so the crossing is ln((A - delta) / B) in its cell."""
        positive = self.losses > 0
        l, m = self.losses[positive], self.masses[positive]
        if l.size == 0 or not self._ordered:
            return None
        above = np.cumsum(m[::-1])[::-1] + self.infinity  # A for eps just below l_j
        weighted = np.cumsum((m * np.exp(-l))[::-1])[::-1]
        with np.errstate(over="ignore", invalid="ignore"):
            at_points = np.where(weighted > 0, above - np.exp(l) * weighted, above)  # delta at eps = l_j
        if not above[0] - weighted[0] > delta >= self.infinity:  # delta(0) and delta at the top loss
            return None
        j = int(np.searchsorted(-at_points, -delta, side="left"))  # first grid point with delta(l_j) <= delta
        if j >= l.size or weighted[j] <= 0:
            return None
        value = math.log(max(above[j] - delta, 1e-300) / weighted[j])
        return value if math.isfinite(value) and value >= 0 else None


@dataclass(frozen=True)
class LossGrid:
    """One side of a discretised privacy-loss distribution (see the module docstring).

    Attributes:
        side: "upper" (every stored mass >= the true one of a distribution whose losses dominate the true
            losses) or "lower" (<=, dominated).
        step: the grid step h, an exact positive rational; ``start`` indexes the first entry (l = start h).
        values: non-negative float64 tilted masses.
        scale2, log_scale, tilt: true mass j = values[j] * 2^scale2 * exp(log_scale - tilt * l_j), with
            log_scale and tilt floats taken as the exact binary numbers they are.
        infinity: the mass at +infinity, a float bound on the same side.
    """

    side: str
    step: Fraction
    start: int
    values: np.ndarray
    scale2: int
    log_scale: float
    tilt: float
    infinity: float

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"side must be one of {SIDES}. Got {self.side!r}")

    # -----------------------------------------------------------------------------------------
    # construction
    # -----------------------------------------------------------------------------------------

    @classmethod
    def from_masses(cls, side: str, step: Fraction, start: int, masses: np.ndarray, infinity: float, *,
                    tilt: float = 0.0) -> LossGrid:
        """A grid from untilted masses (already bounds on ``side``) at l_j = (start + j) h."""
        masses = np.asarray(masses, dtype=float)
        if side == "lower":  # a lower bound rounded below 0 (-1e-323) is one at 0 too: masses are >= 0
            masses = np.maximum(masses, 0.0)
        if masses.size == 0:
            masses = np.zeros(1)
        losses = cls._losses(step, start, masses.size)
        with np.errstate(divide="ignore"):
            logs = np.log(masses) + tilt * losses
        finite = np.isfinite(logs)
        log_scale = float(np.max(logs[finite])) if finite.any() else 0.0
        exponent = tilt * losses - log_scale
        error = cls._exponent_error(losses, tilt, log_scale, 0)
        values = masses * exp_bounds(exponent, error, side)
        values = array_up(values) if side == "upper" else array_down(values)
        values = np.where(masses > 0, np.maximum(values, 0.0), 0.0)
        return cls(side, step, start, values, 0, log_scale, float(tilt), infinity)._normalised()

    @staticmethod
    def _losses(step: Fraction, start: int, size: int) -> np.ndarray:
        """l_j as floats, each within 2u |l_j| of the exact (start + j) h."""
        return (start + np.arange(size, dtype=float)) * float(step)

    @staticmethod
    def _exponent_error(losses: np.ndarray, tilt: float, log_scale: float, scale2: int) -> np.ndarray:
        """A bound on the error of the float exponent log_scale - tilt l_j + scale2 ln 2 (or its negative):
        l_j carries 2u |l_j|, the product and the two sums one rounding each, ln 2 one more."""
        return 4 * UNIT_ROUNDOFF * (abs(log_scale) + np.abs(tilt * losses) * 2 + abs(scale2) * _LN2) + 1e-300

    def _normalised(self) -> LossGrid:
        """The same distribution with the largest value scaled into [1/2, 1) by a power of two (exact)."""
        peak = float(np.max(self.values)) if self.values.size else 0.0
        if peak == 0.0:
            return self
        _, exponent = math.frexp(peak)
        return dataclasses.replace(self, values=np.ldexp(self.values, -exponent), scale2=self.scale2 + exponent)

    # -----------------------------------------------------------------------------------------
    # true masses
    # -----------------------------------------------------------------------------------------

    def losses(self, part: slice = slice(None)) -> np.ndarray:
        """The losses of the entries in ``part`` as floats (each within 2u |l| of the exact value)."""
        first, stop, _ = part.indices(self.values.size)
        return self._losses(self.step, self.start + first, max(stop - first, 0))

    def weight(self, index: int, side: str) -> float:
        """A bound on ``side`` on 2^scale2 exp(log_scale - tilt l_index), the factor from stored to true mass."""
        losses = self.losses(slice(index, index + 1))
        exponent = self.log_scale - self.tilt * losses + self.scale2 * _LN2
        error = self._exponent_error(losses, self.tilt, self.log_scale, self.scale2)
        return float(exp_bounds(exponent, error, side)[0])

    def masses(self, part: slice = slice(None), side: str | None = None) -> np.ndarray:
        """Bounds on the true masses of the entries in ``part``, on ``side`` (default: this grid's side).

        Computed as exp(ln values_j + log_scale - tilt l_j + scale2 ln 2), so a tiny stored value times a huge
        weight neither overflows nor becomes 0 * inf; ln carries LIBM_RELATIVE_ERROR of its result plus one
        rounding of the sum."""
        side = side or self.side
        values = self.values[part]
        losses = self.losses(part)
        with np.errstate(divide="ignore"):
            logs = np.log(values)
        exponent = logs + self.log_scale - self.tilt * losses + self.scale2 * _LN2
        error = (self._exponent_error(losses, self.tilt, self.log_scale, self.scale2)
                 + np.where(values > 0, (LIBM_RELATIVE_ERROR + 4 * UNIT_ROUNDOFF) * np.abs(logs), 0.0)
                 + 4 * UNIT_ROUNDOFF * np.abs(np.where(values > 0, exponent, 0.0)))
        with np.errstate(over="ignore"):
            bounds = exp_bounds(np.where(values > 0, exponent, -np.inf), error, side)
        return np.where(values > 0, np.minimum(bounds, 1.0), 0.0)  # a true mass is at most 1

    def approximate_log_masses(self) -> np.ndarray:
        """ln of the true masses, in floats (for choosing cuts and tilts: no rounding direction)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(self.values) + self.log_scale - self.tilt * self.losses() + self.scale2 * _LN2

    # -----------------------------------------------------------------------------------------
    # composition
    # -----------------------------------------------------------------------------------------

    def convolve(self, other: LossGrid, truncation: Truncation) -> LossGrid:
        """The distribution of the sum of independent losses, on this side, truncated by ``truncation``."""
        if (self.side, self.step, self.tilt) != (other.side, other.step, other.tilt):
            raise ValueError("only grids of the same side, step and tilt compose")
        a, b = self.values, other.values
        length = a.size + b.size - 1
        size = 1 << max(1, (length - 1).bit_length())
        product = scipy.fft.irfft(scipy.fft.rfft(a, size, workers=-1) * scipy.fft.rfft(b, size, workers=-1), size,
                                 workers=-1)[:length]
        error = fft_error_bound(*_norms_upper(a), *_norms_upper(b), size)
        if self.side == "upper":
            if np.min(product) < -error:
                raise ArithmeticError("an FFT convolution of non-negative arrays fell below its error bound")
            values = array_up(product + error)
            infinity = min(1.0, up(self.infinity + other.infinity))
        else:
            values = np.maximum(array_down(product - error), 0.0)
            infinity = max(0.0, down(self.infinity + down(other.infinity * down(1.0 - self.infinity))))
        log_scale = self.log_scale + other.log_scale
        # the float sum of the two log scales is exact up to one rounding: keep the exact pair by folding the
        # rounding into the values (a factor e^(+-u |sum|), bounded on this side)
        slack = math.exp(UNIT_ROUNDOFF * abs(log_scale) * 1.01) * (1 + 4 * UNIT_ROUNDOFF)
        values = array_up(values * slack) if self.side == "upper" else np.maximum(array_down(values / slack), 0.0)
        composed = LossGrid(self.side, self.step, self.start + other.start, values,
                            self.scale2 + other.scale2, log_scale, self.tilt, infinity)
        return composed._normalised().truncated(truncation)

    def power(self, count: int, truncation: Truncation) -> LossGrid:
        """``count``-fold self-composition: repeated squaring, finished by one FFT raised to the remaining power
        (:meth:`_raised`) as soon as that power's error bound, summed over its window, is negligible."""
        if count < 1:
            raise ValueError("count must be >= 1")
        result: LossGrid | None = None
        base = self
        while True:
            raised = base._raised(count, truncation) if count > 1 else None
            if raised is not None:
                return raised if result is None else result.convolve(raised, truncation)
            if count & 1:
                result = base if result is None else result.convolve(base, truncation)
            count >>= 1
            if not count:
                return result
            base = base.convolve(base, truncation.shared(count))

    def _raised(self, count: int, truncation: Truncation) -> LossGrid | None:
        """The ``count``-fold self-composition by one FFT on a cyclic window, or None when that is not worth it:
        no window within ``max_points`` meets the truncation's tails, or the power's error bound summed over the
        window exceeds four times a guess of what repeated squaring would accumulate (and POWER_PRECISION).

        In the units of the power (the values divided by their sum S), the k-fold sum c' has indices 0 ...
        k (n - 1) and true masses c'_i w_i, w_i = (S 2^scale2 e^log_scale)^k e^(-tilt l_i), decreasing in i; the
        window [first, first + N) holds each index modulo N. Two Chernoff bounds in these units,
        A = e^(-r hi) (sum_j a'_j e^(r j))^k >= the mass at or above hi = first + N (any r > 0) and
        B = e^(r first) (sum_j a'_j e^(-r j))^k >= sum_(i < first) c'_i e^(tilt h (first - i)) (any r >= tilt h),
        make both sides sound:

        - upper: mass from above wraps to lower losses with a larger weight (extra mass: sound), and its true
          mass, at most A w_first, goes to +infinity; mass from below wraps to higher losses with a smaller weight,
          so its true mass, at most B w_first, is added at ``first`` as the truncations do;
        - lower: mass from above or below may land on any entry, so A + B is taken off every entry.
        """
        a = self.values
        scale = float(np.sum(a))
        if scale == 0.0:
            return None
        l1, l2 = (up(norm / scale) for norm in _norms_upper(a))
        pair_size = 1 << max(1, (2 * a.size - 2).bit_length())
        budget = max(POWER_PRECISION, 4.0 * count * 2 * a.size * fft_error_bound(l1, l2, l1, l2, pair_size))
        index = np.arange(a.size, dtype=float)
        mean = float(np.dot(index, a)) / scale
        spread = math.sqrt(max(float(np.dot((index - mean) ** 2, a)) / scale, 0.0) * count)
        least = 1 << max(1, (max(math.ceil(12 * spread), a.size) - 1).bit_length())  # +-6 sd: a window is wider
        if least < count * (a.size - 1) + 1 and power_error_bound(l1, l2, least, count) * least > budget:
            return None
        tilt_step = self.tilt * float(self.step)
        guide = _MomentGuide.of(a / scale, tilt_step)
        span = count * (a.size - 1) + 1
        margin = math.log(truncation.relative / 2)
        # the lowest first with B <= relative / 2, then the lowest hi with A w_first <= tail / 2 and A <= relative / 2
        floors = (margin - count * guide.negative) / guide.negative_rates
        bottom = int(np.argmax(floors))
        if not np.isfinite(floors[bottom]):
            return None
        low = max(0, math.floor(float(floors[bottom])))
        log_weight = (count * (math.log(scale) + self.scale2 * _LN2 + self.log_scale)
                      - tilt_step * (count * self.start + low))
        target = min(math.log(truncation.tail / 2) - log_weight, margin)
        cuts = (count * guide.moments - target) / guide.rates
        top = int(np.argmin(cuts))
        if not math.isfinite(target) or not np.isfinite(cuts[top]):
            return None
        high = min(span, max(low + 1, math.ceil(float(cuts[top]))))
        size = 1 << max(1, (max(high - low, a.size) - 1).bit_length())
        error = power_error_bound(l1, l2, size, count)
        if size > truncation.max_points or error * size > budget:
            return None
        first = 0 if size >= span else min(low, span - size)
        above, weight = 0.0, 0.0
        if first + size < span:
            above = self._power_tail(count, first + size, scale, float(guide.rates[top]))
            weight = self._unit_weight(count, first, scale)
        below = 0.0 if first == 0 else self._power_tail(count, first, scale, -float(guide.negative_rates[bottom]))
        if above > truncation.relative or up(above * weight) > truncation.tail or below > truncation.relative:
            return None
        raw = np.roll(cyclic_power(a, count, size, scale), -(first % size))
        ln_scale = math.log(scale)
        log_scale = count * (self.log_scale + ln_scale)
        # the exact log scale is count (log_scale + ln scale): ln carries LIBM_RELATIVE_ERROR, the sum and the
        # product one rounding each; the difference is folded into the values (a factor e^(+-slack))
        slack = (count * (LIBM_RELATIVE_ERROR * abs(ln_scale) + UNIT_ROUNDOFF * abs(self.log_scale + ln_scale))
                 + UNIT_ROUNDOFF * abs(log_scale)) * 1.01 + 1e-300
        factor = exp_enclosure(slack, slack)[1] * (1 + 4 * UNIT_ROUNDOFF)
        if self.side == "upper":
            if np.min(raw) < -error:
                raise ArithmeticError("an FFT power of a non-negative array fell below its error bound")
            values = array_up(raw + error)
            values[0] = up(values[0] + below)
            values = array_up(values * factor)
            infinity = min(1.0, up(up(count * self.infinity) + up(above * weight)))
        else:
            values = np.maximum(array_down(array_down(raw - up(up(error + above) + below)) / factor), 0.0)
            with np.errstate(divide="ignore"):
                kept = -math.expm1(count * math.log1p(-self.infinity)) if self.infinity < 1.0 else 1.0
            infinity = max(0.0, down(kept * (1 - 1e-12)))
        raised = LossGrid(self.side, self.step, count * self.start + first, values, count * self.scale2, log_scale,
                          self.tilt, infinity)
        return raised._normalised().truncated(truncation)

    def _power_tail(self, count: int, cut: int, scale: float, rate: float) -> float:
        """e^(-rate cut) (sum_j values_j e^(rate j) / scale)^count from above: Chernoff's bound in the power's units
        on its mass at indices >= cut for rate > 0 (A of :meth:`_raised`), and for rate <= -tilt h on
        sum_(i < cut) c'_i e^(tilt h (cut - i)) (B)."""
        ctx = interval_context(113)
        moment = ctx.mpf(_log_moment_upper(self.values, rate)) - ctx.log(ctx.mpf(scale))
        return up(float(ctx.exp(-ctx.mpf(rate) * cut + count * moment).b))

    def _unit_weight(self, count: int, index: int, scale: float) -> float:
        """w_index of :meth:`_raised` from above: the true mass of one unit of the power at ``index``."""
        ctx = interval_context(113)
        loss = ctx.mpf(count * self.start + index) * ctx.mpf(self.step.numerator) / self.step.denominator
        weight = ctx.exp(count * (self.scale2 * ctx.log(2) + ctx.mpf(self.log_scale) + ctx.log(ctx.mpf(scale)))
                         - ctx.mpf(self.tilt) * loss)
        return up(float(weight.b))

    # -----------------------------------------------------------------------------------------
    # truncation
    # -----------------------------------------------------------------------------------------

    def _upper_cut(self, sums: _RunningSums, tail: float, keep_above: int) -> int:
        """The first index of the upper tail to fold away: its approximate true mass is <= ``tail``."""
        allowed = np.nonzero(sums.suffix <= sums.scaled(tail))[0]
        cut = int(allowed[0]) if allowed.size else self.values.size
        return max(cut, keep_above)

    def _lower_cut(self, sums: _RunningSums, relative: float, keep_below: int) -> int:
        """The first index kept: the lower tail's weight folded to the cut is <= ``relative`` of the total.

        On the upper side the lower tail moves up to the cut, where its true mass (at most 1) takes the cut's
        tilted weight; that weight, in stored units, is what is compared with the array's total."""
        with np.errstate(divide="ignore"):
            prefix = np.minimum(np.log(sums.prefix[:-1]) + sums.top, 0.0)  # ln of the true mass at and below j
        folded = prefix + self.tilt * self.losses(slice(1, None)) - self.log_scale - self.scale2 * _LN2
        total = math.log(float(np.sum(self.values)))
        allowed = np.nonzero(folded <= total + math.log(relative))[0]  # stored units at j+1
        cut = int(allowed[-1]) + 1 if allowed.size else 0
        return min(cut, keep_below)

    @staticmethod
    def _dropped_cut(sums: _RunningSums, tail: float, keep_below: int) -> int:
        """The first index kept on the lower side: the true mass dropped below it is <= ``tail`` (the bulk of
        the untilted distribution must stay, whatever its tilted weight: later sums move it up)."""
        allowed = np.nonzero(sums.prefix <= sums.scaled(tail))[0]
        cut = int(allowed[-1]) + 1 if allowed.size else 0
        return min(cut, keep_below)

    def truncated(self, truncation: Truncation) -> LossGrid:
        """This distribution with its negligible tails folded away (soundly on its side; see the module)."""
        size = self.values.size
        if size <= 2:
            return self
        sums = _RunningSums.of(self.approximate_log_masses())
        low = (self._lower_cut(sums, truncation.relative, size - 1) if self.side == "upper"
               else self._dropped_cut(sums, truncation.tail, size - 1))
        high = self._upper_cut(sums, truncation.tail, low + 1)
        if high - low > truncation.max_points:  # too long whatever the tails' mass: cut around the peak
            peak = int(np.argmax(self.values))
            low = max(low, min(peak - truncation.max_points // 2, high - truncation.max_points))
            high = low + truncation.max_points
        if low == 0 and high == size:
            return self
        values = self.values[low:high].copy()
        infinity = self.infinity
        if self.side == "upper":
            if high < size:  # upper tail to +infinity
                infinity = min(1.0, up(infinity + sum_upper(self.masses(slice(high, None)))))
            if low > 0:  # lower tail up to the cut: true mass kept, restated in the cut's tilted units
                moved = min(1.0, sum_upper(self.masses(slice(None, low))))  # the true tail mass is <= 1
                unit = self.weight(low, "lower")
                if unit == 0.0 or not math.isfinite(unit):  # the weight is beyond the float range: keep the tail
                    return dataclasses.replace(self, values=self.values[:high].copy(), infinity=infinity)._normalised()
                values[0] = up(values[0] + up(moved / unit))
        else:
            if high < size:  # upper tail down to the last kept point
                moved = sum_lower(self.masses(slice(high, None)))
                values[-1] = down(values[-1] + down(moved / self.weight(high - 1, "upper")))
        return dataclasses.replace(self, start=self.start + low, values=values, infinity=infinity)._normalised()

    # -----------------------------------------------------------------------------------------
    # queries
    # -----------------------------------------------------------------------------------------

    def delta(self, eps: float) -> float:
        """A bound on this side on delta(eps) = sum_j m_j (1 - e^(eps - l_j))_+ + the mass at +infinity."""
        return self.delta_function()(eps)

    def delta_function(self) -> DeltaCurve:
        """eps -> :meth:`delta`, with the true masses' bounds computed once (for searches over eps)."""
        losses = self.losses()
        reach = 2 * UNIT_ROUNDOFF * np.abs(losses)
        upper = self.side == "upper"
        return DeltaCurve(upper, losses, self.masses(), losses + reach if upper else losses - reach, self.infinity)

    @property
    def top_loss(self) -> float:
        """The largest finite loss on the grid (a float)."""
        return float((self.start + self.values.size - 1) * self.step)

