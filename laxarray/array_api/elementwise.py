"""Elementwise arithmetic functions of the standard (add ... pow, negative ... sign), and the
helpers the other elementwise chapters share.

Each function is a lax body under :func:`elementwise_unary`/:func:`elementwise_binary`,
which validate, promote, broadcast and jit.  Transcendental and complex functions live in
:mod:`laxarray.array_api.elementwise_math`; comparisons, bitwise and logical functions,
rounding and floating-point classification in ``elementwise_compare``,
``elementwise_bitwise`` and ``elementwise_floating``.

Under ``jax.jit`` every function traces to bare lax primitives; nothing is static except
the dtypes.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.runtime.kernel import flush_subnormals
from laxarray._core.numerics import copysign as _copysign, float_rem
from laxarray.array_api import _complex_math as _cm
from laxarray.array_api import _exact_complex64 as _oc
from laxarray.array_api import _exact_float32 as _om
from laxarray.array_api._docs import NO_BOOL_NOTES
from laxarray.array_api._array import Array
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._ufunc import (as_ufunc, elementwise_binary, elementwise_unary,
                                       plain, to_float)


def _zeros(x):
    return lax.full_like(x, 0)


def _is_int(x):
    return _dt.kind_of(x.dtype) in "iu"


def _is_complex(x):
    return _dt.kind_of(x.dtype) == "c"


def _to_bool(x):
    if x.dtype == np.bool_:
        return x
    return lax.ne(x, _zeros(x))


def _isinf_real(x):
    return lax.eq(lax.abs(x), lax.full_like(x, np.inf))


# ---- arithmetic ---------------------------------------------------------------------------
@elementwise_binary("any", ufunc=True)
def add(x1, x2, /):
    """Add ``x1`` and ``x2`` elementwise.

    Array API: add. NumPy: numpy.add.

    Returns
    -------
    Array
        ``x1 + x2``, of the promoted dtype; ``bool + bool`` is logical or, as in NumPy.

    Notes
    -----
    As a ufunc it has ``reduce`` (``sum``), ``accumulate`` (``cumulative_sum``), ``outer`` and
    ``at``; ``identity`` is 0.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.add(xp.asarray([1, 2, 3]), 10)
    Array([11, 12, 13])
    >>> xp.add(xp.asarray([[1.0], [2.0]]), xp.asarray([0.5, 1.5]))
    Array([[1.5, 2.5],
           [2.5, 3.5]])
    """
    if x1.dtype == np.bool_:
        return lax.bitwise_or(x1, x2)
    return lax.add(x1, x2)


@elementwise_binary("numeric", ufunc=True)
def subtract(x1, x2, /):
    """Subtract ``x2`` from ``x1`` elementwise.

    Array API: subtract. NumPy: numpy.subtract.

    Returns
    -------
    Array
        ``x1 - x2``, of the promoted dtype.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.subtract(xp.asarray([5, 7]), xp.asarray([1, 2]))
    Array([4, 5])
    """
    return lax.sub(x1, x2)


@elementwise_binary("any", ufunc=True)
def multiply(x1, x2, /):
    """Multiply ``x1`` and ``x2`` elementwise.

    Array API: multiply. NumPy: numpy.multiply.

    Returns
    -------
    Array
        ``x1 * x2``, of the promoted dtype; ``bool * bool`` is logical and, as in NumPy.

    Notes
    -----
    As a ufunc it has ``reduce`` (``prod``), ``accumulate`` (``cumulative_prod``), ``outer`` and
    ``at``; ``identity`` is 1.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.multiply(xp.asarray([1.5, 2.0]), 2)
    Array([3., 4.])
    """
    if x1.dtype == np.bool_:
        return lax.bitwise_and(x1, x2)
    return lax.mul(x1, x2)


#: true division: XLA's, or correctly rounded where XLA's is not (a TPU's record)
_DIV = _om.pick("divide", lax.div)


@elementwise_binary("numeric", compute=to_float, exact_divisor=True, ufunc=True)
def divide(x1, x2, /):
    """Divide ``x1`` by ``x2`` elementwise (true division).

    Array API: divide. NumPy: numpy.divide.

    Returns
    -------
    Array
        ``x1 / x2``, of the promoted floating dtype: integer inputs give the default floating
        dtype (float64 on the CPU).

    Notes
    -----
    Correctly rounded: XLA's division where it is, laxarray's own where it is not (a TPU's
    backend record). A broadcast ``x2`` is never turned into a reciprocal's product. Unlike
    NumPy, bool input raises ``TypeError`` (the standard's dtype category).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.divide(xp.asarray([1, 2, 3]), 2)
    Array([0.5, 1. , 1.5])
    >>> xp.divide(1.0, xp.asarray([0.0, -0.0]))
    Array([ inf, -inf])
    """
    return _DIV(x1, x2)


def _int_floor_divide(x1, x2):
    zero = _zeros(x2)
    safe = lax.select(lax.eq(x2, zero), lax.full_like(x2, 1), x2)
    q = lax.div(x1, safe)
    if _dt.kind_of(x1.dtype) == "i":
        r = lax.rem(x1, safe)
        adjust = lax.bitwise_and(lax.ne(r, _zeros(r)), lax.ne(lax.lt(r, _zeros(r)),
                                                             lax.lt(safe, zero)))
        q = lax.select(adjust, lax.sub(q, lax.full_like(q, 1)), q)
    return lax.select(lax.eq(x2, zero), zero, q)


def _float_divmod(x1, x2):
    """NumPy's npy_divmod: (floor quotient, remainder with the sign of x2)."""
    zero = _zeros(x1)
    mod = float_rem(x1, x2)
    # NumPy's quotient (x1 - mod) / x2, correctly rounded as NumPy's
    div = _DIV(lax.sub(x1, mod), x2)
    fix = lax.bitwise_and(lax.ne(mod, zero), lax.ne(lax.lt(x2, zero), lax.lt(mod, zero)))
    mod = lax.select(fix, lax.add(mod, x2), mod)
    div = lax.select(fix, lax.sub(div, lax.full_like(div, 1)), div)
    mod = lax.select(lax.eq(mod, zero), _copysign(zero, x2), mod)
    floordiv = lax.floor(div)
    floordiv = lax.select(lax.gt(lax.sub(div, floordiv), lax.full_like(div, 0.5)),
                          lax.add(floordiv, lax.full_like(div, 1)), floordiv)
    floordiv = lax.select(lax.eq(div, zero), _copysign(zero, lax.div(x1, x2)), floordiv)
    div_by_zero = lax.eq(x2, zero)
    floordiv = lax.select(div_by_zero, lax.div(x1, x2), floordiv)
    return floordiv, mod


@elementwise_binary("real numeric", ufunc=True)
def floor_divide(x1, x2, /):
    """Divide ``x1`` by ``x2`` elementwise, rounding the quotient toward -inf.

    Array API: floor_divide. NumPy: numpy.floor_divide.

    Returns
    -------
    Array
        ``floor(x1 / x2)``, of the promoted dtype; integer division by zero gives 0.

    Notes
    -----
    Unlike NumPy, an infinity against a finite number follows the standard's ``floor(x1 / x2)``:
    ``inf // 2.0`` is ``inf`` (NumPy: ``nan``) and ``1.0 // -inf`` is ``-0.0`` (NumPy:
    ``-1.0``); elsewhere NumPy's values. Under ``jax.jit`` a select on masks, no branch on
    values. Unlike NumPy, bool input raises ``TypeError`` (the standard's dtype category).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.floor_divide(xp.asarray([7, -7]), 2)
    Array([ 3, -4])
    >>> xp.floor_divide(xp.asarray([7.0, 1.0]), xp.asarray([0.0, 2.0]))
    Array([inf, 0.])
    """
    if _is_int(x1):
        return _int_floor_divide(x1, x2)
    # exactly one operand infinite (the other finite or NaN): x1 / x2 is already integral
    one_inf = lax.ne(lax.eq(lax.abs(x1), lax.full_like(x1, np.inf)),
                     lax.eq(lax.abs(x2), lax.full_like(x2, np.inf)))
    return lax.select(one_inf, lax.div(x1, x2), _float_divmod(x1, x2)[0])


@elementwise_binary("real numeric", ufunc=True)
def remainder(x1, x2, /):
    """Return the elementwise remainder of division, with the sign of the divisor.

    Array API: remainder. NumPy: numpy.remainder.

    Returns
    -------
    Array
        ``x1 - floor(x1 / x2) * x2``, of the promoted dtype; integer ``x % 0`` gives 0.

    Notes
    -----
    NumPy's values (its ``npy_divmod``). Unlike NumPy, bool input raises ``TypeError`` (the
    standard's dtype category).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.remainder(xp.asarray([7, -7]), 3)
    Array([1, 2])
    >>> xp.remainder(xp.asarray([5.5]), -2.0)
    Array([-0.5])
    """
    if _is_int(x1):
        zero = _zeros(x2)
        safe = lax.select(lax.eq(x2, zero), lax.full_like(x2, 1), x2)
        r = lax.rem(x1, safe)
        if _dt.kind_of(x1.dtype) == "i":
            fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(safe, zero)))
            r = lax.select(fix, lax.add(r, safe), r)
        return lax.select(lax.eq(x2, zero), zero, r)
    return _float_divmod(x1, x2)[1]


