"""The parameters of p-REC and p-REC_sim, the phi function, and the per-round recommendation distribution.

With tau = T/(R + 1) (tau = T for p-REC_sim) the algorithms use

    gamma = m / (3 tau - 1) = m (R + 1) / (3T - R - 1),   lambda = 2m ln tau,   rho = 1 / (2m),
    phi(x) = 0 if x <= rho, else e^{lambda x} - e^{lambda rho} = tau^{2mx} - tau,

and in round t recommend object j with probability

    Pr[b_t = j | b_<t] = gamma / m + (1 - gamma) phi(x_{j,t}) / sum_k phi(x_{k,t}),

where x_{j,t} = a_j / W is the fraction of the W surviving voters that vote for j. The threshold test
x <= rho is done on integers (2 m a_j <= W), so it is exact at x = 1/(2m) (spec A14).

References: 001_8845c8f909738498.txt, Algorithm 1 (p-REC_sim), Algorithm 2 (p-REC), Section 5 (phi);
specs/gilbert_online_recommendation.md, sections 2.1-2.5.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import sympy

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, to_exact

__all__ = [
    "PRECParameters",
    "phi",
    "phi_exact",
    "phi_shares",
    "recommendation_probabilities",
]

SOURCE = "001_8845c8f909738498.txt"


@dataclass(frozen=True)
class PRECParameters:
    """The validated parameters (m, T, D, R) of p-REC and the derived gamma, lambda, rho, tau.

    Validity (spec 2.5, A5; the paper only says "by our choice of gamma and lambda"): m >= 2 objects per
    round; tau = T/(R+1) > 1 so that lambda > 0 and phi(1/m) > 0; tau > (m+1)/3 so that gamma < 1.
    ``gamma`` may be overridden (any value in [0, 1]) to build deliberately broken variants; the default
    is the paper's m / (3 tau - 1).

    Attributes:
        m: objects per round.
        T: number of rounds.
        D: bound on the client's diversity (rounds with more than one liked object), 0 <= D <= T.
        R: peer radius, 0 <= R with T/(R+1) > max(1, (m+1)/3).
        gamma: probability of a uniform recommendation; None means the paper's value.

    References: 001_8845c8f909738498.txt, Algorithms 1 and 2 (initialisation).
    """

    m: int
    T: int
    D: int = 0
    R: int = 0
    gamma: sympy.Expr | None = None

    def __post_init__(self) -> None:
        m = require_int("m", self.m, minimum=2)
        T = require_int("T", self.T, minimum=2)
        D = require_int("D", self.D, minimum=0, maximum=T)
        R = require_int("R", self.R, minimum=0, maximum=T - 2)
        if 3 * T <= (m + 1) * (R + 1):
            raise InvalidParameterError(
                f"T must satisfy tau = T/(R+1) > (m+1)/3, so that gamma = m(R+1)/(3T-R-1) < 1. "
                f"Got T={T}, R={R}, m={m}")
        for name, value in (("m", m), ("T", T), ("D", D), ("R", R)):
            object.__setattr__(self, name, value)
        if self.gamma is None:
            object.__setattr__(self, "gamma", sympy.Rational(m * (R + 1), 3 * T - R - 1))
        else:
            gamma = to_exact("gamma", self.gamma)
            if not (gamma.is_Rational and 0 <= gamma <= 1):
                raise InvalidParameterError(f"gamma must be a rational number in [0, 1]. Got {self.gamma!r}")
            object.__setattr__(self, "gamma", gamma)

    @property
    def tau(self) -> sympy.Rational:
        """tau = T / (R + 1)."""
        return sympy.Rational(self.T, self.R + 1)

    @property
    def lam(self) -> sympy.Expr:
        """lambda = 2 m ln tau."""
        return 2 * self.m * sympy.log(self.tau)

    @property
    def rho(self) -> sympy.Rational:
        """rho = 1 / (2m)."""
        return sympy.Rational(1, 2 * self.m)

    @property
    def is_paper_gamma(self) -> bool:
        """Whether gamma is the paper's m / (3 tau - 1)."""
        return self.gamma == sympy.Rational(self.m * (self.R + 1), 3 * self.T - self.R - 1)

    @cached_property
    def privacy_conditions(self) -> tuple[str, ...]:
        """The hypotheses of the privacy proofs (Lemmas 12-14, 18-19) that these parameters break.

        Empty when all hold: the paper's gamma, and tau >= 2^{3/2} (Lemma 13 needs 5/(6m) >= rho +
        ln 2 / lambda). The instance condition P >= 6m is checked where the instance is known.
        """
        failed = []
        if not self.is_paper_gamma:
            failed.append(f"gamma = {self.gamma} is not the paper's m/(3 tau - 1)")
        if self.tau**2 < 8:
            failed.append(f"tau = T/(R+1) = {self.tau} < 2^(3/2), which Lemma 13 needs")
        return tuple(failed)

    @cached_property
    def lam_float(self) -> float:
        """lambda as a float (for sampling only)."""
        return float(self.lam)


