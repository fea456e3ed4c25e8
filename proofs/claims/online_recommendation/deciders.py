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

from dpcert.accountant.online_recommendation import (
    eps_lower_D0R0,
    eps_lower_theorem_15,
    eps_upper_prec,
    eps_upper_sim,
    theorem_15_kl_constant,
)
from dpcert.mechanisms.online_recommendation import (
    PREC,
    Instance,
    PRECParameters,
    PRECSim,
    PRECTranscript,
    lemma_8_chain,
    per_round_leakage,
    planted_pair,
)
from dpcert.mechanisms.online_recommendation.lower_bound_adversary import Theorem15Adversary, adversary_statistics
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import facts_outcome
from dpcert.proofs.claims.online_recommendation.checks import (
    lemma_4_equivalence_witness,
    online_recommendation_facts,
    uniform_rounds_order_witness,
)
from dpcert.proofs.exact import tightest_epsilon
from dpcert.proofs.guarantees import PureDP

_P, _C, _R = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED


def theorem_11_pair() -> tuple[PRECTranscript, PureDP]:
    """A hostile planted pair for p-REC_sim (m = 2, T = 5, 12 peers) and Theorem 11's eps at its peer count."""
    mechanism = planted_pair(PRECSim(2, 5), P=12, others=9, hostile=True, rng=np.random.default_rng(0))
    return mechanism, PureDP(eps_upper_sim(2, 5, mechanism.min_peers()).value)


def theorem_17_pair() -> tuple[PRECTranscript, PureDP]:
    """A planted pair for p-REC with D = 2 diverse rounds (m = 2, T = 6) and Theorem 17's printed eps."""
    mechanism = planted_pair(PREC(2, 6, 2, 0), P=12, others=4, rng=np.random.default_rng(1))
    return mechanism, PureDP(eps_upper_prec(2, 6, 2, 0, mechanism.min_peers(), form="paper").value)


def without_uniform_rounds() -> tuple[PRECTranscript, PureDP]:
    """p-REC_sim with gamma = 0 on 12 agreeing voters plus 5 dissenters, against Theorem 11's eps."""
    instance = Instance(2, [{0}] * 3, [[0, 0, 0]] * 12 + [[1, 1, 1]] * 5)
    mechanism = PRECTranscript.adjacent_pair(PRECSim(2, 3, gamma=0), instance, range(16), 16)
    return mechanism, PureDP(eps_upper_sim(2, 3, mechanism.min_peers()).value)


def theorem_7() -> tuple[Verdict, str]:
    """Lemma 8's chain: the exact eps of p-REC_sim on it is at least ln(T/(2L))/P with L its worst expected loss."""
    T, P = 4, 12
    chain = lemma_8_chain(T, P)
    mechanism = PRECTranscript(PRECSim(2, T), chain.instances, chain.profiles)
    eps = tightest_epsilon(mechanism).epsilon
    loss = T * max(mechanism.round_marginal(chain.endpoints[0], 0, {1}), mechanism.round_marginal(chain.endpoints[1], 0, {0}))
    bound = eps_lower_D0R0(T, loss, P)
    if exact_sign(eps - bound.value) >= 0:
        return _C, (f"on Lemma 8's chain (T = {T}, P = {P}) p-REC_sim's exact tightest eps {float(eps):.4f} >= "
                    f"ln(T/(2L))/P = {float(bound.value):.4f} with L = T max(p_A, p_B) = {float(loss):.4f}")
    return _R, f"witness chain T = {T}, P = {P}: exact eps {eps} < the lower bound {bound.value}"


def lemmas_12_13() -> tuple[Verdict, str]:
    worst12, worst13, cases = 0.0, 0.0, 0
    for m, T, R in ((2, 3, 0), (2, 1000, 0), (3, 10, 1), (4, 50, 0)):
        for W in range(6 * m, 6 * m + 9):
            leak = per_round_leakage(PRECParameters(m, T, 0, R), W)
            if leak.lemma_12_ratio > 1 or leak.lemma_13_ratio > 1:
                return _R, f"witness m = {m}, T = {T}, R = {R}, W = {W}: ratios {leak.lemma_12_ratio}, {leak.lemma_13_ratio}"
            worst12, worst13, cases = max(worst12, float(leak.lemma_12_ratio)), max(worst13, float(leak.lemma_13_ratio)), cases + 1
    return _C, (f"over every pair of adjacent vote-count vectors, {cases} (m, T, R, W) cases with W >= 6m: the per-round "
                f"leakage is at most 3 lambda/W (largest ratio {worst12:.3f}) and the phi-sum log-ratio at most "
                f"2 lambda/W (largest ratio {worst13:.3f})")


def facts() -> tuple[Verdict, str]:
    return facts_outcome(online_recommendation_facts())


def kl_constant() -> tuple[Verdict, str]:
    result = theorem_15_kl_constant()
    if exact_sign(result.value - sympy.Rational(13, 100)) > 0:
        return _P, f"KL(Bern(3/4) || Bern(1/2)) = {result.value} = {float(result.value):.7f} > 0.13 (decided exactly)"
    return _R, f"witness KL = {result.value} <= 0.13"


def lemma_4() -> tuple[Verdict, str]:
    w = lemma_4_equivalence_witness(2, 10)
    if w.refutes and w.recheck():
        return _R, (f"witness lambda = {w.lam}, rho = {w.rho}, x' = {w.x_prime}: phi(x)/phi(x') = {w.ratio} <= "
                    f"e^(2 lambda d) = {w.bound}, yet x' < rho + ln 2/lambda = {w.threshold}; the step holds as "
                    "'<=' only, which the proof's use of it does not need")
    return _C, "no witness found"


