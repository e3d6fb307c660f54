"""Advanced indexing: integer arrays (any rank) and boolean masks, mixed with basic entries.

NumPy's semantics: every integer-array entry, boolean mask (as its ``nonzero()`` arrays) and,
once any array is present, every integer entry is an *advanced index*; they broadcast to one
shape ``B``.  ``B`` replaces the indexed axes in place when the advanced entries are adjacent
in the key, and goes first otherwise (a slice, ``None`` or ``...`` between them separates
them).  A 0-d boolean adds a new axis of length 1 (True) or 0 (False).

How it runs: the slices are applied first (``slice``/``rev``, every axis kept), then one
``gather`` (get) or ``scatter`` (set) over the advanced axes, then a ``reshape`` inserts the
``None`` axes.  Index arrays are kernel *arguments* (traced, not static), so one compiled
kernel serves every index value of a given shape.

Out-of-range indices -- the one rule:

* Eagerly (concrete indices) an index outside ``[-n, n)`` raises ``IndexError``.
* Under tracing a negative index wraps once (``i + n``); what is still out of range is
  **clamped** by a get and **dropped** by a set.  The gather/scatter use
  ``GatherScatterMode.PROMISE_IN_BOUNDS`` (XLA's native clamp/drop), which
  ``laxarray.checkify`` with ``index_checks`` reports as an out-of-bounds error.
  ``x.at[idx]`` takes ``mode='clip'|'fill'|'drop'`` to choose other behaviours by design.

Boolean masks have data-dependent shapes: a get needs a concrete mask, or, under tracing,
``x.at[mask].get(size=N, fill_value=...)``.  A set with one mask (plus integers and basic
entries) works under tracing: it is a ``select`` over the masked elements, the value's
mask axis (if longer than 1) taken in order by a running count of the mask.

A mask's axes have the lengths of the axes it indexes, or 0 (NumPy's rule): a mask with a
zero-length axis selects nothing, from axes of any length, and that (empty) selection is
static, so such a mask needs no ``size=`` under tracing either.
"""

from __future__ import annotations

import math
import operator

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import broadcast_error, fail, shape_text, slice_error
from laxarray._core.jaxapi import Tracer, is_tracer
from laxarray._core.buckets import bucket_dim, bucket_shape
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import rank_of_true
from laxarray.array_api import _index_plan as _basic
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcastable
from laxarray.array_api._calls import call
from laxarray.array_api._convert import has_traced, to_raw, value_operand
from laxarray.array_api.indexing_functions import gather_axis
from laxarray.array_api.manipulation import reshape_kernel
from laxarray.array_api.searching import nonzero_kernel

MODES = {None: lax.GatherScatterMode.PROMISE_IN_BOUNDS,
         "promise_in_bounds": lax.GatherScatterMode.PROMISE_IN_BOUNDS,
         "clip": lax.GatherScatterMode.CLIP,
         "fill": lax.GatherScatterMode.FILL_OR_DROP,
         "drop": lax.GatherScatterMode.FILL_OR_DROP}
_KEY_KINDS = "integers, slices, ellipsis, None, or integer or boolean arrays in the index key"
_NAN = float("nan")  # one object: NaN fill values must hit the kernel cache


# ---- classifying a key -------------------------------------------------------------------

def _classify(fn, k):
    """One key entry -> ``(tag, payload)``; tags: none ellipsis slice int array mask."""
    if k is None:
        return ("none", None)
    if k is Ellipsis:
        return ("ellipsis", None)
    t = type(k)
    if t is slice:
        return ("slice", k)
    if t is bool or isinstance(k, np.bool_):
        return ("mask", np.asarray(bool(k)))
    if t is int:
        return ("int", k)
    if isinstance(k, np.integer):
        return ("int", int(k))
    if isinstance(k, Array):
        raw = k._padded_host()
        if raw is None:
            raw = k._value
    elif isinstance(k, (jax.Array, Tracer, np.ndarray)):
        raw = k
    elif isinstance(k, (list, tuple)):
        if has_traced(k):
            raw = to_raw(fn, k, "key")
        else:
            try:
                raw = np.asarray(k)
            except (ValueError, TypeError):
                fail(IndexError, fn, _KEY_KINDS, k)
            if raw.size == 0 and _dt.kind_of(raw.dtype) == "f":
                raw = raw.astype(_dt.default_index())  # NumPy reads an empty list as an integer index
    else:
        try:
            return ("int", operator.index(k))
        except TypeError:
            fail(IndexError, fn, _KEY_KINDS, k)
    kind = _dt.kind_of(raw.dtype)
    if kind == "b":
        if 0 in raw.shape:  # selects nothing, traced or not: its (empty) nonzero() is static
            return ("mask", np.zeros(raw.shape, np.bool_))
        return ("mask", raw)
    if kind not in "iu":
        fail(IndexError, fn, "integer or boolean arrays in the index key", k)
    if raw.ndim == 0 and not is_tracer(raw):
        return ("int", int(np.asarray(raw)))
    return ("array", raw)


