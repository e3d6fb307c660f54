"""Matrix decompositions: cholesky, qr, svd, svdvals, eigh, eigvalsh, eig, eigvals.

All take stacks of matrices ``(..., M, N)``; bool and integer input is promoted to float64,
float32/complex64 stay single precision.  Decompositions whose factors are unique only up
to sign or phase (qr, svd, eigh, eig) return some valid factorization -- compare them by
reconstruction, not factor by factor.  Called eagerly, they raise NumPy's ``LinAlgError``
where NumPy does, after computing: a matrix that is not positive definite (``cholesky``), a
decomposition that does not converge, ``eig`` of input with inf/NaN (see ``_status``).  Under
``jax.jit`` those give NaN instead (``laxarray.checkify.linalg_checks`` reports them).
Differentiable with ``laxarray.grad`` (``svd`` with
``full_matrices=False``; ``eig``/``eigvals`` forward-mode only, as in jax).
"""

from __future__ import annotations

import jax
import numpy as np
from jax import lax
from jax.lax import linalg as lax_linalg

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.jax_host_calls import host_call
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool
from laxarray.array_api._calls import call
from laxarray.linalg import _docs
from laxarray.linalg import _matrix_ops as M
from laxarray.linalg import _status as status
from laxarray.array_api._array import Array
from laxarray.linalg._operands import (EigResult, EighResult, QRResult, SVDResult,
                                       matrix_operand)


def _hermitian_from_lower(x):
    """The Hermitian matrix whose lower triangle is ``x``'s (what LAPACK reads, UPLO='L')."""
    strict = M.tril(x, -1)
    n = x.shape[-1]
    eye = M.identity(x.shape[:-2], n, x.dtype)
    diag = lax.mul(lax.convert_element_type(M.real(x), x.dtype), eye)
    return lax.add(lax.add(strict, M.mH(strict)), diag)


@kernel(static=("dtype", "upper"))
def _cholesky_kernel(x, *, dtype, upper):
    x = lax.convert_element_type(x, dtype)
    x = _hermitian_from_lower(M.mH(x) if upper else x)  # the triangle NumPy's LAPACK reads
    raw = lax_linalg.cholesky_p.bind(x)  # lax_linalg.cholesky without its final tril
    low = M.tril(raw)
    return (M.mH(low) if upper else low), status.cholesky_failed(x, raw)


@in_wide_region
@fill(dtypes=_docs.DTYPES,
      eager=_docs.eager("a matrix that is not positive definite", "the result factor is NaN"))
def cholesky(x, /, *, upper=False):
    """Compute the Cholesky factor of Hermitian positive-definite matrices.

    Array API: linalg.cholesky. NumPy: numpy.linalg.cholesky.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.  Only its lower triangle is read (the
        upper one with ``upper=True``), as NumPy/LAPACK do.
    upper : bool, optional
        Return the upper factor ``U`` with ``x = U^H U`` instead of the lower ``L`` with ``x
        = L L^H``; default False.

    Returns
    -------
    Array
        The triangular factors, of ``x``'s shape and floating dtype.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here.  Also if
        ``upper`` is not a bool.
    LinAlgError
        If ``x`` has rank below two or its matrices are not square.  Eagerly, if a matrix of
        the stack is not positive definite: ``"Matrix is not positive definite"``.

    Notes
    -----
    Static under ``jax.jit``: ``upper``.

    {dtypes}
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> a = la.asarray([[4.0, 2.0], [2.0, 3.0]])
    >>> la.linalg.cholesky(a)
    Array([[2.        , 0.        ],
           [1.        , 1.41421356]])
    >>> la.linalg.cholesky(a, upper=True)
    Array([[2.        , 1.        ],
           [0.        , 1.41421356]])
    """
    v, dt = matrix_operand("cholesky", x, square=True)
    upper = check_bool("cholesky", upper, "upper")
    low, failed = call(_cholesky_kernel, v, dtype=dt, upper=upper)
    status.raise_if(failed, status.NOT_POSITIVE_DEFINITE)
    return low


@kernel(static=("dtype", "vectors"))
def _eigh_kernel(x, *, dtype, vectors):
    x = _hermitian_from_lower(lax.convert_element_type(x, dtype))
    v, w = lax_linalg.eigh(x, lower=True, symmetrize_input=False)
    failed = status.eigh_failed(x, w)
    return (w, v, failed) if vectors else (w, failed)


