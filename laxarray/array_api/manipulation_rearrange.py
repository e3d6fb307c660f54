"""Manipulation functions of the standard that rearrange or repeat the elements of an array:
flip, roll, tile and repeat (the static arguments under ``jax.jit``: each docstring's
Notes).
"""

from __future__ import annotations

import builtins
import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cumulative
from laxarray._core.validate import check_int, normalize_axes, normalize_axis
from laxarray.array_api._docs import AXES_ERRORS, AXIS_STATIC, SAME_SHAPE_DTYPE
from laxarray.array_api._calls import call
from laxarray.array_api._convert import to_raw
from laxarray.array_api.indexing_functions import gather_axis


@kernel(static=("axes",))
def flip_kernel(x, *, axes):
    return lax.rev(x, axes) if axes else x


@in_wide_mode
@fill(returns=SAME_SHAPE_DTYPE, axis_static=AXIS_STATIC, axes_errors=AXES_ERRORS)
def flip(x, /, *, axis=None):
    """Reverse the order of elements along the given axes.

    Array API: flip. NumPy: numpy.flip.

    Parameters
    ----------
    x : array_like
        The input array.
    axis : int or tuple of ints, optional
        The axes to reverse; default ``None``: all of them.

    {returns}

    Raises
    ------
    {axes_errors}
    ValueError
        If ``axis`` repeats an axis.

    {axis_static}

    Examples
    --------
    >>> import laxarray as xp
    >>> x = xp.reshape(xp.arange(6), (2, 3))
    >>> xp.flip(x)
    Array([[5, 4, 3],
           [2, 1, 0]])
    >>> xp.flip(x, axis=1)
    Array([[2, 1, 0],
           [5, 4, 3]])
    """
    raw = to_raw("flip", x)
    return call(flip_kernel, raw, axes=normalize_axes("flip", axis, raw.ndim))


@kernel(static=("shifts", "axes"))
def _roll_kernel(x, *, shifts, axes):
    if axes is None:
        flat = lax.reshape(x, (math.prod(x.shape),))
        return lax.reshape(_roll_kernel.fn(flat, shifts=shifts, axes=(0,)), x.shape)
    for shift, ax in zip(shifts, axes):
        n = x.shape[ax]
        if n == 0:
            continue
        s = shift % n
        if s:
            x = lax.concatenate([lax.slice_in_dim(x, n - s, n, axis=ax),
                                 lax.slice_in_dim(x, 0, n - s, axis=ax)], ax)
    return x


@in_wide_mode
@fill(returns=SAME_SHAPE_DTYPE)
def roll(x, /, shift, *, axis=None):
    """Roll array elements along the given axes; elements past the end come back at the start.

    Array API: roll. NumPy: numpy.roll.

    Parameters
    ----------
    x : array_like
        The input array.
    shift : int or tuple of ints
        The number of places to shift by (negative: backwards); one per axis, or one for all
        of them.
    axis : int or tuple of ints, optional
        The axes to roll along; default ``None``: the flattened array (then ``shift`` is a
        single shift), its shape restored.

    {returns}

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or a shift or axis is not an int.
    ValueError
        If ``axis`` is ``None`` and there are several shifts, or the numbers of shifts and
        axes differ.
    AxisError
        If an axis is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``shift`` and ``axis``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.roll(xp.arange(5), 2)
    Array([3, 4, 0, 1, 2])
    >>> xp.roll(xp.asarray([[0, 1, 2], [3, 4, 5]]), 1, axis=1)
    Array([[2, 0, 1],
           [5, 3, 4]])
    """
    raw = to_raw("roll", x)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    shifts = tuple(check_int("roll", s, "shift") for s in shifts)
    if axis is None:
        if len(shifts) != 1:
            fail(ValueError, "roll", "a single shift when axis is None", shift)
        return call(_roll_kernel, raw, shifts=(builtins.sum(shifts),), axes=None)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(normalize_axis("roll", a, raw.ndim) for a in axes)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        fail(ValueError, "roll", "as many shifts as axes", (shift, axis))
    return call(_roll_kernel, raw, shifts=shifts, axes=axes)


