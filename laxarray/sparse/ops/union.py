"""Sparse (op) sparse over the union of two patterns: :func:`sparse_sparse`, what ``+``,
``-``, ``*``, ``maximum`` and ``minimum`` of two sparse operands of one shape run.

Duplicates are summed; eagerly the result stores exactly the coordinates of the union, under
``jax.jit`` ``nse(a) + nse(b)`` (extra slots are padding).  Sorted, unique operands merge by
positions (:func:`_merge_positions_kernel`, :func:`_merge_values_kernel`), others by a sort
(:func:`_union_kernel`).  ``+``/``-`` of two 2-D operands without batch or dense dimensions
run one kernel (:func:`_union_2d_kernel`) whose XLA body is the lax union and which declares
SciPy's CSR add as its CPU host path (:mod:`.union_host`).
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.jaxapi import is_tracer
from laxarray._core.numerics import cumulative
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.runtime.kernel import kernel
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcoo_canonical import (scatter_add_sorted, segment_sum_sorted,
                                            segments_by_key)
from laxarray.sparse.bcsr import BCSR, bcsr_from_bcoo
from laxarray.sparse.ops.layout import (bcoo_operands, check_same_shape, leaf_flags, split,
                                        to_flat)
from laxarray.sparse.ops import spgemm_host as _spgemm_host
from laxarray.sparse.ops import union_host as _union_host


#: The dense ``add``/``multiply`` rule for booleans (logical or / and), for the lax ops
#: the union kernels and the SciPy path tell apart by identity.
_BOOL_OPS = {lax.add: lax.bitwise_or, lax.mul: lax.bitwise_and}


def sparse_sparse(fn, x1, x2, lax_op, nse=None):
    """``lax_op`` of two same-shape sparse arrays over the union of their patterns
    (``+``/``-`` of 2-D operands: :func:`_union_2d_kernel`, SciPy's on the CPU host path,
    see :mod:`.union_host`)."""
    dtype = _dt.result_type(x1.dtype, x2.dtype)
    if dtype == np.bool_:       # NumPy's boolean + and * (lax has neither); no boolean -
        if lax_op is lax.sub:
            _dt.check_category(fn, "x1, x2", dtype, "numeric")
        lax_op = _BOOL_OPS.get(lax_op, lax_op)
    if lax_op in _union_host.SIGN and all(
            x.ndim == 2 and not x.n_batch and not x.n_dense for x in (x1, x2)):
        check_same_shape(fn, x1, x2)
        return _union_2d(x1, x2, lax_op, dtype, nse)
    return _lax_sparse_sparse(fn, x1, x2, lax_op, nse)


def _lax_sparse_sparse(fn, x1, x2, lax_op, nse=None):
    """:func:`sparse_sparse` by the lax kernels."""
    a, b = x1._as_bcoo(), x2._as_bcoo()
    check_same_shape(fn, a, b)
    if (a.n_batch, a.n_dense) != (b.n_batch, b.n_dense):
        a, b = to_flat(a), to_flat(b)
    # exact (a host read of the count) only outside any trace: closed-over concrete indices
    # with traced data still compute the count as a tracer
    exact = nse is None and not any(is_tracer(v) for v in (a.indices, b.indices, a.data,
                                                            b.data))
    data, indices, _ = _lax_union(a, b, lax_op, a.nse + b.nse if nse is None else nse, exact)
    out = BCOO._new(data, indices, a.shape, indices_sorted=True, unique_indices=True)
    return _restore(out, x1, x2)


def _lax_union(a, b, lax_op, out_nse, exact):
    """``(data, indices, count)`` of ``lax_op`` of two BCOO of one layout over the union of
    their patterns: ``out_nse`` slots, or the exact count of entries where ``exact``."""
    dtype = _dt.result_type(a.dtype, b.dtype)
    index_dtype = np.promote_types(a.indices.dtype, b.indices.dtype)
    if a.n_sparse and all(m.indices_sorted and m.unique_indices for m in (a, b)):
        by_rows = _merge_plan(a)
        pos_a, pos_b, count = _merge_positions_kernel(a.indices, b.indices, shape=a.shape,
                                                      by_rows=by_rows)
        if exact:
            out_nse = int(count)
        data, indices = _merge_values_kernel(a.data, a.indices, b.data, b.indices, pos_a,
                                             pos_b, shape=a.shape, nse=out_nse, op=lax_op,
                                             dtype=dtype, index_dtype=index_dtype)
        return data, indices, count
    data, indices, count = _union_kernel(a.data, a.indices, b.data, b.indices,
                                         shape=a.shape, nse=out_nse, op=lax_op,
                                         dtype=dtype, index_dtype=index_dtype)
    if exact:
        n = int(count)
        data = lax.slice_in_dim(data, 0, n, axis=a.n_batch)
        indices = lax.slice_in_dim(indices, 0, n, axis=a.n_batch)
    return data, indices, count


# ---- 2-D sparse +/- sparse: one kernel, SciPy's CSR add as its host path --------------------
def _union_2d(x1, x2, lax_op, dtype, nse):
    """``x1 + x2``/``x1 - x2`` of two 2-D sparse arrays of one shape through
    :func:`_union_2d_kernel`: canonical, exact eagerly (``nse`` ``None``), else padded to
    ``nse`` (under a trace, by default, ``nse(x1) + nse(x2)``)."""
    leaves = x1._leaves() + x2._leaves()
    if nse is None and any(map(is_tracer, leaves)):
        nse = x1.nse + x2.nse           # the union's static bound
    exact = nse is None
    a_flags, b_flags = leaf_flags(x1), leaf_flags(x2)
    *out, count = _union_2d_kernel(
        *leaves, shape=tuple(x1.shape), a_flags=a_flags, b_flags=b_flags, op=lax_op,
        dtype=np.dtype(dtype), index_dtype=np.promote_types(x1.indices.dtype,
                                                            x2.indices.dtype), nse=nse)
    if exact:       # cut the lax body's bound (the host's result is exact)
        n = int(count)
        if out[0].shape[0] != n:
            out[0], out[1] = lax.slice_in_dim(out[0], 0, n), lax.slice_in_dim(out[1], 0, n)
    if a_flags[0] and b_flags[0]:
        return BCSR._new(*out, x1.shape, indices_sorted=True, unique_indices=True)
    return BCOO._new(*out, x1.shape, indices_sorted=True, unique_indices=True)


def _union_2d_statics(args, static):
    """The statics of :func:`_union_2d_kernel`'s lax body where the host path declines
    (``HostPath.fill``): eagerly without a bound, the union's static bound ``nse(a) +
    nse(b)`` (the exact result is then cut from it)."""
    if static["nse"] is not None:
        return static
    a_leaves, b_leaves = split(args, static["a_flags"])
    return dict(static, nse=a_leaves[0].shape[0] + b_leaves[0].shape[0])


def _union_2d_host(*leaves, **static):
    """The host path under a trace: SciPy's sum in a host callback padded to ``nse``
    (:func:`.union_host.traced`), differentiated by the lax body."""
    return _union_host.traced(leaves, lambda *raw: _union_2d_kernel.run_xla(*raw, **static),
                              **static)


_UNION_HOST = HostPath(
    functions=("sparse.add", "sparse.subtract"), eager=_union_host.eager,
    traced=_union_2d_host, fill=_union_2d_statics, dtypes=_spgemm_host.SCIPY_DTYPES,
    dtype_of="dtype",
    grad="the lax union's (its structural pattern: cancelled entries carry a tangent too); "
         "the value under differentiation is the lax union's",
    reason="the lax union places each entry with running sums and a search within rows, "
           "then scatters: on CPU 3-4x SciPy's `A + B` (one merge pass over canonical "
           "rows) and close to a second of compilation")


@kernel(static=("shape", "a_flags", "b_flags", "op", "dtype", "index_dtype", "nse"),
        host=_UNION_HOST)
def _union_2d_kernel(*leaves, shape, a_flags, b_flags, op, dtype, index_dtype, nse):
    """``(*leaves, count)`` of ``op`` (``lax.add``/``lax.sub``) of two 2-D operands of
    ``shape`` given by their raw leaves (``a_flags``/``b_flags``: :func:`.layout.leaf_flags`), padded to
    ``nse`` entries, canonical: BCSR's leaves when both are BCSR, else BCOO's, and the
    number of entries.  The XLA body is the lax union (:func:`_lax_union`); the host path
    SciPy's (:mod:`.union_host`)."""
    a, b = bcoo_operands(leaves, shape, shape, a_flags, b_flags)
    data, indices, count = _lax_union(a, b, op, nse, False)
    count = lax.convert_element_type(count, _dt.default_index())
    if a_flags[0] and b_flags[0]:
        out = BCOO._new(data, indices, shape, indices_sorted=True, unique_indices=True)
        return (*bcsr_from_bcoo(out)._leaves(), count)
    return data, indices, count


