"""BoundedEMDReduction (Algorithm 3): from unbounded to bounded data by sampling s items per user."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.metric_user_level.earth_movers import exact_earth_movers_distance, histogram
from dpcert.mechanisms.metric_user_level.emd_linear import PrivEMDLinear
from dpcert.mechanisms.metric_user_level.itemwise import PrivEMDItemWise

__all__ = ["BoundedEMDReduction"]


@dataclass(frozen=True)
class BoundedEMDReduction(Mechanism):
    """BoundedEMDReduction: each user's dataset, of any size, is replaced by s items drawn uniformly with
    replacement from it; a bounded d_EM-DP mechanism then runs on the list L of all n s draws.

    The input is the family of the n users' datasets (n = 1 in the local model), each a non-empty list of
    item indices of any length. The bounded mechanism is a :class:`PrivEMDItemWise` on n s items or a
    :class:`PrivEMDLinear`.

    Why it is private: couple every draw of K_i with a draw of K'_i along an optimal coupling; by
    Lemma 5.2 the sampled datasets are then within (1 + sqrt 2) r + (3/s) ln(1/delta) in d_EM except with
    probability delta, so an (alpha, delta)-bounded mechanism with alpha = eps / ((1 + sqrt 2) r +
    (3/s) ln(1/delta)) makes the whole (eps, 2 delta, r)-discrete d_EM-DP (Theorem 5.3).

    References: 002_1def8c9789d6e1bd.txt, Algorithm 3, Lemma 5.2 and Theorem 5.3.
    """

    name: ClassVar[str] = "bounded-emd-reduction"
    mechanism: PrivEMDItemWise | PrivEMDLinear
    s: int

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, (PrivEMDItemWise, PrivEMDLinear)):
            raise InvalidParameterError("mechanism must be a bounded d_EM-DP mechanism (PrivEMDItemWise or "
                                        f"PrivEMDLinear). Got {type(self.mechanism).__name__}")
        object.__setattr__(self, "s", require_int("s", self.s, minimum=1))

    @property
    def k(self) -> int:
        """The number of items of X."""
        if isinstance(self.mechanism, PrivEMDLinear):
            return self.mechanism.k
        return len(self.mechanism.mechanism.inputs())

    def _item_distance(self, a: int, b: int) -> sympy.Expr:
        if isinstance(self.mechanism, PrivEMDLinear):
            return self.mechanism.distance[a][b]
        return self.mechanism.item_distance(a, b)

    def users(self, x: object) -> list[np.ndarray]:
        """``x`` validated as a non-empty list of users' non-empty datasets of item indices in 0..k-1."""
        if isinstance(x, (str, bytes)) or not isinstance(x, (Sequence, np.ndarray)) or len(x) == 0:
            raise InvalidParameterError(f"x must be a list of users' datasets (lists of item indices). Got {x!r}")
        users = [np.asarray(histogram(items, self.k)) for items in x]  # validates every user's items
        if isinstance(self.mechanism, PrivEMDItemWise) and self.mechanism.m != len(users) * self.s:
            raise InvalidParameterError(f"s must make n s = {self.mechanism.m} (the bounded mechanism's m) with "
                                        f"n = {len(users)} users. Got s = {self.s}")
        return [np.repeat(np.arange(self.k), counts) for counts in users]

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` outputs of the bounded mechanism on freshly sampled lists L (one row per output)."""
        size = check_size(size)
        draws = [items[rng.integers(0, items.size, (size, self.s))] for items in self.users(x)]
        return self.mechanism.release_each(np.concatenate(draws, axis=1), rng)

    def _distance(self, x: object, x_prime: object) -> sympy.Expr:
        users, others = self.users(x), self.users(x_prime)
        if len(users) != len(others):
            raise InvalidParameterError(f"x and x' must have the same number of users. Got {len(users)}, {len(others)}")
        total = sympy.Integer(0)
        for a, b in zip(users, others):
            p, q = (np.bincount(u, minlength=self.k) for u in (a, b))
            total += exact_earth_movers_distance([sympy.Rational(int(c), a.size) for c in p],
                                                 [sympy.Rational(int(c), b.size) for c in q], self._item_distance)
        return total

    @property
    def neighbours(self) -> Metric:
        return Metric(self._distance, "sum over users of d_EM(K~_i, K~'_i), any sizes (Definitions 5.1 and 5.2 "
                                      "compare pairs with d_EM <= r)")
