"""Manipulation functions of the standard that join and split arrays: concat, stack and
unstack (the static arguments under ``jax.jit``: each docstring's Notes).
"""

from __future__ import annotations

import builtins
import functools
import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, committed_places, fail_mixed_devices
from laxarray._core.errors import fail
from laxarray._core.jaxapi import device_put, in_wide_mode
from laxarray._core.buckets import bucket_shape, extents
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import normalize_axis
from laxarray.array_api._docs import AXIS_STATIC, RANK0_AXIS_ERRORS
from laxarray.array_api._calls import call, padded_inputs, run_padded, wrap_bucketed
from laxarray.array_api._convert import as_array
from laxarray.array_api._indexing_basic import getitem_basic
from laxarray.array_api.manipulation import reshape_kernel


@kernel(static=("axis", "dtype"))
def concat_kernel(*xs, axis, dtype):
    xs = [lax.convert_element_type(v, dtype) for v in xs]
    if axis is None:
        xs = [lax.reshape(v, (math.prod(v.shape),)) for v in xs]
        axis = 0
    return lax.concatenate(xs, axis)


@functools.lru_cache(maxsize=32)
def _bucket_zeros(shape, dtype):
    """Zeros of a bucket shape on the default device (uncommitted), copied from the host
    once: the start of a bucketed concat, which then compiles only the placing kernel."""
    return device_put(np.zeros(shape, dtype))


@kernel(static=("axis",))
def _concat_place_kernel(out, x, at, *, axis):
    """Bucketed concat, one piece: ``out`` with ``x`` (padded) written from position
    ``at[0]`` along ``axis`` for its true length ``at[1]``. Shifted in a buffer with room
    for all of ``x`` (a clamped update would move it), then selected, so ``out``'s rows
    before and after stay and one executable serves every offset and length."""
    rows = out.shape[axis]
    room = [rows + x.shape[axis] if d == axis else n for d, n in enumerate(out.shape)]
    start, length = (lax.reshape(lax.slice(at, (i,), (i + 1,)), ()) for i in (0, 1))
    zero = lax.full((), 0, np.int32)
    buf = lax.dynamic_update_slice(
        lax.full(tuple(room), 0, out.dtype), lax.convert_element_type(x, out.dtype),
        [start if d == axis else zero for d in range(out.ndim)])
    i = lax.broadcasted_iota(np.int32, out.shape, axis)
    inside = lax.bitwise_and(lax.ge(i, start), lax.lt(i, lax.add(start, length)))
    return lax.select(inside, lax.slice_in_dim(buf, 0, rows, axis=axis), out)


def _concat_bucketed(raws, shape, axis, dtype):
    """The bucketed concat of ``raws`` (``None`` where one is not bucketed): zeros of the
    result's bucket, then each piece placed at the running sum of the true lengths -- a
    kernel per (result bucket, piece bucket), whatever the pieces' number, order and
    lengths (one kernel over all of them compiled once per combination of buckets)."""
    found = padded_inputs(raws)
    if found is None:
        return None
    padded, shapes = found
    if len(all_devices()) > 1 and len(committed_places(padded)) > 1:
        fail_mixed_devices("concat", padded)   # before the first piece is placed
    out = _bucket_zeros(bucket_shape(shape), dtype)
    at = 0
    for p, s in zip(padded, shapes):
        out = run_padded(_concat_place_kernel, (out, p, extents((at, s[axis]))), axis=axis)
        at += s[axis]
    return wrap_bucketed(out, shape)


def _sequence(fn, arrays):
    if not isinstance(arrays, (tuple, list)) or not arrays:
        fail(TypeError if not isinstance(arrays, (tuple, list)) else ValueError, fn,
             "a non-empty tuple or list of arrays for 'arrays'", arrays)
    raws = [as_array(fn, a, "arrays") for a in arrays]
    return raws, _dt.result_type(*[r.dtype for r in raws])


