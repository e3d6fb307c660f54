"""Cold start (issue 17): what a new user feels on the first calls of a fresh process.

Every measurement runs in fresh subprocesses (this script, ``--child KIND``), each printing
one JSON line that the parent collects; times are medians over ``--repeats`` child runs
(``--quick``: 1 repeat, fewer cases).  In a child the clock starts after the imports (import
time is reported apart) and after the inputs exist; results are blocked on.  Compilations are
counted apart from wall time with ``jax.monitoring``: each ``.../backend_compile_duration``
event is one executable asked of XLA, each ``...cache_hits`` event one the persistent cache
served, so "compiles" = events - hits; "compile" sums those events' seconds (cache reads
included), "trace" the seconds of jax's tracing and lowering events.  laxarray children also
report ``laxarray._core.runtime.kernel.compile_count()`` (kernels' executables) where it exists.

Persistent cache: laxarray children get ``LAXARRAY_COMPILATION_CACHE=<dir>``, a fresh
``tempfile.mkdtemp`` directory for "empty cache" runs, the directory of an earlier child for
"cache warm" runs.  jax.numpy children have no persistent cache except in the cache-warm runs,
which get jax's own ``JAX_COMPILATION_CACHE_DIR`` with ``JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_
SECS=0`` and ``JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES=-1`` (laxarray's settings; an unmeasured
child fills that directory first), so both libraries cache every executable.  All children get
``SCIPY_ARRAY_API=1``, ``JAX_ENABLE_X64=1`` and, unless set, ``OPENBLAS_NUM_THREADS=1`` (on a
loaded 2-core machine OpenBLAS's threads stalled ~90 ms per workflow; jaxlib's CPU LAPACK is
scipy's OpenBLAS too); jax.numpy children ``LAXARRAY_COMPILATION_CACHE=0`` (the op table imports
``dispatch.py``, which imports laxarray).

1. indexing loops, one process each: reads ``float(a[i, j])`` over a 50x4 float64 array;
   writes ``x[i] = c`` (jax.numpy: ``x = x.at[i].set(c)``; array_api_strict, which wants every
   axis indexed: ``x[i, ...]``) for 20 rows; slices ``x[i:i+2]`` for 20 i;
2. scikit-learn workflow (array_api_dispatch; StandardScaler, PCA, Ridge, LDA) on 500x20:
   (a) first run, empty cache; (b) next, a new shape 400x20 in the same process; (c) a fresh
   process on the cache (a) filled; (d) median of R more runs in the process of (c);
3. first-call time of each of the first 30 operations of ``dispatch.OPS`` on 8 new 1-D
   lengths, one process per library, empty cache (``--quick``: 10 ops, 4 lengths);
4. RSS growth over 400 new shapes (lengths 1..400) of ``x * 2.0 + 1.0`` (``--quick``:
   jax.numpy 100 shapes, ~80 ms each);
5. precompiled stores (``precompiled``): the workflow in a fresh process on a copy of a
   store filled by ``python -m laxarray.precompile --workload sklearn`` (e), and by
   ``--from`` the record (``LAXARRAY_RECORD``) of a first run (f); neither copy has a trace
   of the program, so nothing loads ahead; precompile seconds and store sizes printed;
   (g) a fresh machine with the portable tier installed: an empty store of its own, and a
   copy of a portable tier (``precompile --from`` the record ``--portable``) that workers
   filled under another CPU description (``LAXARRAY_CPU_DESCRIPTION``: an AVX2-only CPU),
   with the program's trace that precompile wrote from the record (loaded ahead while the
   child imports, as row (c) loads its store's);
   every other laxarray child runs without a portable tier (``LAXARRAY_PORTABLE_STORE=0``);
6. suites (``suites``, not in the default selection: minutes; ``--suites`` picks them): the
   wall time of ``python -m laxarray.conformance`` and of scikit-learn's array-API tests
   (``make test-sklearn``'s selection), laxarray on an empty store (recorded), then again
   on the store the first run filled, then on an empty store with a portable tier filled
   from that record under another CPU description, and array_api_strict.
Row (c) of 2. runs with the store's loader thread (``laxarray._core.runtime.prefetch``), which
loads during the import what the first run used: the import of a filled-store process
and the sum of import and workflow are printed beside it. ``--plot FILE`` draws where each
workflow row's time goes (import, trace and lower, compile, load, run; matplotlib, the
``bench`` extra). Ends with the issue's targets, measured value, PASS/FAIL.

    .venv/bin/python benchmarks/cold_start.py [--quick] [--repeats N] [--json FILE]
        [--only SECTIONS] [--plot FILE] [--debug-events]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

LIBS = ("laxarray", "jax.numpy", "array_api_strict", "numpy")
JAX_LIBS = ("laxarray", "jax.numpy")
MARK = "@@cold_start@@ "
LENGTHS = (37, 53, 101, 130, 211, 257, 400, 777)
TARGETS = {"reads": 2.0, "writes": 1.0, "slices": 2.0}
WF_TARGETS = {"a": 100.0, "b": 1.5, "c": 3.0, "d": 1.3, "g": 5.0,   # issue 73
              "e": 15.0}                                               # issue 39
#: scikit-learn's array-API suite on an empty store with the portable tier (issue 73)
SUITE_TIER_TARGET = 1.5
#: the CPU that fills the portable tier of row (g): another "machine" than this one
OTHER_CPU = ("model name=cold_start's AVX2-only CPU;flags=fpu sse4_1 sse4_2 popcnt avx avx2 "
             "fma f16c bmi1 bmi2 abm movbe")
PHASES = {"import": "import, empty store", "a": "(a) first run, empty cache",
          "b": "(b) then new shape 400x20", "import_c": "import, store filled",
          "c": "(c) fresh process, store filled", "c_total": "(c) import + run",
          "d": "(d) warm repeat (median)"}


# ---- child side ---------------------------------------------------------------------------

def _runtime_module(name):
    """laxarray's runtime module ``name`` (``kernel``, ``exec_store``): in ``_core/runtime``
    since issue 72, in ``_core`` before (the versions compared may be older)."""
    try:
        return importlib.import_module(f"laxarray._core.runtime.{name}")
    except ModuleNotFoundError:
        return importlib.import_module(f"laxarray._core.{name}")


class _Monitor:
    """Counts jax.monitoring events (compilations, persistent-cache hits) in this process."""

    def __init__(self, lib, debug):
        self.events, self.lib, self.debug = collections.Counter(), lib, debug
        self.compile_s = self.trace_s = 0.0
        if lib in JAX_LIBS:
            import jax.monitoring as mon
            mon.register_event_listener(lambda name, **kw: self.events.update([name]))
            mon.register_event_duration_secs_listener(self._duration)

    def _duration(self, name, secs, **kw):
        self.events[name] += 1
        self.compile_s += secs if name.endswith("backend_compile_duration") else 0.0
        self.trace_s += secs if name.startswith("/jax/core/compile/jaxpr_") else 0.0

    def snap(self):
        n = sum(v for k, v in self.events.items() if k.endswith("backend_compile_duration"))
        hits = sum(v for k, v in self.events.items() if "cache_hits" in k)
        count = loads = load_s = None   # laxarray's own counts, on versions that have them
        if self.lib == "laxarray":
            count = getattr(_runtime_module("kernel"), "compile_count", None)
            store = _runtime_module("exec_store")
            loads = getattr(store, "load_count", None)
            load_s = getattr(store, "load_seconds", None)
        return {"compiles": n - hits, "hits": hits, "compile_s": self.compile_s,
                "trace_s": self.trace_s, "lx": count() if count else None,
                "loads": loads() if loads else None, "load_s": load_s() if load_s else None}

    def delta(self, before, wall, **extra):
        after = self.snap()
        out = {k: (after[k] - before[k] if after[k] is not None else None) for k in after}
        out.update(wall=wall, **extra)
        if self.debug:
            out["events"] = dict(self.events)
        return out


def _block(x):
    if hasattr(x, "block_until_ready"):
        x.block_until_ready()
    return x


def _child_indexing(xp, lib, mon, loop):
    import numpy as np
    a = xp.asarray(np.arange(200.0).reshape(50, 4))
    rest = (Ellipsis,) if lib == "array_api_strict" else ()   # strict wants every axis
    t0, before = time.perf_counter(), mon.snap()
    if loop == "reads":
        for i in range(50):
            for j in range(4):
                float(a[i, j])
    elif loop == "writes":
        for i in range(20):
            if lib == "jax.numpy":
                a = a.at[i].set(0.5)
            else:
                a[(i, *rest)] = 0.5
            _block(a)
    else:
        for i in range(20):
            _block(a[(slice(i, i + 2), *rest)])
    return mon.delta(before, time.perf_counter() - t0)


def _sklearn():
    import sklearn
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import StandardScaler
    sklearn.set_config(array_api_dispatch=True)
    return StandardScaler, PCA, Ridge, LDA


def _workflow(xp, n):
    import numpy as np
    StandardScaler, PCA, Ridge, LDA = _sklearn()
    rng = np.random.default_rng(0)
    Xn = rng.standard_normal((n, 20))
    yn = Xn @ rng.standard_normal(20) + 0.1 * rng.standard_normal(n)
    X, y, yc = xp.asarray(Xn), xp.asarray(yn), xp.asarray((yn > 0).astype(np.int64))
    outs = [StandardScaler().fit_transform(X), PCA(n_components=5).fit_transform(X),
            Ridge(solver="svd").fit(X, y).predict(X),
            LDA().fit(X, yc).predict(X)]
    for o in outs:
        _block(o)
    return float(outs[2][0])


def _child_workflow(xp, lib, mon, sizes):
    runs = []
    for n in sizes:
        t0, before = time.perf_counter(), mon.snap()
        _workflow(xp, n)
        runs.append(mon.delta(before, time.perf_counter() - t0, n=n))
    return {"runs": runs}


def _child_ops(xp, lib, mon, n_ops, lengths):
    import numpy as np
    from dispatch import OPS         # (imports laxarray too: see the module docstring)
    out, before = {}, mon.snap()
    for name in list(OPS)[:n_ops]:
        times = []
        for n in lengths:
            rng = np.random.default_rng(n)
            x, y = xp.asarray(rng.standard_normal(n)), xp.asarray(rng.uniform(0.5, 2.0, n))
            t0 = time.perf_counter()
            _block(OPS[name](xp, x, y))
            times.append(time.perf_counter() - t0)
        out[name] = statistics.median(times)
    return {"ops": out, **mon.delta(before, 0.0)}


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _child_memory(xp, lib, mon, count):
    import gc
    import numpy as np
    gc.collect()
    rss0, t0, before = _rss(), time.perf_counter(), mon.snap()
    for n in range(1, count + 1):
        _block(xp.asarray(np.arange(float(n))) * 2.0 + 1.0)
    wall = time.perf_counter() - t0
    gc.collect()
    return mon.delta(before, wall, rss_before=rss0, rss_after=_rss())


def _child(kind, params):
    """Run one measurement in this (fresh) process; print its JSON line."""
    t0 = time.perf_counter()
    lib = params.pop("lib")
    try:
        mon = _Monitor(lib, params.pop("debug", False))
        xp = importlib.import_module(lib)
        if kind == "workflow":
            _sklearn()
        import_s = time.perf_counter() - t0
        import warnings
        warnings.simplefilter("ignore")
        fn = {"indexing": _child_indexing, "workflow": _child_workflow,
              "ops": _child_ops, "memory": _child_memory}[kind]
        result = {"import_s": import_s, **fn(xp, lib, mon, **params)}
    except Exception:
        result = {"error": traceback.format_exc()}
    print(MARK + json.dumps(result), flush=True)


# ---- parent side --------------------------------------------------------------------------

def _env(lib, cache=None, jax_cache=False):
    """The child's environment: the parent's without its cache settings, plus ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(
        ("JAX_COMPILATION_CACHE", "JAX_PERSISTENT_CACHE", "LAXARRAY_COMPILATION_CACHE",
         "LAXARRAY_RECORD", "LAXARRAY_PREFETCH", "LAXARRAY_PORTABLE", "LAXARRAY_CPU"))}
    env.setdefault("OPENBLAS_NUM_THREADS", "1")    # see the module docstring
    env.update(SCIPY_ARRAY_API="1", JAX_ENABLE_X64="1",
               LAXARRAY_COMPILATION_CACHE=(cache if lib == "laxarray" and cache else "0"),
               LAXARRAY_PORTABLE_STORE="0")       # row (g) alone names a portable tier
    if lib == "jax.numpy" and jax_cache and cache:
        env.update(JAX_COMPILATION_CACHE_DIR=cache,
                   JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
                   JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="-1")
    return env


