"""The SVD-based solvers: pinv, matrix_rank, lstsq.

Each takes ``jax.lax.linalg.svd`` of its matrices and counts as zero the singular values at or
below a threshold (:func:`_cutoff`: ``rtol * max(S)``, or an absolute ``tol``), NumPy's
definitions.  As in NumPy, an eager call whose SVD does not converge (NaN input) raises
``LinAlgError("SVD did not converge")`` (see ``_status``); under ``jax.jit`` the results hold
inf/NaN instead (``laxarray.checkify.linalg_checks`` reports them).  Differentiable with
``laxarray.grad``.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.host_memory import to_like
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.linalg import _docs
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg import _status as status
from laxarray.linalg._operands import (LstsqResult, check_rtol, float_dtype, matrix_operand,
                                       raw)


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
@fill(params=_docs.PARAMS_MATRICES, linalg_error=_docs.SVD_ERROR, dtypes=_docs.DTYPES,
      eager=_docs.eager("an SVD that does not converge"))
def pinv(x, /, *, rtol=None, rcond=None):
    """Compute the Moore-Penrose pseudo-inverse of matrices from their SVD.

    Array API: linalg.pinv. NumPy: numpy.linalg.pinv.

    {params}
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
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: ``rtol`` and ``rcond`` when Python numbers (arrays are traced).

    NumPy's ``hermitian`` is not accepted.
    {dtypes}
    {eager}

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
@fill(dtypes=_docs.DTYPES, eager=_docs.eager("an SVD that does not converge"))
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

    {dtypes}
    {eager}
    NumPy's ``hermitian`` is not accepted.

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
@fill(dtypes=_docs.DTYPES, eager=_docs.eager("an SVD that does not converge"))
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
    is not known, ``residuals`` is returned whenever ``M > N``.
    {dtypes}
    {eager}

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


__all__ = ["pinv", "matrix_rank", "lstsq"]
