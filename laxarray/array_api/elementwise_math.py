"""Transcendental elementwise functions of one operand, and the complex parts (real, imag,
conj), of the standard (atan2, hypot, logaddexp and clip: ``elementwise_pairwise``).

Floating-only functions accept integer input and compute in the default floating dtype (float64
on the CPU, float32 on a TPU), as jax.numpy does; bool input raises ``TypeError`` (the
standard's ``numeric`` category).  Under ``jax.jit`` each traces to bare lax primitives.
"""

from __future__ import annotations

import functools
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core.numerics import FLOAT_LAYOUT, cast_value
from laxarray._core.docstrings import fill
from laxarray.array_api import _complex_math as _cm
from laxarray.array_api import _exact_float32 as _om
from laxarray.array_api._docs import NO_BOOL_NOTES
from laxarray.array_api._ufunc import elementwise_unary, to_float
from laxarray.array_api.elementwise import _is_complex, _zeros

_FLOATING = "numeric"  # ints are accepted and computed in the default float; bool is not

#: the last paragraph of the Notes of every floating function of one operand (``_unary``)
INT_AS_FLOAT = """
Integer input is computed in the default floating dtype (float64 on the CPU, float32 on a
TPU), as jax.numpy does; unlike NumPy, bool input raises ``TypeError`` (the standard's dtype
category).
"""
_NOTES = "Notes\n-----\n"
#: the parts a ``_unary`` docstring may name: Notes that several share, whole or their end
_UNARY_PARTS = {
    "int_as_float": INT_AS_FLOAT,
    "int_as_float_notes": _NOTES + INT_AS_FLOAT.strip(),
    "real_cut_notes": (_NOTES + "Real input outside ``[-1, 1]`` gives NaN; complex input has "
                       "branch cuts along the real\naxis outside ``[-1, 1]``.\n\n"
                       + INT_AS_FLOAT.strip()),
    "imag_cut_notes": (_NOTES + "Complex input has branch cuts along the imaginary axis "
                       "outside ``[-1j, 1j]``.\n\n" + INT_AS_FLOAT.strip()),
}


def _unary(body_name, lax_fn, doc, complex_fn=None):
    """The floating function ``body_name``: ``lax_fn`` of real input, ``complex_fn`` of
    complex input; ``doc`` its docstring, whose lines ``{name}`` are the parts of that name in
    :data:`_UNARY_PARTS`."""
    complex_fn = complex_fn or lax_fn

    def body(x, /):
        return complex_fn(x) if _is_complex(x) else lax_fn(x)
    body.__name__ = body_name
    body.__qualname__ = body_name
    body.__doc__ = doc
    parts = {name: text for name, text in _UNARY_PARTS.items() if f"{{{name}}}" in doc}
    return elementwise_unary(_FLOATING, compute=to_float)(fill(**parts)(body))


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

{int_as_float}

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

{int_as_float}

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

{int_as_float}

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

{int_as_float}

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

{int_as_float}

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

{int_as_float_notes}

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

{int_as_float_notes}

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

{int_as_float_notes}

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

{real_cut_notes}

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

{real_cut_notes}

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

{imag_cut_notes}

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

{int_as_float_notes}

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

{int_as_float_notes}

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

{int_as_float_notes}

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

{imag_cut_notes}

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

{int_as_float}

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

{int_as_float}

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

{int_as_float}

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

{int_as_float}

Examples
--------
>>> import laxarray as xp
>>> xp.log10(xp.asarray([0.1, 1000.0]))
Array([-1.,  3.])
""")


@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def real(x, /):
    """Return the real part of each element.

    Array API: real. NumPy: numpy.real.

    Returns
    -------
    Array
        The real parts, of the real floating dtype of a complex ``x``; real input is returned as
        it is.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.real(xp.asarray([1 + 2j, 3 - 4j]))
    Array([1., 3.])
    """
    return lax.real(x) if _is_complex(x) else x


@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def imag(x, /):
    """Return the imaginary part of each element.

    Array API: imag. NumPy: numpy.imag.

    Returns
    -------
    Array
        The imaginary parts, of the real floating dtype of a complex ``x``; zeros of the dtype
        of a real ``x``.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.imag(xp.asarray([1 + 2j, 3 - 4j]))
    Array([ 2., -4.])
    """
    return lax.imag(x) if _is_complex(x) else _zeros(x)


@elementwise_unary("numeric")
@fill(no_bool_notes=NO_BOOL_NOTES)
def conj(x, /):
    """Return the complex conjugate of each element.

    Array API: conj. NumPy: numpy.conj.

    Returns
    -------
    Array
        The conjugates, of the dtype of ``x``; real input is returned unchanged.

    {no_bool_notes}

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.conj(xp.asarray([1 + 2j, 3 - 4j]))
    Array([1.-2.j, 3.+4.j])
    """
    return lax.conj(x) if _is_complex(x) else x


__all__ = ["exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan",
           "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "real",
           "imag", "conj"]
