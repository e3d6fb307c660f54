"""Conformance specs (extension "numpy") for laxarray.numpy_api.editing; oracle: NumPy.

These functions move values, so results match exactly, except the ``mean`` pad mode of
floating inputs (summed in another order: a few ulps of the largest magnitude involved).
Functions that NumPy runs in place (``place``, ``put``, ``put_along_axis``) are called
with ``inplace=False`` where the namespace takes it and compared with NumPy's mutated copy.
"""

from __future__ import annotations

import inspect

import numpy as np
from hypothesis import assume, strategies as st

from . import strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, to_numpy)
from .spec import Spec, as_xp, register, resolve


def spec(name, needs=()):
    def deco(check):
        register(Spec(name, check, S.ALL, extension="numpy", kind="numpy editing",
                      needs=needs))
        return check
    return deco


def _exact(name, out, expected, signed_zeros=True, *, bound=None, scale=None):
    """dtype, shape and values: exact, or within the row ``bound`` with its ``scale``."""
    expected = np.asarray(expected)
    assert_dtype(name, out, expected.dtype.name)
    assert_shape(name, out, expected.shape)
    assert_values(name, to_numpy(out), expected, bound=bound, scale=scale,
                  signed_zeros=signed_zeros)


def _draw(data, *, group="any", min_dims=0, max_dims=2, min_side=0, max_side=3, label="x"):
    dtype = data.draw(S.dtypes(group), label=f"{label} dtype")
    shape = data.draw(S.shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                               max_side=max_side), label=f"{label} shape")
    return data.draw(S.arrays(dtype, shape), label=label)


def _pooled(data, shape, group="any", label="x", pool_size=3):
    """An array of ``shape`` drawn from a small pool of values (so repeats are common)."""
    dtype = data.draw(S.dtypes(group), label=f"{label} dtype")
    pool = data.draw(S.arrays(dtype, (pool_size,)), label=f"{label} pool")
    picks = data.draw(S.arrays("int64", shape, min_value=0, max_value=pool_size - 1),
                      label=f"{label} picks")
    return pool[picks]


def _small_ints(data, shape, label="x", dtype="int64"):
    return data.draw(S.arrays(dtype, shape, min_value=-5, max_value=5), label=label)


def _takes(xp, name, param):
    try:
        return param in inspect.signature(resolve(xp, name)).parameters
    except (TypeError, ValueError):
        return False


def _moderate(x):
    """Floating ``x`` with NaN/inf replaced and values clipped to +-1e6 (for the pad modes
    that compute: huge values would make the tolerance meaningless)."""
    if x.dtype.kind == "c":
        return (_moderate(x.real) + 1j * _moderate(x.imag)).astype(x.dtype)
    return np.clip(np.nan_to_num(x, posinf=1.0, neginf=-1.0), -1e6, 1e6).astype(x.dtype)


# ---- pad -----------------------------------------------------------------------------------
_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "minimum", "mean", "median",
              "reflect", "symmetric", "wrap", "empty")


