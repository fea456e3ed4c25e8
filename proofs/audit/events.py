"""Candidate events and their selection: sets of outputs (discrete) or threshold half-lines (continuous).

For discrete outputs the candidates are the prefixes of the outputs sorted by empirical likelihood ratio
(the Neyman–Pearson optimal events); for scalar or vector real outputs they are ``{y_j >= t}`` and
``{y_j <= t}`` for t on a grid of pooled empirical quantiles of each coordinate j, and, for a vector
output with a coordinate k that takes few values (an index, a flag), the same half-lines restricted to
``{y_k = v}`` for each such value v: joint events such as "the first query above the threshold is the
last one, and its released noisy answer is small", which one-coordinate events cannot express.

For vector outputs two scores join them, each thresholded like a coordinate: a logistic regression of "drawn under
x" on the coordinates (scikit-learn, fitted on part of the selection sample; DP-Sniper's idea: Bichsel et al., S&P
2021), and a naive Bayes score, the sum over coordinates of the log frequency ratio of each coordinate's value or of
its side of the pooled median, counted on the selection sample: the exact log likelihood ratio when the coordinates
are independent given the input (and, for sides, the shape of Laplace noise's). They combine coordinates (twenty
noisy copies of one answer) and see through huge discrete output spaces (a 20-bit RAPPOR report), where a set of
outputs chosen one by one overfits. Where real coordinates also take a few values often (a sparse vector's -1000 for
"below" beside its released noisy answers), a third score is a logistic regression on flag features: each such value
an indicator of its own, the coordinate's size counting only where it is none of them (DP-Sniper's flag features for
SVT34Parallel), so that a sentinel's size does not swamp the answers' in a linear score.

Every choice is made on a held-out part of the selection sample: each family's event is fitted on the rest, the
event that bounds best on the held-out part wins, and that held-out bound is the value by which the audit picks its
pair. So a family with many candidates (sets, thousands of half-lines) does not win on its own optimism, and
everything stays on the selection sample: the confirmation sample's bound keeps its confidence.

With ``floating_point``, scalar float64 outputs are also seen through their binary representation (Mironov,
"On significance of the least significant bits for differential privacy", CCS 2012): each output's lattice cell
(e, l), its binary exponent (2^e <= |y| < 2^(e+1)) and its lowest set bit (y an odd multiple of 2^l), and events
are sets of cells, chosen like the sets of a discrete output. x + noise computed in floating point lands on a
lattice that depends on x (1 + Y is a multiple of 2^-53 wherever Y is, while Y itself reaches much finer
multiples near 0), so an output cell reachable from one input only is a violation. A cell is a function of the
output, so these events are as sound as any other; the choice between them and the half-lines is made on a
held-out part of the selection sample.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.stats import beta

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["BinScoreEvent", "ConditionedThresholdEvent", "Event", "FlagScoreEvent", "LatticeEvent", "RowCode",
           "ScoreEvent", "SetEvent", "ThresholdEvent", "is_continuous", "lattice_cells", "select_event", "vector_bounds"]

_KEY_VALUES = 32
"""A coordinate with at most this many distinct values can condition threshold events."""

SCORE_FIT_ROWS = 300_000
"""The most selection samples per input the logistic regression is fitted on (its weights settle long before)."""

FLAG_SHARE = 0.01
"""A value of a real coordinate is a flag when at least this share of the pooled fitting rows takes it there."""

_SCORE_ROWS = 250_000
"""Rows scored at a time."""

_PREFIXES = 4096
"""The most prefix lengths of a set event whose bounds are evaluated (a guide: the selection only)."""

HELD_OUT = 0.3
"""The share of the selection sample that decides between event families and between pairs."""

FIT_ALPHA = 0.01
"""Each family fits its event on the first part of the selection sample by the bound at alpha * FIT_ALPHA, the
held-out part judges it at alpha: the stricter level makes the fit pay for small counts, so it does not chase the
handful of tail outputs whose in-sample ratio is extreme by chance (the winner's curse of many thresholds; measured
on laplace-parallel at 10^6 samples per input: a 1-in-10^5 tail, then nothing, at the plain alpha; a score event and
0.023 at alpha / 100)."""

SHOWN_ALPHA = 0.16
"""The level (about one standard error) at which an event's held-out share is bounded before its confirmation bound
is foreseen (see :func:`_held_out_value`; measured on numerical-svt at 10^7 samples per input: a tail event seen 4
times against 1 held out, rescaled to 0.49, had outbid every real event, and the audit confirmed nothing)."""


class Event:
    """An event: ``count(outputs)`` is how many outputs fall in it; ``describe()`` says which."""

    def count(self, outputs: np.ndarray) -> int:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class RowCode:
    """Rows of small non-negative integers (bits, counts, indices) as one int64 each: sum_j y_j base^j, for rows of
    ``width`` entries in [0, base) (numpy throughout: no Python tuple per row)."""

    base: int
    width: int

    @classmethod
    def of(cls, *arrays: np.ndarray) -> RowCode | None:
        """The code of 2-d integral non-negative ``arrays`` whose rows fit in 62 bits; None otherwise."""
        first = arrays[0]
        if first.ndim != 2 or first.dtype.kind not in "biuf":
            return None
        if not all(np.all(a >= 0) and np.all(a == np.floor(a)) for a in arrays):
            return None
        base = int(max(float(a.max(initial=0)) for a in arrays)) + 1
        if base ** first.shape[1] > 2 ** 62:
            return None
        return cls(base, first.shape[1])

    def encode(self, outputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(keys, valid): the rows' codes, and which rows the code covers (width entries, each in [0, base))."""
        rows = np.asarray(outputs)
        if rows.ndim != 2 or rows.shape[1] != self.width:
            return np.zeros(len(rows), dtype=np.int64), np.zeros(len(rows), dtype=bool)
        valid = np.all((rows >= 0) & (rows < self.base) & (rows == np.floor(rows)), axis=1)
        powers = np.array([self.base ** j for j in range(self.width)], dtype=np.int64)
        return np.where(valid[:, None], rows, 0).astype(np.int64) @ powers, valid

    def decode(self, key: int) -> tuple[int, ...]:
        return tuple((int(key) // self.base ** j) % self.base for j in range(self.width))


@dataclass(frozen=True)
class SetEvent(Event):
    """The outputs in ``values`` (rows of a 2-d output are tuples, or their :class:`RowCode` keys with ``code``)."""

    values: frozenset
    code: RowCode | None = None

    def count(self, outputs: np.ndarray) -> int:
        if self.code is not None:
            keys, valid = self.code.encode(outputs)
            return int(np.isin(keys[valid], np.fromiter(self.values, dtype=np.int64, count=len(self.values))).sum())
        keys = as_keys(outputs)
        if keys.dtype != object:
            return int(np.isin(keys, np.fromiter(self.values, dtype=keys.dtype, count=len(self.values))).sum())
        return sum(1 for k in keys if k in self.values)

    def describe(self) -> str:
        shown = sorted(self.values, key=str) if self.code is None else sorted(self.code.decode(v) for v in self.values)
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
    """``y[key] == value`` and ``y[coordinate] >= t`` (or ``<= t``); with ``single``, y[key] rounded to float32 first
    (the selection sample was kept in float32, see :func:`~dpcert.proofs.audit.sampling.draw_all`)."""

    key: int
    value: float
    inner: ThresholdEvent
    single: bool = False

    def count(self, outputs: np.ndarray) -> int:
        keys = outputs[:, self.key].astype(np.float32) if self.single else outputs[:, self.key]
        return self.inner.count(outputs[keys == self.value])

    def describe(self) -> str:
        return f"y[{self.key}] == {self.value!r} and {self.inner.describe()}"


@dataclass(frozen=True)
class ScoreEvent(Event):
    """``w . y >= t`` (or ``<= t``): a threshold on a linear score of the output's coordinates."""

    weights: tuple[float, ...]
    inner: ThresholdEvent

    def count(self, outputs: np.ndarray) -> int:
        return self.inner.count(_scores(outputs, self.weights))

    def describe(self) -> str:
        terms = " + ".join(f"{w:.4g} y[{j}]" for j, w in enumerate(self.weights) if w)
        return f"{terms or '0'} {self.inner.direction} {self.inner.threshold!r}"


@dataclass(frozen=True)
class FlagScoreEvent(Event):
    """``w . phi(y) >= t`` (or ``<= t``) on flag features: for each coordinate j, y_j where it is none of
    ``flags[j]`` (else 0), then one indicator per flag f, y_j == f (compared in float32: the selection sample may have
    been kept so, and the event stays a function of the output). ``weights`` holds the features' weights in that
    order, coordinate by coordinate."""

    flags: tuple[tuple[float, ...], ...]
    weights: tuple[float, ...]
    inner: ThresholdEvent

    def count(self, outputs: np.ndarray) -> int:
        return self.inner.count(_flag_scores(outputs, self.flags, self.weights))

    def describe(self) -> str:
        terms, k = [], 0
        for j, flags in enumerate(self.flags):
            named = [(self.weights[k], f"y[{j}]")] + [(self.weights[k + 1 + i], f"[y[{j}] == {f!r}]")
                                                       for i, f in enumerate(flags)]
            terms += [f"{w:.4g} {name}" for w, name in named if w]
            k += 1 + len(flags)
        flagged = "; ".join(f"y[{j}] counts 0 when one of {list(f)!r}" for j, f in enumerate(self.flags) if f)
        return f"{' + '.join(terms) or '0'} {self.inner.direction} {self.inner.threshold!r} ({flagged})"


def _flag_features(rows: np.ndarray, flags: tuple[tuple[float, ...], ...]) -> np.ndarray:
    """The flag features of :class:`FlagScoreEvent`, one row per output."""
    columns = []
    for j, values in enumerate(flags):
        y = np.asarray(rows[:, j], dtype=float)
        hits = [rows[:, j].astype(np.float32) == np.float32(f) for f in values]
        columns.append(np.where(np.logical_or.reduce(hits), 0.0, y) if hits else y)
        columns += [hit.astype(float) for hit in hits]
    return np.column_stack(columns)


def _flag_scores(outputs: np.ndarray, flags: tuple[tuple[float, ...], ...], weights: tuple[float, ...]) -> np.ndarray:
    """w . phi(y) for every row, phi the flag features."""
    w = np.asarray(weights, dtype=float)
    return _in_blocks(outputs, lambda rows: _flag_features(rows, flags) @ w)


def _flags(pooled: np.ndarray) -> tuple[tuple[float, ...], ...]:
    """Each coordinate's flags: the values that at least FLAG_SHARE of ``pooled`` takes there, at most _KEY_VALUES."""
    flags = []
    for j in range(pooled.shape[1]):
        values, counts = np.unique(pooled[:, j].astype(np.float32), return_counts=True)
        frequent = values[counts >= FLAG_SHARE * len(pooled)]
        flags.append(tuple(float(v) for v in frequent) if len(frequent) <= _KEY_VALUES else ())
    return tuple(flags)


def lattice_cells(outputs: np.ndarray) -> np.ndarray:
    """Each float64 output's lattice cell (e, l) as one int64, (e + 1100) * 4096 + (l + 1100); -1 for zero.

    For y = +-m 2^s with m the integer significand (s = max(biased exponent, 1) - 1075, exact for normal and
    subnormal doubles), l = s + (trailing zeros of m) and e is frexp's exponent minus 1."""
    y = np.ascontiguousarray(outputs, dtype=np.float64)
    bits = y.view(np.uint64)
    field = (bits >> np.uint64(52)) & np.uint64(0x7FF)
    significand = (bits & np.uint64((1 << 52) - 1)) | np.where(field > 0, np.uint64(1 << 52), np.uint64(0))
    lowest = significand & (~significand + np.uint64(1))  # its lowest set bit, a power of two (0 for y = 0)
    shift = np.maximum(field.astype(np.int64), 1) - 1075
    low = shift + np.frexp(lowest.astype(np.float64))[1].astype(np.int64) - 1
    top = np.frexp(y)[1].astype(np.int64) - 1
    return np.where(significand == 0, -1, (top + 1100) * 4096 + (low + 1100))


@dataclass(frozen=True)
class LatticeEvent(Event):
    """The float64 outputs whose lattice cell (:func:`lattice_cells`) is one of ``cells`` (their int64 codes)."""

    cells: frozenset

    def count(self, outputs: np.ndarray) -> int:
        cells = np.fromiter(self.cells, dtype=np.int64, count=len(self.cells))
        return int(np.isin(lattice_cells(outputs), cells).sum())

    def describe(self) -> str:
        pairs = sorted((c // 4096 - 1100, c % 4096 - 1100) for c in self.cells if c >= 0)
        shown = ", ".join(f"({e}, {low})" for e, low in pairs[:20]) + (", ..." if len(pairs) > 20 else "")
        zero = " or y == 0" if -1 in self.cells else ""
        return (f"2^e <= |y| < 2^(e+1) and y an odd multiple of 2^l (float64), for (e, l) in {{{shown}}}{zero}"
                f" ({len(self.cells)} cells)")


@dataclass(frozen=True)
class BinScoreEvent(Event):
    """``sum_j w_j[bin_j(y_j)] >= t`` (or ``<= t``): each coordinate's bin (``edges[j]`` split it; np.searchsorted) has
    a weight, the log of its frequency ratio under the two inputs on the selection sample (a naive Bayes score: the
    exact log likelihood ratio when the coordinates are independent given the input and the bins are its level
    sets, as for RAPPOR's report bits or independent noisy copies of one answer)."""

    edges: tuple[tuple[float, ...], ...]
    weights: tuple[tuple[float, ...], ...]
    inner: ThresholdEvent

    def count(self, outputs: np.ndarray) -> int:
        return self.inner.count(_bin_scores(outputs, self.edges, self.weights))

    def describe(self) -> str:
        terms = "; ".join(f"y[{j}] split at {list(e)!r}: {[round(w, 4) for w in ws]!r}"
                          for j, (e, ws) in enumerate(zip(self.edges, self.weights)) if any(ws))
        return f"sum_j w_j(bin of y[j]) {self.inner.direction} {self.inner.threshold!r}, w = {{{terms}}}"


def _in_blocks(outputs: np.ndarray, score: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``score`` of every row, _SCORE_ROWS rows at a time (a whole sample's float64 features would double its
    memory)."""
    return np.concatenate([score(outputs[i: i + _SCORE_ROWS]) for i in range(0, len(outputs), _SCORE_ROWS)]) \
        if len(outputs) else np.zeros(0)


def _bin_scores(outputs: np.ndarray, edges, weights) -> np.ndarray:
    """sum_j w_j[bin_j(y_j)] for every row."""
    tables = [np.asarray(w, dtype=float) for w in weights]
    return _in_blocks(outputs, lambda rows: sum(tables[j][np.searchsorted(edges[j], rows[:, j])]
                                                for j in range(rows.shape[1])))


def _bin_edges(pooled: np.ndarray) -> tuple[tuple[float, ...], ...]:
    """Each coordinate's bins: its values where it takes at most _KEY_VALUES (split halfway between them), else its
    two sides of the pooled median."""
    edges = []
    for j in range(pooled.shape[1]):
        values = np.unique(pooled[:, j]).astype(float)  # (int8 columns: their midpoints would overflow)
        edges.append(tuple(float(v) for v in (values[:-1] + values[1:]) / 2) if len(values) <= _KEY_VALUES
                     else (float(np.median(pooled[:, j])),))
    return tuple(edges)


def _scores(outputs: np.ndarray, weights: tuple[float, ...]) -> np.ndarray:
    """w . y for every row."""
    w = np.asarray(weights, dtype=float)
    return _in_blocks(outputs, lambda rows: np.asarray(rows, dtype=float) @ w)


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


def vector_bounds(k: np.ndarray, k2: np.ndarray, n: float, n2: float, alpha: float, delta: float, *,
                  method: str = "best") -> np.ndarray:
    """Vectorised eps lower bounds from counts k of n under x and k2 of n2 under x', 0 where not positive, each bound at
    ``alpha`` (see :mod:`dpcert.proofs.audit.core`): for delta = 0 the log odds of the share's Clopper–Pearson lower
    bound (k of k + k2); for delta > 0 by ``method``: "share", log(s / (1 - s) - delta / CP_lo(k2)); "two-sided",
    log((CP_lo(k) - delta) / CP_hi(k2)); "best" (default), the larger. A guide for choosing events (scipy,
    uncertified)."""
    if method not in ("share", "two-sided", "best"):
        raise InvalidParameterError(f"method must be 'share', 'two-sided' or 'best'. Got {method!r}")
    k = np.asarray(k, dtype=float)
    k2 = np.asarray(k2, dtype=float)
    with np.errstate(all="ignore"):
        share = np.where(k > 0, beta.ppf(alpha, np.maximum(k, 1e-300), k2 + 1), 0.0)
        odds = np.maximum(share, 1e-300) / (1 - np.minimum(share, 1 - 1e-16))
        if delta == 0:
            return np.maximum(np.nan_to_num(np.log(odds), nan=0.0), 0.0)
        values = []
        if method in ("share", "best"):
            lo2 = np.where(k2 > 0, beta.ppf(alpha, np.maximum(k2, 1e-300), np.maximum(n2 - k2 + 1, 1e-300)), 0.0)
            ratio = odds - delta / np.maximum(lo2, 1e-300)
            values.append(np.where((lo2 > 0) & (ratio > 0), np.log(np.maximum(ratio, 1e-300)), 0.0))
        if method in ("two-sided", "best"):
            lo = np.where(k > 0, beta.ppf(alpha, np.maximum(k, 1e-300), n - k + 1), 0.0) - delta
            hi = np.where(k2 < n2, beta.ppf(1 - alpha, k2 + 1, np.maximum(n2 - k2, 1e-300)), 1.0)
            values.append(np.where((lo > 0) & (hi > 0), np.log(np.maximum(lo, 1e-300)) - np.log(np.maximum(hi, 1e-300)),
                                   0.0))
        value = np.maximum.reduce(values)
    return np.maximum(np.nan_to_num(value, nan=0.0), 0.0)


Choice = tuple[Event | None, float]
"""A family's event for one direction of a pair and its value (None and 0 when the family has none)."""


def select_event(a: np.ndarray, b: np.ndarray, continuous: bool, n_confirm: int, alpha: float,
                 delta: float, *, floating_point: bool = False) -> list[tuple[Event, float]]:
    """The candidate events for P(E|a) vs P(E|b) and for P(E|b) vs P(E|a), counts scored as if from ``n_confirm``
    samples (the frequencies rescaled): [(event, value) for a over b, (event, value) for b over a]. Both directions
    share every fit (sorted columns, scores, counts): only the comparison differs. Each family's events are fitted on
    the first part of the selection sample; the one that bounds best on the held-out rest is returned, and ``value``
    is that held-out bound, an honest guide to compare pairs by. (Fitting the winner again on the whole selection
    sample would choose a new threshold in-sample, and in a tail that choice is optimistic.) Samples too small to
    split (under 100) use the first family and its own score. With ``floating_point``, scalar float64 outputs also get
    the lattice events (see the module)."""
    families = _families(a, continuous, floating_point)
    if min(len(a), len(b)) < 100:
        return families[0](a, b, n_confirm / len(a), n_confirm / len(b), n_confirm, alpha, delta)
    return _held_out_choice(families, a, b, n_confirm, alpha, delta)


def _families(a: np.ndarray, continuous: bool, floating_point: bool) -> tuple:
    """The event families that fit outputs like ``a``: half-lines (real) or sets (discrete) first, then the scores of
    vector outputs or the lattice cells of scalar doubles."""
    own = _select_threshold if continuous else _select_set
    if a.ndim == 2 and a.shape[1] >= 2 and a.dtype.kind in "biuf":
        if continuous and any(_flags(a[:20_000])):
            return own, _select_score, _select_bin_score, _select_flag_score
        return own, _select_score, _select_bin_score
    if floating_point and a.ndim == 1 and a.dtype == np.float64:
        return own, _select_lattice
    return (own,)


def _both(k: np.ndarray, k2: np.ndarray, n: float, alpha: float, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of counts k (under a) and k2 (under b) for a over b and for b over a."""
    return vector_bounds(k, k2, n, n, alpha, delta), vector_bounds(k2, k, n, n, alpha, delta)


def _held_out_choice(families, a, b, n, alpha, delta) -> list[tuple[Event, float]]:
    """For each direction, of the families' events, each selected on the first 1 - HELD_OUT of ``a`` and ``b`` (by
    the bound at alpha * FIT_ALPHA), the one that promises the best confirmation bound by its held-out counts
    (:func:`_held_out_value`: a share that the held-out counts show at SHOWN_ALPHA, so 4 outputs against 1 in a far
    tail cannot outbid a well-supported event), and that promise. All of the selection sample takes part: a rare
    event (the tail of a noisy maximum) shows on the held-out part only when that part is large."""
    cut_a, cut_b = int(len(a) * (1 - HELD_OUT)), int(len(b) * (1 - HELD_OUT))
    held_a, held_b = a[cut_a:], b[cut_b:]
    best: list[tuple[Event, float] | None] = [None, None]
    for family in families:
        for side, (event, _) in enumerate(family(a[:cut_a], b[:cut_b], n / cut_a, n / cut_b, n, alpha * FIT_ALPHA,
                                                 delta)):
            if event is None:
                continue
            held, sizes = (event.count(held_a), event.count(held_b)), (len(held_a), len(held_b))
            top, bottom = (0, 1) if side == 0 else (1, 0)  # the direction's favoured input first
            value = _held_out_value(held[top], held[bottom], sizes[top], sizes[bottom], n, alpha, delta)
            if best[side] is None or value > best[side][1]:
                best[side] = (event, value)
    assert best[0] is not None and best[1] is not None  # the first family always has events
    return best


def _logistic_weights(fit_a: np.ndarray, fit_b: np.ndarray) -> tuple[float, ...]:
    """The weights of a logistic regression of "drawn under a" on the features (standardised for the fit, then
    mapped back to the features' own scale)."""
    from sklearn.linear_model import LogisticRegression

    features = np.vstack([fit_a, fit_b])
    centre, spread = features.mean(axis=0), features.std(axis=0)
    spread = np.where(spread > 0, spread, 1.0)
    labels = np.concatenate([np.ones(len(fit_a)), np.zeros(len(fit_b))])
    model = LogisticRegression(max_iter=200).fit((features - centre) / spread, labels)
    return tuple(float(w) for w in model.coef_[0] / spread)


def _held_out_value(k: int, k2: int, size: int, size2: int, n: int, alpha: float, delta: float) -> float:
    """What an event seen k times in ``size`` held-out outputs of x and k2 times in ``size2`` of x' promises for the
    confirmation's n samples each: the share of its outputs that come from x, bounded below at SHOWN_ALPHA (one
    standard error: the held-out counts are a sample too), then the confirmation's bound at ``alpha`` of counts in that
    share at the held-out rate scaled to n. A handful of tail outputs (9 against 3) so promises nothing, where their
    rates taken at face value had promised 0.27 and outbid every real event (laplace-parallel at 10^7 samples per
    input, seed 2: the audit confirmed 0)."""
    if k == 0:
        return 0.0
    share = float(beta.ppf(SHOWN_ALPHA, k, k2 + 1))  # of the held-out outputs in E, those from x
    from_x = share / size / (share / size + (1 - share) / size2)  # the same as a share of the rates
    total = (k / size + k2 / size2) * n  # the confirmation's outputs in E, foreseen
    return float(vector_bounds([from_x * total], [(1 - from_x) * total], n, n, alpha, delta)[0])


def _select_score(a, b, scale_a, scale_b, n, alpha, delta) -> list[Choice]:
    """The best half-lines of a logistic regression's linear score of the coordinates (see the module)."""
    weights = _logistic_weights(np.asarray(a[:SCORE_FIT_ROWS], dtype=float), np.asarray(b[:SCORE_FIT_ROWS], dtype=float))
    if not any(weights):
        return [(None, 0.0), (None, 0.0)]
    return [(None, 0.0) if inner is None else (ScoreEvent(weights, inner), score) for inner, score in
            _best_half_line(_scores(a, weights), _scores(b, weights), scale_a, scale_b, n, alpha, delta)]


def _select_flag_score(a, b, scale_a, scale_b, n, alpha, delta) -> list[Choice]:
    """The best half-lines of a logistic regression's linear score of the flag features (see the module)."""
    flags = _flags(np.vstack([a[:SCORE_FIT_ROWS // 10], b[:SCORE_FIT_ROWS // 10]]))
    rows = SCORE_FIT_ROWS // 3  # a few features per coordinate: fewer rows keep the fit's memory that of the others
    weights = _logistic_weights(_flag_features(a[:rows], flags), _flag_features(b[:rows], flags))
    if not any(weights):
        return [(None, 0.0), (None, 0.0)]
    return [(None, 0.0) if inner is None else (FlagScoreEvent(flags, weights, inner), score) for inner, score in
            _best_half_line(_flag_scores(a, flags, weights), _flag_scores(b, flags, weights), scale_a, scale_b, n,
                            alpha, delta)]


def _select_bin_score(a, b, scale_a, scale_b, n, alpha, delta) -> list[Choice]:
    """The best half-lines of the naive Bayes score of :class:`BinScoreEvent`, its weights counted on all of ``a`` and
    ``b`` (a count per bin: cheap, and far less noisy than a regression fitted on a part)."""
    edges = _bin_edges(np.vstack([a[:SCORE_FIT_ROWS // 10], b[:SCORE_FIT_ROWS // 10]]))
    weights = []
    for j, e in enumerate(edges):
        ca = np.bincount(np.searchsorted(e, a[:, j]), minlength=len(e) + 1) + 0.5
        cb = np.bincount(np.searchsorted(e, b[:, j]), minlength=len(e) + 1) + 0.5
        weights.append(tuple(float(w) for w in np.log(ca / ca.sum()) - np.log(cb / cb.sum())))
    return [(None, 0.0) if inner is None else (BinScoreEvent(edges, tuple(weights), inner), score) for inner, score in
            _best_half_line(_bin_scores(a, edges, weights), _bin_scores(b, edges, weights), scale_a, scale_b, n,
                            alpha, delta)]


def _select_set(a, b, scale_a, scale_b, n, alpha, delta) -> list[tuple[SetEvent, float]]:
    code = RowCode.of(a, b)
    values, ca, cb = _count_table(a, b, code)
    ca, cb = ca * scale_a, cb * scale_b
    # the prefixes' bounds at every length, or (many outputs) at _PREFIXES lengths spread evenly and geometrically
    lengths = np.arange(len(values)) if len(values) <= _PREFIXES else np.unique(np.concatenate(
        [np.geomspace(1, len(values), _PREFIXES // 2).astype(int) - 1, np.linspace(0, len(values) - 1, _PREFIXES // 2,
                                                                                   dtype=int)]))
    chosen = []
    for top, bottom in ((ca, cb), (cb, ca)):
        order = np.argsort(-(top + 0.5) / (bottom + 0.5), kind="stable")
        scores = vector_bounds(np.cumsum(top[order])[lengths], np.cumsum(bottom[order])[lengths], n, n, alpha, delta)
        best = int(lengths[int(np.argmax(scores))])
        chosen.append((SetEvent(frozenset(values[i] for i in order[: best + 1]), code), float(np.max(scores))))
    return chosen


def _select_lattice(a, b, scale_a, scale_b, n, alpha, delta) -> list[tuple[LatticeEvent, float]]:
    """The best sets of lattice cells (:func:`lattice_cells`), chosen as :func:`_select_set` chooses outputs."""
    return [(LatticeEvent(event.values), score)
            for event, score in _select_set(lattice_cells(a), lattice_cells(b), scale_a, scale_b, n, alpha, delta)]


def _count_table(a: np.ndarray, b: np.ndarray, code: RowCode | None) -> tuple[list, np.ndarray, np.ndarray]:
    """(values, counts in a, counts in b): every output that occurs (each row's code with ``code``, each row as a tuple
    for other 2-d outputs) and how often, numpy's sorted unique values where the outputs are numbers."""
    if code is not None:
        a, b = code.encode(a)[0], code.encode(b)[0]
    elif a.ndim > 1 or a.dtype == object or b.dtype == object:
        count_a, count_b = Counter(_plain(v) for v in as_keys(a)), Counter(_plain(v) for v in as_keys(b))
        values = list(set(count_a) | set(count_b))
        return (values, np.array([count_a.get(v, 0) for v in values], dtype=float),
                np.array([count_b.get(v, 0) for v in values], dtype=float))
    (seen_a, na), (seen_b, nb) = (np.unique(x, return_counts=True) for x in (a, b))
    values = np.union1d(seen_a, seen_b)
    ca, cb = np.zeros(len(values)), np.zeros(len(values))
    ca[np.searchsorted(values, seen_a)] = na
    cb[np.searchsorted(values, seen_b)] = nb
    return values.tolist(), ca, cb


def _select_threshold(a, b, scale_a, scale_b, n, alpha, delta) -> list[Choice]:
    best = _best_half_line(a, b, scale_a, scale_b, n, alpha, delta)
    if a.ndim == 2:
        for key in range(a.shape[1]):
            values, counts = np.unique(np.concatenate([a[:, key], b[:, key]]), return_counts=True)
            if len(values) > _KEY_VALUES:
                continue
            for value in values[counts >= 10]:
                found = _best_half_line(a[a[:, key] == value], b[b[:, key] == value], scale_a, scale_b, n, alpha,
                                        delta, skip=key)
                for side, (inner, score) in enumerate(found):
                    if inner is not None and score > best[side][1]:
                        best[side] = (ConditionedThresholdEvent(key, float(value), inner, a.dtype == np.float32), score)
    return best


def _best_half_line(a, b, scale_a, scale_b, n, alpha, delta, *, skip: int | None = None) -> list[Choice]:
    """The best ``{y_j >= t}`` / ``{y_j <= t}`` over coordinates j (except ``skip``) and a quantile grid of t, for a
    over b and for b over a; counts are scaled to ``n`` confirmation samples (``a`` and ``b`` may be restricted
    subsets)."""
    best: list[Choice] = [(None, 0.0), (None, 0.0)]
    if len(a) == 0 or len(b) == 0:
        return best
    columns = [None] if a.ndim == 1 else [j for j in range(a.shape[1]) if j != skip]
    tail = np.geomspace(min(10 / n, 0.01), 0.01, 20)
    levels = np.unique(np.concatenate([tail, np.linspace(0.01, 0.99, 99), 1 - tail]))
    for j in columns:
        ya = np.sort(a if j is None else a[:, j])
        yb = np.sort(b if j is None else b[:, j])
        pooled = np.sort(np.concatenate([ya, yb]), kind="stable")  # timsort merges the two sorted runs in linear time
        grid = np.unique(pooled[np.rint(levels * (len(pooled) - 1)).astype(np.int64)])
        for direction in (">=", "<="):
            if direction == ">=":
                ka = (len(ya) - np.searchsorted(ya, grid, "left")) * scale_a
                kb = (len(yb) - np.searchsorted(yb, grid, "left")) * scale_b
            else:
                ka = np.searchsorted(ya, grid, "right") * scale_a
                kb = np.searchsorted(yb, grid, "right") * scale_b
            for side, scores in enumerate(_both(ka, kb, n, alpha, delta)):
                i = int(np.argmax(scores))
                if best[side][0] is None or scores[i] > best[side][1]:
                    best[side] = (ThresholdEvent(j, float(grid[i]), direction), float(scores[i]))
    return best
