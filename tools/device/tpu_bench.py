"""laxarray on a TPU (issue 54, item 2): the benchmark table, laxarray beside jax.numpy.

On the lent TPU machine (the device tool), from the repository root, after
``source tools/device/tpu_env.sh --sklearn`` (what the machine lacks, carried as wheels)::

    python3 tools/device/accelerator_check.py --platform tpu --out DIR --only bench
    python3 tools/device/tpu_bench.py --out DIR [--scale S]     # the same, on its own

Everything is measured in ONE child process (only one process may hold a TPU, and opening
it costs about 15 s), laxarray and jax.numpy (``jax.experimental.sparse`` for sparse
matrices) on the same chip, NumPy/SciPy/scikit-learn on the host's CPUs where a row says so:

1. copy bandwidth: a jitted ``jnp.copy`` of 2**26 float32 (bytes read + written / time);
2. elementwise ``x * 2.0`` and ``tanh(x * 2 + 1) * x`` on 2**26 float32, eager and under
   ``jax.jit`` (laxarray's functions take and return laxarray Arrays there), each also as
   a fraction of the copy bandwidth;
3. ``sum`` and ``max`` of 2**26 float32;
4. float32 matmul 4096^3 at laxarray's default precision ("highest") against jax.numpy at
   ``Precision.HIGHEST``, both at the backend's default, and bfloat16; TFLOP/s;
5. ``sort`` of 10**7 float32 (and NumPy's on the host);
6. SpMV, 10**6 x 10**6 with 10**7 nonzeros: BCOO and BCSR, laxarray.sparse against
   jax.experimental.sparse, and SciPy CSR on the host;
7. dispatch latency of small eager calls (``x + 1.0`` on 100 float32, each call waited
   for; 200 dependent ``c = c + b`` waited for once), us per operation;
8. the first call on a new shape (``exp(a) + sin(a) * 2``, ``sum(a)``), ms;
9. scikit-learn (StandardScaler, PCA(svd_solver="full"), Ridge(solver="svd"),
   LinearDiscriminantAnalysis, euclidean_distances) on 10**6 x 100 float32 with
   ``array_api_dispatch=True``: laxarray on the chip against NumPy on the host, first run
   and warm, the answers compared (the outputs listed in :func:`bench_sklearn`); its
   first run again in a fresh process on the store the first child filled
   (``sklearn_fresh``), or on "a fresh machine with the portable tier" (``sklearn_tier``:
   the first child builds the portable tier under one CPU description, a second child with
   an empty store of its own and another CPU description loads from it);
10. sparse logistic regression (``sparse_regression.py``'s loss, L-BFGS), 10**6 rows x
    10**5 features, 10**7 nonzeros, times ``--scale``: laxarray BCSR on the chip against
    SciPy's L-BFGS-B on the host (float64), final losses and coefficients compared.

Times are medians of repeated calls after a first call; "compile" is the first call minus
the median (for laxarray's sparse products it includes the layout built on the host).
The ratios are laxarray's value over the peer's in the row's unit: for ms and us below 1
is faster, for GB/s and TFLOP/s above 1 is.  Nothing is asserted about a time.

Guards: every library of every row runs under its own ``try`` (a peer that is missing or
raises gives the row an error text); every group of rows has a time limit (``SIGALRM``,
:data:`ROW_SECONDS`, cut to what is left of :data:`CHILD_SECONDS`), and the repeats of a
measurement stop early when the group's time runs short.  The compile times are cold: the
child gets a fresh executable store (``LAXARRAY_COMPILATION_CACHE``), removed afterwards.

Written under DIR: ``bench.json`` (the rows, after every group), ``bench.log`` (the
child's output), ``bench.md`` (the table, also printed).  ``--dry`` runs everything on the
CPU (``JAX_PLATFORMS=cpu``, ``LAXARRAY_PLATFORM=tpu``: the TPU's dtypes) at tiny sizes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
import traceback

from _harness import BENCHMARKS, accelerator_env, run, tail

#: full sizes (on the chip), and --dry's
SIZES = {"elementwise": 2**26, "matmul": 4096, "sort": 10**7, "spmv": (10**6, 10**7),
         "small": 100, "chain_calls": 200, "new_shapes": 3, "new_shape_base": 10_003,
         "sklearn": (10**6, 100), "regression": (10**6, 10**5, 10**7), "repeats": 10}
DRY_SIZES = {"elementwise": 2**14, "matmul": 64, "sort": 10**4, "spmv": (10**3, 10**4),
             "small": 100, "chain_calls": 20, "new_shapes": 2, "new_shape_base": 1_003,
             "sklearn": (400, 8), "regression": (2_000, 300, 10**4), "repeats": 3}

#: seconds each group of rows may take on the chip (the chip compiles a program in 0.1-1 s,
#: a sort of 10**7 in 29 s; on 2026-12-06 the matmul and sort groups ran past 25 and 50 s,
#: and the workflow's first run on an empty store took 112 s, the host's about 22 s);
#: ``--groups`` splits the table over device calls; the child's whole budget, from its
#: start (the ~15 s the TPU takes to open included); the repeats of one measurement stop
#: after REPEAT_SECONDS once it has 3 runs
ROW_SECONDS = {"bench_bandwidth": 30, "bench_matmul": 60, "bench_sort": 90,
               "bench_spmv": 75, "bench_dispatch": 20, "bench_sklearn": 330,
               "bench_regression": 90, "bench_sklearn_fresh": 90, "bench_sklearn_tier": 90}
CHILD_SECONDS, REPEAT_SECONDS = 540, 2.0
DRY_ROW_SECONDS, DRY_CHILD_SECONDS, DRY_REPEAT_SECONDS = 60, 240, 0.3

#: the relative difference that counts as the same answer in float32 (outputs reduced
#: over 10**6 rows), and the least share of equal class predictions
TOL32, SAME_LABELS = 1e-3, 0.999


# ---- the parent: one child process -------------------------------------------------------------

def run_bench(out, dry, limit, env, scale=1.0, groups=None):
    """Run the child under ``limit`` seconds; ``{"rc", "seconds", "rows", "table"}`` (the
    rows as far as the child got: it saves them after every group).  ``groups``: names of
    :data:`GROUPS` to run (default all); ``sklearn_fresh`` runs in a second child on the
    first one's store, within what is left of ``limit``."""
    groups = list(DEFAULT_GROUPS if groups is None else groups)
    unknown = set(groups) - set(GROUPS)
    if unknown:
        raise ValueError(f"tpu_bench: unknown groups {sorted(unknown)}; known: {GROUPS}")
    log, result = os.path.join(out, "bench.log"), os.path.join(out, "bench.json")
    if os.path.exists(result):
        os.remove(result)
    store = tempfile.mkdtemp(prefix="tpu-bench-store-")   # cold compile times
    env = dict(env, LAXARRAY_COMPILATION_CACHE=store)
    fresh = [g for g in groups if f"bench_{g}" in {b.__name__ for b in FRESH}]
    first = [g for g in groups if g not in fresh]
    if len(fresh) > 1:
        raise ValueError(f"tpu_bench: {fresh} need stores of their own: one per run")
    tier = tempfile.mkdtemp(prefix="tpu-bench-tier-") if "sklearn_tier" in fresh else None
    env_fresh = env
    if tier is not None:      # the first child builds the tier; the second is another host
        env_fresh = dict(env, LAXARRAY_PORTABLE_STORE=tier, LAXARRAY_CPU_DESCRIPTION=HOST_B,
                         LAXARRAY_COMPILATION_CACHE=tempfile.mkdtemp(prefix="tpu-bench-own-"))
        env = dict(env, LAXARRAY_PORTABLE_BUILD="1", LAXARRAY_PORTABLE_STORE=tier,
                   LAXARRAY_CPU_DESCRIPTION=HOST_A)
        if dry:              # the CPU builds its tier for the instruction-set class
            env["XLA_FLAGS"] = " ".join((env.get("XLA_FLAGS", ""), "--xla_cpu_max_isa=AVX2"))

    def child_cmd(path, names):
        cmd = [sys.executable, os.path.abspath(__file__), "--child", path, "--scale",
               str(scale), "--groups", ",".join(names)]
        return cmd + (["--dry"] if dry else [])
    data, rc, secs = {}, 0, 0.0
    try:
        for names, path, env_child in ((first, result, env),
                                       (fresh, result + ".fresh.json", env_fresh)):
            if not names or secs >= limit - 30:
                continue
            rc_one, took = run(child_cmd(path, names), log + (".fresh" if path != result
                                                                 else ""), limit - secs,
                               env_child)
            rc, secs = rc or rc_one, secs + took
            try:
                with open(path) as f:
                    part = json.load(f)
            except (OSError, ValueError):
                continue
            if not data:
                data = part
            else:
                data.setdefault("rows", {}).update(part.get("rows", {}))
                data.setdefault("errors", {}).update(part.get("errors", {}))
                data.setdefault("meta", {}).setdefault("seconds", {}).update(
                    {f"fresh {k}": v for k, v in part.get("meta", {}).get("seconds", {}).items()})
    finally:
        for path in (store, tier, env_fresh.get("LAXARRAY_COMPILATION_CACHE")):
            if path:
                shutil.rmtree(path, ignore_errors=True)
    if data:
        with open(result, "w") as f:                   # both children's rows
            json.dump(data, f, indent=1, default=str)
    text = table(data)
    with open(os.path.join(out, "bench.md"), "w") as f:
        f.write(text + "\n")
    return {"rc": rc, "seconds": secs, "rows": data, "table": text,
            "log_tail": tail(log, 3000) if rc else ""}


