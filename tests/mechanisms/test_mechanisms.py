"""The mechanism contract, run over every concrete finite mechanism, plus per-mechanism references.

Statistical tests (marked ``statistical``) use fixed seeds; each states its false-failure probability
and is paired with a power check that the same test rejects a deliberately broken variant.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.stats
import sympy

from conftest import as_fraction, concrete_subclasses

from dpcert.mechanisms import (
    CATALOG,
    ContinuousMechanism,
    FiniteMechanism,
    Gaussian,
    Geometric,
    GeometricRenormalized,
    InvalidParameterError,
    KaryRandomizedResponse,
    Laplace,
    LaplaceWrongScale,
    RandomizedResponse,
    UnaryEncoding,
    make_mechanism,
)
from dpcert.mechanisms.price_of_privacy import MembershipQuery
from dpcert.mechanisms.metric_user_level import GeneralizedKRR, PrivEMDItemWise
from dpcert.mechanisms.online_recommendation import PRECSim, PRECTranscript, lemma_8_chain

R = sympy.Rational

# (catalogue name, parameters as the command line passes them). Every finite catalogue entry appears.
FINITE_EXAMPLES = [
    ("hadamard-response", {"k": "3", "eps": "1/2"}),
    ("hadamard-response", {"k": "5", "eps": "log(2)"}),
    ("randomized-response", {"eps": "log(3)"}),
    ("randomized-response", {"eps": "1"}),
    ("leaky-rr", {"eps": "log(2)", "delta0": "1/100"}),
    ("leaky-rr", {"eps": "1", "delta0": "1/2"}),
    ("k-rr", {"k": "4", "eps": "1/2"}),
    ("k-rr", {"k": "3", "eps": "log(2)"}),
    ("unary-encoding", {"k": "3", "eps": "1", "variant": "sue"}),
    ("unary-encoding", {"k": "3", "eps": "log(3)", "variant": "oue"}),
    ("geometric", {"eps": "log(2)", "lo": "-2", "hi": "3"}),
    ("geometric", {"eps": "1/2", "lo": "0", "hi": "4"}),
    ("geometric-renormalized", {"eps": "log(2)", "lo": "0", "hi": "4"}),
    ("exponential", {"eps": "1", "utilities": "[[0, 1, 2], [1, 1, 0], [2, 0, 1]]"}),
    ("exponential", {"eps": "3/2", "sensitivity": "2", "utilities": "[[0, \"1/2\"], [2, 0], [0, 0]]"}),
    ("pairwise-preference-sketch", {"N": "4", "w": "2", "eps": "1", "pair": "0,3"}),
    ("rated-pair-sketch", {"N": "4", "w": "2", "eps": "log(3)"}),
    ("rated-pair-sketch-public-items", {"eps": "1/2", "items": "0,2,4"}),
    ("maxsense-sketch", {"N": "4", "w": "2", "eps": "1", "sensing": "0110"}),
    ("multi-maxsense-sketch", {"N": "5", "w": "1", "eps": "2", "blocks": "0 1|2|3"}),
    ("membership-query", {"N": "3", "A": "[[0, 1], [2, 0]]"}),
    ("gkrr", {"alpha0": "1", "s": "2", "t": "2", "r": "1/4"}),
    ("gkrr", {"alpha0": "log(3)", "s": "3", "t": "2", "r": "1/3"}),
]


def example_id(example) -> str:
    name, raw = example
    return name + "[" + ",".join(f"{k}={v}" for k, v in raw.items() if k != "utilities") + "]"


def _prec_transcript() -> PRECTranscript:
    """p-REC_sim (m = 2, T = 3) on Lemma 8's chain with P = 2: its voting profiles are the inputs."""
    chain = lemma_8_chain(3, 2)
    return PRECTranscript(PRECSim(2, 3), chain.instances, chain.profiles)


