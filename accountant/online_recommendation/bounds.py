"""Loss and privacy bounds of "On Differentially Private Online Collaborative Recommendation Systems".

Gilbert, Liu, Yu (001_8845c8f909738498.txt); exact constants from the proofs in
specs/gilbert_online_recommendation.md, sections 2.5, 2.6 and 3. Every function returns a
:class:`~dpcert.accountant.bound_result.BoundResult` with an exact sympy value; when a theorem's conditions fail
at the given inputs the result has ``valid=False`` and says why. With tau = T/(R+1):

    gamma = m/(3 tau - 1),  lambda = 2m ln tau,  rho = 1/(2m).

Where the spec finds the paper's constant loose or garbled (section 6), both forms are available and
labelled: ``form="paper"`` is the printed constant, ``form="tight"`` the one the proof gives. The checks
that decide the paper's claims (the privacy lemmas on exact traces, the proofs' closed-form steps, and
the witnesses of its slips A2 and A7) are in :mod:`dpcert.proofs.claims.online_recommendation.checks`.

References: 001_8845c8f909738498.txt, Theorems 1, 2, 6, 7, 10, 11, 15, 16, 17 and Lemmas 8, 12-14, 18-19.
"""

from __future__ import annotations

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, to_exact

__all__ = [
    "cited",
    "prec_lambda",
    "KL_CONSTANT",
    "eps_bounds_gap",
    "eps_lower",
    "eps_lower_D0R0",
    "eps_lower_theorem_15",
    "eps_upper_prec",
    "eps_upper_sim",
    "greedy_loss_bound",
    "leaky_round_bound",
    "lemma_13_bound",
    "lemma_14_factor",
    "lemma_18_bound",
    "loss_lower_dp_D0R0",
    "loss_lower_nonprivate",
    "loss_upper_prec",
    "loss_upper_sim",
    "per_round_leak_bound",
    "theorem_15_kl_constant",
    "theorem_2_bounds",
    "uniform_round_loss",
    "online_recommendation_family",
]

SOURCE = "001_8845c8f909738498.txt"
KL_CONSTANT = sympy.Rational(13, 100)
"""The paper's 0.13, a lower bound on KL(Bern(3/4) || Bern(1/2)) = 0.1308120... (Theorem 15)."""
FORMS = ("paper", "tight")


def cited(where: str) -> str:
    """A source string for a result: the paper's file and the place in it, e.g. "..., Theorem 11"."""
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
        return BoundResult(name, cited(where), None, units, False, "; ".join(failed))
    return BoundResult(name, cited(where), value, units, True, note)


def _n_P(n: object, P: object) -> tuple[int, int]:
    """n voters (>= 1) and P peers among them (1 <= P <= n); a P above n is reported as P's error."""
    n = require_int("n", n, minimum=1)
    return n, require_int("P", P, minimum=1, maximum=n)


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


