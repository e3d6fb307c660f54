"""Shared helpers of the sparsify tests: random sparse inputs (both formats) and the check
that a sparsified function equals the dense function (the oracle) on their dense values."""

import weakref

import jax
import numpy as np

import laxarray.sparse as sp

FORMATS = ["bcoo", "bcsr"]
_JITTED = weakref.WeakKeyDictionary()


def random_dense(rng, shape, density=0.5, dtype=np.float64, low=-1.0, high=1.0):
    """A dense NumPy array with about ``density`` nonzeros in [low, high)."""
    x = rng.uniform(low, high, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(low, high, shape)
    x[rng.random(shape) >= density] = 0
    return x.astype(dtype)


def messy_bcoo(rng, dense, n_batch=0):
    """A BCOO of ``dense`` whose values are split over duplicate, shuffled entries plus
    padding (index == size), built without laxarray's own conversion."""
    if n_batch:
        return sp.BCOO.fromdense(dense, n_batch=n_batch)
    idx = np.argwhere(dense != 0)
    vals = dense[tuple(idx.T)]
    part = rng.uniform(0.2, 0.8, len(vals)) * vals
    pad = 2 * dense.size + 2 - 2 * len(vals)      # fixed capacity: compiled kernels reused
    idx = np.concatenate([idx, idx, np.tile(np.asarray(dense.shape), (pad, 1))])
    data = np.concatenate([part, vals - part, np.ones(pad, dense.dtype)]).astype(dense.dtype)
    p = rng.permutation(len(data))
    return sp.BCOO((data[p], idx[p].astype(np.int32)), shape=dense.shape)


def to_sparse(dense, fmt, rng=None, messy=False, n_batch=0):
    """``dense`` as a BCOO or BCSR (``messy``, BCOO only: duplicates, padding, unsorted
    entries; sparsify evaluates BCSR inputs in their BCOO form, so the rules' handling of
    messy entries is the same code for both formats)."""
    if messy and fmt == "bcoo":
        return messy_bcoo(rng, dense, n_batch)
    nse = int(np.prod(dense.shape[n_batch:]))     # fixed capacity (padding at the end)
    return sp.fromdense(dense, format=fmt, n_batch=n_batch, nse=nse)


def dense_of(x):
    """NumPy value of a dense or sparse result (boolean sparse values: via scipy.sparse)."""
    if not hasattr(x, "todense"):
        return np.asarray(x)
    if np.dtype(x.dtype) == np.bool_:
        m = x.tobcoo() if hasattr(x, "tobcoo") else x
        data, idx = np.asarray(m.data), np.asarray(m.indices)
        out = np.zeros(m.shape, bool)
        keep = np.all(idx < np.asarray(m.shape), axis=1)
        out[tuple(idx[keep].T)] |= data[keep]
        return out
    return np.asarray(x.todense())


def assert_matches(got, want, rtol=1e-10, atol=1e-12):
    """Every leaf of ``got`` (sparse leaves densified) equals the oracle ``want``."""
    g = jax.tree_util.tree_leaves(got, is_leaf=lambda x: hasattr(x, "todense"))
    w = jax.tree_util.tree_leaves(want)
    assert len(g) == len(w)
    for a, b in zip(g, w):
        a = dense_of(a)
        b = np.asarray(b)
        assert a.shape == b.shape, (a.shape, b.shape)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def check(f, args, sparse_argnums, fmt, rng=None, messy=False, n_batch=0, jit=True, **tol):
    """``sparsify(f)`` on args with ``sparse_argnums`` made sparse equals dense ``f``
    (both jitted unless ``jit=False``: one compilation each instead of one per primitive)."""
    want = jax.jit(f)(*args)
    sargs = [to_sparse(a, fmt, rng, messy, n_batch) if i in sparse_argnums else a
             for i, a in enumerate(args)]
    if jit:
        if f not in _JITTED:                  # one compilation per function and signature
            _JITTED[f] = jax.jit(sp.sparsify(f))
        got = _JITTED[f](*sargs)
    else:
        got = sp.sparsify(f)(*sargs)
    assert_matches(got, want, **tol)
    return got
