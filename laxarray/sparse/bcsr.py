"""BCSR: batched compressed-sparse-row arrays, and their conversions.

A ``BCSR`` of ``shape = batch + (n_rows, n_cols) + dense`` stores, per batch,

* ``data[*batch, nse, *dense]`` — the stored values, grouped by row;
* ``indices[*batch, nse]`` — their column indices;
* ``indptr[*batch, n_rows + 1]`` — row ``r`` holds entries ``indptr[r]:indptr[r+1]``.

Entries past ``indptr[-1]`` and entries whose column equals ``n_cols`` are padding.
Every operation of :mod:`laxarray.sparse` accepts BCSR; most work on the equivalent BCOO
(row ids are expanded from ``indptr`` — once per eager array, cached) and return BCSR when
the result is a 2-D-sparse array.  The three leaves are the pytree children; ``shape`` and
the flags are static.
"""

from __future__ import annotations


import jax
import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._array import wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse.bcoo import (BCOO, _index_dtype, _shape_tuple, as_sparse_input,
                                  check_placement, flatten_layouts, placed, with_layout)
from laxarray.sparse.bcoo_canonical import (bcoo_eliminate_zeros, bcoo_sort_indices,
                                            bcoo_sum_duplicates)
from laxarray.sparse.bcoo_convert import (bcoo_fromdense, bcoo_to_scipy_sparse, scipy_input,
                                          todense_raw)
from laxarray.sparse._operators import SparseOperators
from laxarray.sparse.ops import ell
from laxarray.sparse import _docs


