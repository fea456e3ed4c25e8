"""The blockmodel generator, the exact analysis formulas and the algorithms' building blocks (deterministic)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.price_of_privacy import (
    BlockModel,
    MaxSenseSketch,
    MultiMaxSenseSketch,
    PairwisePreferenceSketch,
    bernoulli_positions,
    cluster_sizes,
    coupon_collector_mean_users,
    distinct_uniform_items,
    eps_hat,
    item_error_rate,
    kmeans_1d,
    maxsense_delta,
    maxsense_delta_min,
    maxsense_expected_scores,
    maxsense_q0,
    maxsense_score_gap,
    membership_scheme_mean_users,
    multimaxsense_queries,
    multimaxsense_rate_factor,
    pairwise_pair_probability,
    simulate_maxsense,
    simulate_multi_maxsense,
    simulate_pairwise_preference,
)
from dpcert.mechanisms.price_of_privacy.blockmodel import UserRatings
from dpcert.mechanisms.price_of_privacy.maxsense import maxsense_bits, sensed_rated_items
from dpcert.mechanisms.price_of_privacy.multi_maxsense import block_sensed_bits
from dpcert.mechanisms.price_of_privacy.pairwise_preference import pair_bits

R = sympy.Rational
HALF = R(1, 2)


# ---------------------------------------------------------------------------------------------
# Blockmodel
# ---------------------------------------------------------------------------------------------

def test_subset_sample_has_w_distinct_items_per_user_and_no_dense_matrix():
    model = BlockModel(50, 7, (R(1, 3), R(2, 3)), (R(1, 5), R(4, 5)), ((0, 1), (R(1, 2), R(1, 4))))
    sample = model.sample(3000, 11)
    items = sample.ratings.items
    assert items.shape == (3000, 7) and items.dtype == np.int32 and sample.ratings.ratings.dtype == bool
    ordered = np.sort(items, axis=1)
    assert (ordered[:, 1:] > ordered[:, :-1]).all() and items.min() >= 0 and items.max() < 50
    assert np.bincount(sample.item_clusters).tolist() == [10, 40]  # beta N exactly
    assert np.bincount(sample.user_classes).tolist() == [1000, 2000]  # alpha U exactly
    # ratings follow b: class-0 users never like cluster-0 items and always like cluster-1 items
    cls0 = sample.user_classes == 0
    liked = sample.ratings.ratings[cls0]
    item_cluster = sample.item_clusters[items[cls0]]
    assert not liked[item_cluster == 0].any() and liked[item_cluster == 1].all()


def test_independent_inclusion_has_binomial_counts_with_padding():
    model = BlockModel(30, 3, (1,), (1,), ((1,),), sampling="independent")
    sample = model.sample(2000, 5)
    r = sample.ratings
    assert r.items.shape[1] == r.counts.max()
    assert np.array_equal((r.items >= 0).sum(axis=1), r.counts)
    assert not r.ratings[~r.valid].any() and r.ratings[r.valid].all()
    assert abs(r.counts.mean() - 3) < 0.3  # Binomial(30, 1/10): sd of the mean 0.037


def test_lower_bound_instance_rates_every_item_by_its_cluster_bit():
    model = BlockModel.lower_bound_instance(20, 4)
    assert (model.K, model.L, model.assignment) == (1, 2, "iid")
    sample = model.sample(500, 2)
    assert np.array_equal(sample.ratings.ratings, sample.item_clusters[sample.ratings.items] == 1)


def test_samples_are_reproducible_from_the_seed():
    model = BlockModel.lower_bound_instance(40, 5)
    a, b = model.sample(100, 9), model.sample(100, 9)
    assert np.array_equal(a.ratings.items, b.ratings.items) and np.array_equal(a.item_clusters, b.item_clusters)


def test_distinct_uniform_items_is_distinct_for_every_regime():
    rng = np.random.default_rng(4)
    for N, counts in [(10, np.full(500, 3)), (10, np.full(500, 8)), (100, rng.integers(0, 40, 300)),
                      (1000, rng.integers(0, 40, 300)), (1000, np.full(300, 125))]:  # dense and sparse paths
        rows = distinct_uniform_items(counts, N, rng)
        for row, c in zip(rows, counts):
            valid = row[:c]
            assert len(set(valid.tolist())) == c and (row[c:] == -1).all() and valid.min(initial=0) >= 0


def test_bernoulli_positions_are_sorted_sets_padded_with_n():
    rows = bernoulli_positions(300, 25, 0.3, np.random.default_rng(2))
    for row in rows:
        members = row[row < 25]
        assert (np.diff(members) > 0).all() and (row[len(members):] == 25).all()
    assert (bernoulli_positions(3, 5, 1.0, np.random.default_rng(0)) == np.arange(5)).all()
    # a tiny width forces the extension loop: still exact sets
    assert bernoulli_positions(50, 400, 0.5, np.random.default_rng(1)).shape[0] == 50


def test_cluster_sizes_use_largest_remainders():
    assert cluster_sizes((R(1, 3), R(1, 3), R(1, 3)), 10).tolist() == [4, 3, 3]
    assert cluster_sizes((HALF, HALF), 7).tolist() == [4, 3]


BAD_MODELS = [
    (dict(N=1, w=1, alpha=(1,), beta=(1,), b=((1,),)), "N must be an integer in [2, 1073741824]"),
    (dict(N=2**30 + 1, w=1, alpha=(1,), beta=(1,), b=((1,),)), "N must be an integer in [2, 1073741824]"),  # int32
    (dict(N=5, w=6, alpha=(1,), beta=(1,), b=((1,),)), "w must be an integer in [1, N = 5]"),
    (dict(N=5, w=2, alpha=(HALF,), beta=(1,), b=((1,),)), "alpha must sum to 1"),
    (dict(N=5, w=2, alpha=(1,), beta=(HALF, R(3, 5)), b=((1, 1),)), "beta must sum to 1"),
    (dict(N=5, w=2, alpha=(1,), beta=(1,), b=((2,),)), "b[0][0] must be in [0, 1]"),
    (dict(N=5, w=2, alpha=(1,), beta=(HALF, HALF), b=((1,),)), "b[0] must have L = 2 entries"),
    (dict(N=5, w=2, alpha=(HALF, HALF), beta=(1,), b=((1,),)), "b must be a K x L matrix"),
    (dict(N=5, w=2, alpha=(1,), beta=(1,), b=((1,),), sampling="bernoulli"), "sampling must be one of"),
    (dict(N=5, w=2, alpha=(1,), beta=(1,), b=((1,),), assignment="random"), "assignment must be one of"),
]


@pytest.mark.parametrize("kwargs,message", BAD_MODELS, ids=[m for _, m in BAD_MODELS])
def test_invalid_blockmodels_raise_naming_the_parameter(kwargs, message):
    with pytest.raises(InvalidParameterError) as error:
        BlockModel(**kwargs)
    assert message in str(error.value)


# ---------------------------------------------------------------------------------------------
# Exact analysis formulas (spec Section 5 identities, claims 18, 21, E3)
# ---------------------------------------------------------------------------------------------

def test_eps_hat_identities():
    # spec Section 5, item 2, at exact sample values of eps
    for value in (R(1, 3), 1, sympy.log(3)):
        e = eps_hat(value)
        t = sympy.exp(value)
        assert sympy.simplify((e - 2 * sympy.tanh(sympy.sympify(value) / 2)).rewrite(sympy.exp)) == 0
        assert sympy.simplify(1 / (1 + t) - (HALF - e / 4)) == 0
        assert sympy.simplify(t / (1 + t) - (HALF + e / 4)) == 0
    assert eps_hat(sympy.log(3)) == 1  # eps_hat < 1 iff eps < ln 3 (spec Section 5, item 5)


MODEL = dict(alpha=(R(1, 3), R(2, 3)), beta=(R(1, 4), R(3, 4)), b=((R(1, 10), R(9, 10)), (R(3, 5), R(1, 5))))


def test_maxsense_q0_is_the_product_over_items():
    q0 = maxsense_q0(MODEL["alpha"], MODEL["beta"], MODEL["b"], 8, R(3, 2))
    for qk, row in zip(q0, MODEL["b"]):
        direct = Fraction(1)
        for l, n_l in enumerate([2, 6]):  # beta_l N items of cluster l
            for _ in range(n_l):
                direct *= 1 - Fraction(3, 2) * Fraction(str(row[l])) / 8
        assert Fraction(str(qk)) == direct


def test_maxsense_score_gap_is_exactly_the_difference_of_expected_scores():
    """Stays a test: the exact gap U eps_hat theta (1 - theta/w) delta_lm/(2N) is the spec's corrected identity
    between two of this package's closed forms; the paper's printed gap is the claim thm15-score-gap-constant.
    """
    # claim 18: |Bbar_l - Bbar_m| = U eps_hat theta (1 - theta/w) delta_lm / (2N), exactly
    N, w, theta, eps, U = 40, 5, R(3, 2), sympy.log(2), 12345
    scores = maxsense_expected_scores(MODEL["alpha"], MODEL["beta"], MODEL["b"], N, w, theta, eps, U)
    delta = maxsense_delta(MODEL["alpha"], MODEL["beta"], MODEL["b"], N, theta)
    gap = maxsense_score_gap(N, w, theta, eps, U, delta[0][1])
    assert sympy.simplify(sympy.Abs(scores[0] - scores[1]) - gap) == 0
    assert all(float(s) <= U * float(theta) / w for s in scores)  # Bbar_l <= U p


def test_maxsense_delta_tends_to_delta_min():
    """Stays a test: it checks the closed forms maxsense_delta and maxsense_delta_min against each other; the paper
    only defines delta_min as this limit.
    """
    alpha, beta, b, theta = MODEL["alpha"], MODEL["beta"], MODEL["b"], R(1, 2)
    limit = float(maxsense_delta_min(alpha, beta, b, theta))
    gaps = [abs(float(maxsense_delta(alpha, beta, b, N, theta)[0][1]) - limit) for N in (8, 80, 800, 8000)]
    assert all(g2 < g1 for g1, g2 in zip(gaps, gaps[1:])) and gaps[-1] < 1e-3
    # lower-bound instance: delta_min = e^(-theta/2) (spec Section 6)
    assert maxsense_delta_min((1,), (HALF, HALF), ((0, 1),), 1) == sympy.exp(-HALF)


def test_pairwise_pair_probabilities_sum_to_the_bit_law():
    # Appendix B: b'_ij + bbar'_ij = 1, i.e. summing P[S=1, P={i,j}] and P[S=0, P={i,j}] gives P(P={i,j})
    N, w, eps = 9, 4, sympy.log(3)
    t = sympy.exp(eps)
    for l, m in [(0, 0), (0, 1), (1, 1)]:
        p1 = pairwise_pair_probability(MODEL["alpha"], MODEL["b"], l, m, N, w, eps)
        b_lm = sum(a * (row[l] * row[m] + (1 - row[l]) * (1 - row[m])) for a, row in zip(MODEL["alpha"], MODEL["b"]))
        both = R(w * (w - 1), N * (N - 1))
        bbar_lm = 1 - b_lm
        p0 = R(2, N * (N - 1)) * (t / (t + 1) + (t - 1) / (t + 1) * both * (bbar_lm - 1))  # Appendix B's bbar'
        assert sympy.simplify(p1 + p0 - R(2, N * (N - 1))) == 0
        ordered = pairwise_pair_probability(MODEL["alpha"], MODEL["b"], l, m, N, w, eps, ordered=True)
        assert sympy.simplify(p1 - 2 * ordered) == 0


def test_pairwise_literal_rule_probability_matches_enumeration():
    # P(S0 = 1 | P = {i,j}) under rule (b), by enumerating every w-subset and rating vector (K = 1)
    N, w, b_i, b_j = 5, 2, R(1, 3), R(3, 4)
    eps = sympy.log(2)
    total = R(0)
    for items in itertools.combinations(range(N), w):
        for ratings in itertools.product((0, 1), repeat=w):
            rating = dict(zip(items, ratings))
            weight = R(1, math.comb(N, w))
            for item, r in rating.items():
                p = b_i if item == 0 else b_j if item == 1 else HALF
                weight *= p if r else 1 - p
            s0 = PairwisePreferenceSketch(N, w, eps, pair=(0, 1), rule="literal").preference_bit((items, ratings))
            total += weight * s0
    t = sympy.exp(eps)
    expected = R(2, N * (N - 1)) * (1 / (t + 1) + (t - 1) / (t + 1) * total)
    formula = pairwise_pair_probability((1,), ((b_i, b_j),), 0, 1, N, w, eps, rule="literal")
    assert sympy.simplify(formula - expected) == 0


def test_multimaxsense_rate_factor_and_the_e3_correction():
    """Stays a test of the closed forms multimaxsense_queries and multimaxsense_rate_factor; the paper's statements
    are the claims thm16-eps-hat-bound and thm16-rate-one-over-eps.
    """
    assert multimaxsense_queries(R(101, 100)) == 2 and multimaxsense_queries(R(1, 2)) == 1
    # E3: the printed bound eps_hat(eps/Q) >= 2(e-1)/(e+2) fails at eps = 1.01
    printed = 2 * (sympy.E - 1) / (sympy.E + 2)
    assert float(eps_hat(R(101, 200))) < float(printed)
    # the corrected bound: eps_hat(eps/ceil(eps)) > 2 tanh(1/4) for eps >= 1, so factor >= eps (2 tanh(1/4))^2
    floor = 2 * math.tanh(0.25)
    for eps in [1, R(101, 100), R(3, 2), 2, R(7, 2), 10, R(41, 4)]:
        Q = multimaxsense_queries(eps)
        assert float(eps_hat(sympy.sympify(eps) / Q)) > floor
        assert float(multimaxsense_rate_factor(eps)) >= float(eps) * floor**2


def test_one_bit_expected_users():
    assert membership_scheme_mean_users(30) == 1800
    assert coupon_collector_mean_users(3) == Fraction(11, 2)
    assert coupon_collector_mean_users(3, q=R(1, 2)) == 11


@pytest.mark.parametrize("call,message", [
    (lambda: maxsense_expected_scores((1,), (1,), ((1,),), 10, 2, 3, 1, 5), "theta must be in (0, w]"),
    (lambda: maxsense_expected_scores((1,), (1,), ((1,),), 10, 2, 1, 0, 5), "eps must be > 0"),
    (lambda: maxsense_delta_min((1,), (1,), ((1,),), 1), "at least 2 item clusters"),
    (lambda: pairwise_pair_probability((1,), ((1, 0),), 0, 2, 10, 2, 1), "m must be an integer in [0, 1]"),
    (lambda: pairwise_pair_probability((1,), ((1, 0),), 0, 1, 10, 2, 1, sampling="x"), "sampling must be one of"),
    (lambda: maxsense_q0((HALF, HALF), (1,), ((1,),), 10, 1), "b must be a K x L matrix"),
])
def test_invalid_analysis_arguments(call, message):
    with pytest.raises(InvalidParameterError) as error:
        call()
    assert message in str(error.value)


# ---------------------------------------------------------------------------------------------
# Vectorised sketch code agrees with the finite mechanisms, user by user
# ---------------------------------------------------------------------------------------------

def _batch(inputs) -> UserRatings:
    items = np.array([x[0] for x in inputs], dtype=np.int32)
    ratings = np.array([x[1] for x in inputs], dtype=bool)
    return UserRatings(items, ratings, np.full(len(inputs), items.shape[1]))


def test_vectorised_pair_bits_equal_the_sketch_for_every_input_pair_and_rule():
    N, w = 5, 2
    inputs = [(items, r) for items, r in PairwisePreferenceSketch(N, w, 1).inputs()]
    batch = _batch(inputs)
    for rule in ("both-rated-equal", "literal", "both-positive"):
        for i, j in itertools.combinations(range(N), 2):
            sketch = PairwisePreferenceSketch(N, w, 1, pair=(i, j), rule=rule)
            vectorised = pair_bits(batch, np.full(len(inputs), i), np.full(len(inputs), j), rule)
            assert vectorised.astype(int).tolist() == [sketch.preference_bit(x) for x in inputs]


def test_vectorised_maxsense_bits_equal_the_sketch():
    N, w = 6, 3
    rng = np.random.default_rng(8)
    inputs = MaxSenseSketch(N, w, 1, sensing=(0,) * N).inputs()
    batch = _batch(inputs)
    for _ in range(20):
        sensing = rng.integers(0, 2, N)
        positions = np.tile(np.where(sensing == 1, np.arange(N), N), (len(inputs), 1))
        positions.sort(axis=1)
        sensed = sensed_rated_items(batch, positions, N)
        sketch = MaxSenseSketch(N, w, 1, sensing=tuple(sensing.tolist()))
        always_keep = maxsense_bits(batch, sensed, 1.0, rng)
        assert always_keep.astype(int).tolist() == [sketch.sensed_bit(x) for x in inputs]


def test_vectorised_block_bits_equal_the_sketch():
    N, w, Q, size = 6, 2, 2, 2
    rng = np.random.default_rng(3)
    inputs = MaxSenseSketch(N, w, 1, sensing=(0,) * N).inputs()
    batch = _batch(inputs)
    for _ in range(20):
        perm = rng.permutation(N)[: Q * size]
        blocks = np.tile(perm, (len(inputs), 1))
        sketch = MultiMaxSenseSketch(N, w, 2, blocks=(tuple(perm[:2].tolist()), tuple(perm[2:4].tolist())))
        s0 = block_sensed_bits(batch, blocks, Q, size, N)
        assert [tuple(row) for row in s0.astype(int).tolist()] == [sketch.sensed_bits(x) for x in inputs]


def test_maxsense_sensing_sets_do_not_depend_on_the_data(monkeypatch):
    """Stays a test: that the simulator draws H without reading the data is a property of this implementation, not
    a statement of the paper (whose MaxSense claims are thm15-maxsense-*).
    """
    # Claim 3's premise: H_u is public and independent of (W_u, R_u). Two models that differ only in
    # their ratings (b) draw identical sensing sets from the same seed.
    from dpcert.mechanisms.price_of_privacy import maxsense

    drawn = []
    original = maxsense.bernoulli_positions

    def recording(n, N, p, rng):
        positions = original(n, N, p, rng)
        drawn[-1].append(positions.copy())
        return positions

    monkeypatch.setattr(maxsense, "bernoulli_positions", recording)
    for b in (((0, 1),), ((R(1, 3), R(1, 5)),)):
        drawn.append([])
        model = BlockModel(30, 3, (1,), (HALF, HALF), b)
        maxsense.maxsense_scores(model, model.item_clusters(7), 500, 1, rng=11, batch_size=100)
    assert len(drawn[0]) == len(drawn[1]) == 5
    assert all(np.array_equal(a, b) for a, b in zip(*drawn))


# ---------------------------------------------------------------------------------------------
# Clustering and the simulate functions' interface
# ---------------------------------------------------------------------------------------------

def test_item_error_rate_is_permutation_invariant():
    truth = np.array([0, 0, 1, 1, 2, 2])
    assert item_error_rate(np.array([2, 2, 0, 0, 1, 1]), truth) == 0
    assert item_error_rate(np.array([2, 2, 0, 0, 1, 0]), truth) == pytest.approx(1 / 6)
    assert item_error_rate(np.zeros(6, dtype=int), truth) == pytest.approx(2 / 3)


def test_kmeans_1d_is_exact_and_ordered():
    values = np.array([10.0, 0.0, 0.5, 10.2, 5.0, 5.1, 0.2])
    labels = kmeans_1d(values, 3, np.random.default_rng(0))
    assert labels.tolist() == [2, 0, 0, 2, 1, 1, 0]
    assert kmeans_1d(values, 2, np.random.default_rng(0)).tolist() == [1, 0, 0, 1, 1, 1, 0]
    large = np.concatenate([np.zeros(700), np.ones(700), np.full(700, 5.0)])  # Lloyd path (n^2 > 1e6)
    assert item_error_rate(kmeans_1d(large, 3, np.random.default_rng(0)), np.repeat([0, 1, 2], 700)) == 0


@pytest.mark.parametrize("simulate,kwargs", [
    (simulate_maxsense, {}), (simulate_maxsense, {"sensing": "collapsed"}),
    (simulate_multi_maxsense, {}), (simulate_pairwise_preference, {}),
])
def test_simulations_report_progress_results_and_reproduce_from_the_seed(simulate, kwargs):
    model = BlockModel.lower_bound_instance(20, 4)
    calls = []
    result = simulate(model, 3000, 2, rng=5, batch_size=1000, progress=lambda done, total: calls.append((done, total)),
                      **kwargs)
    assert calls == [(1000, 3000), (2000, 3000), (3000, 3000)]
    assert result.labels.shape == result.true_labels.shape == (20,)
    assert 0 <= result.error_rate <= 0.5 and result.exact_recovery == (result.error_rate == 0)
    assert result.users == 3000 and result.seconds > 0
    again = simulate(model, 3000, 2, rng=5, batch_size=1000, **kwargs)
    assert np.array_equal(again.labels, result.labels) and again.error_rate == result.error_rate
    assert set(result.as_json()) == {"algorithm", "items", "users", "error_rate", "exact_recovery", "seconds"}


@pytest.mark.parametrize("call,message", [
    (lambda m: simulate_maxsense(m, 0, 1, rng=0), "U must be an integer in [1, inf]"),
    (lambda m: simulate_maxsense(m, 10, 1, theta=5, rng=0), "theta must be in (0, w] = (0, 4]"),
    (lambda m: simulate_maxsense(m, 10, 1, rng=0, sensing="dense"), "sensing must be one of"),
    (lambda m: simulate_maxsense(m, 10, 1, rng=-1), "rng must be a numpy.random.Generator or an integer seed"),
    (lambda m: simulate_multi_maxsense(m, 10, 3, block_size=8, rng=0), "Q * block_size must be <= N = 20"),
    (lambda m: simulate_pairwise_preference(m, 10, 1, rule="x", rng=0), "rule must be one of"),
    (lambda m: simulate_pairwise_preference("model", 10, 1, rng=0), "model must be a BlockModel"),
])
def test_invalid_simulation_arguments(call, message):
    with pytest.raises(InvalidParameterError) as error:
        call(BlockModel.lower_bound_instance(20, 4))
    assert message in str(error.value)
