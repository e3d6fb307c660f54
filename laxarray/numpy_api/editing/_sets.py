"""NumPy's ``unique`` and the 1-d set routines (``intersect1d``, ``union1d``, ``setdiff1d``,
``setxor1d``), on the standard's sort-based unique kernel (``laxarray.array_api.sets``).

Output lengths depend on the data: eager calls are exact; under ``jax.jit``/``vmap`` pass
``size=N`` (static): results then have length ``N``, the first ``min(N, count)`` entries
are exact and the rest padding -- values hold ``fill_value`` (default: the smallest value of
the result, as jax.numpy does), indices and counts hold 0.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import rank_of_true
from laxarray._core.validate import check_bool, check_int, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api._convert import to_raw
from laxarray.array_api._indexing_advanced import canonical_fill
from laxarray.array_api.sets import fill_past, fit_length, unique_kernel, isin
from laxarray.array_api.sorting import sort_keys
from laxarray.numpy_api import _docs

_DROP = lax.GatherScatterMode.FILL_OR_DROP



def _size_args(fn, traced, size, fill_value, dtype):
    """``(exact, size, fill)``: check ``size``/``fill_value`` and canonicalise them."""
    if size is None:
        if traced:
            fail(ValueError, fn, "size= under jax.jit/vmap (the result length depends on the "
                 "values; pass size=N and optionally fill_value=)", size)
        if fill_value is not None:
            fail(ValueError, fn, "fill_value only together with size=", fill_value)
        return True, None, None
    size = check_int(fn, size, "size", minimum=0)
    if fill_value is not None:
        fill_value = canonical_fill(fn, fill_value, dtype)
    return False, size, fill_value


def _unique_np_host(x, *, size, fill_value, equal_nan):
    """The traced host path: the standard's unique kernel's (NumPy in a host call)."""
    return _unique_np(unique_kernel.on_host, x, size, fill_value, equal_nan)


_UNIQUE_NP_HOST = HostPath(
    functions=("unique", "intersect1d", "union1d", "setdiff1d", "setxor1d"),
    traced=_unique_np_host, grad="none (values are not differentiated)",
    reason="as the `unique_*` family: the lax path sorts with XLA's CPU sort; no eager "
           "bypass yet (the kernel is compiled with its host call)")


@kernel(static=("size", "fill_value", "equal_nan"), host=_UNIQUE_NP_HOST)
def _unique_np_kernel(x, *, size, fill_value, equal_nan):
    return _unique_np(unique_kernel.run_xla, x, size, fill_value, equal_nan)


def _unique_np(unique, x, size, fill_value, equal_nan):
    """NumPy's ``unique`` (NaNs one value with ``equal_nan``) from the standard's unique
    kernel ``unique`` (its host path or its lax body)."""
    n = math.prod(x.shape)
    values, indices, inverse, counts, k = unique(x, size=n, fill_value=None, want="all")
    if equal_nan and _dt.kind_of(x.dtype) in "fc":
        pos = lax.iota(_dt.default_index(), n)
        isn = lax.bitwise_and(lax.lt(pos, lax.full_like(pos, k)), lax.ne(values, values))
        n_nan = lax.reduce_sum(lax.convert_element_type(isn, _dt.default_index()), (0,))
        nn = lax.sub(k, n_nan)
        has = lax.gt(n_nan, lax.full_like(n_nan, 0))
        nan_total = lax.reduce_sum(lax.select(isn, counts, lax.full_like(counts, 0)), (0,))
        at_nn = lax.eq(pos, lax.full_like(pos, nn))
        counts = lax.select(lax.lt(pos, lax.full_like(pos, nn)), counts,
                            lax.select(at_nn, lax.full_like(counts, nan_total),
                                       lax.full_like(counts, 0)))
        k = lax.add(nn, lax.convert_element_type(has, _dt.default_index()))
        inverse = lax.min(inverse, lax.full_like(inverse, nn))
    if size is None:
        size = n
    pos = lax.iota(_dt.default_index(), size)
    live = lax.lt(pos, lax.full_like(pos, k))
    values = fill_past(fit_length(values, size), k, fill_value)
    indices = lax.select(live, fit_length(indices, size), lax.full((size,), 0, _dt.default_index()))
    counts = lax.select(live, fit_length(counts, size), lax.full((size,), 0, _dt.default_index()))
    return values, indices, inverse, counts, k


@kernel(static=("size", "fill_value"))
def _unique_rows_kernel(x, *, size, fill_value):
    """Unique rows of the 2-d ``x`` in lexicographic order (NumPy's ``unique(axis=...)``)."""
    n, m = x.shape
    iota = lax.iota(_dt.default_index(), n)
    keys = []
    for j in range(m):
        keys.extend(sort_keys(lax.index_in_dim(x, j, 1, keepdims=False), False))
    perm = lax.sort(tuple(keys) + (iota,), is_stable=True, num_keys=len(keys))[-1] \
        if keys else iota
    dnums = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                       start_index_map=(0,))
    rows = lax.gather(x, lax.expand_dims(perm, (1,)), dnums, (1, m),
                      mode=lax.GatherScatterMode.CLIP) if n else x
    if n:
        diff = lax.ne(lax.slice_in_dim(rows, 1, n, axis=0), lax.slice_in_dim(rows, 0, n - 1,
                                                                             axis=0))
        differs = lax.reduce_or(diff, (1,)) if m else lax.full((n - 1,), False, np.bool_)
        new = lax.concatenate([lax.full((1,), True, np.bool_), differs], 0)
    else:
        new = lax.full((0,), True, np.bool_)
    gid = rank_of_true(new, _dt.default_index())
    k = lax.reduce_sum(lax.convert_element_type(new, _dt.default_index()), (0,))
    head = lax.select(new, gid, lax.full_like(gid, size))
    sdn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,))
    values = lax.scatter(lax.full((size, m), 0, x.dtype), lax.expand_dims(head, (1,)), rows,
                         sdn, mode=_DROP)
    d1 = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    indices = lax.scatter(lax.full((size,), 0, _dt.default_index()), lax.expand_dims(head, (1,)), perm,
                          d1, mode=_DROP)
    counts = lax.scatter_add(lax.full((size,), 0, _dt.default_index()), lax.expand_dims(gid, (1,)),
                             lax.full((n,), 1, _dt.default_index()), d1, mode=_DROP)
    inverse = lax.scatter(lax.full((n,), 0, _dt.default_index()), lax.expand_dims(perm, (1,)), gid, d1,
                          mode=_DROP)
    values = fill_past(values, k, fill_value)
    return values, indices, inverse, counts, k