class BCSR(SparseOperators):
    """A batched-CSR sparse array: ``BCSR((data, indices, indptr), shape=...)``.

    jax: jax.experimental.sparse.BCSR (here with the full operation set of BCOO).

    A ``BCSR`` of ``shape = batch + (n_rows, n_cols) + dense`` stores, per batch, the values
    ``data`` of shape ``(*batch, nse, *dense)`` grouped by row, their column ``indices``
    ``(*batch, nse)``, and ``indptr`` ``(*batch, n_rows + 1)``: row ``r`` holds the entries
    ``indptr[r]:indptr[r + 1]``.  Entries past ``indptr[-1]`` and entries whose column equals
    ``n_cols`` are padding.

    Parameters
    ----------
    args : tuple of (array_like, array_like, array_like)
        ``(data, indices, indptr)``: laxarray, jax or NumPy arrays (or nested lists); ``indices``
        and ``indptr`` of integer dtypes.
    shape : tuple of ints
        The shape of the dense equivalent, of rank ``n_batch + 2 + n_dense``.
    indices_sorted : bool, optional
        A promise that the columns are sorted within each row; default False.
    unique_indices : bool, optional
        A promise that no coordinate repeats; default False.

    Attributes
    ----------
    data, indices, indptr : jax.Array
        The stored values, their columns and the row pointers (the three pytree leaves).
    shape : tuple of ints
        The dense shape; ``dtype``, ``ndim``, ``size`` follow.
    nse : int
        The number of stored entries per batch, padding included.
    n_batch, n_sparse, n_dense : int
        The numbers of batch, sparse (always 2) and dense dimensions.
    T : BCSR or BCOO
        The transpose.

    Raises
    ------
    TypeError
        If ``args`` is not a triple, an element is not array_like, ``indices`` or ``indptr`` is
        not of an integer dtype, or ``shape`` is not a sequence of ints.
    ValueError
        If the shapes of the three arrays and ``shape`` disagree, or concrete ``indptr`` is not
        non-decreasing from 0 to at most ``nse`` or a concrete column is out of range.

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``indices_sorted``, ``unique_indices`` (the pytree's
    auxiliary data).

    The three arrays are its leaves.

    Every function of :mod:`laxarray.sparse` accepts a BCSR; most work on the equivalent BCOO
    (the row ids expanded from ``indptr``, once per eager array) and return a BCSR when the
    result is a 2-D-sparse array.  The operators and methods are BCOO's, with ``tobcoo`` in
    place of ``tobcsr`` and the constructors ``BCSR.fromdense``, ``BCSR.from_bcoo`` and
    ``BCSR.from_scipy_sparse``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> m = sp.BCSR(([1.0, 2.0], [1, 0], [0, 1, 2]), shape=(2, 2))
    >>> m
    BCSR(float64[2, 2], nse=2)
    >>> m.todense()
    Array([[0., 1.],
           [2., 0.]])
    >>> m @ la.asarray([1.0, 1.0])
    Array([1., 2.])
    """

    __slots__ = ("data", "indices", "indptr", "_tail_shape", "indices_sorted",
                 "unique_indices", "_layouts", "_transpose_of", "_transposed", "__weakref__")
    __array_priority__ = 200
    __array_ufunc__ = None

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        fn = "BCSR"
        if not isinstance(args, (tuple, list)) or len(args) != 3:
            fail(TypeError, fn, "a (data, indices, indptr) triple", args)
        data = to_raw(fn, args[0], "data")
        indices = to_raw(fn, args[1], "indices")
        indptr = to_raw(fn, args[2], "indptr")
        shape = _shape_tuple(fn, shape)
        _validate(fn, data, indices, indptr, shape)
        self.data, self.indices, self.indptr = data, indices, indptr
        self._tail_shape = shape[indices.ndim - 1:]
        self.indices_sorted = bool(indices_sorted)
        self.unique_indices = bool(unique_indices)
        self._layouts = ell.initial(self)

    @classmethod
    def _new(cls, data, indices, indptr, shape, indices_sorted=False, unique_indices=False):
        obj = object.__new__(cls)
        obj.data, obj.indices, obj.indptr = data, indices, indptr
        obj._tail_shape = tuple(shape)[indices.ndim - 1:]
        obj.indices_sorted, obj.unique_indices = indices_sorted, unique_indices
        obj._layouts = ell.initial(obj)
        return obj

    @property
    def n_batch(self):
        """Number of leading batch dimensions."""
        return self.indices.ndim - 1

    @property
    def n_sparse(self):
        """Always 2 (rows and columns)."""
        return 2

    @property
    def n_dense(self):
        """Number of trailing dense dimensions."""
        return self.data.ndim - self.indices.ndim

    @property
    def shape(self):
        """The full shape ``batch + (n_rows, n_cols) + dense``."""
        return tuple(self.indices.shape[:self.n_batch]) + tuple(self._tail_shape)

    @property
    def nse(self):
        """Number of stored entries per batch (padding included)."""
        return self.indices.shape[-1]

    # ---- conversions ---------------------------------------------------------------------
    def _as_bcoo(self):
        return bcsr_to_bcoo(self)

    def _with_data(self, data):
        out = BCSR._new(data, self.indices, self.indptr, self.shape, self.indices_sorted,
                        self.unique_indices)
        if self._layouts is not None and getattr(data, "shape", None) == self.data.shape:
            out._layouts = ell.for_new_data(self._layouts, data)  # same pattern: same places
        return out

    def with_layout(self):
        """This matrix with its product layouts built; see ``BCOO.with_layout``."""
        return with_layout(self)

    def _leaves(self):
        return (self.data, self.indices, self.indptr)

    def todense(self):
        """The dense laxarray ``Array``."""
        return wrap(todense_raw(self._as_bcoo()))

    def tobcoo(self):
        """The same array as a BCOO."""
        return bcsr_to_bcoo(self)

    @classmethod
    def fromdense(cls, x, *, nse=None, n_batch=0, n_dense=0, index_dtype=None, device=None):
        """``bcsr_fromdense`` as a constructor."""
        return bcsr_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)

    @classmethod
    def from_bcoo(cls, mat):
        """``bcsr_from_bcoo`` as a constructor."""
        return bcsr_from_bcoo(mat)

    @classmethod
    def from_scipy_sparse(cls, mat, *, index_dtype=None, device=None):
        """``bcsr_from_scipy_sparse`` as a constructor."""
        return bcsr_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)

    def to_scipy_sparse(self, format="csr"):
        """A ``scipy.sparse`` array (default ``csr``) of a 2-D unbatched BCSR."""
        return bcoo_to_scipy_sparse(self._as_bcoo(), format=format)

    def sort_indices(self):
        """Columns sorted within each row."""
        return bcsr_from_bcoo(bcoo_sort_indices(self._as_bcoo()))

    def sum_duplicates(self, nse=None):
        """Duplicates summed (see ``bcoo_sum_duplicates``)."""
        return bcsr_from_bcoo(bcoo_sum_duplicates(self._as_bcoo(), nse=nse))

    def eliminate_zeros(self, nse=None):
        """Stored zeros removed (see ``bcoo_eliminate_zeros``)."""
        return bcsr_from_bcoo(bcoo_eliminate_zeros(self._as_bcoo(), nse=nse))


