"""check_symbolic: decide a claim about one concrete mechanism from closed forms, without enumeration."""

from __future__ import annotations

import sympy

from dpcert.mechanisms.base import ContinuousMechanism, Mechanism
from dpcert.mechanisms.neighbours import Metric
from dpcert.mechanisms.parameters import InvalidParameterError, UndecidedSignError, exact_sign
from dpcert.proofs.certificate import Certificate, Verdict
from dpcert.proofs.guarantees import ApproxDP, Guarantee, MetricDP, PureDP
from dpcert.proofs.symbolic.additive_noise import check_continuous
from dpcert.proofs.symbolic.constants import METHOD
from dpcert.proofs.symbolic.finite_families import check_events, finite_events
from dpcert.proofs.symbolic.signs import Undecided

__all__ = ["check_symbolic", "tightest_symbolic"]


def _unknown(mechanism: Mechanism, guarantee: Guarantee, why: str) -> Certificate:
    return Certificate(mechanism, guarantee, Verdict.UNKNOWN, METHOD, why)


def check_symbolic(mechanism: Mechanism, guarantee: Guarantee) -> Certificate:
    """Decide ``guarantee`` for ``mechanism`` from closed forms, without enumerating outputs.

    Finite families (RandomizedResponse, KaryRandomizedResponse, UnaryEncoding of any k, clamped
    Geometric) are decided from their likelihood-ratio cases: events partitioning the outputs on which
    P(y | x) / P(y | x') is constant, for one neighbouring pair that every other pair maps onto by a
    symmetry of the mechanism (each case list's docstring says why it is complete; the check also
    confirms that the cases' probabilities sum to 1). eps-DP holds iff every case ratio is <= e^eps; the
    tightest eps is the log of the largest; delta(eps) is sum over cases of max(P(E | x) - e^eps P(E | x'), 0).

    Additive-noise mechanisms (Laplace, LaplaceWrongScale, Gaussian) are decided from the privacy loss
    L(y) = log(p(y | 0) / p(y | s)): eps-DP holds iff sup over y and |s| <= sensitivity of L is <= eps
    (Laplace: sensitivity / b; Gaussian: oo). (eps, delta) uses the exact delta(eps)
    (:func:`gaussian_delta`, :func:`laplace_delta`). A refutation's witness is the event {y <= c} with
    x = 0, x' = sensitivity, where the loss is at least the claimed eps (or the supremum), with its
    exact probabilities.

    Args:
        mechanism: a concrete mechanism.
        guarantee: PureDP or ApproxDP.

    Returns:
        A certificate with method "symbolic": PROVED or REFUTED with a ``replay`` that re-verifies it
        without searching, or UNKNOWN (with the reason) for other mechanisms or undecided steps.

    Raises:
        InvalidParameterError: ``mechanism`` or ``guarantee`` is not one, or MetricDP is asked of a
            mechanism without a metric neighbour relation.

    References: Dwork and Roth (2014), Definition 2.4 and Theorem 3.6; Balle and Wang (ICML 2018), Theorem 8.
    """
    if not isinstance(mechanism, Mechanism):
        raise InvalidParameterError(f"mechanism must be a Mechanism. Got {type(mechanism).__name__}")
    if not isinstance(guarantee, (PureDP, ApproxDP, MetricDP)):
        raise InvalidParameterError(f"guarantee must be PureDP, ApproxDP or MetricDP. Got {type(guarantee).__name__}")
    if isinstance(guarantee, MetricDP):
        if not isinstance(mechanism.neighbours, Metric):
            raise InvalidParameterError(
                f"metric DP needs a metric neighbour relation; {mechanism.name} compares "
                f"{mechanism.neighbours.description}")
        return _unknown(mechanism, guarantee, "the symbolic checker does not decide metric DP")
    try:
        if isinstance(mechanism, ContinuousMechanism):
            return check_continuous(mechanism, guarantee)
        events = finite_events(mechanism)
        if events is None:
            return _unknown(mechanism, guarantee, f"no closed-form likelihood-ratio cases for {mechanism.name}; "
                                                  "use dpcert.proofs.exact.check_finite")
        return check_events(mechanism, guarantee, events)
    except (Undecided, UndecidedSignError, NotImplementedError) as error:
        return _unknown(mechanism, guarantee, f"sympy could not decide: {error}")


def tightest_symbolic(mechanism: Mechanism) -> Certificate:
    """The tightest pure eps of ``mechanism`` from closed forms, as a certificate that rechecks it.

    A first check at eps = 1 finds the exact tightest eps (its ``epsilon``); when that is finite the claim
    is decided again at exactly that eps, giving a PROVED certificate whose ``recheck()`` confirms every
    likelihood-ratio case (or the privacy loss's supremum) is at most e^eps and one reaches it. An
    unbounded loss (the Gaussian) gives the refutation with its witness; an undecided step, UNKNOWN.
    """
    first = check_symbolic(mechanism, PureDP(1))
    eps = first.epsilon
    if first.verdict is Verdict.UNKNOWN or eps is None or eps == sympy.oo:
        return first
    try:
        if exact_sign(eps) <= 0:
            return first
    except UndecidedSignError:
        return first
    return check_symbolic(mechanism, PureDP(eps))
