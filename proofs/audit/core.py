"""The statistical audit: an eps lower bound for a black-box sampler at a stated confidence.

Method (StatDP / DP-Sniper style, with a valid error statement): half of the samples per input choose,
for each ordered neighbouring pair (x, x'), the event E maximising the empirical bound, and then the pair whose
event scores best; a fresh half of that pair's samples confirms it. Everything chosen is a function of the
selection sample, so the confirmation's one statement about the one chosen pair holds at the full confidence: the
search over pairs costs nothing (no correction over the pairs is needed), and only two inputs are sampled again.

* The two confirmation sample sizes are drawn N, N' ~ Poisson(n), independently of everything else (n, half the
  budget per input). Then the counts in E are independent, K ~ Poisson(n P(E|x)) and K' ~ Poisson(n P(E|x')), and
  given K + K' = m, K ~ Bin(m, s) with s = P(E|x) / (P(E|x) + P(E|x')) exactly (the conditional law of two
  independent Poisson counts); given N', K' ~ Bin(N', P(E|x')).

* pure claims (delta = 0): one Clopper–Pearson lower bound s_lo of k successes in m trials at the whole
  alpha = 1 - confidence gives s_lo <= s with probability >= confidence (given every m, so unconditionally), and

      eps_lower = log(s_lo / (1 - s_lo))             (0 if not positive)

  is below log(P(E|x) / P(E|x')) <= eps. One bound at alpha instead of two at alpha / 2 on the same counts: the
  margin falls from about z(alpha / 2) (1 / sqrt(k) + 1 / sqrt(k')) to z(alpha) sqrt(1 / k + 1 / k'), some 40 %
  less when k ~ k' at confidence 0.9 (Przyborowski and Wilenski 1940; the same conditioning gives the exact test
  of two Poisson rates). With fixed sample sizes the conditional law is Fisher's noncentral hypergeometric, whose
  parameter is the odds ratio of P(E|x) and P(E|x'), not the share, and the binomial guarantee is no theorem: the
  Poisson sizes are what make it exact.

* (eps, delta) claims with delta > 0: alpha = 1 - confidence is split by Bonferroni over two one-sided
  Clopper–Pearson bounds, each at alpha / 2, of one of two kinds (the method, chosen on the selection sample by the
  bound the chosen event's counts there foresee, so the choice costs no confidence):

      "share":      s_lo <= s and p'_lo <= P(E|x'):   eps_lower = log(s_lo / (1 - s_lo) - delta / p'_lo),
      "two-sided":  p_lo <= P(E|x) and P(E|x') <= p'_hi:   eps_lower = log((p_lo - delta) / p'_hi),

  (0 if not positive), both below log((P(E|x) - delta) / P(E|x')) <= eps when the two bounds hold. The share keeps
  most of the pure case's margin when delta is small against P(E|x') (the Gaussian mechanism's tails: 0.69 -> 0.75 of
  a true 1 at 4 * 10^6 samples per input); the two probabilities bound an event never or rarely seen under x' (a
  leak), where p'_lo is 0 and the share bounds nothing.

The eps lower bound is below the true eps of an (eps, delta)-DP mechanism with probability >= confidence. The
verdict is "violation" only when eps_lower > the claimed eps; a statistical audit can refute a claim, never prove
it.

References: Ding et al., "Detecting violations of differential privacy" (CCS 2018, StatDP); Bichsel et
al., "DP-Sniper" (S&P 2021), Section 5; Przyborowski and Wilenski, "Homogeneity of results in testing samples
from Poisson series" (Biometrika 1940).
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from scipy.stats import nbinom

from dpcert.mechanisms.base import ContinuousMechanism, FiniteMechanism, Mechanism
from dpcert.mechanisms.neighbours import WithinDistance
from dpcert.mechanisms.parameters import (InvalidParameterError, require_eps, require_int, require_unit_interval,
                                          to_exact)
from dpcert.proofs.audit.bounds import cp_lower, cp_upper, eps_lower_bound, log_odds_lower, share_eps_lower_bound
from dpcert.proofs.audit.events import Event, is_continuous, select_event, vector_bounds
from dpcert.proofs.audit.patterns import statdp_patterns
from dpcert.proofs.audit.sampling import (Sampler, draw_all, require_fresh_randomness, require_own_randomness,
                                          stream_all)
from dpcert.proofs.rounding import float_upper

__all__ = ["AuditResult", "AuditStopped", "AuditWitness", "audit"]

_MAX_PAIRS = 1000

SELECT_SHARE = 0.5
"""The share of each input's samples that chooses the pair and the event; the rest confirm."""

