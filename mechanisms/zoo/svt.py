"""The six Sparse Vector variants of Lyu, Su, Li, "Understanding the Sparse Vector Technique for
Differential Privacy" (PVLDB 10(6), 2017), Algorithms 1–6, with sensitivity Delta = 1, and two variants DP-Sniper
audits with cutoff c: Wang et al.'s numerical sparse vector and Algorithms 3 and 4 run side by side.

Queries are given by their answers on the input (a tuple of m numbers); neighbouring inputs change
every answer by at most 1. Outputs of Algorithms 1–6 are int codes: with cutoff c = 1 (Algorithms 1–4) the index
of the first "above" answer, or m when every answer is "below"; without cutoff (Algorithms 5, 6) the bit mask
sum_i 2^i [answer i is above]. Algorithm 3 also releases the noisy answer: its output is the row
(code, noisy answer or 0). The cutoff-c variants return one column per query, coded as DP-Sniper codes them
(github.com/eth-sri/dp-sniper, dpsniper/mechanisms/sparse_vector_technique.py and parallel.py).
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

__all__ = ["SVT1", "SVT2", "SVT3", "SVT4", "SVT5", "SVT6", "CUTOFF_RANGE", "NumericalSVT", "QUERIES_RANGE",
           "SVT34Parallel"]

QUERIES_RANGE = (2, 30)  # m, the number of queries
CUTOFF_RANGE = (1, 30)  # c, the "above" answers after which a run stops (numerical-svt, svt34-parallel)


def _answered(above: np.ndarray, c: int) -> np.ndarray:
    """The queries a run with cutoff c answers: those before which fewer than c answers were "above"."""
    return np.cumsum(above, axis=1) - above < c


@dataclass(frozen=True)
class _Queries(ZooMechanism):
    eps: sympy.Expr
    m: int = 10
    T: sympy.Expr = sympy.Rational(1, 2)

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "m", require_int("m", self.m, minimum=QUERIES_RANGE[0], maximum=QUERIES_RANGE[1]))
        object.__setattr__(self, "T", to_exact("T", self.T))

    def _compare(self, x: Hashable, size: int, rng: np.random.Generator, rho: float,
                 nu: float | None) -> tuple[np.ndarray, np.ndarray]:
        """``size`` runs' comparisons (noisy_i >= T + rho, noisy) on the answers q = x: rho ~ Lap(rho/eps) once per
        run, noisy_i = q_i + Lap(nu/eps) (q_i itself when nu is None)."""
        q = as_vector(x, self.m)
        eps = float(self.eps)
        rho_draws = rng.laplace(0.0, rho / eps, size)
        noise = np.zeros((size, self.m)) if nu is None else rng.laplace(0.0, nu / eps, (size, self.m))
        noisy = q + noise
        return noisy >= float(self.T) + rho_draws[:, None], noisy


@dataclass(frozen=True)
class _SVT(_Queries):
    # (rho scale, nu scale) as multiples of 1/eps, for c = 1; nu None means no query noise
    _rho: ClassVar[float]
    _nu: ClassVar[float | None]
    _cutoff: ClassVar[bool] = True

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """All answers 0 vs all 1, and (0^h 1^h) vs (1^h 0^h) (Lyu et al., proof of Theorem 6 style)."""
        h = self.m // 2
        return [((0,) * self.m, (1,) * self.m),
                ((0,) * h + (1,) * (self.m - h), (1,) * h + (0,) * (self.m - h))]

    def _above(self, x: Hashable, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        return self._compare(x, size, rng, self._rho, self._nu)

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


@dataclass(frozen=True)
class _CutoffSVT(_Queries):
    """A sparse vector run stopped after c "above" answers, one output column per query (DP-Sniper's defaults)."""

    T: sympy.Expr = sympy.Integer(1)
    c: int = 2

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "c", require_int("c", self.c, minimum=CUTOFF_RANGE[0], maximum=CUTOFF_RANGE[1]))