def classify_key(fn, key):
    """The key as a tuple of ``(tag, payload)`` entries."""
    if type(key) is not tuple:
        key = (key,)
    return tuple(_classify(fn, k) for k in key)


def is_advanced(entries) -> bool:
    """Whether the classified key has an integer array or a boolean mask."""
    return any(tag in ("array", "mask") for tag, _ in entries)


def basic_key(entries):
    """A classified key without arrays back as a basic key."""
    return tuple(Ellipsis if tag == "ellipsis" else val for tag, val in entries)


# ---- the layout of a key -----------------------------------------------------------------

class Layout:
    """Where every axis of ``x`` goes for one classified key.

    ``xshape``: the shape after the new axes of 0-d masks; ``axes``: one basic
    ``(start, step, count, False)`` per axis of ``xshape`` (advanced axes kept whole);
    ``groups``: per advanced entry ``(tag, payload, first axis, rank)``; ``adjacent``:
    whether the advanced entries touch; ``order``: ``"s"`` (a slice axis), ``"n"`` (None)
    and ``"a"`` (the first advanced entry) in key order.
    """

    __slots__ = ("xshape", "axes", "groups", "adjacent", "order")


def layout(fn, shape, entries, check_ints=True) -> Layout:
    """Resolve ``entries`` against ``shape`` (IndexError for an impossible key)."""
    n_ellipsis = sum(1 for tag, _ in entries if tag == "ellipsis")
    if n_ellipsis > 1:
        fail(IndexError, fn, "at most one ellipsis in the index key", n_ellipsis)
    used = 0
    for tag, val in entries:
        if tag in ("slice", "int", "array"):
            used += 1
        elif tag == "mask":
            used += val.ndim
    if used > len(shape):
        fail(IndexError, fn, f"at most {len(shape)} indexed axes for an array of rank "
             f"{len(shape)}", used)
    if not n_ellipsis:
        entries = entries + (("ellipsis", None),)
    xshape, axes, groups, order, adv_pos = [], [], [], [], []
    d = 0
    for pos, (tag, val) in enumerate(entries):
        if tag == "none":
            order.append("n")
        elif tag == "ellipsis":
            for _ in range(len(shape) - used):
                n = shape[d]
                xshape.append(n)
                axes.append((0, 1, n, False))
                order.append("s")
                d += 1
        elif tag == "slice":
            n = shape[d]
            try:
                start, stop, step = val.indices(n)
            except (TypeError, ValueError):
                slice_error(fn, val)
            count = len(range(start, stop, step))
            xshape.append(n)
            axes.append((start if count else 0, step, count, False))
            order.append("s")
            d += 1
        else:
            first = len(xshape)
            if tag == "mask" and val.ndim == 0:
                val = reshape_kernel(val, shape=(1,)) if isinstance(val, jax.Array) else \
                    np.reshape(val, (1,))
                dims = (1,)
            elif tag == "mask":
                dims = tuple(shape[d:d + val.ndim])
                check_mask_shape(fn, val, dims, d)
                d += val.ndim
            else:
                dims = (shape[d],)
                d += 1
                if tag == "int" and check_ints and not -dims[0] <= val < dims[0]:
                    fail(IndexError, fn, f"an index in [{-dims[0]}, {dims[0]}) for axis "
                         f"{d - 1} of size {dims[0]}", val)
            for n in dims:
                xshape.append(n)
                axes.append((0, 1, n, False))
            if not adv_pos:
                order.append("a")
            adv_pos.append(pos)
            groups.append((tag, val, first, len(dims)))
    out = Layout()
    out.xshape, out.axes, out.groups, out.order = tuple(xshape), tuple(axes), groups, order
    out.adjacent = adv_pos == list(range(adv_pos[0], adv_pos[0] + len(adv_pos))) \
        if adv_pos else True
    return out


