"""Weighted averages and second moments: average, cov, corrcoef.

Each follows NumPy's formula step by step (the same order of operations and the same dtype
at each step), so results match NumPy to rounding.  Axes, ``rowvar``/``bias``/``ddof`` and
the presence of weights are static under ``jax.jit``; the weights may be traced.  Value
checks NumPy makes on the weights (summing to zero, negative frequency weights) happen
eagerly only.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, normalize_axes, normalize_axis
from laxarray.array_api import statistical_moments as _moments
from laxarray.array_api._array import wrap
from laxarray._core.runtime.kernel import exact_div
from laxarray._core.numerics import dot_general
from laxarray.array_api._calls import call
from laxarray.array_api.creation_filled import full, zeros
from laxarray.array_api.manipulation import squeeze
from laxarray.numpy_api.statistics._base import concrete, raw
from laxarray._core.jax_regions import in_wide_region
from laxarray.numpy_api import _docs

__all__ = ["average", "cov", "corrcoef"]


# ---- average ---------------------------------------------------------------------------------
@kernel(static=("axes", "keepdims", "rdtype"))
def _wavg_kernel(x, w, *, axes, keepdims, rdtype):
    w = lax.convert_element_type(w, rdtype)
    scl = lax.reduce_sum(w, axes)
    tot = lax.reduce_sum(lax.mul(lax.convert_element_type(x, rdtype), w), axes)
    avg = lax.div(tot, scl)
    if keepdims:
        avg, scl = lax.expand_dims(avg, axes), lax.expand_dims(scl, axes)
    return avg, scl


@in_wide_region
@fill(keepdims=_docs.KEEPDIMS, axis_error=_docs.AXIS_ERROR)
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Compute the weighted average along the given axes.

    Array API: (not in the standard). NumPy: numpy.average.

    Parameters
    ----------
    a : array_like
        The data.
    axis : int or tuple of ints, optional
        The axes to average over; default all.
    weights : array_like, optional
        The weights: of ``a``'s shape, or 1-D of its length along a single ``axis``; default
        all ones.
    returned : bool, optional
        Also return the sum of the weights; default False.
    {keepdims}

    Returns
    -------
    Array or tuple of Array
        The averages (integers give float64); with ``returned``, ``(average, sum of weights)``.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``weights`` differs in shape from ``a`` without
        an ``axis``.
    ValueError
        If ``weights`` does not match the axis.
    ZeroDivisionError
        Eagerly, if the weights sum to zero (under ``jax.jit``: inf/NaN).
    {axis_error}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``returned``, ``keepdims``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.average(la.asarray([1.0, 2.0, 3.0, 4.0]), weights=la.asarray([4.0, 3.0, 2.0, 1.0]))
    Array(2.)
    >>> a = la.asarray([[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]])
    >>> la.average(a, axis=1, weights=la.asarray([1.0, 0.0, 1.0]), returned=True)
    (Array([7., 2.]), Array([2., 2.]))
    """
    x = raw("average", a, "a")
    check_bool("average", returned, "returned")
    check_bool("average", keepdims, "keepdims")
    axes = normalize_axes("average", axis, x.ndim)
    if weights is None:
        avg = _moments.mean(wrap(x), axis=axes, keepdims=keepdims)
        if not returned:
            return avg
        count = math.prod(x.shape) // max(math.prod(avg.shape), 1) if math.prod(avg.shape) \
            else 0
        return avg, full(avg.shape, float(count), dtype=avg.dtype)
    w = raw("average", weights, "weights")
    if tuple(w.shape) != tuple(x.shape):
        if axis is None:
            fail_text(TypeError, "average", "Axis must be specified when shapes of a and "
                      "weights differ.")
        order = tuple(normalize_axis("average", d, x.ndim) for d in
                      (axis if isinstance(axis, (tuple, list)) else (axis,)))
        if tuple(w.shape) != tuple(x.shape[d] for d in order):
            fail_text(ValueError, "average", "Shape of weights must be consistent with shape "
                      "of a along specified axis.")
        w = lax.transpose(w, tuple(int(i) for i in np.argsort(order)))
        w = lax.broadcast_in_dim(w, x.shape, tuple(sorted(order)))
    if _dt.kind_of(x.dtype) in "biu":
        rdtype = _dt.result_type(x.dtype, w.dtype, np.float64)
    else:
        rdtype = _dt.result_type(x.dtype, w.dtype)
    avg, scl = call(_wavg_kernel, x, w, axes=axes, keepdims=keepdims, rdtype=rdtype)
    host = concrete(scl._value)
    if host is not None and (host == 0).any():
        raise ZeroDivisionError("average: Weights sum to zero, can't be normalized")
    return (avg, scl) if returned else avg


# ---- cov / corrcoef --------------------------------------------------------------------------
def _hdot(a, b):
    """``a @ b`` at full precision."""
    return dot_general(a, b, (((1,), (0,)), ((), ())))