MAX_SAMPLES = 10**7
MAX_DRAWS = 4 * 10**7

STAGE_BUDGETS = (10**4, 10**5, 10**6)
"""``samples="auto"``: the budgets per input tried in turn before the largest one allowed (see :func:`audit`)."""


def _samples(samples: object, inputs: int | None = None) -> int:
    """``samples`` per input, in [2, MAX_SAMPLES] and with at most MAX_DRAWS draws over all ``inputs``.

    Why these limits: the selection half of every input's samples is held in memory at once (the
    confirmation halves are counted chunk by chunk), 8 bytes per output coordinate, and the zoo's vector
    outputs have up to ~20 coordinates. Measured: 10^7 samples per input of ``histogram`` (2 inputs, vector outputs)
    take 12 s and 1 GB, of ``svt1`` (4 inputs) 13 s and 0.5 GB; 10^8 would take ten times both.
    MAX_DRAWS = 4 * 10^7 in all keeps an audit within about a minute and a few GB on any mechanism
    with many inputs (a 31-ary randomized response may use 1.29 * 10^6 samples per input). The
    Clopper-Pearson certification is proved for n <= 10^8 confirmation samples (dpcert.proofs.audit.bounds),
    which MAX_SAMPLES keeps well within.
    """
    samples = require_int("samples", samples, minimum=2, maximum=MAX_SAMPLES)
    if inputs is not None and samples * inputs > MAX_DRAWS:
        raise InvalidParameterError(f"samples must be an integer in [2, {MAX_DRAWS // inputs}] for {inputs} inputs "
                                    f"(at most {MAX_DRAWS:.0e} draws in all). Got {samples}")
    return samples


@dataclass(frozen=True)
class AuditWitness:
    """The best pair and event: confirmation counts k of n under x and k' of n' under x' (Poisson sizes), and the
    bounds of the method used (see the module): ``p_lower`` <= P(E|x) and ``p_prime_upper`` >= P(E|x') (the two
    probabilities), or ``share_lower`` <= P(E|x) / (P(E|x) + P(E|x')) from k of k + k', with ``p_prime_lower`` <=
    P(E|x') from k' of n' when delta > 0 (the share)."""

    x: Hashable
    x_prime: Hashable
    event: str
    k: int
    n: int
    k_prime: int
    n_prime: int
    p: float
    p_prime: float
    p_lower: float | None
    p_prime_upper: float | None
    share_lower: float | None = None
    p_prime_lower: float | None = None

    def as_json(self) -> dict[str, object]:
        return {k: _jsonable(v) for k, v in asdict(self).items()}

    def bounds_text(self, digits: int = 6) -> str:
        """The confirmation's bounds and counts in words."""
        if self.share_lower is not None:
            text = (f"P(E|x) / (P(E|x) + P(E|x')) >= {self.share_lower:.{digits}g} ({self.k} of the "
                    f"{self.k + self.k_prime} outputs in E came from x; {self.n} and {self.n_prime} samples)")
            if self.p_prime_lower is not None:
                text += f", P(E|x') >= {self.p_prime_lower:.{digits}g} ({self.k_prime}/{self.n_prime})"
            return text
        return (f"P(E|x) >= {self.p_lower:.{digits}g} ({self.k}/{self.n}), "
                f"P(E|x') <= {self.p_prime_upper:.{digits}g} ({self.k_prime}/{self.n_prime})")


METHODS = ("share", "two-sided")
"""How the confirmation bounds eps (see the module): by the share of E's outputs that came from x ("share": alone for
delta = 0, with a lower bound on P(E|x') for delta > 0), or by P(E|x) and P(E|x') ("two-sided", delta > 0 only)."""


