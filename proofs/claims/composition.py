"""Claims that pin the numerical composition (``dpcert compose``) to exact truth: its certified enclosure
[lower, upper] must contain the closed form of the k-fold Gaussian (Balle and Wang), of k-fold randomized
response (Kairouz, Oh, Viswanath) and the exact composition of a finite mechanism (rational arithmetic),
and eps(delta) must not rise as delta grows (where prv_accountant's did, its issue #17).

Every verdict is computed: REFUTED when an enclosure misses the truth (the evidence names the case and both
intervals), CONFIRMED when every stated case is enclosed.
"""

from __future__ import annotations

import sympy

from dpcert.accountant.composition import compose_channels, optimal_composition
from dpcert.accountant.gaussian_composition import gaussian_epsilon
from dpcert.accountant.pld_accountant import compose
from dpcert.accountant.rdp import subsampled_gaussian_rdp
from dpcert.mechanisms.catalog import make_mechanism
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, computed_claim

__all__ = ["CLAIMS"]

_C = Verdict.CONFIRMED
_Q = sympy.Rational
_BW = "Balle, Wang, \"Improving the Gaussian Mechanism for Differential Privacy\" (ICML 2018), Theorem 8"
_KOV = "Kairouz, Oh, Viswanath, \"The Composition Theorem for Differential Privacy\" (ICML 2015), Theorem 3.3"
_ZDW = "Zhu, Dong, Wang, \"Optimal Accounting of Differential Privacy via Characteristic Function\" (AISTATS 2022)"
_MTZ = "Mironov, Talwar, Zhang, \"Renyi Differential Privacy of the Sampled Gaussian Mechanism\" (2019)"

# (sigma, k, delta): sigma = 1, k = 10, delta = 1e-5 is 17.856586830, the value issue 13 states
_GAUSSIAN_CASES = ((1, 10, _Q(1, 10**5)), (2, 50, _Q(1, 10**6)), (_Q(1, 2), 3, _Q(1, 10**3)))
_RR_CASES = ((_Q(1, 2), 7, _Q(1, 10**4)), (1, 20, _Q(1, 10**6)))
_DP_SGD = "gaussian:sigma=4,q=3.3e-4*2000"
_DELTAS = ("1e-18", "1e-12", "1e-6")


def _enclosed(name: str, result, low: float, high: float) -> str | None:
    """None when [result.lower, result.upper] meets [low, high] (the truth), else the witness sentence."""
    if result.valid and result.lower <= high and low <= result.upper:
        return None
    return f"{name}: dpcert compose gives [{result.lower}, {result.upper}], the truth lies in [{low}, {high}]"


def _verdict(misses: list[str], cases: list[str]) -> tuple[Verdict, str]:
    if misses:
        return Verdict.REFUTED, "; ".join(misses)
    return _C, "enclosed: " + "; ".join(cases)


def _eps_cases(cases, spec, truth) -> tuple[Verdict, str]:
    """Each (parameter, k, delta) case: the enclosure of ``spec.format(parameter, k)`` against ``truth(...)``."""
    misses, shown = [], []
    for parameter, k, delta in cases:
        exact = truth(parameter, k, delta)
        result = compose([spec.format(parameter, k)]).epsilon(delta)
        name = spec.format(parameter, k) + f" at delta = {delta}"
        misses.append(_enclosed(name, result, exact.lower, exact.upper))
        shown.append(f"{name}: exact {exact.upper:.10g} in [{result.lower:.10g}, {result.upper:.10g}]")
    return _verdict([m for m in misses if m], shown)


def _gaussian() -> tuple[Verdict, str]:
    return _eps_cases(_GAUSSIAN_CASES, "gaussian:sigma={}*{}",
                      lambda sigma, k, delta: gaussian_epsilon(sympy.sqrt(k) / sigma, delta))


def _randomized_response() -> tuple[Verdict, str]:
    return _eps_cases(_RR_CASES, "randomized-response:eps={}*{}", optimal_composition)


def _finite() -> tuple[Verdict, str]:
    mechanism = make_mechanism("unary-encoding", {"k": "3", "eps": "1"})
    misses, cases = [], []
    for eps in (_Q(1, 2), _Q(2)):
        truth = float(compose_channels([mechanism] * 3, eps=eps).value.evalf(30))
        result = compose(["unary-encoding:k=3,eps=1*3"]).delta(eps)
        misses.append(_enclosed(f"3-fold unary encoding, delta at eps = {eps}", result, truth, truth))
        cases.append(f"3-fold unary encoding (k = 3, eps = 1), every ordered pair: exact delta({eps}) = {truth:.10g} "
                     f"in [{result.lower:.10g}, {result.upper:.10g}]")
    return _verdict([m for m in misses if m], cases)


def _monotone_in_delta() -> tuple[Verdict, str]:
    composition = compose([_DP_SGD])
    uppers = [composition.epsilon(d).upper for d in _DELTAS]
    rdp = subsampled_gaussian_rdp(4, _Q(33, 10**5)).repeat(2000)
    shown = ", ".join(f"eps({d}) <= {u:.6g}" for d, u in zip(_DELTAS, uppers))
    if any(a < b for a, b in zip(uppers, uppers[1:])):
        return Verdict.REFUTED, f"{_DP_SGD}: the certified eps rises with delta: {shown}"
    above = [d for d, u in zip(_DELTAS, uppers) if u > rdp.epsilon(d).upper]
    if above:
        return Verdict.REFUTED, f"{_DP_SGD}: the PLD bound exceeds the RDP bound at delta = {', '.join(above)}"
    return _C, f"{_DP_SGD}: {shown}; each at most the RDP bound ({_MTZ}; Canonne, Kamath, Steinke 2020)"


CLAIMS: tuple[Claim, ...] = (
    computed_claim("pld-encloses-k-fold-gaussian", _BW,
                   "the certified enclosure of k composed Gaussians contains Balle and Wang's exact eps(delta) of one "
                   "Gaussian of mu = sqrt(k)/sigma (at the stated sigma, k, delta)", _C, _gaussian),
    computed_claim("pld-encloses-k-fold-rr", _KOV,
                   "the certified enclosure of k-fold randomized response contains the optimal (KOV) eps(delta)",
                   _C, _randomized_response),
    computed_claim("pld-encloses-finite-composition", "exact composition of finite channels (rational arithmetic)",
                   "the certified enclosure of delta(eps) of a composed finite mechanism contains its exact value",
                   _C, _finite),
    computed_claim("pld-dp-sgd-monotone-in-delta", f"{_ZDW}; prv_accountant issue #17",
                   "for Poisson-subsampled Gaussian steps (sigma = 4, q = 3.3e-4, 2000 steps) the certified eps(delta) "
                   "does not rise as delta grows from 1e-18 to 1e-6, and never exceeds the RDP bound", _C,
                   _monotone_in_delta),
)
