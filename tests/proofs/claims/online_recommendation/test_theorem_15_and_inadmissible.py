"""The deciders of thm15-adversary-forces-leakage and prec-inadmissible-pairs (001_8845c8f909738498.txt,
Theorem 15 and Definition 2 / Theorem 11; spec A9): their verdicts, and power checks showing the comparisons
they rest on fail on deliberately broken variants.
"""

from __future__ import annotations

import sympy

from dpcert.mechanisms.online_recommendation import Instance, PRECParameters, PRECSim, PRECTranscript, per_round_leakage
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.online_recommendation.deciders import inadmissible_pairs, theorem_15_adversary
from dpcert.proofs.exact import tightest_epsilon


def test_theorem_15_adversary_confirmed_with_its_numbers():
    verdict, evidence = theorem_15_adversary()
    assert verdict is Verdict.CONFIRMED
    assert "T = 128" in evidence and "Theorem 17's" in evidence and "gamma = 1/2" in evidence


def test_inadmissible_pairs_confirmed():
    verdict, evidence = inadmissible_pairs()
    assert verdict is Verdict.CONFIRMED and "P=1)" in evidence


def test_inadmissible_comparison_has_power():
    """With gamma = 10^-40 (not the paper's) a 2-peer pair leaks more than 18 m^2 ln(T)/P: on U' = {a peer on 0,
    three dissenters on 1} object 0 sits at x = 1/4 = rho (probability gamma/2), and the extra voter on 0 lifts
    it above rho. One round then leaks more than 3 lambda/W at W = 5 < 6m. The paper's gamma stays below both."""
    instance = Instance(2, [{0}] * 3, [[0, 0, 0]] + [[1, 1, 1]] * 3 + [[0, 0, 0]])
    tiny = sympy.Rational(1, 10**40)
    broken = PRECTranscript.adjacent_pair(PRECSim(2, 3, gamma=tiny), instance, range(4), 4)
    assert broken.min_peers() == 2
    assert exact_sign(tightest_epsilon(broken).epsilon - 18 * 4 * sympy.log(3) / 2) > 0
    assert per_round_leakage(PRECParameters(2, 3, gamma=tiny), 5).lemma_12_ratio > 1
    paper = PRECTranscript.adjacent_pair(PRECSim(2, 3), instance, range(4), 4)
    assert exact_sign(18 * 4 * sympy.log(3) / 2 - tightest_epsilon(paper).epsilon) > 0
    assert per_round_leakage(PRECParameters(2, 3), 5).lemma_12_ratio < 1
