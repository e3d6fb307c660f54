"""``Array.__getitem__`` / ``__setitem__`` for basic keys: integers, slices, ``...`` and ``None``.

A key is turned into a static *plan* (hashable), so the kernels are cached per plan and
trace to ``slice``/``rev``/``reshape`` (get) or ``dynamic_update_slice``/``scatter`` (set).
Out-of-range integers raise ``IndexError`` (the key is static, so this is always checked).
Results are copies: writing into them never changes the indexed array.
"""

from __future__ import annotations

import operator

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.kernel import kernel

_NAME_GET = "Array.__getitem__"
_NAME_SET = "Array.__setitem__"


def _index_int(fn, k):
    if isinstance(k, bool):
        fail(IndexError, fn, "integers, slices, ellipsis or None in the index key", k)
    if hasattr(k, "_value") and getattr(k, "ndim", None) == 0 and k.dtype.kind in "iu":
        return operator.index(k)  # concrete 0-d integer array (raises clearly when traced)
    try:
        return operator.index(k)
    except TypeError:
        fail(IndexError, fn, "integers, slices, ellipsis or None in the index key", k)


def basic_plan(fn, shape, key):
    """Static plan for a basic key: ``(axes, out_shape)``.

    ``axes`` has one ``(start, step, count, is_int)`` per array axis with ``start``/``step``
    resolved (``step`` may be negative); ``out_shape`` is the result shape with ``None`` axes.
    """
    if not isinstance(key, tuple):
        key = (key,)
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        fail(IndexError, fn, "at most one ellipsis in the index key", key)
    n_used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_used > len(shape):
        fail(IndexError, fn, f"at most {len(shape)} indices for an array of rank {len(shape)}",
             key)
    if n_ellipsis == 0:
        key = key + (Ellipsis,)
    axes, out_shape, dim = [], [], 0
    for k in key:
        if k is None:
            out_shape.append(1)
        elif k is Ellipsis:
            for _ in range(len(shape) - n_used):
                axes.append((0, 1, shape[dim], False))
                out_shape.append(shape[dim])
                dim += 1
        elif isinstance(k, slice):
            start, stop, step = k.indices(shape[dim])
            count = len(range(start, stop, step))
            axes.append((start if count else 0, step, count, False))
            out_shape.append(count)
            dim += 1
        else:
            i = _index_int(fn, k)
            size = shape[dim]
            if not -size <= i < size:
                fail(IndexError, fn, f"an index in [{-size}, {size}) for axis {dim} of size "
                     f"{size}", i)
            axes.append((i + size if i < 0 else i, 1, 1, True))
            dim += 1
    return tuple(axes), tuple(out_shape)


def _positive(axes, shape):
    """Rewrite negative-step axes as positive ranges over the same elements."""
    out, flips = [], []
    for ax, ((start, step, count, _), size) in enumerate(zip(axes, shape)):
        if step < 0 and count > 0:
            out.append((start + (count - 1) * step, -step, count))
            flips.append(ax)
        else:
            out.append((start, abs(step), count))
    return tuple(out), tuple(flips)


@kernel(static=("axes", "out_shape"))
def _getitem_kernel(x, *, axes, out_shape):
    pos, flips = _positive(axes, x.shape)
    starts = [s for s, _, _ in pos]
    limits = [s + (c - 1) * st + 1 if c else s for s, st, c in pos]
    strides = [st for _, st, _ in pos]
    y = lax.slice(x, starts, limits, strides)
    if flips:
        y = lax.rev(y, flips)
    return lax.reshape(y, out_shape)


def getitem(x, key):
    """``x[key]`` for a basic key (a copy)."""
    axes, out_shape = basic_plan(_NAME_GET, x.shape, key)
    return _getitem_kernel_call(x, axes, out_shape)


def _getitem_kernel_call(x, axes, out_shape):
    from laxarray._core.kernel import call
    return call(_getitem_kernel, x, axes=axes, out_shape=out_shape)


@kernel(static=("axes", "dtype"))
def _setitem_kernel(x, value, *, axes, dtype):
    pos, flips = _positive(axes, x.shape)
    region = tuple(c for _, _, c in pos)
    value = lax.convert_element_type(value, dtype)
    # broadcast the value to the indexed result shape, then lay it out on the region
    value = _broadcast_to_region(value, axes, region)
    if flips:
        value = lax.rev(value, flips)
    if any(c == 0 for c in region):
        return x
    if all(st == 1 for _, st, _ in pos):
        return lax.dynamic_update_slice(x, value, [s for s, _, _ in pos])
    grids = np.meshgrid(*[np.arange(s, s + c * st, st) for s, st, c in pos], indexing="ij")
    idx = np.stack(grids, axis=-1).astype(np.int64) if grids else np.zeros((0,), np.int64)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=tuple(range(x.ndim)),
        scatter_dims_to_operand_dims=tuple(range(x.ndim)))
    return lax.scatter(x, idx, value, dnums, indices_are_sorted=True, unique_indices=True)


def _broadcast_to_region(value, axes, region):
    # the shape of x[key] without None axes and without the integer axes
    kept = tuple(c for (_, _, c, is_int) in axes if not is_int)
    # drop leading unit dims beyond rank, then right-align broadcast onto `kept`
    vshape = value.shape
    if len(vshape) > len(kept):
        extra = vshape[: len(vshape) - len(kept)]
        value = lax.reshape(value, vshape[len(extra):])
        vshape = value.shape
    offset = len(kept) - len(vshape)
    value = lax.broadcast_in_dim(value, kept, tuple(range(offset, len(kept))))
    return lax.reshape(value, region)


def setitem_value(x, key, value):
    """The raw value of ``x`` after ``x[key] = value`` (the caller rebinds the handle)."""
    from laxarray.array_api._convert import operand_for_dtype
    axes, out_shape = basic_plan(_NAME_SET, x.shape, key)
    v = operand_for_dtype(_NAME_SET, value, x.dtype, "value")
    vshape = tuple(v.shape)
    target = tuple(c for c in out_shape)
    # value must broadcast to x[key]'s shape (None axes included), as in NumPy
    if not _broadcastable(vshape, target):
        fail(ValueError, _NAME_SET, f"a value broadcastable to shape {target}", value)
    kept_rank = sum(1 for a in axes if not a[3])
    if len(vshape) > kept_rank and any(d != 1 for d in vshape[: len(vshape) - kept_rank]):
        fail(ValueError, _NAME_SET, f"a value broadcastable to shape {target}", value)
    return _setitem_kernel.bind((("axes", axes), ("dtype", x.dtype)))(x._value, v)


def _broadcastable(src, dst):
    if len(src) > len(dst):
        return all(d == 1 for d in src[: len(src) - len(dst)]) and _broadcastable(
            src[len(src) - len(dst):], dst)
    return all(s in (1, d) for s, d in zip(src[::-1], dst[::-1]))
