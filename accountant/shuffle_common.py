"""Shared pieces of the shuffle accountant: argument validation, citations and result helpers."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from accountant.bound_result import BoundResult
from mechanisms.parameters import (
    InvalidParameterError,
    exact_sign,
    require_int,
    require_positive,
    to_exact,
)

__all__ = [
    "ShuffleInputs",
    "validate_shuffle_inputs",
    "require_open_unit",
    "randomizer_label",
    "invalid",
    "interval_result",
    "SOURCES",
]

SOURCES = {
    "efmrtt19": "Erlingsson, Feldman, Mironov, Raghunathan, Talwar, Thakurta, \"Amplification by shuffling\" "
                "(SODA 2019), amplification theorem for eps0 <= 1/2 (constant 12)",
    "fmt21-closed": "Feldman, McMillan, Talwar, \"Hiding Among the Clones\" (FOCS 2021), Theorem 3.1",
    "fmt21-numeric": "Feldman, McMillan, Talwar, \"Hiding Among the Clones\" (FOCS 2021), clone reduction "
                     "(Theorem 3.2 with Lemma 3.3) evaluated numerically, every c summed, rigorously enclosed",
    "fmt23-closed": "Feldman, McMillan, Talwar, \"Stronger Privacy Amplification by Shuffling for Renyi and "
                    "Approximate DP\" (SODA 2023; arXiv:2208.04591 with erratum), closed form",
    "fmt23-numeric": "Feldman, McMillan, Talwar (SODA 2023; arXiv:2208.04591 with erratum), stronger-clone "
                     "reduction evaluated numerically",
    "blanket-hoeffding": "Balle, Bell, Gascon, Nissim, \"The Privacy Blanket of the Shuffle Model\" "
                         "(CRYPTO 2019), blanket decomposition with the Hoeffding bound",
    "blanket-bennett": "Balle, Bell, Gascon, Nissim, \"The Privacy Blanket of the Shuffle Model\" "
                       "(CRYPTO 2019), blanket decomposition with the Bennett bound",
    "imola-thm4.3": "Imola, Roy Chowdhury, Chaudhuri, \"Metric Differential Privacy at the User-Level\" "
                    "(002_1def8c9789d6e1bd.txt), Theorem 4.3",
    "imola-thm4.4": "Imola, Roy Chowdhury, Chaudhuri (002_1def8c9789d6e1bd.txt), Theorem 4.4 "
                    "(closed form of the supremum over w, specs/imola_metric_dp_user_level.md section 3.2)",
    "exact": "exact hockey-stick divergence of the shuffled count vector (Dwork and Roth 2014, Definition 2.4)",
    "no-amplification": "post-processing: shuffling the outputs of eps0-LDP randomizers is eps0-DP "
                        "(Dwork and Roth 2014, Proposition 2.1)",
}
"""Paper and theorem behind each result name."""


@dataclass(frozen=True)
class ShuffleInputs:
    """Validated inputs of a shuffle bound: eps0 > 0, n >= 2 users, 0 < delta < 1, optional k >= 2."""

    eps0: sympy.Expr
    n: int
    delta: sympy.Expr
    k: int | None = None


def require_open_unit(name: str, value: object) -> sympy.Expr:
    """``value`` as an exact number in the open interval (0, 1)."""
    expr = to_exact(name, value)
    try:
        inside = exact_sign(expr) > 0 and exact_sign(expr - 1) < 0
    except ArithmeticError as error:
        raise InvalidParameterError(f"{name}: could not decide whether {expr} is in (0, 1)") from error
    if not inside:
        raise InvalidParameterError(f"{name} must be in (0, 1). Got {expr}")
    return expr


def validate_shuffle_inputs(eps0: object, n: object, delta: object, k: object = None) -> ShuffleInputs:
    """Validate the common arguments of every shuffle bound, naming the parameter on error.

    Raises:
        InvalidParameterError: eps0 <= 0, n < 2 or not an integer, delta outside (0, 1), k < 2.
    """
    eps0 = require_positive("eps0", eps0)
    n = require_int("n", n, minimum=2)
    delta = require_open_unit("delta", delta)
    if k is not None:
        k = require_int("k", k, minimum=2)
    return ShuffleInputs(eps0, n, delta, k)


def randomizer_label(k: int | None) -> str:
    """A readable name for the local randomizer class a bound is computed for."""
    if k is None:
        return "any eps0-LDP randomizer"
    if k == 2:
        return "binary randomized response"
    return f"{k}-ary randomized response"


def invalid(name: str, reason: str, *, source: str | None = None, bounds: str = "upper") -> BoundResult:
    """A result whose theorem does not apply: value None, valid=False, the reason in ``note``."""
    return BoundResult(name=name, source=source or SOURCES.get(name, name), value=None, units="eps",
                       valid=False, note=reason, bounds=bounds)


def interval_result(name: str, lower: float | sympy.Expr, upper: float | sympy.Expr, note: str, *,
                    source: str | None = None, units: str = "eps", bounds: str = "upper",
                    valid: bool = True) -> BoundResult:
    """A numerical result known to lie in [lower, upper]; ``value`` is the safe end (the lower end for a
    lower bound, else the upper end). ``bounds`` and ``valid`` as in :class:`BoundResult`; the enclosure
    is certified either way (an invalid row here is a certified lower bound that its family cannot use)."""
    lo = sympy.Rational(lower) if isinstance(lower, float) else sympy.sympify(lower)
    hi = sympy.Rational(upper) if isinstance(upper, float) else sympy.sympify(upper)
    return BoundResult(name=name, source=source or SOURCES.get(name, name), value=lo if bounds == "lower" else hi,
                       units=units, valid=valid, note=note, lower_value=lo, upper_value=hi, bounds=bounds,
                       certified=True)
