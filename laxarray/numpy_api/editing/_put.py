"""Writing and reading by position or mask: place, put, put_along_axis, putmask, copyto,
extract, compress.

As in NumPy, ``place``/``put``/``put_along_axis``/``putmask``/``copyto`` (and
``fill_diagonal``, ``ufunc.at``) modify their first argument in place and return None:
a laxarray Array is rebound (a view writes through to the array it views), a NumPy array
is written into; a jax array is immutable (``ValueError``).  ``inplace=False`` (jax.numpy's
keyword) returns the updated array instead and leaves the input unchanged.
``extract``/``compress`` have data-dependent output lengths: exact eagerly,
``size=``/``fill_value=`` under ``jax.jit``.
"""

from __future__ import annotations

import math

import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import broadcast_error, fail, message, shape_text
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import (casts_same_kind, check_bool, check_choice, normalize_axis,
                                     check_int)
from laxarray.array_api._array import WRITE_LOCK, Array, wrap
from laxarray.array_api._convert import value_operand
from laxarray._core.numerics import cast_value, rank_of_true
from laxarray.array_api._calls import call
from laxarray.array_api._broadcast import broadcast_pair
from laxarray.array_api._array import check_writable
from laxarray.array_api.indexing_functions import gather_axis
from laxarray.array_api._convert import to_raw
from laxarray.array_api.searching import nonzero
from laxarray.array_api._indexing_advanced import canonical_fill
from laxarray.numpy_api.editing._insert import _D1, _DROP, _flat  # shared helpers
from laxarray.numpy_api import _docs


def _check_inplace(fn, inplace, target=None, argname="arr"):
    """Validate ``inplace``; with it true, ``target`` must be writable (before any work)."""
    check_bool(fn, inplace, "inplace")
    if inplace and target is not None:
        if isinstance(target, Array):
            check_writable(fn, target)
        elif not (isinstance(target, np.ndarray) and target.flags.writeable):
            fail(ValueError, fn, f"a laxarray or writable NumPy array for '{argname}' to "
                 "update in place (jax arrays are immutable: pass inplace=False and use "
                 "the result)", target)


def finish_in_place(inplace, target, out):
    """NumPy's in-place update of ``target`` by the new Array ``out`` (returns None), or
    ``out`` itself when ``inplace`` is false."""
    if not inplace:
        return out
    if isinstance(target, Array):
        with WRITE_LOCK:
            target._rebind(out)
    else:
        target[...] = np.asarray(out)
    return None


def _is_array(value):
    """Whether NumPy's in-place functions treat ``value`` as an array (checked by their
    casting rule) rather than a scalar or a list (converted to the target's dtype)."""
    return isinstance(value, (Array, np.ndarray, jax.Array)) or is_tracer(value)


def check_cast(fn, value, raw, dtype, casting, argname):
    """NumPy's ``TypeError`` ("Cannot cast array data from dtype('int64') to
    dtype('int32') according to the rule 'safe'") unless the values ``value`` (raw:
    ``raw``) cast to ``dtype`` under ``casting``; scalars join by kind (NEP 50)."""
    pytype = _dt.scalar_pytype(value)
    if pytype is not None:
        src, what = _dt.weak_promote(dtype, pytype), "scalar"
    else:
        src, what = raw.dtype, "array data"
    if src == dtype or casting == "unsafe":
        return
    ok = (casts_same_kind(src, dtype) if casting == "same_kind"
          else np.can_cast(src, dtype, casting=casting))
    if not ok:
        raise TypeError(message(fn, f"'{argname}' castable to {dtype} under casting="
                                    f"{casting!r}", src)
                        + f". Cannot cast {what} from {np.dtype(src)!r} to "
                          f"{np.dtype(dtype)!r} according to the rule {casting!r}")


