"""Set functions of the standard: unique_all, unique_counts, unique_inverse, unique_values, isin.

Uniqueness is value equality (``equal``): every NaN (and every complex value with a NaN
part) is its own unique value with a count of one; ``-0.0`` and ``+0.0`` are one value (the
first occurring is returned).  Unique values come sorted as NumPy sorts (NaN last).

The number of unique values is data-dependent: eagerly the results are exact; under
``jax.jit``/``vmap`` pass ``size=N`` (static): the results then have length ``N``, the
first ``min(N, n_unique)`` entries are exact, and the rest are padding -- ``values`` holds
``fill_value`` (default: the smallest unique value, as jax), ``indices`` and ``counts`` hold
0.  Without ``size`` a traced call raises ``ValueError`` saying to pass it.

On CPU the sorting and counting run in NumPy on the host (``_host_order``), a host path
the kernels declare (``_core/runtime/host_path.py``): eagerly by a direct call (no kernel, no compile),
under ``jax.jit`` through a host callback, with the same results as the lax path.
``isin`` of integers uses NumPy's ``isin`` (a lookup table); of floats a binary search in
the sorted distinct values of ``x2`` (``_host_order.isin_now``).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.buckets import unpad_raw
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import rank_of_true
from laxarray._core.validate import check_bool, check_int
from laxarray.array_api import _host_order
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._calls import call
from laxarray.array_api._convert import to_raw
from laxarray.array_api._indexing_advanced import canonical_fill
from laxarray.array_api._ufunc import binary_operands
from laxarray.array_api.searching import searchsorted_kernel
from laxarray.array_api.sorting import sort_keys, sort_kernel


#: numpydoc parts of the unique_* functions (``fill``): their parameters, their Raises and
#: Notes
_PARAMS = """
Parameters
----------
x : array_like
    The input array, of any dtype and shape (flattened).
size : int, optional
    laxarray's (as jax.numpy's): the length of the results along the unique values
    (``inverse_indices`` keeps the shape of ``x``).  Required under ``jax.jit`` and
    ``vmap``; default ``None``: the number of unique values.
fill_value : scalar, optional
    With ``size`` only: the value that fills ``values`` past the unique values; default
    ``None``: the smallest unique value (as jax.numpy).
"""
_RAISES_NOTES = """
Raises
------
TypeError
    If ``x`` is not array_like, or ``size`` is not an int.
ValueError
    If ``size`` is negative, ``fill_value`` is given without ``size``, or ``size`` is not
    given under ``jax.jit`` or ``vmap``.

Notes
-----
Static under ``jax.jit``: ``size`` and ``fill_value``.

The number of unique values
decides the results' shapes: eagerly they are exact; a traced call must pass ``size=N``,
and the results then have length ``N``: the first ``min(N, n_unique)`` entries are
exact, the rest padding (``values`` holds ``fill_value``, ``indices`` and ``counts``
hold 0).

Uniqueness is value equality (``equal``): every NaN (and every complex value with a NaN
part) is its own unique value with a count of one; ``-0.0`` and ``+0.0`` are one value
(the first occurring is returned).  Unique values come sorted as NumPy sorts (NaN last).

On the CPU the sorting and counting take the host path, NumPy: eagerly by a direct
call (no kernel, no compile), under ``jax.jit`` through a host callback, with the results of
the lax path that other devices run.
"""

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                 "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])

_DROP = lax.GatherScatterMode.FILL_OR_DROP


def _unsigned_zero(v):
    """``-0.0`` -> ``+0.0`` (so signed zeros sort together, in input order)."""
    if _dt.kind_of(v.dtype) == "c":
        return lax.complex(_unsigned_zero(lax.real(v)), _unsigned_zero(lax.imag(v)))
    if _dt.kind_of(v.dtype) == "f":
        return lax.select(lax.eq(v, lax.full_like(v, 0)), lax.full_like(v, 0), v)
    return v


def _scatter_1d(size, dtype, idx, updates, add=False):
    """A length-``size`` array with ``updates`` at ``idx`` (out-of-range dropped)."""
    out = lax.full((size,), 0, dtype)
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    fn = lax.scatter_add if add else lax.scatter
    return fn(out, lax.expand_dims(idx, (1,)), updates, dnums, mode=_DROP)


def _unique_now(a, *, size, fill_value, want):
    """The eager host path of an exact ``unique_*`` (``size`` None): NumPy on the view
    ``a``, the results of exact length, then the count; None otherwise."""
    if size is not None or a.size == 0:
        return None
    out, k = _host_order.unique_now(a.reshape(-1), want)
    res = dict(zip(_host_order.UNIQUE_RESULTS[want], out))
    if "inverse" in res:
        res["inverse"] = res["inverse"].reshape(a.shape)
    return tuple(res[name] for name in _host_order.UNIQUE_RESULTS[want]) + (_dt.default_index().type(k),)


def _unique_host(x, *, size, fill_value, want):
    """The traced host path: NumPy's sort and count in a host call."""
    n = math.prod(x.shape)
    size = n if size is None else size
    flat = lax.reshape(x, (n,))
    if not n:
        return _unique_results(*_unique_lax(x, flat, size, want), fill_value, want)
    *res, n_unique = _host_order.unique(flat, want)
    res = dict(zip(_host_order.UNIQUE_RESULTS[want], res))
    for name in ("values", "indices", "counts"):
        if name in res:
            res[name] = fit_length(res[name], size)
    if "inverse" in res:
        res["inverse"] = lax.reshape(res["inverse"], x.shape)
    return _unique_results(res, n_unique, fill_value, want)


