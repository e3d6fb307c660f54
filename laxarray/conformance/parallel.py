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
same), so only the wall time changes.  The calling process, set up already, is one of
the jobs: it takes specs from the same queue as the workers (each worker holds one spec at
a time), starting while they import and probe, which costs each about as much as a few
specs.  Workers are started with ``spawn`` (no fork of a process whose jax runtime holds
threads).  This module is the pool only: the runner,
which imports it, hands it what a worker runs.
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import queue
import threading
from concurrent.futures import ProcessPoolExecutor
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


def run_specs(specs, *, jobs, initializer, initargs, run, failed, on_result=None,
              local=None):
    """Run ``specs`` in ``jobs`` processes: each worker starts with
    ``initializer(*initargs)``, then ``run(name)`` gives the result of the spec ``name``
    (module-level functions: a spawned worker imports them by name).

    ``local(name)``, where given, runs a spec in this process, which is then one of the
    ``jobs`` (``jobs - 1`` workers are started): it is set up already, so it runs specs
    while the workers start, and a spec a worker cannot take (the pool broke) runs here.
    ``failed(name, message)`` is the result of a spec whose worker died or whose result
    could not come back; ``on_result(result)`` is called in this thread as each spec
    finishes.  Returns the results in no particular order.
    """
    todo = collections.deque(spec.name for spec in _order(specs))
    workers = jobs - 1 if local is not None else jobs
    finished = queue.Queue()        # the workers' results, recorded by this thread
    lock = threading.RLock()        # guards todo (a done future's callback runs at once,
    #                                 inside the submit that holds it)
    results = []

    def record(result):
        results.append(result)
        if on_result is not None:
            on_result(result)

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(workers, 1), mp_context=ctx,
                             initializer=initializer, initargs=initargs) as pool:
        def submit():
            """Hand the next spec to the pool (holding ``lock``); False if it refuses."""
            name = todo.popleft()
            try:
                future = pool.submit(run, name)
            except (BrokenProcessPool, RuntimeError):   # broken, or shut down
                todo.appendleft(name)
                return False
            future.add_done_callback(lambda f: done(f, name))
            return True

        def done(future, name):
            """A worker's spec finished: queue its result, give the worker the next one
            (one spec per worker at a time, so this process can take the rest)."""
            broken = False
            try:
                result = future.result()
            except BrokenProcessPool as exc:
                broken = True
                result = failed(name, f"the worker process running it died ({exc})")
            except BaseException as exc:  # noqa: BLE001 -- a result that could not come
                result = failed(name, f"runner: {type(exc).__name__}: {exc}")   # back
            finished.put(result)
            if local is not None and not broken:
                with lock:
                    if todo:
                        submit()

        with lock:
            for _ in range(workers if local is not None else len(todo)):
                if not todo or not submit():
                    break
            if local is None:  # what the pool refused has no process left to run it
                for name in todo:
                    finished.put(failed(name, "runner: the worker pool broke before it "
                                              "ran"))
                todo.clear()
        while len(results) < len(specs):
            while not finished.empty():
                record(finished.get())
            with lock:
                name = todo.popleft() if todo and local is not None else None
            if name is not None:
                record(local(name))
                continue
            try:  # (a spec the pool gives back comes to this process: look again soon)
                record(finished.get(timeout=0.1))
            except queue.Empty:
                pass
    return results


__all__ = ["default_jobs", "run_specs"]
