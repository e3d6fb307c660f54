"""Elementwise operations: ``map_values``, ``astype`` and binary operations with scalars,
dense arrays and other sparse arrays (the zero-preserving unary functions: ``ops.unary``).

Results keep the sparsity pattern where the operation preserves zeros (``*``, ``/`` by a
dense value or scalar, ``maximum(x, 0)``, unary functions); ``+``/``-`` with a dense array
or a non-zero scalar give a dense ``Array``.  Two sparse operands of the same shape are
combined over the union of their patterns (duplicates summed): eagerly the result has the
exact number of entries, under ``jax.jit`` ``nse(a) + nse(b)`` (extra slots are padding);
the union is :mod:`.union`.  Division keeps implicit zeros as zeros (like
``jax.experimental.sparse``), even where the divisor is zero.
"""

from __future__ import annotations


import numpy as np
from jax import lax

import laxarray.array_api as _la
from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.jaxapi import in_wide_mode, is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcast_shapes2_cached
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K
from laxarray.sparse._base import is_sparse
from laxarray.sparse.bcoo_convert import todense_raw
from laxarray.sparse.ops.reshape import broadcast_to
from laxarray.sparse.ops.union import sparse_sparse

# The numpydoc parts the binary operations share (filled in by ``fill``).
_OPERANDS = """
Parameters
----------
x1, x2 : BCOO, BCSR, array_like or scalar
    The operands, at least one of them sparse."""

_RAISES = """
Raises
------
TypeError
    If an operand is not array_like, BCOO or BCSR."""

# add's and subtract's
_SUM_RAISES_NOTES = _RAISES + """
ValueError
    If two sparse operands differ in shape, or a dense one does not broadcast.

Notes
-----
Static under ``jax.jit``: none."""

# maximum's and minimum's
_EXTREMUM = """
Returns
-------
BCOO, BCSR or Array
    Two sparse operands of one shape, or a sparse one and the scalar 0: a sparse array
    (implicit zeros count as 0).  With a dense array or a non-zero scalar: the dense
    ``Array``.

""" + _RAISES.strip("\n") + """
ValueError
    If the shapes do not match (broadcast).

Notes
-----
Static under ``jax.jit``: none."""

_UNION = """
Two sparse operands: eagerly the result stores exactly the coordinates of the union; under
``jax.jit`` ``nse(x1) + nse(x2)`` entries (the extra slots padding)."""

_HOST_PATH = """
Two 2-D operands without batch or dense dimensions take the CPU host path (SciPy's CSR
add; see :mod:`laxarray.sparse.ops.union_host`) where the kernel helper's gate lets it."""



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
@fill(raises=_RAISES, union=_UNION)
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

    {raises}
    ValueError
        If the shapes do not broadcast (two sparse operands: differ).

    Notes
    -----
    Static under ``jax.jit``: none.

    The operator ``x1 * x2`` is this function.
    {union}

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
@fill(raises=_RAISES)
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

    {raises}
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
@fill(params=_OPERANDS, raises_notes=_SUM_RAISES_NOTES, union=_UNION, host_path=_HOST_PATH)
def add(x1, x2, /):
    """Add elementwise, with a sparse operand: sparse + sparse is sparse, anything else dense.

    Array API: add (of the dense equivalents). jax: jax.experimental.sparse's ``add``.

    {params}

    Returns
    -------
    BCOO, BCSR or Array
        Two sparse operands of one shape: a sparse array on the union of their patterns. A
        sparse and a dense operand or scalar: the dense laxarray ``Array``.

    {raises_notes}

    The operator ``x1 + x2`` is this function.
    {union}
    {host_path}

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
@fill(params=_OPERANDS, raises_notes=_SUM_RAISES_NOTES, union=_UNION, host_path=_HOST_PATH)
def subtract(x1, x2, /):
    """Subtract elementwise, with a sparse operand: sparse - sparse is sparse, anything else dense.

    Array API: subtract (of the dense equivalents). jax: jax.experimental.sparse's ``sub``.

    {params}

    Returns
    -------
    BCOO, BCSR or Array
        As :func:`add`: sparse for two sparse operands, else the dense ``Array``.

    {raises_notes}

    The operator ``x1 - x2`` is this function.
    {union}
    {host_path}
    Entries that cancel exactly are not stored, eagerly.

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
@fill(params=_OPERANDS, extremum=_EXTREMUM)
def maximum(x1, x2, /):
    """Return the elementwise maximum, with at least one sparse operand.

    Array API: maximum (of the dense equivalents). jax: jax.experimental.sparse's ``max``.

    {params}

    {extremum}

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
@fill(params=_OPERANDS, extremum=_EXTREMUM)
def minimum(x1, x2, /):
    """Return the elementwise minimum, with at least one sparse operand.

    Array API: minimum (of the dense equivalents). jax: jax.experimental.sparse's ``min``.

    {params}

    {extremum}

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> a = sp.fromdense([[0.0, 1.0], [-2.0, 0.0]])
    >>> sp.minimum(a, 0).todense()
    Array([[ 0.,  0.],
           [-2.,  0.]])
    >>> sp.minimum(a, la.full((2, 2), 0.5))
    Array([[ 0. ,  0.5],
           [-2. ,  0. ]])
    """
    return _extremum("minimum", _la.minimum, lax.min, x1, x2)



__all__ = ["map_values", "astype", "multiply", "divide", "add", "subtract", "maximum",
           "minimum", "dense_at_pattern", "unique", "with_data", "Array"]
