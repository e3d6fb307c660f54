"""Conformance specs (extension "numpy") for laxarray.numpy_api.shaping (oracle: NumPy).

Splitting, stacking, index helpers and diagonal helpers move values, so they must match
exactly (dtype, shape, values); logspace/geomspace/mgrid compute and get ulp tolerances.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, strategies as st

from . import strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, to_numpy)
from .spec import Spec, as_xp, register, resolve


def _exact(name, out, expected):
    """dtype, shape and values (exact, or within ``name``'s bound: ranges, logspace)."""
    expected = np.asarray(expected)
    assert_dtype(name, out, expected.dtype.name)
    assert_shape(name, out, expected.shape)
    assert_values(name, to_numpy(out), expected)


def _exact_seq(name, outs, expected):
    outs, expected = list(outs), list(expected)
    if len(outs) != len(expected):
        raise ConformanceError(f"{name}: {len(outs)} results, expected {len(expected)}")
    for o, e in zip(outs, expected):
        _exact(name, o, e)


def _draw(data, *, min_dims=0, max_dims=3, min_side=0, group="any", label="x"):
    dtype = data.draw(S.dtypes(group), label=f"{label} dtype")
    shape = data.draw(S.shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side),
                      label=f"{label} shape")
    return data.draw(S.arrays(dtype, shape), label=label)


def spec(name, kind="function", needs=()):
    def deco(check):
        register(Spec(name, check, S.ALL, extension="numpy", kind=kind, needs=needs))
        return check
    return deco


# ---- splitting ------------------------------------------------------------------------------
def _split_arg(data, n, equal):
    if data.draw(st.booleans(), label="sections"):
        if equal:
            divisors = [d for d in range(1, n + 1) if n % d == 0] or [1]
            return data.draw(st.sampled_from(divisors), label="sections")
        return data.draw(st.integers(1, 5), label="sections")
    return data.draw(st.lists(st.integers(-n - 1, n + 2), max_size=3), label="indices")


def _split_spec(name, min_dims, axis_of=None):
    @spec(name)
    def check(xp, data):
        x = _draw(data, min_dims=min_dims)
        if axis_of is None:
            axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
            ax = axis % x.ndim
            args = (axis,)
        else:
            ax, args = axis_of(x.ndim), ()
        ios = _split_arg(data, x.shape[ax], name != "array_split")
        outs = resolve(xp, name)(as_xp(xp, x), ios, *args)
        _exact_seq(name, outs, getattr(np, name)(x, ios, *args))
    return check


_split_spec("split", 1)
_split_spec("array_split", 1)
_split_spec("hsplit", 1, lambda nd: 1 if nd > 1 else 0)
_split_spec("vsplit", 2, lambda nd: 0)
_split_spec("dsplit", 3, lambda nd: 2)


# ---- stacking -------------------------------------------------------------------------------
def _stack_inputs(data, name):
    """Arrays whose shapes fit ``name``'s joining rule, with mixed dtypes."""
    base = data.draw(S.shapes(max_dims=3), label="shape")
    count = data.draw(st.integers(1, 3), label="count")
    xs = []
    for i in range(count):
        shape = list(base)
        if name == "hstack" and len(base) >= 1:
            shape[0 if len(base) == 1 else 1] = data.draw(st.integers(0, 3))
        elif name == "vstack" and len(base) >= 2:
            shape[0] = data.draw(st.integers(0, 3))
        elif name == "dstack" and len(base) >= 3:
            shape[2] = data.draw(st.integers(0, 3))
        elif name == "column_stack" and len(base) >= 2:
            shape[1] = data.draw(st.integers(0, 3))
        dtype = data.draw(S.dtypes("any"), label=f"dtype{i}")
        xs.append(data.draw(S.arrays(dtype, tuple(shape)), label=f"x{i}"))
    return xs


def _stack_spec(name, with_dtype):
    @spec(name)
    def check(xp, data):
        xs = _stack_inputs(data, name)
        kwargs = {}
        if with_dtype and data.draw(st.booleans(), label="use dtype"):
            kwargs["dtype"] = data.draw(S.dtypes("any"), label="dtype")
        try:
            expected = getattr(np, name)(xs, **kwargs)
        except (ValueError, TypeError):
            assume(False)
        if "dtype" in kwargs:
            kwargs["dtype"] = getattr(xp, kwargs["dtype"])
        out = resolve(xp, name)([as_xp(xp, x) for x in xs], **kwargs)
        _exact(name, out, expected)
    return check


