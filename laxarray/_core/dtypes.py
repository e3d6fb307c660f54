"""Data types: the standard's dtype objects, their categories and the promotion rules.

dtypes are plain NumPy dtype objects (``laxarray.float64 == numpy.dtype('float64')``).
Promotion between two array operands is one literal table (:data:`PROMOTION_TABLE`, in
``promotion_table.py``): NumPy
2's rules, which agree with the Array API table wherever the standard defines a result (and
extend it to mixed kinds as NumPy does: ``int64 + float32 -> float64``, ``int64 + uint64 ->
float64``).  Python scalars are *weak*
(NEP 50): they take the dtype of the array operand when their kind allows it.

``bfloat16`` (ml_dtypes' type, as in jax) is a real floating dtype beyond NumPy.  NumPy reports
its ``kind`` as ``'V'``, so library code never reads ``dtype.kind`` directly: it asks
:func:`kind_of`, and the promotion, category and ``finfo`` tables below are the one place that
knows what bfloat16 is.  Its promotion is jax's: any integer or bool with bfloat16 gives
bfloat16, float16 with bfloat16 gives float32, wider floats and complex types win.

Everything here is plain data plus small cached functions, so tests can read the tables.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from laxarray._core import backend as _backend
from laxarray._core.errors import DtypeValueError, fail
from laxarray._core.promotion_table import PROMOTION_TABLE

bool_ = np.dtype("bool")
int8, int16, int32, int64 = (np.dtype(n) for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (np.dtype(n) for n in ("uint8", "uint16", "uint32", "uint64"))
float16, float32, float64 = np.dtype("float16"), np.dtype("float32"), np.dtype("float64")
bfloat16 = np.dtype(ml_dtypes.bfloat16)
complex64, complex128 = np.dtype("complex64"), np.dtype("complex128")

SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
REAL_FLOATING = (float32, float64)
COMPLEX_FLOATING = (complex64, complex128)
#: The 13 data types of the standard, in the order the standard lists them.
DTYPES = (bool_,) + SIGNED + UNSIGNED + REAL_FLOATING + COMPLEX_FLOATING
#: NumPy's half precision and jax's bfloat16, beyond the standard: real floating dtypes for
#: every function (NumPy 2 promotion for float16: ``float16 + int8 -> float16``,
#: ``float16 + int16 -> float32``; jax's for bfloat16: ``bfloat16 + int64 -> bfloat16``).
EXTRA_FLOATING = (float16, bfloat16)
_REAL_FLOATING_ALL = EXTRA_FLOATING + REAL_FLOATING



# The default dtypes are the backend's (``_core/backend.py``): NumPy's 64-bit ones on the CPU,
# float32/complex64 and int32 indices on a TPU.  Functions, not constants: the record is
# known once jax's backend is, not when this module is imported.

def default_float():
    """The default real floating dtype of the current backend (float64 on the CPU)."""
    return _backend.current().defaults["real floating"]


def default_complex():
    """The default complex floating dtype of the current backend (complex128 on the CPU)."""
    return _backend.current().defaults["complex floating"]


def default_int():
    """The default integer dtype of the current backend (int64 on the CPU)."""
    return _backend.current().defaults["integral"]


def default_index():
    """The dtype of indices and counts on the current backend (int64 on the CPU)."""
    return _backend.current().defaults["indexing"]


def default_uint():
    """The unsigned integer of the default integer's width (uint64 on the CPU)."""
    return np.dtype(f"uint{default_int().itemsize * 8}")


def on_device(dtype):
    """``dtype`` as an implicit result on the current backend: itself where the backend
    has it, else its 32-bit stand-in (``Backend.narrow``)."""
    return _backend.current().narrow(dtype)

