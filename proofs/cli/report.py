"""``dpcert report --out report.html``: the claims report as one self-contained HTML file a reviewer reads in a browser.

The file needs no network: its style sheet and its figures (SVG) are inline and it loads nothing. Per paper or topic
it gives the figures of :mod:`dpcert.proofs.cli.report_figures` (each with its caption and the command that redraws
it; a figure that fails to draw is a one-line note), then every claim's statement, verdict (and the one the registry
expects), method, evidence, witness and the command that reproduces it; before that the counts by paper and
verdict, the legend, the papers' errors and a table of contents. It is written to a temporary file beside ``--out``
and moved into place, so a failed run leaves no partial file.
"""

from __future__ import annotations

import html
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.cli.claims import VERDICT_MEANINGS, ClaimRun, paper_option, run_claims, worker_pool
from dpcert.proofs.cli.output import emit, json_option

if TYPE_CHECKING:
    from dpcert.proofs.cli.report_figures import DrawnFigure

__all__ = ["render_report", "report_command"]

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;
line-height:1.45;color:#1b1b1b}
h1{font-size:1.6rem}h2{font-size:1.3rem;border-bottom:1px solid #ccc;padding-top:1rem}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;overflow-wrap:anywhere;white-space:pre-wrap}
details{margin:.4rem 0;padding:.3rem .5rem;border:1px solid #e3e3e3;border-radius:4px}
summary{cursor:pointer;font-weight:600}
.proved{color:#17692b}.confirmed{color:#006b80}.refuted{color:#b3261e}.proof-gap{color:#8a2a8a}
.unknown{color:#8a6d00}.unexpected{background:#fde8e8}
nav ul{padding-left:1.2rem}
figure{margin:1rem 0}figure svg{display:block;width:100%;max-width:100%;height:auto}
figcaption{font-size:.9rem}.figure-error{color:#b3261e;font-weight:600}
"""


def _verdict(verdict: Verdict) -> str:
    return f'<span class="{verdict.value}">{verdict.value}</span>'


def _figure(drawn: DrawnFigure) -> str:
    """A ``<figure>``: the inline SVG (or the note of why it is missing), the caption and the command in ``<code>``."""
    f, e = drawn.figure, html.escape
    body = drawn.svg if drawn.error is None else f'<p class="figure-error">Not drawn: {e(drawn.error)}</p>'
    return (f'<figure id="{f.anchor}">{body}<figcaption><strong>{e(f.title)}.</strong> {e(f.caption)} '
            f"<code>{e(f.command)}</code></figcaption></figure>")


def _figure_links(figures: Sequence[DrawnFigure]) -> str:
    """The table of contents' list of a section's figures (nothing when it has none)."""
    links = "".join(f'<li><a href="#{d.figure.anchor}">Figure: {html.escape(d.figure.title)}</a></li>' for d in figures)
    return f"<ul>{links}</ul>" if links else ""


def render_report(run: ClaimRun, *, title: str = "dpcert claims report", figures: Sequence[DrawnFigure] = ()) -> str:
    """The report of ``run`` as one HTML document (see the module), with ``figures`` in their groups' sections (a
    figure whose group has no checked claim is left out)."""
    from dpcert.proofs.registry import is_paper_error

    e = html.escape
    checked, unexpected, groups = len(run.results), run.unexpected, run.by_group()
    shown = {g.key: [d for d in figures if d.figure.group == g.key] for g, _ in groups}
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>", f"<h1>{e(title)}</h1>",
             f'<p id="summary">{checked - len(unexpected)} of {checked} claims got the verdict the registry expects'
             + (f'; <span class="refuted">{len(unexpected)} did not: {e(", ".join(unexpected))}</span>'
                if unexpected else "") + (f"; {len(run.skipped)} skipped" if run.skipped else "") + ".</p>"]
    parts.append('<nav id="contents"><h2>Contents</h2><ul><li><a href="#verdicts">Verdicts by paper and topic</a></li>'
                 '<li><a href="#errors">The papers\' errors found</a></li>'
                 + "".join(f'<li><a href="#group-{g.key}">{e(g.title)}</a> ({len(rows)})'
                           f"{_figure_links(shown[g.key])}</li>" for g, rows in groups)
                 + "</ul></nav>")
    head = "".join(f"<th>{v.value}</th>" for v in Verdict)
    body = "".join(f'<tr><td><a href="#group-{g.key}">{g.key}</a></td>'
                   + "".join(f"<td>{sum(1 for _, o in rows if o.verdict is v) or ''}</td>" for v in Verdict)
                   + f"<td>{sum(1 for c, o in rows if o.verdict is c.expected)}/{len(rows)}</td></tr>"
                   for g, rows in groups)
    parts.append(f'<h2 id="verdicts">Verdicts by paper and topic</h2><table><tr><th>key</th>{head}'
                 f"<th>as expected</th></tr>{body}</table><dl>"
                 + "".join(f"<dt>{_verdict(v)}</dt><dd>{e(meaning)}</dd>" for v, meaning in VERDICT_MEANINGS.items())
                 + "</dl><p>A refuted claim is expected where the registry lists a paper's error or a negative "
                   "control; each table's column <em>expected</em> says which verdict a claim should get.</p>")
    errors = [(c, o) for c, o in run.results if is_paper_error(c)]
    parts.append('<h2 id="errors">The papers\' errors found</h2><ul>'
                 + "".join(f'<li><a href="#claim-{e(c.id)}">{e(c.id)}</a> ({e(c.source)}): {_verdict(o.verdict)}</li>'
                           for c, o in errors) + "</ul>")
    for g, rows in groups:
        parts.append(f'<section id="group-{g.key}"><h2>{e(g.title)} <small>({g.key})</small></h2><table>'
                     "<tr><th>id</th><th>verdict</th><th>expected</th><th>method</th></tr>"
                     + "".join(f'<tr{"" if o.verdict is c.expected else " class=unexpected"}><td>'
                               f'<a href="#claim-{e(c.id)}">{e(c.id)}</a></td><td>{_verdict(o.verdict)}</td>'
                               f"<td>{_verdict(c.expected)}</td><td>{e(o.method)}</td></tr>" for c, o in rows)
                     + "</table>" + "".join(_figure(d) for d in shown[g.key]))
        for c, o in rows:
            witness = o.as_json()["witness"]
            parts.append(f'<details id="claim-{e(c.id)}"><summary>{e(c.id)}: {_verdict(o.verdict)}</summary>'
                         f"<p><strong>Source</strong>: {e(c.source)}</p><p><strong>Statement</strong>: "
                         f"{e(c.statement)}</p><p><strong>Evidence</strong> ({e(o.method)}): {e(o.evidence)}</p>"
                         + ("" if witness is None else
                            f"<p><strong>Witness</strong>:</p><pre>{e(json.dumps(witness, indent=1, default=str))}"
                            "</pre>")
                         + f"<p><strong>Reproduce</strong>: <code>{e(c.reproduce)}</code></p></details>")
        parts.append("</section>")
    if run.skipped:
        parts.append('<h2 id="skipped">Skipped</h2><ul>' + "".join(
            f'<li id="claim-{e(c.id)}">{e(c.id)}: {e(reason)}</li>' for c, reason in run.skipped) + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


class _Target:
    """A temporary file beside ``path``, opened before the claims run (an unwritable folder fails at once) and moved
    onto ``path`` once written whole; ``drop()`` removes it, so a failed run leaves no partial file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        except OSError as error:
            raise InvalidParameterError(f"--out {str(path)!r} cannot be written: {error.strerror}") from error
        os.close(handle)
        self.temporary = Path(name)

    def commit(self, text: str) -> None:
        try:
            self.temporary.write_text(text, encoding="utf-8")
            umask = os.umask(0)
            os.umask(umask)
            self.temporary.chmod(0o666 & ~umask)
            os.replace(self.temporary, self.path)
        except OSError as error:
            raise InvalidParameterError(f"--out {str(self.path)!r} cannot be written: {error.strerror}") from error

    def drop(self) -> None:
        self.temporary.unlink(missing_ok=True)


@click.command("report")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="the HTML file to write, a path ending in .html or .htm (replaced whole, or left untouched on "
                   "failure)")
@paper_option
@json_option
def report_command(out: Path, paper: str | None, as_json: bool) -> None:
    """Check the registered claims and write the report as one self-contained HTML file, with the figures of each
    paper or topic (drawn in the claims' worker processes; one that fails is a one-line note in the file).

    Exit 0 when every claim gets the verdict the registry expects, 1 otherwise (the file is written either way).
    """
    from dpcert.proofs.cli.report_figures import draw_in, drawn, figures_of
    from dpcert.proofs.registry import claims

    if out.suffix.lower() not in (".html", ".htm"):
        raise InvalidParameterError(f"--out must name an .html file (a path ending in .html or .htm). Got {str(out)!r}")
    if not out.absolute().parent.is_dir():  # (a folder itself click refuses: dir_okay=False)
        raise InvalidParameterError(f"--out {str(out)!r} cannot be written: its folder does not exist")
    selected = claims(paper=paper)
    target = _Target(out.absolute())
    try:
        with worker_pool() as pool:
            drawing = draw_in(pool, figures_of(paper))
            run = run_claims(selected, pool=pool)
            figures = drawn(drawing)
        target.commit(render_report(run, title="dpcert claims report" + (f": {paper}" if paper else ""),
                                    figures=figures))
    finally:
        target.drop()
    summary = run.as_json()["summary"]
    emit(as_json, {"out": str(out), "bytes": out.stat().st_size, "summary": summary},
         f"wrote {out} ({out.stat().st_size} bytes): {summary['as_expected']} of {summary['total']} claims as expected")
    raise click.exceptions.Exit(1 if run.unexpected else 0)
