"""Fano-type lower bounds on the number of users an eps-LDP clustering learner needs.

Fano's inequality takes mutual information in **bits**; the information bounds
(:mod:`dpcert.accountant.channel_information`, :mod:`dpcert.accountant.price_of_privacy.per_user_bounds`) are in **nats** and are
converted here with ``log2(e) = 1/ln 2`` explicitly (spec §9 E1). A user threshold T means: with
fewer than T users, *every* learner of the stated kind has average error > p_max (hence is
unreliable: its worst-case error exceeds p_max).
Thresholds are lower bounds on a sample complexity, so an enclosed threshold reports its **lower** end.

References: 000_0c6e7fdc3fd68303.txt (Lemma 5, Theorem 7, Theorem 10, Lemma 20, Corollaries 21-22,
Theorem 23, Appendix A).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.channel_information import LOG2E, SOURCE
from dpcert.accountant.exact_intervals import _IV, INTERVAL_BITS, MAX_EXACT_DIGITS, _iv_ends, _iv_lgamma, _rational
from dpcert.accountant.input_validation import _eps, _nonnegative, _probability_open, _sign
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive, to_exact

__all__ = [
    "ChernoffCheck",
    "FanoWitness",
    "appendix_a_chernoff_check",
    "fano_distortion_lower_bound",
    "fano_error_lower_bound",
    "ldp_fano_distortion",
    "theorem_7_paper_witness",
    "theorem_7_user_threshold",
    "theorem_10_user_threshold",
    "theorem_23_user_threshold",
    "users_unreliable",
]

_EXACT_TAIL_D_MAX = 2000
"""The binomial tail sum has d + 1 terms; up to this d it is summed exactly with integers."""


def _max0(expr: sympy.Expr) -> sympy.Expr:
    return sympy.Integer(0) if _sign("bound", expr) <= 0 else expr


def _log2_class(name: str, size: object, log2_size: object, *, minimum: int) -> sympy.Expr:
    """log2 of a class size, given either the size (an integer >= minimum) or its log2 (exact)."""
    if (size is None) == (log2_size is None):
        raise InvalidParameterError(f"give exactly one of {name} and log2_{name}")
    if size is not None:
        n = require_int(name, size, minimum=minimum)
        return sympy.log(n, 2)
    value = to_exact(f"log2_{name}", log2_size)
    floor = sympy.log(minimum, 2)  # 1 for M (M >= 2), 0 for M_d (M_d >= 1)
    if _sign(f"log2_{name}", value - floor) < 0:
        raise InvalidParameterError(f"log2_{name} must be >= {floor}. Got {value}")
    return value


def fano_error_lower_bound(I_bits: object, *, M: object = None, log2_M: object = None) -> sympy.Expr:
    """Lemma 5 (Fano): ``P[H_hat != H] >= max(0, 1 - (I + 1)/log2 M)`` for H uniform on M hypotheses.

    Args:
        I_bits: the mutual information between H and everything the learner sees, in **bits** (>= 0).
        M: the number of hypotheses (an integer >= 2); or give ``log2_M`` instead (e.g. N for 2^N).

    Returns:
        The exact lower bound on the average error probability.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 5.
    """
    info = _nonnegative("I_bits", I_bits)
    log2m = _log2_class("M", M, log2_M, minimum=2)
    return _max0(1 - (info + 1) / log2m)


def fano_distortion_lower_bound(I_bits: object, *, M: object = None, M_d: object = None, log2_M: object = None,
                                log2_M_d: object = None) -> sympy.Expr:
    """Lemma 20 (Fano with distortion): ``P[d(Z_hat, Z) > d] >= 1 - (I + 1)/(log2 M - log2 M_d)``.

    ``M_d = max_h |B_d(h)|`` is the largest number of hypotheses within tolerance d of one hypothesis
    (1 <= M_d < M). Clipped at 0. I in **bits**.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 20.
    """
    info = _nonnegative("I_bits", I_bits)
    log2m = _log2_class("M", M, log2_M, minimum=2)
    log2md = _log2_class("M_d", M_d, log2_M_d, minimum=1)
    gap = log2m - log2md
    if _sign("M_d", gap) <= 0:
        raise InvalidParameterError(f"M_d must be < M. Got log2 M = {log2m}, log2 M_d = {log2md}")
    return _max0(1 - (info + 1) / gap)


def ldp_fano_distortion(U: object, eps: object, *, M: object = None, M_d: object = None, log2_M: object = None,
                        log2_M_d: object = None) -> sympy.Expr:
    """Corollary 22: ``P_e >= 1 - (1/ln 2)(U eps + 1)/(log2 M - log2 M_d)`` for U eps-LDP users.

    Lemma 20 with Lemma 6 (each eps-LDP user gives at most eps nats = eps log2(e) bits). As printed it
    is slightly weaker than ``1 - (U eps log2 e + 1)/(...)`` (the +1 is also divided by ln 2) but valid.
    Clipped at 0.

    References: 000_0c6e7fdc3fd68303.txt, Corollary 22.
    """
    users = _nonnegative("U", U)
    e = _eps(eps)
    log2m = _log2_class("M", M, log2_M, minimum=2)
    log2md = _log2_class("M_d", M_d, log2_M_d, minimum=1)
    gap = log2m - log2md
    if _sign("M_d", gap) <= 0:
        raise InvalidParameterError(f"M_d must be < M. Got log2 M = {log2m}, log2 M_d = {log2md}")
    return _max0(1 - LOG2E * (users * e + 1) / gap)


def users_unreliable(I_per_user_nats: object, log2M: object, *, p_max: object = sympy.Rational(1, 2)) -> sympy.Expr:
    """Corollary 21: with fewer than ``((1 - p_max) log2 M - 1) / (I log2 e)`` users, average error > p_max.

    For non-adaptive learners whose users' sketches are i.i.d. given the hypothesis, each carrying at
    most ``I_per_user_nats`` nats: ``I(H; S_1..S_U) <= U I`` nats ``= U I log2(e)`` bits, and Fano
    (Lemma 5) gives ``P_e >= 1 - (U I log2 e + 1)/log2 M > p_max``. Returns 0 when
    ``(1 - p_max) log2 M <= 1`` (Fano proves nothing).

    Args:
        I_per_user_nats: an upper bound on one user's information, in **nats** (> 0).
        log2M: log2 of the number of hypotheses (N for the 2^N two-cluster clusterings).
        p_max: the error level, in (0, 1).

    References: 000_0c6e7fdc3fd68303.txt, Corollary 21 (Appendix A), Lemma 5.
    """
    info = require_positive("I_per_user_nats", I_per_user_nats)
    log2m = require_positive("log2M", log2M)
    p = _probability_open("p_max", p_max)
    return _max0(((1 - p) * log2m - 1) / (info * LOG2E))


# ---------------------------------------------------------------------------------------------
# Theorem 7 and its printed constant
# ---------------------------------------------------------------------------------------------

def theorem_7_user_threshold(N: object, eps: object, *, p_max: object = sympy.Rational(1, 2),
                             form: str = "corrected") -> BoundResult:
    """Theorem 7: any eps-LDP learner (adaptive or not) of a uniform C_N in {0,1}^N is unreliable if U < T.

    ``form="corrected"``: ``T = ((1 - p_max) N - 1)/(eps log2 e)``, exactly what Fano (Lemma 5) with
    ``I <= U eps log2 e`` bits (Lemma 6 and the chain rule) gives for average error > p_max.
    ``form="paper"``: the paper's printed ``T = N/(eps log2 e)`` (p_max = 1/2). It is about 2x too
    large: at that U, Fano's bound is ``1 - (N + 1)/N < 0``, vacuous (spec §9 E2); so the result is
    ``valid=False``. See :func:`theorem_7_paper_witness`.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 7.
    """
    n = require_int("N", N, minimum=2)
    e = _eps(eps)
    p = _probability_open("p_max", p_max)
    source = f"{SOURCE}, Theorem 7"
    if form == "corrected":
        return BoundResult("theorem7", source, _max0(((1 - p) * n - 1) / (e * LOG2E)), "users", True,
                           f"fewer users give average error > {p} for every eps-LDP learner, adaptive or not "
                           "(Lemma 6 + Fano, corrected constant)", bounds="lower")
    if form == "paper":
        return BoundResult("theorem7-paper", source, n / (e * LOG2E), "users", False,
                           "paper's printed constant N/(eps log2 e): at this U Fano's bound is 1 - (N+1)/N < 0, "
                           "vacuous; the proof gives only the corrected threshold (spec §9 E2)", bounds="lower")
    raise InvalidParameterError(f"form must be 'corrected' or 'paper'. Got {form!r}")


@dataclass(frozen=True)
class FanoWitness:
    """Fano's bound at a user count below a claimed threshold: a witness that the claim's proof fails.

    Attributes:
        N: number of items (log2 M = N).
        eps: the privacy parameter.
        users: U, the largest integer strictly below ``threshold``.
        threshold: the claimed threshold (exact).
        fano_bound: Fano's lower bound on the average error at U users (exact, clipped at 0).
        p_max: the error level the claim needs Fano to exceed.
    """

    N: int
    eps: sympy.Expr
    users: int
    threshold: sympy.Expr
    fano_bound: sympy.Expr
    p_max: sympy.Expr

    @property
    def refutes(self) -> bool:
        """True when Fano's bound at ``users`` is <= p_max: the claimed threshold is not proved by Fano."""
        return _sign("fano_bound", self.fano_bound - self.p_max) <= 0

    def recheck(self) -> bool:
        """Recompute the threshold and Fano's bound at ``users`` from N and eps; confirm U < T and bound <= p_max."""
        threshold = self.N / (self.eps * LOG2E)
        bound = fano_error_lower_bound(self.users * self.eps * LOG2E, log2_M=self.N)
        return (_sign("users", threshold - self.users) > 0 and _sign("fano_bound", bound - self.p_max) <= 0
                and _sign("fano_bound", bound - self.fano_bound) == 0)


