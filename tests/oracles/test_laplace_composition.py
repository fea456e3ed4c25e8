"""The k-fold Laplace oracle (tests/oracles/laplace_composition.py) against truths derived independently of it.

- k = 1: the closed form delta(eps) = 1 - e^{(eps - 1/b)/2} for 0 <= eps <= 1/b (with c = 1/b: the atom at +c
  gives (1/2)(1 - e^{eps - c}), the continuous part (1/4) e^{-c/2} int_eps^c (e^{l/2} - e^{eps - l/2}) dl =
  (1/2)(1 - 2 e^{(eps - c)/2} + e^{eps - c}); they add up to 1 - e^{(eps - c)/2}), and its inverse
  eps = 1/b + 2 ln(1 - delta).
- The top of the curve: for d = k/b - eps <= 2/b no copy at -c contributes, the continuous copies sit in the
  corner simplex of the cube, and delta = 2^-k (1 - e^{-d}) + sum_{m=1}^k C(k, m) 2^{-(k-m)} 4^{-m}
  int_0^d e^{-u/2} u^{m-1}/(m-1)! (1 - e^{u-d}) du depends on d only, not on b (mpmath quad, 60 digits).
- k = 2: a direct two-dimensional integral of p(x1) p(x2) (1 - e^{eps - L(x1) - L(x2)})_+ over the plane
  (mpmath quad at 53 bits, split where the integrand has kinks), to 10^-10.
- k = 3: Monte Carlo with a fixed seed; Hoeffding's bound sets the tolerance (false failure <= 10^-6).
- Laplace with scale b is (1/b)-DP, so its k-fold delta(eps) never exceeds the optimal composition bound for
  k (1/b)-DP mechanisms (Kairouz, Oh, Viswanath 2015; tests/oracles/composition.kov_delta).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from dpcert.mechanisms.mp_contexts import real_context
from oracles import composition as kov
from oracles.laplace_composition import laplace_k_fold_delta, laplace_k_fold_epsilon

CTX = real_context(240)


def _mp(ctx, x: Fraction):
    return ctx.mpf(x.numerator) / x.denominator


@pytest.mark.parametrize("b", [Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(3), Fraction(50)])
@pytest.mark.parametrize("share", [Fraction(0), Fraction(1, 3), Fraction(9, 10), Fraction(99999, 100000)])
def test_one_laplace_is_the_closed_form(b, share):
    eps = share / b
    closed = 1 - CTX.exp((_mp(CTX, eps) - _mp(CTX, 1 / b)) / 2)
    assert abs(laplace_k_fold_delta(b, 1, eps) - closed) <= CTX.mpf(10) ** -50 * closed


@pytest.mark.parametrize("b, delta", [(Fraction(1), Fraction(1, 10)), (Fraction(4), Fraction(1, 100)),
                                      (Fraction(1, 3), Fraction(1, 2))])
def test_one_laplace_epsilon_is_the_closed_form(b, delta):
    closed = _mp(CTX, 1 / b) + 2 * CTX.log(1 - _mp(CTX, delta))
    assert abs(laplace_k_fold_epsilon(b, 1, delta) - closed) <= CTX.mpf(10) ** -39 * closed


def _top(k: int, d: Fraction):
    """delta at distance d = k/b - eps <= 2/b from the largest loss (module docstring), any b."""
    ctx = real_context(200)
    d = _mp(ctx, d)
    total = (1 - ctx.exp(-d)) / ctx.mpf(2) ** k
    for m in range(1, k + 1):
        integral = ctx.quad(lambda u: ctx.exp(-u / 2) * u ** (m - 1) / math.factorial(m - 1) * (1 - ctx.exp(u - d)),
                            [0, d])
        total += math.comb(k, m) * integral / ctx.mpf(2) ** (k - m) / ctx.mpf(4) ** m
    return total


@pytest.mark.parametrize("k", [2, 5, 8])
@pytest.mark.parametrize("d", [Fraction(1, 1000), Fraction(1, 5), Fraction(2)])
def test_top_of_the_curve_depends_on_the_distance_only(k, d):
    truth = _top(k, d)
    for b in (Fraction(1), Fraction(1, 4), Fraction(1, 10)):  # 2/b >= d for all three
        delta = laplace_k_fold_delta(b, k, k / b - d)
        assert abs(delta - truth) <= CTX.mpf(10) ** -50 * truth


def _direct_two_fold(b: Fraction, eps: Fraction):
    """int int p(x1) p(x2) (1 - e^{eps - L(x1) - L(x2)})_+ dx2 dx1 over the plane, at 53 bits."""
    ctx = real_context(53)
    b, eps = _mp(ctx, b), _mp(ctx, eps)

    def density(x):
        return ctx.exp(-abs(x) / b) / (2 * b)

    def loss(x):
        return (abs(x - 1) - abs(x)) / b

    def crossing(level):  # the x in (0, 1) where the loss, decreasing from c to -c, equals level
        x = (1 - b * level) / 2
        return [x] if 0 < x < 1 else []

    def inner(x1):
        need = eps - loss(x1)
        points = sorted([-ctx.inf, 0, 1, ctx.inf] + crossing(need))
        return density(x1) * ctx.quad(lambda x2: density(x2) * max(1 - ctx.exp(need - loss(x2)), 0), points)

    c = 1 / b
    return ctx.quad(inner, sorted([-ctx.inf, 0, 1, ctx.inf] + crossing(eps - c) + crossing(eps + c)))


@pytest.mark.parametrize("b, eps", [(Fraction(1), Fraction(1, 2)), (Fraction(1, 2), Fraction(3))])
def test_two_laplaces_against_a_direct_double_integral(b, eps):
    assert abs(laplace_k_fold_delta(b, 2, eps) - _direct_two_fold(b, eps)) <= 1e-10


@pytest.mark.statistical
def test_three_laplaces_against_monte_carlo():
    """Z = (1 - e^{eps - S})_+ lies in [0, 1] and has mean delta(eps) under P^3 (S the sum of the three losses).
    Hoeffding: P(|mean of n - delta| >= t) <= 2 exp(-2 n t^2) = 10^-6 at t = sqrt(ln(2 10^6) / (2n))."""
    b, eps, n = 1.5, 0.4, 2_000_000
    rng = np.random.default_rng(20240607)
    x = rng.laplace(0.0, b, size=(n, 3))
    total_loss = ((np.abs(x - 1) - np.abs(x)) / b).sum(axis=1)
    mean = float(np.maximum(0.0, 1 - np.exp(eps - total_loss)).mean())
    tolerance = math.sqrt(math.log(2e6) / (2 * n))  # 0.0019
    assert abs(mean - float(laplace_k_fold_delta(Fraction(3, 2), 3, Fraction(2, 5)))) <= tolerance


@pytest.mark.parametrize("k", [2, 4, 8])
def test_never_above_the_optimal_composition_of_pure_dp(k):
    b = Fraction(2)
    for share in (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)):
        eps = share * k / b
        laplace = laplace_k_fold_delta(b, k, eps)
        assert laplace <= kov.kov_delta(1 / b, k, _mp(CTX, eps))
    assert laplace_k_fold_delta(b, k, Fraction(k) / b) == 0


def test_epsilon_inverts_delta():
    b, k = Fraction(3, 2), 3
    for delta in (Fraction(1, 10), Fraction(1, 10**6)):
        eps = laplace_k_fold_epsilon(b, k, delta)  # the upper end of a bracket 10^-40 eps wide
        below = eps * (1 - CTX.mpf(10) ** -40)
        assert laplace_k_fold_delta(b, k, eps) <= _mp(CTX, delta) < laplace_k_fold_delta(b, k, below)
    assert laplace_k_fold_epsilon(b, k, Fraction(99, 100)) == 0  # delta(0) < 0.99


@pytest.mark.parametrize("b", [Fraction(1, 10), Fraction(1), Fraction(50)])
def test_fifty_digits_hold_at_twice_the_precision(b):
    for k in (3, 8):
        for share in (Fraction(0), Fraction(1, 2), Fraction(999, 1000)):
            eps = share * k / b
            value = laplace_k_fold_delta(b, k, eps)
            assert abs(value - laplace_k_fold_delta(b, k, eps, extra_bits=400)) <= CTX.mpf(10) ** -50 * value


def test_decreasing_in_eps():
    values = [laplace_k_fold_delta(Fraction(1), 4, Fraction(j, 4)) for j in range(17)]
    assert all(later < earlier for earlier, later in zip(values, values[1:]))
    assert values[-1] == 0 and values[0] < 1
