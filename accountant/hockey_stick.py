"""The exact hockey-stick divergence of two explicit finite distributions.

D_{e^eps}(P || Q) = sum_y max(P(y) - e^eps Q(y), 0) = P(S) - e^eps Q(S) with S = {y : P(y) > e^eps Q(y)}.
It is the smallest delta with P(E) <= e^eps Q(E) + delta for every event E, so a pair of output laws is
(eps, delta)-indistinguishable exactly when both orders have divergence <= delta.

:mod:`dpcert.proofs.exact` computes the same quantity for a finite *mechanism* (maximised over its neighbours);
this module takes the two distributions themselves, as the group-privacy chains and the shuffled count
laws of the metric-DP shuffle lemmas need.

References: Dwork and Roth 2014, Definition 2.4; 002_1def8c9789d6e1bd.txt, Definition A.1 (and its dual
form sup_S P(S) - e^eps Q(S)).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import sympy

from dpcert.accountant.exact_intervals import rigorous_interval
from dpcert.mechanisms.parameters import InvalidParameterError, decided_sign, exact_sign, to_exact

__all__ = ["exact_distribution", "hockey_stick_divergence", "rational_enclosure"]


def exact_distribution(name: str, values: Sequence[object]) -> list[sympy.Expr] | list[Fraction]:
    """``values`` as an exact probability vector: entries >= 0 summing exactly to 1.

    All-rational input is returned as ``Fraction``s (the fast path); anything else as sympy numbers.

    Raises:
        InvalidParameterError: an empty vector, a negative entry, or a total other than 1 (naming ``name``).
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) == 0:
        raise InvalidParameterError(f"{name} must be a non-empty sequence of probabilities. Got {values!r}")
    if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in values):
        exact: list = [Fraction(v) for v in values]
        negative = [i for i, v in enumerate(exact) if v < 0]
        total_is_one = sum(exact) == 1
    else:
        exact = [to_exact(f"{name}[{i}]", v) for i, v in enumerate(values)]
        negative = [i for i, v in enumerate(exact) if decided_sign(f"{name}[{i}]", v) < 0]
        total_is_one = decided_sign(name, sympy.Add(*exact) - 1) == 0
        if all(v.is_Rational for v in exact):
            exact = [Fraction(int(v.p), int(v.q)) for v in exact]
    if negative:
        raise InvalidParameterError(f"{name}[{negative[0]}] must be >= 0. Got {exact[negative[0]]}")
    if not total_is_one:
        raise InvalidParameterError(f"{name} must sum to exactly 1. Got a total of {sum(exact, sympy.Integer(0))}")
    return exact


def rational_enclosure(value: object) -> tuple[Fraction, Fraction]:
    """Rationals lo <= value <= hi: both equal to ``value`` when it is rational, else a rigorous enclosure
    (:func:`dpcert.accountant.exact_intervals.rigorous_interval`, outward-rounded, width about 2^-200 relative)."""
    value = to_exact("value", value)
    ends = (value, value) if value.is_Rational else rigorous_interval(value)
    return Fraction(int(ends[0].p), int(ends[0].q)), Fraction(int(ends[1].p), int(ends[1].q))


def hockey_stick_divergence(P: Sequence[object], Q: Sequence[object], eps: object) -> sympy.Expr:
    """The exact D_{e^eps}(P || Q) = sum_y max(P(y) - e^eps Q(y), 0) of two finite distributions.

    The value is returned in the form P(S) - e^eps Q(S) for the event S = {y : P(y) > e^eps Q(y)}
    (sympy simplifies it to a rational when e^eps is rational). Membership of each y in S is decided
    exactly: for rational P, Q by comparing P(y) / Q(y) with a rigorous rational enclosure of e^eps
    (exact sign only where the enclosure cannot tell), otherwise by the exact sign of P(y) - e^eps Q(y).

    Args:
        P, Q: exact probability vectors over the same outputs (ints, Fractions, sympy numbers or the
            strings :func:`dpcert.mechanisms.parameters.to_exact` reads), each summing exactly to 1.
        eps: the exact eps >= 0 of the divergence's parameter e^eps.

    Raises:
        InvalidParameterError: P or Q not a distribution, different lengths, or eps < 0.

    References: Dwork and Roth 2014, Definition 2.4; 002_1def8c9789d6e1bd.txt, Definition A.1. Why the
    event form is the value: every y with P(y) > e^eps Q(y) contributes its positive part, no other does.
    """
    p, q = exact_distribution("P", P), exact_distribution("Q", Q)
    if len(p) != len(q):
        raise InvalidParameterError(f"P and Q must have the same length. Got {len(p)} and {len(q)}")
    eps = to_exact("eps", eps)
    if decided_sign("eps", eps) < 0:
        raise InvalidParameterError(f"eps must be >= 0. Got {eps}")
    t = sympy.exp(eps)
    in_event = _event(p, q, t)
    return _mass(p, in_event) - t * _mass(q, in_event)


def _mass(vector: list, event: list[int]) -> sympy.Expr:
    """sum_{y in event} vector[y] as an exact sympy number."""
    if isinstance(vector[0], Fraction):
        total = sum((vector[y] for y in event), Fraction(0))
        return sympy.Rational(total.numerator, total.denominator)
    return sympy.Add(*(vector[y] for y in event))


def _event(p: list, q: list, t: sympy.Expr) -> list[int]:
    """The outputs y with P(y) > t Q(y), decided exactly."""
    if isinstance(p[0], Fraction) and isinstance(q[0], Fraction):
        lo, hi = rational_enclosure(t)
        event = []
        for y, (a, b) in enumerate(zip(p, q)):
            if a > hi * b:
                event.append(y)
            elif a > lo * b and exact_sign(sympy.Rational(a.numerator, a.denominator)
                                           - t * sympy.Rational(b.numerator, b.denominator)) > 0:
                event.append(y)
        return event
    return [y for y, (a, b) in enumerate(zip(p, q)) if exact_sign(sympy.sympify(a) - t * sympy.sympify(b)) > 0]
