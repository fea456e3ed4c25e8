"""ln n! enclosed in interval arithmetic: exact below 64, Stirling's series with a proved remainder above.

ln n! = (n + 1/2) ln n - n + ln(2 pi)/2 + c(n) + R with c(n) = 1/(12 n) - 1/(360 n^3) + 1/(1260 n^5)
- 1/(1680 n^7) = (420 n^6 - 14 n^4 + 4 n^2 - 3) / (5040 n^7), an exact rational, and 0 <= R <= 1/(1188 n^9):
for real n > 0 the remainder of Stirling's series has the sign of, and is at most, the first neglected
term (NIST DLMF 5.11(ii)). c(n) + R is enclosed by rationals rounded outward; ln n and pi come from
mpmath's interval functions (directed rounding), so the whole enclosure is rigorous. Used by the
shuffle clone sums and the audit's binomial tails.
"""

from __future__ import annotations

import math
from fractions import Fraction

from mpmath.ctx_iv import MPIntervalContext
from mpmath.libmp import from_rational, round_ceiling, round_floor

__all__ = ["log_factorial"]

EXACT_BELOW = 64
"""Below this n, ln n! is the interval log of the exact integer n!."""


def log_factorial(ctx: MPIntervalContext, n: int):
    """An interval of ``ctx`` containing ln n! (n >= 0 an integer)."""
    if n < EXACT_BELOW:
        return ctx.log(ctx.mpf(math.factorial(n)))
    low = Fraction(420 * n**6 - 14 * n**4 + 4 * n**2 - 3, 5040 * n**7)
    high = low + Fraction(1, 1188 * n**9)
    correction = ctx.make_mpf((from_rational(low.numerator, low.denominator, ctx.prec, round_floor),
                               from_rational(high.numerator, high.denominator, ctx.prec, round_ceiling)))
    m = ctx.mpf(n)
    return (2 * m + 1) * ctx.log(m) / 2 - m + ctx.log(2 * ctx.pi) / 2 + correction
