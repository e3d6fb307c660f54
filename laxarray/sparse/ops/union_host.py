"""Sparse + sparse and sparse - sparse on the host: SciPy's CSR add, the CPU backend's
fast path.

The lax kernel of a sum over the union of two patterns (``elementwise.sparse_sparse``)
finds each entry's place in the union with running sums and a search within rows, needs
a host round trip for the eager entry count, and then scatters the values: on CPU 3-4x
SciPy's ``A + B`` and close to a second of compilation.  SciPy's ``csr + csr`` merges two
canonical rows in one pass.  So on the CPU backend ``add``/``subtract`` of two 2-D sparse
arrays without batch or dense dimensions (BCOO or BCSR, any mix) run SciPy:

- eagerly (concrete operands), directly: the result is canonical (sorted, unique, no
  padding) and stores exactly the entries SciPy keeps -- an entry whose sum is exactly
  zero (``x - x``, an explicitly stored zero added to nothing) is left out, as in
  ``scipy.sparse``, so the stored pattern may be a subset of the structural union;
- under ``jax.jit``/``vmap`` (traced operands), through a host callback (one host
  add per element under ``vmap``), padded to ``nse(A) + nse(B)`` -- the lax kernel's
  static bound, which the union never exceeds -- with sparse @ sparse's padding
  (:func:`.spgemm_host.padded`: value 0 at an out-of-range index) after the sorted
  entries;
- differentiated (``jax.jvp``/``grad`` through the traced call), by the lax kernel: its
  structural union carries the tangent of every entry, cancelled ones included.

The result has the lax path's type (BCSR when both operands are BCSR, else BCOO), dtype
and index dtype.  :func:`usable` decides, with :func:`.spgemm_host.usable`'s conditions
(the host path on -- ``laxarray.set_host_sort``, off for ``jax.export`` --, one CPU device,
a dtype SciPy computes as the lax kernel does): GPU, sharded operands, batched or dense
dimensions, bool/float16/bfloat16 and ``jax.export`` take the lax kernel.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.jaxapi import is_tracer
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcsr import BCSR
from laxarray.sparse.ops import spgemm_host

#: the lax operations SciPy's CSR arithmetic computes over the union of two patterns
_SIGN = {lax.add: 1, lax.sub: -1}

def usable(x1, x2, op, dtype) -> bool:
    """Whether ``op(x1, x2)`` of two sparse arrays takes the host path."""
    if op not in _SIGN or not all(type(x) in (BCOO, BCSR) for x in (x1, x2)):
        return False
    if tuple(x1.shape) != tuple(x2.shape):
        return False
    return spgemm_host.usable_operands(x1, x2, dtype)


def union(fn, x1, x2, op, dtype, lax_union):
    """``op(x1, x2)`` (``lax.add``/``lax.sub``) of two sparse arrays by SciPy on the host
    (see the module notes); ``lax_union(fn, x1, x2, op, nse)`` is the lax path, for the
    derivative."""
    index_dtype = np.promote_types(x1.indices.dtype, x2.indices.dtype)
    csr = isinstance(x1, BCSR) and isinstance(x2, BCSR)
    static = dict(shape=tuple(x1.shape), kinds=(_kind(x1), _kind(x2)), sign=_SIGN[op],
                  dtype=np.dtype(dtype))
    a_leaves, b_leaves = x1._leaves(), x2._leaves()
    if not any(is_tracer(v) for v in a_leaves + b_leaves):
        c = combine(a_leaves, b_leaves, **static)
        leaves = spgemm_host.leaves_of(c, index_dtype, csr)
        device = next(iter(a_leaves[0].sharding.device_set))    # where the operands live
        return _sparse_of(tuple(spgemm_host.to_device(v, device) for v in leaves), x1.shape, csr)
    na = len(a_leaves)
    size = x1.nse + x2.nse

    def lax_leaves(*leaves):      # the lax path on the same leaves, for the derivative
        a = type(x1)._new(*leaves[:na], x1.shape, x1.indices_sorted, x1.unique_indices)
        b = type(x2)._new(*leaves[na:], x2.shape, x2.indices_sorted, x2.unique_indices)
        # the bound given: the indices may be concrete (closed over) inside a jit trace
        return lax_union(fn, a, b, op, size)._leaves()

    leaves = _traced(a_leaves, b_leaves, lax_leaves, size=size, index_dtype=index_dtype,
                     csr=csr, **static)
    return _sparse_of(leaves, x1.shape, csr)


def _kind(x):
    """``(csr, canonical)``: the operand's format and whether its flags say its entries
    are sorted and unique."""
    return isinstance(x, BCSR), bool(x.indices_sorted and x.unique_indices)


def _sparse_of(leaves, shape, csr):
    """A canonical BCSR (``csr``) or BCOO of raw ``leaves`` (padding, if any, last)."""
    if csr:
        return BCSR._new(*leaves, shape, indices_sorted=True, unique_indices=True)
    return BCOO._new(*leaves, shape, indices_sorted=True, unique_indices=True)


# ---- NumPy / SciPy side ---------------------------------------------------------------------
def _unsigned(v):
    """``v`` viewed as unsigned integers: a negative index reads as a huge one."""
    return v.view(np.dtype(f"u{v.dtype.itemsize}")) if v.dtype.kind == "i" else v


def _all_in_range(idx, bounds):
    """Whether every index of ``idx`` (``(nnz, k)`` or ``(nnz,)``) lies in ``[0, bound)``
    of its column: first one flat maximum against the smallest bound (one fast pass, and
    the whole answer for a square matrix), then column by column."""
    u = _unsigned(idx)
    if u.size == 0 or u.reshape(-1).max() < min(bounds):
        return True
    u = u.reshape(u.shape[0], -1)
    return all(bool((u[:, d] < b).all()) for d, b in enumerate(bounds))


def _in_range(rows, cols, shape):
    """The entries with both indices in range (padding, and traced garbage, left out)."""
    return (_unsigned(rows) < shape[0]) & (_unsigned(cols) < shape[1])


def _csr_of(leaves, shape, kind, dtype):
    """A canonical SciPy CSR array (sorted, unique, no padding) of one operand's leaves:
    BCSR's arrays as they are, a canonical BCOO with its row pointers counted, anything
    else through SciPy's COO -> CSR (which sums duplicates and sorts)."""
    import scipy.sparse as sps
    csr, canonical = kind
    m, n = shape
    if csr:
        data, cols, indptr = (np.asarray(v) for v in leaves)
        nnz = int(indptr[-1])
        data, cols, indptr = data[:nnz].astype(dtype, copy=False), cols[:nnz], indptr[:m + 1]
        if _all_in_range(cols, (n,)):
            if canonical:
                return sps.csr_array((data, cols, indptr), shape=shape)
            # summed and sorted in place: on copies (jax's buffers are read-only)
            mat = sps.csr_array((data, cols, indptr), shape=shape, copy=True)
            mat.sum_duplicates()
            return mat
        rows = np.repeat(np.arange(m, dtype=cols.dtype), np.diff(indptr))
    else:
        data, idx = (np.asarray(v) for v in leaves)
        data = data.astype(dtype, copy=False)
        rows, cols = idx[:, 0], idx[:, 1]
        if canonical:    # sorted and unique: the valid entries are in CSR's order already
            if not _all_in_range(idx, shape):
                keep = _in_range(rows, cols, shape)
                data, rows, cols = data[keep], rows[keep], cols[keep]
            indptr = np.zeros((m + 1,), idx.dtype)
            np.cumsum(np.bincount(rows, minlength=m), out=indptr[1:])
            return sps.csr_array((data, np.ascontiguousarray(cols), indptr), shape=shape)
    keep = _in_range(rows, cols, shape)
    if not keep.all():
        data, rows, cols = data[keep], rows[keep], cols[keep]
    return sps.coo_array((data, (rows, cols)), shape=shape).tocsr()


