"""The input of the frequency and linear-query mechanisms: n users' datasets of m items each.

A family of datasets is an n x m integer array, one row per user, of item indices in 0..k-1 (equal sizes, as
in Algorithm 4 of 002_1def8c9789d6e1bd.txt). Its global normalised histogram K~_G (the mean of the users'
normalised histograms, since the sizes are equal) is what every estimator of Section 6 estimates.
"""

from __future__ import annotations

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["global_histogram", "user_datasets"]


def user_datasets(x: object, k: int) -> np.ndarray:
    """``x`` validated as an n x m integer array of item indices in 0..k-1 (n, m >= 1)."""
    array = np.asarray(x)
    if array.ndim != 2 or array.size == 0 or array.dtype.kind not in "iu":
        raise InvalidParameterError(f"x must be an n x m array of item indices (one row per user). Got {x!r}")
    if array.min() < 0 or array.max() >= k:
        raise InvalidParameterError(f"x must hold item indices in 0..{k - 1}")
    return array.astype(np.int64)


def global_histogram(x: object, k: int) -> np.ndarray:
    """K~_G, the normalised histogram of all users' items (``x`` as :func:`user_datasets` takes it), as floats."""
    array = user_datasets(x, k)
    return np.bincount(array.ravel(), minlength=k) / array.size
