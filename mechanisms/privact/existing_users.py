"""PRIVACT's existing-user experiment (Section 7, Table 3): Basic SERec, SERec and PRIVACT-SERec end to end.

For a network with ratings: the LCC graph, PRIVACT's released tree at ε = 1 per edge for each tree seed
(1234, 144, 1766), and the existing-user splits (10% of the rating tuples held out; seeds 67, 13, 45, 7, 82).
On each split the three models of :mod:`~dpcert.mechanisms.privact.serec` are fitted to the training
clicks and rank the items each test user has not rated in training (top-k, k = 100), scored with NDCG@k
and MAP@k against the held-out items:

- Basic SERec: no social term (ExpoMF with the popularity prior);
- SERec: the social graph's contacts (non-private: reads the edges);
- PRIVACT-SERec: the released tree's top-m relation written both ways (m the noisy degree estimate,
  clipped to 1 as in the cold-start experiment), one fit per tree: post-processing of PRIVACT's release.

The table reports means over the splits (and trees, for PRIVACT-SERec). Every fit on one split starts
from the same initial factors (the split's seed), so the three models differ only in their prior.

References: 004_a0cddc0a7a24fb37.txt, Section 7.2, Table 3, Result 4; spec §2.7, §2.8, §4.3.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction


from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.privact.cold_start import (
    TREE_SEEDS,
    SocialExperiment,
    StrategyScores,
    mean_scores,
    released_trees,
    scores_json,
    seeds_of,
)
from dpcert.mechanisms.privact.gentree import DEFAULT_ITERATIONS_PER_NODE
from dpcert.mechanisms.privact.paper_ids import paper_labelled_graph
from dpcert.mechanisms.privact.ranking_metrics import RankingScores, ranking_scores
from dpcert.mechanisms.privact.ratings import SPLIT_SEEDS, existing_users_split, load_ratings, ratings_file
from dpcert.mechanisms.privact.recommenders import TOP_K, friends, hct_neighbours
from dpcert.mechanisms.privact.serec import RECQ_PARAMETERS, SERecParameters, contact_counts, fit_serec, serec_top_k

__all__ = ["SEREC_MODELS", "TABLE3", "ExistingUsersTable", "existing_users_table"]

SEREC_MODELS = ("Basic SERec", "SERec", "PRIVACT-SERec")

TABLE3: dict[str, dict[str, tuple[Fraction, Fraction]]] = {
    network: {name: (Fraction(ndcg), Fraction(map_)) for name, (ndcg, map_) in zip(SEREC_MODELS, row)}
    for network, row in {
        "lastfm": (("0.1223", "0.0240"), ("0.3249", "0.1405"), ("0.3270", "0.1419")),
        "delicious": (("0.0058", "0.0021"), ("0.0135", "0.0048"), ("0.0150", "0.0045")),
        "douban": (("0.0349", "0.0052"), ("0.2466", "0.0929"), ("0.2469", "0.0930")),
    }.items()}
"""Table 3 of 004_a0cddc0a7a24fb37.txt (existing users, top-100): network -> model -> (NDCG@100, MAP@100)."""


@dataclass(frozen=True)
class ExistingUsersTable(SocialExperiment):
    """Measured Table 3 for one network (the existing-user protocol; the shared fields as in the cold start).

    Attributes:
        parameters: SERec's hyperparameters.
        scores: model -> means over the runs.
        tree_seconds, fit_seconds: time spent building the trees and fitting/scoring the models.
    """

    parameters: SERecParameters
    scores: dict[str, StrategyScores]
    tree_seconds: float
    fit_seconds: float

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict, the paper's values beside the measured ones."""
        return {**self.experiment_json(), "serec_factors": self.parameters.factors,
                "serec_epochs": self.parameters.epochs, "table3": scores_json(self.scores, TABLE3[self.network]),
                "tree_seconds": self.tree_seconds, "fit_seconds": self.fit_seconds}


def existing_users_table(network: str, *, eps_edge: object = 1,
                         iterations_per_node: int = DEFAULT_ITERATIONS_PER_NODE,
                         tree_seeds: Sequence[int] = TREE_SEEDS, split_seeds: Sequence[int] = SPLIT_SEEDS,
                         k: int = TOP_K, parameters: SERecParameters = RECQ_PARAMETERS,
                         directory: str | os.PathLike[str] | None = None,
                         progress: Callable[[int, int], None] | None = None) -> ExistingUsersTable:
    """Table 3 measured on ``network`` (lastfm or delicious; douban's ratings are not in the data).

    Args:
        network: ``lastfm`` or ``delicious``.
        eps_edge: PRIVACT's per-edge budget (the paper's 1).
        iterations_per_node: GENTREE proposals per user (the paper's 1000).
        tree_seeds: one released tree per seed.
        split_seeds: one existing-user split per seed; also the seed of that split's initial factors.
        k: the top-k cut-off (the paper's 100).
        parameters: SERec's hyperparameters (:data:`~dpcert.mechanisms.privact.serec.RECQ_PARAMETERS`).
        directory: the data folder.
        progress: called with (steps done, total steps) after each tree and each fitted model.
    """
    ratings_file(network, directory=directory)  # douban, unknown names and a missing folder fail here first
    tree_seeds, split_seeds = seeds_of("tree_seeds", tree_seeds), seeds_of("split_seeds", split_seeds)
    k = require_int("k", k, minimum=1, maximum=10**6)
    iterations_per_node = require_int("iterations_per_node", iterations_per_node, minimum=0)
    if not isinstance(parameters, SERecParameters):
        raise InvalidParameterError(f"parameters must be SERecParameters. Got {type(parameters).__name__}")
    graph = paper_labelled_graph(network, directory=directory)
    ratings = load_ratings(network, directory=directory, n_users=graph.n)
    total = len(tree_seeds) + len(split_seeds) * (2 + len(tree_seeds))
    done = len(tree_seeds)

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    start = time.perf_counter()
    released = released_trees(graph, eps_edge, tree_seeds=tree_seeds, iterations_per_node=iterations_per_node,
                              progress=None if progress is None else lambda built: progress(built, total))
    everyone = range(graph.n)
    contacts = [("SERec", contact_counts(graph.n, friends(graph.adjacency, everyone)))]
    contacts += [("PRIVACT-SERec", contact_counts(graph.n, hct_neighbours(tree, everyone, m))) for tree, m in released]
    tree_seconds = time.perf_counter() - start
    start = time.perf_counter()
    runs: dict[str, list[RankingScores]] = {name: [] for name in SEREC_MODELS}
    test_users = []
    for seed in split_seeds:
        split = existing_users_split(ratings, seed)
        relevant = split.relevant_items()
        test_users.append(int(split.test_users.size))
        for name, counts in [("Basic SERec", None), *contacts]:
            model = fit_serec(split.train, counts, parameters=parameters, seed=seed)
            lists = serec_top_k(model, split.train, split.test_users, k=min(k, ratings.n_items))
            runs[name].append(ranking_scores(lists, relevant, k=k))
            step()
    return ExistingUsersTable(network, graph.n, graph.edge_count, ratings.n_items, eps_edge, iterations_per_node,
                              tree_seeds, split_seeds, k, tuple(test_users), parameters,
                              {name: mean_scores(r) for name, r in runs.items()}, tree_seconds,
                              time.perf_counter() - start)