#: dtype kinds of ``isdtype`` and the ``category=`` argument used across the library.
CATEGORIES: dict[str, frozenset] = {
    "bool": frozenset({bool_}),
    "signed integer": frozenset(SIGNED),
    "unsigned integer": frozenset(UNSIGNED),
    "integral": frozenset(SIGNED + UNSIGNED),
    "real floating": frozenset(_REAL_FLOATING_ALL),
    "complex floating": frozenset(COMPLEX_FLOATING),
    "numeric": frozenset(SIGNED + UNSIGNED + _REAL_FLOATING_ALL + COMPLEX_FLOATING),
    # Library-internal unions used by function categories (not ``isdtype`` kinds).
    "integer or boolean": frozenset((bool_,) + SIGNED + UNSIGNED),
    "floating-point": frozenset(_REAL_FLOATING_ALL + COMPLEX_FLOATING),
    "real numeric": frozenset(SIGNED + UNSIGNED + _REAL_FLOATING_ALL),
    "real": frozenset((bool_,) + SIGNED + UNSIGNED + _REAL_FLOATING_ALL),
    "any": frozenset(DTYPES + EXTRA_FLOATING),
}
ISDTYPE_KINDS = ("bool", "signed integer", "unsigned integer", "integral",
                 "real floating", "complex floating", "numeric")

_SUPPORTED = frozenset(DTYPES + EXTRA_FLOATING)
_REAL_OF = {complex64: float32, complex128: float64}
_COMPLEX_OF = {float16: complex64, bfloat16: complex64, float32: complex64, float64: complex128}
#: NumPy kind letters where NumPy's own is wrong for laxarray (bfloat16 reports ``'V'``).
_KIND_OF = {bfloat16: "f"}


def kind_of(dtype) -> str:
    """The NumPy kind letter of ``dtype`` (``'b' 'i' 'u' 'f' 'c'``), with bfloat16 as ``'f'``.

    Library code dispatches on this, never on ``dtype.kind``, so bfloat16 is a real floating
    type everywhere.
    """
    dt = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)
    return _KIND_OF.get(dt, dt.kind)


def machine_limits(dtype):
    """NumPy's ``finfo`` for a real or complex floating dtype, bfloat16 included (ml_dtypes')."""
    return ml_dtypes.finfo(dtype) if np.dtype(dtype) == bfloat16 else np.finfo(dtype)


def real_dtype(dtype):
    """The real dtype of the same precision (``complex64 -> float32``); others unchanged."""
    return _REAL_OF.get(dtype, dtype)


def complex_dtype(dtype):
    """The complex dtype of the same precision (``float32 -> complex64``)."""
    return _COMPLEX_OF.get(dtype, complex128 if dtype not in COMPLEX_FLOATING else dtype)


@functools.lru_cache(maxsize=None)
def _canonical(obj):
    try:
        dt = np.dtype(obj)
    except TypeError:
        return None
    return dt if dt in _SUPPORTED else None


#: the Python types that name the backend's default dtype of their kind
_PYTHON_DEFAULTS = {int: default_int, float: default_float, complex: default_complex}


def canonicalize_dtype(fn: str, dtype, argname: str = "dtype", *, any_device=False):
    """Return the NumPy dtype for ``dtype`` or raise ``TypeError`` naming ``fn``.

    Accepts dtype objects, NumPy scalar types and the Python types ``bool int float complex``;
    ``int``, ``float`` and ``complex`` are the backend's default dtypes of their kind, as in
    jax (float64, complex128 on the CPU as in NumPy; float32, complex64 on a TPU, so that
    NumPy code's ``dtype=float`` runs there).  Any other dtype the current backend has no
    arrays of (``float64`` named on a TPU) raises ``TypeError``
    naming the backend too, unless ``any_device`` (the inspection functions: ``isdtype``,
    ``result_type``, ``can_cast``, ``finfo``, ``iinfo`` answer for every dtype).
    """
    if dtype is None:
        fail(TypeError, fn, f"a dtype for '{argname}'", dtype)
    try:
        dt = _PYTHON_DEFAULTS[dtype]() if dtype in _PYTHON_DEFAULTS else _canonical(dtype)
    except TypeError:  # unhashable
        dt = None
    if dt is None:
        fail(TypeError, fn, f"one of the supported dtypes for '{argname}' "
             f"({', '.join(d.name for d in DTYPES + EXTRA_FLOATING)})", dtype)
    if not any_device:
        record = _backend.current()
        if dt not in record.dtypes:
            record.check(fn, dt, argname)
    return dt