@kernel(static=("shape", "nse", "op", "dtype", "index_dtype"))
def _union_kernel(ad, ai, bd, bi, *, shape, nse, op, dtype, index_dtype):
    nb = ai.ndim - 2
    ns = ai.shape[-1]
    batch = tuple(shape[:nb])
    ad, ai = K.broadcast_batch(ad, batch), K.broadcast_batch(ai, batch)
    bd, bi = K.broadcast_batch(bd, batch), K.broadcast_batch(bi, batch)
    sparse_shape = tuple(shape[nb:nb + ns])
    total = math.prod(sparse_shape)

    def one(ad, ai, bd, bi):
        ad = lax.convert_element_type(ad, dtype)
        bd = lax.convert_element_type(bd, dtype)
        keys = lax.concatenate([K.linear_keys(ai, sparse_shape),
                                K.linear_keys(bi, sparse_shape)], 0)
        za, zb = lax.full_like(ad, 0), lax.full_like(bd, 0)
        va = lax.concatenate([ad, zb], 0)
        vb = lax.concatenate([za, bd], 0)
        n = keys.shape[0]
        slots = max(nse, n)
        sa, sb, idx, count = segments_by_key(keys, (va, vb), total, slots, sparse_shape,
                                             index_dtype)
        out = op(sa, sb)
        if slots != nse:
            out, idx = out[:nse], idx[:nse]
        return out, idx, count

    d, i, c = K.batched(one, nb, in_axes=(0, 0, 0, 0))(ad, ai, bd, bi)
    if nb:
        c = lax.reduce_max(c, tuple(range(nb)))
    return d, i, c


