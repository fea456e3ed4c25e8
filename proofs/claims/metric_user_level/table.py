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
                   lemma_a2),
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
                   "D_a'(P || Q) <= nu D_a(M || (1-beta) N + beta M')", _P, lemma_b4, method="symbolic"),
    computed_claim("lemma-b5-kov-decomposition", _source("Lemma B.5 (Kairouz et al. 2015, Theorem 2.5)"),
                   "pure a-indistinguishable P, Q are P = (a/(a+1)) M + (1/(a+1)) N, Q = (1/(a+1)) M + (a/(a+1)) N "
                   "for distributions M, N (Q's N-coefficient corrected, spec A14)", _P, lemma_b5, method="symbolic"),
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
    computed_claim("corollary6.8-closed-form", _source("Corollary 6.8"),
                   "FreqEstLocal with GKRR at eq. (7)'s alpha0 has max_K E[d_EM] <= 4 sqrt(k^3/(mn)) + 64 sqrt(k^3)/"
                   "(alpha n) sqrt(ln(4m e^alpha/delta)) (checked against Theorem 6.6)", _C, corollary_6_8_closed_form),
    computed_claim("appendix-d3-step", _source("Appendix D.3 (proof of Theorem 6.6)"),
                   "the middle term of the (a')^2 - 1 bound is at most (t (e^alpha0 + s)/D)^2", _R, appendix_d3_step),
)