def isdtype(dtype, kind):
    """Return whether a dtype is of the given kind.

    Array API: isdtype. NumPy: numpy.isdtype.

    Parameters
    ----------
    dtype : dtype
        The dtype to test.
    kind : str, dtype or tuple of them
        A kind name (``"bool"``, ``"signed integer"``, ``"unsigned integer"``,
        ``"integral"``, ``"real floating"``, ``"complex floating"``, ``"numeric"``), a dtype,
        or a tuple of those (any of them matches).

    Returns
    -------
    bool
        Whether ``dtype`` is of ``kind``.

    Raises
    ------
    TypeError
        If ``dtype`` or a dtype in ``kind`` is not a supported dtype.
    ValueError
        If a string in ``kind`` is none of the kind names.

    Notes
    -----
    Static under ``jax.jit``: every argument.  bfloat16 is a real floating dtype.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.isdtype(xp.float32, "real floating")
    True
    >>> xp.isdtype(xp.int8, ("integral", "bool")), xp.isdtype(xp.uint8, "signed integer")
    (True, False)
    """
    dt = canonicalize_dtype("isdtype", dtype, any_device=True)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            if k not in ISDTYPE_KINDS:
                fail(ValueError, "isdtype", f"'kind' to be a dtype or one of {ISDTYPE_KINDS}", k)
            if dt in CATEGORIES[k]:
                return True
        elif canonicalize_dtype("isdtype", k, "kind", any_device=True) == dt:
            return True
    return False


@functools.lru_cache(maxsize=None)     # the backend's record is fixed for the process
def promote_types(d1, d2):
    """Result dtype of two array operands (the standard's table, NumPy 2 for mixed kinds).

    bfloat16 follows jax: it absorbs bool and every integer, meets float16 at float32, and
    yields to float32/float64 and the complex types.  On a backend without the result's
    dtype it takes its 32-bit stand-in (``int64 + uint64``, float64 in NumPy, is float32
    on a TPU).
    """
    return on_device(_promote_types(d1, d2))


def _promote_types(d1, d2):
    d1, d2 = np.dtype(d1), np.dtype(d2)
    result = PROMOTION_TABLE.get((d1, d2))
    if result is None:
        fail(TypeError, "promote_types", "two of laxarray's dtypes", f"{d1} and {d2}")
    return result


#: the order in which :func:`result_type` folds several dtypes: complex, then real
#: floating, then integer, then bool (NumPy's ``result_type`` of mixed kinds:
#: ``int8, uint16, float32 -> float32``, where folding left to right gives float64)
_KIND_ORDER = {"c": 0, "f": 1, "i": 2, "u": 2, "b": 3}


#: Python scalar types in kind order; a weak scalar joins an array dtype by kind.
_PY_KIND = {bool: 0, int: 1, float: 2, complex: 3}
_DTYPE_KIND = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _default_for_kind(skind):
    return (bool_, default_int(), default_float(), default_complex())[skind]


@functools.lru_cache(maxsize=None)     # the backend's record is fixed for the process
def weak_promote(dtype, pytype):
    """Result dtype of an array of ``dtype`` with a Python scalar of ``pytype`` (NEP 50)."""
    skind, dkind = _PY_KIND[pytype], _DTYPE_KIND[kind_of(dtype)]
    if skind <= dkind:
        return dtype
    if skind == 3 and dkind == 2:
        return on_device(_COMPLEX_OF[dtype])
    return _default_for_kind(skind)


def scalar_pytype(value):
    """``bool``/``int``/``float``/``complex`` for a Python (or NumPy Python-like) scalar, else None."""
    t = type(value)
    if t in _PY_KIND:
        return t
    for base in (bool, int, float, complex):  # subclasses (e.g. IntEnum), checked in kind order
        if isinstance(value, base) and not isinstance(value, np.generic):
            return base
    return None


