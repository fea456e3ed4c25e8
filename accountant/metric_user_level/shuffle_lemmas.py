"""The clone lemmas behind the metric-DP shuffle theorem (Lemmas B.1 and B.3), closed form and exact checks.

Lemma B.3 (FMT 2021, Lemma A.1, with a general clone probability p): for C ~ Bin(m - 1, p),
A ~ Bin(C, 1/2), P = (A + 1, C - A) and Q = (A, C - A + 1),

    D_{e^eps}(P || Q) <= delta,   eps = ln(1 + 8 sqrt(ln(4/delta) / (p m)) + 8 / (p m)),   if p >= 16 ln(2/delta) / m.

Lemma B.1 (one changed item at distance d, alpha0 d_X-metric-DP randomizer A, d_X <= 1): the shuffled
outputs of (x_1^0, x_2, ..., x_m) and (x_1^1, x_2, ..., x_m) are (alpha, delta)-indistinguishable with

    alpha = ln(1 + tanh(alpha0 d / 2) (8 sqrt(e^alpha0 ln(4/delta) / m) + 8 e^alpha0 / m)),

if alpha0 <= ln(m / (16 ln(2/delta))). This is Theorem 4.3's formula at ||v||_0 = 1, ||v||_1 = d
(:func:`dpcert.accountant.shuffle_closed_forms.imola_alpha`), under the weaker condition of the single-item lemma.

Exact checks: :func:`clone_pair_divergence` sums D_{e^eps}(P || Q) exactly over every c (the pair splits
by c = sum of coordinates - 1, and within c the likelihood ratio a / (c - a + 1) is increasing);
:func:`shuffled_histogram_law` convolves the item laws of a finite randomizer exactly (shuffling releases
exactly the histogram of outputs), whose divergence :func:`dpcert.accountant.hockey_stick.hockey_stick_divergence`
gives. Both divergences are exact, P(S) - e^eps Q(S) with exact rationals P(S), Q(S).

References: 002_1def8c9789d6e1bd.txt, Lemmas B.1 and B.3 and Appendix B.4; Feldman, McMillan, Talwar,
"Hiding Among the Clones" (FOCS 2021), Lemma A.1; specs/imola_metric_dp_user_level.md, sections 3.2, 4,
5 (item 2) and 7 (T10, T13, T21).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.hockey_stick import exact_distribution, hockey_stick_divergence, rational_enclosure
from dpcert.accountant.input_validation import _nonnegative, _probability_open
from dpcert.accountant.shuffle_closed_forms import imola_alpha
from dpcert.accountant.symbolic_facts import SymbolicFact, nonnegative_everywhere
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive, to_exact
from dpcert.proofs.channel import ExactChannel
from dpcert.proofs.exact import max_log_ratio

__all__ = [
    "MAX_EXACT_CLONE_M",
    "MAX_HISTOGRAM_CELLS",
    "LemmaCheck",
    "clone_pair_divergence",
    "lemma_b1",
    "lemma_b1_alpha_expression",
    "lemma_b1_check",
    "lemma_b1_concavity",
    "lemma_b3",
    "lemma_b3_check",
    "lemma_b3_epsilon_expression",
    "metric_constant",
    "shuffled_histogram_counts",
    "shuffled_histogram_law",
]

SOURCE = "002_1def8c9789d6e1bd.txt"

MAX_EXACT_CLONE_M = 20000
"""Largest m for the exact clone-pair divergence (O(m) big-integer steps of O(m)-bit numbers)."""

MAX_HISTOGRAM_CELLS = 100_000
"""Largest count grid, (m + 1)^(k - 1) cells for k outputs, of the exact shuffled histogram law."""


# ---------------------------------------------------------------------------------------------
# Closed forms
# ---------------------------------------------------------------------------------------------

def lemma_b3_epsilon_expression(p: sympy.Expr, m: sympy.Expr, delta: sympy.Expr) -> sympy.Expr:
    """eps = ln(1 + 8 sqrt(ln(4/delta) / (p m)) + 8 / (p m)) (works on symbols)."""
    return sympy.log(1 + 8 * sympy.sqrt(sympy.log(4 / delta) / (p * m)) + 8 / (p * m))


def lemma_b1_alpha_expression(alpha0: sympy.Expr, d: sympy.Expr, m: sympy.Expr, delta: sympy.Expr) -> sympy.Expr:
    """alpha = ln(1 + tanh(alpha0 d/2) (8 sqrt(e^alpha0 ln(4/delta)/m) + 8 e^alpha0/m)) (works on symbols).

    Theorem 4.3's :func:`~dpcert.accountant.shuffle_closed_forms.imola_alpha` with ||v||_0 = 1, ||v||_1 = d.
    """
    return imola_alpha(alpha0, m, delta, sympy.Integer(1), d)


def lemma_b3(p: object, m: object, delta: object) -> BoundResult:
    """Lemma B.3: the clone pair (A + 1, C - A) vs (A, C - A + 1) is (eps, delta)-indistinguishable.

    eps = ln(1 + 8 sqrt(ln(4/delta)/(p m)) + 8/(p m)), valid when p >= 16 ln(2/delta)/m.

    Args:
        p: clone probability in (0, 1) (C ~ Bin(m - 1, p)).
        m: number of items (integer >= 2).
        delta: in (0, 1).

    References: 002_1def8c9789d6e1bd.txt, Lemma B.3 (restating Feldman, McMillan, Talwar, FOCS 2021,
    Lemma A.1). Why it holds: given C = c the privacy loss of the pair is ln((A + 1)/(c - A + 1)) type,
    and A concentrates within sqrt(c ln(4/delta)) of c/2 while C concentrates near p m (Chernoff).
    """
    p = _probability_open("p", p)
    m = require_int("m", m, minimum=2)
    delta = _probability_open("delta", delta)
    source = f"{SOURCE}, Lemma B.3 (FMT 2021, Lemma A.1)"
    limit = 16 * sympy.log(2 / delta) / m
    if exact_sign(p - limit) < 0:
        return BoundResult("lemma-b3", source, None, "eps", False,
                           f"needs p >= 16 ln(2/delta)/m = {float(limit):.6g}; got p = {p}")
    return BoundResult("lemma-b3", source, lemma_b3_epsilon_expression(p, sympy.Integer(m), delta), "eps", True,
                       f"p >= 16 ln(2/delta)/m = {float(limit):.6g} holds; D_(e^eps)(P || Q) <= delta")


def lemma_b1(alpha0: object, d: object, m: object, delta: object) -> BoundResult:
    """Lemma B.1: one changed item at distance d among m shuffled alpha0 d_X-metric-DP reports.

    alpha = ln(1 + tanh(alpha0 d/2) (8 sqrt(e^alpha0 ln(4/delta)/m) + 8 e^alpha0/m)), valid when
    alpha0 <= ln(m / (16 ln(2/delta))); the two shuffled outputs are (alpha, delta)-indistinguishable.

    Args:
        alpha0: the randomizer's metric-DP constant (> 0).
        d: d_X(x_1^0, x_1^1), in [0, 1].
        m: number of items (integer >= 2).
        delta: in (0, 1).

    References: 002_1def8c9789d6e1bd.txt, Lemma B.1 and Appendix B.4.2. Why it holds: the changed item's
    two laws are a tanh(alpha0 d/2)-mixture apart, every other item is a clone with probability
    e^-alpha0 (Lemma B.2), so advanced joint convexity (Lemma B.4) scales Lemma B.3's e^eps - 1 (at
    p = e^-alpha0) by tanh(alpha0 d/2).
    """
    alpha0 = require_positive("alpha0", alpha0)
    d = _nonnegative("d", d)
    if exact_sign(d - 1) > 0:
        raise InvalidParameterError(f"d must be in [0, 1] (d_X <= 1). Got {d}")
    m = require_int("m", m, minimum=2)
    delta = _probability_open("delta", delta)
    source = f"{SOURCE}, Lemma B.1"
    limit = sympy.log(sympy.Integer(m) / (16 * sympy.log(2 / delta)))
    if exact_sign(limit - alpha0) < 0:
        return BoundResult("lemma-b1", source, None, "eps", False,
                           f"needs alpha0 <= ln(m/(16 ln(2/delta))) = {float(limit):.6g}; got alpha0 = {alpha0}")
    return BoundResult("lemma-b1", source, lemma_b1_alpha_expression(alpha0, d, sympy.Integer(m), delta), "eps",
                       True, f"alpha0 <= ln(m/(16 ln(2/delta))) = {float(limit):.6g} holds; d = {d}")


def lemma_b1_concavity() -> SymbolicFact:
    """f(d) = ln(1 + K tanh(a d/2)) is concave on d >= 0 for K, a > 0, proved with sympy.

    f''(d) = -2 K a^2 e^{ad} (K e^{2ad} + K + e^{2ad} - 1) / ((e^{ad} + 1)^2 (K e^{ad} - K + e^{ad} + 1)^2);
    with e^{ad} = 1 + u (u >= 0) every factor has a decided sign. Concavity with f(0) = 0 gives Jensen's
    sum_i f(d_i) <= n f(mean d_i), the worst case of Theorem 4.3 (the appendix says "convexity": a slip).

    References: 002_1def8c9789d6e1bd.txt, proof of Theorem 4.3 (Appendix B.3);
    specs/imola_metric_dp_user_level.md, section 4 (Lemma B.1) and section 5 item 2.
    """
    K, a = sympy.symbols("K a", positive=True)
    d = sympy.Symbol("d", nonnegative=True)
    u = sympy.Symbol("u", nonnegative=True)
    e = sympy.exp(a * d)
    second = sympy.diff(sympy.log(1 + K * (e - 1) / (e + 1)), d, 2)
    closed = -2 * K * a**2 * e * (K * e**2 + K + e**2 - 1) / ((e + 1)**2 * (K * e - K + e + 1)**2)
    in_u = sympy.factor(sympy.cancel(sympy.together(second.subs(e, 1 + u))))
    statement = "f''(d) <= 0 for f(d) = ln(1 + K tanh(a d/2)), all K > 0, a > 0, d >= 0"
    source = f"{SOURCE}, Appendix B.3 (concavity used with Jensen in Theorem 4.3)"
    if d in in_u.free_symbols:
        return SymbolicFact(statement, source, None, f"e^(a d) = 1 + u did not remove d from f'': {in_u}")
    holds, evidence = nonnegative_everywhere(-in_u)
    matches = sympy.simplify(second - closed) == 0
    return SymbolicFact(statement, source, holds, f"with e^(a d) = 1 + u, u >= 0: f'' = {in_u}, and -f'' = {evidence}; "
                                                  f"equals the spec's closed form: {matches}")


# ---------------------------------------------------------------------------------------------
# Exact checks
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LemmaCheck:
    """An exact check of a shuffle lemma at one instance.

    Attributes:
        name: ``"lemma-b3"`` or ``"lemma-b1"``.
        source: paper and lemma.
        bound: the lemma's eps (or alpha) at the instance, exact; None when the lemma does not apply.
        delta: the lemma's delta.
        applies: whether the lemma's condition holds at the instance.
        divergences: the exact D_{e^bound}(P || Q) (and D_{e^bound}(Q || P) for Lemma B.1), or () when
            the lemma does not apply.
        note: the instance (p, m, or alpha0 measured, d, m).
    """

    name: str
    source: str
    bound: sympy.Expr | None
    delta: sympy.Expr
    applies: bool
    divergences: tuple[sympy.Expr, ...]
    note: str

    @property
    def within_delta(self) -> bool:
        """Every divergence is <= delta (decided exactly); False when the lemma does not apply."""
        return self.applies and all(exact_sign(self.delta - value) >= 0 for value in self.divergences)


def _floor_times(kappa: sympy.Expr, bounds: tuple[Fraction, Fraction], n: int) -> int:
    """floor(kappa n) exactly, from an enclosure of kappa (exact sign where it straddles an integer)."""
    lo, hi = math.floor(bounds[0] * n), math.floor(bounds[1] * n)
    if lo == hi:
        return lo
    return hi if exact_sign(kappa * n - hi) >= 0 else hi - 1


def clone_pair_divergence(eps: object, p: object, m: object) -> sympy.Expr:
    """The exact D_{e^eps}(P || Q) of Lemma B.3's pair, P = (A + 1, C - A) and Q = (A, C - A + 1).

    C ~ Bin(m - 1, p), A | C ~ Bin(C, 1/2). Every c is summed: with t = e^eps and
    a*_c = floor(t (c + 1)/(t + 1)) + 1, the maximising event is S = {first coordinate >= a*_c}, and

        D = sum_c Pr[C = c] (Pr[Bin(c, 1/2) >= a*_c - 1] - t Pr[Bin(c, 1/2) >= a*_c]) = P(S) - t Q(S),

    with P(S), Q(S) exact rationals (binomial tails tracked by integer recurrences as c grows).

    Args:
        eps: eps >= 0 (exact).
        p: rational clone probability in (0, 1).
        m: integer, 2 <= m <= :data:`MAX_EXACT_CLONE_M`.

    Returns:
        The exact divergence P(S) - e^eps Q(S).

    References: 002_1def8c9789d6e1bd.txt, Lemma B.3; Dwork and Roth 2014, Definition 2.4. Why the event
    is optimal: given c (a function of the output, whose coordinates sum to c + 1) the likelihood ratio
    P/Q at first coordinate a is a / (c - a + 1), increasing in a.
    """
    eps = to_exact("eps", eps)
    if exact_sign(eps) < 0:
        raise InvalidParameterError(f"eps must be >= 0. Got {eps}")
    p = _probability_open("p", p)
    if not p.is_Rational:
        raise InvalidParameterError(f"p must be a rational number for the exact computation. Got {p}")
    m = require_int("m", m, minimum=2, maximum=MAX_EXACT_CLONE_M)
    t = sympy.exp(eps)
    kappa = t / (t + 1)
    bounds = rational_enclosure(kappa)
    u, v = int(p.p), int(p.q)
    n = m - 1
    weight = (v - u) ** n  # Pr[C = c] v^n, updated by its ratio
    j, binom, tail = 0, 1, 1  # j = a*_c - 1, binom = C(c, j), tail = sum_{i >= j} C(c, i); at c = 0
    p_sum = q_sum = 0
    for c in range(n + 1):
        scale = weight << (n - c)  # Pr[C = c] 2^-c in units of v^-n 2^-n
        p_sum += scale * tail
        q_sum += scale * (tail - binom)
        if c == n:
            break
        below = binom * j // (c - j + 1) if j else 0  # C(c, j - 1)
        tail = 2 * tail + below  # sum_{i >= j} C(c + 1, i)
        binom = binom * (c + 1) // (c + 1 - j)  # C(c + 1, j)
        if _floor_times(kappa, bounds, c + 2) > j:
            tail -= binom
            binom = binom * (c + 1 - j) // (j + 1)
            j += 1
        weight = weight * (n - c) * u // ((c + 1) * (v - u))
    denominator = v ** n << n
    return sympy.Rational(p_sum, denominator) - t * sympy.Rational(q_sum, denominator)


def lemma_b3_check(p: object, m: object, delta: object) -> LemmaCheck:
    """Lemma B.3 checked exactly: the clone pair's D_{e^eps}(P || Q) at the lemma's eps, against delta.

    Args:
        p: rational clone probability in (0, 1).
        m: integer, 2 <= m <= :data:`MAX_EXACT_CLONE_M`.
        delta: in (0, 1).

    References: 002_1def8c9789d6e1bd.txt, Lemma B.3; specs/imola_metric_dp_user_level.md, T21.
    """
    bound = lemma_b3(p, m, delta)
    delta = _probability_open("delta", delta)
    note = f"p = {p}, m = {m}: " + bound.note
    if not bound.valid:
        return LemmaCheck("lemma-b3", bound.source, None, delta, False, (), note)
    return LemmaCheck("lemma-b3", bound.source, bound.value, delta, True,
                      (clone_pair_divergence(bound.value, p, m),), note)


def _integer_rows(rows: Sequence[Sequence[object]]) -> tuple[list[list[int]], int]:
    """Each row as a probability vector over a common denominator N: (integer numerators, N)."""
    exact = [exact_distribution(f"rows[{i}]", row) for i, row in enumerate(rows)]
    if len({len(r) for r in exact}) != 1:
        raise InvalidParameterError("rows must all have the same number of outputs")
    if not all(isinstance(v, Fraction) for r in exact for v in r):
        raise InvalidParameterError("rows must hold rational probabilities for the exact histogram law")
    N = math.lcm(*(v.denominator for r in exact for v in r))
    return [[int(v * N) for v in r] for r in exact], N


def shuffled_histogram_counts(rows: Sequence[Sequence[object]],
                              inputs: Sequence[int]) -> tuple[dict[tuple[int, ...], int], int]:
    """The exact law of Shuffle(A(x_1), ..., A(x_m)) as integer weights over one denominator.

    Returns ``(weights, total)`` with P(histogram = c) = weights[c] / total for every reachable count
    vector c, where total = N^m and N is the common denominator of ``rows``; two laws of the same rows and
    the same m share ``total``, so they compare with integer arithmetic. Arguments and method as in
    :func:`shuffled_histogram_law`.
    """
    numerators, N = _integer_rows(rows)
    k = len(numerators[0])
    if k < 2:
        raise InvalidParameterError(f"rows must have at least 2 outputs. Got {k}")
    items = [require_int(f"inputs[{i}]", x, minimum=0, maximum=len(numerators) - 1) for i, x in enumerate(inputs)]
    m = len(items)
    if m < 1:
        raise InvalidParameterError("inputs must hold at least one item")
    if (m + 1) ** (k - 1) > MAX_HISTOGRAM_CELLS:
        raise InvalidParameterError(f"inputs too long for the exact histogram law: (m + 1)^(k - 1) must be <= "
                                    f"{MAX_HISTOGRAM_CELLS}. Got m = {m}, k = {k}")
    grid = np.zeros((m + 1,) * (k - 1), dtype=object)
    grid[(0,) * (k - 1)] = 1
    for done, x in enumerate(items):
        reach = tuple(slice(0, done + 2) for _ in range(k - 1))  # counts after this item are <= done + 1
        old = grid[reach].copy()
        new = old * numerators[x][k - 1]
        for y in range(k - 1):
            source = tuple(slice(0, done + 1) if axis == y else slice(None) for axis in range(k - 1))
            target = tuple(slice(1, done + 2) if axis == y else slice(None) for axis in range(k - 1))
            new[target] = new[target] + old[source] * numerators[x][y]
        grid[reach] = new
    weights = {}
    for index in np.ndindex(*grid.shape):
        if sum(index) <= m and grid[index]:
            weights[(*index, m - sum(index))] = int(grid[index])
    return weights, N ** m


def shuffled_histogram_law(rows: Sequence[Sequence[object]], inputs: Sequence[int]) -> dict[tuple[int, ...], Fraction]:
    """The exact law of Shuffle(A(x_1), ..., A(x_m)), i.e. of the histogram of the m outputs.

    A is a finite randomizer with rational probabilities, ``rows[x][y]`` = P(A(x) = y); the histogram
    (count of each output) is a sufficient statistic of the shuffled list, and its law is the
    convolution of the items' categorical laws, computed here on the grid of counts of the first k - 1
    outputs (the last count is implied) in exact integer arithmetic.

    Args:
        rows: one probability row per input (rationals summing exactly to 1), k >= 2 outputs.
        inputs: the items x_1, ..., x_m as row indices (m >= 1), with (m + 1)^(k - 1) <=
            :data:`MAX_HISTOGRAM_CELLS`.

    Returns:
        count vector (c_0, ..., c_{k-1}) -> exact probability, for every reachable count vector.

    References: 002_1def8c9789d6e1bd.txt, Algorithm 2 (PrivEMDItemWise) and specs section 3.2 "Exact
    checker".
    """
    weights, total = shuffled_histogram_counts(rows, inputs)
    return {counts: Fraction(weight, total) for counts, weight in weights.items()}


def metric_constant(rows: Sequence[Sequence[object]], distances: Sequence[Sequence[object]]) -> sympy.Expr:
    """The exact alpha0 = max over x != x' and y of ln(A[x, y] / A[x', y]) / d(x, x'), for d_X <= 1.

    Args:
        rows: the randomizer A as rows of exact probabilities (one per input).
        distances: the metric d_X on the inputs (symmetric, zero diagonal, positive off it, <= 1).
    """
    metric = Metric.from_matrix(range(len(rows)), distances)
    for i, row in enumerate(distances):
        for j, value in enumerate(row):
            if exact_sign(to_exact(f"distances[{i}][{j}]", value) - 1) > 0:
                raise InvalidParameterError(f"distances[{i}][{j}] must be <= 1 (d_X is normalized). Got {value}")
    return max_log_ratio(ExactChannel.from_matrix(rows), metric).epsilon


def lemma_b1_check(rows: Sequence[Sequence[object]], distances: Sequence[Sequence[object]], changed: tuple[int, int],
                   others: Sequence[int], delta: object) -> LemmaCheck:
    """Lemma B.1 checked exactly on a finite metric-DP randomizer, both orders of the pair.

    alpha0 is measured exactly as the randomizer's metric-DP constant (max log-ratio / distance), d is
    d_X(x_1^0, x_1^1), m = 1 + len(others), and the lemma's alpha is compared with the exact hockey-stick
    divergences of the two shuffled histogram laws (:func:`shuffled_histogram_law`).

    Args:
        rows: the randomizer A as rows of rational probabilities (one per input).
        distances: the metric d_X on the inputs (symmetric, zero diagonal, positive off it, <= 1).
        changed: the row indices (x_1^0, x_1^1) of the changed item.
        others: the row indices of x_2, ..., x_m.
        delta: in (0, 1).

    References: 002_1def8c9789d6e1bd.txt, Lemma B.1; specs/imola_metric_dp_user_level.md, T10.
    """
    delta = _probability_open("delta", delta)
    if isinstance(changed, (str, bytes)) or not isinstance(changed, Sequence) or len(changed) != 2:
        raise InvalidParameterError(f"changed must be a pair (x_1^0, x_1^1) of row indices. Got {changed!r}")
    x0, x1 = (require_int(f"changed[{i}]", x, minimum=0, maximum=len(rows) - 1) for i, x in enumerate(changed))
    if x0 == x1:
        raise InvalidParameterError(f"changed must be two different inputs. Got {changed!r}")
    alpha0 = metric_constant(rows, distances)
    d = to_exact("distance", distances[x0][x1])
    others = [require_int(f"others[{i}]", x, minimum=0, maximum=len(rows) - 1) for i, x in enumerate(others)]
    m = 1 + len(others)
    bound = lemma_b1(alpha0, d, m, delta)
    note = f"measured alpha0 = {alpha0} (~{float(alpha0):.6g}), d = {d}, m = {m}: " + bound.note
    if not bound.valid:
        return LemmaCheck("lemma-b1", bound.source, None, delta, False, (), note)
    laws = [shuffled_histogram_law(rows, [x, *others]) for x in (x0, x1)]
    support = sorted(set(laws[0]) | set(laws[1]))
    P, Q = ([law.get(c, Fraction(0)) for c in support] for law in laws)
    return LemmaCheck("lemma-b1", bound.source, bound.value, delta, True,
                      (hockey_stick_divergence(P, Q, bound.value), hockey_stick_divergence(Q, P, bound.value)), note)
