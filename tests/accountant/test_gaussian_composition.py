"""The composed Gaussian's exact privacy curve (accountant/gaussian_composition.py).

Reference values:

- mu = sqrt(10) (sigma = 1, sensitivity 1, k = 10), delta = 10^-5: eps = 17.856586830..., the exact
  reference stated in the issue that asked for this module. It is the Balle-Wang curve (ICML 2018, Theorem 8)
  at mu = sqrt(10), i.e. k = 10 mechanisms with sensitivity/sigma = 1 composed as mu = sqrt(k) (Dong, Roth,
  Su, Corollary 3.3); no other parametrisation is needed. 40 digits: 17.85658683010760...
- sigma = 20, k = 1000 (mu = sqrt(1000)/20 = sqrt(10)/2), delta = 10^-5: eps = 7.51127590074 (12 digits),
  computed when this module was written by bisection on mpmath's ncdf at 40 digits, and here again by
  :func:`reference_epsilon` (256 bits, 300 halvings), which shares no code with the module.

The reference curve :func:`reference_delta` is mpmath's round-to-nearest ncdf at 256 bits in a private
context: not rigorous, but independent of the module's interval series, and 10^-50 relative is far inside
the module's 2^-60 enclosures wherever the cancellation (about mu^2/eps) leaves it 50 digits.
"""

from __future__ import annotations

import time

import mpmath
import pytest
import sympy

from dpcert.accountant.gaussian_composition import (
    DELTA_RANGE,
    EPS_RANGE,
    MU_RANGE,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_mu,
)
from dpcert.mechanisms.mp_contexts import real_context
from dpcert.mechanisms.parameters import InvalidParameterError, to_exact

REAL = real_context(256)


def _mp(value) -> mpmath.mpf:
    """An exact value (or a string read as dpcert reads it: "1e-6" is 10^-6) at 256 bits."""
    if hasattr(value, "_mpf_"):  # an mpf of any context
        return REAL.mpf(value)
    return REAL.mpf(str(to_exact("value", value).evalf(90)))


def reference_delta(mu, eps) -> mpmath.mpf:
    m, e = _mp(mu), _mp(eps)
    return REAL.ncdf(m / 2 - e / m) - REAL.exp(e) * REAL.ncdf(-m / 2 - e / m)


def reference_epsilon(mu, delta) -> mpmath.mpf:
    """Bisection on [0, 10^3] (the reference values lie below 20), 300 halvings."""
    low, high, target = REAL.mpf(0), REAL.mpf(1000), _mp(delta)
    for _ in range(300):
        middle = (low + high) / 2
        low, high = (middle, high) if reference_delta(mu, middle) > target else (low, middle)
    return high


def contains(result, truth) -> bool:
    return _mp(result.lower_value) <= truth <= _mp(result.upper_value)


# ---------------------------------------------------------------------------------------------
# Reference values
# ---------------------------------------------------------------------------------------------

def test_issue_reference_ten_unit_gaussians():
    mu = gaussian_mu([(1, 1, 10)])
    assert mu == sympy.sqrt(10)
    result = gaussian_epsilon(mu, sympy.Rational(1, 10**5))
    assert result.bounds == "exact" and result.units == "eps" and result.valid
    # the issue's 17.856586830... (its digits, truncated): the enclosure lies in [17.856586830, 17.856586831]
    assert 17.856586830 <= result.lower <= result.upper <= 17.856586831
    assert abs(_mp(result.value) / REAL.mpf("17.856586830107599") - 1) < 1e-13
    assert contains(result, reference_epsilon(mu, sympy.Rational(1, 10**5)))


def test_thousand_gaussians_of_sigma_20():
    mu = gaussian_mu([(1, 20, 1000)])
    assert mu == sympy.sqrt(10) / 2
    result = gaussian_epsilon(mu, "1e-5")
    assert contains(result, reference_epsilon(mu, sympy.Rational(1, 10**5)))
    assert int(result.lower * 10**11) == int(result.upper * 10**11) == 751127590074  # 7.51127590074 (12 digits)