_UNIQUE_HOST = HostPath(
    functions=("unique_all", "unique_counts", "unique_inverse", "unique_values"),
    eager=_unique_now, traced=_unique_host, grad="none (values are not differentiated)",
    reason="the lax path is a `lax.sort` of the values with their positions: XLA's CPU "
           "sort, 5-10x NumPy's (see `sort`)")


@kernel(static=("size", "fill_value", "want"), host=_UNIQUE_HOST)
def unique_kernel(x, *, size, fill_value, want="all"):
    """The results ``_host_order.UNIQUE_RESULTS[want]`` (length ``size``; None: the
    input's size), then the count."""
    n = math.prod(x.shape)
    size = n if size is None else size
    return _unique_results(*_unique_lax(x, lax.reshape(x, (n,)), size, want), fill_value,
                           want)


def _unique_results(res, n_unique, fill_value, want):
    res["values"] = fill_past(res["values"], n_unique, fill_value)
    return tuple(res[name] for name in _host_order.UNIQUE_RESULTS[want]) + (n_unique,)


def _unique_lax(x, flat, size, want):
    n = flat.shape[0]
    keys = sort_keys(_unsigned_zero(flat), False)
    iota = lax.iota(_dt.default_index(), n)
    out = lax.sort(tuple(keys) + (flat, iota), is_stable=True, num_keys=len(keys))
    sv, perm = out[-2], out[-1]
    if n:
        differs = lax.ne(lax.slice(sv, (1,), (n,)), lax.slice(sv, (0,), (n - 1,)))
        new = lax.concatenate([lax.full((1,), True, np.bool_), differs], 0)
    else:
        new = lax.full((0,), True, np.bool_)
    gid = rank_of_true(new, _dt.default_index())
    n_unique = lax.reduce_sum(lax.convert_element_type(new, _dt.default_index()), (0,))
    head = lax.select(new, gid, lax.full_like(gid, size))
    res = {"values": _scatter_1d(size, x.dtype, head, sv)}
    if want != "values":
        res["counts"] = _scatter_1d(size, _dt.default_index(), gid, lax.full((n,), 1, _dt.default_index()), add=True)
    if want == "all":
        res["indices"] = _scatter_1d(size, _dt.default_index(), head, perm)
        res["inverse"] = lax.reshape(_scatter_1d(n, _dt.default_index(), perm, gid), x.shape)
    return res, n_unique


def fit_length(v, size):
    """``v`` cut or zero-padded to length ``size`` along axis 0."""
    n = v.shape[0]
    if size <= n:
        return lax.slice_in_dim(v, 0, size, axis=0)
    cfg = [(0, size - n, 0)] + [(0, 0, 0)] * (v.ndim - 1)
    return lax.pad(v, lax.full((), 0, v.dtype), cfg)


def fill_past(values, k, fill_value):
    """Entries of ``values`` at positions >= ``k`` along axis 0 set to ``fill_value``
    (``None``: the first entry)."""
    pos = lax.broadcasted_iota(_dt.default_index(), values.shape, 0)
    if fill_value is not None:
        fill = lax.full(values.shape, fill_value, values.dtype)
    elif values.shape[0]:
        fill = lax.broadcast_in_dim(lax.slice_in_dim(values, 0, 1, axis=0), values.shape,
                                    tuple(range(values.ndim)))
    else:
        fill = values
    return lax.select(lax.lt(pos, lax.full_like(pos, k)), values, fill)


