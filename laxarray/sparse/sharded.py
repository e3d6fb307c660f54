"""Row-sharded sparse matrices: a 2-D BCOO or BCSR split into row blocks over a mesh axis.

:func:`shard_rows` splits a concrete matrix of ``n_rows`` rows into ``P`` blocks of
``rows_per_block = ceil(n_rows / P)`` rows (``P`` the size of the mesh axis; the last
blocks hold the remainder and empty padding rows).  Each block is a local matrix in the
input's format, with row indices local to the block; the blocks are stacked along a new
leading axis, every block padded to the same number of stored entries, and that axis is
placed with ``NamedSharding(mesh, PartitionSpec(axis_name))``: device ``i`` of the axis
holds block ``i`` (replicated over the other mesh axes).  A :class:`RowSharded` is a pytree
of those stacked leaves; the mesh, the axis name and the true shape are static.

Products are ``jax.shard_map`` kernels over that axis: ``A @ x`` (``x`` of shape
``(n_cols,)`` or ``(n_cols, k)``, replicated: sharded inputs are gathered by XLA) runs
each block's local product and gives the rows of the result on the device that owns them;
``A.T @ y`` (and ``y @ A``) has each device multiply its block's transpose with its own
rows of ``y`` and sums the ``n_cols``-long pieces with one ``lax.psum``.  The local
products are the general sparse·dense kernel of :mod:`.ops.dot` on the block's raw
values.  jax holds no unevenly sharded array, so when ``P`` does not divide ``n_rows`` a
result with ``n_rows`` rows is replicated (one all-gather of the result) instead of
row-sharded.
"""

from __future__ import annotations

import jax
import numpy as np
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._array import wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcoo_convert import _todense_kernel
from laxarray.sparse.bcsr import BCSR, _to_bcoo_kernel
from laxarray.sparse.ops.dot import _spmm_core
from laxarray.sparse.ops.ell import _host_structure


class RowSharded:
    """A 2-D BCOO or BCSR partitioned by row blocks over a mesh axis; see :func:`shard_rows`.

    Leaves (stacked per block along a leading axis of length ``num_blocks``, sharded over
    ``axis_name``): ``data (P, nse)`` and ``indices (P, nse, 2)`` (local rows) for a BCOO,
    ``data (P, nse)``, ``indices (P, nse)`` and ``indptr (P, rows_per_block + 1)`` for a
    BCSR.  ``A @ x``, ``A.T @ y``, ``y @ A`` and ``todense()`` run on every device at once;
    the solvers of :mod:`laxarray.sparse.linalg` take it as ``A`` (or ``M``).  ``A.T`` is
    the transpose (a column-sharded matrix), for products.  A pytree: it passes through
    ``jax.jit`` as an argument, with the mesh, the axis name and the shape static.
    """

    __slots__ = ("leaves", "format", "_shape", "mesh", "axis_name", "rows_per_block",
                 "indices_sorted", "unique_indices", "transposed")
    __array_priority__ = 200
    __array_ufunc__ = None

    # ---- attributes --------------------------------------------------------------------
    @property
    def shape(self):
        """The shape of the (possibly transposed) matrix: ``(n_rows, n_cols)``."""
        return self._shape[::-1] if self.transposed else self._shape

    @property
    def dtype(self):
        """dtype of the stored values."""
        return np.dtype(self.leaves[0].dtype)

    @property
    def ndim(self):
        """Always 2."""
        return 2

    @property
    def size(self):
        """Number of elements of the dense equivalent."""
        return self._shape[0] * self._shape[1]

    @property
    def nse(self):
        """Stored entries per block (padding included; every block has as many)."""
        return self.leaves[0].shape[1]

    @property
    def num_blocks(self):
        """Number of row blocks (the size of the mesh axis)."""
        return self.leaves[0].shape[0]

    @property
    def sharding(self):
        """``NamedSharding(mesh, PartitionSpec(axis_name))``: the placement of the leaves."""
        return NamedSharding(self.mesh, PartitionSpec(self.axis_name))

    @property
    def T(self):
        """The transpose (column blocks over the same axis), for products."""
        return _replace(self, transposed=not self.transposed)

    def __repr__(self):
        t = ".T" if self.transposed else ""
        dims = ", ".join(str(s) for s in self._shape)
        return (f"RowSharded({self.format.upper()}({self.dtype}[{dims}], nse={self.nse}), "
                f"blocks={self.num_blocks} over {self.axis_name!r}){t}")

    # ---- products ----------------------------------------------------------------------
    def __matmul__(self, other):
        return sharded_matmul(self, other)

    def __rmatmul__(self, other):
        return sharded_matmul(other, self)

    # ---- conversions -------------------------------------------------------------------
    def todense(self):
        """The dense ``Array``, computed block by block on the devices.

        Row-sharded like the matrix when ``num_blocks`` divides the rows; otherwise jax
        cannot hold the uneven result and gathers it (replicated on every device of the
        mesh).  Under ``jax.jit`` it is part of the compiled program."""
        return wrap(todense_raw(self))

    def gather(self):
        """The single-device BCOO/BCSR (every block copied to the host, padding dropped).

        Eager only: under ``jax.jit`` (traced leaves) it raises ``ValueError``."""
        return gather(self)

    def block_until_ready(self):
        """Wait for the leaves to be computed; returns ``self``."""
        for leaf in self.leaves:
            leaf.block_until_ready()
        return self