def phi_exact(x: object, lam: object, rho: object) -> sympy.Expr:
    """phi(x) = 0 if x <= rho, else e^{lambda x} - e^{lambda rho}, exactly (Section 5).

    phi is non-decreasing and convex (the maximum of 0 and a convex function) and continuous at rho.

    Raises:
        InvalidParameterError: lambda <= 0, or a value is not a finite real number.

    References: 001_8845c8f909738498.txt, Section 5 (definition of phi).
    """
    x, rho = to_exact("x", x), to_exact("rho", rho)
    lam = to_exact("lam", lam)
    if not lam > 0:
        raise InvalidParameterError(f"lam must be > 0. Got {lam}")
    if x <= rho:
        return sympy.Integer(0)
    return sympy.exp(lam * x) - sympy.exp(lam * rho)


def phi(x: np.ndarray | float, lam: float, rho: float) -> np.ndarray:
    """phi(x) = max(0, e^{lambda x} - e^{lambda rho}) elementwise, as floats (x <= rho gives exactly 0).

    Computed as e^{lambda rho} expm1(lambda (x - rho)) to avoid cancellation just above rho.

    References: 001_8845c8f909738498.txt, Section 5 (definition of phi).
    """
    lam, rho = float(lam), float(rho)
    if not lam > 0:
        raise InvalidParameterError(f"lam must be > 0. Got {lam}")
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore"):
        return np.where(x > rho, np.exp(lam * rho) * np.expm1(lam * (x - rho)), 0.0)


def phi_shares(params: PRECParameters, counts: np.ndarray) -> np.ndarray:
    """phi(x_j) / sum_k phi(x_k) for every object j, from the surviving voters' vote counts (float, vectorised).

    ``counts`` has shape (..., m): counts[..., j] = a_j, the surviving voters voting for j; W = sum_j a_j
    and x_j = a_j / W. Evaluated as (e^{lambda (x_j - x_max)} - e^{lambda (rho - x_max)})_+ normalised, which
    cannot overflow; x_j <= rho (2 m a_j <= W, decided on integers) gives exactly 0. When W = 0 (no
    survivor: possible only when the peer assumption fails) the paper leaves the round undefined and the
    share is uniform.

    References: 001_8845c8f909738498.txt, Algorithm 1, procedure RecommendByWeight.
    """
    counts = np.asarray(counts)
    if counts.shape[-1:] != (params.m,):
        raise InvalidParameterError(f"counts must have {params.m} columns (one per object). Got shape {counts.shape}")
    if np.any(counts < 0):
        raise InvalidParameterError("counts must be >= 0")
    W = counts.sum(axis=-1, keepdims=True)
    x = counts / np.maximum(W, 1)
    shift = x.max(axis=-1, keepdims=True)
    lam = params.lam_float
    weight = np.where(2 * params.m * counts > W,
                      np.exp(lam * (x - shift)) - np.exp(lam * (float(params.rho) - shift)), 0.0)
    total = weight.sum(axis=-1, keepdims=True)
    return np.where(W > 0, weight / np.where(total > 0, total, 1.0), 1.0 / params.m)


def recommendation_probabilities(params: PRECParameters, counts: np.ndarray) -> np.ndarray:
    """Pr[b_t = j | b_<t] = gamma/m + (1 - gamma) phi(x_j) / sum_k phi(x_k) for every object j (float, vectorised).

    ``counts`` as in :func:`phi_shares`.

    References: 001_8845c8f909738498.txt, Algorithm 1, procedure RecommendByWeight.
    """
    gamma = float(params.gamma)
    return gamma / params.m + (1 - gamma) * phi_shares(params, counts)
