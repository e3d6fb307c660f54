"""Layout changes: the flat (all-sparse) form of a BCOO and ``update_layout``.

The *flat* form of a BCOO has ``n_batch == n_dense == 0``: one entry per stored scalar,
indices over every dimension.  It is computed without looking at the data (its ``nse`` is
``prod(batch) * nse * prod(dense)``), so it works under ``jax.jit``; operations that move
dimensions across the batch/sparse/dense boundaries (reshape, general transposes,
reductions over batch dimensions, sparse @ sparse) go through it.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.errors import fail
from laxarray._core.jaxapi import is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.sparse import _keys as K
from laxarray.sparse.bcoo import BCOO, _layout_ints, _nse_int
from laxarray.sparse.bcsr import BCSR
from laxarray._core import dtypes as _dt
from laxarray._core.numerics import rank_of_true


def leaf_flags(mat):
    """``(csr, indices_sorted, unique_indices)`` of a sparse operand: how a kernel that takes
    its raw leaves reads them (the 2-D product and sum, with their host paths)."""
    return isinstance(mat, BCSR), bool(mat.indices_sorted), bool(mat.unique_indices)


def split(leaves, a_flags):
    """``(a_leaves, b_leaves)`` of the two operands' raw leaves, one after the other (three
    for a BCSR, whose ``a_flags[0]`` -- ``csr`` -- is true, two for a BCOO)."""
    na = 3 if a_flags[0] else 2
    return leaves[:na], leaves[na:]


def bcoo_operands(leaves, ashape, bshape, a_flags, b_flags):
    """The two operands of a kernel that takes their raw leaves (the 2-D product and sum,
    :func:`leaf_flags`) as BCOO."""
    mats = []
    for part, shape, (csr, sorted_, unique) in zip(split(leaves, a_flags),
                                                   (ashape, bshape), (a_flags, b_flags)):
        mats.append((BCSR if csr else BCOO)._new(*part, shape, sorted_, unique)._as_bcoo())
    return mats


def to_flat(mat):
    """The flat form (``n_batch == n_dense == 0``) of a BCOO; static, no data inspection."""
    if mat.n_batch == 0 and mat.n_dense == 0:
        return mat
    index_dtype = np.promote_types(mat.indices.dtype, K.default_index_dtype(*mat.shape))
    data, indices = _to_flat_kernel(mat.data, mat.indices, shape=mat.shape,
                                    index_dtype=index_dtype)
    sorted_ = mat.indices_sorted and mat.n_batch == 0
    return BCOO._new(data, indices, mat.shape, indices_sorted=sorted_,
                     unique_indices=mat.unique_indices)


@kernel(static=("shape", "index_dtype"))
def _to_flat_kernel(data, indices, *, shape, index_dtype):
    nb = indices.ndim - 2
    ns = indices.shape[-1]
    nse = indices.shape[-2]
    nd = len(shape) - nb - ns
    batch, dense = tuple(shape[:nb]), tuple(shape[nb + ns:])
    full = batch + (nse,) + dense
    data = lax.broadcast_in_dim(data, full, tuple(range(len(full))))
    indices = K.broadcast_batch(indices, batch)
    cols = []
    for d in range(nb):
        cols.append(lax.broadcasted_iota(index_dtype, full, d))
    for j in range(ns):
        col = lax.convert_element_type(indices[..., j], index_dtype)
        cols.append(lax.broadcast_in_dim(col, full, tuple(range(nb + 1))))
    for d in range(nd):
        cols.append(lax.broadcasted_iota(index_dtype, full, nb + 1 + d))
    n = math.prod(full)
    flat_idx = [lax.reshape(c, (n, 1)) for c in cols]
    idx = lax.concatenate(flat_idx, 1) if flat_idx else lax.full((n, 0), 0, index_dtype)
    # padding in the sparse part must stay padding in every column it can be seen from
    return lax.reshape(data, (n,)), idx


def update_layout(fn, mat, n_batch, n_dense, nse):
    """See :func:`laxarray.sparse.bcoo_update_layout`."""
    n_batch = mat.n_batch if n_batch is None else n_batch
    n_dense = mat.n_dense if n_dense is None else n_dense
    n_batch, n_dense = _layout_ints(fn, n_batch, n_dense, mat.ndim)
    if n_batch == mat.n_batch and n_dense == mat.n_dense:
        return mat
    flat = to_flat(mat)
    if n_batch == 0 and n_dense == 0:
        return flat
    shape = mat.shape
    if nse is None:
        if is_tracer(flat.indices):
            nse = flat.nse
        else:
            nse = int(_group_count_kernel(flat.indices, shape=shape, n_batch=n_batch,
                                          n_dense=n_dense))
    nse = _nse_int(fn, nse)
    data, indices = _from_flat_kernel(flat.data, flat.indices, shape=shape, n_batch=n_batch,
                                      n_dense=n_dense, nse=nse)
    return BCOO._new(data, indices, shape, indices_sorted=True, unique_indices=True)


def _group_keys(indices, shape, n_batch, n_dense):
    nd = len(shape)
    bshape = tuple(shape[:n_batch])
    sshape = tuple(shape[n_batch:nd - n_dense])
    dshape = tuple(shape[nd - n_dense:])
    pad = K.pad_mask(indices, shape)
    bkey = K.linear_keys(indices[:, :n_batch], bshape)
    skey = K.linear_keys(indices[:, n_batch:nd - n_dense], sshape)
    dkey = K.linear_keys(indices[:, nd - n_dense:], dshape)
    nsp = math.prod(sshape)
    big = lax.full(bkey.shape, K.check_key_space(math.prod(bshape) * nsp), K.KEY_DTYPE)
    gkey = lax.select(pad, big, lax.add(lax.mul(bkey, lax.full((), nsp, K.KEY_DTYPE)), skey))
    return pad, bkey, skey, dkey, gkey


@kernel(static=("shape", "n_batch", "n_dense"))
def _group_count_kernel(indices, *, shape, n_batch, n_dense):
    pad, bkey, _, _, gkey = _group_keys(indices, shape, n_batch, n_dense)
    nbt = math.prod(shape[:n_batch])
    skeys, _ = K.sort_by_keys(gkey, nbt * math.prod(shape[n_batch:len(shape) - n_dense]))
    if skeys.shape[0] == 0:
        return lax.full((), 0, _dt.default_index())
    first = lax.concatenate([lax.full((1,), True), lax.ne(skeys[1:], skeys[:-1])], 0)
    total = math.prod(shape[:len(shape) - n_dense])
    first = lax.bitwise_and(first, lax.lt(skeys, lax.full((), total, K.KEY_DTYPE)))
    nsp = math.prod(shape[n_batch:len(shape) - n_dense])
    sb = lax.div(skeys, lax.full((), max(nsp, 1), K.KEY_DTYPE))
    counts = K.scatter_add_1d(nbt, sb, lax.convert_element_type(first, _dt.default_index()))
    return lax.reduce_max(counts, (0,)) if nbt else lax.full((), 0, _dt.default_index())


@kernel(static=("shape", "n_batch", "n_dense", "nse"))
def _from_flat_kernel(data, indices, *, shape, n_batch, n_dense, nse):
    nd = len(shape)
    bshape = tuple(shape[:n_batch])
    sshape = tuple(shape[n_batch:nd - n_dense])
    dshape = tuple(shape[nd - n_dense:])
    nbt, nsp = math.prod(bshape), math.prod(sshape)
    pad, bkey, skey, dkey, gkey = _group_keys(indices, shape, n_batch, n_dense)
    n = gkey.shape[0]
    sg, perm = K.sort_by_keys(gkey, nbt * nsp)
    valid = lax.lt(sg, lax.full((), nbt * nsp, K.KEY_DTYPE))
    if n:
        first = lax.concatenate([lax.full((1,), True), lax.ne(sg[1:], sg[:-1])], 0)
    else:
        first = lax.full((0,), True)
    first = lax.bitwise_and(first, valid)
    g = rank_of_true(first, _dt.default_index())
    sb = lax.div(sg, lax.full((), max(nsp, 1), K.KEY_DTYPE))
    sb = lax.select(valid, sb, lax.full(sb.shape, nbt, K.KEY_DTYPE))
    groups_per_batch = K.scatter_add_1d(nbt, sb, lax.convert_element_type(first, _dt.default_index()))
    batch_start = K.exclusive_cumsum(groups_per_batch)
    slot = lax.sub(g, K.gather_1d(batch_start, sb, K.GATHER_FILL))
    ok = lax.bitwise_and(valid, lax.lt(slot, lax.full((), nse, _dt.default_index())))
    bpos = lax.select(ok, sb, lax.full(sb.shape, nbt, K.KEY_DTYPE))
    dk = K.gather_1d(dkey, perm, K.PROMISE)
    dcols = K.unravel_keys(dk, dshape, _dt.default_index())
    vals = K.gather_1d(data, perm, K.PROMISE)
    # data[(batch, slot, *dense)] += value
    sidx = lax.concatenate([bpos[:, None], slot[:, None], dcols], 1)
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(),
                                        inserted_window_dims=tuple(range(2 + n_dense)),
                                        scatter_dims_to_operand_dims=tuple(range(2 + n_dense)))
    out_data = lax.scatter_add(lax.full((nbt, nse) + dshape, 0, data.dtype), sidx, vals,
                               dnums, mode=K.GATHER_FILL)
    # indices[(batch, slot)] = sparse coordinates of the group (padding elsewhere)
    index_dtype = indices.dtype
    sk = K.gather_1d(skey, perm, K.PROMISE)
    scols = K.unravel_keys(sk, sshape, index_dtype)
    pad_row = lax.convert_element_type(np.asarray(sshape, dtype=_dt.default_index()), index_dtype)
    out_idx = lax.broadcast_in_dim(pad_row, (nbt, nse, len(sshape)), (2,))
    dn2 = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0, 1),
                                      scatter_dims_to_operand_dims=(0, 1))
    out_idx = lax.scatter(out_idx, sidx[:, :2], scols, dn2, mode=K.GATHER_FILL)
    out_data = lax.reshape(out_data, bshape + (nse,) + dshape)
    out_idx = lax.reshape(out_idx, bshape + (nse, len(sshape)))
    return out_data, out_idx


def check_same_shape(fn, a, b):
    """``ValueError`` unless two sparse operands have the same shape."""
    if tuple(a.shape) != tuple(b.shape):
        fail(ValueError, fn, f"operands of the same shape {tuple(a.shape)}", b)
