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
from laxarray._core.host import to_like
from laxarray._core.jaxapi import in_wide_region, is_tracer
from laxarray._core.kernel import kernel
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
    """Solve ``x1 @ x = x2`` for square, non-singular ``x1``.

    Array API: linalg.solve. NumPy: numpy.linalg.solve.

    ``x2`` of shape ``(M,)`` is one right-hand side for every matrix of ``x1`` (result
    ``x1.shape[:-2] + (M,)``); otherwise ``x2`` is ``(..., M, K)`` and the batch dimensions
    broadcast.  Mixed dtypes promote; integers become float64.  Eagerly, a singular matrix
    (an exact zero pivot of its LU factorization, in any matrix of the stack) raises
    ``LinAlgError("Singular matrix")`` as NumPy does; under ``jax.jit`` the result holds
    inf/NaN instead.
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
    """Inverse of square matrices. Array API: linalg.inv. NumPy: numpy.linalg.inv.

    Eagerly, a singular matrix raises ``LinAlgError("Singular matrix")`` as in NumPy; under
    ``jax.jit`` it gives inf/NaN entries.
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
    return lax.mul(sign, lax.reduce_prod(M.diagonal(lu), (lu.ndim - 2,)))


@in_wide_region
def det(x, /):
    """Determinants of square matrices. Array API: linalg.det. NumPy: numpy.linalg.det."""
    v, dt = matrix_operand("det", x, square=True)
    return call(_det_kernel, v, dtype=dt, log=False)


@in_wide_region
def slogdet(x, /):
    """Sign and natural log of the absolute determinant of square matrices.

    Array API: linalg.slogdet. NumPy: numpy.linalg.slogdet.

    Returns ``SlogdetResult(sign, logabsdet)``; ``sign`` has ``x``'s (float) dtype and is
    0 for a singular matrix, ``logabsdet`` is real and ``-inf`` then.
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
    """Integer power of square matrices by repeated squaring.

    Array API: linalg.matrix_power. NumPy: numpy.linalg.matrix_power.

    ``n`` is static under ``jax.jit``.  As in NumPy, ``n >= 0`` keeps an integer or bool
    dtype; ``n < 0`` inverts first (integers become float64), and eagerly raises
    ``LinAlgError("Singular matrix")`` for a singular matrix (inf/NaN under ``jax.jit``).
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
    """Moore-Penrose pseudo-inverse via the SVD. Array API: linalg.pinv. NumPy: numpy.linalg.pinv.

    Singular values ``<= rtol * max(S)`` are treated as zero; ``rtol`` (or NumPy's
    ``rcond``, same meaning) is a Python float (static under ``jax.jit``) or a real array
    broadcasting against the batch.  The default is the standard's ``max(M, N) * eps``
    (NumPy's default without ``rtol`` is ``1e-15``).  NumPy's ``hermitian`` is not accepted.
    Eagerly, an SVD that does not converge (NaN input) raises ``LinAlgError`` as in NumPy.
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
    """Rank: the number of singular values above a threshold, in the default integer dtype.

    Array API: linalg.matrix_rank. NumPy: numpy.linalg.matrix_rank.

    The threshold is ``rtol * max(S)`` (default ``rtol = max(M, N) * eps``) or, with NumPy's
    ``tol``, the absolute value ``tol``.  Python-float tolerances are static under
    ``jax.jit``; arrays broadcast against the batch.  A 1-D (or 0-D) ``x`` has rank 1 unless
    all zero (NumPy).  NumPy's ``hermitian`` is not accepted.  Eagerly, an SVD that does
    not converge (NaN input) raises ``LinAlgError`` as in NumPy.
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
    """Least-squares solution of ``x1 @ x = x2`` (minimum norm when rank-deficient), via the SVD.

    Array API: (not in the standard). NumPy: numpy.linalg.lstsq.

    Returns ``LstsqResult(x, residuals, rank, s)``.  Unlike NumPy, stacks of matrices are
    accepted and ``rank`` is an int64 array.  ``residuals`` (squared 2-norms of
    ``x2 - x1 @ x`` per column; shape ``(..., K)``, ``(..., 1)`` for a 1-D ``x2``) are
    empty unless ``M > N`` and the rank is ``N``: eagerly the rank is checked as in NumPy;
    under ``jax.jit`` (where the rank is not known) they are always returned when
    ``M > N``.  ``rcond`` (default ``max(M, N) * eps``) is a static Python float.  Eagerly,
    an SVD that does not converge (input with NaN or inf) raises ``LinAlgError`` with NumPy's
    message.
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
    """Inverse of an N-d array for :func:`tensordot` with ``ind`` axes.

    Array API: (not in the standard). NumPy: numpy.linalg.tensorinv. ``ind`` is static.
    Eagerly, a singular ``x`` raises ``LinAlgError("Singular matrix")`` as in NumPy.
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

    ``axes`` (axes of ``x1`` moved to the end first) is static under ``jax.jit``.  Eagerly,
    a singular ``x1`` raises ``LinAlgError("Singular matrix")`` as in NumPy.
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
