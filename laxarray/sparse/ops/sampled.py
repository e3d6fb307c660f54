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
from laxarray._core.kernel import kernel
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._base import _restore, is_sparse
from laxarray.sparse.ops.dot import _check_sizes, _norm_dims
from laxarray.sparse.ops.elementwise import dense_at_pattern, with_data
from laxarray.sparse.ops.layout import to_flat
from laxarray._core.jaxapi import in_wide_mode


@in_wide_mode
def extract(sparr, arr):
    """Values of dense ``arr`` at the stored entries of ``sparr`` (same pattern and format).

    ``arr`` must have ``sparr``'s shape (or broadcast to it).  Like
    ``jax.experimental.sparse.bcoo_extract``.
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
    """``dot_general(lhs, rhs)`` evaluated only at the pattern of sparse ``indices_of``.

    ``lhs``/``rhs`` are dense; the result has the pattern of ``indices_of`` (whose shape
    must be the dot_general output shape).  Cost is O(nse * contracted size).
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
