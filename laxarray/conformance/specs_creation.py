"""Conformance specs of the standard's creation functions (oracle: NumPy).

Every check is namespace-generic: it takes ``xp``, builds inputs with NumPy, and compares
``xp``'s result (dtype by name, shape, values) with NumPy's.  Defaults that the standard
leaves to the library (the default integer / floating dtypes, the default device) are read
from ``xp.__array_namespace_info__()``.  ``device=`` is exercised with the namespace's own
default device, and ``copy=`` through the observable contract: a copy is independent of its
source (writing ``src[...] = v`` afterwards leaves it unchanged), and ``copy=False`` raises
``ValueError`` where a copy cannot be avoided (a Python list).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from . import promotion, strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, dtype_name, to_numpy)
from .spec import (Spec, arrays_mutable, as_xp, register, resolve,
                                       xp_dtype)

# ---- helpers shared by the data-type specs (specs_data_types) ------------------------------


def info(xp):
    """The namespace's inspection object."""
    return xp.__array_namespace_info__()


def default_name(xp, kind):
    """Name of the namespace's default dtype of ``kind`` (``"real floating"`` ...)."""
    return dtype_name(info(xp).default_dtypes()[kind])


def default_device(xp):
    """The namespace's default device."""
    return info(xp).default_device()


def check_device(fn, out, device):
    """``out.device`` must equal ``device``."""
    if out.device != device:
        raise ConformanceError(f"{fn}: result device {out.device!r}, expected {device!r}")


def check_array(fn, out, expected, dtype=None, *, scale=None, signed_zeros=True):
    """dtype (``dtype`` or the oracle's), shape and values of ``out`` against NumPy
    ``expected``, within ``fn``'s bound (with its ``scale``)."""
    expected = np.asarray(expected)
    assert_dtype(fn, out, dtype or expected.dtype.name)
    assert_shape(fn, out, expected.shape)
    got = to_numpy(out)
    if got.dtype.kind == expected.dtype.kind:
        expected = expected.astype(got.dtype, copy=False)
    assert_values(fn, got, expected, scale=scale, signed_zeros=signed_zeros)


def expect_error(fn, exc_types, call):
    """``call()`` must raise one of ``exc_types``."""
    try:
        call()
    except exc_types:
        return
    except Exception as exc:  # noqa: BLE001 - report the wrong type
        raise ConformanceError(f"{fn}: raised {type(exc).__name__} ({exc}); expected "
                               f"{' or '.join(e.__name__ for e in exc_types)}") from exc
    raise ConformanceError(f"{fn}: no error; expected "
                           f"{' or '.join(e.__name__ for e in exc_types)}")


def check_independent(fn, source, out, write):
    """After ``write()`` changes ``source``, ``out`` must still hold its old values.

    Left out when ``source`` is an array of a namespace whose arrays are immutable
    (:func:`~laxarray.conformance.spec.arrays_mutable`): no write can tell a copy there."""
    if type(source) is not np.ndarray and not arrays_mutable():
        return
    before = to_numpy(out).copy()
    write()
    after = to_numpy(out)
    if not np.array_equal(before, after, equal_nan=before.dtype.kind in "fc"):
        raise ConformanceError(f"{fn}: result changed when its source was written to "
                               "(expected a copy)")


def _draw_dtype(data, group, label="dtype"):
    return data.draw(S.dtypes(group), label=label)


def _draw_array(data, dtype, shape=None, label="x", **kw):
    if shape is None:
        shape = data.draw(S.shapes(), label=f"{label} shape")
    return data.draw(S.arrays(dtype, shape, **kw), label=label)


def _shape_arg(data):
    """A ``shape`` argument: an int or a tuple (0-d and empty included)."""
    return data.draw(st.one_of(st.integers(0, 4), S.shapes()), label="shape")


def _pyscalar_for(data, dtype_name_, label="fill_value"):
    """A Python scalar of a kind the standard allows to fill an array of ``dtype_name_``."""
    dt = np.dtype(dtype_name_)
    if dt.kind == "b":
        return data.draw(st.booleans(), label=label)
    if dt.kind in "iu":
        info_ = np.iinfo(dt)
        return data.draw(st.integers(int(info_.min), int(info_.max)), label=label)
    value = data.draw(S.scalars(dt), label=label)
    value = complex(value) if dt.kind == "c" else float(value)
    if data.draw(st.booleans(), label="int fill"):
        return data.draw(st.integers(-1000, 1000), label=label)
    return value


