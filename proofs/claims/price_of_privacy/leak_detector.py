"""The lower bound as a leak detector: below Corollary 21's user count no eps-LDP learner recovers the clusters.

On the paper's lower-bound instance (one user class, two item clusters, Z uniform on {0,1}^N, deterministic
ratings; Section 3.1), Theorem 14 bounds one eps-LDP user's information by I nats (eps < ln 2), and Corollary
21 with Fano's inequality says that with fewer than ((1/2) N - 1)/(I log2 e) users every non-adaptive eps-LDP
learner errs (fails to recover every item's cluster) with probability above 1/2. An implementation that
recovers more often there leaks, or is wrong (spec section 7, item 20).

:func:`recovery_below_the_bound` runs a learner at the largest user count the bound covers on seeded draws of
Z and bounds its success probability from above with an exact-tail Clopper-Pearson bound; the claim holds
when that bound is below 1/2, so a false refutation of a correct learner has probability at most
:data:`FALSE_REFUTATION`.

References: 000_0c6e7fdc3fd68303.txt, Section 3.1, Theorem 14, Corollary 21, Lemma 5; spec section 7 item 20.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import sympy

from dpcert.accountant.price_of_privacy.fano import users_unreliable
from dpcert.accountant.price_of_privacy.per_user_bounds import theorem_14_bound
from dpcert.mechanisms.parameters import InvalidParameterError, require_int, to_exact
from dpcert.mechanisms.price_of_privacy.blockmodel import BlockModel
from dpcert.mechanisms.price_of_privacy.maxsense import simulate_maxsense
from dpcert.proofs.audit import cp_upper
from dpcert.proofs.certificate import Verdict
from dpcert.proofs.claim import seeds_named

__all__ = ["FALSE_REFUTATION", "LeakCheck", "maxsense_below_the_bound", "recovery_below_the_bound"]

FALSE_REFUTATION = 1e-6
"""The probability that a learner whose success probability is at most 1/2 is reported as leaking."""

Learner = Callable[[BlockModel, int, sympy.Expr, int], bool]
"""(model, users, eps, seed) -> whether the run recovered every item's cluster."""


@dataclass(frozen=True)
class LeakCheck:
    """One learner run ``runs`` times at the bound.

    Attributes:
        N, w, eps: the instance and the per-user budget.
        users: the largest user count below Corollary 21's threshold.
        runs, recovered: runs and exact recoveries.
        success_upper: a Clopper-Pearson upper bound on the success probability (error 1e-6).
    """

    N: int
    w: int
    eps: sympy.Expr
    users: int
    runs: int
    recovered: int
    success_upper: float

    @property
    def consistent(self) -> bool:
        """Whether the success probability is certified below 1/2, as the bound requires."""
        return self.success_upper < 0.5


def recovery_below_the_bound(learner: Learner, *, N: int, w: int, eps: object, runs: int, seed: int) -> LeakCheck:
    """Run ``learner`` ``runs`` times (seeds ``seed``, ``seed + 1``, ...) at the largest U below the bound."""
    N = require_int("N", N, minimum=4, maximum=10**4)
    w = require_int("w", w, minimum=1, maximum=N // 2)
    runs = require_int("runs", runs, minimum=1, maximum=10**4)
    seed = require_int("seed", seed, minimum=0, maximum=2**32 - 1)
    exact = to_exact("eps", eps)
    information = theorem_14_bound(N, w, exact)
    if not information.valid:
        raise InvalidParameterError(f"eps must be below ln 2 for Theorem 14. Got {eps}")
    threshold = users_unreliable(information.upper_value, N)
    users = math.ceil(float(threshold)) - 1
    if users < 1 or sympy.Integer(users) >= threshold:
        raise InvalidParameterError(f"N must leave at least one user below the bound. Got N = {N} (bound {threshold})")
    model = BlockModel.lower_bound_instance(N, w, sampling="independent")
    recovered = sum(bool(learner(model, users, exact, seed + r)) for r in range(runs))
    return LeakCheck(N, w, exact, users, runs, recovered, cp_upper(recovered, runs, FALSE_REFUTATION))


def _maxsense(model: BlockModel, users: int, eps: sympy.Expr, seed: int) -> bool:
    return simulate_maxsense(model, users, eps, rng=seed, sensing="collapsed").exact_recovery


_MAXSENSE_SEED = 2000
"""The first seed of maxsense_below_the_bound's runs (run r draws from seed _MAXSENSE_SEED + r)."""


def maxsense_below_the_bound() -> tuple[Verdict, str]:
    """MaxSense, an eps-LDP learner, fails more than half the time below Corollary 21's bound (N = 40, w = 2,
    eps = 1/2, 24 runs from seed :data:`_MAXSENSE_SEED`)."""
    check = recovery_below_the_bound(_maxsense, N=40, w=2, eps=sympy.Rational(1, 2), runs=24, seed=_MAXSENSE_SEED)
    verdict = Verdict.CONFIRMED if check.consistent else Verdict.REFUTED
    return verdict, (f"{'' if check.consistent else 'witness '}MaxSense at U = {check.users} users (the largest below "
                     f"((1/2) N - 1)/(I log2 e) with Theorem 14's I; N = {check.N}, w = {check.w}, eps = {check.eps}, "
                     f"lower-bound instance): exact recovery in {check.recovered} of {check.runs} runs "
                     f"({seeds_named(range(_MAXSENSE_SEED, _MAXSENSE_SEED + check.runs))}); success probability <= "
                     f"{check.success_upper:.4g} (Clopper-Pearson, error {FALSE_REFUTATION:g}), "
                     f"{'below' if check.consistent else 'not below'} 1/2")