def real_pow(x1, x2):
    """``lax.pow`` of real floats with subnormal operands read as zeros of their sign, as
    every other operation of a flush-to-zero platform reads them: XLA's CPU pow reads a
    subnormal base as ``2**-1075`` (``pow(1e-310, -0.5)`` gave 6.4e161) and
    ``pow(0, 1e-45)`` as 0, not ``0 ** 0 = 1``."""
    x1, x2 = flush_subnormals(x1), flush_subnormals(x2)
    return _om.pick("pow", lax.pow)(x1, x2)   # XLA's pow is far off on a TPU


def pow_values(x1, x2, /):
    """``x1 ** x2`` of raw values of one dtype (integer, real or complex), as ``pow``."""
    if _is_int(x1):
        return int_pow(x1, x2)
    if not _is_complex(x1):
        return real_pow(x1, x2)
    return complex_pow(x1, x2)


def complex_pow(x1, x2):
    """Complex ``x1 ** x2`` as NumPy's ``cpow`` (pow and float_power): the standard's
    ``exp(x2 * log(x1))`` where XLA's pow gives NaN, binary powering for small integer
    exponents, ``0 ** z = 0`` for ``Re(z) > 0``."""
    out = lax.pow(x1, x2)
    if _om.own("pow", lax.real(x1)):     # the chip's complex pow: 5e-5 off (its log)
        a, b, c, d = lax.real(x1), lax.imag(x1), lax.real(x2), lax.imag(x2)
        ok = lax.bitwise_and(_oc.finite(a, b), _oc.finite(c, d))
        out = lax.select(ok, lax.complex(*_oc.pow(a, b, c, d)), out)
    # the standard's reading exp(x2 * log(x1)), with its special cases, where XLA's
    # pow gives NaN (e.g. an overflow to inf + 0j)
    alt = _cm.cexp(lax.mul(x2, _cm.clog(x1)))
    parts = []
    for o, w in ((lax.real(out), lax.real(alt)), (lax.imag(out), lax.imag(alt))):
        parts.append(lax.select(lax.bitwise_and(lax.ne(o, o), lax.eq(w, w)), w, o))
    out = lax.complex(*parts)
    # a real integer exponent |n| < 100: binary powering by complex products, as
    # NumPy does (exact for small n, and the same signs of zero)
    out = lax.select(_small_int_exponent(x2), _complex_int_pow(x1, x2), out)
    # 0 ** z = 0 for Re(z) > 0 (XLA's exp(z log 0) gives NaN + NaN j)
    zero = _zeros(x1)
    base0 = lax.eq(x1, zero)
    re2 = lax.real(x2)
    out = lax.select(lax.bitwise_and(base0, lax.gt(re2, lax.full_like(re2, 0))), zero, out)
    return out


