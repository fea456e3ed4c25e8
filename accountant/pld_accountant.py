"""Certified numerical composition: delta(eps) and eps(delta) of any sequence of mechanisms, as [lower, upper].

Each mechanism (:mod:`dpcert.accountant.pld_spec`) enters as its dominating pairs; their privacy-loss
distributions are rounded onto one grid twice, pessimistically and optimistically
(:mod:`dpcert.accountant.loss_pairs`), composed by FFT with every rounding bounded
(:mod:`dpcert.accountant.loss_grid`), and queried. Every answer is an enclosure of the truth: the upper end is a
certified upper bound (delta or eps), the lower end a certified lower bound. With add/remove neighbours and
subsampling the two orders of the pair are composed separately and the larger delta is the answer (the
adversary fixes one pair of datasets for the whole composition).

Choices that cost only tightness, never soundness: the grid step h = unit / 2^m (unit: a loss every atom of
the first mechanism is a multiple of, so such atoms sit exactly on the grid; both sides keep a cell's loss to
second order in h, so m starts at about half the exponent where the two sides could differ by h per composed
mechanism and grows by 2 until the gap asked for is met, the intersection of the enclosures found on the way
being the answer), the exponential tilt (Chernoff's optimal
order at the target, estimated on a coarse grid: :mod:`~dpcert.accountant.loss_grid`), and the tail masses
folded away (a millionth of the target delta per fold).

Exact where possible: a composition of plain Gaussians is one Gaussian (Balle and Wang 2018; Dong, Roth,
Su 2019) and k-fold binary randomized response is Kairouz, Oh and Viswanath's binomial sum; with
``exact=True`` those closed forms answer (and the numerical path is tested against them).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.composition import optimal_composition
from dpcert.accountant.gaussian_composition import gaussian_delta, gaussian_epsilon
from dpcert.accountant.loss_grid import MAX_GRID_POINTS, LossGrid, Truncation, log_sum_exp
from dpcert.accountant.pld_spec import NEIGHBOURS, Component, make_component
from dpcert.mechanisms.parameters import InvalidParameterError, require_real
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = ["SOURCE", "NumericalComposition", "compose"]

SOURCE = ("privacy-loss distributions composed by FFT (Koskela, Jalko, Honkela 2020; Zhu, Dong, Wang 2022, "
          "dominating pairs), pessimistic and optimistic grids with bounded rounding")

DEFAULT_GAP = 1e-3
GAP_RANGE = (1e-6, 0.5)
"""The relative gap asked for (upper - lower <= gap * max(eps, 10^-3), or gap * delta), in [10^-6, 1/2]: the
grid is refined until the answer meets it or refining stops helping; the finest step tried is the one where
h * number of mechanisms <= gap * max(eps, 10^-3) (unless the composed window then needs more than
MAX_GRID_POINTS / 2 points). Below 10^-6 the grid's size rather than the gap decides; above 1/2 the answer
says little."""

MIN_STEP_EXPONENT, MAX_STEP_EXPONENT = 4, 34
"""The grid step is unit / 2^m with m in [4, 34]."""

MAX_TILT = 2000.0
"""Tilts above this gain nothing (pure-DP losses are bounded) and stretch the float range."""

TILT_EXPONENT = 300.0
"""The most tilt * (width of the composed loss window) a plan uses (see ``_plan``)."""

DELTA_RANGE = (1e-300, 1.0)
EPS_RANGE = (0.0, 1e4)


@dataclass(frozen=True)
class _Plan:
    step: Fraction
    tilt: float
    base_tail: float
    truncation: Truncation
    finest: Fraction
    """The finest step a refinement goes to: the one where rounding every loss by h per mechanism meets the gap."""

    def refined(self, width: float, tolerance: float) -> _Plan | None:
        """The same plan at the step where an enclosure of ``width`` here meets ``tolerance``, both sides being second
        order in the step: 2^-j of it with j = ceil(log2(width / tolerance) / 2), at least 1 (None past the finest)."""
        if self.step <= self.finest:
            return None
        halvings = max(1, math.ceil(math.log2(width / tolerance) / 2)) if tolerance > 0 else 2
        return dataclasses.replace(self, step=max(self.step / 2 ** halvings, self.finest))

    def at_finest(self) -> _Plan:
        return dataclasses.replace(self, step=self.finest)


def _relative_gap(gap: object) -> float:
    """The relative gap a query aims at, validated (any exact number in GAP_RANGE: 1e-3, 1/1000)."""
    return float(require_real("gap", gap, low=GAP_RANGE[0], high=GAP_RANGE[1]))


@dataclass(frozen=True)
class NumericalComposition:
    """A sequence of mechanisms (each with its repeat count) under a neighbour relation."""

    components: tuple[Component, ...]
    neighbours: str = "add-remove"

    def __post_init__(self) -> None:
        if self.neighbours not in NEIGHBOURS:
            raise InvalidParameterError(f"neighbours must be one of {', '.join(NEIGHBOURS)}. Got {self.neighbours!r}")
        if not self.components:
            raise InvalidParameterError("compose needs at least one mechanism SPEC")
        if self.neighbours != "substitute" and any(c.name == "shuffle" for c in self.components):
            raise InvalidParameterError("shuffle rounds compose under substitution neighbours only (one user's data "
                                        "changed; adding a user changes the count of reports): give --neighbours "
                                        "substitute")
        keys = {frozenset(c.pairs) for c in self.components}
        if len(keys) != 1:
            raise InvalidParameterError("every mechanism of a composition must be symmetric, subsampled or given "
                                        "pair=i/j: their directions must match")

    @property
    def label(self) -> str:
        return " + ".join(c.label for c in self.components)

    @property
    def total_count(self) -> int:
        return sum(c.count for c in self.components)

    # -------------------------------------------------------------------------------------------
    # planning: step, tilt, tails
    # -------------------------------------------------------------------------------------------

    def _directions(self) -> list[str]:
        """The directions whose pairs differ: a symmetric mechanism has the same pair under "first" and "second",
        and a direction repeating another's pairs in every component gives the same answer."""
        seen, keys = set(), []
        for key in self.components[0].pairs:
            pairs = tuple(id(pair) for c in self.components for pair in c.pairs[key])
            if pairs not in seen:
                seen.add(pairs)
                keys.append(key)
        return keys

    def _unit(self) -> Fraction:
        for c in self.components:
            if c.unit is not None and c.unit > 0:
                return Fraction(int(c.unit.p), int(c.unit.q))
        return Fraction(1)

    def _survey(self, orders: np.ndarray) -> dict[str, tuple[np.ndarray, float, float, float]]:
        """Per direction: ln E[e^(order L)] of the composition, its mean, standard deviation and the widest
        single mechanism's loss span, from each mechanism's upper grid at a step of about 1/256 of its span (floats,
        a guide only)."""
        spans = {id(c): max(max(hi - lo, 1e-12) for lo, hi in [c.pairs[key][0].loss_span(1e-12) for key in c.pairs])
                 for c in self.components}
        steps = {key: Fraction(1, 2 ** max(8, min(MAX_STEP_EXPONENT, math.ceil(math.log2(256 / span)))))
                 for key, span in spans.items()}
        survey = {}
        for key in self._directions():
            moment, mean, variance = np.zeros(orders.size), 0.0, 0.0
            for c in self.components:
                grid = c.pairs[key][0].grid("upper", steps[id(c)], 1e-30)
                logs = grid.approximate_log_masses()
                losses = grid.losses()
                moment += c.count * log_sum_exp(logs[None, :] + orders[:, None] * losses[None, :])
                with np.errstate(invalid="ignore"):  # every mass at +infinity: no finite loss to weigh
                    weights = np.nan_to_num(np.exp(logs - np.logaddexp.reduce(logs)))
                first = float(np.sum(weights * losses))
                mean += c.count * first
                variance += c.count * float(np.sum(weights * (losses - first) ** 2))
            survey[key] = (moment, mean, math.sqrt(variance), max(spans.values()))
        return survey

    def _plan(self, *, delta: float | None = None, eps: float | None = None, gap: object) -> _Plan:
        """The grid step, tilt and tails for a query (any choice is sound; these aim at the gap asked for)."""
        gap = _relative_gap(gap)
        orders = np.geomspace(1e-3, MAX_TILT, 41)
        worst, tilt, low, high = -math.inf, 0.0, math.inf, -math.inf
        for moment, mean, spread, span in self._survey(orders).values():
            bounds = (moment - math.log(delta)) / orders if delta is not None else moment - orders * eps
            # Chernoff: eps <= (ln M(a) + ln(1/delta)) / a, or ln delta <= ln M(a) - a eps; the tilt is the least
            # order within 1 % of the best bound (where the best lies at the largest order, the bound only creeps down
            # to the largest loss, and so large a tilt would weigh the top atom alone)
            best = float(np.nanmin(bounds))
            i = int(np.nonzero(bounds <= best + 0.01 * abs(best))[0][0])
            value = max(float(bounds[i]), 0.0) if delta is not None else min(float(bounds[i]), 0.0)
            if value > worst:
                worst, tilt = value, float(orders[i])
            at = value if delta is not None else eps
            low = min(low, mean - 14 * spread - span)
            high = max(high, max(at, mean) + 14 * spread + span)
        # a tilt weighs the window's top by e^(tilt * width): past e^300 the top atom alone counts (a few pure-DP
        # steps, whose Chernoff bound creeps down to the largest loss only as the order grows without end)
        tilt = min(tilt, TILT_EXPONENT / max(high - low, 1e-300))
        eps_scale = worst if delta is not None else eps
        delta_scale = delta if delta is not None else math.exp(worst)
        unit = self._unit()
        target = gap * max(eps_scale, 1e-3) / self.total_count
        m = math.ceil(math.log2(float(unit) / target)) if target < float(unit) else MIN_STEP_EXPONENT
        m = min(max(m, MIN_STEP_EXPONENT), MAX_STEP_EXPONENT)
        while m > MIN_STEP_EXPONENT and (high - low) / (float(unit) / 2 ** m) > MAX_GRID_POINTS // 2:
            m -= 1  # the composed distribution's window must fit the grid
        start = min(m, max(MIN_STEP_EXPONENT, math.ceil(m / 2) + 3))  # both sides are second order in h
        folds = 2 * sum(max(1, c.count.bit_length()) for c in self.components) + len(self.components)
        return _Plan(unit / 2 ** start, float(np.float32(tilt if tilt > 0.05 else 0.0)),
                     max(delta_scale * 1e-7 / self.total_count, 1e-300),
                     Truncation(max(delta_scale * 1e-6 / folds, 1e-300)), unit / 2 ** m)

    def _refine(self, plan: _Plan, evaluate: Callable[[_Plan], tuple[float, float]],
                tolerance: Callable[[float], float]) -> tuple[float, float, _Plan]:
        """[lower, upper] from ``plan``, refined (to the step the width predicts: :meth:`_Plan.refined`) until the width
        is within ``tolerance(upper)``, the finest step is reached, or a refinement cuts the width by less than a
        quarter (the floats' precision, not the step, then limits it). Each step's answer is an enclosure of the
        truth, so their intersection is one."""
        lower, upper, previous = -math.inf, math.inf, math.inf
        while True:
            low, high = evaluate(plan)
            lower, upper = max(lower, low), min(upper, high)
            width = upper - max(lower, 0.0)
            if width <= tolerance(upper) or width > previous * 3 / 4:
                return max(lower, 0.0), upper, plan
            refined = plan.refined(width, tolerance(upper))
            if refined is None:
                return max(lower, 0.0), upper, plan
            plan, previous = refined, width

    def _compose(self, plan: _Plan, side: str) -> dict[str, LossGrid]:
        return {key: self._composed(plan, side, key) for key in self._directions()}

    def _composed(self, plan: _Plan, side: str, key: str) -> LossGrid:
        """The composition's loss distribution in direction ``key`` on the grid of ``plan``, a bound on ``side``."""
        result = None
        index = 0 if side == "upper" else 1
        for c in self.components:
            base = c.pairs[key][index].grid(side, plan.step, plan.base_tail, tilt=plan.tilt)
            part = base.power(c.count, plan.truncation)
            result = part if result is None else result.convolve(part, plan.truncation)
        return result

    def _evaluate(self, plan: _Plan, lower_of: Callable[[LossGrid], float],
                  upper_of: Callable[[LossGrid], float]) -> tuple[float, float]:
        """(lower, upper) of the largest answer over the directions: every direction's upper end, then the lower
        ends from the largest upper down, skipping a direction whose upper end is below the lower end found (its
        truth cannot be the largest)."""
        uppers = {key: upper_of(self._composed(plan, "upper", key)) for key in self._directions()}
        lower = -math.inf
        for key in sorted(uppers, key=uppers.get, reverse=True):
            if uppers[key] <= lower:
                break
            lower = max(lower, lower_of(self._composed(plan, "lower", key)))
        return lower, max(uppers.values())

    # -------------------------------------------------------------------------------------------
    # queries
    # -------------------------------------------------------------------------------------------

    def delta(self, eps: object, *, gap: object = DEFAULT_GAP) -> BoundResult:
        """delta(eps) as a certified enclosure [lower, upper] (units "probability")."""
        eps_value = float_upper(require_real("eps", eps, low=EPS_RANGE[0], high=EPS_RANGE[1]))
        started = time.perf_counter()
        eps_low = float_lower(sympy.sympify(eps))

        def evaluate(plan: _Plan) -> tuple[float, float]:
            return self._evaluate(plan, lambda grid: grid.delta(eps_low), lambda grid: grid.delta(eps_value))

        plan = self._plan(eps=eps_value, gap=gap)
        relative = _relative_gap(gap)
        lower, upper, plan = self._refine(plan, evaluate, lambda upper: relative * upper)
        return self._result(lower, upper, "probability", plan, time.perf_counter() - started, f"delta at eps = {eps}")

    def epsilon(self, delta: object, *, gap: object = DEFAULT_GAP) -> BoundResult:
        """eps(delta) as a certified enclosure [lower, upper] (units "eps")."""
        delta_exact = require_real("delta", delta, low=0, high=1, low_open=True, high_open=True)
        if delta_exact < sympy.Float(DELTA_RANGE[0]):
            raise InvalidParameterError(f"delta must be in [10^-300, 1). Got {delta}")
        target_low, target_high = float_lower(delta_exact), float_upper(delta_exact)
        started = time.perf_counter()

        def evaluate(plan: _Plan) -> tuple[float, float]:
            return self._evaluate(plan, lambda grid: _epsilon_lower(grid, target_high),
                                  lambda grid: _epsilon_upper(grid, target_low))

        plan = self._plan(delta=target_low, gap=gap)
        relative = _relative_gap(gap)
        lower, upper, plan = self._refine(plan, evaluate, lambda upper: relative * max(upper, 1e-3))
        return self._result(lower, upper, "eps", plan, time.perf_counter() - started, f"eps at delta = {delta}")

    def exact(self, *, delta: object = None, eps: object = None) -> BoundResult | None:
        """The closed form where the composition has one (None otherwise): plain Gaussians compose to one
        Gaussian of mu = sqrt(sum count (Delta/sigma)^2) (Balle and Wang 2018), k-fold binary randomized response
        is Kairouz, Oh and Viswanath's binomial sum (delta given only)."""
        kinds = {c.exact[0] if c.exact else None for c in self.components}
        if kinds == {"gaussian"}:
            mu = sympy.sqrt(sympy.Add(*[c.count * c.exact[1] ** 2 for c in self.components]))
            return gaussian_epsilon(mu, delta) if delta is not None else gaussian_delta(mu, eps)
        if kinds == {"rr"} and len({c.exact[1] for c in self.components}) == 1 and delta is not None:
            return optimal_composition(self.components[0].exact[1], self.total_count, delta)
        return None

    def _result(self, lower: float, upper: float, units: str, plan: _Plan, seconds: float, what: str) -> BoundResult:
        note = (f"{what}; {self.label}; {self.neighbours} neighbours; grid step {float(plan.step):.3g}, tilt "
                f"{plan.tilt:.3g}; {seconds:.2f} s")
        if not math.isfinite(upper):
            return BoundResult("pld", SOURCE, None, units, False,
                               f"cannot certify: the upper grid's mass at +infinity reaches the target ({note})",
                               bounds="exact")
        upper_value, lower_value = sympy.Rational(upper), sympy.Rational(max(lower, 0.0))
        gap = upper - max(lower, 0.0)
        note = f"gap {gap:.3g}" + (f" ({gap / upper:.2%} of the upper end)" if upper > 0 else "") + "; " + note
        return BoundResult("pld", SOURCE, upper_value, units, True, note, lower_value, upper_value, bounds="exact")


