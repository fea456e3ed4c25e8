"""Every package, and every module that joins them, imports first in a fresh interpreter.

dpcert.accountant imports proofs' number helpers while proofs' claim tables use the accountant; a module
that reached into the accountant at import time would make ``import dpcert.accountant`` fail with a circular import
although the suite (which imports proofs first) passed.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

_FIRST_IMPORTS = ["dpcert.accountant", "dpcert.mechanisms", "dpcert.proofs", "dpcert.proofs.registry",
                  "dpcert.proofs.cli",
                  *(f"dpcert.proofs.claims.{m.name}"
                    for m in pkgutil.iter_modules(importlib.import_module("dpcert.proofs.claims").__path__))]


@pytest.mark.parametrize("module", _FIRST_IMPORTS)
def test_module_imports_first_in_a_fresh_interpreter(module):
    result = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
