"""Claims about the auditing literature's standard mechanisms (mechanisms/zoo), decided by the statistical audit.

A statistical audit can refute a claim, never prove one: a mechanism whose audit finds no violation is
reported UNKNOWN with the lower bound it reached. Every audit runs at confidence 1 - 1e-6 with a fixed
seed, so the report is reproducible and a correct mechanism is flagged with probability <= 1e-6.

References: Lyu, Su, Li, "Understanding the Sparse Vector Technique for Differential Privacy" (VLDB 2017),
Algorithms 1-6; Ding, Wang, Wang, Zhang, Kifer, "Detecting Violations of Differential Privacy" (CCS 2018),
Section 6 (noisy max returning the value, histogram with the wrong scale); Bichsel, Steffen, Bogunovic, Vechev,
"DP-Sniper" (S&P 2021), whose mechanisms (github.com/eth-sri/dp-sniper, dpsniper/mechanisms/) the zoo also holds.
"""

from __future__ import annotations

from dpcert.mechanisms.catalog import make_mechanism
from dpcert.proofs.audit import audit
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, computed_claim

__all__ = ["CLAIMS"]

_CONFIDENCE = 1 - 1e-6
_LYU = "Lyu, Su, Li (VLDB 2017), Algorithm {}"
_DING = "Ding et al. (CCS 2018), Section 6"
_MIRONOV = "Mironov, \"On significance of the least significant bits for differential privacy\" (CCS 2012)"
_DING_ALGORITHM = "Ding et al. (CCS 2018), Algorithm {}; DP-Sniper's ReportNoisyMax{}"
_SNIPER = "Bichsel, Steffen, Bogunovic, Vechev, \"DP-Sniper\" (S&P 2021): {}"
_RAPPOR = "Erlingsson, Pihur, Korolova, \"RAPPOR\" (CCS 2014), Theorem 1; " + _SNIPER
_SHADOW = ("Wang, Ding, Wang, Kifer, Zhang, \"Proving differential privacy with shadow execution\" (PLDI 2019); "
           + _SNIPER)
_GEOSAMPLE = "Balcer, Vadhan, \"Differential privacy on finite computers\" (ITCS 2018), Algorithm 4.8; " + _SNIPER


_SEED = 2017


def _audited(name: str, eps: str, samples: int, floating_point: bool):
    """decide(): refuted with the audit's witness when the lower bound exceeds eps, else unknown."""

    def decide() -> tuple[Verdict, str]:
        mechanism = make_mechanism(name, raw={"eps": eps})
        result = audit(mechanism, eps=eps, samples=samples, confidence=_CONFIDENCE, seed=_SEED,
                       floating_point=floating_point)
        bound = (f"eps lower bound {result.epsilon_lower_bound:.4g} at confidence 1 - 1e-6 ({samples} samples per "
                 f"input, seed {_SEED}" + (", floating-point events" if floating_point else "") + ")")
        if result.verdict == "violation":
            w = result.witness
            return Verdict.REFUTED, (f"witness x = {w.x}, x' = {w.x_prime}, event {w.event}: {w.bounds_text(4)}; "
                                     f"{bound} > claimed {eps}")
        return Verdict.UNKNOWN, f"no violation found: {bound} <= claimed {eps} (an audit cannot prove privacy)"

    return decide


def _claim(name: str, source: str, eps: str, samples: int, expected: Verdict, note: str, *,
           floating_point: bool = False) -> Claim:
    return computed_claim(f"zoo-{name}", source, f"{name} at eps = {eps} is eps-DP ({note})", expected,
                          _audited(name, eps, samples, floating_point), method="statistical")


_R, _U = Verdict.REFUTED, Verdict.UNKNOWN

CLAIMS: tuple[Claim, ...] = (
    _claim("svt1", _LYU.format(1), "1/10", 200_000, _U, "private"),
    _claim("svt2", _LYU.format(2), "1/10", 200_000, _U, "private; with c = 1 the same algorithm as svt1"),
    _claim("svt3", _LYU.format(3), "1", 100_000, _R, "not private: releases the noisy answer"),
    _claim("svt4", _LYU.format(4), "1", 400_000, _R, "only (1 + 6c) eps / 4-private: 7/4 at c = 1"),
    _claim("svt5", _LYU.format(5), "1/10", 10_000, _R, "not private: no threshold noise"),
    _claim("svt6", _LYU.format(6), "1/10", 2_000_000, _R, "not private: answers every query"),
    _claim("noisy-max", _DING_ALGORITHM.format(5, 1), "1/10", 200_000, _U,
           "private: returns the index; also named report-noisy-max1"),
    _claim("noisy-max-value", _DING_ALGORITHM.format(7, 3), "1/10", 1_000_000, _R,
           "not private: returns the noisy value; also named report-noisy-max3"),
    _claim("report-noisy-max2", _DING_ALGORITHM.format(6, 2), "1/10", 200_000, _U,
           "private: the index under exponential noise"),
    _claim("report-noisy-max4", _DING_ALGORITHM.format(8, 4), "1/10", 1_000_000, _R,
           "not private: the value under exponential noise"),
    _claim("histogram", _DING, "1/10", 100_000, _U, "private: Laplace scale 1/eps"),
    _claim("histogram-wrong-scale", _DING, "1/10", 10_000, _R, "not private: Laplace scale eps"),
    _claim("laplace-exact", _MIRONOV, "1/10", 200_000, _U, "private: discrete Laplace on a grid, in floating point too",
           floating_point=True),
    _claim("laplace-parallel", _SNIPER.format("LaplaceParallel"), "1/10", 100_000, _R,
           "not private: 20 releases, 20 eps-DP"),
    _claim("rappor", _RAPPOR.format("Rappor"), "8*log(5/3)", 100_000, _U,
           "private: the permanent response is eps-DP, the instantaneous one post-processing"),
    _claim("one-time-rappor", _RAPPOR.format("OneTimeRappor"), "8*log(21/19)", 100_000, _U,
           "private: the permanent response of filters differing in at most 8 bits"),
    _claim("numerical-svt", _SHADOW.format("NumericalSVT"), "1/10", 30_000, _U,
           "private: eps/3 for the threshold, eps/3 for the query noise, eps/3 for the c released answers"),
    _claim("svt34-parallel", "Lyu, Su, Li (VLDB 2017), Algorithms 3 and 4; " + _SNIPER.format("SVT34Parallel"), "2",
           20_000, _R, "not private: releases Algorithm 3's noisy answers, and Algorithm 4's half alone is 13/4 "
           "eps-DP at c = 2; eps = 2 is caught with 2 * 10^4 samples per input, DP-Sniper's 1/10 takes 10^6 here"),
    _claim("prefix-sum", _SHADOW.format("PrefixSum"), "1/10", 60_000, _R,
           "not private when every answer moves by 1: m eps-DP, 1 at m = 10"),
    _claim("truncated-geometric", _GEOSAMPLE.format("TruncatedGeometricMechanism"), "1/10", 3_000_000, _R,
           "not private: k = ceil(ln 20) = 3 makes it ln(9/8) = 0.118-DP"),
    _claim("laplace-float", _MIRONOV, "1/10", 20_000, _R,
           "not private in floating point: the doubles x + noise reaches differ between inputs; the audit's "
           "floating-point events see them", floating_point=True),
)