def _small_int_exponent(x2):
    n = lax.real(x2)
    return lax.bitwise_and(lax.bitwise_and(lax.eq(lax.imag(x2), lax.full_like(n, 0)),
                                           lax.eq(n, lax.floor(n))),
                           lax.lt(lax.abs(n), lax.full_like(n, 100)))


def _complex_int_pow(a, x2):
    """``a ** n`` for the integer real parts ``n`` of ``x2`` (|n| < 100), NumPy's order of
    complex products: n = 1, 2, 3 directly, else binary powering from 1; n < 0: 1 / r."""
    n = lax.real(x2)
    m = lax.convert_element_type(lax.abs(lax.select(lax.lt(lax.abs(n), lax.full_like(n, 100)),
                                                    n, lax.full_like(n, 0))), np.int32)
    one = lax.full_like(a, 1)
    r, p = one, a
    for bit in range(7):
        set_ = lax.ne(lax.bitwise_and(m, lax.full_like(m, 1 << bit)), lax.full_like(m, 0))
        r = lax.select(set_, lax.mul(r, p), r)
        p = lax.mul(p, p)
    a2 = lax.mul(a, a)
    for k, direct in ((1, a), (2, a2), (3, lax.mul(a, a2))):
        r = lax.select(lax.eq(m, lax.full_like(m, k)), direct, r)
    return lax.select(lax.lt(n, lax.full_like(n, 0)), lax.div(one, r), r)


