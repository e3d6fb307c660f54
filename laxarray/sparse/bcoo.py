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

import math
import operator

import jax

import numpy as np
from jax import lax

from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._operators import OPS, SparseOperators
from laxarray.sparse.ops import ell
from laxarray._core import dtypes as _dt
from laxarray._core import lazy_scipy
from laxarray._core.numerics import rank_of_true

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
        return bcoo_todense(self)

    @classmethod
    def fromdense(cls, x, *, nse=None, n_batch=0, n_dense=0, index_dtype=None, device=None):
        """``bcoo_fromdense`` as a constructor."""
        return bcoo_fromdense(x, nse=nse, n_batch=n_batch, n_dense=n_dense,
                              index_dtype=index_dtype, device=device)

    @classmethod
    def from_scipy_sparse(cls, mat, *, index_dtype=None, device=None):
        """``bcoo_from_scipy_sparse`` as a constructor."""
        return bcoo_from_scipy_sparse(mat, index_dtype=index_dtype, device=device)

    def to_scipy_sparse(self, format="coo"):
        """A ``scipy.sparse`` array (``coo``/``csr``/``csc``) of a 2-D, unbatched BCOO."""
        return bcoo_to_scipy_sparse(self, format=format)

    def sort_indices(self):
        """Entries sorted by row-major coordinates (padding last)."""
        return bcoo_sort_indices(self)

    def sum_duplicates(self, nse=None):
        """Duplicates summed, sorted, padding at the end; see :func:`bcoo_sum_duplicates`."""
        return bcoo_sum_duplicates(self, nse=nse)

    def eliminate_zeros(self, nse=None):
        """Stored zeros removed; see :func:`bcoo_eliminate_zeros`."""
        return bcoo_eliminate_zeros(self, nse=nse)

    def update_layout(self, *, n_batch=None, n_dense=None, nse=None):
        """Same array, other batch/dense split; see :func:`bcoo_update_layout`."""
        return bcoo_update_layout(self, n_batch=n_batch, n_dense=n_dense, nse=nse)

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


# ---- dense <-> BCOO ------------------------------------------------------------------------
@in_wide_mode
def bcoo_fromdense(x, *, nse=None, n_batch=0, n_dense=0, index_dtype=None, device=None):
    """Return a BCOO holding the non-zeros of a dense array.

    jax: jax.experimental.sparse.bcoo_fromdense.

    Parameters
    ----------
    x : array_like
        The dense array.
    nse : int, optional
        The number of stored entries per batch; default the largest number of non-zeros of a
        batch, computed from the data (so required under ``jax.jit``).  A smaller ``nse``
        keeps the first non-zeros in row-major order; a larger one adds padding entries.
    n_batch : int, optional
        The number of leading batch dimensions; default 0.
    n_dense : int, optional
        The number of trailing dense dimensions (stored as blocks); default 0.
    index_dtype : dtype, optional
        An integer dtype for the indices; default int32 (int64 for dimensions beyond its range).
    device : jax.sharding.NamedSharding, optional
        None (default), or a sharding whose spec partitions rows only
        (``PartitionSpec(axis)``), for a :class:`RowSharded` result (as :func:`shard_rows`;
        eager only).

    Returns
    -------
    BCOO
        The non-zeros of ``x``, sorted by row-major coordinates and unique (the flags
        ``indices_sorted`` and ``unique_indices`` are set).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``nse`` is not a Python int, ``n_batch`` or ``n_dense``
        not a non-negative one, or ``index_dtype`` is not an integer dtype.
    ValueError
        If ``nse`` is negative, ``n_batch + n_dense`` exceeds ``x.ndim``, ``nse`` is None
        under a trace, or ``device`` is not a row-partitioning sharding.

    Notes
    -----
    Static under ``jax.jit``: ``nse``, ``n_batch``, ``n_dense``, ``index_dtype``, ``device``.

    Counting the non-zeros reads the data: eagerly that is one small computation; under
    ``jax.jit`` give ``nse``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.bcoo_fromdense([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    >>> a
    BCOO(float64[2, 3], nse=3)
    >>> a.indices
    Array([[0, 1],
           [1, 0],
           [1, 2]], dtype=int32)
    >>> sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]], nse=1).todense()
    Array([[0., 1.],
           [0., 0.]])
    """
    fn = "bcoo_fromdense"
    check_placement(fn, device)
    raw = to_raw(fn, x, "x")
    n_batch, n_dense = _layout_ints(fn, n_batch, n_dense, raw.ndim)
    index_dtype = _index_dtype(fn, index_dtype, raw.shape)
    if nse is None:
        if is_tracer(raw):
            fail_text(ValueError, fn, "expected a static 'nse' under jax.jit/vmap/grad (the "
                      "number of stored entries cannot be computed from traced data); got None")
        nse = int(_count_nonzero_kernel(raw, n_batch=n_batch, n_dense=n_dense))
    nse = _nse_int(fn, nse)
    data, indices = _fromdense_kernel(raw, nse=nse, n_batch=n_batch, n_dense=n_dense,
                                      index_dtype=index_dtype)
    out = BCOO._new(data, indices, raw.shape, indices_sorted=True, unique_indices=True)
    return placed(fn, out, device)


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


