"""Searching functions of the standard: argmax, argmin, nonzero, searchsorted, where.

``nonzero`` has a data-dependent output shape: eagerly it returns the exact result; under
tracing pass ``size=`` (and optionally ``fill_value=``) to fix the length, otherwise a
``ValueError`` says so.  argmax/argmin return the first NaN's index when there is one (as
NumPy).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import nonzero_mask
from laxarray._core.validate import check_bool, check_choice, check_int, normalize_axis
from laxarray.array_api import _host_order
from laxarray.array_api._array import wrap
from laxarray.array_api._calls import call
from laxarray.array_api._broadcast import broadcast_many, broadcast_rule
from laxarray.array_api._convert import as_array, to_raw
from laxarray.array_api._ufunc import binary_operands
from laxarray.array_api.manipulation import reshape
from laxarray.array_api.statistical import complex_extremum


#: the sections argmax and argmin share (``fill``)
_ARG_SECTIONS = """
Parameters
----------
x : array_like
    The input array, of any dtype.
axis : int, optional
    The axis to search along; default ``None``: the flattened array (a flat index).
keepdims : bool, optional
    Whether the searched axis stays as a length-one axis (all axes, for ``axis=None``);
    default ``False``.

Returns
-------
Array
    The indices, of the default index dtype (int64; int32 on a TPU).

Raises
------
TypeError
    If ``x`` is not array_like, or ``keepdims`` is not a bool.
ValueError
    If ``x`` is empty along ``axis`` (or empty, for ``axis=None``).
AxisError
    If ``axis`` is out of range for ``x``.

Notes
-----
Static under ``jax.jit``: ``axis`` and ``keepdims``.

