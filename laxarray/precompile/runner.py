"""Run a workload or a record file: the parent spawns worker processes and draws the
progress bar; each worker runs its share of the tasks and reports one JSON line per task on
stdout.  On a device that only one process may hold (a TPU) the parent runs every task
itself, as a single worker would.

Workers are fresh interpreters (``python -m laxarray.precompile --worker SOURCE I N``, where
SOURCE is a workload name or ``from:`` and a record file's path) with the parent's
environment -- so they fill the store the parent names, under the same key (``XLA_FLAGS``
and the rest of :func:`call_key.store_key`'s environment) -- plus ``SCIPY_ARRAY_API=1``
(scikit-learn's array API dispatch needs it before SciPy is imported),
``LAXARRAY_STORE_HINT=0`` (no "the store is empty" hint: they fill it) and, unless set,
``OPENBLAS_NUM_THREADS=1`` (workers already share the cores).
A report line starts with :data:`MARK`; anything else a library prints is ignored, and
stderr is kept (its last lines) to explain a worker that failed.  "Written" counts
``compile_count() - load_count()`` of each task: executables built rather than loaded.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import importlib.util
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import warnings

from laxarray._core import backend as _backend
from laxarray._core.runtime import exec_store, fingerprint, kernel, prefetch
from laxarray.precompile import recorded
from laxarray.precompile.workloads import check_name, chunk, requires, shares, tasks

#: The start of a worker's report lines on its stdout.
MARK = "@@laxarray.precompile@@ "
#: A kind that failed on this many tasks, and ran on none, is skipped in the rest of a share.
GIVE_UP_AFTER = 2
_REDRAW = 0.1  # seconds between two redraws of the bar


def precompile(workload=None, jobs=None, *, limit=None, match=None, stream=None,
               from_file=None, portable=False):
    """Fill the executable store ahead of use, in worker processes, and return the summary.

    Julia: PrecompileTools (a workload run ahead of time).

    Parameters
    ----------
    workload : str, optional
        A built-in workload, one of :func:`names` (``'sklearn'``, ``'standard'``); default
        ``'sklearn'`` when ``from_file`` is not given.
    jobs : int, optional
        The number of worker processes, at least 1; default ``os.cpu_count()``.  On a device
        that one process at a time may hold (a TPU: ``Backend.exclusive``) the tasks run in
        this process instead, one after another, and ``jobs`` is not used.
    limit : int, optional
        Run only the first ``limit`` selected tasks (at least 1).
    match : str, optional
        A glob on the task labels: run only the tasks it matches.
    stream : file or False, optional
        Where the progress bar and the summary go; default ``sys.stderr``; False: silent.
    from_file : str or os.PathLike, optional
        A file that a run with ``LAXARRAY_RECORD=FILE`` wrote: exactly the executables it
        lists are loaded (where the store has them) or built.  Not together with
        ``workload``.
    portable : bool, optional
        Fill the portable tier (``LAXARRAY_PORTABLE_STORE``, default
        ``~/.cache/laxarray/portable``) rather than this machine's store: the workers compile
        for the CPU's instruction-set class (``XLA_FLAGS=--xla_cpu_max_isa=AVX2`` on
        x86-64) and key by that class, so every x86-64-v3 machine loads what they write;
        on a TPU this process builds it, keyed by the chip and libtpu's version, for every
        host of that chip.  With ``from_file``, the tier also keeps each recorded
        program's trace (the keys it looked up, in order), which a fresh machine loads
        ahead while that program imports.  Copy the directory to ship it (a team's share,
        a CI cache, the package's ``portable/`` folder).

    Returns
    -------
    dict
        The summary: ``workload``, ``from_file``, ``tasks``, ``done``, ``written`` and
        ``loaded`` executables, ``calls`` and ``failed_calls``, ``jobs``, ``seconds``, the
        store's path, ``entries``, ``new_entries`` and ``bytes``, ``failures`` by kind and
        ``worker_exit_codes``; :func:`format_summary` prints it.

    Raises
    ------
    TypeError
        If ``from_file`` is not a path.
    ValueError
        If ``workload`` names no workload, both ``workload`` and ``from_file`` are given,
        ``jobs`` or ``limit`` is not an int >= 1, ``match`` selects nothing, or
        ``from_file`` is not a readable record file.
    RuntimeError
        If the store is off (``LAXARRAY_COMPILATION_CACHE=0``) or unusable (with
        ``portable``: the tier is off, ``LAXARRAY_PORTABLE_STORE=0``, or this process has
        none: not the CPU or a TPU, not an x86-64-v3 CPU), the workload needs a module
        that is not installed, or a worker failed (after the summary).

    Notes
    -----
    Static under ``jax.jit``: not applicable: the work happens in other processes (called in a
    jitted function, it runs once, at trace time).

    An eager kernel call on a new input signature compiles once per machine and writes its
    executable to the store (``LAXARRAY_COMPILATION_CACHE``); a later process loads it in
    about a millisecond.  This makes those first calls ahead of time.  A call that raised in
    a worker is counted in the summary, not raised.  The module is callable too:
    ``laxarray.precompile(workload="standard", jobs=4)`` is this function, and ``python -m
    laxarray.precompile`` its command line.

    Examples
    --------
    >>> from laxarray.precompile import precompile
    >>> precompile("standard", jobs=2, stream=False)  # doctest: +SKIP
    {'workload': 'standard', 'from_file': None, 'tasks': ..., 'done': ..., ...}
    >>> precompile("standard", match="no such task*", stream=False)
    Traceback (most recent call last):
        ...
    ValueError: precompile: expected a 'match' that selects tasks of 'standard'; got 'no
    such task*'
    """
    if from_file is None:
        workload = check_name("precompile", "sklearn" if workload is None else workload)
    elif workload is not None:
        raise ValueError(f"precompile: expected 'workload' or 'from_file', not both; got "
                         f"workload={workload!r} and from_file={from_file!r}")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"precompile: expected an int >= 1 for 'jobs'; got {jobs!r}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"precompile: expected an int >= 1 for 'limit'; got {limit!r}")
    if from_file is not None:
        return _from_file(from_file, jobs, limit, match, stream, portable)
    store = _open_store(portable)
    needed = requires(workload)
    if needed and importlib.util.find_spec(needed) is None:
        raise RuntimeError(f"precompile: the {workload!r} workload needs {needed}, which is "
                           f"not installed")
    found = tasks(workload, limit, match)
    if not found:
        raise ValueError(f"precompile: expected a 'match' that selects tasks of {workload!r}; "
                         f"got {match!r}")
    return _go(workload, found, store, jobs, limit, match, stream, portable)


def _from_file(path, jobs, limit, match, stream, portable=False):
    """:func:`precompile` of a record file: its entries read here, then in each worker."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"precompile: expected a path (str or os.PathLike) for 'from_file'; "
                        f"got {type(path).__name__}")
    path = os.path.abspath(os.fspath(path))
    try:
        found = recorded.tasks(path, limit, match)
    except OSError as err:
        raise ValueError(f"precompile: cannot read 'from_file' {path}: "
                         f"{err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise ValueError(f"precompile: expected a record file (text) for 'from_file'; "
                         f"{path} is not one ({err.reason} at byte {err.start})") from None
    if not found and match is not None:
        raise ValueError(f"precompile: expected a 'match' that selects entries of {path}; "
                         f"got {match!r}")
    if not found:
        raise ValueError(f"precompile: expected a record file for 'from_file'; {path} holds "
                         f"no entries (record them: LAXARRAY_RECORD=FILE python my_script.py)")
    store = _open_store(portable)
    if portable:   # a fresh machine loads ahead what each recorded program will look up
        for label, names in recorded.traces(path).items():
            try:
                prefetch.write_tier_trace(store.path, label, names)
            except OSError as err:
                raise RuntimeError(f"precompile: cannot write to the portable tier "
                                   f"{store.path} ({err.strerror or err})") from None
    # the workers read the file again: the first len(found) entries only, so entries that
    # a program still recording appends meanwhile do not shift the shares
    return _go(recorded.PREFIX + path, found, store, jobs, len(found), match, stream, portable)


