"""LAPACK's failures as NumPy reports them: the predicates and the eager ``LinAlgError``.

NumPy raises ``numpy.linalg.LinAlgError`` when LAPACK returns a nonzero ``info``: ``getrf``
met an exact zero pivot ("Singular matrix": ``solve``, ``inv``, ``tensorsolve``,
``tensorinv``, ``matrix_power`` with ``n < 0``), ``potrf`` a pivot ``<= 0`` ("Matrix is not
positive definite": ``cholesky``), the SVD, ``syevd`` or ``geev`` did not converge.  jax
runs the same LAPACK routines on CPU but keeps ``info`` to itself: it writes NaN over the
factors of a failed matrix (``getrf``'s zero pivot is not a failure for jax, and stays a zero
in U).  The predicates below read that back from a kernel's own values, as a boolean scalar
(any matrix of a stack):

- ``lu_singular``: a zero on the diagonal of U, which is exactly ``getrf``'s ``info > 0``
  (a nearly singular matrix has a tiny nonzero pivot and does not raise, as in NumPy);
- ``cholesky_failed``: ``potrf`` leaves the strict upper triangle of its input untouched, so
  a NaN in its first row where the input had none is jax's mark of ``info != 0``; the first
  pivot (a 1x1 matrix too) fails iff it is ``<= 0``;
- ``svd_failed``, ``eigh_failed``, ``eig_status``: NaN among the values, read as NumPy reads
  the same input (see each).

A linalg function computes its predicate in the same kernel as its result and, when called
eagerly, raises after computing (:func:`raise_if`), so eager calls wait for the kernel to
finish (the cost is measured in ``docs/performance.md``).  Under ``jax.jit`` and ``vmap``
nothing is raised (the predicate is dead code that XLA removes; the result is inf/NaN as
before); ``jax.grad`` outside ``jit`` computes the values eagerly and raises as NumPy would; ``laxarray.checkify.linalg_checks`` reports the same failures there, from the same
predicates applied to the primitives.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import LinAlgError
from laxarray._core.jaxapi import is_tracer
from laxarray.linalg._matrix_ops import diagonal

SINGULAR = "Singular matrix"
NOT_POSITIVE_DEFINITE = "Matrix is not positive definite"
SVD_NOT_CONVERGED = "SVD did not converge"
LSTSQ_NOT_CONVERGED = "SVD did not converge in Linear Least Squares"
EIGENVALUES_NOT_CONVERGED = "Eigenvalues did not converge"
NOT_FINITE = "Array must not contain infs or NaNs"


def _any(b):
    return lax.reduce_or(b, tuple(range(b.ndim))) if b.ndim else b


def _all(b):
    return lax.reduce_and(b, tuple(range(b.ndim))) if b.ndim else b


def _isnan(x):
    return lax.ne(x, x)


def _finite(x):
    if _dt.kind_of(x.dtype) == "c":
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return lax.is_finite(x)


def _false():
    return lax.full((), False, bool)


def zero_on_diagonal(a):
    """Per matrix of ``a (..., N, N)``: an exact zero on its diagonal (boolean ``(...)``)."""
    if a.shape[-1] == 0:
        return lax.full(a.shape[:-2], False, bool)
    d = diagonal(a)
    return lax.reduce_or(lax.eq(d, lax.full_like(d, 0)), (d.ndim - 1,))


def lu_singular(lu):
    """``getrf``'s ``info > 0`` for some matrix: an exact zero pivot in U."""
    return _any(zero_on_diagonal(lu))