def _unique(fn, x, size, fill_value, want):
    raw = x._value if type(x) is Array else to_raw(fn, x, "x")
    if raw.dtype not in _dt.CATEGORIES["any"]:
        _dt.check_category(fn, "x", raw.dtype, "any")
    if size is None:
        if is_tracer(raw):
            fail(ValueError, fn, "size= under jax.jit/vmap (the number of unique values "
                 "decides the output shape; pass size=N and optionally fill_value=)", size)
        if fill_value is not None:
            fail(ValueError, fn, "fill_value only together with size=", fill_value)
        exact = True
    else:
        exact, size = False, check_int(fn, size, "size", minimum=0)
    if fill_value is not None:
        fill_value = canonical_fill(fn, fill_value, raw.dtype)
    if not _backend.current().host:
        # one program for the four functions: its sort and scan take most of its compile
        # (11 s for 10**6 values on a TPU v5e), the extra results little of its run
        want = "all"
    *res, k = call(unique_kernel, raw, size=None if exact else size, fill_value=fill_value,
                   want=want)
    res = dict(zip(_host_order.UNIQUE_RESULTS[want], res))
    if exact:
        k = int(k)
        for name in ("values", "indices", "counts"):
            if name in res:         # a cut, no compile
                res[name] = wrap(unpad_raw(res[name]._value, (k,)))
    return res


@in_wide_region
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def unique_all(x, /, *, size=None, fill_value=None):
    """Return the unique values of ``x``, their first indices, the inverse indices and counts.

    Array API: unique_all. NumPy: numpy.unique_all.

    {params}

    Returns
    -------
    UniqueAllResult
        A named tuple ``(values, indices, inverse_indices, counts)``: the sorted unique
        values (of the dtype of ``x``); the flat index in ``x`` of the first occurrence of
        each; for each element of ``x`` (its shape) the index of its value in ``values``; the
        number of occurrences of each (the index arrays and counts of the default index
        dtype: int64, int32 on a TPU).

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> r = xp.unique_all(xp.asarray([3, 1, 3, 2, 1, 3]))
    >>> r.values, r.indices, r.counts
    (Array([1, 2, 3]), Array([1, 3, 0]), Array([2, 1, 3]))
    >>> r.inverse_indices
    Array([2, 0, 2, 1, 0, 2])
    """
    r = _unique("unique_all", x, size, fill_value, "all")
    return UniqueAllResult(r["values"], r["indices"], r["inverse"], r["counts"])


@in_wide_region
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def unique_counts(x, /, *, size=None, fill_value=None):
    """Return the unique values of ``x`` and the number of times each occurs.

    Array API: unique_counts. NumPy: numpy.unique_counts.

    {params}

    Returns
    -------
    UniqueCountsResult
        A named tuple ``(values, counts)``: the sorted unique values (of the dtype of ``x``)
        and their counts (of the default index dtype: int64, int32 on a TPU).

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.unique_counts(xp.asarray([3, 1, 3, 2, 1, 3]))
    UniqueCountsResult(values=Array([1, 2, 3]), counts=Array([2, 1, 3]))
    """
    r = _unique("unique_counts", x, size, fill_value, "counts")
    return UniqueCountsResult(r["values"], r["counts"])


@in_wide_region
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def unique_inverse(x, /, *, size=None, fill_value=None):
    """Return the unique values of ``x`` and the indices into them that rebuild ``x``.

    Array API: unique_inverse. NumPy: numpy.unique_inverse.

    {params}

    Returns
    -------
    UniqueInverseResult
        A named tuple ``(values, inverse_indices)``: the sorted unique values (of the dtype
        of ``x``) and, of the shape of ``x``, the index of each element's value in
        ``values`` (of the default index dtype: int64, int32 on a TPU):
        ``values[inverse_indices]`` is ``x``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> r = xp.unique_inverse(xp.asarray([[1, 5], [5, 1]]))
    >>> r.values
    Array([1, 5])
    >>> r.inverse_indices
    Array([[0, 1],
           [1, 0]])
    """
    r = _unique("unique_inverse", x, size, fill_value, "all")
    return UniqueInverseResult(r["values"], r["inverse"])


@in_wide_region
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def unique_values(x, /, *, size=None, fill_value=None):
    """Return the unique values of ``x``, sorted (NaN last).

    Array API: unique_values. NumPy: numpy.unique_values.

    {params}

    Returns
    -------
    Array
        The sorted unique values, 1-D, of the dtype of ``x``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.unique_values(xp.asarray([2, 1, 2]))
    Array([1, 2])
    >>> xp.unique_values(xp.asarray([1.0, float("nan"), float("nan"), -0.0, 0.0]))
    Array([-0.,  1., nan, nan])
    >>> xp.unique_values(xp.asarray([3, 1, 3]), size=4, fill_value=-1)
    Array([ 1,  3, -1, -1])
    """
    return _unique("unique_values", x, size, fill_value, "values")["values"]


