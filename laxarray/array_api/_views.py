"""Views: handles that share data with a base array, as NumPy's views do.

What NumPy returns as a view is a view here: basic indexing (unless every index is an
integer -- NumPy returns a scalar, a copy, then), ``reshape``/``ravel`` where NumPy needs no
copy, ``permute_dims`` and the transposes, ``squeeze``/``expand_dims``, ``.real``/``.imag``
of complex arrays; ``broadcast_to`` and ``diagonal`` are read-only views (writing raises
``ValueError``, as NumPy).  Copies (``copy=True``, advanced indexing, ``flatten``) stay
independent.

A view is an ``Array`` whose ``_view`` is a :class:`ViewInfo`: its *root* (the array that
owns the data; never a view: views of views compose), the chain of view operations from the
root (static, hashable) with their dynamic arguments (index params), the view's cached value
and the root value it was computed from.  A view's own ``_v``/``_pad`` slots stay ``None``,
so every read takes this module's path (the ``_view`` slot holds the state this module
defines, and it reads that slot; the other slots are ``_array``'s, reached through the
Array's methods):

* **read**: if the root still holds the value the cache was computed from (identity), the
  cache is the answer; otherwise one kernel recomputes the view from the root;
* **write** (``v[key] = w``, ``v += w``, ``v.sort()``): the view's new value is computed as
  for any array, then one kernel writes it back into the root -- each operation of the chain
  inverted, in reverse -- and the root is rebound; every other view of the root sees the new
  value on its next read.  ``v[key] = w`` of a basic key is one kernel in all
  (:func:`update_view`: the chain forward, the update, the chain inverted), which gives the
  root and the view's new value together.

The layout of a view over its root's memory (byte offset and strides, as NumPy's) is kept
too: it decides whether a reshape can be a view (NumPy's rule) and what ``Array.base`` is.
Plain arrays that never take part in a view keep their fast paths (``_view is None``).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api import elementwise_math as _em
from laxarray.array_api._array import WRITE_LOCK, check_writable, wrap, wrap_view
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._index_plan import _getitem_kernel, _setitem_kernel


class ViewInfo:
    """What makes an Array a view (see the module docstring)."""

    __slots__ = ("root", "chain", "dyn", "dtype", "cache", "seen", "offset", "strides",
                 "readonly")

    def value(self, view):
        """The view's current cached Array (recomputed if the root was rebound)."""
        root = self.root
        seen_v, seen_pad = self.seen
        v, pad = root._state()
        if v is not seen_v or pad is not seen_pad:
            # the root only filling its other cache slot is no change (a padded root cut to
            # its exact value, an exact one padded); a rebind replaces the slots' objects
            unchanged = (v is seen_v and seen_pad is None) or (pad is seen_pad and seen_v is None)
            if not unchanged:
                out = _view_read_kernel(root._value, *self.dyn, chain=self.chain)
                self.cache = wrap(out)
            self.seen = root._state()
        return self.cache


def c_strides(shape, itemsize):
    """Byte strides of a C-contiguous array of ``shape``."""
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def layout_of(x):
    """``(byte offset, byte strides)`` of ``x`` over its root's memory."""
    info = x._view
    if info is None:
        return 0, c_strides(tuple(x.shape), x.dtype.itemsize)
    return info.offset, info.strides


def root_of(x):
    """The array that owns ``x``'s data (``x`` itself unless it is a view)."""
    info = x._view
    return x if info is None else info.root


def make_view(parent, op, dyn, result, layout, readonly=False):
    """A view Array of ``parent`` by one more operation ``op`` (static; ``dyn``: its dynamic
    argument or ``None``), whose current value is the Array ``result``."""
    info = ViewInfo()
    pinfo = parent._view
    if pinfo is None:
        info.root, info.chain, info.dyn = parent, (op,), ((dyn,) if dyn is not None else ())
        info.readonly = readonly
    else:
        info.root, info.chain = pinfo.root, pinfo.chain + (op,)
        info.dyn = pinfo.dyn + ((dyn,) if dyn is not None else ())
        info.readonly = readonly or pinfo.readonly
    root = info.root
    info.dtype = result.dtype
    info.cache = result
    info.seen = root._state()
    info.offset, info.strides = layout
    return wrap_view(info, tuple(result.shape))


