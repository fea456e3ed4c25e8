"""Every bound family of ``dpcert bound NAME`` and ``dpcert calibrate NAME``, with its parameters: one table.

A new family is a function returning a list of :class:`~dpcert.accountant.bound_result.BoundResult` (in its
paper's package, or beside the core bound it evaluates) and one row here.
"""

from __future__ import annotations

import sympy

from dpcert.accountant.bound_family import REQUIRED, BoundFamily, ParameterSpec, specs
from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.calibration import CALIBRATION_PARAMETERS, calibration_family
from dpcert.accountant.composition import COMPOSITION_PARAMETERS, composition_family
from dpcert.accountant.metric_user_level import emd_discrete_family, group_privacy_family
from dpcert.accountant.online_recommendation import online_recommendation_family
from dpcert.accountant.price_of_privacy import fano_family, ldp_mutual_information_family, maxsense_user_threshold
from dpcert.accountant.privact import privact_family
from dpcert.accountant.shuffle import SHUFFLE_PARAMETERS, shuffle_family

__all__ = ["BOUND_FAMILIES", "CALIBRATIONS"]


def _maxsense_users(N: object, w: object, eps: object, delta_min: object, theta: object = 1,
                    d: object = 1) -> list[BoundResult]:
    return [maxsense_user_threshold(N, w, eps, theta=theta, delta_min=delta_min, d=d, paper_constant=paper)
            for paper in (False, True)]


_N_ITEMS = ParameterSpec("N", "number of items (integer >= 2, e.g. 1e12)", REQUIRED)
_LDP_EPS = ParameterSpec("eps", "local-DP parameter (> 0, exact: 1/2, log(2))", REQUIRED)

_FAMILIES = (
    BoundFamily("ldp-mutual-information", "per-user mutual information under eps-LDP (nats)",
                ldp_mutual_information_family,
                (_N_ITEMS, ParameterSpec("w", "ratings per user (integer, 1 <= w <= N)", REQUIRED), _LDP_EPS)),
    BoundFamily("fano", "users below which any eps-LDP learner is unreliable", fano_family,
                (_N_ITEMS, _LDP_EPS,
                 ParameterSpec("w", "ratings per user (1 <= w <= N) for the Theorem 13/14 rows; none to skip", None),
                 ParameterSpec("p_max", "error level, in (0, 1)", sympy.Rational(1, 2)),
                 ParameterSpec("K", "clusters for Theorem 23 (integer >= 2)", 2),
                 ParameterSpec("d", "Hamming tolerance for Theorem 23 (integer in [0, N-1])", 0))),
    BoundFamily("maxsense-users", "users sufficient for MaxSense to recover every item cluster (Theorem 15)",
                _maxsense_users,
                (ParameterSpec("N", "number of items (integer >= 2)", REQUIRED),
                 ParameterSpec("w", "ratings per user (1 <= w <= N)", REQUIRED),
                 ParameterSpec("eps", "local-DP parameter (> 0)", REQUIRED),
                 ParameterSpec("delta_min", "cluster separation of Theorem 15 (> 0), e.g. exp(-1/2)", REQUIRED),
                 ParameterSpec("theta", "sensing constant in (0, w)", 1),
                 ParameterSpec("d", "failure probability N^-d (d > 0)", 1))),
    BoundFamily("shuffle", "privacy amplification by shuffling n eps0-LDP reports", shuffle_family,
                specs(SHUFFLE_PARAMETERS, ("eps0", "n", "delta"))),
    BoundFamily("composition", "composition of k (eps, delta0)-DP mechanisms", composition_family,
                specs(COMPOSITION_PARAMETERS, ("eps", "k", "delta"))),
    BoundFamily("emd-discrete", "bounded d_EM-DP alpha that makes the sampling reduction (eps, 2 delta, r)-discrete",
                emd_discrete_family,
                (ParameterSpec("eps", "eps of the discrete d_EM-DP guarantee (> 0)", REQUIRED),
                 ParameterSpec("r", "distance unit r, in (0, 1]", REQUIRED),
                 ParameterSpec("s", "samples drawn per user (integer >= 1)", REQUIRED),
                 ParameterSpec("delta", "delta of the bounded mechanism, in (0, 1)", REQUIRED))),
    BoundFamily("group-privacy", "delta after chaining k (eps, delta) steps (Lemma A.2; Fact 5.1 as printed)",
                group_privacy_family,
                (ParameterSpec("eps", "eps of each step (>= 0)", REQUIRED),
                 ParameterSpec("delta", "delta of each step, in [0, 1]", REQUIRED),
                 ParameterSpec("k", "number of steps, e.g. ceil(d/r) (integer >= 1)", REQUIRED))),
    BoundFamily("p-rec", "p-REC's loss and eps bounds, upper and lower (001_8845c8f909738498.txt)",
                online_recommendation_family,
                (ParameterSpec("m", "objects per round (integer >= 2)", REQUIRED),
                 ParameterSpec("n", "number of voters (integer >= P)", REQUIRED),
                 ParameterSpec("P", "peers of the client: voters within distance R (integer >= 1)", REQUIRED),
                 ParameterSpec("T", "number of rounds (integer >= 2)", REQUIRED),
                 ParameterSpec("D", "rounds with several liked objects (integer >= 0)", 0),
                 ParameterSpec("R", "peers' distance to the client (integer >= 0)", 0))),
    BoundFamily("privact", "PrivaCT's tree-quality bounds at per-edge eps (004_a0cddc0a7a24fb37.txt)", privact_family,
                (ParameterSpec("n", "number of users (integer >= 3)", REQUIRED),
                 ParameterSpec("eps_edge", "per-edge eps > 0 (Laplace scale 2/eps_edge per bin)", REQUIRED),
                 ParameterSpec("K", "number of bins (default floor(ln n))", None))),
    BoundFamily("shuffle", "largest eps0 whose shuffled eps is at most target_eps", calibration_family,
                specs(CALIBRATION_PARAMETERS, ("target_eps", "n", "delta")), "calibrate"),
)

BOUND_FAMILIES: dict[str, BoundFamily] = {f.name: f for f in _FAMILIES if f.command == "bound"}
"""``dpcert bound NAME``."""

CALIBRATIONS: dict[str, BoundFamily] = {f.name: f for f in _FAMILIES if f.command == "calibrate"}
"""``dpcert calibrate NAME``."""
