"""Shared pieces of the shuffle accountant: argument validation, citations and result helpers."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    exact_sign,
    range_text,
    require_int,
    require_positive,
    require_real,
    to_exact,
)

__all__ = [
    "EPS0_RANGE",
    "N_MAX",
    "DELTA_MIN",
    "K_MAX",
    "L1_MIN",
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
    "fmt21-approx": "Feldman, McMillan, Talwar, \"Hiding Among the Clones\" (FOCS 2021), Theorem 3.8 (approximate-LDP "
                    "randomizers) as two independent implementations state it, with the authors' code's "
                    "ln(4/delta) condition (the theorem's text was not at hand)",
    "fmt23-closed": "Feldman, McMillan, Talwar, \"Stronger Privacy Amplification by Shuffling for Renyi and "
                    "Approximate DP\" (SODA 2023; arXiv:2208.04591 with erratum), closed form",
    "fmt23-numeric": "Feldman, McMillan, Talwar (SODA 2023; arXiv:2208.04591 with erratum), stronger-clone "
                     "reduction evaluated numerically",
    "blanket-hoeffding": "Balle, Bell, Gascon, Nissim, \"The Privacy Blanket of the Shuffle Model\" "
                         "(CRYPTO 2019), blanket decomposition with the Hoeffding bound",
    "blanket-bennett": "Balle, Bell, Gascon, Nissim, \"The Privacy Blanket of the Shuffle Model\" "
                       "(CRYPTO 2019), blanket decomposition with the Bennett bound",
    "optimal": "Balle, Bell, Gascon, Nissim (CRYPTO 2019), the blanket decomposition's mean evaluated, certified; "
               "Su, Cheng, Wang (IEEE S&P 2026): the best decomposition bound",
    "imola-thm4.3": "Imola, Roy Chowdhury, Chaudhuri, \"Metric Differential Privacy at the User-Level\" "
                    "(002_1def8c9789d6e1bd.txt), Theorem 4.3",
    "imola-thm4.4": "Imola, Roy Chowdhury, Chaudhuri (002_1def8c9789d6e1bd.txt), Theorem 4.4 "
                    "(closed form of the supremum over w, specs/imola_metric_dp_user_level.md section 3.2)",
    "exact": "exact hockey-stick divergence of the shuffled count vector (Dwork and Roth 2014, Definition 2.4)",
    "no-amplification": "post-processing: shuffling the outputs of eps0-LDP randomizers is eps0-DP "
                        "(Dwork and Roth 2014, Proposition 2.1)",
}
"""Paper and theorem behind each result name."""


EPS0_RANGE = (sympy.Rational(1, 10**12), sympy.Integer(700))
"""Answerable eps0 (the local randomizers' eps0, or Imola et al.'s alpha0): e^eps0 and e^-eps0 stay normal
float64 numbers (e^700 < 1.8e308, e^-700 > 2.2e-308), which the clone sums' float64 sweep needs; below
10^-12 no local randomizer is in use, and every method answers in seconds within the range."""

N_MAX = 10**30
"""Answerable n (and Imola et al.'s m): the closed forms and the blanket bounds are evaluated in seconds up to
here. The clone sums (fmt21-/fmt23-numeric) and the exact row apply on smaller ranges and say so in their
rows."""

DELTA_MIN = sympy.Rational(1, 10**100)
"""Smallest answerable delta: the clone sums carry probabilities down to delta 10^-12 in float64 (normal
numbers reach 2.2e-308), far from underflow here."""

K_MAX = 10**6
"""Largest k of k-ary randomized response."""

L1_MIN = sympy.Rational(1, 10**12)
"""Smallest total distance ||v||_1 of the changed items (imola-thm4.3), like eps0: alpha0 ||v||_1 / ||v||_0
then stays at least 10^-54 (||v||_0 <= 10^30)."""


@dataclass(frozen=True)
class ShuffleInputs:
    """Validated inputs of a shuffle bound (ranges: :func:`validate_shuffle_inputs`)."""

    eps0: sympy.Expr
    n: int
    delta: sympy.Expr
    k: int | None = None
    l0: int = 1
    """Number of changed items ||v||_0 (imola-thm4.3; every other bound changes one user)."""
    l1: sympy.Expr = sympy.Integer(1)
    """Total distance ||v||_1 <= l0 of the changed items (each distance <= 1)."""


def require_open_unit(name: str, value: object, *, at_least: object | None = None) -> sympy.Expr:
    """``value`` as an exact number in the open interval (0, 1), or in [at_least, 1) when ``at_least`` is given."""
    if at_least is not None:
        return require_real(name, value, low=at_least, high=1, high_open=True)
    expr = to_exact(name, value)
    try:
        inside = exact_sign(expr) > 0 and exact_sign(expr - 1) < 0
    except ArithmeticError as error:
        raise InvalidParameterError(f"{name}: could not decide whether {expr} is in (0, 1)") from error
    if not inside:
        raise InvalidParameterError(f"{name} must be in (0, 1). Got {expr}")
    return expr


def _require_count(name: str, value: object, minimum: int, maximum: int) -> int:
    """An integer in [minimum, maximum]; the range is written as 10^30 rather than 31 digits."""
    allowed = f"{name} must be an integer in {range_text(minimum, maximum)}"
    try:
        number = require_int(name, value)
    except InvalidParameterError:
        shown = repr(value)
        raise InvalidParameterError(f"{allowed}. Got {shown if len(shown) <= 40 else shown[:37] + '...'}") from None
    if not minimum <= number <= maximum:
        sign = "-" if number < 0 else ""
        shown = str(number) if abs(number) < 10**20 else f"about {sign}10^{len(str(abs(number))) - 1}"
        raise InvalidParameterError(f"{allowed}. Got {shown}")
    return number


def validate_shuffle_inputs(eps0: object, n: object, delta: object, *, k: object = None, l0: object = 1,
                            l1: object = None, eps0_name: str = "eps0", n_name: str = "n") -> ShuffleInputs:
    """Validate the arguments of every shuffle bound: the one place their answerable ranges are decided.

    Ranges: eps0 in [10^-12, 700] (:data:`EPS0_RANGE`), n an integer in [2, 10^30] (:data:`N_MAX`), delta in
    [10^-100, 1) (:data:`DELTA_MIN`), k None or an integer in [2, 10^6] (:data:`K_MAX`), l0 an integer in
    [1, n], l1 in [10^-12, l0] (default l0). Every method answers within seconds anywhere in these ranges;
    a method that applies on a smaller range says so in its result (valid=False, the range in its note).

    Args:
        eps0_name, n_name: the names the caller's user knows these parameters by (Imola et al.'s alpha0
            and m), used in error messages.

    Raises:
        InvalidParameterError: a parameter outside its range; the message names it and the range.
    """
    eps0 = require_positive(eps0_name, eps0, at_least=EPS0_RANGE[0], at_most=EPS0_RANGE[1])
    n = _require_count(n_name, n, 2, N_MAX)
    delta = require_open_unit("delta", delta, at_least=DELTA_MIN)
    if k is not None:
        k = require_int("k", k, minimum=2, maximum=K_MAX)
    l0 = require_int("l0", l0, minimum=1, maximum=n)
    l1 = sympy.Integer(l0) if l1 is None else require_real("l1", l1, low=L1_MIN, high=l0)
    return ShuffleInputs(eps0, n, delta, k, l0, l1)


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
