"""The catalogue of named mechanisms and their parameters, as the command line knows them."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mechanisms.additive_noise import Gaussian, Laplace, LaplaceWrongScale
from mechanisms.base import Mechanism
from mechanisms.exponential import ExponentialMechanism
from mechanisms.geometric import Geometric, GeometricRenormalized
from mechanisms.parameters import InvalidParameterError
from mechanisms.randomized_response import KaryRandomizedResponse, RandomizedResponse
from mechanisms.recommenders.sketches import (
    MaxSenseSketch,
    MembershipQuery,
    MultiMaxSenseSketch,
    PairwisePreferenceSketch,
    RatedPairSketch,
    RatedPairSketchPublicItems,
)
from mechanisms.unary_encoding import UnaryEncoding
from mechanisms.user_level.gkrr import GeneralizedKRR

__all__ = ["MechanismEntry", "Parameter", "CATALOG", "make_mechanism", "parse_utilities"]


def parse_utilities(text: str) -> tuple[tuple[str, ...], ...]:
    """Read a utility matrix written as JSON, e.g. ``[[0, 1, 2], [1, 1, 2]]`` (entries may be strings such as "1/2")."""
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidParameterError(f"utilities must be a JSON list of rows such as [[0,1],[1,1]]. Got {text!r}") from error
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise InvalidParameterError(f"utilities must be a JSON list of rows such as [[0,1],[1,1]]. Got {text!r}")
    return tuple(tuple(str(v) for v in r) for r in rows)


@dataclass(frozen=True)
class Parameter:
    """One parameter of a catalogued mechanism."""

    name: str
    help: str
    default: str | None = None
    parse: Callable[[str], object] = str


@dataclass(frozen=True)
class MechanismEntry:
    """A catalogued mechanism: its class, parameters and whether it is a deliberate negative control."""

    name: str
    factory: type[Mechanism]
    parameters: tuple[Parameter, ...]
    summary: str
    negative_control: bool = False

    def build(self, raw: Mapping[str, object]) -> Mechanism:
        """Construct the mechanism from raw (string or exact) parameter values."""
        known = {p.name: p for p in self.parameters}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise InvalidParameterError(
                f"{self.name} has no parameter {unknown[0]!r}; its parameters are {', '.join(known)}"
            )
        values = {}
        for p in self.parameters:
            if p.name in raw:
                value = raw[p.name]
                values[p.name] = p.parse(value) if isinstance(value, str) else value
            elif p.default is None:
                raise InvalidParameterError(f"{self.name} needs --param {p.name}=VALUE ({p.help})")
            else:
                values[p.name] = p.parse(p.default)
        return self.factory(**values)


_EPS = Parameter("eps", "privacy parameter eps > 0 (exact: 1, 0.5, 3/2, log(3))")
_SENSITIVITY = Parameter("sensitivity", "sensitivity > 0", default="1")
_RANGE = (Parameter("lo", "smallest input and output (integer)", default="0"),
          Parameter("hi", "largest input and output (integer > lo)", default="10"))

_ITEMS = Parameter("N", "number of items (integer >= 2)")
_RATED = Parameter("w", "items rated per user (1 <= w <= N)")
_RULE = Parameter("rule", "S0 rule: both-rated-equal | literal | both-positive", default="both-rated-equal")

CATALOG: dict[str, MechanismEntry] = {
    e.name: e
    for e in (
        MechanismEntry("randomized-response", RandomizedResponse, (_EPS,),
                       "eps-DP bit release (binary randomized response)"),
        MechanismEntry("k-rr", KaryRandomizedResponse,
                       (Parameter("k", "number of values, integer >= 2"), _EPS), "k-ary randomized response"),
        MechanismEntry("unary-encoding", UnaryEncoding,
                       (Parameter("k", "number of values, integer >= 2"), _EPS,
                        Parameter("variant", "sue | oue", default="oue")),
                       "unary encoding: symmetric (SUE, basic RAPPOR) or optimised (OUE)"),
        MechanismEntry("geometric", Geometric, (_EPS, *_RANGE),
                       "two-sided geometric noise on [lo, hi], tails clamped onto the end points"),
        MechanismEntry("geometric-renormalized", GeometricRenormalized, (_EPS, *_RANGE),
                       "geometric noise truncated by renormalising (not eps-DP)", negative_control=True),
        MechanismEntry("exponential", ExponentialMechanism,
                       (_EPS, _SENSITIVITY,
                        Parameter("utilities", "JSON matrix u[x][r]; consecutive rows are neighbours",
                                  parse=parse_utilities)),
                       "exponential mechanism over finitely many outputs"),
        MechanismEntry("laplace", Laplace, (_EPS, _SENSITIVITY), "Laplace noise of scale sensitivity/eps"),
        MechanismEntry("laplace-wrong-scale", LaplaceWrongScale, (_EPS, _SENSITIVITY),
                       "Laplace noise of scale eps (not eps-DP when eps^2 < sensitivity)", negative_control=True),
        MechanismEntry("pairwise-preference-sketch", PairwisePreferenceSketch,
                       (_ITEMS, _RATED, _EPS, Parameter("pair", "public probed pair of items, e.g. 0,3", default="0,1"),
                        _RULE),
                       "Pairwise-Preference user sketch for a public pair (000_0c6e7fdc3fd68303.txt, Theorem 8)"),
        MechanismEntry("rated-pair-sketch", RatedPairSketch, (_ITEMS, _RATED, _EPS, _RULE),
                       "variant (ii): the pair is drawn from the rated items (not private w.r.t. which items)",
                       negative_control=True),
        MechanismEntry("rated-pair-sketch-public-items", RatedPairSketchPublicItems,
                       (_EPS, Parameter("items", "the public rated items, e.g. 0,2,4", default="0,1"), _RULE),
                       "variant (ii) with the rated items public: eps-DP for the ratings"),
        MechanismEntry("maxsense-sketch", MaxSenseSketch,
                       (_ITEMS, _RATED, _EPS, Parameter("sensing", "public 0/1 sensing vector of length N, e.g. 01010")),
                       "MaxSense user sketch for a public sensing vector (Theorem 15)"),
        MechanismEntry("multi-maxsense-sketch", MultiMaxSenseSketch,
                       (_ITEMS, _RATED, _EPS, Parameter("blocks", "disjoint public item blocks, e.g. 0 1|2 3")),
                       "Multi-MaxSense user sketch: one eps/Q bit per block (Theorem 16)"),
        MechanismEntry("membership-query", MembershipQuery,
                       (_ITEMS, Parameter("A", "set of (item, bit) pairs as JSON, e.g. [[0,1],[2,0]]")),
                       "non-private 1-bit membership query, w = 1 (Theorem 10 proof)", negative_control=True),
        MechanismEntry("gkrr", GeneralizedKRR,
                       (Parameter("alpha0", "per-item metric-DP parameter alpha0 > 0 (exact: 1, 1/2, log(3))"),
                        Parameter("s", "number of clusters, integer >= 1"),
                        Parameter("t", "points per cluster, integer >= 1 (s * t >= 2)"),
                        Parameter("r", "distance within a cluster, in (0, 1/2)")),
                       "generalized k-RR on the clustered metric B x C, alpha0-metric-DP "
                       "(002_1def8c9789d6e1bd.txt, Section 6.2)"),
        MechanismEntry("gaussian", Gaussian,
                       (Parameter("sigma", "noise standard deviation > 0"), _SENSITIVITY),
                       "Gaussian noise: (eps, delta)-DP, never pure eps-DP"),
    )
}


def make_mechanism(name: str, raw: Mapping[str, object] | None = None) -> Mechanism:
    """Build the catalogued mechanism ``name`` from raw parameter values.

    Example:
        >>> make_mechanism("k-rr", {"k": "3", "eps": "log(2)"}).pmf(0)[0]
        1/2
    """
    if name not in CATALOG:
        raise InvalidParameterError(f"mechanism must be one of {', '.join(CATALOG)}. Got {name!r}")
    return CATALOG[name].build(raw or {})