def theorem_7_paper_witness(N: object, eps: object) -> FanoWitness:
    """Fano's bound just below Theorem 7's printed threshold ``N/(eps log2 e)``: it is <= 1/2.

    At ``U = ceil(N ln 2 / eps) - 1`` users, Fano with the chain-rule bound ``I <= U eps log2 e`` bits
    gives average error >= ``1 - (U eps log2 e + 1)/N``, which is <= 1/2 whenever
    ``eps log2 e <= N/2 + 1`` (at the threshold itself it is ``-1/N``). So the printed constant does not
    follow from the paper's proof (spec §9 E2); :attr:`FanoWitness.refutes` says whether it fails here.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 7 (proof).
    """
    n = require_int("N", N, minimum=2)
    e = _eps(eps)
    threshold = n / (e * LOG2E)
    users = int(sympy.ceiling(threshold)) - 1
    if _sign("users", threshold - users) <= 0 or _sign("users", threshold - users - 1) > 0:  # certify ceiling
        raise ArithmeticError(f"could not certify ceil({threshold})")
    bound = fano_error_lower_bound(users * e * LOG2E, log2_M=n)
    return FanoWitness(n, e, users, threshold, bound, sympy.Rational(1, 2))


def theorem_10_user_threshold(N: object, *, p_max: object = sympy.Rational(1, 2)) -> BoundResult:
    """Theorem 10 with its constant: 1-bit non-private sketches (w = 1) need ``U >= ((1 - p_max) N - 1) N ln 2``.

    Each 1-bit sketch of (I, Z_I) carries at most 1/N nats (Theorem 10, exact bound), so with i.i.d.
    (non-adaptive) users Corollary 21 gives average error > p_max below
    ``((1 - p_max) N - 1)/((1/N) log2 e)``; for p_max = 1/2 this is ``(N/2 - 1) N ln 2``.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 10, Corollary 21.
    """
    n = require_int("N", N, minimum=2)
    p = _probability_open("p_max", p_max)
    return BoundResult("theorem10", f"{SOURCE}, Theorem 10", users_unreliable(sympy.Rational(1, n), n, p_max=p),
                       "users", True, "non-private 1-bit sketches, w = 1, non-adaptive users; I <= 1/N nats each",
                       bounds="lower")


