"""Statistical functions of the standard that are moments: mean, var and std (reductions:
``statistical``; cumulative functions: ``statistical_cumulative``).

``axis``, ``keepdims`` and ``correction`` are static under ``jax.jit``; each function runs
one kernel (``_moment_kernel``).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.buckets import mask_padding
from laxarray._core.runtime.kernel import exact_div, kernel
from laxarray._core.validate import check_bool, normalize_axes
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array
from laxarray._core.jax_regions import in_wide_region
from laxarray.array_api.statistical import (KEEPDIMS, REDUCE_RAISES, _HALF, _finish,
                                            numpy_sum, reduced_shape)


#: numpydoc parts of the moments (``fill``), besides the reductions' (``statistical``)
_FLOAT_X_AXES = """
x : array_like
    The input array: real or complex floating; bool and integers are computed in the
    default floating dtype (float64 on the CPU, float32 on a TPU).
axis : int or tuple of ints, optional
    The axes to reduce over; default ``None``: all of them.
"""
_SPREAD_RAISES_NOTES = """
Raises
------
TypeError
    If ``x`` is not array_like, ``correction`` is not a real number, or ``keepdims`` is
    not a bool.
ValueError
    If ``correction`` is negative, or ``axis`` repeats an axis.
AxisError
    If an axis is out of range for ``x``.

Notes
-----
Static under ``jax.jit``: ``axis``, ``correction`` and ``keepdims``.

