"""Machinery behind claims of the price-of-privacy paper that take more than a formula.

- Lemma 30 (Appendix D): ``H(P^0) - H(P^T) >= D(p || p^0)`` for the law p of any function F of
  Z in {0,1}^N, with P^0 uniform. Why it holds: since P^0 is uniform, ``H(P^0) - H(P^T) =
  D(P^T || P^0)``, and the chain rule gives ``D(P^T || P^0) = D(p || p^0) + sum_f p_f D(P^T(.|F=f) ||
  P^0(.|F=f)) >= D(p || p^0)``. :func:`lemma_30_cases` evaluates the three terms at 50 digits on
  enumerated laws and checks both the inequality and the chain-rule identity.
- E11 (Theorem 14 without eps < ln 2): :func:`theorem_14_symbolic_steps` checks, for symbolic
  eps' > 0, D, a, the algebra that makes Lemma 28's vertices and Bessel's bound independent of
  eps' < 1; :func:`theorem_14_true_box_maximum` maximises Theorem 14's main term exactly over the true
  feasible set ``p_x D in [e^-eps, e^eps]`` for eps >= ln 2 by vertex enumeration.
- E13 (the eps^2 rate): :func:`ldp_information_quadratic_steps` checks the Bhatia-Davis step behind
  ``I(X; Y) <= 2 (cosh eps - 1)`` nats for every eps-LDP channel, and the w = 1 form of Theorem 14.
- Lemma 25 (= Lemma 18): :func:`lemma_25_sides` gives, for one channel and arbitrary laws of Z and I,
  both sides ``KL(P_{Z|S=s} || P_Z)`` and ``RHS_s`` exactly for every sketch value s.
- Theorem 14's box (18): :func:`theorem_14_box_vertex_maximum` maximises the main term over the
  vertices p^A of the box (Lemma 28), which is its maximum over the whole box since it is convex.
- Appendix B: :func:`pair_sketch_joint_probability` computes ``P[S_u = 1, P_u = {i, j}]`` of
  Pairwise-Preference from the sketch's pmf, by enumerating one user's data.
- Section 4.2: :func:`membership_yes_probability` computes the chance that a user answers yes to the
  random query "is (I, Z) = (i, b)?", from :class:`MembershipQuery`'s pmf.

References: 000_0c6e7fdc3fd68303.txt, Lemma 25, Lemma 28, Lemma 30, Theorem 14, Section 4.2, Section 5,
Appendix B; spec section 9, E8, E11-E13.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import sympy

from dpcert.accountant.price_of_privacy import lemma_25_rhs, records, theorem_14_main_term
from dpcert.mechanisms.mp_contexts import real_context
from dpcert.mechanisms.price_of_privacy import MembershipQuery, PairwisePreferenceSketch, enumerate_user_data

__all__ = ["LEMMA_30_TOLERANCE", "ldp_information_quadratic_steps", "lemma_25_sides", "lemma_30_cases",
           "membership_yes_probability", "pair_sketch_joint_probability", "theorem_14_box_vertex_maximum",
           "theorem_14_symbolic_steps", "theorem_14_true_box_maximum", "vector_facts"]

_MP50 = real_context(170)
"""50 digits in a private mpmath context."""
LEMMA_30_TOLERANCE = _MP50.mpf(10) ** -40
"""Slack for 50-digit evaluations of terms that are equal exactly (the lemma's equality cases)."""


def _mp(value: Fraction):
    return _MP50.mpf(value.numerator) / value.denominator


def _entropy(law: list[Fraction]):
    mp = _MP50
    return -mp.fsum(_mp(p) * mp.log(_mp(p)) for p in law if p)


def _kl(p: list[Fraction], q: list[Fraction]):
    mp = _MP50
    return mp.fsum(_mp(a) * (mp.log(_mp(a)) - mp.log(_mp(b))) for a, b in zip(p, q) if a)


def lemma_30_cases(*, seed: int = 30):
    """Yield (N, F name, gap, divergence, chain-rule residual) for seeded random laws P^T on {0,1}^N.

    gap = H(P^0) - H(P^T) with H(P^0) = N ln 2; divergence = D(p || p^0) for p the law of F; the
    residual is gap - divergence - sum_f p_f D(P^T(.|F=f) || P^0(.|F=f)) (0 by the chain rule).
    All in nats, 50 digits. Some laws are constant on the fibres of F (gap = divergence exactly).
    """
    rng = random.Random(seed)
    mp = _MP50
    for N in (1, 2, 3, 4):
        space = list(itertools.product((0, 1), repeat=N))
        functions = {"sum of bits": lambda z: sum(z), "first bit": lambda z: z[0],
                     "random map to 3 values": None, "identity": lambda z: z}
        for name, F in functions.items():
            if F is None:
                table = {z: rng.randrange(3) for z in space}
                F = table.__getitem__
            values = sorted({F(z) for z in space})
            for kind in ("random", "fibre-constant", "point mass"):
                if kind == "random":
                    weights = [rng.randint(0, 9) for _ in space]
                    weights[rng.randrange(len(space))] += 1
                elif kind == "fibre-constant":  # P^T uniform on each fibre: the bound is attained
                    fibre_weight = {f: rng.randint(1, 9) for f in values}
                    sizes = {f: sum(1 for z in space if F(z) == f) for f in values}
                    weights = [Fraction(fibre_weight[F(z)], sizes[F(z)]) for z in space]
                else:
                    weights = [0] * len(space)
                    weights[rng.randrange(len(space))] = 1
                total = sum(weights)
                law = [Fraction(v) / total for v in weights]
                gap = N * mp.log(2) - _entropy(law)
                p = [sum((law[j] for j, z in enumerate(space) if F(z) == f), Fraction(0)) for f in values]
                p0 = [Fraction(sum(1 for z in space if F(z) == f), len(space)) for f in values]
                divergence = _kl(p, p0)
                within = mp.mpf(0)
                for f, pf in zip(values, p):
                    if pf == 0:
                        continue
                    fibre = [j for j, z in enumerate(space) if F(z) == f]
                    within += _mp(pf) * _kl([law[j] / pf for j in fibre], [Fraction(1, len(fibre))] * len(fibre))
                yield N, f"{name}, {kind}", gap, divergence, gap - divergence - within


def theorem_14_symbolic_steps() -> list[str]:
    """The eps-dependent algebra of Theorem 14's proof, checked for symbolic eps' > 0; the failures, if any.

    1. Lemma 28 for every eps' > 0: with D - 1 coordinates at the box's ends, a of them at the upper
       end (1 + eps')/D, the sum constraint fixes the last coordinate at x/D, x = 1 - eps'(2a - D + 1), and
       ``x - (1 - eps') = eps'(D - 2a)``, ``(1 + eps') - x = eps'(2a - D + 2)``: it lies in the box iff
       D/2 - 1 <= a <= D/2 whatever eps' > 0 is, and then exactly D/2 coordinates sit at the upper end.
    2. At such a vertex p^A, ``sum_x p^A_x v_l(x) = ((1 - eps')/D) sum_x v_l(x) + (2 eps'/D) <1_A, v_l>``
       and ``sum_x v_l(x) = 0``; Bessel gives ``(2 eps'/D)^2 (wD/N)(D/2) = 2 eps'^2 w/N``.
    3. The relaxed box contains the true one for every eps: ``1 - eps' <= e^-eps`` with eps' = e^eps - 1,
       i.e. ``e^-eps - 2 + e^eps = (t - 1)^2 / t >= 0`` (t = e^eps).
    """
    e, D, a, w, N, t = sympy.symbols("eps_prime D a w N t", positive=True)
    failures = []
    x = 1 - e * (2 * a - D + 1)
    lo, hi = 1 - e, 1 + e
    if sympy.expand((x - lo) - e * (D - 2 * a)) != 0 or sympy.expand((hi - x) - e * (2 * a - D + 2)) != 0:
        failures.append("free coordinate of a Lemma 28 vertex")
    inner, total = sympy.symbols("inner total")  # <1_A, v_l> and sum_x v_l(x)
    projection = lo / D * total + (hi - lo) / D * inner
    if sympy.simplify(projection.subs(total, 0) - 2 * e / D * inner) != 0:
        failures.append("pi_l0 - pi_l1 at a vertex")
    if sympy.simplify((2 * e / D) ** 2 * (w * D / N) * (D / 2) - 2 * e**2 * w / N) != 0:
        failures.append("Bessel bound")
    if sympy.simplify((1 / t - (1 - (t - 1))) - (t - 1) ** 2 / t) != 0:
        failures.append("relaxed box contains the true box")
    return failures


def _v_signs(N: int, w: int) -> list[list[int]]:
    """v_l(x) = 1{l in i}(1 - 2 z(l)) for each item l and record x = (i, z) in records order."""
    recs = records(N, w)
    return [[(1 - 2 * z[i.index(l)]) if l in i else 0 for i, z in recs] for l in range(N)]


def theorem_14_true_box_maximum(N: int, w: int, t: Fraction) -> Fraction:
    """max of sum_l (pi_l0 - pi_l1)^2 over {sum p = 1, p_x D in [1/t, t]}, exactly, by vertex enumeration.

    The objective is convex, so its maximum over the polytope is at a vertex; a vertex has D - 1
    coordinates at an end of the box and the last one fixed by the sum.
    """
    v = _v_signs(N, w)
    D = len(v[0])
    lo, hi = Fraction(1, D) / t, Fraction(1, D) * t
    best = Fraction(0)
    for free in range(D):
        for ends in itertools.product((lo, hi), repeat=D - 1):
            rest = 1 - sum(ends, Fraction(0))
            if not lo <= rest <= hi:
                continue
            p = ends[:free] + (rest,) + ends[free:]
            best = max(best, sum((sum((s * q for s, q in zip(row, p) if s), Fraction(0))) ** 2 for row in v))
    return best


def ldp_information_quadratic_steps() -> list[str]:
    """Checks behind ``I(X; Y) <= 2 (cosh eps - 1)`` nats for every eps-LDP channel; the failures, if any.

    I(X; Y) = E_X KL(P_{Y|X} || P_Y) <= E_X chi^2(P_{Y|X} || P_Y) (KL <= ln(1 + chi^2) <= chi^2). Each ratio
    r(y) = P(y|x)/P(y) lies in [1/t, t] (t = e^eps) and has mean 1 under P_Y, so by the Bhatia-Davis
    inequality chi^2 = Var(r) <= (t - 1)(1 - 1/t) = t + 1/t - 2 = 2(cosh eps - 1). Checked: that identity,
    its small-eps order (eps^2), and that Lemma 6's eps is not of that order (ratio -> 0).
    """
    t, eps = sympy.symbols("t eps", positive=True)
    failures = []
    if sympy.simplify((t - 1) * (1 - 1 / t) - (t + 1 / t - 2)) != 0:
        failures.append("Bhatia-Davis bound")
    quadratic = 2 * (sympy.cosh(eps) - 1)
    if sympy.limit(quadratic / eps**2, eps, 0) != 1:
        failures.append("2(cosh eps - 1) ~ eps^2")
    if sympy.limit(quadratic / eps, eps, 0) != 0:
        failures.append("2(cosh eps - 1) = o(eps)")
    n = sympy.Symbol("N", positive=True)
    ratio = (n - 1) / n  # R(N, 1) = C(N-1, 1)/C(N, 1)
    if sympy.simplify(1 + 1 / n - (1 + 2 / (n - 1)) * ratio) != 0:
        failures.append("Theorem 14's tail vanishes at w = 1")
    return failures


def vector_facts(N: int, w: int) -> bool:
    """sum_x v_l(x) = 0, <v_l, v_l'> = 0 (l != l') and ||v_l||^2 = w D / N on the records of (N, w), exactly."""
    v = _v_signs(N, w)
    D = len(v[0])
    gram = [[sum(a * b for a, b in zip(v[l], v[m])) for m in range(N)] for l in range(N)]
    return (all(sum(row) == 0 for row in v) and all(gram[l][m] == 0 for l in range(N) for m in range(N) if l != m)
            and all(gram[l][l] * N == w * D for l in range(N)))


def lemma_25_sides(channel: list[list[Fraction]], z_law: list[Fraction], i_law: list[Fraction], N: int,
                   w: int) -> list[tuple[int, dict, sympy.Expr, sympy.Expr]]:
    """(s, posterior p_s, KL(P_{Z|S=s} || P_Z), Lemma 25's RHS_s) for every s with P(S = s) > 0, exact, nats.

    Z has the law ``z_law`` on {0,1}^N (``itertools.product`` order, every entry positive), I the law
    ``i_law`` on the w-subsets (``itertools.combinations`` order), independent of Z, and S ~
    ``channel`` (rows in :func:`records` order) given (I, Z_I). The joint is
    ``P(z, s) = sum_i P(i) P(z) P(s | i, z_i)``; the posterior of the record is
    ``p_s(i, a) = P(i) P(Z_i = a) P(s | i, a) / P(s)``.
    """
    z_space = list(itertools.product((0, 1), repeat=N))
    subsets = list(itertools.combinations(range(N), w))
    index = {r: j for j, r in enumerate(records(N, w))}
    sides = []
    for s in range(len(channel[0])):
        joint = [sum(i_law[a] * z_law[j] * channel[index[(i, tuple(z[t] for t in i))]][s]
                     for a, i in enumerate(subsets)) for j, z in enumerate(z_space)]
        ps = sum(joint)
        if ps == 0:
            continue
        posterior = {}
        for a, i in enumerate(subsets):
            for labels in itertools.product((0, 1), repeat=w):
                mass = sum(z_law[j] for j, z in enumerate(z_space) if tuple(z[t] for t in i) == labels)
                posterior[(i, labels)] = i_law[a] * mass * channel[index[(i, labels)]][s] / ps
        kl = sympy.Add(*(sympy.Rational(p / ps) * sympy.log(sympy.Rational(p / ps / z_law[j]))
                         for j, p in enumerate(joint) if p))
        sides.append((s, posterior, kl, lemma_25_rhs(posterior, z_law)))
    return sides


def theorem_14_box_vertex_maximum(N: int, w: int, eps_prime: Fraction) -> Fraction:
    """max of sum_l (pi_l0 - pi_l1)^2 over the vertices p^A of {sum p = 1, p_x D in [1 - eps', 1 + eps']}, exactly.

    p^A puts (1 + eps')/D on the D/2 records of A and (1 - eps')/D on the others (Lemma 28: these are
    all the vertices). The main term is convex in p, so this is its maximum over the whole box.
    """
    D = len(records(N, w))
    lo, hi = (1 - eps_prime) / D, (1 + eps_prime) / D
    best = Fraction(0)
    for A in itertools.combinations(range(D), D // 2):
        chosen = set(A)
        value = theorem_14_main_term([hi if x in chosen else lo for x in range(D)], N, w)
        best = max(best, Fraction(int(value.p), int(value.q)))
    return best


def pair_sketch_joint_probability(N: int, w: int, eps: sympy.Expr, rates: tuple[Fraction, ...]) -> sympy.Expr:
    """P[S_u = 1, P_u = {0, 1}] for Pairwise-Preference (rule (a)) by enumerating one user's data, exactly.

    P_u is a uniform unordered pair of [N] (Fig. 1, "at random"), W_u a uniform w-subset and item i rated
    1 with probability ``rates[i]``, independently; P[S_u = 1 | P_u = {0, 1}, x] is the sketch's pmf.
    """
    sketch = PairwisePreferenceSketch(N, w, eps, pair=(0, 1))
    total = sympy.Integer(0)
    for items, ratings in enumerate_user_data(N, w):
        weight = sympy.Rational(1, math.comb(N, w))
        for item, rating in zip(items, ratings):
            weight *= rates[item] if rating else 1 - rates[item]
        total += weight * sketch.pmf((items, ratings))[1]
    return sympy.simplify(total / math.comb(N, 2))


def membership_yes_probability(z: tuple[int, ...], item: int) -> Fraction:
    """P(a user answers yes to "is (I, Z) = (item, b)?"), b a fair coin, I uniform, for the clustering z.

    Each user holds one uniform item I and its bit z(I) (w = 1); the answer is
    :class:`MembershipQuery` with A = {(item, b)}, averaged over b and I.
    """
    N = len(z)
    total = Fraction(0)
    for b in (0, 1):
        query = MembershipQuery(N, A=((item, b),))
        for i in range(N):
            total += Fraction(int(query.pmf(((i,), (z[i],))).get(1, 0)), 2 * N)
    return total
