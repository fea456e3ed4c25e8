"""The blanket bound evaluated for a local randomizer given by its pmf: the tightest decomposition bound, certified.

n users each apply a local randomizer with output law mu_x on input x: k-ary randomized response (input x in
{1..k}; output x with probability e^eps0 / Z, each other symbol with 1 / Z, Z = k - 1 + e^eps0), or any finite
mechanism of the catalogue that is eps0-LDP with every output possible under every input
(:func:`randomizer_rows`); their reports are shuffled. Balle, Bell, Gascon and Nissim
("The Privacy Blanket of the Shuffle Model", CRYPTO 2019) write every output law as
mu_x = gamma omega + (1 - gamma) nu_x with the blanket rho(y) = min_x mu_x(y), gamma = sum_y rho(y), and bound

    delta(eps) <= (1/n) E[(G_1 + ... + G_n)_+],   G_i i.i.d.,

G = (mu_x(y) - e^eps mu_x'(y)) / rho(y) with probability rho(y), and 0 with probability 1 - gamma (the same as
their (1/(gamma n)) E[(L_1 + ... + L_M)_+] with M ~ Bin(n, gamma)); Su, Cheng and Wang ("Decomposition-Based
Optimal Bounds for Privacy Amplification via Shuffling", IEEE S&P 2026) show this blanket decomposition is the
best of all decomposition bounds (FMT's clones included) and compute it by FFT. Their bounds of Hoeffding and
Bennett (``blanket-hoeffding``, ``blanket-bennett``) bound the same mean from above; here it is evaluated. For
k-RR, rho = 1/Z everywhere and, with E = e^eps0 and T = e^eps, G takes the values

    E - T (prob 1/Z),   1 - T E (prob 1/Z),   1 - T (prob (k - 2)/Z),   0 (prob (E - 1)/Z)

for every ordered pair (x, x'), which are all alike. A finite randomizer's outputs are grouped into kinds (the same
mu_x(y), mu_x'(y), rho(y)) and its ordered pairs into classes with the same kinds (:func:`rows_variables`); the
largest eps over the classes is the answer. For any eps0-LDP randomizer (none named), :func:`clone_variable` is the
worst case of the clone decomposition (FMT 2021), which the fmt21-numeric row evaluates by its clone sums too. Exact check (the test suite): binary randomized response,
E = 4, T = 2, n = 5 gives 513/3125, and the exact worst case over the other users' bits is 512/3125.

**Certified.** The mean is bounded from above by :func:`~dpcert.accountant.iid_sums.positive_part_mean_upper`
(values and masses enclosed from e^eps0 and e^eps in interval arithmetic, a mean-preserving split onto a grid
of step about sigma_G / 16, the n-fold sum by a certified FFT, the folded tail valued at n max G). eps(delta) is
a point where that bound is <= delta, found by :func:`~dpcert.proofs.certified_root.certified_root` from a
saddlepoint approximation of the mean shifted by its error at one evaluated point (a guide only), so the
reported upper end is a valid eps for the shuffled mechanism. The row's lower end is the ``exact`` row's lower
end (the exact eps of shuffled k-RR, or a certified lower bound from three datasets) where dpcert's enumeration
reaches it, else the row is an upper bound only.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy
from scipy.optimize import brentq, minimize_scalar

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.iid_sums import ValueAtom, positive_part_mean_upper
from dpcert.accountant.pld_spec import parse_spec, top_level_split
from dpcert.accountant.shuffle_common import interval_result, invalid
from dpcert.accountant.shuffle_intervals import enclose, up
from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.catalog import make_mechanism
from dpcert.mechanisms.parameters import InvalidParameterError, decided_sign
from dpcert.proofs.certified_root import certified_root
from dpcert.proofs.rounding import float_lower

__all__ = [
    "MAX_OPTIMAL_EPS0",
    "MAX_OPTIMAL_K",
    "MAX_OPTIMAL_N",
    "BlanketVariable",
    "blanket_delta_upper",
    "blanket_optimal",
    "krr_variable",
    "randomizer_rows",
    "rows_variables",
]

MAX_OPTIMAL_N = 10**6
"""Largest n evaluated (the n-fold sum's grid grows like sqrt(n): about 2 s at n = 10^5 and 9 s at n = 10^6 for
10-RR); beyond, the row says so."""

MAX_OPTIMAL_K = 1000
"""Largest k evaluated (a large k leaves a tiny blanket share on each symbol and a long search)."""

MAX_OPTIMAL_EPS0 = 10
"""Largest eps0 evaluated (G's values span e^(2 eps0) of its spread's steps); beyond, the row says so."""

_STEPS_PER_SIGMA = 16
MAX_CELLS = 2**20
"""The most grid cells one summand's values may span."""

