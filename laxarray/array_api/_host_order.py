"""Sorting and selection in NumPy on the host: the CPU backend's fast path.

XLA's CPU sort is a comparison sort with a general comparator; on 10**6 float64 values it
takes 10-30x NumPy's time (and a key transform to integers still 5x).  So on the CPU
backend laxarray calls NumPy: eagerly, on a concrete array, directly (``*_now``: no kernel,
so no compile on a new shape, and no copies -- the input is viewed, the result handed to
jax through aligned memory); traced, from the kernels through a host call
(``jax_host_calls.host_call``: ``jax.pure_callback``'s mechanism with one operand copy fewer),
batched under ``vmap`` (the callback sorts along the last axis, so a leading batch axis is
just more rows), and differentiable -- a sort's derivative gathers the tangent with the
permutation that sorts the primal.  jaxlib still hands a host call a copy of each operand
(about 25-35 ms per 80 MB measured; see docs/performance.md), which is why eager calls
skip it.
A kernel declares its host path (``_core/runtime/host_path.HostPath``), whose gate decides: the CPU
backend, one device, a real dtype NumPy sorts natively (bool, integers, float32, float64),
and ``laxarray.set_host_sort`` not turned off (``jax.export`` cannot serialize a callback).
This module holds the NumPy functions (``*_now``) and the host-call bodies the
declarations name.

Every function here works along the LAST axis of raw jax values inside a kernel body.
The order is NumPy's and the standard's: NaN last, -0.0 == 0.0, ties in input order;
``descending`` maps values through an order-reversing involution (negation for floats,
bitwise not for integers and bools), so ties keep their input order and NaN stays last.
"""

from __future__ import annotations

import ctypes
import functools
import warnings

import jax
import numpy as np
from jax import lax

from laxarray._core.host_memory import aligned
from laxarray._core.jax_host_calls import host_call
from laxarray.array_api.indexing_functions import take_along_axis_kernel
from laxarray._core import dtypes as _dt


def writable_alias(v):
    """A writable NumPy view of the memory of the read-only ``v`` (a view of a jax array),
    for NumPy routines that copy a read-only input first (``bincount``: 27 against 18 ms
    on 10**7 int64).  Only for reading, and only while ``v``'s owner is alive."""
    if v.flags.writeable or not v.flags.c_contiguous or v.size == 0:
        return v
    buf = (ctypes.c_char * v.nbytes).from_address(v.ctypes.data)
    return np.frombuffer(buf, v.dtype).reshape(v.shape)


def sort_now(a, axis, descending, want_indices):
    """``sort``/``argsort`` (int64) of the NumPy ``a`` along ``axis``, in the order of the
    module notes, on the host now; None where the kernel is faster (the values of 64-bit
    integers: see :func:`sort_last`)."""
    if not want_indices and a.dtype.kind in "iu" and a.dtype.itemsize == 8:
        return None
    k = np.moveaxis(a, axis, -1)
    out = (_np_argsort if want_indices else _np_sort)(k, descending=descending)
    return np.moveaxis(out, -1, axis)


def partition_now(a, axis, kth, want_indices):
    """NumPy's ``partition``/``argpartition`` (int64) of ``a`` along ``axis`` around the
    positions ``kth``, on the host now."""
    k = np.moveaxis(a, axis, -1)
    out = (_np_argpartition if want_indices else _np_partition)(k, kth=kth)
    return np.moveaxis(out, -1, axis)


def isin_now(a, b, invert):
    """``isin(a, b)`` of NumPy arrays on the host now: NumPy's ``isin`` for integers (a
    lookup table), a binary search of ``a`` in ``b``'s distinct values for floats (NaN is
    in nothing, -0.0 equals 0.0; NumPy's own float ``isin`` sorts both operands, 1.5-3x
    slower)."""
    if a.dtype.kind in "biu":
        return np.isin(a, b, invert=invert)
    s = np.unique(b)            # sorted, NaN last; a NaN never equals its slot
    pos = np.minimum(np.searchsorted(s, a), s.size - 1)
    found = np.asarray(s[pos] == a)     # 0-d: NumPy scalars
    return np.logical_not(found) if invert else found