def _nonzero_mask(x, n_dense):
    mask = lax.ne(x, lax.full((), 0, x.dtype))
    if n_dense:
        mask = lax.reduce_or(mask, tuple(range(x.ndim - n_dense, x.ndim)))
    return mask


@kernel(static=("n_batch", "n_dense"))
def _count_nonzero_kernel(x, *, n_batch, n_dense):
    mask = lax.convert_element_type(_nonzero_mask(x, n_dense), _dt.default_index())
    counts = lax.reduce_sum(mask, tuple(range(n_batch, mask.ndim)))
    if not n_batch:
        return counts
    # an empty batch holds no entries (reduce_max of nothing is the dtype's minimum)
    return lax.max(lax.reduce_max(counts, tuple(range(n_batch))), lax.full((), 0, _dt.default_index()))


@kernel(static=("nse", "n_batch", "n_dense", "index_dtype"))
def _fromdense_kernel(x, *, nse, n_batch, n_dense, index_dtype):
    sparse_shape = tuple(x.shape[n_batch:x.ndim - n_dense])
    dense_shape = tuple(x.shape[x.ndim - n_dense:])

    def one(xb):
        n = math.prod(sparse_shape)
        flat = lax.reshape(xb, (n,) + dense_shape)
        # positions up to n rounded up to whole 32-bit words must fit
        pos_dtype = np.dtype("int32") if n < 2**31 - 64 else np.dtype("int64")
        keys = K.true_positions(_nonzero_mask(flat, n_dense), nse, pos_dtype)
        data = K.gather_1d(flat, keys)
        return data, K.unravel_keys(keys, sparse_shape, index_dtype)

    return K.batched(one, n_batch, in_axes=0)(x)


def _scatter_set_1d(n, positions, values, fill):
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    return lax.scatter(lax.full((n,), fill, values.dtype), positions[:, None], values, dnums,
                       indices_are_sorted=True, unique_indices=True, mode=K.GATHER_FILL)


@in_wide_mode
def bcoo_todense(mat):
    """Return the dense array of a BCOO (or BCSR).

    jax: jax.experimental.sparse.bcoo_todense.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array.

    Returns
    -------
    Array
        The dense laxarray array of ``mat.shape`` and dtype: duplicates summed, padding
        entries ignored.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR.

    Notes
    -----
    Static under ``jax.jit``: none (the shape is part of the sparse array's static structure).

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0, 5.0], [[1, 0], [0, 1], [1, 0]]), shape=(2, 2))
    >>> sp.bcoo_todense(a)
    Array([[0., 2.],
           [6., 0.]])
    """
    mat = as_sparse_input("bcoo_todense", mat)
    return wrap(todense_raw(mat))


def todense_raw(mat):
    """Raw jax dense value of a BCOO (for use by other sparse modules)."""
    return _todense_kernel(mat.data, mat.indices, shape=mat.shape,
                           unique=mat.unique_indices, sorted_=mat.indices_sorted)


