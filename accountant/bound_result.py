"""One computed bound: its value, outward-rounded floats, units, and whether the theorem applies."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from proofs.rounding import decimal_string, float_lower, float_upper

__all__ = ["BoundResult"]


@dataclass(frozen=True)
class BoundResult:
    """A bound evaluated at given inputs.

    Attributes:
        name: short identifier within its family (e.g. ``"theorem14"``).
        source: paper and theorem, e.g. ``"000_0c6e7fdc3fd68303.txt, Theorem 14"``.
        value: the exact value (sympy ``Rational``/expression, or ``sympy.oo``), or ``None`` when the
            theorem does not apply at these inputs.
        units: ``"nats"``, ``"bits"``, ``"users"``, ``"eps"``, ``"probability"``, ...
        valid: whether the theorem's conditions hold at these inputs.
        note: why it is invalid, or what the number means (e.g. "paper's printed constant").
        lower_value / upper_value: when ``value`` itself is only known to lie in an interval (e.g. a
            numerical bound), the exact interval end points; otherwise both equal ``value``.
    """

    name: str
    source: str
    value: sympy.Expr | None
    units: str
    valid: bool = True
    note: str = ""
    lower_value: sympy.Expr | None = None
    upper_value: sympy.Expr | None = None

    def __post_init__(self) -> None:
        if self.value is not None:
            value = sympy.sympify(self.value)
            object.__setattr__(self, "value", value)
            if self.lower_value is None:
                object.__setattr__(self, "lower_value", value)
            if self.upper_value is None:
                object.__setattr__(self, "upper_value", value)

    @property
    def upper(self) -> float | None:
        """The value rounded up to a float (never below the exact value)."""
        return None if self.upper_value is None else float_upper(sympy.sympify(self.upper_value))

    @property
    def lower(self) -> float | None:
        """The value rounded down to a float (never above the exact value)."""
        return None if self.lower_value is None else float_lower(sympy.sympify(self.lower_value))

    def as_json(self) -> dict[str, object]:
        """``name, source, value, upper, lower, units, valid, note`` (value as an exact string)."""
        return {"name": self.name, "source": self.source,
                "value": None if self.value is None else str(self.value),
                "upper": self.upper, "lower": self.lower, "units": self.units, "valid": self.valid,
                "note": self.note}

    def display(self) -> str:
        """A short decimal form: the value rounded up, or the interval when it is one."""
        if self.value is None:
            return "n/a"
        if self.lower_value != self.upper_value:
            return f"[{decimal_string(self.lower_value, 8, upward=False)}, {decimal_string(self.upper_value, 8)}]"
        return decimal_string(self.value, 8)
