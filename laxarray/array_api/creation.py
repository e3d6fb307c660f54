"""Creation functions of the standard.

Shapes, dtypes and scalar parameters (``start``, ``num``, ``k`` ...) are static: under
``jax.jit`` they must be Python values, and each distinct combination compiles once.
``device=`` takes a jax Device (``x.device``, ``info.devices()``) or ``None``.
"""

from __future__ import annotations

import math
import operator

import jax
import jax.dlpack as _jax_dlpack
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, check_device, default_device, place
from laxarray._core.errors import ZeroStepError, fail
from laxarray._core.jaxapi import Tracer, device_put, in_wide_mode
from laxarray._core.buckets import (bucket_dim, bucket_shape, static_shape_bucket,
                                    static_shape_rule)
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value, exact_div, rounded
from laxarray._core.validate import check_bool, check_choice, check_int, normalize_shape
from laxarray.array_api._array import Array, _copy_handle, wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, operand_for_dtype, scalar_operand, to_raw
from laxarray.array_api.data_types import _astype_kernel


_place = place


def _convert(x, dtype):
    """``x`` converted to ``dtype`` by astype's kernel (one kernel, bucketed when small)."""
    return call(_astype_kernel, x, dtype=dtype)


def _dtype_or_none(fn, dtype):
    return None if dtype is None else _dt.canonicalize_dtype(fn, dtype)


def asarray(obj, /, *, dtype=None, device=None, copy=None) -> Array:
    """Convert the input to an Array.

    Array API: asarray. NumPy: numpy.asarray.

    Parameters
    ----------
    obj : array_like
        An Array, a jax array, a NumPy array or scalar, a Python scalar, a (nested) sequence
        of those, or an object with ``__dlpack__``.
    dtype : dtype, optional
        The result's dtype; default ``None``: the dtype of ``obj`` (Python ``bool``, ``int``,
        ``float``, ``complex`` give the default dtypes of their kind: bool, int64, float64,
        complex128 on the CPU).
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.
    copy : bool, optional
        ``True``: always a new Array; ``False``: never copy, raise where a copy is needed;
        default ``None``: copy only where needed.

    Returns
    -------
    Array
        ``obj`` as an Array (``obj`` itself where it is an Array of that dtype and device and
        ``copy`` is not ``True``).

    Raises
    ------
    TypeError
        If ``obj`` holds values of no supported dtype (strings, objects), ``dtype`` is not a
        supported dtype, complex ``obj`` is given a real ``dtype``, or ``copy`` is not a bool.
    ValueError
        If ``copy=False`` and a copy is needed (any conversion from NumPy or a sequence, or
        a dtype change), or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``dtype``, ``device`` and ``copy``; ``obj`` may be a traced
    jax array.

    ``copy=True`` returns a new handle: values are immutable, so no data is duplicated until
    one of the handles is updated.  A NumPy array of a dtype the backend lacks (float64 on a
    TPU) with a ``dtype`` the backend has is cast by NumPy on the host, rounded once.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.asarray([1, 2, 3])
    Array([1, 2, 3])
    >>> xp.asarray([1, 2], dtype=xp.float32)
    Array([1., 2.], dtype=float32)
    >>> x = xp.asarray([1.0, 2.0])
    >>> xp.asarray(x) is x
    True
    """
    dt = _dtype_or_none("asarray", dtype)
    dev = check_device("asarray", device)
    if copy is not None:
        check_bool("asarray", copy, "copy")
    if isinstance(obj, Array) or isinstance(obj, (jax.Array, Tracer)):
        x = as_array("asarray", obj, "obj")
        if dt is not None and x.dtype != dt:
            if copy is False:
                fail(ValueError, "asarray", "no copy to be needed with copy=False", dt)
            out = _convert(x, dt)
            return out if dev is None else wrap(_place(out._value, dev))
        if isinstance(obj, Array) and copy is not True and dev is None:
            return obj
        if isinstance(obj, Array) and dev is None:
            return _copy_handle(obj)
        return wrap(_place(x._value, dev))
    if copy is False:
        fail(ValueError, "asarray", "an Array or jax array (a copy is needed) with copy=False",
             obj)
    if dt is not None:
        pytype = _dt.scalar_pytype(obj)
        if pytype is not None:
            return wrap(_place(operand_for_dtype("asarray", obj, dt, "obj"), dev))
        if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array__"):
            raw = from_dlpack(obj)._value
        else:
            raw = to_raw("asarray", _host_cast(obj, dt), "obj")
        if _dt.kind_of(raw.dtype) == "c" and _dt.kind_of(dt) != "c":
            fail(TypeError, "asarray", f"a real 'obj' for dtype {dt}", obj)
        # already of the dtype asked for: no conversion kernel (nor its compile per shape)
        out = wrap(raw) if raw.dtype == dt else _convert(wrap(raw), dt)
        return out if dev is None else wrap(_place(out._value, dev))
    if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array__"):
        return from_dlpack(obj, device=device)
    return wrap(_place(to_raw("asarray", obj, "obj"), dev))


