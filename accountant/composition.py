"""Composition of differentially private mechanisms: basic, advanced, optimal and exact.

- **basic**: (sum eps_i, sum delta_i) (Dwork, McSherry, Nissim, Smith 2006; Dwork and Roth 2014,
  Theorem 3.16).
- **advanced**: k mechanisms, each (eps, delta0)-DP, compose to (eps', k delta0 + delta')-DP with
  eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) (Dwork, Rothblum, Vadhan, FOCS 2010,
  Theorem III.3; Dwork and Roth 2014, Theorem 3.20); heterogeneous eps_i use sum eps_i^2 and
  sum eps_i (e^eps_i - 1) (the same Azuma argument).
- **optimal**: the exact privacy region of k-fold composition of (eps, delta0)-DP mechanisms
  (Kairouz, Oh, Viswanath, ICML 2015, Theorem 3.3): it is that of k-fold randomized response, so
  delta(eps') = 1 - (1 - delta0)^k (1 - delta_RR(eps')) with
  delta_RR(eps') = sum_l C(k, l) max(e^{(k-l) eps} - e^{eps'} e^{l eps}, 0) / (1 + e^eps)^k, and the
  smallest eps' for a target delta is a closed form ln(...) on the right piece. Answers are exact sympy
  expressions: k-fold eps-DP at delta = 0 is exactly k eps (never an infinite eps from a truncated
  tail), and one application of log(3)-DP randomized response is exactly log(3).
- **exact**: finite mechanisms composed through their privacy-loss distributions
  (:class:`PrivacyLossDistribution`), in exact arithmetic (rationals, or rational functions of one
  exponential e^(b/q) via :class:`mechanisms.exact_arithmetic.ExponentialField`).

:class:`PrivacyLedger` records what was composed and reports every applicable bound.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import sympy
from mpmath import iv

from accountant.bound_result import BoundResult
from accountant.shuffle_intervals import iv_precision, iv_to_floats
from proofs.rounding import float_lower, float_upper
from mechanisms.exact_arithmetic import ExponentialField, cancel_exponentials
from mechanisms.parameters import (
    InvalidParameterError,
    exact_sign,
    require_int,
    require_positive,
    require_unit_interval,
    to_exact,
)

__all__ = [
    "COMPOSITION_PARAMETERS",
    "composition_family",
    "basic_composition",
    "advanced_composition",
    "optimal_composition",
    "optimal_composition_delta",
    "PrivacyLossDistribution",
    "compose_channels",
    "LedgerEntry",
    "PrivacyLedger",
]

SOURCES = {
    "basic": "Dwork, McSherry, Nissim, Smith (TCC 2006); Dwork and Roth (2014), Theorem 3.16",
    "advanced": "Dwork, Rothblum, Vadhan (FOCS 2010), Theorem III.3; Dwork and Roth (2014), Theorem 3.20",
    "optimal": "Kairouz, Oh, Viswanath, \"The composition theorem for differential privacy\" (ICML 2015), Theorem 3.3",
    "exact": "exact composition of privacy-loss distributions (Sommer, Meiser, Mohammadi, PoPETs 2019): "
             "hockey-stick divergence of the product distributions",
}

COMPOSITION_PARAMETERS: tuple[tuple[str, str, object], ...] = (
    ("eps", "each mechanism's eps > 0", None),
    ("k", "number of composed mechanisms, an integer >= 1", None),
    ("delta", "target delta of the composition, in [0, 1)", None),
    ("delta0", "each mechanism's own delta, in [0, 1) (default 0: pure eps-DP)", 0),
)
"""(name, help, default) of every :func:`composition_family` argument, for a command line."""


def _validate(eps: object, k: object, delta: object, delta0: object) -> tuple[sympy.Expr, int, sympy.Expr, sympy.Expr]:
    return (require_positive("eps", eps), require_int("k", k, minimum=1), require_unit_interval("delta", delta),
            require_unit_interval("delta0", delta0))


def _invalid(name: str, reason: str) -> BoundResult:
    return BoundResult(name, SOURCES[name], None, "eps", False, reason)


# ---------------------------------------------------------------------------------------------
# Basic and advanced
# ---------------------------------------------------------------------------------------------

def basic_composition(eps: Sequence[object], delta: Sequence[object] | None = None) -> BoundResult:
    """Basic composition: eps_1 + ... + eps_k (exact); the note gives delta_1 + ... + delta_k.

    Why it holds: the privacy loss of the composition is the sum of the per-mechanism losses, each at
    most eps_i outside events of probability delta_i.
    """
    eps_values = [require_positive(f"eps[{i}]", e) for i, e in enumerate(eps)]
    if not eps_values:
        raise InvalidParameterError("eps must list at least one mechanism. Got []")
    deltas = [sympy.Integer(0)] * len(eps_values) if delta is None else [
        require_unit_interval(f"delta[{i}]", d) for i, d in enumerate(delta)]
    if len(deltas) != len(eps_values):
        raise InvalidParameterError(f"delta must have one entry per mechanism ({len(eps_values)}). Got {len(deltas)}")
    total_delta = sympy.Add(*deltas)
    return BoundResult("basic", SOURCES["basic"], sympy.Add(*eps_values), "eps", True,
                       f"{len(eps_values)} mechanisms; delta = {total_delta}")


def advanced_composition(eps: object, k: object, delta_prime: object, *, delta0: object = 0) -> BoundResult:
    """Advanced composition (Dwork, Rothblum, Vadhan 2010, Theorem III.3), exact sympy value.

    k mechanisms, each (eps, delta0)-DP, are (eps', k delta0 + delta')-DP with
    eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), for any delta' in (0, 1).

    Why it holds: the privacy loss is a sum of k terms in [-eps, eps] with conditional means at most
    eps (e^eps - 1), so Azuma's inequality bounds its excess over k eps (e^eps - 1) with probability delta'.

    References:
        Dwork, Rothblum, Vadhan, "Boosting and Differential Privacy" (FOCS 2010), Theorem III.3.
    """
    eps, k, delta_prime, delta0 = _validate(eps, k, delta_prime, delta0)
    if delta_prime == 0:
        return _invalid("advanced", "needs delta' > 0 (ln(1/delta') is infinite at delta' = 0)")
    value = sympy.sqrt(2 * k * sympy.log(1 / delta_prime)) * eps + k * eps * (sympy.exp(eps) - 1)
    return BoundResult("advanced", SOURCES["advanced"], value, "eps", True,
                       f"delta = k delta0 + delta' = {k * delta0 + delta_prime}")


# ---------------------------------------------------------------------------------------------
# Optimal (Kairouz, Oh, Viswanath)
# ---------------------------------------------------------------------------------------------

def optimal_composition_delta(eps: object, k: object, eps_prime: object, *, delta0: object = 0) -> sympy.Expr:
    """Exact smallest delta with k-fold (eps, delta0)-DP composition (eps_prime, delta)-DP (KOV 2015, Thm 3.3).

    delta = 1 - (1 - delta0)^k (1 - sum_l C(k, l) max(e^{(k-l) eps} - e^{eps'} e^{l eps}, 0) / (1 + e^eps)^k).
    """
    eps = require_positive("eps", eps)
    k = require_int("k", k, minimum=1)
    eps_prime = to_exact("eps_prime", eps_prime)
    delta0 = require_unit_interval("delta0", delta0)
    E = sympy.exp(eps)
    terms = []
    for l in range(k + 1):
        # e^{(k-l) eps} > e^{eps'} e^{l eps}  <=>  (k - 2l) eps > eps'
        if exact_sign((k - 2 * l) * eps - eps_prime) > 0:
            terms.append(sympy.binomial(k, l) * (E ** (k - l) - sympy.exp(eps_prime) * E ** l))
    rr = sympy.Add(*terms) / (1 + E) ** k
    return 1 - (1 - delta0) ** k * (1 - rr) if delta0 != 0 else rr


_EXACT_TERMS = 60
"""Up to this k the optimal eps is returned as a closed form; above it as a rigorous rational enclosure."""


def _iv_of(value: sympy.Expr, digits: int = 60):
    """An mpmath interval containing the exact positive real ``value``."""
    if value.is_Rational:
        return iv.mpf(value.p) / value.q
    approx = value.evalf(digits, strict=True)  # all requested digits correct, or PrecisionExhausted
    slack = iv.mpf(10) ** -(digits - 10)
    return iv.mpf(str(approx)) * iv.mpf([1 - slack.b, 1 + slack.b])


def _optimal_epsilon(eps: sympy.Expr, k: int, target: sympy.Expr) -> tuple[sympy.Expr | None, float, float]:
    """Smallest eps' >= 0 with delta_RR(eps') <= target for k-fold eps randomized response.

    Returns (closed form or None, lower, upper): the closed form when k <= _EXACT_TERMS, and a rigorous
    float enclosure always. The piece (how many terms l < i are positive) is located in floats and
    confirmed in mpmath interval arithmetic (precision raised until every sign is decided).
    """
    if target == 0:
        value = k * eps
        lo, hi = (float_lower(value), float_upper(value))
        return value, lo, hi
    guess = _float_pieces(float(eps.evalf(30)), k, float(target.evalf(30)))
    order = [guess] + [i for i in range(1, k // 2 + 2) if i != guess]
    for bits in (256, 1024, 4096):
        with iv_precision(bits):
            E = iv.exp(_iv_of(eps, bits // 3))
            d = _iv_of(target, bits // 3) if target != 0 else iv.mpf(0)
            powers = [iv.mpf(1)]
            for _ in range(k):
                powers.append(powers[-1] * E)
            # terms C(k, l) E^(k-l) and C(k, l) E^l, and their running sums over l < i
            high_terms, low_terms = [iv.mpf(0)], [iv.mpf(0)]
            binom = 1
            for l in range(k // 2 + 2):
                high_terms.append(high_terms[-1] + binom * powers[k - l] if l <= k else high_terms[-1])
                low_terms.append(low_terms[-1] + binom * powers[l] if l <= k else low_terms[-1])
                binom = binom * (k - l) // (l + 1)
            norm = (1 + E) ** k
            undecided = False
            for i in order:
                num = high_terms[i] - d * norm
                den = low_terms[i]
                if num.b <= 0:
                    continue
                if num.a <= 0:
                    undecided = True
                    continue
                ratio = num / den
                low = powers[k - 2 * i] if k - 2 * i >= 0 else 1 / powers[2 * i - k]
                high = powers[k - 2 * i + 2] if k - 2 * i + 2 >= 0 else 1 / powers[2 * i - 2 - k]
                if (ratio - low).a >= 0 and (high - ratio).a >= 0:
                    if ratio.b <= 1:
                        return sympy.Integer(0), 0.0, 0.0
                    if ratio.a <= 1:
                        undecided = True
                        continue
                    lo, hi = iv_to_floats(iv.log(ratio))
                    exact = None
                    if k <= _EXACT_TERMS:
                        Ex = sympy.exp(eps)
                        exact = sympy.log(
                            (sympy.Add(*[sympy.binomial(k, l) * Ex ** (k - l) for l in range(i)]) - target * (1 + Ex) ** k)
                            / sympy.Add(*[sympy.binomial(k, l) * Ex ** l for l in range(i)]))
                        inner = exact.args[0]
                        exact = sympy.log(cancel_exponentials(inner)) if inner.has(sympy.Add) else exact
                    return exact, max(lo, 0.0), hi
                if (ratio - low).b >= 0 and (high - ratio).b >= 0:
                    undecided = True  # the piece boundaries overlap the enclosure: need more precision
            if not undecided:
                # no piece holds the solution: delta_RR(0) <= target, confirmed before answering eps' = 0
                total_variation = sum((math.comb(k, l) * (powers[k - l] - powers[l]) for l in range((k + 1) // 2)),
                                      iv.mpf(0)) / norm
                if (d - total_variation).a >= 0:
                    return sympy.Integer(0), 0.0, 0.0
                undecided = True
    raise ArithmeticError("could not decide the piece of the optimal composition (precision exhausted)")


def _float_pieces(eps: float, k: int, target: float) -> int:
    """The piece index i that a float evaluation suggests (confirmed rigorously by the caller)."""
    log_norm = k * (eps + math.log1p(math.exp(-eps)))

    def delta_at(i: int) -> float:  # delta_RR((k - 2i) eps)
        total = 0.0
        for l in range(i):
            log_c = math.lgamma(k + 1) - math.lgamma(l + 1) - math.lgamma(k - l + 1)
            a = log_c + (k - l) * eps - log_norm
            b = log_c + (k - 2 * i + l) * eps - log_norm
            total += math.exp(min(a, 700)) - math.exp(min(b, 700))
        return total

    lo, hi = 1, k // 2 + 1  # delta_at increases with i: the first i with delta_at(i) >= target
    if delta_at(hi) < target:
        return hi
    while lo < hi:
        mid = (lo + hi) // 2
        if delta_at(mid) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def optimal_composition(eps: object, k: object, delta: object, *, delta0: object = 0) -> BoundResult:
    """Optimal composition of k (eps, delta0)-DP mechanisms (Kairouz, Oh, Viswanath 2015, Theorem 3.3).

    The smallest eps' such that every k-fold adaptive composition is (eps', delta)-DP, as an exact
    expression: with delta_RR as in the module docstring and delta_RR(eps') <= 1 - (1 - delta)/(1 - delta0)^k,
    eps' = ln((sum_{l<i} C(k,l) e^{(k-l)eps} - d (1+e^eps)^k) / sum_{l<i} C(k,l) e^{l eps}) on the piece
    (k - 2i) eps <= eps' <= (k - 2i + 2) eps that contains it. Tight: k-fold randomized response attains it.

    References:
        Kairouz, Oh, Viswanath, "The Composition Theorem for Differential Privacy" (ICML 2015), Theorem 3.3.
    """
    eps, k, delta, delta0 = _validate(eps, k, delta, delta0)
    if delta0 == 0:
        target = delta
    else:
        target = 1 - (1 - delta) / (1 - delta0) ** k
        if exact_sign(target) < 0:
            return _invalid("optimal", f"delta must be >= 1 - (1 - delta0)^k = {float(1 - (1 - delta0) ** k):.6g} "
                                       f"for k (eps, delta0)-DP mechanisms. Got {delta}")
    exact, lo, hi = _optimal_epsilon(eps, k, target)
    note = "the privacy region of k-fold randomized response (tight)"
    if exact is not None:
        return BoundResult("optimal", SOURCES["optimal"], exact, "eps", True, "exact: " + note)
    return BoundResult("optimal", SOURCES["optimal"], sympy.Rational(hi), "eps", True,
                       f"{note}; closed form ln(...) with up to k/2 terms, given as a rigorous enclosure",
                       lower_value=sympy.Rational(lo), upper_value=sympy.Rational(hi))


def composition_family(eps: object, k: object, delta: object, *, delta0: object = 0) -> list[BoundResult]:
    """basic, advanced and optimal composition of k (eps, delta0)-DP mechanisms at a target delta.

    ``basic`` is k eps (valid when delta >= k delta0); ``advanced`` uses delta' = delta - k delta0;
    ``optimal`` is exact (Kairouz, Oh, Viswanath).
    """
    eps, k, delta, delta0 = _validate(eps, k, delta, delta0)
    slack = delta - k * delta0
    if exact_sign(slack) < 0:
        basic = _invalid("basic", f"needs delta >= k delta0 = {k * delta0}; got {delta}")
        advanced = _invalid("advanced", f"needs delta > k delta0 = {k * delta0}; got {delta}")
    else:
        basic = BoundResult("basic", SOURCES["basic"], k * eps, "eps", True, f"delta = k delta0 = {k * delta0}")
        advanced = advanced_composition(eps, k, slack, delta0=delta0)
    return [basic, advanced, optimal_composition(eps, k, delta, delta0=delta0)]


# ---------------------------------------------------------------------------------------------
# Exact composition of finite mechanisms through privacy-loss distributions
# ---------------------------------------------------------------------------------------------

class _Numbers:
    """Exact arithmetic for a set of probabilities: Q(s) with s = exp(b/q) when possible, else sympy."""

    def __init__(self, values: Iterable[sympy.Expr]):
        values = list(values)
        self.field = ExponentialField.covering(values)
        if self.field is not None:
            try:
                for v in values:
                    self.field.element(v)
            except ValueError:
                self.field = None

    def element(self, value: sympy.Expr):
        return self.field.element(value) if self.field is not None else sympy.sympify(value)

    def to_sympy(self, element) -> sympy.Expr:
        if self.field is None:
            return element
        return self.field.to_sympy(element)


@dataclass(frozen=True, eq=False)
class PrivacyLossDistribution:
    """The exact privacy-loss distribution of a pair (P, Q) of finite distributions.

    ``atoms`` maps each distinct likelihood ratio r = P(y)/Q(y) (``None`` for Q(y) = 0 < P(y)) to the
    pair (P-mass, Q-mass) of the outputs with that ratio, in the exact number system ``numbers``.
    Composition multiplies ratios and masses (the privacy losses add). delta(eps) is
    sum_{r > e^eps} (P - e^eps Q), the hockey-stick divergence.
    """

    atoms: Mapping[object, tuple[object, object]]
    numbers: _Numbers
    _sympy_ratios: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_pair(cls, p: Sequence[object], q: Sequence[object], *, numbers: _Numbers | None = None) -> PrivacyLossDistribution:
        """The PLD of two exact pmfs on the same outputs (sequences of exact probabilities)."""
        P = [to_exact(f"p[{i}]", v) for i, v in enumerate(p)]
        Q = [to_exact(f"q[{i}]", v) for i, v in enumerate(q)]
        if len(P) != len(Q) or not P:
            raise InvalidParameterError(f"p and q must be non-empty and of equal length. Got {len(P)} and {len(Q)}")
        numbers = numbers or _Numbers(P + Q)
        zero = numbers.element(sympy.Integer(0))
        atoms: dict[object, tuple[object, object]] = {}
        for a, b in zip(P, Q):
            ea, eb = numbers.element(a), numbers.element(b)
            if ea == zero and eb == zero:
                continue
            ratio = None if eb == zero else ea / eb
            pa, qa = atoms.get(ratio, (zero, zero))
            atoms[ratio] = (pa + ea, qa + eb)
        return cls(atoms, numbers)

    def compose(self, other: PrivacyLossDistribution) -> PrivacyLossDistribution:
        """The PLD of the product pair (P x P', Q x Q')."""
        if other.numbers is not self.numbers:
            raise ValueError("compose PLDs built with the same number system (see compose_channels)")
        zero = self.numbers.element(sympy.Integer(0))
        atoms: dict[object, tuple[object, object]] = {}
        for r1, (p1, q1) in self.atoms.items():
            for r2, (p2, q2) in other.atoms.items():
                p, q = p1 * p2, q1 * q2
                if p == zero and q == zero:
                    continue
                ratio = None if q == zero else (p / q if r1 is None or r2 is None else r1 * r2)
                pa, qa = atoms.get(ratio, (zero, zero))
                atoms[ratio] = (pa + p, qa + q)
        return PrivacyLossDistribution(atoms, self.numbers)

    def _ratio(self, r) -> sympy.Expr:
        if r not in self._sympy_ratios:
            self._sympy_ratios[r] = sympy.oo if r is None else self.numbers.to_sympy(r)
        return self._sympy_ratios[r]

    def _sorted(self) -> list[tuple[sympy.Expr, sympy.Expr, sympy.Expr]]:
        rows = [(self._ratio(r), self.numbers.to_sympy(p), self.numbers.to_sympy(q)) for r, (p, q) in self.atoms.items()]
        return sorted(rows, key=lambda row: math.inf if row[0] == sympy.oo else float(row[0].evalf(30)), reverse=True)

    def delta(self, eps: object) -> sympy.Expr:
        """Exact hockey-stick divergence D_{e^eps}(P || Q)."""
        eps = to_exact("eps", eps)
        t = sympy.exp(eps)
        total_p, total_q = sympy.Integer(0), sympy.Integer(0)
        for ratio, p, q in self._sorted():
            if ratio == sympy.oo or exact_sign(ratio - t) > 0:
                total_p += p
                total_q += q
        return sympy.nsimplify(total_p - t * total_q) if (total_p - t * total_q).has(sympy.Float) else total_p - t * total_q

    def epsilon(self, delta: object) -> sympy.Expr:
        """Exact smallest eps >= 0 with D_{e^eps}(P || Q) <= delta (``sympy.oo`` if none).

        With the atoms sorted by ratio r_1 > r_2 > ..., delta(t) = P_j - t Q_j on t in [r_(j+1), r_j]
        (P_j, Q_j the masses of the first j atoms, including the infinite-ratio ones), continuous and
        decreasing; the answer is t = (P_j - delta) / Q_j on the piece where delta(r_j) <= delta < delta(r_(j+1)).
        """
        delta = require_unit_interval("delta", delta)
        rows = self._sorted()
        infinite = sympy.Add(*[p for r, p, _ in rows if r == sympy.oo])
        if exact_sign(infinite - delta) > 0:
            return sympy.oo
        finite = [row for row in rows if row[0] != sympy.oo]
        mass_p, mass_q = infinite, sympy.Integer(0)
        for j, (ratio, p, q) in enumerate(finite):
            if exact_sign(ratio - 1) <= 0:
                break  # t >= 1 only: delta(1) = mass_p - mass_q <= delta was established on the way here
            mass_p, mass_q = mass_p + p, mass_q + q
            next_ratio = finite[j + 1][0] if j + 1 < len(finite) else sympy.Integer(0)
            floor = next_ratio if exact_sign(next_ratio - 1) > 0 else sympy.Integer(1)
            if exact_sign(mass_p - floor * mass_q - delta) <= 0:
                continue  # delta at the bottom of this piece is still <= delta: go lower
            level = (mass_p - delta) / mass_q  # e^eps on this piece, in (floor, ratio]
            if level.has(sympy.exp):
                level = cancel_exponentials(level)
            return sympy.log(level)
        return sympy.Integer(0)


def _rows(channel: object) -> list[list[sympy.Expr]]:
    from mechanisms.base import FiniteMechanism

    if isinstance(channel, FiniteMechanism):
        outputs = list(channel.outputs())
        rows = []
        for x in channel.inputs():
            pmf = channel.pmf(x)
            rows.append([pmf.get(y, sympy.Integer(0)) for y in outputs])
        return rows
    return [[to_exact(f"channel[{i}][{j}]", v) for j, v in enumerate(row)] for i, row in enumerate(channel)]


def compose_channels(channels: Sequence[object], *, eps: object = None, delta: object = None) -> BoundResult:
    """Exact (eps, delta) of the non-adaptive composition of finite mechanisms on the same input.

    Each channel is a finite mechanism or a matrix of exact probabilities (rows = the same inputs in
    the same order, all pairs of inputs neighbours as in local DP). For every ordered pair of distinct
    inputs the per-channel privacy-loss distributions are composed exactly; the result is the maximum
    over pairs of delta(eps) (``eps`` given) or of eps(delta) (``delta`` given).
    """
    if (eps is None) == (delta is None):
        raise InvalidParameterError("compose_channels needs exactly one of eps or delta")
    matrices = [_rows(c) for c in channels]
    if not matrices:
        raise InvalidParameterError("channels must contain at least one channel. Got []")
    inputs = len(matrices[0])
    if inputs < 2 or any(len(m) != inputs for m in matrices):
        raise InvalidParameterError("every channel must have the same number (>= 2) of inputs")
    numbers = _Numbers(v for m in matrices for row in m for v in row)
    worst: sympy.Expr | None = None
    for a in range(inputs):
        for b in range(inputs):
            if a == b:
                continue
            pld = None
            for m in matrices:
                step = PrivacyLossDistribution.from_pair(m[a], m[b], numbers=numbers)
                pld = step if pld is None else pld.compose(step)
            value = pld.delta(eps) if eps is not None else pld.epsilon(delta)
            if worst is None or value == sympy.oo or (worst != sympy.oo and exact_sign(value - worst) > 0):
                worst = value
    assert worst is not None
    units = "probability" if eps is not None else "eps"
    note = (f"{len(matrices)} channels, {inputs} inputs, worst ordered pair; "
            + (f"delta at eps = {eps}" if eps is not None else f"eps at delta = {delta}"))
    return BoundResult("exact", SOURCES["exact"], worst, units, True, note)


# ---------------------------------------------------------------------------------------------
# Ledger
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LedgerEntry:
    """One composed mechanism: its label, guarantee, citation and (optionally) its exact channel."""

    label: str
    eps: sympy.Expr
    delta: sympy.Expr
    source: str = ""
    channel: tuple[tuple[sympy.Expr, ...], ...] | None = None


class PrivacyLedger:
    """A record of composed mechanisms and every composition bound that applies to them.

    >>> ledger = PrivacyLedger()
    >>> _ = ledger.record("histogram", 1)
    >>> _ = ledger.record("mean", 1)
    >>> ledger.basic().value
    2
    """

    def __init__(self, entries: Iterable[LedgerEntry] = ()):
        self._entries: list[LedgerEntry] = list(entries)

    @property
    def entries(self) -> tuple[LedgerEntry, ...]:
        """What was composed, in order."""
        return tuple(self._entries)

    def record(self, label: str, eps: object, delta: object = 0, *, source: str = "",
               channel: object = None) -> LedgerEntry:
        """Record one mechanism: (eps, delta)-DP, with an optional exact channel for exact composition."""
        entry = LedgerEntry(str(label), require_positive("eps", eps), require_unit_interval("delta", delta), source,
                            None if channel is None else tuple(tuple(r) for r in _rows(channel)))
        self._entries.append(entry)
        return entry

    def _describe(self) -> str:
        return "; ".join(f"{e.label}: ({e.eps}, {e.delta})" for e in self._entries)

    def _require_entries(self) -> None:
        if not self._entries:
            raise InvalidParameterError("the ledger is empty: record a mechanism first")

    def basic(self) -> BoundResult:
        """Basic composition of every entry."""
        self._require_entries()
        result = basic_composition([e.eps for e in self._entries], [e.delta for e in self._entries])
        return BoundResult("basic", result.source, result.value, "eps", True, result.note + "; " + self._describe())

    def advanced(self, delta_prime: object) -> BoundResult:
        """Advanced composition with sum eps_i^2 and sum eps_i (e^eps_i - 1); delta = sum delta_i + delta'."""
        self._require_entries()
        delta_prime = require_unit_interval("delta_prime", delta_prime)
        if delta_prime == 0:
            return _invalid("advanced", "needs delta' > 0")
        squares = sympy.Add(*[e.eps ** 2 for e in self._entries])
        drift = sympy.Add(*[e.eps * (sympy.exp(e.eps) - 1) for e in self._entries])
        total_delta = sympy.Add(*[e.delta for e in self._entries]) + delta_prime
        return BoundResult("advanced", SOURCES["advanced"], sympy.sqrt(2 * sympy.log(1 / delta_prime) * squares) + drift,
                           "eps", True, f"delta = {total_delta}; " + self._describe())

    def optimal(self, delta: object) -> BoundResult:
        """Kairouz-Oh-Viswanath optimal composition (entries must share one (eps, delta0))."""
        self._require_entries()
        first = self._entries[0]
        if any(e.eps != first.eps or e.delta != first.delta for e in self._entries):
            return _invalid("optimal", "the exact KOV formula here needs identical (eps, delta0) entries")
        result = optimal_composition(first.eps, len(self._entries), delta, delta0=first.delta)
        return BoundResult("optimal", result.source, result.value, "eps", result.valid,
                           result.note + "; " + self._describe())

    def exact(self, delta: object) -> BoundResult:
        """Exact composition through privacy-loss distributions (every entry needs a channel)."""
        self._require_entries()
        if any(e.channel is None for e in self._entries):
            return _invalid("exact", "every entry needs its channel (record(..., channel=...))")
        result = compose_channels([e.channel for e in self._entries], delta=delta)
        return BoundResult("exact", result.source, result.value, "eps", True, result.note + "; " + self._describe())

    def summary(self, delta: object) -> list[BoundResult]:
        """basic (when its delta fits), advanced, optimal and exact at the target ``delta``."""
        self._require_entries()
        delta = require_unit_interval("delta", delta)
        spent = sympy.Add(*[e.delta for e in self._entries])
        results = [self.basic() if exact_sign(delta - spent) >= 0 else
                   _invalid("basic", f"the entries' deltas add to {spent} > {delta}")]
        slack = delta - spent
        results.append(self.advanced(slack) if exact_sign(slack) > 0 else
                       _invalid("advanced", f"needs delta > sum of the entries' deltas = {spent}"))
        results.append(self.optimal(delta))
        results.append(self.exact(delta))
        return results
