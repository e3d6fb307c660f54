"""NumPy creation functions beyond the standard: array, copy, identity, logspace,
geomspace, fromfunction, on lax.

``num``, ``axis``, ``endpoint``, ``dtype`` and shapes are static under ``jax.jit``;
``start``/``stop``/``base`` may be arrays (broadcast together; the samples run along
``axis``) and may be traced.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import (check_bool, check_choice, check_int, normalize_axis,
                                     normalize_shape)
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api._exact_float32 import pick
from laxarray.array_api.creation import asarray
from laxarray.array_api.creation_ranges import eye
from laxarray.array_api.elementwise import pow_values
from laxarray.numpy_api.shaping._grid import _indices_kernel
from laxarray.numpy_api.shaping._split import raw_of
from laxarray.numpy_api import _docs


@in_wide_region
def array(object, dtype=None, *, copy=True, order="K", ndmin=0):
    """Create an array.

    Array API: (not in the standard). NumPy: numpy.array.

    Parameters
    ----------
    object : array_like
        An array, a nested sequence of numbers, a NumPy or jax array, or a Python scalar.
    dtype : dtype, optional
        The dtype; default inferred as :func:`asarray` does.
    copy : bool, optional
        True (default): a new array handle (values are immutable, so no data is duplicated);
        False: raise ``ValueError`` when a conversion is needed.
    order : {'K', 'A', 'C', 'F'}, optional
        Accepted and ignored (laxarray has no memory layouts).
    ndmin : int, optional
        Prepend size-one axes up to this rank; default 0.

    Returns
    -------
    Array
        The array.

    Raises
    ------
    TypeError
        If ``object`` is not array_like.
    ValueError
        If ``copy=False`` and a conversion is needed.

    Notes
    -----
    Static under ``jax.jit``: ``dtype``, ``copy``, ``ndmin``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.array([1, 2], ndmin=2)
    Array([[1, 2]])
    >>> la.array([1, 2], dtype=la.float32)
    Array([1., 2.], dtype=float32)
    """
    dt = None if dtype is None else _dt.canonicalize_dtype("array", dtype)
    if copy is not None:
        check_bool("array", copy, "copy")
    check_choice("array", order, "order", ("K", "A", "C", "F"))
    ndmin = check_int("array", ndmin, "ndmin", minimum=0)
    if copy is False and not hasattr(object, "dtype"):
        fail(ValueError, "array", "an array (a copy is needed) with copy=False", object)
    if dt is None:
        obj = object if isinstance(object, Array) else wrap(raw_of("array", object, "object"))
        out = asarray(obj, copy=copy)
    else:
        out = asarray(object, dtype=dt, copy=copy)
    if out.ndim < ndmin:
        out = wrap(lax.reshape(out._value, (1,) * (ndmin - out.ndim) + tuple(out.shape)))
    return out


@in_wide_region
@fill(type_error_a=_docs.TYPE_ERROR_A)
def copy(a, order="K"):
    """Return a copy of an array.

    Array API: (not in the standard). NumPy: numpy.copy.

    Parameters
    ----------
    a : array_like
        The input.
    order : {'K', 'A', 'C', 'F'}, optional
        Accepted and ignored (laxarray has no memory layouts).

    Returns
    -------
    Array
        A new array handle with ``a``'s values (values are immutable, so no data is duplicated).

    Raises
    ------
    {type_error_a}

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([1, 2])
    >>> b = la.copy(a)
    >>> b is a, bool(la.all(b == a))
    (False, True)
    """
    check_choice("copy", order, "order", ("K", "A", "C", "F"))
    return wrap(raw_of("copy", a, "a"))


@in_wide_region
def identity(n, dtype=None):
    """Return the identity matrix.

    Array API: (not in the standard). NumPy: numpy.identity.

    Parameters
    ----------
    n : int
        The number of rows and columns, at least 0.
    dtype : dtype, optional
        The dtype; default the default floating dtype.

    Returns
    -------
    Array
        The ``n x n`` identity matrix.

    Raises
    ------
    TypeError
        If ``n`` is not an integer.
    ValueError
        If ``n`` is negative.

    Notes
    -----
    Static under ``jax.jit``: ``n``, ``dtype``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.identity(2)
    Array([[1., 0.],
           [0., 1.]])
    """
    n = check_int("identity", n, "n", minimum=0)
    dt = None if dtype is None else _dt.canonicalize_dtype("identity", dtype)
    return eye(n, dtype=dt)


def _lin(start, stop, num, endpoint, shape, dtype):
    """NumPy's linspace of broadcast ``start``/``stop`` (raw values) along a new axis 0."""
    nd = len(shape)
    start = lax.broadcast_in_dim(lax.convert_element_type(start, dtype), (num,) + shape,
                                 tuple(range(1 + nd - start.ndim, 1 + nd)))
    stop = lax.broadcast_in_dim(lax.convert_element_type(stop, dtype), (num,) + shape,
                                tuple(range(1 + nd - stop.ndim, 1 + nd)))
    real = _dt.real_dtype(dtype) if _dt.kind_of(dtype) == "c" else dtype
    i = lax.convert_element_type(lax.broadcasted_iota(real, (num,) + shape, 0), dtype)
    div = num - 1 if endpoint else num
    delta = lax.sub(stop, start)
    if div > 0:
        y = lax.mul(i, lax.div(delta, lax.full_like(delta, div)))
    else:
        y = lax.mul(i, delta)
    y = lax.add(y, start)
    if endpoint and num > 1:
        last = lax.broadcasted_iota(np.int32, y.shape, 0) == num - 1
        y = lax.select(last, stop, y)
    return y


