"""The blanket bound evaluated for a local randomizer: the tightest decomposition bound, certified.

n users each apply a local randomizer with output law mu_x on input x; their reports are shuffled. Balle, Bell,
Gascon and Nissim ("The Privacy Blanket of the Shuffle Model", CRYPTO 2019) write every output law as
mu_x = gamma omega + (1 - gamma) nu_x with the blanket rho(y) = min_x mu_x(y), gamma = sum_y rho(y), and bound

    delta(eps) <= (1/n) E[(G_1 + ... + G_n)_+],   G_i i.i.d.,

G = (mu_x(y) - e^eps mu_x'(y)) / rho(y) with probability rho(y), and 0 with probability 1 - gamma (the same as
their (1/(gamma n)) E[(L_1 + ... + L_M)_+] with M ~ Bin(n, gamma)); Su, Cheng and Wang ("Decomposition-Based
Optimal Bounds for Privacy Amplification via Shuffling", IEEE S&P 2026) show this blanket decomposition is the
best of all decomposition bounds (FMT's clones included) and compute it by FFT. Their bounds of Hoeffding and
Bennett (``blanket-hoeffding``, ``blanket-bennett``) bound the same mean from above; here it is evaluated. For
k-RR, rho = 1/Z everywhere (Z = k - 1 + e^eps0) and, with E = e^eps0 and T = e^eps, G takes the values

    E - T (prob 1/Z),   1 - T E (prob 1/Z),   1 - T (prob (k - 2)/Z),   0 (prob (E - 1)/Z)

for every ordered pair (x, x'), which are all alike. G of the other randomizers (a finite mechanism's pmf, the
named ones, their compositions, and the clone decomposition's worst case for any eps0-LDP randomizer, which the
fmt21-numeric row evaluates by its clone sums too) is built in :mod:`dpcert.accountant.blanket_variables`; the
largest eps over the kinds of input pairs is the answer. Exact check (the test suite): binary randomized response,
E = 4, T = 2, n = 5 gives 513/3125, and the exact worst case over the other users' bits is 512/3125.

**Certified.** The mean is bounded from above by :func:`~dpcert.accountant.iid_sums.positive_part_mean_upper`
(values and masses enclosed from e^eps0 and e^eps in interval arithmetic, a mean-preserving split onto a grid
of step about sigma_G / 8, the n-fold sum by a certified FFT, the folded tail valued at n max G). eps(delta) is
a point where that bound is <= delta: guided by a saddlepoint approximation of the mean, shifted by its error at
one evaluated point, then a secant step on ln(bound) through the two evaluated points asked a hair (2^-11) above
its root (three evaluations where the guide is good; else the bisection of
:func:`~dpcert.proofs.certified_root.certified_root` to 2^-10 relative). The guides only choose where to ask, so
the reported upper end is a valid eps for the shuffled mechanism wherever the search stops.

**Lower end.** For every randomizer (not a composition of a named one with ``hadamard`` or a catalogue
mechanism: :class:`~dpcert.accountant.blanket_variables.NamedRandomizer`) and n up to :data:`MAX_LOWER_N`, the
exact eps of one pair of datasets (the other users' data fixed) is bounded from below: its
delta is again a mean (1/n) E[(H_1 + ... + H_n)_+]
(:func:`~dpcert.accountant.blanket_variables.fixed_others_variables`), evaluated from below by
:func:`~dpcert.accountant.iid_sums.positive_part_mean_lower`; the eps where that exceeds delta is below the true
eps. The ``exact`` row's lower end counts too where its enumeration reaches; the larger is reported. Else the row
is an upper bound only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy
from scipy.optimize import brentq, minimize_scalar

from dpcert.accountant.blanket_variables import (
    MAX_OPTIMAL_K,
    BlanketVariable,
    clone_variable,
    krr_fixed_others,
    krr_variable,
    randomizer_variables,
)
from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.iid_sums import ValueAtom, positive_part_mean_lower, positive_part_mean_upper
from dpcert.accountant.shuffle_common import interval_result, invalid
from dpcert.accountant.shuffle_intervals import down, up
from dpcert.proofs.certified_root import certified_root
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = ["MAX_LOWER_N", "MAX_OPTIMAL_EPS0", "MAX_OPTIMAL_N", "blanket_delta_lower", "blanket_delta_upper",
           "blanket_optimal"]

MAX_OPTIMAL_N = 10**8
"""Largest n evaluated (the n-fold sum's grid grows like sqrt(n): for 10-RR at eps0 = 1 about 0.2 s at n = 10^6,
0.5 s at 10^7 and 6 s at 10^8, 950 MB); beyond, the row says so."""

MAX_LOWER_N = 10**4
"""Largest n given a lower end from a fixed pair of datasets (its grid's step falls like 1/sqrt(n): for 10-RR at
eps0 = 1 about 0.6 s at n = 1000, 2 s at 2000, 4 s at 5000 and 7 s at 10^4; 17 s at 2 10^4)."""

MAX_OPTIMAL_EPS0 = 10
"""Largest eps0 evaluated (G's values span e^(2 eps0) of its spread's steps); beyond, the row says so."""

_STEPS_PER_SIGMA = 8
_RTOL, _LOWER_RTOL = 2.0 ** -10, 2.0 ** -9
"""The relative width the searches for the upper and the lower end aim at (certified wherever they stop)."""
MAX_CELLS = 2**20
"""The most grid cells one summand's values may span."""

