"""An independent, deliberately simple 50-digit truth: the exact delta(eps) of k-fold Laplace composition.

None of this uses dpcert's accountant: it is the privacy-loss distribution of the Laplace mechanism written
out by hand and integrated in closed form, in a private mpmath context
(:func:`dpcert.mechanisms.mp_contexts.real_context`; the global precision is never touched).

**One Laplace.** With P = Lap(0, b), Q = Lap(1, b) (sensitivity 1) and c = 1/b, the privacy loss
L(x) = ln p(x)/q(x) = (|x - 1| - |x|)/b under P is

- +c with mass 1/2 (x <= 0), and -c with mass e^{-c}/2 (x >= 1);
- (1 - 2x)/b for 0 < x < 1, with density (1/4) e^{-c/2} e^{l/2} on (-c, c) (x = (1 - b l)/2, |dx/dl| = b/2,
  p(x) = e^{-x/b}/(2b)); the three parts add up to 1.

**k of them.** The composed loss S is the sum of k independent copies and delta(eps) = E_P[(1 - e^{eps - S})_+]
(the hockey-stick divergence, since Q = P e^{-L}). Conditioning on i copies at +c, j at -c and m continuous
(multinomial weight k!/(i! j! m!) 2^{-i} (e^{-c}/2)^j), with t = (i - j) c:

- m = 0: the term is (1 - e^{eps - t})_+;
- m >= 1: the continuous parts have joint density (1/4)^m e^{-mc/2} e^{s/2} on the cube, s their sum. Writing
  each as l = c(2u - 1) with u uniform on (0, 1), s = 2c y - mc with y = sum u, which has the Irwin-Hall
  density f_m(y) = sum_{r <= y} (-1)^r C(m, r) (y - r)^{m-1} / (m - 1)!. So the term is

      (c/2)^m int_{y0}^{m} f_m(y) (e^{c (y - m)} - e^{eps - t - c y}) dy,   y0 = (eps b - i + j + m)/2,

  (check: without the cut at y0 and the second exponential it is ((1 - e^{-c})/2)^m, the mass of m
  continuous parts).

On each unit piece y = q + z, z in [0, 1], f_m is a polynomial p(z) with rational coefficients, and
int p(z) e^{beta z} dz = e^{beta z} R(z) with R = sum_r (-1)^r p^{(r)} / beta^{r+1} (differentiate to check),
beta = +-c: rational too when b is. So delta(eps) is a finite sum of exponentials times rationals, evaluated at
``BITS`` (400) bits plus k (|log2 b| + 2) guard bits for the cancellation in e^{beta} R(1) - R(0) when b is
large: 50 significant digits wherever delta >= 10^-60 (tests/oracles/test_laplace_composition.py compares two
precisions). :func:`laplace_k_fold_epsilon` bisects to 40 digits.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath

from dpcert.mechanisms.mp_contexts import real_context

__all__ = ["BITS", "K_MAX", "laplace_k_fold_delta", "laplace_k_fold_epsilon"]

BITS = 400
"""Working precision before guard bits (about 120 digits)."""
K_MAX = 8
"""At most 8 composed mechanisms (45 multinomial terms, Irwin-Hall pieces of degree <= 7)."""
EPS_DIGITS = 40
""":func:`laplace_k_fold_epsilon` bisects until the bracket is 10^-40 of its upper end."""


def _bits(b: Fraction, k: int, extra_bits: int) -> int:
    return BITS + k * (abs(math.ceil(math.log2(b))) + 2) + extra_bits


def _polynomial_piece(m: int, q: int) -> list[Fraction]:
    """Ascending coefficients of p(z) = f_m(q + z), the Irwin-Hall density of m uniforms on piece q."""
    coefficients = [Fraction(0)] * m
    for r in range(q + 1):
        for n in range(m):  # (q - r + z)^{m-1} = sum_n C(m-1, n) (q - r)^{m-1-n} z^n
            coefficients[n] += (-1) ** r * math.comb(m, r) * math.comb(m - 1, n) * (q - r) ** (m - 1 - n)
    return [a / math.factorial(m - 1) for a in coefficients]


def _antiderivative(p: list[Fraction], beta: Fraction) -> list[Fraction]:
    """R with (e^{beta z} R(z))' = e^{beta z} p(z): R = sum_r (-1)^r p^{(r)} / beta^{r+1}."""
    result = [Fraction(0)] * len(p)
    derivative, r = list(p), 0
    while derivative:
        for n, a in enumerate(derivative):
            result[n] += (-1) ** r * a / beta ** (r + 1)
        derivative = [n * a for n, a in enumerate(derivative)][1:]
        r += 1
    return result


