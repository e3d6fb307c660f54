"""The Array object: a handle on one jax value.

Semantics, stated once:

* An ``Array`` holds exactly one jax value (a ``jax.Array`` or, under a trace, a tracer).
  It is a pytree with that one leaf, so ``jax.jit``/``jax.vmap``/``jax.lax.scan`` take and
  return laxarray arrays unchanged.
* Values are immutable; the Python object is a handle.  ``x[i] = v`` and ``x += y`` *rebind*
  the handle to a functionally updated value.  Every other handle to the same ``Array``
  object sees the new value (as with NumPy), but slices and reshapes are **copies, never
  views**: writing into ``y = x[1:]`` never changes ``x``, and vice versa.
* Arrays are created only through :func:`wrap` (``Array(...)`` raises); user code calls
  ``laxarray.asarray``.
"""

from __future__ import annotations

import math

import jax
import numpy as np

from laxarray._core import dtypes as _dt
from laxarray._core import kernel as _kernel
from laxarray._core.devices import check_device, default_device
from laxarray._core.errors import fail, fail_text, tracer_conversion
from laxarray._core.jaxapi import Tracer

_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


class Array:
    """An n-dimensional array backed by one jax value. Array API: the array object.

    Build one with ``laxarray.asarray``; see the module docstring for the handle semantics
    of ``__setitem__`` and in-place operators (rebinding, copies not views).
    """

    __slots__ = ("_value", "__weakref__")
    __array_priority__ = 100
    __array_ufunc__ = None  # NumPy binary ops defer to our reflected operators
    __hash__ = None

    def __init__(self, *args, **kwargs):
        raise TypeError("Array: arrays are not built directly; use laxarray.asarray(obj)")

    # ---- attributes -------------------------------------------------------------------
    @property
    def dtype(self):
        """Data type of the elements (a NumPy dtype object)."""
        return self._value.dtype

    @property
    def shape(self):
        """Tuple of dimensions."""
        return self._value.shape

    @property
    def ndim(self):
        """Number of dimensions."""
        return self._value.ndim

    @property
    def size(self):
        """Number of elements."""
        return math.prod(self._value.shape)

    @property
    def device(self):
        """The device holding the array (the default device while tracing)."""
        value = self._value
        if isinstance(value, Tracer):
            return default_device()
        return next(iter(value.devices()))

    @property
    def T(self):
        """Transpose of a matrix (axes reversed, as NumPy does for any rank)."""
        from laxarray.array_api.manipulation import permute_dims
        return permute_dims(self, tuple(range(self.ndim - 1, -1, -1)))

    @property
    def mT(self):
        """Transpose of the last two axes (a stack of matrices). Array API: mT."""
        if self.ndim < 2:
            fail(ValueError, "Array.mT", "an array of rank >= 2", self)
        from laxarray.array_api.manipulation import permute_dims
        axes = tuple(range(self.ndim - 2)) + (self.ndim - 1, self.ndim - 2)
        return permute_dims(self, axes)

    # ---- conversions to Python scalars ------------------------------------------------
    def _scalar(self, op):
        value = self._value
        if isinstance(value, Tracer):
            tracer_conversion(f"Array.{op}")
        if value.ndim != 0:
            if op == "__bool__" and math.prod(value.shape) != 1:
                fail_text(ValueError, "Array.__bool__", "the truth value of an array with "
                          "other than one element is ambiguous; use laxarray.any or laxarray.all")
            fail(TypeError, f"Array.{op}", "a 0-d array", self)
        return np.asarray(value)[()]

    def __bool__(self):
        return bool(self._scalar("__bool__"))

    def __int__(self):
        v = self._scalar("__int__")
        if _dt.kind_of(v.dtype) == "c":
            fail(TypeError, "Array.__int__", "a real array", self)
        return int(v)

    def __float__(self):
        v = self._scalar("__float__")
        if _dt.kind_of(v.dtype) == "c":
            fail(TypeError, "Array.__float__", "a real array", self)
        return float(v)

    def __complex__(self):
        return complex(self._scalar("__complex__"))

    def __index__(self):
        if _dt.kind_of(self.dtype) not in "iu":
            fail(TypeError, "Array.__index__", "an integer array", self)
        return int(self._scalar("__index__"))

    # ---- protocols --------------------------------------------------------------------
    def __array_namespace__(self, /, *, api_version=None):
        """The namespace of this array: ``laxarray``. Array API: __array_namespace__."""
        if api_version is not None and api_version not in _API_VERSIONS:
            fail(ValueError, "Array.__array_namespace__",
                 f"'api_version' None or one of {_API_VERSIONS}", api_version)
        import laxarray
        return laxarray

    def __array__(self, dtype=None, copy=None):
        """A NumPy array with the same values (writable unless ``copy=False``)."""
        if isinstance(self._value, Tracer):
            tracer_conversion("Array.__array__")
        if copy is False:
            out = np.asarray(self._value)
            if dtype is not None and out.dtype != dtype:
                fail(ValueError, "Array.__array__", "no copy to be needed with copy=False",
                     dtype)
            return out
        return np.array(self._value, dtype=dtype, copy=True)

    def __jax_array__(self):
        return self._value

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export through DLPack. Array API: __dlpack__."""
        kwargs = {"stream": stream, "copy": copy, "dl_device": dl_device}
        if max_version is not None:
            kwargs["max_version"] = max_version
        return self._value.__dlpack__(**kwargs)

    def __dlpack_device__(self, /):
        """``(device type, device id)`` for DLPack. Array API: __dlpack_device__."""
        return self._value.__dlpack_device__()

    def to_device(self, device, /, *, stream=None):
        """Copy to ``device`` (a jax Device). Array API: to_device. Not traceable."""
        dev = check_device("Array.to_device", device)
        if dev is None:
            fail(ValueError, "Array.to_device", "a device", device)
        if stream is not None:
            fail(ValueError, "Array.to_device", "stream=None (jax manages streams)", stream)
        if isinstance(self._value, Tracer):
            return self
        return wrap(jax.device_put(self._value, dev))

    def __len__(self):
        if self.ndim == 0:
            fail(TypeError, "Array.__len__", "an array of rank >= 1", self)
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            fail(TypeError, "Array.__iter__", "an array of rank >= 1", self)
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self):
        value = self._value
        if isinstance(value, Tracer):
            return f"Array({value!r})"
        # NumPy's repr with the class name swapped ("array(" and "Array(" have one length,
        # so continuation lines stay aligned): shape= for empty arrays, dtype= as NumPy.
        return "Array" + np.array_repr(np.asarray(value))[len("array"):]

    def __str__(self):
        if isinstance(self._value, Tracer):
            return repr(self)
        return str(np.asarray(self._value))

    def __format__(self, spec):
        if self.ndim == 0 and not isinstance(self._value, Tracer):
            return format(np.asarray(self._value)[()], spec)
        return format(str(self), spec)

    def __reduce__(self):
        return (_from_numpy, (np.asarray(self._value),))

    def __copy__(self):
        return wrap(self._value)

    def __deepcopy__(self, memo):
        return wrap(self._value)

    # ---- indexing (defined in laxarray.array_api._indexing) ---------------------------
    def __getitem__(self, key, /):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value, /):
        self._value = _indexing.setitem_value(self, key, value)

    @property
    def at(self):
        """Functional indexed updates: ``x.at[key].set(v)``, ``.add``, ``.get(mode=...)``...
        (new arrays; ``x`` is unchanged). jax: x.at. See ``laxarray.array_api._indexing_at``."""
        from laxarray.array_api._indexing_at import IndexUpdateHelper
        return IndexUpdateHelper(self)


_new = object.__new__


def wrap(value) -> Array:
    """The one constructor: an ``Array`` handle on a raw jax value (no checks, no copy)."""
    out = _new(Array)
    out._value = value
    return out


def _from_numpy(arr):
    return wrap(jax.device_put(arr))


jax.tree_util.register_pytree_node(
    Array, lambda a: ((a._value,), None), lambda _, children: wrap(children[0]))
_kernel.register_array_type(Array, wrap)

from laxarray.array_api import _indexing  # noqa: E402  (needs Array and wrap)
