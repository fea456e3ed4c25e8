"""Deliberately simple 50-digit evaluations of the shuffle-amplification bounds, exactly as printed.

Nothing here uses dpcert's code, its rearranged formulas or its interval arithmetic: each function writes
its paper's expression in mpmath (inside ``mpmath.workdps``) and evaluates it directly, with 50 digits
beyond those the printed expression cancels away (:func:`digits`: e^x - 1 and log(1 + x) lose about
one digit per decimal order of a small x, twice for squares such as 1 - e^(-2 a^2/w^2), and powers ^n
one per order of n, and 1 - e^-eps0 one per order of e^eps0), so every value is correct to far more than
20 digits. They are plain functions of plain numbers (int, Fraction, float, decimal strings, sympy numbers), so a
benchmark can run them on many points.

- Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta (SODA 2019): eps = 12 eps0 sqrt(ln(1/delta)/n)
  for eps0 <= 1/2, n >= 1000, delta <= 1/100 (as listed in PEERS.md).
- Feldman, McMillan, Talwar, "Hiding Among the Clones" (FOCS 2021), Theorem 3.1:
  eps = ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 ln(4/delta)/n) + 8 e^eps0/n)) for
  eps0 <= ln(n / (16 ln(2/delta))).
- Feldman, McMillan, Talwar (SODA 2023), closed form with r = 1/(e^eps0 + 1):
  eps = ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (sqrt(32 ln(4/delta)/(r(n - 1))) + 4/(r(n - 1)))) for
  n > 8 ln(4/delta)/r (PEERS.md).
- Imola, Roy Chowdhury, Chaudhuri (seed 002), Theorem 4.3: alpha = ||v||_0 ln(1 + (e^z - 1)/(e^z + 1)
  (8 sqrt(e^alpha0 ln(4 ||v||_0/delta))/sqrt(m) + 8 e^alpha0/m)), z = alpha0 ||v||_1/||v||_0, for
  alpha0 < ln(m / (16 ln(4m/delta))); the output delta is delta e^alpha.
- Balle, Bell, Gascon, Nissim (CRYPTO 2019), the blanket bounds with Hoeffding's and Bennett's
  inequalities, as stated in dpcert's accountant/shuffle_blanket.py module docstring (its constants for
  k-ary randomized response and for any eps0-LDP randomizer); see :func:`blanket_bound`.
- FMT 2021's clone reduction (Theorem 3.2 with Lemma 3.3; FMT 2023's stronger clones): the hockey-stick
  divergence of P = alpha (B + 1, ...) + (1 - alpha)(B, ...) and Q = alpha (B, ...) + (1 - alpha)(B + 1, ...),
  B = Bin(C, 1/2), C ~ Bin(n - 1, p), as a plain sum over c and over the first coordinate a.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

__all__ = [
    "DIGITS",
    "digits",
    "mp",
    "efmrtt19",
    "efmrtt19_applies",
    "fmt21_closed",
    "fmt21_closed_applies",
    "fmt23_closed",
    "fmt23_closed_applies",
    "imola_theorem_4_3",
    "imola_theorem_4_3_applies",
    "imola_at_output_delta",
    "blanket_bound",
    "clone_delta",
]

DIGITS = 50
"""Decimal digits every evaluation keeps beyond its cancellations."""


def digits(small: tuple = (), large: tuple = (), exponents: tuple = ()) -> int:
    """:data:`DIGITS` plus 3 per decimal order below 1 of each ``small`` input, 2 per order of each ``large``
    one (generous: the cancellations cost at most 2 and 1) and, for each eps0 in ``exponents``, the orders of
    e^eps0 (1 - e^-eps0 and s/(s + 1) must resolve e^-eps0 next to 1)."""
    extra = sum(int(float(Fraction(str(e))) / math.log(10)) + 1 for e in exponents)
    for x in small:
        x = abs(float(Fraction(str(x)) if isinstance(x, str) else x))
        extra += 3 * max(0, -math.floor(math.log10(x))) if 0 < x < 1 else 0
    for x in large:
        extra += 2 * len(str(int(x)))
    return DIGITS + extra


def mp(x: object) -> mpmath.mpf:
    """``x`` as an mpmath number at the current precision: exact for int, Fraction and rationals, else from
    a 60-digit evaluation (floats are read as the decimal they print as, like dpcert does)."""
    if isinstance(x, bool):
        raise TypeError("a number, not a bool")
    if isinstance(x, mpmath.mpf):
        return +x
    if isinstance(x, int):
        return mpmath.mpf(x)
    if isinstance(x, float):
        x = Fraction(repr(x))
    if isinstance(x, str):
        x = Fraction(x)
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if getattr(x, "is_Rational", False):
        return mpmath.mpf(int(x.p)) / int(x.q)
    return mpmath.mpf(str(x.evalf(60)))


def efmrtt19(eps0: object, n: object, delta: object) -> mpmath.mpf:
    """12 eps0 sqrt(ln(1/delta)/n) (Erlingsson et al., SODA 2019)."""
    with mpmath.workdps(digits((eps0,), (n,))):
        return 12 * mp(eps0) * mpmath.sqrt(mpmath.log(1 / mp(delta)) / mp(n))


def efmrtt19_applies(eps0: object, n: object, delta: object) -> bool:
    """eps0 <= 1/2, n >= 1000 and delta <= 1/100."""
    with mpmath.workdps(DIGITS):
        return mp(eps0) <= mpmath.mpf(1) / 2 and mp(n) >= 1000 and mp(delta) <= mpmath.mpf(1) / 100


def fmt21_closed(eps0: object, n: object, delta: object) -> mpmath.mpf:
    """FMT 2021, Theorem 3.1: ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 ln(4/delta)/n) + 8 e^eps0/n))."""
    with mpmath.workdps(digits((eps0,), (n,))):
        e0, n, d = mp(eps0), mp(n), mp(delta)
        s = mpmath.exp(e0)
        return mpmath.log(1 + (s - 1) / (s + 1) * (8 * mpmath.sqrt(s * mpmath.log(4 / d) / n) + 8 * s / n))


def fmt21_closed_applies(eps0: object, n: object, delta: object) -> bool:
    """eps0 <= ln(n / (16 ln(2/delta)))."""
    with mpmath.workdps(DIGITS):
        return mp(eps0) <= mpmath.log(mp(n) / (16 * mpmath.log(2 / mp(delta))))


def fmt23_closed(eps0: object, n: object, delta: object) -> mpmath.mpf:
    """FMT 2023: ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (sqrt(32 ln(4/delta)/(r(n-1))) + 4/(r(n-1)))), r = 1/(e^eps0 + 1)."""
    with mpmath.workdps(digits((eps0,), (n,))):
        e0, n, d = mp(eps0), mp(n), mp(delta)
        s = mpmath.exp(e0)
        r = 1 / (s + 1)
        return mpmath.log(1 + (s - 1) / (s + 1) * (mpmath.sqrt(32 * mpmath.log(4 / d) / (r * (n - 1)))
                                                   + 4 / (r * (n - 1))))


def fmt23_closed_applies(eps0: object, n: object, delta: object) -> bool:
    """n > 8 ln(4/delta) / r with r = 1/(e^eps0 + 1)."""
    with mpmath.workdps(DIGITS):
        return mp(n) > 8 * mpmath.log(4 / mp(delta)) * (mpmath.exp(mp(eps0)) + 1)


def imola_theorem_4_3(alpha0: object, m: object, delta: object, l0: object, l1: object) -> mpmath.mpf:
    """Imola et al., Theorem 4.3: ||v||_0 ln(1 + (e^z - 1)/(e^z + 1) K), as printed in seed 002."""
    with mpmath.workdps(digits((alpha0, l1), (m, l0))):
        a0, m, d, v0, v1 = mp(alpha0), mp(m), mp(delta), mp(l0), mp(l1)
        z = a0 * v1 / v0
        K = 8 * mpmath.sqrt(mpmath.exp(a0) * mpmath.log(4 * v0 / d)) / mpmath.sqrt(m) + 8 * mpmath.exp(a0) / m
        return v0 * mpmath.log(1 + (mpmath.exp(z) - 1) / (mpmath.exp(z) + 1) * K)


def imola_theorem_4_3_applies(alpha0: object, m: object, delta: object) -> bool:
    """alpha0 < ln(m / (16 ln(4m/delta)))."""
    with mpmath.workdps(DIGITS):
        return mp(alpha0) < mpmath.log(mp(m) / (16 * mpmath.log(4 * mp(m) / mp(delta))))


def imola_at_output_delta(alpha0: object, m: object, delta: object, l0: object,
                          l1: object) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(alpha*, ln delta_in*): the smallest Theorem 4.3 alpha whose output delta_in e^alpha is <= delta.

    alpha decreases as delta_in grows, so the best delta_in solves ln delta_in + alpha(delta_in) = ln delta;
    it is found by bisection on ln delta_in (300 halvings of a bracket that doubles until it holds).
    """
    with mpmath.workdps(digits((alpha0, l1), (m, l0))):
        target = mpmath.log(mp(delta))

        def excess(log_din: mpmath.mpf) -> mpmath.mpf:
            return log_din + imola_theorem_4_3(alpha0, m, mpmath.exp(log_din), l0, l1) - target

        gap = mpmath.mpf(1)
        while excess(target - gap) > 0:
            gap *= 2
        lo, hi = target - gap, target
        for _ in range(300):
            mid = (lo + hi) / 2
            if excess(mid) <= 0:
                lo = mid
            else:
                hi = mid
        return imola_theorem_4_3(alpha0, m, mpmath.exp(lo), l0, l1), lo


