"""The dominating pairs of the numerical accountant's mechanisms (formulas in :mod:`dpcert.accountant.loss_pairs`).

Each constructor takes exact parameters (already validated by :mod:`dpcert.accountant.pld_spec`) and returns
the :class:`~dpcert.accountant.loss_pairs.LossPair` (P, Q) whose loss distribution is composed. Atom
masses are exact closed forms enclosed by mpmath interval arithmetic (128 bits) and rounded outward to
floats; the continuous segments' masses come from scipy's ndtr and numpy's exp with the error bounds of
:data:`~dpcert.accountant.loss_pairs.CDF_RELATIVE_ERROR`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy
from scipy.special import ndtr, ndtri

from dpcert.accountant.loss_pairs import CDF_RELATIVE_ERROR, Atom, LossPair, MonotoneSegment
from dpcert.accountant.shuffle_intervals import UNIT_ROUNDOFF, array_down, array_up, iv_evaluate
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = [
    "atoms_pair",
    "dp_pair",
    "discrete_gaussian_pair",
    "discrete_laplace_pair",
    "finite_pair",
    "gaussian_pair",
    "laplace_pair",
    "randomized_response_pair",
]

_R = CDF_RELATIVE_ERROR


def _enclose(expr: sympy.Expr) -> tuple[float, float]:
    """Floats enclosing an exact closed form (interval arithmetic, then outward rounding)."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return float_lower(expr), float_upper(expr)
    low, high = iv_evaluate(expr)
    return float_lower(low), float_upper(high)


def _loss(p: sympy.Expr, q: sympy.Expr) -> Fraction | tuple[float, float] | float:
    """ln(p / q) exactly when rational, else a float enclosure; +infinity when q = 0."""
    if q == 0:
        return math.inf
    loss = sympy.expand_log(sympy.log(sympy.cancel(sympy.sympify(p) / q)), force=True)
    if loss.is_Rational:
        return Fraction(int(loss.p), int(loss.q))
    return _enclose(loss)


def _atom(p: sympy.Expr, q: sympy.Expr) -> Atom:
    return Atom(_loss(p, q), _enclose(p), _enclose(q))


def atoms_pair(pairs: Sequence[tuple[sympy.Expr, sympy.Expr]], label: str) -> LossPair:
    """A finite pair from its outputs' exact (P, Q) probabilities; outputs P cannot produce are kept for
    their Q-mass (it matters once the pair is subsampled), as atoms at loss -infinity."""
    atoms = []
    for p, q in pairs:
        p, q = sympy.sympify(p), sympy.sympify(q)
        if p == 0 and q == 0:
            continue
        if p == 0:
            atoms.append(Atom((-math.inf, -math.inf), (0.0, 0.0), _enclose(q)))
        else:
            atoms.append(_atom(p, q))
    return LossPair(tuple(atoms), None, label)


def finite_pair(rows: Sequence[Sequence[sympy.Expr]], first: int, second: int, label: str) -> LossPair:
    """Inputs ``first`` (P) and ``second`` (Q) of a finite mechanism given by its exact channel rows."""
    return atoms_pair(list(zip(rows[first], rows[second])), label)


def randomized_response_pair(eps: sympy.Expr, *, k: int = 2) -> LossPair:
    """k-ary randomized response (k = 2: binary): P(x) = e^eps / (e^eps + k - 1), others 1 / (e^eps + k - 1)."""
    E = sympy.exp(eps)
    total = E + k - 1
    pairs = [(E / total, 1 / total), (1 / total, E / total)] + [(1 / total, 1 / total)] * (k > 2)
    pair = atoms_pair(pairs, f"randomized response k = {k}, eps = {eps}")
    if k > 2:  # the k - 2 outputs of loss 0 as one atom of k - 2 times the mass
        same = _enclose((k - 2) / total)
        pair = LossPair(pair.atoms[:2] + (Atom(Fraction(0), same, same),), None, pair.label)
    return pair


def dp_pair(eps: sympy.Expr, delta: sympy.Expr) -> LossPair:
    """The pair that dominates every (eps, delta)-DP mechanism (Kairouz, Oh, Viswanath 2015; Murtagh and
    Vadhan 2016): P = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0), Q the mirror image."""
    E = sympy.exp(eps)
    rest = 1 - delta
    return atoms_pair([(delta, 0), (rest * E / (1 + E), rest / (1 + E)), (rest / (1 + E), rest * E / (1 + E)),
                       (0, delta)], f"({eps}, {delta})-DP")


