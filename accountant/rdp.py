"""Rényi-DP accounting: RDP curves of standard mechanisms, their composition and conversion to (eps, delta).

A mechanism is (alpha, eps_alpha)-RDP when D_alpha(M(x) || M(x')) <= eps_alpha for all neighbours x, x',
with D_alpha(P || Q) = (1/(alpha - 1)) log E_Q[(P/Q)^alpha] (Mironov, "Rényi Differential Privacy", CSF
2017). An :class:`RdpCurve` holds eps_alpha at a finite set of orders alpha > 1.

Curves (one application of the mechanism):

- **Gaussian** N(0, sigma^2), l2 sensitivity D: eps_alpha = alpha D^2 / (2 sigma^2) (Mironov 2017,
  Proposition 7).
- **Laplace** Lap(b), l1 sensitivity D, lambda = D / b: eps_alpha = (1/(alpha - 1)) log(alpha/(2 alpha - 1)
  e^{(alpha - 1) lambda} + (alpha - 1)/(2 alpha - 1) e^{-alpha lambda}) (Mironov 2017, Proposition 6).
- **finite channels**: the exact D_alpha(P || Q) = (1/(alpha - 1)) log sum_y p_y^alpha q_y^{1 - alpha},
  maximised over the ordered pairs of distinct rows (infinite when some q_y = 0 < p_y). k-ary randomized
  response (binary: k = 2) has p = e^eps/(e^eps + k - 1) on the true value and q = 1/(e^eps + k - 1)
  elsewhere, so for either order of any pair
  eps_alpha = (1/(alpha - 1)) log((e^{alpha eps} + e^{(1 - alpha) eps} + k - 2) / (e^eps + k - 1)).
- **Poisson-subsampled Gaussian** (rate q, noise sigma, sensitivity 1, add/remove neighbours) at integer
  alpha >= 2: eps_alpha = log(A_alpha) / (alpha - 1) with
  A_alpha = sum_{j=0}^{alpha} C(alpha, j) (1 - q)^{alpha - j} q^j exp((j^2 - j) / (2 sigma^2))
  (Mironov, Talwar, Zhang, "Rényi Differential Privacy of the Sampled Gaussian Mechanism", 2019,
  Section 3.3). It is the exact RDP for both orders of the pair: their Section 3 reduces the mechanism to
  mu_0 = N(0, sigma^2) against mu = (1 - q) mu_0 + q N(1, sigma^2) and shows A_alpha >= B_alpha, the
  other order's moment. Sensitivity D acts as noise sigma / D. Fractional orders are not offered.
- **pure eps-DP** (any mechanism): eps_alpha = min(eps, alpha eps^2 / 2): eps-DP bounds every D_alpha by
  eps (D_alpha <= D_infinity), and is (eps^2/2)-zCDP (Bun and Steinke, TCC 2016, Proposition 3.3).

Composition: RDP at each order adds over (adaptively) composed mechanisms (Mironov 2017, Proposition 1);
k copies multiply it by k. A composed curve is known at the orders both parts know.

Conversion (Canonne, Kamath, Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020,
Proposition 12): (alpha, eps_alpha)-RDP implies (eps, delta)-DP for
eps = eps_alpha + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1), equivalently
delta = exp((alpha - 1)(eps_alpha - eps)) / alpha * (1 - 1/alpha)^{alpha - 1}. Every order gives a valid
bound, so the order is chosen in floating point; the chosen order's expression is then evaluated in
interval arithmetic and its upper end is reported, with eps clipped below at 0 and delta above at 1.

Rigour: every eps_alpha is evaluated in mpmath interval arithmetic (:func:`interval_context`, outward
rounding) and the curve stores the interval's upper end as an exact dyadic ``Rational`` (``sympy.oo`` for
an infinite divergence), so each stored value is >= the true eps_alpha, composition adds and multiplies
them exactly, and every reported number is rounded up. The working precision starts at what the
formula's cancellation needs (e^{eps} - 1 at small eps, lambda or q) and is raised 4-fold once when an
enclosure is wider than 2^-50 relative; a wide enclosure would only loosen the bound, never break it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import mpmath
import sympy
from mpmath.ctx_iv import MPIntervalContext

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.mp_enclosures import exact_interval, float_enclosure, interval_ends, log2_inverse
from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    decided_sign,
    require_eps,
    require_int,
    require_positive,
    require_real,
)

__all__ = [
    "DEFAULT_ORDERS",
    "RdpCurve",
    "finite_rdp",
    "gaussian_rdp",
    "laplace_rdp",
    "pure_dp_rdp",
    "randomized_response_rdp",
    "subsampled_gaussian_rdp",
]

SOURCES = {
    "composition": "Mironov, \"Renyi Differential Privacy\" (CSF 2017), Proposition 1 (composition)",
    "conversion": "Canonne, Kamath, Steinke, \"The Discrete Gaussian for Differential Privacy\" (NeurIPS 2020), "
                  "Proposition 12",
    "gaussian": "Mironov (CSF 2017), Proposition 7",
    "laplace": "Mironov (CSF 2017), Proposition 6",
    "finite": "exact Renyi divergence of finite distributions, max over ordered pairs of rows",
    "subsampled_gaussian": "Mironov, Talwar, Zhang, \"Renyi Differential Privacy of the Sampled Gaussian Mechanism\" "
                           "(2019), Section 3.3",
    "pure_dp": "Bun and Steinke (TCC 2016), Proposition 3.3; D_alpha <= D_infinity",
}

_R = sympy.Rational
DEFAULT_ORDERS: tuple[sympy.Rational, ...] = (
    (_R(5, 4), _R(3, 2), _R(7, 4)) + tuple(sympy.Integer(a) for a in range(2, 65))
    + tuple(sympy.Integer(a) for a in (80, 96, 128, 256, 512, 1024)))
"""The default orders: 1.25, 1.5, 1.75, the integers 2..64, 80, 96, 128, 256, 512, 1024. The subsampled
Gaussian uses the integers among them."""

ORDER_MIN = 1 + _R(1, 10**6)
ORDER_MAX = 10**4
MAX_ORDERS = 256
"""Orders are rationals in [1 + 10^-6, 10^4], at most 256 of them. Near 1 the factor 1/(alpha - 1) costs
log2(1/(alpha - 1)) bits of precision; the upper end bounds the subsampled Gaussian's alpha + 1 terms per
order and the size of e^{(alpha - 1) lambda}. The default orders reach 1024."""

SIGMA_RANGE = (_R(1, 10**3), sympy.Integer(10**6))
SCALE_RANGE = (_R(1, 10**6), sympy.Integer(10**6))
"""sigma (Gaussian noise) in [10^-3, 10^6]; the Laplace scale b and every sensitivity in [10^-6, 10^6].
At the ends one Gaussian step costs alpha * 5 * 10^5 or alpha * 5 * 10^-13 (sensitivity 1), far past any
useful privacy level either way, and the precision that tiny values need (2 log2(sigma / sensitivity) bits
for the subsampled Gaussian, 2 log2(b / sensitivity) for Laplace) stays bounded."""

Q_MIN = _R(1, 10**12)
"""The sampling rate q lies in [10^-12, 1]: log A_alpha ~ C(alpha, 2) q^2 / sigma^2 costs 2 log2(1/q) bits."""

MAX_SUBSAMPLED_TERMS = 2 * 10**5
"""The subsampled Gaussian's sums have alpha + 1 terms per order: at most 2 * 10^5 over all its orders
(about 3 s; the default integer orders need 4,244)."""

RR_K_MAX = 10**9
MAX_REPEAT = 10**9
"""k-ary randomized response: k in [2, 10^9] (a closed form in k); a curve is repeated at most 10^9 times
per call (exact rational products; repeat again for more)."""

MAX_FINITE_TERMS = 1024
"""finite_rdp: rows * (rows - 1) * outputs <= 1024 terms per order (measured: 1 s at the 72 default orders,
6 s at 256 orders)."""

EPS_TARGET_MAX = sympy.Integer(10**6)
"""delta(eps) answers eps in [0, 10^6]."""

_START_BITS = 128
_TIGHT = mpmath.mpf(2) ** -50


def _bits(extra: float) -> int:
    """The starting precision: 128 bits plus ``extra``, rounded up to a multiple of 64 (few contexts)."""
    return 64 * math.ceil((_START_BITS + extra) / 64)


def _tight(x) -> bool:
    low, high = interval_ends(x)
    return high - low <= max(abs(low), abs(high)) * _TIGHT


def _enclose(evaluate: Callable[[MPIntervalContext], list], bits: int) -> list:
    """``evaluate(ctx)`` at ``bits``, and once more at 4 * bits when an enclosure is wider than 2^-50 relative."""
    intervals = evaluate(interval_context(bits))
    if not all(_tight(x) for x in intervals):
        intervals = evaluate(interval_context(4 * bits))
    return intervals


def _dyadic(x: mpmath.mpf) -> sympy.Rational:
    """The exact value of a finite mpf."""
    man, exp = x.man_exp
    return sympy.Integer(man * 2**exp) if exp >= 0 else _R(man, 2**-exp)


def _order(name: str, value: object, *, integer: bool = False) -> sympy.Rational:
    """One order: a rational in [ORDER_MIN, ORDER_MAX] (an integer in [2, ORDER_MAX] with ``integer``)."""
    if integer:
        return sympy.Integer(require_int(name, value, minimum=2, maximum=ORDER_MAX))
    alpha = require_real(name, value, low=ORDER_MIN, high=ORDER_MAX)
    if not alpha.is_Rational:
        raise InvalidParameterError(f"{name} must be a rational number (e.g. 3/2 or 1.5). Got {alpha}")
    return alpha


def _orders(orders: object, *, integer: bool = False) -> tuple[sympy.Rational, ...]:
    """The given orders, validated by :func:`_order`: 1 to MAX_ORDERS of them, in the order given."""
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Iterable):
        raise InvalidParameterError(f"orders must be a sequence of numbers. Got {type(orders).__name__}")
    items = list(orders)
    if not 1 <= len(items) <= MAX_ORDERS:
        raise InvalidParameterError(f"orders must list 1 to {MAX_ORDERS} orders. Got {len(items)}")
    return tuple(_order(f"orders[{i}]", a, integer=integer) for i, a in enumerate(items))


def _grid(orders: object, *, integer: bool = False) -> tuple[sympy.Rational, ...]:
    """A constructor's orders: validated, distinct and increasing."""
    return tuple(sorted(set(_orders(orders, integer=integer))))


