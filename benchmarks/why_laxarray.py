"""The figures of the "Why laxarray" page (docs/why.md), measured in one run.

    .venv/bin/python benchmarks/why_laxarray.py

1. NumPy's mutation model: four NumPy idioms (write an element, write through a row
   view, write through a transposed view, ``+=``) run on NumPy, laxarray, jax.numpy and
   array_api_strict; how many of the four give NumPy's array afterwards (an exception, or
   a view that silently does not write through, counts as not).
2. One array-API-generic function (a logistic loss and its gradient, written against the
   standard's names only, as scikit-learn and SciPy write theirs) on a 20000x50 float64
   problem: NumPy and array_api_strict run it eagerly; laxarray runs it under
   ``laxarray.jit`` with the gradient from ``laxarray.grad``, which neither has.  Median
   of round-robin calls; the ratio array_api_strict / laxarray.
3. The NumPy names each namespace has: of NumPy's public callables (``dir(numpy)``), how
   many laxarray, jax.numpy and array_api_strict have under the same name.

Every library computes on one thread (``OPENBLAS_NUM_THREADS=1``, XLA's CPU backend
without its thread pool), set before anything is imported: on a loaded machine
OpenBLAS's spinning threads made NumPy's matrix products ten times slower, which would
say nothing about the libraries. The speed ratio of laxarray to NumPy and jax.numpy on NumPy's own functions is
``benchmarks/numpy_surface.py``'s.
"""

from __future__ import annotations

import os
import sys

os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = "1"
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false"
                           " intra_op_parallelism_threads=1").strip()

import array_api_strict as xs  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import laxarray as lx  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from _timing import round_robin  # noqa: E402


def idioms(xp):
    """The arrays NumPy's four mutation idioms leave, or the exception's name."""
    def element():
        x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
        x[0, 1] = 9.0
        return x

    def row_view():
        x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
        row = x[1]
        row += 10.0
        return x

    def transposed_view():
        x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
        t = x.T
        t[0, 1] = -1.0
        return x

    def augmented():
        x = xp.asarray([1.0, 2.0, 3.0])
        x += 1.0
        return x

    out = []
    for f in (element, row_view, transposed_view, augmented):
        try:
            out.append(np.asarray(f()).tolist())
        except Exception as e:   # noqa: BLE001 (the exception is the result)
            out.append(type(e).__name__)
    return out


def loss(xp, X, y, w):
    """The mean logistic loss, with the standard's names only."""
    z = X @ w
    return xp.mean(xp.log(1.0 + xp.exp(-y * z)))


def gradient(xp, X, y, w):
    """Its gradient, written out (what a library without autodiff must do)."""
    z = X @ w
    s = -y / (1.0 + xp.exp(y * z))
    return (s @ X) / X.shape[0]


def main():
    print("1. NumPy's mutation idioms (element, row view, transposed view, +=)")
    ref = idioms(np)
    for name, xp in (("laxarray", lx), ("jax.numpy", jnp), ("array_api_strict", xs)):
        got = idioms(xp)
        same = sum(g == r for g, r in zip(got, ref))
        print(f"   {name:17s} {same} of {len(ref)} as NumPy   {got}")

    print("2. an array-API-generic loss and gradient, 20000x50 float64")
    rng = np.random.default_rng(0)
    Xn = rng.standard_normal((20000, 50))
    yn = np.sign(rng.standard_normal(20000))
    wn = rng.standard_normal(50) * 0.1
    Xs, ys, ws = (xs.asarray(a) for a in (Xn, yn, wn))
    Xl, yl, wl = (lx.asarray(a) for a in (Xn, yn, wn))
    step = lx.jit(lx.value_and_grad(lambda w, X, y: loss(lx, X, y, w)))
    v, g = step(wl, Xl, yl)
    assert np.allclose(float(v), loss(np, Xn, yn, wn))
    assert np.allclose(np.asarray(g), gradient(np, Xn, yn, wn))
    times = round_robin({
        "numpy": lambda: (loss(np, Xn, yn, wn), gradient(np, Xn, yn, wn)),
        "array_api_strict": lambda: (loss(xs, Xs, ys, ws), gradient(xs, Xs, ys, ws)),
        "laxarray (jit, grad)": lambda: step(wl, Xl, yl),
    }, 30)
    for k, (ms, _compile) in times.items():
        print(f"   {k:21s} {ms:8.2f} ms")
    base = times["laxarray (jit, grad)"][0]
    print(f"   array_api_strict / laxarray = {times['array_api_strict'][0] / base:.2f}, "
          f"numpy / laxarray = {times['numpy'][0] / base:.2f}")

    print("3. NumPy's public callables present under the same name")
    names = [n for n in dir(np) if not n.startswith("_") and callable(getattr(np, n))]
    for name, xp in (("laxarray", lx), ("jax.numpy", jnp), ("array_api_strict", xs)):
        have = sum(hasattr(xp, n) for n in names)
        print(f"   {name:17s} {have} of {len(names)}")


if __name__ == "__main__":
    main()
