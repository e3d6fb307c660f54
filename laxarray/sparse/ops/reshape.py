"""Shape manipulation: ``transpose``, ``reshape``, ``squeeze``, ``broadcast_in_dim``,
``broadcast_to`` and ``concatenate`` of sparse arrays.

None of them inspects the data, so all work under ``jax.jit`` with static shapes.
A transpose that keeps batch, sparse and dense dimensions in their groups keeps the
layout; other transposes, reshapes, broadcasts and concatenations return the flat layout
(``n_batch == n_dense == 0``).  BCSR inputs give BCSR results when the result is 2-D.
"""

from __future__ import annotations

import math

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import AxisError, fail
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.sparse import _docs
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore, is_sparse
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcsr import BCSR
from laxarray.sparse.ops.layout import to_flat


def _as(fn, mat):
    if not is_sparse(mat):
        fail(TypeError, fn, "a BCOO or BCSR", mat)
    return mat._as_bcoo()


def _axes(fn, axes, ndim):
    try:
        axes = tuple(int(a) for a in axes)
    except TypeError:
        fail(TypeError, fn, "a sequence of ints for the axes", axes)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise AxisError(f"{fn}: expected axes in [-{ndim}, {ndim}); got {a}")
        out.append(a % ndim)
    return tuple(out)


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def transpose(mat, axes=None):
    """Permute the dimensions of a sparse array.

    Array API: permute_dims (of the dense equivalent). jax:
    jax.experimental.sparse.bcoo_transpose.

    {params}
    axes : sequence of ints, optional
        A permutation of ``range(mat.ndim)``; default the reverse order.

    Returns
    -------
    BCOO or BCSR
        The permuted array (the format kept where it can be).

    {raises}
    ValueError
        If ``axes`` is not a permutation.

    Notes
    -----
    Static under ``jax.jit``: ``axes``.

    ``mat.T`` and ``mat.transpose(axes)`` are this function; a 2-D matrix's transpose shares
    its product layouts.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.transpose(a)
    BCOO(float64[3, 2], nse=3)
    >>> a.T.todense()
    Array([[0., 2.],
           [1., 0.],
           [0., 3.]])
    """
    fn = "transpose"
    memo = getattr(mat, "_transposed", None)
    if memo is not None and axes is None:
        return memo
    a = _as(fn, mat)
    perm = tuple(range(a.ndim - 1, -1, -1)) if axes is None else _axes(fn, axes, a.ndim)
    if sorted(perm) != list(range(a.ndim)):
        fail(ValueError, fn, f"a permutation of range({a.ndim})", axes)
    if perm == tuple(range(a.ndim)):
        return mat
    if perm == (1, 0) and a.n_batch == 0 and a.n_dense == 0:
        return _transpose_2d(mat, a)
    nb, ns = a.n_batch, a.n_sparse
    groups_kept = (all(p < nb for p in perm[:nb])
                   and all(nb <= p < nb + ns for p in perm[nb:nb + ns]))
    if not groups_kept:
        a = to_flat(a)
        nb, ns = 0, a.ndim
    new_shape = tuple(a.shape[p] for p in perm)
    data, indices = _transpose_kernel(a.data, a.indices, perm=perm, nb=nb, ns=ns)
    return _restore(BCOO._new(data, indices, new_shape), mat)


def _transpose_2d(mat, a):
    """``mat.T`` of a 2-D matrix, marked as the transpose of ``mat`` so that products in
    the same trace run on ``mat`` (no sort; see ``dot._fast_2d``).  A BCOO result keeps the
    order of ``mat``'s entries, so it carries ``mat``'s layouts swapped (in its pytree);
    a concrete ``mat`` memoizes the result."""
    memo = getattr(mat, "_transposed", None)
    if memo is not None:
        return memo
    layouts = getattr(mat, "_layouts", None)
    concrete = not any(is_tracer(leaf) for leaf in mat._leaves())
    if concrete and hasattr(mat, "indptr"):
        out = _bcsr_transpose_on_host(mat)
    elif concrete:
        # computed eagerly even inside a jax.jit trace: the memo must hold concrete
        # arrays, never tracers of the trace that first needed it
        with jax.ensure_compile_time_eval():
            data, indices = _transpose_kernel(a.data, a.indices, perm=(1, 0), nb=0, ns=2)
            out = BCOO._new(data, indices, a.shape[::-1])
    else:
        data, indices = _transpose_kernel(a.data, a.indices, perm=(1, 0), nb=0, ns=2)
        out = _restore(BCOO._new(data, indices, a.shape[::-1]), mat)
    if isinstance(out, BCOO) and isinstance(layouts, tuple):
        # the same entries in the same order: mat's layouts, swapped (a pending one is what
        # out would build from its own indices)
        out._layouts = (layouts[1], layouts[0])
    out._transpose_of = mat
    if concrete:
        mat._transposed = out
    return out


