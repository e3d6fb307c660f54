"""Inverses, solves and determinants: solve, inv, det, slogdet, matrix_power, pinv,
matrix_rank, lstsq, tensorinv, tensorsolve.

``solve``/``inv``/``det``/``slogdet`` factor with ``jax.lax.linalg.lu`` (partial pivoting);
``pinv``/``matrix_rank``/``lstsq`` use ``jax.lax.linalg.svd``.  As in NumPy, an eager
``solve``/``inv``/``tensorsolve``/``tensorinv``/``matrix_power(x, n < 0)`` of a singular
matrix (an exact zero pivot) raises ``LinAlgError("Singular matrix")`` and an SVD that does
not converge (NaN input) ``LinAlgError("SVD did not converge")`` (see ``_status``); under
``jax.jit`` they give inf/NaN entries instead (``laxarray.checkify.linalg_checks`` reports
them).  ``det`` of a singular matrix is 0 and ``slogdet`` ``(0, -inf)``, never an error.
All are differentiable with ``laxarray.grad`` at non-singular points.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import LinAlgError, fail
from laxarray._core.host_memory import to_like
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jaxapi.regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_int, normalize_axis
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg import _status as status
from laxarray.linalg._operands import (LstsqResult, SlogdetResult, check_rtol, float_dtype,
                                       matrix_operand, raw)


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

    LU factorization with partial pivoting (``jax.lax.linalg.lu``).  Bool and integer input
    is computed in the default floating dtype (float64 where the backend has it);
    float32/complex64 stay single precision.  Half precision raises ``TypeError`` (LAPACK
    has none, NumPy refuses it too), and so does float64/complex128 on a TPU, whose linalg
    computes in float32/complex64 only.  Called eagerly, a singular matrix raises
    ``LinAlgError`` with NumPy's message, after computing; under ``jax.jit`` and ``vmap``
    nothing can be raised: the result holds inf/NaN, and ``laxarray.checkify.linalg_checks``
    reports the failure.  Differentiable with ``laxarray.grad`` at non-singular points.

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
def inv(x, /):
    """Compute the inverse of square matrices.

    Array API: linalg.inv. NumPy: numpy.linalg.inv.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.

    Returns
    -------
    Array
        The inverses, of ``x``'s shape and floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here.
    LinAlgError
        If ``x`` has rank below two or its matrices are not square.  Eagerly, if a matrix is
        singular: ``"Singular matrix"``.

    Notes
    -----
    Static under ``jax.jit``: none.

    LU factorization with partial pivoting.  Bool and integer input is computed in the
    default floating dtype (float64 where the backend has it); float32/complex64 stay single
    precision.  Half precision raises ``TypeError`` (LAPACK has none, NumPy refuses it too),
    and so does float64/complex128 on a TPU, whose linalg computes in float32/complex64
    only.  Called eagerly, a singular matrix raises ``LinAlgError`` with NumPy's message,
    after computing; under ``jax.jit`` and ``vmap`` nothing can be raised: the result holds
    inf/NaN, and ``laxarray.checkify.linalg_checks`` reports the failure.

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
def det(x, /):
    """Compute the determinant of square matrices.

    Array API: linalg.det. NumPy: numpy.linalg.det.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.

    Returns
    -------
    Array
        The determinants, of shape ``x.shape[:-2]`` and ``x``'s floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here.
    LinAlgError
        If ``x`` has rank below two or its matrices are not square.

    Notes
    -----
    Static under ``jax.jit``: none.

    The product of the LU factor's diagonal, with the sign of the pivoting.  A singular
    matrix (an exact zero in the LU factor) has determinant ``0.`` (never ``-0.``, as
    NumPy), not an error.  An empty matrix has
    determinant 1.  Bool and integer input is computed in the default floating dtype
    (float64 where the backend has it); float32/complex64 stay single precision.  Half
    precision raises ``TypeError`` (LAPACK has none, NumPy refuses it too), and so does
    float64/complex128 on a TPU, whose linalg computes in float32/complex64 only.

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
def slogdet(x, /):
    """Compute the sign and the natural logarithm of the absolute determinant of square matrices.

    Array API: linalg.slogdet. NumPy: numpy.linalg.slogdet.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.

    Returns
    -------
    SlogdetResult
        A named tuple ``(sign, logabsdet)``: ``sign`` of ``x``'s floating dtype (a unit
        complex number for complex input), 0 for a singular matrix; ``logabsdet`` real,
        ``-inf`` for a singular matrix.  Both of shape ``x.shape[:-2]``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here.
    LinAlgError
        If ``x`` has rank below two or its matrices are not square.

    Notes
    -----
    Static under ``jax.jit``: none.

    ``sign * exp(logabsdet)`` is the determinant, without the overflow of :func:`det`.  A
    singular matrix gives ``(0, -inf)``, never an error.  Bool and integer input is computed
    in the default floating dtype (float64 where the backend has it); float32/complex64 stay
    single precision.  Half precision raises ``TypeError`` (LAPACK has none, NumPy refuses
    it too), and so does float64/complex128 on a TPU, whose linalg computes in
    float32/complex64 only.

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
def matrix_power(x, n, /):
    """Raise square matrices to an integer power by repeated squaring.

    Array API: linalg.matrix_power. NumPy: numpy.linalg.matrix_power.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.
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

    About ``2 * log2(|n|)`` matrix products.  Called eagerly, for ``n < 0`` a singular
    matrix raises ``LinAlgError`` with NumPy's message, after computing; under ``jax.jit``
    and ``vmap`` nothing can be raised: the result holds inf/NaN, and
    ``laxarray.checkify.linalg_checks`` reports the failure.

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


# ---- SVD based: pinv, matrix_rank, lstsq ----------------------------------------------------
def _cutoff(s, rtol_static, rtol_arr, shape, dtype, absolute=False):
    """The singular-value threshold ``(..., 1)``: ``rtol * max(s)`` (or ``tol`` if absolute)."""
    real = M.real(lax.full((), 0, dtype)).dtype
    if rtol_arr:  # (broadcast to the batch first: a 0-d rtol against a batch of matrices)
        r = lax.convert_element_type(rtol_arr[0], real)
        batch = s.shape[:-1]
        r = lax.broadcast_in_dim(r, batch, tuple(range(len(batch) - r.ndim, len(batch))))
        r = lax.expand_dims(r, (r.ndim,))
    else:
        value = rtol_static
        if value is None:
            value = max(shape[-2], shape[-1]) * M.eps(real)
        r = lax.full((), value, real)
    if absolute:
        return r
    smax = lax.reduce_max(s, (s.ndim - 1,)) if s.shape[-1] else lax.full(s.shape[:-1], 0, real)
    return lax.mul(lax.expand_dims(smax, (smax.ndim,)), r)


@kernel(static=("dtype", "rtol"))
def _pinv_kernel(a, *rtol_arr, dtype, rtol):
    a = lax.convert_element_type(a, dtype)
    u, s, vh = M.svd(a, full_matrices=False)
    failed = status.svd_failed(a, s)
    big = lax.gt(s, _cutoff(s, rtol, rtol_arr, a.shape, dtype))
    s_inv = lax.select(big, lax.div(lax.full_like(s, 1), lax.select(big, s, lax.full_like(s, 1))),
                       lax.full_like(s, 0))
    scaled = lax.mul(M.mH(u), lax.expand_dims(lax.convert_element_type(s_inv, dtype), (s.ndim,)))
    return M.mm(M.mH(vh), scaled), failed


@in_wide_region
def pinv(x, /, *, rtol=None, rcond=None):
    """Compute the Moore-Penrose pseudo-inverse of matrices from their SVD.

    Array API: linalg.pinv. NumPy: numpy.linalg.pinv.

    Parameters
    ----------
    x : array_like
        A stack of matrices ``(..., M, N)``, rank at least two.
    rtol : float or array_like, optional
        Singular values ``<= rtol * max(S)`` count as zero: a Python real number, or a real
        array broadcasting against ``x.shape[:-2]``.  Default ``max(M, N) * eps`` of the
        real dtype (the standard's; NumPy's default is ``1e-15``).
    rcond : float or array_like, optional
        NumPy's name for ``rtol``, with the same meaning; give at most one of the two.

    Returns
    -------
    Array
        The pseudo-inverses ``(..., N, M)``, of ``x``'s floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here, or
        ``rtol`` is an array of a non-real dtype.
    ValueError
        If both ``rtol`` and ``rcond`` are given, or an ``rtol`` array does not broadcast
        against the batch.
    LinAlgError
        If ``x`` has rank below two; eagerly, if the SVD does not converge (input with NaN):
        ``"SVD did not converge"``.

    Notes
    -----
    Static under ``jax.jit``: ``rtol`` and ``rcond`` when Python numbers (arrays are traced).

    NumPy's ``hermitian`` is not accepted.  Bool and integer input is computed in the
    default floating dtype (float64 where the backend has it); float32/complex64 stay single
    precision.  Half precision raises ``TypeError`` (LAPACK has none, NumPy refuses it too),
    and so does float64/complex128 on a TPU, whose linalg computes in float32/complex64
    only.  Called eagerly, an SVD that does not converge raises ``LinAlgError`` with NumPy's
    message, after computing; under ``jax.jit`` and ``vmap`` nothing can be raised: the
    result holds inf/NaN, and ``laxarray.checkify.linalg_checks`` reports the failure.

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.pinv(la.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Array([[0.04, 0.08],
           [0.08, 0.16]])
    """
    v, dt = matrix_operand("pinv", x)
    if rcond is not None and rtol is not None:
        fail(ValueError, "pinv", "at most one of 'rcond' and 'rtol'", (rcond, rtol))
    rs, ra = check_rtol("pinv", rtol if rcond is None else rcond, v.shape[:-2])
    out, failed = call(_pinv_kernel, v, *(() if ra is None else (ra,)), dtype=dt, rtol=rs)
    status.raise_if(failed, status.SVD_NOT_CONVERGED)
    return out


@kernel(static=("dtype", "rtol", "absolute"))
def _rank_kernel(a, *tol_arr, dtype, rtol, absolute):
    a = lax.convert_element_type(a, dtype)
    if a.ndim < 2:
        nz = lax.ne(a, lax.full_like(a, 0))
        return (lax.convert_element_type(lax.reduce_or(nz, tuple(range(a.ndim))), _dt.default_int()),
                lax.full((), False, _dt.bool_))
    s = M.svd(a, full_matrices=False, compute_uv=False)
    big = lax.gt(s, _cutoff(s, rtol, tol_arr, a.shape, dtype, absolute))
    return (lax.reduce_sum(lax.convert_element_type(big, _dt.default_int()), (s.ndim - 1,)),
            status.svd_failed(a, s))


@in_wide_region
def matrix_rank(x, /, *, rtol=None, tol=None):
    """Return the rank of matrices: the number of singular values above a threshold.

    Array API: linalg.matrix_rank. NumPy: numpy.linalg.matrix_rank.

    Parameters
    ----------
    x : array_like
        A stack of matrices ``(..., M, N)``; a 1-D or 0-d ``x`` has rank 1 unless it is all
        zero (NumPy's rule).
    rtol : float or array_like, optional
        Singular values ``<= rtol * max(S)`` do not count: a Python real number or a real
        array broadcasting against ``x.shape[:-2]``; default ``max(M, N) * eps``.
    tol : float or array_like, optional
        NumPy's absolute threshold instead: singular values ``<= tol`` do not count; give at
        most one of ``rtol`` and ``tol``.

    Returns
    -------
    Array
        The ranks, of shape ``x.shape[:-2]`` and the default integer dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or a tolerance is an array of a non-real dtype.
    ValueError
        If both ``rtol`` and ``tol`` are given, or a tolerance array does not broadcast
        against the batch.
    LinAlgError
        Eagerly, if the SVD does not converge (input with NaN): ``"SVD did not converge"``.

    Notes
    -----
    Static under ``jax.jit``: ``rtol`` and ``tol`` when Python numbers (arrays are traced).

    NumPy's ``hermitian`` is not accepted.  Bool and integer input is computed in the
    default floating dtype (float64 where the backend has it); float32/complex64 stay single
    precision.  Half precision raises ``TypeError`` (LAPACK has none, NumPy refuses it too),
    and so does float64/complex128 on a TPU, whose linalg computes in float32/complex64
    only.  Called eagerly, an SVD that does not converge raises ``LinAlgError`` with NumPy's
    message, after computing; under ``jax.jit`` and ``vmap`` nothing can be raised: the
    result holds inf/NaN, and ``laxarray.checkify.linalg_checks`` reports the failure.

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.matrix_rank(la.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Array(1)
    >>> la.linalg.matrix_rank(la.eye(3))
    Array(3)
    """
    v = raw("matrix_rank", x)
    dt = float_dtype(v.dtype)
    if tol is not None and rtol is not None:
        fail(ValueError, "matrix_rank", "at most one of 'tol' and 'rtol'", (tol, rtol))
    batch = v.shape[:-2] if v.ndim >= 2 else ()
    given = rtol if tol is None else tol
    rs, ra = check_rtol("matrix_rank", given, batch, "rtol" if tol is None else "tol")
    rank, failed = call(_rank_kernel, v, *(() if ra is None else (ra,)), dtype=dt, rtol=rs,
                        absolute=tol is not None)
    status.raise_if(failed, status.SVD_NOT_CONVERGED)
    return rank


@kernel(static=("dtype", "vector", "rcond", "batch"))
def _lstsq_kernel(a, b, *, dtype, vector, rcond, batch):
    a = M.broadcast_batch(lax.convert_element_type(a, dtype), batch)
    b = lax.convert_element_type(b, dtype)
    if vector:
        b = lax.expand_dims(b, (b.ndim,))
    b = M.broadcast_batch(b, batch)
    m, n = a.shape[-2], a.shape[-1]
    u, s, vh = M.svd(a, full_matrices=False)
    big = lax.gt(s, _cutoff(s, rcond, (), a.shape, dtype))
    rank = lax.reduce_sum(lax.convert_element_type(big, _dt.default_index()), (s.ndim - 1,))
    s_inv = lax.select(big, lax.div(lax.full_like(s, 1), lax.select(big, s, lax.full_like(s, 1))),
                       lax.full_like(s, 0))
    ub = lax.mul(M.mm(M.mH(u), b), lax.expand_dims(lax.convert_element_type(s_inv, dtype),
                                                      (s.ndim,)))
    x = M.mm(M.mH(vh), ub)
    if m > n:
        r = lax.sub(b, M.mm(a, x))
        resid = lax.reduce_sum(lax.square(lax.abs(r)), (r.ndim - 2,))
    else:
        resid = lax.full(tuple(batch) + (0,), 0, s.dtype)
    if vector:
        x = lax.squeeze(x, (x.ndim - 1,))
    return x, resid, rank, s, status.lstsq_failed(s)


@in_wide_region
def lstsq(x1, x2, /, rcond=None):
    """Return the least-squares solution of ``x1 @ x = x2`` (of minimum norm when rank-deficient).

    Array API: (not in the standard). NumPy: numpy.linalg.lstsq.

    Parameters
    ----------
    x1 : array_like
        The coefficient matrices ``(..., M, N)``.
    x2 : array_like
        The right-hand sides: ``(M,)`` or ``(..., M, K)``, whose batch dimensions broadcast
        with ``x1``'s.
    rcond : float, optional
        Singular values ``<= rcond * max(S)`` count as zero; a Python real number, default
        ``max(M, N) * eps`` (NumPy 2's).

    Returns
    -------
    LstsqResult
        A named tuple ``(x, residuals, rank, s)``: the solution ``(..., N)`` or ``(..., N,
        K)``; the squared 2-norms of ``x2 - x1 @ x`` per column, ``(..., K)`` (``(..., 1)``
        for a vector ``x2``) -- empty unless ``M > N`` and the rank is ``N``; the ranks
        (default index dtype); the singular values, descending.

    Raises
    ------
    TypeError
        If an operand is not array_like or of a dtype linalg does not compute in here, or
        ``rcond`` is not a Python real number.
    ValueError
        If ``x2`` is 0-d, its rows differ from ``M``, or the batch shapes do not broadcast.
    LinAlgError
        If ``x1`` has rank below two; eagerly, if the SVD does not converge (input with inf
        or NaN).

    Notes
    -----
    Static under ``jax.jit``: ``rcond``.

    Through the SVD.  Unlike NumPy, stacks of matrices are accepted.  Eagerly the rank
    decides whether ``residuals`` is empty, as in NumPy; under ``jax.jit``, where the rank
    is not known, ``residuals`` is returned whenever ``M > N``.  Bool and integer input is
    computed in the default floating dtype (float64 where the backend has it);
    float32/complex64 stay single precision.  Half precision raises ``TypeError`` (LAPACK
    has none, NumPy refuses it too), and so does float64/complex128 on a TPU, whose linalg
    computes in float32/complex64 only.  Called eagerly, an SVD that does not converge
    raises ``LinAlgError`` with NumPy's message, after computing; under ``jax.jit`` and
    ``vmap`` nothing can be raised: the result holds inf/NaN, and
    ``laxarray.checkify.linalg_checks`` reports the failure.

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> x, residuals, rank, s = la.linalg.lstsq(a, la.asarray([1.0, 2.0, 2.0]))
    >>> x
    Array([1.16666667, 0.5       ])
    >>> residuals, rank
    (Array([0.16666667]), Array(2))
    """
    a, _ = matrix_operand("lstsq", x1, "x1")
    b = raw("lstsq", x2, "x2")
    if b.ndim == 0:
        fail(ValueError, "lstsq", "an array of rank >= 1 for 'x2'", x2)
    vector = b.ndim == 1
    rows = b.shape[0] if vector else b.shape[-2]
    if rows != a.shape[-2]:
        fail(ValueError, "lstsq", f"'x2' with {a.shape[-2]} rows to match 'x1'", x2)
    if rcond is not None and (isinstance(rcond, bool) or not isinstance(rcond, (int, float))):
        fail(TypeError, "lstsq", "a Python float or None for 'rcond'", rcond)
    dt = float_dtype(_dt.promote_types(a.dtype, b.dtype))
    batch = tuple(a.shape[:-2]) if vector else broadcast_shapes2(
        "lstsq", tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    out = call(_lstsq_kernel, a, b, dtype=dt, vector=vector,
               rcond=None if rcond is None else float(rcond), batch=batch)
    x, resid, rank, s, failed = out
    status.raise_if(failed, status.LSTSQ_NOT_CONVERGED)
    m, n = a.shape[-2], a.shape[-1]
    traced = is_tracer(rank._value)
    if m <= n or not traced and bool(np.any(np.asarray(rank._value) != n)):  # NumPy's empty
        resid = wrap(lax.full((0,), 0, resid.dtype) if traced else
                     to_like(np.zeros((0,), resid.dtype), resid._value))
    return LstsqResult(x, resid, rank, s)


# ---- tensor forms ----------------------------------------------------------------------------
@kernel(static=("dtype", "shape2", "out_shape"))
def _tensorinv_kernel(a, *, dtype, shape2, out_shape):
    a = lax.reshape(lax.convert_element_type(a, dtype), shape2)
    lu, _, perm = M.lu_factor(a)
    return (lax.reshape(M.lu_solve(lu, perm, M.identity((), shape2[0], dtype)), out_shape),
            status.lu_singular(lu))


@in_wide_region
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

    Bool and integer input is computed in the default floating dtype (float64 where the
    backend has it); float32/complex64 stay single precision.  Half precision raises
    ``TypeError`` (LAPACK has none, NumPy refuses it too), and so does float64/complex128 on
    a TPU, whose linalg computes in float32/complex64 only.  Called eagerly, a singular
    matrix raises ``LinAlgError`` with NumPy's message, after computing; under ``jax.jit``
    and ``vmap`` nothing can be raised: the result holds inf/NaN, and
    ``laxarray.checkify.linalg_checks`` reports the failure.

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

    Bool and integer input is computed in the default floating dtype (float64 where the
    backend has it); float32/complex64 stay single precision.  Half precision raises
    ``TypeError`` (LAPACK has none, NumPy refuses it too), and so does float64/complex128 on
    a TPU, whose linalg computes in float32/complex64 only.  Called eagerly, a singular
    matrix raises ``LinAlgError`` with NumPy's message, after computing; under ``jax.jit``
    and ``vmap`` nothing can be raised: the result holds inf/NaN, and
    ``laxarray.checkify.linalg_checks`` reports the failure.

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


__all__ = ["solve", "inv", "det", "slogdet", "matrix_power", "pinv", "matrix_rank", "lstsq",
           "tensorinv", "tensorsolve"]
