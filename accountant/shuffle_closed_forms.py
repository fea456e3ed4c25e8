"""Closed-form amplification-by-shuffling bounds, as exact sympy expressions.

Each function validates its inputs (ranges: :func:`~dpcert.accountant.shuffle_common.validate_shuffle_inputs`),
decides its theorem's validity condition exactly (sympy signs, never floats; a condition whose sign cannot
be decided counts as not established), and returns a :class:`~dpcert.accountant.bound_result.BoundResult` whose
value is the exact expression and whose enclosure [lower_value, upper_value] is evaluated in mpmath
interval arithmetic with as many bits as the expression's cancellations need
(:func:`~dpcert.accountant.shuffle_intervals.iv_evaluate`): at eps0 = 10^-12 and n = 10^30 the values are about
10^-38 and lie in log(1 + x) with x of that size, where a 30-digit evaluation returns 0. A broken condition
gives ``valid=False`` and the reason in ``note``.

Notation: s = e^eps0; n users; the shuffled output is (eps, delta)-DP for neighbouring datasets that
differ in one user's input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy
from scipy.optimize import brentq

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.shuffle_common import (
    DELTA_MIN,
    EPS0_RANGE,
    N_MAX,
    SOURCES,
    invalid,
    randomizer_label,
    require_open_unit,
    validate_shuffle_inputs,
)
from dpcert.accountant.shuffle_intervals import iv_evaluate
from dpcert.accountant.shuffle_numeric import stronger_clones_allowed
from dpcert.mechanisms.parameters import UndecidedSignError, exact_sign, require_int, require_positive, require_real
from dpcert.proofs.certified_root import certified_root

__all__ = [
    "efmrtt19",
    "fmt21_approx",
    "fmt21_closed",
    "fmt21_closed_expression",
    "fmt23_closed",
    "fmt23_closed_expression",
    "imola_alpha",
    "imola_theorem_4_3",
    "imola_theorem_4_3_at_delta",
    "ImolaTheorem4_4",
    "imola_theorem_4_4",
    "imola_theorem_4_4_alpha",
]


def _holds(expr: sympy.Expr) -> bool:
    """Whether the closed-form real ``expr`` is >= 0, decided exactly (False when undecidable)."""
    try:
        return exact_sign(sympy.sympify(expr)) >= 0
    except UndecidedSignError:
        return False


def _strict(expr: sympy.Expr) -> bool:
    """Whether the closed-form real ``expr`` is > 0, decided exactly (False when undecidable)."""
    try:
        return exact_sign(sympy.sympify(expr)) > 0
    except UndecidedSignError:
        return False


def _closed_form(name: str, value: sympy.Expr, note: str) -> BoundResult:
    """A valid result: the exact ``value`` and a rigorous interval enclosure of it (see the module docstring)."""
    lower, upper = iv_evaluate(value)
    return BoundResult(name, SOURCES[name], value, "eps", True, note, lower, upper)


# ---------------------------------------------------------------------------------------------
# Erlingsson et al. 2019
# ---------------------------------------------------------------------------------------------

def efmrtt19(eps0: object, n: object, delta: object) -> BoundResult:
    """Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta (SODA 2019): eps = 12 eps0 sqrt(ln(1/delta)/n).

    Validity: eps0 <= 1/2, n >= 1000 and delta <= 1/100 (the regime the constant 12 is proved for).
    Why it holds: a changed report hides among ~n reports whose randomness is shared across the two
    datasets; the privacy loss concentrates at eps0 / sqrt(n) scale.

    References:
        Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta, "Amplification by shuffling: from
        local to central differential privacy via anonymity" (SODA 2019); the constant and conditions as
        listed in PEERS.md (the theorem number was not verified against the paper's text).
    """
    x = validate_shuffle_inputs(eps0, n, delta)
    reasons = []
    if exact_sign(x.eps0 - sympy.Rational(1, 2)) > 0:
        reasons.append(f"eps0 = {x.eps0} > 1/2")
    if x.n < 1000:
        reasons.append(f"n = {x.n} < 1000")
    if exact_sign(x.delta - sympy.Rational(1, 100)) > 0:
        reasons.append(f"delta = {x.delta} > 1/100")
    if reasons:
        return invalid("efmrtt19", "needs eps0 <= 1/2, n >= 1000, delta <= 1/100: " + ", ".join(reasons))
    return _closed_form("efmrtt19", 12 * x.eps0 * sympy.sqrt(sympy.log(1 / x.delta) / x.n),
                        "eps = 12 eps0 sqrt(ln(1/delta)/n)")


# ---------------------------------------------------------------------------------------------
# Feldman, McMillan, Talwar 2021 / 2023
# ---------------------------------------------------------------------------------------------

def fmt21_closed_expression(eps0: sympy.Expr, n: sympy.Expr, delta: sympy.Expr) -> sympy.Expr:
    """ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 ln(4/delta)/n) + 8 e^eps0/n)) (works on symbols)."""
    s = sympy.exp(eps0)
    return sympy.log(1 + (s - 1) / (s + 1) * (8 * sympy.sqrt(s * sympy.log(4 / delta) / n) + 8 * s / n))


def fmt21_closed(eps0: object, n: object, delta: object) -> BoundResult:
    """Feldman, McMillan, Talwar (FOCS 2021), Theorem 3.1.

    eps = ln(1 + (e^eps0 - 1)/(e^eps0 + 1) * (8 sqrt(e^eps0 ln(4/delta) / n) + 8 e^eps0 / n)),
    valid for every eps0-LDP randomizer when eps0 <= ln(n / (16 ln(2/delta))) (as printed; a maintainer
    discussion on the authors' repository suggests ln(4/delta), which the note reports when it matters).

    Why it holds: each other user is, with probability e^-eps0, a "clone" of the changed user's two
    possible reports (Lemma 3.3), and the clone counts concentrate (Lemma A.1).

    References:
        Feldman, McMillan, Talwar, "Hiding Among the Clones" (FOCS 2021; arXiv:2012.12803), Theorem 3.1.
    """
    x = validate_shuffle_inputs(eps0, n, delta)
    limit = sympy.log(sympy.Integer(x.n) / (16 * sympy.log(2 / x.delta)))
    if not _holds(limit - x.eps0):
        return invalid("fmt21-closed", f"needs eps0 <= ln(n/(16 ln(2/delta))) = {float(limit.evalf(20)):.6g}; "
                                       f"got eps0 = {x.eps0}")
    note = "eps0 <= ln(n/(16 ln(2/delta))) holds"
    if not _holds(sympy.log(sympy.Integer(x.n) / (16 * sympy.log(4 / x.delta))) - x.eps0):
        note += "; the stricter eps0 <= ln(n/(16 ln(4/delta))) (suggested correction) does not"
    return _closed_form("fmt21-closed", fmt21_closed_expression(x.eps0, x.n, x.delta), note)


def fmt21_approx(eps0: object, n: object, delta: object, *, delta0: object) -> BoundResult:
    """Feldman, McMillan, Talwar (FOCS 2021), Theorem 3.8: n shuffled (eps0, delta0)-LDP randomizers.

    In the form two independent implementations use (the theorem's text was not at hand): Theorem 3.1's eps at
    (n, eps0, delta'), for the total

        delta = delta' + (e^eps + 1) (1 + e^-eps0 / 2) n delta0,

    under eps0 <= ln(n / (16 ln(4/delta'))) (the stricter ln(4/delta') of the authors' own code; the paper's
    ln(2/delta) is disputed in their issue tracker). delta0 must lie in (0, delta/n). delta' is searched in floats
    (the largest meeting both conditions), then both are decided exactly at the rational delta' reported, so the
    eps is the theorem's at a total delta <= ``delta``. The claim ``shuffle-fmt21-approx-above-exact-leaky-rr``
    checks it against the exact shuffled law of binary randomized response that leaks its input with
    probability delta0.

    References:
        Feldman, McMillan, Talwar, "Hiding Among the Clones" (FOCS 2021; arXiv:2012.12803), Theorem 3.8.
    """
    x = validate_shuffle_inputs(eps0, n, delta)
    d0 = require_real("delta0", delta0, low=0, high=x.delta / x.n, low_open=True, high_open=True)
    share = (1 + sympy.exp(-x.eps0) / 2) * x.n * d0
    e, total, share_float = math.exp(float(x.eps0)), float(x.delta), float(share)
    symbol = sympy.Symbol("delta_inner", positive=True)
    theorem_3_1 = sympy.lambdify(symbol, fmt21_closed_expression(x.eps0, x.n, symbol), "math")

    def excess(inner: float) -> float:  # float guide: total used at delta' minus delta
        return inner + (math.exp(theorem_3_1(inner)) + 1) * share_float - total

    def condition(inner: sympy.Expr) -> sympy.Expr:
        return sympy.log(sympy.Integer(x.n) / (16 * sympy.log(4 / inner))) - x.eps0

    def holds(inner: sympy.Expr) -> bool:
        eps = fmt21_closed_expression(x.eps0, x.n, inner)
        return _holds(condition(inner)) and _holds(x.delta - inner - (sympy.exp(eps) + 1) * share)

    smallest = max(4 * math.exp(-x.n / (16 * e)), 1e-300)  # where the condition starts to hold
    if not smallest < total or excess(smallest * (1 + 1e-9)) >= 0:
        return invalid("fmt21-approx", f"no delta' meets eps0 <= ln(n/(16 ln(4/delta'))) and delta' + (e^eps + 1)"
                                       f"(1 + e^-eps0/2) n delta0 <= delta at eps0 = {x.eps0}, n = {x.n}, "
                                       f"delta0 = {delta0}", bounds="upper")
    root = brentq(excess, smallest * (1 + 1e-9), total, rtol=1e-12)
    for backoff in (1e-9, 1e-6, 1e-3):
        inner = sympy.Rational(root * (1 - backoff))
        if holds(inner):
            note = (f"delta' = {float(inner):.6g} for Theorem 3.1, the rest of delta for the randomizers' delta0 = "
                    f"{delta0}; eps0 <= ln(n/(16 ln(4/delta'))) holds")
            return _closed_form("fmt21-approx", fmt21_closed_expression(x.eps0, x.n, inner), note)
    return invalid("fmt21-approx", "the search's delta' was not certified", bounds="upper")


def fmt23_closed_expression(eps0: sympy.Expr, n: sympy.Expr, delta: sympy.Expr) -> sympy.Expr:
    """ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (sqrt(32 ln(4/delta)/(r(n-1))) + 4/(r(n-1)))), r = 1/(e^eps0 + 1)."""
    s = sympy.exp(eps0)
    r = 1 / (s + 1)
    return sympy.log(1 + (s - 1) / (s + 1) * (sympy.sqrt(32 * sympy.log(4 / delta) / (r * (n - 1)))
                                               + 4 / (r * (n - 1))))


def fmt23_closed(eps0: object, n: object, delta: object, *, k: object = None,
                 assume_stronger_clones: bool = False) -> BoundResult:
    """Feldman, McMillan, Talwar (SODA 2023; arXiv:2208.04591 with its erratum), closed form.

    eps = ln(1 + (e^eps0 - 1)/(e^eps0 + 1) * (sqrt(32 ln(4/delta) / (r (n-1))) + 4 / (r (n-1)))) with
    r = 1/(e^eps0 + 1), valid when n > 8 ln(4/delta) / r and the randomizer is in the erratum's class
    (binary or k-ary randomized response: pass ``k``; any other randomizer only with the explicit
    ``assume_stronger_clones=True``, which the note records).

    Why it holds: each other user is a clone with probability 2/(e^eps0 + 1) (stronger clones), and the
    clone counts concentrate as in FMT 2021, Lemma A.1.

    References:
        Feldman, McMillan, Talwar (SODA 2023; arXiv:2208.04591 and its erratum, which limits Theorems 3.1
        and 3.2 to a class of randomizers); the closed form is FMT 2021's Lemma A.1 with p = 2/(e^eps0 + 1).
    """
    x = validate_shuffle_inputs(eps0, n, delta, k=k)
    reason = stronger_clones_allowed(x.k, assume_stronger_clones)
    if reason:
        return invalid("fmt23-closed", reason)
    s = sympy.exp(x.eps0)
    limit = 8 * sympy.log(4 / x.delta) * (s + 1)
    if not _strict(x.n - limit):
        return invalid("fmt23-closed", f"needs n > 8 ln(4/delta)(e^eps0 + 1) = {float(limit.evalf(20)):.6g}; "
                                       f"got n = {x.n}")
    note = f"randomizer: {randomizer_label(x.k)}"
    if x.k is None:
        note += " (assume_stronger_clones=True: the caller asserts the randomizer is in the erratum's class)"
    return _closed_form("fmt23-closed", fmt23_closed_expression(x.eps0, x.n, x.delta), note)


# ---------------------------------------------------------------------------------------------
# Imola, Roy Chowdhury, Chaudhuri: metric-DP randomizers, several changed items
# ---------------------------------------------------------------------------------------------

def imola_alpha(alpha0: sympy.Expr, m: sympy.Expr, delta: sympy.Expr, l0: sympy.Expr, l1: sympy.Expr) -> sympy.Expr:
    """Theorem 4.3's alpha = ||v||_0 ln(1 + (e^z - 1)/(e^z + 1) K), z = alpha0 ||v||_1/||v||_0 (works on symbols).

    K = 8 sqrt(e^alpha0 ln(4 ||v||_0 / delta)) / sqrt(m) + 8 e^alpha0 / m.
    """
    z = alpha0 * l1 / l0
    K = 8 * sympy.sqrt(sympy.exp(alpha0) * sympy.log(4 * l0 / delta)) / sympy.sqrt(m) + 8 * sympy.exp(alpha0) / m
    return l0 * sympy.log(1 + (sympy.exp(z) - 1) / (sympy.exp(z) + 1) * K)


def _imola_inputs(alpha0: object, m: object, delta: object, l0: object, l1: object):
    x = validate_shuffle_inputs(alpha0, m, delta, l0=l0, l1=l1, eps0_name="alpha0", n_name="m")
    return x.eps0, x.n, x.delta, x.l0, x.l1


def _imola_result(alpha0: sympy.Expr, m: int, delta: sympy.Expr, l0: int, l1: sympy.Expr) -> BoundResult:
    """Theorem 4.3 at validated inputs (``delta`` may lie below the public range: an internal delta)."""
    limit = sympy.log(sympy.Integer(m) / (16 * sympy.log(4 * m / delta)))
    if not _strict(limit - alpha0):
        return invalid("imola-thm4.3", f"needs alpha0 < ln(m/(16 ln(4m/delta))) = {float(limit.evalf(20)):.6g}; "
                                       f"got alpha0 = {alpha0}")
    value = imola_alpha(alpha0, sympy.Integer(m), delta, sympy.Integer(l0), l1)
    note = f"||v||_0 = {l0}, ||v||_1 = {l1}; output delta = delta e^alpha"
    lower, upper = iv_evaluate(value)
    if iv_evaluate(alpha0 * l1)[1] < lower:
        note += f"; composition alpha0 ||v||_1 = {alpha0 * l1} (delta 0) is smaller"
    return BoundResult("imola-thm4.3", SOURCES["imola-thm4.3"], value, "eps", True, note, lower, upper)


def imola_theorem_4_3(alpha0: object, m: object, delta: object, *, l0: object = 1, l1: object = None) -> BoundResult:
    """Imola, Roy Chowdhury, Chaudhuri, Theorem 4.3: shuffling alpha0 d_X-metric-DP reports.

    Two input vectors of length m differ by v_i = d_X(x_i, x'_i) (d_X <= 1): ``l0`` = ||v||_0 changed
    items with total distance ``l1`` = ||v||_1 (default l0: every changed item at distance 1, i.e. the
    discrete metric). Then Pr[Shuffle(A(x)) in O] <= e^alpha Pr[Shuffle(A(x')) in O] + delta e^alpha with
    alpha = l0 ln(1 + tanh(alpha0 l1 / (2 l0)) K), K = 8 sqrt(e^alpha0 ln(4 l0/delta)/m) + 8 e^alpha0/m,
    valid when alpha0 < ln(m / (16 ln(4m/delta))).

    The result's value is alpha; note the output delta is delta * e^alpha (see
    :func:`imola_theorem_4_3_at_delta` for a given output delta). Composition always gives alpha0 * l1
    with delta = 0 (shuffling is post-processing), and the note says when that is smaller.

    References:
        Imola, Roy Chowdhury, Chaudhuri (002_1def8c9789d6e1bd.txt), Theorem 4.3 and Lemma B.1
        (specs/imola_metric_dp_user_level.md, section 3.2).
    """
    return _imola_result(*_imola_inputs(alpha0, m, delta, l0, l1))


def imola_theorem_4_3_at_delta(alpha0: object, m: object, delta: object, *, l0: object = 1,
                               l1: object = None) -> BoundResult:
    """Theorem 4.3 with the output delta fixed: the internal delta_in is chosen with delta_in e^alpha <= delta.

    delta_in = e^L with L the largest rational (to 10^-12 relative) at which L + alpha(e^L) <= ln delta holds
    in outward-rounded interval arithmetic, found by
    :func:`~dpcert.proofs.certified_root.certified_root`: Brent's method on the left side in floats (the
    lower end of the bracket is pushed down until it is negative: alpha grows with l0, so delta_in may lie far
    below delta), then the interval check. The validity condition is then decided exactly at delta_in, and
    alpha(delta_in) is returned.
    """
    alpha0, m, delta, l0, l1 = _imola_inputs(alpha0, m, delta, l0, l1)
    log_delta = float(sympy.log(delta).evalf(30))
    a0, z = float(alpha0.evalf(30)), float((alpha0 * l1 / l0).evalf(30))

    def excess(log_din: float) -> float:
        K = 8 * math.sqrt(math.exp(a0) * (math.log(4 * l0) - log_din) / m) + 8 * math.exp(a0) / m
        return log_din + l0 * math.log1p(math.tanh(z / 2) * K) - log_delta

    def certified(log_din: float) -> bool:
        """L + alpha(e^L) <= ln delta, in outward-rounded interval arithmetic at the exact L."""
        L = sympy.Rational(log_din)
        alpha = iv_evaluate(imola_alpha(alpha0, sympy.Integer(m), sympy.exp(L), sympy.Integer(l0), l1))[1]
        return iv_evaluate(L + alpha - sympy.log(delta))[1] <= 0

    gap = 50.0
    while excess(log_delta - gap) > 0:
        gap *= 2
        if gap > 1e300:
            return invalid("imola-thm4.3", "no internal delta with delta_in e^alpha <= delta exists in float range")
    # from ln delta - 2 gap, where the left side is below ln delta by about gap whatever the floats' error
    L = sympy.Rational(certified_root(excess, certified, log_delta - 2 * gap, log_delta, side="below",
                                      rtol=1e-12).exact)
    result = _imola_result(alpha0, m, sympy.exp(L), l0, l1)
    if not result.valid:
        return invalid("imola-thm4.3", result.note + f" (at delta_in = e^{float(L):.6g}, chosen so that "
                                                     "delta_in e^alpha <= delta)")
    note = (f"Theorem 4.3 with delta_in = e^{float(L):.6g} so that the output delta_in e^alpha <= {delta} "
            f"(checked exactly: outward-rounded interval arithmetic); " + result.note.split("; output delta")[0])
    return BoundResult("imola-thm4.3", SOURCES["imola-thm4.3"], result.value, "eps", True, note,
                       result.lower_value, result.upper_value)


@dataclass(frozen=True)
class ImolaTheorem4_4:
    """Theorem 4.4 for PrivEMDItemWise: (alpha, delta_out)-d_EM-DP, and the condition it needs."""

    alpha: sympy.Expr
    delta_out: sympy.Expr
    valid: bool
    note: str


def imola_theorem_4_4_alpha(alpha0: sympy.Expr, m: sympy.Expr, delta: sympy.Expr, shuffle_size: sympy.Expr) -> sympy.Expr:
    """alpha = sup_w h(M; m, m w)/w = 4 m alpha0 (sqrt(e^alpha0 ln(4m/delta)/M) + e^alpha0/M) (works on symbols).

    The supremum is the limit w -> 0+ because w -> h(M; m, m w) is concave with h(M; m, 0) = 0
    (specs/imola_metric_dp_user_level.md, section 3.2).
    """
    return 4 * m * alpha0 * (sympy.sqrt(sympy.exp(alpha0) * sympy.log(4 * m / delta) / shuffle_size)
                             + sympy.exp(alpha0) / shuffle_size)


def imola_theorem_4_4(alpha0: object, m: object, delta: object, *, n: object = None) -> ImolaTheorem4_4:
    """Imola, Roy Chowdhury, Chaudhuri, Theorem 4.4 (closed form of its supremum).

    PrivEMDItemWise with an alpha0 d_X-DP item mechanism on datasets of m items is (alpha, delta_out)
    bounded d_EM-DP: locally (``n`` None, shuffle size M = m) or centrally over n users (M = m n), with
    alpha = 4 m alpha0 (sqrt(e^alpha0 ln(4m/delta)/M) + e^alpha0/M) and delta_out = delta e^{h(M; m, m)},
    h(M; m, m) = m ln(1 + tanh(alpha0/2)(8 sqrt(e^alpha0 ln(4m/delta)/M) + 8 e^alpha0/M)). The condition
    alpha0 < ln(M/(16 ln(4m/delta))) of Theorem 4.3 is re-imposed (the paper omits it in Theorem 4.4).

    References:
        Imola, Roy Chowdhury, Chaudhuri (002_1def8c9789d6e1bd.txt), Theorem 4.4; the closed form of its
        supremum is derived in specs/imola_metric_dp_user_level.md, section 3.2.
    """
    alpha0 = require_positive("alpha0", alpha0, at_least=EPS0_RANGE[0], at_most=EPS0_RANGE[1])
    m = require_int("m", m, minimum=1, maximum=N_MAX)
    delta = require_open_unit("delta", delta, at_least=DELTA_MIN)
    M = sympy.Integer(m) if n is None else sympy.Integer(m * require_int("n", n, minimum=1, maximum=N_MAX))
    mm = sympy.Integer(m)
    alpha = imola_theorem_4_4_alpha(alpha0, mm, delta, M)
    h_full = imola_alpha(alpha0, M, delta, mm, mm)
    limit = sympy.log(M / (16 * sympy.log(4 * mm / delta)))
    valid = _strict(limit - alpha0)
    note = ("" if valid else
            f"Theorem 4.3's condition alpha0 < ln(M/(16 ln(4m/delta))) = {float(limit.evalf(20)):.6g} fails; ")
    note += f"shuffle size M = {M} ({'local' if n is None else 'central'})"
    return ImolaTheorem4_4(alpha, delta * sympy.exp(h_full), valid, note)