# ---------------------------------------------------------------------------------------------
# Appendix A: distortion, Theorem 23 and the Chernoff step
# ---------------------------------------------------------------------------------------------

def _tail_sum(N: int, K: int, d: int) -> int:
    """S = sum_{i=0}^{d} C(N, i) (K-1)^i exactly, so that P[Bin(N, 1/K) >= N - d] = S / K^N."""
    term, total = 1, 1
    for i in range(1, d + 1):
        term = term * (N - i + 1) * (K - 1) // i
        total += term
    return total


def _log_tail_sum(N: int, K: int, d: int) -> tuple[sympy.Expr | None, Fraction, Fraction, str]:
    """ln S for S = sum_{i<=d} C(N,i)(K-1)^i: (exact expression or None, lower, upper, note)."""
    return _log_tail_sum_cached(N, K, d, _EXACT_TAIL_D_MAX)


@functools.lru_cache(maxsize=256)
def _log_tail_sum_cached(N: int, K: int, d: int, exact_d_max: int) -> tuple[sympy.Expr | None, Fraction, Fraction, str]:
    if d <= exact_d_max:
        total = _tail_sum(N, K, d)
        lo, hi = _iv_ends(_IV.log(_IV.mpf(total)))
        if total.bit_length() <= 3 * MAX_EXACT_DIGITS:
            return sympy.log(sympy.Integer(total)), lo, hi, ""
        return None, lo, hi, f"ln of the exact tail sum by {INTERVAL_BITS}-bit interval arithmetic"
    # S lies between its last term t_d = C(N, d)(K-1)^d and t_d / (1 - rho): the terms grow with i
    # at least geometrically, t_{i-1}/t_i = i/((N-i+1)(K-1)) <= rho = d/((N-d+1)(K-1)).
    log_term = _iv_lgamma(N + 1) - _iv_lgamma(d + 1) - _iv_lgamma(N - d + 1)
    if K > 2:
        log_term = log_term + d * _IV.log(_IV.mpf(K - 1))
    rho = Fraction(d, (N - d + 1) * (K - 1))
    if rho < 1:
        upper = log_term - _IV.log(_IV._mpq(((1 - rho).numerator, (1 - rho).denominator)))
    else:  # S <= K^N
        upper = N * _IV.log(_IV.mpf(K))
    lo, _ = _iv_ends(log_term)
    _, hi = _iv_ends(upper)
    return None, lo, hi, f"tail sum enclosed by its largest term and a geometric series ({INTERVAL_BITS}-bit)"


