"""Claims about the standard mechanisms: randomized response, k-RR, unary encoding, geometric,
exponential, Laplace, Gaussian, and the negative controls."""

from __future__ import annotations

from dpcert.mechanisms.neighbours import Metric
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, family_claim, mechanism_claim
from dpcert.proofs.guarantees import ApproxDP, MetricDP, PureDP

__all__ = ["CLAIMS"]

_PROP4 = "000_0c6e7fdc3fd68303.txt, Proposition 4"
_WARNER = "Warner 1965; Kairouz, Oh, Viswanath 2014, Section 4"
_UE = "Wang, Blocki, Li, Jha 2017 (USENIX Security), Section 4"
_GEOMETRIC = "Ghosh, Roughgarden, Sundararajan 2009, Definition 2.1"
_EXPONENTIAL = "McSherry, Talwar 2007 (FOCS), Theorem 6"
_LAPLACE = "Dwork, McSherry, Nissim, Smith 2006 (TCC), Proposition 1"
_GAUSSIAN = "Balle, Wang 2018 (ICML), Theorem 8"
_CONTROL = "dpcert negative control"
_METRIC = "Chatzikokolakis et al. 2013 (PETS), Definition 1"

_P, _R = Verdict.PROVED, Verdict.REFUTED


CLAIMS: tuple[Claim, ...] = (
    mechanism_claim("prop4-bit-release", _PROP4, "randomized-response", {"eps": 1}, PureDP(1), _P),
    mechanism_claim("prop4-bit-release-tight", _PROP4, "randomized-response", {"eps": "log(3)"},
                    PureDP("log(3) - 1/1000"), _R, note="the bound e^eps is attained, so no smaller eps holds"),
    family_claim("prop4-bit-release-all-eps", _PROP4, "randomized-response", "pure", _P),
    mechanism_claim("k-rr", _WARNER, "k-rr", {"k": 5, "eps": "log(2)"}, PureDP("log(2)"), _P),
    family_claim("k-rr-all-parameters", _WARNER, "k-rr", "pure", _P),
    mechanism_claim("unary-encoding-sue", _UE, "unary-encoding", {"k": 4, "eps": 1, "variant": "sue"},
                    PureDP(1), _P),
    mechanism_claim("unary-encoding-oue", _UE, "unary-encoding", {"k": 4, "eps": 1, "variant": "oue"},
                    PureDP(1), _P),
    family_claim("unary-encoding-all-parameters", _UE, "unary-encoding", "pure", _P),
    mechanism_claim("geometric-clamped", _GEOMETRIC, "geometric", {"eps": "1/2", "lo": 0, "hi": 8},
                    PureDP("1/2"), _P),
    mechanism_claim("geometric-metric", _METRIC, "geometric", {"eps": "1/2", "lo": 0, "hi": 8},
                    MetricDP("1/2"), _P, relation=Metric(lambda a, b: abs(a - b), "d(x, x') = |x - x'|")),
    family_claim("geometric-all-parameters", _GEOMETRIC, "geometric", "pure", _P),
    mechanism_claim("geometric-renormalized", _CONTROL, "geometric-renormalized",
                    {"eps": "1/2", "lo": 0, "hi": 8}, PureDP("1/2"), _R,
                    note="renormalising the truncated noise breaks the ratio bound"),
    mechanism_claim("exponential", _EXPONENTIAL, "exponential",
                    {"eps": 1, "sensitivity": 1, "utilities": ((0, 1, 2), (1, 0, 2), (1, 1, 3))}, PureDP(1), _P),
    mechanism_claim("exponential-understated-sensitivity", _CONTROL, "exponential",
                    {"eps": 1, "sensitivity": 1, "utilities": ((0, 0), (3, 0))}, PureDP(1), _R,
                    note="utilities change by 3 between neighbours but sensitivity says 1"),
    mechanism_claim("laplace", _LAPLACE, "laplace", {"eps": 1, "sensitivity": 1}, PureDP(1), _P),
    family_claim("laplace-all-parameters", _LAPLACE, "laplace", "pure", _P),
    mechanism_claim("laplace-wrong-scale", _CONTROL, "laplace-wrong-scale", {"eps": "1/2", "sensitivity": 1},
                    PureDP("1/2"), _R, note="scale eps instead of sensitivity/eps"),
    family_claim("laplace-wrong-scale-all-parameters", _CONTROL, "laplace-wrong-scale", "pure", _R),
    mechanism_claim("gaussian-not-pure", _GAUSSIAN, "gaussian", {"sigma": 2, "sensitivity": 1}, PureDP(5), _R,
                    note="the privacy loss is unbounded"),
    family_claim("gaussian-never-pure", _GAUSSIAN, "gaussian", "pure", _R),
    mechanism_claim("gaussian-approx", _GAUSSIAN, "gaussian", {"sigma": 2, "sensitivity": 1},
                    ApproxDP(1, "1/50"), _P),
    family_claim("gaussian-balle-wang", _GAUSSIAN, "gaussian", "approx", _P),
)
