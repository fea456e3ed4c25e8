"""itemAvg, friendsCF and PRIVACT-CF of Section 7 (004_a0cddc0a7a24fb37.txt): the friendsCF formula against a
direct double loop, Appendix A.2's fallback example, and spec TC-E6, TC-E7, TC-E8 as properties (of dpcert's
recommenders; the paper's A.2 example is the registered claim privact-appendix-a2-fallback-order)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse
from hypothesis import assume, given
from hypothesis import strategies as st

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import ClusterTree, random_tree
from dpcert.mechanisms.privact.recommenders import (
    DENOMINATOR_OFFSET,
    cf_top_k,
    fallback_order,
    friends,
    hct_neighbours,
    item_average,
    item_average_top_k,
    neighbourhood_scores,
    user_means,
)


def _direct_scores(dense: np.ndarray, rated: np.ndarray, S_row: np.ndarray) -> dict[int, float]:
    """The friendsCF formula by the book: a loop over items and a loop over users (r̄_u = 0)."""
    scores = {}
    for i in range(dense.shape[1]):
        numerator = denominator = 0.0
        for v in range(dense.shape[0]):
            if rated[v, i] and S_row[v]:
                mean = dense[v][rated[v]].mean()
                numerator += dense[v, i] - mean
                denominator += 1
        if denominator:
            scores[i] = numerator / (denominator + DENOMINATOR_OFFSET)
    return scores


def _toy(seed: int, users: int = 8, items: int = 6, density: float = 0.45):
    rng = np.random.default_rng(seed)
    rated = rng.random((users, items)) < density
    dense = np.where(rated, rng.integers(1, 9, (users, items)) / 8, 0.0)
    return dense, rated, scipy.sparse.csr_array(dense)


def test_friends_cf_matches_a_direct_double_loop():
    dense, rated, train = _toy(3)
    adjacency = scipy.sparse.csr_array(np.triu(np.random.default_rng(5).random((8, 8)) < 0.5, 1).astype(int))
    adjacency = adjacency + adjacency.T
    for u, selected in enumerate(friends(adjacency, range(8))):
        items, scores = neighbourhood_scores(train, selected)
        direct = _direct_scores(dense, rated, adjacency.toarray()[u] > 0)
        assert items.tolist() == sorted(direct)
        assert scores == pytest.approx([direct[i] for i in items], rel=1e-12, abs=1e-15)


def test_item_average_is_the_formula_with_everyone_selected():
    dense, rated, train = _toy(4)
    scores, rated_items = item_average(train)
    direct = _direct_scores(dense, rated, np.ones(dense.shape[0], dtype=bool))
    assert rated_items.tolist() == [i in direct for i in range(dense.shape[1])]
    assert scores[rated_items] == pytest.approx([direct[i] for i in sorted(direct)], rel=1e-12, abs=1e-15)
    assert user_means(train)[0] == pytest.approx(dense[0][rated[0]].mean() if rated[0].any() else 0.0)


def test_appendix_a2_example_a_b_then_c():
    # items a = 0, b = 1, c = 2, d = 3 (nobody rated d). User 0 is u's selected user: a = 5, b = 3, r̄ = 4, so with
    # r̄_u = 3.5 the social scores are a ≈ 3.5 + 1 = 4.5 and b ≈ 3.5 − 1 = 2.5. User 1 is not selected: c = 2,
    # a = 3, r̄ = 2.5, so c's itemAvg is −0.5 and its fallback score 3.0. The order is a, b, c (not a, c, b), d last.
    train = scipy.sparse.csr_array(np.array([[5.0, 3.0, 0.0, 0.0], [3.0, 0.0, 2.0, 0.0]]))
    items, scores = neighbourhood_scores(train, np.array([0]), target_mean=3.5)
    assert items.tolist() == [0, 1] and scores == pytest.approx([4.5, 2.5])
    assert 3.5 + item_average(train)[0][2] == pytest.approx(3.0)
    assert cf_top_k(train, [np.array([0])], k=4, target_means=[3.5]).tolist() == [[0, 1, 2, 3]]


def test_older_rule_takes_fallback_items_in_dataset_order():
    # the selected user rated item 3 only; the others' itemAvg puts item 2 above item 0 above item 1
    train = scipy.sparse.csr_array(np.array([[0, 0, 0, 1.0, 0], [0.2, 0.1, 1.0, 0.5, 0], [0.6, 0.1, 0.9, 0, 0]]))
    assert cf_top_k(train, [np.array([0])], k=5, ordering="itemavg").tolist() == [[3, 2, 0, 1, 4]]
    assert cf_top_k(train, [np.array([0])], k=5, ordering="dataset").tolist() == [[3, 0, 1, 2, 4]]
    assert fallback_order(train).tolist() == [2, 3, 0, 1, 4]  # itemAvg: 0.458, 0.025, -0.092, -0.392; item 4 unrated


@st.composite
def rated_matrices(draw):
    users, items = draw(st.integers(2, 8)), draw(st.integers(2, 12))
    cells = draw(st.lists(st.tuples(st.integers(0, users - 1), st.integers(0, items - 1), st.integers(1, 16)),
                          min_size=1, max_size=users * items))
    dense = np.zeros((users, items))
    for u, i, value in cells:
        dense[u, i] = value / 16
    selected = np.array(draw(st.lists(st.integers(0, users - 1), max_size=users)), dtype=np.int64)
    return scipy.sparse.csr_array(dense), selected, draw(st.integers(1, items))


@given(rated_matrices(), st.sampled_from(["itemavg", "dataset"]))
def test_tc_e6_items_of_the_selected_users_come_first(case, ordering):
    train, selected, k = case
    covered = set(neighbourhood_scores(train, selected)[0].tolist())
    top = cf_top_k(train, [selected], k=k, ordering=ordering)[0].tolist()
    assert len(top) == len(set(top)) == k
    head = min(k, len(covered))
    assert set(top[:head]) <= covered and not (set(top[head:]) & covered)


@given(rated_matrices(), st.integers(-5, 5))
def test_tc_e7_a_constant_r_bar_leaves_the_list_unchanged(case, shift):
    train, selected, k = case
    scores = neighbourhood_scores(train, selected)[1]
    assume(scores.size < 2 or np.diff(np.sort(scores)).min() > 1e-6)  # no near-ties that rounding could flip
    assert (cf_top_k(train, [selected], k=k, target_means=[float(shift)]) == cf_top_k(train, [selected], k=k)).all()


@given(st.integers(2, 24), st.data())
def test_tc_e8_hct_neighbours(n, data):
    # N(u): min(m, n − 1) distinct users, never u, closer communities (deeper LCA with u) first
    tree = random_tree(n, np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    u = data.draw(st.integers(0, n - 1))
    m = data.draw(st.integers(1, n + 2))
    found = hct_neighbours(tree, [u], [m])[0]
    assert len(found) == len(set(found.tolist())) == min(m, n - 1) and u not in found
    depths = [int(tree.depth[tree.lca(u, int(v))]) for v in found]
    assert depths == sorted(depths, reverse=True)


def test_item_average_list_is_shared_by_every_target():
    train = scipy.sparse.csr_array(np.array([[1.0, 0.5, 0], [0.2, 0, 0]]))
    assert item_average_top_k(train, 2, k=3).tolist() == [fallback_order(train).tolist()] * 2


TREE = ClusterTree.from_nested(((0, 1), (2, 3)))


@pytest.mark.parametrize("call, name", [
    (lambda: hct_neighbours(TREE, [0], [0]), "m"),
    (lambda: hct_neighbours(TREE, [0, 1], [1]), "m"),
    (lambda: hct_neighbours("tree", [0], [1]), "tree"),
    (lambda: cf_top_k(scipy.sparse.csr_array(np.eye(2)), [np.array([0])], k=0), "k"),
    (lambda: cf_top_k(scipy.sparse.csr_array(np.eye(2)), [np.array([0])], ordering="random"), "ordering"),
    (lambda: cf_top_k(np.eye(2), [np.array([0])]), "train"),
    (lambda: neighbourhood_scores(scipy.sparse.csr_array(np.eye(2)), np.array([5])), "selected"),
    (lambda: friends(np.eye(2), [0]), "adjacency"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=f"^{name} "):
        call()
