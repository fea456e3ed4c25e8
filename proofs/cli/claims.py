"""``dpcert claims``: check the registered claims and print the report, the summary first.

The report's reader sees, in order: the counts by paper and verdict (and whether each verdict is the one the
registry expects), what the verdicts mean, the papers' errors found, then one table per paper or topic and every
claim's statement, evidence and the command that reproduces it. ``--json`` prints the same as one object; the
HTML report (``dpcert report``) is built from :func:`run_claims` too.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click
from rich.markup import escape
from rich.table import Table

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.cli.output import console, emit, json_option, progress_bar

if TYPE_CHECKING:
    from dpcert.proofs.claim import Claim, ClaimOutcome
    from dpcert.proofs.registry import ClaimGroup

__all__ = ["ClaimRun", "VERDICT_MEANINGS", "claims_command", "paper_option", "run_claims"]

VERDICT_MEANINGS = {
    Verdict.PROVED: "holds for every case it covers: a proof (exact arithmetic or sympy)",
    Verdict.CONFIRMED: "checked on the stated cases in exact or rigorous arithmetic, without a proof for all cases",
    Verdict.REFUTED: "false: the evidence gives a witness",
    Verdict.PROOF_GAP: "a step of the source's proof fails: the statement is not established, nor refuted",
    Verdict.UNKNOWN: "undecided (a statistical audit that finds no violation cannot prove privacy)",
}
"""What each verdict says, as the report's legend prints it."""


@dataclass(frozen=True)
class ClaimRun:
    """The checked claims (with their outcomes) and the skipped ones (with the reason), in registry order."""

    results: tuple[tuple[Claim, ClaimOutcome], ...]
    skipped: tuple[tuple[Claim, str], ...]

    @property
    def unexpected(self) -> list[str]:
        return [c.id for c, o in self.results if o.verdict is not c.expected]

    def by_group(self) -> list[tuple[ClaimGroup, list[tuple[Claim, ClaimOutcome]]]]:
        """The checked claims of each registry table, in the registry's order (tables with none left out)."""
        from dpcert.proofs.registry import GROUPS, group_of

        grouped = [(g, [(c, o) for c, o in self.results if group_of(c) is g]) for g in GROUPS]
        return [(g, rows) for g, rows in grouped if rows]

    def as_json(self) -> dict[str, object]:
        from dpcert.proofs.registry import group_of, is_paper_error, papers_of

        def described(claim: Claim) -> dict[str, object]:
            group = group_of(claim)
            return {"id": claim.id, "group": group.key, "group_title": group.title, "papers": list(papers_of(claim)),
                    "source": claim.source, "statement": claim.statement, "expected": claim.expected.value,
                    "paper_error": is_paper_error(claim), "reproduce": claim.reproduce}

        counts = {g.key: {v.value: sum(1 for _, o in rows if o.verdict is v) for v in Verdict}
                  for g, rows in self.by_group()}
        return {"claims": [{**described(c), **o.as_json(), "as_expected": o.verdict is c.expected}
                           for c, o in self.results],
                "skipped": [{**described(c), "reason": reason} for c, reason in self.skipped],
                "verdicts": {v.value: meaning for v, meaning in VERDICT_MEANINGS.items()},
                "summary": {"total": len(self.results), "as_expected": len(self.results) - len(self.unexpected),
                            "unexpected": self.unexpected, "skipped": len(self.skipped),
                            "by_group": counts}}


CLAIM_WORKERS = min(4, os.cpu_count() or 1)
"""Processes that check registered claims at once (:func:`run_claims`); each is spawned afresh, imports dpcert and
checks the claims it is handed by id, so no claim's state is shared (the claims are independent computations)."""


class _WorkerPool(ProcessPoolExecutor):
    """A process pool that remembers its jobs, so that an interrupted caller can cancel those not started (shutdown's
    own cancel_futures is carried out by a thread that gives up once the pool object is gone, as at exit)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers, mp_context=multiprocessing.get_context("spawn"), initializer=signal.signal,
                         initargs=(signal.SIGINT, signal.SIG_IGN))
        self.jobs: list[Future] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        job = super().submit(fn, *args, **kwargs)
        self.jobs.append(job)
        return job


BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The environment variables that set how many threads numpy's and scipy's linear algebra starts in a process."""


