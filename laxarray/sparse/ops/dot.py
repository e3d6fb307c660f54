"""Contractions: ``dot_general`` and ``matmul`` for sparse·dense, dense·sparse, sparse·sparse.

sparse·dense (the hot path) is one gather of the dense operand at the contracted sparse
coordinates, a multiply (or a small ``dot_general`` over dense blocks), and one
scatter-add of the products at the free sparse coordinates; when the entries are sorted
by row that scatter runs with ``indices_are_sorted`` (a sorted segment sum).  Batch
dimensions of the sparse operand are mapped with ``jax.vmap``.  dense·sparse is the
transposed problem.  sparse·sparse expands only the products that exist (for each entry
of the left operand, the matching row of the right one), then sums duplicates: memory
grows with the number of products, never with ``nse(A) * nse(B)``.  A 2-D product without
batch or dense dimensions runs one kernel (:func:`_spsp_2d_kernel`) whose XLA body is that
lax product and which declares SciPy's SpGEMM as its CPU host path (:mod:`.spgemm_host`):
the kernel helper's gate alone decides which runs.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax
import jax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray._core.data_checks import report
from laxarray._core import numerics as _numerics
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore, is_sparse
from laxarray.sparse.bcoo import BCOO, _nse_int
from laxarray.sparse.bcoo_canonical import segments_by_key
from laxarray.sparse.bcsr import BCSR, bcsr_from_bcoo
from laxarray.sparse.ops import ell
from laxarray.sparse.ops.layout import bcoo_operands, leaf_flags, to_flat
from laxarray.sparse.ops import spgemm_host as _spgemm
from laxarray.sparse.ops.reshape import transpose


def _norm_dims(fn, dimension_numbers, lhs_ndim, rhs_ndim):
    try:
        (lc, rc), (lb, rb) = dimension_numbers
        lc, rc, lb, rb = (tuple(int(a) for a in t) for t in (lc, rc, lb, rb))
    except (TypeError, ValueError):
        fail(TypeError, fn, "dimension_numbers ((lhs_contract, rhs_contract), "
             "(lhs_batch, rhs_batch))", dimension_numbers)
    if len(lc) != len(rc) or len(lb) != len(rb):
        fail(ValueError, fn, "equal numbers of lhs and rhs contracting/batch dimensions",
             dimension_numbers)
    for dims, nd in ((lc + lb, lhs_ndim), (rc + rb, rhs_ndim)):
        if len(set(dims)) != len(dims) or any(not 0 <= d < nd for d in dims):
            fail(ValueError, fn, f"distinct dimensions in [0, {nd})", dimension_numbers)
    return (lc, rc), (lb, rb)


def _check_sizes(fn, lshape, rshape, dims):
    (lc, rc), (lb, rb) = dims
    for a, b in zip(lc + lb, rc + rb):
        if lshape[a] != rshape[b]:
            fail(ValueError, fn, f"matching sizes of lhs dim {a} and rhs dim {b}",
                 (tuple(lshape), tuple(rshape)))


@in_wide_mode
def dot_general(lhs, rhs, dimension_numbers, *, nse=None, precision=None,
                preferred_element_type=None):
    """Compute a general contraction (``lax.dot_general``) with at least one sparse operand.

    jax: jax.experimental.sparse.bcoo_dot_general.

    Parameters
    ----------
    lhs, rhs : BCOO, BCSR or array_like
        The operands, at least one of them sparse.
    dimension_numbers : tuple
        ``((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))``, as ``lax.dot_general``'s.
    nse : int, optional
        Sparse · sparse: a static bound on the number of products, required under
        ``jax.jit`` (eagerly it is computed).
    precision, preferred_element_type : optional
        Accepted for ``lax.dot_general``'s signature and ignored.

    Returns
    -------
    Array, BCOO or BCSR
        Sparse · dense and dense · sparse: the dense laxarray ``Array``.  Sparse · sparse: a
        sparse array (a BCSR when both inputs are BCSR and the result is 2-D, else a BCOO).

    Raises
    ------
    TypeError
        If neither operand is sparse, or ``dimension_numbers`` is malformed.
    ValueError
        If contracted or batch dimensions differ in size, or (sparse · sparse under a trace)
        ``nse`` is missing.

    Notes
    -----
    Static under ``jax.jit``: ``dimension_numbers``, ``nse``.

    Batch dimensions of a sparse operand may be dot batch, free or contracted dimensions;
    sparse and dense dimensions may be free or contracted (make them batch dimensions with
    :func:`update_layout` to use them as dot batch dimensions).  A 2-D sparse · sparse
    product takes the CPU host path (SciPy's SpGEMM; see
    :mod:`laxarray.sparse.ops.spgemm_host`) where the kernel helper's gate lets it.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.dot_general(a, la.ones(3), (((1,), (0,)), ((), ())))
    Array([1., 5.])
    """
    fn = "dot_general"
    ls, rs = is_sparse(lhs), is_sparse(rhs)
    if not (ls or rs):
        fail(TypeError, fn, "at least one sparse operand", lhs)
    if ls != rs:
        fast = _fast_2d(fn, lhs, rhs, dimension_numbers, ls)
        if fast is not None:
            return wrap(fast)
    if ls and rs:
        dims = _norm_dims(fn, dimension_numbers, lhs.ndim, rhs.ndim)
        _check_sizes(fn, lhs.shape, rhs.shape, dims)
        if _plain_2d(lhs, rhs, dims):
            return _spsp_2d(fn, lhs, rhs, dims, nse)
        a, b = lhs._as_bcoo(), rhs._as_bcoo()
        return _restore(_spsp_dot(fn, a, b, dims, nse), lhs, rhs)
    if ls:
        a = lhs._as_bcoo()
        y = to_raw(fn, rhs, "rhs")
        dims = _norm_dims(fn, dimension_numbers, a.ndim, y.ndim)
        _check_sizes(fn, a.shape, y.shape, dims)
        return wrap(sparse_dense_raw(fn, a, y, dims))
    b = rhs._as_bcoo()
    x = to_raw(fn, lhs, "lhs")
    dims = _norm_dims(fn, dimension_numbers, x.ndim, b.ndim)
    _check_sizes(fn, x.shape, b.shape, dims)
    (lc, rc), (lb, rb) = dims
    out = sparse_dense_raw(fn, b, x, ((rc, lc), (rb, lb)))
    # swapped result: (batch, rhs free, lhs free) -> (batch, lhs free, rhs free)
    nbat = len(lb)
    n_rfree = b.ndim - len(rc) - len(rb)
    n_lfree = x.ndim - len(lc) - len(lb)
    perm = (tuple(range(nbat)) + tuple(range(nbat + n_rfree, nbat + n_rfree + n_lfree))
            + tuple(range(nbat, nbat + n_rfree)))
    return wrap(lax.transpose(out, perm) if perm != tuple(range(len(perm))) else out)


def _untranspose(mat, contract):
    """``(source, contract')`` when ``mat`` is the 2-D transpose of ``source``: the product
    runs on ``source`` with the contracted dimension mirrored (no sort of ``mat``)."""
    src = getattr(mat, "_transpose_of", None)
    if src is None or len(contract) != 1:
        return mat, contract
    return src, (1 - contract[0],)


def _fast_2d(fn, lhs, rhs, dimension_numbers, sparse_left):
    """Raw result of a 2-D sparse · 1-D/2-D dense contraction over one dimension (either
    order, no batch dimensions) through a cached hybrid layout (:mod:`.ell`) or, for a
    transposed view, through its source; ``None`` when the general path applies."""
    try:
        (lc, rc), (lb, rb) = dimension_numbers
        lc, rc = tuple(int(c) for c in lc), tuple(int(c) for c in rc)
    except (TypeError, ValueError):
        return None
    if lb or rb or len(lc) != 1 or len(rc) != 1:
        return None
    mat, other = (lhs, rhs) if sparse_left else (rhs, lhs)
    sc, dc = (lc, rc) if sparse_left else (rc, lc)
    if mat.ndim != 2 or mat.n_batch or mat.n_dense:
        return None
    y = to_raw(fn, other, "rhs" if sparse_left else "lhs")
    if y.ndim not in (1, 2) or not 0 <= dc[0] < y.ndim or not 0 <= sc[0] < 2:
        return None
    mat, sc = _untranspose(mat, sc)
    if mat.shape[sc[0]] != y.shape[dc[0]]:
        return None
    p = ell.plan(mat, transposed=sc[0] == 0)
    if p is None:
        if mat is lhs or mat is rhs:
            return None
        # a transposed view without a layout: contract its (traced) source
        a = mat._as_bcoo()
        out = sparse_dense_raw(fn, a, y, ((sc, dc), ((), ())))
        return out if sparse_left or out.ndim < 2 else lax.transpose(out, (1, 0))
    dtype = _dt.result_type(mat.dtype, y.dtype)
    moved = y.ndim == 2 and dc[0] == 1
    out = ell.product(p, mat.data, lax.transpose(y, (1, 0)) if moved else y, dtype)
    # out: (sparse free, dense free); dense . sparse wants (dense free, sparse free)
    if out.ndim == 2 and not sparse_left:
        out = lax.transpose(out, (1, 0))
    return out


def sparse_dense_raw(fn, a, y, dims):
    """Raw dense result of ``dot_general(a (BCOO), y (raw dense), dims)``."""
    (lc, rc), (lb, rb) = dims
    nb = a.n_batch
    for d in lb:
        if d >= nb:
            fail_text(NotImplementedError, fn, f"lhs dimension {d} is a dot batch dimension "
                      f"but not a batch dimension of the sparse operand (n_batch={nb}); "
                      "convert it with update_layout(n_batch=...)")
    dtype = _dt.result_type(a.dtype, y.dtype)
    return _sparse_dense_kernel(a.data, a.indices, y, shape=a.shape, lc=lc, rc=rc, lb=lb,
                                rb=rb, sorted_=a.indices_sorted, dtype=dtype)


@kernel(static=("shape", "lc", "rc", "lb", "rb", "sorted_", "dtype"))
def _sparse_dense_kernel(data, indices, y, *, shape, lc, rc, lb, rb, sorted_, dtype):
    nb = indices.ndim - 2
    ns = indices.shape[-1]
    batch = tuple(shape[:nb])
    data = lax.convert_element_type(K.broadcast_batch(data, batch), dtype)
    indices = K.broadcast_batch(indices, batch)
    y = lax.convert_element_type(y, dtype)
    pair = dict(zip(lc, rc))
    pair.update(zip(lb, rb))
    # vmap over every lhs batch dimension (outermost first); rhs mapped where paired
    y_dims = list(range(y.ndim))
    in_axes_list = []
    for d in range(nb):
        if d in pair:
            r = y_dims.index(pair[d])
            y_dims.pop(r)
            in_axes_list.append(r)
        else:
            in_axes_list.append(None)
    inner_lc = tuple(c - nb for c in lc if c >= nb)
    inner_rc = tuple(y_dims.index(pair[c]) for c in lc if c >= nb)
    sparse_shape = tuple(shape[nb:nb + ns])
    dense_shape = tuple(shape[nb + ns:])

    def core(d, i, yy):
        return _spmm_core(d, i, yy, sparse_shape, dense_shape, inner_lc, inner_rc, sorted_)

    f = core
    for ax in reversed(in_axes_list):
        f = _vmap(f, (0, 0, ax))
    out = f(data, indices, y)
    # out: (lhs batch dims..., inner free...). Sum contracted batch dims, order the rest.
    contracted = tuple(d for d in range(nb) if d in lc)
    if contracted:
        out = lax.reduce_sum(out, contracted)
    kept = [d for d in range(nb) if d not in lc]
    batch_pos = [kept.index(d) for d in lb]
    free_pos = [kept.index(d) for d in kept if d not in lb]
    rest = list(range(len(kept), out.ndim))
    perm = tuple(batch_pos + free_pos + rest)
    if perm != tuple(range(out.ndim)):
        out = lax.transpose(out, perm)
    return out


def _vmap(f, in_axes):
    return jax.vmap(f, in_axes=in_axes)


def _spmm_core(data, indices, y, sparse_shape, dense_shape, lc, rc, sorted_):
    """Unbatched sparse·dense: data (nse, *dense), indices (nse, ns), y dense."""
    ns = len(sparse_shape)
    sc = [c for c in lc if c < ns]                 # contracted sparse dims
    dc = [c - ns for c in lc if c >= ns]           # contracted dense dims (in data block)
    rsc = [r for c, r in zip(lc, rc) if c < ns]
    rdc = [r for c, r in zip(lc, rc) if c >= ns]
    rfree = [r for r in range(y.ndim) if r not in rc]
    yt = lax.transpose(y, tuple(rsc + rdc + rfree)) if (rsc + rdc + rfree) != list(
        range(y.ndim)) else y
    nse = indices.shape[0]
    if sc:
        # gather the dense operand at the contracted sparse coordinates
        idx = lax.concatenate([indices[:, c:c + 1] for c in sc], 1)
        g = K.gather_prefix(yt, idx)
    else:
        g = lax.broadcast_in_dim(yt, (nse,) + tuple(yt.shape), tuple(range(1, yt.ndim + 1)))
    # g: (nse, *rdc dims, *rfree dims); data: (nse, *dense)
    nd = len(dense_shape)
    if not dc and nd == 0:
        prod = lax.mul(lax.broadcast_in_dim(data, g.shape, (0,)), g)
    else:
        prod = _numerics.dot_general(data, g, (((tuple(1 + c for c in dc)),
                                          tuple(range(1, 1 + len(dc)))), ((0,), (0,))))
    # prod: (nse, dense free..., rfree...)
    free_sparse = [c for c in range(ns) if c not in sc]
    if not free_sparse:
        return lax.reduce_sum(prod, (0,))
    out_shape = tuple(sparse_shape[c] for c in free_sparse) + tuple(prod.shape[1:])
    idx = lax.concatenate([indices[:, c:c + 1] for c in free_sparse], 1)
    dnums = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(1, prod.ndim)),
                                        inserted_window_dims=tuple(range(len(free_sparse))),
                                        scatter_dims_to_operand_dims=tuple(
                                            range(len(free_sparse))))
    row_sorted = sorted_ and free_sparse == list(range(len(free_sparse)))
    # padding in a contracted column was gathered as 0; padding in a free column drops
    return lax.scatter_add(lax.full(out_shape, 0, prod.dtype), idx, prod, dnums,
                           indices_are_sorted=row_sorted, mode=K.GATHER_FILL)


# ---- matmul ---------------------------------------------------------------------------------
@in_wide_mode
def matmul(x1, x2, *, nse=None):
    """Compute the matrix product ``x1 @ x2`` with at least one sparse operand.

    Array API: matmul (of the dense equivalents). jax: jax.experimental.sparse's ``matmul``.

    Parameters
    ----------
    x1, x2 : BCOO, BCSR or array_like
        The operands, at least one of them sparse, with NumPy's matmul rules for 1-D, 2-D
        and stacked (rank > 2, equal leading dimensions) operands.
    nse : int, optional
        Sparse @ sparse: a static bound on the number of products, required under
        ``jax.jit``/``vmap``/``grad``, where the result stores that many entries.

    Returns
    -------
    Array, BCOO or BCSR
        Sparse @ dense and dense @ sparse: the dense laxarray ``Array``.  Sparse @ sparse: a
        sparse array with exactly its distinct coordinates stored when computed eagerly (on
        the CPU host path SciPy also leaves out entries whose products sum to exactly zero).

    Raises
    ------
    TypeError
        If neither operand is sparse.
    ValueError
        If an operand is 0-d, the contracted sizes or the stacks' leading dimensions differ,
        or (eagerly) ``nse`` is smaller than the number of products.

    Notes
    -----
    Static under ``jax.jit``: ``nse``.

    The operator ``x1 @ x2`` is this function.  Under ``jax.jit``, if the data make more
    products than ``nse``, ``laxarray.checkify`` reports it and the stored values of a
    floating result are NaN.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.matmul(a, la.ones(3))
    Array([1., 5.])
    >>> la.ones(2) @ a
    Array([2., 1., 3.])
    >>> m = sp.fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> (m @ m).todense()
    Array([[2., 0.],
           [0., 2.]])
    """
    fn = "matmul"
    s1, s2 = is_sparse(x1), is_sparse(x2)
    shape1 = x1.shape if s1 else to_raw(fn, x1, "x1").shape
    shape2 = x2.shape if s2 else to_raw(fn, x2, "x2").shape
    n1, n2 = len(shape1), len(shape2)
    if n1 == 0 or n2 == 0:
        fail(ValueError, fn, "operands of rank >= 1", shape1 if n1 == 0 else shape2)
    c1 = n1 - 1
    c2 = 0 if n2 == 1 else n2 - 2
    if n1 > 2 and n2 > 2:
        if tuple(shape1[:-2]) != tuple(shape2[:-2]):
            fail(ValueError, fn, "equal leading (stack) dimensions", (shape1, shape2))
        nb = n1 - 2
        dims = ((c1,), (c2,)), (tuple(range(nb)), tuple(range(nb)))
    else:
        dims = ((c1,), (c2,)), ((), ())
        if n1 > 2 and n2 == 2:
            pass
        elif n2 > 2 and n1 <= 2:
            # dense/sparse x1 (n, k) with a stack x2 (..., k, m): contract then move axes
            out = dot_general(x1, x2, dims, nse=nse)
            return _move_stack_front(out, n1, n2)
    if shape1[c1] != shape2[c2]:
        fail(ValueError, fn, f"matching contracted sizes ({shape1[c1]} and {shape2[c2]})",
             (shape1, shape2))
    return dot_general(x1, x2, dims, nse=nse)


def _move_stack_front(out, n1, n2):
    # dot_general gives (x1 free, x2 free...) = (n?, *stack, m); matmul wants (*stack, n?, m)
    nst = n2 - 2
    if n1 == 1:
        return out
    perm = tuple(range(1, 1 + nst)) + (0, out.ndim - 1)
    if is_sparse(out):
        return transpose(out, perm)
    return wrap(lax.transpose(out._value, perm))


# ---- sparse @ sparse ------------------------------------------------------------------------
def _spsp_dot(fn, a, b, dims, nse):
    (lc, rc), (lb, rb) = dims
    fa, fb = to_flat(a), to_flat(b)
    la = [d for d in range(a.ndim) if d not in lc and d not in lb]
    lr = [d for d in range(b.ndim) if d not in rc and d not in rb]
    out_shape = (tuple(a.shape[d] for d in lb) + tuple(a.shape[d] for d in la)
                 + tuple(b.shape[d] for d in lr))
    dtype = _dt.result_type(a.dtype, b.dtype)
    index_dtype = np.promote_types(np.promote_types(fa.indices.dtype, fb.indices.dtype),
                                   K.default_index_dtype(*out_shape))
    static = dict(ashape=a.shape, bshape=b.shape, lc=lc, rc=rc, lb=lb, rb=rb)
    traced = is_tracer(fa.indices) or is_tracer(fb.indices)
    if nse is None:
        if traced:
            fail_text(ValueError, fn, "expected a static 'nse' (a bound on the number of "
                      "products) for sparse @ sparse under jax.jit/vmap/grad; got None")
        n_products = int(_count_products_kernel(fa.indices, fb.indices, **static))
        exact = True
    else:
        n_products = _nse_int(fn, nse)
        exact = False
        if not traced:  # eagerly a bound the data exceed is an error, before the product
            needed = int(_count_products_kernel(fa.indices, fb.indices, **static))
            if needed > n_products:
                fail(ValueError, fn, f"an 'nse' of at least {needed} (the number of "
                     "products of these operands)", nse)
    data, indices, count, _ = _spsp_kernel(fa.data, fa.indices, fb.data, fb.indices,
                                           n_products=n_products, out_shape=out_shape,
                                           dtype=dtype, index_dtype=index_dtype, **static)
    if exact:
        n = int(count)
        data, indices = data[:n], indices[:n]
    return BCOO._new(data, indices, out_shape, indices_sorted=True, unique_indices=True)


def _row_keys(idx, shape, batch_dims, contract_dims):
    """Key over (batch dims, contracted dims) — the 'row' a product pairs on."""
    dims = tuple(batch_dims) + tuple(contract_dims)
    sub = lax.concatenate([idx[:, d:d + 1] for d in dims], 1) if dims else \
        lax.full((idx.shape[0], 0), 0, idx.dtype)
    key = K.linear_keys(sub, tuple(shape[d] for d in dims))
    pad = K.pad_mask(idx, shape)
    total = math.prod(shape[d] for d in dims)
    return lax.select(pad, lax.full(key.shape, total, K.KEY_DTYPE), key), total


def _b_rows(b_idx, bshape, rb, rc):
    keys, total = _row_keys(b_idx, bshape, rb, rc)
    skeys, perm = K.sort_by_keys(keys, total)
    counts = K.scatter_add_1d(total, skeys, lax.full(skeys.shape, 1, K.KEY_DTYPE),
                              sorted_=True)
    return perm, counts, K.exclusive_cumsum(counts), total


def _a_counts(a_idx, ashape, lb, lc, counts):
    keys, total = _row_keys(a_idx, ashape, lb, lc)
    return keys, K.gather_1d(counts, keys, K.GATHER_FILL)


@kernel(static=("ashape", "bshape", "lc", "rc", "lb", "rb"))
def _count_products_kernel(a_idx, b_idx, *, ashape, bshape, lc, rc, lb, rb):
    _, counts, _, _ = _b_rows(b_idx, bshape, rb, rc)
    _, cnt = _a_counts(a_idx, ashape, lb, lc, counts)
    return lax.reduce_sum(cnt, (0,))


@kernel(static=("ashape", "bshape", "lc", "rc", "lb", "rb", "n_products", "out_shape",
                "dtype", "index_dtype"))
def _spsp_kernel(a_data, a_idx, b_data, b_idx, *, ashape, bshape, lc, rc, lb, rb,
                 n_products, out_shape, dtype, index_dtype):
    perm, counts, starts, _ = _b_rows(b_idx, bshape, rb, rc)
    akeys, cnt = _a_counts(a_idx, ashape, lb, lc, counts)
    offsets = K.exclusive_cumsum(cnt)
    p = n_products
    a_of = K.segment_ids(cnt, p, K.KEY_DTYPE)                  # entry of a per product
    in_range = lax.lt(a_of, lax.full((), a_idx.shape[0], _dt.default_index()))
    j = lax.sub(K.iota(_dt.default_index(), p), K.gather_1d(offsets, a_of, K.GATHER_FILL))
    brow = K.gather_1d(akeys, a_of, K.GATHER_FILL)
    b_pos = lax.add(K.gather_1d(starts, brow, K.GATHER_FILL), j)
    b_of = K.gather_1d(perm, b_pos, K.GATHER_FILL)
    vals = lax.mul(lax.convert_element_type(K.gather_1d(a_data, a_of, K.GATHER_FILL), dtype),
                   lax.convert_element_type(K.gather_1d(b_data, b_of, K.GATHER_FILL), dtype))
    la = [d for d in range(len(ashape)) if d not in lc and d not in lb]
    lr = [d for d in range(len(bshape)) if d not in rc and d not in rb]
    ai = K.gather_1d(a_idx, a_of, K.GATHER_FILL)
    bi = K.gather_1d(b_idx, b_of, K.GATHER_FILL)
    cols = [ai[:, d:d + 1] for d in lb] + [ai[:, d:d + 1] for d in la] + \
        [bi[:, d:d + 1] for d in lr]
    idx = lax.concatenate([lax.convert_element_type(c, index_dtype) for c in cols], 1) \
        if cols else lax.full((p, 0), 0, index_dtype)
    keys = K.linear_keys(idx, out_shape)
    total = math.prod(out_shape)
    keys = lax.select(in_range, keys, lax.full(keys.shape, total, K.KEY_DTYPE))
    d, i, n = segments_by_key(keys, (vals,), total, p, out_shape, index_dtype)
    # under jax.jit the products may outnumber the bound the caller gave: checkify reports
    # it, and the values of a truncated floating result are NaN, never silently partial
    needed = lax.reduce_sum(cnt, (0,))
    fits = lax.le(needed, lax.full((), p, needed.dtype))
    report(fits, "sparse @ sparse: the operands make {needed} products, more than the "
           f"nse={p} given (the result is truncated; pass a larger nse)", needed=needed)
    if _dt.kind_of(d.dtype) in "fc":
        d = lax.select(lax.broadcast(fits, d.shape), d, lax.full_like(d, np.nan))
    return d, i, n, needed


# ---- 2-D sparse @ sparse: one kernel, SciPy's SpGEMM as its host path ----------------------
def _plain_2d(lhs, rhs, dims):
    """Whether ``dot_general(lhs, rhs, dims)`` is a plain 2-D product -- matrices without
    batch or dense dimensions, one contracted dimension each, no dot batch dimensions --,
    which :func:`_spsp_2d_kernel` computes (its host path or its lax body)."""
    (lc, rc), (lb, rb) = dims
    return (not lb and not rb and len(lc) == 1 and len(rc) == 1
            and all(m.ndim == 2 and not m.n_batch and not m.n_dense for m in (lhs, rhs)))


def _spsp_2d(fn, lhs, rhs, dims, nse):
    """2-D sparse @ sparse through :func:`_spsp_2d_kernel`: eagerly (``nse`` ``None``) the
    exact result, else the result padded to ``nse`` products, with the overflow report
    under a trace and a ``ValueError`` eagerly where the products outnumber it."""
    (lc, rc), _ = dims
    ashape, bshape = tuple(lhs.shape), tuple(rhs.shape)
    out_shape = (ashape[1 - lc[0]], bshape[1 - rc[0]])
    leaves = lhs._leaves() + rhs._leaves()
    if nse is None and any(map(is_tracer, leaves)):
        fail_text(ValueError, fn, "expected a static 'nse' (a bound on the number of "
                  "products) for sparse @ sparse under jax.jit/vmap/grad; got None")
    size = None if nse is None else _nse_int(fn, nse)
    index_dtype = np.promote_types(np.promote_types(lhs.indices.dtype, rhs.indices.dtype),
                                   K.default_index_dtype(*out_shape))
    a_flags, b_flags = leaf_flags(lhs), leaf_flags(rhs)
    *out, count, _, sorted_ = _spsp_2d_kernel(
        *leaves, ashape=ashape, bshape=bshape, a_flags=a_flags, b_flags=b_flags, lc=lc[0],
        rc=rc[0], dtype=_dt.result_type(lhs.dtype, rhs.dtype), index_dtype=index_dtype,
        nse=size)
    if size is None:        # exact: cut the lax body's bound (the host's result is exact)
        n = int(count)
        if out[0].shape[0] != n:
            out[0], out[1] = lax.slice_in_dim(out[0], 0, n), lax.slice_in_dim(out[1], 0, n)
    # whether the columns are sorted within rows: the lax body's are, SciPy's may not be;
    # under a trace which one ran is not known here, so the flag is the conservative one
    sorted_ = not is_tracer(sorted_) and bool(sorted_)
    return _sparse_of(tuple(out), out_shape, a_flags[0] and b_flags[0], sorted_)


def _spsp_2d_statics(args, static):
    """The statics of :func:`_spsp_2d_kernel`'s lax body where the host path declines
    (``HostPath.fill``): eagerly the number of products as the bound the body needs when
    none is given (the exact result is then cut from it), and a ``ValueError`` where a
    given bound is too small; under a trace the statics as they are."""
    if any(map(is_tracer, args)):
        return static
    a, b = bcoo_operands(args, static["ashape"], static["bshape"], static["a_flags"],
                          static["b_flags"])
    needed = int(_count_products_kernel(a.indices, b.indices, ashape=static["ashape"],
                                        bshape=static["bshape"], lc=(static["lc"],),
                                        rc=(static["rc"],), lb=(), rb=()))
    nse = static["nse"]
    if nse is None:
        return dict(static, nse=needed)
    if needed > nse:        # eagerly a bound the data exceed is an error, before the product
        fail(ValueError, "dot_general", f"an 'nse' of at least {needed} (the number of "
             "products of these operands)", nse)
    return static


def _spsp_2d_host(*leaves, **static):
    """The host path under a trace: SciPy's product in a host call padded to ``nse``
    (:func:`.spgemm_host.traced`), differentiated by the lax body, with the lax body's
    overflow report and NaN values."""
    nse = static["nse"]
    *out, count, needed = _spgemm.traced(
        leaves, lambda *raw: _spsp_2d_kernel.run_xla(*raw, **static)[:-1], **static)
    fits = lax.le(needed, lax.full((), nse, needed.dtype))
    report(fits, "sparse @ sparse: the operands make {needed} products, more than the "
           f"nse={nse} given (the result is truncated; pass a larger nse)", needed=needed)
    if _dt.kind_of(out[0].dtype) in "fc":
        out[0] = lax.select(lax.broadcast(fits, out[0].shape), out[0],
                            lax.full_like(out[0], np.nan))
    return (*out, count, needed, lax.full((), False))


_SPSP_HOST = HostPath(
    functions=("sparse.dot_general", "sparse.matmul"), eager=_spgemm.eager,
    traced=_spsp_2d_host, fill=_spsp_2d_statics, dtypes=_spgemm.SCIPY_DTYPES, dtype_of="dtype",
    grad="the lax product's (its structural pattern: cancelled entries carry a tangent "
         "too); the value under differentiation is the lax product's",
    reason="XLA has no sparse product: the lax body expands every product, sorts and sums "
           "them, 2-20x the time of SciPy's SpGEMM (Gustavson, one result row at a time) "
           "with memory proportional to the number of products")


@kernel(static=("ashape", "bshape", "a_flags", "b_flags", "lc", "rc", "dtype", "index_dtype",
                "nse"), host=_SPSP_HOST)
def _spsp_2d_kernel(*leaves, ashape, bshape, a_flags, b_flags, lc, rc, dtype, index_dtype,
                    nse):
    """``(*leaves, count, needed, sorted)`` of the 2-D product of two operands given by
    their raw leaves (``a_flags``/``b_flags``: :func:`.layout.leaf_flags`), padded to ``nse`` entries:
    BCSR's leaves when both are BCSR, else BCOO's; the number of stored entries, of
    products, and whether the columns are sorted within rows.  The XLA body is the lax
    product (:func:`_spsp_kernel`); the host path SciPy's (:mod:`.spgemm_host`)."""
    a, b = bcoo_operands(leaves, ashape, bshape, a_flags, b_flags)
    out_shape = (ashape[1 - lc], bshape[1 - rc])
    d, i, n, needed = _spsp_kernel(
        a.data, a.indices, b.data, b.indices, n_products=nse, out_shape=out_shape,
        dtype=dtype, index_dtype=index_dtype, ashape=ashape, bshape=bshape, lc=(lc,),
        rc=(rc,), lb=(), rb=())
    if a_flags[0] and b_flags[0]:
        out = BCOO._new(d, i, out_shape, indices_sorted=True, unique_indices=True)
        return (d, *bcsr_from_bcoo(out)._leaves()[1:], n, needed, lax.full((), True))
    return d, i, n, needed, lax.full((), True)


def _sparse_of(leaves, shape, csr, sorted_):
    """A BCSR (``csr``) or BCOO of raw ``leaves`` with unique entries."""
    if csr:
        return BCSR._new(*leaves, shape, indices_sorted=sorted_, unique_indices=True)
    return BCOO._new(*leaves, shape, indices_sorted=sorted_, unique_indices=True)


__all__ = ["dot_general", "matmul", "is_sparse", "Array"]