@kernel(static=("shape", "unique", "sorted_"))
def _todense_kernel(data, indices, *, shape, unique, sorted_):
    n_batch = indices.ndim - 2
    n_sparse = indices.shape[-1]
    batch = tuple(shape[:n_batch])
    data, indices = K.broadcast_batch(data, batch), K.broadcast_batch(indices, batch)
    sparse_shape = tuple(shape[n_batch:n_batch + n_sparse])
    dense_shape = tuple(shape[n_batch + n_sparse:])

    if data.dtype == np.bool_:  # scatter_add has no bool: count, then "any stored True"
        counts = _todense_kernel.fn(lax.convert_element_type(data, np.int32), indices,
                                    shape=shape, unique=unique, sorted_=sorted_)
        return lax.ne(counts, lax.full_like(counts, 0))

    def one(d, i):
        dnums = lax.ScatterDimensionNumbers(
            update_window_dims=tuple(range(1, 1 + len(dense_shape))),
            inserted_window_dims=tuple(range(n_sparse)),
            scatter_dims_to_operand_dims=tuple(range(n_sparse)))
        out = lax.full(sparse_shape + dense_shape, 0, d.dtype)
        if n_sparse == 0:
            return lax.add(out, lax.reduce_sum(d, (0,)))
        return lax.scatter_add(out, i, d, dnums, indices_are_sorted=sorted_,
                               unique_indices=unique, mode=K.GATHER_FILL)

    return K.batched(one, n_batch, in_axes=(0, 0))(data, indices)


# ---- scipy ---------------------------------------------------------------------------------
@in_wide_mode
def bcoo_from_scipy_sparse(mat, *, index_dtype=None, device=None):
    """Return a 2-D BCOO of a ``scipy.sparse`` array or matrix.

    jax: jax.experimental.sparse.BCOO.from_scipy_sparse.

    Parameters
    ----------
    mat : scipy.sparse array or matrix
        Any format; its entries are kept as stored (duplicates too).
    index_dtype : dtype, optional
        An integer dtype for the indices; default int32 (int64 for dimensions beyond its range).
    device : jax.sharding.NamedSharding, optional
        None (default), or a row-partitioning sharding for a :class:`RowSharded` result (as
        :func:`bcoo_fromdense`).

    Returns
    -------
    BCOO
        The same matrix.

    Raises
    ------
    TypeError
        If ``mat`` is not a ``scipy.sparse`` array or matrix, or ``index_dtype`` is not an
        integer dtype.

    Notes
    -----
    Static under ``jax.jit``: not applicable: a host conversion, run eagerly.

    Needs SciPy.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> import scipy.sparse
    >>> sp.bcoo_from_scipy_sparse(scipy.sparse.eye(3, format="csr"))
    BCOO(float64[3, 3], nse=3)
    """
    fn = "bcoo_from_scipy_sparse"
    check_placement(fn, device)
    sps = lazy_scipy.scipy_sparse()
    if not sps.issparse(mat):
        fail(TypeError, fn, "a scipy.sparse array or matrix for 'mat'", mat)
    coo = mat.tocoo()
    index_dtype = _index_dtype(fn, index_dtype, coo.shape)
    idx = np.stack([np.asarray(coo.row), np.asarray(coo.col)], axis=1).astype(index_dtype)
    sorted_ = mat.format == "csr" and bool(getattr(mat, "has_sorted_indices", False))
    unique = bool(getattr(mat, "has_canonical_format", False))
    data = to_raw(fn, np.asarray(coo.data), "mat")  # the backend's dtype rules, as asarray's
    out = BCOO._new(data, device_put(idx), tuple(coo.shape),
                    indices_sorted=sorted_ and unique, unique_indices=unique)
    return placed(fn, out, device)