def part_view(x, part):
    """``x.real`` / ``x.imag``: a view of a complex array's part (NumPy's); of a real array,
    ``.real`` is a view of ``x`` and ``.imag`` new zeros (as NumPy, whose zeros are
    read-only)."""
    if x.dtype.kind != "c" and part == "imag":
        # new zeros, read-only as NumPy's: a view of their own, not of x (they share no
        # memory with x or its base)
        zeros = _em.imag(x)
        return make_view(zeros, ("reshape", tuple(zeros.shape)), None, wrap(zeros._value),
                         layout_of(zeros), readonly=True)
    offset, strides = layout_of(x)
    if x.dtype.kind != "c":
        return make_view(x, ("reshape", tuple(x.shape)), None, wrap(x._value),
                         (offset, strides))
    out = _em.real(x) if part == "real" else _em.imag(x)
    if part == "imag":
        offset += x.dtype.itemsize // 2
    return make_view(x, (part,), None, out, (offset, strides))


def dtype_view(x, dtype):
    """``x.view(dtype)``: the same bytes read as ``dtype`` (NumPy's ``ndarray.view``); with a
    different item size the last axis (contiguous) grows or shrinks by the ratio."""
    dtype = _dt.canonicalize_dtype("Array.view", dtype, "dtype")
    old, new = x.dtype.itemsize, dtype.itemsize
    offset, strides = layout_of(x)
    shape = tuple(x.shape)
    if old != new:
        if not shape or (strides[-1] != old and shape[-1] != 1):
            fail_text(ValueError, "Array.view", "to change the item size, the last axis must "
                      "be contiguous")
        if (shape[-1] * old) % new:
            fail_text(ValueError, "Array.view", f"the last axis ({shape[-1]} x {old} bytes) "
                      f"must divide into items of {new} bytes")
        shape = shape[:-1] + (shape[-1] * old // new,)
        strides = strides[:-1] + (new,)
    op = ("bitcast", x.dtype, dtype, shape)
    out = wrap(_view_read_kernel(x._value, chain=(op,)))
    return make_view(x, op, None, out, (offset, strides))


def _bitcast(x, to, shape):
    """``x``'s bytes as ``to`` in ``shape`` (the last axis rescaled by the item sizes)."""
    src = x.dtype
    if src == to:
        return x
    if src.kind == "c" and to.itemsize * 2 == src.itemsize and to.kind == "f":
        parts = lax.concatenate([lax.expand_dims(lax.real(x), (x.ndim,)),
                                 lax.expand_dims(lax.imag(x), (x.ndim,))], x.ndim)
        return lax.reshape(parts, shape)
    if to.kind == "c" and src.itemsize * 2 == to.itemsize and src.kind == "f":
        pairs = lax.reshape(x, shape + (2,))
        return lax.complex(lax.index_in_dim(pairs, 0, -1, False),
                           lax.index_in_dim(pairs, 1, -1, False))
    if src == np.bool_ or to == np.bool_:
        mid = lax.convert_element_type(x, np.uint8) if src == np.bool_ else x
        out = _bitcast(mid, np.dtype(np.uint8) if to == np.bool_ else to, shape)
        return lax.ne(out, lax.full_like(out, 0)) if to == np.bool_ else out
    if src.itemsize > to.itemsize:  # lax adds a trailing axis of the ratio
        return lax.reshape(lax.bitcast_convert_type(x, to), shape)
    if src.itemsize < to.itemsize:
        ratio = to.itemsize // src.itemsize
        return lax.bitcast_convert_type(lax.reshape(x, shape + (ratio,)), to)
    return lax.bitcast_convert_type(x, to)


def diagonal_view(x, out, offset, axis1, axis2):
    """``out`` (the diagonal of ``x`` over ``axis1``/``axis2``, appended last) as NumPy's
    read-only view of ``x``."""
    start, strides = layout_of(x)
    s1, s2 = strides[axis1], strides[axis2]
    start += offset * s2 if offset >= 0 else -offset * s1
    rest = tuple(s for i, s in enumerate(strides) if i not in (axis1, axis2))
    return make_view(x, ("diagonal", offset, axis1, axis2), None, out,
                     (start, rest + (s1 + s2,)), readonly=True)


# ---- layouts --------------------------------------------------------------------------

def index_layout(x, key_sources, axes):
    """The layout of ``x[key]``: ``axes`` from ``basic_plan``, ``key_sources`` one entry per
    result axis (the axis of ``x`` it comes from, or ``None`` for a new axis)."""
    offset, strides = layout_of(x)
    region = []
    for (start, step, count, _is_int), s in zip(axes, strides):
        offset += start * s if count else 0
        region.append(s * step)
    return offset, tuple(0 if a is None else region[a] for a in key_sources)


def key_sources(key, ndim):
    """For a basic key: per result axis, the source axis of ``x`` (``None`` for ``None``)."""
    if not isinstance(key, tuple):
        key = (key,)
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if not any(k is Ellipsis for k in key):
        key = key + (Ellipsis,)
    out, axis = [], 0
    for k in key:
        if k is None:
            out.append(None)
        elif k is Ellipsis:
            for _ in range(ndim - used):
                out.append(axis)
                axis += 1
        elif isinstance(k, slice):
            out.append(axis)
            axis += 1
        else:
            axis += 1
    return tuple(out)


def reshape_strides(shape, strides, new_shape):
    """Strides that lay ``new_shape`` over the memory of (``shape``, ``strides``) in C order,
    or ``None`` where NumPy would need a copy (its no-copy reshape rule)."""
    if math.prod(shape) == 0:
        return c_strides(new_shape, 1) if not new_shape else tuple(0 for _ in new_shape)
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    new = [n for n in new_shape]
    out = [0] * len(new)
    oi, ni = 0, 0
    while oi < len(old) and ni < len(new):
        if new[ni] == 1:
            ni += 1
            continue
        # grow a group of old axes and one of new axes until their sizes agree
        o_end, n_end = oi + 1, ni + 1
        o_size, n_size = old[oi][0], new[ni]
        while o_size != n_size:
            if o_size < n_size:
                o_size *= old[o_end][0]
                o_end += 1
            else:
                n_size *= new[n_end]
                n_end += 1
        for k in range(oi, o_end - 1):  # the old group must be contiguous in C order
            if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                return None
        step = old[o_end - 1][1]
        for k in range(n_end - 1, ni - 1, -1):
            out[k] = step
            step *= new[k]
        oi, ni = o_end, n_end
    for k in range(len(new)):
        if new[k] == 1:
            out[k] = out[k + 1] * new[k + 1] if k + 1 < len(new) else (
                strides[-1] if strides else 1)
    return tuple(out)


# ---- the read and write kernels --------------------------------------------------------

def _forward(op, x, dyn):
    kind = op[0]
    if kind == "index":
        return _getitem_kernel.fn(x, dyn, plan=op[1], out_shape=op[2])
    if kind == "reshape":
        return lax.reshape(x, op[1])
    if kind == "transpose":
        return lax.transpose(x, op[1])
    if kind == "real":
        return lax.real(x)
    if kind == "imag":
        return lax.imag(x)
    if kind == "broadcast":
        nd = len(op[1])
        return lax.broadcast_in_dim(x, op[1], tuple(range(nd - x.ndim, nd)))
    if kind == "bitcast":
        return _bitcast(x, op[2], op[3])
    # diagonal (a read-only view: forward only)
    _, offset, a1, a2 = op
    rest = tuple(i for i in range(x.ndim) if i not in (a1, a2))
    return diagonal(lax.transpose(x, rest + (a1, a2)), offset)


def _backward(op, parent, new, dyn):
    kind = op[0]
    if kind == "index":
        return _setitem_kernel.fn(parent, new, dyn, plan=op[1], out_shape=op[2],
                                  dtype=parent.dtype, op="set")
    if kind == "reshape":
        return lax.reshape(new, parent.shape)
    if kind == "transpose":
        return lax.transpose(new, tuple(int(i) for i in np.argsort(op[1])))
    if kind == "bitcast":
        return _bitcast(new, op[1], tuple(parent.shape))
    new = lax.convert_element_type(new, lax.real(parent).dtype)
    if kind == "real":
        return lax.complex(new, lax.imag(parent))
    return lax.complex(lax.real(parent), new)


def _split(chain, dyn):
    it = iter(dyn)
    return [next(it) if op[0] == "index" else None for op in chain]


@kernel(static=("chain",))
def _view_read_kernel(root, *dyn, chain):
    x = root
    for op, d in zip(chain, _split(chain, dyn)):
        x = _forward(op, x, d)
    return x


@kernel(static=("chain",))
def _view_write_kernel(root, new, *dyn, chain):
    ds = _split(chain, dyn)
    values = [root]
    for op, d in zip(chain[:-1], ds[:-1]):
        values.append(_forward(op, values[-1], d))
    for op, parent, d in zip(reversed(chain), reversed(values), reversed(ds)):
        new = _backward(op, parent, new, d)
    return new


@kernel(static=("chain", "plan", "out_shape", "op"))
def _view_update_kernel(root, value, params, *dyn, chain, plan, out_shape, op):
    """``view[key] <op>= value`` for a basic key, in one program: the view read from the root
    (its chain forward), updated as ``_setitem_kernel`` updates an array, written back into
    the root (the chain inverted, in reverse).  Returns the new root and the view's new
    value (which the view caches: no read kernel for its next read)."""
    ds = _split(chain, dyn)
    values = [root]
    for step, d in zip(chain, ds):
        values.append(_forward(step, values[-1], d))
    view = values.pop()
    new = _setitem_kernel.fn(view, value, params, plan=plan, out_shape=out_shape,
                             dtype=view.dtype, op=op)
    out = new
    for step, parent, d in zip(reversed(chain), reversed(values), reversed(ds)):
        out = _backward(step, parent, out, d)
    return out, new


def update_view(view, value, params, plan, out_shape, op):
    """Write ``view[key] <op>= value`` (a basic key: its dynamic ``plan``/``params``, result
    shape ``out_shape``; ``value`` checked and raw) through to the view's root with one kernel
    (not an update of the view's value, then a write-back: two); the root is rebound and the
    view caches its new value.  The caller checked that the view is writable."""
    info = view._view
    with WRITE_LOCK:
        root = info.root
        out, new = _view_update_kernel(root._value, value, params, *info.dyn,
                                       chain=info.chain, plan=plan, out_shape=out_shape,
                                       op=op)
        root._rebind(wrap(out))
        info.cache = wrap(new)
        info.seen = root._state()


def write_view(view, new):
    """Rebind the view ``view`` to the Array ``new`` (its shape and dtype): one kernel writes
    it back into the root, which is rebound; the view caches ``new``."""
    info = view._view
    check_writable("Array.__setitem__", view)
    with WRITE_LOCK:
        root = info.root
        value = new._value
        if value.dtype != info.dtype:
            fail(TypeError, "Array.__setitem__", f"a value of dtype {info.dtype}", new)
        out = _view_write_kernel(root._value, value, *info.dyn, chain=info.chain)
        root._rebind(wrap(out))
        info.cache = new
        info.seen = root._state()


def diagonal(x, offset=0):
    """The ``offset`` diagonal of the last two axes: ``(..., K)``; exact for every dtype
    (a strided slice of the flattened matrices, so signed zeros and NaNs pass through)."""
    m, n = x.shape[-2], x.shape[-1]
    start_r, start_c = (0, offset) if offset >= 0 else (-offset, 0)
    k = max(0, min(m - start_r, n - start_c))
    batch = tuple(x.shape[:-2])
    if k == 0:
        return lax.full(batch + (0,), 0, x.dtype)
    flat = lax.reshape(x, batch + (m * n,))
    start = start_r * n + start_c
    nb = len(batch)
    return lax.slice(flat, (0,) * nb + (start,), batch + (start + (k - 1) * (n + 1) + 1,),
                     (1,) * nb + (n + 1,))


provide(write_view)
