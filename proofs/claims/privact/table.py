"""The claims of PrivaCT: one row per checkable statement, decided in :mod:`.deciders`."""

from __future__ import annotations

import sympy

from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import Claim, cited_in, computed_claim
from dpcert.proofs.claims.privact.gentree_checks import (
    gentree_chain,
    loss_against_relative_utility,
    loss_within_theorem_6,
    result_1_printed,
    table_1_densities,
    table_2_eps_2_range,
)
from dpcert.proofs.claims.privact.likelihood_checks import cmn_detailed_balance, q_m_identities, result_2
from dpcert.proofs.claims.privact.recommendation_checks import (
    appendix_a2_fallback_example,
    result_3_measured,
    result_3_paper_numbers,
    result_4_paper_numbers,
    section_7_3_pooled_ranges,
    section_7_4_lastfm_measured,
    serec_contact_counts_only,
    table_3_caption_range,
    table_4_caption_ratios,
)
from dpcert.proofs.claims.privact.similarity_checks import measured_full_profile, table_6_full_profile_consistency
from dpcert.proofs.claims.privact.deciders import (
    advanced_composition_example,
    aggregate_query_cost,
    clique,
    degree_vector_privacy,
    edge_level,
    edge_level_numerical,
    footnote_2_attack,
    footnote_2_bound,
    laplace_difference,
    lemma_5_1,
    lemma_6,
    needs_social_data,
    strawman_example,
    theorem_3,
    theorem_6_selected_tree,
    theorem_6_values,
)

_PAPER = "004_a0cddc0a7a24fb37.txt"
_P, _C, _R = Verdict.PROVED, Verdict.CONFIRMED, Verdict.REFUTED


_source = cited_in(_PAPER)


