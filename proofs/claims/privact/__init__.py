"""Claims of 004_a0cddc0a7a24fb37.txt (Kolluri et al., "Private Hierarchical Clustering in Federated
Networks", PrivaCT): the privacy of its noisy degree vectors, its tree-quality theorems, and its errors.

Privacy is decided exactly (the Laplace degree vector's supremum log-ratio is ‖Δc‖₁/σ, attained at
y = c, and every one-bit change of a small graph is enumerated); Theorem 3 and the clean form of
Lemma 5.1 are checked over every tree of small instances; Lemmas 6.1-6.3 by Monte Carlo at a stated
false-failure probability. Refuted with witnesses: Algorithm 2's Lap(1/ε) read as ε per edge (each edge is
reported by both endpoints, spec A1) and footnote 2's 86% (A12); Theorem 6's bound is recomputed with a note
on how little it certifies (A8). The real social graphs are not needed: every claim runs on generated graphs.
"""

from dpcert.proofs.claims.privact.table import CLAIMS

__all__ = ["CLAIMS"]
