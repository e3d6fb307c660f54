"""Sparse @ sparse: laxarray.sparse vs scipy.sparse, time and peak memory, on CPU.

Two cases (issue 19, item 3): (a) a random n x n matrix with about 10 nonzeros per row
times itself (n = 10**5; ``--quick``: 2 * 10**4); (b) the 2-D Poisson matrix on a k x k
grid squared (k = 300; ``--quick``: 100).  laxarray runs eagerly (the exact result: only
the distinct coordinates are stored) and with both matrices as ``jax.jit`` arguments
(``nse`` = the number of products, the bound a jitted caller can state without computing
anything; and ``nse exact`` = the result's count, which a caller that multiplies matrices of
one fixed pattern again and again computes once).  Times: medians of
round-robin runs in one process, compile time separately.  Peak memory: each library's
product in a fresh subprocess, after a warm-up call, as the growth of the resident set's
high-water mark over its level before the call (Linux ``/proc/self/clear_refs`` resets
it), so it counts every buffer the product allocates, XLA's included.

Run: ``.venv/bin/python benchmarks/sparse_matmul.py [--quick]``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

QUICK = "--quick" in sys.argv
REPS = 5 if QUICK else 9


def cases():
    """``{name: scipy CSR matrix}`` of the two cases."""
    import numpy as np
    from _matrices import poisson, uniform_csr
    n = 20_000 if QUICK else 100_000
    k = 100 if QUICK else 300
    return {f"random {n}x{n}, 10/row": uniform_csr(n, 10 * n, np.random.default_rng(0)),
            f"Poisson {k}x{k} grid": poisson(k)}


def _products(a):
    import numpy as np
    return int((np.diff(a.indptr)[a.indices]).sum())


def _runners(a):
    import jax
    import laxarray.sparse as lsp
    la = lsp.BCSR.from_scipy_sparse(a)
    nse = _products(a)
    jitted = jax.jit(lambda p, q: lsp.matmul(p, q, nse=nse).data)
    exact = (la @ la).nse  # the pattern's count, once
    jitted_exact = jax.jit(lambda p, q: lsp.matmul(p, q, nse=exact).data)
    return {"scipy": lambda: a @ a,
            "laxarray": lambda: (la @ la).data,
            "laxarray[jit arg]": lambda: jitted(la, la),
            "lx[jit, nse exact]": lambda: jitted_exact(la, la)}


def _peak_child(case, lib):
    """In a subprocess: warm up, reset the high-water mark, run once; print MB grown."""
    import gc
    from _timing import block
    fn = _runners(cases()[case])[lib]
    block(fn())
    gc.collect()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")

    def status(key):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1]) / 1024
    before = status("VmRSS:")
    out = block(fn())
    print(json.dumps({"peak_mb": status("VmHWM:") - before}), flush=True)
    del out


def peak_mb(case, lib):
    """Peak memory (MB) of one product of ``lib`` on ``case``, in a fresh process."""
    args = [sys.executable, os.path.abspath(__file__), "--peak", case, lib]
    if QUICK:
        args.append("--quick")
    out = subprocess.run(args, capture_output=True, text=True, timeout=900)
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if out.returncode or not lines:
        return float("nan")
    return json.loads(lines[-1])["peak_mb"]


def main():
    from _timing import round_robin
    print(f"sparse @ sparse, float64, medians of {REPS} (ms); peak memory of one product "
          "in a fresh process (MB)", flush=True)
    print(f"{'case':<26} {'library':<18} {'ms':>9} {'vs scipy':>9} {'compile ms':>11} "
          f"{'peak MB':>8} {'vs scipy':>9} {'nnz out':>9}")
    for name, a in cases().items():
        fns = _runners(a)
        times = round_robin(fns, REPS)
        nnz = (a @ a).nnz
        peaks = {lib: peak_mb(name, lib) for lib in fns}
        for lib in fns:
            ms, compile_ms = times[lib]
            mem = peaks[lib] / peaks["scipy"] if peaks["scipy"] > 0 else float("nan")
            print(f"{name:<26} {lib:<18} {ms:>9.1f} {ms / times['scipy'][0]:>9.2f} "
                  f"{compile_ms:>11.0f} {peaks[lib]:>8.1f} {mem:>9.2f} {nnz:>9}", flush=True)
        print(f"{'':<26} products {_products(a)}, input nnz {a.nnz}", flush=True)


if __name__ == "__main__":
    if "--peak" in sys.argv:
        i = sys.argv.index("--peak")
        _peak_child(sys.argv[i + 1], sys.argv[i + 2])
    else:
        main()
