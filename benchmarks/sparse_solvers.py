"""Krylov solvers on the 2-D Poisson problem: laxarray.sparse.linalg vs scipy.sparse.linalg.

The 5-point Laplacian on a k x k grid (k = 500: 250,000 unknowns, ~1.25e6 nonzeros;
``--quick``: k = 150), float64, right-hand side of ones.  For CG, BiCGSTAB and GMRES
(restart 20) it prints

* seconds per iteration: the median of REPS runs of exactly ITERS iterations (tolerance 0,
  so neither library stops early), laxarray with the matrix as a ``jax.jit`` argument of
  the solver (how ``cg`` runs it) in BCOO and BCSR, ratios to scipy;
* iterations to converge at relative tolerance TOL: scipy's count (from its callback), and
  whether laxarray converges within 5% more iterations and not within 5% fewer (two runs
  at those ``maxiter``; GMRES counts restart cycles, as both libraries' ``maxiter`` does,
  and is checked with ``--quick`` only: on the full grid GMRES(20) needs thousands of
  cycles, minutes per solve).

Then the direct solves on a K_DIRECT x K_DIRECT grid: ``spsolve`` (eager, and with the
matrix as a ``jax.jit`` argument) vs ``scipy.sparse.linalg.spsolve``, and a new right-hand
side through a reused factorisation (``splu(A).solve``, eager and inside ``jax.jit``) vs
SuperLU's ``solve``.

Run: ``.venv/bin/python benchmarks/sparse_solvers.py [--quick] [--direct]`` (``--direct``:
the direct solves only).
"""

from __future__ import annotations

import math
import statistics
import sys
import time

import jax
import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import laxarray.sparse as lsp

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _matrices import poisson  # noqa: E402

QUICK = "--quick" in sys.argv
K = 150 if QUICK else 500
ITERS = 50 if QUICK else 100
REPS = 5 if QUICK else 9
TOL = 1e-6
K_DIRECT = 60 if QUICK else 200


def _median(fn):
    fn()
    runs = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def _ours(name, mat, b, **kw):
    solver = getattr(lsp.linalg, name)
    x, info = solver(mat, b, **kw)
    x.block_until_ready()
    return int(info)


def _scipy_iterations(name, a, b, **kw):
    count = [0]

    def callback(_):
        count[0] += 1
    solver = getattr(spla, name)
    if name == "gmres":
        kw["callback_type"] = "x"          # one call per restart cycle
    solver(a, b, rtol=TOL, atol=0.0, callback=callback, **kw)
    return count[0]


def main():
    a = poisson(K)
    n = a.shape[0]
    b = np.ones(n)
    mats = {"bcoo": lsp.BCOO.from_scipy_sparse(a), "bcsr": lsp.BCSR.from_scipy_sparse(a)}
    bj = jax.device_put(b)
    print(f"2-D Poisson {K}x{K}: n={n}, nnz={a.nnz}, float64; medians of {REPS}; "
          f"{ITERS} iterations per timed run", flush=True)
    for name, extra in (("cg", {}), ("bicgstab", {}), ("gmres", {"restart": 20})):
        per_iter = ITERS if name != "gmres" else math.ceil(ITERS / 20)
        steps = per_iter * (20 if name == "gmres" else 1)
        sc = getattr(spla, name)
        t_sc = _median(lambda sc=sc: sc(a, b, rtol=0.0, atol=0.0, maxiter=per_iter, **extra))
        cells = [f"scipy {t_sc / steps * 1e3:7.3f} ms/it"]
        for fmt, mat in mats.items():
            t0 = time.perf_counter()
            _ours(name, mat, bj, tol=0.0, maxiter=per_iter, **extra)
            first = time.perf_counter() - t0
            t = _median(lambda mat=mat: _ours(name, mat, bj, tol=0.0, maxiter=per_iter,
                                              **extra))
            cells.append(f"{fmt} {t / steps * 1e3:7.3f} ms/it x{t / t_sc:5.2f} "
                         f"(first call {first * 1e3:5.0f} ms)")
        print(f"{name:9s} | " + " | ".join(cells), flush=True)
        if name == "gmres" and not QUICK:
            continue
        k_sc = _scipy_iterations(name, a, b, **extra)
        lo, hi = max(1, math.floor(0.95 * k_sc)), math.ceil(1.05 * k_sc)
        verdicts = []
        for fmt, mat in mats.items():
            within = _ours(name, mat, bj, tol=TOL, maxiter=hi, **extra) == 0
            early = _ours(name, mat, bj, tol=TOL, maxiter=lo, **extra) == 0 if lo < hi else False
            verdicts.append(f"{fmt}: converged within {hi}: {within}, within {lo}: {early}")
        unit = "restart cycles" if name == "gmres" else "iterations"
        print(f"{'':9s} | scipy {k_sc} {unit} to rtol {TOL:g}; " + "; ".join(verdicts),
              flush=True)


def direct():
    a = poisson(K_DIRECT)
    n = a.shape[0]
    b = np.random.default_rng(0).standard_normal(n)
    bj = jax.device_put(b)
    csc = sps.csc_array(a)
    print(f"direct solves, 2-D Poisson {K_DIRECT}x{K_DIRECT}: n={n}, nnz={a.nnz}", flush=True)
    t_sc = _median(lambda: spla.spsolve(csc, b))
    cells = [f"scipy {t_sc * 1e3:8.2f} ms"]
    for fmt, mat in (("bcoo", lsp.BCOO.from_scipy_sparse(a)),
                     ("bcsr", lsp.BCSR.from_scipy_sparse(a))):
        arg = jax.jit(lambda m, v: lsp.linalg.spsolve(m, v)._value)
        for label, fn in ((fmt, lambda mat=mat: lsp.linalg.spsolve(mat, bj).block_until_ready()),
                          (f"{fmt}[jit arg]", lambda mat=mat, arg=arg:
                           arg(mat, bj).block_until_ready())):
            t = _median(fn)
            cells.append(f"{label} {t * 1e3:8.2f} ms x{t / t_sc:5.2f}")
    print("spsolve   | " + " | ".join(cells), flush=True)
    ref = spla.splu(csc)
    lu = lsp.linalg.splu(lsp.BCSR.from_scipy_sparse(a))
    inside = jax.jit(lambda v: lu.solve(v)._value)
    t_ref = _median(lambda: ref.solve(b))
    t_lu = _median(lambda: lu.solve(bj).block_until_ready())
    t_in = _median(lambda: inside(bj).block_until_ready())
    print(f"reuse LU  | SuperLU solve {t_ref * 1e3:8.2f} ms | splu(A).solve "
          f"{t_lu * 1e3:8.2f} ms x{t_lu / t_ref:5.2f} | inside jax.jit {t_in * 1e3:8.2f} ms "
          f"x{t_in / t_ref:5.2f}", flush=True)


if __name__ == "__main__":
    if "--direct" not in sys.argv:
        main()
    direct()