def _value(name: str, value: object) -> sympy.Expr:
    """An RDP value: ``sympy.oo`` or an exact real >= 0."""
    if value == sympy.oo:
        return sympy.oo
    return require_real(name, value, low=0)


@dataclass(frozen=True)
class RdpCurve:
    """Upper bounds on a mechanism's RDP: (alpha, values[i])-RDP at each ``orders[i]``.

    Attributes:
        orders: distinct rationals in [1 + 10^-6, 10^4], increasing.
        values: exact reals >= the true eps_alpha: dyadic ``Rational`` upper ends of interval enclosures
            (as the constructors make them), or ``sympy.oo`` where the divergence is infinite.
        label: what was composed, for notes.
        sources: the theorems the values rest on.
    """

    orders: tuple[sympy.Rational, ...]
    values: tuple[sympy.Expr, ...]
    label: str = field(default="", kw_only=True)
    sources: tuple[str, ...] = field(default=(), kw_only=True)

    def __post_init__(self) -> None:
        orders = _orders(self.orders)
        if any(a >= b for a, b in zip(orders, orders[1:])):
            raise InvalidParameterError(f"orders must be strictly increasing. Got {', '.join(map(str, orders))}")
        values = tuple(_value(f"values[{i}]", v) for i, v in enumerate(self.values))
        if len(values) != len(orders):
            raise InvalidParameterError(f"values must have one entry per order ({len(orders)}). Got {len(values)}")
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "sources", tuple(self.sources))

    def compose(self, other: RdpCurve) -> RdpCurve:
        """The curve of both mechanisms run on the same data: values add, at the orders both curves know."""
        theirs = dict(zip(other.orders, other.values))
        common = [(a, v + theirs[a]) for a, v in zip(self.orders, self.values) if a in theirs]
        if not common:
            raise InvalidParameterError("the two curves share no order: give them common orders")
        sources = self.sources + tuple(s for s in other.sources if s not in self.sources)
        return RdpCurve(tuple(a for a, _ in common), tuple(v for _, v in common),
                        label=f"{self.label} + {other.label}", sources=sources)

    def repeat(self, k: object) -> RdpCurve:
        """The curve of k runs of the mechanism: every value times k (k an integer in [1, 10^9])."""
        k = require_int("k", k, minimum=1, maximum=MAX_REPEAT)
        return RdpCurve(self.orders, tuple(k * v for v in self.values), label=f"{k} x ({self.label})",
                        sources=self.sources)

    __mul__ = repeat
    __rmul__ = repeat

    def _finite(self) -> list[tuple[sympy.Rational, sympy.Expr]]:
        return [(a, v) for a, v in zip(self.orders, self.values) if v != sympy.oo]

    def _source(self) -> str:
        return "; ".join((*self.sources, SOURCES["composition"], SOURCES["conversion"]))

    def epsilon(self, delta: object) -> BoundResult:
        """A certified upper bound on the eps of (eps, delta)-DP: min over orders of the CKS conversion, >= 0."""
        delta = require_real("delta", delta, low=0, high=1, low_open=True, high_open=True)
        finite = self._finite()
        if not finite:
            return BoundResult("rdp", self._source(), sympy.oo, "eps", True, f"every order is infinite; {self.label}")
        log_delta = float(sympy.log(delta).evalf(30))

        def approx(alpha: float, v: float) -> float:
            return v + math.log((alpha - 1) / alpha) - (log_delta + math.log(alpha)) / (alpha - 1)

        alpha, v = min(finite, key=lambda row: approx(float(row[0]), float(row[1])))

        def evaluate(ctx: MPIntervalContext) -> list:
            a = exact_interval(ctx, alpha)
            return [exact_interval(ctx, v) + ctx.log((a - 1) / a)
                    - (ctx.log(exact_interval(ctx, delta)) + ctx.log(a)) / (a - 1)]

        low, high = interval_ends(_enclose(evaluate, _bits(log2_inverse(alpha - 1)))[0])
        enclosure = float_enclosure(max(low, mpmath.mpf(0)), max(high, mpmath.mpf(0)))
        note = (f"order alpha = {alpha} (best of {len(finite)}), RDP there <= {float(v):.6g}; delta = {delta}; "
                f"{self.label}")
        return BoundResult("rdp", self._source(), enclosure["upper_value"], "eps", True, note, **enclosure)

    def delta(self, eps: object) -> BoundResult:
        """A certified upper bound on the delta of (eps, delta)-DP: min over orders of the CKS conversion, <= 1."""
        eps = require_real("eps", eps, low=0, high=EPS_TARGET_MAX)
        finite = self._finite()
        if not finite:
            return BoundResult("rdp", self._source(), sympy.Integer(1), "probability", True,
                               f"every order is infinite: only the trivial delta = 1; {self.label}")
        target = float(eps)

        def log_delta(alpha: float, v: float) -> float:
            return (alpha - 1) * (v - target + math.log1p(-1 / alpha)) - math.log(alpha)

        alpha, v = min(finite, key=lambda row: log_delta(float(row[0]), float(row[1])))

        def evaluate(ctx: MPIntervalContext) -> list:
            a = exact_interval(ctx, alpha)
            return [ctx.exp((a - 1) * (exact_interval(ctx, v) - exact_interval(ctx, eps) + ctx.log(1 - 1 / a))
                            - ctx.log(a))]

        low, high = interval_ends(_enclose(evaluate, _bits(log2_inverse(alpha - 1)))[0])
        enclosure = float_enclosure(min(low, mpmath.mpf(1)), high)
        if enclosure["upper_value"] > 1:  # delta <= 1 always: the trivial bound, exactly
            enclosure["upper_value"] = sympy.Integer(1)
        note = f"order alpha = {alpha} (best of {len(finite)}), RDP there <= {float(v):.6g}; eps = {eps}; {self.label}"
        return BoundResult("rdp", self._source(), enclosure["upper_value"], "probability", True, note, **enclosure)


