"""Claims of 001_8845c8f909738498.txt (Gilbert, Liu, Yu, "On Differentially Private Online Collaborative
Recommendation Systems", p-REC): the privacy of p-REC_sim and p-REC decided exactly on small instances,
the lower bound of Theorem 7 against the exact eps, the proofs' closed-form steps, and two slips of the proofs.

A p-REC transcript (the T recommendations) is a finite mechanism whose inputs are the adjacent voter sets
of Definition 1 (one extra voter), so the exact checker computes the tightest eps with a witness and
compares it with Theorem 11's and Theorem 17's claimed eps.
"""

from __future__ import annotations

import numpy as np
import sympy

from dpcert.mechanisms.online_recommendation import PREC, Instance, PRECSim, PRECTranscript, planted_pair
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, computed_claim, deferred_instance_claim, facts_outcome
from dpcert.proofs.guarantees import PureDP

__all__ = ["CLAIMS"]

_PAPER = "001_8845c8f909738498.txt"
_P, _C, _R = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED


def _source(where: str) -> str:
    return f"{_PAPER}, {where}"


def _theorem11_pair() -> tuple[PRECTranscript, PureDP]:
    """A hostile planted pair for p-REC_sim (m = 2, T = 5, 12 peers) and Theorem 11's eps at its peer count."""
    from dpcert.accountant import eps_upper_sim

    mechanism = planted_pair(PRECSim(2, 5), P=12, others=9, hostile=True, rng=np.random.default_rng(0))
    return mechanism, PureDP(eps_upper_sim(2, 5, mechanism.min_peers()).value)


def _theorem17_pair() -> tuple[PRECTranscript, PureDP]:
    """A planted pair for p-REC with D = 2 diverse rounds (m = 2, T = 6) and Theorem 17's printed eps."""
    from dpcert.accountant import eps_upper_prec

    mechanism = planted_pair(PREC(2, 6, 2, 0), P=12, others=4, rng=np.random.default_rng(1))
    return mechanism, PureDP(eps_upper_prec(2, 6, 2, 0, mechanism.min_peers(), form="paper").value)


def _without_uniform_rounds() -> tuple[PRECTranscript, PureDP]:
    """p-REC_sim with gamma = 0 on 12 agreeing voters plus 5 dissenters, against Theorem 11's eps."""
    from dpcert.accountant import eps_upper_sim

    instance = Instance(2, [{0}] * 3, [[0, 0, 0]] * 12 + [[1, 1, 1]] * 5)
    mechanism = PRECTranscript.adjacent_pair(PRECSim(2, 3, gamma=0), instance, range(16), 16)
    return mechanism, PureDP(eps_upper_sim(2, 3, mechanism.min_peers()).value)


def _theorem7() -> tuple[Verdict, str]:
    """Lemma 8's chain: the exact eps of p-REC_sim on it is at least ln(T/(2L))/P with L its worst expected loss."""
    from dpcert.accountant import eps_lower_D0R0
    from dpcert.mechanisms.online_recommendation import lemma8_chain
    from dpcert.proofs.exact import tightest_epsilon

    T, P = 4, 12
    chain = lemma8_chain(T, P)
    mechanism = PRECTranscript(PRECSim(2, T), chain.instances, chain.profiles)
    eps = tightest_epsilon(mechanism).epsilon
    loss = T * max(mechanism.round_marginal(chain.endpoints[0], 0, {1}), mechanism.round_marginal(chain.endpoints[1], 0, {0}))
    bound = eps_lower_D0R0(T, loss, P)
    if exact_sign(eps - bound.value) >= 0:
        return _C, (f"on Lemma 8's chain (T = {T}, P = {P}) p-REC_sim's exact tightest eps {float(eps):.4f} >= "
                    f"ln(T/(2L))/P = {float(bound.value):.4f} with L = T max(p_A, p_B) = {float(loss):.4f}")
    return _R, f"witness chain T = {T}, P = {P}: exact eps {eps} < the lower bound {bound.value}"


def _lemmas12_13() -> tuple[Verdict, str]:
    from dpcert.mechanisms.online_recommendation import PRECParameters, per_round_leakage

    worst12, worst13, cases = 0.0, 0.0, 0
    for m, T, R in ((2, 3, 0), (2, 1000, 0), (3, 10, 1), (4, 50, 0)):
        for W in range(6 * m, 6 * m + 9):
            leak = per_round_leakage(PRECParameters(m, T, 0, R), W)
            if leak.lemma12_ratio > 1 or leak.lemma13_ratio > 1:
                return _R, f"witness m = {m}, T = {T}, R = {R}, W = {W}: ratios {leak.lemma12_ratio}, {leak.lemma13_ratio}"
            worst12, worst13, cases = max(worst12, float(leak.lemma12_ratio)), max(worst13, float(leak.lemma13_ratio)), cases + 1
    return _C, (f"over every pair of adjacent vote-count vectors, {cases} (m, T, R, W) cases with W >= 6m: the per-round "
                f"leakage is at most 3 lambda/W (largest ratio {worst12:.3f}) and the phi-sum log-ratio at most "
                f"2 lambda/W (largest ratio {worst13:.3f})")


