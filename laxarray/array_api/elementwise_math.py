"""Transcendental, complex and clipping elementwise functions of the standard.

Floating-only functions accept integer input and compute in the default floating dtype
(float64 on the CPU, float32 on a TPU), as jax.numpy does; bool input raises ``TypeError``
(the standard's ``numeric`` category).  Under ``jax.jit`` each traces to bare lax
primitives.
"""

from __future__ import annotations

import builtins
import functools
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import FLOAT_LAYOUT, cast_value
from laxarray.array_api import _complex_math as _cm
from laxarray.array_api import _exact_complex64 as _oc
from laxarray.array_api import _exact_float32 as _om
from laxarray.array_api._array import Array
from laxarray.array_api._broadcast import broadcast_many, broadcast_rule
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, scalar_operand
from laxarray.array_api._ufunc import (binary_operands, cast_broadcast,
                                       elementwise_binary, elementwise_unary, to_float)
from laxarray.array_api.elementwise import _copysign, _is_complex, _zeros

_FLOATING = "numeric"  # ints are accepted and computed in the default float; bool is not


def _unary(body_name, lax_fn, doc, complex_fn=None):
    complex_fn = complex_fn or lax_fn

    def body(x, /):
        return complex_fn(x) if _is_complex(x) else lax_fn(x)
    body.__name__ = body_name
    body.__qualname__ = body_name
    body.__doc__ = doc
    return elementwise_unary(_FLOATING, compute=to_float)(body)


exp = _unary("exp", _om.pick("exp", lax.exp), complex_fn=_cm.cexp, doc="""\
Return the exponential ``e**x`` of each element.

Array API: exp. NumPy: numpy.exp.

Returns
-------
Array
    ``e**x``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Complex input follows the standard's special cases (C99 Annex G).

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.exp(xp.asarray([0.0, 1.0]))
Array([1.        , 2.71828183])
""")

expm1 = _unary("expm1", _om.pick("expm1", lax.expm1), complex_fn=_cm.cexpm1, doc="""\
Return ``exp(x) - 1`` of each element, accurate near zero.

Array API: expm1. NumPy: numpy.expm1.

Returns
-------
Array
    ``exp(x) - 1``, of the floating dtype of ``x`` (integer input: the default floating
    dtype).

Notes
-----
Complex special values follow the standard's tables (C99 Annex G): ``expm1(-inf+nanj)`` is
``-1+0j``, where NumPy gives ``nan+nanj`` for several complex special values.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.expm1(xp.asarray([1e-10, 1.0]))
Array([1.00000000e-10, 1.71828183e+00])
""")

log = _unary("log", _om.pick("log", lax.log), complex_fn=_cm.clog, doc="""\
Return the natural logarithm of each element.

Array API: log. NumPy: numpy.log.

Returns
-------
Array
    ``ln(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
``log(0)`` is ``-inf``; a negative real gives NaN. Complex input: the principal value,
branch cut along the negative real axis.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.log(xp.asarray([1.0, 2.718281828459045, 0.0]))
Array([ 0.,  1., -inf])
""")

log1p = _unary("log1p", _om.pick("log1p", lax.log1p), complex_fn=_cm.clog1p, doc="""\
Return ``log(1 + x)`` of each element, accurate near zero.

Array API: log1p. NumPy: numpy.log1p.

Returns
-------
Array
    ``ln(1 + x)``, of the floating dtype of ``x`` (integer input: the default floating
    dtype).

Notes
-----
``log1p(-1)`` is ``-inf``; below -1 a real gives NaN. Complex input: branch cut along the
real axis below -1.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.log1p(xp.asarray([1e-10, 1.0]))
Array([1.00000000e-10, 6.93147181e-01])
""")

sqrt = _unary("sqrt", _om.pick("sqrt", lax.sqrt), complex_fn=_cm.csqrt, doc="""\
Return the principal square root of each element.

Array API: sqrt. NumPy: numpy.sqrt.

Returns
-------
Array
    ``sqrt(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
A negative real gives NaN (complex input gives the principal root, branch cut along the
negative real axis); ``sqrt(-0.0)`` is ``-0.0``.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.sqrt(xp.asarray([4.0, 2.0, -1.0]))
Array([2.        , 1.41421356,        nan])
>>> xp.sqrt(xp.asarray([-4 + 0j]))
Array([0.+2.j])
""")

