"""The Array object: a handle on one jax value.

Semantics, stated once:

* An ``Array`` holds exactly one jax value (a ``jax.Array`` or, under a trace, a tracer).
  It is a pytree with that one leaf, so ``jax.jit``/``jax.vmap``/``jax.lax.scan`` take and
  return laxarray arrays unchanged.
* Values are immutable; the Python object is a handle.  ``x[i] = v`` and ``x += y`` *rebind*
  the handle to a functionally updated value (under :data:`WRITE_LOCK`).  What NumPy
  returns as a view is a view (``_view``, see ``laxarray.array_api._views``): writing into
  ``y = x[1:]`` changes ``x`` and every other view of it, as in NumPy.
* A small concrete array may also (or only) be held *padded* to its bucket shape (see
  ``laxarray._core.runtime.kernel``): ``_pad`` is then the padded device value and ``_lshape`` the
  logical shape; the exact value ``_value`` is cut from it when first needed and kept.
  ``_pad is False`` records that the array is not bucketed.  Rebinding sets both.
* Arrays are created only through this module's constructors -- :func:`wrap`,
  :func:`wrap_padded`, :func:`wrap_padded_like`, :func:`wrap_view` (``Array(...)``
  raises); user code calls ``laxarray.asarray``.
* The four slots are this module's (``_views`` also reads ``_view``, the view state it
  defines): every other module goes through the Array's methods -- ``_value``,
  ``_padded()``, ``_held()``, ``_is_traced()``, ``_state()``, ``_rebind()`` -- and
  :func:`check_writable`.
* The operations sit above this module (they build Arrays); the class declares its
  operators, indexing and NumPy's methods, and finds their bodies by name in
  ``laxarray.array_api._method_bodies``, which the modules defining them fill.
"""

from __future__ import annotations

import math
import sys
import threading
from typing import Any, Callable, Union

import jax
import numpy as np

from laxarray._core import dtypes as _dt
from laxarray._core import buckets as _buckets
from laxarray._core.devices import check_device, default_device, device_of, place
from laxarray._core.errors import fail, fail_text, tracer_conversion
from laxarray._core.jaxapi import ConcreteArray, Tracer, device_put
from laxarray._core.jax_regions import ARRAY_TYPE
from laxarray.array_api._method_bodies import NUMPY_METHODS, OPERATIONS

#: DLPack's device type of the host's memory (``kDLCPU``)
_DL_CPU = 1
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")

#: What an operator accepts besides an Array (anything else: ``NotImplemented``).
Operand = Union["Array", bool, int, float, complex, np.ndarray, np.generic, jax.Array,
                list, tuple]
_BinaryOp = Callable[["Array", Operand], "Array"]
_UnaryOp = Callable[["Array"], "Array"]


def _binary(fname: str, stem: str | None = None) -> tuple[_BinaryOp, _BinaryOp, _BinaryOp]:
    """``__op__``, ``__rop__`` and ``__iop__`` calling the standard's function ``fname``
    (its body: ``OPERATIONS[fname]``, from ``elementwise`` or ``linear_algebra``)."""
    stem = stem or fname

    def forward(self, other, /):
        if type(other) is not Array and not _accepts(other):
            return NotImplemented
        return OPERATIONS[fname](self, other)

    def reflected(self, other, /):
        if not _accepts(other):
            return NotImplemented
        return OPERATIONS[fname](other, self)

    def inplace(self, other, /):
        if type(other) is not Array and not _accepts(other):
            return NotImplemented
        with WRITE_LOCK:  # read-modify-write, as __setitem__
            return OPERATIONS["update_in_place"](self, other, OPERATIONS[fname], stem)

    for fn, name in ((forward, f"__{stem}__"), (reflected, f"__r{stem}__"),
                     (inplace, f"__i{stem}__")):
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f"``{fname}`` as an operator (Array API: {name})."
    return forward, reflected, inplace


