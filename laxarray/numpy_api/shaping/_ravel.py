"""Flat <-> multi-dimensional indices and non-zero positions: ravel_multi_index,
unravel_index, argwhere, flatnonzero, on lax.

Out-of-range indices: eagerly, ``mode='raise'`` (and ``unravel_index``) raise
``ValueError`` as NumPy does; under tracing the values cannot be checked, so they are
clipped into range (``laxarray.checkify`` can still catch the indexing errors downstream).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_choice, check_int, normalize_shape
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api.searching import nonzero_kernel
from laxarray.numpy_api.shaping._split import raw_of
from laxarray._core.numerics import nonzero_mask  # exact for subnormals
from laxarray.array_api._calls import call
from laxarray.numpy_api import _docs

_MODES = ("raise", "wrap", "clip")


def _strides(dims, order):
    if order == "C":
        return tuple(math.prod(dims[i + 1:]) for i in range(len(dims)))
    return tuple(math.prod(dims[:i]) for i in range(len(dims)))


@kernel(static=("dims", "modes", "order", "shape"))
def _ravel_multi_index_kernel(*idx, dims, modes, order, shape):
    out = lax.full(shape, 0, _dt.default_index())
    for v, d, mode, stride in zip(idx, dims, modes, _strides(dims, order)):
        v = lax.convert_element_type(v, _dt.default_index())
        v = lax.broadcast_in_dim(v, shape, tuple(range(len(shape) - v.ndim, len(shape))))
        if mode == "wrap":
            dd = lax.full(shape, max(d, 1), _dt.default_index())
            v = lax.rem(v, dd)
            v = lax.select(lax.lt(v, lax.full_like(v, 0)), lax.add(v, dd), v)
        else:
            v = lax.clamp(_dt.default_index().type(0), v, _dt.default_index().type(max(d - 1, 0)))
        out = lax.add(out, lax.mul(v, lax.full(shape, stride, _dt.default_index())))
    return out


def _int_index_raw(fn, x, argname):
    raw = raw_of(fn, x, argname)
    if _dt.kind_of(raw.dtype) not in "iu":
        fail(TypeError, fn, f"integer indices for '{argname}'", x)
    return raw


@in_wide_region
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of the coordinate arrays ``multi_index`` in an array of shape ``dims``.
    NumPy: numpy.ravel_multi_index.

    ``dims``, ``mode`` (one or a tuple per axis of ``'raise'``, ``'wrap'``, ``'clip'``) and
    ``order`` are static.  ``'raise'`` checks the values eagerly; under ``jax.jit`` it
    clips, as ``'clip'`` does.  The result is int64.

    >>> int(ravel_multi_index((1, 2), (3, 4)))
    6
    """
    fn = "ravel_multi_index"
    dims = normalize_shape(fn, dims, "dims")
    if not isinstance(multi_index, (tuple, list)):
        multi_index = tuple(multi_index) if hasattr(multi_index, "__len__") else None
    if multi_index is None or len(multi_index) != len(dims):
        fail(ValueError, fn, f"a sequence of {len(dims)} index arrays for 'multi_index'",
             multi_index)
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        fail(ValueError, fn, f"one mode or {len(dims)} modes for 'mode'", mode)
    for m in modes:
        check_choice(fn, m, "mode", _MODES)
    check_choice(fn, order, "order", ("C", "F"))
    raws = [_int_index_raw(fn, v, "multi_index") for v in multi_index]
    shape = ()
    for r in raws:
        shape = broadcast_shapes2(fn, shape, tuple(r.shape))
    for r, d, m in zip(raws, dims, modes):
        if m == "raise" and not is_tracer(r):
            v = np.asarray(r)
            if v.size and (v.min() < 0 or v.max() >= d):
                fail(ValueError, fn, f"entries of 'multi_index' in [0, {d}) with "
                     "mode='raise' (invalid entry in coordinates array)", multi_index)
    return call(_ravel_multi_index_kernel, *raws, dims=dims, modes=modes, order=order,
                shape=shape)


@kernel(static=("dims", "order"))
def _unravel_index_kernel(idx, *, dims, order):
    size = math.prod(dims)
    idx = lax.convert_element_type(idx, _dt.default_index())
    idx = lax.clamp(_dt.default_index().type(0), idx, _dt.default_index().type(max(size - 1, 0)))
    outs = [None] * len(dims)
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for i in axes:
        d = lax.full_like(idx, max(dims[i], 1))
        outs[i] = lax.rem(idx, d)
        idx = lax.div(idx, d)
    return tuple(outs)


