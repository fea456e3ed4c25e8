"""Clopper–Pearson bounds, certified outward, and the eps lower bound they give.

The one-sided Clopper–Pearson bounds for k successes in n Bernoulli trials at level alpha are

    p_lo: P(Bin(n, p_lo) >= k) = alpha   (p_lo = 0 when k = 0),
    p_hi: P(Bin(n, p_hi) <= k) = alpha   (p_hi = 1 when k = n).

P(Bin(n, p) >= k) increases in p, so a float b is a valid lower bound (b <= p_lo) iff
P(Bin(n, b) >= k) <= alpha, and u is a valid upper bound iff P(Bin(n, u) <= k) <= alpha. scipy's beta
quantiles locate the crossing, a guide that may err on the unsafe side (at n = 1e8 it can be ~3e-7 relative
too far in, e.g. k = 1000); :func:`~dpcert.proofs.certified_root.certified_root` then returns the float
nearest the crossing whose tail is *proved* to be <= alpha (:func:`_tail_certified`), to 2^-36 in logit
units, so neither bound can cross the exact one whatever scipy's error. Only exact integer arithmetic and
mpmath interval arithmetic (outward rounding) enter the proof.

References: Clopper and Pearson, "The use of confidence or fiducial limits illustrated in the case of
the binomial" (Biometrika 1934); Bichsel et al., "DP-Sniper" (S&P 2021), Section 5 (the eps lower bound
log(p_lo / p'_hi) from one-sided Clopper–Pearson bounds); NIST DLMF 5.11(ii) (Stirling's series).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable
from fractions import Fraction

from mpmath.libmp import from_int, mpf_gt, round_floor, to_float
from scipy.stats import beta

from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.proofs.certified_root import certified_root
from dpcert.proofs.log_factorial import log_factorial

__all__ = ["cp_lower", "cp_upper", "eps_lower_bound", "log_odds_lower", "share_eps_lower_bound"]

_IV = interval_context(128)  # the parts of log t_a are < 2^37 for n <= 1e8, so their absolute errors are ~2^-90

_FIXED_BITS = 96
"""Terms of the tail are summed as integers in units of 2^-96 of the anchor term (see _tail_certified)."""

_CHECK_EVERY = 32
"""How often (in terms) the running sum is compared with the thresholds."""

_RESOLUTION = 2.0 ** -36
"""The bounds are certified within this of an uncertified float (logit units; ~ relative 1.5e-11 to p near 0
and to 1 - p near 1)."""

_LOGIT_END = 750.0
"""The bounds are searched in logit units x = log(p / (1 - p)) in [-750, 750]: every float in (0, 1), and 0
and 1 themselves at the ends."""


def cp_lower(k: int, n: int, alpha: float) -> float:
    """One-sided lower Clopper–Pearson bound: a float b <= p_lo, P(Bin(n, p_lo) >= k) = alpha.

    p_lo is the alpha quantile of Beta(k, n - k + 1); b <= p holds with probability >= 1 - alpha over the
    draw of k ~ Bin(n, p) (Clopper and Pearson 1934). b is the largest float found whose binomial tail is
    certified <= alpha, guided by scipy's ``beta.ppf`` (see :func:`_certified_in_logit`); 0 if none is.

    Args:
        k: successes, an integer in [0, n] (k = 0 gives 0).
        n: trials, an integer >= 1.
        alpha: the error probability, in (0, 1); an alpha that is not a float is rounded down to one.

    Returns:
        b with P(Bin(n, b) >= k) <= alpha, proved.

    Raises:
        InvalidParameterError: k, n or alpha out of range or not a number of the right kind.
    """
    return _cp_lower(*_checked(k, n, alpha))


def cp_upper(k: int, n: int, alpha: float) -> float:
    """One-sided upper Clopper–Pearson bound: a float u >= p_hi, P(Bin(n, p_hi) <= k) = alpha.

    p_hi is the 1 - alpha quantile of Beta(k + 1, n - k); u >= p holds with probability >= 1 - alpha over
    the draw of k ~ Bin(n, p) (Clopper and Pearson 1934). u is the smallest float found whose binomial tail
    is certified <= alpha, guided by scipy's ``beta.isf`` (see :func:`_certified_in_logit`); 1 if none is.

    Args:
        k: successes, an integer in [0, n] (k = n gives 1).
        n: trials, an integer >= 1.
        alpha: the error probability, in (0, 1); an alpha that is not a float is rounded down to one.

    Returns:
        u with P(Bin(n, u) <= k) <= alpha, proved.

    Raises:
        InvalidParameterError: k, n or alpha out of range or not a number of the right kind.
    """
    return _cp_upper(*_checked(k, n, alpha))


def eps_lower_bound(p_lo: float, p_prime_hi: float, delta: float) -> float:
    """log((p_lo - delta) / p'_hi), or 0 when that is not positive; rounded down.

    Why it is a lower bound: an (eps, delta)-DP mechanism has P(E|x) <= e^eps P(E|x') + delta for every
    event E, so p_lo - delta <= p - delta <= e^eps p' <= e^eps p'_hi whenever both bounds hold.

    The logarithms are taken in mpmath interval arithmetic and the lower end is rounded down to a float
    (then one more ulp, for gradual underflow): float logs of small probabilities err by ~|log p| ulps,
    which a fixed margin does not cover (~2e-15 too high at p ~ 1e-7, ~1e-13 at p ~ 1e-300).
    """
    if p_lo <= delta or p_prime_hi <= 0:
        return 0.0 if p_lo <= delta else math.inf
    value = _IV.log(_IV.mpf(p_lo) - delta) - _IV.log(p_prime_hi)
    return max(0.0, math.nextafter(to_float(value._mpi_[0], rnd=round_floor), -math.inf))


def log_odds_lower(share_lo: float) -> float:
    """log(s / (1 - s)) for a lower bound s on a share P / (P + P'), or 0 when that is not positive; rounded down.

    Why it is an eps lower bound: P / P' = s_true / (1 - s_true) increases in the share s_true, so s <= s_true gives
    s / (1 - s) <= P / P' <= e^eps for a pure eps-DP mechanism. Taken in mpmath interval arithmetic, the lower end
    rounded down to a float and then one more ulp (as :func:`eps_lower_bound`); a share of 1 (P' = 0 not excluded
    by the counts) gives inf.

    Raises:
        InvalidParameterError: ``share_lo`` not a real number in [0, 1].
    """
    if isinstance(share_lo, bool) or not isinstance(share_lo, numbers.Real) or not 0 <= share_lo <= 1:
        raise InvalidParameterError(f"share_lo must be a real number in [0, 1]. Got {share_lo!r}")
    if share_lo <= 0.5:
        return 0.0
    if share_lo >= 1.0:
        return math.inf
    value = _IV.log(share_lo) - _IV.log(1 - _IV.mpf(share_lo))
    return max(0.0, math.nextafter(to_float(value._mpi_[0], rnd=round_floor), -math.inf))


def share_eps_lower_bound(share_lo: float, delta: float, p_prime_lo: float) -> float:
    """log(s / (1 - s) - delta / p'_lo) for a lower bound s on the share P / (P + P') and p'_lo on P', or 0 when that is
    not positive; rounded down. With delta = 0 it is :func:`log_odds_lower` (p'_lo is not needed).

    Why it is an eps lower bound: an (eps, delta)-DP mechanism has P <= e^eps P' + delta, so e^eps >= (P - delta) / P'
    = P / P' - delta / P', and P / P' = s_true / (1 - s_true) >= s / (1 - s) while delta / P' <= delta / p'_lo whenever
    both bounds hold. Taken in mpmath interval arithmetic, the lower end rounded down to a float and then one more ulp
    (as :func:`eps_lower_bound`); p'_lo = 0 with delta > 0 gives 0, and a share of 1 gives inf.

    Raises:
        InvalidParameterError: ``share_lo`` or ``p_prime_lo`` not a real number in [0, 1], or ``delta`` not in [0, 1).
    """
    for name, value in (("share_lo", share_lo), ("p_prime_lo", p_prime_lo)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
            raise InvalidParameterError(f"{name} must be a real number in [0, 1]. Got {value!r}")
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real) or not 0 <= delta < 1:
        raise InvalidParameterError(f"delta must be a real number in [0, 1). Got {delta!r}")
    if delta == 0:
        return log_odds_lower(share_lo)
    if share_lo <= 0.5 or p_prime_lo <= 0:
        return 0.0
    if share_lo >= 1.0:
        return math.inf
    s = _IV.mpf(share_lo)
    ratio = s / (1 - s) - _IV.mpf(delta) / _IV.mpf(p_prime_lo)
    if not ratio > 1:  # an interval: True only when its lower end is above 1
        return 0.0
    return max(0.0, math.nextafter(to_float(_IV.log(ratio)._mpi_[0], rnd=round_floor), -math.inf))


@functools.lru_cache(maxsize=1024)
def _cp_lower(k: int, n: int, alpha: float) -> float:
    """:func:`cp_lower` of checked input; memoised, as audits and their rechecks repeat the same counts."""
    if k == 0:
        return 0.0
    return _certified_in_logit(float(beta.ppf(alpha, k, n - k + 1)), lambda b: _lower_is_valid(k, n, alpha, b),
                               side="below")


@functools.lru_cache(maxsize=1024)
def _cp_upper(k: int, n: int, alpha: float) -> float:
    """:func:`cp_upper` of checked input; memoised like :func:`_cp_lower`."""
    if k == n:
        return 1.0
    return _certified_in_logit(float(beta.isf(alpha, k + 1, n - k)), lambda u: _upper_is_valid(k, n, alpha, u),
                               side="above")


def _checked(k: object, n: object, alpha: object) -> tuple[int, int, float]:
    """(k, n, alpha) validated: integers 0 <= k <= n, n >= 1, and alpha in (0, 1) as a float rounded down."""
    n = require_int("n", n, minimum=1)
    k = require_int("k", k, minimum=0, maximum=n)
    allowed = f"alpha must be a real number in (0, 1). Got {alpha!r}"
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise InvalidParameterError(allowed)
    try:
        exact = Fraction(alpha) if isinstance(alpha, (numbers.Rational, float)) else Fraction(float(alpha))
    except (ValueError, OverflowError):  # nan, inf
        raise InvalidParameterError(allowed) from None
    if not 0 < exact < 1:
        raise InvalidParameterError(allowed)
    rounded = float(exact)
    if Fraction(rounded) > exact:  # a smaller alpha only widens the bounds
        rounded = math.nextafter(rounded, 0.0)
    if rounded == 0.0:
        raise InvalidParameterError(f"alpha must be at least the smallest positive float. Got {alpha!r}")
    return k, n, rounded


def _certified_in_logit(guess: float, is_valid: Callable[[float], bool], *, side: str) -> float:
    """The bound nearest the crossing that ``is_valid`` certifies: the largest such float (side "below") or the
    smallest (side "above"); else 0 or 1, which are trivially valid.

    The search runs in logit units, x = log(p / (1 - p)), so its resolution :data:`_RESOLUTION` is relative to
    p near 0 and to 1 - p near 1. scipy's quantile ``guess`` only guides it: the model handed to
    :func:`~dpcert.proofs.certified_root.certified_root` is the logit distance to it (a guess that is not in
    (0, 1), such as NaN, gives no model, and the search bisects). Every value returned is certified (or is
    the trivial bound).
    """
    trivial = 0.0 if side == "below" else 1.0

    def certified(x: float) -> bool:
        p = _expit(x)
        return p == trivial or (0.0 < p < 1.0 and is_valid(p))

    centre = math.log(guess) - math.log1p(-guess) if 0.0 < guess < 1.0 else math.nan
    root = certified_root(lambda x: (x - centre) if side == "below" else (centre - x), certified, -_LOGIT_END,
                          _LOGIT_END, side=side, xtol=_RESOLUTION, rtol=0.0)
    return _expit(root.certified)


def _expit(x: float) -> float:
    """1 / (1 + e^-x) in floats (0 and 1 far out), the same float every time for the same x."""
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _lower_is_valid(k: int, n: int, alpha: float, b: float) -> bool:
    """Whether P(Bin(n, b) >= k) <= alpha is proved (1 <= k <= n, 0 < b < 1); then b <= p_lo."""
    num, den = b.as_integer_ratio()
    return _tail_certified(n, k, num, den - num, den.bit_length() - 1, alpha)


def _upper_is_valid(k: int, n: int, alpha: float, u: float) -> bool:
    """Whether P(Bin(n, u) <= k) <= alpha is proved (0 <= k < n, 0 < u < 1); then u >= p_hi.

    P(Bin(n, u) <= k) = P(Bin(n, 1 - u) >= n - k), and 1 - u is an exact dyadic rational too.
    """
    num, den = u.as_integer_ratio()
    return _tail_certified(n, n - k, den - num, num, den.bit_length() - 1, alpha)


def _tail_certified(n: int, k: int, P: int, Q: int, E: int, alpha: float) -> bool:
    """Whether T = P(Bin(n, p) >= k) <= alpha is proved, for p = P / 2^E, 1 - p = Q / 2^E (P, Q >= 1, 1 <= k <= n).

    The terms t_j = C(n, j) p^j (1 - p)^(n - j) have ratios

        t_{j+1} / t_j = r_j = (n - j) P / ((j + 1) Q),

    a ratio of exact integers that strictly decreases in j. Hence on each side of the mode the terms,
    read away from the mode, fall at least as fast as a geometric series: if r_j < 1 then
    sum_{i >= j} t_i <= t_j / (1 - r_j), and if r_{j-1} > 1 then sum_{i <= j} t_i <= t_j / (1 - 1 / r_{j-1}).

    * k beyond the mode (r_k < 1): T = sum_{j >= k} t_j is summed upward from the anchor a = k, every
      term rounded up, and the rest after the last summed term is bounded by the geometric series.
    * otherwise (r_k >= 1, so r_j > 1 for j < k): T = 1 - L with L = sum_{j < k} t_j, the tail on the
      other side of the mode, summed downward from a = k - 1 with every term rounded down, so L is
      bounded below and T above.

    Terms are integers in units of 2^-96 t_a: T_0 = 2^96, T_{i+1} = ceil (resp. floor) of T_i times the
    integer ratio, so every T_i is on the safe side of the exact term; since every ratio used is <= 1 the
    rounding error of T_i is at most i units, which makes a cheap refutation possible too. The anchor
    t_a is enclosed once in mpmath interval arithmetic (outward rounding) from

        log t_a = log n! - log a! - log (n - a)! + a log P + (n - a) log Q - n E log 2,

    log m! from :func:`_log_factorial` (Stirling's series with a proved remainder bound). The thresholds
    alpha 2^96 / t_a (resp. (1 - alpha) 2^96 / t_a) are rounded to integers in the safe direction, so
    "sum <= threshold" (resp. ">=") is a proof that T <= alpha. The walk stops when proved or refuted, or
    after 16 sd + 64 terms, sd = sqrt(n p (1 - p)) (a budget: by then the terms are far below the 2^-96
    units); undecided counts as not proved.
    """
    one = 1 << _FIXED_BITS
    cap = from_int(one * (n + 1))  # no sum of <= n + 1 terms that fall away from t_a exceeds (n + 1) t_a
    if (n - k) * P < (k + 1) * Q:  # r_k < 1: sum the upper tail itself, rounding up
        anchor, up = k, True
        limit = (_IV.mpf(alpha) * one / _IV.exp(_log_pmf(n, anchor, P, Q, E)))._mpi_
        if mpf_gt(limit[0], cap):  # T <= (n + 1) t_k <= alpha
            return True
        prove, refute = _floor(limit[0]), _ceil(limit[1])  # proved if sum <= prove, refuted if sum > refute
    else:  # sum the lower tail L = 1 - T, rounding down; T <= alpha iff L >= 1 - alpha
        anchor, up = k - 1, False
        limit = ((1 - _IV.mpf(alpha)) * one / _IV.exp(_log_pmf(n, anchor, P, Q, E)))._mpi_
        if mpf_gt(limit[0], cap):  # L <= (n + 1) t_{k-1} < 1 - alpha
            return False
        prove, refute = _ceil(limit[1]), _floor(limit[0])  # proved if sum >= prove, refuted if sum < refute
    term, total, j = one, 0, anchor
    for i in range(16 * math.isqrt(n * P * Q >> 2 * E) + 64):
        if up:
            num, den = (n - j) * P, (j + 1) * Q
        else:
            num, den = j * Q, (n - j + 1) * P
        if i % _CHECK_EVERY == 0:
            if up:  # exact sum in [total - i^2, total + rest]: term_i >= t_{a+i} / t_a, rest by the geometric bound
                if total + -(-term * den // (den - num)) <= prove:
                    return True
                if total - i * i > refute:
                    return False
            else:  # exact sum in [total, total + i^2 + rest]: term_i + i >= t_{a-i} / t_a
                if total >= prove:
                    return True
                if total + i * i + -(-(term + i) * den // (den - num)) < refute:
                    return False
        total += term
        if num == 0:
            return total <= prove if up else total >= prove
        term = -(-term * num // den) if up else term * num // den
        j += 1 if up else -1
    return False


def _log_pmf(n: int, a: int, P: int, Q: int, E: int):
    """An interval enclosing log(C(n, a) p^a (1 - p)^(n - a)) for p = P / 2^E, 1 - p = Q / 2^E."""
    value = _log_factorial(n) - _log_factorial(a) - _log_factorial(n - a) - n * E * _IV.ln2
    if a:
        value += a * _IV.log(P)
    if n - a:
        value += (n - a) * _IV.log(Q)
    return value


@functools.lru_cache(maxsize=256)
def _log_factorial(m: int):
    """An interval enclosing log m! (:func:`dpcert.proofs.log_factorial.log_factorial`), cached."""
    return log_factorial(_IV, m)


def _floor(x: tuple) -> int:
    """floor of an mpf given as its raw (sign, man, exp, bc) tuple, exactly."""
    sign, man, exp, _ = x
    man = -man if sign else man
    return man << exp if exp >= 0 else man >> -exp


def _ceil(x: tuple) -> int:
    """ceil of an mpf given as its raw (sign, man, exp, bc) tuple, exactly."""
    sign, man, exp, bc = x
    return -_floor((1 - sign, man, exp, bc))