_PY_DEFAULT_KIND = {bool: "bool", int: "integral", float: "real floating",
                    complex: "complex floating"}


def _default_for_pyvalue(xp, value):
    kind = _PY_DEFAULT_KIND[type(value)]
    return "bool" if kind == "bool" else default_name(xp, kind)


def _maybe_device(data, xp):
    """``(kwargs, device)``: either no ``device=`` or the default device passed explicitly."""
    if data.draw(st.booleans(), label="pass device"):
        dev = default_device(xp)
        return {"device": dev}, dev
    return {}, None


# ---- arange --------------------------------------------------------------------------------
def _arange_check(xp, data):
    use_float = data.draw(st.booleans(), label="float arguments")
    if use_float:
        num = st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 3))
        start, stop = data.draw(num, label="start"), data.draw(num, label="stop")
        step = data.draw(st.one_of(st.floats(0.25, 10), st.floats(-10, -0.25)), label="step")
        step = round(step, 3)
    else:
        start = data.draw(st.integers(-30, 30), label="start")
        stop = data.draw(st.integers(-30, 30), label="stop")
        step = data.draw(st.integers(-7, 7).filter(bool), label="step")
    one_arg = not use_float and data.draw(st.booleans(), label="arange(stop)")
    dtype = None
    if data.draw(st.booleans(), label="dtype given"):
        dtype = _draw_dtype(data, "real floating" if use_float else "signed integer")
    kw, dev = _maybe_device(data, xp)
    if dtype is not None:
        kw["dtype"] = xp_dtype(xp, dtype)
    if one_arg:
        out = xp.arange(stop, **kw)
        expected = np.arange(stop, dtype=dtype)
        start, step = 0, 1
    else:
        out = xp.arange(start, stop, step, **kw)
        expected = np.arange(start, stop, step, dtype=dtype)
    if dtype is None:
        dtype = default_name(xp, "real floating" if use_float else "integral")
    length = max(0, math.ceil((stop - start) / step))
    if expected.shape != (length,):  # the oracle itself disagrees: the standard's length wins
        raise ConformanceError(f"arange: NumPy length {expected.shape[0]} != {length}")
    # the standard fixes no sign of a zero element (start -0.0: NumPy writes start itself,
    # start + 0 * step is +0)
    check_array("arange", out, expected, dtype, scale=abs(start) + abs(step) * length,
                signed_zeros=False)
    if dev is not None:
        check_device("arange", out, dev)