def discrete_laplace_pair(b: sympy.Expr, sensitivity: int) -> LossPair:
    """Discrete Laplace, P(k) proportional to e^(-|k|/b) on the integers, centred at 0 (P) and Delta (Q).

    Losses: Delta/b for k <= 0 (P-mass 1/(1+e^(-1/b))), -Delta/b for k >= Delta, (Delta - 2k)/b between."""
    r = sympy.exp(-1 / b)
    c = (1 - r) / (1 + r)
    pairs = [(1 / (1 + r), r ** sensitivity / (1 + r)), (r ** sensitivity / (1 + r), 1 / (1 + r))]
    pairs += [(c * r ** k, c * r ** (sensitivity - k)) for k in range(1, sensitivity)]
    return atoms_pair(pairs, f"discrete Laplace b = {b}, sensitivity {sensitivity}")


def discrete_gaussian_pair(sigma: sympy.Expr, sensitivity: int, tail: float) -> LossPair:
    """Discrete Gaussian N_Z(Delta, sigma^2) (P) vs N_Z(0, sigma^2) (Q) (Canonne, Kamath, Steinke 2020).

    Loss (2 k Delta - Delta^2) / (2 sigma^2) at output k, exact when sigma^2 is rational. The outputs
    within 40 sigma of both centres are atoms; beyond, the P-mass (at most 2 e^(-800) / (1 - e^(-40/sigma)),
    below 10^-340) sits in an atom at +infinity on the upper side (a bound with no loss information)."""
    s2 = sympy.sympify(sigma) ** 2
    s = float(sympy.sympify(sigma))
    reach = int(math.ceil(40 * s)) + 1
    ks = np.arange(-reach, sensitivity + reach + 1)
    # normaliser Z = sum_k e^(-k^2 / (2 sigma^2)): the float sum over |k| <= reach + Delta within its error
    with np.errstate(under="ignore"):
        terms = np.exp(-(ks.astype(float) ** 2) / (2 * s * s))
        p_terms = np.exp(-((ks - sensitivity).astype(float) ** 2) / (2 * s * s))
    slack = 1e-12
    z_lo = float(np.sum(terms)) * (1 - slack)
    z_hi = float(np.sum(terms)) * (1 + slack) + 2 * math.exp(-(reach ** 2) / (2 * s * s)) / -math.expm1(-reach / (s * s)) + 1e-300
    atoms = []
    for k, p, q in zip(ks.tolist(), p_terms.tolist(), terms.tolist()):
        if p == 0.0 and q == 0.0:
            continue
        loss = sympy.Rational(2 * k * sensitivity - sensitivity ** 2) / (2 * s2)
        exact = Fraction(int(loss.p), int(loss.q)) if loss.is_Rational else _enclose(loss)
        atoms.append(Atom(exact, (max(0.0, p * (1 - slack) / z_hi), p * (1 + slack) / z_lo),
                          (max(0.0, q * (1 - slack) / z_hi), q * (1 + slack) / z_lo)))
    atoms.append(Atom(math.inf, (0.0, max(tail, 1e-300)), (0.0, 0.0)))
    return LossPair(tuple(atoms), None, f"discrete Gaussian sigma = {sigma}, sensitivity {sensitivity}")


# ---------------------------------------------------------------------------------------------
# continuous segments
# ---------------------------------------------------------------------------------------------

NDTR_ERROR_ULPS = (32.0, 12.0)
"""scipy's ndtr(z) is assumed within (32 + 12 z^2) u of the exact Phi(z), relative (u = 2^-53): measured against
200-bit mpmath on 70,000 points of [-38, 38], the error never exceeds (8 + 2 z^2) u (it grows like z^2 u in the
tails); the extra covers the rounding of z = (x - mean) / sigma, which moves Phi by about 2 u z^2 relative.
tests/accountant/test_pld_accountant.py re-measures it."""