class _NumpyMethod:
    """A NumPy ``ndarray`` method declared on ``Array``: the function of that name in
    :data:`NUMPY_METHODS`, bound to the array (``Array.sum`` is the function itself, with
    its signature and docstring)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, objtype=None) -> Callable[..., Any]:
        fn = NUMPY_METHODS[self.name]
        return fn if obj is None else fn.__get__(obj, objtype)


class _NumpyProperty:
    """A NumPy ``ndarray`` property declared on ``Array`` (``x.real``, ``x.imag``): the
    function of that name in :data:`NUMPY_METHODS` applied to the array; assigning to it
    writes through it, as NumPy's ``x.real = v`` does."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, objtype=None) -> Any:
        fn = NUMPY_METHODS[self.name]
        return self if obj is None else fn(obj)

    def __set__(self, obj, value):
        # NumPy's ``x.real = v``: a write through the part's view
        if self.name == "imag" and _dt.kind_of(obj.dtype) != "c":
            fail_text(TypeError, "Array.imag", "array does not have imaginary part to set")
        self.__get__(obj)[...] = value


def _comparison(fname: str, stem: str) -> _BinaryOp:
    """The elementwise comparison ``__{stem}__`` calling ``fname``."""
    return _binary(fname, stem)[0]


def _unary(fname: str, stem: str) -> _UnaryOp:
    """The unary ``__{stem}__``: ``x.__neg__()`` is ``negative(x)``."""
    def op(self, /):
        return OPERATIONS[fname](self)
    op.__name__ = op.__qualname__ = f"__{stem}__"
    op.__doc__ = f"``{fname}`` as an operator (Array API: __{stem}__)."
    return op