def _host_cast(obj, dtype):
    """A NumPy array of a dtype the backend lacks (float64 on a TPU), cast by NumPy to
    ``dtype`` on the host, rounded once (NumPy's cast is laxarray's ``astype``); anything
    else -- complex data for a real dtype included, which ``asarray`` refuses -- as it is."""
    if not isinstance(obj, (np.ndarray, np.generic)) or _backend.current().supports(obj.dtype):
        return obj
    if obj.dtype.kind == "c" and _dt.kind_of(dtype) != "c":
        return obj
    return obj.astype(dtype)


@kernel(static=("shape", "dtype"), shape=static_shape_rule, bucket=static_shape_bucket)
def _full_kernel(fill, *, shape, dtype):
    return lax.full(shape, lax.convert_element_type(fill, dtype), dtype)


def _fill_dtype(fn, fill_value):
    pytype = _dt.scalar_pytype(fill_value)
    if pytype is not None:
        return _dt.default_dtype_for_pytype(pytype)
    if isinstance(fill_value, (Array, jax.Array, np.ndarray, np.generic)) and np.ndim(
            fill_value) == 0:
        return _dt.canonicalize_dtype(fn, fill_value.dtype, "fill_value")
    fail(TypeError, fn, "a scalar 'fill_value'", fill_value)


def _full(fn, shape, fill_value, dtype, device):
    dims = normalize_shape(fn, shape)
    dt = _dtype_or_none(fn, dtype) or _fill_dtype(fn, fill_value)
    dev = check_device(fn, device)
    if _dt.scalar_pytype(fill_value) is not None:
        fill = operand_for_dtype(fn, fill_value, dt, "fill_value")
    else:
        _fill_dtype(fn, fill_value)
        fill = operand_for_dtype(fn, fill_value, dt, "fill_value")
    if dev is None:
        return call(_full_kernel, fill, shape=dims, dtype=dt)
    return wrap(_place(_full_kernel(fill, shape=dims, dtype=dt), dev))  # exact, then placed


def full(shape, fill_value, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape filled with ``fill_value``.

    Array API: full. NumPy: numpy.full.

    Parameters
    ----------
    shape : int or tuple of ints
        The result's shape (non-negative dimensions).
    fill_value : bool, int, float or complex
        The value of every element (a Python scalar or a 0-d array).
    dtype : dtype, optional
        The result's dtype; default ``None``: from the Python type of ``fill_value`` (bool,
        int64, float64, complex128 on the CPU) or the dtype of a 0-d array.
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.

    Returns
    -------
    Array
        An array of ``shape`` whose every element is ``fill_value``.

    Raises
    ------
    TypeError
        If ``fill_value`` is not a scalar, ``shape`` is not an int or a tuple of ints, or
        ``dtype`` is not a supported dtype (``float64`` on a TPU).
    ValueError
        If a dimension of ``shape`` is negative, or ``device`` is none of laxarray's devices.
    OverflowError
        If a Python int ``fill_value`` is outside the range of an integer ``dtype``.

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``dtype`` and ``device``.

    A float ``fill_value`` with an integer ``dtype`` is truncated, as NumPy does.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.full((2, 2), 7)
    Array([[7, 7],
           [7, 7]])
    >>> xp.full(3, 0.5, dtype=xp.float32)
    Array([0.5, 0.5, 0.5], dtype=float32)
    """
    return _full("full", shape, fill_value, dtype, device)


def zeros(shape, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape filled with zeros.

    Array API: zeros. NumPy: numpy.zeros.

    Parameters
    ----------
    shape : int or tuple of ints
        The result's shape (non-negative dimensions).
    dtype : dtype, optional
        The result's dtype; default ``None``: the default floating dtype (float64 on the CPU,
        float32 on a TPU).
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.

    Returns
    -------
    Array
        An array of ``shape`` and ``dtype``.

    Raises
    ------
    TypeError
        If ``shape`` is not an int or a tuple of ints, or ``dtype`` is not a supported dtype
        (``float64`` on a TPU).
    ValueError
        If a dimension of ``shape`` is negative, or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``dtype`` and ``device``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.zeros((2, 3))
    Array([[0., 0., 0.],
           [0., 0., 0.]])
    >>> xp.zeros(2, dtype=xp.int32)
    Array([0, 0], dtype=int32)
    """
    return _full("zeros", shape, False, dtype or _dt.default_float(), device)


