"""Loading ahead (laxarray._core.runtime.prefetch): a program's second run loads, on a background
thread, the executables its first run looked up, and gets the same results as NumPy -- with
the thread off, and when the entries it loads ahead are damaged (they are compiled again).
The loader's queue is checked in-process with a store that only counts reads."""

import json
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np

from laxarray._core.runtime import prefetch

MARK = "@@result@@ "

_PROGRAM = """
    import json
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel, prefetch

    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((19, 5)), rng.standard_normal(5)
    x = xp.asarray(a)
    outs = {"sum": xp.sum(x * 2.0 + xp.asarray(b), axis=0),
            "matmul": x @ xp.asarray(b), "max": xp.max(xp.exp(x), axis=1)}
    want = {"sum": (a * 2.0 + b).sum(axis=0), "matmul": a @ b,
            "max": np.exp(a).max(axis=1)}
    ok = {k: bool(np.allclose(np.asarray(v), want[k], rtol=1e-13)) for k, v in outs.items()}
    print("@@result@@ " + json.dumps({
        "ok": ok, "compiles": kernel.compile_count(), "loads": kernel.load_count(),
        "ahead": prefetch.loaded_ahead()}))
"""


def _run(store, prefetch_on=True):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store),
               LAXARRAY_PREFETCH="1" if prefetch_on else "0")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_PROGRAM)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)][-1]
    return json.loads(line[len(MARK):])


def _entries(store):
    return [p for p in (store / "executables").glob("??/*")
            if p.is_file() and not p.name.startswith(".tmp-")]


def test_second_run_loads_ahead_what_the_first_looked_up(tmp_path):
    first = _run(tmp_path)
    assert all(first["ok"].values()) and first["loads"] == 0 and first["ahead"] == 0
    traces = list((tmp_path / "executables" / "traces").iterdir())
    assert len(traces) == 1
    assert len(traces[0].read_text().split()) >= first["compiles"] > 0
    second = _run(tmp_path)
    assert all(second["ok"].values())
    # every executable came from the store, and the thread loaded them ahead of the calls
    assert second["loads"] == second["compiles"] == first["compiles"]
    assert second["ahead"] == second["loads"]
    off = _run(tmp_path, prefetch_on=False)
    assert all(off["ok"].values()) and off["ahead"] == 0
    assert off["loads"] == off["compiles"] == first["compiles"]


def test_damaged_entries_loaded_ahead_are_compiled_again(tmp_path):
    first = _run(tmp_path)
    for path in _entries(tmp_path):
        data = bytearray(path.read_bytes())
        data[-1] ^= 0xFF                       # the checksum no longer matches
        path.write_bytes(bytes(data))
    second = _run(tmp_path)
    assert all(second["ok"].values())
    assert second["loads"] == 0 and second["compiles"] == first["compiles"]
    third = _run(tmp_path)                   # the second run wrote them again
    assert all(third["ok"].values()) and third["loads"] == third["compiles"]


class _Store:
    """Counts reads; holds the read of ``hold`` until ``release`` is set; every read is a
    miss (nothing to deserialize)."""

    def __init__(self, hold):
        self.seen, self.hold = [], hold
        self.release, self.holding = threading.Event(), threading.Event()

    def read(self, name):
        self.seen.append(name)
        if name == self.hold:
            self.holding.set()
            self.release.wait(10)
        return None

    read_through = read   # the loader's read (the store's, else a portable tier's)


def test_a_key_the_caller_needs_first_leaves_the_queue():
    store = _Store(hold="a")
    ahead = prefetch.Ahead(store, ["a", "b", "c"])
    assert store.holding.wait(10)
    assert ahead.take("c") == (False, None)    # not reached yet: the caller loads it
    waiter = {}
    t = threading.Thread(target=lambda: waiter.setdefault("a", ahead.take("a")))
    t.start()
    t.join(0.2)
    assert t.is_alive()                        # "a" is being loaded: take waits for it
    store.release.set()
    t.join(10)
    assert waiter["a"] == (True, None)
    ahead.stop()
    assert store.seen == ["a", "b"]            # "c" left the queue
    assert ahead.take("b") == (True, None)


def test_trace_keeps_this_run_first_then_older_keys(tmp_path, monkeypatch):
    folder = tmp_path / "traces"
    folder.mkdir()
    monkeypatch.setattr(prefetch, "KEEP", 4)
    path = prefetch._trace_file(str(folder))
    with open(path, "w") as f:
        f.write("old1\nnew2\nold2\nold3\n")
    monkeypatch.setattr(prefetch, "_STATE", {"ahead": None, "trace": ["new1", "new2"],
                                             "seen": {"new1", "new2"},
                                             "folder": str(folder)})
    prefetch._at_exit()
    with open(path) as f:
        assert f.read().split() == ["new1", "new2", "old1", "old2"]
    assert np.all([not n.startswith(".tmp-") for n in os.listdir(folder)])


_POOL_PROGRAM = """
    import json, multiprocessing, sys
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel, prefetch


    def work(_=None):
        a = np.arange(12.0).reshape(3, 4)
        got = np.asarray(xp.sum(xp.exp(xp.asarray(a)), axis=0))
        return {"ok": bool(np.allclose(got, np.exp(a).sum(axis=0), rtol=1e-13)),
                "ahead": prefetch.loaded_ahead(), "loads": kernel.load_count()}


    if __name__ == "__main__":
        out = work()
        if sys.argv[1:] == ["pool"]:
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                out["worker"] = pool.apply(work)
        print("@@result@@ " + json.dumps(out))
"""


def test_a_pool_worker_neither_loads_ahead_nor_writes_the_trace(tmp_path):
    """A ``multiprocessing`` child runs its parent's program (``sys.argv[0]``) but only a
    share of its work: it loads nothing ahead from the parent's trace (mostly what the
    parent and the other workers use) and leaves the trace to the parent."""
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(_POOL_PROGRAM))
    store = tmp_path / "store"
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store), LAXARRAY_PREFETCH="1")

    def run(*args):
        proc = subprocess.run([sys.executable, str(script), *args], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)][-1]
        return json.loads(line[len(MARK):])

    first = run()
    assert first["ok"] and first["ahead"] == 0
    (trace,) = (store / "executables" / "traces").iterdir()
    keys = trace.read_text()
    second = run("pool")
    assert second["ok"] and second["ahead"] > 0           # the parent loads ahead
    worker = second["worker"]
    assert worker["ok"] and worker["ahead"] == 0 and worker["loads"] > 0
    assert list((store / "executables" / "traces").iterdir()) == [trace]
    assert trace.read_text() == keys


class _Loading:
    """A loader whose thread is loading ``name`` (and will never say it is done: in a
    forked child the thread is gone)."""

    def __init__(self, name):
        self._cond = threading.Condition()
        self._current, self._ready, self._queue = name, {}, []
        self.loaded = 0

    take = prefetch.Ahead.take


def test_a_forked_child_loads_for_itself_what_the_parents_thread_was_loading(monkeypatch):
    import signal
    import warnings
    monkeypatch.setitem(prefetch._STATE, "ahead", _Loading("k"))
    monkeypatch.setitem(prefetch._STATE, "trace", ["k"])
    monkeypatch.setitem(prefetch._STATE, "seen", {"k"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # jax warns that a threaded process forks
        pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.alarm(30)
            # the child takes nothing from a loader it does not have, and keeps no trace
            if prefetch.take("k") == (False, None) and prefetch._STATE["trace"] is None:
                code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
