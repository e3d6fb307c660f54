"""``lobpcg_standard``: the k largest eigenpairs of a symmetric operator by LOBPCG.

Each iteration orthonormalises the residuals ``R`` and the previous directions ``P``
against the current Ritz vectors ``X`` (two rounds of Gram-Schmidt, then SVQB, which also
marks numerically dependent columns), and solves the Rayleigh-Ritz problem on ``[X, R, P]``.
Dependent columns are zero vectors; their rows of the projected matrix are replaced by a
diagonal entry below every true Ritz value, so fixed shapes work under ``jax.jit``.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.validate import check_int
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray._core.runtime.kernel import jit_static
from laxarray.sparse.linalg._operator import as_operator, check_square, matvec
from laxarray.sparse.linalg.krylov import tolerance
from laxarray._core.jaxapi import in_wide_mode


@in_wide_mode
def lobpcg_standard(A, X, m=100, tol=None):
    """Compute the largest eigenpairs of a real symmetric operator by LOBPCG.

    jax: jax.experimental.sparse.linalg.lobpcg_standard. SciPy: scipy.sparse.linalg.lobpcg with
    ``largest=True``.

    Parameters
    ----------
    A : BCOO, BCSR, array_like or callable
        The ``(n, n)`` real symmetric operator: a sparse or dense matrix, or a callable
        mapping an ``(n, k)`` block to ``A @ block``.
    X : array_like
        The ``(n, k)`` initial block, of full column rank, ``0 < k < n`` (``k < n // 5``
        recommended).
    m : int, optional
        The maximum number of iterations; default 100.
    tol : float, optional
        Stop when every residual ``||A u - theta u|| <= tol * |theta|``; default
        ``sqrt(eps)`` of the dtype.

    Returns
    -------
    theta : Array
        The ``k`` eigenvalues, descending.
    U : Array
        The ``(n, k)`` orthonormal eigenvectors.
    i : Array
        The number of iterations used (int32).

    Raises
    ------
    TypeError
        If ``A`` or ``X`` is complex.
    ValueError
        If ``X`` is not 2-D with ``0 < k < n`` columns.

    Notes
    -----
    Static under ``jax.jit``: ``A`` when a callable, ``m``, ``tol``.

    Real dtypes only.  One jitted ``lax.while_loop``: runs eagerly or under ``jax.jit``.  An
    eigenvector's sign is not specified.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.fromdense(la.diag(la.arange(1.0, 11.0)))
    >>> theta, U, i = sp.linalg.lobpcg_standard(A, la.ones((10, 1)))
    >>> la.round(theta, decimals=6)
    Array([10.])
    >>> la.round(la.abs(U[9]), decimals=6)
    Array([1.])
    """
    fn = "lobpcg_standard"
    wrap_arrays = type(X) is Array
    x = to_raw(fn, X, "X")
    if x.ndim != 2:
        fail(ValueError, fn, "a 2-D initial block 'X' of shape (n, k)", X)
    n, k = x.shape
    if not 0 < k < n:
        fail(ValueError, fn, "'X' with 0 < k < n columns", X)
    opA, pA = as_operator(fn, A, "A", wrap_arrays=wrap_arrays)
    check_square(fn, opA, n, "A")
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype("float64")
    if pA is not None:
        dtype = _dt.result_type(dtype, pA.dtype)
    if dtype.kind != "f":
        fail(TypeError, fn, "a real symmetric 'A' and real 'X'", A)
    m = check_int(fn, m, "m", minimum=1)
    tol = float(np.sqrt(np.finfo(dtype).eps)) if tol is None else tolerance(fn, tol, "tol")
    theta, u, i = _lobpcg_run(pA, x.astype(dtype), tol, m, opA=opA)
    return wrap(theta), wrap(u), wrap(i)


def _mm(a, b):
    return lax.dot(a, b)


def _t(a):
    return lax.transpose(a, (1, 0))


def _svqb(S):
    """Orthonormal columns spanning ``S``'s (SVQB); dependent columns become zero.

    Returns ``(Q, keep)`` with ``keep`` the mask of columns that carry a direction.
    """
    dt = S.dtype
    eps = float(np.finfo(dt).eps)
    norms = lax.sqrt(lax.reduce_sum(S * S, (0,)))
    S = S / lax.select(norms == 0, lax.full_like(norms, 1), norms)[None, :]
    G = _mm(_t(S), S)
    V, w = lax.linalg.eigh(G, sort_eigenvalues=True)
    tau = eps * lax.reduce_max(lax.abs(w), (0,)) * S.shape[1]
    good = w > tau
    scale = lax.select(good, lax.rsqrt(lax.select(good, w, lax.full_like(w, 1))),
                       lax.full_like(w, 0))
    Q = _mm(S, V * scale[None, :])
    qn = lax.sqrt(lax.reduce_sum(Q * Q, (0,)))
    good = good & (qn > 0.5)
    Q = Q * lax.select(good, 1 / lax.select(qn == 0, lax.full_like(qn, 1), qn),
                       lax.full_like(qn, 0))[None, :]
    return Q, good


def _project_out(B, S):
    """``S`` with the span of the orthonormal ``B`` removed (two Gram-Schmidt rounds)."""
    for _ in range(2):
        S = S - _mm(B, _mm(_t(B), S))
    return S


def _lobpcg_impl(pA, X, tol, m, *, opA):
    n, k = X.shape
    dt = X.dtype

    def A(v):
        return matvec(opA, pA, v)

    def eig_desc(G):
        V, w = lax.linalg.eigh(G, sort_eigenvalues=True)
        return lax.rev(w, (0,)), lax.rev(V, (1,))

    X, _ = _svqb(X)
    X, _ = _svqb(X)
    AX = A(X)
    theta, Z = eig_desc(0.5 * (_mm(_t(X), AX) + _t(_mm(_t(X), AX))))
    X, AX = _mm(X, Z), _mm(AX, Z)
    P = lax.full_like(X, 0)

    def residual(X, AX, theta):
        R = AX - X * theta[None, :]
        rn = lax.sqrt(lax.reduce_sum(R * R, (0,)))
        tiny = lax.full_like(theta, float(np.finfo(dt).tiny))
        done = rn <= tol * lax.max(lax.abs(theta), tiny)
        return R, done

    def cond(s):
        i, X, AX, theta, P = s
        _, done = residual(X, AX, theta)
        return (i < m) & ~lax.reduce_and(done, (0,))

    def body(s):
        i, X, AX, theta, P = s
        R, _ = residual(X, AX, theta)
        R, keep_r = _svqb(_project_out(X, R))
        R = _project_out(X, R)
        R, keep_r2 = _svqb(R)
        keep_r = keep_r & keep_r2
        XR = lax.concatenate([X, R], 1)
        Pq, keep_p = _svqb(_project_out(XR, P))
        Pq = _project_out(XR, Pq)
        Pq, keep_p2 = _svqb(Pq)
        keep_p = keep_p & keep_p2
        S = lax.concatenate([X, R, Pq], 1)
        AS = lax.concatenate([AX, A(R), A(Pq)], 1)
        G = _mm(_t(S), AS)
        G = 0.5 * (G + _t(G))
        keep = lax.concatenate([lax.full((k,), True, bool), keep_r, keep_p], 0)
        both = keep[:, None] & keep[None, :]
        G = lax.select(both, G, lax.full_like(G, 0))
        big = lax.sqrt(lax.reduce_sum(G * G, (0, 1))) * 2 + 1
        diag = lax.broadcasted_iota("int32", G.shape, 0) == lax.broadcasted_iota(
            "int32", G.shape, 1)
        G = lax.select(diag & ~both, lax.full_like(G, 0) - big, G)
        w, Z = eig_desc(G)
        Zk, theta = Z[:, :k], w[:k]
        X_new, AX_new = _mm(S, Zk), _mm(AS, Zk)
        Zp = lax.concatenate([lax.full((k, k), 0, dt), Zk[k:]], 0)
        P_new = _mm(S, Zp)
        return i + 1, X_new, AX_new, theta, P_new

    i, X, AX, theta, _ = lax.while_loop(cond, body, (lax.full((), 0, "int32"), X, AX, theta, P))
    return theta, X, i


_lobpcg_run = jit_static(_lobpcg_impl, ("opA",))
