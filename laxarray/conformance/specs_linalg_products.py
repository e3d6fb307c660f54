"""Conformance specs of the linalg extension's products and views against NumPy: matmul,
tensordot, vecdot, outer, cross, trace, multi_dot, diagonal, matrix_transpose.

Real floating inputs get special values where they change a product's answer
(:func:`~laxarray.conformance.strategies.placed_pair`): a NaN in a contracted slice, an
all-NaN slice, an infinity meeting a zero of the other operand in one product, ``+inf``
and ``-inf`` in one sum.  IEEE arithmetic decides these outcomes whatever the summation
order (``inf * 0`` and ``inf - inf`` are NaN, NaN propagates); only the sign of a zero
result depends on the order, so zeros compare without sign.  Complex inputs get none: the
order of a complex product's operations decides which parts ``inf * 0`` makes NaN.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, promotion, strategies as S
from .compare import assert_dtype, assert_shape, assert_values, to_numpy
from .spec import as_xp, promotable_pairs
from .specs_linalg import (close, draw_array, draw_batch, draw_dtype, fn,
                                               spec, upcast)

_SMALL = {"lo": -8, "hi": 8}


def _result_class(pair):
    return S.kind_class(promotion.result_type(*pair))


def _pair(data, group="numeric"):
    """A dtype pair the standard defines, the class of its result (integer, real or
    complex floating) drawn first: the many integer pairs do not crowd out the few real
    floating ones, where the specials are placed."""
    return data.draw(S.by_kind(promotable_pairs(group), key=_result_class), label="dtypes")


def _finite_max(expected):
    """``max(1, max |expected|)`` over the finite expected values (NaN and infinities are
    compared exactly, whatever the bound)."""
    e = np.asarray(expected)
    return max(1.0, float(np.abs(e[np.isfinite(e)]).max(initial=0)))


def _product_compare(name, out, expected, d1, d2):
    dt = np.dtype(device_dtypes.result_type(d1, d2))
    assert_dtype(name, out, dt.name)
    assert_shape(name, out, np.shape(expected))
    got = to_numpy(out)
    if dt.kind in "iub":
        assert_values(name, got, np.asarray(expected).astype(dt))
    else:
        close(name, got, expected, scale=_finite_max(expected))


def _oracle(f, *args, **kwargs):
    with np.errstate(all="ignore"):  # inf * 0, inf - inf: NaN, as IEEE says
        return f(*args, **kwargs)


def tensordot_oracle(x1, x2, k):
    """``np.tensordot(x1, x2, axes=k)`` computed by ``np.matmul``, which sums every
    product as IEEE says.  NumPy's tensordot (and ``np.dot``, ``np.linalg.multi_dot``)
    goes through ``np.dot``, which takes a 1x1 operand for a scalar and BLAS-scales the
    other by it: a zero makes NaN and inf 0 (``np.tensordot(0.0, [inf], axes=0)`` is
    ``[0.]``, not ``[nan]``)."""
    x1, x2 = np.asarray(x1), np.asarray(x2)
    free1, free2 = x1.shape[:x1.ndim - k], x2.shape[k:]
    inner = math.prod(x2.shape[:k])
    out = _oracle(np.matmul, x1.reshape(math.prod(free1), inner),
                  x2.reshape(inner, math.prod(free2)))
    return out.reshape(free1 + free2)


def matmul_placed(data, x1, x2):
    """``(x1, x2)`` of a matmul (either 1-D) with specials placed for one output element
    (:func:`~laxarray.conformance.strategies.placed_pair`): x1's last axis meets x2's
    first (1-D) or second to last, the stacks broadcast."""
    n1, n2 = x1.ndim, x2.ndim
    return data.draw(S.placed_pair(x1, x2, (n1 - 1,), (0 if n2 == 1 else n2 - 2,),
                                   batch1=tuple(range(n1 - 2)), batch2=tuple(range(n2 - 2))),
                     label="placed")


@spec("linalg.matmul", dtypes=S.NUMERIC)
def _matmul(xp, data):
    d1, d2 = _pair(data)
    m, k, n = (data.draw(st.integers(0, 4), label=lbl) for lbl in "mkn")
    b1 = draw_batch(data)
    b2 = data.draw(S.broadcastable_shapes(tuple(b1)), label="batch2")
    s1 = (k,) if data.draw(st.booleans(), label="vec1") else tuple(b1) + (m, k)
    s2 = (k,) if data.draw(st.booleans(), label="vec2") else tuple(b2) + (k, n)
    x1, x2 = draw_array(data, d1, s1, **_SMALL), draw_array(data, d2, s2, **_SMALL, label="x2")
    x1, x2 = matmul_placed(data, x1, x2)
    out = fn(xp, "linalg.matmul")(as_xp(xp, x1), as_xp(xp, x2))
    dt = np.dtype(device_dtypes.result_type(d1, d2))
    _product_compare("linalg.matmul", out, _oracle(np.matmul, x1.astype(dt), x2.astype(dt)),
                     d1, d2)


@spec("linalg.tensordot", dtypes=S.NUMERIC)
def _tensordot(xp, data):
    d1, d2 = _pair(data)
    a = data.draw(S.shapes(max_dims=2, max_side=3), label="free1")
    c = data.draw(S.shapes(max_dims=2, max_side=3), label="contracted")
    b = data.draw(S.shapes(max_dims=1, max_side=3), label="free2")
    x1 = draw_array(data, d1, a + c, **_SMALL)
    x2 = draw_array(data, d2, c + b, **_SMALL, label="x2")
    x1, x2 = data.draw(S.placed_pair(x1, x2, tuple(range(len(a), len(a + c))),
                                     tuple(range(len(c)))), label="placed")
    out = fn(xp, "linalg.tensordot")(as_xp(xp, x1), as_xp(xp, x2), axes=len(c))
    dt = np.dtype(device_dtypes.result_type(d1, d2))
    _product_compare("linalg.tensordot", out,
                     tensordot_oracle(x1.astype(dt), x2.astype(dt), len(c)), d1, d2)


@spec("linalg.vecdot", dtypes=S.NUMERIC)
def _vecdot(xp, data):
    d1, d2 = _pair(data)
    batch = draw_batch(data, max_dims=2)
    k = data.draw(st.integers(0, 4), label="k")
    b2 = data.draw(S.broadcastable_shapes(tuple(batch)), label="batch2")
    x1 = draw_array(data, d1, tuple(batch) + (k,), **_SMALL)
    x2 = draw_array(data, d2, tuple(b2) + (k,), **_SMALL, label="x2")
    x1, x2 = data.draw(S.placed_pair(x1, x2, (-1,), (-1,), batch1=tuple(range(len(batch))),
                                     batch2=tuple(range(len(b2)))), label="placed")
    out = fn(xp, "linalg.vecdot")(as_xp(xp, x1), as_xp(xp, x2), axis=-1)
    dt = np.dtype(device_dtypes.result_type(d1, d2))
    with np.errstate(all="ignore"):
        expected = np.sum(np.conj(x1.astype(dt)) * x2.astype(dt), axis=-1, dtype=dt)
    _product_compare("linalg.vecdot", out, expected, d1, d2)


@spec("linalg.outer", dtypes=S.NUMERIC)
def _outer(xp, data):
    d1, d2 = _pair(data)
    x1 = draw_array(data, d1, (data.draw(st.integers(0, 4), label="n"),), **_SMALL)
    x2 = draw_array(data, d2, (data.draw(st.integers(0, 4), label="m"),), **_SMALL, label="x2")
    # no contracted axis: the specials meet in one product x1[i] * x2[j]
    x1, x2 = data.draw(S.placed_pair(x1, x2, (), (), kinds=(
        "as drawn", "one nan", "inf times zero", "opposite infinities")), label="placed")
    out = fn(xp, "linalg.outer")(as_xp(xp, x1), as_xp(xp, x2))
    dt = np.dtype(device_dtypes.result_type(d1, d2))
    _product_compare("linalg.outer", out, _oracle(np.outer, x1.astype(dt), x2.astype(dt)),
                     d1, d2)


#: cross's component ``i`` is ``a[j] b[k] - a[k] b[j]``: ``(j, k)`` by ``i``
_CROSS_TERMS = ((1, 2), (2, 0), (0, 1))


def _cross_placed(data, x1, x2, axis):
    """``(x1, x2)`` (real floating; others as they are) with specials placed in one
    output vector of ``cross(x1, x2, axis=axis)``: a NaN in one component, ``+-inf``
    meeting ``+-0`` in one product of component ``i`` (NaN), or ``inf * v - inf * v`` in
    component ``i`` (NaN, in any order)."""
    x1, x2 = np.array(x1, copy=True), np.array(x2, copy=True)
    if x1.dtype.kind != "f" or x2.dtype.kind != "f" or x1.size == 0 or x2.size == 0:
        return x1, x2
    kind = data.draw(st.sampled_from(("as drawn", "one nan", "inf times zero",
                                      "inf minus inf")), label="placement")
    if kind == "as drawn":
        return x1, x2
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    where = [data.draw(st.integers(0, n - 1), label="output index") for n in shape]
    ax = axis % len(shape)

    def at(x, comp):  # x's element of component ``comp`` of the drawn output vector
        where[ax] = comp
        return S.broadcast_index(where, x.shape)

    i = data.draw(st.integers(0, 2), label="component")
    j, k = _CROSS_TERMS[i]
    a, b = (x2, x1) if data.draw(st.booleans(), label="swap") else (x1, x2)
    if kind == "one nan":
        a[at(a, data.draw(st.integers(0, 2), label="at"))] = np.nan
    elif kind == "inf times zero":  # a[j] b[k] is inf * 0
        a[at(a, j)] = data.draw(st.sampled_from((np.inf, -np.inf)), label="inf")
        b[at(b, k)] = data.draw(st.sampled_from((0.0, -0.0)), label="zero")
    else:  # a[j] = a[k] = inf and b[j] = b[k] = v: inf * v - inf * v
        v = data.draw(st.sampled_from((1.0, -1.0, 0.5, -2.0)), label="factor")
        a[at(a, j)] = a[at(a, k)] = data.draw(st.sampled_from((np.inf, -np.inf)), label="inf")
        b[at(b, j)] = b[at(b, k)] = v
    return x1, x2


@spec("linalg.cross", dtypes=S.NUMERIC)
def _cross(xp, data):
    d1, d2 = _pair(data)
    base = data.draw(S.shapes(max_dims=2, max_side=3), label="base")
    pos = data.draw(st.integers(0, len(base)), label="position")
    shape = tuple(base[:pos]) + (3,) + tuple(base[pos:])
    axis = pos - len(shape)
    shape2 = data.draw(S.broadcastable_shapes(shape), label="shape2")
    if len(shape2) < -axis or shape2[axis] != 3:
        shape2 = shape
    x1 = draw_array(data, d1, shape, **_SMALL)
    x2 = draw_array(data, d2, shape2, **_SMALL, label="x2")
    x1, x2 = _cross_placed(data, x1, x2, axis)
    out = fn(xp, "linalg.cross")(as_xp(xp, x1), as_xp(xp, x2), axis=axis)
    dt = np.dtype(device_dtypes.result_type(d1, d2))
    expected = _oracle(np.cross, x1.astype(dt), x2.astype(dt), axis=axis)
    _product_compare("linalg.cross", out, expected, d1, d2)


@spec("linalg.diagonal", dtypes=S.ALL)
def _diagonal(xp, data):
    dtype = draw_dtype(data, "any")
    shape = tuple(draw_batch(data)) + data.draw(S.shapes(2, 2, 0, 4), label="matrix")
    x = data.draw(S.arrays(dtype, shape), label="x")
    offset = data.draw(st.integers(-5, 5), label="offset")
    out = fn(xp, "linalg.diagonal")(as_xp(xp, x), offset=offset)
    expected = np.diagonal(x, offset, axis1=-2, axis2=-1)
    assert_dtype("linalg.diagonal", out, dtype)
    assert_shape("linalg.diagonal", out, expected.shape)
    assert_values("linalg.diagonal", to_numpy(out), expected)


@spec("linalg.matrix_transpose", dtypes=S.ALL)
def _matrix_transpose(xp, data):
    dtype = draw_dtype(data, "any")
    shape = tuple(draw_batch(data)) + data.draw(S.shapes(2, 2, 0, 4), label="matrix")
    x = data.draw(S.arrays(dtype, shape), label="x")
    out = fn(xp, "linalg.matrix_transpose")(as_xp(xp, x))
    assert_dtype("linalg.matrix_transpose", out, dtype)
    assert_values("linalg.matrix_transpose", to_numpy(out), np.swapaxes(x, -1, -2))


def _sum_dtype(dtype):
    """The standard's ``trace`` dtype: the default (unsigned) integer dtype of the run's
    device for (unsigned) integers, the input's dtype otherwise."""
    kind = np.dtype(dtype).kind
    default = {"i": "integral", "u": "unsigned"}.get(kind)
    return np.dtype(device_dtypes.default(default) if default else np.dtype(dtype).name)


