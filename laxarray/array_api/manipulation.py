"""Manipulation functions of the standard (axes, shapes, joining)."""

from __future__ import annotations

import builtins
import functools
import math
import operator

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, committed_places, fail_mixed_devices
from laxarray._core.errors import broadcast_error, fail, shape_text
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.buckets import (bucket_shape, extents, static_shape_bucket,
                                    static_shape_rule)
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cumulative
from laxarray._core.validate import (check_bool, check_int, normalize_axes, normalize_axis,
                                     normalize_shape)
from laxarray.array_api._calls import call, padded_inputs, run_padded, wrap_bucketed
from laxarray.array_api import _views
from laxarray.array_api._broadcast import broadcast_many, broadcast_pair
from laxarray.array_api._convert import as_array, to_raw
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._indexing_basic import getitem_basic
from laxarray.array_api.indexing_functions import gather_axis


def _permuted_shape(shape, *, axes):
    return tuple(shape[a] for a in axes)


@kernel(static=("axes",), shape=_permuted_shape)
def permute_dims_kernel(x, *, axes):
    return lax.transpose(x, axes)


@in_wide_mode
def permute_dims(x, /, axes):
    """Permute the axes of an array.

    Array API: permute_dims. NumPy: numpy.transpose.

    Parameters
    ----------
    x : array_like
        The input array.
    axes : tuple or list of ints
        A permutation of ``range(x.ndim)`` (negative axes count from the end): axis ``i`` of
        the result is axis ``axes[i]`` of ``x``.

    Returns
    -------
    Array
        A view of ``x`` with its axes permuted (writes through it change ``x``, as in NumPy).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``axes`` is not a tuple or list.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axes`` is not a permutation of the axes of ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axes``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.reshape(xp.arange(6), (2, 3))
    >>> xp.permute_dims(x, (1, 0))
    Array([[0, 3],
           [1, 4],
           [2, 5]])
    >>> xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    raw = as_array("permute_dims", x)
    if not isinstance(axes, (tuple, list)):
        fail(TypeError, "permute_dims", "a tuple of axes for 'axes'", axes)
    norm = tuple(normalize_axis("permute_dims", a, raw.ndim, "axes") for a in axes)
    if sorted(norm) != list(range(raw.ndim)):
        fail(ValueError, "permute_dims", f"a permutation of range({raw.ndim}) for 'axes'", axes)
    return transposed(raw, norm)


def transposed(x, perm):
    """``x`` with its axes permuted by ``perm``: a view of ``x`` (NumPy's rule)."""
    out = call(permute_dims_kernel, x, axes=perm)
    offset, strides = _views.layout_of(x)
    return _views.make_view(x, ("transpose", perm), None, out,
                            (offset, tuple(strides[a] for a in perm)))





def _mismatch_text(shapes):
    """NumPy's sentence for ``broadcast_shapes``/``broadcast_arrays`` of ``shapes`` that do
    not broadcast ("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch
    is between arg 0 with shape (2,) and arg 1 with shape (3,)."): NumPy's own, from NumPy
    (its arrays of a zero-size dtype take no memory)."""
    try:
        np.broadcast_shapes(*shapes)
    except ValueError as exc:
        return str(exc)
    return "shape mismatch: objects cannot be broadcast to a single shape"


def _broadcast_all(fn, shapes):
    return broadcast_many(fn, shapes, _mismatch_text)


@in_wide_mode
def broadcast_shapes(*shapes):
    """Return the shape that shapes broadcast to together.

    Array API: broadcast_shapes. NumPy: numpy.broadcast_shapes.

    Parameters
    ----------
    *shapes : int or tuple of ints
        The shapes to broadcast.

    Returns
    -------
    tuple of ints
        The broadcast shape (``()`` for no shapes).

    Raises
    ------
    TypeError
        If a shape is not an int or a tuple of ints.
    ValueError
        If the shapes do not broadcast together (NumPy's message included), or a dimension is
        negative.

    Notes
    -----
    Static under ``jax.jit``: every argument (a shape is a tuple of Python ints).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.broadcast_shapes((2, 1), (3,))
    (2, 3)
    >>> xp.broadcast_shapes((5, 1, 4), (3, 1))
    (5, 3, 4)
    """
    return _broadcast_all("broadcast_shapes", [normalize_shape("broadcast_shapes", shape,
                                                               "shapes") for shape in shapes])


@kernel(static=("shape",), shape=static_shape_rule, bucket=static_shape_bucket)
def _broadcast_to_kernel(x, *, shape):
    nd = len(shape)
    return lax.broadcast_in_dim(x, shape, tuple(range(nd - x.ndim, nd)))


@in_wide_mode
def broadcast_to(x, /, shape):
    """Broadcast an array to a new shape.

    Array API: broadcast_to. NumPy: numpy.broadcast_to.

    Parameters
    ----------
    x : array_like
        The array to broadcast.
    shape : int or tuple of ints
        The new shape, which the shape of ``x`` broadcasts to.

    Returns
    -------
    Array
        A read-only view of ``x`` of ``shape``, as NumPy's (writing into it raises
        ``ValueError``).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``shape`` is not an int or a tuple of ints.
    ValueError
        If ``x`` does not broadcast to ``shape`` (NumPy's message included).

    Notes
    -----
    Static under ``jax.jit``: ``shape``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
    Array([[1, 2, 3],
           [1, 2, 3]])
    """
    raw = as_array("broadcast_to", x)
    shape = normalize_shape("broadcast_to", shape)
    if len(shape) < raw.ndim or broadcast_pair(tuple(raw.shape), shape) != shape:
        # NumPy's sentences for the same failure
        if not shape:
            text = "cannot broadcast a non-scalar to a scalar array"
        elif len(shape) < raw.ndim:
            text = "input operand has more dimensions than allowed by the axis remapping"
        else:
            text = ("operands could not be broadcast together with remapped shapes "
                    f"[original->remapped]: {shape_text(raw.shape)}  and requested shape "
                    f"{shape_text(shape)}")
        raise broadcast_error("broadcast_to", f"an array broadcastable to {shape}", x, text)
    out = call(_broadcast_to_kernel, raw, shape=shape)
    offset, strides = _views.layout_of(raw)
    lead = len(shape) - raw.ndim
    strides = (0,) * lead + tuple(0 if n == 1 and m != 1 else s for n, m, s in
                                  zip(raw.shape, shape[lead:], strides))
    return _views.make_view(raw, ("broadcast", shape), None, out, (offset, strides),
                            readonly=True)


@in_wide_mode
def broadcast_arrays(*arrays):
    """Broadcast arrays against each other.

    Array API: broadcast_arrays. NumPy: numpy.broadcast_arrays.

    Parameters
    ----------
    *arrays : array_like
        The arrays to broadcast.

    Returns
    -------
    tuple of Array
        One array per input, each of the broadcast shape (new arrays, not views).

    Raises
    ------
    TypeError
        If an input is not array_like.
    ValueError
        If the shapes do not broadcast together (NumPy's message included).

    Notes
    -----
    Static under ``jax.jit``: none (the shapes of the inputs give the result's).

    Unlike NumPy, which returns views (read-only since NumPy 2), the results are new arrays
    (values are immutable, so nothing is copied until one of them is updated).

    Examples
    --------
    >>> import laxarray as xp
    >>> a, b = xp.broadcast_arrays(xp.asarray([[1], [2]]), xp.asarray([10, 20, 30]))
    >>> a
    Array([[1, 1, 1],
           [2, 2, 2]])
    >>> b
    Array([[10, 20, 30],
           [10, 20, 30]])
    """
    raws = [to_raw("broadcast_arrays", a, "arrays") for a in arrays]
    shape = _broadcast_all("broadcast_arrays", [tuple(r.shape) for r in raws])
    return tuple(call(_broadcast_to_kernel, r, shape=shape) for r in raws)


def _reshape_shape(xshape, *, shape):
    """The logical shape of a reshape that runs on the buckets: one where only axes of
    length 1 come or go (the padded value then reshapes to the bucket of ``shape``), else
    ``None`` (exact)."""
    if tuple(n for n in xshape if n != 1) != tuple(n for n in shape if n != 1):
        return None
    return static_shape_rule(xshape, shape=shape)


@kernel(static=("shape",), shape=_reshape_shape, bucket=static_shape_bucket)
def reshape_kernel(x, *, shape):
    return lax.reshape(x, shape)


def _resolve_shape(fn, size, shape):
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    dims = [operator.index(d) if not isinstance(d, bool) else fail(
        TypeError, fn, "integers in 'shape'", shape) for d in shape]
    unknown = [i for i, d in enumerate(dims) if d == -1]
    if len(unknown) > 1 or any(d < -1 for d in dims):
        fail(ValueError, fn, "non-negative dimensions and at most one -1 in 'shape'", shape)
    known = math.prod(d for d in dims if d != -1)
    if unknown:
        if known == 0 or size % known:
            fail(ValueError, fn, f"a shape compatible with size {size}", shape)
        dims[unknown[0]] = size // known
    if math.prod(dims) != size:
        fail(ValueError, fn, f"a shape compatible with size {size}", shape)
    return tuple(dims)


def _reshaped(x, dims, copy=None, fn="reshape"):
    """``x`` reshaped to ``dims``: a view where NumPy gives one (the data can be laid out
    in the new shape without moving: always for an array that is not a strided view), a
    copy where it cannot or ``copy`` is true; ``copy=False`` then raises ``ValueError``."""
    offset, strides = _views.layout_of(x)
    new_strides = None if copy else _views.reshape_strides(tuple(x.shape), strides, dims)
    if new_strides is None and copy is False:
        fail(ValueError, fn, "a shape this array can take without a copy (copy=False); "
             "it is a strided view", dims)
    out = call(reshape_kernel, x, shape=dims)   # padded where only 1-axes come or go
    if new_strides is None:
        return out
    return _views.make_view(x, ("reshape", dims), None, out, (offset, new_strides))


@in_wide_mode
def reshape(x, /, shape, *, copy=None):
    """Give an array a new shape without changing its data (C order).

    Array API: reshape. NumPy: numpy.reshape.

    Parameters
    ----------
    x : array_like
        The input array.
    shape : int or tuple of ints
        The new shape, of the same size as ``x``; one dimension may be -1, inferred.
    copy : bool, optional
        ``True``: always a copy; ``False``: never, raise where one is needed; default
        ``None``: a view where NumPy gives one, else a copy.

    Returns
    -------
    Array
        A view of ``x`` where NumPy gives one (writes through it change ``x``); a copy where
        the data would have to move (``x`` a strided view) or ``copy=True``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, a dimension is not an int, or ``copy`` is not a bool.
    ValueError
        If ``shape`` does not fit the size of ``x`` (or has more than one -1, or a dimension
        below -1), or ``copy=False`` and a copy is needed.

    Notes
    -----
    Static under ``jax.jit``: ``shape`` and ``copy``.

    Unlike NumPy, only C order (no ``order``).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.reshape(xp.arange(6), (2, 3))
    Array([[0, 1, 2],
           [3, 4, 5]])
    >>> xp.reshape(xp.arange(6), (3, -1)).shape
    (3, 2)
    """
    raw = as_array("reshape", x)
    if copy is not None:
        check_bool("reshape", copy, "copy")
    dims = _resolve_shape("reshape", math.prod(raw.shape), shape)
    return _reshaped(raw, dims, copy)


@in_wide_mode
def expand_dims(x, /, axis):
    """Insert axes of length one into an array.

    Array API: expand_dims. NumPy: numpy.expand_dims.

    Parameters
    ----------
    x : array_like
        The input array.
    axis : int or tuple of ints
        The positions of the new axes in the result (negative: from its end).

    Returns
    -------
    Array
        A view of ``x`` with ``len(axis)`` more axes of length one.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or an axis is not an int.
    AxisError
        If an axis is out of range for the result.
    ValueError
        If ``axis`` repeats a position.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.expand_dims(xp.asarray([1, 2]), axis=0)
    Array([[1, 2]])
    >>> xp.expand_dims(xp.asarray([1, 2]), axis=(0, 2)).shape
    (1, 2, 1)
    """
    raw = as_array("expand_dims", x)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = raw.ndim + len(axes)
    norm = normalize_axes("expand_dims", tuple(axes), out_ndim)
    shape = list(raw.shape)
    for a in norm:
        shape.insert(a, 1)
    return _reshaped(raw, tuple(shape))


@in_wide_mode
def squeeze(x, /, axis):
    """Remove axes of length one from an array.

    Array API: squeeze. NumPy: numpy.squeeze.

    Parameters
    ----------
    x : array_like
        The input array.
    axis : int or tuple of ints
        The axes to remove, each of length one.

    Returns
    -------
    Array
        A view of ``x`` without those axes.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or an axis is not an int.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If an axis does not have length one, or ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    Unlike NumPy, ``axis`` is required (the standard's signature; NumPy's default removes
    every axis of length one).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.squeeze(xp.asarray([[1, 2, 3]]), axis=0)
    Array([1, 2, 3])
    """
    raw = as_array("squeeze", x)
    axes = normalize_axes("squeeze", axis, raw.ndim)
    for a in axes:
        if raw.shape[a] != 1:
            fail(ValueError, "squeeze", f"axis {a} to have size 1", x)
    shape = tuple(d for i, d in enumerate(raw.shape) if i not in axes)
    return _reshaped(raw, shape)


@kernel(static=("axes",))
def flip_kernel(x, *, axes):
    return lax.rev(x, axes) if axes else x


@in_wide_mode
def flip(x, /, *, axis=None):
    """Reverse the order of elements along the given axes.

    Array API: flip. NumPy: numpy.flip.

    Parameters
    ----------
    x : array_like
        The input array.
    axis : int or tuple of ints, optional
        The axes to reverse; default ``None``: all of them.

    Returns
    -------
    Array
        An array of the shape and dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or an axis is not an int.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.reshape(xp.arange(6), (2, 3))
    >>> xp.flip(x)
    Array([[5, 4, 3],
           [2, 1, 0]])
    >>> xp.flip(x, axis=1)
    Array([[2, 1, 0],
           [5, 4, 3]])
    """
    raw = to_raw("flip", x)
    return call(flip_kernel, raw, axes=normalize_axes("flip", axis, raw.ndim))


@in_wide_mode
def moveaxis(x, source, destination, /):
    """Move axes of an array to new positions; the other axes keep their order.

    Array API: moveaxis. NumPy: numpy.moveaxis.

    Parameters
    ----------
    x : array_like
        The input array.
    source : int or tuple of ints
        The axes to move (unique).
    destination : int or tuple of ints
        Their positions in the result (unique, as many as ``source``).

    Returns
    -------
    Array
        A view of ``x`` with its axes moved.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or an axis is not an int.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``source`` and ``destination`` differ in length or repeat an axis.

    Notes
    -----
    Static under ``jax.jit``: ``source`` and ``destination``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    raw = as_array("moveaxis", x)
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    src = [normalize_axis("moveaxis", a, raw.ndim, "source") for a in src]
    dst = [normalize_axis("moveaxis", a, raw.ndim, "destination") for a in dst]
    if len(src) != len(dst) or len(set(src)) != len(src) or len(set(dst)) != len(dst):
        fail(ValueError, "moveaxis", "'source' and 'destination' of equal length and unique",
             (source, destination))
    order = [a for a in range(raw.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transposed(raw, tuple(order))


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

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

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

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

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
    ValueError
        If ``x`` is 0-d.
    AxisError
        If ``axis`` is out of range for ``x``.

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


@kernel(static=("shifts", "axes"))
def _roll_kernel(x, *, shifts, axes):
    if axes is None:
        flat = lax.reshape(x, (math.prod(x.shape),))
        return lax.reshape(_roll_kernel.fn(flat, shifts=shifts, axes=(0,)), x.shape)
    for shift, ax in zip(shifts, axes):
        n = x.shape[ax]
        if n == 0:
            continue
        s = shift % n
        if s:
            x = lax.concatenate([lax.slice_in_dim(x, n - s, n, axis=ax),
                                 lax.slice_in_dim(x, 0, n - s, axis=ax)], ax)
    return x


@in_wide_mode
def roll(x, /, shift, *, axis=None):
    """Roll array elements along the given axes; elements past the end come back at the start.

    Array API: roll. NumPy: numpy.roll.

    Parameters
    ----------
    x : array_like
        The input array.
    shift : int or tuple of ints
        The number of places to shift by (negative: backwards); one per axis, or one for all
        of them.
    axis : int or tuple of ints, optional
        The axes to roll along; default ``None``: the flattened array (then ``shift`` is a
        single shift), its shape restored.

    Returns
    -------
    Array
        An array of the shape and dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or a shift or axis is not an int.
    ValueError
        If ``axis`` is ``None`` and there are several shifts, or the numbers of shifts and
        axes differ.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``shift`` and ``axis``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.roll(xp.arange(5), 2)
    Array([3, 4, 0, 1, 2])
    >>> xp.roll(xp.asarray([[0, 1, 2], [3, 4, 5]]), 1, axis=1)
    Array([[2, 0, 1],
           [5, 3, 4]])
    """
    raw = to_raw("roll", x)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    shifts = tuple(check_int("roll", s, "shift") for s in shifts)
    if axis is None:
        if len(shifts) != 1:
            fail(ValueError, "roll", "a single shift when axis is None", shift)
        return call(_roll_kernel, raw, shifts=(builtins.sum(shifts),), axes=None)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(normalize_axis("roll", a, raw.ndim) for a in axes)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        fail(ValueError, "roll", "as many shifts as axes", (shift, axis))
    return call(_roll_kernel, raw, shifts=shifts, axes=axes)


@kernel(static=("reps",))
def _tile_kernel(x, *, reps):
    nd = len(reps)
    x = lax.reshape(x, (1,) * (nd - x.ndim) + tuple(x.shape))
    # broadcast each axis to (rep, size) then merge
    shape = []
    dims = []
    for i, (r, s) in enumerate(zip(reps, x.shape)):
        shape += [r, s]
        dims.append(2 * i + 1)
    y = lax.broadcast_in_dim(x, tuple(shape), tuple(dims))
    return lax.reshape(y, tuple(r * s for r, s in zip(reps, x.shape)))


@in_wide_mode
def tile(x, repetitions, /):
    """Construct an array by repeating the whole of ``x`` the given number of times per axis.

    Array API: tile. NumPy: numpy.tile.

    Parameters
    ----------
    x : array_like
        The array to repeat.
    repetitions : int or tuple of ints
        The number of repetitions per axis (non-negative), aligned with the last axes of
        ``x``; where it is longer than ``x.ndim``, ``x`` gains leading axes.  An int is a
        tuple of one, as in NumPy.

    Returns
    -------
    Array
        The tiled array, of the dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``repetitions`` is not an int or a tuple of ints.
    ValueError
        If a repetition is negative.

    Notes
    -----
    Static under ``jax.jit``: ``repetitions``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.tile(xp.asarray([1, 2]), 2)
    Array([1, 2, 1, 2])
    >>> xp.tile(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    raw = to_raw("tile", x)
    if isinstance(repetitions, int) and not isinstance(repetitions, bool):
        repetitions = (repetitions,)  # NumPy's form
    if not isinstance(repetitions, (tuple, list)):
        fail(TypeError, "tile", "a tuple of ints for 'repetitions'", repetitions)
    reps = tuple(check_int("tile", r, "repetitions", minimum=0) for r in repetitions)
    reps = (1,) * (raw.ndim - len(reps)) + reps
    return call(_tile_kernel, raw, reps=reps)


@kernel(static=("repeats", "axis"))
def _repeat_kernel(x, *, repeats, axis):
    if axis is None:
        x = lax.reshape(x, (math.prod(x.shape),))
        axis = 0
    n = x.shape[axis]
    if isinstance(repeats, int):
        shape = list(x.shape)
        y = lax.broadcast_in_dim(x, tuple(shape[:axis + 1]) + (repeats,) + tuple(
            shape[axis + 1:]), tuple(range(axis + 1)) + tuple(range(axis + 2, x.ndim + 1)))
        shape[axis] = n * repeats
        return lax.reshape(y, tuple(shape))
    return gather_axis(x, np.repeat(np.arange(n, dtype=_dt.default_index()), repeats), axis,
                       wrap=False)


@kernel(static=("axis", "length"))
def _repeat_counts_kernel(x, counts, *, axis, length):
    """``repeat`` with (possibly traced) counts and a static output ``length``."""
    if axis is None:
        x = lax.reshape(x, (math.prod(x.shape),))
        axis = 0
    n = x.shape[axis]
    counts = lax.broadcast_in_dim(lax.convert_element_type(counts, _dt.default_index()), (n,),
                                  () if counts.ndim == 0 else (0,))
    ends = cumulative("sum", counts)
    # source of output slot i = #{j : ends[j] <= i}: add 1 at each end, then a running sum
    marks = lax.scatter_add(
        lax.full((length + 1,), 0, _dt.default_index()), lax.expand_dims(lax.min(ends, _dt.default_index().type(length)),
                                                               (1,)),
        lax.full((n,), 1, _dt.default_index()),
        lax.ScatterDimensionNumbers((), (0,), (0,)), mode=lax.GatherScatterMode.CLIP)
    src = cumulative("sum", marks[:length])
    src = lax.min(src, _dt.default_index().type(max(n - 1, 0)))  # past the total: the last element again
    return gather_axis(x, src, axis, wrap=False)


@in_wide_mode
def repeat(x, repeats, /, *, axis=None, total_repeat_length=None):
    """Repeat each element of an array the given number of times.

    Array API: repeat. NumPy: numpy.repeat.

    Parameters
    ----------
    x : array_like
        The input array.
    repeats : int or array_like of ints
        The counts (non-negative): one for all elements, or a 1-D sequence or array of one
        count per element along ``axis``.
    axis : int, optional
        The axis to repeat along; default ``None``: the flattened array.
    total_repeat_length : int, optional
        jax.numpy's keyword: the length of the result along ``axis`` (needed under
        ``jax.jit`` when the counts are traced); a total shorter than the counts' sum cuts the
        result, a longer one repeats the last element.  Default ``None``: the counts' sum.

    Returns
    -------
    Array
        The repeated array, of the dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, the counts are not integers, or they are traced without
        ``total_repeat_length``.
    ValueError
        If a count is negative, ``repeats`` is neither one count nor one per element, or
        ``total_repeat_length`` is non-zero for an empty ``x``.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``total_repeat_length`` and concrete ``repeats``.
    The output length depends on the counts, so under ``jax.jit`` either they are concrete
    (static) or ``total_repeat_length=`` gives the length.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.repeat(xp.asarray([1, 2, 3]), 2)
    Array([1, 1, 2, 2, 3, 3])
    >>> xp.repeat(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 2]))
    Array([1, 3, 3])
    >>> xp.repeat(xp.asarray([1, 2, 3]), 2, total_repeat_length=8)
    Array([1, 1, 2, 2, 3, 3, 3, 3])
    """
    raw = to_raw("repeat", x)
    ax = None if axis is None else normalize_axis("repeat", axis, raw.ndim)
    n = math.prod(raw.shape) if ax is None else raw.shape[ax]
    if total_repeat_length is not None:
        length = check_int("repeat", total_repeat_length, "total_repeat_length", minimum=0)
        if n == 0 and length:
            fail(ValueError, "repeat", "total_repeat_length=0 for an empty 'x'",
                 total_repeat_length)
    if _dt.scalar_pytype(repeats) is int:
        reps = check_int("repeat", repeats, "repeats", minimum=0)
        if total_repeat_length is not None and length != n * reps:
            return call(_repeat_counts_kernel, raw, _dt.default_index().type(reps), axis=ax, length=length)
        return call(_repeat_kernel, raw, repeats=reps, axis=ax)
    rep_raw = to_raw("repeat", repeats, "repeats")
    if _dt.kind_of(rep_raw.dtype) not in "iu":
        fail(TypeError, "repeat", "integer 'repeats'", repeats)
    if rep_raw.ndim > 1 or (rep_raw.ndim == 1 and rep_raw.shape[0] not in (1, n)):
        fail(ValueError, "repeat", f"'repeats' of length 1 or {n}", repeats)
    if is_tracer(rep_raw):
        if total_repeat_length is None:
            fail(TypeError, "repeat", "concrete 'repeats' or total_repeat_length= (the output "
                                      "shape depends on the counts)", repeats)
        return call(_repeat_counts_kernel, raw, rep_raw.reshape(-1) if rep_raw.ndim else
                    rep_raw, axis=ax, length=length)
    counts = np.asarray(rep_raw)
    if (counts < 0).any():
        fail(ValueError, "repeat", "non-negative 'repeats'", repeats)
    if total_repeat_length is not None and length != int(np.broadcast_to(counts, (n,)).sum()):
        return call(_repeat_counts_kernel, raw, rep_raw, axis=ax, length=length)
    reps = int(counts.reshape(-1)[0]) if counts.size == 1 else tuple(int(c) for c in counts)
    return call(_repeat_kernel, raw, repeats=reps, axis=ax)


__all__ = ["broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims",
           "flip", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack",
           "tile", "unstack"]

provide(permute_dims)  # the body of ``x.T`` and ``x.mT``
