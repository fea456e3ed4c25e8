"""The p-REC system of "On Differentially Private Online Collaborative Recommendation Systems".

Gilbert, Liu and Yu (001_8845c8f909738498.txt); exact formulas, conditions and corrections in
specs/gilbert_online_recommendation.md.

- :mod:`~dpcert.mechanisms.online_recommendation.model`: rounds, objects, votes, a client's likes, the loss;
  oblivious and adaptive instances; voting patterns and Definition 1's adjacency.
- :mod:`~dpcert.mechanisms.online_recommendation.generators`: seeded instance families (planted peers, Lemma 8's
  chain, Section 8.1's diversity example, Theorem 6's random client).
- :mod:`~dpcert.mechanisms.online_recommendation.parameters`: gamma, lambda, rho, phi and the per-round
  recommendation distribution.
- :mod:`~dpcert.mechanisms.online_recommendation.exact_share`: the exact per-round probabilities.
- :mod:`~dpcert.mechanisms.online_recommendation.algorithms`: p-REC_sim (Algorithm 1) and p-REC (Algorithm 2),
  with a vectorised simulator.
- :mod:`~dpcert.mechanisms.online_recommendation.likelihood`: the exact likelihood of every recommendation
  sequence, privacy-loss traces, and the transcript as a finite mechanism for the exact checker.
- :mod:`~dpcert.mechanisms.online_recommendation.leakage`: the exhaustive per-round check of Lemmas 12 and 13.
"""

from dpcert.mechanisms.online_recommendation.algorithms import PREC, PRECSim, SimulationResult, VoterState
from dpcert.mechanisms.online_recommendation.exact_share import RecommendationShare, exact_round_probabilities
from dpcert.mechanisms.online_recommendation.generators import (
    VotingChain,
    adaptive_instance,
    diversity_chain,
    lemma_8_chain,
    planted_instance,
    planted_pair,
    theorem_6_instance,
)
from dpcert.mechanisms.online_recommendation.leakage import PerRoundLeakage, count_vectors, per_round_leakage
from dpcert.mechanisms.online_recommendation.likelihood import (
    MAX_SEQUENCES,
    PRECTranscript,
    PrivacyLossTrace,
    TranscriptTable,
    enumerate_transcripts,
    privacy_loss_trace,
)
from dpcert.mechanisms.online_recommendation.model import AdaptiveInstance, Instance, Profile, adjacent, sequence_losses
from dpcert.mechanisms.online_recommendation.parameters import (
    PRECParameters,
    phi,
    phi_exact,
    phi_shares,
    recommendation_probabilities,
)

__all__ = [
    "MAX_SEQUENCES",
    "AdaptiveInstance",
    "Instance",
    "PREC",
    "PRECParameters",
    "PRECSim",
    "PRECTranscript",
    "PerRoundLeakage",
    "PrivacyLossTrace",
    "Profile",
    "RecommendationShare",
    "SimulationResult",
    "TranscriptTable",
    "VoterState",
    "VotingChain",
    "adaptive_instance",
    "adjacent",
    "count_vectors",
    "diversity_chain",
    "enumerate_transcripts",
    "exact_round_probabilities",
    "lemma_8_chain",
    "per_round_leakage",
    "phi",
    "phi_exact",
    "phi_shares",
    "planted_instance",
    "planted_pair",
    "privacy_loss_trace",
    "recommendation_probabilities",
    "sequence_losses",
    "theorem_6_instance",
]
