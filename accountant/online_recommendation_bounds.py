"""Loss and privacy bounds of "On Differentially Private Online Collaborative Recommendation Systems".

Gilbert, Liu, Yu (001_8845c8f909738498.txt); exact constants from the proofs in
specs/gilbert_online_recommendation.md, sections 2.5, 2.6 and 3. Every function returns a
:class:`~dpcert.accountant.bound_result.BoundResult` with an exact sympy value; when a theorem's conditions fail
at the given inputs the result has ``valid=False`` and says why. With tau = T/(R+1):

    gamma = m/(3 tau - 1),  lambda = 2m ln tau,  rho = 1/(2m).

Where the spec finds the paper's constant loose or garbled (section 6), both forms are available and
labelled: ``form="paper"`` is the printed constant, ``form="tight"`` the one the proof gives. The paper's
own slips with checkable content have witnesses here: :func:`lemma4_equivalence_witness` (A7) and
:func:`uniform_rounds_order_witness` (A2).

References: 001_8845c8f909738498.txt, Theorems 1, 2, 6, 7, 10, 11, 15, 16, 17 and Lemmas 8, 12-14, 18-19.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

import numpy as np

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.symbolic_facts import SymbolicFact, nonnegative_everywhere
from dpcert.mechanisms.online_recommendation.likelihood import PrivacyLossTrace
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, to_exact

__all__ = [
    "KL_CONSTANT",
    "Lemma4Witness",
    "TraceLemmaCheck",
    "check_privacy_lemmas",
    "UniformRoundsWitness",
    "eps_bounds_gap",
    "eps_lower",
    "eps_lower_D0R0",
    "eps_lower_thm15",
    "eps_upper_prec",
    "eps_upper_sim",
    "greedy_loss_bound",
    "leaky_round_bound",
    "lemma13_bound",
    "lemma14_factor",
    "lemma18_bound",
    "lemma4_equivalence_witness",
    "loss_lower_dp_D0R0",
    "loss_lower_nonprivate",
    "loss_upper_prec",
    "loss_upper_sim",
    "online_recommendation_facts",
    "per_round_leak_bound",
    "theorem15_kl_constant",
    "theorem2_bounds",
    "uniform_round_loss",
    "uniform_rounds_order_witness",
    "online_recommendation_family",
]

SOURCE = "001_8845c8f909738498.txt"
KL_CONSTANT = sympy.Rational(13, 100)
"""The paper's 0.13, a lower bound on KL(Bern(3/4) || Bern(1/2)) = 0.1308120... (Theorem 15)."""
FORMS = ("paper", "tight")


def _source(where: str) -> str:
    return f"{SOURCE}, {where}"


def _form(form: object) -> str:
    if form not in FORMS:
        raise InvalidParameterError(f"form must be 'paper' or 'tight'. Got {form!r}")
    return str(form)


def _tau_conditions(m: int, T: int, R: int) -> list[str]:
    """Why gamma and lambda of p-REC are undefined or outside the privacy proofs (empty if all is well)."""
    failed = []
    if R + 1 >= T:
        failed.append(f"tau = T/(R+1) = {sympy.Rational(T, R + 1)} must be > 1 (lambda > 0)")
    elif 3 * T <= (m + 1) * (R + 1):
        failed.append(f"tau = {sympy.Rational(T, R + 1)} must be > (m+1)/3 (gamma < 1)")
    return failed


def _privacy_conditions(m: int, T: int, R: int, peers: tuple[str, int] | None) -> list[str]:
    """Why the privacy proofs (Lemmas 12-14, 18-19) do not apply; ``peers`` = (name, value) of P or W."""
    failed = _tau_conditions(m, T, R)
    if not failed and sympy.Rational(T, R + 1) ** 2 < 8:
        failed.append(f"tau = {sympy.Rational(T, R + 1)} must be >= 2^(3/2) (Lemma 13)")
    if peers is not None and peers[1] < 6 * m:
        failed.append(f"{peers[0]} = {peers[1]} must be >= 6m = {6 * m} (Lemmas 12-14 use W_t >= P >= 6m)")
    return failed


def _result(name: str, where: str, value: sympy.Expr, units: str, failed: list[str], note: str) -> BoundResult:
    if failed:
        return BoundResult(name, _source(where), None, units, False, "; ".join(failed))
    return BoundResult(name, _source(where), value, units, True, note)


def _n_P(n: object, P: object) -> tuple[int, int]:
    P = require_int("P", P, minimum=1)
    n = require_int("n", n, minimum=P)
    return n, P


def _eps(eps: object) -> sympy.Expr:
    value = to_exact("eps", eps)
    if exact_sign(value) < 0:
        raise InvalidParameterError(f"eps must be >= 0. Got {value}")
    return value


def _loss(L: object) -> sympy.Expr:
    value = to_exact("L", L)
    if exact_sign(value) <= 0:
        raise InvalidParameterError(f"L must be > 0. Got {value}")
    return value


def _lam(m: int, T: int, R: int) -> sympy.Expr:
    return 2 * m * sympy.log(sympy.Rational(T, R + 1))


# ---------------------------------------------------------------------------------------------
# Lower bounds: Theorem 6 (non-private), Lemma 8 / Theorem 7, Theorem 15, Theorem 1
# ---------------------------------------------------------------------------------------------