def spawn(kind, lib, debug, cache=None, jax_cache=False, extra_env=None, **params):
    """Run ``--child kind`` in a fresh interpreter; its result dict (``error`` on failure)."""
    params.update(lib=lib, debug=debug)
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", kind,
                           json.dumps(params)], env=dict(_env(lib, cache, jax_cache),
                                                         **(extra_env or {})),
                          capture_output=True, text=True, timeout=1800)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    if not lines:
        return {"error": f"child exited {proc.returncode}:\n{proc.stderr[-3000:]}"}
    result = json.loads(lines[-1][len(MARK):])
    if debug:
        events = result.get("events") or (result.get("runs") or [{}])[-1].get("events", {})
        print(f"  [debug] {kind} {lib}: {json.dumps(events, sort_keys=True)}")
    return result


def spawn_warm(kind, lib, debug, cache, **params):
    """A cache-warm child on ``cache``; for jax.numpy (whose empty-cache child ran without a
    cache) an unmeasured child with the cache on fills ``cache`` first."""
    if lib == "jax.numpy":
        spawn(kind, lib, False, cache, jax_cache=True, **params)
    return spawn(kind, lib, debug, cache, jax_cache=True, **params)


def _med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _ok(results, where):
    """The results without errors; prints the first error (laxarray: whole traceback)."""
    for e in [r["error"] for r in results if "error" in r][:1]:
        print(f"!! {where} failed: " + (e if "laxarray" in where else e.strip().splitlines()[-1]))
    return [r for r in results if "error" not in r]