@in_wide_region
@fill(axis_error_axis=_docs.AXIS_ERROR_AXIS)
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True, size=None, fill_value=None):
    """Find the sorted unique elements of an array (or unique sub-arrays along an axis).

    Array API: (not in the standard). NumPy: numpy.unique.

    Parameters
    ----------
    ar : array_like
        The input array; flattened unless ``axis`` is given.
    return_index : bool, optional
        Also return the index of each unique value's first occurrence.
    return_inverse : bool, optional
        Also return the indices that rebuild ``ar`` from the unique values (of ``ar``'s
        shape for ``axis=None``, else of its length along ``axis``).
    return_counts : bool, optional
        Also return each unique value's count.
    axis : int, optional
        Find unique sub-arrays along this axis; default None.
    equal_nan : bool, optional
        Count all NaNs as one value (NumPy's default, True); with ``axis``, rows with NaNs
        stay distinct, as in NumPy.
    sorted : bool, optional
        Accepted; the result is sorted anyway.
    size : int, optional
        The static number of unique values to return, required under ``jax.jit``: padded
        with ``fill_value`` or truncated (as jax.numpy's).
    fill_value : scalar, optional
        The padding; default the smallest unique value.

    Returns
    -------
    Array or tuple of Array
        The unique values, then the requested index, inverse and count arrays, in that order.

    Raises
    ------
    TypeError
        If ``ar`` is not array_like.
    ValueError
        Under ``jax.jit`` without ``size``, or ``fill_value`` without ``size``.
    {axis_error_axis}

    Notes
    -----
    Static under ``jax.jit``: the flags, ``axis``, ``equal_nan``, ``size``, ``fill_value``.

    With ``axis=None`` on the CPU it takes the CPU host path: NumPy's sort and count in a
    host call, eagerly and under ``jax.jit``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.unique(la.asarray([3, 1, 3]))
    Array([1, 3])
    >>> la.unique(la.asarray([3, 1, 3]), return_inverse=True, return_counts=True)
    (Array([1, 3]), Array([1, 0, 1]), Array([1, 2]))
    >>> la.unique(la.asarray([[1, 0], [1, 0], [2, 3]]), axis=0)
    Array([[1, 0],
           [2, 3]])
    >>> la.unique(la.asarray([3, 1, 3]), size=3, fill_value=0)
    Array([1, 3, 0])
    """
    fn = "unique"
    raw = to_raw(fn, ar, "ar")
    for flag, name in ((return_index, "return_index"), (return_inverse, "return_inverse"),
                       (return_counts, "return_counts"), (equal_nan, "equal_nan"),
                       (sorted, "sorted")):
        check_bool(fn, flag, name)
    exact, size, fill = _size_args(fn, is_tracer(raw), size, fill_value, raw.dtype)
    if axis is None:
        out = call(_unique_np_kernel, raw, size=size, fill_value=fill, equal_nan=equal_nan)
        values, indices, inverse, counts, k = out
    else:
        ax = normalize_axis(fn, axis, raw.ndim)
        moved = lax.transpose(raw, (ax,) + tuple(d for d in range(raw.ndim) if d != ax))
        n = raw.shape[ax]
        rows = lax.reshape(moved, (n, math.prod(moved.shape[1:])))
        values, indices, inverse, counts, k = call(
            _unique_rows_kernel, rows, size=n if size is None else size, fill_value=fill)
        rest = tuple(moved.shape[1:])
        values = lax.reshape(values._value, (values.shape[0],) + rest)
        inv_order = tuple(range(1, ax + 1)) + (0,) + tuple(range(ax + 1, raw.ndim))
        values = wrap(lax.transpose(values, inv_order))
    if exact:
        k = int(k)
        cut = [lax.slice_in_dim(values._value, 0, k, axis=0 if axis is None else ax)]
        cut += [lax.slice_in_dim(a._value, 0, k, axis=0) for a in (indices, counts)]
        values, indices, counts = (wrap(c) for c in cut)
    extras = [a for a, want in ((indices, return_index), (inverse, return_inverse),
                                (counts, return_counts)) if want]
    return (values, *extras) if extras else values


