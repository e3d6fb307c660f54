"""Creation functions of the standard that make ranges and grids: arange, linspace, eye,
meshgrid, and the triangles tril and triu of an array.

Shapes, dtypes and scalar parameters (``start``, ``num``, ``k`` ...) are static: under
``jax.jit`` they must be Python values, and each distinct combination compiles once.
``device=`` takes a jax Device (``x.device``, ``info.devices()``) or ``None``.
"""

from __future__ import annotations

import math

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_device, place
from laxarray._core.errors import ZeroStepError, fail
from laxarray._core.jaxapi import Tracer
from laxarray._core.buckets import bucket_dim, bucket_shape
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value, exact_div, rounded
from laxarray._core.validate import check_bool, check_choice, check_int
from laxarray.array_api._docs import SAME_SHAPE_DTYPE
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import scalar_operand, to_raw
from laxarray._core.docstrings import fill
from laxarray.array_api.creation import DEVICE, dtype_or_none


#: the sections tril and triu share (``fill``)
_TRI_SECTIONS = SAME_SHAPE_DTYPE + """
Raises
------
TypeError
    If ``x`` is not array_like, or ``k`` is not an int.
ValueError
    If ``x`` has rank below 2.

Notes
-----
Static under ``jax.jit``: ``k``.
"""


#: The most elements an array may have (NumPy's limit: the largest intp).
_MAX_ELEMENTS = np.iinfo(np.intp).max


def _static_number(fn, value, argname):
    if isinstance(value, (Array, np.ndarray, np.generic, jax.Array)) and np.ndim(value) == 0:
        if isinstance(getattr(value, "_value", value), Tracer):
            fail(TypeError, fn, f"a static Python number for '{argname}' under jax.jit", value)
        value = np.asarray(value)[()].item()
    if _dt.scalar_pytype(value) is None:
        fail(TypeError, fn, f"a Python number for '{argname}'", value)
    return value


def _arange_shape(start, step, *, num, dtype):
    """The logical shape of ``arange``'s result, ``None`` (exact) where it has no bucket."""
    return (num,) if bucket_shape((num,)) is not None else None


def _arange_bucket(start, step, *, num, dtype):
    """On its bucket ``arange`` computes the bucket's length of values."""
    return {"num": bucket_dim(num)}


@kernel(static=("num", "dtype"), shape=_arange_shape, bucket=_arange_bucket)
def _arange_kernel(start, step, *, num, dtype):
    # start/step are runtime scalars, so XLA cannot fold "0 * step + start" into a
    # constant with the wrong zero sign; integer arithmetic is modular, so iota and
    # products may wrap while every result (checked in range) comes out exact
    i = lax.iota(dtype, num)
    first = lax.broadcast(start, (num,))
    out = lax.add(lax.mul(i, lax.broadcast(step, (num,))), first)
    if _dt.kind_of(dtype) in "iu":
        return out
    # as NumPy, the first value is ``start`` itself (0 * step + -0.0 would be +0.0)
    return lax.select(lax.eq(i, lax.full_like(i, 0)), first, out)


def _wrap_int(value, dtype):
    """``value`` reduced into ``dtype``'s range modulo 2**bits (two's complement)."""
    bits = dtype.itemsize * 8
    value %= 1 << bits
    if _dt.kind_of(dtype) == "i" and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


