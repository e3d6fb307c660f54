"""Sorting, selection and counting: laxarray vs NumPy vs jax.numpy, eager and jitted.

Every operation of issue 20 (sort, argsort, median, quantile, percentile, nanmedian,
nanquantile, partition, argpartition, the unique_* family, searchsorted, isin, histogram,
histogram2d, histogramdd, bincount, digitize) plus cumulative_sum, take, boolean-mask
indexing, nonzero, where, clip and round, on float64 (rounded normal values: ties, signed
zeros and one NaN per thousand) and int64 (values in [0, n/10): ties) at each size.
The three libraries are timed round-robin (median of the repeats, one call of each per
round, so load from other processes hits them alike); "first" is the first call minus the
median: trace + XLA compile for the jax-based libraries, measured in this fresh process
with laxarray's persistent compile cache off.  Jitted: ``jax.jit`` of the call with the
array as argument (data-dependent shapes get ``size=``; boolean masks have no jitted form).

    .venv/bin/python benchmarks/order_stats.py [--sizes 1e5,1e6,1e7] [--dtypes float64,int64]
                                               [--only sort,median] [--repeats 5] [--no-jit]
                                               [--cold [--cold-repeats 3]]

Prints one table per size and dtype and, at the end, the median ratios to NumPy and to
jax.numpy per operation.

``--cold`` measures instead what a user's first call of an operation costs: every
(operation, library, mode, dtype) runs in its own fresh process (``--child``), which warms
its library up on five elements (as the main run does), then times the operation's first
call and three more; cold compile = first - median of those, median over ``--cold-repeats``
processes, at the first of ``--sizes``.  (In one process the "first" column flatters
jax.numpy: its eager operations are small cached primitives, so an operation whose
primitives an earlier case compiled pays nothing.)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time

os.environ.setdefault("LAXARRAY_COMPILATION_CACHE", "0")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import laxarray as lx  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from _timing import block, round_robin  # noqa: E402

Q = [0.1, 0.5, 0.9]


def _data(n, dtype, rng):
    if dtype == "float64":
        x = np.round(rng.standard_normal(n), 2)
        x[::1000] = np.nan
        x[1::997] = -0.0
        return x
    return rng.integers(0, max(n // 10, 2), n)


def _aux(x, rng):
    n = x.size
    finite = np.nan_to_num(x, nan=0.0)
    return {"sorted": np.sort(x), "test": x[rng.integers(0, n, max(n // 10, 1))],
            "idx": rng.integers(0, n, max(n // 10, 1)),
            "y": finite[::-1].copy(), "xyz": np.stack([finite, finite[::-1],
                                                        np.roll(finite, 1)], 1),
            "bins": np.linspace(-3, 3, 101) if x.dtype.kind == "f"
            else np.linspace(0, max(n // 10, 2), 101),
            "nonneg": np.abs(finite).astype(np.int64),
            "length": int(np.abs(finite).astype(np.int64).max()) + 1}


def _unique(name):
    """unique_* of each library: (eager, jitted with size=)."""
    def run(ns, a, aux, jit):
        fn = getattr(ns, name)
        if not jit:
            return fn(a)
        if ns is lx:
            return fn(a, size=a.shape[0])
        kw = {"unique_values": {}, "unique_counts": {"return_counts": True},
              "unique_inverse": {"return_inverse": True},
              "unique_all": {"return_index": True, "return_inverse": True,
                             "return_counts": True}}[name]
        return jnp.unique(a, size=a.shape[0], equal_nan=False, **kw)
    return run


#: name -> (function(ns, x, aux, jit) -> result, dtypes it applies to, has a jitted form)
CASES = {
    "sort": (lambda ns, x, a, j: ns.sort(x), "fi", True),
    "argsort": (lambda ns, x, a, j: np.argsort(x, kind="stable") if ns is np
                else ns.argsort(x, stable=True), "fi", True),
    "median": (lambda ns, x, a, j: ns.median(x), "fi", True),
    "quantile": (lambda ns, x, a, j: ns.quantile(x, ns.asarray(Q)), "fi", True),
    "percentile": (lambda ns, x, a, j: ns.percentile(x, ns.asarray([10.0, 50.0, 90.0])),
                   "fi", True),
    "nanmedian": (lambda ns, x, a, j: ns.nanmedian(x), "f", True),
    "nanquantile": (lambda ns, x, a, j: ns.nanquantile(x, ns.asarray(Q)), "f", True),
    "partition": (lambda ns, x, a, j: ns.partition(x, x.shape[0] // 2), "fi", True),
    "argpartition": (lambda ns, x, a, j: ns.argpartition(x, x.shape[0] // 2), "fi", True),
    "unique_values": (_unique("unique_values"), "fi", True),
    "unique_counts": (_unique("unique_counts"), "fi", True),
    "unique_inverse": (_unique("unique_inverse"), "fi", True),
    "unique_all": (_unique("unique_all"), "fi", True),
    "searchsorted": (lambda ns, x, a, j: ns.searchsorted(a["sorted"], x), "fi", True),
    "isin": (lambda ns, x, a, j: ns.isin(x, a["test"]), "fi", True),
    "histogram": (lambda ns, x, a, j: ns.histogram(a["y"], bins=100), "fi", True),
    "histogram2d": (lambda ns, x, a, j: ns.histogram2d(a["y"], a["y"], bins=32), "fi", True),
    "histogramdd": (lambda ns, x, a, j: ns.histogramdd(a["xyz"], bins=8), "fi", True),
    "bincount": (lambda ns, x, a, j: ns.bincount(a["nonneg"], length=a["length"])
                 if j else ns.bincount(a["nonneg"]), "fi", True),
    "digitize": (lambda ns, x, a, j: ns.digitize(x, a["bins"]), "fi", True),
    "cumulative_sum": (lambda ns, x, a, j: np.cumulative_sum(x) if ns is np
                       else ns.cumulative_sum(x), "fi", True),
    "take": (lambda ns, x, a, j: ns.take(x, a["idx"]), "fi", True),
    "boolean mask": (lambda ns, x, a, j: x[x > 0], "fi", False),
    "nonzero": (lambda ns, x, a, j: ns.nonzero(x > 0, size=x.shape[0]) if j
                else ns.nonzero(x > 0), "fi", True),
    "where": (lambda ns, x, a, j: ns.where(x > 0, x, 0), "fi", True),
    "clip": (lambda ns, x, a, j: ns.clip(x, 1, 100), "fi", True),
    "round": (lambda ns, x, a, j: ns.round(x, decimals=1), "f", True),
}


def _inputs(ns, x, aux):
    """``x`` and ``aux`` converted for library ``ns``, transferred: the host-to-device
    copies are asynchronous, and a first call must not wait for them (it would count the
    copies of every input, 0.7 GB at n = 10**7, as compile time)."""
    conv = {"laxarray": lx.asarray, "jax.numpy": jnp.asarray, "numpy": lambda v: v}[ns]
    return block((conv(x), {k: conv(v) if isinstance(v, np.ndarray) else v
                            for k, v in aux.items()}))


def _fns(name, x, aux, jit, only=None):
    fn = CASES[name][0]
    libs = {"laxarray": lx, "numpy": np, "jax.numpy": jnp}
    out = {}
    for label, ns in libs.items():
        if only is not None and label != only:
            continue
        if jit and ns is np:
            out[label] = lambda: fn(np, x, aux, False)
            continue
        xi, ai = _inputs(label, x, aux)
        if jit:   # arrays are jit arguments; Python numbers stay static (closed over)
            arrs = {k: v for k, v in ai.items() if not isinstance(v, int)}
            ints = {k: v for k, v in ai.items() if isinstance(v, int)}
            f = jax.jit(lambda v, a, ns=ns, ints=ints: fn(ns, v, {**a, **ints}, True))
            out[label] = lambda f=f, xi=xi, arrs=arrs: f(xi, arrs)
        else:
            out[label] = lambda ns=ns, xi=xi, ai=ai: fn(ns, xi, ai, False)
    return out


def _guarded(fns):
    """The callables of ``fns`` made safe: one that raises (jax.numpy's isin runs out of
    memory on large inputs: it compares every pair) returns None from then on and its
    name lands in the returned set."""
    failed = {}

    def guard(name, f):
        def run():
            if name in failed:
                return None
            try:
                return block(f())
            except Exception as e:  # noqa: BLE001 -- reported in the table
                failed[name] = type(e).__name__
                return None
        return run
    return {k: guard(k, f) for k, f in fns.items()}, failed


def _cell(res, failed, k, col):
    return f"{'failed':>9s}" if k in failed else f"{res[k][col]:9.2f}"


def _raw(out):
    return getattr(out, "_value", out)


def _warm_up():
    """Pay each jax-based library's one-time process costs (first dispatch and trace, the
    full garbage collection that follows building the inputs) before any case is timed, so
    they are not charged to the first case's "first" column.  Five elements: no program a
    case compiles is compiled here."""
    small = np.arange(5.0)
    for mod in (lx, jnp):
        block(mod.sort(mod.asarray(small)))
        block(jax.jit(lambda v, mod=mod: _raw(mod.sort(v)))(jnp.asarray(small)))
    gc.collect()


def _child(spec):
    """One cold measurement in this fresh process: prints ``{"first": ms, "median": ms}``."""
    name, label, mode, dtype, size = spec.split(",")
    size, jit = int(float(size)), mode == "jit"
    x = _data(size, dtype, np.random.default_rng(0))
    aux = _aux(x, np.random.default_rng(1))
    _warm_up()
    f = _fns(name, x, aux, jit, only=label)[label]
    t0 = time.perf_counter()
    block(f())
    first = time.perf_counter() - t0
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        block(f())
        runs.append(time.perf_counter() - t0)
    print(json.dumps({"first": first * 1e3, "median": statistics.median(runs) * 1e3}))


def _cold(names, size, dtypes, repeats, no_jit):
    """Cold compile (ms) of laxarray and jax.numpy per operation, one process each."""
    print(f"\ncold compile, n = {size}: first call - median, fresh process per cell, "
          f"median of {repeats} processes (ms)")
    print(f"{'operation':16s} {'dtype':7s} {'mode':5s} {'laxarray':>9s} {'jax.numpy':>9s} "
          f"{'lx/jnp':>6s}")
    over = []
    for dtype in dtypes:
        for name in names:
            fn, kinds, jittable = CASES[name]
            if dtype[0] not in kinds:
                continue
            for mode in ("eager",) + (("jit",) if jittable and not no_jit else ()):
                cell = {}
                for label in ("laxarray", "jax.numpy"):
                    got = []
                    for _ in range(repeats):
                        out = subprocess.run(
                            [sys.executable, __file__, "--child",
                             f"{name},{label},{mode},{dtype},{size}"],
                            capture_output=True, text=True, check=False)
                        if out.returncode:
                            got = None
                            break
                        r = json.loads(out.stdout.strip().splitlines()[-1])
                        got.append(max(r["first"] - r["median"], 0.0))
                    cell[label] = statistics.median(got) if got else float("nan")
                lx_c, j_c = cell["laxarray"], cell["jax.numpy"]
                ratio = lx_c / j_c if j_c == j_c and j_c > 0 else float("nan")
                if ratio > 1:
                    over.append(f"{name} {dtype} {mode}")
                print(f"{name:16s} {dtype:7s} {mode:5s} {lx_c:9.0f} {j_c:9.0f} {ratio:6.2f}",
                      flush=True)
    print(f"\nlaxarray's cold compile over jax.numpy's: {', '.join(over) or 'none'}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1e5,1e6,1e7")
    p.add_argument("--dtypes", default="float64,int64")
    p.add_argument("--only", default="", help="comma-separated operations (default: all)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--no-jit", action="store_true", help="eager calls only")
    p.add_argument("--cold", action="store_true",
                   help="cold compile per operation, one fresh process per measurement")
    p.add_argument("--cold-repeats", type=int, default=3)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return _child(args.child)
    names = [n for n in CASES if not args.only or n in args.only.split(",")]
    if args.cold:
        return _cold(names, int(float(args.sizes.split(",")[0])), args.dtypes.split(","),
                     args.cold_repeats, args.no_jit)
    rng = np.random.default_rng(0)
    ratios = {}
    _warm_up()
    for size in (int(float(s)) for s in args.sizes.split(",")):
        for dtype in args.dtypes.split(","):
            x = _data(size, dtype, rng)
            aux = _aux(x, rng)
            gc.collect()  # the inputs' garbage, not charged to a first call
            print(f"\n{dtype}, n = {size}  (ms; 'first' = first call - median)")
            print(f"{'operation':16s} {'mode':5s} {'laxarray':>9s} {'numpy':>9s} "
                  f"{'jax.numpy':>9s} {'lx/np':>6s} {'lx/jnp':>6s} {'lx first':>9s} "
                  f"{'jnp first':>9s}")
            for name in names:
                fn, kinds, jittable = CASES[name]
                if dtype[0] not in kinds:
                    continue
                for jit in (False, True):
                    if jit and (args.no_jit or not jittable):
                        continue
                    mode = "jit" if jit else "eager"
                    fns, failed = _guarded(_fns(name, x, aux, jit))
                    res = round_robin(fns, args.repeats)
                    (lt, lc), (nt, _), (jt, jc) = (res["laxarray"], res["numpy"],
                                                   res["jax.numpy"])
                    r_np = float("nan") if failed.keys() & {"laxarray", "numpy"} else lt / nt
                    r_j = float("nan") if failed.keys() & {"laxarray", "jax.numpy"} else lt / jt
                    ratios.setdefault((name, mode), []).append((r_np, r_j))
                    cells = " ".join(_cell(res, failed, k, 0) for k in res)
                    print(f"{name:16s} {mode:5s} {cells} {r_np:6.2f} {r_j:6.2f} "
                          f"{lc:9.0f} {jc:9.0f}" + (f"  failed: {failed}" if failed else ""),
                          flush=True)
    print("\nmedian over sizes and dtypes: laxarray/NumPy, laxarray/jax.numpy")
    for (name, mode), rs in ratios.items():
        cols = []
        for i in (0, 1):
            ok = [r[i] for r in rs if r[i] == r[i]]
            cols.append(f"{statistics.median(ok):6.2f}" if ok else f"{'-':>6s}")
        print(f"{name:16s} {mode:5s} {' '.join(cols)}")


if __name__ == "__main__":
    main()
