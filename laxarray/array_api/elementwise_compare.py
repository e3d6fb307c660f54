"""Elementwise comparisons of the standard: equal, not_equal, greater, greater_equal, less,
less_equal, and the extremes maximum and minimum (NumPy's order of complex values).

Each function is a lax body under :func:`elementwise_binary`, which validates, promotes,
broadcasts and jits; nothing is static under ``jax.jit`` except the dtypes.
"""

from __future__ import annotations

from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._ufunc import elementwise_binary, plain


_BOOL_RETURNS = """
Returns
-------
Array
    A bool array of the broadcast shape.
"""

_EQUALITY_NOTES = """
Notes
-----
Any comparison with NaN is false (``not_equal``: true).
"""

_ORDER_NOTES = """
Notes
-----
Any comparison with NaN is false. Unlike NumPy (which orders complex numbers
lexicographically), complex input raises ``TypeError``.
"""


# ---- comparisons --------------------------------------------------------------------------
@elementwise_binary("any")
@fill(bool_returns=_BOOL_RETURNS, nan_notes=_EQUALITY_NOTES)
def equal(x1, x2, /):
    """Return the truth value of ``x1 == x2`` elementwise.

    Array API: equal. NumPy: numpy.equal.

    {bool_returns}

    {nan_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.equal(xp.asarray([1, 2, 3]), 2)
    Array([False,  True, False])
    """
    return lax.eq(x1, x2)


@elementwise_binary("any")
@fill(bool_returns=_BOOL_RETURNS, nan_notes=_EQUALITY_NOTES)
def not_equal(x1, x2, /):
    """Return the truth value of ``x1 != x2`` elementwise.

    Array API: not_equal. NumPy: numpy.not_equal.

    {bool_returns}

    {nan_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.not_equal(xp.asarray([1, 2, 3]), 2)
    Array([ True, False,  True])
    """
    return lax.ne(x1, x2)


@elementwise_binary("real")
@fill(bool_returns=_BOOL_RETURNS, nan_notes=_ORDER_NOTES)
def greater(x1, x2, /):
    """Return the truth value of ``x1 > x2`` elementwise.

    Array API: greater. NumPy: numpy.greater.

    {bool_returns}

    {nan_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.greater(xp.asarray([1, 2, 3]), 2)
    Array([False, False,  True])
    """
    return lax.gt(x1, x2)


@elementwise_binary("real")
@fill(bool_returns=_BOOL_RETURNS, nan_notes=_ORDER_NOTES)
def greater_equal(x1, x2, /):
    """Return the truth value of ``x1 >= x2`` elementwise.

    Array API: greater_equal. NumPy: numpy.greater_equal.

    {bool_returns}

    {nan_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.greater_equal(xp.asarray([1, 2, 3]), 2)
    Array([False,  True,  True])
    """
    return lax.ge(x1, x2)


@elementwise_binary("real")
@fill(bool_returns=_BOOL_RETURNS, nan_notes=_ORDER_NOTES)
def less(x1, x2, /):
    """Return the truth value of ``x1 < x2`` elementwise.

    Array API: less. NumPy: numpy.less.

    {bool_returns}

    {nan_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.less(xp.asarray([1, 2, 3]), 2)
    Array([ True, False, False])
    """
    return lax.lt(x1, x2)


@elementwise_binary("real")
@fill(bool_returns=_BOOL_RETURNS, nan_notes=_ORDER_NOTES)
def less_equal(x1, x2, /):
    """Return the truth value of ``x1 <= x2`` elementwise.

    Array API: less_equal. NumPy: numpy.less_equal.

    {bool_returns}

    {nan_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.less_equal(xp.asarray([1, 2, 3]), 2)
    Array([ True,  True, False])
    """
    return lax.le(x1, x2)


def complex_nan(x):
    """Where complex ``x`` has a NaN part."""
    re, im = lax.real(x), lax.imag(x)
    return lax.bitwise_or(lax.ne(re, re), lax.ne(im, im))


def complex_ge_le(x1, x2, beats):
    """NumPy's ``CGE`` (``beats`` is ``lax.gt``) or ``CLE`` (``lax.lt``) of complex values:
    the real parts decide (a NaN imaginary part makes that comparison false), equal real
    parts leave it to the imaginary parts (false where either is NaN)."""
    r1, r2 = lax.real(x1), lax.real(x2)
    i1, i2 = lax.imag(x1), lax.imag(x2)
    or_equal = lax.ge if beats is lax.gt else lax.le
    no_nan_im = lax.bitwise_and(lax.eq(i1, i1), lax.eq(i2, i2))
    return lax.bitwise_or(lax.bitwise_and(beats(r1, r2), no_nan_im),
                          lax.bitwise_and(lax.eq(r1, r2), or_equal(i1, i2)))


def _complex_pick(x1, x2, beats):
    # NumPy's complex maximum/minimum: x1 where it has a NaN part or wins CGE/CLE, else x2
    take = lax.bitwise_or(complex_nan(x1), complex_ge_le(x1, x2, beats))
    return lax.select(take, x1, x2)


@elementwise_binary("any", ufunc=True)
def maximum(x1, x2, /):
    """Return the elementwise maximum of ``x1`` and ``x2``, propagating NaN.

    Array API: maximum. NumPy: numpy.maximum.

    Returns
    -------
    Array
        The larger of each pair, of the promoted dtype; NaN where either is NaN.

    Notes
    -----
    Complex input (which the standard leaves out) follows NumPy: lexicographic order, real part
    first; a value with a NaN part wins, ``x1``'s first. As a ufunc it has ``reduce`` (``max``),
    ``accumulate``, ``outer`` and ``at``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.maximum(xp.asarray([1.0, 5.0, float("nan")]), xp.asarray([3.0, 2.0, 0.0]))
    Array([ 3.,  5., nan])
    """
    if _dt.kind_of(x1.dtype) == "c":
        return _complex_pick(x1, x2, lax.gt)
    return lax.max(x1, x2)


@elementwise_binary("any", ufunc=True)
def minimum(x1, x2, /):
    """Return the elementwise minimum of ``x1`` and ``x2``, propagating NaN.

    Array API: minimum. NumPy: numpy.minimum.

    Returns
    -------
    Array
        The smaller of each pair, of the promoted dtype; NaN where either is NaN.

    Notes
    -----
    Complex input follows NumPy, as for :func:`maximum`. As a ufunc it has ``reduce`` (``min``),
    ``accumulate``, ``outer`` and ``at``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.minimum(xp.asarray([1.0, 5.0, float("nan")]), xp.asarray([3.0, 2.0, 0.0]))
    Array([ 1.,  2., nan])
    """
    if _dt.kind_of(x1.dtype) == "c":
        return _complex_pick(x1, x2, lax.lt)
    return lax.min(x1, x2)


__all__ = ["equal", "greater", "greater_equal", "less", "less_equal", "maximum", "minimum",
           "not_equal"]

# the bodies of the Array's comparison operators (``x < y`` is ``less(x, y)``)
provide(*map(plain, (equal, not_equal, less, less_equal, greater, greater_equal)))