# ---- the child: results, guards, timing ---------------------------------------------------------

class RowTimeout(BaseException):
    """Raised by SIGALRM when a group of rows runs past its time (a BaseException: the
    per-library guards, which catch Exception, let it through to the group's guard)."""


def _on_alarm(signum, frame):
    raise RowTimeout("ran past its time limit")


#: when the running group's time ends (time.monotonic()); read by :func:`measure`
_GROUP_END = [math.inf]
_REPEAT_SECONDS = [REPEAT_SECONDS]


class Results:
    """The rows, ``{name: {"unit", library: value, "compile ms": {...}, "note", "error"}}``,
    with ``meta`` and the groups' ``errors``; saved as JSON."""

    def __init__(self, path, meta):
        self.path = path
        self.data = {"meta": meta, "rows": {}, "errors": {}}

    def put(self, row, unit, lib, value, compile_ms=None):
        r = self.data["rows"].setdefault(row, {})
        r["unit"] = unit
        r[lib] = value
        if compile_ms is not None:
            r.setdefault("compile ms", {})[lib] = compile_ms

    def get(self, row, lib):
        return self.data["rows"].get(row, {}).get(lib)

    def note(self, row, text):
        r = self.data["rows"].setdefault(row, {})
        r["note"] = f"{r['note']}; {text}" if r.get("note") else text

    @contextlib.contextmanager
    def attempt(self, row, lib):
        """``with R.attempt(row, lib):`` an exception becomes the row's error text for that
        library (a missing peer, a function it lacks), and the next library goes on."""
        try:
            yield
        except Exception as err:  # noqa: BLE001
            self.data["rows"].setdefault(row, {}).setdefault("error", {})[lib] = (
                f"{type(err).__name__}: {err}"[:300])

    def save(self):
        with open(self.path, "w") as f:
            json.dump(self.data, f, indent=1, default=str)


