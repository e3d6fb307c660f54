"""Conformance specs of manipulation, indexing-function and main-namespace linear algebra
functions (oracle: NumPy).  Results must match exactly (these functions move values); the
products (matmul, tensordot, vecdot) within their bound, with NaN and infinities placed
where they change the answer (:func:`~laxarray.conformance.strategies.placed_pair`) and
zeros compared without sign (the summation order decides a zero's sign)."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, strategies as st

from . import device_dtypes, promotion, strategies as S
from .compare import assert_dtype, assert_shape, assert_values, to_numpy
from .spec import Spec, as_xp, register
from .specs_linalg_products import tensordot_oracle


def _exact(name, out, expected):
    expected = np.asarray(expected)
    assert_dtype(name, out, expected.dtype.name)
    assert_shape(name, out, expected.shape)
    assert_values(name, to_numpy(out), expected)


def _draw(data, *, min_dims=0, min_side=0, group="any"):
    dtype = data.draw(S.dtypes(group), label="dtype")
    shape = data.draw(S.shapes(min_dims=min_dims, min_side=min_side), label="shape")
    return data.draw(S.arrays(dtype, shape), label="x")


def spec(name, kind="manipulation", needs=()):
    def deco(check):
        register(Spec(name, check, S.ALL, kind=kind, needs=needs))
        return check
    return deco


@spec("broadcast_to")
def _broadcast_to(xp, data):
    x = _draw(data)
    extra = data.draw(st.lists(st.integers(0, 3), max_size=2), label="extra")
    target = tuple(extra) + tuple(d if d != 1 else data.draw(st.integers(0, 3)) for d in x.shape)
    _exact("broadcast_to", xp.broadcast_to(as_xp(xp, x), target), np.broadcast_to(x, target))


@spec("broadcast_arrays")
def _broadcast_arrays(xp, data):
    x = _draw(data)
    y = data.draw(S.arrays("float32", data.draw(S.broadcastable_shapes(x.shape))), label="y")
    outs = xp.broadcast_arrays(as_xp(xp, x), as_xp(xp, y))
    for o, e in zip(outs, np.broadcast_arrays(x, y)):
        _exact("broadcast_arrays", o, e)


@spec("broadcast_shapes")
def _broadcast_shapes(xp, data):
    s1 = data.draw(S.shapes(), label="s1")
    s2 = data.draw(S.broadcastable_shapes(s1), label="s2")
    got = xp.broadcast_shapes(s1, s2)
    if tuple(got) != np.broadcast_shapes(s1, s2):
        raise AssertionError(f"broadcast_shapes: {got}, expected {np.broadcast_shapes(s1, s2)}")


@spec("concat")
def _concat(xp, data):
    x = _draw(data, min_dims=1)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    # a second operand of another dtype where the standard's table promotes the two (bool,
    # floats and uint64 do not promote with int16: then x's own dtype)
    other = "int16" if promotion.defined(x.dtype.name, "int16") else x.dtype.name
    y = data.draw(S.arrays(other, x.shape), label="y")
    # the standard's promotion on the run's device (uint32 with int16: int64, or the
    # device's own int32 where it has no int64), the values NumPy's
    result = device_dtypes.result_type(x.dtype.name, other)
    expected = np.concatenate([x, y], axis=axis).astype(result)
    _exact("concat", xp.concat([as_xp(xp, x), as_xp(xp, y)], axis=axis), expected)


@spec("stack")
def _stack(xp, data):
    x = _draw(data)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    _exact("stack", xp.stack([as_xp(xp, x), as_xp(xp, x)], axis=axis),
           np.stack([x, x], axis=axis))


@spec("unstack")
def _unstack(xp, data):
    x = _draw(data, min_dims=1)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    outs = xp.unstack(as_xp(xp, x), axis=axis)
    expected = [np.take(x, i, axis=axis) for i in range(x.shape[axis])]
    if len(outs) != len(expected):
        raise AssertionError(f"unstack: {len(outs)} arrays, expected {len(expected)}")
    for o, e in zip(outs, expected):
        _exact("unstack", o, e)


@spec("expand_dims")
def _expand_dims(xp, data):
    x = _draw(data)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    _exact("expand_dims", xp.expand_dims(as_xp(xp, x), axis=axis), np.expand_dims(x, axis))


@spec("squeeze")
def _squeeze(xp, data):
    x = _draw(data)
    ones = [i for i, d in enumerate(x.shape) if d == 1]
    assume(ones)
    axis = tuple(data.draw(st.lists(st.sampled_from(ones), min_size=1, unique=True)))
    _exact("squeeze", xp.squeeze(as_xp(xp, x), axis=axis), np.squeeze(x, axis))
    if len(ones) > 1:  # one unit axis of several, whatever the draw: the others stay
        _exact("squeeze", xp.squeeze(as_xp(xp, x), axis=ones[-1]), np.squeeze(x, ones[-1]))


@spec("flip")
def _flip(xp, data):
    x = _draw(data)
    axis = data.draw(S.axes(x.ndim), label="axis")
    _exact("flip", xp.flip(as_xp(xp, x), axis=axis), np.flip(x, axis))


@spec("permute_dims")
def _permute_dims(xp, data):
    x = _draw(data)
    perm = tuple(data.draw(st.permutations(range(x.ndim)), label="axes"))
    neg = tuple(a - x.ndim if data.draw(st.booleans()) else a for a in perm)
    _exact("permute_dims", xp.permute_dims(as_xp(xp, x), neg), np.transpose(x, perm))


@spec("moveaxis")
def _moveaxis(xp, data):
    x = _draw(data, min_dims=1)
    src = data.draw(st.integers(-x.ndim, x.ndim - 1), label="source")
    dst = data.draw(st.integers(-x.ndim, x.ndim - 1), label="destination")
    _exact("moveaxis", xp.moveaxis(as_xp(xp, x), src, dst), np.moveaxis(x, src, dst))


@spec("reshape")
def _reshape(xp, data):
    x = _draw(data)
    target = (x.size,) if data.draw(st.booleans()) else (-1,)
    if x.size and x.size % 2 == 0 and data.draw(st.booleans()):
        target = (2, -1)
    copy = data.draw(st.sampled_from([None, True, False]), label="copy")
    kwargs = {} if copy is None else {"copy": copy}
    try:
        out = xp.reshape(as_xp(xp, x), target, **kwargs)
    except ValueError:  # copy=False "must raise a ValueError" where a copy is needed
        if copy is not False:
            raise
        return
    _exact("reshape", out, np.reshape(x, target))


@spec("roll")
def _roll(xp, data):
    x = _draw(data)
    shift = data.draw(st.integers(-5, 5), label="shift")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)) if x.ndim
                     else st.none(), label="axis")
    _exact("roll", xp.roll(as_xp(xp, x), shift, axis=axis), np.roll(x, shift, axis=axis))


@spec("tile")
def _tile(xp, data):
    x = _draw(data)
    reps = tuple(data.draw(st.lists(st.integers(0, 3), max_size=3), label="reps"))
    _exact("tile", xp.tile(as_xp(xp, x), reps), np.tile(x, reps))


@spec("repeat", needs=("data_dependent_shapes",))  # array repeats
def _repeat(xp, data):
    x = _draw(data, min_dims=1)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    n = x.size if axis is None else x.shape[axis]
    if data.draw(st.booleans(), label="array repeats"):
        reps = np.asarray(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)),
                          dtype=device_dtypes.default("indexing"))
        got = xp.repeat(as_xp(xp, x), as_xp(xp, reps), axis=axis)
    else:
        reps = data.draw(st.integers(0, 3), label="repeats")
        got = xp.repeat(as_xp(xp, x), reps, axis=axis)
    _exact("repeat", got, np.repeat(x, reps, axis=axis))


@spec("take", kind="indexing")
def _take(xp, data):
    x = _draw(data, min_dims=1, min_side=1)
    # (axis=None, or left out, where x is 1-D: the standard's signature allows it there)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)) if x.ndim == 1
                     else st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = x.shape[0 if axis is None else axis]
    idx = np.asarray(data.draw(st.lists(st.integers(-n, n - 1), max_size=5)),
                     dtype=device_dtypes.default("indexing"))
    _exact("take", xp.take(as_xp(xp, x), as_xp(xp, idx), axis=axis), np.take(x, idx, axis))


@spec("take_along_axis", kind="indexing")
def _take_along_axis(xp, data):
    x = _draw(data, min_dims=1, min_side=1)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = x.shape[axis]
    shape = list(x.shape)
    shape[axis] = data.draw(st.integers(0, 4), label="k")
    idx = data.draw(S.arrays(device_dtypes.default("indexing"), tuple(shape), min_value=-n,
                             max_value=n - 1), label="i")
    _exact("take_along_axis", xp.take_along_axis(as_xp(xp, x), as_xp(xp, idx), axis=axis),
           np.take_along_axis(x, idx, axis))


def _int_or_float_pair(data):
    # (on a device without 64-bit types: int32 and float32)
    dtype = data.draw(st.sampled_from(device_dtypes.narrowed(["int32", "int64", "float64"])),
                      label="dtype")
    return dtype, dict(min_value=-10, max_value=10) if dtype.startswith("int") else dict(
        min_value=-10, max_value=10)


@spec("matmul", kind="linear algebra")
def _matmul(xp, data):
    dtype, bounds = _int_or_float_pair(data)
    m, k, n = (data.draw(st.integers(0, 3)) for _ in range(3))
    batch = data.draw(S.shapes(max_dims=2, max_side=2), label="batch")
    a_shape = (k,) if data.draw(st.booleans()) else batch + (m, k)
    b_shape = (k,) if data.draw(st.booleans()) else data.draw(
        S.broadcastable_shapes(batch)) + (k, n)
    a = data.draw(S.arrays(dtype, a_shape, **bounds), label="x1")
    b = data.draw(S.arrays(dtype, b_shape, **bounds), label="x2")
    a, b = data.draw(S.placed_pair(a, b, (a.ndim - 1,), (0 if b.ndim == 1 else b.ndim - 2,),
                                   batch1=tuple(range(a.ndim - 2)),
                                   batch2=tuple(range(b.ndim - 2))), label="placed")
    with np.errstate(all="ignore"):  # inf * 0, inf - inf: NaN, as IEEE says
        expected = np.matmul(a, b)
    out = xp.matmul(as_xp(xp, a), as_xp(xp, b))
    assert_dtype("matmul", out, expected.dtype.name)
    assert_values("matmul", to_numpy(out), expected, signed_zeros=False)


@spec("matrix_transpose", kind="linear algebra")
def _matrix_transpose(xp, data):
    x = _draw(data, min_dims=2)
    _exact("matrix_transpose", xp.matrix_transpose(as_xp(xp, x)), np.swapaxes(x, -1, -2))


@spec("tensordot", kind="linear algebra")
def _tensordot(xp, data):
    dtype, bounds = _int_or_float_pair(data)
    a = data.draw(S.arrays(dtype, data.draw(S.shapes(max_dims=3)), **bounds), label="x1")
    k = data.draw(st.integers(0, a.ndim), label="axes")
    b_shape = a.shape[a.ndim - k:] + data.draw(S.shapes(max_dims=2), label="tail")
    b = data.draw(S.arrays(dtype, b_shape, **bounds), label="x2")
    a, b = data.draw(S.placed_pair(a, b, tuple(range(a.ndim - k, a.ndim)), tuple(range(k))),
                     label="placed")
    expected = tensordot_oracle(a, b, k)  # np.tensordot makes inf * 0 zero at 1x1 operands
    out = xp.tensordot(as_xp(xp, a), as_xp(xp, b), axes=k)
    assert_dtype("tensordot", out, expected.dtype.name)
    assert_values("tensordot", to_numpy(out), expected, signed_zeros=False)


@spec("vecdot", kind="linear algebra")
def _vecdot(xp, data):
    # (on a device without 64-bit types: int32, float32 and complex64)
    dtype = data.draw(st.sampled_from(device_dtypes.narrowed(
        ["int64", "float64", "complex128"])), label="dtype")
    shape = data.draw(S.shapes(min_dims=1), label="shape")
    # complex parts bounded too: near the float64 limit the summation order decides what
    # overflows, and the standard fixes no order (a conforming namespace failed at seed 3);
    # complex64 products of parts <= 2**50 stay far from its limit (3e38)
    big = 1e100 if dtype == "complex128" else 2.0 ** 50
    complex_in = np.dtype(dtype).kind == "c"
    a = data.draw(S.arrays(dtype, shape, min_value=-10, max_value=10) if not complex_in
                  else S.arrays(dtype, shape, finite=True, min_value=-big, max_value=big),
                  label="x1")
    b = data.draw(S.arrays(dtype, shape, min_value=-10, max_value=10) if not complex_in
                  else S.arrays(dtype, shape, finite=True, min_value=-big, max_value=big),
                  label="x2")
    axis = data.draw(st.integers(-len(shape), -1), label="axis")
    others = tuple(i for i in range(len(shape)) if i != axis % len(shape))
    a, b = data.draw(S.placed_pair(a, b, (axis,), (axis,), batch1=others, batch2=others),
                     label="placed")  # real only: complex and integers pass unchanged
    with np.errstate(all="ignore"):
        expected = np.vecdot(a, b, axis=axis)
    out = xp.vecdot(as_xp(xp, a), as_xp(xp, b), axis=axis)
    assert_dtype("vecdot", out, expected.dtype.name)
    if complex_in:
        assume(np.isfinite(expected).all())
    with np.errstate(invalid="ignore"):  # |inf| * 0 (the scale serves the complex row)
        scale = np.sum(np.abs(a) * np.abs(b), axis=axis)
    assert_values("vecdot", to_numpy(out), expected, signed_zeros=False, scale=scale,
                  n=shape[axis])
