"""The user ids of the paper's ratings files: the LCC numbered in order of first appearance in edges.txt.

The public PrivaCT code **[code]** reads ``edges.txt`` with ``networkx.read_edgelist`` (string labels,
vertices created in the order they first appear, line by line, left to right), takes the largest connected
component as a subgraph (which keeps that order), and numbers its vertices 0..n-1 in that order; the
ratings files (``ratings.txt``: ``user<TAB>item<TAB>value``) are written with those numbers.
:func:`~dpcert.mechanisms.privact.graphs.load_social_graph` numbers the same LCC in increasing order of the
original labels instead, so ratings row p is **not** its vertex p (on lastfm only 114 of the 12668 edges
keep their endpoints under the identity map). :func:`paper_labelled_graph` gives the LCC in the paper's
numbering; checked against the code's own ``trusts.txt`` (all 12668 lastfm and 6350 delicious edges agree).

References: 004_a0cddc0a7a24fb37.txt, Table 1; github.com/aashishkolluri/privaCT-public,
data/lastfm-small/preprocess.py (the relabelling); spec §4.1 ([code]: all graphs are the LCC).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import scipy.sparse.csgraph

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact.graphs import SocialGraph, load_social_graph, social_graphs_dir

__all__ = ["first_seen_order", "paper_labelled_graph"]


def first_seen_order(labels: object) -> np.ndarray:
    """Distinct values of ``labels`` (read row by row, left to right) in order of first appearance."""
    flat = np.asarray(labels).ravel()
    if flat.size == 0:
        raise InvalidParameterError("labels must be non-empty. Got an empty array")
    values, first = np.unique(flat, return_index=True)
    return values[np.argsort(first, kind="stable")]


def paper_labelled_graph(name: str, *, directory: str | os.PathLike[str] | None = None) -> SocialGraph:
    """The LCC of network ``name`` with vertex p = user p of the paper's ``ratings.txt``.

    Same graph as :func:`load_social_graph` (same n and |E|), renumbered: the LCC's original labels are
    ranked by first appearance in ``edges.txt`` instead of by value.

    Raises:
        InvalidParameterError: for an unknown name, or when the data folder or file is absent.
    """
    graph = load_social_graph(name, directory=directory)
    path = Path(social_graphs_dir(directory=directory)) / name / "edges.txt"
    pairs = np.loadtxt(path, dtype=np.int64, ndmin=2, usecols=(0, 1))
    labels = np.unique(pairs)
    component = _lcc_labels(pairs, labels)  # load_social_graph's vertex k is component[k]
    in_lcc = np.zeros(labels.size, dtype=bool)
    in_lcc[np.searchsorted(labels, component)] = True
    order = first_seen_order(pairs)
    paper_order = order[in_lcc[np.searchsorted(labels, order)]]
    paper_id = np.empty(graph.n, dtype=np.int64)
    paper_id[np.searchsorted(component, paper_order)] = np.arange(graph.n)
    return SocialGraph(graph.n, paper_id[graph.edges], graph.name, graph.source)


def _lcc_labels(pairs: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The original labels of the largest connected component, in increasing order (ties: as the LCC's)."""
    full = SocialGraph(labels.size, np.searchsorted(labels, pairs[pairs[:, 0] != pairs[:, 1]]))
    _, component_of = scipy.sparse.csgraph.connected_components(full.adjacency, directed=False)
    return labels[component_of == int(np.argmax(np.bincount(component_of)))]
