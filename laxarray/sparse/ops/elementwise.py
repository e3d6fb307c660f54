"""Elementwise operations: ``map_values``, ``astype`` and binary operations with scalars,
dense arrays and other sparse arrays (the zero-preserving unary functions: ``ops.unary``).

Results keep the sparsity pattern where the operation preserves zeros (``*``, ``/`` by a
dense value or scalar, ``maximum(x, 0)``, unary functions); ``+``/``-`` with a dense array
or a non-zero scalar give a dense ``Array``.  Two sparse operands of the same shape are
combined over the union of their patterns (duplicates summed): eagerly the result has the
exact number of entries, under ``jax.jit`` ``nse(a) + nse(b)`` (extra slots are padding);
``+``/``-`` of two 2-D operands without batch or dense dimensions run one kernel
(:func:`_union_2d_kernel`) whose XLA body is the lax union and which declares SciPy's CSR
add as its CPU host path (:mod:`.union_host`).  Division keeps implicit zeros as zeros (like ``jax.experimental.sparse``), even where the
divisor is zero.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

import laxarray.array_api as _la
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cumulative
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcast_shapes2_cached
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore, is_sparse
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcoo_canonical import (scatter_add_sorted, segment_sum_sorted,
                                            segments_by_key)
from laxarray.sparse.bcoo_convert import todense_raw
from laxarray.sparse.bcsr import BCSR, bcsr_from_bcoo
from laxarray.sparse.ops.layout import (bcoo_operands, check_same_shape, leaf_flags, split,
                                        to_flat)
from laxarray.sparse.ops.reshape import broadcast_to
from laxarray.sparse.ops import spgemm_host as _spgemm_host
from laxarray.sparse.ops import union_host as _union_host


def with_data(mat, data):
    """``mat`` (BCOO or BCSR) with new stored values of the same pattern."""
    return mat._with_data(data)


def unique(mat):
    """``mat`` with duplicates summed unless its indices are known unique (needed before a
    non-linear function of the values: ``f(a) + f(b) != f(a + b)``)."""
    if mat.unique_indices:
        return mat
    traced = any(is_tracer(leaf) for leaf in mat._leaves())
    return mat.sum_duplicates(nse=mat.nse if traced else None)


# ---- unary --------------------------------------------------------------------------------
@in_wide_mode
def map_values(fn, mat):
    """Apply a function to the stored values of a sparse array only.

    jax: (no counterpart; the escape hatch of :mod:`laxarray.sparse`).

    Parameters
    ----------
    fn : callable
        Takes the stored values as a laxarray ``Array`` (of ``mat.data``'s shape) and
        returns an array of that shape.
    mat : BCOO or BCSR
        The sparse array.

    Returns
    -------
    BCOO or BCSR
        ``mat``'s pattern with the values ``fn`` returned.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR.
    ValueError
        If ``fn`` returns an array of another shape.

    Notes
    -----
    Static under ``jax.jit``: none (``fn`` is traced with the values).

    Duplicates are summed first (unless ``unique_indices``).  Implicit zeros are not
    touched, so the result equals the dense ``fn(x)`` only where ``fn(0) == 0``.  Works
    under ``jax.jit``, ``jax.vmap`` and ``jax.grad``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> m = sp.BCOO.fromdense([[0.0, 2.0], [3.0, 0.0]])
    >>> sp.map_values(lambda v: v * v, m).todense()
    Array([[0., 4.],
           [9., 0.]])
    """
    if not is_sparse(mat):
        fail(TypeError, "map_values", "a BCOO or BCSR for 'mat'", mat)
    mat = unique(mat)
    out = fn(wrap(mat.data))
    out = to_raw("map_values", out, "fn(values)")
    if tuple(out.shape) != tuple(mat.data.shape):
        fail(ValueError, "map_values", f"fn to keep the values' shape {tuple(mat.data.shape)}",
             out)
    return with_data(mat, out)


@in_wide_mode
def astype(x, dtype, /):
    """Return a sparse array with its stored values cast to a dtype.

    Array API: astype (of the dense equivalent). jax: BCOO.astype.

    Parameters
    ----------
    x : BCOO or BCSR
        The sparse array.
    dtype : dtype
        The dtype to cast to, by :func:`laxarray.astype`'s rules.

    Returns
    -------
    BCOO or BCSR
        ``x``'s pattern with the cast values.

    Raises
    ------
    TypeError
        If ``x`` is not a BCOO or BCSR, or ``dtype`` is not a supported dtype.

    Notes
    -----
    Static under ``jax.jit``: ``dtype``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.astype(a, la.int32).todense()
    Array([[0, 1, 0],
           [2, 0, 3]], dtype=int32)
    """
    if not is_sparse(x):
        fail(TypeError, "astype", "a BCOO or BCSR for 'x'", x)
    return with_data(x, _la.astype(wrap(x.data), dtype)._value)


# ---- values of a dense operand at a sparse pattern ---------------------------------------------
def dense_at_pattern(mat, y):
    """Raw values of dense ``y`` (broadcastable to ``mat.shape``) at ``mat``'s entries,
    shaped like ``mat.data`` (BCOO)."""
    nd = mat.ndim
    y = lax.reshape(y, (1,) * (nd - y.ndim) + tuple(y.shape)) if y.ndim < nd else y
    return _dense_at_kernel(mat.indices, y, shape=mat.shape, data_shape=tuple(mat.data.shape))


@kernel(static=("shape", "data_shape"))
def _dense_at_kernel(indices, y, *, shape, data_shape):
    nb = indices.ndim - 2
    ns = indices.shape[-1]
    batch = tuple(shape[:nb])
    indices = K.broadcast_batch(indices, batch)
    dense_shape = tuple(shape[nb + ns:])
    y_batch_axes = [0 if y.shape[d] != 1 else None for d in range(nb)]
    squeeze = tuple(d for d in range(nb) if y.shape[d] == 1)
    yy = lax.squeeze(y, squeeze) if squeeze else y

    def core(i, yc):
        # yc: (sparse..., dense...) with possible size-1 dims
        keep = [j for j in range(ns) if yc.shape[j] != 1]
        drop = tuple(j for j in range(ns) if yc.shape[j] == 1)
        yk = lax.squeeze(yc, drop) if drop else yc
        nse = i.shape[0]
        if keep:
            idx = lax.concatenate([i[:, j:j + 1] for j in keep], 1)
            g = K.gather_prefix(yk, idx)
        else:
            g = lax.broadcast_in_dim(yk, (nse,) + tuple(yk.shape), tuple(range(1, yk.ndim + 1)))
        return lax.broadcast_in_dim(g, (nse,) + dense_shape, tuple(range(g.ndim)))

    f = core
    for ax in reversed(y_batch_axes):
        f = K.batched(f, 1, in_axes=(0, ax))
    out = f(indices, yy)
    return lax.broadcast_in_dim(out, tuple(np.broadcast_shapes(out.shape, data_shape)),
                                tuple(range(out.ndim)))


# ---- binary ---------------------------------------------------------------------------------
def _is_scalar(x):
    return _dt.scalar_pytype(x) is not None


def _operand(fn, x, name):
    if is_sparse(x) or _is_scalar(x):
        return x
    return to_raw(fn, x, name)


def _one_sparse(fn, x1, x2):
    """``TypeError`` naming ``fn`` unless ``x1`` or ``x2`` is sparse (the function is
    laxarray.sparse's; two dense operands belong to laxarray's own)."""
    if not (is_sparse(x1) or is_sparse(x2)):
        fail(TypeError, fn, "a BCOO or BCSR for 'x1' or 'x2' (at least one sparse operand; "
                            f"laxarray.{fn} takes two dense ones)", x1)


def _dense_binary(fn_dense, x1, x2):
    a = wrap(todense_raw(x1._as_bcoo())) if is_sparse(x1) else x1
    b = wrap(todense_raw(x2._as_bcoo())) if is_sparse(x2) else x2
    a = a if (isinstance(a, Array) or _is_scalar(a)) else wrap(a)
    b = b if (isinstance(b, Array) or _is_scalar(b)) else wrap(b)
    return fn_dense(a, b)


def _pattern_binary(fn, op, mat, other, swap=False):
    """Sparse ``mat`` with a scalar or dense ``other``: values combined at the pattern."""
    a = mat._as_bcoo()
    if _is_scalar(other):
        vals = other
    else:
        out_shape = broadcast_shapes2_cached(fn, tuple(a.shape), tuple(other.shape))
        if out_shape != tuple(a.shape):
            return _pattern_binary(fn, op, broadcast_to(mat, out_shape), other, swap)
        vals = wrap(dense_at_pattern(a, other))
    d = wrap(a.data) if a.data.shape == mat.data.shape else wrap(mat.data)
    res = op(vals, d) if swap else op(d, vals)
    if res.shape != mat.data.shape:
        return a._with_data(res._value)
    return with_data(mat, res._value)


@in_wide_mode
def multiply(x1, x2, /):
    """Multiply elementwise, with at least one sparse operand; the result is sparse.

    Array API: multiply (of the dense equivalents). jax: jax.experimental.sparse's ``mul``.

    Parameters
    ----------
    x1, x2 : BCOO, BCSR, array_like or scalar
        The operands, at least one of them sparse.  A dense operand or scalar broadcasts to
        the sparse one's shape.

    Returns
    -------
    BCOO or BCSR
        With a dense operand or scalar: the sparse operand's pattern, the dense value
        gathered at its entries (the broadcast is not materialised).  With two sparse
        operands of the same shape: the union of their patterns.

    Raises
    ------
    TypeError
        If an operand is not array_like, BCOO or BCSR.
    ValueError
        If the shapes do not broadcast (two sparse operands: differ).

    Notes
    -----
    Static under ``jax.jit``: none.

    The operator ``x1 * x2`` is this function.  Two sparse operands: eagerly the result
    stores exactly the coordinates of the union; under ``jax.jit`` ``nse(x1) + nse(x2)``
    entries (the extra slots padding).

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.multiply(a, la.asarray([1.0, 10.0, 100.0])).todense()
    Array([[  0.,  10.,   0.],
           [  2.,   0., 300.]])
    >>> a * 2.0
    BCOO(float64[2, 3], nse=3)
    """
    fn = "multiply"
    x1, x2 = _operand(fn, x1, "x1"), _operand(fn, x2, "x2")
    _one_sparse(fn, x1, x2)
    if is_sparse(x1) and is_sparse(x2):
        return sparse_sparse(fn, x1, x2, lax.mul)
    if is_sparse(x1):
        return _pattern_binary(fn, _la.multiply, x1, x2)
    return _pattern_binary(fn, _la.multiply, x2, x1, swap=True)


@in_wide_mode
def divide(x1, x2, /):
    """Divide a sparse array elementwise by a scalar or dense array.

    Array API: divide (of the dense equivalents). jax: jax.experimental.sparse's ``div``.

    Parameters
    ----------
    x1 : BCOO, BCSR or array_like
        The dividend.
    x2 : BCOO, BCSR, array_like or scalar
        The divisor; broadcasts to ``x1``'s shape.

    Returns
    -------
    BCOO, BCSR or Array
        A sparse ``x1`` divided by a dense ``x2`` or scalar: ``x1``'s pattern, implicit
        zeros staying zero even where the divisor is zero (as ``jax.experimental.sparse``).
        A sparse divisor densifies: the dense ``todense(x1) / todense(x2)``.

    Raises
    ------
    TypeError
        If an operand is not array_like, BCOO or BCSR.
    ValueError
        If the shapes do not broadcast.

    Notes
    -----
    Static under ``jax.jit``: none.

    The operator ``x1 / x2`` is this function.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.divide(a, 2.0).todense()
    Array([[0. , 0.5, 0. ],
           [1. , 0. , 1.5]])
    >>> sp.divide(a, 0.0).todense()
    Array([[ 0., inf,  0.],
           [inf,  0., inf]])
    """
    fn = "divide"
    x1, x2 = _operand(fn, x1, "x1"), _operand(fn, x2, "x2")
    _one_sparse(fn, x1, x2)
    if is_sparse(x2):
        return _dense_binary(_la.divide, x1, x2)
    return _pattern_binary(fn, _la.divide, x1, x2)


@in_wide_mode
def add(x1, x2, /):
    """Add elementwise, with a sparse operand: sparse + sparse is sparse, anything else dense.

    Array API: add (of the dense equivalents). jax: jax.experimental.sparse's ``add``.

    Parameters
    ----------
    x1, x2 : BCOO, BCSR, array_like or scalar
        The operands, at least one of them sparse.

    Returns
    -------
    BCOO, BCSR or Array
        Two sparse operands of one shape: a sparse array on the union of their patterns. A
        sparse and a dense operand or scalar: the dense laxarray ``Array``.

    Raises
    ------
    TypeError
        If an operand is not array_like, BCOO or BCSR.
    ValueError
        If two sparse operands differ in shape, or a dense one does not broadcast.

    Notes
    -----
    Static under ``jax.jit``: none.

    The operator ``x1 + x2`` is this function.  Two sparse operands: eagerly the result
    stores exactly the coordinates of the union; under ``jax.jit`` ``nse(x1) + nse(x2)``
    entries (the extra slots padding).  Two 2-D operands without batch or dense dimensions
    take the CPU host path (SciPy's CSR add; see :mod:`laxarray.sparse.ops.union_host`)
    where the kernel helper's gate lets it.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.add(a, a).todense()
    Array([[0., 2., 0.],
           [4., 0., 6.]])
    >>> sp.add(a, 1.0)
    Array([[1., 2., 1.],
           [3., 1., 4.]])
    """
    fn = "add"
    x1, x2 = _operand(fn, x1, "x1"), _operand(fn, x2, "x2")
    if is_sparse(x1) and is_sparse(x2):
        return sparse_sparse(fn, x1, x2, lax.add)
    return _dense_binary(_la.add, x1, x2)


@in_wide_mode
def subtract(x1, x2, /):
    """Subtract elementwise, with a sparse operand: sparse - sparse is sparse, anything else dense.

    Array API: subtract (of the dense equivalents). jax: jax.experimental.sparse's ``sub``.

    Parameters
    ----------
    x1, x2 : BCOO, BCSR, array_like or scalar
        The operands, at least one of them sparse.

    Returns
    -------
    BCOO, BCSR or Array
        As :func:`add`: sparse for two sparse operands, else the dense ``Array``.

    Raises
    ------
    TypeError
        If an operand is not array_like, BCOO or BCSR.
    ValueError
        If two sparse operands differ in shape, or a dense one does not broadcast.

    Notes
    -----
    Static under ``jax.jit``: none.

    The operator ``x1 - x2`` is this function.  Two sparse operands: eagerly the result
    stores exactly the coordinates of the union; under ``jax.jit`` ``nse(x1) + nse(x2)``
    entries (the extra slots padding).  Two 2-D operands without batch or dense dimensions
    take the CPU host path (SciPy's CSR add; see :mod:`laxarray.sparse.ops.union_host`)
    where the kernel helper's gate lets it.  Entries that cancel exactly are not stored,
    eagerly.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.subtract(a, a)
    BCOO(float64[2, 3], nse=0)
    >>> sp.subtract(a, la.ones((2, 3)))
    Array([[-1.,  0., -1.],
           [ 1., -1.,  2.]])
    """
    fn = "subtract"
    x1, x2 = _operand(fn, x1, "x1"), _operand(fn, x2, "x2")
    if is_sparse(x1) and is_sparse(x2):
        return sparse_sparse(fn, x1, x2, lax.sub)
    return _dense_binary(_la.subtract, x1, x2)


def _extremum(fn, dense_fn, lax_fn, x1, x2):
    x1, x2 = _operand(fn, x1, "x1"), _operand(fn, x2, "x2")
    if is_sparse(x1) and is_sparse(x2):
        return sparse_sparse(fn, x1, x2, lax_fn)
    mat, other = (x1, x2) if is_sparse(x1) else (x2, x1)
    zero_scalar = _is_scalar(other) and not isinstance(other, bool) and other == 0
    if zero_scalar:
        return _pattern_binary(fn, dense_fn, unique(mat), other)
    return _dense_binary(dense_fn, x1, x2)


@in_wide_mode
def maximum(x1, x2, /):
    """Return the elementwise maximum, with at least one sparse operand.

    Array API: maximum (of the dense equivalents). jax: jax.experimental.sparse's ``max``.

    Parameters
    ----------
    x1, x2 : BCOO, BCSR, array_like or scalar
        The operands, at least one of them sparse.

    Returns
    -------
    BCOO, BCSR or Array
        Two sparse operands of one shape, or a sparse one and the scalar 0: a sparse array
        (implicit zeros count as 0).  With a dense array or a non-zero scalar: the dense
        ``Array``.

    Raises
    ------
    TypeError
        If an operand is not array_like, BCOO or BCSR.
    ValueError
        If the shapes do not match (broadcast).

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.maximum(-a, 0)
    BCOO(float64[2, 3], nse=3)
    >>> sp.maximum(a, 1.5)
    Array([[1.5, 1.5, 1.5],
           [2. , 1.5, 3. ]])
    """
    return _extremum("maximum", _la.maximum, lax.max, x1, x2)


@in_wide_mode
def minimum(x1, x2, /):
    """Return the elementwise minimum, with at least one sparse operand.

    Array API: minimum (of the dense equivalents). jax: jax.experimental.sparse's ``min``.

    Parameters
    ----------
    x1, x2 : BCOO, BCSR, array_like or scalar
        The operands, at least one of them sparse.

    Returns
    -------
    BCOO, BCSR or Array
        Two sparse operands of one shape, or a sparse one and the scalar 0: a sparse array
        (implicit zeros count as 0).  With a dense array or a non-zero scalar: the dense
        ``Array``.

    Raises
    ------
    TypeError
        If an operand is not array_like, BCOO or BCSR.
    ValueError
        If the shapes do not match (broadcast).

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.minimum(a, 0).todense()
    Array([[0., 0., 0.],
           [0., 0., 0.]])
    >>> sp.minimum(a, la.full((2, 3), 2.0))
    Array([[0., 1., 0.],
           [2., 0., 2.]])
    """
    return _extremum("minimum", _la.minimum, lax.min, x1, x2)


# ---- sparse (op) sparse on the union of patterns ------------------------------------------
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


__all__ = ["map_values", "astype", "multiply", "divide", "add", "subtract", "maximum",
           "minimum", "sparse_sparse", "dense_at_pattern", "unique", "with_data", "Array"]
