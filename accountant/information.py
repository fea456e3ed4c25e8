"""Mutual-information bounds for clustering from local-DP sketches (Banerjee, Hegde and Massoulié).

Setting (spec ``banerjee_price_of_privacy.md`` §1.2): a clustering ``Z`` uniform on ``{0,1}^N``; a user
sees a uniform ``w``-subset ``I`` of the items ``0..N-1`` and their labels ``Z_I``; she releases a sketch
``S`` of her record ``(I, Z_I)`` that is eps-LDP (any two records are neighbours). The functions here
bound ``I(Z; S)``, the information one user gives about the clustering.

Units. Every bound here is in **nats** unless a ``units`` argument says otherwise. The channel-mismatch
bounds (Lemma 9/18/25 and everything built on them: Theorems 10, 13, 14, 17) use ``log x <= x - 1``,
which holds only for the natural logarithm; they are false in bits (spec §9 E1). Convert to bits with
``log2(e) = 1/ln 2`` (:data:`LOG2E`) before using Fano's inequality, which takes bits.

Exactness. Probabilities and bounds are exact: Python ``Fraction``/``int`` inside, sympy numbers in the
results. ``R(N, w) = C(N-w, w)/C(N, w)`` and the hypergeometric overlap law are computed with exact
integers for ``w <= EXACT_W_MAX``. Above that, ``R`` comes from ``lgamma`` in mpmath interval arithmetic
(:data:`INTERVAL_BITS`-bit, outward rounding) and the result is a rigorous enclosure ``[lower, upper]``
whose ``value`` is the conservative end; the :class:`~accountant.bound_result.BoundResult` note says so.
An exact rational too long to print (over :data:`MAX_EXACT_DIGITS` digits) is reported the same way,
rounded outward to 40 significant digits. The Theorem 14 tail ``1 + w^2/N - (1 + 2w^2/(N-2w+1)) R``
cancels catastrophically in float64 (it is about ``w^4/N^2``); it is never computed in floating point.

References: 000_0c6e7fdc3fd68303.txt (Lemmas 6, 9, 11, 12, 25, 28; Theorems 10, 13, 14, 17).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction

import sympy
from mpmath.ctx_iv import MPIntervalContext

from accountant.bound_result import BoundResult
from mechanisms.exact_arithmetic import (
    UndecidedSignError,
    cancel_exponentials,
    exact_sign,
)
from mechanisms.parameters import (
    InvalidParameterError,
    require_int,
    require_positive,
    to_exact,
)
from proofs.channel import ExactChannel

__all__ = [
    "EXACT_RATIO_W_MAX",
    "EXACT_W_MAX",
    "INTERVAL_BITS",
    "LOG2E",
    "MAX_EXACT_DIGITS",
    "SOURCE",
    "adaptive_min_queries",
    "binomial_ratio",
    "binomial_ratio_bounds",
    "cluster_channel",
    "lemma6_bound",
    "lemma9_rhs",
    "lemma12_sandwich",
    "lemma25_rhs",
    "mutual_information",
    "per_user_mi_bound",
    "posterior_prior_ratios",
    "records",
    "rigorous_interval",
    "sketch_information",
    "theorem10_bound",
    "theorem13_bound",
    "theorem14_bound",
    "theorem14_main_term",
    "theorem14_main_term_bound",
    "theorem17_adaptive_bound",
]

SOURCE = "000_0c6e7fdc3fd68303.txt"
"""The seed paper: Banerjee, Hegde and Massoulié, "The Price of Privacy in Untrusted Recommendation Engines"."""

LOG2E = 1 / sympy.log(2)
"""log2(e) = 1/ln 2, exactly: multiply nats by it to get bits."""

EXACT_W_MAX = 2000
"""Closed-form bounds use exact integer arithmetic for w <= EXACT_W_MAX, mpmath intervals above."""

EXACT_RATIO_W_MAX = 20000
""":func:`binomial_ratio` and :func:`lemma12_sandwich` (always exact) refuse larger w: use :func:`binomial_ratio_bounds`."""

INTERVAL_BITS = 256
"""Working precision of the interval path. Results are outward-rounded; lgamma is widened further."""

MAX_EXACT_DIGITS = 1000
"""Exact rationals with more digits than this are reported as a 40-digit outward enclosure."""

_COMPACT_DIGITS = 40
_SERIES_MU_MAX = 4000  # above this mean overlap w^2/N the convex-order enclosure is used (width < e^-2000)

_IV = MPIntervalContext()
_IV.prec = INTERVAL_BITS


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------

def _integer(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None,
             range_text: str | None = None) -> int:
    """``value`` as an int in [minimum, maximum]; accepts integer-valued exact numbers such as "1e12"."""
    try:
        number = require_int(name, value)
    except InvalidParameterError:
        if isinstance(value, bool):
            raise
        try:
            exact = to_exact(name, value)
        except InvalidParameterError:
            raise InvalidParameterError(f"{name} must be an integer{_range(minimum, maximum, range_text)}. "
                                        f"Got {value!r}") from None
        if not exact.is_Integer:
            raise InvalidParameterError(f"{name} must be an integer{_range(minimum, maximum, range_text)}. "
                                        f"Got {value!r}") from None
        number = int(exact)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise InvalidParameterError(f"{name} must be an integer{_range(minimum, maximum, range_text)}. Got {number}")
    return number


def _range(minimum: int | None, maximum: int | None, text: str | None) -> str:
    if text is not None:
        return f" in {text}"
    if minimum is not None and maximum is not None:
        return f" in [{minimum}, {maximum}]"
    if minimum is not None:
        return f" >= {minimum}"
    if maximum is not None:
        return f" <= {maximum}"
    return ""


def _eps(value: object, name: str = "eps") -> sympy.Expr:
    return require_positive(name, value)


def _items(N: object, w: object, *, w_max: str = "N") -> tuple[int, int]:
    """N >= 2 and 1 <= w <= N (or <= N/2 with ``w_max="N/2"``)."""
    n = _integer("N", N, minimum=2)
    if w_max == "N/2":
        return n, _integer("w", w, minimum=1, maximum=n // 2, range_text=f"[1, N/2] = [1, {n // 2}]")
    return n, _integer("w", w, minimum=1, maximum=n, range_text=f"[1, N] = [1, {n}]")


def _units(units: str) -> str:
    if units not in ("nats", "bits"):
        raise InvalidParameterError(f"units must be 'nats' or 'bits'. Got {units!r}")
    return units


def _sign(name: str, expr: sympy.Expr) -> int:
    """The exact sign of a closed-form real: from a rigorous interval when it excludes 0, else exact_sign."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return (expr.p > 0) - (expr.p < 0)
    try:
        lower, upper = rigorous_interval(expr)
        if lower > 0:
            return 1
        if upper < 0:
            return -1
    except (ArithmeticError, ValueError, TypeError, sympy.core.evalf.PrecisionExhausted):
        pass
    try:
        return exact_sign(expr)
    except UndecidedSignError as error:
        raise InvalidParameterError(f"{name}: could not decide the sign of {expr}") from error


def _nonnegative(name: str, value: object) -> sympy.Expr:
    expr = to_exact(name, value)
    if _sign(name, expr) < 0:
        raise InvalidParameterError(f"{name} must be >= 0. Got {expr}")
    return expr


def _probability_open(name: str, value: object) -> sympy.Expr:
    """An exact number in the open interval (0, 1)."""
    expr = to_exact(name, value)
    if _sign(name, expr) <= 0 or _sign(name, expr - 1) >= 0:
        raise InvalidParameterError(f"{name} must be in (0, 1). Got {expr}")
    return expr


