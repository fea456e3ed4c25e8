"""The claims of user-level metric DP over the earth mover's distance:
one row per checkable statement, decided in :mod:`.deciders`.
"""

from __future__ import annotations

import sympy

from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, cited_in, computed_claim, instance_claim, mechanism_claim
from dpcert.proofs.guarantees import MetricDP, PureDP
from dpcert.proofs.claims.metric_user_level.baseline_checks import (
    HADAMARD,
    corollary_6_8_closed_form,
    duchi_density_ratio,
    hadamard_user_level_privacy,
    laplace_corrected,
    lemma_6_4_composition_argument,
    lemma_6_4_error_rate,
    table2_hadamard_label,
)
from dpcert.proofs.claims.metric_user_level.deciders import (
    appendix_d3_step,
    bernstein_constants,
    concavity,
    concrete_central_example,
    fact_5_1,
    gaussian_width,
    gaussian_width_corrected,
    GKRR,
    gkrr_inverse,
    ITEMWISE,
    laplace_baseline,
    lemma_4_2,
    lemma_a2,
    lemma_b1,
    lemma_b3,
    theorem_5_3_identity,
)
from dpcert.proofs.claims.metric_user_level.knorm_checks import knorm_error_rate, knorm_privacy
from dpcert.proofs.claims.metric_user_level.comparison_checks import (
    central_comparison_measured,
    rate_conditions,
)
from dpcert.proofs.claims.metric_user_level.spec_checks import (
    algorithm_4_unbiased,
    ceil_bound,
    concrete_alpha,
    concrete_composition_alpha0,
    concrete_linear_noise,
    emd_at_most_one,
    hockey_stick_event_form,
    lemma_2_1,
    lemma_4_2_central,
    lemma_a1,
    linear_embedding_lipschitz,
    theorem_4_1,
    theorem_6_6_norm_bounds,
)
from dpcert.proofs.claims.metric_user_level.shuffle_checks import (
    lemma_b4,
    lemma_b5,
    lemma_b5_printed,
    theorem_4_3_several_items,
)

_PAPER = "002_1def8c9789d6e1bd.txt"
_P, _C, _R, _U = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED, Verdict.UNKNOWN
_Q = sympy.Rational


_source = cited_in(_PAPER)


