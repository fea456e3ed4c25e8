"""PRIVACT's cold-start recommendation experiment (Section 7, Tables 4 and 5) end to end.

For a network with ratings: the LCC graph, PRIVACT's released tree at ε = 1 per edge for each of the
paper's tree seeds 1234, 144, 1766, and the five cold-start splits (seeds 67, 13, 45, 7, 82). On each
split, every strategy ranks the items for every test user (top-k, k = 100) and is scored with NDCG@k and
MAP@k; the table reports means over the splits (itemAvg, friendsCF) and over splits × trees (PRIVACT-CF),
once with the current fallback rule (Table 4) and once with the older one (Table 5).

The private path is honest: PRIVACT-CF sees the graph only through :func:`~dpcert.mechanisms.privact.privact`'s
released tree and the noisy degree estimates m_u (post-processing of the ε_edge-LDP reports). friendsCF is the
non-private baseline and reads the graph's edges. One deviation from the code, labelled: m_u is clipped to
at least 1 (the graphs are LCCs, so every user has a friend; the code's max(0, ·) estimate would select no
one for a user whose noisy degree sum is below 1).

References: 004_a0cddc0a7a24fb37.txt, Section 7.2, Tables 4 and 5, Appendix A.2; spec §4.3, TC-P5.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.privact.community_distance import contributor_distances, distance_ndcg_correlation
from dpcert.mechanisms.privact.gentree import DEFAULT_ITERATIONS_PER_NODE
from dpcert.mechanisms.privact.graphs import SocialGraph
from dpcert.mechanisms.privact.paper_ids import paper_labelled_graph
from dpcert.mechanisms.privact.privact import estimated_degrees, privact
from dpcert.mechanisms.privact.ranking_metrics import RankingScores, ranking_scores
from dpcert.mechanisms.privact.ratings import SPLIT_SEEDS, cold_start_split, load_ratings, ratings_file
from dpcert.mechanisms.privact.recommenders import TOP_K, cf_top_k, friends, hct_neighbours, item_average_top_k
from dpcert.mechanisms.privact.social_similarity import hop_distances
from dpcert.mechanisms.privact.tree import ClusterTree

__all__ = ["STRATEGIES", "TABLE4", "TABLE5", "TREE_SEEDS", "ColdStartTables", "StrategyScores",
           "SocialExperiment", "cold_start_tables", "mean_scores", "released_trees", "scores_json",
           "seeds_of"]

TREE_SEEDS = (1234, 144, 1766)
"""The paper's three tree seeds ([code]; spec §4.2)."""

STRATEGIES = ("itemAvg", "friendsCF", "PRIVACT-CF")


def _row(*values: str) -> dict[str, tuple[Fraction, Fraction]]:
    return {name: (Fraction(values[2 * i]), Fraction(values[2 * i + 1])) for i, name in enumerate(STRATEGIES)}


TABLE4: dict[str, dict[str, tuple[Fraction, Fraction]]] = {
    "lastfm": _row("5.33E-04", "2.56E-05", "1.92E-01", "5.18E-02", "5.54E-02", "7.68E-03"),
    "delicious": _row("8.82E-04", "7.18E-05", "8.91E-03", "1.03E-03", "9.67E-04", "6.91E-05"),
    "douban": _row("2.00E-04", "1.46E-05", "7.30E-02", "1.87E-02", "5.73E-02", "1.47E-02"),
}
"""Table 4 of 004_a0cddc0a7a24fb37.txt (cold start, current rule): network -> strategy -> (NDCG@100, MAP@100)."""

TABLE5: dict[str, dict[str, tuple[Fraction, Fraction]]] = {
    "lastfm": _row("5.33E-04", "2.56E-05", "1.58E-01", "4.03E-02", "6.21E-02", "8.63E-03"),
    "delicious": _row("8.80E-04", "7.18E-05", "6.70E-03", "8.00E-04", "9.00E-04", "6.59E-05"),
    "douban": _row("2.00E-04", "1.46E-05", "7.49E-02", "1.87E-02", "7.800E-02", "2.000E-02"),
}
"""Table 5 of 004_a0cddc0a7a24fb37.txt (cold start, older rule: fallback items in dataset order)."""