def check_mask_shape(fn, mask, dims, first):
    """NumPy's rule for a boolean index over the axes ``first..`` of lengths ``dims``:
    each of its axes has the indexed axis's length, or 0 (a mask with a zero-length axis
    has no True element: it selects nothing from an axis of any length)."""
    if any(m != n and m != 0 for m, n in zip(mask.shape, dims)):
        fail(IndexError, fn, f"a boolean index of shape {dims} (any of its axes may have "
             f"length 0) for axes {first}..{first + len(dims) - 1}", mask)


def _positions(lay):
    """``(p, p_final)``: where ``B`` goes in the gather output and in the final result."""
    if not lay.adjacent:
        return 0, 0
    first = lay.order.index("a")
    before = lay.order[:first]
    return before.count("s"), len(before)


def _final_shape(lay, bshape):
    out = []
    wins = iter(lay.axes[a][2] for a in _window_axes(lay))
    for o in lay.order:
        if o == "s":
            out.append(next(wins))
        elif o == "n":
            out.append(1)
    _, pf = _positions(lay)
    return tuple(out[:pf]) + tuple(bshape) + tuple(out[pf:])


def _window_axes(lay):
    adv = _adv_axes(lay)
    return [a for a in range(len(lay.xshape)) if a not in adv]


def _adv_axes(lay):
    return [g[2] + j for g in lay.groups for j in range(g[3])]


# ---- index components ----------------------------------------------------------------------

def _concrete(raw):
    return None if is_tracer(raw) else np.asarray(raw)


def components(fn, lay, size=None, checked=True):
    """One raw integer index array per advanced axis, whether a mask was padded, and the
    shape ``B`` the index arrays broadcast to (``IndexError`` if they do not).

    Masks become their ``nonzero()`` arrays: eagerly exact (or ``size`` long), under
    tracing only with ``size`` (padding is out of range, for ``mode='fill'``).  Concrete
    negative indices are wrapped here, on the host, so the kernel wraps only traced ones
    (:func:`wrap_flags`).  As NumPy, concrete index arrays are range-checked only when
    the index arrays select something (``x[mask, [7]]`` with a mask that selects nothing
    is empty, whatever the length of the axis 7 indexes); with ``size``, by the mask's
    true count where it is concrete.
    """
    comps, padded, arrays, selected = [], False, [], []
    for tag, val, first, _rank in lay.groups:
        n = lay.xshape[first]
        if tag == "int":
            comps.append(np.asarray(val + n if val < 0 else val, _dt.default_index()))
        elif tag == "array":
            conc = _concrete(val)
            if conc is not None:
                arrays.append((len(comps), n, first))
            comps.append(val if conc is None else conc)
            selected.append(tuple(val.shape))
        else:
            conc = _concrete(val)
            # the mask's NumPy selection length (1 where traced: possibly non-empty)
            selected.append((1,) if conc is None else (int(np.count_nonzero(conc)),))
            if conc is not None and size is None:
                comps.extend(np.nonzero(conc))
                continue
            if size is None:
                fail(ValueError, fn, "a concrete boolean mask; under jax.jit/vmap the number "
                     "of True elements decides the result shape: use "
                     "x.at[mask].get(size=N, fill_value=...)", val)
            # out of range for the longest masked axis (a zero-length mask axis may index a
            # longer one, so the mask's own shape does not tell)
            sentinel = max(max(lay.xshape[first:first + _rank]), 1)
            padded = True
            if isinstance(val, np.ndarray):  # a NumPy mask (or an empty one): on the host
                for c in np.nonzero(val):
                    out = np.full(size, sentinel, _dt.default_index())
                    out[:min(size, c.size)] = c[:size]
                    comps.append(out)
                continue
            comps.extend(nonzero_kernel(val, size=size, fill_value=sentinel))
    bshape = _bshape(fn, comps)
    try:
        used = math.prod(np.broadcast_shapes(*selected)) if selected else 1
    except ValueError:   # only with size= (padding changed a mask's length): check
        used = 1
    if used:
        for i, n, first in arrays:
            conc = comps[i]
            if checked:
                negative = _basic.check_index_range(
                    fn, conc, n, f"an index in [{-n}, {n}) for axis {first} of size {n}")
            else:
                negative = conc.size and conc.dtype.kind == "i" and conc.min() < 0
            if negative:
                comps[i] = np.where(conc < 0, conc + n, conc)
    return comps, padded, bshape