def _distortion_nats(N: int, K: int, d: int) -> tuple[sympy.Expr | None, sympy.Expr, sympy.Expr, str]:
    """Lb ln 2 = -ln P[Bin(N, 1/K) >= N - d] = N ln K - ln S: (exact or None, lower, upper, note), in nats."""
    exact_log, lo, hi, note = _log_tail_sum(N, K, d)
    base = N * sympy.log(K)
    exact = None if exact_log is None else base - exact_log
    return exact, base - _rational(hi), base - _rational(lo), note


def _appendix_a_params(N: object, K: object, d: object) -> tuple[int, int, int]:
    n = require_int("N", N, minimum=2)
    k = require_int("K", K, minimum=2)
    dd = require_int("d", d, minimum=0, maximum=n - 1)
    return n, k, dd


def theorem_23_user_threshold(N: object, K: object, d: object, eps: object, *, p_max: object = sympy.Rational(1, 2),
                              exact_tail: bool = True) -> BoundResult:
    """Theorem 23: eps-LDP learning of a K-clustering of N items within Hamming tolerance d.

    With H all labelled maps [N] -> [K] (M = K^N) and Hamming balls of radius d
    (``M_d = sum_{i<=d} C(N,i)(K-1)^i``; the paper's 1/K! factors cancel),
    ``Lb := log2 M - log2 M_d = -log2 P[Binomial(N, 1/K) >= N - d]`` exactly, and Lemma 20 with
    Lemma 6 gives average error > p_max whenever

    ``U < ((1 - p_max) Lb - 1)/(eps log2 e)``   (``exact_tail=True``, name "theorem23").

    The tail is summed exactly with integers for d <= 2000 (else enclosed rigorously) and the
    threshold is exact or the lower end of an enclosure. ``exact_tail=False`` gives the paper's
    ``(1 - p_max) N K (1 - d/N - 1/K)^2/(3 eps)`` ("theorem23-paper"), which rests on a Chernoff
    bound that fails for large K (spec §9 E4, see :func:`appendix_a_chernoff_check`) and drops the
    ``-1``; it is ``valid`` only when it does not exceed the proved threshold.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 23, Lemma 20, Corollary 22.
    """
    n, k, dd = _appendix_a_params(N, K, d)
    e = _eps(eps)
    p = _probability_open("p_max", p_max)
    source = f"{SOURCE}, Theorem 23"
    exact, lb_lo, lb_hi, note = _distortion_nats(n, k, dd)

    def threshold(lb_nats: sympy.Expr) -> sympy.Expr:  # ((1 - p) Lb - 1)/(eps log2 e) with Lb = lb_nats/ln 2
        return _max0(((1 - p) * lb_nats - sympy.log(2)) / e)

    if exact is not None:
        lower = upper = threshold(exact)
    else:
        lower, upper = threshold(lb_lo), threshold(lb_hi)
    if exact_tail:
        if lower == upper:
            return BoundResult("theorem23", source, lower, "users", True,
                               f"exact binomial tail; fewer users give average error > {p} within tolerance d",
                               bounds="lower")
        return BoundResult("theorem23", source, lower, "users", True,
                           f"{note}; value is the lower end of a rigorous enclosure", lower_value=lower,
                           upper_value=upper, bounds="lower")
    margin = 1 - sympy.Rational(dd, n) - sympy.Rational(1, k)
    paper = (1 - p) * n * k * margin**2 / (3 * e)
    if _sign("d", margin) <= 0:
        return BoundResult("theorem23-paper", source, paper, "users", False,
                           "paper's form; needs 1 - d/N - 1/K > 0 (the Chernoff step bounds an upper tail)",
                           bounds="lower")
    holds = _sign("threshold", lower - paper) >= 0
    chernoff_delta = k * (1 - sympy.Rational(dd, n)) - 1
    reason = ("the Chernoff form exp(-delta^2 mu/3) needs delta = K(1-d/N) - 1 <= 1; here delta = "
              f"{chernoff_delta}" if chernoff_delta > 1 else "it also drops Fano's -1")
    note = ("paper's form (1-p_max) N K (1-d/N-1/K)^2/(3 eps); " +
            ("does not exceed the proved exact-tail threshold" if holds else
             f"exceeds the proved exact-tail threshold: {reason} (spec §9 E4)"))
    return BoundResult("theorem23-paper", source, paper, "users", holds, note, bounds="lower")


