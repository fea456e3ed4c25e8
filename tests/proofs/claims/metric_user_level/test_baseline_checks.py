"""The baseline claims' deciders give their verdicts for the stated reasons, and fail on broken inputs.

Paper: 002_1def8c9789d6e1bd.txt, Lemmas 6.1, 6.4, 6.7, Table 2, Corollary 6.8.
"""

from __future__ import annotations

import sympy

from dpcert.accountant.metric_user_level import lemma_6_4_composition, lemma_6_4_per_sample_eps
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.metric_user_level import baseline_checks


def test_table2_label_is_refuted_with_the_pure_eps_of_the_release():
    verdict, evidence = baseline_checks.table2_hadamard_label()
    assert verdict is Verdict.REFUTED and "5.38" in evidence and "3/2" in evidence
    # sqrt(1000 / ln(10^15)) = 5.3808 (eps = 1)
    assert abs(float(1000 * lemma_6_4_per_sample_eps(1, 1000, sympy.Rational(1, 10**12))) - 5.3808) < 1e-4


def test_composition_argument_depends_on_delta():
    assert baseline_checks.lemma_6_4_composition_argument()[0] is Verdict.REFUTED
    assert lemma_6_4_composition(1, 1000, sympy.Rational(1, 10**6)).upper_value < 1


def test_laplace_check_refutes_the_paper_scale(monkeypatch):
    """With the scale 1/(n eps) the same enumeration finds a log ratio of 2 eps."""
    monkeypatch.setattr(baseline_checks.CentralLaplaceHistogram, "scale",
                        lambda self, n: 1 / (n * self.eps))
    verdict, evidence = baseline_checks.laplace_corrected()
    assert verdict is Verdict.REFUTED and evidence.startswith("witness")


def test_duchi_check_refutes_a_randomizer_that_keeps_too_often(monkeypatch):
    monkeypatch.setattr(baseline_checks.DuchiLinearQuery, "keep_probability",
                        property(lambda self: sympy.Rational(9, 10)))
    assert baseline_checks.duchi_density_ratio()[0] is Verdict.REFUTED