def _cycle(vals, count):
    """``vals`` (1-d, non-empty) repeated cyclically to length ``count``."""
    m = vals.shape[0]
    reps = -(-count // m)
    out = lax.concatenate([vals] * reps, 0) if reps > 1 else vals
    return lax.slice(out, (0,), (count,))


def _put_picked(x, flat, m, vals, k):
    """``x`` (flattened: ``flat``) with each position where ``m`` is true set to ``vals[k]``:
    place's and putmask's common end (they differ in which value a position takes)."""
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                       start_index_map=(0,))
    picked = lax.gather(vals, lax.expand_dims(k, (1,)), dnums, (1,),
                        mode=lax.GatherScatterMode.CLIP)
    return lax.reshape(lax.select(m, picked, flat), x.shape)


@kernel(static=())
def _place_kernel(x, mask, vals):
    flat, m = _flat(x), _flat(mask)
    # the k-th True position (k = 0, 1, ...) takes vals[k % len(vals)]
    k = rank_of_true(m, _dt.default_index())
    k = lax.rem(lax.max(k, lax.full_like(k, 0)), lax.full_like(k, vals.shape[0]))
    return _put_picked(x, flat, m, vals, k)


@in_wide_mode
def place(arr, mask, vals, *, inplace=True):
    """Set the positions where ``mask`` is true to ``vals`` (cycled), in place.
    NumPy: numpy.place.

    In place as NumPy (returns None), or ``inplace=False``: the new array (see the module
    docstring).  ``mask`` may be traced.

    >>> import laxarray as lx
    >>> lx.place(lx.asarray([1, 2, 3, 4]), lx.asarray([True, False, True, True]), [0, 9],
    ...          inplace=False)
    Array([0, 2, 9, 0])
    """
    fn = "place"
    _check_inplace(fn, inplace, arr)
    x = to_raw(fn, arr, "arr")
    m = to_raw(fn, mask, "mask")
    if math.prod(m.shape) != math.prod(x.shape):
        fail(ValueError, fn, f"a 'mask' with {math.prod(x.shape)} elements like 'arr'", mask)
    m = lax.ne(m, lax.full_like(m, 0)) if m.dtype != np.bool_ else m
    raw = to_raw(fn, vals, "vals")
    if _is_array(vals):  # NumPy casts array values by the 'safe' rule
        check_cast(fn, vals, raw, x.dtype, "safe", "vals")
    v = _flat(cast_value(raw, x.dtype))
    if v.shape[0] == 0:
        if is_tracer(m) or bool(np.asarray(m).any()):
            fail(ValueError, fn, "non-empty 'vals' when 'mask' selects elements", vals)
        return finish_in_place(inplace, arr, wrap(x))
    return finish_in_place(inplace, arr, call(_place_kernel, x, m, v))


def _last_wins(idx):
    """``idx`` with every index that occurs again later replaced by -1 (dropped)."""
    n = idx.shape[0]
    srt, order = lax.sort((idx, lax.iota(_dt.default_index(), n)), num_keys=1, is_stable=True)
    last = lax.concatenate([lax.ne(lax.slice(srt, (1,), (n,)), lax.slice(srt, (0,), (n - 1,))),
                            lax.full((1,), True, np.bool_)], 0)
    keep = lax.scatter(lax.full((n,), False, np.bool_), lax.expand_dims(order, (1,)), last,
                       _D1, mode=_DROP)
    return lax.select(keep, idx, lax.full_like(idx, -1))


@kernel(static=("mode",))
def _put_kernel(a, ind, v, *, mode):
    flat = _flat(a)
    n = flat.shape[0]
    nn = lax.full_like(ind, n)
    if mode == "wrap":
        ind = lax.rem(lax.add(lax.rem(ind, nn), nn), nn)
    elif mode == "clip":
        ind = lax.clamp(lax.full_like(ind, 0), ind, lax.full_like(ind, n - 1))
    else:  # raise: checked eagerly; negative indices count from the end, others dropped
        ind = lax.select(lax.lt(ind, lax.full_like(ind, 0)), lax.add(ind, nn), ind)
    ind = _last_wins(ind)
    ind = lax.select(lax.lt(ind, lax.full_like(ind, 0)), lax.full_like(ind, n), ind)
    out = lax.scatter(flat, lax.expand_dims(ind, (1,)), v, _D1, mode=_DROP)
    return lax.reshape(out, a.shape)


