"""Sparse L2-regularised logistic regression: laxarray.sparse vs scipy.sparse and jax on CPU.

Design matrix 20,000 x 2,000 at 1% density, float64 (``--quick``: 5,000 x 500).  Prints

1. loss+gradient evaluation: laxarray BCSR and BCOO, jax.experimental.sparse BCOO (and
   BCSR when it works), dense jax.numpy, scipy.sparse+NumPy -- median ms, ratio to scipy,
   compile (first call minus median) separately, and the dense/laxarray-BCSR ratio;
2. the full fit: ``laxarray.optimize.minimize(method="L-BFGS")`` (BCSR, BCOO) vs
   ``scipy.optimize.minimize(method="L-BFGS-B")`` on scipy.sparse, with the final losses
   (evaluated by the same NumPy function) and their difference.  ``jax.scipy.optimize``
   BFGS takes ~85 s on the full problem: it runs only with ``--full`` or ``--bfgs``.

Run: ``.venv/bin/python benchmarks/sparse_regression.py [--quick] [--full] [--bfgs]``.
"""

from __future__ import annotations

import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize as sopt
import scipy.sparse as sps
from jax.experimental import sparse as jsp
from jax.scipy import optimize as jopt

import laxarray as xp
import laxarray.sparse as lsp
from laxarray.optimize import minimize

from _timing import median_time, round_robin  # benchmarks/_timing.py (the script's directory)

QUICK = "--quick" in sys.argv
BFGS = "--full" in sys.argv or "--bfgs" in sys.argv
REPS = 5 if QUICK else 11
FIT_REPS = 3 if QUICK else 5
LAM = 1e-4            # L2 weight: keeps the optimum unique, so final losses can be compared
GTOL = 1e-6           # the same gradient tolerance for every fit (max-norm)


def timeit(f, reps=REPS):
    """(median ms, compile ms = first call minus median) of ``f()``."""
    med, first = median_time(f, reps)
    return med * 1e3, max(first - med, 0.0) * 1e3


def measure_round_robin(fns, reps=REPS):
    """``{name: (median ms, compile ms)}`` of ``fns``, timed round-robin (see _timing)."""
    return round_robin(fns, reps)


def row(name, results, base_key="scipy"):
    base = results[base_key][0]
    cells = []
    for k, v in results.items():
        if isinstance(v, str):
            cells.append(f"{k} {v}")
            continue
        t, c = v
        cells.append(f"{k} {t:9.2f}ms x{t / base:6.2f} (compile {c:6.0f}ms)")
    print(f"{name:22s} | " + " | ".join(cells), flush=True)


def make_problem(n, d, rng):
    a = sps.random_array((n, d), density=0.01, rng=rng, format="csr",
                         data_sampler=rng.standard_normal)
    w = rng.standard_normal(d)
    z = a @ w
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(np.float64)
    return a, y


# ---- the loss, four times: laxarray, jax.numpy, NumPy+scipy.sparse -------------------------
def xp_loss(p, X, y):
    """Mean logistic loss + LAM/2 ||w||^2 with laxarray (X: dense Array, BCOO or BCSR)."""
    z = X @ p[1:] + p[0]
    softplus = xp.maximum(z, 0.0) + xp.log1p(xp.exp(xp.minimum(z, -z)))
    return xp.mean(softplus - y * z) + 0.5 * LAM * xp.sum(p[1:] * p[1:])


def jnp_loss(p, X, y):
    """The same loss with jax.numpy (X: dense jax array or jax.experimental.sparse)."""
    z = X @ p[1:] + p[0]
    return jnp.mean(jax.nn.softplus(z) - y * z) + 0.5 * LAM * jnp.sum(p[1:] * p[1:])


def scipy_loss_and_grad(a, y):
    n = a.shape[0]
    at = a.T.tocsr()

    def f(p):
        z = a @ p[1:] + p[0]
        e = np.logaddexp(0.0, z)
        r = (np.exp(z - e) - y) / n
        g = np.empty_like(p)
        g[0] = r.sum()
        g[1:] = at @ r + LAM * p[1:]
        return float(np.mean(e - y * z) + 0.5 * LAM * p[1:] @ p[1:]), g
    return f


def ours_value_and_grad(X=None):
    """Jitted (loss, grad) of :func:`xp_loss`: ``X`` closed over (a concrete matrix, which
    lets laxarray prepare its layout once) or, when ``X`` is None, a traced argument."""
    def raw(p, X, y):
        return jnp.asarray(xp_loss(xp.asarray(p), X, xp.asarray(y)))
    if X is None:
        return jax.jit(jax.value_and_grad(raw))
    vg = jax.jit(jax.value_and_grad(lambda p, y: raw(p, X, y)))
    return lambda p, _, y: vg(p, y)


