"""One computed bound: its value, what it bounds, outward-rounded floats, units, and whether it applies."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy

from dpcert.proofs.rounding import decimal_string, float_lower, float_upper

__all__ = ["BOUNDS", "BoundResult"]

BOUNDS = ("upper", "lower", "exact")
"""What a :class:`BoundResult`'s value is with respect to the true quantity it is about."""


def _finite(x: float | None) -> float | None:
    """``x``, or None when it is not a finite float (JSON has no infinity)."""
    return x if x is not None and math.isfinite(x) else None


@dataclass(frozen=True)
class BoundResult:
    """A bound evaluated at given inputs.

    Each field means one thing:

    - ``value``: the computed value, exact (sympy ``Rational``/expression, or ``sympy.oo``); ``None`` when
      the theorem gives no value at these inputs. A numerical result known only to lie in an enclosure
      reports the enclosure's end on its safe side: the upper end, or the lower end when ``bounds`` is
      ``"lower"``.
    - ``lower_value``, ``upper_value``: exact end points of an enclosure of the computed value (both equal
      ``value`` when it is exact). :attr:`enclosure` gives them as floats rounded outward.
    - ``bounds``: what the value is with respect to the TRUE quantity (eps, delta, users, nats, loss, ...):
      ``"upper"`` (the truth is <= it), ``"lower"`` (the truth is >= it) or ``"exact"`` (the enclosure
      contains the truth).
    - ``valid``: whether the theorem's conditions hold at these inputs, so that the value is certified
      as ``bounds`` says and is the answer its family computes.
    - ``certified`` (default ``valid``): whether the value is certified as ``bounds`` says. It differs from
      ``valid`` only for a result that is a certified lower bound but not a valid answer of its family
      (the exact shuffle row for an unspecified eps0-LDP randomizer: a lower bound on the worst-case eps,
      where the family's results are upper bounds).

    Derived: :attr:`upper` (a certified upper bound on the truth, only when valid and ``bounds`` is
    ``"upper"`` or ``"exact"``), :attr:`lower` (a certified lower bound on the truth, only when certified
    and ``bounds`` is ``"lower"`` or ``"exact"``), both floats rounded outward, else None.

    Attributes:
        name: short identifier within its family (e.g. ``"theorem14"``).
        source: paper and theorem, e.g. ``"000_0c6e7fdc3fd68303.txt, Theorem 14"``.
        units: ``"nats"``, ``"bits"``, ``"users"``, ``"eps"``, ``"probability"``, ...
        note: why it is invalid, or what the number means (e.g. "paper's printed constant").
    """

    name: str
    source: str
    value: sympy.Expr | None
    units: str
    valid: bool = True
    note: str = ""
    lower_value: sympy.Expr | None = None
    upper_value: sympy.Expr | None = None
    bounds: str = field(default="upper", kw_only=True)
    certified: bool | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if self.bounds not in BOUNDS:
            raise ValueError(f"bounds must be one of {', '.join(BOUNDS)}. Got {self.bounds!r}")
        if self.certified is None:
            object.__setattr__(self, "certified", self.valid)
        elif self.valid and not self.certified:
            raise ValueError("a valid result is certified")
        if self.value is not None:
            value = sympy.sympify(self.value)
            object.__setattr__(self, "value", value)
            if self.lower_value is None:
                object.__setattr__(self, "lower_value", value)
            if self.upper_value is None:
                object.__setattr__(self, "upper_value", value)

    @property
    def certified_upper(self) -> sympy.Expr | None:
        """The exact upper end of the enclosure when it is a certified upper bound on the truth, else None."""
        if self.value is None or not self.valid or self.bounds == "lower":
            return None
        return sympy.sympify(self.upper_value)

    @property
    def certified_lower(self) -> sympy.Expr | None:
        """The exact lower end of the enclosure when it is a certified lower bound on the truth, else None."""
        if self.value is None or not self.certified or self.bounds == "upper":
            return None
        return sympy.sympify(self.lower_value)

    @property
    def upper(self) -> float | None:
        """A certified upper bound on the true quantity, rounded up to a float; None when there is none."""
        bound = self.certified_upper
        return None if bound is None else float_upper(bound)

    @property
    def lower(self) -> float | None:
        """A certified lower bound on the true quantity, rounded down to a float; None when there is none."""
        bound = self.certified_lower
        return None if bound is None else float_lower(bound)

    @property
    def enclosure(self) -> tuple[float, float] | None:
        """Floats ``(lo, hi)``, rounded outward, that contain the computed value; None when there is none."""
        if self.value is None:
            return None
        return float_lower(sympy.sympify(self.lower_value)), float_upper(sympy.sympify(self.upper_value))

    def as_json(self) -> dict[str, object]:
        """``name, source, value, enclosure, bounds, upper, lower, units, valid, note``.

        ``value`` is an exact string; ``enclosure``, ``upper`` and ``lower`` are floats rounded outward, and
        null where they do not exist or are not finite (an infinite bound is no bound; ``value`` reads oo).
        """
        enclosure = self.enclosure
        return {"name": self.name, "source": self.source,
                "value": None if self.value is None else str(self.value),
                "enclosure": None if enclosure is None else [_finite(enclosure[0]), _finite(enclosure[1])],
                "bounds": self.bounds, "upper": _finite(self.upper), "lower": _finite(self.lower),
                "units": self.units, "valid": self.valid, "note": self.note}

    def display(self) -> str:
        """A short decimal form: the interval when it is one, else the value rounded to its safe side (up,
        or down for a lower bound)."""
        if self.value is None:
            return "n/a"
        if self.lower_value != self.upper_value:
            lower = decimal_string(self.lower_value, digits=8, upward=False)
            return f"[{lower}, {decimal_string(self.upper_value, digits=8)}]"
        return decimal_string(self.value, digits=8, upward=self.bounds != "lower")
