"""BCOO's canonical forms: sorted indices (bcoo_sort_indices), duplicates summed
(bcoo_sum_duplicates), stored zeros removed (bcoo_eliminate_zeros), and another split into
batch, sparse and dense dimensions (bcoo_update_layout); with the segment sums that other
sparse operations build on (:func:`segments_by_key`, :func:`scatter_add_sorted`).

The class is :mod:`laxarray.sparse.bcoo`; its methods of these names call these through
:data:`laxarray.sparse._operators.OPS`.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.numerics import rank_of_true
from laxarray._core.runtime.kernel import kernel
from laxarray.sparse import _docs
from laxarray.sparse import _keys as K
from laxarray.sparse._operators import OPS
from laxarray.sparse.bcoo import BCOO, _nse_int, as_sparse_input


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def bcoo_sort_indices(mat):
    """Return a BCOO with its entries sorted by row-major coordinates within each batch.

    jax: jax.experimental.sparse.bcoo_sort_indices.

    {params}

    Returns
    -------
    BCOO
        The same array, its entries reordered (padding last) and ``indices_sorted`` set;
        duplicates are kept.

    {raises}

    Notes
    -----
    Static under ``jax.jit``: none; everything but the values and the order is static.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0], [[1, 0], [0, 1]]), shape=(2, 2))
    >>> sp.bcoo_sort_indices(a).indices.tolist()
    [[0, 1], [1, 0]]
    """
    mat = as_sparse_input("bcoo_sort_indices", mat)
    if mat.indices_sorted:
        return mat
    data, indices = _sort_kernel(mat.data, mat.indices, shape=mat.shape)
    return BCOO._new(data, indices, mat.shape, indices_sorted=True,
                     unique_indices=mat.unique_indices)


@kernel(static=("shape",))
def _sort_kernel(data, indices, *, shape):
    n_batch = indices.ndim - 2
    batch = tuple(shape[:n_batch])
    data, indices = K.broadcast_batch(data, batch), K.broadcast_batch(indices, batch)
    sparse_shape = tuple(shape[n_batch:n_batch + indices.shape[-1]])

    def one(d, i):
        _, perm = K.sort_by_keys(K.linear_keys(i, sparse_shape), math.prod(sparse_shape))
        return K.gather_1d(d, perm, K.PROMISE), K.gather_1d(i, perm, K.PROMISE)

    return K.batched(one, n_batch, in_axes=(0, 0))(data, indices)


@in_wide_mode
@fill(params=_docs.MAT, raises_notes=_docs.NSE_RAISES_NOTES)
def bcoo_sum_duplicates(mat, nse=None):
    """Return a BCOO with duplicate coordinates summed into one entry.

    jax: jax.experimental.sparse.bcoo_sum_duplicates.

    {params}
    nse : int, optional
        The number of entries per batch of the result; eagerly it defaults to the number of
        distinct coordinates, under ``jax.jit`` to the input's ``nse`` (the extra slots are
        padding).

    Returns
    -------
    BCOO
        The same array with sorted, unique indices (both flags set) and the padding entries
        at the end.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0, 5.0], [[1, 0], [0, 1], [1, 0]]), shape=(2, 2))
    >>> b = sp.bcoo_sum_duplicates(a)
    >>> b
    BCOO(float64[2, 2], nse=2)
    >>> b.data
    Array([2., 6.], dtype=float64)
    """
    fn = "bcoo_sum_duplicates"
    mat = as_sparse_input(fn, mat)
    out_nse = mat.nse if nse is None else _nse_int(fn, nse)
    exact = nse is None and not is_tracer(mat.indices)
    data, indices, count = _sum_duplicates_kernel(mat.data, mat.indices, shape=mat.shape,
                                                  nse=out_nse)
    if exact:
        n = int(count)
        nb = mat.n_batch
        data = lax.slice_in_dim(data, 0, n, axis=nb)
        indices = lax.slice_in_dim(indices, 0, n, axis=nb)
    return BCOO._new(data, indices, mat.shape, indices_sorted=True, unique_indices=True)


def sum_duplicates_core(d, i, sparse_shape, nse):
    """Unbatched: ``(data, indices, n_unique)`` with duplicates summed into ``nse`` slots."""
    total = math.prod(sparse_shape)
    keys = K.linear_keys(i, sparse_shape)
    return segments_by_key(keys, (d,), total, nse, sparse_shape, i.dtype)


def segments_by_key(keys, values, total, nse, sparse_shape, index_dtype, sorted_input=False):
    """Sum each array of ``values`` over entries with equal key; returns
    ``(*summed_values, indices, n_unique)`` with ``nse`` slots sorted by key."""
    n = keys.shape[0]
    if sorted_input:
        skeys, perm = keys, None
    else:
        skeys, perm = K.sort_by_keys(keys, total)
    if n == 0:
        out_keys = lax.full((nse,), total, K.KEY_DTYPE)
        outs = tuple(lax.full((nse,) + tuple(v.shape[1:]), 0, v.dtype) for v in values)
        return outs + (K.unravel_keys(out_keys, sparse_shape, index_dtype),
                       lax.full((), 0, _dt.default_index()))
    first = lax.concatenate([lax.full((1,), True),
                             lax.ne(skeys[1:], skeys[:-1])], 0)
    valid = lax.lt(skeys, lax.full((), total, K.KEY_DTYPE))
    seg = rank_of_true(first, np.int32)
    seg = lax.select(valid, seg, lax.full(seg.shape, nse, np.int32))
    n_unique = lax.reduce_sum(lax.convert_element_type(lax.bitwise_and(first, valid), _dt.default_index()),
                              (0,))
    out_keys = _scatter_set_1d(nse, seg, skeys, fill_value=total) if nse else \
        lax.full((0,), total, K.KEY_DTYPE)
    outs = []
    for v in values:
        vs = v if perm is None else K.gather_1d(v, perm, K.PROMISE)
        outs.append(segment_sum_sorted(vs, seg, nse))
    return tuple(outs) + (K.unravel_keys(out_keys, sparse_shape, index_dtype), n_unique)


def _scatter_set_1d(n, positions, values, fill_value):
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    return lax.scatter(lax.full((n,), fill_value, values.dtype), positions[:, None], values, dnums,
                       indices_are_sorted=True, unique_indices=True, mode=K.GATHER_FILL)


def segment_sum_sorted(values, seg, nse):
    """``out[s] = sum(values[seg == s])`` for sorted ``seg``; ids ``>= nse`` dropped."""
    return scatter_add_sorted(lax.full((nse,) + tuple(values.shape[1:]), 0, values.dtype),
                              seg, values)


def scatter_add_sorted(out, seg, values):
    """``out`` with ``values`` added at sorted positions ``seg`` (out of range dropped).
    Booleans add as NumPy's and SciPy's do, by logical or (lax has no boolean add)."""
    dnums = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(1, values.ndim)),
                                        inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    scatter = lax.scatter_max if values.dtype == np.bool_ else lax.scatter_add
    return scatter(out, seg[:, None], values, dnums, indices_are_sorted=True,
                   mode=K.GATHER_FILL)


@kernel(static=("shape", "nse"))
def _sum_duplicates_kernel(data, indices, *, shape, nse):
    n_batch = indices.ndim - 2
    batch = tuple(shape[:n_batch])
    data, indices = K.broadcast_batch(data, batch), K.broadcast_batch(indices, batch)
    sparse_shape = tuple(shape[n_batch:n_batch + indices.shape[-1]])
    out_nse = max(nse, indices.shape[-2])

    def one(d, i):
        return sum_duplicates_core(d, i, sparse_shape, out_nse)

    d, i, count = K.batched(one, n_batch, in_axes=(0, 0))(data, indices)
    if out_nse != nse:
        d = lax.slice_in_dim(d, 0, nse, axis=n_batch)
        i = lax.slice_in_dim(i, 0, nse, axis=n_batch)
    if n_batch:
        count = lax.reduce_max(count, tuple(range(n_batch)))
    return d, i, count


@in_wide_mode
@fill(params=_docs.MAT, raises_notes=_docs.NSE_RAISES_NOTES)
def bcoo_eliminate_zeros(mat, nse=None):
    """Return a BCOO without its stored zeros.

    jax: jax.experimental.sparse.bcoo_eliminate_zeros.

    {params}
    nse : int, optional
        The number of entries per batch of the result, as in :func:`bcoo_sum_duplicates`.

    Returns
    -------
    BCOO
        The same array with sorted, unique indices and no stored zeros; duplicates are
        summed first, so entries that cancel are removed too.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 0.0], [[1, 0], [0, 1]]), shape=(2, 2))
    >>> sp.bcoo_eliminate_zeros(a)
    BCOO(float64[2, 2], nse=1)
    """
    fn = "bcoo_eliminate_zeros"
    mat = as_sparse_input(fn, mat)
    summed = bcoo_sum_duplicates(mat, nse=mat.nse)
    indices = _zero_to_padding_kernel(summed.data, summed.indices, shape=mat.shape)
    out = BCOO._new(summed.data, indices, mat.shape, indices_sorted=False, unique_indices=True)
    return bcoo_sum_duplicates(out, nse=nse)


@kernel(static=("shape",))
def _zero_to_padding_kernel(data, indices, *, shape):
    n_batch = indices.ndim - 2
    n_sparse = indices.shape[-1]
    zero = lax.eq(data, lax.full((), 0, data.dtype))
    if data.ndim > n_batch + 1:
        zero = lax.reduce_and(zero, tuple(range(n_batch + 1, data.ndim)))
    batch = tuple(shape[:n_batch])
    zero = K.broadcast_batch(zero, batch)
    indices = K.broadcast_batch(indices, batch)
    sizes = lax.broadcast_in_dim(
        lax.convert_element_type(np.asarray(shape[n_batch:n_batch + n_sparse]), indices.dtype),
        indices.shape, (indices.ndim - 1,))
    return lax.select(lax.broadcast_in_dim(zero, indices.shape, tuple(range(indices.ndim - 1))),
                      sizes, indices)


@in_wide_mode
@fill(params=_docs.MAT, raises_notes=_docs.LAYOUT_RAISES_NOTES)
def bcoo_update_layout(mat, *, n_batch=None, n_dense=None, nse=None):
    """Return the same array as a BCOO with another split into batch, sparse and dense dimensions.

    jax: jax.experimental.sparse.bcoo_update_layout.

    {params}
    n_batch : int, optional
        The new number of batch dimensions; default the current one.
    n_dense : int, optional
        The new number of dense dimensions; default the current one.
    nse : int, optional
        The entries per batch when sparse dimensions become batch ones: computed eagerly,
        the input's total ``nse`` under ``jax.jit``.

    Returns
    -------
    BCOO
        The same array (``todense`` is unchanged) with the new layout.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> b = sp.bcoo_update_layout(a, n_batch=1)
    >>> b
    BCOO(float64[2, 2], nse=1, n_batch=1)
    >>> b.data
    Array([[1.],
           [2.]], dtype=float64)
    """
    fn = "bcoo_update_layout"
    return OPS.update_layout(fn, as_sparse_input(fn, mat), n_batch, n_dense, nse)


__all__ = ["bcoo_sort_indices", "bcoo_sum_duplicates", "bcoo_eliminate_zeros",
           "bcoo_update_layout"]
