"""Composition of differentially private mechanisms: basic, advanced, optimal and exact.

- **basic**: (sum eps_i, sum delta_i) (Dwork, McSherry, Nissim, Smith 2006; Dwork and Roth 2014,
  Theorem 3.16).
- **advanced**: k mechanisms, each (eps, delta0)-DP, compose to (eps', k delta0 + delta')-DP with
  eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) (Dwork, Rothblum, Vadhan, FOCS 2010,
  Theorem III.3; Dwork and Roth 2014, Theorem 3.20); heterogeneous eps_i use sum eps_i^2 and
  sum eps_i (e^eps_i - 1) (the same Azuma argument).
- **optimal**: the exact privacy region of k-fold composition of (eps, delta0)-DP mechanisms
  (Kairouz, Oh, Viswanath, ICML 2015, Theorem 3.3): it is that of k-fold randomized response, so
  delta(eps') = 1 - (1 - delta0)^k (1 - delta_RR(eps')) with
  delta_RR(eps') = sum_l C(k, l) max(e^{(k-l) eps} - e^{eps'} e^{l eps}, 0) / (1 + e^eps)^k, and the
  smallest eps' for a target delta is a closed form ln(...) on the right piece. Answers are exact sympy
  expressions: k-fold eps-DP at delta = 0 is exactly k eps (never an infinite eps from a truncated
  tail), and one application of log(3)-DP randomized response is exactly log(3).
- **exact**: finite mechanisms composed through their privacy-loss distributions
  (:class:`PrivacyLossDistribution`), in exact arithmetic (rationals, or rational functions of one
  exponential e^(b/q) via :class:`dpcert.mechanisms.exact_arithmetic.ExponentialField`).

:class:`~dpcert.accountant.ledger.PrivacyLedger` records what was composed and reports every applicable bound.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import mpmath
import sympy
from mpmath.ctx_iv import MPIntervalContext
from mpmath.libmp import dps_to_prec

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.mp_enclosures import exact_interval, float_enclosure, interval_ends, log2_inverse
from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.exact_arithmetic import ExponentialField, cancel_exponentials
from dpcert.mechanisms.mp_contexts import interval_context, real_context
from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    exact_sign,
    require_int,
    require_positive,
    require_real,
    require_unit_interval,
    to_exact,
)

__all__ = [
    "COMPOSITION_PARAMETERS",
    "composition_family",
    "basic_composition",
    "advanced_composition",
    "optimal_composition",
    "optimal_composition_delta",
    "PrivacyLossDistribution",
    "compose_channels",
]

SOURCES = {
    "basic": "Dwork, McSherry, Nissim, Smith (TCC 2006); Dwork and Roth (2014), Theorem 3.16",
    "advanced": "Dwork, Rothblum, Vadhan (FOCS 2010), Theorem III.3; Dwork and Roth (2014), Theorem 3.20",
    "optimal": "Kairouz, Oh, Viswanath, \"The composition theorem for differential privacy\" (ICML 2015), Theorem 3.3",
    "exact": "exact composition of privacy-loss distributions (Sommer, Meiser, Mohammadi, PoPETs 2019): "
             "hockey-stick divergence of the product distributions",
}

EPS_MIN = sympy.Rational(1, 10**300)
EPS_MAX = sympy.Integer(10**6)
"""Each mechanism's eps must lie in [EPS_MIN, EPS_MAX] = [10^-300, 10^6]. Above 10^6 nothing changes but
the magnitude of e^eps (every bound is then about k eps or infinite); below 10^-300 the interval
arithmetic of the optimal bound would need more than ~1100 bits per operation. Inside the range every
method answers in seconds (tests/accountant/test_composition_oracle.py times the corners)."""
OPTIMAL_K_MAX = 10**5
"""The optimal (KOV) bound sums up to k/2 terms in interval arithmetic: k <= 10^5 takes at most a few
seconds (measured: k = 10^5 takes 2-4 s, at eps = 10^-300 with 1100 bits too). basic and advanced answer
any k (closed forms); above this k the optimal result says it was not computed."""

MAX_CHANNELS = 32
MAX_CHANNEL_INPUTS = 16
MAX_PLD_ATOMS = 10_000
"""Exact composition (:func:`compose_channels`) of at most 32 channels of at most 16 inputs, with at most
10^4 distinct privacy losses per pair: its arithmetic is exact (rational functions of e^(1/q)), and 32
binary randomized responses at an irrational e^eps take a few seconds (40 take up to 9 s, 100 minutes)."""

COMPOSITION_PARAMETERS: tuple[tuple[str, str, object], ...] = (
    ("eps", "each mechanism's eps, in [10^-300, 10^6]", None),
    ("k", f"number of composed mechanisms, an integer >= 1 (optimal: k <= {OPTIMAL_K_MAX})", None),
    ("delta", "target delta of the composition, in [0, 1)", None),
    ("delta0", "each mechanism's own delta, in [0, 1) (default 0: pure eps-DP)", 0),
)
"""(name, help, default) of every :func:`composition_family` argument, for a command line."""


def _eps(name: str, value: object) -> sympy.Expr:
    """An eps of one composed mechanism, in its answerable range [EPS_MIN, EPS_MAX]."""
    return require_positive(name, value, at_least=EPS_MIN, at_most=EPS_MAX)


def _validate(eps: object, k: object, delta: object, delta0: object) -> tuple[sympy.Expr, int, sympy.Expr, sympy.Expr]:
    """The answerable ranges of every composition function: eps in [EPS_MIN, EPS_MAX], k an integer >= 1
    (any size: k eps and the advanced formula are closed forms; the optimal bound has its own limit,
    OPTIMAL_K_MAX), delta and delta0 in [0, 1)."""
    return (_eps("eps", eps), require_int("k", k, minimum=1), require_unit_interval("delta", delta),
            require_unit_interval("delta0", delta0))


def _invalid(name: str, reason: str) -> BoundResult:
    return BoundResult(name, SOURCES[name], None, "eps", False, reason)


# ---------------------------------------------------------------------------------------------
# Interval arithmetic (private contexts: the global mpmath precision is never touched)
# ---------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------
# Basic and advanced
# ---------------------------------------------------------------------------------------------

def basic_composition(eps: Sequence[object], *, delta: Sequence[object] | None = None) -> BoundResult:
    """Basic composition: eps_1 + ... + eps_k (exact); the note gives delta_1 + ... + delta_k.

    Why it holds: the privacy loss of the composition is the sum of the per-mechanism losses, each at
    most eps_i outside events of probability delta_i.
    """
    eps_values = [_eps(f"eps[{i}]", e) for i, e in enumerate(eps)]
    if not eps_values:
        raise InvalidParameterError("eps must list at least one mechanism. Got []")
    deltas = [sympy.Integer(0)] * len(eps_values) if delta is None else [
        require_unit_interval(f"delta[{i}]", d) for i, d in enumerate(delta)]
    if len(deltas) != len(eps_values):
        raise InvalidParameterError(f"delta must have one entry per mechanism ({len(eps_values)}). Got {len(deltas)}")
    total_delta = sympy.Add(*deltas)
    return BoundResult("basic", SOURCES["basic"], sympy.Add(*eps_values), "eps", True,
                       f"{len(eps_values)} mechanisms; delta = {total_delta}")


def advanced_composition(eps: object, k: object, delta_prime: object, *, delta0: object = 0) -> BoundResult:
    """Advanced composition (Dwork, Rothblum, Vadhan 2010, Theorem III.3), exact sympy value.

    k mechanisms, each (eps, delta0)-DP, are (eps', k delta0 + delta')-DP with
    eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), for any delta' in (0, 1).

    Why it holds: the privacy loss is a sum of k terms in [-eps, eps] with conditional means at most
    eps (e^eps - 1), so Azuma's inequality bounds its excess over k eps (e^eps - 1) with probability delta'.

    References:
        Dwork, Rothblum, Vadhan, "Boosting and Differential Privacy" (FOCS 2010), Theorem III.3.
    """
    eps, k, delta_prime, delta0 = _validate(eps, k, delta_prime, delta0)
    if delta_prime == 0:
        return _invalid("advanced", "needs delta' > 0 (ln(1/delta') is infinite at delta' = 0)")
    return _advanced([(eps, k)], delta_prime, f"delta = k delta0 + delta' = {k * delta0 + delta_prime}")


def _advanced(counts: Sequence[tuple[sympy.Expr, int]], delta_prime: sympy.Expr, note: str) -> BoundResult:
    """sqrt(2 ln(1/delta') sum_i c_i eps_i^2) + sum_i c_i eps_i (e^eps_i - 1) for c_i mechanisms of each eps_i.

    The value is exact; its float enclosure is computed in interval arithmetic with enough bits for
    e^eps - 1 at the smallest eps and ln(1/delta') at delta' near 1, so no float of it waits on a sympy
    evaluation of e^(10^6).
    """
    squares = sympy.Add(*[c * e ** 2 for e, c in counts])
    drift = sympy.Add(*[c * e * (sympy.exp(e) - 1) for e, c in counts])
    radicand = 2 * sympy.log(1 / delta_prime) * squares
    coefficient = radicand.as_coeff_Mul()[0]
    # sympy's sqrt factors its rational coefficient (hours at k = 10^4000): left unevaluated when it is large
    small = max(abs(int(coefficient.p)), int(coefficient.q)) < 10**30
    value = (sympy.sqrt(radicand) if small else sympy.Pow(radicand, sympy.S.Half, evaluate=False)) + drift
    ctx = interval_context(64 + max(log2_inverse(e) for e, _ in counts) + log2_inverse(1 - delta_prime))  # ln(1/delta') ~ 1 - delta'
    iv_squares, iv_drift = ctx.mpf(0), ctx.mpf(0)
    for e, c in counts:
        x = exact_interval(ctx, e)
        iv_squares += c * x * x
        iv_drift += c * x * (ctx.exp(x) - 1)
    enclosure = ctx.sqrt(2 * ctx.log(1 / exact_interval(ctx, delta_prime)) * iv_squares) + iv_drift
    return BoundResult("advanced", SOURCES["advanced"], value, "eps", True, note,
                       **float_enclosure(*interval_ends(enclosure)))


# ---------------------------------------------------------------------------------------------
# Optimal (Kairouz, Oh, Viswanath)
# ---------------------------------------------------------------------------------------------

def optimal_composition_delta(eps: object, k: object, eps_prime: object, *, delta0: object = 0) -> sympy.Expr:
    """Exact smallest delta with k-fold (eps, delta0)-DP composition (eps_prime, delta)-DP (KOV 2015, Thm 3.3).

    delta = 1 - (1 - delta0)^k (1 - sum_l C(k, l) max(e^{(k-l) eps} - e^{eps'} e^{l eps}, 0) / (1 + e^eps)^k).
    An exact sympy sum of up to k + 1 terms: k <= 1000 (under a second).
    """
    eps = _eps("eps", eps)
    k = require_int("k", k, minimum=1, maximum=1000)
    eps_prime = require_real("eps_prime", eps_prime, low=0)
    delta0 = require_unit_interval("delta0", delta0)
    E = sympy.exp(eps)
    terms = []
    for l in range(k + 1):
        # e^{(k-l) eps} > e^{eps'} e^{l eps}  <=>  (k - 2l) eps > eps'
        if exact_sign((k - 2 * l) * eps - eps_prime) > 0:
            terms.append(sympy.binomial(k, l) * (E ** (k - l) - sympy.exp(eps_prime) * E ** l))
    rr = sympy.Add(*terms) / (1 + E) ** k
    return 1 - (1 - delta0) ** k * (1 - rr) if delta0 != 0 else rr


_EXACT_TERMS = 60
_EXACT_EPS = (sympy.Rational(1, 10**12), sympy.Integer(700))
_EXACT_TARGET_BITS = 400
"""The optimal eps is also given as a closed form ln(...) (beside its rigorous enclosure) when k <= 60,
eps is in [10^-12, 700] and delta and delta0 are rationals of at most 400 bits: outside, sympy's
cancellation of e^eps terms can take minutes, so only the enclosure is reported."""


def _target_interval(ctx: MPIntervalContext, k: int, delta: sympy.Expr, delta0: sympy.Expr):
    """An interval containing d = 1 - (1 - delta)/(1 - delta0)^k, the target of k-fold randomized response."""
    if delta0 == 0:
        return exact_interval(ctx, delta)
    return 1 - exact_interval(ctx, 1 - delta) / exact_interval(ctx, 1 - delta0) ** k


def _target_sign(k: int, delta: sympy.Expr, delta0: sympy.Expr) -> int:
    """The exact sign of d = 1 - (1 - delta)/(1 - delta0)^k: negative means no k-fold composition meets delta.

    Decided in interval arithmetic (up to 2^13 bits), else exactly when (1 - delta0)^k is a rational of at
    most 4 * 10^6 bits; beyond that a tie cannot be decided in time and is reported as bad input.
    """
    if delta0 == 0:
        return exact_sign(delta)
    for bits in (128, 1024, 8192):
        low, high = interval_ends(_target_interval(interval_context(bits), k, delta, delta0))
        if low > 0 or high < 0:
            return 1 if low > 0 else -1
    if delta.is_Rational and delta0.is_Rational and k * (int(delta0.p).bit_length() + int(delta0.q).bit_length()) <= 4 * 10**6:
        return exact_sign(1 - (1 - delta) / (1 - delta0) ** k)
    raise InvalidParameterError(f"delta must not agree with 1 - (1 - delta0)^k to 8192 bits (dpcert cannot decide "
                                "in time whether the composition meets it). Got "
                                f"delta = {delta}, delta0 = {delta0}, k = {k}")


def _kov_tables(ctx: MPIntervalContext, E, k: int, pieces: int) -> tuple[list, list]:
    """Prefix sums A_i = sum_{l<i} P(l) and B_i = sum_{l<i} Q(l), i = 0..pieces, in interval arithmetic.

    P(l) = C(k, l) e^{(k-l) eps} / (1 + e^eps)^k and Q(l) = C(k, l) e^{l eps} / (1 + e^eps)^k are the
    probabilities that k-fold randomized response flips l coordinates, under the two inputs; the
    privacy loss of such an output is (k - 2l) eps. Each term follows from the previous one by the ratio
    (k - l)/(l + 1) e^{-eps} (resp. e^{+eps}), so no binomial coefficient or power of e^eps is formed.
    """
    P, Q = (E / (1 + E)) ** k, (1 / (1 + E)) ** k
    A, B = [ctx.mpf(0)], [ctx.mpf(0)]
    for l in range(pieces):
        A.append(A[-1] + P)
        B.append(B[-1] + Q)
        step = ctx.mpf(k - l) / (l + 1)
        P, Q = P * step / E, Q * step * E
    return A, B


def _kov_enclosure(eps: sympy.Expr, k: int, delta: sympy.Expr, delta0: sympy.Expr,
                   bits: int) -> tuple[mpmath.mpf, mpmath.mpf, list[int]]:
    """A rigorous enclosure of the optimal eps' (KOV) at ``bits`` of interval precision.

    Piece i (1 <= i <= ceil(k/2)) is eps' in [max(0, (k - 2i) eps), (k - 2i + 2) eps], on which
    delta_RR(eps') = A_i - e^{eps'} B_i (:func:`_kov_tables`). delta_RR decreases in eps', so the answer
    lies on the first piece whose lower end D_i = delta_RR(max(0, (k - 2i) eps)) exceeds the target d,
    and there eps' = ln((A_i - d) / B_i); when no piece does, eps' = 0. Pieces whose comparison the
    intervals cannot decide are all kept, and the enclosure is the union of their answers, each
    clipped to its piece (where the true answer lies if that piece is the right one).

    Returns (lower, upper, candidate pieces); piece 0 stands for the answer eps' = 0.
    """
    ctx = interval_context(bits)
    eps_iv = exact_interval(ctx, eps)
    E = ctx.exp(eps_iv)
    d = _target_interval(ctx, k, delta, delta0)
    if interval_ends(d)[0] < 0:
        d = ctx.mpf((ctx.mpf(0), d.b))  # d >= 0 was decided exactly
    pieces = (k + 1) // 2
    A, B = _kov_tables(ctx, E, k, pieces)
    below, above = 0, None  # the last piece with D_i <= d for sure, the first with D_i > d for sure
    level = E ** (k - 2) if k >= 2 else ctx.mpf(1)  # e^{max(0, k - 2i) eps} at i = 1
    E2 = E * E
    for i in range(1, pieces + 1):
        low, high = interval_ends(A[i] - level * B[i] - d)
        if high <= 0:
            below = i
        elif low > 0 and above is None:
            above = i
        level = level / E2 if k - 2 * (i + 1) >= 0 else ctx.mpf(1)
    if above is not None and above <= below:
        raise ArithmeticError("the optimal composition's pieces are not monotone (an interval arithmetic fault)")
    candidates = list(range(below + 1, (pieces if above is None else above) + 1))
    if above is None:
        candidates.append(0)  # delta_RR(0) <= d is possible: eps' = 0
    lows, highs = [], []
    for i in candidates:
        if i == 0:
            lows.append(mpmath.mpf(0))
            highs.append(mpmath.mpf(0))
            continue
        numerator = A[i] - d
        if interval_ends(numerator)[1] <= 0:
            continue  # not this piece: on the true one A_i - d = e^{eps'} B_i > 0
        floor = interval_ends(ctx.mpf(max(0, k - 2 * i)) * eps_iv)[0]
        ceiling = interval_ends(ctx.mpf(k - 2 * i + 2) * eps_iv)[1]
        if interval_ends(numerator)[0] > 0:
            low, high = interval_ends(ctx.log(numerator / B[i]))
        else:
            low, high = floor, ceiling
        lows.append(max(low, floor, mpmath.mpf(0)))
        highs.append(max(min(high, ceiling), mpmath.mpf(0)))
    if not lows:
        raise ArithmeticError("no piece of the optimal composition holds the answer (an interval arithmetic fault)")
    return min(lows), max(highs), candidates


def _kov_exact_target(k: int, delta: sympy.Expr, delta0: sympy.Expr) -> sympy.Expr:
    return delta if delta0 == 0 else 1 - (1 - delta) / (1 - delta0) ** k


def _kov_closed_form(eps: sympy.Expr, k: int, target: sympy.Expr, i: int) -> sympy.Expr:
    """eps' = ln((sum_{l<i} C(k,l) e^{(k-l)eps} - d (1+e^eps)^k) / sum_{l<i} C(k,l) e^{l eps}) on piece i."""
    E = sympy.exp(eps)
    inner = ((sympy.Add(*[sympy.binomial(k, l) * E ** (k - l) for l in range(i)]) - target * (1 + E) ** k)
             / sympy.Add(*[sympy.binomial(k, l) * E ** l for l in range(i)]))
    return sympy.log(cancel_exponentials(inner) if inner.has(sympy.Add) else inner)


def _kov_piece_sign(eps: sympy.Expr, k: int, target: sympy.Expr, i: int) -> int:
    """The exact sign of D_i - d (D_i = delta_RR at the lower end of piece i), for a small k."""
    E = sympy.exp(eps)
    level = E ** max(0, k - 2 * i)
    D = sympy.Add(*[sympy.binomial(k, l) * (E ** (k - l) - level * E ** l) for l in range(i)]) / (1 + E) ** k
    return exact_sign(D - target)


def _optimal_epsilon(eps: sympy.Expr, k: int, delta: sympy.Expr,
                     delta0: sympy.Expr) -> tuple[sympy.Expr | None, mpmath.mpf, mpmath.mpf]:
    """Smallest eps' >= 0 with delta_RR(eps') <= d = 1 - (1 - delta)/(1 - delta0)^k (d >= 0 decided).

    Returns (closed form or None, lower, upper): a rigorous enclosure always, and the exact closed form
    when k <= _EXACT_TERMS. The working precision starts from what e^eps - 1, the target and the k-term
    sums need (64 + 2 log2 k + log2(1/eps) + log2(1/delta) bits) and is raised once if the pieces are
    not decided or the enclosure is wide; the enclosure is rigorous either way.
    """
    if _target_sign(k, delta, delta0) == 0:  # eps' = k eps exactly
        return k * eps, *interval_ends(k * exact_interval(interval_context(64 + log2_inverse(eps)), eps))
    bits = 64 + 2 * k.bit_length() + log2_inverse(eps) + (log2_inverse(delta) if delta0 != 0 else 0)
    for attempt in range(2):
        low, high, candidates = _kov_enclosure(eps, k, delta, delta0, bits * 4 ** attempt)
        if len(candidates) == 1 and high - low <= high * mpmath.mpf(2) ** -60:
            break
    if high == 0:
        return sympy.Integer(0), low, high
    if k > _EXACT_TERMS or not _EXACT_EPS[0] <= eps <= _EXACT_EPS[1] or any(
            not d.is_Rational or max(int(d.p).bit_length(), int(d.q).bit_length()) > _EXACT_TARGET_BITS
            for d in (delta, delta0)):
        return None, low, high
    target = _kov_exact_target(k, delta, delta0)
    if len(candidates) > 1:  # a tie with a piece boundary, or too close to call in intervals: decide exactly
        candidates = [next((i for i in candidates if i != 0 and _kov_piece_sign(eps, k, target, i) > 0), 0)]
    if candidates[0] == 0:
        return sympy.Integer(0), mpmath.mpf(0), mpmath.mpf(0)
    # the closed form max(0, ln(...)) is the ln(...) when the enclosure is positive; else it is left out
    return (_kov_closed_form(eps, k, target, candidates[0]) if low > 0 else None), low, high


def _display_spent(k: int, delta0: sympy.Expr) -> str:
    """1 - (1 - delta0)^k to 6 digits, for a message (30-digit evaluation as -expm1(k log1p(-delta0)))."""
    ctx = real_context(dps_to_prec(30))
    return ctx.nstr(-ctx.expm1(k * ctx.log1p(-ctx.mpf(str(delta0.evalf(40))))), 6)


def optimal_composition(eps: object, k: object, delta: object, *, delta0: object = 0) -> BoundResult:
    """Optimal composition of k (eps, delta0)-DP mechanisms (Kairouz, Oh, Viswanath 2015, Theorem 3.3).

    The smallest eps' such that every k-fold adaptive composition is (eps', delta)-DP, as an exact
    expression: with delta_RR as in the module docstring and delta_RR(eps') <= 1 - (1 - delta)/(1 - delta0)^k,
    eps' = ln((sum_{l<i} C(k,l) e^{(k-l)eps} - d (1+e^eps)^k) / sum_{l<i} C(k,l) e^{l eps}) on the piece
    (k - 2i) eps <= eps' <= (k - 2i + 2) eps that contains it. Tight: k-fold randomized response attains it.
    Computed for k <= :data:`OPTIMAL_K_MAX` (O(k) interval operations); above, the result says so.

    References:
        Kairouz, Oh, Viswanath, "The Composition Theorem for Differential Privacy" (ICML 2015), Theorem 3.3.
    """
    eps, k, delta, delta0 = _validate(eps, k, delta, delta0)
    if k > OPTIMAL_K_MAX:
        return _invalid("optimal", f"not computed: the exact sum has k/2 terms and is evaluated for k <= "
                                   f"{OPTIMAL_K_MAX} (a few seconds); got k = {k}. basic and advanced apply")
    if _target_sign(k, delta, delta0) < 0:
        return _invalid("optimal", f"delta must be >= 1 - (1 - delta0)^k = {_display_spent(k, delta0)} "
                                   f"for k (eps, delta0)-DP mechanisms. Got {delta}")
    exact, low, high = _optimal_epsilon(eps, k, delta, delta0)
    note = "the privacy region of k-fold randomized response (tight)"
    enclosure = float_enclosure(low, high)
    if exact is not None:  # the closed form, with its rigorous float enclosure
        return BoundResult("optimal", SOURCES["optimal"], exact, "eps", True, "exact: " + note, **enclosure,
                           bounds="exact")
    return BoundResult("optimal", SOURCES["optimal"], enclosure["upper_value"], "eps", True,
                       f"{note}; closed form ln(...) with up to k/2 terms, given as a rigorous enclosure", **enclosure,
                       bounds="exact")


def composition_family(eps: object, k: object, delta: object, *, delta0: object = 0) -> list[BoundResult]:
    """basic, advanced and optimal composition of k (eps, delta0)-DP mechanisms at a target delta.

    ``basic`` is k eps (valid when delta >= k delta0); ``advanced`` uses delta' = delta - k delta0;
    ``optimal`` is exact (Kairouz, Oh, Viswanath).
    """
    eps, k, delta, delta0 = _validate(eps, k, delta, delta0)
    slack = delta - k * delta0
    if exact_sign(slack) < 0:
        basic = _invalid("basic", f"needs delta >= k delta0 = {k * delta0}; got {delta}")
        advanced = _invalid("advanced", f"needs delta > k delta0 = {k * delta0}; got {delta}")
    else:
        basic = BoundResult("basic", SOURCES["basic"], k * eps, "eps", True, f"delta = k delta0 = {k * delta0}")
        advanced = advanced_composition(eps, k, slack, delta0=delta0)
    return [basic, advanced, optimal_composition(eps, k, delta, delta0=delta0)]


# ---------------------------------------------------------------------------------------------
# Exact composition of finite mechanisms through privacy-loss distributions
# ---------------------------------------------------------------------------------------------

class _Numbers:
    """Exact arithmetic for a set of probabilities: Q(s) with s = exp(b/q) when possible, else sympy."""

    def __init__(self, values: Iterable[sympy.Expr]):
        values = list(values)
        self.field = ExponentialField.covering(values)
        if self.field is not None:
            try:
                for v in values:
                    self.field.element(v)
            except ValueError:
                self.field = None

    def element(self, value: sympy.Expr):
        return self.field.element(value) if self.field is not None else sympy.sympify(value)

    def to_sympy(self, element) -> sympy.Expr:
        if self.field is None:
            return element
        return self.field.to_sympy(element)


@dataclass(frozen=True, eq=False)
class PrivacyLossDistribution:
    """The exact privacy-loss distribution of a pair (P, Q) of finite distributions.

    ``atoms`` maps each distinct likelihood ratio r = P(y)/Q(y) (``None`` for Q(y) = 0 < P(y)) to the
    pair (P-mass, Q-mass) of the outputs with that ratio, in the exact number system ``numbers``.
    Composition multiplies ratios and masses (the privacy losses add). delta(eps) is
    sum_{r > e^eps} (P - e^eps Q), the hockey-stick divergence.
    """

    atoms: Mapping[object, tuple[object, object]]
    numbers: _Numbers
    _sympy_ratios: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_pair(cls, p: Sequence[object], q: Sequence[object], *, numbers: _Numbers | None = None) -> PrivacyLossDistribution:
        """The PLD of two exact pmfs on the same outputs (sequences of exact probabilities)."""
        P = [to_exact(f"p[{i}]", v) for i, v in enumerate(p)]
        Q = [to_exact(f"q[{i}]", v) for i, v in enumerate(q)]
        if len(P) != len(Q) or not P:
            raise InvalidParameterError(f"p and q must be non-empty and of equal length. Got {len(P)} and {len(Q)}")
        numbers = numbers or _Numbers(P + Q)
        zero = numbers.element(sympy.Integer(0))
        atoms: dict[object, tuple[object, object]] = {}
        for a, b in zip(P, Q):
            ea, eb = numbers.element(a), numbers.element(b)
            if ea == zero and eb == zero:
                continue
            ratio = None if eb == zero else ea / eb
            pa, qa = atoms.get(ratio, (zero, zero))
            atoms[ratio] = (pa + ea, qa + eb)
        return cls(atoms, numbers)

    def compose(self, other: PrivacyLossDistribution) -> PrivacyLossDistribution:
        """The PLD of the product pair (P x P', Q x Q')."""
        if other.numbers is not self.numbers:
            raise ValueError("compose PLDs built with the same number system (see compose_channels)")
        zero = self.numbers.element(sympy.Integer(0))
        atoms: dict[object, tuple[object, object]] = {}
        for r1, (p1, q1) in self.atoms.items():
            for r2, (p2, q2) in other.atoms.items():
                p, q = p1 * p2, q1 * q2
                if p == zero and q == zero:
                    continue
                ratio = None if q == zero else (p / q if r1 is None or r2 is None else r1 * r2)
                pa, qa = atoms.get(ratio, (zero, zero))
                atoms[ratio] = (pa + p, qa + q)
        return PrivacyLossDistribution(atoms, self.numbers)

    def _ratio(self, r) -> sympy.Expr:
        if r not in self._sympy_ratios:
            self._sympy_ratios[r] = sympy.oo if r is None else self.numbers.to_sympy(r)
        return self._sympy_ratios[r]

    def _sorted(self) -> list[tuple[sympy.Expr, sympy.Expr, sympy.Expr]]:
        """The atoms as (ratio, P-mass, Q-mass), by decreasing ratio: ordered by 30-digit values, and exactly
        where two values agree to 12 digits (distinct exact ratios can share their leading digits)."""
        rows = [(self._ratio(r), self.numbers.to_sympy(p), self.numbers.to_sympy(q)) for r, (p, q) in self.atoms.items()]
        approx = {id(row): math.inf if row[0] == sympy.oo else float(row[0].evalf(30)) for row in rows}

        def order(a: tuple, b: tuple) -> int:
            x, y = approx[id(a)], approx[id(b)]
            if math.isinf(x) or math.isinf(y) or not math.isclose(x, y, rel_tol=1e-12, abs_tol=0.0):
                return (x < y) - (x > y)
            return -exact_sign(a[0] - b[0])

        return sorted(rows, key=functools.cmp_to_key(order))

    def delta(self, eps: object) -> sympy.Expr:
        """Exact hockey-stick divergence D_{e^eps}(P || Q)."""
        eps = require_real("eps", eps, low=0, high=EPS_MAX)
        t = sympy.exp(eps)
        total_p, total_q = sympy.Integer(0), sympy.Integer(0)
        for ratio, p, q in self._sorted():
            if ratio == sympy.oo or exact_sign(ratio - t) > 0:
                total_p += p
                total_q += q
        return total_p - t * total_q

    def epsilon(self, delta: object) -> sympy.Expr:
        """Exact smallest eps >= 0 with D_{e^eps}(P || Q) <= delta (``sympy.oo`` if none).

        With the atoms sorted by ratio r_1 > r_2 > ..., delta(t) = P_j - t Q_j on t in [r_(j+1), r_j]
        (P_j, Q_j the masses of the first j atoms, including the infinite-ratio ones), continuous and
        decreasing; the answer is t = (P_j - delta) / Q_j on the piece where delta(r_j) <= delta < delta(r_(j+1)).
        """
        delta = require_unit_interval("delta", delta)
        rows = self._sorted()
        infinite = sympy.Add(*[p for r, p, _ in rows if r == sympy.oo])
        if exact_sign(infinite - delta) > 0:
            return sympy.oo
        finite = [row for row in rows if row[0] != sympy.oo]
        mass_p, mass_q = infinite, sympy.Integer(0)
        for j, (ratio, p, q) in enumerate(finite):
            if exact_sign(ratio - 1) <= 0:
                break  # t >= 1 only: delta(1) = mass_p - mass_q <= delta was established on the way here
            mass_p, mass_q = mass_p + p, mass_q + q
            next_ratio = finite[j + 1][0] if j + 1 < len(finite) else sympy.Integer(0)
            floor = next_ratio if exact_sign(next_ratio - 1) > 0 else sympy.Integer(1)
            if exact_sign(mass_p - floor * mass_q - delta) <= 0:
                continue  # delta at the bottom of this piece is still <= delta: go lower
            level = (mass_p - delta) / mass_q  # e^eps on this piece, in (floor, ratio]
            if level.has(sympy.exp):
                level = cancel_exponentials(level)
            return sympy.log(level)
        return sympy.Integer(0)


def _rows(channel: object) -> list[list[sympy.Expr]]:
    if isinstance(channel, FiniteMechanism):
        outputs = list(channel.outputs())
        rows = []
        for x in channel.inputs():
            pmf = channel.pmf(x)
            rows.append([pmf.get(y, sympy.Integer(0)) for y in outputs])
        return rows
    return [[to_exact(f"channel[{i}][{j}]", v) for j, v in enumerate(row)] for i, row in enumerate(channel)]


def compose_channels(channels: Sequence[object], *, eps: object = None, delta: object = None) -> BoundResult:
    """Exact (eps, delta) of the non-adaptive composition of finite mechanisms on the same input.

    Each channel is a finite mechanism or a matrix of exact probabilities (rows = the same inputs in
    the same order, all pairs of inputs neighbours as in local DP). For every ordered pair of distinct
    inputs the per-channel privacy-loss distributions are composed exactly; the result is the maximum
    over pairs of delta(eps) (``eps`` given) or of eps(delta) (``delta`` given).

    Answerable sizes: at most :data:`MAX_CHANNELS` channels with at most :data:`MAX_CHANNEL_INPUTS`
    inputs, and at most :data:`MAX_PLD_ATOMS` distinct privacy losses per pair (checked as they grow).
    """
    if (eps is None) == (delta is None):
        raise InvalidParameterError("compose_channels needs exactly one of eps or delta")
    if not isinstance(channels, Sequence) or len(channels) > MAX_CHANNELS:
        count = len(channels) if isinstance(channels, Sequence) else type(channels).__name__
        raise InvalidParameterError(f"channels must list 1 to {MAX_CHANNELS} channels (the exact composition of more "
                                    f"takes minutes; optimal_composition bounds k eps-DP mechanisms). Got {count}")
    matrices = [_rows(c) for c in channels]
    if not matrices:
        raise InvalidParameterError("channels must contain at least one channel. Got []")
    inputs = len(matrices[0])
    if inputs < 2 or any(len(m) != inputs for m in matrices):
        raise InvalidParameterError("every channel must have the same number (>= 2) of inputs")
    if inputs > MAX_CHANNEL_INPUTS:
        raise InvalidParameterError(f"every channel must have at most {MAX_CHANNEL_INPUTS} inputs (each ordered pair "
                                    f"is composed exactly). Got {inputs}")
    numbers = _Numbers(v for m in matrices for row in m for v in row)
    worst: sympy.Expr | None = None
    for a in range(inputs):
        for b in range(inputs):
            if a == b:
                continue
            pld = None
            for m in matrices:
                step = PrivacyLossDistribution.from_pair(m[a], m[b], numbers=numbers)
                pld = step if pld is None else pld.compose(step)
                if len(pld.atoms) > MAX_PLD_ATOMS:
                    raise InvalidParameterError(f"channels: the exact privacy-loss distribution of inputs {a}, {b} "
                                                f"has more than {MAX_PLD_ATOMS} distinct losses; compose fewer channels")
            value = pld.delta(eps) if eps is not None else pld.epsilon(delta)
            if worst is None or value == sympy.oo or (worst != sympy.oo and exact_sign(value - worst) > 0):
                worst = value
    assert worst is not None
    units = "probability" if eps is not None else "eps"
    note = (f"{len(matrices)} channels, {inputs} inputs, worst ordered pair; "
            + (f"delta at eps = {eps}" if eps is not None else f"eps at delta = {delta}"))
    return BoundResult("exact", SOURCES["exact"], worst, units, True, note, bounds="exact")