def measure(fn, repeats, min_runs=3):
    """``(median ms, first-call ms)``: a first call, then up to ``repeats`` timed calls,
    each waited for; fewer once :data:`REPEAT_SECONDS` are spent (``min_runs`` made) or
    when another call would run past the group's time."""
    from _timing import median_time
    median, first = median_time(fn, repeats, budget=_REPEAT_SECONDS[0],
                                deadline=_GROUP_END[0], min_runs=min_runs)
    return median * 1e3, first * 1e3


def timed(R, row, unit, lib, fn, repeats, convert=None, min_runs=3):
    """Measure ``fn`` into ``row`` for ``lib`` (``convert``: ms to the row's unit), with
    its compile time (first call minus median); the median ms, or None where it raised
    (the error goes to the row)."""
    with R.attempt(row, lib):
        ms, first = measure(fn, repeats, min_runs)
        R.put(row, unit, lib, convert(ms) if convert else ms, max(first - ms, 0.0))
        return ms
    return None


def _rel(a, b):
    """max |a - b| / max |b| on the host, in float64."""
    import numpy as np
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30))


def _to_jax(host):
    import jax
    return jax.device_put(host)


# ---- the rows --------------------------------------------------------------------------------

def bench_bandwidth(S, R):
    """Copy bandwidth; ``x * 2.0`` and the chain, eager and jitted; ``sum``, ``max``."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    import laxarray as la
    n, reps = S["elementwise"], S["repeats"]
    host = np.random.default_rng(1).random(n, dtype=np.float32)
    xj, xl = _to_jax(host), la.asarray(host)
    moved = 2 * host.nbytes                        # bytes read + written by one pass
    row = f"copy bandwidth, {n} float32"
    copy = jax.jit(jnp.copy)
    timed(R, row, "GB/s", "jax", lambda: copy(xj), reps, lambda ms: moved / ms / 1e6)
    R.note(row, "jax: jax.jit(jnp.copy), the reference (laxarray's asarray(copy=True) "
                "is a new handle on the same immutable buffer: no pass to time)")
    bandwidth = R.get(row, "jax")

    def share(row, nbytes):
        """The row's bytes / time as a fraction of the copy bandwidth."""
        parts = [f"{lib} {nbytes / R.get(row, lib) / 1e6 / bandwidth:.2f}"
                 for lib in ("laxarray", "jax") if bandwidth and R.get(row, lib)]
        if parts:
            R.note(row, "of copy bandwidth: " + ", ".join(parts))

    single = {"laxarray": lambda v: v * 2.0, "jax": lambda v: v * 2.0}
    chain = {"laxarray": lambda v: la.tanh(v * 2.0 + 1.0) * v,
             "jax": lambda v: jnp.tanh(v * 2.0 + 1.0) * v}
    for label, fns in (("x * 2.0", single), ("tanh(x * 2 + 1) * x", chain)):
        for how in ("eager", "jax.jit"):
            row = f"{label}, {how}"
            for lib, x in (("laxarray", xl), ("jax", xj)):
                fn = fns[lib] if how == "eager" else jax.jit(fns[lib])
                timed(R, row, "ms", lib, lambda fn=fn, x=x: fn(x), reps)
            share(row, moved)
    for name in ("sum", "max"):
        row = f"{name}, {n} float32"
        timed(R, row, "ms", "laxarray", lambda name=name: getattr(la, name)(xl), reps)
        timed(R, row, "ms", "jax", lambda name=name: getattr(jnp, name)(xj), reps)
        share(row, host.nbytes)
        with R.attempt(row, "check"):
            diff = _rel(getattr(la, name)(xl), getattr(jnp, name)(xj))
            R.note(row, f"laxarray vs jax: relative difference {diff:.1e}")


