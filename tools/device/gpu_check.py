"""laxarray on a GPU (issue 41): tests, conformance and the benchmark table in one call.

On a GPU machine, from the repository root, in at most 6 minutes::

    python3 tools/device/gpu_check.py --out DIR

(a) a GPU test selection (``JAX_PLATFORMS=cuda``, pytest-xdist; core, array_api, linalg, fft,
sparse, checkify), (b) the conformance runner's default selection on the GPU, (c) the
benchmark table, laxarray beside CuPy and PyTorch on the same device: dispatch latency of
small eager calls and the first call on a new shape; an elementwise chain on 10**8 float32
as a fraction of the measured copy bandwidth; float32 and bfloat16 matrix products against
PyTorch's TFLOP/s; sort of 10**8 float32; SpMV with 10**7 nonzeros against
``cupyx.scipy.sparse`` CSR; the scikit-learn workflow of ``cold_start.py`` (PCA, Ridge,
LDA; 10**6 x 100 float32, ``array_api_dispatch=True``).  Times are medians of repeated runs
after a warm-up call; compile time (first call minus median) is reported apart.  A peer
that is not installed is reported absent.  Each part runs in its own subprocess under its
own time limit, so one that hangs or crashes leaves the others' results; (a) and (b) run
side by side (half the CPUs each), then (c) alone.

Written under DIR: ``summary.json`` and ``summary.md`` (the table, the ratios, the targets),
``tests.log``/``tests.xml``, ``conformance.log``/``conformance.json``, ``bench.json``,
``env.json``.  The summary is printed last.

``--dry`` runs the same code end to end on the CPU (``JAX_PLATFORMS=cpu``) on tiny sizes, a
tiny test selection and two conformance functions, in well under a minute: the check that
the script works before a GPU is asked for.  ``--only tests,conformance,bench`` runs a
subset.  scikit-learn's array API support needs ``array-api-compat`` (carried as a wheel
where the machine lacks it, on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
import traceback

from _harness import ROOT, junit, run, tail

#: (a) the GPU test selection: files that exercise every area without the CPU-only
#: machinery (compiler options, executable store, host sorting are CPU matters)
GPU_TESTS = [
    "tests/core/test_precision_policy.py", "tests/core/test_buckets.py",
    "tests/array_api", "tests/linalg", "tests/fft",
    "tests/sparse/test_gpu_fallbacks.py", "tests/sparse/test_dot.py",
    "tests/sparse/test_ops.py", "tests/checkify/test_api.py",
    "tests/checkify/test_control_flow.py",
]
#: in those folders, but about the CPU backend only (they assert its host paths are taken)
CPU_ONLY_TESTS = ["tests/array_api/test_host_sort.py"]
DRY_TESTS = ["tests/core/test_precision_policy.py::test_store_key_names_the_setting",
             "tests/sparse/test_gpu_fallbacks.py::test_every_gate_declines_off_the_cpu"]

#: seconds per part (the whole call: at most 6 minutes on the GPU machine)
#: (tests and conformance run side by side, then the benchmarks alone: about 5.5 minutes)
BUDGET = {"tests": 200, "conformance": 200, "bench": 130}
DRY_BUDGET = {"tests": 150, "conformance": 150, "bench": 150}  # safety nets only

#: full sizes, and --dry's
SIZES = {"elementwise": 10**8, "matmul": 8192, "sort": 10**8, "spmv_nnz": 10**7,
         "spmv_rows": 10**6, "sklearn": (10**6, 100), "small": 1000, "repeats": 10,
         "dispatch_calls": 200, "new_shapes": 5, "large_shape": 100_003}
DRY_SIZES = {"elementwise": 10**4, "matmul": 64, "sort": 10**4, "spmv_nnz": 10**4,
             "spmv_rows": 10**3, "sklearn": (200, 8), "small": 100, "repeats": 2,
             "dispatch_calls": 20, "new_shapes": 2, "large_shape": 40_003}

#: the issue's targets: (row, bound, how the bound reads)
TARGETS = [("elementwise (la.jit) / copy bandwidth", 0.80, ">="),
           ("matmul float32 / torch", 0.90, ">="), ("matmul bfloat16 / torch", 0.90, ">="),
           ("sort / cupy", 1.5, "<="), ("spmv / cupy CSR", 1.5, "<="),
           ("sklearn warm / best peer", 1.2, "<=")]


# ---- the parent: run each part in a subprocess ---------------------------------------------

def _env(dry):
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu" if dry else "cuda"
    # several processes share one GPU: no process may take 75% of its memory up front
    env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("SCIPY_ARRAY_API", "1")
    return env


def run_tests(out, dry, limit, env):
    """(a): pytest on the selection; counts and failures from its JUnit XML (a run cut off
    at its limit writes none: then the progress characters of its log are counted)."""
    xml, log = os.path.join(out, "tests.xml"), os.path.join(out, "tests.log")
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rfE",
           f"--junitxml={xml}"]
    if _has("xdist"):
        cmd += ["-n", "0" if dry else str(max(1, min(8, (os.cpu_count() or 2) // 2)))]
    cmd += DRY_TESTS if dry else ["--continue-on-collection-errors", *GPU_TESTS,
                                  *(f"--ignore={t}" for t in CPU_ONLY_TESTS)]
    env = dict(env, HYPOTHESIS_PROFILE="ci")
    if not dry:   # xdist workers share the GPU's memory
        env.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.1")
    if os.path.exists(xml):
        os.remove(xml)
    rc, secs = run(cmd, log, limit, env)
    counts, failed = junit(xml)
    if counts is None:
        progress = "".join(re.findall(r"^([.FEsxX]+)\s*(?:\[|$)", tail(log, 10**6), re.M))
        counts = {"passed": progress.count("."), "failed": progress.count("F"),
                  "errors": progress.count("E"), "skipped": progress.count("s"),
                  "cut off": True}
        failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", tail(log, 10**6), re.M)
    return {"rc": rc, "seconds": secs, "counts": counts, "failed": failed[:200],
            "selection": DRY_TESTS if dry else GPU_TESTS}


def run_conformance(out, dry, limit, env):
    """(b): the conformance runner's default selection (``--dry``: two functions)."""
    report, log = os.path.join(out, "conformance.json"), os.path.join(out, "conformance.log")
    cmd = [sys.executable, "-m", "laxarray.conformance", "--json", report, "--no-progress",
           "--seed", "0"]
    cmd += (["--functions", "add", "--max-examples", "2", "--jobs", "1",
             "--extensions", ""] if dry else
            ["--max-examples", "10", "--jobs", str(max(1, min(8, (os.cpu_count() or 2) // 2)))])
    rc, secs = run(cmd, log, limit, env)
    summary = {"rc": rc, "seconds": secs, "command": " ".join(cmd[1:])}
    try:
        with open(report) as f:
            data = json.load(f)
        summary["summary"] = data.get("summary") or {
            k: v for k, v in data.items() if isinstance(v, (int, float, str))}
    except (OSError, ValueError):
        summary["summary"] = None
        summary["log_tail"] = tail(log)
    return summary


def run_bench(out, dry, limit, env):
    log, result = os.path.join(out, "bench.log"), os.path.join(out, "bench.json")
    cmd = [sys.executable, os.path.abspath(__file__), "--child-bench", result]
    if dry:
        cmd.append("--dry")
    rc, secs = run(cmd, log, limit, env)
    try:
        with open(result) as f:
            rows = json.load(f)
    except (OSError, ValueError):
        rows = {}
    return {"rc": rc, "seconds": secs, "rows": rows, "log_tail": tail(log) if rc else ""}


def _has(module):
    import importlib.util
    return importlib.util.find_spec(module) is not None


def environment(dry):
    info = {"python": sys.version.split()[0], "dry": dry}
    for name in ("jax", "jaxlib", "numpy", "scipy", "sklearn", "cupy", "torch",
                 "array_api_compat", "xdist"):
        try:
            mod = __import__(name)
            info[name] = getattr(mod, "__version__", "?")
        except Exception as err:  # noqa: BLE001
            info[name] = f"absent ({type(err).__name__})"
    return info


# ---- the benchmark child -----------------------------------------------------------------------

class _Guard:
    """``with _Guard(rows, label):`` -- an exception is recorded under ``rows['errors']``
    and the next library or row goes on."""

    def __init__(self, rows, label):
        self.rows, self.label = rows, label

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        if kind is None or not issubclass(kind, Exception):
            return False
        text = "".join(traceback.format_exception(kind, err, tb))[-600:]
        self.rows.setdefault("errors", {})[self.label] = text
        return True


def _median_ms(fn, repeats, sync):
    """``(median ms, first-call ms)``: the first call (compile included), then ``repeats``
    timed calls, each synchronised."""
    t0 = time.perf_counter()
    sync(fn())
    first = (time.perf_counter() - t0) * 1e3
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        sync(fn())
        runs.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(runs), first


class Peers:
    """The libraries of the table, each with ``asarray``/``sync``; absent ones named."""

    def __init__(self):
        import numpy as np
        import laxarray as la
        self.np, self.la = np, la
        self.libs, self.absent = {"laxarray": self._laxarray()}, {}
        for name, make in (("cupy", self._cupy), ("torch", self._torch)):
            try:
                self.libs[name] = make()
            except Exception as err:  # noqa: BLE001  (not installed, no GPU, ...)
                self.absent[name] = f"{type(err).__name__}: {err}"[:200]

    def _laxarray(self):
        la = self.la

        def sync(x):
            import jax
            for leaf in jax.tree_util.tree_leaves(x, is_leaf=lambda a: isinstance(a, la.Array)):
                if hasattr(leaf, "block_until_ready"):
                    leaf.block_until_ready()
            return x
        return {"xp": la, "put": la.asarray, "sync": sync}

    def _cupy(self):
        import cupy as cp
        cp.zeros(1).sum()
        return {"xp": cp, "put": cp.asarray,
                "sync": lambda x: (cp.cuda.Device().synchronize(), x)[1]}

    def _torch(self):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch has no CUDA device")
        torch.zeros(1, device="cuda").sum()
        return {"xp": torch, "put": lambda a: torch.as_tensor(a, device="cuda"),
                "sync": lambda x: (torch.cuda.synchronize(), x)[1]}


def bench_dispatch(p, S, rows):
    """Small eager calls (``x + y``, ``sum``) and the first call on new shapes."""
    np = p.np
    small = np.random.default_rng(0).standard_normal(S["small"]).astype(np.float32)
    for name, lib in p.libs.items():
        with _Guard(rows, f"bench_dispatch {name}"):
            xp, x = lib["xp"], lib["put"](small)
            y = lib["put"](small)
            ms, _ = _median_ms(lambda: x + y, S["dispatch_calls"], lib["sync"])
            rows.setdefault("dispatch x + y (us)", {})[name] = ms * 1e3
            ms, _ = _median_ms(lambda: xp.sum(x), S["dispatch_calls"], lib["sync"])
            rows.setdefault("dispatch sum(x) (us)", {})[name] = ms * 1e3
            for label, base in (("first call, new small shape (ms)", S["small"] + 3),
                                ("first call, new large shape (ms)", S["large_shape"])):
                firsts = []
                for k in range(S["new_shapes"]):
                    v = lib["put"](np.ones(base + 7 * k + 1, np.float32))
                    t0 = time.perf_counter()
                    lib["sync"](v * 2.0 + v)
                    firsts.append((time.perf_counter() - t0) * 1e3)
                rows.setdefault(label, {})[name] = statistics.median(firsts)


def bench_elementwise(p, S, rows):
    """A chain on 10**8 float32 against the copy bandwidth (bytes read + written / s)."""
    np, la = p.np, p.la
    n = S["elementwise"]
    host = np.random.default_rng(1).random(n, dtype=np.float32)
    gbs = {}
    for name, lib in p.libs.items():
        with _Guard(rows, f"bench_elementwise {name}"):
            x = lib["put"](host)
            copy = {"laxarray": lambda: la.asarray(x, copy=True), "cupy": lambda: x.copy(),
                    "torch": lambda: x.clone()}[name]
            ms, _ = _median_ms(copy, S["repeats"], lib["sync"])
            gbs[name] = 2 * host.nbytes / (ms * 1e-3) / 1e9
            chain = lambda: ((x * 2.0 + 1.0) * x - 3.0) / (x + 1.0)  # noqa: E731
            ms, _ = _median_ms(chain, S["repeats"], lib["sync"])
            rows.setdefault("elementwise eager (GB/s)", {})[name] = 2 * host.nbytes / ms / 1e6
            if name == "laxarray":
                jitted = la.jit(lambda v: ((v * 2.0 + 1.0) * v - 3.0) / (v + 1.0))
                ms, first = _median_ms(lambda: jitted(x), S["repeats"], lib["sync"])
                rows.setdefault("elementwise la.jit (GB/s)", {})[name] = (
                    2 * host.nbytes / ms / 1e6)
    rows["copy bandwidth (GB/s)"] = gbs
    best_copy = max(gbs.values(), default=float("nan"))
    fused = rows.get("elementwise la.jit (GB/s)", {}).get("laxarray")
    if fused is not None:
        rows["elementwise (la.jit) / copy bandwidth"] = {"laxarray": fused / best_copy}


def bench_matmul(p, S, rows):
    """float32 (laxarray's default 'highest' and 'tf32') and bfloat16 products, TFLOP/s."""
    np, la = p.np, p.la
    n = S["matmul"]
    rng = np.random.default_rng(2)
    a32, b32 = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    flops = 2 * n ** 3
    for name, lib in p.libs.items():
        with _Guard(rows, f"bench_matmul {name}"):
            xp, put, sync = lib["xp"], lib["put"], lib["sync"]
            a, b = put(a32), put(b32)
            cases = {"float32": (a, b)}
            if name == "laxarray":
                cases["bfloat16"] = (la.astype(a, la.bfloat16), la.astype(b, la.bfloat16))
            elif name == "torch":
                cases["bfloat16"] = (a.to(xp.bfloat16), b.to(xp.bfloat16))
            for dtype, (x, y) in cases.items():
                ms, first = _median_ms(lambda: x @ y, S["repeats"], sync)
                rows.setdefault(f"matmul {dtype} (TFLOP/s)", {})[name] = flops / ms / 1e9
            if name == "laxarray":
                with la.matmul_precision("tf32"):
                    ms, _ = _median_ms(lambda: a @ b, S["repeats"], sync)
                rows.setdefault("matmul float32 tf32 (TFLOP/s)", {})[name] = flops / ms / 1e9
            if name == "torch":
                previous = xp.backends.cuda.matmul.allow_tf32
                xp.backends.cuda.matmul.allow_tf32 = True
                try:
                    ms, _ = _median_ms(lambda: a @ b, S["repeats"], sync)
                finally:
                    xp.backends.cuda.matmul.allow_tf32 = previous
                rows.setdefault("matmul float32 tf32 (TFLOP/s)", {})[name] = flops / ms / 1e9
            k = min(n, 256)        # the error on k rows (a float64 product of all costs seconds)
            err = float(np.max(np.abs(np.asarray(_host(name, a[:k] @ b), np.float64)
                                      - a32[:k].astype(np.float64) @ b32.astype(np.float64))))
            rows.setdefault("matmul float32 max abs error", {})[name] = err
    for dtype in ("float32", "bfloat16"):
        row = rows.get(f"matmul {dtype} (TFLOP/s)", {})
        if "torch" in row:
            rows[f"matmul {dtype} / torch"] = {"laxarray": row["laxarray"] / row["torch"]}


def _host(name, x):
    import numpy as np
    if name == "torch":
        return x.float().cpu().numpy()
    if name == "cupy":
        return x.get()
    return np.asarray(x)


def bench_sort(p, S, rows):
    np = p.np
    host = np.random.default_rng(3).random(S["sort"], dtype=np.float32)
    for name, lib in p.libs.items():
        with _Guard(rows, f"bench_sort {name}"):
            x = lib["put"](host)
            fn = (lambda: lib["xp"].sort(x)) if name != "torch" else (lambda: lib["xp"].sort(x)[0])
            ms, first = _median_ms(fn, S["repeats"], lib["sync"])
            rows.setdefault("sort (ms)", {})[name] = ms
    _ratio(rows, "sort (ms)", "cupy", "sort / cupy")


def bench_spmv(p, S, rows):
    import scipy.sparse as sps
    np, la = p.np, p.la
    n, nnz = S["spmv_rows"], S["spmv_nnz"]
    rng = np.random.default_rng(4)
    m = sps.random_array((n, n), density=nnz / n / n, rng=rng, format="csr", dtype=np.float32)
    v = rng.standard_normal(n).astype(np.float32)
    for name, lib in p.libs.items():
        with _Guard(rows, f"bench_spmv {name}"):
            if name == "laxarray":
                import laxarray.sparse as sp
                A, x = sp.BCSR.from_scipy_sparse(m), la.asarray(v)
            elif name == "cupy":
                import cupyx.scipy.sparse as csp
                A, x = csp.csr_matrix(m), lib["put"](v)
            else:
                xp = lib["xp"]
                A = xp.sparse_csr_tensor(xp.as_tensor(m.indptr, device="cuda"),
                                         xp.as_tensor(m.indices, device="cuda"),
                                         xp.as_tensor(m.data, device="cuda"), size=m.shape)
                x = lib["put"](v)
            ms, first = _median_ms(lambda: A @ x, S["repeats"], lib["sync"])
            rows.setdefault("spmv (ms)", {})[name] = ms
    _ratio(rows, "spmv (ms)", "cupy", "spmv / cupy CSR")


def bench_sklearn(p, S, rows):
    """cold_start.py's workflow: PCA, Ridge, LDA with array_api_dispatch."""
    np = p.np
    import sklearn
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
    from sklearn.linear_model import Ridge
    n, d = S["sklearn"]
    rng = np.random.default_rng(5)
    Xn = rng.standard_normal((n, d)).astype(np.float32)
    yn = (Xn @ rng.standard_normal(d).astype(np.float32)).astype(np.float32)
    for name, lib in p.libs.items():
        with _Guard(rows, f"bench_sklearn {name}"):
            put, sync = lib["put"], lib["sync"]
            X, y, yc = put(Xn), put(yn), put((yn > 0).astype(np.int64))

            def workflow():
                with sklearn.config_context(array_api_dispatch=True):
                    return [PCA(n_components=5).fit_transform(X),
                            Ridge(solver="svd").fit(X, y).predict(X),
                            LDA().fit(X, yc).predict(X)]
            try:
                ms, first = _median_ms(workflow, max(3, S["repeats"] // 3), sync)
            except Exception as err:  # noqa: BLE001  (a library sklearn cannot run: reported)
                rows.setdefault("sklearn errors", {})[name] = f"{type(err).__name__}: {err}"[:300]
                continue
            rows.setdefault("sklearn warm (ms)", {})[name] = ms
            rows.setdefault("sklearn first run (ms)", {})[name] = first
    warm = rows.get("sklearn warm (ms)", {})
    peers = [v for k, v in warm.items() if k != "laxarray"]
    if "laxarray" in warm and peers:
        rows["sklearn warm / best peer"] = {"laxarray": warm["laxarray"] / min(peers)}


def _ratio(rows, row, peer, label):
    vals = rows.get(row, {})
    if "laxarray" in vals and peer in vals:
        rows[label] = {"laxarray": vals["laxarray"] / vals[peer]}


BENCHES = (bench_dispatch, bench_elementwise, bench_matmul, bench_sort, bench_spmv,
           bench_sklearn)


def child_bench(path, dry):
    S = DRY_SIZES if dry else SIZES
    rows = {}

    def save():
        with open(path, "w") as f:
            json.dump(rows, f, indent=1, default=str)
    p = Peers()
    import jax
    rows["device"] = {"laxarray": str(jax.devices()[0]), **{k: "absent: " + v
                                                            for k, v in p.absent.items()}}
    for bench in BENCHES:
        try:
            bench(p, S, rows)
        except Exception:  # noqa: BLE001  (one row failing leaves the others)
            rows.setdefault("errors", {})[bench.__name__] = traceback.format_exc()[-600:]
        save()           # what is done so far survives a timeout


# ---- the report ------------------------------------------------------------------------------

def _fmt(v):
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def report(summary):
    lines = ["# laxarray GPU check" + (" (--dry: CPU, tiny sizes)" if summary["dry"] else ""),
             "", "env: " + ", ".join(f"{k} {v}" for k, v in summary["env"].items()), ""]
    t = summary.get("tests")
    if t:
        lines += [f"tests: rc={t['rc']} {t['seconds']} s {t['counts']}",
                  *(f"  FAILED {f}" for f in t["failed"][:30]), ""]
    c = summary.get("conformance")
    if c:
        lines += [f"conformance: rc={c['rc']} {c['seconds']} s summary={c['summary']}", ""]
    b = summary.get("bench")
    if b:
        rows = b["rows"]
        libs = ["laxarray", "cupy", "torch"]
        lines += [f"bench: rc={b['rc']} {b['seconds']} s", "",
                  "| row | " + " | ".join(libs) + " |", "|---" * (len(libs) + 1) + "|"]
        for row, vals in rows.items():
            if row in ("errors", "sklearn errors") or not isinstance(vals, dict):
                continue
            lines.append(f"| {row} | " + " | ".join(_fmt(vals.get(k, "")) for k in libs) + " |")
        lines.append("")
        for row, bound, how in TARGETS:
            v = rows.get(row, {}).get("laxarray")
            ok = "n/a" if v is None else "not judged (--dry)" if summary["dry"] else (
                "PASS" if (v >= bound if how == ">=" else v <= bound) else "FAIL")
            lines.append(f"target {row} {how} {bound}: {_fmt(v) if v is not None else '-'} "
                         f"{ok}")
        for key in ("errors", "sklearn errors"):
            for name, text in rows.get(key, {}).items():
                lines.append(f"{key} {name}: {text.strip().splitlines()[-1] if text else ''}")
        if b.get("log_tail"):
            lines += ["", "bench log tail:", b["log_tail"]]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="directory for the results (made if missing)")
    ap.add_argument("--dry", action="store_true", help="CPU, tiny sizes, under a minute")
    ap.add_argument("--only", default="tests,conformance,bench",
                    help="comma-separated parts: tests, conformance, bench")
    ap.add_argument("--child-bench", metavar="JSON", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_bench:
        child_bench(args.child_bench, args.dry)
        return 0
    if not args.out:
        ap.error("--out DIR is required")
    os.makedirs(args.out, exist_ok=True)
    env, budget = _env(args.dry), (DRY_BUDGET if args.dry else BUDGET)
    os.environ.update({k: env[k] for k in ("JAX_PLATFORMS", "XLA_PYTHON_CLIENT_PREALLOCATE")})
    summary = {"dry": args.dry, "env": environment(args.dry)}
    parts = {"tests": run_tests, "conformance": run_conformance, "bench": run_bench}
    names = args.only.split(",")
    # side by side: the parts whose times are not measurements (all of them under --dry);
    # the benchmarks run alone afterwards on the GPU, undisturbed
    together = [n for n in names if args.dry or n != "bench"]
    if together:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(len(together)) as pool:
            futures = {n: pool.submit(parts[n], args.out, args.dry, budget[n], env)
                       for n in together}
        summary.update({n: f.result() for n, f in futures.items()})
    for name in names:
        if name not in summary:
            summary[name] = parts[name](args.out, args.dry, budget[name], env)
        with open(os.path.join(args.out, "summary.json"), "w") as f:
            json.dump(summary, f, indent=1, default=str)
    text = report(summary)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(args.out, "env.json"), "w") as f:
        json.dump(summary["env"], f, indent=1)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
