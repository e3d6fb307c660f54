"""Row-padded (ELL + chunked remainder) layouts for fast 2-D sparse · dense products.

XLA on CPU runs a sparse·dense product written as "gather, multiply, scatter-add" as two
or three separate passes over the entries, each with its own loop and intermediate.  For a
2-D matrix whose *structure* (indices, indptr) is concrete we therefore build once, on the
host, a :class:`Layout` of the matrix (or of its transpose): **positions into the matrix's
own** ``data`` **and their columns**, row-padded,

* an ELL part: ``K`` slots per row, ``pos[n_rows, K]`` and ``cols[n_rows, K]`` (unused
  slots hold position ``nse``, which reads a zero appended to ``data``, and column
  ``n_cols``);
* the rest of each long row in chunks of ``W`` slots (``chunk_pos[n_chunks, W]``,
  ``chunk_cols``) with the row of each chunk (``chunk_rows``, sorted).

``K`` (at most :data:`MAX_SLOTS`) and ``W`` minimise an estimate of the work, so short
uniform rows are pure ELL and longer or power-law rows put their tails in chunks.  The
product is one fused loop over the ``K`` slots (gather of the value and of the dense
operand, multiply, add; no intermediates), one over the chunk slots, and a sorted segment
sum of the chunk sums.

The positions stay valid for any ``data`` of the same pattern (``A * 2``,
``A._with_data(w)``).  A layout built from concrete ``data`` also holds the values in
layout order (``vals``): reading them in order beats gathering ``data`` through positions,
most for the transposed layout, whose positions are scattered (measured 3-4x on
``A.T @ y``).  ``vals`` is a copy of ``data``, so it is never differentiated on its own:
the product's derivative rule (``custom_jvp``) takes the tangent of ``data`` through the
positions, so a gradient with respect to ``data`` (or to the whole matrix) is exact.  A
new ``data`` under a trace recomputes ``vals`` from it (one gather); an eager one defers
that to the next need.

The layouts are part of the matrix's pytree (``BCOO``/``BCSR`` flatten them as extra
leaves), so a matrix passed to ``jax.jit`` as an argument, carried through
``lax.scan``/``while_loop``/``cond`` or closed over runs the same kernel as an eager call.
Whether a matrix has layouts (and ``vals``) is fixed when it is created, because jax
caches the pytree structures of the values it returns: a matrix created with concrete
structure has them (built on first flatten or product), one created with traced
structure, or returned by a jitted function without them, has none and takes the general
path of :mod:`.dot`; ``with_layout()`` gives a copy with them.
"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax import lax

from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.sparse import _keys as K
from laxarray._core import dtypes as _dt

#: most ELL slots per row.  The fused loop reads 3 streams (positions, columns, values)
#: per slot; measured on 10^5-10^6-entry products, 6-8 slots plus narrow chunks beat
#: 10-48 slots (1.3-2x): many concurrent streams defeat the prefetchers
MAX_SLOTS = 8
#: widths tried for the chunks that hold the rest of long rows (wider ones lost: padding;
#: 16 was the model's pick for 50-entry rows, (2, 16), and measured 15 ms where (2, 8) took
#: 8 ms on 5e6 entries: 16 concurrent streams per chunk defeat the prefetchers too)
CHUNK_WIDTHS = (4, 8)
#: relative cost of scattering one chunk sum (sorted) to one fused ELL slot (measured)
_SCATTER_COST = 0.5


#: ``mat._layouts`` of a matrix born with concrete structure whose layouts are not built
#: yet, or ``Layout.vals`` to be gathered (its pytree has them all the same: flattening
#: builds them)
PENDING = "pending"


class Layout:
    """The row-padded layout of a 2-D matrix ``M`` (or of ``M.T``): int arrays ``pos``,
    ``cols`` (``[n_rows, K]``), ``chunk_pos``, ``chunk_cols`` (``[n_chunks, W]``) and
    ``chunk_rows`` (``[n_chunks]``), where ``n_rows`` is the product's output length, and
    ``vals``: ``None``, ``M``'s values at ``pos`` and ``chunk_pos`` (a pair), or
    :data:`PENDING` (to be gathered; its matrix resolves it before flattening).  A pytree
    of those leaves."""

    __slots__ = ("pos", "cols", "chunk_pos", "chunk_cols", "chunk_rows", "vals")

    def __init__(self, pos, cols, chunk_pos, chunk_cols, chunk_rows, vals=None):
        self.pos, self.cols = pos, cols
        self.chunk_pos, self.chunk_cols, self.chunk_rows = chunk_pos, chunk_cols, chunk_rows
        self.vals = vals

    def structure(self):
        return (self.pos, self.cols, self.chunk_pos, self.chunk_cols, self.chunk_rows)

    def with_vals(self, vals):
        return Layout(*self.structure(), vals)

    def __repr__(self):
        k = getattr(self.pos, "shape", (0, 0))
        return f"Layout(n_rows={k[0]}, slots={k[1]}, vals={self.vals is not None})"


jax.tree_util.register_pytree_node(
    Layout, lambda p: (p.structure() + (p.vals,), None), lambda _, leaves: Layout(*leaves))


def _concrete_array(x):
    return isinstance(x, (np.ndarray, jax.Array)) and not is_tracer(x)


def qualifies(mat):
    """Whether ``mat`` can have a layout: 2-D, unbatched, no dense dimensions, numeric."""
    return (mat.ndim == 2 and not mat.n_batch and not mat.n_dense
            and np.dtype(mat.dtype).kind in "biufc")


def initial(mat):
    """The ``_layouts`` a new matrix is born with: :data:`PENDING` when it qualifies and its
    structure is concrete, else ``None`` (never: a matrix's pytree structure is fixed at
    birth, because jax caches the structures of the values it returns)."""
    structure = mat._leaves()[1:]
    if all(_concrete_array(s) for s in structure) and qualifies(mat):
        return PENDING
    return None


def _states(mat):
    got = getattr(mat, "_layouts", None)
    return (PENDING, PENDING) if got is PENDING else got


def _resolve(mat, states, i):
    """Layout ``i`` (0 forward, 1 transposed) of ``mat``, built or its ``vals`` gathered
    now if pending."""
    p = states[i]
    if p is PENDING:
        p = build(mat, transposed=bool(i))
    elif p.vals is PENDING:
        with jax.ensure_compile_time_eval():
            p = p.with_vals(gather_vals(p, mat.data))
    return p


def layouts_of(mat):
    """``(forward, transposed)`` layouts of ``mat`` (built now where pending, stored on
    it), or ``None`` when it has none."""
    states = _states(mat)
    if states is None:
        return None
    got = (_resolve(mat, states, 0), _resolve(mat, states, 1))
    if got != states:
        mat._layouts = got
    return got


def plan(mat, transposed):
    """The layout of ``mat`` (``transposed``: of ``mat.T``), or ``None`` (general path);
    only that one is built if pending (an eager ``A @ x`` never sorts for ``A.T``)."""
    states = _states(mat)
    if states is None:
        return None
    i = int(bool(transposed))
    p = _resolve(mat, states, i)
    if p is not states[i]:
        mat._layouts = (p, states[1]) if i == 0 else (states[0], p)
    return p


def for_new_data(layouts, data):
    """The layouts of a matrix of the same pattern with values ``data``: ``vals``
    recomputed from a traced ``data`` (the pytree keeps its structure: scan carries,
    ``cond`` branches), pending for a concrete one (gathered when next needed)."""
    if layouts is None or layouts is PENDING:
        return layouts

    def one(p):
        if p is PENDING or p.vals is None:
            return p
        return p.with_vals(PENDING if _concrete_array(data) else gather_vals(p, data))
    return (one(layouts[0]), one(layouts[1]))


def gather_vals(p, data):
    """``(data_ext[p.pos], data_ext[p.chunk_pos])``, ``data_ext`` = ``data`` + one zero."""
    return _vals_kernel(data, p.pos, p.chunk_pos)


@kernel()
def _vals_kernel(data, pos, chunk_pos):
    data = lax.pad(data, lax.full((), 0, data.dtype), [(0, 1, 0)])
    return (K.gather_1d(data, pos.reshape(-1), K.PROMISE).reshape(pos.shape),
            K.gather_1d(data, chunk_pos.reshape(-1), K.PROMISE).reshape(chunk_pos.shape))


def _host_structure(mat):
    """Host ``(rows, cols, positions)`` of the valid entries, in storage order."""
    n_rows, n_cols = mat.shape
    if hasattr(mat, "indptr"):
        indptr = np.asarray(mat.indptr).astype(_dt.default_index())
        cols = np.asarray(mat.indices).astype(_dt.default_index())
        rows = np.full(cols.shape, n_rows, _dt.default_index())
        end = int(indptr[-1])
        rows[:end] = np.repeat(np.arange(n_rows, dtype=_dt.default_index()), np.diff(indptr))
    else:
        idx = np.asarray(mat.indices).astype(_dt.default_index())
        rows, cols = idx[:, 0], idx[:, 1]
    positions = np.arange(rows.size, dtype=_dt.default_index())
    keep = (rows >= 0) & (rows < n_rows) & (cols >= 0) & (cols < n_cols)
    if not keep.all():
        rows, cols, positions = rows[keep], cols[keep], positions[keep]
    return rows, cols, positions


def _choose_layout(counts, n_rows):
    """``(K, W)``: ELL slots per row and chunk width of the remainder, minimising the
    estimated work ``n_rows * K + sum_r ceil(max(c_r - K, 0) / W) * (W + scatter)``."""
    if counts.size == 0 or n_rows == 0 or counts.max() == 0:
        return 0, 1
    top = int(min(counts.max(), MAX_SLOTS))
    ks = np.arange(top + 1)
    long_rows = counts[counts > 0]
    best = None
    for w in CHUNK_WIDTHS:
        rest = np.maximum(long_rows[None, :] - ks[:, None], 0)
        chunks = (-(-rest // w)).sum(axis=1)
        cost = n_rows * ks + chunks * (w + _SCATTER_COST)
        i = int(np.argmin(cost))
        if best is None or cost[i] < best[0]:
            best = (cost[i], int(ks[i]), w)
    return best[1], best[2]


def build(mat, transposed):
    """The layout of a qualifying ``mat`` with concrete structure (``transposed``: of
    ``mat.T``), with ``vals`` when ``mat.data`` is concrete."""
    rows, cols, positions = _host_structure(mat)
    n_rows, n_cols = mat.shape
    if transposed:
        rows, cols, n_rows, n_cols = cols, rows, n_cols, n_rows
    data = np.asarray(mat.data) if _concrete_array(mat.data) else None
    # concrete device arrays even when first needed inside a jax.jit trace (a traced
    # device_put would be stored on the matrix and leak into later traces)
    with jax.ensure_compile_time_eval():
        return _build_one(rows, cols, positions, n_rows, n_cols, mat.nse, data)


def _build_one(rows, cols, positions, n_rows, n_cols, nse, data):
    """One layout on the host (vectorised NumPy: one pass per array, flat writes)."""
    if rows.size > 1 and np.any(rows[1:] < rows[:-1]):
        order = np.argsort(rows, kind="stable")
        rows, cols, positions = rows[order], cols[order], positions[order]
    counts = np.bincount(rows, minlength=n_rows)
    slots, width = _choose_layout(counts, n_rows)
    starts = np.zeros(n_rows + 1, _dt.default_index())
    np.cumsum(counts, out=starts[1:])
    j = np.arange(rows.size, dtype=_dt.default_index()) - starts[rows]
    col_dtype = K.default_index_dtype(n_rows, n_cols)
    pos_dtype = K.default_index_dtype(nse + 1)
    in_ell = j < slots
    flat = rows[in_ell] * slots + j[in_ell]
    pos = np.full(n_rows * slots, nse, pos_dtype)
    ell_cols = np.full(n_rows * slots, n_cols, col_dtype)
    pos[flat] = positions[in_ell]
    ell_cols[flat] = cols[in_ell]
    # the rest of each long row, in chunks of `width` (one chunk sum per row piece)
    rest = ~in_ell
    r_rows, r_j = rows[rest], j[rest] - slots
    per_row = -(-np.maximum(counts - slots, 0) // width)
    chunk_start = np.zeros(n_rows + 1, _dt.default_index())
    np.cumsum(per_row, out=chunk_start[1:])
    n_chunks = int(chunk_start[-1])
    flat = (chunk_start[r_rows] + r_j // width) * width + r_j % width
    chunk_pos = np.full(n_chunks * width, nse, pos_dtype)
    chunk_cols = np.full(n_chunks * width, n_cols, col_dtype)
    chunk_pos[flat] = positions[rest]
    chunk_cols[flat] = cols[rest]
    chunk_rows = np.repeat(np.arange(n_rows, dtype=col_dtype), per_row)
    put = device_put
    vals = None
    if data is not None:
        ext = np.concatenate([data, np.zeros(1, data.dtype)])
        vals = (put(ext[pos].reshape(n_rows, slots)),
                put(ext[chunk_pos].reshape(n_chunks, width)))
    return Layout(put(pos.reshape(n_rows, slots)), put(ell_cols.reshape(n_rows, slots)),
                  put(chunk_pos.reshape(n_chunks, width)),
                  put(chunk_cols.reshape(n_chunks, width)), put(chunk_rows), vals)


def product(p, data, x, dtype):
    """Raw ``M @ x`` for a layout ``p`` of ``M``, ``M``'s raw ``data`` and raw dense ``x``
    (1-D or 2-D): from ``p.vals`` when it has them, else gathering ``data``."""
    if p.vals is None:
        return _positions_kernel(data, *p.structure(), x, dtype=dtype)
    if not (is_tracer(data) or is_tracer(x) or is_tracer(p.vals[0])):
        # eager: nothing to differentiate, so the kernel without the derivative wrapper
        # (which jax re-traces on every eager call)
        _, cols, _, chunk_cols, chunk_rows = p.structure()
        return _vals_product_kernel(*p.vals, cols, chunk_cols, chunk_rows, x, dtype=dtype)
    return _product_with_vals(dtype, data, p.vals, p.structure(), x)


@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def _product_with_vals(dtype, data, vals, structure, x):
    _, cols, _, chunk_cols, chunk_rows = structure
    return _vals_product_kernel(*vals, cols, chunk_cols, chunk_rows, x, dtype=dtype)


def _perturbed(t):
    """Whether a tangent is a real one (not a symbolic zero, not integer's float0)."""
    return (not isinstance(t, jax.custom_derivatives.SymbolicZero)
            and t.dtype != jax.dtypes.float0)


def _product_with_vals_jvp(dtype, primals, tangents):
    # vals is a copy of data: data's tangent flows through the positions, vals' is unused;
    # an unperturbed operand (a matrix held fixed, as in grad with respect to weights)
    # costs nothing
    data, vals, structure, x = primals
    t_data, _, _, t_x = tangents
    out = _product_with_vals(dtype, data, vals, structure, x)
    t_out = None
    if _perturbed(t_data):
        t_out = _positions_kernel(t_data, *structure, x, dtype=dtype)
    if _perturbed(t_x):
        t = _product_with_vals(dtype, data, vals, structure, t_x)
        t_out = t if t_out is None else lax.add(t_out, t)
    return out, lax.full(out.shape, 0, dtype) if t_out is None else t_out


# (run by jax's differentiation, maybe after laxarray's call returned: in 64-bit mode)
_product_with_vals.defjvp(in_wide_mode(_product_with_vals_jvp), symbolic_zeros=True)


def _slot_sum(slot_vals, slot_cols, x_ext, dtype, mode):
    """``sum_k slot_vals(k) * x_ext[slot_cols[:, k]]`` as one fused loop; ``slot_vals(k)``
    gives slot ``k``'s values.  For a vector, ``x_ext`` is ``x`` with a zero appended
    (column ``n_cols``), so unused slots read that zero and every gather is in bounds
    (``mode`` PROMISE): no per-element bounds test and select (measured ~1.4x faster per
    entry when ``x`` is cache resident), and the result stays exact for non-finite ``x``.
    For a matrix the copy costs more than the test, so ``x_ext`` is ``x`` and ``mode``
    FILL_OR_DROP reads column ``n_cols`` as 0."""
    n = slot_cols.shape[0]
    out_shape = (n,) + tuple(x_ext.shape[1:])
    y = lax.full(out_shape, 0, dtype)
    for k in range(slot_cols.shape[1]):
        g = K.gather_prefix(x_ext, slot_cols[:, k:k + 1], mode)
        v = lax.broadcast_in_dim(lax.convert_element_type(slot_vals(k), dtype), out_shape,
                                 (0,))
        y = lax.add(y, lax.mul(v, g))
    return y


def _products(ell_vals, cols, chunk_vals, chunk_cols, chunk_rows, x, dtype):
    """The ELL slot sums plus the scattered chunk sums (``*_vals``: per-slot value
    getters)."""
    zero = lax.full((), 0, dtype)
    x = lax.convert_element_type(x, dtype)
    mode = K.GATHER_FILL
    if x.ndim == 1:
        # one zero past the end: the target of every unused slot (column n_cols)
        x = lax.pad(x, zero, [(0, 1, 0)])
        mode = K.PROMISE
    y = _slot_sum(ell_vals, cols, x, dtype, mode)
    if chunk_rows.shape[0]:
        sums = _slot_sum(chunk_vals, chunk_cols, x, dtype, mode)
        dnums = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(1, sums.ndim)),
                                            inserted_window_dims=(0,),
                                            scatter_dims_to_operand_dims=(0,))
        y = lax.scatter_add(y, chunk_rows[:, None], sums, dnums, indices_are_sorted=True,
                            mode=K.GATHER_FILL)
    return y


@kernel(static=("dtype",))
def _vals_product_kernel(ell_vals, chunk_vals, cols, chunk_cols, chunk_rows, x, *, dtype):
    return _products(lambda k: ell_vals[:, k], cols, lambda k: chunk_vals[:, k], chunk_cols,
                     chunk_rows, x, dtype)


@kernel(static=("dtype",))
def _positions_kernel(data, pos, cols, chunk_pos, chunk_cols, chunk_rows, x, *, dtype):
    # data_ext: position nse (every unused slot) reads a zero, so every gather is in bounds
    data = lax.pad(data, lax.full((), 0, data.dtype), [(0, 1, 0)])
    return _products(lambda k: K.gather_1d(data, pos[:, k], K.PROMISE), cols,
                     lambda k: K.gather_1d(data, chunk_pos[:, k], K.PROMISE), chunk_cols,
                     chunk_rows, x, dtype)
