"""``LAXARRAY_RECORD=FILE`` (laxarray._core.runtime.lookup_log): static values survive the file's text,
a bad line is refused by number, processes recording at once write whole lines, and a
program's record rebuilt into a fresh store (``python -m laxarray.precompile --from``) serves
the same program without a compile."""

import functools
import json
import math
import os
import struct
import subprocess
import sys
import textwrap

import jax
import numpy as np
import pytest

from laxarray._core.runtime import lookup_log
from laxarray.precompile import recorded

MARK = "@@result@@ "


def _same(a, b):
    """Equal value and type, floats bit for bit (-0.0 is not 0.0; a NaN keeps its sign)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, frozenset):
        return len(a) == len(b) and all(any(_same(x, y) for y in b) for x in a)
    if isinstance(a, slice):
        return all(_same(getattr(a, k), getattr(b, k)) for k in ("start", "stop", "step"))
    if isinstance(a, complex):
        return _same(a.real, b.real) and _same(a.imag, b.imag)
    if isinstance(a, (float, np.generic)):
        return np.asarray(a).tobytes() == np.asarray(b).tobytes()
    return a == b


def _round_trip(v):
    return lookup_log.decode(json.loads(json.dumps(lookup_log.encode(v))))


def module_level_function(x):
    return x


_VALUES = [
    None, True, False, 0, 1, -(2 ** 70), 0.0, -0.0, 1.5, math.inf, -math.inf, math.nan,
    -math.nan, 5e-324, complex(1.0, -0.0), complex(math.nan, math.inf), "sum", "",
    np.float32(-0.0), np.float64(math.nan), np.int8(-3), np.uint64(2 ** 64 - 1),
    np.bool_(True), np.complex64(1 - 2j), np.dtype("float32"), np.dtype("int64"),
    np.dtype("complex128"), np.dtype(bool),
    jax.lax.GatherScatterMode.FILL_OR_DROP, jax.lax.GatherScatterMode.PROMISE_IN_BOUNDS,
    jax.lax.Precision.HIGHEST,
    (), (0, 0.0, False), ((1, (2,)), [3, -0.0]), frozenset({1, 2.0, "a"}), frozenset(),
    slice(1, None, -2), slice(None), (slice(0, 3), None),
    math.sqrt, np.add, jax.lax.add, jax.lax.sort,
]


def _id(value):
    """A test id that is the same in every process (no addresses: pytest-xdist compares)."""
    name = getattr(value, "__qualname__", None)
    if callable(value) and name:
        return f"{type(value).__name__}:{name}"
    if isinstance(value, frozenset):  # its repr follows string hashing, which varies
        return f"frozenset{sorted(map(repr, value))}"
    return repr(value)


@pytest.mark.parametrize("value", _VALUES, ids=_id)
def test_static_values_keep_their_type_and_bits(value):
    assert _same(_round_trip(value), value)


def test_values_that_compare_equal_stay_apart():
    # 0 == 0.0 == False and -0.0 == 0.0 in Python: the text must still tell them apart
    back = [_round_trip(v) for v in (0, 0.0, False, -0.0, 1, 1.0, True)]
    assert [type(v) for v in back] == [int, float, bool, float, int, float, bool]
    assert math.copysign(1.0, back[3]) == -1.0 and math.copysign(1.0, back[1]) == 1.0
    assert struct.pack(">d", _round_trip(-math.nan)) == struct.pack(">d", -math.nan)


def test_bfloat16_dtype_and_scalar():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for v in (np.dtype(ml_dtypes.bfloat16), ml_dtypes.bfloat16(-0.0),
              ml_dtypes.bfloat16(1.5)):
        assert _same(_round_trip(v), v)


def test_module_functions_round_trip_to_the_same_object():
    for fn in (module_level_function, jax.lax.add, np.add, math.sqrt, lookup_log.encode):
        assert _round_trip(fn) is fn


def test_values_without_a_text_are_refused():
    def local(x):
        return x

    for v in (lambda x: x, local, object(), functools.partial(jax.lax.add, 1),
              np.dtype([("a", "f8")]), {"a": 1}, b"bytes"):
        with pytest.raises(lookup_log.Unrecordable):
            lookup_log.encode(v)


_GOOD = {"v": 1, "kernel": ["laxarray.somewhere:_k", {"t": []}], "items": [],
         "masked": False, "sig": [["a", [4], "float64", False], ["s", "float"]]}


def _write(path, *lines):
    path.write_text("".join(line + "\n" for line in lines))


@pytest.mark.parametrize("bad", [
    '{"v": 1, "kernel": ["m:k", {"t": []}], "items": [], "masked": false, "sig": [["a", [4',
    "not json",
    '{"v": 2, "kernel": ["m:k", {"t": []}], "items": [], "masked": false, "sig": []}',
    '{"v": 1, "kernel": 5, "items": [], "masked": false, "sig": []}',
    '{"v": 1, "kernel": ["m:k", {"t": []}], "items": [["a", 1]], "masked": false, "sig": []}',
    '{"v": 1, "kernel": ["m:k", {"t": []}], "items": [], "masked": false, "sig": [["a", [4]]]}',
    '{"v": 1, "kernel": ["m:k", {"t": []}], "items": [], "sig": []}',
    "[1, 2]",
])
def test_read_names_the_bad_line(tmp_path, bad):
    path = tmp_path / "calls.jsonl"
    _write(path, json.dumps(_GOOD), "", bad)
    with pytest.raises(ValueError, match=r"calls\.jsonl, line 3: expected a line written by "
                                         r"LAXARRAY_RECORD"):
        lookup_log.read(path)


def test_read_keeps_distinct_entries_in_order_and_labels_them(tmp_path):
    other = dict(_GOOD, masked=True, sig=[["n", [2, 3], "<f4"]])
    path = tmp_path / "calls.jsonl"
    _write(path, json.dumps(_GOOD), json.dumps(other), json.dumps(_GOOD), "")
    entries = lookup_log.read(path)
    assert entries == [_GOOD, other]
    assert lookup_log.label(entries[0]) == "_k float64[4],float"
    assert lookup_log.label(entries[1]) == "_k masked <f4[2,3]"


def test_recorded_tasks_group_a_binding_and_name_a_kind(tmp_path):
    factory = dict(_GOOD, kernel=["laxarray.somewhere:make", lookup_log.encode(("sin", None))])
    entries = [_GOOD, dict(_GOOD, masked=True), dict(_GOOD, items=[["axis", {"i": "0"}]]),
               factory]
    path = tmp_path / "calls.jsonl"
    _write(path, *map(json.dumps, entries))
    found = recorded.tasks(path)
    assert [t.kind for t in found] == ["_k", "_k", "_k", "make('sin', None)"]
    assert found[0].group == found[1].group                 # one binding, one worker
    assert len({found[0].group, found[2].group, found[3].group}) == 3
    assert [t.label for t in recorded.tasks(path, match="make*")] == [found[3].label]
    assert len(recorded.tasks(path, limit=2)) == 2
    # a kernel that is gone raises in the worker's call (counted there), not here
    with pytest.raises(lookup_log.Unrecordable, match="laxarray.somewhere:_k"):
        found[0].calls()[0]()


# ---- processes ---------------------------------------------------------------------------

def _env(store, **extra):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store))
    for name in ("LAXARRAY_COMPILATION_CACHE_MAX_MB", "LAXARRAY_RECORD"):
        env.pop(name, None)
    return dict(env, **extra)


def _child(code, env):
    """Run ``code`` in a fresh interpreter: the dict it printed after MARK, and stderr."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    return json.loads(lines[-1][len(MARK):]), proc.stderr


