"""Sorting functions of the standard: sort and argsort (NaN last, as in NumPy).

``axis``, ``descending`` and ``stable`` are static under ``jax.jit``.  On the CPU backend
the sort runs in NumPy (``_host_order``: 10-30x faster than XLA's CPU sort, the same order,
differentiable), a host path the kernel declares (``_core/runtime/host_path.py``): eagerly by a direct
call, which compiles nothing, traced through a host callback (the values of 64-bit
integers excepted: XLA sorts those faster).  Elsewhere, and
with ``set_host_sort(False)``, it uses ``lax.sort``, whose float comparison is NumPy's order
(-0.0 == 0.0, NaNs equal and after +inf; complex: lexicographic on (real, imag), NaN last,
as NumPy).  ``descending`` reverses the order of distinct keys while keeping ties in their
original order (stable), as the standard requires.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, normalize_axis
from laxarray.array_api import _host_order
from laxarray.array_api._docs import RANK0_AXIS_ERRORS
from laxarray.array_api._array import Array
from laxarray.array_api._calls import call
from laxarray.array_api._convert import to_raw
from laxarray._core.jax_regions import in_wide_region


#: numpydoc parts of sort and argsort (``fill``)
_PARAMS = """
Parameters
----------
x : array_like
    The input array, of rank at least one and any dtype.
axis : int, optional
    The axis to sort along; default -1 (the last).
descending : bool, optional
    Whether to sort in descending order; default ``False``.
stable : bool, optional
    Whether equal elements keep their relative order; default ``True``.  The sort is
    always stable, whatever this says.
"""
_RAISES_NOTES = """
Raises
------
TypeError
    If ``x`` is not array_like, or ``descending`` or ``stable`` is not a bool.
""" + RANK0_AXIS_ERRORS.lstrip("\n") + """
Notes
-----
Static under ``jax.jit``: ``axis``, ``descending`` and ``stable``.

NumPy's order: ``-0.0 == 0.0``, NaN after ``+inf`` (and last also when descending);
complex values lexicographically on (real, imaginary), a value with a NaN part last.
``descending`` reverses the order of distinct keys while keeping ties in their original
order (stable), as the standard requires.

On the CPU its host path sorts in NumPy (10-30x faster than XLA's CPU sort, the same
order, differentiable): eagerly by a direct call, which compiles nothing, under ``jax.jit``
through a host callback (the values of 64-bit integers excepted: XLA sorts those
faster); see ``docs/performance.md``.  Elsewhere, and with ``set_host_sort(False)``
(which ``jax.export`` needs), ``lax.sort``.  Unlike NumPy, no ``kind`` or ``order``.
"""


def sort_keys(x, descending):
    """Sort keys (tuple of operands) realising NumPy's order, negated for descending."""
    if _dt.kind_of(x.dtype) == "c":
        parts = [lax.real(x), lax.imag(x)]
    else:
        parts = [x]
    keys = []
    for p in parts:
        if _dt.kind_of(p.dtype) == "f" and len(parts) == 1:
            # lax.sort compares floats as NumPy orders them: -0.0 == 0.0, every NaN equal
            # and after +inf; negation keeps NaNs last, so descending needs no extra key
            keys.append(lax.neg(p) if descending else p)
        elif _dt.kind_of(p.dtype) == "f":
            nan = lax.ne(p, p)
            # complex: a NaN in either part sorts the value last (the "is NaN" keys, merged)
            keys.append(lax.convert_element_type(nan, np.int8))
            v = lax.select(nan, lax.full_like(p, 0), p)
            keys.append(lax.neg(v) if descending else v)
        elif _dt.kind_of(p.dtype) == "b":
            v = lax.convert_element_type(p, np.int8)
            keys.append(lax.neg(v) if descending else v)
        elif descending:
            keys.append(lax.bitwise_not(p))  # order-reversing for signed and unsigned ints
        else:
            keys.append(p)
    if _dt.kind_of(x.dtype) == "c" and len(keys) == 4:
        keys = [lax.bitwise_or(keys[0], keys[2])] + [keys[1], keys[3]]
    return keys


