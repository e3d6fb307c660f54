"""``lsqr``: Paige & Saunders' LSQR for least squares ``min ||A x - b||`` (+ damping).

A port of SciPy's loop (the same stopping tests and ``istop`` codes) onto one jitted
``lax.while_loop``.  ``A^T`` of a BCOO/BCSR or dense matrix is a transposed product; of a
callable it comes from ``jax.linear_transpose``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from jax import lax

from laxarray._core.errors import fail
from laxarray.array_api._array import wrap
from laxarray._core.runtime.kernel import jit_static
from laxarray.sparse.linalg._operator import matvec_rect, rmatvec
from laxarray.sparse.linalg.krylov import norm2, prepare, tolerance
from laxarray._core.jaxapi import in_wide_mode


class LsqrResult(NamedTuple):
    """Result of :func:`lsqr`, SciPy's tuple minus ``var``: ``x``, ``istop`` (0 x = 0 is
    exact, 1/2 converged by ``btol``/``atol``, 3 ``conlim``, 4-6 the same at machine
    precision, 7 ``maxiter``), ``itn``, ``r1norm``, ``r2norm``, ``anorm``, ``acond``,
    ``arnorm``, ``xnorm``."""

    x: object
    istop: object
    itn: object
    r1norm: object
    r2norm: object
    anorm: object
    acond: object
    arnorm: object
    xnorm: object


@in_wide_mode
def lsqr(A, b, x0=None, *, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None,
         M=None):
    """Return the least-squares solution of ``A x = b`` for an ``(m, n)`` ``A`` by LSQR.

    SciPy: scipy.sparse.linalg.lsqr (without ``var``).

    Parameters
    ----------
    A : BCOO, BCSR, array_like or callable
        The ``(m, n)`` operator: a 2-D sparse or dense matrix, or a linear callable ``x -> A
        @ x`` (then ``x0`` is required, to fix ``n``; ``A^T`` is derived with
        ``jax.linear_transpose``).
    b : array_like
        The right-hand side, of shape ``(m,)``.
    x0 : array_like, optional
        The initial guess, of shape ``(n,)``; default zeros.
    damp : float, optional
        Solve the damped problem ``min ||A x - b||^2 + damp^2 ||x||^2``; default 0.
    atol, btol : float, optional
        SciPy's relative stopping tolerances; default 1e-6.
    conlim : float, optional
        Stop when the estimated condition number of ``A`` exceeds it; default 1e8.
    maxiter : int, optional
        The maximum number of iterations (SciPy's ``iter_lim``); default ``2 * n``.
    M : BCOO, BCSR, array_like or callable, optional
        An ``(n, n)`` right preconditioner: LSQR solves ``min ||A M y - b||`` and returns
        ``x = M y``.

    Returns
    -------
    LsqrResult
        A named tuple ``(x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm)`` as
        SciPy's: ``istop`` 0 (``x = 0`` is exact), 1 or 2 (converged by ``btol``/``atol``),
        3 (``conlim``), 4-6 (the same at machine precision), 7 (``maxiter``).

    Raises
    ------
    TypeError
        If ``A`` or ``b`` is complex (not supported), or an operator is not a matrix or
        callable.
    ValueError
        If ``A`` is a callable and ``x0`` is missing, or the sizes do not match.

    Notes
    -----
    Static under ``jax.jit``: ``A`` and ``M`` when callables, ``maxiter``.

    Real dtypes only.  One jitted ``lax.while_loop``: runs eagerly or under ``jax.jit``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.fromdense([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> r = sp.linalg.lsqr(A, la.asarray([1.0, 2.0, 2.0]), atol=1e-10, btol=1e-10)
    >>> la.round(r.x, decimals=6), int(r.istop)
    (Array([1.166667, 0.5     ]), 2)
    """
    fn = "lsqr"
    opA, pA, opM, pM, bb, x, maxiter, dtype = prepare(
        fn, A, b, x0, M, maxiter, square=False, default_maxiter=-1)
    if x is None:
        fail(ValueError, fn, "'x0' when 'A' is a callable (it fixes the number of columns)",
             x0)
    if dtype.kind == "c":
        fail(TypeError, fn, "real 'A' and 'b' (complex LSQR is not supported)", b)
    n = x.shape[0]
    if maxiter == -1:
        maxiter = 2 * n
    damp = tolerance(fn, damp, "damp")
    vals = [tolerance(fn, v, name) for v, name in ((atol, "atol"), (btol, "btol"),
                                                   (conlim, "conlim"))]
    r = _lsqr_run(pA, pM, bb, x, damp, *vals, maxiter, opA=opA, opM=opM)
    return LsqrResult(*(wrap(v) for v in r))


def _sym_ortho(a, b):
    """SciPy's stable Givens rotation ``(c, s, r)`` for real ``a``, ``b``."""
    one, zero = lax.full_like(a, 1), lax.full_like(a, 0)
    aa, ab = lax.abs(a), lax.abs(b)
    b_big = ab > aa
    tau1 = a / lax.select(b == 0, one, b)
    s1 = lax.sign(b) / lax.sqrt(one + tau1 * tau1)
    c1 = s1 * tau1
    r1 = b / lax.select(s1 == 0, one, s1)
    tau2 = b / lax.select(a == 0, one, a)
    c2 = lax.sign(a) / lax.sqrt(one + tau2 * tau2)
    s2 = c2 * tau2
    r2 = a / lax.select(c2 == 0, one, c2)
    c = lax.select(b_big, c1, c2)
    s = lax.select(b_big, s1, s2)
    r = lax.select(b_big, r1, r2)
    c = lax.select(b == 0, lax.sign(a), lax.select(a == 0, zero, c))
    s = lax.select(b == 0, zero, lax.select(a == 0, lax.sign(b), s))
    r = lax.select(b == 0, aa, lax.select(a == 0, ab, r))
    return c, s, r


def _lsqr_impl(pA, pM, b, x0, damp, atol, btol, conlim, maxiter, *, opA, opM):
    n, dt = x0.shape[0], x0.dtype
    eps = float(np.finfo(dt).eps)
    one, zero = lax.full((), 1, dt), lax.full((), 0, dt)

    def op(y):
        return matvec_rect(opA, pA, matvec_rect(opM, pM, y))

    def rop(u):
        return rmatvec(opM, pM, rmatvec(opA, pA, u, n), n)

    def safe(v):
        return lax.select(v == 0, one, v)

    dampsq = damp * damp
    ctol = lax.select(conlim > 0, 1 / safe(lax.full((), conlim, dt)), zero)
    bnorm = norm2(b)
    u = b - matvec_rect(opA, pA, x0)
    beta = norm2(u)
    u = u / safe(beta)
    v = rop(u) * lax.select(beta > 0, one, zero)
    alpha = norm2(v)
    v = v / safe(alpha)
    # state: itn, y, u, v, w, alpha, rhobar, phibar, anorm, ddnorm, res2, xxnorm, z, cs2, sn2,
    #        rnorm, r1norm, arnorm, xnorm, acond, istop
    init = (lax.full((), 0, "int32"), lax.full((n,), 0, dt), u, v, v, alpha, alpha, beta,
            zero, zero, zero, zero, zero, -one, zero, beta, beta, alpha * beta, zero, zero,
            lax.select(alpha * beta == 0, lax.full((), 0, "int32"), lax.full((), -1, "int32")))

    def cond(s):
        return s[-1] < 0

    def body(s):
        (itn, y, u, v, w, alpha, rhobar, phibar, anorm, ddnorm, res2, xxnorm, z, cs2, sn2,
         _, _, _, _, _, _) = s
        itn = itn + 1
        u = op(v) - alpha * u
        beta = norm2(u)
        bpos = beta > 0
        u = u / safe(beta)
        anorm = lax.select(bpos, lax.sqrt(anorm * anorm + alpha * alpha + beta * beta + dampsq),
                           anorm)
        v_new = rop(u) - beta * v
        alpha_new = norm2(v_new)
        v_new = v_new / safe(alpha_new)
        v = lax.select(lax.broadcast(bpos, v.shape), v_new, v)
        alpha = lax.select(bpos, alpha_new, alpha)
        rhobar1 = lax.sqrt(rhobar * rhobar + dampsq)
        cs1 = rhobar / safe(rhobar1)
        sn1 = damp / safe(rhobar1)
        psi = sn1 * phibar
        phibar = cs1 * phibar
        cs, sn, rho = _sym_ortho(rhobar1, beta)
        theta = sn * alpha
        rhobar = -cs * alpha
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        t1 = phi / safe(rho)
        t2 = -theta / safe(rho)
        dk = w / safe(rho)
        y = y + t1 * w
        w = v + t2 * w
        ddnorm = ddnorm + lax.dot(dk, dk)
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / safe(gambar)
        xnorm = lax.sqrt(xxnorm + zbar * zbar)
        gamma = lax.sqrt(gambar * gambar + theta * theta)
        cs2 = gambar / safe(gamma)
        sn2 = theta / safe(gamma)
        z = rhs / safe(gamma)
        xxnorm = xxnorm + z * z
        acond = anorm * lax.sqrt(ddnorm)
        res2 = res2 + psi * psi
        rnorm = lax.sqrt(phibar * phibar + res2)
        arnorm = alpha * lax.abs(tau)
        r1sq = rnorm * rnorm - dampsq * xxnorm
        r1norm = lax.select(damp > 0, lax.sign(r1sq) * lax.sqrt(lax.abs(r1sq)), rnorm)
        test1 = rnorm / safe(bnorm)
        test2 = arnorm / (anorm * rnorm + eps)
        test3 = 1 / (acond + eps)
        t1b = test1 / (1 + anorm * xnorm / safe(bnorm))
        rtol = btol + atol * anorm * xnorm / safe(bnorm)
        istop = lax.full((), -1, "int32")
        for code, hit in ((7, itn >= maxiter), (6, 1 + test3 <= 1), (5, 1 + test2 <= 1),
                          (4, 1 + t1b <= 1), (3, test3 <= ctol), (2, test2 <= atol),
                          (1, test1 <= rtol)):
            istop = lax.select(hit, lax.full_like(istop, code), istop)
        return (itn, y, u, v, w, alpha, rhobar, phibar, anorm, ddnorm, res2, xxnorm, z, cs2,
                sn2, rnorm, r1norm, arnorm, xnorm, acond, istop)

    s = lax.while_loop(cond, body, init)
    itn, y = s[0], s[1]
    rnorm, r1norm, arnorm, xnorm, acond, istop = s[15:]
    x = x0 + matvec_rect(opM, pM, y)
    anorm = s[8]
    return x, lax.max(istop, lax.full_like(istop, 0)), itn, r1norm, rnorm, anorm, acond, \
        arnorm, xnorm


_lsqr_run = jit_static(_lsqr_impl, ("opA", "opM"))