def _replace(m, **changes):
    out = object.__new__(RowSharded)
    for name in RowSharded.__slots__:
        setattr(out, name, changes.get(name, getattr(m, name)))
    return out


def _flatten(m):
    return tuple(m.leaves), (m.format, m._shape, m.mesh, m.axis_name, m.rows_per_block,
                             m.indices_sorted, m.unique_indices, m.transposed)


def _unflatten(aux, children):
    out = object.__new__(RowSharded)
    out.leaves = tuple(children)
    (out.format, out._shape, out.mesh, out.axis_name, out.rows_per_block,
     out.indices_sorted, out.unique_indices, out.transposed) = aux
    return out


jax.tree_util.register_pytree_node(RowSharded, _flatten, _unflatten)


def is_sharded(x):
    """Whether ``x`` is a :class:`RowSharded` matrix (a static check: traced ones too)."""
    return isinstance(x, RowSharded)


# ---- building ----------------------------------------------------------------------------
def _axis_size(fn, mesh, axis_name):
    """Validated ``(axis_name, P)``: a mesh axis name, or a tuple of them (rows split over
    their product)."""
    if not isinstance(mesh, Mesh):
        fail(TypeError, fn, "a jax.sharding.Mesh for 'mesh'", mesh)
    names = axis_name if isinstance(axis_name, tuple) else (axis_name,)
    if not names or not all(isinstance(n, str) for n in names):
        fail(TypeError, fn, "a mesh axis name (str), or a tuple of them, for 'axis_name'",
             axis_name)
    if len(set(names)) != len(names):
        fail(ValueError, fn, "distinct mesh axis names in 'axis_name'", axis_name)
    for n in names:
        if n not in mesh.axis_names:
            fail(ValueError, fn, f"'axis_name' among the mesh's axes {tuple(mesh.axis_names)}",
                 axis_name)
    size = 1
    for n in names:
        size *= int(mesh.shape[n])
    return (names if isinstance(axis_name, tuple) else names[0]), size


