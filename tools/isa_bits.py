"""Which results depend on the CPU's instruction set: every elementwise function of the
standard, and the reductions and products, run in one child process per ``--xla_cpu_max_isa``
value on the same inputs, compared bit for bit (issue 57).

XLA:CPU compiles for the host's instruction set, so the same program may round differently
on an AVX2-only CPU and an AVX-512 one (a float64 -> float16 conversion went through float32
on one and not on the other).  This prints, per function and dtype, how many results differ
between the instruction sets and by how many ulps at most; ``docs/performance.md``'s numerics
section lists what it found.  ``make test`` runs the exact-bit tests under AVX2 as well
(``make test-isa``)::

    .venv/bin/python tools/isa_bits.py                 # AVX, AVX2 and the host's own
    .venv/bin/python tools/isa_bits.py --isa AVX2 AVX512

A child writes its results to an ``.npz`` file; the parent only compares.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
DTYPES = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
REDUCTIONS = ("sum", "prod", "mean", "std", "cumulative_sum", "matmul", "vecdot")


def _values(dtype, n, seed):
    """``n`` values of ``dtype`` over its whole range: log-uniform magnitudes of both signs,
    values near 0 and 1, subnormals, integers, infinities, NaN and signed zeros."""
    import ml_dtypes
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    real = np.dtype(dt.char.lower() if dt.kind == "c" else dt) if dtype != "bfloat16" else dt
    info = ml_dtypes.finfo(real) if dtype == "bfloat16" else np.finfo(real)
    rng = np.random.default_rng(seed)
    lo, hi = np.log2(float(info.smallest_subnormal)), np.log2(float(info.max))

    def part(k):
        mag = np.exp2(rng.uniform(lo, hi, k))
        near = np.concatenate([rng.uniform(-4, 4, k // 4), 1 + rng.uniform(-1e-3, 1e-3, k // 8),
                               np.round(rng.uniform(-50, 50, k // 8))])
        edge = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, float(info.tiny),
                         float(info.smallest_subnormal), float(info.max)])
        v = np.concatenate([mag * rng.choice([-1.0, 1.0], k), near, edge])
        with np.errstate(over="ignore"):
            return v[:k].astype(real) if v.size >= k else np.resize(v, k).astype(real)
    out = part(n)
    if dt.kind == "c":
        out = (out.astype(np.float64) + 1j * part(n).astype(np.float64)).astype(dt)
    return out


def _names():
    import laxarray as xp
    from laxarray.array_api import (elementwise, elementwise_bitwise, elementwise_compare,
                                    elementwise_floating, elementwise_math,
                                    elementwise_pairwise)
    names = sorted({n for m in (elementwise, elementwise_bitwise, elementwise_compare,
                                elementwise_floating, elementwise_math, elementwise_pairwise)
                    for n in m.__all__})
    return xp, [n for n in names if callable(getattr(xp, n, None))]


def child(path, n):
    """Every function on every dtype it takes, results into ``path`` (``.npz``)."""
    import inspect
    xp, names = _names()
    results = {}
    for dtype in DTYPES:
        a, b = _values(dtype, n, 1), _values(dtype, n, 2)
        xa, xb = xp.asarray(a), xp.asarray(b)
        for name in names + list(REDUCTIONS):
            fn = getattr(xp, name)
            try:
                nargs = len([p for p in inspect.signature(fn).parameters.values()
                             if p.kind == p.POSITIONAL_ONLY])
            except (TypeError, ValueError):
                continue
            try:
                if name == "matmul":
                    k = int(np.sqrt(n)) // 2
                    got = fn(xa[:k * k].reshape(k, k), xb[:k * k].reshape(k, k))
                elif name in REDUCTIONS:
                    got = fn(xa, xb) if nargs == 2 else fn(xa)
                else:
                    got = fn(xa, xb) if nargs == 2 else fn(xa)
            except (TypeError, ValueError):
                continue  # not defined for this dtype
            got = np.ascontiguousarray(np.asarray(got)).reshape(-1)
            if got.dtype.kind == "c":  # the parts, side by side
                got = got.view(np.float32 if got.dtype == np.complex64 else np.float64)
            results[f"{name}|{got.dtype.name}|{dtype}"] = got.view(f"u{got.dtype.itemsize}")
    np.savez(path, **results)


def _ulps(x, y, out):
    """Largest distance in ulps between the finite results ``x`` and ``y`` (bit views of
    float results of dtype name ``out``; 0 for integer and bool results)."""
    import ml_dtypes
    dt = np.dtype(ml_dtypes.bfloat16) if out == "bfloat16" else np.dtype(out)
    if dt.kind != "f" and out != "bfloat16":
        return float("nan")
    fx, fy = x.view(dt).astype(np.float64), y.view(dt).astype(np.float64)
    ok = np.isfinite(fx) & np.isfinite(fy)
    if not ok.any():
        return float("inf")
    spacing = np.spacing(np.maximum(np.abs(fx[ok]), np.abs(fy[ok])).astype(dt)).astype(np.float64)
    return float(np.max(np.abs(fx[ok] - fy[ok]) / spacing))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--isa", nargs="+", default=["AVX", "AVX2", "host"],
                        help="--xla_cpu_max_isa values ('host': no flag)")
    parser.add_argument("-n", type=int, default=8192, help="values per dtype (> 4096: XLA "
                        "switches code paths with size)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.n)
        return
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for isa in args.isa:
            env = dict(os.environ, LAXARRAY_COMPILATION_CACHE="0")
            flags = env.get("XLA_FLAGS", "")
            if isa != "host":
                env["XLA_FLAGS"] = f"{flags} --xla_cpu_max_isa={isa}".strip()
            path = os.path.join(tmp, f"{isa}.npz")
            subprocess.run([sys.executable, __file__, "--child", path, "-n", str(args.n)],
                           env=env, check=True, cwd=ROOT)
            runs[isa] = dict(np.load(path))
    first, *others = args.isa
    differ = 0
    for key in sorted(runs[first]):
        name, out, dtype = key.split("|")
        for isa in others:
            x, y = runs[first][key], runs[isa].get(key)
            if y is None or x.shape != y.shape:
                print(f"{name:22s} {dtype:10s} {first} vs {isa}: shapes differ")
                continue
            bad = int(np.sum(x != y))
            if bad:
                differ += 1
                print(f"{name:22s} {dtype:10s} {first} vs {isa}: {bad} of {x.size} differ, "
                      f"max {_ulps(x, y, out):.3g} ulps")
    print(f"{len(runs[first])} function/dtype pairs compared across {', '.join(args.isa)}: "
          f"{differ} differ")


if __name__ == "__main__":
    main()
