"""Basic index keys (integers, slices, ``...``, ``None``): static plans, dynamic params,
and the get/set kernels over raw values.

A basic key is split into a static *plan* -- per axis the step, the number of elements
taken and whether it is an integer, i.e. the key's structure and the result's shape -- and
dynamic *params*, the start, step and count of every axis, an int64 vector passed to the
kernel (on eager calls a device array, cached per key and placement: :func:`placed_params`).
So ``x[i]``, ``x[i, j]``, ``x[i:i+k]`` and ``x[i] = v`` compile once per shape and key
structure, whatever the values of ``i``, ``j``.  Exact arrays trace to
``dynamic_slice``/``slice``/``rev`` (get) or ``dynamic_update_slice``/``scatter`` (set),
reading the starts alone; on a bucket (padded arrays) the kernels' ``bucket`` rule gives
the plan of the bucket (:func:`bucket_plan`), and they trace to a gather/scatter per axis
whose positions ``start + k * step`` are dynamic too, so one executable serves every
logical shape of a bucket.  Out-of-range integers raise ``IndexError`` (indices are Python
values here, so this is always checked).

The Arrays' side (views, buckets, values) is ``_indexing_basic``; the views' read and
write-back kernels (``_views``) reuse these kernels' bodies; advanced keys
(``_indexing_advanced``) reuse the region helpers.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from jax import lax
from jax.sharding import SingleDeviceSharding

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, slice_error
from laxarray._core.buckets import bucket_dim, bucket_shape
from laxarray._core.jaxapi import Tracer, put_like
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray.array_api.elementwise import int_pow


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
                slice_error(fn, k)
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
    for ax, (start, step, count, _) in enumerate(axes[:len(shape)]):
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
    idx = np.stack(grids, axis=-1).astype(_dt.default_index()) if grids else np.zeros((0,), _dt.default_index())
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=tuple(range(x.ndim)),
        scatter_dims_to_operand_dims=tuple(range(x.ndim)))
    return lax.scatter(x, idx, region, dnums, indices_are_sorted=True, unique_indices=True)


def store_cast(value, dtype):
    """``value`` converted to the stored array's ``dtype`` inside a kernel, as NumPy casts
    (float64 to float16 rounded once: ``numerics.cast_value``)."""
    return cast_value(value, dtype)


def broadcast_value(value, out_shape):
    """``value`` broadcast to ``out_shape`` (NumPy's rule; extra leading 1-axes dropped)."""
    if value.ndim > len(out_shape):  # extra leading axes of size 1 (checked statically)
        value = lax.reshape(value, value.shape[value.ndim - len(out_shape):])
    if tuple(value.shape) == tuple(out_shape):
        return value
    offset = len(out_shape) - value.ndim
    return lax.broadcast_in_dim(value, out_shape, tuple(range(offset, len(out_shape))))


def _at(v, i):
    """Element ``i`` (a Python int) of the traced vector ``v`` (lax only)."""
    return lax.reshape(lax.slice(v, (i,), (i + 1,)), ())


def dynamic_plan(axes, shape, like=None):
    """``(plan, params)`` of the basic ``axes`` plan: per axis ``(step, count, is_int,
    full)`` (static) and ``[start, step, count]`` per axis (an int64 vector: dynamic).

    ``like``: the raw value the kernel will run on; where it is a concrete jax array the
    params come as a device array placed like it (:func:`placed_params`), else NumPy's."""
    plan, params = [], []
    for (start, step, count, is_int), n in zip(axes, shape):
        plan.append((step, count, is_int, start == 0 and step == 1 and count == n))
        params.extend((start, step, count))
    return tuple(plan), placed_params(params, like)


_PARAMS: dict = {}
_PARAMS_MAX = 4096


def placed_params(values, like):
    """The index params ``values`` (Python ints) as a vector of the default index dtype:
    a device array placed like the concrete jax array ``like`` (cached: index keys repeat,
    and a kernel call on device arguments alone takes the executables' fast path, about
    half the time of one that transfers a NumPy vector), else (``like`` a tracer or
    ``None``) a NumPy array."""
    dtype = _dt.default_index()
    if like is None or isinstance(like, Tracer):
        return np.array(values, dtype)
    sharding = like.sharding
    if type(sharding) is not SingleDeviceSharding:  # spread over devices: NumPy's, placed
        return np.array(values, dtype)               # by the call as before
    key = (tuple(values), dtype, sharding, like._committed)
    out = _PARAMS.get(key)
    if out is None:
        out = put_like(np.array(values, dtype), like)
        if len(_PARAMS) >= _PARAMS_MAX:
            _PARAMS.clear()
        _PARAMS[key] = out
    return out


def bucket_plan(plan):
    """The plan of a bucket: per axis ``(is_int, length taken in the bucket)``; the step
    and count are read from the params (dynamic)."""
    return tuple((is_int, 1 if is_int else bucket_dim(count)) for _, count, is_int, _ in plan)


def on_bucket(plan) -> bool:
    """Whether ``plan`` is a bucket's (:func:`bucket_plan`); an empty plan (a 0-d array)
    reads the same either way."""
    return bool(plan) and len(plan[0]) == 2


def _index_bucket(*in_shapes, plan, out_shape, **_):
    """The ``bucket`` rule of the get and set kernels: the bucket's plan, and the bucket of
    ``x[key]``'s shape."""
    return {"plan": bucket_plan(plan), "out_shape": bucket_shape(out_shape)}


def _lows(params, plan):
    """The lowest index each axis of an exact plan takes: its start, less the (static)
    span of a negative step."""
    out = []
    for axis, (step, count, _, _) in enumerate(plan):
        start = _at(params, 3 * axis)
        if step < 0 and count > 1:
            start = lax.add(start, lax.full((), (count - 1) * step, start.dtype))
        out.append(start)
    return out


def _region(x, params, plan):
    """The elements of ``x`` an exact plan selects, every axis kept (in key order)."""
    if all(full for *_, full in plan):
        return x
    sizes = [(c - 1) * abs(st) + 1 if c else 0 for st, c, _, _ in plan]
    y = lax.dynamic_slice(x, _lows(params, plan), sizes)
    if any(abs(st) != 1 for st, c, _, _ in plan if c > 1):
        y = lax.slice(y, [0] * x.ndim, sizes, [abs(st) if c > 1 else 1
                                                for st, c, _, _ in plan])
    flips = tuple(a for a, (st, c, _, _) in enumerate(plan) if st < 0 and c > 1)
    return lax.rev(y, flips) if flips else y


def _get_shape(xshape, pshape, *, plan, out_shape):
    """The ``shape`` rule of a get: ``x[key]``'s shape, ``None`` (exact) where it has no
    bucket."""
    return out_shape if bucket_shape(out_shape) is not None else None


@kernel(static=("plan", "out_shape"), shape=_get_shape, bucket=_index_bucket, unpadded=(1,))
def _getitem_kernel(x, params, *, plan, out_shape):
    """``x[key]`` of a basic key: the region an exact plan selects; on a bucket, a gather per
    axis at the dynamic positions ``start + k * step`` (padded to the bucket's length)."""
    if on_bucket(plan):
        for axis, (pos, _) in enumerate(_positions(x, params, plan)):
            x = _take_axis(x, axis, pos)
        return lax.reshape(x, out_shape)
    return lax.reshape(_region(x, params, plan), out_shape)


def _positions(x, params, plan):
    """Per axis of a bucket's plan: the int64 positions ``start + k * step`` of the
    bucket's ``k`` and whether ``k`` is within the logical count."""
    out = []
    for axis, (_is_int, m) in enumerate(plan):
        start, step, count = (_at(params, 3 * axis + j) for j in range(3))
        k = lax.iota(_dt.default_index(), m)
        pos = lax.add(lax.broadcast(start, (m,)), lax.mul(k, lax.broadcast(step, (m,))))
        out.append((pos, lax.lt(k, lax.broadcast(count, (m,)))))
    return out


def check_index_range(fn, idx, size, expected):
    """NumPy's ``IndexError`` (``expected`` says what) if the NumPy integer array ``idx``
    has an entry outside ``[-size, size)``; else whether it has negative entries."""
    if not idx.size:
        return False
    rng = _dt.int_range(idx.dtype)
    # ufunc reductions (no wrapper). The usual case, every index in [0, size), takes one:
    # read as unsigned, negative entries are the ones above the signed maximum.
    if rng[0] < 0 and _MAXIMUM(idx.view(_UNSIGNED[idx.itemsize]), axis=None) < min(
            size, rng[1] + 1):
        return False
    # unsigned indices have no lower bound, and a dtype whose top lies in bounds needs no look
    # at the upper one
    low = _MINIMUM(idx, axis=None) if rng[0] < 0 else 0
    if low < -size or (rng[1] >= size and _MAXIMUM(idx, axis=None) >= size):
        bad = idx[(idx < -size) | (idx >= size)].flat[0]
        fail(IndexError, fn, expected, int(bad))
    return bool(low < 0)


_MINIMUM, _MAXIMUM = np.minimum.reduce, np.maximum.reduce
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def wrap_negative(idx, n, wrap=True):
    """int64 ``idx`` with negative entries counted from the end (``+ n``, once).

    ``wrap=False`` (indices known non-negative) and unsigned indices skip the select: fused
    into a gather on XLA:CPU it costs several times the gather itself (10^4 indices into
    10^5 values: about 110 against 20 us, measured).  uint64 indices past ``n`` become
    ``n`` first (int64 would read those past 2**63 as negative; any index past the end is
    clamped alike)."""
    if idx.dtype == np.uint64:
        idx = lax.min(idx, lax.broadcast(lax.convert_element_type(n, np.uint64), idx.shape))
    unsigned = _dt.kind_of(idx.dtype) == "u"
    idx = lax.convert_element_type(idx, _dt.default_index())
    if not wrap or unsigned:
        return idx
    return lax.select(lax.lt(idx, lax.full_like(idx, 0)), lax.add(idx, lax.full_like(idx, n)),
                      idx)


def _take_axis(x, axis, pos):
    dnums = lax.GatherDimensionNumbers(
        offset_dims=tuple(d for d in range(x.ndim) if d != axis),
        collapsed_slice_dims=(axis,), start_index_map=(axis,))
    sizes = tuple(1 if d == axis else n for d, n in enumerate(x.shape))
    return lax.gather(x, lax.expand_dims(pos, (1,)), dnums, sizes,
                      mode=lax.GatherScatterMode.CLIP)


def is_basic(key):
    """Whether ``key`` is basic: integers, slices, ``...`` and ``None`` only."""
    if type(key) is tuple:
        for k in key:
            t = type(k)
            if t is not int and t is not slice and k is not None and k is not Ellipsis:
                return False
        return True
    t = type(key)
    return t is int or t is slice or key is None or key is Ellipsis


def power(a, b):
    """``a ** b`` of one dtype inside a kernel: ``lax.pow`` takes floating bases only, so
    integers go by squaring (``pow``'s integer kernel)."""
    if _dt.kind_of(a.dtype) in "iu":
        return int_pow(a, b)
    return lax.pow(a, b)


_UPDATES = {"set": lambda a, b: b, "add": lax.add, "subtract": lax.sub, "multiply": lax.mul,
            "divide": lax.div, "min": lax.min, "max": lax.max, "power": power}


def _set_shape(xshape, vshape, pshape, *, plan, out_shape, dtype, op):
    """The ``shape`` rule of a set: ``x``'s shape where ``x[key]`` has elements and a
    bucket, else ``None`` (exact)."""
    if not math.prod(out_shape) or not math.prod(xshape) or bucket_shape(out_shape) is None:
        return None
    return xshape


@kernel(static=("plan", "out_shape", "dtype", "op"), shape=_set_shape, bucket=_index_bucket,
        unpadded=(2,))
def _setitem_kernel(x, value, params, *, plan, out_shape, dtype, op):
    """``x`` after ``x[key] <op>= value`` of a basic key: the region of an exact plan
    updated in place (``dynamic_update_slice``, a scatter for steps); on a bucket
    (:func:`_set_on_bucket`) a scatter at the dynamic positions."""
    if on_bucket(plan):
        return _set_on_bucket(x, value, params, plan, out_shape, dtype, op)
    if any(c == 0 for _, c, _, _ in plan):
        return x
    # broadcast the value to x[key]'s shape (NumPy's rule), then lay it out on the region:
    # both have the same elements in the same order (int axes are 1 in the region, None
    # axes are 1 in x[key]), so a reshape does it
    value = broadcast_value(store_cast(value, dtype), out_shape)
    region = lax.reshape(value, tuple(c for _, c, _, _ in plan))
    if op != "set":
        region = _UPDATES[op](_region(x, params, plan), region)
    if all(full for *_, full in plan):
        return region
    flips = tuple(a for a, (st, c, _, _) in enumerate(plan) if st < 0 and c > 1)
    if flips:
        region = lax.rev(region, flips)
    lows = _lows(params, plan)
    if all(abs(st) == 1 or c <= 1 for st, c, _, _ in plan):
        return lax.dynamic_update_slice(x, region, lows)
    grids = []
    for axis, (st, c, _, _) in enumerate(plan):
        pos = lax.add(lax.broadcast(lows[axis], (c,)),
                      lax.mul(lax.iota(_dt.default_index(), c), lax.full((c,), abs(st), _dt.default_index())))
        grids.append(lax.broadcast_in_dim(pos, region.shape, (axis,)))
    idx = lax.concatenate([lax.expand_dims(g, (x.ndim,)) for g in grids], x.ndim)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=tuple(range(x.ndim)),
        scatter_dims_to_operand_dims=tuple(range(x.ndim)))
    return lax.scatter(x, idx, region, dnums, indices_are_sorted=True, unique_indices=True)


