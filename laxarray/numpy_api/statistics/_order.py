"""Order statistics: quantile/percentile (and their NaN-ignoring forms), and the reading of
order statistics that the medians (``_median``) share.

Eagerly on the CPU backend (a concrete array of a real dtype NumPy sorts natively, a
concrete ``q``) these are NumPy's own functions, called directly: no kernel, no compile;
traced there, NumPy's own functions in a host call (``_host_order.numpy_rows``), whose
derivatives come from the lax formulation.  That formulation (elsewhere the only one) reads
order statistics of the reduced axes (NaN last) -- on the CPU backend by partitioning in
NumPy through a host callback (``_host_order.select_last``: selection, not a full sort),
elsewhere from a full ``lax.sort`` -- and follows NumPy 2's
formulas exactly: the virtual index of each of the 13 ``method=`` values, the same clamping
at the ends and the same two-sided linear interpolation, so results and dtypes match NumPy
(a Python-scalar ``q`` keeps float32 input in float32; an array ``q`` promotes with it; the
discontinuous methods return the input dtype).  ``q`` may be an array (traced under ``jax.jit``);
``axis``, ``method`` and ``keepdims`` are static.  ``q`` outside ``[0, 1]`` raises
``ValueError`` eagerly; under ``jax.jit`` it is not checked.  A NaN in a slice makes its
quantile NaN; the ``nan*`` forms leave NaNs out (an all-NaN slice gives NaN).
"""

from __future__ import annotations

import functools
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import put_like
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray._core.validate import check_bool, check_choice, normalize_axes
from laxarray.array_api._calls import call
from laxarray.array_api import _host_order
from laxarray.array_api.indexing_functions import take_along_axis_kernel
from laxarray.array_api.sorting import sort_kernel
from laxarray.numpy_api.statistics._base import (concrete, count_dtype, no_out, raw,
                                                 rounded_mul as _mul)
from laxarray.numpy_api import _docs
from laxarray.numpy_api.statistics import _docs as _sdocs

__all__ = ["quantile", "percentile", "nanquantile", "nanpercentile"]

#: (alpha, beta) of the continuous methods written with NumPy's _compute_virtual_index.
_ALPHA_BETA = {"interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5), "weibull": (0, 0),
               "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}
_INDEX_METHODS = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "median_unbiased", "normal_unbiased")


def _flat(x, axes):
    """``x`` with ``axes`` moved last and merged: (rest_shape, (B, n) array)."""
    keep = tuple(d for d in range(x.ndim) if d not in axes)
    rest = tuple(x.shape[d] for d in keep)
    n = math.prod(x.shape[d] for d in axes)
    xt = lax.transpose(x, keep + tuple(axes)) if keep + tuple(axes) != tuple(range(x.ndim)) \
        else x
    return rest, lax.reshape(xt, (math.prod(rest), n))


def _order_stats(x2, idxs, select):
    """``sort(x2, axis=1)[b, i[b, j]]`` for each (B, k) position array ``i`` of ``idxs``
    (positions clamped into range), read by ``select``: :func:`_select_on_host` (the host
    path's) or :func:`_select_sorted` (the lax body's)."""
    n = x2.shape[1]
    return select(x2, [lax.clamp(lax.full_like(i, 0), i, lax.full_like(i, n - 1))
                       for i in idxs])


def _select_on_host(x2, idxs):
    """One host selection (NumPy's partition in a host call) for all of ``idxs``."""
    vals = _host_order.select_last(x2, lax.concatenate(idxs, 1))
    out, at = [], 0
    for i in idxs:
        out.append(lax.slice_in_dim(vals, at, at + i.shape[1], axis=1))
        at += i.shape[1]
    return out


def _select_sorted(x2, idxs):
    """The order statistics ``idxs`` from a full ``lax.sort``."""
    srt = sort_kernel.run_xla(x2, axis=1, descending=False, want_indices=False)
    return [take_along_axis_kernel(srt, i, axis=1, wrap=False) for i in idxs]


def _valid_count(x2, omit_nan):
    """(B, 1) count of the values a quantile sees: all, or the non-NaN ones."""
    b, n = x2.shape
    if omit_nan and _dt.kind_of(x2.dtype) == "f":
        ok = lax.convert_element_type(lax.eq(x2, x2), count_dtype())
        return lax.reduce_sum(ok, (1,)).reshape((b, 1))
    return lax.full((b, 1), n, count_dtype())


