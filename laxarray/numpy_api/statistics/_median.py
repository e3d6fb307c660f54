"""Medians: median and the NaN-ignoring nanmedian, the middle order statistics of the
reduced axes.

They read the order statistics as the quantiles do (``_order``): eagerly on the CPU backend
NumPy's own function, called directly; traced there, NumPy's function in a host call with
derivatives from the lax formulation; elsewhere the lax formulation alone (the middle one or
two order statistics, read by a host selection on the CPU or a full ``lax.sort``).  A NaN in
a slice makes its median NaN; ``nanmedian`` leaves NaNs out (an all-NaN slice gives NaN).
``axis`` and ``keepdims`` are static under ``jax.jit``.
"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, normalize_axes
from laxarray.array_api._calls import call
from laxarray.array_api import _host_order
from laxarray.numpy_api.statistics._base import no_out, raw
from laxarray.numpy_api import _docs
from laxarray.numpy_api.statistics._order import (_flat, _numpy_own, _select_on_host,
                                                  _select_sorted, _valid_count, _with_tail)
from laxarray.numpy_api.statistics import _docs as _sdocs

__all__ = ["median", "nanmedian"]


def _median_now(a, *, axes, keepdims, omit_nan, rdtype):
    """The eager host path: NumPy's own median of the view ``a`` (None for bool)."""
    if a.dtype.kind not in "iuf":
        return None
    res = _host_order.quietly(np.nanmedian if omit_nan else np.median, a, axis=axes,
                              keepdims=keepdims)
    return np.asarray(res, dtype=rdtype)


def _median_host(x, *, axes, keepdims, omit_nan, rdtype):
    """The traced host path: NumPy's own median in a host call (derivatives from the lax
    formulation around a host selection), or that formulation (bool)."""
    rest, x2 = _flat(x, axes)
    rows = functools.partial(_median_rows, omit_nan=omit_nan, rdtype=rdtype,
                             select=_select_on_host)
    if _numpy_own(x2):
        res = _host_order.numpy_rows(
            functools.partial(_np_median, omit_nan=omit_nan, rdtype=rdtype), rows,
            jax.ShapeDtypeStruct(x2.shape[:1], rdtype), x2)
    else:
        res = rows(x2)
    return _median_result(res, rest, axes, keepdims)


_MEDIAN_HOST = HostPath(
    functions=("median", "nanmedian"), eager=_median_now, traced=_median_host,
    grad="the lax formulation (the middle order statistics, read by a host selection); "
         "the value stays NumPy's",
    reason="XLA's CPU sort, 5-10x NumPy's (see `sort`); a first eager `median` of 10**5 "
           "values took about 1 ms, against 130 ms for `jax.numpy`; a jitted `nanmedian` "
           "of 10**7 values no longer pays XLA's 20 ms count of non-NaNs")


@kernel(static=("axes", "keepdims", "omit_nan", "rdtype"), host=_MEDIAN_HOST)
def _median_kernel(x, *, axes, keepdims, omit_nan, rdtype):
    rest, x2 = _flat(x, axes)
    res = _median_rows(x2, omit_nan=omit_nan, rdtype=rdtype, select=_select_sorted)
    return _median_result(res, rest, axes, keepdims)


def _median_result(res, rest, axes, keepdims):
    res = res.reshape(rest)
    return lax.expand_dims(res, axes) if keepdims else res


def _np_median(a, *, omit_nan, rdtype):
    res = _host_order.quietly(np.nanmedian if omit_nan else np.median, a, axis=-1,
                              overwrite_input=_host_order.owns(a))
    return np.asarray(res, dtype=rdtype)


