"""PRIVACT's utility bounds: Lemmas 5.1 and 6.1–6.3, Theorems 3, 5 and 6, and the paper's numbers.

Notation: ρ = (n³ − n)/3 (Theorem 4), K bins, σ the per-user Laplace scale (the theorems' σ = 1/ε;
the experiments' σ = 2/ε_edge, spec A1), f(T) = Q_D(T; S), g(T) = Q_D(T; S̄), OPT = max_T f(T),
N = (2n − 3)!! trees.

- Lemma 6.1 (bias): 0 ≤ E_R[g(T)] − f(T) ≤ (3Kσ/2)·ρ for every fixed T, with or without the floor.
- Lemma 6.2 (variance): Var_R[g(T)] ≤ 4Kσ²ρ² (true by Cauchy–Schwarz; the paper's Eq. 10 is garbled, A11).
- Lemma 6.3: Pr(|g(T) − f(T)| ≤ P) ≥ 8/9 with P = (3K/2 + 6√K)σρ (Chebyshev gives ≥, not >).
- Theorem 6 as stated: OPT − E f(T_dp) ≤ (3K + 12√K)σρ. Heuristic (A6–A8): the proof uses a per-tree
  8/9 event for data-dependent trees without a union bound and drops 2 ln N; and on the paper's data
  the bound exceeds OPT in all but one configuration.
- Lemma 5.1 / Theorem 5 in clean form, for exact Boltzmann samples Pr(T) ∝ e^{Q_D(T)}:
  Pr(OPT − Q_D(T) ≥ ln N + t) ≤ e^{−t}, E[OPT − Q_D(T)] ≤ ln N + 1, and, when S ≥ 1 off the diagonal,
  E[Q_D(T)]/OPT ≥ 1 − 3(ln N + 1)/(n(n² − 1)). Nothing here covers a finite MCMC run.

Exact values are sympy expressions; bounds come as :class:`BoundResult` with outward-rounded floats.
The checks that decide the paper's claims (Theorem 3 and Lemma 5.1 over all trees for n ≤ 7, the Monte
Carlo test of Lemmas 6.1–6.3, Table 2 and footnote 2) are in :mod:`dpcert.proofs.claims.privact.checks`.

References: 004_a0cddc0a7a24fb37.txt, Theorems 3–6, Lemmas 5.1, 6.1–6.3, footnote 2, Table 2;
spec §3, §6 (A5–A8, A11, A12), TC-N1..N8, TC-T8, TC-M3, TC-M4, TC-P8.
"""

from __future__ import annotations

import numpy as np
import sympy

from dpcert.accountant.bound_result import BoundResult
from dpcert.mechanisms.parameters import InvalidParameterError, exact_sign, require_int, require_positive, to_exact
from dpcert.mechanisms.privact import ClusterTree, PrivactBudget, bins_for, clique_constant, tree_count

__all__ = [
    "SOURCE",
    "validate_n_k_sigma",
    "clique_quality",
    "expected_abs_shifted_difference",
    "expected_noisy_dissimilarity",
    "expected_noisy_quality",
    "laplace_difference_density",
    "lemma_5_1_expected_loss_bound",
    "lemma_5_1_tail_bound",
    "lemma_6_1_bias_bound",
    "lemma_6_2_variance_bound",
    "lemma_6_3_radius",
    "privact_family",
    "theorem_5_relative_bound",
    "theorem_6_bound",
    "theorem_6_relative_bound",
    "log_tree_count",
]

SOURCE = "004_a0cddc0a7a24fb37.txt"


def validate_n_k_sigma(n: object, K: object, sigma: object) -> tuple[int, int, sympy.Expr]:
    """n users (>= 2), K bins (>= 1) and the Laplace scale sigma (> 0), validated and exact."""
    return (require_int("n", n, minimum=2), require_int("K", K, minimum=1), require_positive("sigma", sigma))


