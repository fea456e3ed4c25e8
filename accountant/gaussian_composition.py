"""The exact privacy curve of composed Gaussian mechanisms, enclosed in interval arithmetic.

**Composition.** k Gaussian mechanisms, the i-th adding N(0, sigma_i^2) to a query of (l2) sensitivity
Delta_i, compose to exactly the privacy curve of one Gaussian mechanism with sensitivity 1 and noise 1/mu,

    mu = sqrt(sum_i c_i (Delta_i / sigma_i)^2)      (c_i mechanisms of each kind),

because the worst pair of neighbouring output distributions, N(0, diag sigma^2) and N(Delta, diag sigma^2),
is mapped by the whitening x -> x / sigma to N(0, I) and N(Delta / sigma, I), and their hockey-stick
divergence depends only on |Delta / sigma| (rotation invariance). In the language of Gaussian DP: the
Gaussian mechanism is (Delta / sigma)-GDP and mu_i-GDP mechanisms compose to sqrt(sum mu_i^2)-GDP (Dong,
Roth, Su, Corollary 3.3); adaptivity does not change this.

**The curve.** The smallest delta at which a mu-Gaussian is (eps, delta)-DP (Balle and Wang 2018, Theorem 8;
Dong, Roth, Su, Corollary 2.13) is

    delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu),

strictly decreasing from delta(0) = 2 Phi(mu/2) - 1 to 0. :func:`gaussian_delta` encloses it and
:func:`gaussian_epsilon` inverts it.

**Enclosure.** Every number is computed in a private mpmath interval context (outward rounding at each
operation); mpmath's interval ``erfc`` does not converge in mpmath 1.3, so the normal tail
Q(t) = Phi(-t) = int_t^oo phi is enclosed here from two expansions with proved remainders, evaluated in
interval arithmetic over the whole argument interval:

- the series Phi(t) - 1/2 = phi(t) sum_{n>=0} t^{2n+1} / (2n+1)!! (Marsaglia, "Evaluating the normal
  distribution", J. Stat. Softw. 11(4), 2004: g = (Phi - 1/2)/phi solves g' = 1 + t g, g(0) = 0). Once
  t^2 / (2N+3) <= 1/2 every later term is at most half the one before, so the terms after the N-th add up
  to at most |t_N| in absolute value; the sum is stopped at |t_N| <= 2^-prec.
- the asymptotic series Q(t) = phi(t)/t (sum_{n<N} (-1)^n (2n-1)!! / t^{2n} + R_N) for t > 0 (Abramowitz
  and Stegun 26.2.12). Integrating by parts N times gives R_N = (-1)^N (2N-1)!! t/phi(t)
  int_t^oo phi(s) s^{-2N} ds, and int_t^oo phi(s) s^{-2N} ds <= t^{-2N-1} int_t^oo s phi(s) ds
  = phi(t) t^{-2N-1}: R_N lies between 0 and the first neglected term. The sum stops at the first term
  below 2^-prec or at the smallest term.

The asymptotic series is used from t^2 >= prec ln 2 (its smallest term, about e^{-t^2/2}, is then below
2^{-prec/2}); below, the series, whose subtraction from 1/2 costs about 0.72 t^2 bits and the interval
overestimate of its sum a few more, keeps prec/2 - 12 bits at 128 and prec/2 - 16 at 1024 bits just below
the switch (measured); for t < 0, Q(t) = 1 - Q(-t). The two terms of delta(eps) cancel when eps is much
larger than mu^2 (delta / Phi(mu/2 - eps/mu) is about mu^2 / eps). So :func:`gaussian_delta` starts at
128 bits and doubles the precision while the enclosure is wider than 2^-60 of its magnitude, up to 16384
bits, like :func:`dpcert.accountant.shuffle_intervals.iv_evaluate`; the last enclosure is returned either way,
so it is always rigorous. It is reported as floats rounded outward
(:func:`dpcert.accountant.mp_enclosures.float_enclosure`): below the float range, [0, 5e-324].

**Inverse.** :func:`gaussian_epsilon` returns floats lower < eps < upper with
upper - lower <= 2^-46 lower (< 10^-12 relative): delta(lower) > delta and delta(upper) < delta, each
decided by the interval enclosure of delta(x) - delta (precision doubled from 128 bits while it contains 0).
:func:`dpcert.proofs.certified_root.certified_root` places them: Brent's method on a 192-bit
round-to-nearest model of ln(delta) - ln(delta(x)), then bisection on the interval predicate.

References:
    Balle and Wang, "Improving the Gaussian mechanism for differential privacy: analytical calibration and
    optimal denoising" (ICML 2018), Theorem 8.
    Dong, Roth, Su, "Gaussian differential privacy" (J. R. Stat. Soc. B, 2022; arXiv:1905.02383),
    Corollaries 2.13 and 3.3.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import mpmath
import sympy
from mpmath.ctx_iv import MPIntervalContext

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.mp_enclosures import exact_interval, float_enclosure, interval_ends
from dpcert.mechanisms.mp_contexts import interval_context, real_context
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive, require_real
from dpcert.proofs.certified_root import certified_root

__all__ = ["DELTA_RANGE", "EPS_RANGE", "MU_RANGE", "gaussian_delta", "gaussian_epsilon", "gaussian_mu"]

SOURCE = ("Balle and Wang, \"Improving the Gaussian mechanism for differential privacy\" (ICML 2018), Theorem 8; "
          "Dong, Roth, Su, \"Gaussian differential privacy\" (JRSS-B 2022), Corollaries 2.13 and 3.3")

START_BITS = 128
MAX_BITS = 16384
"""Interval evaluations start at 128 bits and double up to 16384 bits."""
RELATIVE_WIDTH = 2.0 ** -60
""":func:`gaussian_delta` refines its enclosure until it is at most this wide relative to its magnitude."""
EPS_RTOL = 2.0 ** -46
""":func:`gaussian_epsilon`'s enclosure: upper - lower <= EPS_RTOL * lower (about 1.4e-14 < 1e-12)."""
MODEL_BITS = 192
"""Precision of the round-to-nearest model that guides the search for eps (it decides nothing)."""