def _numpy_own(x2):
    """Whether the traced host path of a quantile of the rows ``x2`` runs NumPy's own
    function in a host call (``_host_order.numpy_rows``) rather than the lax formulation
    around a host selection.  On the CPU backend that is NumPy's speed (the lax
    formulation around a host selection added an XLA count of the non-NaNs: 20 ms on
    10**7 values) and a small program: a traced nanquantile of 10**5 values compiled in
    about 80 ms, as long as jax.numpy's, most of it the position arithmetic on a count
    known only at run time."""
    return x2.shape[1] > 0 and _dt.kind_of(x2.dtype) in "iuf"


def _with_tail(x2, idxs, select, want_tail):
    """``_order_stats``, and, if ``want_tail``, (B, 1) whether each row holds a NaN (whose
    quantiles are then NaN): NaN sorts last, so the row's largest order statistic tells,
    read in the same selection (as NumPy's median does) instead of another pass over x2."""
    if not want_tail:
        return _order_stats(x2, idxs, select), None
    b, n = x2.shape
    *vals, last = _order_stats(x2, idxs + [lax.full((b, 1), n - 1, count_dtype())], select)
    return vals, lax.ne(last, last)


def _floor_mod2(v):
    r = lax.rem(v, lax.full_like(v, 2))
    return lax.select(lax.lt(r, lax.full_like(r, 0)), lax.add(r, lax.full_like(r, 2)), r)


def _index_method(method, n, q):
    """Integer positions of the discontinuous methods (NumPy's virtual indices)."""
    one = lax.full_like(q, 1)
    if method in ("lower", "higher", "nearest"):
        v = _mul(lax.sub(n, one), q)
        v = {"lower": lax.floor, "higher": lax.ceil}.get(
            method, lambda t: lax.round(t, lax.RoundingMethod.TO_NEAREST_EVEN))(v)
        return lax.convert_element_type(v, count_dtype())
    idx = lax.sub(_mul(n, q), one)
    if method == "closest_observation":
        idx = lax.sub(idx, lax.full_like(q, 0.5))
    prev = lax.floor(idx)
    gamma = lax.sub(idx, prev)
    cond = lax.eq(gamma, lax.full_like(gamma, 0))
    if method == "closest_observation":
        cond = lax.bitwise_and(cond, lax.eq(_floor_mod2(prev), one))
    res = lax.select(cond, prev, lax.add(prev, one))
    res = lax.convert_element_type(res, count_dtype())
    return lax.max(res, lax.full_like(res, 0))


def _virtual_index(method, n, q):
    one = lax.full_like(q, 1)
    if method == "linear":
        return _mul(lax.sub(n, one), q)
    if method == "averaged_inverted_cdf":
        return lax.sub(_mul(n, q), one)
    if method == "midpoint":
        v = _mul(lax.sub(n, one), q)
        return _mul(lax.full_like(q, 0.5), lax.add(lax.floor(v), lax.ceil(v)))
    alpha, beta = _ALPHA_BETA[method]
    c = lax.full_like(q, 1 - alpha - beta)
    return lax.sub(lax.add(_mul(n, q), lax.add(lax.full_like(q, alpha), _mul(q, c))), one)


def _quantile_now(a, q, *, axes, keepdims, method, omit_nan, vdtype, rdtype, weak):
    """The eager host path: NumPy's own quantile of the view ``a`` (integers and floats;
    None for bool)."""
    if a.dtype.kind not in "iuf":
        return None
    res = _host_order.quietly(np.nanquantile if omit_nan else np.quantile, a,
                              _numpy_q(q, weak), axis=axes, method=method, keepdims=keepdims)
    return np.asarray(res, dtype=rdtype)


