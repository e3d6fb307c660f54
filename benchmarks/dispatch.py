"""Eager call time of common operations: laxarray vs jax.numpy vs NumPy, in one run.

For each operation and size (100 and 10**7 float64 elements) every library is timed as
the median over repeated runs of a loop of calls (results blocked on; the runs of the three
libraries interleave), after one warm-up call whose time (trace + compile for the
jax-based libraries) is reported separately.
Prints a table and the median ratios laxarray/jax.numpy and laxarray/NumPy, overall and
split by how jax.numpy runs the op: as one bare jitted function (``jnp.sin``: jax's C++
dispatch and nothing else, so laxarray, which makes the same dispatch and wraps its result in
an ``Array``, is above 1.0 there by construction) or with Python code first (``jnp.add``'s
ufunc object, operators, ``astype``, slicing).

    .venv/bin/python benchmarks/dispatch.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

import laxarray as lx


def _block(out):
    if isinstance(out, lx.Array):
        out.block_until_ready()
    elif isinstance(out, jax.Array):
        out.block_until_ready()
    return out


#: name -> function(namespace, x, y) using only what all three namespaces share.
OPS = {
    "add": lambda ns, x, y: ns.add(x, y),
    "subtract": lambda ns, x, y: ns.subtract(x, y),
    "multiply": lambda ns, x, y: ns.multiply(x, y),
    "divide": lambda ns, x, y: ns.divide(x, y),
    "x + 1.0": lambda ns, x, y: x + 1.0,
    "x * 2.0": lambda ns, x, y: x * 2.0,
    "x ** 2": lambda ns, x, y: x ** 2,
    "x > y": lambda ns, x, y: x > y,
    "x == y": lambda ns, x, y: x == y,
    "-x": lambda ns, x, y: -x,
    "sin": lambda ns, x, y: ns.sin(x),
    "cos": lambda ns, x, y: ns.cos(x),
    "tanh": lambda ns, x, y: ns.tanh(x),
    "exp": lambda ns, x, y: ns.exp(x),
    "expm1": lambda ns, x, y: ns.expm1(x),
    "log": lambda ns, x, y: ns.log(y),
    "log1p": lambda ns, x, y: ns.log1p(y),
    "sqrt": lambda ns, x, y: ns.sqrt(y),
    "abs": lambda ns, x, y: ns.abs(x),
    "square": lambda ns, x, y: ns.square(x),
    "sign": lambda ns, x, y: ns.sign(x),
    "floor": lambda ns, x, y: ns.floor(x),
    "ceil": lambda ns, x, y: ns.ceil(x),
    "round": lambda ns, x, y: ns.round(x),
    "maximum": lambda ns, x, y: ns.maximum(x, y),
    "minimum": lambda ns, x, y: ns.minimum(x, y),
    "hypot": lambda ns, x, y: ns.hypot(x, y),
    "arctan2": lambda ns, x, y: (ns.atan2 if ns is lx else ns.arctan2)(x, y),
    "logaddexp": lambda ns, x, y: ns.logaddexp(x, y),
    "isnan": lambda ns, x, y: ns.isnan(x),
    "isfinite": lambda ns, x, y: ns.isfinite(x),
    "clip": lambda ns, x, y: ns.clip(x, -0.5, 0.5),
    "zeros_like": lambda ns, x, y: ns.zeros_like(x),
    "astype f32": lambda ns, x, y: x.astype(ns.float32) if ns is not lx else lx.astype(
        x, lx.float32),
    "x[1:-1]": lambda ns, x, y: x[1:-1],
    "matmul (dot)": lambda ns, x, y: ns.matmul(x, y),
}


#: op -> the jax.numpy function it calls, where the op is one call of a named function
JNP_FUNCTION = {name: name for name in OPS if name.isidentifier()}
JNP_FUNCTION["matmul (dot)"] = "matmul"


def bare_jit(op):
    """Whether jax.numpy runs ``op`` as one bare jitted function (a ``PjitFunction``: its
    call is jax's C++ dispatch with no Python before it).  laxarray's call of such an op is
    that same dispatch plus the Array wrapper, so its ratio cannot go below 1.0 there."""
    fn = getattr(jnp, JNP_FUNCTION.get(op, ""), None)
    return type(fn).__name__ == "PjitFunction"


def _time_loop(fn, calls, repeats):
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            _block(fn())
        samples.append((time.perf_counter() - t0) / calls)
    return statistics.median(samples)


def run(sizes, repeats_small=7, repeats_large=5):
    rows = []
    for size in sizes:
        rng = np.random.default_rng(0)
        xn = rng.standard_normal(size)
        yn = rng.uniform(0.5, 2.0, size)
        inputs = {"laxarray": (lx, lx.asarray(xn), lx.asarray(yn)),
                  "jax.numpy": (jnp, jnp.asarray(xn), jnp.asarray(yn)),
                  "numpy": (np, xn, yn)}
        calls = 300 if size <= 1000 else 3
        repeats = repeats_small if size <= 1000 else repeats_large
        for name, op in OPS.items():
            row = {"op": name, "size": size}
            samples = {lib: [] for lib in inputs}
            for lib, (ns, x, y) in inputs.items():
                t0 = time.perf_counter()
                _block(op(ns, x, y))
                row[f"{lib} first"] = time.perf_counter() - t0
            # repeats interleave the libraries, so load on the machine hits all alike
            for _ in range(repeats):
                for lib, (ns, x, y) in inputs.items():
                    samples[lib].append(_time_loop(lambda: op(ns, x, y), calls, 1))
            for lib in inputs:
                row[lib] = statistics.median(samples[lib])
            rows.append(row)
    return rows


def report(rows):
    print(f"{'op':<14}{'size':>10}{'laxarray':>12}{'jax.numpy':>12}{'numpy':>12}"
          f"{'lx/jnp':>9}{'lx/np':>9}{'lx first':>11}{'jnp first':>11}")
    for r in rows:
        print(f"{r['op']:<14}{r['size']:>10}{r['laxarray'] * 1e6:>10.1f}us"
              f"{r['jax.numpy'] * 1e6:>10.1f}us{r['numpy'] * 1e6:>10.1f}us"
              f"{r['laxarray'] / r['jax.numpy']:>9.2f}{r['laxarray'] / r['numpy']:>9.2f}"
              f"{r['laxarray first'] * 1e3:>9.1f}ms{r['jax.numpy first'] * 1e3:>9.1f}ms")
    for size in sorted({r["size"] for r in rows}):
        sub = [r for r in rows if r["size"] == size]
        jr = statistics.median(r["laxarray"] / r["jax.numpy"] for r in sub)
        nr = statistics.median(r["laxarray"] / r["numpy"] for r in sub)
        print(f"size {size}: {len(sub)} ops; median ratio laxarray/jax.numpy = {jr:.2f}, "
              f"laxarray/NumPy = {nr:.2f}")
        for label, part in (("a bare jitted function", [r for r in sub if bare_jit(r["op"])]),
                            ("Python code first", [r for r in sub if not bare_jit(r["op"])])):
            if part:
                pr = statistics.median(r["laxarray"] / r["jax.numpy"] for r in part)
                print(f"  {len(part)} ops where jax.numpy is {label}: median ratio "
                      f"laxarray/jax.numpy = {pr:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small arrays only")
    args = parser.parse_args()
    sizes = [100] if args.quick else [100, 10**7]
    report(run(sizes))


if __name__ == "__main__":
    main()
