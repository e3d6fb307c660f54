"""BCOO: batched coordinate sparse arrays, and their conversions.

A ``BCOO`` of ``shape = batch + sparse + dense`` stores

* ``data[*batch, nse, *dense]`` — the stored values (dense blocks when ``n_dense > 0``);
* ``indices[*batch, nse, n_sparse]`` — their coordinates over the sparse dimensions.

Duplicate coordinates are summed.  An entry with an index outside ``[0, size)`` (by
convention, equal to the dimension size) is *padding*: valid and ignored everywhere.
Batch dimensions of ``data`` and ``indices`` may be 1 where the other is larger
(broadcast).  ``shape``, ``indices_sorted`` and ``unique_indices`` are static; ``data`` and
``indices`` are the two pytree leaves, so ``jax.jit``/``jax.vmap``/``jax.grad`` pass a
``BCOO`` through.  Under ``jax.vmap`` a sparse argument is mapped over its leading *batch*
dimension (it needs ``n_batch >= 1``); the shape inside is derived from the leaves.
"""

from __future__ import annotations

import operator

import jax

import numpy as np
from jax import lax

from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._operators import OPS, SparseOperators
from laxarray.sparse.ops import ell

_PADDING_NOTE = "indices in [0, size] (size marks padding)"


def _shape_tuple(fn, shape):
    try:
        # operator.index, as NumPy reads a shape: 'a' and 2.5 are TypeErrors, not int()'s
        # ValueError or truncation
        shape = tuple(operator.index(s) for s in shape)
    except (TypeError, ValueError):
        fail(TypeError, fn, "a sequence of ints for 'shape'", shape)
    if any(s < 0 for s in shape):
        fail(ValueError, fn, "non-negative dimensions in 'shape'", shape)
    return shape