def clique_quality(n: object) -> sympy.Integer:
    """ρ = (n³ − n)/3 = Q_D of every tree when S ≡ 1 (Theorem 4), exactly."""
    return sympy.Integer(clique_constant(require_int("n", n, minimum=2)))


# ---------------------------------------------------------------------------------------------
# Lemmas 6.1–6.3 and Theorem 6
# ---------------------------------------------------------------------------------------------

def lemma_6_1_bias_bound(n: object, K: object, sigma: object) -> BoundResult:
    """(3Kσ/2)·ρ ≥ E_R[g(T)] − f(T) ≥ 0 for every fixed tree T (Lemma 6.1).

    Why: |S̄(i,j) − S(i,j)| ≤ Σ_l |R_i^l − R_j^l| (triangle inequality; the floor max(1,·) is 1-Lipschitz),
    E|R − R'| = 3σ/2 for iid Lap(σ), and Σ_{i<j} |leaves(T[i ∨ j])| = ρ. The lower bound 0 holds because
    E|a + Z| ≥ |a| for the symmetric Z = R − R' (Jensen), and max(1,·) is convex and non-decreasing.
    """
    n, K, sigma = validate_n_k_sigma(n, K, sigma)
    return BoundResult("lemma6.1", f"{SOURCE}, Lemma 6.1", sympy.Rational(3, 2) * K * sigma * clique_quality(n),
                       "quality", note="upper bound on E_R[g(T)] - f(T) for every fixed tree T; the bias is >= 0")


def lemma_6_2_variance_bound(n: object, K: object, sigma: object) -> BoundResult:
    """4Kσ²ρ² ≥ Var_R[g(T)] for every fixed tree T (Lemma 6.2).

    Why: Var S̄(i,j) ≤ Σ_l Var(R_i^l − R_j^l) = 4Kσ² (|·| and max(1,·) are 1-Lipschitz), and
    Var Σ w_ij S̄(i,j) ≤ (Σ w_ij √Var S̄(i,j))² ≤ 4Kσ²ρ² by Cauchy–Schwarz (spec A11).
    """
    n, K, sigma = validate_n_k_sigma(n, K, sigma)
    return BoundResult("lemma6.2", f"{SOURCE}, Lemma 6.2", 4 * K * sigma**2 * clique_quality(n) ** 2,
                       "quality^2", note="upper bound on Var_R[g(T)] for every fixed tree T")


def lemma_6_3_radius(n: object, K: object, sigma: object) -> BoundResult:
    """P = (3K/2 + 6√K)·σ·ρ: Pr(|g(T) − f(T)| ≤ P) ≥ 8/9 for every fixed tree T (Lemma 6.3).

    Why: Chebyshev with δ = 6√Kσρ and Lemma 6.2 gives Pr(|g − E g| ≥ δ) ≤ 1/9; add Lemma 6.1's bias.
    """
    n, K, sigma = validate_n_k_sigma(n, K, sigma)
    value = (sympy.Rational(3, 2) * K + 6 * sympy.sqrt(K)) * sigma * clique_quality(n)
    return BoundResult("lemma6.3", f"{SOURCE}, Lemma 6.3", value, "quality",
                       note="holds with probability >= 8/9 per fixed tree (the paper says > 8/9)")


def theorem_6_relative_bound(K: object, sigma: object) -> sympy.Expr:
    """(3K + 12√K)·σ = Theorem 6's bound divided by ρ (105.498, 52.749, 26.375 at K = 7, σ = 1/ε, ε = 0.5, 1, 2)."""
    K = require_int("K", K, minimum=1)
    return (3 * K + 12 * sympy.sqrt(K)) * require_positive("sigma", sigma)


