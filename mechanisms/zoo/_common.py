"""Shared pieces of the zoo: neighbouring query-answer vectors and the Mechanism plumbing."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

import numpy as np

from dpcert.mechanisms.base import Mechanism
from dpcert.mechanisms.neighbours import Edges
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["ZooMechanism", "as_vector"]


def as_vector(x: Hashable, length: int, *, name: str = "x") -> np.ndarray:
    """``x`` as a float vector of the given length (a tuple of query answers or bin counts)."""
    try:
        v = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as error:
        raise InvalidParameterError(f"{name} must be a tuple of {length} numbers. Got {x!r}") from error
    if v.shape != (length,) or not np.all(np.isfinite(v)):
        raise InvalidParameterError(f"{name} must be a tuple of {length} finite numbers. Got {x!r}")
    return v


class ZooMechanism(Mechanism):
    """A known-good or known-broken mechanism from the auditing literature.

    Subclasses set ``expected_verdict`` ("private" or "not-private") and give ``neighbour_pairs()``: the
    inputs on which the literature's counterexample (or a standard test) is run.
    """

    expected_verdict: ClassVar[str]

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        raise NotImplementedError

    def is_neighbour(self, x: Hashable, x2: Hashable) -> bool:
        """Query-answer vectors of sensitivity 1: every coordinate differs by at most 1."""
        try:
            a, b = np.asarray(x, dtype=float), np.asarray(x2, dtype=float)
        except (TypeError, ValueError):
            return False
        return a.shape == b.shape and a.ndim == 1 and bool(np.all(np.abs(a - b) <= 1))

    @property
    def neighbours(self) -> Edges:
        return Edges(tuple(self.neighbour_pairs()), "the literature's test pairs (sensitivity 1)")
