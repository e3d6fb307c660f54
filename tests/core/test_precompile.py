"""Precompiled workloads (laxarray.precompile): ``python -m laxarray.precompile`` fills the
executable store in worker processes, and a fresh process then loads what it needs instead
of compiling -- on other shapes of the same buckets too.

The store is ``LAXARRAY_COMPILATION_CACHE=<tmp_path>`` in every child; workloads are cut to
a few tasks with ``--match`` (the whole ``standard`` workload takes minutes).
"""

import io
import json
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

from laxarray._core.runtime import kernel
from laxarray.precompile import __main__ as cli
from laxarray.precompile import precompile, runner, workloads

MARK = "@@result@@ "


def _env(store):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store), SCIPY_ARRAY_API="1")
    env.pop("LAXARRAY_COMPILATION_CACHE_MAX_MB", None)
    return env


def _precompile(store, *args):
    return subprocess.run([sys.executable, "-m", "laxarray.precompile", *args],
                          env=_env(store), capture_output=True, text=True, timeout=600)


def _child(store, code):
    """Run ``code`` in a fresh interpreter on ``store``; the dict it printed after MARK."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=_env(store),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    return json.loads(lines[-1][len(MARK):])


def _entries(store):
    """The store's entries: files in its 256 subdirectories (``00`` .. ``ff``); other files
    there (the hint's marker, the prefetcher's ``traces/``) are not executables."""
    return [p for p in (store / "executables").glob("??/*")
            if p.is_file() and not p.name.startswith(".tmp-")]


_ADD_CHILD = """
    import json
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel

    rng = np.random.default_rng(5)
    # the workload's shapes (17, 1, 16x4) and others in its buckets (20, 7, 40x6): the
    # buckets 32, 1, 16x4, 8 and 64x8
    shapes = [(17,), (20,), (7,), (1,), (40, 6), (16, 4)]
    ok = []
    for dtype in ("float64", "float32"):
        for shape in shapes:
            a, b = (rng.standard_normal(shape).astype(dtype) for _ in range(2))
            got = np.asarray(xp.add(xp.asarray(a), xp.asarray(b)))
            ok.append(got.dtype == a.dtype and got.shape == shape
                      and bool(np.array_equal(got, a + b)))
    print("@@result@@ " + json.dumps({"ok": ok, "loads": kernel.load_count(),
                                      "compiles": kernel.compile_count()}))
"""


def test_standard_workload_fills_the_store_and_a_fresh_process_loads(tmp_path):
    proc = _precompile(tmp_path, "--workload", "standard", "--jobs", "2",
                       "--match", "add float*")
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = proc.stderr.splitlines()[-1]
    assert "standard: 2 of 2 tasks" in summary and "with 2 workers" in summary, summary
    assert "[" + "#" * 24 + "] 2/2 tasks" in proc.stderr       # the bar, full at the end
    # one executable per bucket shape and dtype: 9 lengths and 3 matrices, float64/float32
    assert len(_entries(tmp_path)) == 24
    out = _child(tmp_path, _ADD_CHILD)
    assert all(out["ok"]), out
    assert out["loads"] == 10                     # 5 buckets, 2 dtypes: all loaded
    assert out["compiles"] == out["loads"], out   # nothing compiled


_SCALER_CHILD = """
    import json
    import numpy as np
    import sklearn
    from sklearn.preprocessing import StandardScaler
    import laxarray as xp
    from laxarray._core.runtime import kernel

    X = np.random.default_rng(3).standard_normal((40, 6))   # 50x5's bucket: 64x8
    expected = StandardScaler().fit_transform(X)
    sklearn.set_config(array_api_dispatch=True)
    got = StandardScaler().fit_transform(xp.asarray(X))
    print("@@result@@ " + json.dumps({
        "close": bool(np.allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-12)),
        "laxarray": type(got).__module__.startswith("laxarray"),
        "loads": kernel.load_count(), "compiles": kernel.compile_count()}))
