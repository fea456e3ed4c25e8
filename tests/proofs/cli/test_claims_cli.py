"""``dpcert claims``: selecting claims (--id, --paper), the report's order and fields, and every claim's ``reproduce``
command run for real and giving the claim's verdict."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import run_cli

from dpcert.proofs.registry import CLAIMS, GROUPS, PAPERS, group_of, is_paper_error

run = run_cli


def test_several_ids_select_exactly_those_claims_with_their_fields(capsys):
    code, out, _ = run(capsys, "claims", "--id", "k-rr", "--id", "laplace-wrong-scale", "--json")
    payload = json.loads(out)
    assert code == 0 and [c["id"] for c in payload["claims"]] == ["k-rr", "laplace-wrong-scale"]
    shown = payload["claims"][1]
    assert shown["verdict"] == shown["expected"] == "refuted" and shown["as_expected"] is True
    assert shown["group"] == "standard" and shown["reproduce"].startswith("dpcert verify laplace-wrong-scale ")
    assert payload["summary"]["by_group"] == {"standard": {"proved": 1, "confirmed": 0, "refuted": 1, "proof-gap": 0,
                                                           "unknown": 0}}
    assert set(payload["verdicts"]) == {"proved", "confirmed", "refuted", "proof-gap", "unknown"}


def test_an_unknown_id_names_the_nearest_ids_and_exits_2(capsys):
    code, out, err = run(capsys, "claims", "--id", "zoo-svt9")
    assert code == 2 and not out
    assert err.strip().startswith("dpcert: error: --id 'zoo-svt9' is no registered claim; nearest: zoo-svt")
    assert "\n" not in err.strip()


def test_a_paper_key_selects_its_table_and_the_claims_citing_it(capsys):
    selected = [c for c in CLAIMS if group_of(c).key == "metric_user_level" or PAPERS["metric_user_level"].paper
                in c.source]
    assert any(group_of(c).key == "shuffle" for c in selected)  # the shuffle table cites the paper's eq. (7)
    code, _, err = run(capsys, "claims", "--paper", "nonsense")
    assert code == 2 and "--paper must be one of price_of_privacy, online_recommendation" in err


def test_the_report_gives_the_summary_the_legend_and_the_papers_errors_before_the_tables(capsys):
    code, out, _ = run(capsys, "claims", "--paper", "online_recommendation")
    assert code == 0
    order = [out.index(text) for text in ("got the verdict the registry expects", "Verdicts by paper and topic",
                                          "proof-gap: a step of the source's proof fails", "The papers' errors found",
                                          "online_recommendation: Gilbert, Liu, Yu", "reproduce: dpcert claims --id")]
    assert order == sorted(order)
    assert "lemma4-equivalence" in out[order[3]:order[4]]  # a paper error, listed before the tables
    assert max(len(line) for line in out.splitlines()) <= 100  # not a terminal: 100 columns


def test_paper_errors_are_the_seed_papers_expected_refutations_not_the_controls():
    errors = [c for c in CLAIMS if is_paper_error(c)]
    assert errors and all(c.expected.value in ("refuted", "proof-gap") for c in errors)
    assert not any("negative control" in c.source for c in errors)
    assert {group_of(c).key for c in errors} >= set(PAPERS)  # every seed paper has errors on record
    assert [g.key for g in GROUPS][:4] == list(PAPERS)


_DPCERT = (sys.executable, "-c", "from dpcert.proofs.cli.app import main; main()")
"""The installed command line, run as ``dpcert`` would run it."""


def _verdict_of(command: str) -> str:
    """The verdict a reproduce command prints (``--json``), run as a user would, in a fresh process."""
    words = shlex.split(command)
    assert words[0] == "dpcert"
    done = subprocess.run([*_DPCERT, *words[1:], "--json"], capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1, 3), f"{command}: exit {done.returncode}: {done.stderr[-500:]}"
    return json.loads(done.stdout)["verdict"]


def test_every_reproduce_command_gives_the_claim_s_verdict():
    """The ``dpcert verify`` commands one by one; the ``dpcert claims --id ID`` ones in two processes of several
    ids each (the same commands, their --id options joined), on the machine's two cores."""
    available = [c for c in CLAIMS if c.unavailable() is None]
    verify = [c for c in available if not c.reproduce.startswith("dpcert claims --id ")]
    rerun = [c for c in available if c.reproduce.startswith("dpcert claims --id ")]
    assert verify and rerun and all(c.reproduce == f"dpcert claims --id {c.id}" for c in rerun)
    halves = [rerun[0::2], rerun[1::2]]

    def claims_run(part):
        words = [w for c in part for w in shlex.split(c.reproduce)[2:]]
        done = subprocess.run([*_DPCERT, "claims", *words, "--json"], capture_output=True, text=True, timeout=1200)
        assert done.returncode in (0, 1), done.stderr[-500:]
        return {c["id"]: c["verdict"] for c in json.loads(done.stdout)["claims"]}

    with ThreadPoolExecutor(2) as pool:
        found = {k: v for part in pool.map(claims_run, halves) for k, v in part.items()}
    assert found == {c.id: c.expected.value for c in rerun}
    assert {c.id: _verdict_of(c.reproduce) for c in verify} == {c.id: c.expected.value for c in verify}