def _confirmed_bound(k: int, n: int, k2: int, n2: int, alpha: float, delta: float, *, method: str
                     ) -> tuple[float, float | None, float | None, float | None, float | None]:
    """(eps lower bound, p_lo, p'_hi, s_lo, p'_lo) from the confirmation counts by ``method`` (see the module), each
    bound at ``alpha``; the ones the method does not use are None."""
    if method == "share":
        share = cp_lower(k, k + k2, alpha) if k else 0.0
        if delta == 0:
            return log_odds_lower(share), None, None, share, None
        lo2 = cp_lower(k2, n2, alpha) if k2 else 0.0
        return share_eps_lower_bound(share, delta, lo2), None, None, share, lo2
    lo = cp_lower(k, n, alpha) if n else 0.0
    hi = cp_upper(k2, n2, alpha) if n2 else 1.0
    return eps_lower_bound(lo, hi, delta), lo, hi, None, None


_WITNESS_LAYOUTS = {("share", False, False), ("share", True, True), ("two-sided", False, True)}
"""(method, with a bound on P(E|x'), delta > 0) of a consistent witness: the share alone for delta = 0, the share
with p'_lo or the two probabilities for delta > 0."""


_FORESIGHT_LEVELS = (np.arange(100) + 0.5) / 100
"""The quantiles of each foreseen confirmation count over which :func:`_method_of` averages a method's bound."""


def _method_of(event: Event, chosen_on: tuple[np.ndarray, np.ndarray], n_confirm: int, alpha: float,
               delta: float) -> str:
    """The method whose bound the chosen event's counts on the selection sample foresee to be higher on average (the
    share whenever delta = 0): a choice made on the selection sample only, so the confirmation's statement is untouched.

    The average is over the confirmation's counts as the selection sample predicts them: seen c times in m outputs,
    the event's rate has the Jeffreys posterior Gamma(c + 1/2, m), so a count of n_confirm outputs is negative
    binomial with c + 1/2 and m / (m + n_confirm); each method's bound is averaged over a 100 x 100 grid of the two
    counts' quantiles. Not the bound at the counts' means: an event seen a few times under x' promises the share a
    fine bound there, yet the confirmation sees it 0 times with fair probability, and then the share bounds nothing
    while the two probabilities still bound the leak (diffprivlib's GaussianAnalytic in floating point at (0.1, 1e-6),
    confidence 0.9: 0 by the share, 7.09 by the two probabilities)."""
    if delta == 0:
        return "share"
    grids = [nbinom.ppf(_FORESIGHT_LEVELS, event.count(outputs) + 0.5, len(outputs) / (len(outputs) + n_confirm))
             for outputs in chosen_on]
    k, k2 = (grid.ravel() for grid in np.meshgrid(*grids))
    foreseen = {m: float(np.mean(vector_bounds(k, k2, n_confirm, n_confirm, alpha, delta, method=m))) for m in METHODS}
    return max(METHODS, key=lambda m: foreseen[m])


