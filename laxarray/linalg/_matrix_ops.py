"""Building blocks for linalg kernels, over raw jax values and written with jax.lax only.

Every helper works on stacks of matrices ``(..., M, N)`` whose batch shapes already agree.
"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax import lax
from jax.lax import linalg as lax_linalg
from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.jaxapi import mode_32_bit
from laxarray._core.numerics import cumulative, dot_general, exponent, scale_pow2
from laxarray.array_api._complex_math import cabs
from laxarray.array_api._exact_float32 import pick
from laxarray.array_api._views import diagonal  # noqa: F401  (M.diagonal, shared with the view)


def mT(x):
    """Swap the last two axes."""
    nd = x.ndim
    return lax.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def mH(x):
    """Conjugate transpose of the last two axes."""
    x = mT(x)
    return lax.conj(x) if _dt.kind_of(x.dtype) == "c" else x


def mm(a, b, **kwargs):
    """Batched matrix product of ``(..., M, K)`` and ``(..., K, N)`` with equal batch shapes
    (``kwargs``: ``lax.dot_general``'s, such as ``precision``)."""
    nb = a.ndim - 2
    bd = tuple(range(nb))
    return dot_general(a, b, (((nb + 1,), (nb,)), (bd, bd)), **kwargs)


def broadcast_batch(x, batch):
    """``x`` with its batch dimensions broadcast to ``batch``."""
    shape = tuple(batch) + tuple(x.shape[-2:])
    if tuple(x.shape) == shape:
        return x
    nd = len(shape)
    return lax.broadcast_in_dim(x, shape, tuple(range(nd - x.ndim, nd)))


def identity(batch, n, dtype):
    """A stack of ``n x n`` identity matrices."""
    rows = lax.broadcasted_iota(np.int32, (n, n), 0)
    cols = lax.broadcasted_iota(np.int32, (n, n), 1)
    eye = lax.convert_element_type(lax.eq(rows, cols), dtype)
    return lax.broadcast_in_dim(eye, tuple(batch) + (n, n), (len(batch), len(batch) + 1))


def tril(x, k=0):
    """Zero the elements above the ``k``-th diagonal of the last two axes."""
    m, n = x.shape[-2], x.shape[-1]
    rows = lax.broadcasted_iota(np.int32, (m, n), 0)
    cols = lax.broadcasted_iota(np.int32, (m, n), 1)
    keep = lax.le(lax.sub(cols, rows), lax.full((), k, np.int32))
    keep = lax.broadcast_in_dim(keep, x.shape, (x.ndim - 2, x.ndim - 1))
    return lax.select(keep, x, lax.full_like(x, 0))


def real(x):
    """The real part (identity for real dtypes)."""
    return lax.real(x) if _dt.kind_of(x.dtype) == "c" else x


def _permute_rows(b, perm):
    """``b[..., perm, :]`` for per-matrix permutations ``perm`` of shape ``(..., M)``."""
    dnums = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                       start_index_map=(0,))

    def one(bb, pp):
        return lax.gather(bb, lax.expand_dims(pp, (1,)), dnums, slice_sizes=(1, bb.shape[1]),
                          mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)

    f = one
    for _ in range(b.ndim - 2):
        f = jax.vmap(f)
    return f(b, perm)


def lu_factor(a):
    """``(lu, pivots, permutation)`` of ``jax.lax.linalg.lu``."""
    return lax_linalg.lu(a)


def lu_solve(lu, perm, b):
    """Solve ``A X = B`` given ``A``'s LU factors; ``b`` is ``(..., M, K)`` with ``lu``'s batch."""
    b = _permute_rows(b, perm)
    y = lax_linalg.triangular_solve(lu, b, left_side=True, lower=True, unit_diagonal=True)
    return lax_linalg.triangular_solve(lu, y, left_side=True, lower=False)