MAX_PAIR_CLASSES = 8
"""The most kinds of ordered input pairs evaluated (a symmetric randomizer has one)."""


def _chernoff_tilt(values: np.ndarray, masses: np.ndarray) -> float:
    """The order t >= 0 minimising ln E[e^(t G)] (floats; any tilt is sound)."""
    top = float(np.max(np.abs(values)))
    if np.max(values) <= 0 or top == 0:
        return 0.0
    found = minimize_scalar(lambda t: float(np.log(np.sum(masses * np.exp(t * values)))), bounds=(0.0, 700.0 / top),
                            method="bounded")
    return float(found.x)


@dataclass(frozen=True)
class _GridPlan:
    """A variable's atoms at eps and the grid they are summed on (any choice is sound; these aim at tightness)."""

    atoms: list[ValueAtom]
    step: Fraction
    tilt: float
    tail: float
    top: float


def _grid_plan(variable: BlanketVariable, eps: Fraction, n: int, delta: float) -> _GridPlan:
    atoms = variable.atoms(eps)
    values, masses = variable.floats(float(eps))
    mean = float(np.sum(masses * values))
    sigma = math.sqrt(max(float(np.sum(masses * values ** 2)) - mean ** 2, 1e-300))
    top = max(float(a.value[1]) for a in atoms)
    span = top - min(float(a.value[0]) for a in atoms)
    # sigma / 8, or coarser when the values span more than MAX_CELLS such steps (a huge eps0): still sound
    exponent = math.ceil(math.log2(_STEPS_PER_SIGMA / sigma))
    exponent = min(exponent, math.floor(math.log2(MAX_CELLS / span))) if span > 0 else exponent
    step = Fraction(1, 2 ** exponent) if exponent >= 0 else Fraction(2 ** -exponent)
    folds = 2 * n.bit_length() + 1
    tail = max(delta * 1e-6 / (folds * max(top, 1e-300)), 1e-300)
    return _GridPlan(atoms, step, _chernoff_tilt(values, masses), tail, top)


def blanket_delta_upper(variable: BlanketVariable, eps: Fraction, n: int, delta: float) -> float:
    """An upper bound on (1/n) E[(G_1 + ... + G_n)_+] at eps (see the module); ``delta`` sets the tails' size."""
    plan = _grid_plan(variable, eps, n, delta)
    cap = up(n * max(plan.top, 0.0))
    total = positive_part_mean_upper(plan.atoms, n, step=plan.step, tilt=plan.tilt, tail=plan.tail, cap=cap)
    return up(up(total / n) + up(float(variable.leak(eps, "upper"))))


def blanket_delta_lower(variable: BlanketVariable, eps: Fraction, n: int, delta: float) -> float:
    """A lower bound on (1/n) E[(G_1 + ... + G_n)_+] at eps, on a step about sigma_G / (2 sqrt(n)) (rounding down
    drifts the sum by up to n steps: see :func:`~dpcert.accountant.iid_sums.positive_part_mean_lower`). For a
    variable of :func:`~dpcert.accountant.blanket_variables.fixed_others_variables` the mean is an exact delta, so
    this is a lower bound on the true delta."""
    plan = _grid_plan(variable, eps, n, delta)
    step = plan.step / 2 ** max(0, math.ceil(math.log2(math.sqrt(n) / 4)))
    total = down(positive_part_mean_lower(plan.atoms, n, step=step, tilt=plan.tilt, tail=plan.tail) / n)
    return down(total + down(float(variable.leak(eps, "lower"))))