@in_wide_mode
def put(a, ind, v, mode="raise", *, inplace=True):
    """Set the flat positions ``ind`` of ``a`` to ``v`` (cycled), in place. NumPy: numpy.put.

    In place as NumPy (returns None), or ``inplace=False``: the new array (see the module
    docstring).  ``mode``: ``'raise'`` (eagerly an
    out-of-range index raises ``IndexError``; traced, such an index is ignored), ``'wrap'``,
    ``'clip'``; static.  With repeated indices the last value wins, as in NumPy.
    """
    fn = "put"
    _check_inplace(fn, inplace, a, "a")
    check_choice(fn, mode, "mode", ("raise", "wrap", "clip"))
    x = to_raw(fn, a, "a")
    idx = to_raw(fn, ind, "ind")
    if _dt.kind_of(idx.dtype) not in "iu":
        fail(TypeError, fn, "integer indices for 'ind'", ind)
    idx = _flat(lax.convert_element_type(idx, _dt.default_index()))
    n = math.prod(x.shape)
    count = idx.shape[0]
    if count == 0:
        return finish_in_place(inplace, a, wrap(x))
    if n == 0:
        fail(IndexError, fn, "a non-empty 'a' to put values into", a)
    if mode == "raise" and not is_tracer(idx):
        vals = np.asarray(idx)
        if vals.min() < -n or vals.max() >= n:
            fail(IndexError, fn, f"indices in [{-n}, {n}) for 'ind'", ind)
    vv = _flat(cast_value(to_raw(fn, v, "v"), x.dtype))
    if vv.shape[0] == 0:
        return finish_in_place(inplace, a, wrap(x))
    return finish_in_place(inplace, a, call(_put_kernel, x, idx, _cycle(vv, count), mode=mode))


@kernel(static=("axis",))
def _put_along_axis_kernel(x, idx, v, *, axis):
    n = x.shape[axis]
    idx = lax.convert_element_type(idx, _dt.default_index())
    idx = lax.select(lax.lt(idx, lax.full_like(idx, 0)), lax.add(idx, lax.full_like(idx, n)),
                     idx)
    batch = tuple(d for d in range(x.ndim) if d != axis)
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(axis,),
        scatter_dims_to_operand_dims=(axis,), operand_batching_dims=batch,
        scatter_indices_batching_dims=batch)
    return lax.scatter(x, lax.expand_dims(idx, (idx.ndim,)), v, dnums, mode=_DROP)


