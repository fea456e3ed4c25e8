"""The strawman PRIVACT rejects: randomized response on every bit of the adjacency vector.

Each bit D_i[j] is reported truthfully with probability p and flipped with probability 1 - p. Per bit
(and so per edge of this user) it is ε = ln(p/(1-p))-LDP; at the paper's p = 0.7 that is ln(7/3) ≈ 0.8473.
Its utility is the problem: a user with d contacts in a network of n users reports
p·d + (1-p)(n - 1 - d) contacts on average, 300,027.7 for n = 10^6, d = 70 ("will claim to have
300,000 contacts").

References: 004_a0cddc0a7a24fb37.txt, Section 2.2 (strawman); spec §2.1, TC-P7.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.neighbours import Adjacency
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_unit_interval
from dpcert.mechanisms.randomized_response import RandomizedResponse

__all__ = ["AdjacencyRandomizedResponse"]


@dataclass(frozen=True)
class AdjacencyRandomizedResponse(Mechanism):
    """Randomized response on each bit of a user's 0/1 neighbour vector, independently.

    Why it is private: neighbouring vectors differ in one bit, whose report is binary randomized response
    with P(keep) = p, i.e. :class:`~dpcert.mechanisms.randomized_response.RandomizedResponse` at
    ε = ln(p/(1-p)); the other bits' reports have identical laws and cancel in the ratio.

    Attributes:
        p_keep: probability of reporting a bit truthfully, in (1/2, 1) (the paper: 7/10).
    """

    name: ClassVar[str] = "privact-strawman-rr"
    p_keep: sympy.Expr = sympy.Rational(7, 10)

    def __post_init__(self) -> None:
        p = require_unit_interval("p_keep", self.p_keep)
        if not p > sympy.Rational(1, 2):
            raise InvalidParameterError(f"p_keep must be in (1/2, 1). Got {p}")
        object.__setattr__(self, "p_keep", p)

    @property
    def eps(self) -> sympy.Expr:
        """ε = ln(p/(1-p)); ln(7/3) at p = 7/10."""
        return sympy.log(self.p_keep / (1 - self.p_keep))

    @property
    def bit_mechanism(self) -> RandomizedResponse:
        """The per-bit release: binary randomized response at ε (its truth probability is exactly p)."""
        return RandomizedResponse(self.eps)

    @property
    def neighbours(self) -> Adjacency:
        """Bit vectors differing in exactly one bit."""
        return Adjacency(lambda x, y: sum(a != b for a, b in zip(x, y)) == 1, "bit vectors one bit apart")

    def expected_reported_degree(self, n: object, d: object) -> sympy.Expr:
        """p·d + (1-p)(n - 1 - d): the mean number of 1s reported by a user with d of n - 1 possible contacts."""
        n = require_int("n", n, minimum=2)
        d = require_int("d", d, minimum=0, maximum=n - 1)
        return self.p_keep * d + (1 - self.p_keep) * (n - 1 - d)

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` reports of the bit vector x, shape (size, len(x))."""
        size = check_size(size)
        bits = np.asarray(x)
        if bits.ndim != 1 or not np.isin(bits, (0, 1)).all():
            raise InvalidParameterError(f"x must be a 0/1 vector. Got {x!r}")
        flip = rng.random((size, bits.size)) >= float(self.p_keep)
        return np.where(flip, 1 - bits, bits).astype(np.int8)