def quietly(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with NumPy's warnings silenced (an all-NaN slice, an empty
    mean): laxarray's kernels return the same NaN without a warning."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


# ---- NumPy side (along the last axis) -----------------------------------------------------

def _key(a, descending):
    """``a`` itself, or its image under an order-reversing involution."""
    if not descending:
        return a
    return np.negative(a) if a.dtype.kind == "f" else np.invert(a)


def _restore_ties(out, k):
    """Put the values of ``k`` that compare equal but differ in their bits -- signed zeros,
    NaNs with different payloads -- back into input order in its sorted ``out``, as a
    stable sort leaves them.  Each such run is contiguous in a sorted row and holds the same
    values as the row of ``k``, so row-major boolean indexing moves them row by row."""
    for pick in (lambda v: v == 0, np.isnan):
        m = pick(k)
        if m.any():
            out[pick(out)] = k[m]
    return out


def _np_sort(a, *, descending):
    a = np.asarray(a)
    k = _key(a, descending)
    out = aligned(k.shape, k.dtype)     # sorted in place: a copy any device_put takes as is
    out[...] = k
    out.sort(axis=-1)   # NumPy's fastest sort; only ties that show are restored
    if k.dtype.kind == "f":
        out = _restore_ties(out, k)
    if descending:      # the involution back, in place (the result stays aligned)
        (np.negative if out.dtype.kind == "f" else np.invert)(out, out=out)
    return out


def _np_argsort(a, *, descending):
    return np.argsort(_key(np.asarray(a), descending), axis=-1, kind="stable").astype(
        _dt.default_index(), copy=False)


def _np_select(a, idx):
    """``sort(a)[..., idx]`` row by row, by partitioning on the positions asked for."""
    return _np_at_positions(a, idx, indices=False)


def _np_argselect(a, idx):
    """Where in ``a`` the elements of :func:`_np_select` come from (int64)."""
    return _np_at_positions(a, idx, indices=True).astype(_dt.default_index(), copy=False)


def owns(a) -> bool:
    """Whether ``a`` is a private copy this host function may reorder in place: what
    jaxlib hands a host call (its own writable copy of an XLA buffer), never a view of
    jax's memory (an eager call's operand) -- a second 80 MB copy spared on 10**7 values."""
    return a.flags.owndata and a.flags.writeable and a.flags.c_contiguous


def _np_at_positions(a, idx, indices):
    a, idx = np.asarray(a), np.asarray(idx)
    kth = np.unique(idx)
    if kth.size <= 16:      # a partition per position; more of them cost more than a sort
        part = (_np_argpartition if indices else _np_partition)(a, kth=kth)
    else:
        part = np.argsort(a, axis=-1, kind="stable") if indices else np.sort(a, axis=-1)
    return np.take_along_axis(part, np.broadcast_to(idx, a.shape[:-1] + idx.shape[-1:]), -1)


# ---- jax side ----------------------------------------------------------------------------

def _callback(fn, shape, dtype, *args, vmap_method="broadcast_all"):
    """``fn(*args)`` on the host, on NumPy arrays (``jax_host_calls.host_call``: one operand copy
    fewer than ``jax.pure_callback``); ``shape``/``dtype`` may be tuples (several
    results).  ``fn`` works along the last axis, so under ``vmap`` it takes the batch as
    more rows unless ``vmap_method`` says otherwise."""
    if type(dtype) is tuple:
        out = tuple(jax.ShapeDtypeStruct(s, d) for s, d in zip(shape, dtype))
    else:
        out = jax.ShapeDtypeStruct(shape, dtype)
    return host_call(fn, out, *args, vmap_method=vmap_method)


def _take_last(x, idx):
    return take_along_axis_kernel(x, idx, axis=x.ndim - 1, wrap=False)


def argsort_last(x, descending=False):
    """Stable argsort along the last axis (int64); no derivative flows through indices."""
    if x.size == 0:
        return lax.full(x.shape, 0, _dt.default_index())
    fn = functools.partial(_np_argsort, descending=descending)
    return _callback(fn, x.shape, _dt.default_index(), lax.stop_gradient(x))