@spec("pad")
def _pad(xp, data):
    mode = data.draw(st.sampled_from(_PAD_MODES), label="mode")
    group = {"linear_ramp": "numeric", "mean": "numeric", "median": "real numeric"}.get(
        mode, "any")
    x = _draw(data, group=group, max_dims=2, label="x")
    if mode == "linear_ramp" and x.dtype.kind in "iu":
        x = np.clip(x, 0, 100).astype(x.dtype)  # keep the ramp inside the dtype
    if mode in ("linear_ramp", "mean") and x.dtype.kind in "fc":
        x = _moderate(x)
    kind = data.draw(st.sampled_from(["int", "pair", "per-axis"]), label="pad_width kind")
    if kind == "int" or x.ndim == 0:
        width = data.draw(st.integers(0, 4), label="pad_width")
        widths = [(width, width)] * x.ndim
    elif kind == "pair":
        width = tuple(data.draw(st.tuples(st.integers(0, 4), st.integers(0, 4)), label="pw"))
        widths = [width] * x.ndim
    else:
        width = [tuple(data.draw(st.tuples(st.integers(0, 7), st.integers(0, 7)),
                                 label=f"pw{d}")) for d in range(x.ndim)]
        widths = width
    if mode not in ("constant", "empty"):
        assume(all(x.shape[d] or not any(widths[d]) for d in range(x.ndim)))
    kwargs = {}
    if mode == "constant" and data.draw(st.booleans(), label="constant_values given"):
        kwargs["constant_values"] = data.draw(st.one_of(
            st.integers(0, 1), st.tuples(st.integers(0, 1), st.integers(0, 1))), label="cv")
    if mode == "linear_ramp" and data.draw(st.booleans(), label="end_values given"):
        kwargs["end_values"] = data.draw(st.tuples(st.integers(0, 50), st.integers(0, 50)),
                                         label="end_values")
    if mode in ("maximum", "minimum", "mean", "median") and data.draw(st.booleans(),
                                                                     label="stat_length"):
        kwargs["stat_length"] = data.draw(st.tuples(st.integers(1, 3), st.integers(1, 3)),
                                          label="stat_length")
    if mode in ("reflect", "symmetric"):
        kwargs["reflect_type"] = data.draw(st.sampled_from(["even", "odd"]), label="type")
        if kwargs["reflect_type"] == "odd" and x.dtype.kind in "fc":
            x = _moderate(x)
    with np.errstate(all="ignore"):
        expected = np.pad(x, width, mode=mode, **kwargs)
    out = resolve(xp, "pad")(as_xp(xp, x), width, mode=mode, **kwargs)
    if mode == "empty":  # NumPy leaves the pad area uninitialised: compare the interior
        inner = tuple(slice(b, b + n) for (b, _), n in zip(widths, x.shape))
        assert_shape("pad", out, expected.shape)
        _exact("pad", to_numpy(out)[inner], x)
        return
    if mode == "mean" and x.dtype.kind in "fc":  # summed in another order
        _exact("pad", out, expected, bound="pad:mean",
               scale=max([1.0] + ([float(np.abs(x).max())] if x.size else [])))
    else:
        _exact("pad", out, expected)


# ---- insert / delete / append / resize -----------------------------------------------------
@spec("insert")
def _insert(xp, data):
    x = _draw(data, min_dims=1, label="arr")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    n = x.size if axis is None else x.shape[axis]
    kind = data.draw(st.sampled_from(["int", "list", "slice"]), label="obj kind")
    if kind == "int":
        obj = data.draw(st.integers(-n, n), label="obj")
    elif kind == "list":
        obj = data.draw(st.lists(st.integers(-n, n), min_size=2, max_size=3), label="obj")
    else:
        obj = slice(*data.draw(st.tuples(st.integers(0, 3), st.integers(0, 3)), label="sl"))
    values = data.draw(st.integers(0, 9), label="values")
    expected = np.insert(x, obj, values, axis=axis)
    _exact("insert", resolve(xp, "insert")(as_xp(xp, x), obj, values, axis=axis), expected)


@spec("delete")
def _delete(xp, data):
    x = _draw(data, min_dims=1, label="arr")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    n = x.size if axis is None else x.shape[axis]
    kind = data.draw(st.sampled_from(["int", "list", "slice", "mask"]), label="obj kind")
    if kind == "int":
        assume(n > 0)
        obj = data.draw(st.integers(-n, n - 1), label="obj")
    elif kind == "list":
        obj = data.draw(st.lists(st.integers(-n, n - 1), max_size=3), label="obj") if n else []
    elif kind == "slice":
        obj = slice(*data.draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3),
                                         st.sampled_from([1, 2, -1])), label="sl"))
    else:
        obj = data.draw(S.arrays("bool", (n,)), label="obj")
    expected = np.delete(x, obj, axis=axis)
    _exact("delete", resolve(xp, "delete")(as_xp(xp, x), obj, axis=axis), expected)