class BCOO(SparseOperators):
    """A batched-COO sparse array: ``BCOO((data, indices), shape=...)``.

    jax: jax.experimental.sparse.BCOO.

    A ``BCOO`` of ``shape = batch + sparse + dense`` stores the values ``data`` of shape
    ``(*batch, nse, *dense)`` at the coordinates ``indices`` of shape ``(*batch, nse,
    n_sparse)``.  Duplicate coordinates are summed; an entry whose index equals the dimension's
    size is padding, valid and ignored everywhere.

    Parameters
    ----------
    args : tuple of (array_like, array_like)
        ``(data, indices)``: laxarray, jax or NumPy arrays (or nested lists); ``indices`` of an
        integer dtype and rank at least two.  A batch dimension of one may be 1 where the
        other's is larger (broadcast).
    shape : tuple of ints
        The shape of the dense equivalent, of rank ``n_batch + n_sparse + n_dense``.
    indices_sorted : bool, optional
        A promise that the entries are sorted by row-major coordinates; default False.
    unique_indices : bool, optional
        A promise that no coordinate repeats (so duplicates need not be summed before a
        non-linear function of the values); default False.

    Attributes
    ----------
    data, indices : jax.Array
        The stored values and their coordinates (the two pytree leaves).
    shape : tuple of ints
        The dense shape ``batch + sparse + dense``; ``dtype``, ``ndim``, ``size`` follow.
    nse : int
        The number of stored entries per batch, padding included.
    n_batch, n_sparse, n_dense : int
        The numbers of batch, sparse and dense dimensions.
    T : BCOO
        The transpose (a 2-D matrix's shares its product layouts).

    Raises
    ------
    TypeError
        If ``args`` is not a pair, ``data``/``indices`` is not array_like, ``indices`` is not of
        an integer dtype, or ``shape`` is not a sequence of ints.
    ValueError
        If the ranks or shapes of ``data``, ``indices`` and ``shape`` disagree, or a concrete
        index is out of range (negative, or above the dimension's size).

    Notes
    -----
    Static under ``jax.jit``: ``shape``, ``indices_sorted``, ``unique_indices`` (the pytree's
    auxiliary data).

    The data and the indices are its leaves, so ``jax.jit``, ``jax.vmap`` (over
    a leading batch dimension, ``n_batch >= 1``) and ``jax.grad`` pass a ``BCOO`` through.

    Concrete indices are checked eagerly; traced ones are not.  The operators ``@ * / + -``,
    unary minus, ``abs``, indexing with integers and slices, and the methods ``sum``, ``max``,
    ``min``, ``reshape``, ``transpose``, ``astype``, ``conj``, ``map_values``, ``todense``,
    ``tobcsr``, ``sort_indices``, ``sum_duplicates``, ``eliminate_zeros``,
    ``update_layout``, ``to_scipy_sparse`` and ``with_layout`` call the functions of
    :mod:`laxarray.sparse` of those names; ``BCOO.fromdense`` and ``BCOO.from_scipy_sparse``
    are constructors.  A 2-D matrix with concrete indices builds its product layouts on first
    use and carries them in its pytree (``with_layout`` builds them up front).

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0], [[0, 1], [2, 0]]), shape=(3, 3))
    >>> a
    BCOO(float64[3, 3], nse=2)
    >>> a.todense()
    Array([[0., 1., 0.],
           [0., 0., 0.],
           [2., 0., 0.]])
    >>> a @ la.asarray([1.0, 2.0, 3.0])
    Array([2., 0., 2.])
    >>> a.nse, a.n_batch, a.n_sparse, a.n_dense
    (2, 0, 2, 0)
    """

    # _layouts: the (forward, transposed) product layouts (ops/ell.py; pytree leaves), or
    # ell.PENDING (built on first need), or None (fixed at creation); _transpose_of: the
    # array this one is the 2-D transpose of, in the same trace (its products run on that
    # array); _transposed: a concrete array's memo of ``.T``.
    __slots__ = ("data", "indices", "_tail_shape", "indices_sorted", "unique_indices",
                 "_layouts", "_transpose_of", "_transposed", "__weakref__")
    __array_priority__ = 200
    __array_ufunc__ = None

    def __init__(self, args, *, shape, indices_sorted=False, unique_indices=False):
        fn = "BCOO"
        if not isinstance(args, (tuple, list)) or len(args) != 2:
            fail(TypeError, fn, "a (data, indices) pair", args)
        data = to_raw(fn, args[0], "data")
        indices = to_raw(fn, args[1], "indices")
        shape = _shape_tuple(fn, shape)
        validate_bcoo(fn, data, indices, shape)
        self.data, self.indices = data, indices
        n_batch = indices.ndim - 2
        self._tail_shape = shape[n_batch:]
        self.indices_sorted = bool(indices_sorted)
        self.unique_indices = bool(unique_indices)
        self._layouts = ell.initial(self)

    @classmethod
    def _new(cls, data, indices, shape, indices_sorted=False, unique_indices=False):
        obj = object.__new__(cls)
        obj.data, obj.indices = data, indices
        obj._tail_shape = tuple(shape)[indices.ndim - 2:]
        obj.indices_sorted, obj.unique_indices = indices_sorted, unique_indices
        obj._layouts = ell.initial(obj)
        return obj

    # ---- attributes --------------------------------------------------------------------
    @property
    def n_batch(self):
        """Number of leading batch dimensions."""
        return self.indices.ndim - 2

    @property
    def n_sparse(self):
        """Number of sparse dimensions (indexed by ``indices``)."""
        return self.indices.shape[-1]

    @property
    def n_dense(self):
        """Number of trailing dense dimensions (blocks stored in ``data``)."""
        return self.data.ndim - self.indices.ndim + 1

    @property
    def shape(self):
        """The full shape ``batch + sparse + dense``."""
        nb = self.indices.ndim - 2
        if nb == 0:
            return self._tail_shape
        dshape, ishape = tuple(self.data.shape[:nb]), tuple(self.indices.shape[:nb])
        batch = dshape if dshape == ishape else np.broadcast_shapes(dshape, ishape)
        return tuple(batch) + tuple(self._tail_shape)

    @property
    def nse(self):
        """Number of stored entries per batch (padding included)."""
        return self.indices.shape[-2]

    # ---- conversions ---------------------------------------------------------------------
    def todense(self):
        """The dense laxarray ``Array``; duplicates summed, padding ignored."""
        return OPS.bcoo_todense(self)

    @classmethod
    def fromdense(cls, x, *, nse=None, n_batch=0, n_dense=0, index_dtype=None, device=None):
        """``bcoo_fromdense`` as a constructor."""
        return OPS.bcoo_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)

    @classmethod
    def from_scipy_sparse(cls, mat, *, index_dtype=None, device=None):
        """``bcoo_from_scipy_sparse`` as a constructor."""
        return OPS.bcoo_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)

    def to_scipy_sparse(self, format="coo"):
        """A ``scipy.sparse`` array (``coo``/``csr``/``csc``) of a 2-D, unbatched BCOO."""
        return OPS.bcoo_to_scipy_sparse(self, format=format)

    def sort_indices(self):
        """Entries sorted by row-major coordinates (padding last)."""
        return OPS.bcoo_sort_indices(self)

    def sum_duplicates(self, nse=None):
        """Duplicates summed, sorted, padding at the end; see :func:`bcoo_sum_duplicates`."""
        return OPS.bcoo_sum_duplicates(self, nse=nse)

    def eliminate_zeros(self, nse=None):
        """Stored zeros removed; see :func:`bcoo_eliminate_zeros`."""
        return OPS.bcoo_eliminate_zeros(self, nse=nse)

    def update_layout(self, *, n_batch=None, n_dense=None, nse=None):
        """Same array, other batch/dense split; see :func:`bcoo_update_layout`."""
        return OPS.bcoo_update_layout(self, n_batch=n_batch, n_dense=n_dense, nse=nse)

    def tobcsr(self):
        """The same array as a BCSR (needs two sparse dimensions)."""
        return OPS.bcsr_from_bcoo(self)

    def _as_bcoo(self):
        return self

    def _with_data(self, data):
        out = BCOO._new(data, self.indices, self.shape, self.indices_sorted,
                        self.unique_indices)
        if self._layouts is not None and getattr(data, "shape", None) == self.data.shape:
            out._layouts = ell.for_new_data(self._layouts, data)  # same pattern: same places
        return out

    def _leaves(self):
        return (self.data, self.indices)

    def with_layout(self):
        """This matrix, or a copy of it, with its product layouts built.

        A 2-D matrix created with concrete indices has them (built on first use) and
        carries them in its pytree: passed to ``jax.jit``, through ``lax.scan`` or
        ``cond``, its products run the fast kernels.  A matrix returned by a jitted
        function without them (made inside the trace) has none, and neither has one made
        from traced indices: call this for a copy that has them.  The indices must be
        concrete; traced ones (inside ``jax.jit``) raise ``ValueError``."""
        return with_layout(self)


