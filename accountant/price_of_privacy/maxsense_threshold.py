"""How many users MaxSense needs: the Theorem 15 upper bound on the sample complexity.

MaxSense (000_0c6e7fdc3fd68303.txt, Fig. 2) recovers every item cluster with probability >= 1 - N^-d once

    U >= 75 N^2 (ln 2 + (1 + d) ln N) / (eps_hat^2 delta_min^2 w theta)        (paper, eq. 11 with its constants)
    U >= 300 N^2 (ln 2 + (1 + d) ln N) / (eps_hat^2 delta_min^2 w theta (1 - theta/w)^2)   (re-derived)

with eps_hat = 2 (e^eps - 1) / (e^eps + 1). The re-derived constant restores the factor 1/2 of the score
gap |Bbar_l - Bbar_m| = U eps_hat theta (1 - theta/w) delta_lm / (2N) and its (1 - theta/w) factor, both
dropped in the paper's proof (spec 000, section 9, E6); the paper's constant is about 4x too small.

References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (and its proof, Chernoff with a = Delta_min / (5 Bbar)).
"""

from __future__ import annotations

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive

__all__ = ["maxsense_user_threshold"]

SOURCE = "000_0c6e7fdc3fd68303.txt, Theorem 15"


def maxsense_user_threshold(N: object, w: object, eps: object, *, theta: object = 1, delta_min: object,
                            d: object = 1, paper_constant: bool = False) -> BoundResult:
    """Users sufficient for MaxSense to recover all N item clusters with probability >= 1 - N^-d.

    Args:
        N: number of items (>= 2).
        w: ratings per user (1 <= w <= N).
        eps: local-DP parameter (> 0).
        theta: sensing constant, each item sensed with probability theta / w; 0 < theta < w.
        delta_min: the separation of Theorem 15 (> 0), e.g. from
            :func:`dpcert.mechanisms.price_of_privacy.analysis.maxsense_delta_min`.
        d: failure exponent (> 0).
        paper_constant: the paper's printed 75-constant form instead of the re-derived 300-constant form.

    Returns:
        A BoundResult in users (exact expression; ``upper`` rounded up).
    """
    N = require_int("N", N, minimum=2)
    w = require_int("w", w, minimum=1, maximum=N, maximum_name="N")
    eps = require_positive("eps", eps)
    theta = require_positive("theta", theta)
    if exact_sign(theta - w) >= 0:
        raise InvalidParameterError(f"theta must be in (0, w) = (0, {w}). Got {theta}")
    delta_min = require_positive("delta_min", delta_min)
    d = require_positive("d", d)
    t = sympy.exp(eps)
    eps_hat = 2 * (t - 1) / (t + 1)
    log_term = sympy.log(2) + (1 + d) * sympy.log(N)
    if paper_constant:
        value = 75 * N**2 * log_term / (eps_hat**2 * delta_min**2 * w * theta)
        note = "the paper's printed constant (75), which drops a factor 1/2 and (1 - theta/w); about 4x too small"
        name = "theorem15-paper"
    else:
        value = 300 * N**2 * log_term / (eps_hat**2 * delta_min**2 * w * theta * (1 - theta / w) ** 2)
        note = f"re-derived constant (300); success probability >= 1 - N^-{d}"
        name = "theorem15"
    return BoundResult(name, SOURCE, value, "users", True, note)