def cholesky_failed(x, raw):
    """``potrf``'s ``info != 0`` for some matrix, from its input ``x`` (the Hermitian matrix
    handed to ``cholesky_p``) and its raw output ``raw`` (before the lower triangle is kept).

    The first pivot fails iff ``x[0, 0] <= 0`` (also for ``n == 1``).  A later failure makes
    jax write NaN over the whole matrix, so over the first row of the strict upper triangle,
    which ``potrf`` leaves as it was: a NaN there where ``x`` had none.  Only that row is
    read (O(n), not O(n**2)).  If all of it is NaN in ``x`` (the first column of the lower
    triangle is NaN), every later pivot is NaN, which LAPACK (OpenBLAS, as NumPy's) does not
    report: then only the first pivot can fail.
    """
    n = x.shape[-1]
    if n == 0:
        return _false()
    row = lax.slice_in_dim(x, 0, 1, axis=x.ndim - 2)
    first = lax.slice_in_dim(row, 0, 1, axis=x.ndim - 1)
    real = lax.real(first) if _dt.kind_of(first.dtype) == "c" else first
    failed = _any(lax.le(real, lax.full_like(real, 0)))
    if n > 1:
        x_row = lax.slice_in_dim(row, 1, n, axis=x.ndim - 1)
        raw_row = lax.slice_in_dim(lax.slice_in_dim(raw, 0, 1, axis=x.ndim - 2), 1, n,
                                   axis=x.ndim - 1)
        marked = lax.bitwise_and(_isnan(raw_row), lax.bitwise_not(_isnan(x_row)))
        failed = lax.bitwise_or(failed, _any(marked))
    return failed


def svd_failed(x, s):
    """The SVD did not converge, as NumPy reports it: NaN singular values, from an input that
    holds a NaN or is finite (an input with infinities and no NaN makes LAPACK's scaling
    complain and return without ``info``: NumPy returns its values)."""
    if s.size == 0:
        return _false()
    nan_in = _any(_isnan(x))
    finite = _all(_finite(x))
    return lax.bitwise_and(_any(_isnan(s)), lax.bitwise_or(nan_in, finite))


def lstsq_failed(s):
    """``gelsd`` did not converge, as NumPy reports it: NaN singular values (any input)."""
    return _any(_isnan(s)) if s.size else _false()


def eigh_failed(x, w):
    """``syevd`` did not converge: NaN eigenvalues of a finite (lower-triangle) input.
    NumPy returns NaN without raising for input that holds NaN or infinities."""
    if w.size == 0:
        return _false()
    return lax.bitwise_and(_any(_isnan(w)), _all(_finite(x)))


def eig_status(x, w):
    """``0``: fine; ``1``: the input holds inf/NaN (NumPy refuses it before ``geev``);
    ``2``: ``geev`` did not converge (NaN eigenvalues of a finite input)."""
    if x.size == 0:
        return lax.full((), 0, _dt.int32)
    finite = _all(_finite(x))
    nan_w = _any(_isnan(w))
    return lax.select(lax.bitwise_not(finite), lax.full((), 1, _dt.int32),
                      lax.select(nan_w, lax.full((), 2, _dt.int32), lax.full((), 0, _dt.int32)))


EIG_MESSAGES = (None, NOT_FINITE, EIGENVALUES_NOT_CONVERGED)


def raise_if(status, message):
    """Eagerly, raise ``LinAlgError(message)`` if the boolean scalar ``status`` is true; a
    traced ``status`` (``jax.jit``, ``vmap``, ``grad``) raises nothing.

    ``message`` is a string, or a tuple indexed by an integer ``status`` (0: no error).
    ``LinAlgError`` is NumPy's class (laxarray's subclass of ``numpy.linalg.LinAlgError``).
    """
    value = getattr(status, "_value", status)
    if is_tracer(value):
        return
    code = int(np.asarray(value))     # np.asarray: a fifth of int()'s cost on a jax scalar
    if code:
        raise LinAlgError(message[code] if isinstance(message, tuple) else message)


__all__ = ["SINGULAR", "NOT_POSITIVE_DEFINITE", "SVD_NOT_CONVERGED", "LSTSQ_NOT_CONVERGED",
           "EIGENVALUES_NOT_CONVERGED", "NOT_FINITE", "EIG_MESSAGES", "zero_on_diagonal",
           "lu_singular", "cholesky_failed", "svd_failed", "lstsq_failed", "eigh_failed",
           "eig_status", "raise_if"]