@dataclass(frozen=True)
class AuditResult:
    """The outcome of :func:`audit`.

    ``epsilon_lower_bound`` holds (is below the true eps) with probability >= ``confidence``;
    ``best_possible_lower_bound`` (finite mechanisms only) is what the best exact event would give at
    the same sample size and correction, with expected counts in place of observed ones.
    """

    mechanism: str
    claimed_eps: float
    claimed_delta: float
    epsilon_lower_bound: float
    confidence: float
    verdict: str
    witness: AuditWitness | None
    samples: int
    """Samples drawn in all, over every input (and every stage of ``samples="auto"``)."""
    seconds: float
    seed: int
    alpha_per_bound: float
    pairs_tested: int
    best_possible_lower_bound: float | None = None
    samples_per_input: int | None = None
    """The budget per input (the last stage's with ``samples="auto"``): half select, half (on average: Poisson sizes)
    confirm."""
    stages: int = 1
    """Budgets tried (``samples="auto"``): ``samples`` and ``seconds`` are then the totals over them."""
    randomness: str = "rng"
    """"rng": the samples were drawn from generators spawned from ``seed`` (the run replays exactly); "os": the sampler
    drew the operating system's entropy (a rerun is a new, independent audit)."""

    def as_json(self) -> dict[str, object]:
        data = {k: _jsonable(v) for k, v in asdict(self).items() if k != "witness"}
        data["witness"] = None if self.witness is None else self.witness.as_json()
        return data

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.as_json(), indent=2))

    @classmethod
    def load(cls, path: str | Path) -> AuditResult:
        data = json.loads(Path(path).read_text())
        w = data.pop("witness")
        witness = None if w is None else AuditWitness(**{k: _tuples(v) for k, v in w.items()})
        return cls(witness=witness, **data)

    def recheck(self) -> bool:
        """Recompute the Clopper–Pearson bounds and eps lower bound from the stored counts (no sampling), by the
        method the witness records (a share bound for delta = 0)."""
        if self.witness is None:
            return self.epsilon_lower_bound == 0 and self.verdict == "no-violation-found"
        w = self.witness
        method = "two-sided" if w.share_lower is None else "share"
        layout = (method, w.p_prime_lower is not None, self.claimed_delta > 0)
        if layout not in _WITNESS_LAYOUTS:
            return False
        bound, lo, hi, share, lo2 = _confirmed_bound(w.k, w.n, w.k_prime, w.n_prime, self.alpha_per_bound,
                                                     self.claimed_delta, method=method)
        verdict = "violation" if bound > self.claimed_eps else "no-violation-found"
        recomputed, stored = (((share, lo2), (w.share_lower, w.p_prime_lower)) if method == "share"
                              else ((lo, hi), (w.p_lower, w.p_prime_upper)))
        return (all(a is b is None or (a is not None and b is not None
                                       and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300))
                    for a, b in zip(recomputed, stored, strict=True))
                and math.isclose(bound, self.epsilon_lower_bound, rel_tol=1e-9, abs_tol=1e-12)
                and verdict == self.verdict)


class AuditStopped(InvalidParameterError):
    """A staged audit (``samples="auto"``) whose sampler failed after some stages had finished: the message says
    why and what the finished stages found; ``partial`` is their result (valid at the confidence asked for, as any
    stopping point of the schedule is)."""

    def __init__(self, message: str, partial: AuditResult) -> None:
        super().__init__(message)
        self.partial = partial


def _jsonable(value: object) -> object:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _tuples(value: object) -> object:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _resolve_pairs(target: object, pairs: Sequence[tuple[Hashable, Hashable]] | None
                   ) -> list[tuple[Hashable, Hashable]]:
    if pairs is None:
        if hasattr(target, "neighbour_pairs"):
            pairs = list(target.neighbour_pairs())
        elif isinstance(target, FiniteMechanism):
            pairs = list(target.neighbours.ordered_pairs(target.inputs()))
            if len(pairs) > _MAX_PAIRS:
                raise InvalidParameterError(f"{target.name} has {len(pairs)} neighbouring pairs (more than "
                                            f"{_MAX_PAIRS}); pass pairs=[(x, x'), ...]")
        elif isinstance(target, ContinuousMechanism) and isinstance(target.neighbours, WithinDistance):
            pairs = [(0, target.neighbours.radius)]
        else:
            raise InvalidParameterError("pairs must be given for a sampler: a list of neighbouring (x, x') pairs, or "
                                        "input_length=N to search StatDP's input patterns of N entries")
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Sequence):
        raise InvalidParameterError(f"pairs must be a list of (x, x') pairs. Got {pairs!r}")
    if not pairs:
        raise InvalidParameterError("pairs must list at least one neighbouring (x, x') pair. Got none")
    checked = []
    for pair in pairs:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InvalidParameterError(f"pairs must be (x, x') pairs. Got {pair!r} among them")
        x, x2 = tuple(pair)
        if any(isinstance(v, np.ndarray) for v in (x, x2)):
            raise InvalidParameterError(f"pairs must hold hashable inputs such as numbers or tuples, not numpy arrays "
                                        f"(their == is elementwise). Got ({x!r}, {x2!r}): pass (tuple(x), tuple(x'))")
        if x == x2:
            raise InvalidParameterError(f"pairs must join two different inputs. Got ({x!r}, {x2!r})")
        if isinstance(target, Mechanism) and not _are_neighbours(target, x, x2):
            raise InvalidParameterError(f"pairs must be neighbours of {target.name}. Got ({x!r}, {x2!r})")
        checked.append((x, x2))
    ordered: list[tuple[Hashable, Hashable]] = []
    for x, x2 in checked:  # the neighbour relation is symmetric: test both directions
        for p in ((x, x2), (x2, x)):
            if p not in ordered:
                ordered.append(p)
    return ordered


