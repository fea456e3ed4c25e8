"""Prefix sums of Laplace-noised answers, as DP-Sniper audits them."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import require_eps, require_int
from dpcert.mechanisms.zoo._common import ZooMechanism, as_vector

__all__ = ["PrefixSum", "QUERIES_RANGE"]

QUERIES_RANGE = (1, 100)  # m, the number of answers summed


@dataclass(frozen=True)
class PrefixSum(ZooMechanism):
    """The prefix sums y_j = sum_{i <= j} (q_i + nu_i), nu_i ~ Lap(1/eps) i.i.d., of m answers (Wang, Ding, Wang,
    Kifer, Zhang, "Proving differential privacy with shadow execution", PLDI 2019; DP-Sniper's PrefixSum,
    github.com/eth-sri/dp-sniper, dpsniper/mechanisms/prefix_sum.py, run at eps = 0.1 with m = 10).

    Expected verdict: not private under the zoo's neighbours (every answer may move by 1, as in DP-Sniper's input
    patterns): y is an invertible linear map of the noisy answers q + nu (q_i + nu_i = y_i - y_(i-1)), so the
    mechanism is exactly as private as m Laplace releases of answers that all move: m eps-DP and no better, the
    likelihood ratio of 0^m vs 1^m reaching e^(m eps) where every noisy answer lies below 0 (1 at DP-Sniper's
    m = 10, eps = 0.1). It is eps-DP only when a single answer changes, by at most 1 (L1 sensitivity 1), the
    setting in which Wang et al. verify it. DP-Sniper's lower bound: 0.504 at eps = 0.1 (Bichsel et al., S&P 2021).
    """

    name: ClassVar[str] = "prefix-sum"
    expected_verdict: ClassVar[str] = "not-private"
    eps: sympy.Expr
    m: int = 10

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "m", require_int("m", self.m, minimum=QUERIES_RANGE[0], maximum=QUERIES_RANGE[1]))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """DP-Sniper's pattern where its best bound was found: 1^m vs 0^m (all below)."""
        return [((1,) * self.m, (0,) * self.m)]

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        noisy = as_vector(x, self.m) + rng.laplace(0.0, 1.0 / float(self.eps), (check_size(size), self.m))
        return np.cumsum(noisy, axis=1)