def _flatten(m):
    return ((m.data, m.indices, m.indptr, flatten_layouts(m)),
            (m._tail_shape, m.indices_sorted, m.unique_indices))


def _unflatten(aux, children):
    obj = object.__new__(BCSR)
    obj.data, obj.indices, obj.indptr, layouts = children
    obj._tail_shape, obj.indices_sorted, obj.unique_indices = aux
    obj._layouts = layouts
    return obj


jax.tree_util.register_pytree_node(BCSR, _flatten, _unflatten)


def _validate(fn, data, indices, indptr, shape):
    for name, x in (("indices", indices), ("indptr", indptr)):
        if np.dtype(x.dtype).kind not in "iu":
            fail(TypeError, fn, f"an integer dtype for '{name}'", x)
    if indices.ndim < 1:
        fail(ValueError, fn, "'indices' of rank >= 1 ([*batch, nse])", indices)
    nb = indices.ndim - 1
    if len(shape) < nb + 2:
        fail(ValueError, fn, f"a shape of rank >= n_batch + 2 = {nb + 2}", shape)
    nd = len(shape) - nb - 2
    if indptr.ndim != nb + 1 or tuple(indptr.shape) != tuple(shape[:nb]) + (shape[nb] + 1,):
        fail(ValueError, fn, f"'indptr' of shape {tuple(shape[:nb]) + (shape[nb] + 1,)}",
             indptr)
    if tuple(indices.shape[:nb]) != tuple(shape[:nb]):
        fail(ValueError, fn, f"'indices' batch shape {tuple(shape[:nb])}", indices)
    want = tuple(shape[:nb]) + (indices.shape[-1],) + tuple(shape[nb + 2:])
    if data.ndim != nb + 1 + nd or tuple(data.shape) != want:
        fail(ValueError, fn, f"'data' of shape {want}", data)
    if not (is_tracer(indices) or is_tracer(indptr)):
        with jax.ensure_compile_time_eval():     # concrete indices inside a trace too
            ok = _check_kernel(indices, indptr, n_cols=shape[nb + 1])
        if not bool(ok):
            fail(ValueError, fn, f"indptr non-decreasing from 0 to <= nse and column indices "
                 f"in [0, {shape[nb + 1]}]", indptr)


@kernel(static=("n_cols",))
def _check_kernel(indices, indptr, *, n_cols):
    nse = indices.shape[-1]
    ok = lax.reduce_and(lax.ge(indices, lax.full((), 0, indices.dtype)), tuple(range(indices.ndim)))
    ok = lax.bitwise_and(ok, lax.reduce_and(lax.le(indices, lax.full((), n_cols, indices.dtype)),
                                            tuple(range(indices.ndim))))
    first = indptr[..., :1]
    ok = lax.bitwise_and(ok, lax.reduce_and(lax.eq(first, lax.full((), 0, indptr.dtype)),
                                            tuple(range(first.ndim))))
    step = lax.ge(indptr[..., 1:], indptr[..., :-1])
    ok = lax.bitwise_and(ok, lax.reduce_and(step, tuple(range(step.ndim))))
    last = indptr[..., -1:]
    return lax.bitwise_and(ok, lax.reduce_and(lax.le(last, lax.full((), nse, indptr.dtype)),
                                              tuple(range(last.ndim))))


# ---- BCSR <-> BCOO -------------------------------------------------------------------------
@in_wide_mode
def bcsr_to_bcoo(mat):
    """Convert a BCSR to a BCOO.

    jax: jax.experimental.sparse.BCSR.to_bcoo.

    Parameters
    ----------
    mat : BCSR
        The sparse array.

    Returns
    -------
    BCOO
        The same array, the row indices expanded from ``indptr``.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCSR.

    Notes
    -----
    Static under ``jax.jit``: none.

    The inverse of :func:`bcsr_from_bcoo`.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.bcsr_to_bcoo(sp.BCSR(([1.0, 2.0], [1, 0], [0, 1, 2]), shape=(2, 2))).indices.tolist()
    [[0, 1], [1, 0]]
    """
    if not isinstance(mat, BCSR):
        fail(TypeError, "bcsr_to_bcoo", "a BCSR", mat)
    idx = _to_bcoo_kernel(mat.indices, mat.indptr, shape=mat.shape)
    return BCOO._new(mat.data, idx, mat.shape, indices_sorted=mat.indices_sorted,
                     unique_indices=mat.unique_indices)


