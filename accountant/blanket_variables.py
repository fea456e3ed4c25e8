"""The blanket variable G of a local randomizer, for the ``optimal`` shuffle row: from a finite mechanism's pmf,
from the closed-form laws of the named randomizers, or composed in the shuffle model.

Balle, Bell, Gascon and Nissim (CRYPTO 2019) write every output law as mu_z = gamma omega + (1 - gamma) nu_z with
the blanket rho(y) = min_z mu_z(y) and gamma = sum_y rho(y). For an ordered pair of inputs (x, x'),

    G = (mu_x(y) - e^eps mu_x'(y)) / rho(y) with probability rho(y) (y with rho(y) > 0), 0 with probability 1 - gamma,

and delta(eps) <= (1/n) E[(G_1 + ... + G_n)_+] (:mod:`dpcert.accountant.shuffle_optimal`). Outputs with the same
(mu_x(y), mu_x'(y), rho(y)) are one *kind*; a :class:`BlanketVariable` holds each kind's exact rational enclosures.
The bound holds for any rho with mu_z >= rho for every input z (a smaller blanket only loosens it).

**Named randomizers** (``randomizer=NAME:param=value,...`` without ``eps``: the randomizer is eps0-LDP by its
construction at the row's eps0; E = e^eps0, T = e^eps):

- ``k-rr:k=K``: k-ary randomized response (:func:`krr_variable`).
- ``oue:k=K`` and ``rappor:D=D``: unary encoding, one bit per value; optimised (the value's bit 1 with probability
  1/2, the others with 1/(E + 1); Wang et al., USENIX Security 2017) or symmetric, basic one-time RAPPOR without
  Bloom hashing (each bit kept with probability s/(s + 1), s = e^(eps0/2); Erlingsson, Pihur, Korolova, CCS 2014)
  (:func:`unary_variable`).
- ``blh:D=D``: binary local hashing: h drawn uniformly from all functions {0..D-1} -> {0, 1}, reported with h(x)
  under binary randomized response (Bassily and Smith, STOC 2015) (:func:`blh_variable`).
- ``hadamard:k=K``: Hadamard response, from the catalogue's pmf (``hadamard-response``).
- ``laplace``: a bit x in {0, 1} released as x + Laplace(1/eps0) (:func:`laplace_variable`: the continuous G
  enclosed cell by cell and taken at each cell's top, so the bound stays an upper bound).

Any other NAME is a finite mechanism of the catalogue with its parameters, eps among them (:func:`randomizer_rows`).
Joined by ``&`` (joint composition: each user reports all of them on the same input, one tuple) or ``|`` (parallel
composition: each user runs one, chosen uniformly, and the report says which): for catalogue mechanisms from the
pmf of the composition (the exact blanket); with a named randomizer among them, from the variables
(:func:`joint_variable`, the product of the blankets: valid, and no larger than the product's own;
:func:`mixture_variable`, exact), each component with one kind of input pair. The whole randomizer is eps0-LDP
either way: in a joint composition with a named randomizer each of the m parts runs at (named) or is checked
against (catalogue) eps0/m; in a parallel one each part at eps0.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from dpcert.accountant.iid_sums import ValueAtom
from dpcert.accountant.mp_enclosures import interval_fractions
from dpcert.accountant.spec_syntax import parse_spec, top_level_split
from dpcert.accountant.shuffle_intervals import enclose, iv_evaluate, iv_exact, up
from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.catalog import make_mechanism
from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.mechanisms.parameters import InvalidParameterError, decided_sign, require_int

__all__ = [
    "LAPLACE_CELLS",
    "MAX_KINDS",
    "MAX_OPTIMAL_K",
    "MAX_RANDOMIZER_INPUTS",
    "MAX_RANDOMIZER_OUTPUTS",
    "NAMED_RANDOMIZERS",
    "BlanketVariable",
    "NamedRandomizer",
    "Randomizer",
    "blh_fixed_others",
    "blh_variable",
    "clone_variable",
    "fixed_others_variables",
    "joint_variable",
    "krr_fixed_others",
    "krr_variable",
    "laplace_fixed_others",
    "laplace_variable",
    "mixture_variable",
    "randomizer_rows",
    "randomizer_variables",
    "rows_variables",
    "unary_fixed_others",
    "unary_variable",
]

MAX_OPTIMAL_K = 1000
"""Largest k of k-ary randomized response evaluated (a large k leaves a tiny blanket share on each symbol)."""

MAX_UNARY_K = 10**6
"""Largest k of unary encoding (``oue``, ``rappor``): its variable has five kinds whatever k."""

MAX_BLH_DOMAIN = 1000
"""Largest domain of binary local hashing (its variable has five kinds whatever D)."""

MIN_LAPLACE_EPS0 = sympy.Rational(1, 10**6)
"""Smallest eps0 of ``laplace`` (below, its cells' masses are not resolved)."""

MAX_RANDOMIZER_INPUTS, MAX_RANDOMIZER_OUTPUTS = 64, 4096
"""The largest finite randomizer taken from its pmf (its pairs of inputs are grouped into kinds first)."""

MAX_KINDS = 20000
"""The most kinds of output a composed variable may have."""

LAPLACE_CELLS = 512
"""Cells per half of the Laplace randomizer's blanket (geometric in the likelihood ratio)."""


@dataclass(frozen=True)
class BlanketVariable:
    """G for one ordered pair (x, x'): per kind of output y with rho(y) > 0, enclosures of mu_x(y), mu_x'(y) and
    rho(y) and how many outputs share them; G = (mu_x(y) - e^eps mu_x'(y)) / rho(y) with probability rho(y) each,
    and 0 with probability 1 - gamma (``rest``).

    ``leaks``: the kinds of output outside the blanket (rho(y) = 0: impossible under some input, so the randomizer is
    not pure LDP), as (mu_x(y), mu_x'(y), count). Such an output can only be the changed user's own report (the
    others' blanket draws never produce it, and their other reports are revealed anyway), so the shuffled pair's
    delta splits exactly into the leak sum_y (mu_x(y) - e^eps mu_x'(y))_+ over those outputs, unamplified, plus the
    blanket mean over the rest, whose derivation never uses that mu_x sums to 1 there (:meth:`leak`)."""

    p: tuple[tuple[Fraction, Fraction], ...]
    q: tuple[tuple[Fraction, Fraction], ...]
    rho: tuple[tuple[Fraction, Fraction], ...]
    count: tuple[int, ...]
    rest: tuple[Fraction, Fraction]
    leaks: tuple[tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction], int], ...] = ()

    def leak(self, eps: Fraction, side: str) -> Fraction:
        """The leak sum_y (mu_x(y) - e^eps mu_x'(y))_+ over the outputs outside the blanket at eps, bounded on
        ``side`` ("upper" or "lower"), exactly in Fractions."""
        if not self.leaks:
            return Fraction(0)
        t_lo, t_hi = (Fraction(x) for x in enclose(sympy.exp(sympy.Rational(eps.numerator, eps.denominator))))
        if side == "upper":
            return sum((c * max(p_hi - t_lo * q_lo, Fraction(0)) for (_, p_hi), (q_lo, _), c in self.leaks),
                       Fraction(0))
        return sum((c * max(p_lo - t_hi * q_hi, Fraction(0)) for (p_lo, _), (_, q_hi), c in self.leaks), Fraction(0))

    def leak_float(self, eps: float) -> float:
        """:meth:`leak` in floats (a guide only)."""
        return sum(c * max(float(p[1]) - math.exp(eps) * float(q[1]), 0.0) for p, q, c in self.leaks)

    @property
    def leak_floor(self) -> Fraction:
        """A lower bound on the leak at every eps: the mass of the outputs impossible under x' (mu_x'(y) = 0)."""
        return sum((c * p[0] for p, q, c in self.leaks if q[1] == 0), Fraction(0))

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
        # the ratios to rho in Fractions: a mass may lie below the floats (unary encoding's all-ones output)
        p_over_r = np.array([float(p[1] / r[1]) for p, r in zip(self.p, self.rho)])
        q_over_r = np.array([float(q[1] / r[1]) for q, r in zip(self.q, self.rho)])
        masses = np.array([float(r[1] * c) for r, c in zip(self.rho, self.count)])
        return np.append(p_over_r - math.exp(eps) * q_over_r, 0.0), np.append(masses, float(self.rest[1]))

    def sampled(self, rate: Fraction) -> BlanketVariable:
        """The variable when each user reports only with probability ``rate`` (Poisson sampling of users before the
        shuffler; a user left out sends the void report, equally likely under every input): every output's
        probabilities and rho scale by the rate, and the void output joins with mu = rho = 1 - rate, G = 1 - e^eps."""
        def scaled(part: tuple[tuple[Fraction, Fraction], ...]) -> tuple[tuple[Fraction, Fraction], ...]:
            return tuple((rate * lo, rate * hi) for lo, hi in part) + ((1 - rate, 1 - rate),)

        return BlanketVariable(scaled(self.p), scaled(self.q), scaled(self.rho), self.count + (1,),
                               (rate * self.rest[0], rate * self.rest[1]),
                               tuple(((rate * p[0], rate * p[1]), (rate * q[0], rate * q[1]), c)
                                     for p, q, c in self.leaks))

    @property
    def eps_max(self) -> float:
        """A float above max_y ln(mu_x(y) / mu_x'(y)) over the outputs with mu_x'(y) > 0: at eps beyond it every
        G <= 0 (for rho(y) > 0: q > 0) and the leak is its floor."""
        # log1p of the exact excess over 1, so a ratio within 10^-12 of 1 keeps its digits
        pairs = list(zip(self.p, self.q)) + [(p, q) for p, q, _ in self.leaks if q[0] > 0]
        return max(up(math.log1p(float(p[1] / q[0] - 1)) * (1 + 1e-12) + 1e-300) for p, q in pairs)


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
    """The blanket variables of a finite randomizer (rows: inputs, exact output probabilities; an output impossible
    under some input is a leak), one per kind of ordered pair (x, x') whose outputs are alike up to order (a
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
            leaks: dict[tuple[int, int], int] = {}
            for a, b, r in zip(first, second, rho):
                if values[r] != 0:
                    kinds[(a, b, r)] = kinds.get((a, b, r), 0) + 1
                elif values[a] != 0:
                    leaks[(a, b)] = leaks.get((a, b), 0) + 1
            key = (tuple(sorted(kinds.items())), tuple(sorted(leaks.items())))
            if key not in classes:
                classes[key] = BlanketVariable(tuple(enclosures[a] for a, _, _ in kinds),
                                               tuple(enclosures[b] for _, b, _ in kinds),
                                               tuple(enclosures[r] for _, _, r in kinds), tuple(kinds.values()), rest,
                                               tuple((enclosures[a], enclosures[b], c) for (a, b), c in leaks.items()))
    return list(classes.values())


def krr_fixed_others(eps0: sympy.Expr, k: int) -> list[BlanketVariable]:
    """The variables H of :func:`fixed_others_variables` for k-RR: x = 0, x' = 1, the others all holding 1 and
    (k >= 3) all holding 2."""
    e = sympy.exp(eps0)
    z = k - 1 + e
    high, low = e / z, 1 / z
    variants = [[(high, low, low, 1), (low, high, high, 1)] + ([(low, low, low, k - 2)] if k > 2 else [])]
    if k > 2:
        variants.append([(high, low, low, 1), (low, high, low, 1), (low, low, high, 1)]
                        + ([(low, low, low, k - 3)] if k > 3 else []))
    return [_fixed_variable(kinds) for kinds in variants]


def fixed_others_variables(rows: Sequence[Sequence[sympy.Expr]]) -> list[BlanketVariable]:
    """Variables whose blanket mean is an exact delta, for a lower bound: the ordered pair (x, x') with the largest
    probability ratio, the other n - 1 users all holding z (z = x', and the first input outside {x, x'} if any).

    With Y ~ mu_z and H = (mu_x(Y) - e^eps mu_x'(Y)) / mu_z(Y), (1/n) E[(H_1 + ... + H_n)_+] is the exact delta of
    the shuffled reports of that pair of datasets: the count vector c has P_x(c) = Mult_n(c; mu_z) (1/n) sum_y c_y
    mu_x(y) / mu_z(y). So H is a :class:`BlanketVariable` with rho = mu_z and nothing left over, and its mean
    bounded from below (:func:`~dpcert.accountant.shuffle_optimal.blanket_delta_lower`) bounds the true delta from
    below."""
    floats = np.array([[float(v) for v in row] for row in rows])
    with np.errstate(divide="ignore", invalid="ignore"):  # outputs impossible under every input: ratio 0
        largest = np.array([np.max(np.where(floats > 0, row / floats, 0.0), axis=1) for row in floats])
    np.fill_diagonal(largest, -1.0)
    x, other = (int(i) for i in np.unravel_index(np.argmax(largest), largest.shape))
    thirds = [i for i in range(len(rows)) if i not in (x, other)][:1]
    variables = []
    for z in [other, *thirds]:
        kinds: dict[tuple[sympy.Expr, sympy.Expr, sympy.Expr], int] = {}
        leaks: dict[tuple[sympy.Expr, sympy.Expr], int] = {}
        for key in zip(rows[x], rows[other], rows[z]):
            if key[2] != 0:
                kinds[key] = kinds.get(key, 0) + 1
            elif key[0] != 0:  # impossible for the others: the changed user's report, exact as a leak
                leaks[key[:2]] = leaks.get(key[:2], 0) + 1
        variables.append(_fixed_variable([(*key, count) for key, count in kinds.items()],
                                         [(*key, count) for key, count in leaks.items()]))
    return variables


def unary_fixed_others(eps0: sympy.Expr, k: int, *, symmetric: bool) -> list[BlanketVariable]:
    """The variables H of :func:`fixed_others_variables` for unary encoding (see :func:`unary_variable` for a, b and
    r): mu_x / mu_z = r(y_x) / r(y_z), the other bits cancel. Others holding x': Y ~ mu_x', y_x ~ Bern(b),
    y_x' ~ Bern(a); others holding a third value z (k >= 3): y_x, y_x' ~ Bern(b), y_z ~ Bern(a)."""
    a, b = _unary_bits(eps0, symmetric=symmetric)
    r = {1: a / b, 0: (1 - a) / (1 - b)}

    def bit(p: sympy.Expr, y: int) -> sympy.Expr:
        return p if y else 1 - p

    holding = [(bit(b, u) * bit(a, v) * r[u] / r[v], bit(b, u) * bit(a, v), bit(b, u) * bit(a, v), 1)
               for u, v in itertools.product((0, 1), repeat=2)]
    variants = [holding]
    if k > 2:
        variants.append([(w * r[u] / r[t], w * r[v] / r[t], w, 1) for u, v, t in itertools.product((0, 1), repeat=3)
                         for w in [bit(b, u) * bit(b, v) * bit(a, t)]])
    return [_fixed_variable(kinds) for kinds in variants]


def blh_fixed_others(eps0: sympy.Expr, domain: int) -> list[BlanketVariable]:
    """The variables H of :func:`fixed_others_variables` for binary local hashing over all 2^D functions: for
    distinct inputs the hashed bits are independent and uniform, and the report (h, c) keeps c = h(z) with
    probability E / (E + 1), so mu_x / mu_z = w(c = h(x)) / w(c = h(z)) with w(true) = E, w(false) = 1. Others
    holding x' (z = x'), and holding a third value (D >= 3)."""
    e = sympy.exp(eps0)

    def kept(c: int, h: int) -> sympy.Expr:
        return e / (e + 1) if c == h else 1 / (e + 1)

    def w(c: int, h: int) -> sympy.Expr:
        return e if c == h else sympy.Integer(1)

    holding = [(m * w(c, hx) / w(c, hz), m, m, 1) for hx, hz, c in itertools.product((0, 1), repeat=3)
               for m in [kept(c, hz) / 4]]
    variants = [holding]
    if domain > 2:
        variants.append([(m * w(c, hx) / w(c, hz), m * w(c, hy) / w(c, hz), m, 1)
                         for hx, hy, hz, c in itertools.product((0, 1), repeat=4) for m in [kept(c, hz) / 8]])
    return [_fixed_variable(kinds) for kinds in variants]


def _unary_bits(eps0: sympy.Expr, *, symmetric: bool) -> tuple[sympy.Expr, sympy.Expr]:
    """(a, b): unary encoding's probability that the value's own bit is 1, and that another bit is."""
    if symmetric:
        s = sympy.exp(eps0 / 2)
        return s / (s + 1), 1 / (s + 1)
    return sympy.Rational(1, 2), 1 / (sympy.exp(eps0) + 1)


def _fixed_variable(kinds: Sequence[tuple[sympy.Expr, sympy.Expr, sympy.Expr, int]],
                    leaks: Sequence[tuple[sympy.Expr, sympy.Expr, int]] = ()) -> BlanketVariable:
    return BlanketVariable(tuple(_enclosed(kd[0]) for kd in kinds), tuple(_enclosed(kd[1]) for kd in kinds),
                           tuple(_enclosed(kd[2]) for kd in kinds), tuple(kd[3] for kd in kinds),
                           (Fraction(0), Fraction(0)), tuple((_enclosed(a), _enclosed(b), c) for a, b, c in leaks))


def unary_variable(eps0: sympy.Expr, k: int, *, symmetric: bool) -> BlanketVariable:
    """Unary encoding over k values (output: k bits, the value's bit 1 with probability a, every other bit 1 with
    probability b): OUE (a = 1/2, b = 1/(E + 1)) or, ``symmetric``, SUE / basic RAPPOR (a = s/(s + 1),
    b = 1/(s + 1), s = e^(eps0/2)).

    mu_z(y) = base(y) r(y_z), base(y) = prod_j P(y_j | not the value), r(1) = a/b > 1 > r(0) = (1 - a)/(1 - b);
    so rho(y) = base(y) r(0), except r(1) for the all-ones y. For a pair (x, x') the kinds are the bits (y_x, y_x')
    and, for (1, 1), whether the other k - 2 bits are all ones; every pair is alike."""
    a, b = _unary_bits(eps0, symmetric=symmetric)
    r1, r0 = a / b, (1 - a) / (1 - b)
    b0 = 1 - b
    # (base mass, r(y_x), r(y_x'), the blanket's r) per kind
    kinds = [(b ** k, r1, r1, r1), (b * b0, r1, r0, r0), (b0 * b, r0, r1, r0), (b0 * b0, r0, r0, r0)]
    if k > 2:
        kinds.append((b ** 2 * (1 - b ** (k - 2)), r1, r1, r0))
    return _kinds_variable([(w * rx, w * ry, w * rr) for w, rx, ry, rr in kinds])


def blh_variable(eps0: sympy.Expr, domain: int) -> BlanketVariable:
    """Binary local hashing over D = ``domain`` values: h uniform over all 2^D functions to {0, 1}, output (h, b)
    with b = h(x) with probability E/(E + 1). rho(h, b) = 1/(2^D (E + 1)) unless h is constant (then mu_z(h, b) is
    the same for every z). For a pair: the 2 constant h (G = 1 - T), the 2^(D-1) - 2 other h with h(x) = h(x')
    (b = h(x): G = E (1 - T); else 1 - T) and the 2^(D-1) with h(x) != h(x') (G = E - T or 1 - T E)."""
    e = sympy.exp(eps0)
    size = sympy.Integer(2) ** domain
    unit = 1 / (size * (e + 1))  # mu of a non-kept bit under one h
    equal, unequal = sympy.Integer(2) ** (domain - 1) - 2, sympy.Integer(2) ** (domain - 1)
    kinds = [(2 / size, 2 / size, 2 / size), (unequal * e * unit, unequal * unit, unequal * unit),
             (unequal * unit, unequal * e * unit, unequal * unit)]
    if equal > 0:
        kinds += [(equal * e * unit, equal * e * unit, equal * unit), (equal * unit, equal * unit, equal * unit)]
    return _kinds_variable(kinds)


def laplace_variable(eps0: sympy.Expr, *, cells: int = LAPLACE_CELLS) -> BlanketVariable:
    """A bit x in {0, 1} released as x + Laplace(1/eps0): mu_x(y) = (eps0/2) e^(-eps0 |y - x|), rho = min(mu_0,
    mu_1), gamma = e^(-eps0/2). For the pair (0, 1) (the pair (1, 0) is its mirror y -> 1 - y): G = E - T on
    y <= 0 and 1 - T E on y >= 1 (mass e^-eps0 / 2 each); on [0, 1/2] mu_0/rho = u = e^(eps0 (1 - 2y)) in [1, E],
    mu_1 = rho, and the rho-mass where u lies in [u_a, u_b] is e^(-eps0/2) (u_a^-1/2 - u_b^-1/2) / 2; [1/2, 1]
    mirrors it. Each half is cut into ``cells`` cells geometric in u, and on a cell G is taken anywhere in its
    range [u_a - T, u_b - T] (the evaluation takes the top: rounded up)."""
    context = interval_context(96)
    e0 = iv_exact(context, eps0)
    e = context.exp(e0)
    e_lo, e_hi = interval_fractions(e)
    half = interval_fractions(context.exp(-e0) / 2)
    edges = sorted({Fraction(float(v)) for v in np.geomspace(1.0, float(e_lo), cells + 1)[1:-1]
                    if 1 < Fraction(float(v)) < e_lo})
    # cell ends in u: exact rationals, and E itself (as an interval) at the top
    ends = [(context.mpf(1), Fraction(1))] + [(context.mpf(u.numerator) / u.denominator, u) for u in edges] + [(e, e_hi)]
    scale = context.exp(-e0 / 2) / 2
    kinds = [((Fraction(1, 2), Fraction(1, 2)), half, half), (half, (Fraction(1, 2), Fraction(1, 2)), half)]
    for (a, a_lo), (b, b_hi) in zip(ends, ends[1:]):
        w_lo, w_hi = interval_fractions(scale * (1 / context.sqrt(a) - 1 / context.sqrt(b)))
        if w_lo <= 0:
            raise InvalidParameterError(f"randomizer laplace: eps0 = {eps0} is too small for its cells")
        ratio = ((a_lo * w_lo, b_hi * w_hi), (w_lo, w_hi), (w_lo, w_hi))
        kinds += [ratio, (ratio[1], ratio[0], ratio[2])]
    return BlanketVariable(tuple(kd[0] for kd in kinds), tuple(kd[1] for kd in kinds), tuple(kd[2] for kd in kinds),
                           tuple(1 for _ in kinds), interval_fractions(1 - context.exp(-e0 / 2)))


def laplace_fixed_others(eps0: sympy.Expr, *, cells: int = LAPLACE_CELLS) -> list[BlanketVariable]:
    """The variable H of :func:`fixed_others_variables` for the Laplace randomizer of :func:`laplace_variable`:
    x = 0, x' = 1, the others all holding 1, so Y ~ mu_1 and H = mu_0(Y) / mu_1(Y) - e^eps, the ratio being E on
    y <= 0, 1/E on y >= 1 and e^(eps0 (1 - 2y)) between. [0, 1] is cut into ``cells`` equal cells and H replaced on
    each by its conditional mean (int_c mu_0 - e^eps int_c mu_1) / int_c mu_1, where int_c mu_0 = (e^(-eps0 a) -
    e^(-eps0 b)) / 2 and int_c mu_1 = (e^(-eps0 (1 - b)) - e^(-eps0 (1 - a))) / 2 on [a, b]: a contraction in the
    convex order, so E[(H_1 + ... + H_n)_+] only falls (Shaked and Shanthikumar, "Stochastic Orders", 2007,
    Theorem 3.A.12) and its lower bound stays one for the true delta."""
    context = interval_context(96)
    e0 = iv_exact(context, eps0)
    half = (Fraction(1, 2), Fraction(1, 2))
    small = interval_fractions(context.exp(-e0) / 2)
    kinds = [(half, small, small), (small, half, half)]  # y <= 0, y >= 1
    for j in range(cells):
        a, b = context.mpf(j) / cells, context.mpf(j + 1) / cells
        p = interval_fractions((context.exp(-e0 * a) - context.exp(-e0 * b)) / 2)
        q = interval_fractions((context.exp(-e0 * (1 - b)) - context.exp(-e0 * (1 - a))) / 2)
        if q[0] <= 0:
            raise InvalidParameterError(f"randomizer laplace: eps0 = {eps0} is too small for its cells")
        kinds.append((p, q, q))
    return [BlanketVariable(tuple(kd[0] for kd in kinds), tuple(kd[1] for kd in kinds), tuple(kd[2] for kd in kinds),
                            tuple(1 for _ in kinds), (Fraction(0), Fraction(0)))]


def _kinds_variable(kinds: Sequence[tuple[sympy.Expr, sympy.Expr, sympy.Expr]]) -> BlanketVariable:
    """A variable from its kinds' exact (mu_x, mu_x', rho) masses (each kind's total), gamma their rho's sum; the
    enclosures from interval arithmetic (a mass such as b^k at k = 10^6 is far below the floats)."""
    def enclosed(value: sympy.Expr) -> tuple[Fraction, Fraction]:
        lo, hi = iv_evaluate(value)
        return Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))

    gamma = sympy.Add(*(kd[2] for kd in kinds))
    return BlanketVariable(tuple(enclosed(kd[0]) for kd in kinds), tuple(enclosed(kd[1]) for kd in kinds),
                           tuple(enclosed(kd[2]) for kd in kinds), tuple(1 for _ in kinds), enclosed(1 - gamma))


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
        rows = mechanism.pmf_rows()
    except InvalidParameterError as error:
        raise InvalidParameterError(f"randomizer must be a finite mechanism of `dpcert mechanisms` as "
                                    f"NAME:param=value,...: {error}") from error
    if count != 1:
        raise InvalidParameterError(f"randomizer takes no repeat count. Got {spec!r}")
    return f"{name}({', '.join(f'{k}={v}' for k, v in raw.items())})", rows