@in_wide_mode
def shard_rows(A, mesh, axis_name):
    """Partition a 2-D sparse matrix by row blocks over a mesh axis.

    jax: (no counterpart; the multi-device form of a matrix for ``jax.shard_map`` kernels).

    Parameters
    ----------
    A : BCOO or BCSR
        A 2-D matrix without batch or dense dimensions, with concrete indices and values.
    mesh : jax.sharding.Mesh
        The device mesh.
    axis_name : str or tuple of str
        The mesh axis (or axes, rows split over their product) to partition rows over.

    Returns
    -------
    RowSharded
        A pytree in ``A``'s format: ``P = mesh.shape[axis_name]`` blocks of ``ceil(n_rows /
        P)`` rows (the last ones padded with empty rows), block ``i`` placed on the devices
        at index ``i`` of the axis and replicated over the mesh's other axes.

    Raises
    ------
    TypeError
        If ``A`` is not a BCOO or BCSR, ``mesh`` is not a ``Mesh``, or ``axis_name`` is not
        a name or a tuple of names.
    ValueError
        If ``A`` is not 2-D without batch and dense dimensions, is traced (inside
        ``jax.jit``: build it outside and pass it in), or ``axis_name`` repeats or is not an
        axis of ``mesh``.

    Notes
    -----
    Static under ``jax.jit``: not applicable: built eagerly, on the host.

    ``A @ x``, ``A.T @ y``, the solvers of :mod:`laxarray.sparse.linalg` and products inside
    :func:`sparsify` run on the result as ``jax.shard_map`` programs; ``A @ x`` gives the
    rows of the result on the devices that own them.

    Examples
    --------
    >>> import jax, numpy as np, laxarray as la, laxarray.sparse as sp
    >>> mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("x",))
    >>> A = sp.shard_rows(sp.BCSR.fromdense([[1.0, 0.0], [0.0, 2.0]]), mesh, "x")
    >>> A
    RowSharded(BCSR(float64[2, 2], nse=2), blocks=1 over 'x')
    >>> A @ la.asarray([1.0, 1.0])
    Array([1., 2.])
    """
    fn = "shard_rows"
    if not isinstance(A, (BCOO, BCSR)):
        fail(TypeError, fn, "a BCOO or BCSR for 'A'", A)
    if A.ndim != 2 or A.n_batch or A.n_dense:
        fail(ValueError, fn, "a 2-D 'A' with no batch or dense dimensions", A)
    axis_name, P = _axis_size(fn, mesh, axis_name)
    if any(is_tracer(leaf) for leaf in A._leaves()):
        fail_text(ValueError, fn, "'A' is traced (inside jax.jit/vmap/grad); the partition is "
                  "built on the host from concrete values: call shard_rows outside the "
                  "transformation and pass the result in as an argument")
    n_rows, n_cols = A.shape
    rpb = max(1, -(-n_rows // P))
    rows, cols, positions = _host_structure(A)   # valid entries, storage order
    data = np.asarray(A.data)[positions]
    block = rows // rpb
    order = np.argsort(block, kind="stable")       # storage order kept within a block
    rows, cols, data, block = rows[order], cols[order], data[order], block[order]
    counts = np.bincount(block, minlength=P)
    nse = max(1, int(counts.max()) if counts.size else 0)
    starts = np.zeros(P + 1, _dt.default_index())
    np.cumsum(counts, out=starts[1:])
    slot = np.arange(rows.size, dtype=_dt.default_index()) - starts[block]
    local = rows - block * rpb
    index_dtype = np.promote_types(np.dtype(A.indices.dtype),
                                   K.default_index_dtype(rpb + 1, n_cols, nse))
    out_data = np.zeros((P, nse), data.dtype)
    out_data[block, slot] = data
    if isinstance(A, BCSR):
        out_cols = np.full((P, nse), n_cols, index_dtype)
        out_cols[block, slot] = cols
        per_row = np.bincount(rows, minlength=P * rpb).reshape(P, rpb)
        indptr = np.zeros((P, rpb + 1), index_dtype)
        np.cumsum(per_row, axis=1, out=indptr[:, 1:])
        leaves = (out_data, out_cols, indptr)
        fmt = "bcsr"
    else:
        idx = np.empty((P, nse, 2), index_dtype)
        idx[..., 0], idx[..., 1] = rpb, n_cols
        idx[block, slot, 0] = local
        idx[block, slot, 1] = cols
        leaves = (out_data, idx)
        fmt = "bcoo"
    sharding = NamedSharding(mesh, PartitionSpec(axis_name))
    out = object.__new__(RowSharded)
    out.leaves = tuple(device_put(leaf, sharding) for leaf in leaves)
    out.format, out._shape, out.mesh, out.axis_name = fmt, (n_rows, n_cols), mesh, axis_name
    out.rows_per_block = rpb
    out.indices_sorted, out.unique_indices = bool(A.indices_sorted), bool(A.unique_indices)
    out.transposed = False
    return out


def row_sharding_axis(fn, device):
    """The mesh axis (or axes) of a ``NamedSharding`` that partitions rows only, for the
    ``device=`` of the conversions; anything else raises ``ValueError``."""
    spec = getattr(device, "spec", None)
    if not isinstance(device, NamedSharding) or not spec or spec[0] is None or any(
            s is not None for s in spec[1:]) or len(spec) > 2:
        fail(ValueError, fn, "'device' to be None or a jax.sharding.NamedSharding that "
             "partitions rows only (PartitionSpec(axis) or PartitionSpec(axis, None)); the "
             "result is then shard_rows(matrix, sharding.mesh, axis)", device)
    return spec[0]


def place_matrix(fn, mat, device):
    """``mat`` when ``device`` is None, else ``shard_rows`` over its row axis (eager only:
    traced values raise ``ValueError`` naming ``fn``)."""
    if device is None:
        return mat
    axis = row_sharding_axis(fn, device)
    if any(is_tracer(leaf) for leaf in mat._leaves()):
        fail_text(ValueError, fn, "'device' with a sharding partitions the matrix on the host "
                  "(shard_rows) and needs concrete values; under jax.jit/vmap/grad leave it "
                  "out and call shard_rows outside the transformation")
    return shard_rows(mat, device.mesh, axis)


def gather(m):
    """The single-device BCOO/BCSR of a concrete :class:`RowSharded` (host copy)."""
    fn = "gather"
    if not isinstance(m, RowSharded):
        fail(TypeError, fn, "a RowSharded matrix", m)
    if any(is_tracer(leaf) for leaf in m.leaves):
        fail_text(ValueError, fn, "the matrix is traced (inside jax.jit/vmap/grad); gather "
                  "copies the blocks through the host: call it outside, or use todense()")
    n_rows, n_cols = m._shape
    rpb = m.rows_per_block
    host = [np.asarray(leaf) for leaf in m.leaves]
    data = host[0]
    if m.format == "bcsr":
        cols, ptr = host[1], host[2].astype(_dt.default_index())
        counts = np.diff(ptr, axis=1).reshape(-1)[:n_rows]
        keep = np.arange(data.shape[1])[None, :] < ptr[:, -1:]
        indptr = np.zeros(n_rows + 1, cols.dtype)
        np.cumsum(counts, out=indptr[1:])
        out = BCSR._new(device_put(data[keep]), device_put(cols[keep]),
                        device_put(indptr), (n_rows, n_cols), m.indices_sorted,
                        m.unique_indices)
    else:
        idx = host[1]
        keep = idx[..., 0] < rpb
        rows = idx[..., 0] + (np.arange(idx.shape[0]) * rpb)[:, None]
        glob = np.stack([rows[keep], idx[..., 1][keep]], axis=1).astype(idx.dtype)
        out = BCOO._new(device_put(data[keep]), device_put(glob), (n_rows, n_cols),
                        m.indices_sorted, m.unique_indices)
    return out.T if m.transposed else out


# ---- kernels -------------------------------------------------------------------------------
def _local_coo(fmt, leaves, rpb, n_cols):
    """Inside the shard_map body: the block's ``(data, indices (nse, 2))``."""
    if fmt == "bcsr":
        data, cols, ptr = (leaf[0] for leaf in leaves)
        return data, _to_bcoo_kernel.fn(cols, ptr, shape=(rpb, n_cols))
    return leaves[0][0], leaves[1][0]


@kernel(static=("mesh", "axis_name", "fmt", "shape", "rpb", "sorted_", "dtype"))
def _matvec_kernel(x, *leaves, mesh, axis_name, fmt, shape, rpb, sorted_, dtype):
    n_rows, n_cols = shape
    x = lax.convert_element_type(x, dtype)

    def local(x, *leaves):
        data, idx = _local_coo(fmt, leaves, rpb, n_cols)
        data = lax.convert_element_type(data, dtype)
        return _spmm_core(data, idx, x, (rpb, n_cols), (), (1,), (0,), sorted_)

    spec = PartitionSpec(axis_name)
    out = jax.shard_map(local, mesh=mesh, in_specs=(PartitionSpec(),) + (spec,) * len(leaves),
                        out_specs=spec)(x, *leaves)
    if out.shape[0] != n_rows:
        out = lax.slice_in_dim(out, 0, n_rows, axis=0)
    return out


@kernel(static=("mesh", "axis_name", "fmt", "shape", "rpb", "dtype"))
def _rmatvec_kernel(y, *leaves, mesh, axis_name, fmt, shape, rpb, dtype):
    n_rows, n_cols = shape
    y = lax.convert_element_type(y, dtype)
    blocks = leaves[0].shape[0]
    if blocks * rpb != n_rows:
        y = lax.pad(y, lax.full((), 0, dtype),
                    [(0, blocks * rpb - n_rows, 0)] + [(0, 0, 0)] * (y.ndim - 1))

    def local(y, *leaves):
        data, idx = _local_coo(fmt, leaves, rpb, n_cols)
        data = lax.convert_element_type(data, dtype)
        part = _spmm_core(data, idx, y, (rpb, n_cols), (), (0,), (0,), False)
        return lax.psum(part, axis_name)

    spec = PartitionSpec(axis_name)
    return jax.shard_map(local, mesh=mesh, in_specs=(spec,) * (1 + len(leaves)),
                         out_specs=PartitionSpec())(y, *leaves)


@kernel(static=("mesh", "axis_name", "fmt", "shape", "rpb", "sorted_", "unique"))
def _todense_sharded_kernel(*leaves, mesh, axis_name, fmt, shape, rpb, sorted_, unique):
    n_rows, n_cols = shape

    def local(*leaves):
        data, idx = _local_coo(fmt, leaves, rpb, n_cols)
        return _todense_kernel.fn(data, idx, shape=(rpb, n_cols), unique=unique,
                                  sorted_=sorted_)

    spec = PartitionSpec(axis_name)
    out = jax.shard_map(local, mesh=mesh, in_specs=(spec,) * len(leaves),
                        out_specs=spec)(*leaves)
    if out.shape[0] != n_rows:
        out = lax.slice_in_dim(out, 0, n_rows, axis=0)
    return out


def _statics(m):
    return dict(mesh=m.mesh, axis_name=m.axis_name, fmt=m.format, shape=m._shape,
                rpb=m.rows_per_block)


def matvec_raw(m, x):
    """Raw ``M @ x`` of the untransposed matrix ``M`` behind ``m`` for a raw ``x`` of shape
    ``(n_cols,)`` or ``(n_cols, k)`` (checked by the caller)."""
    dtype = _dt.result_type(m.dtype, x.dtype)
    return _matvec_kernel(x, *m.leaves, sorted_=m.indices_sorted, dtype=dtype, **_statics(m))


def rmatvec_raw(m, y):
    """Raw ``M.T @ y`` of the untransposed matrix ``M`` behind ``m`` for a raw ``y`` of
    shape ``(n_rows,)`` or ``(n_rows, k)`` (checked by the caller)."""
    dtype = _dt.result_type(m.dtype, y.dtype)
    return _rmatvec_kernel(y, *m.leaves, dtype=dtype, **_statics(m))


def todense_raw(m):
    """Raw dense value of a :class:`RowSharded` (transposed if ``m`` is)."""
    out = _todense_sharded_kernel(*m.leaves, sorted_=m.indices_sorted,
                                  unique=m.unique_indices, **_statics(m))
    return lax.transpose(out, (1, 0)) if m.transposed else out


def apply_raw(m, x, left=False):
    """Raw ``m @ x`` (``left``: ``x @ m``) for a :class:`RowSharded` ``m`` (transposed or
    not) and a raw dense ``x`` of rank 1 or 2 whose sizes were checked."""
    if left:      # x @ m == (m.T @ x.T).T
        out = apply_raw(m.T, x if x.ndim == 1 else lax.transpose(x, (1, 0)))
        return out if out.ndim == 1 else lax.transpose(out, (1, 0))
    return rmatvec_raw(m, x) if m.transposed else matvec_raw(m, x)


def sharded_matmul(x1, x2):
    """``x1 @ x2`` with one :class:`RowSharded` operand and one dense operand of rank 1 or 2.

    ``A @ x`` (``x`` of shape ``(n_cols,)`` or ``(n_cols, k)``) gives the rows of the
    result on the devices that own them; ``A.T @ y`` and ``y @ A`` sum the blocks'
    contributions with one ``psum`` (a replicated result).  A dense laxarray ``Array``;
    under ``jax.jit`` the same ``shard_map`` program is part of the compiled one."""
    fn = "matmul"
    left = not isinstance(x1, RowSharded)
    m, other = (x2, x1) if left else (x1, x2)
    if isinstance(other, RowSharded) or hasattr(other, "_as_bcoo"):
        fail(TypeError, fn, "a dense operand with a RowSharded matrix (sparse @ sparse is "
             "not supported on row-sharded matrices)", other)
    x = to_raw(fn, other, "x1" if left else "x2")
    if x.ndim not in (1, 2):
        fail(ValueError, fn, "a dense operand of rank 1 or 2 with a RowSharded matrix", x)
    if np.dtype(x.dtype).kind not in "biufc":
        fail(TypeError, fn, "a numeric dense operand", x)
    n_rows, n_cols = m.shape
    size = x.shape[-1] if left else x.shape[0]
    want = n_rows if left else n_cols
    if size != want:
        shapes = (tuple(x.shape), m.shape) if left else (m.shape, tuple(x.shape))
        fail(ValueError, fn, f"matching contracted sizes ({want} and {size})", shapes)
    return wrap(apply_raw(m, x, left=left))


__all__ = ["RowSharded", "shard_rows", "sharded_matmul", "gather", "is_sharded"]
