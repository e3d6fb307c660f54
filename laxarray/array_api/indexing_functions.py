"""Indexing functions of the standard: take, take_along_axis.

Indices may be traced (they are data); negative indices count from the end.  Eagerly, an
out-of-range index raises ``IndexError``; under ``jax.jit`` indices are clamped into range
(the documented tracing rule; ``checkify`` with ``index_checks`` turns them into errors).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import Tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import normalize_axis
from laxarray.array_api._array import Array
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, to_raw
from laxarray.array_api._index_plan import check_index_range, wrap_negative



def gather_axis(x, idx, axis, n=None, wrap=True):
    """``x`` indexed by the integer array ``idx`` along ``axis`` (idx dims replace ``axis``).

    Negative indices wrap once (by ``n``, the axis length, which may be dynamic: the true
    length of a padded ``x``) unless ``wrap`` is False (callers whose indices are
    non-negative); indices are clamped into range (lax clip mode).
    """
    n = x.shape[axis] if n is None else n
    idx = wrap_negative(idx, n, wrap)
    nidx = idx.ndim
    offset_dims = tuple(d if d < axis else d + nidx - 1 for d in range(x.ndim) if d != axis)
    dnums = lax.GatherDimensionNumbers(offset_dims=offset_dims, collapsed_slice_dims=(axis,),
                                       start_index_map=(axis,))
    slice_sizes = tuple(1 if d == axis else x.shape[d] for d in range(x.ndim))
    return lax.gather(x, lax.expand_dims(idx, (nidx,)), dnums, slice_sizes,
                      mode=lax.GatherScatterMode.CLIP)


def _check_in_range(fn, idx_raw, size, argname="indices"):
    """Raise NumPy's ``IndexError`` if a concrete ``idx_raw`` has an entry outside
    ``[-size, size)``; traced indices are not checked (they are clamped).

    Returns whether the kernel must wrap negative entries: False for concrete indices with
    none (the look at the lower bound is one reduction, and saves the kernel's select)."""
    if type(idx_raw) is Array:
        if idx_raw._is_traced():
            return True
        idx = idx_raw._host()  # the host view (read-only, no copy)
    elif isinstance(idx_raw, Tracer):
        return True
    else:
        idx = np.asarray(idx_raw)
    return check_index_range(fn, idx, size, f"'{argname}' in [{-size}, {size})")


def _take_shape(shape, idx_shape, *, axis, wrap):
    if axis is None:  # a flat index into padded data would not be the logical one
        return idx_shape if len(shape) <= 1 else None
    return shape[:axis] + idx_shape + shape[axis + 1:]


@kernel(static=("axis", "wrap"), shape=_take_shape, extents=True)
def _take_kernel(x, idx, exts, *, axis, wrap=True):
    if axis is None:
        x = lax.reshape(x, (int(np.prod(x.shape)),))
        axis = 0
    n = None
    if exts is not None:  # bucketed: negative indices wrap by the true length
        n = lax.convert_element_type(lax.reshape(lax.slice(exts[0], (axis,), (axis + 1,)), ()),
                                     _dt.default_index())
    return gather_axis(x, idx, axis, n, wrap)


@in_wide_region
def take(x, indices, /, *, axis=None):
    """Take elements of an array at integer indices along an axis.

    Array API: take. NumPy: numpy.take.

    Parameters
    ----------
    x : array_like
        The input array.
    indices : array_like
        Integer indices, of any shape (negative: from the end).
    axis : int, optional
        The axis to index; default ``None``: the flattened ``x`` (NumPy's rule; the standard
        requires ``axis`` for rank above one).

    Returns
    -------
    Array
        ``x`` with the indexed axis replaced by the shape of ``indices``, of the dtype of
        ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``indices`` is not an integer array.
    IndexError
        Eagerly: if an index is outside ``[-n, n)`` for an axis of length ``n``, or indices
        index an empty axis.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    The indices may be traced (they are data): under
    ``jax.jit`` an out-of-range index is clamped into range (the tracing rule;
    ``checkify`` with ``index_checks`` makes it an error).

    Unlike NumPy, no ``out`` or ``mode``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0, -1]))
    Array([30, 10, 30])
    >>> xp.take(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1]), axis=1)
    Array([[2],
           [4]])
    """
    raw = as_array("take", x)
    idx = as_array("take", indices, "indices")
    if _dt.kind_of(idx.dtype) not in "iu":
        fail(TypeError, "take", "an integer array for 'indices'", indices)
    ax = None if axis is None else normalize_axis("take", axis, raw.ndim)
    size = math.prod(raw.shape) if ax is None else raw.shape[ax]
    if size == 0 and math.prod(idx.shape) > 0:
        fail(IndexError, "take", "no indices into an empty axis", indices)
    wrap = _check_in_range("take", idx, size)  # before any computation (house rule)
    return call(_take_kernel, raw, idx, axis=ax, wrap=wrap)


@kernel(static=("axis", "wrap"))
def take_along_axis_kernel(x, idx, *, axis, wrap=True):
    n = x.shape[axis]
    shape = lax.broadcast_shapes(
        tuple(1 if d == axis else s for d, s in enumerate(x.shape)),
        tuple(1 if d == axis else s for d, s in enumerate(idx.shape)))
    idx_shape = tuple(idx.shape[axis] if d == axis else s for d, s in enumerate(shape))
    x_shape = tuple(n if d == axis else s for d, s in enumerate(shape))
    x = lax.broadcast_in_dim(x, x_shape, tuple(range(x.ndim)))
    idx = wrap_negative(lax.broadcast_in_dim(idx, idx_shape, tuple(range(idx.ndim))), n, wrap)
    # gather with full batching: every non-axis dim is a batch dim
    batch = tuple(d for d in range(x.ndim) if d != axis)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
        operand_batching_dims=batch, start_indices_batching_dims=batch)
    return lax.gather(x, lax.expand_dims(idx, (idx.ndim,)), dnums,
                      tuple(1 for _ in range(x.ndim)), mode=lax.GatherScatterMode.CLIP)


