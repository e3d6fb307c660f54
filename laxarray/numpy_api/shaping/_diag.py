"""Diagonals and triangles: diag, diagflat, diagonal, tri, the *_indices helpers and
fill_diagonal (which returns a new array), on lax.

Sizes, offsets and axes are static under ``jax.jit``; the data arrays may be traced.
"""

from __future__ import annotations

import math

import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.devices import device_of, place
from laxarray._core.jaxapi import Tracer, in_wide_mode
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray._core.validate import check_bool, check_int, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api import _views
from laxarray.array_api._array import Array, wrap
from laxarray.array_api.creation_ranges import arange, tril, triu
from laxarray.array_api.searching import nonzero_kernel, nonzero
from laxarray.numpy_api.editing._put import _check_inplace, finish_in_place
from laxarray.numpy_api.shaping._split import raw_of
from laxarray.numpy_api import _docs


def _diag_len(n, m, offset):
    return max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))


@kernel(static=("offset", "axis1", "axis2"))
def _diagonal_kernel(x, *, offset, axis1, axis2):
    perm = [i for i in range(x.ndim) if i not in (axis1, axis2)] + [axis1, axis2]
    x = lax.transpose(x, tuple(perm))
    batch, (n, m) = tuple(x.shape[:-2]), x.shape[-2:]
    length = _diag_len(n, m, offset)
    if length == 0:
        return lax.full(batch + (0,), 0, x.dtype)
    flat = lax.reshape(x, batch + (n * m,))
    start = offset if offset >= 0 else -offset * m
    nb = len(batch)
    return lax.slice(flat, (0,) * nb + (start,), batch + (start + (length - 1) * (m + 1) + 1,),
                     (1,) * nb + (m + 1,))


@in_wide_mode
@fill(type_error_a=_docs.TYPE_ERROR_A, axis_error=_docs.AXIS_ERROR)
def diagonal(a, offset=0, axis1=0, axis2=1):
    """Return a diagonal of an array over two axes (NumPy's form).

    Array API: (not in the standard). NumPy: numpy.diagonal.

    Parameters
    ----------
    a : array_like
        The array, of rank at least two.
    offset : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below.
    axis1, axis2 : int, optional
        The axes of the matrices; default 0 and 1 (:func:`laxarray.linalg.diagonal`, the
        standard's, uses the last two).

    Returns
    -------
    Array
        The diagonals, appended as the last axis: a read-only view, as NumPy's (writing into
        it raises ``ValueError``).

    Raises
    ------
    {type_error_a}
    ValueError
        If ``a`` has rank below two, or the axes are equal.
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``offset``, ``axis1``, ``axis2``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.diagonal(la.reshape(la.arange(8), (2, 2, 2)))
    Array([[0, 6],
           [1, 7]])
    """
    raw = raw_of("diagonal", a, "a")
    if raw.ndim < 2:
        fail(ValueError, "diagonal", "an array of rank >= 2 for 'a'", a)
    offset = check_int("diagonal", offset, "offset")
    ax1 = normalize_axis("diagonal", axis1, raw.ndim, "axis1")
    ax2 = normalize_axis("diagonal", axis2, raw.ndim, "axis2")
    if ax1 == ax2:
        fail(ValueError, "diagonal", "different axes for 'axis1' and 'axis2'", (axis1, axis2))
    x = a if isinstance(a, Array) else wrap(raw)
    out = call(_diagonal_kernel, raw, offset=offset, axis1=ax1, axis2=ax2)
    return _views.diagonal_view(x, out, offset, ax1, ax2)


@kernel(static=("k",))
def _diag_from_vector_kernel(v, *, k):
    n = v.shape[0]
    rows = lax.broadcasted_iota(_dt.default_index(), (n, n), 0)
    cols = lax.broadcasted_iota(_dt.default_index(), (n, n), 1)
    square = lax.select(lax.eq(rows, cols), lax.broadcast_in_dim(v, (n, n), (0,)),
                        lax.full((n, n), 0, v.dtype))
    a = abs(k)
    pads = ((0, a, 0), (a, 0, 0)) if k >= 0 else ((a, 0, 0), (0, a, 0))
    return lax.pad(square, lax.full((), 0, v.dtype), pads)


