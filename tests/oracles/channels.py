"""Deliberately simple truths for finite channels, from the definitions, and the comparison with dpcert.

A channel is a dict ``{x: {y: P(y | x)}}``. Probabilities are :class:`fractions.Fraction` for random
rational tables, and 5000-digit mpmath numbers where e^eps is irrational (eps as small as 10^-300
moves a probability by 10^-300): the catalogue's mechanisms are
rebuilt here from their textbook formulas (not from dpcert's pmfs). Every truth is a brute-force
maximum over all neighbouring pairs and outputs:

- pure eps-DP: the tightest eps is max over neighbours x, x' and outputs y of log(P(y|x) / P(y|x'))
  (infinite when P(y|x') = 0 < P(y|x)) (Dwork and Roth 2014, Definition 2.4);
- (eps, delta)-DP: the smallest delta is max over neighbours of sum over all outputs of
  max(P(y|x) - e^eps P(y|x'), 0), the hockey-stick divergence (Balle and Wang, ICML 2018, Theorem 5;
  its maximising event is {y : P(y|x) > e^eps P(y|x')});
- metric DP: the tightest eps is max over every pair x != x' and output y of log(P(y|x)/P(y|x')) / d(x, x')
  (Chatzikokolakis, Andres, Bordenabe, Palamidessi, PETS 2013, Definition 1).

A comparison with dpcert's exact value treats two numbers within 10^-4500 of each other (relative) as
equal, which only matters at exact ties (a claimed eps equal to the tightest one), where the right
verdict is "proved".

The ``compare_*`` functions run dpcert on the same case and raise AssertionError on any disagreement;
they return the margin between the claim and the truth, so a benchmark can run them on many points and
report the closest one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction

import mpmath
import sympy

DIGITS = 5000
"""Working digits. eps down to 10^-300 moves probabilities by 10^-300; and a near tie can be as close as
e^-eps: the renormalised geometric mechanism's tightest eps exceeds its eps by about e^-eps, 10^-4343 at
eps = 10^4, the top of the answerable range. 5000 digits keep both apart from an exact tie."""
TIE = mpmath.mpf(10) ** -4500
"""Relative closeness below which the oracle calls two values equal: an exact tie agrees to ~10^-4690 (the
log of a ratio 1 + 10^-300 loses 300 of the 5000 digits), a near tie at eps = 10^4 differs by 10^-4347."""
FLOOR = mpmath.mpf(10) ** -4900
"""Absolute closeness below which a delta is 0: the rounding residue of a hockey-stick sum that is exactly 0
(the catalogue's deltas that are not 0 exceed 10^-310)."""

Channel = dict[Hashable, dict[Hashable, object]]
Pairs = list[tuple[Hashable, Hashable]]

__all__ = [
    "DIGITS",
    "Channel",
    "table_channel",
    "randomized_response",
    "unary_encoding",
    "geometric",
    "geometric_renormalized",
    "exponential",
    "gkrr",
    "all_pairs",
    "one_apart",
    "number",
    "pure_epsilon",
    "hockey_stick_delta",
    "metric_epsilon",
    "compare_pure",
    "compare_approx",
    "compare_metric",
    "compare_tightest",
    "table_mechanism",
]


# ---------------------------------------------------------------------------------------------
# Channels from their definitions
# ---------------------------------------------------------------------------------------------

def number(value: object) -> mpmath.mpf:
    """A Fraction, int, mpmath number, exact sympy number or its text ("1e-300", "1/3", "log(2)") as a
    :data:`DIGITS`-digit mpmath number."""
    if isinstance(value, str):
        try:
            value = Fraction(value)
        except ValueError:
            value = sympy.sympify(value)
    with mpmath.workdps(DIGITS):
        if isinstance(value, Fraction):
            return mpmath.mpf(value.numerator) / value.denominator
        if isinstance(value, sympy.Rational):
            return mpmath.mpf(int(value.p)) / int(value.q)
        if isinstance(value, sympy.Basic):
            return mpmath.mpf(sympy.N(value, DIGITS + 10)._mpf_)
        return mpmath.mpf(value)


def table_channel(rows: Sequence[Sequence[Fraction]]) -> Channel:
    """Row i of the table is P(. | i); outputs are the column indices."""
    return {i: dict(enumerate(row)) for i, row in enumerate(rows)}


def randomized_response(eps: object, k: int) -> Channel:
    """k-ary randomized response: P(y | x) = e^eps / (e^eps + k - 1) if y = x, else 1 / (e^eps + k - 1)."""
    with mpmath.workdps(DIGITS):
        t = mpmath.exp(number(eps))
        return {x: {y: (t if y == x else 1) / (t + k - 1) for y in range(k)} for x in range(k)}


def unary_encoding(eps: object, k: int, variant: str) -> Channel:
    """Unary encoding: bit i is 1 with probability p if i = x, else q; bits independent.

    SUE: p = e^(eps/2) / (e^(eps/2) + 1), q = 1 - p. OUE: p = 1/2, q = 1 / (e^eps + 1) (Wang et al.,
    USENIX Security 2017, Section 4).
    """
    with mpmath.workdps(DIGITS):
        e = number(eps)
        if variant == "sue":
            p = mpmath.exp(e / 2) / (mpmath.exp(e / 2) + 1)
            q = 1 - p
        else:
            p, q = mpmath.mpf(1) / 2, 1 / (mpmath.exp(e) + 1)
        channel: Channel = {}
        for x in range(k):
            channel[x] = {}
            for y in itertools.product((0, 1), repeat=k):
                value = mpmath.mpf(1)
                for i, bit in enumerate(y):
                    one = p if i == x else q
                    value *= one if bit else 1 - one
                channel[x][y] = value
        return channel


def geometric(eps: object, lo: int, hi: int) -> Channel:
    """Two-sided geometric noise clamped onto [lo, hi]: P(Z = z) = (1 - a)/(1 + a) a^|z| with a = e^-eps,
    output clamp(x + Z), summed over z (Ghosh, Roughgarden, Sundararajan, STOC 2009, Definition 2.1)."""
    with mpmath.workdps(DIGITS):
        a = mpmath.exp(-number(eps))
        channel: Channel = {}
        for x in range(lo, hi + 1):
            row = {y: (1 - a) / (1 + a) * a ** abs(y - x) for y in range(lo + 1, hi)}
            # the tails: P(Z <= lo - x) and P(Z >= hi - x), geometric sums written out
            row[lo] = a ** (x - lo) / (1 + a)
            row[hi] = a ** (hi - x) / (1 + a)
            channel[x] = row
        return channel


def geometric_renormalized(eps: object, lo: int, hi: int) -> Channel:
    """P(y | x) = a^|y - x| / sum over y' in [lo, hi] of a^|y' - x|, a = e^-eps."""
    with mpmath.workdps(DIGITS):
        a = mpmath.exp(-number(eps))
        channel: Channel = {}
        for x in range(lo, hi + 1):
            weights = {y: a ** abs(y - x) for y in range(lo, hi + 1)}
            total = mpmath.fsum(weights.values())
            channel[x] = {y: w / total for y, w in weights.items()}
        return channel


def exponential(eps: object, sensitivity: object, utilities: Sequence[Sequence[object]]) -> Channel:
    """P(r | x) proportional to exp(eps u(x, r) / (2 sensitivity)) (McSherry and Talwar, FOCS 2007)."""
    with mpmath.workdps(DIGITS):
        scale = number(eps) / (2 * number(sensitivity))
        channel: Channel = {}
        for x, row in enumerate(utilities):
            weights = [mpmath.exp(scale * number(u)) for u in row]
            total = mpmath.fsum(weights)
            channel[x] = {r: w / total for r, w in enumerate(weights)}
        return channel


def gkrr(alpha0: object, s: int, t: int, r: object) -> tuple[Channel, Callable[[int, int], mpmath.mpf]]:
    """Generalized k-RR on the clustered metric: P(y | x) proportional to exp(alpha0 (1 - d(x, y))),
    d = 0, r within a cluster of t points, 1 across (002_1def8c9789d6e1bd.txt, Section 6.2).

    Returns the channel and the metric (point x is cluster x // t).
    """
    with mpmath.workdps(DIGITS):
        a, radius = number(alpha0), number(r)

        def distance(x: int, y: int) -> mpmath.mpf:
            return mpmath.mpf(0) if x == y else (radius if x // t == y // t else mpmath.mpf(1))

        channel: Channel = {}
        for x in range(s * t):
            weights = {y: mpmath.exp(a * (1 - distance(x, y))) for y in range(s * t)}
            total = mpmath.fsum(weights.values())
            channel[x] = {y: w / total for y, w in weights.items()}
        return channel, distance


def all_pairs(channel: Channel) -> Pairs:
    """Every ordered pair of distinct inputs (local DP)."""
    return [(a, b) for a in channel for b in channel if a != b]


def one_apart(channel: Channel) -> Pairs:
    """Ordered pairs of integer inputs one apart (the geometric mechanism's neighbours; the exponential
    mechanism's consecutive datasets)."""
    return [(a, b) for a in channel for b in channel if abs(a - b) == 1]


# ---------------------------------------------------------------------------------------------
# Truths by brute force
# ---------------------------------------------------------------------------------------------

def _outputs(channel: Channel) -> list[Hashable]:
    return list(dict.fromkeys(y for row in channel.values() for y in row))


def pure_epsilon(channel: Channel, pairs: Iterable[tuple[Hashable, Hashable]]) -> mpmath.mpf:
    """max over pairs (x, x') and outputs y of log(P(y|x) / P(y|x')); +inf if P(y|x') = 0 < P(y|x)."""
    return metric_epsilon(channel, pairs, lambda x, x_prime: 1)


def metric_epsilon(channel: Channel, pairs: Iterable[tuple[Hashable, Hashable]],
                   distance: Callable[[Hashable, Hashable], object]) -> mpmath.mpf:
    """max over pairs (x, x') and outputs y of log(P(y|x) / P(y|x')) / d(x, x')."""
    best = -mpmath.inf
    with mpmath.workdps(DIGITS):
        for x, x_prime in pairs:
            d = number(distance(x, x_prime))
            for y in _outputs(channel):
                p, q = number(channel[x].get(y, 0)), number(channel[x_prime].get(y, 0))
                if p == 0:
                    continue
                value = mpmath.inf if q == 0 else mpmath.log(p / q) / d
                best = max(best, value)
    return best


def hockey_stick_delta(channel: Channel, pairs: Iterable[tuple[Hashable, Hashable]], eps: object) -> mpmath.mpf:
    """max over pairs (x, x') of sum over all outputs y of max(P(y|x) - e^eps P(y|x'), 0)."""
    best = mpmath.mpf(0)
    with mpmath.workdps(DIGITS):
        t = mpmath.exp(number(eps))
        for x, x_prime in pairs:
            total = mpmath.fsum(max(number(channel[x].get(y, 0)) - t * number(channel[x_prime].get(y, 0)), 0)
                                for y in _outputs(channel))
            best = max(best, total)
    return best


# ---------------------------------------------------------------------------------------------
# Comparisons with dpcert (used by the fuzz test and by benchmarks)
# ---------------------------------------------------------------------------------------------

def table_mechanism(rows: Sequence[Sequence[Fraction]], relation=None):
    """A dpcert FiniteMechanism whose pmf is the table (row x is P(. | x)); all pairs are neighbours by default."""
    from dpcert.mechanisms.base import FiniteMechanism
    from dpcert.mechanisms.neighbours import AllPairs

    @dataclass(frozen=True)
    class Table(FiniteMechanism):
        name: ClassVar[str] = "table"
        rows: tuple[tuple[Fraction, ...], ...]
        relation: object

        @property
        def neighbours(self):
            return self.relation

        def inputs(self) -> tuple[int, ...]:
            return tuple(range(len(self.rows)))

        def outputs(self) -> tuple[int, ...]:
            return tuple(range(len(self.rows[0])))

        def pmf(self, x: Hashable) -> dict[int, sympy.Expr]:
            self.validate_input(x)
            return {j: sympy.Rational(p.numerator, p.denominator) for j, p in enumerate(self.rows[x]) if p}

    return Table(tuple(tuple(row) for row in rows), AllPairs() if relation is None else relation)


def _same(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    if mpmath.isinf(a) or mpmath.isinf(b):
        return a == b
    with mpmath.workdps(DIGITS):
        return abs(a - b) <= TIE * max(abs(a), abs(b)) or abs(a - b) <= FLOOR


def _expected(truth: mpmath.mpf, claimed: mpmath.mpf) -> str:
    """The verdict the definition gives: proved iff truth <= claimed (an exact tie is proved)."""
    return "proved" if truth <= claimed or _same(truth, claimed) else "refuted"


def _witness_breaks(channel: Channel, certificate, eps: mpmath.mpf, delta: mpmath.mpf,
                    distance: Callable[[Hashable, Hashable], object]) -> bool:
    """The refutation's witness, recomputed from the oracle's channel, breaks the claim."""
    w = certificate.witness
    event = w.output if isinstance(w.output, frozenset) else {w.output}
    with mpmath.workdps(DIGITS):
        p = mpmath.fsum(number(channel[w.x].get(y, 0)) for y in event)
        q = mpmath.fsum(number(channel[w.x_prime].get(y, 0)) for y in event)
        return p - mpmath.exp(eps * number(distance(w.x, w.x_prime))) * q - delta > 0


def compare_pure(mechanism, channel: Channel, pairs: Pairs, eps: object) -> mpmath.mpf:
    """dpcert's check of eps-DP against the oracle; returns claimed - truth (negative when refuted)."""
    from dpcert.proofs.claim import check
    from dpcert.proofs.guarantees import PureDP

    truth, claimed = pure_epsilon(channel, pairs), number(eps)
    certificate = check(mechanism, PureDP(eps))
    _agree(certificate, _expected(truth, claimed), truth)
    if certificate.verdict.value == "refuted":
        assert _witness_breaks(channel, certificate, claimed, mpmath.mpf(0), lambda a, b: 1), certificate
    return claimed - truth


def compare_approx(mechanism, channel: Channel, pairs: Pairs, eps: object, delta: object) -> mpmath.mpf:
    """dpcert's check of (eps, delta)-DP against the oracle; returns claimed delta - true delta(eps)."""
    from dpcert.proofs.claim import check
    from dpcert.proofs.guarantees import ApproxDP

    truth, claimed = hockey_stick_delta(channel, pairs, eps), number(delta)
    certificate = check(mechanism, ApproxDP(eps, delta))
    assert certificate.delta is not None and _same(number(certificate.delta), truth), (
        f"delta({eps}) = {certificate.delta}, oracle {truth}: {certificate}")
    _agree(certificate, _expected(truth, claimed), None)
    if certificate.verdict.value == "refuted":
        assert _witness_breaks(channel, certificate, number(eps), claimed, lambda a, b: 1), certificate
    return claimed - truth


def compare_metric(mechanism, channel: Channel, distance: Callable[[Hashable, Hashable], object], eps: object,
                   *, relation=None) -> mpmath.mpf:
    """dpcert's check of eps-metric-DP against the oracle; returns claimed - truth."""
    from dpcert.proofs.claim import check
    from dpcert.proofs.guarantees import MetricDP

    truth, claimed = metric_epsilon(channel, all_pairs(channel), distance), number(eps)
    certificate = check(mechanism, MetricDP(eps), relation=relation)
    _agree(certificate, _expected(truth, claimed), truth)
    if certificate.verdict.value == "refuted":
        assert _witness_breaks(channel, certificate, claimed, mpmath.mpf(0), distance), certificate
    return claimed - truth


def compare_tightest(mechanism, channel: Channel, pairs: Pairs,
                     distance: Callable[[Hashable, Hashable], object] | None = None, *, relation=None) -> mpmath.mpf:
    """dpcert's tightest eps against the oracle's; returns their difference (0 up to 10^-4500 relative)."""
    from dpcert.proofs.exact import tightest_epsilon

    truth = metric_epsilon(channel, pairs, distance or (lambda a, b: 1))
    certificate = tightest_epsilon(mechanism, relation=relation)
    assert certificate.recheck() is True, certificate
    if mpmath.isinf(truth):
        assert certificate.verdict.value == "refuted" and certificate.epsilon == sympy.oo, certificate
        return mpmath.mpf(0)
    assert certificate.verdict.value == "proved" and _same(number(certificate.epsilon), truth), (
        f"tightest eps {certificate.epsilon}, oracle {truth}")
    return number(certificate.epsilon) - truth


def _agree(certificate, expected: str, truth: mpmath.mpf | None) -> None:
    """The verdict is the definition's, the certificate rechecks, and a proof's eps is never below the truth."""
    assert certificate.verdict.value == expected, f"oracle says {expected}: {certificate}"
    assert certificate.recheck() is True, f"recheck failed: {certificate}"
    if expected == "proved" and truth is not None and certificate.epsilon is not None:
        reported = number(certificate.epsilon)
        assert reported >= truth or _same(reported, truth), f"eps {reported} below the truth {truth}"