def _go(source, found, store, jobs, limit, match, stream, portable=False):
    if stream is None:
        stream = sys.stderr
    run = _Run(source, found, store, stream or None, portable)
    if _backend.compiling().exclusive:   # one process may hold the device: this one
        return run.here(source, limit, match)
    count = shares(found, jobs)
    run.start([_worker_command(source, i, count, limit, match) for i in range(count)])
    return run.finish()


def _tasks(source, limit, match):
    """The tasks of a worker's ``source``: a workload name, or ``from:`` and a file."""
    if source.startswith(recorded.PREFIX):
        return recorded.tasks(source[len(recorded.PREFIX):], limit, match)
    return tasks(source, limit, match)


def _open_store(portable=False):
    if portable:
        return _open_tier()
    path = exec_store.default_dir()
    if path is None:
        raise RuntimeError("precompile: the executable store is off "
                           "(LAXARRAY_COMPILATION_CACHE=0): there is nothing to fill; unset "
                           "it, or set it to a directory")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        store = exec_store.ExecutableStore.open(path)
    if store is None:
        raise RuntimeError(f"precompile: the executable store {path} cannot be used (it "
                           f"must be a directory of this user that group and others may not "
                           f"write)")
    return store


def _open_tier():
    """The user's portable tier, opened for writing: ``RuntimeError`` where it is off or
    this process has no portable class."""
    problem = fingerprint.portable_problem() if not fingerprint.portable_build() else None
    if problem:
        raise RuntimeError(f"precompile: cannot fill the portable tier: {problem}")
    path = exec_store.portable_dir()
    if path is None:
        raise RuntimeError("precompile: the portable tier is off (LAXARRAY_PORTABLE_STORE=0): "
                           "there is nothing to fill; unset it, or set it to a directory")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        store = exec_store.ExecutableStore.open(path)
    if store is None:
        raise RuntimeError(f"precompile: the portable tier {path} cannot be used (it must be "
                           f"a directory of this user that group and others may not write)")
    return store


