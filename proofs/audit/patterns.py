"""Candidate neighbouring inputs for an audit given none: the input patterns of StatDP.

Ding, Wang, Wang, Zhang, Kifer, "Detecting Violations of Differential Privacy" (CCS 2018), Section 5.1, as DP-Sniper
generates them (Bichsel et al., S&P 2021; github.com/eth-sri/dp-sniper, dpsniper/input/pattern_generator.py): the
base 1^n against one entry above or below, and, for vectors whose entries may all change by 1 (query answers of
sensitivity 1 each), one entry above and the rest below, one below and the rest above, half above and half below,
all above, all below, and the X shape (1^h 0^(n-h) against 0^h 1^(n-h), h = floor(n / 2)). The audit chooses among
the patterns, in both orders, on its selection sample and confirms only the pair it picks, so the search costs no
correction.
"""

from __future__ import annotations

from dpcert.mechanisms.parameters import require_int

__all__ = ["MAX_PATTERN_LENGTH", "statdp_patterns"]

MAX_PATTERN_LENGTH = 1000
"""The longest input vector the patterns are made for."""


def statdp_patterns(length: object, *, componentwise: bool = True) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The pairs of input vectors of ``length`` entries (tuples of 0, 1 and 2); with ``componentwise=False`` (one
    entry changes) only the first two."""
    n = require_int("input_length", length, minimum=1, maximum=MAX_PATTERN_LENGTH)
    h = n // 2
    base = (1,) * n
    pairs = [(base, (0,) + (1,) * (n - 1)), (base, (2,) + (1,) * (n - 1))]
    if componentwise:
        pairs += [(base, (2,) + (0,) * (n - 1)), (base, (0,) + (2,) * (n - 1)), (base, (2,) * h + (0,) * (n - h)),
                  (base, (2,) * n), (base, (0,) * n), ((1,) * h + (0,) * (n - h), (0,) * h + (1,) * (n - h))]
    unique: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for a, b in pairs:  # short vectors repeat patterns (n = 1: half above is all below); an X of n = 1 is no pair
        if a != b and (a, b) not in unique and (b, a) not in unique:
            unique.append((a, b))
    return unique
