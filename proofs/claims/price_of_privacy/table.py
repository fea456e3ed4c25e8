"""The claims of the price-of-privacy paper (local-DP recommenders):
one row per checkable statement, decided in :mod:`.deciders`.
"""

from __future__ import annotations


from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, cited_in, computed_claim, mechanism_claim
from dpcert.proofs.guarantees import PureDP
from dpcert.proofs.claims.price_of_privacy.leak_detector import maxsense_below_the_bound
from dpcert.proofs.claims.price_of_privacy.deciders import (
    appendix_a_chernoff,
    appendix_b_pair_law,
    lemma_12_o_bound,
    lemma_12_sandwich_checked,
    lemma_25_per_sketch,
    membership_scheme_users,
    theorem_14_box,
    theorem_16_rate,
    lemma_11,
    lemma_12_theta,
    lemma_28_vertices,
    lemma_29_variance,
    lemma_32,
    lemma_6,
    lemma_9_in_bits,
    lemma_30,
    lemma_9_in_nats,
    multi_maxsense_independence,
    private_sketch_bound,
    privacy_tradeoff_rate,
    theorem_10,
    theorem_15_gap,
    theorem_16_eps_hat,
    theorem_14_any_eps,
    theorem_17_null_variance,
    theorem_7_corrected,
    theorem_7_printed,
)

_PAPER = "000_0c6e7fdc3fd68303.txt"
_P, _C, _R, _U = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED, Verdict.UNKNOWN


_source = cited_in(_PAPER)


_SKETCH_CLAIMS: tuple[Claim, ...] = (
    mechanism_claim("thm8-pairwise-preference-ldp", _source("Theorem 8 (Fig. 1)"), "pairwise-preference-sketch",
                    {"N": 5, "w": 2, "eps": 1, "pair": "0,3"}, PureDP(1), _P,
                    note="over all pairs of user data (W, R), for the public pair {0, 3}"),
    mechanism_claim("thm8-pairwise-preference-tight", _source("Theorem 8 (Fig. 1)"), "pairwise-preference-sketch",
                    {"N": 5, "w": 2, "eps": 1, "pair": "0,3"}, PureDP("999/1000"), _R,
                    note="the bound e^eps is attained"),
    mechanism_claim("variant-ii-rated-pair-not-ldp", _source("Section 3.2, variant (ii)"), "rated-pair-sketch",
                    {"N": 5, "w": 3, "eps": "log(3)"}, PureDP("log(3)"), _R,
                    note="the probed pair is drawn from the rated items, so it reveals them (spec E9)"),
    mechanism_claim("variant-ii-public-items", _source("Section 3.2, variant (ii)"), "rated-pair-sketch-public-items",
                    {"eps": "log(3)", "items": "0,2,4"}, PureDP("log(3)"), _P,
                    note="private for the ratings once the rated items are public"),
    mechanism_claim("thm15-maxsense-ldp", _source("Theorem 15 (Fig. 2)"), "maxsense-sketch",
                    {"N": 5, "w": 2, "eps": 1, "sensing": "01010"}, PureDP(1), _P),
    mechanism_claim("thm15-maxsense-tight", _source("Theorem 15 (Fig. 2)"), "maxsense-sketch",
                    {"N": 5, "w": 2, "eps": 1, "sensing": "01010"}, PureDP("999/1000"), _R,
                    note="exactly e^eps whenever an item is sensed"),
    mechanism_claim("thm15-maxsense-empty-sensing", _source("Theorem 15 (Fig. 2)"), "maxsense-sketch",
                    {"N": 5, "w": 2, "eps": 1, "sensing": "00000"}, PureDP("1/1000"), _P,
                    note="with nothing sensed the output ignores the data"),
    mechanism_claim("thm16-multi-maxsense-ldp", _source("Theorem 16 (Fig. 3)"), "multi-maxsense-sketch",
                    {"N": 6, "w": 1, "eps": 2, "blocks": "0|1|2|3"}, PureDP(2), _P),
    mechanism_claim("thm16-multi-maxsense-tight-ratio", _source("Theorem 16 (Fig. 3)"), "multi-maxsense-sketch",
                    {"N": 6, "w": 1, "eps": 2, "blocks": "0|1|2|3"}, PureDP("999/1000"), _R,
                    note="the tight value is (eps/Q) min(Q', 2w) = 1, below the composition bound 2"),
    mechanism_claim("thm10-membership-query-not-private", _source("Theorem 10 (proof)"), "membership-query",
                    {"N": 4, "A": "[[0, 1], [2, 0]]"}, PureDP(10), _R,
                    note="a deterministic 1-bit query has an unbounded likelihood ratio"),
)

