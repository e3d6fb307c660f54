"""Probe an accelerator for what aborts, what raises and what differs (issue 52's diagnosis).

Each case is a snippet run in a child process; a child runs cases one after another until
one kills it (XLA's TPU compiler aborts with SIGABRT, which nothing can catch), then the
parent starts a new child at the next case.  With ``--dump DIR`` every child writes XLA's
HLO (before and after optimization) to ``DIR/<child>/``, and the folders of the children
that aborted are packed into ``OUT/aborted_dumps.tar.gz``, so the modules of a case that
aborts can be compared with jax.numpy's for the same call.  Only one process may hold a TPU:
children run one at a time.

    python3 tools/device/tpu_probe.py --out DIR [--dump DUMPDIR] [--only NAME,...]
    python3 tools/device/tpu_probe.py --out DIR --dry        # the same, on the CPU

Writes ``DIR/probe.jsonl`` (one line per case: status ok / raised / aborted, the output
or the exception) and prints a summary.
"""

import argparse
import json
import os
import subprocess
import sys
import tarfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PRELUDE = """
import numpy as np, jax, time
import laxarray as xp
import jax.numpy as jnp
rng = np.random.default_rng(0)
def a32(*shape):
    return rng.standard_normal(shape).astype(np.float32)
def rel(got, want):
    got = np.asarray(got, dtype=np.complex128 if np.iscomplexobj(want) else np.float64)
    want = np.asarray(want)
    return float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-300))
def ms(f, *args):
    # the median of 5 runs of jax.jit(f) after its first (compile and run, in seconds)
    f = jax.jit(f)
    t = time.perf_counter(); jax.block_until_ready(f(*args)); first = time.perf_counter() - t
    runs = []
    for _ in range(5):
        t = time.perf_counter(); jax.block_until_ready(f(*args)); runs.append(time.perf_counter() - t)
    return f"{np.median(runs) * 1e3:.2f} ms (first {first:.2f} s)"
def _leaves(out):
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    return [out]
def sweep(name):
    # calls the public function name with the first argument pattern it accepts and says
    # which, or an error of jax's that reached the caller (as
    # tests/platform_tpu/test_public_functions.py, which runs on the CPU)
    fn = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    x8, y8, x44, y44 = (xp.asarray(a32(*s)) for s in ((8,), (8,), (4, 4), (4, 4)))
    i8 = xp.asarray(np.arange(1, 9, dtype=np.int32))
    patterns = {"x": (x8,), "x44": (x44,), "x,y": (x8, y8), "x44,y44": (x44, y44),
                "i": (i8,), "i,i": (i8, i8[::-1]), "x,2": (x8, 2), "8": (8,), "x44,x": (x44, x8)}
    tried = []
    for label, args in patterns.items():
        try:
            for leaf in _leaves(fn(*args)):
                if hasattr(leaf, "__jax_array__"):
                    np.asarray(leaf)
            return f"ok {label}"
        except Exception as e:   # noqa: BLE001 (classified below)
            text = str(e)
            if type(e).__module__.startswith(("jax", "jaxlib")) or text.startswith(("lax.", "jnp.")):
                return f"BAD {label} {type(e).__module__}.{type(e).__name__}: {text[:240]}"
            tried.append(f"{label}:{type(e).__name__}")
    return "none " + " ".join(tried)
"""

