"""A family of bounds as ``dpcert bound NAME`` and ``dpcert calibrate NAME`` evaluate it: function and parameters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["REQUIRED", "BoundFamily", "ParameterSpec", "optional_parameter", "specs"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED = _Required()
"""The default of a parameter that must be given."""


class ParameterSpec(NamedTuple):
    """One parameter of a family: its name, a one-line help text, and its default (or :data:`REQUIRED`)."""

    name: str
    help: str
    default: object

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


def specs(rows: tuple[tuple[str, str, object], ...], required: tuple[str, ...]) -> tuple[ParameterSpec, ...]:
    """Parameter specs from (name, help, default) rows; the names in ``required`` must be given."""
    return tuple(ParameterSpec(name, help, REQUIRED if name in required else default) for name, help, default in rows)


def optional_parameter(value: object) -> object:
    """None for a parameter that was not given (None, or the strings "" / "none")."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return value


@dataclass(frozen=True)
class BoundFamily:
    """A named family of bounds: a function returning BoundResults, and the parameters it takes.

    ``command`` is the subcommand that evaluates it (``bound`` or ``calibrate``), named in messages with
    the parameter names exactly as the user types them.
    """

    name: str
    summary: str
    function: Callable[..., list[BoundResult]]
    parameters: tuple[ParameterSpec, ...]
    command: str = "bound"

    def evaluate(self, raw: Mapping[str, object]) -> list[BoundResult]:
        """Check the parameter names, fill defaults, and evaluate every bound of the family."""
        known = {p.name for p in self.parameters}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise InvalidParameterError(f"{self.command} {self.name} has no parameter {unknown[0]!r}; "
                                        f"its parameters are {', '.join(p.name for p in self.parameters)}")
        missing = [p.name for p in self.parameters if p.required and p.name not in raw]
        if missing:
            spec = next(p for p in self.parameters if p.name == missing[0])
            raise InvalidParameterError(f"{self.command} {self.name} needs --param {spec.name}=VALUE ({spec.help})")
        return self.function(**raw)
