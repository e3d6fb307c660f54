"""NaN-aware reductions: nansum, nanprod, nanmax, nanmin, nanargmax, nanargmin, nanmean,
nanvar, nanstd (the cumulative ones are in ``_cumulative``).

NaN elements are treated as missing: replaced by the identity of the reduction (0 for sums,
1 for products, -inf/+inf for max/min), or left out of the count (nanmean, nanvar).  An
all-NaN slice gives NaN for nanmax/nanmin/nanmean/nanvar (NumPy also warns).  Integer and
boolean inputs have no NaN and reduce as the plain functions do.  ``axis``, ``dtype``,
``ddof`` and ``keepdims`` are static under ``jax.jit``.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray._core.validate import check_bool, normalize_axes, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api import statistical as _stat
from laxarray.array_api._array import wrap
from laxarray.array_api.manipulation import reshape
from laxarray.array_api.searching import arg_kernel, argmax, argmin
from laxarray.numpy_api.statistics._base import concrete, count_dtype, no_out, raw
from laxarray._core.jax_regions import in_wide_region
from laxarray.numpy_api import _docs
from laxarray.numpy_api.statistics import _docs as _sdocs

__all__ = ["nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar",
           "nanstd"]


@kernel(static=("value",))
def _nan_to_kernel(x, *, value):
    return lax.select(lax.ne(x, x), lax.full_like(x, value), x)


def _nan_to(x, value):
    """``x`` (raw) with NaNs replaced by ``value`` (unchanged for non-float dtypes)."""
    if _dt.kind_of(x.dtype) not in "fc":
        return x
    return call(_nan_to_kernel, x, value=value)._value


def _finish(y, axes, keepdims):
    return lax.expand_dims(y, axes) if keepdims and axes else y


_SUM_RAISES = _docs.closing([_docs.TYPE_ERROR_A_OUT, _docs.AXIS_ERROR],
    "``axis``, ``dtype``, ``keepdims``")


_SUM_PARAMETERS = _docs.compose("""
Parameters
----------
{array}
{axes_all}""", array=_docs.ARRAY, axes_all=_docs.AXES_ALL)


@in_wide_region
@fill(sum_parameters=_SUM_PARAMETERS, out_keepdims=_docs.OUT_KEEPDIMS, sum_raises=_SUM_RAISES)
def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    """Return the sum over the given axes, treating NaNs as zero.

    Array API: (not in the standard). NumPy: numpy.nansum.

    {sum_parameters}
    dtype : dtype, optional
        The dtype to accumulate in and return.  Default as :func:`laxarray.sum`'s (smaller
        integers in the default integer dtype).
    {out_keepdims}

    Returns
    -------
    Array
        The sums.

    {sum_raises}
    >>> a = la.asarray([[1.0, la.nan], [3.0, 4.0]])
    >>> la.nansum(a)
    Array(8.)
    >>> la.nansum(a, axis=0)
    Array([4., 4.])
    """
    no_out("nansum", out)
    x = _nan_to(raw("nansum", a, "a"), 0)
    axes = normalize_axes("nansum", axis, x.ndim)
    return _stat.sum(wrap(x), axis=axes, dtype=dtype, keepdims=keepdims)


@in_wide_region
@fill(sum_parameters=_SUM_PARAMETERS, out_none=_docs.OUT_NONE, keepdim=_docs.KEEPDIM,
      sum_raises=_SUM_RAISES)
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    """Return the product over the given axes, treating NaNs as one.

    Array API: (not in the standard). NumPy: numpy.nanprod.

    {sum_parameters}
    dtype : dtype, optional
        The dtype to multiply in.
    {out_none}
    {keepdim}

    Returns
    -------
    Array
        The products.

    {sum_raises}
    >>> la.nanprod(la.asarray([2.0, la.nan, 3.0]))
    Array(6.)
    """
    no_out("nanprod", out)
    x = _nan_to(raw("nanprod", a, "a"), 1)
    axes = normalize_axes("nanprod", axis, x.ndim)
    return _stat.prod(wrap(x), axis=axes, dtype=dtype, keepdims=keepdims)


@kernel(static=("axes", "keepdims", "find_max"))
def _nan_extremum_kernel(x, *, axes, keepdims, find_max):
    nan = lax.ne(x, x)
    fill = lax.full_like(x, -np.inf if find_max else np.inf)
    clean = lax.select(nan, fill, x)
    y = lax.reduce_max(clean, axes) if find_max else lax.reduce_min(clean, axes)
    y = lax.select(lax.reduce_and(nan, axes), lax.full_like(y, np.nan), y)
    return _finish(y, axes, keepdims)


def _nan_extremum(fn, a, axis, keepdims, find_max):
    x = raw(fn, a, "a")
    if _dt.kind_of(x.dtype) == "c":
        fail(TypeError, fn, "a real array for 'a' (complex ordering is not supported)", a)
    axes = normalize_axes(fn, axis, x.ndim)
    if _dt.kind_of(x.dtype) != "f":
        plain = _stat.max if find_max else _stat.min
        return plain(wrap(x), axis=axes, keepdims=keepdims)
    check_bool(fn, keepdims, "keepdims")
    if any(x.shape[d] == 0 for d in axes):
        fail(ValueError, fn, "non-empty reduction axes (zero-size array to reduction)", a)
    return call(_nan_extremum_kernel, x, axes=axes, keepdims=keepdims, find_max=find_max)


_EXTREMUM_RAISES = _docs.closing([_sdocs.NO_ORDER_ERROR, _docs.AXIS_ERROR],
                                                "``axis``, ``keepdims``")


_EXTREMUM_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{real_array}
{axes_all}
{out_keepdims}

Returns
-------
Array""", real_array=_docs.REAL_ARRAY, axes_all=_docs.AXES_ALL, out_keepdims=_docs.OUT_KEEPDIMS)