class Array:
    """An n-dimensional array backed by one jax value. Array API: the array object.

    Build one with ``laxarray.asarray``; see the module docstring for the handle semantics
    of ``__setitem__`` and in-place operators (rebinding, NumPy's views).
    """

    __slots__ = ("_v", "_pad", "_lshape", "_view", "__weakref__")
    __array_priority__ = 100
    __hash__ = None

    def __init__(self, *args, **kwargs):
        raise TypeError("Array: arrays are not built directly; use laxarray.asarray(obj)")

    # ---- the value: exact, or padded to a bucket shape -----------------------------------
    @property
    def _value(self):
        """The exact raw value (cut from the padded one, once, if only that is held)."""
        v = self._v
        if v is None:
            if self._view is not None:  # a view: its current value (_views)
                return self._view.value(self)._value
            p = self._pad
            v = _buckets.unpad_raw(p, self._lshape)
            if self._pad is p:  # kept unless another thread rebound the handle meanwhile
                self._v = v
        return v

    def _padded(self):
        """The bucket-shaped raw value (made on first use and kept), or ``False``."""
        p = self._pad
        if p is None:
            if self._view is not None:
                return self._view.value(self)._padded()
            v = self._v
            p = _buckets.pad_raw(v)
            p = False if p is None else p
            if self._v is v:  # kept unless another thread rebound the handle meanwhile
                self._pad = p
        return p

    def block_until_ready(self) -> Array:
        """Wait until the value is computed; returns ``self``. jax: block_until_ready."""
        v = self._v if self._v is not None else self._pad
        if v is None:
            v = self._value
        if not isinstance(v, Tracer):
            v.block_until_ready()
        return self

    # ---- attributes -------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        """Data type of the elements (a NumPy dtype object)."""
        v = self._v
        if v is None:
            v = self._pad
            if v is None:
                return self._view.dtype
        return v.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        """Tuple of dimensions."""
        v = self._v
        return v.shape if v is not None else self._lshape

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        return math.prod(self.shape)

    def _held(self):
        """The jax value that holds the data as it is (unpadded, padded or materialised),
        without materialising anything."""
        value = self._v if self._v is not None else self._pad
        return self._value if value is None else value

    def _state(self):
        """``(exact, padded)``: the objects the handle holds now (``None`` where not made).
        A rebind replaces them, so ``_views`` tells by identity whether a root changed."""
        return self._v, self._pad

    def _is_traced(self) -> bool:
        """Whether the handle holds a tracer (a view holds nothing itself: ``False``)."""
        v = self._v
        return isinstance(self._pad if v is None else v, Tracer)

    @property
    def device(self):
        """The device holding the array: a jax Device, or the array's ``jax.sharding.Sharding``
        when it spans several devices (as ``jax.Array.device``); the default device while
        tracing."""
        value = self._held()
        return default_device() if isinstance(value, Tracer) else device_of(value)

    @property
    def sharding(self):
        """The ``jax.sharding.Sharding`` of the array's data (``None`` while tracing: the
        partitioner decides it at compile time)."""
        value = self._held()
        return None if isinstance(value, Tracer) else value.sharding

    @property
    def base(self) -> Array | None:
        """The array whose data this view shares (NumPy's ``ndarray.base``), or ``None``."""
        return None if self._view is None else self._view.root

    @property
    def T(self) -> Array:
        """Transpose of a matrix (axes reversed, as NumPy does for any rank)."""
        return OPERATIONS["permute_dims"](self, tuple(range(self.ndim - 1, -1, -1)))

    @property
    def mT(self) -> Array:
        """Transpose of the last two axes (a stack of matrices). Array API: mT."""
        if self.ndim < 2:
            fail(ValueError, "Array.mT", "an array of rank >= 2", self)
        axes = tuple(range(self.ndim - 2)) + (self.ndim - 1, self.ndim - 2)
        return OPERATIONS["permute_dims"](self, axes)

    # ---- conversions to Python scalars ------------------------------------------------
    def _scalar(self, op):
        if self._is_traced():
            tracer_conversion(f"Array.{op}")
        shape = self.shape
        if len(shape) != 0:
            if op == "__bool__":  # NumPy: any one-element array has a truth value
                if math.prod(shape) == 1:
                    return self._host().reshape(())[()]
                fail_text(ValueError, "Array.__bool__", "the truth value of an array with "
                          "other than one element is ambiguous; use laxarray.any or laxarray.all")
            fail(TypeError, f"Array.{op}", "a 0-d array", self)
        return self._host()[()]

    def _host0(self):
        """The host copy (a 0-d NumPy array) of a concrete 0-d exact value, else ``None``:
        the hot path of ``bool``/``int``/``float``, which scikit-learn calls in loops (jax
        keeps one host copy per value, so a second read copies nothing)."""
        v = self._v
        if type(v) is ConcreteArray and not v.shape:
            return np.asarray(v)
        return None

    def __bool__(self) -> bool:
        h = self._host0()
        if h is not None:
            return bool(h)
        return bool(self._scalar("__bool__"))

    def _real_scalar(self, op):
        """The host value of ``int``/``float`` (``op``): a real 0-d array's."""
        v = self._host0()
        if v is None:
            v = self._scalar(op)
        if _dt.kind_of(v.dtype) == "c":
            fail(TypeError, f"Array.{op}", "a real array", self)
        return v

    def __int__(self) -> int:
        return int(self._real_scalar("__int__"))

    def __float__(self) -> float:
        return float(self._real_scalar("__float__"))

    def __complex__(self) -> complex:
        v = self._scalar("__complex__")
        if _dt.kind_of(v.dtype) == "f" and math.isnan(v):
            return complex(math.nan, math.nan)  # the standard's NaN + NaN j, not Python's
        return complex(v)

    def __index__(self) -> int:
        h = self._host0()
        if h is not None and _dt.kind_of(h.dtype) in "iu":
            return int(h)
        if _dt.kind_of(self.dtype) not in "iu":
            fail(TypeError, "Array.__index__", "an integer array", self)
        return int(self._scalar("__index__"))

    # ---- protocols --------------------------------------------------------------------
    def __array_namespace__(self, /, *, api_version=None):
        """The namespace of this array: ``laxarray``. Array API: __array_namespace__."""
        if api_version is not None and api_version not in _API_VERSIONS:
            fail(ValueError, "Array.__array_namespace__",
                 f"'api_version' None or one of {_API_VERSIONS}", api_version)
        return sys.modules["laxarray"]  # loaded first, as the parent of this module

    def _host(self):
        """The exact value as a (read-only) NumPy array, without a device round trip."""
        v = self._v
        if v is None:
            if self._view is not None:
                return self._view.value(self)._host()
            if isinstance(self._pad, Tracer):
                tracer_conversion("Array.__array__")
            return np.asarray(self._pad)[tuple(slice(0, n) for n in self._lshape)]
        if isinstance(v, Tracer):
            tracer_conversion("Array.__array__")
        return np.asarray(v)

    def _padded_host(self):
        """The exact value as a (read-only) NumPy array where the handle holds a concrete
        padded value alone, else ``None``: for an index key, which is read on the host anyway
        (a mask's count, the indices' range), without first cutting the padding on the
        device (a round trip through the host itself, then read back)."""
        if self._v is None and self._view is None and type(self._pad) is ConcreteArray:
            return self._host()
        return None

    def __array__(self, dtype=None, copy=None):
        """A NumPy array with the same values (writable unless ``copy=False``)."""
        host = self._host()
        if copy is False:
            if dtype is not None and host.dtype != dtype:
                fail(ValueError, "Array.__array__", "no copy to be needed with copy=False",
                     dtype)
            return host
        return np.array(host, dtype=dtype, copy=True)

    def __jax_array__(self):
        return self._value

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export through DLPack. Array API: __dlpack__.

        The capsule is jax's (an unversioned DLPack 0.x ``"dltensor"``, which every
        consumer reads): for any ``max_version`` -- also one below jax's own, such as
        ``(0, 0)``, where the standard asks for the older format rather than an error.
        """
        if max_version is not None and not (
                isinstance(max_version, tuple) and len(max_version) == 2
                and all(type(v) is int for v in max_version)):
            fail(TypeError, "Array.__dlpack__", "a (major, minor) tuple of ints or None for "
                 "'max_version'", max_version)
        kwargs = {"stream": stream, "copy": copy, "dl_device": dl_device}
        if max_version is not None and max_version[0] >= 1:
            kwargs["max_version"] = max_version
        own = self._own_dlpack_device()
        if dl_device is not None and tuple(dl_device) != own:
            return self._dlpack_on_host(dl_device, own, copy, kwargs.get("max_version"))
        if own is None:
            self.__dlpack_device__()              # raises: DLPack cannot name the device
        return self._value.__dlpack__(**kwargs)

    def _own_dlpack_device(self):
        """``(device type, id)`` of the array's memory, or None where DLPack has no type for
        it (a TPU's memory)."""
        try:
            kind, ident = self._value.__dlpack_device__()
        except BufferError:
            return None
        return (kind, ident)

    def _dlpack_on_host(self, dl_device, own, copy, max_version):
        """A capsule in the host's memory for a consumer asking for it from an array on an
        accelerator (``np.from_dlpack(x, device="cpu")``, which scikit-learn's ``move_to``
        calls): a NumPy copy, as jax's own export needs jax's CPU backend, which a process
        started with ``JAX_PLATFORMS=tpu`` does not have."""
        where = f"{own!r}" if own is not None else self._dlpack_place()
        if tuple(dl_device) != (_DL_CPU, 0):
            fail_text(BufferError, "Array.__dlpack__", "cannot export to DLPack device "
                      f"{tuple(dl_device)!r} from {where}: only the array's own device and "
                      f"the host ({_DL_CPU}, 0) are reachable")
        if copy is False:
            fail_text(BufferError, "Array.__dlpack__", f"exporting to the host from {where} "
                      "needs a copy, and copy=False")
        host = np.array(self._host(), copy=True)   # writable: a read-only one cannot export
        return host.__dlpack__(max_version=max_version)

    def __dlpack_device__(self, /):
        """``(device type, device id)`` for DLPack. Array API: __dlpack_device__.

        DLPack has no device type for a TPU's memory: there it raises ``BufferError``, and
        ``__dlpack__(dl_device=(1, 0))`` (``np.from_dlpack(x, device="cpu")``) exports a
        host copy."""
        own = self._own_dlpack_device()
        if own is None:
            fail_text(BufferError, "Array.__dlpack_device__", "DLPack has no device type for "
                      f"{self._dlpack_place()}: export a host copy with "
                      "np.from_dlpack(x, device='cpu') or np.asarray(x)")
        return own

    def _dlpack_place(self):
        dev = self.device
        platform = getattr(dev, "platform", None)
        return f"a {platform} device" if platform else "an array on several devices"

    def to_device(self, device, /, *, stream=None) -> Array:
        """Copy to ``device`` (a jax Device or a ``jax.sharding.Sharding``). Array API: to_device.

        Under ``jax.jit`` the array is returned as it is (placement is the jit's).
        """
        dev = check_device("Array.to_device", device)
        if dev is None:
            fail(ValueError, "Array.to_device", "a device", device)
        if stream is not None:
            fail(ValueError, "Array.to_device", "stream=None (jax manages streams)", stream)
        if isinstance(self._value, Tracer):
            return self
        return wrap(place(self._value, dev))

    def __len__(self) -> int:
        if self.ndim == 0:
            fail(TypeError, "Array.__len__", "an array of rank >= 1", self)
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            fail(TypeError, "Array.__iter__", "an array of rank >= 1", self)
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self) -> str:
        if self._is_traced():
            return f"Array({self._value!r})"
        # NumPy's repr with the class name swapped ("array(" and "Array(" have one length,
        # so continuation lines stay aligned): shape= for empty arrays, dtype= as NumPy.
        return "Array" + np.array_repr(self._host())[len("array"):]

    def __str__(self) -> str:
        if self._is_traced():
            return repr(self)
        return str(self._host())

    def __format__(self, spec):
        if self.ndim == 0 and not self._is_traced():
            return format(self._host()[()], spec)
        return format(str(self), spec)

    def __reduce__(self):
        return (_from_numpy, (np.array(self._host()),))

    def __copy__(self):
        return _copy_handle(self)

    def __deepcopy__(self, memo):
        return _copy_handle(self)

    # ---- operators: one table, one row per operator (bodies in _operators) ---------------
    # Each binary row gives the forward, reflected and in-place forms of one standard
    # function; the in-place form keeps the dtype and shape (NumPy's same-kind casting).
    __add__, __radd__, __iadd__ = _binary("add")
    __sub__, __rsub__, __isub__ = _binary("subtract", "sub")
    __mul__, __rmul__, __imul__ = _binary("multiply", "mul")
    __truediv__, __rtruediv__, __itruediv__ = _binary("divide", "truediv")
    __floordiv__, __rfloordiv__, __ifloordiv__ = _binary("floor_divide", "floordiv")
    __mod__, __rmod__, __imod__ = _binary("remainder", "mod")
    __pow__, __rpow__, __ipow__ = _binary("pow")
    __matmul__, __rmatmul__, __imatmul__ = _binary("matmul")
    __and__, __rand__, __iand__ = _binary("bitwise_and", "and")
    __or__, __ror__, __ior__ = _binary("bitwise_or", "or")
    __xor__, __rxor__, __ixor__ = _binary("bitwise_xor", "xor")
    __lshift__, __rlshift__, __ilshift__ = _binary("bitwise_left_shift", "lshift")
    __rshift__, __rrshift__, __irshift__ = _binary("bitwise_right_shift", "rshift")
    __eq__ = _comparison("equal", "eq")  # type: ignore[assignment]  # elementwise, as NumPy's
    __ne__ = _comparison("not_equal", "ne")  # type: ignore[assignment]
    __lt__ = _comparison("less", "lt")
    __le__ = _comparison("less_equal", "le")
    __gt__ = _comparison("greater", "gt")
    __ge__ = _comparison("greater_equal", "ge")
    __neg__ = _unary("negative", "neg")
    __pos__ = _unary("positive", "pos")
    __abs__ = _unary("abs", "abs")
    __invert__ = _unary("bitwise_invert", "invert")

    # ---- NumPy's ndarray methods: one table (bodies in laxarray.numpy_api.methods) ------
    # NumPy's ufuncs call laxarray's function of the same name (numpy_api.array_ufunc)
    __array_ufunc__ = _NumpyMethod("__array_ufunc__")
    tolist = _NumpyMethod("tolist")
    item = _NumpyMethod("item")
    astype = _NumpyMethod("astype")
    reshape = _NumpyMethod("reshape")
    flatten = _NumpyMethod("flatten")
    ravel = _NumpyMethod("ravel")
    squeeze = _NumpyMethod("squeeze")
    transpose = _NumpyMethod("transpose")
    swapaxes = _NumpyMethod("swapaxes")
    conj = _NumpyMethod("conj")
    conjugate = _NumpyMethod("conjugate")
    copy = _NumpyMethod("copy")
    view = _NumpyMethod("view")
    round = _NumpyMethod("round")
    clip = _NumpyMethod("clip")
    cumsum = _NumpyMethod("cumsum")
    sort = _NumpyMethod("sort")
    argsort = _NumpyMethod("argsort")
    dot = _NumpyMethod("dot")
    nonzero = _NumpyMethod("nonzero")
    sum = _NumpyMethod("sum")
    prod = _NumpyMethod("prod")
    mean = _NumpyMethod("mean")
    max = _NumpyMethod("max")
    min = _NumpyMethod("min")
    all = _NumpyMethod("all")
    any = _NumpyMethod("any")
    std = _NumpyMethod("std")
    var = _NumpyMethod("var")
    argmax = _NumpyMethod("argmax")
    argmin = _NumpyMethod("argmin")
    real = _NumpyProperty("real")
    imag = _NumpyProperty("imag")

    # ---- indexing (bodies in laxarray.array_api._indexing) -----------------------------
    def __getitem__(self, key, /) -> Array:
        """``x[key]``: NumPy's indexing. Array API: __getitem__.

        Parameters
        ----------
        key : int, slice, Ellipsis, None, array, or a tuple of these
            Basic keys (integers, slices, ``...``, ``None`` for a new axis of length 1)
            select a view of ``x``; integer arrays or sequences and boolean masks
            (advanced indexing, with NumPy's rules for where the indexed axes go) select
            a copy.

        Returns
        -------
        Array
            For a basic key a view: writes through it change ``x`` and every other view
            of it. A key of integers only gives a 0-d array holding a copy, where NumPy
            gives a scalar. For an advanced key a new array.

        Raises
        ------
        IndexError
            A concrete index out of range, or a key of another kind (a string, a float).
        ValueError
            A traced boolean mask (under ``jax.jit`` or ``vmap`` the number of ``True``
            elements would decide the shape: ``x.at[mask].get(size=N, fill_value=v)``
            gives a result of length ``N``).

        Notes
        -----
        Index values are data: ``x[i]`` compiles once per shape and kind of key, not
        once per value of ``i``. Under ``jax.jit`` a traced integer index out of range is
        clamped into range, as in jax (a concrete one raises).

        Examples
        --------
        >>> import laxarray as xp
        >>> x = xp.reshape(xp.arange(12), (3, 4))
        >>> x[1]
        Array([4, 5, 6, 7])
        >>> x[1:, ::2]
        Array([[ 4,  6],
               [ 8, 10]])
        >>> x[x > 8]
        Array([ 9, 10, 11])
        >>> row = x[0]
        >>> row[:] = -1               # a view: the write changes x
        >>> x[0].tolist()
        [-1, -1, -1, -1]
        """
        return OPERATIONS["getitem"](self, key)

    def __setitem__(self, key, value, /) -> None:
        """``x[key] = value``: write into ``x``, as NumPy does. Array API: __setitem__.

        Values are immutable: the handle ``x`` is rebound to the updated value. A view
        writes through to the array it views, and so changes every other view of it.

        Parameters
        ----------
        key : int, slice, Ellipsis, None, array, or a tuple of these
            As for ``x[key]``; a boolean mask may be traced here (the write keeps the
            shape).
        value : Array, Python scalar, NumPy array or nested sequence
            Broadcasts to ``x[key].shape``. An array's dtype must promote to ``x.dtype``;
            Python scalars are weak (an ``int`` written into a float array is fine, a
            ``complex`` into a real one raises).

        Raises
        ------
        IndexError
            As for ``x[key]``.
        ValueError
            ``value`` does not broadcast to ``x[key].shape``, or ``x`` is a read-only
            view (of ``broadcast_to`` or ``diagonal``).
        TypeError
            ``value``'s dtype or kind does not fit ``x.dtype``.

        Notes
        -----
        Under ``jax.jit``, ``vmap`` and ``grad`` a write is a functional update of the
        traced value, and differentiable.

        Examples
        --------
        >>> import laxarray as xp
        >>> x = xp.zeros(5)
        >>> x[1:3] = 5.0
        >>> x[x > 1] += 1.0
        >>> x
        Array([0., 6., 6., 0., 0.])
        >>> x[0] = 1j
        Traceback (most recent call last):
        ...
        TypeError: Array.__setitem__: expected a real scalar for 'value' with a real array of float64; got 1j (type complex)
        """
        with WRITE_LOCK:  # read-modify-write: threads writing one array must not lose updates
            OPERATIONS["setitem"](self, key, value)

    def _rebind(self, other):
        """Point this handle at ``other``'s value (``x[key] = v``, in-place operators); a
        view writes it through to its root (``_views``).  Every intermediate state is
        consistent (an exact value, a padded one, or both)."""
        if self._view is not None:
            OPERATIONS["write_view"](self, other)
            return
        if other._view is not None:
            other = wrap(other._value)
        if other._v is None:
            self._lshape = other._lshape
        self._pad = None
        self._v = other._v
        self._pad = other._pad

    @property
    def at(self):
        """Functional indexed updates: ``x.at[key].set(v)``, ``.add``, ``.get(mode=...)``...
        (new arrays; ``x`` is unchanged). jax: x.at. See ``laxarray.array_api._indexing_at``."""
        return OPERATIONS["at"](self)


