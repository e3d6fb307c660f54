"""Editing along an axis: insert, delete, append, resize, rot90, fliplr, flipud, trim_zeros.

Shapes are static facts: ``obj`` of ``insert``/``delete`` may be traced (its *length* is
static), ``delete`` with traced indices needs ``assume_unique_indices=True`` (duplicates
would change the output length), and ``trim_zeros`` is eager only (its output length is
the data).  Out-of-range indices raise ``IndexError`` eagerly; traced, they are clamped.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_int, normalize_axis, normalize_shape, normalize_axes
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.array_api.indexing_functions import gather_axis
from laxarray.array_api.manipulation_join import concat
from laxarray.array_api.manipulation_rearrange import flip_kernel
from laxarray.numpy_api import _docs

_DROP = lax.GatherScatterMode.FILL_OR_DROP
_D1 = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                  scatter_dims_to_operand_dims=(0,))



def _flat(x):
    return lax.reshape(x, (math.prod(x.shape),))


def _axis_or_flat(fn, raw, axis):
    if axis is None:
        return _flat(raw), 0
    return raw, normalize_axis(fn, axis, raw.ndim)


def _index_obj(fn, obj, n):
    """``obj`` of insert/delete -> ``(raw int64 indices or None, numpy indices or None,
    ndim of obj)``; a slice becomes its static range, a bool array its nonzero (eager)."""
    if isinstance(obj, slice):
        idx = np.arange(*obj.indices(n), dtype=_dt.default_index())
        return None, idx, 1
    if isinstance(obj, Array) or is_tracer(obj):
        raw = obj._value if isinstance(obj, Array) else obj
        if is_tracer(raw):
            if _dt.kind_of(raw.dtype) not in "iu":
                fail(TypeError, fn, "an integer array for 'obj' under jax.jit (a boolean "
                     "'obj' decides the output length)", obj)
            return lax.convert_element_type(raw, _dt.default_index()), None, raw.ndim
        obj = np.asarray(raw)
    arr = np.asarray(obj)
    if arr.size == 0 and not isinstance(obj, np.ndarray):
        arr = arr.astype(_dt.default_index())
    if _dt.kind_of(arr.dtype) == "b":
        return None, arr, arr.ndim
    if _dt.kind_of(arr.dtype) not in "iu":
        fail(TypeError, fn, "integers, a slice or a boolean array for 'obj'", obj)
    return None, arr.astype(_dt.default_index()), arr.ndim


@kernel(static=("axis", "count"))
def _insert_kernel(x, block, idx, *, axis, count):
    """``block`` (``count`` slices along ``axis``) inserted before positions ``idx``."""
    n = x.shape[axis]
    idx = lax.select(lax.lt(idx, lax.full_like(idx, 0)), lax.add(idx, lax.full_like(idx, n)),
                     idx)
    idx = lax.clamp(lax.full_like(idx, 0), idx, lax.full_like(idx, n))
    srt, order = lax.sort((idx, lax.iota(_dt.default_index(), count)), num_keys=1, is_stable=True)
    # inserted item order[j] lands at srt[j] + j; old item i at i + #(idx <= i)
    pos_new = lax.scatter(lax.full((count,), 0, _dt.default_index()), lax.expand_dims(order, (1,)),
                          lax.add(srt, lax.iota(_dt.default_index(), count)), _D1, mode=_DROP)
    old = lax.iota(_dt.default_index(), n)
    before = lax.reduce_sum(lax.convert_element_type(
        lax.le(lax.broadcast_in_dim(srt, (n, count), (1,)),
               lax.broadcast_in_dim(old, (n, count), (0,))), _dt.default_index()), (1,))
    pos_old = lax.add(old, before)
    total = n + count
    src = lax.scatter(lax.full((total,), 0, _dt.default_index()), lax.expand_dims(pos_old, (1,)), old,
                      _D1, mode=_DROP)
    src = lax.scatter(src, lax.expand_dims(pos_new, (1,)),
                      lax.add(lax.iota(_dt.default_index(), count), lax.full((count,), n, _dt.default_index())),
                      _D1, mode=_DROP)
    return gather_axis(lax.concatenate([x, block], axis), src, axis, wrap=False)


_INSERT_PARAMETERS = _docs.compose("""
Parameters
----------
arr : array_like
    The input array.
