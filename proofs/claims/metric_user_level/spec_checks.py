"""Deciders for the paper's smaller stated facts: Lemma 2.1 and the bound d_EM <= 1, Theorem 4.1 and the
central half of Lemma 4.2, the unbiasedness of Algorithm 4's estimate, Lemma A.1 and the event form of the
hockey-stick divergence (Definition A.1), the remark eps ceil(d/r) <= 2 eps d / r of Section 5, the Lipschitz
bound of Section 6.1, the proof chains of Theorem 6.6 (Appendix D.3) and the concrete examples' arithmetic.

Each decider checks the statement exactly (Fractions and sympy, signs by ``exact_sign``) on the cases its
evidence names; random cases come from a seeded ``random.Random``. The helpers
:func:`brute_force_matching`, :func:`hockey_stick_events` and :func:`lemma_a1_sides` are shared with the
unit tests of the same statements.

References: 002_1def8c9789d6e1bd.txt, Section 2 (d_EM <= 1), Lemma 2.1, Section 3 (concrete example),
Theorem 4.1, Lemma 4.2, Sections 4.1 and 4.2 (concrete examples), Section 5.1 (remark after Fact 5.1),
Section 6.1, Algorithm 4, Appendix A (Definition A.1, Lemma A.1), Appendix D.3;
specs/imola_metric_dp_user_level.md, section 7 (T1-T3, T5, T9, T19, T20, T23, T24, T27, T28).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction

import sympy

from dpcert.accountant.hockey_stick import hockey_stick_divergence
from dpcert.accountant.metric_user_level.emd_parameters import (
    alpha_for_goals,
    composition_alpha0,
    linear_query_noise,
)
from dpcert.accountant.metric_user_level.frequency_estimation import theorem_6_6_steps
from dpcert.accountant.metric_user_level.group_privacy import discrete_to_graded
from dpcert.mechanisms.exact_arithmetic import cancel_exponentials
from dpcert.mechanisms.metric_user_level import (
    GeneralizedKRR,
    PrivEMDLinear,
    exact_earth_movers_distance,
    exact_matching_distance,
    histogram,
    lipschitz_constant,
    vector_norm,
)
from dpcert.mechanisms.parameters import exact_sign
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import seeds_named

_P, _C, _R, _U = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED, Verdict.UNKNOWN
_Q = sympy.Rational

# A 4-point metric with distances 1/3, 1/2 and 1 (any values in [1/3, 1] off the diagonal form a metric).
_DISTANCE = [[0, 1, _Q(1, 2), 1], [1, 0, 1, _Q(1, 3)], [_Q(1, 2), 1, 0, 1], [1, _Q(1, 3), 1, 0]]


# ---------------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------------

def brute_force_matching(xs: Sequence[Hashable], ys: Sequence[Hashable],
                         distance: Callable[[Hashable, Hashable], object]) -> object:
    """min over all m! permutations pi of (1/m) sum_i d(x_i, y_pi(i)): the right side of Lemma 2.1's eq. (3)."""
    totals = (sum((distance(a, b) for a, b in zip(xs, perm)), Fraction(0)) for perm in itertools.permutations(ys))
    return min(totals) / len(xs)


