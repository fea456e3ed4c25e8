"""The federated graph input: edge lists, LCC, Table 1 (TC-E1) and K = ⌊ln n⌋ (TC-N8) on the real files.

Real-data tests skip when the social-graph folder is absent (it is never part of the repository).
"""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import (
    SOCIAL_GRAPHS_ENV,
    TABLE1,
    SocialGraph,
    bins_for,
    generated_like,
    load_social_graph,
    planted_partition_graph,
    read_edge_list,
    social_graphs_dir,
)

REAL = social_graphs_dir()
needs_data = pytest.mark.skipif(REAL is None, reason="social-graph data folder absent (../shared/data/social-graphs)")


@needs_data
@pytest.mark.parametrize("name", list(TABLE1))
def test_table1_counts_and_density_from_the_real_files(name):
    """TC-E1: the LCC of each file has Table 1's n and |E|, and 2|E|/(n(n-1)) rounds to its density.

    Reference: 004_a0cddc0a7a24fb37.txt, Table 1 (0.0075, 0.0056, 0.0062, printed to 4 d.p.);
    spec §4.1 gives the unrounded 0.007463, 0.005626, 0.006212.
    """
    graph = load_social_graph(name)
    n, edges, printed = TABLE1[name]
    assert (graph.n, graph.edge_count) == (n, edges)
    density = graph.density()
    assert density == Fraction(2 * edges, n * (n - 1))
    assert abs(density - Fraction(printed)) < Fraction(1, 20000)  # rounds to the printed 4 decimals
    unrounded = {"lastfm": "0.007463", "delicious": "0.005626", "douban": "0.006212"}[name]
    assert abs(density - Fraction(unrounded)) < Fraction(1, 2_000_000)
    # the LCC really is connected, and the whole file is larger for lastfm and delicious (spec §4.1)
    assert nx.is_connected(graph.to_networkx())
    whole = read_edge_list(REAL / name / "edges.txt")
    assert (whole.n > n) == (name != "douban")


@needs_data
@pytest.mark.parametrize("name", list(TABLE1))
def test_bins_are_seven_on_the_real_graphs(name):
    """TC-N8: K = ⌊ln n⌋ = 7 on all three networks (log2 would give 10, 10, 11)."""
    graph = load_social_graph(name)
    assert bins_for(graph.n) == 7
    assert int(np.floor(np.log2(graph.n))) == {"lastfm": 10, "delicious": 10, "douban": 11}[name]


def test_bins_for_is_the_exact_floor_of_the_natural_log():
    """TC-N8 / spec A2: K = ⌊ln n⌋ exactly, also next to the jumps e^k."""
    for n in (3, 7, 8, 20, 21, 54, 55, 148, 149, 1096, 1097, 1843, 1503, 2848):
        assert bins_for(n) == int(np.floor(np.log(n)))
    assert [bins_for(n) for n in (20, 21)] == [2, 3]  # e^3 = 20.09
    assert [bins_for(n) for n in (1096, 1097)] == [6, 7]  # e^7 = 1096.6


def test_read_edge_list_deduplicates_both_directions_and_relabels(tmp_path):
    """The data format: u<TAB>v, an edge in one or both directions, arbitrary integer ids."""
    path = tmp_path / "edges.txt"
    path.write_text("10\t20\n20\t10\n20\t30\n30\t30\n40\t50\n")
    graph = read_edge_list(path)
    assert graph.n == 5 and graph.edge_count == 3  # {10,20}, {20,30}, {40,50}; the self-loop dropped
    assert graph.edges.tolist() == [[0, 1], [1, 2], [3, 4]]
    lcc = graph.largest_connected_component()
    assert (lcc.n, lcc.edge_count, lcc.edges.tolist()) == (3, 2, [[0, 1], [1, 2]])
    assert lcc.adjacency.toarray().tolist() == [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    assert lcc.degrees().tolist() == [1, 2, 1]


def test_data_folder_lookup_order_and_fallback(tmp_path, monkeypatch):
    """The folder comes from the argument, then $DPCERT_SOCIAL_GRAPHS; absent data are refused, and a generated
    graph is there only when asked for by name (generated_like)."""
    (tmp_path / "lastfm").mkdir()
    (tmp_path / "lastfm" / "edges.txt").write_text("1\t2\n2\t3\n")
    monkeypatch.setenv(SOCIAL_GRAPHS_ENV, str(tmp_path))
    assert social_graphs_dir() == tmp_path
    graph = load_social_graph("lastfm")
    assert (graph.n, graph.edge_count, graph.name) == (3, 2, "lastfm")
    missing = tmp_path / "nowhere"
    assert social_graphs_dir(directory=missing) is None
    # a named network is read or refused, never replaced by a generated graph
    with pytest.raises(InvalidParameterError, match="^directory must hold delicious/edges.txt.*nowhere"):
        load_social_graph("delicious", directory=missing)
    with pytest.raises(InvalidParameterError, match="^directory must hold douban/edges.txt"):
        load_social_graph("douban", directory=tmp_path)
    stand_in = generated_like("delicious", rng=3)
    n, m, _ = TABLE1["delicious"]
    assert stand_in.source == "generated" and stand_in.n <= n and stand_in.edge_count <= m
    assert stand_in.n > n // 2 and nx.is_connected(stand_in.to_networkx())


def test_planted_partition_graph_has_the_planted_densities():
    """The planted graph used by the end-to-end tests: block labels, within/across densities near p_in/p_out."""
    graph, labels = planted_partition_graph((30, 20), 0.8, 0.1, np.random.default_rng(5))
    assert labels.tolist() == [0] * 30 + [1] * 20
    adjacency = graph.adjacency.toarray()
    same = labels[:, None] == labels[None, :]
    inside = adjacency[same & ~np.eye(50, dtype=bool)].mean()
    across = adjacency[~same].mean()
    assert 0.7 < inside < 0.9 and 0.05 < across < 0.15
    assert SocialGraph.from_networkx(graph.to_networkx()).edges.tolist() == graph.edges.tolist()


def test_the_data_are_found_beside_the_current_directory(tmp_path, monkeypatch):
    # a checkout dpcert was installed from (not editable): the package lives elsewhere (here: a made-up
    # site-packages), and ../shared/data/social-graphs sits beside the directory it runs in
    from dpcert.mechanisms.privact import graphs

    monkeypatch.delenv(SOCIAL_GRAPHS_ENV, raising=False)
    installed = tmp_path / "site-packages" / "dpcert" / "mechanisms" / "privact" / "graphs.py"
    monkeypatch.setattr(graphs, "__file__", str(installed))
    folder = tmp_path / "shared" / "data" / "social-graphs"
    (folder / "lastfm").mkdir(parents=True)
    (folder / "lastfm" / "edges.txt").write_text("1\t2\n2\t3\n")
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    assert social_graphs_dir() == folder and load_social_graph("lastfm").n == 3
    monkeypatch.chdir(tmp_path)  # now ../shared is tmp_path's parent's: nothing there, and the message says where
    assert social_graphs_dir() is None
    with pytest.raises(InvalidParameterError, match="site-packages/shared/data/social-graphs or "):
        load_social_graph("lastfm")
