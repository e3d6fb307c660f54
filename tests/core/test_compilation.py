"""Compilation policy (laxarray._core.runtime.kernel; jax's own persistent cache is the user's).

Counts, never timings: indexing compiles per key structure (not per index value), new
shapes of one bucket share executables, a public call compiles at most one executable, the
number of live executables stays within its bound, and the persistent cache lets a fresh
process skip compilation (also with two processes starting at once).
"""

import json
import os
import subprocess
import sys
import textwrap

import jax
import jax.monitoring
import numpy as np
import pytest

import laxarray as xp
from laxarray._core import buckets as B
from laxarray._core.runtime import kernel as K

_EVENTS = {"backend": 0, "hits": 0}


def _on_duration(event, duration, **_):
    if event.endswith("backend_compile_duration"):
        _EVENTS["backend"] += 1


def _on_event(event, **_):
    if event.endswith("cache_hits"):
        _EVENTS["hits"] += 1


jax.monitoring.register_event_duration_secs_listener(_on_duration)
jax.monitoring.register_event_listener(_on_event)


def _compiles():
    """XLA compilations so far (jax reports a persistent-cache load as a compile too)."""
    return _EVENTS["backend"] - _EVENTS["hits"]


def _loop_compiles(step, n):
    """Executables built by ``step(1..n-1)`` after ``step(0)`` ran once."""
    step(0)
    before = K.compile_count()
    for i in range(1, n):
        step(i)
    return K.compile_count() - before


@pytest.mark.parametrize("shape", [(50, 4), (3000, 17)], ids=["bucketed", "exact"])
def test_indexing_compiles_per_key_structure_not_per_value(shape):
    rng = np.random.default_rng(0)
    base = rng.standard_normal(shape)
    a = xp.asarray(base)
    n, m = shape
    assert _loop_compiles(lambda i: float(a[i, i % m]), 40) == 0
    assert _loop_compiles(lambda i: a[i:i + 2].block_until_ready(), 20) == 0
    assert _loop_compiles(lambda i: a[-i - 1, ::2].block_until_ready(), 20) == 0
    x = xp.asarray(base)

    def write(i):
        x[i] = float(i)
        x[i, 1:3] += 1.0
    assert _loop_compiles(write, 20) == 0
    expected = base.copy()
    for i in range(20):
        expected[i] = float(i)
        expected[i, 1:3] += 1.0
    np.testing.assert_array_equal(np.asarray(x), expected)
    idx = xp.asarray(np.arange(3))
    assert _loop_compiles(lambda i: xp.take(a, idx + i, axis=0).block_until_ready(), 10) == 0


def test_new_shapes_of_one_bucket_share_executables():
    def work(r, c):
        rng = np.random.default_rng(r * 100 + c)
        x = xp.asarray(rng.standard_normal((r, c)))
        w = xp.asarray(rng.standard_normal((c, 3)))
        out = [x + 1.0, x * x, xp.sum(x, axis=0), xp.mean(x, axis=1), xp.var(x), x @ w,
               xp.max(x, axis=1, keepdims=True), x[1:3, ::-1], xp.astype(x > 0, xp.int32),
               xp.permute_dims(x, (1, 0)), xp.reshape(x, (1, r, c)), xp.argmax(x, axis=0)]
        return [np.asarray(o) for o in out], x, w

    work(17, 5)
    before = K.compile_count()
    got, x, w = work(19, 6)
    assert K.compile_count() == before  # 17x5 and 19x6 both run in the 32x8 bucket
    xn, wn = np.asarray(x), np.asarray(w)
    np.testing.assert_allclose(got[5], xn @ wn, rtol=1e-12)
    np.testing.assert_allclose(got[3], xn.mean(axis=1), rtol=1e-12)
    np.testing.assert_array_equal(got[7], xn[1:3, ::-1])


