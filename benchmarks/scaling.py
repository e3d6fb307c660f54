"""Scaling over devices: a dense matmul + reduction chain, an elementwise chain, sparse SpMV
and CG iterations on 1, 2, 4 and 8 devices (laxarray vs jax.numpy on the same shardings, in
one run; the sparse cases against laxarray on one device only: jax has no sharded sparse).

Rows of the operands are split over a one-axis mesh (``NamedSharding(mesh, P("x"))``).
Prints the median time, the efficiency against one device (t1 / (n * tn)), the ratio to
jax.numpy on the same devices, and the collectives XLA put in the compiled program with the
bytes they move (communication volume, read off the optimized HLO). Without GPUs the
script makes 8 host devices (``--xla_force_host_platform_device_count=8``): on a 2-core CPU
they share two cores, so the figures show partitioning overhead, not speed-up.
Compile time is reported separately. The sparse cases use a 2-D Poisson matrix split by
row blocks (``laxarray.sparse.shard_rows``): ``spmv`` is ``A @ x`` with the matrix as a jit
argument, ``cg`` 50 iterations of ``laxarray.sparse.linalg.cg`` (time per iteration).

    .venv/bin/python benchmarks/scaling.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import re
import sys

if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                               + " --xla_force_host_platform_device_count=8").strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402

import laxarray as lx  # noqa: E402
import laxarray.sparse as sp  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from _matrices import poisson  # noqa: E402
from _timing import round_robin  # noqa: E402

jax.config.update("jax_enable_x64", True)

_COLLECTIVE = re.compile(r"=\s*(\w+)\[([\d,]*)\][^=]*?\s(all-reduce|all-gather|all-to-all|"
                         r"reduce-scatter|collective-permute)(?:-start)?\(")
_BYTES = {"f64": 8, "f32": 4, "s64": 8, "s32": 4, "pred": 1, "c128": 16, "c64": 8}


def communication(compiled_text):
    """``{collective: bytes}`` moved by the collectives of an optimized HLO module."""
    out = {}
    for dtype, dims, op in _COLLECTIVE.findall(compiled_text):
        n = int(np.prod([int(d) for d in dims.split(",") if d])) if dims else 1
        out[op] = out.get(op, 0) + n * _BYTES.get(dtype, 8)
    return out


def chain_lx(a, b):
    return lx.sum(lx.tanh(a @ b) * 2.0, axis=1)


def chain_jnp(a, b):
    return jnp.sum(jnp.tanh(a @ b) * 2.0, axis=1)


def elementwise_lx(a):
    return lx.sqrt(lx.exp(-a * a) + 1.0) - a


def elementwise_jnp(a):
    return jnp.sqrt(jnp.exp(-a * a) + 1.0) - a


def total_lx(a):
    return lx.sum(a * a)


def total_jnp(a):
    return jnp.sum(a * a)


CG_ITERS = 50


def cg_fixed(A, b):
    """``CG_ITERS`` iterations of CG (tol 0: never converges early), for time per iteration."""
    return sp.linalg.cg(A, b, tol=0.0, maxiter=CG_ITERS)[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller problems, fewer repeats")
    args = p.parse_args()
    n, k = (1024, 256) if args.quick else (4096, 512)
    grid = 256 if args.quick else 512
    T = poisson(grid)
    repeats = 5 if args.quick else 15
    rng = np.random.default_rng(0)
    A = rng.standard_normal((n, k))
    B = rng.standard_normal((k, k))
    E = rng.standard_normal((n, 4 * k))
    cpu = jax.devices()[0].platform == "cpu"
    print(f"scaling: {len(jax.devices())} {jax.devices()[0].platform} devices; "
          f"chain = sum(tanh(A @ B) * 2, axis=1), A {n}x{k} row-sharded, B {k}x{k} replicated; "
          f"elem = sqrt(exp(-a*a) + 1) - a and total = sum(a*a) on {n}x{4 * k}; "
          f"spmv and cg ({CG_ITERS} iterations, ms per iteration) on the {grid}x{grid} Poisson "
          f"matrix ({T.shape[0]} rows, {T.nnz} nonzeros); float64, median of {repeats}")
    if cpu:
        print("note: host devices share this machine's cores; efficiency below 1 here is "
              "partitioning overhead, not a measure of speed-up on real devices")
    rows = []
    base = {}
    for d in (1, 2, 4, 8):
        if d > len(jax.devices()):
            break
        mesh = Mesh(np.array(jax.devices()[:d]), ("x",))
        sh = NamedSharding(mesh, PartitionSpec("x"))
        rep = NamedSharding(mesh, PartitionSpec())
        a, b, e = lx.asarray(A, device=sh), lx.asarray(B, device=rep), lx.asarray(E, device=sh)
        ja, jb, je = jax.device_put(A, sh), jax.device_put(B, rep), jax.device_put(E, sh)
        f_lx, f_jnp = jax.jit(chain_lx), jax.jit(chain_jnp)
        g_lx, g_jnp = jax.jit(elementwise_lx), jax.jit(elementwise_jnp)
        h_lx, h_jnp = jax.jit(total_lx), jax.jit(total_jnp)
        times = round_robin({"chain lx": lambda: f_lx(a, b), "chain jnp": lambda: f_jnp(ja, jb),
                             "elem lx": lambda: g_lx(e), "elem jnp": lambda: g_jnp(je),
                             "total lx": lambda: h_lx(e), "total jnp": lambda: h_jnp(je)}, repeats)
        np.testing.assert_allclose(np.asarray(f_lx(a, b)), np.asarray(f_jnp(ja, jb)), rtol=1e-10)
        np.testing.assert_allclose(float(h_lx(e)), float(h_jnp(je)), rtol=1e-10)
        S = sp.shard_rows(sp.BCSR.from_scipy_sparse(T), mesh, "x")
        xs = lx.ones(T.shape[1])
        spmv, cg = jax.jit(lambda S, x: S @ x), jax.jit(cg_fixed)
        sparse_times = round_robin({"spmv lx": lambda: spmv(S, xs),
                                    "cg lx": lambda: cg(S, xs)}, repeats)
        np.testing.assert_allclose(np.asarray(spmv(S, xs)), T @ np.ones(T.shape[1]),
                                   rtol=1e-12)
        times.update(sparse_times)
        times["cg lx"] = tuple(t / CG_ITERS if i == 0 else t
                               for i, t in enumerate(times["cg lx"]))
        comm = {"chain": communication(f_lx.lower(a, b).compile().as_text()),
                "elem": communication(g_lx.lower(e).compile().as_text()),
                "total": communication(h_lx.lower(e).compile().as_text()),
                "spmv": communication(spmv.lower(S, xs).compile().as_text()),
                "cg": communication(cg.lower(S, xs).compile().as_text())}
        for case in ("chain", "elem", "total", "spmv", "cg"):
            ms, compile_ms = times[f"{case} lx"]
            base.setdefault(case, ms)
            peer = times.get(f"{case} jnp")
            rows.append((case, d, ms, compile_ms, base[case] / (d * ms),
                         ms / peer[0] if peer else float("nan"), comm[case]))
    print(f"{'case':<6} {'devices':>7} {'ms':>9} {'compile ms':>10} {'efficiency':>10} "
          f"{'vs jnp':>7}  communication (bytes per collective)")
    for case, d, ms, compile_ms, eff, ratio, comm in rows:
        text = ", ".join(f"{k} {v}" for k, v in sorted(comm.items())) or "none"
        peer = "-" if ratio != ratio else f"{ratio:.2f}"
        print(f"{case:<6} {d:>7} {ms:>9.2f} {compile_ms:>10.1f} {eff:>10.2f} {peer:>7}  {text}")


if __name__ == "__main__":
    main()
