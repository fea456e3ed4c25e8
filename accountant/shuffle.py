"""Privacy amplification by shuffling: every bound in use, rigorously evaluated, and the exact truth.

n users each apply an eps0-LDP local randomizer (or an alpha0 d_X-metric-DP one, for Imola et al.);
their reports are shuffled. For a target delta in (0, 1), each bound gives an eps such that the shuffled
output is (eps, delta)-DP for datasets differing in one user (``l0`` users/items for Imola et al.).

Result names (:data:`SHUFFLE_METHODS`):

=====================  ============================================================================
``efmrtt19``           Erlingsson et al. (SODA 2019): 12 eps0 sqrt(ln(1/delta)/n)
``fmt21-closed``       Feldman, McMillan, Talwar (FOCS 2021), Theorem 3.1
``fmt21-numeric``      FMT 2021 clone reduction (Theorem 3.2), every c of C ~ Bin(n-1, e^-eps0)
``fmt21-approx``       FMT 2021 Theorem 3.8, (eps0, delta0)-LDP randomizers (``delta0``), as two implementations
                       state it (the theorem's text was not at hand; checked against an exact shuffled law)
``fmt23-closed``       FMT (SODA 2023) stronger clones, closed form (randomized response or opt-in)
``fmt23-numeric``      FMT 2023 stronger clones, numerical (randomized response or opt-in)
``blanket-hoeffding``  Balle, Bell, Gascon, Nissim (CRYPTO 2019), Hoeffding
``blanket-bennett``    Balle, Bell, Gascon, Nissim (CRYPTO 2019), Bennett
``optimal``            the blanket decomposition's mean itself, certified (k-ary randomized response or a finite
                       ``randomizer``; Su, Cheng, Wang, S&P 2026: the best decomposition bound; k omitted: the
                       clone decomposition's worst case, never above fmt21-numeric); with the exact row's lower
                       end where known (k omitted: binary randomized response's exact eps).
                       In a run of every method up to n = 10^6 (its lower end up to 2000), by name up to
                       10^8 (6 s; its lower end up to 10^4)
``imola-thm4.3``       Imola, Roy Chowdhury, Chaudhuri, Theorem 4.3 (metric DP, ||v||_0 changed items)
``exact``              the exact eps of shuffled k-ary randomized response (small n; a lower bound for k
                       omitted or beyond the enumeration, then ``valid=False``)
``no-amplification``   eps0: shuffling is post-processing
=====================  ============================================================================

Every numerical value is an interval [lower, upper] (``BoundResult.enclosure``) whose upper end is a
certified valid eps (see :mod:`dpcert.accountant.shuffle_numeric`, :mod:`dpcert.accountant.shuffle_blanket`,
:mod:`dpcert.accountant.shuffle_exact`); closed forms are exact sympy expressions whose float is rounded up. No
result exceeds eps0 ||v||_1, which always holds (post-processing).
"""

from __future__ import annotations

import sympy

from dpcert.accountant.blanket_variables import randomizer_variables
from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.shuffle_blanket import blanket_bennett, blanket_delta, blanket_hoeffding
from dpcert.accountant.shuffle_closed_forms import (
    ImolaTheorem4_4,
    efmrtt19,
    fmt21_approx,
    fmt21_closed,
    fmt21_closed_expression,
    fmt23_closed,
    fmt23_closed_expression,
    imola_alpha,
    imola_theorem_4_3,
    imola_theorem_4_3_at_delta,
    imola_theorem_4_4,
    imola_theorem_4_4_alpha,
)
from dpcert.accountant.shuffle_common import SOURCES, ShuffleInputs, invalid, validate_shuffle_inputs
from dpcert.accountant.shuffle_exact import (
    MAX_EXACT_KRR_WORK,
    MAX_EXACT_RR_N,
    EpsilonEnclosure,
    binary_rr_enclosure,
    exact_krr_limit_text,
    exact_result,
    exact_shuffled_krr,
    exact_shuffled_krr_worst,
    exact_shuffled_rr,
    exact_shuffled_rr_delta,
    krr_cells_fit,
    krr_pair_enclosure,
    krr_worst_case_cost,
)
from dpcert.accountant.shuffle_optimal import blanket_optimal
from dpcert.accountant.shuffle_numeric import (
    CloneDelta,
    clone_delta,
    clone_epsilon,
    fmt21_numeric,
    fmt23_numeric,
    stronger_clones_condition,
)
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_bool, require_real
from dpcert.proofs.rounding import decimal_string