@in_wide_mode
@fill(axis_static=AXIS_STATIC)
def concat(arrays, /, *, axis=0):
    """Join a sequence of arrays along an existing axis.

    Array API: concat. NumPy: numpy.concatenate.

    Parameters
    ----------
    arrays : tuple or list of array_like
        The arrays to join (at least one): of equal rank, their shapes equal except along
        ``axis``.
    axis : int, optional
        The axis to join along; ``None`` flattens each array first; default 0.

    Returns
    -------
    Array
        The joined array, of the arrays' promoted dtype.

    Raises
    ------
    TypeError
        If ``arrays`` is not a tuple or list, or an element is not array_like.
    ValueError
        If ``arrays`` is empty, the ranks differ, an array is 0-d (with an ``axis``), or the
        shapes differ off ``axis``.
    AxisError
        If ``axis`` is out of range.

    {axis_static}

    Small arrays are joined on their buckets: one program per combination of bucket shapes,
    whatever the pieces' number, order and true lengths.  ``laxarray.concatenate`` is NumPy's
    name (with ``out`` and ``dtype``).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.concat([xp.asarray([1, 2]), xp.asarray([3.0])])
    Array([1., 2., 3.])
    >>> x = xp.reshape(xp.arange(4), (2, 2))
    >>> xp.concat([x, x], axis=1)
    Array([[0, 1, 0, 1],
           [2, 3, 2, 3]])
    """
    raws, dt = _sequence("concat", arrays)
    if axis is not None:
        nd = raws[0].ndim
        if any(r.ndim != nd for r in raws):
            fail(ValueError, "concat", "arrays of equal rank", [r.shape for r in raws])
        if nd == 0:
            fail(ValueError, "concat", "arrays of rank >= 1 (use axis=None)", arrays)
        axis = normalize_axis("concat", axis, nd)
        for r in raws:
            if tuple(d for i, d in enumerate(r.shape) if i != axis) != tuple(
                    d for i, d in enumerate(raws[0].shape) if i != axis):
                fail(ValueError, "concat", "shapes that match except along 'axis'",
                     [tuple(v.shape) for v in raws])
        shape = list(raws[0].shape)
        shape[axis] = builtins.sum(r.shape[axis] for r in raws)
        shape = tuple(shape)
        bucket = bucket_shape(shape)
        if bucket is not None:
            out = _concat_bucketed(raws, shape, axis, dt)
            if out is not None:
                return out
    return call(concat_kernel, *raws, axis=axis, dtype=dt)


@in_wide_mode
@fill(axis_static=AXIS_STATIC)
def stack(arrays, /, *, axis=0):
    """Join a sequence of arrays of equal shape along a new axis.

    Array API: stack. NumPy: numpy.stack.

    Parameters
    ----------
    arrays : tuple or list of array_like
        The arrays to join (at least one), all of one shape.
    axis : int, optional
        The position of the new axis in the result; default 0.

    Returns
    -------
    Array
        An array of rank one more than the inputs', of their promoted dtype.

    Raises
    ------
    TypeError
        If ``arrays`` is not a tuple or list, or an element is not array_like.
    ValueError
        If ``arrays`` is empty, or the shapes differ, or the arrays are committed to
        different devices.
    AxisError
        If ``axis`` is out of range for the result.

    {axis_static}

    Examples
    --------
    >>> import laxarray as xp
    >>> a, b = xp.asarray([1, 2]), xp.asarray([3, 4])
    >>> xp.stack([a, b])
    Array([[1, 2],
           [3, 4]])
    >>> xp.stack([a, b], axis=1)
    Array([[1, 3],
           [2, 4]])
    """
    raws, dt = _sequence("stack", arrays)
    shape = tuple(raws[0].shape)
    if any(tuple(r.shape) != shape for r in raws):
        fail(ValueError, "stack", "arrays of equal shape", [tuple(r.shape) for r in raws])
    ax = normalize_axis("stack", axis, len(shape) + 1)
    if len(all_devices()) > 1:      # (else concat's kernel would report the mix as concat)
        values = [r._value for r in raws]
        if len(committed_places(values)) > 1:
            fail_mixed_devices("stack", values)
    new_shape = shape[:ax] + (1,) + shape[ax:]
    return concat([call(reshape_kernel, r, shape=new_shape) for r in raws], axis=ax)


@in_wide_mode
@fill(rank0_axis_errors=RANK0_AXIS_ERRORS)
def unstack(x, /, *, axis=0):
    """Split an array into a tuple of arrays along an axis.

    Array API: unstack. NumPy: numpy.unstack.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least one.
    axis : int, optional
        The axis to split along; default 0.

    Returns
    -------
    tuple of Array
        ``x.shape[axis]`` arrays, each ``x`` without that axis.

    Raises
    ------
    TypeError
        If ``x`` is not array_like.
    {rank0_axis_errors}

    Notes
    -----
    Static under ``jax.jit``: ``axis`` (each slice's index is a dynamic start: one program
    serves every slice).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.unstack(xp.asarray([[0, 1, 2], [3, 4, 5]]), axis=1)
    (Array([0, 3]), Array([1, 4]), Array([2, 5]))
    """
    raw = as_array("unstack", x)
    if raw.ndim == 0:
        fail(ValueError, "unstack", "an array of rank >= 1", x)
    ax = normalize_axis("unstack", axis, raw.ndim)
    # the index is a dynamic start: one kernel for every slice
    return tuple(getitem_basic(raw, (slice(None),) * ax + (i,), "unstack")
                 for i in range(raw.shape[ax]))


__all__ = ["concat", "stack", "unstack"]
