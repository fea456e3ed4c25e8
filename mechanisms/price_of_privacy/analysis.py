"""Exact closed forms from the analyses of Pairwise-Preference, MaxSense and Multi-MaxSense.

All functions are pure and return exact sympy numbers (rationals, or expressions in e^eps and
e^-theta). Call ``float(...)`` for display or for comparison with a simulation.

References: 000_0c6e7fdc3fd68303.txt, Theorem 8 / Appendix B (Pairwise-Preference), Theorem 15
(MaxSense), Theorem 16 (Multi-MaxSense); corrections in the spec, Section 9 (E3, E6, E7, E8).
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    exact_sign,
    require_int,
    require_positive,
    to_exact,
)
from dpcert.mechanisms.price_of_privacy.blockmodel import SAMPLING_MODELS, _probability_vector
from dpcert.mechanisms.price_of_privacy.sketches import PAIR_RULES

__all__ = [
    "eps_hat",
    "maxsense_delta",
    "maxsense_delta_min",
    "maxsense_expected_scores",
    "maxsense_q0",
    "maxsense_score_gap",
    "multimaxsense_queries",
    "multimaxsense_rate_factor",
    "multimaxsense_tight_epsilon",
    "pairwise_pair_probability",
    "pairwise_same_rating_probability",
]

Exact = sympy.Expr


def eps_hat(eps: object) -> Exact:
    """eps_hat = 2 (e^eps - 1) / (e^eps + 1) = 2 tanh(eps / 2): twice the bias of the eps-DP bit release.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15.
    """
    eps = require_positive("eps", eps)
    t = sympy.exp(eps)
    return 2 * (t - 1) / (t + 1)


Matrix = tuple[tuple[Exact, ...], ...]


def _model(alpha: object, b: object, beta: object | None = None) -> tuple[tuple[Exact, ...], Matrix,
                                                                          tuple[Exact, ...] | None]:
    a = _probability_vector("alpha", alpha)
    be = None if beta is None else _probability_vector("beta", beta)
    if isinstance(b, (str, bytes)) or not isinstance(b, Sequence) or len(b) != len(a):
        raise InvalidParameterError(f"b must be a K x L matrix with K = len(alpha) = {len(a)} rows. Got {b!r}")
    width = len(be) if be is not None else len(b[0]) if len(b) and isinstance(b[0], Sequence) else 0
    rows = []
    for k, row in enumerate(b):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != width or width == 0:
            raise InvalidParameterError(f"b[{k}] must have L = {width} entries. Got {row!r}")
        exact_row = []
        for l, v in enumerate(row):
            v = to_exact(f"b[{k}][{l}]", v)
            if exact_sign(v) < 0 or exact_sign(v - 1) > 0:
                raise InvalidParameterError(f"b[{k}][{l}] must be in [0, 1]. Got {v}")
            exact_row.append(v)
        rows.append(tuple(exact_row))
    return a, tuple(rows), be


def _theta(theta: object, N: int, w: int | None = None) -> Exact:
    theta = require_positive("theta", theta)
    if w is not None and exact_sign(theta - w) > 0:
        raise InvalidParameterError(f"theta must be in (0, w] = (0, {w}] (sensing probability theta/w <= 1). "
                                    f"Got {theta}")
    if exact_sign(theta - N) >= 0:
        raise InvalidParameterError(f"theta must be < N = {N}. Got {theta}")
    return theta


def maxsense_q0(alpha: Sequence[object], beta: Sequence[object], b: Sequence[Sequence[object]], N: int,
                theta: object) -> tuple[Exact, ...]:
    """q0_k = P[S0_u = 0 | user cluster k] = prod_l (1 - theta b_kl / N)^(beta_l N), eq. (12).

    Exact under independent inclusion (each item rated with probability w/N, sensed with theta/w).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15, eq. (12).
    """
    N = require_int("N", N, minimum=2)
    _, rows, be = _model(alpha, b, beta)
    theta = _theta(theta, N)
    return tuple(sympy.Mul(*((1 - theta * bkl / N) ** (bl * N) for bkl, bl in zip(row, be))) for row in rows)


def maxsense_expected_scores(alpha: Sequence[object], beta: Sequence[object], b: Sequence[Sequence[object]], N: int,
                             w: int, theta: object, eps: object, U: int) -> tuple[Exact, ...]:
    """Bbar_l = E[B_i] for an item i of cluster l, under MaxSense with independent inclusion.

    Bbar_l = U p [1/2 + eps_hat/4 - (eps_hat/2) q0]
             + U p ((w - theta)/N) (eps_hat/2) sum_k alpha_k q0_k b_kl / (1 - theta b_kl / N),
    with p = theta/w, q0 = sum_k alpha_k q0_k (spec E6: the paper writes sum_k q0_k).

    Exact when every item is rated independently with probability w/N and user clusters have
    proportions alpha (users i.i.d. over clusters, or exactly alpha_k U of each); only approximate
    under uniform w-subsets (spec E7).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (proof).
    """
    N = require_int("N", N, minimum=2)
    w = require_int("w", w, minimum=1, maximum=N, maximum_name="N")
    U = require_int("U", U, minimum=0)
    a, rows, be = _model(alpha, b, beta)
    theta = _theta(theta, N, w)
    e_hat = eps_hat(eps)
    q0k = maxsense_q0(a, be, rows, N, theta)
    q0 = sympy.Add(*(ak * qk for ak, qk in zip(a, q0k)))
    p = theta / w
    base = U * p * (sympy.Rational(1, 2) + e_hat / 4 - e_hat / 2 * q0)
    scores = []
    for l in range(len(be)):
        tilt = sympy.Add(*(ak * qk * row[l] / (1 - theta * row[l] / N) for ak, qk, row in zip(a, q0k, rows)))
        scores.append(base + U * p * (w - theta) / N * e_hat / 2 * tilt)
    return tuple(scores)


def maxsense_delta(alpha: Sequence[object], beta: Sequence[object], b: Sequence[Sequence[object]], N: int,
                   theta: object) -> tuple[tuple[Exact, ...], ...]:
    """delta_lm = |sum_k alpha_k q0_k (b_kl - b_km) / ((1 - theta b_kl/N)(1 - theta b_km/N))| (L x L).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (proof).
    """
    N = require_int("N", N, minimum=2)
    a, rows, be = _model(alpha, b, beta)
    theta = _theta(theta, N)
    q0k = maxsense_q0(a, be, rows, N, theta)
    L = len(be)
    out = []
    for l in range(L):
        line = []
        for m in range(L):
            value = sympy.Add(*(ak * qk * (row[l] - row[m]) / ((1 - theta * row[l] / N) * (1 - theta * row[m] / N))
                                for ak, qk, row in zip(a, q0k, rows)))
            line.append(-value if exact_sign(value) < 0 else value)
        out.append(tuple(line))
    return tuple(out)


def maxsense_score_gap(N: int, w: int, theta: object, eps: object, U: int, delta_lm: object) -> Exact:
    """Delta_lm = |Bbar_l - Bbar_m| = U eps_hat theta (1 - theta/w) delta_lm / (2N) (spec E6: exact form).

    The paper prints >= U eps_hat (theta - theta^2/w) delta_lm / N, dropping the factor 1/2.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15 (proof); spec Section 9, E6.
    """
    N = require_int("N", N, minimum=2)
    w = require_int("w", w, minimum=1, maximum=N, maximum_name="N")
    U = require_int("U", U, minimum=0)
    theta = _theta(theta, N, w)
    return U * eps_hat(eps) * theta * (1 - theta / w) * to_exact("delta_lm", delta_lm) / (2 * N)


def maxsense_delta_min(alpha: Sequence[object], beta: Sequence[object], b: Sequence[Sequence[object]],
                       theta: object) -> Exact:
    """delta_min = min_{l < l'} |sum_k alpha_k e^(-theta v_k) (b_kl - b_kl')|, v_k = sum_m beta_m b_km.

    The limit of delta_lm as N -> infinity (q0_k -> e^(-theta v_k)). Zero when two item clusters are
    not separable at this theta. Needs L >= 2.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 15.
    """
    a, rows, be = _model(alpha, b, beta)
    theta = require_positive("theta", theta)
    L = len(be)
    if L < 2:
        raise InvalidParameterError(f"beta must have at least 2 item clusters for delta_min. Got L = {L}")
    weights = [ak * sympy.exp(-theta * sympy.Add(*(bm * bkm for bm, bkm in zip(be, row)))) for ak, row in zip(a, rows)]
    best: Exact | None = None
    for l in range(L):
        for m in range(l + 1, L):
            value = sympy.Add(*(wk * (row[l] - row[m]) for wk, row in zip(weights, rows)))
            value = -value if exact_sign(value) < 0 else value
            if best is None or exact_sign(value - best) < 0:
                best = value
    assert best is not None
    return best


def pairwise_same_rating_probability(alpha: Sequence[object], b: Sequence[Sequence[object]], l: int, m: int,
                                     *, rule: str = "both-rated-equal") -> Exact:
    """P(S0 = 1 | both items rated) for items of clusters l and m, over a random user.

    b_lm = sum_k alpha_k (b_kl b_km + (1 - b_kl)(1 - b_km)) for rules (a) and (b) (same rating);
    sum_k alpha_k b_kl b_km for rule (c) (both positive).

    References: 000_0c6e7fdc3fd68303.txt, Appendix B.
    """
    a, rows, _ = _model(alpha, b)
    if rule not in PAIR_RULES:
        raise InvalidParameterError(f"rule must be one of {', '.join(PAIR_RULES)}. Got {rule!r}")
    L = len(rows[0])
    for name, v in (("l", l), ("m", m)):
        require_int(name, v, minimum=0, maximum=L - 1)
    if rule == "both-positive":
        return sympy.Add(*(ak * row[l] * row[m] for ak, row in zip(a, rows)))
    return sympy.Add(*(ak * (row[l] * row[m] + (1 - row[l]) * (1 - row[m])) for ak, row in zip(a, rows)))


def pairwise_pair_probability(alpha: Sequence[object], b: Sequence[Sequence[object]], l: int, m: int, N: int, w: int,
                              eps: object, *, rule: str = "both-rated-equal", sampling: str = "subset",
                              ordered: bool = False) -> Exact:
    """P[S_u = 1, P_u = {i, j}] for one user and two given items i != j of clusters l and m.

    P[S_u = 1, P_u = {i,j}] = P(P_u = {i,j}) (1/(e^eps + 1) + ((e^eps - 1)/(e^eps + 1)) P(S0 = 1 | P_u = {i,j})),
    with P(P_u = {i,j}) = 2/(N(N-1)) for the unordered uniform pair (``ordered=True`` gives the
    paper's printed 1/(N(N-1)), spec E8), and under rule (a) with uniform w-subsets
    P(S0 = 1 | P_u) = w(w-1)/(N(N-1)) b_lm (Appendix B). Rules (b) and (c) and independent inclusion
    (each item rated with probability w/N) are handled too. A_hat_ij ~ Binomial(U, this).

    References: 000_0c6e7fdc3fd68303.txt, Appendix B (Theorem 24).
    """
    N = require_int("N", N, minimum=2)
    w = require_int("w", w, minimum=1, maximum=N, maximum_name="N")
    if sampling not in SAMPLING_MODELS:
        raise InvalidParameterError(f"sampling must be one of {', '.join(SAMPLING_MODELS)}. Got {sampling!r}")
    a, rows, _ = _model(alpha, b)
    if sampling == "subset":
        both = sympy.Rational(w * (w - 1), N * (N - 1))
        one = sympy.Rational(w * (N - w), N * (N - 1))
        neither = sympy.Rational((N - w) * (N - w - 1), N * (N - 1))
    else:
        r = sympy.Rational(w, N)
        both, one, neither = r * r, r * (1 - r), (1 - r) ** 2
    s0 = both * pairwise_same_rating_probability(a, rows, l, m, rule=rule)
    if rule == "literal":  # unrated items count as 0: neither rated, or one rated negatively
        s0 += neither + one * sympy.Add(*(ak * ((1 - row[l]) + (1 - row[m])) for ak, row in zip(a, rows)))
    t = sympy.exp(require_positive("eps", eps))
    pair = sympy.Rational(1 if ordered else 2, N * (N - 1))
    return pair * (1 / (t + 1) + (t - 1) / (t + 1) * s0)


def multimaxsense_queries(eps: object) -> int:
    """Q = ceil(eps), Theorem 16's number of queries per user (printed "[eps]"; spec E3)."""
    return max(1, int(sympy.ceiling(require_positive("eps", eps))))


def multimaxsense_tight_epsilon(eps: object, Q: int, nonempty: int, w: int) -> Exact:
    """The exact tightest eps of Multi-MaxSense's sketch: (eps/Q) min(Q', 2w), Q' = non-empty blocks (spec M4).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 16; spec M4 [DERIVED].
    """
    eps = require_positive("eps", eps)
    Q = require_int("Q", Q, minimum=1)
    nonempty = require_int("nonempty", nonempty, minimum=0, maximum=Q)
    w = require_int("w", w, minimum=1)
    return eps * sympy.Rational(min(nonempty, 2 * w), Q)


def multimaxsense_rate_factor(eps: object, *, Q: int | None = None) -> Exact:
    """Q eps_hat(eps/Q)^2: Multi-MaxSense's users needed scale as 1 / this (Theorem 16's proof, U -> QU).

    With Q = ceil(eps) (the default) and eps >= 1, eps/Q lies in (1/2, 1], so eps_hat(eps/Q) >
    2 tanh(1/4) and the factor exceeds eps (2 tanh(1/4))^2: the 1/eps rate. The paper's printed bound
    eps_hat(eps/Q) >= 2(e - 1)/(e + 2) is false (spec E3: eps = 101/100 gives 0.4945 < 0.728).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 16; spec Section 9, E3.
    """
    eps = require_positive("eps", eps)
    Q = multimaxsense_queries(eps) if Q is None else require_int("Q", Q, minimum=1)
    return Q * eps_hat(eps / Q) ** 2
