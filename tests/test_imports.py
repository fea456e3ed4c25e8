"""Every package, and every module that joins them, imports first in a fresh interpreter.

The layers (tests/test_layers.py) rule out a cycle on paper; this runs each package, each paper's
package and each claim table first in its own interpreter, where a cycle the walk missed would fail with
"partially initialized module" although the suite (which imports everything in one order) passed.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

_PAPERS = ("price_of_privacy", "metric_user_level", "online_recommendation", "privact")
_FIRST_IMPORTS = ["dpcert.accountant", "dpcert.accountant.catalog", "dpcert.mechanisms", "dpcert.proofs",
                  "dpcert.proofs.registry", "dpcert.proofs.cli",
                  *(f"dpcert.{package}.{paper}" for package in ("accountant", "mechanisms") for paper in _PAPERS),
                  *(f"dpcert.proofs.claims.{m.name}"
                    for m in pkgutil.iter_modules(importlib.import_module("dpcert.proofs.claims").__path__))]


@pytest.mark.parametrize("module", _FIRST_IMPORTS)
def test_module_imports_first_in_a_fresh_interpreter(module):
    result = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
