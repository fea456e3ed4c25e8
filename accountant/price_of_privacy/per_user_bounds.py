"""Bounds on what one user's sketch reveals about the clustering: Theorems 10, 13 and 14.

Each bounds ``I(Z; S)`` **in nats** for one user's sketch S of her record (setting:
:mod:`dpcert.accountant.price_of_privacy.sketch_channels`): Theorem 10 for a 1-bit sketch ``1_A`` (w = 1, not private),
Theorems 13 and 14 for every eps-LDP sketch. They rest on the channel-mismatch bound of Lemma 9 and
hold only in nats. Closed forms are exact, or rigorous enclosures whose ``value`` is the upper end
(the BoundResult note says so). :func:`per_user_mi_bound` takes the best of them and Lemma 6.

References: 000_0c6e7fdc3fd68303.txt (Theorems 10, 13, 14; Lemma 28).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.channel_information import SOURCE, _exact_entry, lemma_6_bound
from dpcert.accountant.exact_intervals import _join, _rational, _result
from dpcert.accountant.input_validation import _eps, _items, _sign
from dpcert.accountant.price_of_privacy.sketch_channels import Record, records
from dpcert.accountant.price_of_privacy.subset_overlap import _bracket
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = [
    "per_user_mi_bound",
    "theorem_10_bound",
    "theorem_13_bound",
    "theorem_14_bound",
    "theorem_14_main_term",
    "theorem_14_main_term_bound",
]


def theorem_10_bound(A: Iterable[tuple[int, int]], N: object) -> sympy.Rational:
    """Theorem 10's exact bound for the 1-bit sketch S = 1_A(I, Z), w = 1, in nats.

    ``I(Z; S) <= (|C1|/(2N)) (1/|A| + 1/(2N - |A|)) <= 1/N`` with
    ``C1 = {i : exactly one of (i, 0), (i, 1) is in A}``. For A empty or all of [N] x {0,1} the sketch
    is constant and the bound is 0.

    Args:
        A: a set of pairs (i, z) with 0 <= i < N and z in {0, 1}.
        N: number of items (>= 2).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 10 (proof, identity (6)).
    """
    n = require_int("N", N, minimum=2)
    pairs = set()
    for pair in A:
        if not (isinstance(pair, tuple) and len(pair) == 2 and pair[1] in (0, 1)
                and isinstance(pair[0], int) and 0 <= pair[0] < n):
            raise InvalidParameterError(f"A must contain pairs (i, z) with 0 <= i < N={n} and z in {{0, 1}}. "
                                        f"Got {pair!r}")
        pairs.add(pair)
    size = len(pairs)
    if size in (0, 2 * n):
        return sympy.Integer(0)
    c1 = sum(1 for i in {i for i, _ in pairs} if ((i, 0) in pairs) != ((i, 1) in pairs))
    return _rational(Fraction(c1, 2 * n) * (Fraction(1, size) + Fraction(1, 2 * n - size)))


def theorem_13_bound(N: object, w: object, eps: object, *, form: str = "exact") -> BoundResult:
    """Theorem 13: for every eps-LDP sketch S of (I, Z_I), ``I(Z; S) <= e^{2eps} sum_{k>=1} h(k)(1 - 2^-k)`` nats.

    ``h(k) = C(w,k) C(N-w,w-k)/C(N,w)`` is the law of the overlap K = |I1 ∩ I2| of two independent
    uniform w-subsets, so the exact form is ``e^{2eps} (1 - E[2^-K])``. Why: Lemma 9 bounds I(Z;S) by
    ``E[2^K 1{Z1 ≡ Z2} - 1] <= E[1{Z1 ≡ Z2}(2^K - 1)]``, and Lemma 11 turns each of the two independent
    posterior copies into the uniform law at a cost of e^eps each.

    ``form="paper"`` gives the paper's Delta form
    ``e^{2eps} [Delta_1 + (1 - (1 + w^2/(N-2w+1)) R)]`` with ``Delta_1 = (w^2/(2(N-2w+1))) R``
    (eqs. 8-9), i.e. ``e^{2eps}(1 - P(K=0) - P(K=1)/2)`` >= the exact form. Both are valid for all
    N, w, eps; they are O(w^2/N) and informative only for w^2 << N.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 13 (eqs. 8, 9).
    """
    n, k = _items(N, w)
    e = _eps(eps)
    if form not in ("exact", "paper"):
        raise InvalidParameterError(f"form must be 'exact' or 'paper'. Got {form!r}")
    lower, upper, note = _bracket(n, k, "thm13" if form == "exact" else "thm13-paper")
    factor = sympy.exp(2 * e)
    label = "e^{2eps} (1 - E[2^-K]), K ~ Hypergeometric(N, w, w)" if form == "exact" else \
        "paper's Delta_1 + Delta_2 form (eqs. 8-9), >= the exact form"
    if k * k >= n:
        label += "; w^2 >= N: the O(w^2/N) rate is not small here (Lemma 6 may be tighter)"
    name = "theorem13" if form == "exact" else "theorem13-paper"
    return _result(name, f"{SOURCE}, Theorem 13", "nats", factor * lower, factor * upper, direction="upper",
                   note=_join(label, note))


def theorem_14_bound(N: object, w: object, eps: object, *, any_eps: bool = False) -> BoundResult:
    """Theorem 14: for every eps-LDP sketch with eps < ln 2, I(Z; S) is at most (nats)

    ``2 (e^eps - 1)^2 w/N + e^{2eps} (1 + w^2/N - (1 + 2w^2/(N-2w+1)) R(N, w))``.

    Why: Lemma 9's RHS splits into a main term ``sum_l (pi_l0 - pi_l1)^2``, bounded by
    ``2 eps'^2 w/N`` (eps' = e^eps - 1) at the vertices of the box of Lemma 28 via Bessel's
    inequality, plus overlap terms bounded by ``e^{2eps}(E K - P(K=1) + P(K>1))`` (eqs. 15-16). The
    tail is O(w^4/N^2), which is o(w/N) when w = o(N^{1/3}); the explicit bound holds for every w.
    The tail cancels catastrophically in float64 and is computed exactly (or in interval arithmetic).

    The paper assumes eps < ln 2 (so that eps' < 1). The bound holds for every eps > 0 (spec E11, claim
    ``thm14-any-eps``): the vertices of the relaxed box ``{sum p = 1, p D in [1 - eps', 1 + eps']}`` are
    the p^A with |A| = D/2 for every eps' > 0, the relaxed box contains the true feasible set even when
    1 - eps' < 0, and the tail uses only Lemma 11.

    Args:
        N, w: items and ratings per user.
        eps: the local-DP parameter (> 0).
        any_eps: drop the paper's hypothesis eps < ln 2. Without it, eps >= ln 2 gives ``valid=False``
            (value None).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 14 (= Theorem 27; eqs. 15-18, Lemma 28).
    """
    n, k = _items(N, w)
    e = _eps(eps)
    source = f"{SOURCE}, Theorem 14"
    if not isinstance(any_eps, bool):
        raise InvalidParameterError(f"any_eps must be True or False. Got {any_eps!r}")
    if not any_eps and _sign("eps", e - sympy.log(2)) >= 0:
        return BoundResult("theorem14", source, None, "nats", False,
                           f"requires eps < ln 2 (so that eps' = e^eps - 1 < 1); got eps = {e} >= ln 2")
    lower, upper, note = _bracket(n, k, "thm14")
    main = theorem_14_main_term_bound(n, k, e)
    factor = sympy.exp(2 * e)
    rate = "" if k**3 < n else "w^3 >= N: the bound holds, but its tail is not o(w/N)"
    beyond = "" if _sign("eps", e - sympy.log(2)) < 0 else \
        "eps >= ln 2: outside the paper's hypothesis, valid by the proof of claim thm14-any-eps (spec E11)"
    return _result("theorem14", source, "nats", main + factor * lower, main + factor * upper, direction="upper",
                   note=_join("2(e^eps-1)^2 w/N + e^{2eps}(1 + w^2/N - (1 + 2w^2/(N-2w+1)) R), exact tail", rate,
                              beyond, note))


def theorem_14_main_term_bound(N: object, w: object, eps: object) -> sympy.Expr:
    """Theorem 14's bound on its main term: ``sum_l (pi_l0 - pi_l1)^2 <= 2 (e^eps - 1)^2 w/N``.

    Holds for every posterior p on D with ``p_x D in [1 - eps', 1 + eps']`` (the box (18)), eps' = e^eps - 1:
    at a vertex p^A (Lemma 28), ``pi_l0 - pi_l1 = (2eps'/D)<1_A, v_l>`` with orthogonal v_l of squared
    norm wD/N, and Bessel gives ``(2eps'/D)^2 (wD/N)(D/2)``.

    References: 000_0c6e7fdc3fd68303.txt, Theorem 14, Lemma 28.
    """
    n, k = _items(N, w)
    e = _eps(eps)
    return 2 * (sympy.exp(e) - 1) ** 2 * sympy.Rational(k, n)


def theorem_14_main_term(posterior: Mapping[Record, object] | Sequence[object], N: object, w: object) -> sympy.Expr:
    """The main term ``sum_l (pi_l0 - pi_l1)^2`` of Theorem 14 for a posterior on D, exactly.

    ``pi_{l,sigma} = sum_{(i,z): l in i, z(l) = sigma} p(i, z)``. ``posterior`` is a mapping record ->
    probability or a sequence in :func:`~dpcert.accountant.price_of_privacy.sketch_channels.records` order (it need not sum
    to 1: the box of (18) is checked by the caller).

    References: 000_0c6e7fdc3fd68303.txt, Theorem 14 (identity (17)).
    """
    n, k = _items(N, w)
    recs = records(n, k)
    if isinstance(posterior, Mapping):
        values = [_exact_entry(f"posterior[{r!r}]", posterior.get(r, 0)) for r in recs]
    else:
        if isinstance(posterior, (str, bytes)) or not isinstance(posterior, Sequence) or len(posterior) != len(recs):
            raise InvalidParameterError(f"posterior must have one entry per record ({len(recs)}). Got {posterior!r}")
        values = [_exact_entry(f"posterior[{j}]", v) for j, v in enumerate(posterior)]
    diff = [0] * n
    for (items, labels), p in zip(recs, values):
        for item, label in zip(items, labels):
            diff[item] = diff[item] + (p if label == 0 else -p)
    total = sum(d * d for d in diff)
    return _rational(total) if isinstance(total, Fraction) else sympy.expand(sympy.sympify(total))


def per_user_mi_bound(N: object, w: object, eps: object) -> BoundResult:
    """The best per-user MI bound: ``min(Lemma 6, Theorem 13, Theorem 14 if eps < ln 2)``, in nats.

    Each is a valid upper bound on I(Z; S) for an eps-LDP sketch of one user's record, so their
    minimum is too (compared on their rigorous upper ends). The note names the one that gave it.

    References: 000_0c6e7fdc3fd68303.txt, Lemma 6, Theorems 13 and 14.
    """
    n, k = _items(N, w)
    e = _eps(eps)
    candidates = [lemma_6_bound(e), theorem_13_bound(n, k, e), theorem_14_bound(n, k, e)]
    best = None
    for candidate in candidates:
        if not candidate.valid:
            continue
        if best is None or _sign("bound", candidate.upper_value - best.upper_value) < 0:
            best = candidate
    return BoundResult("per-user", f"{SOURCE}, Lemma 6, Theorems 13-14", best.value, "nats", True,
                       f"min of lemma6, theorem13, theorem14 (if eps < ln 2): given by {best.name}",
                       lower_value=best.lower_value, upper_value=best.upper_value)
