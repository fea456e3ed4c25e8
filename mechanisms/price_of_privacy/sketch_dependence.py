"""The exact joint law of one user's Multi-MaxSense sketches, and how far it is from independence.

Multi-MaxSense (000_0c6e7fdc3fd68303.txt, Fig. 3) shows a user Q disjoint public blocks B_1..B_Q of items;
she computes ``S0_q = 1{she rated some item of B_q positively}`` and releases each bit with an
independent (eps/Q)-DP bit release. The paper treats the Q released bits of one user as independent
("Independence between the answers is ensured" by the disjoint blocks), which its Theorem 16 proof needs
to reuse Theorem 15's Chernoff bound with U -> QU.

Law. Let item i be rated positively, when rated, with probability ``like[i]`` (for a user of class k in
the blockmodel, ``b[k][l(i)]``). For a set T of blocks, ``miss(T) = P(no item of the union of T is rated
positively)``. With W a uniform w-subset of the N items,

    miss(T) = e_w(c) / C(N, w),   c_i = 1 - like[i] for i in the union of T, 1 otherwise,

where e_w is the elementary symmetric polynomial (sum over w-subsets of the product of their c_i). By
inclusion-exclusion, ``P(S0 = 0 on A, 1 off A) = sum_{T ⊇ A} (-1)^{|T \\ A|} miss(T)``, and the released bits
have ``P(S = s) = sum_{s0} P(S0 = s0) prod_q (t^{1[s_q = s0_q]} / (1 + t))`` with ``t = e^{eps/Q}``.

Why the bits are dependent. Under uniform w-subsets the numbers of rated items in disjoint blocks are
multivariate hypergeometric, hence negatively dependent: ``miss(T ∪ T') != miss(T) miss(T')`` in general.
Under independent inclusion (each item rated with probability w/N; the model of Theorem 15's analysis,
spec E7) ``miss(T) = prod_{i in union} (1 - (w/N) like[i])`` factorises over disjoint blocks and the
bits are exactly independent. The dependence does not vanish as N grows at fixed w (it is of order 1/w
for blocks of N/w items); it is quantified by the total correlation
``C(S) = sum_s P(s) ln(P(s) / prod_q P(s_q))`` (the mutual information when Q = 2; 0 iff the bits are
independent) and the total variation between the joint law and the product of its marginals.

References: 000_0c6e7fdc3fd68303.txt, Section 5 (Multi-MaxSense, Fig. 3, Theorem 16); spec
banerjee_price_of_privacy.md, section 9, E7 and E12.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy

from dpcert.mechanisms.parameters import (
    InvalidParameterError,
    require_int,
    require_positive,
    require_unit_interval,
)

__all__ = ["SketchLaw", "multi_maxsense_sketch_law", "sketch_dependence"]

SAMPLINGS = ("subset", "independent")
_MAX_BLOCKS = 8


@dataclass(frozen=True)
class SketchLaw:
    """The exact law of one user's Q released bits: ``joint[s]`` for s in {0,1}^Q, and its marginals.

    Attributes:
        joint: mapping from each 0/1 tuple of length Q to its exact probability.
        marginals: ``marginals[q] = P(S_q = 1)``, exact.
    """

    joint: Mapping[tuple[int, ...], sympy.Expr]
    marginals: tuple[sympy.Expr, ...]

    def product(self) -> dict[tuple[int, ...], sympy.Expr]:
        """The product of the marginals, on the same outcomes."""
        return {s: sympy.Mul(*(m if bit else 1 - m for m, bit in zip(self.marginals, s))) for s in self.joint}


def _elementary_symmetric(values: Sequence[sympy.Expr], w: int) -> sympy.Expr:
    """e_w(values): the sum over w-subsets of the products of their entries (dynamic programme)."""
    e = [sympy.Integer(1)] + [sympy.Integer(0)] * w
    for v in values:
        for k in range(w, 0, -1):
            e[k] = e[k] + v * e[k - 1]
    return e[w]


def _validated_blocks(blocks: object, N: int) -> tuple[tuple[int, ...], ...]:
    if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Sequence) or not 1 <= len(blocks) <= _MAX_BLOCKS:
        raise InvalidParameterError(f"blocks must be a sequence of 1 to {_MAX_BLOCKS} item blocks. Got {blocks!r}")
    seen: set[int] = set()
    out = []
    for q, block in enumerate(blocks):
        if isinstance(block, (str, bytes)) or not isinstance(block, Sequence) or not block:
            raise InvalidParameterError(f"blocks[{q}] must be a non-empty sequence of items. Got {block!r}")
        items = tuple(require_int(f"blocks[{q}] item", i, minimum=0, maximum=N - 1) for i in block)
        if seen.intersection(items) or len(set(items)) != len(items):
            raise InvalidParameterError(f"blocks must be disjoint sets of items. Got {blocks!r}")
        seen.update(items)
        out.append(items)
    return tuple(out)


def multi_maxsense_sketch_law(like: Sequence[object], blocks: Sequence[Sequence[int]], w: int, eps: object, *,
                              sampling: str = "subset") -> SketchLaw:
    """The exact joint law of one user's Q Multi-MaxSense bits, given the public blocks.

    Args:
        like: ``like[i]`` = P(the user rates item i positively | she rated it), exact, in [0, 1]; its
            length is the number of items N.
        blocks: Q disjoint non-empty blocks of items (1 <= Q <= 8).
        w: ratings per user, 1 <= w <= N.
        eps: the user's total privacy parameter (> 0); each bit is released at eps/Q. Choose
            eps = Q ln t with t rational to keep every probability rational.
        sampling: ``"subset"`` (W a uniform w-subset: the paper's model) or ``"independent"`` (each
            item rated independently with probability w/N: Theorem 15's analysis).

    Returns:
        The SketchLaw (exact sympy numbers).

    References: 000_0c6e7fdc3fd68303.txt, Fig. 3 and Theorem 16; spec E12.
    """
    if isinstance(like, (str, bytes)) or not isinstance(like, Sequence):
        raise InvalidParameterError(f"like must be a sequence of probabilities, one per item. Got {like!r}")
    N = require_int("N (len(like))", len(like), minimum=1)
    likes = [require_unit_interval(f"like[{i}]", v, closed_right=True) for i, v in enumerate(like)]
    parts = _validated_blocks(blocks, N)
    w = require_int("w", w, minimum=1, maximum=N, maximum_name="N")
    eps = require_positive("eps", eps)
    if sampling not in SAMPLINGS:
        raise InvalidParameterError(f"sampling must be one of {', '.join(SAMPLINGS)}. Got {sampling!r}")
    Q = len(parts)
    miss: dict[frozenset[int], sympy.Expr] = {}
    for size in range(Q + 1):
        for T in itertools.combinations(range(Q), size):
            covered = {i for q in T for i in parts[q]}
            if sampling == "subset":
                c = [1 - likes[i] if i in covered else sympy.Integer(1) for i in range(N)]
                miss[frozenset(T)] = _elementary_symmetric(c, w) / math.comb(N, w)
            else:
                miss[frozenset(T)] = sympy.Mul(*(1 - sympy.Rational(w, N) * likes[i] for i in covered))
    sensed: dict[tuple[int, ...], sympy.Expr] = {}
    for s0 in itertools.product((0, 1), repeat=Q):
        zeros = frozenset(q for q in range(Q) if s0[q] == 0)
        ones = [q for q in range(Q) if s0[q] == 1]
        total = sympy.Integer(0)
        for size in range(len(ones) + 1):
            for extra in itertools.combinations(ones, size):
                total += (-1) ** size * miss[zeros | frozenset(extra)]
        sensed[s0] = total
    t = sympy.exp(eps / Q)
    keep, flip = t / (1 + t), 1 / (1 + t)
    joint = {}
    for s in itertools.product((0, 1), repeat=Q):
        joint[s] = sympy.simplify(sum(p * sympy.Mul(*(keep if a == b else flip for a, b in zip(s, s0)))
                                      for s0, p in sensed.items()))
    marginals = tuple(sympy.simplify(sum(p for s, p in joint.items() if s[q] == 1)) for q in range(Q))
    return SketchLaw(joint, marginals)


def sketch_dependence(law: SketchLaw) -> tuple[sympy.Expr, sympy.Expr]:
    """(total variation, total correlation in nats) between ``law``'s joint law and its product of marginals.

    Total variation ``(1/2) sum_s |P(s) - prod_q P(s_q)|`` (exact); total correlation
    ``sum_s P(s) ln(P(s) / prod_q P(s_q))`` (exact sympy expression; the mutual information I(S_1; S_2)
    when Q = 2). Both are 0 iff the bits are independent.
    """
    if not isinstance(law, SketchLaw):
        raise InvalidParameterError(f"law must be a SketchLaw. Got {type(law).__name__}")
    product = law.product()
    tv = sympy.Rational(1, 2) * sum(abs(law.joint[s] - product[s]) for s in law.joint)
    correlation = sum(p * sympy.log(p / product[s]) for s, p in law.joint.items() if p != 0)
    return sympy.simplify(tv), sympy.sympify(correlation)
