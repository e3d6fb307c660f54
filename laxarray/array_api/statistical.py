"""Statistical functions of the standard that are reductions: sum, prod, max, min, all, any
and count_nonzero (moments: ``statistical_moments``; cumulative functions:
``statistical_cumulative``).

``axis``, ``dtype`` and ``keepdims`` are static under ``jax.jit``; each traces to one lax
reduction (``reduce_sum``, ``reduce_max`` ...).
Integer sums and products accumulate in the default integer of their signedness (int64 or
uint64), booleans in int64, as in NumPy and the standard.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel, reduce_extreme
from laxarray._core.validate import check_bool, normalize_axes
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array
from laxarray._core.jax_regions import in_wide_region


#: numpydoc parts of the reductions (``fill``: each is the text of a ``{name}`` line of a
#: docstring); the moments use AXES, KEEPDIMS and REDUCE_RAISES too
def _join(*parts):
    return "\n".join(p.strip("\n") for p in parts)


_X_ANY = """
x : array_like
    The input array, of any dtype.
"""
AXES = """
axis : int or tuple of ints, optional
    The axes to reduce over; default ``None``: all of them.
"""
KEEPDIMS = """
keepdims : bool, optional
    Whether the reduced axes stay as axes of length one (the result then broadcasts
    against ``x``); default ``False``.
"""
ACC_DTYPE = """
dtype : dtype, optional
    The dtype to accumulate in and return; default ``None``: the dtype of ``x``, with
    integers widened to the default integer of their signedness (int64 or uint64) and
    bool to int64, as NumPy and the standard do.
"""
_PARAMETERS = "Parameters\n----------"
AXES_KEEPDIMS = _join(AXES, KEEPDIMS)
_PARAMS = _join(_PARAMETERS, _X_ANY, AXES, KEEPDIMS)
_TYPED_PARAMS = _join(_PARAMETERS, _X_ANY, AXES, ACC_DTYPE, KEEPDIMS)
_TRUTH_PARAMS = _join(_PARAMETERS, """
x : array_like
    The input array, of any dtype.  Non-zero values (NaN included) are true.
""", AXES, KEEPDIMS)
_TYPED_RAISES = """
Raises
------
TypeError
    If ``x`` is not array_like, ``keepdims`` is not a bool, ``dtype`` is not a supported
    dtype, or ``dtype`` is real for complex ``x``.
AxisError
    If an axis is out of range for ``x``.
ValueError
    If ``axis`` repeats an axis.
"""
_RAISES_HEAD = """
Raises
------
TypeError
    If ``x`` is not array_like, or ``keepdims`` is not a bool.
AxisError
    If an axis is out of range for ``x``.
"""
REDUCE_RAISES = _join(_RAISES_HEAD, "ValueError\n    If ``axis`` repeats an axis.")
_TRUTH_RAISES_NOTES = REDUCE_RAISES + """

Notes
-----
Static under ``jax.jit``: ``axis`` and ``keepdims``.

Unlike NumPy, no ``out`` or ``where``.
"""
_EXTREMUM_NOTES = """
Notes
-----
Static under ``jax.jit``: ``axis`` and ``keepdims``.

NaN propagates.  Complex input (which the standard leaves out) follows NumPy:
lexicographic order, real part first, and the first element with a NaN part wins.
Unlike NumPy, no ``out``, ``initial`` or ``where``.
"""


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
@fill(params=_TYPED_PARAMS, raises=_TYPED_RAISES)
def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Return the sum of the elements over the given axes.

    Array API: sum. NumPy: numpy.sum.

    {params}

    Returns
    -------
    Array
        The sums; 0 for no elements.

    {raises}

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
@fill(params=_TYPED_PARAMS, raises=_TYPED_RAISES)
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """Return the product of the elements over the given axes.

    Array API: prod. NumPy: numpy.prod.

    {params}

    Returns
    -------
    Array
        The products; 1 for no elements.

    {raises}

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
@fill(params=_PARAMS, type_axis_errors=_RAISES_HEAD, notes=_EXTREMUM_NOTES)
def max(x, /, *, axis=None, keepdims=False):
    """Return the maximum of the elements over the given axes.

    Array API: max. NumPy: numpy.max.

    {params}

    Returns
    -------
    Array
        The maximums, of the dtype of ``x``; NaN where a NaN is among the elements.

    {type_axis_errors}
    ValueError
        If a reduced axis is empty (the maximum of nothing is undefined), or ``axis`` repeats
        an axis.

    {notes}

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
@fill(params=_PARAMS, type_axis_errors=_RAISES_HEAD, notes=_EXTREMUM_NOTES)
def min(x, /, *, axis=None, keepdims=False):
    """Return the minimum of the elements over the given axes.

    Array API: min. NumPy: numpy.min.

    {params}

    Returns
    -------
    Array
        The minimums, of the dtype of ``x``; NaN where a NaN is among the elements.

    {type_axis_errors}
    ValueError
        If a reduced axis is empty (the minimum of nothing is undefined), or ``axis`` repeats
        an axis.

    {notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.min(xp.asarray([[1, 5, 3], [4, 2, 6]]), axis=1)
    Array([1, 2])
    """
    return _extremum("min", "min", x, axis, keepdims)


@in_wide_region
@fill(params=_TRUTH_PARAMS, raises_notes=_TRUTH_RAISES_NOTES)
def all(x, /, *, axis=None, keepdims=False):
    """Test whether all elements are true over the given axes.

    Array API: all. NumPy: numpy.all.

    {params}

    Returns
    -------
    Array
        A bool array; true for no elements.

    {raises_notes}

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
@fill(params=_TRUTH_PARAMS, raises_notes=_TRUTH_RAISES_NOTES)
def any(x, /, *, axis=None, keepdims=False):
    """Test whether any element is true over the given axes.

    Array API: any. NumPy: numpy.any.

    {params}

    Returns
    -------
    Array
        A bool array; false for no elements.

    {raises_notes}

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
@fill(axes_keepdims=AXES_KEEPDIMS, raises=REDUCE_RAISES)
def count_nonzero(x, /, *, axis=None, keepdims=False):
    """Count the non-zero elements over the given axes.

    Array API: count_nonzero. NumPy: numpy.count_nonzero.

    Parameters
    ----------
    x : array_like
        The input array, of any dtype.  Non-zero values (NaN included) count.
    {axes_keepdims}

    Returns
    -------
    Array
        The counts, of the default index dtype (int64; int32 on a TPU).

    {raises}

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


__all__ = ["sum", "prod", "max", "min", "all", "any", "count_nonzero"]
