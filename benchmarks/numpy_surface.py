"""The NumPy surface: laxarray vs NumPy vs jax.numpy, in one run.

einsum (3 contraction shapes), median and percentile on 10**7 values, histogram on 10**7
values, convolve (10**5 x 10**3), pad and sort on 10**7 values (float64).  Each library is
timed as the median of repeated calls (results blocked on) after one warm-up call whose
time (trace + compile for the jax-based libraries) is reported separately.  Prints a table
and the ratios laxarray/NumPy and laxarray/jax.numpy (< 1: laxarray is faster).

    .venv/bin/python benchmarks/numpy_surface.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

import jax.numpy as jnp
import numpy as np

import laxarray as lx

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time  # noqa: E402


def _cases(n, rng):
    x = rng.standard_normal(n)
    a, b = rng.standard_normal((64, 128, 96)), rng.standard_normal((64, 96, 80))
    m1, m2, m3 = (rng.standard_normal(s) for s in ((300, 400), (400, 500), (500, 60)))
    t, v = rng.standard_normal((32, 64, 48)), rng.standard_normal((48, 64))
    sig, ker = rng.standard_normal(max(n // 100, 1000)), rng.standard_normal(1000)
    img = x[: (n // 1000) * 1000].reshape(-1, 1000)
    return {
        "einsum bij,bjk->bik": ("bij,bjk->bik", a, b),
        "einsum ij,jk,kl->il": ("ij,jk,kl->il", m1, m2, m3),
        "einsum abc,cb->a": ("abc,cb->a", t, v),
        "median": (x,), "percentile 10,50,90": (x,), "histogram 100 bins": (x,),
        f"convolve {sig.size}x{ker.size}": (sig, ker), "pad reflect 7": (img,),
        "sort": (x,),
    }


def _call(ns, name, args):
    if name.startswith("einsum"):
        return ns.einsum(*args, optimize=True)
    if name == "median":
        return ns.median(args[0])
    if name.startswith("percentile"):
        return ns.percentile(args[0], ns.asarray([10.0, 50.0, 90.0]))
    if name.startswith("histogram"):
        return ns.histogram(args[0], bins=100)
    if name.startswith("convolve"):
        return ns.convolve(args[0], args[1], mode="same")
    if name.startswith("pad"):
        return ns.pad(args[0], 7, mode="reflect")
    return ns.sort(args[0])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10**6 values, fewer repeats")
    args = p.parse_args(argv)
    n, repeats = (10**6, 3) if args.quick else (10**7, 5)
    rng = np.random.default_rng(0)
    rows, r_np, r_jnp = [], [], []
    for name, case in _cases(n, rng).items():
        ins = {"laxarray": tuple(lx.asarray(c) if isinstance(c, np.ndarray) else c
                                 for c in case),
               "numpy": case,
               "jax.numpy": tuple(jnp.asarray(c) if isinstance(c, np.ndarray) else c
                                  for c in case)}
        nss = {"laxarray": lx, "numpy": np, "jax.numpy": jnp}
        res = {k: median_time(lambda k=k: _call(nss[k], name, ins[k]), repeats) for k in nss}
        rows.append((name, res))
        r_np.append(res["laxarray"][0] / res["numpy"][0])
        r_jnp.append(res["laxarray"][0] / res["jax.numpy"][0])
    print(f"{'operation':26s} {'laxarray':>10s} {'numpy':>10s} {'jax.numpy':>10s} "
          f"{'lx/np':>7s} {'lx/jnp':>7s} {'lx first':>9s} {'jnp first':>9s}")
    for name, res in rows:
        lx_t, np_t, j_t = res["laxarray"][0], res["numpy"][0], res["jax.numpy"][0]
        print(f"{name:26s} {lx_t * 1e3:8.2f}ms {np_t * 1e3:8.2f}ms {j_t * 1e3:8.2f}ms "
              f"{lx_t / np_t:7.2f} {lx_t / j_t:7.2f} {res['laxarray'][1] * 1e3:7.0f}ms "
              f"{res['jax.numpy'][1] * 1e3:7.0f}ms")
    print(f"{len(rows)} operations on {n} values; median ratio laxarray/NumPy = "
          f"{statistics.median(r_np):.2f}, laxarray/jax.numpy = {statistics.median(r_jnp):.2f}")


if __name__ == "__main__":
    main()