_stack_spec("hstack", True)
_stack_spec("vstack", True)
_stack_spec("dstack", False)
_stack_spec("column_stack", False)


@spec("block")
def _block(xp, data):
    # a 2 x 2 grid of blocks: rows share heights, columns share widths
    h = data.draw(st.lists(st.integers(0, 3), min_size=2, max_size=2), label="heights")
    w = data.draw(st.lists(st.integers(0, 3), min_size=2, max_size=2), label="widths")
    lead = data.draw(S.shapes(max_dims=1, max_side=2), label="lead")
    grid = [[data.draw(S.arrays(data.draw(S.dtypes("any")), lead + (h[i], w[j])),
                       label=f"b{i}{j}") for j in range(2)] for i in range(2)]
    flat = data.draw(st.booleans(), label="one row")
    layout = grid[0] if flat else grid
    expected = np.block(layout)
    out = resolve(xp, "block")([[as_xp(xp, b) for b in row] for row in layout] if not flat
                               else [as_xp(xp, b) for b in layout])
    _exact("block", out, expected)


def _atleast_spec(name):
    @spec(name)
    def check(xp, data):
        xs = [_draw(data, label=f"x{i}") for i in range(data.draw(st.integers(1, 2)))]
        outs = resolve(xp, name)(*[as_xp(xp, x) for x in xs])
        expected = getattr(np, name)(*xs)
        if len(xs) == 1:
            outs, expected = [outs], [expected]
        _exact_seq(name, outs, expected)
    return check


for _n in ("atleast_1d", "atleast_2d", "atleast_3d"):
    _atleast_spec(_n)


# ---- index helpers --------------------------------------------------------------------------
def _slices(data, complex_ok=True, float_ok=True):
    start = data.draw(st.integers(-3, 3), label="start")
    if complex_ok and data.draw(st.booleans(), label="complex step"):
        stop = data.draw(st.integers(-3, 3), label="stop")
        return slice(start, stop, complex(0, data.draw(st.integers(1, 5), label="num")))
    step = data.draw(st.sampled_from([1, 2, -1, 0.5] if float_ok else [1, 2, -1]),
                     label="step")
    stop = start + step * data.draw(st.integers(0, 4), label="length")
    return slice(start, stop, step)


@spec("r_", kind="index object")
def _r(xp, data):
    items = [_slices(data)]
    x = _draw(data, max_dims=1, group="real numeric")
    items.append(as_xp(xp, x))
    items.append(data.draw(st.sampled_from([0, 1.5, True]), label="scalar"))
    directive = data.draw(st.sampled_from([None, "r", "c", "0,2", "-1,2,0", "0"]),
                          label="directive")
    if directive in ("0,2", "-1,2,0"):
        items = items[:2]  # scalars and 1-D items made 2-D the same way
    np_items = [x if i == 1 else it for i, it in enumerate(items)]
    key = tuple(items) if directive is None else (directive, *items)
    np_key = tuple(np_items) if directive is None else (directive, *np_items)
    try:
        expected = np.asarray(np.r_[np_key])
    except ValueError:
        assume(False)
    _exact("r_", resolve(xp, "r_")[key], expected)


@spec("c_", kind="index object")
def _c(xp, data):
    n = data.draw(st.integers(0, 3), label="n")
    x = data.draw(S.arrays(data.draw(S.dtypes("real numeric")), (n,)), label="x")
    y = data.draw(S.arrays(data.draw(S.dtypes("real numeric")), (n, 2)), label="y")
    items = data.draw(st.permutations([0, 1]), label="order")
    np_items = [(x, y)[i] for i in items]
    _exact("c_", resolve(xp, "c_")[tuple(as_xp(xp, a) for a in np_items)],
           np.c_[tuple(np_items)])


@spec("s_", kind="index object")
def _s(xp, data):
    key = (data.draw(st.integers(-3, 3)), slice(None, data.draw(st.integers(0, 3)), 2), None,
           Ellipsis)
    n = data.draw(st.integers(1, 4), label="items")
    if resolve(xp, "s_")[key[:n]] != np.s_[key[:n]] or resolve(xp, "s_")[key[0]] != key[0]:
        raise ConformanceError(f"s_: {resolve(xp, 's_')[key[:n]]!r}, expected {key[:n]!r}")


