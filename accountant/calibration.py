"""Calibration: the largest local eps0 whose shuffled eps is at most a target, never overshooting.

For a target eps, n users and delta, :func:`calibrate_eps0` searches eps0 with one shuffle bound
(:data:`dpcert.accountant.shuffle.SHUFFLE_METHODS`): halving and doubling find a bracket, then
:func:`~dpcert.proofs.certified_root.certified_root` narrows it (Brent's method on the bound's excess over the
target, bisection where that does not close it). An eps0 is accepted only when the bound is a certified
upper bound there (``BoundResult.certified_upper``: valid, and ``bounds`` upper or exact; never a lower
bound such as the exact row for an unspecified randomizer) and that exact upper end is <= the target, so
the returned eps0 never overshoots: the shuffled mechanism with that eps0 is (target, delta)-DP by the
chosen theorem. The bounds increase with eps0, so the final bracket [eps0, eps0_next), whose ends were
accepted and refused, contains the largest feasible eps0.

:func:`imola_recipe_alpha0` is the paper's asymptotic recipe for the per-item alpha0 (Imola, Roy
Chowdhury, Chaudhuri, eqs. (6) local and (7) central); :func:`imola_recipe_check` evaluates it with
Theorem 4.4's exact closed form and reports when it overshoots the target (e.g. m = 100, n = 10^6,
alpha = 10, delta = 10^-6: eq. (7) gives alpha0 = 4.88 and Theorem 4.4 then gives alpha = 12.2 > 10).
:func:`calibrate_imola_alpha0` solves Theorem 4.4 exactly instead.
"""

from __future__ import annotations

import math

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.shuffle import SHUFFLE_METHODS, shuffle_bound
from dpcert.accountant.shuffle_closed_forms import imola_theorem_4_4, imola_theorem_4_4_alpha
from dpcert.accountant.shuffle_common import SOURCES, invalid, require_open_unit, validate_shuffle_inputs
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive, require_real
from dpcert.proofs.certified_root import certified_root
from dpcert.proofs.rounding import decimal_string

__all__ = [
    "CALIBRATION_METHODS",
    "DEFAULT_CALIBRATION_METHODS",
    "CALIBRATION_PARAMETERS",
    "calibrate_eps0",
    "calibration_family",
    "imola_recipe_alpha0",
    "imola_recipe_check",
    "calibrate_imola_alpha0",
]

CALIBRATION_METHODS = tuple(m for m in SHUFFLE_METHODS if m not in ("no-amplification", "fmt21-approx"))
"""The shuffle bounds :func:`calibrate_eps0` accepts by name (no-amplification calibrates trivially to eps0 =
target_eps; fmt21-approx needs the randomizers' delta0, which a calibration of eps0 does not take)."""

DEFAULT_CALIBRATION_METHODS = tuple(m for m in CALIBRATION_METHODS if m != "optimal")
"""The ones a calibration of every method uses: ``optimal`` (seconds per evaluation) only when named."""

EPS0_SEARCH = (sympy.Rational(1, 10**6), sympy.Integer(64))
"""The eps0 searched by :func:`calibrate_eps0` (a larger eps0 is never useful, a smaller one not answerable
by every bound)."""

CALIBRATION_PARAMETERS: tuple[tuple[str, str, object], ...] = (
    ("target_eps", "target eps of the shuffled mechanism, > 0", None),
    ("n", "number of users, an integer >= 2", None),
    ("delta", "target delta, in (0, 1)", None),
    ("method", "one shuffle bound (" + ", ".join(CALIBRATION_METHODS) + "); default: all but optimal", None),
    ("k", "k-ary randomized response (2: binary); omit for any eps0-LDP randomizer", None),
    ("relative_tolerance", "the search stops when the bracket is this narrow relative to eps0, in [10^-12, 1/2]",
     "1e-6"),
)
"""(name, help, default) of every :func:`calibration_family` argument, for a command line."""


