"""FFT convolutions against exact arithmetic: the pairwise and k-fold error bounds of
dpcert.accountant.fft_convolution against exact rational (big-integer) convolutions, and LossGrid.power's one-FFT
powers, whose cyclic window folds tails, against the exact delta(eps) of the k-fold sum (50-digit mpmath on exact
rational masses)."""

from __future__ import annotations

import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.fft
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dpcert.accountant import loss_grid
from dpcert.accountant.fft_convolution import cyclic_power, fft_error_bound, power_error_bound
from dpcert.accountant.loss_grid import LossGrid, Truncation


def _exact_convolution(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _exact_power(a: list[Fraction], count: int) -> list[Fraction]:
    result, base = [Fraction(1)], a
    while True:
        if count & 1:
            result = _exact_convolution(result, base)
        count >>= 1
        if not count:
            return result
        base = _exact_convolution(base, base)


def _spanning(rng: np.random.Generator, size: int, decades: int) -> np.ndarray:
    """Random non-negative floats spanning ``decades`` orders of magnitude, one of them 1."""
    values = rng.random(size) * 10.0 ** rng.integers(-decades, 0, size)
    values[rng.integers(size)] = 1.0
    return values


def test_fft_error_bound_holds_against_exact_convolution():
    """Arrays spanning 300 orders of magnitude, convolved by scipy's FFT and exactly (rationals)."""
    rng = np.random.default_rng(7)
    for size in (8, 64, 512):
        a, b = _spanning(rng, size, 300), _spanning(rng, size, 300)
        n = 2 * size - 1
        length = 1 << (n - 1).bit_length()
        computed = scipy.fft.irfft(scipy.fft.rfft(a, length) * scipy.fft.rfft(b, length), length)[:n]
        exact = _exact_convolution([Fraction(x) for x in a], [Fraction(y) for y in b])
        bound = fft_error_bound(float(np.sum(a)) * 1.01, float(np.sqrt(np.sum(a * a))) * 1.01,
                                float(np.sum(b)) * 1.01, float(np.sqrt(np.sum(b * b))) * 1.01, length)
        worst = max(abs(Fraction(c) - e) for c, e in zip(computed, exact))
        assert worst <= Fraction(bound)


@pytest.mark.parametrize(("size", "count", "points", "decades"), [
    (8, 2, 16, 300), (8, 20, 256, 30), (16, 7, 128, 300), (32, 6, 64, 12), (5, 100, 512, 3), (64, 3, 256, 300),
])
def test_power_error_bound_holds_against_exact_cyclic_power(size, count, points, decades):
    """cyclic_power against the exact k-fold convolution folded modulo the transform's length (the window wraps
    in the cases with fewer points than k (n - 1) + 1), every entry within power_error_bound."""
    rng = np.random.default_rng(size * 1000 + count)
    a = _spanning(rng, size, decades)
    scale = float(np.sum(a))
    computed = cyclic_power(a, count, points, scale)
    exact = [Fraction(0)] * points
    for i, mass in enumerate(_exact_power([Fraction(x) / Fraction(scale) for x in a], count)):
        exact[i % points] += mass
    l1 = float(np.sum(a)) / scale * (1 + 1e-12)
    l2 = float(np.sqrt(np.sum(a * a))) / scale * (1 + 1e-12)
    bound = Fraction(power_error_bound(l1, l2, points, count))
    worst = max(abs(Fraction(c) - e) for c, e in zip(computed, exact))
    assert worst <= bound
    assert bound < Fraction(1, 10 ** 9)  # and the bound says something


_DIRECT_TOLERANCE = 1e-8
"""Relative error allowed to the reference k-fold sums: a direct (not FFT) convolution of non-negative floats has
every entry within gamma_n of the exact one (sums of non-negative products), and binary powering compounds at most
2 k such factors: about 2 k n u < 1e-9 for the sizes below."""


def _direct_power(masses: np.ndarray, count: int) -> np.ndarray:
    result, base = np.ones(1), masses
    while True:
        if count & 1:
            result = np.convolve(result, base)
        count >>= 1
        if not count:
            return result
        base = np.convolve(base, base)


def _reference_delta(summed: np.ndarray, first: int, step: Fraction, eps: float) -> tuple[float, float]:
    """delta(eps) = sum_i m_i (1 - e^(eps - l_i))_+ of a sum's masses ``summed`` (l_i = (first + i) step, from
    :func:`_direct_power`) at 50 digits, widened by the convolution's relative tolerance."""
    with mpmath.workdps(50):
        total = mpmath.mpf(0)
        for i in np.nonzero(summed)[0]:
            loss = mpmath.mpf(int(first + i) * step.numerator) / step.denominator
            if loss > eps:
                total += mpmath.mpf(float(summed[i])) * (1 - mpmath.exp(eps - loss))
        return float(total * (1 - _DIRECT_TOLERANCE)), float(total * (1 + _DIRECT_TOLERANCE))


def _masses(shape: str, size: int) -> np.ndarray:
    """A bell (a discretised normal, like a Gaussian mechanism's loss) or a skewed distribution (its bulk at the
    bottom, like a subsampled mechanism's), as floats summing to about 1."""
    if shape == "bell":
        index = np.arange(size)
        weights = np.exp(-0.5 * ((index - size / 3) / (size / 8)) ** 2)
    else:
        weights = np.random.default_rng(1).integers(1, 2 ** 20, size).astype(float)
        weights[0] *= 4096
    return weights / np.sum(weights)


@pytest.mark.parametrize(("shape", "size", "tilt", "count"), [
    ("bell", 64, 0.0, 64), ("bell", 64, 3.0, 64), ("bell", 200, 0.0, 64), ("skewed", 200, 6.0, 100),
])
def test_one_fft_power_encloses_the_exact_k_fold_delta(shape, size, tilt, count):
    """LossGrid._raised on tilted grids whose window wraps (fewer points than the k (n - 1) + 1 indices of the
    sum): the upper side's delta(eps) is >= the reference k-fold delta, the lower side's <= it, at eps across the
    distribution; untilted, within a millionth of it up to three standard deviations above the mean, and tilted,
    within a thousandth where the tilt aims (Chernoff's order for eps = mean + tilt variance, at most six standard
    deviations, if inside the window): elsewhere the tails folded for the tilt, or the float error bound, may
    dominate."""
    masses = _masses(shape, size)
    step, start = Fraction(1, 16), -3
    raised = {}
    for side in ("upper", "lower"):
        grid = LossGrid.from_masses(side, step, start, masses, 0.0, tilt=tilt)
        raised[side] = grid._raised(count, Truncation(1e-45 if tilt else 1e-20))  # below the delta aimed at
        assert raised[side] is not None
        assert raised[side].values.size < count * (size - 1) + 1  # the window folded something
    summed = _direct_power(masses, count)
    losses = (count * start + np.arange(summed.size)) * float(step)
    mean = float(np.dot(losses, summed))
    spread = float(np.sqrt(np.dot((losses - mean) ** 2, summed)))
    aimed = ([min(mean + tilt * spread ** 2, mean + 6 * spread)] if tilt
             else list(mean + spread * np.array([0.0, 1.0, 3.0])))
    aimed = [eps for eps in aimed if eps > max(grid.losses()[0] for grid in raised.values())]  # inside the window
    for eps in list(mean + spread * np.array([0.0, 1.0, 3.0, 6.0])) + aimed:
        low, high = _reference_delta(summed, count * start, step, eps)
        assert raised["lower"].delta(eps) <= high and low <= raised["upper"].delta(eps)
        if eps in aimed:
            tolerance = 1e-3 if tilt else 1e-6
            assert raised["upper"].delta(eps) <= high * (1 + tolerance)
            assert raised["lower"].delta(eps) >= low * (1 - tolerance)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(size=st.integers(16, 96), centre=st.floats(0.2, 0.8), width=st.floats(1 / 16, 1 / 4),
       tilt=st.one_of(st.just(0.0), st.floats(0.0, 4.0)), count=st.integers(8, 96),
       side=st.sampled_from(["upper", "lower"]))
def test_random_one_fft_powers_bound_the_direct_k_fold_delta(size, centre, width, tilt, count, side):
    """Fuzz: random bells, tilts and counts whose window wraps; each side's delta(eps) stays on its side of the
    direct-convolution reference at eps from the mean to three standard deviations above it."""
    index = np.arange(size)
    masses = np.exp(-0.5 * ((index - centre * size) / (width * size)) ** 2)
    masses /= np.sum(masses)
    step, start = Fraction(1, 16), -3
    raised = LossGrid.from_masses(side, step, start, masses, 0.0, tilt=tilt)._raised(count, Truncation(1e-20))
    assume(raised is not None and raised.values.size < count * (size - 1) + 1)
    summed = _direct_power(masses, count)
    losses = (count * start + np.arange(summed.size)) * float(step)
    mean = float(np.dot(losses, summed))
    spread = float(np.sqrt(np.dot((losses - mean) ** 2, summed)))
    for eps in mean + spread * np.array([0.0, 1.0, 3.0]):
        low, high = _reference_delta(summed, count * start, step, eps)
        assert (raised.delta(eps) >= low) if side == "upper" else (raised.delta(eps) <= high)


def test_power_ignoring_the_folded_tails_is_caught(monkeypatch):
    """Power check: with the Chernoff bounds on the wrapped tails replaced by 0, the lower side's delta exceeds
    the reference on a tilted grid (the mass wrapped down from the top gains the bottom's larger weight)."""
    monkeypatch.setattr(loss_grid.LossGrid, "_power_tail", lambda self, *args: 0.0)
    masses = _masses("bell", 64)
    step, start, count = Fraction(1, 16), -3, 64
    grid = LossGrid.from_masses("lower", step, start, masses, 0.0, tilt=0.5)
    raised = grid._raised(count, Truncation(1e-2, relative=1e-2))
    assert raised is not None
    summed = _direct_power(masses, count)
    assert any(raised.delta(eps) > _reference_delta(summed, count * start, step, eps)[1]
               for eps in raised.losses()[::5])


def test_a_lower_mass_rounded_below_zero_is_taken_as_zero_without_a_warning():
    """A lower bound on a mass can round to -1e-323 (found by `dpcert compose 'gaussian:sigma=?*10'
    'gaussian:sigma=1,q=0.01*1000' --delta 1e-6 --target-eps 2`, which printed numpy's "invalid value in log"); 0 is
    a lower bound too, and the grid is the one of the masses with it replaced by 0."""
    masses = np.array([0.25, -1e-323, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grid = LossGrid.from_masses("lower", Fraction(1, 4), -1, masses, 0.0, tilt=0.5)
    clean = LossGrid.from_masses("lower", Fraction(1, 4), -1, np.array([0.25, 0.0, 0.5]), 0.0, tilt=0.5)
    assert np.array_equal(grid.values, clean.values) and (grid.start, grid.scale2, grid.log_scale) == (
        clean.start, clean.scale2, clean.log_scale)


@pytest.mark.parametrize("rate", [-900.0, -8.78, 0.0, 1e-9, 3.5])
def test_log_moment_upper_bounds_the_50_digit_value(rate):
    """ln sum_j v_j e^(r j) from above, with zero entries before the first mass (whose e^(r j) overflows for
    r < 0: the command-line fuzz found the 0 * inf) and masses near the float floor; tight unless a term falls
    below 10^-300, where exp_bounds raises it to 10^-300."""
    values = np.array([0.0, 0.0, 3.4e-302, 0.0, 0.5, 2.7e-304, 0.25])
    bound = loss_grid._log_moment_upper(values, rate)
    with mpmath.workdps(50):
        exact = mpmath.log(mpmath.fsum(mpmath.mpf(float(v)) * mpmath.exp(mpmath.mpf(rate) * j)
                                       for j, v in enumerate(values) if v > 0))
        assert exact <= bound
        assert rate < -100 or bound <= exact + 1e-9 * max(1, abs(exact))