def _split_parts(spec: str) -> tuple[list[str], bool]:
    """The parts of a SPEC joined by ``&`` or by ``|`` (not both), and whether they are joined by ``&``."""
    joint, parallel = top_level_split(spec, separator="&"), top_level_split(spec, separator="|")
    if len(joint) > 1 and len(parallel) > 1:
        raise InvalidParameterError(f"randomizer joins mechanisms with & (joint) or | (parallel), not both. Got {spec!r}")
    return [part.strip() for part in (joint if len(joint) > 1 else parallel)], len(joint) > 1


def _composed_rows(spec: str) -> tuple[str, list[list[sympy.Expr]]]:
    """One mechanism, or several joined by ``&`` (joint composition: each user reports all of them on the same
    input, the tuple is one report: the product of the laws) or by ``|`` (parallel composition: each user runs one
    of them, chosen uniformly, and the report says which: the mixture of the laws on disjoint outputs)."""
    specs, joint = _split_parts(spec)
    parts = [_single_rows(part) for part in specs]
    if len(parts) == 1:
        return parts[0]
    if len({len(rows) for _, rows in parts}) != 1:
        raise InvalidParameterError(f"randomizer: the composed mechanisms must take the same inputs. Got {spec!r}")
    labels = [label for label, _ in parts]
    if joint:
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
    joined by ``&`` or ``|``, see :func:`_composed_rows`), checked to be eps0-LDP on the outputs possible under every
    input, else bad input. Outputs impossible under some input are allowed (an (eps0, delta0)-LDP randomizer): they
    are the blanket variable's leaks."""
    label, rows = _composed_rows(spec)
    full = [y for y, column in enumerate(zip(*rows)) if all(v != 0 for v in column)]
    if not full:
        raise InvalidParameterError(f"randomizer {spec!r}: every output is impossible under some input (no blanket: "
                                    "nothing to amplify)")
    ids: dict[sympy.Expr, int] = {}
    table = np.array([[ids.setdefault(row[y], len(ids)) for y in full] for row in rows])
    values = list(ids)
    floats = np.array([float(v) for v in values])[table]
    ratios = floats[:, None, :] / floats[None, :, :]
    near = np.argwhere(ratios >= np.max(ratios) * (1 - 1e-9))  # the largest ratio, decided exactly among near ties
    for a, b in {(table[i, y], table[j, y]) for i, j, y in near}:
        if decided_sign("randomizer", values[a] - sympy.exp(eps0) * values[b]) > 0:
            raise InvalidParameterError(f"randomizer {spec!r} is not eps0-LDP at eps0 = {eps0} (a probability ratio "
                                        f"{sympy.N(values[a] / values[b], 6)} exceeds e^eps0): give eps0 >= its eps")
    return label, tuple(tuple(row) for row in rows)


