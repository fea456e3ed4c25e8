"""Section 7.4's community distance (004_a0cddc0a7a24fb37.txt): hand-computed toy cases and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import SocialGraph
from dpcert.mechanisms.privact.community_distance import contributor_distances, distance_ndcg_correlation
from dpcert.mechanisms.privact.social_similarity import hop_distances

# the path 0 - 1 - 2 - 3 plus an isolated user 4; user 1 rated item 0, user 2 item 1, users 3 and 4 item 2
PATH = SocialGraph(5, np.array([[0, 1], [1, 2], [2, 3]]))
TRAIN = scipy.sparse.csr_array(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]], dtype=float))


def test_contributors_are_the_selected_users_who_rated_a_listed_item():
    hops = hop_distances(PATH)
    distances = contributor_distances(
        TRAIN, [0, 3, 0, 0],
        [np.array([1, 2, 3]), np.array([1]), np.array([3, 4]), np.array([4])],
        np.array([[0, 1], [2, 1], [2, 0], [2, 0]]), hops)
    # target 0, list {0, 1}: users 1 (item 0, 1 hop) and 2 (item 1, 2 hops), not 3 -> (1 + 2)/2 = 1.5
    # target 3, selected {1}: user 1 rated item 0, not on the list {2, 1} -> none -> NaN
    # target 0, list {2, 0}: users 3 (3 hops) and 4 (unreachable, left out) -> 3
    # target 0, selected {4} only, unreachable -> NaN
    assert distances[0] == 1.5 and math.isnan(distances[1]) and distances[2] == 3 and math.isnan(distances[3])


def test_correlation_skips_targets_without_a_distance():
    # d = 1, 2, 3 with NDCG 0.3, 0.2, 0.1 lie on a line of negative slope: r = -1; the NaN row is dropped
    r = distance_ndcg_correlation(np.array([1.0, np.nan, 2.0, 3.0]), np.array([0.3, 0.9, 0.2, 0.1]))
    assert r == pytest.approx(-1.0, abs=1e-12)
    assert math.isnan(distance_ndcg_correlation(np.array([1.0, 1.0, 1.0]), np.array([0.1, 0.2, 0.3])))
    assert math.isnan(distance_ndcg_correlation(np.array([1.0, 2.0, np.nan]), np.array([0.1, 0.2, 0.3])))


@pytest.mark.parametrize("call, parameter", [
    (lambda: contributor_distances(TRAIN, [0], [], np.array([[0]]), hop_distances(PATH)), "selected"),
    (lambda: contributor_distances(TRAIN, [0], [np.array([1])], np.array([[0]]), np.zeros((2, 2))), "hops"),
    (lambda: distance_ndcg_correlation(np.ones(3), np.ones(2)), "ndcg"),
])
def test_bad_input_names_the_parameter(call, parameter):
    with pytest.raises(InvalidParameterError, match=parameter):
        call()