def _curve(orders: tuple[sympy.Rational, ...], evaluate: Callable[[MPIntervalContext], list], bits: int, *,
           label: str, source: str) -> RdpCurve:
    """The curve whose values are the upper ends of ``evaluate``'s enclosures (one per order)."""
    values = tuple(_dyadic(interval_ends(x)[1]) for x in _enclose(evaluate, bits))
    return RdpCurve(orders, values, label=label, sources=(source,))


def _near_one(orders: tuple[sympy.Rational, ...]) -> int:
    """Bits that 1/(alpha - 1) costs at the smallest order."""
    return log2_inverse(orders[0] - 1)


def gaussian_rdp(sigma: object, *, sensitivity: object = 1, orders: object = DEFAULT_ORDERS) -> RdpCurve:
    """The Gaussian mechanism N(0, sigma^2): eps_alpha = alpha sensitivity^2 / (2 sigma^2) (Mironov 2017, Prop. 7).

    sigma in [10^-3, 10^6], sensitivity in [10^-6, 10^6] (the l2 sensitivity).
    """
    sigma = require_positive("sigma", sigma, at_least=SIGMA_RANGE[0], at_most=SIGMA_RANGE[1])
    sensitivity = require_positive("sensitivity", sensitivity, at_least=SCALE_RANGE[0], at_most=SCALE_RANGE[1])
    orders = _grid(orders)
    rate = sensitivity**2 / (2 * sigma**2)

    def evaluate(ctx: MPIntervalContext) -> list:
        c = exact_interval(ctx, rate)
        return [exact_interval(ctx, a) * c for a in orders]

    return _curve(orders, evaluate, _bits(0), label=f"gaussian(sigma={sigma}, sensitivity={sensitivity})",
                  source=SOURCES["gaussian"])


