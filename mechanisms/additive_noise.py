"""Continuous additive-noise mechanisms on a real input: Laplace and Gaussian, with sympy densities."""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import ContinuousMechanism, check_size
from dpcert.mechanisms.neighbours import WithinDistance
from dpcert.mechanisms.parameters import EPS_RANGE, InvalidParameterError, exact_sign, require_eps, require_positive, to_exact

__all__ = ["Laplace", "LaplaceWrongScale", "Gaussian", "SCALE_RANGE"]

SCALE_RANGE = (sympy.Rational(1, 10**6), sympy.Integer(10**6))
"""sensitivity and sigma lie in [10^-6, 10^6]: noise scales (sensitivity / eps within [10^-10, 10^306]) stay
floats for sampling, and the Gaussian's tails Phi(-(sensitivity / (2 sigma) + eps sigma / sensitivity))
stay within what mpmath evaluates in milliseconds."""


class _AdditiveNoise(ContinuousMechanism):
    sensitivity: sympy.Expr

    def __post_init__(self) -> None:
        """eps in :data:`~dpcert.mechanisms.parameters.EPS_RANGE`; sigma and sensitivity in :data:`SCALE_RANGE`."""
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            exact = (require_eps(f.name, value) if f.name == "eps"
                     else require_positive(f.name, value, at_least=SCALE_RANGE[0], at_most=SCALE_RANGE[1]))
            object.__setattr__(self, f.name, exact)

    @property
    def neighbours(self) -> WithinDistance:
        return WithinDistance(self.sensitivity)

    @property
    @abstractmethod
    def scale(self) -> sympy.Expr:
        """The noise scale b (Laplace) or standard deviation sigma (Gaussian)."""

    @abstractmethod
    def _draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of the noise alone."""

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        size = check_size(size)
        return float(to_exact("x", x)) + self._draw(size, rng)


class _LaplaceFamily(_AdditiveNoise):
    def density(self, y: sympy.Symbol, x: sympy.Expr) -> sympy.Expr:
        """exp(-|y - x| / b) / (2 b)."""
        b = self.scale
        return sympy.exp(-sympy.Abs(y - x) / b) / (2 * b)

    def _draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.laplace(0.0, float(self.scale), size)


@dataclass(frozen=True)
class Laplace(_LaplaceFamily):
    """Laplace mechanism: x + Lap(b) with b = sensitivity / eps.

    Why it is private: the log-density ratio (|y - x'| - |y - x|) / b is at most |x - x'| / b <= eps
    by the triangle inequality.

    References: Dwork, McSherry, Nissim, Smith, "Calibrating noise to sensitivity" (TCC 2006),
    Proposition 1; Dwork and Roth (2014), Theorem 3.6.
    """

    name: ClassVar[str] = "laplace"
    eps: sympy.Expr
    sensitivity: sympy.Expr = sympy.Integer(1)

    @property
    def scale(self) -> sympy.Expr:
        """b = sensitivity / eps."""
        return self.sensitivity / self.eps


@dataclass(frozen=True)
class LaplaceWrongScale(_LaplaceFamily):
    """NEGATIVE CONTROL. Laplace noise with scale eps instead of sensitivity / eps.

    Why it is NOT eps-DP: its worst log-ratio is sensitivity / eps, which exceeds eps whenever
    eps^2 < sensitivity (e.g. eps = 1/2, sensitivity = 1 gives 2 > 1/2). dpcert refutes the claim.
    """

    name: ClassVar[str] = "laplace-wrong-scale"
    eps: sympy.Expr
    sensitivity: sympy.Expr = sympy.Integer(1)

    def __post_init__(self) -> None:
        """As every additive-noise mechanism, and its tightest eps, sensitivity / eps, at most 10^4."""
        super().__post_init__()
        if exact_sign(self.sensitivity / self.eps - EPS_RANGE[1]) > 0:
            raise InvalidParameterError(f"sensitivity / eps (the tightest eps of laplace-wrong-scale) must be <= "
                                        f"{EPS_RANGE[1]}. Got {sympy.Float(self.sensitivity / self.eps, 6)}")

    @property
    def scale(self) -> sympy.Expr:
        """b = eps (the bug)."""
        return self.eps


@dataclass(frozen=True)
class Gaussian(_AdditiveNoise):
    """Gaussian mechanism: x + N(0, sigma^2).

    Not eps-DP for any eps (the privacy loss (sensitivity / sigma^2)(y - x - sensitivity / 2) is
    unbounded), but (eps, delta(eps))-DP with the exact
    delta(eps) = Phi(sensitivity / (2 sigma) - eps sigma / sensitivity)
                 - e^eps Phi(-sensitivity / (2 sigma) - eps sigma / sensitivity).

    References: Balle and Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018),
    Theorem 8.
    """

    name: ClassVar[str] = "gaussian"
    sigma: sympy.Expr
    sensitivity: sympy.Expr = sympy.Integer(1)

    @property
    def scale(self) -> sympy.Expr:
        return self.sigma

    def density(self, y: sympy.Symbol, x: sympy.Expr) -> sympy.Expr:
        """exp(-(y - x)^2 / (2 sigma^2)) / (sigma sqrt(2 pi))."""
        return sympy.exp(-((y - x) ** 2) / (2 * self.sigma**2)) / (self.sigma * sympy.sqrt(2 * sympy.pi))

    def _draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(0.0, float(self.sigma), size)
