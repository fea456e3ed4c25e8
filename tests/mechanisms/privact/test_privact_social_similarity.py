"""Per-user similarity-distance correlations (Section 7.4, Table 6) against a direct loop, and bad input."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
import scipy.sparse
import scipy.stats

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import (
    SimilarityDistanceSummary,
    SocialGraph,
    first_seen_order,
    hop_distances,
    rating_similarity,
    similarity_distance_correlations,
    summarize_correlations,
    table_6_row,
)

# A path 0-1-2-3-4 plus a pendant 5 on 2, and hand-set ratings on 6 items (0 = unrated).
GRAPH = SocialGraph(6, np.array([(0, 1), (1, 2), (2, 3), (3, 4), (2, 5)]))
RATINGS = np.array([
    [5, 3, 0, 1, 4, 0],
    [4, 0, 2, 1, 5, 1],
    [1, 1, 5, 0, 0, 2],
    [0, 2, 4, 5, 1, 0],
    [2, 0, 0, 4, 3, 5],
    [3, 4, 1, 2, 0, 0],
], dtype=float)


def _direct_similarity(u: int, v: int, profile: str) -> float:
    x, y = RATINGS[u], RATINGS[v]
    if profile == "partial":
        both = (x != 0) & (y != 0)
        x, y = x[both], y[both]
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(scipy.stats.pearsonr(x, y).statistic)


def _direct_correlations(profile: str) -> np.ndarray:
    lengths = dict(nx.all_pairs_shortest_path_length(GRAPH.to_networkx()))
    out = []
    for u in range(GRAPH.n):
        pairs = [(_direct_similarity(u, v, profile), lengths[u][v]) for v in range(GRAPH.n) if v != u]
        pairs = [(s, d) for s, d in pairs if np.isfinite(s)]
        sims, dists = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs], dtype=float)
        ok = len(pairs) >= 2 and np.ptp(sims) > 0 and np.ptp(dists) > 0
        out.append(float(scipy.stats.pearsonr(sims, dists).statistic) if ok else float("nan"))
    return np.array(out)


@pytest.mark.parametrize("profile", ["partial", "full"])
def test_similarity_matches_a_direct_loop(profile):
    sim = rating_similarity(scipy.sparse.csr_array(RATINGS), profile=profile)
    for u, v in itertools.permutations(range(GRAPH.n), 2):
        np.testing.assert_allclose(sim[u, v], _direct_similarity(u, v, profile), atol=1e-12, equal_nan=True)
    assert np.all(np.isnan(np.diag(sim)))


@pytest.mark.parametrize("profile", ["partial", "full"])
def test_per_user_correlations_match_a_direct_loop(profile):
    got = similarity_distance_correlations(GRAPH, RATINGS, profile=profile)
    np.testing.assert_allclose(got, _direct_correlations(profile), atol=1e-12, equal_nan=True)


def test_scaling_a_user_changes_nothing_and_hand_value():
    scaled = RATINGS * np.array([[1e5], [1], [3], [1], [1], [7]])
    for profile in ("partial", "full"):
        np.testing.assert_allclose(similarity_distance_correlations(GRAPH, scaled, profile=profile),
                                   similarity_distance_correlations(GRAPH, RATINGS, profile=profile), atol=1e-12)
    # users 0 and 1 co-rate items 0, 3, 4: (5, 1, 4) and (4, 1, 5); deviations from 10/3 give r = 69/78 = 23/26.
    assert rating_similarity(RATINGS, profile="partial")[0, 1] == pytest.approx(23 / 26, abs=1e-12)


def test_unrated_user_and_disconnected_pairs_are_left_out():
    ratings = RATINGS.copy()
    ratings[5] = 0
    graph = SocialGraph(7, np.vstack([GRAPH.edges, [[5, 6]]]))  # 6 has no ratings row yet: add one
    ratings = np.vstack([ratings, RATINGS[0]])
    c = similarity_distance_correlations(graph, ratings, profile="full")
    assert np.isnan(c[5]) and np.isfinite(c[0])
    assert np.isinf(hop_distances(SocialGraph(3, np.array([(0, 1)])))[0, 2])


def test_summary_counts_negative_users_and_range():
    s = summarize_correlations([-0.5, 0.25, float("nan"), -0.125], profile="full")
    assert s == SimilarityDistanceSummary("full", 4, 3, 2, -0.5, 0.25)
    assert s.percent_negative == pytest.approx(200 / 3)
    row = table_6_row(GRAPH, RATINGS, profile="partial")
    assert row.n_users == 6 and row.n_defined <= 6


def test_first_seen_order():
    np.testing.assert_array_equal(first_seen_order(np.array([[2, 275], [2, 428], [7, 2]])), [2, 275, 428, 7])


@pytest.mark.parametrize("call, name", [
    (lambda: rating_similarity(RATINGS, profile="half"), "profile"),
    (lambda: rating_similarity(np.ones(3), profile="full"), "ratings"),
    (lambda: rating_similarity(np.array([[1.0, np.nan]]), profile="full"), "ratings"),
    (lambda: similarity_distance_correlations(GRAPH, RATINGS[:4], profile="full"), "ratings"),
    (lambda: hop_distances(nx.path_graph(3)), "graph"),
    (lambda: summarize_correlations(np.zeros((2, 2)), profile="full"), "correlations"),
    (lambda: first_seen_order([]), "labels"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=name):
        call()