def bench_matmul(S, R):
    """float32 at "highest" and at the backend's default, bfloat16; TFLOP/s; the float32
    products' error on a few rows against the host's float64 product."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    import laxarray as la
    n, reps = S["matmul"], S["repeats"]
    rng = np.random.default_rng(2)
    a32, b32 = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    al, bl, aj, bj = la.asarray(a32), la.asarray(b32), _to_jax(a32), _to_jax(b32)
    k = min(n, 256)
    want = a32[:k].astype(np.float64) @ b32.astype(np.float64)

    def tflops(ms):
        return 2 * n ** 3 / ms / 1e9
    highest = jax.lax.Precision.HIGHEST
    row = f"matmul float32 {n}^3, highest"
    timed(R, row, "TFLOP/s", "laxarray", lambda: al @ bl, reps, tflops)
    timed(R, row, "TFLOP/s", "jax", lambda: jnp.matmul(aj, bj, precision=highest), reps,
          tflops)
    with R.attempt(row, "check"):
        R.note(row, f"laxarray's default: {la.get_matmul_precision()}; error vs float64: "
               f"laxarray {_rel(al[:k] @ bl, want):.1e}, "
               f"jax {_rel(jnp.matmul(aj[:k], bj, precision=highest), want):.1e}")
    row = f"matmul float32 {n}^3, backend default"
    err_la = float("nan")
    with la.matmul_precision("default"):
        timed(R, row, "TFLOP/s", "laxarray", lambda: al @ bl, reps, tflops)
        with R.attempt(row, "check"):
            err_la = _rel(al[:k] @ bl, want)
    timed(R, row, "TFLOP/s", "jax", lambda: aj @ bj, reps, tflops)
    with R.attempt(row, "check"):
        R.note(row, f"laxarray under matmul_precision('default'); error vs float64: "
               f"laxarray {err_la:.1e}, jax {_rel(aj[:k] @ bj, want):.1e}")
    row = f"matmul bfloat16 {n}^3"
    with R.attempt(row, "laxarray"):
        cl, dl = la.astype(al, la.bfloat16), la.astype(bl, la.bfloat16)
        timed(R, row, "TFLOP/s", "laxarray", lambda: cl @ dl, reps, tflops)
    cj, dj = aj.astype(jnp.bfloat16), bj.astype(jnp.bfloat16)
    timed(R, row, "TFLOP/s", "jax", lambda: cj @ dj, reps, tflops)


def bench_sort(S, R):
    """``sort`` of 10**7 float32 on the chip, NumPy's on the host; the answer checked."""
    import jax.numpy as jnp
    import numpy as np
    import laxarray as la
    host = np.random.default_rng(3).random(S["sort"], dtype=np.float32)
    xl, xj = la.asarray(host), _to_jax(host)
    row = f"sort, {S['sort']} float32"
    timed(R, row, "ms", "laxarray", lambda: la.sort(xl), S["repeats"])
    timed(R, row, "ms", "jax", lambda: jnp.sort(xj), S["repeats"])
    timed(R, row, "ms", "host", lambda: np.sort(host), S["repeats"])
    with R.attempt(row, "check"):
        same = bool(np.array_equal(np.asarray(la.sort(xl)), np.sort(host)))
        R.note(row, f"laxarray == NumPy: {same}; laxarray's host sort: {la.get_host_sort()}")


def bench_spmv(S, R):
    """``A @ x``: laxarray.sparse and jax.experimental.sparse BCOO and BCSR on the chip,
    SciPy CSR on the host; the answers against SciPy's."""
    import numpy as np
    import laxarray as la
    import laxarray.sparse as lsp
    from _matrices import uniform_csr
    n, nnz = S["spmv"]
    rng = np.random.default_rng(4)
    m = uniform_csr(n, nnz, rng).astype(np.float32)
    v = rng.standard_normal(n).astype(np.float32)
    want = m @ v
    vl, vj = la.asarray(v), _to_jax(v)
    for fmt in ("BCOO", "BCSR"):
        row = f"SpMV {fmt}, {n} x {n}, {m.nnz} nonzeros"
        with R.attempt(row, "laxarray"):
            A = getattr(lsp, fmt).from_scipy_sparse(m)
            timed(R, row, "ms", "laxarray", lambda A=A: A @ vl, S["repeats"])
            R.note(row, f"laxarray vs SciPy {_rel(A @ vl, want):.1e}")
        with R.attempt(row, "jax"):
            from jax.experimental import sparse as jsp
            B = getattr(jsp, fmt).from_scipy_sparse(m)
            timed(R, row, "ms", "jax", lambda B=B: B @ vj, S["repeats"])
            R.note(row, f"jax.experimental.sparse vs SciPy {_rel(B @ vj, want):.1e}")
        timed(R, row, "ms", "host", lambda: m @ v, S["repeats"])
        R.note(row, "host: SciPy CSR")
    _spmv_prototypes(S, R, m, v, want)