CLAIMS: tuple[Claim, ...] = (
    computed_claim("privact-degree-vector-user-ldp", _source("Algorithm 2, Section 4.1"),
                   "each user's noisy degree vector c + Lap(sigma)^K is (1/sigma)-DP for one flipped adjacency bit", _P,
                   degree_vector_privacy, randomized=True),
    computed_claim("privact-edge-eps-printed-scale", _source("Algorithm 2 with Appendix A.3"),
                   "with Lap(1/eps) per bin, one undirected edge is eps-protected", _R,
                   lambda: edge_level(sympy.Integer(1), sympy.Integer(1)), randomized=True),
    computed_claim("privact-edge-eps-double-scale", _source("Algorithm 2 with Appendix A.3"),
                   "with Lap(2/eps) per bin, one undirected edge is eps-protected", _P,
                   lambda: edge_level(sympy.Integer(2), sympy.Integer(1)), randomized=True),
    computed_claim("privact-edge-eps-composed", _source("Appendix A.3"),
                   "the two endpoints' Laplace(sigma) reports of one edge compose to eps = 2/sigma (certified numerical "
                   "composition at delta = 10^-12, sigma = 2 and 1/2)", _C,
                   lambda: edge_level_numerical((sympy.Integer(2), sympy.Rational(1, 2)))),
    computed_claim("privact-strawman-example", _source("Section 2.2"),
                   "randomized response with P(keep) = 0.7 makes a user with 70 of 10^6 contacts report about 300,000",
                   _C, strawman_example),
    computed_claim("lemma6.1-laplace-difference", _source("Lemma 6.1 (proof)"),
                   "Z = R - R' for iid Lap(sigma): density (1 + |z|/sigma) e^(-|z|/sigma)/(4 sigma), E|Z| = 3 sigma/2, "
                   "Var Z = 4 sigma^2, E|a + Z| = |a| + e^(-|a|/sigma)(3 sigma + |a|)/2", _P, laplace_difference,
                   method="symbolic"),
    computed_claim("privact-gentree-boltzmann-chain", _source("Section 4.3"),
                   "GENTREE's local-swap chain is connected and reversible, so it converges to the Boltzmann "
                   "distribution proportional to e^Q_D", _C, gentree_chain, randomized=True),
    computed_claim("privact-table1-densities", _source("Table 1"),
                   "the densities 0.0075, 0.0056, 0.0062 are 2|E|/(n(n-1)) of the printed node and edge counts", _C,
                   table_1_densities),
    computed_claim("privact-result1-printed", _source("Section 6, Result 1; Table 2"),
                   "the empirical utility loss is at most 10.87% for all graphs and eps (Table 2 as printed)", _C,
                   result_1_printed),
    computed_claim("privact-sec6-eps2-range", _source("Section 6; Table 2"),
                   "the utility loss is approximately 1.14-3.29% on average for eps = 2", _C, table_2_eps_2_range),
    computed_claim("privact-sec6-loss-vs-relative-utility", _source("Section 6; Table 2"),
                   "the higher the relative utility, the lower the empirical utility loss", _C,
                   loss_against_relative_utility),
    computed_claim("privact-sec6-within-theorem6", _source("Section 6; Table 2, Theorem 6"),
                   "the empirical utility loss is within the theoretical bounds implied by Theorem 6", _C,
                   loss_within_theorem_6),
    computed_claim("thm3-ideal-clustering", _source("Theorem 3"),
                   "the Q_D-optimal tree has the ideal clustering property theta(child) <= theta(parent)", _C,
                   theorem_3, randomized=True),
    computed_claim("thm4-clique-quality", _source("Theorem 4"),
                   "for the clique with unit dissimilarities every tree has Q_D = (n^3 - n)/3", _C, clique),
    computed_claim("lemma5.1-boltzmann-tail", _source("Lemma 5.1 and Theorem 5 (clean form)"),
                   "Boltzmann sampling loses at most ln N + t with probability >= 1 - e^-t, and ln N + 1 on average",
                   _C, lemma_5_1, randomized=True),
    computed_claim("lemma6.1-6.3-noisy-quality", _source("Lemmas 6.1, 6.2, 6.3"),
                   "for a fixed tree, E g - f <= (3K sigma/2) rho, Var g <= 4K sigma^2 rho^2, and |g - f| <= P w.p. "
                   ">= 8/9", _C, lemma_6, method="statistical"),
    computed_claim("thm6-bound-values", _source("Theorem 6"),
                   "OPT - E f(T_dp) <= (2K/eps)(3/2 + 6/sqrt K) rho: 105.5, 52.7 and 26.4 rho at K = 7, eps = 0.5, 1, 2",
                   _C, theorem_6_values),
    computed_claim("thm6-proof-selected-tree", _source("Theorem 6 (proof)"),
                   "the proof's per-tree event |g(T) - f(T)| <= P (Lemma 6.3) holds for the data-dependent tree T'' "
                   "as for a fixed one", Verdict.PROOF_GAP, theorem_6_selected_tree, method="statistical"),
    computed_claim("footnote2-86-percent", _source("footnote 2"),
                   "eps = 2 lets an attacker infer a random bit with 86% probability", _C, footnote_2_attack),
    computed_claim("footnote2-posterior-bound", _source("footnote 2"),
                   "86% is the most an attacker can infer a random bit with at eps = 2 (the eps-DP posterior bound)",
                   _R, footnote_2_bound),
    computed_claim("privact-sec3.2-advanced-composition", _source("Section 3.2"),
                   "advanced composition of 1000 queries at eps = 0.1 gives an aggregate eps above 20 (delta' = 0.01)",
                   _C, advanced_composition_example),
    computed_claim("privact-sec3.2-aggregate-eps-above-20", _source("Section 3.2"),
                   "1000 queries at eps = 0.1 each cost an aggregate eps > 20 with 99% probability (delta = 0.01)",
                   _R, aggregate_query_cost),
    computed_claim("privact-qm-identities", _source("Section 3.1"),
                   "the HRG likelihood at pi_i = E_i/(L_i R_i): sum E_i = |E|, sum L_i R_i = n(n-1)/2, log Q_M <= 0, "
                   "and it is the tree's maximum likelihood (checked against the pairwise likelihood)", _C,
                   q_m_identities, randomized=True),
    computed_claim("privact-cmn-detailed-balance", _source("Section 3.1 (CMN's Metropolis chain)"),
                   "CMN's swap chain with acceptance min(1, Q_M'/Q_M) has Q_M (normalised) as its stationary law", _C,
                   cmn_detailed_balance, randomized=True),
    *(computed_claim(f"privact-fig5-result2-{network}", _source("Figure 5, Result 2"),
                     f"PRIVACT's trees beat CMN-DP's on log Q_M at eps = 0.5, 1 and 2 ({network}, measured on short "
                     "chains)", _C, lambda network=network: result_2(network), requires=needs_social_data(network),
                     randomized=True)
      for network in ("lastfm", "delicious", "douban")),
    computed_claim("privact-table4-caption-ratios", _source("Table 4"),
                   "PRIVACT-CF is 1.1-286x better than itemAvg and worse than friendsCF by at most 9.2x as per NDCG",
                   _C, table_4_caption_ratios),
    computed_claim("privact-sec7.3-pooled-ranges", _source("Section 7.3 and abstract"),
                   "PRIVACT-based recommenders are about 1.1-286x (NDCG) and 0.9-1000x (MAP) better than the "
                   "non-social baselines", _C, section_7_3_pooled_ranges),
    computed_claim("privact-result3-printed", _source("Section 7.3, Result 3; Table 4"),
                   "PRIVACT-CF beats itemAvg for most evaluated configurations (Table 4 as printed)", _C,
                   result_3_paper_numbers),
    computed_claim("privact-table3-caption-metric", _source("Table 3"),
                   "PRIVACT-SERec is 2.1-17.9x better than Basic SERec as per NDCG", _R, table_3_caption_range),
    computed_claim("privact-result4-printed", _source("Section 7.3, Result 4; Table 3"),
                   "PRIVACT-SERec performs similarly to SERec (Table 3 as printed)", _C, result_4_paper_numbers),
    computed_claim("privact-serec-contact-counts-only", _source("Table 3 (SERec as run through RecQ)"),
                   "the SERec of Table 3 uses the social relation only through each user's number of contacts, so "
                   "PRIVACT-SERec and SERec differ only in those counts", _C, serec_contact_counts_only,
                   randomized=True),
    computed_claim("privact-appendix-a2-fallback-order", _source("Appendix A.2"),
                   "items scored by the top-m users come before fallback items: (a 4.5), (b 2.5) top-m and (c 3.0) "
                   "fallback rank a, b, c", _C, appendix_a2_fallback_example),
    computed_claim("privact-result3-measured-lastfm", _source("Section 7.3, Result 3; Table 4"),
                   "PRIVACT-CF beats itemAvg on NDCG and MAP for cold-start users (lastfm, measured at 20 x n "
                   "GENTREE proposals, 3 trees x 5 splits)", _C, result_3_measured,
                   requires=needs_social_data("lastfm", ratings=True), randomized=True),
    computed_claim("privact-sec7.4-distance-ndcg-lastfm", _source("Section 7.4"),
                   "on lastfm, NDCG falls with the social distance of the users PRIVACT-CF draws on (negative "
                   "correlation in every run; measured at 20 x n GENTREE proposals)", _C, section_7_4_lastfm_measured,
                   requires=needs_social_data("lastfm", ratings=True), randomized=True),
    *(computed_claim(f"table6-full-negative-printed-{network}", _source("Section 7.4, Table 6"),
                     f"for full rating profiles the correlation is negative for all users ({network} row as printed)",
                     expected, lambda network=network: table_6_full_profile_consistency(network))
      for network, expected in (("lastfm", _R), ("delicious", _R), ("douban", _C))),
    *(computed_claim(f"table6-full-negative-measured-{network}", _source("Section 7.4, Table 6"),
                     f"for full rating profiles the correlation is negative for all users ({network}, measured)",
                     _R, lambda network=network: measured_full_profile(network),
                     requires=needs_social_data(network, ratings=True))
      for network in ("lastfm", "delicious")),
)
