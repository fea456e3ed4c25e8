"""The statistical audit on the Laplace and Gaussian mechanisms of three DP libraries, at their claimed parameters.

Setup (the libraries live in the benchmark's own environment, never as dependencies of dpcert):

    python3 -m venv /tmp/libenv
    /tmp/libenv/bin/pip install -e /work/main diffprivlib opendp python-dp "scikit-learn<1.8"
    /tmp/libenv/bin/python benchmarks/bench_audit_libraries.py [--samples 1000000] [--seed 1] [--match TEXT]

``--match`` keeps the library mechanisms whose "library mechanism" label contains TEXT, e.g. ``"Laplace (seeded"``
(the control always runs). The scikit-learn pin: diffprivlib 0.6.6 imports ``DOUBLE`` from ``sklearn.tree._tree``,
which scikit-learn 1.9.1 no longer has (1.7.2 works). Audited, each on the neighbouring inputs 0 and 1 at
sensitivity 1 (both orders):

- IBM's diffprivlib: ``Laplace``, ``Gaussian`` and ``GaussianAnalytic`` (float64). Each draw is one call of
  ``randomise`` (a Python loop, about 3 * 10^5 draws per second). Seeded: the mechanism gets a numpy ``RandomState``
  seeded from the audit's ``rng``, so the rows are reproducible from the printed seed. The library's default
  (``random_state=None``) draws from ``secrets.SystemRandom`` instead, which cannot be seeded; for the Gaussians the
  default also takes another code path (``normalvariate`` rather than ``standard_normal``), so the default is
  audited too, as an OS-entropy sampler (below). Also the library's floating-point-safe Laplace, ``Snapping``
  (Mironov's snapping mechanism; input and output range [-100, 100]), seeded only.
- OpenDP: ``make_laplace`` and ``make_gaussian`` on float and on integer atoms (the integer ones are the discrete
  Laplace and the discrete Gaussian). The scale is OpenDP's own calibration (``binary_search_param``) for the
  claim; a Gaussian's zCDP is turned into (eps, delta) by ``make_zCDP_to_approxDP`` and ``make_fix_delta``, and
  the claim is the measurement's ``map(1)``. Samples are drawn by the same constructor on a vector domain (L1 or
  L2 distance, same scale) applied to ``size`` copies of x: every coordinate gets its own noise of the scalar
  measurement's law. OpenDP draws from the operating system's secure generator and cannot be seeded.
- Google's python-dp (``pydp.algorithms.numerical_mechanisms``): ``LaplaceMechanism`` and ``GaussianMechanism``,
  ``add_noise`` on a float and on an int (its two overloads). One call per draw; python-dp cannot be seeded either.
- The positive control: dpcert's own textbook float Laplace (``laplace-float`` at eps = 0.1), which
  ``floating_point=True`` must catch (Mironov 2012).

The audits: every claim is audited with the default events and, for float outputs, with floating-point events too
(``audit(..., floating_point=True)``: sets of float64 lattice cells, Mironov's attack), each at confidence 0.9 (seed
S) and at confidence 1 - 10^-6 on fresh samples (seed S + 1; the two event families of one seed see the same
samples). Before the table, each Gaussian whose library states its sigma gets the exact eps of N(0, sigma^2) at the
claimed delta, certified by dpcert's accountant (``gaussian_epsilon``): the claim of the mathematical mechanism
before any floating point. Claims: eps = 0.1 and 1; the Gaussians at (0.1, 10^-6) and (1, 10^-5). Samples per input:
``--samples`` (default 10^6), at most 5 * 10^5 for OpenDP's float Gaussian. Draws per second measured here (one
core): diffprivlib 3e5 seeded, 1.4e5 to 1.9e5 with SystemRandom, Snapping 8e4; OpenDP float Laplace 5.8e4, float
Gaussian 2.4e4, integer 0.7e5 to 1.7e5 (vectorized in OpenDP's own code); python-dp 3.6e5 to 5.8e5. So each audit
takes about a minute at most (OpenDP's float ones: 35 to 45 s on an idle core).

Unseedable samplers: dpcert requires a sampler to draw all its randomness from its ``rng`` and refuses one whose
two identically seeded calls differ (the script prints that refusal first). Libraries that draw the operating
system's entropy are audited with ``audit(..., randomness="os")``, which checks instead that two calls differ (a
library that reseeded itself identically on every call would repeat its noise and be refused). Rows of such samplers
say "OS entropy" under seed: rerunning the command repeats the audit with new, independent samples, not the same
ones.

A "violation" row is a statement at the row's confidence: its eps lower bound exceeds the claimed eps, and its
witness (printed in full below the table) is an event of the outputs with confirmation counts under x and x'.
"no-violation-found" proves nothing: a statistical audit can refute a claim, never prove it.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from dpcert.accountant.gaussian_composition import gaussian_epsilon
from dpcert.mechanisms.catalog import make_mechanism
from dpcert.mechanisms.parameters import InvalidParameterError
from dpcert.proofs.audit import AuditResult, audit

HIGH_CONFIDENCE = 1 - 1e-6
CLAIMS = ((0.1, 0.0), (1.0, 0.0))
GAUSSIAN_CLAIMS = ((0.1, 1e-6), (1.0, 1e-5))
SLOW_CAP = 500_000
"""The most samples per input for OpenDP's float Gaussian (about 2.4 * 10^4 draws per second on this machine)."""


