"""Sparse @ sparse on the host: SciPy's SpGEMM, the CPU backend's fast path.

XLA has no sparse product: the lax kernel (``dot._spsp_kernel``) expands every product,
sorts the products by output coordinate and sums runs -- on CPU 2-20x SciPy's time and
memory proportional to the number of products.  SciPy's Gustavson product (``A @ B`` of CSR
matrices) keeps one row of the result at a time.  So a 2-D product without batch or dense
dimensions runs one kernel (``dot._spsp_2d``) that declares this module's functions as its
CPU host path (``@kernel(host=HostPath(...))``, ``laxarray/_core/runtime/host_path.py``):

- eagerly (concrete operands), :func:`eager`: the result stores exactly the entries SciPy
  keeps, with SciPy's rule -- an entry whose products sum to exactly zero is left out, so
  the stored pattern is a subset of the structural one -- and its columns within a row in
  the order SciPy leaves them (the kernel says whether that order is sorted);
- under ``jax.jit``/``vmap`` (traced operands), :func:`traced`: a host call padded to
  the caller's ``nse`` (a bound on the number of products, as for the lax kernel), with the
  same overflow report and NaN values when the bound is too small;
- differentiated (``jax.jvp``/``grad`` through the traced call), by the lax kernel: its
  structural pattern carries the tangent of every entry, cancelled ones included.

The kernel helper's gate (:meth:`HostPath.takes`) decides: the host path is on
(``laxarray.set_host_sort``; ``jax.export`` needs it off), every operand leaf lives on (or
is traced in a process with) one CPU device, and the result dtype is one SciPy computes as
the lax kernel does (:data:`SCIPY_DTYPES`).  GPU, sharded operands and ``jax.export`` take
the kernel's XLA body, the lax product; batched or dense dimensions take the general lax
path.
"""

from __future__ import annotations

import jax
import numpy as np
from laxarray._core.errors import fail
from laxarray._core import lazy_scipy
from laxarray._core.host_memory import aligned, to_device
from laxarray._core.jaxapi import in_wide_mode
from laxarray._core.jax_host_calls import host_call
from laxarray.sparse.ops.layout import split
from laxarray._core import dtypes as _dt

#: The dtypes SciPy's sparse arithmetic computes as the lax kernels do: the integers,
#: float32/float64, complex64/complex128 (no float16 or bfloat16, which SciPy lacks; no
#: bool, whose sum SciPy takes as a logical or).
SCIPY_DTYPES = frozenset(np.dtype(t) for t in (
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float32, np.float64, np.complex64, np.complex128))


# ---- NumPy / SciPy side ---------------------------------------------------------------------
def _operand(leaves, shape, csr, contract, dtype, left):
    """A SciPy sparse matrix of one operand, oriented for ``left @ right`` (the contracted
    dimension last for the left operand, first for the right one), and the contracted
    coordinate of each stored (non-padding) entry, for counting products."""
    sps = lazy_scipy.scipy_sparse()
    if csr:
        data, indices, indptr = (np.asarray(v) for v in leaves)
        n = int(indptr[-1])
        rows = np.repeat(np.arange(shape[0], dtype=indices.dtype), np.diff(indptr))
        cols = indices[:n]
        mat = sps.csr_matrix((data[:n].astype(dtype, copy=False), cols, indptr[:shape[0] + 1]),
                             shape=shape)
    else:
        data, idx = (np.asarray(v) for v in leaves)
        rows, cols = idx[:, 0], idx[:, 1]
        keep = (rows >= 0) & (rows < shape[0]) & (cols >= 0) & (cols < shape[1])
        if not keep.all():
            data, rows, cols = data[keep], rows[keep], cols[keep]
        mat = sps.csr_matrix((data.astype(dtype, copy=False), (rows, cols)), shape=shape)
    # the contracted dimension: last of the left operand, first of the right one
    flip = (contract == 0) if left else (contract == 1)
    return (mat.T if flip else mat), (rows if contract == 0 else cols)


def _count_products(a_key, b_key, inner):
    """Products the lax kernel would form: for each entry of the left operand, the number
    of entries of the right one on its contracted coordinate."""
    per = np.bincount(b_key, minlength=inner)
    return int(per[a_key].sum()) if a_key.size else 0


def product(a_leaves, b_leaves, *, ashape, bshape, a_csr, b_csr, lc, rc, dtype):
    """``(C, n_products)``: the CSR product (SciPy's) and the product count."""
    a, a_key = _operand(a_leaves, ashape, a_csr, lc, dtype, True)
    b, b_key = _operand(b_leaves, bshape, b_csr, rc, dtype, False)
    c = (a @ b).tocsr()
    if c.dtype != np.dtype(dtype):
        c = c.astype(dtype)
    return c, _count_products(a_key, b_key, ashape[lc])


def coo_rows(c, index_dtype):
    """The row of each stored entry of CSR ``c``."""
    return np.repeat(np.arange(c.shape[0], dtype=index_dtype), np.diff(c.indptr))


