"""laxarray.sparse vs scipy.sparse (csr_array) and jax.experimental.sparse on CPU.

Prints, per case, median times (ms) and ratios to scipy, plus first-call (compile) time
separately.  Every case is timed eagerly on a concrete matrix and with the matrix as a
``jax.jit`` argument (``[jit arg]``: the path of a jitted loss, solver or scan step).  The libraries of a case are timed round-robin (one call of each per round),
so load from other processes affects them alike.  The run re-executes itself with XLA's
large buffers on huge pages, as NumPy's are (see ``_memory.py``; ``--no-hugepages`` keeps
glibc's defaults).  Compile times are cold: the persistent compilation cache is off (jax's
too; ``--cache`` keeps it).  laxarray's product layouts are built on the host once per
matrix (on its first product, or when it is first passed to ``jax.jit``); the script builds
them before timing and prints that time on its own line, so "compile" is tracing and XLA
compilation only.  Before the first case, a warm-up on a 5x5 matrix pays each library's
one-time process costs (first traces, the full garbage collection the first large trace
triggers), so they are not charged to the case that happens to run first.
Run: ``.venv/bin/python benchmarks/sparse_vs_scipy.py [--quick] [--no-hugepages] [--cache]``.
"""

from __future__ import annotations

import gc
import os
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _memory import use_huge_pages  # noqa: E402

use_huge_pages()
if "--cache" not in sys.argv:  # compile times are cold ones, for every library alike
    os.environ["LAXARRAY_COMPILATION_CACHE"] = "0"

import jax  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sps  # noqa: E402

import laxarray.sparse as lsp  # noqa: E402
from jax.experimental import sparse as jsp  # noqa: E402

from _matrices import uniform_csr  # noqa: E402
from _timing import round_robin  # noqa: E402

QUICK = "--quick" in sys.argv
REPS = 5 if QUICK else 15


def measure(fns):
    """``{name: (median ms, compile ms)}`` of ``fns``, timed round-robin (see _timing)."""
    return round_robin(fns, REPS)


def _ready(x):
    return getattr(x, "_value", x)


