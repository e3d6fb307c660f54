"""Turning user objects into raw jax values: Arrays, jax/NumPy arrays, sequences, scalars.

Python scalars are weak (NEP 50): :func:`scalar_operand` converts one to a given dtype,
raising when the value cannot be represented (an integer out of range, a complex into a
real array).  Converted scalars are cached as device values, which keeps the eager path of
``x + 1.0`` as fast as ``x + y``.
"""

from __future__ import annotations

import math

import jax
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.errors import describe, fail, message
from laxarray._core.jaxapi import Tracer, device_put
from laxarray.array_api._array import Array, wrap


class ScalarOverflowError(OverflowError, ValueError):
    """A Python integer outside the range of the array's integer dtype."""


_SCALAR_CACHE: dict = {}
_SCALAR_CACHE_MAX = 4096


def _scalar_key(value, dtype):
    if type(value) is float and value == 0.0:
        return (dtype, float, value, math.copysign(1.0, value))
    if type(value) is complex:
        return (dtype, complex, value.real, value.imag,
                math.copysign(1.0, value.real), math.copysign(1.0, value.imag))
    return (dtype, type(value), value)


def scalar_operand(fn: str, value, dtype, argname: str = "x"):
    """A device 0-d value of ``dtype`` holding the Python scalar ``value``."""
    key = _scalar_key(value, dtype)
    try:
        return _SCALAR_CACHE[key]
    except (KeyError, TypeError):
        pass
    kind = _dt.kind_of(dtype)
    if kind in "iu" and not isinstance(value, bool):
        if not isinstance(value, int):
            fail(TypeError, fn, f"a Python int for '{argname}' with an integer array", value)
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise ScalarOverflowError(message(
                fn, f"a Python int for '{argname}' within the range of {dtype} "
                f"[{info.min}, {info.max}]", value))
    elif kind != "c" and isinstance(value, complex):
        fail(TypeError, fn, f"a real scalar for '{argname}' with a real array of {dtype}",
             value)
    elif kind == "b" and not isinstance(value, bool):
        fail(TypeError, fn, f"a Python bool for '{argname}' with a bool array", value)
    out = device_put(np.asarray(value, dtype=dtype))
    if isinstance(out, Tracer):
        # under jax.jit device_put is traced: never cache a tracer (it would leak into
        # later traces and eager calls); a NumPy scalar is embedded as a literal instead
        return np.asarray(value, dtype=dtype)
    if len(_SCALAR_CACHE) >= _SCALAR_CACHE_MAX:
        _SCALAR_CACHE.clear()
    if not (type(value) is float and value != value):
        _SCALAR_CACHE[key] = out
    return out


def to_raw(fn: str, obj, argname: str = "x"):
    """The raw jax value of an array-like: Array, jax/NumPy array, nested sequence or scalar.

    Python scalars get the default dtype of their kind.  Unsupported dtypes (object, str
    ...) raise ``TypeError`` naming ``fn`` and ``argname``; data of a dtype the backend
    lacks (float64 on a TPU) takes the backend's type of its kind (:func:`_narrowed`).
    """
    t = type(obj)
    if t is Array:
        return obj._value
    if isinstance(obj, (jax.Array, Tracer)):
        _check_supported(fn, obj.dtype, obj, argname)
        _backend.current().check(fn, obj.dtype, argname)
        return obj
    pytype = _dt.scalar_pytype(obj)
    if pytype is not None:
        return scalar_operand(fn, obj, _dt.default_dtype_for_pytype(pytype), argname)
    if isinstance(obj, Array):  # subclass
        return obj._value
    if isinstance(obj, (list, tuple)) and has_traced(obj):
        return _stack_traced(fn, obj, argname)
    try:
        arr = np.asarray(obj)
    except (ValueError, TypeError, OverflowError) as exc:  # NumPy's class (ragged: ValueError)
        fail(ValueError if isinstance(exc, ValueError) else TypeError, fn,
             f"an array-like for '{argname}' ({exc})", obj)
    _check_supported(fn, arr.dtype, obj, argname)
    record = _backend.current()
    if arr.dtype not in record.dtypes:
        arr = _narrowed(fn, obj, arr, record, argname)
    if arr is obj or arr.base is not None:
        # jax may read a NumPy buffer after device_put returns (or alias it on CPU), so a
        # later write to the caller's array could change ours: hand jax a private copy.
        arr = arr.copy()
    return device_put(arr)


def as_array(fn: str, obj, argname: str = "x") -> Array:
    """``obj`` itself if it is an Array, else an Array of :func:`to_raw`'s value (so kernels
    that may run bucketed see the padded form of a laxarray input)."""
    if type(obj) is Array:
        return obj
    return wrap(to_raw(fn, obj, argname))


