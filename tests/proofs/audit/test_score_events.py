"""The learned-score events of the audit (dpcert.proofs.audit.events) on vector outputs.

References: DP-Sniper's RAPPOR and LaplaceParallel (Bichsel et al., S&P 2021; github.com/eth-sri/dp-sniper), the
zoo's `rappor` at DP-Sniper's f = 0.75 (eps = 8 ln(5/3)) and `laplace-parallel`: each RAPPOR report bit is 1 with
probability 0.5125 where the filter bit is set and 0.4875 where not, and the filters of inputs 1 and 0 differ in 6
bits, so the pair's true eps is 6 ln(0.5125 / 0.4875) = 0.300; twenty Laplace(b) releases of an answer of
sensitivity 1 are 20/b-DP.

False-failure probabilities: every audit of a private sampler runs at confidence 1 - 1e-6 (a false violation with
probability <= 1e-6 each); the power checks use fixed seeds and margins measured wide (in the comments).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpcert.mechanisms.catalog import make_mechanism
from dpcert.proofs.audit import audit
from dpcert.proofs.audit import events as events_module
from dpcert.proofs.audit.events import RowCode, ScoreEvent, ThresholdEvent

STRICT = 1 - 1e-6
_RAPPOR = make_mechanism("rappor", raw={"eps": "8*log(5/3)"}).sample


def _laplace_parallel(scale):
    return make_mechanism("laplace-parallel", raw={"eps": f"1/{scale:g}", "n": "20"}).sample


def _without_scores(monkeypatch):
    monkeypatch.setattr(events_module, "_select_score", lambda *args, **kwargs: (None, 0.0))
    monkeypatch.setattr(events_module, "_select_side_score", lambda *args: (None, 0.0))


@pytest.mark.statistical
def test_a_learned_score_catches_rappor_where_sets_of_reports_overfit(monkeypatch):
    """RAPPOR's 2^20 reports: at 200,000 samples per input the score finds a bound near the true 0.300 (measured
    0.18), while the reports chosen one by one did not reach 0.05 (measured 0.000): the family that wins on the
    held-out part of the selection sample is the score."""
    result = audit(_RAPPOR, eps="1/100", pairs=[(1, 0)], samples=200_000, confidence=0.9, seed=3)
    assert result.verdict == "violation" and 0.1 < result.epsilon_lower_bound <= 0.300
    assert " y[" in result.witness.event  # a linear score of the bits
    _without_scores(monkeypatch)
    broken = audit(_RAPPOR, eps="1/100", pairs=[(1, 0)], samples=200_000, confidence=0.9, seed=3)
    assert broken.epsilon_lower_bound < 0.05


@pytest.mark.statistical
def test_a_side_score_combines_heavy_tailed_coordinates(monkeypatch):
    """Twenty Laplace(20) releases of one answer (true eps 1): counting the coordinates above their medians (the
    likelihood ratio's shape for Laplace noise) gives a bound the best single coordinate cannot (measured 0.49
    against 0.02 at 100,000 samples per input)."""
    result = audit(_laplace_parallel(20.0), eps="1/10", pairs=[(1.0, 0.0)], samples=100_000, confidence=0.9, seed=5)
    assert result.verdict == "violation" and 0.3 < result.epsilon_lower_bound <= 1.0
    _without_scores(monkeypatch)
    broken = audit(_laplace_parallel(20.0), eps="1/10", pairs=[(1.0, 0.0)], samples=100_000, confidence=0.9, seed=5)
    assert broken.epsilon_lower_bound < 0.2


@pytest.mark.statistical
@pytest.mark.parametrize("seed", [0, 1])
def test_private_vector_samplers_are_not_flagged(seed):
    """At their true eps (RAPPOR's pair: 0.300; twenty Laplace(20): 1) and confidence 1 - 1e-6: no violation."""
    assert audit(_RAPPOR, eps="0.3", pairs=[(1, 0)], samples=100_000, confidence=STRICT,
                 seed=seed).verdict == "no-violation-found"
    assert audit(_laplace_parallel(20.0), eps=1, pairs=[(1.0, 0.0)], samples=100_000, confidence=STRICT,
                 seed=seed).verdict == "no-violation-found"


def test_row_codes_round_trip_and_leave_out_rows_they_do_not_cover():
    rows = np.array([[0, 1, 2], [2, 2, 0], [1, 0, 0]])
    code = RowCode.of(rows)
    assert code == RowCode(3, 3)
    keys, valid = code.encode(rows)
    assert valid.all() and [code.decode(k) for k in keys] == [tuple(r) for r in rows.tolist()]
    _, valid = code.encode(np.array([[0, 3, 0], [0, 0.5, 0], [1, 1, 1]]))
    assert valid.tolist() == [False, False, True]
    assert RowCode.of(np.array([[0.5, 1.0]])) is None and RowCode.of(np.array([[-1, 0]])) is None


def test_a_score_event_counts_what_it_describes():
    event = ScoreEvent((1.0, -2.0), ThresholdEvent(None, 0.5, ">="))
    outputs = np.array([[1.0, 0.0], [1.0, 1.0], [3.0, 1.0]])
    assert event.count(outputs) == 2 and event.describe() == "1 y[0] + -2 y[1] >= 0.5"
    outputs = np.array([[2.0, -1.0], [0.0, 0.0], [5.0, 3.0]])  # sides: 1 + 0, 1/2 + 1/2, 1 + 1
    assert ScoreEvent((1.0, 1.0), ThresholdEvent(None, 1.0, ">="), centres=(0.0, 0.0)).count(outputs) == 3
    assert ScoreEvent((1.0, 1.0), ThresholdEvent(None, 1.5, ">="), centres=(0.0, 0.0)).count(outputs) == 1


def test_real_vectors_are_chosen_on_in_float32_and_events_still_count_the_float64_outputs():
    """The selection sample of real vector outputs is kept in float32 (half the memory); a value outside float32's
    normal range brings it back to float64; a conditioned event chosen on float32 keys compares the confirmation's
    float64 keys rounded the same way, so a key of 0.1 still matches."""
    from dpcert.proofs.audit.events import ConditionedThresholdEvent, is_continuous
    from dpcert.proofs.audit.sampling import draw_all

    def sampler(x, size, rng):
        return np.column_stack([np.full(size, 0.1), rng.normal(x, 1.0, size)])

    seed = np.random.SeedSequence(0)
    kept = draw_all(sampler, [0.0, 1.0], 1000, seed, 300, None, compact=is_continuous)
    assert all(a.dtype == np.float32 for a in kept)
    assert draw_all(sampler, [0.0], 1000, seed, 300, None)[0].dtype == np.float64  # not asked to compact
    huge = draw_all(lambda x, size, rng: rng.normal(0, 1e300, (size, 2)), [0.0], 1000, seed, 300, None,
                    compact=is_continuous)
    assert huge[0].dtype == np.float64
    event = ConditionedThresholdEvent(0, float(np.float32(0.1)), ThresholdEvent(1, 0.0, ">="), single=True)
    outputs = np.array([[0.1, 1.0], [0.1, -1.0], [0.2, 1.0]])
    assert event.count(outputs) == 1
    assert ConditionedThresholdEvent(0, float(np.float32(0.1)), ThresholdEvent(1, 0.0, ">=")).count(outputs) == 0