def _compact(fn, values, mask, size, fill_value):
    """``values[mask]`` (1-d raw values): exact eagerly, else length ``size`` with fill."""
    if size is None:
        keep = np.flatnonzero(np.asarray(mask))
        if keep.size == values.shape[0]:
            return wrap(values)
        return wrap(_gather1(values, keep) if keep.size else lax.slice_in_dim(values, 0, 0))
    return call(_compact_kernel, values, mask, size=size, fill_value=fill_value)


@kernel(static=("size", "fill_value"))
def _compact_kernel(values, mask, *, size, fill_value):
    n = values.shape[0]
    key = lax.convert_element_type(lax.bitwise_not(mask), np.int32)
    order = lax.sort((key, lax.iota(_dt.default_index(), n)), num_keys=1, is_stable=True)[1]
    k = lax.reduce_sum(lax.convert_element_type(mask, _dt.default_index()), (0,))
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                       start_index_map=(0,))
    picked = lax.gather(values, lax.expand_dims(order, (1,)), dnums, (1,),
                        mode=lax.GatherScatterMode.CLIP) if n else values
    return fill_past(fit_length(picked, size), k, fill_value)


def _flat(fn, x, argname):
    raw = to_raw(fn, x, argname)
    return lax.reshape(raw, (math.prod(raw.shape),))