def hockey_stick_events(P: Sequence[Fraction], Q: Sequence[Fraction],
                        eps: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """(max over all events S of P(S) - e^eps Q(S), the same at S = {y : P(y) > e^eps Q(y)}), exactly.

    Both equal D_{e^eps}(P || Q) = sum_y max(P(y) - e^eps Q(y), 0) (Definition A.1 in its event form).
    """
    t = sympy.exp(eps)
    gaps = [sympy.Rational(P[y]) - t * sympy.Rational(Q[y]) for y in range(len(P))]
    best = None
    for size in range(len(P) + 1):
        for event in itertools.combinations(range(len(P)), size):
            gap = sum((gaps[y] for y in event), sympy.Integer(0))
            if best is None or exact_sign(gap - best) > 0:
                best = gap
    at_threshold = sum((g for g in gaps if exact_sign(g) > 0), sympy.Integer(0))
    return best, at_threshold


def lemma_a1_sides(coupling: Sequence[Sequence[Fraction]], channel: Sequence[Sequence[Fraction]],
                   eps: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """Both sides of Lemma A.1 for a coupling C of P_X, P_Y and a channel M (rows M(x)), exactly:
    (D_{e^eps}(M(X) || M(Y)), sum_{x,y} C(x, y) D_{e^eps}(M(x) || M(y)))."""
    n, outputs = len(coupling), len(channel[0])
    p_x = [sum(coupling[x], Fraction(0)) for x in range(n)]
    p_y = [sum((coupling[x][y] for x in range(n)), Fraction(0)) for y in range(n)]
    law_x = [sum((p_x[x] * channel[x][o] for x in range(n)), Fraction(0)) for o in range(outputs)]
    law_y = [sum((p_y[y] * channel[y][o] for y in range(n)), Fraction(0)) for o in range(outputs)]
    lhs = hockey_stick_divergence(law_x, law_y, eps)
    rhs = sum((sympy.Rational(coupling[x][y]) * hockey_stick_divergence(channel[x], channel[y], eps)
               for x in range(n) for y in range(n) if coupling[x][y]), sympy.Integer(0))
    return lhs, rhs


_EMD_SEED, _MATCHING_SEED, _EVENTS_SEED, _COUPLING_SEED, _EMBEDDING_SEED = 21, 22, 23, 24, 25
"""The seeds of the random cases of emd_at_most_one, lemma_2_1, hockey_stick_event_form, lemma_a1 and
linear_embedding_lipschitz (each a ``random.Random``)."""


def _random_distribution(rng: random.Random, size: int, *, zeros: bool = False) -> list[Fraction]:
    weights = [rng.randint(0 if zeros else 1, 9) for _ in range(size)]
    if not any(weights):
        weights[0] = 1
    return [Fraction(w, sum(weights)) for w in weights]


def _random_metric(rng: random.Random, k: int) -> list[list[Fraction]]:
    """Random rational distances in [1/2, 1] off the diagonal (any such symmetric matrix is a metric)."""
    d = [[Fraction(0)] * k for _ in range(k)]
    for a, b in itertools.combinations(range(k), 2):
        d[a][b] = d[b][a] = Fraction(rng.randint(6, 12), 12)
    return d


def _datasets(k: int, max_size: int) -> list[tuple[int, ...]]:
    """The histogram of every dataset of 1..max_size items on k points."""
    return [histogram(list(items), k) for size in range(1, max_size + 1)
            for items in itertools.combinations_with_replacement(range(k), size)]


# ---------------------------------------------------------------------------------------------
# Section 2: d_EM <= 1 and Lemma 2.1
# ---------------------------------------------------------------------------------------------

def emd_at_most_one() -> tuple[Verdict, str]:
    """Section 2: with d_X <= 1, 0 <= d_EM(P, Q) <= 1 (and d_EM is symmetric, zero on equal arguments)."""
    rng = random.Random(_EMD_SEED)
    cases = 0
    for _ in range(40):
        k = rng.randint(2, 5)
        metric = _random_metric(rng, k)
        P, Q = ([Fraction(h, 12) for h in histogram([rng.randrange(k) for _ in range(12)], k)] for _ in range(2))
        pq = exact_earth_movers_distance(P, Q, lambda a, b: metric[a][b])
        qp = exact_earth_movers_distance(Q, P, lambda a, b: metric[a][b])
        if exact_sign(pq) < 0 or exact_sign(1 - pq) < 0 or exact_sign(pq - qp) != 0 \
                or exact_earth_movers_distance(P, P, lambda a, b: metric[a][b]) != 0:
            return _R, f"witness P = {P}, Q = {Q}, metric {metric}: d_EM = {pq}, reversed {qp}"
        cases += 1
    return _C, (f"exact d_EM (optimal matching of the histograms, Lemma 2.1) lies in [0, 1], is symmetric and "
                f"vanishes on equal arguments for {cases} random pairs of histograms of 12 items on 2-5 points with "
                f"random metrics valued in [1/2, 1] ({seeds_named(_EMD_SEED)})")


def lemma_2_1() -> tuple[Verdict, str]:
    """Lemma 2.1: for |K| = |K'| = m, d_EM(K~, K~') = min over permutations of (1/m) sum d(x_i, y_pi(i))."""
    rng = random.Random(_MATCHING_SEED)
    cases = 0
    for _ in range(30):
        k, m = rng.randint(2, 5), rng.randint(1, 6)
        metric = _random_metric(rng, k)
        xs, ys = [rng.randrange(k) for _ in range(m)], [rng.randrange(k) for _ in range(m)]
        matching = brute_force_matching(xs, ys, lambda a, b: metric[a][b])
        P, Q = ([Fraction(h, m) for h in histogram(v, k)] for v in (xs, ys))
        emd = exact_earth_movers_distance(P, Q, lambda a, b: metric[a][b])
        assignment = exact_matching_distance(xs, ys, lambda a, b: metric[a][b])
        if not (emd == assignment == sympy.Rational(matching.numerator, matching.denominator)):
            return _R, f"witness K = {xs}, K' = {ys}, metric {metric}: d_EM {emd}, best permutation {matching}"
        cases += 1
    return _C, (f"on {cases} random pairs of equal-size datasets (m = 1-6 items on 2-5 points, random rational metrics "
                f"in [1/2, 1]; {seeds_named(_MATCHING_SEED)}) the exact d_EM of the histograms equals the minimum over "
                "all m! permutations of (1/m) sum d(x_i, y_pi(i)), and the exact assignment solver's value")


# ---------------------------------------------------------------------------------------------
# Theorem 4.1 and Lemma 4.2 (central)
# ---------------------------------------------------------------------------------------------

def theorem_4_1() -> tuple[Verdict, str]:
    """Theorem 4.1: ||q_f(K) - q_f(K')|| <= ell d_EM(K~, K~') for an ell-Lipschitz f, any sizes; the bound is
    attained by point masses at the pair attaining ell (the Remarks: the analysis is tight)."""
    query = ((1, -2, 0, 3), (_Q(1, 2), 1, -1, 0))
    datasets = _datasets(4, 3)
    pairs = 0
    for norm in ("l1", "l2", "linf"):
        mechanism = PrivEMDLinear(F=query, distance=_DISTANCE, alpha=1, norm=norm)
        ell, best = mechanism.ell, sympy.Integer(0)
        for x, y in itertools.combinations(datasets, 2):
            gap = vector_norm([a - b for a, b in zip(mechanism.query(x), mechanism.query(y))], norm)
            distance = mechanism.earth_movers_distance(x, y)
            if exact_sign(ell * distance - gap) < 0:
                return _R, f"witness {norm}, K~ = {x}, K~' = {y}: ||q - q'|| = {gap} > ell d_EM = {ell * distance}"
            if distance and exact_sign(gap / distance - best) > 0:
                best = gap / distance
            pairs += 1
        if exact_sign(best - ell) != 0:
            return _R, f"{norm}: the largest ratio ||q - q'|| / d_EM is {best}, not the Lipschitz constant {ell}"
    return _C, (f"exact ||q_f(K) - q_f(K')|| <= ell d_EM for all {pairs} pairs of datasets of 1-3 items (any sizes) on "
                f"a 4-point metric, f = the columns of F = {query}, under l1, l2 and linf; the largest ratio equals "
                "the exact Lipschitz constant ell in each norm (tight)")


def lemma_4_2_central() -> tuple[Verdict, str]:
    """Lemma 4.2 (central): omega = 1/(alpha n) makes PrivEMDLinear (alpha, 0)-bounded central d_EM-DP."""
    query, n, m = ((1, -2, 0, 3), (_Q(1, 2), 1, -1, 0)), 3, 2
    users = list(itertools.combinations_with_replacement(range(4), m))
    cases = 0
    for norm in ("l1", "l2"):
        central = PrivEMDLinear(F=query, distance=_DISTANCE, alpha=2, norm=norm, model="central", n=n)
        local = PrivEMDLinear(F=query, distance=_DISTANCE, alpha=2, norm=norm)
        others = [0, 1, 3, 3]  # the other n - 1 = 2 users' items
        for mine, changed in itertools.combinations(users, 2):
            x, y = histogram(list(mine) + others, 4), histogram(list(changed) + others, 4)
            allowed = central.alpha * local.earth_movers_distance(histogram(list(mine), 4), histogram(list(changed), 4))
            loss = central.worst_log_ratio(x, y)
            if exact_sign(allowed - loss) < 0:
                return _R, (f"witness {norm}, user dataset {mine} -> {changed}: worst log-ratio {loss} > "
                            f"alpha d_EM(K~_i, K~'_i) = {allowed}")
            cases += 1
    return _C, (f"with n = 3 users of m = 2 items on a 4-point metric and omega = 1/(alpha n), alpha = 2, the exact worst "
                f"log density ratio ||q(K_G) - q(K'_G)|| alpha n / ell is <= alpha d_EM(K~_i, K~'_i) for every pair of "
                f"datasets of one user, the other two users fixed, in l1 and l2 ({cases} checks)")


# ---------------------------------------------------------------------------------------------
# Algorithm 4: the estimate v B is unbiased
# ---------------------------------------------------------------------------------------------

def algorithm_4_unbiased() -> tuple[Verdict, str]:
    """Section 6.2 / Algorithm 4: E[v] = K~ A, so with A B = I the estimate v B has mean K~ (and sums to 1)."""
    shown = []
    for alpha0, s, t, r in ((1, 3, 2, _Q(1, 5)), (sympy.log(2), 2, 2, _Q(1, 3)), (_Q(5, 2), 2, 3, _Q(1, 4))):
        mechanism = GeneralizedKRR(alpha0, s, t, r)
        k = s * t
        A, B = mechanism.transition_matrix, mechanism.inverse_matrix
        # E[v B] = K~ A B for every K~; it equals K~ for all K~ iff A B = I (the basis histograms are K~'s)
        if (A * B).applyfunc(cancel_exponentials) != sympy.eye(k):
            return _R, f"witness GKRR({alpha0}, s = {s}, t = {t}, r = {r}): A B != I, so E[v B] != K~"
        if (B * sympy.ones(k, 1)).applyfunc(cancel_exponentials) != sympy.ones(k, 1):
            return _R, f"witness GKRR({alpha0}, s = {s}, t = {t}, r = {r}): B 1 != 1"
        shown.append(f"({alpha0}, {s}, {t}, {r})")
    return _C, ("A B = I and B 1 = 1 exactly for GKRR's A and its printed inverse B at (alpha0, s, t, r) = "
                + ", ".join(shown)
                + ", so E[F~] = K~ A B = K~ for every K~ and F~ sums to 1 (for all parameters see gkrr-inverse)")


# ---------------------------------------------------------------------------------------------
# Appendix A: Definition A.1's event form and Lemma A.1
# ---------------------------------------------------------------------------------------------

def hockey_stick_event_form() -> tuple[Verdict, str]:
    """Definition A.1: D_{e^eps}(P || Q) <= delta implies Pr[P in S] <= e^eps Pr[Q in S] + delta for every S,
    since D is the maximum of P(S) - e^eps Q(S) over events, attained at S = {P > e^eps Q}."""
    rng = random.Random(_EVENTS_SEED)
    cases = 0
    for _ in range(60):
        size = rng.randint(1, 5)
        P, Q = _random_distribution(rng, size, zeros=True), _random_distribution(rng, size, zeros=True)
        eps = _Q(rng.randint(0, 12), 8) if rng.random() < 0.7 else sympy.log(_Q(rng.randint(2, 9), 2))
        value = hockey_stick_divergence(P, Q, eps)
        best, at_threshold = hockey_stick_events(P, Q, eps)
        if exact_sign(value - best) != 0 or exact_sign(value - at_threshold) != 0:
            return _R, f"witness P = {P}, Q = {Q}, eps = {eps}: D = {value}, max over events {best}"
        cases += 1
    return _C, (f"on {cases} random pairs of exact distributions on 1-5 outputs (eps in {{0, 1/8, ..., 3/2}} or ln of a "
                f"rational; {seeds_named(_EVENTS_SEED)}) sum_y max(P - e^eps Q, 0) equals the maximum over all events "
                "S of P(S) - e^eps Q(S), attained at S = {P > e^eps Q}")


def lemma_a1() -> tuple[Verdict, str]:
    """Lemma A.1: D_{e^eps}(M(X) || M(Y)) <= E_{(x, y) ~ C} D_{e^eps}(M(x) || M(y)) for every coupling C."""
    rng = random.Random(_COUPLING_SEED)
    cases = 0
    for _ in range(40):
        n, outputs = rng.randint(2, 3), rng.randint(2, 4)
        joint = _random_distribution(rng, n * n, zeros=True)
        coupling = [joint[x * n:(x + 1) * n] for x in range(n)]
        channel = [_random_distribution(rng, outputs) for _ in range(n)]
        eps = _Q(rng.randint(0, 12), 8)
        lhs, rhs = lemma_a1_sides(coupling, channel, eps)
        if exact_sign(rhs - lhs) < 0:
            return _R, f"witness C = {coupling}, M = {channel}, eps = {eps}: {lhs} > {rhs}"
        cases += 1
    return _C, (f"exact on {cases} random couplings C of 2-3 points and channels with 2-4 outputs, eps in "
                f"{{0, 1/8, ..., 3/2}} ({seeds_named(_COUPLING_SEED)})")


# ---------------------------------------------------------------------------------------------
# Section 5.1: eps ceil(d/r) <= 2 eps d / r for d >= r
# ---------------------------------------------------------------------------------------------

def ceil_bound() -> tuple[Verdict, str]:
    """The remark after Fact 5.1: for all d >= r, eps ceil(d/r) <= (2 eps / r) d.

    Proof: with u = d/r >= 1, ceil(u) < u + 1 <= 2u. Checked exactly through the graded parameters of
    dpcert.accountant.metric_user_level.group_privacy on a grid of (r, d).
    """
    eps, cases = _Q(3, 2), 0
    for r_den in range(1, 21):
        r = _Q(1, r_den)
        for d in sorted({_Q(j, 60) for j in range(1, 61)} | {r}):
            if d < r:
                continue
            graded = discrete_to_graded(eps, _Q(1, 100), r, d).eps
            if graded != eps * sympy.ceiling(d / r) or graded > 2 * eps * d / r:
                return _R, f"witness r = {r}, d = {d}: eps ceil(d/r) = {graded} > 2 eps d / r = {2 * eps * d / r}"
            cases += 1
    return _C, (f"eps ceil(d/r) <= 2 eps d/r exactly at {cases} points r = 1/1, ..., 1/20, d = r and d in "
                "{1/60, ..., 1} with d >= r (eps = 3/2; ceil(u) < u + 1 <= 2u for u = d/r >= 1)")


# ---------------------------------------------------------------------------------------------
# Section 6.1: the Lipschitz constant of a linear embedding
# ---------------------------------------------------------------------------------------------

def linear_embedding_lipschitz() -> tuple[Verdict, str]:
    """Section 6.1: for d_X(x, x') = ||phi(x) - phi(x')||_2, the l2 Lipschitz constant of x -> F phi(x) is at
    most ||F||_2, and ||F||_2 <= sqrt(d) when every row of F has norm <= 1."""
    rng = random.Random(_EMBEDDING_SEED)
    cases = 0
    while cases < 6:
        phi = [tuple(_Q(rng.randint(-4, 4), 4) for _ in range(3)) for _ in range(5)]
        if len(set(phi)) < 5:
            continue
        distance = [[vector_norm([a - b for a, b in zip(p, q)], "l2") for q in phi] for p in phi]
        F = sympy.Matrix([[_Q(rng.randint(-4, 4), 8) for _ in range(3)] for _ in range(2)])  # rows of norm <= 3/4
        embedded = (F * sympy.Matrix(phi).T).tolist()
        ell = lipschitz_constant(embedded, distance, "l2")
        gram = F * F.T  # ||F||_2^2 is the largest eigenvalue of the 2 x 2 Gram matrix
        trace, det = gram.trace(), gram.det()
        spectral_squared = (trace + sympy.sqrt(trace**2 - 4 * det)) / 2
        if exact_sign(spectral_squared - ell**2) < 0 or exact_sign(2 - spectral_squared) < 0:
            return _R, f"witness F = {F.tolist()}, phi = {phi}: ell^2 = {ell**2}, ||F||_2^2 = {spectral_squared}"
        cases += 1
    return _C, (f"exact on {cases} random rational embeddings phi of 5 points in Q^3 and 2 x 3 matrices F with rows of "
                f"norm <= 3/4 ({seeds_named(_EMBEDDING_SEED)}): ell^2 <= ||F||_2^2 (largest eigenvalue of F F^T) "
                "<= d = 2")


# ---------------------------------------------------------------------------------------------
# Appendix D.3: the two chains of Theorem 6.6's proof
# ---------------------------------------------------------------------------------------------

def theorem_6_6_norm_bounds() -> tuple[Verdict, str]:
    """Appendix D.3: ||(A^-1)^T||^2_{1->2} - 1 <= (a')^2 - 1 <= (t(e^a0 + s)/(e^a0 - e^((1-r)a0)))^2 and
    ||(A^-1 P)^T||^2_{1->2} - 1 <= s t^2 (s + 2(e^a0 - 1))/Z'^2, Z' = e^a0 + (t - 1) e^((1-r)a0) - t."""
    grid = list(itertools.product((_Q(1, 10), _Q(1, 2), 1, 2, 5), ((2, 2, _Q(1, 4)), (3, 2, _Q(1, 5)),
                                                                      (2, 3, _Q(2, 5)), (1, 3, _Q(1, 3)))))
    for alpha0, (s, t, r) in grid:
        steps = theorem_6_6_steps(alpha0, s, t, r)
        if not steps.holds():
            values = [float(b.value) for b in steps.within + steps.between]
            return _R, f"witness alpha0 = {alpha0}, s = {s}, t = {t}, r = {r}: chain values {values}"
    return _C, (f"both chains non-decreasing, decided exactly, at {len(grid)} points: alpha0 in {{1/10, 1/2, 1, 2, 5}} "
                "and (s, t, r) in {(2, 2, 1/4), (3, 2, 1/5), (2, 3, 2/5), (1, 3, 1/3)}")


# ---------------------------------------------------------------------------------------------
# The concrete examples of Sections 3, 4.1 and 4.2
# ---------------------------------------------------------------------------------------------

_GOALS = ((_Q(1, 5), _Q(1, 30), _Q(8, 100)), (_Q(1, 5), 1, _Q(8, 1000)))  # (eps, tau, q): a day, the month
_MILES = 12930  # the paper's footnote: the largest surface distance on Earth, which normalises d_X


def concrete_alpha() -> tuple[Verdict, str]:
    """Section 3: protecting a day's locations within 1000 miles and the month's within 100 miles at eps = 0.2
    gives alpha = inf E(q, tau)/(q tau) = 25."""
    alpha = alpha_for_goals(_GOALS)
    if alpha != 25:
        return _R, f"alpha = min(0.2/((1/30) 0.08), 0.2/(1 0.008)) = {alpha}, not 25"
    return _C, "alpha = min(0.2/((1/30) 0.08), 0.2/(1 0.008)) = min(75, 25) = 25 exactly"


def concrete_linear_noise() -> tuple[Verdict, str]:
    """Section 4.1: noise ell/alpha = 0.04 per user, 0.04/sqrt(n) = 1.26e-4 in aggregate, about 1.6 miles."""
    alpha = alpha_for_goals(_GOALS)
    per_user, aggregate = linear_query_noise(1, alpha), linear_query_noise(1, alpha, n=10**5)
    miles = aggregate * _MILES
    if per_user != _Q(1, 25) or round(float(aggregate), 6) != 1.26e-4 or round(float(miles), 1) != 1.6:
        return _R, f"per user {per_user}, aggregate {float(aggregate):.6g}, {float(miles):.4g} miles"
    return _C, (f"ell/alpha = 1/25 = 0.04 per user (ell = 1, alpha = 25); 0.04/sqrt(1e5) = {float(aggregate):.5g} "
                f"(printed 1.26e-4), times {_MILES} miles = {float(miles):.4g} miles (printed 1.6)")


def concrete_composition_alpha0() -> tuple[Verdict, str]:
    """Section 4.2: composition over m = 1000 items needs alpha0 = alpha/m = 0.025."""
    alpha0 = composition_alpha0(alpha_for_goals(_GOALS), 1000)
    if alpha0 != _Q(1, 40):
        return _R, f"alpha/m = {alpha0}, not 0.025"
    return _C, "alpha0 = alpha/m = 25/1000 = 1/40 = 0.025 exactly"