def _merge_plan(a):
    """Whether a merge searches entries within their row (first sparse index): when a
    row-start table (one slot per row) is not much larger than the entries themselves;
    otherwise all entries form one row, keyed by their linear key."""
    sparse_shape = a.shape[a.n_batch:a.n_batch + a.n_sparse]
    return sparse_shape[0] <= 4 * a.nse + 1024


def _merge_split(idx, sparse_shape, by_rows, row_dtype):
    """``(rows, keys, valid)`` of sorted entries: the row of each entry (padding -> the
    row count) and its key within the row (the linear key over all sparse dimensions when
    not ``by_rows``)."""
    pad = K.pad_mask(idx, sparse_shape)
    if not by_rows:
        keys = K.linear_keys(idx, sparse_shape)
        rows = lax.convert_element_type(pad, row_dtype)  # padding -> row 1 (of 1)
        return rows, keys, lax.bitwise_not(pad)
    n_rows = sparse_shape[0]
    rows = lax.convert_element_type(idx[:, 0], row_dtype)
    rows = lax.select(pad, lax.full(rows.shape, n_rows, row_dtype), rows)
    inner = tuple(sparse_shape[1:])
    key_dtype = K.default_index_dtype(math.prod(inner))
    if len(inner) == 1:
        keys = lax.convert_element_type(idx[:, 1], key_dtype)
    else:
        keys = lax.convert_element_type(K.linear_keys(idx[:, 1:], inner), key_dtype)
    return rows, keys, lax.bitwise_not(pad)