@in_wide_mode
def bcoo_to_scipy_sparse(mat, format="coo"):
    """Return a ``scipy.sparse`` array of a 2-D, unbatched, dense-free BCOO (or BCSR).

    jax: (no counterpart).

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse matrix: two sparse dimensions, no batch or dense ones, concrete values.
    format : {'coo', 'csr', 'csc'}, optional
        The format of the result; default ``'coo'``.

    Returns
    -------
    scipy.sparse array
        The same matrix; padding entries are dropped, duplicates kept (SciPy sums them on use).

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR.
    ValueError
        If ``format`` is not one of the three, or ``mat`` is not 2-D without batch and dense
        dimensions.

    Notes
    -----
    Static under ``jax.jit``: not applicable: a host conversion, run eagerly.

    Needs SciPy.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> sp.bcoo_to_scipy_sparse(a, format="csr").toarray()
    array([[0., 1.],
           [2., 0.]])
    """
    fn = "bcoo_to_scipy_sparse"
    sps = lazy_scipy.scipy_sparse()
    mat = as_sparse_input(fn, mat)
    if mat.n_batch or mat.n_dense or mat.n_sparse != 2:
        fail(ValueError, fn, "a 2-D BCOO with n_batch == n_dense == 0", mat)
    if format not in ("coo", "csr", "csc"):
        fail(ValueError, fn, "format 'coo', 'csr' or 'csc'", format)
    data = np.asarray(mat.data)
    idx = np.asarray(mat.indices)
    keep = (idx[:, 0] < mat.shape[0]) & (idx[:, 1] < mat.shape[1])
    out = sps.coo_array((data[keep], (idx[keep, 0], idx[keep, 1])), shape=mat.shape)
    return out.asformat(format)


# ---- canonicalisation ------------------------------------------------------------------------
@in_wide_mode
def bcoo_sort_indices(mat):
    """Return a BCOO with its entries sorted by row-major coordinates within each batch.

    jax: jax.experimental.sparse.bcoo_sort_indices.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array.

    Returns
    -------
    BCOO
        The same array, its entries reordered (padding last) and ``indices_sorted`` set;
        duplicates are kept.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR.

    Notes
    -----
    Static under ``jax.jit``: none; everything but the values and the order is static.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0], [[1, 0], [0, 1]]), shape=(2, 2))
    >>> sp.bcoo_sort_indices(a).indices.tolist()
    [[0, 1], [1, 0]]
    """
    mat = as_sparse_input("bcoo_sort_indices", mat)
    if mat.indices_sorted:
        return mat
    data, indices = _sort_kernel(mat.data, mat.indices, shape=mat.shape)
    return BCOO._new(data, indices, mat.shape, indices_sorted=True,
                     unique_indices=mat.unique_indices)


@kernel(static=("shape",))
def _sort_kernel(data, indices, *, shape):
    n_batch = indices.ndim - 2
    batch = tuple(shape[:n_batch])
    data, indices = K.broadcast_batch(data, batch), K.broadcast_batch(indices, batch)
    sparse_shape = tuple(shape[n_batch:n_batch + indices.shape[-1]])

    def one(d, i):
        _, perm = K.sort_by_keys(K.linear_keys(i, sparse_shape), math.prod(sparse_shape))
        return K.gather_1d(d, perm, K.PROMISE), K.gather_1d(i, perm, K.PROMISE)

    return K.batched(one, n_batch, in_axes=(0, 0))(data, indices)


@in_wide_mode
def bcoo_sum_duplicates(mat, nse=None):
    """Return a BCOO with duplicate coordinates summed into one entry.

    jax: jax.experimental.sparse.bcoo_sum_duplicates.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array.
    nse : int, optional
        The number of entries per batch of the result; eagerly it defaults to the number of
        distinct coordinates, under ``jax.jit`` to the input's ``nse`` (the extra slots are
        padding).

    Returns
    -------
    BCOO
        The same array with sorted, unique indices (both flags set) and the padding entries
        at the end.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR, or ``nse`` is not a Python int.
    ValueError
        If ``nse`` is negative.

    Notes
    -----
    Static under ``jax.jit``: ``nse``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 2.0, 5.0], [[1, 0], [0, 1], [1, 0]]), shape=(2, 2))
    >>> b = sp.bcoo_sum_duplicates(a)
    >>> b
    BCOO(float64[2, 2], nse=2)
    >>> b.data
    Array([2., 6.], dtype=float64)
    """
    fn = "bcoo_sum_duplicates"
    mat = as_sparse_input(fn, mat)
    out_nse = mat.nse if nse is None else _nse_int(fn, nse)
    exact = nse is None and not is_tracer(mat.indices)
    data, indices, count = _sum_duplicates_kernel(mat.data, mat.indices, shape=mat.shape,
                                                  nse=out_nse)
    if exact:
        n = int(count)
        nb = mat.n_batch
        data = lax.slice_in_dim(data, 0, n, axis=nb)
        indices = lax.slice_in_dim(indices, 0, n, axis=nb)
    return BCOO._new(data, indices, mat.shape, indices_sorted=True, unique_indices=True)