@kernel(static=("shape",))
def _to_bcoo_kernel(indices, indptr, *, shape):
    nb = indices.ndim - 1
    n_rows = shape[nb]

    def one(cols, ptr):
        nse = cols.shape[0]
        counts = lax.sub(ptr[1:], ptr[:-1])
        rows = K.segment_ids(counts, nse, cols.dtype)
        rows = lax.min(rows, lax.full((), n_rows, cols.dtype))
        return lax.concatenate([rows[:, None], cols[:, None]], 1)

    return K.batched(one, nb, in_axes=(0, 0))(indices, indptr)


@in_wide_mode
@fill(raises=_docs.MAT_RAISES)
def bcsr_from_bcoo(mat):
    """Convert a BCOO with two sparse dimensions to a BCSR.

    jax: jax.experimental.sparse.BCSR.from_bcoo.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array; ``n_sparse`` must be 2 (batch and dense dimensions are kept).

    Returns
    -------
    BCSR
        The same array, entries grouped by row.

    {raises}
    ValueError
        If ``mat.n_sparse`` is not 2.

    Notes
    -----
    Static under ``jax.jit``: none.

    The entries are sorted first (:func:`bcoo_sort_indices`); a BCSR is returned as it is.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.bcsr_from_bcoo(sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]]))
    BCSR(float64[2, 2], nse=2)
    """
    fn = "bcsr_from_bcoo"
    if isinstance(mat, BCSR):
        return mat
    mat = as_sparse_input(fn, mat)
    if mat.n_sparse != 2:
        fail(ValueError, fn, "a BCOO with n_sparse == 2", mat)
    srt = bcoo_sort_indices(mat)
    batch = tuple(mat.shape[:mat.n_batch])
    data = K.broadcast_batch(srt.data, batch)
    cols, indptr = _from_bcoo_kernel(srt.indices, shape=mat.shape)
    return BCSR._new(data, cols, indptr, mat.shape, indices_sorted=True,
                     unique_indices=mat.unique_indices)


@kernel(static=("shape",))
def _from_bcoo_kernel(indices, *, shape):
    nb = indices.ndim - 2
    indices = K.broadcast_batch(indices, tuple(shape[:nb]))
    n_rows, n_cols = shape[nb], shape[nb + 1]

    def one(idx):
        pad = K.pad_mask(idx, (n_rows, n_cols))
        rows = lax.select(pad, lax.full(pad.shape, n_rows, idx.dtype), idx[:, 0])
        counts = K.scatter_add_1d(n_rows, rows, lax.full(rows.shape, 1, idx.dtype),
                                  sorted_=True)
        cols = lax.select(pad, lax.full(pad.shape, n_cols, idx.dtype), idx[:, 1])
        return cols, K.exclusive_cumsum(counts)

    return K.batched(one, nb, in_axes=0)(indices)


@in_wide_mode
@fill(layout=_docs.FROMDENSE_LAYOUT, type_error=_docs.FROMDENSE_TYPE_ERROR)
def bcsr_fromdense(x, *, nse=None, n_batch=0, n_dense=0, index_dtype=None, device=None):
    """Return a BCSR holding the non-zeros of a dense array.

    jax: jax.experimental.sparse.bcsr_fromdense.

    Parameters
    ----------
    x : array_like
        The dense array, with exactly two sparse dimensions (``x.ndim - n_batch - n_dense ==
        2``).
    {layout}

    Returns
    -------
    BCSR
        The non-zeros of ``x``, row by row, columns sorted.

    Raises
    ------
    {type_error}
    ValueError
        If ``nse`` is negative, ``n_batch + n_dense`` exceeds ``x.ndim``, ``nse`` is None
        under a trace, ``x`` has not two sparse dimensions, or ``device`` is not a
        row-partitioning sharding.

    Notes
    -----
    Static under ``jax.jit``: ``nse``, ``n_batch``, ``n_dense``, ``index_dtype``, ``device``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> m = sp.bcsr_fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> m
    BCSR(float64[2, 3], nse=3)
    >>> m.indices, m.indptr
    (Array([1, 0, 2], dtype=int32), Array([0, 1, 3], dtype=int32))
    """
    fn = "bcsr_fromdense"
    check_placement(fn, device)
    raw = to_raw(fn, x, "x")
    if raw.ndim - n_batch - n_dense != 2:
        fail(ValueError, fn, "exactly two sparse dimensions (ndim - n_batch - n_dense == 2)",
             raw)
    out = bcsr_from_bcoo(bcoo_fromdense(raw, nse=nse, n_batch=n_batch, n_dense=n_dense,
                                        index_dtype=index_dtype))
    return placed(fn, out, device)


