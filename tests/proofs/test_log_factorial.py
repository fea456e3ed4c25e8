"""ln n! enclosures against mpmath's loggamma at 100 digits (an independent evaluation), both sides of 64."""

from __future__ import annotations

import mpmath
from hypothesis import given
from hypothesis import strategies as st

from dpcert.mechanisms.mp_contexts import interval_context
from dpcert.proofs.log_factorial import EXACT_BELOW, log_factorial


@given(st.one_of(st.integers(0, 200), st.integers(10**3, 10**30)), st.sampled_from([64, 128, 256]))
def test_the_enclosure_contains_ln_n_factorial_and_is_narrow(n, bits):
    enclosure = log_factorial(interval_context(bits), n)
    reference = mpmath.MPContext()
    reference.dps = 100  # beyond the 256-bit (77-digit) enclosures
    truth = reference.loggamma(reference.mpf(n) + 1)
    assert enclosure.a <= truth <= enclosure.b
    # width: the interval arithmetic's rounding plus, from 64 on, Stirling's remainder 1/(1188 n^9)
    allowed = abs(truth) * 2.0 ** (8 - bits) + (0 if n < EXACT_BELOW else 1 / (1188 * n**9)) + 1e-300
    assert float(enclosure.b - enclosure.a) <= allowed


def test_power_a_remainder_bound_too_small_would_be_caught():
    # without the remainder (c(n) alone) the enclosure misses ln 64! at 256 bits: the check above can fail
    ctx = interval_context(256)
    reference = mpmath.MPContext()
    reference.dps = 120
    truth = reference.loggamma(65)
    m = ctx.mpf(64)
    c = (420 * m**6 - 14 * m**4 + 4 * m**2 - 3) / (5040 * m**7)
    truncated = (2 * m + 1) * ctx.log(m) / 2 - m + ctx.log(2 * ctx.pi) / 2 + c
    assert not truncated.a <= truth <= truncated.b
    assert log_factorial(ctx, 64).a <= truth <= log_factorial(ctx, 64).b