# Finite mechanisms that take composite objects, so the command line's catalogue cannot build them.
BUILT_EXAMPLES = {
    "priv-emd-itemwise[gkrr(1,2,2,1/4),m=2]": lambda: PrivEMDItemWise(GeneralizedKRR(1, 2, 2, R(1, 4)), 2),
    "priv-emd-itemwise[k-rr(3,log2),m=3]": lambda: PrivEMDItemWise(KaryRandomizedResponse(3, sympy.log(2)), 3),
    "p-rec-transcript[sim,T=3,P=2]": _prec_transcript,
}


@pytest.fixture(params=[*FINITE_EXAMPLES, *BUILT_EXAMPLES],
                ids=[*(example_id(e) for e in FINITE_EXAMPLES), *BUILT_EXAMPLES])
def finite_mechanism(request) -> FiniteMechanism:
    if isinstance(request.param, str):
        return BUILT_EXAMPLES[request.param]()
    name, raw = request.param
    return make_mechanism(name, raw=raw)


def test_example_tables_cover_every_finite_mechanism():
    """Every concrete FiniteMechanism in dpcert.mechanisms (catalogued or not) runs through the contract."""
    finite = {name for name, entry in CATALOG.items() if issubclass(entry.factory, FiniteMechanism)}
    continuous = {name for name, entry in CATALOG.items() if issubclass(entry.factory, ContinuousMechanism)}
    samplers = {name for name, entry in CATALOG.items() if entry.sampler_only}
    assert finite | continuous | samplers == set(CATALOG) and not finite & samplers
    assert finite == {name for name, _ in FINITE_EXAMPLES}
    examples = {type(make_mechanism(name, raw=raw)) for name, raw in FINITE_EXAMPLES}
    examples |= {type(build()) for build in BUILT_EXAMPLES.values()}
    assert examples == concrete_subclasses(FiniteMechanism)


# ---------------------------------------------------------------------------------------------
# The contract every finite mechanism satisfies
# ---------------------------------------------------------------------------------------------