@in_wide_mode
def put_along_axis(arr, indices, values, axis, inplace=True, *, mode=None):
    """Write ``values`` at ``indices`` along ``axis`` of ``arr`` (the inverse of
    ``take_along_axis``), in place. NumPy: numpy.put_along_axis.

    In place as NumPy (returns None), or ``inplace=False``: the new array (see the module
    docstring).  ``axis=None`` works on the
    flattened array, as in NumPy.  Out-of-range indices raise ``IndexError`` eagerly and
    are dropped when traced (``mode`` is accepted for jax.numpy compatibility: only
    ``None``/``'drop'``).

    >>> import laxarray as lx
    >>> lx.put_along_axis(lx.zeros((2, 2)), lx.asarray([[1], [0]]), 5.0, axis=1,
    ...                   inplace=False)
    Array([[0., 5.],
           [5., 0.]])
    """
    fn = "put_along_axis"
    _check_inplace(fn, inplace, arr)
    if mode not in (None, "drop"):
        fail(ValueError, fn, "mode None or 'drop'", mode)
    x = to_raw(fn, arr, "arr")
    idx = to_raw(fn, indices, "indices")
    if _dt.kind_of(idx.dtype) not in "iu":
        fail(TypeError, fn, "an integer array for 'indices'", indices)
    shape = x.shape
    if axis is None:
        if idx.ndim != 1:
            fail(ValueError, fn, "one-dimensional 'indices' when axis is None", indices)
        x, ax = _flat(x), 0
    else:
        ax = normalize_axis(fn, axis, x.ndim)
    if idx.ndim != x.ndim:
        fail(ValueError, fn, f"'indices' of rank {x.ndim} like 'arr'", indices)
    bshape = []
    for d in range(x.ndim):
        if d == ax:
            bshape.append(idx.shape[d])
            continue
        s = {x.shape[d], idx.shape[d]} - {1}
        if len(s) > 1 or (s and x.shape[d] not in s and x.shape[d] != 1):
            fail(ValueError, fn, "'indices' broadcastable with 'arr' off 'axis'", indices)
        if idx.shape[d] not in (1, x.shape[d]):
            fail(ValueError, fn, "'indices' broadcastable to 'arr' off 'axis'", indices)
        bshape.append(x.shape[d])
    bshape = tuple(bshape)
    n = x.shape[ax]
    if not is_tracer(idx) and math.prod(idx.shape):
        vals = np.asarray(idx)
        if vals.min() < -n or vals.max() >= n:
            fail(IndexError, fn, f"indices in [{-n}, {n}) along axis {ax}", indices)
    v = cast_value(to_raw(fn, values, "values"), x.dtype)
    try:
        np.broadcast_shapes(tuple(v.shape), bshape)
    except ValueError:
        fail(ValueError, fn, f"'values' broadcastable to {bshape}", values)
    if np.broadcast_shapes(tuple(v.shape), bshape) != bshape:
        fail(ValueError, fn, f"'values' broadcastable to {bshape}", values)
    nd = len(bshape)
    idx = lax.broadcast_in_dim(idx, bshape, tuple(range(nd)))
    v = lax.broadcast_in_dim(v, bshape, tuple(range(nd - v.ndim, nd)))
    out = call(_put_along_axis_kernel, x, idx, v, axis=ax)
    out = wrap(lax.reshape(out._value, shape)) if axis is None else out
    return finish_in_place(inplace, arr, out)


@kernel(static=())
def _putmask_kernel(x, mask, vals):
    flat, m = _flat(x), _flat(mask)
    n = flat.shape[0]
    # NumPy's rule: position i takes values[i % len(values)] (not the k-th selected one)
    k = lax.rem(lax.iota(_dt.default_index(), n), lax.full((n,), vals.shape[0], _dt.default_index()))
    return _put_picked(x, flat, m, vals, k)


@in_wide_mode
def putmask(a, mask, values):
    """Set ``a`` to ``values`` where ``mask`` is true, in place (position ``i`` takes
    ``values[i % len(values)]``); returns None. NumPy: numpy.putmask.

    ``a`` is a laxarray Array (rebound; a view writes through) or a NumPy array."""
    fn = "putmask"
    _check_inplace(fn, True, a, "a")
    x = to_raw(fn, a, "a")
    m = to_raw(fn, mask, "mask")
    if tuple(m.shape) != tuple(x.shape):
        fail(ValueError, fn, f"a 'mask' of the shape of 'a' {tuple(x.shape)}", mask)
    m = lax.ne(m, lax.full_like(m, 0)) if m.dtype != np.bool_ else m
    raw = to_raw(fn, values, "values")
    if _is_array(values):  # NumPy casts array values by the 'safe' rule
        check_cast(fn, values, raw, x.dtype, "safe", "values")
    v = _flat(raw)
    if v.shape[0] == 0:
        if is_tracer(m) or bool(np.asarray(m).any()):
            fail(ValueError, fn, "non-empty 'values' when 'mask' selects elements", values)
        return None
    v = cast_value(v, x.dtype)
    return finish_in_place(True, a, call(_putmask_kernel, x, m, v))


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


