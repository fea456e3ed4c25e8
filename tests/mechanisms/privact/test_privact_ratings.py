"""Section 7's ratings (004_a0cddc0a7a24fb37.txt): loading, normalisation by the user's maximum, the two split
protocols, and the bad inputs (missing folder, douban without ratings, unknown network). The real-data checks
skip when the data folder is absent (the CI checkout has none)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import write_synthetic_social_data

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import social_graphs_dir
from dpcert.mechanisms.privact.ratings import (
    ZERO_RATING,
    cold_start_split,
    existing_users_split,
    load_ratings,
    normalise_by_user_maximum,
)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return write_synthetic_social_data(tmp_path_factory.mktemp("social"))


def test_normalisation_divides_by_the_user_maximum_and_stores_zero_as_1e_9():
    # user 0: weights 4, 2, 0 -> 1, 1/2, 0 stored as 1e-9 ([code]); user 1: 3 -> 1
    values = normalise_by_user_maximum(np.array([0, 0, 0, 1]), np.array([4.0, 2.0, 0.0, 3.0]), 2)
    assert values.tolist() == [1.0, 0.5, ZERO_RATING, 1.0]


def test_synthetic_ratings_load_in_dataset_order(synthetic):
    ratings = load_ratings("lastfm", directory=synthetic, n_users=40)
    assert ratings.matrix.shape == (40, ratings.item_ids.size) and ratings.matrix.nnz == 240
    assert np.asarray(ratings.matrix.max(axis=1).todense()).ravel().tolist() == [1.0] * 40
    first = np.loadtxt(f"{synthetic}/lastfm/ratings.txt", dtype=np.int64)[:, 1]
    assert ratings.item_ids.tolist() == list(dict.fromkeys(first.tolist()))


def test_cold_start_holds_out_all_ratings_of_the_test_users(synthetic):
    ratings = load_ratings("lastfm", directory=synthetic)
    split = cold_start_split(ratings, 67)
    drawn = np.random.RandomState(67).choice(np.arange(40), 4)  # 10% of 40 users, with replacement
    assert split.test_users.tolist() == sorted(set(drawn.tolist()))
    test_rows = np.flatnonzero(np.diff(split.test.indptr))
    train_rows = np.flatnonzero(np.diff(split.train.indptr))
    assert test_rows.tolist() == split.test_users.tolist() and not set(test_rows) & set(train_rows)
    assert (split.train + split.test != ratings.matrix).nnz == 0


def test_existing_users_hold_out_ten_percent_of_the_tuples(synthetic):
    ratings = load_ratings("lastfm", directory=synthetic)
    split = existing_users_split(ratings, 13)
    assert split.test.nnz == 24 and split.train.nnz == 216
    assert (split.train + split.test != ratings.matrix).nnz == 0


@pytest.mark.parametrize("call, name", [
    (lambda d: load_ratings("douban", directory=d), "network"),
    (lambda d: load_ratings("epinions", directory=d), "network"),
    (lambda d: load_ratings("lastfm", directory=f"{d}/absent"), "directory"),
    (lambda d: load_ratings("lastfm", directory=d, n_users=3), "n_users"),
    (lambda d: cold_start_split(load_ratings("lastfm", directory=d), -1), "seed"),
    (lambda d: cold_start_split(load_ratings("lastfm", directory=d), 1, fraction=0.01), "fraction"),
    (lambda d: existing_users_split("ratings", 1), "ratings"),
])
def test_bad_input_names_the_parameter(synthetic, call, name):
    with pytest.raises(InvalidParameterError, match=f"^{name} "):
        call(synthetic)


def test_douban_is_said_to_have_no_ratings(synthetic):
    with pytest.raises(InvalidParameterError, match="douban's edges only, no ratings"):
        load_ratings("douban", directory=synthetic)


@pytest.mark.parametrize("network, users, items, tuples", [("lastfm", 1843, 17238, 90434),
                                                           ("delicious", 1503, 63275, 89701)])
def test_real_ratings(network, users, items, tuples):
    # counted on the data folder's ratings.txt (user ids are the LCC's 0..n-1; Table 1's n)
    if social_graphs_dir() is None:
        pytest.skip("the social-graph data folder is absent")
    ratings = load_ratings(network, n_users=users)
    assert (ratings.n_users, ratings.n_items, ratings.matrix.nnz) == (users, items, tuples)
    assert np.asarray(ratings.matrix.max(axis=1).todense()).ravel().min() == 1.0
    split = cold_start_split(ratings, 67)
    assert int(0.1 * users) - 15 <= split.test_users.size <= int(0.1 * users)  # drawn with replacement
