"""Statistical functions of the standard: reductions and cumulative sums/products.

``axis``, ``dtype``, ``keepdims``, ``correction`` and ``include_initial`` are static under
``jax.jit``; each traces to one lax reduction (``reduce_sum``, ``reduce_max``, ``cumsum``...).
Integer sums and products accumulate in the default integer of their signedness (int64 or
uint64), booleans in int64, as in NumPy and the standard.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.kernel import call, kernel
from laxarray._core.validate import check_bool, normalize_axes, normalize_axis
from laxarray.array_api._array import wrap
from laxarray.array_api._convert import to_raw
from laxarray.array_api._ufunc import exact_div



def accumulation_dtype(fn, x_dtype, dtype):
    """Result dtype of sum/prod/cumulative_*: ``dtype`` if given, else widened integers."""
    if dtype is not None:
        dt = _dt.canonicalize_dtype(fn, dtype)
        if _dt.kind_of(x_dtype) == "c" and _dt.kind_of(dt) != "c":
            fail(TypeError, fn, f"a complex 'dtype' for complex input of {x_dtype}", dt)
        return dt
    if _dt.kind_of(x_dtype) == "b" or _dt.kind_of(x_dtype) == "i":
        return _dt.promote_types(x_dtype, _dt.int64)
    if _dt.kind_of(x_dtype) == "u":
        return _dt.promote_types(x_dtype, _dt.uint64)
    return x_dtype


def _finish(y, axes, keepdims):
    return lax.expand_dims(y, axes) if keepdims and axes else y


@kernel(static=("axes", "dtype", "keepdims", "op"))
def _reduce_kernel(x, *, axes, dtype, keepdims, op):
    if dtype is not None:
        x = lax.convert_element_type(x, dtype)
    if op == "sum":
        y = lax.reduce_sum(x, axes)
    elif op == "prod":
        y = lax.reduce_prod(x, axes)
    elif op == "max":
        y = lax.reduce_max(x, axes)
    elif op == "min":
        y = lax.reduce_min(x, axes)
    elif op == "all":
        y = lax.reduce_and(_truthy(x), axes)
    elif op == "any":
        y = lax.reduce_or(_truthy(x), axes)
    else:  # count_nonzero
        y = lax.reduce_sum(lax.convert_element_type(_truthy(x), np.int64), axes)
    return _finish(y, axes, keepdims)


def _truthy(x):
    if x.dtype == np.bool_:
        return x
    return lax.ne(x, lax.full_like(x, 0))


def _reduction(fn, x, axis, keepdims, category):
    raw = to_raw(fn, x)
    if raw.dtype not in _dt.CATEGORIES[category]:
        _dt.check_category(fn, "x", raw.dtype, category)
    axes = normalize_axes(fn, axis, raw.ndim)
    check_bool(fn, keepdims, "keepdims")
    return raw, axes


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Sum over ``axis``. Array API: sum. NumPy: numpy.sum."""
    raw, axes = _reduction("sum", x, axis, keepdims, "any")
    dt = accumulation_dtype("sum", raw.dtype, dtype)
    return call(_reduce_kernel, raw, axes=axes, dtype=dt, keepdims=keepdims, op="sum")


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Product over ``axis``. Array API: prod. NumPy: numpy.prod."""
    raw, axes = _reduction("prod", x, axis, keepdims, "any")
    dt = accumulation_dtype("prod", raw.dtype, dtype)
    return call(_reduce_kernel, raw, axes=axes, dtype=dt, keepdims=keepdims, op="prod")


def _extremum(fn, op, x, axis, keepdims):
    raw, axes = _reduction(fn, x, axis, keepdims, "real")
    if builtins.any(raw.shape[a] == 0 for a in axes):
        fail(ValueError, fn, "non-empty reduction axes (max/min of nothing is undefined)", x)
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op=op)


def max(x, /, *, axis=None, keepdims=False):
    """Maximum over ``axis``; NaN propagates. Array API: max. NumPy: numpy.max."""
    return _extremum("max", "max", x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    """Minimum over ``axis``; NaN propagates. Array API: min. NumPy: numpy.min."""
    return _extremum("min", "min", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False):
    """Whether all elements are truthy (NaN is truthy). Array API: all. NumPy: numpy.all."""
    raw, axes = _reduction("all", x, axis, keepdims, "any")
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op="all")


def any(x, /, *, axis=None, keepdims=False):
    """Whether any element is truthy. Array API: any. NumPy: numpy.any."""
    raw, axes = _reduction("any", x, axis, keepdims, "any")
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op="any")


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """Number of non-zero elements (int64). Array API: count_nonzero. NumPy: numpy.count_nonzero."""
    raw, axes = _reduction("count_nonzero", x, axis, keepdims, "any")
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op="count")


@kernel(static=("axes", "keepdims", "count", "correction", "op"))
def _moment_kernel(x, *, axes, keepdims, count, correction, op):
    total = lax.reduce_sum(x, axes)
    if _dt.kind_of(x.dtype) == "c":  # divide each part by the real count
        n = lax.full_like(lax.real(total), count)
        mean = lax.complex(exact_div(lax.real(total), n), exact_div(lax.imag(total), n))
    else:
        mean = exact_div(total, lax.full_like(total, count))
    if op == "mean":
        return _finish(mean, axes, keepdims)
    centred = lax.sub(x, lax.expand_dims(mean, axes))
    sq = lax.real(lax.mul(centred, lax.conj(centred))) if _dt.kind_of(x.dtype) == "c" else lax.mul(
        centred, centred)
    denom = builtins.max(count - correction, 0)
    ss = lax.reduce_sum(sq, axes)
    var = exact_div(ss, lax.full_like(ss, denom))
    if op == "std":
        var = lax.sqrt(var)
    return _finish(var, axes, keepdims)


def _float_input(fn, x):
    raw = to_raw(fn, x)
    if _dt.kind_of(raw.dtype) not in "fc":
        if raw.dtype not in _dt.CATEGORIES["real"]:
            _dt.check_category(fn, "x", raw.dtype, "floating-point")
        raw = lax.convert_element_type(raw, _dt.DEFAULT_FLOAT)
    return raw


def mean(x, /, *, axis=None, keepdims=False):
    """Arithmetic mean (complex allowed; integers averaged in float64; empty gives NaN).
    Array API: mean. NumPy: numpy.mean."""
    raw = _float_input("mean", x)
    axes = normalize_axes("mean", axis, raw.ndim)
    check_bool("mean", keepdims, "keepdims")
    count = math.prod(raw.shape[a] for a in axes)
    return call(_moment_kernel, raw, axes=axes, keepdims=keepdims, count=count,
                correction=0.0, op="mean")


def _spread(fn, op, x, axis, correction, keepdims):
    raw = _float_input(fn, x)
    axes = normalize_axes(fn, axis, raw.ndim)
    check_bool(fn, keepdims, "keepdims")
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        fail(TypeError, fn, "a real number for 'correction'", correction)
    if correction < 0:
        fail(ValueError, fn, "a non-negative 'correction'", correction)
    count = math.prod(raw.shape[a] for a in axes)
    return call(_moment_kernel, raw, axes=axes, keepdims=keepdims, count=count,
                correction=float(correction), op=op)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Variance with ``correction`` (NumPy's ddof); complex gives a real result.
    Array API: var. NumPy: numpy.var."""
    return _spread("var", "var", x, axis, correction, keepdims)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Standard deviation with ``correction``. Array API: std. NumPy: numpy.std."""
    return _spread("std", "std", x, axis, correction, keepdims)


@kernel(static=("axis", "dtype", "include_initial", "op"))
def _cumulative_kernel(x, *, axis, dtype, include_initial, op):
    x = lax.convert_element_type(x, dtype)
    if x.shape[axis] > 0:
        y = lax.cumsum(x, axis) if op == "sum" else lax.cumprod(x, axis)
    else:
        y = x
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        init = lax.full(tuple(shape), 0 if op == "sum" else 1, dtype)
        y = lax.concatenate([init, y], axis)
    return y


def _cumulative(fn, op, x, axis, dtype, include_initial):
    raw = to_raw(fn, x)
    if raw.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1", x)
    if axis is None:
        if raw.ndim > 1:
            fail(ValueError, fn, "an 'axis' for arrays of rank > 1", axis)
        axis = 0
    ax = normalize_axis(fn, axis, raw.ndim)
    check_bool(fn, include_initial, "include_initial")
    dt = accumulation_dtype(fn, raw.dtype, dtype)
    return call(_cumulative_kernel, raw, axis=ax, dtype=dt, include_initial=include_initial,
                op=op)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative sum along ``axis``. Array API: cumulative_sum. NumPy: numpy.cumulative_sum."""
    return _cumulative("cumulative_sum", "sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along ``axis``. Array API: cumulative_prod. NumPy: numpy.cumulative_prod."""
    return _cumulative("cumulative_prod", "prod", x, axis, dtype, include_initial)


__all__ = ["sum", "prod", "max", "min", "all", "any", "count_nonzero", "mean", "var", "std",
           "cumulative_sum", "cumulative_prod"]


@kernel(static=("axis", "n"))
def _diff_kernel(*parts, axis, n):
    x = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    for _ in range(n):
        m = x.shape[axis]
        hi = lax.slice_in_dim(x, 1, m, axis=axis)
        lo = lax.slice_in_dim(x, 0, m - 1, axis=axis)
        x = lax.ne(hi, lo) if x.dtype == np.bool_ else lax.sub(hi, lo)
    return x


def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """``n``-th discrete difference along ``axis`` (bool input gives ``!=``).
    Array API: diff. NumPy: numpy.diff (``n`` and ``axis`` may be passed by position, in
    NumPy's order). ``n`` is static under ``jax.jit``."""
    from laxarray.array_api.manipulation import broadcast_to
    raw = to_raw("diff", x)
    if raw.ndim == 0:
        fail(ValueError, "diff", "an array of rank >= 1", x)
    ax = normalize_axis("diff", axis, raw.ndim)
    from laxarray._core.validate import check_int
    n = check_int("diff", n, "n", minimum=0)
    parts = [raw]
    for name, extra in (("prepend", prepend), ("append", append)):
        if extra is None:
            continue
        e = to_raw("diff", extra, name)
        if e.ndim == 0:
            shape = list(raw.shape)
            shape[ax] = 1
            e = broadcast_to(wrap(e), tuple(shape))._value
        parts.insert(0 if name == "prepend" else len(parts), e)
    dt = _dt.result_type(*[p.dtype for p in parts])
    parts = [lax.convert_element_type(p, dt) for p in parts]
    for p in parts:
        if p.ndim != raw.ndim or builtins.any(p.shape[d] != raw.shape[d] for d in range(raw.ndim)
                                     if d != ax):
            fail(ValueError, "diff", "'prepend'/'append' matching x off 'axis'", p)
    return call(_diff_kernel, *parts, axis=ax, n=n)


__all__ += ["diff"]