def _bcsr_transpose_on_host(mat):
    """The BCSR transpose of a concrete 2-D BCSR, by a stable host sort of its entries by
    column (a counting-sort's result; no sort kernel to compile).  Padding stays last."""
    n_rows, n_cols = mat.shape
    indptr = np.asarray(mat.indptr).astype(_dt.default_index())
    cols = np.asarray(mat.indices).astype(_dt.default_index())
    data = np.asarray(mat.data)
    nse = cols.shape[0]
    rows = np.full(nse, n_rows, _dt.default_index())
    rows[:indptr[-1]] = np.repeat(np.arange(n_rows), np.diff(indptr))
    keep = np.flatnonzero((rows < n_rows) & (cols >= 0) & (cols < n_cols))
    order = keep[np.argsort(cols[keep], kind="stable")]    # rows ascend within a column
    t_data = np.zeros(nse, data.dtype)
    t_data[:order.size] = data[order]
    t_idx = np.full(nse, n_rows, mat.indices.dtype)
    t_idx[:order.size] = rows[order]
    t_ptr = np.zeros(n_cols + 1, mat.indptr.dtype)
    np.cumsum(np.bincount(cols[keep], minlength=n_cols), out=t_ptr[1:])
    put = device_put
    with jax.ensure_compile_time_eval():
        return BCSR._new(put(t_data), put(t_idx), put(t_ptr), (n_cols, n_rows),
                         indices_sorted=True, unique_indices=mat.unique_indices)


@kernel(static=("perm", "nb", "ns"))
def _transpose_kernel(data, indices, *, perm, nb, ns):
    bperm = perm[:nb]
    sperm = tuple(p - nb for p in perm[nb:nb + ns])
    dperm = tuple(p - nb - ns for p in perm[nb + ns:])
    data = lax.transpose(data, bperm + (nb,) + tuple(nb + 1 + d for d in dperm))
    indices = lax.transpose(indices, bperm + (nb, nb + 1))
    if sperm != tuple(range(ns)):
        indices = lax.concatenate([indices[..., s:s + 1] for s in sperm], indices.ndim - 1)
    return data, indices


def _new_shape(fn, shape, size):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = [int(s) for s in shape]
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        fail(ValueError, fn, "a shape with at most one -1 and no other negative", tuple(shape))
    if -1 in shape:
        rest = math.prod(s for s in shape if s != -1)
        if rest == 0 or size % rest:
            fail(ValueError, fn, f"a shape compatible with size {size}", tuple(shape))
        shape[shape.index(-1)] = size // rest
    if math.prod(shape) != size:
        fail(ValueError, fn, f"a shape of size {size}", tuple(shape))
    return tuple(shape)


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def reshape(mat, shape):
    """Reshape a sparse array (row-major, as ``numpy.reshape``).

    Array API: reshape (of the dense equivalent). jax: jax.experimental.sparse.bcoo_reshape.

    {params}
    shape : tuple of ints
        The new shape, of the same size; one entry may be -1.

    Returns
    -------
    BCOO or BCSR
        The reshaped array, in the flat layout (no batch or dense dimensions).

    {raises}
    ValueError
        If the sizes differ.

    Notes
    -----
    Static under ``jax.jit``: ``shape``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.reshape(a, (3, 2)).todense()
    Array([[0., 1.],
           [0., 2.],
           [0., 3.]])
    """
    fn = "reshape"
    a = _as(fn, mat)
    new_shape = _new_shape(fn, shape, a.size)
    if new_shape == tuple(a.shape):
        return mat
    f = to_flat(a)
    index_dtype = np.promote_types(f.indices.dtype, K.default_index_dtype(*new_shape))
    indices = _reshape_kernel(f.indices, shape=f.shape, new_shape=new_shape,
                              index_dtype=index_dtype)
    return _restore(BCOO._new(f.data, indices, new_shape, indices_sorted=f.indices_sorted,
                              unique_indices=f.unique_indices), mat)