def _search_rows(keys, start, queries, query_rows, longest):
    """For each query, the first position ``p`` in ``keys[start[r]:start[r + 1]]`` (``r`` its
    row) with ``keys[p] >= query``, and whether ``keys[p] == query``.

    A branch-free radix-4 search with one state per lane (``base`` moves by ``0..3``
    times a shrinking power of four), so each round is a single pass (three gathers, no
    intermediates) and there are half as many rounds as a binary search's; the number of
    rounds, ``ceil(bit_length(longest) / 2)``, is computed in the kernel (no host round
    trip)."""
    dt = start.dtype
    n_rows = start.shape[0] - 1
    ok = lax.lt(query_rows, lax.full((), n_rows, dt))
    r = lax.select(ok, query_rows, lax.full(query_rows.shape, 0, dt))
    lo = K.gather_1d(start, r, K.PROMISE)
    hi = lax.select(ok, K.gather_1d(start, lax.add(r, lax.full((), 1, dt)), K.PROMISE), lo)
    if keys.shape[0] == 0:
        return lo, lax.full(lo.shape, False)
    one = lax.full((), 1, dt)
    bits = lax.sub(lax.full((), 8 * dt.itemsize, dt),
                   lax.clz(lax.convert_element_type(longest, dt)))
    steps = lax.shift_right_logical(lax.add(bits, one), one)

    def round_(k, base):
        # step 4**(steps - 1 - k); keys below the query are a prefix of the row, so the
        # three tests are nested and their count is the digit
        shift = lax.shift_left(lax.sub(lax.sub(steps, one), k), one)
        step = lax.shift_left(one, shift)
        digit = lax.full(base.shape, 0, dt)
        for t in (1, 2, 3):
            probe = lax.add(base, lax.mul(lax.full((), t, dt), step))
            # XLA clamps an out-of-range gather index; such lanes fail ``probe <= hi``
            below = lax.lt(K.gather_1d(keys, lax.sub(probe, one), K.PROMISE), queries)
            digit = lax.add(digit, lax.convert_element_type(
                lax.bitwise_and(lax.le(probe, hi), below), dt))
        return lax.add(base, lax.shift_left(digit, shift))

    base = lax.fori_loop(lax.full((), 0, dt), steps, round_, lo)
    hit = lax.bitwise_and(lax.lt(base, hi),
                          lax.eq(K.gather_1d(keys, base, K.PROMISE), queries))
    return base, hit


