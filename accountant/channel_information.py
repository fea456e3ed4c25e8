"""Exact mutual information of finite channels, and what local DP says about it (Lemmas 6 and 11).

Units. Every information bound of the accountant is in **nats** unless a ``units`` argument says
otherwise. The channel-mismatch bounds (Lemma 9/18/25 and everything built on them: Theorems 10, 13,
14, 17) use ``log x <= x - 1``, which holds only for the natural logarithm; they are false in bits
(spec §9 E1). Convert to bits with ``log2(e) = 1/ln 2`` (:data:`LOG2E`) before using Fano's
inequality, which takes bits.

Exactness. Channel entries and laws are exact: Python ``Fraction`` inside, sympy numbers in the
results; irrational entries such as ``e^eps/(1 + e^eps)`` are kept as sympy expressions.

References: 000_0c6e7fdc3fd68303.txt (Section 2, Lemma 6, Lemma 11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.exact_intervals import _fraction, _rational
from dpcert.accountant.input_validation import _eps, _sign, _units
from dpcert.mechanisms.exact_arithmetic import cancel_exponentials
from dpcert.mechanisms.parameters import InvalidParameterError, to_exact
from dpcert.proofs.channel import ExactChannel

__all__ = ["LOG2E", "SOURCE", "lemma_6_bound", "mutual_information", "posterior_prior_ratios"]

SOURCE = "000_0c6e7fdc3fd68303.txt"
"""The seed paper: Banerjee, Hegde and Massoulié, "The Price of Privacy in Untrusted Recommendation Engines"."""

LOG2E = 1 / sympy.log(2)
"""log2(e) = 1/ln 2, exactly: multiply nats by it to get bits."""


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
    exact sympy sum ``sum_r c_r log(r)``. Compare it rigorously with
    :func:`~dpcert.accountant.exact_intervals.rigorous_interval` (an outward-rounded enclosure, fast) and, if
    the enclosures overlap, with :func:`dpcert.mechanisms.parameters.exact_sign` (``exact_sign(bound - I) >= 0``).

    Args:
        channel_or_matrix: an :class:`~dpcert.proofs.channel.ExactChannel` or rows (inputs) of exact
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


def lemma_6_bound(eps: object, *, units: str = "nats") -> BoundResult:
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