def theorem_6_bound(n: object, K: object, sigma: object) -> BoundResult:
    """Theorem 6 as stated: OPT − E f(T_dp) ≤ (3K + 12√K)·σ·ρ "with probability > 8/9". HEURISTIC.

    The statement is twice Lemma 6.3's P (spec A6). Its proof applies the per-tree event of Lemma 6.3 to
    T^OPT and to a data-dependent tree at once without a union bound and drops 2 ln N (A7); the bound
    is Θ(ρ log n/ε), not the claimed log n/(nε) (A9), and exceeds OPT on most of the paper's data (A8).
    """
    n, K, sigma = validate_n_k_sigma(n, K, sigma)
    return BoundResult("theorem6", f"{SOURCE}, Theorem 6", theorem_6_relative_bound(K, sigma) * clique_quality(n),
                       "quality", note="as stated; heuristic (per-tree event used for data-dependent trees, "
                                       "2 ln N dropped); spec A6-A8")


# ---------------------------------------------------------------------------------------------
# Lemma 5.1 / Theorem 5, clean form
# ---------------------------------------------------------------------------------------------

def log_tree_count(n: int) -> sympy.Expr:
    """ln N, N = (2n − 3)!! trees: exactly log((2n−3)!!) for n <= 200, else
    loggamma(2n − 1) − (n − 1) ln 2 − loggamma(n) unevaluated (N has thousands of digits at n ~ 2000)."""
    if n <= 200:
        return sympy.log(tree_count(n))
    return (sympy.loggamma(2 * n - 1, evaluate=False) - (n - 1) * sympy.log(2)
            - sympy.loggamma(n, evaluate=False))


def lemma_5_1_expected_loss_bound(n: object) -> BoundResult:
    """E[OPT − Q_D(T)] ≤ ln((2n − 3)!!) + 1 for T drawn exactly from Pr(T) ∝ e^{Q_D(T)} (clean Lemma 5.1).

    Why: Z ≥ e^{OPT} and at most N trees have quality ≤ m, so Pr(Q_D ≤ m) ≤ N e^{m − OPT}; integrate the
    tail Pr(OPT − Q_D ≥ ln N + t) ≤ e^{−t} over t ≥ 0.
    """
    n = require_int("n", n, minimum=2)
    return BoundResult("lemma5.1-expected-loss", f"{SOURCE}, Lemma 5.1 (clean form, spec A5)",
                       log_tree_count(n) + 1, "quality",
                       note="exact Boltzmann samples at temperature 1 only; says nothing about a finite MCMC run")


def lemma_5_1_tail_bound(n: object, t: object) -> BoundResult:
    """Pr(OPT − Q_D(T) ≥ ln((2n − 3)!!) + t) ≤ e^{−t}, t ≥ 0, for exact Boltzmann samples (clean Lemma 5.1)."""
    n = require_int("n", n, minimum=2)
    t = to_exact("t", t)
    if exact_sign(t) < 0:
        raise InvalidParameterError(f"t must be >= 0. Got {t}")
    return BoundResult("lemma5.1-tail", f"{SOURCE}, Lemma 5.1 (clean form, spec A5)", sympy.exp(-t), "probability",
                       note=f"threshold OPT - ln N - t, ln N = {log_tree_count(n)} (N = (2n - 3)!! trees)")


def theorem_5_relative_bound(n: object) -> BoundResult:
    """A LOWER bound on E[Q_D(T)]/OPT: 1 − 3(ln((2n − 3)!!) + 1)/(n(n² − 1)) (Theorem 5, clean form).

    Valid when S ≥ 1 off the diagonal (then OPT ≥ ρ = n(n² − 1)/3), for exact Boltzmann samples. The
    paper's 1 − c·log n/(n² − 1) has this shape with c = 3(ln N + 1)/(n ln n) = O(1).
    """
    n = require_int("n", n, minimum=2)
    value = 1 - 3 * (log_tree_count(n) + 1) / (n * (n**2 - 1))
    return BoundResult("theorem5-relative", f"{SOURCE}, Theorem 5 (clean form, spec A5)", value, "ratio",
                       note="lower bound on E[Q_D]/OPT; requires S >= 1 off the diagonal; exact Boltzmann samples",
                       bounds="lower")


# ---------------------------------------------------------------------------------------------
# Differences of Laplace variables (TC-N1, TC-N2): closed forms (proved by sympy integration in the claims)
# ---------------------------------------------------------------------------------------------