def _are_neighbours(mech: Mechanism, x: Hashable, x2: Hashable) -> bool:
    if hasattr(mech, "is_neighbour"):
        return bool(mech.is_neighbour(x, x2))
    if isinstance(mech, FiniteMechanism):
        try:
            return (x, x2) in set(mech.neighbours.ordered_pairs(mech.inputs()))
        except TypeError:
            return False
    if isinstance(mech, ContinuousMechanism) and isinstance(mech.neighbours, WithinDistance):
        gap = abs(to_exact("x", x) - to_exact("x'", x2))
        return bool(gap <= mech.neighbours.radius)
    return True


def _best_possible(mech: FiniteMechanism, pairs, n: int, alpha: float, delta: float) -> float:
    best = 0.0
    outs = list(mech.outputs())
    for x, x2 in pairs:
        pa, pb = mech.pmf(x), mech.pmf(x2)
        p = np.array([float(pa.get(y, 0)) for y in outs])
        q = np.array([float(pb.get(y, 0)) for y in outs])
        order = np.argsort(-(p + 1e-300) / (q + 1e-300), kind="stable")
        scores = vector_bounds(n * np.cumsum(p[order]), n * np.cumsum(q[order]), n, n, alpha, delta)
        best = max(best, float(scores.max()))
    return best