def lu_sign_logabs(lu, pivots):
    """``(sign, log|det|)`` from LU factors: sign in the input dtype, log in the real dtype."""
    d = diagonal(lu)
    n = lu.shape[-1]
    idx = lax.broadcasted_iota(pivots.dtype, pivots.shape, pivots.ndim - 1)
    swaps = lax.reduce_sum(lax.convert_element_type(lax.ne(pivots, idx), np.int32),
                           (pivots.ndim - 1,))
    parity = lax.convert_element_type(lax.rem(swaps, np.int32(2)), lu.dtype)
    perm_sign = lax.sub(lax.full_like(parity, 1), lax.mul(parity, lax.full_like(parity, 2)))
    mag = cabs(d) if _dt.kind_of(d.dtype) == "c" else lax.abs(d)
    zero = lax.eq(mag, lax.full_like(mag, 0))
    unit = lax.div(d, lax.convert_element_type(lax.select(zero, lax.full_like(mag, 1), mag),
                                               d.dtype))
    unit = lax.select(zero, lax.full_like(unit, 0), unit)
    axis = (d.ndim - 1,)
    sign = lax.mul(perm_sign, lax.reduce_prod(unit, axis)) if n else lax.full_like(perm_sign, 1)
    logabs = lax.reduce_sum(pick("log", lax.log)(mag), axis)   # the chip's log: 5e-5 off
    return sign, logabs


def svd(x, full_matrices, compute_uv=True):
    """``jax.lax.linalg.svd`` (singular values descending); where the backend's record asks
    (``Backend.polar_svd``: the TPU) laxarray's own :func:`polar_svd`."""
    if _backend.current().polar_svd and x.size:
        return polar_svd(x, full_matrices, compute_uv)
    return lax_linalg.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)


def polar_svd(x, full_matrices, compute_uv=True):
    """The SVD from the polar decomposition, as jax computes it on a TPU but traced here,
    with the kernel and in jax's 32-bit mode (jax traces its own when XLA lowers it, in the
    process' 64-bit mode, and that program aborted the TPU compiler): a tall matrix is
    first reduced to its square ``R`` by QR, ``R = U_p H`` by QDWH (``lax.linalg.qdwh``),
    ``H = V diag(s) V^H`` by ``eigh``, and ``U = U_p V``, re-orthogonalised by QR where
    ``s`` says the matrix is numerically rank-deficient (``U_p`` then need not be
    unitary).  ``x`` is float32 or complex64 (the TPU has no wider type)."""
    with mode_32_bit():       # jax's QDWH counts its iterations in the default integer
        return _polar_svd(x, full_matrices, compute_uv)


def _polar_svd(x, full_matrices, compute_uv):
    *batch, m, n = x.shape
    if batch:
        flat = lax.reshape(x, (int(np.prod(batch)), m, n))
        out = jax.vmap(lambda a: _polar_svd(a, full_matrices, compute_uv))(flat)
        return jax.tree.map(lambda o: lax.reshape(o, (*batch, *o.shape[1:])), out)
    # QDWH's norms and eigh's products square the entries: a matrix whose largest entry is
    # far from 1 (past 2**64 in float32) overflowed to NaN ("did not converge" where LAPACK
    # scales first).  Scaled by the power of two of its largest entry -- exact, and the
    # singular values scaled back -- it cannot.
    e = _exponent_of_largest(x)
    out = _polar_svd_scaled(scale_pow2(x, lax.neg(e)), full_matrices, compute_uv)
    if not compute_uv:
        return scale_pow2(out, e)
    u, s, vh = out
    return u, scale_pow2(s, e), vh


