"""Sparse + sparse and sparse - sparse on the host: SciPy's CSR add, the CPU backend's
fast path.

The lax kernel of a sum over the union of two patterns (``union.sparse_sparse``)
finds each entry's place in the union with running sums and a search within rows, needs
a host round trip for the eager entry count, and then scatters the values: on CPU 3-4x
SciPy's ``A + B`` and close to a second of compilation.  SciPy's ``csr + csr`` merges two
canonical rows in one pass.  So ``add``/``subtract`` of two 2-D sparse arrays without batch
or dense dimensions (BCOO or BCSR, any mix) run one kernel (``union._union_2d_kernel``)
that declares this module's functions as its CPU host path (``@kernel(host=HostPath(...))``,
``laxarray/_core/runtime/host_path.py``):

- eagerly (concrete operands), :func:`eager`: the result is canonical (sorted, unique, no
  padding) and stores exactly the entries SciPy keeps -- an entry whose sum is exactly
  zero (``x - x``, an explicitly stored zero added to nothing) is left out, as in
  ``scipy.sparse``, so the stored pattern may be a subset of the structural union;
- under ``jax.jit``/``vmap`` (traced operands), :func:`traced`: a host callback (one host
  add per element under ``vmap``), padded to ``nse(A) + nse(B)`` -- the lax kernel's
  static bound, which the union never exceeds -- with sparse @ sparse's padding
  (:func:`.spgemm_host.padded`: value 0 at an out-of-range index) after the sorted
  entries;
- differentiated (``jax.jvp``/``grad`` through the traced call), by the lax kernel: its
  structural union carries the tangent of every entry, cancelled ones included.

The result has the lax path's type (BCSR when both operands are BCSR, else BCOO), dtype
and index dtype.  The kernel helper's gate decides, with sparse @ sparse's conditions (the
host path on -- ``laxarray.set_host_sort``, off for ``jax.export`` --, every leaf on one
CPU device, a dtype SciPy computes as the lax kernel does,
:data:`.spgemm_host.SCIPY_DTYPES`): GPU, sharded operands, bool/float16/bfloat16 and
``jax.export`` take the kernel's XLA body, the lax union.
"""

from __future__ import annotations

import jax
import numpy as np
from jax import lax

from laxarray.sparse.ops import spgemm_host
from laxarray.sparse.ops.layout import split
from laxarray._core import dtypes as _dt
from laxarray._core import lazy_scipy

#: the lax operations SciPy's CSR arithmetic computes over the union of two patterns
SIGN = {lax.add: 1, lax.sub: -1}

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
    sps = lazy_scipy.scipy_sparse()
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


# ---- the kernel's host path -------------------------------------------------------------------
def _sum_of(leaves, *, shape, a_flags, b_flags, op, dtype):
    """:func:`combine` of the two operands' raw leaves (as the kernel takes them; each
    operand's flags ``(csr, indices_sorted, unique_indices)``)."""
    a_leaves, b_leaves = split(leaves, a_flags)
    kinds = tuple((f[0], bool(f[1] and f[2])) for f in (a_flags, b_flags))
    return combine(a_leaves, b_leaves, shape=shape, kinds=kinds, sign=SIGN[op],
                   dtype=np.dtype(dtype))


def eager(*leaves, shape, a_flags, b_flags, op, dtype, index_dtype, nse):
    """The host path on concrete leaves (NumPy views): ``(*result leaves, count)`` -- the
    canonical sum's leaves (BCSR's when both operands are BCSR, else BCOO's), exact where
    ``nse`` is ``None`` and padded to ``nse`` entries where not, and its entry count."""
    c = _sum_of(leaves, shape=shape, a_flags=a_flags, b_flags=b_flags, op=op, dtype=dtype)
    csr = a_flags[0] and b_flags[0]
    out = (spgemm_host.leaves_of(c, index_dtype, csr) if nse is None
           else spgemm_host.padded(c, nse, index_dtype, csr))
    return tuple(out) + (_dt.default_index().type(c.nnz),)


def traced(leaves, lax_fn, *, shape, a_flags, b_flags, op, dtype, index_dtype, nse):
    """``(*result leaves, count)`` of the sum padded to ``nse`` entries, computed by SciPy
    in a host callback; ``lax_fn(*leaves)`` -- the lax path, same outputs -- gives the
    derivative (see the module notes)."""
    static = dict(shape=shape, a_flags=a_flags, b_flags=b_flags, op=op, dtype=dtype)
    csr = a_flags[0] and b_flags[0]

    def host(*leaves):
        c = _sum_of(leaves, **static)
        return spgemm_host.padded(c, nse, index_dtype, csr) + (_dt.default_index().type(c.nnz),)

    shapes = (spgemm_host.result_structs(nse, dtype, index_dtype, csr, shape[0])
              + (jax.ShapeDtypeStruct((), _dt.default_index()),))
    return tuple(spgemm_host.callback(host, shapes, lax_fn, *leaves))


__all__ = ["SIGN", "combine", "eager", "traced"]