sin = _unary("sin", lax.sin, complex_fn=_cm.csin, doc="""\
Return the sine of each element (in radians).

Array API: sin. NumPy: numpy.sin.

Returns
-------
Array
    ``sin(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> import math
>>> xp.sin(xp.asarray([0.0, math.pi / 2]))
Array([0., 1.])
""")

cos = _unary("cos", lax.cos, complex_fn=_cm.ccos, doc="""\
Return the cosine of each element (in radians).

Array API: cos. NumPy: numpy.cos.

Returns
-------
Array
    ``cos(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.cos(xp.asarray([0.0, 1.0]))
Array([1.        , 0.54030231])
""")

tan = _unary("tan", lax.tan, complex_fn=_cm.ctan, doc="""\
Return the tangent of each element (in radians).

Array API: tan. NumPy: numpy.tan.

Returns
-------
Array
    ``tan(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> import math
>>> xp.tan(xp.asarray([0.0, math.pi / 4]))
Array([0., 1.])
""")

asin = _unary("asin", lax.asin, complex_fn=_cm.casin, doc="""\
Return the inverse sine of each element.

Array API: asin. NumPy: numpy.arcsin.

Returns
-------
Array
    ``arcsin(x)``, in ``[-pi/2, pi/2]`` for real ``x``, of the floating dtype of ``x``
    (integer input: the default floating dtype).

Notes
-----
Real input outside ``[-1, 1]`` gives NaN; complex input has branch cuts along the real axis
outside ``[-1, 1]``.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.asin(xp.asarray([0.0, 1.0, 2.0]))
Array([0.        , 1.57079633,        nan])
""")

acos = _unary("acos", lax.acos, complex_fn=_cm.cacos, doc="""\
Return the inverse cosine of each element.

Array API: acos. NumPy: numpy.arccos.

Returns
-------
Array
    ``arccos(x)``, in ``[0, pi]`` for real ``x``, of the floating dtype of ``x`` (integer
    input: the default floating dtype).

Notes
-----
Real input outside ``[-1, 1]`` gives NaN; complex input has branch cuts along the real axis
outside ``[-1, 1]``.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.acos(xp.asarray([1.0, 0.0, -1.0]))
Array([0.        , 1.57079633, 3.14159265])
""")

atan = _unary("atan", lax.atan, complex_fn=_cm.catan, doc="""\
Return the inverse tangent of each element.

Array API: atan. NumPy: numpy.arctan.

Returns
-------
Array
    ``arctan(x)``, in ``[-pi/2, pi/2]`` for real ``x``, of the floating dtype of ``x``
    (integer input: the default floating dtype).

Notes
-----
Complex input has branch cuts along the imaginary axis outside ``[-1j, 1j]``.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.atan(xp.asarray([0.0, 1.0]))
Array([0.        , 0.78539816])
""")

sinh = _unary("sinh", _cm.sinh_real, complex_fn=_cm.csinh, doc="""\
Return the hyperbolic sine of each element.

Array API: sinh. NumPy: numpy.sinh.

Returns
-------
Array
    ``sinh(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.sinh(xp.asarray([0.0, 1.0]))
Array([0.        , 1.17520119])
""")

cosh = _unary("cosh", _cm.cosh_real, complex_fn=_cm.ccosh, doc="""\
Return the hyperbolic cosine of each element.

Array API: cosh. NumPy: numpy.cosh.

Returns
-------
Array
    ``cosh(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.cosh(xp.asarray([0.0, 1.0]))
Array([1.        , 1.54308063])
""")

tanh = _unary("tanh", _om.pick("tanh", lax.tanh), complex_fn=_cm.ctanh, doc="""\
Return the hyperbolic tangent of each element.

Array API: tanh. NumPy: numpy.tanh.

Returns
-------
Array
    ``tanh(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.tanh(xp.asarray([0.0, 1.0, 1000.0]))
Array([0.        , 0.76159416, 1.        ])
""")

asinh = _unary("asinh", _om.pick("asinh", lax.asinh), complex_fn=_cm.casinh, doc="""\
Return the inverse hyperbolic sine of each element.

Array API: asinh. NumPy: numpy.arcsinh.

Returns
-------
Array
    ``arcsinh(x)``, of the floating dtype of ``x`` (integer input: the default floating
    dtype).

Notes
-----
Complex input has branch cuts along the imaginary axis outside ``[-1j, 1j]``.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.asinh(xp.asarray([0.0, 1.0]))
Array([0.        , 0.88137359])
""")