def test_claims_checked_in_worker_processes_report_what_one_process_does():
    """run_claims in two spawned workers gives the same verdicts, evidence and witnesses (as JSON) as in this process:
    claims with a certificate whose replay is a closure (laplace-wrong-scale's continuous witness), a refuted finite
    one with its witness (thm10-membership-query-not-private), a proved one and a statistical one."""
    from dpcert.proofs.cli.claims import run_claims
    from dpcert.proofs.registry import claims

    chosen = claims(ids=("laplace-wrong-scale", "thm10-membership-query-not-private", "k-rr", "zoo-svt5"))
    here, there = run_claims(chosen, workers=1), run_claims(chosen, workers=2)
    assert [c.id for c, _ in there.results] == [c.id for c in chosen]
    assert here.as_json() == there.as_json()
    assert all(o.certificate is None for _, o in there.results)
    assert any(c["witness"] is not None for c in there.as_json()["claims"])


def test_an_interrupted_worker_pool_cancels_the_jobs_it_has_not_started():
    """Ctrl-C stops ``dpcert claims`` and ``dpcert report`` in the main process; the pool then cancels every job not
    yet started (shutdown's own cancel_futures needs the pool object alive, which it is not at exit: an interrupted
    report had gone on for all its claims, 30 s), so only the few running ones finish."""
    import time

    from dpcert.proofs.cli.claims import worker_pool

    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2) as pool:
            jobs = [pool.submit(time.sleep, 0.05) for _ in range(200)]
            jobs[0].result()
            raise KeyboardInterrupt
    assert sum(job.cancelled() for job in jobs) >= 190


def test_pool_workers_start_cores_over_workers_linear_algebra_threads(monkeypatch):
    """Each spawned worker reads OPENBLAS_NUM_THREADS (and OMP_, MKL_) = cores // workers, so busy workers do not
    start more threads than cores; a value the user set reaches the workers unchanged, and the caller's environment
    is as it was afterwards."""
    import os

    from dpcert.proofs.cli.claims import BLAS_THREAD_VARIABLES, worker_pool

    for name in BLAS_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    with worker_pool(2) as pool:
        seen = [pool.submit(os.getenv, name).result() for name in BLAS_THREAD_VARIABLES]
    expected = str(max(1, (os.cpu_count() or 1) // 2))
    assert seen == [expected, expected, "3"]
    assert "OPENBLAS_NUM_THREADS" not in os.environ and "OMP_NUM_THREADS" not in os.environ
    assert os.environ["MKL_NUM_THREADS"] == "3"