@kernel(static=("shape", "new_shape", "index_dtype"))
def _reshape_kernel(indices, *, shape, new_shape, index_dtype):
    keys = K.linear_keys(indices, shape)
    return K.unravel_keys(keys, new_shape, index_dtype)


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def squeeze(mat, dimensions):
    """Remove the given size-1 dimensions of a sparse array.

    Array API: squeeze (of the dense equivalent). jax: jax.experimental.sparse.bcoo_squeeze.

    {params}
    dimensions : int or sequence of ints
        The dimensions to remove, each of size 1 (required, as ``lax.squeeze``).

    Returns
    -------
    BCOO or BCSR
        The array without those dimensions.

    {raises}
    ValueError
        If a dimension is not of size 1.

    Notes
    -----
    Static under ``jax.jit``: ``dimensions``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> sp.squeeze(sp.fromdense([[1.0, 0.0]]), (0,))
    BCOO(float64[2], nse=1)
    """
    fn = "squeeze"
    a = _as(fn, mat)
    dims = _axes(fn, (dimensions,) if isinstance(dimensions, (int, np.integer))
                 else dimensions, a.ndim)
    for d in dims:
        if a.shape[d] != 1:
            fail(ValueError, fn, f"dimension {d} of size 1", a.shape)
    shape = tuple(s for i, s in enumerate(a.shape) if i not in dims)
    nb, ns = a.n_batch, a.n_sparse
    if all(d < nb or d >= nb + ns for d in dims):
        # batch and dense dimensions: plain squeezes of the leaves
        bd = tuple(d for d in dims if d < nb)
        dd = tuple(d - ns + 1 for d in dims if d >= nb + ns)
        data = lax.squeeze(a.data, bd + dd) if bd + dd else a.data
        indices = lax.squeeze(a.indices, bd) if bd else a.indices
        return _restore(BCOO._new(data, indices, shape, a.indices_sorted, a.unique_indices),
                        mat)
    return reshape(mat, shape)


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def broadcast_in_dim(mat, shape, broadcast_dimensions):
    """Broadcast a sparse array as ``lax.broadcast_in_dim`` does.

    jax: jax.experimental.sparse.bcoo_broadcast_in_dim.

    {params}
    shape : tuple of ints
        The result's shape.
    broadcast_dimensions : tuple of ints
        For each dimension of ``mat``, the dimension of the result it becomes.

    Returns
    -------
    BCOO or BCSR
        The entries replicated over the new and expanded dimensions, in the flat layout.

    {raises}
    ValueError
        If the shapes are not compatible.

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``broadcast_dimensions``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> v = sp.fromdense([1.0, 0.0])
    >>> sp.broadcast_in_dim(v, (2, 3), (0,)).todense()
    Array([[1., 1., 1.],
           [0., 0., 0.]])
    """
    fn = "broadcast_in_dim"
    a = _as(fn, mat)
    shape = tuple(int(s) for s in shape)
    bdims = tuple(int(d) for d in broadcast_dimensions)
    if len(bdims) != a.ndim or len(set(bdims)) != len(bdims) or any(
            not 0 <= d < len(shape) for d in bdims) or list(bdims) != sorted(bdims):
        fail(ValueError, fn, f"{a.ndim} increasing broadcast_dimensions in "
             f"[0, {len(shape)})", broadcast_dimensions)
    for i, d in enumerate(bdims):
        if a.shape[i] not in (1, shape[d]):
            fail(ValueError, fn, f"operand dimension {i} of size 1 or {shape[d]}", a.shape)
    if shape == tuple(a.shape):
        return mat
    f = to_flat(a)
    index_dtype = np.promote_types(f.indices.dtype, K.default_index_dtype(*shape))
    data, indices = _broadcast_kernel(f.data, f.indices, in_shape=f.shape, shape=shape,
                                      bdims=bdims, index_dtype=index_dtype)
    return _restore(BCOO._new(data, indices, shape), mat)


@kernel(static=("in_shape", "shape", "bdims", "index_dtype"))
def _broadcast_kernel(data, indices, *, in_shape, shape, bdims, index_dtype):
    nse = indices.shape[0]
    src = {d: i for i, d in enumerate(bdims)}
    rep = [d for d in range(len(shape)) if d not in src or in_shape[src[d]] != shape[d]]
    rep_shape = tuple(shape[d] for d in rep)
    r = math.prod(rep_shape)
    pad = K.pad_mask(indices, in_shape)
    full = (nse, r)
    rkeys = lax.broadcasted_iota(K.KEY_DTYPE, full, 1)
    rcols = K.unravel_keys(rkeys, rep_shape, index_dtype)        # (nse, r, len(rep))
    cols = []
    for d in range(len(shape)):
        if d in rep:
            cols.append(rcols[..., rep.index(d):rep.index(d) + 1])
        else:
            c = lax.convert_element_type(indices[:, src[d]], index_dtype)
            cols.append(lax.broadcast_in_dim(c, full, (0,))[..., None])
    idx = lax.concatenate(cols, 2) if cols else lax.full(full + (0,), 0, index_dtype)
    sizes = lax.broadcast_in_dim(lax.convert_element_type(np.asarray(shape, _dt.default_index()),
                                                          index_dtype), idx.shape, (2,))
    idx = lax.select(lax.broadcast_in_dim(pad, idx.shape, (0,)), sizes, idx)
    data = lax.broadcast_in_dim(data, full, (0,))
    return lax.reshape(data, (nse * r,)), lax.reshape(idx, (nse * r, len(shape)))