MU_RANGE = (sympy.Rational(1, 10**6), sympy.Integer(10**4))
"""mu must lie in [10^-6, 10^4]; outside, InvalidParameterError. Inside, delta(eps) for eps in EPS_RANGE and
eps(delta) for delta in DELTA_RANGE are enclosed at 128-256 bits (the widest argument of the normal tail,
eps/mu <= 10^12, costs about log2(eps^3/mu^4) bits; measured: under 20 ms a call at every corner); a smaller mu
is a Gaussian with almost no privacy loss (delta(0) = 2 Phi(mu/2) - 1 < 4 10^-7), a larger one almost no
privacy (1 - delta(0) = 2 Phi(-mu/2) < 10^-5000000)."""
EPS_RANGE = (sympy.Integer(0), sympy.Integer(10**6))
"""eps of :func:`gaussian_delta` must lie in [0, 10^6]; outside, InvalidParameterError."""
DELTA_RANGE = (sympy.Rational(1, 10**300), sympy.Integer(1))
"""delta of :func:`gaussian_epsilon` must lie in [10^-300, 1); outside, InvalidParameterError. A Gaussian is
never (eps, 0)-DP; 10^-300 is dpcert's floor for privacy parameters (as in
:data:`dpcert.mechanisms.parameters.EPS_RANGE`), far below any meaningful delta. In the range the answer is
below mu^2/2 + mu sqrt(2 ln(1/delta)) < mu^2/2 + 37.2 mu, the search's upper end."""


def _mu(value: object) -> sympy.Expr:
    """mu as an exact number in MU_RANGE."""
    return require_real("mu", value, low=MU_RANGE[0], high=MU_RANGE[1])


def _eps(value: object) -> sympy.Expr:
    """eps as an exact number in EPS_RANGE."""
    return require_real("eps", value, low=EPS_RANGE[0], high=EPS_RANGE[1])


def _delta(value: object) -> sympy.Expr:
    """delta as an exact number in DELTA_RANGE."""
    return require_real("delta", value, low=DELTA_RANGE[0], high=DELTA_RANGE[1], high_open=True)


