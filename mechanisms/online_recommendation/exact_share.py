"""Exact per-round recommendation probabilities of p-REC, as sympy numbers the exact checker can handle.

A round's probabilities are gamma/m + (1 - gamma) phi(x_j) / sum_k phi(x_k) with phi(x) = tau^{2mx} - tau:
algebraic numbers of high degree (tau^{2ma/W} for many W). Written out, a transcript probability is a
product of T such numbers, and proving that the m^T of them sum to 1 by expanding radicals is hopeless.
Instead each per-round probability is one opaque exact number, :class:`RecommendationShare`, defined by
its closed form and evaluated to any precision with mpmath; and in every round the objects with the
largest vote fraction get the complement (1 - sum of the others) / k. Then the m probabilities of a
round sum to 1 *as polynomials in the atoms*, so the whole transcript distribution sums to 1 by
polynomial cancellation, which :mod:`dpcert.proofs.channel` verifies exactly. Atoms are keyed by the vote
fractions only, so equal rounds give syntactically equal factors and equal log-ratios stay equal.

References: 001_8845c8f909738498.txt, Algorithm 1 (RecommendByWeight); specs/gilbert_online_recommendation.md,
sections 2.1-2.4.
"""

from __future__ import annotations

from functools import lru_cache

import sympy

from dpcert.mechanisms.mp_contexts import real_context
from dpcert.mechanisms.online_recommendation.parameters import PRECParameters
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["RecommendationShare", "exact_round_probabilities"]

_GUARD_BITS = 64


class RecommendationShare(sympy.Function):
    """The exact number gamma/m + (1 - gamma) phi(x) / sum_{y in xs} phi(y), phi(y) = tau^{2my} - tau.

    Arguments: (gamma, m, tau, x, xs), with xs the sorted vote fractions above rho = 1/(2m) (the only
    ones with phi > 0). It evaluates itself to a rational number when that is the value (x <= rho or
    gamma = 1 give gamma/m; a single fraction above rho gives gamma/m + 1 - gamma), and otherwise stays an atom that
    ``evalf`` computes to any precision: phi(y) = tau expm1((2my - 1) ln tau) has no cancellation, and
    the rest are sums and quotients of positive numbers, so 64 guard bits give every requested bit.

    References: 001_8845c8f909738498.txt, Algorithm 1, procedure RecommendByWeight.
    """

    nargs = 5

    @classmethod
    def eval(cls, gamma, m, tau, x, xs):  # noqa: D102 - sympy's constructor hook
        if 2 * m * x <= 1 or gamma == 1:
            return gamma / m
        if len(xs) == 1:
            return gamma / m + 1 - gamma
        return None

    def _eval_evalf(self, prec: int) -> sympy.Float:
        return sympy.Float._new(_share_value(tuple(self.args[:4]), tuple(self.args[4]), prec), prec)

    def interval_enclosure(self, ctx):
        """An interval of the interval context ``ctx`` containing the value (see :mod:`dpcert.mechanisms.interval_sign`)."""
        gamma, m, tau, x, xs = self.args
        log_tau = ctx.log(ctx.mpf(int(tau.p)) / int(tau.q))

        def phi(y: sympy.Rational):
            return ctx.expm1(ctx.mpf(2 * int(m) * int(y.p) - int(y.q)) / int(y.q) * log_tau)

        g = ctx.mpf(int(gamma.p)) / int(gamma.q)
        total = ctx.mpf(0)
        for y in xs:
            total += phi(y)
        return g / int(m) + (1 - g) * phi(x) / total

    def _eval_is_extended_positive(self) -> bool:
        return True

    def _eval_is_extended_real(self) -> bool:
        return True

    def _eval_is_finite(self) -> bool:
        return True

    def _sympystr(self, printer) -> str:
        gamma, m, tau, x, xs = self.args
        others = ", ".join(printer._print(y) for y in xs)
        return f"Pr_pREC(x={printer._print(x)} | xs=({others}); tau={tau}, gamma={gamma}, m={m})"


@lru_cache(maxsize=1 << 16)
def _share_value(head: tuple[sympy.Rational, ...], xs: tuple[sympy.Rational, ...], prec: int) -> tuple:
    gamma, m, tau, x = head
    ctx = real_context(prec + _GUARD_BITS)  # private: mpmath's workprec would change the global precision
    log_tau = ctx.log(ctx.mpf(int(tau.p)) / int(tau.q))

    def phi(y: sympy.Rational):
        return ctx.expm1(ctx.mpf(2 * int(m) * int(y.p) - int(y.q)) / int(y.q) * log_tau)

    g = ctx.mpf(int(gamma.p)) / int(gamma.q)
    value = g / int(m) + (1 - g) * phi(x) / ctx.fsum(phi(y) for y in xs)
    return real_context(prec).mpf(value)._mpf_


@lru_cache(maxsize=1 << 14)
def _probabilities(m: int, tau: sympy.Rational, gamma: sympy.Rational, counts: tuple[int, ...]) -> tuple:
    W = sum(counts)
    if W == 0:  # no survivor: undefined in the paper; uniform fallback, outside the paper's claims
        return (sympy.Rational(1, m),) * m
    fractions = [sympy.Rational(a, W) for a in counts]
    positive = sympy.Tuple(*sorted(x for x, a in zip(fractions, counts) if 2 * m * a > W))
    top = max(fractions)
    tied = [j for j, x in enumerate(fractions) if x == top]
    others = {j: RecommendationShare(gamma, m, tau, x, positive) for j, x in enumerate(fractions) if x != top}
    complement = (1 - sympy.Add(*others.values())) / len(tied)
    return tuple(others.get(j, complement) for j in range(m))


def exact_round_probabilities(params: PRECParameters, counts: tuple[int, ...]) -> tuple[sympy.Expr, ...]:
    """Pr[b_t = j | b_<t] for j = 0..m-1, exactly, from the surviving voters' vote counts a_j (W = sum a_j).

    Objects with x_j <= rho get exactly gamma/m (spec T2); the objects with the largest fraction share the
    complement, so the m values sum to 1 identically. With no survivor (W = 0, outside the paper's
    assumptions) the distribution is uniform.

    References: 001_8845c8f909738498.txt, Algorithm 1, procedure RecommendByWeight.
    """
    counts = tuple(int(a) for a in counts)
    if len(counts) != params.m or min(counts) < 0:
        raise InvalidParameterError(f"counts must be {params.m} integers >= 0. Got {counts}")
    return _probabilities(params.m, params.tau, params.gamma, counts)
