"""Two processes on the loopback interface (issue 23, item 4): ``jax.distributed`` with a
127.0.0.1 coordinator and CPU (gloo) collectives; each process holds half the rows of
global sharded arrays and of a row-sharded sparse matrix; dense and sparse products and CG
across both equal the one-process result.
The workers stop by themselves: jax's initialization timeout and the subprocess timeout
bound the test. The cluster runs twice on one fresh executable store: the second run finds
what the first could have written (each process's executables name its own devices, so a
cluster stays out of the store; loading process 0's in process 1 failed)."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from two_process_inputs import dense_inputs, poisson  # noqa: E402

TIMEOUT_S = 240


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cluster(store):
    port = str(_free_port())
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get(
        "PYTHONPATH", "")]), LAXARRAY_COMPILATION_CACHE=str(store))
    env.pop("XLA_FLAGS", None)
    procs = [subprocess.Popen([sys.executable, str(HERE / "worker.py"), str(i), port],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for i in range(2)]
    outs = []
    try:
        for p in procs:
            stdout, stderr = p.communicate(timeout=TIMEOUT_S)
            lines = [ln for ln in stdout.splitlines() if ln.startswith("RESULT ")]
            assert p.returncode == 0 and lines, stderr[-3000:]
            outs.append(json.loads(lines[-1][len("RESULT "):]))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    return outs


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    store = tmp_path_factory.mktemp("store")
    return _cluster(store) + _cluster(store)


def test_two_processes_form_one_cluster(results):
    for r in results:
        assert r["process_count"] == 2 and r["devices"] == 4
        assert r["row_sharded"] and r["local_rows"] == 8  # each process holds half the rows


def test_dense_operations_across_processes_equal_one_process(results):
    m, v = dense_inputs()
    for r in results:
        np.testing.assert_allclose(r["sum"], np.exp(m / 8.0).sum(), rtol=1e-13)
        np.testing.assert_allclose(r["gram"], m.T @ m, rtol=1e-13)
        np.testing.assert_allclose(r["matvec"], m @ v, rtol=1e-13)
        assert r["matvec_sharding"] == "P('x',)"  # rows stay where they are


def test_cg_across_processes_equals_one_process(results):
    K = poisson()
    want = np.linalg.solve(K, np.ones(K.shape[0]))
    for r in results:
        assert r["cg_info"] == 0
        np.testing.assert_allclose(r["cg"], want, rtol=1e-10)


def test_row_sharded_sparse_across_processes_equals_one_process(results):
    K = poisson()
    want = np.linalg.solve(K, np.ones(K.shape[0]))
    for r in results:
        assert r["sparse_local_blocks"] == 2  # each process holds two of the four blocks
        np.testing.assert_allclose(r["spmv"], K @ np.ones(K.shape[1]), rtol=1e-13)
        np.testing.assert_allclose(r["spmv_t"], K.T @ np.arange(float(K.shape[0])),
                                   rtol=1e-13)
        assert r["sparse_cg_info"] == 0
        np.testing.assert_allclose(r["sparse_cg"], want, rtol=1e-10)
