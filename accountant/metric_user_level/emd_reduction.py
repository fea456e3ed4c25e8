"""From bounded to discrete d_EM-DP by sampling (BoundedEMDReduction), and d_EM-DP to user-level DP.

BoundedEMDReduction (Algorithm 3 of Imola, Roy Chowdhury, Chaudhuri) draws s items with replacement from
each user's dataset and runs a bounded d_EM-DP mechanism M on the samples. Lemma 5.2: sampling along an
optimal coupling keeps the empirical distance below (1 + sqrt 2) mu + (3/s) ln(1/delta) except with
probability delta (mu = d_EM of the datasets). Theorem 5.3: if M is (alpha, delta)-bounded d_EM-DP with

    alpha = eps / ((1 + sqrt 2) r + (3/s) ln(1/delta)),

the reduction is (eps, 2 delta, r)-discrete d_EM-DP. The informal Theorem 1.3 states (alpha r, delta, r)
instead, which drops the constants and the factor 2 (spec A10): it is reported, never as valid.

References: 002_1def8c9789d6e1bd.txt, Algorithm 3, Lemma 5.2, Theorem 5.3, Theorem 1.3, Appendix C;
specs/imola_metric_dp_user_level.md, sections 3.3, 5 (item 3), 7 (T15, T16, T26) and 8 (A9, A10).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.metric_user_level.group_privacy import PairGuarantee, discrete_to_graded
from dpcert.accountant.input_validation import _probability_open
from dpcert.accountant.symbolic_facts import SymbolicFact, fact_from_cases, nonnegative_everywhere, square_certificate
from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    decided_sign,
    exact_sign,
    require_int,
    require_positive,
    to_exact,
)

__all__ = [
    "DiscreteReduction",
    "bernstein_constant_facts",
    "emd_discrete_family",
    "lemma_5_2_threshold",
    "lemma_5_2_threshold_expression",
    "theorem_1_3_informal",
    "theorem_5_3",
    "theorem_5_3_alpha_expression",
    "user_level_from_discrete",
    "user_level_from_metric",
]

SOURCE = "002_1def8c9789d6e1bd.txt"


def lemma_5_2_threshold_expression(mu: sympy.Expr, s: sympy.Expr, delta: sympy.Expr) -> sympy.Expr:
    """(1 + sqrt 2) mu + (3/s) ln(1/delta) (works on symbols)."""
    return (1 + sympy.sqrt(2)) * mu + 3 * sympy.log(1 / delta) / s


def _unit(name: str, value: object, *, zero: bool) -> sympy.Expr:
    """A number in [0, 1] (zero=True) or (0, 1]."""
    expr = to_exact(name, value)
    low = decided_sign(name, expr)
    if low < 0 or (low == 0 and not zero) or decided_sign(name, expr - 1) > 0:
        raise InvalidParameterError(f"{name} must be in {'[0, 1]' if zero else '(0, 1]'}. Got {expr}")
    return expr


def lemma_5_2_threshold(mu: object, s: object, delta: object) -> sympy.Expr:
    """Lemma 5.2's threshold: Pr[d_EM(L, L') >= (1 + sqrt 2) mu + (3/s) ln(1/delta)] <= delta.

    L and L' are s i.i.d. pairs from a minimum-cost coupling of K and K' (normalized histograms), and
    mu = d_EM(K, K').

    Args:
        mu: d_EM(K, K') in [0, 1].
        s: samples per user (integer >= 1).
        delta: failure probability in (0, 1).

    References: 002_1def8c9789d6e1bd.txt, Lemma 5.2 and Appendix C.1 (the main text's sketch prints
    2 d_EM + (6/s) log(1/delta); the lemma's form is used, spec A9). Why it holds: d_EM(L, L') is at most
    the mean of the s i.i.d. distances X_i in [0, 1] with E X_i = mu and E X_i^2 <= mu, and Bernstein's
    inequality bounds their sum (constants in :func:`bernstein_constant_facts`).
    """
    mu = _unit("mu", mu, zero=True)
    s = require_int("s", s, minimum=1)
    delta = _probability_open("delta", delta)
    return lemma_5_2_threshold_expression(mu, sympy.Integer(s), delta)


def theorem_5_3_alpha_expression(eps: sympy.Expr, r: sympy.Expr, s: sympy.Expr, delta: sympy.Expr) -> sympy.Expr:
    """alpha = eps / ((1 + sqrt 2) r + (3/s) ln(1/delta)) (works on symbols)."""
    return eps / lemma_5_2_threshold_expression(r, s, delta)


@dataclass(frozen=True)
class DiscreteReduction:
    """Theorem 5.3 at given (eps, r, s, delta): M (alpha, delta)-bounded d_EM-DP gives (eps, delta_out, r)-discrete.

    Attributes:
        eps, r, s, delta: the inputs (exact; s an int).
        alpha: eps / ((1 + sqrt 2) r + (3/s) ln(1/delta)), the bounded d_EM-DP parameter M needs.
        delta_out: 2 delta, the discrete guarantee's delta.
    """

    eps: sympy.Expr
    r: sympy.Expr
    s: int
    delta: sympy.Expr
    alpha: sympy.Expr
    delta_out: sympy.Expr


def _reduction_inputs(eps: object, r: object, s: object, delta: object) -> tuple[sympy.Expr, sympy.Expr, int, sympy.Expr]:
    return (require_positive("eps", eps), _unit("r", r, zero=False), require_int("s", s, minimum=1),
            _probability_open("delta", delta))


def theorem_5_3(eps: object, r: object, s: object, delta: object) -> DiscreteReduction:
    """Theorem 5.3: the bounded d_EM-DP parameter that makes BoundedEMDReduction (eps, 2 delta, r)-discrete.

    alpha = eps / ((1 + sqrt 2) r + (3/s) ln(1/delta)); delta_out = 2 delta. The same holds in the local
    and the central model (the paper's central hypothesis cites Definition 3.1; Definition 3.2 is meant,
    spec A11).

    Args:
        eps: eps > 0 of the discrete guarantee.
        r: the distance unit, in (0, 1].
        s: samples drawn per user (integer >= 1).
        delta: delta of M, in (0, 1).

    References: 002_1def8c9789d6e1bd.txt, Theorem 5.3 and Appendix C.2. Why it holds: couple the two
    sample vectors through s copies of the optimal coupling (Lemma A.1); on the event of Lemma 5.2,
    alpha d_EM(L, L') <= eps, so the divergence is <= delta there and <= 1 on the rest, of probability
    <= delta.
    """
    eps, r, s, delta = _reduction_inputs(eps, r, s, delta)
    return DiscreteReduction(eps, r, s, delta, theorem_5_3_alpha_expression(eps, r, sympy.Integer(s), delta),
                             2 * delta)


def theorem_1_3_informal(eps: object, r: object, s: object, delta: object) -> BoundResult:
    """The informal Theorem 1.3 at target (eps, delta, r): alpha = eps / r, output delta (not 2 delta).

    Reported with valid=False: it drops Theorem 5.3's constants (1 + sqrt 2, and 3 ln(1/delta)/s, which
    Theorem 1.3's condition r >= 2 ln(1/delta)/s only makes comparable to r) and the factor 2 on delta,
    so it is not a guarantee (spec A10); use :func:`theorem_5_3`.

    References: 002_1def8c9789d6e1bd.txt, Theorem 1.3 (informal version of Theorem 5.3).
    """
    eps, r, s, delta = _reduction_inputs(eps, r, s, delta)
    formal = theorem_5_3(eps, r, s, delta).alpha
    condition = 2 * sympy.log(1 / delta) / s
    holds = exact_sign(r - condition) >= 0
    note = (f"informal: (alpha r, delta, r)-discrete claimed for r >= 2 ln(1/delta)/s = {float(condition):.6g} "
            f"({'met' if holds else 'not met'} here); not a guarantee (spec A10): Theorem 5.3 needs alpha = "
            f"{float(formal):.6g} ({float(eps / r / formal):.4g}x smaller) and gives delta_out = 2 delta")
    return BoundResult("theorem1.3-informal", f"{SOURCE}, Theorem 1.3 (informal)", eps / r, "alpha", False, note,
                       bounds="lower")


def emd_discrete_family(eps: object, r: object, s: object, delta: object) -> list[BoundResult]:
    """BoundedEMDReduction: what M must satisfy for an (eps, ., r)-discrete d_EM-DP reduction with s samples.

    Results, in order: ``theorem5.3`` (alpha, the bounded d_EM-DP parameter M needs),
    ``theorem5.3-delta`` (2 delta, the discrete guarantee's delta) and ``theorem1.3-informal`` (eps / r,
    valid=False).

    References: 002_1def8c9789d6e1bd.txt, Theorems 5.3 and 1.3.
    """
    reduction = theorem_5_3(eps, r, s, delta)
    threshold = lemma_5_2_threshold_expression(reduction.r, sympy.Integer(reduction.s), reduction.delta)
    source = f"{SOURCE}, Theorem 5.3"
    return [
        BoundResult("theorem5.3", source, reduction.alpha, "alpha", True,
                    f"M (alpha', delta)-bounded d_EM-DP (local or central) with alpha' <= alpha (the lower float "
                    f"is safe) makes BoundedEMDReduction with s = {reduction.s} samples (eps, 2 delta, r)-discrete "
                    f"d_EM-DP; alpha = eps / ((1+sqrt 2) r + (3/s) ln(1/delta)) = eps / {float(threshold):.6g}",
                    bounds="lower"),
        BoundResult("theorem5.3-delta", source, reduction.delta_out, "probability", True,
                    "delta of the discrete guarantee: 2 delta (delta from M, delta from Lemma 5.2's tail)"),
        theorem_1_3_informal(reduction.eps, reduction.r, reduction.s, reduction.delta),
    ]


def bernstein_constant_facts() -> tuple[SymbolicFact, ...]:
    """The constants of Lemma 5.2's proof, each proved for every parameter value with sympy.

    With V = s mu >= 0, L = ln(1/delta) > 0 and t = max(sqrt(4 V L), 4 L / 3), written V = v^2, L = l^2:

    1. t^2 >= 2 L (V + t/3), so Bernstein's bound exp(-t^2 / (2 (V + t/3))) is <= delta (two cases, by
       which term attains the max, each made free of side conditions by a substitution);
    2. 2 sqrt(x y) <= sqrt 2 x + y / sqrt 2 for x, y >= 0 (a square);
    3. 4/3 + sqrt 2 <= 3 (the paper's constant);
    4. V + t <= (1 + sqrt 2) V + 3 L, i.e. the deviation event of Bernstein contains Lemma 5.2's event
       (t <= sqrt(4 V L) + 4 L / 3 and a sum of squares).

    References: 002_1def8c9789d6e1bd.txt, Appendix C.1; specs/imola_metric_dp_user_level.md, section 5
    item 3.
    """
    v, l, w = sympy.symbols("v l w", nonnegative=True)
    lp = sympy.Symbol("l", positive=True)
    a, b = sympy.symbols("a b", nonnegative=True)
    source = f"{SOURCE}, Appendix C.1 (proof of Lemma 5.2)"

    def bernstein_excess(t: sympy.Expr, V: sympy.Expr, L: sympy.Expr) -> sympy.Expr:
        return t**2 - 2 * L * (V + t / 3)

    # case sqrt(4VL) >= 4L/3, i.e. v >= 2l/3: v = 2l/3 + w; case v <= 2l/3: l = 3(v + w)/2
    case_a = bernstein_excess(2 * v * lp, v**2, lp**2).subs(v, 2 * lp / 3 + w)
    lb = 3 * (v + w) / 2
    case_b = bernstein_excess(4 * lb**2 / 3, v**2, lb**2)
    root2 = sympy.sqrt(2)
    quarter = sympy.root(2, 4)
    dominance = (1 + root2) * v**2 + 3 * l**2 - (v**2 + 2 * v * l + sympy.Rational(4, 3) * l**2)
    return (
        fact_from_cases("t^2 >= 2 ln(1/delta) (s mu + t/3) for t = max(sqrt(4 s mu ln(1/delta)), (4/3) ln(1/delta))",
                        source, {"t = sqrt(4 s mu ln(1/delta))": nonnegative_everywhere(case_a),
                                 "t = (4/3) ln(1/delta)": nonnegative_everywhere(case_b)}),
        fact_from_cases("2 sqrt(x y) <= sqrt(2) x + y / sqrt(2) for x, y >= 0", source,
                        {"x = a^2, y = b^2": square_certificate(root2 * a**2 + b**2 / root2 - 2 * a * b,
                                                                quarter * a - b / quarter)}),
        fact_from_cases("4/3 + sqrt(2) <= 3", source,
                        {"exact": (exact_sign(3 - sympy.Rational(4, 3) - root2) >= 0, "3 - 4/3 - sqrt(2) > 0")}),
        fact_from_cases("s mu + t <= (1 + sqrt(2)) s mu + 3 ln(1/delta)", source,
                        {"t <= sqrt(4 s mu ln(1/delta)) + (4/3) ln(1/delta)": square_certificate(
                            dominance, quarter * v - l / quarter, rest=(sympy.Rational(5, 3) - 1 / root2) * l**2)}),
    )


def user_level_from_metric(alpha: object, delta: object) -> PairGuarantee:
    """(alpha, delta)-unbounded d_EM-DP implies (alpha, delta)-user-level DP (and (eps, delta) for eps >= alpha).

    Args:
        alpha: alpha > 0 of the d_EM-DP guarantee.
        delta: delta in [0, 1].

    References: 002_1def8c9789d6e1bd.txt, Section 3 and Table 1; specs/imola_metric_dp_user_level.md,
    T26. Why it holds: every pair of datasets has d_EM <= 1 because d_X <= 1, so alpha d_EM <= alpha,
    and the hockey-stick divergence D_{e^eps} does not increase with eps.
    """
    alpha = require_positive("alpha", alpha)
    return PairGuarantee(alpha, _unit("delta", delta, zero=True))


def user_level_from_discrete(eps: object, delta: object, r: object) -> PairGuarantee:
    """(eps, delta, r)-discrete d_EM-DP implies user-level DP: (eps, delta) when r >= 1, else via group privacy.

    The guarantee at d_EM = 1 of :func:`dpcert.accountant.metric_user_level.group_privacy.discrete_to_graded`: k = ceil(1/r) steps,
    (k eps, delta sum_{j<k} e^{j eps}).

    References: 002_1def8c9789d6e1bd.txt, Table 1 ("implies user-level DP when r >= 1") and Fact 5.1 as
    corrected (spec A1, T26). Why it holds: d_EM <= 1 for every pair of datasets.
    """
    return discrete_to_graded(eps, delta, r, 1)