def combine(a_leaves, b_leaves, *, shape, kinds, sign, dtype):
    """SciPy's canonical CSR ``A + B`` (``sign`` 1) or ``A - B`` (``sign`` -1) of two
    operands' leaves, in ``dtype``."""
    a = _csr_of(a_leaves, shape, kinds[0], dtype)
    b = _csr_of(b_leaves, shape, kinds[1], dtype)
    c = a + b if sign > 0 else a - b
    return c if c.dtype == dtype else c.astype(dtype)


# ---- under a trace ----------------------------------------------------------------------------
def _traced(a_leaves, b_leaves, lax_leaves, *, shape, kinds, sign, dtype, index_dtype, size,
            csr):
    """The union's leaves padded to ``size`` entries, computed by SciPy in a host callback;
    ``lax_leaves(*a_leaves, *b_leaves)`` -- the lax path, same outputs -- gives the
    derivative (see the module notes)."""
    na = len(a_leaves)
    static = dict(shape=shape, kinds=kinds, sign=sign, dtype=dtype)

    def host(*leaves):
        c = combine(leaves[:na], leaves[na:], **static)
        return spgemm_host.padded(c, size, index_dtype, csr)

    shapes = spgemm_host.result_structs(size, dtype, index_dtype, csr, shape[0])
    return tuple(spgemm_host.callback(host, shapes, lax_leaves, *a_leaves, *b_leaves))


__all__ = ["usable", "union", "combine"]