def laplace_rdp(b: object, *, sensitivity: object = 1, orders: object = DEFAULT_ORDERS) -> RdpCurve:
    """The Laplace mechanism Lap(b) (Mironov 2017, Prop. 6), lambda = sensitivity / b:
    eps_alpha = (1/(alpha-1)) log(alpha/(2alpha-1) e^{(alpha-1) lambda} + (alpha-1)/(2alpha-1) e^{-alpha lambda}).

    b and the l1 sensitivity in [10^-6, 10^6].
    """
    b = require_positive("b", b, at_least=SCALE_RANGE[0], at_most=SCALE_RANGE[1])
    sensitivity = require_positive("sensitivity", sensitivity, at_least=SCALE_RANGE[0], at_most=SCALE_RANGE[1])
    orders = _grid(orders)
    ratio = sensitivity / b

    def evaluate(ctx: MPIntervalContext) -> list:
        lam = exact_interval(ctx, ratio)
        out = []
        for alpha in orders:
            a = exact_interval(ctx, alpha)
            out.append(ctx.log((a * ctx.exp((a - 1) * lam) + (a - 1) * ctx.exp(-a * lam)) / (2 * a - 1)) / (a - 1))
        return out

    return _curve(orders, evaluate, _bits(2 * log2_inverse(ratio) + _near_one(orders)),
                  label=f"laplace(b={b}, sensitivity={sensitivity})", source=SOURCES["laplace"])