@dataclass
class Target:
    """One library mechanism at one claim: a sampler f(x, size, rng) and the pair (x, x') it is audited on."""

    library: str
    version: str
    mechanism: str
    eps: float
    delta: float
    sampler: object
    pair: tuple[Hashable, Hashable]
    floating: bool
    cap: int | None = None
    seeded: bool = True
    sigma: float | None = None
    """A Gaussian's noise standard deviation, where the library states it (for :func:`show_calibration`)."""


class FreshEntropy:
    """A sampler of a library that draws from the operating system: ``draw(x, size)`` ignores the audit's rng (audited
    with ``randomness="os"``)."""

    def __init__(self, draw: Callable[[Hashable, int], np.ndarray]):
        self.draw = draw

    def __call__(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        return self.draw(x, size)


def _loop(call: Callable[[Hashable], object], x: Hashable, size: int, dtype) -> np.ndarray:
    return np.fromiter((call(x) for _ in range(size)), dtype=dtype, count=size)


# --- diffprivlib ---------------------------------------------------------------------------------------------

class DiffprivlibSeeded:
    """A diffprivlib mechanism whose ``random_state`` is a RandomState seeded from the audit's rng."""

    def __init__(self, factory: Callable[..., object]):
        self.factory = factory

    def __call__(self, x: Hashable, size: int, rng: np.random.Generator) -> np.ndarray:
        state = np.random.RandomState(np.random.MT19937(np.random.SeedSequence(rng.integers(0, 2**32, size=8))))
        return _loop(self.factory(random_state=state).randomise, x, size, np.float64)


def diffprivlib_targets() -> list[Target]:
    from diffprivlib.mechanisms import Gaussian, GaussianAnalytic, Laplace, Snapping

    targets = []
    ver = version("diffprivlib")
    for cls, claims in ((Laplace, CLAIMS), (Gaussian, GAUSSIAN_CLAIMS), (GaussianAnalytic, GAUSSIAN_CLAIMS)):
        for eps, delta in claims:
            def factory(random_state, cls=cls, eps=eps, delta=delta):
                if cls is Laplace:
                    return cls(epsilon=eps, sensitivity=1, random_state=random_state)
                return cls(epsilon=eps, delta=delta, sensitivity=1, random_state=random_state)

            default = factory(None)  # random_state=None: the library's default, secrets.SystemRandom
            sigma = None if cls is Laplace else float(np.sqrt(default.variance(0.0)))
            targets.append(Target("diffprivlib", ver, f"{cls.__name__} (seeded RandomState)", eps, delta,
                                  DiffprivlibSeeded(factory), (0.0, 1.0), True, sigma=sigma))
            targets.append(Target("diffprivlib", ver, f"{cls.__name__} (default: SystemRandom)", eps, delta,
                                  FreshEntropy(lambda x, size, m=default: _loop(m.randomise, x, size, np.float64)),
                                  (0.0, 1.0), True, seeded=False))
    for eps, _ in CLAIMS:  # the library's floating-point-safe Laplace (Mironov's snapping), on [-100, 100]
        def snapping(random_state, eps=eps):
            return Snapping(epsilon=eps, sensitivity=1, lower=-100, upper=100, random_state=random_state)

        targets.append(Target("diffprivlib", ver, "Snapping on [-100, 100] (seeded RandomState)", eps, 0.0,
                              DiffprivlibSeeded(snapping), (0.0, 1.0), True))
    return targets


# --- OpenDP --------------------------------------------------------------------------------------------------

class OpenDPVector:
    """``size`` draws of an OpenDP scalar measurement: the same constructor on a vector of ``size`` copies of x."""

    def __init__(self, build: Callable[[object, object], object], scalar_type: type, distance):
        self.build, self.type, self.distance = build, scalar_type, distance
        self.cache: dict[int, object] = {}

    def __call__(self, x: Hashable, size: int) -> np.ndarray:
        import opendp.prelude as dp

        if size not in self.cache:
            self.cache = {size: self.build(dp.vector_domain(_atom(dp, self.type), size=size),
                                           self.distance(T=self.type))}
        return np.asarray(self.cache[size]([self.type(x)] * size),
                          dtype=np.float64 if self.type is float else np.int64)


def _atom(dp, scalar_type: type):
    return dp.atom_domain(T=scalar_type, nan=False) if scalar_type is float else dp.atom_domain(T=scalar_type)


def opendp_targets() -> list[Target]:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    targets = []
    ver = version("opendp")
    for scalar_type, kind in ((float, "float"), (int, "integer")):
        atom, metric, one = _atom(dp, scalar_type), dp.absolute_distance(T=scalar_type), scalar_type(1)
        for eps, _ in CLAIMS:
            scale = dp.binary_search_param(lambda s: dp.m.make_laplace(atom, metric, scale=s), d_in=one, d_out=eps)
            claim = dp.m.make_laplace(atom, metric, scale=scale).map(one)
            draw = OpenDPVector(lambda d, m, s=scale: dp.m.make_laplace(d, m, scale=s), scalar_type, dp.l1_distance)
            targets.append(Target("OpenDP", ver, f"make_laplace ({kind}, scale {scale:.6g})", float(claim), 0.0,
                                  FreshEntropy(draw), (scalar_type(0), one), scalar_type is float, seeded=False))
        for eps, delta in GAUSSIAN_CLAIMS:
            def chain(s, delta=delta):
                gauss = dp.m.make_gaussian(atom, metric, scale=s)
                return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gauss), delta)

            scale = dp.binary_search_param(chain, d_in=one, d_out=(eps, delta))
            claim_eps, claim_delta = chain(scale).map(one)
            draw = OpenDPVector(lambda d, m, s=scale: dp.m.make_gaussian(d, m, scale=s), scalar_type, dp.l2_distance)
            targets.append(Target("OpenDP", ver, f"make_gaussian ({kind}, scale {scale:.6g})", float(claim_eps),
                                  float(claim_delta), FreshEntropy(draw), (scalar_type(0), one),
                                  scalar_type is float, cap=SLOW_CAP if scalar_type is float else None,
                                  seeded=False))
    return targets


