"""Claims of 000_0c6e7fdc3fd68303.txt (Banerjee, Hegde, Massoulié, "The Price of Privacy in Untrusted
Recommendation Engines"): the privacy of its user sketches, its information bounds, and its errors.

Each claim is decided exactly where that is possible (the sketches' LDP guarantees over all pairs of
user data; identities; closed forms), confirmed by exact enumeration on the stated cases where the
statement is about every channel, and refuted with a reproducible witness where the paper is wrong
(the spec of the paper, section 9, lists the errors E1-E13).
"""

from dpcert.proofs.claims.price_of_privacy.table import CLAIMS

__all__ = ["CLAIMS"]