def audit(target: Sampler | Mechanism, *, eps: object, delta: object = 0, pairs=None, samples: int,
          confidence: float = 1 - 1e-6, seed: int, executor: Executor | None = None, chunk: int = 250_000,
          name: str | None = None, progress: Callable[[int, int], None] | None = None,
          input_length: int | None = None, floating_point: bool = False, max_samples: int | None = None,
          randomness: str = "rng") -> AuditResult:
    """Audit a claimed (eps, delta)-DP guarantee of a sampler or mechanism; see the module docstring.

    Args:
        target: a :class:`Mechanism` (its ``sample`` is used) or any callable ``f(x, size, rng)`` returning
            an array of shape (size,) or (size, k).
        eps, delta: the claim (eps in [10^-300, 10^4], 0 <= delta < 1).
        pairs: neighbouring (x, x') pairs; both directions are tested. Default: the mechanism's
            ``neighbour_pairs()`` (zoo), its neighbour relation over ``inputs()`` (finite), (0, sensitivity), or,
            for a sampler given ``input_length``, StatDP's input patterns of that length (tuples;
            :func:`~dpcert.proofs.audit.patterns.statdp_patterns`).
        samples: samples per input (half select the events, half confirm them: the two confirmation
            sizes are Poisson with mean half the budget, see the module), in [2, 10^7] and at most
            4 * 10^7 over all inputs (see :func:`_samples`); or ``"auto"``: the budgets of STAGE_BUDGETS, then the
            largest allowed, in turn until one finds a violation. Each runs at confidence 1 - (1 - confidence) / m
            for the m budgets of the schedule, so the bound of whichever stops holds with probability >=
            ``confidence`` (a union over every stage that could have run: valid under the optional stopping); each
            draws its own streams (the budget is part of the seed's entropy).
        max_samples: with ``samples="auto"``, the largest budget per input tried (default and most: the largest
            allowed, 10^7 or 4 * 10^7 over the number of inputs); the schedule is then the budgets of STAGE_BUDGETS
            below it, and it.
        randomness: "rng" (default): the sampler draws all its randomness from its ``rng`` argument, which is checked
            (two identically seeded calls must agree), so the run replays from ``seed``. "os": the sampler ignores
            ``rng`` and draws the operating system's entropy (a library that cannot be seeded, such as OpenDP or
            python-dp): checked to give fresh noise on every call; the confidence statement holds as well, but a rerun
            is a new audit, and no ``executor`` is allowed (forked workers could copy one seeded state).
        confidence: probability in (0, 1) that the reported lower bound holds (default 1 - 10^-6, as `dpcert claims`).
        seed: with ``samples``, the root of the ``SeedSequence`` every chunk's Generator is spawned from (so the
            same seed at another budget draws independent samples).
        executor: runs the chunks (e.g. ``ProcessPoolExecutor`` for a picklable sampler); default in-process.
        chunk: largest number of samples drawn in one call.
        progress: called as ``progress(samples drawn so far, samples in all)`` as chunks arrive.
        input_length: without ``pairs``, search StatDP's patterns for vectors of this many entries.
        floating_point: also try events on the float64 representation of scalar real outputs (which doubles are
            reachable: Mironov's attack on floating-point noise; see :mod:`dpcert.proofs.audit.events`). Off by
            default, because it audits the implementation's arithmetic, not the mathematical mechanism: every
            textbook float sampler of x + noise fails it.

    Raises:
        InvalidParameterError: bad arguments, or a sampler that raises, returns malformed output, or does not draw
            its randomness from its ``rng`` (two calls with identically seeded generators differ).
    """
    if pairs is None and input_length is not None:
        pairs = statdp_patterns(input_length)
    if isinstance(samples, str) and samples.strip().lower() == "auto":
        return _audit_in_stages(target, eps=eps, delta=delta, pairs=pairs, confidence=confidence, seed=seed,
                                executor=executor, chunk=chunk, name=name, progress=progress,
                                floating_point=floating_point, max_samples=max_samples, randomness=randomness)
    if max_samples is not None:
        raise InvalidParameterError(f"max_samples applies to samples='auto' only. Got samples={samples!r}")
    start = time.perf_counter()
    if not callable(target) and not isinstance(target, Mechanism):
        raise InvalidParameterError(f"target must be a Mechanism or a sampler f(x, size, rng). Got {target!r}")
    eps_f = float(require_eps("eps", eps))
    delta_f = float_upper(require_unit_interval("delta", delta))  # rounded up: a larger delta only lowers the bound
    samples = _samples(samples)
    seed = require_int("seed", seed, minimum=0)
    chunk = require_int("chunk", chunk, minimum=1)
    _require_confidence(confidence)
    if not isinstance(floating_point, bool):
        raise InvalidParameterError(f"floating_point must be True or False. Got {floating_point!r}")
    if randomness not in ("rng", "os"):
        raise InvalidParameterError(f"randomness must be 'rng' or 'os'. Got {randomness!r}")
    if randomness == "os" and executor is not None:
        raise InvalidParameterError("executor cannot be combined with randomness='os': workers forked from one process "
                                    "could repeat one seeded noise state, which the check cannot see")
    ordered = _resolve_pairs(target, pairs)
    sampler = target.sample if isinstance(target, Mechanism) else target
    label = name or getattr(target, "name", None) or getattr(target, "__name__", "sampler")

    inputs = _inputs(ordered)
    _samples(samples, len(inputs))
    index = {i: k for k, i in enumerate(inputs)} if all(_hashable(x) for x in inputs) else None
    position = (lambda x: index[x]) if index is not None else (lambda x: inputs.index(x))
    alpha = (1 - confidence) if delta_f == 0 else (1 - confidence) / 2  # one pair, one bound or two
    n_select = int(samples * SELECT_SHARE)
    n_confirm = samples - n_select
    # the budget is part of the stream's entropy: a larger budget with the same seed draws afresh (independent
    # evidence), never the earlier samples as a prefix
    root = np.random.SeedSequence([seed, samples])
    select_seed, confirm_seed, check_seed, size_seed = root.spawn(4)
    (require_own_randomness if randomness == "rng" else require_fresh_randomness)(sampler, inputs[0], check_seed)
    sizes = [int(v) for v in np.random.default_rng(size_seed).poisson(n_confirm, 2)]

    total, drawn = n_select * len(inputs) + sum(sizes), [0]

    def advance(n: int) -> None:
        drawn[0] += n
        if progress is not None:
            progress(drawn[0], total)

    selection = draw_all(sampler, inputs, n_select, select_seed, chunk, executor, progress=advance,
                         compact=is_continuous)  # real vectors chosen on in float32: half the memory
    continuous = is_continuous(np.concatenate([s[:20_000] for s in selection]))  # what it looks at
    fitted: dict[tuple[int, int], list] = {}  # both directions of a pair share one fit
    chosen = []
    for a, b in ordered:
        i, j = position(a), position(b)
        if (j, i) in fitted:
            chosen.append(fitted[j, i][1])
        else:
            fitted[i, j] = select_event(selection[i], selection[j], continuous, n_confirm, alpha, delta_f,
                                        floating_point=floating_point)
            chosen.append(fitted[i, j][0])
    pick = max(range(len(ordered)), key=lambda i: chosen[i][1])  # the first of the best selection scores
    (a, b), event = ordered[pick], chosen[pick][0]
    method = _method_of(event, (selection[position(a)], selection[position(b)]), n_confirm, alpha, delta_f)
    del selection
    counts = [0, 0]  # confirmation counts under x and x', chunk by chunk

    def confirm(side: int, outputs: np.ndarray) -> None:
        counts[side] += event.count(outputs)

    stream_all(sampler, [a, b], sizes, confirm_seed, chunk, executor, confirm, progress=advance)
    (k, k2), (n, n2) = counts, sizes
    bound, lo, hi, share, lo2 = _confirmed_bound(k, n, k2, n2, alpha, delta_f, method=method)
    witness = AuditWitness(a, b, event.describe(), k, n, k2, n2, k / n if n else 0.0, k2 / n2 if n2 else 0.0, lo, hi,
                           share, lo2)
    best_possible = None
    if isinstance(target, FiniteMechanism):
        best_possible = _best_possible(target, ordered, n_confirm, alpha, delta_f)
    return AuditResult(mechanism=str(label), claimed_eps=eps_f, claimed_delta=delta_f,
                       epsilon_lower_bound=bound, confidence=float(confidence),
                       verdict="violation" if bound > eps_f else "no-violation-found", witness=witness,
                       samples=total, seconds=time.perf_counter() - start, seed=seed,
                       alpha_per_bound=alpha, pairs_tested=len(ordered), best_possible_lower_bound=best_possible,
                       samples_per_input=samples, randomness=randomness)


