"""One-sided calibration of a composition: the least noise (sigma or b), or the largest sampling rate q or
repeat count, whose certified eps(delta) is at most a target.

A SPEC marks the unknown with ``?``: ``gaussian:sigma=?,q=0.005*1000`` or ``gaussian:sigma=1,q=0.01*?``.
eps(delta) falls as sigma or b grows (more noise is a post-processing) and rises with q (the pair at a smaller
rate is a post-processing of the one at a larger rate: :mod:`dpcert.accountant.pld_spec`) and with the count, so
the feasible values form an interval; bisection on the certified predicate "the enclosure's upper end is at
most the target" finds its end. The returned value is a short decimal (6 significant digits, rounded
towards the feasible side) at which the predicate was evaluated and held: it never overshoots the target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.pld_accountant import compose
from dpcert.accountant.spec_syntax import MAX_COUNT
from dpcert.mechanisms.parameters import InvalidParameterError, require_real

__all__ = ["CALIBRATED", "Calibration", "calibrate"]

CALIBRATED = {"sigma": ("above", 1e-3, 1e6), "b": ("above", 1e-3, 1e6), "q": ("below", 1e-12, 1.0),
              "count": ("below", 1, MAX_COUNT)}
"""What can be calibrated: (feasible side, smallest, largest value searched)."""

CALIBRATION_GAP = "1e-2"
"""The grids' relative gap during the search (a looser gap only makes the certified value more cautious)."""

_RELATIVE = 1e-4
"""The search stops when the feasible and infeasible values are within this relative distance."""


@dataclass(frozen=True)
class Calibration:
    """The calibrated value (a decimal string), the certified result there, and the search's record."""

    parameter: str
    value: str
    result: BoundResult
    infeasible: str | None
    evaluations: int

    def as_json(self) -> dict[str, object]:
        return {"parameter": self.parameter, "value": self.value, "infeasible": self.infeasible,
                "evaluations": self.evaluations, "result": self.result.as_json()}


def _unknown(specs: Sequence[str]) -> tuple[int, str]:
    """The index of the SPEC holding ``?`` and the parameter it stands for."""
    marked = [(i, s) for i, s in enumerate(specs) if "?" in s]
    if len(marked) != 1 or marked[0][1].count("?") != 1:
        raise InvalidParameterError("calibration (--target-eps) needs exactly one '?' among the SPECs (e.g. sigma=? or "
                                    f"*?). Got {' '.join(specs)!r}")
    index, spec = marked[0]
    if spec.rstrip().endswith("*?"):
        return index, "count"
    for item in spec.partition(":")[2].split(","):
        key, _, value = item.partition("=")
        if value.strip().startswith("?"):
            if key.strip() not in CALIBRATED:
                raise InvalidParameterError(f"only {', '.join(CALIBRATED)} can be calibrated. Got {key.strip()}={value}")
            return index, key.strip()
    raise InvalidParameterError(f"'?' must stand for a whole value (sigma=?) or the count (*?). Got SPEC {spec!r}")


def _decimal(value: float, side: str, parameter: str) -> str:
    """``value`` as a short decimal, rounded towards the feasible side (up for noise, down for q and count)."""
    if parameter == "count":
        return str(int(value))
    digits = 6 - 1 - math.floor(math.log10(value))
    scale = 10.0 ** digits
    rounded = (math.ceil if side == "above" else math.floor)(value * scale) / scale
    return repr(rounded)


def _bracket(ok, point, parameter: str, side: str, low: float, high: float) -> tuple[float, float | None]:
    """A feasible and an infeasible value (None: the whole range is feasible), found by doubling from 1 (q:
    from 0.01) towards the infeasible side and halving towards the feasible one: no evaluation at the far
    ends of the range unless the answer lies there (10^7 steps cost minutes)."""
    start = 0.01 if parameter == "q" else 1.0
    towards_feasible = (lambda x: min(x * 2, high)) if side == "above" else (lambda x: max(x / 2, low))
    towards_infeasible = (lambda x: max(x / 2, low)) if side == "above" else (lambda x: min(x * 2, high))
    x = start
    if ok(point(x)):
        while True:
            y = towards_infeasible(x)
            if y == x:
                return x, None
            if not ok(point(y)):
                return x, y
            x = y
    while True:
        y = towards_feasible(x)
        if y == x:
            raise InvalidParameterError(f"target_eps is not reached even at {parameter} = {point(x)} "
                                        f"(the end of the searched range)")
        if ok(point(y)):
            return y, x
        x = y


def calibrate(specs: Sequence[str], target_eps: object, delta: object, *, neighbours: str = "add-remove") -> Calibration:
    """The calibrated value of the ``?`` in ``specs`` with certified eps(delta) <= ``target_eps``."""
    specs = [specs] if isinstance(specs, str) else list(specs)
    index, parameter = _unknown(specs)
    target = float(require_real("target_eps", target_eps, low=0, high=10**4, low_open=True))
    side, low, high = CALIBRATED[parameter]
    results: dict[str, BoundResult] = {}

    def ok(text: str) -> bool:
        if text not in results:
            filled = list(specs)
            filled[index] = specs[index].replace("?", text)
            results[text] = compose(filled, neighbours=neighbours).epsilon(delta, gap=CALIBRATION_GAP)
        result = results[text]
        return result.valid and result.upper is not None and result.upper <= target

    def point(x: float) -> str:
        return _decimal(x, side, parameter)

    good, bad = _bracket(ok, point, parameter, side, low, high)
    if bad is None:
        return Calibration(parameter, point(good), results[point(good)], None, len(results))
    while True:
        middle = math.sqrt(good * bad) if parameter != "count" else (good + bad) / 2
        if parameter == "count":
            middle = math.floor(middle)
            if middle in (good, bad):
                break
        elif abs(good - bad) <= _RELATIVE * abs(good):
            break
        if ok(point(middle)):
            good = middle
        else:
            bad = middle
    best = point(good)
    return Calibration(parameter, best, results[best], point(bad), len(results))