@fill(device=DEVICE)
def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Array:
    """Return evenly spaced values in the half-open interval ``[start, stop)``.

    Array API: arange. NumPy: numpy.arange.

    Parameters
    ----------
    start : int or float
        The first value; with ``stop`` omitted, the end of the interval (which then starts
        at 0).
    stop : int or float, optional
        The end of the interval (excluded); default ``None`` (see ``start``).
    step : int or float, optional
        The spacing between values; default 1.
    dtype : dtype, optional
        The result's dtype; default ``None``: the type of ``start``, ``stop`` and ``step``
        (int64 for integers, float64 for floats on the CPU).
    {device}

    Returns
    -------
    Array
        A 1-D array of ``ceil((stop - start) / step)`` values (none where that is negative).

    Raises
    ------
    TypeError
        If ``start``, ``stop`` or ``step`` is not a real Python number (a traced value
        included), ``dtype`` is bool, or ``dtype`` is not a supported dtype.
    ValueError
        If ``step`` is 0 (the error is also a ``ZeroDivisionError``), the values do not fit an
        integer ``dtype``, the length exceeds NumPy's largest array, or ``device`` is none of
        laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``start``, ``stop``, ``step``, ``dtype`` and ``device``: all
    of them must be Python numbers (the result's length depends on them).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.arange(5)
    Array([0, 1, 2, 3, 4])
    >>> xp.arange(1.0, 2.0, 0.25)
    Array([1.  , 1.25, 1.5 , 1.75])
    """
    start = _static_number("arange", start, "start")
    if stop is None:
        start, stop = 0, start
    stop = _static_number("arange", stop, "stop")
    step = _static_number("arange", step, "step")
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, complex):
            fail(TypeError, "arange", f"a real number for '{name}'", v)
    if step == 0:
        fail(ZeroStepError, "arange", "a non-zero 'step'", step)
    dt = dtype_or_none("arange", dtype)
    if dt is None:
        dt = _dt.result_type(start, stop, step)
        if dt == _dt.bool_:
            dt = _dt.default_int()
    dev = check_device("arange", device)
    num = max(0, math.ceil((stop - start) / step))
    if num > _MAX_ELEMENTS:
        fail(ValueError, "arange", f"at most {_MAX_ELEMENTS} elements (NumPy: maximum allowed "
             "size exceeded)", num)
    if _dt.kind_of(dt) in "iu":
        delta = int(step)
        start_v = int(start)
        info = np.iinfo(dt)
        if num and not (info.min <= start_v <= info.max and
                        info.min <= start_v + (num - 1) * delta <= info.max):
            fail(ValueError, "arange", f"values representable in {dt}", (start, stop, step))
    elif _dt.kind_of(dt) == "b":
        fail(TypeError, "arange", "a numeric 'dtype'", dt)
    else:
        start_v = float(start)
        delta = float((start + step) - start)
    if _dt.kind_of(dt) in "iu":
        start_v, delta = _wrap_int(start_v, dt), _wrap_int(delta, dt)
    operands = (scalar_operand("arange", start_v, dt, "start"),
                scalar_operand("arange", delta, dt, "step"))
    if dev is None:
        return call(_arange_kernel, *operands, num=num, dtype=dt)
    return wrap(place(_arange_kernel(*operands, num=num, dtype=dt), dev))  # exact, placed


@kernel(static=("num", "dtype", "endpoint", "out"))
def _linspace_kernel(start_a, stop_a, *, num, dtype, endpoint, out):
    # start/stop are runtime scalars (no constant folding of "0 * step + start")
    div = (num - 1) if endpoint else num
    i = lax.iota(_dt.real_dtype(dtype) if _dt.kind_of(dtype) == "c" else dtype, num)
    i = lax.convert_element_type(i, dtype)
    delta = lax.sub(stop_a, start_a)
    # NumPy's i * step + start, the product rounded before the sum (no fma: numerics.rounded)
    if div > 0:
        step = exact_div(delta, lax.full((), div, dtype))   # not a reciprocal's product
        y = lax.add(rounded(lax.mul(i, step)), start_a)
    else:
        y = lax.add(rounded(lax.mul(i, delta)), start_a)
    if endpoint and num > 1:
        y = lax.dynamic_update_slice(y, lax.reshape(stop_a, (1,)), (num - 1,))
    if out != dtype:   # a narrower dtype: NumPy floors float64 values for an integer one
        if _dt.kind_of(out) in "iu":  # (through int64: negative values wrap, as in NumPy)
            y = lax.convert_element_type(lax.floor(y), _dt.default_index())
        y = cast_value(y, out)
    return y


