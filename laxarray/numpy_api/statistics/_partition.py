"""Partial and lexicographic sorts: partition, argpartition, lexsort, sort_complex.

``partition``/``argpartition`` put the ``kth`` elements in sorted place: eagerly on the CPU
backend NumPy's own introselect, called directly; traced there, NumPy's function in a host
call; elsewhere a full ``lax.sort`` (a valid partition: NumPy's exact order of the other
elements is not promised).  ``lexsort`` is one multi-operand ``lax.sort``; ``sort_complex``
sorts by real part, then imaginary.  ``kth`` and ``axis`` are static under ``jax.jit``.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api import _host_order
from laxarray.array_api._array import Array
from laxarray.array_api.sorting import along_last, sort_keys, sort_kernel
from laxarray.numpy_api.statistics._base import concrete, count_dtype, raw
from laxarray.numpy_api import _docs
from laxarray.numpy_api.statistics import _docs as _sdocs

__all__ = ["partition", "argpartition", "lexsort", "sort_complex"]


def _kth(fn, kth, n):
    vals = kth if isinstance(kth, (list, tuple)) else [kth]
    if isinstance(kth, Array) or hasattr(kth, "__array__"):
        host = concrete(raw(fn, kth, "kth"))
        if host is None:
            fail(TypeError, fn, "a static (concrete) 'kth'", kth)
        vals = np.ravel(host).tolist()
    out = []
    for k in vals:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
            fail(TypeError, fn, "integer 'kth'", kth)
        if not -n <= int(k) < n:
            fail(ValueError, fn, f"'kth' in [{-n}, {n})", kth)
        out.append(int(k))
    return tuple(out)


def _partition(fn, a, kth, axis, want_indices):
    x = raw(fn, a, "a")
    if axis is None:
        x = lax.reshape(x, (math.prod(x.shape),))
        axis = -1
    if x.ndim == 0:
        fail(ValueError, fn, "an array of rank >= 1 for 'a'", a)
    ax = normalize_axis(fn, axis, x.ndim)
    kths = tuple(k % x.shape[ax] for k in _kth(fn, kth, x.shape[ax]))
    return call(_partition_kernel, x, axis=ax, kth=kths, want_indices=want_indices)


def _partition_now(a, *, axis, kth, want_indices):
    """The eager host path: NumPy's own partition of the view ``a`` (None if empty)."""
    return _host_order.partition_now(a, axis, kth, want_indices) if a.size else None


def _partition_host(x, *, axis, kth, want_indices):
    """The traced host path: NumPy's own partition in a host call."""
    return along_last(x, axis, lambda v: _host_order.partition_last(v, kth, want_indices))


_PARTITION_HOST = HostPath(
    functions=("partition", "argpartition"), eager=_partition_now, traced=_partition_host,
    grad="values: the tangent gathered by the partitioning permutation; indices: none",
    reason="NumPy's introselect is O(n); the lax body is a full `lax.sort`, XLA's CPU sort "
           "5-10x NumPy's (see `sort`)")


@kernel(static=("axis", "kth", "want_indices"), host=_PARTITION_HOST)
def _partition_kernel(x, *, axis, kth, want_indices):
    # a full sort satisfies the partition property for every kth
    return sort_kernel.run_xla(x, axis=axis, descending=False, want_indices=want_indices)


_PARTITION_RAISES_NOTES = _docs.compose("""
Raises
------
{type_error_a}
{kth_error}
{axis_error_axis}

Notes
-----
Static under ``jax.jit``: ``kth``, ``axis``.""",
    type_error_a=_docs.TYPE_ERROR_A, kth_error=_sdocs.KTH_ERROR,
    axis_error_axis=_docs.AXIS_ERROR_AXIS)


_PARTITION_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{array}
{kth}
{axis_last}