def _quantile_host(x, q, *, axes, keepdims, method, omit_nan, vdtype, rdtype, weak):
    """The traced host path: NumPy's own quantile in a host call (derivatives from the lax
    formulation around a host selection), or that formulation (bool)."""
    rest, x2 = _flat(x, axes)
    rows = functools.partial(_quantile_rows, method=method, omit_nan=omit_nan, vdtype=vdtype,
                             rdtype=rdtype, select=_select_on_host)
    if _numpy_own(x2):
        res = _host_order.numpy_rows(
            functools.partial(_np_quantile, omit_nan=omit_nan, method=method, weak=weak,
                              rdtype=rdtype),
            rows, jax.ShapeDtypeStruct((x2.shape[0], math.prod(q.shape)), rdtype), x2, q,
            vmap_method="sequential")
    else:
        res = rows(x2, q)
    return _quantile_result(res, q.shape, rest, axes, keepdims)


_QUANTILE_HOST = HostPath(
    functions=("quantile", "percentile", "nanquantile", "nanpercentile"),
    eager=_quantile_now, traced=_quantile_host, operands=(0,),
    grad="the lax formulation (NumPy's positions and interpolation on order statistics "
         "read by a host selection); the value stays NumPy's",
    reason="XLA's CPU sort, 5-10x NumPy's (see `sort`); a jitted `nanquantile` of 10**5 "
           "values compiled in 14-16 ms instead of about 80")


@kernel(static=("axes", "keepdims", "method", "omit_nan", "vdtype", "rdtype", "weak"),
        host=_QUANTILE_HOST)
def _quantile_kernel(x, q, *, axes, keepdims, method, omit_nan, vdtype, rdtype, weak):
    rest, x2 = _flat(x, axes)
    res = _quantile_rows(x2, q, method=method, omit_nan=omit_nan, vdtype=vdtype,
                         rdtype=rdtype, select=_select_sorted)
    return _quantile_result(res, q.shape, rest, axes, keepdims)


def _quantile_result(res, qshape, rest, axes, keepdims):
    """The (B, m) quantiles ``res`` in the result's shape."""
    res = lax.transpose(res, (1, 0)).reshape(qshape + rest)
    if keepdims:
        res = lax.expand_dims(res, tuple(len(qshape) + d for d in axes))
    return res


def _np_quantile(a, q, *, omit_nan, method, weak, rdtype):
    """(B, m) quantiles of the rows of ``a`` by NumPy, ``q`` passed as the eager path
    passes it (a Python scalar when it was one)."""
    npq = _numpy_q(q, weak) if weak else q.reshape(-1)
    res = _host_order.quietly(np.nanquantile if omit_nan else np.quantile, a, npq, axis=-1,
                              method=method, overwrite_input=_host_order.owns(a))
    return np.ascontiguousarray(np.asarray(res, dtype=rdtype).reshape(-1, a.shape[0]).T)


def _numpy_q(q, weak):
    """The NumPy array ``q`` as NumPy's quantile is to see it: a Python scalar where the
    caller passed one (NumPy then keeps float32 data in float32)."""
    if not weak:
        return q
    return float(q) if q.dtype.kind == "f" else int(q)