def default_dtype_for_pytype(pytype):
    """The dtype a lone Python scalar of ``pytype`` becomes (the backend's default)."""
    return _default_for_kind(_PY_KIND[pytype])


def result_type(*arrays_and_dtypes):
    """Return the dtype that results from promoting the given arrays, dtypes and scalars.

    Array API: result_type. NumPy: numpy.result_type.

    Parameters
    ----------
    *arrays_and_dtypes : array, dtype or Python scalar
        Arrays and dtypes (strong) and Python scalars (weak: they join only by kind, NEP 50).

    Returns
    -------
    numpy.dtype
        The promoted dtype.

    Raises
    ------
    TypeError
        If an argument is neither an array, a supported dtype nor a Python scalar.
    ValueError
        If no argument is given.

    Notes
    -----
    Static under ``jax.jit``: every argument (a dtype is a Python value; an array gives its
    dtype).

    Strong dtypes of mixed kinds promote all at once as in NumPy (``int8, uint16, float32 ->
    float32``, where folding pairwise would give float64); with bfloat16, jax's pairwise rule.
    Python scalars alone give the default dtype of the highest kind.  On a backend without
    the result's dtype it is its 32-bit stand-in (float64 is float32 on a TPU).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.result_type(xp.int32, xp.float32)
    dtype('float64')
    >>> xp.result_type(xp.asarray([1], dtype=xp.int8), 1.0)
    dtype('float64')
    >>> xp.result_type(xp.asarray([1.0], dtype=xp.float32), 1.0)
    dtype('float32')
    """
    strongs, weak = [], []
    for a in arrays_and_dtypes:
        pytype = scalar_pytype(a)
        if pytype is not None:
            weak.append(pytype)
            continue
        dt = None if isinstance(a, type) else getattr(a, "dtype", None)
        strongs.append(canonicalize_dtype("result_type", a if dt is None else dt,
                                          "arrays_and_dtypes", any_device=True))
    strong = None
    if strongs and bfloat16 not in strongs:
        strong = functools.reduce(_promote_types, sorted(
            strongs, key=lambda d: _KIND_ORDER[kind_of(d)]))
    elif strongs:
        strong = functools.reduce(promote_types, strongs)
    if strong is None:
        if not weak:
            fail(ValueError, "result_type", "at least one array or dtype", "no arguments")
        strong = default_dtype_for_pytype(max(weak, key=_PY_KIND.__getitem__))
        return strong
    for pytype in weak:
        strong = weak_promote(strong, pytype)
    return on_device(strong)


