"""Constants shared by the symbolic checker's modules.

The method name on every certificate it issues, and the sympy symbols of the family claims.
"""

from __future__ import annotations

import sympy

METHOD = "symbolic"

# Symbols of the family claims, with the assumptions every claim quantifies over.
EPS = sympy.Symbol("eps", positive=True)
K = sympy.Symbol("k", integer=True, positive=True)
SENSITIVITY = sympy.Symbol("sensitivity", positive=True)
SIGMA = sympy.Symbol("sigma", positive=True)