@spec("append")
def _append(xp, data):
    x = _draw(data, label="arr")
    axis = None if x.ndim == 0 else data.draw(
        st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    shape = list(x.shape)
    if axis is not None:
        shape[axis] = data.draw(st.integers(0, 2), label="extra")
    v = data.draw(S.arrays(data.draw(S.dtypes("any"), label="vdt"), tuple(shape)), label="v")
    with np.errstate(all="ignore"):
        expected = np.append(x, v, axis=axis)
    _exact("append", resolve(xp, "append")(as_xp(xp, x), as_xp(xp, v), axis=axis), expected)


@spec("resize")
def _resize(xp, data):
    x = _draw(data, label="a")
    shape = data.draw(S.shapes(max_dims=2, max_side=5), label="new_shape")
    _exact("resize", resolve(xp, "resize")(as_xp(xp, x), shape), np.resize(x, shape))


# ---- rotations and flips ---------------------------------------------------------------------
@spec("rot90")
def _rot90(xp, data):
    x = _draw(data, min_dims=2, max_dims=3, label="m")
    k = data.draw(st.integers(-5, 5), label="k")
    axes = tuple(data.draw(st.lists(st.integers(0, x.ndim - 1), min_size=2, max_size=2,
                                    unique=True), label="axes"))
    axes = tuple(a - x.ndim if data.draw(st.booleans(), label="neg") else a for a in axes)
    _exact("rot90", resolve(xp, "rot90")(as_xp(xp, x), k, axes), np.rot90(x, k, axes))


@spec("fliplr")
def _fliplr(xp, data):
    x = _draw(data, min_dims=2, max_dims=3, label="m")
    _exact("fliplr", resolve(xp, "fliplr")(as_xp(xp, x)), np.fliplr(x))


@spec("flipud")
def _flipud(xp, data):
    x = _draw(data, min_dims=1, max_dims=3, label="m")
    _exact("flipud", resolve(xp, "flipud")(as_xp(xp, x)), np.flipud(x))


@spec("trim_zeros", needs=("data_dependent_shapes",))
def _trim_zeros(xp, data):
    shape = data.draw(S.shapes(min_dims=1, max_dims=2, max_side=5), label="shape")
    x = _pooled(data, shape, group="real numeric", label="filt")
    x = np.where(data.draw(S.arrays("bool", shape), label="zeros"), 0, x).astype(x.dtype)
    trim = data.draw(st.sampled_from(["f", "b", "fb", "bf", "F"]), label="trim")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    _exact("trim_zeros", resolve(xp, "trim_zeros")(as_xp(xp, x), trim, axis=axis),
           np.trim_zeros(x, trim, axis=axis))


# ---- unique and the 1-d set routines ---------------------------------------------------------
def _no_complex_nan(x):
    return x.dtype.kind != "c" or not np.isnan(x).any()


@spec("unique", needs=("data_dependent_shapes",))
def _unique(xp, data):
    shape = data.draw(S.shapes(max_dims=2, max_side=4), label="shape")
    x = _pooled(data, shape, label="ar")
    # complex NaNs: NumPy and laxarray sort them in different orders, so the NaN kept
    # by equal_nan (and its index) may differ
    assume(_no_complex_nan(x))
    flags = {k: data.draw(st.booleans(), label=k) for k in
             ("return_index", "return_inverse", "return_counts")}
    axis = None
    if x.ndim and data.draw(st.booleans(), label="with axis"):
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
        assume(x.dtype.kind not in "fc" or not np.isnan(x).any())
        assume(x.dtype.kind not in "fc" or not (x == 0).any())  # -0.0 vs 0.0 rows
    equal_nan = data.draw(st.booleans(), label="equal_nan")
    expected = np.unique(x, axis=axis, equal_nan=equal_nan, **flags)
    out = resolve(xp, "unique")(as_xp(xp, x), axis=axis, equal_nan=equal_nan, **flags)
    expected = expected if isinstance(expected, tuple) else (expected,)
    out = out if isinstance(out, tuple) else (out,)
    if len(out) != len(expected):
        raise ConformanceError(f"unique: {len(out)} results, expected {len(expected)}")
    for o, e in zip(out, expected):
        _exact("unique", o, e, signed_zeros=False)


def _pair(data, group="real numeric"):
    n1 = data.draw(S.shapes(max_dims=2, max_side=4), label="ar1 shape")
    n2 = data.draw(S.shapes(max_dims=1, max_side=5), label="ar2 shape")
    dtype = data.draw(S.dtypes(group), label="dtype")
    pool = data.draw(S.arrays(dtype, (4,)), label="pool")
    p1 = data.draw(S.arrays("int64", n1, min_value=0, max_value=3), label="p1")
    p2 = data.draw(S.arrays("int64", n2, min_value=0, max_value=3), label="p2")
    a, b = pool[p1], pool[p2]
    if data.draw(st.booleans(), label="cast ar2"):
        with np.errstate(all="ignore"):
            b = b.astype(data.draw(st.sampled_from(["int64", "float64", "int16"]), label="dt2"))
    return a, b


def _set_spec(name, with_unique_flag):
    def check(xp, data):
        a, b = _pair(data)
        kwargs = {}
        if with_unique_flag and data.draw(st.booleans(), label="assume_unique"):
            a = np.unique(a)
            b = np.unique(b)
            kwargs["assume_unique"] = True
        if name == "intersect1d" and data.draw(st.booleans(), label="return_indices"):
            kwargs["return_indices"] = True
        with np.errstate(all="ignore"):
            expected = getattr(np, name)(a, b, **kwargs)
        out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, b), **kwargs)
        expected = expected if isinstance(expected, tuple) else (expected,)
        out = out if isinstance(out, tuple) else (out,)
        for o, e in zip(out, expected):
            _exact(name, o, e, signed_zeros=False)
    register(Spec(name, check, S.REAL_NUMERIC, extension="numpy", kind="numpy editing",
                  needs=("data_dependent_shapes",)))