def joint_variable(first: BlanketVariable, second: BlanketVariable) -> BlanketVariable:
    """Joint composition (one report holds both outputs, drawn independently on the same input): every pair of
    kinds is a kind, with rho_1 rho_2 as the blanket (mu_z(y_1, y_2) = mu1_z(y_1) mu2_z(y_2) >= rho_1 rho_2); a pair
    with a leak in it is a leak."""
    sizes = [len(v.p) + len(v.leaks) for v in (first, second)]
    if sizes[0] * sizes[1] > MAX_KINDS:
        raise InvalidParameterError(f"randomizer: the joint composition has {sizes[0] * sizes[1]} kinds of output > "
                                    f"{MAX_KINDS}")

    def product(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
        return a[0] * b[0], a[1] * b[1]

    pairs = list(itertools.product(range(len(first.p)), range(len(second.p))))
    gamma = ((1 - first.rest[1]) * (1 - second.rest[1]), (1 - first.rest[0]) * (1 - second.rest[0]))
    outputs = [[(p, q, c, False) for p, q, c in zip(v.p, v.q, v.count)] + [(*leak, True) for leak in v.leaks]
               for v in (first, second)]
    leaks = tuple((product(p1, p2), product(q1, q2), c1 * c2) for p1, q1, c1, leak1 in outputs[0]
                  for p2, q2, c2, leak2 in outputs[1] if leak1 or leak2)
    return BlanketVariable(tuple(product(first.p[i], second.p[j]) for i, j in pairs),
                           tuple(product(first.q[i], second.q[j]) for i, j in pairs),
                           tuple(product(first.rho[i], second.rho[j]) for i, j in pairs),
                           tuple(first.count[i] * second.count[j] for i, j in pairs), (1 - gamma[1], 1 - gamma[0]),
                           leaks)


def mixture_variable(parts: Sequence[BlanketVariable]) -> BlanketVariable:
    """Parallel composition (each user runs one of the m parts, chosen uniformly, and the report says which): the
    parts' kinds side by side, each mass times 1/m; the blanket is exact (min_z mu_z / m on each part's outputs)."""
    share = Fraction(1, len(parts))

    def scaled(field: str) -> tuple[tuple[Fraction, Fraction], ...]:
        return tuple((share * lo, share * hi) for part in parts for lo, hi in getattr(part, field))

    return BlanketVariable(scaled("p"), scaled("q"), scaled("rho"), tuple(c for part in parts for c in part.count),
                           (share * sum(part.rest[0] for part in parts), share * sum(part.rest[1] for part in parts)),
                           tuple(((share * p[0], share * p[1]), (share * q[0], share * q[1]), c)
                                 for part in parts for p, q, c in part.leaks))


def _hadamard_rows(eps0: sympy.Expr, k: int) -> tuple[tuple[sympy.Expr, ...], ...]:
    return randomizer_rows(f"hadamard-response:k={k},eps=({eps0})", eps0)[1]


def _laplace(eps0: sympy.Expr, _: int) -> tuple[str, int, list[BlanketVariable]]:
    if decided_sign("eps0", eps0 - MIN_LAPLACE_EPS0) < 0:
        raise InvalidParameterError(f"randomizer laplace needs eps0 >= 10^-6. Got eps0 = {eps0}")
    return "Laplace noise of scale 1/eps0 on a bit", 2, [laplace_variable(eps0)]


@dataclass(frozen=True)
class NamedRandomizer:
    """A randomizer taken by name (eps0-LDP at the row's eps0): its one integer parameter (None: none) with the
    largest value taken, ``build(eps0, value)`` -> (label, number of inputs, blanket variables), and
    ``fixed(eps0, value)`` -> the variables of :func:`fixed_others_variables`. ``aligned``: they are the pair of
    inputs (0, 1) with the others all holding 1, then (with three inputs or more) all holding 2, so compositions of
    aligned randomizers combine them, variant by variant, into pairs of datasets of the composed report."""

    parameter: str | None
    maximum: int
    build: Callable[[sympy.Expr, int], tuple[str, int, list[BlanketVariable]]]
    fixed: Callable[[sympy.Expr, int], list[BlanketVariable]]
    aligned: bool = True


NAMED_RANDOMIZERS: dict[str, NamedRandomizer] = {
    "k-rr": NamedRandomizer("k", MAX_OPTIMAL_K, lambda e, k: (f"{k}-ary randomized response", k, [krr_variable(e, k)]),
                            krr_fixed_others),
    "oue": NamedRandomizer("k", MAX_UNARY_K, lambda e, k: (f"optimised unary encoding (k = {k})", k,
                                                           [unary_variable(e, k, symmetric=False)]),
                           lambda e, k: unary_fixed_others(e, k, symmetric=False)),
    "rappor": NamedRandomizer("D", MAX_UNARY_K, lambda e, k: (f"RAPPOR (symmetric unary encoding, D = {k})", k,
                                                              [unary_variable(e, k, symmetric=True)]),
                              lambda e, k: unary_fixed_others(e, k, symmetric=True)),
    "blh": NamedRandomizer("D", MAX_BLH_DOMAIN, lambda e, d: (f"binary local hashing (D = {d})", d,
                                                              [blh_variable(e, d)]), blh_fixed_others),
    "hadamard": NamedRandomizer("k", MAX_RANDOMIZER_INPUTS,
                                lambda e, k: (f"Hadamard response (k = {k})", k, rows_variables(_hadamard_rows(e, k))),
                                lambda e, k: fixed_others_variables(_hadamard_rows(e, k)), aligned=False),
    "laplace": NamedRandomizer(None, 0, _laplace, lambda e, _: laplace_fixed_others(e)),
}
"""name -> :class:`NamedRandomizer`: the randomizers taken by name (see the module)."""


@dataclass(frozen=True)
class Randomizer:
    """What the ``optimal`` row needs of a randomizer SPEC: its label, one blanket variable per kind of input pair,
    and the variables of fixed pairs of datasets for the lower end (:func:`fixed_others_variables`; empty for a
    composition of a named randomizer with a part that is not aligned: see :class:`NamedRandomizer`)."""

    label: str
    variables: tuple[BlanketVariable, ...]
    fixed: tuple[BlanketVariable, ...]


def _named(spec: str) -> tuple[NamedRandomizer, int] | None:
    """The named randomizer a part of a SPEC is, with its validated parameter; None for a catalogue mechanism."""
    name, raw, count = parse_spec(spec)
    if name not in NAMED_RANDOMIZERS or "eps" in raw:
        return None
    entry = NAMED_RANDOMIZERS[name]
    expected = () if entry.parameter is None else (entry.parameter,)
    if count != 1 or set(raw) != set(expected):
        takes = ", ".join(f"{p}=..." for p in expected) or "no parameters"
        raise InvalidParameterError(f"randomizer {name} takes {takes} (its eps is eps0) and no repeat count. "
                                    f"Got {spec!r}")
    if entry.parameter is None:
        return entry, 0
    try:
        return entry, require_int(entry.parameter, raw[entry.parameter], minimum=2, maximum=entry.maximum)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"randomizer {name}: {error}") from error


