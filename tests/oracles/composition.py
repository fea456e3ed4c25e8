"""Independent, deliberately simple truths for composition: plain functions for the tests and benchmarks.

None of these uses dpcert: they are the textbook definitions evaluated by brute force, in Fractions, or
with mpmath at 50 significant digits (more where eps is tiny, so that e^eps - 1 keeps 50 digits).

- :func:`basic` — Dwork, McSherry, Nissim, Smith (TCC 2006); Dwork and Roth (2014), Theorem 3.16.
- :func:`advanced` — Dwork, Rothblum, Vadhan (FOCS 2010), Theorem III.3; Dwork and Roth, Theorem 3.20.
- :func:`kov_delta`, :func:`kov_epsilon` — Kairouz, Oh, Viswanath, "The Composition Theorem for
  Differential Privacy" (ICML 2015), Theorem 3.3: the exact privacy region of k-fold composition of
  (eps, delta0)-DP mechanisms, as the finite sum over the number of flipped coordinates.
- :func:`product_epsilon`, :func:`kov_mechanism` — brute force: the hockey-stick divergence of the k-fold
  product of a finite mechanism, enumerating all outputs with Fractions (KOV's Theorem 3.3 proof: the
  4-output mechanism of :func:`kov_mechanism` is the worst (eps, delta0)-DP mechanism; with delta0 = 0
  it is binary randomized response).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath

__all__ = ["advanced", "basic", "kov_delta", "kov_epsilon", "kov_mechanism", "pair_delta", "product_delta",
           "product_epsilon"]

DIGITS = 50


def _digits(eps: Fraction) -> int:
    """50 digits, plus the digits that e^eps - 1 loses to cancellation when eps is tiny."""
    return DIGITS + 10 + max(0, len(str(eps.denominator)) - len(str(eps.numerator)))


def _mp(x: Fraction) -> mpmath.mpf:
    """x at the current mpmath precision."""
    return mpmath.mpf(x.numerator) / x.denominator


def basic(eps: Fraction, k: int, delta0: Fraction = Fraction(0)) -> tuple[Fraction, Fraction]:
    """(k eps, k delta0): k (eps, delta0)-DP mechanisms compose to (k eps, k delta0)-DP (basic composition)."""
    return k * eps, k * delta0


def advanced(eps: Fraction, k: int, delta_prime: Fraction) -> mpmath.mpf:
    """sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), evaluated with mpmath at 50+ digits.

    k (eps, delta0)-DP mechanisms are (this, k delta0 + delta')-DP (Dwork, Rothblum, Vadhan, Theorem III.3).
    """
    with mpmath.workdps(_digits(eps)):
        e = _mp(eps)
        return +(mpmath.sqrt(2 * k * mpmath.log(1 / _mp(delta_prime))) * e + k * e * mpmath.expm1(e))


def kov_delta(eps: Fraction, k: int, eps_prime: mpmath.mpf, delta0: Fraction = Fraction(0)) -> mpmath.mpf:
    """The smallest delta with k-fold (eps, delta0)-DP composition (eps', delta)-DP (KOV 2015, Theorem 3.3):

        1 - (1 - delta0)^k (1 - sum_{l=0}^{k} C(k, l) max(e^{(k-l) eps} - e^{eps'} e^{l eps}, 0) / (1 + e^eps)^k),

    summed term by term with mpmath at 50+ digits.
    """
    with mpmath.workdps(_digits(eps) + len(str(k))):
        eps, eps_prime = _mp(eps), mpmath.mpf(eps_prime)
        total = mpmath.mpf(0)
        for l in range(k + 1):
            # each term divided by e^{k eps} (1 + e^-eps)^k = (1 + e^eps)^k, in the log domain
            log_scale = -k * mpmath.log1p(mpmath.exp(-eps))
            high = mpmath.exp(-l * eps + log_scale)
            low = mpmath.exp(eps_prime + (l - k) * eps + log_scale)
            if high > low:
                total += mpmath.binomial(k, l) * (high - low)
        spent = 1 - _mp(1 - delta0) ** k
        return +(spent + (1 - spent) * total)


def kov_epsilon(eps: Fraction, k: int, delta: Fraction, delta0: Fraction = Fraction(0)) -> mpmath.mpf | None:
    """The smallest eps' >= 0 with :func:`kov_delta`(eps') <= delta, by bisection to 45 digits (None when even
    eps' = k eps needs delta >= 1 - (1 - delta0)^k and delta is smaller).

    :func:`kov_delta` decreases in eps' and reaches 1 - (1 - delta0)^k at eps' = k eps, so the bisection
    on [0, k eps] brackets the answer.
    """
    with mpmath.workdps(_digits(eps) + len(str(k))):
        target = _mp(delta)
        if 1 - _mp(1 - delta0) ** k > target:
            return None
        if kov_delta(eps, k, 0, delta0) <= target:
            return mpmath.mpf(0)
        low, high = mpmath.mpf(0), k * _mp(eps)
        while high - low > high * mpmath.mpf(10) ** -45:
            middle = (low + high) / 2
            if kov_delta(eps, k, middle, delta0) <= target:
                high = middle
            else:
                low = middle
        return +high


def kov_mechanism(t: Fraction, delta0: Fraction = Fraction(0)) -> tuple[list[Fraction], list[Fraction]]:
    """KOV's worst (log t, delta0)-DP mechanism on two inputs (ICML 2015, proof of Theorem 3.3), 4 outputs:

        x0: (delta0, (1 - delta0) t/(1 + t), (1 - delta0)/(1 + t), 0)
        x1: (0, (1 - delta0)/(1 + t), (1 - delta0) t/(1 + t), delta0)

    With delta0 = 0 the first and last outputs never occur: binary randomized response with e^eps = t.
    """
    keep, flip = (1 - delta0) * t / (1 + t), (1 - delta0) / (1 + t)
    return [delta0, keep, flip, Fraction(0)], [Fraction(0), flip, keep, delta0]


def product_delta(p: list[Fraction], q: list[Fraction], k: int, t: Fraction) -> Fraction:
    """sum_y max(P^k(y) - t Q^k(y), 0) over all len(p)^k outputs y of the k-fold product (hockey-stick, exact)."""
    total = Fraction(0)
    for outputs in itertools.product(range(len(p)), repeat=k):
        a = math.prod(p[y] for y in outputs)
        b = math.prod(q[y] for y in outputs)
        total += max(a - t * b, Fraction(0))
    return total


def pair_delta(p: list[Fraction], q: list[Fraction], k: int, t: Fraction, rate: Fraction | None = None) -> Fraction:
    """The larger :func:`product_delta` over both orders of the pair (P, Q), or with ``rate`` of the Poisson-subsampled
    pairs ((1 - rate) Q + rate P, Q) and (Q, (1 - rate) Q + rate P) (Zhu, Dong, Wang, AISTATS 2022, Theorem 10)."""
    first = p if rate is None else [(1 - rate) * b + rate * a for a, b in zip(p, q)]
    return max(product_delta(first, q, k, t), product_delta(q, first, k, t))


def product_epsilon(p: list[Fraction], q: list[Fraction], k: int, delta: Fraction) -> Fraction | None:
    """The smallest t = e^eps >= 1 with :func:`product_delta`(t) <= delta, exactly (None: no finite eps).

    Brute force over the len(p)^k outputs: the hockey-stick is the maximum of finitely many lines in t,
    so the answer is where the piece through the outputs with ratio above t meets delta.
    """
    ratio_mass: dict[Fraction | None, list[Fraction]] = {}
    for outputs in itertools.product(range(len(p)), repeat=k):
        a = math.prod(p[y] for y in outputs)
        b = math.prod(q[y] for y in outputs)
        if a == 0:
            continue
        mass = ratio_mass.setdefault(None if b == 0 else a / b, [Fraction(0), Fraction(0)])
        mass[0] += a
        mass[1] += b
    mass_p, mass_q = ratio_mass.pop(None, [Fraction(0), Fraction(0)])[0], Fraction(0)  # infinite ratios: always in
    if mass_p > delta:
        return None
    ratios = sorted(ratio_mass, reverse=True)
    for j, ratio in enumerate(ratios):  # on [max(next ratio, 1), ratio] the divergence is mass_p - t mass_q
        if ratio <= 1:
            break
        mass_p, mass_q = mass_p + ratio_mass[ratio][0], mass_q + ratio_mass[ratio][1]
        floor = max(ratios[j + 1], Fraction(1)) if j + 1 < len(ratios) else Fraction(1)
        if mass_p - floor * mass_q > delta:
            return (mass_p - delta) / mass_q
    return Fraction(1)