@kernel(static=("dtype",))
def _copyto_kernel(dst, src, where, *, dtype):
    shape = dst.shape
    nd = len(shape)

    def bcast(v):
        return lax.broadcast_in_dim(v, shape, tuple(range(nd - v.ndim, nd)))
    return lax.select(bcast(where), bcast(cast_value(src, dtype)), dst)


@in_wide_mode
def copyto(dst, src, casting="same_kind", where=True):
    """Copy ``src`` (broadcast) into ``dst`` where ``where`` is true, in place; returns
    None. NumPy: numpy.copyto.

    ``dst`` is a laxarray Array (rebound; a view writes through) or a NumPy array;
    ``casting`` as NumPy's (Python scalars are weak, NEP 50)."""
    fn = "copyto"
    check_choice(fn, casting, "casting", _CASTINGS)
    _check_inplace(fn, True, dst, "dst")
    d = to_raw(fn, dst, "dst")
    if _dt.scalar_pytype(src) is not None:
        check_cast(fn, src, None, d.dtype, casting, "src")
        s = value_operand(fn, src, d.dtype, "src")
    else:
        s = to_raw(fn, src, "src")
        check_cast(fn, src, s, d.dtype, casting, "src")
    w = to_raw(fn, where, "where")
    if w.dtype != np.bool_:
        fail(TypeError, fn, "a bool 'where'", where)
    for name, v, what in (("src", s, "input array"), ("where", w, "where mask")):
        if broadcast_pair(tuple(v.shape), tuple(d.shape)) != tuple(d.shape):
            raise broadcast_error(fn, f"'{name}' broadcastable to the shape of 'dst' "
                                  f"{tuple(d.shape)}", tuple(v.shape),
                                  f"could not broadcast {what} from shape "
                                  f"{shape_text(v.shape)} into shape {shape_text(d.shape)}")
    return finish_in_place(True, dst, call(_copyto_kernel, d, s, w, dtype=d.dtype))


def _mask_positions(fn, m, size, fill_value):
    """Positions where the 1-d bool ``m`` is true: exact eagerly, else ``size`` of them."""
    if size is None:
        if is_tracer(m):
            fail(ValueError, fn, "size= under jax.jit/vmap (the result length depends on "
                 "the values; pass size=N and optionally fill_value=)", size)
        return np.flatnonzero(np.asarray(m)), None
    pos = nonzero(wrap(m), size=size, fill_value=0)[0]._value
    count = lax.reduce_sum(lax.convert_element_type(m, _dt.default_index()), (0,))
    return pos, count


@kernel(static=("axis", "fill_value"))
def _pick_kernel(x, pos, count, *, axis, fill_value):
    out = gather_axis(x, pos, axis, wrap=False)
    if count is None:
        return out
    k = lax.broadcasted_iota(_dt.default_index(), out.shape, axis)
    fill = lax.full(out.shape, 0 if fill_value is None else fill_value, x.dtype)
    return lax.select(lax.lt(k, lax.full_like(k, count)), out, fill)


def _pick(fn, x, m, axis, size, fill_value):
    if size is not None:
        size = check_int(fn, size, "size", minimum=0)
    if fill_value is not None:
        if size is None:
            fail(ValueError, fn, "fill_value only together with size=", fill_value)
        fill_value = canonical_fill(fn, fill_value, x.dtype)
    pos, count = _mask_positions(fn, m, size, fill_value)
    if count is None and pos.size == 0:
        shape = tuple(0 if d == axis else s for d, s in enumerate(x.shape))
        return wrap(lax.full(shape, 0, x.dtype))
    if x.shape[axis] == 0:
        shape = tuple(size if d == axis else s for d, s in enumerate(x.shape))
        return wrap(lax.full(shape, 0 if fill_value is None else fill_value, x.dtype))
    return call(_pick_kernel, x, pos, count, axis=axis, fill_value=fill_value)