MAX_RANDOMIZER_INPUTS, MAX_RANDOMIZER_OUTPUTS = 64, 4096
"""The largest finite randomizer taken (its pairs of inputs are grouped into kinds first)."""

MAX_PAIR_CLASSES = 8
"""The most kinds of ordered input pairs evaluated (a symmetric randomizer has one)."""


@dataclass(frozen=True)
class BlanketVariable:
    """G for one ordered pair (x, x'): per kind of output y with rho(y) > 0, enclosures of mu_x(y), mu_x'(y) and
    rho(y) and how many outputs share them; G = (mu_x(y) - e^eps mu_x'(y)) / rho(y) with probability rho(y) each,
    and 0 with probability 1 - gamma (``rest``)."""

    p: tuple[tuple[Fraction, Fraction], ...]
    q: tuple[tuple[Fraction, Fraction], ...]
    rho: tuple[tuple[Fraction, Fraction], ...]
    count: tuple[int, ...]
    rest: tuple[Fraction, Fraction]

    def atoms(self, eps: Fraction) -> list[ValueAtom]:
        """G's atoms at eps, values and masses as exact rational enclosures."""
        t_lo, t_hi = (Fraction(x) for x in enclose(sympy.exp(sympy.Rational(eps.numerator, eps.denominator))))
        atoms = [ValueAtom((Fraction(0), Fraction(0)), self.rest)]
        for (p_lo, p_hi), (q_lo, q_hi), (r_lo, r_hi), c in zip(self.p, self.q, self.rho, self.count):
            top, bottom = p_hi - t_lo * q_lo, p_lo - t_hi * q_hi  # the numerator's ends; rho > 0
            atoms.append(ValueAtom((bottom / (r_hi if bottom >= 0 else r_lo), top / (r_lo if top >= 0 else r_hi)),
                                   (c * r_lo, c * r_hi)))
        return atoms

    def floats(self, eps: float) -> tuple[np.ndarray, np.ndarray]:
        """G's values and probabilities at eps in floats (a guide only)."""
        p, q, r = (np.array([float(v[1]) for v in part]) for part in (self.p, self.q, self.rho))
        values = np.append((p - math.exp(eps) * q) / r, 0.0)
        return values, np.append(r * np.array(self.count), float(self.rest[1]))

    def sampled(self, rate: Fraction) -> BlanketVariable:
        """The variable when each user reports only with probability ``rate`` (Poisson sampling of users before the
        shuffler; a user left out sends the void report, equally likely under every input): every output's
        probabilities and rho scale by the rate, and the void output joins with mu = rho = 1 - rate, G = 1 - e^eps."""
        def scaled(part: tuple[tuple[Fraction, Fraction], ...]) -> tuple[tuple[Fraction, Fraction], ...]:
            return tuple((rate * lo, rate * hi) for lo, hi in part) + ((1 - rate, 1 - rate),)

        return BlanketVariable(scaled(self.p), scaled(self.q), scaled(self.rho), self.count + (1,),
                               (rate * self.rest[0], rate * self.rest[1]))

    @property
    def eps_max(self) -> float:
        """A float above max_y ln(mu_x(y) / mu_x'(y)): at eps beyond it every G <= 0 (for rho(y) > 0: q > 0)."""
        # log1p of the exact excess over 1, so a ratio within 10^-12 of 1 keeps its digits
        return max(up(math.log1p(float(p[1] / q[0] - 1)) * (1 + 1e-12) + 1e-300) for p, q in zip(self.p, self.q))


