"""StatDP's input patterns (Ding et al., CCS 2018, Section 5.1; DP-Sniper's dpsniper/input/pattern_generator.py) and
the audit that searches them when no pairs are given."""

from __future__ import annotations

import numpy as np
import pytest

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.audit import audit
from dpcert.proofs.audit.patterns import statdp_patterns


def test_the_eight_patterns_of_five_entries():
    """StatDP's list at n = 5, h = 2: one above, one below, one above rest below, one below rest above, half and
    half, all above, all below, the X shape; every pair changes each entry by at most 1."""
    assert statdp_patterns(5) == [
        ((1,) * 5, (0, 1, 1, 1, 1)), ((1,) * 5, (2, 1, 1, 1, 1)), ((1,) * 5, (2, 0, 0, 0, 0)),
        ((1,) * 5, (0, 2, 2, 2, 2)), ((1,) * 5, (2, 2, 0, 0, 0)), ((1,) * 5, (2,) * 5), ((1,) * 5, (0,) * 5),
        ((1, 1, 0, 0, 0), (0, 0, 1, 1, 1))]
    for n in (1, 2, 5, 10):
        for a, b in statdp_patterns(n):
            assert len(a) == len(b) == n and a != b and max(abs(x - y) for x, y in zip(a, b)) == 1
    assert statdp_patterns(1) == [((1,), (0,)), ((1,), (2,))]  # the rest repeat these at n = 1
    assert statdp_patterns(4, componentwise=False) == [((1,) * 4, (0, 1, 1, 1)), ((1,) * 4, (2, 1, 1, 1))]


def _noisy_max_value(x, size, rng):
    """Noisy max returning the value, Lap(2/eps) at eps = 1/10 (Ding et al., Algorithm 7): not private."""
    return (np.asarray(x, dtype=float) + rng.laplace(0.0, 20.0, (size, len(x)))).max(axis=1)


def test_an_audit_without_pairs_searches_the_patterns():
    """The value of noisy max, audited with input_length = 5 and no pairs: the patterns include the base against
    all above by one (the known witness shape), and at 10^6 samples per input the audit finds the violation with
    Bonferroni over all 16 orders (measured 0.175 > 0.1, on the pair (1^5, 2^5))."""
    result = audit(_noisy_max_value, eps="1/10", samples=1_000_000, confidence=1 - 1e-6, seed=4, input_length=5)
    assert result.pairs_tested == 16
    assert result.verdict == "violation" and {result.witness.x, result.witness.x_prime} == {(1,) * 5, (2,) * 5}


@pytest.mark.parametrize(("kwargs", "match"), [
    (dict(input_length=0), "input_length must be an integer in \\[1, 1000\\]"),
    (dict(input_length="2.5"), "input_length"),
    (dict(), "input_length=N"),
])
def test_bad_or_missing_input_length(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        audit(_noisy_max_value, eps=1, samples=100, seed=0, **kwargs)
