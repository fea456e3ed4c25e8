"""The privacy-loss function of an additive-noise density, piecewise linear in y.

L(y) = log(p(y | 0) / p(y | s)), which sympy splits into pieces on which it is linear in y; its
supremum over y and shifts |s| <= sensitivity, its level sets {L >= level} and the hockey-stick
integral over them.

References: Dwork and Roth (2014), Theorem 3.6; Balle and Wang, "Improving the Gaussian mechanism for
differential privacy" (ICML 2018), Theorem 8.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy

from dpcert.mechanisms.base import ContinuousMechanism
from dpcert.proofs.symbolic.signs import Undecided, decided_sign, identically_zero


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
        direction = decided_sign(self.slope, "the privacy loss's slope")
        if direction == 0:
            return self.intercept
        return self.at(self.upper if direction > 0 else self.lower)

    def substituted(self, old: sympy.Expr, new: sympy.Expr) -> _LossPiece:
        return _LossPiece(*(v.subs(old, new) for v in (self.lower, self.upper, self.intercept, self.slope)))


@dataclass(frozen=True)
class LossAnalysis:
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
        raise Undecided(f"the privacy loss is not piecewise linear in y: {expr}") from error
    if poly.degree() > 1:
        raise Undecided(f"the privacy loss is not piecewise linear in y: {expr}")
    return poly.coeff_monomial(1), poly.coeff_monomial(y)


def _split_abs(expr: sympy.Expr, y: sympy.Symbol) -> list[tuple[sympy.Expr, sympy.Expr, sympy.Expr]]:
    """Split the real line at the zeros of ``expr``'s |.| arguments (linear in y); drop the |.| on each piece."""
    atoms = sorted((a for a in expr.atoms(sympy.Abs) if a.has(y)), key=sympy.default_sort_key)
    points: list[sympy.Expr] = []
    for atom in atoms:
        intercept, slope = _linear(atom.args[0], y)
        if slope == 0:
            raise Undecided(f"cannot locate the zero of {atom.args[0]}")
        root = -intercept / slope
        signs = [decided_sign(root - other, "the order of break points") for other in points]
        if 0 not in signs:
            points.insert(sum(s > 0 for s in signs), root)
    bounds = [-sympy.oo, *points, sympy.oo]
    pieces = []
    for lower, upper in itertools.pairwise(bounds):
        if lower == -sympy.oo:
            inside = 0 if upper == sympy.oo else upper - 1
        else:
            inside = lower + 1 if upper == sympy.oo else (lower + upper) / 2
        resolved = {a: decided_sign(a.args[0].subs(y, inside), "an absolute value's argument") * a.args[0]
                    for a in atoms}
        pieces.append((lower, upper, sympy.expand(expr.xreplace(resolved))))
    return pieces


def _maximum(values: Sequence[sympy.Expr]) -> sympy.Expr:
    if sympy.oo in values:
        return sympy.oo
    best = values[0]
    for value in values[1:]:
        if decided_sign(value - best, "a difference of candidate suprema") > 0:
            best = value
    return best


def analyse_loss(density: Callable[[sympy.Expr, sympy.Expr], sympy.Expr], sensitivity: sympy.Expr) -> LossAnalysis:
    """The privacy loss of an additive-noise density, and its supremum over y and shifts |s| <= sensitivity.

    The density must be translation invariant (p(y + x | x) = p(y | 0)), so the pair (0, s) represents
    every pair at distance s, and reflection symmetric (p(-y | -x) = p(y | x)), so L(y; -s) = L(-y; s) and
    shifts s > 0 suffice. The supremum over y is taken piece by piece; it must be nondecreasing in s,
    so that the worst shift is s = sensitivity.
    """
    y, x = sympy.Dummy("y", real=True), sympy.Dummy("x", real=True)
    shift = sympy.Symbol("s", positive=True)
    if not identically_zero(density(y + x, x) - density(y, 0)):
        raise Undecided("the density is not translation invariant, p(y + x | x) != p(y | 0)")
    if not identically_zero(density(-y, -x) - density(y, x)):
        raise Undecided("the density is not reflection symmetric, p(-y | -x) != p(y | x)")
    ratio = sympy.powsimp(density(y, 0) / density(y, shift))
    loss = sympy.expand(sympy.expand_log(sympy.log(ratio), force=True))
    pieces = tuple(_LossPiece(lower, upper, *_linear(piece, y)) for lower, upper, piece in _split_abs(loss, y))
    at_shift = _maximum([piece.supremum() for piece in pieces])
    if at_shift == sympy.oo:
        supremum = sympy.oo
    else:
        if decided_sign(sympy.diff(at_shift, shift), "d/ds of the supremum at shift s") < 0:
            raise Undecided("the supremum of the privacy loss decreases with the shift")
        supremum = at_shift.subs(shift, sensitivity)
    return LossAnalysis(shift, at_shift, tuple(p.substituted(shift, sensitivity) for p in pieces), supremum)


def level_point(pieces: Sequence[_LossPiece], level: sympy.Expr) -> sympy.Expr | None:
    """c with {y : L(y) >= level} = (-oo, c] for a continuous nonincreasing loss; None if the set is empty."""
    for piece in pieces:
        if decided_sign(piece.slope, "the privacy loss's slope") > 0:
            raise Undecided("the privacy loss is not nonincreasing in y, so its level sets are not half-lines")
    reached: sympy.Expr | None = None
    for piece in pieces:
        end = piece.at(piece.upper)
        if end != -sympy.oo and decided_sign(end - level, "the loss at a break point minus the level") >= 0:
            reached = piece.upper
            continue
        if piece.slope == 0:
            return reached
        return (level - piece.intercept) / piece.slope
    raise Undecided("the privacy loss never falls below the level")


def probability_at_most(density: Callable[[sympy.Expr, sympy.Expr], sympy.Expr], x: sympy.Expr,
                        c: sympy.Expr) -> sympy.Expr:
    """P(Y <= c | x) = integral over z <= c - x of p(z + x | x), split where |.| changes form."""
    z, top = sympy.Dummy("z", real=True), sympy.Dummy("h", real=True)
    bound = c - x
    total = sympy.Integer(0)
    for lower, upper, piece in _split_abs(density(z + x, x), z):
        if lower != -sympy.oo and decided_sign(bound - lower, "the event's end minus a break point") <= 0:
            break
        end = upper if upper != sympy.oo and decided_sign(bound - upper, "the event's end") >= 0 else bound
        total += sympy.integrate(piece, (z, lower, top)).subs(top, end)
    return sympy.expand(total.rewrite(sympy.erfc))


def integrated_delta(mechanism: ContinuousMechanism, eps: sympy.Expr, sensitivity: sympy.Expr) -> sympy.Expr:
    """delta(eps) = P(E | 0) - e^eps P(E | sensitivity) with E = {L >= eps}, by integrating the density."""
    analysis = analyse_loss(mechanism.density, sensitivity)
    c = level_point(analysis.pieces, eps)
    if c is None:
        return sympy.Integer(0)
    return (probability_at_most(mechanism.density, sympy.Integer(0), c)
            - sympy.exp(eps) * probability_at_most(mechanism.density, sensitivity, c))
