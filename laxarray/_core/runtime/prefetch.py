"""Loading executables off the critical path: what a program looked up last time is loaded
on a background thread while it imports, reads its data and runs Python.

A process that uses the executable store keeps the keys it looked up, in order
(:func:`lookup`).  At exit it writes them to the store's ``traces/`` folder under the name of
its program (the script, or ``-m`` module, that ``sys.argv[0]`` names), the keys of this run
first, then those of earlier runs it did not meet, :data:`KEEP` in all.  The next process of
the same program starts a daemon thread when the store opens (:func:`start`): it reads and
loads the first :data:`AHEAD` keys of that trace, each into :class:`Ahead`'s table.  A kernel
call on a key (:func:`take`) gets the loaded executable from there, waits for it when the
thread is loading that very key, and otherwise loads it itself (the thread then skips it).

It changes nothing but when a load happens: the executable is the one the store holds under
the key the call computed (or, where the store has none, the portable tier: the store's
``read_through``).  Loading releases the GIL for most of its time (XLA's
deserialization), so the thread overlaps with the program's Python on another core; at exit
the thread is stopped before the interpreter finalizes (a load in flight finishes first).
A ``multiprocessing`` child neither loads ahead nor writes a trace: it runs a share of its
parent's work under the parent's program name, which the trace does not predict.
``LAXARRAY_PREFETCH=0`` turns it off.

A portable tier carries traces too (:func:`write_tier_trace`): ``precompile --from FILE
--portable`` writes, for each program the record file names, the keys it looked up with
their environment part left empty, and a program run to build the tier
(``LAXARRAY_PORTABLE_BUILD=1``) writes its own at exit.  A process whose store holds no trace of its program
(a fresh machine) loads ahead from that trace instead, through the tier
(``exec_store.tier_trace``).  A tier's trace names a program by :func:`program_label`,
which is the same on every machine.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import sys
import threading

from laxarray._core.runtime.files import write_atomic
from laxarray._core import env_vars as _env_vars

#: How many keys a trace keeps (this run's first, then earlier runs' others).
KEEP = 2048
#: How many keys of a trace the thread loads ahead.
AHEAD = 512


class Ahead:
    """The background loader of one process: its queue, what it loaded, what it loads now."""

    def __init__(self, store, names):
        self._cond = threading.Condition()
        self._queue = list(reversed(names))   # pop() takes the next one
        self._ready = {}                      # name -> Compiled (None: not loadable)
        self._current = None
        self._stop = False
        self.loaded = 0
        self._thread = threading.Thread(target=self._run, args=(store,), daemon=True,
                                        name="laxarray-prefetch")
        self._thread.start()

    def _run(self, store):
        while True:
            with self._cond:
                if self._stop or not self._queue:
                    self._current = None
                    self._cond.notify_all()
                    return
                name = self._current = self._queue.pop()
            exe = store.read_through(name)   # the store's, else a portable tier's
            with self._cond:
                self._ready[name] = exe
                self._current = None
                self.loaded += exe is not None
                self._cond.notify_all()

    def take(self, name):
        """``(True, executable or None)`` where the thread loaded (or is loading) ``name``;
        ``(False, None)`` where the caller loads it (it is dropped from the queue)."""
        with self._cond:
            while self._current == name:
                self._cond.wait()
            if name in self._ready:
                return True, self._ready.pop(name)
            try:
                self._queue.remove(name)
            except ValueError:
                pass
            return False, None

    def stop(self):
        """Stop after the load in flight; wait for it."""
        with self._cond:
            self._stop = True
        self._thread.join()


_STATE = {"ahead": None, "trace": None, "seen": None, "folder": None, "neutral": None}
_LOCK = threading.Lock()


def _after_fork_in_child() -> None:
    """A forked child (a ``multiprocessing`` worker, say) has its parent's loader but not its
    thread: a key the thread was loading when the parent forked would be waited for
    forever.  The child loads what it needs itself, and, doing a share of its parent's work
    (:func:`_pool_worker`), keeps no trace of its own."""
    global _LOCK
    _LOCK = threading.Lock()
    _STATE.update(ahead=None, trace=None, seen=None)


os.register_at_fork(after_in_child=_after_fork_in_child)


def program_name() -> str:
    """The program a trace belongs to: the script (``sys.argv[0]`` made absolute, which
    ``-m`` sets to the module's file), the code of ``python -c``, or ``<interactive>``."""
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 == "-c":
        orig = getattr(sys, "orig_argv", [])
        code = orig[orig.index("-c") + 1] if "-c" in orig[:-1] else ""
        return "-c " + code
    return os.path.abspath(argv0) if argv0 else "<interactive>"


def program_label() -> str:
    """The program's name in a portable tier's traces, the same on every machine that
    checks it out anywhere: the script's folder and file name (``benchmarks/run.py``), the
    code of ``python -c``, or ``<interactive>``."""
    name = program_name()
    if not os.path.isabs(name):
        return name
    folder, base = os.path.split(name)
    return f"{os.path.basename(folder)}/{base}"


def _trace_file(folder, name=None):
    text = program_name() if name is None else name
    digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    return os.path.join(folder, digest)


def _tier_file(folder, label=None):
    return _trace_file(folder, "tier:" + (program_label() if label is None else label))


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [n for n in f.read().split("\n") if n]
    except OSError:
        return None


def read_tier_trace(tier_path) -> list:
    """The keys of this program's trace in the portable tier at ``tier_path`` (as
    :func:`write_tier_trace` wrote them; empty where it has none)."""
    return (_read(_tier_file(os.path.join(tier_path, "traces"))) or [])[:AHEAD]


def write_tier_trace(tier_path, label, names) -> None:
    """Write ``names`` (store keys, their environment part empty) as the trace of the
    program that :func:`program_label` calls ``label`` into the tier at ``tier_path``
    (replacing the one there); ``OSError`` where it cannot be written."""
    folder = os.path.join(tier_path, "traces")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    write_atomic(_tier_file(folder, label), ["\n".join(names[:KEEP]).encode() + b"\n"])


def start(store, fallback=None, neutral=None) -> None:
    """Begin this process's trace of ``store`` and load ahead what its last run looked up
    (once per process; nothing where prefetching is off); where ``store`` holds no trace
    of this program, what ``fallback()`` names (a portable tier's trace).  ``neutral``: in
    a process that builds a portable tier (``store`` is the tier), what turns a key into
    the form a tier's trace keeps; its trace is then written as the tier's trace of this
    program (:func:`write_tier_trace`), which a fresh machine loads ahead."""
    with _LOCK:
        if _STATE["trace"] is not None or not _env_vars.value("LAXARRAY_PREFETCH") or (
                _pool_worker()):
            return
        _STATE["trace"], _STATE["seen"], _STATE["neutral"] = [], set(), neutral
        _STATE["folder"] = folder = os.path.join(store.path, "traces")
        atexit.register(_at_exit)
        names = _read(_trace_file(folder))
        if names is None:
            names = fallback() if fallback is not None else []
        names = names[:AHEAD]
        if names:
            _STATE["ahead"] = Ahead(store, names)


def _pool_worker() -> bool:
    """Whether this process is a ``multiprocessing`` child (a pool's worker, say): it does
    a share of its parent's work, which the trace of their common program name does not
    predict (loading that trace ahead would load mostly what the parent and the other
    workers use), and its own trace would replace the parent's."""
    if "--multiprocessing-fork" in getattr(sys, "orig_argv", ()):
        return True   # spawned: it imports its parent's main module before it knows more
    mp = sys.modules.get("multiprocessing")   # not imported: not a multiprocessing child
    return mp is not None and mp.parent_process() is not None


def lookup(name) -> None:
    """Note that this process looked up ``name`` (its trace)."""
    trace = _STATE["trace"]
    if trace is not None and name not in _STATE["seen"]:
        _STATE["seen"].add(name)
        trace.append(name)


def take(name):
    """See :meth:`Ahead.take`; ``(False, None)`` where nothing loads ahead."""
    ahead = _STATE["ahead"]
    return (False, None) if ahead is None else ahead.take(name)


def loaded_ahead() -> int:
    """Executables the background thread loaded in this process."""
    ahead = _STATE["ahead"]
    return 0 if ahead is None else ahead.loaded


def _at_exit():
    ahead = _STATE["ahead"]
    if ahead is not None:
        ahead.stop()
    trace, folder, neutral = _STATE["trace"], _STATE["folder"], _STATE.get("neutral")
    if not trace:
        return
    if neutral is None:
        path, seen = _trace_file(folder), _STATE["seen"]
    else:   # a tier's build: its trace of this program, for every machine
        trace = list(dict.fromkeys(map(neutral, trace)))
        path, seen = _tier_file(folder), set(trace)
    old = [n for n in _read(path) or () if n not in seen]
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        write_atomic(path, ["\n".join((trace + old)[:KEEP]).encode() + b"\n"])
    except OSError:
        pass
