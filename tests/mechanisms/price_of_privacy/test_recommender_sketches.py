"""Exact LDP checks of the recommender sketches over all pairs of user data (spec Section 7, claims 1-4).

Every tight ratio is compared with the spec's formula computed here, and with the checker's exact
result: Pairwise-Preference e^eps (w >= 2), MaxSense e^eps iff H != 0, Multi-MaxSense
exp((eps/Q) min(Q', 2w)), variant (ii) infinite with W private and e^eps with W public, and the
membership query of Theorem 10 infinite.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from conftest import exact_eps
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.price_of_privacy import (
    MAX_ENUMERATED_INPUTS,
    PAIR_RULES,
    MaxSenseSketch,
    MembershipQuery,
    MultiMaxSenseSketch,
    PairwisePreferenceSketch,
    RatedPairSketch,
    RatedPairSketchPublicItems,
    enumerate_user_data,
    input_count,
    multimaxsense_tight_epsilon,
    parse_bit_vector,
    parse_item_blocks,
    parse_item_pair,
    parse_membership_set,
)
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.guarantees import PureDP
from dpcert.proofs.registry import check

R = sympy.Rational


def tightest(mechanism) -> sympy.Expr:
    """The checker's exact tightest eps (PROVED at the mechanism's eps, or REFUTED with eps = oo)."""
    claimed = mechanism.eps if mechanism.eps != sympy.oo else 1
    certificate = check(mechanism, PureDP(claimed))
    assert certificate.recheck()
    return certificate.epsilon


def same(a: sympy.Expr, b: sympy.Expr) -> bool:
    return a == b or sympy.simplify(a - b) == 0


# ---------------------------------------------------------------------------------------------
# Claim 1 (Prop. 4) inside the sketches, claim 2: Pairwise-Preference
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rule", PAIR_RULES)
@pytest.mark.parametrize("w", [1, 2, 3])
def test_pairwise_preference_is_eps_ldp_for_every_pair_with_the_tight_ratio(rule, w):
    eps = R(3, 4)
    N = 5
    for pair in itertools.combinations(range(N), 2):
        sketch = PairwisePreferenceSketch(N, w, eps, pair=pair, rule=rule)
        certificate = check(sketch, PureDP(eps))
        assert certificate.verdict is Verdict.PROVED
        # spec M2: equality whenever S0 varies over the inputs, i.e. w >= 2 (always for the literal rule)
        expected = eps if (w >= 2 or rule == "literal") else 0
        assert certificate.epsilon == expected == sketch.tight_epsilon
        if expected:
            assert check(sketch, PureDP(eps - R(1, 1000))).verdict is Verdict.REFUTED


@given(eps=exact_eps())
def test_pairwise_preference_max_ratio_is_exactly_e_to_the_eps(eps):
    sketch = PairwisePreferenceSketch(4, 2, eps, pair=(1, 3))
    assert same(tightest(sketch), sympy.sympify(eps))


def test_pairwise_preference_bit_follows_each_rule():
    # x rates items 0 (rating 1) and 2 (rating 0); items 1, 3 unrated
    x = ((0, 2), (1, 0))
    cases = {  # (pair, rule) -> S0
        ((0, 2), "both-rated-equal"): 0, ((0, 2), "literal"): 0, ((0, 2), "both-positive"): 0,
        ((1, 3), "both-rated-equal"): 0, ((1, 3), "literal"): 1, ((1, 3), "both-positive"): 0,
        ((2, 3), "both-rated-equal"): 0, ((2, 3), "literal"): 1, ((2, 3), "both-positive"): 0,
        ((0, 1), "both-rated-equal"): 0, ((0, 1), "literal"): 0, ((0, 1), "both-positive"): 0,
    }
    for (pair, rule), s0 in cases.items():
        assert PairwisePreferenceSketch(4, 2, 1, pair=pair, rule=rule).preference_bit(x) == s0
    y = ((0, 2), (1, 1))
    for rule in PAIR_RULES:
        assert PairwisePreferenceSketch(4, 2, 1, pair=(0, 2), rule=rule).preference_bit(y) == 1


# ---------------------------------------------------------------------------------------------
# Claim 2, variant (ii): the pair drawn from the rated items
# ---------------------------------------------------------------------------------------------

def _rated_pair_probability(x, output, t: Fraction) -> Fraction:
    """P((i, j, s) | x) recomputed from the definition with Fractions (e^eps = t rational)."""
    items, ratings = x
    i, j, s = output
    if i not in items or j not in items:
        return Fraction(0)
    rating = dict(zip(items, ratings))
    s0 = int(rating[i] == rating[j])
    bit = t / (1 + t) if s == s0 else 1 / (1 + t)
    return bit / math.comb(len(items), 2)


def test_rated_pair_sketch_is_refuted_with_a_witness_that_breaks_the_claim_independently():
    eps = sympy.log(3)  # e^eps = 3
    sketch = RatedPairSketch(5, 3, eps)
    certificate = check(sketch, PureDP(eps))
    assert certificate.verdict is Verdict.REFUTED and certificate.epsilon == sympy.oo
    assert sketch.tight_epsilon == sympy.oo
    witness = certificate.witness
    assert witness is not None and certificate.recheck()
    p = _rated_pair_probability(witness.x, witness.output, Fraction(3))
    q = _rated_pair_probability(witness.x_prime, witness.output, Fraction(3))
    assert (p, q) == (Fraction(str(witness.p)), Fraction(str(witness.p_prime)))
    assert q == 0 < p  # the pair is inside W but outside W': no finite eps
    # refuted at every eps, not only the stated one
    assert check(sketch, PureDP(20)).verdict is Verdict.REFUTED


def test_rated_pair_sketch_pmf_matches_the_definition():
    sketch = RatedPairSketch(4, 3, sympy.log(2))
    for x in sketch.inputs():
        pmf = sketch.pmf(x)
        for y in sketch.outputs():
            assert Fraction(str(pmf.get(y, 0))) == _rated_pair_probability(x, y, Fraction(2))


def test_rated_pair_sketch_with_all_items_rated_is_eps_dp():
    # w = N: W is the same for every user, so only the ratings vary
    assert tightest(RatedPairSketch(3, 3, R(1, 2))) == R(1, 2)


@pytest.mark.parametrize("rule", PAIR_RULES)
@pytest.mark.parametrize("items", [(0, 1), (2, 5, 7), (0, 1, 2, 3)])
def test_rated_pair_sketch_with_public_items_is_eps_dp_and_tight(items, rule):
    eps = sympy.log(R(5, 2))
    sketch = RatedPairSketchPublicItems(eps, items=items, rule=rule)
    assert tightest(sketch) == eps == sketch.tight_epsilon
    assert check(sketch, PureDP(eps - R(1, 100))).verdict is Verdict.REFUTED


# ---------------------------------------------------------------------------------------------
# Claim 3: MaxSense
# ---------------------------------------------------------------------------------------------

@given(sensing=st.lists(st.integers(0, 1), min_size=5, max_size=5), eps=exact_eps())
def test_maxsense_ratio_is_e_to_the_eps_iff_the_sensing_set_is_nonempty(sensing, eps):
    sketch = MaxSenseSketch(5, 2, eps, sensing=tuple(sensing))
    expected = sympy.sympify(eps) if any(sensing) else sympy.Integer(0)
    assert same(tightest(sketch), expected)
    assert same(sketch.tight_epsilon, expected)


def test_maxsense_with_an_empty_sensing_set_has_tightest_eps_zero():
    sketch = MaxSenseSketch(6, 3, 2, sensing=(0,) * 6)
    certificate = check(sketch, PureDP(2))
    assert certificate.verdict is Verdict.PROVED and certificate.epsilon == 0
    pmfs = {tuple(sorted(sketch.pmf(x).items())) for x in sketch.inputs()}
    assert len(pmfs) == 1  # the output law does not depend on the data at all: ratio 1


def test_maxsense_sensed_bit_matches_the_definition():
    sketch = MaxSenseSketch(6, 2, 1, sensing=(0, 1, 0, 1, 0, 0))
    for items, ratings in sketch.inputs():
        expected = int(any(r == 1 and sketch.sensing[i] == 1 for i, r in zip(items, ratings)))
        assert sketch.sensed_bit((items, ratings)) == expected


# ---------------------------------------------------------------------------------------------
# Claim 4: Multi-MaxSense, exp((eps/Q) min(Q', 2w)) for several layouts
# ---------------------------------------------------------------------------------------------

LAYOUTS = [  # (N, w, blocks, Q' = non-empty blocks)
    (5, 1, ((0,), (1,)), 2),                         # Q = Q' = 2 = 2w: e^eps attained
    (5, 1, ((0,), (1,), (2,)), 3),                   # Q' = 3 > 2w = 2: ratio e^(2 eps / 3)
    (6, 1, ((0,), (1,), (2,), (3, 5)), 4),           # 2w = 2 of 4 blocks: e^(eps / 2)
    (5, 2, ((0, 1), (), (2,)), 2),                   # an empty block: Q' = 2 < Q = 3
    (6, 2, ((0,), (1,), (2,), (3,), (4,)), 5),       # Q' = 5 > 2w = 4: e^(4 eps / 5)
    (6, 3, ((0, 1), (2, 3), (4, 5)), 3),             # Q' = 3 <= 2w = 6: e^eps
    (4, 2, ((), ()), 0),                             # nothing sensed: ratio 1
    (6, 2, ((5,), (0, 2, 4)), 2),                    # unequal block sizes
]


@pytest.mark.parametrize("eps", [R(3, 2), sympy.log(3)], ids=["eps=3/2", "eps=log3"])
@pytest.mark.parametrize("N,w,blocks,nonempty", LAYOUTS)
def test_multi_maxsense_tight_ratio_is_eps_over_q_times_min_q_prime_2w(N, w, blocks, nonempty, eps):
    """Stays a test: the exact ratio exp((eps/Q) min(Q', 2w)) is the spec's derivation (M4), not the paper's, which
    claims only eps-LDP (the claims thm16-multi-maxsense-*).
    """
    sketch = MultiMaxSenseSketch(N, w, eps, blocks=blocks)
    Q = len(blocks)
    expected = eps * R(min(nonempty, 2 * w), Q)  # spec M4
    assert sketch.nonempty_blocks == nonempty and sketch.Q == Q
    certificate = check(sketch, PureDP(eps))
    assert certificate.verdict is Verdict.PROVED  # composition: never above e^eps
    assert same(certificate.epsilon, expected)
    assert same(sketch.tight_epsilon, expected)
    assert same(multimaxsense_tight_epsilon(eps, Q, nonempty, w), expected)
    if expected != 0:
        assert check(sketch, PureDP(expected * R(999, 1000))).verdict is Verdict.REFUTED


def test_multi_maxsense_bits_follow_the_blocks():
    sketch = MultiMaxSenseSketch(6, 2, 2, blocks=((0, 1), (2, 3), (4,)))
    assert sketch.sensed_bits(((1, 4), (1, 1))) == (1, 0, 1)
    assert sketch.sensed_bits(((1, 4), (0, 1))) == (0, 0, 1)
    assert sketch.sensed_bits(((2, 5), (1, 1))) == (0, 1, 0)  # item 5 is in no block


# ---------------------------------------------------------------------------------------------
# Theorem 10's membership query: not private
# ---------------------------------------------------------------------------------------------

def test_membership_query_has_no_finite_eps():
    query = MembershipQuery(4, A=((0, 1), (2, 0), (3, 1)))
    certificate = check(query, PureDP(5))
    assert certificate.verdict is Verdict.REFUTED and certificate.epsilon == sympy.oo == query.tight_epsilon
    w = certificate.witness
    assert certificate.recheck()
    # recompute independently: the answer is 1_A(I, Z) with probability 1
    def answer(x):
        return int((x[0][0], x[1][0]) in {(0, 1), (2, 0), (3, 1)})

    assert (int(answer(w.x) == w.output), int(answer(w.x_prime) == w.output)) == (1, 0)
    assert (w.p, w.p_prime) == (1, 0)


@pytest.mark.parametrize("A", [(), tuple((i, z) for i in range(3) for z in (0, 1))], ids=["empty", "everything"])
def test_membership_query_with_a_trivial_set_is_constant(A):
    query = MembershipQuery(3, A=A)
    assert tightest(query) == 0 == query.tight_epsilon


# ---------------------------------------------------------------------------------------------
# The mechanism contract for every sketch
# ---------------------------------------------------------------------------------------------

SKETCHES = [
    PairwisePreferenceSketch(4, 2, R(1, 2), pair=(0, 3)),
    PairwisePreferenceSketch(4, 1, 1, pair=(1, 2), rule="literal"),
    RatedPairSketch(4, 2, sympy.log(2)),
    RatedPairSketchPublicItems(1, items=(1, 4, 6)),
    MaxSenseSketch(4, 2, sympy.log(3), sensing=(1, 0, 0, 1)),
    MultiMaxSenseSketch(5, 2, 2, blocks=((0,), (2, 3))),
    MembershipQuery(3, A=((1, 1),)),
]


@pytest.fixture(params=SKETCHES, ids=[s.describe() for s in SKETCHES])
def sketch(request):
    return request.param


def test_pmf_sums_exactly_to_one_with_exact_nonnegative_probabilities(sketch):
    outputs = set(sketch.outputs())
    for x in sketch.inputs():
        pmf = sketch.pmf(x)
        assert set(pmf) <= outputs
        total = sympy.Add(*pmf.values())
        assert total == 1 or sympy.simplify(total - 1) == 0
        assert all(not p.has(sympy.Float) and (p.is_nonnegative or sympy.N(p, 40) >= 0) for p in pmf.values())


def test_sample_shape_dtype_support_and_reproducibility(sketch):
    outputs = set(sketch.outputs())
    for x in sketch.inputs()[:6]:
        draws = sketch.sample(x, 200, np.random.default_rng(3))
        assert isinstance(draws, np.ndarray) and draws.dtype.kind in "iu" and draws.shape[0] == 200
        values = {tuple(int(v) for v in row) for row in draws} if draws.ndim == 2 else {int(v) for v in draws}
        assert values <= outputs
        assert np.array_equal(draws, sketch.sample(x, 200, np.random.default_rng(3)))
        assert sketch.sample(x, 0, np.random.default_rng(3)).shape[0] == 0


def test_rebuilds_from_parameters_is_frozen_and_uses_all_pairs(sketch):
    assert type(sketch)(**sketch.parameters()) == sketch
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(sketch, dataclasses.fields(sketch)[0].name, 1)
    assert "local DP" in sketch.neighbours.description
    inputs = sketch.inputs()
    assert len(set(inputs)) == len(inputs) >= 2


def test_rejects_inputs_that_are_not_user_data(sketch):
    bad_inputs = ["x", ((0,), (1,), (0,)), ((9, 9), (1, 1)), ((1, 0), (1, 1)), ((0, 1), (2, 0)), tuple(range(8))]
    for bad in bad_inputs:
        with pytest.raises(InvalidParameterError):
            sketch.pmf(bad)
        with pytest.raises(InvalidParameterError):
            sketch.sample(bad, 3, np.random.default_rng(0))


def test_input_space_is_every_w_subset_with_every_rating_vector():
    inputs = list(enumerate_user_data(5, 2))
    assert len(inputs) == len(set(inputs)) == input_count(5, 2) == math.comb(5, 2) * 4
    assert all(list(items) == sorted(set(items)) for items, _ in inputs)


def test_enumeration_is_bounded_with_a_clear_error_but_pmf_and_sample_work_at_any_size():
    big = MaxSenseSketch(40, 5, 1, sensing=(1,) + (0,) * 39)
    with pytest.raises(InvalidParameterError, match=rf"C\(N, w\) \* 2\^w <= {MAX_ENUMERATED_INPUTS}"):
        big.inputs()
    x = ((0, 7, 9, 20, 39), (1, 0, 0, 1, 1))
    assert big.pmf(x)[1] == sympy.exp(1) / (1 + sympy.exp(1))
    assert big.sample(x, 10, np.random.default_rng(1)).shape == (10,)
    with pytest.raises(InvalidParameterError, match="at most 12"):
        MultiMaxSenseSketch(20, 1, 1, blocks=tuple((i,) for i in range(13))).outputs()


# ---------------------------------------------------------------------------------------------
# Validation: one table of invalid arguments, each error naming the parameter
# ---------------------------------------------------------------------------------------------

INVALID = [
    (PairwisePreferenceSketch, dict(N=1, w=1, eps=1), "N must be an integer in [2, 10^12]"),
    (PairwisePreferenceSketch, dict(N=4, w=5, eps=1), "w must be an integer in [1, N = 4]"),
    (PairwisePreferenceSketch, dict(N=4, w=2, eps=0), "eps must be > 0"),
    (PairwisePreferenceSketch, dict(N=4, w=2, eps=1, pair=(1, 1)), "pair must be two different items"),
    (PairwisePreferenceSketch, dict(N=4, w=2, eps=1, pair=(0, 4)), "pair must hold items in [0, 3]"),
    (PairwisePreferenceSketch, dict(N=4, w=2, eps=1, rule="equal"), "rule must be one of"),
    (RatedPairSketch, dict(N=4, w=1, eps=1), "w must be an integer in [2, N = 4]"),
    (RatedPairSketchPublicItems, dict(eps=1, items=(3,)), "items must be at least 2 distinct"),
    (RatedPairSketchPublicItems, dict(eps=1, items=(3, 3)), "items must be at least 2 distinct"),
    (RatedPairSketchPublicItems, dict(eps=1, items=(-1, 2)), "items must be integers >= 0"),
    (MaxSenseSketch, dict(N=4, w=2, eps=1, sensing=(1, 0, 1)), "sensing must be a 0/1 vector of length N = 4"),
    (MaxSenseSketch, dict(N=4, w=2, eps=1, sensing=(1, 0, 2, 0)), "sensing must be a 0/1 vector"),
    (MaxSenseSketch, dict(N=4, w=2, eps=-1, sensing=(1, 0, 1, 0)), "eps must be > 0"),
    (MultiMaxSenseSketch, dict(N=4, w=2, eps=1, blocks=()), "blocks must be a non-empty sequence"),
    (MultiMaxSenseSketch, dict(N=4, w=2, eps=1, blocks=((0, 1), (1, 2))), "blocks must be disjoint"),
    (MultiMaxSenseSketch, dict(N=4, w=2, eps=1, blocks=((0, 4),)), "blocks[0] must hold items in [0, 3]"),
    (MembershipQuery, dict(N=3, A=((3, 0),)), "A must hold pairs"),
    (MembershipQuery, dict(N=3, A=((1, 2),)), "A must hold pairs"),
    (MembershipQuery, dict(N=0, A=()), "N must be an integer in [1, 10^12]"),
]


@pytest.mark.parametrize("factory,kwargs,message", INVALID, ids=[f"{f.__name__}-{m[:25]}" for f, _, m in INVALID])
def test_invalid_arguments_raise_naming_the_parameter(factory, kwargs, message):
    with pytest.raises(InvalidParameterError) as error:
        factory(**kwargs)
    assert message in str(error.value)


def test_public_queries_parse_from_command_line_strings():
    assert parse_bit_vector("0110") == parse_bit_vector("0,1,1,0") == parse_bit_vector("[0, 1, 1, 0]") == (0, 1, 1, 0)
    assert parse_item_pair("2,5") == parse_item_pair("[2, 5]") == (2, 5)
    assert parse_item_blocks("[[0, 1], [2], []]") == parse_item_blocks("0 1|2|") == ((0, 1), (2,), ())
    assert parse_membership_set("[[0, 1], [3, 0]]") == ((0, 1), (3, 0))
    assert MaxSenseSketch(4, 1, "log(2)", sensing="1001").sensing == (1, 0, 0, 1)
    assert MultiMaxSenseSketch(4, 1, "1", blocks="0 1|3").blocks == ((0, 1), (3,))
    assert PairwisePreferenceSketch(4, 2, "1/2", pair="3,1").pair == (1, 3)
    assert MembershipQuery(3, A="[[2, 1]]").A == ((2, 1),)
    for bad, parser in [("01x0", parse_bit_vector), ("1", parse_item_pair), ("a|b", parse_item_blocks),
                        ("[1, 2]", parse_membership_set)]:
        with pytest.raises(InvalidParameterError):
            parser(bad)
