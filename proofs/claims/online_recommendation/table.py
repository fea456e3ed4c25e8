"""The claims of p-REC, the private online recommender: one row per checkable statement, decided in :mod:`.deciders`."""

from __future__ import annotations


from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, cited_in, computed_claim, deferred_instance_claim
from dpcert.proofs.claims.online_recommendation.deciders import (
    facts,
    inadmissible_pairs,
    kl_constant,
    lemma_4,
    lemmas_12_13,
    theorem_11_pair,
    theorem_15_adversary,
    theorem_17_pair,
    theorem_7,
    uniform_rounds,
    without_uniform_rounds,
)

_PAPER = "001_8845c8f909738498.txt"
_P, _C, _R = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED


_source = cited_in(_PAPER)


CLAIMS: tuple[Claim, ...] = (
    deferred_instance_claim("thm11-prec-sim-privacy", _source("Theorem 11"),
                            "p-REC_sim's transcript (m = 2, T = 5) is eps-DP at Theorem 11's eps = 18 m^2 ln(T)/P for a "
                            "hostile planted voter set with P = 12 peers (Definition 1)", theorem_11_pair, _P),
    deferred_instance_claim("thm17-prec-privacy", _source("Theorem 17"),
                            "p-REC's transcript (m = 2, T = 6, D = 2, R = 0) is eps-DP at Theorem 17's printed eps "
                            "36 m^2 (2D + 2R + 1) ln(T/(R+1))/P (Definition 1)", theorem_17_pair, _P),
    deferred_instance_claim("prec-without-uniform-rounds", "dpcert negative control (p-REC_sim with gamma = 0)",
                            "p-REC_sim without its uniform rounds (gamma = 0) is eps-DP at Theorem 11's eps",
                            without_uniform_rounds, _R),
    computed_claim("thm7-lower-bound", _source("Theorem 7 (Lemma 8)"),
                   "an eps-DP recommender with worst expected loss L needs eps >= ln(T/(2L))/P", _C, theorem_7),
    computed_claim("thm15-adversary-forces-leakage", _source("Theorem 15 (proof)"),
                   "against the randomized adversary S1-S4 an eps-DP recommender with expected loss L has "
                   "eps >= (0.13/(2P)) min(min(D+R, T)/4 - 1, T/8 - 8(L+1) - 1) when D + R >= 6 ln T", _C,
                   theorem_15_adversary),
    computed_claim("prec-inadmissible-pairs", _source("Definition 2 and Theorem 11 (spec A9)"),
                   "p-REC_sim's eps 18 m^2 ln(T)/P also holds on adjacent pairs outside the proofs' admissibility "
                   "condition, whose larger pattern has only 1 <= P < 6m peers", _C, inadmissible_pairs),
    computed_claim("lemmas12-13-per-round-leakage", _source("Lemmas 12 and 13"),
                   "with W >= 6m survivors a round leaks at most 3 lambda/W (Lemma 13: phi sums within 2 lambda/W)", _C,
                   lemmas_12_13),
    computed_claim("proof-steps-closed-forms", _source("Lemmas 4, 8, 12, 13, Theorems 10, 11, 15-17"),
                   "the proofs' closed-form steps hold for every parameter value", _P, facts, method="symbolic"),
    computed_claim("thm15-kl-constant", _source("Theorem 15"), "KL(Bern(3/4) || Bern(1/2)) >= 0.13", _P, kl_constant,
                   method="symbolic"),
    computed_claim("lemma4-equivalence", _source("Lemma 4 (proof)"),
                   "phi(x)/phi(x') <= e^(2 lambda d) is equivalent to x' >= rho + ln 2/lambda", _R, lemma_4),
    computed_claim("thm16-uniform-rounds-order", _source("Theorem 16 (proof)"),
                   "the uniform rounds' loss gamma T is O(R)", _R, uniform_rounds),
)