class TestFiniteMechanismContract:
    def test_pmf_sums_exactly_to_one(self, finite_mechanism):
        for x in finite_mechanism.inputs():
            total = sympy.Add(*finite_mechanism.pmf(x).values())
            assert total == 1 or sympy.simplify(total - 1) == 0, f"P(.|{x}) sums to {total}"
            assert abs(sympy.N(total - 1, 60)) < sympy.Float(10) ** -50

    def test_probabilities_are_exact_and_nonnegative(self, finite_mechanism):
        for x in finite_mechanism.inputs():
            for y, p in finite_mechanism.pmf(x).items():
                assert isinstance(p, sympy.Expr) and not p.has(sympy.Float), f"P({y}|{x}) = {p} is not exact"
                assert not p.free_symbols
                assert p.is_nonnegative is True or sympy.N(p, 50) >= 0

    def test_pmf_rows_tabulate_the_pmf(self, finite_mechanism):
        """One row per input and one entry per output, in the mechanisms' orders; 0 off the support."""
        rows, outputs = finite_mechanism.pmf_rows(), list(finite_mechanism.outputs())
        assert len(rows) == len(finite_mechanism.inputs())
        for x, row in zip(finite_mechanism.inputs(), rows):
            pmf = finite_mechanism.pmf(x)
            assert len(row) == len(outputs)
            assert all(entry == pmf.get(y, 0) for y, entry in zip(outputs, row))

    def test_outputs_cover_the_support(self, finite_mechanism):
        outputs = list(finite_mechanism.outputs())
        inputs = list(finite_mechanism.inputs())
        assert len(set(outputs)) == len(outputs) and len(set(inputs)) == len(inputs) >= 2
        for x in inputs:
            assert set(finite_mechanism.pmf(x)) <= set(outputs)

    def test_sample_shape_dtype_and_values(self, finite_mechanism):
        outputs = set(finite_mechanism.outputs())
        for x in finite_mechanism.inputs():
            sample = finite_mechanism.sample(x, 300, np.random.default_rng(7))
            assert isinstance(sample, np.ndarray) and sample.dtype.kind in "iu"
            if sample.ndim == 2:  # vector outputs: unary encoding, rated pairs, Multi-MaxSense bit tuples
                assert sample.shape[0] == 300 and all(len(y) == sample.shape[1] for y in outputs)
                values = {tuple(int(b) for b in row) for row in sample}
            else:
                assert sample.shape == (300,)
                values = {int(v) for v in sample}
            assert values <= outputs
            empty = finite_mechanism.sample(x, 0, np.random.default_rng(7))
            assert empty.shape[0] == 0

    def test_sample_is_reproducible_and_leaves_global_state_alone(self, finite_mechanism):
        x = finite_mechanism.inputs()[0]
        np.random.seed(12345)
        before = np.random.get_state()[1].copy()
        a = finite_mechanism.sample(x, 200, np.random.default_rng(99))
        b = finite_mechanism.sample(x, 200, np.random.default_rng(99))
        assert np.array_equal(a, b)
        assert np.array_equal(np.random.get_state()[1], before)

    def test_rejects_an_input_outside_the_input_space(self, finite_mechanism):
        with pytest.raises(InvalidParameterError):
            finite_mechanism.pmf("not an input")
        with pytest.raises(InvalidParameterError):
            finite_mechanism.sample("not an input", 5, np.random.default_rng(0))

    def test_rebuilds_from_its_parameters(self, finite_mechanism):
        rebuilt = dataclasses.replace(finite_mechanism)  # compared field by field: a transcript's eq is identity
        assert all(getattr(rebuilt, f.name) == getattr(finite_mechanism, f.name)
                   for f in dataclasses.fields(finite_mechanism) if f.compare)
        assert finite_mechanism.describe().startswith(finite_mechanism.name + "(")
        if finite_mechanism.name in CATALOG:  # what the command line builds, its parameters() rebuild
            assert type(finite_mechanism)(**finite_mechanism.parameters()) == finite_mechanism
            assert CATALOG[finite_mechanism.name].factory is type(finite_mechanism)

    def test_frozen(self, finite_mechanism):
        field = dataclasses.fields(finite_mechanism)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(finite_mechanism, field, 1)

    def test_neighbours_are_pairs_of_inputs(self, finite_mechanism):
        inputs = set(finite_mechanism.inputs())
        pairs = list(finite_mechanism.neighbours.ordered_pairs(finite_mechanism.inputs()))
        assert pairs and all(a in inputs and b in inputs and a != b for a, b in pairs)
        assert all((b, a) in pairs for a, b in pairs)  # symmetric


# ---------------------------------------------------------------------------------------------
# Sampler frequencies match the pmf (statistical)
# ---------------------------------------------------------------------------------------------

SAMPLES_PER_INPUT = 20_000
ALPHA = 1e-6


def output_counts(mechanism: FiniteMechanism, sample: np.ndarray) -> dict:
    if sample.ndim == 2:
        rows, counts = np.unique(sample, axis=0, return_counts=True)
        return {tuple(int(b) for b in row): int(c) for row, c in zip(rows, counts)}
    values, counts = np.unique(sample, return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts)}


def frequency_test_pvalue(reference: FiniteMechanism, sampler: FiniteMechanism, seed: int) -> float:
    """Bonferroni-adjusted p-value that ``sampler``'s draws follow ``reference``'s pmf.

    For every input x and output y, the count of y among SAMPLES_PER_INPUT draws on x is tested with
    the exact two-sided binomial test against P(y | x) from ``reference``; the smallest p-value is
    multiplied by the number of cells (union bound). If the sampler is right, the result is < ALPHA
    with probability at most ALPHA: exact tests are valid at every n, and the union bound needs no
    independence.
    """
    rng = np.random.default_rng(seed)
    pvalues = []
    for x in reference.inputs():
        counts = output_counts(sampler, sampler.sample(x, SAMPLES_PER_INPUT, rng))
        pmf = reference.pmf(x)
        assert set(counts) <= set(reference.outputs())
        for y in reference.outputs():
            p = float(pmf.get(y, 0))
            k = counts.get(y, 0)
            if p == 0:
                pvalues.append(0.0 if k else 1.0)
            else:
                pvalues.append(scipy.stats.binomtest(k, SAMPLES_PER_INPUT, p).pvalue)
    return min(1.0, min(pvalues) * len(pvalues))