"""


def test_sklearn_workload_serves_another_shape_of_the_bucket(tmp_path):
    pytest.importorskip("sklearn")
    proc = _precompile(tmp_path, "--workload", "sklearn", "--jobs", "1",
                       "--match", "StandardScaler float64 50x5")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "sklearn: 1 of 1 tasks" in proc.stderr
    assert "raised on laxarray" not in proc.stderr
    out = _child(tmp_path, _SCALER_CHILD)
    assert out["close"] and out["laxarray"], out
    assert out["loads"] >= 20, out
    # built, not loaded (measured: 3): `full` and a masked `x[mask] = v` on the exact
    # feature count (6,), which do not run bucketed, and a gather whose static
    # GatherScatterMode keeps it out of the store (compiled in every process)
    assert out["compiles"] - out["loads"] <= 3, out


def test_unknown_workload_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--workload", "nope"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--workload" in err and "'nope'" in err and "standard" in err
    with pytest.raises(ValueError, match="precompile: expected a workload name.*'nope'"):
        precompile("nope")


def test_store_off_exits_non_zero(monkeypatch, capsys):
    monkeypatch.setenv("LAXARRAY_COMPILATION_CACHE", "0")
    assert cli.main(["--workload", "standard", "--jobs", "1"]) == 1
    assert "executable store is off" in capsys.readouterr().err
    with pytest.raises(RuntimeError, match="nothing to fill"):
        precompile("standard")


def test_bad_arguments(capsys):
    with pytest.raises(ValueError, match="'jobs'"):
        precompile("standard", jobs=0)
    with pytest.raises(ValueError, match="'limit'"):
        precompile("standard", limit=0)
    with pytest.raises(ValueError, match="selects tasks"):
        precompile("standard", match="no such function *")
    with pytest.raises(SystemExit):
        cli.main(["--workload", "standard", "--jobs", "0"])
    assert "--jobs" in capsys.readouterr().err


def test_list_names_every_workload(capsys):
    assert cli.main(["--list"]) == 0
    out = capsys.readouterr().out
    for name in workloads.names():
        assert name in out
    assert {"sklearn", "standard"} <= set(workloads.names())


@pytest.mark.parametrize("name", ["standard", "sklearn"])
def test_shares_split_every_task_once_and_keep_groups_whole(name):
    found = workloads.tasks(name)
    labels = [t.label for t in found]
    assert len(set(labels)) == len(labels)
    for count in (1, 2, 3, 16):
        n = workloads.shares(found, count)
        parts = [workloads.chunk(found, i, n) for i in range(n)]
        assert all(parts)                                    # no idle worker
        assert sorted(i for p in parts for i, _ in p) == list(range(len(found)))
        owner = {}
        for share, part in enumerate(parts):
            for _, task in part:
                assert owner.setdefault(task.group, share) == share
        assert parts == [workloads.chunk(found, i, n) for i in range(n)]  # deterministic


def test_match_and_limit_select_tasks():
    found = workloads.tasks("standard", match="sin *")
    assert [t.label for t in found] == ["sin float64", "sin float32"]
    assert [t.label for t in workloads.tasks("standard", limit=1, match="sin *")] == [
        "sin float64"]


def test_sklearn_grid_is_bucketed_and_covers_the_benchmark_shapes():
    """The cold-start benchmark's workflow runs on 500x20 and 400x20: the grid holds their
    bucket (512x32) without holding them, and only shapes that run bucketed."""
    from laxarray._core.buckets import bucket_shape
    from laxarray.precompile import estimators
    shapes = {bucket_shape(s) for s in estimators.GRID}
    assert None not in shapes
    assert bucket_shape((500, 20)) in shapes
    assert bucket_shape((400, 20)) in shapes
    assert (500, 20) not in estimators.GRID and (400, 20) not in estimators.GRID
    assert len(shapes) == len(estimators.GRID)              # one shape per bucket


def _fake_tasks():
    def fails():
        return 1 / 0

    def bad_calls():
        raise KeyError("no inputs")
    return [workloads.Task("broken a", "broken", "g1", 1, lambda: [fails]),
            workloads.Task("broken b", "broken", "g1", 1, lambda: [fails, fails]),
            workloads.Task("broken c", "broken", "g1", 1, lambda: [fails]),
            workloads.Task("half", "half", "g1", 1, lambda: [lambda: 1, fails]),
            workloads.Task("setup", "setup", "g1", 1, bad_calls)]


def test_worker_counts_failures_and_gives_up_on_a_kind(monkeypatch):
    monkeypatch.setitem(workloads.WORKLOADS, "fake", (_fake_tasks, "failing tasks", None))
    monkeypatch.setattr(kernel, "_open_store", lambda: object())
    report = io.StringIO()
    assert runner.work("fake", 0, 1, report=report) == 0
    events = [json.loads(ln[len(runner.MARK):]) for ln in report.getvalue().splitlines()]
    assert events[0] == {"event": "start", "tasks": 5, "store": True}
    assert events[-1] == {"event": "done"}
    got = {e["label"]: (e["calls"], e["failed"], e["error"]) for e in events[1:-1]}
    assert got["broken a"] == (1, 1, "ZeroDivisionError: division by zero")
    assert got["broken b"] == (2, 2, "ZeroDivisionError: division by zero")
    assert got["broken c"][:2] == (1, 1) and got["broken c"][2].startswith("skipped")
    assert got["half"] == (2, 1, "ZeroDivisionError: division by zero")
    assert got["setup"] == (1, 1, "KeyError: 'no inputs'")


def test_summary_lists_what_raised():
    text = runner.format_summary({
        "workload": "sklearn", "tasks": 3, "done": 3, "seconds": 1.5, "jobs": 2,
        "written": 40, "loaded": 2, "store": "/s", "entries": 40, "new_entries": 40,
        "bytes": 2**20, "calls": 3, "failed_calls": 1,
        "failures": {"KMeans": {"failed": 1, "calls": 1, "error": "ValueError: devices"}}})
    assert "3 of 3 tasks" in text and "40 executables written" in text
    assert "KMeans: 1 of 1 calls failed; first: ValueError: devices" in text


# ---- --from FILE (a record of LAXARRAY_RECORD; tests/core/test_record.py runs one) ----------

def test_from_and_workload_exclude_each_other(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--from", str(tmp_path / "calls.jsonl"), "--workload", "standard"])
    assert exc.value.code == 2
    assert "not allowed with" in capsys.readouterr().err
    with pytest.raises(ValueError, match="'workload' or 'from_file', not both"):
        precompile("standard", from_file=tmp_path / "calls.jsonl")
    with pytest.raises(TypeError, match="precompile: expected a path .* for 'from_file'"):
        precompile(from_file=3)


def test_from_a_file_that_cannot_serve_exits_1_naming_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LAXARRAY_COMPILATION_CACHE", str(tmp_path))
    missing = tmp_path / "missing.jsonl"
    assert cli.main(["--from", str(missing)]) == 1
    err = capsys.readouterr().err
    assert str(missing) in err and "No such file" in err and "Traceback" not in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"v": 1, "kernel": ["m:k", {"t": []}], "items": [], "masked": false, '
                   '"sig": []}\n{"v": 1, "kernel": ["m:k"\n')
    assert cli.main(["--from", str(bad)]) == 1
    assert f"{bad}, line 2: expected a line written by LAXARRAY_RECORD" in (
        capsys.readouterr().err)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert cli.main(["--from", str(empty)]) == 1
    assert f"{empty} holds no entries" in capsys.readouterr().err
    assert not (tmp_path / "executables").exists()   # refused before the store was opened


def test_the_package_is_callable_as_its_function(tmp_path, monkeypatch):
    import laxarray
    import laxarray.precompile
    monkeypatch.setenv("LAXARRAY_COMPILATION_CACHE", str(tmp_path))
    summary = laxarray.precompile(workload="standard", match="sin float64", jobs=1,
                                  stream=False)
    assert summary["workload"] == "standard" and summary["from_file"] is None
    assert summary["done"] == summary["tasks"] == 1 and summary["failed_calls"] == 0
    # sin on 9 lengths and 3 matrices, one executable per bucket: all new, all written
    assert summary["written"] == summary["new_entries"] == summary["entries"] == 12, summary
    assert len(_entries(tmp_path)) == 12
    assert laxarray.precompile.names() == workloads.names()   # and still the package
    assert laxarray.precompile.precompile is runner.precompile


# ---- the one-time hint of an empty store (exec_store._hint_if_empty) -----------------------

_HINT = "is empty; each new kernel compiles once on this machine"


def _store(path):
    from laxarray._core.runtime import exec_store
    return exec_store.ExecutableStore.open(path)


def _hints(call):
    """The texts of the StoreHintWarnings ``call()`` gave."""
    import laxarray
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert all(issubclass(w.category, laxarray.StoreHintWarning) for w in caught)
    return [str(w.message) for w in caught]


def test_hint_is_said_once_per_store_and_only_for_an_empty_one(tmp_path, monkeypatch):
    from laxarray._core.runtime import exec_store
    monkeypatch.delenv("LAXARRAY_STORE_HINT", raising=False)
    store = _store(tmp_path / "a")
    said = _hints(lambda: exec_store._hint_if_empty(store))
    assert len(said) == 1 and _HINT in said[0] and store.path in said[0]
    assert "--from FILE" in said[0]
    assert (tmp_path / "a" / ".hinted").exists()
    assert _hints(lambda: (exec_store._hint_if_empty(store),
                           exec_store._hint_if_empty(_store(tmp_path / "a")))) == []
    filled = _store(tmp_path / "b")
    filled.put("a key", b"an executable")
    assert _hints(lambda: exec_store._hint_if_empty(filled)) == []
    assert (tmp_path / "b" / ".hinted").exists()             # found filled: not asked again
    assert _hints(lambda: exec_store._hint_if_empty(None)) == []   # the store is off
    monkeypatch.setenv("LAXARRAY_STORE_HINT", "0")           # precompile's workers
    assert _hints(lambda: exec_store._hint_if_empty(_store(tmp_path / "c"))) == []
    assert not (tmp_path / "c" / ".hinted").exists()


def test_hint_can_be_filtered_by_its_category(tmp_path, monkeypatch):
    import laxarray
    from laxarray._core.runtime import exec_store
    monkeypatch.delenv("LAXARRAY_STORE_HINT", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=laxarray.StoreHintWarning)
        exec_store._hint_if_empty(_store(tmp_path / "a"))
    assert caught == []


def test_hint_never_raises_and_is_not_repeated_where_no_marker_can_be_written(
        tmp_path, monkeypatch):
    from laxarray._core.runtime import exec_store
    monkeypatch.delenv("LAXARRAY_STORE_HINT", raising=False)
    store = _store(tmp_path / "a")

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    with monkeypatch.context() as m:
        m.setattr(exec_store.os, "open", read_only)
        said = _hints(lambda: (exec_store._hint_if_empty(store),
                               exec_store._hint_if_empty(store)))
    assert said == []                             # not said, rather than said every time
    os.rmdir(tmp_path / "a")
    assert _hints(lambda: exec_store._hint_if_empty(store)) == []   # gone: nothing raised


_OPEN_CHILD = """
    import json
    import laxarray
    from laxarray._core.runtime import exec_store
    print("@@result@@ " + json.dumps({"store": exec_store.default_store() is not None}))
"""


def test_a_fresh_process_on_an_empty_store_says_it_once(tmp_path):
    def run(store):
        env = _env(store)
        env.pop("LAXARRAY_STORE_HINT", None)
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_OPEN_CHILD)], env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0 and MARK in proc.stdout, proc.stderr[-3000:]
        return proc.stderr
    first = run(tmp_path)
    assert first.count(_HINT) == 1 and str(tmp_path / "executables") in first, first
    assert _HINT not in run(tmp_path)             # the second process on that store
    assert _HINT not in run("0")                  # the store off