def sort_last(x, descending=False):
    """Sorted values along the last axis (differentiable for floats).  64-bit integers are
    sorted by ``lax.sort``: XLA sorts them faster than NumPy (measured 52 vs 74 ms on 10**6
    int64, 0.66 vs 0.83 s on 10**7; for every other dtype NumPy is 1.2-15x faster)."""
    if x.size == 0:
        return x
    if x.dtype.kind in "iu" and x.dtype.itemsize == 8:
        if not descending:
            return lax.sort(x, dimension=x.ndim - 1)
        return lax.bitwise_not(lax.sort(lax.bitwise_not(x), dimension=x.ndim - 1))
    return _values(x, "sort", descending)


#: The host functions of the value-returning permutations, by kind, given their parameter.
_VALUES = {"sort": lambda p: functools.partial(_np_sort, descending=p),
           "partition": lambda p: functools.partial(_np_partition, kth=p)}


def _values(x, kind, param):
    fn = _VALUES[kind](param)
    if x.dtype.kind != "f":
        return _callback(fn, x.shape, x.dtype, x)
    return _permuted_values(x, kind, param)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2))
def _permuted_values(x, kind, param):
    return _callback(_VALUES[kind](param), x.shape, x.dtype, x)


@_permuted_values.defjvp
def _permuted_values_jvp(kind, param, primals, tangents):
    """The tangent goes where its element went: gathered with the permutation itself."""
    (x,), (t,) = primals, tangents
    perm = (argsort_last(x, param) if kind == "sort"
            else partition_last(x, param, want_indices=True))
    return _take_last(x, perm), _take_last(t, perm)


def unique_now(a, want):
    """The results :data:`UNIQUE_RESULTS` ``[want]`` of the 1-D NumPy ``a`` (exact lengths;
    see :func:`unique`), then their number of unique values."""
    n = a.size
    if want == "all":
        perm = _np_argsort(a, descending=False)
        s = a[perm]
    else:
        s = _np_sort(a, descending=False)
    new = np.empty(n, np.bool_)
    new[:1] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])    # each NaN is distinct (NaN != NaN)
    heads = np.flatnonzero(new)
    out = [s[heads]]
    if want == "all":
        out.append(perm[heads])
        inverse = np.empty(n, _dt.default_index())
        inverse[perm] = np.cumsum(new) - 1
        out.append(inverse)
    if want != "values":
        out.append(np.diff(heads, append=n))
    return out, heads.size


def _np_unique(a, *, want):
    """:func:`unique_now`, each result but ``inverse`` zero-padded to ``a``'s length."""
    n = a.size
    out, k = unique_now(a, want)

    def padded(v):
        full = np.zeros(n, v.dtype)
        full[:k] = v
        return full
    names = UNIQUE_RESULTS[want]
    return (*(v if r == "inverse" else padded(v) for r, v in zip(names, out)), _dt.default_index().type(k))


#: The results of :func:`unique` for each ``want``.
UNIQUE_RESULTS = {"values": ("values",), "counts": ("values", "counts"),
                  "all": ("values", "indices", "inverse", "counts")}


def unique(flat, want):
    """The distinct values of the non-empty 1-D ``flat`` in NumPy on the host: sorted (NaN
    last, each NaN distinct, a run of equal signed zeros represented by its first element
    in input order), with first-occurrence indices, inverse indices and counts as ``want``
    asks (:data:`UNIQUE_RESULTS`); each padded to ``flat``'s length, then the count."""
    n = flat.shape[0]
    names = UNIQUE_RESULTS[want]
    dtypes = tuple(flat.dtype if r == "values" else _dt.default_index() for r in names)
    return _callback(functools.partial(_np_unique, want=want),
                     ((n,),) * len(names) + ((),), dtypes + (_dt.default_index(),),
                     lax.stop_gradient(flat), vmap_method="sequential")


def _np_flatnonzero(mask, *, size):
    idx = np.flatnonzero(mask)[:size]
    out = np.zeros(size, _dt.default_index())
    out[:idx.size] = idx
    return out