_PROGRAM = """
    import json
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel

    rng = np.random.default_rng(0)
    a = rng.standard_normal((12, 5))       # runs bucketed (16x8)
    b = rng.standard_normal((5, 7))
    v = rng.standard_normal(40000)         # over the bucket limit: the exact shape
    x = xp.asarray(a)
    checks = {
        "sum": (xp.sum(x, axis=0), a.sum(axis=0)),
        "max": (xp.max(x, axis=1), a.max(axis=1)),
        "matmul": (x @ xp.asarray(b), a @ b),
        "scalar": (x * 2.5 + 1, a * 2.5 + 1),
        "exact": (xp.sin(xp.asarray(v)), np.sin(v)),
        "svd": (xp.linalg.svd(x, full_matrices=False)[1],
                np.linalg.svd(a, compute_uv=False)),
    }
    ok = {k: bool(np.allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12))
          for k, (got, want) in checks.items()}
    print("@@result@@ " + json.dumps({"ok": ok, "loads": kernel.load_count(),
                                      "compiles": kernel.compile_count()}))
"""


def _precompile(store, *args):
    return subprocess.run([sys.executable, "-m", "laxarray.precompile", *args],
                          env=_env(store), capture_output=True, text=True, timeout=600)


_HINT = "is empty; each new kernel compiles once on this machine"