for _name, _flag in (("intersect1d", True), ("union1d", False), ("setdiff1d", True),
                     ("setxor1d", True)):
    _set_spec(_name, _flag)


# ---- functions applied over arrays -------------------------------------------------------------
@spec("apply_along_axis")
def _apply_along_axis(xp, data):
    x = _draw(data, group="real numeric", min_dims=1, max_dims=3, min_side=1, label="arr")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    kind = data.draw(st.sampled_from(["reverse", "first", "pair"]), label="func")
    funcs = {"reverse": lambda v: v[::-1], "first": lambda v: v[0],
             "pair": lambda v: xp.stack([v[0], v[-1]])}
    nfuncs = {"reverse": lambda v: v[::-1], "first": lambda v: v[0],
              "pair": lambda v: np.stack([v[0], v[-1]])}
    expected = np.apply_along_axis(nfuncs[kind], axis, x)
    out = resolve(xp, "apply_along_axis")(funcs[kind], axis, as_xp(xp, x))
    _exact("apply_along_axis", out, expected)


@spec("apply_over_axes")
def _apply_over_axes(xp, data):
    x = _draw(data, group="real numeric", min_dims=1, max_dims=3, min_side=1, label="a")
    axes = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=1, max_size=2),
                     label="axes")
    expected = np.apply_over_axes(lambda v, ax: np.max(v, axis=ax), x, axes)
    out = resolve(xp, "apply_over_axes")(lambda v, ax: xp.max(v, axis=ax), as_xp(xp, x), axes)
    assert_shape("apply_over_axes", out, expected.shape)
    assert_values("apply_over_axes", to_numpy(out), expected, signed_zeros=False)


@spec("vectorize")
def _vectorize(xp, data):
    with_signature = data.draw(st.booleans(), label="signature")
    x = _draw(data, group="real floating", max_dims=2, min_dims=int(with_signature),
              min_side=int(with_signature), label="x")
    yshape = data.draw(S.broadcastable_shapes(x.shape), label="y shape")
    if with_signature:  # the core dimension n is the last axis of both
        yshape = tuple(yshape[:-1]) + x.shape[-1:]
        npf = np.vectorize(lambda u, v: np.max(u - v), signature="(n),(n)->()",
                           otypes=[x.dtype])
        f = resolve(xp, "vectorize")(lambda u, v: xp.max(u - v), signature="(n),(n)->()",
                                     otypes=[x.dtype.name])
    else:
        npf = np.vectorize(lambda u, v: u - v, otypes=[x.dtype])
        f = resolve(xp, "vectorize")(lambda u, v: u - v, otypes=[x.dtype.name])
    y = data.draw(S.arrays(x.dtype, yshape), label="y")
    with np.errstate(all="ignore"):
        expected = np.asarray(npf(x, y))
    out = f(as_xp(xp, x), as_xp(xp, y))
    assert_shape("vectorize", out, expected.shape)
    # (the sign of max(0.0, -0.0) is unspecified)
    assert_values("vectorize", to_numpy(out), expected.astype(x.dtype),
                  signed_zeros=not with_signature)


@spec("piecewise")
def _piecewise(xp, data):
    x = _draw(data, group="real floating", max_dims=2, label="x")
    x = np.nan_to_num(x, nan=0.0).astype(x.dtype)
    otherwise = data.draw(st.booleans(), label="otherwise")
    conds = [x < 0, x > 1]
    nfun = [lambda v: -v, 2.5] + ([lambda v: v * 0] if otherwise else [])
    with np.errstate(all="ignore"):
        expected = np.piecewise(x, conds, nfun)
    out = resolve(xp, "piecewise")(as_xp(xp, x), [as_xp(xp, c) for c in conds], nfun)
    _exact("piecewise", out, expected)