def _quantile_rows(x2, q, *, method, omit_nan, vdtype, rdtype, select):
    """(B, m) quantiles of the rows of ``x2`` at the flattened ``q``: NumPy's formulas in
    lax, on order statistics read from a host selection or a sort."""
    b, n_all = x2.shape
    m = math.prod(q.shape)
    cnt = _valid_count(x2, omit_nan)                 # (b, 1) int
    want_tail = _dt.kind_of(x2.dtype) == "f" and not omit_nan
    if _dt.kind_of(q.dtype) in "fc":
        qf = lax.convert_element_type(q, vdtype)
    else:
        qf = q
    qf = lax.broadcast_in_dim(lax.reshape(qf, (m,)), (b, m), (1,))
    last = lax.max(lax.sub(cnt, lax.full_like(cnt, 1)), lax.full_like(cnt, 0))
    last = lax.broadcast_in_dim(last.reshape((b,)), (b, m), (0,))
    if n_all == 0:      # nan* of an empty slice: NaN
        res = lax.full((b, m), np.nan, rdtype)
    elif method in _INDEX_METHODS or _dt.kind_of(q.dtype) not in "fc":
        nq = lax.convert_element_type(cnt, qf.dtype) if _dt.kind_of(qf.dtype) == "f" else cnt
        nq = lax.broadcast_in_dim(nq.reshape((b,)), (b, m), (0,))
        if _dt.kind_of(q.dtype) not in "fc":        # integer q, method linear: (n - 1) * q
            idx = _mul(lax.sub(nq, lax.full_like(nq, 1)), lax.convert_element_type(
                qf, nq.dtype))
            idx = lax.convert_element_type(idx, count_dtype())
        else:
            idx = _index_method(method, nq, qf)
        (res,), nan_rows = _with_tail(x2, [idx], select, want_tail)
        res = cast_value(res, rdtype)
    else:
        nq = lax.broadcast_in_dim(lax.convert_element_type(cnt, vdtype).reshape((b,)), (b, m),
                                  (0,))
        vi = _virtual_index(method, nq, qf)
        fl = lax.floor(vi)
        lastf = lax.convert_element_type(last, vdtype)
        above = lax.ge(vi, lax.sub(nq, lax.full_like(nq, 1)))
        below = lax.lt(vi, lax.full_like(vi, 0))
        nan_vi = lax.ne(vi, vi)
        top = lax.bitwise_or(above, nan_vi)
        # NumPy's previous index is -1 above the end (that is what gamma is taken from)
        prev_g = lax.select(below, lax.full_like(vi, 0),
                            lax.select(top, lax.full_like(vi, -1), fl))
        prev_i = lax.select(below, lax.full_like(vi, 0), lax.select(top, lastf, fl))
        next_i = lax.select(below, lax.full_like(vi, 0),
                            lax.select(top, lastf, lax.add(fl, lax.full_like(fl, 1))))
        gamma = lax.sub(vi, prev_g)
        if method == "averaged_inverted_cdf":
            gamma = lax.select(lax.eq(gamma, lax.full_like(gamma, 0)),
                               lax.full_like(gamma, 0.5), lax.full_like(gamma, 1.0))
        elif method == "midpoint":
            whole = lax.eq(_floor_mod1(vi), lax.full_like(vi, 0))
            gamma = lax.select(whole, lax.full_like(gamma, 0), lax.full_like(gamma, 0.5))
        (a, bb), nan_rows = _with_tail(x2, [lax.convert_element_type(prev_i, count_dtype()),
                                            lax.convert_element_type(next_i, count_dtype())],
                                       select, want_tail)
        res = _lerp(a, bb, gamma, rdtype)
    if _dt.kind_of(x2.dtype) == "f" and n_all:
        bad = lax.eq(cnt, lax.full_like(cnt, 0)) if omit_nan else nan_rows
        res = lax.select(lax.broadcast_in_dim(bad.reshape((b,)), (b, m), (0,)),
                         lax.full_like(res, np.nan), res)
    return res


def _floor_mod1(v):
    return lax.sub(v, lax.floor(v))


def _lerp(a, b, t, rdtype):
    """NumPy's _lerp: ``a + (b-a)*t`` below t=0.5, ``b - (b-a)*(1-t)`` from 0.5 on."""
    diff = cast_value(lax.sub(b, a), rdtype)        # NumPy's casts: float16 rounded once
    tt = cast_value(t, rdtype)
    omt = cast_value(lax.sub(lax.full_like(t, 1), t), rdtype)
    lo = lax.add(cast_value(a, rdtype), _mul(diff, tt))
    hi = lax.sub(cast_value(b, rdtype), _mul(diff, omt))
    return lax.select(lax.ge(t, lax.full_like(t, 0.5)), hi, lo)


def _q_operand(fn, q, scale):
    """(raw q, weak?, dtype of the virtual indices) following NumPy's quantile/percentile."""
    weak = type(q) in (int, float)
    if weak and scale != 1:
        q, scale = q / scale, 1     # Python's division is NumPy's (correctly rounded)
    qr = raw(fn, q, "q")
    if _dt.kind_of(qr.dtype) in "cb":
        fail(TypeError, fn, "a real (non-boolean) 'q'", q)
    if qr.ndim > 2:
        fail_text(ValueError, fn, "q must be a scalar or 1d")
    host = concrete(qr)
    if scale != 1 and host is not None:     # NumPy's division, and no eager lax op
        host = np.true_divide(host if host.dtype.kind == "f" else host.astype(np.float64),
                              scale)
        qr = put_like(host, qr)
    elif scale != 1:
        if _dt.kind_of(qr.dtype) != "f":
            qr = lax.convert_element_type(qr, _dt.on_device(_dt.float64))
        qr = lax.div(qr, lax.full_like(qr, scale))
    if host is not None and host.size and not (host.min() >= 0 and host.max() <= 1):
        what = "Percentiles must be in the range [0, 100]" if "percent" in fn else \
            "Quantiles must be in the range [0, 1]"
        fail_text(ValueError, fn, what)
    vdtype = _dt.on_device(_dt.float64) if weak or _dt.kind_of(qr.dtype) != "f" else qr.dtype
    return qr, weak, vdtype


