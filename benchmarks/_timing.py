"""Shared timing for the benchmark scripts: block on results, median of repeats."""

from __future__ import annotations

import statistics
import time

import jax

import laxarray as lx


def block(out):
    """Wait for every laxarray/jax array in ``out`` (any pytree) to be computed."""
    for leaf in jax.tree_util.tree_leaves(out, is_leaf=lambda a: isinstance(a, lx.Array)):
        if isinstance(leaf, lx.Array):
            leaf.block_until_ready()
        elif isinstance(leaf, jax.Array):
            leaf.block_until_ready()
    return out


def median_time(fn, repeats, *, budget=None, deadline=None, min_runs=3):
    """``(median seconds of repeats, seconds of the first call)``; the first call includes
    tracing and compiling for the jax-based libraries.  Fewer repeats where a limit says so
    (after at least one): once ``budget`` seconds of timed runs are spent (``min_runs``
    made), or where another run would pass ``deadline`` (a ``time.monotonic()``, reckoning
    twice the last run)."""
    t0 = time.perf_counter()
    block(fn())
    first = time.perf_counter() - t0
    runs = []
    for _ in range(repeats):
        if runs and ((deadline is not None and time.monotonic() + 2 * runs[-1] > deadline)
                     or (budget is not None and len(runs) >= min_runs
                         and sum(runs) > budget)):
            break
        t0 = time.perf_counter()
        block(fn())
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs), first


def round_robin(fns, repeats):
    """``{name: (median ms, compile ms)}`` of the callables in ``fns``, timed round-robin
    (one call of each per round, the order rotated every round) so that load from other
    processes hits every library alike; compile = first call minus median."""
    first = {}
    for k, f in fns.items():
        t0 = time.perf_counter()
        block(f())
        first[k] = time.perf_counter() - t0
    runs = {k: [] for k in fns}
    names = list(fns)
    for r in range(repeats):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t0 = time.perf_counter()
            block(fns[k]())
            runs[k].append(time.perf_counter() - t0)
    return {k: (statistics.median(runs[k]) * 1e3,
                max(first[k] - statistics.median(runs[k]), 0.0) * 1e3) for k in fns}
