"""Symbolic checker: decide privacy claims in closed form, for one instance or for every parameter value.

Two entry points:

- :func:`check_symbolic` decides a claim about one concrete mechanism from closed forms instead of
  enumeration, so it also works where enumeration cannot (unary encoding with k = 10^6 has 2^k outputs).
  Finite families are decided from their list of likelihood-ratio *cases* (events on which the ratio
  P(y | x) / P(y | x') is constant); additive-noise mechanisms from their privacy-loss function
  L(y) = log(p(y | 0) / p(y | s)), which sympy splits into pieces on which it is linear in y.
- :func:`check_family` proves or refutes a claim for every parameter value with sympy symbols
  (eps > 0, integer k >= 2, sensitivity > 0, sigma > 0), and gives a counterexample parameter for a
  refuted claim.

Sign decisions over all parameter values use sympy's assumptions, after writing e^(eps/2) = 1 + u and
k = 2 + j with u > 0 and integer j >= 0, so that a ratio becomes a rational function of u and j whose
sign sympy can read off. Whatever sympy cannot decide gives an UNKNOWN verdict, never an exception.

References: Dwork and Roth, "The algorithmic foundations of differential privacy" (2014), Definition 2.4
and Theorem 3.6; Balle and Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018),
Theorem 8.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import sympy

from mechanisms.additive_noise import Gaussian, Laplace, LaplaceWrongScale
from mechanisms.base import ContinuousMechanism, Mechanism
from mechanisms.geometric import Geometric
from mechanisms.neighbours import Metric, WithinDistance
from mechanisms.parameters import (
    InvalidParameterError,
    UndecidedSignError,
    cancel_exponentials,
    exact_sign,
    require_positive,
)
from mechanisms.randomized_response import KaryRandomizedResponse, RandomizedResponse
from mechanisms.unary_encoding import UnaryEncoding
from proofs.certificate import Certificate, Verdict, Witness
from proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP
from proofs.rounding import decimal_string

__all__ = ["FAMILIES", "FamilyResult", "check_family", "check_symbolic", "gaussian_delta", "laplace_delta"]

_METHOD = "symbolic"

# Symbols of the family claims, with the assumptions every claim quantifies over.
_EPS = sympy.Symbol("eps", positive=True)
_K = sympy.Symbol("k", integer=True, positive=True)
_SENSITIVITY = sympy.Symbol("sensitivity", positive=True)
_SIGMA = sympy.Symbol("sigma", positive=True)
# e^(eps/2) = 1 + u with u > 0, and k = 2 + j with integer j >= 0: ratios become rational functions of u, j.
_U = sympy.Dummy("u", positive=True)
_J = sympy.Dummy("j", integer=True, nonnegative=True)
_REPARAMETRISATION = {_EPS: 2 * sympy.log(1 + _U), _K: 2 + _J}


class _Undecided(Exception):
    """sympy could not decide a step; the message says which (turned into an UNKNOWN verdict)."""


# --------------------------------------------------------------------------------------------------
# Sign decisions


def _sign(expr: sympy.Expr) -> int | None:
    """The sign of ``expr`` for every value of its symbols (under their assumptions), or None if undecided.

    A number is decided exactly (:func:`mechanisms.parameters.exact_sign`). An expression in the family
    symbols is tried as it is, cancelled and factored, and after the reparametrisation
    e^(eps/2) = 1 + u, k = 2 + j; None also means that the sign varies with the parameters.
    """
    expr = sympy.sympify(expr)
    if not expr.free_symbols:
        try:
            return exact_sign(expr)
        except UndecidedSignError:
            return None
    forms = [expr, sympy.factor(sympy.cancel(sympy.together(expr)))]
    reparametrised = expr.subs(_REPARAMETRISATION)
    if reparametrised != expr:
        forms.append(sympy.factor(sympy.cancel(sympy.together(sympy.expand(reparametrised)))))
    for form in forms:
        if form.is_zero:
            return 0
        if form.is_positive:
            return 1
        if form.is_negative:
            return -1
    return None


def _decided_sign(expr: sympy.Expr, what: str) -> int:
    sign = _sign(expr)
    if sign is None:
        raise _Undecided(f"could not decide the sign of {what}: {expr}")
    return sign


def _identically_zero(expr: sympy.Expr) -> bool:
    return expr == 0 or sympy.simplify(expr) == 0


# --------------------------------------------------------------------------------------------------
# Finite families: likelihood-ratio cases


@dataclass(frozen=True)
class _Event:
    """A set of outputs on which P(y | x) / P(y | x') is constant, with its two probabilities.

    ``output`` is the output itself when the event is a single output, otherwise a description.
    """

    description: str
    x: Hashable
    x_prime: Hashable
    output: Hashable
    p: sympy.Expr
    p_prime: sympy.Expr


def _randomized_response_events(p: sympy.Expr, q: sympy.Expr, k: object, *, others: bool) -> tuple[_Event, ...]:
    """k-RR cases for the neighbours x = 0, x' = 1: ratios p/q (y = x), q/p (y = x') and 1 (any other y).

    Complete because k-RR commutes with every relabelling of {0..k-1}: a relabelling maps any ordered
    pair x != x' onto (0, 1), and any output is x, x' or neither. ``others`` includes the third event
    (empty when k = 2).
    """
    events = [_Event("y = x", 0, 1, 0, p, q), _Event("y = x'", 0, 1, 1, q, p)]
    if others:
        events.append(_Event("y not in {x, x'}", 0, 1, "y not in {0, 1}", (k - 2) * q, (k - 2) * q))
    return tuple(events)


def _unary_encoding_events(p: sympy.Expr, q: sympy.Expr) -> tuple[_Event, ...]:
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
    return tuple(_Event(d, 0, 1, out, a, b) for d, out, a, b in patterns)


def _geometric_events(alpha: sympy.Expr, lo: int) -> tuple[_Event, ...]:
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
        _Event("y <= min(x, x')", lo, lo + 1, lo, below, above),
        _Event("y >= max(x, x')", lo, lo + 1, upper, above, below),
        _Event("y <= min(x, x')", lo + 1, lo, lo, above, below),
        _Event("y >= max(x, x')", lo + 1, lo, upper, below, above),
    )


def _finite_events(mechanism: Mechanism) -> tuple[_Event, ...] | None:
    """The likelihood-ratio cases of a supported finite family, from the mechanism's own parameters."""
    kind = type(mechanism)
    if kind in (RandomizedResponse, KaryRandomizedResponse):
        return _randomized_response_events(mechanism.truth_probability, mechanism.lie_probability, mechanism.k,
                                           others=mechanism.k > 2)
    if kind is UnaryEncoding:
        return _unary_encoding_events(*mechanism.bit_probabilities)
    if kind is Geometric:
        return _geometric_events(mechanism.alpha, mechanism.lo)
    return None