def _quantile(fn, a, q, axis, method, keepdims, omit_nan, scale, out=None):
    no_out(fn, out)
    x = raw(fn, a, "a")
    if _dt.kind_of(x.dtype) == "c":
        fail(TypeError, fn, "an array of real numbers for 'a'", a)
    check_choice(fn, method, "method", METHODS)
    check_bool(fn, keepdims, "keepdims")
    axes = normalize_axes(fn, axis, x.ndim)
    qr, weak, vdtype = _q_operand(fn, q, scale)
    index_path = method in _INDEX_METHODS or _dt.kind_of(qr.dtype) != "f"
    if index_path:
        rdtype = x.dtype
    else:
        if _dt.kind_of(x.dtype) == "b":
            fail(TypeError, fn, f"a numeric (non-boolean) 'a' with method={method!r}", a)
        if weak:
            rdtype = x.dtype if _dt.kind_of(x.dtype) == "f" else _dt.on_device(_dt.float64)
        else:
            rdtype = _dt.promote_types(x.dtype, vdtype)
    n = math.prod(x.shape[d] for d in axes)
    if n == 0:
        if not omit_nan:
            fail(ValueError, fn, "a non-empty reduction ('a' has no elements along 'axis')", a)
        x = lax.convert_element_type(x, _dt.on_device(_dt.float64)) if _dt.kind_of(x.dtype) != "f" else x
    return call(_quantile_kernel, x, qr, axes=axes, keepdims=keepdims, method=method,
                omit_nan=omit_nan, vdtype=vdtype, rdtype=rdtype, weak=weak)


_QUANTILE_RETURNS = _docs.compose("""
{order_axes}
{out_none}
{overwrite_input}
{method}
{keepdims}

Returns
-------
Array""",
    order_axes=_sdocs.ORDER_AXES, out_none=_docs.OUT_NONE,
    overwrite_input=_sdocs.OVERWRITE_INPUT, method=_sdocs.METHOD, keepdims=_docs.KEEPDIMS)


_QUANTILE_PARAMETERS = _docs.compose("""
Parameters
----------
{real_array}
q : float or array_like""", real_array=_docs.REAL_ARRAY)


@in_wide_region
@fill(quantile_parameters=_QUANTILE_PARAMETERS, quantile_returns=_QUANTILE_RETURNS,
      order_type_error=_sdocs.ORDER_TYPE_ERROR, q1_error=_sdocs.Q1_ERROR,
      axis_error=_docs.AXIS_ERROR)
def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False):
    """Compute the ``q``-th quantiles of the data along the given axes.

    Array API: (not in the standard). NumPy: numpy.quantile.

    {quantile_parameters}
        The quantiles, in [0, 1]; may be an array (traced under ``jax.jit``).
    {quantile_returns}
        Of shape ``q.shape`` followed by the shape of ``a`` without ``axis`` (or with
        size-one axes there).

    Raises
    ------
    {order_type_error}
    {q1_error}
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``method``, ``keepdims`` (``q`` may be traced; it is not
    checked then).

    On the CPU backend a concrete real array takes the CPU host path: NumPy's own function,
    called directly (no kernel, no compile); traced there, NumPy's function in a host call,
    with derivatives from the lax formulation, which elsewhere is the only one.  The results
    and dtypes follow NumPy 2's formulas exactly (a Python-scalar ``q`` keeps float32 input
    in float32; the discontinuous methods return the input dtype; integers give float64).  A
    NaN in a slice makes its result NaN.  NumPy's ``weights`` is not accepted.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]])
    >>> la.quantile(a, 0.5)
    Array(3.5)
    >>> la.quantile(a, la.asarray([0.1, 0.9]))
    Array([1.5, 8.5])
    >>> la.quantile(a, 0.5, axis=0)
    Array([6.5, 4.5, 2.5])
    """
    return _quantile("quantile", a, q, axis, method, keepdims, False, 1, out)