def sum_duplicates_core(d, i, sparse_shape, nse):
    """Unbatched: ``(data, indices, n_unique)`` with duplicates summed into ``nse`` slots."""
    total = math.prod(sparse_shape)
    keys = K.linear_keys(i, sparse_shape)
    return segments_by_key(keys, (d,), total, nse, sparse_shape, i.dtype)


def segments_by_key(keys, values, total, nse, sparse_shape, index_dtype, sorted_input=False):
    """Sum each array of ``values`` over entries with equal key; returns
    ``(*summed_values, indices, n_unique)`` with ``nse`` slots sorted by key."""
    n = keys.shape[0]
    if sorted_input:
        skeys, perm = keys, None
    else:
        skeys, perm = K.sort_by_keys(keys, total)
    if n == 0:
        out_keys = lax.full((nse,), total, K.KEY_DTYPE)
        outs = tuple(lax.full((nse,) + tuple(v.shape[1:]), 0, v.dtype) for v in values)
        return outs + (K.unravel_keys(out_keys, sparse_shape, index_dtype),
                       lax.full((), 0, _dt.default_index()))
    first = lax.concatenate([lax.full((1,), True),
                             lax.ne(skeys[1:], skeys[:-1])], 0)
    valid = lax.lt(skeys, lax.full((), total, K.KEY_DTYPE))
    seg = rank_of_true(first, np.int32)
    seg = lax.select(valid, seg, lax.full(seg.shape, nse, np.int32))
    n_unique = lax.reduce_sum(lax.convert_element_type(lax.bitwise_and(first, valid), _dt.default_index()),
                              (0,))
    out_keys = _scatter_set_1d(nse, seg, skeys, fill=total) if nse else \
        lax.full((0,), total, K.KEY_DTYPE)
    outs = []
    for v in values:
        vs = v if perm is None else K.gather_1d(v, perm, K.PROMISE)
        outs.append(segment_sum_sorted(vs, seg, nse))
    return tuple(outs) + (K.unravel_keys(out_keys, sparse_shape, index_dtype), n_unique)


def segment_sum_sorted(values, seg, nse):
    """``out[s] = sum(values[seg == s])`` for sorted ``seg``; ids ``>= nse`` dropped."""
    return scatter_add_sorted(lax.full((nse,) + tuple(values.shape[1:]), 0, values.dtype),
                              seg, values)