def _move_first(y, axis):
    if axis == 0:
        return y
    perm = list(range(1, y.ndim))
    perm.insert(axis, 0)
    return lax.transpose(y, tuple(perm))


@kernel(static=("num", "endpoint", "shape", "lin_dtype", "work", "dtype", "axis"))
def _logspace_kernel(start, stop, base, *, num, endpoint, shape, lin_dtype, work, dtype, axis):
    y = _lin(start, stop, num, endpoint, shape, lin_dtype)
    nd = len(shape)
    b = lax.broadcast_in_dim(lax.convert_element_type(base, work), (num,) + shape,
                             tuple(range(1 + nd - base.ndim, 1 + nd)))
    out = pow_values(b, lax.convert_element_type(y, work))   # the chip's lax.pow: 122 ulps
    return lax.convert_element_type(_move_first(out, axis), dtype)


def _weak(value, raw):
    """A Python scalar stays weak in promotion (NEP 50); anything else is its dtype."""
    return value if _dt.scalar_pytype(value) is not None else raw.dtype


def _float_operand(fn, x, argname):
    raw = raw_of(fn, x, argname)
    if _dt.kind_of(raw.dtype) in "biu":
        raw = lax.convert_element_type(raw, _dt.default_float())
    return raw


def _sampling_args(fn, num, endpoint, axis, raws):
    num = check_int(fn, num, "num", minimum=0)
    check_bool(fn, endpoint, "endpoint")
    shape = ()
    for r in raws:
        shape = broadcast_shapes2(fn, shape, tuple(r.shape))
    axis = normalize_axis(fn, axis, len(shape) + 1)
    return num, shape, axis


_SPACE_RETURNS_RAISES = _docs.compose("""
Returns
-------
Array
    The ``num`` samples.

Raises
------
TypeError""")


_SPACE_NOTES_EXAMPLES = _docs.compose("""
Notes
-----
Static under ``jax.jit``: ``num``, ``endpoint``, ``dtype``, ``axis``.

Examples
--------
>>> import laxarray as la""")


@in_wide_region
@fill(dtype_result=_docs.DTYPE_RESULT, space_returns_raises=_SPACE_RETURNS_RAISES,
      space_notes_examples=_SPACE_NOTES_EXAMPLES)
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """Return numbers spaced evenly on a log scale: ``base ** linspace(start, stop, num)``.

    Array API: (not in the standard). NumPy: numpy.logspace.

    Parameters
    ----------
    start, stop : array_like
        The first and last exponents (broadcast together; may be traced).
    num : int, optional
        The number of samples, at least 0; default 50.
    endpoint : bool, optional
        Whether ``base ** stop`` is the last sample; default True.
    base : array_like, optional
        The base; default 10.0.
    {dtype_result}
    axis : int, optional
        Where the samples' axis goes when ``start``/``stop`` are arrays; default 0.

    {space_returns_raises}
        If an operand is not array_like or ``num`` is not an integer.
    ValueError
        If ``num`` is negative.

    {space_notes_examples}
    >>> la.logspace(0, 2, 3)
    Array([  1.,  10., 100.])
    >>> la.logspace(0, 3, 4, base=2.0)
    Array([1., 2., 4., 8.])
    """
    fn = "logspace"
    s, e = _float_operand(fn, start, "start"), _float_operand(fn, stop, "stop")
    b = raw_of(fn, base, "base")
    num, shape, axis = _sampling_args(fn, num, endpoint, axis, (s, e, b))
    # NumPy: linspace's dtype has Python-scalar endpoints weak; a scalar base is weak too
    lin_dt = _dt.result_type(_weak(start, s), _weak(stop, e), 1.0)
    work = _dt.result_type(lin_dt, _weak(base, b))
    if _dt.kind_of(work) in "biu":
        work = _dt.default_float()
    dt = work if dtype is None else _dt.canonicalize_dtype(fn, dtype)
    return call(_logspace_kernel, s, e, b, num=num, endpoint=endpoint, shape=shape,
                lin_dtype=lin_dt, work=work, dtype=dt, axis=axis)