def broken_variant(mechanism: FiniteMechanism) -> FiniteMechanism:
    """The same mechanism with eps (alpha0 for GKRR, the item mechanism's for PrivEMDItemWise) multiplied by 3/2
    (a deliberately wrong pmf for the power check); for the deterministic membership query, the query set
    without its first member; for a p-REC transcript, the algorithm without its uniform rounds (gamma = 0)."""
    if isinstance(mechanism, PrivEMDItemWise):
        return dataclasses.replace(mechanism, mechanism=broken_variant(mechanism.mechanism))
    if isinstance(mechanism, PRECTranscript):
        params = mechanism.algorithm.params
        assert params.gamma > 0
        return dataclasses.replace(mechanism, algorithm=PRECSim(params.m, params.T, gamma=0))
    if isinstance(mechanism, MembershipQuery):
        return dataclasses.replace(mechanism, A=mechanism.A[1:])
    if isinstance(mechanism, GeneralizedKRR):
        return dataclasses.replace(mechanism, alpha0=mechanism.alpha0 * R(3, 2))
    return dataclasses.replace(mechanism, eps=mechanism.eps * R(3, 2))


@pytest.mark.statistical
def test_sampler_frequencies_match_the_pmf(finite_mechanism):
    # False-failure probability <= 1e-6 (exact binomial tests, union bound over cells); seed fixed.
    assert frequency_test_pvalue(finite_mechanism, finite_mechanism, seed=20240601) >= ALPHA


@pytest.mark.statistical
def test_power_frequency_test_rejects_a_wrong_eps(finite_mechanism):
    # Power check for the test above: draws from the mechanism at 3/2 eps must be rejected.
    assert frequency_test_pvalue(finite_mechanism, broken_variant(finite_mechanism), seed=20240602) < ALPHA


@pytest.mark.statistical
def test_power_frequency_test_rejects_small_eps_error_in_k_rr():
    # A subtler break than 3/2 eps: k-RR drawn at eps = 0.65 instead of 1/2 (truth probability
    # 0.3547 vs 0.3834, about 8 standard errors at 20000 draws).
    right = KaryRandomizedResponse(k=4, eps=R(1, 2))
    assert frequency_test_pvalue(right, right, seed=11) >= ALPHA  # false-failure probability <= 1e-6
    assert frequency_test_pvalue(right, KaryRandomizedResponse(k=4, eps=R(13, 20)), seed=12) < ALPHA


@pytest.mark.statistical
def test_power_frequency_test_rejects_renormalised_truncation():
    # Power check with the design's broken variant: geometric noise truncated by renormalising
    # instead of clamping, tested against the clamped pmf.
    clamped = Geometric(eps=sympy.log(2), lo=0, hi=4)
    renormalized = GeometricRenormalized(eps=sympy.log(2), lo=0, hi=4)
    assert frequency_test_pvalue(clamped, renormalized, seed=13) < ALPHA


# ---------------------------------------------------------------------------------------------
# Continuous samplers: Kolmogorov-Smirnov against scipy's distributions
# ---------------------------------------------------------------------------------------------

KS_SAMPLES = 5_000


def ks_pvalue(mechanism, x, distribution: str, loc: float, scale: float, seed: int) -> float:
    sample = mechanism.sample(x, KS_SAMPLES, np.random.default_rng(seed))
    assert sample.shape == (KS_SAMPLES,) and sample.dtype == np.float64
    return scipy.stats.kstest(sample, distribution, args=(loc, scale)).pvalue


