"""The bound families of ``dpcert bound NAME`` and ``dpcert calibrate NAME``, with their parameters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.families import FAMILIES as _PAPER_FAMILIES
from dpcert.accountant.families import REQUIRED, ParameterSpec
from dpcert.accountant.maxsense_threshold import maxsense_user_threshold
from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["BoundFamily", "BOUND_FAMILIES", "CALIBRATIONS"]


@dataclass(frozen=True)
class BoundFamily:
    """A named family of bounds: a function returning BoundResults, and the parameters it takes.

    ``command`` is the subcommand that evaluates it (``bound`` or ``calibrate``), named in messages with
    the parameter names exactly as the user types them.
    """

    name: str
    summary: str
    function: Callable[..., list[BoundResult]]
    parameters: tuple[ParameterSpec, ...]
    command: str = "bound"

    def evaluate(self, raw: Mapping[str, object]) -> list[BoundResult]:
        """Check the parameter names, fill defaults, and evaluate every bound of the family."""
        known = {p.name for p in self.parameters}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise InvalidParameterError(f"{self.command} {self.name} has no parameter {unknown[0]!r}; "
                                        f"its parameters are {', '.join(p.name for p in self.parameters)}")
        missing = [p.name for p in self.parameters if p.required and p.name not in raw]
        if missing:
            spec = next(p for p in self.parameters if p.name == missing[0])
            raise InvalidParameterError(f"{self.command} {self.name} needs --param {spec.name}=VALUE ({spec.help})")
        return self.function(**raw)


def _specs(rows: tuple[tuple[str, str, object], ...], required: tuple[str, ...]) -> tuple[ParameterSpec, ...]:
    return tuple(ParameterSpec(name, help, REQUIRED if name in required else default) for name, help, default in rows)


def _maxsense_users(N: object, w: object, eps: object, delta_min: object, theta: object = 1,
                    d: object = 1) -> list[BoundResult]:
    return [maxsense_user_threshold(N, w, eps, theta=theta, delta_min=delta_min, d=d, paper_constant=paper)
            for paper in (False, True)]


def _shuffle_families() -> dict[str, BoundFamily]:
    from dpcert.accountant.calibration import CALIBRATION_PARAMETERS, calibration_family
    from dpcert.accountant.composition import COMPOSITION_PARAMETERS, composition_family
    from dpcert.accountant.shuffle import SHUFFLE_PARAMETERS, shuffle_family

    return {
        "shuffle": BoundFamily("shuffle", "privacy amplification by shuffling n eps0-LDP reports", shuffle_family,
                               _specs(SHUFFLE_PARAMETERS, ("eps0", "n", "delta"))),
        "composition": BoundFamily("composition", "composition of k (eps, delta0)-DP mechanisms", composition_family,
                                   _specs(COMPOSITION_PARAMETERS, ("eps", "k", "delta"))),
        "calibrate-shuffle": BoundFamily("shuffle", "largest eps0 whose shuffled eps is at most target_eps",
                                         calibration_family,
                                         _specs(CALIBRATION_PARAMETERS, ("target_eps", "n", "delta")), "calibrate"),
    }


_PAPER = {
    name: BoundFamily(name, {"ldp-mutual-information": "per-user mutual information under eps-LDP (nats)",
                             "fano": "users below which any eps-LDP learner is unreliable"}[name], function, specs)
    for name, (function, specs) in _PAPER_FAMILIES.items()
}
_MAXSENSE = BoundFamily(
    "maxsense-users", "users sufficient for MaxSense to recover every item cluster (Theorem 15)", _maxsense_users,
    (ParameterSpec("N", "number of items (integer >= 2)", REQUIRED),
     ParameterSpec("w", "ratings per user (1 <= w <= N)", REQUIRED),
     ParameterSpec("eps", "local-DP parameter (> 0)", REQUIRED),
     ParameterSpec("delta_min", "cluster separation of Theorem 15 (> 0), e.g. exp(-1/2)", REQUIRED),
     ParameterSpec("theta", "sensing constant in (0, w)", 1),
     ParameterSpec("d", "failure probability N^-d (d > 0)", 1)))


def _user_level_families() -> dict[str, BoundFamily]:
    from dpcert.accountant.emd_reduction import emd_discrete_family
    from dpcert.accountant.group_privacy import group_privacy_family

    return {
        "emd-discrete": BoundFamily(
            "emd-discrete", "bounded d_EM-DP alpha that makes the sampling reduction (eps, 2 delta, r)-discrete",
            emd_discrete_family,
            (ParameterSpec("eps", "eps of the discrete d_EM-DP guarantee (> 0)", REQUIRED),
             ParameterSpec("r", "distance unit r, in (0, 1]", REQUIRED),
             ParameterSpec("s", "samples drawn per user (integer >= 1)", REQUIRED),
             ParameterSpec("delta", "delta of the bounded mechanism, in (0, 1)", REQUIRED))),
        "group-privacy": BoundFamily(
            "group-privacy", "delta after chaining k (eps, delta) steps (Lemma A.2; Fact 5.1 as printed)",
            group_privacy_family,
            (ParameterSpec("eps", "eps of each step (>= 0)", REQUIRED),
             ParameterSpec("delta", "delta of each step, in [0, 1]", REQUIRED),
             ParameterSpec("k", "number of steps, e.g. ceil(d/r) (integer >= 1)", REQUIRED))),
    }


def _system_families() -> dict[str, BoundFamily]:
    from dpcert.accountant.online_recommendation_bounds import online_recommendation_family
    from dpcert.accountant.privact_bounds import privact_family

    return {
        "p-rec": BoundFamily(
            "p-rec", "p-REC's loss and eps bounds, upper and lower (001_8845c8f909738498.txt)",
            online_recommendation_family,
            (ParameterSpec("m", "objects per round (integer >= 2)", REQUIRED),
             ParameterSpec("n", "number of voters (integer >= P)", REQUIRED),
             ParameterSpec("P", "peers of the client: voters within distance R (integer >= 1)", REQUIRED),
             ParameterSpec("T", "number of rounds (integer >= 2)", REQUIRED),
             ParameterSpec("D", "rounds with several liked objects (integer >= 0)", 0),
             ParameterSpec("R", "peers' distance to the client (integer >= 0)", 0))),
        "privact": BoundFamily(
            "privact", "PrivaCT's tree-quality bounds at per-edge eps (004_a0cddc0a7a24fb37.txt)", privact_family,
            (ParameterSpec("n", "number of users (integer >= 3)", REQUIRED),
             ParameterSpec("eps_edge", "per-edge eps > 0 (Laplace scale 2/eps_edge per bin)", REQUIRED),
             ParameterSpec("K", "number of bins (default floor(ln n))", None))),
    }


_SHUFFLE = _shuffle_families()
BOUND_FAMILIES: dict[str, BoundFamily] = {**_PAPER, "maxsense-users": _MAXSENSE,
                                          "shuffle": _SHUFFLE["shuffle"], "composition": _SHUFFLE["composition"],
                                          **_user_level_families(), **_system_families()}
"""``dpcert bound NAME``."""

CALIBRATIONS: dict[str, BoundFamily] = {"shuffle": _SHUFFLE["calibrate-shuffle"]}
"""``dpcert calibrate NAME``."""
