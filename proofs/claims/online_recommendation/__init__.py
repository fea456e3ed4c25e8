"""Claims of 001_8845c8f909738498.txt (Gilbert, Liu, Yu, "On Differentially Private Online Collaborative
Recommendation Systems", p-REC): the privacy of p-REC_sim and p-REC decided exactly on small instances,
the lower bound of Theorem 7 against the exact eps, the proofs' closed-form steps, and two slips of the proofs.

A p-REC transcript (the T recommendations) is a finite mechanism whose inputs are the adjacent voter sets
of Definition 1 (one extra voter), so the exact checker computes the tightest eps with a witness and
compares it with Theorem 11's and Theorem 17's claimed eps.
"""

from dpcert.proofs.claims.online_recommendation.table import CLAIMS

__all__ = ["CLAIMS"]
