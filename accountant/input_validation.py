"""Validation of the parameters the information and Fano bounds share: eps, N and w, units, probabilities.

Each helper returns the exact value or raises :class:`~dpcert.mechanisms.parameters.InvalidParameterError`
naming the parameter and its allowed range. Integers go through
:func:`dpcert.mechanisms.parameters.require_int`, which accepts integer-valued input such as ``"1e12"``.
"""

from __future__ import annotations

import sympy

from dpcert.accountant.exact_intervals import certified_sign
from dpcert.mechanisms.parameters import InvalidParameterError, decided_sign, require_eps, require_int, to_exact

__all__: list[str] = []


def _eps(value: object, name: str = "eps") -> sympy.Expr:
    """eps in [10^-300, 10^4] (:func:`dpcert.mechanisms.parameters.require_eps`): beyond, e^eps has more digits
    than the bounds can be evaluated with in seconds."""
    return require_eps(name, value)


def _items(N: object, w: object, *, w_max: str = "N") -> tuple[int, int]:
    """N >= 2 and 1 <= w <= N (or <= N/2 with ``w_max="N/2"``)."""
    n = require_int("N", N, minimum=2)
    return n, require_int("w", w, minimum=1, maximum=n // 2 if w_max == "N/2" else n,
                          maximum_name=w_max)


def _units(units: str) -> str:
    if units not in ("nats", "bits"):
        raise InvalidParameterError(f"units must be 'nats' or 'bits'. Got {units!r}")
    return units


def _sign(name: str, expr: sympy.Expr) -> int:
    """:func:`certified_sign`, with an undecidable sign reported as bad input naming ``name``."""
    return decided_sign(name, expr, sign=certified_sign)


def _nonnegative(name: str, value: object) -> sympy.Expr:
    expr = to_exact(name, value)
    if _sign(name, expr) < 0:
        raise InvalidParameterError(f"{name} must be >= 0. Got {expr}")
    return expr


def _probability_open(name: str, value: object) -> sympy.Expr:
    """An exact number in the open interval (0, 1)."""
    expr = to_exact(name, value)
    if _sign(name, expr) <= 0 or _sign(name, expr - 1) >= 0:
        raise InvalidParameterError(f"{name} must be in (0, 1). Got {expr}")
    return expr