def _uniq(fn, raw, traced):
    """Unique values of a flat raw array (exact eagerly; padded to full length traced)."""
    size = raw.shape[0] if traced else None
    out = call(_unique_np_kernel, raw, size=size, fill_value=None, equal_nan=True)
    values, indices, _, _, k = out
    if not traced:
        k = int(k)
        return (lax.slice_in_dim(values._value, 0, k), lax.slice_in_dim(indices._value, 0, k),
                k)
    return values._value, indices._value, k._value


def _common(fn, ar1, ar2):
    a, b = _flat(fn, ar1, "ar1"), _flat(fn, ar2, "ar2")
    dt = _dt.result_type(a.dtype, b.dtype)
    return a, b, dt, is_tracer(a) or is_tracer(b)


def _sort_pairs(aux):
    """Stable sort of ``aux`` by value (NaN last): (sorted, perm)."""
    keys = sort_keys(aux, False)
    out = lax.sort(tuple(keys) + (aux, lax.iota(_dt.default_index(), aux.shape[0])), is_stable=True,
                   num_keys=len(keys))
    return out[-2], out[-1]


def _live(k, n):
    return lax.lt(lax.iota(_dt.default_index(), n), lax.full((n,), k, _dt.default_index()))


_SETOP_RAISES_NOTES = _docs.compose("""
Raises
------
{type_error_operand}
{size_error}

Notes
-----""", type_error_operand=_docs.TYPE_ERROR_OPERAND, size_error=_docs.SIZE_ERROR)


_SETOP_RETURNS = _docs.compose("""
{size}
fill_value : scalar, optional
    The padding; default the smallest value of the result.

Returns
-------""", size=_docs.SIZE)


_SETOP_PARAMETERS = _docs.compose("""
Parameters
----------
ar1, ar2 : array_like
    The inputs; flattened.""")


@in_wide_region
@fill(setop_parameters=_SETOP_PARAMETERS, setop_returns=_SETOP_RETURNS,
      setop_raises_notes=_SETOP_RAISES_NOTES)
def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    """Return the sorted values common to two arrays.

    Array API: (not in the standard). NumPy: numpy.intersect1d.

    {setop_parameters}
    assume_unique : bool, optional
        A promise that each input has no duplicates; default False.
    return_indices : bool, optional
        Also return the first indices of the common values in each (flattened) input.
    {setop_returns}
    Array or tuple of Array
        The sorted common values; with ``return_indices``, ``(values, indices1, indices2)``
        (padded index entries are 0).

    {setop_raises_notes}
    Static under ``jax.jit``: ``assume_unique``, ``return_indices``, ``size``, ``fill_value``.

    On the CPU it takes the CPU host path: :func:`unique`'s.

    Examples
    --------
    >>> import laxarray as la
    >>> la.intersect1d(la.asarray([1, 3, 4, 3]), la.asarray([3, 1, 2, 1]))
    Array([1, 3])
    >>> la.intersect1d(la.asarray([1, 3, 4, 3]), la.asarray([3, 1, 2, 1]), return_indices=True)
    (Array([1, 3]), Array([0, 1]), Array([1, 0]))
    """
    fn = "intersect1d"
    check_bool(fn, assume_unique, "assume_unique")
    check_bool(fn, return_indices, "return_indices")
    a, b, dt, traced = _common(fn, ar1, ar2)
    exact, size, fill = _size_args(fn, traced, size, fill_value, dt)
    a, b = lax.convert_element_type(a, dt), lax.convert_element_type(b, dt)
    if assume_unique:
        ia, ib = lax.iota(_dt.default_index(), a.shape[0]), lax.iota(_dt.default_index(), b.shape[0])
        la = lb = None
    else:
        a, ia, ka = _uniq(fn, a, traced)
        b, ib, kb = _uniq(fn, b, traced)
        la, lb = (None, None) if not traced else (_live(ka, a.shape[0]), _live(kb, b.shape[0]))
    aux = lax.concatenate([a, b], 0)
    n = aux.shape[0]
    if la is not None:  # traced: push the padding of each unique result out of the way
        live = lax.concatenate([la, lb], 0)
        srt, perm = _sort_masked(aux, live)
    else:
        srt, perm = _sort_pairs(aux) if n else (aux, lax.iota(_dt.default_index(), 0))
        live = None
    if n < 2:
        mask = lax.full((max(n - 1, 0),), False, np.bool_)
    else:
        mask = lax.eq(lax.slice(srt, (1,), (n,)), lax.slice(srt, (0,), (n - 1,)))
        if live is not None:
            lv = _gather1(lax.concatenate([la, lb], 0), perm)
            mask = lax.bitwise_and(mask, lax.bitwise_and(lax.slice(lv, (1,), (n,)),
                                                         lax.slice(lv, (0,), (n - 1,))))
    head = lax.slice(srt, (0,), (max(n - 1, 0),))
    vals = _compact(fn, head, mask, size, fill)
    if not return_indices:
        return vals
    na = a.shape[0]
    i1 = lax.slice(perm, (0,), (max(n - 1, 0),))
    i2 = lax.sub(lax.slice(perm, (min(1, n),), (n,)), lax.full((max(n - 1, 0),), na, _dt.default_index()))
    i1 = _gather1(ia, i1) if na else i1
    i2 = _gather1(ib, i2) if b.shape[0] else i2
    idx1 = _compact(fn, i1, mask, size, 0 if size is not None else None)
    idx2 = _compact(fn, i2, mask, size, 0 if size is not None else None)
    return vals, idx1, idx2