def _trace_placed(data, x, offset):
    """``x`` (floating; others as they are) with specials placed on the diagonal at
    ``offset`` -- a NaN, an all-NaN diagonal, ``+inf`` beside ``-inf`` (``inf - inf``) in
    one matrix, as :func:`~laxarray.conformance.strategies.placed` places them in a sum --
    or a NaN off it, which the trace must not see (``sum(x * eye)`` would: NaN * 0).  A
    sum has no products: complex values get them too (in the real part)."""
    x = np.array(x, copy=True)
    if x.dtype.kind not in "fc" or x.size == 0:
        return x
    kind = data.draw(st.sampled_from(("on the diagonal", "nan off the diagonal")),
                     label="where")
    m, n = x.shape[-2:]
    rows = np.arange(max(0, min(m - max(0, -offset), n - max(0, offset))))
    rows, cols = rows + max(0, -offset), rows + max(0, offset)
    if kind == "on the diagonal":
        x[..., rows, cols] = data.draw(S.placed(x[..., rows, cols], -1, (
            "as drawn", "one nan", "nan slice", "infinities")), label="diagonal placed")
        return x
    off = np.ones((m, n), dtype=bool)
    off[rows, cols] = False
    if off.any():
        cells = np.argwhere(off)
        r, c = cells[data.draw(st.integers(0, len(cells) - 1), label="cell")]
        batch = tuple(data.draw(st.integers(0, s - 1), label="matrix") for s in x.shape[:-2])
        x[batch + (r, c)] = np.nan
    return x