def _fmt(x, width=10, scale=1e3, unit="ms"):
    return f"{'-':>{width}}" if x is None else f"{x * scale:>{width - len(unit)}.1f}{unit}"


def _int(x, width):
    return f"{'-' if x is None else int(x):>{width}}"


def _ratio(a, b):
    return None if a is None or not b else a / b


def _r(x):
    return "-" if x is None else f"{x:.2f}x"


def measure_indexing(args, mk):
    print("\n== 1. indexing loops, one fresh process each (loop time; XLA compiles and their "
          "time; laxarray kernels built; persistent-cache hits) ==")
    print(f"{'loop':<8}{'library':<18}{'empty cache':>12}{'compiles':>9}{'compile':>9}"
          f"{'lx kern':>8}{'cache warm':>12}{'compiles':>9}{'hits':>6}")
    cold = {(loop, lib): [] for loop in TARGETS for lib in LIBS}
    warm = {k: [] for k in cold}
    for loop in TARGETS:
        for _ in range(args.repeats):       # libraries interleave, so load hits all alike
            for lib in LIBS:
                d = mk()
                cold[loop, lib].append(spawn("indexing", lib, args.debug_events, d, loop=loop))
                if lib in JAX_LIBS:
                    warm[loop, lib].append(spawn_warm("indexing", lib, args.debug_events, d,
                                                      loop=loop))
    res = {}
    for (loop, lib), runs in cold.items():
        pairs = (("cold", _ok(runs, f"{loop}/{lib}")),
                 ("warm", _ok(warm[loop, lib], f"{loop}/{lib} (cache warm)")))
        r = res[loop, lib] = {f"{p}_{k}": _med(x[k] for x in rs) for p, rs in pairs
                              for k in ("wall", "compiles", "hits", "compile_s", "lx")}
        print(f"{loop:<8}{lib:<18}{_fmt(r['cold_wall'], 12)}{_int(r['cold_compiles'], 9)}"
              f"{_fmt(r['cold_compile_s'], 9)}{_int(r['cold_lx'], 8)}{_fmt(r['warm_wall'], 12)}"
              f"{_int(r['warm_compiles'], 9)}{_int(r['warm_hits'], 6)}")
    out = {}
    for loop, limit in TARGETS.items():
        lx, jn, st = (res[loop, lib] for lib in LIBS[:3])
        o = out[loop] = {"lx/jnp": _ratio(lx["cold_wall"], jn["cold_wall"]),
                         "lx/jnp warm": _ratio(lx["warm_wall"], jn["warm_wall"]),
                         "lx/strict": _ratio(lx["cold_wall"], st["cold_wall"])}
        print(f"{loop}: laxarray/jax.numpy first pass = {_r(o['lx/jnp'])} (target <= "
              f"{limit:g}x), cache warm = {_r(o['lx/jnp warm'])}; "
              f"laxarray/array_api_strict = {_r(o['lx/strict'])}")
    return {"table": {f"{k[0]}/{k[1]}": v for k, v in res.items()}, "ratios": out}


