"""Statistical functions of the standard: reductions and cumulative sums/products.

``axis``, ``dtype``, ``keepdims``, ``correction`` and ``include_initial`` are static under
``jax.jit``; each traces to one lax reduction (``reduce_sum``, ``reduce_max``, ``cumsum``...).
Integer sums and products accumulate in the default integer of their signedness (int64 or
uint64), booleans in int64, as in NumPy and the standard.
"""

from __future__ import annotations

import builtins
import functools
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.buckets import mask_padding
from laxarray._core.runtime.kernel import exact_div, kernel, reduce_extreme
from laxarray._core.numerics import cumulative
from laxarray._core.validate import check_bool, check_int, normalize_axes, normalize_axis
from laxarray.array_api import _host_order
from laxarray.array_api._array import wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, to_raw
from laxarray.array_api.manipulation import broadcast_to
from laxarray._core.jaxapi.regions import in_wide_region



def accumulation_dtype(fn, x_dtype, dtype, bool_ok=False):
    """Result dtype of sum/prod/cumulative_*: ``dtype`` if given, else widened integers.
    A bool ``dtype`` is a ``TypeError`` unless ``bool_ok`` (the cumulative functions)."""
    if dtype is not None:
        dt = _dt.canonicalize_dtype(fn, dtype)
        if _dt.kind_of(dt) == "b" and not bool_ok:
            fail(TypeError, fn, "a numeric 'dtype' to accumulate in (for a bool result use "
                                "any or all)", dt)
        if _dt.kind_of(x_dtype) == "c" and _dt.kind_of(dt) != "c":
            fail(TypeError, fn, f"a complex 'dtype' for complex input of {x_dtype}", dt)
        return dt
    if _dt.kind_of(x_dtype) == "b" or _dt.kind_of(x_dtype) == "i":
        return _dt.promote_types(x_dtype, _dt.default_int())
    if _dt.kind_of(x_dtype) == "u":
        return _dt.promote_types(x_dtype, _dt.default_uint())
    return x_dtype


def _finish(y, axes, keepdims):
    return lax.expand_dims(y, axes) if keepdims and axes else y


_HALF = (np.dtype(np.float16), _dt.bfloat16)


def _lowest(dtype):
    kind = _dt.kind_of(dtype)
    if kind == "b":
        return False
    if kind == "c":  # behind every value in lexicographic order
        return complex(-np.inf, -np.inf)
    return -np.inf if kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    kind = _dt.kind_of(dtype)
    if kind == "b":
        return True
    if kind == "c":
        return complex(np.inf, np.inf)
    return np.inf if kind == "f" else np.iinfo(dtype).max


def _reduce_fill(dtype, static):
    """What padding reads as in a bucketed reduction: the operation's identity."""
    return REDUCTIONS[static["op"]][0](dtype)


def reduced_shape(shape, *, axes, keepdims, **_):
    """The logical shape of a reduction of ``shape`` over ``axes``."""
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


@kernel(static=("axes", "dtype", "keepdims", "op"), fills=(_reduce_fill,), shape=reduced_shape)
def _reduce_kernel(x, *, axes, dtype, keepdims, op):
    if dtype is not None:
        x = lax.convert_element_type(x, dtype)
    return _finish(REDUCTIONS[op][1](x, axes), axes, keepdims)


def numpy_sum(x, axes):
    """``lax.reduce_sum(x, axes)`` with NumPy's zero: NumPy adds the elements to +0.0, so its
    sum of one -0.0 is 0.0, while XLA reduces one element to the element itself (and folds
    ``y + 0.0`` away); over one element -0.0 is read as +0.0 (parts of complex too)."""
    y = lax.reduce_sum(x, axes)
    return _plus_zero(y) if math.prod(x.shape[a] for a in axes) == 1 else y


def _plus_zero(y):
    kind = _dt.kind_of(y.dtype)
    if kind == "c":
        return lax.complex(_plus_zero(lax.real(y)), _plus_zero(lax.imag(y)))
    if kind != "f":
        return y
    return lax.select(lax.eq(y, lax.full_like(y, 0)), lax.full_like(y, 0), y)


def _complex_extremum(x, axes, op):
    """NumPy's max/min of complex ``x`` over ``axes`` (see :func:`complex_extremum`)."""
    return complex_extremum(x, axes, op)[0]


