"""Certified numerical composition: delta(eps) and eps(delta) of any sequence of mechanisms, as [lower, upper].

Each mechanism (:mod:`dpcert.accountant.pld_spec`) enters as its dominating pairs; their privacy-loss
distributions are rounded onto one grid twice, pessimistically and optimistically
(:mod:`dpcert.accountant.loss_pairs`), composed by FFT with every rounding bounded
(:mod:`dpcert.accountant.loss_grid`), and queried. Every answer is an enclosure of the truth: the upper end is a
certified upper bound (delta or eps), the lower end a certified lower bound. With add/remove neighbours and
subsampling the two orders of the pair are composed separately and the larger delta is the answer (the
adversary fixes one pair of datasets for the whole composition).

Choices that cost only tightness, never soundness: the grid step h = unit / 2^m (unit: a loss every atom of
the first mechanism is a multiple of, so such atoms sit exactly on the grid; m from the gap asked for:
the two roundings differ by at most h per composed mechanism), the exponential tilt (Chernoff's optimal
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
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.composition import optimal_composition
from dpcert.accountant.gaussian_composition import gaussian_delta, gaussian_epsilon
from dpcert.accountant.loss_grid import MAX_GRID_POINTS, LossGrid, Truncation
from dpcert.accountant.pld_spec import NEIGHBOURS, Component, make_component
from dpcert.mechanisms.parameters import InvalidParameterError, require_real
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = ["SOURCE", "NumericalComposition", "compose"]

SOURCE = ("privacy-loss distributions composed by FFT (Koskela, Jalko, Honkela 2020; Zhu, Dong, Wang 2022, "
          "dominating pairs), pessimistic and optimistic grids with bounded rounding")

DEFAULT_GAP = 1e-3
"""Relative gap the grid is chosen for: h * (number of mechanisms) <= gap * max(eps, 0.05)."""

MIN_STEP_EXPONENT, MAX_STEP_EXPONENT = 4, 34
"""The grid step is unit / 2^m with m in [4, 34]."""

MAX_TILT = 200.0
"""Tilts above this gain nothing (pure-DP losses are bounded) and stretch the float range."""

DELTA_RANGE = (1e-300, 1.0)
EPS_RANGE = (0.0, 1e4)


@dataclass(frozen=True)
class _Plan:
    step: Fraction
    tilt: float
    base_tail: float
    truncation: Truncation


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

    def _unit(self) -> Fraction:
        for c in self.components:
            if c.unit is not None and c.unit > 0:
                return Fraction(int(c.unit.p), int(c.unit.q))
        return Fraction(1)

    def _log_moments(self, orders: np.ndarray) -> dict[str, np.ndarray]:
        """ln E[e^(order L)] of the composition per direction, on a coarse upper grid (floats)."""
        step = self._unit() / 2 ** 8
        moments = {}
        for key in self.components[0].pairs:
            total = np.zeros(orders.size)
            for c in self.components:
                grid = c.pairs[key][0].grid("upper", step, 1e-30)
                logs = grid.approximate_log_masses()
                losses = grid.losses()
                total += c.count * np.array([np.logaddexp.reduce(logs + a * losses) for a in orders])
            moments[key] = total
        return moments

    def _estimate(self, *, delta: float | None = None, eps: float | None = None) -> tuple[float, float, float]:
        """(tilt, eps estimate, delta estimate) from Chernoff's bound on a coarse grid (floats, a guide only)."""
        orders = np.geomspace(1e-3, 1e3, 241)
        worst_eps, worst_delta, tilt = 0.0, 0.0, 0.0
        for moment in self._log_moments(orders).values():
            if delta is not None:
                bounds = (moment - math.log(delta)) / orders
                i = int(np.nanargmin(bounds))
                if bounds[i] > worst_eps or tilt == 0.0:
                    worst_eps, tilt = max(float(bounds[i]), 0.0), float(orders[i])
            else:
                exponents = moment - orders * eps
                i = int(np.nanargmin(exponents))
                if exponents[i] > math.log(max(worst_delta, 1e-300)) or tilt == 0.0:
                    worst_delta, tilt = math.exp(min(float(exponents[i]), 0.0)), float(orders[i])
        if delta is not None:
            worst_delta = delta
        else:
            worst_eps = eps
        return (min(tilt, MAX_TILT) if tilt > 0.05 else 0.0), worst_eps, max(worst_delta, 1e-300)

    def _plan(self, *, eps_scale: float, delta_scale: float, tilt: float, gap: float) -> _Plan:
        unit = self._unit()
        target = gap * max(eps_scale, 0.05) / self.total_count
        m = math.ceil(math.log2(float(unit) / target)) if target < float(unit) else MIN_STEP_EXPONENT
        m = min(max(m, MIN_STEP_EXPONENT), MAX_STEP_EXPONENT)
        # keep the composed window (about eps + 40 loss units either side) within the grid's size
        while m > MIN_STEP_EXPONENT and (eps_scale + 40) / (float(unit) / 2 ** m) > MAX_GRID_POINTS:
            m -= 1
        folds = 2 * sum(max(1, c.count.bit_length()) for c in self.components) + len(self.components)
        tail = max(delta_scale * 1e-6 / folds, 1e-300)
        return _Plan(unit / 2 ** m, float(np.float32(tilt)),
                     max(delta_scale * 1e-7 / self.total_count, 1e-300), Truncation(tail))

    def _compose(self, plan: _Plan, side: str) -> dict[str, LossGrid]:
        grids = {}
        index = 0 if side == "upper" else 1
        for key in self.components[0].pairs:
            result = None
            for c in self.components:
                base = c.pairs[key][index].grid(side, plan.step, plan.base_tail, tilt=plan.tilt)
                part = base.power(c.count, plan.truncation)
                result = part if result is None else result.convolve(part, plan.truncation)
            grids[key] = result
        return grids

    # -------------------------------------------------------------------------------------------
    # queries
    # -------------------------------------------------------------------------------------------

    def delta(self, eps: object, *, gap: float = DEFAULT_GAP) -> BoundResult:
        """delta(eps) as a certified enclosure [lower, upper] (units "probability")."""
        eps_value = float_upper(require_real("eps", eps, low=EPS_RANGE[0], high=EPS_RANGE[1]))
        started = time.perf_counter()
        tilt, _, delta_scale = self._estimate(eps=eps_value)
        plan = self._plan(eps_scale=eps_value, delta_scale=delta_scale, tilt=tilt, gap=gap)
        upper = max(g.delta(eps_value) for g in self._compose(plan, "upper").values())
        eps_low = float_lower(sympy.sympify(eps))
        lower = max(max(g.delta(eps_low) for g in self._compose(p, "lower").values()) for p in _lower_plans(plan))
        return self._result(lower, upper, "probability", plan, time.perf_counter() - started, f"delta at eps = {eps}")

    def epsilon(self, delta: object, *, gap: float = DEFAULT_GAP) -> BoundResult:
        """eps(delta) as a certified enclosure [lower, upper] (units "eps")."""
        delta_exact = require_real("delta", delta, low=0, high=1, low_open=True, high_open=True)
        if delta_exact < sympy.Float(DELTA_RANGE[0]):
            raise InvalidParameterError(f"delta must be in [10^-300, 1). Got {delta}")
        target_low, target_high = float_lower(delta_exact), float_upper(delta_exact)
        started = time.perf_counter()
        tilt, eps_scale, _ = self._estimate(delta=target_low)
        plan = self._plan(eps_scale=eps_scale, delta_scale=target_low, tilt=tilt, gap=gap)
        uppers = [_epsilon_upper(g, target_low) for g in self._compose(plan, "upper").values()]
        lowers = [_epsilon_lower(g, target_high) for p in _lower_plans(plan) for g in self._compose(p, "lower").values()]
        return self._result(max(lowers), max(uppers), "eps", plan, time.perf_counter() - started,
                            f"eps at delta = {delta}")

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