A NaN wins: the index of the first NaN, as in NumPy.  Complex input (which the standard
leaves out) follows NumPy: lexicographic order, the first value with a NaN part wins.
"""


def _arg_fill(dtype, static):
    """Padding loses every comparison (NaN handling in the body sees none)."""
    find_max = static["find_max"]
    kind = _dt.kind_of(dtype)
    if kind == "b":
        return not find_max
    if kind in "iu":
        info = np.iinfo(dtype)
        return info.min if find_max else info.max
    if kind == "c":  # behind every value in lexicographic order
        return complex(-np.inf, -np.inf) if find_max else complex(np.inf, np.inf)
    return -np.inf if find_max else np.inf


def _arg_shape(shape, *, axis, keepdims, **_):
    if axis is None:  # a flat index of padded data would not be the logical one
        return None if len(shape) > 1 else ()
    return tuple(1 if i == axis else n for i, n in enumerate(shape)) if keepdims else (
        tuple(n for i, n in enumerate(shape) if i != axis))


@kernel(static=("axis", "keepdims", "find_max"), fills=(_arg_fill,), shape=_arg_shape)
def arg_kernel(x, *, axis, keepdims, find_max):
    if axis is None:
        x = lax.reshape(x, (math.prod(x.shape),))
        ax = 0
    else:
        ax = axis
    if _dt.kind_of(x.dtype) == "c":
        # NumPy's order: lexicographic, the first value with a NaN part wins
        res = complex_extremum(x, (ax,), "max" if find_max else "min")[1]
    elif _dt.kind_of(x.dtype) == "f":
        # NaN wins (first NaN index), as in NumPy
        nan = lax.ne(x, x)
        big = lax.full_like(x, np.inf if find_max else -np.inf)
        any_nan = lax.reduce_or(nan, (ax,))
        first_nan = lax.argmax(lax.convert_element_type(nan, np.int8), ax, _dt.default_index())
        x_clean = lax.select(nan, big, x)
        res = (lax.argmax if find_max else lax.argmin)(x_clean, ax, _dt.default_index())
        res = lax.select(any_nan, first_nan, res)
    elif _dt.kind_of(x.dtype) == "b":
        xi = lax.convert_element_type(x, np.int8)
        res = (lax.argmax if find_max else lax.argmin)(xi, ax, _dt.default_index())
    else:
        res = (lax.argmax if find_max else lax.argmin)(x, ax, _dt.default_index())
    return lax.expand_dims(res, (ax,)) if keepdims else res


def _arg(fn, x, axis, keepdims, find_max):
    raw = as_array(fn, x)
    if raw.dtype not in _dt.CATEGORIES["any"]:
        _dt.check_category(fn, "x", raw.dtype, "numeric")
    check_bool(fn, keepdims, "keepdims")
    ax = None if axis is None else normalize_axis(fn, axis, raw.ndim)
    size = math.prod(raw.shape) if ax is None else raw.shape[ax]
    if size == 0:
        fail(ValueError, fn, "a non-empty array along 'axis'", x)
    out = call(arg_kernel, raw, axis=ax, keepdims=keepdims and ax is not None,
               find_max=find_max)
    if keepdims and ax is None:
        out = reshape(out, (1,) * raw.ndim)
    return out


@in_wide_region
@fill(sections=_ARG_SECTIONS)
def argmax(x, /, *, axis=None, keepdims=False):
    """Return the index of the maximum along an axis (its first occurrence).

    Array API: argmax. NumPy: numpy.argmax.

    {sections}

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 5, 2], [7, 0, 7]])
    >>> xp.argmax(x)
    Array(3)
    >>> xp.argmax(x, axis=1)
    Array([1, 0])
    >>> xp.argmax(xp.asarray([1.0, float("nan"), 3.0]))
    Array(1)
    """
    return _arg("argmax", x, axis, keepdims, True)


@in_wide_region
@fill(sections=_ARG_SECTIONS)
def argmin(x, /, *, axis=None, keepdims=False):
    """Return the index of the minimum along an axis (its first occurrence).

    Array API: argmin. NumPy: numpy.argmin.

    {sections}

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.asarray([[1, 5, 2], [7, 0, 7]])
    >>> xp.argmin(x)
    Array(4)
    >>> xp.argmin(x, axis=0, keepdims=True)
    Array([[0, 1, 0]])
    """
    return _arg("argmin", x, axis, keepdims, False)


def _nonzero_now(a, *, size, fill_value):
    """The eager host path: NumPy's ``nonzero`` of the view ``a``, cut or filled to
    ``size``."""
    out = []
    for c in np.nonzero(a):
        if c.size == size:
            out.append(c.astype(_dt.default_index(), copy=False))
            continue
        full = np.full(size, fill_value, _dt.default_index())
        full[:min(size, c.size)] = c[:size]
        out.append(full)
    return tuple(out)


def _nonzero_host(x, *, size, fill_value):
    """The traced host path: NumPy's ``flatnonzero`` in a host call."""
    return _coordinates(x, size, fill_value, _host_order.flatnonzero)


def _nonzero_lax(mask, size):
    """The first ``size`` positions where the 1-D ``mask`` holds, by a stable sort of "is
    zero" keys, which puts the non-zero positions first, in order."""
    key = lax.convert_element_type(lax.bitwise_not(mask), np.int8)
    pos = lax.iota(_dt.default_index(), mask.shape[0])
    return lax.sort((key, pos), num_keys=1, is_stable=True)[1]


_NONZERO_HOST = HostPath(
    functions=("nonzero",), eager=_nonzero_now, traced=_nonzero_host, dtypes=None,
    grad="none (indices)",
    reason="the lax path is a stable `lax.sort` of the positions by \"is zero\": XLA's CPU "
           "sort (see `sort`); NumPy's `nonzero` is one pass")


@kernel(static=("size", "fill_value"), host=_NONZERO_HOST)
def nonzero_kernel(x, *, size, fill_value):
    return _coordinates(x, size, fill_value, _nonzero_lax)


