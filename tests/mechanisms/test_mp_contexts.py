"""Private mpmath contexts: fixed per precision, independent of mpmath's global precision.

Rigorous code must not depend on, or change, the process-wide ``mpmath.mp.prec`` / ``mpmath.iv.prec``
(threads of the dask executor share them).
"""

from __future__ import annotations

import re
from pathlib import Path

import mpmath
import sympy

import dpcert.accountant
import dpcert.mechanisms
import dpcert.proofs
from dpcert.accountant.shuffle_intervals import exp_enclosure
from dpcert.mechanisms.interval_sign import interval_sign
from dpcert.mechanisms.mp_contexts import interval_context, real_context
from dpcert.proofs.channel import float_log
from dpcert.proofs.rounding import decimal_string

PACKAGES = [Path(p.__file__).parent for p in (dpcert.accountant, dpcert.mechanisms, dpcert.proofs)]
GLOBAL_PRECISION = re.compile(r"\bworkprec\(|\bworkdps\(|\biv\.prec\s*=|\bmp\.prec\s*=|\bmp\.dps\s*=")


def test_one_context_per_precision_never_changed():
    assert interval_context(200) is interval_context(200) and interval_context(200).prec == 200
    assert real_context(77) is real_context(77) and real_context(77).prec == 77
    assert real_context(77) is not real_context(78)


def test_results_do_not_depend_on_the_global_precision(monkeypatch):
    # reference: the same calls at mpmath's default precision; then the globals are set to 10 bits
    calls = [lambda: exp_enclosure(1.0, 1.0), lambda: float_log(sympy.Rational(1, 3)),
             lambda: decimal_string(sympy.erfc(sympy.Rational(3, 2))),
             lambda: interval_sign(sympy.log(1 + sympy.Rational(1, 10**40)) - sympy.Rational(1, 10**41))]
    expected = [call() for call in calls]
    monkeypatch.setattr(mpmath.mp, "prec", 10)
    monkeypatch.setattr(mpmath.iv, "prec", 10)
    assert [call() for call in calls] == expected
    assert mpmath.mp.prec == 10 and mpmath.iv.prec == 10  # and none of them changed the globals


def test_no_module_sets_the_global_precision():
    offenders = [f"{path.name}:{n}" for package in PACKAGES for path in package.rglob("*.py")
                 for n, line in enumerate(path.read_text().splitlines(), 1)
                 if GLOBAL_PRECISION.search(line) and not line.lstrip().startswith(("#", '"', "'"))]
    assert offenders == []


def test_every_context_comes_from_mp_contexts():
    """One place makes mpmath contexts: a module building its own would be a second number layer to keep right."""
    own = re.compile(r"\b(MPIntervalContext|MPContext)\(\)")
    offenders = [f"{path.name}:{n}" for package in PACKAGES for path in package.rglob("*.py")
                 if path.name != "mp_contexts.py"
                 for n, line in enumerate(path.read_text().splitlines(), 1) if own.search(line)]
    assert offenders == []
    assert own.search("    ctx = MPIntervalContext()")  # the pattern finds what it is meant to