# --- python-dp -----------------------------------------------------------------------------------------------

def pydp_targets() -> list[Target]:
    from pydp.algorithms.numerical_mechanisms import GaussianMechanism, LaplaceMechanism

    targets = []
    ver = version("python-dp")
    for scalar_type, kind in ((float, "float"), (int, "int")):
        pair = (scalar_type(0), scalar_type(1))
        dtype = np.float64 if scalar_type is float else np.int64
        for eps, _ in CLAIMS:
            mech = LaplaceMechanism(eps, 1.0)
            targets.append(Target("python-dp", ver, f"LaplaceMechanism (add_noise {kind})", float(mech.epsilon), 0.0,
                                  FreshEntropy(lambda x, size, m=mech, t=dtype: _loop(m.add_noise, x, size, t)),
                                  pair, scalar_type is float, seeded=False))
        for eps, delta in GAUSSIAN_CLAIMS:
            mech = GaussianMechanism(eps, delta, 1.0)
            targets.append(Target("python-dp", ver, f"GaussianMechanism (add_noise {kind})", float(mech.epsilon),
                                  float(mech.delta),
                                  FreshEntropy(lambda x, size, m=mech, t=dtype: _loop(m.add_noise, x, size, t)),
                                  pair, scalar_type is float, seeded=False,
                                  sigma=float(mech.std) if scalar_type is float else None))
    return targets