@in_wide_region
def unravel_index(indices, shape, order="C"):
    """Convert flat indices into coordinate arrays for an array of a shape.

    Array API: (not in the standard). NumPy: numpy.unravel_index.

    Parameters
    ----------
    indices : array_like
        Integer flat indices, in ``[0, prod(shape))``.
    shape : tuple of ints
        The array's shape.
    order : {'C', 'F'}, optional
        Row-major (default) or column-major indexing.

    Returns
    -------
    tuple of Array
        One int64 coordinate array per axis, of ``indices``' shape.

    Raises
    ------
    TypeError
        If ``indices`` is not of an integer dtype.
    ValueError
        Eagerly, if an index is out of range (under ``jax.jit`` it is clipped).

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``order``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.unravel_index(6, (3, 4))
    (Array(1), Array(2))
    >>> la.unravel_index(la.asarray([1, 6]), (3, 4))
    (Array([0, 1]), Array([1, 2]))
    """
    fn = "unravel_index"
    dims = normalize_shape(fn, shape, "shape")
    check_choice(fn, order, "order", ("C", "F"))
    raw = _int_index_raw(fn, indices, "indices")
    size = math.prod(dims)
    if not is_tracer(raw):
        v = np.asarray(raw)
        if v.size and (v.min() < 0 or v.max() >= size):
            fail(ValueError, fn, f"indices in [0, {size}) for an array of shape {dims}",
                 indices)
    return call(_unravel_index_kernel, raw, dims=dims, order=order)


@kernel(static=())
def _count_nonzero_kernel(x):
    mask = nonzero_mask(lax.reshape(x, (math.prod(x.shape),)))
    return lax.reduce_sum(lax.convert_element_type(mask, _dt.default_index()), (0,))


def _size_args(fn, raw, size, fill_value):
    """Static (size, fill_value); eagerly ``size`` defaults to the number of non-zeros."""
    fill = 0 if fill_value is None else check_int(fn, fill_value, "fill_value")
    if size is not None:
        return check_int(fn, size, "size", minimum=0), fill
    if is_tracer(raw):
        fail(ValueError, fn, "size= under jax.jit/vmap (the number of non-zeros decides the "
             "output shape; pass size=N and optionally fill_value=)", size)
    return int(_count_nonzero_kernel(raw)), fill


@kernel(static=("size", "fill_value", "flat"))
def _argwhere_kernel(x, *, size, fill_value, flat):
    if flat:
        x = lax.reshape(x, (math.prod(x.shape),))
    elif x.ndim == 0:
        return lax.full((size, 0), 0, _dt.default_index())
    coords = nonzero_kernel.fn(nonzero_mask(x), size=size, fill_value=fill_value)
    if flat:
        return coords[0]
    return lax.concatenate([lax.expand_dims(c, (1,)) for c in coords], 1)


_NONZERO_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{array}
size : int, optional
    The static number of results, required under ``jax.jit``: padded with ``fill_value``
    or truncated.
fill_value : int, optional
    The padding; default 0.

Returns
-------
Array""", array=_docs.ARRAY)


_NONZERO_RAISES_NOTES = _docs.compose("""
Raises
------
{type_error_a}
{size_error}

Notes
-----
Static under ``jax.jit``: ``size``, ``fill_value``.""",
    type_error_a=_docs.TYPE_ERROR_A, size_error=_docs.SIZE_ERROR)


@in_wide_region
@fill(nonzero_parameters_returns=_NONZERO_PARAMETERS_RETURNS,
      nonzero_raises_notes=_NONZERO_RAISES_NOTES)
def argwhere(a, *, size=None, fill_value=None):
    """Return the indices of the non-zero elements, one row per element.

    Array API: (not in the standard). NumPy: numpy.argwhere.

    {nonzero_parameters_returns}
        Of shape ``(N, a.ndim)``, in row-major order, of the index dtype (int64 on the CPU,
        int32 on a TPU).

    {nonzero_raises_notes}

    The number of non-zeros decides the output shape, hence ``size`` under ``jax.jit`` (as
    jax.numpy's).

    Examples
    --------
    >>> import laxarray as la
    >>> la.argwhere(la.asarray([[0, 1], [1, 0]]))
    Array([[0, 1],
           [1, 0]])
    >>> la.argwhere(la.asarray([[0, 1], [1, 0]]), size=3, fill_value=-1)
    Array([[ 0,  1],
           [ 1,  0],
           [-1, -1]])
    """
    raw = raw_of("argwhere", a, "a")
    size, fill = _size_args("argwhere", raw, size, fill_value)
    return call(_argwhere_kernel, raw, size=size, fill_value=fill, flat=False)


@in_wide_region
@fill(nonzero_parameters_returns=_NONZERO_PARAMETERS_RETURNS,
      nonzero_raises_notes=_NONZERO_RAISES_NOTES)
def flatnonzero(a, *, size=None, fill_value=0):
    """Return the indices of the non-zero elements of the flattened array.

    Array API: (not in the standard). NumPy: numpy.flatnonzero.

    {nonzero_parameters_returns}
        The 1-D indices into ``ravel(a)``, of the index dtype.

    {nonzero_raises_notes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.flatnonzero(la.asarray([0, 3, 0, 4]))
    Array([1, 3])
    """
    raw = raw_of("flatnonzero", a, "a")
    size, fill = _size_args("flatnonzero", raw, size, fill_value)
    return call(_argwhere_kernel, raw, size=size, fill_value=fill, flat=True)


__all__ = ["argwhere", "flatnonzero", "ravel_multi_index", "unravel_index"]