def prec_lambda(m: object, T: object, R: object) -> sympy.Expr:
    """p-REC's weight exponent lambda = 2m ln(T/(R+1)) (Lemma 4), exactly (m >= 2, T >= 2, R >= 0 integers;
    lambda <= 0 when T <= R + 1, which the bounds report as outside the privacy proofs)."""
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    R = require_int("R", R, minimum=0)
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
    return BoundResult("theorem6", cited("Theorem 6"), sympy.Max(log_part, r_part), "loss", True,
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
    return BoundResult("lemma8", cited("Lemma 8"), sympy.Rational(T, 2) * sympy.exp(-P * e), "loss", True,
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
    return BoundResult("theorem7", cited("Theorem 7"), value, "eps", True,
                       "eps >= ln(T/(2L))/P" + (" (vacuous: L >= T/2)" if vacuous else ""), bounds="lower")


def eps_lower_theorem_15(T: object, L: object, D: object, R: object, P: object) -> BoundResult:
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
        return BoundResult("theorem15", cited("Theorem 15"), None, "eps", False,
                           f"needs D + R >= 6 ln T = {float(6 * sympy.log(T)):.4g}; got D + R = {D + R}",
                           bounds="lower")
    S = min(D + R, T)
    value = KL_CONSTANT / (2 * P) * sympy.Min(sympy.Rational(S, 4) - 1, sympy.Rational(T, 8) - 8 * (loss + 1) - 1)
    return BoundResult("theorem15", cited("Theorem 15"), value, "eps", True,
                       "explicit constants derived from the proof (spec A13); the paper states Omega((D+R)/P)",
                       bounds="lower")


def eps_lower(T: object, L: object, D: object, R: object, P: object) -> BoundResult:
    """Theorem 1: eps >= max(ln(T/(2L))/P, Theorem 15's bound when D + R >= 6 ln T).

    References: 001_8845c8f909738498.txt, Theorem 1 (Theorems 7 and 15).
    """
    parts = [eps_lower_D0R0(T, L, P), eps_lower_theorem_15(T, L, D, R, P)]
    valid = [p for p in parts if p.valid]
    return BoundResult("theorem1", cited("Theorem 1"), sympy.Max(*(p.value for p in valid)), "eps", True,
                       "max of " + ", ".join(p.name for p in valid) + " (oblivious adversary, m = 2)", bounds="lower")


def theorem_15_kl_constant() -> BoundResult:
    """KL(Bern(3/4) || Bern(1/2)) = (3/4) ln(3/2) + (1/4) ln(1/2) = 0.1308120..., which the paper rounds to 0.13.

    References: 001_8845c8f909738498.txt, Theorem 15 (cases 2.a and 2.b).
    """
    value = sympy.Rational(3, 4) * sympy.log(sympy.Rational(3, 2)) + sympy.Rational(1, 4) * sympy.log(sympy.Rational(1, 2))
    above = exact_sign(value - KL_CONSTANT) > 0
    return BoundResult("theorem15-kl", cited("Theorem 15"), value, "nats", True,
                       f"{'>' if above else '<='} 0.13, the paper's constant", bounds="exact")


# ---------------------------------------------------------------------------------------------
# Upper bounds on loss: Theorems 10 and 16
# ---------------------------------------------------------------------------------------------

def uniform_round_loss(m: object, T: object, *, R: object = 0) -> BoundResult:
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


def greedy_loss_bound(m: object, n: object, P: object, *, R: object = 0) -> BoundResult:
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
    return BoundResult("greedy-loss", cited("Theorems 10 and 16"), value, "loss", True,
                       "pathwise, any adaptive adversary with >= P peers")


def _loss_upper(m: int, n: int, P: int, R: int, T: int, form: str, name: str, where: str) -> BoundResult:
    if form == "paper":
        greedy = 2 * m * (2 * R + 1) * sympy.log(sympy.Rational((2 * R + 1) * n, (R + 1) * P))
        note = "paper's form: 2m(2R+1) ln((2R+1)n/((R+1)P)) + gamma T"
    else:
        greedy = greedy_loss_bound(m, n, P, R=R).value
        note = "proof's form: ln((2R+1)n/((R+1)P)) / -ln(1 - 1/(2m(2R+1))) + gamma T"
    uniform = uniform_round_loss(m, T, R=R)
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
    return _result("lemma12", "Lemma 12", 3 * prec_lambda(m, T, R) / W, "eps", _privacy_conditions(m, T, R, ("W", W)),
                   "per-round privacy loss while W survivors remain")


def lemma_13_bound(m: object, T: object, R: object, W: object) -> BoundResult:
    """Lemma 13: |ln(sum_j phi(x_j) / sum_j phi(x'_j))| <= 2 lambda / W (W >= 6m, tau >= 2^{3/2}).

    The proof's "e^{2 lambda / W_l}" is a typo for W_t (spec A6).

    References: 001_8845c8f909738498.txt, Lemma 13.
    """
    m, T, R, W = _round_inputs(m, T, R, W)
    return _result("lemma13", "Lemma 13", 2 * prec_lambda(m, T, R) / W, "nats", _privacy_conditions(m, T, R, ("W", W)),
                   "log-ratio of the phi sums on adjacent patterns")


def lemma_18_bound(m: object, T: object, D: object, R: object, C: object) -> BoundResult:
    """Lemma 18: |E_t(b)| <= 3(2D+2R+1) lambda / C_t(b), C_t the survivors' total credit.

    References: 001_8845c8f909738498.txt, Lemma 18.
    """
    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    D = require_int("D", D, minimum=0)
    R = require_int("R", R, minimum=0)
    C = require_int("C", C, minimum=1)
    return _result("lemma18", "Lemma 18", 3 * (2 * D + 2 * R + 1) * prec_lambda(m, T, R) / C, "eps",
                   _privacy_conditions(m, T, R, None),
                   "per-round privacy loss in terms of the survivors' credit")


def lemma_14_factor(m: object, *, D: object = 0, R: object = 0) -> BoundResult:
    """Lemmas 14 and 19: a leaky round (E_t != 0) shrinks C_t (W_t when D = R = 0) by 1 - 1/(3m(2D+2R+1)).

    References: 001_8845c8f909738498.txt, Lemma 14 (D = R = 0) and Lemma 19.
    """
    m = require_int("m", m, minimum=2)
    D = require_int("D", D, minimum=0)
    R = require_int("R", R, minimum=0)
    where = "Lemma 14" if D == R == 0 else "Lemma 19"
    return BoundResult("lemma14" if D == R == 0 else "lemma19", cited(where),
                       1 - sympy.Rational(1, 3 * m * (2 * D + 2 * R + 1)), "factor", True,
                       "C_{t+1} <= factor * C_t after every leaky round")


def leaky_round_bound(m: object, n: object, P: object, *, D: object = 0, R: object = 0) -> BoundResult:
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
    return BoundResult("leaky-rounds", cited("Lemmas 14 and 19"), value, "rounds", True,
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


def theorem_2_bounds(m: object, n: object, P: object, D: object, R: object, T: object) -> tuple[BoundResult, BoundResult]:
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
        return BoundResult("eps-gap", cited("Theorems 1, 16, 17"), None, "eps", False, upper.note)
    loss = loss_upper_prec(m, n, P, R, T).value
    lower = eps_lower(T, loss, D, R, P)
    return BoundResult("eps-gap", cited("Theorems 1, 16, 17"), upper.value - lower.value, "eps", True,
                       f"{upper.name} - theorem1 at L = theorem16; >= 0 iff the closed forms are consistent")


# ---------------------------------------------------------------------------------------------
# The privacy lemmas on an exact trace (spec T6, T8-T13)
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Witnesses for the paper's slips (spec section 6)
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# The proofs' closed-form steps, decided for every parameter value (spec S1-S12)
# ---------------------------------------------------------------------------------------------


def online_recommendation_family(m: object, n: object, P: object, T: object, *, D: object = 0,
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
