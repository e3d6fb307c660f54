"""Every kind of kernel runs right after the executable store loaded it in a fresh process.

One child process fills an empty store (``LAXARRAY_COMPILATION_CACHE=<tmp>``), a second one
runs the same calls on it; both compare each result with NumPy/SciPy (the oracle), and the
second must have loaded executables instead of compiling them: LAPACK-backed linalg (a loaded
LAPACK call crashed a fresh process before jax's LAPACK targets were set up), FFT, sorting,
gathers and scatters, reductions, bucketed and exact shapes.  Host callbacks stay out of the
store (their Python function lives in one process) and still give NumPy's answers.
"""

import json
import os
import subprocess
import sys
import textwrap

_CHILD = textwrap.dedent("""
    import json
    import numpy as np
    import scipy.linalg
    import laxarray as xp
    from laxarray._core.runtime import kernel

    rng = np.random.default_rng(0)
    a = rng.standard_normal((40, 40)); spd = a @ a.T + 40 * np.eye(40)
    v = rng.standard_normal(300); idx = rng.integers(0, 300, 50)
    m = xp.asarray(a); s = xp.asarray(spd); x = xp.asarray(v)
    checks = {
        "svd": (lambda: xp.linalg.svd(m)[1], lambda: np.linalg.svd(a)[1]),
        "eigh": (lambda: xp.linalg.eigh(s)[0], lambda: np.linalg.eigh(spd)[0]),
        "eigvals": (lambda: xp.sort(xp.abs(xp.linalg.eigvals(m))),
                    lambda: np.sort(np.abs(np.linalg.eigvals(a)))),
        "qr": (lambda: xp.abs(xp.linalg.qr(m)[1]), lambda: np.abs(np.linalg.qr(a)[1])),
        "cholesky": (lambda: xp.linalg.cholesky(s), lambda: np.linalg.cholesky(spd)),
        "solve": (lambda: xp.linalg.solve(m, xp.asarray(v[:40])),
                  lambda: np.linalg.solve(a, v[:40])),
        "lstsq": (lambda: xp.linalg.lstsq(m[:, :10], xp.asarray(v[:40]))[0],
                  lambda: np.linalg.lstsq(a[:, :10], v[:40])[0]),
        "det": (lambda: xp.linalg.det(m), lambda: np.linalg.det(a)),
        "fft": (lambda: xp.fft.fft(x), lambda: np.fft.fft(v)),
        "rfft2": (lambda: xp.fft.rfft2(m), lambda: np.fft.rfft2(a)),
        "sort": (lambda: xp.sort(x), lambda: np.sort(v)),
        "argsort": (lambda: xp.argsort(x, stable=True), lambda: np.argsort(v, stable=True)),
        "take": (lambda: xp.take(x, xp.asarray(idx)), lambda: np.take(v, idx)),
        "scatter": (lambda: _scatter(xp.asarray(v), idx), lambda: _scatter(v.copy(), idx)),
        "max": (lambda: xp.max(m, axis=0), lambda: np.max(a, axis=0)),
        "cumsum": (lambda: xp.cumulative_sum(x), lambda: np.cumsum(v)),
        "median": (lambda: xp.median(x), lambda: np.median(v)),
        "mask": (lambda: x[x > 0.5], lambda: v[v > 0.5]),
        "matmul": (lambda: m @ m, lambda: a @ a),
        "big": (lambda: xp.sum(xp.sin(xp.asarray(np.arange(70000.0)))),
                lambda: np.sum(np.sin(np.arange(70000.0)))),
    }

    def _scatter(arr, where):
        arr[where] = -1.0
        return arr

    bad = []
    for name, (ours, oracle) in checks.items():
        got, want = np.asarray(ours()), np.asarray(oracle())
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-9, atol=1e-9):
            bad.append(name)
    print(json.dumps({"bad": bad, "loads": kernel.load_count(),
                      "built": kernel.compile_count()}))
""")


_NAMES = [line.split('"')[1] for line in _CHILD.splitlines()
          if line.startswith('    "') and ": (lambda" in line]


def _run(store):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store))
    proc = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_kernels_loaded_in_a_fresh_process_give_numpys_results(tmp_path):
    first = _run(tmp_path)
    second = _run(tmp_path)
    assert first["bad"] == [] and second["bad"] == []
    assert first["loads"] == 0
    # the same executables; all but the few with host callbacks (not written) are loaded
    assert second["built"] == first["built"]
    assert second["loads"] >= first["built"] - 3 and second["loads"] >= len(_NAMES) - 3


def test_a_damaged_store_entry_is_compiled_again(tmp_path):
    """Every entry truncated to half: the next process compiles, still right, no crash."""
    first = _run(tmp_path)
    for root, _, names in os.walk(tmp_path / "executables"):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "r+b") as f:
                size = os.path.getsize(path)
                f.truncate(size // 2)
    second = _run(tmp_path)
    assert second["bad"] == [] and second["loads"] == 0
    assert second["built"] == first["built"]
    third = _run(tmp_path)
    assert third["bad"] == [] and third["loads"] >= first["built"] - 3


_HISTORY = textwrap.dedent("""
    import json, sys
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel

    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((6, 5)), rng.standard_normal((70, 3))
    if sys.argv[1] == "first":        # a float max on another signature runs first: it
        xp.max(xp.asarray(b), axis=0)  # switches the binding to exact extremes
    before = kernel.compile_count() - kernel.load_count()
    got = np.asarray(xp.max(xp.asarray(a), axis=0))
    print(json.dumps({"ok": bool(np.array_equal(got, a.max(axis=0))),
                      "built": kernel.compile_count() - kernel.load_count() - before}))
""")


def test_a_key_does_not_depend_on_what_the_process_ran_before(tmp_path):
    """A binding's option state (exact extremes, fusion emitters) follows what its process
    traced before; the store key must not, or a process that ran the same call first in
    another order misses what the first one wrote (the precompiled sklearn workload missed
    max and min that way)."""
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path), LAXARRAY_PREFETCH="0")
    runs = []
    for order in ("first", "alone"):
        proc = subprocess.run([sys.executable, "-c", _HISTORY, order], env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert all(r["ok"] for r in runs)
    assert runs[0]["built"] == 1 and runs[1]["built"] == 0


_SWEPT = textwrap.dedent("""
    import json
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel

    calls = [(f, 3) for f in ("sin", "flip", "sum")] + [("sum", n) for n in (5, 9, 17, 33)]
    bad = 0
    for name, n in calls:     # a sweep at every third executable: sum's table goes while
        v = np.linspace(-1.0, 1.0, n)           # sum loads its next one
        got, want = getattr(xp, name)(xp.asarray(v)), getattr(np, name)(v)
        bad += not np.allclose(np.asarray(got), want)
    print(json.dumps({"bad": bad, "loads": kernel.load_count(),
                      "built": kernel.compile_count() - kernel.load_count()}))
""")


def test_a_binding_swept_from_memory_still_uses_the_store(tmp_path):
    """Beyond the live-executable bound a sweep drops a binding's table of executables;
    its next new signature must still be written to (and later loaded from) the store.
    (A swept table made the next write fail and turned the store off for that binding for
    the rest of the process: the precompiled sklearn workload missed matmul that way.)"""
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path), LAXARRAY_PREFETCH="0",
               LAXARRAY_KERNEL_CACHE="2")
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", _SWEPT], env=env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert runs[0]["bad"] == 0 and runs[1]["bad"] == 0
    assert runs[0]["loads"] == 0 and runs[0]["built"] >= 7
    assert runs[1]["built"] == 0 and runs[1]["loads"] >= 7
