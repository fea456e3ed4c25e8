"""The six Sparse Vector variants of Lyu, Su, Li, "Understanding the Sparse Vector Technique for
Differential Privacy" (PVLDB 10(6), 2017), Algorithms 1–6, with sensitivity Delta = 1.

Queries are given by their answers on the input (a tuple of m numbers); neighbouring inputs change
every answer by at most 1. Outputs are int codes: with cutoff c = 1 (Algorithms 1–4) the index of the
first "above" answer, or m when every answer is "below"; without cutoff (Algorithms 5, 6) the bit mask
sum_i 2^i [answer i is above]. Algorithm 3 also releases the noisy answer: its output is the row
(code, noisy answer or 0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import check_size
from dpcert.mechanisms.parameters import require_eps, require_int, to_exact
from dpcert.mechanisms.zoo._common import ZooMechanism, as_vector

__all__ = ["SVT1", "SVT2", "SVT3", "SVT4", "SVT5", "SVT6", "QUERIES_RANGE"]

QUERIES_RANGE = (2, 30)  # m, the number of queries


@dataclass(frozen=True)
class _SVT(ZooMechanism):
    eps: sympy.Expr
    m: int = 10
    T: sympy.Expr = sympy.Rational(1, 2)

    # (rho scale, nu scale) as multiples of 1/eps, for c = 1; nu None means no query noise
    _rho: ClassVar[float]
    _nu: ClassVar[float | None]
    _cutoff: ClassVar[bool] = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "m", require_int("m", self.m, minimum=QUERIES_RANGE[0], maximum=QUERIES_RANGE[1]))
        object.__setattr__(self, "T", to_exact("T", self.T))

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """All answers 0 vs all 1, and (0^h 1^h) vs (1^h 0^h) (Lyu et al., proof of Theorem 6 style)."""
        h = self.m // 2
        return [((0,) * self.m, (1,) * self.m),
                ((0,) * h + (1,) * (self.m - h), (1,) * h + (0,) * (self.m - h))]

    def _above(self, x: Hashable, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        q = as_vector(x, self.m)
        eps = float(self.eps)
        rho = rng.laplace(0.0, self._rho / eps, size)
        nu = np.zeros((size, self.m)) if self._nu is None else rng.laplace(0.0, self._nu / eps, (size, self.m))
        noisy = q + nu
        return noisy >= float(self.T) + rho[:, None], noisy

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        above, _ = self._above(x, size, rng)
        if not self._cutoff:
            return (above * (1 << np.arange(self.m))).sum(axis=1)
        return np.where(above.any(axis=1), above.argmax(axis=1), self.m)


@dataclass(frozen=True)
class SVT1(_SVT):
    """Algorithm 1 (Lyu et al. 2017): rho ~ Lap(2/eps), nu_i ~ Lap(4c/eps); stop after c "above" answers.

    Expected verdict: private (eps-DP, Theorem 2 of Lyu et al.). Why: shifting rho by 1 aligns every
    "below" answer at cost eps/2, and each of the c "above" answers costs eps/(2c) through nu_i.
    """

    name: ClassVar[str] = "svt1"
    expected_verdict: ClassVar[str] = "private"
    _rho: ClassVar[float] = 2.0
    _nu: ClassVar[float | None] = 4.0


@dataclass(frozen=True)
class SVT2(_SVT):
    """Algorithm 2 (Lyu et al. 2017): rho ~ Lap(2c/eps) resampled after each "above", nu_i ~ Lap(4c/eps).

    Expected verdict: private (eps-DP). With c = 1 it coincides with Algorithm 1 (nothing is resampled).
    """

    name: ClassVar[str] = "svt2"
    expected_verdict: ClassVar[str] = "private"
    _rho: ClassVar[float] = 2.0
    _nu: ClassVar[float | None] = 4.0


@dataclass(frozen=True)
class SVT3(_SVT):
    """Algorithm 3 (Lyu et al. 2017): like Algorithm 1 with nu_i ~ Lap(2c/eps), but releases q_i + nu_i
    for the "above" answer. Output rows: (index of first "above" or m, its noisy answer or 0).

    Expected verdict: not private (no finite eps, Lyu et al. Section 4): the released answer bounds rho,
    and on (0^{m-1}, 1) vs (1^{m-1}, 0) every "below" answer then contributes e^{eps/2} to the ratio.
    """

    name: ClassVar[str] = "svt3"
    expected_verdict: ClassVar[str] = "not-private"
    _rho: ClassVar[float] = 2.0
    _nu: ClassVar[float | None] = 2.0

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        return [((0,) * (self.m - 1) + (1,), (1,) * (self.m - 1) + (0,))]

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        above, noisy = self._above(x, size, rng)
        hit = above.any(axis=1)
        first = above.argmax(axis=1)
        value = np.where(hit, noisy[np.arange(size), first], 0.0)
        return np.column_stack([np.where(hit, first, self.m).astype(float), value])


@dataclass(frozen=True)
class SVT4(_SVT):
    """Algorithm 4 (Lyu et al. 2017): rho ~ Lap(4/eps), nu_i ~ Lap(4/(3 eps)) (not scaled with c).

    Expected verdict: not eps-DP; it is ((1 + 6c)/4) eps-DP (Lyu et al., Theorem 5), 7 eps/4 for c = 1.
    """

    name: ClassVar[str] = "svt4"
    expected_verdict: ClassVar[str] = "not-private"
    _rho: ClassVar[float] = 4.0
    _nu: ClassVar[float | None] = 4.0 / 3.0


@dataclass(frozen=True)
class SVT5(_SVT):
    """Algorithm 5 (Lyu et al. 2017): rho ~ Lap(2/eps), no query noise, no cutoff.

    Expected verdict: not private (no finite eps): on (0^h 1^h) vs (1^h 0^h) the answer "below^h above^h"
    has positive probability (0 < T + rho <= 1) on the first input and probability 0 on the second.
    """

    name: ClassVar[str] = "svt5"
    expected_verdict: ClassVar[str] = "not-private"
    _rho: ClassVar[float] = 2.0
    _nu: ClassVar[float | None] = None
    _cutoff: ClassVar[bool] = False


@dataclass(frozen=True)
class SVT6(_SVT):
    """Algorithm 6 (Lyu et al. 2017): rho ~ Lap(2/eps), nu_i ~ Lap(2/eps), no cutoff.

    Expected verdict: not private (no finite eps): on (0^h 1^h) vs (1^h 0^h) the answer "below^h above^h"
    gains a factor up to e^{eps/2} per query, unbounded in m.
    """

    name: ClassVar[str] = "svt6"
    expected_verdict: ClassVar[str] = "not-private"
    _rho: ClassVar[float] = 2.0
    _nu: ClassVar[float | None] = 2.0
    _cutoff: ClassVar[bool] = False