def _sort_now(a, *, axis, descending, want_indices):
    """The eager host path: NumPy's sort of the NumPy view ``a``; None where the kernel is
    faster (empty, or the values of 64-bit integers)."""
    if a.size == 0:
        return None
    return _host_order.sort_now(a, axis, descending, want_indices)


def _sort_host(x, *, axis, descending, want_indices):
    """The traced host path: NumPy's sort in a host call."""
    last = _host_order.argsort_last if want_indices else _host_order.sort_last
    return along_last(x, axis, lambda v: last(v, descending))


_SORT_HOST = HostPath(
    functions=("sort", "argsort"), eager=_sort_now, traced=_sort_host,
    grad="values: the tangent gathered by the sorting permutation; indices: none",
    reason="XLA's CPU sort (a comparison sort with a general comparator) took 260 ms on "
           "10**6 float64 (`jax.numpy.sort`), NumPy 45 ms; the values of 64-bit integers "
           "stay with `lax.sort` (52 vs 74 ms on 10**6 int64)")


@kernel(static=("axis", "descending", "want_indices"), host=_SORT_HOST)
def sort_kernel(x, *, axis, descending, want_indices):
    return along_last(x, axis, lambda v: _sort_last(v, descending, want_indices))


def _sort_last(x, descending, want_indices):
    last = x.ndim - 1
    keys = sort_keys(x, descending)
    if want_indices:
        payload = (lax.broadcasted_iota(_dt.default_index(), x.shape, last),)
    else:   # a key that is x itself sorts x (ties keep their order: the sort is stable)
        payload = () if len(keys) == 1 and keys[0] is x else (x,)
    out = lax.sort(tuple(keys) + payload, dimension=last, is_stable=True, num_keys=len(keys))
    return out[-1]


def along_last(x, axis, fn):
    """``fn`` (which works along the last axis, row by row) applied along ``axis``."""
    if axis == x.ndim - 1:
        return fn(x)
    return lax.transpose(fn(lax.transpose(x, _swap(x.ndim, axis))), _swap(x.ndim, axis))


def _swap(ndim, axis):
    perm = list(range(ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tuple(perm)


def _prepare(fn, x, axis, descending, stable):
    raw = x._value if type(x) is Array else to_raw(fn, x, "x")
    if raw.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1", x)
    ax = normalize_axis(fn, axis, raw.ndim)
    check_bool(fn, descending, "descending")
    check_bool(fn, stable, "stable")
    if raw.dtype not in _dt.CATEGORIES["any"]:
        _dt.check_category(fn, "x", raw.dtype, "any")
    return raw, ax


@in_wide_region
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def sort(x, /, *, axis=-1, descending=False, stable=True):
    """Return a sorted copy of an array along an axis.

    Array API: sort. NumPy: numpy.sort.

    {params}

    Returns
    -------
    Array
        The sorted values, of the shape and dtype of ``x``.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.sort(xp.asarray([3.0, float("nan"), 1.0, 2.0]))
    Array([ 1.,  2.,  3., nan])
    >>> xp.sort(xp.asarray([[3, 1, 2], [0, 5, 4]]), axis=0, descending=True)
    Array([[3, 5, 4],
           [0, 1, 2]])
    """
    raw, ax = _prepare("sort", x, axis, descending, stable)
    return call(sort_kernel, raw, axis=ax, descending=descending, want_indices=False)


@in_wide_region
@fill(params=_PARAMS, raises_notes=_RAISES_NOTES)
def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """Return the indices that sort an array along an axis.

    Array API: argsort. NumPy: numpy.argsort.

    {params}

    Returns
    -------
    Array
        The indices, of the shape of ``x`` and the default index dtype (int64; int32 on a
        TPU); ties keep their input order.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.argsort(xp.asarray([3, 1, 2, 1]))
    Array([1, 3, 2, 0])
    >>> xp.argsort(xp.asarray([3, 1, 2, 1]), descending=True)
    Array([0, 2, 1, 3])
    """
    raw, ax = _prepare("argsort", x, axis, descending, stable)
    return call(sort_kernel, raw, axis=ax, descending=descending, want_indices=True)


__all__ = ["sort", "argsort"]
