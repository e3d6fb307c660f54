"""``Array.__getitem__`` / ``__setitem__``: dispatch, and the fast path for basic keys.

A basic key (integers, slices, ``...``, ``None``) is turned into a static *plan* (hashable),
so the kernels are cached per plan and trace to ``slice``/``rev``/``reshape`` (get) or
``dynamic_update_slice``/``scatter`` (set).  Out-of-range integers raise ``IndexError``
(the key is static, so this is always checked).  Keys with integer arrays or boolean masks
go to :mod:`laxarray.array_api._indexing_advanced` (which documents the tracing rule).
Results are copies: writing into them never changes the indexed array.
"""

from __future__ import annotations

import operator

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.kernel import call, kernel

_NAME_GET = "Array.__getitem__"
_NAME_SET = "Array.__setitem__"


def _index_int(fn, k):
    if isinstance(k, bool):
        fail(IndexError, fn, "integers, slices, ellipsis or None in the index key", k)
    if hasattr(k, "_value") and getattr(k, "ndim", None) == 0 and _dt.kind_of(k.dtype) in "iu":
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
            try:
                start, stop, step = k.indices(shape[dim])
            except (TypeError, ValueError):
                fail(IndexError, fn, "a slice of Python integers or None (static under "
                     "jax.jit) with a nonzero step", k)
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


def slice_region(x, axes):
    """``x`` restricted to the basic ``axes`` plan, in key order (every axis kept)."""
    pos, flips = _positive(axes, x.shape)
    if not flips and all(s == 0 and st == 1 and c == n for (s, st, c), n in zip(pos, x.shape)):
        return x
    starts = [s for s, _, _ in pos]
    limits = [s + (c - 1) * st + 1 if c else s for s, st, c in pos]
    strides = [st for _, st, _ in pos]
    y = lax.slice(x, starts, limits, strides)
    return lax.rev(y, flips) if flips else y


def write_region(x, axes, region):
    """``x`` with the elements selected by the basic ``axes`` plan replaced by ``region``
    (shaped like :func:`slice_region`'s result)."""
    pos, flips = _positive(axes, x.shape)
    if any(c == 0 for _, _, c in pos):
        return x
    if not flips and all(s == 0 and st == 1 and c == n for (s, st, c), n in zip(pos, x.shape)):
        return region
    if flips:
        region = lax.rev(region, flips)
    if all(st == 1 for _, st, _ in pos):
        return lax.dynamic_update_slice(x, region, [s for s, _, _ in pos])
    grids = np.meshgrid(*[np.arange(s, s + c * st, st) for s, st, c in pos], indexing="ij")
    idx = np.stack(grids, axis=-1).astype(np.int64) if grids else np.zeros((0,), np.int64)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=tuple(range(x.ndim)),
        scatter_dims_to_operand_dims=tuple(range(x.ndim)))
    return lax.scatter(x, idx, region, dnums, indices_are_sorted=True, unique_indices=True)


def broadcast_value(value, out_shape):
    """``value`` broadcast to ``out_shape`` (NumPy's rule; extra leading 1-axes dropped)."""
    if value.ndim > len(out_shape):  # extra leading axes of size 1 (checked statically)
        value = lax.reshape(value, value.shape[value.ndim - len(out_shape):])
    if tuple(value.shape) == tuple(out_shape):
        return value
    offset = len(out_shape) - value.ndim
    return lax.broadcast_in_dim(value, out_shape, tuple(range(offset, len(out_shape))))


@kernel(static=("axes", "out_shape"))
def _getitem_kernel(x, *, axes, out_shape):
    return lax.reshape(slice_region(x, axes), out_shape)


def _is_basic(key):
    if type(key) is tuple:
        for k in key:
            t = type(k)
            if t is not int and t is not slice and k is not None and k is not Ellipsis:
                return False
        return True
    t = type(key)
    return t is int or t is slice or key is None or key is Ellipsis


def getitem(x, key):
    """``x[key]`` (a copy): basic keys take a static plan; others go to the advanced path."""
    if not _is_basic(key):
        key = _adv.classify_key(_NAME_GET, key)
        if not _adv.is_advanced(key):
            key = _adv.basic_key(key)
        else:
            return _adv.getitem(x, key)
    axes, out_shape = basic_plan(_NAME_GET, x.shape, key)
    return call(_getitem_kernel, x, axes=axes, out_shape=out_shape)