@spec("index_exp", kind="index object")
def _index_exp(xp, data):
    i = data.draw(st.integers(-3, 3))
    got = (resolve(xp, "index_exp")[i], resolve(xp, "index_exp")[i, 1:2])
    if got != (np.index_exp[i], np.index_exp[i, 1:2]):
        raise ConformanceError(f"index_exp: {got!r}")


def _grid_spec(name):
    @spec(name, kind="index object")
    def check(xp, data):
        n = data.draw(st.integers(1, 3), label="ndim")
        key = tuple(_slices(data) for _ in range(n))
        if n == 1 and data.draw(st.booleans(), label="bare slice"):
            key = key[0]
        expected = getattr(np, name)[key]
        got = resolve(xp, name)[key]
        if isinstance(expected, tuple):
            _exact_seq(name, got, expected)
        else:
            _exact(name, got, expected)
    return check


_grid_spec("mgrid")
_grid_spec("ogrid")


@spec("ix_")
def _ix(xp, data):
    args = []
    for i in range(data.draw(st.integers(0, 3), label="n")):
        if data.draw(st.booleans(), label=f"bool{i}"):
            args.append(data.draw(S.arrays("bool", (data.draw(st.integers(0, 4)),))))
        else:
            args.append(data.draw(S.arrays(data.draw(S.dtypes("integral")),
                                           (data.draw(st.integers(0, 4)),),
                                           min_value=0, max_value=9)))
    _exact_seq("ix_", resolve(xp, "ix_")(*[as_xp(xp, a) for a in args]), np.ix_(*args))


@spec("indices")
def _indices(xp, data):
    dims = data.draw(S.shapes(max_dims=3), label="dimensions")
    dtype = data.draw(st.sampled_from(["int64", "int32", "float64"]), label="dtype")
    sparse = data.draw(st.booleans(), label="sparse")
    out = resolve(xp, "indices")(dims, dtype=getattr(xp, dtype), sparse=sparse)
    expected = np.indices(dims, dtype=dtype, sparse=sparse)
    if sparse:
        _exact_seq("indices", out, expected)
    else:
        _exact("indices", out, expected)


# ---- diagonals and triangles ----------------------------------------------------------------
@spec("diag")
def _diag(xp, data):
    x = _draw(data, min_dims=1, max_dims=2)
    k = data.draw(st.integers(-4, 4), label="k")
    _exact("diag", resolve(xp, "diag")(as_xp(xp, x), k), np.diag(x, k))


@spec("diagflat")
def _diagflat(xp, data):
    x = _draw(data, max_dims=2)
    k = data.draw(st.integers(-3, 3), label="k")
    _exact("diagflat", resolve(xp, "diagflat")(as_xp(xp, x), k), np.diagflat(x, k))


@spec("diagonal")
def _diagonal(xp, data):
    x = _draw(data, min_dims=2)
    a1, a2 = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=2, max_size=2,
                                unique_by=lambda a: a % x.ndim), label="axes")
    offset = data.draw(st.integers(-4, 4), label="offset")
    _exact("diagonal", resolve(xp, "diagonal")(as_xp(xp, x), offset, a1, a2),
           np.diagonal(x, offset, a1, a2))


@spec("diag_indices")
def _diag_indices(xp, data):
    n, ndim = data.draw(st.integers(0, 4), label="n"), data.draw(st.integers(1, 3), label="nd")
    _exact_seq("diag_indices", resolve(xp, "diag_indices")(n, ndim), np.diag_indices(n, ndim))


@spec("diag_indices_from")
def _diag_indices_from(xp, data):
    n, ndim = data.draw(st.integers(0, 3), label="n"), data.draw(st.integers(2, 3), label="nd")
    x = np.zeros((n,) * ndim, dtype=data.draw(S.dtypes("any")))
    _exact_seq("diag_indices_from", resolve(xp, "diag_indices_from")(as_xp(xp, x)),
               np.diag_indices_from(x))