def _worker_command(source, index, count, limit, match):
    cmd = [sys.executable, "-m", "laxarray.precompile", "--worker", source, str(index),
           str(count)]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    if match is not None:
        cmd += ["--match", match]
    return cmd


def _worker_env(portable=False):
    env = dict(os.environ)
    if portable:   # compile for the class's instruction set, keyed by the class
        env["LAXARRAY_PORTABLE_BUILD"] = "1"
        flags = env.get("XLA_FLAGS", "").split()
        if fingerprint.PORTABLE_FLAG not in flags:
            env["XLA_FLAGS"] = " ".join(flags + [fingerprint.PORTABLE_FLAG])
    env["SCIPY_ARRAY_API"] = "1"
    env["LAXARRAY_STORE_HINT"] = "0"   # read by exec_store's one-time hint
    env["LAXARRAY_PREFETCH"] = "0"     # a worker builds; loading ahead last run's keys is waste
    # no hits in jax's persistent cache (another worker's slow compiles land there): an
    # executable jax loaded from it cannot be written to the store, and after a hit one
    # without object code of its own is refused too (serialize.serialize_compiled)
    env["JAX_ENABLE_COMPILATION_CACHE"] = "false"
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    # the workers import this very laxarray, wherever the parent found it
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


class _Run:
    """The parent's side of one run: workers, their reports, the bar and the summary."""

    def __init__(self, source, found, store, stream, portable=False):
        self.source, self.total, self.store, self.stream = source, len(found), store, stream
        self.portable = portable
        self.before = store.stats()["entries"]
        self.done = self.built = self.loaded = self.calls = self.failed = 0
        self.kinds = {}        # kind -> [failed calls, calls, first error]
        self.last = ""
        self.procs, self.errs, self.events = [], [], queue.Queue()
        self.started = self.drawn = 0.0
        self.tty = stream is not None and getattr(stream, "isatty", lambda: False)()

    def start(self, commands):
        self.started = time.perf_counter()
        env = _worker_env(self.portable)
        try:
            for cmd in commands:
                proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, errors="replace")
                index = len(self.procs)
                self.procs.append(proc)
                self.errs.append(collections.deque(maxlen=30))
                for name, pipe in (("out", proc.stdout), ("err", proc.stderr)):
                    threading.Thread(target=self._read, args=(index, name, pipe),
                                     daemon=True).start()
        except BaseException:
            self._stop()
            raise

    def _read(self, index, name, pipe):
        for line in pipe:
            self.events.put((index, name, line))
        self.events.put((index, "eof", name))

    def finish(self):
        """Follow the workers' reports until all have exited; the summary."""
        open_pipes = 2 * len(self.procs)
        try:
            while open_pipes:
                try:
                    index, name, line = self.events.get(timeout=_REDRAW)
                except queue.Empty:
                    if self.tty:          # the clock runs on a terminal; a log gets less
                        self._draw()
                    continue
                if name == "eof":
                    open_pipes -= 1
                elif name == "err":
                    self.errs[index].append(line.rstrip("\n"))
                elif line.startswith(MARK):
                    self._report(json.loads(line[len(MARK):]))
            codes = [proc.wait() for proc in self.procs]
        except BaseException:
            self._stop()
            raise
        return self._close(codes)

    def here(self, source, limit, match):
        """Run every task in this process, as one worker would (on a device that only one
        process may hold: ``Backend.exclusive``); the summary."""
        self.started = time.perf_counter()
        self.errs.append(collections.deque(maxlen=30))
        report = _Lines(self._line)
        scipy_setting = os.environ.get("SCIPY_ARRAY_API")
        # on a TPU a portable tier is built here: keys by the chip, written to the tier
        store = kernel.writing_to(self.store) if self.portable else contextlib.nullcontext()
        try:
            fingerprint.building_here(self.portable)
            with warnings.catch_warnings(), store:
                code = work(source, 0, 1, limit, match, report=report)
        finally:
            fingerprint.building_here(False)
            if scipy_setting is None:
                os.environ.pop("SCIPY_ARRAY_API", None)
            else:
                os.environ["SCIPY_ARRAY_API"] = scipy_setting
        return self._close([code])

    def _line(self, line):
        if line.startswith(MARK):
            self._report(json.loads(line[len(MARK):]))

    def _close(self, codes):
        """The summary, drawn and printed; ``RuntimeError`` where a worker failed."""
        summary = self._summary(codes)
        self._draw(final=True)
        if self.stream is not None:
            print(file=self.stream)
            print(format_summary(summary), file=self.stream, flush=True)
        bad = [(i, c) for i, c in enumerate(codes) if c != 0]
        if bad:
            i, code = bad[0]
            tail = "\n".join(self.errs[i]) or "(nothing on stderr)"
            raise RuntimeError(f"precompile: worker {i} of {len(codes)} exited with code "
                               f"{code}; the end of its stderr:\n{tail}")
        return summary

    def _report(self, event):
        if event.get("event") != "task":
            return
        self.done += 1
        self.built += event["built"]
        self.loaded += event["loaded"]
        self.calls += event["calls"]
        self.failed += event["failed"]
        self.last = event["label"]
        entry = self.kinds.setdefault(event["kind"], [0, 0, None])
        entry[0] += event["failed"]
        entry[1] += event["calls"]
        entry[2] = entry[2] or event["error"]
        self._draw()

    def _draw(self, final=False):
        if self.stream is None:
            return
        now = time.perf_counter()
        if not final and now - self.drawn < (_REDRAW if self.tty else 1.0):
            return
        self.drawn = now
        width = 24
        filled = width * self.done // max(self.total, 1)
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} tasks, "
                f"{self.built} written, {now - self.started:.0f} s  {self.last}")
        columns = max(shutil.get_terminal_size((100, 20)).columns - 1, 40)
        self.stream.write("\r" + line[:columns].ljust(columns))
        self.stream.flush()

    def _summary(self, codes):
        stats = self.store.stats()
        recorded_file = self.source.startswith(recorded.PREFIX)
        return {"workload": None if recorded_file else self.source,
                "from_file": self.source[len(recorded.PREFIX):] if recorded_file else None,
                "tasks": self.total, "done": self.done,
                "written": self.built, "loaded": self.loaded, "calls": self.calls,
                "failed_calls": self.failed, "jobs": len(codes),
                "seconds": round(time.perf_counter() - self.started, 2),
                "store": self.store.path, "portable": self.portable, "entries": stats["entries"],
                "new_entries": stats["entries"] - self.before, "bytes": stats["bytes"],
                "failures": {k: {"failed": f, "calls": c, "error": e}
                             for k, (f, c, e) in sorted(self.kinds.items()) if f},
                "worker_exit_codes": codes}

    def _stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


