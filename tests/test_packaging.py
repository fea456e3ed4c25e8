"""The distribution installs one import namespace, ``dpcert``, with every package folder in it.

pyproject.toml maps ``dpcert.accountant``, ``dpcert.mechanisms`` and ``dpcert.proofs`` onto the folders at
the repository root and lists every subpackage by hand; a folder added without its line would be left
out of the wheel while the suite, run from the same tree, still passed.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import dpcert.mechanisms

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("accountant", "mechanisms", "proofs")


def test_every_package_folder_is_listed_under_the_dpcert_namespace():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {"dpcert." + ".".join(init.parent.relative_to(ROOT).parts)
               for top in PACKAGES for init in (ROOT / top).rglob("__init__.py")}
    assert set(config["packages"]) == folders
    assert config["package-dir"] == {f"dpcert.{top}": top for top in PACKAGES}


def test_tests_import_the_installed_namespace_not_bare_folders():
    # no test (nor anything it imports) has loaded a folder under a generic top-level name; with `pytest` the
    # names do not even resolve to the folders (`python -m pytest` puts the root on sys.path, so only the first
    # check applies there)
    for name in PACKAGES:
        loaded = sys.modules.get(name)
        assert loaded is None or str(ROOT / name) not in list(getattr(loaded, "__path__", [])), name
    if str(ROOT) not in map(str, (Path(entry or ".").resolve() for entry in sys.path)):
        for name in PACKAGES:
            spec = importlib.util.find_spec(name)  # None, or a folder of that name elsewhere
            assert spec is None or str(ROOT / name) not in list(spec.submodule_search_locations or []), name
    assert Path(dpcert.mechanisms.__file__).parent.name == "mechanisms"


def _project_with_its_own_packages(root: Path) -> None:
    for name in PACKAGES:
        (root / name).mkdir()
        (root / name / "__init__.py").write_text(f"OWN = {name!r}\n")


def test_a_project_with_its_own_mechanisms_and_proofs_packages_keeps_them(tmp_path):
    _project_with_its_own_packages(tmp_path)
    code = ("import accountant, mechanisms, proofs\n"
            "from dpcert.mechanisms import KaryRandomizedResponse\n"
            "assert (accountant.OWN, mechanisms.OWN, proofs.OWN) == ('accountant', 'mechanisms', 'proofs')\n"
            "print(KaryRandomizedResponse(k=3, eps=1).describe())\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "k-rr" in result.stdout


def test_the_command_and_the_plugin_work_in_such_a_project(tmp_path):
    _project_with_its_own_packages(tmp_path)
    command = Path(sys.executable).with_name("dpcert")
    verify = subprocess.run([str(command), "verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--eps", "1"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0 and "proved" in verify.stdout, verify.stderr[-2000:]
    (tmp_path / "test_own.py").write_text(
        "import mechanisms\n"
        "from dpcert.proofs.pytest_plugin import assert_dp\n\n\n"
        "def test_own_package_and_plugin():\n"
        "    assert mechanisms.OWN == 'mechanisms'\n"
        "    assert_dp(lambda x, size, rng: x + rng.laplace(0.0, 2.0, size), 0.5, pairs=[(0, 1)], samples=2000)\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_own.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout


def test_the_plugin_loads_nothing_heavy_at_pytest_start_up():
    # pytest imports the plugin in every project where dpcert is installed: it must not pull in the
    # claim registry, sympy or numpy until an assertion is used
    code = ("import sys, dpcert.proofs.pytest_plugin\n"
            "heavy = [m for m in ('dpcert.proofs.registry', 'dpcert.accountant', 'sympy', 'numpy') if m in sys.modules]\n"
            "print(heavy)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "[]", result.stdout + result.stderr[-2000:]
