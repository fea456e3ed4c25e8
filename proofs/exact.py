"""Exact checker for finite mechanisms: tightest eps, pure DP, metric DP and (eps, delta)-DP.

Definitions (Dwork and Roth 2014, Definition 2.4; Chatzikokolakis et al. 2013, Definition 1):

- tightest eps = max over neighbours x, x' and outputs y of log(P(y | x) / P(y | x'));
- metric DP: P(y | x) <= exp(eps d(x, x')) P(y | x'), so the tightest eps is the max of that log-ratio / d;
- (eps, delta): delta(eps) = max over neighbours of the hockey-stick divergence
  sum_y max(P(y | x) - e^eps P(y | x'), 0), attained by the event S = {y : P(y | x) > e^eps P(y | x')}.

For local DP (all pairs of inputs are neighbours) the maximum is taken per output as
max_x P(y | x) / min_x P(y | x), which needs no enumeration of pairs. Searches run on the channel's
certified float shadow and decide every near-tie exactly (see :mod:`dpcert.proofs.channel`), so every
reported eps and delta is the exact value.
"""

from __future__ import annotations


import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import sympy

from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.exact_arithmetic import certified_float
from dpcert.mechanisms.interval_sign import interval_sign
from dpcert.mechanisms.neighbours import Adjacency, AllPairs, Metric, NeighbourRelation, WithinDistance
from dpcert.mechanisms.parameters import InvalidParameterError, cancel_exponentials
from dpcert.proofs.certificate import Certificate, Verdict, Witness, approximately
from dpcert.proofs.channel import FILTER_TOLERANCE, ExactChannel, ValueArithmetic, exact_compare
from dpcert.proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP
from dpcert.proofs.symbolic.finite_families import finite_events

__all__ = [
    "RatioSearch",
    "HockeyStickSearch",
    "max_log_ratio",
    "max_hockey_stick",
    "tightest_epsilon",
    "hockey_stick_delta",
    "check_finite",
    "MAX_PAIR_CELLS",
]

_CHUNK = 1 << 22  # float cells per vectorised block

MAX_PAIR_CELLS = 20_000_000
"""The most (ordered neighbour pair, output) cells the (eps, delta) check scores: a few seconds of numpy."""


@dataclass(frozen=True)
class RatioSearch:
    """The worst (x, x', y): eps = log(p / p') / d exactly (``sympy.oo`` when p' = 0 < p)."""

    epsilon: sympy.Expr
    i: int
    i_prime: int
    j: int
    p: sympy.Expr
    p_prime: sympy.Expr
    distance: sympy.Expr


@dataclass(frozen=True)
class HockeyStickSearch:
    """The worst pair for (eps, delta): delta = P(S | x) - e^eps P(S | x') exactly, S the event."""

    delta: sympy.Expr
    i: int
    i_prime: int
    event: tuple[int, ...]
    p: sympy.Expr
    p_prime: sympy.Expr


def _ordered_pairs(channel: ExactChannel, relation: NeighbourRelation) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(relation, WithinDistance):
        raise InvalidParameterError("a finite mechanism cannot use a continuous neighbour relation")
    rows = {x: i for i, x in enumerate(channel.inputs)}
    pairs = [(rows[a], rows[b]) for a, b in relation.ordered_pairs(channel.inputs)]
    if not pairs:
        raise InvalidParameterError("the neighbour relation has no pair of distinct inputs")
    array = np.array(pairs, dtype=np.int64)
    return array[:, 0], array[:, 1]


def _distances(channel: ExactChannel, metric: Metric, a: np.ndarray, b: np.ndarray) -> tuple[list[sympy.Expr], np.ndarray]:
    exact = [metric.exact_distance(channel.inputs[i], channel.inputs[k]) for i, k in zip(a.tolist(), b.tolist())]
    shadow = []
    for (i, k), d in zip(zip(a.tolist(), b.tolist()), exact):
        if not d > 0:
            raise InvalidParameterError(
                f"distance must be > 0 between different inputs. Got d({channel.inputs[i]!r}, {channel.inputs[k]!r}) = {d}")
        shadow.append(certified_float(d))
        if not 1e-300 <= shadow[-1] <= 1e300:  # the float filter divides by it
            raise InvalidParameterError(f"distance must be in [10^-300, 10^300] between different inputs. "
                                        f"Got d({channel.inputs[i]!r}, {channel.inputs[k]!r}) = {d}")
    return exact, np.array(shadow)