@spec("tri")
def _tri(xp, data):
    n = data.draw(st.integers(0, 4), label="N")
    m = data.draw(st.one_of(st.none(), st.integers(0, 4)), label="M")
    k = data.draw(st.integers(-5, 5), label="k")
    dtype = data.draw(S.dtypes("any"), label="dtype")
    _exact("tri", resolve(xp, "tri")(n, m, k, dtype=getattr(xp, dtype)),
           np.tri(n, m, k, dtype=dtype))


def _tri_indices_spec(name):
    @spec(name)
    def check(xp, data):
        n = data.draw(st.integers(0, 3), label="n")
        m = data.draw(st.one_of(st.none(), st.integers(0, 3)), label="m")
        k = data.draw(st.integers(-3, 3), label="k")
        if name.endswith("_from"):
            x = np.zeros((n, n if m is None else m))
            got, expected = resolve(xp, name)(as_xp(xp, x), k), getattr(np, name)(x, k)
        else:
            got, expected = resolve(xp, name)(n, k, m), getattr(np, name)(n, k, m)
        _exact_seq(name, got, expected)
    return check


for _n in ("tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from"):
    _tri_indices_spec(_n)


@spec("mask_indices")
def _mask_indices(xp, data):
    n = data.draw(st.integers(0, 3), label="n")
    k = data.draw(st.integers(-2, 2), label="k")
    which = data.draw(st.sampled_from(["tril", "triu"]), label="mask_func")
    _exact_seq("mask_indices", resolve(xp, "mask_indices")(n, resolve(xp, which), k),
               np.mask_indices(n, getattr(np, which), k))


@spec("fill_diagonal")
def _fill_diagonal(xp, data):
    if data.draw(st.booleans(), label="square nd"):
        n = data.draw(st.integers(0, 3), label="n")
        shape = (n,) * data.draw(st.integers(2, 3), label="nd")
    else:
        shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=2, max_size=2)))
    dtype = data.draw(S.dtypes("any"), label="dtype")
    x = data.draw(S.arrays(dtype, shape), label="a")
    val = data.draw(S.arrays(dtype, data.draw(S.shapes(max_dims=1, max_side=3))), label="val")
    wrap = data.draw(st.booleans(), label="wrap")
    expected = x.copy()
    np.fill_diagonal(expected, val, wrap=wrap)
    a = as_xp(xp, x)
    out = resolve(xp, "fill_diagonal")(a, as_xp(xp, val), wrap=wrap)
    _exact("fill_diagonal", a if out is None else out, expected)


# ---- flat <-> multi indices -----------------------------------------------------------------
@spec("ravel_multi_index")
def _ravel_multi_index(xp, data):
    dims = data.draw(S.shapes(min_dims=1, min_side=1), label="dims")
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    order = data.draw(st.sampled_from(["C", "F"]), label="order")
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    lo, hi = (0, None) if mode == "raise" else (-6, 6)
    idx = [data.draw(S.arrays(data.draw(S.dtypes("signed integer")), shape, min_value=lo,
                              max_value=d - 1 if hi is None else hi), label=f"i{j}")
           for j, d in enumerate(dims)]
    out = resolve(xp, "ravel_multi_index")(tuple(as_xp(xp, i) for i in idx), dims, mode=mode,
                                           order=order)
    _exact("ravel_multi_index", out, np.ravel_multi_index(tuple(idx), dims, mode=mode,
                                                          order=order))


@spec("unravel_index")
def _unravel_index(xp, data):
    dims = data.draw(S.shapes(min_dims=1, min_side=1), label="shape")
    order = data.draw(st.sampled_from(["C", "F"]), label="order")
    size = int(np.prod(dims))
    idx = data.draw(S.arrays(data.draw(S.dtypes("integral")), data.draw(S.shapes(max_dims=2)),
                             min_value=0, max_value=min(size - 1, 127)), label="indices")
    _exact_seq("unravel_index", resolve(xp, "unravel_index")(as_xp(xp, idx), dims, order=order),
               np.unravel_index(idx, dims, order=order))


def _nonzero_spec(name):
    @spec(name, needs=("data_dependent_shapes",))
    def check(xp, data):
        x = _draw(data)
        _exact(name, resolve(xp, name)(as_xp(xp, x)), getattr(np, name)(x))
    return check


_nonzero_spec("argwhere")
_nonzero_spec("flatnonzero")


