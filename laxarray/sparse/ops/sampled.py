"""Sampled operations: ``extract`` (dense values at a sparse pattern) and
``dot_general_sampled`` (SDDMM: a dense product evaluated only at a sparse pattern).

Both keep the pattern (and the format) of the sparse argument; neither materialises the
full dense product.  Static under ``jax.jit``: shapes and dimension numbers.
"""

from __future__ import annotations

from jax import lax
import numpy as np

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore, is_sparse
from laxarray.sparse.ops.dot import _check_sizes, _norm_dims
from laxarray.sparse.ops.elementwise import dense_at_pattern, with_data
from laxarray.sparse.ops.layout import to_flat
from laxarray._core.jaxapi import in_wide_mode


@in_wide_mode
def extract(sparr, arr):
    """Return the values of a dense array at the stored entries of a sparse one.

    jax: jax.experimental.sparse.bcoo_extract.

    Parameters
    ----------
    sparr : BCOO or BCSR
        The pattern.
    arr : array_like
        The dense array, of ``sparr``'s shape (or broadcasting to it).

    Returns
    -------
    BCOO or BCSR
        ``sparr``'s pattern and format with ``arr``'s values there.

    Raises
    ------
    TypeError
        If ``sparr`` is not a BCOO or BCSR.
    ValueError
        If ``arr`` does not broadcast to ``sparr``'s shape.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 5.0, 0.0], [6.0, 0.0, 7.0]])
    >>> sp.extract(a, la.reshape(la.arange(6.0), (2, 3))).data
    Array([1., 3., 5.], dtype=float64)
    """
    fn = "extract"
    if not is_sparse(sparr):
        fail(TypeError, fn, "a BCOO or BCSR for 'sparr'", sparr)
    y = to_raw(fn, arr, "arr")
    a = sparr._as_bcoo()
    try:
        ok = tuple(np.broadcast_shapes(a.shape, y.shape)) == tuple(a.shape)
    except ValueError:
        ok = False
    if not ok:
        fail(ValueError, fn, f"an array broadcastable to {a.shape}", y)
    vals = dense_at_pattern(a, y)
    if tuple(vals.shape) != tuple(sparr.data.shape):
        return a._with_data(vals)
    return with_data(sparr, vals)


@in_wide_mode
def dot_general_sampled(lhs, rhs, indices_of, dimension_numbers):
    """Compute ``dot_general(lhs, rhs)`` only at the pattern of a sparse array.

    jax: jax.experimental.sparse.bcoo_dot_general_sampled.

    Parameters
    ----------
    lhs, rhs : array_like
        The dense operands.
    indices_of : BCOO or BCSR
        The pattern, whose shape is the contraction's output shape.
    dimension_numbers : tuple
        ``((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))``, as ``lax.dot_general``'s.

    Returns
    -------
    BCOO or BCSR
        ``indices_of``'s pattern with the contraction's values there.

    Raises
    ------
    TypeError
        If ``indices_of`` is not a BCOO or BCSR.
    ValueError
        If the output shape is not ``indices_of``'s, or contracted sizes differ.

    Notes
    -----
    Static under ``jax.jit``: ``dimension_numbers``.

    Costs O(nse × contracted size), not the full product's.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> sp.dot_general_sampled(la.ones((2, 4)), la.ones((4, 3)), a, (((1,), (0,)), ((), ()))).data
    Array([4., 4., 4.], dtype=float64)
    """
    fn = "dot_general_sampled"
    x = to_raw(fn, lhs, "lhs")
    y = to_raw(fn, rhs, "rhs")
    if not is_sparse(indices_of):
        fail(TypeError, fn, "a BCOO or BCSR for 'indices_of'", indices_of)
    dims = _norm_dims(fn, dimension_numbers, x.ndim, y.ndim)
    _check_sizes(fn, x.shape, y.shape, dims)
    (lc, rc), (lb, rb) = dims
    lf = tuple(d for d in range(x.ndim) if d not in lc and d not in lb)
    rf = tuple(d for d in range(y.ndim) if d not in rc and d not in rb)
    out_shape = (tuple(x.shape[d] for d in lb) + tuple(x.shape[d] for d in lf)
                 + tuple(y.shape[d] for d in rf))
    s = indices_of._as_bcoo()
    if tuple(s.shape) != out_shape:
        fail(ValueError, fn, f"'indices_of' of the product's shape {out_shape}", s)
    flat = to_flat(s)
    dtype = _dt.result_type(x.dtype, y.dtype)
    vals = _sampled_kernel(x, y, flat.indices, lc=lc, rc=rc, lb=lb, rb=rb, lf=lf, rf=rf,
                           dtype=dtype)
    if flat is s:
        return with_data(indices_of, vals)
    return _restore(flat._with_data(vals), indices_of)


@kernel(static=("lc", "rc", "lb", "rb", "lf", "rf", "dtype"))
def _sampled_kernel(x, y, idx, *, lc, rc, lb, rb, lf, rf, dtype):
    x = lax.convert_element_type(x, dtype)
    y = lax.convert_element_type(y, dtype)
    nbt, nlf = len(lb), len(lf)
    xt = lax.transpose(x, lb + lf + lc)
    yt = lax.transpose(y, rb + rf + rc)
    xi = lax.concatenate([idx[:, d:d + 1] for d in range(nbt + nlf)], 1) if nbt + nlf else None
    ycols = list(range(nbt)) + list(range(nbt + nlf, nbt + nlf + len(rf)))
    yi = lax.concatenate([idx[:, d:d + 1] for d in ycols], 1) if ycols else None
    gx = _gather_prefix(xt, xi, nbt + nlf, idx.shape[0])
    gy = _gather_prefix(yt, yi, nbt + len(rf), idx.shape[0])
    prod = lax.mul(gx, gy)
    return lax.reduce_sum(prod, tuple(range(1, prod.ndim))) if prod.ndim > 1 else prod


def _gather_prefix(a, idx, k, nse):
    if k == 0:
        return lax.broadcast_in_dim(a, (nse,) + tuple(a.shape), tuple(range(1, a.ndim + 1)))
    return K.gather_prefix(a, idx)


__all__ = ["extract", "dot_general_sampled"]