@dataclass(frozen=True)
class NumericalSVT(_CutoffSVT):
    """Numerical sparse vector (Wang, Ding, Wang, Kifer, Zhang, "Proving differential privacy with shadow execution",
    PLDI 2019; DP-Sniper's NumericalSVT, github.com/eth-sri/dp-sniper, dpsniper/mechanisms/sparse_vector_technique.py,
    run at eps = 0.1 with c = 2, T = 1, m = 10).

    rho ~ Lap(3/eps) once per run; query i is "above" when q_i + nu_i >= T + rho, nu_i ~ Lap(6c/eps), and then its
    column is q_i + Lap(3c/eps) (noise drawn afresh), else 0; the columns after the c-th "above" are -1000.

    Expected verdict: private (eps-DP). Why: the above/below pattern is Lyu et al.'s Algorithm 1 with eps1 = eps/3
    (rho ~ Lap(1/eps1)) and eps2 = eps/3 (nu_i ~ Lap(2c/eps2)), (eps1 + eps2)-DP when every answer moves by at most 1
    (Lyu, Su, Li, VLDB 2017, Theorem 2); each released answer is a Laplace release of sensitivity 1 costing
    eps/(3c), with noise independent of the pattern, and at most c are released: eps/3 more, eps in all. It is a
    numeric sparse vector in the sense of Dwork and Roth (2014, Section 3.6) with the budget split in thirds.
    DP-Sniper's lower bound stays below eps (Bichsel et al., S&P 2021: 0.034 at eps = 0.1).
    """

    name: ClassVar[str] = "numerical-svt"
    expected_verdict: ClassVar[str] = "private"

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """DP-Sniper's patterns where its best bounds were found: 1^m vs 2^m (all above), and the X shape
        1^h 0^(m-h) vs 0^h 1^(m-h) (h = floor(m/2))."""
        h = self.m // 2
        return [((1,) * self.m, (2,) * self.m), ((1,) * h + (0,) * (self.m - h), (0,) * h + (1,) * (self.m - h))]

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        above, _ = self._compare(x, size, rng, 3.0, 6.0 * self.c)
        released = as_vector(x, self.m) + rng.laplace(0.0, 3.0 * self.c / float(self.eps), (size, self.m))
        return np.where(_answered(above, self.c), np.where(above, released, 0.0), -1000.0)


@dataclass(frozen=True)
class SVT34Parallel(_CutoffSVT):
    """Lyu et al.'s Algorithms 3 and 4 with cutoff c, run on the same answers with independent noise and both outputs
    released (DP-Sniper's SVT34Parallel, github.com/eth-sri/dp-sniper, dpsniper/mechanisms/parallel.py, run at
    eps = 0.1 with c = 2, T = 1, m = 10).

    Columns 1..m, Algorithm 3: rho ~ Lap(2/eps), nu_i ~ Lap(2c/eps); the noisy answer q_i + nu_i where it is "above"
    T + rho, -1000 where below, -2000 after the c-th "above". Columns m+1..2m, Algorithm 4: rho ~ Lap(4/eps),
    nu_i ~ Lap(4/(3 eps)); 1 above, 0 below, -1 after the c-th "above".

    Expected verdict: not private (no finite eps): the output contains Algorithm 3's, which is eps'-DP for no finite
    eps' (Lyu, Su, Li, VLDB 2017, Section 4: a released noisy answer bounds rho, after which every "below" answer
    adds to the likelihood ratio); Algorithm 4's columns alone are not eps-DP either (its Theorem 5 proves
    (1 + 6c) eps / 4, 13 eps / 4 at c = 2). DP-Sniper's lower bound: 0.261 at eps = 0.1 (Bichsel et al., S&P 2021).
    """

    name: ClassVar[str] = "svt34-parallel"
    expected_verdict: ClassVar[str] = "not-private"

    def neighbour_pairs(self) -> Sequence[tuple[Hashable, Hashable]]:
        """DP-Sniper's X pattern, 1^h 0^(m-h) vs 0^h 1^(m-h) (h = floor(m/2)): Algorithm 4's first two "above"
        answers at queries h+1 and h+2 are far likelier under the second (its best bound came from 1^m vs
        2^h 0^(m-h), on which this audit's events do worse)."""
        h = self.m // 2
        return [((1,) * h + (0,) * (self.m - h), (0,) * h + (1,) * (self.m - h))]

    def sample(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        above3, noisy3 = self._compare(x, size, rng, 2.0, 2.0 * self.c)
        above4, _ = self._compare(x, size, rng, 4.0, 4.0 / 3.0)
        algorithm3 = np.where(_answered(above3, self.c), np.where(above3, noisy3, -1000.0), -2000.0)
        algorithm4 = np.where(_answered(above4, self.c), above4.astype(float), -1.0)
        return np.hstack([algorithm3, algorithm4])