def _enclosed(value: sympy.Expr) -> tuple[Fraction, Fraction]:
    lo, hi = enclose(value)
    return Fraction(lo), Fraction(hi)


def krr_variable(eps0: sympy.Expr, k: int) -> BlanketVariable:
    """k-RR: rho = 1/Z on every output; the output x (mu_x = e^eps0 / Z, mu_x' = 1/Z), x' (1/Z, e^eps0 / Z) and
    k - 2 others (1/Z, 1/Z); gamma = k/Z."""
    z = k - 1 + sympy.exp(eps0)
    high, low = _enclosed(sympy.exp(eps0) / z), _enclosed(1 / z)
    kinds = [(high, low, 1), (low, high, 1)] + ([(low, low, k - 2)] if k > 2 else [])
    return BlanketVariable(tuple(kv[0] for kv in kinds), tuple(kv[1] for kv in kinds), tuple(low for _ in kinds),
                           tuple(kv[2] for kv in kinds), _enclosed((sympy.exp(eps0) - 1) / z))


def clone_variable(eps0: sympy.Expr) -> BlanketVariable:
    """Any eps0-LDP randomizer, the worst case: with E = e^eps0 every mu_z is >= gamma omega for gamma = 1/E and
    omega = (mu_x + mu_x') / 2 (FMT's clones: Feldman, McMillan and Talwar, FOCS 2021), and mu_x / omega = 1 + u,
    mu_x' / omega = 1 - u with E_omega[u] = 0 and |u| <= (E - 1) / (E + 1). G = E ((1 - T) + (1 + T) u) is linear
    in u, so the two-point u = +-(E - 1) / (E + 1) (each with probability 1/2) is the largest in the convex order,
    hence gives the largest mean: two outputs with rho = 1/(2E), mu_x = (E, 1) / (E + 1), mu_x' = (1, E) / (E + 1)."""
    e = sympy.exp(eps0)
    high, low, rho = _enclosed(e / (e + 1)), _enclosed(1 / (e + 1)), _enclosed(1 / (2 * e))
    return BlanketVariable((high, low), (low, high), (rho, rho), (1, 1), _enclosed(1 - 1 / e))


def rows_variables(rows: Sequence[Sequence[sympy.Expr]]) -> list[BlanketVariable]:
    """The blanket variables of a finite randomizer (rows: inputs, exact output probabilities, each output possible
    under every input or under none), one per kind of ordered pair (x, x') whose outputs are alike up to order (a
    symmetric randomizer has one kind)."""
    ids: dict[sympy.Expr, int] = {}
    table = [[ids.setdefault(sympy.sympify(v), len(ids)) for v in row] for row in rows]
    values = list(ids)
    floats = [float(v) for v in values]
    enclosures = [_enclosed(v) for v in values]
    rho = []
    for column in zip(*table):
        least = min(set(column), key=lambda i: floats[i])
        for other in set(column):  # the float order decides unless two entries are within 1e-9: then exactly
            if other != least and floats[other] <= floats[least] * (1 + 1e-9):
                if decided_sign("randomizer", values[other] - values[least]) < 0:
                    least = other
        rho.append(least)
    gamma = sympy.Add(*[values[r] for r in rho if values[r] != 0])
    rest = _enclosed(1 - gamma)
    classes: dict[tuple, BlanketVariable] = {}
    for i, first in enumerate(table):
        for j, second in enumerate(table):
            if i == j:
                continue
            kinds: dict[tuple[int, int, int], int] = {}
            for a, b, r in zip(first, second, rho):
                if values[r] != 0:
                    kinds[(a, b, r)] = kinds.get((a, b, r), 0) + 1
            key = tuple(sorted(kinds.items()))
            if key not in classes:
                classes[key] = BlanketVariable(tuple(enclosures[a] for a, _, _ in kinds),
                                               tuple(enclosures[b] for _, b, _ in kinds),
                                               tuple(enclosures[r] for _, _, r in kinds), tuple(kinds.values()), rest)
    return list(classes.values())


