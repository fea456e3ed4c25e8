"""Chunked, reproducible sampling: every chunk draws with its own Generator from a spawned SeedSequence, and is
either kept (the selection sample) or counted and dropped as it arrives (the confirmation sample).

The chunks of one audit are the same whether they run in-process or on a
``concurrent.futures.Executor``, so results depend only on the seed. A ``ProcessPoolExecutor`` works
when the sampler pickles (a module-level function, or a mechanism dataclass such as the zoo's).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor

import numpy as np

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["OWN_RANDOMNESS_CHECK", "Sampler", "draw_all", "require_fresh_randomness", "require_own_randomness",
           "stream_all"]

Sampler = Callable[[Hashable, int, np.random.Generator], np.ndarray]

OWN_RANDOMNESS_CHECK = 64
"""Outputs drawn twice, with identically seeded generators, to check that a sampler draws from its ``rng``."""


def require_own_randomness(sampler: Sampler, x: Hashable, seed: np.random.SeedSequence) -> None:
    """Bad input unless ``sampler`` returns the same outputs for two identically seeded generators on ``x``.

    A sampler that ignores its ``rng`` (numpy's global state, ``random``, an rng of its own) returns different
    outputs here, and on a process pool its workers would repeat the same noise, so the chunks would not be
    independent and the confidence statement would not hold."""
    first, second = _drawn_twice(sampler, x, seed)
    if first.shape != second.shape or not np.array_equal(first, second):
        raise InvalidParameterError(f"sampler must draw all its randomness from its rng argument: two calls on input "
                                    f"{x!r} with identically seeded generators returned different outputs")


def require_fresh_randomness(sampler: Sampler, x: Hashable, seed: np.random.SeedSequence) -> None:
    """Bad input unless two calls of ``sampler`` on ``x`` (with identically seeded generators, which it is declared to
    ignore) return different outputs: a sampler that draws from the operating system's entropy, as libraries that
    cannot be seeded do, gives fresh noise on every call; one that repeats itself would make the samples dependent."""
    first, second = _drawn_twice(sampler, x, seed)
    if first.shape == second.shape and np.array_equal(first, second):
        raise InvalidParameterError(f"sampler must return fresh noise on every call with randomness='os': two calls on "
                                    f"input {x!r} returned the same outputs")


def _drawn_twice(sampler: Sampler, x: Hashable, seed: np.random.SeedSequence) -> tuple[np.ndarray, np.ndarray]:
    """OWN_RANDOMNESS_CHECK outputs on ``x``, drawn twice with identically seeded generators (each call checked)."""
    first, second = (_check(x, OWN_RANDOMNESS_CHECK,
                            _guarded(lambda: _draw_chunk(sampler, x, OWN_RANDOMNESS_CHECK, seed), x)) for _ in range(2))
    return first, second


def _draw_chunk(sampler: Sampler, x: Hashable, size: int, seed: np.random.SeedSequence) -> np.ndarray:
    return sampler(x, size, np.random.default_rng(seed))


def _check(x: Hashable, size: int, out: object) -> np.ndarray:
    if not isinstance(out, np.ndarray):
        try:
            out = np.asarray(out)
        except Exception as error:  # noqa: BLE001 - anything unconvertible is bad sampler output
            raise InvalidParameterError(f"sampler must return a numpy array. Got {type(out).__name__}") from error
    if out.ndim not in (1, 2) or out.shape[0] != size:
        raise InvalidParameterError(
            f"sampler must return an array of shape (size,) or (size, k); on input {x!r} with size={size} "
            f"it returned shape {out.shape}")
    if out.dtype.kind in "fc" and not np.all(np.isfinite(out)):
        raise InvalidParameterError(f"sampler returned NaN or infinite outputs on input {x!r}")
    if out.dtype.kind == "O" and out.ndim == 1:
        for value in out[: min(size, 1000)]:
            if isinstance(value, float) and value != value:
                raise InvalidParameterError(f"sampler returned NaN outputs on input {x!r}")
    return out


def stream_all(sampler: Sampler, inputs: Sequence[Hashable], size: int | Sequence[int],
               seed: np.random.SeedSequence, chunk: int, executor: Executor | None,
               consume: Callable[[int, np.ndarray], None], *, progress: Callable[[int], None] | None = None) -> None:
    """``size`` outputs per input (or ``size[i]`` for input i), drawn in chunks of at most ``chunk`` with spawned seeds,
    each chunk checked and handed to ``consume(input index, outputs)`` as it arrives (in the plan's order) and then
    dropped, so memory holds one chunk at a time in-process. ``progress(n)`` is called after each chunk of n samples."""
    per_input = seed.spawn(len(inputs))
    plan: list[tuple[int, int, np.random.SeedSequence]] = []
    counts = [size] * len(inputs) if isinstance(size, int) else size
    for i, (s, count) in enumerate(zip(per_input, counts, strict=True)):
        sizes = [chunk] * (count // chunk) + ([count % chunk] if count % chunk else [])
        plan.extend((i, n, child) for n, child in zip(sizes, s.spawn(len(sizes))))
    if executor is None:
        arriving = (_guarded(lambda i=i, n=n, child=child: _draw_chunk(sampler, inputs[i], n, child), inputs[i])
                    for i, n, child in plan)
    else:
        futures = [executor.submit(_draw_chunk, sampler, inputs[i], n, child) for i, n, child in plan]
        arriving = (_guarded(f.result, inputs[i]) for f, (i, _, _) in zip(futures, plan))
    shapes: set[tuple[int, ...]] = set()
    for (i, n, _), out in zip(plan, arriving):
        out = _check(inputs[i], n, out)
        shapes.add(out.shape[1:])
        if len(shapes) > 1:
            raise InvalidParameterError(f"sampler must return outputs of one shape on every input. Got "
                                        f"{sorted(shapes)}")
        consume(i, out)
        if progress is not None:
            progress(n)


def draw_all(sampler: Sampler, inputs: Sequence[Hashable], size: int, seed: np.random.SeedSequence,
             chunk: int, executor: Executor | None, *, progress: Callable[[int], None] | None = None,
             compact: Callable[[np.ndarray], bool] | None = None) -> list[np.ndarray]:
    """``size`` outputs per input (:func:`stream_all`'s chunks, written into one array per input as they arrive,
    so no chunk list is joined at twice the memory). Vector outputs are kept compact (for choosing events only):
    small integers (bits, counts, flags; every value an integer in [-128, 127]) as int8, an eighth of float64's memory;
    with ``compact``, float64 vector outputs whose first chunk it accepts in float32 (half the memory), as long as
    every value is a normal float32 or 0. A later chunk that does not fit brings the array back to its own type."""
    arrays: list[np.ndarray | None] = [None] * len(inputs)
    filled = [0] * len(inputs)

    def keep(i: int, out: np.ndarray) -> None:
        if arrays[i] is None:
            if out.ndim == 2 and out.dtype.kind in "biuf" and _fits_int8(out):
                kind = np.int8
            elif compact is not None and out.dtype == np.float64 and out.ndim == 2 and _fits_float32(out) \
                    and compact(out):
                kind = np.float32
            else:
                kind = out.dtype
            arrays[i] = np.empty((size, *out.shape[1:]), dtype=kind)
        elif arrays[i].dtype == np.int8 and not _fits_int8(out):
            arrays[i] = arrays[i].astype(out.dtype)
        elif arrays[i].dtype == np.float32 and not _fits_float32(out):
            arrays[i] = arrays[i].astype(np.float64)
        elif out.dtype != arrays[i].dtype and arrays[i].dtype not in (np.float32, np.int8):
            arrays[i] = arrays[i].astype(np.result_type(arrays[i].dtype, out.dtype))
        arrays[i][filled[i]: filled[i] + len(out)] = out
        filled[i] += len(out)

    stream_all(sampler, inputs, size, seed, chunk, executor, keep, progress=progress)
    return arrays


def _fits_int8(out: np.ndarray) -> bool:
    """Every value an integer in [-128, 127] (int8 keeps it exactly)."""
    return bool(out.size) and bool(np.all((out >= -128) & (out <= 127) & (out == np.round(out))))


def _fits_float32(out: np.ndarray) -> bool:
    """Every value of a float array a normal float32 or 0 (so float32 keeps its order and scale)."""
    size = np.abs(out)
    return bool(np.all((size == 0) | ((size >= np.finfo(np.float32).tiny) & (size <= np.finfo(np.float32).max))))


def _guarded(call: Callable[[], object], x: Hashable) -> object:
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - any failure of user code is reported as bad input
        raise InvalidParameterError(f"sampler raised {type(error).__name__} on input {x!r}: {error}") from error