def _exact_ratio(event: _Event) -> sympy.Expr:
    return cancel_exponentials(event.p / event.p_prime)


def _exceeds(a: sympy.Expr, b: sympy.Expr) -> int:
    """The exact sign of a - b (certified evaluation; exact cancellation only for a tie)."""
    return exact_sign(a - b)


def _pairs(events: Sequence[_Event]) -> dict[tuple[Hashable, Hashable], list[_Event]]:
    grouped: dict[tuple[Hashable, Hashable], list[_Event]] = {}
    for event in events:
        grouped.setdefault((event.x, event.x_prime), []).append(event)
    return grouped


def _partitions(events: Sequence[_Event], is_one: Callable[[sympy.Expr], bool]) -> bool:
    """For every represented pair, the events' probabilities sum to 1 under both inputs: no output is missed."""
    return all(is_one(sympy.Add(*(e.p for e in group))) and is_one(sympy.Add(*(e.p_prime for e in group)))
               for group in _pairs(events).values())


def _exactly_one(total: sympy.Expr) -> bool:
    return cancel_exponentials(total) == 1 or exact_sign(total - 1) == 0


def _events_delta(events: Sequence[_Event], eps: sympy.Expr) -> tuple[sympy.Expr, list[_Event]]:
    """max over the represented pairs of sum over events of max(P(E | x) - e^eps P(E | x'), 0), and its event."""
    t = sympy.exp(eps)
    best: tuple[sympy.Expr, list[_Event]] = (sympy.Integer(0), [])
    for pair_events in _pairs(events).values():
        exceeding = [e for e in pair_events if _exceeds(e.p, t * e.p_prime) > 0]
        total = sympy.Add(*(e.p - t * e.p_prime for e in exceeding))
        if exceeding and _exceeds(total, best[0]) > 0:
            best = (total, exceeding)
    return best


def _union_witness(events: Sequence[_Event]) -> Witness:
    output = events[0].output if len(events) == 1 else " or ".join(f"({e.output})" for e in events)
    return Witness(events[0].x, events[0].x_prime, output, cancel_exponentials(sympy.Add(*(e.p for e in events))),
                   cancel_exponentials(sympy.Add(*(e.p_prime for e in events))))


def _check_events(mechanism: Mechanism, guarantee: PureDP | ApproxDP, events: tuple[_Event, ...]) -> Certificate:
    if not _partitions(events, _exactly_one):
        raise _Undecided(f"the likelihood-ratio cases of {mechanism.name} do not sum to probability 1")
    cases = len(events)
    if isinstance(guarantee, ApproxDP):
        delta, exceeding = _events_delta(events, guarantee.eps)
        if not exceeding or _exceeds(delta, guarantee.delta) <= 0:
            return Certificate(mechanism, guarantee, Verdict.PROVED, _METHOD,
                               f"delta({guarantee.eps}) = {delta} (~{decimal_string(delta)}) <= {guarantee.delta}, "
                               f"summed over {cases} likelihood-ratio cases", delta=delta, replay=_replay_events_delta)
        outputs = tuple(e.output for e in exceeding)
        return Certificate(mechanism, guarantee, Verdict.REFUTED, _METHOD,
                           f"event {' or '.join(e.description for e in exceeding)} has P(S|x) - e^eps P(S|x') = "
                           f"{delta} (~{decimal_string(delta)}) > delta = {guarantee.delta}",
                           delta=delta, witness=_union_witness(exceeding), replay=_replay_events_witness(outputs))
    best, best_ratio = events[0], _exact_ratio(events[0])
    for event in events[1:]:
        ratio = _exact_ratio(event)
        if _exceeds(ratio, best_ratio) > 0:
            best, best_ratio = event, ratio
    epsilon = sympy.log(best_ratio)
    shown = f"max likelihood ratio {best_ratio} over {cases} cases (at {best.description}), tightest eps = {epsilon}"
    if exact_sign(epsilon - guarantee.eps) <= 0:
        return Certificate(mechanism, guarantee, Verdict.PROVED, _METHOD,
                           f"{shown} (~{decimal_string(epsilon)}) <= {guarantee.eps}",
                           epsilon=epsilon, replay=_replay_events_bound)
    return Certificate(mechanism, guarantee, Verdict.REFUTED, _METHOD,
                       f"{shown} (~{decimal_string(epsilon)}) > {guarantee.eps}", epsilon=epsilon,
                       witness=_union_witness([best]), replay=_replay_events_witness((best.output,)))


def _replay_events_bound(certificate: Certificate) -> bool:
    """Every case ratio is <= e^epsilon, one equals it, and epsilon <= the claimed eps."""
    events = _finite_events(certificate.mechanism)
    bound = sympy.exp(certificate.epsilon)
    signs = [_exceeds(e.p, bound * e.p_prime) for e in events]
    return (_partitions(events, _exactly_one) and max(signs) == 0
            and exact_sign(certificate.epsilon - certificate.guarantee.eps) <= 0)


def _replay_events_delta(certificate: Certificate) -> bool:
    """The hockey-stick sum over the cases equals the certified delta, which is <= the claimed delta."""
    events = _finite_events(certificate.mechanism)
    delta, _ = _events_delta(events, certificate.guarantee.eps)
    return (_partitions(events, _exactly_one) and _exceeds(delta, certificate.delta) == 0
            and _exceeds(delta, certificate.guarantee.delta) <= 0)


