"""Products and matrix views: matmul, tensordot, vecdot, matrix_transpose (the main
namespace's functions), outer, cross, diagonal, trace and NumPy's multi_dot.

These keep integer dtypes (promotion follows the standard's table); nothing is converted
to floating point.
"""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_int
from laxarray.array_api._calls import call
from laxarray.array_api import _views
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._ufunc import binary_operands, cast_broadcast
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api.linear_algebra import matmul, matrix_transpose, tensordot, vecdot
from laxarray.array_api.statistical import accumulation_dtype
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg._operands import raw
from laxarray._core.jaxapi import in_wide_mode
from laxarray._core.jax_regions import in_wide_region


def _numeric_pair(fn, x1, x2):
    for name, x in (("x1", x1), ("x2", x2)):
        if _dt.scalar_pytype(x) is not None:
            fail(TypeError, fn, f"an array for '{name}' (not a scalar)", x)
    v1, v2, dt = binary_operands(fn, x1, x2)
    _dt.check_category(fn, "x1, x2", dt, "numeric")
    return v1, v2, dt


@kernel(static=("dtype",))
def _outer_kernel(a, b, *, dtype):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    return lax.mul(lax.expand_dims(a, (1,)), lax.expand_dims(b, (0,)))


@in_wide_region
def outer(x1, x2, /):
    """Compute the outer product of two vectors.

    Array API: linalg.outer. NumPy: numpy.linalg.outer.

    Parameters
    ----------
    x1 : array_like
        The first vector, of size ``N``.
    x2 : array_like
        The second vector, of size ``M``.

    Returns
    -------
    Array
        ``x1[:, None] * x2[None, :]``, of shape ``(N, M)`` and the promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like or of no numeric or bool dtype.
    ValueError
        If an operand is not 1-D.

    Notes
    -----
    Static under ``jax.jit``: none.

    The standard's and NumPy 2's ``numpy.linalg.outer`` (``numpy.outer`` flattens its
    operands instead).

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.outer(la.asarray([1, 2]), la.asarray([1, 10, 100]))
    Array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    v1, v2, dt = _numeric_pair("outer", x1, x2)
    for name, v in (("x1", v1), ("x2", v2)):
        if v.ndim != 1:
            fail(ValueError, "outer", f"a 1-D array for '{name}'", v)
    return call(_outer_kernel, v1, v2, dtype=dt)


@kernel(static=("dtype", "axis", "shape"))
def _cross_kernel(a, b, *, dtype, axis, shape):
    a, b = cast_broadcast(a, dtype, shape), cast_broadcast(b, dtype, shape)
    a0, a1, a2 = (lax.index_in_dim(a, i, axis) for i in range(3))
    b0, b1, b2 = (lax.index_in_dim(b, i, axis) for i in range(3))
    c0 = lax.sub(lax.mul(a1, b2), lax.mul(a2, b1))
    c1 = lax.sub(lax.mul(a2, b0), lax.mul(a0, b2))
    c2 = lax.sub(lax.mul(a0, b1), lax.mul(a1, b0))
    return lax.concatenate([c0, c1, c2], axis)


@in_wide_region
def cross(x1, x2, /, *, axis=-1):
    """Compute the cross product of 3-element vectors.

    Array API: linalg.cross. NumPy: numpy.linalg.cross.

    Parameters
    ----------
    x1, x2 : array_like
        The operands, of size 3 along ``axis``; the other axes broadcast together (the
        vector axis itself does not).
    axis : int, optional
        The axis holding the vectors, counted from the end (the standard's rule): a negative
        int; a non-negative one is accepted only when both operands have the same rank.
        Default -1.

    Returns
    -------
    Array
        The cross products, of the broadcast shape and the promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like or of no numeric or bool dtype.
    ValueError
        If an operand has not size 3 along ``axis``, ``axis`` is out of range, or the other
        axes do not broadcast.

    Notes
    -----
    Static under ``jax.jit``: ``axis``.

    As ``numpy.linalg.cross``, only 3-element vectors (``numpy.cross`` also takes 2-element
    ones).

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.cross(la.asarray([1, 0, 0]), la.asarray([0, 1, 0]))
    Array([0, 0, 1])
    """
    v1, v2, dt = _numeric_pair("cross", x1, x2)
    ax = check_int("cross", axis, "axis")
    lo = min(v1.ndim, v2.ndim)
    if ax >= 0 and v1.ndim != v2.ndim or not -lo <= ax < lo:
        fail(ValueError, "cross", f"'axis' in [-{lo}, -1] (counted from the end)", axis)
    neg = ax - v1.ndim if ax >= 0 else ax
    if v1.shape[neg] != 3 or v2.shape[neg] != 3:
        fail(ValueError, "cross", "both inputs of size 3 along 'axis'",
             (tuple(v1.shape), tuple(v2.shape)))
    shape = broadcast_shapes2("cross", tuple(v1.shape), tuple(v2.shape))
    return call(_cross_kernel, v1, v2, dtype=dt, axis=len(shape) + neg, shape=shape)


@kernel(static=("offset",))
def _diagonal_kernel(x, *, offset):
    return M.diagonal(x, offset)


@in_wide_mode
def diagonal(x, /, *, offset=0):
    """Return the diagonals of matrices (the last two axes).

    Array API: linalg.diagonal. NumPy: numpy.linalg.diagonal.

    Parameters
    ----------
    x : array_like
        A stack of matrices, rank at least two.
    offset : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below.

    Returns
    -------
    Array
        The diagonals, of shape ``x.shape[:-2] + (K,)`` (``K`` the diagonal's length, 0 for
        an offset beyond the matrix) and ``x``'s dtype: a read-only view, as NumPy's.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``offset`` is not an integer.
    ValueError
        If ``x`` has rank below two.

    Notes
    -----
    Static under ``jax.jit``: ``offset``.

    Any dtype.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]])
    >>> la.linalg.diagonal(a)
    Array([1, 4])
    >>> la.linalg.diagonal(a, offset=1)
    Array([2])
    """
    v = raw("diagonal", x)
    if v.ndim < 2:
        fail(ValueError, "diagonal", "an array of rank >= 2 for 'x'", x)
    offset = check_int("diagonal", offset, "offset")
    out = call(_diagonal_kernel, v, offset=offset)
    return _views.diagonal_view(x if isinstance(x, Array) else wrap(v), out, offset,
                                v.ndim - 2, v.ndim - 1)


@kernel(static=("offset", "dtype"))
def _trace_kernel(x, *, offset, dtype):
    d = lax.convert_element_type(M.diagonal(x, offset), dtype)
    return lax.reduce_sum(d, (d.ndim - 1,))


@in_wide_region
def trace(x, /, *, offset=0, dtype=None):
    """Return the sum along a diagonal of matrices (the last two axes).

    Array API: linalg.trace. NumPy: numpy.linalg.trace.

    Parameters
    ----------
    x : array_like
        A stack of matrices, rank at least two, of a numeric dtype.
    offset : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below.
    dtype : dtype, optional
        The dtype to sum in and return; default as :func:`laxarray.sum`'s (smaller integers
        accumulate in the default integer dtype of their signedness).

    Returns
    -------
    Array
        The traces, of shape ``x.shape[:-2]``; 0 for an offset beyond the matrix.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of no numeric dtype (bool is refused), ``offset`` is
        not an integer, or ``dtype`` is not one ``x`` can be summed in.
    ValueError
        If ``x`` has rank below two.

    Notes
    -----
    Static under ``jax.jit``: ``offset``, ``dtype``.

    The matrices are the last two axes (``numpy.trace`` takes ``axis1``/``axis2`` and
    defaults to the first two).

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1, 2], [3, 4]], dtype=la.int8)
    >>> la.linalg.trace(a)
    Array(5)
    >>> la.linalg.trace(a).dtype
    dtype('int64')
    """
    v = raw("trace", x)
    if v.ndim < 2:
        fail(ValueError, "trace", "an array of rank >= 2 for 'x'", x)
    _dt.check_category("trace", "x", v.dtype, "numeric")
    offset = check_int("trace", offset, "offset")
    dt = accumulation_dtype("trace", v.dtype, dtype)
    return call(_trace_kernel, v, offset=offset, dtype=dt)


def _chain_order(dims):
    """Optimal parenthesization of a matrix chain with dimensions ``dims`` (classic DP)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def build(i, j):
        return i if i == j else (build(i, split[i][j]), build(split[i][j] + 1, j))
    return build(0, n - 1)


