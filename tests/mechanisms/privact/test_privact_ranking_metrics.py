"""NDCG@k and MAP@k of Appendix A.2 (004_a0cddc0a7a24fb37.txt) against hand-computed rankings, and the
properties of spec TC-E5 (properties of dpcert's metric code, not statements of the paper, so they stay tests)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact.ranking_metrics import hits, ranking_scores


def test_hand_computed_lists():
    # user 0: list [7, 1, 8, 2], relevant {7, 8}: r = 1, 0, 1, 0 (R = 2, k = 4)
    #   DCG = 1/log2(2) + 1/log2(4) = 1 + 1/2 = 3/2; IDCG = 1/log2(2) + 1/log2(3) = 1 + 0.6309297535714575
    #   Σ p_i r_i = 1/1 + 2/3 = 5/3; AP (code) = (5/3)/min(2, 4) = 5/6; AP (paper) = (5/3)/4 = 5/12
    # user 1: list [3, 4, 5, 6], relevant {6, 9, 10}: r = 0, 0, 0, 1 (R = 3)
    #   DCG = 1/log2(5); IDCG = 1 + 1/log2(3) + 1/2; Σ p_i r_i = 1/4; AP (code) = 1/12; AP (paper) = 1/16
    scores = ranking_scores(np.array([[7, 1, 8, 2], [3, 4, 5, 6]]), [np.array([7, 8]), np.array([6, 9, 10])])
    assert scores.ndcg == pytest.approx([1.5 / (1 + 1 / math.log2(3)), (1 / math.log2(5)) / (1.5 + 1 / math.log2(3))],
                                        rel=1e-15)
    assert scores.ndcg[0] == pytest.approx(0.9197207891481876, rel=1e-15)
    assert scores.ap_code == pytest.approx([5 / 6, 1 / 12], rel=1e-15)
    assert scores.ap_paper == pytest.approx([5 / 12, 1 / 16], rel=1e-15)
    assert scores.map_code == pytest.approx((5 / 6 + 1 / 12) / 2, rel=1e-15)


def test_a_longer_cut_off_counts_the_missing_ranks_as_misses():
    # list [1] with k = 3 and relevant {1, 2}: DCG = 1, IDCG = 1 + 1/log2(3); AP (code) = 1/2, AP (paper) = 1/3
    scores = ranking_scores(np.array([[1]]), [np.array([1, 2])], k=3)
    assert scores.ndcg[0] == pytest.approx(1 / (1 + 1 / math.log2(3)), rel=1e-15)
    assert (scores.ap_code[0], scores.ap_paper[0]) == pytest.approx((1 / 2, 1 / 3), rel=1e-15)


@st.composite
def lists_and_relevance(draw):
    items = draw(st.integers(2, 30))
    users = draw(st.integers(1, 5))
    k = draw(st.integers(1, items))
    rows, relevant = [], []
    for _ in range(users):
        rows.append(draw(st.permutations(range(items)))[:k])
        relevant.append(np.array(draw(st.lists(st.integers(0, items - 1), min_size=1, max_size=items, unique=True))))
    return np.array(rows), relevant, k


@given(lists_and_relevance())
def test_tc_e5_ranges(case):
    # spec TC-E5: NDCG and the code's AP lie in [0, 1]; the paper's AP is at most min(R, k)/k
    lists, relevant, k = case
    scores = ranking_scores(lists, relevant)
    assert ((0 <= scores.ndcg) & (scores.ndcg <= 1 + 1e-12)).all()
    assert ((0 <= scores.ap_code) & (scores.ap_code <= 1 + 1e-12)).all()
    bound = np.minimum([len(r) for r in relevant], k) / k
    assert (scores.ap_paper <= bound + 1e-12).all()


@given(lists_and_relevance())
def test_tc_e5_a_perfect_list_scores_one(case):
    # the relevant items first: NDCG = AP (code) = 1; the paper's AP = min(R, k)/k, below 1 when R < k
    lists, relevant, k = case
    items = lists.max() + 1 if lists.size else 1
    perfect = np.array([np.concatenate([r, np.setdiff1d(np.arange(max(items, r.max() + 1)), r)])[:k] for r in relevant])
    scores = ranking_scores(perfect, relevant)
    assert scores.ndcg == pytest.approx(np.ones(len(relevant)), rel=1e-12)
    assert scores.ap_code == pytest.approx(np.ones(len(relevant)), rel=1e-12)
    assert scores.ap_paper == pytest.approx(np.minimum([len(r) for r in relevant], k) / k, rel=1e-12)


def test_hits_marks_relevant_ranks():
    assert hits(np.array([[3, 1, 2]]), [np.array([2, 3])]).tolist() == [[True, False, True]]


@pytest.mark.parametrize("call, name", [
    (lambda: ranking_scores(np.array([[1, 2]]), [np.array([], dtype=int)]), "relevant"),
    (lambda: ranking_scores(np.array([[1, 1]]), [np.array([1])]), "top_k"),
    (lambda: ranking_scores(np.array([[1, 2]]), [np.array([1])], k=1), "k"),
    (lambda: ranking_scores(np.array([1, 2]), [np.array([1])]), "top_k"),
    (lambda: ranking_scores(np.array([[1, 2]]), [np.array([1]), np.array([2])]), "relevant"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(InvalidParameterError, match=f"^{name} "):
        call()
