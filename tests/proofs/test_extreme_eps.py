"""Claims at eps from 10^-32 to 10^-300, exactly and symbolically, on both sides of the truth.

At eps = 10^-32 the symbolic checker once evaluated e^eps to 1 and proved eps' = eps / 10 for randomized
response (issue 9); at 10^-300 the exact checker's float logs were off by a factor of 2. The truth here
is the definition: each of these mechanisms is exactly eps-DP and no better (randomized response and
k-RR: the ratio at y = x is e^eps; unary encoding: (p/q)((1-q)/(1-p)) = e^eps; geometric: the ratio at
an end point is e^eps), so a claim eps' is proved iff eps' >= eps.
"""

from __future__ import annotations

import pytest
import sympy

from conftest import run_cli
from dpcert.mechanisms import make_mechanism
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import check
from dpcert.proofs.guarantees import ApproxDP, PureDP

R = sympy.Rational

MECHANISMS = [
    ("randomized-response", {}),
    ("k-rr", {"k": "3"}),
    ("unary-encoding", {"k": "2"}),
    ("unary-encoding", {"k": "3", "variant": "sue"}),
    ("geometric", {"hi": "3"}),
]


@pytest.mark.parametrize("exponent", [32, 100, 300])
@pytest.mark.parametrize("name, extra", MECHANISMS, ids=[f"{n}-{'-'.join(e.values())}" for n, e in MECHANISMS])
@pytest.mark.parametrize("symbolic", [False, True], ids=["exact", "symbolic"])
def test_tiny_eps_is_decided_on_both_sides(name, extra, exponent, symbolic):
    eps = R(1, 10**exponent)
    mechanism = make_mechanism(name, raw={"eps": str(eps), **extra})
    for claimed, expected in ((eps / 10, Verdict.REFUTED), (eps * (1 - R(1, 10**6)), Verdict.REFUTED),
                              (eps, Verdict.PROVED), (eps * 2, Verdict.PROVED)):
        certificate = check(mechanism, PureDP(claimed), symbolic=symbolic)
        assert certificate.verdict is expected, (claimed, certificate)
        assert certificate.recheck() is True
        assert sympy.simplify(certificate.epsilon - eps) == 0  # the tightest eps, exactly


@pytest.mark.parametrize("name, extra", MECHANISMS[:3], ids=["rr", "krr", "ue2"])
def test_tiny_eps_delta_is_decided(name, extra):
    # At eps' = eps / 2 the hockey-stick divergence is positive but of order 10^-301: delta = 0 is refuted,
    # a delta of 10^-200 is proved, exactly and symbolically.
    eps = R(1, 10**300)
    mechanism = make_mechanism(name, raw={"eps": str(eps), **extra})
    for symbolic in (False, True):
        refuted = check(mechanism, ApproxDP(eps / 2, 0), symbolic=symbolic)
        proved = check(mechanism, ApproxDP(eps / 2, R(1, 10**200)), symbolic=symbolic)
        assert (refuted.verdict, proved.verdict) == (Verdict.REFUTED, Verdict.PROVED)
        assert refuted.recheck() and proved.recheck()
        # delta(eps/2) = (e^eps - e^(eps/2)) / (1 + e^eps) ~ eps / 4 for randomized response (the others differ
        # by a constant factor): between 10^-302 and 10^-300, by a 50-digit evaluation with 1000 working digits
        value = sympy.N(refuted.delta, 50, maxn=1000)
        assert sympy.Float("1e-302") < value < sympy.Float("1e-300"), value


@pytest.mark.parametrize("argv, code", [
    (["verify", "randomized-response", "--param", "eps=1e-32", "--eps", "1e-33", "--symbolic"], 1),
    (["verify", "randomized-response", "--param", "eps=1e-32", "--eps", "1e-33"], 1),
    (["verify", "k-rr", "--param", "k=3", "--param", "eps=1e-300", "--eps", "1e-300", "--symbolic"], 0),
    (["verify", "unary-encoding", "--param", "k=2", "--param", "eps=2e-300", "--eps", "1e-300"], 1),
    (["verify", "unary-encoding", "--param", "k=2", "--param", "eps=1e-300", "--eps", "9e-301"], 2),  # below the range
    (["verify", "geometric", "--param", "eps=1e-300", "--eps", "1e-300", "--symbolic"], 0),
])
def test_the_command_line_at_tiny_eps(capsys, argv, code):
    got, out, err = run_cli(capsys, *argv, "--json")
    assert got == code, err