@in_wide_region
def take_along_axis(x, indices, /, *, axis=-1):
    """Take values along an axis at indices of the same rank (as from ``argsort``).

    Array API: take_along_axis. NumPy: numpy.take_along_axis.

    Parameters
    ----------
    x : array_like
        The input array.
    indices : array_like
        Integer indices of the rank of ``x`` (negative: from the end); off ``axis`` their
        shape broadcasts against that of ``x``.
    axis : int, optional
        The axis to index along; default -1.

    Returns
    -------
    Array
        The values, of the dtype of ``x`` and the broadcast shape (the length of ``indices``
        along ``axis``).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``indices`` is not an integer array.
    ValueError
        If ``indices`` differs in rank from ``x``, or does not broadcast against it off
        ``axis``.
    IndexError
        Eagerly: if an index is outside ``[-n, n)`` for the axis of length ``n``.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.  Traced indices are clamped into range, as for
    :func:`take`.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[30, 10, 20], [60, 40, 50]])
    >>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
    Array([[10, 20, 30],
           [40, 50, 60]])
    >>> xp.take_along_axis(x, xp.asarray([[0], [2]]), axis=1)
    Array([[30],
           [50]])
    """
    raw = to_raw("take_along_axis", x)
    idx = to_raw("take_along_axis", indices, "indices")
    if _dt.kind_of(idx.dtype) not in "iu":
        fail(TypeError, "take_along_axis", "an integer array for 'indices'", indices)
    if idx.ndim != raw.ndim:
        fail(ValueError, "take_along_axis", f"'indices' of rank {raw.ndim}", indices)
    ax = normalize_axis("take_along_axis", axis, raw.ndim)
    for d in range(raw.ndim):
        if d != ax and idx.shape[d] not in (1, raw.shape[d]) and raw.shape[d] != 1:
            fail(ValueError, "take_along_axis", "'indices' broadcastable with 'x' off 'axis'",
                 indices)
    wrap = _check_in_range("take_along_axis", idx, raw.shape[ax])
    return call(take_along_axis_kernel, raw, idx, axis=ax, wrap=wrap)


__all__ = ["take", "take_along_axis"]