@in_wide_region
@fill(raises=_docs.RAISES_TYPE, linalg_error=_docs.EIGH_ERROR, dtypes=_docs.DTYPES)
def eigh(x, /):
    """Compute the eigenvalues and eigenvectors of Hermitian (real symmetric) matrices.

    Array API: linalg.eigh. NumPy: numpy.linalg.eigh.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.  Only its lower triangle is read
        (NumPy's ``UPLO='L'``; ``UPLO`` is not accepted).

    Returns
    -------
    EighResult
        A named tuple ``(eigenvalues, eigenvectors)``: the eigenvalues ``(..., M)`` in
        ascending order, real (float32 for complex64); the orthonormal eigenvectors as the
        columns of ``(..., M, M)``, of ``x``'s floating dtype.

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    An eigenvector's sign (phase) is not specified.
    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> w, v = la.linalg.eigh(la.asarray([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.])
    >>> la.abs(v)
    Array([[0.70710678, 0.70710678],
           [0.70710678, 0.70710678]])
    """
    v, dt = matrix_operand("eigh", x, square=True)
    w, vec, failed = call(_eigh_kernel, v, dtype=dt, vectors=True)
    status.raise_if(failed, status.EIGENVALUES_NOT_CONVERGED)
    return EighResult(w, vec)


@in_wide_region
@fill(raises=_docs.RAISES_TYPE, linalg_error=_docs.EIGH_ERROR, dtypes=_docs.DTYPES)
def eigvalsh(x, /):
    """Compute the eigenvalues of Hermitian (real symmetric) matrices.

    Array API: linalg.eigvalsh. NumPy: numpy.linalg.eigvalsh.

    Parameters
    ----------
    x : array_like
        A stack of square matrices ``(..., M, M)``.  Only its lower triangle is read
        (NumPy's ``UPLO='L'``).

    Returns
    -------
    Array
        The eigenvalues ``(..., M)``, ascending, real (float32 for complex64).

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    The eigenvalues of :func:`eigh`, without its eigenvectors.
    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.eigvalsh(la.asarray([[2.0, 1.0], [1.0, 2.0]]))
    Array([1., 3.])
    """
    v, dt = matrix_operand("eigvalsh", x, square=True)
    w, failed = call(_eigh_kernel, v, dtype=dt, vectors=False)
    status.raise_if(failed, status.EIGENVALUES_NOT_CONVERGED)
    return w


@kernel(static=("dtype", "vectors"))
def _eig_kernel(x, *, dtype, vectors):
    x = lax.convert_element_type(x, dtype)
    if _backend.current().eig:
        out = lax_linalg.eig(x, compute_left_eigenvectors=False,
                             compute_right_eigenvectors=vectors)
    else:
        out = _eig_on_host(x, vectors)
    code = status.eig_status(x, out[0])
    return (out[0], out[1], code) if vectors else (out[0], code)


def _eig_on_host(x, vectors):
    """``lax_linalg.eig``'s results from NumPy's LAPACK ``geev`` on the host, for backends
    where XLA has no nonsymmetric eigensolver (``Backend.eig``: the TPU's and GPU's): the
    matrices go to the host and the results come back (``jax_host_calls.host_call``), a
    transfer of the operands and results on top of LAPACK's time.  NaN results for a matrix
    with inf or NaN (``eig_status`` reports it as on the CPU)."""
    cdt = np.dtype(_dt.complex_dtype(x.dtype))
    shapes = (jax.ShapeDtypeStruct(x.shape[:-1], cdt),)
    if vectors:
        shapes += (jax.ShapeDtypeStruct(x.shape, cdt),)

    def geev(a):
        finite = np.isfinite(a).all(axis=(-2, -1), keepdims=True)
        w, v = np.linalg.eig(np.where(finite, a, 0))
        w = np.where(finite[..., 0], w, np.nan).astype(cdt)
        v = np.where(finite, v, np.nan).astype(cdt)
        return (w, v) if vectors else (w,)
    return host_call(geev, shapes, x)


@in_wide_region
@fill(params=_docs.PARAMS_SQUARE, raises=_docs.RAISES_TYPE, linalg_error=_docs.EIG_ERROR,
      host_eig=_docs.HOST_EIG, dtypes=_docs.DTYPES)