def _replay_events_witness(outputs: tuple[Hashable, ...]) -> Callable[[Certificate], bool]:
    """Recompute the witness event's probabilities from the mechanism's parameters; confirm the violation."""

    def replay(certificate: Certificate) -> bool:
        w, g = certificate.witness, certificate.guarantee
        chosen = [e for e in _finite_events(certificate.mechanism)
                  if (e.x, e.x_prime) == (w.x, w.x_prime) and e.output in outputs]
        if len(chosen) != len(outputs):
            return False
        p, q = sympy.Add(*(e.p for e in chosen)), sympy.Add(*(e.p_prime for e in chosen))
        slack = g.delta if isinstance(g, ApproxDP) else 0
        return (_exceeds(p, w.p) == 0 and _exceeds(q, w.p_prime) == 0
                and _exceeds(p, sympy.exp(g.eps) * q + slack) > 0)

    return replay


# --------------------------------------------------------------------------------------------------
# Additive noise: the privacy-loss function, piecewise linear in y


@dataclass(frozen=True)
class _LossPiece:
    """The privacy loss intercept + slope * y on lower <= y <= upper (ends may be -oo, oo)."""

    lower: sympy.Expr
    upper: sympy.Expr
    intercept: sympy.Expr
    slope: sympy.Expr

    def at(self, y: sympy.Expr) -> sympy.Expr:
        """The loss at ``y``, as a limit at an infinite end."""
        if y in (sympy.oo, -sympy.oo):
            z = sympy.Dummy("z", real=True)
            return sympy.limit(self.intercept + self.slope * z, z, y)
        return self.intercept + self.slope * y

    def supremum(self) -> sympy.Expr:
        """sup of the loss on the piece: an end point (a limit if infinite), as the loss is linear."""
        direction = _decided_sign(self.slope, "the privacy loss's slope")
        if direction == 0:
            return self.intercept
        return self.at(self.upper if direction > 0 else self.lower)

    def substituted(self, old: sympy.Expr, new: sympy.Expr) -> _LossPiece:
        return _LossPiece(*(v.subs(old, new) for v in (self.lower, self.upper, self.intercept, self.slope)))


@dataclass(frozen=True)
class _LossAnalysis:
    """The privacy loss L(y) = log(p(y | 0) / p(y | s)) of an additive-noise density.

    ``at_shift`` is sup over y of L at a shift s > 0 (a function of ``shift``); ``pieces`` are the linear
    pieces at the worst shift s = sensitivity; ``supremum`` is sup over y and |s| <= sensitivity.
    """

    shift: sympy.Symbol
    at_shift: sympy.Expr
    pieces: tuple[_LossPiece, ...]
    supremum: sympy.Expr


def _linear(expr: sympy.Expr, y: sympy.Symbol) -> tuple[sympy.Expr, sympy.Expr]:
    """(intercept, slope) of an expression linear in ``y``."""
    try:
        poly = sympy.Poly(expr, y)
    except sympy.PolynomialError as error:
        raise _Undecided(f"the privacy loss is not piecewise linear in y: {expr}") from error
    if poly.degree() > 1:
        raise _Undecided(f"the privacy loss is not piecewise linear in y: {expr}")
    return poly.coeff_monomial(1), poly.coeff_monomial(y)


def _split_abs(expr: sympy.Expr, y: sympy.Symbol) -> list[tuple[sympy.Expr, sympy.Expr, sympy.Expr]]:
    """Split the real line at the zeros of ``expr``'s |.| arguments (linear in y); drop the |.| on each piece."""
    atoms = sorted((a for a in expr.atoms(sympy.Abs) if a.has(y)), key=sympy.default_sort_key)
    points: list[sympy.Expr] = []
    for atom in atoms:
        intercept, slope = _linear(atom.args[0], y)
        if slope == 0:
            raise _Undecided(f"cannot locate the zero of {atom.args[0]}")
        root = -intercept / slope
        signs = [_decided_sign(root - other, "the order of break points") for other in points]
        if 0 not in signs:
            points.insert(sum(s > 0 for s in signs), root)
    bounds = [-sympy.oo, *points, sympy.oo]
    pieces = []
    for lower, upper in itertools.pairwise(bounds):
        if lower == -sympy.oo:
            inside = 0 if upper == sympy.oo else upper - 1
        else:
            inside = lower + 1 if upper == sympy.oo else (lower + upper) / 2
        resolved = {a: _decided_sign(a.args[0].subs(y, inside), "an absolute value's argument") * a.args[0]
                    for a in atoms}
        pieces.append((lower, upper, sympy.expand(expr.xreplace(resolved))))
    return pieces


def _maximum(values: Sequence[sympy.Expr]) -> sympy.Expr:
    if sympy.oo in values:
        return sympy.oo
    best = values[0]
    for value in values[1:]:
        if _decided_sign(value - best, "a difference of candidate suprema") > 0:
            best = value
    return best


def _analyse_loss(density: Callable[[sympy.Expr, sympy.Expr], sympy.Expr], sensitivity: sympy.Expr) -> _LossAnalysis:
    """The privacy loss of an additive-noise density, and its supremum over y and shifts |s| <= sensitivity.

    The density must be translation invariant (p(y + x | x) = p(y | 0)), so the pair (0, s) represents
    every pair at distance s, and reflection symmetric (p(-y | -x) = p(y | x)), so L(y; -s) = L(-y; s) and
    shifts s > 0 suffice. The supremum over y is taken piece by piece; it must be nondecreasing in s,
    so that the worst shift is s = sensitivity.
    """
    y, x = sympy.Dummy("y", real=True), sympy.Dummy("x", real=True)
    shift = sympy.Symbol("s", positive=True)
    if not _identically_zero(density(y + x, x) - density(y, 0)):
        raise _Undecided("the density is not translation invariant, p(y + x | x) != p(y | 0)")
    if not _identically_zero(density(-y, -x) - density(y, x)):
        raise _Undecided("the density is not reflection symmetric, p(-y | -x) != p(y | x)")
    ratio = sympy.powsimp(density(y, 0) / density(y, shift))
    loss = sympy.expand(sympy.expand_log(sympy.log(ratio), force=True))
    pieces = tuple(_LossPiece(lower, upper, *_linear(piece, y)) for lower, upper, piece in _split_abs(loss, y))
    at_shift = _maximum([piece.supremum() for piece in pieces])
    if at_shift == sympy.oo:
        supremum = sympy.oo
    else:
        if _decided_sign(sympy.diff(at_shift, shift), "d/ds of the supremum at shift s") < 0:
            raise _Undecided("the supremum of the privacy loss decreases with the shift")
        supremum = at_shift.subs(shift, sensitivity)
    return _LossAnalysis(shift, at_shift, tuple(p.substituted(shift, sensitivity) for p in pieces), supremum)