def blanket_bound(kind: str, eps: object, eps0: object, n: object, k: object = None) -> mpmath.mpf:
    """The blanket bound on delta(eps), 0 < eps < eps0 (Balle, Bell, Gascon, Nissim, CRYPTO 2019).

    With s = e^eps0, t = e^eps, a = t - 1 and (gamma, w, b, v) below,

    - Hoeffding: w^2 / (4 a gamma n) [(1 - gamma + gamma e^(-2 a^2/w^2))^n - (1 - gamma)^n];
    - Bennett: b / (gamma n ln(1 + beta)) [(1 - gamma + gamma e^(-(v/b^2) phi(beta)))^n - (1 - gamma)^n],
      beta = a b / v, phi(u) = (1 + u) ln(1 + u) - u.

    k-ary randomized response (Z = s + k - 1): gamma = k/Z, w = k (s - 1)(1 + t)/Z, b = k (s - t)/Z,
    v = k ((s - t)^2 + (1 - t s)^2 + (k - 2)(1 - t)^2) / Z^2. Any eps0-LDP randomizer (k None):
    gamma = 1/s, w = (s - 1)(1 + t), b = s - t and v the maximum over g in [1/s, 1] of the concave
    quadratic (1 + t^2)(g (1 + s) - s g^2) - 2 t (2 g - g^2): at its vertex when that lies in [1/s, 1],
    else at the nearer end.
    """
    with mpmath.workdps(digits((eps, eps0), (n,), (eps0,))):
        t, s, n = mpmath.exp(mp(eps)), mpmath.exp(mp(eps0)), mp(n)
        if k is None:
            gamma, w, b = 1 / s, (s - 1) * (1 + t), s - t

            def quadratic(g):
                return (1 + t ** 2) * (g * (1 + s) - s * g ** 2) - 2 * t * (2 * g - g ** 2)

            vertex = ((1 + t ** 2) * (1 + s) - 4 * t) / (2 * ((1 + t ** 2) * s - 2 * t))
            v = quadratic(min(mpmath.mpf(1), max(1 / s, vertex)))
        else:
            k = mp(k)
            Z = s + k - 1
            gamma, w, b = k / Z, k * (s - 1) * (1 + t) / Z, k * (s - t) / Z
            v = k * ((s - t) ** 2 + (1 - t * s) ** 2 + (k - 2) * (1 - t) ** 2) / Z ** 2
        a = t - 1
        if kind == "hoeffding":
            factor, z = w ** 2 / (4 * a * gamma * n), mpmath.exp(-2 * a ** 2 / w ** 2)
        elif kind == "bennett":
            beta = a * b / v
            phi = (1 + beta) * mpmath.log(1 + beta) - beta
            factor, z = b / (gamma * n * mpmath.log(1 + beta)), mpmath.exp(-(v / b ** 2) * phi)
        else:
            raise ValueError(f"kind must be 'hoeffding' or 'bennett'. Got {kind!r}")
        return factor * ((1 - gamma + gamma * z) ** n - (1 - gamma) ** n)


