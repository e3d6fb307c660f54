"""Elementwise bitwise and logical functions of the standard: bitwise_and/or/xor/invert,
the shifts, and logical_and/or/xor/not.

Each function is a lax body under :func:`elementwise_unary`/:func:`elementwise_binary`,
which validate, promote, broadcast and jit; nothing is static under ``jax.jit`` except the
dtypes.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._ufunc import elementwise_binary, elementwise_unary, plain
from laxarray.array_api.elementwise import _to_bool, _zeros


_LOGICAL_RETURNS = """
Returns
-------
Array
    A bool array of the broadcast shape; non-bool inputs are tested against zero.
"""


_BITWISE_RETURNS = """
Returns
-------
Array
    Of the promoted dtype (bool input: the logical operation).
"""


# ---- bitwise ------------------------------------------------------------------------------
@elementwise_binary("integer or boolean", ufunc=True)
@fill(bitwise_returns=_BITWISE_RETURNS)
def bitwise_and(x1, x2, /):
    """Compute the bitwise AND of ``x1`` and ``x2`` elementwise.

    Array API: bitwise_and. NumPy: numpy.bitwise_and.

    {bitwise_returns}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.bitwise_and(xp.asarray([12, 10]), 6)
    Array([4, 2])
    """
    return lax.bitwise_and(x1, x2)


@elementwise_binary("integer or boolean", ufunc=True)
@fill(bitwise_returns=_BITWISE_RETURNS)
def bitwise_or(x1, x2, /):
    """Compute the bitwise OR of ``x1`` and ``x2`` elementwise.

    Array API: bitwise_or. NumPy: numpy.bitwise_or.

    {bitwise_returns}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.bitwise_or(xp.asarray([12, 10]), 6)
    Array([14, 14])
    """
    return lax.bitwise_or(x1, x2)


@elementwise_binary("integer or boolean", ufunc=True)
@fill(bitwise_returns=_BITWISE_RETURNS)
def bitwise_xor(x1, x2, /):
    """Compute the bitwise XOR of ``x1`` and ``x2`` elementwise.

    Array API: bitwise_xor. NumPy: numpy.bitwise_xor.

    {bitwise_returns}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.bitwise_xor(xp.asarray([12, 10]), 6)
    Array([10, 12])
    """
    return lax.bitwise_xor(x1, x2)


@elementwise_unary("integer or boolean")
def bitwise_invert(x, /):
    """Invert the bits of each element (bitwise NOT).

    Array API: bitwise_invert. NumPy: numpy.invert.

    Returns
    -------
    Array
        ``~x``, of the dtype of ``x`` (bool input: logical not).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.bitwise_invert(xp.asarray([0, 5]))
    Array([-1, -6])
    >>> xp.bitwise_invert(xp.asarray([True, False]))
    Array([False,  True])
    """
    return lax.bitwise_not(x)


def _shift_amount_ok(x2, bits):
    return lax.bitwise_and(lax.ge(x2, _zeros(x2)), lax.lt(x2, lax.full_like(x2, bits)))


@elementwise_binary("integral")
def bitwise_left_shift(x1, x2, /):
    """Shift the bits of ``x1`` left by ``x2`` elementwise.

    Array API: bitwise_left_shift. NumPy: numpy.left_shift.

    Returns
    -------
    Array
        ``x1 << x2``, of the promoted integer dtype; shifts by the width or more (or a
        negative amount) give 0.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.bitwise_left_shift(xp.asarray([1, 3]), 2)
    Array([ 4, 12])
    """
    bits = np.dtype(x1.dtype).itemsize * 8
    return lax.select(_shift_amount_ok(x2, bits), lax.shift_left(x1, x2), _zeros(x1))


@elementwise_binary("integral")
def bitwise_right_shift(x1, x2, /):
    """Shift the bits of ``x1`` right by ``x2`` elementwise.

    Array API: bitwise_right_shift. NumPy: numpy.right_shift.

    Returns
    -------
    Array
        ``x1 >> x2``, of the promoted integer dtype: arithmetic for signed integers; shifts by
        the width or more give 0 (or -1 for a negative signed ``x1``).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.bitwise_right_shift(xp.asarray([16, -16]), 2)
    Array([ 4, -4])
    """
    bits = np.dtype(x1.dtype).itemsize * 8
    if _dt.kind_of(x1.dtype) == "i":
        clamped = lax.min(lax.max(x2, _zeros(x2)), lax.full_like(x2, bits - 1))
        return lax.shift_right_arithmetic(x1, clamped)
    return lax.select(_shift_amount_ok(x2, bits), lax.shift_right_logical(x1, x2), _zeros(x1))


# ---- logical ------------------------------------------------------------------------------
@elementwise_binary("any", ufunc=True)
@fill(logical_returns=_LOGICAL_RETURNS)
def logical_and(x1, x2, /):
    """Compute the logical AND of ``x1`` and ``x2`` elementwise.

    Array API: logical_and. NumPy: numpy.logical_and.

    {logical_returns}

    Notes
    -----
    As a ufunc its ``reduce`` is ``all``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.logical_and(xp.asarray([True, True, False]), xp.asarray([True, False, False]))
    Array([ True, False, False])
    """
    return lax.bitwise_and(_to_bool(x1), _to_bool(x2))


@elementwise_binary("any", ufunc=True)
@fill(logical_returns=_LOGICAL_RETURNS)
def logical_or(x1, x2, /):
    """Compute the logical OR of ``x1`` and ``x2`` elementwise.

    Array API: logical_or. NumPy: numpy.logical_or.

    {logical_returns}

    Notes
    -----
    As a ufunc its ``reduce`` is ``any``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.logical_or(xp.asarray([True, False, False]), xp.asarray([False, False, True]))
    Array([ True, False,  True])
    """
    return lax.bitwise_or(_to_bool(x1), _to_bool(x2))


@elementwise_binary("any", ufunc=True)
@fill(logical_returns=_LOGICAL_RETURNS)
def logical_xor(x1, x2, /):
    """Compute the logical XOR of ``x1`` and ``x2`` elementwise.

    Array API: logical_xor. NumPy: numpy.logical_xor.

    {logical_returns}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.logical_xor(xp.asarray([True, True]), xp.asarray([True, False]))
    Array([False,  True])
    """
    return lax.bitwise_xor(_to_bool(x1), _to_bool(x2))


@elementwise_unary("any")
def logical_not(x, /):
    """Compute the logical NOT of each element.

    Array API: logical_not. NumPy: numpy.logical_not.

    Returns
    -------
    Array
        A bool array; non-bool input is tested against zero.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.logical_not(xp.asarray([True, False]))
    Array([False,  True])
    >>> xp.logical_not(xp.asarray([0, 2]))
    Array([ True, False])
    """
    return lax.bitwise_not(_to_bool(x))


__all__ = ["bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_or",
           "bitwise_right_shift", "bitwise_xor", "logical_and", "logical_not", "logical_or",
           "logical_xor"]

# the bodies of the Array's bitwise operators (``x & y`` is ``bitwise_and(x, y)``)
provide(*map(plain, (bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift,
                     bitwise_right_shift, bitwise_invert)))