@in_wide_mode
def diag(v, k=0):
    """Extract a diagonal of a 2-D array, or build a 2-D array with a 1-D one on a diagonal.

    Array API: (not in the standard). NumPy: numpy.diag.

    Parameters
    ----------
    v : array_like
        A 1-D array (to put on the diagonal) or a 2-D one (to read it from).
    k : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below.

    Returns
    -------
    Array
        For 1-D ``v``, a square array of side ``len(v) + abs(k)`` with ``v`` on diagonal
        ``k``; for 2-D ``v``, the diagonal's elements.

    Raises
    ------
    TypeError
        If ``v`` is not array_like, or ``k`` is not an integer.
    ValueError
        If ``v`` is neither 1-D nor 2-D.

    Notes
    -----
    Static under ``jax.jit``: ``k``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.diag(la.asarray([1, 2]))
    Array([[1, 0],
           [0, 2]])
    >>> la.diag(la.asarray([[1, 2], [3, 4]]), k=-1)
    Array([3])
    """
    raw = raw_of("diag", v, "v")
    k = check_int("diag", k, "k")
    if raw.ndim == 1:
        return call(_diag_from_vector_kernel, raw, k=k)
    if raw.ndim == 2:
        return call(_diagonal_kernel, raw, offset=k, axis1=0, axis2=1)
    fail(ValueError, "diag", "a 1-D or 2-D array for 'v'", v)


@in_wide_region
def diagflat(v, k=0):
    """A 2-D array with the flattened ``v`` on its ``k``-th diagonal. NumPy: numpy.diagflat.

    ``k`` is static.

    >>> diagflat([[1, 2], [3, 4]]).shape
    (4, 4)
    """
    raw = raw_of("diagflat", v, "v")
    k = check_int("diagflat", k, "k")
    flat = lax.reshape(raw, (math.prod(raw.shape),))
    return call(_diag_from_vector_kernel, flat, k=k)


@in_wide_mode
def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an ``(n,) * ndim`` array (``ndim`` int64 arrays).
    NumPy: numpy.diag_indices. All arguments static.

    >>> [i.shape for i in diag_indices(3)]
    [(3,), (3,)]
    """
    n = check_int("diag_indices", n, "n", minimum=0)
    ndim = check_int("diag_indices", ndim, "ndim", minimum=0)
    idx = arange(n, dtype=_dt.default_index())
    return (idx,) * ndim


@in_wide_mode
def diag_indices_from(arr):
    """Indices of the main diagonal of ``arr`` (rank >= 2, all sides equal).
    NumPy: numpy.diag_indices_from. Only ``arr``'s shape is used.

    >>> from laxarray import arange, eye, ones, zeros
    >>> len(diag_indices_from(eye(3)))
    2
    """
    shape = _shape_of("diag_indices_from", arr, "arr")
    if len(shape) < 2:
        fail(ValueError, "diag_indices_from", "an array of rank >= 2 for 'arr'", arr)
    if len(set(shape)) != 1:
        fail(ValueError, "diag_indices_from", "an array with all sides equal for 'arr'", arr)
    return diag_indices(shape[0], len(shape))


def _shape_of(fn, arr, argname):
    if isinstance(arr, Array) or hasattr(arr, "shape") and hasattr(arr, "dtype"):
        return tuple(arr.shape)
    return tuple(raw_of(fn, arr, argname).shape)


@kernel(static=("n", "m", "k", "dtype"))
def _tri_kernel(*, n, m, k, dtype):
    rows = lax.broadcasted_iota(_dt.default_index(), (n, m), 0)
    cols = lax.broadcasted_iota(_dt.default_index(), (n, m), 1)
    keep = lax.le(lax.sub(cols, rows), lax.full((), k, _dt.default_index()))
    return lax.convert_element_type(keep, dtype)


@in_wide_mode
def tri(N, M=None, k=0, dtype=float):
    """Return an array with ones at and below a diagonal and zeros elsewhere.

    Array API: (not in the standard). NumPy: numpy.tri.

    Parameters
    ----------
    N : int
        The number of rows.
    M : int, optional
        The number of columns; default ``N``.
    k : int, optional
        The diagonal: 0 (default) the main one, positive above it.
    dtype : dtype, optional
        The dtype; default float64.

    Returns
    -------
    Array
        Of shape ``(N, M)``.

    Raises
    ------
    TypeError
        If a size is not an integer.
    ValueError
        If a size is negative.

    Notes
    -----
    Static under ``jax.jit``: ``N``, ``M``, ``k``, ``dtype``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.tri(2, 3, k=1)
    Array([[1., 1., 0.],
           [1., 1., 1.]])
    """
    n = check_int("tri", N, "N", minimum=0)
    m = n if M is None else check_int("tri", M, "M", minimum=0)
    k = check_int("tri", k, "k")
    dt = _dt.canonicalize_dtype("tri", dtype)
    return call(_tri_kernel, n=n, m=m, k=k, dtype=dt)


@kernel(static=("n", "m", "k", "lower", "size"))
def _tri_indices_kernel(*, n, m, k, lower, size):
    keep = _tri_kernel.fn(n=n, m=m, k=k if lower else k - 1, dtype=_dt.bool_)
    if not lower:
        keep = lax.bitwise_not(keep)
    if size == 0:
        return lax.full((0,), 0, _dt.default_index()), lax.full((0,), 0, _dt.default_index())
    return nonzero_kernel.fn(keep, size=size, fill_value=0)


def _tri_indices(fn, n, k, m, lower):
    n = check_int(fn, n, "n", minimum=0)
    k = check_int(fn, k, "k")
    m = n if m is None else check_int(fn, m, "m", minimum=0)
    if lower:
        size = sum(min(max(i + k + 1, 0), m) for i in range(n))
    else:
        size = sum(m - min(max(i + k, 0), m) for i in range(n))
    return call(_tri_indices_kernel, n=n, m=m, k=k, lower=lower, size=size)


_TRI_INDICES_SECTIONS = _docs.compose("""
Parameters
----------
n : int
    The number of rows, at least 0.