def _exponent_of_largest(x):
    """The binary exponent of ``x``'s largest entry in magnitude (of a real or imaginary
    part), as the int32 0 where that is zero, subnormal or not finite."""
    mag = lax.abs(x) if _dt.kind_of(x.dtype) != "c" else lax.max(lax.abs(lax.real(x)),
                                                                  lax.abs(lax.imag(x)))
    big = lax.reduce_max(mag, tuple(range(mag.ndim)))
    usable = lax.bitwise_and(lax.is_finite(big),
                             lax.ge(big, lax.full_like(big, _dt.machine_limits(big.dtype).tiny)))
    e = lax.convert_element_type(exponent(big), np.int32)
    return lax.select(usable, e, lax.full_like(e, 0))


def _polar_svd_scaled(x, full_matrices, compute_uv):
    m, n = x.shape
    if m < n:   # the transpose's factors, swapped
        out = _polar_svd_scaled(mH(x), full_matrices, compute_uv)
        if not compute_uv:
            return out
        u, s, vh = out
        return mH(vh), s, mH(u)
    q = None
    a = x
    if m > n:
        q, r = lax_linalg.qr(x, full_matrices=full_matrices and compute_uv)
        a = lax.slice(r, (0, 0), (n, n))
    u_p, h, _, _ = lax_linalg.qdwh(a, max_iterations=10)
    v, w = lax_linalg.eigh(h)                       # ascending
    s = lax.rev(lax.max(w, lax.full_like(w, 0)), (0,))   # eigh may give tiny negatives
    if not compute_uv:
        return s
    v = lax.rev(v, (1,))
    u = mm(u_p, v)
    tiny = lax.le(lax.index_in_dim(s, n - 1, keepdims=False),
                  lax.mul(lax.full((), n * eps(s.dtype), s.dtype),
                          lax.index_in_dim(s, 0, keepdims=False)))

    def reorthogonalised(u):
        uq, ur = lax_linalg.qr(u, full_matrices=False)
        d = _diag(ur)
        d = lax.real(d) if _dt.kind_of(d.dtype) == "c" else d
        one = lax.full_like(d, 1)
        sign = lax.convert_element_type(lax.select(lax.ge(d, lax.full_like(d, 0)), one,
                                                   lax.neg(one)), uq.dtype)
        return lax.mul(uq, lax.broadcast_in_dim(sign, uq.shape, (1,)))
    u = lax.cond(tiny, reorthogonalised, lambda u: u, u)
    if q is None:
        u, s, v = _refined(a, u, s, v)
    elif full_matrices:   # the complement of q's first n columns completes U
        u, s, v = _refined(a, u, s, v)
        head = mm(lax.slice(q, (0, 0), (m, n)), u)
        u = lax.concatenate([head, lax.slice(q, (0, n), (m, m))], 1)
    else:
        u, s, v = _refined(x, mm(q, u), s, v)
    return u, s, mH(v)


