"""Claims of 002_1def8c9789d6e1bd.txt (Imola, Roy Chowdhury, Chaudhuri, "Metric Differential Privacy at the
User-Level"): its mechanisms' d_X- and d_EM-DP guarantees, its accounting lemmas, and its errors.

The shuffle-amplification theorems of the paper (Theorem 4.3's reduction to FMT and the eq. (6)/(7) recipes)
are registered with the other shuffle claims in :mod:`dpcert.proofs.claims.shuffle`. Here: GKRR and PrivEMDItemWise
decided exactly; Lemma 4.2's privacy loss over every pair of small datasets; Lemma A.2 and Lemmas B.1/B.3 on
exact instances; the symbolic facts of the proofs; and, refuted with their witnesses, Fact 5.1's and Table 1's
printed delta terms (specs/imola_metric_dp_user_level.md, A1), the concrete example's alpha0 of about 3.0,
Lemma 6.7's Laplace scale (A7), Lemma 6.2's Gaussian width (A4) and one step of Appendix D.3. Theorem 4.3
with several changed items against exact shuffled laws and Lemmas B.4/B.5 are decided in :mod:`.shuffle_checks`;
the Section 6 baselines (Hadamard response, the corrected central Laplace, Duchi et al.'s randomizer) and
Corollary 6.8 in :mod:`.baseline_checks`, and the K-norm mechanism in :mod:`.knorm_checks`; Table 2's comparison,
calibrated and measured, in :mod:`.comparison_checks`; the spec's remaining testable statements of the paper
(Section 2's d_EM facts, Theorem 4.1, Lemma A.1, the hockey-stick event form, the concrete examples) in
:mod:`.spec_checks`.
"""

from dpcert.proofs.claims.metric_user_level.table import CLAIMS

__all__ = ["CLAIMS"]