def _accepts(method: str, eps0: sympy.Expr, n: int, delta: sympy.Expr, target: sympy.Expr, k: int | None,
             assume: bool) -> tuple[bool, BoundResult]:
    """Whether ``method`` certifies eps <= target at eps0: only a certified upper bound counts (valid, and
    ``bounds`` upper or exact), never a lower bound or an invalid row."""
    result = shuffle_bound(method, eps0, n, delta, k=k, assume_stronger_clones=assume)
    upper = result.certified_upper
    return upper is not None and exact_sign(upper - target) <= 0, result


def _rational(x: float) -> sympy.Rational:
    return sympy.Rational(x)


def _unfixable(result: BoundResult) -> bool:
    """An invalid result that a smaller eps0 cannot make valid: only a lower bound (the exact row for an
    unspecified randomizer or beyond its enumeration), or a condition that does not involve eps0."""
    if result.valid:
        return False
    return result.bounds == "lower" or not any(word in result.note for word in ("eps0", "alpha0"))


def calibrate_eps0(target_eps: object, n: object, delta: object, *, method: str, k: object = None,
                   assume_stronger_clones: bool = False, relative_tolerance: object = "1e-6") -> BoundResult:
    """The largest eps0 (to ``relative_tolerance``) whose ``method`` bound at (eps0, n, delta) is <= target_eps.

    One-sided: the returned eps0 is one at which ``method`` gives a certified upper bound on the shuffled
    eps (valid, ``bounds`` upper or exact) that is <= the target (checked exactly), so the shuffled
    mechanism with that eps0 is (target_eps, delta)-DP; the true largest such eps0 lies in the bracket
    stated in the note, so the result has ``bounds="lower"``. eps0 is searched in :data:`EPS0_SEARCH`.

    Returns:
        A :class:`BoundResult` with units ``"eps0"`` (``valid=False`` when no eps0 in the search range
        qualifies).

    Raises:
        InvalidParameterError: target_eps <= 0, n, delta, k or relative_tolerance out of range, or an
            unknown method.
    """
    target = require_positive("target_eps", target_eps)
    x = validate_shuffle_inputs(1, n, delta, k=k)  # n, delta, k as every shuffle bound takes them
    if method not in CALIBRATION_METHODS:
        raise InvalidParameterError(f"method must be one of {', '.join(CALIBRATION_METHODS)}. Got {method!r}")
    tol = float(require_real("relative_tolerance", relative_tolerance, low=sympy.Rational(1, 10**12),
                             high=sympy.Rational(1, 2)))
    source = SOURCES[method]
    floor, ceiling = (float(e) for e in EPS0_SEARCH)

    evaluated: dict[float, tuple[bool, BoundResult]] = {}

    def ok(e0: float) -> tuple[bool, BoundResult]:
        if e0 not in evaluated:
            evaluated[e0] = _accepts(method, _rational(e0), x.n, x.delta, target, x.k, assume_stronger_clones)
        return evaluated[e0]

    def excess(e0: float) -> float:
        """The certified upper end minus the target, as a float whose sign is ok's: a guide for brentq."""
        good, result = ok(e0)
        upper = result.certified_upper
        guess = float((upper - target).evalf(20)) if upper is not None else 1.0
        return min(guess, 0.0) if good else max(guess, math.ulp(0.0))

    def none_found(reason: str) -> BoundResult:
        return invalid(method, f"no eps0 in [{floor:g}, {ceiling:g}] makes the {method} bound a certified upper "
                               f"bound <= {target} ({reason})", source=source, bounds="lower")

    # a feasible starting point: halve from the target (every valid bound is <= eps0)
    lo = min(max(float(target.evalf(20)), floor), ceiling)
    found, achieved = ok(lo)
    while not found:
        if _unfixable(achieved):
            return none_found(f"at eps0 = {lo:.6g}: {achieved.note}")
        if lo / 2 < floor:
            return none_found(f"last: {achieved.note or 'bound above the target'}")
        lo /= 2
        found, achieved = ok(lo)
    # an infeasible point above: double up to the search's ceiling
    hi = lo * 2
    while hi <= ceiling:
        good, result = ok(hi)
        if not good:
            break
        lo, achieved = hi, result
        hi *= 2
    if hi > ceiling:
        hi = math.inf
    if math.isfinite(hi) and hi - lo > tol * lo:
        # the bound is smooth in eps0 where valid: Brent's method on its float excess finds the crossing in a few
        # evaluations; acceptance stays the exact check of ok, and bisection closes what Brent's estimate did not
        root = certified_root(excess, lambda e0: ok(e0)[0], lo, hi, side="below", rtol=tol)
        lo, hi = root.certified, root.uncertified
        achieved = ok(lo)[1]
    note = (f"certified {method} eps at this eps0: <= {decimal_string(achieved.certified_upper, digits=10)} <= target "
            f"{target}; the largest feasible eps0 is in [{lo!r}, {hi!r})")
    return BoundResult(method, source, _rational(lo), "eps0", True, note, bounds="lower")


