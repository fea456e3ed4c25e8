"""Three-valued sign decisions for every parameter value (dpcert.accountant.symbolic_facts).

These decide the proof facts of 002_1def8c9789d6e1bd.txt (Appendix C.1's Bernstein constants, Appendix B.3's
concavity; specs/imola_metric_dp_user_level.md section 5), so each verdict -- proved, refuted, undecided --
is exercised here on statements with a known answer.
"""

from __future__ import annotations

import pytest
import sympy
from conftest import assert_rejects

from dpcert.accountant.symbolic_facts import fact_from_cases, nonnegative_everywhere, square_certificate

x = sympy.Symbol("x", real=True)
u, w = sympy.symbols("u w", nonnegative=True)


def test_nonnegative_everywhere_proves_refutes_and_abstains():
    """Spec section 5: True for u^2 + u w (non-negative symbols), False with a witness for x^3, None for an
    expression sympy cannot sign and no probe refutes."""
    assert nonnegative_everywhere(u**2 + u * w)[0] is True
    holds, evidence = nonnegative_everywhere(x**3)
    assert holds is False and "negative at" in evidence
    assert nonnegative_everywhere(sympy.Abs(sympy.sin(x)) * u - u * sympy.Abs(sympy.sin(x)) ** 2)[0] is None


def test_square_certificate():
    """Spec section 5 item 3: 2 sqrt(xy) <= sqrt 2 x + y / sqrt 2 via a square; a wrong root falls back."""
    root2, quarter = sympy.sqrt(2), sympy.root(2, 4)
    expr = root2 * x**2 + x**2 / root2 - 2 * x**2  # = (sqrt 2 + 1/sqrt 2 - 2) x^2 >= 0
    holds, evidence = square_certificate(expr, quarter * x - x / quarter)
    assert holds is True and "identically" in evidence
    assert square_certificate(x**2 - 1, x)[0] is False  # x^2 - 1 = x^2 + (-1): rest negative, and x = 0 refutes


def test_fact_from_cases_combines_verdicts():
    """A fact holds iff all its cases hold, is refuted if one is, and is undecided otherwise."""
    assert fact_from_cases("s", "src", {"a": (True, ""), "b": (True, "")}).holds is True
    assert fact_from_cases("s", "src", {"a": (True, ""), "b": (False, "x")}).holds is False
    assert fact_from_cases("s", "src", {"a": (True, ""), "b": (None, "")}).holds is None


@pytest.mark.parametrize("call, parameter", [
    (lambda: nonnegative_everywhere([1, 2]), "expr"),
    (lambda: nonnegative_everywhere(sympy.I), "expr"),
    (lambda: square_certificate(x, "x"), "root"),
    (lambda: square_certificate(x, x, rest=None), "rest"),
    (lambda: fact_from_cases("s", "src", {}), "cases"),
])
def test_bad_input_names_the_parameter(call, parameter):
    """Bad input raises InvalidParameterError naming the parameter."""
    assert_rejects(call, parameter)