@pytest.mark.statistical
@pytest.mark.parametrize("eps, sensitivity, x", [(R(1, 2), 1, 3), (2, R(1, 2), "-1/3")])
def test_laplace_sampler_matches_its_distribution(eps, sensitivity, x):
    # KS test, threshold 1e-6: false-failure probability <= 1e-6 (exact KS p-value for a continuous law).
    mechanism = Laplace(eps=eps, sensitivity=sensitivity)
    b = float(R(sensitivity) / R(eps))
    assert ks_pvalue(mechanism, x, "laplace", float(sympy.sympify(x)), b, seed=31) >= 1e-6


@pytest.mark.statistical
def test_power_ks_rejects_laplace_with_the_wrong_scale():
    # Power check: LaplaceWrongScale(eps=1/2) has scale 1/2 where Laplace has sensitivity/eps = 2.
    assert ks_pvalue(LaplaceWrongScale(eps=R(1, 2)), 3, "laplace", 3.0, 2.0, seed=32) < 1e-6
    # ... and a subtler break: scale 3 instead of 2 (KS distance 0.074, twice the 1e-6 critical value 0.038)
    assert ks_pvalue(Laplace(eps=R(1, 3)), 3, "laplace", 3.0, 2.0, seed=33) < 1e-6


@pytest.mark.statistical
@pytest.mark.parametrize("sigma, x", [(R(3, 2), -1), (R(1, 10), 0)])
def test_gaussian_sampler_matches_its_distribution(sigma, x):
    # KS test, threshold 1e-6: false-failure probability <= 1e-6.
    assert ks_pvalue(Gaussian(sigma=sigma), x, "norm", float(x), float(sigma), seed=34) >= 1e-6


@pytest.mark.statistical
def test_power_ks_rejects_gaussian_with_the_wrong_scale():
    # Power check: draws with sigma = 1.8 tested against sigma = 1.5.
    assert ks_pvalue(Gaussian(sigma=R(9, 5)), -1, "norm", -1.0, 1.5, seed=35) < 1e-6


@pytest.mark.parametrize("mechanism, reference", [
    (Laplace(eps=R(1, 2)), scipy.stats.laplace(loc=1, scale=2)),
    (LaplaceWrongScale(eps=R(1, 2)), scipy.stats.laplace(loc=1, scale=0.5)),
    (Gaussian(sigma=R(3, 2)), scipy.stats.norm(loc=1, scale=1.5)),
], ids=["laplace", "laplace-wrong-scale", "gaussian"])
def test_continuous_density_matches_scipy_and_integrates_to_one(mechanism, reference):
    # Reference: scipy.stats pdfs, relative tolerance 1e-12.
    y = sympy.Symbol("y", real=True)
    density = mechanism.density(y, sympy.Integer(1))
    for point in (-3.5, 0, 1, 2.25, 7):
        assert float(density.subs(y, R(str(point)))) == pytest.approx(reference.pdf(point), rel=1e-12)
    assert sympy.simplify(sympy.integrate(density, (y, -sympy.oo, sympy.oo))) == 1


# ---------------------------------------------------------------------------------------------
# Exact pmfs against the papers' formulas and brute-force computations
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("eps", ["log(3)", "1", "1/2", "log(3/2)", "5"])
def test_randomized_response_is_proposition_4(eps):
    # Proposition 4 of 000_0c6e7fdc3fd68303.txt (Banerjee, Hegde, Massoulie): S = S0 with probability
    # e^eps / (1 + e^eps), else 1 - S0. Checked exactly for both bits, via the class and the catalogue.
    e = sympy.exp(sympy.parse_expr(eps))  # e^eps, parsed by sympy itself rather than dpcert
    for mechanism in (RandomizedResponse(eps=eps), make_mechanism("randomized-response", raw={"eps": eps})):
        assert mechanism.inputs() == (0, 1) and mechanism.outputs() == (0, 1)
        for s0 in (0, 1):
            pmf = mechanism.pmf(s0)
            assert sympy.simplify(pmf[s0] - e / (1 + e)) == 0
            assert sympy.simplify(pmf[1 - s0] - 1 / (1 + e)) == 0