def with_layout(mat):
    """``mat``, or a copy of it, with product layouts; see ``BCOO.with_layout``."""
    if not ell.qualifies(mat):
        fail_text(ValueError, "with_layout", "product layouts exist for 2-D matrices "
                  f"without batch or dense dimensions; got shape {mat.shape} with "
                  f"n_batch={mat.n_batch}, n_dense={mat.n_dense}")
    if ell.layouts_of(mat) is not None:
        return mat
    out = mat._with_data(mat.data)            # a new matrix: born with them if it can be
    if ell.layouts_of(out) is None:
        fail_text(ValueError, "with_layout", "the matrix's indices are traced (built inside "
                  "a jax transformation); build it from concrete indices, or close over it")
    return out


# ---- pytree ----------------------------------------------------------------------------
def _flatten(m):
    return (m.data, m.indices, flatten_layouts(m)), (m._tail_shape, m.indices_sorted,
                                                     m.unique_indices)


def flatten_layouts(m):
    """The layouts a matrix's pytree carries (built now if pending, once), or ``None``."""
    return ell.layouts_of(m)


def _unflatten(aux, children):
    obj = object.__new__(BCOO)
    obj.data, obj.indices, layouts = children
    obj._tail_shape, obj.indices_sorted, obj.unique_indices = aux
    obj._layouts = layouts
    return obj


jax.tree_util.register_pytree_node(BCOO, _flatten, _unflatten)