@in_wide_mode
@fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def broadcast_to(mat, shape):
    """Broadcast a sparse array to a shape, with NumPy's rules.

    Array API: broadcast_to (of the dense equivalent). jax: (as ``bcoo_broadcast_in_dim``).

    {params}
    shape : tuple of ints
        The result's shape: new dimensions on the left, size-1 dimensions expanded.

    Returns
    -------
    BCOO or BCSR
        The broadcast array, in the flat layout.

    {raises}
    ValueError
        If ``mat`` does not broadcast to ``shape``.

    Notes
    -----
    Static under ``jax.jit``: ``shape``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.broadcast_to(sp.fromdense([1.0, 0.0]), (3, 2)).todense()
    Array([[1., 0.],
           [1., 0.],
           [1., 0.]])
    """
    a = _as("broadcast_to", mat)
    shape = tuple(int(s) for s in shape)
    if len(shape) < a.ndim:
        fail(ValueError, "broadcast_to", f"a shape of rank >= {a.ndim}", shape)
    return broadcast_in_dim(mat, shape, tuple(range(len(shape) - a.ndim, len(shape))))


@in_wide_mode
def concatenate(operands, dimension=0):
    """Join sparse arrays along a dimension.

    Array API: concat (of the dense equivalents). jax: jax.experimental.sparse.bcoo_concatenate.

    Parameters
    ----------
    operands : sequence of BCOO or BCSR
        The arrays, of one rank and equal shapes except along ``dimension``.
    dimension : int, optional
        The dimension to join along; default 0.

    Returns
    -------
    BCOO
        The joined array, in the flat layout.

    Raises
    ------
    TypeError
        If an operand is not a BCOO or BCSR.
    ValueError
        If the shapes do not match.
    AxisError
        If ``dimension`` is out of range.

    Notes
    -----
    Static under ``jax.jit``: ``dimension``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.concatenate([a, a], 0)
    BCOO(float64[4, 3], nse=6)
    """
    fn = "concatenate"
    ops = [_as(fn, o) for o in operands]
    if not ops:
        fail(ValueError, fn, "at least one operand", operands)
    nd = ops[0].ndim
    (dimension,) = _axes(fn, (dimension,), nd)
    for o in ops[1:]:
        if o.ndim != nd or any(o.shape[i] != ops[0].shape[i] for i in range(nd)
                               if i != dimension):
            fail(ValueError, fn, f"shapes matching {ops[0].shape} except in dimension "
                 f"{dimension}", o.shape)
    flats = [to_flat(o) for o in ops]
    out_shape = list(ops[0].shape)
    out_shape[dimension] = sum(o.shape[dimension] for o in ops)
    out_shape = tuple(out_shape)
    index_dtype = np.result_type(*[f.indices.dtype for f in flats],
                                 K.default_index_dtype(*out_shape))
    dtype = _dt.result_type(*[o.dtype for o in ops])
    data, indices = _concat_kernel(tuple(f.data for f in flats), tuple(f.indices for f in flats),
                                   shapes=tuple(f.shape for f in flats), out_shape=out_shape,
                                   dimension=dimension, dtype=dtype, index_dtype=index_dtype)
    return _restore(BCOO._new(data, indices, out_shape), *operands)


@kernel(static=("shapes", "out_shape", "dimension", "dtype", "index_dtype"))
def _concat_kernel(datas, indicess, *, shapes, out_shape, dimension, dtype, index_dtype):
    outs_d, outs_i = [], []
    offset = 0
    sizes = lax.convert_element_type(np.asarray(out_shape, _dt.default_index()), index_dtype)
    for d, i, shp in zip(datas, indicess, shapes):
        i = lax.convert_element_type(i, index_dtype)
        pad = K.pad_mask(i, shp)
        col = lax.add(i[:, dimension], lax.full((), offset, index_dtype))
        i = lax.concatenate([i[:, :dimension], col[:, None], i[:, dimension + 1:]], 1)
        i = lax.select(lax.broadcast_in_dim(pad, i.shape, (0,)),
                       lax.broadcast_in_dim(sizes, i.shape, (1,)), i)
        outs_d.append(lax.convert_element_type(d, dtype))
        outs_i.append(i)
        offset += shp[dimension]
    return lax.concatenate(outs_d, 0), lax.concatenate(outs_i, 0)


__all__ = ["transpose", "reshape", "squeeze", "broadcast_in_dim", "broadcast_to",
           "concatenate"]
