"""The rank-promotion and host-sort switches set by their ``with`` blocks hold for the thread
that opened the block only: eight threads, each inside its own blocks at the same time, each
see their own settings (what rank promotion does, whether sorting takes the host callback),
and the process' settings are untouched afterwards."""

import threading

import jax
import numpy as np

import laxarray as la


def test_eight_threads_each_see_their_own_switches():
    barrier = threading.Barrier(8)
    outcomes = [None] * 8
    x = np.array([3.0, -1.0, 2.5, np.nan, 0.0])

    def worker(k):
        mode = ("allow", "raise")[k % 2]
        host = bool(k // 2 % 2)
        with la.rank_promotion(mode), la.host_sort(host):
            barrier.wait()                        # every block is open now
            try:
                la.ones((2, 3)) + la.ones(3)
                promoted = "allowed"
            except ValueError:
                promoted = "raised"
            program = str(jax.make_jaxpr(lambda v: la.sort(v))(la.asarray(x)))
            values = np.asarray(la.sort(la.asarray(x)))
            barrier.wait()                        # no block closes before all have run
            outcomes[k] = (la.get_rank_promotion(), la.get_host_sort(), promoted,
                           "callback" in program, values)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, (mode, host, promoted, callback, values) in enumerate(outcomes):
        assert mode == ("allow", "raise")[k % 2]
        assert host is bool(k // 2 % 2)
        assert promoted == ("allowed" if mode == "allow" else "raised")
        assert callback is host
        np.testing.assert_array_equal(values, np.sort(x))
    assert la.get_rank_promotion() == "allow" and la.get_host_sort() is True


def test_matmul_precision_blocks_hold_per_thread():
    """Eight threads, each inside its own ``matmul_precision`` block at the same time: each
    reads its own setting and binds the kernels of its own precision's table; the process'
    setting is untouched afterwards."""
    from laxarray._core.runtime import kernel
    from laxarray.array_api import linear_algebra
    barrier = threading.Barrier(8)
    outcomes = [None] * 8
    names = ("highest", "tf32", "default")

    def worker(k):
        try:
            with la.matmul_precision(names[k % 3]):
                barrier.wait(timeout=120)         # every block is open now
                seen = la.get_matmul_precision()
                kern = linear_algebra._matmul_kernel
                bound = kern.bind(tuple((n, None) for n in sorted(kern.static)))
                table = kern._bounds[seen]
                barrier.wait(timeout=120)         # no block closes before all have read
                outcomes[k] = (seen, any(b is bound for b in table.by_statics.values()))
        except BaseException as exc:  # noqa: BLE001 (reported below)
            outcomes[k] = exc
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(o, tuple) for o in outcomes), outcomes
    for k, (seen, in_own_table) in enumerate(outcomes):
        assert seen == names[k % 3]
        assert in_own_table
    assert la.get_matmul_precision() == "highest"
    assert kernel._PRECISION.open == 0
