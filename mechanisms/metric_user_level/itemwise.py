"""PrivEMDItemWise (Algorithm 2): randomize every item of a dataset, release the unordered list.

The unordered list of m outputs carries exactly the information of its count vector (how many times
each output occurs), so this mechanism releases count vectors. As a finite mechanism its inputs are the
datasets of m items (multisets, written as tuples sorted in the item mechanism's input order) and its
outputs are the count vectors over the item mechanism's outputs (in their order).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism, check_size
from dpcert.mechanisms.neighbours import AllPairs, Metric
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive
from dpcert.mechanisms.metric_user_level.earth_movers import exact_matching_distance

__all__ = ["MAX_ENUMERATED_DATASETS", "PrivEMDItemWise"]

MAX_ENUMERATED_DATASETS = 5000
"""The most datasets (inputs) or count vectors (outputs) enumerated for the exact pmf; sampling has no limit."""


@lru_cache(maxsize=64)
def _cumulative_table(mechanism: FiniteMechanism) -> np.ndarray:
    """Row i: the cumulative float distribution of ``mechanism``'s output (in output order) on input i."""
    outputs, inputs = tuple(mechanism.outputs()), tuple(mechanism.inputs())
    column = {y: j for j, y in enumerate(outputs)}
    table = np.zeros((len(inputs), len(outputs)))
    for i, x in enumerate(inputs):
        for y, p in mechanism.pmf(x).items():
            table[i, column[y]] = float(p)
    return np.cumsum(table / table.sum(axis=1, keepdims=True), axis=1)


