"""Statistical audits of black-box samplers: an eps lower bound with a stated confidence.

See :func:`dpcert.proofs.audit.core.audit` for the method and its error statement.
"""

from dpcert.proofs.audit.bounds import cp_lower, cp_upper, eps_lower_bound, log_odds_lower
from dpcert.proofs.audit.core import AuditResult, AuditStopped, AuditWitness, audit

__all__ = ["AuditResult", "AuditStopped", "AuditWitness", "audit", "cp_lower", "cp_upper", "eps_lower_bound",
           "log_odds_lower"]
