"""A certified root: where a monotone predicate changes, located by a float model and decided exactly.

Many of dpcert's answers have one shape: a float model of a monotone quantity says roughly where it
crosses a target (eps0 where a shuffle bound meets the target eps, sigma where the Gaussian delta meets
delta), and an exact or rigorously rounded predicate ``certify`` decides whether a given point is on the
safe side. :func:`certified_root` does both halves:

1. scipy's ``brentq`` finds the model's root g on [lo, hi] (the model must be < 0 where certify is
   expected to hold and > 0 where not);
2. certify is asked at g; from there the search walks outward (if certify failed at g) until it holds,
   or inward (if it held) until it fails, in steps of the tolerance (at least one float) that grow 8-fold;
3. bisection on certify narrows that bracket to the tolerance.

Where the model is not finite at the ends, has no sign change on [lo, hi] or gives NaN on the way, step 3
runs from [lo, hi] itself. The result is a point at which certify returned True, so it is as safe as
certify: the model only chooses the points at which certify is asked, and a wrong model costs evaluations,
never soundness. A result published as a float is read back as the decimal it prints as
(:func:`~dpcert.mechanisms.parameters.to_exact`), which can lie half a float on the unsafe side; such a
caller certifies that decimal, ``Fraction(repr(x))``, which is monotone in x too.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from scipy.optimize import brentq

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["CertifiedRoot", "certified_root"]

SIDES = ("below", "above")
"""Where the certified point lies: "below" the crossing (the largest x where certify holds) or "above" it
(the smallest such x)."""

_GROWTH = 8.0
"""Each step of a walk from the model's root is this many times the one before."""


@dataclass(frozen=True)
class CertifiedRoot:
    """The point :func:`certified_root` certified, and the bracket of the crossing it found.

    Attributes:
        certified: a float at which certify returned True.
        uncertified: a float at which certify returned False, within the tolerance of ``certified``
            (so by monotonicity the crossing lies between the two); None when certify holds on the whole
            search interval (then ``certified`` is its far end: hi for side "below", lo for "above").
        guess: the model's root, where the walk started; None when the model gave no sign change.
    """

    certified: float
    uncertified: float | None
    guess: float | None

    @property
    def exact(self) -> Fraction:
        """``certified`` as the exact rational it denotes (every float is a dyadic rational)."""
        return Fraction(self.certified)


