"""Inverses, solves and determinants on the LU factorization: solve, inv, det, slogdet,
matrix_power, tensorinv, tensorsolve (the SVD-based pinv, matrix_rank and lstsq are
:mod:`laxarray.linalg.svd_solvers`).

All factor with ``jax.lax.linalg.lu`` (partial pivoting).  As in NumPy, an eager
``solve``/``inv``/``tensorsolve``/``tensorinv``/``matrix_power(x, n < 0)`` of a singular
matrix (an exact zero pivot) raises ``LinAlgError("Singular matrix")`` (see ``_status``);
under ``jax.jit`` they give inf/NaN entries instead (``laxarray.checkify.linalg_checks``
reports them).  ``det`` of a singular matrix is 0 and ``slogdet`` ``(0, -inf)``, never an error.
All are differentiable with ``laxarray.grad`` at non-singular points.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import LinAlgError, fail
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_int, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.linalg import _docs
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg import _status as status
from laxarray.linalg._operands import SlogdetResult, float_dtype, matrix_operand, raw


# ---- solve / inv -----------------------------------------------------------------------------
@kernel(static=("dtype", "vector", "batch"))
def _solve_kernel(a, b, *, dtype, vector, batch):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    if vector:
        b = lax.expand_dims(b, (b.ndim,))
    lu, _, perm = M.lu_factor(a)
    singular = status.lu_singular(lu)
    lu, perm = M.broadcast_batch(lu, batch), _broadcast_vec(perm, batch)
    x = M.lu_solve(lu, perm, M.broadcast_batch(b, batch))
    return (lax.squeeze(x, (x.ndim - 1,)) if vector else x), singular


def _broadcast_vec(v, batch):
    shape = tuple(batch) + (v.shape[-1],)
    if tuple(v.shape) == shape:
        return v
    return lax.broadcast_in_dim(v, shape, tuple(range(len(shape) - v.ndim, len(shape))))


@in_wide_region
@fill(dtypes=_docs.DTYPES, eager=_docs.eager("a singular matrix"))
def solve(x1, x2, /):
    """Solve the linear system ``x1 @ x = x2`` for square, non-singular ``x1``.

    Array API: linalg.solve. NumPy: numpy.linalg.solve.

    Parameters
    ----------
    x1 : array_like
        The coefficient matrices ``(..., M, M)``.
    x2 : array_like
        The right-hand sides: ``(M,)``, one vector for every matrix of ``x1``, or ``(..., M,
        K)``, whose batch dimensions broadcast with ``x1``'s.

    Returns
    -------
    Array
        The solution: ``x1.shape[:-2] + (M,)`` for a vector ``x2``, else the broadcast batch
        shape ``+ (M, K)``; of the promoted floating dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like or of a dtype linalg does not compute in here.
    ValueError
        If ``x2`` is 0-d, its rows do not match ``M``, or the batch shapes do not broadcast.
    LinAlgError
        If ``x1`` has rank below two or non-square matrices; eagerly, if a matrix is
        singular (an exact zero pivot of its LU factorization): ``"Singular matrix"``.

    Notes
    -----
    Static under ``jax.jit``: none.

    LU factorization with partial pivoting (``jax.lax.linalg.lu``).
    {dtypes}
    {eager}
    Differentiable with ``laxarray.grad`` at non-singular points.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.linalg.solve(a, la.asarray([2.0, 1.0]))
    Array([0.5, 0. ])
    >>> la.linalg.solve(a, la.eye(2)) @ a
    Array([[1., 0.],
           [0., 1.]])
    """
    a, _ = matrix_operand("solve", x1, "x1", square=True)
    b = raw("solve", x2, "x2")
    dt = float_dtype(_dt.promote_types(a.dtype, b.dtype))
    m = a.shape[-1]
    if b.ndim == 0:
        fail(ValueError, "solve", "an array of rank >= 1 for 'x2'", x2)
    vector = b.ndim == 1
    rows = b.shape[0] if vector else b.shape[-2]
    if rows != m:
        fail(ValueError, "solve", f"'x2' with {m} rows to match the {m}x{m} matrices of 'x1'",
             x2)
    batch = tuple(a.shape[:-2]) if vector else broadcast_shapes2(
        "solve", tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    x, singular = call(_solve_kernel, a, b, dtype=dt, vector=vector, batch=batch)
    status.raise_if(singular, status.SINGULAR)
    return x


@kernel(static=("dtype",))
def _inv_kernel(a, *, dtype):
    a = lax.convert_element_type(a, dtype)
    lu, _, perm = M.lu_factor(a)
    return (M.lu_solve(lu, perm, M.identity(a.shape[:-2], a.shape[-1], dtype)),
            status.lu_singular(lu))


@in_wide_region
@fill(params=_docs.PARAMS_SQUARE, raises=_docs.RAISES_TYPE, dtypes=_docs.DTYPES,
      eager=_docs.eager("a singular matrix"))
def inv(x, /):
    """Compute the inverse of square matrices.

    Array API: linalg.inv. NumPy: numpy.linalg.inv.

    {params}

    Returns
    -------
    Array
        The inverses, of ``x``'s shape and floating dtype.

    {raises}
    LinAlgError
        If ``x`` has rank below two or its matrices are not square.  Eagerly, if a matrix is
        singular: ``"Singular matrix"``.

    Notes
    -----
    Static under ``jax.jit``: none.

    LU factorization with partial pivoting.
    {dtypes}
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.inv(la.asarray([[4.0, 2.0], [2.0, 3.0]]))
    Array([[ 0.375, -0.25 ],
           [-0.25 ,  0.5  ]])
    """
    v, dt = matrix_operand("inv", x, square=True)
    out, singular = call(_inv_kernel, v, dtype=dt)
    status.raise_if(singular, status.SINGULAR)
    return out


# ---- determinants ----------------------------------------------------------------------------
@kernel(static=("dtype", "log"))
def _det_kernel(a, *, dtype, log):
    a = lax.convert_element_type(a, dtype)
    if a.shape[-1] == 0:
        ones = lax.full(a.shape[:-2], 1, dtype)
        return (ones, lax.full(a.shape[:-2], 0, M.real(ones).dtype)) if log else ones
    lu, pivots, _ = M.lu_factor(a)
    if log:
        return M.lu_sign_logabs(lu, pivots)
    idx = lax.broadcasted_iota(pivots.dtype, pivots.shape, pivots.ndim - 1)
    swaps = lax.reduce_sum(lax.convert_element_type(lax.ne(pivots, idx), np.int32),
                           (pivots.ndim - 1,))
    odd = lax.convert_element_type(lax.rem(swaps, np.int32(2)), dtype)
    sign = lax.sub(lax.full_like(odd, 1), lax.add(odd, odd))
    diag = M.diagonal(lu)
    det = lax.mul(sign, lax.reduce_prod(diag, (lu.ndim - 2,)))
    # an exact zero on U's diagonal gives +0.0, as NumPy's (sign 0), never -0.0
    singular = lax.reduce_or(lax.eq(diag, lax.full_like(diag, 0)), (diag.ndim - 1,))
    return lax.select(singular, lax.full_like(det, 0), det)


@in_wide_region
@fill(params=_docs.PARAMS_SQUARE, raises=_docs.RAISES_TYPE, linalg_error=_docs.NOT_SQUARE,
      dtypes=_docs.DTYPES)
def det(x, /):
    """Compute the determinant of square matrices.

    Array API: linalg.det. NumPy: numpy.linalg.det.

    {params}

    Returns
    -------
    Array
        The determinants, of shape ``x.shape[:-2]`` and ``x``'s floating dtype.

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    The product of the LU factor's diagonal, with the sign of the pivoting.  A singular
    matrix (an exact zero in the LU factor) has determinant ``0.`` (never ``-0.``, as
    NumPy), not an error.  An empty matrix has determinant 1.
    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.det(la.asarray([[4.0, 2.0], [2.0, 3.0]]))
    Array(8.)
    >>> la.linalg.det(la.ones((3, 2, 2))).shape
    (3,)
    """
    v, dt = matrix_operand("det", x, square=True)
    return call(_det_kernel, v, dtype=dt, log=False)


@in_wide_region
@fill(params=_docs.PARAMS_SQUARE, raises=_docs.RAISES_TYPE, linalg_error=_docs.NOT_SQUARE,
      dtypes=_docs.DTYPES)
def slogdet(x, /):
    """Compute the sign and the natural logarithm of the absolute determinant of square matrices.

    Array API: linalg.slogdet. NumPy: numpy.linalg.slogdet.

    {params}

    Returns
    -------
    SlogdetResult
        A named tuple ``(sign, logabsdet)``: ``sign`` of ``x``'s floating dtype (a unit
        complex number for complex input), 0 for a singular matrix; ``logabsdet`` real,
        ``-inf`` for a singular matrix.  Both of shape ``x.shape[:-2]``.

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    ``sign * exp(logabsdet)`` is the determinant, without the overflow of :func:`det`.  A
    singular matrix gives ``(0, -inf)``, never an error.
    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.slogdet(la.asarray([[4.0, 2.0], [2.0, 3.0]]))
    SlogdetResult(sign=Array(1.), logabsdet=Array(2.07944154))
    """
    v, dt = matrix_operand("slogdet", x, square=True)
    sign, logabs = call(_det_kernel, v, dtype=dt, log=True)
    return SlogdetResult(sign, logabs)


# ---- matrix_power ----------------------------------------------------------------------------
@kernel(static=("n", "dtype"))
def _matrix_power_kernel(a, *, n, dtype):
    work = _dt.default_int() if dtype == _dt.bool_ else dtype
    a = lax.convert_element_type(a, work)
    size = a.shape[-1]
    singular = lax.full((), False, _dt.bool_)
    if n < 0:
        lu, _, perm = M.lu_factor(a)
        singular = status.lu_singular(lu)
        a = M.lu_solve(lu, perm, M.identity(a.shape[:-2], size, work))
        n = -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else M.mm(result, base)
        n >>= 1
        if n:
            base = M.mm(base, base)
    if result is None:
        result = M.identity(a.shape[:-2], size, work)
    if dtype == _dt.bool_:
        return lax.ne(result, lax.full_like(result, 0)), singular
    return result, singular


@in_wide_region
@fill(params=_docs.PARAMS_SQUARE, eager=_docs.eager("for ``n < 0`` a singular matrix"))
def matrix_power(x, n, /):
    """Raise square matrices to an integer power by repeated squaring.

    Array API: linalg.matrix_power. NumPy: numpy.linalg.matrix_power.

    {params}
    n : int
        The exponent: 0 gives identity matrices, a negative one powers of the inverse.

    Returns
    -------
    Array
        ``x`` to the ``n``-th power, of ``x``'s shape.  For ``n >= 0`` of ``x``'s dtype (an
        integer or bool one is kept); for ``n < 0`` of its floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``n`` is not an integer (bool included).
    LinAlgError
        If ``x`` has rank below two or its matrices are not square.  Eagerly, for ``n < 0``,
        if a matrix is singular: ``"Singular matrix"``.

    Notes
    -----
    Static under ``jax.jit``: ``n``.

    About ``2 * log2(|n|)`` matrix products.
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.matrix_power(la.asarray([[1, 1], [0, 1]]), 3)
    Array([[1, 3],
           [0, 1]])
    >>> la.linalg.matrix_power(la.asarray([[4.0, 2.0], [2.0, 3.0]]), -1)
    Array([[ 0.375, -0.25 ],
           [-0.25 ,  0.5  ]])
    """
    v = raw("matrix_power", x)
    if v.ndim < 2 or v.shape[-1] != v.shape[-2]:
        fail(LinAlgError, "matrix_power", "square matrices in the last two axes of 'x'", x)
    if isinstance(n, bool):
        fail(TypeError, "matrix_power", "an integer for 'n'", n)
    try:
        n = operator.index(n)
    except TypeError:
        fail(TypeError, "matrix_power", "an integer for 'n'", n)
    dt = v.dtype if n >= 0 else float_dtype(v.dtype)
    out, singular = call(_matrix_power_kernel, v, n=n, dtype=dt)
    status.raise_if(singular, status.SINGULAR)
    return out


# ---- tensor forms ----------------------------------------------------------------------------
@kernel(static=("dtype", "shape2", "out_shape"))
def _tensorinv_kernel(a, *, dtype, shape2, out_shape):
    a = lax.reshape(lax.convert_element_type(a, dtype), shape2)
    lu, _, perm = M.lu_factor(a)
    return (lax.reshape(M.lu_solve(lu, perm, M.identity((), shape2[0], dtype)), out_shape),
            status.lu_singular(lu))


@in_wide_region
@fill(dtypes=_docs.DTYPES, eager=_docs.eager("a singular matrix"))
def tensorinv(x, /, ind=2):
    """Compute the inverse of an N-d array for :func:`tensordot` over ``ind`` axes.

    Array API: (not in the standard). NumPy: numpy.linalg.tensorinv.

    Parameters
    ----------
    x : array_like
        The array to invert; ``prod(x.shape[:ind]) == prod(x.shape[ind:])``.
    ind : int, optional
        The number of leading axes that form the "rows"; default 2, at least 1.

    Returns
    -------
    Array
        The inverse, of shape ``x.shape[ind:] + x.shape[:ind]`` and ``x``'s floating dtype:
        ``tensordot(inv, x, ind)`` is the identity.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or ``ind`` is not an integer.
    ValueError
        If ``ind`` is below 1 or above the rank, or the two products of dimensions differ.
    LinAlgError
        Eagerly, if the reshaped matrix is singular: ``"Singular matrix"``.

    Notes
    -----
    Static under ``jax.jit``: ``ind``.

    {dtypes}
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.reshape(la.eye(4), (4, 2, 2))
    >>> la.linalg.tensorinv(a, ind=1).shape
    (2, 2, 4)
    """
    v = raw("tensorinv", x)
    ind = check_int("tensorinv", ind, "ind", minimum=1)
    if ind > v.ndim:
        fail(ValueError, "tensorinv", f"'ind' <= the rank {v.ndim}", ind)
    left, right = math.prod(v.shape[:ind]), math.prod(v.shape[ind:])
    if left != right:
        fail(ValueError, "tensorinv", "prod(x.shape[:ind]) == prod(x.shape[ind:])", x)
    out_shape = tuple(v.shape[ind:]) + tuple(v.shape[:ind])
    out, singular = call(_tensorinv_kernel, v, dtype=float_dtype(v.dtype),
                         shape2=(left, right), out_shape=out_shape)
    status.raise_if(singular, status.SINGULAR)
    return out


@kernel(static=("dtype", "perm", "size", "out_shape"))
def _tensorsolve_kernel(a, b, *, dtype, perm, size, out_shape):
    a = lax.reshape(lax.transpose(lax.convert_element_type(a, dtype), perm), (size, size))
    b = lax.reshape(lax.convert_element_type(b, dtype), (size, 1))
    lu, _, p = M.lu_factor(a)
    return lax.reshape(M.lu_solve(lu, p, b), out_shape), status.lu_singular(lu)


@in_wide_region
@fill(dtypes=_docs.DTYPES, eager=_docs.eager("a singular matrix"))
def tensorsolve(x1, x2, /, axes=None):
    """Solve ``tensordot(x1, x, axes=x.ndim) = x2`` for ``x``.

    Array API: (not in the standard). NumPy: numpy.linalg.tensorsolve.

    Parameters
    ----------
    x1 : array_like
        The coefficient tensor; ``prod(x1.shape[:x2.ndim])`` equals the product of its other
        dimensions.
    x2 : array_like
        The right-hand side, of rank at most ``x1``'s and size that product.
    axes : sequence of ints, optional
        Axes of ``x1`` moved to the end, in order, before solving; default none.

    Returns
    -------
    Array
        The solution, of shape ``x1.shape[x2.ndim:]`` (after the move of ``axes``) and the
        promoted floating dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``axes`` is not a sequence.
    ValueError
        If ``x2`` has the higher rank or the shapes do not match as above.
    AxisError
        If an entry of ``axes`` is out of range.
    LinAlgError
        Eagerly, if the reshaped matrix is singular: ``"Singular matrix"``.

    Notes
    -----
    Static under ``jax.jit``: ``axes``.

    {dtypes}
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.tensorsolve(la.eye(3), la.asarray([1.0, 2.0, 3.0]))
    Array([1., 2., 3.])
    """
    a = raw("tensorsolve", x1, "x1")
    b = raw("tensorsolve", x2, "x2")
    nd = a.ndim
    perm = list(range(nd))
    if axes is not None:
        if not isinstance(axes, (tuple, list)):
            fail(TypeError, "tensorsolve", "a sequence of ints or None for 'axes'", axes)
        for k in axes:
            k = normalize_axis("tensorsolve", k, nd, "axes")
            perm.remove(k)
            perm.append(k)
    shape = tuple(a.shape[i] for i in perm)
    if b.ndim > nd:
        fail(ValueError, "tensorsolve", "'x2' of rank <= the rank of 'x1'", x2)
    out_shape = shape[b.ndim:]
    size = math.prod(out_shape)
    if math.prod(shape) != size * size or math.prod(b.shape) != size:
        fail(ValueError, "tensorsolve", "prod(x1.shape[:x2.ndim]) == "
             "prod(x1.shape[x2.ndim:]) == prod(x2.shape)", (tuple(a.shape), tuple(b.shape)))
    dt = float_dtype(_dt.promote_types(a.dtype, b.dtype))
    out, singular = call(_tensorsolve_kernel, a, b, dtype=dt, perm=tuple(perm), size=size,
                         out_shape=out_shape)
    status.raise_if(singular, status.SINGULAR)
    return out


__all__ = ["solve", "inv", "det", "slogdet", "matrix_power", "tensorinv", "tensorsolve"]