def _coordinates(x, size, fill_value, positions):
    """``nonzero``'s coordinate arrays of ``x`` from ``positions(mask, size)``: the flat
    positions of the non-zeros, in order, first."""
    flat = lax.reshape(x, (math.prod(x.shape),))
    mask = nonzero_mask(flat)  # exact for subnormals, as the eager count
    n = flat.shape[0]
    if n == 0:      # every slot is padding (and an empty axis must not be divided by)
        return tuple(lax.full((size,), fill_value, _dt.default_index()) for _ in x.shape)
    count = lax.reduce_sum(lax.convert_element_type(mask, _dt.default_index()), (0,))
    order = positions(mask, size)
    if order.shape[0] >= size:
        order = lax.slice(order, (0,), (size,))
    else:
        order = lax.concatenate([order, lax.full((size - n,), 0, _dt.default_index())], 0)
    valid = lax.lt(lax.iota(_dt.default_index(), size), count)
    outs = []
    stride = 1
    strides = []
    for d in reversed(x.shape):
        strides.append(stride)
        stride *= d
    strides = strides[::-1]
    for d, st in zip(x.shape, strides):
        coord = lax.rem(lax.div(order, lax.full_like(order, st)), lax.full_like(order, d))
        outs.append(lax.select(valid, coord, lax.full_like(coord, fill_value)))
    return tuple(outs)


@in_wide_region
def nonzero(x, /, *, size=None, fill_value=0):
    """Return the indices of the non-zero elements, one array per axis.

    Array API: nonzero. NumPy: numpy.nonzero.

    Parameters
    ----------
    x : array_like
        The input array, of rank at least one.
    size : int, optional
        laxarray's (as jax.numpy's): the length of each result; surplus non-zeros are
        dropped, missing ones filled with ``fill_value``.  Required under ``jax.jit``;
        default ``None``: the number of non-zeros.
    fill_value : int, optional
        The index that fills the slots past the non-zeros when ``size`` is larger; default 0.

    Returns
    -------
    tuple of Array
        ``x.ndim`` arrays of the default index dtype (int64; int32 on a TPU), the
        coordinates of the non-zeros in row-major (C) order.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``size`` or ``fill_value`` is not an int.
    ValueError
        If ``x`` is 0-d, ``size`` is negative, or ``size`` is not given under ``jax.jit`` or
        ``vmap``.

    Notes
    -----
    Static under ``jax.jit``: ``size`` and ``fill_value``.

    The number of non-zeros decides
    the result's shape, so a traced call must give ``size=``; eagerly the result is exact
    without it.

    On the CPU the host path runs NumPy's ``nonzero``, eagerly (no kernel) and under
    ``jax.jit`` (a host call); elsewhere a stable sort of the positions.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.nonzero(xp.asarray([[1, 0, 2], [0, 3, 0]]))
    (Array([0, 0, 1]), Array([0, 2, 1]))
    >>> xp.nonzero(xp.asarray([0, 3, 0, 4]), size=3, fill_value=-1)
    (Array([ 1,  3, -1]),)
    """
    raw = to_raw("nonzero", x)
    if raw.ndim == 0:
        fail(ValueError, "nonzero", "an array of rank >= 1 (0-d input is ambiguous)", x)
    fill_value = check_int("nonzero", fill_value, "fill_value")
    if size is None:
        if is_tracer(raw):
            fail(ValueError, "nonzero", "size= under jax.jit/vmap (the number of non-zeros "
                 "decides the output shape; pass size=N and optionally fill_value=)", size)
        size = int(np.count_nonzero(np.asarray(raw)))   # the host view: no copy
    else:
        size = check_int("nonzero", size, "size", minimum=0)
    return call(nonzero_kernel, raw, size=size, fill_value=fill_value)