def _value(ctx, coefficients: list[Fraction], z) -> mpmath.mpf:
    """The polynomial at z, by Horner's rule in ``ctx``."""
    total = ctx.mpf(0)
    for a in reversed(coefficients):
        total = total * z + ctx.mpf(a.numerator) / a.denominator
    return total


@functools.lru_cache(maxsize=64)
def _pieces(b: Fraction, k: int, bits: int) -> dict[int, list[tuple]]:
    """For m = 1..k and each piece q: (R_+, R_-, J_+, J_-), R_+- the antiderivatives for beta = +-c and
    J_+- = int_0^1 p(z) e^{+-c z} dz (the whole piece)."""
    ctx, c = real_context(bits), 1 / b
    table = {}
    for m in range(1, k + 1):
        table[m] = []
        for q in range(m):
            p = _polynomial_piece(m, q)
            plus, minus = _antiderivative(p, c), _antiderivative(p, -c)
            whole_plus = ctx.exp(ctx.mpf(c.numerator) / c.denominator) * _value(ctx, plus, 1) - _value(ctx, plus, 0)
            whole_minus = (ctx.exp(-ctx.mpf(c.numerator) / c.denominator) * _value(ctx, minus, 1)
                           - _value(ctx, minus, 0))
            table[m].append((plus, minus, whole_plus, whole_minus))
    return table


def _mpf(ctx, x: Fraction | int | mpmath.mpf) -> mpmath.mpf:
    """x in ``ctx``: a Fraction or int exactly divided, an mpf converted."""
    if isinstance(x, (Fraction, int)):
        x = Fraction(x)
        return ctx.mpf(x.numerator) / x.denominator
    return ctx.mpf(x)


def laplace_k_fold_delta(b: Fraction | int, k: int, eps: Fraction | int | mpmath.mpf, *,
                         extra_bits: int = 0) -> mpmath.mpf:
    """delta(eps) of k-fold composition of the Laplace mechanism with scale b (sensitivity 1), 50 digits.

    Args:
        b: the scale, a positive rational.
        k: 1..K_MAX.
        eps: >= 0.
        extra_bits: more working precision (to check the digits).
    """
    b = Fraction(b)
    if b <= 0 or not 1 <= k <= K_MAX:
        raise ValueError(f"need b > 0 and 1 <= k <= {K_MAX}. Got b = {b}, k = {k}")
    bits = _bits(b, k, extra_bits)
    ctx, table = real_context(bits), _pieces(b, k, bits)
    c, eps = _mpf(ctx, 1 / b), _mpf(ctx, eps)
    if eps < 0:
        raise ValueError(f"need eps >= 0. Got {eps}")
    e_c, e_eps = ctx.exp(c), ctx.exp(eps)
    total = ctx.mpf(0)
    for i in range(k + 1):
        for j in range(k + 1 - i):
            m = k - i - j
            weight = ctx.mpf(math.factorial(k) // (math.factorial(i) * math.factorial(j) * math.factorial(m)))
            weight = weight / ctx.mpf(2) ** (i + j) / e_c ** j
            cut = e_eps / e_c ** (i - j)  # e^{eps - t}
            if m == 0:
                total += weight * max(1 - cut, 0)
                continue
            y0 = (eps / c - i + j + m) / 2
            part = ctx.mpf(0)
            for q in range(max(0, int(ctx.floor(y0))), m):
                plus, minus, whole_plus, whole_minus = table[m][q]
                if y0 > q:  # the piece is cut at z0 = y0 - q
                    z0 = y0 - q
                    whole_plus = e_c * _value(ctx, plus, 1) - ctx.exp(c * z0) * _value(ctx, plus, z0)
                    whole_minus = _value(ctx, minus, 1) / e_c - ctx.exp(-c * z0) * _value(ctx, minus, z0)
                part += e_c ** (q - m) * whole_plus - cut / e_c ** q * whole_minus
            total += weight * (c / 2) ** m * part
    return total


def laplace_k_fold_epsilon(b: Fraction | int, k: int, delta: Fraction | mpmath.mpf) -> mpmath.mpf:
    """The smallest eps >= 0 with delta(eps) <= delta, by bisection to 40 digits (0 when delta(0) <= delta).

    delta(eps) decreases from delta(0) to 0 at eps = k/b (the largest loss), which brackets the answer; the
    returned point is the bracket's upper end (delta there <= delta).
    """
    b = Fraction(b)
    ctx = real_context(_bits(b, k, 0))
    target = _mpf(ctx, delta)
    if laplace_k_fold_delta(b, k, 0) <= target:
        return ctx.mpf(0)
    low, high = ctx.mpf(0), _mpf(ctx, k / b)
    while high - low > high * ctx.mpf(10) ** -EPS_DIGITS:
        middle = (low + high) / 2
        if laplace_k_fold_delta(b, k, middle) <= target:
            high = middle
        else:
            low = middle
    return high