def _ndtr_bounds(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ndtr(z) and a bound on its absolute error (for the float z = (x - mean) / sigma as computed)."""
    value = ndtr(z)
    return value, value * (NDTR_ERROR_ULPS[0] + NDTR_ERROR_ULPS[1] * np.nan_to_num(z * z, posinf=0.0)) * UNIT_ROUNDOFF


def _normal_mass(mean: float, sigma: float):
    """(a, b) -> enclosure of N(mean, sigma^2)([a, b]) from the smaller tails' ndtr values (no cancellation of
    values near 1), each within :data:`NDTR_ERROR_ULPS`; masses below 10^-300 are not resolved (upper end 10^-300)."""

    def mass(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with np.errstate(invalid="ignore", over="ignore"):
            za, zb = (a - mean) / sigma, (b - mean) / sigma
            right = za >= 0  # both in the upper half: survival functions
            left = zb <= 0
            upper_a, e_ua = _ndtr_bounds(-za)
            upper_b, e_ub = _ndtr_bounds(-zb)
            lower_a, e_la = _ndtr_bounds(za)
            lower_b, e_lb = _ndtr_bounds(zb)
            value = np.where(right, upper_a - upper_b, np.where(left, lower_b - lower_a, 1 - lower_a - upper_b))
            error = np.where(right, e_ua + e_ub, np.where(left, e_la + e_lb, e_la + e_ub + 2 * UNIT_ROUNDOFF))
        value = np.nan_to_num(value, nan=0.0)
        error = np.nan_to_num(error, nan=0.0) * 1.01 + 4 * UNIT_ROUNDOFF * np.abs(value) + 1e-300
        return np.maximum(array_down(value - error), 0.0), array_up(value + error)

    return mass


def gaussian_pair(sigma: sympy.Expr, sensitivity: sympy.Expr) -> LossPair:
    """N(Delta, sigma^2) vs N(0, sigma^2): loss (Delta / sigma^2)(x - Delta/2), increasing in x."""
    s, d = float(sigma), float(sensitivity)
    slope = s * s / d

    def inverse(loss: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = loss * slope + d / 2
        # the float sigma, Delta carry u relative each; the exact grid loss is within 2u|l| of the float
        return x, 16 * UNIT_ROUNDOFF * (np.abs(loss) * slope + d + np.abs(x)) + 1e-300

    def quantiles(tail: float) -> tuple[float, float]:
        z = -float(ndtri(max(tail, 1e-300)))
        return d - z * s, d + z * s

    segment = MonotoneSegment(True, (-math.inf, math.inf), inverse, _normal_mass(d, s), _normal_mass(0.0, s),
                              quantiles)
    return LossPair((), segment, f"Gaussian sigma = {sigma}, sensitivity {sensitivity}")


def _laplace_mass(center: float, b: float, low: float, high: float):
    """(a, c) -> enclosure of Lap(center, b)([a, c] intersected with [low, high]) for an interval on one side
    of the centre (the segment (0, Delta) lies right of P's centre 0 and left of Q's centre Delta)."""

    def mass(a: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, c = np.clip(a, low, high), np.clip(c, low, high)
        with np.errstate(over="ignore", invalid="ignore"):
            if center <= low:  # right of the centre: (e^(-(a - m)/b) - e^(-(c - m)/b)) / 2
                value = np.exp(-(a - center) / b) * -np.expm1(-(c - a) / b) / 2
            else:  # left of it: (e^((c - m)/b) - e^((a - m)/b)) / 2
                value = np.exp((c - center) / b) * -np.expm1(-(c - a) / b) / 2
        value = np.where(c > a, np.nan_to_num(value, nan=0.0), 0.0)
        error = 4 * _R * np.abs(value) + 1e-300
        return np.maximum(array_down(value - error), 0.0), array_up(value + error)

    return mass


def laplace_pair(b: sympy.Expr, sensitivity: sympy.Expr) -> LossPair:
    """Lap(0, b) vs Lap(Delta, b): atoms +-Delta/b (exact when rational) and the segment (0, Delta)."""
    ratio = sympy.sympify(sensitivity) / b
    near, far = sympy.Rational(1, 2), sympy.exp(-ratio) / 2
    top = Fraction(int(ratio.p), int(ratio.q)) if ratio.is_Rational else _enclose(ratio)
    bottom = -top if isinstance(top, Fraction) else (-top[1], -top[0])
    atoms = (Atom(top, _enclose(near), _enclose(far)), Atom(bottom, _enclose(far), _enclose(near)))
    bf, d = float(b), float(sensitivity)
    edge = float_upper(ratio)

    def inverse(loss: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = (d - bf * loss) / 2
        return x, 16 * UNIT_ROUNDOFF * (d + bf * np.abs(loss) + np.abs(x)) + 1e-300

    segment = MonotoneSegment(False, (-edge, edge), inverse, _laplace_mass(0.0, bf, 0.0, d),
                              _laplace_mass(d, bf, 0.0, d), lambda tail: (0.0, d))
    return LossPair(atoms, segment, f"Laplace b = {b}, sensitivity {sensitivity}")