_SEARCH_TOLERANCE = 1e-11
"""Relative width at which the bisections for eps stop (the bound is certified at the point returned)."""


def _crossing(grid: LossGrid, delta: float) -> tuple[float, float] | None:
    """(low, high) with the grid's delta(low) > delta >= delta(high), high - low within the search tolerance,
    found on the grid's certified evaluation: first around the float guess of the crossing (a bracket widened 64
    times a try), then by bisection; None when delta(0) <= delta already. high is inf when even the top of the grid
    does not reach delta."""
    at = grid.delta_function()
    if at(0.0) <= delta:
        return None
    low, high = 0.0, max(grid.top_loss, 0.0) + 1.0
    if at(high) > delta:
        return high, math.inf
    guess = at.epsilon_guess(delta)
    if guess is not None and not low < guess < high:
        guess = None
    width = _SEARCH_TOLERANCE / 4 * max(guess or 0.0, 1.0)
    while guess is not None and width < high - low:
        below, above = max(low, guess - width), min(high, guess + width)
        if at(above) > delta:
            low = above
        elif below == low or at(below) > delta:
            low, high = below, above
            break
        else:
            high = below
        width *= 64
    for _ in range(80):
        if high - low <= _SEARCH_TOLERANCE * max(high, 1.0):
            break
        middle = (low + high) / 2
        if at(middle) > delta:
            low = middle
        else:
            high = middle
    return low, high


def _epsilon_upper(grid: LossGrid, delta: float) -> float:
    """An upper bound on the true eps(delta) from the upper grid: a point where its certified delta is <= delta
    (inf when there is none on the grid)."""
    crossing = _crossing(grid, delta)
    return 0.0 if crossing is None else crossing[1]


def _epsilon_lower(grid: LossGrid, delta: float) -> float:
    """A lower bound on the true eps(delta) from the lower grid: a point where its certified delta is > delta
    (0 when there is none)."""
    crossing = _crossing(grid, delta)
    return 0.0 if crossing is None else crossing[0]


def compose(specs: Sequence[str], *, neighbours: str = "add-remove") -> NumericalComposition:
    """The composition of the mechanisms the SPECs name (see :mod:`dpcert.accountant.pld_spec`)."""
    if isinstance(specs, str):
        specs = [specs]
    if not specs:
        raise InvalidParameterError("compose needs at least one mechanism SPEC")
    alone = len(specs) == 1
    return NumericalComposition(tuple(make_component(s, alone=alone) for s in specs), neighbours)