@kernel(static=("reps",))
def _tile_kernel(x, *, reps):
    nd = len(reps)
    x = lax.reshape(x, (1,) * (nd - x.ndim) + tuple(x.shape))
    # broadcast each axis to (rep, size) then merge
    shape = []
    dims = []
    for i, (r, s) in enumerate(zip(reps, x.shape)):
        shape += [r, s]
        dims.append(2 * i + 1)
    y = lax.broadcast_in_dim(x, tuple(shape), tuple(dims))
    return lax.reshape(y, tuple(r * s for r, s in zip(reps, x.shape)))


@in_wide_mode
def tile(x, repetitions, /):
    """Construct an array by repeating the whole of ``x`` the given number of times per axis.

    Array API: tile. NumPy: numpy.tile.

    Parameters
    ----------
    x : array_like
        The array to repeat.
    repetitions : int or tuple of ints
        The number of repetitions per axis (non-negative), aligned with the last axes of
        ``x``; where it is longer than ``x.ndim``, ``x`` gains leading axes.  An int is a
        tuple of one, as in NumPy.

    Returns
    -------
    Array
        The tiled array, of the dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``repetitions`` is not an int or a tuple of ints.
    ValueError
        If a repetition is negative.

    Notes
    -----
    Static under ``jax.jit``: ``repetitions``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.tile(xp.asarray([1, 2]), 2)
    Array([1, 2, 1, 2])
    >>> xp.tile(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    raw = to_raw("tile", x)
    if isinstance(repetitions, int) and not isinstance(repetitions, bool):
        repetitions = (repetitions,)  # NumPy's form
    if not isinstance(repetitions, (tuple, list)):
        fail(TypeError, "tile", "a tuple of ints for 'repetitions'", repetitions)
    reps = tuple(check_int("tile", r, "repetitions", minimum=0) for r in repetitions)
    reps = (1,) * (raw.ndim - len(reps)) + reps
    return call(_tile_kernel, raw, reps=reps)


@kernel(static=("repeats", "axis"))
def _repeat_kernel(x, *, repeats, axis):
    if axis is None:
        x = lax.reshape(x, (math.prod(x.shape),))
        axis = 0
    n = x.shape[axis]
    if isinstance(repeats, int):
        shape = list(x.shape)
        y = lax.broadcast_in_dim(x, tuple(shape[:axis + 1]) + (repeats,) + tuple(
            shape[axis + 1:]), tuple(range(axis + 1)) + tuple(range(axis + 2, x.ndim + 1)))
        shape[axis] = n * repeats
        return lax.reshape(y, tuple(shape))
    return gather_axis(x, np.repeat(np.arange(n, dtype=_dt.default_index()), repeats), axis,
                       wrap=False)


@kernel(static=("axis", "length"))
def _repeat_counts_kernel(x, counts, *, axis, length):
    """``repeat`` with (possibly traced) counts and a static output ``length``."""
    if axis is None:
        x = lax.reshape(x, (math.prod(x.shape),))
        axis = 0
    n = x.shape[axis]
    counts = lax.broadcast_in_dim(lax.convert_element_type(counts, _dt.default_index()), (n,),
                                  () if counts.ndim == 0 else (0,))
    ends = cumulative("sum", counts)
    # source of output slot i = #{j : ends[j] <= i}: add 1 at each end, then a running sum
    marks = lax.scatter_add(
        lax.full((length + 1,), 0, _dt.default_index()), lax.expand_dims(lax.min(ends, _dt.default_index().type(length)),
                                                               (1,)),
        lax.full((n,), 1, _dt.default_index()),
        lax.ScatterDimensionNumbers((), (0,), (0,)), mode=lax.GatherScatterMode.CLIP)
    src = cumulative("sum", marks[:length])
    src = lax.min(src, _dt.default_index().type(max(n - 1, 0)))  # past the total: the last element again
    return gather_axis(x, src, axis, wrap=False)


@in_wide_mode
def repeat(x, repeats, /, *, axis=None, total_repeat_length=None):
    """Repeat each element of an array the given number of times.

    Array API: repeat. NumPy: numpy.repeat.

    Parameters
    ----------
    x : array_like
        The input array.
    repeats : int or array_like of ints
        The counts (non-negative): one for all elements, or a 1-D sequence or array of one
        count per element along ``axis``.
    axis : int, optional
        The axis to repeat along; default ``None``: the flattened array.
    total_repeat_length : int, optional
        jax.numpy's keyword: the length of the result along ``axis`` (needed under
        ``jax.jit`` when the counts are traced); a total shorter than the counts' sum cuts the
        result, a longer one repeats the last element.  Default ``None``: the counts' sum.

    Returns
    -------
    Array
        The repeated array, of the dtype of ``x``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, the counts are not integers, or they are traced without
        ``total_repeat_length``.
    ValueError
        If a count is negative, ``repeats`` is neither one count nor one per element, or
        ``total_repeat_length`` is non-zero for an empty ``x``.
    AxisError
        If ``axis`` is out of range for ``x``.

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``total_repeat_length`` and concrete ``repeats``.
    The output length depends on the counts, so under ``jax.jit`` either they are concrete
    (static) or ``total_repeat_length=`` gives the length.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.repeat(xp.asarray([1, 2, 3]), 2)
    Array([1, 1, 2, 2, 3, 3])
    >>> xp.repeat(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 2]))
    Array([1, 3, 3])
    >>> xp.repeat(xp.asarray([1, 2, 3]), 2, total_repeat_length=8)
    Array([1, 1, 2, 2, 3, 3, 3, 3])
    """
    raw = to_raw("repeat", x)
    ax = None if axis is None else normalize_axis("repeat", axis, raw.ndim)
    n = math.prod(raw.shape) if ax is None else raw.shape[ax]
    if total_repeat_length is not None:
        length = check_int("repeat", total_repeat_length, "total_repeat_length", minimum=0)
        if n == 0 and length:
            fail(ValueError, "repeat", "total_repeat_length=0 for an empty 'x'",
                 total_repeat_length)
    if _dt.scalar_pytype(repeats) is int:
        reps = check_int("repeat", repeats, "repeats", minimum=0)
        if total_repeat_length is not None and length != n * reps:
            return call(_repeat_counts_kernel, raw, _dt.default_index().type(reps), axis=ax, length=length)
        return call(_repeat_kernel, raw, repeats=reps, axis=ax)
    rep_raw = to_raw("repeat", repeats, "repeats")
    if _dt.kind_of(rep_raw.dtype) not in "iu":
        fail(TypeError, "repeat", "integer 'repeats'", repeats)
    if rep_raw.ndim > 1 or (rep_raw.ndim == 1 and rep_raw.shape[0] not in (1, n)):
        fail(ValueError, "repeat", f"'repeats' of length 1 or {n}", repeats)
    if is_tracer(rep_raw):
        if total_repeat_length is None:
            fail(TypeError, "repeat", "concrete 'repeats' or total_repeat_length= (the output "
                                      "shape depends on the counts)", repeats)
        return call(_repeat_counts_kernel, raw, rep_raw.reshape(-1) if rep_raw.ndim else
                    rep_raw, axis=ax, length=length)
    counts = np.asarray(rep_raw)
    if (counts < 0).any():
        fail(ValueError, "repeat", "non-negative 'repeats'", repeats)
    if total_repeat_length is not None and length != int(np.broadcast_to(counts, (n,)).sum()):
        return call(_repeat_counts_kernel, raw, rep_raw, axis=ax, length=length)
    reps = int(counts.reshape(-1)[0]) if counts.size == 1 else tuple(int(c) for c in counts)
    return call(_repeat_kernel, raw, repeats=reps, axis=ax)


__all__ = ["flip", "repeat", "roll", "tile"]