# ---- validation --------------------------------------------------------------------------
def validate_bcoo(fn, data, indices, shape):
    """Static checks of a (data, indices, shape) triple, plus an eager index range check."""
    if np.dtype(indices.dtype).kind not in "iu":
        fail(TypeError, fn, "an integer dtype for 'indices'", indices)
    if indices.ndim < 2:
        fail(ValueError, fn, "'indices' of rank >= 2 ([*batch, nse, n_sparse])", indices)
    n_batch = indices.ndim - 2
    n_sparse = indices.shape[-1]
    n_dense = len(shape) - n_batch - n_sparse
    if n_dense < 0:
        fail(ValueError, fn, f"a shape of rank >= n_batch + n_sparse = {n_batch + n_sparse}",
             shape)
    if data.ndim != n_batch + 1 + n_dense:
        fail(ValueError, fn, f"'data' of rank n_batch + 1 + n_dense = {n_batch + 1 + n_dense} "
             f"for shape {shape} and indices of shape {tuple(indices.shape)}", data)
    for d in range(n_batch):
        a, b, s = data.shape[d], indices.shape[d], shape[d]
        if not (a in (1, s) and b in (1, s) and max(a, b) == s):
            fail(ValueError, fn, f"batch dimension {d} of data/indices equal to shape[{d}]={s} "
                 "(or 1)", (tuple(data.shape), tuple(indices.shape)))
    if data.shape[n_batch] != indices.shape[n_batch]:
        fail(ValueError, fn, f"data and indices with the same nse ({indices.shape[n_batch]})",
             data)
    if tuple(data.shape[n_batch + 1:]) != tuple(shape[n_batch + n_sparse:]):
        fail(ValueError, fn, f"dense dimensions of data equal to {shape[n_batch + n_sparse:]}",
             data)
    if not is_tracer(indices) and indices.size:
        sparse_shape = shape[n_batch:n_batch + n_sparse]
        with jax.ensure_compile_time_eval():     # concrete indices inside a trace too
            lo, ok = _range_check_kernel(indices, sparse_shape=sparse_shape)
        if int(lo) < 0 or not bool(ok):
            fail_text(ValueError, fn, f"expected {_PADDING_NOTE} for sparse shape "
                      f"{sparse_shape}; got an index out of range")


@kernel(static=("sparse_shape",))
def _range_check_kernel(indices, *, sparse_shape):
    ok = lax.full((), True)
    for d, size in enumerate(sparse_shape):
        ok = lax.bitwise_and(ok, lax.le(lax.reduce_max(indices[..., d], tuple(range(indices.ndim - 1))),
                                        lax.full((), size, indices.dtype)))
    return lax.reduce_min(indices, tuple(range(indices.ndim))), ok


def as_sparse_input(fn, mat, argname="mat"):
    """``mat`` as a BCOO (BCSR converted); anything else raises ``TypeError``."""
    if isinstance(mat, BCOO):
        return mat
    conv = getattr(mat, "_as_bcoo", None)
    if conv is None:
        fail(TypeError, fn, f"a BCOO or BCSR for '{argname}'", mat)
    return conv()


# ---- the arguments the conversions share ---------------------------------------------
def check_placement(fn, device):
    """A ``device=`` of the conversions: ``None`` or a row-partitioning ``NamedSharding``
    (checked before any computation)."""
    if device is not None:
        OPS.row_sharding_axis(fn, device)


def placed(fn, mat, device):
    """``mat``, or ``shard_rows(mat, ...)`` over the rows axis of ``device``'s sharding."""
    return mat if device is None else OPS.place_matrix(fn, mat, device)


def _layout_ints(fn, n_batch, n_dense, ndim):
    for name, v in (("n_batch", n_batch), ("n_dense", n_dense)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0:
            fail(TypeError if not isinstance(v, (int, np.integer)) else ValueError, fn,
                 f"a non-negative int for '{name}'", v)
    if n_batch + n_dense > ndim:
        fail(ValueError, fn, f"n_batch + n_dense <= ndim = {ndim}", (n_batch, n_dense))
    return int(n_batch), int(n_dense)


def _nse_int(fn, nse):
    if is_tracer(nse) or not isinstance(nse, (int, np.integer)) or isinstance(nse, bool):
        fail(TypeError, fn, "a static Python int for 'nse'", nse)
    if nse < 0:
        fail(ValueError, fn, "a non-negative 'nse'", nse)
    return int(nse)


def _index_dtype(fn, index_dtype, shape):
    if index_dtype is None:
        return K.default_index_dtype(*shape)
    dt = np.dtype(index_dtype)
    if dt.kind not in "iu":
        fail(TypeError, fn, "an integer 'index_dtype'", dt)
    return dt





__all__ = ["BCOO"]
