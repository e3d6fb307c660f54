"""NumPy's legacy polynomial functions that rest on linear algebra: vander, polyfit (a least
squares fit through ``laxarray.linalg.lstsq``), roots (the eigenvalues of the companion
matrix, ``laxarray.linalg.eigvals``) and poly (the coefficients from the roots).

Coefficients are highest power first, as in ``_poly``.  NumPy strips leading and trailing
zero coefficients in ``roots``, which makes its output shape depend on values: that happens
eagerly, and under ``jax.jit`` it needs ``strip_zeros=False``.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, check_int
from laxarray.array_api._calls import call
import laxarray.array_api as xa
import laxarray.linalg as linalg
from laxarray.array_api._array import wrap
from laxarray.linalg._operands import raw
from laxarray.numpy_api.mathfuncs._poly import _inexact, _poly1d

__all__ = ["vander", "polyfit", "roots", "poly"]


@kernel(static=("n", "increasing", "dtype"))
def _vander_kernel(x, *, n, increasing, dtype):
    x = lax.convert_element_type(x, dtype)
    cols = [lax.full_like(x, 1)] if n else []
    for _ in range(1, n):
        cols.append(lax.mul(cols[-1], x))
    if not increasing:
        cols = cols[::-1]
    if not cols:
        return lax.full((x.shape[0], 0), 0, dtype)
    return lax.concatenate([lax.expand_dims(c, (1,)) for c in cols], 1)


@in_wide_region
def vander(x, N=None, increasing=False):
    """Return the Vandermonde matrix of a vector.

    Array API: (not in the standard). NumPy: numpy.vander.

    Parameters
    ----------
    x : array_like
        The 1-D input.
    N : int, optional
        The number of columns; default ``len(x)``.
    increasing : bool, optional
        Powers increasing from left to right; default False (``x**(N-1)`` first).

    Returns
    -------
    Array
        Of shape ``(len(x), N)``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like.
    ValueError
        If ``x`` is not 1-D, or ``N`` is negative.

    Notes
    -----
    Static under ``jax.jit``: ``N``, ``increasing``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.vander(la.asarray([1, 2, 3]))
    Array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    """
    fn = "vander"
    v = raw(fn, x)
    if v.ndim != 1:
        fail(ValueError, fn, "a 1-D array for 'x'", v)
    n = v.shape[0] if N is None else check_int(fn, N, "N", minimum=0)
    check_bool(fn, bool(increasing) if isinstance(increasing, np.bool_) else increasing,
               "increasing")
    dt = _dt.promote_types(v.dtype, _dt.default_int())
    return call(_vander_kernel, v, n=n, increasing=bool(increasing), dtype=dt)


@in_wide_region
def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Fit a polynomial of a degree to points by least squares.

    Array API: (not in the standard). NumPy: numpy.polyfit.

    Parameters
    ----------
    x : array_like
        The 1-D sample points.
    y : array_like
        The values: 1-D, or 2-D with one data set per column; of ``x``'s length.
    deg : int
        The polynomial's degree, at least 0.
    rcond : float, optional
        The relative cutoff for small singular values; default ``len(x) * eps``.
    full : bool, optional
        Also return the diagnostics (see Returns); default False.
    w : array_like, optional
        Weights applied to the residuals, one per sample.
    cov : bool or 'unscaled', optional
        Also return the covariance matrix of the coefficients; default False.

    Returns
    -------
    Array or tuple
        The coefficients, highest power first; with ``full``, ``(coefficients, residuals,
        rank, singular values, rcond)``; with ``cov``, ``(coefficients, covariance)``.

    Raises
    ------
    TypeError
        If an operand is not array_like, or ``y`` is not 1-D/2-D of ``x``'s length.
    ValueError
        If ``deg`` is negative.

    Notes
    -----
    Static under ``jax.jit``: ``deg``, ``rcond``, ``full``, ``cov``.

    NumPy's algorithm (scaled Vandermonde columns, ``linalg.lstsq``); NumPy's
    ``RankWarning`` is not issued.

    Examples
    --------
    >>> import laxarray as la
    >>> la.polyfit(la.asarray([0.0, 1.0, 2.0, 3.0]), la.asarray([1.0, 3.0, 5.0, 7.0]), 1)
    Array([2., 1.])
    """
    fn = "polyfit"
    order = check_int(fn, deg, "deg", minimum=0) + 1
    vx, vy = raw(fn, x, "x"), raw(fn, y, "y")
    if vx.ndim != 1 or vx.shape[0] == 0:
        fail(TypeError, fn, "a non-empty 1-D array for 'x'", vx)
    if vy.ndim not in (1, 2) or vy.shape[0] != vx.shape[0]:
        fail(TypeError, fn, "'y' 1-D or 2-D with the length of 'x'", vy)
    if cov not in (True, False, "unscaled"):
        fail(ValueError, fn, "cov to be a bool or 'unscaled'", cov)
    dt = _inexact(_dt.promote_types(vx.dtype, vy.dtype))
    xs, ys = xa.astype(wrap(vx), _inexact(vx.dtype)), xa.astype(wrap(vy), dt)
    if rcond is None:
        rcond = vx.shape[0] * float(_dt.machine_limits(_dt.real_dtype(xs.dtype)).eps)
    lhs = vander(xs, order)
    rhs = ys
    if w is not None:
        vw = raw(fn, w, "w")
        if vw.ndim != 1 or vw.shape[0] != vx.shape[0]:
            fail(TypeError, fn, "'w' 1-D with the length of 'x'", vw)
        ww = xa.astype(wrap(vw), _inexact(vw.dtype))
        lhs = lhs * ww[:, None]
        rhs = rhs * (ww[:, None] if rhs.ndim == 2 else ww)
    scale = xa.sqrt(xa.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond=float(rcond))
    c = xa.matrix_transpose(xa.matrix_transpose(c) / scale) if c.ndim == 2 else c / scale
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = linalg.inv(xa.matmul(xa.matrix_transpose(lhs), lhs))
        vbase = vbase / (scale[:, None] * scale[None, :])
        if cov == "unscaled":
            fac = 1.0
        else:
            if vx.shape[0] <= order:
                fail(ValueError, fn, "more data points than deg + 1 to scale the covariance",
                     vx.shape[0])
            fac = resids / (vx.shape[0] - order)
        if vy.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


