"""The inputs both the two-process workers and the test's one-process oracle use."""

import numpy as np


def dense_inputs():
    """A 16 x 4 matrix (8 rows per process, 4 per device) and a vector."""
    rng = np.random.default_rng(7)
    return rng.standard_normal((16, 4)), rng.standard_normal(4)


def poisson(n=4):
    """The 2-D Poisson matrix on an n x n grid (dense, n*n rows: 4 per device for n=4)."""
    t = 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    return np.kron(t, np.eye(n)) + np.kron(np.eye(n), t)