@kernel(static=("right",))
def searchsorted_kernel(sorted_x, v, sorter, *, right):
    if sorter is not None:
        sorted_x = lax.gather(
            sorted_x, lax.expand_dims(lax.convert_element_type(sorter, _dt.default_index()), (1,)),
            lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                       start_index_map=(0,)), (1,),
            mode=lax.GatherScatterMode.CLIP)
    n = sorted_x.shape[0]
    flat = lax.reshape(v, (math.prod(v.shape),))
    if n == 0:
        return lax.full(v.shape, 0, _dt.default_index())
    # branchless binary search (NaN-aware total order): ``lo`` counts the elements that
    # sort before each query; a loop of halving static-size steps (one gather each)
    # rather than an unrolled chain, which XLA would materialize step by step
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                       start_index_map=(0,))

    def step(_, carry):
        lo, width = carry
        cand = lax.add(lo, width)
        inside = lax.le(cand, lax.full_like(cand, n))
        at = lax.max(lax.sub(lax.min(cand, lax.full_like(cand, n)), lax.full_like(cand, 1)),
                     lax.full_like(cand, 0))
        val = lax.gather(sorted_x, lax.expand_dims(at, (1,)), dnums, (1,),
                         mode=lax.GatherScatterMode.CLIP)
        take = lax.bitwise_and(inside, _before(val, flat, right))
        return lax.select(take, cand, lo), lax.div(width, _dt.default_index().type(2))

    levels = n.bit_length()
    lo, _ = lax.fori_loop(0, levels, step, (lax.full(flat.shape, 0, _dt.default_index()),
                                            _dt.default_index().type(1 << (levels - 1))))
    return lax.reshape(lo, v.shape)


def _before(a, v, right):
    """Whether sorted element ``a`` goes before ``v`` (``a < v``, or ``a <= v`` if right),
    with NaN greater than everything."""
    if _dt.kind_of(a.dtype) == "f":
        a_nan, v_nan = lax.ne(a, a), lax.ne(v, v)
        lt = lax.bitwise_or(lax.lt(a, v), lax.bitwise_and(lax.bitwise_not(a_nan), v_nan))
        if right:
            eq = lax.bitwise_or(lax.eq(a, v), lax.bitwise_and(a_nan, v_nan))
            return lax.bitwise_or(lt, eq)
        return lt
    return lax.le(a, v) if right else lax.lt(a, v)


