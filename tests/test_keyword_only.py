"""Every public function keeps its optional arguments keyword-only, so adding or reordering one never
silently changes what an existing call means (``calibrate_eps0(2, 1000, 1e-6, 3)`` cannot be read as k = 3
or as a tolerance). The same habit as hypothesis's own API: required arguments may be positional,
everything with a default is named at the call.

Exempt: the console entry point ``main(argv)``, which follows the convention of console scripts.
"""

from __future__ import annotations

import importlib
import inspect

import pytest
from conftest import package_modules

import dpcert.accountant
import dpcert.mechanisms
import dpcert.proofs

_EXEMPT = {("dpcert.proofs.cli.app", "main")}


def _public_functions() -> list[tuple[str, str]]:
    found = []
    for package in (dpcert.mechanisms, dpcert.proofs, dpcert.accountant):
        for module in package_modules(package):
            for name in getattr(module, "__all__", ()):
                function = getattr(module, name, None)
                if inspect.isfunction(function) and function.__module__ == module.__name__:
                    found.append((module.__name__, name))
    return found


FUNCTIONS = _public_functions()


def optional_positionals(function) -> list[str]:
    return [p.name for p in inspect.signature(function).parameters.values()
            if p.default is not inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def test_the_walk_finds_the_public_api():
    assert len(FUNCTIONS) > 300
    assert ("dpcert.accountant.calibration", "calibrate_eps0") in FUNCTIONS


@pytest.mark.parametrize("module, name", [f for f in FUNCTIONS if f not in _EXEMPT], ids=".".join)
def test_optional_arguments_are_keyword_only(module, name):
    assert optional_positionals(getattr(importlib.import_module(module), name)) == []


def test_the_check_fails_a_positional_default():
    """Power check: a function written the other way is caught."""
    def offending(eps, delta=0, *, k=1):
        return eps, delta, k

    assert optional_positionals(offending) == ["delta"]