@kernel(static=("ddof", "weighted", "has_aweights"))
def _cov_kernel(x, w, aw, *, ddof, weighted, has_aweights):
    n = x.shape[1]
    if not weighted:
        avg = exact_div(lax.reduce_sum(x, (1,)), lax.full((x.shape[0],), n, x.dtype))
        fact = float(n - ddof)
        xc = lax.sub(x, lax.broadcast_in_dim(avg, x.shape, (0,)))
        c = _hdot(xc, lax.transpose(lax.conj(xc) if _dt.kind_of(x.dtype) == "c" else xc, (1, 0)))
        inv = 1.0 / fact if fact > 0 else np.inf
        return lax.mul(c, lax.full_like(c, inv))
    rd = _dt.promote_types(x.dtype, np.float64)
    wr = lax.convert_element_type(w, rd)
    xw = lax.mul(lax.convert_element_type(x, rd), lax.broadcast_in_dim(wr, x.shape, (1,)))
    w_sum = lax.reduce_sum(wr, (0,))
    avg = lax.div(lax.reduce_sum(xw, (1,)), w_sum)
    if ddof == 0:
        fact = w_sum
    elif not has_aweights:
        fact = lax.sub(w_sum, lax.full_like(w_sum, ddof))
    else:
        awr = lax.convert_element_type(aw, rd)
        corr = lax.div(lax.mul(lax.full_like(w_sum, ddof), lax.reduce_sum(lax.mul(wr, awr),
                                                                         (0,))), w_sum)
        fact = lax.sub(w_sum, corr)
    fact = lax.real(fact) if _dt.kind_of(fact.dtype) == "c" else fact
    fact = lax.select(lax.le(fact, lax.full_like(fact, 0)), lax.full_like(fact, 0), fact)
    xc = lax.convert_element_type(
        lax.sub(lax.convert_element_type(x, rd), lax.broadcast_in_dim(avg, x.shape, (0,))),
        x.dtype)
    xcw = lax.mul(lax.convert_element_type(xc, rd), lax.broadcast_in_dim(wr, x.shape, (1,)))
    rhs = lax.transpose(lax.conj(xcw) if _dt.kind_of(rd) == "c" else xcw, (1, 0))
    c = _hdot(lax.convert_element_type(xc, rd), rhs)
    inv = lax.div(lax.full_like(fact, 1), fact)
    return lax.mul(c, lax.convert_element_type(inv, c.dtype))


def _as_2d(x, dtype):
    x = lax.convert_element_type(x, dtype)
    return lax.reshape(x, (1,) * (2 - x.ndim) + tuple(x.shape)) if x.ndim < 2 else x


def _freq_weights(fn, v, argname, nobs):
    w = raw(fn, v, argname)
    if _dt.kind_of(w.dtype) == "c":
        fail(TypeError, fn, f"real '{argname}'", v)
    w = lax.convert_element_type(w, _dt.on_device(_dt.float64))
    if w.ndim > 1:
        fail_text(ValueError, fn, f"cannot handle multidimensional {argname}")
    if w.ndim == 0 or w.shape[0] != nobs:
        fail_text(ValueError, fn, f"incompatible numbers of samples and {argname}")
    host = concrete(w)
    if host is not None:
        if argname == "fweights" and not (host == np.around(host)).all():
            fail_text(TypeError, fn, "fweights must be integer")
        if (host < 0).any():
            fail_text(ValueError, fn, f"{argname} cannot be negative")
    return w