__all__ = [
    "SHUFFLE_METHODS",
    "SHUFFLE_PARAMETERS",
    "shuffle_family",
    "shuffle_bound",
    "efmrtt19",
    "fmt21_approx",
    "fmt21_closed",
    "fmt21_closed_expression",
    "fmt21_numeric",
    "fmt23_closed",
    "fmt23_closed_expression",
    "fmt23_numeric",
    "blanket_hoeffding",
    "blanket_bennett",
    "blanket_delta",
    "clone_delta",
    "clone_epsilon",
    "CloneDelta",
    "stronger_clones_condition",
    "imola_alpha",
    "imola_theorem_4_3",
    "imola_theorem_4_3_at_delta",
    "imola_theorem_4_4",
    "imola_theorem_4_4_alpha",
    "ImolaTheorem4_4",
    "exact_shuffled_rr",
    "exact_shuffled_rr_delta",
    "exact_shuffled_krr",
    "exact_shuffled_krr_worst",
    "exact_truth",
    "MAX_EXACT_RR_N",
    "MAX_EXACT_KRR_N",
]

SHUFFLE_METHODS = ("efmrtt19", "fmt21-closed", "fmt21-numeric", "fmt21-approx", "fmt23-closed", "fmt23-numeric",
                   "blanket-hoeffding", "blanket-bennett", "optimal", "imola-thm4.3", "exact", "no-amplification")
"""Result names of :func:`shuffle_family`, in the order it returns them."""

MAX_EXACT_KRR_N = 200
"""Largest n for the k-RR (k >= 3) lower bound from three datasets, where the worst case is out of reach
(which also needs 3 n (n + 1)^(k - 1) <= :data:`~dpcert.accountant.shuffle_exact.MAX_EXACT_KRR_WORK`: users added
times grid cells)."""


def _canonical_fits(n: int, k: int) -> bool:
    """Whether :func:`_canonical_lower_bound` is within :data:`MAX_EXACT_KRR_N` and the work limit."""
    return n <= MAX_EXACT_KRR_N and krr_cells_fit(n, k) and 3 * n * (n + 1) ** (k - 1) <= MAX_EXACT_KRR_WORK

SHUFFLE_PARAMETERS: tuple[tuple[str, str, object], ...] = (
    ("eps0", "local randomizers' eps0 > 0 (imola-thm4.3: the metric-DP alpha0 per unit distance)", None),
    ("n", "number of users whose reports are shuffled, an integer >= 2", None),
    ("delta", "target delta of the shuffled mechanism, in (0, 1)", None),
    ("method", "one result name (" + ", ".join(SHUFFLE_METHODS) + "); default: all (optimal up to n = 10^6, its lower end up to 2000)",
     None),
    ("k", "the randomizer is k-ary randomized response (2: binary); omit for any eps0-LDP randomizer", None),
    ("l0", "imola-thm4.3: number of changed items ||v||_0 (the other bounds need 1)", 1),
    ("l1", "imola-thm4.3: total distance ||v||_1 <= l0 of the changed items (default l0)", None),
    ("assume_stronger_clones", "opt in to FMT 2023 for a randomizer other than randomized response", False),
    ("randomizer", "optimal: the local randomizer, a finite mechanism of `dpcert mechanisms` as NAME:param=value,... "
                   "(eps0-LDP, every output possible under every input), or a named one at eps0: k-rr:k=K, oue:k=K, "
                   "rappor:D=D, blh:D=D, hadamard:k=K, laplace; or several joined by & (joint: each user reports all; "
                   "with a named part each of m parts at eps0/m) or | (parallel: each user runs one, chosen "
                   "uniformly); instead of k", None),
    ("delta0", "fmt21-approx: the randomizers are (eps0, delta0)-LDP, delta0 in (0, delta/n); the other rows then "
               "need pure LDP and say so", None),
    ("sampling", "optimal: each user reports with this probability, a rational in [10^-6, 1] (Poisson sampling of users "
                 "before the shuffler; the other rows stay valid, as sampling is post-processing)", None),
    ("lower_end", "optimal: its certified lower end where offered (n <= 10^4; seconds near 10^4); false: the upper end "
                  "alone", True),
)
"""(name, help, default) of every :func:`shuffle_family` argument, for a command line."""


