"""Private mpmath contexts, one per working precision, never changed after creation.

mpmath's ``workprec``/``workdps`` and assignments to ``mpmath.iv.prec`` change a precision shared by the
whole process, so a thread (the dask executor runs claims in threads) can change it under another's
computation. Every rigorous evaluation in dpcert uses these contexts instead: each is created once for
its precision and only read afterwards, so it is safe across threads and re-entrant.
"""

from __future__ import annotations

from functools import lru_cache

from mpmath.ctx_iv import MPIntervalContext
from mpmath.ctx_mp import MPContext

__all__ = ["interval_context", "real_context"]


@lru_cache(maxsize=64)
def interval_context(bits: int) -> MPIntervalContext:
    """An interval context (outward rounding at every operation) at ``bits`` of working precision."""
    ctx = MPIntervalContext()
    ctx.prec = bits
    return ctx


@lru_cache(maxsize=256)
def real_context(bits: int) -> MPContext:
    """A real (round-to-nearest) context at ``bits`` of working precision."""
    ctx = MPContext()
    ctx.prec = bits
    return ctx