_new = object.__new__

#: Serialises the read-modify-write of ``x[key] = v`` and in-place operators, so threads
#: writing into one array (scikit-learn's threaded ``pairwise_distances``) lose no update.
WRITE_LOCK = threading.RLock()


# a 32-bit caller's trace is seen in the arguments of laxarray's functions (an Array of a
# tracer): jax_regions.in_wide_region's test, which cannot import this module
ARRAY_TYPE[0] = Array


def wrap(value) -> Array:
    """An ``Array`` handle on a raw jax value (no checks, no copy).  The handle's other
    makers are :func:`wrap_padded` and :func:`wrap_padded_like` (a bucket-shaped value),
    :func:`wrap_view` (a view) and :func:`_copy_handle`; each sets every slot."""
    out = _new(Array)
    out._v = value
    out._pad = None
    out._view = None
    return out


def wrap_padded(padded, shape) -> Array:
    """An ``Array`` of logical ``shape`` held as the bucket-shaped raw value ``padded``."""
    out = _new(Array)
    out._pad = padded
    out._lshape = shape
    out._v = padded if padded.shape == shape else None
    out._view = None
    return out


def wrap_padded_like(padded, x) -> Array:
    """An ``Array`` of ``x``'s logical shape held as the bucket-shaped raw value ``padded``
    (an elementwise kernel's result on ``x``'s padded value: the unary hot path)."""
    out = _new(Array)
    out._pad = padded
    v = x._v
    out._lshape = x._lshape if v is None else v.shape
    out._v = out._view = None
    return out


