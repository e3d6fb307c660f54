"""Running a selection of specs in worker processes (``--jobs N``).

On a namespace that compiles per input signature (laxarray, jax.numpy) nearly all of a
run's time is compilation, one executable per drawn dtype and shape signature, and a
compiler is one thread: the only way to spend less wall time without checking less is
to compile in several processes at once.  Each worker imports the namespace by name,
probes it once (:func:`~laxarray.conformance.runner.arrays_are_mutable`,
:func:`~laxarray.conformance.capabilities.probe`), and runs whole specs handed to it one
at a time, longest-expected first; a spec runs exactly as it does in one process (the
same seed, settings and examples: its :class:`~laxarray.conformance.runner.Result` is the
same), so only the wall time changes.  Workers are started with ``spawn`` (no fork of a
process whose jax runtime holds threads).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

#: kinds of spec that compile the most per example, run first so that no long spec is
#: left alone at the end of a run (an estimate: a bad order costs time, never results).
_SLOW_KINDS = ("linalg", "fft", "statistical", "sets", "elementwise")

_STATE = {}


def default_jobs():
    """The CPUs this process may run on (at most 8): the ``--jobs`` default."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


def _init(namespace, device, options):
    """Worker start: import the namespace and probe it once for all its specs."""
    from . import capabilities as caps_mod, runner

    xp = runner.load_namespace(namespace)
    runner.settle_imports(xp)  # the same modules, so the same examples, as the parent
    _STATE.update(xp=xp, runner=runner, options=options,
                  mutable=runner.arrays_are_mutable(xp),
                  capabilities=caps_mod.probe(xp, device))


def _run(name):
    """Run the spec ``name`` in this worker: its Result."""
    from .spec import SPECS

    runner = _STATE["runner"]
    return runner.run_spec(_STATE["xp"], SPECS[name], mutable=_STATE["mutable"],
                           capabilities=_STATE["capabilities"], **_STATE["options"])


def _order(specs):
    """``specs`` with the kinds that compile the most first (stable within a kind)."""
    def rank(spec):
        kind = spec.extension or spec.kind
        return _SLOW_KINDS.index(kind) if kind in _SLOW_KINDS else len(_SLOW_KINDS)
    return sorted(specs, key=rank)


def run_specs(namespace, specs, *, jobs, device=None, on_result=None, **options):
    """Run ``specs`` on the namespace importable as ``namespace`` in ``jobs`` processes.

    ``options`` are :func:`~laxarray.conformance.runner.run_spec`'s (``max_examples``,
    ``seed``, ``namespace_label``, ``shrink``); ``device``: a device name for
    :func:`~laxarray.conformance.capabilities.find_device` (or None).  ``on_result(result)``
    is called in this process as each spec finishes.  Returns the Results in no particular
    order; a spec whose worker died is an ``"error"`` Result saying so.
    """
    from .runner import Result

    results = []
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init,
                             initargs=(namespace, device, options)) as pool:
        futures = {pool.submit(_run, spec.name): spec.name for spec in _order(specs)}
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool as exc:
                result = Result(futures[future], "error",
                                message=f"the worker process running it died ({exc})")
            except Exception as exc:  # noqa: BLE001 -- a result that could not come back
                result = Result(futures[future], "error",
                                message=f"runner: {type(exc).__name__}: {exc}")
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results


__all__ = ["default_jobs", "run_specs"]