def complex_extremum(x, axes, op):
    """``(value, position)``: NumPy's max/min of complex ``x`` over ``axes``, as its
    sequential fold of
    ``maximum``/``minimum``: the first element (in C order over ``axes``) with a NaN part
    if there is one, else the lexicographic extreme (real part first), the first of equal
    ones; ``position`` is its index in C order over ``axes``.  One variadic reduce whose
    order does not matter: each element carries its position, which breaks every tie."""
    re, im = lax.real(x), lax.imag(x)
    nan = lax.bitwise_or(lax.ne(re, re), lax.ne(im, im))
    pos = lax.full(x.shape, 0, _dt.default_index())
    stride = 1
    for a in sorted(axes, reverse=True):
        step = lax.mul(lax.broadcasted_iota(_dt.default_index(), x.shape, a),
                       lax.full(x.shape, stride, _dt.default_index()))
        pos, stride = lax.add(pos, step), stride * x.shape[a]
    beats = lax.gt if op == "max" else lax.lt

    def pick(a, b):
        ar, ai, an, ak = a
        br, bi, bn, bk = b
        first = lax.lt(ak, bk)
        same = lax.bitwise_and(lax.eq(ar, br), lax.eq(ai, bi))
        ahead = lax.bitwise_or(beats(ar, br), lax.bitwise_and(lax.eq(ar, br), beats(ai, bi)))
        plain = lax.bitwise_or(ahead, lax.bitwise_and(same, first))
        take = lax.select(an, lax.bitwise_or(lax.bitwise_not(bn), first),
                          lax.bitwise_and(lax.bitwise_not(bn), plain))
        return tuple(lax.select(take, u, v) for u, v in zip(a, b))

    edge = -np.inf if op == "max" else np.inf
    init = (lax.full((), edge, re.dtype), lax.full((), edge, re.dtype), lax.full((), False),
            lax.full((), np.iinfo(_dt.default_index()).max, _dt.default_index()))
    r, i, _, at = lax.reduce((re, im, nan, pos), init, pick, tuple(axes))
    return lax.complex(r, i), at


def _truthy(x):
    if x.dtype == np.bool_:
        return x
    return lax.ne(x, lax.full_like(x, 0))


def _accumulated(reduce):
    """``reduce`` (``numpy_sum``, ``lax.reduce_prod``) with float16/bfloat16 accumulated in
    float32, as NumPy."""
    def body(x, axes):
        if x.dtype in _HALF:
            return lax.convert_element_type(
                reduce(lax.convert_element_type(x, np.float32), axes), x.dtype)
        return reduce(x, axes)
    return body


def _extreme(op):
    def body(x, axes):
        if _dt.kind_of(x.dtype) == "c":
            return _complex_extremum(x, axes, op)
        return reduce_extreme(x, axes, op == "max")
    return body


def _count(x, axes):
    return lax.reduce_sum(lax.convert_element_type(_truthy(x), _dt.default_index()), axes)


#: ``_reduce_kernel``'s operations, one row each: ``op -> (identity(dtype): what a bucket's
#: padding reads as, body(x, axes): the reduction)``.  A new reduction of the standard's
#: shape (axes, keepdims, an optional dtype) is a row here and its public function.
REDUCTIONS = {
    "sum": (lambda dtype: 0, _accumulated(numpy_sum)),
    "prod": (lambda dtype: 1, _accumulated(lax.reduce_prod)),
    "max": (_lowest, _extreme("max")),
    "min": (_highest, _extreme("min")),
    "all": (lambda dtype: 1, lambda x, axes: lax.reduce_and(_truthy(x), axes)),
    "any": (lambda dtype: 0, lambda x, axes: lax.reduce_or(_truthy(x), axes)),
    "count": (lambda dtype: 0, _count),
}


def _reduction(fn, x, axis, keepdims, category):
    x = as_array(fn, x)
    if x.dtype not in _dt.CATEGORIES[category]:
        _dt.check_category(fn, "x", x.dtype, category)
    axes = normalize_axes(fn, axis, x.ndim)
    check_bool(fn, keepdims, "keepdims")
    return x, axes