acosh = _unary("acosh", _om.pick("acosh", lax.acosh), complex_fn=_cm.cacosh, doc="""\
Return the inverse hyperbolic cosine of each element.

Array API: acosh. NumPy: numpy.arccosh.

Returns
-------
Array
    ``arccosh(x)``, of the floating dtype of ``x`` (integer input: the default floating
    dtype).

Notes
-----
Real input below 1 gives NaN; complex input has a branch cut along the real axis below 1.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.acosh(xp.asarray([1.0, 2.0, 0.5]))
Array([0.       , 1.3169579,       nan])
""")

atanh = _unary("atanh", _om.pick("atanh", lax.atanh), complex_fn=_cm.catanh, doc="""\
Return the inverse hyperbolic tangent of each element.

Array API: atanh. NumPy: numpy.arctanh.

Returns
-------
Array
    ``arctanh(x)``, of the floating dtype of ``x`` (integer input: the default floating
    dtype).

Notes
-----
``atanh(1)`` is ``inf``; real input outside ``[-1, 1]`` gives NaN; complex input has branch
cuts along the real axis outside ``[-1, 1]``.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.atanh(xp.asarray([0.0, 0.5, 1.0]))
Array([0.        , 0.54930614,        inf])
""")


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _log_base_real(x, base):
    """``log_base(x)`` of real floating ``x`` as ``e log_base(2) + log(m) / log(base)`` with
    ``x = m 2**e``, ``m`` in ``[sqrt(1/2), sqrt(2)]`` (``_exact_float32.log_split``): powers of
    the base come out exact (``log10(0.1) == -1``, ``log2(2**k) == k``), where
    ``log(x) / log(base)`` is off by an ulp or two.  float16 and float32 do the arithmetic in
    float64 (then they are correctly rounded, where NumPy's float32 log10 is in 47% of cases);
    on a backend without float64 (a TPU) float32 does it in float32, to under one ulp.  Zero,
    negative, inf and NaN take ``log(x) / log(base)``.  The float64 result is rounded to
    float16 once (``cast_value``: XLA:CPU's own conversion goes through float32 on some
    instruction sets and not on others)."""
    dt = np.dtype(x.dtype)
    m, e = _om.mantissa_exponent(x)
    work = np.dtype(np.float64) if _backend.current().supports(np.float64) else \
        np.dtype(np.float32)
    m, e = lax.convert_element_type(m, work), lax.convert_element_type(e, work)
    out = _om.log_split(m, e, base)
    plain = lax.div(lax.log(x), lax.full_like(x, math.log(base)))
    ok = lax.bitwise_and(lax.gt(x, lax.full_like(x, 0)), lax.is_finite(x))
    return lax.select(ok, cast_value(out, dt), plain)  # float16: rounded once (issue 57)


@_log_base_real.defjvp
def _log_base_real_jvp(base, primals, tangents):
    """The derivative ``1 / (x log(base))``: the bit-level split has none of its own."""
    (x,), (dx,) = primals, tangents
    return _log_base_real(x, base), lax.div(dx, lax.mul(x, lax.full_like(x, math.log(base))))


def _log_base(x, base):
    inv = 1.0 / math.log(base)
    if _is_complex(x):  # part by part: a complex division would turn inf parts into NaN
        w = _cm.clog(x)
        scale = lax.full_like(lax.real(w), inv)
        return lax.complex(lax.mul(lax.real(w), scale), lax.mul(lax.imag(w), scale))
    if np.dtype(x.dtype) in FLOAT_LAYOUT:
        return _log_base_real(x, base)
    return lax.div(lax.log(x), lax.full_like(x, math.log(base)))


log2 = _unary("log2", lambda x: _log_base(x, 2), doc="""\
Return the base-2 logarithm of each element.

Array API: log2. NumPy: numpy.log2.

Returns
-------
Array
    ``log2(x)``, of the floating dtype of ``x`` (integer input: the default floating dtype).

Notes
-----
Powers of 2 come out exact (``log2(2**k) == k``): a real float is split as ``m * 2**e`` and
``e + log(m) / log(2)`` computed (in float64 for float16 and float32 where the backend has
it). Complex input: ``log(x) / log(2)`` part by part.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.log2(xp.asarray([1.0, 8.0, 0.5]))
Array([ 0.,  3., -1.])
""")

