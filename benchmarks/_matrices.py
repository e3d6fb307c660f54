"""The sparse test matrices the benchmark scripts share (scipy CSR arrays)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sps


def poisson(k):
    """The 2-D Poisson matrix (5-point Laplacian) on a k x k grid: k*k unknowns."""
    t = sps.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(k, k))
    eye = sps.eye_array(k)
    return sps.csr_array(sps.kron(eye, t) + sps.kron(t, eye))


def uniform_csr(n, nnz, rng):
    """An n x n matrix with about ``nnz / n`` nonzeros per row at random columns."""
    rows = np.repeat(np.arange(n), nnz // n)
    cols = rng.integers(0, n, size=rows.size)
    a = sps.csr_array((rng.standard_normal(rows.size), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a