@in_wide_region
def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Return the sum of the elements over the given axes.

    Array API: sum. NumPy: numpy.sum.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    dtype : dtype, optional
        The dtype to accumulate in and return; default ``None``: the dtype of ``x``, with
        integers widened to the default integer of their signedness (int64 or uint64) and
        bool to int64, as NumPy and the standard do.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The sums; 0 for no elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``keepdims`` is not a bool, ``dtype`` is not a supported
        dtype, or ``dtype`` is real for complex ``x``.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``dtype`` and ``keepdims``.

    One ``lax.reduce_sum``; float16 and bfloat16 accumulate in float32, as NumPy.  The sum of
    one ``-0.0`` is ``0.0``, as NumPy's (which adds the elements to ``+0.0``).  Unlike NumPy,
    no ``out``, ``initial`` or ``where``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.sum(x)
    Array(21)
    >>> xp.sum(x, axis=0)
    Array([5, 7, 9])
    >>> xp.sum(x, axis=1, keepdims=True)
    Array([[ 6],
           [15]])
    """
    raw, axes = _reduction("sum", x, axis, keepdims, "any")
    dt = accumulation_dtype("sum", raw.dtype, dtype)
    return call(_reduce_kernel, raw, axes=axes, dtype=dt, keepdims=keepdims, op="sum")


@in_wide_region
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Return the product of the elements over the given axes.

    Array API: prod. NumPy: numpy.prod.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    dtype : dtype, optional
        The dtype to accumulate in and return; default ``None``: the dtype of ``x``, with
        integers widened to the default integer of their signedness (int64 or uint64) and
        bool to int64, as NumPy and the standard do.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The products; 1 for no elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``keepdims`` is not a bool, ``dtype`` is not a supported
        dtype, or ``dtype`` is real for complex ``x``.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``dtype`` and ``keepdims``.

    float16 and bfloat16 accumulate in float32, as NumPy.  Unlike NumPy, no ``out``,
    ``initial`` or ``where``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.prod(xp.asarray([[1, 2, 3], [4, 5, 6]]), axis=1)
    Array([  6, 120])
    """
    raw, axes = _reduction("prod", x, axis, keepdims, "any")
    dt = accumulation_dtype("prod", raw.dtype, dtype)
    return call(_reduce_kernel, raw, axes=axes, dtype=dt, keepdims=keepdims, op="prod")


def _extremum(fn, op, x, axis, keepdims):
    raw, axes = _reduction(fn, x, axis, keepdims, "any")
    if builtins.any(raw.shape[a] == 0 for a in axes):
        fail(ValueError, fn, "non-empty reduction axes (max/min of nothing is undefined)", x)
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op=op)


@in_wide_region
def max(x, /, *, axis=None, keepdims=False):
    """Return the maximum of the elements over the given axes.

    Array API: max. NumPy: numpy.max.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The maximums, of the dtype of ``x``; NaN where a NaN is among the elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If a reduced axis is empty (the maximum of nothing is undefined), or ``axis`` repeats
        an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis`` and ``keepdims``.

    NaN propagates.  Complex input (which the standard leaves out) follows NumPy:
    lexicographic order, real part first, and the first element with a NaN part wins.
    Unlike NumPy, no ``out``, ``initial`` or ``where``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.max(xp.asarray([[1, 5, 3], [4, 2, 6]]), axis=0)
    Array([4, 5, 6])
    >>> xp.max(xp.asarray([1.0, float("nan"), 3.0]))
    Array(nan)
    """
    return _extremum("max", "max", x, axis, keepdims)


@in_wide_region
def min(x, /, *, axis=None, keepdims=False):
    """Return the minimum of the elements over the given axes.

    Array API: min. NumPy: numpy.min.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The minimums, of the dtype of ``x``; NaN where a NaN is among the elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If a reduced axis is empty (the minimum of nothing is undefined), or ``axis`` repeats
        an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis`` and ``keepdims``.

    NaN propagates.  Complex input (which the standard leaves out) follows NumPy:
    lexicographic order, real part first, and the first element with a NaN part wins.
    Unlike NumPy, no ``out``, ``initial`` or ``where``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.min(xp.asarray([[1, 5, 3], [4, 2, 6]]), axis=1)
    Array([1, 2])
    """
    return _extremum("min", "min", x, axis, keepdims)