@fill(device=DEVICE)
def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True) -> Array:
    """Return ``num`` evenly spaced values from ``start`` to ``stop``.

    Array API: linspace. NumPy: numpy.linspace.

    Parameters
    ----------
    start : int, float or complex
        The first value.
    stop : int, float or complex
        The last value (with ``endpoint=True``), else the end of the interval.
    num : int
        How many values (non-negative).
    dtype : dtype, optional
        The result's dtype; default ``None``: the default floating dtype (float64 on the
        CPU), complex where ``start`` or ``stop`` is complex.
    {device}
    endpoint : bool, optional
        Whether ``stop`` is the last value; default ``True``.

    Returns
    -------
    Array
        A 1-D array of ``num`` values.

    Raises
    ------
    TypeError
        If ``start`` or ``stop`` is not a Python number (a traced value included), ``num``
        is not an int, ``endpoint`` is not a bool, ``dtype`` is not a supported dtype, or a
        complex ``start``/``stop`` is given a real ``dtype``.
    ValueError
        If ``num`` is negative, or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``start``, ``stop``, ``num``, ``dtype``, ``device`` and
    ``endpoint``.

    The values are computed in float64 (complex128) as NumPy computes them (``i * step +
    start``, the product rounded before the sum) and cast to ``dtype``: float32 values are
    the float64 ones rounded; an integer ``dtype`` (NumPy's, not the standard's) floors the
    values, as NumPy does.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.linspace(0, 1, 5)
    Array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> xp.linspace(0, 1, 4, endpoint=False)
    Array([0.  , 0.25, 0.5 , 0.75])
    """
    start = _static_number("linspace", start, "start")
    stop = _static_number("linspace", stop, "stop")
    num = check_int("linspace", num, "num", minimum=0)
    check_bool("linspace", endpoint, "endpoint")
    dt = dtype_or_none("linspace", dtype)
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    if dt is None:
        dt = _dt.default_complex() if is_complex else _dt.default_float()
    elif is_complex and _dt.kind_of(dt) != "c":
        fail(TypeError, "linspace", "a complex 'dtype' for complex start/stop", dt)
    dev = check_device("linspace", device)
    # computed in float64 (complex128) and cast, as NumPy does: float32 values are the
    # float64 ones rounded; integer and bool dtypes (NumPy's, not the standard's) floored
    work = _dt.default_complex() if _dt.kind_of(dt) == "c" else _dt.default_float()
    cast = complex if _dt.kind_of(dt) == "c" else float
    out = call(_linspace_kernel, scalar_operand("linspace", cast(start), work, "start"),
               scalar_operand("linspace", cast(stop), work, "stop"), num=num, dtype=work,
               endpoint=endpoint, out=dt)
    return out if dev is None else wrap(place(out._value, dev))


@kernel(static=("n_rows", "n_cols", "k", "dtype"))
def _eye_kernel(*, n_rows, n_cols, k, dtype):
    rows = lax.broadcasted_iota(_dt.default_index(), (n_rows, n_cols), 0)
    cols = lax.broadcasted_iota(_dt.default_index(), (n_rows, n_cols), 1)
    shifted = lax.add(rows, lax.full((), k, _dt.default_index()))
    return lax.convert_element_type(lax.eq(shifted, cols), dtype)


@fill(device=DEVICE)
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None) -> Array:
    """Return a 2-D array with ones on the ``k``-th diagonal and zeros elsewhere.

    Array API: eye. NumPy: numpy.eye.

    Parameters
    ----------
    n_rows : int
        The number of rows (non-negative).
    n_cols : int, optional
        The number of columns; default ``None``: ``n_rows``.
    k : int, optional
        The diagonal: 0 the main one, positive above it, negative below; default 0.
    dtype : dtype, optional
        The result's dtype; default ``None``: the default floating dtype (float64 on the
        CPU, float32 on a TPU).
    {device}

    Returns
    -------
    Array
        An ``(n_rows, n_cols)`` array.

    Raises
    ------
    TypeError
        If ``n_rows``, ``n_cols`` or ``k`` is not an int, or ``dtype`` is not a supported
        dtype.
    ValueError
        If ``n_rows`` or ``n_cols`` is negative, or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: every argument (``n_rows``, ``n_cols``, ``k``, ``dtype``,
    ``device``).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.eye(3)
    Array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    >>> xp.eye(2, 3, k=1, dtype=xp.int64)
    Array([[0, 1, 0],
           [0, 0, 1]])
    """
    n_rows = check_int("eye", n_rows, "n_rows", minimum=0)
    n_cols = n_rows if n_cols is None else check_int("eye", n_cols, "n_cols", minimum=0)
    # a diagonal outside the matrix is no diagonal: one program for all of them, and an
    # offset that fits the index dtype
    k = max(-n_rows, min(check_int("eye", k, "k"), n_cols))
    dt = dtype_or_none("eye", dtype) or _dt.default_float()
    dev = check_device("eye", device)
    out = call(_eye_kernel, n_rows=n_rows, n_cols=n_cols, k=k, dtype=dt)
    return out if dev is None else wrap(place(out._value, dev))


