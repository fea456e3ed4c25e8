"""Setting d_EM-DP parameters: alpha from protection goals, the composition baseline, and the noise of a linear query.

These are the arithmetic of the paper's "Concrete Example" paragraphs (location data, n = 10^5 users with
m = 10^3 points each, distances normalized by about 12930 miles): alpha = min{0.2/((1/30) 0.08), 0.2/0.008}
= 25, a per-user linear-query noise of l/alpha = 0.04 and an aggregate of 0.04/sqrt(n) = 1.26e-4 (1.6 miles),
and the composition baseline alpha0 = alpha/m = 0.025.

References: 002_1def8c9789d6e1bd.txt, Section 3 ("Setting the Privacy Parameters" and its Concrete
Example), Section 4.1 and Section 4.2 (Concrete Examples); specs/imola_metric_dp_user_level.md, sections
2.5 and 6, T28.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive

__all__ = ["alpha_for_goals", "composition_alpha0", "linear_query_noise"]


def _fraction_of_unit(name: str, value: object) -> sympy.Expr:
    expr = require_positive(name, value)
    if exact_sign(expr - 1) > 0:
        raise InvalidParameterError(f"{name} must be in (0, 1]. Got {expr}")
    return expr


def alpha_for_goals(goals: Sequence[tuple[object, object, object]]) -> sympy.Expr:
    """The d_EM-DP alpha that protects every goal: alpha = min_i eps_i / (tau_i q_i).

    A goal (eps, tau, q) asks that changing a tau-fraction of a user's data by an average distance q
    (normalized, so tau, q in (0, 1]) costs at most eps. Such a change has d_EM <= tau q, and an
    alpha-d_EM-DP mechanism protects it with alpha tau q <= eps exactly when alpha <= eps / (tau q).

    Args:
        goals: one or more (eps, tau, q) with eps > 0 and tau, q in (0, 1].

    Returns:
        The exact minimum (25 for the paper's ((1/5, 1/30, 2/25), (1/5, 1, 1/125))).

    References: 002_1def8c9789d6e1bd.txt, Section 3, "Setting the Privacy Parameters" and its Concrete
    Example (alpha = inf over (q, tau) of E(q, tau) / (q tau)).
    """
    if isinstance(goals, (str, bytes)) or not isinstance(goals, Sequence) or not goals:
        raise InvalidParameterError(f"goals must be a non-empty sequence of (eps, tau, q). Got {goals!r}")
    ratios = []
    for i, goal in enumerate(goals):
        if not isinstance(goal, Sequence) or len(goal) != 3:
            raise InvalidParameterError(f"goals[{i}] must be a triple (eps, tau, q). Got {goal!r}")
        eps = require_positive(f"goals[{i}].eps", goal[0])
        ratios.append(eps / (_fraction_of_unit(f"goals[{i}].tau", goal[1]) * _fraction_of_unit(f"goals[{i}].q", goal[2])))
    return sympy.Min(*ratios)


def composition_alpha0(alpha: object, m: object) -> sympy.Expr:
    """The per-item alpha0 = alpha / m that composition needs for PrivEMDItemWise on m items.

    Releasing m alpha0 d_X-DP items (shuffled or not) is (m alpha0)-bounded d_EM-DP: by Lemma 2.1 the
    items can be matched with total distance m d_EM, and the per-item losses add up.

    Args:
        alpha: target alpha > 0; m: items per user (integer >= 1).

    References: 002_1def8c9789d6e1bd.txt, Section 4.2 (composition baseline of Fernandes et al. 2019)
    and its Concrete Example (alpha0 = alpha/m = 0.025).
    """
    return require_positive("alpha", alpha) / require_int("m", m, minimum=1)


def linear_query_noise(ell: object, alpha: object, *, n: object = 1) -> sympy.Expr:
    """The noise magnitude of PrivEMDLinear in the paper's example: l / alpha per user, l / (alpha sqrt n) averaged.

    With omega = 1/alpha (local model, Lemma 4.2) a one-dimensional query gets noise l g U with
    g ~ Gamma(1, omega), of expected magnitude l / alpha; the mean of n users' independent noises has
    standard deviation of order l / (alpha sqrt n) (the paper's arithmetic; constants such as sqrt 2 for
    Laplace noise are ignored, as in the paper).

    Args:
        ell: Lipschitz bound l > 0 of the query; alpha: alpha > 0; n: users averaged (integer >= 1).

    References: 002_1def8c9789d6e1bd.txt, Section 4.1, Concrete Example (0.04 per user, 1.26e-4 for
    n = 10^5).
    """
    return require_positive("ell", ell) / (require_positive("alpha", alpha) * sympy.sqrt(require_int("n", n, minimum=1)))
