"""The central Laplace baseline of Lemma 6.7, at the corrected scale 2/(n eps).

A trusted server holds n users' datasets of m items each over k values and releases, for every value x,

    F_x = K~_G(x) + Y_x,   Y_x ~ Lap(b) iid,   b = 2 / (n eps),

then F~ = the normalisation of (max(F_x, 0))_x (uniform if every F_x <= 0; the paper leaves the
normalisation of negative values open, spec A7).

Why it is eps-user-level DP: replacing one user's m items changes K~_G by (K~_i - K~'_i)/n, whose l1 norm
is at most 2/n; the product Laplace density's log ratio at z is (||z - q'||_1 - ||z - q||_1)/b <=
||q - q'||_1 / b <= eps (triangle inequality, attained at z far beyond q on the changed coordinates), and
F~ is post-processing. The paper's scale 1/(n eps) gives 2 eps at the same pair
(claim ``lemma6.7-laplace-scale``).

References: 002_1def8c9789d6e1bd.txt, Section 6.2.2 and Lemma 6.7; specs/imola_metric_dp_user_level.md, A7;
Dwork, McSherry, Nissim, Smith (TCC 2006) for the Laplace mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import sympy

from dpcert.mechanisms.base import Mechanism, check_size
from dpcert.mechanisms.neighbours import Adjacency
from dpcert.mechanisms.parameters import InvalidParameterError, require_eps, require_int, to_exact
from dpcert.mechanisms.metric_user_level.user_datasets import global_histogram, user_datasets

__all__ = ["CentralLaplaceHistogram", "normalise_clipped", "replace_one_user"]


def replace_one_user(x: object, x_prime: object) -> bool:
    """Whether two n x m datasets differ in exactly one user's row (bounded user-level neighbours)."""
    a, b = np.asarray(x), np.asarray(x_prime)
    return a.shape == b.shape and a.ndim == 2 and int(np.sum(np.any(a != b, axis=1))) == 1


def normalise_clipped(noisy: object) -> np.ndarray:
    """Rows of ``noisy`` clipped at 0 and normalised to sum 1 (a row with no positive entry becomes uniform)."""
    values = np.clip(np.asarray(noisy, dtype=float), 0.0, None)
    totals = values.sum(axis=-1, keepdims=True)
    uniform = np.full_like(values, 1.0 / values.shape[-1])
    return np.where(totals > 0, values / np.where(totals > 0, totals, 1.0), uniform)


@dataclass(frozen=True)
class CentralLaplaceHistogram(Mechanism):
    """Lemma 6.7's central Laplace baseline with noise Lap(2/(n eps)) on each of the k normalised frequencies.

    Args:
        eps: the user-level eps (bounded: every user holds m items).
        k: the number of values; inputs are n x m integer arrays of values in 0..k-1.

    :meth:`noisy_histogram` gives F = K~_G + Y, :meth:`sample` the released estimate F~ (clipped at 0 and
    normalised), :meth:`scale` the noise scale b = 2/(n eps).

    Why it is private: module docstring (l1 sensitivity 2/n of K~_G under replace-one-user neighbours).

    References: 002_1def8c9789d6e1bd.txt, Lemma 6.7; specs/imola_metric_dp_user_level.md, A7.
    """

    name: ClassVar[str] = "central-laplace-histogram"
    eps: sympy.Expr
    k: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", require_eps("eps", self.eps))
        object.__setattr__(self, "k", require_int("k", self.k, minimum=2, maximum=10**7))

    def scale(self, n: object) -> sympy.Expr:
        """b = 2 / (n eps), exactly."""
        return 2 / (require_int("n", n, minimum=1) * self.eps)

    def datasets(self, x: object) -> np.ndarray:
        """``x`` validated as an n x m integer array of item indices in 0..k-1 (one row per user; n, m >= 1)."""
        return user_datasets(x, self.k)

    def normalised_histogram(self, x: object) -> np.ndarray:
        """K~_G, the normalised histogram of all users' items, as floats."""
        return global_histogram(x, self.k)

    def exact_histogram(self, x: object) -> tuple[sympy.Rational, ...]:
        """K~_G exactly (for the privacy checks)."""
        array = self.datasets(x)
        counts = np.bincount(array.ravel(), minlength=self.k)
        return tuple(sympy.Rational(int(c), array.size) for c in counts)

    def log_density_ratio(self, z: object, x: object, x_prime: object) -> sympy.Expr:
        """ln(p_x(z) / p_x'(z)) = (||z - K~'_G||_1 - ||z - K~_G||_1) / b, exactly (x, x' of the same n x m shape).

        ``z`` holds k finite numbers, read exactly (a float as the decimal it prints as).
        """
        n = self.datasets(x).shape[0]
        if self.datasets(x_prime).shape != self.datasets(x).shape:
            raise InvalidParameterError("x_prime must have the shape of x (bounded user level: n and m are public)")
        if isinstance(z, (str, bytes)) or np.ndim(z) != 1 or len(z) != self.k:
            raise InvalidParameterError(f"z must be a vector of k = {self.k} numbers. Got {z!r}")
        point = [to_exact("z", v) for v in z]
        q, q_prime = self.exact_histogram(x), self.exact_histogram(x_prime)
        return (sum(abs(a - b) for a, b in zip(point, q_prime)) - sum(abs(a - b) for a, b in zip(point, q))) \
            / self.scale(n)

    def noisy_histogram(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of F = K~_G + Y (size x k floats), before clipping and normalising."""
        size = check_size(size)
        array = self.datasets(x)
        b = float(self.scale(array.shape[0]))
        return self.normalised_histogram(array) + rng.laplace(0.0, b, size=(size, self.k))

    def sample(self, x: object, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` released estimates F~ (size x k floats, each row a probability vector)."""
        return normalise_clipped(self.noisy_histogram(x, size, rng))

    @property
    def neighbours(self) -> Adjacency:
        return Adjacency(replace_one_user, "n x m datasets differing in one user's items (bounded user level)")
