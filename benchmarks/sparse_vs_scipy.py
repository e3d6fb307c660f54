"""laxarray.sparse vs scipy.sparse (csr_array) and jax.experimental.sparse on CPU.

Prints, per case, median times (ms) and ratios to scipy, plus first-call (compile) time
separately.  The libraries of a case are timed round-robin (one call of each per round),
so load from other processes affects them alike.  The run re-executes itself with XLA's
large buffers on huge pages, as NumPy's are (see ``_memory.py``; ``--no-hugepages`` keeps
glibc's defaults).
Run: ``.venv/bin/python benchmarks/sparse_vs_scipy.py [--quick] [--no-hugepages]``.
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _memory import use_huge_pages  # noqa: E402

use_huge_pages()

import jax  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sps  # noqa: E402

import laxarray.sparse as lsp  # noqa: E402
from jax.experimental import sparse as jsp  # noqa: E402

from _timing import round_robin  # noqa: E402

QUICK = "--quick" in sys.argv
REPS = 5 if QUICK else 15


def measure(fns):
    """``{name: (median ms, compile ms)}`` of ``fns``, timed round-robin (see _timing)."""
    return round_robin(fns, REPS)


def _ready(x):
    return getattr(x, "_value", x)


def uniform_csr(n, nnz, rng):
    rows = np.repeat(np.arange(n), nnz // n)
    cols = rng.integers(0, n, size=rows.size)
    a = sps.csr_array((rng.standard_normal(rows.size), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


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
    base = results["scipy"][0]
    cells = []
    for k, (t, c) in results.items():
        cells.append(f"{k} {t:8.2f}ms x{t / base:5.2f} (compile {c:6.0f}ms)")
    print(f"{name:28s} | " + " | ".join(cells), flush=True)


def bench_matvec(name, a, rng, cols=None, transpose=False):
    n = a.shape[0]
    x = rng.standard_normal((n, cols) if cols else n)
    ours_coo = lsp.BCOO.from_scipy_sparse(a)
    ours_csr = lsp.BCSR.from_scipy_sparse(a)
    j_coo = jsp.BCOO.from_scipy_sparse(a)
    j_csr = jsp.BCSR.from_scipy_sparse(a)
    xj = jax.device_put(x)
    if transpose:
        fns = {"scipy": lambda: a.T @ x,
               "ours-bcoo": lambda: _ready(ours_coo.T @ xj),
               "ours-bcsr": lambda: _ready(ours_csr.T @ xj),
               "jax-bcoo": lambda: j_coo.T @ xj}
    else:
        fns = {"scipy": lambda: a @ x,
               "ours-bcoo": lambda: _ready(ours_coo @ xj),
               "ours-bcsr": lambda: _ready(ours_csr @ xj),
               "jax-bcoo": lambda: j_coo @ xj,
               "jax-bcsr": lambda: j_csr @ xj}
    row(name, measure(fns))


def main():
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
    row(f"fromdense {m}x{m} 1%", measure({
        "scipy": lambda: sps.csr_array(d),
        "ours-bcoo": lambda: lsp.bcoo_fromdense(dj, nse=nnz).data,
        "jax-bcoo": lambda: jsp.BCOO.fromdense(dj, nse=nnz).data}))
    s = sps.csr_array(d)
    oc = lsp.BCOO.from_scipy_sparse(s)
    jc = jsp.BCOO.from_scipy_sparse(s)
    row(f"todense {m}x{m} 1%", measure({
        "scipy": lambda: s.toarray(),
        "ours-bcoo": lambda: _ready(oc.todense()),
        "jax-bcoo": lambda: jc.todense()}))

    b1 = uniform_csr(n, 10 * n, rng)
    oa, ob = lsp.BCOO.from_scipy_sparse(a1), lsp.BCOO.from_scipy_sparse(b1)
    ja, jb = jsp.BCOO.from_scipy_sparse(a1), jsp.BCOO.from_scipy_sparse(b1)
    row("sparse+sparse (canonical)", measure({
        "scipy": lambda: a1 + b1,
        "ours-bcoo": lambda: (oa + ob).data,
        "jax-bcoo": lambda: (ja + jb).sum_duplicates().data}))

    y = rng.standard_normal(n)
    yj = jax.device_put(y)
    row("column scaling A*y[None,:]", measure({
        "scipy": lambda: a1.multiply(y[None, :]).tocsr(),
        "ours-bcoo": lambda: (oa * yj[None, :]).data,
        "jax-bcoo": lambda: jsp.bcoo_multiply_dense(ja, yj[None, :])}))


if __name__ == "__main__":
    main()