def _set_on_bucket(x, value, params, plan, bucket, dtype, op):
    """``_setitem_kernel`` on a bucket: ``value`` broadcast to the bucket of ``x[key]``,
    scattered at the positions of the bucket's plan within the logical counts (the rest
    dropped)."""
    value = broadcast_value(store_cast(value, dtype), bucket)
    region_shape = tuple(m for _, m in plan)
    region = lax.reshape(value, region_shape)
    if x.ndim == 0:
        return _UPDATES[op](x, region)
    grids, keep = [], None
    for axis, (pos, ok) in enumerate(_positions(x, params, plan)):
        grids.append(lax.broadcast_in_dim(pos, region_shape, (axis,)))
        ok = lax.broadcast_in_dim(ok, region_shape, (axis,))
        keep = ok if keep is None else lax.bitwise_and(keep, ok)
    if op != "set":
        current = x
        for axis, (pos, _) in enumerate(_positions(x, params, plan)):
            current = _take_axis(current, axis, pos)
        region = _UPDATES[op](current, region)
    # positions past the logical count go out of bounds and are dropped
    grids = [lax.select(keep, g, lax.full_like(g, n)) for g, n in zip(grids, x.shape)]
    idx = lax.concatenate([lax.expand_dims(g, (x.ndim,)) for g in grids], x.ndim)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=tuple(range(x.ndim)),
        scatter_dims_to_operand_dims=tuple(range(x.ndim)))
    return lax.scatter(x, idx, region, dnums, mode=lax.GatherScatterMode.FILL_OR_DROP)


__all__ = ["basic_plan", "slice_region", "write_region", "store_cast", "broadcast_value",
           "dynamic_plan", "placed_params", "bucket_plan", "on_bucket", "check_index_range",
           "wrap_negative", "is_basic", "power"]
