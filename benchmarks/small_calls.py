"""Warm small calls (issue 73, item 3): host conversions and writes through views.

scikit-learn's array-API code reads many 0-d arrays back to Python (``float(x)``,
``bool(x)``, ``int(x)``) and writes into views one element at a time
(``_add_to_diagonal``: ``array[i, i] = value[i]`` on ``covariances[k, :, :]``).  Each case is
timed in one process for laxarray, array_api_strict and NumPy, round-robin (one loop of each
per round, so load from other processes hits every library alike): per call, the median
over ``--rounds`` rounds of loops of ``--calls`` calls, after a warm-up.  Prints
microseconds per call and laxarray's ratio to each peer (no target here: the workflow's is
``cold_start.py`` row (d)).

Cases:

* ``float(x)``: one 0-d float64 Array, read again and again (a cached host copy is the
  answer after the first read);
* ``float(new)``: ``float(a[i])`` for a new 0-d result each call (a kernel, a wait, a copy);
* ``bool(x)``: one 0-d bool Array;
* ``view[i] = 1.0``: a Python scalar written into a row view of a 2-D array;
* ``view[i, i] = d[i]``: scikit-learn's diagonal loop on a 12x12 view of a 2x12x12 array
  (a 0-d Array read from another array, then written);
* ``x + y``, ``sin(x)``, ``x.T``, ``sum(x, 0)`` on 500x20 float64 (the workflow's size):
  one kernel call each, beside ``jax.jit`` of the same lax operation on jax arrays (the
  peer ``jax.jit``: what one call of a compiled XLA program costs, laxarray's floor).

    .venv/bin/python benchmarks/small_calls.py [--rounds 7] [--calls 200]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

import numpy as np

LIBS = ("laxarray", "array_api_strict", "numpy", "jax.jit")


def _cases(xp):
    """``{name: a function of one loop index}`` for the namespace ``xp``."""
    rng = np.random.default_rng(0)
    x = xp.asarray(1.5)
    b = xp.asarray(True)
    a = xp.asarray(rng.standard_normal(64))
    m = xp.asarray(np.zeros((8, 16)))
    cov = xp.asarray(np.zeros((2, 12, 12)))
    d = xp.asarray(rng.standard_normal(12))
    row = m[3, ...]
    block = cov[1, :, :]

    def write_diag(i):
        k = i % 12
        block[k, k] = d[k]

    def write_row(i):
        row[i % 16, ...] = 1.0

    big = xp.asarray(rng.standard_normal((500, 20)))
    return {"float(x)": lambda i: float(x),
            "float(new)": lambda i: float(a[i % 64]),
            "bool(x)": lambda i: bool(b),
            "view[i] = 1.0": write_row,
            "view[i, i] = d[i]": write_diag,
            "x + y": lambda i: big + big,
            "sin(x)": lambda i: xp.sin(big),
            "x.T": lambda i: big.T,
            "sum(x, 0)": lambda i: xp.sum(big, axis=0)}


def _jit_cases():
    """The array cases as ``jax.jit`` of the lax operation on a jax array (jax's 64-bit
    mode turned on in this benchmark process, as laxarray's kernels run in it)."""
    import jax
    from jax import lax
    jax.config.update("jax_enable_x64", True)
    big = jax.device_put(np.random.default_rng(0).standard_normal((500, 20)))
    add, sin = jax.jit(lax.add), jax.jit(lax.sin)
    transpose = jax.jit(lambda v: lax.transpose(v, (1, 0)))
    total = jax.jit(lambda v: lax.reduce_sum(v, (0,)))
    return {"x + y": lambda i: add(big, big), "sin(x)": lambda i: sin(big),
            "x.T": lambda i: transpose(big), "sum(x, 0)": lambda i: total(big)}


def _loop(fn, calls):
    t0 = time.perf_counter()
    for i in range(calls):
        fn(i)
    return (time.perf_counter() - t0) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds of loops (median)")
    parser.add_argument("--calls", type=int, default=200, help="calls per loop")
    args = parser.parse_args()
    cases = {lib: (_jit_cases() if lib == "jax.jit" else _cases(importlib.import_module(lib)))
             for lib in LIBS}
    names = list(cases[LIBS[0]])
    runs = {(lib, n): [] for lib in LIBS for n in names if n in cases[lib]}
    for lib, n in runs:           # warm-up: compiles, caches
        _loop(cases[lib][n], 20)
    for r in range(args.rounds):
        order = LIBS[r % len(LIBS):] + LIBS[:r % len(LIBS)]
        for n in names:
            for lib in order:
                if (lib, n) in runs:
                    runs[lib, n].append(_loop(cases[lib][n], args.calls))
    med = {k: statistics.median(v) * 1e6 for k, v in runs.items()}
    print(f"{'case':<20}" + "".join(f"{lib + ' us':>20}" for lib in LIBS)
          + f"{'lx/strict':>11}{'lx/numpy':>10}{'lx/jit':>8}")
    for n in names:
        lx = med["laxarray", n]
        jit = med.get(("jax.jit", n))
        print(f"{n:<20}" + "".join(f"{med[lib, n]:>20.2f}" if (lib, n) in med else f"{'-':>20}"
                                   for lib in LIBS)
              + f"{lx / med['array_api_strict', n]:>10.2f}x{lx / med['numpy', n]:>9.2f}x"
              + (f"{lx / jit:>7.2f}x" if jit else f"{'-':>8}"))


if __name__ == "__main__":
    main()
