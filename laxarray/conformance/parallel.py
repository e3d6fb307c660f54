"""Running a selection of specs in worker processes (``--jobs N``).

On a namespace that compiles per input signature (laxarray, jax.numpy) nearly all of a
run's time is compilation, one executable per drawn dtype and shape signature, and a
compiler is one thread: the only way to spend less wall time without checking less is
to compile in several processes at once.  Each worker is started by the runner's
function that imports the namespace by name and probes it once
(:func:`~laxarray.conformance.runner.arrays_are_mutable`,
:func:`~laxarray.conformance.capabilities.probe`), and runs whole specs handed to it one
at a time, longest-expected first; a spec runs exactly as it does in one process (the
same seed, settings and examples: its :class:`~laxarray.conformance.runner.Result` is the
same), so only the wall time changes.  Workers are started with ``spawn`` (no fork of a
process whose jax runtime holds threads).  This module is the pool only: the runner,
which imports it, hands it what a worker runs.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

#: kinds of spec that compile the most per example, run first so that no long spec is
#: left alone at the end of a run (an estimate: a bad order costs time, never results).
_SLOW_KINDS = ("linalg", "fft", "statistical", "sets", "elementwise")


def default_jobs():
    """The CPUs this process may run on (at most 8): the ``--jobs`` default."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


def _order(specs):
    """``specs`` with the kinds that compile the most first (stable within a kind)."""
    def rank(spec):
        kind = spec.extension or spec.kind
        return _SLOW_KINDS.index(kind) if kind in _SLOW_KINDS else len(_SLOW_KINDS)
    return sorted(specs, key=rank)


def run_specs(specs, *, jobs, initializer, initargs, run, failed, on_result=None):
    """Run ``specs`` in ``jobs`` worker processes: each worker starts with
    ``initializer(*initargs)``, then ``run(name)`` gives the result of the spec ``name``
    (module-level functions: a spawned worker imports them by name).

    ``failed(name, message)`` is the result of a spec whose worker died or whose result
    could not come back; ``on_result(result)`` is called in this process as each spec
    finishes.  Returns the results in no particular order.
    """
    results = []
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=initializer,
                             initargs=initargs) as pool:
        futures = {pool.submit(run, spec.name): spec.name for spec in _order(specs)}
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool as exc:
                result = failed(futures[future],
                                f"the worker process running it died ({exc})")
            except Exception as exc:  # noqa: BLE001 -- a result that could not come back
                result = failed(futures[future], f"runner: {type(exc).__name__}: {exc}")
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results


__all__ = ["default_jobs", "run_specs"]