def _level_point(pieces: Sequence[_LossPiece], level: sympy.Expr) -> sympy.Expr | None:
    """c with {y : L(y) >= level} = (-oo, c] for a continuous nonincreasing loss; None if the set is empty."""
    for piece in pieces:
        if _decided_sign(piece.slope, "the privacy loss's slope") > 0:
            raise _Undecided("the privacy loss is not nonincreasing in y, so its level sets are not half-lines")
    reached: sympy.Expr | None = None
    for piece in pieces:
        end = piece.at(piece.upper)
        if end != -sympy.oo and _decided_sign(end - level, "the loss at a break point minus the level") >= 0:
            reached = piece.upper
            continue
        if piece.slope == 0:
            return reached
        return (level - piece.intercept) / piece.slope
    raise _Undecided("the privacy loss never falls below the level")


def _probability_at_most(density: Callable[[sympy.Expr, sympy.Expr], sympy.Expr], x: sympy.Expr,
                         c: sympy.Expr) -> sympy.Expr:
    """P(Y <= c | x) = integral over z <= c - x of p(z + x | x), split where |.| changes form."""
    z, top = sympy.Dummy("z", real=True), sympy.Dummy("h", real=True)
    bound = c - x
    total = sympy.Integer(0)
    for lower, upper, piece in _split_abs(density(z + x, x), z):
        if lower != -sympy.oo and _decided_sign(bound - lower, "the event's end minus a break point") <= 0:
            break
        end = upper if upper != sympy.oo and _decided_sign(bound - upper, "the event's end") >= 0 else bound
        total += sympy.integrate(piece, (z, lower, top)).subs(top, end)
    return sympy.expand(total.rewrite(sympy.erfc))


def _continuous_delta(mechanism: ContinuousMechanism, eps: sympy.Expr, sensitivity: sympy.Expr) -> sympy.Expr:
    """The closed-form delta(eps) of the additive-noise mechanisms the checker knows."""
    if type(mechanism) is Gaussian:
        return gaussian_delta(eps, mechanism.sigma, sensitivity)
    if type(mechanism) in (Laplace, LaplaceWrongScale):
        return laplace_delta(eps, mechanism.scale, sensitivity)
    raise _Undecided(f"no closed-form delta(eps) for {mechanism.name}")


def _integrated_delta(mechanism: ContinuousMechanism, eps: sympy.Expr, sensitivity: sympy.Expr) -> sympy.Expr:
    """delta(eps) = P(E | 0) - e^eps P(E | sensitivity) with E = {L >= eps}, by integrating the density."""
    analysis = _analyse_loss(mechanism.density, sensitivity)
    c = _level_point(analysis.pieces, eps)
    if c is None:
        return sympy.Integer(0)
    return (_probability_at_most(mechanism.density, sympy.Integer(0), c)
            - sympy.exp(eps) * _probability_at_most(mechanism.density, sensitivity, c))


def _check_continuous(mechanism: ContinuousMechanism, guarantee: PureDP | ApproxDP) -> Certificate:
    relation = mechanism.neighbours
    if not isinstance(relation, WithinDistance):
        raise _Undecided(f"the symbolic checker needs neighbours |x - x'| <= sensitivity; got {relation.description}")
    sensitivity = relation.radius
    eps = guarantee.eps
    analysis = _analyse_loss(mechanism.density, sensitivity)
    if isinstance(guarantee, ApproxDP):
        delta = _continuous_delta(mechanism, eps, sensitivity)
        shown = f"delta({eps}) = {delta} (~{decimal_string(delta)})"
        if exact_sign(delta - guarantee.delta) <= 0:
            return Certificate(mechanism, guarantee, Verdict.PROVED, _METHOD,
                               f"{shown} <= {guarantee.delta} (worst neighbours |x - x'| = {sensitivity})",
                               delta=delta, replay=_replay_continuous_delta)
        witness, c = _continuous_witness(mechanism, analysis, eps, sensitivity)
        return Certificate(mechanism, guarantee, Verdict.REFUTED, _METHOD,
                           f"{shown} > delta = {guarantee.delta}, attained by the event y <= {c}",
                           delta=delta, witness=witness, replay=_replay_continuous_witness(c))
    supremum = analysis.supremum
    shown = (f"at shift 0 < s <= {sensitivity} the supremum over y of the privacy loss is {analysis.at_shift}, "
             f"so over all neighbours it is {supremum}")
    if supremum != sympy.oo and exact_sign(supremum - eps) <= 0:
        return Certificate(mechanism, guarantee, Verdict.PROVED, _METHOD,
                           f"{shown} (~{decimal_string(supremum)}) <= {eps}", epsilon=supremum,
                           replay=_replay_continuous_bound)
    witness, c = _continuous_witness(mechanism, analysis, eps if supremum == sympy.oo else supremum, sensitivity)
    if exact_sign(witness.p - sympy.exp(eps) * witness.p_prime) <= 0:
        raise _Undecided(f"the event y <= {c} does not separate the outputs as the privacy loss says")
    return Certificate(mechanism, guarantee, Verdict.REFUTED, _METHOD, f"{shown} > {eps}", epsilon=supremum,
                       witness=witness, replay=_replay_continuous_witness(c))


def _continuous_witness(mechanism: ContinuousMechanism, analysis: _LossAnalysis, level: sympy.Expr,
                        sensitivity: sympy.Expr) -> tuple[Witness, sympy.Expr]:
    """The event {y <= c} = {L >= level} for x = 0, x' = sensitivity, with its exact probabilities."""
    c = _level_point(analysis.pieces, level)
    if c is None:
        raise _Undecided(f"the privacy loss never reaches {level}")
    zero = sympy.Integer(0)
    p = _probability_at_most(mechanism.density, zero, c)
    p_prime = _probability_at_most(mechanism.density, sensitivity, c)
    return Witness(zero, sensitivity, f"y <= {c}", p, p_prime), c