@in_wide_region
@fill(extremum_parameters_returns=_EXTREMUM_PARAMETERS_RETURNS,
      extremum_raises=_EXTREMUM_RAISES)
def nanmax(a, axis=None, out=None, keepdims=False):
    """Return the maximum over the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanmax.

    {extremum_parameters_returns}
        The maximums of the non-NaN values; an all-NaN slice gives NaN.

    {extremum_raises}
    >>> a = la.asarray([[1.0, la.nan], [3.0, 4.0]])
    >>> la.nanmax(a, axis=1)
    Array([1., 4.])
    """
    no_out("nanmax", out)
    return _nan_extremum("nanmax", a, axis, keepdims, True)


@in_wide_region
@fill(extremum_parameters_returns=_EXTREMUM_PARAMETERS_RETURNS,
      extremum_raises=_EXTREMUM_RAISES)
def nanmin(a, axis=None, out=None, keepdims=False):
    """Return the minimum over the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanmin.

    {extremum_parameters_returns}
        The minimums of the non-NaN values; an all-NaN slice gives NaN.

    {extremum_raises}
    >>> la.nanmin(la.asarray([[la.nan, 2.0], [3.0, 1.0]]), axis=0)
    Array([3., 1.])
    """
    no_out("nanmin", out)
    return _nan_extremum("nanmin", a, axis, keepdims, False)


@kernel(static=("axis", "keepdims", "find_max"))
def _nanarg_kernel(x, *, axis, keepdims, find_max):
    nan = lax.ne(x, x)
    clean = lax.select(nan, lax.full_like(x, -np.inf if find_max else np.inf), x)
    idx = arg_kernel(clean, axis=axis, keepdims=keepdims, find_max=find_max)
    all_nan = _finish(lax.reduce_and(nan, (axis,)), (axis,), keepdims)
    return lax.select(all_nan, lax.full_like(idx, -1), idx)


def _nanarg(fn, a, axis, keepdims, find_max):
    x = raw(fn, a, "a")
    if _dt.kind_of(x.dtype) == "c":
        fail(TypeError, fn, "a real array for 'a'", a)
    check_bool(fn, keepdims, "keepdims")
    if _dt.kind_of(x.dtype) != "f":
        ax = None if axis is None else normalize_axis(fn, axis, x.ndim)
        return (_stat_arg(find_max))(wrap(x), axis=ax, keepdims=keepdims)
    flat = axis is None
    ndim = x.ndim
    if flat:
        x = lax.reshape(x, (math.prod(x.shape),)) if x.ndim != 1 else x
        ax = 0
    else:
        ax = normalize_axis(fn, axis, x.ndim)
    if x.shape[ax] == 0:
        fail(ValueError, fn, "a non-empty array along 'axis'", a)
    out = call(_nanarg_kernel, x, axis=ax, keepdims=keepdims and not flat, find_max=find_max)
    host = concrete(out._value)
    if host is not None and (host < 0).any():
        fail_text(ValueError, fn, "All-NaN slice encountered (under jax.jit such slices "
                  "give -1)")
    if flat and keepdims:
        out = reshape(out, (1,) * ndim)
    return out


