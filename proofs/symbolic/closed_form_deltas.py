"""Closed-form deltas: the exact smallest delta(eps) of the Gaussian and Laplace mechanisms."""

from __future__ import annotations

import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_positive


def _positive(name: str, value: object) -> sympy.Expr:
    """An exact positive number, or a sympy expression in symbols that sympy knows to be positive."""
    if isinstance(value, sympy.Expr) and value.free_symbols:
        if value.is_positive is not True:
            raise InvalidParameterError(f"{name} must be > 0. Got {value}, which sympy cannot show is positive")
        return value
    return require_positive(name, value)


def _normal_cdf(z: sympy.Expr) -> sympy.Expr:
    """Phi(z) = erfc(-z / sqrt(2)) / 2."""
    return sympy.erfc(-z / sympy.sqrt(2)) / 2


def gaussian_delta(eps: object, sigma: object, sensitivity: object) -> sympy.Expr:
    """The exact smallest delta for which the Gaussian mechanism is (eps, delta)-DP.

    delta(eps) = Phi(D / (2 sigma) - eps sigma / D) - e^eps Phi(-D / (2 sigma) - eps sigma / D),
    with D = sensitivity and Phi the standard normal CDF, written Phi(z) = erfc(-z / sqrt(2)) / 2. It is
    the hockey-stick divergence between N(0, sigma^2) and N(D, sigma^2), attained by the event
    {y <= D / 2 - eps sigma^2 / D} where the privacy loss exceeds eps; it grows with D, so neighbours at
    distance exactly D are the worst.

    Args:
        eps: eps > 0, exact (or a positive sympy symbol).
        sigma: the noise standard deviation > 0.
        sensitivity: D > 0.

    Returns:
        delta(eps) as a sympy expression in erfc and exp.

    Raises:
        InvalidParameterError: a parameter is not > 0.

    References: Balle and Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018),
    Theorem 8.
    """
    eps, sigma, sensitivity = (_positive("eps", eps), _positive("sigma", sigma),
                               _positive("sensitivity", sensitivity))
    a, b = sensitivity / (2 * sigma), eps * sigma / sensitivity
    return _normal_cdf(a - b) - sympy.exp(eps) * _normal_cdf(-a - b)


def laplace_delta(eps: object, scale: object, sensitivity: object) -> sympy.Expr:
    """The exact smallest delta for which Laplace noise of scale b is (eps, delta)-DP.

    delta(eps) = max(0, 1 - exp((eps - eps0) / 2)) with eps0 = sensitivity / b, the mechanism's pure-DP
    eps. For eps < eps0 the privacy loss exceeds eps exactly on y < c = (sensitivity - eps b) / 2, and
    P(Y < c | 0) - e^eps P(Y < c | sensitivity) = (1 - e^(-c/b) / 2) - e^eps e^((c - sensitivity)/b) / 2
    simplifies to the formula. It grows with the shift, so neighbours at distance sensitivity are the worst.

    Raises:
        InvalidParameterError: a parameter is not an exact number > 0.

    References: Dwork and Roth (2014), Theorem 3.6 (the Laplace mechanism); the hockey-stick form of
    (eps, delta)-DP, Balle and Wang (ICML 2018), Theorem 5.
    """
    eps, scale, sensitivity = (require_positive("eps", eps), require_positive("scale", scale),
                               require_positive("sensitivity", sensitivity))
    gap = eps - sensitivity / scale
    return sympy.Integer(0) if exact_sign(gap) >= 0 else 1 - sympy.exp(gap / 2)