def can_cast(from_, to, /):
    """Return whether a dtype casts to another under the promotion rules (a "safe" cast).

    Array API: can_cast. NumPy: numpy.can_cast.

    Parameters
    ----------
    from_ : dtype or array
        The dtype to cast from (an array gives its dtype).
    to : dtype
        The dtype to cast to.

    Returns
    -------
    bool
        Whether every value of ``from_`` is a value of ``to`` (NumPy's ``casting="safe"``).

    Raises
    ------
    TypeError
        If ``from_`` or ``to`` is not a supported dtype (nor an array).

    Notes
    -----
    Static under ``jax.jit``: every argument.  Answers for every dtype, also one the current
    backend has no arrays of (float64 on a TPU).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.can_cast(xp.int32, xp.int64), xp.can_cast(xp.float64, xp.int64)
    (True, False)
    >>> xp.can_cast(xp.asarray([1]), xp.float64)
    True
    """
    src = getattr(from_, "dtype", None)
    src = canonicalize_dtype("can_cast", from_ if src is None else src, "from_", any_device=True)
    dst = canonicalize_dtype("can_cast", to, "to", any_device=True)
    return bool(np.can_cast(src, dst, casting="safe"))


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (the standard's ``finfo_object``), as
    :func:`finfo` returns them.

    Attributes
    ----------
    bits : int
        The number of bits of the dtype.
    eps : float
        The difference between 1.0 and the next larger representable value.
    max : float
        The largest finite value.
    min : float
        The most negative finite value (``-max``).
    smallest_normal : float
        The smallest positive normal value.
    dtype : numpy.dtype
        The real floating dtype these are the limits of.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.finfo(xp.float32).bits
    32
    """

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype (the standard's ``iinfo_object``), as :func:`iinfo`
    returns them.

    Attributes
    ----------
    bits : int
        The number of bits of the dtype.
    max : int
        The largest value.
    min : int
        The smallest value.
    dtype : numpy.dtype
        The integer dtype these are the limits of.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.iinfo(xp.uint8).max
    255
    """

    bits: int
    max: int
    min: int
    dtype: np.dtype


def _dtype_of(fn, value):
    dt = None if isinstance(value, type) else getattr(value, "dtype", None)
    return canonicalize_dtype(fn, value if dt is None else dt, "type", any_device=True)


def finfo(type, /):
    """Return the machine limits of a floating-point dtype.

    Array API: finfo. NumPy: numpy.finfo.

    Parameters
    ----------
    type : dtype or array
        A real or complex floating dtype (an array gives its dtype).

    Returns
    -------
    finfo_object
        ``bits``, ``eps``, ``max``, ``min``, ``smallest_normal`` (Python floats) and
        ``dtype``; for a complex dtype those of its real component.

    Raises
    ------
    TypeError
        If ``type`` is not a floating dtype (the error is also a ``ValueError``, as NumPy's)
        or not a supported dtype.

    Notes
    -----
    Static under ``jax.jit``: ``type``.  Answers for every dtype, also one the current
    backend has no arrays of (float64 on a TPU).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.finfo(xp.float64).eps
    2.220446049250313e-16
    >>> xp.finfo(xp.complex64).dtype
    dtype('float32')
    """
    dt = _dtype_of("finfo", type)
    if dt not in CATEGORIES["floating-point"]:
        fail(DtypeValueError, "finfo", "a floating-point dtype for 'type'", dt)
    info = machine_limits(dt)
    return finfo_object(int(info.bits), float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), real_dtype(dt))


def iinfo(type, /):
    """Return the machine limits of an integer dtype.

    Array API: iinfo. NumPy: numpy.iinfo.

    Parameters
    ----------
    type : dtype or array
        An integer dtype (an array gives its dtype).

    Returns
    -------
    iinfo_object
        ``bits``, ``max``, ``min`` (Python ints) and ``dtype``.

    Raises
    ------
    TypeError
        If ``type`` is not an integer dtype (the error is also a ``ValueError``, as NumPy's)
        or not a supported dtype.

    Notes
    -----
    Static under ``jax.jit``: ``type``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.iinfo(xp.int8)
    iinfo_object(bits=8, max=127, min=-128, dtype=dtype('int8'))
    """
    dt = _dtype_of("iinfo", type)
    if dt not in CATEGORIES["integral"]:
        fail(DtypeValueError, "iinfo", "an integer dtype for 'type'", dt)
    info = np.iinfo(dt)
    return iinfo_object(int(info.bits), int(info.max), int(info.min), dt)


@functools.lru_cache(maxsize=None)
def int_range(dtype) -> tuple[int, int]:
    """``(lowest, highest)`` value of the integer NumPy dtype ``dtype``, as Python ints
    (cached: eager hot paths read it on every call)."""
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def check_category(fn: str, argname: str, dtype, category: str):
    """Raise ``TypeError`` unless ``dtype`` belongs to ``category`` (a key of CATEGORIES)."""
    if dtype not in CATEGORIES[category]:
        fail(TypeError, fn, f"{_article(category)} {category} dtype for '{argname}'", dtype)


def _article(word):
    return "an" if word[0] in "aeiou" else "a"


__all__ = ["DTYPES", "CATEGORIES", "result_type", "can_cast", "finfo", "iinfo", "isdtype",
           "promote_types", "weak_promote", "canonicalize_dtype", "kind_of", "machine_limits"]
