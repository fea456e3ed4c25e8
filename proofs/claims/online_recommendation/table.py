"""The claims of p-REC, the private online recommender: one row per checkable statement, decided in :mod:`.deciders`."""

from __future__ import annotations


from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, cited_in, computed_claim, deferred_instance_claim
from dpcert.proofs.claims.online_recommendation.deciders import (
    THEOREM_11_SEED,
    THEOREM_17_SEED,
    adaptive_adversary_pair,
    diversity_example,
    expected_loss,
    facts,
    geometric_series_traces,
    greedy_loss_rounds,
    inadmissible_pairs,
    kl_constant,
    lemma_4,
    lemmas_12_13,
    lemmas_12_18_traces,
    lemmas_14_19_traces,
    peers_never_removed,
    random_client_loss,
    reduction_to_sim,
    theorem_11_pair,
    theorem_15_adversary,
    theorem_17_pair,
    theorem_7,
    theorems_1_2_consistent,
    uniform_rounds,
    without_uniform_rounds,
)

_PAPER = "001_8845c8f909738498.txt"
_P, _C, _R = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED


_source = cited_in(_PAPER)


CLAIMS: tuple[Claim, ...] = (
    deferred_instance_claim("thm11-prec-sim-privacy", _source("Theorem 11"),
                            "p-REC_sim's transcript (m = 2, T = 5) is eps-DP at Theorem 11's eps = 18 m^2 ln(T)/P for a "
                            "hostile planted voter set with P = 12 peers (Definition 1)", theorem_11_pair, _P,
                            seeds=(THEOREM_11_SEED,)),
    deferred_instance_claim("thm17-prec-privacy", _source("Theorem 17"),
                            "p-REC's transcript (m = 2, T = 6, D = 2, R = 0) is eps-DP at Theorem 17's printed eps "
                            "36 m^2 (2D + 2R + 1) ln(T/(R+1))/P (Definition 1)", theorem_17_pair, _P,
                            seeds=(THEOREM_17_SEED,)),
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
                   "condition, whose larger pattern has only 1 <= P < 6m peers", _C, inadmissible_pairs,
                   randomized=True),
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
    deferred_instance_claim("thm17-adaptive-adversary", _source("Theorems 11 and 17 (adaptive adversary, Section 2.3)"),
                            "p-REC's transcript (m = 2, T = 6, D = 1, R = 0) is eps-DP at Theorem 17's printed eps "
                            "even against an adaptive adversary whose likes and votes depend on b_<t (12 peers, 3 followers)",
                            adaptive_adversary_pair, _P),
    computed_claim("lemmas12-18-trace-leakage", _source("Lemmas 12 and 18"),
                   "for every round t and sequence b, |E_t(b)| <= 3 lambda/W_t(b) and |E_t(b)| <= "
                   "3(2D+2R+1) lambda/C_t(b)", _C, lemmas_12_18_traces, randomized=True),
    computed_claim("lemmas14-19-leaky-rounds-shrink", _source("Lemmas 14 and 19"),
                   "if E_t(b) != 0 then W_{t+1}(b) <= (1 - 1/(3m)) W_t(b) (p-REC_sim) and C_{t+1}(b) <= "
                   "(1 - 1/(3m(2D+2R+1))) C_t(b) (p-REC)", _C, lemmas_14_19_traces, randomized=True),
    computed_claim("thm11-17-geometric-series", _source("Theorems 11 and 17 (proofs, (15)-(17))"),
                   "|E(b)| <= 3(2D+2R+1) lambda sum_i 1/C_{t_i}(b) <= 3(2D+2R+1) lambda 3m(2D+2R+1)/(P(D+R+1)) over the "
                   "leaky rounds t_i of b (3 lambda sum_i 1/W_{t_i}(b) <= 9 m lambda/P for p-REC_sim)", _C,
                   geometric_series_traces, randomized=True),
    computed_claim("prec-peers-never-removed", _source("Theorems 11, 16 and 17 (proofs)"),
                   "peers are never removed: a peer keeps credit_R >= R+1 and credit_D + credit_R >= D+R+1, so "
                   "W_t(b) >= P and C_t(b) >= P(D+R+1); weights never return and W_t, C_t never increase", _C,
                   peers_never_removed, randomized=True),
    computed_claim("prec-reduces-to-sim", _source("Section 8.2"),
                   "setting D = R = 0 in p-REC gives back p-REC_sim", _C, reduction_to_sim, randomized=True),
    computed_claim("thm10-16-greedy-loss-rounds", _source("Theorems 10 and 16 (proofs)"),
                   "in every run the loss rounds with Z_t = 0 number at most log_{1/(1-rho/(2R+1))}((2R+1)n/((R+1)P)) "
                   "<= 2m(2R+1) ln((2R+1)n/((R+1)P)), even against an adaptive adversary", _C, greedy_loss_rounds,
                   randomized=True),
    computed_claim("thm10-16-expected-loss", _source("Theorems 10 and 16"),
                   "p-REC's expected loss is at most 2m(2R+1) ln((2R+1)n/((R+1)P)) + m(R+1)T/(3T-R-1) "
                   "(p-REC_sim: 2m ln(n/P) + mT/(3T-1))", _C, expected_loss, method="statistical"),
    computed_claim("thm6-random-client-loss", _source("Theorem 6"),
                   "a client liking one uniformly random object in each of the first R rounds forces expected loss "
                   "(1 - 1/m) R on any algorithm, so some fixed client forces at least that", _C, random_client_loss),
    computed_claim("thm1-thm2-bounds-consistent", _source("Theorems 1, 2, 16 and 17"),
                   "p-REC's eps (Theorem 17) is at least Theorem 1's lower bound at p-REC's loss (Theorem 16), and "
                   "is O((1/P)(D+R+1) log(T/(R+1))) with constant <= 72 m^2", _C, theorems_1_2_consistent),
    computed_claim("sec8.1-diversity-example", _source("Section 8.1 (illustrative example)"),
                   "when the client likes both objects a peer may vote either way, the algorithm must follow it, "
                   "and eps grows in proportion to D", _C, diversity_example),
)
