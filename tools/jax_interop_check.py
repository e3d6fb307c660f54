"""laxarray beside a user's jax program, on the machine at hand (the lent TPU's, or the CPU).

1. ``tests/data/user_jax_program.py`` runs twice, without and with ``import laxarray``; the
   two outputs (jax's settings, dtypes and values of the user's jax.numpy computations, the
   float32 SVD that aborted the TPU compiler under an earlier laxarray) must be equal.
2. In a third process, jax in its default 32-bit mode: laxarray's values through the
   user's ``jax.jit``, ``jax.vmap``, ``jax.grad`` (of a function and of a jitted one),
   ``jax.vjp`` and ``jax.jvp`` -- reverse mode through a gather, a sort, an SVD, an FFT, a
   cumulative product -- against NumPy (central differences), in the backend's default
   float dtype, and int64 values above 2**31 exact under ``jax.jit``.

Only one process may hold a TPU: the parent imports neither jax nor laxarray.

    python3 tools/jax_interop_check.py [--dry] [--out DIR]
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = os.path.join(ROOT, "tests", "data", "user_jax_program.py")

_TRANSFORMS = r"""
import json, warnings
import numpy as np, jax
import laxarray as lx
from laxarray._core import backend
warnings.simplefilter("error", UserWarning)     # jax's truncation warning is a failure here
F = lx.ones(1).dtype                             # float64 on a CPU, float32 on a TPU
TOL = 1e-9 if F == np.float64 else 2e-3
X = np.array([[0.35, -1.2, 0.8], [1.45, 0.15, -0.55]])
IDX = np.array([2, 0, 2, 1])
CASES = {
    "gather": (lambda v: lx.take(v, lx.asarray(IDX), axis=1), lambda v: np.take(v, IDX, axis=1)),
    "sort": (lambda v: lx.sort(v, axis=1), lambda v: np.sort(v, axis=1)),
    "svdvals": (lambda v: lx.linalg.svdvals(v), lambda v: np.linalg.svd(v, compute_uv=False)),
    "fft": (lambda v: lx.abs(lx.fft.fft(v, axis=-1)), lambda v: np.abs(np.fft.fft(v, axis=-1))),
    "cumprod": (lambda v: lx.cumulative_prod(v, axis=1), lambda v: np.cumprod(v, axis=1)),
}
def fd(f, x, h=1e-5):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x); e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g
out = {"backend": jax.default_backend(), "float": str(F), "x64": bool(jax.config.jax_enable_x64)}
x = lx.asarray(X, dtype=F)
for name, (fn, np_fn) in CASES.items():
    w = np.cos(np.arange(np_fn(X).size)).reshape(np_fn(X).shape) + 1.5
    loss = lambda v: lx.sum(fn(lx.asarray(v)) * lx.asarray(w, dtype=F))
    scalar = lambda v: jax.tree.leaves(loss(v))[0]
    want = fd(lambda v: float(np.sum(np_fn(v) * w)), X)
    got = {"jit": np.asarray(jax.jit(fn)(x)), "vmap": np.asarray(jax.vmap(fn)(lx.stack([x, x]))[1])}
    if name == "svdvals" and backend.current().polar_svd:
        # laxarray's own SVD there iterates in a while loop: no reverse mode (as before)
        e = max(float(np.max(np.abs(v - np_fn(X)))) for v in got.values())
        out[name] = {"forward only": e, "ok": e <= TOL * 10}
        continue
    got |= {"grad": np.asarray(jax.grad(scalar)(x._value)),
           "jit(grad)": np.asarray(jax.jit(jax.grad(scalar))(x._value)),
           "grad(jit)": np.asarray(jax.grad(jax.jit(scalar))(x._value)),
           "vjp": np.asarray(jax.vjp(loss, x)[1](lx.asarray(1.0, dtype=F))[0]),
           "jvp": float(jax.jvp(loss, (x,), (lx.asarray(X, dtype=F),))[1])}
    errs = {k: float(np.max(np.abs(v - (np_fn(X) if k in ("jit", "vmap") else want))))
            for k, v in got.items() if k != "jvp"}
    errs["jvp"] = abs(got["jvp"] - float(np.sum(want * X)))
    out[name] = {"dtypes": sorted({str(np.asarray(v).dtype) for v in got.values()}),
                 "worst": max(errs.values()), "ok": max(errs.values()) <= TOL * 10}
big = lx.asarray([2**40 + 1, -3])
out["int64 jit"] = jax.jit(lambda v: v * 3 + 1)(big).tolist() == [3 * 2**40 + 4, -8]
print(json.dumps(out))
"""


def _run(args, env):
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    if proc.returncode != 0:
        return {"failed": proc.returncode, "stderr": proc.stderr[-3000:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry", action="store_true", help="on the CPU")
    parser.add_argument("--out", help="a directory for summary.json")
    args = parser.parse_args()
    env = dict(os.environ, LAXARRAY_STORE_HINT="0", PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env.pop("JAX_ENABLE_X64", None)
    if args.dry:
        env["JAX_PLATFORMS"] = "cpu"
    without = _run([PROGRAM, "without"], env)
    with_ = _run([PROGRAM, "with"], env)
    differ = sorted(k for k in set(without) | set(with_) if without.get(k) != with_.get(k))
    transforms = _run(["-c", _TRANSFORMS], env)
    summary = {"program without laxarray": without, "keys that differ with laxarray": differ,
               "laxarray under jax's transformations": transforms}
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "summary.json"), "w") as fh:
            json.dump(summary, fh, indent=1)
    print(json.dumps({"backend": without.get("backend"), "differ": differ,
                      "svdvals": without.get("svdvals"),
                      "transforms": transforms}, indent=1))
    ok = not differ and "failed" not in without and "failed" not in transforms and all(
        v.get("ok", True) for v in transforms.values() if isinstance(v, dict)) and \
        transforms.get("int64 jit")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