def _replay_continuous_bound(certificate: Certificate) -> bool:
    """Re-derive the supremum of the privacy loss from the density; it equals epsilon, which is <= eps."""
    mechanism = certificate.mechanism
    supremum = _analyse_loss(mechanism.density, mechanism.neighbours.radius).supremum
    return (supremum != sympy.oo and exact_sign(supremum - certificate.epsilon) == 0
            and exact_sign(supremum - certificate.guarantee.eps) <= 0)


def _replay_continuous_delta(certificate: Certificate) -> bool:
    """Integrate the density over {L >= eps}: the hockey-stick value equals the certified delta <= claimed."""
    mechanism = certificate.mechanism
    integrated = _integrated_delta(mechanism, certificate.guarantee.eps, mechanism.neighbours.radius)
    return (exact_sign(integrated - certificate.delta) == 0
            and exact_sign(integrated - certificate.guarantee.delta) <= 0)


def _replay_continuous_witness(c: sympy.Expr) -> Callable[[Certificate], bool]:
    """Integrate the density over {y <= c} for both inputs; confirm the probabilities and the violation."""

    def replay(certificate: Certificate) -> bool:
        mechanism, w, g = certificate.mechanism, certificate.witness, certificate.guarantee
        if w.output != f"y <= {c}" or exact_sign(abs(w.x - w.x_prime) - mechanism.neighbours.radius) > 0:
            return False
        p = _probability_at_most(mechanism.density, w.x, c)
        q = _probability_at_most(mechanism.density, w.x_prime, c)
        slack = g.delta if isinstance(g, ApproxDP) else 0
        return (exact_sign(p - w.p) == 0 and exact_sign(q - w.p_prime) == 0
                and exact_sign(p - sympy.exp(g.eps) * q - slack) > 0)

    return replay


# --------------------------------------------------------------------------------------------------
# Closed-form deltas


def _positive(name: str, value: object) -> sympy.Expr:
    """An exact positive number, or a sympy expression in symbols that sympy knows to be positive."""
    if isinstance(value, sympy.Expr) and value.free_symbols:
        if value.is_positive is not True:
            raise InvalidParameterError(f"{name} must be > 0. Got {value}, which sympy cannot show is positive")
        return value
    return require_positive(name, value)


def _normal_cdf(z: sympy.Expr) -> sympy.Expr:
    """Phi(z) = erfc(-z / sqrt(2)) / 2."""
    return sympy.erfc(-z / sympy.sqrt(2)) / 2


def gaussian_delta(eps: object, sigma: object, sensitivity: object) -> sympy.Expr:
    """The exact smallest delta for which the Gaussian mechanism is (eps, delta)-DP.

    delta(eps) = Phi(D / (2 sigma) - eps sigma / D) - e^eps Phi(-D / (2 sigma) - eps sigma / D),
    with D = sensitivity and Phi the standard normal CDF, written Phi(z) = erfc(-z / sqrt(2)) / 2. It is
    the hockey-stick divergence between N(0, sigma^2) and N(D, sigma^2), attained by the event
    {y <= D / 2 - eps sigma^2 / D} where the privacy loss exceeds eps; it grows with D, so neighbours at
    distance exactly D are the worst.

    Args:
        eps: eps > 0, exact (or a positive sympy symbol).
        sigma: the noise standard deviation > 0.
        sensitivity: D > 0.

    Returns:
        delta(eps) as a sympy expression in erfc and exp.

    Raises:
        InvalidParameterError: a parameter is not > 0.

    References: Balle and Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018),
    Theorem 8.
    """
    eps, sigma, sensitivity = (_positive("eps", eps), _positive("sigma", sigma),
                               _positive("sensitivity", sensitivity))
    a, b = sensitivity / (2 * sigma), eps * sigma / sensitivity
    return _normal_cdf(a - b) - sympy.exp(eps) * _normal_cdf(-a - b)


def laplace_delta(eps: object, scale: object, sensitivity: object) -> sympy.Expr:
    """The exact smallest delta for which Laplace noise of scale b is (eps, delta)-DP.

    delta(eps) = max(0, 1 - exp((eps - eps0) / 2)) with eps0 = sensitivity / b, the mechanism's pure-DP
    eps. For eps < eps0 the privacy loss exceeds eps exactly on y < c = (sensitivity - eps b) / 2, and
    P(Y < c | 0) - e^eps P(Y < c | sensitivity) = (1 - e^(-c/b) / 2) - e^eps e^((c - sensitivity)/b) / 2
    simplifies to the formula. It grows with the shift, so neighbours at distance sensitivity are the worst.

    Raises:
        InvalidParameterError: a parameter is not an exact number > 0.

    References: Dwork and Roth (2014), Theorem 3.6 (the Laplace mechanism); the hockey-stick form of
    (eps, delta)-DP, Balle and Wang (ICML 2018), Theorem 5.
    """
    eps, scale, sensitivity = (require_positive("eps", eps), require_positive("scale", scale),
                               require_positive("sensitivity", sensitivity))
    gap = eps - sensitivity / scale
    return sympy.Integer(0) if exact_sign(gap) >= 0 else 1 - sympy.exp(gap / 2)


# --------------------------------------------------------------------------------------------------
# check_symbolic


def _unknown(mechanism: Mechanism, guarantee: Guarantee, why: str) -> Certificate:
    return Certificate(mechanism, guarantee, Verdict.UNKNOWN, _METHOD, why)