def wrap_view(info, shape) -> Array:
    """The view ``Array`` of logical ``shape`` whose state is ``info`` (a ``_views.ViewInfo``:
    its root, chain and cached value); its own value slots stay empty."""
    out = _new(Array)
    out._v = None
    out._pad = None
    out._lshape = shape
    out._view = info
    return out


def check_writable(fn, x) -> None:
    """``ValueError`` (NumPy's) for a write into a read-only view, before any work."""
    info = x._view
    if info is not None and info.readonly:
        fail_text(ValueError, fn, "assignment destination is read-only (a view made by "
                  "broadcast_to, diagonal or a real array's .imag; write into a copy)")


def _copy_handle(x):
    """A new, independent handle on ``x``'s current value (a copy: values are immutable)."""
    if x._view is not None:
        return wrap(x._value)
    out = _new(Array)
    out._v, out._pad, out._view = x._v, x._pad, None
    if x._v is None:
        out._lshape = x._lshape
    return out


def _from_numpy(arr):
    return wrap(device_put(arr))


jax.tree_util.register_pytree_node(
    Array, lambda a: ((a._value,), None), lambda _, children: wrap(children[0]))

_OPERAND_TYPES = (Array, bool, int, float, complex, np.ndarray, np.generic, list, tuple,
                  jax.Array)
_EXACT_TYPES = frozenset((Array, float, int, bool, complex))


def _accepts(other):
    return type(other) in _EXACT_TYPES or isinstance(other, _OPERAND_TYPES)