def wrap_flags(comps):
    """Per index component, whether the kernel must wrap negative entries: only traced
    ones (:func:`components` wrapped the concrete ones)."""
    return tuple(not isinstance(c, np.ndarray) for c in comps)


def _bshape(fn, comps):
    try:
        return tuple(np.broadcast_shapes(*[tuple(c.shape) for c in comps]))
    except ValueError:
        fail(IndexError, fn, "index arrays that broadcast together",
             tuple(tuple(c.shape) for c in comps))


def _indices(comps, sizes, bshape, wrap):
    """``B + (k,)`` int64 start indices, negative indices wrapped once where ``wrap`` says."""
    out = []
    for c, n, w in zip(comps, sizes, wrap):
        c = _basic.wrap_negative(c, n, w)
        c = lax.broadcast_in_dim(c, bshape, tuple(range(len(bshape) - c.ndim, len(bshape))))
        out.append(lax.expand_dims(c, (len(bshape),)))
    return lax.concatenate(out, len(bshape)) if out else lax.full(bshape + (0,), 0, _dt.default_index())


def _plan(lay, bshape):
    adv = tuple(_adv_axes(lay))
    p, _ = _positions(lay)
    return (lay.xshape, lay.axes, adv, p, tuple(bshape), _final_shape(lay, bshape))


def _dnums_parts(plan, ndim):
    _, _, adv, p, bshape, _ = plan
    nb, nw = len(bshape), ndim - len(adv)
    window_pos = tuple(range(p)) + tuple(range(p + nb, nb + nw))
    return window_pos, tuple(sorted(adv)), adv


# ---- get ---------------------------------------------------------------------------------------

def _whole(axes, xshape, skip=()):
    """Whether every axis of ``xshape`` but those in ``skip`` is taken whole by ``axes``."""
    return all(a == (0, 1, n, False) for d, (a, n) in enumerate(zip(axes, xshape))
               if d not in skip)


def _gather_shape(xshape, *comp_shapes, plan, mode, fill_value, sorted_, unique, wrap):
    """The ``shape`` rule of a gather: its result's shape where it runs on the buckets --
    no index mode (a caller passes exact values with one: they may read past an axis),
    every index concrete (wrapped on the host), every other axis of ``x`` taken whole, a
    result with a bucket -- else ``None`` (exact).  The index arrays are padded on the
    host, so one executable serves every index count of a bucket."""
    pxshape, axes, adv, _, _, out_shape = plan
    if (mode is not MODES[None] or any(wrap) or pxshape != tuple(xshape)
            or not _whole(axes, pxshape, adv) or bucket_shape(out_shape) is None):
        return None
    return out_shape


def _gather_bucket(xshape, *comp_shapes, plan, **_):
    """The ``bucket`` rule of a gather: the plan over the whole bucket of ``x``, the
    bucket of the index shape and of the result."""
    pxshape, _, adv, p, bshape, out_shape = plan
    xb = bucket_shape(pxshape)
    return {"plan": (xb, tuple((0, 1, n, False) for n in xb), adv, p, bucket_shape(bshape),
                     bucket_shape(out_shape))}


@kernel(static=("plan", "mode", "fill_value", "sorted_", "unique", "wrap"),
        shape=_gather_shape, bucket=_gather_bucket)
def _gather_kernel(x, *comps, plan, mode, fill_value, sorted_, unique, wrap):
    xshape, axes, adv, _, bshape, out_shape = plan
    if math.prod(out_shape) == 0 or any(xshape[a] == 0 for a in adv):
        return lax.full(out_shape, 0 if fill_value is None else fill_value, x.dtype)
    x = _basic.slice_region(lax.reshape(x, xshape), axes)
    idx = _indices(comps, [x.shape[a] for a in adv], bshape, wrap)
    offset, collapsed, start_map = _dnums_parts(plan, x.ndim)
    dnums = lax.GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=collapsed,
                                       start_index_map=start_map)
    sizes = tuple(1 if a in adv else n for a, n in enumerate(x.shape))
    out = lax.gather(x, idx, dnums, sizes, indices_are_sorted=sorted_, unique_indices=unique,
                     mode=mode, fill_value=fill_value)
    return lax.reshape(out, out_shape)