def check_symbolic(mechanism: Mechanism, guarantee: Guarantee) -> Certificate:
    """Decide ``guarantee`` for ``mechanism`` from closed forms, without enumerating outputs.

    Finite families (RandomizedResponse, KaryRandomizedResponse, UnaryEncoding of any k, clamped
    Geometric) are decided from their likelihood-ratio cases: events partitioning the outputs on which
    P(y | x) / P(y | x') is constant, for one neighbouring pair that every other pair maps onto by a
    symmetry of the mechanism (each case list's docstring says why it is complete; the check also
    confirms that the cases' probabilities sum to 1). eps-DP holds iff every case ratio is <= e^eps; the
    tightest eps is the log of the largest; delta(eps) is sum over cases of max(P(E | x) - e^eps P(E | x'), 0).

    Additive-noise mechanisms (Laplace, LaplaceWrongScale, Gaussian) are decided from the privacy loss
    L(y) = log(p(y | 0) / p(y | s)): eps-DP holds iff sup over y and |s| <= sensitivity of L is <= eps
    (Laplace: sensitivity / b; Gaussian: oo). (eps, delta) uses the exact delta(eps)
    (:func:`gaussian_delta`, :func:`laplace_delta`). A refutation's witness is the event {y <= c} with
    x = 0, x' = sensitivity, where the loss is at least the claimed eps (or the supremum), with its
    exact probabilities.

    Args:
        mechanism: a concrete mechanism.
        guarantee: PureDP or ApproxDP.

    Returns:
        A certificate with method "symbolic": PROVED or REFUTED with a ``replay`` that re-verifies it
        without searching, or UNKNOWN (with the reason) for other mechanisms or undecided steps.

    Raises:
        InvalidParameterError: ``mechanism`` or ``guarantee`` is not one, or MetricDP is asked of a
            mechanism without a metric neighbour relation.

    References: Dwork and Roth (2014), Definition 2.4 and Theorem 3.6; Balle and Wang (ICML 2018), Theorem 8.
    """
    if not isinstance(mechanism, Mechanism):
        raise InvalidParameterError(f"mechanism must be a Mechanism. Got {type(mechanism).__name__}")
    if not isinstance(guarantee, (PureDP, ApproxDP, MetricDP)):
        raise InvalidParameterError(f"guarantee must be PureDP, ApproxDP or MetricDP. Got {type(guarantee).__name__}")
    if isinstance(guarantee, MetricDP):
        if not isinstance(mechanism.neighbours, Metric):
            raise InvalidParameterError(
                f"metric DP needs a metric neighbour relation; {mechanism.name} compares "
                f"{mechanism.neighbours.description}")
        return _unknown(mechanism, guarantee, "the symbolic checker does not decide metric DP")
    try:
        if isinstance(mechanism, ContinuousMechanism):
            return _check_continuous(mechanism, guarantee)
        events = _finite_events(mechanism)
        if events is None:
            return _unknown(mechanism, guarantee, f"no closed-form likelihood-ratio cases for {mechanism.name}; "
                                                  "use proofs.exact.check_finite")
        return _check_events(mechanism, guarantee, events)
    except (_Undecided, UndecidedSignError, NotImplementedError) as error:
        return _unknown(mechanism, guarantee, f"sympy could not decide: {error}")


# --------------------------------------------------------------------------------------------------
# check_family


@dataclass(frozen=True)
class FamilyResult:
    """The verdict on a claim about every member of a mechanism family.

    Attributes:
        name: the family's name (one of :data:`FAMILIES`).
        statement: the claim, quantified over the parameters.
        verdict: PROVED (for every parameter value), REFUTED or UNKNOWN.
        evidence: how it was decided.
        counterexample: for REFUTED, parameter values (name -> exact value) at which the claim fails.
    """

    name: str
    statement: str
    verdict: Verdict
    evidence: str
    counterexample: dict[str, sympy.Expr] | None = None


def _symbolic_instance(cls: type[Mechanism], **fields: sympy.Expr) -> Mechanism:
    """An instance of ``cls`` whose parameters are sympy symbols.

    Validation (``__post_init__``) accepts only numbers, so it is skipped; the family checks then use the
    class's own formulas (probabilities, density, scale), which are plain sympy expressions in the fields.
    """
    instance = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(instance, name, value)
    return instance


def _counterexample(excess: sympy.Expr, params: dict[str, sympy.Symbol]) -> dict[str, sympy.Expr] | None:
    """Parameter values where ``excess`` > 0, found by solving ``excess > 0`` for one real parameter.

    The other parameters are set to 1 (k to 2); the point is the midpoint of the first interval of
    solutions, or its start + 1 if it is unbounded, and is confirmed by exact evaluation.
    """
    for name, symbol in params.items():
        if symbol.is_integer:
            continue
        others = {s: sympy.Integer(2 if s is _K else 1) for s in params.values() if s is not symbol}
        try:
            region = sympy.solve_univariate_inequality(excess.subs(others) > 0, symbol, relational=False)
        except (NotImplementedError, ValueError):
            continue
        region = region.intersect(sympy.Interval.open(0, sympy.oo))
        if isinstance(region, sympy.Union):
            region = region.args[0]
        if not isinstance(region, sympy.Interval) or region.measure == 0:
            continue
        point = region.inf + 1 if region.sup == sympy.oo else (region.inf + region.sup) / 2
        values = {**others, symbol: point}
        if exact_sign(excess.subs(values)) > 0:
            return {n: values[s] for n, s in params.items()}
    return None


def _decide(name: str, statement: str, excesses: Sequence[sympy.Expr], params: dict[str, sympy.Symbol],
            derivation: str) -> FamilyResult:
    """The claim holds iff every excess is <= 0 for every parameter value; tight iff one is identically 0.

    An excess whose sign sympy cannot show is <= 0 is searched for a counterexample (:func:`_counterexample`).
    """
    signs = [_sign(e) for e in excesses]
    if all(s is not None and s <= 0 for s in signs):
        tight = "tight: equality holds identically" if 0 in signs else "not tight"
        return FamilyResult(name, statement, Verdict.PROVED, f"{derivation}; proved for every value ({tight})")
    for excess, sign in zip(excesses, signs):
        found = None if sign is not None and sign <= 0 else _counterexample(excess, params)
        if found is not None:
            scope = "for every value" if sign == 1 else f"found by solving {excess} > 0"
            return FamilyResult(name, statement, Verdict.REFUTED,
                                f"{derivation}; {excess} > 0 {scope}, e.g. at {found}", found)
    return FamilyResult(name, statement, Verdict.UNKNOWN, f"{derivation}; sympy could not decide the sign")


def _symbolic_ratio(event: _Event) -> sympy.Expr:
    return sympy.simplify(sympy.cancel(event.p / event.p_prime))


