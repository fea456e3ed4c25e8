"""Symbolic checker: decide privacy claims in closed form, for one instance or for every parameter value.

Two entry points:

- :func:`check_symbolic` decides a claim about one concrete mechanism from closed forms instead of
  enumeration, so it also works where enumeration cannot (unary encoding with k = 10^6 has 2^k outputs).
  Finite families are decided from their list of likelihood-ratio *cases* (events on which the ratio
  P(y | x) / P(y | x') is constant); additive-noise mechanisms from their privacy-loss function
  L(y) = log(p(y | 0) / p(y | s)), which sympy splits into pieces on which it is linear in y.
- :func:`check_family` proves or refutes a claim for every parameter value with sympy symbols
  (eps > 0, integer k >= 2, sensitivity > 0, sigma > 0), and gives a counterexample parameter for a
  refuted claim.

Sign decisions over all parameter values use sympy's assumptions, after writing e^(eps/2) = 1 + u and
k = 2 + j with u > 0 and integer j >= 0, so that a ratio becomes a rational function of u and j whose
sign sympy can read off. Whatever sympy cannot decide gives an UNKNOWN verdict, never an exception.

Modules: ``check`` (:func:`check_symbolic`), ``finite_families`` (likelihood-ratio cases),
``privacy_loss`` and ``additive_noise`` (the privacy loss of additive-noise mechanisms and their check),
``closed_form_deltas`` (:func:`gaussian_delta`, :func:`laplace_delta`), ``families`` (:func:`check_family`
and the per-family provers), ``family_decision`` (:class:`FamilyResult` and the decision for every
parameter value), ``signs`` (sign decisions) and ``constants`` (the family symbols).

References: Dwork and Roth, "The algorithmic foundations of differential privacy" (2014), Definition 2.4
and Theorem 3.6; Balle and Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018),
Theorem 8.
"""

from __future__ import annotations

from dpcert.proofs.symbolic.check import check_symbolic, tightest_symbolic
from dpcert.proofs.symbolic.closed_form_deltas import gaussian_delta, laplace_delta
from dpcert.proofs.symbolic.families import FAMILIES, check_family
from dpcert.proofs.symbolic.family_decision import FamilyResult

__all__ = ["FAMILIES", "FamilyResult", "check_family", "check_symbolic", "gaussian_delta", "laplace_delta",
           "tightest_symbolic"]