k : int, optional
    The diagonal offset: 0 (default) the main one, positive above it.
m : int, optional
    The number of columns; default ``n``.

Returns
-------
tuple of Array
    ``(rows, cols)`` in row-major order, of the index dtype.

Raises
------
TypeError
    If an argument is not an integer.
ValueError
    If ``n`` or ``m`` is negative.

Notes
-----""")


@in_wide_mode
@fill(tri_indices_sections=_TRI_INDICES_SECTIONS)
def tril_indices(n, k=0, m=None):
    """Return the row and column indices of the lower triangle of an ``(n, m)`` array.

    Array API: (not in the standard). NumPy: numpy.tril_indices.

    {tri_indices_sections}
    Static under ``jax.jit``: ``n``, ``k``, ``m`` (the result length follows).

    Examples
    --------
    >>> import laxarray as la
    >>> la.tril_indices(3)
    (Array([0, 1, 1, 2, 2, 2]), Array([0, 0, 1, 0, 1, 2]))
    """
    return _tri_indices("tril_indices", n, k, m, True)


@in_wide_mode
@fill(tri_indices_sections=_TRI_INDICES_SECTIONS)
def triu_indices(n, k=0, m=None):
    """Return the row and column indices of the upper triangle of an ``(n, m)`` array.

    Array API: (not in the standard). NumPy: numpy.triu_indices.

    {tri_indices_sections}
    Static under ``jax.jit``: ``n``, ``k``, ``m``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.triu_indices(3, 1)
    (Array([0, 0, 1]), Array([1, 2, 2]))
    """
    return _tri_indices("triu_indices", n, k, m, False)


def _tri_indices_from(fn, arr, k, lower):
    shape = _shape_of(fn, arr, "arr")
    if len(shape) != 2:
        fail(ValueError, fn, "a 2-D array for 'arr'", arr)
    out = _tri_indices(fn, shape[0], k, shape[1], lower)
    # on arr's device (the standard's rule for results), not the default one
    raw = arr._value if isinstance(arr, Array) else arr
    if isinstance(raw, jax.Array) and not isinstance(raw, Tracer):
        out = tuple(wrap(place(i._value, device_of(raw))) for i in out)
    return out


@in_wide_mode
def tril_indices_from(arr, k=0):
    """Indices of the lower triangle of the 2-D ``arr``. NumPy: numpy.tril_indices_from.

    Only ``arr``'s shape is used; ``k`` is static.

    >>> from laxarray import arange, eye, ones, zeros
    >>> [i.shape for i in tril_indices_from(ones((2, 3)))]
    [(3,), (3,)]
    """
    return _tri_indices_from("tril_indices_from", arr, k, True)


@in_wide_mode
def triu_indices_from(arr, k=0):
    """Indices of the upper triangle of the 2-D ``arr``. NumPy: numpy.triu_indices_from.

    Only ``arr``'s shape is used; ``k`` is static.

    >>> from laxarray import arange, eye, ones, zeros
    >>> [i.shape for i in triu_indices_from(ones((2, 3)))]
    [(5,), (5,)]
    """
    return _tri_indices_from("triu_indices_from", arr, k, False)


@in_wide_mode
def mask_indices(n, mask_func, k=0):
    """Indices where ``mask_func(ones((n, n)), k)`` is non-zero. NumPy: numpy.mask_indices.

    ``mask_func`` is called on a concrete array (``laxarray.tril``/``triu`` get ``k`` by
    keyword, as their standard signature requires); ``n`` and ``k`` are static.

    >>> [i.shape for i in mask_indices(3, triu)]
    [(6,), (6,)]
    """
    n = check_int("mask_indices", n, "n", minimum=0)
    if not callable(mask_func):
        fail(TypeError, "mask_indices", "a callable for 'mask_func'", mask_func)
    m = call(_tri_kernel, n=n, m=n, k=n, dtype=_dt.default_int())  # all ones
    a = mask_func(m, k=k) if mask_func in (tril, triu) else mask_func(m, k)
    raw = raw_of("mask_indices", a, "mask_func(...)")
    if raw.ndim != 2:
        fail(ValueError, "mask_indices", "mask_func to return a 2-D array", a)
    return nonzero(wrap(raw))


@kernel(static=("step", "end", "count"))
def _fill_diagonal_kernel(a, val, *, step, end, count):
    size = math.prod(a.shape)
    flat = lax.reshape(a, (size,))
    if count == 0:
        return a
    v = lax.reshape(val, (math.prod(val.shape),))
    v = cast_value(v, a.dtype)  # NumPy's cast: complex to real keeps the real part
    nv = v.shape[0]
    reps = -(-count // nv)
    v = lax.reshape(lax.broadcast(v, (reps,)), (reps * nv,))[:count]
    spread = lax.pad(lax.reshape(v, (count, 1)), lax.full((), 0, a.dtype),
                     ((0, 0, 0), (0, step - 1, 0)))
    spread = lax.reshape(spread, (count * step,))
    if count * step >= size:
        spread = spread[:size]
    else:
        spread = lax.pad(spread, lax.full((), 0, a.dtype), ((0, size - count * step, 0),))
    pos = lax.iota(_dt.default_index(), size)
    on = lax.bitwise_and(lax.eq(lax.rem(pos, lax.full_like(pos, step)), lax.full_like(pos, 0)),
                         lax.lt(pos, lax.full_like(pos, end)))
    return lax.reshape(lax.select(on, spread, flat), a.shape)


@in_wide_mode
def fill_diagonal(a, val, wrap=False, *, inplace=True):
    """Set the main diagonal of ``a`` to ``val``, in place (returns None), as NumPy.
    NumPy: numpy.fill_diagonal.

    ``a`` is a laxarray Array (rebound; a view writes through) or a NumPy array;
    ``inplace=False`` (jax.numpy's keyword) returns the new array and leaves ``a``.  ``val``
    is repeated cyclically along the diagonal and cast to ``a``'s dtype; ``wrap`` (static)
    continues the diagonal below a tall 2-D matrix.

    >>> from laxarray import arange, eye, ones, zeros
    >>> float(fill_diagonal(zeros((2, 2)), 5.0, inplace=False)[1, 1])
    5.0
    """
    _check_inplace("fill_diagonal", inplace, a, "a")
    raw = raw_of("fill_diagonal", a, "a")
    val_raw = raw_of("fill_diagonal", val, "val")
    check_bool("fill_diagonal", wrap, "wrap")
    if raw.ndim < 2:
        fail(ValueError, "fill_diagonal", "an array of rank >= 2 for 'a'", a)
    size = math.prod(raw.shape)
    if raw.ndim == 2:
        step = raw.shape[1] + 1
        end = size if wrap else min(size, raw.shape[1] * raw.shape[1])
    else:
        if len(set(raw.shape)) != 1:
            fail(ValueError, "fill_diagonal", "an array with all sides equal for 'a'", a)
        step = 1 + int(np.cumprod(raw.shape[:-1]).sum())
        end = size
    count = len(range(0, end, step))
    if math.prod(val_raw.shape) == 0:
        count = 0
    out = call(_fill_diagonal_kernel, raw, val_raw, step=step, end=end, count=count)
    return finish_in_place(inplace, a, out)


__all__ = ["diag", "diag_indices", "diag_indices_from", "diagflat", "diagonal",
           "fill_diagonal", "mask_indices", "tri", "tril_indices", "tril_indices_from",
           "triu_indices", "triu_indices_from"]