def _canonical_lower_bound(x: ShuffleInputs) -> BoundResult:
    """k-RR (k >= 3) beyond the worst-case enumeration: the largest eps over three canonical datasets.

    Each pair changes one user from 0 to 1; the others all hold 2, all hold 0, or cycle through 0..k-1.
    Any pair's eps is a lower bound on the worst case.
    """
    others = {"all others hold 2": [2] * (x.n - 1), "all others hold 0": [0] * (x.n - 1),
              "others cycle 0..k-1": [i % x.k for i in range(x.n - 1)]}
    worst: tuple[str, EpsilonEnclosure] | None = None
    for label, rest in others.items():
        pair = krr_pair_enclosure(x.eps0, x.k, rest + [0], rest + [1], x.delta)
        if worst is None or pair.lower > worst[1].lower:
            worst = (label, pair)
    assert worst is not None
    note = (f"{x.k}-ary randomized response: a LOWER bound on the true eps, the largest over three datasets "
            f"(worst: {worst[0]}), since the worst case over all datasets is out of reach ("
            f"{exact_krr_limit_text(x.k)}); not an upper bound, so not valid as a shuffle bound")
    return exact_result(worst[1], x.eps0, note, bounds="lower", valid=False)


def _binary_lower_bound(x: ShuffleInputs) -> BoundResult:
    """Any eps0-LDP randomizer (k omitted): binary randomized response's worst case, a lower bound."""
    worst, j = binary_rr_enclosure(x.eps0, x.n, x.delta)
    note = (f"any eps0-LDP randomizer: a LOWER bound on the true worst-case eps, the exact eps of binary "
            f"randomized response (one eps0-LDP randomizer; worst with {j} or {x.n - 1 - j} of the {x.n - 1} "
            "others holding 1); not an upper bound, so not valid as a shuffle bound: give k for the exact eps "
            "of k-ary randomized response")
    return exact_result(worst, x.eps0, note, bounds="lower", valid=False)


def exact_truth(eps0: object, n: object, delta: object, *, k: object = None) -> BoundResult:
    """The exact eps of shuffled randomized response, or a certified lower bound where that is all there is.

    - k = 2: :func:`exact_shuffled_rr`, the worst case over the other users' bits (n <= MAX_EXACT_RR_N).
    - k >= 3: :func:`exact_shuffled_krr_worst`, the worst case over all datasets, where its enumeration
      is feasible (:func:`~dpcert.accountant.shuffle_exact.krr_worst_case_cost`); beyond that (within
      :data:`MAX_EXACT_KRR_N`) the largest eps over three canonical datasets, a lower bound.
    - k omitted (any eps0-LDP randomizer): binary randomized response's worst case, a lower bound on the
      worst case over all eps0-LDP randomizers.

    Exact results have ``bounds="exact"`` (the enclosure contains the true eps). Lower bounds have
    ``bounds="lower"`` and ``valid=False`` (they are certified, but not upper bounds, so no consumer of
    the shuffle bounds, calibration included, may use them). Beyond every limit: value None.
    """
    x = validate_shuffle_inputs(eps0, n, delta, k=k)
    if x.k is None or x.k == 2:
        if x.n > MAX_EXACT_RR_N:
            return invalid("exact", f"n = {x.n} > {MAX_EXACT_RR_N}: too large for the exact computation",
                           bounds="lower" if x.k is None else "exact")
        return _binary_lower_bound(x) if x.k is None else exact_shuffled_rr(x.eps0, x.n, x.delta)
    if krr_worst_case_cost(x.n, x.k) is not None:
        return exact_shuffled_krr_worst(x.eps0, x.k, x.n, x.delta)
    if _canonical_fits(x.n, x.k):
        return _canonical_lower_bound(x)
    return invalid("exact", f"n = {x.n}, k = {x.k}: too large for the exact k-RR computation ({exact_krr_limit_text(x.k)}"
                            f"; a lower bound from three datasets needs n <= {MAX_EXACT_KRR_N} and 3 n (n + 1)^(k - 1) "
                            f"<= {MAX_EXACT_KRR_WORK:.0e})", bounds="exact")


SAMPLING_MIN = sympy.Rational(1, 10**6)
"""The smallest sampling rate of ``optimal`` (below it the void report is nearly all the blanket)."""

MAX_OPTIMAL_N_IN_FAMILY = 10**6
"""Largest n at which a run of every method includes ``optimal`` (about 0.2 s there; by name it reaches
:data:`~dpcert.accountant.shuffle_optimal.MAX_OPTIMAL_N`, taking seconds)."""

MAX_LOWER_N_IN_FAMILY = 2000
"""Largest n at which a run of every method gives ``optimal`` its lower end (about a second there; by name it
reaches :data:`~dpcert.accountant.shuffle_optimal.MAX_LOWER_N`, taking seconds)."""


