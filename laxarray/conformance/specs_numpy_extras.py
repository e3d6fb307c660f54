"""Conformance specs (extension "numpy") of NumPy's spellings and small utilities:
``amax``/``amin``, ``concatenate``, ``transpose``/``swapaxes``/``rollaxis``/``ravel``, the
shape queries ``ndim``/``shape``/``size``, the dtype queries ``isscalar``/``issubdtype``/
``promote_types``, ``frombuffer``/``fromiter``/``fromstring``, ``array_repr``/``array_str``,
``save``/``savez``/``load`` (through in-memory files) and the in-place ``copyto``/``putmask``.

Oracle: NumPy (these functions are NumPy's; ``promote_types`` included, mixed kinds and
all).  They move or select values: everything compares exactly.
"""

from __future__ import annotations

import io

import numpy as np
from hypothesis import strategies as st

from . import strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, dtype_name, to_numpy)
from .spec import (Spec, as_xp, large_examples, register, resolve,
                                       xp_dtype)


def spec(name, pinned=None):
    # (copyto and putmask write in place, as place and put do: NumPy's in-place functions
    # exist only in namespaces with writable arrays, so no needs_mutation)
    def deco(check):
        register(Spec(name, check, S.ALL, extension="numpy", kind="numpy extras",
                      pinned=pinned))
        return check
    return deco


def _draw(data, *, group="any", min_dims=0, max_dims=3, min_side=0, label="x"):
    dtype = data.draw(S.dtypes(group), label=f"{label} dtype")
    shape = data.draw(S.shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side),
                      label=f"{label} shape")
    return data.draw(S.arrays(dtype, shape), label=label)


def _same(name, out, expected, signed_zeros=True):
    """dtype, shape and values of ``out`` against NumPy's ``expected``, exactly."""
    expected = np.asarray(expected)
    assert_dtype(name, out, expected.dtype.name)
    assert_shape(name, out, expected.shape)
    assert_values(name, to_numpy(out), expected, signed_zeros=signed_zeros)


def _equal(name, got, expected):
    if got != expected or type(got) is not type(expected):
        raise ConformanceError(f"{name}: {got!r}, expected {expected!r}")


# ---- NumPy spellings of reductions and manipulations ----------------------------------------
def _extreme(name):
    @spec(name, large_examples(**{"x dtype": lambda d: d["dtype"],
                                  "x shape": lambda d: d["shape"]}))
    def check(xp, data):
        x = _draw(data, group="real numeric", min_side=1)
        axis = data.draw(S.axes(x.ndim), label="axis")
        keepdims = data.draw(st.booleans(), label="keepdims")
        _same(name, resolve(xp, name)(as_xp(xp, x), axis=axis, keepdims=keepdims),
              getattr(np, name)(x, axis=axis, keepdims=keepdims), signed_zeros=False)
    return check


_extreme("amax")
_extreme("amin")


@spec("concatenate")
def _concatenate(xp, data):
    x = _draw(data, min_dims=1)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    k = data.draw(st.integers(1, 3), label="count")
    arrays = [x] * k
    if axis is not None:
        sides = data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k), label="sides")
        arrays = [data.draw(S.arrays(x.dtype, x.shape[:axis % x.ndim] + (n,)
                                     + x.shape[axis % x.ndim + 1:]), label=f"x{i}")
                  for i, n in enumerate(sides)]
    _same("concatenate", resolve(xp, "concatenate")([as_xp(xp, a) for a in arrays], axis=axis),
          np.concatenate(arrays, axis=axis))


@spec("transpose")
def _transpose(xp, data):
    x = _draw(data)
    axes = data.draw(st.one_of(st.none(), st.permutations(range(x.ndim)).map(tuple)),
                     label="axes")
    _same("transpose", resolve(xp, "transpose")(as_xp(xp, x), axes), np.transpose(x, axes))


@spec("swapaxes")
def _swapaxes(xp, data):
    x = _draw(data, min_dims=1)
    a1, a2 = (data.draw(st.integers(-x.ndim, x.ndim - 1), label=f"axis{i}") for i in (1, 2))
    _same("swapaxes", resolve(xp, "swapaxes")(as_xp(xp, x), a1, a2), np.swapaxes(x, a1, a2))


@spec("rollaxis")
def _rollaxis(xp, data):
    x = _draw(data, min_dims=1)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    start = data.draw(st.integers(-x.ndim, x.ndim), label="start")
    _same("rollaxis", resolve(xp, "rollaxis")(as_xp(xp, x), axis, start),
          np.rollaxis(x, axis, start))


@spec("ravel")
def _ravel(xp, data):
    x = _draw(data)
    order = data.draw(st.sampled_from(["C", "F", "A", "K"]), label="order")
    # 'A' and 'K' follow the memory layout: of a C-ordered array, 'C'
    _same("ravel", resolve(xp, "ravel")(as_xp(xp, x), order), np.ravel(x, order))


# ---- queries -------------------------------------------------------------------------------
@spec("ndim")
def _ndim(xp, data):
    x = _draw(data)
    _equal("ndim", resolve(xp, "ndim")(as_xp(xp, x)), np.ndim(x))
    _equal("ndim", resolve(xp, "ndim")(x.tolist()), np.ndim(x.tolist()))


@spec("shape")
def _shape(xp, data):
    x = _draw(data)
    _equal("shape", tuple(resolve(xp, "shape")(as_xp(xp, x))), np.shape(x))
    _equal("shape", resolve(xp, "shape")(x.tolist()), np.shape(x.tolist()))


