"""The Mechanism protocol: finite mechanisms with exact pmfs, continuous ones with sympy densities.

Every mechanism is a frozen dataclass whose fields are its validated parameters. It samples with an
explicit ``numpy.random.Generator`` (never global state) and declares its neighbour relation.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.neighbours import NeighbourRelation
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["Mechanism", "FiniteMechanism", "ContinuousMechanism", "check_size", "require_index"]


def check_size(size: object) -> int:
    """Validate a sample count."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise InvalidParameterError(f"size must be an integer >= 0. Got {size!r}")
    return int(size)


def require_index(x: object, lo: int, hi: int) -> None:
    """Raise unless ``x`` is an integer input in [lo, hi] (without listing the inputs, which may be many)."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not lo <= x <= hi:
        raise InvalidParameterError(f"x must be one of the mechanism's inputs, an integer in [{lo}, {hi}]. Got {x!r}")


class Mechanism(ABC):
    """A randomized algorithm with validated, exact parameters."""

    name: ClassVar[str]
    """The name under which the catalogue and the command line know the mechanism."""

    def parameters(self) -> dict[str, object]:
        """The mechanism's parameters, by name."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @property
    @abstractmethod
    def neighbours(self) -> NeighbourRelation:
        """The pairs of inputs the mechanism's guarantee compares."""

    @abstractmethod
    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent outputs on input ``x``, drawn with ``rng``."""

    def describe(self) -> str:
        """``name(param=value, ...)``."""
        inner = ", ".join(f"{k}={v}" for k, v in self.parameters().items())
        return f"{self.name}({inner})"


class FiniteMechanism(Mechanism):
    """A mechanism with finitely many inputs and outputs and an exact pmf."""

    size_parameters: ClassVar[tuple[str, ...]] = ()
    """The parameters that set the number of inputs and outputs (size errors name them)."""

    def require_enumerable(self) -> None:
        """Raise :class:`InvalidParameterError` unless the inputs and outputs can be listed, and the exact
        checker run over them, within seconds.

        The default accepts every size (the exact checker still caps the number of probabilities);
        a mechanism whose spaces grow with a parameter overrides it with its own limit, stated next to
        its validator, and calls it before enumerating.
        """

    @abstractmethod
    def inputs(self) -> Sequence[Hashable]:
        """The input space, in a fixed order."""

    @abstractmethod
    def outputs(self) -> Sequence[Hashable]:
        """The output space, in a fixed order."""

    @abstractmethod
    def pmf(self, x: Hashable) -> Mapping[Hashable, sympy.Expr]:
        """P(y | x) for every output y with positive probability, as exact numbers summing to 1."""

    def pmf_rows(self) -> list[list[sympy.Expr]]:
        """The exact pmf as a table: one row per input, one entry per output (0 where impossible), in the orders of
        :meth:`inputs` and :meth:`outputs`."""
        outputs = list(self.outputs())
        return [[sympy.sympify(self.pmf(x).get(y, 0)) for y in outputs] for x in self.inputs()]

    @cached_property
    def _float_tables(self) -> tuple[list[Hashable], dict[Hashable, np.ndarray]]:
        outs = list(self.outputs())
        position = {y: i for i, y in enumerate(outs)}
        tables = {}
        for x in self.inputs():
            row = np.zeros(len(outs))
            for y, p in self.pmf(x).items():
                row[position[y]] = float(p)
            tables[x] = np.cumsum(row / row.sum())
        return outs, tables

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        """Inverse-CDF sampling from the pmf (subclasses override with a structural sampler)."""
        size = check_size(size)
        outs, tables = self._float_tables
        if x not in tables:
            raise InvalidParameterError(f"x must be one of the mechanism's inputs. Got {x!r}")
        index = np.searchsorted(tables[x], rng.random(size), side="right")
        index = np.minimum(index, len(outs) - 1)
        result = np.empty(size, dtype=object) if not _numeric(outs) else np.asarray(outs)[index]
        if result.dtype == object:
            for i, j in enumerate(index):
                result[i] = outs[j]
        return result

    def validate_input(self, x: Hashable) -> None:
        """Raise unless ``x`` is one of the inputs."""
        if x not in set(self.inputs()):
            raise InvalidParameterError(f"x must be one of the mechanism's inputs. Got {x!r}")


def _numeric(values: Sequence[Hashable]) -> bool:
    return all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values)


class ContinuousMechanism(Mechanism):
    """Additive noise on a real input, with a sympy density. Neighbours: |x - x'| <= sensitivity."""

    sensitivity: sympy.Expr

    @abstractmethod
    def density(self, y: sympy.Symbol, x: sympy.Expr) -> sympy.Expr:
        """The output density at ``y`` on input ``x``."""