#: (name, code): each prints what it finds; an exception is recorded as 'raised'
CASES = [
    # host arrays of unusual layout sent to the chip (the conformance runner's abort on the
    # chip, 2026-12-06: "HostCommand byte_offset -1 is not aligned to 512")
    ("put_reversed_jax", """
v = np.arange(8, dtype=np.float32)[::-1]
print(np.asarray(jax.device_put(v)))
"""),
    ("put_reversed_laxarray", """
v = np.arange(8, dtype=np.float32)[::-1]
print(np.asarray(xp.asarray(v)), np.asarray(xp.asarray(v) + 1))
"""),
    ("put_strided_2d", """
v = np.arange(24, dtype=np.float32).reshape(4, 6)[:, ::-2]
print(np.asarray(xp.asarray(v)), np.asarray(xp.asarray(v.T)))
"""),
    ("setitem_reversed_value", """
x = xp.zeros(8)
x[...] = np.arange(8, dtype=np.float32)[::-1]
print(np.asarray(x))
"""),
    ("eig_1x1", "print(xp.linalg.eigvals(xp.asarray([[2.0]])))"),
    ("eig_nan", """
try:
    xp.linalg.eig(xp.asarray([[np.nan, 1.0], [0.0, 1.0]]))
except Exception as e:
    print(type(e).__name__, e)
"""),
    ("eig_0x0", "print(xp.linalg.eigvals(xp.zeros((0, 0))))"),
    ("eig_batch_0", "print(xp.linalg.eig(xp.zeros((0, 2, 2))))"),
    ("put_empty", """
print(np.asarray(xp.asarray(np.zeros((0, 3), np.float32)) + 1), xp.asarray(np.zeros(0, np.int64)))
"""),
    ("env", """
import importlib, platform
d = jax.devices()[0]
print(jax.__version__, d.platform, d.device_kind, getattr(d.client, 'platform_version', '?'))
for m in ('numpy', 'scipy', 'sklearn', 'hypothesis', 'ml_dtypes', 'libtpu'):
    try:
        print(m, importlib.import_module(m).__version__)
    except Exception as e:
        print(m, 'absent', type(e).__name__)
print('info defaults', xp.__array_namespace_info__().default_dtypes())
print('asarray([1.0])', xp.asarray([1.0]).dtype, 'libc', platform.libc_ver())
"""),
    ("serialize", """
from jax.experimental import serialize_executable as se
f = jax.jit(lambda a: jnp.sin(a) * 2)
c = f.lower(np.ones(1000, np.float32)).compile()
t = time.perf_counter(); blob, it, ot = se.serialize(c); ts = time.perf_counter() - t
t = time.perf_counter(); c2 = se.deserialize_and_load(blob, it, ot); tl = time.perf_counter() - t
print('serialized', len(blob), 'bytes in', round(ts * 1e3, 1), 'ms; loaded in', round(tl * 1e3, 1), 'ms')
print('same result', bool(np.array_equal(np.asarray(c2(np.ones(1000, np.float32))), np.asarray(c(np.ones(1000, np.float32))))))
"""),
    # scikit-learn's Ridge (solver "svd") on the chip was 2e-4 off NumPy's float32 result in
    # cross_val_predict (2026-12-06): the SVD's accuracy, laxarray beside jax.numpy
    ("svd accuracy 666x5", """
X = a32(666, 5) * np.float32(30)
s64 = np.linalg.svd(X.astype(np.float64), compute_uv=False)
u, s, vt = (np.asarray(t, dtype=np.float64)
            for t in NS.linalg.svd(NS.asarray(X), full_matrices=False))
print(NAME, "reconstruction", rel((u * s) @ vt, X), "orthogonality",
      float(np.abs(u.T @ u - np.eye(5)).max()), "singular values", rel(s, s64))
"""),
    ("ridge predictions", """
import sklearn
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge
X, y = make_regression(n_samples=1000, n_features=5, n_informative=3, random_state=42)
ref = Ridge().fit(X, y).predict(X)
X32, y32 = X.astype(np.float32), y.astype(np.float32)
print("numpy float32", float(np.abs(Ridge().fit(X32, y32).predict(X32) - ref).max()))
with sklearn.config_context(array_api_dispatch=True):
    got = Ridge(solver="svd").fit(NS.asarray(X32), NS.asarray(y32)).predict(NS.asarray(X32))
    print(NAME, float(np.abs(np.asarray(got, dtype=np.float64) - ref).max()))
"""),
    # which step of Ridge's svd solver loses on the chip (laxarray 1.5e-4 from float64, NumPy's
    # float32 5.5e-5, 2026-12-06): its steps in float64 NumPy with one step taken on the chip
    ("ridge pieces", """
from sklearn.datasets import make_regression
X, y = make_regression(n_samples=1000, n_features=5, n_informative=3, random_state=42)
X32, y32 = X.astype(np.float32), y.astype(np.float32)

def solve(X, y, svd, mean, dot):
    xm, ym = mean(X), mean(y)
    u, s, vt = svd(X - xm)
    d = s / (s * s + 1.0)
    coef = dot(vt.T, d * dot(u.T, y - ym))
    return dot(X, coef) + (ym - dot(xm, coef))

f64 = dict(svd=lambda a: np.linalg.svd(np.asarray(a, np.float64), full_matrices=False),
           mean=lambda a: np.asarray(a, np.float64).mean(0),
           dot=lambda a, b: np.asarray(a, np.float64) @ np.asarray(b, np.float64))
ref = solve(X, y, **f64)
def h(a):
    return np.asarray(a, np.float64)
chip = dict(svd=lambda a: [h(t) for t in xp.linalg.svd(xp.asarray(np.asarray(a, np.float32)),
                                                       full_matrices=False)],
            mean=lambda a: h(xp.mean(xp.asarray(np.asarray(a, np.float32)), axis=0)),
            dot=lambda a, b: h(xp.asarray(np.asarray(a, np.float32))
                               @ xp.asarray(np.asarray(b, np.float32))))
np32 = dict(svd=lambda a: np.linalg.svd(np.asarray(a, np.float32), full_matrices=False),
            mean=lambda a: np.asarray(a, np.float32).mean(0),
            dot=lambda a, b: np.asarray(a, np.float32) @ np.asarray(b, np.float32))
for name, parts in (("numpy float32", np32), ("laxarray all", chip),
                    ("chip svd only", dict(f64, svd=chip["svd"])),
                    ("chip mean only", dict(f64, mean=chip["mean"])),
                    ("chip dot only", dict(f64, dot=chip["dot"])),
                    ("numpy32 svd only", dict(f64, svd=np32["svd"]))):
    print(name, float(np.abs(solve(X32, y32, **parts) - ref).max()))
a = np.random.default_rng(0).standard_normal((1000, 5)).astype(np.float32)
w = np.random.default_rng(1).standard_normal(5).astype(np.float32)
exact = a.astype(np.float64) @ w.astype(np.float64)
bound = np.abs(a).astype(np.float64) @ np.abs(w).astype(np.float64)
print("matvec error / (|a||w| eps)", float((np.abs(h(xp.asarray(a) @ xp.asarray(w)) - exact)
                                           / bound).max() / 2 ** -24))
"""),
    # the svd of a 4x4 batch rebuilt to 2.4e-6 of its largest entry on the chip (1.2e-6 on
    # the CPU): which factor loses
    ("svd pieces 2x4x4", """
rng = np.random.default_rng(63)
a = rng.standard_normal((2, 4, 4)).astype(np.float32)
u, s, vh = (np.asarray(t, np.float64) for t in xp.linalg.svd(xp.asarray(a), full_matrices=False))
print("rebuilt", float(np.abs((u * s[..., None, :]) @ vh - a).max() / np.abs(a).max()))
print("U orthogonality", float(np.abs(np.swapaxes(u, -1, -2) @ u - np.eye(4)).max()))
print("V orthogonality", float(np.abs(vh @ np.swapaxes(vh, -1, -2) - np.eye(4)).max()))
print("singular values", float(np.abs(s - np.linalg.svd(a.astype(np.float64), compute_uv=False)).max()
                               / np.abs(a).max()))
h = a[0].T @ a[0]
w, v = (np.asarray(t, np.float64) for t in xp.linalg.eigh(xp.asarray(h)))
print("eigh rebuilt", float(np.abs((v * w) @ v.T - h).max() / np.abs(h).max()))
q, r = (np.asarray(t, np.float64) for t in xp.linalg.qr(xp.asarray(a[0])))
print("qr rebuilt", float(np.abs(q @ r - a[0]).max() / np.abs(a[0]).max()))
b = rng.standard_normal((4, 4)).astype(np.float32)
print("4x4 matmul error / eps", float(np.abs(np.asarray(xp.asarray(a[0]) @ xp.asarray(b), np.float64)
                                          - a[0].astype(np.float64) @ b).max()
                                   / (np.abs(a[0]) @ np.abs(b)).max() / 2 ** -24))
"""),
    # which of the polar SVD's pieces loses on the chip (each fine alone by its own measure,
    # yet the 4x4 SVD rebuilt to 2.4e-6 before _matrix_ops._refined): each piece's backward
    # error and orthogonality in float64 on the host, and the SVD's after the refinement
    ("svd steps", """
import jax
from jax import lax
from laxarray._core.jaxapi import mode_32_bit
rng = np.random.default_rng(63)
a = rng.standard_normal((2, 4, 4)).astype(np.float32)[0]
tall = rng.standard_normal((1000, 5)).astype(np.float32)
d = lambda t: np.asarray(t, np.float64)
rel = lambda e, x: float(np.abs(e).max() / np.abs(x).max())
with mode_32_bit():
    up, h = (d(t) for t in jax.jit(lambda x: lax.linalg.qdwh(x, max_iterations=10)[:2])(a))
    print("qdwh rebuilt", rel(up @ h - a, a), "orthogonal", rel(up.T @ up - np.eye(4), np.eye(4)),
          "H symmetric", rel(h - h.T, h))
    v, w = (d(t) for t in jax.jit(lax.linalg.eigh)(h.astype(np.float32)))
    print("eigh of H rebuilt", rel((v * w) @ v.T - h, h), "orthogonal",
          rel(v.T @ v - np.eye(4), np.eye(4)))
    q, r = (d(t) for t in jax.jit(lambda x: lax.linalg.qr(x, full_matrices=False))(tall))
    print("qr 1000x5 rebuilt", rel(q @ r - tall, tall), "orthogonal",
          rel(q.T @ q - np.eye(5), np.eye(5)))
for x in (a, tall):
    u, s, vh = (d(t) for t in xp.linalg.svd(xp.asarray(x), full_matrices=False))
    k = min(x.shape)
    print(x.shape, "svd rebuilt", rel((u * s) @ vh - x, x), "orthogonal",
          rel(u.T @ u - np.eye(k), np.eye(k)), rel(vh @ vh.T - np.eye(k), np.eye(k)))
"""),
    # the conformance runner's floor_divide and remainder took 100-120 s on the chip (every
    # other spec 0.1-36 s; 2-3 s on the CPU): the first call per dtype, laxarray beside jnp
    ("floor_divide compile per dtype", """
for dt in ("float32", "int8", "int32", "uint32", "int64", "uint64"):
    a = np.arange(1, 9).astype(dt)
    row = [dt]
    for name, f in (("laxarray //", lambda: np.asarray(xp.asarray(a) // xp.asarray(a[::-1]))),
                    ("laxarray %", lambda: np.asarray(xp.asarray(a) % xp.asarray(a[::-1]))),
                    ("jnp //", lambda: np.asarray(jnp.asarray(a) // jnp.asarray(a[::-1])))):
        t = time.perf_counter(); f(); row.append(f"{name} {time.perf_counter() - t:.2f} s")
    print(*row)
"""),
    # issue 54: 200 dependent c = c + b cost 142 us an operation on the chip against jnp's
    # 135 (7.4 against 6.9 on the CPU): the device's part (a compiled executable called
    # directly) and the libraries' (run the probe with LAXARRAY_COMPILATION_CACHE=0 too:
    # the store's loaded executables against jit's own)
    ("dispatch breakdown", """
b, c = xp.asarray(a32(100)), xp.asarray(a32(100))
bj, cj = jnp.asarray(a32(100)), jnp.asarray(a32(100))
exe = jax.jit(lambda u, v: u + v).lower(cj, bj).compile()
def per_op(step, start, n=400):
    v = start
    for _ in range(20):
        v = step(v)
    jax.block_until_ready(getattr(v, "__jax_array__", lambda: v)())
    best = []
    for _ in range(5):
        v = start
        t = time.perf_counter()
        for _ in range(n):
            v = step(v)
        jax.block_until_ready(getattr(v, "__jax_array__", lambda: v)())
        best.append((time.perf_counter() - t) / n * 1e6)
    return round(float(np.median(best)), 1)
print("us per dependent add: laxarray", per_op(lambda v: v + b, c), "jnp", per_op(lambda v: v + bj, cj),
      "compiled executable", per_op(lambda v: exe(v, bj), cj))
"""),
    # where SpMV's time goes on the chip (81 ms for 10**7 nonzeros, SciPy 15 ms on one host
    # core): the gather, the sorted segment sum (a scatter-add), and the scatter-free
    # alternatives (a prefix-sum difference, row sums of a padded ELL layout), 10**6 rows,
    # 10 per row
    # where a gather's time goes on the chip (issue 54's sparse regression, session 20): the
    # regression's tables are 10**5 (coefficients) and 10**6 (residuals) long; its index
    # arrays 10**7; variants of table size, index layout, mode and sortedness
    ("gather forms", """
from jax import lax
nnz, F, m = 10 ** 7, 10 ** 5, 10 ** 6
r = np.random.default_rng(1)
def g1(table, idx, mode, sorted_=False):
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    return lax.gather(table, idx[..., None], dn, (1,), mode=mode, indices_are_sorted=sorted_)
def s1(n, idx, upd, sorted_=False):
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    return lax.scatter_add(jnp.zeros(n, upd.dtype), idx[..., None], upd, dn, indices_are_sorted=sorted_, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)
P, C = lax.GatherScatterMode.PROMISE_IN_BOUNDS, lax.GatherScatterMode.CLIP
vals = jnp.asarray(r.standard_normal(nnz).astype(np.float32))
with jax.enable_x64(False):
    for T in (10 ** 3, 10 ** 4, F, m):
        tab = jnp.asarray(r.standard_normal(T).astype(np.float32))
        idx = jnp.asarray(r.integers(0, T, nnz).astype(np.int32))
        print(f"T={T}: gather 1-D promise", ms(lambda t, i: g1(t, i, P), tab, idx),
              "| clip", ms(lambda t, i: g1(t, i, C), tab, idx),
              "| 2-D idx", ms(lambda t, i: g1(t, i.reshape(-1, 128), P), tab, idx),
              "| sorted+flag", ms(lambda t, i: g1(t, i, P, True), tab, jnp.sort(idx)),
              "| bf16", ms(lambda t, i: g1(t, i, P), tab.astype(jnp.bfloat16), idx))
        print(f"T={T}: scatter-add unsorted", ms(lambda i, u: s1(T, i, u), idx, vals),
              "| 2-D", ms(lambda i, u: s1(T, i.reshape(-1, 128), u.reshape(-1, 128)), idx, vals),
              "| sorted+flag", ms(lambda i, u: s1(T, i, u, True), jnp.sort(idx), vals))
"""),
    # a fixed permutation of 2**24 float32 on the chip without XLA's gather (7.3 ns an
    # index, "gather forms"): a Benes network's stages (swap partners at distance 2**k where
    # a control says so) timed with random controls, against XLA's sort with a payload,
    # whole and in short rows (session 20)
    ("benes stages", """
from jax import lax
r = np.random.default_rng(1)
R, L = (2 ** 17, 128) if jax.default_backend() != "cpu" else (2 ** 10, 128)
def stage(x, c, bit):
    # swap x[i] and x[i ^ 2**bit] where c says so; bits 0-6 are lanes, 7-23 rows
    if bit >= 7:
        k = bit - 7
        y = x.reshape(R // 2 ** (k + 1), 2, 2 ** k, L)
        y = lax.rev(y, (1,)).reshape(R, L)
    else:
        y = x.reshape(R, L // 2 ** (bit + 1), 2, 2 ** bit)
        y = lax.rev(y, (2,)).reshape(R, L)
    return lax.select(c, y, x)
def network(x, cs, bits):
    for c, b in zip(cs, bits):
        x = stage(x, c, b)
    return x
def packed_stage(x, w, bit):
    # the controls as bits of uint32 words, one word per 32 lanes' elements
    c = (lax.shift_right_logical(w.reshape(R, 4, 1), jnp.arange(32, dtype=jnp.uint32).reshape(1, 1, 32)) & 1).reshape(R, L) == 1
    return stage(x, c, bit)
x = jnp.asarray(r.standard_normal((R, L)).astype(np.float32))
top = int(np.log2(R * L)) - 1
bits_all = list(range(top, 0, -1)) + list(range(0, top + 1))
cs = [jnp.asarray(r.random((R, L)) < 0.5) for _ in bits_all]
ws = [jnp.asarray(r.integers(0, 2 ** 32, (R, 4), dtype=np.uint64).astype(np.uint32)) for _ in bits_all]
with jax.enable_x64(False):
    for b in (top, (top + 7) // 2, 7, 6, 3, 0):
        print(f"one stage bit {b}", ms(lambda x, c: stage(x, c, b), x, cs[0]))
    print("row stages 7-23 (17)", ms(lambda x, *c: network(x, c, range(7, top + 1)), x, *cs[:top - 6]))
    print("lane stages 0-6 (7)", ms(lambda x, *c: network(x, c, range(7)), x, *cs[:7]))
    print("whole network (47 stages)", ms(lambda x, *c: network(x, c, bits_all), x, *cs))
    print("whole network, packed controls", ms(lambda x, *w: (lambda y: y)(
        __import__("functools").reduce(lambda y, wb: packed_stage(y, wb[0], wb[1]), zip(w, bits_all), x)), x, *ws))
    keys = jnp.asarray(r.permutation(R * L).astype(np.int32)).reshape(R, L)
    print("sort 2**24 key+payload", ms(lambda k, v: lax.sort((k.reshape(-1), v.reshape(-1)), num_keys=1)[1], keys, x))
    for width in (128, 1024, 8192):
        kk = jnp.asarray(np.argsort(r.random((R * L // width, width)), axis=1).astype(np.int32))
        print(f"sort rows of {width} key+payload", ms(lambda k, v: lax.sort((k, v.reshape(k.shape)), dimension=1, num_keys=1)[1], kk, x))
    print("transpose (2**17,128)", ms(lambda v: v.T, x))
"""),
    # what a stored executable's first call costs on the chip, part by part (issue 54's
    # "first call of a stored signature <= 5 ms"; store_check measured 4-12 ms, svdvals 225):
    # unpickling the blob, jax's deserialize_and_load, the first run and a second one
    ("store load parts", """
import pickle
from jax import lax
from laxarray._core.runtime import serialize
progs = {
    "exp 1000": (lambda x: lax.exp(x), a32(1000)),
    "sum 1000": (lambda x: lax.reduce_sum(x, (0,)), a32(1000)),
    "matmul 64": (lambda m: lax.dot(m, m), a32(64, 64)),
    "eigh 64": (lambda m: lax.linalg.eigh(m + m.T)[1], a32(64, 64)),
    "qr 64": (lambda m: lax.linalg.qr(m)[1], a32(64, 64)),
}
with jax.enable_x64(False):
    for name, (f, arg) in progs.items():
        dev = jax.device_put(arg)
        comp = jax.jit(f).lower(dev).compile()
        blob = serialize.serialize_compiled(comp)
        t0 = time.perf_counter(); parts = pickle.loads(blob)
        t1 = time.perf_counter(); exe = serialize.load_compiled(blob)
        t2 = time.perf_counter(); jax.block_until_ready(exe(dev))
        t3 = time.perf_counter(); jax.block_until_ready(exe(dev))
        t4 = time.perf_counter(); np.asarray(exe(dev))
        t5 = time.perf_counter()
        print(f"{name}: blob {len(blob) / 1e3:.0f} kB; unpickle {1e3 * (t1 - t0):.2f} ms, "
              f"load {1e3 * (t2 - t1) - 1e3 * (t1 - t0):.2f}, first run {1e3 * (t3 - t2):.2f}, "
              f"second {1e3 * (t4 - t3):.2f}, run + fetch {1e3 * (t5 - t4):.2f}")
"""),
    # store_check's svdvals: 207 ms on its first call in a fresh process on a filled store
    # (one executable loaded), where other calls take 4-11 ms: is it the run itself?
    ("svdvals runs", """
m = xp.asarray(a32(64, 64))
for i in range(4):
    t = time.perf_counter(); np.asarray(xp.linalg.svdvals(m)); print(f"call {i}: {(time.perf_counter() - t) * 1e3:.1f} ms")
m2 = xp.asarray(a32(64, 64))
t = time.perf_counter(); np.asarray(xp.linalg.svdvals(m2)); print(f"new data: {(time.perf_counter() - t) * 1e3:.1f} ms")
"""),
    # where svdvals' and unique_values' first calls go in a process on a filled store (run
    # the case twice on one store: the second loads): the profile's heaviest entries
    ("first call profiles", """
import cProfile, pstats
from laxarray._core.runtime import kernel
m = xp.asarray(a32(64, 64))
v = xp.asarray(np.round(a32(1000)))
for label, f in (("svdvals", lambda: xp.linalg.svdvals(m)), ("unique_values", lambda: xp.unique_values(v))):
    pr = cProfile.Profile(); c0, l0 = kernel.compile_count(), kernel.load_count()
    t = time.perf_counter(); pr.enable(); np.asarray(f()); pr.disable()
    print(f"{label}: {(time.perf_counter() - t) * 1e3:.1f} ms, built {kernel.compile_count() - c0}, loaded {kernel.load_count() - l0}")
    top = sorted(((ct, f"{f.rsplit('/', 1)[-1]}:{fn}") for (f, _, fn), (_, _, _, ct, _)
                  in pstats.Stats(pr).stats.items() if "importlib" not in f), reverse=True)
    print(" | ".join(f"{ct * 1e3:.0f} {where}" for ct, where in top[:14]))
"""),
    ("spmv parts", """
from jax import lax
import laxarray.sparse as sp
m, per = 10 ** 6, 10
nnz = m * per
r = np.random.default_rng(1)
cols = jnp.asarray(r.integers(0, m, nnz).astype(np.int32))
rows = jnp.asarray(np.repeat(np.arange(m, dtype=np.int32), per))
vals = jnp.asarray(r.standard_normal(nnz).astype(np.float32))
x = jnp.asarray(r.standard_normal(m).astype(np.float32))
ends = jnp.asarray((np.arange(1, m + 1) * per - 1).astype(np.int32))
gather = lambda x, c: x[c]
def scatter(p, rows, sorted_):
    return jnp.zeros(m, p.dtype).at[rows].add(p, indices_are_sorted=sorted_)
from laxarray._core.numerics import cumulative   # blocked on the chip (Backend.scan_block)
def prefix_difference(p, e):
    c = cumulative("sum", p)[e]
    return jnp.concatenate([c[:1], c[1:] - c[:-1]])
with jax.enable_x64(False):   # (jax.numpy's programs as a 32-bit process has them)
    print("gather x[cols]", ms(gather, x, cols))
    print("gather sorted cols", ms(gather, x, jnp.sort(cols)))
    print("mul", ms(lambda v, w: v * w, vals, vals))
    print("sorted scatter-add", ms(lambda p, r: scatter(p, r, True), vals, rows))
    print("unsorted scatter-add", ms(lambda p, r: scatter(p, r, False), vals, cols))
    # (lax.cumsum and jax's associative scan compile for minutes at 10**7 on the chip:
    # "cumsum forms"; the prefix difference cancels in float32, timed only)
    print("blocked cumsum + difference", ms(prefix_difference, vals, ends))
    print("reshape sum (equal rows: ELL)", ms(lambda p: p.reshape(m, per).sum(1), vals))
    print("whole: gather, mul, sorted scatter", ms(lambda v, c, r, x: scatter(v * x[c], r, True), vals, cols, rows, x))
    print("whole: gather, mul, ELL row sums", ms(lambda v, c, x: (v * x[c]).reshape(m, per).sum(1), vals, cols, x))
a = sp.BCSR.from_scipy_sparse(__import__("scipy.sparse", fromlist=["csr_matrix"]).csr_matrix(
    (np.asarray(vals), np.asarray(cols), np.arange(0, nnz + 1, per)), shape=(m, m)))
xl = xp.asarray(np.asarray(x))
(a @ xl).__jax_array__().block_until_ready()
runs = []
for _ in range(5):
    t = time.perf_counter(); (a @ xl).__jax_array__().block_until_ready(); runs.append(time.perf_counter() - t)
print("laxarray BCSR @ x", f"{np.median(runs) * 1e3:.2f} ms")
"""),
    # the XLA:CPU quirks numerics.py works around, asked of this platform's XLA with bare
    # lax programs (issue 53 item 2: a workaround the platform does not need leaves its
    # programs): subnormal readings, fma contraction, division by a broadcast constant,
    # NaN in large max/min
    ("cpu quirks", """
from jax import lax
f = jax.jit
sub = np.array([1e-40, -1e-40, 1e-45, 1.2e-38], np.float32)
print("subnormal > 0:", np.asarray(f(lambda v: v > 0)(sub)).tolist(),
      "| v * 1:", np.asarray(f(lambda v: v * np.float32(1))(sub)).tolist(),
      "| v + 0 == 0:", np.asarray(f(lambda v: (v + np.float32(0)) == 0)(sub)).tolist(),
      "| pow(v, 1):", np.asarray(f(lambda v: lax.pow(v, np.float32(1)))(sub)).tolist(),
      "| atan2(v, 1):", np.asarray(f(lambda v: lax.atan2(v, lax.full_like(v, 1)))(sub)).tolist())
n = 10 ** 5
a, b, c = a32(n), a32(n), a32(n)
got = np.asarray(f(lambda a, b, c: a * b + c)(a, b, c))
plain = a * b + c     # NumPy: the product rounded, then the sum
fused = (a.astype(np.float64) * b + c).astype(np.float32)   # one rounding (fma)
print("a*b+c equal to rounded-then-added:", int((got == plain).sum()), "to fma:",
      int((got == fused).sum()), "of", n)
d = np.abs(a32(n)) + np.float32(0.5)
want = a / np.float32(3)
got_c = np.asarray(f(lambda a: a / np.float32(3))(a))
got_b = np.asarray(f(lambda a, d: a / d)(a, np.full(n, 3, np.float32)))
got_v = np.asarray(f(lambda a, d: a / d)(a, d))
print("a / 3 (constant) correctly rounded:", int((got_c == want).sum()), "| a / b (b = 3):",
      int((got_b == want).sum()), "| a / d:", int((got_v == a / d).sum()), "of", n)
for size in (100, 5000, 10 ** 6):
    v = a32(size)
    v[size // 2] = np.nan
    mx = float(np.asarray(f(lambda v: lax.reduce_max(v, (0,)))(v)))
    mn = float(np.asarray(f(lambda v: lax.reduce_min(v, (0,)))(v)))
    print(f"max/min of {size} with a NaN:", mx, mn)
"""),
    ("jnp svd 8x8", "print(jnp.linalg.svd(a32(8, 8))[1])"),
    ("la svd 8x8 precision default", """
xp.set_matmul_precision('default')
print(xp.linalg.svd(xp.asarray(a32(8, 8)))[1])
"""),
    ("la svd 8x8", "print(xp.linalg.svd(xp.asarray(a32(8, 8)))[1])"),
    ("la svdvals 8x8", "print(xp.linalg.svdvals(xp.asarray(a32(8, 8))))"),
    ("la svd 1000x20 thin", "print(xp.linalg.svd(xp.asarray(a32(1000, 20)), full_matrices=False)[1][:3])"),
    ("jnp pinv 256", "print(float(jnp.linalg.pinv(a32(256, 256))[0, 0]))"),
    ("la pinv 256", "print(float(xp.linalg.pinv(xp.asarray(a32(256, 256)))[0, 0]))"),
    ("la lstsq 256", "print(float(xp.linalg.lstsq(xp.asarray(a32(256, 256)), xp.asarray(a32(256)))[0][0]))"),
    ("la sum f32 small", "x = a32(7, 5); print(rel(xp.sum(xp.asarray(x)), x.astype(float).sum()))"),
    ("la sum f32 axis", "x = a32(7, 5); print(rel(xp.sum(xp.asarray(x), axis=0), x.astype(float).sum(0)))"),
    ("la sum f32 large", "x = a32(100000); print(rel(xp.sum(xp.asarray(x)), x.astype(float).sum()))"),
    ("la sum i32", "x = np.arange(10, dtype=np.int32); print(xp.sum(xp.asarray(x)), xp.sum(xp.asarray(x)).dtype)"),
    ("la sum i64", "x = np.arange(10, dtype=np.int64); print(xp.sum(xp.asarray(x)))"),
    ("la sum u8", "x = np.arange(10, dtype=np.uint8); print(xp.sum(xp.asarray(x)))"),
    ("la sum bool", "x = np.arange(10) % 2 == 0; print(xp.sum(xp.asarray(x)))"),
    ("la sum c64", "x = a32(7) + 1j * a32(7); print(xp.sum(xp.asarray(x.astype(np.complex64))))"),
    ("la sum f64", "x = np.arange(10.0); print(xp.sum(xp.asarray(x)))"),
    ("la sum f32 dtype f64", "x = a32(9); print(xp.sum(xp.asarray(x), dtype=xp.float64))"),
    ("la sum 0-d", "print(xp.sum(xp.asarray(np.float32(3.0))))"),
    ("la sum empty", "print(xp.sum(xp.asarray(np.zeros((0, 3), np.float32)), axis=0))"),
    ("la mean f32", "x = a32(6, 5); print(rel(xp.mean(xp.asarray(x), axis=1), x.astype(float).mean(1)))"),
    ("la std f32", "x = a32(6, 5); print(rel(xp.std(xp.asarray(x), axis=0, correction=1), x.astype(float).std(0, ddof=1)))"),
    ("la mean f64", "x = np.arange(6.0); print(xp.mean(xp.asarray(x)))"),
    ("la fft c64", "x = (a32(8) + 1j * a32(8)).astype(np.complex64); print(rel(xp.fft.fft(xp.asarray(x)), np.fft.fft(x)))"),
    ("la rfft f32", "x = a32(64); print(rel(xp.fft.rfft(xp.asarray(x)), np.fft.rfft(x)))"),
    ("jnp fft c64", "x = (a32(8) + 1j * a32(8)).astype(np.complex64); print(rel(jnp.fft.fft(x), np.fft.fft(x)))"),
    ("la fft linspace", "print(xp.fft.rfft(xp.linspace(0, 1, 64)).dtype, xp.linspace(0, 1, 64).dtype)"),
    ("la asarray f64", "import numpy as np; xp.asarray(np.ones(3))"),
    ("la log10 f32", "x = np.abs(a32(1000)) + 0.1; print(rel(xp.log10(xp.asarray(x)), np.log10(x.astype(float))))"),
    ("la log2 f32", "x = np.abs(a32(1000)) + 0.1; print(rel(xp.log2(xp.asarray(x)), np.log2(x.astype(float))))"),
    ("la matmul i64 data", "x = np.arange(12).reshape(3, 4); print((xp.asarray(x) @ xp.asarray(x.T)).dtype)"),
    ("la matmul i32", "x = np.arange(12, dtype=np.int32).reshape(3, 4); print(xp.asarray(x) @ xp.asarray(x.T))"),
    ("la spsp", """
import scipy.sparse as sps
from laxarray import sparse
a = sps.random_array((50, 40), density=0.1, rng=0, format='csr').astype(np.float32)
A = sparse.BCOO.from_scipy_sparse(a)
print(rel((A @ A.T).todense(), (a @ a.T).toarray()))
"""),
    ("la eig", "print(xp.linalg.eigvals(xp.asarray(a32(4, 4))))"),
    ("la argsort i64 out", "print(xp.argsort(xp.asarray(a32(10))).dtype)"),
    ("la cumsum i64", "print(xp.cumulative_sum(xp.asarray(np.arange(10))))"),
    ("la unique", "print(xp.unique_values(xp.asarray(np.array([3, 1, 3, 2], np.int32))))"),
    # issue 54: the workflow's first run on an empty store compiled 175 kernels in 117 s on
    # the chip (2026-12-06): which programs take the time (jax's compile log, per program;
    # lowering and XLA's compile apart); --dry runs it at 2000 x 100
    ("sklearn compile times", """
import logging, re, collections, sklearn
from sklearn.preprocessing import StandardScaler
from sklearn.decomposition import PCA
from sklearn.linear_model import Ridge
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.metrics.pairwise import euclidean_distances
times = collections.defaultdict(list)
class Grab(logging.Handler):
    def emit(self, record):
        m = re.match(r"Finished (.*?) (?:of|for) (.*?) in ([0-9.e-]+) sec", record.getMessage())
        if m:
            times[(m.group(1), m.group(2))].append(float(m.group(3)))
h = Grab(); h.setLevel(logging.DEBUG)
for name in ("jax", "jax._src"):
    logging.getLogger(name).addHandler(h)
jax.config.update("jax_log_compiles", True)
n = 2000 if jax.default_backend() == "cpu" else 10 ** 6
X = (rng.standard_normal((n, 100)) * np.linspace(0.5, 3.0, 100)).astype(np.float32)
y = (X @ rng.standard_normal(100)).astype(np.float32)
X, y, c = xp.asarray(X), xp.asarray(y), xp.asarray((np.asarray(y) > 0).astype(np.int32))
t = time.perf_counter()
with sklearn.config_context(array_api_dispatch=True):
    StandardScaler().fit(X).transform(X)
    PCA(n_components=5, svd_solver="full").fit(X).transform(X)
    Ridge(solver="svd").fit(X, y).predict(X)
    LinearDiscriminantAnalysis().fit(X, c).predict(X)
    jax.block_until_ready(euclidean_distances(X[:1000], X[:10000]).__jax_array__())
print(f"workflow {time.perf_counter() - t:.1f} s")
stages = collections.Counter()
for (stage, prog), v in times.items():
    stages[stage] += sum(v)
print("by stage:", {k: round(v, 1) for k, v in stages.most_common()})
comp = sorted(((sum(v), len(v), p) for (s, p), v in times.items() if "XLA compilation" in s), reverse=True)
print("programs compiled", sum(k for _, k, _ in comp), "in", round(sum(t for t, _, _ in comp), 1), "s; slowest:")
for t, k, p in comp[:25]:
    print(f"  {t:7.2f} s  x{k}  {p[:90]}")
"""),
    # issue 54: unique_kernel's four programs took ~90 s of the workflow's compiling on the
    # chip (LDA's labels, 10**6 int32): each piece's compile time alone, and jnp.unique's
    ("unique parts", """
from jax import lax
from laxarray.array_api.sets import unique_kernel
n = 2 ** 10 if jax.default_backend() == "cpu" else 2 ** 20
k = jnp.asarray(rng.integers(0, 2, n).astype(np.int32))
f = jnp.asarray(rng.standard_normal(n).astype(np.float32))
io = lambda v: lax.iota(np.int32, v.shape[0])
pieces = {
    "sort int32": lambda v: lax.sort(v),
    "sort int32 unstable+iota": lambda v: lax.sort((v, io(v)), num_keys=1),
    "sort int32 stable+iota": lambda v: lax.sort((v, io(v)), num_keys=1, is_stable=True),
    "sort int32 stable, 2 + iota": lambda v: lax.sort((v, v, io(v)), num_keys=1, is_stable=True),
    "sort float32 stable+iota": (lambda v: lax.sort((v, io(v)), num_keys=1, is_stable=True), f),
    "cumsum int32": lambda v: lax.cumsum(v, 0),
    "scatter-add": lambda v: jnp.zeros(n, np.int32).at[v].add(1),
    "unique values": lambda v: unique_kernel.run_xla(v, size=None, fill_value=None, want="values"),
    "unique all": lambda v: unique_kernel.run_xla(v, size=None, fill_value=None, want="all"),
    "jnp.unique size=n": lambda v: jnp.unique(v, size=n),
}
for name, p in pieces.items():
    fn, arg = p if isinstance(p, tuple) else (p, k)
    t = time.perf_counter()
    try:
        exe = jax.jit(fn).lower(arg).compile()
        c = time.perf_counter() - t
        jax.block_until_ready(exe(arg)); t = time.perf_counter(); jax.block_until_ready(exe(arg))
        print(f"{name}: compile {c:.2f} s, run {1e3 * (time.perf_counter() - t):.2f} ms", flush=True)
    except Exception as e:
        print(f"{name}: {type(e).__name__} {str(e)[:100]}", flush=True)
"""),
    # issue 54: lax.cumsum of 2**20 int32 compiled in 26 s on the chip (XLA's reduce-window
    # lowering), more than a sort of the same size (11 s): the size where that starts, and
    # the alternatives' compile and run times (jax's associative scan, laxarray's blocked
    # integer scan, two levels of reduce-window)
    ("cumsum forms", """
from jax import lax
from laxarray.sparse._keys import cumsum as blocked
def two_level(v, b=1024):
    n = v.shape[0]; m = -(-n // b)
    w = lax.reshape(lax.pad(v, lax.full((), 0, v.dtype), [(0, m * b - n, 0)]), (m, b))
    within = lax.cumsum(w, axis=1)
    tot = within[:, b - 1]
    off = lax.cumsum(tot, axis=0) - tot
    return lax.reshape(within + off[:, None], (m * b,))[:n]
forms = {"lax.cumsum": lambda v: lax.cumsum(v, axis=0),
         "associative_scan": lambda v: lax.associative_scan(lax.add, v),
         "blocked (ints)": blocked, "two-level": two_level}
big = 2 ** 12 if jax.default_backend() == "cpu" else 2 ** 24
cases = [("lax.cumsum", np.int32, 2 ** 12), ("lax.cumsum", np.int32, 2 ** 16)]
cases += [(f, d, n) for n in (2 ** 20, big) for f in forms for d in (np.int32, np.float32)
          if not (f == "blocked (ints)" and d == np.float32) and not (f == "lax.cumsum" and (n == big or d == np.float32))]
for name, dt, n in cases:
    v = jnp.asarray((rng.integers(0, 3, n) if dt == np.int32 else rng.standard_normal(n)).astype(dt))
    t = time.perf_counter()
    try:
        exe = jax.jit(forms[name]).lower(v).compile()
        c = time.perf_counter() - t
        out = exe(v); jax.block_until_ready(out)
        runs = []
        for _ in range(3):
            t = time.perf_counter(); jax.block_until_ready(exe(v)); runs.append(time.perf_counter() - t)
        ref = np.cumsum(np.asarray(v, np.float64))
        err = float(np.max(np.abs(np.asarray(out, np.float64) - ref)) / max(1.0, np.max(np.abs(ref))))
        print(f"{name} {np.dtype(dt).name} 2**{int(np.log2(n))}: compile {c:.2f} s, run {1e3 * min(runs):.2f} ms, rel err {err:.1e}", flush=True)
    except Exception as e:
        print(f"{name} {np.dtype(dt).name} {n}: {type(e).__name__} {str(e)[:100]}", flush=True)
"""),
    ("sklearn workflow", """
import sklearn
from sklearn.preprocessing import StandardScaler
from sklearn.decomposition import PCA
from sklearn.linear_model import Ridge
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
X = a32(20000, 64); y = (X[:, 0] > 0).astype(np.float32); labels = (X[:, 1] > 0).astype(np.int64)
with sklearn.config_context(array_api_dispatch=True):
    Xs = StandardScaler().fit_transform(xp.asarray(X))
    Z = PCA(n_components=8, svd_solver='full').fit_transform(Xs)
    r = Ridge(solver='svd').fit(Xs, xp.asarray(y))
    lda = LinearDiscriminantAnalysis().fit(Xs, xp.asarray(labels))
print('ok', Z.shape, float(r.coef_[0]), lda.score(Xs, xp.asarray(labels)))
"""),
]