@contextlib.contextmanager
def _blas_threads_per_worker(workers: int) -> Iterator[None]:
    """The workers spawned in this context start cores // workers linear-algebra threads each, not one per core:
    with every worker busy, more threads than cores only wait for each other (measured: ``dpcert report`` 60 s ->
    50 s on 2 cores, 111 -> 92 s of CPU). A variable the user has set is left as it is; the caller's own threads
    are not changed (its libraries read the variables when they were loaded)."""
    threads = str(max(1, (os.cpu_count() or 1) // workers))
    unset = [name for name in BLAS_THREAD_VARIABLES if name not in os.environ]
    os.environ.update(dict.fromkeys(unset, threads))
    try:
        yield
    finally:
        for name in unset:
            os.environ.pop(name, None)


@contextlib.contextmanager
def worker_pool(workers: int | None = None) -> Iterator[Executor]:
    """``workers`` spawned processes (default :data:`CLAIM_WORKERS`) that ignore Ctrl-C: it stops the caller here,
    which then cancels the jobs not started (the few running finish in the background, seconds) instead of waiting
    for all of them. Each starts cores // workers linear-algebra threads."""
    workers = CLAIM_WORKERS if workers is None else workers
    with _blas_threads_per_worker(workers):
        pool = _WorkerPool(workers)
        try:
            yield pool
        except BaseException:
            for job in pool.jobs:
                job.cancel()
            pool.shutdown(wait=False)
            raise
        pool.shutdown()


def run_claims(selected: Sequence[Claim], *, workers: int | None = None, pool: Executor | None = None) -> ClaimRun:
    """Check ``selected`` (a progress bar on a terminal's stderr); claims this machine cannot decide are skipped.

    Registered claims are checked in ``pool``, or in a :func:`worker_pool` of ``workers`` processes (default
    :data:`CLAIM_WORKERS`), each outcome sent back :meth:`~dpcert.proofs.claim.ClaimOutcome.portable` (its witness as
    JSON, without the certificate object); any other claims, or one worker, in this process."""
    workers = CLAIM_WORKERS if workers is None else workers
    reasons = [(c, c.unavailable()) for c in selected]
    available = [c for c, reason in reasons if reason is None]
    skipped = tuple((c, reason) for c, reason in reasons if reason is not None)
    outcomes: dict[str, ClaimOutcome] = {}
    with progress_bar() as progress:
        task = progress.add_task("checking claims", total=len(available))
        if (pool is not None or workers > 1) and len(available) > 1 and _registered(available):
            with contextlib.nullcontext(pool) if pool is not None else worker_pool(workers) as checking:
                futures = {checking.submit(_check_registered, claim.id): claim for claim in available}
                for future in as_completed(futures):
                    outcomes[futures[future].id] = future.result()
                    progress.advance(task)
        else:
            for claim in available:
                progress.update(task, description=f"checking {claim.id}")
                outcomes[claim.id] = claim.check()
                progress.advance(task)
    return ClaimRun(tuple((c, outcomes[c.id]) for c in available), skipped)


def _registered(selected: Sequence[Claim]) -> bool:
    """Whether every claim of ``selected`` is the registry's (a worker finds it by id)."""
    from dpcert.proofs.registry import claims

    registry = {c.id: c for c in claims()}
    return all(registry.get(c.id) is c for c in selected)


def _check_registered(claim_id: str) -> ClaimOutcome:
    """The outcome of the registered claim ``claim_id`` (run in a worker process)."""
    from dpcert.proofs.registry import claims

    (claim,) = claims(ids=(claim_id,))
    return claim.check().portable()


paper_option = click.option(
    "--paper", default=None, metavar="KEY",
    help="only one seed paper's claims: price_of_privacy, online_recommendation, metric_user_level, privact")
"""``--paper KEY`` of ``claims`` and ``report`` (the keys of :data:`dpcert.proofs.registry.PAPERS`, checked there)."""


@click.command("claims")
@click.option("--id", "ids", multiple=True, metavar="ID", help="only this claim (repeat for several)")
@paper_option
@click.option("--source", default=None, help="only claims whose source mentions this text")
@json_option
def claims_command(ids: tuple[str, ...], paper: str | None, source: str | None, as_json: bool) -> None:
    """Check the registered claims and print the report: the summary, the papers' errors, then every claim.

    Exit 0 when every claim gets the verdict the registry expects (paper errors and negative controls
    are expected to be refuted), 1 otherwise. A claim that needs what this machine lacks (the PrivaCT
    social graphs and ratings, ../shared/data/social-graphs or $DPCERT_SOCIAL_GRAPHS) is listed as skipped.
    """
    from dpcert.proofs.registry import claims

    selected = claims(source=source, ids=ids, paper=paper)
    if not selected:
        raise InvalidParameterError(f"--source, --paper and --id together match no registered claim. Got --source "
                               f"{source!r}, --paper {paper!r}, --id {list(ids)!r}")
    run = run_claims(selected)
    if as_json:
        emit(True, run.as_json(), "")
    else:
        _print_report(run)
    sys.exit(1 if run.unexpected else 0)


def _print_report(run: ClaimRun) -> None:
    from dpcert.proofs.registry import is_paper_error

    checked, unexpected, groups = len(run.results), run.unexpected, run.by_group()
    console.print(f"[bold]dpcert claims[/bold]: {checked - len(unexpected)} of {checked} got the verdict the registry "
                  f"expects" + (f" ([red]{len(unexpected)} did not: {', '.join(unexpected)}[/red])" if unexpected
                                else "") + (f"; {len(run.skipped)} skipped" if run.skipped else ""))
    summary = Table(title="Verdicts by paper and topic", title_justify="left")
    summary.add_column("key")
    for verdict in Verdict:
        summary.add_column(verdict.value, justify="right")
    summary.add_column("as expected", justify="right")
    for group, rows in groups:
        summary.add_row(group.key, *[str(sum(1 for _, o in rows if o.verdict is v) or "") for v in Verdict],
                        f"{sum(1 for c, o in rows if o.verdict is c.expected)}/{len(rows)}")
    console.print(summary)
    console.print("[bold]Verdicts[/bold] (a refuted claim is expected where the registry lists a paper's error or a "
                  "negative control; the column 'expected' says which verdict each claim should get):")
    for verdict, meaning in VERDICT_MEANINGS.items():
        console.print(f"  [{verdict.colour}]{verdict.value}[/{verdict.colour}]: {meaning}")
    errors = [(c, o) for c, o in run.results if is_paper_error(c)]
    if errors:
        console.print(f"\n[bold]The papers' errors found[/bold] ({len(errors)}):")
        for c, o in errors:
            console.print(f"  [bold]{escape(c.id)}[/bold] ({escape(c.source)}): {o.verdict.value}")
    for group, rows in groups:
        table = Table(title=f"{group.key}: {group.title}", title_justify="left")
        for column in ("id", "verdict", "expected", "method"):
            table.add_column(column, overflow="fold")
        for c, o in rows:
            status = "as expected" if o.verdict is c.expected else f"[red]UNEXPECTED: {c.expected.value}[/red]"
            table.add_row(c.id, f"[{o.verdict.colour}]{o.verdict.value}[/{o.verdict.colour}]", status, o.method)
        console.print(table)
    console.print("\n[bold]Every claim[/bold]: statement, evidence, and the command that reproduces it")
    for c, o in run.results:
        console.print(f"[bold]{escape(c.id)}[/bold] ({escape(c.source)}): {escape(c.statement)}\n"
                      f"    {o.verdict.value}: {escape(o.evidence)}\n    reproduce: {escape(c.reproduce)}")
    for c, reason in run.skipped:
        console.print(f"[bold]{escape(c.id)}[/bold] [yellow]skipped[/yellow]: {escape(reason)}")