pow_values.__name__ = "pow"  # error messages name the public function
_pow_general = elementwise_binary("numeric")(pow_values)


@elementwise_unary("real floating")
def _square_real(x, /):
    return lax.mul(x, x)


@as_ufunc
def pow(x1, x2, /):
    """Raise each element of ``x1`` to the power of the matching element of ``x2``.

    Array API: pow. NumPy: numpy.power.

    Parameters
    ----------
    x1 : array_like
        The bases: an array, or a Python scalar that takes the other operand's dtype (NEP 50).
    x2 : array_like
        The exponents, likewise; the shapes of ``x1`` and ``x2`` broadcast together, and
        promoted together they are of a numeric dtype (not bool).

    Returns
    -------
    Array
        ``x1 ** x2``, of the promoted dtype.  Integer powers with a negative exponent give 0
        (1 and -1 for the bases 1 and -1), as integer arithmetic would.

    Raises
    ------
    TypeError
        If ``x1`` or ``x2`` is not array_like, or their promoted dtype is not numeric (bool).
    ValueError
        If the shapes of ``x1`` and ``x2`` do not broadcast together (or differ in rank, under
        ``set_rank_promotion("raise")``).
    OverflowError
        If a Python int operand is outside the range of the other operand's integer dtype.

    Notes
    -----
    Static under ``jax.jit``: none (the operands' dtypes and shapes choose the program).

    ``x ** 2`` on a real floating array is computed as ``x * x`` (exact, and far faster than
    the general power kernel), as NumPy does.  Complex powers follow NumPy's ``cpow``: binary
    powering for small integer exponents, the standard's ``exp(x2 * log(x1))`` where XLA's
    power gives NaN, and ``0 ** z = 0`` for ``Re(z) > 0``.  Unlike NumPy, bool input raises
    ``TypeError``; NumPy's ``out=`` is not taken.  As a ufunc it has ``reduce``,
    ``accumulate`` and ``outer``; its ``at`` raises ``NotImplementedError``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.pow(xp.asarray([1, 2, 3]), 2)
    Array([1, 4, 9])
    >>> xp.pow(2.0, xp.asarray([-1.0, 0.5]))
    Array([0.5       , 1.41421356])
    """
    if type(x2) is int and x2 == 2 and type(x1) is Array and _dt.kind_of(x1.dtype) == "f":
        return _square_real(x1)
    return _pow_general(x1, x2)


def int_pow(base, exp):
    """Integer ``base ** exp`` inside a kernel (``lax.pow`` takes floating bases only)."""
    # exponentiation by squaring over 64 bits of the exponent (negative exponents give 0,
    # except for bases 1 and -1, as integer arithmetic would)
    one = lax.full_like(base, 1)
    zero = _zeros(base)
    result = one
    b = base
    e = lax.select(lax.lt(exp, _zeros(exp)), _zeros(exp), exp)
    for _ in range(np.dtype(base.dtype).itemsize * 8):
        bit = lax.ne(lax.bitwise_and(e, lax.full_like(e, 1)), _zeros(e))
        result = lax.select(bit, lax.mul(result, b), result)
        b = lax.mul(b, b)
        e = lax.shift_right_logical(e, lax.full_like(e, 1))
    if _dt.kind_of(base.dtype) == "i":
        neg = lax.lt(exp, _zeros(exp))
        minus_one = lax.neg(one)
        odd = lax.ne(lax.bitwise_and(exp, lax.full_like(exp, 1)), _zeros(exp))
        neg_result = lax.select(lax.eq(base, one), one,
                                lax.select(lax.eq(base, minus_one),
                                           lax.select(odd, minus_one, one), zero))
        result = lax.select(neg, neg_result, result)
    return result


@elementwise_unary("numeric")
def negative(x, /):
    """Return the numerical negative of each element.

    Array API: negative. NumPy: numpy.negative.

    Returns
    -------
    Array
        ``-x``, of the dtype of ``x`` (unsigned integers wrap around).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.negative(xp.asarray([1, -2, 0]))
    Array([-1,  2,  0])
    """
    return lax.neg(x)


@elementwise_unary("numeric")
def positive(x, /):
    """Return the numerical positive of each element (a copy).

    Array API: positive. NumPy: numpy.positive.

    Returns
    -------
    Array
        ``+x``: the values of ``x``, of its dtype.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.positive(xp.asarray([1.5, -2.0]))
    Array([ 1.5, -2. ])
    """
    return x