def eig(x, /):
    """Compute the eigenvalues and right eigenvectors of general square matrices.

    Array API: linalg.eig. NumPy: numpy.linalg.eig.

    {params}

    Returns
    -------
    EigResult
        A named tuple ``(eigenvalues, eigenvectors)``, both complex (complex64 for float32
        input) even when the eigenvalues are real (NumPy returns real arrays then): the
        eigenvalues ``(..., M)``, in no particular order, and unit-norm eigenvectors as the
        columns of ``(..., M, M)`` (their phase unspecified).

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    {host_eig}
    {dtypes}
    Under ``jax.jit`` a failure gives NaN.

    Examples
    --------
    >>> import laxarray as la
    >>> w, v = la.linalg.eig(la.asarray([[2.0, 0.0], [0.0, 3.0]]))
    >>> w
    Array([2.+0.j, 3.+0.j])
    """
    v, dt = matrix_operand("eig", x, square=True)
    w, vec, code = call(_eig_kernel, v, dtype=dt, vectors=True)
    status.raise_if(code, status.EIG_MESSAGES)
    return EigResult(w, vec)


@in_wide_region
@fill(params=_docs.PARAMS_SQUARE, raises=_docs.RAISES_TYPE, linalg_error=_docs.EIG_ERROR,
      host_eig=_docs.HOST_EIG, dtypes=_docs.DTYPES)
def eigvals(x, /):
    """Compute the eigenvalues of general square matrices.

    Array API: linalg.eigvals. NumPy: numpy.linalg.eigvals.

    {params}

    Returns
    -------
    Array
        The eigenvalues ``(..., M)``, always complex (complex64 for float32 input), as the
        standard says; NumPy returns a real array when all are real.

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    The eigenvalues of :func:`eig`, without its eigenvectors.
    {host_eig}
    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.eigvals(la.asarray([[0.0, -1.0], [1.0, 0.0]]))
    Array([0.+1.j, 0.-1.j])
    """
    v, dt = matrix_operand("eigvals", x, square=True)
    w, code = call(_eig_kernel, v, dtype=dt, vectors=False)
    status.raise_if(code, status.EIG_MESSAGES)
    return w


@kernel(static=("dtype", "complete", "want_q"))
def _qr_kernel(x, *, dtype, complete, want_q):
    x = lax.convert_element_type(x, dtype)
    q, r = lax_linalg.qr(x, full_matrices=complete)
    k = min(x.shape[-2], x.shape[-1])
    if _dt.kind_of(x.dtype) == "c" and k:
        # the standard asks for a real diagonal of R: move each diagonal phase into Q
        d = M.diagonal(r)
        mag = lax.abs(d)
        zero = lax.eq(mag, lax.full_like(mag, 0))
        phase = lax.div(d, lax.convert_element_type(lax.select(zero, lax.full_like(mag, 1),
                                                               mag), d.dtype))
        phase = lax.select(zero, lax.full_like(phase, 1), phase)
        rows = r.shape[-2]
        pr = _pad_last(phase, rows)
        r = lax.mul(r, lax.expand_dims(lax.conj(pr), (pr.ndim,)))
        pq = _pad_last(phase, q.shape[-1])
        q = lax.mul(q, lax.expand_dims(pq, (pq.ndim - 1,)))
        rr = lax.broadcasted_iota(np.int32, r.shape, r.ndim - 2)
        cc = lax.broadcasted_iota(np.int32, r.shape, r.ndim - 1)
        r = lax.select(lax.eq(rr, cc), lax.complex(lax.real(r), lax.full_like(lax.real(r), 0)), r)
    return (q, r) if want_q else r


def _pad_last(v, size):
    """``v (..., k)`` padded with ones to ``(..., size)``."""
    k = v.shape[-1]
    if k == size:
        return v
    pad = [(0, 0, 0)] * (v.ndim - 1) + [(0, size - k, 0)]
    return lax.pad(v, lax.full((), 1, v.dtype), pad)