def _exact_log_ratio(p: sympy.Expr, q: sympy.Expr, d: sympy.Expr) -> sympy.Expr:
    if q == 0:
        return sympy.oo
    ratio = p / q  # sympy's Mul already cancels common factors and merges exp(a) * exp(b)
    if ratio.has(sympy.Add):
        ratio = cancel_exponentials(ratio)
    value = sympy.log(ratio)
    return value if d == 1 else value / d


def _best(channel: ExactChannel, keys: np.ndarray, where: np.ndarray, distances: list[sympy.Expr]) -> RatioSearch:
    """The exact maximum of log(values[a] / values[b]) / d over candidate rows (a, b, distance code).

    ``where[n]`` is (i, k, j): a place where candidate n occurs. Ratios that sympy's own
    multiplication already reduces (common factors cancel, exponentials merge) cost microseconds; only
    ratios of sums go through :func:`cancel_exponentials`.
    """
    best: RatioSearch | None = None
    logs: dict[tuple[int, int], sympy.Expr] = {}
    for (a, b, code), (i, k, j) in zip(keys.tolist(), where.tolist()):
        if (a, b) not in logs:
            logs[(a, b)] = _exact_log_ratio(channel.values[a], channel.values[b], sympy.Integer(1))
        value = logs[(a, b)] if distances[code] == 1 or logs[(a, b)] == sympy.oo else logs[(a, b)] / distances[code]
        if best is None or (value != best.epsilon and _exceeds(value, best.epsilon)):
            best = RatioSearch(value, i, k, j, channel.values[a], channel.values[b], distances[code])
    assert best is not None
    if best.distance != 1 and best.epsilon != sympy.oo:  # 4*log(3**(1/4)) reads better as log(3)
        best = replace(best, epsilon=sympy.logcombine(best.epsilon, force=True))
    return best