def uniform_rounds() -> tuple[Verdict, str]:
    w = uniform_rounds_order_witness(2, 10)
    if w.refutes:
        return _R, (f"witness m = 2, T = 10, R = 0: the uniform rounds cost gamma T = {w.cost} >= m/3 > 0 = c R for "
                    "every c, so the loss term is O(1 + R), not O(R)")
    return _C, f"gamma T = {w.cost}"


def theorem_15_adversary() -> tuple[Verdict, str]:
    """Theorem 15's random adversary against p-REC and two noisier variants: the leakage it forces on its
    2P-step chains, E[KL | legal]/(2P), is at least Theorem 15's bound at the measured loss, and for the
    paper's gamma at most Theorem 17's eps (the chain's patterns all have >= P = 6m peers)."""
    T, D, R, P = 128, 29, 1, 12
    rows = []
    for gamma in (None, sympy.Rational(1, 2), sympy.Integer(1)):
        algorithm = PREC(2, T, D, R, gamma=gamma)
        stats = adversary_statistics(algorithm, Theorem15Adversary(T, D, R, P))
        forced = sympy.Rational(stats.forced_epsilon(P))
        lower = eps_lower_theorem_15(T, sympy.Rational(max(stats.legal_loss, 1e-300)), D, R, P).value
        label = "paper's gamma" if gamma is None else f"gamma = {gamma}"
        if exact_sign(forced - lower) < 0:
            return _R, (f"witness p-REC ({label}), T = {T}, D = {D}, R = {R}, P = {P}: forced eps {float(forced):.4g} < "
                        f"Theorem 15's {float(lower):.4g} at L = {stats.legal_loss:.4g}")
        cases = stats.case_rounds
        if stats.expected_loss < (cases["1a"] + cases["1b"]) / 32 - 1e-9:
            return _R, f"witness ({label}): E[loss] = {stats.expected_loss:.4g} < (E[I1a] + E[I1b])/32, inequality (8)"
        rows.append(f"{label}: E[loss | legal] = {stats.legal_loss:.3f}, forced eps {float(forced):.4f} >= "
                    f"{float(lower):.4f}, case-1 rounds {cases['1a'] + cases['1b']:.1f}, case-2 {cases['2a'] + cases['2b']:.1f}")
        if gamma is None:
            upper = eps_upper_prec(2, T, D, R, P).value
            if exact_sign(upper - forced) < 0:
                return _R, f"witness T = {T}, D = {D}, R = {R}, P = {P}: forced eps {float(forced):.4g} > Theorem 17's {upper}"
            rows[-1] += f" <= Theorem 17's {float(upper):.1f}"
    return _C, (f"exact expectation over the adversary's draws and the algorithm's coins (dynamic programme, float64; "
                f"m = 2, T = {T}, D = {D}, R = {R}, P = {P}, Pr[legal] = {stats.legal_probability:.5f}): "
                + "; ".join(rows))


def inadmissible_pairs() -> tuple[Verdict, str]:
    """p-REC_sim on adjacent pairs whose larger pattern has 1 <= P < 6m peers: the exact tightest eps against
    18 m^2 ln(T)/P at that P, and Lemma 12's per-round 3 lambda/W at every W in 2..6m-1."""
    worst, shown = 0.0, []
    for seed, (m, T, P, others, hostile) in enumerate(((2, 9, 1, 5, True), (2, 10, 3, 4, False), (2, 8, 6, 6, True),
                                                         (2, 10, 10, 3, True), (3, 5, 2, 4, True), (3, 5, 12, 5, False))):
        mechanism = planted_pair(PRECSim(m, T), P=P, others=others, hostile=hostile, rng=np.random.default_rng(seed))
        peers = mechanism.min_peers()
        eps = tightest_epsilon(mechanism).epsilon
        bound = 18 * m**2 * sympy.log(T) / peers
        if exact_sign(bound - eps) < 0:
            return _R, (f"witness p-REC_sim m = {m}, T = {T}, planted seed {seed}, {peers} peers: tightest eps "
                        f"{float(eps):.4g} > 18 m^2 ln(T)/P = {float(bound):.4g}")
        worst = max(worst, float(eps / bound))
        shown.append(f"(m={m}, T={T}, P={peers}) eps {float(eps):.3f}")
    lemma = 0.0
    for m, T in ((2, 3), (2, 10), (3, 5), (3, 100)):
        for W in range(2, 6 * m):
            ratio = per_round_leakage(PRECParameters(m, T), W).lemma_12_ratio
            if ratio > 1:
                return _R, f"witness m = {m}, T = {T}, W = {W}: one round leaks {ratio:.4g} x 3 lambda/W"
            lemma = max(lemma, ratio)
    return _C, ("exact checker on six seeded planted pairs outside the proofs' P >= 6m (" + ", ".join(shown)
                + f"): largest tightest eps / (18 m^2 ln(T)/P) = {worst:.3f}; exhaustive per-round check at W = 2..6m-1 "
                f"(m = 2, 3; T = 3, 10, 5, 100): largest leak / (3 lambda/W) = {lemma:.3f}. Pairs without any peer "
                "are left out: their survivors can run out (W_t = 0), where the algorithm is undefined")