class _Lines:
    """A text stream that hands each complete line written to it to ``take``."""

    def __init__(self, take):
        self.take, self.rest = take, ""

    def write(self, text):
        self.rest += text
        *lines, self.rest = self.rest.split("\n")
        for line in lines:
            self.take(line)
        return len(text)

    def flush(self):
        pass


def format_summary(summary: dict) -> str:
    """Return the summary of :func:`precompile` as the lines it prints.

    Parameters
    ----------
    summary : dict
        A summary :func:`precompile` returned.

    Returns
    -------
    str
        One line of totals (tasks, seconds, workers, executables written and loaded, the
        store's entries and size), then one line per kind of call that failed.

    Raises
    ------
    KeyError
        If ``summary`` lacks a key :func:`precompile`'s summaries have.

    Notes
    -----
    Static under ``jax.jit``: not applicable (plain Python).

    Examples
    --------
    >>> from laxarray.precompile import format_summary
    >>> print(format_summary({"workload": "standard", "from_file": None, "done": 10,
    ...                       "tasks": 10, "seconds": 3.2, "jobs": 2, "written": 8, "loaded": 2,
    ...                       "store": "/tmp/store", "entries": 30, "new_entries": 8,
    ...                       "bytes": 3 * 2**20, "failures": {}}))
    laxarray.precompile standard: 10 of 10 tasks in 3.2 s with 2 workers; 8 executables
    written, 2 loaded; store /tmp/store: 30 entries (+8), 3.0 MB
    """
    s = summary
    what = s["workload"] if s.get("from_file") is None else f"--from {s['from_file']}"
    lines = [f"laxarray.precompile {what}: {s['done']} of {s['tasks']} tasks in "
             f"{s['seconds']:.1f} s with {s['jobs']} workers; {s['written']} executables "
             f"written, {s['loaded']} loaded; "
             f"{'portable tier' if s.get('portable') else 'store'} {s['store']}: "
             f"{s['entries']} entries "
             f"({s['new_entries']:+d}), {s['bytes'] / 2**20:.1f} MB"]
    if s["failures"]:
        lines.append(f"skipped, raised on laxarray ({s['failed_calls']} of {s['calls']} "
                     f"calls):")
        for kind, f in s["failures"].items():
            lines.append(f"  {kind}: {f['failed']} of {f['calls']} calls failed; "
                         f"first: {f['error']}")
    return "\n".join(lines)


