"""The recommendation data of PRIVACT's Section 7: user–item ratings, their normalisation, and the splits.

lastfm (user–artist play counts) and delicious (user–bookmark links) are implicit feedback; the paper
normalises each user's weights by that user's maximum,

    r_{u,i} = w_{u,i} / max_j w_{u,j},

and the authors' code stores a normalised rating of exactly 0 as 1e-9 (:data:`ZERO_RATING`), so that every
rated pair stays a rated pair. douban's ratings are explicit (1–5, divided by 5), but the data folder holds
its edges only: it has no ``ratings.txt``, and :func:`load_ratings` says so instead of inventing ratings.

``<network>/ratings.txt`` holds ``user<TAB>item<TAB>value`` lines whose user ids are the LCC's vertices
0..n-1 numbered as the paper's code numbers them (first appearance in ``edges.txt``): pair them with
:func:`~dpcert.mechanisms.privact.paper_ids.paper_labelled_graph`, not ``load_social_graph``'s sorted ids. Items are numbered in
the order of their first appearance in the file ("dataset order", which Table 5's older ranking uses).

The two evaluation protocols, each with the authors' five split seeds 67, 13, 45, 7, 82 (spec A17: the
paper says 5-fold cross-validation, the code draws 5 random 90/10 splits):

- cold start (:func:`cold_start_split`): 10% of the users with ratings are drawn **with replacement**
  (``numpy.random.RandomState(seed).choice``, as the code does, so fewer than 10% distinct users may be
  drawn); all their ratings are held out and they are the test users;
- existing users (:func:`existing_users_split`): 10% of the rating tuples are held out, without replacement.

The draws use numpy's legacy ``RandomState`` seeded like the authors' code, over the users in increasing
id order; whether they reproduce the authors' exact test users is not known (their user order is not
published), so the splits are "the authors' protocol and seeds", not their split files.

References: 004_a0cddc0a7a24fb37.txt, Section 7 (Datasets, Experimental Setup); spec §2.8, §4.3, A17.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError, require_int, require_unit_interval
from dpcert.mechanisms.privact.graphs import SOCIAL_GRAPHS_ENV, TABLE1, searched_folder, social_graphs_dir

__all__ = [
    "RATED_NETWORKS",
    "SPLIT_SEEDS",
    "ZERO_RATING",
    "RatingSplit",
    "Ratings",
    "cold_start_split",
    "existing_users_split",
    "load_ratings",
    "normalise_by_user_maximum",
    "ratings_file",
]

RATED_NETWORKS = ("lastfm", "delicious")
"""The networks whose ratings the data folder holds (implicit feedback; douban's ratings are not there)."""

SPLIT_SEEDS = (67, 13, 45, 7, 82)
"""The authors' five split seeds ([code]; spec §4.3)."""

ZERO_RATING = 1e-9
"""What the authors' code stores for a normalised rating of exactly 0 ([code]; spec §2.8)."""

TEST_FRACTION = 0.1
"""The held-out share of both protocols: 10% of the users (cold start) or of the rating tuples."""


@dataclass(frozen=True, eq=False)
class Ratings:
    """A network's normalised ratings.

    Attributes:
        network: the network's name.
        matrix: (users x items) CSR array of normalised ratings in (0, 1]; a stored entry is a rated pair.
        item_ids: the file's id of every column, columns in dataset order (first appearance in the file).
        source: the file read.
    """

    network: str
    matrix: scipy.sparse.csr_array
    item_ids: np.ndarray
    source: str

    @property
    def n_users(self) -> int:
        """Rows: the users of the network's LCC."""
        return int(self.matrix.shape[0])

    @property
    def n_items(self) -> int:
        """Columns: the items rated at least once."""
        return int(self.matrix.shape[1])


@dataclass(frozen=True, eq=False)
class RatingSplit:
    """A train/test split of one protocol.

    Attributes:
        protocol: ``"cold-start"`` or ``"existing-users"``.
        seed: the split's seed.
        train: the training ratings (same shape as the full matrix).
        test: the held-out ratings (same shape).
        test_users: the distinct test users, increasing.
    """

    protocol: str
    seed: int
    train: scipy.sparse.csr_array
    test: scipy.sparse.csr_array
    test_users: np.ndarray

    def relevant_items(self) -> list[np.ndarray]:
        """Each test user's relevant items: the held-out items with a rating > 0 ([code]; the 1e-9 that stands
        for a rating of 0 counts)."""
        test = self.test
        return [test.indices[test.indptr[u]: test.indptr[u + 1]][test.data[test.indptr[u]: test.indptr[u + 1]] > 0]
                for u in self.test_users]


def _rated_network(network: object) -> str:
    if network == "douban":
        raise InvalidParameterError("network must be one of lastfm, delicious (the networks with ratings): the "
                                    "data folder holds douban's edges only, no ratings. Got 'douban'")
    if network not in RATED_NETWORKS:
        known = ", ".join(TABLE1)
        raise InvalidParameterError(f"network must be one of lastfm, delicious (networks with ratings; the "
                                    f"known networks are {known}). Got {network!r}")
    return str(network)


def ratings_file(network: str, *, directory: str | os.PathLike[str] | None = None) -> Path:
    """``<folder>/<network>/ratings.txt``, the folder found as by
    :func:`~dpcert.mechanisms.privact.graphs.social_graphs_dir`.

    Raises:
        InvalidParameterError: naming ``network`` for douban or an unknown network, ``directory`` when the
            data folder or the ratings file is absent.
    """
    network = _rated_network(network)
    folder = social_graphs_dir(directory=directory)
    if folder is None or not (folder / network / "ratings.txt").is_file():
        raise InvalidParameterError(f"directory must hold {network}/ratings.txt (the paper's social-graph data; pass "
                                    f"a data folder or set {SOCIAL_GRAPHS_ENV}). Looked in "
                                    f"{searched_folder(directory=directory)[:200]!r}")
    return folder / network / "ratings.txt"


def normalise_by_user_maximum(users: np.ndarray, weights: np.ndarray, n_users: int) -> np.ndarray:
    """w_{u,i} / max_j w_{u,j} for implicit feedback, a result of exactly 0 stored as :data:`ZERO_RATING`.

    Args:
        users: the user of every weight.
        weights: non-negative weights (play counts, bookmark links).
        n_users: number of users.
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.size and (not np.isfinite(weights).all() or weights.min() < 0):
        raise InvalidParameterError("weights must be finite and >= 0. Got a negative or non-finite weight")
    maxima = np.zeros(n_users)
    np.maximum.at(maxima, users, weights)
    scale = maxima[users]
    normalised = np.divide(weights, scale, out=np.zeros_like(weights), where=scale > 0)
    return np.where(normalised == 0, ZERO_RATING, normalised)


def load_ratings(network: str, *, directory: str | os.PathLike[str] | None = None,
                 n_users: int | None = None) -> Ratings:
    """A network's ratings, normalised by each user's maximum (Section 7, Datasets).

    Args:
        network: ``lastfm`` or ``delicious``.
        directory: the data folder (default: as :func:`~dpcert.mechanisms.privact.graphs.social_graphs_dir`).
        n_users: rows of the matrix (the LCC's n); default the largest user id + 1.

    Raises:
        InvalidParameterError: for douban (no ratings in the data), an unknown network, a missing folder or
            file, or a user id outside [0, n_users - 1].
    """
    path = ratings_file(network, directory=directory)
    table = np.loadtxt(path, dtype=np.float64, ndmin=2, usecols=(0, 1, 2))
    users, items = table[:, 0].astype(np.int64), table[:, 1].astype(np.int64)
    highest = int(users.max()) if users.size else -1
    n_users = highest + 1 if n_users is None else require_int("n_users", n_users, minimum=1)
    if users.size and (users.min() < 0 or highest >= n_users):
        raise InvalidParameterError(f"n_users must exceed every user id of {path} (ids are LCC ids 0..n-1). "
                                    f"Got {n_users} with a user {highest}")
    item_ids, first = np.unique(items, return_index=True)
    dataset_order = item_ids[np.argsort(first, kind="stable")]
    column = np.empty(item_ids.size, dtype=np.int64)
    column[np.argsort(first, kind="stable")] = np.arange(item_ids.size)
    columns = column[np.searchsorted(item_ids, items)]
    values = normalise_by_user_maximum(users, table[:, 2], n_users)
    matrix = scipy.sparse.csr_array((values, (users, columns)), shape=(n_users, item_ids.size))
    matrix.sum_duplicates()
    return Ratings(network, matrix, dataset_order, str(path))


def _rows(matrix: scipy.sparse.csr_array, keep: np.ndarray) -> scipy.sparse.csr_array:
    """``matrix`` with the rows outside ``keep`` (a boolean mask) emptied."""
    return scipy.sparse.csr_array(scipy.sparse.diags_array(keep.astype(np.float64)) @ matrix)


def cold_start_split(ratings: Ratings, seed: int, *, fraction: object = TEST_FRACTION) -> RatingSplit:
    """Cold start: ⌊fraction · |users with ratings|⌋ users drawn with replacement; all their ratings held out.

    ``RandomState(seed).choice(users_with_ratings, size)``, replacement and all, as the authors' code.
    """
    if not isinstance(ratings, Ratings):
        raise InvalidParameterError(f"ratings must be Ratings. Got {type(ratings).__name__}")
    seed = require_int("seed", seed, minimum=0, maximum=2**32 - 1)
    share = float(require_unit_interval("fraction", fraction))
    rated = np.flatnonzero(np.diff(ratings.matrix.indptr) > 0)
    size = int(share * rated.size)
    if size < 1:
        raise InvalidParameterError(f"fraction must leave at least one test user among {rated.size}. Got {share}")
    drawn = np.random.RandomState(seed).choice(rated, size)
    test_users = np.unique(drawn)
    is_test = np.zeros(ratings.n_users, dtype=bool)
    is_test[test_users] = True
    return RatingSplit("cold-start", seed, _rows(ratings.matrix, ~is_test), _rows(ratings.matrix, is_test), test_users)


def existing_users_split(ratings: Ratings, seed: int, *, fraction: object = TEST_FRACTION) -> RatingSplit:
    """Existing users: ⌊fraction · |ratings|⌋ rating tuples held out, drawn without replacement."""
    if not isinstance(ratings, Ratings):
        raise InvalidParameterError(f"ratings must be Ratings. Got {type(ratings).__name__}")
    seed = require_int("seed", seed, minimum=0, maximum=2**32 - 1)
    share = float(require_unit_interval("fraction", fraction))
    coo = ratings.matrix.tocoo()
    size = int(share * coo.nnz)
    if size < 1:
        raise InvalidParameterError(f"fraction must hold out at least one of {coo.nnz} ratings. Got {share}")
    held = np.zeros(coo.nnz, dtype=bool)
    held[np.random.RandomState(seed).choice(coo.nnz, size, replace=False)] = True

    def part(mask: np.ndarray) -> scipy.sparse.csr_array:
        return scipy.sparse.csr_array((coo.data[mask], (coo.row[mask], coo.col[mask])), shape=coo.shape)

    return RatingSplit("existing-users", seed, part(~held), part(held), np.unique(coo.row[held]))