def test_randomized_response_at_log_3_is_three_quarters():
    # e^eps = 3 makes Proposition 4's probability the rational 3/4 exactly (no simplification needed).
    assert RandomizedResponse(eps="log(3)").pmf(1) == {1: R(3, 4), 0: R(1, 4)}


@pytest.mark.parametrize("k, r", [(2, Fraction(3)), (5, Fraction(7, 2)), (8, Fraction(21, 20))])
def test_k_rr_pmf_is_its_definition(k, r):
    # Kairouz et al. (2014): P(y|x) = e^eps / (e^eps + k - 1) if y = x else 1 / (e^eps + k - 1); eps = log r.
    mechanism = KaryRandomizedResponse(k=k, eps=sympy.log(R(r.numerator, r.denominator)))
    for x in range(k):
        for y in range(k):
            expected = (r if y == x else 1) / (r + k - 1)
            assert as_fraction(mechanism.pmf(x)[y]) == expected


@pytest.mark.parametrize("variant, r, p, q", [
    # eps = log r chosen so the bit probabilities are rational; Wang et al. (2017), Section 4:
    ("sue", Fraction(9), Fraction(3, 4), Fraction(1, 4)),  # p = e^(eps/2) / (e^(eps/2) + 1) = 3/4
    ("oue", Fraction(3), Fraction(1, 2), Fraction(1, 4)),  # p = 1/2, q = 1 / (e^eps + 1) = 1/4
])
def test_unary_encoding_pmf_is_a_product_of_independent_bits(variant, r, p, q):
    k = 4
    mechanism = UnaryEncoding(k=k, eps=sympy.log(R(r.numerator, r.denominator)), variant=variant)
    assert mechanism.outputs() == list(itertools.product((0, 1), repeat=k))
    for x in range(k):
        pmf = mechanism.pmf(x)
        for y in itertools.product((0, 1), repeat=k):
            expected = Fraction(1)
            for i, bit in enumerate(y):
                one = p if i == x else q
                expected *= one if bit else 1 - one
            assert as_fraction(pmf[y]) == expected


def two_sided_geometric(alpha, z):
    """P(Z = z) = (1 - alpha) / (1 + alpha) * alpha^|z| (Ghosh, Roughgarden, Sundararajan 2009, Def. 2.1)."""
    return (1 - alpha) / (1 + alpha) * alpha ** abs(z)


@pytest.mark.parametrize("lo, hi", [(0, 10), (-2, 3), (5, 6)])
def test_geometric_clamped_pmf_equals_brute_force_tail_sums(lo, hi):
    # eps = log 2, alpha = 1/2: P(y | x) = P(x + Z = y) inside, and the tails P(x + Z <= lo), P(x + Z >= hi)
    # at the end points. Tails summed term by term with Fractions over 400 terms; the remaining mass
    # sum_{m > 400} is at most alpha^401 / (1 - alpha) * (1 - alpha) / (1 + alpha) < 2^-400, so the exact
    # pmf must lie in [partial sum, partial sum + 2^-400].
    alpha, terms = Fraction(1, 2), 400
    mechanism = Geometric(eps=sympy.log(2), lo=lo, hi=hi)
    remainder = alpha ** (terms + 1)
    for x in range(lo, hi + 1):
        pmf = {y: as_fraction(p) for y, p in mechanism.pmf(x).items()}
        assert set(pmf) == set(range(lo, hi + 1))
        for y in range(lo + 1, hi):
            assert pmf[y] == two_sided_geometric(alpha, y - x)
        low_tail = sum((two_sided_geometric(alpha, z) for z in range(lo - x - terms, lo - x + 1)), Fraction(0))
        high_tail = sum((two_sided_geometric(alpha, z) for z in range(hi - x, hi - x + terms + 1)), Fraction(0))
        assert low_tail <= pmf[lo] <= low_tail + remainder
        assert high_tail <= pmf[hi] <= high_tail + remainder