@kernel(static=("axes", "out_shape", "dtype"))
def _setitem_kernel(x, value, *, axes, out_shape, dtype):
    pos, _ = _positive(axes, x.shape)
    if any(c == 0 for _, _, c in pos):
        return x
    # broadcast the value to x[key]'s shape (NumPy's rule), then lay it out on the region:
    # both have the same elements in the same order (int axes are 1 in the region, None
    # axes are 1 in x[key]), so a reshape does it
    value = broadcast_value(lax.convert_element_type(value, dtype), out_shape)
    return write_region(x, axes, lax.reshape(value, tuple(c for _, _, c in pos)))


def setitem_value(x, key, value):
    """The raw value of ``x`` after ``x[key] = value`` (the caller rebinds the handle).

    ``value`` must broadcast to ``x[key].shape`` (``None`` axes included), as in NumPy, and
    an array value's dtype must promote to ``x.dtype`` (the 2025.12 rule); Python scalars
    and sequences of them are weak.
    """
    if not _is_basic(key):
        key = _adv.classify_key(_NAME_SET, key)
        if not _adv.is_advanced(key):
            key = _adv.basic_key(key)
        else:
            return _adv.setitem_value(x, key, value)
    axes, out_shape = basic_plan(_NAME_SET, x.shape, key)
    v = value_operand(_NAME_SET, value, x.dtype)
    if not broadcastable(tuple(v.shape), out_shape):
        fail(ValueError, _NAME_SET, f"a value broadcastable to shape {out_shape}", value)
    return _setitem_kernel.bind((("axes", axes), ("out_shape", out_shape),
                                 ("dtype", x.dtype)))(x._value, v)


_KIND_ORDER = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def value_operand(fn, value, dtype, argname="value"):
    """A raw value to store into an array of ``dtype``.

    Python scalars and (untraced) nested sequences of them are weak: they may not be of a
    higher kind than ``dtype`` (bool < int < float < complex; a Python float into an integer
    array truncates, as NumPy).  Arrays are strong: their dtype must promote to ``dtype``.
    """
    from laxarray._core import dtypes as _dt
    from laxarray.array_api._convert import operand_for_dtype, to_raw
    if _dt.scalar_pytype(value) is not None:
        return operand_for_dtype(fn, value, dtype, argname)
    if isinstance(value, (list, tuple)) and not _adv.has_traced(value):
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError) as exc:
            fail(TypeError, fn, f"an array-like for '{argname}' ({exc})", value)
        if _dt.kind_of(arr.dtype) not in _KIND_ORDER:
            fail(TypeError, fn, f"numbers for '{argname}'", value)
        if arr.size and _KIND_ORDER[_dt.kind_of(arr.dtype)] > _KIND_ORDER[_dt.kind_of(dtype)]:
            fail(TypeError, fn, f"values of a kind storable in {dtype} for '{argname}'",
                 value)
        if _dt.kind_of(arr.dtype) in "iu" and _dt.kind_of(dtype) in "iu" and arr.size:
            info = np.iinfo(dtype)
            if arr.min() < info.min or arr.max() > info.max:
                fail(ValueError, fn, f"values within the range of {dtype} for '{argname}'",
                     value)
        return arr.astype(dtype)
    raw = to_raw(fn, value, argname)
    if raw.dtype != dtype and _dt.promote_types(raw.dtype, dtype) != dtype:
        fail(TypeError, fn, f"a '{argname}' whose dtype promotes to {dtype} (the 2025.12 "
             f"__setitem__ rule; use astype to cast)", value)
    return raw


def broadcastable(src, dst):
    """Whether shape ``src`` broadcasts to ``dst`` (extra leading 1-axes allowed)."""
    if len(src) > len(dst):
        return all(d == 1 for d in src[: len(src) - len(dst)]) and broadcastable(
            src[len(src) - len(dst):], dst)
    return all(s in (1, d) for s, d in zip(src[::-1], dst[::-1]))


from laxarray.array_api import _indexing_advanced as _adv  # noqa: E402  (uses the helpers)
