"""Sparse arrays on jax.lax: BCOO (batched COO) and BCSR (batched CSR).

Both formats are pytrees (``jax.jit``/``jax.vmap``/``jax.grad`` pass them through) and
support the same operations; dense results are laxarray ``Array`` objects.  Data-dependent
sizes (``nse`` of ``fromdense``, ``sum_duplicates``, sparse + sparse, sparse @ sparse) are
computed eagerly and must be given (static ``nse``) under ``jax.jit``.  To apply any
function to the stored values only, use :func:`map_values`.

A 2-D matrix with concrete indices carries its product layouts in its pytree (built once,
on first product or first flatten), so a matrix passed as an argument of a jitted
function, carried by ``lax.scan`` or differentiated with respect to ``A.data`` runs the
same fast kernels as eager calls; ``A.with_layout()`` builds them up front.  Matrices
built inside a trace from traced indices use the general path.

Over several devices, :func:`shard_rows` partitions a 2-D BCOO/BCSR by row blocks over a
mesh axis (a :class:`RowSharded` pytree; the conversions' ``device=`` takes such a
sharding too): ``A @ x``, ``A.T @ y``, the solvers of :mod:`.linalg` and products inside
:func:`sparsify` run on it as ``jax.shard_map`` programs.

>>> import laxarray.sparse as sp
>>> m = sp.BCOO.fromdense([[0.0, 1.0], [2.0, 0.0]])
>>> (m @ [1.0, 1.0]).tolist()
[1.0, 2.0]
"""

from laxarray._core.errors import fail as _fail
from laxarray.sparse.bcoo import (  # noqa: F401
    BCOO, bcoo_eliminate_zeros, bcoo_from_scipy_sparse, bcoo_fromdense, bcoo_sort_indices,
    bcoo_sum_duplicates, bcoo_to_scipy_sparse, bcoo_todense, bcoo_update_layout)
from laxarray.sparse.bcsr import (  # noqa: F401
    BCSR, bcsr_from_bcoo, bcsr_from_scipy_sparse, bcsr_fromdense, bcsr_to_bcoo,
    bcsr_to_scipy_sparse, bcsr_todense)
from laxarray.sparse.ops.dot import dot_general, matmul  # noqa: F401
from laxarray.sparse.ops.elementwise import (  # noqa: F401
    add, astype, divide, map_values, maximum, minimum, multiply, subtract)
from laxarray.sparse.ops.reduce import max, min, sum  # noqa: F401,A004
from laxarray.sparse.ops.reshape import (  # noqa: F401
    broadcast_in_dim, broadcast_to, concatenate, reshape, squeeze, transpose)
from laxarray.sparse.ops.sampled import dot_general_sampled, extract  # noqa: F401
from laxarray.sparse.ops.slicing import dynamic_slice, getitem, slice  # noqa: F401,A004
from laxarray.sparse.ops.unary import (  # noqa: F401,A004
    UNARY as _UNARY, abs, arcsin, arcsinh, arctan, arctanh, asin, asinh, atan, atanh, ceil,
    conj, conjugate, expm1, floor, imag, log1p, neg, negative, positive, real, round, sign,
    sin, sinh, sqrt, square, tan, tanh, trunc)
from laxarray.sparse.sharded import (  # noqa: F401
    RowSharded, place_matrix as _place_matrix, row_sharding_axis as _row_sharding_axis,
    shard_rows)
from laxarray.sparse.transform import sparsify  # noqa: F401
from laxarray.sparse import linalg  # noqa: F401
from laxarray.sparse._operators import OPS as _OPS
from laxarray.sparse.ops import layout as _layout
from laxarray._core.jaxapi import in_wide_mode

# The formats' methods (A @ B, A + B, A.T, A.sum(), A.tobcsr() ...) call operations whose
# modules import the formats, so they look them up in this table, filled here.
vars(_OPS).update(
    matmul=matmul, multiply=multiply, divide=divide, add=add, subtract=subtract,
    unary=_UNARY, astype=astype, map_values=map_values, transpose=transpose,
    reshape=reshape, sum=sum, max=max, min=min, getitem=getitem,
    bcsr_from_bcoo=bcsr_from_bcoo, update_layout=_layout.update_layout,
    place_matrix=_place_matrix, row_sharding_axis=_row_sharding_axis)


@in_wide_mode
def fromdense(x, *, format="bcoo", nse=None, n_batch=0, n_dense=0, index_dtype=None,
              device=None):
    """Sparse array of the nonzeros of dense ``x`` in ``format`` ('bcoo' or 'bcsr').

    ``device``: ``None``, or a ``NamedSharding`` partitioning rows only, for a
    :class:`RowSharded` result (:func:`shard_rows`; eager only)."""
    if format == "bcoo":
        return bcoo_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)
    if format == "bcsr":
        return bcsr_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)
    _fail(ValueError, "fromdense", "format 'bcoo' or 'bcsr'", format)


@in_wide_mode
def todense(mat):
    """The dense laxarray ``Array`` of a BCOO or BCSR."""
    return bcoo_todense(mat)


@in_wide_mode
def from_scipy_sparse(mat, *, format="bcoo", index_dtype=None, device=None):
    """A BCOO (or BCSR with ``format='bcsr'``) from a ``scipy.sparse`` array or matrix.

    ``device``: ``None``, or a ``NamedSharding`` partitioning rows only, for a
    :class:`RowSharded` result (:func:`shard_rows`)."""
    if format == "bcsr":
        return bcsr_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)
    return bcoo_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)


@in_wide_mode
def to_scipy_sparse(mat, format="csr"):
    """A ``scipy.sparse`` ``csr``/``csc``/``coo`` array of a 2-D unbatched sparse array."""
    return bcoo_to_scipy_sparse(mat, format=format)


@in_wide_mode
def sort_indices(mat):
    """Entries sorted (same format)."""
    return mat.sort_indices()


@in_wide_mode
def sum_duplicates(mat, nse=None):
    """Duplicates summed (same format); see :func:`bcoo_sum_duplicates`."""
    return mat.sum_duplicates(nse=nse)


@in_wide_mode
def eliminate_zeros(mat, nse=None):
    """Stored zeros removed (same format)."""
    return mat.eliminate_zeros(nse=nse)


@in_wide_mode
def update_layout(mat, *, n_batch=None, n_dense=None, nse=None):
    """BCOO with another batch/dense split; see :func:`bcoo_update_layout`."""
    return bcoo_update_layout(mat, n_batch=n_batch, n_dense=n_dense, nse=nse)


UNARY_FUNCTIONS = tuple(sorted(_UNARY))