log10 = _unary("log10", lambda x: _log_base(x, 10), doc="""\
Return the base-10 logarithm of each element.

Array API: log10. NumPy: numpy.log10.

Returns
-------
Array
    ``log10(x)``, of the floating dtype of ``x`` (integer input: the default floating
    dtype).

Notes
-----
Powers of 10 come out exact (``log10(0.1) == -1``), where ``log(x) / log(10)`` is off by an
ulp or two: a real float is split as ``m * 2**e`` and ``e log10(2) + log(m) / log(10)``
computed; float16 and float32 do the arithmetic in float64 (then they are correctly rounded,
where NumPy's float32 log10 is in 47% of cases); on a backend without float64 (a TPU)
float32 does it in float32, to under one ulp. Complex input: ``log(x) / log(10)`` part by
part.

Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).

Examples
--------
>>> import laxarray as xp
>>> xp.log10(xp.asarray([0.1, 1000.0]))
Array([-1.,  3.])
""")


@elementwise_binary("real numeric", compute=to_float, flush_subnormals=True,
                    ufunc=True)
def atan2(x1, x2, /):
    """Return the inverse tangent of ``x1 / x2``, choosing the quadrant from both signs.

    Array API: atan2. NumPy: numpy.arctan2.

    Returns
    -------
    Array
        The angle in radians, in ``[-pi, pi]``, of the promoted floating dtype; it always
        carries the sign of ``x1``.

    Notes
    -----
    XLA on the CPU flushes subnormals in its division but not in its comparisons, so a subnormal
    pair would give NaN: subnormal operands are read as signed zeros (the flush-to-zero answer).
    Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
    TPU); unlike NumPy, bool input raises ``TypeError``, and complex input too (as in NumPy).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([-1.0, -1.0]))
    Array([ 2.35619449, -2.35619449])
    """
    # XLA on CPU flushes subnormals in its division but not in its comparisons, so a
    # subnormal pair gives NaN: they are read as signed zeros (the flush-to-zero answer).
    # The result always carries the sign of x1 (XLA loses it for subnormal x1).
    if _om.own("divide", x1):   # the chip's division flushes 1 / x2 past 2**126
        return _oc.atan2(x1, x2)
    return _copysign(lax.atan2(x1, x2), x1)


@elementwise_binary("real numeric", compute=to_float,
                    ufunc=True)
def hypot(x1, x2, /):
    """Return ``sqrt(x1**2 + x2**2)`` elementwise, without overflow or underflow.

    Array API: hypot. NumPy: numpy.hypot.

    Returns
    -------
    Array
        The hypotenuse, of the promoted floating dtype; ``inf`` wins over NaN.

    Notes
    -----
    Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
    TPU); unlike NumPy, bool input raises ``TypeError``, and complex input too (as in NumPy).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.hypot(xp.asarray([3.0, 1e300]), 4.0)
    Array([5.e+000, 1.e+300])
    """
    return _cm.hypot(x1, x2)


@elementwise_binary("real numeric", compute=to_float,
                    ufunc=True)
def logaddexp(x1, x2, /):
    """Return ``log(exp(x1) + exp(x2))`` elementwise, without overflow.

    Array API: logaddexp. NumPy: numpy.logaddexp.

    Returns
    -------
    Array
        Of the promoted floating dtype.

    Notes
    -----
    Equal infinities give ``inf`` (and ``-inf`` for two ``-inf``), not NaN; where ``x1 == x2``
    the gradient is 1/2 for each argument. As a ufunc its ``identity`` is ``-inf``. Integer
    input is computed in the default floating dtype (float64 on the CPU, float32 on a TPU);
    unlike NumPy, bool input raises ``TypeError``, and complex input too (as in NumPy).

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.logaddexp(xp.asarray([1000.0, 0.0]), xp.asarray([1000.0, 0.0]))
    Array([1.00069315e+03, 6.93147181e-01])
    """
    big = lax.max(x1, x2)
    diff = lax.neg(lax.abs(lax.sub(x1, x2)))
    out = lax.add(big, _om.pick("log1p", lax.log1p)(_om.pick("exp", lax.exp)(diff)))
    # equal infinities: log(e^inf + e^inf) = inf, log(0 + 0) = -inf (diff would be NaN)
    same = lax.eq(x1, x2)
    # x1 + (x2 - x1) / 2 (= x1 there) keeps the gradient 1/2 for each argument
    mid = lax.select(lax.is_finite(x1),
                     lax.add(x1, lax.mul(lax.sub(x2, x1), lax.full_like(x1, 0.5))), x1)
    return lax.select(same, lax.add(mid, lax.full_like(x1, math.log(2.0))), out)