@elementwise_unary("numeric")
def abs(x, /):
    """Return the absolute value of each element.

    Array API: abs. NumPy: numpy.abs.

    Returns
    -------
    Array
        ``|x|``, of the dtype of ``x``; complex input gives its real dtype (the magnitude).

    Notes
    -----
    A complex value with an infinite part gives ``inf`` even where its other part is NaN (as
    ``hypot``). The most negative integer stays itself, as in NumPy. Unlike NumPy, bool input
    raises ``TypeError`` (the standard's dtype category).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.abs(xp.asarray([-1.5, 0.0, 2.0]))
    Array([1.5, 0. , 2. ])
    >>> xp.abs(xp.asarray([3 + 4j]))
    Array([5.])
    """
    if _is_complex(x):  # an infinite part gives +inf even with a NaN part (as hypot)
        inf = lax.bitwise_or(_isinf_real(lax.real(x)), _isinf_real(lax.imag(x)))
        mag = _cm.cabs(x)
        return lax.select(inf, lax.full_like(mag, np.inf), mag)
    if _dt.kind_of(x.dtype) == "u":
        return x
    return lax.abs(x)


@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def square(x, /):
    """Return the square of each element.

    Array API: square. NumPy: numpy.square.

    Returns
    -------
    Array
        ``x * x``, of the dtype of ``x``.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.square(xp.asarray([-3, 2]))
    Array([9, 4])
    """
    return lax.mul(x, x)


@elementwise_unary("floating-point", compute=to_float)
def reciprocal(x, /):
    """Return the reciprocal ``1 / x`` of each element.

    Array API: reciprocal. NumPy: numpy.reciprocal.

    Returns
    -------
    Array
        ``1 / x``, of the floating dtype of ``x``.

    Notes
    -----
    Complex input keeps the textbook signs: ``1 / (c + dj) = (c - dj) / (c**2 + d**2)``. Unlike
    NumPy (integer reciprocal), integer and bool input raise ``TypeError``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.reciprocal(xp.asarray([2.0, 0.0, -4.0]))
    Array([ 0.5 ,   inf, -0.25])
    """
    out = _om.pick("reciprocal", lambda v: lax.div(lax.full_like(v, 1), v))(x)
    if _is_complex(x):  # textbook signs: 1/(c + dj) = (c - dj) / (c**2 + d**2)
        re, im = lax.real(out), lax.imag(out)
        re = lax.select(lax.ne(re, re), re, _copysign(re, lax.real(x)))
        im = lax.select(lax.ne(im, im), im, _copysign(im, lax.neg(lax.imag(x))))
        out = lax.complex(re, im)
    return out


@elementwise_unary("numeric")
def sign(x, /):
    """Return an elementwise indication of the sign of each element.

    Array API: sign. NumPy: numpy.sign.

    Returns
    -------
    Array
        -1, 0 or 1 (of the dtype of ``x``) for real input; ``x / |x|`` (0 at 0) for complex
        input; NaN for NaN.

    Notes
    -----
    ``sign(-0.0)`` is ``+0.0``, as in NumPy. Unlike NumPy, bool input raises ``TypeError`` (the
    standard's dtype category).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.sign(xp.asarray([-2.5, 0.0, 3.0]))
    Array([-1.,  0.,  1.])
    >>> xp.sign(xp.asarray([3 + 4j]))
    Array([0.6+0.8j])
    """
    if _is_complex(x):
        mag = lax.abs(x)
        zero = _zeros(mag)
        safe = lax.select(lax.eq(mag, zero), lax.full_like(mag, 1), mag)
        # part by part (a complex division would lose signed zeros)
        out = lax.complex(lax.div(lax.real(x), safe), lax.div(lax.imag(x), safe))
        return lax.select(lax.eq(mag, zero), _zeros(x), out)
    if _dt.kind_of(x.dtype) == "u":
        return lax.convert_element_type(lax.ne(x, _zeros(x)), x.dtype)
    if _dt.kind_of(x.dtype) == "f":  # sign(-0.0) is +0.0, as in NumPy
        return lax.select(lax.eq(x, _zeros(x)), _zeros(x), lax.sign(x))
    return lax.sign(x)


__all__ = ["abs", "add", "divide", "floor_divide", "multiply", "negative", "positive",
           "pow", "reciprocal", "remainder", "sign", "square", "subtract"]

# the bodies of the Array's operators (``x + y`` is ``add(x, y)``, the ufunc's function
# itself; the comparisons and bitwise operators: their modules; ``matmul``: linear_algebra)
provide(*map(plain, (add, subtract, multiply, divide, floor_divide, remainder,
                     pow, negative, positive, abs)))