@in_wide_region
def all(x, /, *, axis=None, keepdims=False):
    """Test whether all elements are true over the given axes.

    Array API: all. NumPy: numpy.all.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.  Non-zero values (NaN included) are true.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        A bool array; true for no elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis`` and ``keepdims``.

    Unlike NumPy, no ``out`` or ``where``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.all(xp.asarray([[1, 0], [2, 3]]) > 0, axis=1)
    Array([False,  True])
    >>> xp.all(xp.asarray([1.0, float("nan")]))
    Array(True)
    """
    raw, axes = _reduction("all", x, axis, keepdims, "any")
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op="all")


@in_wide_region
def any(x, /, *, axis=None, keepdims=False):
    """Test whether any element is true over the given axes.

    Array API: any. NumPy: numpy.any.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.  Non-zero values (NaN included) are true.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        A bool array; false for no elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis`` and ``keepdims``.

    Unlike NumPy, no ``out`` or ``where``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.any(xp.asarray([0, 0, 2]))
    Array(True)
    >>> xp.any(xp.asarray([[0, 0], [0, 1]]), axis=1)
    Array([False,  True])
    """
    raw, axes = _reduction("any", x, axis, keepdims, "any")
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op="any")


@in_wide_region
def count_nonzero(x, /, *, axis=None, keepdims=False):
    """Count the non-zero elements over the given axes.

    Array API: count_nonzero. NumPy: numpy.count_nonzero.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.  Non-zero values (NaN included) count.
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The counts, of the default index dtype (int64; int32 on a TPU).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

    Notes
    -----
    Static under ``jax.jit``: ``axis`` and ``keepdims``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[0, 1, 7], [2, 0, 0]])
    >>> xp.count_nonzero(x)
    Array(3)
    >>> xp.count_nonzero(x, axis=0)
    Array([1, 1, 1])
    """
    raw, axes = _reduction("count_nonzero", x, axis, keepdims, "any")
    return call(_reduce_kernel, raw, axes=axes, dtype=None, keepdims=keepdims, op="count")


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
def mean(x, /, *, axis=None, keepdims=False):
    """Return the arithmetic mean of the elements over the given axes.

    Array API: mean. NumPy: numpy.mean.

    Parameters
    ----------
    x : array_like
        The input array: real or complex floating; bool and integers are computed in the
        default floating dtype (float64 on the CPU, float32 on a TPU).
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The means, of the floating dtype of ``x`` (complex stays complex); NaN for no
        elements.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``keepdims`` is not a bool.
    AxisError
        If an axis is out of range for ``x``.
    ValueError
        If ``axis`` repeats an axis.

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
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Return the variance of the elements over the given axes.

    Array API: var. NumPy: numpy.var.

    Parameters
    ----------
    x : array_like
        The input array: real or complex floating; bool and integers are computed in the
        default floating dtype (float64 on the CPU, float32 on a TPU).
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    correction : int or float, optional
        Subtracted from the number of elements ``M`` in the divisor ``M - correction``
        (NumPy's ``ddof``): 0 for the population variance, 1 for the sample one;
        default 0.0.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The variances, of the real floating dtype of ``x`` (complex input gives a real
        result); NaN where ``M - correction <= 0``.

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
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """Return the standard deviation of the elements over the given axes.

    Array API: std. NumPy: numpy.std.

    Parameters
    ----------
    x : array_like
        The input array: real or complex floating; bool and integers are computed in the
        default floating dtype (float64 on the CPU, float32 on a TPU).
    axis : int or tuple of ints, optional
        The axes to reduce over; default ``None``: all of them.
    correction : int or float, optional
        Subtracted from the number of elements ``M`` in the divisor ``M - correction``
        (NumPy's ``ddof``): 0 for the population standard deviation, 1 for the sample one;
        default 0.0.
    keepdims : bool, optional
        Whether the reduced axes stay as axes of length one (the result then broadcasts
        against ``x``); default ``False``.

    Returns
    -------
    Array
        The standard deviations, of the real floating dtype of ``x`` (complex input gives a real
        result); NaN where ``M - correction <= 0``.

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


def _cumulative_shape(shape, *, include_initial, **_):
    # padding follows the data along the axis, so prefixes never see it; an initial element
    # would shift the result off its bucket
    return None if include_initial else shape


def _np_cumulative(a, *, axis, dtype, include_initial, op):
    """NumPy's ``cumulative_sum``/``cumulative_prod`` of ``a`` in ``dtype``: its summation
    order, so its bits (XLA:CPU's scan adds in another order)."""
    out = (np.cumsum if op == "sum" else np.cumprod)(a, axis=axis, dtype=dtype)
    if include_initial:     # (numpy.cumulative_sum's argument: NumPy >= 2.1 only)
        shape = list(out.shape)
        shape[axis] = 1
        out = np.concatenate([np.full(shape, 0 if op == "sum" else 1, dtype), out], axis)
    return out


def _cumulative_host(x, *, axis, dtype, include_initial, op):
    """The traced host path: NumPy's scan in a host call; derivatives from lax's."""
    lax_fn = functools.partial(_lax_cumulative, axis=axis, dtype=dtype,
                               include_initial=include_initial, op=op)
    if x.size == 0:
        return lax_fn(x)
    shape = list(x.shape)
    shape[axis] += include_initial
    return _host_order.numpy_rows(
        functools.partial(_np_cumulative, axis=axis, dtype=dtype,
                          include_initial=include_initial, op=op),
        lax_fn, jax.ShapeDtypeStruct(tuple(shape), dtype), x, vmap_method="sequential")


_CUMULATIVE_HOST = HostPath(
    functions=("cumulative_sum", "cumulative_prod"), eager=_np_cumulative,
    traced=_cumulative_host, dtype_of="dtype",
    grad="`lax.cumsum`/`lax.cumprod` (the value stays NumPy's)",
    reason="XLA:CPU's scan of 10**7 values took 2-6x NumPy's time and compiled in about "
           "115 ms (the host call: 13 ms); NumPy's summation order gives NumPy's bits")


@kernel(static=("axis", "dtype", "include_initial", "op"), shape=_cumulative_shape,
        host=_CUMULATIVE_HOST)
def _cumulative_kernel(x, *, axis, dtype, include_initial, op):
    return _lax_cumulative(x, axis=axis, dtype=dtype, include_initial=include_initial, op=op)


def _lax_cumulative(x, *, axis, dtype, include_initial, op):
    x = lax.convert_element_type(x, dtype)
    if x.shape[axis] > 0:
        y = cumulative(op, x, axis)
    else:
        y = x
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        init = lax.full(tuple(shape), 0 if op == "sum" else 1, dtype)
        y = lax.concatenate([init, y], axis)
    return y


def _cumulative(fn, op, x, axis, dtype, include_initial):
    raw = as_array(fn, x)
    if raw.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1", x)
    if axis is None:
        if raw.ndim > 1:
            fail(ValueError, fn, "an 'axis' for arrays of rank > 1", axis)
        axis = 0
    ax = normalize_axis(fn, axis, raw.ndim)
    check_bool(fn, include_initial, "include_initial")
    dt = accumulation_dtype(fn, raw.dtype, dtype, bool_ok=True)
    return call(_cumulative_kernel, raw, axis=ax, dtype=dt, include_initial=include_initial,
                op=op)


@in_wide_region
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Return the cumulative sum of the elements along an axis.

    Array API: cumulative_sum. NumPy: numpy.cumulative_sum.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least one.
    axis : int, optional
        The axis to accumulate along; default ``None``, allowed only for a 1-D ``x``.
    dtype : dtype, optional
        The dtype to accumulate in and return; default ``None``: the dtype of ``x``, with
        integers widened to the default integer of their signedness (int64 or uint64) and
        bool to int64, as NumPy and the standard do.
    include_initial : bool, optional
        Whether the result starts with the sum of no elements (0), one longer along
        ``axis``; default ``False``.

    Returns
    -------
    Array
        The running sums, of the shape of ``x`` (one longer along ``axis`` with
        ``include_initial``).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``include_initial`` is not a bool, ``dtype`` is not a
        supported dtype, or ``dtype`` is real for complex ``x``.
    ValueError
        If ``x`` is 0-d, or ``axis`` is ``None`` for ``x`` of rank above one.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``dtype`` and ``include_initial``.

    On the CPU host path (integers, float32/float64) it is NumPy's own scan, eagerly and in a
    host call under ``jax.jit``: NumPy's summation order, so NumPy's bits; derivatives come
    from ``lax.cumsum``.  ``laxarray.cumsum`` is NumPy's older name
    (flattening by default).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]))
    Array([1, 3, 6])
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True)
    Array([0, 1, 3, 6])
    >>> xp.cumulative_sum(xp.asarray([[1, 2], [3, 4]]), axis=0)
    Array([[1, 2],
           [4, 6]])
    """
    return _cumulative("cumulative_sum", "sum", x, axis, dtype, include_initial)


@in_wide_region
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Return the cumulative product of the elements along an axis.

    Array API: cumulative_prod. NumPy: numpy.cumulative_prod.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least one.
    axis : int, optional
        The axis to accumulate along; default ``None``, allowed only for a 1-D ``x``.
    dtype : dtype, optional
        The dtype to accumulate in and return; default ``None``: the dtype of ``x``, with
        integers widened to the default integer of their signedness (int64 or uint64) and
        bool to int64, as NumPy and the standard do.
    include_initial : bool, optional
        Whether the result starts with the product of no elements (1), one longer along
        ``axis``; default ``False``.

    Returns
    -------
    Array
        The running products, of the shape of ``x`` (one longer along ``axis`` with
        ``include_initial``).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``include_initial`` is not a bool, ``dtype`` is not a
        supported dtype, or ``dtype`` is real for complex ``x``.
    ValueError
        If ``x`` is 0-d, or ``axis`` is ``None`` for ``x`` of rank above one.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``dtype`` and ``include_initial``.

    On the CPU host path (integers, float32/float64) it is NumPy's own scan, eagerly and in a
    host call under ``jax.jit``: NumPy's summation order, so NumPy's bits; derivatives come
    from ``lax.cumprod``.  ``laxarray.cumprod`` is NumPy's older name
    (flattening by default).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
    Array([ 1,  2,  6, 24])
    """
    return _cumulative("cumulative_prod", "prod", x, axis, dtype, include_initial)