Where ``M - correction <= 0`` the result is NaN, as the standard says (NumPy: ``inf``
for a nonzero spread).  Unlike NumPy, the standard's ``correction`` in place of ``ddof``,
and no ``dtype``, ``out``, ``where`` or ``mean``.
"""


def _moment_shape(shape, count_shape, *, axes, keepdims, **_):
    return reduced_shape(shape, axes=axes, keepdims=keepdims)


@kernel(static=("axes", "keepdims", "correction", "op", "dtype"), shape=_moment_shape,
        extents=True)
def _moment_kernel(x, count, exts, *, axes, keepdims, correction, op, dtype):
    """Mean, variance or standard deviation of ``x`` (converted to ``dtype``) over ``axes``
    of ``count`` elements (dynamic: one executable serves every length)."""
    x = lax.convert_element_type(x, dtype)
    if dtype in _HALF:  # float32 intermediates, as NumPy
        x = lax.convert_element_type(x, np.float32)
    if exts is not None:
        x = mask_padding(x, exts[0], 0)
    total = numpy_sum(x, axes)
    real = lax.real(total).dtype if _dt.kind_of(dtype) == "c" else total.dtype
    n = lax.broadcast(lax.convert_element_type(count, real), total.shape)
    if _dt.kind_of(dtype) == "c":  # divide each part by the real count
        mean = lax.complex(exact_div(lax.real(total), n), exact_div(lax.imag(total), n))
    else:
        mean = exact_div(total, n)
    if op == "mean":
        return _finish(lax.convert_element_type(mean, dtype), axes, keepdims)
    centred = lax.sub(x, lax.expand_dims(mean, axes))
    if exts is not None:
        centred = mask_padding(centred, exts[0], 0)
    sq = lax.real(lax.mul(centred, lax.conj(centred))) if _dt.kind_of(dtype) == "c" else lax.mul(
        centred, centred)
    ss = lax.reduce_sum(sq, axes)
    dof = lax.sub(n, lax.full_like(n, correction))
    var = exact_div(ss, lax.max(dof, lax.full_like(n, 0)))
    # the standard: NaN where M - correction <= 0 (NumPy gives inf or NaN)
    var = lax.select(lax.le(dof, lax.full_like(dof, 0)), lax.full_like(var, np.nan), var)
    if op == "std":
        var = lax.sqrt(var)
    return _finish(lax.convert_element_type(var, _dt.real_dtype(dtype)), axes, keepdims)


def _float_input(fn, x):
    """``x`` as an Array and the float dtype its moments are computed in."""
    x = as_array(fn, x)
    dtype = x.dtype
    if _dt.kind_of(dtype) not in "fc":
        if dtype not in _dt.CATEGORIES["real"]:
            _dt.check_category(fn, "x", dtype, "floating-point")
        dtype = _dt.default_float()
    return x, dtype


def _moment(fn, op, x, axis, correction, keepdims):
    x, dtype = _float_input(fn, x)
    axes = normalize_axes(fn, axis, x.ndim)
    check_bool(fn, keepdims, "keepdims")
    # (a host scalar in the backend's widest float: no float64 in a TPU program)
    count = _dt.on_device(_dt.float64).type(math.prod(x.shape[a] for a in axes))
    return call(_moment_kernel, x, count, axes=axes, keepdims=keepdims,
                correction=correction, op=op, dtype=dtype)


@in_wide_region
@fill(x_axes=_FLOAT_X_AXES, keepdims=KEEPDIMS, raises=REDUCE_RAISES)
def mean(x, /, *, axis=None, keepdims=False):
    """Return the arithmetic mean of the elements over the given axes.

    Array API: mean. NumPy: numpy.mean.

    Parameters
    ----------
    {x_axes}
    {keepdims}

    Returns
    -------
    Array
        The means, of the floating dtype of ``x`` (complex stays complex); NaN for no
        elements.

    {raises}

    Notes
    -----
    Static under ``jax.jit``: ``axis`` and ``keepdims``.  The element count is a run-time
    value: one program serves every length of a bucket.

    float16 and bfloat16 are averaged with float32 intermediates, as NumPy.  Unlike NumPy,
    no ``dtype``, ``out`` or ``where``, and an empty mean gives NaN without a warning.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> xp.mean(x)
    Array(2.5)
    >>> xp.mean(x, axis=1)
    Array([1.5, 3.5])
    """
    return _moment("mean", "mean", x, axis, 0.0, keepdims)


def _spread(fn, op, x, axis, correction, keepdims):
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        fail(TypeError, fn, "a real number for 'correction'", correction)
    if correction < 0:
        fail(ValueError, fn, "a non-negative 'correction'", correction)
    return _moment(fn, op, x, axis, float(correction), keepdims)


@in_wide_region
@fill(x_axes=_FLOAT_X_AXES, keepdims=KEEPDIMS, raises_notes=_SPREAD_RAISES_NOTES)
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Return the variance of the elements over the given axes.

    Array API: var. NumPy: numpy.var.

    Parameters
    ----------
    {x_axes}
    correction : int or float, optional
        Subtracted from the number of elements ``M`` in the divisor ``M - correction``
        (NumPy's ``ddof``): 0 for the population variance, 1 for the sample one;
        default 0.0.
    {keepdims}

    Returns
    -------
    Array
        The variances, of the real floating dtype of ``x`` (complex input gives a real
        result); NaN where ``M - correction <= 0``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    >>> xp.var(x)
    Array(1.25)
    >>> xp.var(x, correction=1)
    Array(1.66666667)
    """
    return _spread("var", "var", x, axis, correction, keepdims)


@in_wide_region
@fill(x_axes=_FLOAT_X_AXES, keepdims=KEEPDIMS, raises_notes=_SPREAD_RAISES_NOTES)
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Return the standard deviation of the elements over the given axes.

    Array API: std. NumPy: numpy.std.

    Parameters
    ----------
    {x_axes}
    correction : int or float, optional
        Subtracted from the number of elements ``M`` in the divisor ``M - correction``
        (NumPy's ``ddof``): 0 for the population standard deviation, 1 for the sample one;
        default 0.0.
    {keepdims}

    Returns
    -------
    Array
        The standard deviations, of the real floating dtype of ``x`` (complex input gives a
        real result); NaN where ``M - correction <= 0``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    >>> xp.std(x)
    Array(1.11803399)
    >>> xp.std(x, correction=1)
    Array(1.29099445)
    """
    return _spread("std", "std", x, axis, correction, keepdims)


__all__ = ["mean", "var", "std"]