# ---------------------------------------------------------------------------------------------
# Exact numbers, enclosures and results
# ---------------------------------------------------------------------------------------------

def _fraction(value: sympy.Expr | Fraction | int) -> Fraction | None:
    """``value`` as a Fraction when it is rational, else None."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, sympy.Rational):
        return Fraction(int(value.p), int(value.q))
    return None


def _rational(value: Fraction | int) -> sympy.Rational:
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


def _compact(num: int, den: int) -> tuple[sympy.Rational, sympy.Rational, str]:
    """num/den (den > 0, maybe unreduced) as (lower, upper, note): exact if short, else 40 digits outward."""
    if max(num.bit_length(), den.bit_length()) <= 12 * MAX_EXACT_DIGITS:
        exact = Fraction(num, den)
        if max(len(str(abs(exact.numerator))), len(str(exact.denominator))) <= MAX_EXACT_DIGITS:
            value = _rational(exact)
            return value, value, ""
    if num == 0:
        return sympy.Integer(0), sympy.Integer(0), ""
    magnitude = num.bit_length() - den.bit_length()  # log2 |num/den| within 1
    shift = _COMPACT_DIGITS - int(magnitude * 0.30103)  # decimal digits to keep after the point
    if shift >= 0:
        floor = (num * 10**shift) // den
        lower, upper = Fraction(floor, 10**shift), Fraction(floor + 1, 10**shift)
        exact = (num * 10**shift) % den == 0
    else:
        scale = den * 10**(-shift)
        floor = num // scale
        lower, upper = Fraction(floor * 10**(-shift)), Fraction((floor + 1) * 10**(-shift))
        exact = num % scale == 0
    if exact:
        upper = lower
    digits = max(num.bit_length(), den.bit_length()) * 0.30103
    note = (f"the exact rational has about {digits:.0f} digits; reported as an outward enclosure of "
            f"{_COMPACT_DIGITS} significant digits")
    return _rational(lower), _rational(upper), note


def _iv_exact(value: Fraction | int) -> object:
    """An interval containing the rational ``value`` (exact when representable)."""
    value = Fraction(value)
    return _IV._mpq((value.numerator, value.denominator))


def _iv_expr(expr: sympy.Expr) -> object:
    """An interval containing the closed-form real ``expr`` (sympy evaluation checked to 90 digits)."""
    rational = _fraction(expr)
    if rational is not None:
        return _iv_exact(rational)
    approx = sympy.Rational(expr.evalf(90, strict=True))
    radius = abs(approx) * sympy.Rational(1, 10**80) + sympy.Rational(1, 10**300)
    return _IV.mpf((_IV._mpq((int((approx - radius).p), int((approx - radius).q))).a,
                    _IV._mpq((int((approx + radius).p), int((approx + radius).q))).b))


def _iv_widen(x: object, bits: int = INTERVAL_BITS - 40) -> object:
    """x widened by 2^-bits of its magnitude on each side (safety margin for special functions)."""
    lo, hi = _iv_ends(x)
    margin = max(abs(lo), abs(hi)) / 2**bits
    return _IV.mpf((_iv_exact(lo - margin).a, _iv_exact(hi + margin).b))


_EXPONENT_LIMIT = 30000
"""End points below 2^-30000 in magnitude are rounded outward to 0 or 2^-30000 (Fractions of 2^(10^11) bits are
not computable); end points beyond 2^30000 raise OverflowError, which callers turn into an infinite bound."""


def _mpf_fraction(t: tuple, *, upward: bool) -> Fraction:
    """An mpf end point as an exact Fraction, rounded outward (``upward``) if its magnitude is extreme."""
    sign, man, exp, bc = t
    if man == 0:
        if exp == 0:
            return Fraction(0)
        raise OverflowError("interval end point is not finite")
    if exp + bc < -_EXPONENT_LIMIT:  # tiny: replace by 0 or +-2^-LIMIT on the outer side
        if upward:
            return Fraction(0) if sign else Fraction(1, 2**_EXPONENT_LIMIT)
        return Fraction(-1, 2**_EXPONENT_LIMIT) if sign else Fraction(0)
    if exp + bc > _EXPONENT_LIMIT:
        raise OverflowError("interval end point beyond 2^30000")
    value = Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**(-exp))
    return -value if sign else value


def _iv_ends(x: object) -> tuple[Fraction, Fraction]:
    """The end points of an mpmath interval as exact Fractions (outward-rounded if extreme)."""
    a, b = x._mpi_
    return _mpf_fraction(a, upward=False), _mpf_fraction(b, upward=True)


def _iv_lgamma(n: int) -> object:
    """An enclosure of ln Gamma(n) for an integer n >= 1 (mpmath's directed rounding, widened)."""
    if n <= 2:
        return _IV.mpf(0)
    return _iv_widen(_IV.loggamma(_IV.mpf(n)))


def _result(name: str, source: str, units: str, lower: sympy.Expr, upper: sympy.Expr, *, direction: str,
            note: str = "", valid: bool = True) -> BoundResult:
    """A BoundResult from an enclosure: exact when lower == upper, else value = the conservative end."""
    if lower == upper:
        return BoundResult(name, source, lower, units, valid, note)
    end = "upper" if direction == "upper" else "lower"
    value = upper if direction == "upper" else lower
    return BoundResult(name, source, value, units, valid,
                       f"{note}{'; ' if note else ''}value is the {end} end of a rigorous enclosure",
                       lower_value=lower, upper_value=upper)


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


# ---------------------------------------------------------------------------------------------
# Channels, laws and exact mutual information
# ---------------------------------------------------------------------------------------------

def _exact_entry(name: str, value: object) -> Fraction | sympy.Expr:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    expr = to_exact(name, value)
    rational = _fraction(expr)
    return rational if rational is not None else expr


def _channel_rows(channel: object, name: str = "channel") -> tuple[list[list[Fraction | sympy.Expr]], tuple]:
    """Rows (inputs) of exact probabilities and the output labels, validated: >= 0, each row sums to 1."""
    if isinstance(channel, ExactChannel):
        rows = [[channel.values[int(k)] for k in row] for row in channel.ids]
        rows = [[_fraction(v) if _fraction(v) is not None else v for v in row] for row in rows]
        return rows, channel.outputs  # ExactChannel validated itself
    if isinstance(channel, (str, bytes)) or not isinstance(channel, Sequence) or not channel:
        raise InvalidParameterError(f"{name} must be an ExactChannel or a non-empty sequence of rows. Got {channel!r}")
    rows = []
    for i, row in enumerate(channel):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or not row:
            raise InvalidParameterError(f"{name}[{i}] must be a non-empty row of probabilities. Got {row!r}")
        rows.append([_exact_entry(f"{name}[{i}][{j}]", v) for j, v in enumerate(row)])
    if len({len(r) for r in rows}) != 1:
        raise InvalidParameterError(f"{name} must have rows of equal length")
    if all(isinstance(v, Fraction) for r in rows for v in r):
        for i, r in enumerate(rows):
            if any(v < 0 for v in r):
                raise InvalidParameterError(f"{name}[{i}]: probabilities must be >= 0. Got {[str(v) for v in r]}")
            if sum(r) != 1:
                raise InvalidParameterError(f"{name}[{i}]: probabilities must sum exactly to 1. Got sum {sum(r)}")
    else:  # irrational entries: let ExactChannel decide signs and exact row sums
        ExactChannel.from_matrix([[_rational(v) if isinstance(v, Fraction) else v for v in r] for r in rows])
    return rows, tuple(range(len(rows[0])))


def _law(name: str, law: object, size: int) -> list[Fraction | sympy.Expr]:
    if isinstance(law, Mapping):
        raise InvalidParameterError(f"{name} must be a sequence of {size} probabilities (row order). Got a mapping")
    if isinstance(law, (str, bytes)) or not isinstance(law, Sequence) or len(law) != size:
        raise InvalidParameterError(f"{name} must be a sequence of {size} probabilities. Got {law!r}")
    values = [_exact_entry(f"{name}[{i}]", v) for i, v in enumerate(law)]
    for i, v in enumerate(values):
        negative = v < 0 if isinstance(v, Fraction) else _sign(f"{name}[{i}]", v) < 0
        if negative:
            raise InvalidParameterError(f"{name}[{i}] must be >= 0. Got {v}")
    total = sum(values[1:], values[0])
    if isinstance(total, Fraction):
        if total != 1:
            raise InvalidParameterError(f"{name} must sum exactly to 1. Got {total}")
    elif _sign(name, cancel_exponentials(sympy.sympify(total)) - 1) != 0:
        raise InvalidParameterError(f"{name} must sum exactly to 1. Got {total}")
    return values


def _as_sympy(value: Fraction | sympy.Expr) -> sympy.Expr:
    return _rational(value) if isinstance(value, Fraction) else sympy.sympify(value)


def mutual_information(channel_or_matrix: object, input_law: Sequence[object], *, units: str = "nats") -> sympy.Expr:
    """Exact I(X; Y) of a finite channel under an input law, by enumeration.

    ``I(X;Y) = sum_{x,y} p(x) P(y|x) log(P(y|x)/q(y))`` with ``q(y) = sum_x p(x) P(y|x)`` (natural log;
    divided by ``ln 2`` for bits). Terms with the same ratio are merged, so the result is a short
    exact sympy sum ``sum_r c_r log(r)``. Compare it rigorously with :func:`rigorous_interval` (an
    outward-rounded enclosure, fast) and, if the enclosures overlap, with
    :func:`mechanisms.parameters.exact_sign` (``exact_sign(bound - I) >= 0``).

    Args:
        channel_or_matrix: an :class:`~proofs.channel.ExactChannel` or rows (inputs) of exact
            probabilities, each row summing exactly to 1.
        input_law: one exact probability per row, summing exactly to 1.
        units: ``"nats"`` (default) or ``"bits"``.

    References: 000_0c6e7fdc3fd68303.txt, Section 2 (definition of mutual information).
    """
    units = _units(units)
    rows, _ = _channel_rows(channel_or_matrix, "channel_or_matrix")
    law = _law("input_law", input_law, len(rows))
    terms: dict[object, object] = {}
    for y in range(len(rows[0])):
        joint = [law[x] * rows[x][y] for x in range(len(rows))]
        q = sum(joint[1:], joint[0])
        if q == 0:
            continue
        for x, pxy in enumerate(joint):
            if pxy == 0 or rows[x][y] == 0:
                continue
            ratio = rows[x][y] / q
            if isinstance(ratio, Fraction):
                terms[ratio] = terms.get(ratio, 0) + pxy
            else:
                key = cancel_exponentials(sympy.sympify(ratio))
                terms[key] = terms.get(key, 0) + _as_sympy(pxy)
    total = sympy.Add(*(_as_sympy(weight) * sympy.log(_as_sympy(ratio)) for ratio, weight in terms.items()
                        if ratio != 1))
    return total / sympy.log(2) if units == "bits" else total


def rigorous_interval(expr: object) -> tuple[sympy.Rational, sympy.Rational]:
    """A rigorous enclosure (lower, upper) of a closed-form real, e.g. a :func:`mutual_information` value.

    Sums, products and integer powers of rationals, ``log`` of positive rationals and ``exp`` of
    rationals are evaluated in mpmath interval arithmetic at :data:`INTERVAL_BITS` bits (outward
    rounding), so two values compare rigorously by their enclosures -- much faster than sympy's exact
    sign decision on long sums of logs. Other forms use a 90-digit strict sympy evaluation, widened by
    10^-80 relative. If the enclosure contains 0, decide with
    :func:`mechanisms.parameters.exact_sign`.

    References: DESIGN.md "Numbers" (outward rounding).
    """
    lo, hi = _iv_ends(_iv_tree(sympy.sympify(expr)))
    return _rational(lo), _rational(hi)


def _iv_tree(expr: sympy.Expr) -> object:
    if expr.is_Rational:
        return _iv_exact(Fraction(int(expr.p), int(expr.q)))
    if isinstance(expr, sympy.Add):
        total = _IV.mpf(0)
        for term in expr.args:
            total = total + _iv_tree(term)
        return total
    if isinstance(expr, sympy.Mul):
        total = _IV.mpf(1)
        for factor in expr.args:
            total = total * _iv_tree(factor)
        return total
    if isinstance(expr, sympy.log) and expr.args[0].is_Rational and expr.args[0] > 0:
        return _IV.log(_iv_tree(expr.args[0]))
    if isinstance(expr, sympy.exp) and expr.args[0].is_Rational:
        return _IV.exp(_iv_tree(expr.args[0]))
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        power = _iv_tree(expr.base) ** int(abs(expr.exp))
        return 1 / power if expr.exp < 0 else power
    return _iv_expr(expr)


def posterior_prior_ratios(channel_or_matrix: object, prior: Sequence[object]) -> list[list[sympy.Expr | None]]:
    """The posterior/prior ratios lambda(a, s) = P(A=a | S=s)/P(A=a) of Lemma 11, exactly.

    ``lambda(a, s) = P(S=s | A=a) / sum_{a'} P(A=a') P(S=s | A=a')``. If the channel is eps-DP for all
    pairs of inputs, every ratio lies in ``[e^-eps, e^eps]``: numerator and denominator are both
    between the smallest and largest entry of column s. Entries are ``None`` where P(A=a) = 0 or
    P(S=s) = 0 (the ratio is undefined).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 11.
    """
    rows, _ = _channel_rows(channel_or_matrix, "channel_or_matrix")
    law = _law("prior", prior, len(rows))
    out: list[list[sympy.Expr | None]] = [[None] * len(rows[0]) for _ in rows]
    for s in range(len(rows[0])):
        terms = [law[a] * rows[a][s] for a in range(len(rows))]
        ps = sum(terms[1:], terms[0])
        if ps == 0:
            continue
        for a in range(len(rows)):
            if law[a] != 0:
                ratio = rows[a][s] / ps
                out[a][s] = _rational(ratio) if isinstance(ratio, Fraction) else cancel_exponentials(ratio)
    return out


# ---------------------------------------------------------------------------------------------
# Records, the channel-mismatch bound (Lemma 9) and its general form (Lemma 25)
# ---------------------------------------------------------------------------------------------

Record = tuple[tuple[int, ...], tuple[int, ...]]


def records(N: object, w: object) -> tuple[Record, ...]:
    """The user records D = [N]_w x {0,1}^w as ``(items, labels)``, items 0..N-1 increasing.

    Order: item subsets in ``itertools.combinations`` order, then labels in ``itertools.product``
    order. ``len(records(N, w)) == C(N, w) * 2**w``. Rows of channels passed to :func:`lemma9_rhs`
    and :func:`cluster_channel` follow this order.
    """
    n, k = _items(N, w)
    if math.comb(n, k) * 2**k > 10**6:
        raise InvalidParameterError(f"C(N, w) 2^w must be <= 10^6 to enumerate records. Got N={n}, w={k}")
    return tuple((i, z) for i in itertools.combinations(range(n), k) for z in itertools.product((0, 1), repeat=k))


def _record_rows(channel: object, N: int, w: int) -> tuple[list[list[Fraction | sympy.Expr]], tuple[Record, ...]]:
    recs = records(N, w)
    if isinstance(channel, Mapping):
        missing = [r for r in recs if r not in channel]
        if missing:
            raise InvalidParameterError(f"channel must give a row for every record; missing {missing[0]!r}")
        outputs: list[Hashable] = []
        for r in recs:
            row = channel[r]
            if not isinstance(row, Mapping):
                raise InvalidParameterError(f"channel[{r!r}] must map outputs to probabilities. Got {row!r}")
            outputs.extend(s for s in row if s not in outputs)
        matrix = [[channel[r].get(s, 0) for s in outputs] for r in recs]
        rows, _ = _channel_rows(matrix)
    else:
        rows, _ = _channel_rows(channel)
    if len(rows) != len(recs):
        raise InvalidParameterError(f"channel must have one row per record: C(N, w) 2^w = {len(recs)} rows. "
                                    f"Got {len(rows)}")
    return rows, recs


def cluster_channel(channel: object, N: object, w: object) -> list[list[Fraction | sympy.Expr]]:
    """The channel from the clustering Z to the sketch S: ``P(s | z) = C(N,w)^-1 sum_i P(s | i, z_i)``.

    Args:
        channel: rows P(s | record) in :func:`records` order (a matrix or ExactChannel), or a mapping
            from record to ``{output: probability}``.
        N, w: items and ratings per user.

    Returns:
        Rows for z in ``itertools.product((0, 1), repeat=N)`` order, exact.

    References: 000_0c6e7fdc3fd68303.txt, Section 4 (the Markov chain Z -> (I, Z_I) -> S).
    """
    n, k = _items(N, w)
    rows, recs = _record_rows(channel, n, k)
    index = {r: j for j, r in enumerate(recs)}
    subsets = list(itertools.combinations(range(n), k))
    weight = Fraction(1, len(subsets))
    out = []
    for z in itertools.product((0, 1), repeat=n):
        acc = None
        for i in subsets:
            row = rows[index[(i, tuple(z[t] for t in i))]]
            acc = list(row) if acc is None else [a + b for a, b in zip(acc, row)]
        out.append([a * weight for a in acc])
    return out


def sketch_information(channel: object, N: object, w: object, *, units: str = "nats") -> sympy.Expr:
    """Exact I(Z; S) for Z uniform on {0,1}^N, I a uniform w-subset and S ~ channel(I, Z_I).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 9 (its left-hand side).
    """
    n, k = _items(N, w)
    matrix = cluster_channel(channel, n, k)
    return mutual_information(matrix, [Fraction(1, 2**n)] * 2**n, units=units)


def lemma9_rhs(channel: object, N: object, w: object) -> sympy.Expr:
    """The channel-mismatch bound of Lemma 9, in nats: ``sum_s P(s) (q_s^T K q_s - 1)``.

    ``q_s(x) = P((I, Z_I) = x | S = s)`` on D = [N]_w x {0,1}^w (uniform prior on D) and
    ``K[x1, x2] = 2^{|I1 ∩ I2|} 1{Z1, Z2 agree on I1 ∩ I2}``. Lemma 9: ``I(Z; S) <= RHS`` **in nats**
    for every channel P(S | I, Z_I), private or not (it is KL <= chi^2; false in bits, spec §9 E1).

    Args:
        channel: rows P(s | record) in :func:`records` order (a matrix or ExactChannel), or a mapping
            record -> {output: probability}.
        N, w: items and ratings per user (C(N, w) 2^w <= 10^6).

    Returns:
        The exact value (a Rational when the channel is rational).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 9 (eqs. 3-5).
    """
    n, k = _items(N, w)
    rows, recs = _record_rows(channel, n, k)
    subsets = list(itertools.combinations(range(n), k))
    labels = list(itertools.product((0, 1), repeat=k))
    size = len(recs)
    overlaps = {}
    for a, i1 in enumerate(subsets):
        for b, i2 in enumerate(subsets):
            common = sorted(set(i1) & set(i2))
            overlaps[a, b] = ([i1.index(t) for t in common], [i2.index(t) for t in common])
    total = Fraction(0) if all(isinstance(v, Fraction) for r in rows for v in r) else sympy.Integer(0)
    for s in range(len(rows[0])):
        column = [rows[x][s] for x in range(size)]
        mass = sum(column[1:], column[0])
        if mass == 0:
            continue
        if isinstance(total, Fraction):  # integer numerators over a common denominator
            denominator = math.lcm(*(v.denominator for v in column))
            column = [v.numerator * (denominator // v.denominator) for v in column]
            mass = sum(column)
        quadratic = 0
        for a in range(len(subsets)):
            for b in range(len(subsets)):
                pos1, pos2 = overlaps[a, b]
                left: dict[tuple[int, ...], object] = {}
                right: dict[tuple[int, ...], object] = {}
                for t, z in enumerate(labels):
                    key1 = tuple(z[p] for p in pos1)
                    key2 = tuple(z[p] for p in pos2)
                    left[key1] = left.get(key1, 0) + column[a * len(labels) + t]
                    right[key2] = right.get(key2, 0) + column[b * len(labels) + t]
                quadratic += 2**len(pos1) * sum(v * right.get(u, 0) for u, v in left.items())
        # P(s) (q^T K q - 1) = (1/D) (sum_{x1,x2} P(s|x1) P(s|x2) K / sum_x P(s|x) - sum_x P(s|x))
        if isinstance(total, Fraction):
            total += (Fraction(quadratic, mass) - mass) / (denominator * size)
        else:
            total += (sympy.sympify(quadratic) / mass - mass) / size
    return _rational(total) if isinstance(total, Fraction) else cancel_exponentials(sympy.sympify(total))


def lemma25_rhs(posterior: Mapping[Record, object], z_law: object, N: object | None = None) -> sympy.Expr:
    """The general channel-mismatch bound of Lemma 25 (= Lemma 18) for one sketch value s, in nats.

    ``RHS_s = sum_{(i,a),(i',a')} p_s(i,a) p_s(i',a') [1{a ≡ a'} P(Z_{i∪i'} = a∪a') / (P(Z_i=a) P(Z_i'=a')) - 1]``
    where ``p_s(i, a) = P((I, Z_I) = (i, a) | S = s)`` and ``a ≡ a'`` means the labels agree on i ∩ i'.
    Lemma 25: ``KL(P_{Z|S=s} || P_Z) <= RHS_s`` for any law of Z and any law of I independent of Z
    (Jensen, then ``log x <= x - 1``: nats only).

    Args:
        posterior: mapping ``(items, labels) -> p_s(items, labels)``, exact, summing to 1 (items are
            increasing tuples over 0..N-1, labels a 0/1 tuple of the same length).
        z_law: the law of Z: a mapping ``z tuple -> probability`` or a sequence of 2^N probabilities in
            ``itertools.product((0, 1), repeat=N)`` order, exact, summing to 1.
        N: number of items (inferred from ``z_law`` when omitted).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 25 (Appendix C; Lemma 18 in Section 6).
    """
    if isinstance(z_law, Mapping):
        keys = list(z_law)
        if not keys or not all(isinstance(k, tuple) for k in keys):
            raise InvalidParameterError("z_law must map 0/1 tuples z to probabilities")
        n = len(keys[0]) if N is None else _integer("N", N, minimum=1)
        space = list(itertools.product((0, 1), repeat=n))
        unknown = [k for k in keys if k not in set(space)]
        if unknown:
            raise InvalidParameterError(f"z_law keys must be 0/1 tuples of length N={n}. Got {unknown[0]!r}")
        law = _law("z_law", [z_law.get(z, 0) for z in space], len(space))
    else:
        if isinstance(z_law, (str, bytes)) or not isinstance(z_law, Sequence):
            raise InvalidParameterError(f"z_law must be a mapping or a sequence of 2^N probabilities. Got {z_law!r}")
        n = (len(z_law).bit_length() - 1) if N is None else _integer("N", N, minimum=1)
        if len(z_law) != 2**n:
            raise InvalidParameterError(f"z_law must have 2^N = {2**n} entries. Got {len(z_law)}")
        space = list(itertools.product((0, 1), repeat=n))
        law = _law("z_law", z_law, len(space))
    if not isinstance(posterior, Mapping) or not posterior:
        raise InvalidParameterError(f"posterior must be a non-empty mapping record -> probability. Got {posterior!r}")
    post = []
    for key, p in posterior.items():
        if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(t, tuple) for t in key)
                and len(key[0]) == len(key[1]) and all(0 <= t < n for t in key[0])
                and list(key[0]) == sorted(set(key[0])) and all(v in (0, 1) for v in key[1])):
            raise InvalidParameterError(f"posterior keys must be (items, labels) records over N={n} items. Got {key!r}")
        value = _exact_entry(f"posterior[{key!r}]", p)
        if value != 0:
            post.append((key, value))
    values = [v for _, v in post]
    _law("posterior", values, len(values))

    def marginal(items: tuple[int, ...], labels: tuple[int, ...]):
        terms = [law[j] for j, z in enumerate(space) if all(z[t] == v for t, v in zip(items, labels))]
        return sum(terms[1:], terms[0]) if terms else 0

    cache: dict[tuple, object] = {}

    def prob(items, labels):
        key = (items, labels)
        if key not in cache:
            cache[key] = marginal(items, labels)
        return cache[key]

    total = 0
    for (i1, a1), p1 in post:
        m1 = prob(i1, a1)
        if m1 == 0:
            raise InvalidParameterError(f"posterior gives probability to record {(i1, a1)!r}, impossible under z_law")
        for (i2, a2), p2 in post:
            joint = dict(zip(i1, a1))
            if any(joint.get(t, v) != v for t, v in zip(i2, a2)):
                continue  # the labels disagree on the overlap
            joint.update(zip(i2, a2))
            items = tuple(sorted(joint))
            total += p1 * p2 * prob(items, tuple(joint[t] for t in items)) / (m1 * prob(i2, a2))
    total -= 1
    return _rational(total) if isinstance(total, Fraction) else cancel_exponentials(sympy.sympify(total))


# ---------------------------------------------------------------------------------------------
# Lemma 6, Theorem 10, Lemma 12
# ---------------------------------------------------------------------------------------------

def lemma6_bound(eps: object, *, units: str = "nats") -> BoundResult:
    """Lemma 6: through an eps-LDP channel, ``I(X; Y | Z) <= eps`` nats ``= eps log2(e)`` bits.

    Why: every posterior/prior ratio of an eps-LDP output is at most e^eps (Lemma 11), so each
    log-likelihood term is at most eps. Valid for every eps and every side information Z (hence for
    adaptive schemes), but loose for small eps (the bit release gives about eps^2/8).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 6.
    """
    e = _eps(eps)
    units = _units(units)
    value = e if units == "nats" else e * LOG2E
    return BoundResult("lemma6", f"{SOURCE}, Lemma 6", value, units, True,
                       "I(X;Y|Z) <= eps for any eps-LDP channel, adaptive or not")


def theorem10_bound(A: Iterable[tuple[int, int]], N: object) -> sympy.Rational:
    """Theorem 10's exact bound for the 1-bit sketch S = 1_A(I, Z), w = 1, in nats.

    ``I(Z; S) <= (|C1|/(2N)) (1/|A| + 1/(2N - |A|)) <= 1/N`` with
    ``C1 = {i : exactly one of (i, 0), (i, 1) is in A}``. For A empty or all of [N] x {0,1} the sketch
    is constant and the bound is 0.

    Args:
        A: a set of pairs (i, z) with 0 <= i < N and z in {0, 1}.
        N: number of items (>= 2).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 10 (proof, identity (6)).
    """
    n = _integer("N", N, minimum=2)
    pairs = set()
    for pair in A:
        if not (isinstance(pair, tuple) and len(pair) == 2 and pair[1] in (0, 1)
                and isinstance(pair[0], int) and 0 <= pair[0] < n):
            raise InvalidParameterError(f"A must contain pairs (i, z) with 0 <= i < N={n} and z in {{0, 1}}. "
                                        f"Got {pair!r}")
        pairs.add(pair)
    size = len(pairs)
    if size in (0, 2 * n):
        return sympy.Integer(0)
    c1 = sum(1 for i in {i for i, _ in pairs} if ((i, 0) in pairs) != ((i, 1) in pairs))
    return _rational(Fraction(c1, 2 * n) * (Fraction(1, size) + Fraction(1, 2 * n - size)))


def _ratio_pair(N: int, w: int) -> tuple[int, int]:
    """R(N, w) = prod_{k<w} (N-w-k)/(N-k) as an unreduced (numerator, denominator) pair."""
    if 2 * w > N:
        return 0, 1
    return _product(range(N - 2 * w + 1, N - w + 1)), _product(range(N - w + 1, N + 1))


def _product(values: Iterable[int]) -> int:
    items = list(values)
    if not items:
        return 1
    while len(items) > 1:
        paired = [items[i] * items[i + 1] for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            paired.append(items[-1])
        items = paired
    return items[0]


def binomial_ratio(N: object, w: object) -> sympy.Rational:
    """R(N, w) = C(N-w, w)/C(N, w) = prod_{k=0}^{w-1} (1 - w/(N-k)), exactly (0 when 2w > N).

    R is the probability that two independent uniform w-subsets of [N] are disjoint. Cost: O(w)
    big-integer products, so w <= 20000; :func:`binomial_ratio_bounds` encloses R for any w.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 12 (= Lemma 26).
    """
    n, k = _items(N, w)
    if k > EXACT_RATIO_W_MAX:
        raise InvalidParameterError(f"w must be <= {EXACT_RATIO_W_MAX} for the exact ratio (use "
                                    f"binomial_ratio_bounds). Got {k}")
    num, den = _ratio_pair(n, k)
    return _rational(Fraction(num, den))


def _iv_ratio(N: int, w: int) -> object:
    """An interval enclosing R(N, w), from lgamma: ln R = 2 lnG(N-w+1) - lnG(N-2w+1) - lnG(N+1)."""
    if 2 * w > N:
        return _IV.mpf(0)
    log_ratio = 2 * _iv_lgamma(N - w + 1) - _iv_lgamma(N - 2 * w + 1) - _iv_lgamma(N + 1)
    value = _IV.exp(log_ratio)
    _, hi = _iv_ends(value)
    return value if hi <= 1 else _IV.mpf((value.a, 1))  # R <= 1


def binomial_ratio_bounds(N: object, w: object) -> tuple[sympy.Rational, sympy.Rational]:
    """An enclosure (lower, upper) of R(N, w) = C(N-w, w)/C(N, w) for any 1 <= w <= N.

    Exact (lower == upper) for w <= :data:`EXACT_W_MAX` when the rational is short enough to print;
    otherwise rigorous: mpmath interval arithmetic on ln R = 2 lnGamma(N-w+1) - lnGamma(N-2w+1) -
    lnGamma(N+1) at :data:`INTERVAL_BITS` bits, with lnGamma enclosures widened by 2^-216 relative.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 12.
    """
    n, k = _items(N, w)
    if k <= EXACT_W_MAX:
        lower, upper, _ = _compact(*_ratio_pair(n, k))
        return lower, upper
    lo, hi = _iv_ends(_iv_ratio(n, k))
    return _rational(lo), _rational(hi)


def lemma12_sandwich(N: object, w: object) -> tuple[sympy.Rational, sympy.Rational, sympy.Rational]:
    """Lemma 12's exact sandwich ``(1 - w/(N-w+1))^w <= R(N, w) <= (1 - w/N)^w`` for 1 <= w <= N/2.

    Returns ``(lower, R, upper)``, all exact Rationals. Every factor of
    ``R = prod_{k<w} (1 - w/(N-k))`` lies between ``1 - w/(N-w+1)`` and ``1 - w/N``. (The paper's
    ``|R - (1 - w^2/N)| = Theta(w^4/N^2)`` is false at w = 1 and for w >> sqrt N, spec §9 E5.)

    References: 000_0c6e7fdc3fd68303.txt, Lemma 12 (= Lemma 26).
    """
    n, k = _items(N, w, w_max="N/2")
    ratio = binomial_ratio(n, k)
    lower = sympy.Rational(n - 2 * k + 1, n - k + 1) ** k
    upper = sympy.Rational(n - k, n) ** k
    return lower, ratio, upper


# ---------------------------------------------------------------------------------------------
# The overlap law and Theorems 13, 14
# ---------------------------------------------------------------------------------------------

_FULL_SERIES_W = 200
"""Up to this w the overlap series is summed in full (exact); above it, it is cut where the terms fall
below 2^-300 of the largest and the rest is bounded exactly by a geometric series."""


def _series(N: int, w: int) -> tuple[int, int, Fraction]:
    """sum_{k=0}^{w} c_k with c_0 = 1, c_{k+1} = c_k r_k, r_k = (w-k)^2 / (2 (k+1) (N-2w+1+k)), for 2w <= N.

    Then E[2^-K] = R(N, w) * sum_k c_k for K ~ Hypergeometric(N, w, w) (h(k) = R c_k 2^k).
    Returns (a, b, tail): a/b is the sum up to the cut, computed exactly by Horner's rule on integers,
    and ``tail`` an exact upper bound on the rest (0 when the sum is complete). The ratios r_k
    decrease in k, so the rest is at most ``c_cut r_cut / (1 - r_cut)`` once r_cut < 1.
    """
    m = N - 2 * w + 1
    cut = w
    if w > _FULL_SERIES_W:
        log_term, best = 0.0, 0.0
        for k in range(w):
            ratio = (w - k) ** 2 / (2 * (k + 1) * (m + k))
            log_term += math.log(ratio)
            best = max(best, log_term)
            if ratio < 0.5 and log_term < best - 210:  # c_{k+1} < e^-210 max_j c_j, about 2^-303
                cut = k + 1
                break
    a, b = 1, 1
    for k in range(cut - 1, -1, -1):
        n_k, d_k = (w - k) ** 2, 2 * (k + 1) * (m + k)
        a, b = d_k * b + n_k * a, d_k * b
    if cut >= w:
        return a, b, Fraction(0)
    rho = Fraction((w - cut) ** 2, 2 * (cut + 1) * (m + cut))
    c_cut = Fraction(_product((w - k) ** 2 for k in range(cut)), _product(2 * (k + 1) * (m + k) for k in range(cut)))
    return a, b, c_cut * rho / (1 - rho)


def _overlap_exact(N: int, w: int, form: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Exact (lower, upper) pairs (num, den) of the eps-free bracket ``form``, for w <= EXACT_W_MAX.

    Brackets, with K ~ Hypergeometric(N, w, w), R = P(K=0), h1 = P(K=1):
    ``thm13`` = 1 - E[2^-K]; ``thm13-paper`` = 1 - R - h1/2; ``thm14`` = 1 + w^2/N - R - 2 h1.
    """
    if 2 * w > N:  # then N < 2 EXACT_W_MAX: direct binomial sums, exact
        total = math.comb(N, w)
        h = {k: math.comb(w, k) * math.comb(N - w, w - k) for k in range(2 * w - N, w + 1)}
        r, h1 = h.get(0, 0), h.get(1, 0)
        if form == "thm13":
            pair = (total * 2**w - sum(v * 2**(w - k) for k, v in h.items()), total * 2**w)
        elif form == "thm13-paper":
            pair = (2 * total - 2 * r - h1, 2 * total)
        else:
            pair = (N * total + w * w * total - N * r - 2 * N * h1, N * total)
        return pair, pair
    rn, rd = _ratio_pair(N, w)
    m = N - 2 * w + 1
    if form == "thm13-paper":  # 1 - R - w^2 R / (2m)
        pair = (2 * m * rd - 2 * m * rn - w * w * rn, 2 * m * rd)
        return pair, pair
    if form == "thm14":  # 1 + w^2/N - R (1 + 2 w^2/m)
        pair = (N * m * rd + w * w * m * rd - N * (m + 2 * w * w) * rn, N * m * rd)
        return pair, pair
    a, b, tail = _series(N, w)  # 1 - R a/b - R tail <= 1 - E[2^-K] <= 1 - R a/b
    upper = (rd * b - rn * a, rd * b)
    tn, td = tail.numerator, tail.denominator
    lower = (rd * b * td - rn * (a * td + tn * b), rd * b * td)
    return lower, upper


def _overlap_intervals(N: int, w: int, form: str) -> object:
    """An interval enclosing the bracket ``form`` (see :func:`_overlap_exact`) for large w."""
    m = N - 2 * w + 1
    ratio = _iv_ratio(N, w)
    if m >= 1:
        h1 = ratio * _iv_exact(Fraction(w * w, m))
    elif m == 0:  # N = 2w - 1: P(K=1) = w C(w-1, w-1)/C(N, w) = w/C(N, w)
        log_c = _iv_lgamma(N + 1) - _iv_lgamma(w + 1) - _iv_lgamma(N - w + 1)
        h1 = _IV.mpf((0, (_IV.mpf(w) * _IV.exp(-log_c)).b))
    else:
        h1 = _IV.mpf(0)
    if form == "thm13-paper":
        return 1 - ratio - h1 / 2
    if form == "thm14":
        return 1 + _iv_exact(Fraction(w * w, N)) - ratio - 2 * h1
    mu = Fraction(w * w, N)
    if m >= 1 and mu <= _SERIES_MU_MAX:
        a, b, tail = _series(N, w)
        partial = _IV._mpq((a, b))
        s = ratio * _IV.mpf((partial.a, (partial + _iv_exact(tail)).b))
    else:
        # Convex order (Hoeffding 1963) and Jensen for the convex k -> 2^-k:
        # 2^-(w^2/N) <= E[2^-Hypergeometric] <= E[2^-Binomial(w, w/N)] = (1 - w/(2N))^w.
        low = _IV.exp(-_iv_exact(mu) * _IV.ln2)
        high = _IV.exp(_IV.mpf(w) * _IV.log(_iv_exact(Fraction(2 * N - w, 2 * N))))
        s = _IV.mpf((low.a, high.b))
    return 1 - s


def _bracket(N: int, w: int, form: str) -> tuple[sympy.Rational, sympy.Rational, str]:
    """Rational enclosure (lower, upper, note) of the eps-free bracket of Theorem 13 / 13-paper / 14."""
    return _bracket_cached(N, w, form, EXACT_W_MAX)


@functools.lru_cache(maxsize=512)
def _bracket_cached(N: int, w: int, form: str, exact_w_max: int) -> tuple[sympy.Rational, sympy.Rational, str]:
    if w <= exact_w_max:
        (ln, ld), (un, ud) = _overlap_exact(N, w, form)
        lower, _, n1 = _compact(ln, ld)
        _, upper, n2 = _compact(un, ud)
        truncated = (ln, ld) != (un, ud)
        note = "overlap series summed exactly to 2^-300, rest bounded exactly" if truncated else ""
        return lower, upper, _join(note, n1 or n2)
    lo, hi = _iv_ends(_overlap_intervals(N, w, form))
    lo = max(lo, Fraction(0))  # every bracket is an expectation of non-negative terms
    lower, _, _ = _compact(lo.numerator, lo.denominator)
    _, upper, _ = _compact(hi.numerator, hi.denominator)
    return lower, upper, (f"R(N, w) by mpmath interval arithmetic ({INTERVAL_BITS}-bit lgamma, widened), "
                          "ends rounded outward")


def theorem13_bound(N: object, w: object, eps: object, *, form: str = "exact") -> BoundResult:
    """Theorem 13: for every eps-LDP sketch S of (I, Z_I), ``I(Z; S) <= e^{2eps} sum_{k>=1} h(k)(1 - 2^-k)`` nats.

    ``h(k) = C(w,k) C(N-w,w-k)/C(N,w)`` is the law of the overlap K = |I1 ∩ I2| of two independent
    uniform w-subsets, so the exact form is ``e^{2eps} (1 - E[2^-K])``. Why: Lemma 9 bounds I(Z;S) by
    ``E[2^K 1{Z1 ≡ Z2} - 1] <= E[1{Z1 ≡ Z2}(2^K - 1)]``, and Lemma 11 turns each of the two independent
    posterior copies into the uniform law at a cost of e^eps each.

    ``form="paper"`` gives the paper's Delta form
    ``e^{2eps} [Delta_1 + (1 - (1 + w^2/(N-2w+1)) R)]`` with ``Delta_1 = (w^2/(2(N-2w+1))) R``
    (eqs. 8-9), i.e. ``e^{2eps}(1 - P(K=0) - P(K=1)/2)`` >= the exact form. Both are valid for all
    N, w, eps; they are O(w^2/N) and informative only for w^2 << N.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 13 (eqs. 8, 9).
    """
    n, k = _items(N, w)
    e = _eps(eps)
    if form not in ("exact", "paper"):
        raise InvalidParameterError(f"form must be 'exact' or 'paper'. Got {form!r}")
    lower, upper, note = _bracket(n, k, "thm13" if form == "exact" else "thm13-paper")
    factor = sympy.exp(2 * e)
    label = "e^{2eps} (1 - E[2^-K]), K ~ Hypergeometric(N, w, w)" if form == "exact" else \
        "paper's Delta_1 + Delta_2 form (eqs. 8-9), >= the exact form"
    if k * k >= n:
        label += "; w^2 >= N: the O(w^2/N) rate is not small here (Lemma 6 may be tighter)"
    name = "theorem13" if form == "exact" else "theorem13-paper"
    return _result(name, f"{SOURCE}, Theorem 13", "nats", factor * lower, factor * upper, direction="upper",
                   note=_join(label, note))


def theorem14_bound(N: object, w: object, eps: object) -> BoundResult:
    """Theorem 14: for every eps-LDP sketch with eps < ln 2, I(Z; S) is at most (nats)

    ``2 (e^eps - 1)^2 w/N + e^{2eps} (1 + w^2/N - (1 + 2w^2/(N-2w+1)) R(N, w))``.

    Why: Lemma 9's RHS splits into a main term ``sum_l (pi_l0 - pi_l1)^2``, bounded by
    ``2 eps'^2 w/N`` (eps' = e^eps - 1 < 1) at the vertices of the box of Lemma 28 via Bessel's
    inequality, plus overlap terms bounded by ``e^{2eps}(E K - P(K=1) + P(K>1))`` (eqs. 15-16). The
    tail is O(w^4/N^2), which is o(w/N) when w = o(N^{1/3}); the explicit bound holds for every w.
    The tail cancels catastrophically in float64 and is computed exactly (or in interval arithmetic).

    Returns ``valid=False`` (value None) when eps >= ln 2, the paper's condition.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 14 (= Theorem 27; eqs. 15-18, Lemma 28).
    """
    n, k = _items(N, w)
    e = _eps(eps)
    source = f"{SOURCE}, Theorem 14"
    if _sign("eps", e - sympy.log(2)) >= 0:
        return BoundResult("theorem14", source, None, "nats", False,
                           f"requires eps < ln 2 (so that eps' = e^eps - 1 < 1); got eps = {e} >= ln 2")
    lower, upper, note = _bracket(n, k, "thm14")
    main = theorem14_main_term_bound(n, k, e)
    factor = sympy.exp(2 * e)
    rate = "" if k**3 < n else "w^3 >= N: the bound holds, but its tail is not o(w/N)"
    return _result("theorem14", source, "nats", main + factor * lower, main + factor * upper, direction="upper",
                   note=_join("2(e^eps-1)^2 w/N + e^{2eps}(1 + w^2/N - (1 + 2w^2/(N-2w+1)) R), exact tail", rate,
                              note))


def theorem14_main_term_bound(N: object, w: object, eps: object) -> sympy.Expr:
    """Theorem 14's bound on its main term: ``sum_l (pi_l0 - pi_l1)^2 <= 2 (e^eps - 1)^2 w/N``.

    Holds for every posterior p on D with ``p_x D in [1 - eps', 1 + eps']`` (the box (18)), eps' = e^eps - 1:
    at a vertex p^A (Lemma 28), ``pi_l0 - pi_l1 = (2eps'/D)<1_A, v_l>`` with orthogonal v_l of squared
    norm wD/N, and Bessel gives ``(2eps'/D)^2 (wD/N)(D/2)``.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 14, Lemma 28.
    """
    n, k = _items(N, w)
    e = _eps(eps)
    return 2 * (sympy.exp(e) - 1) ** 2 * sympy.Rational(k, n)


def theorem14_main_term(posterior: Mapping[Record, object] | Sequence[object], N: object, w: object) -> sympy.Expr:
    """The main term ``sum_l (pi_l0 - pi_l1)^2`` of Theorem 14 for a posterior on D, exactly.

    ``pi_{l,sigma} = sum_{(i,z): l in i, z(l) = sigma} p(i, z)``. ``posterior`` is a mapping record ->
    probability or a sequence in :func:`records` order (it need not sum to 1: the box of (18) is
    checked by the caller).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 14 (identity (17)).
    """
    n, k = _items(N, w)
    recs = records(n, k)
    if isinstance(posterior, Mapping):
        values = [_exact_entry(f"posterior[{r!r}]", posterior.get(r, 0)) for r in recs]
    else:
        if isinstance(posterior, (str, bytes)) or not isinstance(posterior, Sequence) or len(posterior) != len(recs):
            raise InvalidParameterError(f"posterior must have one entry per record ({len(recs)}). Got {posterior!r}")
        values = [_exact_entry(f"posterior[{j}]", v) for j, v in enumerate(posterior)]
    diff = [0] * n
    for (items, labels), p in zip(recs, values):
        for item, label in zip(items, labels):
            diff[item] = diff[item] + (p if label == 0 else -p)
    total = sum(d * d for d in diff)
    return _rational(total) if isinstance(total, Fraction) else sympy.expand(sympy.sympify(total))


def per_user_mi_bound(N: object, w: object, eps: object) -> BoundResult:
    """The best per-user MI bound: ``min(Lemma 6, Theorem 13, Theorem 14 if eps < ln 2)``, in nats.

    Each is a valid upper bound on I(Z; S) for an eps-LDP sketch of one user's record, so their
    minimum is too (compared on their rigorous upper ends). The note names the one that gave it.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 6, Theorems 13 and 14.
    """
    n, k = _items(N, w)
    e = _eps(eps)
    candidates = [lemma6_bound(e), theorem13_bound(n, k, e), theorem14_bound(n, k, e)]
    best = None
    for candidate in candidates:
        if not candidate.valid:
            continue
        if best is None or _sign("bound", candidate.upper_value - best.upper_value) < 0:
            best = candidate
    return BoundResult("per-user", f"{SOURCE}, Lemma 6, Theorems 13-14", best.value, "nats", True,
                       f"min of lemma6, theorem13, theorem14 (if eps < ln 2): given by {best.name}",
                       lower_value=best.lower_value, upper_value=best.upper_value)


# ---------------------------------------------------------------------------------------------
# Theorem 17: adaptive queries
# ---------------------------------------------------------------------------------------------

def _adaptive_parts(N: int, e: sympy.Expr) -> tuple[sympy.Expr, object, list[int]]:
    """c = 40 (e^eps - 1)^2 / N exactly, its interval, and the candidate switch times t1 = floor(1/c) + 1."""
    c = 40 * (sympy.exp(e) - 1) ** 2 / N
    c_iv = _iv_exact(Fraction(40, N)) * (_IV.exp(_iv_expr(e)) - 1) ** 2
    inverse = 1 / c_iv
    low, high = (math.floor(end) for end in _iv_ends(inverse))
    return c, c_iv, sorted({low + 1, high + 1})


def theorem17_adaptive_bound(T: object, N: object, eps: object) -> BoundResult:
    """Theorem 17's bound delta_T on I(Z; S_1..S_T) for T adaptive eps-LDP 1-record queries (w = 1), nats.

    The recursion ``delta_{t+1} = delta_t + (C/N) max(1, delta_t)``, ``delta_0 = 0``, ``C = 40 (e^eps - 1)^2``,
    solved in closed form with c = C/N: ``delta_T = T c`` for ``T <= t1 = floor(1/c) + 1`` and
    ``delta_T = t1 c (1 + c)^{T - t1}`` after. Exact (a sympy expression) in the linear regime;
    above it, a rigorous mpmath-interval enclosure (value = its upper end).

    Why: Lemma 18 bounds each step by Var^T[F]/N^2 and Lemma 19 bounds the variance by
    ``Var^0[F] max(20, 10 delta)``. The proof has a gap (Lemma 19 needs a per-realization bound,
    spec §9 E10); treat as the paper's claim.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 17, Lemmas 18-19.
    """
    t = _integer("T", T, minimum=0)
    n = _integer("N", N, minimum=2)
    e = _eps(eps)
    source = f"{SOURCE}, Theorem 17"
    note = "delta_{t+1} = delta_t + (40(e^eps-1)^2/N) max(1, delta_t); proof sketch (spec §9 E10)"
    c, c_iv, switches = _adaptive_parts(n, e)
    if t <= switches[0]:
        value = t * c
        return BoundResult("theorem17", source, value, "nats", True, note)
    enclosure = None
    for t1 in switches:
        if t <= t1:
            part = _IV.mpf(t) * c_iv
        else:
            part = _IV.mpf(t1) * c_iv * _IV.exp(_IV.mpf(t - t1) * _IV.log(1 + c_iv))
        enclosure = part if enclosure is None else _IV.mpf((min(enclosure.a, part.a), max(enclosure.b, part.b)))
    try:
        lo, hi = _iv_ends(enclosure)
    except OverflowError:  # beyond 2^30000 nats: astronomically above H(Z) = N ln 2, vacuous
        return BoundResult("theorem17", source, sympy.oo, "nats", True,
                           _join(note, "delta_T exceeds 2^30000 nats (vacuous: I(Z; S) <= N ln 2 always)"),
                           lower_value=sympy.Integer(2) ** _EXPONENT_LIMIT, upper_value=sympy.oo)
    lower, _, _ = _compact(lo.numerator, lo.denominator)
    _, upper, _ = _compact(hi.numerator, hi.denominator)
    return _result("theorem17", source, "nats", lower, upper, direction="upper",
                   note=_join(note, f"closed form t1 c (1+c)^(T-t1) in {INTERVAL_BITS}-bit interval arithmetic"))


def adaptive_min_queries(N: object, eps: object, bits: object) -> BoundResult:
    """The fewest adaptive eps-LDP queries T whose Theorem 17 bound reaches ``bits`` bits.

    Returns the smallest T whose rigorous upper enclosure of delta_T (nats) is >= ``bits * ln 2``;
    this never exceeds the exact smallest T, so "at least T queries are needed" stays true. Learning
    C_N with average error <= p_max needs ``(1 - p_max) N - 1`` bits (Fano), so T grows like N log N.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 17.
    """
    n = _integer("N", N, minimum=2)
    e = _eps(eps)
    b = require_positive("bits", bits)
    if _sign("bits", b - sympy.Integer(10) ** 4000) > 0:
        raise InvalidParameterError(f"bits must be <= 10^4000. Got a number of about 10^{int(sympy.log(b, 10).evalf(5))}")
    target = _iv_expr(b) * _IV.ln2
    target_low = _iv_ends(target)[0]
    _, c_iv, switches = _adaptive_parts(n, e)

    def upper(t: int) -> Fraction:
        ends = []
        for s in switches:
            part = _IV.mpf(t) * c_iv if t <= s else \
                _IV.mpf(s) * c_iv * _IV.exp(_IV.mpf(t - s) * _IV.log(1 + c_iv))
            ends.append(_iv_ends(part)[1])
        return max(ends)

    # closed-form estimate from the smaller switch time, then step to the smallest t with upper(t) >= target
    t1 = switches[0]
    if upper(t1) >= target_low:
        guess = math.floor(_iv_ends(target / c_iv)[0])
    else:
        steps = _IV.log(target / (_IV.mpf(t1) * c_iv)) / _IV.log(1 + c_iv)
        guess = t1 + math.floor(_iv_ends(steps)[0])
    guess = max(guess, 0)
    while guess > 0 and upper(guess - 1) >= target_low:
        guess -= 1
    while upper(guess) < target_low:
        guess += 1
    return BoundResult("theorem17-queries", f"{SOURCE}, Theorem 17", sympy.Integer(guess), "queries", True,
                       f"smallest T whose bound delta_T reaches {b} bits = {b} ln 2 nats "
                       "(a lower bound on the queries any adaptive eps-LDP scheme needs; proof sketch, spec §9 E10)")
