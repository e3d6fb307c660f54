"""Creation functions of the standard that make an array from data: asarray, from_dlpack
(filled arrays: ``creation_filled``; ranges, grids and triangles: ``creation_ranges``).

Shapes, dtypes and scalar parameters (``start``, ``num``, ``k`` ...) are static: under
``jax.jit`` they must be Python values, and each distinct combination compiles once.
``device=`` takes a jax Device (``x.device``, ``info.devices()``) or ``None``.
"""

from __future__ import annotations


import jax
import jax.dlpack as _jax_dlpack
import numpy as np

from laxarray._core.docstrings import fill
from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_device, place
from laxarray._core.errors import fail
from laxarray._core.jaxapi import Tracer, device_put, in_wide_mode
from laxarray._core.validate import check_bool
from laxarray.array_api._array import Array, _copy_handle, wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, operand_for_dtype, to_raw
from laxarray.array_api.data_types import _astype_kernel


#: the ``device`` parameter of the creation functions that place a new array (``fill``)
DEVICE = """
device : jax.Device, str or jax.sharding.Sharding, optional
    Where to place the result: one of ``__array_namespace_info__().devices()``, a platform
    name (``"cpu"``) or a sharding over them; default ``None``, the default device.
"""


def _convert(x, dtype):
    """``x`` converted to ``dtype`` by astype's kernel (one kernel, bucketed when small)."""
    return call(_astype_kernel, x, dtype=dtype)


def dtype_or_none(fn, dtype):
    return None if dtype is None else _dt.canonicalize_dtype(fn, dtype)


@fill(device=DEVICE)
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
    {device}
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
    dt = dtype_or_none("asarray", dtype)
    dev = check_device("asarray", device)
    if copy is not None:
        check_bool("asarray", copy, "copy")
    if isinstance(obj, Array) or isinstance(obj, (jax.Array, Tracer)):
        x = as_array("asarray", obj, "obj")
        if dt is not None and x.dtype != dt:
            if copy is False:
                fail(ValueError, "asarray", "no copy to be needed with copy=False", dt)
            out = _convert(x, dt)
            return out if dev is None else wrap(place(out._value, dev))
        if isinstance(obj, Array) and copy is not True and dev is None:
            return obj
        if isinstance(obj, Array) and dev is None:
            return _copy_handle(obj)
        return wrap(place(x._value, dev))
    if copy is False:
        fail(ValueError, "asarray", "an Array or jax array (a copy is needed) with copy=False",
             obj)
    if dt is not None:
        pytype = _dt.scalar_pytype(obj)
        if pytype is not None:
            return wrap(place(operand_for_dtype("asarray", obj, dt, "obj"), dev))
        if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array__"):
            raw = from_dlpack(obj)._value
        else:
            raw = to_raw("asarray", _host_cast(obj, dt), "obj")
        if _dt.kind_of(raw.dtype) == "c" and _dt.kind_of(dt) != "c":
            fail(TypeError, "asarray", f"a real 'obj' for dtype {dt}", obj)
        # already of the dtype asked for: no conversion kernel (nor its compile per shape)
        out = wrap(raw) if raw.dtype == dt else _convert(wrap(raw), dt)
        return out if dev is None else wrap(place(out._value, dev))
    if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array__"):
        return from_dlpack(obj, device=device)
    return wrap(place(to_raw("asarray", obj, "obj"), dev))


def _host_cast(obj, dtype):
    """A NumPy array of a dtype the backend lacks (float64 on a TPU), cast by NumPy to
    ``dtype`` on the host, rounded once (NumPy's cast is laxarray's ``astype``); anything
    else -- complex data for a real dtype included, which ``asarray`` refuses -- as it is."""
    if not isinstance(obj, (np.ndarray, np.generic)) or _backend.current().supports(obj.dtype):
        return obj
    if obj.dtype.kind == "c" and _dt.kind_of(dtype) != "c":
        return obj
    return obj.astype(dtype)


_DL_CPU = 1  # DLPack's kDLCPU device type


def _dlpack_on_host(x):
    try:
        return int(x.__dlpack_device__()[0]) == _DL_CPU
    except (AttributeError, TypeError, ValueError, IndexError):
        return False


@in_wide_mode
@fill(device=DEVICE)
def from_dlpack(x, /, *, device=None, copy=None) -> Array:
    """Return an Array from an object implementing the DLPack protocol.

    Array API: from_dlpack. NumPy: numpy.from_dlpack.

    Parameters
    ----------
    x : object
        An object with ``__dlpack__`` (and ``__dlpack_device__``): a NumPy array, a jax
        array, a torch tensor, an Array ...
    {device}
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
        return wrap(place(x._value, dev))
    if isinstance(x, (jax.Array, Tracer)):
        return wrap(place(to_raw("from_dlpack", x, "x"), dev))
    if not hasattr(x, "__dlpack__"):
        fail(TypeError, "from_dlpack", "an object with __dlpack__ for 'x'", x)
    if copy and _dlpack_on_host(x):
        # jax copies host buffers asynchronously (a write to x right after the call can
        # still reach the result): take a private NumPy copy first
        return wrap(place(device_put(np.array(np.from_dlpack(x), copy=True)), dev))
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
    return wrap(place(to_raw("from_dlpack", raw, "x"), dev))


__all__ = ["asarray", "from_dlpack"]
