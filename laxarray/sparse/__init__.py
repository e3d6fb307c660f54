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

from laxarray._core.docstrings import fill as _fill
from laxarray._core.errors import fail as _fail
from laxarray.sparse._base import is_sparse as _is_sparse
from laxarray.sparse.bcoo import BCOO  # noqa: F401
from laxarray.sparse.bcoo_canonical import (  # noqa: F401
    bcoo_eliminate_zeros, bcoo_sort_indices, bcoo_sum_duplicates, bcoo_update_layout)
from laxarray.sparse.bcoo_convert import (  # noqa: F401
    bcoo_from_scipy_sparse, bcoo_fromdense, bcoo_to_scipy_sparse, bcoo_todense)
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
from laxarray.sparse._sparsify import sparsify  # noqa: F401
from laxarray.sparse import linalg  # noqa: F401
from laxarray.sparse._operators import OPS as _OPS
from laxarray.sparse.ops import layout as _layout
from laxarray._core.jaxapi import in_wide_mode as _in_wide_mode
from laxarray.sparse import _docs

# The formats' methods (A @ B, A + B, A.T, A.sum(), A.tobcsr() ...) call operations whose
# modules import the formats, so they look them up in this table, filled here.
vars(_OPS).update(
    matmul=matmul, multiply=multiply, divide=divide, add=add, subtract=subtract,
    unary=_UNARY, astype=astype, map_values=map_values, transpose=transpose,
    reshape=reshape, sum=sum, max=max, min=min, getitem=getitem,
    bcsr_from_bcoo=bcsr_from_bcoo, update_layout=_layout.update_layout,
    bcoo_todense=bcoo_todense, bcoo_fromdense=bcoo_fromdense,
    bcoo_from_scipy_sparse=bcoo_from_scipy_sparse, bcoo_to_scipy_sparse=bcoo_to_scipy_sparse,
    bcoo_sort_indices=bcoo_sort_indices, bcoo_sum_duplicates=bcoo_sum_duplicates,
    bcoo_eliminate_zeros=bcoo_eliminate_zeros, bcoo_update_layout=bcoo_update_layout,
    place_matrix=_place_matrix, row_sharding_axis=_row_sharding_axis)


@_in_wide_mode
@_fill(layout=_docs.FROMDENSE_LAYOUT, type_error=_docs.FROMDENSE_TYPE_ERROR)
def fromdense(x, *, format="bcoo", nse=None, n_batch=0, n_dense=0, index_dtype=None,
              device=None):
    """Return a sparse array (BCOO or BCSR) holding the non-zeros of a dense array.

    jax: jax.experimental.sparse.todense's inverse, ``BCOO.fromdense``.

    Parameters
    ----------
    x : array_like
        The dense array.
    format : {'bcoo', 'bcsr'}, optional
        The format of the result; default ``'bcoo'``.
    {layout}

    Returns
    -------
    BCOO or BCSR
        As :func:`bcoo_fromdense` or :func:`bcsr_fromdense`.

    Raises
    ------
    {type_error}
    ValueError
        If ``format`` is not one of the two, ``nse`` is negative, ``n_batch + n_dense``
        exceeds ``x.ndim``, ``nse`` is None under a trace, or ``device`` is not a
        row-partitioning sharding.

    Notes
    -----
    Static under ``jax.jit``: ``format``, ``nse``, ``n_batch``, ``n_dense``, ``index_dtype``,
    ``device``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.fromdense([[0, 1], [2, 0]])
    BCOO(int64[2, 2], nse=2)
    >>> sp.fromdense([[0, 1], [2, 0]], format="bcsr")
    BCSR(int64[2, 2], nse=2)
    """
    if format == "bcoo":
        return bcoo_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)
    if format == "bcsr":
        return bcsr_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)
    _fail(ValueError, "fromdense", "format 'bcoo' or 'bcsr'", format)


@_in_wide_mode
@_fill(params=_docs.MAT, raises=_docs.MAT_RAISES)
def todense(mat):
    """Return the dense array of a BCOO or BCSR.

    jax: jax.experimental.sparse.todense.

    {params}

    Returns
    -------
    Array
        The dense laxarray array: duplicates summed, padding entries ignored.

    {raises}

    Notes
    -----
    Static under ``jax.jit``: none.

    A BCSR is converted by :func:`bcsr_to_bcoo` first.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.todense(sp.BCSR(([1.0, 2.0], [1, 0], [0, 1, 2]), shape=(2, 2)))
    Array([[0., 1.],
           [2., 0.]])
    """
    return bcoo_todense(mat)


