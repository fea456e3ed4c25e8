"""One table of every invalid argument to a public constructor (and a few public methods).

Every row must raise :class:`InvalidParameterError` -- a ``ValueError`` -- whose one-line message
names the offending parameter (hypothesis-style up-front validation, see DESIGN.md "Style").
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
import sympy

from dpcert import mechanisms
from dpcert.mechanisms import (
    CATALOG,
    AllPairs,
    Edges,
    ExponentialMechanism,
    Gaussian,
    Geometric,
    GeometricRenormalized,
    InvalidParameterError,
    KaryRandomizedResponse,
    Laplace,
    LaplaceWrongScale,
    LeakyRandomizedResponse,
    Metric,
    RandomizedResponse,
    UnaryEncoding,
    make_mechanism,
)
from dpcert.mechanisms.price_of_privacy import (
    MaxSenseSketch,
    MembershipQuery,
    MultiMaxSenseSketch,
    PairwisePreferenceSketch,
    RatedPairSketch,
    RatedPairSketchPublicItems,
)
from dpcert.mechanisms.zoo import (
    SVT1,
    SVT2,
    SVT3,
    SVT4,
    SVT5,
    SVT6,
    Histogram,
    HistogramWrongScale,
    LaplaceExact,
    LaplaceFloat,
    LaplaceParallel,
    NoisyMax,
    NoisyMaxExponential,
    NoisyMaxExponentialValue,
    NoisyMaxValue,
    NumericalSVT,
    OneTimeRappor,
    PrefixSum,
    Rappor,
    SVT34Parallel,
    TruncatedGeometric,
)
from dpcert.mechanisms.metric_user_level import (
    BoundedEMDReduction,
    ClusteredMetric,
    FreqEstLocal,
    GeneralizedKRR,
    HadamardResponse,
    PrivEMDItemWise,
    PrivEMDLinear,
    earth_movers_distance,
    exact_earth_movers_distance,
    exact_matching_distance,
    kantorovich_rubinstein_norm,
    matching_distance,
)
from dpcert.proofs.channel import ExactChannel
from dpcert.proofs.exact import check_finite, hockey_stick_delta, tightest_epsilon
from dpcert.proofs.guarantees import ApproxDP, MetricDP, PureDP

NAN, INF = float("nan"), float("inf")
GOOD_UTILITIES = [[0, 1], [1, 1]]


def build(name, **raw):
    """make_mechanism with every value as the command line would pass it: a string."""
    return lambda: make_mechanism(name, raw={k: str(v) for k, v in raw.items()})


def call(function, *args, **kwargs):
    return lambda: function(*args, **kwargs)


def row(function, parameter, case_id):
    """One table row: a zero-argument callable that must fail, and the parameter its error must name."""
    return pytest.param(function, parameter, id=case_id)


INVALID = [
    # ---- the price-of-privacy user sketches (000_0c6e7fdc3fd68303.txt) ------------------------------
    row(call(PairwisePreferenceSketch, N=4, w=5, eps=1), "w", "PairwisePreferenceSketch-w-above-N"),
    row(call(PairwisePreferenceSketch, N=4, w=2, eps=1, pair=(1, 1)), "pair", "PairwisePreferenceSketch-pair-same"),
    row(build("pairwise-preference-sketch", N=4, w=2, eps=0), "eps", "make-pairwise-preference-sketch-eps-zero"),
    row(call(RatedPairSketch, N=4, w=1, eps=1), "w", "RatedPairSketch-w-one"),
    row(build("rated-pair-sketch", N=1, w=1, eps=1), "N", "make-rated-pair-sketch-N-one"),
    row(call(RatedPairSketchPublicItems, eps=1, items=(3,)), "items", "RatedPairSketchPublicItems-one-item"),
    row(build("rated-pair-sketch-public-items", eps="-2"), "eps", "make-rated-pair-sketch-public-items-eps"),
    row(call(MaxSenseSketch, N=4, w=2, eps=1, sensing=(0, 1)), "sensing", "MaxSenseSketch-sensing-length"),
    row(build("maxsense-sketch", N=4, w=2, eps=1, sensing="0120"), "sensing", "make-maxsense-sketch-sensing-digit"),
    row(call(MultiMaxSenseSketch, N=4, w=1, eps=1, blocks=((0, 1), (1, 2))), "blocks",
        "MultiMaxSenseSketch-blocks-overlap"),
    row(build("multi-maxsense-sketch", N=4, w=1, eps=1), "blocks", "make-multi-maxsense-sketch-missing-blocks"),
    row(call(MembershipQuery, N=3, A=((5, 0),)), "A", "MembershipQuery-item-outside"),
    row(build("membership-query", N=3, A="[[0, 2]]"), "A", "make-membership-query-bit-two"),
    # ---- randomized-response -------------------------------------------------------------
    row(call(RandomizedResponse, eps=0), "eps", "RandomizedResponse-eps-zero"),
    row(call(RandomizedResponse, eps=-1), "eps", "RandomizedResponse-eps-negative"),
    row(call(RandomizedResponse, eps=NAN), "eps", "RandomizedResponse-eps-nan"),
    row(call(RandomizedResponse, eps=INF), "eps", "RandomizedResponse-eps-inf"),
    row(call(RandomizedResponse, eps=True), "eps", "RandomizedResponse-eps-bool"),
    row(build("randomized-response", eps="0"), "eps", "make-randomized-response-eps-zero"),
    row(build("randomized-response", eps="nan"), "eps", "make-randomized-response-eps-nan"),
    row(build("randomized-response", eps="__import__('os')"), "eps", "make-randomized-response-eps-injection"),
    row(build("randomized-response"), "eps", "make-randomized-response-missing-eps"),
    row(build("randomized-response", eps=1, k=2), "k", "make-randomized-response-unknown-k"),
    # ---- leaky-rr ---------------------------------------------------------------------------
    row(call(LeakyRandomizedResponse, eps=1, delta0=0), "delta0", "LeakyRandomizedResponse-delta0-zero"),
    row(call(LeakyRandomizedResponse, eps=1, delta0="3/4"), "delta0", "LeakyRandomizedResponse-delta0-above-half"),
    row(call(LeakyRandomizedResponse, eps=0, delta0="1/10"), "eps", "LeakyRandomizedResponse-eps-zero"),
    row(build("leaky-rr", eps=1, delta0="nan"), "delta0", "make-leaky-rr-delta0-nan"),
    row(build("leaky-rr", eps=1), "delta0", "make-leaky-rr-missing-delta0"),
    row(lambda: LeakyRandomizedResponse(eps=1, delta0="1/10").pmf(2), "x", "leaky-rr-pmf-x-not-an-input"),
    # ---- k-rr ------------------------------------------------------------------------------
    row(call(KaryRandomizedResponse, k=1, eps=1), "k", "KaryRandomizedResponse-k-one"),
    row(call(KaryRandomizedResponse, k=2.5, eps=1), "k", "KaryRandomizedResponse-k-float"),
    row(call(KaryRandomizedResponse, k=3, eps=0), "eps", "KaryRandomizedResponse-eps-zero"),
    row(call(KaryRandomizedResponse, k=3, eps="-log(2)"), "eps", "KaryRandomizedResponse-eps-negative"),
    row(build("k-rr", k=1, eps=1), "k", "make-k-rr-k-one"),
    row(build("k-rr", k="2.5", eps=1), "k", "make-k-rr-k-decimal"),
    row(build("k-rr", k=3, eps="inf"), "eps", "make-k-rr-eps-inf"),
    row(build("k-rr", eps=1), "k", "make-k-rr-missing-k"),
    row(build("k-rr", k=3), "eps", "make-k-rr-missing-eps"),
    row(build("k-rr", k=3, eps=1, epsilon=1), "epsilon", "make-k-rr-unknown-parameter"),
    # ---- unary-encoding ----------------------------------------------------------------------
    row(call(UnaryEncoding, k=1, eps=1), "k", "UnaryEncoding-k-one"),
    row(call(UnaryEncoding, k=4, eps=0), "eps", "UnaryEncoding-eps-zero"),
    row(call(UnaryEncoding, k=4, eps=1, variant="xue"), "variant", "UnaryEncoding-variant-unknown"),
    row(call(UnaryEncoding, k=4, eps=1, variant=None), "variant", "UnaryEncoding-variant-None"),
    row(lambda: UnaryEncoding(k=17, eps=1).pmf(0), "k", "UnaryEncoding-k17-pmf-enumeration"),
    row(lambda: UnaryEncoding(k=17, eps=1).outputs(), "k", "UnaryEncoding-k17-outputs-enumeration"),
    row(lambda: tightest_epsilon(UnaryEncoding(k=17, eps=1)), "k", "UnaryEncoding-k17-exact-checker"),
    row(build("unary-encoding", k=0, eps=1), "k", "make-unary-encoding-k-zero"),
    row(build("unary-encoding", k=4, eps="-1"), "eps", "make-unary-encoding-eps-negative"),
    row(build("unary-encoding", k=4, eps=1, variant="rappor"), "variant", "make-unary-encoding-variant"),
    row(build("unary-encoding", eps=1), "k", "make-unary-encoding-missing-k"),
    # ---- geometric -----------------------------------------------------------------------------
    row(call(Geometric, eps=0), "eps", "Geometric-eps-zero"),
    row(call(Geometric, eps=1, lo=3, hi=3), "hi", "Geometric-hi-equals-lo"),
    row(call(Geometric, eps=1, lo=3, hi=-3), "hi", "Geometric-hi-below-lo"),
    row(call(Geometric, eps=1, lo=0.5, hi=3), "lo", "Geometric-lo-float"),
    row(call(Geometric, eps=1, lo=0, hi="ten"), "hi", "Geometric-hi-word"),
    row(build("geometric", eps="0"), "eps", "make-geometric-eps-zero"),
    row(build("geometric", eps=1, lo=5, hi=2), "hi", "make-geometric-hi-below-lo"),
    row(build("geometric", eps=1, lo="a"), "lo", "make-geometric-lo-word"),
    row(build("geometric"), "eps", "make-geometric-missing-eps"),
    row(build("geometric", eps=1, low=0), "low", "make-geometric-unknown-parameter"),
    # ---- geometric-renormalized (negative control: its parameters are still validated) ------------
    row(call(GeometricRenormalized, eps=-1), "eps", "GeometricRenormalized-eps-negative"),
    row(call(GeometricRenormalized, eps=1, lo=0, hi=0), "hi", "GeometricRenormalized-hi-equals-lo"),
    row(build("geometric-renormalized", eps="nan"), "eps", "make-geometric-renormalized-eps-nan"),
    row(build("geometric-renormalized", eps=1, hi=-1), "hi", "make-geometric-renormalized-hi-below-lo"),
    # ---- exponential -----------------------------------------------------------------------------
    row(call(ExponentialMechanism, eps=0, sensitivity=1, utilities=GOOD_UTILITIES), "eps", "ExponentialMechanism-eps-zero"),
    row(call(ExponentialMechanism, eps=1, sensitivity=0, utilities=GOOD_UTILITIES), "sensitivity",
        "ExponentialMechanism-sensitivity-zero"),
    row(call(ExponentialMechanism, eps=1, sensitivity=NAN, utilities=GOOD_UTILITIES), "sensitivity",
        "ExponentialMechanism-sensitivity-nan"),
    row(call(ExponentialMechanism, eps=1, sensitivity=1, utilities=[[0, 1]]), "utilities", "ExponentialMechanism-one-row"),
    row(call(ExponentialMechanism, eps=1, sensitivity=1, utilities=[[0], [1]]), "utilities", "ExponentialMechanism-one-column"),
    row(call(ExponentialMechanism, eps=1, sensitivity=1, utilities=[[0, 1], [1]]), "utilities", "ExponentialMechanism-ragged"),
    row(call(ExponentialMechanism, eps=1, sensitivity=1, utilities="[[0,1],[1,1]]"), "utilities",
        "ExponentialMechanism-string-not-parsed"),
    row(call(ExponentialMechanism, eps=1, sensitivity=1, utilities=[1, 2]), "utilities", "ExponentialMechanism-rows-not-lists"),
    row(call(ExponentialMechanism, eps=1, sensitivity=1, utilities=[[0, NAN], [1, 1]]), "utilities[0][1]",
        "ExponentialMechanism-utility-nan"),
    row(build("exponential", eps=1, utilities="[[0, 1], [1, 1]"), "utilities", "make-exponential-bad-json"),
    row(build("exponential", eps=1, utilities="{\"a\": 1}"), "utilities", "make-exponential-json-not-list"),
    row(build("exponential", eps=1, utilities="[[0, 1]]"), "utilities", "make-exponential-one-row"),
    row(build("exponential", eps=1, utilities="[[0, \"x\"], [1, 1]]"), "utilities[0][1]",
        "make-exponential-utility-name"),
    row(build("exponential", eps=1, sensitivity="-2", utilities="[[0, 1], [1, 1]]"), "sensitivity",
        "make-exponential-sensitivity-negative"),
    row(build("exponential", eps=1), "utilities", "make-exponential-missing-utilities"),
    # ---- laplace, laplace-wrong-scale, gaussian ----------------------------------------------------
    row(call(Laplace, eps=0), "eps", "Laplace-eps-zero"),
    row(call(Laplace, eps=1, sensitivity=-1), "sensitivity", "Laplace-sensitivity-negative"),
    row(call(Laplace, eps=INF), "eps", "Laplace-eps-inf"),
    row(build("laplace", eps="oo"), "eps", "make-laplace-eps-oo"),
    row(build("laplace", eps=1, sensitivity="0"), "sensitivity", "make-laplace-sensitivity-zero"),
    row(build("laplace"), "eps", "make-laplace-missing-eps"),
    row(call(LaplaceWrongScale, eps="-1/2"), "eps", "LaplaceWrongScale-eps-negative"),
    row(call(LaplaceWrongScale, eps=1, sensitivity=NAN), "sensitivity", "LaplaceWrongScale-sensitivity-nan"),
    row(build("laplace-wrong-scale", eps="0"), "eps", "make-laplace-wrong-scale-eps-zero"),
    row(call(Gaussian, sigma=0), "sigma", "Gaussian-sigma-zero"),
    row(call(Gaussian, sigma=-1), "sigma", "Gaussian-sigma-negative"),
    row(call(Gaussian, sigma=1, sensitivity=0), "sensitivity", "Gaussian-sensitivity-zero"),
    row(build("gaussian", sigma="nan"), "sigma", "make-gaussian-sigma-nan"),
    row(build("gaussian"), "sigma", "make-gaussian-missing-sigma"),
    row(build("gaussian", sigma=1, eps=1), "eps", "make-gaussian-unknown-eps"),
    # ---- the auditing zoo (Lyu et al. 2017; Ding et al. 2018; Mironov 2012) ---------------------------
    row(call(SVT1, eps=1, m=1), "m", "SVT1-m-one"),
    row(call(SVT2, eps=1, m=31), "m", "SVT2-m-above-30"),
    row(call(SVT3, eps=1, T="nan"), "T", "SVT3-T-nan"),
    row(call(SVT4, eps=0), "eps", "SVT4-eps-zero"),
    row(call(SVT5, eps=1, m="2.5"), "m", "SVT5-m-decimal"),
    row(call(SVT6, eps=1, T="x"), "T", "SVT6-T-symbol"),
    row(build("svt1", eps=1, m=0), "m", "make-svt1-m-zero"),
    row(build("svt2", eps=1, T="oo"), "T", "make-svt2-T-oo"),
    row(build("svt3", eps=-1), "eps", "make-svt3-eps-negative"),
    row(build("svt4", eps=1, m=100), "m", "make-svt4-m-above-30"),
    row(build("svt5"), "eps", "make-svt5-missing-eps"),
    row(build("svt6", eps=1, c=2), "c", "make-svt6-unknown-parameter"),
    row(call(NoisyMax, eps=1, k=1), "k", "NoisyMax-k-one"),
    row(call(NoisyMaxValue, eps=1, k=1001), "k", "NoisyMaxValue-k-above-1000"),
    row(build("noisy-max", eps=1, k="a"), "k", "make-noisy-max-k-word"),
    row(build("noisy-max-value", eps="nan"), "eps", "make-noisy-max-value-eps-nan"),
    row(call(NoisyMaxExponential, eps=1, k=1), "k", "NoisyMaxExponential-k-one"),
    row(call(NoisyMaxExponentialValue, eps=0, k=5), "eps", "NoisyMaxExponentialValue-eps-zero"),
    row(build("report-noisy-max2", eps=1, k=1001), "k", "make-report-noisy-max2-k-above-1000"),
    row(build("report-noisy-max4", eps="-1"), "eps", "make-report-noisy-max4-eps-negative"),
    row(call(Histogram, eps=1, bins=0), "bins", "Histogram-bins-zero"),
    row(call(HistogramWrongScale, eps=1, bins=1001), "bins", "HistogramWrongScale-bins-above-1000"),
    row(build("histogram", eps=1, bins="2.5"), "bins", "make-histogram-bins-decimal"),
    row(build("histogram-wrong-scale", eps=0), "eps", "make-histogram-wrong-scale-eps-zero"),
    row(call(LaplaceFloat, eps=-1), "eps", "LaplaceFloat-eps-negative"),
    row(call(LaplaceExact, eps=1, granularity=31), "granularity", "LaplaceExact-granularity-above-30"),
    row(build("laplace-float", eps="inf"), "eps", "make-laplace-float-eps-inf"),
    row(build("laplace-exact", eps=1, granularity=-1), "granularity", "make-laplace-exact-granularity-negative"),
    row(call(LaplaceParallel, eps=1, n=0), "n", "LaplaceParallel-n-zero"),
    row(call(Rappor, eps=0), "eps", "Rappor-eps-zero"),
    row(call(OneTimeRappor, eps="-1"), "eps", "OneTimeRappor-eps-negative"),
    row(build("rappor", eps="nan"), "eps", "make-rappor-eps-nan"),
    row(build("one-time-rappor", eps=1, f="1/2"), "f", "make-one-time-rappor-unknown-f"),
    row(lambda: Rappor(eps=1).sample(5, 10, np.random.default_rng(0)), "x", "rappor-sample-x-not-an-input"),
    row(call(LaplaceParallel, eps=1, n=101), "n", "LaplaceParallel-n-above-100"),
    row(build("laplace-parallel", eps=1, n="2.5"), "n", "make-laplace-parallel-n-decimal"),
    row(build("report-noisy-max1", eps=1, k=1), "k", "make-report-noisy-max1-k-one"),
    row(build("report-noisy-max3", eps=0), "eps", "make-report-noisy-max3-eps-zero"),
    row(call(NumericalSVT, eps=1, c=0), "c", "NumericalSVT-c-zero"),
    row(build("numerical-svt", eps=1, c=31), "c", "make-numerical-svt-c-above-30"),
    row(call(SVT34Parallel, eps=1, m=1), "m", "SVT34Parallel-m-one"),
    row(build("svt34-parallel", eps=1, T="nan"), "T", "make-svt34-parallel-T-nan"),
    row(call(PrefixSum, eps=1, m=0), "m", "PrefixSum-m-zero"),
    row(build("prefix-sum", eps=1, m=101), "m", "make-prefix-sum-m-above-100"),
    row(call(TruncatedGeometric, eps=3), "eps", "TruncatedGeometric-eps-above-2"),
    row(call(TruncatedGeometric, eps="1/10", n=20), "n", "TruncatedGeometric-n-above-62-bit-limit"),
    row(build("truncated-geometric", eps="1/10", n=0), "n", "make-truncated-geometric-n-zero"),
    row(lambda: TruncatedGeometric(eps=1).sample(6, 10, np.random.default_rng(0)), "x",
        "truncated-geometric-sample-x-above-n"),
    # ---- gkrr and the user-level metric-DP mechanisms (002_1def8c9789d6e1bd.txt) ----------------------
    row(call(GeneralizedKRR, alpha0=0, s=2, t=2, r="1/4"), "alpha0", "GeneralizedKRR-alpha0-zero"),
    row(call(GeneralizedKRR, alpha0=1, s=2, t=2, r="0.7"), "r", "GeneralizedKRR-r-above-half"),
    row(call(GeneralizedKRR, alpha0=1, s=2, t=2, r="1/2"), "r", "GeneralizedKRR-r-half"),
    row(call(GeneralizedKRR, alpha0=1, s=2, t=2, r=0), "r", "GeneralizedKRR-r-zero"),
    row(call(GeneralizedKRR, alpha0=1, s=0, t=2, r="1/4"), "s", "GeneralizedKRR-s-zero"),
    row(call(GeneralizedKRR, alpha0=1, s=1, t=1, r="1/4"), "t", "GeneralizedKRR-one-point"),
    row(call(GeneralizedKRR, alpha0=1, s=2, t=2.5, r="1/4"), "t", "GeneralizedKRR-t-float"),
    row(lambda: GeneralizedKRR(1, 2, 2, "1/4").pmf(4), "x", "GeneralizedKRR-pmf-x-outside"),
    row(call(HadamardResponse, k=1, eps=1), "k", "HadamardResponse-k-one"),
    row(call(HadamardResponse, k=2**20, eps=1), "k", "HadamardResponse-k-above-range"),
    row(call(HadamardResponse, k=3, eps=0), "eps", "HadamardResponse-eps-zero"),
    row(build("hadamard-response", k="2.5", eps=1), "k", "make-hadamard-response-k-decimal"),
    row(build("hadamard-response", k=3), "eps", "make-hadamard-response-missing-eps"),
    row(build("gkrr", alpha0="-1", s=2, t=2, r="1/4"), "alpha0", "make-gkrr-alpha0-negative"),
    row(build("gkrr", alpha0=1, s=2, t=2, r="2/3"), "r", "make-gkrr-r-above-half"),
    row(build("gkrr", alpha0=1, s="two", t=2, r="1/4"), "s", "make-gkrr-s-word"),
    row(build("gkrr", alpha0=1, s=2, t=2), "r", "make-gkrr-missing-r"),
    row(call(ClusteredMetric, 2, 2, "nan"), "r", "ClusteredMetric-r-nan"),
    row(lambda: ClusteredMetric(2, 2, "1/4").distance(0, 9), "x", "ClusteredMetric-distance-outside"),
    row(lambda: ClusteredMetric(2, 2, "1/4").kantorovich_rubinstein_norm([1, 0, 0, 0]), "v",
        "ClusteredMetric-kr-norm-nonzero-mass"),
    row(call(PrivEMDItemWise, GeneralizedKRR(1, 2, 2, "1/4"), 0), "m", "PrivEMDItemWise-m-zero"),
    row(call(PrivEMDItemWise, Laplace(eps=1), 2), "mechanism", "PrivEMDItemWise-continuous-item-mechanism"),
    row(call(PrivEMDItemWise, Geometric(eps=1, hi=3), 2), "mechanism", "PrivEMDItemWise-adjacency-neighbours"),
    row(lambda: PrivEMDItemWise(GeneralizedKRR(1, 2, 2, "1/4"), 2).pmf((0, 1, 2)), "x",
        "PrivEMDItemWise-dataset-wrong-size"),
    row(lambda: PrivEMDItemWise(GeneralizedKRR(1, 2, 2, "1/4"), 2).sample((0, 7), 3, np.random.default_rng(0)),
        "x", "PrivEMDItemWise-item-outside"),
    row(lambda: PrivEMDItemWise(GeneralizedKRR(1, 2, 2, "1/4"), 40).outputs(), "m",
        "PrivEMDItemWise-enumeration-limit"),
    row(call(PrivEMDLinear, F=[[0, 1]], distance=[[0, 1], [1, 0]], alpha=0), "alpha", "PrivEMDLinear-alpha-zero"),
    row(call(PrivEMDLinear, F=[[0, 1]], distance=[[0, 1], [1, 0]], alpha=1, ell="1/2"), "ell",
        "PrivEMDLinear-ell-below-lipschitz"),
    row(call(PrivEMDLinear, F=[[0, 1]], distance=[[0, 1], [1, 0]], alpha=1, norm="l3"), "norm", "PrivEMDLinear-norm"),
    row(call(PrivEMDLinear, F=[[1, 1]], distance=[[0, 1], [1, 0]], alpha=1), "ell", "PrivEMDLinear-constant-query"),
    row(call(PrivEMDLinear, F=[[0, 1]], distance=[[0, 1], [1, 0]], alpha=1, model="shuffle"), "model",
        "PrivEMDLinear-model"),
    row(call(PrivEMDLinear, F=[[0, 1]], distance=[[0, 1], [1, 0]], alpha=1, n=3), "n", "PrivEMDLinear-n-local"),
    row(call(PrivEMDLinear, F=[[0, 1]], distance=[[0, 2], [1, 0]], alpha=1), "distance", "PrivEMDLinear-asymmetric"),
    row(call(PrivEMDLinear, F=[[0, 1], [2]], distance=[[0, 1], [1, 0]], alpha=1), "F", "PrivEMDLinear-F-ragged"),
    row(lambda: PrivEMDLinear(F=[[0, 1]], distance=[[0, 1], [1, 0]], alpha=1).sample(
        (0, 0), 2, np.random.default_rng(0)), "x", "PrivEMDLinear-empty-histogram"),
    row(call(FreqEstLocal, KaryRandomizedResponse(k=3, eps=1)), "mechanism", "FreqEstLocal-not-gkrr"),
    row(call(FreqEstLocal, GeneralizedKRR(1, 2, 2, "1/4"), model="global"), "model", "FreqEstLocal-model"),
    row(lambda: FreqEstLocal(GeneralizedKRR(1, 2, 2, "1/4")).sample([[0, 4]], 2, np.random.default_rng(0)), "x",
        "FreqEstLocal-item-outside"),
    row(call(BoundedEMDReduction, GeneralizedKRR(1, 2, 2, "1/4"), 3), "mechanism", "BoundedEMDReduction-unbounded"),
    row(call(BoundedEMDReduction, PrivEMDItemWise(GeneralizedKRR(1, 2, 2, "1/4"), 3), 0), "s",
        "BoundedEMDReduction-s-zero"),
    row(lambda: BoundedEMDReduction(PrivEMDItemWise(GeneralizedKRR(1, 2, 2, "1/4"), 3), 2).sample(
        [[0, 1]], 2, np.random.default_rng(0)), "s", "BoundedEMDReduction-s-mismatch"),
    row(lambda: BoundedEMDReduction(PrivEMDItemWise(GeneralizedKRR(1, 2, 2, "1/4"), 3), 3).sample(
        [[]], 2, np.random.default_rng(0)), "items", "BoundedEMDReduction-empty-user"),
    row(call(earth_movers_distance, [1, 0], [0.5, 0.6], [[0, 1], [1, 0]]), "q", "earth-movers-q-sum"),
    row(call(earth_movers_distance, [1, 0], [0, 1], [[0, 1], [1, 1]]), "metric", "earth-movers-metric-diagonal"),
    row(call(earth_movers_distance, [1, 0, 0], [0, 1], [[0, 1], [1, 0]]), "p", "earth-movers-p-length"),
    row(call(kantorovich_rubinstein_norm, [1, -0.5], [[0, 1], [1, 0]]), "v", "kr-norm-nonzero-mass"),
    row(call(matching_distance, [0, 1], [0], [[0, 1], [1, 0]]), "ys", "matching-distance-sizes"),
    row(call(exact_matching_distance, [0, 1], [1, 0], lambda a, b: -1), "distance", "exact-matching-negative"),
    row(call(exact_earth_movers_distance, ["1/2", "1/2"], ["1/3", "1/3"], lambda a, b: 1), "q",
        "exact-d-em-q-sum"),
    # ---- the catalogue itself ---------------------------------------------------------------------
    row(build("no-such-mechanism", eps=1), "mechanism", "make-unknown-mechanism"),
    row(build("K-RR", k=2, eps=1), "mechanism", "make-mechanism-name-is-case-sensitive"),
    # ---- guarantees ---------------------------------------------------------------------------------
    row(call(PureDP, 0), "eps", "PureDP-eps-zero"),
    row(call(PureDP, "-1"), "eps", "PureDP-eps-negative"),
    row(call(PureDP, NAN), "eps", "PureDP-eps-nan"),
    row(call(PureDP, INF), "eps", "PureDP-eps-inf"),
    row(call(PureDP, sympy.oo), "eps", "PureDP-eps-sympy-oo"),
    row(call(ApproxDP, 0, Fraction(1, 10)), "eps", "ApproxDP-eps-zero"),
    row(call(ApproxDP, NAN, 0), "eps", "ApproxDP-eps-nan"),
    row(call(ApproxDP, 1, 1), "delta", "ApproxDP-delta-one"),
    row(call(ApproxDP, 1, "-1e-9"), "delta", "ApproxDP-delta-negative"),
    row(call(ApproxDP, 1, 2), "delta", "ApproxDP-delta-two"),
    row(call(ApproxDP, 1, NAN), "delta", "ApproxDP-delta-nan"),
    row(call(ApproxDP, 1, INF), "delta", "ApproxDP-delta-inf"),
    row(call(MetricDP, 0), "eps", "MetricDP-eps-zero"),
    row(call(MetricDP, "-log(2)"), "eps", "MetricDP-eps-negative"),
    row(call(MetricDP, "nan"), "eps", "MetricDP-eps-nan"),
    row(call(MetricDP, -INF), "eps", "MetricDP-eps-minus-inf"),
    # ---- neighbour relations ------------------------------------------------------------------------
    row(call(Edges, ()), "pairs", "Edges-empty"),
    row(call(Edges, ((0, 0),)), "pairs", "Edges-self-loop"),
    row(call(Edges, ((0, 1), (2, 2))), "pairs", "Edges-self-loop-after-good-pair"),
    row(call(Edges, ((0, 1, 2),)), "pairs", "Edges-triple-not-pair"),
    row(call(Edges, (0, 1)), "pairs", "Edges-flat-not-pairs"),
    row(call(Metric.from_matrix, [0, 1], [[0, 1], [2, 0]]), "distance", "Metric-asymmetric"),
    row(call(Metric.from_matrix, [0, 1], [[1, 1], [1, 0]]), "distance[0][0]", "Metric-nonzero-diagonal"),
    row(call(Metric.from_matrix, [0, 1], [[0, -1], [-1, 0]]), "distance[0][1]", "Metric-negative"),
    row(call(Metric.from_matrix, [0, 1], [[0, 0], [0, 0]]), "distance[0][1]", "Metric-zero-off-diagonal"),
    row(call(Metric.from_matrix, [0, 1, 2], [[0, 1], [1, 0]]), "distance", "Metric-wrong-shape"),
    row(call(Metric.from_matrix, [0, 1], [[0, NAN], [NAN, 0]]), "distance[0][1]", "Metric-nan"),
    # ---- exact channels -------------------------------------------------------------------------------
    row(call(ExactChannel.from_matrix, [[Fraction(1, 2), Fraction(1, 3)], [Fraction(1, 2), Fraction(1, 2)]]),
        "matrix", "ExactChannel-row-sums-to-5/6"),
    row(call(ExactChannel.from_matrix, [[0.1, 0.2, 0.7000000000000001], [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]]),
        "matrix", "ExactChannel-float-row-off-by-one-ulp"),
    row(call(ExactChannel.from_matrix, [[Fraction(3, 2), Fraction(-1, 2)], [Fraction(1, 2), Fraction(1, 2)]]),
        "matrix", "ExactChannel-negative-entry"),
    row(call(ExactChannel.from_matrix, [["1/2", "1/2"], ["1/2", "nan"]]), "matrix[1][1]", "ExactChannel-nan-entry"),
    row(call(ExactChannel.from_matrix, [[1], [Fraction(1, 2), Fraction(1, 2)]]), "matrix", "ExactChannel-ragged"),
    row(call(ExactChannel.from_matrix, []), "matrix", "ExactChannel-empty"),
    # ---- checkers and samplers ------------------------------------------------------------------------
    row(lambda: KaryRandomizedResponse(k=3, eps=1).pmf(3), "x", "pmf-x-not-an-input"),
    row(lambda: KaryRandomizedResponse(k=3, eps=1).sample(0, -1, np.random.default_rng(0)), "size",
        "sample-size-negative"),
    row(lambda: Geometric(eps=1).sample(0, 2.5, np.random.default_rng(0)), "size", "sample-size-float"),
    row(lambda: Geometric(eps=1).sample(11, 5, np.random.default_rng(0)), "x", "sample-x-not-an-input"),
    row(lambda: hockey_stick_delta(KaryRandomizedResponse(k=3, eps=1), 0), "eps", "hockey-stick-eps-zero"),
    row(lambda: check_finite(KaryRandomizedResponse(k=3, eps=1), MetricDP(1)), "relation", "metric-dp-needs-metric"),
    row(lambda: check_finite(Geometric(eps=1, hi=3), PureDP(1), relation=Metric(lambda a, b: 2 * abs(a - b))),
        "relation", "pure-dp-with-a-metric-relation"),
    row(lambda: check_finite(Geometric(eps=1, hi=3), ApproxDP(1, 0), relation=Metric(lambda a, b: abs(a - b))),
        "relation", "approx-dp-with-a-metric-relation"),
    row(lambda: tightest_epsilon(Geometric(eps=1, lo=0, hi=2), relation=Edges(((0, 5),))), "pairs",
        "edges-outside-the-inputs"),
]


def names(message: str, parameter: str) -> bool:
    """``parameter`` occurs in ``message`` as a word of its own (``k`` must not match inside ``k-rr``)."""
    return re.search(rf"(?<![\w\-]){re.escape(parameter)}(?![\w\-])", message) is not None


@pytest.mark.parametrize("failing_call, parameter", INVALID)
def test_invalid_argument_is_rejected_naming_the_parameter(failing_call, parameter):
    with pytest.raises(InvalidParameterError) as info:
        failing_call()
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert names(message, parameter), f"message does not name {parameter!r}: {message}"
    assert "\n" not in message and "Traceback" not in message


def test_table_covers_every_catalogued_mechanism():
    """Each catalogue entry appears in the table twice: by its class and through make_mechanism."""
    ids = [p.id for p in INVALID]
    for name, entry in CATALOG.items():
        assert any(i.startswith(f"make-{name}-") for i in ids), f"no make_mechanism row for {name}"
        assert any(i.startswith(f"{entry.factory.__name__}-") for i in ids), f"no class row for {entry.factory.__name__}"
    for guarantee in ("PureDP", "ApproxDP", "MetricDP"):
        assert any(i.startswith(guarantee) for i in ids)


def test_names_helper_rejects_a_name_buried_in_another_word():
    # The helper above must be able to fail, or the table would prove nothing about messages.
    assert not names("k-rr has no parameter 'epsilon'", "k")
    assert not names("eps-DP failed", "eps")
    assert names("k must be an integer in [2, inf]. Got 1", "k")
    assert names("utilities[0][1] must be finite", "utilities[0][1]")


def test_every_public_error_is_the_one_type():
    assert issubclass(mechanisms.InvalidParameterError, ValueError)
    assert mechanisms.InvalidParameterError is InvalidParameterError


def test_valid_arguments_are_accepted():
    # The counterpart of the table: the boundary values just inside every range are accepted.
    assert KaryRandomizedResponse(k=2, eps="1e-30").k == 2
    assert Geometric(eps=1, lo=-1, hi=0).inputs() == (-1, 0)
    assert UnaryEncoding(k=16, eps=1).k == 16
    assert ApproxDP(1, 0).delta == 0
    assert ApproxDP(1, "1 - 1e-12").delta == 1 - sympy.Rational(1, 10**12)
    assert Edges(((0, 1),)).pairs == ((0, 1),)
    assert len(ExactChannel.from_matrix([[1, 0], [0, 1]]).inputs) == 2
    assert make_mechanism("exponential", raw={"eps": "1", "utilities": "[[0, \"1/2\"], [1, 1]]"}).utilities[0][1] == \
        sympy.Rational(1, 2)
    assert isinstance(AllPairs().description, str)