@kernel(static=("k", "lower"))
def _tri_kernel(x, *, k, lower):
    n, m = x.shape[-2], x.shape[-1]
    rows = lax.broadcasted_iota(_dt.default_index(), (n, m), 0)
    cols = lax.broadcasted_iota(_dt.default_index(), (n, m), 1)
    diff = lax.sub(cols, rows)
    kk = lax.full((), k, _dt.default_index())
    keep = lax.le(diff, kk) if lower else lax.ge(diff, kk)
    keep = lax.broadcast_in_dim(keep, x.shape, (x.ndim - 2, x.ndim - 1))
    return lax.select(keep, x, lax.full_like(x, 0))


def _tri(fn, x, k, lower):
    v = x._value if type(x) is Array else to_raw(fn, x, "x")
    if v.ndim < 2:
        fail(ValueError, fn, "an array of rank >= 2 for 'x'", x)
    # past the matrix every offset keeps all or nothing: clamped (an offset that fits the
    # index dtype, one program for each)
    k = max(-v.shape[-2], min(check_int(fn, k, "k"), v.shape[-1]))
    return call(_tri_kernel, v, k=k, lower=lower)


@fill(sections=_TRI_SECTIONS)
def tril(x, /, *, k=0) -> Array:
    """Return the lower triangle of a matrix (or a stack of matrices).

    Array API: tril. NumPy: numpy.tril.

    Parameters
    ----------
    x : array_like
        An array of rank >= 2; its last two axes are the matrices.
    k : int, optional
        The diagonal: elements above it are zeroed; 0 the main diagonal, positive above
        it, negative below; default 0.

    {sections}

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    >>> xp.tril(x)
    Array([[1, 0, 0],
           [4, 5, 0],
           [7, 8, 9]])
    """
    return _tri("tril", x, k, True)


@fill(sections=_TRI_SECTIONS)
def triu(x, /, *, k=0) -> Array:
    """Return the upper triangle of a matrix (or a stack of matrices).

    Array API: triu. NumPy: numpy.triu.

    Parameters
    ----------
    x : array_like
        An array of rank >= 2; its last two axes are the matrices.
    k : int, optional
        The diagonal: elements below it are zeroed; 0 the main diagonal, positive above
        it, negative below; default 0.

    {sections}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.triu(xp.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), k=1)
    Array([[0, 2, 3],
           [0, 0, 6],
           [0, 0, 0]])
    """
    return _tri("triu", x, k, False)


@kernel(static=("shape", "axis"))
def _grid_kernel(v, *, shape, axis):
    return lax.broadcast_in_dim(v, shape, (axis,))


def meshgrid(*arrays, indexing="xy"):
    """Return coordinate matrices from 1-D coordinate vectors.

    Array API: meshgrid. NumPy: numpy.meshgrid.

    Parameters
    ----------
    *arrays : array_like
        1-D arrays, the coordinates along each axis.
    indexing : {"xy", "ij"}, optional
        ``"xy"`` (Cartesian: the first two axes of the result swapped) or ``"ij"`` (matrix);
        default ``"xy"``.

    Returns
    -------
    tuple of Array
        One array per input, each of shape ``(len(arrays[1]), len(arrays[0]), ...)`` for
        ``"xy"`` or ``(len(arrays[0]), len(arrays[1]), ...)`` for ``"ij"``.

    Raises
    ------
    TypeError
        If an input is not array_like.
    ValueError
        If an input is not 1-D, or ``indexing`` is neither ``"xy"`` nor ``"ij"``.

    Notes
    -----
    Static under ``jax.jit``: ``indexing`` (and the lengths of the inputs).

    Unlike NumPy, only the standard's arguments: no ``sparse`` or ``copy``.

    Examples
    --------
    >>> import laxarray as xp
    >>> X, Y = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([10, 20]))
    >>> X
    Array([[1, 2, 3],
           [1, 2, 3]])
    >>> Y
    Array([[10, 10, 10],
           [20, 20, 20]])
    """
    check_choice("meshgrid", indexing, "indexing", ("xy", "ij"))
    vs = [a._value if type(a) is Array else to_raw("meshgrid", a, "arrays") for a in arrays]
    for a in vs:
        if a.ndim != 1:
            fail(ValueError, "meshgrid", "1-D arrays", a)
    shape = [a.shape[0] for a in vs]
    axes = list(range(len(vs)))
    if indexing == "xy" and len(vs) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
        axes[0], axes[1] = 1, 0
    return tuple(call(_grid_kernel, a, shape=tuple(shape), axis=ax) for a, ax in zip(vs, axes))


__all__ = ["arange", "eye", "linspace", "meshgrid", "tril", "triu"]