def _audit_in_stages(target, *, eps, delta, pairs, confidence, seed, executor, chunk, name, progress,
                     floating_point, max_samples, randomness) -> AuditResult:
    """``audit(..., samples="auto")``: see :func:`audit`."""
    _require_confidence(confidence)  # before it is split over the stages
    cap = min(MAX_SAMPLES, MAX_DRAWS // len(_inputs(_resolve_pairs(target, pairs))))
    if max_samples is not None:
        cap = require_int("max_samples", max_samples, minimum=2, maximum=cap)
    schedule = [b for b in STAGE_BUDGETS if b < cap] + [cap]
    stage_confidence = _stage_confidence(confidence, len(schedule))
    spent, seconds, result = 0, 0.0, None
    for stage, budget in enumerate(schedule, start=1):
        try:
            current = audit(target, eps=eps, delta=delta, pairs=pairs, samples=budget, confidence=stage_confidence,
                            seed=seed, executor=executor, chunk=chunk, name=name, progress=progress,
                            floating_point=floating_point, randomness=randomness)
        except InvalidParameterError as error:
            if result is None:
                raise
            raise AuditStopped(f"{error} (in stage {stage}, {budget} samples per input; the {stage - 1} finished "
                               f"stages found an eps lower bound of {result.epsilon_lower_bound:.6g}, no violation, "
                               f"at confidence {confidence})", result) from error
        spent, seconds = spent + current.samples, seconds + current.seconds
        result = dataclasses.replace(current, confidence=float(confidence), samples=spent, seconds=seconds,
                                     stages=stage)
        if result.verdict == "violation":
            break
    assert result is not None
    return result


def _stage_confidence(confidence: float, stages: int) -> float:
    """Each stage's confidence: their errors add up to at most 1 - ``confidence`` (Bonferroni over the schedule)."""
    return 1 - (1 - confidence) / stages


def _require_confidence(confidence: object) -> None:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InvalidParameterError(f"confidence must be in (0, 1). Got {confidence!r}")


def _inputs(ordered: Sequence[tuple[Hashable, Hashable]]) -> list[Hashable]:
    """The distinct inputs of the pairs, in order of appearance (== only: inputs may be unhashable)."""
    inputs: list[Hashable] = []
    for pair in ordered:
        inputs += [x for x in pair if x not in inputs]
    return inputs


def _hashable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True