def measure_workflow(args, mk):
    R = 2 if args.quick else 5
    print(f"\n== 2. scikit-learn workflow on 500x20 (wall time; laxarray's XLA compiles, "
          f"compile and trace seconds, cache hits; medians of {args.repeats} children; R={R}) ==")
    first, second, failed = {lib: [] for lib in LIBS}, {lib: [] for lib in LIBS}, set()
    for _ in range(args.repeats):
        for lib in LIBS:
            if lib in failed:
                continue
            d = mk()
            first[lib].append(spawn("workflow", lib, args.debug_events, d, sizes=[500, 400]))
            if "error" in first[lib][-1]:
                failed.add(lib)             # said below; no point repeating
                continue
            second[lib].append(spawn_warm("workflow", lib, args.debug_events, d,
                                          sizes=[500] * (1 + R)))
    res, keys = {}, ("wall", "compiles", "hits", "compile_s", "trace_s", "lx", "loads", "load_s")
    for lib in LIBS:
        f, s = _ok(first[lib], f"workflow/{lib}"), _ok(second[lib], f"workflow/{lib} (c)")
        if not f or not s:
            res[lib] = None
            continue
        ph = {"a": [r["runs"][0] for r in f], "b": [r["runs"][1] for r in f],
              "c": [r["runs"][0] for r in s]}
        ph = {k: {m: _med(x[m] for x in v) for m in keys} for k, v in ph.items()}
        ph["d"] = {m: _med(statistics.median(x[m] for x in r["runs"][1:]) for r in s)
                   for m in keys if m not in ("lx", "loads", "load_s")}
        # the store's loader thread works while the program imports (laxarray._core.runtime.prefetch):
        # the import of a filled-store process is shown, and the sum of both
        ph["import"] = {"wall": _med(r["import_s"] for r in f)}
        ph["import_c"] = {"wall": _med(r["import_s"] for r in s)}
        ph["c_total"] = {"wall": _med(r["import_s"] + r["runs"][0]["wall"] for r in s)}
        res[lib] = ph
    lx, st, ratios = res["laxarray"], res["array_api_strict"], {}
    print(f"{'phase':<29}{'laxarray':>10}{'compiles':>9}{'compile':>8}{'trace':>7}{'hits':>6}"
          f"{'jax.numpy':>11}{'api_strict':>11}{'numpy':>11}{'lx/strict':>10}  target")
    for p, text in PHASES.items():
        cells = [_fmt((res[lib] or {}).get(p, {}).get("wall"), 11) for lib in LIBS[1:]]
        d = (lx or {}).get(p, {})
        ratios[p] = _ratio(d.get("wall"), (st or {}).get(p, {}).get("wall"))
        print(f"{text:<29}{_fmt(d.get('wall'))}{_int(d.get('compiles'), 9)}"
              f"{_fmt(d.get('compile_s'), 8, 1, 's')}{_fmt(d.get('trace_s'), 7, 1, 's')}"
              f"{_int(d.get('hits'), 6)}" + "".join(cells)
              + f"{_r(ratios[p]):>10}  " + (f"<= {WF_TARGETS[p]:g}x" if p in WF_TARGETS else ""))
    if lx:
        print(f"(a) laxarray: {_int(lx['a']['compiles'], 0)} XLA compilations (target <= 60), "
              f"{_int(lx['a']['lx'], 0)} executables built by laxarray kernels; compile: s in "
              f"backend_compile events (cache reads included), trace: s tracing + lowering")
    if res["jax.numpy"] is None:
        print("jax.numpy: scikit-learn's array_api_dispatch does not run on jax arrays "
              "(error above)")
    return {"phases": res, "ratios": ratios}


