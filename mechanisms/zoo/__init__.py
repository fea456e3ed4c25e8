"""The zoo: known-private and known-broken mechanisms that auditors are judged on.

Every class has ``expected_verdict`` ("private" or "not-private"), the reason in its docstring, an ``eps``
parameter and ``neighbour_pairs()``. They are catalogued with the other mechanisms in
:data:`dpcert.mechanisms.catalog.CATALOG` (``sampler_only``), by their ``name``; ``noisy-max`` and
``noisy-max-value`` also by DP-Sniper's names, ``report-noisy-max1`` and ``report-noisy-max3``.
"""

from dpcert.mechanisms.zoo.geometric import TruncatedGeometric
from dpcert.mechanisms.zoo.histogram import Histogram, HistogramWrongScale
from dpcert.mechanisms.zoo.laplace import LaplaceExact, LaplaceFloat, LaplaceParallel
from dpcert.mechanisms.zoo.noisy_max import NoisyMax, NoisyMaxExponential, NoisyMaxExponentialValue, NoisyMaxValue
from dpcert.mechanisms.zoo.prefix_sum import PrefixSum
from dpcert.mechanisms.zoo.rappor import OneTimeRappor, Rappor
from dpcert.mechanisms.zoo.svt import SVT1, SVT2, SVT3, SVT4, SVT5, SVT6, NumericalSVT, SVT34Parallel

__all__ = ["SVT1", "SVT2", "SVT3", "SVT4", "SVT5", "SVT6", "NoisyMax", "NoisyMaxExponential",
           "NoisyMaxExponentialValue", "NoisyMaxValue", "Histogram", "HistogramWrongScale", "LaplaceFloat",
           "LaplaceExact", "LaplaceParallel", "NumericalSVT", "OneTimeRappor", "PrefixSum", "Rappor", "SVT34Parallel",
           "TruncatedGeometric"]
