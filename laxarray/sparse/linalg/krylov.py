"""Krylov solvers for square systems: ``cg``, ``bicgstab`` and restarted ``gmres``.

Each solve is one jitted ``lax.while_loop`` over raw jax values.  The operator (and the
preconditioner ``M``) may be a BCOO/BCSR matrix, a dense matrix or a callable; matrices
are traced arguments, callables are static.  Convergence follows SciPy:
``norm(b - A @ x) <= max(tol * norm(b), atol)``.  Each returns ``(x, info)`` with
``info == 0`` on convergence, ``info > 0`` (the iteration count) when ``maxiter`` ran out,
and ``info < 0`` on a breakdown.
"""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail
from laxarray._core.validate import check_int
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray._core.runtime.kernel import jit_static
from laxarray.sparse.linalg._operator import as_operator, check_square, matvec
from laxarray._core.jaxapi import in_wide_mode

# The numpydoc parts the three solvers share (filled in by ``fill``).
_PARAMS = """
Parameters
----------
A : BCOO, BCSR, array_like or callable
    The ``(n, n)`` operator: a 2-D sparse matrix without batch or dense dimensions, a
    dense matrix, or a callable ``v -> A @ v`` (called with laxarray arrays when ``b``
    is one, else with jax arrays).
b : array_like
    The right-hand side, of shape ``(n,)`` (integer and bool input becomes the default
    floating dtype).
x0 : array_like, optional
    The initial guess, of shape ``(n,)``; default zeros.
tol : float, optional
    The relative tolerance (SciPy's ``rtol``): stop when ``||b - A x|| <= max(tol *
    ||b||, atol)``; default 1e-5.
atol : float, optional
    The absolute tolerance; default 0."""

_M = """
M : BCOO, BCSR, array_like or callable, optional
    A preconditioner, an approximation of ``A``'s inverse, in the forms ``A`` takes;
    default none."""

_RAISES = """
Raises
------
TypeError
    If ``A`` or ``M`` is not a matrix or callable (or of bool dtype), ``b`` is not
    numeric, or a tolerance is not a real number."""

_LOOP = """
One jitted ``lax.while_loop``: it runs eagerly or under ``jax.jit``, where the matrices,
``b`` and ``x0`` may be traced and the callables are static.  Never raises on
non-convergence: read ``info``."""

# cg's and bicgstab's: maxiter counts iterations (gmres's counts restart cycles)
_MAXITER_M = """
maxiter : int, optional
    The maximum number of iterations; default ``10 * n``.""" + _M

_RAISES_NOTES = _RAISES + """
ValueError
    If ``b`` is not 1-D, ``A``, ``M`` or ``x0`` does not match its size, a tolerance is
    negative, or ``maxiter`` is below 0.

Notes
-----
Static under ``jax.jit``: ``A`` and ``M`` when callables, ``maxiter``.

""" + _LOOP.strip("\n")


def _conj(x):
    return lax.conj(x) if x.dtype.kind == "c" else x


def _re(x):
    return lax.real(x) if x.dtype.kind == "c" else x


def vdot(a, b):
    """``sum(conj(a) * b)`` on raw vectors."""
    return lax.dot(_conj(a), b)


def norm2(a):
    """Euclidean norm of a raw vector (real result)."""
    return lax.sqrt(_re(vdot(a, a)) if a.dtype.kind == "c" else vdot(a, a))