LIBRARIES = {"diffprivlib": diffprivlib_targets, "opendp": opendp_targets, "python-dp": pydp_targets}


def control_target() -> Target:
    return Target("dpcert (control)", version("dpcert"), "laplace-float (textbook float Laplace)", 0.1, 0.0,
                  make_mechanism("laplace-float", raw={"eps": "1/10"}), (0.0, 1.0), True)


# --- the audits ----------------------------------------------------------------------------------------------

@dataclass
class Row:
    target: Target
    floating_point: bool
    confidence: float
    seed: int
    samples: int
    result: AuditResult


def run(target: Target, *, floating_point: bool, confidence: float, seed: int, samples: int) -> Row:
    samples = min(samples, target.cap or samples)
    result = audit(target.sampler, eps=target.eps, delta=target.delta, pairs=[target.pair], samples=samples,
                   confidence=confidence, seed=seed, floating_point=floating_point,
                   name=f"{target.library} {target.mechanism}",
                   randomness="os" if isinstance(target.sampler, FreshEntropy) else "rng")
    return Row(target, floating_point, confidence, seed, samples, result)


def show_calibration(target: Target) -> None:
    """The exact eps at the claimed delta of the continuous Gaussian N(0, sigma^2) at sensitivity 1, certified by
    dpcert's accountant: what the library's own calibration of sigma gives, before any floating point."""
    exact = gaussian_epsilon(1 / Fraction(target.sigma), Fraction(target.delta))
    print(f"calibration: {target.library} {target.mechanism}, sigma = {target.sigma!r}: N(0, sigma^2) is exactly "
          f"(eps, {target.delta:.0e})-DP for eps in [{float(exact.lower_value)!r}, {float(exact.upper_value)!r}] "
          f"(claimed eps {target.eps!r})")


def show_refusal(target: Target) -> None:
    """What dpcert's own check says about an unseedable library sampler (no samples are audited)."""
    try:
        audit(target.sampler, eps=target.eps, delta=target.delta, pairs=[target.pair], samples=1000,
              confidence=0.9, seed=0)
    except InvalidParameterError as error:
        print(f"dpcert refuses {target.library} {target.mechanism} as it stands: {error}")
    else:
        print(f"dpcert accepted {target.library} {target.mechanism} without randomness='os'")


def _format_claim(t: Target) -> str:
    return f"({t.eps:.6g}, {t.delta:.0e})" if t.delta else f"({t.eps:.6g}, 0)"


def _short(event: str, width: int = 48) -> str:
    event = event.replace("|", "\\|")
    if event.startswith("2^e <= \\|y\\| < 2^(e+1)"):  # a LatticeEvent: show its first cells and how many
        shown, count = event.split("{", 1)[1].split("}", 1)[0], event.rsplit("(", 1)[-1].rstrip(")")
        return f"lattice (e, l) in {{{shown[:width - 24]}...}} ({count})"
    return event if len(event) <= width else event[: width - 3] + "..."


