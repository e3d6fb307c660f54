"""Overhead of laxarray.checkify vs jax.experimental.checkify under jax.jit.

Prints, for each benchmark and error set, the median run time of the unchecked function and the
checked/unchecked ratio for both implementations, plus first-call (trace + compile) times.

    .venv/bin/python benchmarks/checkify_overhead.py [--repeats N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import checkify as jck

import laxarray  # noqa: F401  (enables x64)
from laxarray import checkify as lck


def elementwise_chain(x):
    """An elementwise chain over the whole array (one fused loop when unchecked)."""
    y = lax.sin(x) * 2.0 + lax.cos(x)
    y = lax.sqrt(lax.abs(y) + 1.0)
    y = lax.log(y + 1.0) / (1.0 + y * y)
    return lax.exp(-y) - 0.5 * y


_DN = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))


def gather_loop(values, idx):
    """100 gathers of len(idx) indices (mode promise_in_bounds, so index checks apply)."""
    n = values.shape[0]

    def body(i, acc):
        j = lax.rem(idx + i, n)
        g = lax.gather(values, j[:, None], _DN, (1,), mode="promise_in_bounds")
        return acc + g
    return lax.fori_loop(0, 100, body, jnp.zeros(idx.shape, values.dtype))


def _first_call(fn, args):
    t0 = time.perf_counter()
    jax.block_until_ready(fn(*args))
    return time.perf_counter() - t0


def _ratios(base, fns, args, repeats):
    """Median run time of ``base`` and the median ratio fn/base for each of ``fns``.

    Runs are interleaved (base, fn1, fn2, base, ...) so that load drifting on a shared machine
    affects numerator and denominator alike; each ratio is taken within one round.
    """
    base_times, ratios = [], [[] for _ in fns]
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(base(*args))
        b = time.perf_counter() - t0
        base_times.append(b)
        for r, fn in zip(ratios, fns):
            t0 = time.perf_counter()
            jax.block_until_ready(fn(*args))
            r.append((time.perf_counter() - t0) / b)
    return statistics.median(base_times), [statistics.median(r) for r in ratios]


SETS = {
    "user_checks": (lck.user_checks, jck.user_checks),
    "nan_checks": (lck.nan_checks, jck.nan_checks),
    "index_checks": (lck.index_checks, jck.index_checks),
    "all_checks": (lck.all_checks, jck.all_checks),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--size", type=int, default=10**7, help="elementwise chain length")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    benches = {
        "elementwise 1e7": (elementwise_chain, (jnp.asarray(rng.random(args.size)),)),
        "100 gathers 1e5/1e6": (gather_loop, (jnp.asarray(rng.random(10**6)),
                                              jnp.asarray(rng.integers(0, 10**6, 10**5)))),
    }
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, repeats {args.repeats}")
    head = (f"{'benchmark':22} {'errors':13} {'unchecked ms':>12} {'laxarray x':>10} "
            f"{'jax x':>7} {'first: plain s':>14} {'laxarray s':>10} {'jax s':>7}")
    print(head)
    print("-" * len(head))
    for name, (fn, fargs) in benches.items():
        plain = jax.jit(fn)
        base_first = _first_call(plain, fargs)
        for set_name, (ours, theirs) in SETS.items():
            f_ours, f_jax = (jax.jit(lck.checkify(fn, errors=ours)),
                             jax.jit(jck.checkify(fn, errors=theirs)))
            first_ours, first_jax = _first_call(f_ours, fargs), _first_call(f_jax, fargs)
            base, (r_ours, r_jax) = _ratios(plain, [f_ours, f_jax], fargs, args.repeats)
            print(f"{name:22} {set_name:13} {base * 1e3:12.2f} {r_ours:10.2f} "
                  f"{r_jax:7.2f} {base_first:14.3f} {first_ours:10.3f} {first_jax:7.3f}")


if __name__ == "__main__":
    main()