@kernel(static=("dtype", "order", "first_vec", "last_vec"))
def _multi_dot_kernel(*arrays, dtype, order, first_vec, last_vec):
    mats = [lax.convert_element_type(a, dtype) for a in arrays]
    if first_vec:
        mats[0] = lax.expand_dims(mats[0], (0,))
    if last_vec:
        mats[-1] = lax.expand_dims(mats[-1], (1,))

    def run(node):
        if isinstance(node, int):
            return mats[node]
        return lax.dot(run(node[0]), run(node[1]))
    out = run(order)
    if last_vec:
        out = lax.squeeze(out, (1,))
    if first_vec:
        out = lax.squeeze(out, (0,))
    return out


@in_wide_region
def multi_dot(arrays, /):
    """Compute the product of a chain of matrices, in the cheapest order.

    Array API: (not in the standard). NumPy: numpy.linalg.multi_dot.

    Parameters
    ----------
    arrays : sequence of array_like
        Two or more operands: 2-D, except that the first may be 1-D (a row vector) and the
        last 1-D (a column vector).

    Returns
    -------
    Array
        The product, of the promoted dtype; a 1-D first or last operand's axis is removed.

    Raises
    ------
    TypeError
        If ``arrays`` is not a list or tuple, or an operand is not array_like.
    ValueError
        If there are fewer than two operands, one has the wrong rank, or neighbours' shapes
        do not align.

    Notes
    -----
    Static under ``jax.jit``: none (the order is chosen from the static shapes).

    NumPy's ``out`` is not accepted.

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.multi_dot([la.ones((2, 3)), la.ones((3, 4)), la.ones(4)])
    Array([12., 12.])
    """
    if not isinstance(arrays, (list, tuple)):
        fail(TypeError, "multi_dot", "a sequence of arrays for 'arrays'", arrays)
    if len(arrays) < 2:
        fail(ValueError, "multi_dot", "at least two arrays", len(arrays))
    vs = [raw("multi_dot", a, "arrays") for a in arrays]
    dt = vs[0].dtype
    for v in vs[1:]:
        dt = _dt.promote_types(dt, v.dtype)
    first_vec, last_vec = vs[0].ndim == 1, vs[-1].ndim == 1
    shapes = [tuple(v.shape) for v in vs]
    if first_vec:
        shapes[0] = (1,) + shapes[0]
    if last_vec:
        shapes[-1] = shapes[-1] + (1,)
    for i, s in enumerate(shapes):
        if len(s) != 2:
            fail(ValueError, "multi_dot", f"2-D arrays (1-D allowed first and last); array {i}",
                 vs[i])
    for i in range(len(shapes) - 1):
        if shapes[i][1] != shapes[i + 1][0]:
            fail(ValueError, "multi_dot", f"aligned shapes at arrays {i} and {i + 1}",
                 (shapes[i], shapes[i + 1]))
    dims = [s[0] for s in shapes] + [shapes[-1][1]]
    order = _chain_order(dims)
    return call(_multi_dot_kernel, *vs, dtype=dt, order=order, first_vec=first_vec,
                last_vec=last_vec)


__all__ = ["matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "cross", "diagonal",
           "trace", "multi_dot"]