def test_enclosure_is_tight_and_certified():
    mu, delta = sympy.sqrt(10), sympy.Rational(1, 10**5)
    result = gaussian_epsilon(mu, delta)
    lower, upper = result.lower_value, result.upper_value
    assert 0 < upper - lower <= sympy.Rational(1, 10**12) * lower
    assert result.value == upper  # the safe side
    # delta(eps(delta)) = delta: the ends are on either side of delta, by the module's own enclosures
    assert gaussian_delta(mu, lower).lower > 1e-5 > gaussian_delta(mu, upper).upper
    assert reference_delta(mu, lower) > _mp(delta) > reference_delta(mu, upper)


# ---------------------------------------------------------------------------------------------
# delta(eps) against the reference over the answerable range
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mu", ["1e-6", "1e-3", "1/2", "sqrt(10)", "10", "1e4"])
@pytest.mark.parametrize("eps", ["0", "1e-300", "1/3", "17", "1000", "1e6"])
def test_delta_encloses_the_reference(mu, eps):
    result = gaussian_delta(mu, eps)
    assert result.bounds == "exact" and result.units == "probability"
    truth = reference_delta(mu, eps)
    assert contains(result, truth)
    low, high = result.enclosure
    if low > 1e-300:  # not below the float range: the float enclosure is two ulps wide
        assert high - low <= 1e-15 * high