def _precompile(store, *args, extra_env=None):
    """``python -m laxarray.precompile ARGS`` into ``store``: ``(seconds, summary line)``."""
    env = dict(_env("laxarray", store), LAXARRAY_PREFETCH="0", **(extra_env or {}))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "laxarray.precompile", *args], env=env,
                          capture_output=True, text=True, timeout=7200)
    seconds = time.perf_counter() - t0
    lines = [ln.strip() for ln in proc.stderr.replace("\r", "\n").splitlines()
             if ln.startswith("laxarray.precompile")]
    if proc.returncode != 0:
        print(f"!! precompile {' '.join(args)} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    return seconds, (lines[-1] if lines else "")


def _store_size(store):
    """``(entries, bytes)`` of the executable store under ``store`` (its own count)."""
    store_class = _runtime_module("exec_store").ExecutableStore
    found = store_class(os.path.join(store, "executables")).stats()
    return found["entries"], found["bytes"]


def measure_precompiled(args, mk):
    """Rows (e) and (f): a fresh process on a store filled ahead of use -- by the built-in
    sklearn workload (other shapes than the workflow's), and by ``--from`` a file that
    a first run recorded (LAXARRAY_RECORD) -- each a copy per child, no trace of the
    program (nothing loads ahead)."""
    print(f"\n== 5. precompiled stores (scikit-learn workflow on 500x20, a fresh process; "
          f"medians of {args.repeats} children) ==")
    jobs = os.cpu_count() or 1
    filled = {"e": mk(), "f": mk()}
    secs_e, line_e = _precompile(filled["e"], "--workload", "sklearn", "--jobs", str(jobs))
    record = os.path.join(mk(), "workflow.jsonl")
    recorded = spawn("workflow", "laxarray", False, mk(), sizes=[500],
                     extra_env={"LAXARRAY_RECORD": record})
    _ok([recorded], "workflow recorded")
    secs_f, line_f = _precompile(filled["f"], "--from", record, "--jobs", str(jobs))
    tier = os.path.join(mk(), "portable")        # (g): filled on "another machine"
    secs_g, line_g = _precompile(mk(), "--from", record, "--portable", "--jobs", str(jobs),
                                 extra_env={"LAXARRAY_PORTABLE_STORE": tier,
                                            "LAXARRAY_CPU_DESCRIPTION": OTHER_CPU})
    for key, secs, line in (("e", secs_e, line_e), ("f", secs_f, line_f),
                            ("g", secs_g, line_g)):
        if key == "g":
            found = _runtime_module("exec_store").ExecutableStore(tier).stats()
            n, size = found["entries"], found["bytes"]
        else:
            n, size = _store_size(filled[key])
        print(f"({key}) precompile: {secs:.1f} s with {jobs} jobs; store {n} entries, "
              f"{size / 2**20:.1f} MB\n    {line}")
    runs = {"e": [], "f": [], "g": [], "strict": []}
    for _ in range(args.repeats):
        for key in ("e", "f"):
            d = mk()
            shutil.rmtree(d)
            shutil.copytree(filled[key], d)
            shutil.rmtree(os.path.join(d, "executables", "traces"), ignore_errors=True)
            runs[key].append(spawn("workflow", "laxarray", args.debug_events, d, sizes=[500]))
        copy = os.path.join(mk(), "portable")    # (g): this CPU, an empty store, the tier
        shutil.copytree(tier, copy)
        runs["g"].append(spawn("workflow", "laxarray", args.debug_events, mk(), sizes=[500],
                               extra_env={"LAXARRAY_PORTABLE_STORE": copy}))
        runs["strict"].append(spawn("workflow", "array_api_strict", False, None, sizes=[500]))
    res, ratios = {}, {}
    strict = _med(r["runs"][0]["wall"] for r in _ok(runs["strict"], "strict") or [])
    texts = {"e": "(e) after precompile sklearn", "f": "(f) after --from a record",
             "g": "(g) portable tier, own empty"}
    print(f"{'phase':<31}{'laxarray':>10}{'compiles':>9}{'loads':>7}{'load':>8}"
          f"{'api_strict':>11}{'lx/strict':>10}  target")
    for key, text in texts.items():
        ok = _ok(runs[key], f"precompiled ({key})")
        if not ok:
            continue
        rows = [r["runs"][0] for r in ok]
        res[key] = {m: _med(x.get(m) for x in rows)
                    for m in ("wall", "compiles", "loads", "load_s", "trace_s", "compile_s")}
        res[key]["import"] = _med(r["import_s"] for r in ok)
        ratios[key] = _ratio(res[key]["wall"], strict)
        target = f"<= {WF_TARGETS[key]:g}x" if key in WF_TARGETS else ""
        print(f"{text:<31}{_fmt(res[key]['wall'])}{_int(res[key]['compiles'], 9)}"
              f"{_int(res[key]['loads'], 7)}{_fmt(res[key]['load_s'], 8)}{_fmt(strict, 11)}"
              f"{_r(ratios[key]):>10}  {target}")
    return {"phases": res, "ratios": ratios, "strict": strict,
            "precompile_s": {"e": secs_e, "f": secs_f, "g": secs_g}}


_SUITES = {
    "conformance": ([sys.executable, "-m", "laxarray.conformance", "--namespace", "{lib}"],
                    {}),
    "sklearn": ([sys.executable, "-m", "pytest", "-p", "sklearn_plugin", "-p",
                 "no:cacheprovider", "-o", "addopts=", "--pyargs", "sklearn", "-k",
                 "array_api or array_namespace", "-q"],
                {"SKLEARN_ARRAY_NAMESPACE": "{lib}"}),
}


def measure_suites(args, mk):
    """The wall time of whole suites (one run each; they take minutes): laxarray on an empty
    store (recording its lookups), again on the store that run filled, on an empty store of
    its own with a portable tier that ``precompile --from`` the record ``--portable`` filled
    under another CPU description, and array_api_strict."""
    print("\n== 6. suites: wall time, laxarray on an empty store, a filled one, an empty one "
          "with the portable tier; array_api_strict ==")
    here = os.path.dirname(os.path.abspath(__file__))
    peers = os.path.join(os.path.dirname(here), "tests", "peers")
    res = {}
    for name, (cmd, extra) in _SUITES.items():
        if name not in args.suites.split(","):
            continue
        store, times, record = mk(), {}, os.path.join(mk(), "suite.jsonl")
        tier, tier_s = os.path.join(mk(), "portable"), None
        for label, lib in (("empty", "laxarray"), ("filled", "laxarray"),
                           ("tier", "laxarray"), ("strict", "array_api_strict")):
            env = dict(_env(lib, (store if label != "tier" else mk()) if lib == "laxarray"
                            else None), **{k: v.format(lib=lib) for k, v in extra.items()})
            env["PYTHONPATH"] = os.pathsep.join(p for p in (peers, env.get("PYTHONPATH")) if p)
            if label == "empty":
                env["LAXARRAY_RECORD"] = record
            if label == "tier":
                tier_s, line = _precompile(mk(), "--from", record, "--portable", "--jobs",
                                           str(os.cpu_count() or 1),
                                           extra_env={"LAXARRAY_PORTABLE_STORE": tier,
                                                      "LAXARRAY_CPU_DESCRIPTION": OTHER_CPU})
                print(f"  {name:<12}tier built in {tier_s:.1f} s: {line}")
                env["LAXARRAY_PORTABLE_STORE"] = tier
            t0 = time.perf_counter()
            proc = subprocess.run([c.format(lib=lib) for c in cmd], env=env,
                                  capture_output=True, text=True, timeout=7200)
            times[label] = time.perf_counter() - t0
            tail = proc.stdout.strip().splitlines()[-1:] or [""]
            print(f"  {name:<12}{label:<8}{times[label]:8.1f} s  exit {proc.returncode}  "
                  f"{tail[0][:90]}")
        n, size = _store_size(store)
        res[name] = dict(times, entries=n, mb=size / 2**20, tier_build_s=tier_s,
                         **{f"{k}_ratio": times[k] / times["strict"]
                            for k in ("empty", "filled", "tier")},
                         second_over_first=times["filled"] / times["empty"])
        print(f"  {name}: empty {res[name]['empty_ratio']:.2f}x strict, filled "
              f"{res[name]['filled_ratio']:.2f}x, portable tier {res[name]['tier_ratio']:.2f}x"
              f" (target <= {SUITE_TIER_TARGET:g}x), second/first "
              f"{res[name]['second_over_first']:.2f}; store {n} entries, {size / 2**20:.1f} MB")
    return res


def plot(res, path):
    """Where each row's time goes (import, trace and lower, compile, load, run) as stacked
    bars; needs matplotlib (``pip install -e .[bench]``)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    lx = ((res.get("workflow") or {}).get("phases") or {}).get("laxarray") or {}
    pre = (res.get("precompiled") or {}).get("phases") or {}
    # (label, the row's numbers, its import seconds: fresh-process rows only)
    imports = {"a": (lx.get("import") or {}).get("wall"),
               "c": (lx.get("import_c") or {}).get("wall")}
    rows = [(PHASES[p], lx[p], imports.get(p) or 0.0) for p in ("a", "b", "c", "d")
            if lx.get(p)]
    rows += [({"e": "(e) after precompile sklearn", "f": "(f) after --from a record",
               "g": "(g) portable tier, own store empty"}[k],
              pre[k], pre[k].get("import") or 0.0) for k in ("e", "f", "g") if pre.get(k)]
    parts = ("import", "trace + lower", "compile", "load", "run")
    colors = ("#bbbbbb", "#e6a23c", "#d9534f", "#5b9bd5", "#5cb85c")
    fig, ax = plt.subplots(figsize=(10, 0.6 * len(rows) + 1.8))
    for i, (_, d, imp) in enumerate(rows):
        trace, comp, load = (d.get("trace_s") or 0.0, d.get("compile_s") or 0.0,
                             d.get("load_s") or 0.0)
        run = max(d["wall"] - trace - comp - load, 0.0)
        left = 0.0
        for value, part, color in zip((imp, trace, comp, load, run), parts, colors):
            ax.barh(i, value * 1e3, left=left, color=color, label=part if i == 0 else None)
            left += value * 1e3
        ax.text(left + 20, i, f"{left:.0f} ms", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("ms; rows (a), (c), (e), (f) are fresh processes and include the import "
                  "(of laxarray and scikit-learn)")
    ax.set_title("laxarray, scikit-learn workflow on 500x20: where the time goes")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")


def measure_ops(args, mk):
    n_ops, lengths = (10, LENGTHS[::2]) if args.quick else (30, LENGTHS)
    print(f"\n== 3. first call of each of the first {n_ops} ops of dispatch.OPS, median over "
          f"{len(lengths)} new lengths {lengths} (one process per library, empty cache) ==")
    got = {lib: spawn("ops", lib, args.debug_events, mk(), n_ops=n_ops, lengths=list(lengths))
           for lib in JAX_LIBS}
    if len(_ok([got[lib] for lib in JAX_LIBS], "op table (laxarray / jax.numpy)")) < 2:
        return None
    print(f"{'op':<14}{'laxarray':>11}{'jax.numpy':>11}{'lx/jnp':>8}")
    ratios = {}
    for name, lx in got["laxarray"]["ops"].items():
        jn = got["jax.numpy"]["ops"][name]
        ratios[name] = lx / jn
        print(f"{name:<14}{_fmt(lx, 11)}{_fmt(jn, 11)}{lx / jn:>8.2f}")
    med, worst = statistics.median(ratios.values()), max(ratios, key=ratios.get)
    lx, jn = got["laxarray"], got["jax.numpy"]
    print(f"XLA compiles: laxarray {lx['compiles']} ({lx['compile_s']:.2f} s; kernels built "
          f"{lx['lx']}), jax.numpy {jn['compiles']} ({jn['compile_s']:.2f} s)")
    print(f"median ratio laxarray/jax.numpy = {med:.2f} (target <= 0.5); max = "
          f"{ratios[worst]:.2f} ({worst}; target: none above 1.0)")
    return {"ratios": ratios, "median": med, "max": ratios[worst], "raw": got}


def measure_memory(args, mk):
    print("\n== 4. memory: new shapes (lengths 1..N) of x * 2.0 + 1.0, one fresh process ==")
    print(f"{'library':<12}{'N':>5}{'RSS before':>12}{'after':>10}{'growth':>10}{'time':>10}"
          f"{'compiles':>9}{'compile':>9}")
    res = {}
    for lib in JAX_LIBS:
        count = 100 if args.quick and lib == "jax.numpy" else 400   # jax.numpy: ~80 ms each
        r = spawn("memory", lib, args.debug_events, mk(), count=count)
        if _ok([r], f"memory/{lib}"):
            r.update(count=count, growth_mb=(r["rss_after"] - r["rss_before"]) / 2**20)
            res[lib] = r
            print(f"{lib:<12}{count:>5}{_fmt(r['rss_before'], 12, 2**-20, 'MB')}"
                  f"{_fmt(r['rss_after'], 10, 2**-20, 'MB')}{_fmt(r['growth_mb'], 10, 1, 'MB')}"
                  f"{_fmt(r['wall'])}{r['compiles']:>9}{_fmt(r['compile_s'], 9, 1, 's')}")
    return res


def summary(res):
    print("\n== targets (issues 17, 39, 73) ==")
    ix = (res.get("indexing") or {}).get("ratios") or {}
    wf = res.get("workflow") or {"phases": {}, "ratios": {}}
    wf = dict(wf, ratios=dict(wf["ratios"], **(res.get("precompiled") or {}).get("ratios", {})))
    ops = res.get("ops") or {}
    lx = wf["phases"].get("laxarray") or {}
    rows = [(f"indexing {loop}: laxarray/jax.numpy first pass <= {limit:g}x",
             (ix.get(loop) or {}).get("lx/jnp"), limit, "x") for loop, limit in TARGETS.items()]
    rows += [(f"workflow ({p}): laxarray/array_api_strict <= {limit:g}x", wf["ratios"].get(p),
              limit, "x") for p, limit in WF_TARGETS.items()]
    rows += [("workflow (a): laxarray XLA compilations <= 60",
              (lx.get("a") or {}).get("compiles"), 60, ""),
             ("op table: median laxarray/jax.numpy <= 0.5", ops.get("median"), 0.5, "x"),
             ("op table: max laxarray/jax.numpy <= 1.0", ops.get("max"), 1.0, "x"),
             ("memory: laxarray RSS growth, 400 shapes <= 150 MB",
              ((res.get("memory") or {}).get("laxarray") or {}).get("growth_mb"), 150, "MB"),
             (f"sklearn suite, portable tier: lx/strict <= {SUITE_TIER_TARGET:g}x",
              ((res.get("suites") or {}).get("sklearn") or {}).get("tier_ratio"),
              SUITE_TIER_TARGET, "x")]
    for text, value, limit, unit in rows:
        shown = "-" if value is None else f"{value:.2f}x" if unit == "x" else f"{value:.0f}{unit}"
        verdict = "n/a" if value is None else "PASS" if value <= limit else "FAIL"
        print(f"{text:<56}{shown:>9}  {verdict}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 repeat, fewer cases")
    parser.add_argument("--repeats", type=int, default=3, help="child runs per case")
    parser.add_argument("--json", metavar="FILE", help="dump every number collected")
    parser.add_argument("--suites", default="conformance,sklearn",
                        help="the suites of the suites section (comma-separated)")
    parser.add_argument("--only", default="indexing,workflow,ops,memory,precompiled",
                        help="comma-separated sections to run (default: all but suites, "
                             "which runs scikit-learn's and the conformance suites: minutes)")
    parser.add_argument("--plot", metavar="FILE",
                        help="draw where each workflow row's time goes (needs matplotlib)")
    parser.add_argument("--debug-events", action="store_true",
                        help="print the jax.monitoring events each child saw")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "PARAMS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return _child(args.child[0], json.loads(args.child[1]))
    if args.quick:
        args.repeats = 1
    root = tempfile.mkdtemp(prefix="cold_start-")
    mk = lambda: tempfile.mkdtemp(dir=root)
    t0 = time.perf_counter()
    try:
        sections = {"indexing": measure_indexing, "workflow": measure_workflow,
                    "ops": measure_ops, "memory": measure_memory,
                    "precompiled": measure_precompiled, "suites": measure_suites}
        only = args.only.split(",")
        unknown = sorted(set(only) - set(sections))
        if unknown:
            parser.error(f"--only: expected sections among {sorted(sections)}; got {unknown}")
        res = {name: run(args, mk) for name, run in sections.items() if name in only}
    finally:
        shutil.rmtree(root, ignore_errors=True)
    summary(res)
    if args.plot:
        plot(res, args.plot)
    print(f"\n({time.perf_counter() - t0:.0f} s; {os.cpu_count()} cores; load average "
          f"{os.getloadavg()[0]:.2f} at the end)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, default=str)


if __name__ == "__main__":
    main()
