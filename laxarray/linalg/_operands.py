"""Argument checks and dtype rules shared by the linalg functions.

Functions that need floating-point arithmetic (``inv``, ``det``, ``svd``, norms ...) follow
NumPy and the standard's "should have a floating-point data type": bool and integer input is
promoted to the default float (float64); float32/complex64 stay single precision.
Checks use static facts only (rank, shape, dtype), so they run the same under ``jax.jit``.
"""

from __future__ import annotations

from typing import NamedTuple

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.errors import LinAlgError, fail
from laxarray.array_api._array import Array
from laxarray.array_api._convert import to_raw


#: the raw jax value of an array-like argument (``TypeError`` naming ``fn`` if unusable)
raw = to_raw


def float_dtype(dtype):
    """The floating dtype a linalg computation on ``dtype`` runs in (ints/bool -> float64)."""
    return dtype if dtype in _dt.CATEGORIES["floating-point"] else _dt.default_float()


def float_operand(fn, x, argname="x", *, min_rank=0):
    """``(raw, float dtype)`` for an argument of rank >= ``min_rank``."""
    v = raw(fn, x, argname)
    if v.ndim < min_rank:
        fail(LinAlgError, fn, f"an array of rank >= {min_rank} for '{argname}'", x)
    return v, float_dtype(v.dtype)


def matrix_operand(fn, x, argname="x", *, square=False):
    """``(raw, float dtype)`` for a stack of matrices ``(..., M, N)`` (``M == N`` if square)."""
    v, dt = float_operand(fn, x, argname, min_rank=2)
    # LAPACK has no half precision (NumPy refuses it too), the TPU no float64
    _backend.current().check_family(fn, "linalg", v.dtype if v.dtype in
                                    _dt.EXTRA_FLOATING else dt, argname)
    if square and v.shape[-1] != v.shape[-2]:
        fail(LinAlgError, fn, f"square matrices in the last two axes of '{argname}'", x)
    return v, dt


def check_rtol(fn, rtol, batch_shape, argname="rtol"):
    """``rtol``: None, a Python real or a real floating array broadcasting to ``batch_shape``.

    Returns ``(static_value_or_None, raw_array_or_None)``.
    """
    if rtol is None:
        return None, None
    if isinstance(rtol, (int, float)) and not isinstance(rtol, bool):
        return float(rtol), None
    v = raw(fn, rtol, argname)
    if v.dtype not in _dt.CATEGORIES["real floating"] and _dt.kind_of(v.dtype) not in "iu":
        fail(TypeError, fn, f"a real floating-point array for '{argname}'", v.dtype)
    nd = max(v.ndim, len(batch_shape))
    a = (1,) * (nd - v.ndim) + tuple(v.shape)
    b = (1,) * (nd - len(batch_shape)) + tuple(batch_shape)
    if nd > len(batch_shape) or any(p != q and p != 1 for p, q in zip(a, b)):
        fail(ValueError, fn, f"'{argname}' broadcastable to the batch shape {tuple(batch_shape)}",
             rtol)
    return None, v


class EighResult(NamedTuple):
    """``(eigenvalues, eigenvectors)`` of :func:`laxarray.linalg.eigh`."""
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    """``(eigenvalues, eigenvectors)`` of :func:`laxarray.linalg.eig`."""
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """``(Q, R)`` of :func:`laxarray.linalg.qr`."""
    Q: Array
    R: Array


class SVDResult(NamedTuple):
    """``(U, S, Vh)`` of :func:`laxarray.linalg.svd`."""
    U: Array
    S: Array
    Vh: Array


class SlogdetResult(NamedTuple):
    """``(sign, logabsdet)`` of :func:`laxarray.linalg.slogdet`."""
    sign: Array
    logabsdet: Array


class LstsqResult(NamedTuple):
    """``(x, residuals, rank, s)`` of :func:`laxarray.linalg.lstsq`."""
    x: Array
    residuals: Array
    rank: Array
    s: Array
