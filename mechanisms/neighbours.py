"""Neighbour relations: which pairs of inputs a privacy guarantee compares.

A finite mechanism declares one of these. Checkers ask a relation for its ordered pairs over the
mechanism's inputs (both directions of every unordered pair), or, for :class:`AllPairs`, use the
per-output max/min reduction that avoids enumerating pairs at all.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass

import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, to_exact

__all__ = ["AllPairs", "Edges", "Adjacency", "Metric", "WithinDistance", "NeighbourRelation"]


@dataclass(frozen=True)
class AllPairs:
    """Every two inputs are neighbours: local differential privacy (user-level LDP)."""

    description: str = "all pairs of inputs (local DP)"

    def ordered_pairs(self, inputs: Sequence[Hashable]) -> Iterator[tuple[Hashable, Hashable]]:
        """Every ordered pair of distinct inputs."""
        return ((a, b) for a in inputs for b in inputs if a != b)


@dataclass(frozen=True)
class Edges:
    """An explicit undirected neighbour graph, given by its edges."""

    pairs: tuple[tuple[Hashable, Hashable], ...]
    description: str = "explicit neighbour pairs"

    def __post_init__(self) -> None:
        if isinstance(self.pairs, (str, bytes)) or not isinstance(self.pairs, Sequence):
            raise InvalidParameterError(f"pairs must be a sequence of (x, x') pairs. Got {self.pairs!r}")
        if not self.pairs:
            raise InvalidParameterError("pairs must list at least one neighbouring pair. Got none")
        for pair in self.pairs:
            if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise InvalidParameterError(f"pairs must be a sequence of (x, x') pairs. Got {pair!r} among them")
            a, b = pair
            if a == b:
                raise InvalidParameterError(f"pairs must join two different inputs. Got ({a!r}, {b!r})")
        object.__setattr__(self, "pairs", tuple(tuple(pair) for pair in self.pairs))

    def ordered_pairs(self, inputs: Sequence[Hashable]) -> Iterator[tuple[Hashable, Hashable]]:
        """Both directions of every edge (inputs not in ``inputs`` are an error)."""
        known = set(inputs)
        for a, b in self.pairs:
            if a not in known or b not in known:
                raise InvalidParameterError(f"pairs must join inputs of the mechanism. Got ({a!r}, {b!r})")
            yield a, b
            yield b, a


@dataclass(frozen=True)
class Adjacency:
    """Neighbours given by a predicate, e.g. Hamming distance one (bit flip) or |x - x'| = 1."""

    is_neighbour: Callable[[Hashable, Hashable], bool]
    description: str

    def ordered_pairs(self, inputs: Sequence[Hashable]) -> Iterator[tuple[Hashable, Hashable]]:
        """Every ordered pair of distinct inputs the predicate accepts."""
        return ((a, b) for a in inputs for b in inputs if a != b and self.is_neighbour(a, b))


@dataclass(frozen=True)
class Metric:
    """Metric DP: every pair is compared, at the scale d(x, x') (ratio <= exp(eps * d(x, x'))).

    References: Chatzikokolakis et al., "Broadening the scope of differential privacy using metrics"
    (PETS 2013), Definition 1.
    """

    distance: Callable[[Hashable, Hashable], object]
    description: str = "metric"

    @classmethod
    def from_matrix(cls, inputs: Sequence[Hashable], matrix: Sequence[Sequence[object]],
                    description: str = "explicit distance matrix") -> Metric:
        """A metric given as a square matrix over ``inputs`` (validated: zero diagonal, symmetric, > 0 off it)."""
        n = len(inputs)
        if len(matrix) != n or any(len(row) != n for row in matrix):
            raise InvalidParameterError(f"distance matrix must be {n}x{n}, one row and column per input")
        exact = [[to_exact(f"distance[{i}][{j}]", v) for j, v in enumerate(row)] for i, row in enumerate(matrix)]
        for i in range(n):
            if exact[i][i] != 0:
                raise InvalidParameterError(f"distance[{i}][{i}] must be 0. Got {exact[i][i]}")
            for j in range(i + 1, n):
                if exact[i][j] != exact[j][i]:
                    raise InvalidParameterError(f"distance must be symmetric. Got d[{i}][{j}] != d[{j}][{i}]")
                if not (exact[i][j] > 0):
                    raise InvalidParameterError(f"distance[{i}][{j}] must be > 0. Got {exact[i][j]}")
        index = {x: i for i, x in enumerate(inputs)}
        return cls(lambda a, b: exact[index[a]][index[b]], description)

    def ordered_pairs(self, inputs: Sequence[Hashable]) -> Iterator[tuple[Hashable, Hashable]]:
        """Every ordered pair of distinct inputs."""
        return ((a, b) for a in inputs for b in inputs if a != b)

    def exact_distance(self, a: Hashable, b: Hashable) -> sympy.Expr:
        """d(a, b) as an exact number."""
        return to_exact("distance", self.distance(a, b))



@dataclass(frozen=True)
class WithinDistance:
    """Real inputs are neighbours when |x - x'| <= radius (the sensitivity of an additive-noise release)."""

    radius: sympy.Expr
    description: str = "|x - x'| <= sensitivity"


NeighbourRelation = AllPairs | Edges | Adjacency | Metric | WithinDistance