def gaussian_mu(pairs: Iterable[tuple[object, object, object]]) -> sympy.Expr:
    """The exact mu = sqrt(sum count (sensitivity / sigma)^2) of composed Gaussian mechanisms.

    Args:
        pairs: (sensitivity, sigma, count) triples: ``count`` mechanisms adding N(0, sigma^2) to a query of
            l2 sensitivity ``sensitivity``; sensitivity > 0, sigma > 0, count an integer >= 1.

    Raises:
        InvalidParameterError: no triple, an entry that is not a triple, or a value out of range.
    """
    terms = []
    for i, triple in enumerate(pairs):
        try:
            sensitivity, sigma, count = triple
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"pairs[{i}] must be a (sensitivity, sigma, count) triple. Got {str(triple)[:60]}") from None
        ratio = require_positive(f"pairs[{i}] sensitivity", sensitivity) / require_positive(f"pairs[{i}] sigma", sigma)
        terms.append(require_int(f"pairs[{i}] count", count, minimum=1) * ratio ** 2)
    if not terms:
        raise InvalidParameterError("pairs must list at least one (sensitivity, sigma, count) triple. Got none")
    radicand = sympy.Add(*terms)
    coefficient = radicand.as_coeff_Mul()[0]
    # sympy's sqrt factors its rational coefficient (20 s at 4000 digits): left unevaluated when it is large
    small = max(abs(int(coefficient.p)), int(coefficient.q)) < 10**30
    return sympy.sqrt(radicand) if small else sympy.Pow(radicand, sympy.S.Half, evaluate=False)


# ---------------------------------------------------------------------------------------------
# Interval enclosures
# ---------------------------------------------------------------------------------------------

def _phi(ctx: MPIntervalContext, t):
    """The standard normal density at the interval t."""
    return ctx.exp(-t * t / 2) / ctx.sqrt(2 * ctx.pi)


def _tail_series(ctx: MPIntervalContext, t):
    """Q(t) = 1/2 - phi(t) sum_{n>=0} t^{2n+1} / (2n+1)!!, any real t (module docstring)."""
    square, tiny = t * t, mpmath.ldexp(1, -ctx.prec)
    square_high = interval_ends(square)[1]
    term, total, n = t, t, 0
    while not (2 * n + 3 >= 2 * square_high and interval_ends(abs(term))[1] <= tiny):
        n += 1
        term = term * square / (2 * n + 1)
        total += term
    return ctx.mpf(1) / 2 - _phi(ctx, t) * (total + term * ctx.mpf([-1, 1]))


def _tail_asymptotic(ctx: MPIntervalContext, t):
    """Q(t) = phi(t)/t (sum_{n<N} (-1)^n (2n-1)!! / t^{2n} + theta u_N), theta in [0, 1], for t > 0."""
    inverse_square, tiny = 1 / (t * t), mpmath.ldexp(1, -ctx.prec)
    inverse_high = interval_ends(inverse_square)[1]
    term, total, n = ctx.mpf(1), ctx.mpf(0), 0
    while True:
        total += term
        n += 1
        term = -term * (2 * n - 1) * inverse_square  # u_n, the first neglected term
        if interval_ends(abs(term))[1] <= tiny or (2 * n + 1) * inverse_high >= 1:  # small enough, or the smallest
            break
    return _phi(ctx, t) / t * (total + term * ctx.mpf([0, 1]))


def _tail(ctx: MPIntervalContext, t):
    """An interval containing Q(s) = Phi(-s) for every s in the interval t."""
    low, high = interval_ends(t)
    threshold = ctx.prec * math.log(2)
    if low > 0 and low * low >= threshold:
        return _tail_asymptotic(ctx, t)
    if high < 0 and high * high >= threshold:
        return 1 - _tail_asymptotic(ctx, -t)
    return _tail_series(ctx, t)


def _delta_interval(bits: int, mu: sympy.Expr, eps: sympy.Expr):
    """delta(eps) = Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2), in the interval context of ``bits``."""
    ctx = interval_context(bits)
    m, e = exact_interval(ctx, mu), exact_interval(ctx, eps)
    shift = e / m
    return _tail(ctx, shift - m / 2) - ctx.exp(e) * _tail(ctx, shift + m / 2)


def _normal_cdf(z: sympy.Expr) -> sympy.Expr:
    """Phi(z) = erfc(-z / sqrt(2)) / 2, exact."""
    return sympy.erfc(-z / sympy.sqrt(2)) / 2


# ---------------------------------------------------------------------------------------------
# delta(eps) and eps(delta)
# ---------------------------------------------------------------------------------------------