def _unique_candidates(channel: ExactChannel, i: np.ndarray, k: np.ndarray, j: np.ndarray,
                       code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (values id at (i, j), values id at (k, j), distance code) rows, each with one place (i, k, j)."""
    keys = np.stack([channel.ids[i, j], channel.ids[k, j], code], axis=1)
    keys, first = np.unique(keys, axis=0, return_index=True)
    return keys, np.stack([i[first], k[first], j[first]], axis=1)


def _exceeds(value: sympy.Expr, incumbent: sympy.Expr) -> bool:
    if value == sympy.oo or incumbent == sympy.oo:
        return value == sympy.oo and incumbent != sympy.oo
    return exact_compare(value, incumbent) > 0


def max_log_ratio(channel: ExactChannel, relation: NeighbourRelation) -> RatioSearch:
    """The exact tightest eps of ``channel`` under ``relation`` (per unit distance for a metric)."""
    logs = channel.log_matrix()
    if isinstance(relation, AllPairs):
        return _max_log_ratio_all_pairs(channel, logs)
    a, b = _ordered_pairs(channel, relation)
    if isinstance(relation, Metric):
        exact_d, float_d = _distances(channel, relation, a, b)
        codes: dict[sympy.Expr, int] = {}
        code = np.array([codes.setdefault(d, len(codes)) for d in exact_d])
        distances = list(codes)
    else:
        float_d, code, distances = None, np.zeros(len(a), dtype=np.int64), [sympy.Integer(1)]
    best = -math.inf
    blocks: list[tuple[int, np.ndarray]] = []
    step = max(1, _CHUNK // max(1, logs.shape[1]))
    for start in range(0, len(a), step):
        block = _log_ratio_block(logs, a[start:start + step], b[start:start + step],
                                 None if float_d is None else float_d[start:start + step])
        blocks.append((start, block))
        best = max(best, float(block.max()))
    rows, cols = [], []
    for start, block in blocks:
        # per unit distance, a log ratio's error is divided by the distance
        tol = (channel.tolerance(best) if float_d is None
               else channel.tolerance(best, distance=float_d[start:start + len(block)])[:, None])
        r, j = np.nonzero(block >= best - tol)
        rows.append(r + start)
        cols.append(j)
    pair, j = np.concatenate(rows), np.concatenate(cols)
    keys, where = _unique_candidates(channel, a[pair], b[pair], j, code[pair])
    return _best(channel, keys, where, distances)


def _log_ratio_block(logs: np.ndarray, a: np.ndarray, b: np.ndarray, d: np.ndarray | None) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        diff = logs[a] - logs[b]
    diff[np.isnan(diff)] = -math.inf  # both probabilities zero: no constraint
    return diff if d is None else diff / d[:, None]


def _max_log_ratio_all_pairs(channel: ExactChannel, logs: np.ndarray) -> RatioSearch:
    top, bottom = logs.max(axis=0), logs.min(axis=0)
    unbounded = np.nonzero(np.isfinite(top) & ~np.isfinite(bottom))[0]
    if unbounded.size:
        j = int(unbounded[0])
        i, k = int(logs[:, j].argmax()), int(logs[:, j].argmin())
        return RatioSearch(sympy.oo, i, k, j, channel.probability(i, j), sympy.Integer(0), sympy.Integer(1))
    with np.errstate(invalid="ignore"):
        gap = top - bottom
    gap[np.isnan(gap)] = -math.inf
    best = float(gap.max())
    tol = channel.tolerance(best)
    places = []
    for j in np.nonzero(gap >= best - tol)[0]:
        column = logs[:, j]
        highs = _one_row_per_value(channel, np.nonzero(column >= top[j] - tol)[0], j)
        lows = _one_row_per_value(channel, np.nonzero(column <= bottom[j] + tol)[0], j)
        hi, lo = np.repeat(highs, lows.size), np.tile(lows, highs.size)
        keep = hi != lo
        places.append(np.stack([hi[keep], lo[keep], np.full(int(keep.sum()), j)], axis=1))
    found = np.concatenate(places) if places else np.zeros((0, 3), dtype=np.int64)
    if not found.size:  # every column constant: every ratio is 1, attained at any output with P > 0
        j = int(np.nonzero(channel.ids[0])[0][0])
        return RatioSearch(sympy.Integer(0), 0, 1, j, channel.probability(0, j), channel.probability(1, j), sympy.Integer(1))
    keys, where = _unique_candidates(channel, found[:, 0], found[:, 1], found[:, 2], np.zeros(len(found), dtype=np.int64))
    return _best(channel, keys, where, [sympy.Integer(1)])


def _one_row_per_value(channel: ExactChannel, rows: np.ndarray, j: int) -> np.ndarray:
    """The first of ``rows`` for each distinct probability in column j (ties need one representative)."""
    _, first = np.unique(channel.ids[rows, j], return_index=True)
    return rows[first]


def _pair_blocks(channel: ExactChannel, relation: NeighbourRelation) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    if isinstance(relation, AllPairs):
        n = len(channel.inputs)
        rows = np.arange(n)
        for i in range(n):
            others = rows[rows != i]
            yield np.full(others.size, i), others
        return
    a, b = _ordered_pairs(channel, relation)
    step = max(1, _CHUNK // max(1, len(channel.outputs)))
    for start in range(0, len(a), step):
        yield a[start:start + step], b[start:start + step]


def max_hockey_stick(channel: ExactChannel, relation: NeighbourRelation, eps: sympy.Expr) -> HockeyStickSearch:
    """The exact delta(eps) = max over ordered neighbours of sum_y max(P(y|x) - e^eps P(y|x'), 0).

    Floats pick the pairs within tolerance of the largest divergence (computed in the log domain, so
    e^eps beyond the float range is no obstacle); a pair's exact divergence depends only on the
    multiset of (P(y|x), P(y|x')) value pairs over its columns, so each distinct multiset is evaluated
    once, as an exact linear combination of the channel's values (:class:`ValueArithmetic`).
    """
    t = sympy.exp(eps)
    eps_float = certified_float(eps)
    logs = channel.log_matrix()
    tol = _hockey_tolerance(channel, eps_float)
    scored: list[tuple[float, int, int]] = []
    best = -math.inf
    for a, b in _pair_blocks(channel, relation):
        excess = _excess(logs, a, b, eps_float)
        top = float(excess.max())
        if top >= best - tol:
            keep = np.nonzero(excess >= max(best, top) - tol)[0]
            scored.extend((float(excess[r]), int(a[r]), int(b[r])) for r in keep)
            best = max(best, top)
    arithmetic = ValueArithmetic(channel.values, t)
    width = len(channel.values)
    exceeds: dict[int, bool] = {}  # value-pair code -> values[a] > t values[b], decided once
    winner: tuple[int, int, tuple[int, ...], dict[int, int], dict[int, int]] | None = None
    seen: set[tuple[bytes, bytes]] = set()
    for value, i, k in scored:
        if value < best - tol:
            continue
        codes = channel.ids[i].astype(np.int64) * width + channel.ids[k]
        distinct, counts = np.unique(codes, return_counts=True)
        key = (distinct.tobytes(), counts.tobytes())
        if key in seen:
            continue
        seen.add(key)
        positive = [c for c in distinct.tolist() if _exceeds_scaled(channel, c, width, arithmetic, eps_float, exceeds)]
        event = tuple(np.nonzero(np.isin(codes, positive))[0].tolist())
        p_counts, q_counts = _event_counts(channel, i, event), _event_counts(channel, k, event)
        if winner is None or _difference_sign(arithmetic, (p_counts, q_counts), winner[3:]) > 0:
            winner = (i, k, event, p_counts, q_counts)
    assert winner is not None
    i, k, event = winner[:3]
    p, q = channel.event_probability(i, event), channel.event_probability(k, event)
    return HockeyStickSearch(sympy.Integer(0) if not event else p - t * q, i, k, event, p, q)


def _excess(logs: np.ndarray, a: np.ndarray, b: np.ndarray, eps_float: float) -> np.ndarray:
    """sum_y max(P(y|a) - e^eps P(y|b), 0) per pair, as sum_y P(y|a) max(1 - exp(eps + log P(y|b) - log P(y|a)), 0)."""
    with np.errstate(invalid="ignore", over="ignore"):
        factor = np.maximum(-np.expm1(logs[b] - logs[a] + eps_float), 0.0)  # 1 where P(y|b) = 0
        terms = np.exp(logs[a]) * factor
    terms[np.isnan(terms)] = 0.0  # P(y|a) = P(y|b) = 0
    return terms.sum(axis=1)


def _hockey_tolerance(channel: ExactChannel, eps_float: float) -> float:
    """Absolute margin for the float divergences (each at most 1).

    A term P(y|a) max(1 - exp(g), 0) with g = eps + log P(y|b) - log P(y|a) carries a relative error of at
    most the error of g (the log errors and eps's rounding) plus exp's; the terms of a pair sum to at most 1.
    """
    return (FILTER_TOLERANCE + 2 * channel.log_difference_error + 1e-15 * abs(eps_float)
            + 1e-15 * len(channel.outputs))


def _event_counts(channel: ExactChannel, row: int, event: Sequence[int]) -> dict[int, int]:
    """How often each distinct value occurs in ``row`` over the event's columns (zero omitted)."""
    found, counts = np.unique(channel.ids[row, list(event)], return_counts=True)
    return {int(v): int(c) for v, c in zip(found, counts) if v != 0}


def _difference_sign(arithmetic: ValueArithmetic, first: tuple[dict[int, int], dict[int, int]],
                     second: tuple[dict[int, int], dict[int, int]]) -> int:
    """sign((P1 - t Q1) - (P2 - t Q2)) for events given by their value counts (P, Q)."""
    (p1, q1), (p2, q2) = first, second
    plain = {v: p1.get(v, 0) - p2.get(v, 0) for v in {*p1, *p2}}
    scaled = {v: q2.get(v, 0) - q1.get(v, 0) for v in {*q1, *q2}}
    return arithmetic.sign(plain, scaled)


def _exceeds_scaled(channel: ExactChannel, code: int, width: int, arithmetic: ValueArithmetic, eps_float: float,
                    cache: dict[int, bool]) -> bool:
    """values[a] > t * values[b] for code = a * width + b: by the float margin when clear, else exactly."""
    if code not in cache:
        a, b = divmod(code, width)
        if a == 0:
            cache[code] = False
        elif b == 0:
            cache[code] = True
        else:
            margin = channel.logs[a] - channel.logs[b] - eps_float
            if abs(margin) > channel.tolerance(eps_float):
                cache[code] = margin > 0
            else:
                cache[code] = arithmetic.sign({a: 1}, {b: -1}) > 0
    return cache[code]


def _delta_sign(channel: ExactChannel, search: HockeyStickSearch, eps: sympy.Expr, delta: sympy.Expr) -> int:
    """The exact sign of search.delta - delta, as a linear combination of the channel's values."""
    if not search.event:
        return -exact_compare(delta, sympy.Integer(0))
    counts = (_event_counts(channel, search.i, search.event), _event_counts(channel, search.i_prime, search.event))
    p, q = counts
    return ValueArithmetic(channel.values, sympy.exp(eps)).sign(p, {v: -c for v, c in q.items()}, -delta)


def _require_pair_budget(mechanism: FiniteMechanism, channel: ExactChannel, relation: NeighbourRelation) -> None:
    """The (eps, delta) check scores every ordered neighbour pair over every output in floats: cap the work."""
    n = len(channel.inputs)
    pairs = n * (n - 1) if isinstance(relation, AllPairs) else len(_ordered_pairs(channel, relation)[0])
    cells = pairs * len(channel.outputs)
    if cells > MAX_PAIR_CELLS:
        raise _too_large(mechanism, f"the exact (eps, delta) check scores every ordered neighbour pair over every "
                                    f"output, at most {MAX_PAIR_CELLS} (pair, output) cells. Got {pairs} pairs x "
                                    f"{len(channel.outputs)} outputs")


def _too_large(mechanism: FiniteMechanism, detail: str) -> InvalidParameterError:
    """A size error naming the mechanism's size parameters, and the symbolic checker where it applies."""

    names = ", ".join(mechanism.size_parameters) or "the mechanism's size"
    hint = ("; the symbolic checker (--symbolic) decides it at any size" if finite_events(mechanism) is not None
            else "")
    return InvalidParameterError(f"{names} too large for the exact checker of {mechanism.describe()}: {detail}{hint}")


def tightest_epsilon(mechanism: FiniteMechanism, *, relation: NeighbourRelation | None = None) -> Certificate:
    """The exact tightest eps of a finite mechanism, as a PROVED certificate of eps-DP at that eps.

    With ``relation`` a :class:`Metric` the result is the tightest metric-DP eps. If no finite eps holds
    (a zero meets a positive probability) the certificate is REFUTED for every eps, with the witness.
    Its ``recheck()`` confirms both sides of "tightest": every ratio is at most exp(eps d), and the
    attaining pair and output reach it.
    """
    channel = ExactChannel.from_mechanism(mechanism)
    relation = mechanism.neighbours if relation is None else relation
    search = max_log_ratio(channel, relation)
    if search.epsilon == sympy.oo:
        guarantee = MetricDP(1) if isinstance(relation, Metric) else PureDP(1)
        return _refuted(mechanism, guarantee, relation, channel, search,
                        "no finite eps: an output has probability 0 on one neighbour and > 0 on the other")
    shown = max(search.epsilon, sympy.Rational(1, 10**30)) if search.epsilon == 0 else search.epsilon
    guarantee = MetricDP(shown) if isinstance(relation, Metric) else PureDP(shown)
    return _proved_ratio(mechanism, guarantee, relation, channel, search,
                         f"tightest eps = {search.epsilon} ({approximately(search.epsilon)}) over {relation.description}")


def hockey_stick_delta(mechanism: FiniteMechanism, eps: object) -> sympy.Expr:
    """The exact smallest delta for which ``mechanism`` is (eps, delta)-DP."""
    guarantee = ApproxDP(eps, 0)
    channel = ExactChannel.from_mechanism(mechanism)
    _require_pair_budget(mechanism, channel, mechanism.neighbours)
    return max_hockey_stick(channel, mechanism.neighbours, guarantee.eps).delta


def check_finite(mechanism: FiniteMechanism, guarantee: Guarantee, *, relation: NeighbourRelation | None = None) -> Certificate:
    """Decide ``guarantee`` for a finite mechanism exactly.

    Args:
        mechanism: the finite mechanism.
        guarantee: PureDP, MetricDP or ApproxDP.
        relation: neighbours to use instead of the mechanism's own (a :class:`Metric` for metric DP).

    Returns:
        PROVED with the exact tightest eps (or delta), or REFUTED with a witness whose exact
        probabilities violate the guarantee.

    Raises:
        InvalidParameterError: the mechanism is too large for the exact checker (the message names its
            size parameters and the limit), or the relation does not fit the guarantee.
    """
    relation = mechanism.neighbours if relation is None else relation
    if isinstance(guarantee, MetricDP) and not isinstance(relation, Metric):
        raise InvalidParameterError("metric DP needs a metric: pass relation=Metric(...) or use a mechanism with one")
    if isinstance(relation, Metric) and not isinstance(guarantee, MetricDP):
        # the search would scale by the distances while the guarantee and its re-check would not
        raise InvalidParameterError(f"relation: a Metric is only for MetricDP claims. Got {type(guarantee).__name__}")
    channel = ExactChannel.from_mechanism(mechanism)
    if isinstance(guarantee, ApproxDP):
        _require_pair_budget(mechanism, channel, relation)
        search = max_hockey_stick(channel, relation, guarantee.eps)
        witness = Witness(channel.inputs[search.i], channel.inputs[search.i_prime],
                          frozenset(channel.outputs[j] for j in search.event), search.p, search.p_prime)
        if _delta_sign(channel, search, guarantee.eps, guarantee.delta) <= 0:
            return Certificate(mechanism, guarantee, Verdict.PROVED, "exact",
                               f"delta({guarantee.eps}) = {search.delta} ({approximately(search.delta)}) "
                               f"<= {guarantee.delta} over {relation.description}",
                               delta=search.delta, replay=_replay_delta(relation))
        return Certificate(mechanism, guarantee, Verdict.REFUTED, "exact",
                           f"event of {len(search.event)} outputs has P(S|x) - e^eps P(S|x') = {search.delta} "
                           f"({approximately(search.delta)}) > delta = {guarantee.delta}",
                           delta=search.delta, witness=witness, replay=_replay_witness(relation))
    search = max_log_ratio(channel, relation)
    if search.epsilon != sympy.oo and exact_compare(search.epsilon, guarantee.eps) <= 0:
        return _proved_ratio(mechanism, guarantee, relation, channel, search,
                             f"tightest eps = {search.epsilon} ({approximately(search.epsilon)}) <= {guarantee.eps} "
                             f"over {relation.description}")
    return _refuted(mechanism, guarantee, relation, channel, search,
                    f"tightest eps = {search.epsilon} ({approximately(search.epsilon)}) > {guarantee.eps}")


def _proved_ratio(mechanism: FiniteMechanism, guarantee: Guarantee, relation: NeighbourRelation,
                  channel: ExactChannel, search: RatioSearch, evidence: str) -> Certificate:
    place = (channel.inputs[search.i], channel.inputs[search.i_prime], channel.outputs[search.j])
    return Certificate(mechanism, guarantee, Verdict.PROVED, "exact",
                       f"{evidence}, attained at x={place[0]!r}, x'={place[1]!r}, y={place[2]!r}",
                       epsilon=search.epsilon, replay=_replay_bound(relation, place))


def _refuted(mechanism: FiniteMechanism, guarantee: Guarantee, relation: NeighbourRelation, channel: ExactChannel,
             search: RatioSearch, evidence: str) -> Certificate:
    witness = Witness(channel.inputs[search.i], channel.inputs[search.i_prime], channel.outputs[search.j],
                      search.p, search.p_prime)
    return Certificate(mechanism, guarantee, Verdict.REFUTED, "exact", evidence, epsilon=search.epsilon,
                       witness=witness, replay=_replay_witness(relation))


def _are_neighbours(relation: NeighbourRelation, inputs: Sequence[object], x: object, x_prime: object) -> bool:
    """Whether (x, x') is an ordered pair of ``relation`` over ``inputs`` (without listing every pair)."""
    if x == x_prime or x not in set(inputs) or x_prime not in set(inputs):
        return False
    if isinstance(relation, (AllPairs, Metric)):
        return True
    if isinstance(relation, Adjacency):
        return bool(relation.is_neighbour(x, x_prime))
    return any(pair == (x, x_prime) for pair in relation.ordered_pairs(inputs))


def _distance(relation: NeighbourRelation, x: object, x_prime: object) -> sympy.Expr:
    return relation.exact_distance(x, x_prime) if isinstance(relation, Metric) else sympy.Integer(1)


def _scaled_exceeds(p: sympy.Expr, q: sympy.Expr, exponent: sympy.Expr, slack: sympy.Expr) -> int:
    """The exact sign of p - exp(exponent) q - slack, for probabilities p, q >= 0.

    Decided by an interval enclosure of log p - log q - exponent when the slack is 0 and the enclosure
    excludes 0 (exp(exponent) is never formed: exp(10^5 log 3) would be a 47,000-digit integer), else exactly.
    """
    if slack == 0 and q != 0 and p != 0:
        proved = interval_sign(sympy.log(p) - sympy.log(q) - exponent)
        if proved is not None:
            return proved
    return exact_compare(p, sympy.exp(exponent) * q + slack)


def _replay_witness(relation: NeighbourRelation):
    """Recompute the witness's probabilities from the pmf and confirm they break the guarantee."""

    def replay(certificate: Certificate) -> bool:
        w = certificate.witness
        mechanism = certificate.mechanism
        assert w is not None and isinstance(mechanism, FiniteMechanism)
        if not _are_neighbours(relation, mechanism.inputs(), w.x, w.x_prime):
            return False
        event = w.output if isinstance(w.output, frozenset) else frozenset([w.output])
        p = sympy.Add(*(v for y, v in mechanism.pmf(w.x).items() if y in event))
        q = sympy.Add(*(v for y, v in mechanism.pmf(w.x_prime).items() if y in event))
        if exact_compare(p, w.p) != 0 or exact_compare(q, w.p_prime) != 0:
            return False
        g = certificate.guarantee
        slack = g.delta if isinstance(g, ApproxDP) else sympy.Integer(0)
        return _scaled_exceeds(p, q, g.eps * _distance(relation, w.x, w.x_prime), slack) > 0

    return replay


def _replay_bound(relation: NeighbourRelation, place: tuple[object, object, object]):
    """Confirm the certified eps at every neighbouring pair (a verification, not a search), that the
    pair and output ``place`` attain it, and that it is at most the claimed eps."""

    def replay(certificate: Certificate) -> bool:
        mechanism, g, eps = certificate.mechanism, certificate.guarantee, certificate.epsilon
        assert isinstance(mechanism, FiniteMechanism) and eps is not None
        x, x_prime, y = place
        p, q = mechanism.pmf(x).get(y, sympy.Integer(0)), mechanism.pmf(x_prime).get(y, sympy.Integer(0))
        return (exact_compare(eps, g.eps) <= 0
                and _are_neighbours(relation, mechanism.inputs(), x, x_prime)
                and q != 0 and _attains(p, q, _distance(relation, x, x_prime), eps)
                and _confirm_ratio(ExactChannel.from_mechanism(mechanism), relation, eps))

    return replay


def _attains(p: sympy.Expr, q: sympy.Expr, d: sympy.Expr, eps: sympy.Expr) -> bool:
    """p = exp(eps d) q exactly: the same closed form as the search derives from p and q, or an exact tie."""
    derived = _exact_log_ratio(p, q, d)
    if d != 1:
        derived = sympy.logcombine(derived, force=True)
    return derived == eps or ValueArithmetic((p, q), sympy.exp(eps * d)).sign({0: 1}, {1: -1}) == 0


def _replay_delta(relation: NeighbourRelation):
    """Recompute delta(eps) over every neighbouring pair: it equals the certified delta, at most the claimed one."""

    def replay(certificate: Certificate) -> bool:
        mechanism, g = certificate.mechanism, certificate.guarantee
        assert isinstance(mechanism, FiniteMechanism) and isinstance(g, ApproxDP)
        channel = ExactChannel.from_mechanism(mechanism)
        search = max_hockey_stick(channel, relation, g.eps)
        return (_delta_sign(channel, search, g.eps, g.delta) <= 0
                and exact_compare(search.delta, certificate.delta) == 0)

    return replay


def _confirm_ratio(channel: ExactChannel, relation: NeighbourRelation, eps: sympy.Expr) -> bool:
    """Every ratio over neighbours is <= exp(eps d): floats decide clear cases, exact arithmetic the rest."""
    logs = channel.log_matrix()
    eps_float = certified_float(eps)
    if isinstance(relation, AllPairs):
        top, bottom = _exact_extremes(channel, logs)
        blocks = [(top, bottom, np.arange(logs.shape[1]), None)]
    else:
        a_all, b_all = _ordered_pairs(channel, relation)
        exact_d, float_d = (_distances(channel, relation, a_all, b_all) if isinstance(relation, Metric)
                            else (None, None))
        ratio = _log_ratio_block(logs, a_all, b_all, float_d)  # per unit distance for a metric
        tol = (channel.tolerance(eps_float) if float_d is None
               else channel.tolerance(eps_float, distance=float_d)[:, None])
        rows, cols = np.nonzero(ratio >= eps_float - tol)
        blocks = [(a_all[rows], b_all[rows], cols, None if exact_d is None else [exact_d[r] for r in rows.tolist()])]
    arithmetic: dict[sympy.Expr, ValueArithmetic] = {}  # one per distance: t = exp(eps d)
    for a, b, cols, distances in blocks:
        checked: set[tuple[int, int, object]] = set()
        for n, (i, k, j) in enumerate(zip(a.tolist(), b.tolist(), cols.tolist())):
            p_id, q_id = int(channel.ids[i, j]), int(channel.ids[k, j])
            d = sympy.Integer(1) if distances is None else distances[n]
            if p_id == 0 or p_id == q_id or (p_id, q_id, d) in checked:
                continue
            checked.add((p_id, q_id, d))
            if q_id == 0:
                return False
            if d not in arithmetic:
                arithmetic[d] = ValueArithmetic(channel.values, sympy.exp(eps * d))
            if arithmetic[d].sign({p_id: 1}, {q_id: -1}) > 0:
                return False
    return True


def _exact_extremes(channel: ExactChannel, logs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per output, the rows holding the exact largest and smallest probability.

    The float shadow's argmax may hold a value that ties the true maximum in float64 but is smaller
    exactly; every distinct value within the filter tolerance of the float extreme is compared exactly.
    """
    top, bottom = logs.argmax(axis=0), logs.argmin(axis=0)
    for j in range(logs.shape[1]):
        column = logs[:, j]
        high, low = column[top[j]], column[bottom[j]]
        tol_high = channel.tolerance(high) if math.isfinite(high) else 0.0
        tol_low = channel.tolerance(low) if math.isfinite(low) else 0.0
        top[j] = _extreme_row(channel, np.nonzero(column >= high - tol_high)[0], j, largest=True)
        bottom[j] = _extreme_row(channel, np.nonzero(column <= low + tol_low)[0], j, largest=False)
    return top, bottom


def _extreme_row(channel: ExactChannel, rows: np.ndarray, j: int, *, largest: bool) -> int:
    """The row among ``rows`` holding the exact largest (or smallest) probability in column j."""
    ids, first = np.unique(channel.ids[rows, j], return_index=True)
    best = 0
    for n in range(1, len(ids)):
        u, v = (int(ids[n]), int(ids[best])) if largest else (int(ids[best]), int(ids[n]))
        if _float_or_exact_greater(channel, u, v):
            best = n
    return int(rows[first[best]])


def _float_or_exact_greater(channel: ExactChannel, u: int, v: int) -> bool:
    """values[u] > values[v], decided by the float shadow when clear and exactly otherwise."""
    lu, lv = channel.logs[u], channel.logs[v]
    if math.isinf(lu) or math.isinf(lv):
        return lu > lv
    if abs(lu - lv) > channel.tolerance(lu):
        return lu > lv
    return exact_compare(channel.values[u], channel.values[v]) > 0