def certified_root(model: Callable[[float], float], certify: Callable[[float], bool], lo: float, hi: float, *,
                   side: str, xtol: float = 0.0, rtol: float = 2.0 ** -40, max_steps: int = 64) -> CertifiedRoot:
    """The point nearest the crossing of a monotone predicate that passes it, in [lo, hi].

    ``certify`` must be monotone on [lo, hi]: with side "below" it holds on [lo, r] and fails on (r, hi]
    (e.g. a calibrated eps0: a smaller eps0 only helps), with side "above" it fails on [lo, r) and holds on
    [r, hi] (e.g. a noise scale). The returned ``certified`` point is a float where certify held, so at or
    below r for "below" (rounded down) and at or above r for "above" (rounded up); it lies within
    ``xtol + rtol * |certified|`` of a float where certify failed (``uncertified``), so r is enclosed between
    the two and the answer is within the tolerance of the best float.

    Why the result is safe: ``certified`` is a point at which ``certify`` returned True (each point is asked
    at most once); ``model`` is a float guide that only chooses where certify is asked. If the model is
    wrong, slow, or has no sign change, the walk and the bisection on certify still end at a certified point.

    Args:
        model: a float guide, < 0 where certify is expected to hold and > 0 where not; brentq solves
            model(x) = 0 on [lo, hi] when model(lo) and model(hi) are finite and of those signs.
        certify: the exact or rigorously rounded predicate, called with floats in [lo, hi].
        lo, hi: the search interval, finite floats with lo < hi.
        side: "below" or "above" (see above).
        xtol, rtol: the bracket's width: |uncertified - certified| <= xtol + rtol |certified|; both >= 0 and
            finite (0 and 0: adjacent floats).
        max_steps: the most points a walk from the model's root visits before bisection takes over.

    Returns:
        A :class:`CertifiedRoot`.

    Raises:
        InvalidParameterError: lo or hi not finite, lo >= hi, an unknown side, xtol, rtol or max_steps out
            of range, or certify fails at the end of [lo, hi] on the certified side (lo for "below", hi for
            "above"), where by monotonicity no point in [lo, hi] is certified.
    """
    lo, hi = _finite("lo", lo), _finite("hi", hi)
    if not lo < hi:
        raise InvalidParameterError(f"lo must be < hi. Got lo = {lo!r}, hi = {hi!r}")
    if side not in SIDES:
        raise InvalidParameterError(f"side must be one of {', '.join(SIDES)}. Got {side!r}")
    xtol, rtol = _finite("xtol", xtol), _finite("rtol", rtol)
    for name, value in (("xtol", xtol), ("rtol", rtol)):
        if value < 0:
            raise InvalidParameterError(f"{name} must be >= 0. Got {value!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, numbers.Integral) or max_steps < 1:
        raise InvalidParameterError(f"max_steps must be an integer >= 1. Got {max_steps!r}")
    safe, far = (lo, hi) if side == "below" else (hi, lo)
    verdicts: dict[float, bool] = {}

    def ok(x: float) -> bool:
        if x not in verdicts:
            verdicts[x] = bool(certify(x))
        return verdicts[x]

    def tolerance(x: float) -> float:
        return xtol + rtol * abs(x)

    guess = _model_root(model, safe, far, xtol, rtol)
    certified, uncertified = safe, far  # ends: asked below only if the walk did not replace them
    if guess is not None:
        holds = ok(guess)  # then walk inward until certify fails, else outward until it holds
        certified, uncertified = (guess, far) if holds else (safe, guess)
        for x in _walk(guess, far if holds else safe, tolerance(guess), max_steps):
            if ok(x):
                certified = x
            else:
                uncertified = x
            if ok(x) != holds:
                break
    if not ok(certified):  # only the safe end can reach here unasked: certify fails on all of [lo, hi]
        name = "lo" if side == "below" else "hi"
        raise InvalidParameterError(f"{name} must be a point where certify holds (side {side!r}): certify fails at "
                                    f"{name} = {safe!r}, so no point in [{lo!r}, {hi!r}] is certified")
    if ok(uncertified):  # only the far end can: certify holds on all of [lo, hi]
        return CertifiedRoot(far, None, guess)
    while abs(uncertified - certified) > tolerance(certified):
        middle = certified / 2 + uncertified / 2
        if not min(certified, uncertified) < middle < max(certified, uncertified):
            break  # adjacent floats
        if ok(middle):
            certified = middle
        else:
            uncertified = middle
    return CertifiedRoot(certified, uncertified, guess)


def _finite(name: str, value: object) -> float:
    """``value`` as a finite float (an int, float, Fraction or other real number)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"{name} must be a finite real number. Got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise InvalidParameterError(f"{name} must be a finite real number. Got {value!r}")
    return number


def _model_root(model: Callable[[float], float], safe: float, far: float, xtol: float, rtol: float) -> float | None:
    """brentq's root of ``model`` between the ends, to a quarter of the tolerance; None without a sign change
    (model(safe) <= 0 <= model(far), not both 0), with a non-finite value at an end, or a NaN on the way."""
    at_safe, at_far = float(model(safe)), float(model(far))
    if not (math.isfinite(at_safe) and math.isfinite(at_far) and at_safe <= 0 <= at_far and at_safe < at_far):
        return None
    try:
        root = float(brentq(model, min(safe, far), max(safe, far), xtol=max(xtol / 4, 2.0 ** -1074),
                            rtol=max(rtol / 4, 4 * math.ulp(1.0)), maxiter=200, disp=False))
    except ValueError:  # scipy stops at a NaN inside the bracket
        return None
    return min(max(root, min(safe, far)), max(safe, far)) if math.isfinite(root) else None


def _walk(start: float, end: float, step: float, max_steps: int) -> Iterator[float]:
    """Points from ``start`` toward ``end``: start moved by ``step`` (at least to the next float), 8 ``step``,
    64 ``step``, ..., and ``end`` itself once passed; at most ``max_steps`` points."""
    if start == end:
        return
    direction = 1.0 if end > start else -1.0
    move = max(step, abs(math.nextafter(start, end) - start))
    for _ in range(max_steps):
        x = start + direction * move
        if not math.isfinite(x) or (x - end) * direction >= 0:
            yield end
            return
        yield x
        move *= _GROWTH
