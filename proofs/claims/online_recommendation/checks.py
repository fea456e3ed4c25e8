"""The checks behind p-REC's claims: its privacy lemmas on exact traces, the proofs' closed-form steps, slips.

:func:`check_privacy_lemmas` evaluates Lemmas 12, 18, 14/19, the leaky-round corollary and Theorems 11/17
at every round of every sequence of an exact privacy-loss trace; :func:`online_recommendation_facts`
decides the closed-form steps of the proofs for every parameter value with sympy; the witnesses show the
paper's slips A7 (Lemma 4's printed equivalent condition) and A2 (uniform rounds are not O(R)). The bounds
they test are in :mod:`dpcert.accountant.online_recommendation.bounds`.

References: 001_8845c8f909738498.txt; specs/gilbert_online_recommendation.md, sections 2.5, 2.6, 3 and 6.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy

from dpcert.accountant.online_recommendation.bounds import (
    KL_CONSTANT,
    cited,
    eps_upper_prec,
    eps_upper_sim,
    leaky_round_bound,
    lemma_14_factor,
    prec_lambda,
    theorem_15_kl_constant,
)
from dpcert.accountant.symbolic_facts import SymbolicFact, nonnegative_everywhere
from dpcert.mechanisms.online_recommendation.likelihood import PrivacyLossTrace
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int

__all__ = [
    "Lemma4Witness",
    "TraceLemmaCheck",
    "UniformRoundsWitness",
    "check_privacy_lemmas",
    "lemma_4_equivalence_witness",
    "online_recommendation_facts",
    "uniform_rounds_order_witness",
]



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
        return TraceLemmaCheck(name, cited(where), 0.0, True, None, f"{what}: no case to check in this trace")
    row, t = np.unravel_index(int(values.argmax()), values.shape)
    worst = float(values[row, t])
    sequence = tuple(trace.sequences[row].tolist())
    return TraceLemmaCheck(name, cited(where), worst, worst <= 1 + 1e-9, (sequence, int(t)),
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
    factor = float(lemma_14_factor(m, D=D, R=R).value)
    shrink = np.zeros(losses.shape)
    shrink[:, :-1] = state[:, 1:] / (factor * state[:, :-1])
    leaky = trace.leaky.copy()
    leaky[:, -1] = False
    checks.append(_lemma_check("lemma14" if sim else "lemma19", "Lemma 14" if sim else "Lemma 19", shrink, leaky,
                               trace, "after a leaky round the survivors' " + ("count W" if sim else "credit C")
                               + f" shrinks by {factor:.4g}"))
    counts = trace.leaky.sum(axis=1)
    leak_bound = float(leaky_round_bound(m, n, P, D=D, R=R).value)
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


def lemma_4_equivalence_witness(m: object, T: object, *, R: object = 0) -> Lemma4Witness:
    """The A7 witness for p-REC's lambda = 2m ln(T/(R+1)) and rho = 1/(2m); see :class:`Lemma4Witness`.

    References: 001_8845c8f909738498.txt, Lemma 4 (proof); spec A7.
    """

    m = require_int("m", m, minimum=2)
    T = require_int("T", T, minimum=2)
    R = require_int("R", R, minimum=0, maximum=T - 2)
    lam, rho = prec_lambda(m, T, R), sympy.Rational(1, 2 * m)
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
        facts.append(SymbolicFact(statement, cited(where), True if reduced == 0 else None,
                                  f"difference simplifies to {reduced}"))

    def nonnegative(statement: str, where: str, expr: sympy.Expr, substitution: str) -> None:
        holds, evidence = nonnegative_everywhere(expr)
        facts.append(SymbolicFact(statement, cited(where), holds, f"{substitution}: {evidence}"))

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
    kl = theorem_15_kl_constant()
    facts.append(SymbolicFact("S10: KL(Bern(3/4) || Bern(1/2)) > 0.13", cited("Theorem 15"),
                              exact_sign(kl.value - KL_CONSTANT) > 0, f"KL = {kl.value} = {float(kl.value):.7f}"))
    identity("S11: exp(-(D+R)/6) <= 1/T iff D + R >= 6 ln T: at D + R = 6 ln(T w), 1 - T e^{-(D+R)/6} = (w-1)/w",
             "Theorem 15", 1 - T * sympy.exp(-6 * sympy.log(T * w) / 6) - (w - 1) / w)
    return tuple(facts)