_BOUND_CLAIMS: tuple[Claim, ...] = (
    computed_claim("lemma6-mi-through-ldp", _source("Lemma 6"), "I(X; Y | Z) <= eps nats through an eps-LDP channel",
                   _C, lemma_6, randomized=True),
    computed_claim("lemma9-channel-mismatch-nats", _source("Lemma 9"),
                   "I(Z; S) <= E_S[E[2^|I1 ∩ I2| 1{Z1 ≡ Z2} - 1]] (in nats) for every sketch", _C, lemma_9_in_nats,
                   randomized=True),
    computed_claim("lemma9-channel-mismatch-bits", _source("Lemma 9 with footnote 3 (log = log2)"),
                   "Lemma 9 holds with mutual information in bits", _R, lemma_9_in_bits),
    computed_claim("lemma11-posterior-ratio", _source("Lemma 11"),
                   "posterior/prior ratios of an eps-DP sketch lie in [e^-eps, e^eps]", _C, lemma_11, randomized=True),
    computed_claim("thm7-corrected-threshold", _source("Theorem 7"),
                   "any eps-LDP learner is unreliable below ((1 - p_max) N - 1)/(eps log2 e) users", _P,
                   theorem_7_corrected, method="symbolic"),
    computed_claim("thm7-printed-threshold", _source("Theorem 7"),
                   "any eps-LDP learner is unreliable below N/(eps log2 e) users (printed constant)",
                   Verdict.PROOF_GAP, theorem_7_printed),
    computed_claim("thm10-one-bit-sketch", _source("Theorem 10"),
                   "a 1-bit sketch 1_A(I, Z) with w = 1 carries at most 1/N nats", _C, theorem_10),
    computed_claim("lemma12-sandwich", _source("Lemma 12 (proof)"),
                   "(1 - w/(N-w+1))^w <= C(N-w,w)/C(N,w) <= (1 - w/N)^w", _C, lemma_12_sandwich_checked),
    computed_claim("lemma12-theta", _source("Lemma 12"), "|C(N-w,w)/C(N,w) - (1 - w^2/N)| = Theta(w^4/N^2)", _R,
                   lemma_12_theta),
    computed_claim("thm13-bounds-lemma9", _source("Theorem 13"),
                   "for eps-LDP sketches the Lemma 9 bound is at most e^{2eps} sum_k h(k)(1 - 2^-k) = O(w^2/N)", _C,
                   lambda: private_sketch_bound("theorem13"), randomized=True),
    computed_claim("thm14-bounds-lemma9", _source("Theorem 14"),
                   "for eps-LDP sketches, eps < ln 2, the Lemma 9 bound is at most 2(e^eps-1)^2 w/N + O(w^4/N^2)", _C,
                   lambda: private_sketch_bound("theorem14"), randomized=True),
    computed_claim("thm15-score-gap-constant", _source("Theorem 15 (proof)"),
                   "|Bbar_l - Bbar_m| >= U eps_hat (theta - theta^2/w) delta_lm / N", _R, theorem_15_gap),
    computed_claim("thm16-eps-hat-bound", _source("Theorem 16 (proof)"),
                   "eps_hat(eps / ceil(eps)) >= 2(e - 1)/(e + 2)", _R, theorem_16_eps_hat),
    computed_claim("lemma32-partition-function", _source("Lemma 32 (Appendix D)"),
                   "E0 exp(nu (F - Fbar)^2) <= 1 + 4 nu sigma^2 / (1 - 2 nu sigma^2) for nu sigma^2 < 1/2", _C,
                   lemma_32, randomized=True),
    computed_claim("appendix-a-chernoff", _source("Appendix A, Theorem 23"),
                   "P[Bin(N, 1/K) >= N - d] <= exp(-N K (1 - d/N - 1/K)^2 / 3)", _R, appendix_a_chernoff),
    computed_claim("lemma28-box-simplex-vertices", _source("Lemma 28 (Appendix C)"),
                   "the vertices of {sum p = 1, p D in [1 - eps', 1 + eps']} are the p^A with |A| = D/2", _C,
                   lemma_28_vertices),
    computed_claim("lemma29-variance-under-kl", _source("Lemma 29 (= Lemma 19, Appendix D)"),
                   "sup{Var_p(F) : KL(p || p0) <= delta} <= Var0[F] max(20, 10 delta) for F = sum_i f_i(Z_i)", _C,
                   lemma_29_variance, randomized=True),
    computed_claim("thm17-null-variance", _source("Theorem 17 (proof)"),
                   "Var0[F] <= 2 eps'^2 N when every f_i(z) lies in [e^-eps, e^eps]", _P, theorem_17_null_variance,
                   method="symbolic"),
    computed_claim("lemma30-entropy-deficit", _source("Lemma 30 (Appendix D)"),
                   "H(P0) - H(PT) >= D(p || p0) for the law p of any discrete function F of Z, P0 uniform on {0,1}^N",
                   _C, lemma_30, randomized=True),
    computed_claim("thm14-any-eps", _source("Theorem 14 (= Theorem 27), spec E11"),
                   "Theorem 14's bound 2(e^eps-1)^2 w/N + e^{2eps}(1 + w^2/N - (1 + 2w^2/(N-2w+1)) R) on the Lemma 9 "
                   "bound of every eps-LDP sketch holds for every eps > 0, without the hypothesis eps < ln 2", _P,
                   theorem_14_any_eps, method="symbolic", randomized=True),
    computed_claim("cor21-maxsense-below-the-bound", _source("Section 3.1, Theorem 14 and Corollary 21"),
                   "below ((1/2) N - 1)/(I log2 e) users (I: Theorem 14's per-user bound) every eps-LDP learner, "
                   "MaxSense included, fails to recover the clusters with probability above 1/2", _C,
                   maxsense_below_the_bound, method="statistical"),
    computed_claim("thm16-sketches-independent", _source("Section 5 (Multi-MaxSense, Fig. 3), Theorem 16 (proof)"),
                   "the Q sketches of one user are independent, since the sensing blocks are disjoint", _R,
                   multi_maxsense_independence),
    computed_claim("privacy-tradeoff-one-over-eps", _source("Section 5 (before Theorem 16), Informal Theorem 1"),
                   "the optimal privacy trade-off is a 1/eps factor in the sample complexity, which MaxSense's "
                   "1/eps_hat^2 misses", _R, privacy_tradeoff_rate, method="symbolic"),
)