def _model(variable: BlanketVariable, eps: float, n: int, delta: float) -> float:
    """ln of a saddlepoint approximation of the blanket mean minus ln(delta - the leak) (floats; only guides the search;
    745 where the leak alone reaches delta):
    E[S_+] ~ e^K(t) / (t^2 sqrt(2 pi K''(t))) at the root t > 0 of K'(t) = 0, K = n ln E[e^(t G)] (Bahadur and
    Rao's tail expansion at its leading order)."""
    room = delta - variable.leak_float(eps)  # what the blanket mean may add to the leak
    if room <= 0:
        return 745.0
    values, masses = variable.floats(eps)
    order = _chernoff_tilt(values, masses)
    if order <= 0:
        return -745.0  # no positive value of G: the mean is 0, far below delta
    weights = masses * np.exp(order * values)
    total = float(np.sum(weights))
    mean = float(np.sum(weights * values)) / total
    variance = max(float(np.sum(weights * values ** 2)) / total - mean ** 2, 1e-300)
    log_positive = n * math.log(total) - 2 * math.log(order) - 0.5 * math.log(2 * math.pi * n * variance)
    return log_positive - math.log(n) - math.log(room)


def _certified_eps(variable: BlanketVariable, n: int, target: float) -> float:
    """A float eps at which the blanket bound of ``variable`` is certified <= target."""
    hi = variable.eps_max
    bounds: dict[float, float] = {}

    def bound(eps: float) -> float:
        if eps not in bounds:
            bounds[eps] = blanket_delta_upper(variable, Fraction(eps), n, target)
        return bounds[eps]

    def certify(eps: float) -> bool:
        return bound(eps) <= target

    # the saddlepoint model's root, then the model shifted by its error there (nearly constant near the root), then a
    # secant step on ln(bound) through the two points evaluated, asked a hair above its root: near the root in three
    # evaluations; else the bisection of certified_root. eps = 0 is asked only if the search walks down to it (at
    # eps = 0 the sum is centred, its evaluation the slowest)
    if _model(variable, 0.0, n, target) <= 0:
        return certified_root(lambda e: _model(variable, e, n, target), certify, 0.0, hi, side="above",
                              rtol=_RTOL).certified
    first = brentq(lambda e: _model(variable, e, n, target), 0.0, hi, rtol=1e-6)
    shift = math.log(bound(first)) - math.log(target) - _model(variable, first, n, target) if bound(first) > 0 else 0.0
    shifted = [_model(variable, e, n, target) + shift for e in (0.0, hi)]
    second = first
    if shift and shifted[0] > 0 > shifted[1]:
        second = brentq(lambda e: _model(variable, e, n, target) + shift, 0.0, hi, rtol=1e-6)
    if second != first and bound(second) > 0 and bound(first) > 0 and bound(second) != bound(first):
        slope = (math.log(bound(second)) - math.log(bound(first))) / (second - first)
        third = (second + (math.log(target) - math.log(bound(second))) / slope) * (1 + _RTOL / 2)
        if abs(third - second) <= 0.05 * second and third < hi and certify(third):
            return min(eps for eps in (first, second, third) if certify(eps))
    return certified_root(lambda e: _model(variable, e, n, target) + shift, certify, 0.0, hi, side="above",
                          rtol=_RTOL).certified