@dataclass(frozen=True)
class StrategyScores:
    """Means over splits (and trees, for PRIVACT-CF) of one strategy.

    Attributes:
        ndcg: NDCG@k.
        map_code: MAP@k, AP normalised by min(R, k) (the authors' code; comparable to the tables).
        map_paper: MAP@k, AP normalised by k (the paper's Appendix A.2 formula).
        runs: the number of (split, tree) runs averaged.
    """

    ndcg: float
    map_code: float
    map_paper: float
    runs: int


@dataclass(frozen=True)
class SocialExperiment:
    """What every Section 7 experiment reports first: the network, PRIVACT's budget and the runs.

    Attributes:
        network, n, edges, items: the network, its LCC's users and edges, and the rated items.
        eps_edge: PRIVACT's budget per edge.
        iterations_per_node: GENTREE's proposals per user (the paper's 1000).
        tree_seeds, split_seeds, k: the runs and the cut-off.
        test_users: the distinct test users of each split.
    """

    network: str
    n: int
    edges: int
    items: int
    eps_edge: object
    iterations_per_node: int
    tree_seeds: tuple[int, ...]
    split_seeds: tuple[int, ...]
    k: int
    test_users: tuple[int, ...]

    def experiment_json(self) -> dict[str, object]:
        """These fields, JSON-ready."""
        return {"network": self.network, "n": self.n, "edges": self.edges, "items": self.items,
                "eps_edge": str(self.eps_edge), "iterations_per_node": self.iterations_per_node,
                "tree_seeds": list(self.tree_seeds), "split_seeds": list(self.split_seeds), "k": self.k,
                "test_users": list(self.test_users)}


@dataclass(frozen=True)
class ColdStartTables(SocialExperiment):
    """Measured Tables 4 (``current``) and 5 (``older``) for one network (the cold-start protocol).

    Attributes:
        current, older: strategy -> scores under the current rule (Table 4) and the older one (Table 5).
        distance_correlations: Section 7.4's Pearson r of community distance and NDCG@k over PRIVACT-CF's
            targets (current rule), one per (tree seed, split seed), trees varying fastest
            (:mod:`~dpcert.mechanisms.privact.community_distance`; NaN where undefined).
        tree_seconds, ranking_seconds: time spent building the trees and ranking/scoring.
    """

    current: dict[str, StrategyScores]
    older: dict[str, StrategyScores]
    distance_correlations: tuple[float, ...]
    tree_seconds: float
    ranking_seconds: float

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict, the paper's values beside the measured ones where the paper has them."""
        return {**self.experiment_json(), "table4_current_ordering": scores_json(self.current, TABLE4[self.network]),
                "table5_older_ordering": scores_json(self.older, TABLE5[self.network]),
                "section_7_4_distance_ndcg_correlations": [None if np.isnan(r) else r
                                                           for r in self.distance_correlations],
                "tree_seconds": self.tree_seconds,
                "ranking_seconds": self.ranking_seconds}


def scores_json(measured: dict[str, StrategyScores], paper: dict[str, tuple[Fraction, Fraction]]
                ) -> dict[str, dict[str, object]]:
    """Each strategy's means beside the paper's (NDCG@k, MAP@k)."""
    return {name: {"ndcg": s.ndcg, "map": s.map_code, "map_paper_normalisation": s.map_paper, "runs": s.runs,
                   "paper_ndcg": float(paper[name][0]), "paper_map": float(paper[name][1])}
            for name, s in measured.items()}


def released_trees(graph: SocialGraph, eps_edge: object, *, tree_seeds: Sequence[int] = TREE_SEEDS,
                   iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE,
                   progress: Callable[[int], None] | None = None) -> list[tuple[ClusterTree, np.ndarray]]:
    """PRIVACT's release for each tree seed: the tree and every user's noisy degree estimate m_u, clipped to 1.

    Post-processing only: both come from :func:`~dpcert.mechanisms.privact.privact`'s ε_edge-LDP reports.
    ``progress`` is called with the number of trees built after each one.
    """
    released = []
    for seed in seeds_of("tree_seeds", tree_seeds):
        result = privact(graph, eps_edge, np.random.default_rng(seed), iterations_per_node=iterations_per_node)
        released.append((result.tree, np.maximum(estimated_degrees(result.reports.noisy_vectors), 1)))
        if progress is not None:
            progress(len(released))
    return released


