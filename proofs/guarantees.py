"""Privacy guarantees as value objects: what a claim says about a mechanism."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from dpcert.mechanisms.parameters import require_positive, require_unit_interval

__all__ = ["PureDP", "ApproxDP", "MetricDP", "Guarantee"]


def _shown(value: sympy.Expr) -> str:
    """A parameter as people read it: ``log(3) - 1/1000`` (largest term first), in parentheses when it is a sum."""
    text = sympy.sstr(value, order="rev-lex")
    return f"({text})" if isinstance(value, sympy.Add) else text


@dataclass(frozen=True)
class PureDP:
    """eps-DP: P(y | x) <= e^eps P(y | x') for all neighbours x, x' and outputs y."""

    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_positive("eps", self.eps))

    def __str__(self) -> str:
        return f"{_shown(self.eps)}-DP"


@dataclass(frozen=True)
class ApproxDP:
    """(eps, delta)-DP: P(Y in S | x) <= e^eps P(Y in S | x') + delta for every event S and neighbours x, x'.

    Equivalently the hockey-stick divergence sum_y max(P(y | x) - e^eps P(y | x'), 0) is at most delta.
    """

    eps: sympy.Expr
    delta: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_positive("eps", self.eps))
        object.__setattr__(self, "delta", require_unit_interval("delta", self.delta))

    def __str__(self) -> str:
        return f"({sympy.sstr(self.eps, order='rev-lex')}, {sympy.sstr(self.delta, order='rev-lex')})-DP"


@dataclass(frozen=True)
class MetricDP:
    """eps-metric DP (d-privacy): P(y | x) <= exp(eps d(x, x')) P(y | x') for all inputs x, x'.

    References: Chatzikokolakis, Andrés, Bordenabe, Palamidessi, "Broadening the scope of differential
    privacy using metrics" (PETS 2013), Definition 1.
    """

    eps: sympy.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_positive("eps", self.eps))

    def __str__(self) -> str:
        return f"{_shown(self.eps)}-metric-DP"


Guarantee = PureDP | ApproxDP | MetricDP