@in_wide_mode
def bcsr_todense(mat):
    """Return the dense array of a BCSR.

    jax: jax.experimental.sparse.bcsr_todense.

    Parameters
    ----------
    mat : BCSR
        The sparse array (:func:`todense` takes a BCOO too).

    Returns
    -------
    Array
        The dense laxarray array: duplicates summed, padding entries ignored.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCSR (:func:`todense` takes both formats).

    Notes
    -----
    Static under ``jax.jit``: none.

    The same as :func:`todense`, which takes both formats.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> sp.bcsr_todense(sp.BCSR(([3.0, 4.0], [0, 1], [0, 1, 2]), shape=(2, 2)))
    Array([[3., 0.],
           [0., 4.]])
    """
    if not isinstance(mat, BCSR):
        fail(TypeError, "bcsr_todense", "a BCSR", mat)
    return mat.todense()


@in_wide_mode
@fill(scipy_params=_docs.FROM_SCIPY_PARAMS, raises_notes=_docs.FROM_SCIPY_RAISES_NOTES)
def bcsr_from_scipy_sparse(mat, *, index_dtype=None, device=None):
    """Return a 2-D BCSR of a ``scipy.sparse`` array or matrix.

    jax: jax.experimental.sparse.BCSR.from_scipy_sparse.

    Parameters
    ----------
    mat : scipy.sparse array or matrix
        Any format (converted to CSR by SciPy).
    {scipy_params}

    Returns
    -------
    BCSR
        The same matrix.

    {raises_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp, scipy.sparse
    >>> sp.bcsr_from_scipy_sparse(scipy.sparse.eye(3, format="csc"))
    BCSR(float64[3, 3], nse=3)
    """
    fn = "bcsr_from_scipy_sparse"
    scipy_input(fn, mat, device)
    csr = mat if mat.format == "csr" else mat.tocsr()
    index_dtype = _index_dtype(fn, index_dtype, csr.shape + (csr.nnz,))
    sorted_ = bool(csr.has_sorted_indices)
    unique = bool(csr.has_canonical_format)
    out = BCSR._new(to_raw(fn, np.asarray(csr.data), "mat"),  # the backend's dtype rules
                    device_put(np.asarray(csr.indices).astype(index_dtype)),
                    device_put(np.asarray(csr.indptr).astype(index_dtype)),
                    tuple(csr.shape), indices_sorted=sorted_, unique_indices=unique)
    return placed(fn, out, device)


@in_wide_mode
@fill(value_notes=_docs.TO_SCIPY_VALUE_NOTES)
def bcsr_to_scipy_sparse(mat, format="csr"):
    """Return a ``scipy.sparse`` array of a 2-D, unbatched, dense-free BCSR.

    jax: (no counterpart).

    Parameters
    ----------
    mat : BCSR
        The sparse matrix, with concrete values (:func:`to_scipy_sparse` takes a BCOO too).
    format : {'csr', 'csc', 'coo'}, optional
        The format of the result; default ``'csr'``.

    Returns
    -------
    scipy.sparse array
        The same matrix in ``format`` (padding dropped, duplicates kept).

    Raises
    ------
    TypeError
        If ``mat`` is not a BCSR.
    {value_notes}

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> m = sp.bcsr_fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> sp.bcsr_to_scipy_sparse(m).toarray()
    array([[0., 1.],
           [2., 0.]])
    """
    if not isinstance(mat, BCSR):
        fail(TypeError, "bcsr_to_scipy_sparse", "a BCSR", mat)
    return mat.to_scipy_sparse(format)


__all__ = ["BCSR", "bcsr_fromdense", "bcsr_todense", "bcsr_from_bcoo", "bcsr_to_bcoo",
           "bcsr_from_scipy_sparse", "bcsr_to_scipy_sparse"]