def flatnonzero(mask, size):
    """The first ``size`` flat positions where the 1-D bool ``mask`` is True, in order,
    padded with zeros (the caller masks the padding with the count)."""
    return _callback(functools.partial(_np_flatnonzero, size=size), (size,), _dt.default_index(),
                     lax.stop_gradient(mask), vmap_method="sequential")


def isin(a, b):
    """:func:`isin_now` of ``a`` in ``b`` through a host callback.  For floats this trades
    speed for compile time: the lax program (a sort and a binary-search loop) runs about
    2x faster on 10**6 values but compiles in about 2x jax.numpy's time, the callback in
    a third of it; both run well under NumPy's own ``isin``."""
    return _callback(functools.partial(isin_now, invert=False), a.shape, np.bool_,
                     lax.stop_gradient(a), lax.stop_gradient(b), vmap_method="sequential")


def numpy_rows(np_fn, lax_fn, out, *args, vmap_method="broadcast_all"):
    """``np_fn(*args)`` -- NumPy's own function, on NumPy arrays -- through a host call
    (``out``: a ``jax.ShapeDtypeStruct``), differentiable: derivatives come from
    ``lax_fn(*args)``, the lax formulation of the same result; the value stays NumPy's
    (a lax formulation may round differently where XLA fuses the differentiated program
    otherwise).  ``np_fn`` may reorder a first operand it owns (:func:`owns`)."""
    return _numpy_rows(np_fn, lax_fn, out, vmap_method, *args)


@functools.partial(jax.custom_jvp, nondiff_argnums=(0, 1, 2, 3))
def _numpy_rows(np_fn, lax_fn, out, vmap_method, *args):
    return host_call(np_fn, out, *args, vmap_method=vmap_method)


@_numpy_rows.defjvp
def _numpy_rows_jvp(np_fn, lax_fn, out, vmap_method, primals, tangents):
    tangent = jax.jvp(lax_fn, primals, tangents)[1]
    return _numpy_rows(np_fn, lax_fn, out, vmap_method, *primals), tangent


def select_last(x, idx):
    """``sort(x)[..., idx]``: order statistics along the last axis at the positions ``idx``
    (int, shape ``x.shape[:-1] + (m,)`` or ``(m,)``, in range), by partitioning on the host;
    differentiable for floats (the derivative gathers at the selected elements)."""
    shape = x.shape[:-1] + idx.shape[-1:]
    if x.dtype.kind == "f":
        return _selected_values(x, idx)
    return _callback(_np_select, shape, x.dtype, x, idx)


@jax.custom_jvp
def _selected_values(x, idx):
    return _callback(_np_select, x.shape[:-1] + idx.shape[-1:], x.dtype, x, idx)


@_selected_values.defjvp
def _selected_values_jvp(primals, tangents):
    x, idx = primals
    t = tangents[0]
    where = _callback(_np_argselect, x.shape[:-1] + idx.shape[-1:], _dt.default_index(),
                      lax.stop_gradient(x), idx)
    return _take_last(x, where), _take_last(t, where)


def _np_partition(a, *, kth):
    a = np.asarray(a)
    if owns(a):             # a host call's own copy: partitioned in place
        a.partition(kth, axis=-1)
        return a
    out = aligned(np.shape(a), a.dtype)
    out[...] = a
    out.partition(kth, axis=-1)
    return out


def _np_argpartition(a, *, kth):
    return np.argpartition(np.asarray(a), kth, axis=-1).astype(_dt.default_index(), copy=False)


def partition_last(x, kth, want_indices=False):
    """NumPy's ``partition``/``argpartition`` along the last axis around the static ``kth``
    (a tuple of positions); the values are differentiable for floats."""
    if x.size == 0:
        return lax.full(x.shape, 0, _dt.default_index()) if want_indices else x
    if want_indices:
        fn = functools.partial(_np_argpartition, kth=kth)
        return _callback(fn, x.shape, _dt.default_index(), lax.stop_gradient(x))
    return _values(x, "partition", kth)