_SPEC_CHECKLIST_CLAIMS: tuple[Claim, ...] = (
    computed_claim("lemma25-per-sketch-kl", _source("Lemma 25 (= Lemma 18, Appendix C)"),
                   "KL(P_{Z|S=s} || P_Z) <= sum p_s(i,a) p_s(i',a') [1{a ≡ a'} P(Z_{i∪i'} = a∪a') / "
                   "(P(Z_i=a) P(Z_i'=a')) - 1] for every sketch value s, any law of Z and any law of I independent "
                   "of Z (nats)", _C,
                   lemma_25_per_sketch, randomized=True),
    computed_claim("thm14-box-main-term", _source("Theorem 14 (proof, box (18)), Lemma 28"),
                   "for every posterior p in the box (18), sum p = 1 and p_x D in [1 - eps', 1 + eps'], "
                   "sum_l (pi_l0 - pi_l1)^2 <= 2 eps'^2 w/N", _C, theorem_14_box),
    computed_claim("lemma12-o-bound", _source("Lemma 12"),
                   "C(N-w,w)/C(N,w) = 1 - w^2/N + O(w^4/N^2) for w = o(sqrt N) "
                   "(checked with constant 1 where w^2 <= N)", _C, lemma_12_o_bound),
    computed_claim("appendix-b-pair-count-law", _source("Appendix B (Theorem 24)"),
                   "P[S_u = 1, P_u = {i, j}] = b'_ij/(N(N-1)), so A_hat_ij ~ Binomial(U, b'_ij/(N(N-1)))", _R,
                   appendix_b_pair_law),
    computed_claim("one-bit-adaptive-2n2-users", _source("Section 4.2 (after Theorem 10)"),
                   "the adaptive query 'is (I_u, Z_u) = (i, b)?' succeeds once every 2N users on average, so learning "
                   "the N bits takes 2N^2 users (Theorem 10's Omega(N^2) is tight)", _C, membership_scheme_users),
    computed_claim("thm16-rate-one-over-eps", _source("Theorem 16"),
                   "for eps >= 1 Multi-MaxSense's users scale as 1/eps: Q eps_hat(eps/Q)^2 >= c eps with Q = ceil(eps)",
                   _C, theorem_16_rate),
)

CLAIMS: tuple[Claim, ...] = _SKETCH_CLAIMS + _BOUND_CLAIMS + _SPEC_CHECKLIST_CLAIMS
