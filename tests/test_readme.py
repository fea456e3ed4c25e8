"""The README's promises: CI runs its test command unchanged, and its Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text() if (ROOT / "README.md").exists() else ""


def _shell_blocks() -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", README, flags=re.S)]


@pytest.mark.skipif(not README, reason="run from a source checkout")
def test_quickstart_has_two_commands_and_ci_runs_the_test_one():
    quickstart = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = [b.strip() for b in re.findall(r"```sh\n(.*?)```", quickstart, flags=re.S)]
    assert len(commands) == 2
    assert commands[0].endswith("dpcert claims")
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci.splitlines()


@pytest.mark.skipif(not README, reason="run from a source checkout")
def test_python_example_runs():
    block = re.findall(r"```python\n(.*?)```", README, flags=re.S)[0]
    exec(compile(block, "README.md", "exec"), {})


def _cli_lines() -> list[str]:
    section = README.split("## The command line", 1)[1].split("\n## ", 1)[0]
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        for line in block.splitlines():
            command = line.split("  #", 1)[0].strip()
            if command.startswith("dpcert "):
                lines.append(command)
    return lines


@pytest.mark.skipif(not README, reason="run from a source checkout")
@pytest.mark.parametrize("line", _cli_lines() or ["(none)"])
def test_every_documented_command_runs(line, capsys, tmp_path, monkeypatch):
    """Each ``dpcert`` line of the README's command-line section exits 0 (holds) or 1 (refuted, as shown)."""
    import shlex

    monkeypatch.chdir(tmp_path)  # commands that write files write them here

    from dpcert.proofs.cli import main

    assert line.startswith("dpcert ")
    with pytest.raises(SystemExit) as stop:
        main(shlex.split(line)[1:])
    _, err = capsys.readouterr()
    assert stop.value.code in (0, 1), err


pytest_plugins = ["pytester"]


@pytest.mark.skipif(not README, reason="run from a source checkout")
def test_ci_example_passes_and_catches_a_broken_variant(pytester, monkeypatch):
    """The README's "Test your own mechanism in CI" file passes as written; with the noise scale cut to
    1/4 of the right one (a 2-DP release claimed 1/2-DP) both of its tests fail (power check)."""
    section = README.split("## Test your own mechanism in CI", 1)[1].split("\n## ", 1)[0]
    example = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    monkeypatch.setenv("CI", "1")
    pytester.makepyfile(test_my_mechanism=example)
    pytester.runpytest("-p", "no:cacheprovider", "-q").assert_outcomes(passed=2)
    pytester.makepyfile(test_my_mechanism=example.replace("2.0", "0.5"))
    pytester.runpytest("-p", "no:cacheprovider", "-q").assert_outcomes(failed=2)
