"""The paper's information bounds as families of ``dpcert bound``: each returns a list of named BoundResults.

A family is a function of exact parameters (ints, Fractions, sympy numbers, or the strings a command
line passes: ``"1e12"``, ``"1/2"``, ``"log(2)"``); :data:`dpcert.accountant.catalog.BOUND_FAMILIES` lists
it with its parameter specifications, so a command line can build
``dpcert bound ldp-mutual-information --param N=1e12 --param w=10 --param eps=1/2``.

References: 000_0c6e7fdc3fd68303.txt (Lemma 6, Theorems 7, 13, 14, 23, Corollary 21).
"""

from __future__ import annotations

import sympy

from dpcert.accountant.bound_family import optional_parameter
from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.channel_information import SOURCE, lemma_6_bound
from dpcert.accountant.price_of_privacy.fano import theorem_7_user_threshold, theorem_23_user_threshold, users_unreliable
from dpcert.accountant.input_validation import _eps, _probability_open
from dpcert.accountant.price_of_privacy.per_user_bounds import per_user_mi_bound, theorem_13_bound, theorem_14_bound
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["fano_family", "ldp_mutual_information_family"]


def _n_w(N: object, w: object) -> tuple[int, int | None]:
    n = require_int("N", N, minimum=2)
    w = optional_parameter(w)
    if w is None:
        return n, None
    return n, require_int("w", w, minimum=1, maximum=n, maximum_name="N")


def ldp_mutual_information_family(N: object, w: object, eps: object) -> list[BoundResult]:
    """Upper bounds on the information one eps-LDP user gives about the clustering, in nats.

    Results, in order: ``lemma6`` (eps), ``theorem13`` (exact hypergeometric form), ``theorem13-paper``
    (the paper's Delta form), ``theorem14`` (valid=False when eps >= ln 2) and ``per-user`` (their
    minimum; the note names which gave it).

    Args:
        N: number of items (>= 2).
        w: ratings per user, 1 <= w <= N.
        eps: the local-DP parameter (> 0).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 6, Theorems 13 and 14.
    """
    n, k = _n_w(N, w)
    if k is None:
        raise InvalidParameterError(f"w must be an integer in [1, N] = [1, {n}]. Got {w!r}")
    e = _eps(eps)
    return [lemma_6_bound(e), theorem_13_bound(n, k, e), theorem_13_bound(n, k, e, form="paper"),
            theorem_14_bound(n, k, e), per_user_mi_bound(n, k, e)]


def _corollary_21(name: str, info: BoundResult | None, n: int, p: sympy.Expr, missing: str) -> BoundResult:
    source = f"{SOURCE}, Corollary 21"
    if info is None:
        return BoundResult(name, source, None, "users", False, missing, bounds="lower")
    if not info.valid:
        return BoundResult(name, source, None, "users", False, f"{info.name} does not apply: {info.note}",
                           bounds="lower")
    lower = users_unreliable(info.upper_value, n, p_max=p)  # a larger MI bound gives a smaller (safe) threshold
    upper = users_unreliable(info.lower_value, n, p_max=p)
    note = (f"non-adaptive users with i.i.d. sketches; per-user I <= {info.name} bound "
            f"({info.display()} nats, times log2 e for Fano in bits); fewer users give average error > {p}")
    if lower == upper:
        return BoundResult(name, source, lower, "users", True, note, bounds="lower")
    return BoundResult(name, source, lower, "users", True, f"{note}; value is the lower end of a rigorous enclosure",
                       lower_value=lower, upper_value=upper, bounds="lower")


def fano_family(N: object, eps: object, *, w: object = None, p_max: object = sympy.Rational(1, 2), K: object = 2,
         d: object = 0) -> list[BoundResult]:
    """User counts below which every eps-LDP clustering learner is unreliable (Fano-type bounds).

    Results, in order:

    - ``theorem7``: ``((1 - p_max) N - 1)/(eps log2 e)``, any learner (adaptive or not);
    - ``theorem7-paper``: the paper's printed ``N/(eps log2 e)``, valid=False (Fano is vacuous there);
    - ``corollary21-lemma6`` / ``-theorem13`` / ``-theorem14``: non-adaptive learners,
      ``((1 - p_max) N - 1)/(I log2 e)`` with I the per-user bound of Lemma 6 / Theorem 13 /
      Theorem 14 in nats (the last two need w; Theorem 14 needs eps < ln 2);
    - ``theorem23`` / ``theorem23-paper``: K clusters within Hamming tolerance d (exact tail / the
      paper's Chernoff form).

    Args:
        N: number of items (>= 2).
        eps: the local-DP parameter (> 0).
        w: ratings per user (1 <= w <= N), or None.
        p_max: the error level, in (0, 1).
        K: number of clusters for Theorem 23 (>= 2).
        d: Hamming tolerance for Theorem 23 (0 <= d < N).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 7, Corollary 21, Theorem 23.
    """
    n, k = _n_w(N, w)
    e = _eps(eps)
    p = _probability_open("p_max", p_max)
    clusters = require_int("K", K, minimum=2)
    tolerance = require_int("d", d, minimum=0, maximum=n - 1)
    missing = "needs w (ratings per user)"
    results = [theorem_7_user_threshold(n, e, p_max=p), theorem_7_user_threshold(n, e, p_max=p, form="paper"),
               _corollary_21("corollary21-lemma6", lemma_6_bound(e), n, p, missing),
               _corollary_21("corollary21-theorem13", None if k is None else theorem_13_bound(n, k, e), n, p, missing),
               _corollary_21("corollary21-theorem14", None if k is None else theorem_14_bound(n, k, e), n, p, missing),
               theorem_23_user_threshold(n, clusters, tolerance, e, p_max=p),
               theorem_23_user_threshold(n, clusters, tolerance, e, p_max=p, exact_tail=False)]
    return results