def _stat_arg(find_max):
    return argmax if find_max else argmin


_ARG_SECTIONS = _docs.compose("""
Parameters
----------
{array}
{axis_flat}
{out_none}
{keepdim}

Returns
-------
{indices}

{closing}""",
    array=_docs.ARRAY, axis_flat=_docs.AXIS_FLAT, out_none=_docs.OUT_NONE, keepdim=_docs.KEEPDIM,
    indices=_sdocs.INDICES, closing=_docs.closing([_docs.TYPE_ERROR_A_OUT, _sdocs.ALL_NAN_ERROR,
    _docs.AXIS_ERROR_AXIS], "``axis``, ``keepdims``"))


@in_wide_region
@fill(arg_sections=_ARG_SECTIONS)
def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Return the index of the maximum along an axis, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanargmax.

    {arg_sections}
    >>> la.nanargmax(la.asarray([1.0, la.nan, 3.0]))
    Array(2)
    """
    no_out("nanargmax", out)
    return _nanarg("nanargmax", a, axis, keepdims, True)


@in_wide_region
@fill(arg_sections=_ARG_SECTIONS)
def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Return the index of the minimum along an axis, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanargmin.

    {arg_sections}
    >>> la.nanargmin(la.asarray([[la.nan, 2.0], [3.0, 1.0]]), axis=1)
    Array([1, 1])
    """
    no_out("nanargmin", out)
    return _nanarg("nanargmin", a, axis, keepdims, False)


def _wide(dtype):
    """The float64/complex128 dtype NumPy divides sums by counts in."""
    return _dt.on_device(_dt.complex128) if _dt.kind_of(dtype) == "c" else _dt.on_device(_dt.float64)


def _divide(total, count):
    """``total / count`` computed in double precision, cast back (NumPy's _divide_by_count)."""
    wide = _wide(total.dtype)
    q = lax.div(lax.convert_element_type(total, wide), lax.convert_element_type(count, wide))
    return cast_value(q, total.dtype)  # float16: rounded once, as NumPy's cast


@kernel(static=("axes", "keepdims", "dtype", "ddof", "op"))
def _nan_moment_kernel(x, *, axes, keepdims, dtype, ddof, op):
    nan = lax.ne(x, x)
    arr = lax.select(nan, lax.full_like(x, 0), x)
    cnt = lax.reduce_sum(lax.convert_element_type(lax.bitwise_not(nan), count_dtype()), axes)
    avg = _divide(lax.reduce_sum(lax.convert_element_type(arr, dtype), axes), cnt)
    if op == "mean":
        return _finish(avg, axes, keepdims)
    dev = lax.sub(lax.convert_element_type(arr, dtype), lax.expand_dims(avg, axes))
    dev = lax.convert_element_type(dev, x.dtype)
    dev = lax.select(nan, lax.full_like(dev, 0), dev)
    if _dt.kind_of(dev.dtype) == "c":
        sq = lax.real(lax.mul(dev, lax.conj(dev)))
    else:
        sq = lax.mul(dev, dev)
    var = lax.reduce_sum(lax.convert_element_type(sq, _dt.real_dtype(dtype)), axes)
    wide = _dt.on_device(_dt.float64)
    dof = lax.sub(lax.convert_element_type(cnt, wide), lax.full(cnt.shape, ddof, wide))
    var = _divide(var, dof)
    var = lax.select(lax.le(dof, lax.full_like(dof, 0)), lax.full_like(var, np.nan), var)
    if op == "std":
        var = lax.sqrt(var)
    return _finish(var, axes, keepdims)


