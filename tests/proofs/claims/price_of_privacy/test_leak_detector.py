"""The lower bound as a leak detector (000_0c6e7fdc3fd68303.txt, Corollary 21 with Theorem 14; spec section 7,
item 20): MaxSense stays below it, and a learner that sees the clusters (a leak) is caught.

False-failure probability: the Clopper-Pearson bound errs with probability at most 1e-6 (seeded runs)."""

from __future__ import annotations

import pytest
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.price_of_privacy.leak_detector import maxsense_below_the_bound, recovery_below_the_bound


def test_maxsense_stays_below_the_bound():
    verdict, evidence = maxsense_below_the_bound()
    assert verdict is Verdict.CONFIRMED and "0 of 24 runs" in evidence


def test_a_learner_that_reads_the_clusters_is_caught():
    # power: recovering every time is impossible for an eps-LDP learner below the bound; 24 of 24 successes
    # certify a success probability above 1/2, so the check reports the leak
    check = recovery_below_the_bound(lambda model, users, eps, seed: True, N=40, w=2, eps=sympy.Rational(1, 2),
                                     runs=24, seed=0)
    assert not check.consistent and check.recovered == 24 and check.success_upper == 1.0
    # 0 of 24: (1e-6)^(1/24) = 0.5623, so the upper bound is 1 - 0.5623 = 0.4377 < 1/2
    none = recovery_below_the_bound(lambda model, users, eps, seed: False, N=40, w=2, eps="1/2", runs=24, seed=0)
    assert none.consistent and abs(none.success_upper - (1 - 1e-6 ** (1 / 24))) < 1e-9


@pytest.mark.parametrize("kwargs, name", [
    ({"N": 3}, "N"), ({"w": 0}, "w"), ({"runs": 0}, "runs"), ({"seed": -1}, "seed"), ({"eps": 1}, "eps"),
])
def test_bad_input_names_the_parameter(kwargs, name):
    arguments = {"N": 40, "w": 2, "eps": sympy.Rational(1, 2), "runs": 2, "seed": 0, **kwargs}
    with pytest.raises(InvalidParameterError, match=f"^{name} "):
        recovery_below_the_bound(lambda model, users, eps, seed: False, **arguments)