def loss_lower_nonprivate(m: object, n: object, P: object, R: object) -> BoundResult:
    """Theorem 6: every algorithm, private or not, has worst-case expected loss >= max(log part, R part).

    log part = (1/2)(m - 1) floor(log_m(n/P)) (adapted from DSybil [41], quoted without proof: spec A10);
    R part = (1 - 1/m) R (the client likes a uniformly random object in the first R rounds).

    References: 001_8845c8f909738498.txt, Theorem 6.
    """
    m = require_int("m", m, minimum=2)
    n, P = _n_P(n, P)
    R = require_int("R", R, minimum=0)
    k = 0
    while P * m ** (k + 1) <= n:  # k = floor(log_m(n / P)), in exact integers
        k += 1
    log_part = sympy.Rational((m - 1) * k, 2)
    r_part = (1 - sympy.Rational(1, m)) * R
    return BoundResult("theorem6", _source("Theorem 6"), sympy.Max(log_part, r_part), "loss", True,
                       f"max((m-1)/2 floor(log_m(n/P)) = {log_part}, (1-1/m) R = {r_part}); the log part's constant "
                       "is quoted from [41] without proof (spec A10)", bounds="lower")


def loss_lower_dp_D0R0(T: object, P: object, eps: object) -> BoundResult:
    """Lemma 8: with D = R = 0, every eps-DP algorithm has worst-case expected loss >= (T/2) e^{-P eps}.

    Proved with m = 2 objects per round (spec A11): Claim 1's chain of 2P + 1 patterns and group privacy.

    References: 001_8845c8f909738498.txt, Lemma 8.
    """
    T = require_int("T", T, minimum=1)
    P = require_int("P", P, minimum=1)
    e = _eps(eps)
    return BoundResult("lemma8", _source("Lemma 8"), sympy.Rational(T, 2) * sympy.exp(-P * e), "loss", True,
                       "any eps-DP algorithm, D = R = 0, m = 2 (oblivious adversary)", bounds="lower")


def eps_lower_D0R0(T: object, L: object, P: object) -> BoundResult:
    """Theorem 7 (Lemma 8 inverted): an eps-DP algorithm with worst-case expected loss L has eps >= ln(T/(2L))/P.

    Valid for every D, R >= 0 (a D_C = 0, distance-0 instance is admissible for any D, R: spec A12);
    vacuous (<= 0) when L >= T/2.

    References: 001_8845c8f909738498.txt, Theorem 7 and Lemma 8.
    """
    T = require_int("T", T, minimum=1)
    loss = _loss(L)
    P = require_int("P", P, minimum=1)
    value = sympy.log(sympy.Integer(T) / (2 * loss)) / P
    vacuous = exact_sign(2 * loss - T) >= 0
    return BoundResult("theorem7", _source("Theorem 7"), value, "eps", True,
                       "eps >= ln(T/(2L))/P" + (" (vacuous: L >= T/2)" if vacuous else ""), bounds="lower")


def eps_lower_thm15(T: object, L: object, D: object, R: object, P: object) -> BoundResult:
    """Theorem 15 with the proof's constants: eps >= (0.13/(2P)) min(S/4 - 1, T/8 - 8(L+1) - 1), S = min(D+R, T).

    Conditions: D + R >= 6 ln T (Chernoff: e^{-(D+R)/6} <= 1/T). The paper states only Omega((D+R)/P);
    the explicit form is the spec's conservative reading of the proof (A13), with 0.13 <
    KL(Bern(3/4) || Bern(1/2)) = 0.1308120. It is positive only for large T.

    References: 001_8845c8f909738498.txt, Theorem 15 (Section 8.1).
    """
    T = require_int("T", T, minimum=1)
    loss = _loss(L)
    D = require_int("D", D, minimum=0)
    R = require_int("R", R, minimum=0)
    P = require_int("P", P, minimum=1)
    if exact_sign(D + R - 6 * sympy.log(T)) < 0:
        return BoundResult("theorem15", _source("Theorem 15"), None, "eps", False,
                           f"needs D + R >= 6 ln T = {float(6 * sympy.log(T)):.4g}; got D + R = {D + R}",
                           bounds="lower")
    S = min(D + R, T)
    value = KL_CONSTANT / (2 * P) * sympy.Min(sympy.Rational(S, 4) - 1, sympy.Rational(T, 8) - 8 * (loss + 1) - 1)
    return BoundResult("theorem15", _source("Theorem 15"), value, "eps", True,
                       "explicit constants derived from the proof (spec A13); the paper states Omega((D+R)/P)",
                       bounds="lower")


def eps_lower(T: object, L: object, D: object, R: object, P: object) -> BoundResult:
    """Theorem 1: eps >= max(ln(T/(2L))/P, Theorem 15's bound when D + R >= 6 ln T).

    References: 001_8845c8f909738498.txt, Theorem 1 (Theorems 7 and 15).
    """
    parts = [eps_lower_D0R0(T, L, P), eps_lower_thm15(T, L, D, R, P)]
    valid = [p for p in parts if p.valid]
    return BoundResult("theorem1", _source("Theorem 1"), sympy.Max(*(p.value for p in valid)), "eps", True,
                       "max of " + ", ".join(p.name for p in valid) + " (oblivious adversary, m = 2)", bounds="lower")