# The cases that compare with jax.numpy run twice: on laxarray, and on jax.numpy in jax's
# 32-bit mode.  In the 64-bit mode ``import laxarray`` switches on, jax.numpy's own SVD of
# a float32 matrix aborts the TPU compiler (TransposeFolding, 2026-12-06) -- the program
# laxarray's polar_svd avoids -- so it cannot share the process' mode.
_BOTH = ("svd accuracy 666x5", "ridge predictions")
for _name, _code in [c for c in CASES if c[0] in _BOTH]:
    CASES.remove((_name, _code))
    CASES.append((_name, 'NS, NAME = xp, "laxarray"\n' + _code))
    CASES.append((_name + " jnp", 'jax.config.update("jax_enable_x64", False)\ntry:\n'
                  '    NS, NAME = jnp, "jnp (32-bit mode)"\n'
                  + "".join("    " + line + "\n" for line in _code.strip().splitlines())
                  + 'finally:\n    jax.config.update("jax_enable_x64", True)\n'))


#: names skipped by --sweep: they change process-wide settings or need other arguments
SWEEP_SKIP = {"set_matmul_precision", "set_rank_promotion", "set_host_sort", "seterr",
              "frompyfunc", "vectorize", "from_dlpack", "piecewise", "apply_along_axis",
              "apply_over_axes", "fromfunction", "load", "save", "savez", "savez_compressed",
              "loadtxt", "savetxt", "genfromtxt", "fromfile", "tofile", "printoptions",
              "set_printoptions", "errstate"}