def _finite_family(name: str, statement: str, labelled_events: Sequence[tuple[str, Sequence[_Event]]],
                   params: dict[str, sympy.Symbol]) -> FamilyResult:
    """Decide ratio <= e^eps for every case of every listed event set (e.g. each variant)."""
    excesses, parts = [], []
    for label, events in labelled_events:
        if not _partitions(events, lambda total: sympy.simplify(total - 1) == 0):
            return FamilyResult(name, statement, Verdict.UNKNOWN,
                                f"{label}: sympy could not show that the likelihood-ratio cases sum to probability 1")
        ratios = [_symbolic_ratio(e) for e in events]
        excesses.extend(r - sympy.exp(_EPS) for r in ratios)
        parts.append(f"{label}: " + ", ".join(f"{e.description} -> {r}" for e, r in zip(events, ratios)))
    derivation = ("likelihood-ratio cases (their probabilities sum to 1 under both inputs) " + "; ".join(parts)
                  + "; each must be <= exp(eps)")
    return _decide(name, statement, excesses, params, derivation)


def _randomized_response_family() -> FamilyResult:
    mechanism = _symbolic_instance(RandomizedResponse, eps=_EPS)
    events = _randomized_response_events(mechanism.truth_probability, mechanism.lie_probability, 2, others=False)
    return _finite_family("randomized-response", "RandomizedResponse(eps) is eps-DP (tight) for every eps > 0",
                          [("binary randomized response", events)], {"eps": _EPS})


def _kary_family() -> FamilyResult:
    mechanism = _symbolic_instance(KaryRandomizedResponse, k=_K, eps=_EPS)
    events = _randomized_response_events(mechanism.truth_probability, mechanism.lie_probability, _K, others=True)
    return _finite_family("k-rr", "KaryRandomizedResponse(k, eps) is eps-DP (tight) for every eps > 0 and "
                          "integer k >= 2", [("k-RR", events)], {"eps": _EPS, "k": _K})


def _unary_encoding_family() -> FamilyResult:
    labelled = []
    for variant in ("sue", "oue"):
        mechanism = _symbolic_instance(UnaryEncoding, k=_K, eps=_EPS, variant=variant)
        labelled.append((variant, _unary_encoding_events(*mechanism.bit_probabilities)))
    return _finite_family("unary-encoding", "UnaryEncoding(k, eps, variant) is eps-DP (tight) for both variants "
                          "(sue, oue), every eps > 0 and integer k >= 2", labelled, {"eps": _EPS, "k": _K})


def _geometric_family() -> FamilyResult:
    """Pointwise ratios P(y | x) / P(y | x + 1) of the clamped geometric pmf, for a symbolic range and x.

    The pmf (Ghosh, Roughgarden, Sundararajan 2009, Definition 2.1, clamped): interior
    (1 - a)/(1 + a) a^|y - x|, end points a^(x - lo)/(1 + a) and a^(hi - x)/(1 + a), a = e^-eps. Every
    output is lo, hi, an interior y <= x or an interior y >= x + 1; the reverse pair gives the inverses.
    """
    statement = ("Geometric(eps, lo, hi) is eps-DP (inputs one apart, tight) for every eps > 0 and integer "
                 "range lo < hi")
    a = sympy.exp(-_EPS)
    x, lo, hi = sympy.symbols("x lo hi", integer=True)
    m = sympy.Symbol("m", integer=True, nonnegative=True)

    def interior(y, at):
        return (1 - a) / (1 + a) * a ** sympy.Abs(y - at)

    def at_lo(at):
        return a ** (at - lo) / (1 + a)

    def at_hi(at):
        return a ** (hi - at) / (1 + a)

    def formula(at, y):
        value = at_lo(at) if y == 0 else at_hi(at) if y == 3 else interior(y, at)
        return value.subs({lo: 0, hi: 3, _EPS: 1})

    anchor = Geometric(eps=1, lo=0, hi=3)
    if any(exact_sign(formula(xv, yv) - p) != 0 for xv in anchor.inputs() for yv, p in anchor.pmf(xv).items()):
        return FamilyResult("geometric", statement, Verdict.UNKNOWN, "the pmf formula of the symbolic derivation "
                            "disagrees with Geometric.pmf at eps=1, range [0, 3]")
    cases = {
        "y = lo": at_lo(x) / at_lo(x + 1),
        "y = hi": at_hi(x) / at_hi(x + 1),
        "lo < y <= x (y = x - m)": interior(x - m, x) / interior(x - m, x + 1),
        "x + 1 <= y < hi (y = x + 1 + m)": interior(x + 1 + m, x) / interior(x + 1 + m, x + 1),
    }
    ratios = {d: sympy.simplify(r) for d, r in cases.items()}
    excesses = [r - sympy.exp(_EPS) for r in ratios.values()] + [1 / r - sympy.exp(_EPS) for r in ratios.values()]
    derivation = ("pointwise ratios for x -> x + 1 (pmf formula checked against Geometric.pmf at eps=1, "
                  "range [0, 3]): " + ", ".join(f"{d}: {r}" for d, r in ratios.items())
                  + "; the reverse pair gives their inverses; each must be <= exp(eps)")
    return _decide("geometric", statement, excesses, {"eps": _EPS}, derivation)


def _continuous_family(name: str, cls: type[ContinuousMechanism], statement: str, fields: dict[str, sympy.Symbol],
                       claim_eps: sympy.Expr) -> FamilyResult:
    mechanism = _symbolic_instance(cls, **fields)
    try:
        analysis = _analyse_loss(mechanism.density, _SENSITIVITY)
    except _Undecided as error:
        return FamilyResult(name, statement, Verdict.UNKNOWN, f"sympy could not decide: {error}")
    y = sympy.Symbol("y")
    loss = " ; ".join(f"{p.intercept + p.slope * y} on [{p.lower}, {p.upper}]" for p in analysis.pieces)
    derivation = (f"privacy loss at shift sensitivity: {loss}; supremum over y and |s| <= sensitivity: "
                  f"{analysis.supremum}")
    if analysis.supremum == sympy.oo:
        values = {n: sympy.Integer(1) for n in fields}
        concrete = check_symbolic(cls(**values), PureDP(1))
        return FamilyResult(name, statement, Verdict.REFUTED,
                            f"{derivation} (a limit of the linear loss as y -> -oo) for every parameter value; "
                            f"e.g. at {values}: {concrete.verdict.value}, {concrete.evidence}", values)
    result = _decide(name, statement, [analysis.supremum - claim_eps], {"eps": _EPS, **fields}, derivation)
    if result.verdict is not Verdict.REFUTED:
        return result
    values = result.counterexample
    concrete = check_symbolic(cls(**{n: values[n] for n in fields}), PureDP(values["eps"]))
    return FamilyResult(name, statement, result.verdict, f"{result.evidence}; check_symbolic at those values: "
                        f"{concrete.verdict.value}, {concrete.evidence}", values)