def _lower_plans(plan: _Plan) -> tuple[_Plan, ...]:
    """The plans the lower side is computed with: the tilt, and a milder one (its zeroed float floor, max(c - E, 0),
    can erase the region the strong tilt aims at in the partial sums); every one gives a lower bound, the
    largest is kept."""
    if plan.tilt == 0.0:
        return (plan,)
    return plan, dataclasses.replace(plan, tilt=float(np.float32(plan.tilt / 2.5)))


def _epsilon_upper(grid: LossGrid, delta: float) -> float:
    """The smallest float eps found with delta_upper(eps) <= delta (bisection on the certified evaluation):
    an upper bound on the true eps(delta); inf when even the top of the grid does not reach it."""
    if grid.delta(0.0) <= delta:
        return 0.0
    high = grid.top_loss + 1.0
    if grid.delta(high) > delta:
        return math.inf
    low = 0.0
    for _ in range(80):
        middle = (low + high) / 2
        if grid.delta(middle) <= delta:
            high = middle
        else:
            low = middle
        if high - low <= 1e-13 * max(high, 1.0):
            break
    return high


def _epsilon_lower(grid: LossGrid, delta: float) -> float:
    """The largest float eps found with delta_lower(eps) > delta: a lower bound on the true eps(delta)
    (0 when none)."""
    if grid.delta(0.0) <= delta:
        return 0.0
    low, high = 0.0, max(grid.top_loss, 0.0) + 1.0
    if grid.delta(high) > delta:
        return high
    for _ in range(80):
        middle = (low + high) / 2
        if grid.delta(middle) > delta:
            low = middle
        else:
            high = middle
        if high - low <= 1e-13 * max(high, 1.0):
            break
    return low


def compose(specs: Sequence[str], *, neighbours: str = "add-remove") -> NumericalComposition:
    """The composition of the mechanisms the SPECs name (see :mod:`dpcert.accountant.pld_spec`)."""
    if isinstance(specs, str):
        specs = [specs]
    if not specs:
        raise InvalidParameterError("compose needs at least one mechanism SPEC")
    alone = len(specs) == 1
    return NumericalComposition(tuple(make_component(s, alone=alone) for s in specs), neighbours)
