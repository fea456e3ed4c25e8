"""Exact checker for finite mechanisms: tightest eps, pure DP, metric DP and (eps, delta)-DP.

Definitions (Dwork and Roth 2014, Definition 2.4; Chatzikokolakis et al. 2013, Definition 1):

- tightest eps = max over neighbours x, x' and outputs y of log(P(y | x) / P(y | x'));
- metric DP: P(y | x) <= exp(eps d(x, x')) P(y | x'), so the tightest eps is the max of that log-ratio / d;
- (eps, delta): delta(eps) = max over neighbours of the hockey-stick divergence
  sum_y max(P(y | x) - e^eps P(y | x'), 0), attained by the event S = {y : P(y | x) > e^eps P(y | x')}.

For local DP (all pairs of inputs are neighbours) the maximum is taken per output as
max_x P(y | x) / min_x P(y | x), which needs no enumeration of pairs. Searches run on the channel's
certified float shadow and decide every near-tie exactly (see :mod:`proofs.channel`), so every
reported eps and delta is the exact value.
"""

from __future__ import annotations


import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import sympy

from mechanisms.base import FiniteMechanism
from mechanisms.neighbours import AllPairs, Metric, NeighbourRelation, WithinDistance
from mechanisms.parameters import InvalidParameterError, cancel_exponentials
from proofs.certificate import Certificate, Verdict, Witness
from proofs.channel import FILTER_TOLERANCE, ExactChannel, exact_compare
from proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP
from proofs.rounding import decimal_string

__all__ = [
    "RatioSearch",
    "HockeyStickSearch",
    "max_log_ratio",
    "max_hockey_stick",
    "tightest_epsilon",
    "hockey_stick_delta",
    "check_finite",
]

