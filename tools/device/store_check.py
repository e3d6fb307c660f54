"""The executable store on the device: a fresh process loads what an earlier one compiled.

On the lent TPU machine, from the repository root (``source tools/device/tpu_env.sh`` first)::

    python3 tools/device/store_check.py --out DIR [--dry]

Five fresh processes, one after another (one process at a time may hold a TPU), on an
empty store in ``DIR/store``:

1. *fill*: every call of :data:`CALLS` on data of the device's default float dtype, its
   first call timed (trace, compile, run) and its result checked against NumPy; the store
   fills.  jax's persistent cache (``DIR/jax-cache``, every program kept) gets one program
   of plain ``jax.jit``.
2. *load*: the same calls, timed and checked again: each first call now loads its
   executables (``kernel.load_count``) instead of compiling them (``kernel.compile_count``
   counts both).  The plain ``jax.jit`` program is a hit in jax's cache, and
   ``serialize.serialize_compiled`` either refuses it (on the CPU: jaxlib writes such an
   executable without its machine code) or writes it to ``DIR/from-jax-cache.bin``.
3. *blob*: loads that blob, if any, runs it and compares with NumPy: the store may keep an
   executable of jax's cache only if it round-trips.
4. *trace* and 5. *ahead*: the calls again with loading ahead on, as a user's runs have it
   (the first three turn it off, to time each load): *trace* writes the program's trace at
   exit, and *ahead* loads its entries on the prefetch thread while it imports, so its
   first calls find them loaded -- a user's second run of the same script.
6. *tier_build* and 7. *tier_load*: the portable tier.  *tier_build* runs the calls as a
   process that builds the tier (``LAXARRAY_PORTABLE_BUILD=1``; on the CPU under
   ``--xla_cpu_max_isa=AVX2``) on "host A" (``LAXARRAY_CPU_DESCRIPTION``); *tier_load* is
   "a fresh machine": another CPU description, an empty store of its own, the tier in
   ``LAXARRAY_PORTABLE_STORE``.  It should compile nothing, load every program from the tier
   (``exec_store.portable_load_count``) and give *fill*'s bits (a digest per result).

Written: ``DIR/store_check.json`` (every figure) and the table on stdout.  ``--dry``: the
same on the CPU with the TPU's record (``JAX_PLATFORMS=cpu``, ``LAXARRAY_PLATFORM=tpu``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_CHILD = r'''
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import laxarray as xp
from laxarray._core.runtime import exec_store, kernel, serialize
import hashlib
import jax
imported = time.perf_counter() - t0
phase, out_dir = sys.argv[1], sys.argv[2]
result = {"phase": phase, "import_s": round(imported, 3), "platform": jax.default_backend()}

if phase == "blob":
    path = out_dir + "/from-jax-cache.bin"
    x = np.linspace(0.0, 1.0, 11, dtype=np.float32)
    try:
        blob = open(path, "rb").read()
    except OSError:
        blob = None
    if blob is None:
        result["blob"] = "none written"
    else:
        got = np.asarray(serialize.load_compiled(blob)(x))
        want = np.sin(x) * 3.0 + 1.0
        result["blob"] = "ok" if np.allclose(got, want, rtol=1e-5, atol=1e-6) else "wrong"
    print("@@" + json.dumps(result))
    sys.exit(0)

dt = xp.__array_namespace_info__().default_dtypes()["real floating"]
npdt = np.dtype(str(dt))
rng = np.random.default_rng(0)
v = rng.standard_normal(1000).astype(npdt)
a = rng.standard_normal((64, 64)).astype(npdt)
spd = (a @ a.T / 64 + np.eye(64)).astype(npdt)
b = rng.standard_normal(64).astype(npdt)
idx = rng.integers(0, 1000, 50)
big = np.arange(70000, dtype=npdt) / 70000


def setitem():
    y = xp.asarray(v)
    y[xp.asarray(idx)] = -1.0
    return y


def np_setitem():
    y = v.copy()
    y[idx] = -1.0
    return y


X, M, S = xp.asarray(v), xp.asarray(a), xp.asarray(spd)
CALLS = {
    "add": (lambda: X + X[::-1], lambda: v + v[::-1]),
    "exp": (lambda: xp.exp(X), lambda: np.exp(v)),
    "log": (lambda: xp.log(xp.abs(X) + 1), lambda: np.log(np.abs(v) + 1)),
    "sum": (lambda: xp.sum(X), lambda: np.sum(v, dtype=np.float64)),
    "max axis 0": (lambda: xp.max(M, axis=0), lambda: np.max(a, axis=0)),
    "std": (lambda: xp.std(M, axis=1), lambda: np.std(a.astype(np.float64), axis=1)),
    "sort": (lambda: xp.sort(X), lambda: np.sort(v)),
    "argsort": (lambda: xp.argsort(X, stable=True), lambda: np.argsort(v, stable=True)),
    "cumulative_sum": (lambda: xp.cumulative_sum(X), lambda: np.cumsum(v, dtype=np.float64)),
    "unique_values": (lambda: xp.unique_values(xp.round(X)), lambda: np.unique(np.round(v))),
    "take": (lambda: xp.take(X, xp.asarray(idx)), lambda: v[idx]),
    "setitem": (setitem, np_setitem),
    "mask": (lambda: X[X > 0.5], lambda: v[v > 0.5]),
    "matmul": (lambda: M @ M, lambda: a.astype(np.float64) @ a),
    "solve": (lambda: xp.linalg.solve(S, xp.asarray(b)), lambda: np.linalg.solve(
        spd.astype(np.float64), b)),
    "cholesky": (lambda: xp.linalg.cholesky(S), lambda: np.linalg.cholesky(
        spd.astype(np.float64))),
    "eigvalsh": (lambda: xp.linalg.eigvalsh(S), lambda: np.linalg.eigvalsh(
        spd.astype(np.float64))),
    "svdvals": (lambda: xp.linalg.svdvals(M), lambda: np.linalg.svd(
        a.astype(np.float64), compute_uv=False)),
    "qr |R|": (lambda: xp.abs(xp.linalg.qr(M)[1]), lambda: np.abs(np.linalg.qr(
        a.astype(np.float64))[1])),
    "fft": (lambda: xp.fft.fft(X), lambda: np.fft.fft(v.astype(np.float64))),
    "rfft": (lambda: xp.fft.rfft(X), lambda: np.fft.rfft(v.astype(np.float64))),
    "sum 70000 sin": (lambda: xp.sum(xp.sin(xp.asarray(big))),
                      lambda: np.sum(np.sin(big.astype(np.float64)))),
}
calls = {}
for name, (ours, oracle) in CALLS.items():
    c0, l0 = kernel.compile_count(), kernel.load_count()
    t = time.perf_counter()
    got = np.asarray(ours())
    ms = (time.perf_counter() - t) * 1e3
    want = np.asarray(oracle())
    scale = max(float(np.max(np.abs(want))), 1.0) if want.size else 1.0
    ok = (got.shape == want.shape and
          bool(np.allclose(got, want, rtol=2e-4, atol=2e-4 * scale)))
    calls[name] = {"ms": round(ms, 2), "ok": ok, "compiled": kernel.compile_count() - c0
                   - (kernel.load_count() - l0), "loaded": kernel.load_count() - l0,
                   "digest": hashlib.blake2b(got.tobytes(), digest_size=8).hexdigest()}
result["calls"] = calls
result["tier_loads"] = exec_store.portable_load_count()
result["compiles"], result["loads"] = kernel.compile_count(), kernel.load_count()
if phase.startswith("tier"):
    print("@@" + json.dumps(result))
    sys.exit(0)
from laxarray._core.runtime import prefetch
result["loaded_ahead"] = prefetch.loaded_ahead()
result["compiles"], result["loads"] = kernel.compile_count(), kernel.load_count()
result["store"] = kernel._open_store() is not None


def plain(x):
    return jax.lax.sin(x) * 3.0 + 1.0


jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)  # keep this one
jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
x = np.linspace(0.0, 1.0, 11, dtype=np.float32)
compiled = jax.jit(plain).lower(x).compile()
result["jax_cache_hits"] = serialize._JAX_CACHE_HITS[0]
if phase == "load":
    try:
        blob = serialize.serialize_compiled(compiled)
    except serialize.NotSerializable as err:
        result["from_jax_cache"] = "refused: " + str(err)[:160]
    else:
        open(out_dir + "/from-jax-cache.bin", "wb").write(blob)
        result["from_jax_cache"] = "written"
print("@@" + json.dumps(result))
'''


def _child(phase, out, env):
    proc = subprocess.run([sys.executable, "-c", _CHILD, phase, out], env=env,
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@")]
    if proc.returncode != 0 or not lines:
        return {"phase": phase, "rc": proc.returncode, "stderr": proc.stderr[-3000:]}
    return json.loads(lines[-1][2:])


PHASES = ("fill", "load", "blob", "trace", "ahead", "tier_build", "tier_load")


def run(out, dry=False, phases=PHASES):
    """The processes (:data:`PHASES`) on an empty store under ``out``; their results as one
    dict."""
    os.makedirs(out, exist_ok=True)
    store = os.path.join(out, "store")
    if os.path.exists(store) and os.listdir(store):
        raise SystemExit(f"store_check: {store} is not empty (the check needs an empty store)")
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=store, LAXARRAY_STORE_HINT="0",
               LAXARRAY_PREFETCH="0", PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env["JAX_COMPILATION_CACHE_DIR"] = os.path.join(out, "jax-cache")
    if dry:
        env.update(JAX_PLATFORMS="cpu", LAXARRAY_PLATFORM="tpu")
    summary = {"dry": dry}
    tier = os.path.join(out, "tier")
    _V3 = "fpu sse4_1 sse4_2 popcnt avx avx2 fma f16c bmi1 bmi2 abm movbe"
    hosts = {"tier_build": dict(env, LAXARRAY_PORTABLE_BUILD="1", LAXARRAY_PORTABLE_STORE=tier,
                                LAXARRAY_CPU_DESCRIPTION=f"model name=host A;flags={_V3}"),
             "tier_load": dict(env, LAXARRAY_PORTABLE_STORE=tier,
                               LAXARRAY_COMPILATION_CACHE=os.path.join(out, "store-b"),
                               LAXARRAY_CPU_DESCRIPTION=f"model name=host B;flags={_V3} "
                                                        f"avx512f avx512bw")}
    if dry:   # the CPU builds its tier for the instruction-set class
        hosts["tier_build"]["XLA_FLAGS"] = " ".join(
            (env.get("XLA_FLAGS", ""), "--xla_cpu_max_isa=AVX2")).strip()
    for phase in phases:
        # trace and ahead: loading ahead on, as a user's runs have it -- the first writes
        # the program's trace at exit, the second loads its entries while it imports
        t = time.perf_counter()
        summary[phase] = _child(phase, out, dict(env, LAXARRAY_PREFETCH="1")
                                if phase in ("trace", "ahead") else hosts.get(phase, env))
        summary[phase]["process_s"] = round(time.perf_counter() - t, 2)
    with open(os.path.join(out, "store_check.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def table(summary) -> str:
    fill, load = summary["fill"], summary["load"]
    if "calls" not in fill or "calls" not in load:
        return json.dumps(summary, indent=1)
    return "\n".join((_store_table(summary), _tier_table(summary)))


def _tier_table(summary) -> str:
    """The portable tier's line: what "a fresh machine" compiled and loaded, and whether its
    results have the bits of the first process's (native) programs."""
    fill, load = summary["fill"], summary.get("tier_load", {})
    if "calls" not in load:
        return f"tier: {json.dumps(load)[:600]}"
    same = [n for n, c in load["calls"].items() if c["digest"] == fill["calls"][n]["digest"]]
    differ = sorted(set(load["calls"]) - set(same))
    return (f"tier: a fresh machine compiled {load['compiles'] - load['loads']}, loaded "
            f"{load['loads']} ({load['tier_loads']} from the tier, built in "
            f"{summary['tier_build'].get('process_s')} s); first calls "
            f"{sum(c['ms'] for c in load['calls'].values()):.0f} ms in all against "
            f"{sum(c['ms'] for c in fill['calls'].values()):.0f} ms compiling; "
            f"bits equal to native in {len(same)} of {len(load['calls'])} calls"
            + (f" (differ: {', '.join(differ)})" if differ else "")
            + f"; agree with NumPy: {all(c['ok'] for c in load['calls'].values())}")