def _chernoff_tilt(values: np.ndarray, masses: np.ndarray) -> float:
    """The order t >= 0 minimising ln E[e^(t G)] (floats; any tilt is sound)."""
    top = float(np.max(np.abs(values)))
    if np.max(values) <= 0 or top == 0:
        return 0.0
    found = minimize_scalar(lambda t: float(np.log(np.sum(masses * np.exp(t * values)))), bounds=(0.0, 700.0 / top),
                            method="bounded")
    return float(found.x)


def blanket_delta_upper(variable: BlanketVariable, eps: Fraction, n: int, delta: float) -> float:
    """An upper bound on (1/n) E[(G_1 + ... + G_n)_+] at eps (see the module); ``delta`` sets the tails' size."""
    atoms = variable.atoms(eps)
    values, masses = variable.floats(float(eps))
    mean = float(np.sum(masses * values))
    sigma = math.sqrt(max(float(np.sum(masses * values ** 2)) - mean ** 2, 1e-300))
    top = max(float(a.value[1]) for a in atoms)
    span = top - min(float(a.value[0]) for a in atoms)
    # sigma / 16, or coarser when the values span more than MAX_CELLS such steps (a huge eps0): still sound
    exponent = math.ceil(math.log2(_STEPS_PER_SIGMA / sigma))
    exponent = min(exponent, math.floor(math.log2(MAX_CELLS / span))) if span > 0 else exponent
    step = Fraction(1, 2 ** exponent) if exponent >= 0 else Fraction(2 ** -exponent)
    cap = up(n * max(top, 0.0))
    folds = 2 * n.bit_length() + 1
    tail = max(delta * 1e-6 / (folds * max(top, 1e-300)), 1e-300)
    total = positive_part_mean_upper(atoms, n, step=step, tilt=_chernoff_tilt(values, masses), tail=tail, cap=cap)
    return up(total / n)


def _model(variable: BlanketVariable, eps: float, n: int, delta: float) -> float:
    """ln of a saddlepoint approximation of the bound minus ln delta (floats; only guides the search):
    E[S_+] ~ e^K(t) / (t^2 sqrt(2 pi K''(t))) at the root t > 0 of K'(t) = 0, K = n ln E[e^(t G)] (Bahadur and
    Rao's tail expansion at its leading order)."""
    values, masses = variable.floats(eps)
    order = _chernoff_tilt(values, masses)
    if order <= 0:
        return -745.0  # no positive value of G: the mean is 0, far below delta
    weights = masses * np.exp(order * values)
    total = float(np.sum(weights))
    mean = float(np.sum(weights * values)) / total
    variance = max(float(np.sum(weights * values ** 2)) / total - mean ** 2, 1e-300)
    log_positive = n * math.log(total) - 2 * math.log(order) - 0.5 * math.log(2 * math.pi * n * variance)
    return log_positive - math.log(n) - math.log(delta)


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

    # the saddlepoint model's root, then the model shifted by its error there (nearly constant near the root); eps = 0
    # is asked only if the search walks down to it (at eps = 0 the sum is centred, its evaluation the slowest)
    shift = 0.0
    if _model(variable, 0.0, n, target) > 0:
        first = brentq(lambda e: _model(variable, e, n, target), 0.0, hi, rtol=1e-6)
        if bound(first) > 0:
            shift = math.log(bound(first)) - math.log(target) - _model(variable, first, n, target)
    return certified_root(lambda e: _model(variable, e, n, target) + shift, certify, 0.0, hi, side="above",
                          rtol=2.0 ** -14).certified


