"""The exact joint law of one user's Multi-MaxSense bits (dpcert.mechanisms.price_of_privacy.sketch_dependence).

Oracles: brute-force enumeration of every w-subset and rating pattern (tiny N), the independent-inclusion
product form, and a Monte Carlo run of the simulator's own block bits (``block_sensed_bits``) with a
stated false-failure probability and a power check. Reference: 000_0c6e7fdc3fd68303.txt, Fig. 3
(Multi-MaxSense); spec section 9, E12.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.price_of_privacy.blockmodel import BlockModel
from dpcert.mechanisms.price_of_privacy.multi_maxsense import block_sensed_bits
from dpcert.mechanisms.price_of_privacy.sketch_dependence import (
    SketchLaw,
    multi_maxsense_sketch_law,
    sketch_dependence,
)


def _brute_force_law(like, blocks, w, t):
    """Sum over every w-subset W and every rating pattern of W; each bit kept with probability t/(1+t)."""
    N = len(like)
    subsets = list(itertools.combinations(range(N), w))
    law = {s: Fraction(0) for s in itertools.product((0, 1), repeat=len(blocks))}
    for W in subsets:
        for ratings in itertools.product((0, 1), repeat=w):
            weight = Fraction(1, len(subsets))
            for item, r in zip(W, ratings):
                weight *= like[item] if r else 1 - like[item]
            if weight == 0:
                continue
            positive = {item for item, r in zip(W, ratings) if r}
            s0 = tuple(int(bool(positive.intersection(block))) for block in blocks)
            for s in law:
                factor = Fraction(1)
                for a, b in zip(s, s0):
                    factor *= Fraction(t, 1 + t) if a == b else Fraction(1, 1 + t)
                law[s] += weight * factor
    return law


@pytest.mark.parametrize("like, blocks, w, t", [
    ((1, 1, 0, 0, 1, 1, 0, 0), ((0, 1, 2, 3), (4, 5, 6, 7)), 2, 2),
    ((Fraction(1, 3), Fraction(4, 5), 1, 0, Fraction(1, 2), 1), ((0, 1), (2, 3), (4, 5)), 3, 3),
    ((1, 0, 1, 1, 0), ((0,), (2, 4)), 2, 5),
    ((Fraction(2, 7),) * 5, ((0, 1, 2, 3, 4),), 4, 2),
])
def test_law_matches_brute_force(like, blocks, w, t):
    Q = len(blocks)
    law = multi_maxsense_sketch_law(like, blocks, w, Q * sympy.log(t))
    expected = _brute_force_law([Fraction(v) for v in like], blocks, w, t)
    assert {s: sympy.Rational(p.numerator, p.denominator) for s, p in expected.items()} == dict(law.joint)
    assert sum(law.joint.values()) == 1
    for q in range(Q):
        assert law.marginals[q] == sum(p for s, p in law.joint.items() if s[q] == 1)


def test_independent_inclusion_gives_independent_bits():
    """Under independent inclusion the miss probabilities factorise over disjoint blocks: TV = MI = 0 exactly."""
    like = (1, Fraction(1, 2), 0, 1, Fraction(3, 4), 1)
    law = multi_maxsense_sketch_law(like, ((0, 1), (2, 3), (4, 5)), 2, sympy.log(8), sampling="independent")
    tv, information = sketch_dependence(law)
    assert tv == 0 and sympy.simplify(information) == 0
    # and the product form itself: P(S0_1 = 0) = (1 - (w/N) like_0)(1 - (w/N) like_1) = (2/3)(5/6)
    one_block = multi_maxsense_sketch_law(like, ((0, 1),), 2, sympy.log(3) * 1, sampling="independent")
    miss = Fraction(2, 3) * Fraction(5, 6)
    assert one_block.marginals[0] == sympy.Rational(3, 4) * (1 - miss) + sympy.Rational(1, 4) * miss


def test_subset_sampling_witness_values():
    """Spec E12 witness, by hand: N = 8, w = 2, liked items {0, 1, 4, 5}, blocks {0..3}, {4..7}.

    A block misses every liked item iff both rated items avoid its 2 liked items: P = C(6, 2)/C(8, 2) = 15/28;
    both blocks miss iff both rated items are among the 4 disliked: C(4, 2)/C(8, 2) = 6/28 != (15/28)^2.
    """
    law = multi_maxsense_sketch_law((1, 1, 0, 0, 1, 1, 0, 0), ((0, 1, 2, 3), (4, 5, 6, 7)), 2, 2 * sympy.log(2))
    miss_one, miss_both = Fraction(15, 28), Fraction(6, 28)
    s0 = {(0, 0): miss_both, (0, 1): miss_one - miss_both, (1, 0): miss_one - miss_both,
          (1, 1): 1 - 2 * miss_one + miss_both}
    keep, flip = Fraction(2, 3), Fraction(1, 3)
    expected = {s: sum(p * (keep if s[0] == a[0] else flip) * (keep if s[1] == a[1] else flip) for a, p in s0.items())
                for s in s0}
    assert dict(law.joint) == {s: sympy.Rational(v.numerator, v.denominator) for s, v in expected.items()}
    tv, information = sketch_dependence(law)
    assert tv == sympy.Rational(19, 1176) and float(information) > 0


@pytest.mark.statistical
def test_simulator_bits_follow_the_exact_joint_law():
    """Monte Carlo of the simulator's block bits plus the bit release against the exact law (and power check).

    n = 400000 users of the lower-bound instance with fixed item clusters and blocks. For each of the 4
    outcomes, Hoeffding gives |freq - p| <= r = sqrt(ln(2 * 4 / 1e-6) / (2n)) = 0.0063 with probability
    >= 1 - 1e-6 overall (union bound), so the test fails falsely with probability <= 1e-6. Power: the product
    of the marginals (what independence would predict) is off by 0.0081 on P(0, 0) > r, so it must fail.
    """
    n = 400_000
    rng = np.random.default_rng(12)
    model = BlockModel.lower_bound_instance(8, 2, sampling="subset")
    clusters = np.array([1, 1, 0, 0, 1, 1, 0, 0], dtype=np.int32)
    ratings = model.rate(np.zeros(n, dtype=np.int32), clusters, rng)
    blocks = np.tile(np.arange(8), (n, 1))
    s0 = block_sensed_bits(ratings, blocks, 2, 4, 8)
    released = np.where(rng.random(s0.shape) < 2 / 3, s0, ~s0)
    law = multi_maxsense_sketch_law((1, 1, 0, 0, 1, 1, 0, 0), ((0, 1, 2, 3), (4, 5, 6, 7)), 2, 2 * sympy.log(2))
    radius = math.sqrt(math.log(2 * 4 / 1e-6) / (2 * n))
    frequency = {s: float(np.mean((released[:, 0] == s[0]) & (released[:, 1] == s[1]))) for s in law.joint}
    assert all(abs(frequency[s] - float(p)) <= radius for s, p in law.joint.items())
    product = law.product()
    assert any(abs(frequency[s] - float(p)) > radius for s, p in product.items())


@pytest.mark.parametrize("call, message", [
    (lambda: multi_maxsense_sketch_law((1, 0), ((0,), (0,)), 1, 1), "^blocks must be disjoint"),
    (lambda: multi_maxsense_sketch_law((1, 0), ((0,), (2,)), 1, 1), r"^blocks\[1\] item"),
    (lambda: multi_maxsense_sketch_law((1, 0), (), 1, 1), "^blocks must be a sequence"),
    (lambda: multi_maxsense_sketch_law((1, 0), ((0,), ()), 1, 1), r"^blocks\[1\] must be a non-empty"),
    (lambda: multi_maxsense_sketch_law((1, 2), ((0,),), 1, 1), r"^like\[1\] must be in \[0, 1\]"),
    (lambda: multi_maxsense_sketch_law((1, 0), ((0,),), 3, 1), "^w must be"),
    (lambda: multi_maxsense_sketch_law((1, 0), ((0,),), 1, 0), "^eps"),
    (lambda: multi_maxsense_sketch_law((1, 0), ((0,),), 1, 1, sampling="poisson"), "^sampling must be one of"),
    (lambda: multi_maxsense_sketch_law("10", ((0,),), 1, 1), "^like must be a sequence"),
    (lambda: sketch_dependence({(0,): 1}), "^law must be a SketchLaw"),
])
def test_invalid_arguments(call, message):
    with pytest.raises(InvalidParameterError, match=message):
        call()


def test_sketch_law_is_frozen():
    law = SketchLaw({(0,): sympy.Integer(1), (1,): sympy.Integer(0)}, (sympy.Integer(0),))
    with pytest.raises(AttributeError):
        law.marginals = ()
