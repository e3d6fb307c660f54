"""Calculus-style and moment functions: average, cov, corrcoef, interp, gradient, trapezoid,
ediff1d.

Each follows NumPy's formula step by step (the same order of operations and the same
dtype at each step), so results match NumPy to rounding.  Shapes, axes, ``edge_order``,
``rowvar``/``bias``/``ddof`` and the presence of weights are static under ``jax.jit``;
array arguments (weights, coordinates, sample points) may be traced.  Value checks NumPy
makes on data (weights summing to zero, negative frequency weights, non-uniform spacing
detection in ``gradient``) happen eagerly only; under tracing ``gradient`` always uses the
non-uniform formula for coordinate arrays (equal to the uniform one up to rounding).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, normalize_axes, normalize_axis
from laxarray.array_api import statistical_moments as _moments
from laxarray.array_api._array import Array, wrap
from laxarray._core.runtime.kernel import exact_div
from laxarray._core.numerics import dot_general
from laxarray.array_api._calls import call
from laxarray.array_api.creation_filled import full, zeros
from laxarray.array_api.manipulation import squeeze
from laxarray.array_api.searching import searchsorted_kernel
from laxarray.numpy_api.statistics._base import concrete, count_dtype, raw, rounded_mul
from laxarray._core.jaxapi.regions import in_wide_region

__all__ = ["average", "cov", "corrcoef", "interp", "gradient", "trapezoid", "ediff1d"]


def _pyscalar(v):
    return type(v) in (int, float, bool)


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
    keepdims : bool, optional
        Keep the reduced axes with size one; default False.

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
    AxisError
        If an axis is out of range.

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
    dtype : dtype, optional
        The dtype of the result.

    Returns
    -------
    Array
        :func:`cov` normalised by the standard deviations, clipped to [-1, 1].

    Raises
    ------
    TypeError
        If an operand is not array_like.
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


# ---- interp ----------------------------------------------------------------------------------
def _interp_real(x, xp, fp, left, right):
    n = xp.shape[0]
    if n == 1:      # NumPy's special case: NaN x gives fp[0] here
        x0, y0 = lax.broadcast(xp[0], x.shape), lax.broadcast(fp[0], x.shape)
        r = lax.select(lax.gt(x, x0), lax.broadcast(right, x.shape), y0)
        return lax.select(lax.lt(x, x0), lax.broadcast(left, x.shape), r)
    j = lax.sub(searchsorted_kernel(xp, x, None, right=True), lax.full(x.shape, 1,
                                                                        count_dtype()))
    hi_n = max(n - 2, 0)
    jc = lax.clamp(lax.full_like(j, 0), j, lax.full_like(j, hi_n))
    j1 = lax.min(lax.add(jc, lax.full_like(jc, 1)), lax.full_like(jc, n - 1))

    def at(v, idx):
        return lax.gather(v, lax.expand_dims(idx, (1,)), lax.GatherDimensionNumbers(
            offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,)), (1,),
            mode=lax.GatherScatterMode.CLIP)
    x0, x1, y0, y1 = at(xp, jc), at(xp, j1), at(fp, jc), at(fp, j1)
    slope = lax.div(lax.sub(y1, y0), lax.sub(x1, x0))
    r = lax.add(rounded_mul(slope, lax.sub(x, x0)), y0)
    r2 = lax.add(rounded_mul(slope, lax.sub(x, x1)), y1)
    r = lax.select(lax.ne(r, r), r2, r)
    r = lax.select(lax.bitwise_and(lax.ne(r, r), lax.eq(y0, y1)), y0, r)
    r = lax.select(lax.eq(x0, x), y0, r)
    last_x = lax.broadcast(lax.index_in_dim(xp, n - 1, 0, False), x.shape)
    last_y = lax.broadcast(lax.index_in_dim(fp, n - 1, 0, False), x.shape)
    first_x = lax.broadcast(lax.index_in_dim(xp, 0, 0, False), x.shape)
    r = lax.select(lax.eq(x, last_x), last_y, r)
    r = lax.select(lax.gt(x, last_x), lax.broadcast(right, x.shape), r)
    r = lax.select(lax.lt(x, first_x), lax.broadcast(left, x.shape), r)
    return lax.select(lax.ne(x, x), x, r)


@kernel(static=("period",))
def _interp_kernel(x, xp, fp, left, right, *, period):
    shape = x.shape
    x = lax.reshape(x, (math.prod(shape),))
    if period is not None:
        p = period

        def fmod(v):
            r = lax.rem(v, lax.full_like(v, p))
            return lax.select(lax.bitwise_and(lax.ne(r, lax.full_like(r, 0)),
                                              lax.ne(lax.lt(r, lax.full_like(r, 0)), p < 0)),
                              lax.add(r, lax.full_like(r, p)), r)
        x, xp = fmod(x), fmod(xp)
        if _dt.kind_of(fp.dtype) == "c":
            xp, fre, fim = lax.sort((xp, lax.real(fp), lax.imag(fp)), num_keys=1)
            fp = lax.complex(fre, fim)
        else:
            xp, fp = lax.sort((xp, fp), num_keys=1)
        m = xp.shape[0]
        xp = lax.concatenate([lax.sub(lax.slice(xp, (m - 1,), (m,)), lax.full((1,), p, xp.dtype)),
                              xp, lax.add(lax.slice(xp, (0,), (1,)), lax.full((1,), p,
                                                                               xp.dtype))], 0)
        fp = lax.concatenate([lax.slice(fp, (m - 1,), (m,)), fp, lax.slice(fp, (0,), (1,))], 0)
        left = lax.index_in_dim(fp, 0, 0, False)
        right = lax.index_in_dim(fp, fp.shape[0] - 1, 0, False)
    if _dt.kind_of(fp.dtype) == "c":
        re = _interp_real(x, xp, lax.real(fp), lax.real(left), lax.real(right))
        im = _interp_real(x, xp, lax.imag(fp), lax.imag(left), lax.imag(right))
        im = lax.select(lax.ne(x, x), lax.full_like(im, 0), im)
        out = lax.complex(re, im)
    else:
        out = _interp_real(x, xp, fp, left, right)
    return lax.reshape(out, shape)


@in_wide_region
def interp(x, xp, fp, left=None, right=None, period=None):
    """Interpolate piecewise linearly through the points ``(xp, fp)`` at ``x``.

    Array API: (not in the standard). NumPy: numpy.interp.

    Parameters
    ----------
    x : array_like
        Where to evaluate.
    xp : array_like
        The 1-D x-coordinates of the data points, increasing (not checked, as in NumPy)
        unless ``period`` is given.
    fp : array_like
        The 1-D y-coordinates, of ``xp``'s length; real or complex.
    left, right : float, optional
        The value below ``xp[0]`` and above ``xp[-1]``; default ``fp[0]`` and ``fp[-1]``.
    period : float, optional
        The period of periodic x-coordinates (``left``/``right`` are then ignored).

    Returns
    -------
    Array
        The interpolated values, of ``x``'s shape: float64 (complex128 for complex ``fp``).

    Raises
    ------
    TypeError
        If an operand is not array_like.
    ValueError
        If ``xp`` or ``fp`` is not 1-D, their lengths differ, or ``period`` is zero.

    Notes
    -----
    Static under ``jax.jit``: ``period``.

    Examples
    --------
    >>> import laxarray as la
    >>> xp, fp = la.asarray([1.0, 2.0, 3.0]), la.asarray([3.0, 2.0, 0.0])
    >>> la.interp(la.asarray([2.5, 0.0, 5.0]), xp, fp)
    Array([1., 3., 0.])
    >>> la.interp(la.asarray([2.5, 0.0]), xp, fp, left=-1.0)
    Array([ 1., -1.])
    """
    fn = "interp"
    xr, xpr, fpr = raw(fn, x, "x"), raw(fn, xp, "xp"), raw(fn, fp, "fp")
    if _dt.kind_of(xr.dtype) == "c" or _dt.kind_of(xpr.dtype) == "c":
        fail(TypeError, fn, "real 'x' and 'xp'", x)
    if xpr.ndim != 1 or fpr.ndim != 1:
        fail_text(ValueError, fn, "data points must be 1-D sequences")
    if xpr.shape[0] != fpr.shape[0]:
        fail_text(ValueError, fn, "fp and xp are not of the same length")
    if xpr.shape[0] == 0:
        fail_text(ValueError, fn, "array of sample points is empty")
    odt = _dt.on_device(_dt.complex128) if _dt.kind_of(fpr.dtype) == "c" else _dt.on_device(_dt.float64)
    f64 = _dt.on_device(_dt.float64)
    xr, xpr = lax.convert_element_type(xr, f64), lax.convert_element_type(xpr, f64)
    fpr = lax.convert_element_type(fpr, odt)
    if period is not None:
        if isinstance(period, (Array,)) or not isinstance(period, (int, float, np.number)):
            fail(TypeError, fn, "a static real number for 'period'", period)
        period = float(period)
        if period == 0:
            fail_text(ValueError, fn, "period must be a non-zero value")
        period = abs(period)
        lo = hi = lax.full((), 0, odt)
    else:
        lo = fpr[0] if left is None else _interp_scalar(fn, left, "left", odt)
        hi = fpr[-1] if right is None else _interp_scalar(fn, right, "right", odt)
    return call(_interp_kernel, xr, xpr, fpr, lo, hi, period=period)


def _interp_scalar(fn, v, argname, odt):
    r = raw(fn, v, argname)
    if r.ndim != 0:
        fail(ValueError, fn, f"a scalar '{argname}'", v)
    if _dt.kind_of(r.dtype) == "c" and _dt.kind_of(odt) != "c":
        fail(TypeError, fn, f"a real '{argname}' for real 'fp'", v)
    return lax.convert_element_type(r, odt)


# ---- gradient --------------------------------------------------------------------------------
def _sl(f, a, b, axis):
    return lax.slice_in_dim(f, a, b, axis=axis)


@kernel(static=("axis", "edge_order", "uniform", "otype"))
def _gradient_kernel(f, dx, *, axis, edge_order, uniform, otype):
    wt = _dt.promote_types(otype, dx.dtype)
    f = lax.convert_element_type(f, wt)
    dx = lax.convert_element_type(dx, wt)
    n = f.shape[axis]
    nd = f.ndim

    def bshape(v, length):      # a 1-D vector along ``axis``
        shape = tuple(length if d == axis else f.shape[d] for d in range(nd))
        return lax.broadcast_in_dim(v, shape, (axis,))

    def c(v):
        return lax.full((), v, wt)
    if uniform:
        inner = lax.div(lax.sub(_sl(f, 2, n, axis), _sl(f, 0, n - 2, axis)),
                        lax.mul(c(2.0), dx))
        if edge_order == 1:
            first = lax.div(lax.sub(_sl(f, 1, 2, axis), _sl(f, 0, 1, axis)), dx)
            last = lax.div(lax.sub(_sl(f, n - 1, n, axis), _sl(f, n - 2, n - 1, axis)), dx)
        else:
            a, b, cc = lax.div(c(-1.5), dx), lax.div(c(2.0), dx), lax.div(c(-0.5), dx)
            first = _comb(a, b, cc, _sl(f, 0, 1, axis), _sl(f, 1, 2, axis), _sl(f, 2, 3, axis))
            a, b, cc = lax.div(c(0.5), dx), lax.div(c(-2.0), dx), lax.div(c(1.5), dx)
            last = _comb(a, b, cc, _sl(f, n - 3, n - 2, axis), _sl(f, n - 2, n - 1, axis),
                         _sl(f, n - 1, n, axis))
    else:
        dx1, dx2 = lax.slice(dx, (0,), (n - 2,)), lax.slice(dx, (1,), (n - 1,))
        a = lax.neg(lax.div(dx2, lax.mul(dx1, lax.add(dx1, dx2))))
        b = lax.div(lax.sub(dx2, dx1), lax.mul(dx1, dx2))
        cc = lax.div(dx1, lax.mul(dx2, lax.add(dx1, dx2)))
        inner = _comb(bshape(a, n - 2), bshape(b, n - 2), bshape(cc, n - 2),
                      _sl(f, 0, n - 2, axis), _sl(f, 1, n - 1, axis), _sl(f, 2, n, axis))
        d0, dl = lax.index_in_dim(dx, 0, 0, False), lax.index_in_dim(dx, n - 2, 0, False)
        if edge_order == 1:
            first = lax.div(lax.sub(_sl(f, 1, 2, axis), _sl(f, 0, 1, axis)), d0)
            last = lax.div(lax.sub(_sl(f, n - 1, n, axis), _sl(f, n - 2, n - 1, axis)), dl)
        else:
            e1, e2 = d0, lax.index_in_dim(dx, 1, 0, False)
            a = lax.neg(lax.div(lax.add(lax.mul(c(2.0), e1), e2), lax.mul(e1, lax.add(e1, e2))))
            b = lax.div(lax.add(e1, e2), lax.mul(e1, e2))
            cc = lax.neg(lax.div(e1, lax.mul(e2, lax.add(e1, e2))))
            first = _comb(a, b, cc, _sl(f, 0, 1, axis), _sl(f, 1, 2, axis), _sl(f, 2, 3, axis))
            e1, e2 = lax.index_in_dim(dx, n - 3, 0, False), dl
            a = lax.div(e2, lax.mul(e1, lax.add(e1, e2)))
            b = lax.neg(lax.div(lax.add(e2, e1), lax.mul(e1, e2)))
            cc = lax.div(lax.add(lax.mul(c(2.0), e2), e1), lax.mul(e2, lax.add(e1, e2)))
            last = _comb(a, b, cc, _sl(f, n - 3, n - 2, axis), _sl(f, n - 2, n - 1, axis),
                         _sl(f, n - 1, n, axis))
    out = lax.concatenate([first, inner, last], axis)
    return lax.convert_element_type(out, otype)


def _comb(a, b, c, f0, f1, f2):
    """``a*f0 + b*f1 + c*f2`` with each product rounded (NumPy's order)."""
    def m(u, v):
        if u.ndim == 0:
            u = lax.broadcast(u, v.shape)
        return rounded_mul(u, v)
    return lax.add(lax.add(m(a, f0), m(b, f1)), m(c, f2))


@in_wide_region
def gradient(f, *varargs, axis=None, edge_order=1):
    """Return the gradient of an N-d array by finite differences.

    Array API: (not in the standard). NumPy: numpy.gradient.

    Parameters
    ----------
    f : array_like
        The sampled values.
    *varargs : scalars or 1-D array_like, optional
        The spacing: none (1), one scalar for every axis, or one scalar or coordinate array
        per axis of ``axis``.
    axis : int or tuple of ints, optional
        The axes to differentiate along; default all.
    edge_order : {1, 2}, optional
        The order of the one-sided differences at the edges; default 1.

    Returns
    -------
    Array or tuple of Array
        The derivative along each axis (one array for one axis, else a tuple), of the
        floating dtype of ``f`` (integers give float64).

    Raises
    ------
    TypeError
        If ``f`` is not array_like.
    ValueError
        If ``edge_order`` is above 2, an axis has fewer than ``edge_order + 1`` elements, or
        a coordinate array does not match its axis.
    AxisError
        If an axis is out of range.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``edge_order``, the kind of each spacing (coordinate
    arrays may be traced).

    Central differences inside, one-sided ones at the edges.  Traced coordinate arrays take
    the non-uniform formula even when evenly spaced.

    Examples
    --------
    >>> import laxarray as la
    >>> la.gradient(la.asarray([1.0, 2.0, 4.0, 7.0, 11.0]))
    Array([1. , 1.5, 2.5, 3.5, 4. ])
    >>> la.gradient(la.asarray([1.0, 2.0, 4.0, 7.0, 11.0]), 2.0)
    Array([0.5 , 0.75, 1.25, 1.75, 2.  ])
    >>> dy, dx = la.gradient(la.asarray([[1.0, 2.0, 6.0], [3.0, 4.0, 5.0]]))
    >>> dx
    Array([[1. , 2.5, 4. ],
           [1. , 1. , 1. ]])
    """
    fn = "gradient"
    fr = raw(fn, f, "f")
    if _dt.kind_of(fr.dtype) == "b":
        fail(TypeError, fn, "a numeric (not boolean) 'f'", f)
    axes = tuple(range(fr.ndim)) if axis is None else normalize_axes_ordered(fn, axis,
                                                                             fr.ndim)
    if edge_order not in (1, 2) or isinstance(edge_order, bool):
        fail_text(ValueError, fn, "'edge_order' greater than 2 not supported")
    otype = fr.dtype if _dt.kind_of(fr.dtype) in "fc" else _dt.on_device(_dt.float64)
    fr = lax.convert_element_type(fr, otype)
    nv = len(varargs)
    if nv == 0:
        spacing = [1.0] * len(axes)
    elif nv == 1 and np.ndim(varargs[0]) == 0:
        spacing = [varargs[0]] * len(axes)
    elif nv == len(axes):
        spacing = list(varargs)
    else:
        fail_text(TypeError, fn, "invalid number of arguments")
    outs = []
    for ax, dx in zip(axes, spacing):
        n = fr.shape[ax]
        if n < edge_order + 1:
            fail_text(ValueError, fn, "Shape of array too small to calculate a numerical "
                      "gradient, at least (edge_order + 1) elements are required.")
        if _pyscalar(dx):
            d = lax.full((), dx, otype)
            uniform = True
        else:
            d = raw(fn, dx, "varargs")
            if d.ndim == 0:
                uniform = True
            elif d.ndim != 1:
                fail_text(ValueError, fn, "distances must be either scalars or 1d")
            elif d.shape[0] != n:
                fail_text(ValueError, fn, "when 1d, distances must match the length of the "
                          "corresponding dimension")
            else:
                if _dt.kind_of(d.dtype) in "biu":
                    d = lax.convert_element_type(d, _dt.on_device(_dt.float64))
                d = lax.sub(lax.slice(d, (1,), (n,)), lax.slice(d, (0,), (n - 1,)))
                host = concrete(d)
                uniform = host is not None and bool((host == host[0]).all())
                if uniform:
                    d = d[0]
        outs.append(call(_gradient_kernel, fr, d, axis=ax, edge_order=edge_order,
                         uniform=uniform, otype=otype))
    return outs[0] if len(outs) == 1 else tuple(outs)


def normalize_axes_ordered(fn, axis, ndim):
    """``axis`` as a tuple of non-negative axes in the order given (NumPy's gradient)."""
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(normalize_axis(fn, a, ndim) for a in items)
    if len(set(out)) != len(out):
        fail(ValueError, fn, "unique axes for 'axis'", axis)
    return out


# ---- trapezoid / ediff1d ---------------------------------------------------------------------
@kernel(static=("axis", "pdtype", "rdtype"))
def _trapezoid_kernel(y, d, *, axis, pdtype, rdtype):
    n = y.shape[axis]
    if n < 2:
        shape = tuple(s for i, s in enumerate(y.shape) if i != axis)
        return lax.full(shape, 0, rdtype)
    y1, y0 = lax.slice_in_dim(y, 1, n, axis=axis), lax.slice_in_dim(y, 0, n - 1, axis=axis)
    s = lax.bitwise_or(y1, y0) if y.dtype == np.bool_ else lax.add(y1, y0)
    d = lax.convert_element_type(d, pdtype)
    if d.ndim == 0:
        d = lax.broadcast(d, s.shape)
    elif d.ndim == 1:
        d = lax.broadcast_in_dim(d, s.shape, (axis,))
    prod = rounded_mul(d, lax.convert_element_type(s, pdtype))
    prod = lax.convert_element_type(prod, rdtype)
    half = lax.div(prod, lax.full_like(prod, 2.0))
    return lax.reduce_sum(half, (axis,))


@in_wide_region
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integrate along an axis by the composite trapezoidal rule.

    Array API: (not in the standard). NumPy: numpy.trapezoid.

    Parameters
    ----------
    y : array_like
        The sampled values.
    x : array_like, optional
        The sample points (1-D of ``y``'s length along ``axis``, or of ``y``'s shape); may
        be traced.  Default: spacing ``dx``.
    dx : float, optional
        The spacing when ``x`` is None; default 1.0.
    axis : int, optional
        The axis to integrate along; default -1.

    Returns
    -------
    Array
        The integrals, of ``y``'s shape without ``axis``; integers give float64.

    Raises
    ------
    TypeError
        If an operand is not array_like.
    ValueError
        If ``x`` does not match ``y``.
    AxisError
        If ``axis`` is out of range.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.trapezoid(la.asarray([1.0, 2.0, 3.0]))
    Array(4.)
    >>> la.trapezoid(la.asarray([1.0, 2.0, 3.0]), x=la.asarray([4.0, 6.0, 8.0]))
    Array(8.)
    """
    fn = "trapezoid"
    yr = raw(fn, y, "y")
    if yr.ndim == 0:
        fail(ValueError, fn, "'y' of rank >= 1", y)
    ax = normalize_axis(fn, axis, yr.ndim)
    if x is None:
        if _pyscalar(dx):
            pdtype = _dt.result_type(yr.dtype, dx)
            d = lax.full((), dx, pdtype)
        else:
            d = raw(fn, dx, "dx")
            pdtype = _dt.result_type(yr.dtype, d.dtype)
            if d.ndim not in (0,) and tuple(d.shape) != tuple(yr.shape[:ax]) + (
                    max(yr.shape[ax] - 1, 0),) + tuple(yr.shape[ax + 1:]):
                fail(ValueError, fn, "a scalar 'dx' (or one per interval)", dx)
    else:
        xr = raw(fn, x, "x")
        if xr.ndim == 1:
            if xr.shape[0] != yr.shape[ax]:
                fail(ValueError, fn, f"'x' of length {yr.shape[ax]}", x)
            d = _diff(xr, 0)
        else:
            if tuple(xr.shape) != tuple(yr.shape):
                fail(ValueError, fn, "'x' of the shape of 'y' (or 1-D)", x)
            d = _diff(xr, ax)
        pdtype = _dt.result_type(yr.dtype, d.dtype)
    if _dt.kind_of(pdtype) == "b":
        pdtype = _dt.default_index()
    rdtype = _dt.result_type(pdtype, 2.0)
    return call(_trapezoid_kernel, yr, d, axis=ax, pdtype=pdtype, rdtype=rdtype)


def _diff(x, axis):
    n = x.shape[axis]
    if x.dtype == np.bool_:
        return lax.ne(lax.slice_in_dim(x, 1, n, axis=axis), lax.slice_in_dim(x, 0, n - 1,
                                                                            axis=axis))
    if n == 0:
        return x
    return lax.sub(lax.slice_in_dim(x, 1, n, axis=axis), lax.slice_in_dim(x, 0, n - 1,
                                                                         axis=axis))


@kernel()
def _ediff1d_kernel(x, begin, end):
    n = x.shape[0]
    d = lax.sub(lax.slice(x, (1,), (n,)), lax.slice(x, (0,), (n - 1,))) if n > 1 else \
        lax.full((0,), 0, x.dtype)
    parts = [p for p in (begin, d, end) if p is not None]
    return lax.concatenate(parts, 0) if len(parts) > 1 else d


@in_wide_region
def ediff1d(ary, to_end=None, to_begin=None):
    """Return the differences between consecutive elements of the flattened array.

    Array API: (not in the standard). NumPy: numpy.ediff1d.

    Parameters
    ----------
    ary : array_like
        The input; flattened.
    to_end : array_like, optional
        Values appended.
    to_begin : array_like, optional
        Values prepended.

    Returns
    -------
    Array
        The differences, of ``ary``'s dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``to_begin``/``to_end`` does not cast to
        ``ary``'s dtype.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.ediff1d(la.asarray([1, 2, 4, 7, 0]))
    Array([ 1,  2,  3, -7])
    >>> la.ediff1d(la.asarray([1, 2, 4]), to_begin=-99, to_end=la.asarray([88, 99]))
    Array([-99,   1,   2,  88,  99])
    """
    fn = "ediff1d"
    x = raw(fn, ary, "ary")
    if _dt.kind_of(x.dtype) == "b":
        fail(TypeError, fn, "a numeric (not boolean) 'ary'", ary)
    x = lax.reshape(x, (math.prod(x.shape),))
    extra = []
    for name, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is None:
            extra.append(None)
            continue
        vr = raw(fn, v, name)
        if not np.can_cast(vr.dtype, x.dtype, casting="same_kind"):
            fail_text(TypeError, fn, f"dtype of `{name}` must be compatible with input `ary` "
                      "under the `same_kind` rule.")
        extra.append(lax.convert_element_type(lax.reshape(vr, (math.prod(vr.shape),)),
                                              x.dtype))
    return call(_ediff1d_kernel, x, extra[0], extra[1])

