"""The federated social graph: edge lists, the largest connected component, adjacency, Table 1.

Each vertex is a user who holds its own neighbour list D_i in {0,1}^n (D_i[j] = 1 iff {i, j} in E); the
graph is undirected and static. The paper evaluates on the largest connected component (LCC) of three
real networks, relabelled 0..n-1 (Table 1):

    network    n     |E|    density 2|E| / (n (n - 1))
    lastfm     1843  12668  0.0075
    delicious  1503  6350   0.0056
    douban     2848  25185  0.0062

The real edge lists are never part of this repository. :func:`social_graphs_dir` finds them at the path
given, else at ``$DPCERT_SOCIAL_GRAPHS``, else at ``../shared/data/social-graphs/`` beside the project
root (or beside the current directory), and :func:`load_social_graph` says so when they are absent; a G(n, m) graph of a network's size is
there only when asked for by name (:func:`generated_like`).

References: 004_a0cddc0a7a24fb37.txt, Section 2.2 (model), Table 1; spec §1.1, §4.1 (LCC, [code]).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path

import networkx as nx
import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_unit_interval
from dpcert.mechanisms.price_of_privacy.blockmodel import as_generator

__all__ = [
    "SOCIAL_GRAPHS_ENV",
    "TABLE1",
    "SocialGraph",
    "edges_file",
    "generated_like",
    "load_social_graph",
    "planted_partition_graph",
    "read_edge_list",
    "searched_folder",
    "social_graphs_dir",
]

SOCIAL_GRAPHS_ENV = "DPCERT_SOCIAL_GRAPHS"
"""Environment variable naming the folder that holds ``<network>/edges.txt``."""

TABLE1: dict[str, tuple[int, int, str]] = {
    "lastfm": (1843, 12668, "0.0075"),
    "delicious": (1503, 6350, "0.0056"),
    "douban": (2848, 25185, "0.0062"),
}
"""Table 1 of 004_a0cddc0a7a24fb37.txt: network -> (#nodes, #edges, printed density) of the LCC."""


@dataclass(frozen=True, eq=False)
class SocialGraph:
    """An undirected simple graph on vertices 0..n-1.

    Attributes:
        n: number of vertices (users).
        edges: (|E|, 2) int64 array of the undirected edges, each once with u < v, sorted.
        name: a label (the network's name, or how the graph was made).
        source: where the graph came from: a file path, or ``"generated"``.
    """

    n: int
    edges: np.ndarray
    name: str = "graph"
    source: str = "generated"

    def __post_init__(self) -> None:
        n = require_int("n", self.n, minimum=1)
        edges = np.asarray(self.edges, dtype=np.int64).reshape(-1, 2)
        if edges.size and (edges.min() < 0 or edges.max() >= n):
            raise InvalidParameterError(f"edges must join vertices in [0, {n - 1}]. Got a vertex "
                                        f"{int(edges.min()) if edges.min() < 0 else int(edges.max())}")
        if np.any(edges[:, 0] == edges[:, 1]):
            raise InvalidParameterError("edges must join two different vertices (no self-loops). Got a self-loop")
        low, high = np.minimum(edges[:, 0], edges[:, 1]), np.maximum(edges[:, 0], edges[:, 1])
        unique = np.unique(low * n + high)
        canonical = np.stack([unique // n, unique % n], axis=1)
        canonical.setflags(write=False)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "edges", canonical)

    @property
    def edge_count(self) -> int:
        """|E|, each undirected edge counted once."""
        return int(self.edges.shape[0])

    def density(self) -> Fraction:
        """2|E| / (n (n - 1)), exactly (Table 1's density column)."""
        if self.n < 2:
            raise InvalidParameterError(f"n must be >= 2 for a density. Got {self.n}")
        return Fraction(2 * self.edge_count, self.n * (self.n - 1))

    @cached_property
    def adjacency(self) -> scipy.sparse.csr_array:
        """The symmetric 0/1 adjacency matrix (CSR, int64); row i is user i's bit vector D_i."""
        rows = np.concatenate([self.edges[:, 0], self.edges[:, 1]])
        cols = np.concatenate([self.edges[:, 1], self.edges[:, 0]])
        data = np.ones(rows.size, dtype=np.int64)
        return scipy.sparse.csr_array((data, (rows, cols)), shape=(self.n, self.n))

    def degrees(self) -> np.ndarray:
        """Each user's degree."""
        return np.bincount(self.edges.ravel(), minlength=self.n)

    def largest_connected_component(self) -> SocialGraph:
        """The LCC, relabelled 0..n'-1 in increasing order of the old labels (ties: the lowest-labelled)."""
        _, labels = scipy.sparse.csgraph.connected_components(self.adjacency, directed=False)
        sizes = np.bincount(labels)
        keep = np.flatnonzero(labels == int(np.argmax(sizes)))
        new_label = np.full(self.n, -1, dtype=np.int64)
        new_label[keep] = np.arange(keep.size)
        inside = (new_label[self.edges[:, 0]] >= 0) & (new_label[self.edges[:, 1]] >= 0)
        return SocialGraph(int(keep.size), new_label[self.edges[inside]], self.name, self.source)

    def to_networkx(self) -> nx.Graph:
        """The graph as a ``networkx.Graph`` on nodes 0..n-1."""
        graph = nx.Graph()
        graph.add_nodes_from(range(self.n))
        graph.add_edges_from(map(tuple, self.edges.tolist()))
        return graph

    @classmethod
    def from_networkx(cls, graph: nx.Graph, name: str = "networkx") -> SocialGraph:
        """A networkx graph's simple undirected skeleton, nodes relabelled 0..n-1 in iteration order."""
        index = {node: i for i, node in enumerate(graph.nodes)}
        edges = np.array([(index[u], index[v]) for u, v in graph.edges if u != v], dtype=np.int64)
        return cls(len(index), edges.reshape(-1, 2), name)


def read_edge_list(path: str | os.PathLike[str], *, name: str | None = None) -> SocialGraph:
    """Read ``u<TAB>v`` lines (integer ids; an edge may appear in one or both directions).

    Vertex ids are relabelled 0..n-1 in increasing order; self-loops and repeats are dropped.
    """
    path = Path(path)
    if not path.is_file():
        raise InvalidParameterError(f"path must be an existing edge-list file. Got {str(path)!r}")
    pairs = np.loadtxt(path, dtype=np.int64, ndmin=2, usecols=(0, 1))
    ids, relabelled = np.unique(pairs, return_inverse=True)
    edges = relabelled.reshape(-1, 2)
    edges = edges[edges[:, 0] != edges[:, 1]]
    return SocialGraph(int(ids.size), edges, name or path.parent.name, str(path))


def social_graphs_dir(*, directory: str | os.PathLike[str] | None = None) -> Path | None:
    """The folder holding ``<network>/edges.txt``, or None when it is absent.

    Looked up in order: ``directory``; the environment variable ``DPCERT_SOCIAL_GRAPHS``;
    ``../shared/data/social-graphs/`` beside the project, that is beside the source checkout dpcert runs from
    (an editable install) or beside the current directory (a checkout dpcert was installed from).
    """
    return next((c for c in _candidates(directory) if _is_dir(c)), None)


def searched_folder(*, directory: str | os.PathLike[str] | None = None) -> str:
    """The folder(s) :func:`social_graphs_dir` looks in, for a message that says where the data were not found."""
    return " or ".join(str(c) for c in _candidates(directory))


def _candidates(directory: str | os.PathLike[str] | None) -> list[Path]:
    if directory is not None:
        return [Path(directory)]
    if os.environ.get(SOCIAL_GRAPHS_ENV):
        return [Path(os.environ[SOCIAL_GRAPHS_ENV])]
    beside = [Path(__file__).resolve().parents[2].parent]
    try:
        beside.append(Path.cwd().parent)
    except OSError:  # the current directory was removed
        pass
    return list(dict.fromkeys(root / "shared" / "data" / "social-graphs" for root in beside))


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):  # a name too long for the file system, or a NUL byte
        return False


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, or a NUL byte
        return False


def _network_name(name: str) -> str:
    if name not in TABLE1:
        raise InvalidParameterError(f"name must be one of {', '.join(TABLE1)}. Got {name!r}")
    return name


def load_social_graph(name: str, *, directory: str | os.PathLike[str] | None = None) -> SocialGraph:
    """The LCC of a real network of Table 1 (``lastfm``, ``delicious`` or ``douban``).

    Raises:
        InvalidParameterError: for an unknown name, or when the data folder or the network's file is absent
            (the message names the folders looked in; nothing is generated in its place).
    """
    return read_edge_list(edges_file(name, directory=directory), name=name).largest_connected_component()


def edges_file(name: str, *, directory: str | os.PathLike[str] | None = None) -> Path:
    """``<folder>/<name>/edges.txt``, the folder found as by :func:`social_graphs_dir`.

    Raises:
        InvalidParameterError: naming ``name`` for an unknown network, ``directory`` when the data folder or the
            network's file is absent (the message names the folders looked in).
    """
    name = _network_name(name)
    folder = social_graphs_dir(directory=directory)
    if folder is None or not _is_file(folder / name / "edges.txt"):
        raise InvalidParameterError(f"directory must hold {name}/edges.txt (the paper's social-graph data; pass a "
                                    f"data folder or set {SOCIAL_GRAPHS_ENV}). Looked in "
                                    f"{searched_folder(directory=directory)[:200]!r}")
    return folder / name / "edges.txt"


def generated_like(name: str, *, rng: np.random.Generator | int = 0) -> SocialGraph:
    """A stand-in for a network, asked for by name: the LCC of a G(n, m) random graph with Table 1's n and |E|
    (source ``"generated"``) drawn with ``rng``. Never used in place of a real network the caller named."""
    n, m, _ = TABLE1[_network_name(name)]
    seed = int(as_generator(rng).integers(2**32))
    graph = SocialGraph.from_networkx(nx.gnm_random_graph(n, m, seed=seed), f"{name}-like G(n, m)")
    return graph.largest_connected_component()


def planted_partition_graph(sizes: tuple[int, ...], p_in: object, p_out: object,
                            rng: np.random.Generator | int) -> tuple[SocialGraph, np.ndarray]:
    """A planted-partition graph: blocks of the given sizes, edge probability p_in inside a block and
    p_out across blocks, independently. Returns the graph and each vertex's block label."""
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__") or len(sizes) == 0:
        raise InvalidParameterError(f"sizes must be a non-empty sequence of block sizes >= 1. Got {sizes!r}")
    sizes = tuple(require_int(f"sizes[{k}]", s, minimum=1) for k, s in enumerate(sizes))
    inside = float(require_unit_interval("p_in", p_in, closed_right=True))
    across = float(require_unit_interval("p_out", p_out, closed_right=True))
    labels = np.repeat(np.arange(len(sizes)), sizes)
    n = labels.size
    rows, cols = np.triu_indices(n, 1)
    probability = np.where(labels[rows] == labels[cols], inside, across)
    chosen = as_generator(rng).random(rows.size) < probability
    return SocialGraph(n, np.stack([rows[chosen], cols[chosen]], axis=1), "planted partition"), labels