def theorem15_kl_constant() -> BoundResult:
    """KL(Bern(3/4) || Bern(1/2)) = (3/4) ln(3/2) + (1/4) ln(1/2) = 0.1308120..., which the paper rounds to 0.13.

    References: 001_8845c8f909738498.txt, Theorem 15 (cases 2.a and 2.b).
    """
    value = sympy.Rational(3, 4) * sympy.log(sympy.Rational(3, 2)) + sympy.Rational(1, 4) * sympy.log(sympy.Rational(1, 2))
    above = exact_sign(value - KL_CONSTANT) > 0
    return BoundResult("theorem15-kl", _source("Theorem 15"), value, "nats", True,
                       f"{'>' if above else '<='} 0.13, the paper's constant", bounds="exact")


# ---------------------------------------------------------------------------------------------
# Upper bounds on loss: Theorems 10 and 16
# ---------------------------------------------------------------------------------------------

def uniform_round_loss(m: object, T: object, R: object = 0) -> BoundResult:
    """The expected number of uniform rounds, gamma T = m(R+1)T/(3T - R - 1) (<= m(R+1)/2 iff T >= R + 1).

    It bounds the expected loss of the rounds with Z_t = 1. Theorem 16's proof calls it O(R); it is
    O(R + 1): at R = 0 it is mT/(3T - 1) >= m/3 (spec A2, :func:`uniform_rounds_order_witness`).

    References: 001_8845c8f909738498.txt, Theorems 10 and 16 (proofs).
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    R = require_int("R", R, minimum=0)
    value = sympy.Rational(m * (R + 1) * T, 3 * T - R - 1) if 3 * T > R + 1 else sympy.Integer(0)
    return _result("uniform-rounds", "Theorems 10 and 16", value, "rounds", _tau_conditions(m, T, R),
                   "gamma T; O(R+1), not the O(R) of Theorem 16's proof (spec A2)")


def greedy_loss_bound(m: object, n: object, P: object, R: object = 0) -> BoundResult:
    """Every run: #{t : Z_t = 0 and the client dislikes b_t} <= ln((2R+1)n/((R+1)P)) / -ln(1 - 1/(2m(2R+1))).

    Such a round costs more than a rho = 1/(2m) fraction of the survivors one R-credit, so C^(R) shrinks
    by the factor 1 - rho/(2R+1), from <= (2R+1)n to >= (R+1)P (peers are never removed). R = 0 is
    p-REC_sim's ln(n/P)/-ln(1 - 1/(2m)).

    References: 001_8845c8f909738498.txt, Theorems 10 and 16 (proofs); spec T16.
    """
    m = require_int("m", m, minimum=2)
    n, P = _n_P(n, P)
    R = require_int("R", R, minimum=0)
    value = (sympy.log(sympy.Rational((2 * R + 1) * n, (R + 1) * P))
             / -sympy.log(1 - sympy.Rational(1, 2 * m * (2 * R + 1))))
    return BoundResult("greedy-loss", _source("Theorems 10 and 16"), value, "loss", True,
                       "pathwise, any adaptive adversary with >= P peers")


def _loss_upper(m: int, n: int, P: int, R: int, T: int, form: str, name: str, where: str) -> BoundResult:
    if form == "paper":
        greedy = 2 * m * (2 * R + 1) * sympy.log(sympy.Rational((2 * R + 1) * n, (R + 1) * P))
        note = "paper's form: 2m(2R+1) ln((2R+1)n/((R+1)P)) + gamma T"
    else:
        greedy = greedy_loss_bound(m, n, P, R).value
        note = "proof's form: ln((2R+1)n/((R+1)P)) / -ln(1 - 1/(2m(2R+1))) + gamma T"
    uniform = uniform_round_loss(m, T, R)
    return _result(name if form == "paper" else f"{name}-tight", where, greedy + (uniform.value or 0), "loss",
                   _tau_conditions(m, T, R), note)


def loss_upper_sim(m: object, n: object, P: object, T: object, *, form: str = "paper") -> BoundResult:
    """Theorem 10: p-REC_sim's worst-case expected loss is <= 2m ln(n/P) + mT/(3T - 1) (<= 2m ln(n/P) + m/2).

    ``form="tight"`` replaces 2m ln(n/P) by ln(n/P)/-ln(1 - 1/(2m)), what the proof gives.

    References: 001_8845c8f909738498.txt, Theorem 10.
    """
    m = require_int("m", m, minimum=2)
    n, P = _n_P(n, P)
    T = require_int("T", T, minimum=1)
    return _loss_upper(m, n, P, 0, T, _form(form), "theorem10", "Theorem 10")


def loss_upper_prec(m: object, n: object, P: object, R: object, T: object, *, form: str = "paper") -> BoundResult:
    """Theorem 16: p-REC's worst-case expected loss is <= 2m(2R+1) ln((2R+1)n/((R+1)P)) + m(R+1)T/(3T-R-1).

    The statement prints O((R+1) log n/p) (lowercase p: log(n/P), spec A2). ``form="tight"`` uses
    ln(.)/-ln(1 - 1/(2m(2R+1))) for the greedy rounds.

    References: 001_8845c8f909738498.txt, Theorem 16.
    """
    m = require_int("m", m, minimum=2)
    n, P = _n_P(n, P)
    R = require_int("R", R, minimum=0)
    T = require_int("T", T, minimum=1)
    return _loss_upper(m, n, P, R, T, _form(form), "theorem16", "Theorem 16")


# ---------------------------------------------------------------------------------------------
# Upper bounds on privacy: Lemmas 12-14, 18-19, Theorems 11, 17, 2
# ---------------------------------------------------------------------------------------------

def _round_inputs(m: object, T: object, R: object, W: object) -> tuple[int, int, int, int]:
    """Validated (m, T, R, W) of a per-round bound."""
    return (require_int("m", m, minimum=2), require_int("T", T, minimum=2), require_int("R", R, minimum=0),
            require_int("W", W, minimum=1))


def per_round_leak_bound(m: object, T: object, R: object, W: object) -> BoundResult:
    """Lemma 12: |E_t(b)| <= 3 lambda / W_t(b) = 6m ln(T/(R+1)) / W (needs W >= 6m and tau >= 2^{3/2}).

    References: 001_8845c8f909738498.txt, Lemma 12 (and Lemma 18's first step).
    """
    m, T, R, W = _round_inputs(m, T, R, W)
    return _result("lemma12", "Lemma 12", 3 * _lam(m, T, R) / W, "eps", _privacy_conditions(m, T, R, ("W", W)),
                   "per-round privacy loss while W survivors remain")


def lemma13_bound(m: object, T: object, R: object, W: object) -> BoundResult:
    """Lemma 13: |ln(sum_j phi(x_j) / sum_j phi(x'_j))| <= 2 lambda / W (W >= 6m, tau >= 2^{3/2}).

    The proof's "e^{2 lambda / W_l}" is a typo for W_t (spec A6).

    References: 001_8845c8f909738498.txt, Lemma 13.
    """
    m, T, R, W = _round_inputs(m, T, R, W)
    return _result("lemma13", "Lemma 13", 2 * _lam(m, T, R) / W, "nats", _privacy_conditions(m, T, R, ("W", W)),
                   "log-ratio of the phi sums on adjacent patterns")


def lemma18_bound(m: object, T: object, D: object, R: object, C: object) -> BoundResult:
    """Lemma 18: |E_t(b)| <= 3(2D+2R+1) lambda / C_t(b), C_t the survivors' total credit.

    References: 001_8845c8f909738498.txt, Lemma 18.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    D = require_int("D", D, minimum=0)
    R = require_int("R", R, minimum=0)
    C = require_int("C", C, minimum=1)
    return _result("lemma18", "Lemma 18", 3 * (2 * D + 2 * R + 1) * _lam(m, T, R) / C, "eps",
                   _privacy_conditions(m, T, R, None),
                   "per-round privacy loss in terms of the survivors' credit")


def lemma14_factor(m: object, D: object = 0, R: object = 0) -> BoundResult:
    """Lemmas 14 and 19: a leaky round (E_t != 0) shrinks C_t (W_t when D = R = 0) by 1 - 1/(3m(2D+2R+1)).

    References: 001_8845c8f909738498.txt, Lemma 14 (D = R = 0) and Lemma 19.
    """
    m = require_int("m", m, minimum=2)
    D = require_int("D", D, minimum=0)
    R = require_int("R", R, minimum=0)
    where = "Lemma 14" if D == R == 0 else "Lemma 19"
    return BoundResult("lemma14" if D == R == 0 else "lemma19", _source(where),
                       1 - sympy.Rational(1, 3 * m * (2 * D + 2 * R + 1)), "factor", True,
                       "C_{t+1} <= factor * C_t after every leaky round")


def leaky_round_bound(m: object, n: object, P: object, D: object = 0, R: object = 0) -> BoundResult:
    """Corollary of Lemmas 14/19: #{t : E_t(b) != 0} <= 1 + ln((2D+2R+1)n/((D+R+1)P)) / -ln(1 - 1/(3m(2D+2R+1))).

    C starts at <= (2D+2R+1)n, stays >= P(D+R+1) and shrinks by the Lemma 19 factor after each leaky round
    but the last (spec T13).

    References: 001_8845c8f909738498.txt, Lemmas 14 and 19.
    """
    m = require_int("m", m, minimum=2)
    n, P = _n_P(n, P)
    D = require_int("D", D, minimum=0)
    R = require_int("R", R, minimum=0)
    k = 2 * D + 2 * R + 1
    value = 1 + sympy.log(sympy.Rational(k * n, (D + R + 1) * P)) / -sympy.log(1 - sympy.Rational(1, 3 * m * k))
    return BoundResult("leaky-rounds", _source("Lemmas 14 and 19"), value, "rounds", True,
                       "along every sequence b, for pairs whose larger pattern has >= P peers")


def eps_upper_sim(m: object, T: object, P: object) -> BoundResult:
    """Theorem 11: p-REC_sim (D = R = 0) is 18 m^2 ln(T) / P - DP, even against an adaptive adversary.

    |E(b)| <= 3 lambda sum_i 1/W_{t_i} <= 3 lambda * 3m/P (Lemma 12, Lemma 14's geometric series).
    Conditions: P >= 6m, T >= 3 (tau >= 2^{3/2}), 3T - 1 > m.

    References: 001_8845c8f909738498.txt, Theorem 11.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    P = require_int("P", P, minimum=1)
    return _result("theorem11", "Theorem 11", 18 * m**2 * sympy.log(T) / P, "eps", _privacy_conditions(m, T, 0, ("P", P)),
                   "18 m^2 ln T / P (the paper writes 18 m^2 (1/P) log T)")


def eps_upper_prec(m: object, T: object, D: object, R: object, P: object, *, form: str = "paper") -> BoundResult:
    """Theorem 17: p-REC is eps-DP with eps = 36 m^2 (2D+2R+1) ln(T/(R+1)) / P (``form="paper"``).

    ``form="tight"`` stops before the proof's last step (3m(2D+2R+1)/(P(D+R+1)) <= 6m/P):
    18 m^2 (2D+2R+1)^2 ln(T/(R+1)) / ((D+R+1) P), which equals Theorem 11's bound at D = R = 0 (the paper's
    form is twice that; spec A15). Conditions: P >= 6m, tau >= 2^{3/2}, tau > (m+1)/3.

    Why it holds: |E(b)| <= 3(2D+2R+1) lambda sum_i 1/C_{t_i}(b) (Lemma 18), and the survivors' credit
    C_{t_i} shrinks geometrically over the leaky rounds (Lemma 19) while staying >= P(D+R+1) (peers are
    never removed), so the sum is at most 3m(2D+2R+1)/(P(D+R+1)).

    References: 001_8845c8f909738498.txt, Theorem 17.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    D = require_int("D", D, minimum=0, maximum=T)
    R = require_int("R", R, minimum=0)
    P = require_int("P", P, minimum=1)
    k = 2 * D + 2 * R + 1
    log_tau = sympy.log(sympy.Rational(T, R + 1))
    if _form(form) == "paper":
        value, note = 36 * m**2 * k * log_tau / P, "paper's form 36 m^2 (2D+2R+1) ln(T/(R+1)) / P"
    else:
        value, note = 18 * m**2 * k**2 * log_tau / ((D + R + 1) * P), "tight form 18 m^2 (2D+2R+1)^2 ln tau / ((D+R+1)P)"
    return _result("theorem17" if form == "paper" else "theorem17-tight", "Theorem 17", value, "eps",
                   _privacy_conditions(m, T, R, ("P", P)), note)


def theorem2_bounds(m: object, n: object, P: object, D: object, R: object, T: object) -> tuple[BoundResult, BoundResult]:
    """Theorem 2: p-REC's loss O((R+1) log(n/P)) and eps O((1/P)(D+R+1) log(T/(R+1))), with the proofs' constants.

    Returns Theorem 16's loss bound and Theorem 17's eps bound (paper forms); the O(.) of Theorem 2 hides
    the factor m^2 of the eps bound (spec A15).

    References: 001_8845c8f909738498.txt, Theorem 2 (Theorems 16 and 17).
    """
    return loss_upper_prec(m, n, P, R, T), eps_upper_prec(m, T, D, R, P)


def eps_bounds_gap(m: object, n: object, P: object, D: object, R: object, T: object, *,
                   form: str = "paper") -> BoundResult:
    """Spec T22: eps_upper_pREC - eps_lower(T, L = loss_upper_pREC, D, R, P), which must be >= 0.

    p-REC's worst-case expected loss is at most Theorem 16's L and eps_lower is decreasing in L, so
    eps_lower(L) <= p-REC's true eps <= Theorem 17's bound; a negative gap would expose a wrong closed form.
    The lower bounds are proved for m = 2 (spec A11); valid=False when Theorem 17's conditions fail.

    References: 001_8845c8f909738498.txt, Theorems 1, 16 and 17.
    """
    upper = eps_upper_prec(m, T, D, R, P, form=form)
    if not upper.valid:
        return BoundResult("eps-gap", _source("Theorems 1, 16, 17"), None, "eps", False, upper.note)
    loss = loss_upper_prec(m, n, P, R, T).value
    lower = eps_lower(T, loss, D, R, P)
    return BoundResult("eps-gap", _source("Theorems 1, 16, 17"), upper.value - lower.value, "eps", True,
                       f"{upper.name} - theorem1 at L = theorem16; >= 0 iff the closed forms are consistent")


# ---------------------------------------------------------------------------------------------
# The privacy lemmas on an exact trace (spec T6, T8-T13)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TraceLemmaCheck:
    """One inequality of the privacy proof checked at every round of every sequence of an exact trace.

    Attributes:
        name: ``lemma12``, ``lemma18``, ``lemma14`` / ``lemma19``, ``leaky-rounds``, ``theorem11`` / ``theorem17``.
        source: paper and lemma.
        worst: the largest left side / right side found (the inequality holds iff worst <= 1).
        holds: worst <= 1 + 1e-9 (the trace's losses come from 40-digit evaluations; the slack is orders larger).
        witness: (sequence b, round t) attaining ``worst``, or None when nothing was compared.
        evidence: one sentence with the numbers.
    """

    name: str
    source: str
    worst: float
    holds: bool
    witness: tuple[tuple[int, ...], int] | None
    evidence: str


def _lemma_check(name: str, where: str, ratios: np.ndarray, mask: np.ndarray, trace: PrivacyLossTrace,
                 what: str) -> TraceLemmaCheck:
    values = np.where(mask, ratios, -np.inf)
    if not mask.any():
        return TraceLemmaCheck(name, _source(where), 0.0, True, None, f"{what}: no case to check in this trace")
    row, t = np.unravel_index(int(values.argmax()), values.shape)
    worst = float(values[row, t])
    sequence = tuple(trace.sequences[row].tolist())
    return TraceLemmaCheck(name, _source(where), worst, worst <= 1 + 1e-9, (sequence, int(t)),
                      f"{what}: largest ratio to the bound {worst:.4g} at b={sequence}, t={t} "
                      f"over {int(mask.sum())} cases")


def check_privacy_lemmas(trace: PrivacyLossTrace, P: object) -> tuple[TraceLemmaCheck, ...]:
    """Lemmas 12, 18, 14/19, the leaky-round corollary and Theorem 11/17 on every sequence of an exact trace.

    Args:
        trace: the exact privacy-loss trace of an adjacent pair (U = U' + one voter).
        P: the client's peers in the larger pattern U (the theorems need P >= 6m).

    Returns:
        One :class:`TraceLemmaCheck` per inequality: |E_t| <= 3 lambda / W_t (Lemma 12); |E_t| <= 3(2D+2R+1) lambda /
        C_t (Lemma 18); after a leaky round C_{t+1} <= (1 - 1/(3m(2D+2R+1))) C_t (Lemma 19; W_t for Lemma 14
        at D = R = 0); #leaky rounds <= the corollary's bound with n = |U|; max_b |E(b)| <= Theorem 11's bound
        (D = R = 0) or Theorem 17's (paper form).

    References: 001_8845c8f909738498.txt, Lemmas 12, 14, 18, 19, Theorems 11 and 17.
    """
    if not isinstance(trace, PrivacyLossTrace):
        raise InvalidParameterError(f"trace must be a PrivacyLossTrace. Got {type(trace).__name__}")
    n = len(trace.larger.voters)
    P = require_int("P", P, minimum=1, maximum=n)
    params = trace.params
    m, T, D, R = params.m, params.T, params.D, params.R
    k = 2 * D + 2 * R + 1
    losses, everywhere = np.abs(trace.round_loss), np.ones(trace.round_loss.shape, dtype=bool)
    checks = [
        _lemma_check("lemma12", "Lemma 12", losses / (3 * trace.lam / trace.survivors), everywhere, trace,
                     "|E_t(b)| <= 3 lambda / W_t(b)"),
        _lemma_check("lemma18", "Lemma 18", losses / (3 * k * trace.lam / trace.credit), everywhere, trace,
                     "|E_t(b)| <= 3(2D+2R+1) lambda / C_t(b)"),
    ]
    sim = D == R == 0
    state = trace.survivors if sim else trace.credit
    factor = float(lemma14_factor(m, D, R).value)
    shrink = np.zeros(losses.shape)
    shrink[:, :-1] = state[:, 1:] / (factor * state[:, :-1])
    leaky = trace.leaky.copy()
    leaky[:, -1] = False
    checks.append(_lemma_check("lemma14" if sim else "lemma19", "Lemma 14" if sim else "Lemma 19", shrink, leaky,
                               trace, "after a leaky round the survivors' " + ("count W" if sim else "credit C")
                               + f" shrinks by {factor:.4g}"))
    counts = trace.leaky.sum(axis=1)
    leak_bound = float(leaky_round_bound(m, n, P, D, R).value)
    first = np.zeros(losses.shape, dtype=bool)
    first[:, 0] = True
    checks.append(_lemma_check("leaky-rounds", "Lemmas 14 and 19", np.repeat(counts[:, None] / leak_bound, T, axis=1),
                               first, trace, f"#{{t : E_t(b) != 0}} <= {leak_bound:.4g}"))
    theorem = eps_upper_sim(m, T, P) if sim else eps_upper_prec(m, T, D, R, P)
    if theorem.valid:
        totals = np.repeat(np.abs(trace.total_loss)[:, None] / float(theorem.value), T, axis=1)
        checks.append(_lemma_check(theorem.name, "Theorem 11" if sim else "Theorem 17", totals, first, trace,
                                   f"|E(b)| <= {theorem.display()}"))
    return tuple(checks)


# ---------------------------------------------------------------------------------------------
# Witnesses for the paper's slips (spec section 6)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lemma4Witness:
    """A point where Lemma 4's inequality holds although its printed equivalent condition fails (spec A7).

    The proof's chain ends "... <=> e^{lambda x'}/e^{lambda rho} >= (e^{lambda d} + 1)/e^{lambda d}
    <=> x' >= rho + ln 2 / lambda"; the last step is only "<=". At lambda d = ln 2 and
    e^{lambda (x' - rho)} = 3/2 the inequality phi(x)/phi(x') <= e^{2 lambda d} holds (with equality:
    4 <= 4) while x' < rho + ln 2/lambda.

    Attributes:
        lam, rho: phi's parameters.
        x, x_prime: the points (x = x' + d).
        ratio: phi(x)/phi(x') (exact).
        bound: e^{2 lambda d} (exact).
        threshold: rho + ln 2/lambda, the printed condition on x'.
    """

    lam: sympy.Expr
    rho: sympy.Expr
    x: sympy.Expr
    x_prime: sympy.Expr
    ratio: sympy.Expr
    bound: sympy.Expr
    threshold: sympy.Expr

    @property
    def refutes(self) -> bool:
        """True when the inequality holds at x' below the threshold: the printed "<=>" is false."""
        return exact_sign(self.bound - self.ratio) >= 0 and exact_sign(self.threshold - self.x_prime) > 0

    def recheck(self) -> bool:
        """Recompute phi(x)/phi(x') and e^{2 lambda (x - x')} from the definition of phi; confirm the refutation."""
        phi = (lambda y: sympy.exp(self.lam * y) - sympy.exp(self.lam * self.rho))
        ratio = sympy.simplify(phi(self.x) / phi(self.x_prime))
        bound = sympy.simplify(sympy.exp(2 * self.lam * (self.x - self.x_prime)))
        return (exact_sign(ratio - self.ratio) == 0 and exact_sign(bound - self.bound) == 0
                and exact_sign(self.x_prime - self.rho) > 0 and self.refutes)


def lemma4_equivalence_witness(m: object, T: object, R: object = 0) -> Lemma4Witness:
    """The A7 witness for p-REC's lambda = 2m ln(T/(R+1)) and rho = 1/(2m); see :class:`Lemma4Witness`.

    References: 001_8845c8f909738498.txt, Lemma 4 (proof); spec A7.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    R = require_int("R", R, minimum=0, maximum=T - 2)
    lam, rho = _lam(m, T, R), sympy.Rational(1, 2 * m)
    x_prime = rho + sympy.log(sympy.Rational(3, 2)) / lam
    x = x_prime + sympy.log(2) / lam
    ratio = sympy.nsimplify(sympy.simplify((sympy.exp(lam * x) - sympy.exp(lam * rho))
                                           / (sympy.exp(lam * x_prime) - sympy.exp(lam * rho))))
    return Lemma4Witness(lam, rho, x, x_prime, ratio, sympy.simplify(sympy.exp(2 * lam * (x - x_prime))),
                         rho + sympy.log(2) / lam)


@dataclass(frozen=True)
class UniformRoundsWitness:
    """At R = 0 the uniform rounds cost gamma T = mT/(3T - 1) > 0 = c R for every c: not O(R) (spec A2).

    Attributes:
        m, T: the parameters.
        cost: gamma T at R = 0 (exact).
    """

    m: int
    T: int
    cost: sympy.Expr

    @property
    def refutes(self) -> bool:
        """True when gamma T at R = 0 is >= m/3 > 0, so no c R (R = 0) bounds it."""
        return exact_sign(self.cost - sympy.Rational(self.m, 3)) >= 0

    def recheck(self) -> bool:
        """Recompute gamma T = mT/(3T - 1) and confirm the refutation."""
        return self.cost == sympy.Rational(self.m * self.T, 3 * self.T - 1) and self.refutes


def uniform_rounds_order_witness(m: object, T: object) -> UniformRoundsWitness:
    """The A2 witness: Theorem 16's proof bounds the uniform rounds' loss by "gamma T = O(R)"; at R = 0 it is
    mT/(3T - 1) >= m/3.

    References: 001_8845c8f909738498.txt, Theorem 16 (proof); spec A2.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=1)
    return UniformRoundsWitness(m, T, sympy.Rational(m * T, 3 * T - 1))


# ---------------------------------------------------------------------------------------------
# The proofs' closed-form steps, decided for every parameter value (spec S1-S12)
# ---------------------------------------------------------------------------------------------

def online_recommendation_facts() -> tuple[SymbolicFact, ...]:
    """The closed-form steps of the paper's proofs, each decided by sympy for every parameter value.

    References: 001_8845c8f909738498.txt, Lemmas 4, 8, 12, 13, Theorems 10, 11, 15, 16, 17;
    specs/gilbert_online_recommendation.md, section 5 (S1-S12).
    """
    m, tau, T, a, d, P = sympy.symbols("m tau T a d P", positive=True)
    D, R = sympy.symbols("D R", nonnegative=True)
    u = sympy.symbols("u", nonnegative=True)
    s, w = sympy.symbols("s w", positive=True)
    gamma = m / (3 * tau - 1)
    lam = 2 * m * sympy.log(tau)
    facts = []

    def identity(statement: str, where: str, expr: sympy.Expr) -> None:
        reduced = sympy.simplify(expr)
        facts.append(SymbolicFact(statement, _source(where), True if reduced == 0 else None,
                                  f"difference simplifies to {reduced}"))

    def nonnegative(statement: str, where: str, expr: sympy.Expr, substitution: str) -> None:
        holds, evidence = nonnegative_everywhere(expr)
        facts.append(SymbolicFact(statement, _source(where), holds, f"{substitution}: {evidence}"))

    identity("S1: gamma/(m(1-gamma)) = 1/(3 tau - 1 - m) for gamma = m/(3 tau - 1)", "Lemma 12",
             gamma / (m * (1 - gamma)) - 1 / (3 * tau - 1 - m))
    identity("S1': m/((3T/(R+1)) - 1) = m(R+1)/(3T - R - 1) (the printed gamma of Algorithm 2, spec A4)",
             "Algorithm 2", m / (3 * T / (R + 1) - 1) - m * (R + 1) / (3 * T - R - 1))
    identity("S3: e^{lambda rho} = tau for lambda = 2m ln tau, rho = 1/(2m)", "Algorithm 2",
             sympy.exp(lam / (2 * m)) - tau)
    identity("S3': phi(1/m) = tau^2 - tau", "Lemma 12", sympy.exp(lam / m) - sympy.exp(lam / (2 * m)) - (tau**2 - tau))
    # S2 (Lemma 12's last step): with s = e^a - 1 > 0, e^{3a} - 1 = s((1+s)^2 + (1+s) + 1); dividing by s and
    # multiplying by (tau - 1)(3 tau - 1 - m) > 0 leaves (3 + 3s + s^2)(tau - 1) - (3 tau - 1 - m) >= 0, which
    # with tau = 1 + w and m = 2 + k is s(s + 3) w + k.
    k = sympy.symbols("k", nonnegative=True)
    nonnegative("S2: (e^a - 1)/(tau - 1) <= (e^{3a} - 1)/(3 tau - 1 - m) for m >= 2, tau > max(1, (m+1)/3), a > 0",
                "Lemma 12", (3 + 3 * s + s**2) * w - (3 * (1 + w) - 1 - (2 + k)),
                "e^a = 1 + s, tau = 1 + w, m = 2 + k, after dividing by e^a - 1 and clearing denominators")
    identity("S4: 5/(6m) = 1/(2m) + ln 2/(2m ln tau) exactly at tau = 2^{3/2} (and the gap grows with tau)",
             "Lemma 13", (sympy.Rational(5, 6) / m - 1 / (2 * m) - sympy.log(2) / (2 * m * sympy.log(tau)))
             .subs(tau, 2 ** sympy.Rational(3, 2)))
    r = 1 - 1 / (3 * m)
    identity("S6: sum_{j>=0} (1 - 1/(3m))^j = 1/(1 - (1 - 1/(3m))) = 3m", "Theorem 11", 1 / (1 - r) - 3 * m)
    identity("S6': 3 lambda * 3m / P = 18 m^2 ln T / P (lambda = 2m ln T)", "Theorem 11",
             3 * (2 * m * sympy.log(T)) * 3 * m / P - 18 * m**2 * sympy.log(T) / P)
    identity("S7: 3(2D+2R+1) lambda * 6m / P = 36 m^2 (2D+2R+1) ln tau / P", "Theorem 17",
             3 * (2 * D + 2 * R + 1) * lam * 6 * m / P - 36 * m**2 * (2 * D + 2 * R + 1) * sympy.log(tau) / P)
    nonnegative("S7': 3m(2D+2R+1)/(P(D+R+1)) <= 6m/P for D, R >= 0", "Theorem 17",
                6 * m / P - 3 * m * (2 * D + 2 * R + 1) / (P * (D + R + 1)), "D, R >= 0, m, P > 0")
    nonnegative("S8: -ln(1 - x) >= x on [0, 1), so log_{1/(1-rho)}(n/P) <= 2m ln(n/P)", "Theorem 10",
                sympy.diff(-sympy.log(1 - u / (1 + u)) - u / (1 + u), u) * (1 + u) ** 2,
                "x = u/(1+u), u >= 0; the difference is 0 at u = 0 and its derivative times (1+u)^2 is")
    nonnegative("S9: m(R+1)T/(3T-R-1) <= m(R+1)/2 for T >= R + 1", "Theorem 16",
                sympy.factor(m * (R + 1) / 2 - m * (R + 1) * (R + 1 + u) / (3 * (R + 1 + u) - R - 1)),
                "T = R + 1 + u, u >= 0")
    identity("S12: (T/2) e^{-P eps} = L at eps = ln(T/(2L))/P (Lemma 8 <=> Theorem 7)", "Theorem 7",
             (T / 2) * sympy.exp(-P * sympy.log(T / (2 * d)) / P) - d)
    kl = theorem15_kl_constant()
    facts.append(SymbolicFact("S10: KL(Bern(3/4) || Bern(1/2)) > 0.13", _source("Theorem 15"),
                              exact_sign(kl.value - KL_CONSTANT) > 0, f"KL = {kl.value} = {float(kl.value):.7f}"))
    identity("S11: exp(-(D+R)/6) <= 1/T iff D + R >= 6 ln T: at D + R = 6 ln(T w), 1 - T e^{-(D+R)/6} = (w-1)/w",
             "Theorem 15", 1 - T * sympy.exp(-6 * sympy.log(T * w) / 6) - (w - 1) / w)
    return tuple(facts)


def online_recommendation_family(m: object, n: object, P: object, T: object, D: object = 0,
                                 R: object = 0) -> list[BoundResult]:
    """``dpcert bound p-rec``: p-REC's loss and eps bounds side by side for one configuration.

    Theorem 16's loss upper bound and Theorem 17's eps upper bound (printed and tight forms), Theorem 6's
    loss lower bound (every algorithm), and Theorem 1's eps lower bound at Theorem 16's loss.

    References: 001_8845c8f909738498.txt, Theorems 1, 2, 6, 16 and 17.
    """
    loss = [loss_upper_prec(m, n, P, R, T, form=form) for form in FORMS]
    results = [*loss, *(eps_upper_prec(m, T, D, R, P, form=form) for form in FORMS), loss_lower_nonprivate(m, n, P, R)]
    if loss[0].valid:
        results.append(eps_lower(T, loss[0].value, D, R, P))
    return results