def _refined(a, u, s, v):
    """The thin SVD ``a ~ u diag(s) v^H`` of an ``(m, n)`` matrix, ``m >= n``, refined once
    to first order by matrix products alone.  On the chip QR, QDWH and ``eigh`` each leave
    factors orthogonal to working precision but not quite those of ``a`` (a 4x4 matrix
    rebuilt to 2.4e-6 of its largest entry, Ridge's predictions 1.8e-4 off, against 3e-7
    on the CPU and 9e-6 with NumPy's float32 SVD), while its float32 products at ``"highest"`` are exact to 0.2
    eps: whatever the pieces lost, one step of products puts back (at ``"highest"``
    whatever the matmul precision setting: at one bfloat16 pass the step would do harm).

    With ``T = u^H a v``, ``R_u = I - u^H u``, ``R_v = I - v^H v``, the exact factors are
    ``u (I + F) + P`` and ``v (I + G)`` where ``F = R_u / 2 + X``, ``G = R_v / 2 + Y`` (``X``,
    ``Y`` skew-Hermitian, from ``a v = u s`` and ``a^H u = v s`` to first order),
    ``s_i = Re t_ii / (1 - (r_u,ii + r_v,ii) / 2)`` and ``P = (a v - u (I + R_u) T) / s`` the
    part of ``a v`` outside ``u``'s columns (``I + R_u`` stands for ``(u^H u)^-1``).  Per
    pair, ``X - Y`` divides by ``s_i + s_j`` and ``X + Y`` by ``s_j - s_i``: that part is left out where the gap is too small for a
    first-order step (a cluster, whose common rotation is free) or ``s`` is numerically
    zero (a rank-deficient direction)."""
    n = s.shape[-1]
    dtype, real = u.dtype, s.dtype
    hi = functools.partial(mm, precision=lax.Precision.HIGHEST)   # whatever the user's
    b = hi(a, v)
    t = hi(mH(u), b)
    eye = identity((), n, dtype)
    ru = lax.sub(eye, hi(mH(u), u))
    rv = lax.sub(eye, hi(mH(v), v))
    re = lax.real if _dt.kind_of(dtype) == "c" else (lambda z: z)
    half = lax.full((), 0.5, real)
    shrink = lax.sub(lax.full_like(s, 1), lax.mul(half, lax.add(re(_diag(ru)), re(_diag(rv)))))
    sig = lax.max(lax.div(re(_diag(t)), shrink), lax.full_like(s, 0))
    top = lax.reduce_max(sig, (0,))
    floor = lax.mul(lax.full((), n * eps(real), real), top)
    si = lax.broadcast_in_dim(sig, (n, n), (0,))
    sj = lax.broadcast_in_dim(sig, (n, n), (1,))
    c = (lambda z: lax.convert_element_type(z, dtype))
    hv = lax.full((), 0.5, dtype)
    alpha = lax.add(t, lax.mul(hv, lax.add(lax.mul(c(sj), ru), lax.mul(c(si), rv))))
    beta = lax.neg(lax.add(mH(t), lax.mul(hv, lax.add(lax.mul(c(si), ru), lax.mul(c(sj), rv)))))
    total, gap = lax.add(si, sj), lax.sub(sj, si)

    def guarded(num, den, usable):   # num / den where usable, else 0
        safe = lax.select(usable, den, lax.full_like(den, 1))
        return lax.select(usable, lax.div(num, c(safe)), lax.full_like(num, 0))
    apart = lax.sub(alpha, beta)
    size = cabs(apart) if _dt.kind_of(dtype) == "c" else lax.abs(apart)
    x_minus_y = guarded(lax.add(alpha, beta), total, lax.gt(total, floor))
    x_plus_y = guarded(apart, gap, lax.gt(lax.abs(gap), lax.max(
        lax.broadcast_in_dim(floor, (n, n), ()), lax.mul(lax.full_like(size, 1000), size))))
    f = lax.add(lax.mul(hv, ru), lax.mul(hv, lax.add(x_plus_y, x_minus_y)))
    g = lax.add(lax.mul(hv, rv), lax.mul(hv, lax.sub(x_plus_y, x_minus_y)))
    m = a.shape[0]
    outside = guarded(lax.sub(b, hi(u, lax.add(t, hi(ru, t)))),
                      lax.broadcast_in_dim(sig, (m, n), (1,)),
                      lax.broadcast_in_dim(lax.gt(sig, floor), (m, n), (1,)))
    u = lax.add(lax.add(u, hi(u, f)), outside)
    v = lax.add(v, hi(v, g))
    # first-order steps may leave a tie of singular values an ulp out of order
    sig = cumulative("max", sig, 0, reverse=True)
    return u, sig, v


def _diag(a):
    """The diagonal of one square matrix."""
    n = a.shape[-1]
    rows = lax.broadcasted_iota(np.int32, (n, n), 0)
    cols = lax.broadcasted_iota(np.int32, (n, n), 1)
    return lax.reduce_sum(lax.select(lax.eq(rows, cols), a, lax.full_like(a, 0)), (0,))


def eps(dtype):
    """Machine epsilon of the real dtype of ``dtype``."""
    return float(_dt.machine_limits(dtype).eps)
