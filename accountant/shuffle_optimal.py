"""The blanket bound evaluated exactly for k-ary randomized response: the tightest decomposition bound, certified.

n users each apply k-ary randomized response (input x in {1..k}; output x with probability e^eps0 / Z, each
other symbol with 1 / Z, Z = k - 1 + e^eps0); their reports are shuffled. Balle, Bell, Gascon and Nissim
("The Privacy Blanket of the Shuffle Model", CRYPTO 2019) write every output law as
mu_x = gamma omega + (1 - gamma) nu_x with the blanket rho(y) = min_x mu_x(y), gamma = sum_y rho(y), and bound

    delta(eps) <= (1/n) E[(G_1 + ... + G_n)_+],   G_i i.i.d.,

G = (mu_x(y) - e^eps mu_x'(y)) / rho(y) with probability rho(y), and 0 with probability 1 - gamma (the same as
their (1/(gamma n)) E[(L_1 + ... + L_M)_+] with M ~ Bin(n, gamma)); Su, Cheng and Wang ("Decomposition-Based
Optimal Bounds for Privacy Amplification via Shuffling", IEEE S&P 2026) show this blanket decomposition is the
best of all decomposition bounds (FMT's clones included) and compute it by FFT. Their bounds of Hoeffding and
Bennett (``blanket-hoeffding``, ``blanket-bennett``) bound the same mean from above; here it is evaluated. For
k-RR, rho = 1/Z everywhere and, with E = e^eps0 and T = e^eps, G takes the values

    E - T (prob 1/Z),   1 - T E (prob 1/Z),   1 - T (prob (k - 2)/Z),   0 (prob (E - 1)/Z)

for every ordered pair (x, x'), which are all alike. Exact check (the test suite): binary randomized response,
E = 4, T = 2, n = 5 gives 513/3125, and the exact worst case over the other users' bits is 512/3125.

**Certified.** The mean is bounded from above by :func:`~dpcert.accountant.iid_sums.positive_part_mean_upper`
(values and masses enclosed from e^eps0 and e^eps in interval arithmetic, a mean-preserving split onto a grid
of step about sigma_G / 16, the n-fold sum by a certified FFT, the folded tail valued at n max G). eps(delta) is
a point where that bound is <= delta, found by :func:`~dpcert.proofs.certified_root.certified_root` from a
saddlepoint approximation of the mean shifted by its error at one evaluated point (a guide only), so the
reported upper end is a valid eps for the shuffled mechanism. The row's lower end is the ``exact`` row's lower
end (the exact eps of shuffled k-RR, or a certified lower bound from three datasets) where dpcert's enumeration
reaches it, else the row is an upper bound only.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy
from scipy.optimize import brentq, minimize_scalar

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.iid_sums import ValueAtom, positive_part_mean_upper
from dpcert.accountant.shuffle_common import interval_result, invalid
from dpcert.accountant.shuffle_intervals import enclose, up
from dpcert.proofs.certified_root import certified_root
from dpcert.proofs.rounding import float_upper

__all__ = ["MAX_OPTIMAL_EPS0", "MAX_OPTIMAL_K", "MAX_OPTIMAL_N", "blanket_exact_delta", "blanket_optimal"]

MAX_OPTIMAL_N = 10**5
"""Largest n evaluated (the n-fold sum's grid grows like sqrt(n): about 7 s at n = 10^5); beyond, the row says so."""

MAX_OPTIMAL_K = 1000
"""Largest k evaluated (a large k leaves a tiny blanket share on each symbol and a long search)."""

MAX_OPTIMAL_EPS0 = 10
"""Largest eps0 evaluated (G's values span e^(2 eps0) of its spread's steps); beyond, the row says so."""

_STEPS_PER_SIGMA = 16
MAX_CELLS = 2**20
"""The most grid cells one summand's values may span."""


def _atoms(eps0: sympy.Expr, eps: Fraction, k: int) -> list[ValueAtom]:
    """G's atoms for k-RR at eps (values and masses as exact rational enclosures)."""
    e_lo, e_hi = (Fraction(x) for x in enclose(sympy.exp(eps0)))
    t_lo, t_hi = (Fraction(x) for x in enclose(sympy.exp(sympy.Rational(eps.numerator, eps.denominator))))
    z_lo, z_hi = k - 1 + e_lo, k - 1 + e_hi
    one = (1 / z_hi, 1 / z_lo)
    atoms = [ValueAtom((e_lo - t_hi, e_hi - t_lo), one), ValueAtom((1 - t_hi * e_hi, 1 - t_lo * e_lo), one),
             ValueAtom((Fraction(0), Fraction(0)), ((e_lo - 1) / z_hi, (e_hi - 1) / z_lo))]
    if k > 2:
        atoms.append(ValueAtom((1 - t_hi, 1 - t_lo), ((k - 2) / z_hi, (k - 2) / z_lo)))
    return atoms


def _moments(atoms: list[ValueAtom]) -> tuple[np.ndarray, np.ndarray]:
    values = np.array([float(a.value[1]) for a in atoms])
    masses = np.array([float(a.mass[1]) for a in atoms])
    return values, masses


def _chernoff_tilt(values: np.ndarray, masses: np.ndarray) -> float:
    """The order t >= 0 minimising ln E[e^(t G)] (floats; any tilt is sound)."""
    top = float(np.max(np.abs(values)))
    if np.max(values) <= 0 or top == 0:
        return 0.0
    found = minimize_scalar(lambda t: float(np.log(np.sum(masses * np.exp(t * values)))), bounds=(0.0, 700.0 / top),
                            method="bounded")
    return float(found.x)


def blanket_exact_delta(eps0: sympy.Expr, eps: Fraction, n: int, k: int, delta: float) -> float:
    """An upper bound on (1/n) E[(G_1 + ... + G_n)_+] at eps (see the module)."""
    atoms = _atoms(eps0, eps, k)
    values, masses = _moments(atoms)
    mean = float(np.sum(masses * values))
    sigma = math.sqrt(max(float(np.sum(masses * values ** 2)) - mean ** 2, 1e-300))
    top = max(float(a.value[1]) for a in atoms)
    span = top - min(float(a.value[0]) for a in atoms)
    # sigma / 16, or coarser when the values span more than MAX_CELLS such steps (a huge eps0): still sound
    exponent = math.ceil(math.log2(_STEPS_PER_SIGMA / sigma))
    exponent = min(exponent, math.floor(math.log2(MAX_CELLS / span))) if span > 0 else exponent
    step = Fraction(1, 2 ** exponent) if exponent >= 0 else Fraction(2 ** -exponent)
    cap = up(n * max(top, 0.0))
    folds = 2 * n.bit_length() + 1
    tail = max(delta * 1e-6 / (folds * max(top, 1e-300)), 1e-300)
    total = positive_part_mean_upper(atoms, n, step=step, tilt=_chernoff_tilt(values, masses), tail=tail, cap=cap)
    return up(total / n)


def _model(eps0: float, eps: float, n: int, k: int, delta: float) -> float:
    """ln of a saddlepoint approximation of the bound minus ln delta (floats; only guides the search):
    E[S_+] ~ e^K(t) / (t^2 sqrt(2 pi K''(t))) at the root t > 0 of K'(t) = 0, K = n ln E[e^(t G)] (Bahadur and
    Rao's tail expansion at its leading order)."""
    e, t = math.exp(eps0), math.exp(eps)
    z = k - 1 + e
    values = np.array([e - t, 1 - t * e, 1 - t, 0.0])
    masses = np.array([1 / z, 1 / z, (k - 2) / z, (e - 1) / z])
    order = _chernoff_tilt(values, masses)
    if order <= 0:
        return -745.0  # no positive value of G: the mean is 0, far below delta
    weights = masses * np.exp(order * values)
    total = float(np.sum(weights))
    mean = float(np.sum(weights * values)) / total
    variance = max(float(np.sum(weights * values ** 2)) / total - mean ** 2, 1e-300)
    log_positive = n * math.log(total) - 2 * math.log(order) - 0.5 * math.log(2 * math.pi * n * variance)
    return log_positive - math.log(n) - math.log(delta)


def blanket_optimal(eps0: sympy.Expr, n: int, delta: sympy.Expr, k: int | None, *,
                    lower: BoundResult | None = None) -> BoundResult:
    """The ``optimal`` shuffle row for k-RR (validated arguments; ``lower``: the exact row, whose lower end becomes
    this row's)."""
    if k is None:
        return invalid("optimal", "the blanket bound is evaluated for a named randomizer: give k (k-ary randomized "
                                  "response); for any eps0-LDP randomizer use fmt21-numeric")
    if n > MAX_OPTIMAL_N:
        return invalid("optimal", f"n = {n} > {MAX_OPTIMAL_N}: beyond the evaluated range")
    if k > MAX_OPTIMAL_K:
        return invalid("optimal", f"k = {k} > {MAX_OPTIMAL_K}: beyond the evaluated range")
    if eps0 > MAX_OPTIMAL_EPS0:
        return invalid("optimal", f"eps0 = {eps0} > {MAX_OPTIMAL_EPS0}: beyond the evaluated range (the blanket "
                                  "holds e^-eps0 of the mass: little amplification is left)")
    target = float(delta)
    eps0_float = float_upper(eps0)  # at eps >= eps0 every G <= 0: delta = 0

    bounds: dict[float, float] = {}

    def bound(eps: float) -> float:
        if eps not in bounds:
            bounds[eps] = blanket_exact_delta(eps0, Fraction(eps), n, k, target)
        return bounds[eps]

    def certify(eps: float) -> bool:
        return bound(eps) <= target

    if certify(0.0):
        upper = 0.0
    else:
        # the saddlepoint model's root, then the model shifted by its error there (nearly constant near the root)
        shift = 0.0
        if _model(eps0_float, 0.0, n, k, target) > 0:
            first = brentq(lambda e: _model(eps0_float, e, n, k, target), 0.0, eps0_float, rtol=1e-6)
            if bound(first) > 0:
                shift = math.log(bound(first)) - math.log(target) - _model(eps0_float, first, n, k, target)
        root = certified_root(lambda e: _model(eps0_float, e, n, k, target) + shift, certify, 0.0, eps0_float,
                              side="above", rtol=2.0 ** -14)
        upper = root.certified
    note = f"{k}-ary randomized response: the blanket decomposition's mean, certified (bisection to 1e-4 relative)"
    low = lower.lower if lower is not None and lower.lower is not None else None
    if low is None:
        return interval_result("optimal", sympy.Rational(upper), sympy.Rational(upper),
                               f"{note}; an upper bound (no lower bound within reach of the exact row)")
    return interval_result("optimal", sympy.Rational(min(low, upper)), sympy.Rational(upper),
                           f"{note}; the lower end is the exact row's (a certified lower bound on the true eps)",
                           bounds="exact")