def seeds_of(name: str, seeds: Sequence[int]) -> tuple[int, ...]:
    """``seeds`` as a tuple of seeds in [0, 2^32 - 1], or InvalidParameterError naming ``name``."""
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or not seeds:
        raise InvalidParameterError(f"{name} must be a non-empty sequence of seeds. Got {seeds!r}")
    return tuple(require_int(name, s, minimum=0, maximum=2**32 - 1) for s in seeds)


def mean_scores(runs: Sequence[RankingScores]) -> StrategyScores:
    """One strategy's means over its runs (each run's NDCG@k and both MAP@k, averaged with equal weight)."""
    ndcg, map_code, map_paper = np.mean([(r.mean_ndcg, r.map_code, r.map_paper) for r in runs], axis=0)
    return StrategyScores(float(ndcg), float(map_code), float(map_paper), len(runs))


def cold_start_tables(network: str, *, eps_edge: object = 1, iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE,
                      tree_seeds: Sequence[int] = TREE_SEEDS, split_seeds: Sequence[int] = SPLIT_SEEDS,
                      k: int = TOP_K, directory: str | os.PathLike[str] | None = None,
                      progress: Callable[[int, int], None] | None = None) -> ColdStartTables:
    """Tables 4 and 5 measured on ``network`` (lastfm or delicious; douban's ratings are not in the data).

    Args:
        network: ``lastfm`` or ``delicious``.
        eps_edge: PRIVACT's per-edge budget (the paper's 1).
        iterations_per_node: GENTREE proposals per user (the paper's 1000; 20 is a quick demo).
        tree_seeds: one released tree per seed, each from ``numpy.random.default_rng(seed)``.
        split_seeds: one cold-start split per seed.
        k: the top-k cut-off (the paper's 100).
        directory: the data folder.
        progress: called with (steps done, total steps) after each tree and each split.
    """
    ratings_file(network, directory=directory)  # douban, unknown names and a missing folder fail here first
    tree_seeds, split_seeds = seeds_of("tree_seeds", tree_seeds), seeds_of("split_seeds", split_seeds)
    k = require_int("k", k, minimum=1, maximum=10**6)
    iterations_per_node = require_int("iterations_per_node", iterations_per_node, minimum=0)
    graph = paper_labelled_graph(network, directory=directory)  # vertex p is user p of ratings.txt
    ratings = load_ratings(network, directory=directory, n_users=graph.n)
    total, done = len(tree_seeds) + len(split_seeds), len(tree_seeds)
    start = time.perf_counter()
    released = released_trees(graph, eps_edge, tree_seeds=tree_seeds, iterations_per_node=iterations_per_node,
                              progress=None if progress is None else lambda step: progress(step, total))
    tree_seconds = time.perf_counter() - start
    start = time.perf_counter()
    current: dict[str, list[RankingScores]] = {name: [] for name in STRATEGIES}
    older: dict[str, list[RankingScores]] = {name: [] for name in STRATEGIES}
    test_users, correlations = [], []
    hops = hop_distances(graph)
    for seed in split_seeds:
        split = cold_start_split(ratings, seed)
        users = split.test_users
        test_users.append(int(users.size))
        relevant = split.relevant_items()

        def score(lists: np.ndarray) -> RankingScores:
            return ranking_scores(lists, relevant, k=k)

        baseline = score(item_average_top_k(split.train, users.size, k=k))
        current["itemAvg"].append(baseline)
        older["itemAvg"].append(baseline)
        selections = [("friendsCF", friends(graph.adjacency, users))]
        selections += [("PRIVACT-CF", hct_neighbours(tree, users, m[users])) for tree, m in released]
        for name, selected in selections:
            lists = cf_top_k(split.train, selected, k=k, ordering="itemavg")
            scores = score(lists)
            current[name].append(scores)
            older[name].append(score(cf_top_k(split.train, selected, k=k, ordering="dataset")))
            if name == "PRIVACT-CF":
                distances = contributor_distances(split.train, users, selected, lists, hops)
                correlations.append(distance_ndcg_correlation(distances, scores.ndcg))
        done += 1
        if progress is not None:
            progress(done, total)
    return ColdStartTables(network, graph.n, graph.edge_count, ratings.n_items, eps_edge, iterations_per_node,
                           tree_seeds, split_seeds, k, tuple(test_users),
                           {name: mean_scores(runs) for name, runs in current.items()},
                           {name: mean_scores(runs) for name, runs in older.items()}, tuple(correlations),
                           tree_seconds, time.perf_counter() - start)
