"""The Q_M deciders: each confirms on its stated cases and refutes a deliberately broken likelihood (power);
Result 2 signals absent data with UNKNOWN and :data:`DATA_ABSENT`, and is decided on the real delicious LCC
when the data folder is present."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpcert.mechanisms.privact import ClusterTree, SocialGraph, likelihood, likelihood_swap_delta, social_graphs_dir
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claims.privact import likelihood_checks
from dpcert.proofs.claims.privact.likelihood_checks import (
    DATA_ABSENT,
    cmn_detailed_balance,
    hrg_pair_likelihood,
    q_m_identities,
    result_2,
)


def test_q_m_deciders_confirm():
    for decide in (q_m_identities, cmn_detailed_balance):
        verdict, evidence = decide()
        assert verdict is Verdict.CONFIRMED, evidence


def test_q_m_identities_refutes_a_likelihood_that_counts_pairs_twice(monkeypatch):
    """Power: Q_M squared (each pair counted as two ordered pairs) is refuted with a witness."""
    monkeypatch.setattr(likelihood_checks, "likelihood", lambda tree, graph: likelihood(tree, graph) ** 2)
    verdict, evidence = q_m_identities()
    assert verdict is Verdict.REFUTED and evidence.startswith("witness")


def test_cmn_detailed_balance_refutes_a_wrong_delta(monkeypatch):
    """Power: a chain accepting on 2·Δ ln Q_M (the target Q_M²) is refuted with a witness."""
    monkeypatch.setattr(likelihood_checks, "likelihood_swap_delta",
                        lambda *args: 2 * likelihood_swap_delta(*args))
    verdict, evidence = cmn_detailed_balance()
    assert verdict is Verdict.REFUTED and evidence.startswith("witness")


def test_hrg_pair_likelihood_reference_value():
    """Path 0-1-2 under ((0, 1), 2): the root splits {0,1} | {2} with 1 edge of 2 pairs (π = 1/2), node (0, 1) has
    π = 1: Q_M = (1/2)^1 (1/2)^1 · 1 = 1/4 (hand computation)."""
    tree, graph = ClusterTree.from_nested(((0, 1), 2)), SocialGraph(3, [(0, 1), (1, 2)])
    assert hrg_pair_likelihood(tree, graph) == likelihood(tree, graph) == Fraction(1, 4)


def test_result_2_signals_absent_data(tmp_path):
    verdict, evidence = result_2("lastfm", directory=str(tmp_path))
    assert verdict is Verdict.UNKNOWN and evidence.startswith(DATA_ABSENT) and "DPCERT_SOCIAL_GRAPHS" in evidence


@pytest.mark.skipif(social_graphs_dir() is None, reason="social-graph data folder absent")
def test_result_2_on_delicious():
    """Result 2 on the real delicious LCC (n = 1503) at the battery budget: CONFIRMED, and the evidence states the
    budget (2·n proposals, seed 1234) next to the paper's."""
    verdict, evidence = result_2("delicious")
    assert verdict is Verdict.CONFIRMED, evidence
    assert "2·n proposals per chain, seed 1234" in evidence and "1000·n" in evidence
