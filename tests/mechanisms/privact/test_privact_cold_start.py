"""Section 7's cold-start experiment (Tables 4 and 5 of 004_a0cddc0a7a24fb37.txt) end to end on a made-up data
folder, its bad inputs, and one short run on the real delicious data (skipped when the folder is absent)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import write_synthetic_social_data

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import social_graphs_dir
from dpcert.mechanisms.privact.cold_start import STRATEGIES, TABLE4, TABLE5, cold_start_tables


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return write_synthetic_social_data(tmp_path_factory.mktemp("social"))


def test_tables_on_a_synthetic_folder(synthetic):
    steps = []
    tables = cold_start_tables("lastfm", directory=synthetic, iterations_per_node=2, tree_seeds=(1, 2),
                               split_seeds=(67, 13), k=10, progress=lambda done, total: steps.append((done, total)))
    assert steps == [(1, 4), (2, 4), (3, 4), (4, 4)]
    for table in (tables.current, tables.older):
        assert set(table) == set(STRATEGIES)
        assert [table[s].runs for s in STRATEGIES] == [2, 2, 4]
        assert all(0 <= table[s].map_paper <= table[s].map_code <= 1 and 0 <= table[s].ndcg <= 1 for s in STRATEGIES)
    assert tables.current["itemAvg"] == tables.older["itemAvg"]  # itemAvg has no fallback tier
    payload = tables.as_json()
    assert payload["table4_current_ordering"]["PRIVACT-CF"]["paper_ndcg"] == float(TABLE4["lastfm"]["PRIVACT-CF"][0])


def test_paper_tables_transcribed():
    # Table 4, lastfm PRIVACT-CF: NDCG 5.54E-02, MAP 7.68E-03; Table 5, douban PRIVACT-CF: 7.800E-02, 2.000E-02
    assert TABLE4["lastfm"]["PRIVACT-CF"] == (Fraction(554, 10**4), Fraction(768, 10**5))
    assert TABLE5["douban"]["PRIVACT-CF"] == (Fraction(78, 10**3), Fraction(2, 10**2))


@pytest.mark.parametrize("kwargs, name", [
    ({"network": "douban"}, "network"),
    ({"network": "orkut"}, "network"),
    ({"network": "lastfm", "k": 0}, "k"),
    ({"network": "lastfm", "tree_seeds": ()}, "tree_seeds"),
    ({"network": "lastfm", "split_seeds": (-1,)}, "split_seeds"),
    ({"network": "lastfm", "iterations_per_node": -1}, "iterations_per_node"),
])
def test_bad_input_names_the_parameter(synthetic, kwargs, name):
    with pytest.raises(InvalidParameterError, match=f"^{name} "):
        cold_start_tables(kwargs.pop("network"), directory=synthetic, **kwargs)


def test_missing_folder_names_the_directory(tmp_path):
    with pytest.raises(InvalidParameterError, match="^directory "):
        cold_start_tables("lastfm", directory=tmp_path / "absent")


def test_real_delicious_item_average_near_table_4():
    # itemAvg involves no tree: split 67 alone lands within a factor 2 of Table 4's NDCG 8.82E-04 (measured 9.6E-04)
    if social_graphs_dir() is None:
        pytest.skip("the social-graph data folder is absent")
    tables = cold_start_tables("delicious", iterations_per_node=1, tree_seeds=(1234,), split_seeds=(67,))
    paper = float(TABLE4["delicious"]["itemAvg"][0])
    assert paper / 2 <= tables.current["itemAvg"].ndcg <= 2 * paper