@spec("linalg.trace", dtypes=S.NUMERIC)
def _trace(xp, data):
    dtype = draw_dtype(data, "numeric")
    shape = tuple(draw_batch(data)) + data.draw(S.shapes(2, 2, 0, 4), label="matrix")
    x = draw_array(data, dtype, shape, **_SMALL)
    offset = data.draw(st.integers(-4, 4), label="offset")
    x = _trace_placed(data, x, offset)
    rdt = _sum_dtype(dtype)
    kwargs = {"dtype": getattr(xp, rdt.name)} \
        if data.draw(st.booleans(), label="dtype passed") else {}  # (the one it defaults to)
    out = fn(xp, "linalg.trace")(as_xp(xp, x), offset=offset, **kwargs)
    expected = _oracle(np.trace, x.astype(rdt), offset, axis1=-2, axis2=-1).astype(rdt)
    assert_dtype("linalg.trace", out, rdt.name)
    assert_shape("linalg.trace", out, expected.shape)
    if rdt.kind in "iu":
        assert_values("linalg.trace", to_numpy(out), expected)
    else:
        close("linalg.trace", to_numpy(out), expected, scale=8.0)


@spec("linalg.multi_dot", notes="NumPy extra")
def _multi_dot(xp, data):
    dtype = draw_dtype(data)
    count = data.draw(st.integers(2, 4), label="count")
    dims = data.draw(st.lists(st.integers(1, 4), min_size=count + 1, max_size=count + 1),
                     label="dims")
    first_vec = data.draw(st.booleans(), label="first_vec")
    last_vec = data.draw(st.booleans(), label="last_vec")
    arrays = []
    for i in range(count):
        shape = (dims[i], dims[i + 1])
        if i == 0 and first_vec:
            shape = shape[1:]
        if i == count - 1 and last_vec:
            shape = shape[:1]
        arrays.append(draw_array(data, dtype, shape, label=f"x{i}"))
    if np.dtype(dtype).kind == "f":
        # NaN only: a NaN reaches the same outputs whatever the parenthesization, an
        # infinity does not (A = [inf], B = [1, 1], C = [1, 0]^T: (A B) C is inf * 1 +
        # inf * 0, NaN; A (B C) is inf * 1, inf), and each implementation picks its own
        # parenthesization by cost
        i = data.draw(st.integers(0, count - 1), label="operand")
        arrays[i] = data.draw(S.placed(arrays[i], 0 if i == count - 1 else -1, (
            "as drawn", "one nan", "nan slice")), label="placed")
    out = fn(xp, "linalg.multi_dot")([as_xp(xp, a) for a in arrays])
    # the oracle multiplies in order with np.matmul (np.linalg.multi_dot's np.dot makes
    # NaN * 0 zero where an operand is 1x1: see tensordot_oracle)
    expected = functools.reduce(lambda a, b: _oracle(np.matmul, a, b),
                                [upcast(a) for a in arrays])
    assert_dtype("linalg.multi_dot", out, dtype)
    close("linalg.multi_dot", to_numpy(out), expected, scale=4.0 ** (count - 1))