@in_wide_region
@fill(params=_docs.PARAMS_MATRICES, raises=_docs.RAISES_TYPE, dtypes=_docs.DTYPES)
def qr(x, /, *, mode="reduced"):
    """Compute the QR decomposition ``x = Q R`` of matrices.

    Array API: linalg.qr. NumPy: numpy.linalg.qr.

    {params}
    mode : {'reduced', 'complete', 'r'}, optional
        ``'reduced'`` (default): Q ``(..., M, K)`` and R ``(..., K, N)`` with ``K = min(M,
        N)``; ``'complete'``: Q ``(..., M, M)`` and R ``(..., M, N)``; ``'r'`` (NumPy's): R
        ``(..., K, N)`` only.  NumPy's ``'raw'`` is not supported.

    Returns
    -------
    QRResult or Array
        A named tuple ``(Q, R)`` of ``x``'s floating dtype (Q with orthonormal columns, R
        upper triangular), or R alone for ``mode='r'``.

    {raises}
    ValueError
        If ``mode`` is not one of the three.
    LinAlgError
        If ``x`` has rank below two.

    Notes
    -----
    Static under ``jax.jit``: ``mode``.

    For complex input the diagonal of R is made real and non-negative (as the standard asks;
    NumPy/LAPACK leave it complex); for real input its signs are LAPACK's.
    {dtypes}

    Examples
    --------
    >>> import laxarray as la
    >>> q, r = la.linalg.qr(la.asarray([[3.0, 0.0], [4.0, 5.0]]))
    >>> la.abs(r)
    Array([[5., 4.],
           [0., 3.]])
    >>> la.linalg.qr(la.ones((4, 3)), mode="complete").Q.shape
    (4, 4)
    """
    v, dt = matrix_operand("qr", x)
    if mode not in ("reduced", "complete", "r"):
        fail(ValueError, "qr", "'mode' to be one of ('reduced', 'complete', 'r')", mode)
    if mode == "r":
        return call(_qr_kernel, v, dtype=dt, complete=False, want_q=False)
    q, r = call(_qr_kernel, v, dtype=dt, complete=mode == "complete", want_q=True)
    return QRResult(q, r)


def _zero(dtype, static):
    """The fill of a bucketed matrix's padding: zero rows (columns) change no singular
    value."""
    return 0


def _svd_shapes(shape, *, full_matrices, compute_uv, **_):
    """The ``shape`` rule of the svd: the thin factors (and the failure flag) of one
    nonempty matrix; ``None`` (exact) for a stack, an empty matrix or ``full_matrices``."""
    if len(shape) != 2 or 0 in shape or (full_matrices and compute_uv):
        return None
    m, n = shape
    k = min(m, n)
    return ((m, k), (k,), (k, n), ()) if compute_uv else ((k,), ())


def _svd_bucket(shape, **_):
    """The ``bucket`` rule of the svd: on its bucket the body cuts the padding of the short
    side, whose logical length (and which side it is) becomes static: ``cut``."""
    m, n = shape
    return {"cut": (m >= n, min(m, n))}


@kernel(static=("dtype", "full_matrices", "compute_uv", "cut"), fills=(_zero,),
        shape=_svd_shapes, bucket=_svd_bucket, extents=True)
def _svd_kernel(x, exts, *, dtype, full_matrices, compute_uv, cut):
    """The svd of a stack of matrices (the last result: ``_status.svd_failed``); the thin
    svd of one matrix on its bucket too (``cut``: ``None``, or on a bucket ``(tall, short
    side)``): a tall matrix padded with zero rows (a wide one: zero columns) has the same S
    and V, and U gains zero rows -- Householder vectors of LAPACK's QR and
    bidiagonalization keep zero tails -- so one executable serves every row count of a
    bucket. The padded columns of a tall one are cut off first (zero columns would add zero
    singular values), and each factor is padded to the bucket of its logical shape after."""
    x = lax.convert_element_type(x, dtype)
    if exts is None:
        if not compute_uv:
            s = M.svd(x, full_matrices=False, compute_uv=False)
            return s, status.svd_failed(x, s)
        u, s, vh = M.svd(x, full_matrices=full_matrices, compute_uv=True)
        return u, s, vh, status.svd_failed(x, s)
    tall, short = cut
    rows, cols = x.shape
    x = lax.slice(x, (0, 0), (rows, short) if tall else (short, cols))
    if not compute_uv:
        s = M.svd(x, full_matrices=False, compute_uv=False)
        return _pad_to(s, (cols if tall else rows,)), status.svd_failed(x, s)
    u, s, vh = M.svd(x, full_matrices=False, compute_uv=True)
    k = cols if tall else rows          # the bucket of the short side
    return (_pad_to(u, (rows, k)), _pad_to(s, (k,)), _pad_to(vh, (k, cols)),
            status.svd_failed(x, s))