# ---- the worker ----------------------------------------------------------------------------

def work(source, index, count, limit=None, match=None, report=None) -> int:
    """Run share ``index`` of ``count`` of the tasks of ``source`` (a workload name, or
    ``from:`` and a record file's path) in this process, one report line per task on
    ``report`` (default: stdout, whose file descriptor then goes to stderr, so that what
    libraries print cannot split a line); the exit status (3: this process has no
    executable store)."""
    os.environ["SCIPY_ARRAY_API"] = "1"       # in time where SciPy is not imported yet
    warnings.simplefilter("ignore")           # estimators warn (convergence ...): not ours
    if report is None:
        sys.stdout.flush()
        report = os.fdopen(os.dup(sys.stdout.fileno()), "w")
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    emit = functools.partial(_emit, report)
    mine = chunk(_tasks(source, limit, match), index, count)
    active = kernel._open_store() is not None
    emit({"event": "start", "tasks": len(mine), "store": active})
    if not active:
        print("laxarray.precompile: this process has no executable store (it serves the "
              "CPU's and the TPU's programs, and LAXARRAY_COMPILATION_CACHE must not be 0)",
              file=sys.stderr)
        return 3
    record = {}  # kind -> [tasks failed, tasks run without failure]
    for position, task in mine:
        seen = record.setdefault(task.kind, [0, 0])
        compiles, loads = kernel.compile_count(), kernel.load_count()
        started = time.perf_counter()
        if seen[0] >= GIVE_UP_AFTER and not seen[1]:
            calls, failed, error = 1, 1, "skipped (failed before in this worker)"
        else:
            calls, failed, error = _run(task)
            seen[0 if failed else 1] += 1
        loaded = kernel.load_count() - loads
        emit({"event": "task", "index": position, "label": task.label, "kind": task.kind,
               "calls": calls, "failed": failed, "error": error, "loaded": loaded,
               "built": kernel.compile_count() - compiles - loaded,
               "seconds": round(time.perf_counter() - started, 4)})
    emit({"event": "done"})
    return 0


def _run(task):
    """Make ``task``'s calls: ``(calls, failed calls, the first error or None)``."""
    calls = failed = 0
    error = None
    try:
        thunks = task.calls()
    except Exception as exc:  # noqa: BLE001  (a workload's bug: report it, go on)
        return 1, 1, _describe(exc)
    for thunk in thunks:
        calls += 1
        try:
            _settle(thunk())
        except Exception as exc:  # noqa: BLE001  (raised on laxarray: count it, go on)
            failed += 1
            error = error or _describe(exc)
    return calls, failed, error


def _describe(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160] if text else ''}"


def _settle(result):
    """Wait for every array in ``result`` (a value, or tuples and lists of them)."""
    if isinstance(result, (tuple, list)):
        for r in result:
            _settle(r)
    elif hasattr(result, "block_until_ready"):
        result.block_until_ready()


def _emit(report, event):
    report.write(MARK + json.dumps(event) + "\n")
    report.flush()