# ---- creation -------------------------------------------------------------------------------
@spec("array", kind="creation")
def _array(xp, data):
    x = _draw(data)
    ndmin = data.draw(st.integers(0, 4), label="ndmin")
    dtype = data.draw(st.one_of(st.none(), S.dtypes("any")), label="dtype")
    assume(dtype is None or np.can_cast(x.dtype, dtype, "same_kind"))
    as_list = data.draw(st.booleans(), label="nested list")
    obj = x.tolist() if as_list else x
    try:
        with np.errstate(all="ignore"):
            expected = np.array(obj, dtype=dtype, ndmin=ndmin)
    except OverflowError:  # Python ints out of the dtype's range: NumPy refuses
        assume(False)
    out = resolve(xp, "array")(obj if as_list else as_xp(xp, x),
                               dtype=None if dtype is None else getattr(xp, dtype), ndmin=ndmin)
    _exact("array", out, expected)


@spec("copy", kind="creation")
def _copy(xp, data):
    x = _draw(data)
    _exact("copy", resolve(xp, "copy")(as_xp(xp, x)), np.copy(x))


@spec("identity", kind="creation")
def _identity(xp, data):
    n = data.draw(st.integers(0, 4), label="n")
    dtype = data.draw(st.one_of(st.none(), S.dtypes("any")), label="dtype")
    _exact("identity", resolve(xp, "identity")(n, dtype=None if dtype is None else
                                               getattr(xp, dtype)), np.identity(n, dtype))


def _endpoints(data, complex_ok):
    kind = data.draw(st.sampled_from(["int", "float", "array"] + (["complex"] if complex_ok
                                                                    else [])), label="kind")
    if kind == "int":
        return [data.draw(st.integers(-5, 5).filter(bool)) for _ in range(2)]
    if kind == "complex":
        return [complex(data.draw(st.integers(-3, 3)), data.draw(st.integers(1, 3)))
                for _ in range(2)]
    if kind == "float":
        return [data.draw(st.floats(-8, 8).filter(lambda v: abs(v) > 0.01)) for _ in range(2)]
    dtype = data.draw(S.dtypes("real floating"), label="endpoint dtype")
    shape = data.draw(S.shapes(max_dims=1, max_side=3))
    n = int(np.prod(shape))
    return [np.asarray(data.draw(st.lists(st.floats(0.5, 4.0), min_size=n, max_size=n)),
                       dtype=dtype).reshape(shape) for _ in range(2)]


def _space_spec(name):
    @spec(name, kind="creation")
    def check(xp, data):
        start, stop = _endpoints(data, complex_ok=True)
        num = data.draw(st.integers(0, 6), label="num")
        endpoint = data.draw(st.booleans(), label="endpoint")
        nd = max(np.ndim(start), np.ndim(stop)) + 1
        axis = data.draw(st.integers(-nd, nd - 1), label="axis")
        kw = dict(num=num, endpoint=endpoint, axis=axis)
        if name == "logspace" and data.draw(st.booleans(), label="base"):
            kw["base"] = data.draw(st.sampled_from([2.0, 0.5, 3]), label="base value")
        with np.errstate(all="ignore"):
            expected = getattr(np, name)(start, stop, **kw)
        args = [as_xp(xp, a) if isinstance(a, np.ndarray) else a for a in (start, stop)]
        out = resolve(xp, name)(*args, **kw)
        _exact(name, out, expected)  # pow/log on different libms: see their bounds
    return check


_space_spec("logspace")
_space_spec("geomspace")


@spec("fromfunction", kind="creation")
def _fromfunction(xp, data):
    # few distinct shapes/dtypes: every new one compiles the function's operations
    shape = data.draw(st.sampled_from([(3,), (2, 3), (0, 2), (2, 1, 2)]), label="shape")
    dtype = data.draw(st.sampled_from(["float64", "int32"]), label="dtype")
    scale = data.draw(st.integers(1, 3), label="scale")

    def f(*idx, scale):
        total = idx[0] * scale
        for i in idx[1:]:
            total = total + i
        return total

    out = resolve(xp, "fromfunction")(f, shape, dtype=getattr(xp, dtype), scale=scale)
    _exact("fromfunction", out, np.fromfunction(f, shape, dtype=dtype, scale=scale))
