"""SERec as PRIVACT's Table 3 ran it: exposure matrix factorisation with a social exposure prior.

PRIVACT (Section 7, Table 3) runs SERec, Wang et al.'s social-exposure recommender (AAAI 2018), through
the RecQ library (spec §2.8); this module is that model, written from RecQ's definition. For training
clicks y_ui ∈ {0, 1} (a stored rating is a click), user and item factors θ_u, β_i ∈ R^f and an exposure
a_ui ~ Bernoulli(μ_ui):

    y_ui | a_ui = 1 ~ N(θ_u·β_i, 1/λ_y),    y_ui | a_ui = 0 = 0.

Each epoch (EM with alternating ridge regressions, as ExpoMF, Liang et al. WWW 2016):

- E-step: E[a_ui] = 1 where y_ui = 1, else p/(p + (1 − μ_ui)/μ_ui) with p = N(0; θ_u·β_i, 1/λ_y) + 1e-8
  (both p and the +1e-8 as RecQ computes them);
- θ_u = (Σ_i E[a_ui] β_i β_iᵀ + (λ_θ/λ_y) I)⁻¹ Σ_i y_ui E[a_ui] β_i, with E[a] from the old θ; then
  β_i likewise, with E[a] from the new θ and the old β;
- exposure prior: with A_i = Σ_u E[a_ui] and d_u the number of u's social contacts,

      μ_ui = (a + A_i + (s − 1) d_u A_i − 1) / (a + b + (s − 1) d_u A_i + n − 2).

  That is RecQ's "social boosting" update: its social matrix times the item masses tiled over users is
  d_u · A_i, so the social graph enters the model **only through each user's contact count d_u**. Basic
  SERec, the paper's non-social baseline, is the same model with the social term removed (s = 1, or
  d ≡ 0), which is ExpoMF with a per-item Beta(a, b) popularity prior.

Prediction ranks items by θ_u·β_i; a user's training items are left out of the list (existing users).
PRIVACT-SERec feeds SERec the released tree's top-m relation written both ways (spec §2.7, [code]), so its
d_u = |N(u) ∪ {u′ : u ∈ N(u′)}|: post-processing of PRIVACT's release.

The constants are RecQ's (:data:`RECQ_PARAMETERS`: λ_θ = λ_β = 1e-5, λ_y = 0.01, μ₀ = 0.01, a = 1,
b = 99, s = 2.2, initial factors N(0, 0.5²)). The factor count and the number of epochs come from a
configuration file the paper does not give; here they are parameters (defaults 10 and 10, labelled).
The computation is numpy float64 throughout; it is an experiment, not a bound.

References: 004_a0cddc0a7a24fb37.txt, Section 7, Table 3; spec §2.7, §2.8, §4.3; Wang, Zheng, Yang, Zhang,
"Collaborative Filtering with Social Exposure: A Modular Approach to Social Recommendation", AAAI 2018;
Liang, Charlin, McInerney, Blei, "Modeling User Exposure in Recommendation", WWW 2016.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError, require_int
from dpcert.mechanisms.privact.recommenders import TOP_K

__all__ = ["RECQ_PARAMETERS", "SERecModel", "SERecParameters", "contact_counts", "fit_serec",
           "serec_top_k"]

_PROBABILITY_FLOOR = 1e-8
"""Added to the Gaussian density in the E-step (RecQ's EPS)."""

_BATCH_CELLS = 4_000_000
"""Cells of one dense (rows × columns) exposure block; bounds the memory of a batch at about 100 MB."""


@dataclass(frozen=True)
class SERecParameters:
    """SERec's hyperparameters.

    Attributes:
        factors: f, the latent dimension (not given by the paper; default 10).
        epochs: EM epochs (not given by the paper; default 10).
        lam_theta, lam_beta: ridge weights of the user and item factors.
        lam_y: the click precision λ_y.
        init_mu: the exposure prior before the first update.
        a, b: the Beta prior of an item's exposure.
        s: the social boost (1 turns the social term off: Basic SERec).
        init_std: the standard deviation of the initial factors.
    """

    factors: int = 10
    epochs: int = 10
    lam_theta: float = 1e-5
    lam_beta: float = 1e-5
    lam_y: float = 0.01
    init_mu: float = 0.01
    a: float = 1.0
    b: float = 99.0
    s: float = 2.2
    init_std: float = 0.5

    def __post_init__(self) -> None:
        require_int("factors", self.factors, minimum=1, maximum=200)
        require_int("epochs", self.epochs, minimum=1, maximum=1000)
        for name in ("lam_theta", "lam_beta", "lam_y", "init_std"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0 < value < float("inf")):
                raise InvalidParameterError(f"{name} must be a positive finite number. Got {value!r}")
        if not (isinstance(self.init_mu, (int, float)) and 0 < self.init_mu < 1):
            raise InvalidParameterError(f"init_mu must be in (0, 1). Got {self.init_mu!r}")
        if not (isinstance(self.a, (int, float)) and 1 <= self.a < float("inf")):
            raise InvalidParameterError(f"a must be a finite number >= 1. Got {self.a!r}")
        if not (isinstance(self.b, (int, float)) and 1 <= self.b < float("inf")):
            raise InvalidParameterError(f"b must be a finite number >= 1. Got {self.b!r}")
        if not (isinstance(self.s, (int, float)) and 1 <= self.s < float("inf")):
            raise InvalidParameterError(f"s must be a finite number >= 1 (1: no social term). Got {self.s!r}")


RECQ_PARAMETERS = SERecParameters()
"""RecQ's constants with this module's factor and epoch defaults."""


@dataclass(frozen=True, eq=False)
class SERecModel:
    """A fitted SERec.

    Attributes:
        theta: user factors (users, f).
        beta: item factors (items, f).
        exposure_mass: A_i = Σ_u E[a_ui] from the last E-step (items,).
        contacts: d_u, the social contact counts the prior used (users,); zeros for Basic SERec.
        parameters: the hyperparameters.
    """

    theta: np.ndarray
    beta: np.ndarray
    exposure_mass: np.ndarray
    contacts: np.ndarray
    parameters: SERecParameters

    def scores(self, users: Sequence[int]) -> np.ndarray:
        """θ_u·β_i for the given users ((users, items))."""
        return self.theta[np.asarray(users, dtype=np.int64)] @ self.beta.T


def contact_counts(n_users: int, relation: Sequence[np.ndarray]) -> np.ndarray:
    """d_u of a relation given as each user's list of contacts, written both ways and without repeats.

    ``relation[u]`` lists u's contacts (a friend list, or PRIVACT's N(u)); the pair is counted for u and for
    each contact, once, as RecQ's trust file holds (u, u′) and (u′, u) (spec §2.7).
    """
    n_users = require_int("n_users", n_users, minimum=1)
    if isinstance(relation, (str, bytes)) or not isinstance(relation, Sequence) or len(relation) != n_users:
        raise InvalidParameterError(f"relation must give one contact list per user ({n_users}). Got {relation!r:.80}")
    rows = np.concatenate([np.full(len(c), u, dtype=np.int64) for u, c in enumerate(relation)] or [np.zeros(0, int)])
    given = np.concatenate([a for a in (np.asarray(c).reshape(-1) for c in relation) if a.size] or [np.zeros(0, int)])
    if given.size and given.dtype.kind not in "iu":
        raise InvalidParameterError(f"relation's contacts must be integer user indices. Got dtype {given.dtype}")
    cols = given.astype(np.int64)
    if cols.size and (cols.min() < 0 or cols.max() >= n_users):
        raise InvalidParameterError(f"relation's contacts must be users in [0, {n_users - 1}]")
    keep = rows != cols
    both = scipy.sparse.coo_array((np.ones(2 * int(keep.sum())), (np.r_[rows[keep], cols[keep]],
                                                                  np.r_[cols[keep], rows[keep]])),
                                  shape=(n_users, n_users)).tocsr()
    both.sum_duplicates()
    return np.diff(both.indptr).astype(np.float64)


def _clicks(train: object) -> scipy.sparse.csr_array:
    if not scipy.sparse.issparse(train) or train.ndim != 2:
        raise InvalidParameterError("train must be a (users x items) scipy.sparse matrix of ratings")
    clicks = scipy.sparse.csr_array(train, dtype=np.float64)
    clicks.eliminate_zeros()
    clicks.data[:] = 1.0
    if clicks.nnz == 0:
        raise InvalidParameterError("train must hold at least one rating")
    return clicks


def _exposure(predictions: np.ndarray, odds: np.ndarray | float, clicked: scipy.sparse.csr_array,
              lam_y: float) -> np.ndarray:
    """E[a] of one block, in place of ``predictions`` (and of ``odds``, when a block): 1 on clicks, elsewhere
    p / (p + (1 − μ)/μ) with the prior odds (1 − μ)/μ given."""
    density = predictions
    np.square(density, out=density)
    density *= -lam_y / 2
    np.exp(density, out=density)
    density *= np.sqrt(lam_y / (2 * np.pi))
    density += _PROBABILITY_FLOOR
    if isinstance(odds, np.ndarray):
        odds += density
        np.divide(density, odds, out=density)
    else:
        np.divide(density, density + odds, out=density)
    rows, cols = clicked.nonzero()
    density[rows, cols] = 1.0
    return density


class _Prior:
    """The prior odds (1 − μ)/μ of any block of users × items, from the item masses and the contact counts (never
    stored dense).

    With c = s − 1, μ_ui = (a + A_i + c d_u A_i − 1) / (a + b + c d_u A_i + n − 2) gives

        (1 − μ_ui) / μ_ui = (b + n − 1 − A_i) / (a − 1 + (1 + c d_u) A_i),

    infinite (μ = 0, posterior 0) for an item whose mass is 0 when a = 1; before the first update, (1 − μ₀)/μ₀.
    """

    def __init__(self, parameters: SERecParameters, contacts: np.ndarray, n_users: int) -> None:
        self.p, self.boost, self.n_users = parameters, 1 + (parameters.s - 1) * contacts, n_users
        self.mass: np.ndarray | None = None

    def odds(self, users: slice, items: slice, *, by_item: bool = False) -> np.ndarray | float:
        """The block's odds, users × items, or items × users when ``by_item``."""
        if self.mass is None:
            return (1 - self.p.init_mu) / self.p.init_mu
        mass, boost = self.mass[items], self.boost[users]
        odds = np.multiply.outer(mass, boost) if by_item else np.multiply.outer(boost, mass)
        if self.p.a != 1:
            odds += self.p.a - 1
        unexposed = self.p.b + self.n_users - 1 - mass
        with np.errstate(divide="ignore"):
            return np.divide(unexposed[:, None] if by_item else unexposed[None, :], odds, out=odds)


def _ridge_rows(clicks: scipy.sparse.csr_array, old: np.ndarray, fixed: np.ndarray, prior_odds, lam: float,
                lam_y: float) -> np.ndarray:
    """New factors of every row of ``clicks``: a weighted ridge regression on the fixed side's factors."""
    rows, f = old.shape
    upper = np.triu_indices(f)  # a Gram matrix is symmetric: its upper triangle, f(f + 1)/2 sums, is all of it
    outer = fixed[:, upper[0]] * fixed[:, upper[1]]
    new = np.empty_like(old)
    step = max(1, _BATCH_CELLS // fixed.shape[0])
    for lo in range(0, rows, step):
        hi = min(rows, lo + step)
        part = clicks[lo:hi]
        exposed = _exposure(old[lo:hi] @ fixed.T, prior_odds(slice(lo, hi)), part, lam_y)
        gram = np.empty((hi - lo, f, f))
        gram[:, upper[0], upper[1]] = gram[:, upper[1], upper[0]] = exposed @ outer
        gram += lam * np.eye(f)
        new[lo:hi] = np.linalg.solve(gram, (part @ fixed)[..., None])[..., 0]
    return new


def fit_serec(train: object, contacts: np.ndarray | None, *, parameters: SERecParameters = RECQ_PARAMETERS,
              seed: int = 0) -> SERecModel:
    """Fit SERec (``contacts`` = each user's d_u) or Basic SERec (``contacts=None``) to the training clicks.

    Args:
        train: (users × items) training ratings; every stored entry is a click.
        contacts: d_u per user (:func:`contact_counts`), or None for the non-social Basic SERec.
        parameters: the hyperparameters (:data:`RECQ_PARAMETERS`).
        seed: the seed of the initial factors (``numpy.random.default_rng``).
    """
    clicks = _clicks(train)
    if not isinstance(parameters, SERecParameters):
        raise InvalidParameterError(f"parameters must be SERecParameters. Got {type(parameters).__name__}")
    seed = require_int("seed", seed, minimum=0, maximum=2**32 - 1)
    n_users, n_items = clicks.shape
    if contacts is None:
        parameters, degrees = replace(parameters, s=1.0), np.zeros(n_users)
    else:
        degrees = np.asarray(contacts, dtype=np.float64)
        if degrees.shape != (n_users,) or not np.all(np.isfinite(degrees)) or np.any(degrees < 0):
            raise InvalidParameterError(f"contacts must give a count >= 0 for each of the {n_users} users")
    p = parameters
    rng = np.random.default_rng(seed)
    theta = p.init_std * rng.standard_normal((n_users, p.factors))
    beta = p.init_std * rng.standard_normal((n_items, p.factors))
    by_item = clicks.T.tocsr()
    prior = _Prior(p, degrees, n_users)
    everything = slice(None)
    for _ in range(p.epochs):
        new_theta = _ridge_rows(clicks, theta, beta, lambda users: prior.odds(users, everything),
                                p.lam_theta / p.lam_y, p.lam_y)
        beta = _ridge_rows(by_item, beta, new_theta, lambda items: prior.odds(everything, items, by_item=True),
                           p.lam_beta / p.lam_y, p.lam_y)
        theta = new_theta
        mass = np.zeros(n_items)
        step = max(1, _BATCH_CELLS // n_items)
        for lo in range(0, n_users, step):
            hi = min(n_users, lo + step)
            mass += _exposure(theta[lo:hi] @ beta.T, prior.odds(slice(lo, hi), everything), clicks[lo:hi],
                              p.lam_y).sum(axis=0)
        prior.mass = mass
    return SERecModel(theta, beta, prior.mass, degrees, p)


def serec_top_k(model: SERecModel, train: object, users: Sequence[int], *, k: int = TOP_K) -> np.ndarray:
    """Each user's k best items by θ_u·β_i, the user's training items left out ((users, k), best first).

    Ties go to the lower item index.
    """
    if not isinstance(model, SERecModel):
        raise InvalidParameterError(f"model must be a SERecModel. Got {type(model).__name__}")
    clicks = _clicks(train)
    n_users, n_items = clicks.shape
    if model.theta.shape[0] != n_users or model.beta.shape[0] != n_items:
        raise InvalidParameterError(f"train must have the model's shape {(model.theta.shape[0], model.beta.shape[0])}")
    k = require_int("k", k, minimum=1, maximum=n_items)
    users = np.array([require_int("users", u, minimum=0, maximum=n_users - 1) for u in users], dtype=np.int64)
    lists = np.empty((users.size, k), dtype=np.int64)
    step = max(1, _BATCH_CELLS // n_items)
    for lo in range(0, users.size, step):
        block = users[lo:lo + step]
        scores = model.scores(block)
        seen = clicks[block]
        rows, cols = seen.nonzero()
        scores[rows, cols] = -np.inf
        lists[lo:lo + block.size] = _best_k(scores, k)
    return lists


def _best_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Each row's k best columns, best first and ties to the lower column: a stable sort's first k, found by
    sorting only the columns at least as good as the row's k-th best value."""
    if k == scores.shape[1]:
        return np.argsort(-scores, axis=1, kind="stable")
    kth = -np.partition(-scores, k - 1, axis=1)[:, k - 1]
    rows, cols = np.nonzero(scores >= kth[:, None])  # at least k a row, in column order
    order = np.lexsort((cols, -scores[rows, cols], rows))
    starts = np.searchsorted(rows[order], np.arange(scores.shape[0]))
    return cols[order][starts[:, None] + np.arange(k)]