__all__ = ["sum", "prod", "max", "min", "all", "any", "count_nonzero", "mean", "var", "std",
           "cumulative_sum", "cumulative_prod"]


@kernel(static=("axis", "n", "dtype"))
def _diff_kernel(*parts, axis, n, dtype):
    parts = [lax.convert_element_type(p, dtype) for p in parts]
    x = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    for _ in range(n):
        m = x.shape[axis]
        hi = lax.slice_in_dim(x, 1, m, axis=axis)
        lo = lax.slice_in_dim(x, 0, m - 1, axis=axis)
        x = lax.ne(hi, lo) if x.dtype == np.bool_ else lax.sub(hi, lo)
    return x


@in_wide_region
def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """Return the ``n``-th discrete difference along an axis.

    Array API: diff. NumPy: numpy.diff.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least one.
    n : int, optional
        How many times to take the difference (non-negative); default 1.  May be passed by
        position, in NumPy's order.
    axis : int, optional
        The axis along which to take it; default -1 (the last).
    prepend, append : array_like, optional
        Values joined to ``x`` along ``axis`` before (after) the differences are taken: a
        scalar (broadcast to length one along ``axis``) or an array matching ``x`` off
        ``axis``; default ``None``: nothing.

    Returns
    -------
    Array
        The differences, ``n`` shorter along ``axis`` (than ``x`` with ``prepend`` and
        ``append``), of the promoted dtype; bool input gives ``!=``.

    Raises
    ------
    TypeError
        If ``x``, ``prepend`` or ``append`` is not array_like, or ``n`` is not an int.
    ValueError
        If ``x`` is 0-d, ``n`` is negative, or ``prepend``/``append`` does not match ``x``
        off ``axis``.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``n`` and ``axis``.

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([1, 4, 9, 16])
    >>> xp.diff(x)
    Array([3, 5, 7])
    >>> xp.diff(x, n=2)
    Array([2, 2])
    >>> xp.diff(x, prepend=0)
    Array([1, 3, 5, 7])
    """
    raw = to_raw("diff", x)
    if raw.ndim == 0:
        fail(ValueError, "diff", "an array of rank >= 1", x)
    ax = normalize_axis("diff", axis, raw.ndim)
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
    for p in parts:
        if p.ndim != raw.ndim or builtins.any(p.shape[d] != raw.shape[d] for d in range(raw.ndim)
                                     if d != ax):
            fail(ValueError, "diff", "'prepend'/'append' matching x off 'axis'", p)
    return call(_diff_kernel, *parts, axis=ax, n=n, dtype=dt)


__all__ += ["diff"]