def canonical_fill(fn, fill_value, dtype):
    """A hashable Python scalar for ``fill_value`` (NaN as one shared object)."""
    if fill_value is None:
        return None
    if _dt.scalar_pytype(fill_value) is None and not isinstance(fill_value, np.generic):
        fail(TypeError, fn, "a Python scalar for 'fill_value'", fill_value)
    v = np.asarray(fill_value).astype(dtype).item()
    if isinstance(v, float) and v != v:
        return _NAN
    return v


def getitem(x, entries, *, mode=None, fill_value=None, size=None, sorted_=False,
            unique=False, fn="Array.__getitem__"):
    """``x[key]`` for a classified key with arrays (also ``x.at[key].get``)."""
    lay = layout(fn, x.shape, entries, check_ints=mode is None)
    comps, padded, bshape = components(fn, lay, size=size, checked=mode is None)
    if padded and mode is None:
        mode = "fill"
    plan = _plan(lay, bshape)
    # an index mode may read past an axis (clip, fill): exact values, never a bucket's
    return call(_gather_kernel, x if mode is None else _raw(x), *comps, plan=plan,
                mode=MODES[mode],
                fill_value=(canonical_fill(fn, fill_value, x.dtype) if mode in ("fill", "drop")
                            else None),
                sorted_=sorted_, unique=unique, wrap=wrap_flags(comps))


def _raw(x):
    """The exact raw value of ``x`` (an Array or a raw value)."""
    return x._value if type(x) is Array else x


# ---- set and update ops -------------------------------------------------------------------

_SCATTERS = {"set": lax.scatter, "add": lax.scatter_add, "subtract": lax.scatter_sub,
             "multiply": lax.scatter_mul, "min": lax.scatter_min, "max": lax.scatter_max}


@kernel(static=("plan", "mode", "op", "sorted_", "unique", "wrap"))
def _scatter_kernel(x, v, *comps, plan, mode, op, sorted_, unique, wrap):
    xshape, axes, adv, _, bshape, out_shape = plan
    if math.prod(out_shape) == 0 or any(xshape[a] == 0 for a in adv):
        return x
    xe = lax.reshape(x, xshape)
    y = _basic.slice_region(xe, axes)
    v = _basic.broadcast_value(_basic.store_cast(v, x.dtype), out_shape)
    offset, collapsed, start_map = _dnums_parts(plan, y.ndim)
    gshape = _strip_none(plan, y.shape)
    v = lax.reshape(v, gshape)
    idx = _indices(comps, [y.shape[a] for a in adv], bshape, wrap)
    dnums = lax.ScatterDimensionNumbers(update_window_dims=offset,
                                        inserted_window_dims=collapsed,
                                        scatter_dims_to_operand_dims=start_map)
    y = _SCATTERS[op](y, idx, v, dnums, indices_are_sorted=sorted_, unique_indices=unique,
                      mode=mode)
    return lax.reshape(_basic.write_region(xe, axes, y), x.shape)


def _strip_none(plan, yshape):
    _, _, adv, p, bshape, _ = plan
    windows = [n for a, n in enumerate(yshape) if a not in adv]
    return tuple(windows[:p]) + tuple(bshape) + tuple(windows[p:])


def _mask_select_ok(lay):
    """One boolean mask, the other advanced entries Python integers: the select path."""
    tags = [g[0] for g in lay.groups]
    return tags.count("mask") == 1 and all(t in ("mask", "int") for t in tags)


