"""Rigorous floating-point enclosures used by the shuffle accountant.

Every number here is an *enclosure* ``[lo, hi]`` of an exact real. The argument is the IEEE 754
guarantee that +, -, *, / (and the correctly rounded int/int division of Python) return the float
nearest to the exact result: the exact result lies within half a unit in the last place of the
returned float, so stepping one float outward with ``math.nextafter`` (or ``numpy.nextafter``) gives a
bound on the correct side. This is interval arithmetic with round-to-nearest plus one outward step, and
it needs nothing from the platform's libm: transcendental functions (exp, log, log-gamma) are evaluated
with mpmath's interval type :mod:`mpmath.iv`, and exact parameters are enclosed with
:func:`proofs.rounding.float_lower` / :func:`proofs.rounding.float_upper`, which decide the rounding
direction exactly.

Sums of many non-negative floats (numpy's ``sum`` and ``convolve``, whose order of addition is not
specified) are bounded with Higham's gamma_m = m u / (1 - m u) (u = 2^-53, "Accuracy and Stability of
Numerical Algorithms", 2nd ed., Lemma 3.1 and eq. (4.4)): whatever the order, the computed sum of m
non-negative terms is within a factor (1 +- gamma_(m-1)) of the exact sum. Values below
:data:`TINY` are treated as possible underflow: their lower bound is 0 and their upper bound is
raised to ``TINY``, which is valid because every array bounded this way is unimodal (see the callers).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import sympy
from mpmath import iv

from proofs.rounding import float_lower, float_upper

__all__ = [
    "UNIT_ROUNDOFF",
    "TINY",
    "up",
    "down",
    "enclose",
    "gamma",
    "iv_precision",
    "iv_from_floats",
    "iv_to_floats",
    "exp_enclosure",
    "log_enclosure",
    "sum_lower",
    "sum_upper",
    "array_up",
    "array_down",
]

UNIT_ROUNDOFF = 2.0 ** -53
"""u: the relative error of one correctly rounded float64 operation (normal range)."""

TINY = 1e-280
"""Below this magnitude a computed float may have lost its relative accuracy through underflow."""

_IV_PREC = 113


@contextmanager
def iv_precision(bits: int = _IV_PREC) -> Iterator[None]:
    """Run mpmath interval arithmetic at ``bits`` of working precision, then restore the previous one."""
    saved = iv.prec
    iv.prec = bits
    try:
        yield
    finally:
        iv.prec = saved


def up(x: float) -> float:
    """The next float above ``x``: an upper bound for a result rounded to nearest."""
    return math.nextafter(x, math.inf)


def down(x: float) -> float:
    """The next float below ``x``: a lower bound for a result rounded to nearest."""
    return math.nextafter(x, -math.inf)


def array_up(x: np.ndarray) -> np.ndarray:
    """Elementwise :func:`up`."""
    return np.nextafter(x, np.inf)


def array_down(x: np.ndarray) -> np.ndarray:
    """Elementwise :func:`down`."""
    return np.nextafter(x, -np.inf)


def enclose(value: object) -> tuple[float, float]:
    """Floats ``(lo, hi)`` with lo <= value <= hi for an exact real (sympy number, int, Fraction)."""
    value = sympy.sympify(value)
    return float_lower(value), float_upper(value)


def gamma(m: int) -> float:
    """An upper bound on Higham's gamma_m = m u / (1 - m u), as a float (valid for m u < 1/2)."""
    if m * UNIT_ROUNDOFF >= 0.5:
        raise ValueError("too many terms for the floating-point error bound")
    # 2 m u >= m u / (1 - m u) when m u <= 1/2; the product 2 m u is exact (a power of two times m)
    return float(2 * m) * UNIT_ROUNDOFF


def iv_from_floats(lo: float, hi: float):
    """The mpmath interval [lo, hi] (floats are exact binary numbers, so this is exact)."""
    return iv.mpf([lo, hi])


def iv_to_floats(x) -> tuple[float, float]:
    """Floats enclosing an mpmath interval."""
    return down(float(x.a)), up(float(x.b))


def exp_enclosure(lo: float, hi: float) -> tuple[float, float]:
    """Floats enclosing exp([lo, hi])."""
    with iv_precision():
        return iv_to_floats(iv.exp(iv_from_floats(lo, hi)))


def log_enclosure(lo: float, hi: float) -> tuple[float, float]:
    """Floats enclosing log([lo, hi]) for 0 < lo <= hi."""
    with iv_precision():
        return iv_to_floats(iv.log(iv_from_floats(lo, hi)))


def sum_upper(values: np.ndarray) -> float:
    """An upper bound on the exact sum of the non-negative floats ``values`` (any summation order)."""
    m = int(values.size)
    if m == 0:
        return 0.0
    total = float(np.sum(values))  # additions of non-negative floats: relative error <= gamma_(m-1)
    return up(total * (1.0 + gamma(m)))


def sum_lower(values: np.ndarray) -> float:
    """A lower bound on the exact sum of the non-negative floats ``values`` (any summation order)."""
    m = int(values.size)
    if m == 0:
        return 0.0
    total = float(np.sum(values))
    return max(0.0, down(total * (1.0 - gamma(m))))
