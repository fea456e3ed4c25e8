"""Command-line fuzz: every subcommand, every parameter, hostile values.

For each parameter of each subcommand (read from the catalogues, so a new parameter is fuzzed without
editing this file) hypothesis substitutes a value into an otherwise valid ``--json`` command line:
huge, tiny, negative, zero, NaN, infinities, non-numeric text, unicode, deep or long expressions, and
plain random floats, integers and text. Whatever the value, the run must end within the time limit
and either

- exit 0, 1 or 3 with stdout one strict JSON object (no NaN, no Infinity), or
- exit 2 with stderr one line ``dpcert: error: ...`` naming the parameter,

and never print a traceback. The examples are derandomised (the ``ci`` profile in ``conftest``); set
``DPCERT_CLI_FUZZ_EXAMPLES`` to draw more per parameter, e.g. 100 for a long local run.

The fuzz is marked ``cli_fuzz`` (``pytest -m cli_fuzz`` runs it alone) and is part of the default run:
about two minutes for every slot at 3 examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from conftest import write_synthetic_social_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpcert.accountant.blanket_variables import NAMED_RANDOMIZERS
from dpcert.accountant.catalog import BOUND_FAMILIES, CALIBRATIONS
from dpcert.accountant.pld_spec import BUILT_IN
from dpcert.mechanisms.catalog import CATALOG

TIME_LIMIT_SECONDS = 60
"""A run that takes longer is a hang (the slowest legitimate fuzzed run takes a few seconds)."""

CLAIMS_TIME_LIMIT_SECONDS = 600
"""``claims --source X`` with a short X (such as "0", in every paper's file name) runs the whole claim battery,
about 30 s on an idle machine and twice that on a loaded one: legitimate work, not a hang."""

EXAMPLES = int(os.environ.get("DPCERT_CLI_FUZZ_EXAMPLES", "3"))

HOSTILE = (
    "0", "-1", "-0", "1/2", "2", "1e12", "1e30", "1e308", "1e400", "1e4000", "10^400", "2**4096",
    "1e-20", "1e-300", "1e-400", "1e-4000", "-1e-20", "nan", "NaN", "inf", "-inf", "oo", "", " ",
    "abc", "é", "☃", "١٢", "1/0", "0/0", "log(0)", "log(-1)", "sqrt(-1)", "exp(exp(10))", "exp(-exp(10))",
    "exp(1000)", "9" * 4000, "9" * 100_000, "+".join(["1"] * 5000), "(" * 200 + "1" + ")" * 200,
    "1,2", "[[1]]", "true", "none", "0x10", "1e", "--", "=",
)
"""Values that broke earlier versions or sit at the edge of what a parser or validator accepts."""

values = st.one_of(
    st.sampled_from(HOSTILE),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**40), 10**40).map(str),
    st.text(max_size=12),
)


@dataclass(frozen=True)
class Slot:
    """One fuzzed place of a command line: ``--param NAME=...``, an option, or the positional argument."""

    argv: tuple[str, ...]
    """A valid command line (without --json); the fuzzed place is filled into it."""
    kind: str
    """"param", "option", "argument" or "spec" (a parameter inside a compose SPEC: ``{value}`` in argv[1])."""
    name: str
    """The parameter or option as the error must name it."""

    def command(self, value: str) -> list[str]:
        argv = list(self.argv)
        if self.kind == "argument":
            argv[1] = value
        elif self.kind == "spec":
            argv = [item.replace("{value}", value) for item in argv]
        elif self.kind == "option":
            if self.name in argv:
                argv[argv.index(self.name) + 1] = value
            else:
                argv += [self.name, value]
        else:
            argv = _without_param(argv, self.name) + ["--param", f"{self.name}={value}"]
        return [*argv, "--json"]

    @property
    def id(self) -> str:
        place = {"param": f"--param {self.name}", "option": self.name, "argument": f"<{self.name}>",
                 "spec": f"SPEC {self.name}"}[self.kind]
        return f"{' '.join(self.argv[:2])} {place}"


def _without_param(argv: list[str], name: str) -> list[str]:
    """``argv`` less its ``--param NAME=...`` pair."""
    kept: list[str] = []
    skip = False
    for i, item in enumerate(argv):
        if skip:
            skip = False
            continue
        if item == "--param" and i + 1 < len(argv) and argv[i + 1].startswith(f"{name}="):
            skip = True
            continue
        kept.append(item)
    return kept


def _params(**values: str) -> tuple[str, ...]:
    return tuple(item for name, value in values.items() for item in ("--param", f"{name}={value}"))


# A valid, cheap command line for every catalogue mechanism (required parameters only).
_MECHANISMS = {
    "hadamard-response": {"k": "3", "eps": "1"},
    "randomized-response": {"eps": "1"},
    "leaky-rr": {"eps": "1", "delta0": "1/100"},
    "k-rr": {"k": "3", "eps": "1"},
    "unary-encoding": {"k": "3", "eps": "1"},
    "geometric": {"eps": "1/2", "hi": "4"},
    "geometric-renormalized": {"eps": "1/2", "hi": "4"},
    "exponential": {"eps": "1", "utilities": "[[0, 1], [1, 0]]"},
    "laplace": {"eps": "1"},
    "laplace-wrong-scale": {"eps": "1/2"},
    "pairwise-preference-sketch": {"N": "4", "w": "2", "eps": "1"},
    "rated-pair-sketch": {"N": "4", "w": "2", "eps": "1"},
    "rated-pair-sketch-public-items": {"eps": "1"},
    "maxsense-sketch": {"N": "4", "w": "2", "eps": "1", "sensing": "0110"},
    "multi-maxsense-sketch": {"N": "4", "w": "1", "eps": "2", "blocks": "0 1|2 3"},
    "membership-query": {"N": "3", "A": "[[0, 1]]"},
    "gkrr": {"alpha0": "1", "s": "2", "t": "2", "r": "1/4"},
    "gaussian": {"sigma": "2"},
}
_BOUNDS = {
    "ldp-mutual-information": {"N": "1000", "w": "10", "eps": "1/2"},
    "fano": {"N": "1e4", "eps": "1/2", "w": "5"},
    "maxsense-users": {"N": "1000", "w": "5", "eps": "1/2", "delta_min": "exp(-1/2)"},
    "shuffle": {"eps0": "1", "n": "1e4", "delta": "1e-6"},
    "composition": {"eps": "1/10", "k": "10", "delta": "1e-6"},
    "emd-discrete": {"eps": "1", "r": "1/10", "s": "1000", "delta": "1e-6"},
    "group-privacy": {"eps": "2", "delta": "1/100", "k": "2"},
    "p-rec": {"m": "2", "n": "2012", "P": "12", "T": "200"},
    "privact": {"n": "1843", "eps_edge": "1"},
}
_SOCIAL_DATA = write_synthetic_social_data(tempfile.mkdtemp(prefix="dpcert-cli-fuzz-social-"))
"""A made-up 40-user data folder, so privact-recommend's fuzz runs with or without the real data."""
_SIMULATIONS = {
    "maxsense": ({"N": "20", "U": "2000", "w": "2", "eps": "2"}, ("theta", "sensing", "sampling")),
    "multi-maxsense": ({"N": "20", "U": "2000", "w": "2", "eps": "2"}, ("Q", "block_size", "sampling")),
    "pairwise-preference": ({"N": "20", "U": "2000", "w": "2", "eps": "2"}, ("rule", "sampling")),
    "privact": ({"network": "lastfm", "eps_edge": "1", "iterations_per_node": "1", "data_dir": _SOCIAL_DATA},
                ("graph",)),
    "privact-recommend": ({"network": "lastfm", "iterations_per_node": "1", "trees": "1", "splits": "1", "k": "10",
                           "data_dir": _SOCIAL_DATA}, ("eps_edge",)),
    "privact-serec": ({"network": "lastfm", "iterations_per_node": "1", "factors": "2", "epochs": "2", "k": "10",
                       "data_dir": _SOCIAL_DATA}, ("eps_edge", "trees", "splits")),
    "privact-similarity": ({"network": "lastfm", "data_dir": _SOCIAL_DATA}, ()),
    "privact-likelihood": ({"network": "lastfm", "iterations_per_node": "2", "data_dir": _SOCIAL_DATA}, ("eps_edge",)),
    "p-rec": ({"m": "2", "T": "20", "P": "4", "others": "20", "runs": "4"}, ("D", "R", "hostile")),
}
_PLOT = {"eps0": "1", "delta": "1e-6", "n_min": "1000", "n_max": "1e5", "points": "3"}
_COMPOSE = {  # a valid, cheap SPEC per built-in mechanism of dpcert compose
    "gaussian": {"sigma": "2", "sensitivity": "1", "q": "1/10"},
    "laplace": {"b": "2", "sensitivity": "1", "q": "1/10"},
    "discrete-laplace": {"b": "2", "sensitivity": "1", "q": "1/10"},
    "discrete-gaussian": {"sigma": "2", "sensitivity": "1", "q": "1/10"},
    "randomized-response": {"eps": "1", "q": "1/10"},
    "k-rr": {"k": "3", "eps": "1", "q": "1/10"},
    "approximate-dp": {"eps": "1", "delta": "1/1000", "q": "1/10"},
    "shuffle": {"eps0": "1", "n": "1000", "k": "10", "delta": "1e-8"},
}
_COMPOSE_OPTIONS = {"shuffle": ("--neighbours", "substitute")}
"""Options a built-in's base command line needs (shuffle rounds compose under substitution neighbours only)."""


def _spec(name: str, values: dict[str, str], fuzzed: str | None) -> str:
    """``name:param=value,...*3`` with ``{value}`` in place of the fuzzed parameter (or of the count)."""
    body = ",".join(f"{k}={'{value}' if k == fuzzed else v}" for k, v in values.items())
    return f"{name}:{body}*" + ("{value}" if fuzzed == "count" else "3")


def _compose_slots() -> list[Slot]:
    slots = []
    for name, values in _COMPOSE.items():
        for fuzzed in (*values, "count"):
            argv = ("compose", _spec(name, values, fuzzed), "--delta", "1e-6", *_COMPOSE_OPTIONS.get(name, ()))
            slots.append(Slot(argv, "spec", fuzzed))
    slots.append(Slot(("compose", "shuffle:eps0=1,n=1000,randomizer={value},delta=1e-8*3", "--delta", "1e-6",
                       *_COMPOSE_OPTIONS["shuffle"]), "spec", "randomizer"))  # k or randomizer, not both
    slots.append(Slot(("compose", "laplace:eps={value},sensitivity=1*3", "--delta", "1e-6"), "spec", "eps"))
    for name in ("gaussian", "laplace", "k-rr"):  # the Renyi-DP row reads the same SPEC values
        for fuzzed in (*_COMPOSE[name], "count"):
            slots.append(Slot(("compose", _spec(name, _COMPOSE[name], fuzzed), "--eps", "1", "--rdp"), "spec", fuzzed))
    slots.append(Slot(("compose", "unary-encoding:k={value},eps=1*2", "--delta", "1e-6", "--rdp"), "spec", "k"))
    slots.append(Slot(("compose", "unary-encoding:k=3,eps=1,pair={value}*2", "--delta", "1e-6"), "spec", "pair"))
    base = ("compose", _spec("gaussian", _COMPOSE["gaussian"], None), "--delta", "1e-6")
    slots += [Slot(base, "option", option) for option in ("--delta", "--gap", "--neighbours")]
    slots.append(Slot(("compose", "gaussian:sigma=2*3", "--eps", "1"), "option", "--eps"))
    slots.append(Slot(("compose", "gaussian:sigma=?*3", "--delta", "1e-6", "--target-eps", "2"), "option",
                      "--target-eps"))
    slots.append(Slot(base, "argument", "SPEC"))
    return slots


def _slots(argv: tuple[str, ...], names) -> list[Slot]:
    return [Slot(argv, "param", name) for name in names]


def _all_slots(tmp_png: str) -> list[Slot]:
    slots: list[Slot] = [Slot(("claims", "--source", "000"), "option", "--source")]
    for name, entry in CATALOG.items():
        names = [p.name for p in entry.parameters]
        if entry.sampler_only:  # the zoo: audited, eps from the claimed --eps
            slots += _slots(("audit", name, "--eps", "1", "--samples", "2000"), names)
            continue
        base = _params(**_MECHANISMS[name])
        slots += _slots(("epsilon", name, *base), names)
        verify = ("verify", name, *base, "--eps", "1") + (("--delta", "1/100") if name == "gaussian" else ())
        slots += _slots(verify, names)
        slots += [Slot(verify, "option", "--eps"), Slot(verify, "option", "--delta")]
    for command in (("epsilon", "k-rr", *_params(k="3", eps="1")),
                    ("verify", "k-rr", *_params(k="3", eps="1"), "--eps", "1")):
        slots.append(Slot(command, "argument", "MECHANISM"))
    for name, family in BOUND_FAMILIES.items():
        argv = ("bound", name, *_params(**_BOUNDS[name]))
        slots += _slots(argv, [p.name for p in family.parameters])
        slots.append(Slot(argv, "option", "--method"))
    slots.append(Slot(("bound", "shuffle", *_params(**_BOUNDS["shuffle"])), "argument", "family"))
    optimal = ("bound", "shuffle", *_params(eps0="1", n="1000", delta="1e-6"), "--method", "optimal", "--param")
    for name, entry in NAMED_RANDOMIZERS.items():  # a named randomizer's own parameter
        if entry.parameter is not None:
            slots.append(Slot((*optimal, f"randomizer={name}:{entry.parameter}={{value}}"), "spec", entry.parameter))
    calibrate = ("calibrate", "shuffle", *_params(target_eps="1/10", n="1e5", delta="1e-6"))
    slots += _slots(calibrate, [p.name for p in CALIBRATIONS["shuffle"].parameters])
    slots.append(Slot(calibrate, "option", "--method"))
    for name, (base, extra) in _SIMULATIONS.items():
        argv = ("simulate", name, *_params(**base))
        slots += _slots(argv, [*base, *extra])
        slots.append(Slot(argv, "option", "--seed"))
    plot = ("plot", "shuffle", *_params(**_PLOT), "--out", tmp_png)
    slots += _slots(plot, [*_PLOT, "k"]) + [Slot(plot, "option", "--out")]
    slots += _compose_slots()
    curve = ("plot", "composition", "gaussian:sigma=2*3", *_params(points="3"), "--out", tmp_png)
    slots += _slots(curve, ["points", "eps_max", "neighbours"])
    audit = ("audit", "histogram", "--eps", "1", "--samples", "2000")
    slots += [Slot(audit, "option", option) for option in ("--eps", "--delta", "--samples", "--confidence", "--seed")]
    slots.append(Slot(audit, "argument", "MECH"))
    slots.append(Slot(("audit", "histogram", "--eps", "1", "--samples", "auto", "--max-samples", "2000"), "option",
                      "--max-samples"))
    report = ("report", "--out", "/tmp/dpcert-cli-fuzz.html", "--paper", "online_recommendation")
    slots += [Slot(report, "option", "--paper"), Slot(report, "option", "--out")]
    slots.append(Slot(("claims", "--paper", "online_recommendation"), "option", "--paper"))
    slots.append(Slot(("claims", "--id", "k-rr"), "option", "--id"))
    slots += _slots(("audit", "k-rr", *_params(k="3"), "--eps", "1", "--samples", "2000"), ["k", "eps"])
    return slots


SLOTS = _all_slots("/tmp/dpcert-cli-fuzz.png")


class _Hang(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    def stop(signum, frame):
        raise _Hang

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(argv: list[str]) -> tuple[int, str, str]:
    """The ``dpcert`` entry point in-process: (exit code, stdout, stderr); a hang raises AssertionError."""
    from dpcert.proofs.cli import main

    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    limit = CLAIMS_TIME_LIMIT_SECONDS if argv[0] == "claims" else TIME_LIMIT_SECONDS
    try:
        with _time_limit(limit), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(argv)
    except SystemExit as stop:
        code = stop.code
    except _Hang:
        raise AssertionError(f"no answer within {limit} s: dpcert {' '.join(argv)[:300]}") from None
    return (0 if code is None else code), out.getvalue(), err.getvalue()


def _strict_json(text: str) -> object:
    def reject(constant: str) -> object:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=reject)


def check_run(slot: Slot, value: str) -> None:
    """The contract every command line answers to, whatever the value."""
    argv = slot.command(value)
    code, out, err = run(argv)
    shown = f"dpcert {' '.join(argv)[:300]!r} exited {code}; stderr {err[:500]!r}"
    assert "Traceback" not in out + err, shown
    if code == 2:
        message = err.strip()
        assert message.startswith("dpcert: error: ") and "\n" not in message, shown
        # a positional argument is named by the value typed (click reads "-0.0" as an unknown option "-0")
        # an option is named as typed or as the Python keyword it becomes (--max-samples, max_samples)
        named = slot.name.lstrip("-")
        assert slot.kind == "argument" or named in message or named.replace("-", "_") in message, \
            f"the error does not name {slot.name}: {shown}"
    else:
        assert code in (0, 1, 3), shown
        try:
            _strict_json(out)
        except ValueError as error:
            raise AssertionError(f"stdout is not strict JSON ({error}): {shown}") from None


@pytest.mark.cli_fuzz
@pytest.mark.parametrize("slot", SLOTS, ids=[s.id for s in SLOTS])
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(value=values)
def test_every_parameter_answers_or_rejects_in_one_line(slot, value):
    check_run(slot, value)


def test_every_catalogued_parameter_is_fuzzed():
    # a new mechanism or bound family must get a base command line here, or this fails
    fuzzed = {(s.argv[0], s.argv[1], s.name) for s in SLOTS}
    for name, entry in CATALOG.items():
        command = "audit" if entry.sampler_only else "verify"
        assert all((command, name, p.name) in fuzzed for p in entry.parameters), name
    for name, family in BOUND_FAMILIES.items():
        assert all(("bound", name, p.name) in fuzzed for p in family.parameters), name
    in_specs = {(s.argv[1].partition(":")[0], s.name) for s in SLOTS if s.kind == "spec"}
    for name, parameters in BUILT_IN.items():
        assert all((name, p) in in_specs for p in (*parameters, "count")), name
    in_randomizers = {(s.argv[-1].removeprefix("randomizer=").partition(":")[0], s.name) for s in SLOTS
                      if s.kind == "spec" and s.argv[1] == "shuffle"}
    for name, entry in NAMED_RANDOMIZERS.items():
        assert entry.parameter is None or (name, entry.parameter) in in_randomizers, name


@pytest.mark.parametrize("answer", [
    (1, "", "Traceback (most recent call last):\n  ..."),
    (0, '{"upper": NaN}', ""),
    (0, '{"upper": Infinity}', ""),
    (0, "a table, not JSON", ""),
    (2, "", "dpcert: error: eps must be > 0.\nGot -1"),
    (2, "", "dpcert: error: something is wrong"),
    (5, "{}", ""),
])
def test_the_contract_fails_a_broken_answer(monkeypatch, answer):
    # power check: the contract catches a traceback, non-strict JSON, a two-line or anonymous error, a stray code
    monkeypatch.setattr(sys.modules[__name__], "run", lambda argv: answer)
    slot = Slot(("bound", "composition", *_params(**_BOUNDS["composition"])), "param", "eps")
    with pytest.raises(AssertionError):
        check_run(slot, "-1")