def _facts() -> tuple[Verdict, str]:
    from dpcert.accountant import online_recommendation_facts

    return facts_outcome(online_recommendation_facts())


def _kl_constant() -> tuple[Verdict, str]:
    from dpcert.accountant import theorem15_kl_constant

    result = theorem15_kl_constant()
    if exact_sign(result.value - sympy.Rational(13, 100)) > 0:
        return _P, f"KL(Bern(3/4) || Bern(1/2)) = {result.value} = {float(result.value):.7f} > 0.13 (decided exactly)"
    return _R, f"witness KL = {result.value} <= 0.13"


def _lemma4() -> tuple[Verdict, str]:
    from dpcert.accountant import lemma4_equivalence_witness

    w = lemma4_equivalence_witness(2, 10)
    if w.refutes and w.recheck():
        return _R, (f"witness lambda = {w.lam}, rho = {w.rho}, x' = {w.x_prime}: phi(x)/phi(x') = {w.ratio} <= "
                    f"e^(2 lambda d) = {w.bound}, yet x' < rho + ln 2/lambda = {w.threshold}; the step holds as "
                    "'<=' only, which the proof's use of it does not need")
    return _C, "no witness found"


def _uniform_rounds() -> tuple[Verdict, str]:
    from dpcert.accountant import uniform_rounds_order_witness

    w = uniform_rounds_order_witness(2, 10)
    if w.refutes:
        return _R, (f"witness m = 2, T = 10, R = 0: the uniform rounds cost gamma T = {w.cost} >= m/3 > 0 = c R for "
                    "every c, so the loss term is O(1 + R), not O(R)")
    return _C, f"gamma T = {w.cost}"


CLAIMS: tuple[Claim, ...] = (
    deferred_instance_claim("thm11-prec-sim-privacy", _source("Theorem 11"),
                            "p-REC_sim's transcript (m = 2, T = 5) is eps-DP at Theorem 11's eps = 18 m^2 ln(T)/P for a "
                            "hostile planted voter set with P = 12 peers (Definition 1)", _theorem11_pair, _P),
    deferred_instance_claim("thm17-prec-privacy", _source("Theorem 17"),
                            "p-REC's transcript (m = 2, T = 6, D = 2, R = 0) is eps-DP at Theorem 17's printed eps "
                            "36 m^2 (2D + 2R + 1) ln(T/(R+1))/P (Definition 1)", _theorem17_pair, _P),
    deferred_instance_claim("prec-without-uniform-rounds", "dpcert negative control (p-REC_sim with gamma = 0)",
                            "p-REC_sim without its uniform rounds (gamma = 0) is eps-DP at Theorem 11's eps",
                            _without_uniform_rounds, _R),
    computed_claim("thm7-lower-bound", _source("Theorem 7 (Lemma 8)"),
                   "an eps-DP recommender with worst expected loss L needs eps >= ln(T/(2L))/P", _C, _theorem7),
    computed_claim("lemmas12-13-per-round-leakage", _source("Lemmas 12 and 13"),
                   "with W >= 6m survivors a round leaks at most 3 lambda/W (Lemma 13: phi sums within 2 lambda/W)", _C,
                   _lemmas12_13),
    computed_claim("proof-steps-closed-forms", _source("Lemmas 4, 8, 12, 13, Theorems 10, 11, 15-17"),
                   "the proofs' closed-form steps hold for every parameter value", _P, _facts, method="symbolic"),
    computed_claim("thm15-kl-constant", _source("Theorem 15"), "KL(Bern(3/4) || Bern(1/2)) >= 0.13", _P, _kl_constant,
                   method="symbolic"),
    computed_claim("lemma4-equivalence", _source("Lemma 4 (proof)"),
                   "phi(x)/phi(x') <= e^(2 lambda d) is equivalent to x' >= rho + ln 2/lambda", _R, _lemma4),
    computed_claim("thm16-uniform-rounds-order", _source("Theorem 16 (proof)"),
                   "the uniform rounds' loss gamma T is O(R)", _R, _uniform_rounds),
)
