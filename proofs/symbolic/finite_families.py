"""Finite families decided from their likelihood-ratio cases.

A case is an event on which P(y | x) / P(y | x') is constant, for one neighbouring pair that every
other pair maps onto by a symmetry of the mechanism: randomized response, k-RR, unary encoding and the
clamped geometric mechanism. Holds the case lists, the check of one concrete mechanism from them, and
the replays of its certificates.

References: Dwork and Roth, "The algorithmic foundations of differential privacy" (2014), Definition 2.4.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import sympy

from dpcert.mechanisms.base import Mechanism
from dpcert.mechanisms.geometric import Geometric
from dpcert.mechanisms.parameters import cancel_exponentials, exact_sign
from dpcert.mechanisms.randomized_response import KaryRandomizedResponse, RandomizedResponse
from dpcert.mechanisms.unary_encoding import UnaryEncoding
from dpcert.proofs.certificate import Certificate, Verdict, Witness, approximately
from dpcert.proofs.guarantees import ApproxDP, PureDP
from dpcert.proofs.symbolic.constants import METHOD
from dpcert.proofs.symbolic.signs import Undecided


@dataclass(frozen=True)
class Event:
    """A set of outputs on which P(y | x) / P(y | x') is constant, with its two probabilities.

    ``output`` is the output itself when the event is a single output, otherwise a description.
    """

    description: str
    x: Hashable
    x_prime: Hashable
    output: Hashable
    p: sympy.Expr
    p_prime: sympy.Expr


def randomized_response_events(p: sympy.Expr, q: sympy.Expr, k: object, *, others: bool) -> tuple[Event, ...]:
    """k-RR cases for the neighbours x = 0, x' = 1: ratios p/q (y = x), q/p (y = x') and 1 (any other y).

    Complete because k-RR commutes with every relabelling of {0..k-1}: a relabelling maps any ordered
    pair x != x' onto (0, 1), and any output is x, x' or neither. ``others`` includes the third event
    (empty when k = 2).
    """
    events = [Event("y = x", 0, 1, 0, p, q), Event("y = x'", 0, 1, 1, q, p)]
    if others:
        events.append(Event("y not in {x, x'}", 0, 1, "y not in {0, 1}", (k - 2) * q, (k - 2) * q))
    return tuple(events)


def unary_encoding_events(p: sympy.Expr, q: sympy.Expr) -> tuple[Event, ...]:
    """Unary-encoding cases for x = 0, x' = 1, by the report's bits at positions x and x'.

    Bits are independent and every bit other than x and x' has the same law under both inputs, so the
    ratio at any report is that of its two bits (y[x], y[x']): (p/q)((1-q)/(1-p)), its inverse, or 1.
    The four bit patterns partition the 2^k reports for every k, and a relabelling maps any pair to (0, 1).
    """
    patterns = (
        ("y[x] = 1, y[x'] = 0", "y[0] = 1 and y[1] = 0, other bits any", p * (1 - q), q * (1 - p)),
        ("y[x] = 0, y[x'] = 1", "y[0] = 0 and y[1] = 1, other bits any", (1 - p) * q, (1 - q) * p),
        ("y[x] = y[x'] = 1", "y[0] = 1 and y[1] = 1, other bits any", p * q, q * p),
        ("y[x] = y[x'] = 0", "y[0] = 0 and y[1] = 0, other bits any", (1 - p) * (1 - q), (1 - q) * (1 - p)),
    )
    return tuple(Event(d, 0, 1, out, a, b) for d, out, a, b in patterns)


def _geometric_events(alpha: sympy.Expr, lo: int) -> tuple[Event, ...]:
    """Clamped-geometric cases for the neighbours (lo, lo + 1) in both directions, alpha = e^-eps.

    For inputs x, x + 1 the pointwise ratio P(y | x) / P(y | x + 1) is alpha^-1 at every y <= x (end
    point lo included) and alpha at every y >= x + 1 (end point hi included); :func:`check_family`
    derives these four cases symbolically for every range. The two events have the same probabilities
    for every x: P(Y <= x | x) = P(Z <= 0) = 1 / (1 + alpha) and P(Y <= x | x + 1) = P(Z <= -1) =
    alpha / (1 + alpha), because clamping onto [lo, hi] does not move the threshold x in [lo, hi).
    So the pair (lo, lo + 1) represents every pair.
    """
    below, above = 1 / (1 + alpha), alpha / (1 + alpha)
    upper = f"y >= {lo + 1}"
    return (
        Event("y <= min(x, x')", lo, lo + 1, lo, below, above),
        Event("y >= max(x, x')", lo, lo + 1, upper, above, below),
        Event("y <= min(x, x')", lo + 1, lo, lo, above, below),
        Event("y >= max(x, x')", lo + 1, lo, upper, below, above),
    )


def finite_events(mechanism: Mechanism) -> tuple[Event, ...] | None:
    """The likelihood-ratio cases of a supported finite family, from the mechanism's own parameters."""
    kind = type(mechanism)
    if kind in (RandomizedResponse, KaryRandomizedResponse):
        return randomized_response_events(mechanism.truth_probability, mechanism.lie_probability, mechanism.k,
                                          others=mechanism.k > 2)
    if kind is UnaryEncoding:
        return unary_encoding_events(*mechanism.bit_probabilities)
    if kind is Geometric:
        return _geometric_events(mechanism.alpha, mechanism.lo)
    return None


def _exact_ratio(event: Event) -> sympy.Expr:
    return cancel_exponentials(event.p / event.p_prime)


def _exceeds(a: sympy.Expr, b: sympy.Expr) -> int:
    """The exact sign of a - b (certified evaluation; exact cancellation only for a tie)."""
    return exact_sign(a - b)


def _pairs(events: Sequence[Event]) -> dict[tuple[Hashable, Hashable], list[Event]]:
    grouped: dict[tuple[Hashable, Hashable], list[Event]] = {}
    for event in events:
        grouped.setdefault((event.x, event.x_prime), []).append(event)
    return grouped


def partitions(events: Sequence[Event], is_one: Callable[[sympy.Expr], bool]) -> bool:
    """For every represented pair, the events' probabilities sum to 1 under both inputs: no output is missed."""
    return all(is_one(sympy.Add(*(e.p for e in group))) and is_one(sympy.Add(*(e.p_prime for e in group)))
               for group in _pairs(events).values())


def _exactly_one(total: sympy.Expr) -> bool:
    return cancel_exponentials(total) == 1 or exact_sign(total - 1) == 0


def _events_delta(events: Sequence[Event], eps: sympy.Expr) -> tuple[sympy.Expr, list[Event]]:
    """max over the represented pairs of sum over events of max(P(E | x) - e^eps P(E | x'), 0), and its event."""
    t = sympy.exp(eps)
    best: tuple[sympy.Expr, list[Event]] = (sympy.Integer(0), [])
    for pair_events in _pairs(events).values():
        exceeding = [e for e in pair_events if _exceeds(e.p, t * e.p_prime) > 0]
        total = sympy.Add(*(e.p - t * e.p_prime for e in exceeding))
        if exceeding and _exceeds(total, best[0]) > 0:
            best = (total, exceeding)
    return best


def _union_witness(events: Sequence[Event]) -> Witness:
    output = events[0].output if len(events) == 1 else " or ".join(f"({e.output})" for e in events)
    return Witness(events[0].x, events[0].x_prime, output, cancel_exponentials(sympy.Add(*(e.p for e in events))),
                   cancel_exponentials(sympy.Add(*(e.p_prime for e in events))))


def check_events(mechanism: Mechanism, guarantee: PureDP | ApproxDP, events: tuple[Event, ...]) -> Certificate:
    if not partitions(events, _exactly_one):
        raise Undecided(f"the likelihood-ratio cases of {mechanism.name} do not sum to probability 1")
    cases = len(events)
    if isinstance(guarantee, ApproxDP):
        delta, exceeding = _events_delta(events, guarantee.eps)
        if not exceeding or _exceeds(delta, guarantee.delta) <= 0:
            return Certificate(mechanism, guarantee, Verdict.PROVED, METHOD,
                               f"delta({guarantee.eps}) = {delta} ({approximately(delta)}) <= {guarantee.delta}, "
                               f"summed over {cases} likelihood-ratio cases", delta=delta, replay=_replay_events_delta)
        outputs = tuple(e.output for e in exceeding)
        return Certificate(mechanism, guarantee, Verdict.REFUTED, METHOD,
                           f"event {' or '.join(e.description for e in exceeding)} has P(S|x) - e^eps P(S|x') = "
                           f"{delta} ({approximately(delta)}) > delta = {guarantee.delta}",
                           delta=delta, witness=_union_witness(exceeding), replay=_replay_events_witness(outputs))
    best, best_ratio = events[0], _exact_ratio(events[0])
    for event in events[1:]:
        ratio = _exact_ratio(event)
        if _exceeds(ratio, best_ratio) > 0:
            best, best_ratio = event, ratio
    epsilon = sympy.log(best_ratio)
    shown = f"max likelihood ratio {best_ratio} over {cases} cases (at {best.description}), tightest eps = {epsilon}"
    if exact_sign(epsilon - guarantee.eps) <= 0:
        return Certificate(mechanism, guarantee, Verdict.PROVED, METHOD,
                           f"{shown} ({approximately(epsilon)}) <= {guarantee.eps}",
                           epsilon=epsilon, replay=_replay_events_bound)
    return Certificate(mechanism, guarantee, Verdict.REFUTED, METHOD,
                       f"{shown} ({approximately(epsilon)}) > {guarantee.eps}", epsilon=epsilon,
                       witness=_union_witness([best]), replay=_replay_events_witness((best.output,)))


def _replay_events_bound(certificate: Certificate) -> bool:
    """Every case ratio is <= e^epsilon, one equals it, and epsilon <= the claimed eps."""
    events = finite_events(certificate.mechanism)
    bound = sympy.exp(certificate.epsilon)
    signs = [_exceeds(e.p, bound * e.p_prime) for e in events]
    return (partitions(events, _exactly_one) and max(signs) == 0
            and exact_sign(certificate.epsilon - certificate.guarantee.eps) <= 0)


def _replay_events_delta(certificate: Certificate) -> bool:
    """The hockey-stick sum over the cases equals the certified delta, which is <= the claimed delta."""
    events = finite_events(certificate.mechanism)
    delta, _ = _events_delta(events, certificate.guarantee.eps)
    return (partitions(events, _exactly_one) and _exceeds(delta, certificate.delta) == 0
            and _exceeds(delta, certificate.guarantee.delta) <= 0)


def _replay_events_witness(outputs: tuple[Hashable, ...]) -> Callable[[Certificate], bool]:
    """Recompute the witness event's probabilities from the mechanism's parameters; confirm the violation."""

    def replay(certificate: Certificate) -> bool:
        w, g = certificate.witness, certificate.guarantee
        chosen = [e for e in finite_events(certificate.mechanism)
                  if (e.x, e.x_prime) == (w.x, w.x_prime) and e.output in outputs]
        if len(chosen) != len(outputs):
            return False
        p, q = sympy.Add(*(e.p for e in chosen)), sympy.Add(*(e.p_prime for e in chosen))
        slack = g.delta if isinstance(g, ApproxDP) else 0
        return (_exceeds(p, w.p) == 0 and _exceeds(q, w.p_prime) == 0
                and _exceeds(p, sympy.exp(g.eps) * q + slack) > 0)

    return replay
