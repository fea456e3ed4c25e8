"""Additive-noise mechanisms (Laplace, LaplaceWrongScale, Gaussian) decided from their privacy loss.

Holds the check of one concrete mechanism, its witness event {y <= c}, and the replays of its
certificates.

References: Dwork and Roth (2014), Theorem 3.6; Balle and Wang (ICML 2018), Theorem 8.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

from dpcert.mechanisms.additive_noise import Gaussian, Laplace, LaplaceWrongScale
from dpcert.mechanisms.base import ContinuousMechanism
from dpcert.mechanisms.neighbours import WithinDistance
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Certificate, Verdict, Witness, approximately
from dpcert.proofs.guarantees import ApproxDP, PureDP
from dpcert.proofs.symbolic.closed_form_deltas import gaussian_delta, laplace_delta
from dpcert.proofs.symbolic.constants import METHOD
from dpcert.proofs.symbolic.privacy_loss import (
    LossAnalysis,
    analyse_loss,
    integrated_delta,
    level_point,
    probability_at_most,
)
from dpcert.proofs.symbolic.signs import Undecided


def _continuous_delta(mechanism: ContinuousMechanism, eps: sympy.Expr, sensitivity: sympy.Expr) -> sympy.Expr:
    """The closed-form delta(eps) of the additive-noise mechanisms the checker knows."""
    if type(mechanism) is Gaussian:
        return gaussian_delta(eps, mechanism.sigma, sensitivity)
    if type(mechanism) in (Laplace, LaplaceWrongScale):
        return laplace_delta(eps, mechanism.scale, sensitivity)
    raise Undecided(f"no closed-form delta(eps) for {mechanism.name}")


def check_continuous(mechanism: ContinuousMechanism, guarantee: PureDP | ApproxDP) -> Certificate:
    relation = mechanism.neighbours
    if not isinstance(relation, WithinDistance):
        raise Undecided(f"the symbolic checker needs neighbours |x - x'| <= sensitivity; got {relation.description}")
    sensitivity = relation.radius
    eps = guarantee.eps
    analysis = analyse_loss(mechanism.density, sensitivity)
    if isinstance(guarantee, ApproxDP):
        delta = _continuous_delta(mechanism, eps, sensitivity)
        shown = f"delta({eps}) = {delta} ({approximately(delta)})"
        if exact_sign(delta - guarantee.delta) <= 0:
            return Certificate(mechanism, guarantee, Verdict.PROVED, METHOD,
                               f"{shown} <= {guarantee.delta} (worst neighbours |x - x'| = {sensitivity})",
                               delta=delta, replay=_replay_continuous_delta)
        witness, c = _continuous_witness(mechanism, analysis, eps, sensitivity)
        return Certificate(mechanism, guarantee, Verdict.REFUTED, METHOD,
                           f"{shown} > delta = {guarantee.delta}, attained by the event y <= {c}",
                           delta=delta, witness=witness, replay=_replay_continuous_witness(c))
    supremum = analysis.supremum
    shown = (f"at shift 0 < s <= {sensitivity} the supremum over y of the privacy loss is {analysis.at_shift}, "
             f"so over all neighbours it is {supremum}")
    if supremum != sympy.oo and exact_sign(supremum - eps) <= 0:
        return Certificate(mechanism, guarantee, Verdict.PROVED, METHOD,
                           f"{shown} ({approximately(supremum)}) <= {eps}", epsilon=supremum,
                           replay=_replay_continuous_bound)
    witness, c = _continuous_witness(mechanism, analysis, eps if supremum == sympy.oo else supremum, sensitivity)
    if exact_sign(witness.p - sympy.exp(eps) * witness.p_prime) <= 0:
        raise Undecided(f"the event y <= {c} does not separate the outputs as the privacy loss says")
    return Certificate(mechanism, guarantee, Verdict.REFUTED, METHOD, f"{shown} > {eps}", epsilon=supremum,
                       witness=witness, replay=_replay_continuous_witness(c))


def _continuous_witness(mechanism: ContinuousMechanism, analysis: LossAnalysis, level: sympy.Expr,
                        sensitivity: sympy.Expr) -> tuple[Witness, sympy.Expr]:
    """The event {y <= c} = {L >= level} for x = 0, x' = sensitivity, with its exact probabilities."""
    c = level_point(analysis.pieces, level)
    if c is None:
        raise Undecided(f"the privacy loss never reaches {level}")
    zero = sympy.Integer(0)
    p = probability_at_most(mechanism.density, zero, c)
    p_prime = probability_at_most(mechanism.density, sensitivity, c)
    return Witness(zero, sensitivity, f"y <= {c}", p, p_prime), c


def _replay_continuous_bound(certificate: Certificate) -> bool:
    """Re-derive the supremum of the privacy loss from the density; it equals epsilon, which is <= eps."""
    mechanism = certificate.mechanism
    supremum = analyse_loss(mechanism.density, mechanism.neighbours.radius).supremum
    return (supremum != sympy.oo and exact_sign(supremum - certificate.epsilon) == 0
            and exact_sign(supremum - certificate.guarantee.eps) <= 0)


def _replay_continuous_delta(certificate: Certificate) -> bool:
    """Integrate the density over {L >= eps}: the hockey-stick value equals the certified delta <= claimed."""
    mechanism = certificate.mechanism
    integrated = integrated_delta(mechanism, certificate.guarantee.eps, mechanism.neighbours.radius)
    return (exact_sign(integrated - certificate.delta) == 0
            and exact_sign(integrated - certificate.guarantee.delta) <= 0)


def _replay_continuous_witness(c: sympy.Expr) -> Callable[[Certificate], bool]:
    """Integrate the density over {y <= c} for both inputs; confirm the probabilities and the violation."""

    def replay(certificate: Certificate) -> bool:
        mechanism, w, g = certificate.mechanism, certificate.witness, certificate.guarantee
        if w.output != f"y <= {c}" or exact_sign(abs(w.x - w.x_prime) - mechanism.neighbours.radius) > 0:
            return False
        p = probability_at_most(mechanism.density, w.x, c)
        q = probability_at_most(mechanism.density, w.x_prime, c)
        slack = g.delta if isinstance(g, ApproxDP) else 0
        return (exact_sign(p - w.p) == 0 and exact_sign(q - w.p_prime) == 0
                and exact_sign(p - sympy.exp(g.eps) * q - slack) > 0)

    return replay
