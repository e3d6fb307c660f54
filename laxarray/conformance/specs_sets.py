"""Conformance specs of the set functions (oracles: numpy.unique_all ... and numpy.isin).

The standard leaves the order of unique values unspecified, so results are compared after a
stable sort by value; each NaN is a distinct value with a count of one, and the sign of a
returned zero is free.  Properties checked besides: ``values[inverse_indices]`` rebuilds
``x`` (shape of ``x``), and ``indices`` point at the first occurrence of each value.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, strategies as S
from .compare import ConformanceError, assert_dtype, assert_shape, \
    assert_values, to_numpy
from .spec import Spec, as_xp, promotable_pairs, register


#: the placements of :func:`~laxarray.conformance.strategies.placed` in a pool of values
_POOL_PLACEMENTS = ("as drawn", "nan slice", "one nan", "signed zeros", "signed zeros")


def _draw_x(data):
    dtype = data.draw(S.dtypes("any"), label="dtype")
    shape = data.draw(S.shapes(max_dims=2, max_side=5), label="shape")
    # a small pool of values, so that repeats (and repeated NaNs, signed zeros) are common
    pool = data.draw(S.arrays(dtype, (3,)), label="pool")
    # on purpose: NaN twice or more (each a distinct value, count one), -0.0 beside +0.0
    # (one value, counts aggregated)
    pool = data.draw(S.placed(pool, None, _POOL_PLACEMENTS), label="pool placed")
    picks = data.draw(S.arrays("int64", shape, min_value=0, max_value=2), label="picks")
    return pool[picks]


def _sorted(values, *others):
    order = np.argsort(values, kind="stable")
    return (values[order],) + tuple(o[order] for o in others)


def _check_values(fn, values, expected):
    assert_dtype(fn, values, expected.dtype.name)
    assert_shape(fn, values, expected.shape)
    got = to_numpy(values)
    assert_values(fn, _sorted(got)[0], _sorted(expected)[0], signed_zeros=False)
    return got


def _check_counts(fn, values, counts, expected_values, expected_counts):
    assert_dtype(fn, counts, device_dtypes.default("indexing"))
    assert_shape(fn, counts, expected_counts.shape)
    got_v, got_c = _sorted(values, to_numpy(counts))
    _, exp_c = _sorted(expected_values, expected_counts)
    assert_values(fn, got_c, exp_c)


def _check_inverse(fn, x, values, inverse):
    assert_dtype(fn, inverse, device_dtypes.default("indexing"))
    assert_shape(fn, inverse, x.shape)
    inv = to_numpy(inverse)
    if x.size and (inv.min() < 0 or inv.max() >= values.size):
        raise ConformanceError(f"{fn}: inverse_indices out of range")
    assert_values(fn, values[inv] if x.size else x, x, signed_zeros=False)


def _check_indices(fn, x, values, indices):
    assert_dtype(fn, indices, device_dtypes.default("indexing"))
    assert_shape(fn, indices, values.shape)
    idx = to_numpy(indices)
    flat = x.reshape(-1)
    if values.size and (idx.min() < 0 or idx.max() >= flat.size):
        raise ConformanceError(f"{fn}: indices out of range")
    assert_values(fn, flat[idx], values, signed_zeros=False)
    for i, v in zip(idx, values):
        if v == v and np.flatnonzero(flat == v)[0] != i:
            raise ConformanceError(f"{fn}: index {i} is not the first occurrence of {v!r}")


def _unique_all(xp, data):
    x = _draw_x(data)
    exp = np.unique_all(x)
    out = xp.unique_all(as_xp(xp, x))
    values = _check_values("unique_all", out.values, exp.values)
    _check_counts("unique_all", values, out.counts, exp.values, exp.counts)
    _check_inverse("unique_all", x, values, out.inverse_indices)
    _check_indices("unique_all", x, values, out.indices)


def _unique_counts(xp, data):
    x = _draw_x(data)
    exp = np.unique_counts(x)
    out = xp.unique_counts(as_xp(xp, x))
    values = _check_values("unique_counts", out.values, exp.values)
    _check_counts("unique_counts", values, out.counts, exp.values, exp.counts)


def _unique_inverse(xp, data):
    x = _draw_x(data)
    exp = np.unique_inverse(x)
    out = xp.unique_inverse(as_xp(xp, x))
    values = _check_values("unique_inverse", out.values, exp.values)
    _check_inverse("unique_inverse", x, values, out.inverse_indices)


def _unique_values(xp, data):
    x = _draw_x(data)
    _check_values("unique_values", xp.unique_values(as_xp(xp, x)), np.unique_values(x))


def _fits(value, dtype):
    """Whether the integer ``value`` lies in the range of integer ``dtype``."""
    info = np.iinfo(np.dtype(dtype))
    return info.min <= int(value) <= info.max


def _isin(xp, data):
    # the standard: x1 and x2 "should have an integer data type" -- floating inputs are
    # not required (array_api_strict rejects them with a TypeError)
    d1, d2 = data.draw(st.sampled_from(promotable_pairs("integral")), label="dtypes")
    pool = data.draw(S.arrays(d1, (4,)), label="pool")
    pool = data.draw(S.placed(pool, None, _POOL_PLACEMENTS), label="pool placed")
    shape1 = data.draw(S.shapes(max_dims=2, max_side=4), label="shape1")
    x1 = pool[data.draw(S.arrays("int64", shape1, min_value=0, max_value=3), label="p1")]
    m = data.draw(st.integers(0, 4), label="m")
    x2 = pool[data.draw(S.arrays("int64", (m,), min_value=0, max_value=3), label="p2")]
    invert = data.draw(st.booleans(), label="invert")
    # a Python int (weak) for one of them: x2 (of one element), or x1 (its first)
    # (a Python int is read in the other operand's dtype: one it fits in)
    scalar = data.draw(st.sampled_from(["none", "x2", "x1"]), label="int operand")
    if scalar == "x2" and m >= 1 and _fits(x2[0], d1):
        x2 = x2[:1]
        arg2 = int(x2[0])
    else:
        with np.errstate(all="ignore"):
            x2 = x2.astype(d2)
        arg2 = as_xp(xp, x2)
    arg1 = as_xp(xp, x1)
    if scalar == "x1" and x1.size and _fits(x1.reshape(-1)[0], x2.dtype):
        x1 = x1.reshape(-1)[0]
        arg1 = int(x1)
    keep = None  # two arrays promoted to a narrower dtype than the table's on the device:
    # the values it cannot hold compare as the namespace makes them, left out
    if not isinstance(arg1, int) and not isinstance(arg2, int) and \
            device_dtypes.narrowed_range(d1, d2) is not None:
        x2 = x2[~device_dtypes.beyond((d1, d2), x2)]
        arg2 = as_xp(xp, x2)
        keep = ~device_dtypes.beyond((d1, d2), x1)
    expected = np.isin(x1, x2, invert=invert)
    out = xp.isin(arg1, arg2, invert=invert)
    assert_dtype("isin", out, "bool")
    assert_shape("isin", out, x1.shape)
    got = to_numpy(out)
    if keep is not None:
        got, expected = got[keep], expected[keep]
    assert_values("isin", got, expected)


for _name, _check in (("unique_all", _unique_all), ("unique_counts", _unique_counts),
                      ("unique_inverse", _unique_inverse), ("unique_values", _unique_values),
                      ("isin", _isin)):
    register(Spec(_name, _check, S.ALL, kind="set",
                  needs=("data_dependent_shapes",) if _name.startswith("unique") else ()))
