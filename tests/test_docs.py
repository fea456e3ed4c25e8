"""The documentation's promises: the tutorial's Python blocks run as written, each of its ``dpcert`` lines exits as
its comment says and prints the lines shown under it, and the README's API-reference command documents every
public name of the three packages."""

from __future__ import annotations

import importlib
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text() if (ROOT / "docs" / "tutorial.md").exists() else ""
README = (ROOT / "README.md").read_text() if (ROOT / "README.md").exists() else ""
PACKAGES = ("dpcert.mechanisms", "dpcert.proofs", "dpcert.accountant")

_BOX = str.maketrans({c: " " for c in "│┃┌┐└┘┏┓┗┛━─┡┩╇┳┻┼┬┴"})


def _blocks(language: str) -> list[str]:
    """The tutorial's fenced blocks of ``language``, dedented (a block inside a list item is indented)."""
    fenced = re.findall(rf"^ *```{language}\n(.*?)^ *```", TUTORIAL, flags=re.S | re.M)
    return [textwrap.dedent(body) for body in fenced]


def _normal(line: str) -> str:
    """A line of a table without its box drawing and padding, so that column widths do not matter."""
    return " ".join(line.translate(_BOX).split())


def _console_runs() -> list[tuple[str, int, list[str]]]:
    """Each ``$ dpcert ...`` line of the console blocks: the command, its exit code (``# exit N``, else 0) and the
    output lines shown under it (``...`` marks lines left out)."""
    runs: list[tuple[str, int, list[str]]] = []
    for block in _blocks("console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                command, _, comment = line[2:].partition("  #")
                exit_code = re.search(r"exit (\d+)", comment)
                runs.append((command.strip(), int(exit_code.group(1)) if exit_code else 0, []))
            elif line.strip() != "..." and _normal(line):
                runs[-1][2].append(_normal(line))
    return runs


_PYTHON = _blocks("python")


@pytest.mark.skipif(not TUTORIAL, reason="run from a source checkout")
@pytest.mark.parametrize("block", _PYTHON or ["(none)"],
                         ids=[f"{i}: {b.splitlines()[0][:60]}" for i, b in enumerate(_PYTHON, 1)] or None)
def test_every_python_block_runs(block):
    exec(compile(block, "docs/tutorial.md", "exec"), {})


@pytest.mark.skipif(not TUTORIAL, reason="run from a source checkout")
@pytest.mark.parametrize("run", _console_runs() or [("(none)", 0, [])], ids=lambda r: r[0][:80])
def test_every_command_prints_what_is_shown(run, capsys, tmp_path, monkeypatch):
    """Each shown line is part of a line of the real output (a wider terminal only lengthens the lines), in order."""
    from dpcert.proofs.cli import main

    command, exit_code, shown = run
    assert command.startswith("dpcert ")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    assert stop.value.code == exit_code, err
    lines = iter(_normal(line) for line in out.splitlines())
    for expected in shown:
        assert any(expected in line for line in lines), f"{expected!r} not printed (in this order) by {command}"


@pytest.mark.skipif(not README, reason="run from a source checkout")
def test_api_reference_command_documents_every_public_name(tmp_path):
    """The README's one command builds the reference; each name of the packages' ``__all__`` has its entry, the
    names ``dpcert.proofs`` imports lazily (PEP 562) among them."""
    section = README.split("## Documentation", 1)[1].split("\n## ", 1)[0]
    [command] = [line for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S)
                 for line in block.splitlines() if line.startswith("pdoc ")]
    pdoc = Path(sys.executable).with_name("pdoc")
    if not pdoc.exists():
        pytest.skip("pdoc is not installed (pip install '.[docs]')")
    words = shlex.split(command)
    build = subprocess.run([str(pdoc), *words[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    for package in PACKAGES:
        assert package in words
        page = (tmp_path / "docs" / "api" / Path(*package.split("."))).with_suffix(".html").read_text()
        missing = [name for name in importlib.import_module(package).__all__ if f'id="{name}"' not in page]
        assert not missing, f"{package}: {missing}"
