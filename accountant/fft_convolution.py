"""Convolutions of non-negative arrays by FFT, pairwise and k-fold, with every entry's error bounded from above.

**The assumption.** Higham, "Accuracy and Stability of Numerical Algorithms" (2nd ed., Theorem 24.2 and its
corollaries): a radix-2 FFT of length N = 2^t computed in floating point satisfies
||fl(F x) - F x||_2 <= rho ||F x||_2 with rho = t eta / (1 - t eta), eta = mu + gamma_4 (sqrt 2 + mu), where mu
bounds the error of the computed twiddle factors. Assumed: scipy's FFT (pocketfft, real transforms of
power-of-two length) satisfies this bound with two extra stages for the real-to-complex packing
(t = log2 N + 2) and twiddle factors accurate to mu = 2^-50 (pocketfft computes them from exactly reduced
angles). ``tests/accountant/test_fft_convolution.py`` checks both bounds below against exact rational
convolutions, including arrays spanning 300 orders of magnitude.

**Pairwise** (:func:`fft_error_bound`): every entry of the computed cyclic convolution c~ = IFFT(FFT a . FFT b)
is within E = (1+rho)[rho (|a|_2 |b|_1 + |a|_1 |b|_2) + rho^2 |a|_2 |b|_2] + (rho (1 + rho) + (1+rho)^3 sqrt2
gamma_2 + 2u) |a|_2 (|b|_1 + rho sqrt(N) |b|_2) of the exact one.

**k-fold** (:func:`cyclic_power`, :func:`power_error_bound`): c~ = IFFT((FFT(a) / S)^k) for a positive float S
(about the sum of a) is the k-fold cyclic self-convolution of a' = a / S (entry j holds the mass of every index
congruent to j modulo N), one forward and one inverse transform instead of the 2 log2 k convolutions of
repeated squaring. Every entry's error is at most

    E_k = (D + rho (sqrt(N) |a'|_2 G + D)) / sqrt(N),   D = eta (sqrt(N) |a'|_2 G + k G e1) + k G e1,

with e1 = sqrt(N) |a'|_2 (rho + u (1 + rho)) the 2-norm error of the computed spectrum divided by S (Parseval:
|F a'|_2 = sqrt(N) |a'|_2; the division rounds each component once), R = |a'|_1 + e1 a bound on every spectral
value's modulus, exact or computed, G = e^((k - 1)(R - 1)_+) >= R^(k-1) (so |x^k - y^k| <= k G |x - y|), and
eta = e^(2 k sqrt(2) gamma_2) - 1 the relative error of binary powering (at most k complex products' roundings,
each within sqrt(2) gamma_2: Higham, Lemma 3.5; a power that underflows adds a subnormal spacing per product).
The last step is Higham's bound for the inverse and |IFFT x|_inf <= |x|_2 / sqrt(N). E_k grows like
k rho |a'|_2, which is why :meth:`~dpcert.accountant.loss_grid.LossGrid.power` squares a narrow base before
raising it.

Every bound is evaluated in floats and then enlarged by 1 % and one float, which covers the rounding of its own
few operations many times over.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.fft

from dpcert.accountant.shuffle_intervals import UNIT_ROUNDOFF, down, exp_enclosure, gamma, up

__all__ = ["TWIDDLE_ERROR", "cyclic_power", "fft_error_bound", "higham_rho", "power_error_bound"]

TWIDDLE_ERROR = 2.0 ** -50
"""Assumed bound mu on the error of the FFT's computed twiddle factors (Higham, Theorem 24.2)."""

_SUBNORMAL = 2.0 ** -1072
"""A bound on a complex product's absolute error where its result underflows (both components' spacing)."""


def higham_rho(size: int) -> float:
    """rho of Higham's Theorem 24.2 for a power-of-two FFT of ``size`` points (plus two packing stages)."""
    stages = max(1, size.bit_length() - 1) + 2
    gamma4 = 4 * UNIT_ROUNDOFF / (1 - 4 * UNIT_ROUNDOFF)
    eta = TWIDDLE_ERROR + gamma4 * (math.sqrt(2.0) + TWIDDLE_ERROR)
    return up(stages * eta / (1 - stages * eta))


def fft_error_bound(a_l1: float, a_l2: float, b_l1: float, b_l2: float, size: int) -> float:
    """A bound on every entry's error of the cyclic convolution of a and b computed by FFT of ``size`` points.

    ``a_l1 >= |a|_1``, ``a_l2 >= |a|_2`` and the same for b (upper bounds of the norms); the formula is in the
    module docstring.
    """
    rho = higham_rho(size)
    g2 = 2 * UNIT_ROUNDOFF / (1 - 2 * UNIT_ROUNDOFF)
    spread = b_l1 + rho * math.sqrt(size) * b_l2
    bound = ((1 + rho) * (rho * (a_l2 * b_l1 + a_l1 * b_l2) + rho * rho * a_l2 * b_l2)
             + (rho * (1 + rho) + (1 + rho) ** 3 * math.sqrt(2.0) * g2 + 2 * UNIT_ROUNDOFF) * a_l2 * spread)
    return up(bound * 1.01)


def power_error_bound(l1: float, l2: float, size: int, count: int) -> float:
    """A bound on every entry's error of :func:`cyclic_power` (the module docstring's E_k) for an array
    a' = a / S with |a'|_1 <= ``l1`` and |a'|_2 <= ``l2``, ``size`` points and the power ``count``; inf when
    the growth factor G leaves the floats."""
    rho = higham_rho(size)
    u = UNIT_ROUNDOFF
    root_up, root_down = up(math.sqrt(size)), down(math.sqrt(size))
    e1 = up(root_up * l2 * (rho + u * (1 + rho)))
    reach = up(l1 + e1)
    exponent = up((count - 1) * max(reach - 1.0, 0.0))
    if exponent > 700.0:
        return math.inf
    growth = exp_enclosure(exponent, exponent)[1]
    eta = exp_enclosure(up(2 * count * math.sqrt(2.0) * gamma(2)), up(2 * count * math.sqrt(2.0) * gamma(2)))[1] - 1.0
    spread = up(count * growth * e1)
    exact_norm = up(root_up * l2 * growth)
    underflow = up(root_up * 2 * count * _SUBNORMAL * growth * max(reach, 1.0))
    spectral = eta * (exact_norm + spread) + spread + underflow
    return up((spectral + rho * (exact_norm + spectral)) / root_down * 1.01)


def cyclic_power(values: np.ndarray, count: int, size: int, scale: float) -> np.ndarray:
    """IFFT((FFT(values) / scale)^count) on ``size`` points (a power of two, at least values.size), in floats."""
    spectrum = scipy.fft.rfft(values, size, workers=-1) / scale
    result = None
    while True:
        if count & 1:
            result = spectrum if result is None else result * spectrum
        count >>= 1
        if not count:
            return scipy.fft.irfft(result, size, workers=-1)
        spectrum = spectrum * spectrum