CLAIMS: tuple[Claim, ...] = (
    mechanism_claim("gkrr-metric-dp", _source("Section 6.2 (GKRR)"), "gkrr", GKRR, MetricDP(1), _P,
                    note="P[y | x] ∝ exp(alpha0 (1 - d(x, y)))"),
    mechanism_claim("gkrr-metric-dp-tight", _source("Section 6.2 (GKRR)"), "gkrr", GKRR, MetricDP("99/100"), _R,
                    note="alpha0 is attained within a cluster"),
    instance_claim("itemwise-composition", _source("Section 4.2 (Fernandes et al. composition)"), ITEMWISE,
                   MetricDP(2), _P, note="bounded d_EM-DP with alpha = m alpha0 (Lemma 2.1)"),
    instance_claim("itemwise-composition-tight", _source("Section 4.2 (Fernandes et al. composition)"), ITEMWISE,
                   MetricDP("199/100"), _R, note="without delta, shuffling gains nothing over composition"),
    computed_claim("gkrr-inverse", _source("Section 6.2 (A^-1)"),
                   "A^-1 = a' I + (b' I + c' J) (x) J with the printed a', b', c', and a' + t b' + s t c' = 1", _P,
                   gkrr_inverse, method="symbolic"),
    computed_claim("lemma4.2-local-linear", _source("Lemma 4.2 (with Theorem 4.1)"),
                   "PrivEMDLinear with omega = 1/alpha is (alpha, 0)-local d_EM-DP", _P, lemma_4_2),
    computed_claim("lemma-a2-weak-triangle", _source("Lemma A.2"),
                   "D_e^(a+b)(P || R) <= D_e^a(P || Q) + e^a D_e^b(Q || R); k steps give delta sum_j<k e^(j eps)", _C,
                   lemma_a2, randomized=True),
    computed_claim("fact5.1-printed-delta", _source("Fact 5.1"),
                   "an (eps, delta, r)-discrete mechanism is (eps ceil(d/r), delta e^ceil(d/r)) at d_EM = d", _R,
                   lambda: fact_5_1("fact5.1", sympy.Integer(2), _Q(1, 100))),
    computed_claim("table1-printed-delta", _source("Table 1"),
                   "an (eps, delta, r)-discrete mechanism is (eps ceil(d/r), delta e^(eps ceil(d/r))) at d_EM = d", _R,
                   lambda: fact_5_1("table1", _Q(1, 10), _Q(1, 1000))),
    computed_claim("thm5.3-identity", _source("Theorem 5.3"),
                   "alpha = eps / ((1 + sqrt 2) r + (3/s) ln(1/delta)) makes the reduction (eps, 2 delta, r)-discrete",
                   _P, theorem_5_3_identity, method="symbolic"),
    computed_claim("lemma5.2-bernstein-constants", _source("Lemma 5.2 (Appendix C.1)"),
                   "the constants of Lemma 5.2's Bernstein step: t^2 >= 2L(V + t/3), 2 sqrt(xy) <= sqrt2 x + y/sqrt2, "
                   "4/3 + sqrt 2 <= 3", _P, bernstein_constants, method="symbolic"),
    computed_claim("lemma-b3-clone-pair", _source("Lemma B.3 (FMT Lemma A.1)"),
                   "D_e^eps((A+1, C-A) || (A, C-A+1)) <= delta at eps = ln(1 + 8 sqrt(ln(4/delta)/(pm)) + 8/(pm))", _C,
                   lemma_b3),
    computed_claim("lemma-b1-metric-shuffle", _source("Lemma B.1"),
                   "shuffling one changed item at distance d is (alpha, delta)-close with "
                   "alpha = ln(1 + tanh(alpha0 d/2)(8 sqrt(e^alpha0 ln(4/delta)/m) + 8 e^alpha0/m))", _C, lemma_b1),
    computed_claim("thm4.3-concavity", _source("Theorem 4.3 (Appendix B.3)"),
                   "f(d) = ln(1 + K tanh(a d/2)) is concave for K, a > 0 (so Jensen gives the worst case)", _P,
                   concavity, method="symbolic"),
    computed_claim("thm4.3-several-items", _source("Theorem 4.3"),
                   "if alpha0 < ln(m/(16 ln(4m/delta))), vectors differing by v are (alpha, delta e^alpha)-close after "
                   "shuffling, alpha = ||v||_0 ln(1 + tanh(alpha0 ||v||_1/(2||v||_0)) "
                   "(8 sqrt(e^alpha0 ln(4||v||_0/delta)/m) + 8 e^alpha0/m))", _C, theorem_4_3_several_items),
    computed_claim("lemma-b4-advanced-joint-convexity", _source("Lemma B.4 (Balle et al. 2018, Theorem 2)"),
                   "P = nu M + (1-nu) N, Q = nu M' + (1-nu) N, a >= 1, a' = 1 + nu(a-1), beta = a'/a: "
                   "D_a'(P || Q) <= nu D_a(M || (1-beta) N + beta M')", _P, lemma_b4, method="symbolic",
                   randomized=True),
    computed_claim("lemma-b5-kov-decomposition", _source("Lemma B.5 (Kairouz et al. 2015, Theorem 2.5)"),
                   "pure a-indistinguishable P, Q are P = (a/(a+1)) M + (1/(a+1)) N, Q = (1/(a+1)) M + (a/(a+1)) N "
                   "for distributions M, N (Q's N-coefficient corrected, spec A14)", _P, lemma_b5, method="symbolic",
                   randomized=True),
    computed_claim("lemma-b5-printed-coefficient", _source("Lemma B.5"),
                   "pure a-indistinguishable P, Q are P = (a/(a+1)) M + (1/(a+1)) N, Q = (1/(a+1)) M + (1/(a+1)) N "
                   "for distributions M, N", _R, lemma_b5_printed),
    computed_claim("section4.2-central-example", _source("Section 4.2, concrete example"),
                   "with alpha = 25, m = 1e3, n = 1e5, delta = 1e-12, Theorem 4.4 allows the per-item alpha0 = 3.0 ('about 3.0')", _R,
                   concrete_central_example),
    computed_claim("lemma6.7-laplace-scale", _source("Lemma 6.7"),
                   "Lap(1/(n eps)) noise on each coordinate of the global histogram is eps user-level DP", _R,
                   laplace_baseline),
    computed_claim("lemma6.2-gaussian-width", _source("Lemma 6.2 and Section 4.1 (Gaussian PrivEMDLinear)"),
                   "Gaussian noise of width ell sqrt(1.25 ln(1/delta))/alpha per coordinate makes PrivEMDLinear "
                   "(alpha, delta)-local d_EM-DP", _R, gaussian_width),
    computed_claim("gaussian-width-corrected", "dpcert correction of " + _source("Lemma 6.2"),
                   "per-coordinate Gaussian noise with delta_BW(alpha; ell, sigma) <= delta makes PrivEMDLinear "
                   "(alpha, delta)-local d_EM-DP", _C, gaussian_width_corrected),
    mechanism_claim("hadamard-response-ldp", _source("Lemma 6.4 (Hadamard response)"), "hadamard-response", HADAMARD,
                    PureDP("1/2"), _P, note="every output has probability 2e^eps/(K(1+e^eps)) or 2/(K(1+e^eps))"),
    mechanism_claim("hadamard-response-ldp-tight", _source("Lemma 6.4 (Hadamard response)"), "hadamard-response",
                    HADAMARD, PureDP("49/100"), _R, note="the ratio e^eps is attained"),
    computed_claim("table2-hadamard-pure", _source("Table 2 (Hadamard response row)"),
                   "Hadamard response with Lemma 6.4's per-sample budget is (eps, 0)-user-level DP", _R,
                   table2_hadamard_label),
    computed_claim("lemma6.4-composition", _source("Lemma 6.4 (remark)"),
                   "m eps0-LDP releases with eps0 = eps/sqrt(m ln(m/delta)) are (eps, delta)-user-level DP by "
                   "composition (Kairouz et al. 2015)", _R, lemma_6_4_composition_argument),
    computed_claim("lemma6.4-hadamard-privacy", _source("Lemma 6.4"),
                   "FreqEstLocal with Hadamard response at eps0 = eps/sqrt(m ln(m/delta)) is (eps, delta)-bounded "
                   "user-level local DP", _C, hadamard_user_level_privacy),
    computed_claim("lemma6.4-error-rate", _source("Lemma 6.4"),
                   "max_K E[d_EM(K~, F~)] <= O(sqrt(k/(mn)) + sqrt(k^2 ln(m/delta)/(n eps^2))), with constant 1 when "
                   "eps0 sqrt(k) <= 12", _C, lemma_6_4_error_rate),
    computed_claim("lemma6.7-laplace-corrected", "dpcert correction of " + _source("Lemma 6.7"),
                   "Lap(2/(n eps)) noise on each coordinate of the global histogram is eps-user-level DP (tight)", _C,
                   laplace_corrected),
    computed_claim("lemma6.1-duchi-ldp", _source("Lemma 6.1 (Duchi et al. 2013)"),
                   "the l2 sampling randomizer releasing q(K~_i) is eps-user-level local DP", _C, duchi_density_ratio),
    computed_claim("lemma6.3-knorm-privacy", _source("Lemma 6.3 (Hardt and Talwar 2010)"),
                   "the K-norm mechanism for q = F Phi K~_G, K = conv{a_x - a_y}/n, is (eps, 0)-bounded user-level "
                   "central DP", _C, knorm_privacy, randomized=True),
    computed_claim("table2-knorm-error", _source("Table 2 (linear embedding, central K-norm row) and Lemma 6.3"),
                   "the K-norm mechanism's E||q^ - q||_2 <= d max||a_x - a_y||_2/(eps n) <= "
                   "2 d ||F Phi||_{1->2}/(eps n), O(d/(eps n)) when ||F Phi||_{1->2} <= 1", _C, knorm_error_rate, method="statistical"),
    computed_claim("corollary6.8-closed-form", _source("Corollary 6.8"),
                   "FreqEstLocal with GKRR at eq. (7)'s alpha0 has max_K E[d_EM] <= 4 sqrt(k^3/(mn)) + 64 sqrt(k^3)/"
                   "(alpha n) sqrt(ln(4m e^alpha/delta)) (checked against Theorem 6.6)", _C, corollary_6_8_closed_form),
    computed_claim("appendix-d3-step", _source("Appendix D.3 (proof of Theorem 6.6)"),
                   "the middle term of the (a')^2 - 1 bound is at most (t (e^alpha0 + s)/D)^2", _R, appendix_d3_step),
    computed_claim("section2-emd-at-most-one", _source("Section 2 (after Definition 2.4)"),
                   "since d_X is bounded by 1, d_EM(., .) <= 1", _C, emd_at_most_one, randomized=True),
    computed_claim("lemma2.1-bvn-matching", _source("Lemma 2.1 (Birkhoff-von Neumann)"),
                   "for datasets K, K' of m items each there is a permutation pi with d_EM(K~, K~') = "
                   "(1/m) sum_i d_X(x_i, y_pi(i))", _C, lemma_2_1, randomized=True),
    computed_claim("thm4.1-emd-sensitivity", _source("Theorem 4.1 (and its Remarks)"),
                   "for an ell-Lipschitz f, Delta_EM(q_f) <= ell, i.e. ||q_f(K) - q_f(K')|| <= ell d_EM(K~, K~'); "
                   "the analysis is tight", _C, theorem_4_1),
    computed_claim("lemma4.2-central-linear", _source("Lemma 4.2 (central model)"),
                   "PrivEMDLinear with omega = 1/(alpha n) is (alpha, 0)-bounded central d_EM-DP", _C, lemma_4_2_central),
    computed_claim("alg4-unbiased-estimate", _source("Section 6.2 (Algorithm 4, FreqEstLocal)"),
                   "with E[v] = K~ A and B a right inverse of A, the estimate L~ = v B is unbiased", _C,
                   algorithm_4_unbiased),
    computed_claim("defA.1-hockey-stick-events", _source("Appendix A (Definition A.1)"),
                   "D_e^eps(M(K) || M(K')) <= delta implies Pr[M(K) in O] <= e^eps Pr[M(K') in O] + delta "
                   "(D is the maximum over events of P(O) - e^eps Q(O))", _C, hockey_stick_event_form, randomized=True),
    computed_claim("lemma-a1-coupling-convexity", _source("Lemma A.1"),
                   "for any coupling C of P_X, P_Y and randomized M: D_e^eps(M(X) || M(Y)) <= "
                   "E_(x,y)~C D_e^eps(M(x) || M(y))", _C, lemma_a1, randomized=True),
    computed_claim("section5.1-ceil-bound", _source("Section 5.1 (remark after Fact 5.1)"),
                   "for all d >= r, eps ceil(d/r) <= (2 eps / r) d", _C, ceil_bound),
    computed_claim("section6.1-embedding-lipschitz", _source("Section 6.1 (linear queries on an embedding)"),
                   "the Lipschitz constant of x -> F phi(x) w.r.t. ||phi(x) - phi(x')||_2 is at most ||F||_2, and "
                   "||F||_2 <= sqrt(d) when the rows of F have norm <= 1", _C, linear_embedding_lipschitz,
                   randomized=True),
    computed_claim("thm6.6-norm-bounds", _source("Theorem 6.6 (Appendix D.3)"),
                   "||(A^-1)^T||^2_1->2 - 1 <= (t (e^alpha0 + s)/(e^alpha0 - e^((1-r) alpha0)))^2 and "
                   "||(A^-1 P)^T||^2_1->2 - 1 <= s t^2 (s + 2(e^alpha0 - 1))/Z'^2 for GKRR", _C, theorem_6_6_norm_bounds),
    computed_claim("section3-concrete-alpha", _source("Section 3, concrete example"),
                   "eps = 0.2 for a day's locations within 1000 miles (q = 0.08, tau = 1/30) and for the month within "
                   "100 miles (q = 0.008) give alpha = 25", _C, concrete_alpha),
    computed_claim("section4.1-concrete-noise", _source("Section 4.1, concrete example"),
                   "noise ell/alpha = 0.04 per user, 0.04/sqrt(n) = 1.26e-4 in aggregate, an error of 1.6 miles", _C,
                   concrete_linear_noise),
    computed_claim("section4.2-composition-alpha0", _source("Section 4.2, concrete example"),
                   "composition over m = 1e3 items needs alpha0 = alpha/m = 0.025", _C, concrete_composition_alpha0),
    computed_claim("table2-comparison-conditions", _source("Section 6.2 and Table 2 (comparison)"),
                   "d_EM-DP's frequency-estimation rate beats user-level DP's locally iff alpha > eps sqrt(k) "
                   "(eps < ln(m/delta)/sqrt(k)) or alpha > eps^2 k/ln(m/delta), centrally iff alpha >= eps sqrt(k "
                   "ln(m/delta)) (eps <= sqrt(ln(m/delta)/k)) or alpha >= eps^2 k (Table 2's rates, constant 1)", _C,
                   rate_conditions),
    computed_claim("table2-central-dem-wins", _source("Section 6.2.2 (Corollary 6.8 vs Lemma 6.7)"),
                   "with n <= m/alpha and alpha >= eps sqrt(k ln(m/delta)) (eps <= sqrt(ln(m/delta)/k)), central "
                   "FreqEstLocal with GKRR under (alpha, delta)-d_EM-DP has smaller d_EM error than the Laplace "
                   "histogram under eps-user-level DP", _R, central_comparison_measured, method="statistical"),
)