def ones(shape, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape filled with ones.

    Array API: ones. NumPy: numpy.ones.

    Parameters
    ----------
    shape : int or tuple of ints
        The result's shape (non-negative dimensions).
    dtype : dtype, optional
        The result's dtype; default ``None``: the default floating dtype (float64 on the CPU,
        float32 on a TPU).
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.

    Returns
    -------
    Array
        An array of ``shape`` and ``dtype``.

    Raises
    ------
    TypeError
        If ``shape`` is not an int or a tuple of ints, or ``dtype`` is not a supported dtype
        (``float64`` on a TPU).
    ValueError
        If a dimension of ``shape`` is negative, or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``dtype`` and ``device``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.ones((2, 3))
    Array([[1., 1., 1.],
           [1., 1., 1.]])
    >>> xp.ones(2, dtype=xp.int32)
    Array([1, 1], dtype=int32)
    """
    return _full("ones", shape, True, dtype or _dt.default_float(), device)


def empty(shape, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape, uninitialised (laxarray: zeros).

    Array API: empty. NumPy: numpy.empty.

    Parameters
    ----------
    shape : int or tuple of ints
        The result's shape (non-negative dimensions).
    dtype : dtype, optional
        The result's dtype; default ``None``: the default floating dtype (float64 on the CPU,
        float32 on a TPU).
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.

    Returns
    -------
    Array
        An array of ``shape`` and ``dtype``, every element zero (NumPy leaves the values undefined).

    Raises
    ------
    TypeError
        If ``shape`` is not an int or a tuple of ints, or ``dtype`` is not a supported dtype
        (``float64`` on a TPU).
    ValueError
        If a dimension of ``shape`` is negative, or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``dtype`` and ``device``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.empty((2, 3))
    Array([[0., 0., 0.],
           [0., 0., 0.]])
    >>> xp.empty(2, dtype=xp.int32)
    Array([0, 0], dtype=int32)
    """
    return _full("empty", shape, False, dtype or _dt.default_float(), device)


def _like(fn, x, dtype, device):
    x = as_array(fn, x)
    dt = _dtype_or_none(fn, dtype) or x.dtype
    dev = check_device(fn, device)
    if dev is None and len(all_devices()) > 1:
        dev = x.device  # the standard: the result goes to x's device (default when traced)
        if dev == default_device():
            dev = None
    return tuple(x.shape), dt, dev