def _single_rows(spec: str) -> tuple[str, list[list[sympy.Expr]]]:
    """(label, exact rows) of one catalogued finite mechanism ``NAME:param=value,...``."""
    try:
        name, raw, count = parse_spec(spec)
        mechanism = make_mechanism(name, raw)
        if not isinstance(mechanism, FiniteMechanism):
            raise InvalidParameterError(f"{name} is not a finite mechanism")
        inputs, outputs = mechanism.inputs(), mechanism.outputs()  # sequences: their length is known before listing
        if len(inputs) > MAX_RANDOMIZER_INPUTS or len(outputs) > MAX_RANDOMIZER_OUTPUTS:
            raise InvalidParameterError(f"at most {MAX_RANDOMIZER_INPUTS} inputs and {MAX_RANDOMIZER_OUTPUTS} outputs "
                                        f"are taken. Got {len(inputs)} and {len(outputs)}")
        rows = [[sympy.sympify(mechanism.pmf(x).get(y, 0)) for y in outputs] for x in inputs]
    except InvalidParameterError as error:
        raise InvalidParameterError(f"randomizer must be a finite mechanism of `dpcert mechanisms` as "
                                    f"NAME:param=value,...: {error}") from error
    if count != 1:
        raise InvalidParameterError(f"randomizer takes no repeat count. Got {spec!r}")
    return f"{name}({', '.join(f'{k}={v}' for k, v in raw.items())})", rows


def _composed_rows(spec: str) -> tuple[str, list[list[sympy.Expr]]]:
    """One mechanism, or several joined by ``&`` (joint composition: each user reports all of them on the same
    input, the tuple is one report: the product of the laws) or by ``|`` (parallel composition: each user runs one
    of them, chosen uniformly, and the report says which: the mixture of the laws on disjoint outputs)."""
    joint, parallel = top_level_split(spec, separator="&"), top_level_split(spec, separator="|")
    if len(joint) > 1 and len(parallel) > 1:
        raise InvalidParameterError(f"randomizer joins mechanisms with & (joint) or | (parallel), not both. Got {spec!r}")
    parts = [_single_rows(part.strip()) for part in (joint if len(joint) > 1 else parallel)]
    if len(parts) == 1:
        return parts[0]
    if len({len(rows) for _, rows in parts}) != 1:
        raise InvalidParameterError(f"randomizer: the composed mechanisms must take the same inputs. Got {spec!r}")
    labels = [label for label, _ in parts]
    if len(joint) > 1:
        size = math.prod(len(rows[0]) for _, rows in parts)
        if size > MAX_RANDOMIZER_OUTPUTS:
            raise InvalidParameterError(f"randomizer: the joint composition has {size} outputs > "
                                        f"{MAX_RANDOMIZER_OUTPUTS}")
        rows = [[math.prod(combination) for combination in itertools.product(*(r[x] for _, r in parts))]
                for x in range(len(parts[0][1]))]
        return " & ".join(labels), rows
    share = sympy.Rational(1, len(parts))
    rows = [[share * v for _, r in parts for v in r[x]] for x in range(len(parts[0][1]))]
    return " | ".join(labels), rows


@functools.lru_cache(maxsize=16)
def randomizer_rows(spec: str, eps0: sympy.Expr) -> tuple[str, tuple[tuple[sympy.Expr, ...], ...]]:
    """(label, exact rows) of the randomizer a SPEC names (one finite mechanism ``NAME:param=value,...`` or several
    joined by ``&`` or ``|``, see :func:`_composed_rows`), checked to be eps0-LDP with every output possible under
    every input (the blanket bound needs it), else bad input."""
    label, rows = _composed_rows(spec)
    for y, column in enumerate(zip(*rows)):
        if any(v == 0 for v in column) and any(v != 0 for v in column):
            raise InvalidParameterError(f"randomizer {spec!r}: output {y} has probability 0 under some inputs only "
                                        "(not pure LDP): the blanket bound does not apply")
    ids: dict[sympy.Expr, int] = {}
    table = np.array([[ids.setdefault(v, len(ids)) for v in row] for row in rows])
    values = list(ids)
    floats = np.array([float(v) for v in values])[table]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(floats[None, :, :] > 0, floats[:, None, :] / floats[None, :, :], 0.0)
    near = np.argwhere(ratios >= np.max(ratios) * (1 - 1e-9))  # the largest ratio, decided exactly among near ties
    for a, b in {(table[i, y], table[j, y]) for i, j, y in near}:
        if decided_sign("randomizer", values[a] - sympy.exp(eps0) * values[b]) > 0:
            raise InvalidParameterError(f"randomizer {spec!r} is not eps0-LDP at eps0 = {eps0} (a probability ratio "
                                        f"{sympy.N(values[a] / values[b], 6)} exceeds e^eps0): give eps0 >= its eps")
    return label, tuple(tuple(row) for row in rows)


