"""``pad``: every NumPy mode, built axis by axis from lax slices and concatenations.

NumPy pads one axis after the other; the pad of axis ``i`` is computed from an array whose
axes ``< i`` are already padded and whose axes ``> i`` are not yet (so corners take the
value of the last axis).  Each mode here follows that order and NumPy's own arithmetic
(``reflect_type='odd'`` repeats NumPy's chunked reflection, ``linear_ramp`` NumPy's
``linspace`` formula, integer statistics are rounded half to even), so results match NumPy
exactly, floating-point rounding included (``mean`` sums in a different order, so it may
differ in the last bits).  Pad widths are static under ``jax.jit``.
"""

from __future__ import annotations

import functools
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_choice, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.array_api.indexing_functions import take_along_axis_kernel
from laxarray.array_api.statistical import _plus_zero, numpy_sum
from laxarray.array_api.sorting import sort_kernel

_ALLOWED = {"empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
            "linear_ramp": ("end_values",), "maximum": ("stat_length",),
            "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
            "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}
_STATS = ("maximum", "minimum", "mean", "median")


# ---- argument normalisation (static) --------------------------------------------------------
def _pairs(fn, value, ndim, argname, as_index):
    """NumPy's ``_as_pairs``: broadcast ``value`` to ``ndim`` (before, after) pairs."""
    if value is None:
        return ((None, None),) * ndim
    arr = np.asarray(value)
    if as_index:
        if _dt.kind_of(arr.dtype) not in "iuf":
            fail(TypeError, fn, f"integers for '{argname}'", value)
        arr = np.round(arr).astype(_dt.default_index())
    if arr.ndim < 3 and arr.size == 1:
        arr = np.broadcast_to(arr.ravel(), (ndim, 2))
    elif arr.ndim < 3 and arr.size == 2 and arr.shape != (2, 1):
        arr = np.broadcast_to(arr.ravel(), (ndim, 2))
    else:
        try:
            arr = np.broadcast_to(arr, (ndim, 2))
        except ValueError:
            fail(ValueError, fn, f"'{argname}' broadcastable to ({ndim}, 2)", value)
    if as_index and arr.size and arr.min() < 0:
        fail(ValueError, fn, f"non-negative values in '{argname}'", value)
    return tuple(tuple(v.item() for v in row) for row in arr)


def _widths(fn, pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            ax = normalize_axis(fn, axis, ndim, "pad_width")
            seq[ax] = (width, width) if not isinstance(width, (tuple, list)) else tuple(width)
        pad_width = seq
    if isinstance(pad_width, Array) or is_tracer(pad_width):
        if is_tracer(getattr(pad_width, "_value", pad_width)):
            fail(TypeError, fn, "a static 'pad_width' (Python ints) under jax.jit", pad_width)
    try:
        arr = np.asarray(pad_width)
    except (TypeError, ValueError):
        fail(TypeError, fn, "integers for 'pad_width'", pad_width)
    if _dt.kind_of(arr.dtype) != "i":
        fail(TypeError, fn, "integers for 'pad_width'", pad_width)
    return _pairs(fn, arr, ndim, "pad_width", True)


def _values_operand(fn, value, ndim, argname):
    """Per-axis/side values as one raw ``(ndim, 2)`` array (may be traced)."""
    raw = to_raw(fn, value, argname)
    return _values_broadcast(fn, raw, value, ndim, argname)


def _values_broadcast(fn, raw, value, ndim, argname):
    """``_values_operand`` for ``value`` already converted to the raw ``raw``."""
    if raw.ndim > 2:
        fail(ValueError, fn, f"'{argname}' broadcastable to ({ndim}, 2)", value)
    if raw.ndim == 2 and raw.shape == (2, 1):
        raw = lax.broadcast_in_dim(raw, (2, 2), (0, 1)) if ndim == 2 else raw
    size = math.prod(raw.shape)
    if size in (1, 2) and raw.shape != (2, 1):
        raw = lax.reshape(raw, (size,))
    try:
        shape = np.broadcast_shapes(tuple(raw.shape), (ndim, 2))
    except ValueError:
        shape = None
    if shape != (ndim, 2):
        fail(ValueError, fn, f"'{argname}' broadcastable to ({ndim}, 2)", value)
    return lax.broadcast_in_dim(raw, (ndim, 2), tuple(range(2 - raw.ndim, 2)))


# ---- per-axis building blocks (inside the kernel) ------------------------------------------
def _at(x, axis, start, stop):
    return lax.slice_in_dim(x, start, stop, axis=axis)


def _spread(v, x, axis, width):
    """``v`` (size 1 along ``axis``, or 0-d) broadcast to ``x``'s shape with ``width`` on axis."""
    shape = tuple(width if d == axis else s for d, s in enumerate(x.shape))
    if v.ndim == 0:
        return lax.broadcast_in_dim(v, shape, ())
    return lax.broadcast_in_dim(v, shape, tuple(range(x.ndim)))


def _join(left, x, right, axis):
    parts = [p for p in (left, x, right) if p is not None and p.shape[axis]]
    if len(parts) == 1:
        return parts[0]
    return lax.concatenate(parts, axis) if parts else x


def _cast(v, dtype):
    return lax.convert_element_type(v, dtype)


def _divisor(shape, value, dtype):
    """A constant divisor that XLA may not turn into a multiplication by its (rounded)
    reciprocal, so that ``v / n`` rounds as NumPy's division does."""
    return lax.optimization_barrier(lax.full(shape, value, dtype))


_PY_ZERO_OF_KIND = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}


def _ramp_dtype(x_dtype, raw_end):
    """The dtype NumPy's ``linspace(end, edge, ..., dtype=x.dtype)`` computes the ramp in.

    ``numpy.pad`` hands ``linspace`` the end values as NumPy scalars (strong: they promote
    with the edge's dtype, so float32 data with the default ``end_values=0``, an int64,
    ramps in float64 and is rounded once to float32 at the end) when ``end_values`` has one
    value or one (before, after) pair; any other shape goes through ``tolist`` and the end
    values are Python scalars (weak: the ramp is computed in the data's own float dtype).
    ``linspace`` makes the result inexact (an integer ramp is computed in float64).  The
    dtype is NumPy's own answer for stand-ins of the operands (static: dtypes only), so its
    rules for bfloat16 and the other extension dtypes come along.
    """
    return _ramp_dtype_of(np.dtype(x_dtype), np.dtype(raw_end.dtype), tuple(raw_end.shape))


@functools.lru_cache(maxsize=None)
def _ramp_dtype_of(x_dtype, end, shape):
    """:func:`_ramp_dtype` by dtypes and shape (NumPy's answer, asked once per key)."""
    size = math.prod(shape)
    if len(shape) < 3 and (size == 1 or (size == 2 and shape != (2, 1))):
        start = np.zeros((), end)[()]
    else:
        start = _PY_ZERO_OF_KIND[_dt.kind_of(end)]
    try:
        dt = np.linspace(start, np.zeros((1,), x_dtype), 0, endpoint=False).dtype
    except (TypeError, ValueError):
        dt = _dt.promote_types(end, x_dtype)
    if _dt.kind_of(dt) not in "fc":
        dt = _dt.float64
    return _dt.on_device(dt)


def _ramp(x, axis, edge, end, width, reverse, dt):
    """NumPy's ``linspace(end, edge, width, endpoint=False, dtype=x.dtype)`` along ``axis``,
    computed in ``dt`` (:func:`_ramp_dtype`) and cast to ``x.dtype`` once at the end."""
    if not width:
        return None
    shape = tuple(width if d == axis else s for d, s in enumerate(x.shape))
    if _dt.kind_of(dt) == "c":
        y = _complex_ramp(x, axis, edge, end, width, shape, dt)
    else:
        start = lax.broadcast_in_dim(_cast(end, dt), shape, ())
        delta = _spread(lax.sub(_cast(edge, dt), _cast(end, dt)), x, axis, width)
        k = lax.broadcasted_iota(dt, shape, axis)
        div = _divisor(shape, width, dt)
        step = lax.div(delta, div)
        any_zero = lax.reduce_or(lax.eq(step, lax.full_like(step, 0)), tuple(range(x.ndim)))
        # the products leave a cond before ``+ start``: XLA may not fuse them into one
        # rounding (a fused multiply-add), which would round differently from NumPy
        y = lax.cond(any_zero, lambda k, d, dl, s: lax.mul(lax.div(k, d), dl),
                     lambda k, d, dl, s: lax.mul(k, s), k, div, delta, step)
        y = lax.add(y, start)
    if _dt.kind_of(x.dtype) in "iu":
        y = lax.floor(y)
    if _dt.kind_of(dt) == "c" and _dt.kind_of(x.dtype) != "c":
        y = lax.real(y)  # NumPy's astype of a complex ramp to real data keeps the real part
    y = _cast(y, x.dtype)
    return lax.rev(y, (axis,)) if reverse else y


def _complex_ramp(x, axis, edge, end, width, shape, dt):
    """The complex ``linspace`` ramp with NumPy's complex arithmetic, part by part: its
    division by the real ``width`` is Smith's (``rat = 0``, a multiplication by
    ``1 / width``), which XLA's complex division does not round alike."""
    rdt = _dt.real_dtype(dt)
    e, g = _cast(end, dt), _cast(edge, dt)
    delta = _spread(lax.sub(g, e), x, axis, width)
    dr, di = lax.real(delta), lax.imag(delta)
    er = lax.broadcast_in_dim(lax.real(e), shape, ())
    ei = lax.broadcast_in_dim(lax.imag(e), shape, ())
    k = lax.broadcasted_iota(rdt, shape, axis)
    zero = _divisor(shape, 0, rdt)   # the imaginary part of ``k`` and of ``width``; ``rat``
    scl = lax.div(lax.full(shape, 1, rdt), _divisor(shape, width, rdt))

    def quot(ar, ai):  # (ar + ai j) / (width + 0j), NumPy's loop
        return (lax.mul(lax.add(ar, lax.mul(ai, zero)), scl),
                lax.mul(lax.sub(ai, lax.mul(ar, zero)), scl))

    def prod(ar, ai, br, bi):
        return (lax.sub(lax.mul(ar, br), lax.mul(ai, bi)),
                lax.add(lax.mul(ar, bi), lax.mul(ai, br)))

    sr, si = quot(dr, di)
    step_zero = lax.bitwise_and(lax.eq(sr, lax.full_like(sr, 0)),
                                lax.eq(si, lax.full_like(si, 0)))
    any_zero = lax.reduce_or(step_zero, tuple(range(x.ndim)))
    yr, yi = lax.cond(any_zero, lambda k, z, sr, si, dr, di: prod(*quot(k, z), dr, di),
                      lambda k, z, sr, si, dr, di: prod(k, z, sr, si),
                      k, zero, sr, si, dr, di)
    return lax.complex(lax.add(yr, er), lax.add(yi, ei))


def _nan_any(chunk, axis):
    if _dt.kind_of(chunk.dtype) not in "fc":
        return None
    return lax.reduce_or(lax.ne(chunk, chunk), (axis,))


def _stat(chunk, axis, mode, dtype):
    """The statistic of ``chunk`` along ``axis`` (kept as size 1), cast as NumPy assigns it."""
    kind = _dt.kind_of(chunk.dtype)
    if mode in ("maximum", "minimum"):
        if kind == "c":
            srt = sort_kernel.run_xla(chunk, axis=axis, descending=mode == "maximum",
                                      want_indices=False)
            out = _at(srt, axis, 0, 1)
            # a NaN propagates as the element itself, the first along the axis (NumPy's
            # maximum keeps its NaN operand: amax([nan+infj]) is nan+infj, not nan+nanj)
            isnan = lax.ne(chunk, chunk)
            first = lax.argmax(lax.convert_element_type(isnan, np.int32), axis, np.int32)
            nan_v = take_along_axis_kernel(chunk, lax.expand_dims(first, (axis,)), axis=axis,
                                           wrap=False)
            return lax.select(lax.expand_dims(_nan_any(chunk, axis), (axis,)), nan_v, out)
        if kind == "b":
            red = lax.reduce_or if mode == "maximum" else lax.reduce_and
            return lax.expand_dims(red(chunk, (axis,)), (axis,))
        red = lax.reduce_max if mode == "maximum" else lax.reduce_min
        out = lax.expand_dims(red(chunk, (axis,)), (axis,))
        if kind == "f":  # NaN propagates, as in numpy.amax / amin
            nan = lax.expand_dims(_nan_any(chunk, axis), (axis,))
            out = lax.select(nan, lax.full_like(out, np.nan), out)
        return out
    ftype = chunk.dtype if kind in "fc" else _dt.on_device(_dt.float64)
    c = _cast(chunk, ftype)
    n = chunk.shape[axis]
    if mode == "mean":
        out = lax.div(numpy_sum(c, (axis,)), _divisor((), n if n else np.nan, ftype))
        out = lax.expand_dims(out, (axis,))
    else:  # median: the mean of the middle pair of the sorted chunk; NaN if any NaN
        if n == 0:
            out = lax.full(tuple(1 if d == axis else s for d, s in enumerate(c.shape)), np.nan,
                           ftype)
        else:
            srt = sort_kernel.run_xla(c, axis=axis, descending=False, want_indices=False)
            lo, hi = _at(srt, axis, (n - 1) // 2, (n - 1) // 2 + 1), _at(srt, axis, n // 2,
                                                                         n // 2 + 1)
            # NumPy's median is ``mean`` of the middle one or two: a sum from +0.0 (the
            # median of -0.0 is 0.0), in float32 for float16 data, divided by the count
            wide = _dt.float32 if ftype == _dt.float16 else ftype
            lo, hi = _cast(lo, wide), _cast(hi, wide)
            out = _plus_zero(lo) if n % 2 else lax.div(_plus_zero(lax.add(lo, hi)),
                                                       lax.full_like(lo, 2))
            out = _cast(out, ftype)
            nan = _nan_any(c, axis)
            if nan is not None:
                out = lax.select(lax.expand_dims(nan, (axis,)),
                                 lax.full_like(out, np.nan), out)
    if _dt.kind_of(dtype) in "iu":
        out = lax.round(out, lax.RoundingMethod.TO_NEAREST_EVEN)
    return _cast(out, dtype)


def _odd(edge, chunk):
    """``2 * edge - chunk`` as NumPy computes it (bool through int64, then != 0)."""
    if _dt.kind_of(chunk.dtype) == "b":
        e = _cast(edge, _dt.default_index())
        v = lax.sub(lax.add(e, e), _cast(chunk, _dt.default_index()))
        return lax.ne(v, lax.full_like(v, 0))
    return lax.sub(lax.add(edge, edge), chunk)


def _reflect(x, axis, left, right, odd, include_edge):
    """NumPy's iterative ``_set_reflect_both`` on the filled region ``x`` along ``axis``."""
    n0 = x.shape[axis]
    if n0 == 1:
        return _join(_spread(x, x, axis, left), x, _spread(x, x, axis, right), axis)
    cur = x
    while left > 0 or right > 0:
        n = cur.shape[axis]
        if include_edge:
            old, off = n // n0 * n0, 1
        else:
            old, off = (n - 1) // (n0 - 1) * (n0 - 1), 0
        lpiece = rpiece = None
        if left > 0:
            k = min(old, left)
            lpiece = lax.rev(_at(cur, axis, 1 - off, k + 1 - off), (axis,))
            if odd:
                lpiece = _odd(_spread(_at(cur, axis, 0, 1), cur, axis, k), lpiece)
            left -= k
        if right > 0:
            k = min(old, right)
            rpiece = lax.rev(_at(cur, axis, n - 1 + off - k, n - 1 + off), (axis,))
            if odd:
                rpiece = _odd(_spread(_at(cur, axis, n - 1, n), cur, axis, k), rpiece)
            right -= k
        cur = _join(lpiece, cur, rpiece, axis)
    return cur


def _wrap(x, axis, left, right):
    n = x.shape[axis]
    before, after = -(-left // n), -(-right // n)
    tiled = lax.concatenate([x] * (before + 1 + after), axis)
    return _at(tiled, axis, before * n - left, before * n + n + right)


@kernel(static=("widths", "mode", "stat_length", "odd", "ramp_dtype"))
def _pad_kernel(x, values, *, widths, mode, stat_length, odd, ramp_dtype=None):
    dtype = x.dtype
    for axis, (left, right) in enumerate(widths):
        if mode in ("constant", "empty"):
            fill = (_cast(lax.full((2,), 0, dtype), dtype) if mode == "empty" else
                    _cast(lax.squeeze(_at(values, 0, axis, axis + 1), (0,)), dtype))
            x = _join(_spread(lax.index_in_dim(fill, 0, keepdims=False), x, axis, left), x,
                      _spread(lax.index_in_dim(fill, 1, keepdims=False), x, axis, right),
                      axis)
            continue
        if not math.prod(x.shape):  # validated: another axis is empty, so is the result
            x = lax.pad(x, lax.full((), 0, dtype), [(left, right, 0) if d == axis else
                                                    (0, 0, 0) for d in range(x.ndim)])
            continue
        n = x.shape[axis]
        if mode == "edge":
            x = _join(_spread(_at(x, axis, 0, 1), x, axis, left), x,
                      _spread(_at(x, axis, n - 1, n), x, axis, right), axis)
        elif mode == "linear_ramp":
            row = lax.squeeze(_at(values, 0, axis, axis + 1), (0,))
            x = _join(_ramp(x, axis, _at(x, axis, 0, 1), lax.index_in_dim(row, 0, keepdims=False),
                            left, False, ramp_dtype), x,
                      _ramp(x, axis, _at(x, axis, n - 1, n),
                            lax.index_in_dim(row, 1, keepdims=False), right, True, ramp_dtype),
                      axis)
        elif mode in _STATS:
            ln, rn = stat_length[axis]
            ln = n if ln is None or ln > n else ln
            rn = n if rn is None or rn > n else rn
            lstat = _stat(_at(x, axis, 0, ln), axis, mode, dtype)
            rstat = _stat(_at(x, axis, n - rn, n), axis, mode, dtype)
            x = _join(_spread(lstat, x, axis, left), x, _spread(rstat, x, axis, right), axis)
        elif mode in ("reflect", "symmetric"):
            x = _reflect(x, axis, left, right, odd, mode == "symmetric")
        else:  # wrap
            x = _wrap(x, axis, left, right) if left or right else x
    return x


def _pad_callable(fn, raw, widths, kwargs):
    """NumPy's callable mode: ``fn(vector, (before, after), axis, kwargs)`` on every 1-d
    slice, axis by axis; ``fn`` returns the new vector, or (NumPy style) assigns into it
    and returns None (laxarray's ``vector[...] = v`` rebinds ``vector``)."""
    x = lax.pad(raw, lax.full((), 0, raw.dtype), [(b, a, 0) for b, a in widths])
    for axis in range(x.ndim):
        moved = lax.transpose(x, tuple(d for d in range(x.ndim) if d != axis) + (axis,))
        rows = lax.reshape(moved, (math.prod(moved.shape[:-1]), moved.shape[-1]))

        def one(v, axis=axis):
            vec = wrap(v)
            res = fn(vec, widths[axis], axis, kwargs)
            res = vec if res is None else res
            out = res._value if isinstance(res, Array) else to_raw("pad", res, "mode")
            if tuple(out.shape) != tuple(v.shape):
                fail(ValueError, "pad", f"the callable mode to return a vector of shape "
                     f"{tuple(v.shape)}", out)
            return _cast(out, v.dtype)
        rows = jax.vmap(one)(rows) if rows.shape[0] else rows
        moved = lax.reshape(rows, moved.shape)
        inv = list(range(x.ndim - 1))
        inv.insert(axis, x.ndim - 1)
        x = lax.transpose(moved, tuple(inv))
    return wrap(x)


@in_wide_region
def pad(array, pad_width, mode="constant", **kwargs):
    """Pad an array.

    Array API: (not in the standard). NumPy: numpy.pad.

    Parameters
    ----------
    array : array_like
        The input array.
    pad_width : int or sequence
        The numbers of values padded before and after each axis: ``((before_1, after_1),
        ...)``, ``(before, after)`` or an int for every axis; non-negative.
    mode : str or callable, optional
        ``'constant'`` (default), ``'edge'``, ``'linear_ramp'``, ``'maximum'``,
        ``'minimum'``, ``'mean'``, ``'median'``, ``'reflect'``, ``'symmetric'``, ``'wrap'``,
        ``'empty'`` (filled with zeros here; NumPy leaves garbage), or a callable
        ``mode(vector, iaxis_pad_width, iaxis, kwargs)`` that returns the padded vector (or
        assigns into it, NumPy style), applied with ``jax.vmap`` over the other axes.
    **kwargs
        The mode's options: ``constant_values`` (``'constant'``; per axis and side, may be
        an array), ``end_values`` (``'linear_ramp'``), ``stat_length`` (the statistics
        modes), ``reflect_type`` ``'even'``/``'odd'`` (``'reflect'``, ``'symmetric'``).

    Returns
    -------
    Array
        The padded array, of ``array``'s dtype.

    Raises
    ------
    TypeError
        If ``array`` is not array_like.
    ValueError
        If ``mode`` is unknown, ``pad_width`` is negative or does not broadcast to ``(ndim,
        2)``, or a keyword does not belong to the mode.

    Notes
    -----
    Static under ``jax.jit``: ``pad_width``, ``mode`` and, of the mode's keywords,
    *stat_length* and *reflect_type*.

    The keywords *constant_values* and *end_values* may be traced.

    Examples
    --------
    >>> import laxarray as la
    >>> la.pad(la.asarray([1, 2, 3]), (1, 2))
    Array([0, 1, 2, 3, 0, 0])
    >>> la.pad(la.asarray([1, 2, 3]), (1, 2), mode="reflect")
    Array([2, 1, 2, 3, 2, 1])
    >>> la.pad(la.asarray([[1, 2], [3, 4]]), ((1, 0), (0, 1)), constant_values=9)
    Array([[9, 9, 9],
           [1, 2, 9],
           [3, 4, 9]])
    """
    raw = array._value if type(array) is Array else to_raw("pad", array, "array")
    widths = _widths("pad", pad_width, raw.ndim)
    if callable(mode):
        return _pad_callable(mode, raw, widths, kwargs)
    if not isinstance(mode, str) or mode not in _ALLOWED:
        fail(ValueError, "pad", f"'mode' to be a callable or one of {tuple(_ALLOWED)}", mode)
    extra = set(kwargs) - set(_ALLOWED[mode])
    if extra:
        fail_text(ValueError, "pad", f"unsupported keyword arguments for mode '{mode}': "
                  f"{sorted(extra)}")
    ndim = raw.ndim
    values = lax.full((ndim, 2), 0, raw.dtype)
    ramp_dtype = None
    if mode == "constant":
        values = _values_operand("pad", kwargs.get("constant_values", 0), ndim,
                                 "constant_values")
    elif mode == "linear_ramp":
        end_values = kwargs.get("end_values", 0)
        raw_end = to_raw("pad", end_values, "end_values")
        ramp_dtype = _ramp_dtype(raw.dtype, raw_end)
        if _dt.kind_of(raw.dtype) in "iu" and _dt.kind_of(ramp_dtype) == "c":
            fail(TypeError, "pad", "real 'end_values' for integer data (its linear ramp is "
                 "floored)", end_values)
        values = _values_broadcast("pad", raw_end, end_values, ndim, "end_values")
    stat = None
    if mode in _STATS:
        stat = _pairs("pad", kwargs.get("stat_length"), ndim, "stat_length", True)
        if mode in ("maximum", "minimum") and math.prod(raw.shape):
            for d, (ln, rn) in enumerate(stat):
                if 0 in (ln, rn) or raw.shape[d] == 0:
                    fail(ValueError, "pad", "a 'stat_length' > 0 for 'maximum'/'minimum' "
                         "(a statistic of no values)", kwargs.get("stat_length"))
    odd = False
    if mode in ("reflect", "symmetric"):
        odd = check_choice("pad", kwargs.get("reflect_type", "even"), "reflect_type",
                           ("even", "odd")) == "odd"
    if mode not in ("constant", "empty") and math.prod(raw.shape) == 0:
        for d, (left, right) in enumerate(widths):
            if raw.shape[d] == 0 and (left or right):
                fail(ValueError, "pad", f"a non-empty axis {d} to extend with mode '{mode}' "
                     "(only 'constant' and 'empty' extend empty axes)", array)
    return call(_pad_kernel, raw, values, widths=widths, mode=mode, stat_length=stat, odd=odd,
                ramp_dtype=ramp_dtype)