def calibration_family(target_eps: object, n: object, delta: object, *, method: str | None = None,
                       k: object = None, relative_tolerance: object = "1e-6") -> list[BoundResult]:
    """:func:`calibrate_eps0` for every method of :data:`DEFAULT_CALIBRATION_METHODS` (or one named), in that
    order."""
    names = DEFAULT_CALIBRATION_METHODS if method is None else (method,)
    return [calibrate_eps0(target_eps, n, delta, method=name, k=k, relative_tolerance=relative_tolerance)
            for name in names]


# ---------------------------------------------------------------------------------------------
# Imola et al.: the alpha0 recipe (eqs. 6/7) against an exact solve of Theorem 4.4
# ---------------------------------------------------------------------------------------------

def _imola_inputs(alpha: object, m: object, delta: object, n: object):
    alpha = require_positive("alpha", alpha)
    m = require_int("m", m, minimum=1)
    delta = require_open_unit("delta", delta)
    n = None if n is None else require_int("n", n, minimum=1)
    return alpha, m, delta, n


def imola_recipe_alpha0(alpha: object, m: object, delta: object, *, n: object = None) -> sympy.Expr:
    """alpha0 from Imola, Roy Chowdhury, Chaudhuri, eq. (6) (local, n None) or eq. (7) (central, n users).

    With L' = ln(4 m e^alpha / delta) and x = alpha (local) or alpha sqrt(n) (central):
    alpha0 = x / (32 sqrt(m L')) if x <= 32 sqrt(m L'), and 2 ln(x / (16 sqrt(m L'))) if
    32 sqrt(m L') < x < m (local) or < m sqrt(n) (central).

    Raises:
        InvalidParameterError: the target is outside both cases of the recipe.
    """
    alpha, m, delta, n = _imola_inputs(alpha, m, delta, n)
    root = sympy.sqrt(m * sympy.log(4 * m * sympy.exp(alpha) / delta))
    x = alpha if n is None else alpha * sympy.sqrt(n)
    cap = m if n is None else m * sympy.sqrt(n)
    if exact_sign(x - 32 * root) <= 0:
        return x / (32 * root)
    if exact_sign(cap - x) > 0:
        return 2 * sympy.log(x / (16 * root))
    raise InvalidParameterError(f"alpha must be < {'m' if n is None else 'm'} for the recipe of eq. "
                                f"({'6' if n is None else '7'}). Got alpha = {alpha}")


