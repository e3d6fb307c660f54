"""NumPy's legacy polynomial evaluation and arithmetic (coefficients highest power first):
polyval, polyadd, polysub, polymul, polydiv, polyder, polyint.

Each is a static-shape kernel.  NumPy strips leading zeros (polymul's and polydiv's
results), which makes the output shape depend on values: that happens eagerly, and under
``jax.jit`` the functions need ``trim_leading_zeros=False``.  vander, polyfit, roots and poly
(built on ``laxarray.linalg``) are in ``_polyroots``; the window functions in ``_windows``.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.docstrings import fill
from laxarray._core.errors import fail, fail_text
from laxarray._core.jaxapi import is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, check_int
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api._ufunc import binary_operands
from laxarray.linalg._operands import raw
from laxarray.numpy_api.mathfuncs._products import convolve
from laxarray.numpy_api import _docs


def _poly1d(fn, p, argname="p"):
    v = raw(fn, p, argname)
    if v.ndim == 0:
        v = lax.reshape(v, (1,))
    if v.ndim != 1:
        fail(ValueError, fn, f"a 1-D array of coefficients for '{argname}'", v)
    return v


def _inexact(dtype):
    return dtype if _dt.kind_of(dtype) in "fc" else _dt.default_float()


# polyadd's and polysub's shared entries (filled in by ``fill``)
_PAIR = """
a1, a2 : array_like
    The coefficients, 1-D (or scalars), highest power first."""

_PAIR_ERRORS = """
TypeError
    If an input is not array_like.
ValueError
    If an input has rank above one."""


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
@fill(type_error_operand=_docs.TYPE_ERROR_OPERAND)
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
    {type_error_operand}

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


_ADD_RAISES = _docs.closing([_PAIR_ERRORS], "none")


_ADD_PARAMETERS_RETURNS = _docs.compose("""
Parameters
----------
{pair}

Returns
-------
Array""", pair=_PAIR)


@in_wide_region
@fill(add_parameters_returns=_ADD_PARAMETERS_RETURNS,
      add_raises=_ADD_RAISES)
def polyadd(a1, a2):
    """Add two polynomials. NumPy: numpy.polyadd.

    {add_parameters_returns}
        The coefficients of ``a1 + a2``, highest power first, as long as the longer input
        (NumPy's ``poly1d`` inputs are not taken: pass their ``coeffs``).

    {add_raises}
    >>> la.polyadd(la.asarray([1, 2]), la.asarray([1, 0, 3]))
    Array([1, 1, 5])
    """
    return _polyadd("polyadd", a1, a2, False)


@in_wide_region
@fill(add_parameters_returns=_ADD_PARAMETERS_RETURNS,
      add_raises=_ADD_RAISES)
def polysub(a1, a2):
    """Subtract one polynomial from another. NumPy: numpy.polysub.

    {add_parameters_returns}
        The coefficients of ``a1 - a2``, highest power first, as long as the longer input
        (NumPy's ``poly1d`` inputs are not taken: pass their ``coeffs``).

    {add_raises}
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


_CALCULUS_PARAMETERS = _docs.compose("""
Parameters
----------
p : array_like
    The coefficients, 1-D, highest power first.
m : int, optional""")


@in_wide_region
@fill(calculus_parameters=_CALCULUS_PARAMETERS)
def polyder(p, m=1):
    """Return the ``m``-th derivative of a polynomial. NumPy: numpy.polyder.

    {calculus_parameters}
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
@fill(calculus_parameters=_CALCULUS_PARAMETERS)
def polyint(p, m=1, k=None):
    """Return the ``m``-th antiderivative of a polynomial. NumPy: numpy.polyint.

    {calculus_parameters}
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


__all__ = ["polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint"]