@dataclass(frozen=True)
class ChernoffCheck:
    """Appendix A's Chernoff step ``P[Bin(N, 1/K) >= N - d] <= exp(-N K (1 - d/N - 1/K)^2 / 3)``, checked.

    Attributes:
        N, K, d: the inputs.
        tail: the exact tail probability (a Rational), or None when K^N is too large to print.
        log_tail: (lower, upper) exact enclosure of ln(tail) (equal ends only when exact).
        paper_bound: ``exp(-N K (1 - d/N - 1/K)^2/3)``, exact.
        holds: whether tail <= paper_bound (decided exactly or on the rigorous enclosure).
        chernoff_delta: ``delta = K (1 - d/N) - 1``; the form ``exp(-delta^2 mu/3)`` needs delta <= 1.
    """

    N: int
    K: int
    d: int
    tail: sympy.Rational | None
    log_tail: tuple[sympy.Expr, sympy.Expr]
    paper_bound: sympy.Expr
    holds: bool
    chernoff_delta: sympy.Rational

    @property
    def chernoff_applicable(self) -> bool:
        """Whether delta <= 1, where the multiplicative Chernoff bound exp(-delta^2 mu/3) is proved."""
        return self.chernoff_delta <= 1


def appendix_a_chernoff_check(N: object, K: object, d: object) -> ChernoffCheck:
    """Compare the exact binomial tail of Appendix A with the paper's exponential bound.

    ``P[Binomial(N, 1/K) >= N - d] = sum_{i<=d} C(N,i)(K-1)^i / K^N`` (exact) against
    ``exp(-N K (1 - d/N - 1/K)^2/3)``. The bound is the multiplicative Chernoff form
    ``exp(-delta^2 mu/3)``, valid only for ``delta = K(1 - d/N) - 1 <= 1``; it fails e.g. at
    N = 10, K = 10, d = 0 (exact 1.0e-10 > 1.9e-12) and N = 10, K = 20, d = 3 (8.2e-8 > 5.9e-13),
    spec §9 E4.

    References: 000_0c6e7fdc3fd68303.txt, Appendix A (before Theorem 23).
    """
    n, k, dd = _appendix_a_params(N, K, d)
    exponent = sympy.Rational(n * k, 3) * (1 - sympy.Rational(dd, n) - sympy.Rational(1, k)) ** 2
    paper = sympy.exp(-exponent)
    exact_log, lo, hi, _ = _log_tail_sum(n, k, dd)
    base = n * sympy.log(k)
    tail = None
    if exact_log is not None and n * math.log10(k) <= MAX_EXACT_DIGITS:
        tail = sympy.Rational(_tail_sum(n, k, dd), k**n)
        holds = _sign("tail", paper - tail) >= 0
        log_tail = (sympy.log(tail), sympy.log(tail))
    else:
        log_lo, log_hi = _rational(lo) - base, _rational(hi) - base  # ln tail = ln S - N ln K
        if _sign("tail", -exponent - log_hi) >= 0:
            holds = True
        elif _sign("tail", log_lo + exponent) > 0:
            holds = False
        else:
            raise ArithmeticError("the tail enclosure is too wide to decide the Chernoff comparison")
        log_tail = (log_lo, log_hi)
    return ChernoffCheck(n, k, dd, tail, log_tail, paper, holds, k * (1 - sympy.Rational(dd, n)) - 1)