def _spmv_prototypes(S, R, m, v, want):
    """Other layouts of the same product, written in jax for the design (issue 54: on the
    chip laxarray's SpMV, a gather and a scatter-add, was 5x SciPy on one core): the gather
    alone, a segment sum over sorted rows, and ELL (rows padded to the longest: a gather
    and a dense row sum, no scatter)."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    n = m.shape[0]
    lengths = np.diff(m.indptr)
    k = int(lengths.max())
    slot = np.arange(m.nnz) - np.repeat(m.indptr[:-1], lengths)
    rows = np.repeat(np.arange(n), lengths)
    ell_data = np.zeros((n, k), np.float32)
    ell_cols = np.zeros((n, k), np.int32)
    ell_data[rows, slot], ell_cols[rows, slot] = m.data, m.indices
    put = _to_jax
    cols, data, rws, x = put(m.indices.astype(np.int32)), put(m.data), put(rows.astype(np.int32)), put(v)
    ed, ec = put(ell_data), put(ell_cols)
    order = np.argsort(m.indices, kind="stable")
    sorted_cols = put(m.indices[order].astype(np.int32))
    perm = put(order.astype(np.int32))
    cases = {
        "gather x[cols] alone": (jax.jit(lambda c, x: x[c]), (cols, x), None),
        # the same gather with the indices sorted (column order): does locality help the
        # chip's gather?  and the permutation that would take products back to row order
        "gather x[cols], columns sorted": (jax.jit(lambda c, x: x[c]), (sorted_cols, x), None),
        "permute the products (random order)": (jax.jit(lambda p, d: d[p]), (perm, data), None),
        "segment sum, rows unsorted": (jax.jit(lambda d, c, r, x: jax.ops.segment_sum(
            d * x[c], r, num_segments=n)), (data, cols, rws, x), want),
        "segment sum, sorted rows": (jax.jit(lambda d, c, r, x: jax.ops.segment_sum(
            d * x[c], r, num_segments=n, indices_are_sorted=True)), (data, cols, rws, x), want),
        f"ELL, rows padded to {k}": (jax.jit(lambda d, c, x: jnp.sum(d * x[c], axis=1)),
                                     (ed, ec, x), want),
    }
    for label, (fn, args, check) in cases.items():
        row = f"SpMV prototype: {label}"
        with R.attempt(row, "jax"):
            timed(R, row, "ms", "jax", lambda fn=fn, args=args: fn(*args), S["repeats"])
            if check is not None:
                R.note(row, f"vs SciPy {_rel(fn(*args), check):.1e}")
        R.note(row, f"{m.nnz} nonzeros; jax.numpy, for the design, not a peer")


def bench_dispatch(S, R):
    """Small eager calls (us per operation) and the first call on new shapes (ms)."""
    import jax.numpy as jnp
    import numpy as np
    import laxarray as la
    from _timing import block
    small = np.random.default_rng(5).standard_normal(S["small"]).astype(np.float32)
    calls = S["chain_calls"]
    libs = {"laxarray": (la, la.asarray), "jax": (jnp, _to_jax)}
    row1 = f"x + 1.0, {S['small']} float32, each call waited for"
    row2 = f"{calls} dependent c = c + b, waited for once"
    for lib, (_, put) in libs.items():
        x, b = put(small), put(small)
        timed(R, row1, "us/op", lib, lambda: x + 1.0, calls, lambda ms: ms * 1e3)

        def chain():
            c = x
            for _ in range(calls):
                c = c + b
            return c
        timed(R, row2, "us/op", lib, chain, S["repeats"], lambda ms: ms * 1e3 / calls)
    # the floor: one compiled XLA executable called directly (jaxlib's dispatch and the
    # device's own time); what a library adds is its row less this one
    import jax
    x, b = _to_jax(small), _to_jax(small)
    plus_one = jax.jit(lambda v: v + 1.0).lower(x).compile()
    add = jax.jit(lambda u, v: u + v).lower(x, b).compile()
    timed(R, row1, "us/op", "xla executable", lambda: plus_one(x), calls,
          lambda ms: ms * 1e3)

    def floor_chain():
        c = x
        for _ in range(calls):
            c = add(c, b)
        return c
    timed(R, row2, "us/op", "xla executable", floor_chain, S["repeats"],
          lambda ms: ms * 1e3 / calls)
    for row in (row1, row2):
        R.note(row, "xla executable: a compiled jax executable called directly (the floor)")
    for label, op in (("exp(a) + sin(a) * 2", lambda xp, a: xp.exp(a) + xp.sin(a) * 2.0),
                      ("sum(a)", lambda xp, a: xp.sum(a))):
        row = f"first call on a new shape: {label}"
        for lib, (xp, put) in libs.items():
            with R.attempt(row, lib):
                firsts = []
                for k in range(S["new_shapes"]):
                    a = block(put(np.ones(S["new_shape_base"] + 7 * k, np.float32)))
                    t0 = time.perf_counter()
                    block(op(xp, a))
                    firsts.append((time.perf_counter() - t0) * 1e3)
                R.put(row, "ms", lib, statistics.median(firsts))
        R.note(row, f"median of {S['new_shapes']} lengths from {S['new_shape_base']}, "
                    "an empty executable store")


def _sklearn_problem(S):
    """The workflow's data (NumPy, float32) and the workflow itself, or ``None`` without
    scikit-learn."""
    import numpy as np
    try:
        import sklearn
        from sklearn.decomposition import PCA
        from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
        from sklearn.linear_model import Ridge
        from sklearn.metrics.pairwise import euclidean_distances
        from sklearn.preprocessing import StandardScaler
    except ImportError:
        return None
    n, d = S["sklearn"]
    rng = np.random.default_rng(6)
    # distinct column scales: PCA's leading components are well determined
    Xn = (rng.standard_normal((n, d)) * np.linspace(0.5, 3.0, d)).astype(np.float32)
    yn = (Xn @ rng.standard_normal(d) + 0.1 * rng.standard_normal(n)).astype(np.float32)
    cn = (yn > 0).astype(np.int32)
    k1, k2 = min(n, 1000), min(n, 10_000)

    def workflow(X, y, c):
        with sklearn.config_context(array_api_dispatch=True):
            scaler = StandardScaler().fit(X)
            pca = PCA(n_components=5, svd_solver="full").fit(X)
            ridge = Ridge(solver="svd").fit(X, y)
            lda = LinearDiscriminantAnalysis().fit(X, c)
            return {"transformed": scaler.transform(X), "projected": pca.transform(X),
                    "predicted": ridge.predict(X), "mean_": scaler.mean_,
                    "scale_": scaler.scale_, "explained_variance_": pca.explained_variance_,
                    "components_": pca.components_, "coef_": ridge.coef_,
                    "intercept_": ridge.intercept_, "lda coef_": lda.coef_,
                    "lda predict": lda.predict(X),
                    "euclidean_distances": euclidean_distances(X[:k1], X[:k2])}
    return (Xn, yn, cn), workflow


def bench_sklearn(S, R):
    """The workflow on NumPy (the host) and on laxarray (the chip), first run (an empty
    store: every kernel compiles) and warm.  Compared: StandardScaler mean_ and scale_, PCA
    explained_variance_ and components_ (each sign-aligned to the host's), Ridge coef_ and
    intercept_, LDA coef_, euclidean_distances (all within TOL32 of the host's, relative to
    their largest entry), and the share of equal LDA predictions (at least SAME_LABELS)."""
    import numpy as np
    import laxarray as la
    from laxarray._core.runtime import kernel
    row_warm, row_first = "scikit-learn workflow, warm", "scikit-learn workflow, first run"
    problem = _sklearn_problem(S)
    if problem is None:
        R.note(row_warm, "scikit-learn absent")
        return
    host_args, workflow = problem
    R.note(row_first, f"{S['sklearn'][0]} x {S['sklearn'][1]} float32")
    chip_args = tuple(la.asarray(a) for a in host_args)
    last = {}                  # each library's last answers, for the check (no extra runs)

    def run(lib, args):
        last[lib] = workflow(*args)
        return last[lib]
    for lib, args in (("host", host_args), ("laxarray", chip_args)):
        with R.attempt(row_warm, lib):
            before = kernel.compile_count()
            # the host's ~22 s runs: one timed after the first (its compile-free first run)
            ms, first = measure(lambda lib=lib, args=args: run(lib, args), 3,
                                min_runs=1 if lib == "host" else 2)
            R.put(row_warm, "ms", lib, ms, max(first - ms, 0.0))
            R.put(row_first, "ms", lib, first)
            if lib == "laxarray":
                built = kernel.compile_count() - before
                R.data["rows"][row_first]["built"] = built
                R.note(row_first, f"laxarray compiled {built} kernels")
    with R.attempt(row_warm, "check"):
        got, want = last["laxarray"], last["host"]
        diffs = {}
        for key in ("mean_", "scale_", "explained_variance_", "coef_", "lda coef_",
                    "euclidean_distances"):
            diffs[key] = _rel(got[key], want[key])
        # Ridge's intercept is mean(y) - mean(X) @ coef_, terms about 10**4 times the
        # difference at these sizes (9e-6 from 0.09 at 10**6 x 100): its float32 error is
        # relative to the terms, not to itself
        X64, y64 = (np.asarray(a, np.float64) for a in host_args[:2])
        terms = abs(float(y64.mean())) + float(np.sum(np.abs(X64.mean(0) * want["coef_"])))
        diffs["intercept_ (of its terms)"] = float(
            abs(float(got["intercept_"]) - float(want["intercept_"])) / terms)
        comps, ref = np.asarray(got["components_"], np.float64), want["components_"]
        signs = np.sign(np.sum(comps * ref, axis=1, keepdims=True))
        diffs["components_"] = _rel(comps * signs, ref)
        same = float(np.mean(np.asarray(got["lda predict"]) == want["lda predict"]))
        worst = max(diffs, key=diffs.get)
        ok = diffs[worst] <= TOL32 and same >= SAME_LABELS
        R.note(row_warm, f"answers {'agree' if ok else 'DIFFER'}: worst {worst} "
                         f"{diffs[worst]:.1e} (tolerance {TOL32:g}), LDA predictions equal "
                         f"{same:.4f}")
        R.data["rows"][row_warm]["answers"] = {**diffs, "lda predict equal": same}


def bench_sklearn_fresh(S, R):
    """The workflow's first run in a fresh process on the store :func:`bench_sklearn`
    filled (a second child, the same store): what a user's second script pays."""
    _first_run(S, R, "scikit-learn workflow, first run in a fresh process on a filled store")


def bench_sklearn_tier(S, R):
    """The workflow's first run on "a fresh machine with the portable tier installed": a
    second child whose own store is empty and whose CPU is described otherwise
    (``HOST_B``) than the first child's, which built the tier (``HOST_A``)."""
    _first_run(S, R, "scikit-learn workflow, first run on a fresh machine with the "
                     "portable tier")


#: the CPU descriptions of the two "hosts" of ``sklearn_tier`` (x86-64-v3 flags: the
#: --dry run's CPU tier needs the class; a TPU's tier keys by the chip, not the host)
_V3 = "fpu sse4_1 sse4_2 popcnt avx avx2 fma f16c bmi1 bmi2 abm movbe"
HOST_A = f"model name=bench host A (AVX2);flags={_V3}"
HOST_B = f"model name=bench host B (AVX-512);flags={_V3} avx512f avx512bw"


def _first_run(S, R, row):
    """One first run of the workflow in this (fresh) process, with what it loaded (from
    the store, from a portable tier) and compiled."""
    import laxarray as la
    from laxarray._core.runtime import exec_store, kernel, prefetch
    problem = _sklearn_problem(S)
    if problem is None:
        R.note(row, "scikit-learn absent")
        return
    host_args, workflow = problem
    with R.attempt(row, "laxarray"):
        args = tuple(la.asarray(a) for a in host_args)
        from _timing import block
        built, loaded = kernel.compile_count(), kernel.load_count()
        t0 = time.perf_counter()
        block(workflow(*args))
        R.put(row, "ms", "laxarray", (time.perf_counter() - t0) * 1e3)
        loaded = kernel.load_count() - loaded
        compiled = kernel.compile_count() - built - loaded
        tier, ahead = exec_store.portable_load_count(), prefetch.loaded_ahead()
        R.data["rows"][row].update(loaded=loaded, compiled=compiled, from_tier=tier,
                                   ahead=ahead)
        R.note(row, f"kernels loaded {loaded} ({ahead} of them ahead, by the loader thread "
                    f"from the program's trace; {tier} on demand from a portable tier), "
                    f"compiled {compiled}")


def bench_regression(S, R):
    """Sparse L2-regularised logistic regression: one loss+gradient, and the L-BFGS fit;
    laxarray BCSR (closed over, as sparse_regression.py's fastest case) on the chip,
    jax.experimental.sparse BCOO (loss+gradient), SciPy on the host in float64."""
    import jax
    import numpy as np
    import scipy.optimize as sopt
    import scipy.sparse as sps
    import laxarray as la
    import laxarray.sparse as lsp
    from laxarray.optimize import minimize
    import sparse_regression as sr
    n, d, nnz = (max(10, int(v * S["scale"])) for v in S["regression"])
    gtol, maxiter = 1e-5, 500
    rng = np.random.default_rng(7)
    a = sps.csr_array((rng.standard_normal(nnz).astype(np.float32),
                       (rng.integers(0, n, nnz), rng.integers(0, d, nnz))), shape=(n, d))
    a.sum_duplicates()
    z = a @ rng.standard_normal(d).astype(np.float32)
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    a64, y64 = a.astype(np.float64), y.astype(np.float64)
    f_host = sr.scipy_loss_and_grad(a64, y64)
    size = f"{n} x {d}, {a.nnz} nonzeros"
    row = f"logistic loss + gradient, {size}"
    p = (0.1 * rng.standard_normal(d + 1)).astype(np.float32)
    p64 = p.astype(np.float64)
    X = lsp.BCSR.from_scipy_sparse(a)
    yl = la.asarray(y)
    with R.attempt(row, "laxarray"):
        vg = sr.ours_value_and_grad(X)
        pl = _to_jax(p)
        timed(R, row, "ms", "laxarray", lambda: vg(pl, None, yl), S["repeats"])
        R.note(row, f"loss laxarray vs SciPy {_rel(vg(pl, None, yl)[0], f_host(p64)[0]):.1e}")
    with R.attempt(row, "jax"):
        from jax.experimental import sparse as jsp
        B, yj, pj = jsp.BCOO.from_scipy_sparse(a), _to_jax(y), _to_jax(p)
        jvg = jax.jit(jax.value_and_grad(sr.jnp_loss))
        timed(R, row, "ms", "jax", lambda: jvg(pj, B, yj), S["repeats"])
    timed(R, row, "ms", "host", lambda: f_host(p64), S["repeats"])
    R.note(row, "laxarray BCSR, jax.experimental.sparse BCOO, host SciPy float64")

    row = f"logistic regression L-BFGS fit, {size}"
    options = {"gtol": gtol, "maxiter": maxiter}

    def host_fit():
        return sopt.minimize(f_host, np.zeros(d + 1), jac=True, method="L-BFGS-B",
                             options=options)
    fit = jax.jit(lambda y: minimize(lambda w: sr.xp_loss(w, X, y),
                                     la.zeros(d + 1, dtype=la.float32), method="L-BFGS",
                                     options=options))
    timed(R, row, "ms", "laxarray", lambda: fit(yl), 3, min_runs=1)
    timed(R, row, "ms", "host", host_fit, 3, min_runs=1)
    with R.attempt(row, "check"):
        ours, theirs = fit(yl), host_fit()
        w = np.asarray(ours.x, np.float64)
        loss_ours, loss_host = f_host(w)[0], f_host(theirs.x)[0]
        dloss = abs(loss_ours - loss_host) / abs(loss_host)
        dw = _rel(w, theirs.x)
        ok = dloss <= 1e-4 and dw <= 1e-2
        R.note(row, f"answers {'agree' if ok else 'DIFFER'}: final loss (float64, the same "
                    f"function) rel diff {dloss:.1e} (tolerance 1e-4), coefficients {dw:.1e} "
                    f"(1e-2); nit laxarray {int(ours.nit)} (status {int(ours.status)}), "
                    f"SciPy {theirs.nit}; gtol {gtol:g}, L2 {sr.LAM:g}")


BENCHES = (bench_bandwidth, bench_matmul, bench_sort, bench_spmv, bench_dispatch,
           bench_sklearn, bench_regression)
#: run by a second child on the first one's store (after it, when bench_sklearn ran)
FRESH = (bench_sklearn_fresh, bench_sklearn_tier)
GROUPS = tuple(b.__name__[len("bench_"):] for b in BENCHES + FRESH)
#: what a run without ``--groups`` measures (``sklearn_tier`` replaces ``sklearn_fresh``
#: where asked for: the first child then fills the tier, not the machine's store)
DEFAULT_GROUPS = tuple(g for g in GROUPS if g != "sklearn_tier")


def environment():
    import importlib.metadata
    import jax
    import laxarray as la
    info = {"python": sys.version.split()[0]}
    for name in ("jax", "jaxlib", "libtpu", "numpy", "scipy", "scikit-learn"):
        try:
            info[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            info[name] = "absent"
    dev = jax.devices()[0]
    info["device"] = f"{dev.platform} {getattr(dev, 'device_kind', '')} x{len(jax.devices())}"
    info["laxarray dtypes"] = ",".join(la.__array_namespace_info__().dtypes())
    info["LAXARRAY_PLATFORM"] = os.environ.get("LAXARRAY_PLATFORM", "")
    return info


def child(path, dry, scale, groups):
    start = time.monotonic()
    deadline = start + (DRY_CHILD_SECONDS if dry else CHILD_SECONDS)
    sys.path.insert(0, BENCHMARKS)      # the timing helpers and sparse_regression
    S = dict(DRY_SIZES if dry else SIZES, scale=scale)
    _REPEAT_SECONDS[0] = DRY_REPEAT_SECONDS if dry else REPEAT_SECONDS
    R = Results(path, {"dry": dry, "scale": scale, "sizes": S, "seconds": {}})
    t0 = time.monotonic()
    R.data["meta"].update(environment())                 # opens the device
    R.data["meta"]["seconds"]["open"] = round(time.monotonic() - t0, 1)
    R.save()
    signal.signal(signal.SIGALRM, _on_alarm)
    for bench in BENCHES + FRESH:
        name = bench.__name__
        if name[len("bench_"):] not in groups:
            continue
        left = deadline - time.monotonic() - 5
        secs = min(DRY_ROW_SECONDS if dry else ROW_SECONDS[name], left)
        if secs < 5:
            R.data["errors"][name] = f"skipped: {left:.0f} s left of the child's budget"
            continue
        print(f"{name} (at most {secs:.0f} s)", flush=True)
        t0 = time.monotonic()
        _GROUP_END[0] = t0 + secs
        signal.alarm(math.ceil(secs))
        try:
            bench(S, R)
        except (Exception, RowTimeout):  # noqa: BLE001  (the other groups go on)
            signal.alarm(0)
            R.data["errors"][name] = traceback.format_exc()[-800:]
        finally:
            signal.alarm(0)
        R.data["meta"]["seconds"][name] = round(time.monotonic() - t0, 1)
        R.save()
    R.data["meta"]["seconds"]["child"] = round(time.monotonic() - start, 1)
    R.save()
    print(table(R.data), flush=True)


# ---- the table ---------------------------------------------------------------------------------

def _fmt(v):
    if v is None:
        return ""
    return f"{v:.3g}" if isinstance(v, float) else str(v)


def _ratio(a, b):
    return f"{a / b:.2f}" if isinstance(a, float) and isinstance(b, float) and b else ""


def table(data):
    """The markdown table of the child's JSON (what there is of it)."""
    meta, rows = data.get("meta", {}), data.get("rows", {})
    lines = ["laxarray on " + str(meta.get("device", "?"))
             + (" (--dry: the CPU, tiny sizes)" if meta.get("dry") else "")
             + f"; jax {meta.get('jax', '?')}, libtpu {meta.get('libtpu', '?')}, "
             f"scikit-learn {meta.get('scikit-learn', '?')}; seconds {meta.get('seconds', {})}",
             "", "la/jax, la/host: laxarray's value over the peer's (ms, us: below 1 is "
             "faster; GB/s, TFLOP/s: above 1 is). jax: jax.numpy, jax.experimental.sparse; "
             "host: NumPy, SciPy, scikit-learn on the host's CPUs.", "",
             "| row | unit | laxarray | jax | host | la/jax | la/host | compile ms la / jax "
             "| notes |", "|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        la, jx, host = r.get("laxarray"), r.get("jax"), r.get("host")
        comp = r.get("compile ms", {})
        compile_cell = " / ".join(_fmt(comp.get(k)) or "-" for k in ("laxarray", "jax")
                                  ) if comp else ""
        known = ("laxarray", "jax", "host", "unit", "note", "error", "compile ms")
        notes = ([r.get("note", "")] + [f"{k}: {_fmt(v)}" for k, v in r.items() if k not in known]
                 + [f"{k}: {v}" for k, v in r.get("error", {}).items()])
        lines.append(f"| {name} | {r.get('unit', '')} | {_fmt(la)} | {_fmt(jx)} | "
                     f"{_fmt(host)} | {_ratio(la, jx)} | {_ratio(la, host)} | {compile_cell} "
                     f"| {'; '.join(n for n in notes if n).replace('|', '/')} |")
    for name, text in data.get("errors", {}).items():
        last = text.strip().splitlines()[-1] if text.strip() else ""
        lines.append(f"\nerror in {name}: {last}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="directory for the results (made if missing)")
    ap.add_argument("--dry", action="store_true", help="on the CPU, tiny sizes")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="the sparse regression's rows, features and nonzeros times this")
    ap.add_argument("--limit", type=float, default=600, help="seconds for the child")
    ap.add_argument("--groups", default=",".join(DEFAULT_GROUPS),
                    help="comma-separated groups of rows (default all): " + ", ".join(GROUPS))
    ap.add_argument("--child", metavar="JSON", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    groups = [g for g in args.groups.split(",") if g]
    if args.child:
        child(args.child, args.dry, args.scale, groups)
        return 0
    if not args.out:
        ap.error("--out DIR is required")
    os.makedirs(args.out, exist_ok=True)
    result = run_bench(args.out, args.dry, args.limit, accelerator_env("tpu", args.dry), args.scale,
                       groups)
    print(f"rc {result['rc']}, {result['seconds']} s")
    print(result["table"])
    if result["log_tail"]:
        print("log tail:\n" + result["log_tail"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