obj : int, slice or array_like of ints or bools""")


_INSERT_RAISES = _docs.compose("""
Raises
------
{type_error_operand}
IndexError""", type_error_operand=_docs.TYPE_ERROR_OPERAND)


@in_wide_region
@fill(insert_parameters=_INSERT_PARAMETERS, insert_raises=_INSERT_RAISES,
      axis_error_axis=_docs.AXIS_ERROR_AXIS)
def insert(arr, obj, values, axis=None):
    """Insert values before the given indices along an axis.

    Array API: (not in the standard). NumPy: numpy.insert.

    {insert_parameters}
        The indices before which to insert; may be a traced integer array under ``jax.jit``
        (its length is static; out-of-range entries are clamped).
    values : array_like
        The values, cast to ``arr``'s dtype; broadcast to the inserted positions.
    axis : int, optional
        The axis to insert along; default None: ``arr`` is flattened first.

    Returns
    -------
    Array
        A new array with the values inserted.

    {insert_raises}
        Eagerly, if an index is out of range (``[-n, n]``).
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, the length of ``obj``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.insert(la.asarray([1, 2, 3]), 1, 9)
    Array([1, 9, 2, 3])
    >>> la.insert(la.asarray([1, 2, 3]), [0, 3], [8, 9])
    Array([8, 1, 2, 3, 9])
    >>> la.insert(la.asarray([[1, 2], [3, 4]]), 1, 0, axis=1)
    Array([[1, 0, 2],
           [3, 0, 4]])
    """
    fn = "insert"
    raw, ax = _axis_or_flat(fn, to_raw(fn, arr, "arr"), axis)
    n = raw.shape[ax]
    traced_idx, idx, obj_ndim = _index_obj(fn, obj, n)
    if idx is not None and _dt.kind_of(idx.dtype) == "b":
        if idx.ndim != 1:
            fail(ValueError, fn, "a one-dimensional boolean 'obj'", obj)
        idx = np.flatnonzero(idx).astype(_dt.default_index())
    if (traced_idx if idx is None else idx).ndim > 1:
        fail(ValueError, fn, "a scalar or one-dimensional 'obj'", obj)
    if idx is not None and idx.size and (idx.min() < -n or idx.max() > n):
        fail(IndexError, fn, f"indices in [{-n}, {n}] for 'obj' (axis {ax} has size {n})",
             obj)
    vals = lax.convert_element_type(to_raw(fn, values, "values"), raw.dtype)
    count = math.prod((traced_idx if idx is None else idx).shape)
    shape = list(raw.shape)
    if count == 1:  # NumPy: values gain leading axes; a scalar obj moves the first to axis
        vals = lax.reshape(vals, (1,) * (raw.ndim - vals.ndim) + tuple(vals.shape))
        if obj_ndim == 0:
            perm = list(range(1, vals.ndim))
            perm.insert(ax, 0)
            vals = lax.transpose(vals, tuple(perm))
        count = vals.shape[ax]
        one = lax.reshape(traced_idx if idx is None else idx, (1,))
        idx_raw = lax.broadcast_in_dim(one, (count,), (0,))
    else:
        idx_raw = traced_idx if idx is None else idx
    shape[ax] = count
    try:
        target = np.broadcast_shapes(tuple(vals.shape), tuple(shape))
    except ValueError:
        target = None
    if target != tuple(shape):
        fail(ValueError, fn, f"'values' broadcastable to {tuple(shape)}", values)
    block = lax.broadcast_in_dim(vals, tuple(shape),
                                 tuple(range(len(shape) - vals.ndim, len(shape))))
    return call(_insert_kernel, raw, block, lax.convert_element_type(idx_raw, _dt.default_index()),
                axis=ax, count=count)


@kernel(static=("axis", "keep"))
def _delete_kernel(x, idx, *, axis, keep):
    n = x.shape[axis]
    idx = lax.select(lax.lt(idx, lax.full_like(idx, 0)), lax.add(idx, lax.full_like(idx, n)),
                     idx)
    gone = lax.scatter(lax.full((n,), False, np.bool_), lax.expand_dims(idx, (1,)),
                       lax.full(idx.shape, True, np.bool_), _D1, mode=_DROP)
    order = lax.sort((lax.convert_element_type(gone, np.int32), lax.iota(_dt.default_index(), n)),
                     num_keys=1, is_stable=True)[1]
    return gather_axis(x, lax.slice(order, (0,), (keep,)), axis, wrap=False)


@in_wide_region
@fill(insert_parameters=_INSERT_PARAMETERS, insert_raises=_INSERT_RAISES,
      axis_error_axis=_docs.AXIS_ERROR_AXIS)
def delete(arr, obj, axis=None, *, assume_unique_indices=False):
    """Return a new array without the entries at the given indices along an axis.

    Array API: (not in the standard). NumPy: numpy.delete.

    {insert_parameters}
        The entries to remove.
    axis : int, optional
        The axis; default None: ``arr`` is flattened first.
    assume_unique_indices : bool, optional
        A promise that an integer ``obj`` has no duplicates, required for a traced ``obj``
        under ``jax.jit`` (as in jax.numpy): the output length is then ``n - len(obj)``.

    Returns
    -------
    Array
        A new array without those entries.

    {insert_raises}
        Eagerly, if an index is out of range.
    ValueError
        Under ``jax.jit``, for a traced ``obj`` without ``assume_unique_indices=True``.
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``assume_unique_indices``, the length of ``obj``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.delete(la.asarray([1, 2, 3, 4]), [0, 2])
    Array([2, 4])
    >>> la.delete(la.asarray([1, 2, 3, 4]), slice(1, 3))
    Array([1, 4])
    >>> la.delete(la.asarray([[1, 2], [3, 4]]), 0, axis=0)
    Array([[3, 4]])
    """
    fn = "delete"
    raw, ax = _axis_or_flat(fn, to_raw(fn, arr, "arr"), axis)
    n = raw.shape[ax]
    traced_idx, idx, _ = _index_obj(fn, obj, n)
    if traced_idx is not None:
        if not assume_unique_indices:
            fail(ValueError, fn, "assume_unique_indices=True for a traced 'obj' under "
                 "jax.jit (duplicates would change the output length)", obj)
        if traced_idx.ndim > 1:
            fail(ValueError, fn, "a scalar or one-dimensional 'obj'", obj)
        idx_raw = lax.reshape(traced_idx, (math.prod(traced_idx.shape),))
        return call(_delete_kernel, raw, idx_raw, axis=ax, keep=n - idx_raw.shape[0])
    if _dt.kind_of(idx.dtype) == "b":
        if idx.shape != (n,):
            fail(ValueError, fn, f"a boolean 'obj' of shape ({n},)", obj)
        keep = np.flatnonzero(~idx)
    else:
        if idx.size and (idx.min() < -n or idx.max() >= n):
            fail(IndexError, fn, f"indices in [{-n}, {n}) for 'obj' (axis {ax} has size {n})",
                 obj)
        mask = np.ones(n, bool)
        mask[idx.reshape(-1)] = False
        keep = np.flatnonzero(mask)
    if keep.size == n:
        return wrap(raw)
    return call(_take_static_kernel, raw, keep=tuple(int(k) for k in keep), axis=ax)


@kernel(static=("keep", "axis"))
def _take_static_kernel(x, *, keep, axis):
    if not keep:
        return lax.slice_in_dim(x, 0, 0, axis=axis)
    return gather_axis(x, np.asarray(keep, _dt.default_index()), axis, wrap=False)


@in_wide_region
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND, axis_error_axis=_docs.AXIS_ERROR_AXIS)
def append(arr, values, axis=None):
    """Append values to the end of an array.

    Array API: (not in the standard). NumPy: numpy.append.

    Parameters
    ----------
    arr : array_like
        The input array.
    values : array_like
        The values; with an ``axis``, of ``arr``'s rank.
    axis : int, optional
        The axis to append along; default None: both are flattened first.

    Returns
    -------
    Array
        ``concatenate([arr, values], axis)``, of the promotion of both dtypes (scalars
        become arrays).

    Raises
    ------
    {type_error_operand}
    ValueError
        If, with an ``axis``, the ranks or the other axes' sizes differ.
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.append(la.asarray([1, 2]), [3, 4])
    Array([1, 2, 3, 4])
    >>> la.append(la.asarray([1, 2]), 2.5)
    Array([1. , 2. , 2.5])
    """
    fn = "append"
    a, v = to_raw(fn, arr, "arr"), to_raw(fn, values, "values")
    if axis is None:
        return concat([wrap(_flat(a)), wrap(_flat(v))], axis=0)
    normalize_axis(fn, axis, a.ndim)
    if a.ndim != v.ndim:
        fail(ValueError, fn, f"'values' of rank {a.ndim} (like 'arr') with an axis",
             values)
    return concat([wrap(a), wrap(v)], axis=axis)


@kernel(static=("shape",))
def _resize_kernel(x, *, shape):
    total = math.prod(shape)
    flat = _flat(x)
    n = flat.shape[0]
    if n == 0:
        return lax.full(shape, 0, x.dtype)
    reps = -(-total // n)
    flat = lax.concatenate([flat] * reps, 0) if reps > 1 else flat
    return lax.reshape(lax.slice(flat, (0,), (total,)), shape)


@in_wide_region
@fill(type_error_a=_docs.TYPE_ERROR_A)
def resize(a, new_shape):
    """Return an array of a new shape, repeating the elements cyclically.

    Array API: (not in the standard). NumPy: numpy.resize.

    Parameters
    ----------
    a : array_like
        The input; flattened.
    new_shape : int or tuple of ints
        The shape, non-negative.

    Returns
    -------
    Array
        ``a``'s elements repeated in order to fill ``new_shape`` (zeros if ``a`` is empty).

    Raises
    ------
    {type_error_a}
    ValueError
        If a dimension is negative.

    Notes
    -----
    Static under ``jax.jit``: ``new_shape``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.resize(la.asarray([1, 2, 3]), (2, 4))
    Array([[1, 2, 3, 1],
           [2, 3, 1, 2]])
    """
    raw = to_raw("resize", a, "a")
    shape = normalize_shape("resize", new_shape, "new_shape")
    return call(_resize_kernel, raw, shape=shape)


@kernel(static=("k", "axes"))
def _rot90_kernel(m, *, k, axes):
    a0, a1 = axes
    if k == 0:
        return m
    if k == 2:
        return lax.rev(m, (a0, a1))
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return lax.transpose(lax.rev(m, (a1,)), tuple(perm))
    return lax.rev(lax.transpose(m, tuple(perm)), (a1,))


@in_wide_mode
@fill(axis_error=_docs.AXIS_ERROR)
def rot90(m, k=1, axes=(0, 1)):
    """Rotate an array by 90 degrees in the plane of two axes.

    Array API: (not in the standard). NumPy: numpy.rot90.

    Parameters
    ----------
    m : array_like
        The array, of rank at least two.
    k : int, optional
        The number of rotations; default 1 (negative: clockwise).
    axes : pair of ints, optional
        The plane; the rotation goes from the first axis towards the second; default ``(0, 1)``.

    Returns
    -------
    Array
        The rotated array.

    Raises
    ------
    TypeError
        If ``m`` is not array_like, or ``k`` is not an integer.
    ValueError
        If ``m`` has rank below two, or the axes are equal.
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``k``, ``axes``.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.rot90(a)
    Array([[2, 4],
           [1, 3]])
    >>> la.rot90(a, 2)
    Array([[4, 3],
           [2, 1]])
    """
    fn = "rot90"
    raw = to_raw(fn, m, "m")
    k = check_int(fn, k, "k") % 4
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        fail(ValueError, fn, "two axes for 'axes'", axes)
    if raw.ndim < 2:
        fail(ValueError, fn, "an array of rank >= 2", m)
    a0, a1 = (normalize_axis(fn, a, raw.ndim, "axes") for a in axes)
    if a0 == a1:
        fail(ValueError, fn, "two different axes for 'axes'", axes)
    return call(_rot90_kernel, raw, k=k, axes=(a0, a1))


_FLIP_NOTES_EXAMPLES = _docs.compose("""
Notes
-----
Static under ``jax.jit``: none.