@in_wide_region
@fill(quantile_parameters=_QUANTILE_PARAMETERS, quantile_returns=_QUANTILE_RETURNS,
      order_type_error=_sdocs.ORDER_TYPE_ERROR, q100_error=_sdocs.Q100_ERROR,
      axis_error=_docs.AXIS_ERROR)
def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False):
    """Compute the ``q``-th percentiles of the data along the given axes.

    Array API: (not in the standard). NumPy: numpy.percentile.

    {quantile_parameters}
        The percentiles, in [0, 100]; may be an array (traced under ``jax.jit``).
    {quantile_returns}
        Of shape ``q.shape`` followed by the shape of ``a`` without ``axis``.

    Raises
    ------
    {order_type_error}
    {q100_error}
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``method``, ``keepdims``.

    :func:`quantile` with ``q / 100`` (its CPU host path too).  On the CPU backend a
    concrete real array takes the CPU host path: NumPy's own function, called directly (no
    kernel, no compile); traced there, NumPy's function in a host call, with derivatives
    from the lax formulation, which elsewhere is the only one.  The results and dtypes
    follow NumPy 2's formulas exactly (a Python-scalar ``q`` keeps float32 input in float32;
    the discontinuous methods return the input dtype; integers give float64).  A NaN in a
    slice makes its result NaN.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]])
    >>> la.percentile(a, 50)
    Array(3.5)
    >>> la.percentile(a, [25, 75], axis=1)
    Array([[5.5, 1.5],
           [8.5, 2.5]])
    >>> la.percentile(a, 50, method="nearest")
    Array(3.)
    """
    return _quantile("percentile", a, q, axis, method, keepdims, False, 100, out)


_NAN_QUANTILE_RAISES_NOTES_EXAMPLES = _docs.compose("""
{axis_error}

Notes
-----
Static under ``jax.jit``: ``axis``, ``method``, ``keepdims``.

Takes the CPU host path of :func:`quantile`.

Examples
--------
>>> import laxarray as la""", axis_error=_docs.AXIS_ERROR)


@in_wide_region
@fill(quantile_parameters=_QUANTILE_PARAMETERS, quantile_returns=_QUANTILE_RETURNS,
      order_type_error=_sdocs.ORDER_TYPE_ERROR, q1_error=_sdocs.Q1_ERROR,
      nan_quantile_raises_notes_examples=_NAN_QUANTILE_RAISES_NOTES_EXAMPLES)
def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False):
    """Compute the ``q``-th quantiles along the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanquantile.

    {quantile_parameters}
        The quantiles, in [0, 1]; may be traced.
    {quantile_returns}
        As :func:`quantile`'s, of the non-NaN values; an all-NaN slice gives NaN.

    Raises
    ------
    {order_type_error}
    {q1_error}
    {nan_quantile_raises_notes_examples}
    >>> la.nanquantile(la.asarray([1.0, la.nan, 3.0, 5.0]), 0.5)
    Array(3.)
    """
    return _quantile("nanquantile", a, q, axis, method, keepdims, True, 1, out)


@in_wide_region
@fill(quantile_parameters=_QUANTILE_PARAMETERS, quantile_returns=_QUANTILE_RETURNS,
      order_type_error=_sdocs.ORDER_TYPE_ERROR, q100_error=_sdocs.Q100_ERROR,
      nan_quantile_raises_notes_examples=_NAN_QUANTILE_RAISES_NOTES_EXAMPLES)
def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False):
    """Compute the ``q``-th percentiles along the given axes, ignoring NaNs.

    Array API: (not in the standard). NumPy: numpy.nanpercentile.

    {quantile_parameters}
        The percentiles, in [0, 100]; may be traced.
    {quantile_returns}
        As :func:`percentile`'s, of the non-NaN values; an all-NaN slice gives NaN.

    Raises
    ------
    {order_type_error}
    {q100_error}
    {nan_quantile_raises_notes_examples}
    >>> la.nanpercentile(la.asarray([1.0, la.nan, 3.0, 5.0]), 100)
    Array(5.)
    """
    return _quantile("nanpercentile", a, q, axis, method, keepdims, True, 100, out)
