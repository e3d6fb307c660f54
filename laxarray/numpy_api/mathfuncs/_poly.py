"""NumPy's legacy polynomial functions (coefficients highest power first) and the window
functions.

polyval/polyadd/polysub/polymul/polyder/polyint/vander are static-shape kernels; polyfit
goes through ``laxarray.linalg.lstsq`` and roots through ``laxarray.linalg.eigvals`` of the
companion matrix.  NumPy strips leading zeros (polydiv's remainder, roots' coefficients),
which makes the output shape depend on values: that happens eagerly, and under
``jax.jit`` the functions need ``trim_leading_zeros=False`` / ``strip_zeros=False``.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jaxapi.regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, check_int
from laxarray.array_api._calls import call
import laxarray.array_api as xa
import laxarray.linalg as linalg
from laxarray.array_api._array import wrap
from laxarray.array_api._ufunc import binary_operands
from laxarray.linalg._operands import raw
from laxarray.numpy_api.mathfuncs._elementwise import i0
from laxarray.numpy_api.mathfuncs._products import convolve


def _poly1d(fn, p, argname="p"):
    v = raw(fn, p, argname)
    if v.ndim == 0:
        v = lax.reshape(v, (1,))
    if v.ndim != 1:
        fail(ValueError, fn, f"a 1-D array of coefficients for '{argname}'", v)
    return v


def _inexact(dtype):
    return dtype if _dt.kind_of(dtype) in "fc" else _dt.default_float()


# ---- evaluation and arithmetic -----------------------------------------------------------
@kernel(static=("dtype",))
def _polyval_kernel(p, x, *, dtype):
    p = lax.convert_element_type(p, dtype)
    x = lax.convert_element_type(x, dtype)
    y = lax.full_like(x, 0)
    for i in range(p.shape[0]):
        y = lax.add(lax.mul(y, x), lax.broadcast_in_dim(p[i], x.shape, ()))
    return y


@in_wide_region
def polyval(p, x):
    """Evaluate a polynomial at points.

    Array API: (not in the standard). NumPy: numpy.polyval.

    Parameters
    ----------
    p : array_like
        The coefficients, highest power first.
    x : array_like
        The points.

    Returns
    -------
    Array
        ``p[0] * x**(n-1) + ... + p[n-1]``, of ``x``'s shape and the promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not array_like.

    Notes
    -----
    Static under ``jax.jit``: the number of coefficients.

    Horner's scheme.

    Examples
    --------
    >>> import laxarray as la
    >>> la.polyval(la.asarray([1.0, 2.0, 3.0]), 2.0)
    Array(11.)
    >>> la.polyval([3, 0, 1], la.asarray([5, 1]))
    Array([76,  4])
    """
    vp = _poly1d("polyval", p)
    if _dt.scalar_pytype(x) is not None:
        _, vx, dt = binary_operands("polyval", wrap(vp), x)
    else:
        vx = raw("polyval", x, "x")
        dt = _dt.promote_types(vp.dtype, vx.dtype)
    return call(_polyval_kernel, vp, vx, dtype=dt)


@kernel(static=("dtype", "n", "subtract"))
def _polyadd_kernel(a, b, *, dtype, n, subtract):
    a = lax.pad(lax.convert_element_type(a, dtype), np.zeros((), dtype),
                [(n - a.shape[0], 0, 0)])
    b = lax.pad(lax.convert_element_type(b, dtype), np.zeros((), dtype),
                [(n - b.shape[0], 0, 0)])
    if _dt.kind_of(dtype) == "b":
        return lax.bitwise_xor(a, b) if subtract else lax.bitwise_or(a, b)
    return lax.sub(a, b) if subtract else lax.add(a, b)


def _polyadd(fn, a1, a2, subtract):
    va, vb = _poly1d(fn, a1, "a1"), _poly1d(fn, a2, "a2")
    dt = _dt.promote_types(va.dtype, vb.dtype)
    if subtract and _dt.kind_of(dt) == "b":
        _dt.check_category(fn, "a1, a2", dt, "numeric")
    n = max(va.shape[0], vb.shape[0])
    return call(_polyadd_kernel, va, vb, dtype=dt, n=n, subtract=subtract)


@in_wide_region
def polyadd(a1, a2):
    """Add two polynomials. NumPy: numpy.polyadd.

    Parameters
    ----------
    a1, a2 : array_like
        The coefficients, 1-D (or scalars), highest power first.

    Returns
    -------
    Array
        The coefficients of ``a1 + a2``, highest power first, as long as the longer input
        (NumPy's ``poly1d`` inputs are not taken: pass their ``coeffs``).

    Raises
    ------
    TypeError
        If an input is not array_like.
    ValueError
        If an input has rank above one.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.polyadd(la.asarray([1, 2]), la.asarray([1, 0, 3]))
    Array([1, 1, 5])
    """
    return _polyadd("polyadd", a1, a2, False)


@in_wide_region
def polysub(a1, a2):
    """Subtract one polynomial from another. NumPy: numpy.polysub.

    Parameters
    ----------
    a1, a2 : array_like
        The coefficients, 1-D (or scalars), highest power first.

    Returns
    -------
    Array
        The coefficients of ``a1 - a2``, highest power first, as long as the longer input
        (NumPy's ``poly1d`` inputs are not taken: pass their ``coeffs``).

    Raises
    ------
    TypeError
        If an input is not array_like.
    ValueError
        If an input has rank above one.

    Notes
    -----
    Static under ``jax.jit``: none.

    Examples
    --------
    >>> import laxarray as la
    >>> la.polysub(la.asarray([1, 2]), la.asarray([1, 0, 3]))
    Array([-1,  1, -1])
    """
    return _polyadd("polysub", a1, a2, True)


def _trim_leading(fn, v):
    """NumPy's ``poly1d(v)``: leading zeros removed (``[0]`` if all are zero), eagerly."""
    if is_tracer(v):
        fail_text(ValueError, fn, "trimming leading zero coefficients depends on values; "
                  "under jax.jit pass trim_leading_zeros=False")
    nz = np.nonzero(np.asarray(v))[0]
    if len(nz) == 0:
        return v[:1] if v.shape[0] else lax.full((1,), 0, v.dtype)
    return v[int(nz[0]):] if nz[0] else v


@in_wide_region
def polymul(a1, a2, *, trim_leading_zeros=True):
    """Product of two polynomials: the convolution of their coefficients.
    NumPy: numpy.polymul.

    As NumPy (which goes through ``poly1d``), leading zero coefficients of the inputs are
    removed first; that needs concrete values, so under ``jax.jit`` pass
    ``trim_leading_zeros=False``.
    """
    fn = "polymul"
    check_bool(fn, trim_leading_zeros, "trim_leading_zeros")
    v1, v2 = _poly1d(fn, a1, "a1"), _poly1d(fn, a2, "a2")
    if trim_leading_zeros:
        v1, v2 = _trim_leading(fn, v1), _trim_leading(fn, v2)
    return convolve(v1, v2)


@kernel(static=("dtype",))
def _polydiv_kernel(u, v, *, dtype):
    u = lax.convert_element_type(u, dtype)
    v = lax.convert_element_type(v, dtype)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = lax.div(lax.full((), 1, dtype), v[0])
    q = []
    r = u
    for k in range(m - n + 1):
        d = lax.mul(scale, r[k])
        q.append(d)
        seg = lax.sub(lax.slice_in_dim(r, k, k + n + 1), lax.mul(d, v))
        r = lax.dynamic_update_slice_in_dim(r, seg, k, 0)
    quot = lax.stack(q) if q else lax.full((1,), 0, dtype)
    return quot, r


@in_wide_region
def polydiv(u, v, *, trim_leading_zeros=True):
    """Quotient and remainder of polynomial division. NumPy: numpy.polydiv.

    As NumPy, the remainder's leading (near-)zero coefficients are removed
    (``allclose(r[0], 0, rtol=1e-14)``); that needs concrete values, so under ``jax.jit``
    pass ``trim_leading_zeros=False`` to get the full-length remainder.
    """
    fn = "polydiv"
    check_bool(fn, trim_leading_zeros, "trim_leading_zeros")
    vu, vv = _poly1d(fn, u, "u"), _poly1d(fn, v, "v")
    dt = _inexact(_dt.promote_types(vu.dtype, vv.dtype))
    q, r = call(_polydiv_kernel, vu, vv, dtype=dt)
    if not trim_leading_zeros:
        return q, r
    if is_tracer(r._value):
        fail_text(ValueError, fn, "trimming the remainder's leading zeros depends on values; "
                  "under jax.jit pass trim_leading_zeros=False")
    rn = np.asarray(r._value)
    start = 0
    while rn.shape[0] - start > 1 and abs(rn[start]) <= 1e-8:
        start += 1
    return q, r[start:] if start else r


@kernel(static=("m", "dtype"))
def _polyder_kernel(p, *, m, dtype):
    p = lax.convert_element_type(p, dtype)
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return lax.full((0,), 0, dtype)
        powers = np.arange(n, 0, -1).astype(dtype)
        p = lax.mul(lax.slice_in_dim(p, 0, n), powers)
    return p


@in_wide_region
def polyder(p, m=1):
    """Return the ``m``-th derivative of a polynomial. NumPy: numpy.polyder.

    Parameters
    ----------
    p : array_like
        The coefficients, 1-D, highest power first.
    m : int, optional
        The order of the derivative; default 1.

    Returns
    -------
    Array
        The derivative's coefficients, highest power first, ``m`` fewer (at least one), in
        ``p``'s dtype promoted with the default integer as NumPy's (float32 gives float64).

    Raises
    ------
    TypeError
        If ``p`` is not array_like or ``m`` not an integer.
    ValueError
        If ``m`` is negative or ``p`` has rank above one.

    Notes
    -----
    Static under ``jax.jit``: ``m``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.polyder(la.asarray([1, 2, 3, 4]))
    Array([3, 4, 3])
    >>> la.polyder(la.asarray([1.0, 2.0, 3.0, 4.0]), 2)
    Array([6., 4.])
    """
    fn = "polyder"
    m = check_int(fn, m, "m", minimum=0)
    v = _poly1d(fn, p)
    if m == 0:
        return wrap(v)
    # NumPy multiplies by an int64 array of powers: float32 coefficients give float64
    dt = _dt.promote_types(v.dtype, _dt.default_int())
    return call(_polyder_kernel, v, m=m, dtype=dt)


@kernel(static=("m", "dtype"))
def _polyint_kernel(p, k, *, m, dtype):
    p = lax.convert_element_type(p, dtype)
    k = lax.convert_element_type(k, dtype)
    for i in range(m):
        n = p.shape[0]
        div = np.arange(n, 0, -1).astype(dtype)
        p = lax.concatenate([lax.div(p, div), lax.slice_in_dim(k, i, i + 1)], 0)
    return p


@in_wide_region
def polyint(p, m=1, k=None):
    """Return the ``m``-th antiderivative of a polynomial. NumPy: numpy.polyint.

    Parameters
    ----------
    p : array_like
        The coefficients, 1-D, highest power first.
    m : int, optional
        The number of integrations; default 1.
    k : scalar or array_like, optional
        The integration constants, one per step (the first step's first) or one scalar for
        every step; default 0.

    Returns
    -------
    Array
        The antiderivative's coefficients, highest power first, ``m`` more, of a floating
        dtype.

    Raises
    ------
    TypeError
        If ``p`` or ``k`` is not array_like, or ``m`` not an integer.
    ValueError
        If ``m`` is negative, ``p`` has rank above one, or ``k`` is not a scalar or 1-D.

    Notes
    -----
    Static under ``jax.jit``: ``m``.

    ``k`` may be traced.

    Examples
    --------
    >>> import laxarray as la
    >>> la.polyint(la.asarray([3.0, 2.0, 1.0]))
    Array([1., 1., 1., 0.])
    >>> la.polyint(la.asarray([6.0, 2.0]), 2, k=[1.0, 2.0])
    Array([1., 1., 1., 2.])
    """
    fn = "polyint"
    m = check_int(fn, m, "m", minimum=0)
    v = _poly1d(fn, p)
    if m == 0:
        return wrap(v)
    kv = raw(fn, 0.0 if k is None else k, "k")
    if kv.ndim > 1:
        fail(ValueError, fn, "a scalar or 1-D array for 'k'", kv)
    if kv.ndim == 0 or kv.shape[0] == 1:
        kv = lax.broadcast_in_dim(lax.reshape(kv, ()), (m,), ())
    if kv.shape[0] < m:
        fail(ValueError, fn, f"at least m={m} integration constants in 'k'", kv.shape[0])
    dt = _inexact(_dt.promote_types(v.dtype, kv.dtype))
    return call(_polyint_kernel, v, kv, m=m, dtype=dt)


# ---- vander, polyfit, roots, poly --------------------------------------------------------
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


# ---- windows -------------------------------------------------------------------------------
def _window_len(fn, M):
    return check_int(fn, M, "M")


@kernel(static=("M", "kind"))
def _cosine_window_kernel(*, M, kind):
    n = lax.convert_element_type(lax.iota(_dt.default_index(), M), _dt.on_device(_dt.float64))
    # 1-M, ..., M-1 (constants of n's dtype: float32 where the device has no float64)
    n = lax.sub(lax.mul(n, lax.full_like(n, 2.0)), lax.full_like(n, M - 1))
    t = lax.div(n, lax.full_like(n, M - 1))
    if kind == "bartlett":
        return lax.select(lax.le(n, lax.full_like(n, 0)), lax.add(lax.full_like(t, 1), t),
                          lax.sub(lax.full_like(t, 1), t))
    c1 = lax.cos(lax.mul(lax.full_like(t, np.pi), t))
    if kind == "hanning":
        return lax.add(lax.full_like(t, 0.5), lax.mul(lax.full_like(t, 0.5), c1))
    if kind == "hamming":
        return lax.add(lax.full_like(t, 0.54), lax.mul(lax.full_like(t, 0.46), c1))
    c2 = lax.cos(lax.mul(lax.full_like(t, 2.0 * np.pi), t))
    return lax.add(lax.add(lax.full_like(t, 0.42), lax.mul(lax.full_like(t, 0.5), c1)),
                   lax.mul(lax.full_like(t, 0.08), c2))


def _cosine_window(fn, M, kind):
    M = _window_len(fn, M)
    if M < 1:
        return wrap(lax.full((0,), 0.0, _dt.on_device(_dt.float64)))
    if M == 1:
        return wrap(lax.full((1,), 1.0, _dt.on_device(_dt.float64)))
    return call(_cosine_window_kernel, M=M, kind=kind)


@in_wide_region
def bartlett(M):
    """Bartlett (triangular) window of ``M`` points. NumPy: numpy.bartlett.

    Parameters
    ----------
    M : int
        The number of points; zero or less gives an empty array.

    Returns
    -------
    Array
        The window, 1-D of length ``max(M, 0)``, float64 (float32 on a device without it),
        its largest value 1 at the middle.

    Raises
    ------
    TypeError
        If ``M`` is not an integer.

    Notes
    -----
    Static under ``jax.jit``: ``M``.

    ``1 - |2n/(M-1) - 1|`` for ``n = 0 .. M-1``, as NumPy.

    Examples
    --------
    >>> import laxarray as la
    >>> la.bartlett(5)
    Array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _cosine_window("bartlett", M, "bartlett")


@in_wide_region
def blackman(M):
    """Blackman window of ``M`` points. NumPy: numpy.blackman.

    Parameters
    ----------
    M : int
        The number of points; zero or less gives an empty array.

    Returns
    -------
    Array
        The window, 1-D of length ``max(M, 0)``, float64 (float32 on a device without it),
        its largest value 1 at the middle.

    Raises
    ------
    TypeError
        If ``M`` is not an integer.

    Notes
    -----
    Static under ``jax.jit``: ``M``.

    ``0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1))``, as NumPy (the ends round to
    about ``-1.4e-17``, not 0, in both).

    Examples
    --------
    >>> import laxarray as la
    >>> la.blackman(5)
    Array([-1.38777878e-17,  3.40000000e-01,  1.00000000e+00,  3.40000000e-01,
           -1.38777878e-17])
    """
    return _cosine_window("blackman", M, "blackman")


@in_wide_region
def hamming(M):
    """Hamming window of ``M`` points. NumPy: numpy.hamming.

    Parameters
    ----------
    M : int
        The number of points; zero or less gives an empty array.

    Returns
    -------
    Array
        The window, 1-D of length ``max(M, 0)``, float64 (float32 on a device without it),
        its largest value 1 at the middle.

    Raises
    ------
    TypeError
        If ``M`` is not an integer.

    Notes
    -----
    Static under ``jax.jit``: ``M``.

    ``0.54 - 0.46 cos(2 pi n/(M-1))``, as NumPy.

    Examples
    --------
    >>> import laxarray as la
    >>> la.hamming(5)
    Array([0.08, 0.54, 1.  , 0.54, 0.08])
    """
    return _cosine_window("hamming", M, "hamming")


@in_wide_region
def hanning(M):
    """Hann window of ``M`` points. NumPy: numpy.hanning.

    Parameters
    ----------
    M : int
        The number of points; zero or less gives an empty array.

    Returns
    -------
    Array
        The window, 1-D of length ``max(M, 0)``, float64 (float32 on a device without it),
        its largest value 1 at the middle.

    Raises
    ------
    TypeError
        If ``M`` is not an integer.

    Notes
    -----
    Static under ``jax.jit``: ``M``.

    ``0.5 - 0.5 cos(2 pi n/(M-1))``, as NumPy.

    Examples
    --------
    >>> import laxarray as la
    >>> la.hanning(5)
    Array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _cosine_window("hanning", M, "hanning")