def imola_recipe_check(alpha: object, m: object, delta: object, *, n: object = None) -> BoundResult:
    """The alpha that Theorem 4.4 actually gives at the recipe's alpha0 (with delta_in = delta e^-alpha).

    ``valid`` is False (with the reason) when the recipe overshoots the target alpha or when Theorem 4.3's
    condition fails at that alpha0.
    """
    target, m, delta, n = _imola_inputs(alpha, m, delta, n)
    alpha0 = imola_recipe_alpha0(target, m, delta, n=n)
    theorem = imola_theorem_4_4(alpha0, m, delta * sympy.exp(-target), n=n)
    name = "imola-eq6" if n is None else "imola-eq7"
    achieved = theorem.alpha
    if exact_sign(achieved - target) > 0:
        return BoundResult(name, SOURCES["imola-thm4.4"], achieved, "eps", False,
                           f"recipe alpha0 = {float(alpha0):.6g} gives alpha = {float(achieved):.6g} > target "
                           f"{target}: the recipe overshoots")
    if not theorem.valid:
        return BoundResult(name, SOURCES["imola-thm4.4"], achieved, "eps", False,
                           f"recipe alpha0 = {float(alpha0):.6g}: {theorem.note}")
    return BoundResult(name, SOURCES["imola-thm4.4"], achieved, "eps", True,
                       f"recipe alpha0 = {float(alpha0):.6g} gives alpha = {float(achieved):.6g} <= {target}")


def calibrate_imola_alpha0(alpha: object, m: object, delta: object, *, n: object = None,
                           relative_tolerance: float = 1e-9) -> BoundResult:
    """The largest alpha0 with Theorem 4.4's alpha <= target and delta_out <= delta, checked exactly.

    Uses delta_in = delta e^-alpha (then delta_out = delta_in e^{h(M; m, m)} <= delta since
    h(M; m, m) <= alpha) and requires Theorem 4.3's condition alpha0 < ln(M / (16 ln(4m/delta_in))).
    alpha(alpha0) increases with alpha0, so the conditions hold on an interval (0, alpha0*]:
    :func:`~dpcert.proofs.certified_root.certified_root` finds its end with Brent's method on alpha in floats and
    confirms both conditions exactly; the returned value is a rational at which they were confirmed, within
    ``relative_tolerance`` of one where they fail, so a lower bound on the largest alpha0 (``bounds="lower"``).
    """
    target, m, delta, n = _imola_inputs(alpha, m, delta, n)
    delta_in = delta * sympy.exp(-target)
    M = sympy.Integer(m if n is None else m * n)
    mm = sympy.Integer(m)
    limit = sympy.log(M / (16 * sympy.log(4 * mm / delta_in)))
    name = "imola-thm4.4"
    if exact_sign(limit) <= 0:
        return invalid(name, f"Theorem 4.3's condition alpha0 < ln(M/(16 ln(4m/delta_in))) = {float(limit):.6g} "
                             "leaves no alpha0 > 0", bounds="lower")

    def ok(a0: float) -> bool:
        a = _rational(a0)
        return (exact_sign(limit - a) > 0
                and exact_sign(imola_theorem_4_4_alpha(a, mm, delta_in, M) - target) <= 0)

    # Theorem 4.4's alpha - target in floats, a guide for Brent's method (alpha written so that it cannot overflow
    # below the limit, where e^alpha0 < M): 4 m alpha0 e^(alpha0/2) (sqrt(ln(4m/delta_in)/M) + e^(alpha0/2)/M)
    log_ratio, size, goal = float(sympy.log(4 * mm / delta_in).evalf(30)), float(M), float(target)

    def excess(a0: float) -> float:
        return 4 * m * a0 * math.exp(a0 / 2) * (math.sqrt(log_ratio / size) + math.exp(a0 / 2) / size) - goal

    root = certified_root(excess, ok, 0.0, float(limit.evalf(20)), side="below", rtol=relative_tolerance)
    lo = root.certified
    if lo == 0.0:
        return invalid(name, "no alpha0 > 0 meets the target", bounds="lower")
    value = _rational(lo)
    achieved = imola_theorem_4_4(value, m, delta_in, n=n)
    return BoundResult(name, SOURCES["imola-thm4.4"], value, "alpha0", True,
                       f"alpha(alpha0) = {float(achieved.alpha):.8g} <= {target}, delta_out = "
                       f"{float(achieved.delta_out):.4g} <= {delta} (delta_in = delta e^-alpha); {achieved.note}",
                       bounds="lower")
