"""The Rényi-DP curve of a composition given as ``dpcert compose`` SPECs: the RDP cross-check of the numerical
accountant, for users who think in RDP.

Each SPEC (already validated by :mod:`dpcert.accountant.pld_spec`) maps to a curve of
:mod:`dpcert.accountant.rdp` and is repeated ``count`` times; the curves add. Offered:

- ``gaussian`` (sigma, sensitivity), and with ``q`` under add/remove neighbours the Poisson-subsampled
  Gaussian (Mironov, Talwar, Zhang 2019; integer orders only);
- ``laplace`` (b or eps, sensitivity), ``randomized-response`` (eps) and ``k-rr`` (k, eps);
- a finite mechanism of the catalogue without ``q`` (the worst ordered pair of its inputs, which bounds any
  ``pair=i/j``).

Not offered (the reason is returned): the discrete Laplace and Gaussian, ``approximate-dp`` and ``shuffle`` (an
(eps, delta) mechanism has no finite RDP), ``q`` on anything but the Gaussian, and ``q`` under substitution neighbours.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from dpcert.accountant.spec_syntax import parse_spec
from dpcert.accountant.rdp import (
    RdpCurve,
    finite_rdp,
    gaussian_rdp,
    laplace_rdp,
    randomized_response_rdp,
    subsampled_gaussian_rdp,
)
from dpcert.mechanisms.base import FiniteMechanism
from dpcert.mechanisms.catalog import CATALOG, make_mechanism
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["rdp_curve"]


def rdp_curve(specs: Sequence[str], *, neighbours: str = "add-remove") -> tuple[RdpCurve | None, str]:
    """(the composed RDP curve, "") or (None, why no RDP curve is offered for these SPECs)."""
    total = None
    for text in specs:
        name, raw, count = parse_spec(text)
        try:
            curve = _one(name, dict(raw), neighbours)
        except InvalidParameterError as error:  # a channel too large for the exact divergences
            return None, f"{text}: {error}"
        if isinstance(curve, str):
            return None, f"{text}: {curve}"
        curve = curve.repeat(count)
        total = curve if total is None else total.compose(curve)
    return total, ""


def _one(name: str, raw: dict[str, str], neighbours: str) -> RdpCurve | str:
    """One application's curve, or the reason there is none."""
    q = raw.pop("q", None)
    sensitivity = raw.pop("sensitivity", "1")
    if q is not None and sympy.sympify(q) != 1:
        if name != "gaussian":
            return "RDP is offered for a subsampled Gaussian only"
        if neighbours != "add-remove":
            return "the subsampled Gaussian's RDP is for Poisson sampling under add-remove neighbours"
        return subsampled_gaussian_rdp(raw["sigma"], q, sensitivity=sensitivity)
    if name == "gaussian":
        return gaussian_rdp(raw["sigma"], sensitivity=sensitivity)
    if name == "laplace":
        b = raw["b"] if "b" in raw else sympy.sympify(sensitivity) / sympy.sympify(raw["eps"])
        return laplace_rdp(b, sensitivity=sensitivity)
    if name in ("randomized-response", "k-rr"):
        return randomized_response_rdp(raw["eps"], k=raw.get("k", 2))
    if name in CATALOG:
        raw.pop("pair", None)
        mechanism = make_mechanism(name, raw)
        if isinstance(mechanism, FiniteMechanism):
            return finite_rdp(mechanism.pmf_rows())
    return f"no RDP curve is offered for {name}"