def clone_delta(eps: object, eps0: object, n: int, variant: str = "fmt21") -> mpmath.mpf:
    """D_{e^eps}(P || Q) of FMT's clone pair as a plain sum: sum_c Pr[C = c] sum_a max(P_c(a) - e^eps Q_c(a), 0).

    C ~ Bin(n - 1, p) with p = e^-eps0 (FMT 2021, Lemma 3.3) or 2/(e^eps0 + 1) (FMT 2023); given C = c the
    first coordinate of P is B + 1 with probability alpha and B otherwise, that of Q is B with
    probability alpha and B + 1 otherwise (B ~ Bin(c, 1/2), alpha = e^eps0/(e^eps0 + 1)); C is a function
    of the pair (its coordinates sum to C + 1), so the divergence splits over c. Costs O(n^2) terms. The
    terms P_c(a) - e^eps Q_c(a) cancel to 0 at eps = eps0, so 100 more digits resolve values down to 10^-100.
    """
    with mpmath.workdps(digits((eps, eps0), (), (eps0,)) + 100):  # + 100: values near delta = 10^-100
        s, t = mpmath.exp(mp(eps0)), mpmath.exp(mp(eps))
        p = 1 / s if variant == "fmt21" else 2 / (s + 1)
        alpha = s / (s + 1)
        total = mpmath.mpf(0)
        B = [mpmath.mpf(1)]  # Bin(c, 1/2) pmf, c = 0; row c + 1 from row c by Pascal's rule
        for c in range(n):
            weight = mpmath.binomial(n - 1, c) * p ** c * (1 - p) ** (n - 1 - c)
            h = mpmath.mpf(0)
            for a in range(c + 2):
                before = B[a - 1] if a >= 1 else 0
                here = B[a] if a <= c else 0
                P = alpha * before + (1 - alpha) * here
                Q = alpha * here + (1 - alpha) * before
                if P > t * Q:
                    h += P - t * Q
            total += weight * h
            B = [((B[a] if a <= c else 0) + (B[a - 1] if a >= 1 else 0)) / 2 for a in range(c + 2)]
        return total