def powerlaw_csr(n, nnz, rng):
    lens = rng.zipf(1.8, size=n).astype(float)
    lens = np.minimum(lens, n // 10)
    lens = np.maximum(1, np.round(lens / lens.sum() * nnz)).astype(int)
    rows = np.repeat(np.arange(n), lens)
    cols = rng.integers(0, n, size=rows.size)
    a = sps.csr_array((rng.standard_normal(rows.size), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


def row(name, results):
    """One line per library: median ms, ratio to scipy, compile ms."""
    base = results["scipy"][0]
    print(name, flush=True)
    for k, (t, c) in results.items():
        print(f"    {k:20s} {t:9.2f} ms  x{t / base:6.2f}   (compile {c:6.0f} ms)",
              flush=True)


def bench_matvec(name, a, rng, cols=None, transpose=False):
    n = a.shape[0]
    x = rng.standard_normal((n, cols) if cols else n)
    ours_coo = lsp.BCOO.from_scipy_sparse(a)
    ours_csr = lsp.BCSR.from_scipy_sparse(a)
    built = {}
    for fmt, m in (("bcoo", ours_coo), ("bcsr", ours_csr)):
        t0 = time.perf_counter()
        jax.block_until_ready(jax.tree_util.tree_leaves(m))  # flattening builds the layouts
        built[fmt] = (time.perf_counter() - t0) * 1e3
    j_coo = jsp.BCOO.from_scipy_sparse(a)
    j_csr = jsp.BCSR.from_scipy_sparse(a)
    xj = jax.device_put(x)
    if transpose:
        op = jax.jit(lambda m, v: _ready(m.T @ v))
        fns = {"scipy": lambda: a.T @ x,
               "ours-bcoo": lambda: _ready(ours_coo.T @ xj),
               "ours-bcsr": lambda: _ready(ours_csr.T @ xj),
               "jax-bcoo": lambda: j_coo.T @ xj}
    else:
        op = jax.jit(lambda m, v: _ready(m @ v))
        fns = {"scipy": lambda: a @ x,
               "ours-bcoo": lambda: _ready(ours_coo @ xj),
               "ours-bcsr": lambda: _ready(ours_csr @ xj),
               "jax-bcoo": lambda: j_coo @ xj,
               "jax-bcsr": lambda: j_csr @ xj}
    # the matrix as a jax.jit argument (a traced matrix: the path of a jitted loss or
    # solver), for every format that has the operation
    fns.update({"ours-bcoo[jit arg]": lambda: op(ours_coo, xj),
                "ours-bcsr[jit arg]": lambda: op(ours_csr, xj),
                "jax-bcoo[jit arg]": lambda: op(j_coo, xj)})
    if not transpose:
        fns["jax-bcsr[jit arg]"] = lambda: op(j_csr, xj)
    row(name, measure(fns))
    print(f"    (laxarray's layouts, built on the host once per matrix: "
          f"bcoo {built['bcoo']:.0f} ms, bcsr {built['bcsr']:.0f} ms)", flush=True)


def warm_up():
    """Pay the one-time costs of a process (the first trace of each library: module-level
    caches, and the full garbage collection that the first large trace triggers) before any
    case is timed, so that they are not charged to whichever case runs first.  Tiny 5x5
    operands: no program a case compiles is compiled here (different shapes)."""
    small = sps.random_array((5, 5), density=0.4, rng=np.random.default_rng(1)).tocsr()
    v = jax.device_put(np.ones(5))
    for mat in (lsp.BCOO.from_scipy_sparse(small), lsp.BCSR.from_scipy_sparse(small),
                jsp.BCOO.from_scipy_sparse(small), jsp.BCSR.from_scipy_sparse(small)):
        jax.block_until_ready(_ready(mat @ v))
        jax.block_until_ready(jax.jit(lambda m, x: _ready(m @ x))(mat, v))
    gc.collect()


def main():
    warm_up()
    rng = np.random.default_rng(0)
    n = 20_000 if QUICK else 100_000
    a1 = uniform_csr(n, 10 * n, rng)
    bench_matvec(f"SpMV uniform nnz={a1.nnz}", a1, rng)
    if not QUICK:
        a5 = uniform_csr(n, 50 * n, rng)
        bench_matvec(f"SpMV uniform nnz={a5.nnz}", a5, rng)
    ap = powerlaw_csr(n, 10 * n, rng)
    bench_matvec(f"SpMV power-law nnz={ap.nnz}", ap, rng)
    bench_matvec("A.T @ y", a1, rng, transpose=True)
    bench_matvec("SpMM 64 columns", a1, rng, cols=64)

    m = 1000 if QUICK else 4000
    d = sps.random_array((m, m), density=0.01, rng=rng).toarray()
    dj = jax.device_put(d)
    nnz = int(np.count_nonzero(d))
    ours_fd = jax.jit(lambda v: lsp.bcoo_fromdense(v, nse=nnz).data)
    jax_fd = jax.jit(lambda v: jsp.BCOO.fromdense(v, nse=nnz).data)
    row(f"fromdense {m}x{m} 1%", measure({
        "scipy": lambda: sps.csr_array(d),
        "ours-bcoo": lambda: lsp.bcoo_fromdense(dj, nse=nnz).data,
        "jax-bcoo": lambda: jsp.BCOO.fromdense(dj, nse=nnz).data,
        "ours-bcoo[jit arg]": lambda: ours_fd(dj),
        "jax-bcoo[jit arg]": lambda: jax_fd(dj)}))
    s = sps.csr_array(d)
    todense = jax.jit(lambda mat: _ready(mat.todense()))
    oc = lsp.BCOO.from_scipy_sparse(s)
    jc = jsp.BCOO.from_scipy_sparse(s)
    row(f"todense {m}x{m} 1%", measure({
        "scipy": lambda: s.toarray(),
        "ours-bcoo": lambda: _ready(oc.todense()),
        "jax-bcoo": lambda: jc.todense(),
        "ours-bcoo[jit arg]": lambda: todense(oc),
        "jax-bcoo[jit arg]": lambda: todense(jc)}))

    b1 = uniform_csr(n, 10 * n, rng)
    oa, ob = lsp.BCOO.from_scipy_sparse(a1), lsp.BCOO.from_scipy_sparse(b1)
    t0 = time.perf_counter()
    jax.block_until_ready(jax.tree_util.tree_leaves((oa, ob)))  # their layouts, as above
    built_add = (time.perf_counter() - t0) * 1e3
    ja, jb = jsp.BCOO.from_scipy_sparse(a1), jsp.BCOO.from_scipy_sparse(b1)
    # under jit the sum keeps every entry of both operands (nse = nse(A) + nse(B)): the
    # canonical form needs the count of distinct coordinates, which is data-dependent
    ours_add = jax.jit(lambda p, q: (p + q).data)
    jax_add = jax.jit(lambda p, q: (p + q).data)
    row("sparse+sparse (canonical)", measure({
        "scipy": lambda: a1 + b1,
        "ours-bcoo": lambda: (oa + ob).data,
        "jax-bcoo": lambda: (ja + jb).sum_duplicates().data,
        "ours-bcoo[jit arg]": lambda: ours_add(oa, ob),
        "jax-bcoo[jit arg]": lambda: jax_add(ja, jb)}))
    print(f"    (laxarray's layouts of A and B, built on the host once: {built_add:.0f} ms)",
          flush=True)

    y = rng.standard_normal(n)
    yj = jax.device_put(y)
    ours_scale = jax.jit(lambda p, v: (p * v[None, :]).data)
    jax_scale = jax.jit(lambda p, v: jsp.bcoo_multiply_dense(p, v[None, :]))
    row("column scaling A*y[None,:]", measure({
        "scipy": lambda: a1.multiply(y[None, :]).tocsr(),
        "ours-bcoo": lambda: (oa * yj[None, :]).data,
        "jax-bcoo": lambda: jsp.bcoo_multiply_dense(ja, yj[None, :]),
        "ours-bcoo[jit arg]": lambda: ours_scale(oa, yj),
        "jax-bcoo[jit arg]": lambda: jax_scale(ja, yj)}))


if __name__ == "__main__":
    main()