def _narrowed(fn, obj, arr, record, argname):
    """``arr`` (NumPy's reading of ``obj``), of a dtype the backend lacks (float64 on a TPU),
    in the backend's type of its kind: data arrives as the device holds it, float64 as
    float32 and complex128 as complex64 on a TPU, as jax.numpy gives it there (and as a
    Python float becomes float32 there).  Only data is converted so: a dtype asked for
    (``dtype=float64``, ``astype``) raises ``TypeError`` (``dtypes.canonicalize_dtype``)."""
    with np.errstate(over="ignore"):
        return np.asarray(obj, dtype=record.narrow(arr.dtype))


def _check_supported(fn, dtype, obj, argname):
    if dtype not in _dt.CATEGORIES["any"]:
        fail(TypeError, fn, f"an array-like of a supported dtype for '{argname}'", obj)


def has_traced(seq) -> bool:
    """Whether a nested list/tuple holds a traced value."""
    for item in seq:
        if isinstance(item, (list, tuple)):
            if has_traced(item):
                return True
        elif isinstance(item, Tracer) or (isinstance(item, Array) and
                                          isinstance(item._value, Tracer)):
            return True
    return False


def _stack_traced(fn, seq, argname):
    items = [to_raw(fn, item, argname) for item in seq]
    dtype = _dt.result_type(*[i.dtype for i in items])
    shapes = {tuple(i.shape) for i in items}
    if len(shapes) != 1:
        fail(ValueError, fn, f"a rectangular nested sequence for '{argname}'", seq)
    items = [lax.expand_dims(lax.convert_element_type(i, dtype), (0,)) for i in items]
    return lax.concatenate(items, 0)


def operand_for_dtype(fn: str, value, dtype, argname: str):
    """A raw value that may be stored into an array of ``dtype`` (``__setitem__``, ``full``).

    Python scalars follow :func:`scalar_operand`; arrays may not lose an imaginary part.
    """
    pytype = _dt.scalar_pytype(value)
    if pytype is not None:
        if pytype is float and _dt.kind_of(dtype) in "iu":
            return device_put(np.asarray(value).astype(dtype))
        if pytype is int and _dt.kind_of(dtype) == "b":
            fail(TypeError, fn, f"a bool for '{argname}' with a bool array", value)
        if pytype is not bool and _dt.kind_of(dtype) == "b":
            fail(TypeError, fn, f"a bool for '{argname}' with a bool array", value)
        return scalar_operand(fn, value, dtype, argname)
    raw = to_raw(fn, value, argname)
    if _dt.kind_of(raw.dtype) == "c" and _dt.kind_of(dtype) != "c":
        fail(TypeError, fn, f"a real '{argname}' for an array of {dtype} (the imaginary part "
             "would be lost)", value)
    return raw


_KIND_ORDER = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def value_operand(fn, value, dtype, argname="value"):
    """A raw value (or the laxarray Array itself) to store into an array of ``dtype``.

    Python scalars, NumPy scalars (read as the Python scalar they hold) and (untraced)
    nested sequences of them are weak: they may not be of a higher kind than ``dtype``
    (bool < int < float < complex; a float into an integer array truncates, as NumPy).
    An array's dtype must promote to ``dtype`` (the standard's rule) or be of the same or a
    lower kind: then it is cast, as NumPy casts (``complex128`` values into a ``complex64``
    array; the standard leaves this case to the implementation).
    """
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        value = value.item()
    if _dt.scalar_pytype(value) is not None:
        return operand_for_dtype(fn, value, dtype, argname)
    if isinstance(value, (list, tuple)) and not has_traced(value):
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError) as exc:
            fail(TypeError, fn, f"an array-like for '{argname}' ({exc})", value)
        if _dt.kind_of(arr.dtype) not in _KIND_ORDER:
            fail(TypeError, fn, f"numbers for '{argname}'", value)
        if arr.size and _KIND_ORDER[_dt.kind_of(arr.dtype)] > _KIND_ORDER[_dt.kind_of(dtype)]:
            fail(TypeError, fn, f"values of a kind storable in {dtype} for '{argname}'",
                 value)
        if _dt.kind_of(arr.dtype) in "iu" and _dt.kind_of(dtype) in "iu" and arr.size:
            info = np.iinfo(dtype)
            if arr.min() < info.min or arr.max() > info.max:
                fail(ValueError, fn, f"values within the range of {dtype} for '{argname}'",
                     value)
        return arr.astype(dtype)
    raw = value if type(value) is Array else to_raw(fn, value, argname)
    if (raw.dtype != dtype and _dt.promote_types(raw.dtype, dtype) != dtype
            and _KIND_ORDER[_dt.kind_of(raw.dtype)] > _KIND_ORDER[_dt.kind_of(dtype)]):
        fail(TypeError, fn, f"a '{argname}' of a kind storable in {dtype} (complex into "
             f"real or float into integer loses more than rounding; use astype to cast)",
             value)
    return raw


__all__ = ["as_array", "to_raw", "scalar_operand", "operand_for_dtype", "value_operand",
           "has_traced", "ScalarOverflowError", "describe"]