@pytest.mark.parametrize("name,call", [
    ("add", lambda x, y, w, m: x + y), ("sum", lambda x, y, w, m: xp.sum(x, axis=1)),
    ("var", lambda x, y, w, m: xp.var(x, axis=0, correction=1)),
    ("matmul", lambda x, y, w, m: x @ w), ("astype", lambda x, y, w, m: xp.astype(x, xp.float32)),
    ("where", lambda x, y, w, m: xp.where(m, x, 0.0)),
    ("clip", lambda x, y, w, m: xp.clip(x, -1, 1)), ("getitem", lambda x, y, w, m: x[3, 1:]),
    ("setitem", lambda x, y, w, m: x.at[2:5, 0].set(1.0)),
    ("unique_values", lambda x, y, w, m: xp.unique_values(x)),
    ("concat", lambda x, y, w, m: xp.concat([x, y])),
    ("sort", lambda x, y, w, m: xp.sort(x, axis=0)),
    ("asarray-dtype", lambda x, y, w, m: xp.asarray(x, dtype=xp.float32)),
    ("cumulative_sum", lambda x, y, w, m: xp.cumulative_sum(x, axis=1)),
    ("take", lambda x, y, w, m: xp.take(x, xp.asarray([0, 2]), axis=0)),
    ("argmax", lambda x, y, w, m: xp.argmax(x, axis=1)),
])
@pytest.mark.parametrize("shape", [(23, 3), (2100, 21)], ids=["bucketed", "exact"])
def test_a_public_call_compiles_at_most_one_executable(name, call, shape):
    rng = np.random.default_rng(len(name))
    x, y = (xp.asarray(rng.standard_normal(shape)) for _ in range(2))
    w = xp.asarray(rng.standard_normal((shape[1], 3)))
    m = xp.asarray(rng.standard_normal(shape) > 0)
    before = _compiles()
    np.asarray(call(x, y, w, m))
    assert _compiles() - before <= 1


def test_live_executables_stay_within_the_bound():
    limit = K.executable_limit()
    previous = B.set_bucket_limit(0)
    try:
        K.set_executable_limit(8)
        for n in range(16):  # 48 programs through a bound of 8
            x = xp.asarray(np.arange(n + 1000, dtype=np.float64))
            assert float(xp.sum(x * 2.0 + 1.0)) == float(np.sum(np.arange(n + 1000) * 2.0 + 1))
            assert K.live_executables() <= 8
    finally:
        K.set_executable_limit(limit)
        B.set_bucket_limit(previous)


_CHILD = textwrap.dedent("""
    import json, sys, jax, jax.monitoring
    counts = {"compiles": 0, "hits": 0}
    def duration(event, d, **_):
        if event.endswith("backend_compile_duration"):  # loads from the cache count too
            counts["compiles"] += 1
    def event(name, **_):
        if name.endswith("cache_hits"):
            counts["hits"] += 1
            counts["compiles"] -= 1
    jax.monitoring.register_event_duration_secs_listener(duration)
    jax.monitoring.register_event_listener(event)
    import numpy as np
    import laxarray as xp
    x = xp.asarray(np.linspace(0.0, 1.0, 777).reshape(37, 21))
    value = float(xp.sum(xp.sin(x) @ x.T) + xp.var(x))
    from laxarray._core.runtime import kernel
    print(json.dumps(dict(counts, value=value, dir=jax.config.jax_compilation_cache_dir,
                          loads=kernel.load_count(), built=kernel.compile_count())))
""")