def full_like(x, /, fill_value, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x`` filled with ``fill_value``.

    Array API: full_like. NumPy: numpy.full_like.

    Parameters
    ----------
    x : array_like
        The array whose shape (and, by default, dtype and device) the result takes.
    fill_value : bool, int, float or complex
        The value of every element (a Python scalar or a 0-d array).
    dtype : dtype, optional
        The result's dtype; default ``None``: the dtype of ``x``.
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result; default ``None``: the device of ``x`` (where there are
        several devices; else the default device).

    Returns
    -------
    Array
        An array of the shape of ``x`` whose every element is ``fill_value``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``fill_value`` is not a scalar, or ``dtype`` is not a
        supported dtype (``float64`` on a TPU).
    ValueError
        If ``device`` is none of laxarray's devices.
    OverflowError
        If a Python int ``fill_value`` is outside the range of an integer dtype.

    Notes
    -----
    Static under ``jax.jit``: ``dtype`` and ``device`` (and the shape of ``x``).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.full_like(xp.asarray([1, 2, 3]), 9)
    Array([9, 9, 9])
    >>> xp.full_like(xp.asarray([1, 2]), 0.5, dtype=xp.float64)
    Array([0.5, 0.5])
    """
    shape, dt, dev = _like("full_like", x, dtype, device)
    return _full("full_like", shape, fill_value, dt, dev)


def zeros_like(x, /, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x`` filled with zeros.

    Array API: zeros_like. NumPy: numpy.zeros_like.

    Parameters
    ----------
    x : array_like
        The array whose shape (and, by default, dtype and device) the result takes.
    dtype : dtype, optional
        The result's dtype; default ``None``: the dtype of ``x``.
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result; default ``None``: the device of ``x`` (where there are
        several devices; else the default device).

    Returns
    -------
    Array
        An array of the shape of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``dtype`` is not a supported dtype (``float64`` on a
        TPU).
    ValueError
        If ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``dtype`` and ``device`` (and the shape of ``x``).

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.zeros_like(x)
    Array([[0, 0, 0],
           [0, 0, 0]])
    """
    shape, dt, dev = _like("zeros_like", x, dtype, device)
    return _full("zeros_like", shape, False, dt, dev)


def ones_like(x, /, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x`` filled with ones.

    Array API: ones_like. NumPy: numpy.ones_like.

    Parameters
    ----------
    x : array_like
        The array whose shape (and, by default, dtype and device) the result takes.
    dtype : dtype, optional
        The result's dtype; default ``None``: the dtype of ``x``.
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result; default ``None``: the device of ``x`` (where there are
        several devices; else the default device).

    Returns
    -------
    Array
        An array of the shape of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``dtype`` is not a supported dtype (``float64`` on a
        TPU).
    ValueError
        If ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``dtype`` and ``device`` (and the shape of ``x``).

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.ones_like(x)
    Array([[1, 1, 1],
           [1, 1, 1]])
    """
    shape, dt, dev = _like("ones_like", x, dtype, device)
    return _full("ones_like", shape, True, dt, dev)


def empty_like(x, /, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x``, uninitialised (laxarray: zeros).

    Array API: empty_like. NumPy: numpy.empty_like.

    Parameters
    ----------
    x : array_like
        The array whose shape (and, by default, dtype and device) the result takes.
    dtype : dtype, optional
        The result's dtype; default ``None``: the dtype of ``x``.
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result; default ``None``: the device of ``x`` (where there are
        several devices; else the default device).

    Returns
    -------
    Array
        An array of the shape of ``x``, every element zero (NumPy leaves the values undefined).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``dtype`` is not a supported dtype (``float64`` on a
        TPU).
    ValueError
        If ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``dtype`` and ``device`` (and the shape of ``x``).

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.empty_like(x)
    Array([[0, 0, 0],
           [0, 0, 0]])
    """
    shape, dt, dev = _like("empty_like", x, dtype, device)
    return _full("empty_like", shape, False, dt, dev)


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
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.

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
    dt = _dtype_or_none("arange", dtype)
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
    return wrap(_place(_arange_kernel(*operands, num=num, dtype=dt), dev))  # exact, placed


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
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.
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
    dt = _dtype_or_none("linspace", dtype)
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
    return out if dev is None else wrap(_place(out._value, dev))


@kernel(static=("n_rows", "n_cols", "k", "dtype"))
def _eye_kernel(*, n_rows, n_cols, k, dtype):
    rows = lax.broadcasted_iota(_dt.default_index(), (n_rows, n_cols), 0)
    cols = lax.broadcasted_iota(_dt.default_index(), (n_rows, n_cols), 1)
    shifted = lax.add(rows, lax.full((), k, _dt.default_index()))
    return lax.convert_element_type(lax.eq(shifted, cols), dtype)


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
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.

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
    dt = _dtype_or_none("eye", dtype) or _dt.default_float()
    dev = check_device("eye", device)
    out = call(_eye_kernel, n_rows=n_rows, n_cols=n_cols, k=k, dtype=dt)
    return out if dev is None else wrap(_place(out._value, dev))


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

    Returns
    -------
    Array
        An array of the shape and dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``k`` is not an int.
    ValueError
        If ``x`` has rank below 2.

    Notes
    -----
    Static under ``jax.jit``: ``k``.

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

    Returns
    -------
    Array
        An array of the shape and dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``k`` is not an int.
    ValueError
        If ``x`` has rank below 2.

    Notes
    -----
    Static under ``jax.jit``: ``k``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    >>> xp.triu(x)
    Array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 9]])
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