def sweep_names():
    """The public callables of laxarray, linalg and fft (listed by a process kept off the
    chip: only one process may hold it)."""
    code = ("import laxarray as x\n"
            "for p, m in (('', x), ('linalg.', x.linalg), ('fft.', x.fft)):\n"
            "    for n in getattr(m, '__all__', None) or [k for k in dir(m) if not k.startswith('_')]:\n"
            "        o = getattr(m, n, None)\n"
            "        if callable(o) and not isinstance(o, type): print(p + n)\n")
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    return [n for n in out if n.split(".")[-1] not in SWEEP_SKIP]


class _Lines:
    """A case's stdout: kept whole, and each line also written to the progress log as it
    comes (``{"partial": case, "line": ...}``), so a case cut off by a hang or a limit
    still says how far it got."""

    def __init__(self, text, log, name):
        self.text, self.log, self.name, self.pending = text, log, name, ""

    def write(self, s):
        self.text.write(s)
        self.pending += s
        while "\n" in self.pending:
            line, self.pending = self.pending.split("\n", 1)
            self.log.write(json.dumps({"partial": self.name, "line": line}) + "\n")
            self.log.flush()
        return len(s)

    def flush(self):
        pass


def child(names, out):
    """Run ``names`` in order; before each, append ``start NAME`` to ``out``."""
    import traceback
    glb = {}
    exec(PRELUDE, glb)
    codes = dict(CASES)
    codes.update({n: f"print(sweep({n!r}))" for n in names if n not in codes})
    with open(out, "a") as log:
        for name in names:
            log.write(json.dumps({"start": name}) + "\n")
            log.flush()
            os.fsync(log.fileno())
            t = time.perf_counter()
            import io
            import contextlib
            buf = _Lines(io.StringIO(), log, name)
            try:
                with contextlib.redirect_stdout(buf):
                    exec(codes[name], dict(glb))
                rec = {"case": name, "status": "ok", "out": buf.text.getvalue()[-2000:]}
            except BaseException as e:  # noqa: BLE001 (recorded, not raised)
                rec = {"case": name, "status": "raised", "out": buf.text.getvalue()[-1000:],
                       "error": f"{type(e).__module__}.{type(e).__name__}: {e}"[:3000],
                       "where": traceback.format_exc()[-1500:]}
            rec["seconds"] = round(time.perf_counter() - t, 3)
            log.write(json.dumps(rec) + "\n")
            log.flush()
            os.fsync(log.fileno())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--dump", help="a folder for XLA's HLO of every child")
    parser.add_argument("--dry", action="store_true", help="on the CPU")
    parser.add_argument("--only", help="comma-separated case names")
    parser.add_argument("--sweep", metavar="K/N",
                        help="instead of the cases: call every public function of laxarray, "
                             "linalg and fft (the K-th of N shares) with simple float32 "
                             "arguments, for aborts and errors that are not laxarray's")
    parser.add_argument("--limit", type=float, default=None,
                        help="seconds a child may run before it is killed and its case "
                             "recorded as cut off (the lines it printed are kept)")
    parser.add_argument("--child", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    progress = os.path.join(args.out, "progress.jsonl")
    if args.child is not None:
        child(args.child, progress)
        return
    names = [n for n, _ in CASES]
    if args.sweep:
        k, n = (int(v) for v in args.sweep.split("/"))
        names = sweep_names()
        size = -(-len(names) // n)
        names = names[(k - 1) * size:k * size]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    if os.path.exists(progress):
        os.remove(progress)
    done, runs, aborted_runs = set(), 0, []
    while len(done) < len(names):
        todo = [n for n in names if n not in done]
        env = dict(os.environ)
        if args.dry:
            env["JAX_PLATFORMS"] = "cpu"
        if args.dump:
            flags = env.get("XLA_FLAGS", "")
            env["XLA_FLAGS"] = (f"{flags} --xla_dump_to={args.dump}/{runs} "
                                "--xla_dump_hlo_as_text").strip()
        try:
            rc = subprocess.run([sys.executable, __file__, "--out", args.out, "--child", *todo],
                                env=env, cwd=ROOT, timeout=args.limit).returncode
        except subprocess.TimeoutExpired:   # (the child is killed: the case is cut off)
            rc = "timeout"
        last, lines = None, {}
        with open(progress) as fh:
            for line in fh:
                rec = json.loads(line)
                if "start" in rec:
                    last = rec["start"]
                elif "partial" in rec:
                    lines.setdefault(rec["partial"], []).append(rec["line"])
                else:
                    done.add(rec["case"])
        if last is not None and last not in done:
            with open(progress, "a") as fh:
                fh.write(json.dumps({"case": last, "rc": rc, "dump": runs,
                                     "status": "cut off" if rc == "timeout" else "aborted",
                                     "out": "\n".join(lines.get(last, []))}) + "\n")
            done.add(last)
            aborted_runs.append(runs)
        elif rc != 0 and len(done) < len(names):
            break
        runs += 1
        time.sleep(1)
    if args.dump and aborted_runs:   # keep the dumps of the runs that aborted
        with tarfile.open(os.path.join(args.out, "aborted_dumps.tar.gz"), "w:gz") as tar:
            for r in aborted_runs:
                path = os.path.join(args.dump, str(r))
                if os.path.isdir(path):
                    tar.add(path, arcname=f"dump{r}")
    recs = [r for r in map(json.loads, open(progress)) if "case" in r]
    os.remove(progress)
    with open(os.path.join(args.out, "probe.jsonl"), "w") as fh:
        for rec in recs:
            fh.write(json.dumps(rec) + "\n")
    for rec in recs:
        text = rec.get("error") or rec.get("out", "")
        if not args.sweep or rec["status"] != "ok" or "BAD" in text:
            print(f"{rec['status']:8s} {rec['case']:28s} {text.strip()[:300]!r}")
    if args.sweep:
        outs = [r.get("out", "") for r in recs if r["status"] == "ok"]
        print(f"sweep: {len(recs)} functions, {sum(o.startswith('ok') for o in outs)} ran, "
              f"{sum(o.startswith('none') for o in outs)} took no pattern, "
              f"{sum(o.startswith('BAD') for o in outs)} BAD, "
              f"{sum(r['status'] != 'ok' for r in recs)} raised or aborted")


if __name__ == "__main__":
    main()