def _pad_to(a, shape):
    zero = lax.convert_element_type(0, a.dtype)
    return lax.pad(a, zero, [(0, n - m, 0) for m, n in zip(a.shape, shape)])


def _svd(x, v, dt, full_matrices, compute_uv):
    """``_svd_kernel``'s results (the last: the SVD failed) for ``x``: on its bucket where
    ``x`` is a bucketed Array (and the kernel's rule lets it), else on ``v``, its raw
    value."""
    return call(_svd_kernel, x if type(x) is Array else v, dtype=dt,
                full_matrices=full_matrices, compute_uv=compute_uv, cut=None)


@in_wide_region
@fill(params=_docs.PARAMS_MATRICES, linalg_error=_docs.SVD_ERROR, dtypes=_docs.DTYPES,
      eager=_docs.eager("an SVD that does not converge"))
def svd(x, /, *, full_matrices=True, compute_uv=True):
    """Compute the singular value decomposition ``x = U @ diag(S) @ Vh`` of matrices.

    Array API: linalg.svd. NumPy: numpy.linalg.svd.

    {params}
    full_matrices : bool, optional
        True (default): U ``(..., M, M)`` and Vh ``(..., N, N)``; False: the thin factors U
        ``(..., M, K)`` and Vh ``(..., K, N)``, ``K = min(M, N)``.
    compute_uv : bool, optional
        False returns only the singular values (NumPy's argument); default True.

    Returns
    -------
    SVDResult or Array
        A named tuple ``(U, S, Vh)``: U and Vh of ``x``'s floating dtype, S ``(..., K)``
        real and descending; or S alone when ``compute_uv=False``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or of a dtype linalg does not compute in here.  Also if
        ``full_matrices`` or ``compute_uv`` is not a bool.
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: ``full_matrices``, ``compute_uv``.

    The factors' signs (phases) are not specified.  NumPy's ``hermitian`` is not accepted.
    Differentiate with ``full_matrices=False`` (jax has no derivative for the complete
    factors of a non-square matrix).
    {dtypes}
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> u, s, vh = la.linalg.svd(la.asarray([[3.0, 0.0], [0.0, -2.0]]))
    >>> s
    Array([3., 2.])
    >>> la.linalg.svd(la.ones((4, 3)), full_matrices=False).U.shape
    (4, 3)
    """
    v, dt = matrix_operand("svd", x)
    full_matrices = check_bool("svd", full_matrices, "full_matrices")
    compute_uv = check_bool("svd", compute_uv, "compute_uv")
    if not compute_uv:
        return svdvals(x)
    u, s, vh, failed = _svd(x, v, dt, full_matrices, True)
    status.raise_if(failed, status.SVD_NOT_CONVERGED)
    return SVDResult(u, s, vh)


@in_wide_region
@fill(params=_docs.PARAMS_MATRICES, raises=_docs.RAISES_TYPE, linalg_error=_docs.SVD_ERROR,
      dtypes=_docs.DTYPES, eager=_docs.eager("an SVD that does not converge"))
def svdvals(x, /):
    """Compute the singular values of matrices.

    Array API: linalg.svdvals. NumPy: numpy.linalg.svdvals.

    {params}

    Returns
    -------
    Array
        The singular values ``(..., min(M, N))``, descending, in the real dtype of ``x``'s
        floating dtype.

    {raises}
    {linalg_error}

    Notes
    -----
    Static under ``jax.jit``: none.

    The singular values of :func:`svd`, without its factors.
    {dtypes}
    {eager}

    Examples
    --------
    >>> import laxarray as la
    >>> la.linalg.svdvals(la.asarray([[3.0, 0.0], [0.0, -2.0]]))
    Array([3., 2.])
    """
    v, dt = matrix_operand("svdvals", x)
    s, failed = _svd(x, v, dt, False, False)
    status.raise_if(failed, status.SVD_NOT_CONVERGED)
    return s


__all__ = ["cholesky", "eigh", "eigvalsh", "eig", "eigvals", "qr", "svd", "svdvals"]
