"""Candidate events and their selection: sets of outputs (discrete) or threshold half-lines (continuous).

For discrete outputs the candidates are the prefixes of the outputs sorted by empirical likelihood ratio
(the Neyman–Pearson optimal events); for scalar or vector real outputs they are ``{y_j >= t}`` and
``{y_j <= t}`` for t on a grid of pooled empirical quantiles of each coordinate j, and, for a vector
output with a coordinate k that takes few values (an index, a flag), the same half-lines restricted to
``{y_k = v}`` for each such value v: joint events such as "the first query above the threshold is the
last one, and its released noisy answer is small", which one-coordinate events cannot express.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from scipy.stats import beta

__all__ = ["ConditionedThresholdEvent", "Event", "SetEvent", "ThresholdEvent", "is_continuous", "select_event",
           "vector_bounds"]

_KEY_VALUES = 32
"""A coordinate with at most this many distinct values can condition threshold events."""


class Event:
    """An event: ``count(outputs)`` is how many outputs fall in it; ``describe()`` says which."""

    def count(self, outputs: np.ndarray) -> int:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class SetEvent(Event):
    """The outputs in ``values`` (rows of a 2-d output are tuples)."""

    values: frozenset

    def count(self, outputs: np.ndarray) -> int:
        keys = as_keys(outputs)
        if keys.dtype != object:
            return int(np.isin(keys, np.fromiter(self.values, dtype=keys.dtype, count=len(self.values))).sum())
        return sum(1 for k in keys if k in self.values)

    def describe(self) -> str:
        shown = sorted(self.values, key=str)
        text = ", ".join(str(_plain(v)) for v in shown[:20]) + (", ..." if len(shown) > 20 else "")
        return f"y in {{{text}}}"


@dataclass(frozen=True)
class ThresholdEvent(Event):
    """``y[coordinate] >= t`` (direction ">=") or ``y[coordinate] <= t`` (coordinate None: scalar y)."""

    coordinate: int | None
    threshold: float
    direction: str

    def count(self, outputs: np.ndarray) -> int:
        y = outputs if self.coordinate is None else outputs[:, self.coordinate]
        return int((y >= self.threshold).sum() if self.direction == ">=" else (y <= self.threshold).sum())

    def describe(self) -> str:
        name = "y" if self.coordinate is None else f"y[{self.coordinate}]"
        return f"{name} {self.direction} {self.threshold!r}"


@dataclass(frozen=True)
class ConditionedThresholdEvent(Event):
    """``y[key] == value`` and ``y[coordinate] >= t`` (or ``<= t``)."""

    key: int
    value: float
    inner: ThresholdEvent

    def count(self, outputs: np.ndarray) -> int:
        return self.inner.count(outputs[outputs[:, self.key] == self.value])

    def describe(self) -> str:
        return f"y[{self.key}] == {self.value!r} and {self.inner.describe()}"


def _plain(value: object) -> object:
    return value.item() if hasattr(value, "item") else value


def as_keys(outputs: np.ndarray) -> np.ndarray:
    """A 1-d array of hashable keys: the outputs themselves, or the rows of a 2-d array as tuples."""
    if outputs.ndim == 1:
        return outputs
    keys = np.empty(len(outputs), dtype=object)
    keys[:] = [tuple(_plain(v) for v in row) for row in outputs]
    return keys


def is_continuous(pooled: np.ndarray) -> bool:
    """Real outputs with many distinct values are handled with thresholds, everything else with sets."""
    if pooled.dtype.kind != "f":
        return False
    columns = [pooled] if pooled.ndim == 1 else [pooled[:, j] for j in range(pooled.shape[1])]
    for column in columns:
        distinct = len(np.unique(column[:20000]))
        if distinct > 1000 or distinct > 0.2 * min(len(column), 20000):
            return True
    return False


def vector_bounds(k: np.ndarray, k2: np.ndarray, n: float, n2: float, alpha: float, delta: float) -> np.ndarray:
    """Vectorised eps lower bounds log((CP_lo(k) - delta) / CP_hi(k2)), 0 where not positive."""
    k = np.asarray(k, dtype=float)
    k2 = np.asarray(k2, dtype=float)
    with np.errstate(all="ignore"):
        lo = np.where(k > 0, beta.ppf(alpha, np.maximum(k, 1e-300), n - k + 1), 0.0) - delta
        hi = np.where(k2 < n2, beta.ppf(1 - alpha, k2 + 1, np.maximum(n2 - k2, 1e-300)), 1.0)
        value = np.where((lo > 0) & (hi > 0), np.log(np.maximum(lo, 1e-300)) - np.log(np.maximum(hi, 1e-300)), 0.0)
    return np.maximum(np.nan_to_num(value, nan=0.0), 0.0)


def select_event(a: np.ndarray, b: np.ndarray, continuous: bool, n_confirm: int, alpha: float,
                 delta: float) -> tuple[Event, float]:
    """The candidate event maximising the bound for P(E|a) vs P(E|b), scored as if counts came from
    ``n_confirm`` samples (the selection frequencies rescaled); returns (event, score)."""
    scale_a, scale_b = n_confirm / len(a), n_confirm / len(b)
    if continuous:
        return _select_threshold(a, b, scale_a, scale_b, n_confirm, alpha, delta)
    return _select_set(a, b, scale_a, scale_b, n_confirm, alpha, delta)


def _select_set(a, b, scale_a, scale_b, n, alpha, delta) -> tuple[Event, float]:
    count_a: Counter[Hashable] = Counter(_plain(v) for v in as_keys(a)) if a.ndim > 1 or a.dtype == object else \
        Counter(dict(zip(*[x.tolist() for x in np.unique(a, return_counts=True)])))
    count_b: Counter[Hashable] = Counter(_plain(v) for v in as_keys(b)) if b.ndim > 1 or b.dtype == object else \
        Counter(dict(zip(*[x.tolist() for x in np.unique(b, return_counts=True)])))
    values = list(set(count_a) | set(count_b))
    ca = np.array([count_a.get(v, 0) for v in values], dtype=float) * scale_a
    cb = np.array([count_b.get(v, 0) for v in values], dtype=float) * scale_b
    order = np.argsort(-(ca + 0.5) / (cb + 0.5), kind="stable")
    scores = vector_bounds(np.cumsum(ca[order]), np.cumsum(cb[order]), n, n, alpha, delta)
    best = int(np.argmax(scores))
    return SetEvent(frozenset(values[i] for i in order[: best + 1])), float(scores[best])


def _select_threshold(a, b, scale_a, scale_b, n, alpha, delta) -> tuple[Event, float]:
    best = _best_half_line(a, b, scale_a, scale_b, n, alpha, delta)
    if a.ndim == 2:
        for key in range(a.shape[1]):
            values, counts = np.unique(np.concatenate([a[:, key], b[:, key]]), return_counts=True)
            if len(values) > _KEY_VALUES:
                continue
            for value in values[counts >= 10]:
                inner, score = _best_half_line(a[a[:, key] == value], b[b[:, key] == value], scale_a, scale_b, n,
                                               alpha, delta, skip=key)
                if inner is not None and score > best[1]:
                    best = (ConditionedThresholdEvent(key, float(value), inner), score)
    return best


def _best_half_line(a, b, scale_a, scale_b, n, alpha, delta, *, skip: int | None = None
                    ) -> tuple[ThresholdEvent | None, float]:
    """The best ``{y_j >= t}`` / ``{y_j <= t}`` over coordinates j (except ``skip``) and a quantile grid of t;
    counts are scaled to ``n`` confirmation samples (``a`` and ``b`` may be restricted subsets)."""
    if len(a) == 0 or len(b) == 0:
        return None, 0.0
    columns = [None] if a.ndim == 1 else [j for j in range(a.shape[1]) if j != skip]
    tail = np.geomspace(min(10 / n, 0.01), 0.01, 20)
    levels = np.unique(np.concatenate([tail, np.linspace(0.01, 0.99, 99), 1 - tail]))
    best: tuple[ThresholdEvent, float] | None = None
    for j in columns:
        ya = np.sort(a if j is None else a[:, j])
        yb = np.sort(b if j is None else b[:, j])
        grid = np.unique(np.quantile(np.concatenate([ya, yb]), levels))
        for direction in (">=", "<="):
            if direction == ">=":
                ka = (len(ya) - np.searchsorted(ya, grid, "left")) * scale_a
                kb = (len(yb) - np.searchsorted(yb, grid, "left")) * scale_b
            else:
                ka = np.searchsorted(ya, grid, "right") * scale_a
                kb = np.searchsorted(yb, grid, "right") * scale_b
            scores = vector_bounds(ka, kb, n, n, alpha, delta)
            i = int(np.argmax(scores))
            if best is None or scores[i] > best[1]:
                best = (ThresholdEvent(j, float(grid[i]), direction), float(scores[i]))
    return best if best is not None else (None, 0.0)
