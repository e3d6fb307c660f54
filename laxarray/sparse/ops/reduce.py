"""Reductions: ``sum`` (sparse result) and ``max``/``min`` (dense result, implicit zeros
count).

``sum`` over dense dimensions reduces the stored blocks; over sparse dimensions it drops
index columns (the result may hold duplicates, summed on use); over batch dimensions it
goes through the flat layout.  Reducing every dimension gives a dense 0-d ``Array``.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._array import wrap
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcoo_canonical import bcoo_sum_duplicates
from laxarray.sparse.bcoo_convert import todense_raw
from laxarray.sparse.ops.layout import to_flat
from laxarray.sparse.ops.reshape import _as, _axes

# The numpydoc parts sum, max and min share (filled in by ``fill``).
_PARAMS = """
Parameters
----------
mat : BCOO or BCSR
    The sparse array.
axis : int or tuple of ints, optional
    The axes to reduce; default all."""

_RAISES_NOTES = """
Raises
------
TypeError
    If ``mat`` is not a BCOO or BCSR.
AxisError
    If an axis is out of range.

Notes
-----
Static under ``jax.jit``: ``axis``."""



def _norm_axis(fn, axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (int, np.integer)):
        axis = (axis,)
    axes = _axes(fn, axis, ndim)
    if len(set(axes)) != len(axes):
        fail(ValueError, fn, "distinct axes", axis)
    return tuple(sorted(axes))


@in_wide_mode
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def sum(mat, axis=None):
    """Sum a sparse array over the given axes.

    Array API: sum (of the dense equivalent). jax: jax.experimental.sparse.bcoo_reduce_sum.

    {params}

    Returns
    -------
    BCOO, BCSR or Array
        A sparse array of the remaining dimensions (of ``mat``'s format when 2-D), or a 0-d
        dense ``Array`` when every axis is reduced.  The dtype is the values' (integers are
        not widened, unlike :func:`laxarray.sum`).

    {raises_notes}

    The method ``mat.sum(axis)`` is this function.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.sum(a)
    Array(6.)
    >>> sp.sum(a, axis=1).todense()
    Array([1., 5.])
    """
    fn = "sum"
    a = _as(fn, mat)
    axes = _norm_axis(fn, axis, a.ndim)
    if not axes:
        return mat
    if len(axes) == a.ndim:
        return wrap(_total_kernel(todense_raw(a)))
    nb, ns = a.n_batch, a.n_sparse
    if any(d < nb for d in axes):
        a = to_flat(a)
        nb, ns = 0, a.ndim
    shape = tuple(s for i, s in enumerate(a.shape) if i not in axes)
    data, indices = _sum_kernel(a.data, a.indices, shape=a.shape, axes=axes)
    n_kept_sparse = indices.shape[-1]
    sorted_ = a.indices_sorted and all(d >= nb + n_kept_sparse for d in axes if d < nb + ns)
    return _restore(BCOO._new(data, indices, shape, indices_sorted=sorted_), mat)


@kernel(static=())
def _total_kernel(x):
    return lax.reduce_sum(x, tuple(range(x.ndim)))


@kernel(static=("shape", "axes"))
def _sum_kernel(data, indices, *, shape, axes):
    nb = indices.ndim - 2
    ns = indices.shape[-1]
    dense_axes = tuple(d - ns + 1 for d in axes if d >= nb + ns)
    if dense_axes:
        data = lax.reduce_sum(data, dense_axes)
    sparse_axes = [d - nb for d in axes if nb <= d < nb + ns]
    if sparse_axes:
        sshape = tuple(shape[nb:nb + ns])
        pad = K.pad_mask(indices, sshape)
        keep = [j for j in range(ns) if j not in sparse_axes]
        batch = tuple(shape[:nb])
        indices = K.broadcast_batch(indices, batch)
        data = K.broadcast_batch(data, batch)
        pad = K.broadcast_batch(pad, batch)
        if keep:
            cols = [indices[..., j:j + 1] for j in keep]
            new = lax.concatenate(cols, indices.ndim - 1)
            sizes = lax.broadcast_in_dim(
                lax.convert_element_type(np.asarray([sshape[j] for j in keep]), new.dtype),
                new.shape, (new.ndim - 1,))
            indices = lax.select(lax.broadcast_in_dim(pad, new.shape, tuple(range(pad.ndim))),
                                 sizes, new)
        else:
            indices = lax.full(indices.shape[:-1] + (0,), 0, indices.dtype)
        zero = lax.full_like(data, 0)
        data = lax.select(lax.broadcast_in_dim(pad, data.shape, tuple(range(pad.ndim))),
                          zero, data)
    return data, indices


def _extreme(fn, mat, axis, is_max):
    a = _as(fn, mat)
    if a.dtype.kind == "c" or a.dtype.kind == "b":
        fail(TypeError, fn, "a real numeric sparse array", a)
    axes = _norm_axis(fn, axis, a.ndim)
    f = to_flat(a)
    f = bcoo_sum_duplicates(f, nse=f.nse if is_tracer(f.indices) else None)
    return wrap(_extreme_kernel(f.data, f.indices, shape=a.shape, axes=axes, is_max=is_max))


@kernel(static=("shape", "axes", "is_max"))
def _extreme_kernel(data, indices, *, shape, axes, is_max):
    kept = [d for d in range(len(shape)) if d not in axes]
    out_shape = tuple(shape[d] for d in kept)
    n_out = math.prod(out_shape)
    reduced = math.prod(shape[d] for d in axes)
    pad = K.pad_mask(indices, shape)
    sub = lax.concatenate([indices[:, d:d + 1] for d in kept], 1) if kept else \
        lax.full((indices.shape[0], 0), 0, indices.dtype)
    keys = K.linear_keys(sub, out_shape)
    keys = lax.select(pad, lax.full(keys.shape, n_out, K.KEY_DTYPE), keys)
    if data.dtype.kind == "f":
        init = -np.inf if is_max else np.inf
    else:
        info = np.iinfo(data.dtype)
        init = info.min if is_max else info.max
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    scat = lax.scatter_max if is_max else lax.scatter_min
    ext = scat(lax.full((n_out,), init, data.dtype), keys[:, None], data, dn,
               mode=K.GATHER_FILL)
    count = K.scatter_add_1d(n_out, keys, lax.full(keys.shape, 1, _dt.default_index()))
    implicit = lax.lt(count, lax.full((), reduced, _dt.default_index()))
    zero = lax.full((n_out,), 0, data.dtype)
    with_zero = (lax.max if is_max else lax.min)(ext, zero)
    out = lax.select(implicit, with_zero, ext)
    return lax.reshape(out, out_shape)


@in_wide_mode
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def max(mat, axis=None):
    """Return the maximum of a sparse array over the given axes; implicit zeros take part.

    Array API: max (of the dense equivalent). jax: (no counterpart).

    {params}

    Returns
    -------
    Array
        The dense maxima, of the remaining dimensions.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.max(a, axis=1)
    Array([1., 3.])
    """
    return _extreme("max", mat, axis, True)


@in_wide_mode
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def min(mat, axis=None):
    """Return the minimum of a sparse array over the given axes; implicit zeros take part.

    Array API: min (of the dense equivalent). jax: (no counterpart).

    {params}

    Returns
    -------
    Array
        The dense minima, of the remaining dimensions.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.min(a, axis=0)
    Array([0., 0., 0.])
    >>> sp.min(-a)
    Array(-3.)
    """
    return _extreme("min", mat, axis, False)


__all__ = ["sum", "max", "min", "_dt"]
