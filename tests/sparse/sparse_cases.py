"""Random sparse test cases with their dense NumPy oracle (duplicates, padding, unsorted)."""

import numpy as np

import laxarray.sparse as sp

SHAPES_2D = [(1, 1), (3, 4), (0, 3), (6, 5)]
DTYPES = [np.float32, np.float64, np.complex128]


def random_values(rng, n, dtype):
    v = rng.standard_normal(n)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


def random_coo(rng, shape, density=None, dtype=np.float64, duplicates=True, padding=True,
               shuffle=True):
    """(data, indices, dense) for a 2-D (or N-D) unbatched COO with messy entries."""
    size = int(np.prod(shape))
    density = rng.uniform(0, 1) if density is None else density
    nnz = int(round(density * size))
    flat = rng.choice(size, size=nnz, replace=False) if size else np.zeros(0, int)
    idx = np.stack(np.unravel_index(flat, shape), axis=1) if size else np.zeros((0, len(shape)), int)
    data = random_values(rng, nnz, dtype)
    if duplicates and nnz:
        k = rng.integers(0, nnz + 1)
        pick = rng.integers(0, nnz, size=k)
        idx = np.concatenate([idx, idx[pick]])
        data = np.concatenate([data, random_values(rng, k, dtype)])
    if padding:
        k = int(rng.integers(0, 3))
        idx = np.concatenate([idx, np.tile(np.asarray(shape), (k, 1))])
        data = np.concatenate([data, random_values(rng, k, dtype)])
    # fixed capacity per shape (the rest padding) so compiled kernels are reused
    cap = 2 * size + 2
    extra = max(cap - len(data), 0)
    idx = np.concatenate([idx, np.tile(np.asarray(shape), (extra, 1))]).astype(int)
    data = np.concatenate([data, random_values(rng, extra, dtype)])
    if shuffle:
        p = rng.permutation(len(data))
        idx, data = idx[p], data[p]
    else:
        order = np.lexsort(idx.T[::-1]) if len(idx) else np.zeros(0, int)
        idx, data = idx[order], data[order]
    dense = np.zeros(shape, dtype)
    valid = np.all(idx < np.asarray(shape), axis=1) if len(shape) else np.ones(len(idx), bool)
    np.add.at(dense, tuple(idx[valid].T), data[valid])
    return data, idx.astype(np.int32), dense


def make(fmt, rng, shape, dtype=np.float64, **kw):
    """A BCOO or BCSR (fmt 'bcoo'/'bcsr') and its dense oracle."""
    data, idx, dense = random_coo(rng, shape, dtype=dtype, **kw)
    m = sp.BCOO((data, idx), shape=shape)
    if fmt == "bcsr":
        m = sp.bcsr_from_bcoo(m)
    return m, dense


def tol(dtype):
    return dict(rtol=2e-4, atol=2e-4) if np.dtype(dtype) in (np.float32, np.complex64) else \
        dict(rtol=1e-10, atol=1e-10)