def _isin_now(a, b, *, invert, dtype):
    """The eager host path: ``_host_order.isin_now`` of the NumPy views, both in the
    promoted ``dtype`` (None for an empty ``b``: the kernel's constant)."""
    if not b.size:
        return None
    return _host_order.isin_now(a.astype(dtype, copy=False), b.astype(dtype, copy=False),
                                invert)


def _isin_host(a, b, *, invert, dtype):
    """The traced host path: ``_host_order.isin`` in a host call."""
    if b.size == 0:
        found = lax.full(a.shape, False, np.bool_)
    else:
        found = _host_order.isin(lax.convert_element_type(a, dtype),
                                 lax.convert_element_type(b, dtype))
    return lax.bitwise_not(found) if invert else found


_ISIN_HOST = HostPath(
    functions=("isin",), eager=_isin_now, traced=_isin_host, dtype_of="dtype",
    grad="none (a boolean result)",
    reason="integers: NumPy's lookup table; floats: a binary search in NumPy's sorted "
           "distinct values, 1.5-3x faster than NumPy's own `isin`; the lax program (a sort "
           "and a search loop) compiled in about 2x jax.numpy's time, the host call in a "
           "third of it")


@kernel(static=("invert", "dtype"), host=_ISIN_HOST)
def _isin_kernel(a, b, *, invert, dtype):
    a, b = lax.convert_element_type(a, dtype), lax.convert_element_type(b, dtype)
    flat = lax.reshape(b, (math.prod(b.shape),))
    m = flat.shape[0]
    if m == 0:
        found = lax.full(a.shape, False, np.bool_)
    elif _dt.kind_of(a.dtype) == "c":
        eq = lax.eq(lax.expand_dims(a, (a.ndim,)),
                    lax.broadcast_in_dim(flat, a.shape + (m,), (a.ndim,)))
        found = lax.reduce_or(eq, (a.ndim,))
    else:
        srt = sort_kernel.run_xla(flat, axis=0, descending=False, want_indices=False)
        pos = searchsorted_kernel(srt, a, None, right=False)
        pos = lax.min(pos, lax.full_like(pos, m - 1))
        dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                           start_index_map=(0,))
        hit = lax.gather(srt, lax.expand_dims(pos, (pos.ndim,)), dnums, (1,),
                         mode=lax.GatherScatterMode.CLIP)
        found = lax.eq(hit, a)
    return lax.bitwise_not(found) if invert else found


@in_wide_region
def isin(x1, x2, /, *, invert=False):
    """Test whether each element of ``x1`` equals some element of ``x2``.

    Array API: isin. NumPy: numpy.isin.

    Parameters
    ----------
    x1 : array_like
        The elements to look for: an array, or a Python scalar (weak, NEP 50).
    x2 : array_like
        The elements to look among (any shape), likewise; at least one of ``x1`` and ``x2``
        is an array.
    invert : bool, optional
        Whether to return the negation (``not in``); default ``False``.

    Returns
    -------
    Array
        A bool array of the shape of ``x1``.

    Raises
    ------
    TypeError
        If ``x1`` or ``x2`` is not array_like, both are Python scalars, or ``invert`` is not
        a bool.

    Notes
    -----
    Static under ``jax.jit``: ``invert``.

    Equality is ``equal`` after promotion: NaN is in nothing, ``-0.0`` is in ``[0.0]``.  On
    the CPU the host path runs NumPy, eagerly (no kernel) and under ``jax.jit`` (a host call):
    integers by NumPy's ``isin`` (a lookup table), floats by a binary search in the sorted
    distinct values of ``x2``.  Unlike NumPy, no ``assume_unique`` or ``kind``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.isin(xp.asarray([1, 2, 3]), xp.asarray([3, 1]))
    Array([ True, False,  True])
    >>> xp.isin(xp.asarray([1, 2, 3]), xp.asarray([3, 1]), invert=True)
    Array([False,  True, False])
    """
    check_bool("isin", invert, "invert")
    if not isinstance(x1, Array) and not isinstance(x2, Array) and \
            _dt.scalar_pytype(x1) is not None and _dt.scalar_pytype(x2) is not None:
        fail(TypeError, "isin", "at least one array among 'x1' and 'x2'", (x1, x2))
    a, b, dt = binary_operands("isin", x1, x2)
    return call(_isin_kernel, a, b, invert=invert, dtype=dt)


__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values", "isin"]