def padded(c, size, index_dtype, csr):
    """The leaves of CSR ``c`` padded (or cut) to ``size`` entries, in the layout of the
    lax path: BCSR ``(data, indices, indptr)`` with padding columns ``n_cols`` after
    ``indptr[-1]``, or BCOO ``(data, indices)`` with padding at ``(n_rows, 0)``; padding
    values are 0."""
    n = min(c.nnz, size)
    data = np.zeros((size,), c.dtype)
    data[:n] = c.data[:n]
    if csr:
        cols = np.full((size,), c.shape[1], index_dtype)
        cols[:n] = c.indices[:n]
        indptr = np.minimum(c.indptr, n).astype(index_dtype)
        return data, cols, indptr
    idx = np.zeros((size, 2), index_dtype)
    idx[:n, 0] = coo_rows(c, index_dtype)[:n]
    idx[:n, 1] = c.indices[:n]
    idx[n:, 0] = c.shape[0]
    return data, idx


def leaves_of(c, index_dtype, csr):
    """The exact leaves of CSR ``c`` (no padding), BCSR's or BCOO's."""
    if csr:
        return (c.data, c.indices.astype(index_dtype, copy=False),
                c.indptr.astype(index_dtype, copy=False))
    idx = aligned((c.nnz, 2), index_dtype)
    idx[:, 0] = coo_rows(c, index_dtype)
    idx[:, 1] = c.indices
    return c.data, idx


def _product_of(leaves, *, ashape, bshape, a_flags, b_flags, lc, rc, dtype):
    """:func:`product` of the two operands' raw leaves (as the kernel takes them)."""
    a_leaves, b_leaves = split(leaves, a_flags)
    return product(a_leaves, b_leaves, ashape=ashape, bshape=bshape, a_csr=a_flags[0],
                   b_csr=b_flags[0], lc=lc, rc=rc, dtype=dtype)


# ---- the kernel's host path -------------------------------------------------------------------
def eager(*leaves, ashape, bshape, a_flags, b_flags, lc, rc, dtype, index_dtype, nse):
    """The host path on concrete leaves (NumPy views): ``(*result leaves, count, needed,
    sorted)`` -- the product's leaves (BCSR's when both operands are BCSR, else BCOO's),
    exact where ``nse`` is ``None`` and padded to ``nse`` entries where not; the number of
    stored entries, of products, and whether the columns are sorted within each row."""
    c, needed = _product_of(leaves, ashape=ashape, bshape=bshape, a_flags=a_flags,
                            b_flags=b_flags, lc=lc, rc=rc, dtype=dtype)
    csr = a_flags[0] and b_flags[0]
    if nse is None:
        out = leaves_of(c, index_dtype, csr)
    else:
        if needed > nse:    # eagerly a bound the data exceed is an error, as for the lax path
            fail(ValueError, "dot_general", f"an 'nse' of at least {needed} (the number of "
                 "products of these operands)", nse)
        out = padded(c, nse, index_dtype, csr)
    return tuple(out) + (_dt.default_index().type(c.nnz), _dt.default_index().type(needed), np.bool_(c.has_sorted_indices))


def traced(leaves, lax_fn, *, ashape, bshape, a_flags, b_flags, lc, rc, dtype, index_dtype,
           nse):
    """``(*result leaves, count, needed)`` of the product padded to ``nse`` entries, computed
    by SciPy in a host call; ``lax_fn(*leaves)`` -- the lax path, same outputs -- gives the
    derivative (see the module notes)."""
    static = dict(ashape=ashape, bshape=bshape, a_flags=a_flags, b_flags=b_flags, lc=lc,
                  rc=rc, dtype=dtype)
    csr = a_flags[0] and b_flags[0]
    rows = ashape[1 - lc]

    def host(*leaves):
        c, needed = _product_of(leaves, **static)
        return padded(c, nse, index_dtype, csr) + (_dt.default_index().type(c.nnz), _dt.default_index().type(needed))

    shapes = (result_structs(nse, dtype, index_dtype, csr, rows)
              + (jax.ShapeDtypeStruct((), _dt.default_index()), jax.ShapeDtypeStruct((), _dt.default_index())))
    return tuple(callback(host, shapes, lax_fn, *leaves))


def result_structs(size, dtype, index_dtype, csr, rows):
    """The shapes of a 2-D sparse result's leaves padded to ``size`` entries: ``(data,
    indices, indptr)`` of ``rows`` rows when ``csr``, else ``(data, indices)``."""
    data = jax.ShapeDtypeStruct((size,), dtype)
    if csr:
        return (data, jax.ShapeDtypeStruct((size,), index_dtype),
                jax.ShapeDtypeStruct((rows + 1,), index_dtype))
    return data, jax.ShapeDtypeStruct((size, 2), index_dtype)


def callback(host, shapes, lax_fn, *leaves):
    """``host(*leaves)`` (NumPy in, a tuple of NumPy arrays of ``shapes`` out) in a host
    call (``jax_host_calls.host_call``; one call per element under ``vmap``), differentiated as
    ``lax_fn(*leaves)`` is: the lax kernel computing the same leaves carries the
    tangents."""
    @jax.custom_jvp
    def run(*leaves):
        return host_call(host, shapes, *leaves, vmap_method="sequential")

    @run.defjvp
    @in_wide_mode   # (run by jax's differentiation, maybe after laxarray's call returned)
    def run_jvp(primals, tangents):
        return jax.jvp(lax_fn, primals, tangents)

    return run(*leaves)


__all__ = ["SCIPY_DTYPES", "product", "padded", "leaves_of", "eager", "traced",
           "result_structs", "callback", "to_device"]