def update(x, entries, value, op, *, mode=None, sorted_=False, unique=False,
           fn="Array.__setitem__"):
    """``x`` after ``x[key] <op>= value`` for a classified key with arrays: a raw value, or
    an Array (a boolean-mask update's, which may run on the buckets; see :func:`updated`)."""
    lay = layout(fn, x.shape, entries, check_ints=mode is None)
    v = value_operand(fn, value, x.dtype)
    if type(v) is Array:
        v = v._value
    if _mask_select_ok(lay):
        return _mask_update(fn, x, lay, v, value, op)
    if any(g[0] == "mask" and is_tracer(g[1]) for g in lay.groups):
        fail(ValueError, fn, "a concrete boolean mask when it is combined with integer "
             "arrays (under jax.jit a traced mask may only be combined with Python integers, "
             "slices, None and ...)", value)
    comps, _, bshape = components(fn, lay, checked=mode is None)
    plan = _plan(lay, bshape)
    out_shape = plan[-1]
    v = _empty_value_to_rank(v, len(out_shape))
    if not broadcastable(tuple(v.shape), out_shape):
        _value_shape_error(fn, value, v.shape, out_shape)
    if op in ("divide", "power"):
        current = call(_gather_kernel, x._value, *comps, plan=plan, mode=MODES[mode],
                       fill_value=None, sorted_=sorted_, unique=unique,
                       wrap=wrap_flags(comps))._value
        v = _apply(op, current, _basic.broadcast_value(
            _basic.store_cast(v, x.dtype), out_shape))
        op = "set"
    return _scatter_kernel(x._value, v, *comps, plan=plan, mode=MODES[mode], op=op,
                           sorted_=sorted_, unique=unique, wrap=wrap_flags(comps))


def _empty_value_to_rank(v, ndim):
    """NumPy's advanced assignment reshapes a value of higher rank than ``x[key]`` to its
    trailing ``ndim`` axes (where basic assignment only drops leading 1-axes): the same
    thing, except for an empty value whose trailing axes hold a zero-length one (a value
    of shape ``(7, 0)`` is accepted for ``x[key]`` of shape ``(0,)``).  That case is
    reshaped here; every other goes on to the broadcasting check."""
    shape = tuple(v.shape)
    if len(shape) <= ndim or math.prod(shape[len(shape) - ndim:]):
        return v
    trailing = shape[len(shape) - ndim:]
    return np.reshape(v, trailing) if isinstance(v, np.ndarray) else lax.reshape(v, trailing)


def _apply(op, a, b):
    if op == "set":
        return b
    return {"add": lax.add, "subtract": lax.sub, "multiply": lax.mul, "divide": lax.div,
            "min": lax.min, "max": lax.max, "power": _basic.power}[op](a, b)


def setitem_value(x, entries, value):
    """``x`` after ``x[key] = value`` for a classified key with arrays: a raw value or an
    Array, as :func:`update` gives it (see :func:`updated`)."""
    return update(x, entries, value, "set")


def updated(out):
    """An :func:`update` result as an Array."""
    return out if type(out) is Array else wrap(out)


# ---- boolean-mask updates as a select -------------------------------------------------------

def _mask_update(fn, x, lay, v, value, op):
    """``x`` after ``x[key] <op>= v`` for a key of one boolean mask with Python integers and
    basic entries: the value's shape checked by NumPy's rule, then a select (an Array; the
    raw ``x`` where nothing is selected)."""
    (_, mask, first, rank), = [g for g in lay.groups if g[0] == "mask"]
    ints = tuple((g[2], g[1] + lay.xshape[g[2]] if g[1] < 0 else g[1])
                 for g in lay.groups if g[0] == "int")
    conc = _concrete(mask)
    count = None if conc is None else int(np.count_nonzero(conc))
    # the value's length along the mask axis of x[key] (1: broadcast)
    template = _final_shape(lay, (-1,))
    b_at = template.index(-1)
    v = _empty_value_to_rank(v, len(template))
    vshape = tuple(v.shape)
    full = len(lay.groups) == 1 and rank == len(lay.xshape)  # x[mask], mask of x's shape
    if len(vshape) > len(template):
        if any(d != 1 for d in vshape[:len(vshape) - len(template)]):
            _value_shape_error(fn, value, vshape, _shape_text(template, count), full)
        vshape = vshape[len(vshape) - len(template):]
    off = len(template) - len(vshape)
    length = vshape[b_at - off] if b_at >= off else 1
    target = tuple(length if d == -1 else d for d in template)
    ok = broadcastable(vshape, target) and (length == 1 or count is None or length == count)
    if not ok or (count is None and length == 0):
        _value_shape_error(fn, value, tuple(v.shape), _shape_text(template, count), full)
    if count == 0 or math.prod(lay.xshape) == 0:
        return x._value
    plan = (lay.xshape, lay.axes, first, rank, ints, _positions(lay)[0], b_at, target)
    # a concrete mask small enough for a bucket goes as its host copy (padded there where
    # the update runs on the buckets); a larger one stays on the device
    if conc is not None and bucket_shape(conc.shape) is not None:
        mask = conc
    return call(_mask_update_kernel, x, v, mask, plan=plan, op=op)