def _child(env_extra):
    env = dict(os.environ, **env_extra)
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    return subprocess.Popen([sys.executable, "-c", _CHILD], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _result(proc):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_executable_store_lets_a_fresh_process_skip_compiling(tmp_path):
    """The second process loads every kernel the first one compiled: XLA compiles nothing
    (jax's cache is not asked either: the store is consulted before tracing)."""
    env = {"LAXARRAY_COMPILATION_CACHE": str(tmp_path)}
    first = _result(_child(env))
    second = _result(_child(env))
    # jax's persistent cache stays the user's to configure (laxarray's kernels have the store)
    assert first["dir"] is None and first["compiles"] >= 1 and first["loads"] == 0
    assert second["compiles"] == 0 and second["hits"] == 0
    assert second["loads"] == second["built"] == first["built"]
    assert second["value"] == first["value"]


def test_two_processes_starting_at_once_share_an_empty_cache(tmp_path):
    env = {"LAXARRAY_COMPILATION_CACHE": str(tmp_path)}
    a, b = _child(env), _child(env)
    ra, rb = _result(a), _result(b)
    assert ra["value"] == rb["value"] == _result(_child({"LAXARRAY_COMPILATION_CACHE": "0"}))[
        "value"]
    assert any(tmp_path.iterdir())


def test_cache_off():
    off = _result(_child({"LAXARRAY_COMPILATION_CACHE": "0"}))
    assert off["dir"] is None and off["hits"] == 0


def test_eviction_is_safe_while_other_threads_run_kernels():
    """Threads compiling and running many kernels while the bound evicts: every result
    right, no error (eviction drops a binding's jitted callable; a running call keeps it)."""
    import threading
    limit, previous = K.executable_limit(), B.set_bucket_limit(0)
    errors = []

    def work(seed):
        try:
            for n in range(seed, seed + 12):  # 36 programs per thread, bound 6
                x = xp.asarray(np.arange(n + 500, dtype=np.float64))
                got = float(xp.sum(xp.sin(x) * 2.0))
                assert abs(got - float(np.sum(np.sin(np.arange(n + 500)) * 2.0))) < 1e-9
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
    try:
        K.set_executable_limit(6)
        threads = [threading.Thread(target=work, args=(s * 40,)) for s in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        K.set_executable_limit(limit)
        B.set_bucket_limit(previous)
    assert errors == []


def test_static_values_python_calls_equal_get_their_own_kernels():
    # 0j, 0.0, -0.0, 0 and False are equal (and hash alike) in Python; as a static
    # fill_value each must fill as itself: 0j cannot fill float16, and -0.0 keeps its
    # sign (False and 0 may share a kernel: they fill alike)
    cases = [(np.complex128, 0j), (np.float16, 0.0), (np.float64, -0.0), (np.float64, 0.0),
             (np.int64, 0), (np.bool_, False)]
    for dtype, fill in cases:
        x = np.array([3, 1, 3], dtype)
        got = np.asarray(xp.unique_values(xp.asarray(x), size=4, fill_value=fill))
        assert got.dtype == np.dtype(dtype)
        want = np.concatenate([np.unique(x), np.full(4 - np.unique(x).size, fill, dtype)])
        np.testing.assert_array_equal(got, want)
        if dtype == np.float64:
            assert np.signbit(got[-1]) == np.signbit(fill)


_STRAY_CHILD = textwrap.dedent("""
    import json, jax, jax.monitoring
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel
    backend = [0]
    def duration(event, d, **_):
        if event.endswith("backend_compile_duration"):
            backend[0] += 1
    jax.monitoring.register_event_duration_secs_listener(duration)
    a8 = xp.asarray(np.array([1, 2, 3], np.int8))
    a16 = xp.asarray(np.array([3, 1], np.int16))
    f64 = xp.asarray(np.array([1.0, 2.5, -4.0]))
    calls = {
        "isin, mixed dtypes": lambda: xp.isin(a8, a16),
        "isin, float and int": lambda: xp.isin(f64, a16),
        "diff, prepend of another dtype": lambda: xp.diff(a8, prepend=a16),
        "lstsq, wide": lambda: xp.linalg.lstsq(xp.ones((2, 3)), xp.ones(2)),
        "lstsq, rank-deficient tall": lambda: xp.linalg.lstsq(xp.ones((4, 2)), xp.ones(4)),
        "getitem, 0-d mask": lambda: f64[xp.asarray(True)],
        "setitem, 0-d mask": lambda: f64.__setitem__(xp.asarray(False), 1.0),
        "astype": lambda: xp.astype(a8, xp.float32),
        "add, mixed dtypes": lambda: a8[:2] + a16,
    }
    stray = {}
    for name, call in calls.items():
        b, c = backend[0], kernel.compile_count()
        out = call()
        jax.block_until_ready([getattr(v, "_value", v) for v in
                               (out if isinstance(out, tuple) else (out,)) if v is not None])
        stray[name] = (backend[0] - b) - (kernel.compile_count() - c)
    print(json.dumps(stray))
""")


def test_eager_calls_build_no_program_outside_the_kernel_helper(tmp_path):
    """An eager call compiles only through the kernel helper, whose executables the store
    keeps: a ``lax`` call applied eagerly outside a kernel is compiled by jax in every
    process, unstored (``isin`` of mixed dtypes once cast its operands that way: about 14
    ms a process per dtype pair and shape).  Counted in a fresh process with an empty store,
    where every kernel compiles: XLA's compilations minus the kernels' own."""
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path))
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    proc = subprocess.run([sys.executable, "-c", _STRAY_CHILD], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    stray = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stray and {k: v for k, v in stray.items() if v} == {}