def randomized_response_rdp(eps: object, *, k: object = 2, orders: object = DEFAULT_ORDERS) -> RdpCurve:
    """k-ary randomized response with parameter eps (binary: k = 2), exact:
    eps_alpha = (1/(alpha-1)) log((e^{alpha eps} + e^{(1-alpha) eps} + k - 2) / (e^eps + k - 1)).

    eps in [10^-300, 10^4], k an integer in [2, 10^9].
    """
    eps = require_eps("eps", eps)
    k = require_int("k", k, minimum=2, maximum=RR_K_MAX)
    orders = _grid(orders)

    def evaluate(ctx: MPIntervalContext) -> list:
        e = exact_interval(ctx, eps)
        denominator = ctx.exp(e) + (k - 1)
        out = []
        for alpha in orders:
            a = exact_interval(ctx, alpha)
            out.append(ctx.log((ctx.exp(a * e) + ctx.exp((1 - a) * e) + (k - 2)) / denominator) / (a - 1))
        return out

    bits = _bits(2 * log2_inverse(eps) + k.bit_length() + _near_one(orders))
    return _curve(orders, evaluate, bits, label=f"randomized_response(eps={eps}, k={k})", source=SOURCES["finite"])


def finite_rdp(rows: Sequence[Sequence[object]], *, orders: object = DEFAULT_ORDERS) -> RdpCurve:
    """A finite channel (rows = inputs, exact probabilities; every pair of inputs neighbours):
    eps_alpha = max over ordered pairs of distinct rows P, Q of (1/(alpha-1)) log sum_y p_y^alpha q_y^{1-alpha}.

    Exact Rényi divergences, infinite when some q_y = 0 < p_y. At most rows * (rows - 1) * outputs
    = 1024 terms.
    """
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) < 2:
        raise InvalidParameterError("rows must be a sequence of at least 2 probability rows")
    matrix = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != len(rows[0]) or not row:
            raise InvalidParameterError(f"rows[{i}] must be a non-empty sequence as long as rows[0]")
        entries = [require_real(f"rows[{i}][{j}]", v, low=0, high=1) for j, v in enumerate(row)]
        entries = [sympy.Integer(0) if decided_sign(f"rows[{i}][{j}]", v) == 0 else v for j, v in enumerate(entries)]
        if decided_sign(f"rows[{i}]", sympy.Add(*entries) - 1) != 0:
            raise InvalidParameterError(f"rows[{i}] must sum to 1. Got {sympy.Add(*entries)}")
        matrix.append(entries)
    terms = len(matrix) * (len(matrix) - 1) * len(matrix[0])
    if terms > MAX_FINITE_TERMS:
        raise InvalidParameterError(f"rows: rows * (rows - 1) * outputs must be at most {MAX_FINITE_TERMS}. "
                                    f"Got {terms}")
    orders = _grid(orders)
    pairs = [(p, q) for p in matrix for q in matrix if p != q]
    label = f"finite({len(matrix)} x {len(matrix[0])} channel)"
    if any(pj != 0 and qj == 0 for p, q in pairs for pj, qj in zip(p, q)):
        return RdpCurve(orders, (sympy.oo,) * len(orders), label=label, sources=(SOURCES["finite"],))

    def evaluate(ctx: MPIntervalContext) -> list:
        # p^alpha q^(1-alpha) = p exp((alpha - 1)(log p - log q)), from the logs of each pair's entries
        pieces = [[(exact_interval(ctx, pj), ctx.log(exact_interval(ctx, pj)) - ctx.log(exact_interval(ctx, qj)))
                   for pj, qj in zip(p, q) if pj != 0] for p, q in pairs]
        out = []
        for alpha in orders:
            a1 = exact_interval(ctx, alpha) - 1
            low, high = mpmath.mpf(0), mpmath.mpf(0)  # max(D, 0) over pairs; D = 0 when no pair differs
            for terms_of_pair in pieces:
                total = ctx.mpf(0)
                for pj, log_ratio in terms_of_pair:
                    total += pj * ctx.exp(a1 * log_ratio)
                pair_low, pair_high = interval_ends(ctx.log(total) / a1)
                low, high = max(low, pair_low), max(high, pair_high)
            out.append(ctx.mpf((low, high)))
        return out

    return _curve(orders, evaluate, _bits(_near_one(orders)), label=label, source=SOURCES["finite"])