Returns
-------
Array""", array=_docs.ARRAY, kth=_sdocs.KTH, axis_last=_sdocs.AXIS_LAST)


@in_wide_region
@fill(partition_parameters_returns=_PARTITION_PARAMETERS_RETURNS,
      partition_raises_notes=_PARTITION_RAISES_NOTES)
def partition(a, kth, axis=-1):
    """Return a partitioned copy: the ``kth`` element in its sorted place, smaller ones first.

    Array API: (not in the standard). NumPy: numpy.partition.

    {partition_parameters_returns}
        The partitioned copy.

    {partition_raises_notes}

    On the CPU host path this is NumPy's own partition (introselect, run on the host);
    elsewhere a fully sorted copy (NaN last), which satisfies the partition property for
    every ``kth``.

    Examples
    --------
    >>> import laxarray as la
    >>> p = la.partition(la.asarray([3, 4, 2, 1]), 2)
    >>> p[2], bool(la.all(p[:2] <= p[2])), bool(la.all(p[3:] >= p[2]))
    (Array(3), True, True)
    """
    return _partition("partition", a, kth, axis, False)


@in_wide_region
@fill(partition_parameters_returns=_PARTITION_PARAMETERS_RETURNS,
      partition_raises_notes=_PARTITION_RAISES_NOTES)
def argpartition(a, kth, axis=-1):
    """Return the indices that would partition an array around the ``kth`` element.

    Array API: (not in the standard). NumPy: numpy.argpartition.

    {partition_parameters_returns}
        The int64 indices.

    {partition_raises_notes}

    On the CPU host path these are NumPy's own indices (introselect on the host); elsewhere
    indices that fully sort ``a`` (stable).

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([3, 4, 2, 1])
    >>> i = la.argpartition(a, 2)
    >>> a[i][2]
    Array(3)
    """
    return _partition("argpartition", a, kth, axis, True)


@kernel(static=("axis",))
def _lexsort_kernel(*keys, axis):
    last = keys[0].ndim - 1
    perm = list(range(last + 1))
    perm[axis], perm[last] = perm[last], perm[axis]
    ops = []
    for k in reversed(keys):          # the last key is the primary one
        k = lax.transpose(k, perm) if axis != last else k
        ops.extend(sort_keys(k, False))
    iota = lax.broadcasted_iota(count_dtype(), ops[0].shape, last)
    out = lax.sort(tuple(ops) + (iota,), dimension=last, is_stable=True, num_keys=len(ops))
    res = out[-1]
    return lax.transpose(res, perm) if axis != last else res


@in_wide_region
@fill(closing=_docs.closing(
    ["TypeError\n    If a key is not array_like.", "ValueError\n    If the keys' shapes differ.",
     _docs.AXIS_ERROR_AXIS],
    "``axis``"))
def lexsort(keys, axis=-1):
    """Return the indices of a stable sort on several keys, the last one primary.

    Array API: (not in the standard). NumPy: numpy.lexsort.

    Parameters
    ----------
    keys : sequence of array_like or array_like
        The keys, of one shape: a sequence, or the rows of a 2-D (or higher) array.
    axis : int, optional
        The axis to sort along; default -1.

    Returns
    -------
    Array
        The int64 indices.

    {closing}
    >>> surnames = la.asarray([1, 5, 1, 4, 3])
    >>> first = la.asarray([9, 4, 0, 4, 0])
    >>> la.lexsort((surnames, first))
    Array([2, 4, 3, 1, 0])
    """
    if isinstance(keys, (list, tuple)):
        ks = [raw("lexsort", k, "keys") for k in keys]
    else:
        k = raw("lexsort", keys, "keys")
        if k.ndim == 0:
            fail(ValueError, "lexsort", "at least one key of rank >= 1", keys)
        ks = [lax.index_in_dim(k, i, 0, keepdims=False) for i in range(k.shape[0])]
    if not ks:
        fail(TypeError, "lexsort", "at least one key in 'keys'", keys)
    shape = tuple(ks[0].shape)
    if any(tuple(k.shape) != shape for k in ks):
        fail(ValueError, "lexsort", "keys of one shape", keys)
    if len(shape) == 0:
        fail(ValueError, "lexsort", "keys of rank >= 1", keys)
    ax = normalize_axis("lexsort", axis, len(shape))
    return call(_lexsort_kernel, *ks, axis=ax)


@in_wide_region
def sort_complex(a):
    """Sort along the last axis as complex numbers (real part first, then imaginary).
    NumPy: numpy.sort_complex (int8/int16/uint8/uint16 give complex64, other real dtypes
    the default complex dtype: complex128, complex64 on a TPU)."""
    x = raw("sort_complex", a, "a")
    if x.ndim == 0:
        fail(ValueError, "sort_complex", "an array of rank >= 1 for 'a'", a)
    if _dt.kind_of(x.dtype) != "c":
        small = x.dtype in (np.int8, np.int16, np.uint8, np.uint16)
        x = lax.convert_element_type(x, np.complex64 if small else _dt.default_complex())
    return call(sort_kernel, x, axis=x.ndim - 1, descending=False, want_indices=False)