@pytest.mark.parametrize("bits", [128, 1024])
def test_normal_tail_on_both_sides_of_the_switch(bits):
    """The series and the asymptotic expansion (switched at t^2 = bits ln 2) each enclose Phi(-t): a white-box
    check of the private helper, at points on both sides of the switch and for negative t."""
    from dpcert.accountant.gaussian_composition import _tail
    from dpcert.mechanisms.mp_contexts import interval_context
    ctx = interval_context(bits)
    switch = (bits * 0.6931471805599453) ** 0.5
    for t in (-40, -switch - 0.01, -switch + 0.01, -1, 0, "1e-9", 1, switch - 0.01, switch + 0.01, 40, "1e6"):
        finer = real_context(2 * bits)
        low, high = (finer.mpf(end) for end in _tail(ctx, ctx.mpf(t))._mpi_)
        truth = finer.ncdf(-finer.mpf(t))
        assert low <= truth <= high
        assert high - low <= 2.0 ** (-bits // 2 + 20) * truth  # prec/2 - 12 (128) to - 16 (1024) bits at worst


def test_delta_closed_form_value():
    result = gaussian_delta(2, 1)
    z = sympy.Integer(1) - sympy.Rational(1, 2)  # mu/2 - eps/mu
    expected = sympy.erfc(-z / sympy.sqrt(2)) / 2 - sympy.E * sympy.erfc((1 + sympy.Rational(1, 2)) / sympy.sqrt(2)) / 2
    assert sympy.simplify(result.value - expected) == 0
    assert result.lower <= float(expected.evalf(30)) <= result.upper


def test_delta_below_the_float_range_is_still_enclosed():
    """delta(10^6) at mu = 10^-6 is about 10^-(2.2 10^23): its floats are [0, smallest subnormal]."""
    result = gaussian_delta("1e-6", "1e6")
    assert result.enclosure == (0.0, 5e-324)


# ---------------------------------------------------------------------------------------------
# Monotonicity and the ends of the curve
# ---------------------------------------------------------------------------------------------

def test_delta_decreases_in_eps_and_increases_in_mu():
    enclosures = [gaussian_delta(3, eps).enclosure for eps in (0, "0.1", 1, 2, 5, 10)]
    assert all(later[1] < earlier[0] for earlier, later in zip(enclosures, enclosures[1:]))
    by_mu = [gaussian_delta(mu, 1).enclosure for mu in ("0.5", 1, 2, 4)]
    assert all(later[0] > earlier[1] for earlier, later in zip(by_mu, by_mu[1:]))


def test_epsilon_decreases_in_delta_and_increases_in_mu():
    by_delta = [gaussian_epsilon(2, d) for d in ("1e-12", "1e-8", "1e-5", "1e-2")]
    assert all(later.upper < earlier.lower for earlier, later in zip(by_delta, by_delta[1:]))
    by_mu = [gaussian_epsilon(mu, "1e-6") for mu in ("0.1", 1, 10, 100)]
    assert all(later.lower > earlier.upper for earlier, later in zip(by_mu, by_mu[1:]))


def test_epsilon_is_zero_when_delta_covers_delta_at_zero():
    # delta(0) = 2 Phi(mu/2) - 1 = 0.0003989... at mu = 10^-3
    result = gaussian_epsilon("1e-3", "1e-3")
    assert result.value == 0 and result.lower_value == result.upper_value == 0
    assert gaussian_epsilon("1e-3", "3e-4").lower > 0


@pytest.mark.parametrize("mu, delta", [("1e-6", "1e-300"), ("1e-6", "3.9e-7"), ("1e4", "1e-300"),
                                       ("1e4", "0.999999"), ("1/7", "1/30")])
def test_epsilon_corners_round_trip(mu, delta):
    result = gaussian_epsilon(mu, delta)
    lower, upper = result.lower_value, result.upper_value
    assert 0 < upper - lower <= sympy.Rational(1, 10**12) * lower
    assert reference_delta(mu, lower) > _mp(delta) > reference_delta(mu, upper)


def test_composition_is_one_gaussian():
    assert gaussian_mu([(1, 1, 4), (1, 1, 6)]) == gaussian_mu([(1, 1, 10)]) == sympy.sqrt(10)
    assert gaussian_mu([(2, 1, 1), (1, 2, 4)]) == sympy.sqrt(5)  # 4 + 4 * 1/4
    assert gaussian_mu([("1/3", "sqrt(2)", 2)]) == sympy.Rational(1, 3)
    big = gaussian_mu([(1, 10**40 + 1, 1)])  # a 41-digit sigma: sqrt left unevaluated, instantly
    assert sympy.Rational(1, 10**41) < big < sympy.Rational(1, 10**40)


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mu", [0, -1, "1e-7", "1e5", "nan", "abc", True])
def test_bad_mu(mu):
    with pytest.raises(InvalidParameterError, match="mu"):
        gaussian_delta(mu, 1)
    with pytest.raises(InvalidParameterError, match="mu"):
        gaussian_epsilon(mu, "1e-5")


def test_range_messages_name_the_range():
    with pytest.raises(InvalidParameterError, match=r"mu must be in \[10\^-6, 10000\]"):
        gaussian_delta("1e-7", 1)
    with pytest.raises(InvalidParameterError, match=r"eps must be in \[0, 10\^6\]"):
        gaussian_delta(1, -1)
    with pytest.raises(InvalidParameterError, match=r"eps must be in \[0, 10\^6\]"):
        gaussian_delta(1, "1e7")
    with pytest.raises(InvalidParameterError, match=r"delta must be in \[10\^-300, 1\)"):
        gaussian_epsilon(1, 0)
    assert MU_RANGE == (sympy.Rational(1, 10**6), 10**4) and EPS_RANGE == (0, 10**6)
    assert DELTA_RANGE == (sympy.Rational(1, 10**300), 1)


@pytest.mark.parametrize("delta", [0, 1, 2, "-1e-5", "1e-301"])
def test_bad_delta(delta):
    with pytest.raises(InvalidParameterError, match="delta"):
        gaussian_epsilon(1, delta)


@pytest.mark.parametrize("pairs, name", [
    ([], "pairs"),
    ([(1, 1)], r"pairs\[0\]"),
    ([5], r"pairs\[0\]"),
    ([(0, 1, 1)], "sensitivity"),
    ([(1, 0, 1)], "sigma"),
    ([(1, -2, 1)], "sigma"),
    ([(1, 1, 0)], "count"),
    ([(1, 1, "1.5")], "count"),
    ([(1, 1, 3), (1, 1, True)], r"pairs\[1\] count"),
])
def test_bad_pairs(pairs, name):
    with pytest.raises(InvalidParameterError, match=name):
        gaussian_mu(pairs)


def test_runtime():
    start = time.perf_counter()
    gaussian_epsilon("1e-6", "1e-300")
    gaussian_epsilon("1e4", "1e-300")
    gaussian_delta("1e-6", "1e6")
    assert time.perf_counter() - start < 2.0