def test_a_record_rebuilt_into_a_fresh_store_serves_the_program(tmp_path):
    calls = tmp_path / "calls.jsonl"
    first, err = _child(_PROGRAM, _env(tmp_path / "A", LAXARRAY_RECORD=str(calls)))
    assert all(first["ok"].values()), first
    assert err.count(_HINT) == 1, err                       # a fresh store: said once
    entries = lookup_log.read(calls)
    # one line per executable the program looked up: it compiled each (a fresh store)
    assert first["loads"] == 0 and first["compiles"] == len(entries) >= 6, first
    labels = [lookup_log.label(e) for e in entries]
    assert any(t.startswith("_svd_kernel masked ") for t in labels), labels  # on its bucket
    assert any(t.startswith("_matmul_kernel ") for t in labels), labels

    proc = _precompile(tmp_path / "B", "--from", str(calls), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (f"--from {calls}: {len(entries)} of {len(entries)} tasks" in proc.stderr
            and f"{len(entries)} executables written, 0 loaded" in proc.stderr), proc.stderr
    assert "raised" not in proc.stderr and _HINT not in proc.stderr
    # neither precompile nor its workers took the hint's turn (its marker)
    assert not (tmp_path / "B" / "executables" / ".hinted").exists()

    again, err = _child(_PROGRAM, _env(tmp_path / "B"))
    assert all(again["ok"].values()), again
    assert _HINT not in err                                 # a filled store: not said
    assert again["loads"] == len(entries), again            # each one loaded ...
    assert again["compiles"] == again["loads"], again       # ... and nothing compiled

    # a second run loads what the store holds, and counts a kernel that is gone as failed
    gone = dict(entries[0], kernel=["laxarray.linalg:_gone_kernel", lookup_log.encode(())])
    with open(calls, "a") as f:
        f.write(json.dumps(gone) + "\n")
    proc = _precompile(tmp_path / "B", "--from", str(calls), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"0 executables written, {len(entries)} loaded" in proc.stderr, proc.stderr
    assert ("_gone_kernel: 1 of 1 calls failed; first: Unrecordable: "
            "laxarray.linalg:_gone_kernel is not importable") in proc.stderr, proc.stderr


_WRITER = """
    import json, os, sys, time, types
    import jax
    from laxarray._core.runtime import lookup_log

    who, ready, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    kern = lookup_log.resolve("laxarray.linalg.decompositions:_svd_kernel")
    open(os.path.join(ready, who), "w").close()
    while len(os.listdir(ready)) < 2:      # both start writing at once
        time.sleep(0.001)
    device = jax.devices()[0].id
    for n in range(count):
        bound = types.SimpleNamespace(kernel=kern, items=(
            ("who", who), ("n", n), ("pad", "x" * (50 + n % 500))))
        lookup_log.note(bound, n % 2 == 0, (float,), device)
    print("@@result@@ " + json.dumps({"path": lookup_log.PATH}))
"""


def test_processes_recording_into_one_file_write_whole_lines(tmp_path):
    calls, ready, count = tmp_path / "calls.jsonl", tmp_path / "ready", 2000
    ready.mkdir()
    env = _env(tmp_path, LAXARRAY_RECORD=str(calls))
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(_WRITER), who,
                               str(ready), str(count)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for who in ("a", "b")]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-3000:]
    lines = calls.read_text().split("\n")
    assert lines[-1] == ""                                  # ends with a whole line
    seen = set()
    for line in lines[:-1]:
        entry = json.loads(line)                            # no torn or mixed line
        items = {k: lookup_log.decode(v) for k, v in entry["items"]}
        assert items["pad"] == "x" * (50 + items["n"] % 500)
        seen.add((items["who"], items["n"]))
    assert len(lines) - 1 == 2 * count
    assert seen == {(who, n) for who in "ab" for n in range(count)}
