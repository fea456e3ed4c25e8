"""Utility bounds of FreqEstLocal on the clustered metric B x C: Theorem 6.5 (eq. 8), Theorem 6.6, Corollary 6.8.

Both bound max_K E[d_EM(F~, K~)] for the estimate F~ = v B of Algorithm 4 with n users of m items each.
They are returned as :class:`~dpcert.accountant.bound_result.BoundResult`: the exact sympy value and floats
rounded outward. :func:`theorem_6_6_steps` gives the intermediate quantities of the proof of Theorem 6.6
(Appendix D.3) so each inequality of its chain can be checked exactly. :func:`corollary_6_8_bound` is the
central (shuffle) model: GKRR at the alpha0 of eq. (7), error 4 sqrt(k^3/(mn)) + 64 sqrt(k^3)/(alpha n)
sqrt(ln(4 m e^alpha / delta)); F~ has the same law in both models, so Theorem 6.6 at that alpha0 bounds it too.

References: 002_1def8c9789d6e1bd.txt (Imola, Roy Chowdhury, Chaudhuri), Section 6.2, Appendices D.2, D.3.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.calibration import imola_recipe_alpha0
from dpcert.mechanisms.exact_arithmetic import exact_max, exact_sign
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, to_exact
from dpcert.mechanisms.metric_user_level.gkrr import ClusteredMetric, GeneralizedKRR

__all__ = ["SOURCES", "Theorem6_6Steps", "corollary_6_8_bound", "norm_1_to_2", "theorem_6_5_bound", "theorem_6_6_bound",
           "theorem_6_6_steps"]

SOURCES = {
    "theorem6.5": "002_1def8c9789d6e1bd.txt, Theorem 6.5, eq. (8)",
    "theorem6.6": "002_1def8c9789d6e1bd.txt, Theorem 6.6",
    "theorem6.6-steps": "002_1def8c9789d6e1bd.txt, Appendix D.3 (proof of Theorem 6.6)",
    "corollary6.8": "002_1def8c9789d6e1bd.txt, Corollary 6.8 and Appendix D.5 (alpha0 from eq. (7))",
}
"""Paper and theorem behind each result name."""


def _matrix(name: str, value: object) -> sympy.ImmutableMatrix:
    try:
        matrix = sympy.ImmutableMatrix(value)
    except (TypeError, ValueError, sympy.SympifyError) as error:
        raise InvalidParameterError(f"{name} must be a matrix given as a list of rows. Got {value!r}") from error
    if matrix.rows == 0 or matrix.cols == 0:
        raise InvalidParameterError(f"{name} must be a non-empty matrix")
    return matrix.applyfunc(lambda e: to_exact(name, e))


def _max_column_norm_squared(matrix: sympy.MatrixBase) -> sympy.Expr:
    return exact_max(sympy.Add(*(e**2 for e in matrix.col(j))) for j in range(matrix.cols))


def norm_1_to_2(matrix: object) -> sympy.Expr:
    """||M||_{1->2} = sup over ||x||_1 <= 1 of ||M x||_2 = the largest l2 norm of a column of M, exactly.

    The supremum of a convex function over the l1 ball is attained at a vertex +-e_j, where it is the
    norm of column j.

    References: 002_1def8c9789d6e1bd.txt, Section 6.1 (matrix norms).
    """
    return sympy.sqrt(_max_column_norm_squared(_matrix("matrix", matrix)))


def _sizes(s: object, t: object, r: object, m: object, n: object) -> tuple[ClusteredMetric, int, int]:
    return ClusteredMetric(s, t, r), require_int("m", m, minimum=1), require_int("n", n, minimum=1)


def theorem_6_5_bound(B: object, s: object, t: object, r: object, m: object, n: object) -> BoundResult:
    """Eq. (8): max_K E[d_EM(F~, K~)] <=

        r sqrt(s t (||B^T||^2_{1->2} - 1)/(m n)) + sqrt(s (||P^T B^T||^2_{1->2} - 1)/(m n)).

    Args:
        B: the estimator, a right inverse of the item mechanism's transition matrix A (A B = I), with one
            row per output and one column per point (b, c) of B x C (index b t + c).
        s, t, r: the clustered metric; m items per user; n users.

    P = I_B (x) 1_C sums within clusters. The first term pays for moving mass within clusters (distance r),
    the second for moving it between clusters; each is a variance bound on F~ - K~ = (1/(mn)) sum_i
    (z_i - A_{k_i}) B over the mn randomized items (Appendix D.2).

    References: 002_1def8c9789d6e1bd.txt, Theorem 6.5 and Appendix D.2.
    """
    metric, m, n = _sizes(s, t, r, m, n)
    estimator = _matrix("B", B)
    if estimator.cols != metric.k or estimator.rows < metric.k:
        raise InvalidParameterError(f"B must have {metric.k} columns (one per point) and at least as many rows. "
                                    f"Got {estimator.rows}x{estimator.cols}")
    within = _max_column_norm_squared(estimator.T) - 1
    between = _max_column_norm_squared((estimator * metric.cluster_sums).T) - 1
    value = metric.r * sympy.sqrt(metric.k * within / (m * n)) + sympy.sqrt(metric.s * between / (m * n))
    return BoundResult("theorem6.5", SOURCES["theorem6.5"], value, "d_EM",
                       note="expected d_EM error of F~ = v B, any right inverse B of A")


def theorem_6_6_bound(alpha0: object, s: object, t: object, r: object, m: object, n: object) -> BoundResult:
    """Theorem 6.6: FreqEstLocal with GKRR_alpha0 and B = A^{-1} has max_K E[d_EM(F~, K~)] <=

        r sqrt(s t^3/(m n)) (e^alpha0 + s)/(e^alpha0 - e^((1-r) alpha0))
          + sqrt(s^2 t^2/(m n)) sqrt(s + 2(e^alpha0 - 1)) / (e^alpha0 + (t - 1) e^((1-r) alpha0) - t).

    References: 002_1def8c9789d6e1bd.txt, Theorem 6.6 and Appendix D.3.
    """
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    _, m, n = _sizes(s, t, r, m, n)
    e_same, e_cluster = mechanism.weights
    s, t, r = mechanism.s, mechanism.t, mechanism.r
    z_prime = e_same + (t - 1) * e_cluster - t
    value = (r * sympy.sqrt(sympy.Rational(s * t**3, m * n)) * (e_same + s) / (e_same - e_cluster)
             + sympy.sqrt(sympy.Rational(s**2 * t**2, m * n)) * sympy.sqrt(s + 2 * (e_same - 1)) / z_prime)
    return BoundResult("theorem6.6", SOURCES["theorem6.6"], value, "d_EM",
                       note="expected d_EM error of FreqEstLocal with GKRR_alpha0 and B = A^{-1}")


def corollary_6_8_bound(alpha: object, delta: object, s: object, t: object, r: object, m: object,
                        n: object) -> BoundResult:
    """Corollary 6.8: FreqEstLocal with GKRR_alpha0 in the central (shuffle) model, alpha0 from eq. (7), has

        max_K E[d_EM(F~, K~)] <= 4 sqrt(k^3/(m n)) + 64 sqrt(k^3)/(alpha n) sqrt(ln(4 m e^alpha / delta)),  k = s t.

    The central estimate has the same law as the local one (equal sizes: v is the total output count over
    mn), so Theorem 6.6 at the same alpha0 is a proved bound of the same error. ``valid`` is True when the
    printed closed form is at least Theorem 6.6's value there (decided exactly), so that it is certified;
    the note gives alpha0 and Theorem 6.6's value. (Appendix D.5 prints the first term as
    4 sqrt(s t^3/(m n)), smaller than the statement's 4 sqrt(k^3/(m n)) when s > 1; the statement's form is
    used.)

    Args:
        alpha: target d_EM-DP alpha (> 0); delta in (0, 1); s, t, r: the clustered metric; m items per
            user; n users (the recipe needs alpha sqrt(n) < m sqrt(n), i.e. alpha < m, in its second case).

    References: 002_1def8c9789d6e1bd.txt, Corollary 6.8, eq. (7), Appendix D.5; specs/imola_metric_dp_user_level.md,
    A16, A20.
    """
    metric, m, n = _sizes(s, t, r, m, n)
    alpha = to_exact("alpha", alpha)
    alpha0 = imola_recipe_alpha0(alpha, m, delta, n=n)
    delta = to_exact("delta", delta)
    k = metric.k
    value = (4 * sympy.sqrt(sympy.Rational(k**3, m * n))
             + 64 * sympy.sqrt(k**3) / (alpha * n) * sympy.sqrt(sympy.log(4 * m * sympy.exp(alpha) / delta)))
    exact = theorem_6_6_bound(alpha0, s, t, r, m, n).value
    certified = exact_sign(value - exact) >= 0
    note = (f"alpha0 = {alpha0} (~{float(alpha0):.6g}) from eq. (7); Theorem 6.6 there gives "
            f"{float(exact):.6g}" + ("" if certified else ", above the printed closed form"))
    return BoundResult("corollary6.8", SOURCES["corollary6.8"], value, "d_EM", certified, note)


@dataclass(frozen=True)
class Theorem6_6Steps:
    """The two chains of inequalities in the proof of Theorem 6.6, each from the exact quantity to its bound.

    within:  ||(A^{-1})^T||^2_{1->2} - 1  <=  (a')^2 - 1  <=  (t (e^alpha0 + s) / (e^alpha0 - e^((1-r) alpha0)))^2
    between: ||(A^{-1} P)^T||^2_{1->2} - 1  <=  (s t c')^2 - 2 s t c'  <=  s t^2 (s + 2(e^alpha0 - 1)) / Z'^2

    with Z' = e^alpha0 + (t - 1) e^((1-r) alpha0) - t (specs/imola_metric_dp_user_level.md section 7, T23).
    """

    within: tuple[BoundResult, BoundResult, BoundResult]
    between: tuple[BoundResult, BoundResult, BoundResult]

    def holds(self) -> bool:
        """Whether both chains are non-decreasing, decided exactly."""
        return all(exact_sign(later.value - earlier.value) >= 0
                   for chain in (self.within, self.between) for earlier, later in zip(chain, chain[1:]))


def theorem_6_6_steps(alpha0: object, s: object, t: object, r: object) -> Theorem6_6Steps:
    """The exact quantities of the proof of Theorem 6.6 for GKRR_alpha0 on B x C (see :class:`Theorem6_6Steps`).

    References: 002_1def8c9789d6e1bd.txt, Appendix D.3.
    """
    mechanism = GeneralizedKRR(alpha0, s, t, r)
    s, t = mechanism.s, mechanism.t
    e_same, e_cluster = mechanism.weights
    a_prime, _, c_prime = mechanism.inverse_coefficients
    inverse = mechanism.inverse_matrix
    z_prime = e_same + (t - 1) * e_cluster - t
    source = SOURCES["theorem6.6-steps"]

    def step(name: str, value: sympy.Expr) -> BoundResult:
        return BoundResult(name, source, value, "squared norm")

    within = (step("within-exact", _max_column_norm_squared(inverse.T) - 1),
              step("within-a'", a_prime**2 - 1),
              step("within-closed", (t * (e_same + s) / (e_same - e_cluster)) ** 2))
    between = (step("between-exact", _max_column_norm_squared((inverse * mechanism.metric.cluster_sums).T) - 1),
               step("between-c'", (s * t * c_prime) ** 2 - 2 * s * t * c_prime),
               step("between-closed", s * t**2 * (s + 2 * (e_same - 1)) / z_prime**2))
    return Theorem6_6Steps(within, between)