@elementwise_unary("numeric")
def real(x, /):
    """Return the real part of each element.

    Array API: real. NumPy: numpy.real.

    Returns
    -------
    Array
        The real parts, of the real floating dtype of a complex ``x``; real input is returned as
        it is.

    Notes
    -----
    Unlike NumPy, bool input raises ``TypeError``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.real(xp.asarray([1 + 2j, 3 - 4j]))
    Array([1., 3.])
    """
    return lax.real(x) if _is_complex(x) else x


@elementwise_unary("numeric")
def imag(x, /):
    """Return the imaginary part of each element.

    Array API: imag. NumPy: numpy.imag.

    Returns
    -------
    Array
        The imaginary parts, of the real floating dtype of a complex ``x``; zeros of the dtype
        of a real ``x``.

    Notes
    -----
    Unlike NumPy, bool input raises ``TypeError``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.imag(xp.asarray([1 + 2j, 3 - 4j]))
    Array([ 2., -4.])
    """
    return lax.imag(x) if _is_complex(x) else _zeros(x)


@elementwise_unary("numeric")
def conj(x, /):
    """Return the complex conjugate of each element.

    Array API: conj. NumPy: numpy.conj.

    Returns
    -------
    Array
        The conjugates, of the dtype of ``x``; real input is returned unchanged.

    Notes
    -----
    Unlike NumPy, bool input raises ``TypeError``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.conj(xp.asarray([1 + 2j, 3 - 4j]))
    Array([1.-2.j, 3.+4.j])
    """
    return lax.conj(x) if _is_complex(x) else x


def _clip_kernel_body(x, lo, hi):
    """``x`` clipped to the bounds ``lo``/``hi`` (``None`` or arrays of ``x``'s dtype that
    broadcast to ``x``'s shape, broadcast here)."""
    shape, dt = x.shape, x.dtype

    def bcast(v):
        return cast_broadcast(v, v.dtype, shape)
    if _dt.kind_of(dt) != "f":
        x = x if lo is None else lax.max(x, bcast(lo))
        return x if hi is None else lax.min(x, bcast(hi))
    # the standard's maximum(minimum(x, max), min) with NumPy's minimum/maximum: a tie
    # (signed zeros) gives the bound, a NaN anywhere gives NaN; for min > max the result is
    # max (or a NaN x), as NumPy's clip gives (the standard leaves it unspecified).  One
    # compare and one select per bound (``b <= a``: false for a NaN ``a``), which XLA
    # vectorizes (an or/and of two compares per element runs 2-3x slower); what that misses
    # (a NaN bound, min > max) is decided on the bounds themselves: once for scalar bounds,
    # folded away for constant ones.
    if lo is not None and hi is not None:  # min > max: x goes to max, as for min = max
        both = lax.broadcast_shapes(lo.shape, hi.shape)
        lo, hi = cast_broadcast(lo, dt, both), cast_broadcast(hi, dt, both)
        lo = lax.select(lax.gt(lo, hi), hi, lo)
    out = x
    if hi is not None:
        b = bcast(hi)
        out = lax.select(lax.le(b, out), b, out)
    if lo is not None:
        b = bcast(lo)
        out = lax.select(lax.ge(b, out), b, out)
    for v in (hi, lo):
        if v is not None:
            out = lax.select(bcast(lax.ne(v, v)), bcast(v), out)
    return out


@kernel(static=("dtype", "has_lo", "has_hi"), shape=broadcast_rule)
def _clip_kernel(x, *bounds, dtype, has_lo, has_hi):
    x = cast_broadcast(x, dtype, lax.broadcast_shapes(x.shape, *(b.shape for b in bounds)))
    bounds = [lax.convert_element_type(b, dtype) for b in bounds]
    lo = bounds.pop(0) if has_lo else None
    hi = bounds.pop(0) if has_hi else None
    return _clip_kernel_body(x, lo, hi)


_REAL_BOUND = (int, float, type(None))