def _part(spec: str, eps0: sympy.Expr) -> tuple[str, int, list[BlanketVariable]]:
    """(label, number of inputs, variables) of one named randomizer or catalogue mechanism."""
    named = _named(spec)
    if named is None:
        label, rows = randomizer_rows(spec, eps0)
        return label, len(rows), rows_variables(rows)
    entry, value = named
    try:
        return entry.build(eps0, value)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"randomizer {parse_spec(spec)[0]}: {error}") from error


@functools.lru_cache(maxsize=16)
def randomizer_variables(spec: str, eps0: sympy.Expr) -> Randomizer:
    """The :class:`Randomizer` a SPEC names (see the module); bad input, a mechanism that is not eps0-LDP among
    them, is an :class:`InvalidParameterError` naming ``randomizer``."""
    try:
        return _randomizer(spec, eps0)
    except InvalidParameterError as error:
        if str(error).startswith("randomizer"):
            raise
        raise InvalidParameterError(f"randomizer {spec!r}: {error}") from error


def _randomizer(spec: str, eps0: sympy.Expr) -> Randomizer:
    parts, joint = _split_parts(spec)
    if all(_named(part) is None for part in parts):
        label, rows = randomizer_rows(spec, eps0)
        return Randomizer(label, tuple(rows_variables(rows)), tuple(fixed_others_variables(rows)))
    # a joint report of m parts is eps0-LDP when each is eps0/m-LDP (basic composition): named parts run at eps0/m
    share = eps0 / len(parts) if joint else eps0
    built = [_part(part, share) for part in parts]
    if len(built) == 1:  # one named randomizer
        (label, _, variables), (entry, value) = built[0], _named(parts[0])
        return Randomizer(label, tuple(variables), tuple(entry.fixed(eps0, value)))
    if len({inputs for _, inputs, _ in built}) != 1:
        raise InvalidParameterError(f"randomizer: the composed mechanisms must take the same inputs. Got {spec!r}")
    if any(len(variables) != 1 for _, _, variables in built):
        raise InvalidParameterError(f"randomizer: composing a named randomizer takes mechanisms whose input pairs are "
                                    f"all alike (one kind). Got {spec!r}")
    variables = [variables[0] for _, _, variables in built]
    label = (" & " if joint else " | ").join(label for label, _, _ in built)
    composed = functools.reduce(joint_variable, variables) if joint else mixture_variable(variables)
    named = [_named(part) for part in parts]
    if not all(entry is not None and entry[0].aligned for entry in named):
        return Randomizer(label, (composed,), ())  # no common pair of datasets at hand: no lower end
    # the pair (0, 1) with the others holding 1 (or 2) in every part is one pair of datasets of the composed report
    variants = zip(*[entry.fixed(share, value) for entry, value in named])
    try:
        fixed = tuple(functools.reduce(joint_variable, same) if joint else mixture_variable(same) for same in variants)
    except InvalidParameterError:  # too many kinds for the lower end: the upper bound alone
        fixed = ()
    return Randomizer(label, (composed,), fixed)
