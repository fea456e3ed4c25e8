"""Mechanisms the numerical accountant composes, named as on the command line: ``NAME:param=value,...*count``.

A SPEC names a mechanism, its parameters and an optional repeat count, e.g.
``gaussian:sigma=0.8,q=0.005*1000`` or ``laplace:b=10*20``. Names and parameters (sensitivity defaults to 1):

========================  =============================================================================
``gaussian``              sigma in [10^-3, 10^6], sensitivity in [10^-6, 10^6], sensitivity/sigma <= 100
``laplace``               b in [10^-3, 10^6] (or eps: b = sensitivity/eps), sensitivity in [10^-6, 10^6],
                          sensitivity/b <= 1000
``discrete-laplace``      b in [10^-2, 10^4], integer sensitivity in [1, 1000], sensitivity/b <= 1000
``discrete-gaussian``     sigma in [10^-1, 100], integer sensitivity in [1, 1000], sensitivity/sigma <= 100
``randomized-response``   eps in [10^-6, 700]
``k-rr``                  k in [2, 10^6], eps in [10^-6, 700]
``approximate-dp``        eps in [10^-6, 700], delta in [0, 1): the (eps, delta)-DP worst case
``shuffle``               one round of shuffled reports: eps0, n, delta as for ``dpcert bound shuffle``, and k
                          (k-ary randomized response; omitted: any eps0-LDP randomizer) or randomizer (a named
                          randomizer or catalogue SPEC, in parentheses when it has commas); taken as
                          (eps, delta)-DP with eps the certified upper end of the ``optimal`` row; substitution
                          neighbours only (one user's data changed: adding a user changes the count of reports),
                          and no q (the row's own ``sampling`` is for users left out)
any finite mechanism      of ``dpcert mechanisms`` (e.g. ``unary-encoding:k=4,eps=1``), composed on its
                          inputs ``pair=i/j`` (default: every ordered pair when it is the only mechanism);
                          with ``q``, input i is the record present and j the record absent
========================  =============================================================================

Every mechanism also takes ``q`` in [10^-12, 1]: the Poisson sampling rate under add/remove neighbours, or
the fraction m/n of a batch sampled without replacement under substitution. ``count`` is an integer in
[1, 10^6].
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from dpcert.accountant.loss_mechanisms import (
    discrete_gaussian_pair,
    discrete_laplace_pair,
    dp_pair,
    finite_pair,
    gaussian_pair,
    laplace_pair,
    randomized_response_pair,
)
from dpcert.accountant.loss_pairs import LossPair
from dpcert.accountant.shuffle import shuffle_bound
from dpcert.accountant.spec_syntax import parse_spec
from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_positive, require_real
from dpcert.proofs.rounding import float_lower, float_upper

__all__ = ["BUILT_IN", "NEIGHBOURS", "Component", "make_component"]

NEIGHBOURS = ("add-remove", "substitute")
MAX_FINITE_INPUTS = 8
"""A finite mechanism without ``pair=`` is composed on every ordered pair of its inputs: at most 8 inputs."""

_SCALE = (sympy.Rational(1, 1000), sympy.Integer(10**6))
_SENSITIVITY = (sympy.Rational(1, 10**6), sympy.Integer(10**6))
MAX_GAUSSIAN_RATIO = 100
"""sensitivity/sigma of a Gaussian at most 100: its loss N(mu^2/2, mu^2) then spans about +-10^4 (eps ~ 5000)."""
MAX_LAPLACE_RATIO = 1000
"""sensitivity/b of a (discrete) Laplace at most 1000: its losses lie in [-1000, 1000]."""
_EPS = (sympy.Rational(1, 10**6), sympy.Integer(700))
_Q_MIN = sympy.Rational(1, 10**12)

BUILT_IN: dict[str, tuple[str, ...]] = {
    "gaussian": ("sigma", "sensitivity", "q"),
    "laplace": ("b", "eps", "sensitivity", "q"),
    "discrete-laplace": ("b", "sensitivity", "q"),
    "discrete-gaussian": ("sigma", "sensitivity", "q"),
    "randomized-response": ("eps", "q"),
    "k-rr": ("k", "eps", "q"),
    "approximate-dp": ("eps", "delta", "q"),
    "shuffle": ("eps0", "n", "k", "randomizer", "delta"),
}


@dataclass(frozen=True)
class Component:
    """One mechanism, repeated ``count`` times, as its ordered dominating pairs.

    Attributes:
        name, parameters: as the user wrote them (for display).
        pairs: direction -> (pair for the upper side, pair for the lower side). The composition is evaluated
            for every direction (the same key in every component) and the largest delta is the answer; a
            symmetric mechanism has the same pair under "first" and "second". The two sides differ only for a
            subsampled mechanism whose rate q is not a float: the upper side uses the float above q and the
            lower side the float below (the mixture's hockey-stick curve grows with q: the pair at a smaller
            rate is the one at a larger rate post-processed by "keep the output with probability q1/q2, else
            draw afresh from Q").
        count: the repeat count.
        unit: a loss every atom of the mechanism is an integer multiple of (an exact rational), when there is one:
            a grid whose step divides it places those atoms exactly.
        exact: ("gaussian", mu) for a plain Gaussian (composed exactly by Balle and Wang), ("rr", eps) for
            binary randomized response (Kairouz, Oh, Viswanath), else None.
    """

    name: str
    parameters: tuple[tuple[str, str], ...]
    pairs: dict[str, tuple[LossPair, LossPair]]
    count: int
    unit: sympy.Rational | None = None
    exact: tuple[str, sympy.Expr] | None = None

    @property
    def label(self) -> str:
        text = ",".join(f"{k}={v}" for k, v in self.parameters)
        return f"{self.name}:{text}" + (f"*{self.count}" if self.count != 1 else "")


def _scale(name: str, value: str) -> sympy.Expr:
    return require_positive(name, value, at_least=_SCALE[0], at_most=_SCALE[1])


def _eps(value: str) -> sympy.Expr:
    return require_positive("eps", value, at_least=_EPS[0], at_most=_EPS[1])


def _rational_unit(value: sympy.Expr) -> sympy.Rational | None:
    return value if value.is_Rational else None


def _built_in(name: str, raw: dict[str, str]) -> tuple[LossPair, sympy.Rational | None, tuple[str, sympy.Expr] | None]:
    """The (symmetric) pair of a built-in mechanism, its loss unit and exact form."""
    sensitivity_default = "1"
    if name == "gaussian":
        sigma = _scale("sigma", _need(name, raw, "sigma"))
        sensitivity = _sensitivity(raw.get("sensitivity", sensitivity_default))
        _ratio("sensitivity/sigma", sensitivity / sigma, MAX_GAUSSIAN_RATIO)
        return gaussian_pair(sigma, sensitivity), None, ("gaussian", sensitivity / sigma)
    if name == "laplace":
        sensitivity = _sensitivity(raw.get("sensitivity", sensitivity_default))
        if ("b" in raw) == ("eps" in raw):
            raise InvalidParameterError("laplace needs exactly one of b (scale) or eps (b = sensitivity/eps)")
        b = _scale("b", raw["b"]) if "b" in raw else sensitivity / _eps(raw["eps"])
        if not _SCALE[0] <= b <= _SCALE[1]:
            raise InvalidParameterError(f"b must be in [1/1000, 10^6]. Got b = sensitivity/eps = {b}")
        _ratio("sensitivity/b", sensitivity / b, MAX_LAPLACE_RATIO)
        return laplace_pair(b, sensitivity), _rational_unit(sensitivity / b), None
    if name in ("discrete-laplace", "discrete-gaussian"):
        sensitivity = require_int("sensitivity", raw.get("sensitivity", sensitivity_default), minimum=1, maximum=1000)
        if name == "discrete-laplace":
            b = require_positive("b", _need(name, raw, "b"), at_least=sympy.Rational(1, 100), at_most=10**4)
            _ratio("sensitivity/b", sensitivity / b, MAX_LAPLACE_RATIO)
            return discrete_laplace_pair(b, sensitivity), _rational_unit(1 / b), None
        sigma = require_positive("sigma", _need(name, raw, "sigma"), at_least=sympy.Rational(1, 10), at_most=100)
        _ratio("sensitivity/sigma", sensitivity / sigma, MAX_GAUSSIAN_RATIO)
        return discrete_gaussian_pair(sigma, sensitivity, 1e-300), _rational_unit(sensitivity / (2 * sigma ** 2)), None
    if name == "randomized-response":
        eps = _eps(_need(name, raw, "eps"))
        return randomized_response_pair(eps), _rational_unit(eps), ("rr", eps)
    if name == "k-rr":
        k = require_int("k", _need(name, raw, "k"), minimum=2, maximum=10**6)
        eps = _eps(_need(name, raw, "eps"))
        return randomized_response_pair(eps, k=k), _rational_unit(eps), ("rr", eps) if k == 2 else None
    if name == "shuffle":
        return _shuffled(raw)
    eps = _eps(_need(name, raw, "eps"))
    delta = require_real("delta", _need(name, raw, "delta"), low=0, high=1, high_open=True)
    return dp_pair(eps, delta), _rational_unit(eps), None


def _shuffled(raw: dict[str, str]) -> tuple[LossPair, sympy.Rational | None, None]:
    """The (eps, delta) pair of one shuffled round: eps the certified upper end of the shuffle row ``optimal`` (raised
    to 10^-6 if below: a larger eps is still an upper bound)."""
    randomizer = raw.get("randomizer")
    if randomizer is not None and randomizer.startswith("(") and randomizer.endswith(")"):
        randomizer = randomizer[1:-1]
    delta = _need("shuffle", raw, "delta")
    row = shuffle_bound("optimal", _need("shuffle", raw, "eps0"), _need("shuffle", raw, "n"), delta,
                        k=raw.get("k"), randomizer=randomizer, lower_end=False)
    if not row.valid or row.upper_value is None:
        raise InvalidParameterError(f"shuffle: no certified eps for this round ({row.note})")
    eps = max(sympy.Rational(row.upper_value), _EPS[0])
    if eps > _EPS[1]:
        raise InvalidParameterError(f"shuffle: the round's certified eps {float(eps):.6g} exceeds {_EPS[1]}")
    return dp_pair(eps, require_real("delta", delta, low=0, high=1, high_open=True)), _rational_unit(eps), None


def _sensitivity(value: str) -> sympy.Expr:
    return require_positive("sensitivity", value, at_least=_SENSITIVITY[0], at_most=_SENSITIVITY[1])


def _ratio(name: str, value: sympy.Expr, limit: int) -> None:
    if value > limit:
        raise InvalidParameterError(f"{name} must be <= {limit} (the privacy loss would span more than the "
                                    f"grid's answerable range). Got {value}")


def _need(name: str, raw: dict[str, str], key: str) -> str:
    if key not in raw:
        raise InvalidParameterError(f"{name} needs {key}=VALUE (see `dpcert compose --help`)")
    return raw[key]


def _finite(name: str, raw: dict[str, str], *, alone: bool) -> dict[str, LossPair]:
    """The ordered pairs of a catalogued finite mechanism's inputs."""
    pair = raw.pop("pair", None)
    mechanism = make_mechanism(name, raw)
    if not isinstance(mechanism, FiniteMechanism):
        raise InvalidParameterError(f"mechanism {name!r} has no finite pmf; compose names a built-in "
                                    f"({', '.join(BUILT_IN)}) or a finite mechanism of `dpcert mechanisms`")
    inputs = list(mechanism.inputs())
    outputs = list(mechanism.outputs())
    rows = []
    for x in inputs:
        pmf = mechanism.pmf(x)
        rows.append([pmf.get(y, sympy.Integer(0)) for y in outputs])
    if pair is not None:
        first, slash, second = pair.partition("/")
        if not slash:
            raise InvalidParameterError(f"pair must read i/j (input indices). Got {pair!r}")
        i = require_int("pair", first, minimum=0, maximum=len(inputs) - 1)
        j = require_int("pair", second, minimum=0, maximum=len(inputs) - 1)
        if i == j:
            raise InvalidParameterError(f"pair must name two different inputs. Got {pair!r}")
        return {"first": finite_pair(rows, i, j, f"{name} inputs {i}/{j}"),
                "second": finite_pair(rows, j, i, f"{name} inputs {j}/{i}")}
    if not alone:
        raise InvalidParameterError(f"{name} composed with other mechanisms needs pair=i/j (which two inputs the "
                                    "whole composition's neighbours give it)")
    if len(inputs) > MAX_FINITE_INPUTS:
        raise InvalidParameterError(f"{name} has {len(inputs)} inputs: give pair=i/j (every ordered pair is composed "
                                    f"for at most {MAX_FINITE_INPUTS} inputs)")
    return {f"{i}/{j}": finite_pair(rows, i, j, f"{name} inputs {i}/{j}")
            for i in range(len(inputs)) for j in range(len(inputs)) if i != j}


def make_component(text: str, *, alone: bool = True) -> Component:
    """The :class:`Component` a SPEC names (``alone``: it is the only mechanism of the composition)."""
    name, raw, count = parse_spec(text)
    shown = tuple(raw.items())
    q_text = raw.pop("q", None)
    if name == "shuffle" and q_text is not None:
        raise InvalidParameterError("shuffle takes no q (the shuffle row's own sampling is not offered here)")
    if name in BUILT_IN:
        unknown = sorted(set(raw) - set(BUILT_IN[name]))
        if unknown:
            raise InvalidParameterError(f"{name} has no parameter {unknown[0]!r}; its parameters are "
                                        f"{', '.join(BUILT_IN[name])}")
        built, unit, exact = _built_in(name, raw)
        pairs = {"first": built, "second": built}
    elif name in CATALOG:
        pairs, unit, exact = _finite(name, raw, alone=alone), None, None
    else:
        raise InvalidParameterError(f"mechanism must be one of {', '.join(BUILT_IN)} or a finite mechanism of "
                                    f"`dpcert mechanisms`. Got {name!r}")
    sides = {key: (pair, pair) for key, pair in pairs.items()}
    if q_text is not None:
        q = require_real("q", q_text, low=_Q_MIN, high=1)
        if q != 1:
            rates = (float_upper(q), float_lower(q))

            def mixed(pair: LossPair, order: str) -> tuple[LossPair, LossPair]:
                return pair.subsampled(rates[0], order), pair.subsampled(rates[1], order)

            if set(pairs) == {"first", "second"}:  # both mixture orders of one base pair (for pair=i/j: i present)
                sides = {"first": mixed(pairs["first"], "first"), "second": mixed(pairs["first"], "second")}
            else:  # every ordered pair, each in both orders of the mixture
                sides = {f"{key} {order}": mixed(pair, order) for key, pair in pairs.items()
                         for order in ("first", "second")}
            unit, exact = None, None
    return Component(name, shown, sides, count, unit, exact)