def _gather1(v, idx):
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                       start_index_map=(0,))
    return lax.gather(v, lax.expand_dims(idx, (1,)), dnums, (1,),
                      mode=lax.GatherScatterMode.CLIP)


def _sort_masked(aux, live):
    """Stable sort of ``aux`` by value with dead (padding) entries last: (sorted, perm)."""
    keys = [lax.convert_element_type(lax.bitwise_not(live), np.int32)] + list(sort_keys(aux, False))
    out = lax.sort(tuple(keys) + (aux, lax.iota(_dt.default_index(), aux.shape[0])), is_stable=True,
                   num_keys=len(keys))
    return out[-2], out[-1]


@in_wide_region
@fill(setop_parameters=_SETOP_PARAMETERS, setop_returns=_SETOP_RETURNS,
      setop_raises_notes=_SETOP_RAISES_NOTES)
def union1d(ar1, ar2, *, size=None, fill_value=None):
    """Return the sorted unique values of two arrays together.

    Array API: (not in the standard). NumPy: numpy.union1d.

    {setop_parameters}
    {setop_returns}
    Array
        The sorted union.

    {setop_raises_notes}
    Static under ``jax.jit``: ``size``, ``fill_value``.

    On the CPU it takes the CPU host path: :func:`unique`'s.

    Examples
    --------
    >>> import laxarray as la
    >>> la.union1d(la.asarray([-1, 0, 1]), la.asarray([-2, 0, 2]))
    Array([-2, -1,  0,  1,  2])
    >>> la.union1d(la.asarray([1]), la.asarray([2]), size=3, fill_value=0)
    Array([1, 2, 0])
    """
    fn = "union1d"
    a, b, dt, traced = _common(fn, ar1, ar2)
    exact, size, fill = _size_args(fn, traced, size, fill_value, dt)
    aux = lax.concatenate([lax.convert_element_type(a, dt), lax.convert_element_type(b, dt)], 0)
    return unique(wrap(aux), size=size, fill_value=fill)


@in_wide_region
@fill(setop_parameters=_SETOP_PARAMETERS, setop_returns=_SETOP_RETURNS,
      setop_raises_notes=_SETOP_RAISES_NOTES)