@kernel(static=("shape", "by_rows"))
def _merge_positions_kernel(ai, bi, *, shape, by_rows):
    """Where each entry of two sorted, duplicate-free entry lists lands in their sorted
    union: ``(pos_a, pos_b, count)``, padding at the largest position value (dropped by
    any scatter).  No sort: ``a``'s entries are searched in ``b``'s rows (``lo_a``, the
    number of smaller ``b`` keys; ``pos_a = i + lo_a - matches before i``), and one
    histogram of ``lo_a`` gives every ``b`` entry the number of unmatched ``a`` keys at or
    below it (``pos_b = j + that``)."""
    nb_ = ai.ndim - 2
    ns = ai.shape[-1]
    batch = tuple(shape[:nb_])
    ai, bi = K.broadcast_batch(ai, batch), K.broadcast_batch(bi, batch)
    sparse_shape = tuple(shape[nb_:nb_ + ns])
    na, nb = ai.shape[-2], bi.shape[-2]
    n_rows = sparse_shape[0] if by_rows else 1
    # positions, and the search's probes (up to base + 3 * longest row)
    dt = K.default_index_dtype(4 * (na + nb), n_rows)
    drop = np.iinfo(dt).max

    def one(ai, bi):
        ra, ka, va = _merge_split(ai, sparse_shape, by_rows, dt)
        rb, kb, vb = _merge_split(bi, sparse_shape, by_rows, dt)
        counts = K.scatter_add_1d(n_rows, rb, lax.full(rb.shape, 1, dt), sorted_=True)
        start = K.exclusive_cumsum(counts)
        longest = lax.reduce_max(counts, (0,)) if n_rows else lax.full((), 0, dt)
        lo_a, hit_a = _search_rows(kb, start, ka, ra, longest)
        hit_a = lax.bitwise_and(hit_a, va)
        ha = lax.convert_element_type(hit_a, dt)
        matched_before = lax.sub(cumulative("sum", ha), ha)
        pos_a = lax.sub(lax.add(K.iota(dt, na), lo_a), matched_before)
        # pos_b[j] = j + (unmatched a keys <= kb[j]): one histogram of lo_a over nb + 1
        # slots (the last: a entries past every b entry), summed.  A matched b entry lands
        # on its partner's slot.
        unmatched = lax.convert_element_type(lax.bitwise_and(va, lax.bitwise_not(hit_a)), dt)
        at = lax.select(va, lo_a, lax.full(lo_a.shape, drop, dt))
        d = cumulative("sum", K.scatter_add_1d(nb + 1, at, unmatched, sorted_=True))
        pos_b = lax.add(K.iota(dt, nb), lax.slice_in_dim(d, 0, nb))
        pos_a = lax.select(va, pos_a, lax.full(pos_a.shape, drop, dt))
        pos_b = lax.select(vb, pos_b, lax.full(pos_b.shape, drop, dt))
        count = lax.add(lax.index_in_dim(d, nb, keepdims=False),
                        lax.index_in_dim(start, n_rows, keepdims=False))
        return pos_a, pos_b, lax.convert_element_type(count, _dt.default_index())

    pa, pb, c = K.batched(one, nb_, in_axes=(0, 0))(ai, bi)
    if nb_:
        c = lax.reduce_max(c, tuple(range(nb_)))
    return pa, pb, c


@kernel(static=("shape", "nse", "op", "dtype", "index_dtype"))
def _merge_values_kernel(ad, ai, bd, bi, pos_a, pos_b, *, shape, nse, op, dtype, index_dtype):
    """The union's ``(data, indices)`` from :func:`_merge_positions_kernel`'s positions:
    sorted scatters (matched entries land on the same slot; ``+``/``-`` accumulate in one
    buffer)."""
    nb_ = ai.ndim - 2
    ns = ai.shape[-1]
    batch = tuple(shape[:nb_])
    ad, ai = K.broadcast_batch(ad, batch), K.broadcast_batch(ai, batch)
    bd, bi = K.broadcast_batch(bd, batch), K.broadcast_batch(bi, batch)
    sparse_shape = tuple(shape[nb_:nb_ + ns])
    idx_dnums = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                            scatter_dims_to_operand_dims=(0,))

    def one(ad, ai, bd, bi, pa, pb):
        # slots no entry reaches (only when nse exceeds the union) stay padding
        out_idx = lax.broadcast_in_dim(lax.convert_element_type(
            np.asarray(sparse_shape, _dt.default_index()), index_dtype), (nse, ns), (1,))
        for pos, idx in ((pa, ai), (pb, bi)):
            out_idx = lax.scatter(out_idx, pos[:, None], lax.convert_element_type(
                idx, index_dtype), idx_dnums, indices_are_sorted=True, unique_indices=True,
                mode=K.GATHER_FILL)
        va = lax.convert_element_type(ad, dtype)
        vb = lax.convert_element_type(bd, dtype)
        if op in (lax.add, lax.sub):
            vb = vb if op is lax.add else lax.neg(vb)
            summed = segment_sum_sorted(va, pa, nse)
            return scatter_add_sorted(summed, pb, vb), out_idx
        return op(segment_sum_sorted(va, pa, nse), segment_sum_sorted(vb, pb, nse)), out_idx

    d, i = K.batched(one, nb_, in_axes=(0,) * 6)(ad, ai, bd, bi, pos_a, pos_b)
    return d, i


__all__ = ["sparse_sparse"]
