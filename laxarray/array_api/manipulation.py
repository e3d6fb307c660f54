"""Manipulation functions of the standard that change axes and shapes: permute_dims,
broadcasting, reshape, expand_dims, squeeze, moveaxis (joining: ``manipulation_join``;
flip, roll, tile, repeat: ``manipulation_rearrange``)."""

from __future__ import annotations

import math
import operator

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core.errors import broadcast_error, fail, shape_text
from laxarray._core.jaxapi import in_wide_mode
from laxarray._core.buckets import static_shape_bucket, static_shape_rule
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import (check_bool, normalize_axes, normalize_axis,
                                     normalize_shape)
from laxarray.array_api._docs import AXES_ERRORS, AXIS_STATIC
from laxarray.array_api._calls import call
from laxarray.array_api import _views
from laxarray.array_api._broadcast import broadcast_many, broadcast_pair
from laxarray.array_api._convert import as_array, to_raw
from laxarray.array_api._method_bodies import provide


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
@fill(axis_static=AXIS_STATIC)
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

    {axis_static}

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
@fill(axis_static=AXIS_STATIC, axes_errors=AXES_ERRORS)
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
    {axes_errors}
    ValueError
        If an axis does not have length one, or ``axis`` repeats an axis.

    {axis_static}

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


@in_wide_mode
@fill(axes_errors=AXES_ERRORS)
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
    {axes_errors}
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


__all__ = ["broadcast_arrays", "broadcast_shapes", "broadcast_to", "expand_dims", "moveaxis",
           "permute_dims", "reshape", "squeeze"]

provide(permute_dims)  # the body of ``x.T`` and ``x.mT``