def _store_table(summary) -> str:
    fill, load, ahead = summary["fill"], summary["load"], summary.get("ahead", {})
    ahead_calls = ahead.get("calls", {})
    lines = [f"platform {fill['platform']}; import {fill['import_s']} s / {load['import_s']} s;"
             f" process {fill['process_s']} s / {load['process_s']} s",
             "| call | first call, empty store (ms) | first call, filled store (ms) | "
             "compiled / loaded | first call, loaded ahead (ms) | agrees with NumPy |",
             "|---|---|---|---|---|---|"]
    for name, f in fill["calls"].items():
        g, h = load["calls"][name], ahead_calls.get(name, {})
        ok = f["ok"] and g["ok"] and h.get("ok", True)
        lines.append(f"| {name} | {f['ms']} | {g['ms']} | {g['compiled']} / {g['loaded']} "
                     f"| {h.get('ms', '-')} | {ok} |")
    lines.append(f"fill: {fill['compiles']} executables; load: {load['compiles']} of which "
                 f"{load['loads']} loaded; jax's cache: {load.get('jax_cache_hits')} hits, "
                 f"serialize: {load.get('from_jax_cache')}; blob: {summary['blob'].get('blob')}; "
                 f"loaded ahead: {ahead.get('loaded_ahead', ahead.get('stderr', '-'))}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--dry", action="store_true", help="the CPU with the TPU's record")
    args = ap.parse_args(argv)
    print(table(run(args.out, args.dry)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
