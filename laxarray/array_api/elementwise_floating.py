"""Elementwise rounding (ceil, floor, trunc, round) and floating-point classification and
sign functions (isnan, isinf, isfinite, signbit, copysign, nextafter) of the standard.

Each function is a lax body under :func:`elementwise_unary`/:func:`elementwise_binary`,
which validate, promote, broadcast and jit; nothing is static under ``jax.jit`` except the
dtypes.
"""

from __future__ import annotations

from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core.numerics import copysign as _copysign
from laxarray._core.numerics import sign_bit as _signbit_real
from laxarray.array_api._docs import FLOATING_ONLY_NOTES, NO_BOOL_NOTES
from laxarray.array_api._ufunc import elementwise_binary, elementwise_unary, to_float
from laxarray.array_api.elementwise import _is_complex, _is_int, _isinf_real, _zeros


_ROUNDED = """
Returns
-------
Array
    The rounded values, of the dtype of ``x`` (integers are returned unchanged).

Notes
-----
Unlike NumPy, bool input raises ``TypeError`` (NumPy returns it).
"""


# ---- rounding -----------------------------------------------------------------------------
@elementwise_unary("real numeric")
@fill(rounded=_ROUNDED)
def ceil(x, /):
    """Round each element toward +inf (the smallest integer not below).

    Array API: ceil. NumPy: numpy.ceil.

    {rounded}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.ceil(xp.asarray([-1.5, 1.2, 2.0]))
    Array([-1.,  2.,  2.])
    """
    return x if _is_int(x) else lax.ceil(x)


@elementwise_unary("real numeric")
@fill(rounded=_ROUNDED)
def floor(x, /):
    """Round each element toward -inf (the largest integer not above).

    Array API: floor. NumPy: numpy.floor.

    {rounded}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.floor(xp.asarray([-1.5, 1.2, 2.0]))
    Array([-2.,  1.,  2.])
    """
    return x if _is_int(x) else lax.floor(x)


@elementwise_unary("real numeric")
@fill(rounded=_ROUNDED)
def trunc(x, /):
    """Round each element toward zero.

    Array API: trunc. NumPy: numpy.trunc.

    {rounded}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.trunc(xp.asarray([-1.5, 1.7, 2.0]))
    Array([-1.,  1.,  2.])
    """
    if _is_int(x):
        return x
    return lax.select(lax.lt(x, _zeros(x)), lax.ceil(x), lax.floor(x))


@elementwise_unary("numeric")
def round(x, /):
    """Round each element to the nearest integer, halves to even.

    Array API: round. NumPy: numpy.round.

    Returns
    -------
    Array
        The rounded values, of the dtype of ``x`` (integers unchanged); complex input rounds
        its real and imaginary parts.

    Notes
    -----
    This is the standard's ``round``, ``laxarray.array_api.round``: it takes no ``decimals``.
    The top-level ``laxarray.round`` is NumPy's, with ``decimals`` (as ``laxarray.around``).
    Unlike NumPy, bool input raises ``TypeError`` (the standard's dtype category).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.array_api.round(xp.asarray([0.5, 1.5, 2.5, -0.5]))
    Array([ 0.,  2.,  2., -0.])
    """
    if _is_int(x):
        return x
    even = lax.RoundingMethod.TO_NEAREST_EVEN
    if _is_complex(x):
        return lax.complex(lax.round(lax.real(x), even), lax.round(lax.imag(x), even))
    return lax.round(x, even)


# ---- floating-point classification ----------------------------------------------------------
@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def isnan(x, /):
    """Test each element for NaN.

    Array API: isnan. NumPy: numpy.isnan.

    Returns
    -------
    Array
        A bool array, true where ``x`` is NaN (either part, for complex input); all false for
        integers.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.isnan(xp.asarray([1.0, float("nan"), float("inf")]))
    Array([False,  True, False])
    """
    if _is_int(x):
        return lax.full(x.shape, False)
    return lax.ne(x, x)


@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def isinf(x, /):
    """Test each element for positive or negative infinity.

    Array API: isinf. NumPy: numpy.isinf.

    Returns
    -------
    Array
        A bool array, true where ``x`` is +inf or -inf (either part, for complex input); all
        false for integers.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.isinf(xp.asarray([1.0, float("nan"), -float("inf")]))
    Array([False, False,  True])
    """
    if _is_int(x):
        return lax.full(x.shape, False)
    if _is_complex(x):
        return lax.bitwise_or(_isinf_real(lax.real(x)), _isinf_real(lax.imag(x)))
    return _isinf_real(x)


@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def isfinite(x, /):
    """Test each element for finiteness (neither infinite nor NaN).

    Array API: isfinite. NumPy: numpy.isfinite.

    Returns
    -------
    Array
        A bool array, true where ``x`` is finite (both parts, for complex input); all true
        for integers.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.isfinite(xp.asarray([1.0, float("nan"), -float("inf")]))
    Array([ True, False, False])
    """
    if _is_int(x):
        return lax.full(x.shape, True)
    if _is_complex(x):
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return lax.is_finite(x)


@elementwise_unary("real floating", compute=to_float)
@fill(floating_only_notes=FLOATING_ONLY_NOTES)
def signbit(x, /):
    """Test whether the sign bit of each element is set.

    Array API: signbit. NumPy: numpy.signbit.

    Returns
    -------
    Array
        A bool array, true for negative values, ``-0.0`` and a NaN with its sign bit set.

    {floating_only_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 2.0]))
    Array([ True,  True, False, False])
    """
    return _signbit_real(x)


@elementwise_binary("real floating", compute=to_float, ufunc=True)
@fill(floating_only_notes=FLOATING_ONLY_NOTES)
def copysign(x1, x2, /):
    """Return the magnitude of ``x1`` with the sign of ``x2``, elementwise.

    Array API: copysign. NumPy: numpy.copysign.

    Returns
    -------
    Array
        Of the promoted real floating dtype.

    {floating_only_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.copysign(xp.asarray([1.0, 2.0, 3.0]), xp.asarray([-1.0, 0.0, -0.0]))
    Array([-1.,  2., -3.])
    """
    return _copysign(x1, x2)


@elementwise_binary("real floating", compute=to_float)
@fill(floating_only_notes=FLOATING_ONLY_NOTES)
def nextafter(x1, x2, /):
    """Return the next representable value after ``x1`` toward ``x2``.

    Array API: nextafter. NumPy: numpy.nextafter.

    Returns
    -------
    Array
        Of the promoted real floating dtype; ``x2`` where ``x1 == x2``, NaN where either is
        NaN.

    {floating_only_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.nextafter(xp.asarray([1.0]), 2.0) - 1.0
    Array([2.22044605e-16])
    """
    return lax.nextafter(x1, x2)


__all__ = ["ceil", "copysign", "floor", "isfinite", "isinf", "isnan", "nextafter", "round",
           "signbit", "trunc"]