@_in_wide_mode
@_fill(scipy_params=_docs.FROM_SCIPY_PARAMS, raises_notes=_docs.FROM_SCIPY_RAISES_NOTES)
def from_scipy_sparse(mat, *, format="bcoo", index_dtype=None, device=None):
    """Return a BCOO (or BCSR) of a ``scipy.sparse`` array or matrix.

    jax: jax.experimental.sparse.BCOO.from_scipy_sparse.

    Parameters
    ----------
    mat : scipy.sparse array or matrix
        Any format.
    format : {'bcoo', 'bcsr'}, optional
        The format of the result; default ``'bcoo'`` (any other value than ``'bcsr'`` gives
        a BCOO).
    {scipy_params}

    Returns
    -------
    BCOO or BCSR
        The same matrix.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp, scipy.sparse
    >>> sp.from_scipy_sparse(scipy.sparse.eye(2), format="bcsr")
    BCSR(float64[2, 2], nse=2)
    """
    if format == "bcsr":
        return bcsr_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)
    return bcoo_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)


@_in_wide_mode
@_fill(raises=_docs.MAT_RAISES, value_notes=_docs.TO_SCIPY_VALUE_NOTES)
def to_scipy_sparse(mat, format="csr"):
    """Return a ``scipy.sparse`` array of a 2-D, unbatched, dense-free BCOO or BCSR.

    jax: (no counterpart).

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse matrix, with concrete values.
    format : {'csr', 'csc', 'coo'}, optional
        The format of the result; default ``'csr'``.

    Returns
    -------
    scipy.sparse array
        The same matrix (padding dropped, duplicates kept).

    {raises}
    {value_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.to_scipy_sparse(sp.fromdense([[0.0, 1.0], [2.0, 0.0]])).toarray()
    array([[0., 1.],
           [2., 0.]])
    """
    return bcoo_to_scipy_sparse(mat, format=format)


def _sparse_operand(fn, mat):
    """``TypeError`` naming ``fn`` and ``mat`` unless ``mat`` is a BCOO or BCSR."""
    if not _is_sparse(mat):
        _fail(TypeError, fn, "a BCOO or BCSR for 'mat'", mat)


@_in_wide_mode
@_fill(params=_docs.MAT)
def sort_indices(mat):
    """Return a sparse array with its entries sorted, in the same format.

    jax: jax.experimental.sparse.bcoo_sort_indices.

    {params}

    Returns
    -------
    BCOO or BCSR
        A BCOO's entries sorted by row-major coordinates (padding last); a BCSR's columns
        sorted within each row.

    Notes
    -----
    Static under ``jax.jit``: none.

    See :func:`bcoo_sort_indices`.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0], [[1, 0], [0, 1]]), shape=(2, 2))
    >>> sp.sort_indices(a).indices.tolist()
    [[0, 1], [1, 0]]
    """
    _sparse_operand("sort_indices", mat)
    return mat.sort_indices()


@_in_wide_mode
@_fill(params=_docs.MAT_NSE, raises_notes=_docs.NSE_RAISES_NOTES)
def sum_duplicates(mat, nse=None):
    """Return a sparse array with duplicate coordinates summed, in the same format.

    jax: jax.experimental.sparse.bcoo_sum_duplicates.

    {params}

    Returns
    -------
    BCOO or BCSR
        The same array with sorted, unique indices.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0, 5.0], [[1, 0], [0, 1], [1, 0]]), shape=(2, 2))
    >>> sp.sum_duplicates(a).data
    Array([2., 6.], dtype=float64)
    """
    _sparse_operand("sum_duplicates", mat)
    return mat.sum_duplicates(nse=nse)


@_in_wide_mode
@_fill(params=_docs.MAT_NSE, raises_notes=_docs.NSE_RAISES_NOTES)
def eliminate_zeros(mat, nse=None):
    """Return a sparse array without its stored zeros, in the same format.

    jax: jax.experimental.sparse.bcoo_eliminate_zeros.

    {params}

    Returns
    -------
    BCOO or BCSR
        The same array with duplicates summed and zeros removed.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 0.0], [[1, 0], [0, 1]]), shape=(2, 2))
    >>> sp.eliminate_zeros(a).data
    Array([1.], dtype=float64)
    """
    _sparse_operand("eliminate_zeros", mat)
    return mat.eliminate_zeros(nse=nse)


@_in_wide_mode
@_fill(params=_docs.MAT, raises_notes=_docs.LAYOUT_RAISES_NOTES)
def update_layout(mat, *, n_batch=None, n_dense=None, nse=None):
    """Return the same array as a BCOO with another split into batch, sparse and dense dimensions.

    jax: jax.experimental.sparse.bcoo_update_layout.

    {params}
    n_batch, n_dense : int, optional
        The new numbers of batch and dense dimensions; default the current ones.
    nse : int, optional
        The entries per batch when sparse dimensions become batch ones; see
        :func:`bcoo_update_layout`.

    Returns
    -------
    BCOO
        The same array with the new layout.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.update_layout(sp.fromdense([[0.0, 1.0], [2.0, 0.0]]), n_batch=1)
    BCOO(float64[2, 2], nse=1, n_batch=1)
    """
    return bcoo_update_layout(mat, n_batch=n_batch, n_dense=n_dense, nse=nse)


UNARY_FUNCTIONS = tuple(sorted(_UNARY))