@in_wide_region
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Estimate the covariance matrix of variables from observations.

    Array API: (not in the standard). NumPy: numpy.cov.

    Parameters
    ----------
    m : array_like
        A 1-D or 2-D array: each row a variable and each column an observation (``rowvar``).
    y : array_like, optional
        More variables, in the same layout, stacked under ``m``'s.
    rowvar : bool, optional
        True (default): rows are variables; False: columns are.
    bias : bool, optional
        Normalise by ``N`` instead of ``N - 1``; default False.
    ddof : int, optional
        Normalise by ``N - ddof`` (overrides ``bias``).
    fweights : array_like, optional
        Integer frequency weights, one per observation.
    aweights : array_like, optional
        Non-negative observation weights.
    dtype : dtype, optional
        The dtype of the result; default at least float64 (float32 input gives float64).

    Returns
    -------
    Array
        The covariance matrix (0-d for a single variable).

    Raises
    ------
    TypeError
        If an operand is not array_like, or (eagerly) ``fweights`` is not integer-valued.
    ValueError
        If ``m`` has rank above 2, the weights do not match, or (eagerly) a weight is negative.

    Notes
    -----
    Static under ``jax.jit``: ``rowvar``, ``bias``, ``ddof``, ``dtype`` (the weights may be
    traced; their checks are then skipped).

    Examples
    --------
    >>> import laxarray as la
    >>> la.cov(la.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    Array([[ 1., -1.],
           [-1.,  1.]])
    >>> la.cov(la.asarray([1.0, 2.0]), bias=True)
    Array(0.25)
    """
    fn = "cov"
    mr = raw(fn, m, "m")
    if mr.ndim > 2:
        fail(ValueError, fn, "'m' of rank <= 2", m)
    yr = None
    if y is not None:
        yr = raw(fn, y, "y")
        if yr.ndim > 2:
            fail(ValueError, fn, "'y' of rank <= 2", y)
    check_bool(fn, bool(rowvar) if isinstance(rowvar, (int, np.bool_)) else rowvar, "rowvar")
    check_bool(fn, bool(bias) if isinstance(bias, (int, np.bool_)) else bias, "bias")
    if ddof is not None:
        if isinstance(ddof, bool) or not isinstance(ddof, (int, float, np.integer,
                                                           np.floating)):
            fail(TypeError, fn, "an integer 'ddof'", ddof)
        if ddof != int(ddof):
            fail_text(ValueError, fn, "ddof must be integer")
        ddof = int(ddof)
    if dtype is None:
        parts = [mr.dtype] + ([yr.dtype] if yr is not None else [])
        dt = _dt.result_type(*parts, np.float64)
    else:
        dt = _dt.canonicalize_dtype(fn, dtype)
    x = _as_2d(mr, dt)
    if not rowvar and mr.ndim != 1:
        x = lax.transpose(x, (1, 0))
    if x.shape[0] == 0:
        return zeros((0, 0))
    if yr is not None:
        y2 = _as_2d(yr, dt)
        if not rowvar and y2.shape[0] != 1:
            y2 = lax.transpose(y2, (1, 0))
        if y2.shape[1] != x.shape[1]:
            fail(ValueError, fn, f"'y' with {x.shape[1]} observations", y)
        x = lax.concatenate([x, y2], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    nobs = x.shape[1]
    w = aw = None
    if fweights is not None:
        w = _freq_weights(fn, fweights, "fweights", nobs)
    if aweights is not None:
        aw = _freq_weights(fn, aweights, "aweights", nobs)
        w = aw if w is None else lax.mul(w, aw)
    c = call(_cov_kernel, x, w, aw, ddof=ddof, weighted=w is not None,
             has_aweights=aw is not None)
    axes = tuple(i for i, s in enumerate(c.shape) if s == 1)
    return squeeze(c, axis=axes) if axes else c


@kernel()
def _corr_kernel(c):
    if c.ndim == 0:
        return lax.div(c, c)
    n = c.shape[0]
    eye = lax.eq(lax.broadcasted_iota(np.int32, (n, n), 0), lax.broadcasted_iota(np.int32,
                                                                                 (n, n), 1))
    d = lax.reduce_sum(lax.select(eye, c, lax.full_like(c, 0)), (1,))
    sd = lax.sqrt(lax.real(d) if _dt.kind_of(d.dtype) == "c" else d)
    sd = lax.convert_element_type(sd, c.dtype)
    c = lax.div(c, lax.broadcast_in_dim(sd, c.shape, (0,)))
    c = lax.div(c, lax.broadcast_in_dim(sd, c.shape, (1,)))
    if _dt.kind_of(c.dtype) == "c":
        re = lax.clamp(lax.full_like(lax.real(c), -1), lax.real(c), lax.full_like(lax.real(c), 1))
        im = lax.clamp(lax.full_like(lax.imag(c), -1), lax.imag(c), lax.full_like(lax.imag(c), 1))
        return lax.complex(re, im)
    return lax.clamp(lax.full_like(c, -1), c, lax.full_like(c, 1))


@in_wide_region
@fill(dtype_result=_docs.DTYPE_RESULT, type_error_operand=_docs.TYPE_ERROR_OPERAND)
def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Return the Pearson correlation coefficients of variables.

    Array API: (not in the standard). NumPy: numpy.corrcoef.

    Parameters
    ----------
    x : array_like
        A 1-D or 2-D array of variables (rows, or columns with ``rowvar=False``).
    y : array_like, optional
        More variables, stacked under ``x``'s.
    rowvar : bool, optional
        True (default): rows are variables.
    {dtype_result}

    Returns
    -------
    Array
        :func:`cov` normalised by the standard deviations, clipped to [-1, 1].

    Raises
    ------
    {type_error_operand}
    ValueError
        If ``x`` has rank above 2 (the message names :func:`cov`).

    Notes
    -----
    Static under ``jax.jit``: ``rowvar``, ``dtype``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.corrcoef(la.asarray([0.0, 1.0, 2.0]), la.asarray([1.0, 2.0, 4.0]))
    Array([[1.        , 0.98198051],
           [0.98198051, 1.        ]])
    """
    c = cov(x, y, rowvar, dtype=dtype)
    return call(_corr_kernel, c)
