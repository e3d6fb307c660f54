"""linalg and fft: laxarray vs NumPy/SciPy vs jax.numpy, in one run.

Operations: solve, eigh, svd, cholesky, qr on 256x256, 1024x1024 and a batch of 1000 4x4
matrices (float64); fft, rfft, fftn on 2**20 points and 512x512 (complex128 / float64).
Every library is timed as the median of REPEATS calls (results blocked on) after one
warm-up call (trace + compile for the jax-based libraries).  SciPy is the peer for the
decompositions where it has a faster routine (``scipy.linalg`` with ``check_finite=False``);
NumPy otherwise.  Prints a table and the ratios laxarray/peer (< 1: laxarray is faster).

    .venv/bin/python benchmarks/linalg_fft.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import statistics

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg as sla

import laxarray as lx

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time as _time  # noqa: E402


def _spd(rng, shape):
    a = rng.standard_normal(shape)
    n = shape[-1]
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


LINALG = {
    # name: (laxarray, numpy/scipy peer, jax.numpy), each taking (a, b)
    "solve": (lambda a, b: lx.linalg.solve(a, b), lambda a, b: np.linalg.solve(a, b),
              lambda a, b: jnp.linalg.solve(a, b)),
    "eigh": (lambda a, b: lx.linalg.eigh(a), lambda a, b: np.linalg.eigh(a),
             lambda a, b: jnp.linalg.eigh(a)),
    "svd": (lambda a, b: lx.linalg.svd(a, full_matrices=False),
            lambda a, b: np.linalg.svd(a, full_matrices=False),
            lambda a, b: jnp.linalg.svd(a, full_matrices=False)),
    "cholesky": (lambda a, b: lx.linalg.cholesky(a), lambda a, b: np.linalg.cholesky(a),
                 lambda a, b: jnp.linalg.cholesky(a)),
    "qr": (lambda a, b: lx.linalg.qr(a), lambda a, b: np.linalg.qr(a),
           lambda a, b: jnp.linalg.qr(a)),
}
SCIPY_2D = {
    "solve": lambda a, b: sla.solve(a, b, check_finite=False),
    "eigh": lambda a, b: sla.eigh(a, check_finite=False),
    "svd": lambda a, b: sla.svd(a, full_matrices=False, check_finite=False),
    "cholesky": lambda a, b: sla.cholesky(a, lower=True, check_finite=False),
    "qr": lambda a, b: sla.qr(a, mode="economic", check_finite=False),
}
FFT = {
    "fft": (lambda x: lx.fft.fft(x), lambda x: np.fft.fft(x), lambda x: jnp.fft.fft(x)),
    "rfft": (lambda x: lx.fft.rfft(x), lambda x: np.fft.rfft(x), lambda x: jnp.fft.rfft(x)),
    "fftn": (lambda x: lx.fft.fftn(x), lambda x: np.fft.fftn(x), lambda x: jnp.fft.fftn(x)),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 repeats")
    args = parser.parse_args()
    repeats = 3 if args.quick else 5
    rng = np.random.default_rng(0)
    sizes = [("256x256", (256, 256)), ("1024x1024", (1024, 1024)), ("1000x4x4", (1000, 4, 4))]
    if args.quick:
        sizes = [("64x64", (64, 64)), ("100x4x4", (100, 4, 4))]
    rows = []
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}; NumPy {np.__version__}; "
          f"median of {repeats} (seconds); ratio = laxarray / peer")
    header = (f"{'op':<10}{'size':<12}{'laxarray':>11}{'peer':>11}{'jax.numpy':>11}"
              f"{'lx/peer':>9}{'lx/jnp':>8}{'lx warm':>9}  peer")
    print(header)
    for name, (lx_fn, np_fn, jnp_fn) in LINALG.items():
        for label, shape in sizes:
            a = _spd(rng, shape) if name in ("cholesky", "eigh") else \
                rng.standard_normal(shape) + shape[-1] * np.eye(shape[-1])
            b = rng.standard_normal(shape[:-1] + (1,))
            la, lb = lx.asarray(a), lx.asarray(b)
            ja, jb = jnp.asarray(a), jnp.asarray(b)
            t_lx, w_lx = _time(lambda: lx_fn(la, lb), repeats)
            peer_name, peer = "numpy", np_fn
            if len(shape) == 2:
                t_np, _ = _time(lambda: np_fn(a, b), repeats)
                t_sp, _ = _time(lambda: SCIPY_2D[name](a, b), repeats)
                if t_sp < t_np:
                    peer_name, t_peer = "scipy", t_sp
                else:
                    t_peer = t_np
            else:
                t_peer, _ = _time(lambda: peer(a, b), repeats)
            t_j, _ = _time(lambda: jnp_fn(ja, jb), repeats)
            rows.append((name, label, t_lx, t_peer, t_j, w_lx, peer_name))
            _print(rows[-1])
    fsizes = [("2^20", (1 << 20,)), ("512x512", (512, 512))]
    if args.quick:
        fsizes = [("2^14", (1 << 14,)), ("128x128", (128, 128))]
    for name, (lx_fn, np_fn, jnp_fn) in FFT.items():
        for label, shape in fsizes:
            x = rng.standard_normal(shape)
            if name != "rfft":
                x = x + 1j * rng.standard_normal(shape)
            lxx, jx = lx.asarray(x), jnp.asarray(x)
            t_lx, w_lx = _time(lambda: lx_fn(lxx), repeats)
            t_np, _ = _time(lambda: np_fn(x), repeats)
            t_j, _ = _time(lambda: jnp_fn(jx), repeats)
            rows.append((name, label, t_lx, t_np, t_j, w_lx, "numpy"))
            _print(rows[-1])
    peer = [r[2] / r[3] for r in rows]
    jnp_r = [r[2] / r[4] for r in rows]
    print(f"median ratio laxarray/peer: {statistics.median(peer):.2f}; "
          f"laxarray/jax.numpy: {statistics.median(jnp_r):.2f}")


def _print(row):
    name, label, t_lx, t_peer, t_j, w_lx, peer_name = row
    print(f"{name:<10}{label:<12}{t_lx:>11.2e}{t_peer:>11.2e}{t_j:>11.2e}"
          f"{t_lx / t_peer:>9.2f}{t_lx / t_j:>8.2f}{w_lx:>9.2f}  {peer_name}", flush=True)


if __name__ == "__main__":
    main()
