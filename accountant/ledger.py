"""The privacy ledger: one place where a pipeline's spending is recorded, and every bound that applies to it.

Entries are (eps, delta) guarantees (optionally with their exact channel) or mechanisms the numerical accountant
composes (SPECs: a Gaussian, a subsampled mechanism, any catalogued one). ``summary`` reports basic, advanced
and optimal composition (:mod:`dpcert.accountant.composition`; for (eps, delta) entries), the exact composition of
channels, and the certified numerical composition of everything (:mod:`dpcert.accountant.pld_accountant`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.accountant.composition import (
    _advanced,
    _eps,
    _invalid,
    _rows,
    basic_composition,
    compose_channels,
    optimal_composition,
)
from dpcert.accountant.pld_accountant import SOURCE, compose
from dpcert.accountant.pld_spec import make_component
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_unit_interval

__all__ = ["LedgerEntry", "PrivacyLedger"]


@dataclass(frozen=True)
class LedgerEntry:
    """One composed mechanism: its label, and either its (eps, delta) guarantee (with an optional exact
    channel) or a SPEC of the numerical accountant (``gaussian:sigma=0.8,q=0.005*1000``), and a citation."""

    label: str
    eps: sympy.Expr | None
    delta: sympy.Expr | None
    source: str = ""
    channel: tuple[tuple[sympy.Expr, ...], ...] | None = None
    spec: str | None = None

    def as_spec(self) -> str:
        """The entry as a SPEC: its own, or the (eps, delta)-DP worst case."""
        return self.spec if self.spec is not None else f"approximate-dp:eps={self.eps},delta={self.delta}"


class PrivacyLedger:
    """A record of composed mechanisms and every composition bound that applies to them.

    >>> ledger = PrivacyLedger()
    >>> _ = ledger.record("histogram", 1)
    >>> _ = ledger.record("mean", 1)
    >>> ledger.basic().value
    2
    """

    def __init__(self, entries: Iterable[LedgerEntry] = ()):
        self._entries: list[LedgerEntry] = list(entries)

    @property
    def entries(self) -> tuple[LedgerEntry, ...]:
        """What was composed, in order."""
        return tuple(self._entries)

    def record(self, label: str, eps: object, delta: object = 0, *, source: str = "",
               channel: object = None) -> LedgerEntry:
        """Record one mechanism: (eps, delta)-DP, with an optional exact channel for exact composition."""
        entry = LedgerEntry(str(label), _eps("eps", eps), require_unit_interval("delta", delta), source,
                            None if channel is None else tuple(tuple(r) for r in _rows(channel)))
        self._entries.append(entry)
        return entry

    def record_mechanism(self, label: str, spec: str, *, source: str = "") -> LedgerEntry:
        """Record a mechanism the numerical accountant composes (a SPEC, checked now): a Gaussian, a subsampled
        mechanism, any catalogued one (:mod:`dpcert.accountant.pld_spec`)."""
        make_component(spec, alone=False)
        entry = LedgerEntry(str(label), None, None, source, None, str(spec))
        self._entries.append(entry)
        return entry

    def _describe(self) -> str:
        return "; ".join(f"{e.label}: {e.spec}" if e.spec is not None else f"{e.label}: ({e.eps}, {e.delta})"
                         for e in self._entries)

    def _guarantees(self) -> str | None:
        """Why the (eps, delta) bounds do not apply (an entry recorded as a SPEC has no single eps), or None."""
        named = [e.label for e in self._entries if e.spec is not None]
        return None if not named else f"needs every entry's (eps, delta); {', '.join(named)} is recorded as a mechanism"

    def _described(self, result: BoundResult) -> BoundResult:
        """``result`` (enclosure and all) with the ledger's entries added to its note."""
        return dataclasses.replace(result, note=result.note + "; " + self._describe())

    def _require_entries(self) -> None:
        if not self._entries:
            raise InvalidParameterError("the ledger is empty: record a mechanism first")

    def basic(self) -> BoundResult:
        """Basic composition of every entry."""
        self._require_entries()
        if self._guarantees():
            return _invalid("basic", self._guarantees())
        return self._described(basic_composition([e.eps for e in self._entries],
                                                 delta=[e.delta for e in self._entries]))

    def advanced(self, delta_prime: object) -> BoundResult:
        """Advanced composition with sum eps_i^2 and sum eps_i (e^eps_i - 1); delta = sum delta_i + delta'."""
        self._require_entries()
        delta_prime = require_unit_interval("delta_prime", delta_prime)
        if self._guarantees():
            return _invalid("advanced", self._guarantees())
        if delta_prime == 0:
            return _invalid("advanced", "needs delta' > 0")
        total_delta = sympy.Add(*[e.delta for e in self._entries]) + delta_prime
        return _advanced([(e.eps, 1) for e in self._entries], delta_prime,
                         f"delta = {total_delta}; " + self._describe())

    def optimal(self, delta: object) -> BoundResult:
        """Kairouz-Oh-Viswanath optimal composition (entries must share one (eps, delta0))."""
        self._require_entries()
        if self._guarantees():
            return _invalid("optimal", self._guarantees())
        first = self._entries[0]
        if any(e.eps != first.eps or e.delta != first.delta for e in self._entries):
            return _invalid("optimal", "the exact KOV formula here needs identical (eps, delta0) entries")
        return self._described(optimal_composition(first.eps, len(self._entries), delta, delta0=first.delta))

    def exact(self, delta: object) -> BoundResult:
        """Exact composition through privacy-loss distributions (every entry needs a channel)."""
        self._require_entries()
        if any(e.channel is None for e in self._entries):
            return _invalid("exact", "every entry needs its channel (record(..., channel=...))")
        return self._described(compose_channels([e.channel for e in self._entries], delta=delta))

    def numerical(self, delta: object, *, neighbours: str = "add-remove") -> BoundResult:
        """Certified numerical composition of every entry (:mod:`dpcert.accountant.pld_accountant`): SPEC entries
        as recorded, (eps, delta) entries as the (eps, delta)-DP worst case, at the target ``delta``."""
        self._require_entries()
        return self._described(compose([e.as_spec() for e in self._entries], neighbours=neighbours).epsilon(delta))

    def summary(self, delta: object) -> list[BoundResult]:
        """basic (when its delta fits), advanced, optimal, exact and numerical at the target ``delta``."""
        self._require_entries()
        delta = require_unit_interval("delta", delta)
        if self._guarantees():
            numerical = (self.numerical(delta) if exact_sign(delta) > 0 else
                         BoundResult("pld", SOURCE, None, "eps", False, "the numerical composition needs delta > 0"))
            return [self.basic(), self.advanced(delta), self.optimal(delta), self.exact(delta), numerical]
        spent = sympy.Add(*[e.delta for e in self._entries])
        results = [self.basic() if exact_sign(delta - spent) >= 0 else
                   _invalid("basic", f"the entries' deltas add to {spent} > {delta}")]
        slack = delta - spent
        results.append(self.advanced(slack) if exact_sign(slack) > 0 else
                       _invalid("advanced", f"needs delta > sum of the entries' deltas = {spent}"))
        results.append(self.optimal(delta))
        results.append(self.exact(delta))
        results.append(self.numerical(delta) if exact_sign(delta) > 0 else
                       BoundResult("pld", SOURCE, None, "eps", False, "the numerical composition needs delta > 0"))
        return results
