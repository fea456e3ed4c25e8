"""``dpcert report``: one self-contained HTML file with every claim, checked with a parser always and in headless
Chromium when one is installed; bad --out paths give one line, exit 2 and no partial file."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from conftest import run_cli

from dpcert.proofs.claim import ClaimOutcome
from dpcert.proofs.cli import report as report_module
from dpcert.proofs.cli.claims import ClaimRun
from dpcert.proofs.registry import CLAIMS, GROUPS, claims

run = run_cli


class _Outline(HTMLParser):
    """The ids, the links and any resource the document would load."""

    def __init__(self) -> None:
        super().__init__()
        self.ids, self.links, self.loads, self.tags = set(), [], [], []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append(tag)
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag == "a":
            self.links.append(attributes.get("href", ""))
        if tag in ("script", "img", "link", "iframe") or "src" in attributes:
            self.loads.append((tag, attributes))


def _synthetic_run() -> ClaimRun:
    """Every registered claim with its expected verdict (the structure under test, not the verdicts)."""
    return ClaimRun(tuple((c, ClaimOutcome(c.expected, "exact", f"evidence of {c.id} <&>")) for c in CLAIMS), ())


def test_the_report_holds_every_claim_a_contents_and_loads_nothing():
    document = report_module.render_report(_synthetic_run())
    outline = _Outline()
    outline.feed(document)
    assert document.startswith("<!doctype html>") and '<meta name="viewport"' in document
    assert {f"claim-{c.id}" for c in CLAIMS} <= outline.ids
    assert {f"group-{g.key}" for g in GROUPS} | {"contents", "verdicts", "errors", "summary"} <= outline.ids
    assert all(link.startswith("#") and link[1:] in outline.ids for link in outline.links)  # every link inside
    assert not outline.loads  # self-contained: no script, image, style sheet or frame to fetch
    assert "evidence of k-rr &lt;&amp;&gt;" in document  # text is escaped


def test_the_command_writes_one_paper_s_report(tmp_path, capsys):
    out = tmp_path / "report.html"
    code, printed, _ = run(capsys, "report", "--out", str(out), "--paper", "online_recommendation")
    assert code == 0 and printed.startswith(f"wrote {out}")
    text = out.read_text()
    assert all(f'id="claim-{c.id}"' in text for c in claims(paper="online_recommendation"))
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


@pytest.mark.parametrize("where", ["missing-folder/report.html", "."])
def test_an_unwritable_out_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "report", "--out", where, "--paper", "online_recommendation")
    assert code == 2 and err.startswith("dpcert: error:") and "--out" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_failed_run_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("renderer failed")

    monkeypatch.setattr(report_module, "render_report", broken)
    with pytest.raises(RuntimeError, match="renderer failed"):
        run(capsys, "report", "--out", str(tmp_path / "report.html"), "--paper", "online_recommendation")
    assert list(tmp_path.iterdir()) == []


def test_the_report_renders_in_headless_chromium(tmp_path):
    """The document as a browser builds it (Debian's chromium package); skipped, saying so, where none is
    installed."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no Chromium installed (apt install chromium): the report was checked with the HTML parser only")
    page = tmp_path / "report.html"
    page.write_text(report_module.render_report(_synthetic_run()))
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    outline = _Outline()
    outline.feed(done.stdout)
    assert {f"claim-{c.id}" for c in CLAIMS} <= outline.ids and "section" in outline.tags