@spec("select")
def _select(xp, data):
    x = _draw(data, group="real numeric", label="x")
    c1 = data.draw(S.arrays("bool", x.shape), label="c1")
    c2 = data.draw(S.arrays("bool", data.draw(S.broadcastable_shapes(x.shape))), label="c2")
    y = data.draw(S.arrays(data.draw(S.dtypes("real numeric"), label="ydt"), x.shape),
                  label="y")
    default = data.draw(st.sampled_from([0, 1]), label="default")
    with np.errstate(all="ignore"):
        expected = np.select([c1, c2], [x, y], default)
    out = resolve(xp, "select")([as_xp(xp, c1), as_xp(xp, c2)], [as_xp(xp, x), as_xp(xp, y)],
                                default)
    _exact("select", out, expected)


@spec("choose")
def _choose(xp, data):
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    k = data.draw(st.integers(1, 3), label="number of choices")
    dtype = data.draw(S.dtypes("any"), label="dtype")
    choices = [data.draw(S.arrays(dtype, data.draw(S.broadcastable_shapes(shape))),
                         label=f"c{i}") for i in range(k)]
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    lo, hi = (0, k - 1) if mode == "raise" else (-5, 5)
    a = data.draw(S.arrays("int64", shape, min_value=lo, max_value=hi), label="a")
    expected = np.choose(a, choices, mode=mode)
    out = resolve(xp, "choose")(as_xp(xp, a), [as_xp(xp, c) for c in choices], mode=mode)
    _exact("choose", out, expected)


# ---- writing by position or mask (NumPy mutates; laxarray returns) -----------------------------
def _mutating(xp, name, args, kwargs):
    fn = resolve(xp, name)
    if _takes(xp, name, "inplace"):
        return fn(*args, inplace=False, **kwargs)
    fn(*args, **kwargs)
    return args[0]


@spec("place")
def _place(xp, data):
    x = _draw(data, label="arr")
    mask = data.draw(S.arrays("bool", x.shape), label="mask")
    vals = data.draw(S.arrays(x.dtype, (data.draw(st.integers(1, 3), label="nv"),)),
                     label="vals")
    expected = x.copy()
    np.place(expected, mask, vals)
    out = _mutating(xp, "place", [as_xp(xp, x), as_xp(xp, mask), as_xp(xp, vals)], {})
    _exact("place", out, expected)


@spec("put")
def _put(xp, data):
    x = _draw(data, min_side=1, label="a")
    n = x.size
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    lo, hi = (-n, n - 1) if mode == "raise" else (-2 * n - 1, 2 * n + 1)
    ind = data.draw(st.lists(st.integers(lo, hi), max_size=4), label="ind")
    v = data.draw(S.arrays(x.dtype, (data.draw(st.integers(1, 3), label="nv"),)), label="v")
    expected = x.copy()
    np.put(expected, ind, v, mode=mode)
    out = _mutating(xp, "put", [as_xp(xp, x), as_xp(xp, np.asarray(ind, np.int64)),
                                as_xp(xp, v)], {"mode": mode})
    _exact("put", out, expected)


@spec("put_along_axis")
def _put_along_axis(xp, data):
    x = _draw(data, min_dims=1, min_side=1, label="arr")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    ax = axis % x.ndim
    shape = tuple(1 if d == ax else s for d, s in enumerate(x.shape))
    ind = data.draw(S.arrays("int64", shape, min_value=-x.shape[ax],
                             max_value=x.shape[ax] - 1), label="indices")
    v = data.draw(S.arrays(x.dtype, ()), label="values")
    expected = x.copy()
    np.put_along_axis(expected, ind, v, axis)
    out = _mutating(xp, "put_along_axis", [as_xp(xp, x), as_xp(xp, ind), as_xp(xp, v), axis],
                    {})
    _exact("put_along_axis", out, expected)


@spec("extract", needs=("data_dependent_shapes",))
def _extract(xp, data):
    x = _draw(data, label="arr")
    cond = data.draw(S.arrays(data.draw(st.sampled_from(["bool", "int8"]), label="cdt"),
                              x.shape), label="condition")
    _exact("extract", resolve(xp, "extract")(as_xp(xp, cond), as_xp(xp, x)),
           np.extract(cond, x))


@spec("compress", needs=("data_dependent_shapes",))
def _compress(xp, data):
    x = _draw(data, min_dims=1, label="a")
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    n = x.size if axis is None else x.shape[axis]
    cond = data.draw(S.arrays("bool", (data.draw(st.integers(0, n), label="len"),)),
                     label="condition")
    _exact("compress", resolve(xp, "compress")(as_xp(xp, cond), as_xp(xp, x), axis=axis),
           np.compress(cond, x, axis=axis))