def gaussian_delta(mu: object, eps: object) -> BoundResult:
    """The exact delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) of a mu-Gaussian.

    ``value`` is the closed form in erfc; ``lower_value`` and ``upper_value`` are floats rounded outward from
    an interval enclosure at most 2^-60 wide relative to delta (module docstring), so ``upper`` and ``lower``
    are certified bounds on the smallest delta at which the composed mechanisms are (eps, delta)-DP.

    Args:
        mu: the composition's mu (:func:`gaussian_mu`), in MU_RANGE = [10^-6, 10^4].
        eps: in EPS_RANGE = [0, 10^6].

    Raises:
        InvalidParameterError: mu or eps out of range.
    """
    mu, eps = _mu(mu), _eps(eps)
    bits = START_BITS
    while True:
        low, high = interval_ends(_delta_interval(bits, mu, eps))
        if high - low <= RELATIVE_WIDTH * max(abs(low), abs(high)) or bits >= MAX_BITS:
            break
        bits *= 2
    value = _normal_cdf(mu / 2 - eps / mu) - sympy.exp(eps) * _normal_cdf(-mu / 2 - eps / mu)
    return BoundResult("gaussian-delta", SOURCE, value, "probability", True,
                       f"mu = {mu}, eps = {eps}; enclosed at {bits} bits", bounds="exact",
                       **float_enclosure(max(low, 0), high))


def gaussian_epsilon(mu: object, delta: object) -> BoundResult:
    """The eps >= 0 with delta(eps) = delta for a mu-Gaussian (0 when delta(0) <= delta), enclosed.

    ``lower_value`` < eps < ``upper_value`` are floats (exact dyadic rationals) with delta(lower) > delta and
    delta(upper) < delta proved by interval arithmetic, and upper - lower <= 2^-46 lower (unless eps is below
    about 10^-300, where lower and upper are adjacent subnormal floats, or 0 and the smallest one); ``value`` is
    the upper end (the safe side: the composition is (upper, delta)-DP).

    Args:
        mu: the composition's mu (:func:`gaussian_mu`), in MU_RANGE = [10^-6, 10^4].
        delta: in DELTA_RANGE = [10^-300, 1).

    Raises:
        InvalidParameterError: mu or delta out of range, or (not seen in practice) delta(x) - delta whose sign
            16384 bits cannot decide at a point of the search.
    """
    mu, delta = _mu(mu), _delta(delta)
    signs: dict[float, int] = {}

    def sign(x: float) -> int:
        """The sign of delta(x) - delta, proved by an interval enclosure."""
        if x not in signs:
            bits = START_BITS
            while True:
                low, high = interval_ends(_delta_interval(bits, mu, sympy.Rational(x)) - exact_interval(
                    interval_context(bits), delta))
                if low > 0 or high < 0:
                    signs[x] = 1 if low > 0 else -1
                    break
                if bits >= MAX_BITS:
                    raise InvalidParameterError(f"delta must not agree with delta(eps) to {MAX_BITS} bits at "
                                                f"eps = {x!r} (the sign of the difference is undecided). "
                                                f"Got delta = {delta}, mu = {mu}")
                bits *= 2
        return signs[x]

    if sign(0.0) < 0:
        return BoundResult("gaussian-epsilon", SOURCE, sympy.Integer(0), "eps", True,
                           f"mu = {mu}: delta(0) = 2 Phi(mu/2) - 1 < delta = {delta}", bounds="exact")
    real = real_context(MODEL_BITS)
    m, log_delta = real.mpf(str(mu.evalf(60))), real.log(real.mpf(str(delta.evalf(60))))

    def model(x: float) -> float:
        value = real.ncdf(m / 2 - x / m) - real.exp(x) * real.ncdf(-m / 2 - x / m)
        return float(log_delta - real.log(value))

    # delta(x) < Phi(mu/2 - x/mu) <= exp(-(x/mu - mu/2)^2 / 2) / 2 = delta/2 at x = mu^2/2 + mu sqrt(2 ln(1/delta))
    high = 1.01 * float(m * m / 2 + m * real.sqrt(-2 * log_delta))
    root = certified_root(model, lambda x: sign(x) > 0, 0.0, high, side="below", rtol=EPS_RTOL)
    # uncertified is where sign(x) > 0 failed; every sign is decided, so there delta(x) < delta is proved
    lower, upper = sympy.Rational(root.certified), sympy.Rational(root.uncertified)
    return BoundResult("gaussian-epsilon", SOURCE, upper, "eps", True,
                       f"mu = {mu}, delta = {delta}: delta(lower) > delta > delta(upper), proved in interval "
                       "arithmetic", lower, upper, bounds="exact")