def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """Return the sorted unique values of one array that are not in another.

    Array API: (not in the standard). NumPy: numpy.setdiff1d.

    {setop_parameters}
    assume_unique : bool, optional
        A promise that ``ar1`` has no duplicates: the result then keeps ``ar1``'s order.
    {setop_returns}
    Array
        The values of ``ar1`` not in ``ar2``.

    {setop_raises_notes}
    Static under ``jax.jit``: ``assume_unique``, ``size``, ``fill_value``.

    On the CPU it takes the CPU host path: :func:`unique`'s and :func:`isin`'s.

    Examples
    --------
    >>> import laxarray as la
    >>> la.setdiff1d(la.asarray([1, 2, 3, 2, 4, 1]), la.asarray([3, 4, 5, 6]))
    Array([1, 2])
    """
    fn = "setdiff1d"
    check_bool(fn, assume_unique, "assume_unique")
    a, b, dt, traced = _common(fn, ar1, ar2)
    exact, size, fill = _size_args(fn, traced, size, fill_value, a.dtype)
    live = None
    if not assume_unique:
        a, _, ka = _uniq(fn, a, traced)
        if traced:
            live = _live(ka, a.shape[0])
    keep = isin(wrap(a), wrap(b), invert=True)._value
    if live is not None:
        keep = lax.bitwise_and(keep, live)
    return _compact(fn, a, keep, size, fill)


@in_wide_region
@fill(setop_parameters=_SETOP_PARAMETERS, setop_returns=_SETOP_RETURNS,
      setop_raises_notes=_SETOP_RAISES_NOTES)
def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """Return the sorted values that are in exactly one of two arrays.

    Array API: (not in the standard). NumPy: numpy.setxor1d.

    {setop_parameters}
    assume_unique : bool, optional
        A promise that each input has no duplicates; default False.
    {setop_returns}
    Array
        The sorted symmetric difference.

    {setop_raises_notes}
    Static under ``jax.jit``: ``assume_unique``, ``size``, ``fill_value``.

    On the CPU it takes the CPU host path: :func:`unique`'s.

    Examples
    --------
    >>> import laxarray as la
    >>> la.setxor1d(la.asarray([1, 2, 3, 2, 4]), la.asarray([2, 3, 5, 7, 5]))
    Array([1, 4, 5, 7])
    """
    fn = "setxor1d"
    check_bool(fn, assume_unique, "assume_unique")
    a, b, dt, traced = _common(fn, ar1, ar2)
    exact, size, fill = _size_args(fn, traced, size, fill_value, dt)
    a, b = lax.convert_element_type(a, dt), lax.convert_element_type(b, dt)
    live = None
    if not assume_unique:
        a, _, ka = _uniq(fn, a, traced)
        b, _, kb = _uniq(fn, b, traced)
        if traced:
            live = lax.concatenate([_live(ka, a.shape[0]), _live(kb, b.shape[0])], 0)
    aux = lax.concatenate([a, b], 0)
    n = aux.shape[0]
    if n == 0:
        return _compact(fn, aux, lax.full((0,), False, np.bool_), size, fill)
    if live is None:
        srt, perm = _sort_pairs(aux)
        lv = None
    else:
        srt, perm = _sort_masked(aux, live)
        lv = _gather1(live, perm)
    ne = lax.ne(lax.slice(srt, (1,), (n,)), lax.slice(srt, (0,), (n - 1,)))
    if lv is not None:  # a live entry next to a dead one differs from it
        ne = lax.bitwise_or(ne, lax.ne(lax.slice(lv, (1,), (n,)), lax.slice(lv, (0,), (n - 1,))))
    t = lax.full((1,), True, np.bool_)
    flag = lax.concatenate([t, ne, t], 0)
    mask = lax.bitwise_and(lax.slice(flag, (1,), (n + 1,)), lax.slice(flag, (0,), (n,)))
    if lv is not None:
        mask = lax.bitwise_and(mask, lv)
    return _compact(fn, srt, mask, size, fill)