def _optimal(x: ShuffleInputs, *, every: bool, randomizer: str | None, sampling: sympy.Rational | None,
             lower_end: bool) -> BoundResult:
    """The ``optimal`` row, its lower end (``lower_end``) from the exact row (the exact eps, or a certified lower
    bound from three datasets) or fixed pairs of datasets where that is within reach."""
    if every and x.n > MAX_OPTIMAL_N_IN_FAMILY:
        return invalid("optimal", f"n = {x.n} > {MAX_OPTIMAL_N_IN_FAMILY} in a run of every method (it takes seconds): "
                                  "ask for --method optimal")
    lower_end = lower_end and (not every or x.n <= MAX_LOWER_N_IN_FAMILY)
    if randomizer is not None:
        return blanket_optimal(x.eps0, x.n, x.delta, None, randomizer=randomizer, sampling=sampling,
                               lower_end=lower_end)
    every_user = sampling in (None, 1)
    exact_lower = lower_end and x.n <= MAX_EXACT_RR_N and every_user
    lower = exact_truth(x.eps0, x.n, x.delta, k=x.k) if exact_lower else None
    clone = None
    if every_user and x.k in (None, 2):  # the same mean by clone sums: FMT 2021's for any randomizer, 2023's for RR
        clone = fmt21_numeric(x.eps0, x.n, x.delta) if x.k is None else fmt23_numeric(x.eps0, x.n, x.delta, k=2)
    return blanket_optimal(x.eps0, x.n, x.delta, x.k, sampling=sampling, lower=lower, clone=clone,
                           lower_end=lower_end)


def _within_eps0(row: BoundResult, cap: sympy.Expr, *, delta0: object = None) -> BoundResult:
    """``row``, or eps0 l1 when the row's certified upper end is larger.

    eps0 ||v||_1 always holds with delta = 0 (delta0 <= delta for (eps0, delta0)-LDP reports): the changed users'
    reports are eps0 ||v||_1-DP together (basic composition over the changed items; one item at distance 1 for the
    eps0-LDP bounds), and shuffling is post-processing (Dwork and Roth 2014, Proposition 2.1 and Theorem 3.16).
    """
    upper = row.certified_upper
    if upper is None or exact_sign(upper - cap) <= 0:
        return row
    return BoundResult(row.name, row.source, cap, row.units, True,
                       f"{row.note}; the theorem gives {decimal_string(upper, digits=8)} > eps0 ||v||_1 = {cap}, "
                       "which holds by post-processing " + ("(delta = 0)" if delta0 is None else
                                                            f"(delta = delta0 = {delta0} <= delta)"))


def shuffle_bound(method: str, eps0: object, n: object, delta: object, *, k: object = None, l0: object = 1,
                  l1: object = None, assume_stronger_clones: bool = False, randomizer: str | None = None,
                  delta0: object = None, sampling: object = None, lower_end: bool = True) -> BoundResult:
    """One named shuffle bound (see :data:`SHUFFLE_METHODS`; the arguments as for :func:`shuffle_family`)."""
    if method not in SHUFFLE_METHODS:
        raise InvalidParameterError(f"method must be one of {', '.join(SHUFFLE_METHODS)}. Got {method!r}")
    return shuffle_family(eps0, n, delta, method=method, k=k, l0=l0, l1=l1,
                          assume_stronger_clones=assume_stronger_clones, randomizer=randomizer, delta0=delta0,
                          sampling=sampling, lower_end=lower_end)[0]