@kernel(static=("num", "endpoint", "shape", "work", "dtype", "axis"))
def _geomspace_kernel(start, stop, *, num, endpoint, shape, work, dtype, axis):
    nd = len(shape)
    start = lax.broadcast_in_dim(lax.convert_element_type(start, work), shape,
                                 tuple(range(nd - start.ndim, nd)))
    stop = lax.broadcast_in_dim(lax.convert_element_type(stop, work), shape,
                                tuple(range(nd - stop.ndim, nd)))
    sign = lax.sign(start)
    start, stop = lax.div(start, sign), lax.div(stop, sign)
    ln10 = lax.log(lax.full((), 10.0, _dt.real_dtype(work) if _dt.kind_of(work) == "c" else work))
    if _dt.kind_of(work) == "c":
        ln10 = lax.convert_element_type(ln10, work)
    log = pick("log", lax.log)          # the chip's log and pow: 4000 and 122 ulps off
    log_start = lax.div(log(start), lax.broadcast(ln10, shape))
    log_stop = lax.div(log(stop), lax.broadcast(ln10, shape))
    y = _lin(log_start, log_stop, num, endpoint, shape, work)
    out = pow_values(lax.full(y.shape, 10.0, work), y)
    idx = lax.broadcasted_iota(np.int32, out.shape, 0)
    big = (num,) + shape
    dims = tuple(range(1, nd + 1))
    if num > 0:
        out = lax.select(idx == 0, lax.broadcast_in_dim(start, big, dims), out)
    if num > 1 and endpoint:
        out = lax.select(idx == num - 1, lax.broadcast_in_dim(stop, big, dims), out)
    out = lax.mul(out, lax.broadcast_in_dim(sign, big, dims))
    out = _move_first(out, axis)
    if _dt.kind_of(out.dtype) == "c" and _dt.kind_of(dtype) != "c":
        out = lax.real(out)
    return lax.convert_element_type(out, dtype)


@in_wide_region
@fill(dtype_result=_docs.DTYPE_RESULT, space_returns_raises=_SPACE_RETURNS_RAISES,
      space_notes_examples=_SPACE_NOTES_EXAMPLES)
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Return a geometric progression from ``start`` to ``stop``.

    Array API: (not in the standard). NumPy: numpy.geomspace.

    Parameters
    ----------
    start, stop : array_like
        The first and last values, non-zero (may be negative or complex; arrays broadcast
        and may be traced).
    num : int, optional
        The number of samples; default 50.
    endpoint : bool, optional
        Whether ``stop`` is the last sample; default True.
    {dtype_result}
    axis : int, optional
        Where the samples' axis goes for array endpoints; default 0.

    {space_returns_raises}
        If an operand is not array_like, or ``num`` is not an integer.
    ValueError
        If ``num`` is negative, or (eagerly) an endpoint is zero (under ``jax.jit``: NaN/inf).

    {space_notes_examples}
    >>> la.geomspace(1, 1000, 4)
    Array([   1.,   10.,  100., 1000.])
    >>> la.geomspace(-1, -1000, 4)
    Array([   -1.,   -10.,  -100., -1000.])
    """
    fn = "geomspace"
    s, e = _float_operand(fn, start, "start"), _float_operand(fn, stop, "stop")
    num, shape, axis = _sampling_args(fn, num, endpoint, axis, (s, e))
    for r in (s, e):
        if not is_tracer(r) and np.any(np.asarray(r) == 0):
            fail(ValueError, fn, "non-zero 'start' and 'stop' (a geometric sequence cannot "
                 "include zero)", r)
    dt = None if dtype is None else _dt.canonicalize_dtype(fn, dtype)
    work = _dt.result_type(s.dtype, e.dtype, dt or _dt.default_float())
    if _dt.kind_of(work) in "biu":
        work = _dt.default_float()
    return call(_geomspace_kernel, s, e, num=num, endpoint=endpoint, shape=shape, work=work,
                dtype=dt or work, axis=axis)


@in_wide_region
def fromfunction(function, shape, *, dtype=float, **kwargs):
    """``function(*coordinate_arrays, **kwargs)`` over the index grid of ``shape``.
    NumPy: numpy.fromfunction.

    ``function`` is called once with one array per axis (of ``dtype``, float64 by
    default), so it must work on whole arrays; its return value is returned as is.
    ``shape`` and ``dtype`` are static.

    >>> fromfunction(lambda i, j: i + j, (2, 3)).shape
    (2, 3)
    """
    if not callable(function):
        fail(TypeError, "fromfunction", "a callable for 'function'", function)
    dims = normalize_shape("fromfunction", shape)
    dt = _dt.canonicalize_dtype("fromfunction", dtype)
    return function(*call(_indices_kernel, dims=dims, dtype=dt, form="grids"), **kwargs)


__all__ = ["array", "copy", "fromfunction", "geomspace", "identity", "logspace"]