def blanket_optimal(eps0: sympy.Expr, n: int, delta: sympy.Expr, k: int | None, *, randomizer: str | None = None,
                    sampling: sympy.Rational | None = None, lower: BoundResult | None = None,
                    clone: BoundResult | None = None, lower_end: bool = True) -> BoundResult:
    """The ``optimal`` shuffle row for k-RR, a finite ``randomizer`` SPEC, or (both None) any eps0-LDP randomizer
    (:func:`clone_variable`), each user reporting with probability ``sampling`` (validated arguments). ``lower``: a
    row whose lower end is a certified lower bound on the true eps (the exact row), which becomes this row's;
    ``clone``: a rigorous evaluation of the same mean by clone sums (without sampling), whose upper end is taken
    where it is smaller: fmt21-numeric for any eps0-LDP randomizer, fmt23-numeric for binary randomized response
    (its blanket and stronger-clone decompositions coincide). ``lower_end=False``: no lower end from fixed pairs of
    datasets (the upper end alone, for callers that need only it: it takes seconds near n = 10^4)."""
    if n > MAX_OPTIMAL_N:
        return invalid("optimal", f"n = {n} > {MAX_OPTIMAL_N}: beyond the evaluated range")
    if eps0 > MAX_OPTIMAL_EPS0:
        return invalid("optimal", f"eps0 = {eps0} > {MAX_OPTIMAL_EPS0}: beyond the evaluated range (the blanket "
                                  "holds e^-eps0 of the mass: little amplification is left)")
    if randomizer is not None:
        named = randomizer_variables(randomizer, eps0)
        label, variables, fixed = named.label, named.variables, named.fixed
    elif k is not None:
        if k > MAX_OPTIMAL_K:
            return invalid("optimal", f"k = {k} > {MAX_OPTIMAL_K}: beyond the evaluated range")
        label, variables, fixed = f"{k}-ary randomized response", [krr_variable(eps0, k)], krr_fixed_others(eps0, k)
    else:  # the worst case over all eps0-LDP randomizers: binary randomized response is one of them
        label, variables = "any eps0-LDP randomizer (the clone decomposition's worst case)", [clone_variable(eps0)]
        fixed = krr_fixed_others(eps0, 2)
    variables = list(variables)
    if sampling is not None and sampling != 1:
        rate = Fraction(int(sampling.p), int(sampling.q))
        variables, fixed = [v.sampled(rate) for v in variables], [v.sampled(rate) for v in fixed]
        label, lower, clone = f"{label}, users sampled at rate {sampling}", None, None  # those rows: every user reports
    if len(variables) > MAX_PAIR_CLASSES:
        return invalid("optimal", f"{label}: {len(variables)} kinds of input pairs > {MAX_PAIR_CLASSES}: beyond the "
                                  "evaluated range")
    target = float_lower(delta)  # a bound <= this float is <= delta
    floor = max(v.leak_floor for v in variables)
    if floor >= target:
        return invalid("optimal", f"{label}: outputs impossible under the other input of a pair reveal it with "
                                  f"probability {float(floor):.3g} >= delta at every eps")
    points = [_certified_eps(v, n, target) for v in variables]

    def holds(eps: float) -> bool:  # each kind was certified at its own point: confirm the others at eps
        return all(point == eps or blanket_delta_upper(v, Fraction(eps), n, target) <= target
                   for v, point in zip(variables, points))

    # the largest point, else the point beyond which every G <= 0 (the mean is 0 there)
    found = next((eps for eps in (max(points), max(v.eps_max for v in variables)) if holds(eps)), None)
    if found is None:
        return invalid("optimal", f"{label}: no eps certified for every kind of input pair")
    upper = sympy.Rational(found)
    note = (f"{label}: the blanket decomposition's mean, certified (searched to about 1e-3 relative; the largest over "
            f"{len(variables)} kind(s) of input pairs)")
    if any(v.leaks for v in variables):
        note += ("; not pure LDP: the outputs impossible under some input add their hockey-stick divergence, "
                 "unamplified (the blanket decomposition needs no pure-LDP assumption)")
    if clone is not None and clone.certified_upper is not None and clone.certified_upper < upper:
        upper = clone.certified_upper
        note = f"{label}: the same mean by FMT's clone sums ({clone.name}), smaller than its grid evaluation here"
    candidates = [(lower.lower, "the exact row's")] if lower is not None and lower.lower is not None else []
    if lower_end and n <= MAX_LOWER_N:
        ceiling = float_upper(delta)  # a lower bound above this float is above delta
        found_low = [eps for eps in (_certified_lower_eps(v, n, ceiling, float(upper)) for v in fixed)
                     if eps is not None]
        if found_low:
            candidates.append((max(found_low), "the exact eps of one pair of datasets (the other users' data fixed), "
                                               "bounded from below"))
    if not candidates:
        return interval_result("optimal", upper, upper, f"{note}; an upper bound (no lower bound at hand: n > "
                                                        f"{MAX_LOWER_N}, a composition with a part that is not "
                                                        f"aligned, or not asked for)")
    low, what = max(candidates)
    if k is None and randomizer is None:
        what += " for binary randomized response, one eps0-LDP randomizer"
    return interval_result("optimal", sympy.Rational(min(low, float_lower(upper))), upper,
                           f"{note}; the lower end is {what} (a certified lower bound on the true eps)",
                           bounds="exact")


def _certified_lower_eps(variable: BlanketVariable, n: int, ceiling: float, upper: float) -> float:
    """A float eps below the true eps: where the exact delta of ``variable``'s pair of datasets, bounded from below,
    exceeds ``ceiling`` (0 where it does not even at eps = 0: the true eps is at least 0)."""
    def certify(eps: float) -> bool:
        return blanket_delta_lower(variable, Fraction(eps), n, ceiling) > ceiling

    if not certify(0.0):
        return 0.0
    return certified_root(lambda e: _model(variable, e, n, ceiling), certify, 0.0, upper, side="below",
                          rtol=_LOWER_RTOL).certified