@spec("size")
def _size(xp, data):
    x = _draw(data)
    _equal("size", resolve(xp, "size")(as_xp(xp, x)), np.size(x))
    if x.ndim:
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
        _equal("size", resolve(xp, "size")(as_xp(xp, x), axis), np.size(x, axis))


@spec("isscalar")
def _isscalar(xp, data):
    value = data.draw(st.one_of(st.integers(-5, 5), st.floats(allow_nan=False), st.booleans(),
                                st.just("text"), st.just([1, 2]), st.just(None)),
                      label="value")
    _equal("isscalar", resolve(xp, "isscalar")(value), bool(np.isscalar(value)))
    x = _draw(data, min_dims=1)  # arrays of one or more dimensions are not scalars
    _equal("isscalar", resolve(xp, "isscalar")(as_xp(xp, x)), False)


_GENERIC = (np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger,
            np.inexact, np.floating, np.complexfloating, np.bool_)


@spec("issubdtype")
def _issubdtype(xp, data):
    name = data.draw(st.sampled_from(S.ALL), label="dtype")
    other = data.draw(st.sampled_from(_GENERIC + tuple(np.dtype(d).type for d in S.ALL)),
                      label="of")
    _equal("issubdtype", resolve(xp, "issubdtype")(xp_dtype(xp, name), other),
           bool(np.issubdtype(np.dtype(name), other)))


@spec("promote_types")
def _promote_types(xp, data):
    a, b = (data.draw(st.sampled_from(S.ALL), label=f"dtype {i}") for i in (1, 2))
    got = resolve(xp, "promote_types")(xp_dtype(xp, a), xp_dtype(xp, b))
    _equal("promote_types", dtype_name(got), np.promote_types(a, b).name)


# ---- from bytes, text and iterables ----------------------------------------------------------
@spec("frombuffer")
def _frombuffer(xp, data):
    x = _draw(data, group="numeric", max_dims=1)
    buffer = x.tobytes()
    count = data.draw(st.integers(-1, x.size), label="count")
    _same("frombuffer", resolve(xp, "frombuffer")(buffer, xp_dtype(xp, x.dtype.name), count),
          np.frombuffer(buffer, x.dtype, count))


@spec("fromiter")
def _fromiter(xp, data):
    x = _draw(data, group="real numeric", min_dims=1, max_dims=1)
    count = data.draw(st.integers(-1, x.size), label="count")
    _same("fromiter", resolve(xp, "fromiter")(iter(x.tolist()), xp_dtype(xp, x.dtype.name),
                                              count),
          np.fromiter(iter(x.tolist()), x.dtype, count))


@spec("fromstring")
def _fromstring(xp, data):
    values = data.draw(st.lists(st.integers(-99, 99), max_size=5), label="values")
    sep = data.draw(st.sampled_from([",", " ", ";"]), label="sep")
    dtype = data.draw(st.sampled_from(["int64", "float64", "int8"]), label="dtype")
    text = sep.join(str(v) for v in values)
    _same("fromstring", resolve(xp, "fromstring")(text, xp_dtype(xp, dtype), sep=sep),
          np.fromstring(text, dtype, sep=sep))


# ---- text and files --------------------------------------------------------------------------
def _text(name):
    @spec(name)
    def check(xp, data):
        x = _draw(data, max_dims=2)
        precision = data.draw(st.one_of(st.none(), st.integers(0, 6)), label="precision")
        got = resolve(xp, name)(as_xp(xp, x), precision=precision)
        _equal(name, got, getattr(np, name)(x, precision=precision))
    return check


_text("array_str")
_text("array_repr")


@spec("save")
def _save(xp, data):
    x = _draw(data)
    buf = io.BytesIO()
    resolve(xp, "save")(buf, as_xp(xp, x))
    buf.seek(0)
    _same("save", np.load(buf), x)


@spec("savez")
def _savez(xp, data):
    x, y = _draw(data), _draw(data, label="y")
    buf = io.BytesIO()
    resolve(xp, "savez")(buf, as_xp(xp, x), y=as_xp(xp, y))
    buf.seek(0)
    with np.load(buf) as files:
        _same("savez", files["arr_0"], x)
        _same("savez", files["y"], y)


@spec("load")
def _load(xp, data):
    x = _draw(data)
    buf = io.BytesIO()
    np.save(buf, x)
    buf.seek(0)
    _same("load", resolve(xp, "load")(buf), x)


# ---- in place ------------------------------------------------------------------------------
@spec("copyto")
def _copyto(xp, data):
    dst = _draw(data, label="dst")
    src = data.draw(S.arrays(dst.dtype, data.draw(S.broadcastable_shapes(dst.shape),
                                                  label="src shape")), label="src")
    where = data.draw(st.one_of(st.just(True), S.arrays("bool", dst.shape)), label="where")
    expected = dst.copy()
    np.copyto(expected, src, where=where)
    out = as_xp(xp, dst)
    resolve(xp, "copyto")(out, as_xp(xp, src),
                          where=where if where is True else as_xp(xp, where))
    _same("copyto", out, expected)


@spec("putmask")
def _putmask(xp, data):
    a = _draw(data, label="a")
    mask = data.draw(S.arrays("bool", a.shape), label="mask")
    values = data.draw(S.arrays(a.dtype, (data.draw(st.integers(1, 3), label="n"),)),
                       label="values")
    expected = a.copy()
    np.putmask(expected, mask, values)
    out = as_xp(xp, a)
    resolve(xp, "putmask")(out, as_xp(xp, mask), as_xp(xp, values))
    _same("putmask", out, expected)


__all__ = ["spec"]