def bench_loss_grad(a, y):
    d = a.shape[1]
    rng = np.random.default_rng(1)
    p = 0.1 * rng.standard_normal(d + 1)
    f_sc = scipy_loss_and_grad(a, y)
    jnp_vg = jax.jit(jax.value_and_grad(jnp_loss))
    pj, yj = jax.device_put(p), jax.device_put(y)
    o_csr, o_coo = lsp.BCSR.from_scipy_sparse(a), lsp.BCOO.from_scipy_sparse(a)
    j_coo, dense = jsp.BCOO.from_scipy_sparse(a), jax.device_put(a.toarray())
    cases = {"ours-bcsr": (ours_value_and_grad(o_csr), o_csr),
             "ours-bcoo": (ours_value_and_grad(o_coo), o_coo),
             "ours-bcsr-arg": (ours_value_and_grad(), o_csr),
             "ours-bcoo-arg": (ours_value_and_grad(), o_coo),
             "jax-bcoo": (jnp_vg, j_coo), "dense-jnp": (jnp_vg, dense)}
    ref_f, ref_g = f_sc(p)
    for name, (vg, X) in cases.items():
        fv, gv = vg(pj, X, yj)
        err = max(abs(float(fv) - ref_f), float(np.max(np.abs(np.asarray(gv) - ref_g))))
        if err > 1e-10:
            print(f"  WARNING {name}: loss/gradient differ from scipy by {err:.1e}")
    fns = {"scipy": lambda: f_sc(p)}
    for name, (vg, X) in cases.items():
        fns[name] = lambda vg=vg, X=X: vg(pj, X, yj)
    jax_bcsr = None
    try:
        j_csr = jsp.BCSR.from_scipy_sparse(a)
        jnp_vg(pj, j_csr, yj)
        fns["jax-bcsr"] = lambda: jnp_vg(pj, j_csr, yj)
    except NotImplementedError:
        jax_bcsr = "NotImplementedError"
    res = measure_round_robin(fns)
    if jax_bcsr is not None:
        res["jax-bcsr"] = jax_bcsr
    row(f"loss+grad {a.shape[0]}x{d}", res)
    print(f"{'':22s} | dense-jnp / ours-bcsr = x{res['dense-jnp'][0] / res['ours-bcsr'][0]:.1f}"
          f"   ours-bcsr / scipy = x{res['ours-bcsr'][0] / res['scipy'][0]:.2f}", flush=True)


def bench_fit(a, y):
    d = a.shape[1]
    f_sc = scipy_loss_and_grad(a, y)
    x0 = np.zeros(d + 1)
    results, losses, iters = {}, {}, {}

    def scipy_fit():
        return sopt.minimize(f_sc, x0, jac=True, method="L-BFGS-B", options={"gtol": GTOL})
    r = scipy_fit()
    results["scipy-lbfgsb"] = timeit(scipy_fit, FIT_REPS)
    losses["scipy-lbfgsb"], iters["scipy-lbfgsb"] = f_sc(r.x)[0], int(r.nit)

    yx = xp.asarray(y)

    def ours_fit(X, y):
        return minimize(xp_loss, xp.zeros(d + 1), args=(X, y), method="L-BFGS",
                        options={"gtol": GTOL})
    ours_fit_arg = jax.jit(ours_fit)
    for name, X in (("ours-bcsr", lsp.BCSR.from_scipy_sparse(a)),
                    ("ours-bcoo", lsp.BCOO.from_scipy_sparse(a)),
                    ("ours-bcsr-arg", lsp.BCSR.from_scipy_sparse(a))):
        if name.endswith("-arg"):
            fit = ours_fit_arg                  # X a traced argument of the jitted fit
        else:
            # X closed over: concrete while the solve is traced (laxarray's prepared layout)
            fit = jax.jit(lambda y, X=X: minimize(lambda p: xp_loss(p, X, y), xp.zeros(d + 1),
                                                  method="L-BFGS", options={"gtol": GTOL}))
            fit = (lambda f: lambda X, y: f(y))(fit)
        results[name] = timeit(lambda X=X, fit=fit: fit(X, yx).x, FIT_REPS)
        out = fit(X, yx)
        losses[name], iters[name] = f_sc(np.asarray(out.x))[0], int(out.nit)

    if BFGS:
        j_coo, yj = jsp.BCOO.from_scipy_sparse(a), jax.device_put(y)

        @jax.jit
        def jax_fit(X, y):
            return jopt.minimize(lambda p: jnp_loss(p, X, y), jnp.zeros(d + 1),
                                 method="BFGS", options={"gtol": GTOL})
        t0 = time.perf_counter()
        compiled = jax_fit.lower(j_coo, yj).compile()
        comp = time.perf_counter() - t0
        t0 = time.perf_counter()
        out = jax.block_until_ready(compiled(j_coo, yj))
        results["jax-bfgs"] = ((time.perf_counter() - t0) * 1e3, comp * 1e3)
        losses["jax-bfgs"], iters["jax-bfgs"] = f_sc(np.asarray(out.x))[0], int(out.nit)
    else:
        results["jax-bfgs"] = "skipped (--full or --bfgs)"
    row(f"L-BFGS fit {a.shape[0]}x{d}", results, "scipy-lbfgsb")
    base = losses["scipy-lbfgsb"]
    for k in losses:
        print(f"{'':22s} | {k:12s} final loss {losses[k]:.12f}  |diff to scipy| "
              f"{abs(losses[k] - base):.1e}  nit {iters[k]}", flush=True)


def main():
    rng = np.random.default_rng(0)
    n, d = (5_000, 500) if QUICK else (20_000, 2_000)
    a, y = make_problem(n, d, rng)
    print(f"design matrix {n}x{d}, nnz={a.nnz} ({a.nnz / (n * d):.2%}), float64, "
          f"L2 {LAM:g}, gtol {GTOL:g}; medians of {REPS} (fits: {FIT_REPS})", flush=True)
    bench_loss_grad(a, y)
    bench_fit(a, y)


if __name__ == "__main__":
    main()
