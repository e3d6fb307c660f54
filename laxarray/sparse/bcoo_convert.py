"""BCOO's conversions: from and to dense arrays (bcoo_fromdense, bcoo_todense) and from and to
``scipy.sparse`` (bcoo_from_scipy_sparse, bcoo_to_scipy_sparse).

The class is :mod:`laxarray.sparse.bcoo`; its ``fromdense``/``todense``/... methods call these
through :data:`laxarray.sparse._operators.OPS`.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core import lazy_scipy
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._array import wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _docs
from laxarray.sparse import _keys as K
from laxarray.sparse.bcoo import (BCOO, _index_dtype, _layout_ints, _nse_int, as_sparse_input,
                                  check_placement, placed)


@in_wide_mode
@fill(layout=_docs.FROMDENSE_LAYOUT, type_error=_docs.FROMDENSE_TYPE_ERROR)
def bcoo_fromdense(x, *, nse=None, n_batch=0, n_dense=0, index_dtype=None, device=None):
    """Return a BCOO holding the non-zeros of a dense array.

    jax: jax.experimental.sparse.bcoo_fromdense.

    Parameters
    ----------
    x : array_like
        The dense array.
    {layout}

    Returns
    -------
    BCOO
        The non-zeros of ``x``, sorted by row-major coordinates and unique (the flags
        ``indices_sorted`` and ``unique_indices`` are set).

    Raises
    ------
    {type_error}
    ValueError
        If ``nse`` is negative, ``n_batch + n_dense`` exceeds ``x.ndim``, ``nse`` is None
        under a trace, or ``device`` is not a row-partitioning sharding.

    Notes
    -----
    Static under ``jax.jit``: ``nse``, ``n_batch``, ``n_dense``, ``index_dtype``, ``device``.

    Counting the non-zeros reads the data: eagerly that is one small computation; under
    ``jax.jit`` give ``nse``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.bcoo_fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> a
    BCOO(float64[2, 3], nse=3)
    >>> a.indices
    Array([[0, 1],
           [1, 0],
           [1, 2]], dtype=int32)
    >>> sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]], nse=1).todense()
    Array([[0., 1.],
           [0., 0.]])
    """
    fn = "bcoo_fromdense"
    check_placement(fn, device)
    raw = to_raw(fn, x, "x")
    n_batch, n_dense = _layout_ints(fn, n_batch, n_dense, raw.ndim)
    index_dtype = _index_dtype(fn, index_dtype, raw.shape)
    if nse is None:
        if is_tracer(raw):
            fail_text(ValueError, fn, "expected a static 'nse' under jax.jit/vmap/grad (the "
                      "number of stored entries cannot be computed from traced data); got None")
        nse = int(_count_nonzero_kernel(raw, n_batch=n_batch, n_dense=n_dense))
    nse = _nse_int(fn, nse)
    data, indices = _fromdense_kernel(raw, nse=nse, n_batch=n_batch, n_dense=n_dense,
                                      index_dtype=index_dtype)
    out = BCOO._new(data, indices, raw.shape, indices_sorted=True, unique_indices=True)
    return placed(fn, out, device)


def _nonzero_mask(x, n_dense):
    mask = lax.ne(x, lax.full((), 0, x.dtype))
    if n_dense:
        mask = lax.reduce_or(mask, tuple(range(x.ndim - n_dense, x.ndim)))
    return mask


@kernel(static=("n_batch", "n_dense"))
def _count_nonzero_kernel(x, *, n_batch, n_dense):
    mask = lax.convert_element_type(_nonzero_mask(x, n_dense), _dt.default_index())
    counts = lax.reduce_sum(mask, tuple(range(n_batch, mask.ndim)))
    if not n_batch:
        return counts
    # an empty batch holds no entries (reduce_max of nothing is the dtype's minimum)
    return lax.max(lax.reduce_max(counts, tuple(range(n_batch))), lax.full((), 0, _dt.default_index()))


@kernel(static=("nse", "n_batch", "n_dense", "index_dtype"))
def _fromdense_kernel(x, *, nse, n_batch, n_dense, index_dtype):
    sparse_shape = tuple(x.shape[n_batch:x.ndim - n_dense])
    dense_shape = tuple(x.shape[x.ndim - n_dense:])

    def one(xb):
        n = math.prod(sparse_shape)
        flat = lax.reshape(xb, (n,) + dense_shape)
        # positions up to n rounded up to whole 32-bit words must fit
        pos_dtype = np.dtype("int32") if n < 2**31 - 64 else np.dtype("int64")
        keys = K.true_positions(_nonzero_mask(flat, n_dense), nse, pos_dtype)
        data = K.gather_1d(flat, keys)
        return data, K.unravel_keys(keys, sparse_shape, index_dtype)

    return K.batched(one, n_batch, in_axes=0)(x)


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def bcoo_todense(mat):
    """Return the dense array of a BCOO (or BCSR).

    jax: jax.experimental.sparse.bcoo_todense.

    {params}

    Returns
    -------
    Array
        The dense laxarray array of ``mat.shape`` and dtype: duplicates summed, padding
        entries ignored.

    {raises}

    Notes
    -----
    Static under ``jax.jit``: none (the shape is part of the sparse array's static structure).

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0, 5.0], [[1, 0], [0, 1], [1, 0]]), shape=(2, 2))
    >>> sp.bcoo_todense(a)
    Array([[0., 2.],
           [6., 0.]])
    """
    mat = as_sparse_input("bcoo_todense", mat)
    return wrap(todense_raw(mat))


def todense_raw(mat):
    """Raw jax dense value of a BCOO (for use by other sparse modules)."""
    return _todense_kernel(mat.data, mat.indices, shape=mat.shape,
                           unique=mat.unique_indices, sorted_=mat.indices_sorted)


@kernel(static=("shape", "unique", "sorted_"))
def _todense_kernel(data, indices, *, shape, unique, sorted_):
    n_batch = indices.ndim - 2
    n_sparse = indices.shape[-1]
    batch = tuple(shape[:n_batch])
    data, indices = K.broadcast_batch(data, batch), K.broadcast_batch(indices, batch)
    sparse_shape = tuple(shape[n_batch:n_batch + n_sparse])
    dense_shape = tuple(shape[n_batch + n_sparse:])

    if data.dtype == np.bool_:  # scatter_add has no bool: count, then "any stored True"
        counts = _todense_kernel.fn(lax.convert_element_type(data, np.int32), indices,
                                    shape=shape, unique=unique, sorted_=sorted_)
        return lax.ne(counts, lax.full_like(counts, 0))

    def one(d, i):
        dnums = lax.ScatterDimensionNumbers(
            update_window_dims=tuple(range(1, 1 + len(dense_shape))),
            inserted_window_dims=tuple(range(n_sparse)),
            scatter_dims_to_operand_dims=tuple(range(n_sparse)))
        out = lax.full(sparse_shape + dense_shape, 0, d.dtype)
        if n_sparse == 0:
            return lax.add(out, lax.reduce_sum(d, (0,)))
        return lax.scatter_add(out, i, d, dnums, indices_are_sorted=sorted_,
                               unique_indices=unique, mode=K.GATHER_FILL)

    return K.batched(one, n_batch, in_axes=(0, 0))(data, indices)


# ---- scipy ---------------------------------------------------------------------------------
def scipy_input(fn, mat, device):
    """Check the arguments of a ``from_scipy_sparse``: ``mat`` a ``scipy.sparse`` array or
    matrix (``TypeError``), ``device`` None or a row-partitioning sharding."""
    check_placement(fn, device)
    if not lazy_scipy.scipy_sparse().issparse(mat):
        fail(TypeError, fn, "a scipy.sparse array or matrix for 'mat'", mat)


@in_wide_mode
@fill(scipy_params=_docs.FROM_SCIPY_PARAMS, raises_notes=_docs.FROM_SCIPY_RAISES_NOTES)
def bcoo_from_scipy_sparse(mat, *, index_dtype=None, device=None):
    """Return a 2-D BCOO of a ``scipy.sparse`` array or matrix.

    jax: jax.experimental.sparse.BCOO.from_scipy_sparse.

    Parameters
    ----------
    mat : scipy.sparse array or matrix
        Any format; its entries are kept as stored (duplicates too).
    {scipy_params}

    Returns
    -------
    BCOO
        The same matrix.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> import scipy.sparse
    >>> sp.bcoo_from_scipy_sparse(scipy.sparse.eye(3, format="csr"))
    BCOO(float64[3, 3], nse=3)
    """
    fn = "bcoo_from_scipy_sparse"
    scipy_input(fn, mat, device)
    coo = mat.tocoo()
    index_dtype = _index_dtype(fn, index_dtype, coo.shape)
    idx = np.stack([np.asarray(coo.row), np.asarray(coo.col)], axis=1).astype(index_dtype)
    sorted_ = mat.format == "csr" and bool(getattr(mat, "has_sorted_indices", False))
    unique = bool(getattr(mat, "has_canonical_format", False))
    data = to_raw(fn, np.asarray(coo.data), "mat")  # the backend's dtype rules, as asarray's
    out = BCOO._new(data, device_put(idx), tuple(coo.shape),
                    indices_sorted=sorted_ and unique, unique_indices=unique)
    return placed(fn, out, device)


@in_wide_mode
@fill(raises=_docs.MAT_RAISES, notes=_docs.HOST_NOTES)
def bcoo_to_scipy_sparse(mat, format="coo"):
    """Return a ``scipy.sparse`` array of a 2-D, unbatched, dense-free BCOO (or BCSR).

    jax: (no counterpart).

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse matrix: two sparse dimensions, no batch or dense ones, concrete values.
    format : {'coo', 'csr', 'csc'}, optional
        The format of the result; default ``'coo'``.

    Returns
    -------
    scipy.sparse array
        The same matrix; padding entries are dropped, duplicates kept (SciPy sums them on use).

    {raises}
    ValueError
        If ``format`` is not one of the three, or ``mat`` is not 2-D without batch and dense
        dimensions.

    {notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> sp.bcoo_to_scipy_sparse(a, format="csr").toarray()
    array([[0., 1.],
           [2., 0.]])
    """
    fn = "bcoo_to_scipy_sparse"
    sps = lazy_scipy.scipy_sparse()
    mat = as_sparse_input(fn, mat)
    if mat.n_batch or mat.n_dense or mat.n_sparse != 2:
        fail(ValueError, fn, "a 2-D BCOO with n_batch == n_dense == 0", mat)
    if format not in ("coo", "csr", "csc"):
        fail(ValueError, fn, "format 'coo', 'csr' or 'csc'", format)
    data = np.asarray(mat.data)
    idx = np.asarray(mat.indices)
    keep = (idx[:, 0] < mat.shape[0]) & (idx[:, 1] < mat.shape[1])
    out = sps.coo_array((data[keep], (idx[keep, 0], idx[keep, 1])), shape=mat.shape)
    return out.asformat(format)


__all__ = ["bcoo_fromdense", "bcoo_todense", "bcoo_from_scipy_sparse", "bcoo_to_scipy_sparse"]