@in_wide_region
def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Find the indices where elements of ``x2`` would be inserted into sorted ``x1``.

    Array API: searchsorted. NumPy: numpy.searchsorted.

    Parameters
    ----------
    x1 : array_like
        A 1-D array, sorted ascending (NaN last), unless ``sorter`` sorts it.
    x2 : array_like
        The values to insert: an array of any shape or a Python scalar (weak, NEP 50).
    side : {"left", "right"}, optional
        For values equal to elements of ``x1``: ``"left"`` gives the index of the first such
        element, ``"right"`` the index after the last; default ``"left"``.
    sorter : array_like, optional
        Integer indices that sort ``x1`` (as ``argsort(x1)``), of its shape; default
        ``None``: ``x1`` is sorted.

    Returns
    -------
    Array
        The insertion indices, of the shape of ``x2`` and the default index dtype (int64;
        int32 on a TPU).

    Raises
    ------
    TypeError
        If ``x1`` or ``x2`` is not array_like, or their promoted dtype is complex.
    ValueError
        If ``x1`` is not 1-D, ``side`` is neither ``"left"`` nor ``"right"``, or ``sorter``
        is not an integer array of the shape of ``x1``.

    Notes
    -----
    Static under ``jax.jit``: ``side``.

    A branchless binary search: NaN sorts after every number, as in NumPy.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.searchsorted(xp.asarray([1, 3, 5, 7]), xp.asarray([0, 3, 8]))
    Array([0, 1, 4])
    >>> xp.searchsorted(xp.asarray([1, 3, 5, 7]), 3, side="right")
    Array(2)
    """
    raw = to_raw("searchsorted", x1, "x1")
    if raw.ndim != 1:
        fail(ValueError, "searchsorted", "a 1-D array for 'x1'", x1)
    check_choice("searchsorted", side, "side", ("left", "right"))
    a, v, dt = binary_operands("searchsorted", raw, x2)
    if _dt.kind_of(dt) == "c":
        fail(TypeError, "searchsorted", "real arrays", dt)
    srt = None
    if sorter is not None:
        srt = to_raw("searchsorted", sorter, "sorter")
        if _dt.kind_of(srt.dtype) not in "iu" or tuple(srt.shape) != tuple(raw.shape):
            fail(ValueError, "searchsorted", "an integer 'sorter' of the shape of x1", sorter)
    a = lax.convert_element_type(a, dt) if a.dtype != dt else a
    v = lax.convert_element_type(v, dt) if v.dtype != dt else v
    return call(searchsorted_kernel, a, v, srt, right=side == "right")


@kernel(static=("dtype",), shape=broadcast_rule)
def _where_kernel(c, a, b, *, dtype):
    shape = lax.broadcast_shapes(c.shape, a.shape, b.shape)
    nd = len(shape)

    def bc(v):
        return lax.broadcast_in_dim(v, shape, tuple(range(nd - v.ndim, nd)))
    return lax.select(bc(c), bc(lax.convert_element_type(a, dtype)),
                      bc(lax.convert_element_type(b, dtype)))


_NOT_GIVEN = object()


@in_wide_region
def where(condition, x1=_NOT_GIVEN, x2=_NOT_GIVEN, /, *, size=None, fill_value=0):
    """Return elements chosen from ``x1`` where ``condition`` is true, else from ``x2``.

    Array API: where. NumPy: numpy.where.

    Parameters
    ----------
    condition : array_like
        A bool array.
    x1, x2 : array_like, optional
        The values to choose from: arrays or Python scalars (weak, NEP 50); ``condition``,
        ``x1`` and ``x2`` broadcast together.  Give both or neither: ``where(condition)``
        alone is NumPy's ``nonzero(condition)``.
    size : int, optional
        For ``where(condition)`` only: as :func:`nonzero`'s ``size`` (required under
        ``jax.jit``); default ``None``.
    fill_value : int, optional
        For ``where(condition)`` only: as :func:`nonzero`'s ``fill_value``; default 0.

    Returns
    -------
    Array or tuple of Array
        The chosen values, of the broadcast shape and the promoted dtype of ``x1`` and
        ``x2``; for ``where(condition)``, the indices of its true elements, one array per
        axis.

    Raises
    ------
    TypeError
        If ``condition`` is not a bool array, only one of ``x1`` and ``x2`` is given, or
        ``size`` is given with ``x1`` and ``x2``.
    ValueError
        If the shapes do not broadcast together; for ``where(condition)``, as
        :func:`nonzero`.

    Notes
    -----
    Static under ``jax.jit``: ``size`` and ``fill_value`` (the one-argument form).

    Unlike NumPy, ``condition`` must be bool (NumPy tests any dtype against zero).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.where(xp.asarray([True, False, True]), xp.asarray([1, 2, 3]), 0.5)
    Array([1. , 0.5, 3. ])
    >>> xp.where(xp.asarray([False, True, True]))
    (Array([1, 2]),)
    """
    if x1 is _NOT_GIVEN and x2 is _NOT_GIVEN:
        return nonzero(condition, size=size, fill_value=fill_value)
    if x1 is _NOT_GIVEN or x2 is _NOT_GIVEN:
        fail_text(TypeError, "where", "takes either 1 argument (condition) or 3 (condition, "
                                      "x1, x2); got 2")
    if size is not None:
        fail_text(TypeError, "where", "'size' is for the one-argument form where(condition)")
    cond = as_array("where", condition, "condition")
    if cond.dtype != np.bool_:
        fail(TypeError, "where", "a bool array for 'condition'", condition)
    a, b, dt = binary_operands("where", x1, x2, keep_arrays=True)
    broadcast_many("where", (tuple(cond.shape), tuple(a.shape), tuple(b.shape)))
    return call(_where_kernel, cond, a, b, dtype=dt)


__all__ = ["argmax", "argmin", "nonzero", "searchsorted", "where"]
_ = wrap