def subsampled_gaussian_rdp(sigma: object, q: object, *, sensitivity: object = 1,
                            orders: object = None) -> RdpCurve:
    """The Poisson-subsampled Gaussian (add/remove neighbours) at integer orders (Mironov, Talwar, Zhang 2019,
    Section 3.3): eps_alpha = log(A_alpha)/(alpha - 1),
    A_alpha = sum_{j=0}^{alpha} C(alpha, j) (1-q)^{alpha-j} q^j exp((j^2 - j) sensitivity^2 / (2 sigma^2)).

    sigma in [10^-3, 10^6], q in [10^-12, 1] (q = 1 is the Gaussian), sensitivity in [10^-6, 10^6];
    orders: integers in [2, 10^4] (default: the integers of :data:`DEFAULT_ORDERS`), with at most
    2 * 10^5 terms in all.
    """
    sigma = require_positive("sigma", sigma, at_least=SIGMA_RANGE[0], at_most=SIGMA_RANGE[1])
    q = require_real("q", q, low=Q_MIN, high=1)
    sensitivity = require_positive("sensitivity", sensitivity, at_least=SCALE_RANGE[0], at_most=SCALE_RANGE[1])
    orders = _grid([a for a in DEFAULT_ORDERS if a.is_Integer] if orders is None else orders, integer=True)
    terms = sum(int(a) + 1 for a in orders)
    if terms > MAX_SUBSAMPLED_TERMS:
        raise InvalidParameterError(f"orders: the subsampled Gaussian sums alpha + 1 terms per order, at most "
                                    f"{MAX_SUBSAMPLED_TERMS} in all. Got {terms}")
    rate = sensitivity**2 / (2 * sigma**2)
    top = int(orders[-1])

    def evaluate(ctx: MPIntervalContext) -> list:
        c, qq = exact_interval(ctx, rate), exact_interval(ctx, q)
        q_powers, rest_powers, growth = [ctx.mpf(1)], [ctx.mpf(1)], []
        for j in range(top + 1):
            q_powers.append(q_powers[-1] * qq)
            rest_powers.append(rest_powers[-1] * (1 - qq))
            growth.append(ctx.exp(c * (j * j - j)))
        out = []
        for alpha in orders:
            n = int(alpha)
            total, binomial = ctx.mpf(0), 1
            for j in range(n + 1):
                total += ctx.mpf(binomial) * rest_powers[n - j] * q_powers[j] * growth[j]
                binomial = binomial * (n - j) // (j + 1)
            out.append(ctx.log(total) / (n - 1))
        return out

    bits = _bits(2 * log2_inverse(q) + log2_inverse(rate))
    return _curve(orders, evaluate, bits, label=f"subsampled_gaussian(sigma={sigma}, q={q}, sensitivity={sensitivity})",
                  source=SOURCES["subsampled_gaussian"])


def pure_dp_rdp(eps: object, *, orders: object = DEFAULT_ORDERS) -> RdpCurve:
    """Any eps-DP mechanism: eps_alpha = min(eps, alpha eps^2 / 2) (D_alpha <= D_infinity; Bun and Steinke 2016,
    Prop. 3.3: eps-DP is (eps^2/2)-zCDP). eps in [10^-300, 10^4]."""
    eps = require_eps("eps", eps)
    orders = _grid(orders)
    # alpha eps^2 / 2 <= eps exactly when alpha eps <= 2, decided exactly
    small = [decided_sign("eps", alpha * eps - 2) <= 0 for alpha in orders]

    def evaluate(ctx: MPIntervalContext) -> list:
        e = exact_interval(ctx, eps)
        return [exact_interval(ctx, alpha) * e * e / 2 if zcdp else e for alpha, zcdp in zip(orders, small)]

    return _curve(orders, evaluate, _bits(0), label=f"pure_dp(eps={eps})", source=SOURCES["pure_dp"])
