"""Privacy curves and the f-DP trade-off curve against the Gaussian's closed forms.

References: k Gaussians of sigma = 1 compose to one of mu = sqrt(k) (Balle and Wang 2018; Dong, Roth, Su 2022),
whose exact delta(eps) dpcert.accountant.gaussian_composition encloses; the trade-off function of mu-GDP is
G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) (Dong, Roth, Su 2022, Definition 2.7), computed here with scipy.
"""

from __future__ import annotations

import pytest
import sympy
from scipy.stats import norm

from dpcert.accountant.gaussian_composition import gaussian_delta
from dpcert.accountant.pld_accountant import compose
from dpcert.accountant.pld_curves import default_eps_grid, plot_privacy_curve, privacy_curve, tradeoff_curve
from dpcert.mechanisms.parameters import InvalidParameterError


@pytest.fixture(scope="module")
def curve():
    return privacy_curve(compose(["gaussian:sigma=1*4"]), [0, "1/2", 1, 2, 4, 8, 12])


def test_every_point_encloses_the_exact_gaussian_delta(curve):
    for point in curve:
        truth = gaussian_delta(2, sympy.Rational(point.eps).limit_denominator(10**6))
        assert point.lower <= truth.upper and truth.lower <= point.upper, point
        assert point.upper - point.lower <= 0.05 * point.upper + 1e-300


def test_tradeoff_is_a_lower_bound_on_the_gaussian_tradeoff(curve):
    alphas = [0.001, 0.01, 0.1, 0.3, 0.6]
    for alpha, bound in tradeoff_curve(curve, alphas):
        truth = norm.cdf(norm.ppf(1 - alpha) - 2.0)  # G_2(alpha)
        assert 0 <= bound <= truth + 1e-12
    # a sanity check that the bound is not vacuous: at alpha = 0.1 it keeps most of G_2's type II error
    assert tradeoff_curve(curve, [0.1])[0][1] >= 0.5 * norm.cdf(norm.ppf(0.9) - 2.0)


def test_default_grid_reaches_delta_1e_12():
    grid = default_eps_grid(compose(["laplace:b=1*3"]), points=4)
    assert grid[0] == 0 and len(grid) == 4 and 2.9 < grid[-1] <= 3.0 + 1e-9  # 3-fold Laplace(1) is 3-DP


def test_plot_writes_a_png(tmp_path, curve):
    written = plot_privacy_curve(curve, tmp_path / "curve.png", title="test")
    assert written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("call", "message"), [
    (lambda: privacy_curve(compose(["gaussian:sigma=1"]), []), "eps_values must hold"),
    (lambda: privacy_curve(compose(["gaussian:sigma=1"]), [-1]), "eps must be in"),
    (lambda: tradeoff_curve([], [2]), "alpha must be in"),
    (lambda: default_eps_grid(compose(["gaussian:sigma=1"]), points=1), "points must be"),
])
def test_bad_input(call, message):
    with pytest.raises(InvalidParameterError, match=message):
        call()
