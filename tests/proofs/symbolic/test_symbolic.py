"""Tests for dpcert.proofs.symbolic: family claims for every parameter value, closed-form checks of instances."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcert.mechanisms import (
    CATALOG,
    ContinuousMechanism,
    ExponentialMechanism,
    Gaussian,
    Geometric,
    GeometricRenormalized,
    InvalidParameterError,
    KaryRandomizedResponse,
    Laplace,
    LaplaceWrongScale,
    RandomizedResponse,
    UnaryEncoding,
    WithinDistance,
    exact_sign,
)
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.exact import hockey_stick_delta, tightest_epsilon
from dpcert.proofs.guarantees import ApproxDP, MetricDP, PureDP
from dpcert.proofs.symbolic import FAMILIES, FamilyResult, check_family, check_symbolic, gaussian_delta, laplace_delta



@pytest.fixture(autouse=True, scope="module")
def _forty_digits():
    """Independent numerics at 40 digits, restored afterwards for the rest of the suite."""
    with mpmath.workdps(40):
        yield


# Small denominators keep the exact checker's zero tests (e^(a/b) against e^(c/d)) fast.
EXACT_EPS = st.fractions(min_value=Fraction(1, 10), max_value=Fraction(5), max_denominator=12).filter(
    lambda f: Fraction(1, 10) < f < 5)


def _equal(a: sympy.Expr, b: sympy.Expr) -> bool:
    return exact_sign(sympy.sympify(a) - sympy.sympify(b)) == 0


def _mp(value: sympy.Expr) -> mpmath.mpf:
    return mpmath.mpf(sympy.N(value, 50))


# ----------------------------------------------------------------------------------------------
# Independent numerics: densities written out here, integrated with mpmath.quad.


def _laplace_pdf(b):
    b = _mp(b)
    return lambda y, x: mpmath.exp(-abs(y - x) / b) / (2 * b)


def _gaussian_pdf(sigma):
    sigma = _mp(sigma)
    return lambda y, x: mpmath.npdf(y, x, sigma)


def _hockey_stick(pdf, eps, shift, kinks):
    """integral of max(p(y | 0) - e^eps p(y | shift), 0) dy, split at the given kinks and at the crossing.

    The crossing (where the log-ratio falls through eps; the integrand has a kink there) is located by
    bisection on the numerical log-ratio, independently of any closed form.
    """
    e, d = _mp(eps), _mp(shift)
    t = mpmath.exp(e)
    excess = lambda y: mpmath.log(pdf(y, 0)) - mpmath.log(pdf(y, d)) - e  # noqa: E731
    points = [_mp(k) for k in kinks]
    lo, hi = mpmath.mpf(-200), mpmath.mpf(200)
    if excess(lo) > 0 > excess(hi):
        for _ in range(160):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
        points.append(lo)
    return mpmath.quad(lambda y: max(pdf(y, 0) - t * pdf(y, d), 0), [-mpmath.inf, *sorted(points), mpmath.inf])


def _probability_below(pdf, x, c):
    return mpmath.quad(lambda y: pdf(y, _mp(x)), [-mpmath.inf, min(_mp(c), _mp(x)), _mp(c)])


# ----------------------------------------------------------------------------------------------
# check_family: every claim's verdict


@pytest.mark.parametrize("name", ["randomized-response", "k-rr", "unary-encoding", "geometric", "laplace"])
def test_correct_families_are_proved_tight(name):
    result = check_family(name)
    assert isinstance(result, FamilyResult)
    assert result.verdict is Verdict.PROVED, result.evidence
    assert "tight" in result.evidence and "not tight" not in result.evidence
    assert result.counterexample is None


def test_unary_encoding_family_covers_both_variants():
    evidence = check_family("unary-encoding").evidence
    assert "sue:" in evidence and "oue:" in evidence


def test_laplace_wrong_scale_family_is_refuted_with_a_counterexample_that_violates_the_claim():
    result = check_family("laplace-wrong-scale")
    assert result.verdict is Verdict.REFUTED
    values = result.counterexample
    assert set(values) == {"eps", "sensitivity"}
    # LaplaceWrongScale has scale b = eps, so its worst loss is sensitivity / eps (Dwork and Roth 2014,
    # Theorem 3.6 with the wrong scale); it must exceed eps at the counterexample.
    assert values["sensitivity"] / values["eps"] > values["eps"]
    concrete = check_symbolic(LaplaceWrongScale(eps=values["eps"], sensitivity=values["sensitivity"]),
                              PureDP(values["eps"]))
    assert concrete.verdict is Verdict.REFUTED and concrete.recheck()
    assert values == {"eps": sympy.Rational(1, 2), "sensitivity": 1}


def test_gaussian_pure_family_is_refuted_for_every_parameter():
    result = check_family("gaussian", "pure")
    assert result.verdict is Verdict.REFUTED
    assert "oo" in result.evidence and "every parameter value" in result.evidence
    values = result.counterexample
    assert check_symbolic(Gaussian(**values), PureDP(10)).verdict is Verdict.REFUTED


def test_gaussian_approx_family_is_proved_by_a_symbolic_identity():
    result = check_family("gaussian", "approx")
    assert result.verdict is Verdict.PROVED, result.evidence
    assert result.evidence.startswith("symbolic identity")
    assert "Theorem 8" in result.evidence


def test_families_are_catalogued_mechanisms():
    assert set(FAMILIES) == {"randomized-response", "k-rr", "unary-encoding", "geometric", "laplace",
                             "laplace-wrong-scale", "gaussian"}
    assert set(FAMILIES) <= set(CATALOG)


def test_family_check_detects_a_broken_formula(monkeypatch):
    """Power check: a unary encoding whose SUE uses e^eps instead of e^(eps/2) has ratio e^(2 eps)."""

    def broken(self):
        t = sympy.exp(self.eps)
        return t / (t + 1), 1 / (t + 1)

    monkeypatch.setattr(UnaryEncoding, "bit_probabilities", property(broken))
    result = check_family("unary-encoding")
    assert result.verdict is Verdict.REFUTED
    eps = result.counterexample["eps"]
    assert check_symbolic(UnaryEncoding(k=3, eps=eps, variant="sue"), PureDP(eps)).verdict is Verdict.REFUTED


def test_geometric_family_refuses_a_formula_that_disagrees_with_the_pmf(monkeypatch):
    monkeypatch.setattr(Geometric, "pmf", GeometricRenormalized.pmf)
    assert check_family("geometric").verdict is Verdict.UNKNOWN


# ----------------------------------------------------------------------------------------------
# check_symbolic on additive noise


@pytest.mark.parametrize("eps, sensitivity", [(1, 1), ("1/2", 3), ("log(3)", "1/4")])
def test_laplace_is_proved_with_its_exact_epsilon(eps, sensitivity):
    mechanism = Laplace(eps=eps, sensitivity=sensitivity)
    certificate = check_symbolic(mechanism, PureDP(eps))
    assert certificate.verdict is Verdict.PROVED and certificate.method == "symbolic"
    assert _equal(certificate.epsilon, mechanism.eps)
    assert certificate.recheck()


def test_laplace_with_a_smaller_claim_is_refuted_by_y_at_most_0():
    mechanism = Laplace(eps=1, sensitivity=2)
    certificate = check_symbolic(mechanism, PureDP("1/2"))
    assert certificate.verdict is Verdict.REFUTED and _equal(certificate.epsilon, 1)
    w = certificate.witness
    assert (w.x, w.x_prime, w.output) == (0, 2, "y <= 0")
    pdf = _laplace_pdf(mechanism.scale)
    assert abs(_probability_below(pdf, 0, 0) - _mp(w.p)) < 1e-30
    assert abs(_probability_below(pdf, 2, 0) - _mp(w.p_prime)) < 1e-30
    assert _probability_below(pdf, 0, 0) > mpmath.exp(mpmath.mpf(1) / 2) * _probability_below(pdf, 2, 0)
    assert certificate.recheck()


def test_laplace_wrong_scale_is_refuted_with_the_loss_2():
    certificate = check_symbolic(LaplaceWrongScale(eps="1/2", sensitivity=1), PureDP("1/2"))
    assert certificate.verdict is Verdict.REFUTED
    assert certificate.epsilon == 2
    assert certificate.recheck()


def test_laplace_wrong_scale_holds_when_eps_squared_covers_the_sensitivity():
    certificate = check_symbolic(LaplaceWrongScale(eps=2, sensitivity=3), PureDP(2))
    assert certificate.verdict is Verdict.PROVED and certificate.epsilon == sympy.Rational(3, 2)


@pytest.mark.parametrize("sigma, sensitivity, eps", [(2, 1, 1), ("1/2", "3/2", "1/3"), (5, 2, 4)])
def test_gaussian_is_never_pure_dp_and_its_witness_violates_the_claim(sigma, sensitivity, eps):
    mechanism = Gaussian(sigma=sigma, sensitivity=sensitivity)
    certificate = check_symbolic(mechanism, PureDP(eps))
    assert certificate.verdict is Verdict.REFUTED and certificate.epsilon == sympy.oo
    w = certificate.witness
    assert w.output.startswith("y <= ") and w.x == 0 and w.x_prime == mechanism.sensitivity
    c = sympy.Rational(w.output.removeprefix("y <= "))
    pdf = _gaussian_pdf(mechanism.sigma)
    p, q = _probability_below(pdf, 0, c), _probability_below(pdf, mechanism.sensitivity, c)
    assert abs(p - _mp(w.p)) < 1e-25 and abs(q - _mp(w.p_prime)) < 1e-25
    assert p > mpmath.exp(_mp(PureDP(eps).eps)) * q
    assert certificate.recheck()


@pytest.mark.parametrize("eps, sigma, sensitivity", [(1, 1, 1), ("1/2", 2, 1), (3, "7/10", "3/2"), ("1/10", 4, 2)])
def test_gaussian_delta_equals_the_hockey_stick_integral(eps, sigma, sensitivity):
    """Balle and Wang (ICML 2018), Theorem 8: delta(eps) is the hockey-stick divergence of N(0, s^2), N(D, s^2).

    Reference value: an independent mpmath.quad of max(p(y|0) - e^eps p(y|D), 0) (40 digits), tolerance 1e-12.
    """
    delta = gaussian_delta(eps, sigma, sensitivity)
    numeric = _hockey_stick(_gaussian_pdf(sympy.sympify(sigma)), sympy.sympify(eps), sympy.sympify(sensitivity), [])
    assert abs(_mp(delta) - numeric) < 1e-12
    assert numeric > 1e-6  # the comparison is not between two zeros


@pytest.mark.parametrize("eps", ["1/10", "1/2", "1", "7/5"])
def test_laplace_delta_equals_the_hockey_stick_integral(eps):
    """delta(eps) = 1 - exp((eps - eps0)/2) for eps < eps0 = D/b, checked by mpmath.quad to 1e-12."""
    mechanism = Laplace(eps="3/2", sensitivity=2)
    delta = laplace_delta(eps, mechanism.scale, mechanism.sensitivity)
    numeric = _hockey_stick(_laplace_pdf(mechanism.scale), sympy.sympify(eps), 2, [0, 2])
    assert abs(_mp(delta) - numeric) < 1e-12
    assert numeric > 1e-6


def test_laplace_delta_is_zero_from_the_pure_epsilon_on():
    assert laplace_delta(2, 1, 2) == 0 and laplace_delta(3, 1, 2) == 0
    assert laplace_delta("19/10", 1, 2) > 0


@pytest.mark.parametrize("mechanism", [Gaussian(sigma=2), Gaussian(sigma="1/2", sensitivity="3/2"),
                                       Laplace(eps=1, sensitivity=2), LaplaceWrongScale(eps="1/2")],
                         ids=lambda m: m.describe())
@pytest.mark.parametrize("eps", ["1/4", "3/4"])
def test_approx_dp_of_additive_noise_is_decided_at_the_exact_delta(mechanism, eps):
    exact = check_symbolic(mechanism, ApproxDP(eps, 0)).delta
    assert exact is not None and exact > 0
    above = check_symbolic(mechanism, ApproxDP(eps, sympy.Min(exact * 2, sympy.Rational(999, 1000))))
    assert above.verdict is Verdict.PROVED and _equal(above.delta, exact) and above.recheck()
    below = check_symbolic(mechanism, ApproxDP(eps, exact / 2))
    assert below.verdict is Verdict.REFUTED and below.recheck()
    w = below.witness
    assert w.p - sympy.exp(below.guarantee.eps) * w.p_prime > below.guarantee.delta
    c = sympy.Rational(w.output.removeprefix("y <= "))
    pdf = (_gaussian_pdf(mechanism.sigma) if isinstance(mechanism, Gaussian) else _laplace_pdf(mechanism.scale))
    p, q = _probability_below(pdf, 0, c), _probability_below(pdf, mechanism.sensitivity, c)
    assert abs(p - mpmath.exp(_mp(below.guarantee.eps)) * q - _mp(exact)) < 1e-12


def test_gaussian_approx_delta_is_balle_wang():
    certificate = check_symbolic(Gaussian(sigma=3, sensitivity=2), ApproxDP("1/2", "1/5"))
    assert certificate.verdict is Verdict.PROVED
    assert _equal(certificate.delta, gaussian_delta("1/2", 3, 2))


@given(eps=EXACT_EPS, claim=EXACT_EPS)
@settings(max_examples=8, deadline=None)
def test_laplace_approx_delta_matches_numerical_integration(eps, claim):
    mechanism = Laplace(eps=eps, sensitivity=1)
    certificate = check_symbolic(mechanism, ApproxDP(claim, 0))
    numeric = _hockey_stick(_laplace_pdf(mechanism.scale), sympy.Rational(claim), 1, [0, 1])
    assert abs(_mp(certificate.delta) - numeric) < 1e-12
    assert (certificate.verdict is Verdict.PROVED) == (claim >= eps)
    assert certificate.recheck()


# ----------------------------------------------------------------------------------------------
# check_symbolic on finite families: agreement with the exact checker


@given(eps=EXACT_EPS, k=st.integers(2, 6))
@settings(max_examples=6, deadline=None)
def test_symbolic_epsilon_equals_exact_epsilon(eps, k):
    mechanisms = [KaryRandomizedResponse(k=k, eps=eps), UnaryEncoding(k=k, eps=eps, variant="sue"),
                  UnaryEncoding(k=k, eps=eps, variant="oue"), Geometric(eps=eps, lo=-1, hi=k - 1),
                  RandomizedResponse(eps=eps)]
    for mechanism in mechanisms:
        symbolic = check_symbolic(mechanism, PureDP(eps))
        exact = tightest_epsilon(mechanism)
        assert symbolic.verdict is Verdict.PROVED, mechanism.describe()
        assert exact_sign(symbolic.epsilon - exact.epsilon) == 0, mechanism.describe()
        assert symbolic.recheck()


@given(eps=EXACT_EPS, claim=EXACT_EPS, k=st.integers(2, 5))
@settings(max_examples=6, deadline=None)
def test_symbolic_delta_equals_exact_hockey_stick(eps, claim, k):
    for mechanism in (KaryRandomizedResponse(k=k, eps=eps), UnaryEncoding(k=k, eps=eps, variant="sue"),
                      Geometric(eps=eps, lo=0, hi=k)):
        certificate = check_symbolic(mechanism, ApproxDP(claim, 0))
        assert exact_sign(certificate.delta - hockey_stick_delta(mechanism, claim)) == 0, mechanism.describe()
        assert (certificate.verdict is Verdict.PROVED) == (exact_sign(certificate.delta) == 0)
        assert certificate.recheck()


@pytest.mark.parametrize("mechanism", [KaryRandomizedResponse(k=4, eps=1), UnaryEncoding(k=5, eps="log(3)"),
                                       UnaryEncoding(k=3, eps="1/2", variant="sue"), Geometric(eps="2/3", lo=2, hi=6),
                                       RandomizedResponse(eps="log(2)")], ids=lambda m: m.describe())
def test_finite_refutation_witness_is_checked_against_the_pmf(mechanism):
    claim = mechanism.eps * sympy.Rational(9, 10)
    certificate = check_symbolic(mechanism, PureDP(claim))
    assert certificate.verdict is Verdict.REFUTED and certificate.recheck()
    w = certificate.witness
    if isinstance(w.output, str):  # an event of unary encoding: y[0] = a and y[1] = b, other bits any
        a, b = (int(bit) for bit in re.findall(r"= (\d)", w.output))
        rows = [mechanism.pmf(x) for x in (w.x, w.x_prime)]
        p, q = (sympy.Add(*(v for y, v in row.items() if (y[0], y[1]) == (a, b))) for row in rows)
    else:
        p, q = mechanism.pmf(w.x)[w.output], mechanism.pmf(w.x_prime)[w.output]
    assert _equal(p, w.p) and _equal(q, w.p_prime)
    assert exact_sign(p - sympy.exp(claim) * q) > 0


def test_unary_encoding_with_a_million_values():
    mechanism = UnaryEncoding(k=10**6, eps="3/2", variant="sue")
    proved = check_symbolic(mechanism, PureDP("3/2"))
    assert proved.verdict is Verdict.PROVED and proved.epsilon == sympy.Rational(3, 2) and proved.recheck()
    refuted = check_symbolic(mechanism, PureDP(1))
    assert refuted.verdict is Verdict.REFUTED and refuted.recheck()
    approx = check_symbolic(KaryRandomizedResponse(k=10**6, eps=2), ApproxDP(1, "1/10"))
    assert approx.verdict is Verdict.PROVED and approx.recheck()


# ----------------------------------------------------------------------------------------------
# Certificates re-check, and tampering is caught


def _certificates():
    return [
        check_symbolic(Laplace(eps=1, sensitivity=2), PureDP(1)),
        check_symbolic(Laplace(eps=1, sensitivity=2), PureDP("1/2")),
        check_symbolic(Gaussian(sigma=2), PureDP(1)),
        check_symbolic(Gaussian(sigma=2), ApproxDP(1, "1/10")),
        check_symbolic(Gaussian(sigma=2), ApproxDP(1, "1/1000")),
        check_symbolic(KaryRandomizedResponse(k=3, eps=1), PureDP(1)),
        check_symbolic(KaryRandomizedResponse(k=3, eps=1), PureDP("1/2")),
        check_symbolic(Geometric(eps=1), ApproxDP("1/2", "1/100")),
        check_symbolic(Geometric(eps=1), ApproxDP("1/2", "1/2")),
    ]


def test_every_certificate_rechecks():
    for certificate in _certificates():
        assert certificate.verdict is not Verdict.UNKNOWN
        assert certificate.replay is not None and certificate.recheck(), certificate.evidence


def test_tampered_certificates_fail_recheck():
    for certificate in _certificates():
        if certificate.witness is not None:
            w = dataclasses.replace(certificate.witness, p=certificate.witness.p * sympy.Rational(1, 2))
            tampered = dataclasses.replace(certificate, witness=w)
        elif certificate.delta is not None:
            tampered = dataclasses.replace(certificate, delta=certificate.delta / 2)
        else:
            tampered = dataclasses.replace(certificate, epsilon=certificate.epsilon / 2)
        assert not tampered.recheck(), certificate.evidence


def test_a_proof_rechecked_against_a_different_mechanism_fails():
    certificate = check_symbolic(Laplace(eps=1, sensitivity=2), PureDP(1))
    assert not dataclasses.replace(certificate, mechanism=LaplaceWrongScale(eps=1, sensitivity=2)).recheck()
    finite = check_symbolic(KaryRandomizedResponse(k=3, eps=1), PureDP(1))
    assert not dataclasses.replace(finite, mechanism=KaryRandomizedResponse(k=3, eps=2)).recheck()


# ----------------------------------------------------------------------------------------------
# UNKNOWN instead of an exception; invalid input


@dataclasses.dataclass(frozen=True)
class _Cauchy(ContinuousMechanism):
    """Cauchy noise: its privacy loss is not piecewise linear, so the checker cannot decide it."""

    name = "cauchy"
    sensitivity: sympy.Expr = sympy.Integer(1)

    @property
    def neighbours(self):
        return WithinDistance(self.sensitivity)

    def density(self, y, x):
        return 1 / (sympy.pi * (1 + (y - x) ** 2))

    def sample(self, x, size, rng):
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class _Drifting(_Cauchy):
    """Noise whose scale depends on the input: not translation invariant."""

    name = "drifting"

    def density(self, y, x):
        return sympy.exp(-sympy.Abs(y - x) / (1 + x**2)) / (2 * (1 + x**2))


@pytest.mark.parametrize("mechanism, guarantee", [
    (ExponentialMechanism(eps=1, sensitivity=1, utilities=((0, 1), (1, 0))), PureDP(1)),
    (GeometricRenormalized(eps=1, lo=0, hi=4), PureDP(1)),
    (_Cauchy(), PureDP(1)),
    (_Drifting(), PureDP(1)),
    (_Cauchy(), ApproxDP(1, "1/10")),
], ids=["exponential", "geometric-renormalized", "cauchy", "drifting", "cauchy-approx"])
def test_undecidable_checks_return_unknown(mechanism, guarantee):
    certificate = check_symbolic(mechanism, guarantee)
    assert certificate.verdict is Verdict.UNKNOWN and certificate.evidence
    assert certificate.recheck()


@pytest.mark.parametrize("call", [
    lambda: check_symbolic("laplace", PureDP(1)),
    lambda: check_symbolic(Laplace(eps=1), "1-DP"),
    lambda: check_symbolic(Laplace(eps=1), MetricDP(1)),
    lambda: check_symbolic(KaryRandomizedResponse(k=3, eps=1), MetricDP(1)),
    lambda: check_family("no-such-family"),
    lambda: check_family("laplace", "approx"),
    lambda: check_family("gaussian", "renyi"),
    lambda: gaussian_delta(1, -1, 1),
    lambda: gaussian_delta(0, 1, 1),
    lambda: gaussian_delta(1, sympy.Symbol("x"), 1),
    lambda: laplace_delta(1, 0, 1),
], ids=["mechanism", "guarantee", "metric-continuous", "metric-finite", "family", "kind", "kind-gaussian",
        "sigma", "eps", "symbol-of-unknown-sign", "scale"])
def test_invalid_arguments_raise(call):
    with pytest.raises(InvalidParameterError):
        call()


def test_gaussian_delta_accepts_positive_symbols():
    eps, sigma = sympy.symbols("eps sigma", positive=True)
    expr = gaussian_delta(eps, sigma, 1)
    assert expr.free_symbols == {eps, sigma}
    assert _equal(expr.subs({eps: 1, sigma: 2}), gaussian_delta(1, 2, 1))