def blanket_optimal(eps0: sympy.Expr, n: int, delta: sympy.Expr, k: int | None, *, randomizer: str | None = None,
                    sampling: sympy.Rational | None = None, lower: BoundResult | None = None,
                    clone: BoundResult | None = None) -> BoundResult:
    """The ``optimal`` shuffle row for k-RR, a finite ``randomizer`` SPEC, or (both None) any eps0-LDP randomizer
    (:func:`clone_variable`), each user reporting with probability ``sampling`` (validated arguments). ``lower``: a
    row whose lower end is a certified lower bound on the true eps (the exact row), which becomes this row's;
    ``clone``: for any eps0-LDP randomizer, the fmt21-numeric row, a rigorous evaluation of the same mean by its
    clone sums (without sampling), whose upper end is taken where it is smaller."""
    if n > MAX_OPTIMAL_N:
        return invalid("optimal", f"n = {n} > {MAX_OPTIMAL_N}: beyond the evaluated range")
    if eps0 > MAX_OPTIMAL_EPS0:
        return invalid("optimal", f"eps0 = {eps0} > {MAX_OPTIMAL_EPS0}: beyond the evaluated range (the blanket "
                                  "holds e^-eps0 of the mass: little amplification is left)")
    if randomizer is not None:
        label, rows = randomizer_rows(randomizer, eps0)
        variables = rows_variables(rows)
    elif k is not None:
        if k > MAX_OPTIMAL_K:
            return invalid("optimal", f"k = {k} > {MAX_OPTIMAL_K}: beyond the evaluated range")
        label, variables = f"{k}-ary randomized response", [krr_variable(eps0, k)]
    else:
        label, variables = "any eps0-LDP randomizer (the clone decomposition's worst case)", [clone_variable(eps0)]
    if sampling is not None and sampling != 1:
        rate = Fraction(int(sampling.p), int(sampling.q))
        variables = [v.sampled(rate) for v in variables]
        label, lower, clone = f"{label}, users sampled at rate {sampling}", None, None  # those rows: every user reports
    if len(variables) > MAX_PAIR_CLASSES:
        return invalid("optimal", f"{label}: {len(variables)} kinds of input pairs > {MAX_PAIR_CLASSES}: beyond the "
                                  "evaluated range")
    target = float_lower(delta)  # a bound <= this float is <= delta
    points = [_certified_eps(v, n, target) for v in variables]

    def holds(eps: float) -> bool:  # each kind was certified at its own point: confirm the others at eps
        return all(point == eps or blanket_delta_upper(v, Fraction(eps), n, target) <= target
                   for v, point in zip(variables, points))

    # the largest point, else the point beyond which every G <= 0 (the mean is 0 there)
    found = next((eps for eps in (max(points), max(v.eps_max for v in variables)) if holds(eps)), None)
    if found is None:
        return invalid("optimal", f"{label}: no eps certified for every kind of input pair")
    upper = sympy.Rational(found)
    note = (f"{label}: the blanket decomposition's mean, certified (bisection to 1e-4 relative; the largest over "
            f"{len(variables)} kind(s) of input pairs)")
    if clone is not None and clone.certified_upper is not None and clone.certified_upper < upper:
        upper = clone.certified_upper
        note = f"{label}: the same mean by FMT's clone sums (fmt21-numeric), smaller than its grid evaluation here"
    low = lower.lower if lower is not None and lower.lower is not None else None
    if low is None:
        return interval_result("optimal", upper, upper, f"{note}; an upper bound (no lower bound within reach of the "
                                                        "exact row)")
    what = ("the exact eps of binary randomized response, one eps0-LDP randomizer" if k is None and randomizer is None
            else "the exact row's")
    return interval_result("optimal", sympy.Rational(min(low, float_lower(upper))), upper,
                           f"{note}; the lower end is {what} (a certified lower bound on the true eps)",
                           bounds="exact")