def _median_rows(x2, *, omit_nan, rdtype, select):
    """(B,) medians of the rows of ``x2``: the middle order statistics, from a host
    selection or a sort."""
    b, n = x2.shape
    if n == 0:
        res = lax.full((b,), np.nan, rdtype)
    else:
        cnt = _valid_count(x2, omit_nan).reshape((b, 1))
        one = lax.full_like(cnt, 1)
        lo_i = lax.max(lax.div(lax.sub(cnt, one), lax.full_like(cnt, 2)), lax.full_like(cnt, 0))
        hi_i = lax.div(cnt, lax.full_like(cnt, 2))
        want_tail = _dt.kind_of(x2.dtype) == "f" and not omit_nan
        (lo, hi), nan_rows = _with_tail(x2, [lo_i, hi_i], select, want_tail)
        lo, hi = lax.convert_element_type(lo, rdtype), lax.convert_element_type(hi, rdtype)
        two = lax.full_like(lo, 2)
        odd = lax.eq(lax.rem(cnt, lax.full_like(cnt, 2)), one)
        res = lax.select(odd, lo, lax.div(lax.add(lo, hi), two)).reshape((b,))
        if _dt.kind_of(x2.dtype) == "f":
            bad = lax.eq(cnt, lax.full_like(cnt, 0)) if omit_nan else nan_rows
            res = lax.select(bad.reshape((b,)), lax.full_like(res, np.nan), res)
    return res


def _median(fn, a, axis, keepdims, omit_nan, out=None):
    no_out(fn, out)
    x = raw(fn, a, "a")
    check_bool(fn, keepdims, "keepdims")
    axes = normalize_axes(fn, axis, x.ndim)
    rdtype = x.dtype if _dt.kind_of(x.dtype) in "fc" else _dt.on_device(_dt.float64)
    if _dt.kind_of(x.dtype) == "c":
        fail(TypeError, fn, "a real array for 'a' (complex ordering is not supported)", a)
    return call(_median_kernel, x, axes=axes, keepdims=keepdims, omit_nan=omit_nan,
                rdtype=rdtype)


_MEDIAN_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{real_array}
{order_axes}
{out_none}
{overwrite_input}
{keepdims}

Returns
-------
Array""",
    real_array=_docs.REAL_ARRAY, order_axes=_sdocs.ORDER_AXES, out_none=_docs.OUT_NONE,
    overwrite_input=_sdocs.OVERWRITE_INPUT, keepdims=_docs.KEEPDIMS)


_MEDIAN_RAISES_NOTES = _docs.compose("""
Raises
------
{real_type_error}
{axis_error}

Notes
-----
Static under ``jax.jit``: ``axis``, ``keepdims``.""",
    real_type_error=_sdocs.REAL_TYPE_ERROR, axis_error=_docs.AXIS_ERROR)


@in_wide_region
@fill(median_parameters_returns=_MEDIAN_PARAMETERS_RETURNS,
      median_raises_notes=_MEDIAN_RAISES_NOTES)
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Compute the median along the given axes.

    Array API: (not in the standard). NumPy: numpy.median.

    {median_parameters_returns}
        The medians (the mean of the two middle values for an even count); integers give
        float64; an empty slice gives NaN.

    {median_raises_notes}

    On the CPU backend a concrete real array takes the CPU host path: NumPy's own function,
    called directly (no kernel, no compile); traced there, NumPy's function in a host call,
    with derivatives from the lax formulation, which elsewhere is the only one.  The results
    and dtypes follow NumPy 2's formulas exactly.  A NaN in a slice makes its result NaN.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]])
    >>> la.median(a)
    Array(3.5)
    >>> la.median(a, axis=0)
    Array([6.5, 4.5, 2.5])
    >>> la.median(la.asarray([1, 2, 3, 4]))
    Array(2.5)
    """
    return _median("median", a, axis, keepdims, False, out)


@in_wide_region
@fill(median_parameters_returns=_MEDIAN_PARAMETERS_RETURNS,
      median_raises_notes=_MEDIAN_RAISES_NOTES)
def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Compute the median along the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanmedian.

    {median_parameters_returns}
        The medians of the non-NaN values. An all-NaN slice gives NaN.

    {median_raises_notes}

    Takes the CPU host path of :func:`median`.

    Examples
    --------
    >>> import laxarray as la
    >>> la.nanmedian(la.asarray([1.0, la.nan, 3.0]))
    Array(2.)
    """
    return _median("nanmedian", a, axis, keepdims, True, out)