def test_geometric_clamped_pmf_at_irrational_alpha_matches_mpmath_series():
    # eps = 1/2: alpha = e^(-1/2); the tails as mpmath infinite series (nsum), 50 digits, tolerance 1e-40.
    lo, hi = 0, 4
    mechanism = Geometric(eps=R(1, 2), lo=lo, hi=hi)
    with mpmath.workdps(50):
        alpha = mpmath.exp(-mpmath.mpf(1) / 2)
        for x in range(lo, hi + 1):
            pmf = mechanism.pmf(x)
            low = mpmath.nsum(lambda m: two_sided_geometric(alpha, lo - x - m), [0, mpmath.inf])
            high = mpmath.nsum(lambda m: two_sided_geometric(alpha, hi - x + m), [0, mpmath.inf])
            assert abs(mpmath.mpf(sympy.N(pmf[lo], 50)) - low) < mpmath.mpf(10) ** -40
            assert abs(mpmath.mpf(sympy.N(pmf[hi], 50)) - high) < mpmath.mpf(10) ** -40
            for y in range(lo + 1, hi):
                assert abs(mpmath.mpf(sympy.N(pmf[y], 50)) - two_sided_geometric(alpha, y - x)) < mpmath.mpf(10) ** -40


def test_exponential_mechanism_pmf_matches_mpmath():
    # McSherry and Talwar (2007): P(r | x) = exp(eps u(x, r) / (2 sensitivity)) / normaliser; 50 digits.
    utilities = [[0, 1, 2], [1, 1, 0]]
    mechanism = make_mechanism("exponential",
                               raw={"eps": "1", "sensitivity": "1", "utilities": "[[0, 1, 2], [1, 1, 0]]"})
    with mpmath.workdps(50):
        for x, row in enumerate(utilities):
            weights = [mpmath.exp(mpmath.mpf(u) / 2) for u in row]
            for r, w in enumerate(weights):
                assert abs(mpmath.mpf(sympy.N(mechanism.pmf(x)[r], 50)) - w / sum(weights)) < mpmath.mpf(10) ** -45


def test_randomized_response_is_two_valued_k_rr():
    for eps in ("1", "log(5)"):
        assert RandomizedResponse(eps=eps).pmf(0) == KaryRandomizedResponse(k=2, eps=eps).pmf(0)


def test_unary_encoding_samples_large_k_without_enumerating():
    # k > 16 cannot enumerate its 2^k outputs, but sampling is per bit and still works.
    mechanism = UnaryEncoding(k=40, eps=1)
    sample = mechanism.sample(3, 10, np.random.default_rng(0))
    assert sample.shape == (10, 40) and set(np.unique(sample)) <= {0, 1}


@pytest.mark.parametrize(("eps", "delta0"), [("log(2)", "1/100"), ("1", "1/3")])
def test_leaky_randomized_response_is_eps_delta0_dp_and_no_better(eps, delta0):
    """leaky-rr's delta(eps') over its pairs, by the exact checker: delta0 at its own eps (the revealing output of x
    has probability delta0 under x and 0 under x'), delta0 + (1 - delta0)(e^eps - e^eps') / (1 + e^eps) below it
    (randomized response's own divergence, scaled), and delta0 at every larger eps': never pure DP."""
    from dpcert.proofs.exact import hockey_stick_delta

    mechanism = make_mechanism("leaky-rr", raw={"eps": eps, "delta0": delta0})
    e, d0 = sympy.sympify(eps), sympy.Rational(delta0)
    assert sympy.simplify(hockey_stick_delta(mechanism, e) - d0) == 0
    assert sympy.simplify(hockey_stick_delta(mechanism, 2 * e) - d0) == 0
    lower = e / 2
    expected = d0 + (1 - d0) * (sympy.exp(e) - sympy.exp(lower)) / (1 + sympy.exp(e))
    assert sympy.simplify(hockey_stick_delta(mechanism, lower) - expected) == 0
