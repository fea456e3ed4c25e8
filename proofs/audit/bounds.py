"""Clopper–Pearson bounds and the eps lower bound they give, rounded outward.

References: Clopper and Pearson, "The use of confidence or fiducial limits illustrated in the case of
the binomial" (Biometrika 1934); Bichsel et al., "DP-Sniper" (S&P 2021), Section 5 (the eps lower bound
log(p_lo / p'_hi) from one-sided Clopper–Pearson bounds).
"""

from __future__ import annotations

import math

from scipy.stats import beta

__all__ = ["cp_lower", "cp_upper", "eps_lower_bound"]

# scipy's beta quantiles are accurate to a few ulps; widen every bound by this relative margin so the
# float we report is on the safe side of the exact Clopper–Pearson bound.
_MARGIN = 1e-10


def cp_lower(k: float, n: float, alpha: float) -> float:
    """One-sided lower Clopper–Pearson bound: P(p >= bound) >= 1 - alpha.  Beta(alpha; k, n - k + 1)."""
    if k <= 0:
        return 0.0
    return max(0.0, float(beta.ppf(alpha, k, n - k + 1)) * (1 - _MARGIN))


def cp_upper(k: float, n: float, alpha: float) -> float:
    """One-sided upper Clopper–Pearson bound: P(p <= bound) >= 1 - alpha.  Beta(1 - alpha; k + 1, n - k)."""
    if k >= n:
        return 1.0
    return min(1.0, float(beta.ppf(1 - alpha, k + 1, n - k)) * (1 + _MARGIN))


def eps_lower_bound(p_lo: float, p_prime_hi: float, delta: float) -> float:
    """log((p_lo - delta) / p'_hi), or 0 when that is not positive; rounded down.

    Why it is a lower bound: an (eps, delta)-DP mechanism has P(E|x) <= e^eps P(E|x') + delta for every
    event E, so p_lo - delta <= p - delta <= e^eps p' <= e^eps p'_hi whenever both bounds hold.
    """
    numerator = p_lo - delta
    if numerator <= 0 or p_prime_hi <= 0:
        return 0.0 if numerator <= 0 else math.inf
    value = math.log(numerator) - math.log(p_prime_hi)
    if value <= 0:
        return 0.0
    # two float logs and a subtraction: a relative error of a few ulps; step down past it
    return max(0.0, math.nextafter(value - 4 * math.ulp(value) - 1e-15, -math.inf))