def laplace_difference_density(z: sympy.Expr, sigma: sympy.Expr) -> sympy.Expr:
    """Density of Z = R − R' for iid R, R' ~ Lap(σ): (1/(4σ))(1 + |z|/σ) e^{−|z|/σ} (Lemma 6.1's proof)."""
    return (1 + sympy.Abs(z) / sigma) * sympy.exp(-sympy.Abs(z) / sigma) / (4 * sigma)


def expected_abs_shifted_difference(a: sympy.Expr, sigma: sympy.Expr) -> sympy.Expr:
    """E|a + Z| = |a| + e^{−|a|/σ}(3σ + |a|)/2 for Z = R − R', R, R' iid Lap(σ) (spec TC-N2)."""
    return sympy.Abs(a) + sympy.exp(-sympy.Abs(a) / sigma) * (3 * sigma + sympy.Abs(a)) / 2


def expected_noisy_dissimilarity(c_i: object, c_j: object, sigma: object) -> sympy.Expr:
    """E[‖c̄_i − c̄_j‖_1] = Σ_l [|a_l| + e^{−|a_l|/σ}(3σ + |a_l|)/2], a = c_i − c_j, exactly (no floor; TC-N3)."""
    sigma = require_positive("sigma", sigma)
    first, second = np.asarray(c_i), np.asarray(c_j)
    if first.shape != second.shape or first.ndim != 1 or first.dtype.kind not in "iu" or second.dtype.kind not in "iu":
        raise InvalidParameterError(f"c_i and c_j must be integer count vectors of one length. Got shapes "
                                    f"{first.shape} and {second.shape}")
    return sympy.Add(*(expected_abs_shifted_difference(sympy.Integer(int(x) - int(y)), sigma)
                       for x, y in zip(first, second)))


def expected_noisy_quality(counts: np.ndarray, tree: ClusterTree, sigma: object) -> float:
    """E_R[g(T)] without the floor: Σ_{i<j} |leaves(T[i ∨ j])|·E‖c̄_i − c̄_j‖_1 (float64; TC-N3 summed)."""
    scale = float(require_positive("sigma", sigma))
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 2 or not isinstance(tree, ClusterTree) or counts.shape[0] != tree.n:
        raise InvalidParameterError(f"counts must be an (n, K) array with n = tree.n. Got shape {counts.shape}")
    first, second = np.triu_indices(tree.n, 1)
    gap = np.abs(counts[first] - counts[second])
    per_pair = (gap + np.exp(-gap / scale) * (3 * scale + gap) / 2).sum(axis=1)
    return float(tree.pair_weights()[first, second] @ per_pair)


# ---------------------------------------------------------------------------------------------
# Lemmas 6.1–6.3 by Monte Carlo, with a stated false-failure probability
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Footnote 2
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# The command line's bound family
# ---------------------------------------------------------------------------------------------

def privact_family(n: object, eps_edge: object, *, K: object = None) -> list[BoundResult]:
    """``dpcert bound privact``: every bound of the paper for n users at per-edge ε (σ = 2/ε_edge).

    K defaults to ⌊ln n⌋ (the paper's bins). Returns Lemmas 6.1–6.3, Theorem 6 (heuristic, see its note),
    and the clean Lemma 5.1 / Theorem 5 forms, which do not depend on ε.

    References: 004_a0cddc0a7a24fb37.txt, Lemmas 5.1, 6.1–6.3, Theorems 5 and 6.
    """
    n = require_int("n", n, minimum=3)
    sigma = PrivactBudget.from_eps_edge(eps_edge).sigma
    K = bins_for(n) if K is None else require_int("K", K, minimum=1, maximum=n)
    return [lemma_6_1_bias_bound(n, K, sigma), lemma_6_2_variance_bound(n, K, sigma), lemma_6_3_radius(n, K, sigma),
            theorem_6_bound(n, K, sigma), lemma_5_1_expected_loss_bound(n), theorem_5_relative_bound(n)]
