"""Deciders for Section 7.4 / Table 6 of PrivaCT: "for full rating profiles, the correlation is negative
for all users".

- :func:`table_6_full_profile_consistency` does arithmetic on the printed table alone (spec A21). A user
  count n_defined <= n (Table 1: 1843 lastfm, 1503 delicious users in the LCC; 1892 and 1861 in the whole
  files) makes "100.0%" (one decimal) mean *no* non-negative user, since one such user would show at most
  100 (n - 1) / n <= 99.95 - which prints as 99.9 for n < 2000. The printed maximum +0.02 (two decimals)
  means some user has c_u >= 0.015 > 0. Both cannot hold: REFUTED for lastfm and delicious full; douban's
  [-0.28, -0.01] is consistent.
- :func:`measured_full_profile` recomputes c_u on the real data (users numbered as the paper's ratings
  files, :func:`~dpcert.mechanisms.privact.paper_ids.paper_labelled_graph`): REFUTED when some user's
  c_u >= 0, CONFIRMED when all are negative, UNKNOWN when the data folder or ratings file is absent.

References: 004_a0cddc0a7a24fb37.txt, Section 7.4, Appendix A.4 Table 6; spec §4.3, §6 A21.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact import TABLE1, social_graphs_dir
from dpcert.mechanisms.privact.paper_ids import paper_labelled_graph
from dpcert.mechanisms.privact.social_similarity import SimilarityDistanceSummary, table_6_row
from dpcert.proofs.certificate import Verdict

__all__ = [
    "TABLE6",
    "measured_full_profile",
    "ratings_matrix",
    "table_6_full_profile_consistency",
    "table_6_measurement",
]

TABLE6: dict[tuple[str, str], tuple[Fraction, Fraction, Fraction]] = {
    ("lastfm", "partial"): (Fraction("76.8"), Fraction("-0.25"), Fraction("0.17")),
    ("lastfm", "full"): (Fraction("100.0"), Fraction("-0.23"), Fraction("0.02")),
    ("delicious", "partial"): (Fraction("96.6"), Fraction("-0.26"), Fraction("0.04")),
    ("delicious", "full"): (Fraction("100.0"), Fraction("-0.23"), Fraction("0.02")),
    ("douban", "partial"): (Fraction("95.1"), Fraction("-0.14"), Fraction("0.05")),
    ("douban", "full"): (Fraction("100.0"), Fraction("-0.28"), Fraction("-0.01")),
}
"""Table 6 as printed: (network, profile) -> (% users with negative correlation, min, max)."""

_WHOLE_FILE_USERS = {"lastfm": 1892, "delicious": 1861, "douban": 2848}
"""Users in the whole edge files (data README), an upper bound on the users Table 6 can count."""


def _check_network(network: str) -> str:
    if network not in TABLE1:
        raise InvalidParameterError(f"network must be one of {', '.join(TABLE1)}. Got {network!r}")
    return network


def table_6_full_profile_consistency(network: str) -> tuple[Verdict, str]:
    """Is Table 6's full-profile row of ``network`` consistent with "negative for all users"?

    Printed p% (one decimal) >= 100.0 needs a true share >= 99.95%, i.e. at most (n - 1)/n of n users is
    below it when n < 2000, so no user is non-negative; a printed maximum M (two decimals) means the true
    maximum is >= M - 0.005. REFUTED when M - 0.005 > 0 although the share forces all users negative.
    """
    network = _check_network(network)
    percent, _, maximum = TABLE6[(network, "full")]
    n = _WHOLE_FILE_USERS[network]
    one_positive = Fraction(100 * (n - 1), n)
    all_negative = percent >= Fraction("99.95") and one_positive < Fraction("99.95")
    lowest_true_max = maximum - Fraction(1, 200)
    share = ("prints below 100.0, so 100.0% means none" if all_negative else "could still print as 100.0")
    evidence = (f"{network} full profile printed {float(percent)}% negative, range max {float(maximum)}; with "
                f"n <= {n} users one non-negative user gives <= {float(one_positive):.4f}% ({share}); "
                f"the true maximum is >= {float(lowest_true_max)}")
    if all_negative and lowest_true_max > 0:
        return Verdict.REFUTED, ("witness the printed row: " + evidence
                                 + " > 0: some user's correlation is positive. Internally inconsistent.")
    return Verdict.CONFIRMED, evidence + ": consistent with every user negative."


def ratings_matrix(path: str | os.PathLike[str], n_users: int) -> scipy.sparse.csr_array:
    """``user<TAB>item<TAB>value`` lines as an n_users x (max item + 1) CSR array (duplicates summed)."""
    table = np.loadtxt(path, ndmin=2)
    users, items = table[:, 0].astype(np.int64), table[:, 1].astype(np.int64)
    if users.min() < 0 or users.max() >= n_users:
        raise InvalidParameterError(f"path must hold user ids in [0, {n_users - 1}]. Got {int(users.max())}")
    return scipy.sparse.csr_array((table[:, 2], (users, items)), shape=(n_users, int(items.max()) + 1))


def _ratings_path(network: str, directory: str | os.PathLike[str] | None) -> Path | None:
    folder = social_graphs_dir(directory=directory)
    path = None if folder is None else folder / network / "ratings.txt"
    return path if path is not None and path.is_file() else None


def table_6_measurement(network: str, *, profile: str,
                        directory: str | os.PathLike[str] | None = None) -> SimilarityDistanceSummary | None:
    """Table 6's row measured on the real data, or None when the graph or ratings file is absent."""
    network = _check_network(network)
    path = _ratings_path(network, directory)
    if path is None:
        return None
    graph = paper_labelled_graph(network, directory=directory)
    return table_6_row(graph, ratings_matrix(path, graph.n), profile=profile)


def measured_full_profile(network: str, *, directory: str | os.PathLike[str] | None = None) -> tuple[Verdict, str]:
    """"Negative for all users" (full profiles) on the real data of ``network``."""
    summary = table_6_measurement(network, profile="full", directory=directory)
    if summary is None:
        return Verdict.UNKNOWN, (f"no data: {network}/ratings.txt not found (set DPCERT_SOCIAL_GRAPHS); "
                                 "the measurement was not run")
    evidence = (f"{network} full profile: {summary.n_negative} of {summary.n_defined} users negative "
                f"({summary.percent_negative:.1f}%), c_u in [{summary.minimum:.3f}, {summary.maximum:.3f}]")
    if summary.n_defined and summary.n_negative == summary.n_defined:
        return Verdict.CONFIRMED, evidence
    return Verdict.REFUTED, (f"witness {summary.n_defined - summary.n_negative} users whose correlation is >= 0, "
                             f"the largest {summary.maximum:.3f}: " + evidence)
