"""The Renyi-DP curve of `dpcert compose` SPECs (accountant/rdp_spec.py): the same curves as built by hand from
accountant/rdp.py, an upper bound that never falls below the numerical accountant's certified lower end, and a
reason where no curve is offered."""

from __future__ import annotations

import pytest
import sympy

from dpcert.accountant.gaussian_composition import gaussian_epsilon
from dpcert.accountant.pld_accountant import compose
from dpcert.accountant.rdp import finite_rdp, gaussian_rdp, laplace_rdp, subsampled_gaussian_rdp
from dpcert.accountant.rdp_spec import rdp_curve
from dpcert.mechanisms.catalog import make_mechanism


def test_k_fold_gaussian_is_the_hand_built_curve_and_above_balle_wang():
    curve, reason = rdp_curve(["gaussian:sigma=1*10"])
    assert reason == "" and curve.values == gaussian_rdp(1).repeat(10).values
    exact = gaussian_epsilon(sympy.sqrt(10), sympy.Rational(1, 10**5))  # Balle-Wang: 17.856586830
    assert curve.epsilon("1e-5").upper >= exact.upper


def test_heterogeneous_sequence_adds_at_common_orders_and_bounds_the_truth_from_above():
    specs = ["gaussian:sigma=2,q=1/10*20", "laplace:b=10*5"]
    curve, _ = rdp_curve(specs)
    by_hand = subsampled_gaussian_rdp(2, sympy.Rational(1, 10)).repeat(20).compose(laplace_rdp(10).repeat(5))
    assert curve.orders == by_hand.orders and curve.values == by_hand.values
    pld = compose(specs).epsilon("1e-6")
    assert curve.epsilon("1e-6").upper >= pld.lower


def test_finite_mechanism_is_its_exact_channel():
    mechanism = make_mechanism("unary-encoding", {"k": "3", "eps": "1"})
    outputs = list(mechanism.outputs())
    rows = [[mechanism.pmf(x).get(y, sympy.Integer(0)) for y in outputs] for x in mechanism.inputs()]
    curve, _ = rdp_curve(["unary-encoding:k=3,eps=1,pair=0/1*4"])
    assert curve.values == finite_rdp(rows).repeat(4).values


@pytest.mark.parametrize(("specs", "neighbours", "reason"), [
    (["gaussian:sigma=1,q=1/10*5"], "substitute", "add-remove"),
    (["laplace:b=1,q=1/10*5"], "add-remove", "subsampled Gaussian only"),
    (["discrete-laplace:b=2*3"], "add-remove", "no RDP curve"),
    (["approximate-dp:eps=1,delta=1/1000*3"], "add-remove", "no RDP curve"),
])
def test_not_offered_says_why(specs, neighbours, reason):
    curve, why = rdp_curve(specs, neighbours=neighbours)
    assert curve is None and reason in why