Examples
--------
>>> import laxarray as la
>>> a = la.asarray([[1, 2], [3, 4]])""")


_FLIP_RAISES = _docs.compose("""
Raises
------
TypeError
    If ``m`` is not array_like.
ValueError""")


@in_wide_mode
@fill(flip_raises=_FLIP_RAISES, flip_notes_examples=_FLIP_NOTES_EXAMPLES)
def fliplr(m):
    """Reverse the order of the columns (axis 1).

    Array API: (not in the standard). NumPy: numpy.fliplr.

    Parameters
    ----------
    m : array_like
        The array, of rank at least two.

    Returns
    -------
    Array
        ``m[:, ::-1]``.

    {flip_raises}
        If ``m`` has rank below two.

    {flip_notes_examples}
    >>> la.fliplr(a)
    Array([[2, 1],
           [4, 3]])
    """
    raw = to_raw("fliplr", m, "m")
    if raw.ndim < 2:
        fail(ValueError, "fliplr", "an array of rank >= 2", m)
    return _flip(raw, 1)


@in_wide_mode
@fill(flip_raises=_FLIP_RAISES, flip_notes_examples=_FLIP_NOTES_EXAMPLES)
def flipud(m):
    """Reverse the order of the rows (axis 0).

    Array API: (not in the standard). NumPy: numpy.flipud.

    Parameters
    ----------
    m : array_like
        The array, of rank at least one.

    Returns
    -------
    Array
        ``m[::-1]``.

    {flip_raises}
        If ``m`` is 0-d.

    {flip_notes_examples}
    >>> la.flipud(a)
    Array([[3, 4],
           [1, 2]])
    """
    raw = to_raw("flipud", m, "m")
    if raw.ndim < 1:
        fail(ValueError, "flipud", "an array of rank >= 1", m)
    return _flip(raw, 0)


def _flip(raw, axis):
    return call(flip_kernel, raw, axes=(axis,))


@in_wide_mode
def trim_zeros(filt, trim="fb", axis=None):
    """Trim leading (``'f'``) and/or trailing (``'b'``) zeros. NumPy: numpy.trim_zeros.

    With ``axis`` (an int, a tuple or None: all axes) an n-d array is cut to the bounding
    box of its nonzero entries along those axes, as NumPy >= 2.2 does.  The output shape is
    the data: eager only (under ``jax.jit`` a ``ValueError`` says so; use
    ``laxarray.nonzero(..., size=)`` and slicing with static bounds instead).
    """
    fn = "trim_zeros"
    raw = to_raw(fn, filt, "filt")
    if not isinstance(trim, str) or not set(trim.lower()) <= set("fb"):
        fail(ValueError, fn, "'trim' made of 'f' and/or 'b'", trim)
    if is_tracer(raw):
        fail(ValueError, fn, "a concrete 'filt' (the result length depends on the values; "
             "trim_zeros cannot run under jax.jit)", filt)
    if raw.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1 for 'filt'", filt)
    axes = normalize_axes(fn, axis, raw.ndim)
    nz = np.asarray(raw) != 0
    trim = trim.lower()
    starts, stops = [0] * raw.ndim, list(raw.shape)
    if not nz.any():
        for ax in axes:
            starts[ax], stops[ax] = 0, 0 if ("f" in trim or "b" in trim) else raw.shape[ax]
    else:
        for ax in axes:
            hits = np.flatnonzero(nz.any(axis=tuple(d for d in range(raw.ndim) if d != ax)))
            if "f" in trim:
                starts[ax] = int(hits[0])
            if "b" in trim:
                stops[ax] = int(hits[-1]) + 1
    if starts == [0] * raw.ndim and stops == list(raw.shape):
        return wrap(raw)
    return wrap(lax.slice(raw, tuple(starts), tuple(stops)))
