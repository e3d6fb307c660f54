"""Threads writing into one Array lose no update (x[key] = v is a locked read-modify-write).

scikit-learn's ``pairwise_distances(n_jobs=2)`` fills column blocks of one output array from
a thread pool; each write rebinds the shared handle, so unserialised writes would drop the
other thread's block.
"""

import threading

import numpy as np
import pytest

import laxarray as xp


@pytest.mark.parametrize("shape", [(6, 40), (300, 400)], ids=["bucketed", "exact"])
def test_threads_writing_disjoint_blocks_of_one_array(shape):
    rows, cols = shape
    out = xp.zeros(shape)
    expected = np.zeros(shape)
    blocks = [slice(i, cols, 4) for i in range(4)]
    barrier = threading.Barrier(len(blocks))

    def fill(k, block):
        barrier.wait()
        for r in range(rows if rows < 20 else 20):
            out[r, block] = float(k + 1)
            out[r, block] += 1.0

    threads = [threading.Thread(target=fill, args=(k, b)) for k, b in enumerate(blocks)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, block in enumerate(blocks):
        expected[:rows if rows < 20 else 20, block] = k + 2.0
    np.testing.assert_array_equal(np.asarray(out), expected)