@kernel(static=("M",))
def _kaiser_arg_kernel(beta, *, M):
    beta = lax.convert_element_type(beta, _dt.on_device(_dt.float64))
    n = lax.convert_element_type(lax.iota(_dt.default_index(), M), _dt.on_device(_dt.float64))
    alpha = (M - 1) / 2.0
    r = lax.div(lax.sub(n, lax.full_like(n, alpha)), lax.full_like(n, alpha))
    return lax.mul(beta, lax.sqrt(lax.sub(lax.full_like(r, 1), lax.mul(r, r)))), beta


@in_wide_region
def kaiser(M, beta):
    """Kaiser window of ``M`` points with shape parameter ``beta``. NumPy: numpy.kaiser.

    Parameters
    ----------
    M : int
        The number of points; zero or less gives an empty array.
    beta : float or 0-d array
        The shape parameter (0: a rectangular window; larger: narrower).

    Returns
    -------
    Array
        The window ``I0(beta sqrt(1 - (2n/(M-1) - 1)**2)) / I0(beta)``, 1-D of length
        ``max(M, 0)``, float64 (float32 on a device without it).

    Raises
    ------
    TypeError
        If ``M`` is not an integer, or ``beta`` is not a real scalar.

    Notes
    -----
    Static under ``jax.jit``: ``M``.

    ``beta`` may be traced.

    Examples
    --------
    >>> import laxarray as la
    >>> la.kaiser(4, 5.0)
    Array([0.03671089, 0.7753221 , 0.7753221 , 0.03671089])
    """
    fn = "kaiser"
    M = _window_len(fn, M)
    vb = raw(fn, beta, "beta")
    if vb.ndim != 0 or _dt.kind_of(vb.dtype) == "c":
        fail(TypeError, fn, "a real scalar for 'beta'", vb)
    if M < 1:
        return wrap(lax.full((0,), 0.0, _dt.on_device(_dt.float64)))
    if M == 1:
        return wrap(lax.full((1,), 1.0, _dt.on_device(_dt.float64)))
    arg, b = call(_kaiser_arg_kernel, vb, M=M)
    return i0(arg) / i0(b)


__all__ = ["polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint",
           "vander", "polyfit", "roots", "poly", "bartlett", "blackman", "hamming", "hanning",
           "kaiser"]
