"""The command line: JSON shapes, exit codes (0 holds, 1 refuted, 2 bad input, 3 undecided), one-line errors."""

from __future__ import annotations

import json

import click
import pytest
import sympy

from conftest import run_cli


run = run_cli


def test_mechanisms_lists_the_catalogue(capsys):
    code, out, _ = run(capsys, "mechanisms", "--json")
    names = {m["name"] for m in json.loads(out)["mechanisms"]}
    assert code == 0
    assert {"randomized-response", "k-rr", "unary-encoding", "geometric", "geometric-renormalized", "exponential",
            "laplace", "laplace-wrong-scale", "gaussian"} <= names
    # the auditing zoo is in the same table, marked as samplers (Lyu et al. 2017's six SVTs among them)
    samplers = {m["name"] for m in json.loads(out)["mechanisms"] if m["sampler_only"]}
    assert {f"svt{i}" for i in range(1, 7)} | {"noisy-max", "histogram", "laplace-float"} <= samplers
    assert not samplers & {"laplace", "gaussian", "k-rr"}


@pytest.mark.parametrize("argv", [("epsilon", "svt1"), ("verify", "histogram", "--eps", "1")])
def test_a_sampler_is_audited_not_checked(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1
    assert "MECHANISM" in err and f"dpcert audit {argv[1]}" in err


def test_epsilon_json_is_exact_and_rounded_up(capsys):
    code, out, _ = run(capsys, "epsilon", "randomized-response", "--param", "eps=log(3)", "--json")
    payload = json.loads(out)
    assert code == 0
    assert payload["mechanism"] == "randomized-response"
    assert payload["parameters"] == {"eps": "log(3)"}
    assert payload["verdict"] == "proved"
    assert sympy.sympify(payload["epsilon"]) == sympy.log(3)
    assert payload["epsilon_upper"] >= float(sympy.log(3).evalf(30))
    assert payload["witness"] is None


def test_verify_refutes_the_negative_control_with_a_witness(capsys):
    code, out, _ = run(capsys, "verify", "geometric-renormalized", "--param", "eps=1/2", "--param", "hi=6",
                       "--eps", "1/2", "--json")
    payload = json.loads(out)
    assert code == 1 and payload["verdict"] == "refuted"
    w = payload["witness"]
    assert set(w) >= {"x", "x_prime", "output", "p", "p_prime"}
    p, q = sympy.sympify(w["p"]), sympy.sympify(w["p_prime"])
    assert (p - sympy.exp(sympy.Rational(1, 2)) * q).evalf(50) > 0


def test_verify_proves_and_exits_zero(capsys):
    code, out, _ = run(capsys, "verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--eps", "1", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "proved"


def test_verify_approximate_dp(capsys):
    code, out, _ = run(capsys, "verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--eps", "1/2",
                       "--delta", "1/2", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "proved"
    code, _, _ = run(capsys, "verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--eps", "1/2",
                     "--delta", "1/1000")
    assert code == 1


def test_verify_metric(capsys):
    code, out, _ = run(capsys, "verify", "geometric", "--param", "eps=1/2", "--param", "hi=5", "--eps", "1/2",
                       "--metric", "abs", "--json")
    assert code == 0 and sympy.sympify(json.loads(out)["epsilon"]) == sympy.Rational(1, 2)


@pytest.mark.parametrize("argv, named", [
    (("verify", "k-rr", "--param", "k=1", "--param", "eps=1", "--eps", "1"), "k"),
    (("verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--eps", "0"), "eps"),
    (("verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--eps", "1", "--delta", "1"), "delta"),
    (("verify", "k-rr", "--param", "k=3", "--param", "eps=nan", "--eps", "1"), "eps"),
    (("verify", "k-rr", "--param", "k=3", "--param", "eps=inf", "--eps", "1"), "eps"),
    (("verify", "nope", "--eps", "1"), "mechanism"),
    (("verify", "k-rr", "--param", "k=3", "--param", "eps=1", "--param", "zeta=2", "--eps", "1"), "zeta"),
    (("verify", "k-rr", "--param", "k=3", "--eps", "1"), "eps"),
    (("verify", "k-rr", "--param", "k3", "--eps", "1"), "--param"),
    (("epsilon", "unary-encoding", "--param", "k=40", "--param", "eps=1"), "k"),
    (("verify", "k-rr", "--param", "k=3", "--param", "eps=1"), "--eps"),
    (("claims", "--source", "no such paper"), "--source"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and named in err
    assert "Traceback" not in err


def test_claims_report_for_one_source(capsys):
    code, out, _ = run(capsys, "claims", "--source", "Proposition 4", "--json")
    payload = json.loads(out)
    assert code == 0
    assert payload["claims"] and all("Proposition 4" in c["source"] for c in payload["claims"])
    for c in payload["claims"]:
        assert set(c) >= {"id", "source", "statement", "verdict", "method", "evidence"}


def test_audit_through_the_entry_point_exits_1_on_a_violation(capsys):
    # histogram-wrong-scale (noise scale eps) against claimed eps = 0.1: the audit's lower bound at
    # confidence 0.95 is far above 0.1 (about 7 with 10^4 samples), so the entry point must exit 1.
    code, out, _ = run(capsys, "audit", "histogram-wrong-scale", "--eps", "0.1", "--samples", "10000", "--seed", "1",
                       "--json")
    payload = json.loads(out)
    assert code == 1 and payload["verdict"] == "violation" and payload["epsilon_lower_bound"] > 0.1
    code, out, _ = run(capsys, "audit", "histogram", "--eps", "0.1", "--samples", "10000", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "no-violation-found"


def test_audit_floating_point_flag_looks_at_the_doubles_reached(capsys):
    # laplace-float at claimed eps = 0.1 (Mironov 2012): with --floating-point the lattice of doubles it reaches
    # from 0 and from 1 gives a bound of about 5 at 10^5 samples (seed 3, confidence 0.95); without, about 0.05
    argv = ("audit", "laplace-float", "--eps", "0.1", "--samples", "100000", "--seed", "3", "--json")
    code, out, _ = run(capsys, *argv, "--floating-point")
    assert code == 1 and "odd multiple of 2^l" in json.loads(out)["witness"]["event"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and json.loads(out)["verdict"] == "no-violation-found"


@pytest.mark.parametrize("json_output", [False, True])
def test_an_undecidable_number_exits_3_in_one_line_or_json(capsys, monkeypatch, json_output):
    # a number no certified evaluation can place (here raised on purpose) is "undecided", exit 3, never a traceback
    import dataclasses

    from dpcert.accountant.catalog import BOUND_FAMILIES
    from dpcert.mechanisms.exact_arithmetic import UndecidedSignError

    def undecidable(**_):
        raise UndecidedSignError("could not evaluate exp(exp(1000)) to 23 proved digits")

    monkeypatch.setitem(BOUND_FAMILIES, "composition",
                        dataclasses.replace(BOUND_FAMILIES["composition"], function=undecidable))
    argv = ["bound", "composition", "--param", "eps=1", "--param", "k=2", "--param", "delta=1e-6"]
    code, out, err = run(capsys, *argv, *(["--json"] if json_output else []))
    assert code == 3 and "Traceback" not in out + err
    if json_output:
        assert json.loads(out) == {"verdict": "unknown",
                                   "undecided": "could not evaluate exp(exp(1000)) to 23 proved digits"}
    else:
        assert err.strip() == "dpcert: undecided: could not evaluate exp(exp(1000)) to 23 proved digits"


def test_mechanisms_lists_every_sampler_that_audit_takes(capsys):
    # the auditing zoo (CATALOG's sampler_only rows, read at run time: a new zoo row is listed without a CLI edit)
    from dpcert.mechanisms.catalog import CATALOG

    samplers = {name for name, entry in CATALOG.items() if entry.sampler_only}
    code, out, _ = run(capsys, "mechanisms", "--json")
    assert code == 0 and {m["name"] for m in json.loads(out)["mechanisms"] if m["sampler_only"]} == samplers
    code, out, _ = run(capsys, "mechanisms")
    assert code == 0 and out.count("[sampler:") == len(samplers)


def test_a_bare_dpcert_is_a_one_line_usage_error(capsys):
    # a missing command is a usage error like any other (one line, exit 2), not the whole help printed as an error
    assert run(capsys) == (2, "", "dpcert: error: missing command (try dpcert --help)\n")


def _usage_errors() -> list[tuple[tuple[str, ...], str]]:
    """(argv, what the error names): for every subcommand an unknown option, each option typed without its value,
    and the command without its required arguments; an unknown option and an unknown subcommand of dpcert."""
    from dpcert.proofs.cli import cli

    cases = [(("no-such-command",), "no-such-command"), (("--no-such-option",), "--no-such-option")]
    for name, command in cli.commands.items():
        options = [p.opts[0] for p in command.params if isinstance(p, click.Option) and not p.is_flag]
        cases += [((name, option), option) for option in ("--no-such-option", *options)]
        if any(isinstance(p, click.Argument) and p.required for p in command.params):
            cases.append(((name,), "missing argument"))
    return cases


@pytest.mark.parametrize("argv, named", _usage_errors(), ids=[" ".join(argv) for argv, _ in _usage_errors()])
def test_clicks_usage_errors_are_one_line_and_exit_2(capsys, argv, named):
    # click wrote a missing argument's choices on several lines (dpcert simulate) and ended with a full stop
    from dpcert.proofs.cli import cli

    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("dpcert: error: "), err
    where = f"dpcert {argv[0]}" if argv[0] in cli.commands else "dpcert"
    assert named in err and err.endswith(f" (try {where} --help)\n"), err