_DL_CPU = 1  # DLPack's kDLCPU device type


def _dlpack_on_host(x):
    try:
        return int(x.__dlpack_device__()[0]) == _DL_CPU
    except (AttributeError, TypeError, ValueError, IndexError):
        return False


@in_wide_mode
def from_dlpack(x, /, *, device=None, copy=None) -> Array:
    """Return an Array from an object implementing the DLPack protocol.

    Array API: from_dlpack. NumPy: numpy.from_dlpack.

    Parameters
    ----------
    x : object
        An object with ``__dlpack__`` (and ``__dlpack_device__``): a NumPy array, a jax
        array, a torch tensor, an Array ...
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
        name (``"cpu"``) or a sharding over them; default ``None``, the default device.
    copy : bool, optional
        ``True``: always copy; ``False``: never copy, raise where jax cannot import the
        buffer without one; default ``None``: copy only where needed.

    Returns
    -------
    Array
        An Array of the values of ``x``.

    Raises
    ------
    TypeError
        If ``x`` has no ``__dlpack__``, or ``copy`` is not a bool.
    ValueError
        If ``copy=False`` and jax cannot import the buffer without a copy (jax needs 64-byte
        aligned host memory), or ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``device`` and ``copy``.  ``x`` must be a concrete DLPack
    buffer (a traced jax array is taken as it is).

    ``copy=None`` lets jax import the buffer without a copy where it can (a CPU buffer
    aligned to 64 bytes): the result then shares memory with ``x``, as DLPack intends.
    ``copy=True`` always copies (a host buffer is first copied by NumPy: jax copies host
    buffers asynchronously).

    Examples
    --------
    >>> import numpy as np
    >>> import laxarray as xp
    >>> xp.from_dlpack(np.arange(3.0))
    Array([0., 1., 2.])
    """
    dev = check_device("from_dlpack", device)
    if copy is not None:
        check_bool("from_dlpack", copy, "copy")
    if isinstance(x, Array):  # values are immutable: a new handle is a copy
        if copy is None and dev is None:
            return x
        return wrap(_place(x._value, dev))
    if isinstance(x, (jax.Array, Tracer)):
        return wrap(_place(to_raw("from_dlpack", x, "x"), dev))
    if not hasattr(x, "__dlpack__"):
        fail(TypeError, "from_dlpack", "an object with __dlpack__ for 'x'", x)
    if copy and _dlpack_on_host(x):
        # jax copies host buffers asynchronously (a write to x right after the call can
        # still reach the result): take a private NumPy copy first
        return wrap(_place(device_put(np.array(np.from_dlpack(x), copy=True)), dev))
    try:
        raw = _jax_dlpack.from_dlpack(x, copy=copy)
    except ValueError:
        if copy is False:
            fail(ValueError, "from_dlpack", "a buffer jax can import without a copy with "
                 "copy=False (jax needs 64-byte aligned host memory)", x)
        raise
    except (TypeError, RuntimeError, BufferError):  # dtypes/producers jax cannot import
        if copy is False:
            fail(ValueError, "from_dlpack", "a buffer jax can import without a copy with "
                 "copy=False", x)
        raw = device_put(np.array(np.from_dlpack(x), copy=True))
    return wrap(_place(to_raw("from_dlpack", raw, "x"), dev))


__all__ = ["arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full",
           "full_like", "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros",
           "zeros_like"]
_ = operator