def _laplace_family() -> FamilyResult:
    return _continuous_family("laplace", Laplace, "Laplace(eps, sensitivity) is eps-DP (tight) for every eps > 0 "
                              "and sensitivity > 0", {"eps": _EPS, "sensitivity": _SENSITIVITY}, _EPS)


def _laplace_wrong_scale_family() -> FamilyResult:
    return _continuous_family("laplace-wrong-scale", LaplaceWrongScale,
                              "LaplaceWrongScale(eps, sensitivity) is eps-DP for every eps > 0 and sensitivity > 0",
                              {"eps": _EPS, "sensitivity": _SENSITIVITY}, _EPS)


def _gaussian_pure_family() -> FamilyResult:
    return _continuous_family("gaussian", Gaussian, "Gaussian(sigma, sensitivity) is eps-DP for some finite eps, "
                              "for any sigma > 0 and sensitivity > 0",
                              {"sigma": _SIGMA, "sensitivity": _SENSITIVITY}, _EPS)


def _gaussian_approx_family() -> FamilyResult:
    """Derive the Balle-Wang delta(eps) from the density with sympy, for symbolic eps, sigma and sensitivity."""
    fields = {"sigma": _SIGMA, "sensitivity": _SENSITIVITY}
    statement = ("Gaussian(sigma, sensitivity) is (eps, delta(eps))-DP for every eps, sigma, sensitivity > 0, with "
                 "delta(eps) = Phi(sensitivity/(2 sigma) - eps sigma/sensitivity) - e^eps "
                 "Phi(-sensitivity/(2 sigma) - eps sigma/sensitivity), and for no smaller delta")
    mechanism = _symbolic_instance(Gaussian, **fields)
    closed = gaussian_delta(_EPS, _SIGMA, _SENSITIVITY)
    try:
        integrated = _integrated_delta(mechanism, _EPS, _SENSITIVITY)
    except _Undecided as error:
        return FamilyResult("gaussian", statement, Verdict.UNKNOWN, f"sympy could not decide: {error}")
    identity = sympy.simplify((integrated - closed).rewrite(sympy.erfc)) == 0
    growth = sympy.simplify(sympy.diff(closed, _SENSITIVITY))
    if identity and _sign(growth) == 1:
        return FamilyResult("gaussian", statement, Verdict.PROVED,
                            "symbolic identity (sympy, for symbolic eps, sigma, sensitivity): the hockey-stick "
                            "integral P(E | 0) - e^eps P(E | sensitivity) over E = {privacy loss >= eps} equals the "
                            f"Balle-Wang delta(eps) = {closed}; d delta / d sensitivity = {growth} > 0, so "
                            "neighbours at distance sensitivity are the worst (Balle and Wang, ICML 2018, Theorem 8)")
    return FamilyResult("gaussian", statement, Verdict.UNKNOWN,
                        f"sympy could not confirm the identity (simplified: {identity}) or the growth {growth} > 0")


_FAMILY_CHECKS: dict[str, dict[str, Callable[[], FamilyResult]]] = {
    "randomized-response": {"pure": _randomized_response_family},
    "k-rr": {"pure": _kary_family},
    "unary-encoding": {"pure": _unary_encoding_family},
    "geometric": {"pure": _geometric_family},
    "laplace": {"pure": _laplace_family},
    "laplace-wrong-scale": {"pure": _laplace_wrong_scale_family},
    "gaussian": {"pure": _gaussian_pure_family, "approx": _gaussian_approx_family},
}

FAMILIES: tuple[str, ...] = tuple(_FAMILY_CHECKS)
"""The families :func:`check_family` knows (the catalogue's mechanism names)."""


def check_family(name: str, guarantee_kind: str = "pure") -> FamilyResult:
    """Prove or refute a family's privacy claim for every parameter value, with sympy symbols.

    Claims ("pure" unless noted):

    - randomized-response, k-rr, unary-encoding (sue and oue): eps-DP for every eps > 0 (and integer
      k >= 2), tight: the largest likelihood-ratio case equals e^eps identically.
    - geometric: eps-DP for every eps > 0 and range, tight: pointwise ratios are e^(+-eps).
    - laplace: eps-DP for every eps, sensitivity > 0: sup of the privacy loss = sensitivity / b = eps.
    - laplace-wrong-scale: refuted; sup = sensitivity / eps, and solving sensitivity / eps - eps > 0
      gives a counterexample (eps = 1/2, sensitivity = 1: loss 2 > 1/2).
    - gaussian: "pure" refuted for every sigma, sensitivity (the loss is unbounded); "approx" proved with
      the exact Balle-Wang delta(eps), by a symbolic identity with the hockey-stick integral.

    Args:
        name: one of :data:`FAMILIES`.
        guarantee_kind: "pure", or "approx" (gaussian only).

    Returns:
        A :class:`FamilyResult`; UNKNOWN when sympy cannot decide (never an exception for that).

    Raises:
        InvalidParameterError: unknown family or guarantee kind.

    References: Dwork and Roth (2014), Theorem 3.6; Kairouz, Oh, Viswanath (NeurIPS 2014), Section 4;
    Wang et al. (USENIX Security 2017), Section 4; Balle and Wang (ICML 2018), Theorem 8.
    """
    if name not in _FAMILY_CHECKS:
        raise InvalidParameterError(f"name must be one of {', '.join(FAMILIES)}. Got {name!r}")
    kinds = _FAMILY_CHECKS[name]
    if guarantee_kind not in kinds:
        raise InvalidParameterError(
            f"guarantee_kind for {name} must be one of {', '.join(kinds)}. Got {guarantee_kind!r}")
    try:
        return kinds[guarantee_kind]()
    except (_Undecided, UndecidedSignError, NotImplementedError) as error:
        return FamilyResult(name, f"{name} ({guarantee_kind})", Verdict.UNKNOWN, f"sympy could not decide: {error}")
