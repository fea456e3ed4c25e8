"""The house's layers, read from the source: mechanisms < proofs' core < accountant < claims and CLI.

Every module-level import of a ``dpcert`` module is walked with :mod:`ast`; an import may only reach a
layer at or below the importer's own. Nothing outside the application layer (the claim tables, the
registry and the CLI) imports it. Function-local imports of ``dpcert`` are allowed only where they keep
start-up fast and say so: the CLI loads a subcommand's machinery when that subcommand runs, and the
pytest plugin, which every pytest run in a project with dpcert installed loads, registers its fixtures
without importing them. Anywhere else a local import would hide a cycle, so it fails here
(ARCHITECTURE.md, "Layers").
"""

from __future__ import annotations

import ast
import pathlib

import pytest

import dpcert.accountant
import dpcert.mechanisms
import dpcert.proofs

_ROOTS = {package.__name__: pathlib.Path(package.__file__).parent
          for package in (dpcert.mechanisms, dpcert.proofs, dpcert.accountant)}
_APPLICATION = ("dpcert.proofs.claims", "dpcert.proofs.registry", "dpcert.proofs.cli")
_LAYERS = {"dpcert.mechanisms": 0, "dpcert.proofs": 1, "dpcert.accountant": 2}
_LOCAL_IMPORTS_ALLOWED = ("dpcert.proofs.cli", "dpcert.proofs.pytest_plugin")


def layer(module: str) -> int:
    if module.startswith(_APPLICATION):
        return 3
    return next(rank for prefix, rank in _LAYERS.items() if module == prefix or module.startswith(prefix + "."))


def _modules() -> dict[str, pathlib.Path]:
    found = {}
    for name, root in _ROOTS.items():
        for path in root.rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            dotted = ".".join((name, *parts)).removesuffix(".__init__")
            found[dotted] = path
    return found


MODULES = _modules()


def _imports(path: pathlib.Path, package: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(module-level, function-local) imports of dpcert modules, as (module, line)."""
    top, local = [], []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom):
                module = child.module or ""
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    module = ".".join([*base, module] if module else base)
                if module.startswith("dpcert"):
                    (local if in_function else top).append((module, child.lineno))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("dpcert"):
                        (local if in_function else top).append((alias.name, child.lineno))
            elif not (isinstance(child, ast.If) and ast.unparse(child.test) == "TYPE_CHECKING"):  # not run
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text()), False)
    return top, local


def _package(module: str, path: pathlib.Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def test_every_package_has_modules():
    assert len(MODULES) > 100
    assert {layer(m) for m in MODULES} == {0, 1, 2, 3}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_level_imports_never_reach_a_higher_layer(module):
    top, _ = _imports(MODULES[module], _package(module, MODULES[module]))
    upward = [f"line {line}: {target}" for target, line in top if layer(target) > layer(module)]
    assert not upward, f"{module} (layer {layer(module)}) imports a higher layer: {upward}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_function_local_imports_only_where_start_up_needs_them(module):
    _, local = _imports(MODULES[module], _package(module, MODULES[module]))
    if module.startswith(_LOCAL_IMPORTS_ALLOWED):
        upward = [target for target, _ in local if layer(target) > layer(module)]
        assert not upward, upward
        return
    assert not local, f"{module} imports inside functions (a hidden cycle?): {local}"


def test_the_walk_catches_an_upward_and_a_local_import(tmp_path):
    """Power check: a mechanisms module that imports the accountant, at module level and inside a function."""
    path = tmp_path / "probe.py"
    path.write_text("from typing import TYPE_CHECKING\n\nfrom dpcert.accountant.shuffle import shuffle_bound\n"
                    "if TYPE_CHECKING:\n    from dpcert.proofs.registry import CLAIMS\n\n"
                    "def f():\n    from .base import Mechanism\n")
    top, local = _imports(path, "dpcert.mechanisms")
    assert top == [("dpcert.accountant.shuffle", 3)] and local == [("dpcert.mechanisms.base", 8)]
    assert layer("dpcert.accountant.shuffle") > layer("dpcert.mechanisms.probe")
    assert layer("dpcert.proofs.claims.privact.checks") == 3 and layer("dpcert.proofs.rounding") == 1


def test_lazy_exports_never_reach_the_application_layer():
    """dpcert.proofs exports by name through import_module (PEP 562), which the import walk does not see: every
    name it maps must live in proofs' core, not in the claims, the registry or the CLI."""
    targets = {name: f"dpcert.proofs.{module}" for name, module in dpcert.proofs._EXPORTS.items()}
    assert targets and all(layer(module) == 1 for module in targets.values()), targets
    assert layer("dpcert.proofs.registry") == 3  # power: the registry, once exported here, would fail the line above