def _strip(fn, v, flag):
    """Eager NumPy-style trimming of leading/trailing zero coefficients."""
    if is_tracer(v):
        fail_text(ValueError, fn, "stripping zero coefficients depends on values; under "
                  "jax.jit pass strip_zeros=False (the leading coefficient must be non-zero)")
    nz = np.nonzero(np.asarray(v))[0]
    if len(nz) == 0:
        return None, 0
    return v[int(nz[0]):int(nz[-1]) + 1], v.shape[0] - int(nz[-1]) - 1


@kernel(static=("dtype", "trailing"))
def _companion_kernel(p, *, dtype, trailing):
    p = lax.convert_element_type(p, dtype)
    n = p.shape[0] - 1
    first = lax.neg(lax.div(lax.slice_in_dim(p, 1, n + 1), p[0]))
    rows = [lax.expand_dims(first, (0,))]
    if n > 1:
        eye = lax.convert_element_type(
            lax.eq(lax.broadcasted_iota(np.int32, (n - 1, n), 0),
                   lax.broadcasted_iota(np.int32, (n - 1, n), 1)), dtype)
        rows.append(eye)
    return lax.concatenate(rows, 0)


@kernel(static=("dtype",))
def _linear_root_kernel(p, *, dtype):
    p = lax.convert_element_type(p, dtype)
    return lax.neg(lax.div(lax.slice_in_dim(p, 1, 2), lax.slice_in_dim(p, 0, 1)))


@in_wide_region
def roots(p, *, strip_zeros=True):
    """Return the roots of a polynomial (coefficients highest power first).

    Array API: (not in the standard). NumPy: numpy.roots.

    Parameters
    ----------
    p : array_like
        The 1-D coefficients.
    strip_zeros : bool, optional
        Strip leading zeros and turn trailing zeros into zero roots, as NumPy does; needs
        concrete values, so pass False under ``jax.jit`` (the first coefficient must then be
        non-zero).  Default True.

    Returns
    -------
    Array
        The roots, the eigenvalues of the companion matrix: always complex (NumPy returns a
        real array when every root is real).

    Raises
    ------
    TypeError
        If ``p`` is not array_like.
    ValueError
        If ``p`` is not 1-D.

    Notes
    -----
    Static under ``jax.jit``: ``strip_zeros``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.roots(la.asarray([1.0, -3.0, 2.0]))
    Array([2.+0.j, 1.+0.j])
    """
    fn = "roots"
    check_bool(fn, strip_zeros, "strip_zeros")
    v = _poly1d(fn, p)
    dt = _dt.complex_dtype(_inexact(v.dtype))
    trailing = 0
    if strip_zeros:
        v, trailing = _strip(fn, v, strip_zeros)
        if v is None:
            return xa.zeros((0,), dtype=dt)
    parts = []
    if v.shape[0] == 2:  # degree 1: the root itself (no eigenvalue solver)
        parts.append(xa.astype(call(_linear_root_kernel, v, dtype=dt), dt))
    elif v.shape[0] > 2:
        comp = call(_companion_kernel, v, dtype=_inexact(v.dtype), trailing=0)
        parts.append(xa.astype(linalg.eigvals(comp), dt))
    if trailing:
        parts.append(xa.zeros((trailing,), dtype=dt))
    if not parts:
        return xa.zeros((0,), dtype=dt)
    return parts[0] if len(parts) == 1 else xa.concat(parts)


@kernel(static=("dtype",))
def _poly_kernel(z, *, dtype):
    z = lax.convert_element_type(z, dtype)
    a = lax.full((1,), 1, dtype)
    for i in range(z.shape[0]):
        shifted = lax.pad(a, np.zeros((), dtype), [(0, 1, 0)])
        prev = lax.pad(lax.mul(a, z[i]), np.zeros((), dtype), [(1, 0, 0)])
        a = lax.sub(shifted, prev)
    return a


@in_wide_region
def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or of a square matrix's
    characteristic polynomial). NumPy: numpy.poly.

    As NumPy, complex roots that come in conjugate pairs give a real result; that check
    needs concrete values, so under ``jax.jit`` complex input gives a complex result.
    """
    fn = "poly"
    v = raw(fn, seq_of_zeros, "seq_of_zeros")
    if v.ndim == 2 and v.shape[0] == v.shape[1] and v.shape[0] != 0:
        v = linalg.eigvals(wrap(v))._value
    elif v.ndim == 0:
        v = lax.reshape(v, (1,))
    elif v.ndim != 1:
        fail(ValueError, fn, "a 1-D array of roots or a square 2-D array", v)
    dt = _inexact(v.dtype)
    if v.shape[0] == 0:  # NumPy: the empty product, a 0-d 1.0
        return wrap(lax.full((), 1.0, _dt.real_dtype(dt)))
    out = call(_poly_kernel, v, dtype=dt)
    if _dt.kind_of(dt) == "c" and not is_tracer(out._value):
        roots_np = np.asarray(v)
        if np.all(np.sort(roots_np) == np.sort(roots_np.conjugate())):
            return wrap(lax.real(out._value))
    return out
