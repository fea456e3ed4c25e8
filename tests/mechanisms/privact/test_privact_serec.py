"""SERec as PRIVACT's Table 3 ran it (004_a0cddc0a7a24fb37.txt, Section 7; the RecQ model of spec §2.8): the
batched EM against a deliberately simple per-user, per-item loop, the prior's dependence on contact counts
only, Basic SERec as ExpoMF's Beta prior, the top-k lists, and bad inputs."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact.serec import (
    RECQ_PARAMETERS,
    SERecParameters,
    _best_k,
    contact_counts,
    fit_serec,
    serec_top_k,
)


def _loop_serec(clicks: np.ndarray, contacts: np.ndarray | None, p: SERecParameters, seed: int):
    """The model by the book, one user and one item at a time (RecQ's update order), for small matrices."""
    n, m = clicks.shape
    s = 1.0 if contacts is None else p.s
    d = np.zeros(n) if contacts is None else contacts
    rng = np.random.default_rng(seed)
    theta = p.init_std * rng.standard_normal((n, p.factors))
    beta = p.init_std * rng.standard_normal((m, p.factors))
    mu = np.full((n, m), p.init_mu)

    def exposure(u: int, i: int, th: np.ndarray, be: np.ndarray) -> float:
        if clicks[u, i]:
            return 1.0
        density = np.sqrt(p.lam_y / (2 * np.pi)) * np.exp(-p.lam_y * float(th[u] @ be[i]) ** 2 / 2) + 1e-8
        return density / (density + (1 - mu[u, i]) / mu[u, i])

    for _ in range(p.epochs):
        new_theta = np.empty_like(theta)
        for u in range(n):
            gram = p.lam_theta / p.lam_y * np.eye(p.factors)
            rhs = np.zeros(p.factors)
            for i in range(m):
                a = exposure(u, i, theta, beta)
                gram += a * np.outer(beta[i], beta[i])
                rhs += clicks[u, i] * a * beta[i]
            new_theta[u] = np.linalg.solve(gram, rhs)
        new_beta = np.empty_like(beta)
        for i in range(m):
            gram = p.lam_beta / p.lam_y * np.eye(p.factors)
            rhs = np.zeros(p.factors)
            for u in range(n):
                a = exposure(u, i, new_theta, beta)
                gram += a * np.outer(new_theta[u], new_theta[u])
                rhs += clicks[u, i] * a * new_theta[u]
            new_beta[i] = np.linalg.solve(gram, rhs)
        theta, beta = new_theta, new_beta
        mass = np.array([sum(exposure(u, i, theta, beta) for u in range(n)) for i in range(m)])
        for u in range(n):
            for i in range(m):
                boost = (s - 1) * d[u] * mass[i]
                mu[u, i] = (p.a + mass[i] + boost - 1) / (p.a + p.b + boost + n - 2)
    return theta, beta, mass


def _toy(seed: int, users: int = 7, items: int = 9):
    rng = np.random.default_rng(seed)
    dense = (rng.random((users, items)) < 0.35).astype(float)
    dense[np.arange(users), rng.integers(0, items, users)] = 1.0  # every user clicks something
    return dense, scipy.sparse.csr_array(dense * rng.integers(1, 5, dense.shape) / 4)


@pytest.mark.parametrize("social", [False, True])
def test_batched_em_matches_the_loop(social):
    dense, train = _toy(11)
    contacts = np.array([0, 3, 1, 2, 5, 0, 4], dtype=float) if social else None
    p = SERecParameters(factors=3, epochs=3)
    model = fit_serec(train, contacts, parameters=p, seed=7)
    theta, beta, mass = _loop_serec(dense, contacts, p, seed=7)
    np.testing.assert_allclose(model.theta, theta, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(model.beta, beta, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(model.exposure_mass, mass, rtol=1e-12)


def test_the_loop_oracle_tells_a_social_prior_from_none():
    # power check: the oracle is sensitive to the social term, so the test above can fail
    dense, train = _toy(11)
    p = SERecParameters(factors=3, epochs=2)
    social = fit_serec(train, np.arange(7, dtype=float), parameters=p, seed=7)
    theta, _, _ = _loop_serec(dense, None, p, seed=7)
    assert np.max(np.abs(social.theta - theta)) > 1e-6


def test_the_prior_reads_only_contact_counts():
    # RecQ's social boost is T · (A tiled over users) = d_u · A_i: two relations with the same counts give one model
    _, train = _toy(4, users=6)
    ring = [np.array([(u + 1) % 6, (u - 1) % 6]) for u in range(6)]           # a 6-cycle: every d_u = 2
    triangles = [np.array([v for v in (3 * (u // 3) + w for w in range(3)) if v != u]) for u in range(6)]
    assert contact_counts(6, ring).tolist() == contact_counts(6, triangles).tolist() == [2.0] * 6
    p = SERecParameters(factors=2, epochs=3)
    one, two = (fit_serec(train, contact_counts(6, r), parameters=p, seed=1) for r in (ring, triangles))
    np.testing.assert_array_equal(one.theta, two.theta)
    np.testing.assert_array_equal(one.beta, two.beta)


def test_basic_serec_is_expomf_with_the_beta_prior():
    # s = 1 removes the social term whatever the counts: Basic SERec; its prior is (a + A_i - 1)/(a + b + n - 2)
    _, train = _toy(5)
    p = SERecParameters(factors=2, epochs=2)
    basic = fit_serec(train, None, parameters=p, seed=3)
    unboosted = fit_serec(train, np.arange(7, dtype=float), parameters=SERecParameters(factors=2, epochs=2, s=1.0),
                          seed=3)
    np.testing.assert_array_equal(basic.theta, unboosted.theta)
    assert basic.parameters.s == 1.0 and not basic.contacts.any()


def test_contact_counts_write_the_relation_both_ways_once():
    # N(0) = {1, 2}, N(1) = {0}, N(2) = {}, N(3) = {3}: pairs {0,1}, {0,2}; the self-pair is dropped
    relation = [np.array([1, 2]), np.array([0]), np.array([], dtype=int), np.array([3])]
    assert contact_counts(4, relation).tolist() == [2.0, 1.0, 1.0, 0.0]


def test_top_k_leaves_out_training_items_and_ranks_by_score():
    dense, train = _toy(8)
    model = fit_serec(train, None, parameters=SERecParameters(factors=2, epochs=2), seed=0)
    lists = serec_top_k(model, train, [0, 3], k=4)
    for row, u in zip(lists, (0, 3)):
        unseen = np.flatnonzero(dense[u] == 0)
        scores = model.theta[u] @ model.beta.T
        expected = unseen[np.argsort(-scores[unseen], kind="stable")][:4]
        assert row[: expected.size].tolist() == expected.tolist()


def test_best_k_is_a_stable_sorts_first_k_with_ties_and_left_out_items():
    # oracle: the full stable argsort; small integer scores make ties at the k-th place common
    rng = np.random.default_rng(23)
    for _ in range(300):
        rows, cols = int(rng.integers(1, 8)), int(rng.integers(1, 30))
        scores = rng.integers(-3, 4, (rows, cols)).astype(float)
        scores[rng.random((rows, cols)) < 0.2] = -np.inf
        k = int(rng.integers(1, cols + 1))
        expected = np.argsort(-scores, axis=1, kind="stable")[:, :k]
        np.testing.assert_array_equal(_best_k(scores, k), expected)


@pytest.mark.parametrize("kwargs, name", [
    ({"factors": 0}, "factors"), ({"epochs": 0}, "epochs"), ({"lam_y": 0.0}, "lam_y"),
    ({"init_mu": 1.0}, "init_mu"), ({"a": 0.5}, "a"), ({"b": float("inf")}, "b"), ({"s": 0.9}, "s"),
    ({"init_std": float("nan")}, "init_std"),
])
def test_bad_parameters_name_themselves(kwargs, name):
    with pytest.raises(InvalidParameterError, match=f"^{name} "):
        SERecParameters(**kwargs)


def test_bad_inputs_name_the_argument():
    _, train = _toy(2)
    with pytest.raises(InvalidParameterError, match="^train "):
        fit_serec(np.ones((3, 3)), None)
    with pytest.raises(InvalidParameterError, match="^contacts "):
        fit_serec(train, np.ones(3))
    with pytest.raises(InvalidParameterError, match="^contacts "):
        fit_serec(train, -np.ones(7))
    with pytest.raises(InvalidParameterError, match="^relation"):
        contact_counts(2, [np.array([5]), np.array([0])])
    with pytest.raises(InvalidParameterError, match="^relation"):
        contact_counts(2, [np.array([1.7]), np.array([])])  # a float index is not truncated to a user
    with pytest.raises(InvalidParameterError, match="^relation"):
        contact_counts(2, 5)
    model = fit_serec(train, None, parameters=SERecParameters(factors=1, epochs=1))
    with pytest.raises(InvalidParameterError, match="^k "):
        serec_top_k(model, train, [0], k=0)
    with pytest.raises(InvalidParameterError, match="^users "):
        serec_top_k(model, train, [99], k=3)
    assert RECQ_PARAMETERS.s == 2.2 and RECQ_PARAMETERS.b == 99.0  # RecQ's constants (spec §2.8)
