"""The audit's sampling runs unchanged through a dask.distributed client's executor (the optional `dask`
extra): same seeds, same chunks, so exactly the same result as in-process, and a violation is still caught."""

from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from dpcert.mechanisms import KaryRandomizedResponse  # noqa: E402
from dpcert.mechanisms.catalog import make_mechanism  # noqa: E402
from dpcert.proofs.audit import audit  # noqa: E402


@pytest.fixture(scope="module")
def dask_executor():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client.get_executor()


def test_dask_executor_gives_the_in_process_result(dask_executor):
    mechanism = KaryRandomizedResponse(3, 1)
    remote = audit(mechanism, eps=1, samples=100_000, seed=3, executor=dask_executor, chunk=20_000)
    local = audit(mechanism, eps=1, samples=100_000, seed=3, chunk=20_000)
    assert remote.epsilon_lower_bound == local.epsilon_lower_bound
    assert remote.witness == local.witness and remote.verdict == local.verdict == "no-violation-found"


def test_dask_executor_catches_a_violation(dask_executor):
    # histogram with noise scale eps claimed eps-DP at eps = 1/10 (Ding et al. 2018): caught with a lower
    # bound far above 1/10; confidence 1 - 1e-6, fixed seed
    broken = make_mechanism("histogram-wrong-scale", raw={"eps": "1/10"})
    result = audit(broken, eps="1/10", samples=10_000, confidence=1 - 1e-6, seed=1, executor=dask_executor)
    assert result.verdict == "violation" and result.epsilon_lower_bound > 1
