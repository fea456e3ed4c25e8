"""The catalogue of named mechanisms and their parameters, as the command line knows them.

One table for every mechanism a user can name: the standard ones, the seed papers' finite mechanisms
that take plain parameters, and the auditing zoo (``sampler_only``: the literature's samplers, which have
no exact law for the checkers and are judged by ``dpcert audit``). Mechanisms built from other objects
(PrivEMDItemWise over a local randomizer, p-REC's transcripts) are constructed in Python.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dpcert.mechanisms.additive_noise import SCALE_RANGE, Gaussian, Laplace, LaplaceWrongScale
from dpcert.mechanisms.base import Mechanism
from dpcert.mechanisms.exponential import MAX_UTILITIES, UTILITY_BOUND, ExponentialMechanism
from dpcert.mechanisms.geometric import MAX_END, Geometric, GeometricRenormalized
from dpcert.mechanisms.parameters import EPS_RANGE, InvalidParameterError, range_text
from dpcert.mechanisms.randomized_response import MAX_ENUMERATED_K as KRR_ENUMERATED_K
from dpcert.mechanisms.randomized_response import MAX_K as KRR_MAX_K
from dpcert.mechanisms.randomized_response import (DELTA0_RANGE, KaryRandomizedResponse, LeakyRandomizedResponse,
                                                   RandomizedResponse)
from dpcert.mechanisms.price_of_privacy.sketches import (
    MAX_ITEMS,
    MaxSenseSketch,
    MembershipQuery,
    MultiMaxSenseSketch,
    PairwisePreferenceSketch,
    RatedPairSketch,
    RatedPairSketchPublicItems,
)
from dpcert.mechanisms.unary_encoding import MAX_ENUMERATED_K as UE_ENUMERATED_K
from dpcert.mechanisms.unary_encoding import MAX_K as UE_MAX_K
from dpcert.mechanisms.unary_encoding import UnaryEncoding
from dpcert.mechanisms.metric_user_level.gkrr import MAX_CLUSTER_SIZE, MAX_ENUMERATED_POINTS, GeneralizedKRR
from dpcert.mechanisms.metric_user_level.hadamard import MAX_ENUMERATED_HADAMARD_K, MAX_HADAMARD_K, HadamardResponse
from dpcert.mechanisms.zoo.geometric import DENOMINATOR_BITS, GEOSAMPLE_EPS_RANGE, TruncatedGeometric
from dpcert.mechanisms.zoo.histogram import BINS_RANGE, Histogram, HistogramWrongScale
from dpcert.mechanisms.zoo.laplace import COPIES_RANGE, GRANULARITY_RANGE, LaplaceExact, LaplaceFloat, LaplaceParallel
from dpcert.mechanisms.zoo.noisy_max import QUERIES_RANGE as NOISY_MAX_QUERIES
from dpcert.mechanisms.zoo.noisy_max import NoisyMax, NoisyMaxExponential, NoisyMaxExponentialValue, NoisyMaxValue
from dpcert.mechanisms.zoo.prefix_sum import QUERIES_RANGE as PREFIX_SUM_QUERIES
from dpcert.mechanisms.zoo.prefix_sum import PrefixSum
from dpcert.mechanisms.zoo.rappor import OneTimeRappor, Rappor
from dpcert.mechanisms.zoo.svt import QUERIES_RANGE as SVT_QUERIES
from dpcert.mechanisms.zoo.svt import CUTOFF_RANGE, SVT1, SVT2, SVT3, SVT4, SVT5, SVT6, NumericalSVT, SVT34Parallel

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
    """A catalogued mechanism: its class, parameters, whether it is a deliberate negative control, and whether
    it is only a sampler (no exact law: ``dpcert audit`` bounds its eps, ``verify``/``epsilon`` cannot)."""

    name: str
    factory: type[Mechanism]
    parameters: tuple[Parameter, ...]
    summary: str
    negative_control: bool = False
    sampler_only: bool = False

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


# The ranges are the validators' own (each mechanism's __post_init__), shown here for `dpcert mechanisms`.
_EPS = Parameter("eps", f"privacy parameter eps in {range_text(*EPS_RANGE)} (exact: 1, 0.5, 3/2, log(3))")
_SKETCH_EPS = Parameter("eps", "privacy parameter eps > 0 (exact: 1, 0.5, 3/2, log(3))")
_SENSITIVITY = Parameter("sensitivity", f"sensitivity in {range_text(*SCALE_RANGE)}", default="1")
_RANGE = (Parameter("lo", f"smallest input and output, an integer in {range_text(-MAX_END, MAX_END)}", default="0"),
          Parameter("hi", f"largest input and output, an integer > lo in {range_text(-MAX_END, MAX_END)} (the exact "
                          f"checker enumerates hi - lo <= {Geometric.max_enumerated_span}, "
                          f"{GeometricRenormalized.max_enumerated_span} for the renormalised one)", default="10"))

_ITEMS = Parameter("N", f"number of items, an integer in {range_text(2, MAX_ITEMS)}")
_RATED = Parameter("w", "items rated per user (1 <= w <= N)")
_RULE = Parameter("rule", "S0 rule: both-rated-equal | literal | both-positive", default="both-rated-equal")

# The auditing zoo: eps defaults to the claim `dpcert audit --eps` states.
_ZOO_EPS = Parameter("eps", f"noise parameter eps in {range_text(*EPS_RANGE)} (`dpcert audit`: the claimed --eps "
                            "unless given)")
_QUERIES = Parameter("m", f"number of queries, an integer in {range_text(*SVT_QUERIES)}", default="10")
_THRESHOLD = "threshold, an exact number (1/2, 3)"
_SVT = (_ZOO_EPS, _QUERIES, Parameter("T", _THRESHOLD, default="1/2"))
_CUTOFF_SVT = (_ZOO_EPS, _QUERIES, Parameter("T", _THRESHOLD, default="1"),
               Parameter("c", f"above answers after which a run stops, an integer in {range_text(*CUTOFF_RANGE)}",
                         default="2"))
_NOISY_MAX = (_ZOO_EPS, Parameter("k", f"number of queries, an integer in {range_text(*NOISY_MAX_QUERIES)}",
                                  default="5"))
_GEOSAMPLE = (Parameter("eps", f"noise parameter eps in {range_text(*GEOSAMPLE_EPS_RANGE)}, k = ceil(ln(2/eps)) "
                              "(`dpcert audit`: the claimed --eps unless given)"),
              Parameter("n", f"counts 0..n, an integer >= 1 with (2^(k+1) + 1)(2^k + 1)^(n-1) < 2^{DENOMINATOR_BITS} "
                             "(n <= 19 at eps = 1/10)", default="5"))
_BINS = (_ZOO_EPS, Parameter("bins", f"number of bins, an integer in {range_text(*BINS_RANGE)}", default="4"))
_LYU = "(Lyu, Su, Li, VLDB 2017, Algorithm {})"
_SNIPER = "DP-Sniper's {} at eps = 1/10"


def _zoo(factory: type[Mechanism], parameters: tuple[Parameter, ...], summary: str, *,
         name: str | None = None) -> MechanismEntry:
    """A zoo row: a sampler only, a negative control when the literature shows it is not private; ``name`` lists the
    same sampler under another name (DP-Sniper's, where the zoo's own came first)."""
    return MechanismEntry(name or factory.name, factory, parameters, summary,
                          negative_control=factory.expected_verdict == "not-private", sampler_only=True)


CATALOG: dict[str, MechanismEntry] = {
    e.name: e
    for e in (
        MechanismEntry("randomized-response", RandomizedResponse, (_EPS,),
                       "eps-DP bit release (binary randomized response)"),
        MechanismEntry("leaky-rr", LeakyRandomizedResponse,
                       (_EPS, Parameter("delta0", f"probability of revealing the input, in {range_text(*DELTA0_RANGE)}")),
                       "binary randomized response that reveals its input with probability delta0 ((eps, delta0)-DP)"),
        MechanismEntry("k-rr", KaryRandomizedResponse,
                       (Parameter("k", f"number of values, an integer in {range_text(2, KRR_MAX_K)} (the exact checker "
                                       f"enumerates k <= {KRR_ENUMERATED_K}; --symbolic: any k)"), _EPS),
                       "k-ary randomized response"),
        MechanismEntry("unary-encoding", UnaryEncoding,
                       (Parameter("k", f"number of values, an integer in {range_text(2, UE_MAX_K)} (the exact checker "
                                       f"enumerates k <= {UE_ENUMERATED_K}; --symbolic: any k)"), _EPS,
                        Parameter("variant", "sue | oue", default="oue")),
                       "unary encoding: symmetric (SUE, basic RAPPOR) or optimised (OUE)"),
        MechanismEntry("geometric", Geometric, (_EPS, *_RANGE),
                       "two-sided geometric noise on [lo, hi], tails clamped onto the end points"),
        MechanismEntry("geometric-renormalized", GeometricRenormalized, (_EPS, *_RANGE),
                       "geometric noise truncated by renormalising (not eps-DP)", negative_control=True),
        MechanismEntry("exponential", ExponentialMechanism,
                       (_EPS, _SENSITIVITY,
                        Parameter("utilities", f"JSON matrix u[x][r] of at most {MAX_UTILITIES} entries in "
                                               f"{range_text(-UTILITY_BOUND, UTILITY_BOUND)}, with eps (max u - min u) "
                                               f"/ (2 sensitivity) <= {EPS_RANGE[1]}; consecutive rows are neighbours",
                                  parse=parse_utilities)),
                       "exponential mechanism over finitely many outputs"),
        MechanismEntry("laplace", Laplace, (_EPS, _SENSITIVITY), "Laplace noise of scale sensitivity/eps"),
        MechanismEntry("laplace-wrong-scale", LaplaceWrongScale, (_EPS, _SENSITIVITY),
                       f"Laplace noise of scale eps (not eps-DP when eps^2 < sensitivity; sensitivity / eps <= "
                       f"{EPS_RANGE[1]})", negative_control=True),
        MechanismEntry("pairwise-preference-sketch", PairwisePreferenceSketch,
                       (_ITEMS, _RATED, _SKETCH_EPS, Parameter("pair", "public probed pair of items, e.g. 0,3", default="0,1"),
                        _RULE),
                       "Pairwise-Preference user sketch for a public pair (000_0c6e7fdc3fd68303.txt, Theorem 8)"),
        MechanismEntry("rated-pair-sketch", RatedPairSketch, (_ITEMS, _RATED, _SKETCH_EPS, _RULE),
                       "variant (ii): the pair is drawn from the rated items (not private w.r.t. which items)",
                       negative_control=True),
        MechanismEntry("rated-pair-sketch-public-items", RatedPairSketchPublicItems,
                       (_SKETCH_EPS, Parameter("items", "the public rated items, e.g. 0,2,4", default="0,1"), _RULE),
                       "variant (ii) with the rated items public: eps-DP for the ratings"),
        MechanismEntry("maxsense-sketch", MaxSenseSketch,
                       (_ITEMS, _RATED, _SKETCH_EPS, Parameter("sensing", "public 0/1 sensing vector of length N, e.g. 01010")),
                       "MaxSense user sketch for a public sensing vector (Theorem 15)"),
        MechanismEntry("multi-maxsense-sketch", MultiMaxSenseSketch,
                       (_ITEMS, _RATED, _SKETCH_EPS, Parameter("blocks", "disjoint public item blocks, e.g. 0 1|2 3")),
                       "Multi-MaxSense user sketch: one eps/Q bit per block (Theorem 16)"),
        MechanismEntry("membership-query", MembershipQuery,
                       (_ITEMS, Parameter("A", "set of (item, bit) pairs as JSON, e.g. [[0,1],[2,0]]")),
                       "non-private 1-bit membership query, w = 1 (Theorem 10 proof)", negative_control=True),
        MechanismEntry("gkrr", GeneralizedKRR,
                       (Parameter("alpha0", f"per-item metric-DP parameter alpha0 in {range_text(*EPS_RANGE)} "
                                            "(exact: 1, 1/2, log(3))"),
                        Parameter("s", f"number of clusters, an integer in {range_text(1, MAX_CLUSTER_SIZE)}"),
                        Parameter("t", f"points per cluster, an integer in {range_text(1, MAX_CLUSTER_SIZE)} "
                                       f"(s * t >= 2; the exact checker enumerates s * t <= {MAX_ENUMERATED_POINTS})"),
                        Parameter("r", "distance within a cluster, in (0, 1/2)")),
                       "generalized k-RR on the clustered metric B x C, alpha0-metric-DP "
                       "(002_1def8c9789d6e1bd.txt, Section 6.2)"),
        MechanismEntry("hadamard-response", HadamardResponse,
                       (Parameter("k", f"number of values, an integer in {range_text(2, MAX_HADAMARD_K)} (K = the "
                                       f"smallest power of two > k outputs; the exact checker enumerates k <= "
                                       f"{MAX_ENUMERATED_HADAMARD_K})"), _EPS),
                       "Hadamard response, eps-LDP (Acharya, Sun, Zhang 2019; 002_1def8c9789d6e1bd.txt, Lemma 6.4)"),
        MechanismEntry("gaussian", Gaussian,
                       (Parameter("sigma", f"noise standard deviation in {range_text(*SCALE_RANGE)}"), _SENSITIVITY),
                       "Gaussian noise: (eps, delta)-DP, never pure eps-DP"),
        _zoo(SVT1, _SVT, f"sparse vector, rho ~ Lap(2/eps), nu ~ Lap(4/eps), cutoff 1 {_LYU.format(1)}"),
        _zoo(SVT2, _SVT, f"sparse vector, rho resampled after each above answer {_LYU.format(2)}"),
        _zoo(SVT3, _SVT, f"sparse vector releasing the noisy answer (not private) {_LYU.format(3)}"),
        _zoo(SVT4, _SVT, f"sparse vector with nu ~ Lap(4/(3 eps)): 7/4 eps-DP, not eps-DP {_LYU.format(4)}"),
        _zoo(SVT5, _SVT, f"sparse vector without query noise or cutoff (not private) {_LYU.format(5)}"),
        _zoo(SVT6, _SVT, f"sparse vector without cutoff (not private) {_LYU.format(6)}"),
        _zoo(NoisyMax, _NOISY_MAX, "report noisy max: argmax of q + Lap(2/eps)"),
        _zoo(NoisyMaxValue, _NOISY_MAX, "noisy max returning the noisy value (not private; Ding et al., CCS 2018)"),
        _zoo(NoisyMax, _NOISY_MAX, "noisy-max under DP-Sniper's name (Ding et al., CCS 2018, Algorithm 5)",
             name="report-noisy-max1"),
        _zoo(NoisyMaxExponential, _NOISY_MAX, "report noisy max with exponential noise: argmax of q + Exp(2/eps)"),
        _zoo(NoisyMaxValue, _NOISY_MAX, "noisy-max-value under DP-Sniper's name (not private; Ding et al., CCS 2018, "
                                        "Algorithm 7)", name="report-noisy-max3"),
        _zoo(NoisyMaxExponentialValue, _NOISY_MAX, "noisy max with exponential noise returning the value (not "
                                                   "private; Ding et al., CCS 2018)"),
        _zoo(NumericalSVT, _CUTOFF_SVT, "numerical sparse vector: above answers released with fresh Lap(3c/eps) "
                                        f"noise (Wang et al., PLDI 2019; {_SNIPER.format('NumericalSVT')})"),
        _zoo(SVT34Parallel, _CUTOFF_SVT, "sparse vector Algorithms 3 and 4 with cutoff c side by side (not private; "
                                         f"{_SNIPER.format('SVT34Parallel')})"),
        _zoo(PrefixSum, (_ZOO_EPS, Parameter("m", f"number of answers, an integer in "
                                                  f"{range_text(*PREFIX_SUM_QUERIES)}", default="10")),
             "prefix sums of q + Lap(1/eps): m eps-DP when every answer moves, not eps-DP "
             f"({_SNIPER.format('PrefixSum')})"),
        _zoo(TruncatedGeometric, _GEOSAMPLE,
             "GeoSample on a count in [0, n]: ln(1 + 2^-k)-DP, ln(9/8) at eps = 1/10, so not eps-DP there (Balcer, "
             "Vadhan 2018; DP-Sniper's TruncatedGeometricMechanism)"),
        _zoo(Histogram, _BINS, "histogram: counts + Lap(1/eps) per bin"),
        _zoo(HistogramWrongScale, _BINS, "histogram with Laplace scale eps (not eps-DP for eps < 1)"),
        _zoo(LaplaceFloat, (_ZOO_EPS,), "x + Lap(1/eps) by the textbook float64 inverse CDF (Mironov, CCS 2012)"),
        _zoo(LaplaceParallel, (_ZOO_EPS, Parameter("n", f"releases of the answer, an integer in "
                                                        f"{range_text(*COPIES_RANGE)}", default="20")),
             "n releases of x + Lap(1/eps): n eps-DP, not eps-DP (DP-Sniper's LaplaceParallel)"),
        _zoo(Rappor, (_ZOO_EPS,), "basic RAPPOR of a 20-bit Bloom filter, f from eps (DP-Sniper's Rappor at "
                                  "eps = 8 log(5/3)); inputs 0, 1, 2"),
        _zoo(OneTimeRappor, (_ZOO_EPS,), "one-time RAPPOR of a 20-bit Bloom filter, f from eps (DP-Sniper's at "
                                         "eps = 8 log(21/19)); inputs 0, 1, 2"),
        _zoo(LaplaceExact, (_ZOO_EPS, Parameter("granularity", f"the grid is 2^-granularity, an integer in "
                                                               f"{range_text(*GRANULARITY_RANGE)}", default="10")),
             "x + discrete Laplace on the grid 2^-granularity: exact in float64, eps-DP"),
    )
}


def make_mechanism(name: str, raw: Mapping[str, object]) -> Mechanism:
    """Build the catalogued mechanism ``name`` from raw parameter values.

    Example:
        >>> make_mechanism("k-rr", {"k": "3", "eps": "log(2)"}).pmf(0)[0]
        1/2
    """
    if name not in CATALOG:
        raise InvalidParameterError(f"mechanism must be one of {', '.join(CATALOG)}. Got {name!r}")
    return CATALOG[name].build(raw)