def _nan_moment(fn, op, a, axis, dtype, ddof, keepdims):
    x = raw(fn, a, "a")
    axes = normalize_axes(fn, axis, x.ndim)
    check_bool(fn, keepdims, "keepdims")
    if dtype is not None:
        dtype = _dt.canonicalize_dtype(fn, dtype)
        if _dt.kind_of(dtype) not in "fc":
            fail(TypeError, fn, "an inexact (floating) 'dtype'", dtype)
    if _dt.kind_of(x.dtype) not in "fc":
        x = lax.convert_element_type(x, _dt.on_device(_dt.float64))
    dt = dtype if dtype is not None else x.dtype
    if isinstance(ddof, bool) or not isinstance(ddof, (int, float, np.integer, np.floating)):
        fail(TypeError, fn, "a real number for 'ddof'", ddof)
    return call(_nan_moment_kernel, x, axes=axes, keepdims=keepdims, dtype=dt,
                ddof=float(ddof), op=op)


@in_wide_region
@fill(sum_parameters=_SUM_PARAMETERS, accumulate=_sdocs.ACCUMULATE, out_keepdims=_docs.OUT_KEEPDIMS,
      sum_raises=_SUM_RAISES)
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    """Compute the mean over the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanmean.

    {sum_parameters}
    {accumulate}
    {out_keepdims}

    Returns
    -------
    Array
        The means of the non-NaN values (integers give float64); an all-NaN slice gives NaN.

    {sum_raises}
    >>> a = la.asarray([[1.0, la.nan], [3.0, 4.0]])
    >>> la.nanmean(a)
    Array(2.66666667)
    >>> la.nanmean(a, axis=1)
    Array([1. , 3.5])
    """
    no_out("nanmean", out)
    return _nan_moment("nanmean", "mean", a, axis, dtype, 0.0, keepdims)


def _ddof(fn, ddof, correction):
    if correction is not None:
        if ddof != 0:
            fail_text(ValueError, fn, "ddof and correction can't be provided simultaneously")
        return correction
    return ddof


_MOMENT_RAISES_NOTES_EXAMPLES = _docs.compose("""
Raises
------
{type_error_a_out}
{ddof_error}
{axis_error}

Notes
-----
Static under ``jax.jit``: ``axis``, ``dtype``, ``ddof``, ``keepdims``, ``correction``.

Examples
--------
>>> import laxarray as la""",
    type_error_a_out=_docs.TYPE_ERROR_A_OUT, ddof_error=_sdocs.DDOF_ERROR,
    axis_error=_docs.AXIS_ERROR)


_MOMENT_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{array}
{axes_all}
{accumulate}
{out_none}
{ddof}
{keepdims}
{correction}

Returns
-------
Array""",
    array=_docs.ARRAY, axes_all=_docs.AXES_ALL, accumulate=_sdocs.ACCUMULATE,
    out_none=_docs.OUT_NONE, ddof=_sdocs.DDOF, keepdims=_docs.KEEPDIMS,
    correction=_sdocs.CORRECTION)


@in_wide_region
@fill(moment_parameters_returns=_MOMENT_PARAMETERS_RETURNS,
      moment_raises_notes_examples=_MOMENT_RAISES_NOTES_EXAMPLES)
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None):
    """Compute the variance over the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanvar.

    {moment_parameters_returns}
        The variances of the non-NaN values (real for complex input); slices with ``count -
        ddof <= 0`` give NaN.

    {moment_raises_notes_examples}
    >>> a = la.asarray([[1.0, la.nan], [3.0, 4.0]])
    >>> la.nanvar(a, axis=0)
    Array([1., 0.])
    """
    no_out("nanvar", out)
    return _nan_moment("nanvar", "var", a, axis, dtype, _ddof("nanvar", ddof, correction),
                       keepdims)


@in_wide_region
@fill(moment_parameters_returns=_MOMENT_PARAMETERS_RETURNS,
      moment_raises_notes_examples=_MOMENT_RAISES_NOTES_EXAMPLES)
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None):
    """Compute the standard deviation over the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanstd.

    {moment_parameters_returns}
        The square roots of :func:`nanvar`'s variances.

    {moment_raises_notes_examples}
    >>> a = la.asarray([[1.0, la.nan], [3.0, 4.0]])
    >>> la.nanstd(a)
    Array(1.24721913)
    >>> la.nanstd(la.asarray([1.0, la.nan]), ddof=1)
    Array(nan)
    """
    no_out("nanstd", out)
    return _nan_moment("nanstd", "std", a, axis, dtype, _ddof("nanstd", ddof, correction),
                       keepdims)
