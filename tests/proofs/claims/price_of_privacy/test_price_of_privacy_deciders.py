"""The optimisation behind the Lemma 29 claim (000_0c6e7fdc3fd68303.txt, Appendix D, optimisation (27)),
checked against a brute-force search over the simplex."""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest

from dpcert.proofs.claims.price_of_privacy.deciders import _tilted_supremum


def _grid_supremum(g: list[float], delta: float, steps: int = 300) -> float:
    """max E_p g over the grid points p of the 3-simplex (step 1/steps) with KL(p || uniform) <= delta."""
    best = -math.inf
    for i, j in itertools.product(range(steps + 1), repeat=2):
        if i + j > steps:
            continue
        p = (i / steps, j / steps, (steps - i - j) / steps)
        kl = sum(q * math.log(3 * q) for q in p if q > 0)
        if kl <= delta:
            best = max(best, sum(q * x for q, x in zip(p, g)))
    return best


@pytest.mark.parametrize("g", [(0.0, 1.0, 4.0), (2.0, 2.5, 0.5), (1.0, 1.0, 9.0)])
@pytest.mark.parametrize("delta", [0.01, 0.2, 0.9, 2.0])
def test_tilted_supremum_bounds_the_kl_ball_maximum(g, delta):
    # the tilt's value must be >= every feasible grid point and within the grid's resolution of the best one
    with mpmath.workdps(30):
        tilted = float(_tilted_supremum([mpmath.mpf(x) for x in g], mpmath.mpf(delta)))
    grid = _grid_supremum(list(g), delta)
    assert grid <= tilted + 1e-9
    assert tilted - grid < 0.05 * (max(g) - min(g))