_CHUNK = 1 << 22  # float cells per vectorised block


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
    for (i, k), d in zip(zip(a.tolist(), b.tolist()), exact):
        if not d > 0:
            raise InvalidParameterError(
                f"distance must be > 0 between different inputs. Got d({channel.inputs[i]!r}, {channel.inputs[k]!r}) = {d}")
    return exact, np.array([float(d) for d in exact])


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
    tol = FILTER_TOLERANCE * max(1.0, abs(best)) if math.isfinite(best) else 0.0
    rows, cols = [], []
    for start, block in blocks:
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
    tol = FILTER_TOLERANCE * max(1.0, abs(best))
    places = []
    for j in np.nonzero(gap >= best - tol)[0]:
        column = logs[:, j]
        highs = _one_row_per_value(channel, np.nonzero(column >= top[j] - tol)[0], j)
        lows = _one_row_per_value(channel, np.nonzero(column <= bottom[j] + tol)[0], j)
        hi, lo = np.repeat(highs, lows.size), np.tile(lows, highs.size)
        keep = hi != lo
        places.append(np.stack([hi[keep], lo[keep], np.full(int(keep.sum()), j)], axis=1))
    found = np.concatenate(places) if places else np.zeros((0, 3), dtype=np.int64)
    if not found.size:  # every column constant: every ratio is 1
        return RatioSearch(sympy.Integer(0), 0, 1, 0, channel.probability(0, 0), channel.probability(1, 0), sympy.Integer(1))
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

    Floats pick the pairs within tolerance of the largest divergence; a pair's exact divergence
    depends only on the multiset of (P(y|x), P(y|x')) value pairs over its columns, so each distinct
    multiset is evaluated exactly once.
    """
    t = sympy.exp(eps)
    t_float = float(t.evalf(30))
    logs = channel.log_matrix()
    probabilities = np.exp(logs)
    scored: list[tuple[float, int, int]] = []
    best = -math.inf
    for a, b in _pair_blocks(channel, relation):
        excess = np.maximum(probabilities[a] - t_float * probabilities[b], 0.0).sum(axis=1)
        top = float(excess.max())
        tol = _hockey_tolerance(channel, max(best, top))
        if top >= best - tol:
            keep = np.nonzero(excess >= max(best, top) - tol)[0]
            scored.extend((float(excess[r]), int(a[r]), int(b[r])) for r in keep)
            best = max(best, top)
    tol = _hockey_tolerance(channel, best)
    width = len(channel.values)
    exceeds: dict[int, bool] = {}  # value-pair code -> values[a] > t values[b], decided once
    result: HockeyStickSearch | None = None
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
        positive = [c for c in distinct.tolist() if _exceeds_scaled(channel, c, width, t, t_float, exceeds)]
        event = tuple(np.nonzero(np.isin(codes, positive))[0].tolist())
        p, q = channel.event_probability(i, event), channel.event_probability(k, event)
        delta = sympy.Integer(0) if not event else p - t * q
        if result is None or exact_compare(delta, result.delta) > 0:
            result = HockeyStickSearch(delta, i, k, event, p, q)
    assert result is not None
    return result


def _hockey_tolerance(channel: ExactChannel, scale: float) -> float:
    return FILTER_TOLERANCE * max(1.0, abs(scale) if math.isfinite(scale) else 1.0) + 1e-15 * len(channel.outputs)


def _exceeds_scaled(channel: ExactChannel, code: int, width: int, t: sympy.Expr, t_float: float,
                    cache: dict[int, bool]) -> bool:
    """values[a] > t * values[b] for code = a * width + b: by the float margin when clear, else exactly."""
    if code not in cache:
        a, b = divmod(code, width)
        if a == 0:
            cache[code] = False
        elif b == 0:
            cache[code] = True
        else:
            margin = channel.logs[a] - channel.logs[b] - math.log(t_float)
            if abs(margin) > FILTER_TOLERANCE * 10:
                cache[code] = margin > 0
            else:
                cache[code] = exact_compare(channel.values[a], t * channel.values[b]) > 0
    return cache[code]


def tightest_epsilon(mechanism: FiniteMechanism, *, relation: NeighbourRelation | None = None) -> Certificate:
    """The exact tightest eps of a finite mechanism, as a PROVED certificate of eps-DP at that eps.

    With ``relation`` a :class:`Metric` the result is the tightest metric-DP eps. If no finite eps holds
    (a zero meets a positive probability) the certificate is REFUTED for every eps, with the witness.
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
    return Certificate(mechanism, guarantee, Verdict.PROVED, "exact",
                       f"tightest eps = {search.epsilon} (~{decimal_string(search.epsilon)}) over {relation.description}, "
                       f"attained at x={channel.inputs[search.i]!r}, x'={channel.inputs[search.i_prime]!r}, "
                       f"y={channel.outputs[search.j]!r}",
                       epsilon=search.epsilon, replay=_replay_bound(relation))


def hockey_stick_delta(mechanism: FiniteMechanism, eps: object) -> sympy.Expr:
    """The exact smallest delta for which ``mechanism`` is (eps, delta)-DP."""
    guarantee = ApproxDP(eps, 0)
    return max_hockey_stick(ExactChannel.from_mechanism(mechanism), mechanism.neighbours, guarantee.eps).delta


def check_finite(mechanism: FiniteMechanism, guarantee: Guarantee, *, relation: NeighbourRelation | None = None) -> Certificate:
    """Decide ``guarantee`` for a finite mechanism exactly.

    Args:
        mechanism: the finite mechanism.
        guarantee: PureDP, MetricDP or ApproxDP.
        relation: neighbours to use instead of the mechanism's own (a :class:`Metric` for metric DP).

    Returns:
        PROVED with the exact tightest eps (or delta), or REFUTED with a witness whose exact
        probabilities violate the guarantee.
    """
    relation = mechanism.neighbours if relation is None else relation
    if isinstance(guarantee, MetricDP) and not isinstance(relation, Metric):
        raise InvalidParameterError("metric DP needs a metric: pass relation=Metric(...) or use a mechanism with one")
    if isinstance(relation, Metric) and not isinstance(guarantee, MetricDP):
        # the search would scale by the distances while the guarantee and its re-check would not
        raise InvalidParameterError(f"relation: a Metric is only for MetricDP claims. Got {type(guarantee).__name__}")
    channel = ExactChannel.from_mechanism(mechanism)
    if isinstance(guarantee, ApproxDP):
        search = max_hockey_stick(channel, relation, guarantee.eps)
        witness = Witness(channel.inputs[search.i], channel.inputs[search.i_prime],
                          frozenset(channel.outputs[j] for j in search.event), search.p, search.p_prime)
        if exact_compare(search.delta, guarantee.delta) <= 0:
            return Certificate(mechanism, guarantee, Verdict.PROVED, "exact",
                               f"delta({guarantee.eps}) = {search.delta} (~{decimal_string(search.delta)}) "
                               f"<= {guarantee.delta} over {relation.description}",
                               delta=search.delta, replay=_replay_bound(relation))
        return Certificate(mechanism, guarantee, Verdict.REFUTED, "exact",
                           f"event of {len(search.event)} outputs has P(S|x) - e^eps P(S|x') = {search.delta} "
                           f"(~{decimal_string(search.delta)}) > delta = {guarantee.delta}",
                           delta=search.delta, witness=witness, replay=_replay_witness(relation))
    search = max_log_ratio(channel, relation)
    if search.epsilon != sympy.oo and exact_compare(search.epsilon, guarantee.eps) <= 0:
        return Certificate(mechanism, guarantee, Verdict.PROVED, "exact",
                           f"tightest eps = {search.epsilon} (~{decimal_string(search.epsilon)}) <= {guarantee.eps} "
                           f"over {relation.description}", epsilon=search.epsilon, replay=_replay_bound(relation))
    return _refuted(mechanism, guarantee, relation, channel, search,
                    f"tightest eps = {search.epsilon} (~{decimal_string(search.epsilon)}) > {guarantee.eps}")


def _refuted(mechanism: FiniteMechanism, guarantee: Guarantee, relation: NeighbourRelation, channel: ExactChannel,
             search: RatioSearch, evidence: str) -> Certificate:
    witness = Witness(channel.inputs[search.i], channel.inputs[search.i_prime], channel.outputs[search.j],
                      search.p, search.p_prime)
    return Certificate(mechanism, guarantee, Verdict.REFUTED, "exact", evidence, epsilon=search.epsilon,
                       witness=witness, replay=_replay_witness(relation))


def _allowed_ratio(guarantee: Guarantee, relation: NeighbourRelation, x: object, x_prime: object) -> sympy.Expr:
    if isinstance(guarantee, MetricDP):
        assert isinstance(relation, Metric)
        return sympy.exp(guarantee.eps * relation.exact_distance(x, x_prime))
    return sympy.exp(guarantee.eps)


def _replay_witness(relation: NeighbourRelation):
    """Recompute the witness's probabilities from the pmf and confirm they break the guarantee."""

    def replay(certificate: Certificate) -> bool:
        w = certificate.witness
        mechanism = certificate.mechanism
        assert w is not None and isinstance(mechanism, FiniteMechanism)
        if not any(pair == (w.x, w.x_prime) for pair in relation.ordered_pairs(mechanism.inputs())):
            return False
        event = w.output if isinstance(w.output, frozenset) else frozenset([w.output])
        p = sympy.Add(*(v for y, v in mechanism.pmf(w.x).items() if y in event))
        q = sympy.Add(*(v for y, v in mechanism.pmf(w.x_prime).items() if y in event))
        if exact_compare(p, w.p) != 0 or exact_compare(q, w.p_prime) != 0:
            return False
        g = certificate.guarantee
        slack = g.delta if isinstance(g, ApproxDP) else 0
        return exact_compare(p, _allowed_ratio(g, relation, w.x, w.x_prime) * q + slack) > 0

    return replay


def _replay_bound(relation: NeighbourRelation):
    """Confirm the certified eps (or delta) at every neighbouring pair: a verification, not a search."""

    def replay(certificate: Certificate) -> bool:
        mechanism = certificate.mechanism
        assert isinstance(mechanism, FiniteMechanism)
        channel = ExactChannel.from_mechanism(mechanism)
        g = certificate.guarantee
        if isinstance(g, ApproxDP):
            return _confirm_delta(channel, relation, g)
        bound = certificate.epsilon if certificate.epsilon is not None else g.eps
        return _confirm_ratio(channel, relation, bound)

    return replay


def _confirm_ratio(channel: ExactChannel, relation: NeighbourRelation, eps: sympy.Expr) -> bool:
    """Every ratio over neighbours is <= exp(eps d): floats decide clear cases, exact arithmetic the rest."""
    logs = channel.log_matrix()
    eps_float = float(eps.evalf(30))
    if isinstance(relation, AllPairs):
        top, bottom = _exact_extremes(channel, logs)
        blocks = [(top, bottom, np.arange(logs.shape[1]), None)]
    else:
        a_all, b_all = _ordered_pairs(channel, relation)
        exact_d, float_d = (_distances(channel, relation, a_all, b_all) if isinstance(relation, Metric)
                            else (None, None))
        ratio = _log_ratio_block(logs, a_all, b_all, float_d)  # per unit distance for a metric
        rows, cols = np.nonzero(ratio >= eps_float - FILTER_TOLERANCE * max(1.0, abs(eps_float)))
        blocks = [(a_all[rows], b_all[rows], cols, None if exact_d is None else [exact_d[r] for r in rows.tolist()])]
    for a, b, cols, distances in blocks:
        checked: set[tuple[int, int, object]] = set()
        for n, (i, k, j) in enumerate(zip(a.tolist(), b.tolist(), cols.tolist())):
            p_id, q_id = int(channel.ids[i, j]), int(channel.ids[k, j])
            d = sympy.Integer(1) if distances is None else distances[n]
            if p_id == 0 or p_id == q_id or (p_id, q_id, d) in checked:
                continue
            checked.add((p_id, q_id, d))
            if q_id == 0 or exact_compare(channel.values[p_id], sympy.exp(eps * d) * channel.values[q_id]) > 0:
                return False
    return True


def _exact_extremes(channel: ExactChannel, logs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per output, the rows holding the exact largest and smallest probability.

    The float shadow's argmax may hold a value that ties the true maximum in float64 but is smaller
    exactly; every entry within the filter tolerance of the float extreme is compared exactly.
    """
    top, bottom = logs.argmax(axis=0), logs.argmin(axis=0)
    for j in range(logs.shape[1]):
        column = logs[:, j]
        high, low = column[top[j]], column[bottom[j]]
        tol_high = FILTER_TOLERANCE * max(1.0, abs(high)) if math.isfinite(high) else 0.0
        tol_low = FILTER_TOLERANCE * max(1.0, abs(low)) if math.isfinite(low) else 0.0
        for i in np.nonzero(column >= high - tol_high)[0].tolist():
            if _float_or_exact_greater(channel, int(channel.ids[i, j]), int(channel.ids[top[j], j])):
                top[j] = i
        for i in np.nonzero(column <= low + tol_low)[0].tolist():
            if _float_or_exact_greater(channel, int(channel.ids[bottom[j], j]), int(channel.ids[i, j])):
                bottom[j] = i
    return top, bottom


def _float_or_exact_greater(channel: ExactChannel, u: int, v: int) -> bool:
    """values[u] > values[v], decided by the float shadow when clear and exactly otherwise."""
    lu, lv = channel.logs[u], channel.logs[v]
    if math.isinf(lu) or math.isinf(lv):
        return lu > lv
    if abs(lu - lv) > FILTER_TOLERANCE * max(1.0, abs(lu)):
        return lu > lv
    return exact_compare(channel.values[u], channel.values[v]) > 0


def _confirm_delta(channel: ExactChannel, relation: NeighbourRelation, guarantee: ApproxDP) -> bool:
    search = max_hockey_stick(channel, relation, guarantee.eps)
    return exact_compare(search.delta, guarantee.delta) <= 0
