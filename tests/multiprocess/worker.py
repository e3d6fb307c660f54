"""One process of tests/multiprocess/test_two_processes.py: ``worker.py PROCESS_ID PORT``.

Joins a two-process jax cluster on the loopback interface (two CPU devices per process,
gloo collectives), builds global sharded laxarray arrays and a row-sharded sparse matrix -- each process holds only
its rows -- runs dense and sparse products and conjugate-gradient solves across both
processes, and
prints the gathered results as one JSON line for the parent test to check.
"""

import json
import os
import sys

process_id, port = int(sys.argv[1]), sys.argv[2]
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"

import jax  # noqa: E402

jax.config.update("jax_cpu_collectives_implementation", "gloo")
jax.distributed.initialize(coordinator_address=f"127.0.0.1:{port}", num_processes=2,
                           process_id=process_id, initialization_timeout=60)

import numpy as np  # noqa: E402
import scipy.sparse  # noqa: E402
from jax.experimental import multihost_utils  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import laxarray as xp  # noqa: E402
import laxarray.sparse as sp  # noqa: E402

from two_process_inputs import dense_inputs, poisson  # noqa: E402


def gathered(a):
    """The global value of a (possibly sharded) laxarray Array, on every process."""
    return np.asarray(multihost_utils.process_allgather(a._value, tiled=True)).tolist()


mesh = Mesh(np.array(jax.devices()), ("x",))
rows = NamedSharding(mesh, P("x"))
m, v = dense_inputs()
A = xp.asarray(m, device=rows)
x = xp.asarray(v)
out = {
    "process_count": jax.process_count(),
    "devices": len(jax.devices()),
    "local_rows": sum(s.data.shape[0] for s in A._value.addressable_shards),
    "row_sharded": A.sharding.spec == P("x"),
    "sum": float(xp.sum(xp.exp(A / 8.0))),
    "gram": gathered(A.T @ A),
    "matvec": gathered(A @ x),
    "matvec_sharding": str((A @ x).sharding.spec),
}
K = xp.asarray(poisson(), device=rows)
b = xp.asarray(np.ones(K.shape[0]), device=rows)
sol, info = sp.linalg.cg(K, b, tol=1e-12)
out["cg"] = gathered(sol)
out["cg_info"] = int(info)
S = sp.shard_rows(sp.BCSR.from_scipy_sparse(scipy.sparse.csr_matrix(poisson())), mesh, "x")
out["sparse_local_blocks"] = len(S.leaves[0].addressable_shards)
out["spmv"] = gathered(S @ xp.ones(S.shape[1]))
out["spmv_t"] = gathered(S.T @ xp.arange(float(S.shape[0])))
sol, info = sp.linalg.cg(S, xp.ones(S.shape[0]), tol=1e-12)
out["sparse_cg"] = gathered(sol)
out["sparse_cg_info"] = int(info)
print("RESULT " + json.dumps(out), flush=True)
jax.distributed.shutdown()
