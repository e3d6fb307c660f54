"""Creation functions of the standard that fill a shape with one value: full, zeros, ones,
empty, and their ``*_like`` twins.

The shape and dtype are static: under ``jax.jit`` they must be Python values, and each
distinct combination compiles once.  ``device=`` takes a jax Device (``x.device``,
``info.devices()``) or ``None``.
"""

from __future__ import annotations


import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, check_device, default_device, place
from laxarray._core.errors import fail
from laxarray._core.buckets import static_shape_bucket, static_shape_rule
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import normalize_shape
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, operand_for_dtype
from laxarray.array_api.creation import DEVICE, dtype_or_none


#: numpydoc parts of the filled arrays (``fill``): of a shape (zeros, ones, empty) and of
#: another array's (the ``*_like``)
_SHAPE_PARAMS = """
Parameters
----------
shape : int or tuple of ints
    The result's shape (non-negative dimensions).
dtype : dtype, optional
    The result's dtype; default ``None``: the default floating dtype (float64 on the CPU,
    float32 on a TPU).
""" + DEVICE.lstrip("\n")
_SHAPE_RAISES_NOTES = """
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
"""
_SHAPE_SECTIONS = _SHAPE_PARAMS + """
Returns
-------
Array
    An array of ``shape`` and ``dtype``.
""" + _SHAPE_RAISES_NOTES
_LIKE_DTYPE_DEVICE = """
dtype : dtype, optional
    The result's dtype; default ``None``: the dtype of ``x``.
device : jax.Device, str or jax.sharding.Sharding, optional
    Where to place the result; default ``None``: the device of ``x`` (where there are
    several devices; else the default device).
"""
_LIKE_PARAMS = """
Parameters
----------
x : array_like
    The array whose shape (and, by default, dtype and device) the result takes.
""" + _LIKE_DTYPE_DEVICE.lstrip("\n")
_LIKE_RAISES_NOTES = """
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
"""
_LIKE_SECTIONS = _LIKE_PARAMS + """
Returns
-------
Array
    An array of the shape of ``x``.
""" + _LIKE_RAISES_NOTES


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
    dt = dtype_or_none(fn, dtype) or _fill_dtype(fn, fill_value)
    dev = check_device(fn, device)
    if _dt.scalar_pytype(fill_value) is not None:
        fill = operand_for_dtype(fn, fill_value, dt, "fill_value")
    else:
        _fill_dtype(fn, fill_value)
        fill = operand_for_dtype(fn, fill_value, dt, "fill_value")
    if dev is None:
        return call(_full_kernel, fill, shape=dims, dtype=dt)
    return wrap(place(_full_kernel(fill, shape=dims, dtype=dt), dev))  # exact, then placed


@fill(device=DEVICE)
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
    {device}

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


@fill(sections=_SHAPE_SECTIONS)
def zeros(shape, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape filled with zeros.

    Array API: zeros. NumPy: numpy.zeros.

    {sections}

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


@fill(sections=_SHAPE_SECTIONS)
def ones(shape, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape filled with ones.

    Array API: ones. NumPy: numpy.ones.

    {sections}

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


@fill(params=_SHAPE_PARAMS, raises_notes=_SHAPE_RAISES_NOTES)
def empty(shape, *, dtype=None, device=None) -> Array:
    """Return a new array of the given shape, uninitialised (laxarray: zeros).

    Array API: empty. NumPy: numpy.empty.

    {params}

    Returns
    -------
    Array
        An array of ``shape`` and ``dtype``, every element zero (NumPy leaves the values undefined).

    {raises_notes}

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
    dt = dtype_or_none(fn, dtype) or x.dtype
    dev = check_device(fn, device)
    if dev is None and len(all_devices()) > 1:
        dev = x.device  # the standard: the result goes to x's device (default when traced)
        if dev == default_device():
            dev = None
    return tuple(x.shape), dt, dev


@fill(dtype_device=_LIKE_DTYPE_DEVICE)
def full_like(x, /, fill_value, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x`` filled with ``fill_value``.

    Array API: full_like. NumPy: numpy.full_like.

    Parameters
    ----------
    x : array_like
        The array whose shape (and, by default, dtype and device) the result takes.
    fill_value : bool, int, float or complex
        The value of every element (a Python scalar or a 0-d array).
    {dtype_device}

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


@fill(sections=_LIKE_SECTIONS)
def zeros_like(x, /, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x`` filled with zeros.

    Array API: zeros_like. NumPy: numpy.zeros_like.

    {sections}

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


@fill(sections=_LIKE_SECTIONS)
def ones_like(x, /, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x`` filled with ones.

    Array API: ones_like. NumPy: numpy.ones_like.

    {sections}

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


@fill(params=_LIKE_PARAMS, raises_notes=_LIKE_RAISES_NOTES)
def empty_like(x, /, *, dtype=None, device=None) -> Array:
    """Return a new array with the shape of ``x``, uninitialised (laxarray: zeros).

    Array API: empty_like. NumPy: numpy.empty_like.

    {params}

    Returns
    -------
    Array
        An array of the shape of ``x``, every element zero (NumPy leaves the values undefined).

    {raises_notes}

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


__all__ = ["empty", "empty_like", "full", "full_like", "ones", "ones_like", "zeros", "zeros_like"]