def tolerance(fn, value, argname):
    """A non-negative real Python number (``tol``, ``atol``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        fail(TypeError, fn, f"a real number for '{argname}'", value)
    if not value >= 0:
        fail(ValueError, fn, f"a non-negative '{argname}'", value)
    return float(value)


def prepare(fn, A, b, x0, M, maxiter, *, square=True, default_maxiter=None):
    """Validate the common solver arguments; returns the raw/static pieces of a solve."""
    wrap_arrays = type(b) is Array
    bb = to_raw(fn, b, "b")
    if bb.ndim != 1:
        fail(ValueError, fn, "a 1-D right-hand side 'b'", b)
    if bb.dtype.kind not in "fc":
        if bb.dtype.kind not in "biu":
            fail(TypeError, fn, "a numeric 'b'", b)
        bb = bb.astype(_dt.default_dtype_for_pytype(float))
    opA, pA = as_operator(fn, A, "A", wrap_arrays=wrap_arrays)
    opM, pM = as_operator(fn, M, "M", wrap_arrays=wrap_arrays, allow_none=True)
    n = bb.shape[0]
    if square:
        check_square(fn, opA, n, "A")
    elif opA.shape is not None and opA.shape[0] != n:
        fail(ValueError, fn, f"'A' with {n} rows to match b", opA.shape)
    cols = n if square or opA.shape is None else opA.shape[1]
    check_square(fn, opM, cols, "M")
    dtype = bb.dtype
    for p in (pA, pM):
        if p is not None:
            dtype = _dt.result_type(dtype, p.dtype)
    if x0 is None:
        x = lax.full((cols,), 0, dtype) if opA.kind != "callable" or square else None
    else:
        x = to_raw(fn, x0, "x0")
        if x.ndim != 1 or (square and x.shape[0] != n) or (
                opA.shape is not None and x.shape[0] != cols):
            fail(ValueError, fn, f"'x0' of shape ({cols},)", x0)
        dtype = _dt.result_type(dtype, x.dtype)
        x = x.astype(dtype)
    if maxiter is None:
        maxiter = default_maxiter if default_maxiter is not None else 10 * n
    else:
        maxiter = check_int(fn, maxiter, "maxiter", minimum=0)
    return opA, pA, opM, pM, bb.astype(dtype), x, maxiter, dtype


def _threshold(b, tol, atol):
    nb = norm2(b)
    return lax.max(tol * nb, lax.full_like(nb, atol))


@in_wide_mode
@fill(params=_PARAMS, maxiter_m=_MAXITER_M, raises_notes=_RAISES_NOTES)
def cg(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """Solve ``A x = b`` for a Hermitian positive-definite ``A`` by conjugate gradients.

    SciPy: scipy.sparse.linalg.cg. jax: jax.scipy.sparse.linalg.cg.

    {params}
    {maxiter_m}

    Returns
    -------
    x : Array
        The solution estimate, of ``b``'s floating dtype (promoted with the operators').
    info : Array
        An int32 0-d array: 0 when converged, else the number of iterations done.

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.BCSR.fromdense(la.asarray([[4.0, 1.0], [1.0, 3.0]]))
    >>> b = la.asarray([1.0, 2.0])
    >>> x, info = sp.linalg.cg(A, b, tol=1e-10)
    >>> la.round(x, decimals=6), int(info)
    (Array([0.090909, 0.636364]), 0)
    """
    opA, pA, opM, pM, bb, x, maxiter, _ = prepare("cg", A, b, x0, M, maxiter)
    x, info = _cg_run(pA, pM, bb, x, tolerance("cg", tol, "tol"),
                      tolerance("cg", atol, "atol"), maxiter, opA=opA, opM=opM)
    return wrap(x), wrap(info)


def _cg_impl(pA, pM, b, x, tol, atol, maxiter, *, opA, opM):
    thr2 = _threshold(b, tol, atol) ** 2
    r = b - matvec(opA, pA, x)
    z = matvec(opM, pM, r)
    rz = vdot(r, z)

    def cond(s):
        k, _, r, _, _, _ = s
        return (_re(vdot(r, r)) > thr2) & (k < maxiter)

    def body(s):
        k, x, r, z, p, rz = s
        Ap = matvec(opA, pA, p)
        pAp = vdot(p, Ap)
        alpha = rz / lax.select(pAp == 0, lax.full_like(pAp, 1), pAp)
        x = x + alpha * p
        r = r - alpha * Ap
        z = matvec(opM, pM, r)
        rz_new = vdot(r, z)
        beta = rz_new / lax.select(rz == 0, lax.full_like(rz, 1), rz)
        return k + 1, x, r, z, z + beta * p, rz_new

    k, x, r, _, _, _ = lax.while_loop(cond, body, (lax.full((), 0, "int32"), x, r, z, z, rz))
    converged = _re(vdot(r, r)) <= thr2
    return x, lax.select(converged, lax.full_like(k, 0), k)


_cg_run = jit_static(_cg_impl, ("opA", "opM"))


@in_wide_mode
@fill(params=_PARAMS, maxiter_m=_MAXITER_M, raises_notes=_RAISES_NOTES)
def bicgstab(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """Solve ``A x = b`` for a general square ``A`` by BiCGSTAB.

    SciPy: scipy.sparse.linalg.bicgstab. jax: jax.scipy.sparse.linalg.bicgstab.

    {params}
    {maxiter_m}

    Returns
    -------
    x : Array
        The solution estimate.
    info : Array
        An int32 0-d array: 0 when converged, a positive number of iterations done without
        converging, or -10 for a breakdown (``rho`` or ``omega`` vanished).

    {raises_notes}

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.BCSR.fromdense(la.asarray([[4.0, 1.0], [2.0, 3.0]]))
    >>> x, info = sp.linalg.bicgstab(A, la.asarray([1.0, 2.0]), tol=1e-10)
    >>> la.round(x, decimals=6), int(info)
    (Array([0.1, 0.6]), 0)
    """
    opA, pA, opM, pM, bb, x, maxiter, _ = prepare("bicgstab", A, b, x0, M, maxiter)
    x, info = _bicgstab_run(pA, pM, bb, x, tolerance("bicgstab", tol, "tol"),
                            tolerance("bicgstab", atol, "atol"), maxiter, opA=opA, opM=opM)
    return wrap(x), wrap(info)


def _safe(v):
    return lax.select(v == 0, lax.full_like(v, 1), v)


def _bicgstab_impl(pA, pM, b, x, tol, atol, maxiter, *, opA, opM):
    thr2 = _threshold(b, tol, atol) ** 2
    r = b - matvec(opA, pA, x)
    rhat = r
    one = lax.full((), 1, r.dtype)
    zero_v = lax.full_like(r, 0)
    i32 = lax.full((), 0, "int32")

    def res2(r):
        return _re(vdot(r, r))

    def cond(s):
        k, _, r, _, _, _, _, _, brk = s
        return (res2(r) > thr2) & (k < maxiter) & (brk == 0)

    def body(s):
        k, x, r, p, v, rho, alpha, omega, _ = s
        rho_new = vdot(rhat, r)
        beta = (rho_new / _safe(rho)) * (alpha / _safe(omega))
        p = r + beta * (p - omega * v)
        phat = matvec(opM, pM, p)
        v = matvec(opA, pA, phat)
        rv = vdot(rhat, v)
        alpha = rho_new / _safe(rv)
        s_vec = r - alpha * v
        s_done = res2(s_vec) <= thr2
        shat = matvec(opM, pM, s_vec)
        t = matvec(opA, pA, shat)
        tt = vdot(t, t)
        omega = vdot(t, s_vec) / _safe(tt)
        x_full = x + alpha * phat + omega * shat
        r_full = s_vec - omega * t
        x = lax.select(lax.broadcast(s_done, x.shape), x + alpha * phat, x_full)
        r = lax.select(lax.broadcast(s_done, r.shape), s_vec, r_full)
        brk = ((rho_new == 0) | (rv == 0) | ((omega == 0) & ~s_done)) & (res2(r) > thr2)
        return (k + 1, x, r, p, v, rho_new, alpha, omega,
                lax.select(brk, lax.full_like(i32, -10), i32))

    init = (i32, x, r, zero_v, zero_v, one, one, one, i32)
    k, x, r, *_, brk = lax.while_loop(cond, body, init)
    converged = res2(r) <= thr2
    info = lax.select(converged, i32, lax.select(brk != 0, brk, k))
    return x, info


_bicgstab_run = jit_static(_bicgstab_impl, ("opA", "opM"))


@in_wide_mode
@fill(params=_PARAMS, m=_M, raises=_RAISES, loop=_LOOP)
def gmres(A, b, x0=None, *, tol=1e-5, atol=0.0, restart=20, maxiter=None, M=None):
    """Solve ``A x = b`` for a general square ``A`` by restarted GMRES.

    SciPy: scipy.sparse.linalg.gmres. jax: jax.scipy.sparse.linalg.gmres.

    {params}
    restart : int, optional
        The Krylov dimension of a cycle; default 20, at least 1.
    maxiter : int, optional
        The maximum number of restart cycles; default ``10 * n``.
    {m}

    Returns
    -------
    x : Array
        The solution estimate.
    info : Array
        An int32 0-d array: 0 when converged, else the number of cycles done.

    {raises}
    ValueError
        If ``b`` is not 1-D, ``A``, ``M`` or ``x0`` does not match its size, a tolerance is
        negative, ``maxiter`` is below 0, or ``restart`` below 1.

    Notes
    -----
    Static under ``jax.jit``: ``A`` and ``M`` when callables, ``restart``, ``maxiter``.

    The residual is tracked with Givens rotations, so a cycle stops as soon as the tolerance
    is met.
    {loop}

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.BCOO.fromdense(la.asarray([[4.0, 1.0], [2.0, 3.0]]))
    >>> x, info = sp.linalg.gmres(A, la.asarray([1.0, 2.0]), tol=1e-10, restart=2)
    >>> la.round(x, decimals=6), int(info)
    (Array([0.1, 0.6]), 0)
    """
    fn = "gmres"
    opA, pA, opM, pM, bb, x, maxiter, _ = prepare(fn, A, b, x0, M, maxiter)
    restart = max(1, min(check_int(fn, restart, "restart", minimum=1), bb.shape[0]))
    x, info = _gmres_run(pA, pM, bb, x, tolerance(fn, tol, "tol"), tolerance(fn, atol, "atol"),
                         maxiter, opA=opA, opM=opM, restart=restart)
    return wrap(x), wrap(info)


def _givens(a, b):
    """``(c, s, r)`` with real ``c``: ``[[c, s], [-conj(s), c]] @ [a, b] = [r, 0]``."""
    aa, ab = lax.abs(a), lax.abs(b)
    nrm = lax.sqrt(aa * aa + ab * ab)
    safe_n = _safe(nrm)
    phase = a / _safe(aa).astype(a.dtype) if a.dtype.kind == "c" else lax.sign(a)
    c = lax.select(aa == 0, lax.full_like(aa, 0), aa / safe_n)
    s = lax.select(aa == 0, lax.full_like(a, 1), phase * _conj(b) / safe_n.astype(a.dtype))
    r = lax.select(aa == 0, b, phase * nrm.astype(a.dtype))
    both = nrm == 0
    return (lax.select(both, lax.full_like(c, 1), c), lax.select(both, lax.full_like(s, 0), s),
            lax.select(both, lax.full_like(r, 0), r))


def _gmres_impl(pA, pM, b, x, tol, atol, maxiter, *, opA, opM, restart):
    thr = _threshold(b, tol, atol)
    n, m, dt = b.shape[0], restart, b.dtype
    rdt = _re(lax.full((), 0, dt)).dtype
    i32 = lax.full((), 0, "int32")

    def cycle(x):
        r = b - matvec(opA, pA, x)
        beta = norm2(r)
        V = lax.full((m + 1, n), 0, dt).at[0].set(r / _safe(beta).astype(dt))
        R = lax.full((m, m), 0, dt)
        g = lax.full((m + 1,), 0, dt).at[0].set(beta.astype(dt))
        cs, sn = lax.full((m,), 0, rdt), lax.full((m,), 0, dt)
        mask_rows = lax.broadcasted_iota("int32", (m + 1,), 0)

        def inner_cond(s):
            j, _, _, g, _, _ = s
            return (j < m) & (lax.abs(g[j]) > thr)

        def inner_body(s):
            j, V, R, g, cs, sn = s
            w = matvec(opA, pA, matvec(opM, pM, V[j]))
            keep = (mask_rows <= j).astype(dt)
            h = lax.full((m + 1,), 0, dt)
            for _ in range(2):       # classical Gram-Schmidt, twice
                hh = lax.dot(_conj(V), w) * keep
                w = w - lax.dot(hh, V)
                h = h + hh
            hn = norm2(w)
            V = V.at[j + 1].set(w / _safe(hn).astype(dt))
            h = h.at[j + 1].set(hn.astype(dt))

            def rot(i, h):
                c, s_ = cs[i], sn[i]
                hi, hi1 = h[i], h[i + 1]
                new_i = c * hi + s_ * hi1
                new_i1 = -_conj(s_) * hi + c * hi1
                apply = i < j
                return h.at[i].set(lax.select(apply, new_i, hi)).at[i + 1].set(
                    lax.select(apply, new_i1, hi1))

            h = lax.fori_loop(0, m, rot, h)
            c, s_, rr = _givens(h[j], h[j + 1])
            h = h.at[j].set(rr).at[j + 1].set(lax.full((), 0, dt))
            gj = g[j]
            g = g.at[j].set(c * gj).at[j + 1].set(-_conj(s_) * gj)
            R = R.at[:, j].set(h[:m])
            return j + 1, V, R, g, cs.at[j].set(c), sn.at[j].set(s_)

        j, V, R, g, _, _ = lax.while_loop(inner_cond, inner_body, (i32, V, R, g, cs, sn))
        used = lax.broadcasted_iota("int32", (m,), 0) < j
        eye = lax.broadcasted_iota("int32", (m, m), 0) == lax.broadcasted_iota("int32", (m, m), 1)
        diag_fix = eye & ~lax.broadcast_in_dim(used, (m, m), (0,))
        Rfix = lax.select(diag_fix, lax.full_like(R, 1), R)
        Rfix = lax.select(eye & (Rfix == 0), lax.full_like(R, 1), Rfix)
        gy = g[:m] * used.astype(dt)
        y = lax.linalg.triangular_solve(Rfix, gy[:, None], left_side=True, lower=False)[:, 0]
        dx = lax.dot(y, V[:m])
        return x + matvec(opM, pM, dx)

    def cond(s):
        k, _, res = s
        return (res > thr) & (k < maxiter)

    def body(s):
        k, x, _ = s
        x = cycle(x)
        return k + 1, x, norm2(b - matvec(opA, pA, x))

    res0 = norm2(b - matvec(opA, pA, x))
    k, x, res = lax.while_loop(cond, body, (i32, x, res0))
    converged = res <= thr
    return x, lax.select(converged, i32, lax.max(k, lax.full_like(k, 1)))


_gmres_run = jit_static(_gmres_impl, ("opA", "opM", "restart"))
