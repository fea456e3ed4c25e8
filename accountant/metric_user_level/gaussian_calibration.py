"""The Gaussian noise that makes a linear query (alpha, delta)-d_EM-DP (PrivEMDLinear's Gaussian variant).

With per-coordinate noise N(0, sigma^2) on an ell-Lipschitz query (l2 norm), two datasets at d_EM = w have
query values at most ell w apart and are allowed eps = alpha w, so the mechanism is (alpha, delta)-local
d_EM-DP iff g(w) = delta_BW(alpha w; ell w, sigma) <= delta for every w in (0, 1], where delta_BW is the exact
Gaussian hockey-stick (Balle and Wang 2018, Theorem 8). Writing c = alpha sigma / ell and u = ell w / (2 sigma),
g = Phi(u - c) - e^{2cu} Phi(-u - c) and dg/du = 2 e^{2cu} (phi(u + c) - c Phi(-(u + c))) > 0 by the Mills
ratio Phi(-x) < phi(x)/x (x = u + c > c). So the supremum is at w = 1: the calibration is the analytic
Gaussian mechanism's at eps = alpha and sensitivity ell (central model: ell/n).

References: 002_1def8c9789d6e1bd.txt, Section 4.1 and Lemma 6.2 (which print the width
ell sqrt(1.25 ln(1/delta))/alpha, refuted in the claim registry); specs/imola_metric_dp_user_level.md, A4;
Balle and Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.
"""

from __future__ import annotations

import math

import sympy
from scipy.stats import norm

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_positive, require_unit_interval
from dpcert.proofs.certified_root import certified_root
from dpcert.proofs.symbolic.closed_form_deltas import gaussian_delta

__all__ = ["emd_gaussian_sigma"]

_SOURCE = "002_1def8c9789d6e1bd.txt, Section 4.1 / Lemma 6.2 (Gaussian PrivEMDLinear), corrected"


def _float_delta(eps: float, sigma: float, sensitivity: float) -> float:
    a, b = sensitivity / (2 * sigma), eps * sigma / sensitivity
    return float(norm.cdf(a - b) - math.exp(eps) * norm.cdf(-a - b))


def emd_gaussian_sigma(alpha: object, delta: object, *, ell: object = 1) -> BoundResult:
    """The smallest per-coordinate sigma (to 1e-9 relative, rounded up) for (alpha, delta)-local d_EM-DP.

    sigma solves delta_BW(alpha; ell, sigma) = delta (the supremum over d_EM = w in (0, 1] is at w = 1; see the
    module docstring). :func:`~dpcert.proofs.certified_root.certified_root` finds it: Brent's method on the float
    delta_BW, then the exact delta_BW checked <= delta at the decimal a float prints as (how dpcert reads a
    float back); the returned value is that decimal for a float at which the check passed, within 1e-9
    relative of one where it failed, so the noise it prescribes is never too small and at most 1e-9 relative
    more than needed.

    Args:
        alpha: the d_EM-DP parameter, > 0.
        delta: in (0, 1).
        ell: the query's Lipschitz constant (l2), > 0; use ell/n for the central model.
    """
    alpha, ell = require_positive("alpha", alpha), require_positive("ell", ell)
    delta = require_unit_interval("delta", delta)
    if delta == 0:
        raise InvalidParameterError("delta must be in (0, 1): Gaussian noise is never (alpha, 0)-DP. Got 0")
    a, d, e = float(alpha), float(delta), float(ell)
    lo, hi = 1e-12 * e, e
    while _float_delta(a, hi, e) > d:
        lo, hi = hi, 2 * hi
    # searched up to 2 hi, where the exact delta_BW is far below delta even where the float one is off
    root = certified_root(lambda s: _float_delta(a, s, e) - d,
                          lambda s: exact_sign(gaussian_delta(alpha, sympy.Rational(repr(s)), ell) - delta) <= 0,
                          lo, 2 * hi, side="above", rtol=1e-9)
    sigma = sympy.Rational(repr(root.certified))
    return BoundResult("gaussian-sigma", _SOURCE, sigma, "sigma",
                       note=f"per-coordinate noise; delta_BW(alpha = {alpha}; ell = {ell}, sigma) <= {delta}, attained "
                            "at d_EM = 1; the paper's ell sqrt(1.25 ln(1/delta))/alpha is "
                            f"{float(ell * sympy.sqrt(sympy.Rational(5, 4) * sympy.log(1 / delta)) / alpha):.6g}")