def _clip_fast(x, lo, hi):
    """``clip`` of a concrete real Array between Python scalars of its kind (or None): its
    kernel called at once (bucketed where ``x`` is); ``None`` where the general path must
    run (it validates and promotes everything else)."""
    if x.base is not None or x._is_traced():  # a view, or traced: the general path
        return None
    dt = x.dtype
    kind = dt.kind
    if kind in "iu":
        if type(lo) is float or type(hi) is float:
            return None
        lo = None if lo is None else _in_int_range(lo, dt)
        hi = None if hi is None else _in_int_range(hi, dt)
    elif kind != "f":
        return None
    scalars = [scalar_operand("clip", b, dt, name) for b, name in ((lo, "min"), (hi, "max"))
               if b is not None]
    return call(_clip_kernel, x, *scalars, dtype=dt, has_lo=lo is not None,
                has_hi=hi is not None)


def _in_int_range(bound, dt):
    """An int bound of an integer ``clip`` moved into ``dt``'s range: beyond it, it clips
    nothing there."""
    lowest, highest = _dt.int_range(dt)
    return builtins.min(builtins.max(bound, lowest), highest)


def clip(x, /, min=None, max=None):
    """Clamp each element of ``x`` to the interval ``[min, max]``.

    Array API: clip. NumPy: numpy.clip.

    Parameters
    ----------
    x : array_like
        The input, of a real dtype (bool, integer or real floating; not complex).
    min : scalar or array_like, optional
        The lower bound: a Python scalar or an array of the kind of ``x`` (integer bounds for
        integer ``x``), broadcasting to the shape of ``x``; default ``None``: no lower bound.
    max : scalar or array_like, optional
        The upper bound, likewise; default ``None``: no upper bound.

    Returns
    -------
    Array
        The clipped values, of the dtype of ``x`` and the broadcast shape of ``x``, ``min``
        and ``max``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like or complex, or a bound is of another kind than ``x`` (a
        float or complex bound for integer ``x``).
    ValueError
        If the shapes of ``x``, ``min`` and ``max`` do not broadcast together.

    Notes
    -----
    Static under ``jax.jit``: whether ``min`` and ``max`` are given or left out.

    NaN in any argument gives NaN; a tie (signed zeros) gives the bound; for ``min > max``
    the result is ``max`` (or a NaN ``x``), as NumPy's ``clip`` gives (the standard leaves it
    unspecified).  An integer bound beyond the range of an integer ``x`` clips nothing there.
    Unlike NumPy, ``min`` and ``max`` are the standard's names (NumPy: ``a_min``, ``a_max``)
    and no ``out`` is taken.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.clip(xp.asarray([1, 5, 9]), 2, 6)
    Array([2, 5, 6])
    >>> xp.clip(xp.asarray([-1.5, 0.5, 2.5]), max=1.0)
    Array([-1.5,  0.5,  1. ])
    """
    if type(x) is Array and type(min) in _REAL_BOUND and type(max) in _REAL_BOUND:
        out = _clip_fast(x, min, max)
        if out is not None:
            return out
    v = as_array("clip", x)
    dt = v.dtype
    if dt not in _dt.CATEGORIES["real"]:
        _dt.check_category("clip", "x", dt, "real numeric")
    bounds = []
    shape = v.shape
    for argname, bound in (("min", min), ("max", max)):
        if bound is None:
            bounds.append(None)
            continue
        pytype = _dt.scalar_pytype(bound)
        if pytype is not None:
            if pytype is complex or (pytype is float and _dt.kind_of(dt) in "iub"):
                fail(TypeError, "clip", f"'{argname}' of the same kind as x ({dt})", bound)
            if _dt.kind_of(dt) == "b":
                raw = scalar_operand("clip", builtins.bool(bound), dt, argname)
            else:  # cached device scalars keep the eager path fast
                if _dt.kind_of(dt) in "iu" and pytype is not bool:
                    bound = _in_int_range(bound, dt)
                raw = scalar_operand("clip", bound, dt, argname)
        else:
            raw = as_array("clip", bound, argname)
            rk, xk = _dt.kind_of(raw.dtype), _dt.kind_of(dt)
            if rk != xk and not (rk in "iu" and xk in "iu"):
                fail(TypeError, "clip", f"'{argname}' of the same kind as x ({dt})", bound)
        bounds.append(raw)
    broadcast_many("clip", [shape] + [tuple(b.shape) for b in bounds if b is not None])
    return call(_clip_kernel, v, *(b for b in bounds if b is not None), dtype=dt,
                has_lo=bounds[0] is not None, has_hi=bounds[1] is not None)


__all__ = ["exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan",
           "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "atan2",
           "hypot", "logaddexp", "real", "imag", "conj", "clip"]
_ = (binary_operands, _copysign)