def shuffle_family(eps0: object, n: object, delta: object, *, method: str | None = None, k: object = None,
                   l0: object = 1, l1: object = None, assume_stronger_clones: bool = False,
                   randomizer: str | None = None, delta0: object = None, sampling: object = None,
                   lower_end: bool = True) -> list[BoundResult]:
    """Every shuffle-amplification bound at (eps0, n, delta), in the order of :data:`SHUFFLE_METHODS`.

    Args:
        eps0: the local randomizers' eps0 > 0 (for ``imola-thm4.3`` the metric-DP alpha0).
        n: number of users, >= 2.
        delta: target delta in (0, 1).
        method: one result name, or None for all.
        k: the randomizer is k-ary randomized response (2 = binary); None for any eps0-LDP randomizer.
        l0, l1: ``imola-thm4.3`` with ||v||_0 = l0 changed items at total distance ||v||_1 = l1 (default
            l0). With l0 > 1 the other bounds (one changed user) are reported invalid.
        assume_stronger_clones: use FMT 2023 for a randomizer other than randomized response (recorded; a bool, or
            true/false as typed on a command line).
        randomizer: ``optimal`` for this finite randomizer (``NAME:param=value,...`` of the catalogue, eps0-LDP)
            instead of k-ary randomized response (or, with neither, any eps0-LDP randomizer); not with k.
        delta0: the randomizers are (eps0, delta0)-LDP, delta0 in (0, delta/n): ``fmt21-approx`` applies, the rows
            that assume pure eps0-LDP are reported invalid, ``no-amplification`` holds at delta0 <= delta.
        sampling: ``optimal`` with each user reporting with this probability (a rational in [10^-6, 1]).
        lower_end: ``optimal`` with its certified lower end where offered (False: the upper end alone; the lower
            end takes seconds near n = 10^4).

    Returns:
        One :class:`BoundResult` per method. A broken validity condition gives ``valid=False`` with the
        reason in ``note``; bad arguments raise :class:`InvalidParameterError` naming the parameter.
    """
    x = validate_shuffle_inputs(eps0, n, delta, k=k, l0=l0, l1=l1)
    assume_stronger_clones = require_bool("assume_stronger_clones", assume_stronger_clones)
    lower_end = require_bool("lower_end", lower_end)
    if method is not None and method not in SHUFFLE_METHODS:
        raise InvalidParameterError(f"method must be one of {', '.join(SHUFFLE_METHODS)}. Got {method!r}")
    if randomizer is not None:
        if x.k is not None:
            raise InvalidParameterError("randomizer: give either k or randomizer, not both")
        randomizer_variables(randomizer, x.eps0)  # bad input is reported whatever the methods asked for
    rate = None if sampling is None else require_real("sampling", sampling, low=SAMPLING_MIN, high=1)
    if rate is not None and not rate.is_Rational:
        raise InvalidParameterError(f"sampling must be a rational number in [10^-6, 1]. Got {sampling}")
    l0, l1 = x.l0, x.l1
    one_user = l0 == 1 and l1 == 1
    eps0, n, delta, k = x.eps0, x.n, x.delta, x.k

    if delta0 is not None:
        require_real("delta0", delta0, low=0, high=delta / n, low_open=True, high_open=True)

    def pure(name: str, compute) -> BoundResult:
        if delta0 is not None and name != "fmt21-approx":
            return invalid(name, f"needs pure eps0-LDP randomizers; with delta0 = {delta0} use fmt21-approx")
        return compute()

    def needs_one_user(name: str, compute) -> BoundResult:
        if not one_user:
            return invalid(name, f"bounds one changed user at distance 1 (l0 = l1 = 1); got l0 = {l0}, l1 = {l1}: "
                                 "use imola-thm4.3")
        return pure(name, compute)

    builders = {
        "efmrtt19": lambda: needs_one_user("efmrtt19", lambda: efmrtt19(eps0, n, delta)),
        "fmt21-closed": lambda: needs_one_user("fmt21-closed", lambda: fmt21_closed(eps0, n, delta)),
        "fmt21-numeric": lambda: needs_one_user("fmt21-numeric", lambda: fmt21_numeric(eps0, n, delta)),
        "fmt21-approx": lambda: needs_one_user("fmt21-approx", lambda: (
            fmt21_approx(eps0, n, delta, delta0=delta0) if delta0 is not None else
            invalid("fmt21-approx", "for (eps0, delta0)-LDP randomizers: give delta0"))),
        "fmt23-closed": lambda: needs_one_user("fmt23-closed", lambda: fmt23_closed(
            eps0, n, delta, k=k, assume_stronger_clones=assume_stronger_clones)),
        "fmt23-numeric": lambda: needs_one_user("fmt23-numeric", lambda: fmt23_numeric(
            eps0, n, delta, k=k, assume_stronger_clones=assume_stronger_clones)),
        "blanket-hoeffding": lambda: needs_one_user("blanket-hoeffding", lambda: blanket_hoeffding(eps0, n, delta, k=k)),
        "blanket-bennett": lambda: needs_one_user("blanket-bennett", lambda: blanket_bennett(eps0, n, delta, k=k)),
        "optimal": lambda: needs_one_user("optimal", lambda: _optimal(x, every=method is None, randomizer=randomizer,
                                                                      sampling=rate, lower_end=lower_end)),
        "imola-thm4.3": lambda: pure("imola-thm4.3", lambda: imola_theorem_4_3_at_delta(eps0, n, delta, l0=l0, l1=l1)),
        "exact": lambda: needs_one_user("exact", lambda: exact_truth(eps0, n, delta, k=k)),
        "no-amplification": lambda: BoundResult(
            "no-amplification", SOURCES["no-amplification"], eps0 * l1, "eps", True,
            "composition over the changed items: eps0 ||v||_1 with delta = 0" if not one_user
            else "eps0 with delta = 0" if delta0 is None else f"eps0 with delta = delta0 = {delta0} <= delta"),
    }
    names = SHUFFLE_METHODS if method is None else (method,)
    return [_within_eps0(builders[name](), eps0 * l1, delta0=delta0) for name in names]