@dataclass(frozen=True)
class PrivEMDItemWise(FiniteMechanism):
    """PrivEMDItemWise: apply an item mechanism A to each of the m items and release the outputs unordered.

    P(count vector c | K) = sum over output sequences (y_1..y_m) with counts c of prod_i A(y_i | x_i),
    computed exactly by convolving the m rows A(. | x_i).

    Why it is private: the release of K is the release of any reordering of K, so for the matching pi of
    Lemma 2.1 the ratio is at most prod_i exp(alpha0 d(x_i, x'_pi(i))) = exp(m alpha0 d_EM(K~, K~')) when A
    is alpha0-metric-DP: (m alpha0)-metric DP w.r.t. d_EM, the bounded local d_EM-DP of Definition 3.1
    by composition (Fernandes et al. 2019). An item mechanism with all-pairs neighbours (eps-LDP, such as
    k-RR) is eps-metric-DP for the discrete metric, which is what :meth:`item_distance` then uses.

    References: 002_1def8c9789d6e1bd.txt, Algorithm 2, Lemma 2.1 and the composition bound of Section 4.2.
    """

    name: ClassVar[str] = "priv-emd-itemwise"
    mechanism: FiniteMechanism
    m: int

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, FiniteMechanism):
            raise InvalidParameterError(f"mechanism must be a finite mechanism such as GeneralizedKRR. "
                                        f"Got {type(self.mechanism).__name__}")
        if not isinstance(self.mechanism.neighbours, (Metric, AllPairs)):
            raise InvalidParameterError("mechanism must declare a Metric or all-pairs neighbour relation. "
                                        f"Got {self.mechanism.neighbours.description}")
        object.__setattr__(self, "m", require_int("m", self.m, minimum=1))

    # ---- the item space ----------------------------------------------------------------------------

    @cached_property
    def _items(self) -> tuple[Hashable, ...]:
        return tuple(self.mechanism.inputs())

    @cached_property
    def _position(self) -> dict[Hashable, int]:
        return {x: i for i, x in enumerate(self._items)}

    @cached_property
    def _item_outputs(self) -> tuple[Hashable, ...]:
        return tuple(self.mechanism.outputs())

    def item_distance(self, a: Hashable, b: Hashable) -> sympy.Expr:
        """d(a, b) of the item mechanism's metric (the discrete metric for all-pairs neighbours)."""
        relation = self.mechanism.neighbours
        if isinstance(relation, Metric):
            return relation.exact_distance(a, b)
        return sympy.Integer(0 if a == b else 1)

    def dataset(self, x: object) -> tuple[Hashable, ...]:
        """``x`` as this mechanism's input: m items, sorted in the item mechanism's input order."""
        if isinstance(x, (str, bytes)) or not isinstance(x, (Sequence, np.ndarray)) or len(x) != self.m:
            raise InvalidParameterError(f"x must be a dataset of m = {self.m} items. Got {x!r}")
        items = [v.item() if isinstance(v, np.generic) else v for v in x]
        unknown = [v for v in items if not isinstance(v, Hashable) or v not in self._position]
        if unknown:
            raise InvalidParameterError(f"x must hold inputs of {self.mechanism.name}. Got {unknown[0]!r}")
        return tuple(sorted(items, key=self._position.__getitem__))

    def earth_movers_distance(self, x: object, x_prime: object) -> sympy.Expr:
        """d_EM(K~, K~') of two datasets of m items, exactly (Lemma 2.1: the best matching, divided by m)."""
        return exact_matching_distance(self.dataset(x), self.dataset(x_prime), self.item_distance)

    @property
    def neighbours(self) -> Metric:
        return Metric(self.earth_movers_distance, f"d_EM of datasets of {self.m} items (Lemma 2.1)")

    def composition_alpha(self, item_alpha0: object) -> sympy.Expr:
        """m alpha0: the metric-DP parameter w.r.t. d_EM when the item mechanism is alpha0-metric-DP."""
        return self.m * require_positive("item_alpha0", item_alpha0)

    # ---- exact enumeration ---------------------------------------------------------------------------

    def _require_enumerable(self, what: str, choices: int) -> None:
        count = math.comb(choices + self.m - 1, self.m)
        if count > MAX_ENUMERATED_DATASETS:
            raise InvalidParameterError(
                f"m = {self.m} gives {count} {what}; m must keep them <= {MAX_ENUMERATED_DATASETS} to enumerate "
                "(sampling has no limit)")

    def inputs(self) -> tuple[tuple[Hashable, ...], ...]:
        self._require_enumerable("datasets", len(self._items))
        return tuple(itertools.combinations_with_replacement(self._items, self.m))

    def outputs(self) -> tuple[tuple[int, ...], ...]:
        width = len(self._item_outputs)
        self._require_enumerable("count vectors", width)
        return tuple(tuple(int(c) for c in np.bincount(chosen, minlength=width))
                     for chosen in itertools.combinations_with_replacement(range(width), self.m))

    def validate_input(self, x: object) -> None:
        """Raise unless ``x`` is a dataset of m items (checked without enumerating the inputs)."""
        self.dataset(x)

    def pmf(self, x: object) -> Mapping[tuple[int, ...], sympy.Expr]:
        """The exact law of the count vector: the m item rows convolved one at a time."""
        dataset = self.dataset(x)
        width = len(self._item_outputs)
        self._require_enumerable("count vectors", width)
        column = {y: j for j, y in enumerate(self._item_outputs)}
        law: dict[tuple[int, ...], sympy.Expr] = {(0,) * width: sympy.Integer(1)}
        for item in dataset:
            row = [(column[y], p) for y, p in self.mechanism.pmf(item).items() if p != 0]
            convolved: dict[tuple[int, ...], sympy.Expr] = {}
            for counts, probability in law.items():
                for j, p in row:
                    key = counts[:j] + (counts[j] + 1,) + counts[j + 1:]
                    convolved[key] = convolved.get(key, sympy.Integer(0)) + probability * p
            law = convolved
        return law

    # ---- sampling ------------------------------------------------------------------------------------

    @property
    def _cumulative(self) -> np.ndarray:
        return _cumulative_table(self.mechanism)

    def _positions(self, datasets: object) -> np.ndarray:
        array = np.asarray(datasets)
        if array.ndim != 2 or array.shape[1] != self.m:
            raise InvalidParameterError(f"datasets must be an array with one row of m = {self.m} items per dataset. "
                                        f"Got shape {array.shape}")
        if self._items == tuple(range(len(self._items))) and array.dtype.kind in "iu":
            if array.size and (array.min() < 0 or array.max() >= len(self._items)):
                raise InvalidParameterError(f"datasets must hold items in 0..{len(self._items) - 1}")
            return array.astype(np.int64)
        return np.array([[self._position[v] for v in self.dataset(row)] for row in array.tolist()], dtype=np.int64)

    def release_each(self, datasets: object, rng: np.random.Generator) -> np.ndarray:
        """One release (count vector) per row of ``datasets`` (N x m items): an N x |Y| integer array."""
        return self._release_positions(self._positions(datasets), rng)

    def _release_positions(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        rows, width = positions.shape[0], len(self._item_outputs)
        chosen = (rng.random(positions.shape)[..., None] >= self._cumulative[positions]).sum(axis=-1)
        chosen = np.minimum(chosen, width - 1)
        counts = np.zeros((rows, width), dtype=np.int64)
        np.add.at(counts, (np.repeat(np.arange(rows), self.m), chosen.ravel()), 1)
        return counts

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` count vectors released on dataset ``x``: a size x |Y| integer array."""
        size = check_size(size)
        items = np.array([self._position[v] for v in self.dataset(x)], dtype=np.int64)
        return self._release_positions(np.tile(items, (size, 1)), rng)