# ---- asarray -------------------------------------------------------------------------------
def _nested(values, shape):
    if not shape:
        return values[0]
    step = len(values) // shape[0] if shape[0] else 0
    return [_nested(values[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


_PY_ELEMENTS = {
    "bool": st.booleans(),
    "int": st.one_of(st.booleans(), st.integers(-2**62, 2**62)),
    "float": st.one_of(st.booleans(), st.integers(-2**20, 2**20),
                       st.floats(allow_nan=True, allow_infinity=True)),
    "complex": st.one_of(st.integers(-100, 100), st.floats(-1e6, 1e6),
                         st.complex_numbers(allow_nan=False, allow_infinity=False,
                                            max_magnitude=1e30)),
}


def _asarray_python(xp, data):
    """Nested sequences of Python scalars: the dtype follows the standard's precedence."""
    kind = data.draw(st.sampled_from(tuple(_PY_ELEMENTS)), label="element kind")
    shape = data.draw(S.shapes(min_dims=1, min_side=1), label="shape")
    n = math.prod(shape)
    values = data.draw(st.lists(_PY_ELEMENTS[kind], min_size=n, max_size=n), label="values")
    if kind == "float" and not any(type(v) is float for v in values):
        values[0] = 0.5
    if kind == "complex" and not any(type(v) is complex for v in values):
        values[0] = 1j
    if kind == "int" and not any(type(v) is int for v in values):
        values[0] = 3
    kind_type = {"bool": bool, "int": int, "float": float, "complex": complex}[kind]
    if data.draw(st.booleans(), label="nested"):
        obj = _nested(values, shape)
    else:
        obj = next(v for v in values if type(v) is kind_type)
    expected_name = {"bool": "bool", "int": default_name(xp, "integral"),
                     "float": default_name(xp, "real floating"),
                     "complex": default_name(xp, "complex floating")}[kind]
    out = xp.asarray(obj)
    check_array("asarray", out, np.asarray(obj, dtype=expected_name), expected_name)


def _asarray_array(xp, data):
    """From NumPy arrays, buffers and the namespace's own arrays; ``dtype=``, ``device=``."""
    dtype = _draw_dtype(data, "any")
    x = _draw_array(data, dtype)
    source = data.draw(st.sampled_from(("numpy", "xp", "buffer")), label="source")
    obj = {"numpy": x, "xp": as_xp(xp, x), "buffer": memoryview(np.array(x, order="C"))}[source]
    if source == "buffer" and dtype == "bool":
        obj = x  # the buffer protocol's '?' format: not every consumer reads it
    kw, dev = _maybe_device(data, xp)
    target = dtype
    if data.draw(st.booleans(), label="dtype given"):
        # a same-kind, promotion-safe target (the standard leaves other casts unspecified)
        kinds = [d for d in S.ALL if np.dtype(d).kind == np.dtype(dtype).kind
                 and promotion.promote(dtype, d) == d]
        target = data.draw(st.sampled_from(kinds), label="target dtype")
        kw["dtype"] = xp_dtype(xp, target)
    out = xp.asarray(obj, **kw)
    check_array("asarray", out, x.astype(target), target)
    if dev is not None:
        check_device("asarray", out, dev)
    elif source == "xp":
        check_device("asarray", out, obj.device)


def _asarray_copy(xp, data):
    """``copy=True`` gives an independent array; ``copy=False`` never copies or raises."""
    dtype = _draw_dtype(data, "real numeric")
    x = _draw_array(data, dtype, data.draw(S.shapes(min_dims=1, min_side=1), label="shape"))
    src = as_xp(xp, x)
    out = xp.asarray(src, copy=True)
    check_array("asarray", out, x, dtype)
    fill = xp.asarray(0, dtype=xp_dtype(xp, dtype))

    def write():
        src[...] = fill
    check_independent("asarray(copy=True)", src, out, write)
    same = xp.asarray(src, copy=False)  # no copy needed: must succeed
    check_array("asarray", same, np.zeros_like(x) if arrays_mutable() else x, dtype)
    expect_error("asarray(list, copy=False)", (ValueError,),
                 lambda: xp.asarray(x.tolist(), copy=False))
    np_src = x.copy()
    out = xp.asarray(np_src, copy=True)

    def write_np():
        np_src[...] = 0
    check_independent("asarray(numpy, copy=True)", np_src, out, write_np)


def _asarray_check(xp, data):
    mode = data.draw(st.sampled_from((_asarray_python, _asarray_array, _asarray_copy)),
                     label="mode")
    mode(xp, data)


# ---- zeros / ones / empty / full and their *_like ----------------------------------------
def _filled_check(name, fill):
    def check(xp, data):
        shape = _shape_arg(data)
        dtype = None
        kw, dev = _maybe_device(data, xp)
        if data.draw(st.booleans(), label="dtype given"):
            dtype = _draw_dtype(data, "any")
            kw["dtype"] = xp_dtype(xp, dtype)
        out = resolve(xp, name)(shape, **kw)
        expected_dtype = dtype or default_name(xp, "real floating")
        dims = (shape,) if isinstance(shape, int) else shape
        if fill is None:
            assert_dtype(name, out, expected_dtype)
            assert_shape(name, out, dims)
        else:
            check_array(name, out, np.full(dims, fill, dtype=expected_dtype), expected_dtype)
        if dev is not None:
            check_device(name, out, dev)
    return check


def _full_check(xp, data):
    shape = _shape_arg(data)
    kw, dev = _maybe_device(data, xp)
    if data.draw(st.booleans(), label="dtype given"):
        dtype = _draw_dtype(data, "any")
        fill = _pyscalar_for(data, dtype)
        kw["dtype"] = xp_dtype(xp, dtype)
    else:
        dtype_of = data.draw(st.sampled_from(S.ALL[:-5] + S.FLOATING), label="kind of")
        fill = _pyscalar_for(data, dtype_of)
        dtype = _default_for_pyvalue(xp, fill)
    out = xp.full(shape, fill, **kw)
    dims = (shape,) if isinstance(shape, int) else shape
    with np.errstate(all="ignore"):
        expected = np.full(dims, fill, dtype=dtype)
    check_array("full", out, expected, dtype)
    if dev is not None:
        check_device("full", out, dev)


def _like_check(name, fill):
    def check(xp, data):
        src_dtype = _draw_dtype(data, "any")
        x = _draw_array(data, src_dtype)
        xx = as_xp(xp, x)
        kw, dev = _maybe_device(data, xp)
        dtype = src_dtype
        if data.draw(st.booleans(), label="dtype given"):
            dtype = _draw_dtype(data, "any")
            kw["dtype"] = xp_dtype(xp, dtype)
        args = ()
        value = fill
        if name == "full_like":
            value = _pyscalar_for(data, dtype)
            args = (value,)
        out = resolve(xp, name)(xx, *args, **kw)
        if value is None:
            assert_dtype(name, out, dtype)
            assert_shape(name, out, x.shape)
        else:
            with np.errstate(all="ignore"):
                expected = np.full(x.shape, value, dtype=dtype)
            check_array(name, out, expected, dtype)
        check_device(name, out, dev if dev is not None else xx.device)
    return check


# ---- eye, linspace, meshgrid, tril/triu, from_dlpack -------------------------------------
def _eye_check(xp, data):
    n_rows = data.draw(st.integers(0, 5), label="n_rows")
    n_cols = data.draw(st.one_of(st.none(), st.integers(0, 5)), label="n_cols")
    k = data.draw(st.integers(-6, 6), label="k")
    kw, dev = _maybe_device(data, xp)
    dtype = None
    if data.draw(st.booleans(), label="dtype given"):
        dtype = _draw_dtype(data, "any")
        kw["dtype"] = xp_dtype(xp, dtype)
    args = (n_rows,) if n_cols is None else (n_rows, n_cols)
    out = xp.eye(*args, k=k, **kw)
    dtype = dtype or default_name(xp, "real floating")
    check_array("eye", out, np.eye(n_rows, n_cols, k=k, dtype=dtype), dtype)
    if dev is not None:
        check_device("eye", out, dev)


def _linspace_check(xp, data):
    use_complex = data.draw(st.booleans(), label="complex")
    real = st.one_of(st.integers(-100, 100), st.floats(-1e6, 1e6))
    endpoint = data.draw(st.booleans(), label="endpoint")
    num = data.draw(st.integers(0, 12), label="num")
    start, stop = data.draw(real, label="start"), data.draw(real, label="stop")
    if use_complex:
        start = complex(start, data.draw(st.floats(-1e3, 1e3), label="start imag"))
        if data.draw(st.booleans(), label="complex stop"):
            stop = complex(stop, data.draw(st.floats(-1e3, 1e3), label="stop imag"))
    kw, dev = _maybe_device(data, xp)
    dtype = None
    if data.draw(st.booleans(), label="dtype given"):
        dtype = _draw_dtype(data, "complex floating" if use_complex else "floating-point")
        kw["dtype"] = xp_dtype(xp, dtype)
    out = xp.linspace(start, stop, num, endpoint=endpoint, **kw)
    dtype = dtype or default_name(xp, "complex floating" if use_complex else "real floating")
    expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=np.complex128
                           if np.dtype(dtype).kind == "c" else np.float64)
    scale = max(abs(start), abs(stop), 1.0)
    # NumPy computes in double precision and rounds: a single-precision zero's sign may
    # come from an underflow, so zero signs are compared only for double precision
    check_array("linspace", out, expected.astype(dtype), dtype, scale=scale,
                signed_zeros=np.dtype(dtype).itemsize * (2 if np.dtype(dtype).kind == "f"
                                                         else 1) == 16)
    if num >= 1:  # the end points are exact
        got = to_numpy(out)
        first = np.asarray(start, dtype=dtype)
        if got[0] != first:
            raise ConformanceError(f"linspace: first value {got[0]!r}, expected {first!r}")
        if endpoint and num >= 2 and got[-1] != np.asarray(stop, dtype=dtype):
            raise ConformanceError(f"linspace: last value {got[-1]!r}, expected {stop!r}")
    if dev is not None:
        check_device("linspace", out, dev)


def _meshgrid_check(xp, data):
    n = data.draw(st.integers(0, 3), label="number of arrays")
    dtype = _draw_dtype(data, "numeric")
    arrays = [_draw_array(data, dtype, (data.draw(st.integers(0, 4), label="len"),),
                          label=f"x{i}") for i in range(n)]
    kw = {}
    indexing = data.draw(st.sampled_from((None, "xy", "ij")), label="indexing")
    if indexing is not None:
        kw["indexing"] = indexing
    out = xp.meshgrid(*[as_xp(xp, a) for a in arrays], **kw)
    expected = np.meshgrid(*arrays, **kw)
    if not isinstance(out, tuple):
        raise ConformanceError(f"meshgrid: returned {type(out).__name__}, expected a tuple")
    if len(out) != n:
        raise ConformanceError(f"meshgrid: {len(out)} arrays, expected {n}")
    for o, e in zip(out, expected):
        check_array("meshgrid", o, e, dtype)


def _tri_check(name):
    def check(xp, data):
        dtype = _draw_dtype(data, "numeric")
        shape = data.draw(S.shapes(min_dims=2), label="shape")
        x = _draw_array(data, dtype, shape)
        kw = {}
        if data.draw(st.booleans(), label="k given"):
            kw["k"] = data.draw(st.integers(-5, 5), label="k")
        xx = as_xp(xp, x)
        out = resolve(xp, name)(xx, **kw)
        check_array(name, out, getattr(np, name)(x, **kw), dtype)
        check_device(name, out, xx.device)
    return check


def _from_dlpack_check(xp, data):
    dtype = _draw_dtype(data, "numeric")
    x = _draw_array(data, dtype)
    source = data.draw(st.sampled_from(("numpy", "xp")), label="source")
    kw, dev = _maybe_device(data, xp)
    copy = data.draw(st.sampled_from((None, True, False)), label="copy")
    if copy is not None:
        kw["copy"] = copy
    if copy is False:  # never a copy: the array, or BufferError where one is needed
        try:
            out = xp.from_dlpack(as_xp(xp, x) if source == "xp" else x.copy(), **kw)
        except (BufferError, ValueError):
            return
        check_array("from_dlpack", out, x, dtype)
        return
    if source == "numpy":
        src = x.copy()
        out = xp.from_dlpack(src, **kw)
        check_array("from_dlpack", out, x, dtype)
        if copy:
            def write():
                src[...] = 0
            check_independent("from_dlpack(copy=True)", src, out, write)
    else:
        src = as_xp(xp, x)
        out = xp.from_dlpack(src, **kw)
        check_array("from_dlpack", out, x, dtype)
        check_device("from_dlpack", out, src.device)
        if copy and x.size:
            fill = xp.asarray(0, dtype=xp_dtype(xp, dtype))

            def write():
                src[...] = fill
            check_independent("from_dlpack(copy=True)", src, out, write)
    if dev is not None:
        check_device("from_dlpack", out, dev)
    expect_error("from_dlpack", (AttributeError, TypeError), lambda: xp.from_dlpack([1, 2]))


_CREATION = {
    "arange": _arange_check,
    "asarray": _asarray_check,
    "empty": _filled_check("empty", None),
    "zeros": _filled_check("zeros", 0),
    "ones": _filled_check("ones", 1),
    "full": _full_check,
    "empty_like": _like_check("empty_like", None),
    "zeros_like": _like_check("zeros_like", 0),
    "ones_like": _like_check("ones_like", 1),
    "full_like": _like_check("full_like", "drawn"),
    "eye": _eye_check,
    "linspace": _linspace_check,
    "meshgrid": _meshgrid_check,
    "tril": _tri_check("tril"),
    "triu": _tri_check("triu"),
    "from_dlpack": _from_dlpack_check,
}

for _name, _check in _CREATION.items():
    register(Spec(_name, _check, S.ALL, kind="creation"))

__all__ = ["info", "default_name", "default_device", "check_device", "check_array",
           "expect_error", "check_independent"]