def scatter_add_sorted(out, seg, values):
    """``out`` with ``values`` added at sorted positions ``seg`` (out of range dropped).
    Booleans add as NumPy's and SciPy's do, by logical or (lax has no boolean add)."""
    dnums = lax.ScatterDimensionNumbers(update_window_dims=tuple(range(1, values.ndim)),
                                        inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    scatter = lax.scatter_max if values.dtype == np.bool_ else lax.scatter_add
    return scatter(out, seg[:, None], values, dnums, indices_are_sorted=True,
                   mode=K.GATHER_FILL)


@kernel(static=("shape", "nse"))
def _sum_duplicates_kernel(data, indices, *, shape, nse):
    n_batch = indices.ndim - 2
    batch = tuple(shape[:n_batch])
    data, indices = K.broadcast_batch(data, batch), K.broadcast_batch(indices, batch)
    sparse_shape = tuple(shape[n_batch:n_batch + indices.shape[-1]])
    out_nse = max(nse, indices.shape[-2])

    def one(d, i):
        return sum_duplicates_core(d, i, sparse_shape, out_nse)

    d, i, count = K.batched(one, n_batch, in_axes=(0, 0))(data, indices)
    if out_nse != nse:
        d = lax.slice_in_dim(d, 0, nse, axis=n_batch)
        i = lax.slice_in_dim(i, 0, nse, axis=n_batch)
    if n_batch:
        count = lax.reduce_max(count, tuple(range(n_batch)))
    return d, i, count


@in_wide_mode
def bcoo_eliminate_zeros(mat, nse=None):
    """Return a BCOO without its stored zeros.

    jax: jax.experimental.sparse.bcoo_eliminate_zeros.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array.
    nse : int, optional
        The number of entries per batch of the result, as in :func:`bcoo_sum_duplicates`.

    Returns
    -------
    BCOO
        The same array with sorted, unique indices and no stored zeros; duplicates are
        summed first, so entries that cancel are removed too.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR, or ``nse`` is not a Python int.
    ValueError
        If ``nse`` is negative.

    Notes
    -----
    Static under ``jax.jit``: ``nse``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.BCOO(([1.0, 0.0], [[1, 0], [0, 1]]), shape=(2, 2))
    >>> sp.bcoo_eliminate_zeros(a)
    BCOO(float64[2, 2], nse=1)
    """
    fn = "bcoo_eliminate_zeros"
    mat = as_sparse_input(fn, mat)
    summed = bcoo_sum_duplicates(mat, nse=mat.nse)
    indices = _zero_to_padding_kernel(summed.data, summed.indices, shape=mat.shape)
    out = BCOO._new(summed.data, indices, mat.shape, indices_sorted=False, unique_indices=True)
    return bcoo_sum_duplicates(out, nse=nse)


@kernel(static=("shape",))
def _zero_to_padding_kernel(data, indices, *, shape):
    n_batch = indices.ndim - 2
    n_sparse = indices.shape[-1]
    zero = lax.eq(data, lax.full((), 0, data.dtype))
    if data.ndim > n_batch + 1:
        zero = lax.reduce_and(zero, tuple(range(n_batch + 1, data.ndim)))
    batch = tuple(shape[:n_batch])
    zero = K.broadcast_batch(zero, batch)
    indices = K.broadcast_batch(indices, batch)
    sizes = lax.broadcast_in_dim(
        lax.convert_element_type(np.asarray(shape[n_batch:n_batch + n_sparse]), indices.dtype),
        indices.shape, (indices.ndim - 1,))
    return lax.select(lax.broadcast_in_dim(zero, indices.shape, tuple(range(indices.ndim - 1))),
                      sizes, indices)


@in_wide_mode
def bcoo_update_layout(mat, *, n_batch=None, n_dense=None, nse=None):
    """Return the same array as a BCOO with another split into batch, sparse and dense dimensions.

    jax: jax.experimental.sparse.bcoo_update_layout.

    Parameters
    ----------
    mat : BCOO or BCSR
        The sparse array.
    n_batch : int, optional
        The new number of batch dimensions; default the current one.
    n_dense : int, optional
        The new number of dense dimensions; default the current one.
    nse : int, optional
        The entries per batch when sparse dimensions become batch ones: computed eagerly,
        the input's total ``nse`` under ``jax.jit``.

    Returns
    -------
    BCOO
        The same array (``todense`` is unchanged) with the new layout.

    Raises
    ------
    TypeError
        If ``mat`` is not a BCOO or BCSR, or a count is not a non-negative Python int.
    ValueError
        If ``n_batch + n_dense`` exceeds the rank.

    Notes
    -----
    Static under ``jax.jit``: ``n_batch``, ``n_dense``, ``nse``.

    Examples
    --------
    >>> import laxarray.sparse as sp
    >>> a = sp.bcoo_fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> b = sp.bcoo_update_layout(a, n_batch=1)
    >>> b
    BCOO(float64[2, 2], nse=1, n_batch=1)
    >>> b.data
    Array([[1.],
           [2.]], dtype=float64)
    """
    fn = "bcoo_update_layout"
    return OPS.update_layout(fn, as_sparse_input(fn, mat), n_batch, n_dense, nse)


__all__ = ["BCOO", "bcoo_fromdense", "bcoo_todense", "bcoo_from_scipy_sparse",
           "bcoo_to_scipy_sparse", "bcoo_sort_indices", "bcoo_sum_duplicates",
           "bcoo_eliminate_zeros", "bcoo_update_layout", "Array"]