_SELECT_PARAMETERS_RETURNS = _docs.compose("""
{size}
fill_value : scalar, optional
    The padding; default 0.

Returns
-------
Array""", size=_docs.SIZE)


_SELECT_RAISES = _docs.compose("""
Raises
------
{type_error_operand}
{size_error}""", type_error_operand=_docs.TYPE_ERROR_OPERAND, size_error=_docs.SIZE_ERROR)


@in_wide_mode
@fill(select_parameters_returns=_SELECT_PARAMETERS_RETURNS, select_raises=_SELECT_RAISES)
def extract(condition, arr, *, size=None, fill_value=None):
    """Return the elements of an array where a condition is non-zero.

    Array API: (not in the standard). NumPy: numpy.extract.

    Parameters
    ----------
    condition : array_like
        Flattened; non-zero selects.
    arr : array_like
        The input; flattened.
    {select_parameters_returns}
        The selected elements, 1-D.

    {select_raises}

    Notes
    -----
    Static under ``jax.jit``: ``size``, ``fill_value``.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.extract(a > 1, a)
    Array([2, 3, 4])
    >>> la.extract(a > 1, a, size=4)
    Array([2, 3, 4, 0])
    """
    fn = "extract"
    x = _flat(to_raw(fn, arr, "arr"))
    c = _flat(to_raw(fn, condition, "condition"))
    c = lax.ne(c, lax.full_like(c, 0)) if c.dtype != np.bool_ else c
    n = x.shape[0]
    if c.shape[0] > n:
        if is_tracer(c) or bool(np.asarray(c)[n:].any()):
            fail(IndexError, fn, f"'condition' true only within the {n} elements of 'arr'",
                 condition)
        c = lax.slice(c, (0,), (n,))
    elif c.shape[0] < n:
        c = lax.pad(c, False, [(0, n - c.shape[0], 0)])
    return _pick(fn, x, c, 0, size, fill_value)


@in_wide_mode
@fill(array=_docs.ARRAY, axis_flat=_docs.AXIS_FLAT,
      select_parameters_returns=_SELECT_PARAMETERS_RETURNS, select_raises=_SELECT_RAISES,
      axis_error_axis=_docs.AXIS_ERROR_AXIS)
def compress(condition, a, axis=None, *, size=None, fill_value=None):
    """Return the slices of an array along an axis where a condition is true.

    Array API: (not in the standard). NumPy: numpy.compress.

    Parameters
    ----------
    condition : array_like of bool
        1-D; shorter than the axis counts as False beyond its end.
    {array}
    {axis_flat}
    {select_parameters_returns}
        The selected slices.

    {select_raises}
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: ``axis``, ``size``, ``fill_value``.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.compress(la.asarray([False, True]), a, axis=0)
    Array([[3, 4]])
    >>> la.compress(la.asarray([False, True]), a, axis=1, size=2, fill_value=-1)
    Array([[ 2, -1],
           [ 4, -1]])
    """
    fn = "compress"
    x = to_raw(fn, a, "a")
    c = to_raw(fn, condition, "condition")
    if c.ndim != 1:
        fail(ValueError, fn, "a one-dimensional 'condition'", condition)
    c = lax.ne(c, lax.full_like(c, 0)) if c.dtype != np.bool_ else c
    if axis is None:
        x, ax = _flat(x), 0
    else:
        ax = normalize_axis(fn, axis, x.ndim)
    n = x.shape[ax]
    if c.shape[0] > n:
        if is_tracer(c) or bool(np.asarray(c)[n:].any()):
            fail(IndexError, fn, f"'condition' true only within the length {n} of the axis",
                 condition)
        c = lax.slice(c, (0,), (n,))
    elif c.shape[0] < n:
        c = lax.pad(c, False, [(0, n - c.shape[0], 0)])
    return _pick(fn, x, c, ax, size, fill_value)
