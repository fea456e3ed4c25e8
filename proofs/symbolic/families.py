"""check_family: prove or refute a family's privacy claim for every parameter value, with sympy symbols.

Holds the per-family provers (finite families from their likelihood-ratio cases, additive-noise
mechanisms from their privacy loss), the table of families and :func:`check_family`.

References: Dwork and Roth (2014), Theorem 3.6; Kairouz, Oh, Viswanath (NeurIPS 2014), Section 4;
Wang et al. (USENIX Security 2017), Section 4; Balle and Wang (ICML 2018), Theorem 8.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sympy

from dpcert.mechanisms.additive_noise import Gaussian, Laplace, LaplaceWrongScale
from dpcert.mechanisms.base import ContinuousMechanism
from dpcert.mechanisms.geometric import Geometric
from dpcert.mechanisms.parameters import InvalidParameterError, UndecidedSignError, exact_sign
from dpcert.mechanisms.randomized_response import KaryRandomizedResponse, RandomizedResponse
from dpcert.mechanisms.unary_encoding import UnaryEncoding
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.guarantees import PureDP
from dpcert.proofs.symbolic.check import check_symbolic
from dpcert.proofs.symbolic.closed_form_deltas import gaussian_delta
from dpcert.proofs.symbolic.constants import EPS, K, SENSITIVITY, SIGMA
from dpcert.proofs.symbolic.family_decision import FamilyResult, decide, symbolic_instance
from dpcert.proofs.symbolic.finite_families import Event, partitions, randomized_response_events, unary_encoding_events
from dpcert.proofs.symbolic.privacy_loss import analyse_loss, integrated_delta
from dpcert.proofs.symbolic.signs import Undecided, sign_or_none


def _symbolic_ratio(event: Event) -> sympy.Expr:
    return sympy.simplify(sympy.cancel(event.p / event.p_prime))


def _finite_family(name: str, statement: str, labelled_events: Sequence[tuple[str, Sequence[Event]]],
                   params: dict[str, sympy.Symbol]) -> FamilyResult:
    """Decide ratio <= e^eps for every case of every listed event set (e.g. each variant)."""
    excesses, parts = [], []
    for label, events in labelled_events:
        if not partitions(events, lambda total: sympy.simplify(total - 1) == 0):
            return FamilyResult(name, statement, Verdict.UNKNOWN,
                                f"{label}: sympy could not show that the likelihood-ratio cases sum to probability 1")
        ratios = [_symbolic_ratio(e) for e in events]
        excesses.extend(r - sympy.exp(EPS) for r in ratios)
        parts.append(f"{label}: " + ", ".join(f"{e.description} -> {r}" for e, r in zip(events, ratios)))
    derivation = ("likelihood-ratio cases (their probabilities sum to 1 under both inputs) " + "; ".join(parts)
                  + "; each must be <= exp(eps)")
    return decide(name, statement, excesses, params, derivation)


def _randomized_response_family() -> FamilyResult:
    mechanism = symbolic_instance(RandomizedResponse, eps=EPS)
    events = randomized_response_events(mechanism.truth_probability, mechanism.lie_probability, 2, others=False)
    return _finite_family("randomized-response", "RandomizedResponse(eps) is eps-DP (tight) for every eps > 0",
                          [("binary randomized response", events)], {"eps": EPS})


def _kary_family() -> FamilyResult:
    mechanism = symbolic_instance(KaryRandomizedResponse, k=K, eps=EPS)
    events = randomized_response_events(mechanism.truth_probability, mechanism.lie_probability, K, others=True)
    return _finite_family("k-rr", "KaryRandomizedResponse(k, eps) is eps-DP (tight) for every eps > 0 and "
                          "integer k >= 2", [("k-RR", events)], {"eps": EPS, "k": K})


def _unary_encoding_family() -> FamilyResult:
    labelled = []
    for variant in ("sue", "oue"):
        mechanism = symbolic_instance(UnaryEncoding, k=K, eps=EPS, variant=variant)
        labelled.append((variant, unary_encoding_events(*mechanism.bit_probabilities)))
    return _finite_family("unary-encoding", "UnaryEncoding(k, eps, variant) is eps-DP (tight) for both variants "
                          "(sue, oue), every eps > 0 and integer k >= 2", labelled, {"eps": EPS, "k": K})


def _geometric_family() -> FamilyResult:
    """Pointwise ratios P(y | x) / P(y | x + 1) of the clamped geometric pmf, for a symbolic range and x.

    The pmf (Ghosh, Roughgarden, Sundararajan 2009, Definition 2.1, clamped): interior
    (1 - a)/(1 + a) a^|y - x|, end points a^(x - lo)/(1 + a) and a^(hi - x)/(1 + a), a = e^-eps. Every
    output is lo, hi, an interior y <= x or an interior y >= x + 1; the reverse pair gives the inverses.
    """
    statement = ("Geometric(eps, lo, hi) is eps-DP (inputs one apart, tight) for every eps > 0 and integer "
                 "range lo < hi")
    a = sympy.exp(-EPS)
    x, lo, hi = sympy.symbols("x lo hi", integer=True)
    m = sympy.Symbol("m", integer=True, nonnegative=True)

    def interior(y, at):
        return (1 - a) / (1 + a) * a ** sympy.Abs(y - at)

    def at_lo(at):
        return a ** (at - lo) / (1 + a)

    def at_hi(at):
        return a ** (hi - at) / (1 + a)

    def formula(at, y):
        value = at_lo(at) if y == 0 else at_hi(at) if y == 3 else interior(y, at)
        return value.subs({lo: 0, hi: 3, EPS: 1})

    anchor = Geometric(eps=1, lo=0, hi=3)
    if any(exact_sign(formula(xv, yv) - p) != 0 for xv in anchor.inputs() for yv, p in anchor.pmf(xv).items()):
        return FamilyResult("geometric", statement, Verdict.UNKNOWN, "the pmf formula of the symbolic derivation "
                            "disagrees with Geometric.pmf at eps=1, range [0, 3]")
    cases = {
        "y = lo": at_lo(x) / at_lo(x + 1),
        "y = hi": at_hi(x) / at_hi(x + 1),
        "lo < y <= x (y = x - m)": interior(x - m, x) / interior(x - m, x + 1),
        "x + 1 <= y < hi (y = x + 1 + m)": interior(x + 1 + m, x) / interior(x + 1 + m, x + 1),
    }
    ratios = {d: sympy.simplify(r) for d, r in cases.items()}
    excesses = [r - sympy.exp(EPS) for r in ratios.values()] + [1 / r - sympy.exp(EPS) for r in ratios.values()]
    derivation = ("pointwise ratios for x -> x + 1 (pmf formula checked against Geometric.pmf at eps=1, "
                  "range [0, 3]): " + ", ".join(f"{d}: {r}" for d, r in ratios.items())
                  + "; the reverse pair gives their inverses; each must be <= exp(eps)")
    return decide("geometric", statement, excesses, {"eps": EPS}, derivation)


def _continuous_family(name: str, cls: type[ContinuousMechanism], statement: str, fields: dict[str, sympy.Symbol],
                       claim_eps: sympy.Expr) -> FamilyResult:
    mechanism = symbolic_instance(cls, **fields)
    try:
        analysis = analyse_loss(mechanism.density, SENSITIVITY)
    except Undecided as error:
        return FamilyResult(name, statement, Verdict.UNKNOWN, f"sympy could not decide: {error}")
    y = sympy.Symbol("y")
    loss = " ; ".join(f"{p.intercept + p.slope * y} on [{p.lower}, {p.upper}]" for p in analysis.pieces)
    derivation = (f"privacy loss at shift sensitivity: {loss}; supremum over y and |s| <= sensitivity: "
                  f"{analysis.supremum}")
    if analysis.supremum == sympy.oo:
        values = {n: sympy.Integer(1) for n in fields}
        concrete = check_symbolic(cls(**values), PureDP(1))
        return FamilyResult(name, statement, Verdict.REFUTED,
                            f"{derivation} (a limit of the linear loss as y -> -oo) for every parameter value; "
                            f"e.g. at {values}: {concrete.verdict.value}, {concrete.evidence}", values)
    result = decide(name, statement, [analysis.supremum - claim_eps], {"eps": EPS, **fields}, derivation)
    if result.verdict is not Verdict.REFUTED:
        return result
    values = result.counterexample
    concrete = check_symbolic(cls(**{n: values[n] for n in fields}), PureDP(values["eps"]))
    return FamilyResult(name, statement, result.verdict, f"{result.evidence}; check_symbolic at those values: "
                        f"{concrete.verdict.value}, {concrete.evidence}", values)


def _laplace_family() -> FamilyResult:
    return _continuous_family("laplace", Laplace, "Laplace(eps, sensitivity) is eps-DP (tight) for every eps > 0 "
                              "and sensitivity > 0", {"eps": EPS, "sensitivity": SENSITIVITY}, EPS)


def _laplace_wrong_scale_family() -> FamilyResult:
    return _continuous_family("laplace-wrong-scale", LaplaceWrongScale,
                              "LaplaceWrongScale(eps, sensitivity) is eps-DP for every eps > 0 and sensitivity > 0",
                              {"eps": EPS, "sensitivity": SENSITIVITY}, EPS)


def _gaussian_pure_family() -> FamilyResult:
    return _continuous_family("gaussian", Gaussian, "Gaussian(sigma, sensitivity) is eps-DP for some finite eps, "
                              "for any sigma > 0 and sensitivity > 0",
                              {"sigma": SIGMA, "sensitivity": SENSITIVITY}, EPS)


def _gaussian_approx_family() -> FamilyResult:
    """Derive the Balle-Wang delta(eps) from the density with sympy, for symbolic eps, sigma and sensitivity."""
    fields = {"sigma": SIGMA, "sensitivity": SENSITIVITY}
    statement = ("Gaussian(sigma, sensitivity) is (eps, delta(eps))-DP for every eps, sigma, sensitivity > 0, with "
                 "delta(eps) = Phi(sensitivity/(2 sigma) - eps sigma/sensitivity) - e^eps "
                 "Phi(-sensitivity/(2 sigma) - eps sigma/sensitivity), and for no smaller delta")
    mechanism = symbolic_instance(Gaussian, **fields)
    closed = gaussian_delta(EPS, SIGMA, SENSITIVITY)
    try:
        integrated = integrated_delta(mechanism, EPS, SENSITIVITY)
    except Undecided as error:
        return FamilyResult("gaussian", statement, Verdict.UNKNOWN, f"sympy could not decide: {error}")
    identity = sympy.simplify((integrated - closed).rewrite(sympy.erfc)) == 0
    growth = sympy.simplify(sympy.diff(closed, SENSITIVITY))
    if identity and sign_or_none(growth) == 1:
        return FamilyResult("gaussian", statement, Verdict.PROVED,
                            "symbolic identity (sympy, for symbolic eps, sigma, sensitivity): the hockey-stick "
                            "integral P(E | 0) - e^eps P(E | sensitivity) over E = {privacy loss >= eps} equals the "
                            f"Balle-Wang delta(eps) = {closed}; d delta / d sensitivity = {growth} > 0, so "
                            "neighbours at distance sensitivity are the worst (Balle and Wang, ICML 2018, Theorem 8)")
    return FamilyResult("gaussian", statement, Verdict.UNKNOWN,
                        f"sympy could not confirm the identity (simplified: {identity}) or the growth {growth} > 0")


_FAMILY_CHECKS: dict[str, dict[str, Callable[[], FamilyResult]]] = {
    "randomized-response": {"pure": _randomized_response_family},
    "k-rr": {"pure": _kary_family},
    "unary-encoding": {"pure": _unary_encoding_family},
    "geometric": {"pure": _geometric_family},
    "laplace": {"pure": _laplace_family},
    "laplace-wrong-scale": {"pure": _laplace_wrong_scale_family},
    "gaussian": {"pure": _gaussian_pure_family, "approx": _gaussian_approx_family},
}

FAMILIES: tuple[str, ...] = tuple(_FAMILY_CHECKS)
"""The families :func:`check_family` knows (the catalogue's mechanism names)."""


def check_family(name: str, guarantee_kind: str = "pure") -> FamilyResult:
    """Prove or refute a family's privacy claim for every parameter value, with sympy symbols.

    Claims ("pure" unless noted):

    - randomized-response, k-rr, unary-encoding (sue and oue): eps-DP for every eps > 0 (and integer
      k >= 2), tight: the largest likelihood-ratio case equals e^eps identically.
    - geometric: eps-DP for every eps > 0 and range, tight: pointwise ratios are e^(+-eps).
    - laplace: eps-DP for every eps, sensitivity > 0: sup of the privacy loss = sensitivity / b = eps.
    - laplace-wrong-scale: refuted; sup = sensitivity / eps, and solving sensitivity / eps - eps > 0
      gives a counterexample (eps = 1/2, sensitivity = 1: loss 2 > 1/2).
    - gaussian: "pure" refuted for every sigma, sensitivity (the loss is unbounded); "approx" proved with
      the exact Balle-Wang delta(eps), by a symbolic identity with the hockey-stick integral.

    Args:
        name: one of :data:`FAMILIES`.
        guarantee_kind: "pure", or "approx" (gaussian only).

    Returns:
        A :class:`FamilyResult`; UNKNOWN when sympy cannot decide (never an exception for that).

    Raises:
        InvalidParameterError: unknown family or guarantee kind.

    References: Dwork and Roth (2014), Theorem 3.6; Kairouz, Oh, Viswanath (NeurIPS 2014), Section 4;
    Wang et al. (USENIX Security 2017), Section 4; Balle and Wang (ICML 2018), Theorem 8.
    """
    if name not in _FAMILY_CHECKS:
        raise InvalidParameterError(f"name must be one of {', '.join(FAMILIES)}. Got {name!r}")
    kinds = _FAMILY_CHECKS[name]
    if guarantee_kind not in kinds:
        raise InvalidParameterError(
            f"guarantee_kind for {name} must be one of {', '.join(kinds)}. Got {guarantee_kind!r}")
    try:
        return kinds[guarantee_kind]()
    except (Undecided, UndecidedSignError, NotImplementedError) as error:
        return FamilyResult(name, f"{name} ({guarantee_kind})", Verdict.UNKNOWN, f"sympy could not decide: {error}")
