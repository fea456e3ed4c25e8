"""A user's sketch of her record in the clustering model, and the channel-mismatch bounds (Lemmas 9, 25).

Setting (spec ``banerjee_price_of_privacy.md`` §1.2): a clustering ``Z`` uniform on ``{0,1}^N``; a user
sees a uniform ``w``-subset ``I`` of the items ``0..N-1`` and their labels ``Z_I``; she releases a sketch
``S`` of her record ``(I, Z_I)``. The functions here enumerate the records, build the channel Z -> S,
compute ``I(Z; S)`` exactly, and evaluate the right-hand sides of Lemmas 9 and 25, which bound it
**in nats** only (they use ``log x <= x - 1``; spec §9 E1).

References: 000_0c6e7fdc3fd68303.txt (Section 4, Lemma 9, Lemma 25).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

import sympy

from dpcert.accountant.channel_information import _channel_rows, _exact_entry, _law, mutual_information
from dpcert.accountant.exact_intervals import _rational
from dpcert.accountant.input_validation import _items
from dpcert.mechanisms.exact_arithmetic import cancel_exponentials
from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["cluster_channel", "lemma_9_rhs", "lemma_25_rhs", "records", "sketch_information"]

Record = tuple[tuple[int, ...], tuple[int, ...]]


def records(N: object, w: object) -> tuple[Record, ...]:
    """The user records D = [N]_w x {0,1}^w as ``(items, labels)``, items 0..N-1 increasing.

    Order: item subsets in ``itertools.combinations`` order, then labels in ``itertools.product``
    order. ``len(records(N, w)) == C(N, w) * 2**w``. Rows of channels passed to :func:`lemma_9_rhs`
    and :func:`cluster_channel` follow this order.
    """
    n, k = _items(N, w)
    if math.comb(n, k) * 2**k > 10**6:
        raise InvalidParameterError(f"C(N, w) 2^w must be <= 10^6 to enumerate records. Got N={n}, w={k}")
    return tuple((i, z) for i in itertools.combinations(range(n), k) for z in itertools.product((0, 1), repeat=k))


def _record_rows(channel: object, N: int, w: int) -> tuple[list[list[Fraction | sympy.Expr]], tuple[Record, ...]]:
    recs = records(N, w)
    if isinstance(channel, Mapping):
        missing = [r for r in recs if r not in channel]
        if missing:
            raise InvalidParameterError(f"channel must give a row for every record; missing {missing[0]!r}")
        outputs: list[Hashable] = []
        for r in recs:
            row = channel[r]
            if not isinstance(row, Mapping):
                raise InvalidParameterError(f"channel[{r!r}] must map outputs to probabilities. Got {row!r}")
            outputs.extend(s for s in row if s not in outputs)
        matrix = [[channel[r].get(s, 0) for s in outputs] for r in recs]
        rows, _ = _channel_rows(matrix)
    else:
        rows, _ = _channel_rows(channel)
    if len(rows) != len(recs):
        raise InvalidParameterError(f"channel must have one row per record: C(N, w) 2^w = {len(recs)} rows. "
                                    f"Got {len(rows)}")
    return rows, recs


def cluster_channel(channel: object, N: object, w: object) -> list[list[Fraction | sympy.Expr]]:
    """The channel from the clustering Z to the sketch S: ``P(s | z) = C(N,w)^-1 sum_i P(s | i, z_i)``.

    Args:
        channel: rows P(s | record) in :func:`records` order (a matrix or ExactChannel), or a mapping
            from record to ``{output: probability}``.
        N, w: items and ratings per user.

    Returns:
        Rows for z in ``itertools.product((0, 1), repeat=N)`` order, exact.

    References: 000_0c6e7fdc3fd68303.txt, Section 4 (the Markov chain Z -> (I, Z_I) -> S).
    """
    n, k = _items(N, w)
    rows, recs = _record_rows(channel, n, k)
    index = {r: j for j, r in enumerate(recs)}
    subsets = list(itertools.combinations(range(n), k))
    weight = Fraction(1, len(subsets))
    out = []
    for z in itertools.product((0, 1), repeat=n):
        acc = None
        for i in subsets:
            row = rows[index[(i, tuple(z[t] for t in i))]]
            acc = list(row) if acc is None else [a + b for a, b in zip(acc, row)]
        out.append([a * weight for a in acc])
    return out


def sketch_information(channel: object, N: object, w: object, *, units: str = "nats") -> sympy.Expr:
    """Exact I(Z; S) for Z uniform on {0,1}^N, I a uniform w-subset and S ~ channel(I, Z_I).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 9 (its left-hand side).
    """
    n, k = _items(N, w)
    matrix = cluster_channel(channel, n, k)
    return mutual_information(matrix, [Fraction(1, 2**n)] * 2**n, units=units)


def lemma_9_rhs(channel: object, N: object, w: object) -> sympy.Expr:
    """The channel-mismatch bound of Lemma 9, in nats: ``sum_s P(s) (q_s^T K q_s - 1)``.

    ``q_s(x) = P((I, Z_I) = x | S = s)`` on D = [N]_w x {0,1}^w (uniform prior on D) and
    ``K[x1, x2] = 2^{|I1 ∩ I2|} 1{Z1, Z2 agree on I1 ∩ I2}``. Lemma 9: ``I(Z; S) <= RHS`` **in nats**
    for every channel P(S | I, Z_I), private or not (it is KL <= chi^2; false in bits, spec §9 E1).

    Args:
        channel: rows P(s | record) in :func:`records` order (a matrix or ExactChannel), or a mapping
            record -> {output: probability}.
        N, w: items and ratings per user (C(N, w) 2^w <= 10^6).

    Returns:
        The exact value (a Rational when the channel is rational).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 9 (eqs. 3-5).
    """
    n, k = _items(N, w)
    rows, recs = _record_rows(channel, n, k)
    subsets = list(itertools.combinations(range(n), k))
    labels = list(itertools.product((0, 1), repeat=k))
    size = len(recs)
    overlaps = {}
    for a, i1 in enumerate(subsets):
        for b, i2 in enumerate(subsets):
            common = sorted(set(i1) & set(i2))
            overlaps[a, b] = ([i1.index(t) for t in common], [i2.index(t) for t in common])
    total = Fraction(0) if all(isinstance(v, Fraction) for r in rows for v in r) else sympy.Integer(0)
    for s in range(len(rows[0])):
        column = [rows[x][s] for x in range(size)]
        mass = sum(column[1:], column[0])
        if mass == 0:
            continue
        if isinstance(total, Fraction):  # integer numerators over a common denominator
            denominator = math.lcm(*(v.denominator for v in column))
            column = [v.numerator * (denominator // v.denominator) for v in column]
            mass = sum(column)
        quadratic = 0
        for a in range(len(subsets)):
            for b in range(len(subsets)):
                pos1, pos2 = overlaps[a, b]
                left: dict[tuple[int, ...], object] = {}
                right: dict[tuple[int, ...], object] = {}
                for t, z in enumerate(labels):
                    key1 = tuple(z[p] for p in pos1)
                    key2 = tuple(z[p] for p in pos2)
                    left[key1] = left.get(key1, 0) + column[a * len(labels) + t]
                    right[key2] = right.get(key2, 0) + column[b * len(labels) + t]
                quadratic += 2**len(pos1) * sum(v * right.get(u, 0) for u, v in left.items())
        # P(s) (q^T K q - 1) = (1/D) (sum_{x1,x2} P(s|x1) P(s|x2) K / sum_x P(s|x) - sum_x P(s|x))
        if isinstance(total, Fraction):
            total += (Fraction(quadratic, mass) - mass) / (denominator * size)
        else:
            total += (sympy.sympify(quadratic) / mass - mass) / size
    return _rational(total) if isinstance(total, Fraction) else cancel_exponentials(sympy.sympify(total))


def lemma_25_rhs(posterior: Mapping[Record, object], z_law: object, *, N: object | None = None) -> sympy.Expr:
    """The general channel-mismatch bound of Lemma 25 (= Lemma 18) for one sketch value s, in nats.

    ``RHS_s = sum_{(i,a),(i',a')} p_s(i,a) p_s(i',a') [1{a ≡ a'} P(Z_{i∪i'} = a∪a') / (P(Z_i=a) P(Z_i'=a')) - 1]``
    where ``p_s(i, a) = P((I, Z_I) = (i, a) | S = s)`` and ``a ≡ a'`` means the labels agree on i ∩ i'.
    Lemma 25: ``KL(P_{Z|S=s} || P_Z) <= RHS_s`` for any law of Z and any law of I independent of Z
    (Jensen, then ``log x <= x - 1``: nats only).

    Args:
        posterior: mapping ``(items, labels) -> p_s(items, labels)``, exact, summing to 1 (items are
            increasing tuples over 0..N-1, labels a 0/1 tuple of the same length).
        z_law: the law of Z: a mapping ``z tuple -> probability`` or a sequence of 2^N probabilities in
            ``itertools.product((0, 1), repeat=N)`` order, exact, summing to 1.
        N: number of items (inferred from ``z_law`` when omitted).

    References: 000_0c6e7fdc3fd68303.txt, Lemma 25 (Appendix C; Lemma 18 in Section 6).
    """
    if isinstance(z_law, Mapping):
        keys = list(z_law)
        if not keys or not all(isinstance(k, tuple) for k in keys):
            raise InvalidParameterError("z_law must map 0/1 tuples z to probabilities")
        n = len(keys[0]) if N is None else require_int("N", N, minimum=1)
        space = list(itertools.product((0, 1), repeat=n))
        unknown = [k for k in keys if k not in set(space)]
        if unknown:
            raise InvalidParameterError(f"z_law keys must be 0/1 tuples of length N={n}. Got {unknown[0]!r}")
        law = _law("z_law", [z_law.get(z, 0) for z in space], len(space))
    else:
        if isinstance(z_law, (str, bytes)) or not isinstance(z_law, Sequence):
            raise InvalidParameterError(f"z_law must be a mapping or a sequence of 2^N probabilities. Got {z_law!r}")
        n = (len(z_law).bit_length() - 1) if N is None else require_int("N", N, minimum=1)
        if len(z_law) != 2**n:
            raise InvalidParameterError(f"z_law must have 2^N = {2**n} entries. Got {len(z_law)}")
        space = list(itertools.product((0, 1), repeat=n))
        law = _law("z_law", z_law, len(space))
    if not isinstance(posterior, Mapping) or not posterior:
        raise InvalidParameterError(f"posterior must be a non-empty mapping record -> probability. Got {posterior!r}")
    post = []
    for key, p in posterior.items():
        if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(t, tuple) for t in key)
                and len(key[0]) == len(key[1]) and all(0 <= t < n for t in key[0])
                and list(key[0]) == sorted(set(key[0])) and all(v in (0, 1) for v in key[1])):
            raise InvalidParameterError(f"posterior keys must be (items, labels) records over N={n} items. Got {key!r}")
        value = _exact_entry(f"posterior[{key!r}]", p)
        if value != 0:
            post.append((key, value))
    values = [v for _, v in post]
    _law("posterior", values, len(values))

    def marginal(items: tuple[int, ...], labels: tuple[int, ...]):
        terms = [law[j] for j, z in enumerate(space) if all(z[t] == v for t, v in zip(items, labels))]
        return sum(terms[1:], terms[0]) if terms else 0

    cache: dict[tuple, object] = {}

    def prob(items, labels):
        key = (items, labels)
        if key not in cache:
            cache[key] = marginal(items, labels)
        return cache[key]

    total = 0
    for (i1, a1), p1 in post:
        m1 = prob(i1, a1)
        if m1 == 0:
            raise InvalidParameterError(f"posterior gives probability to record {(i1, a1)!r}, impossible under z_law")
        for (i2, a2), p2 in post:
            joint = dict(zip(i1, a1))
            if any(joint.get(t, v) != v for t, v in zip(i2, a2)):
                continue  # the labels disagree on the overlap
            joint.update(zip(i2, a2))
            items = tuple(sorted(joint))
            total += p1 * p2 * prob(items, tuple(joint[t] for t in items)) / (m1 * prob(i2, a2))
    total -= 1
    return _rational(total) if isinstance(total, Fraction) else cancel_exponentials(sympy.sympify(total))
