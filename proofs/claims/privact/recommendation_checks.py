"""Deciders for PRIVACT's recommendation claims (004_a0cddc0a7a24fb37.txt, Section 7, Tables 3–5, Appendix A.2).

Each returns ``(Verdict, evidence sentence)``. Two kinds:

- arithmetic on the paper's printed numbers, exact with Fractions (spec TC-E3, TC-E4): the Table 4 caption's
  ratios, Section 7.3's pooled ranges, Result 3 as read off Table 4, and the Table 3 caption's mislabelled
  range;
- measurements on the real data at a small GENTREE budget (:data:`SMALL_ITERATIONS_PER_NODE` proposals per
  user instead of the paper's 1000): Result 3 and Section 7.4's distance correlation on lastfm. (Table 4's
  delicious MAP exception is not a claim: it appears at 20·n, ratio 0.85, and not at 1000·n, ratio 4.2.)

**When the data folder is absent** (the CI checkout) the real-data deciders do not raise: they return
``(Verdict.UNKNOWN, evidence)`` with evidence starting with :data:`DATA_ABSENT`, so a caller can tell
"could not run here" from "ran and could not decide" (``evidence.startswith(DATA_ABSENT)``).

References: 004_a0cddc0a7a24fb37.txt, Section 7.3, Tables 3, 4, 5, Appendix A.2; spec §4.3, TC-E3, TC-E4, A20.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import scipy.sparse

from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.mechanisms.privact.cold_start import TABLE4, ColdStartTables, cold_start_tables
from dpcert.mechanisms.privact.existing_users import TABLE3
from dpcert.mechanisms.privact.ratings import ratings_file
from dpcert.mechanisms.privact.recommenders import cf_top_k
from dpcert.mechanisms.privact.serec import SERecParameters, contact_counts, fit_serec
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import seeds_named

__all__ = [
    "DATA_ABSENT",
    "SMALL_ITERATIONS_PER_NODE",
    "appendix_a2_fallback_example",
    "result_3_measured",
    "result_3_paper_numbers",
    "result_4_paper_numbers",
    "section_7_3_pooled_ranges",
    "section_7_4_lastfm_measured",
    "serec_contact_counts_only",
    "table_3_caption_range",
    "table_4_caption_ratios",
]

DATA_ABSENT = "data absent"
"""The evidence of a real-data decider starts with this when the social-graph data folder is not found."""

SMALL_ITERATIONS_PER_NODE = 20
"""GENTREE proposals per user of the real-data deciders (the paper's 1000 take about a minute per tree)."""

_NDCG, _MAP = 0, 1


def _ratios(table: dict[str, dict[str, tuple[Fraction, Fraction]]], top: str, bottom: str, metric: int
            ) -> dict[str, Fraction]:
    return {network: row[top][metric] / row[bottom][metric] for network, row in table.items()}


def _shown(ratios: dict[str, Fraction]) -> str:
    return ", ".join(f"{network} {float(r):.4g}" for network, r in ratios.items())


def table_4_caption_ratios() -> tuple[Verdict, str]:
    """Table 4's caption: PRIVACT-CF is 1.1–286× better than itemAvg and worse than friendsCF by at most 9.2×
    as per NDCG (spec TC-E3: the ratios are 1.096–286.5 and at most 9.21)."""
    better = _ratios(TABLE4, "PRIVACT-CF", "itemAvg", _NDCG)
    worse = _ratios(TABLE4, "friendsCF", "PRIVACT-CF", _NDCG)
    low, high, most = min(better.values()), max(better.values()), max(worse.values())
    holds = round(float(low), 1) == 1.1 and int(high) == 286 and round(float(most), 1) == 9.2
    return (Verdict.CONFIRMED if holds else Verdict.REFUTED,
            f"PRIVACT-CF / itemAvg NDCG: {_shown(better)} (range {float(low):.4g}-{float(high):.4g}, printed 1.1-286); "
            f"friendsCF / PRIVACT-CF NDCG: {_shown(worse)} (at most {float(most):.4g}, printed 9.2)")


def section_7_3_pooled_ranges() -> tuple[Verdict, str]:
    """Section 7.3 and the abstract: PRIVACT-based algorithms are "about" 1.1–286× better (NDCG) and 0.9–1000×
    better (MAP) than the non-social baselines, pooled over Tables 3 and 4 (computed: 1.096–286.5 and
    0.962–1006.8)."""
    lines, holds = [], True
    for metric, name, printed in ((_NDCG, "NDCG", (Fraction(11, 10), 286)), (_MAP, "MAP", (Fraction(9, 10), 1000))):
        pooled = [*_ratios(TABLE4, "PRIVACT-CF", "itemAvg", metric).values(),
                  *_ratios(TABLE3, "PRIVACT-SERec", "Basic SERec", metric).values()]
        low, high = min(pooled), max(pooled)
        # "about": each printed end within 10% of the computed one
        holds &= abs(low / printed[0] - 1) <= Fraction(1, 10) and abs(high / printed[1] - 1) <= Fraction(1, 10)
        lines.append(f"{name} ratios {', '.join(f'{float(r):.4g}' for r in pooled)} span "
                     f"{float(low):.4g}-{float(high):.4g} (printed {float(printed[0]):g}-{printed[1]})")
    return (Verdict.CONFIRMED if holds else Verdict.REFUTED,
            "; ".join(lines) + "; each printed end is within 10% of the computed one (the text says 'about')")


def result_3_paper_numbers() -> tuple[Verdict, str]:
    """Result 3 read off Table 4: PRIVACT-CF beats itemAvg in most (network, metric) configurations."""
    wins = {(network, metric): row["PRIVACT-CF"][index] > row["itemAvg"][index]
            for network, row in TABLE4.items() for index, metric in ((_NDCG, "NDCG"), (_MAP, "MAP"))}
    losses = [f"{network} {metric}" for (network, metric), won in wins.items() if not won]
    verdict = Verdict.CONFIRMED if sum(wins.values()) > len(wins) / 2 else Verdict.REFUTED
    return verdict, (f"PRIVACT-CF beats itemAvg in {sum(wins.values())} of {len(wins)} configurations of Table 4; "
                     f"the exception: {', '.join(losses) or 'none'}")


RESULT_4_SIMILAR = Fraction(15, 100)
"""Result 4's "similar", read as: every PRIVACT-SERec / SERec ratio of Table 3 within 15% of 1."""


def result_4_paper_numbers() -> tuple[Verdict, str]:
    """Result 4 read off Table 3: PRIVACT-SERec performs similarly to SERec (spec §4.3: the ratios are
    1.006, 1.111, 1.001 for NDCG and 1.010, 0.938, 1.001 for MAP)."""
    ratios = [r for metric in (_NDCG, _MAP) for r in _ratios(TABLE3, "PRIVACT-SERec", "SERec", metric).values()]
    similar = all(abs(r - 1) <= RESULT_4_SIMILAR for r in ratios)
    return (Verdict.CONFIRMED if similar else Verdict.REFUTED,
            f"PRIVACT-SERec / SERec NDCG: {_shown(_ratios(TABLE3, 'PRIVACT-SERec', 'SERec', _NDCG))}; MAP: "
            f"{_shown(_ratios(TABLE3, 'PRIVACT-SERec', 'SERec', _MAP))}; 'similar' read as every ratio within "
            f"{float(RESULT_4_SIMILAR):.0%} of 1 (range {float(min(ratios)):.4g}-{float(max(ratios)):.4g})")


_CLICKS_SEED, _FACTORS_SEED = 2026, 7
"""The seeds of serec_contact_counts_only's clicks and of SERec's initial factors."""


def serec_contact_counts_only() -> tuple[Verdict, str]:
    """SERec as RecQ implements it (Table 3's implementation, spec §2.8) reads the social relation only through
    each user's number of contacts.

    RecQ's prior update adds (s − 1)·S with S = T · (A tiled over the users), T the 0/1 trust matrix. Checked on
    a fixed instance (12 users, 15 items, clicks with probability 0.3 from seed :data:`_CLICKS_SEED`, f = 3,
    4 epochs, initial factors from seed :data:`_FACTORS_SEED`): for a 12-cycle, four disjoint triangles (every
    user has 2 contacts in both) and the cycle with one chord, RecQ's literal S equals d_u · A_i to rounding, the
    two relations with equal counts give bit-identical fitted models, and the chord changes the model.
    """
    rng = np.random.default_rng(_CLICKS_SEED)
    clicks = (rng.random((12, 15)) < 0.3).astype(float)
    clicks[np.arange(12), rng.integers(0, 15, 12)] = 1.0
    train = scipy.sparse.csr_array(clicks)
    cycle = [np.array([(u + 1) % 12, (u - 1) % 12]) for u in range(12)]
    triangles = [np.array([v for v in range(3 * (u // 3), 3 * (u // 3) + 3) if v != u]) for u in range(12)]
    chord = [*cycle[:1], np.array([0, 2, 6]), *cycle[2:]]  # users 1 and 6 become contacts
    parameters = SERecParameters(factors=3, epochs=4)
    fits, literal = [], True
    for relation in (cycle, triangles, chord):
        fit = fit_serec(train, contact_counts(12, relation), parameters=parameters, seed=_FACTORS_SEED)
        trust = np.zeros((12, 12))
        for u, contacts in enumerate(relation):
            trust[u, contacts] = trust[contacts, u] = 1.0
        recq = trust @ np.tile(fit.exposure_mass, (12, 1))  # RecQ: T.dot(np.tile(A_sum, [n_users, 1]))
        literal &= bool(np.allclose(recq, fit.contacts[:, None] * fit.exposure_mass[None, :], rtol=1e-14, atol=0))
        fits.append(fit)
    same = all(np.array_equal(getattr(fits[0], side), getattr(fits[1], side)) for side in ("theta", "beta"))
    moved = float(np.max(np.abs(fits[0].theta - fits[2].theta)))
    verdict = Verdict.CONFIRMED if literal and same and moved > 0 else Verdict.REFUTED
    return verdict, (f"RecQ's social term T (A tiled over users) {'equals' if literal else 'differs from'} d_u A_i "
                     f"on every relation; a 12-cycle and four disjoint triangles (every user has 2 contacts in both) "
                     f"give {'bit-identical' if same else 'different'} factors after 4 epochs; one added chord "
                     f"moves theta by up to {moved:.3g}. So PRIVACT-SERec differs from SERec only in the contact "
                     "counts, and Result 4 does not test whether the tree finds a user's community "
                     f"({seeds_named(_CLICKS_SEED)} for the clicks, {seeds_named(_FACTORS_SEED)} for the factors)")


def table_3_caption_range() -> tuple[Verdict, str]:
    """Table 3's caption: PRIVACT-SERec is 2.1–17.9× better than Basic SERec "as per NDCG" (spec TC-E4, A20).

    REFUTED: the NDCG ratios span 2.59–7.07; 2.1–17.9 is the MAP range (2.14–17.89)."""
    ndcg = _ratios(TABLE3, "PRIVACT-SERec", "Basic SERec", _NDCG)
    map_ = _ratios(TABLE3, "PRIVACT-SERec", "Basic SERec", _MAP)

    def printed(ratios: dict[str, Fraction]) -> bool:
        return round(float(min(ratios.values())), 1) == 2.1 and round(float(max(ratios.values())), 1) == 17.9

    verdict = Verdict.CONFIRMED if printed(ndcg) else Verdict.REFUTED
    lead = "witness " if verdict is Verdict.REFUTED else ""
    return verdict, lead + (f"PRIVACT-SERec / Basic SERec NDCG: {_shown(ndcg)} (range {float(min(ndcg.values())):.3g}-"
                     f"{float(max(ndcg.values())):.3g}); MAP: {_shown(map_)} (range {float(min(map_.values())):.3g}-"
                     f"{float(max(map_.values())):.4g}): 2.1-17.9 is the MAP range"
                     + ("" if printed(map_) else " (nor does MAP match)")
                     + "; Table 3 measured with SERec as RecQ implements it: docs/privact_table3.md")


def appendix_a2_fallback_example() -> tuple[Verdict, str]:
    """Appendix A.2: with (a, 4.5), (b, 2.5) scored by the top-m users and (c, 3.0) by itemAvg, the list is a, b, c.

    Built with the friendsCF formula: the selected user rates a = 5, b = 3 (r̄ = 4), another user rates a = 3,
    c = 2 (r̄ = 2.5, so c's itemAvg is −0.5); with r̄_u = 3.5 the scores are 4.5, 2.5 and 3.0."""
    train = scipy.sparse.csr_array(np.array([[5.0, 3.0, 0.0], [3.0, 0.0, 2.0]]))
    order = cf_top_k(train, [np.array([0])], k=3, target_means=[3.5])[0].tolist()
    names = "".join("abc"[i] for i in order)
    return (Verdict.CONFIRMED if names == "abc" else Verdict.REFUTED,
            f"the current rule ranks {', '.join(names)} (items of the top-m users first, whatever c's higher score)")


@functools.cache
def _measured(network: str) -> ColdStartTables:
    """The cold-start experiment at the small budget, run once per network for every claim that reads it."""
    return cold_start_tables(network, iterations_per_node=SMALL_ITERATIONS_PER_NODE)


def _runs(tables: ColdStartTables) -> str:
    """The runs of a cold-start measurement and the seeds they drew from, as the evidence names them."""
    return (f"{len(tables.tree_seeds)} trees x {len(tables.split_seeds)} splits "
            f"(tree {seeds_named(tables.tree_seeds)}; split {seeds_named(tables.split_seeds)})")


def _absent(network: str) -> tuple[Verdict, str] | None:
    """The data-absent marker when ``network``'s ratings are not found, else None."""
    try:
        ratings_file(network)
    except InvalidParameterError as error:
        return Verdict.UNKNOWN, f"{DATA_ABSENT}: {error}"
    return None


def result_3_measured() -> tuple[Verdict, str]:
    """Result 3 on the real data at a small budget: PRIVACT-CF beats itemAvg on NDCG and MAP on lastfm (the
    cold-start protocol, 3 trees x 5 splits, ε = 1 per edge, :data:`SMALL_ITERATIONS_PER_NODE` x n proposals)."""
    absent = _absent("lastfm")
    if absent is not None:
        return absent
    tables = _measured("lastfm")
    private, baseline = tables.current["PRIVACT-CF"], tables.current["itemAvg"]
    wins = private.ndcg > baseline.ndcg and private.map_code > baseline.map_code
    return (Verdict.CONFIRMED if wins else Verdict.REFUTED,
            f"lastfm at {SMALL_ITERATIONS_PER_NODE} x n proposals, {_runs(tables)}: PRIVACT-CF NDCG "
            f"{private.ndcg:.3e} vs itemAvg {baseline.ndcg:.3e}, MAP {private.map_code:.3e} vs {baseline.map_code:.3e} "
            "(Table 4: 5.54e-2 vs 5.33e-4, 7.68e-3 vs 2.56e-5)")


def section_7_4_lastfm_measured() -> tuple[Verdict, str]:
    """Section 7.4: on lastfm, users whose PRIVACT-CF contributors are socially farther get lower NDCG (Pearson r
    of community distance and NDCG@100 negative in every run; the paper: [-0.31, -0.03] per seed)."""
    absent = _absent("lastfm")
    if absent is not None:
        return absent
    tables = _measured("lastfm")
    correlations = [r for r in tables.distance_correlations if r == r]
    if not correlations:
        return Verdict.UNKNOWN, (f"lastfm at {SMALL_ITERATIONS_PER_NODE} x n proposals, {_runs(tables)}: no run "
                                 "gave a defined correlation (every r is NaN)")
    negative = sum(r < 0 for r in correlations)
    evidence = (f"lastfm at {SMALL_ITERATIONS_PER_NODE} x n proposals, {_runs(tables)}: r in "
                f"[{min(correlations):.3f}, {max(correlations):.3f}], {negative} of {len(correlations)} runs negative "
                "(the paper: [-0.31, -0.03])")
    if negative == len(correlations):
        return Verdict.CONFIRMED, evidence
    return Verdict.REFUTED, "witness a run with r >= 0: " + evidence
