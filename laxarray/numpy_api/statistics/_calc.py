"""Calculus-style functions: interp, gradient, trapezoid, ediff1d (averages and covariances
are in ``_average``).

Each follows NumPy's formula step by step (the same order of operations and the same
dtype at each step), so results match NumPy to rounding.  Shapes, axes and ``edge_order``
are static under ``jax.jit``; array arguments (coordinates, sample points) may be traced.
Value checks NumPy makes on data (non-uniform spacing detection in ``gradient``) happen
eagerly only; under tracing ``gradient`` always uses the non-uniform formula for coordinate
arrays (equal to the uniform one up to rounding).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import normalize_axis
from laxarray.array_api._array import Array
from laxarray.array_api._calls import call
from laxarray.array_api.searching import searchsorted_kernel
from laxarray.numpy_api.statistics._base import (concrete, count_dtype, pyscalar, raw,
                                                 rounded_mul)
from laxarray._core.jax_regions import in_wide_region
from laxarray.numpy_api import _docs

__all__ = ["interp", "gradient", "trapezoid", "ediff1d"]


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
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND)
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
    {type_error_operand}
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
@fill(axis_error=_docs.AXIS_ERROR)
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
    {axis_error}

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
        if pyscalar(dx):
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
@fill(closing=_docs.closing(
    [_docs.TYPE_ERROR_OPERAND, "ValueError\n    If ``x`` does not match ``y``.",
     _docs.AXIS_ERROR_AXIS],
    "``axis``"))
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

    {closing}
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
        if pyscalar(dx):
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