def _value_shape_error(fn, value, vshape, target, full_mask=False):
    """Raise the ``ValueError`` for a value of shape ``vshape`` that does not broadcast to
    ``x[key]``'s shape ``target``, with NumPy's sentence (its own for a boolean mask of
    ``x``'s shape)."""
    vshape = tuple(vshape)
    if full_mask and len(vshape) <= 1:
        n = math.prod(vshape)
        text = (f"NumPy boolean array indexing assignment cannot assign {n} input values to "
                f"the {target[0]} output values where the mask is true")
    elif full_mask:
        text = ("NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                f"input, input has {len(vshape)} dimensions")
    else:
        text = (f"shape mismatch: value array of shape {shape_text(vshape)} could not be "
                f"broadcast to indexing result of shape {shape_text(target)}")
    raise broadcast_error(fn, f"a value broadcastable to shape {tuple(target)}", value, text)


def _shape_text(template, count):
    return tuple("n_true" if d == -1 and count is None else (count if d == -1 else d)
                 for d in template)


def _mask_update_shape(xshape, vshape, mshape, *, plan, op):
    """The ``shape`` rule of a mask update: ``x``'s shape where it runs on the buckets --
    one value (``x[mask] <op>= v``, ``v`` of one element), every axis of ``x`` taken whole
    -- else ``None`` (exact).  The mask is padded on the host, so one executable serves
    every array of a bucket."""
    pxshape, axes, _, _, _, _, b_at, target = plan
    if (pxshape != tuple(xshape) or target[b_at] != 1 or math.prod(vshape) != 1
            or not _whole(axes, pxshape)):
        return None
    return xshape


def _mask_update_bucket(xshape, vshape, mshape, *, plan, op):
    """The ``bucket`` rule of a mask update: the plan over the whole bucket of ``x``."""
    pxshape, _, first, rank, ints, p, b_at, target = plan
    xb = bucket_shape(pxshape)
    return {"plan": (xb, tuple((0, 1, n, False) for n in xb), first, rank, ints, p, b_at,
                     tuple(bucket_dim(n) for n in target))}


@kernel(static=("plan", "op"), shape=_mask_update_shape, bucket=_mask_update_bucket)
def _mask_update_kernel(x, v, mask, *, plan, op):
    xshape, axes, first, rank, ints, p, b_at, target = plan
    xe = lax.reshape(x, xshape)
    y = _basic.slice_region(xe, axes)
    mask = lax.reshape(mask, xshape[first:first + rank])
    adv = set(range(first, first + rank)) | {a for a, _ in ints}
    windows = [a for a in range(y.ndim) if a not in adv]
    v = _basic.broadcast_value(_basic.store_cast(v, x.dtype), target)
    gshape = tuple(y.shape[a] for a in windows[:p]) + (target[b_at],) + \
        tuple(y.shape[a] for a in windows[p:])
    v = lax.reshape(v, gshape)
    length = gshape[p]
    if length == 1:
        v = lax.reshape(v, gshape[:p] + (1,) * rank + gshape[p + 1:])
    else:
        pos = rank_of_true(lax.reshape(mask, (math.prod(mask.shape),)), _dt.default_index())
        pos = lax.clamp(_dt.default_index().type(0), pos, _dt.default_index().type(length - 1))
        v = gather_axis(v, lax.reshape(pos, mask.shape), p, wrap=False)
    labels = windows[:p] + list(range(first, first + rank)) + windows[p:] + [a for a, _ in ints]
    v = lax.reshape(v, tuple(v.shape) + (1,) * len(ints))
    perm = tuple(int(i) for i in np.argsort(labels))
    v = lax.transpose(v, perm)
    v = lax.broadcast_in_dim(v, y.shape, tuple(range(y.ndim)))
    cond = lax.broadcast_in_dim(mask, y.shape, tuple(range(first, first + rank)))
    for a, i in ints:
        cond = lax.bitwise_and(cond, lax.eq(lax.broadcasted_iota(_dt.default_index(), y.shape, a),
                                            lax.full(y.shape, i, _dt.default_index())))
    y = lax.select(cond, _apply(op, y, v), y)
    return lax.reshape(_basic.write_region(xe, axes, y), x.shape)