def print_row(row: Row) -> None:
    t, r = row.target, row.result
    seed = str(row.seed) if t.seeded else f"OS entropy ({row.seed})"
    confidence = "1 - 1e-6" if row.confidence == HIGH_CONFIDENCE else f"{row.confidence:g}"
    event = _short(r.witness.event) if r.witness is not None else "-"
    samples = f"{row.samples:.0e}".replace("e+0", "e")
    print(f"| {t.library} | {t.version} | {t.mechanism} | {_format_claim(t)} | {'yes' if row.floating_point else 'no'}"
          f" | {samples} | {confidence} | {r.epsilon_lower_bound:.4g} | {r.verdict} | {event} | {seed} "
          f"| {r.seconds:.1f} |", flush=True)


def print_witness(row: Row, command: str) -> None:
    t, r, w = row.target, row.result, row.result.witness
    print(f"\n### {t.library} {t.version} {t.mechanism}: claimed {_format_claim(t)}, floating_point="
          f"{row.floating_point}, confidence {row.confidence!r}")
    print(f"eps lower bound {r.epsilon_lower_bound!r} > claimed eps {t.eps!r} (seed {row.seed}, {row.samples} samples "
          f"per input, alpha per bound {r.alpha_per_bound!r})")
    print(f"pair: x = {w.x!r}, x' = {w.x_prime!r}")
    print(f"event: {w.event}")
    print(f"confirmation counts: k = {w.k} of n = {w.n} under x (p = {w.p!r}); k' = {w.k_prime} of n' = {w.n_prime} "
          f"under x' (p' = {w.p_prime!r}); bounds: {w.bounds_text(digits=17)}")
    print(f"recheck of the stored counts: {r.recheck()}")
    if t.seeded:
        print(f"reproduce: {command} (this row: seed {row.seed}; --match narrows the run)")
    else:
        print(f"repeat: {command} (the library draws OS entropy: a rerun audits new, independent samples)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples per input (default 10^6)")
    parser.add_argument("--seed", type=int, default=1, help="seed S of the 0.9 audits (S + 1: the 1 - 1e-6 ones)")
    parser.add_argument("--libraries", nargs="+", default=list(LIBRARIES), choices=list(LIBRARIES))
    parser.add_argument("--match", default="", help="only the mechanisms whose 'library mechanism' contains this")
    args = parser.parse_args()
    command = " ".join([sys.executable, "benchmarks/bench_audit_libraries.py",
                        f"--samples {args.samples} --seed {args.seed}"]
                       + [f"--libraries {' '.join(args.libraries)}"] * (args.libraries != list(LIBRARIES))
                       + [f"--match {shlex.quote(args.match)}"] * bool(args.match))
    print(f"{command}\n{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, numpy {np.__version__}, "
          f"dpcert {version('dpcert')}")
    targets: list[Target] = []
    for name in args.libraries:
        try:
            targets += LIBRARIES[name]()
        except (ImportError, PackageNotFoundError) as error:
            print(f"{name}: skipped, not importable here ({type(error).__name__}: {error})")
    targets = [t for t in targets if args.match.lower() in f"{t.library} {t.mechanism}".lower()]
    for target in targets:
        if target.sigma is not None:
            show_calibration(target)
    refused: set[str] = set()
    for target in targets:
        if not target.seeded and target.library not in refused:
            show_refusal(target)
            refused.add(target.library)
    print()
    print("| library | version | mechanism | claimed (eps, delta) | floating_point | samples per input | confidence "
          "| eps lower bound | verdict | witness event | seed | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    started, rows = time.perf_counter(), []
    plan = [(target, floating_point, confidence, seed) for target in [control_target(), *targets]
            for floating_point in (False, True)[: 1 + target.floating]
            for confidence, seed in ((0.9, args.seed), (HIGH_CONFIDENCE, args.seed + 1))]
    for target, floating_point, confidence, seed in plan:
        row = run(target, floating_point=floating_point, confidence=confidence, seed=seed, samples=args.samples)
        print_row(row)
        rows.append(row)
    print(f"\n{len(rows)} audits in {(time.perf_counter() - started) / 60:.1f} minutes.")
    for row in rows:
        if row.result.verdict == "violation":
            print_witness(row, command)


if __name__ == "__main__":
    main()
