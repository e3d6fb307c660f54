"""The rank-promotion, host-sort and matrix-product precision switches set by their ``with``
blocks hold for the thread that opened the block only: eight threads, each inside its own
blocks at the same time, each see their own settings (what rank promotion does, whether
sorting takes the host callback, the precision a product's program carries and the eager
executable it runs), and the process' settings are untouched afterwards."""

import re
import threading

import jax
import numpy as np

import laxarray as la


#: laxarray's precision -> the operand precision StableHLO prints
_PRINTED = {"highest": "HIGHEST", "tf32": "HIGH", "default": "DEFAULT"}
_DOT = re.compile(r"stablehlo\.dot_general.*?precision = \[(\w+), (\w+)\]")
_PRECISIONS = ("highest", "tf32", "default")


def test_eight_threads_each_see_their_own_switches():
    barrier = threading.Barrier(8)
    outcomes = [None] * 8
    x = np.array([3.0, -1.0, 2.5, np.nan, 0.0])
    a = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((5, 2)).astype(np.float32)

    def worker(k):
        mode = ("allow", "raise")[k % 2]
        host = bool(k // 2 % 2)
        precision = _PRECISIONS[k % 3]
        with la.rank_promotion(mode), la.host_sort(host), la.matmul_precision(precision):
            barrier.wait()                        # every block is open now
            try:
                la.ones((2, 3)) + la.ones(3)
                promoted = "allowed"
            except ValueError:
                promoted = "raised"
            program = str(jax.make_jaxpr(lambda v: la.sort(v))(la.asarray(x)))
            values = np.asarray(la.sort(la.asarray(x)))
            text = jax.jit(lambda u, v: la.matmul(u, v)).lower(
                la.asarray(a), la.asarray(b)).as_text()
            dots = {m.groups() for m in _DOT.finditer(text)}
            product = np.asarray(la.matmul(la.asarray(a), la.asarray(b)))
            barrier.wait()                        # no block closes before all have run
            outcomes[k] = (la.get_rank_promotion(), la.get_host_sort(), promoted,
                           "callback" in program, values, la.get_matmul_precision(), dots,
                           product)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, (mode, host, promoted, callback, values, precision, dots, product) in \
            enumerate(outcomes):
        assert mode == ("allow", "raise")[k % 2]
        assert host is bool(k // 2 % 2)
        assert promoted == ("allowed" if mode == "allow" else "raised")
        assert callback is host
        np.testing.assert_array_equal(values, np.sort(x))
        assert precision == _PRECISIONS[k % 3]
        assert dots == {(_PRINTED[precision],) * 2}, (k, dots)
        np.testing.assert_allclose(product, a @ b, rtol=1e-5)
    assert la.get_rank_promotion() == "allow" and la.get_host_sort() is True
    assert la.get_matmul_precision() == "highest"
