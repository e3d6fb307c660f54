"""Row-padded (ELL + chunked remainder) layouts for fast 2-D products of concrete matrices.

XLA on CPU runs a sparse·dense product written as "gather, multiply, scatter-add" as two
or three separate passes over the entries, each with its own loop and intermediate.  For a
2-D matrix whose entries are concrete (not traced) we therefore build once, on the host, a
*hybrid* layout of the matrix (or of its transpose) and cache it on the array object:

* an ELL part: ``K`` column-major slots per row, ``ell_data[K, n_rows]`` and
  ``ell_cols[K, n_rows]`` (unused slots hold column ``n_cols``, which reads a zero);
* the rest of each long row in chunks of ``W`` slots (``chunk_data[W, n_chunks]``,
  ``chunk_cols``) with the row of each chunk (``chunk_rows``, sorted).

``K`` (at most :data:`MAX_SLOTS`) and ``W`` minimise an estimate of the work, so short
uniform rows are pure ELL and longer or power-law rows put their tails in chunks.  The
product is one fused loop over the ``K`` slots (gather of the dense operand, multiply,
add; no intermediates), one over the chunk slots, and a sorted segment sum of the chunk
sums.  For a vector operand, unused slots point at a zero appended to it, so every gather
is in bounds (no per-element test).  The transpose layout makes
``A.T @ y`` as fast as ``A @ x`` without sorting on each call.

Traced matrices (inside ``jax.jit`` with the matrix as an argument, ``vmap`` over stacks,
gradients with respect to ``data``) take the general path of :mod:`.dot`; a layout is only
built from concrete leaves, so it never captures a tracer.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.jaxapi import is_tracer
from laxarray._core.kernel import kernel
from laxarray.sparse import _keys as K

#: most ELL slots per row for a vector operand.  The fused loop reads 2 streams (values,
#: columns) per slot; measured on 10^5-10^6-entry products, 6-8 slots plus narrow chunks
#: beat 10-48 slots (1.3-2x): many concurrent streams defeat the prefetchers
MAX_SLOTS = 8
#: widths tried for the chunks that hold the rest of long rows (wider ones lost: padding;
#: 16 was the model's pick for 50-entry rows, (2, 16), and measured 15 ms where (2, 8) took
#: 8 ms on 5e6 entries: 16 concurrent streams per chunk defeat the prefetchers too)
CHUNK_WIDTHS = (4, 8)
#: relative cost of scattering one chunk sum (sorted) to one fused ELL slot (measured)
_SCATTER_COST = 0.5
#: the same three for a matrix operand (rows of the dense operand are gathered whole, so
#: streams matter less and each scattered chunk sum is a whole row: wide ELL wins)
MATRIX_LAYOUT = (48, (4, 8, 16, 32), 3.0)


def _concrete(mat):
    return not any(is_tracer(leaf) for leaf in mat._leaves())


def plan(mat, transposed, matrix_operand=False):
    """The cached hybrid layout of a 2-D unbatched dense-free sparse ``mat`` (or of
    ``mat.T`` when ``transposed``), or ``None`` when ``mat`` does not qualify.
    ``matrix_operand``: the layout for products with a 2-D dense operand (tuned apart)."""
    if mat.ndim != 2 or mat.n_batch or mat.n_dense or not _concrete(mat):
        return None
    if np.dtype(mat.dtype).kind not in "biufc":
        return None
    cache = getattr(mat, "_plans", None)
    if cache is None:
        cache = {}
        try:
            mat._plans = cache
        except AttributeError:
            return None
    key = (bool(transposed), bool(matrix_operand))
    if key not in cache:
        cache[key] = _build(mat, *key)
    return cache[key]


def _host_coo(mat):
    """Host ``(rows, cols, data)`` of the valid entries, in storage order."""
    data = np.asarray(mat.data)
    n_rows, n_cols = mat.shape
    if hasattr(mat, "indptr"):
        indptr = np.asarray(mat.indptr).astype(np.int64)
        cols = np.asarray(mat.indices).astype(np.int64)
        rows = np.full(cols.shape, n_rows, np.int64)
        end = int(indptr[-1])
        rows[:end] = np.repeat(np.arange(n_rows, dtype=np.int64), np.diff(indptr))
    else:
        idx = np.asarray(mat.indices).astype(np.int64)
        rows, cols = idx[:, 0], idx[:, 1]
    keep = (rows >= 0) & (rows < n_rows) & (cols >= 0) & (cols < n_cols)
    if not keep.all():
        rows, cols, data = rows[keep], cols[keep], data[keep]
    return rows, cols, data


def _choose_layout(counts, n_rows, matrix_operand=False):
    """``(K, W)``: ELL slots per row and chunk width of the remainder, minimising the
    estimated work ``n_rows * K + sum_r ceil(max(c_r - K, 0) / W) * (W + scatter)``."""
    if counts.size == 0 or n_rows == 0 or counts.max() == 0:
        return 0, 1
    max_slots, widths, scatter_cost = MATRIX_LAYOUT if matrix_operand else (
        MAX_SLOTS, CHUNK_WIDTHS, _SCATTER_COST)
    top = int(min(counts.max(), max_slots))
    ks = np.arange(top + 1)
    long_rows = counts[counts > 0]
    best = None
    for w in widths:
        rest = np.maximum(long_rows[None, :] - ks[:, None], 0)
        chunks = (-(-rest // w)).sum(axis=1)
        cost = n_rows * ks + chunks * (w + scatter_cost)
        i = int(np.argmin(cost))
        if best is None or cost[i] < best[0]:
            best = (cost[i], int(ks[i]), w)
    return best[1], best[2]


def _build(mat, transposed, matrix_operand):
    import jax
    rows, cols, data = _host_coo(mat)
    n_rows, n_cols = mat.shape
    if transposed:
        rows, cols, n_rows, n_cols = cols, rows, n_cols, n_rows
    if rows.size > 1 and not np.all(rows[1:] >= rows[:-1]):
        order = np.argsort(rows, kind="stable")
        rows, cols, data = rows[order], cols[order], data[order]
    counts = np.bincount(rows, minlength=n_rows)
    slots, width = _choose_layout(counts, n_rows, matrix_operand)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    j = np.arange(rows.size) - starts[rows] if rows.size else np.zeros(0, np.int64)
    index_dtype = K.default_index_dtype(n_rows, n_cols)
    in_ell = j < slots
    ell_data = np.zeros((slots, n_rows), data.dtype)
    ell_cols = np.full((slots, n_rows), n_cols, index_dtype)
    ell_data[j[in_ell], rows[in_ell]] = data[in_ell]
    ell_cols[j[in_ell], rows[in_ell]] = cols[in_ell]
    # the rest of each long row, in chunks of `width` (one chunk sum per row piece)
    rest = ~in_ell
    r_rows, r_j = rows[rest], j[rest] - slots
    per_row = -(-np.maximum(counts - slots, 0) // width)
    chunk_start = np.concatenate([[0], np.cumsum(per_row)[:-1]]).astype(np.int64)
    n_chunks = int(per_row.sum())
    chunk = chunk_start[r_rows] + r_j // width
    chunk_data = np.zeros((width, n_chunks), data.dtype)
    chunk_cols = np.full((width, n_chunks), n_cols, index_dtype)
    chunk_data[r_j % width, chunk] = data[rest]
    chunk_cols[r_j % width, chunk] = cols[rest]
    chunk_rows = np.repeat(np.arange(n_rows), per_row).astype(index_dtype)
    # concrete device arrays even when the plan is first needed inside a jax.jit trace
    # (a traced device_put would be cached here and leak into later traces)
    with jax.ensure_compile_time_eval():
        put = jax.device_put
        return (put(ell_data), put(ell_cols), put(chunk_data), put(chunk_cols),
                put(chunk_rows), n_rows)


def product(p, x, dtype):
    """Raw ``M @ x`` for a layout ``p`` of ``M`` and raw dense ``x`` (1-D or 2-D)."""
    ell_data, ell_cols, chunk_data, chunk_cols, chunk_rows, n_rows = p
    return _hybrid_kernel(ell_data, ell_cols, chunk_data, chunk_cols, chunk_rows, x,
                          n_rows=n_rows, dtype=dtype)


def _slot_sum(slot_data, slot_cols, x_ext, dtype, mode):
    """``sum_k slot_data[k] * x_ext[slot_cols[k]]`` as one fused loop.  For a vector,
    ``x_ext`` is ``x`` with a zero appended, so unused slots (column ``n_cols``) read that
    zero and every gather is in bounds (``mode`` PROMISE): no per-element bounds test and
    select (measured ~1.4x faster per entry when ``x`` is cache resident), and the result
    stays exact for non-finite ``x``.  For a matrix the copy costs more than the test, so
    ``x_ext`` is ``x`` and ``mode`` FILL_OR_DROP reads column ``n_cols`` as 0."""
    n = slot_data.shape[1]
    out_shape = (n,) + tuple(x_ext.shape[1:])
    y = lax.full(out_shape, 0, dtype)
    for k in range(slot_data.shape[0]):
        g = K.gather_prefix(x_ext, slot_cols[k][:, None], mode)
        v = lax.broadcast_in_dim(lax.convert_element_type(slot_data[k], dtype), out_shape,
                                 (0,))
        y = lax.add(y, lax.mul(v, g))
    return y


@kernel(static=("n_rows", "dtype"))
def _hybrid_kernel(ell_data, ell_cols, chunk_data, chunk_cols, chunk_rows, x, *, n_rows,
                   dtype):
    x = lax.convert_element_type(x, dtype)
    mode = K.GATHER_FILL
    if x.ndim == 1:
        # one zero past the end: the target of every unused slot (column n_cols)
        x = lax.pad(x, lax.full((), 0, dtype), [(0, 1, 0)])
        mode = K.PROMISE
    y = _slot_sum(ell_data, ell_cols, x, dtype, mode)
    if chunk_rows.shape[0]:
        sums = _slot_sum(chunk_data, chunk_cols, x, dtype, mode)
        dnums = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(1, sums.ndim)),
                                            inserted_window_dims=(0,),
                                            scatter_dims_to_operand_dims=(0,))
        y = lax.scatter_add(y, chunk_rows[:, None], sums, dnums, indices_are_sorted=True,
                            mode=K.GATHER_FILL)
    return y
