"""NumPy's functions on the class and the parts of floating-point values: the is* predicates
(isposinf, isneginf, iscomplex, isreal, iscomplexobj, isrealobj), frexp/ldexp/modf,
nan_to_num, real_if_close, and rounding to decimals (around, round).

Promotion is NumPy 2's (NEP 50) through the elementwise decorators.  Where NumPy turns an
integer input into a float, the float is float64.  Nothing is static under ``jax.jit`` but
dtypes and keyword values (``decimals``, ``nan``/``posinf``/``neginf``, ``tol``).
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.docstrings import fill
from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.jaxapi import is_tracer
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import FLOAT_LAYOUT, scale_pow2
from laxarray._core.validate import check_int
from laxarray.array_api._calls import call
from laxarray.array_api._array import wrap
from laxarray.array_api._ufunc import cast_broadcast, elementwise_unary
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api.elementwise_floating import round as _api_round
from laxarray.array_api.elementwise import _copysign
from laxarray.linalg._operands import raw
from laxarray.numpy_api.mathfuncs._elementwise import _full, _is_complex, _is_int, _isnan
from laxarray.numpy_api import _docs

__all__ = ["isposinf", "isneginf", "iscomplex", "isreal", "iscomplexobj", "isrealobj", "frexp",
           "ldexp", "modf", "nan_to_num", "real_if_close", "around", "round"]


@elementwise_unary("real")
def isposinf(x, /):
    """Test for +inf (real input only). NumPy: numpy.isposinf.

    Examples
    --------
    >>> import laxarray as la
    >>> la.isposinf(la.asarray([la.inf, -la.inf, 1.0]))
    Array([ True, False, False])
    """
    if _is_int(x):
        return lax.full(x.shape, False)
    return lax.eq(x, _full(x, np.inf))


@elementwise_unary("real")
def isneginf(x, /):
    """Test for -inf (real input only). NumPy: numpy.isneginf.

    Examples
    --------
    >>> import laxarray as la
    >>> la.isneginf(la.asarray([la.inf, -la.inf, 1.0]))
    Array([False,  True, False])
    """
    if _is_int(x):
        return lax.full(x.shape, False)
    return lax.eq(x, _full(x, -np.inf))


@elementwise_unary("any")
def iscomplex(x, /):
    """Whether each element has a non-zero imaginary part. NumPy: numpy.iscomplex.

    Examples
    --------
    >>> import laxarray as la
    >>> la.iscomplex(la.asarray([1 + 1j, 1 + 0j]))
    Array([ True, False])
    """
    if _is_complex(x):
        im = lax.imag(x)
        return lax.ne(im, _full(im, 0))
    return lax.full(x.shape, False)


@elementwise_unary("any")
def isreal(x, /):
    """Whether each element has a zero imaginary part. NumPy: numpy.isreal.

    Examples
    --------
    >>> import laxarray as la
    >>> la.isreal(la.asarray([1 + 1j, 1 + 0j]))
    Array([False,  True])
    """
    if _is_complex(x):
        im = lax.imag(x)
        return lax.eq(im, _full(im, 0))
    return lax.full(x.shape, True)


def _dtype_of(fn, x):
    dt = getattr(x, "dtype", None)
    if isinstance(dt, np.dtype):
        return dt
    if isinstance(x, (type, np.dtype, str)):
        return _dt.canonicalize_dtype(fn, x)
    return raw(fn, x).dtype


def iscomplexobj(x):
    """Whether ``x`` has a complex dtype (a Python bool; no values read).
    NumPy: numpy.iscomplexobj."""
    return _dt.kind_of(_dtype_of("iscomplexobj", x)) == "c"


def isrealobj(x):
    """Whether ``x`` has a non-complex dtype (a Python bool). NumPy: numpy.isrealobj."""
    return _dt.kind_of(_dtype_of("isrealobj", x)) != "c"


# ---- several outputs, integer arguments -------------------------------------------------
def _float_arg(fn, x, argname="x", *, complex_ok=False):
    v = raw(fn, x, argname)
    if _dt.kind_of(v.dtype) == "c" and not complex_ok:
        _dt.check_category(fn, argname, v.dtype, "real numeric")
    return v, (v.dtype if _dt.kind_of(v.dtype) in "fc" else _dt.default_float())


@kernel(static=("dtype",))
def _frexp_kernel(x, *, dtype):
    x = lax.convert_element_type(x, dtype)
    itype, frac, bias = FLOAT_LAYOUT[np.dtype(dtype)]
    nbits = np.dtype(itype).itemsize * 8
    bits = lax.bitcast_convert_type(x, itype)
    sign = lax.bitwise_and(bits, _full(bits, np.iinfo(itype).min))
    mag = lax.bitwise_and(bits, _full(bits, np.iinfo(itype).max))
    field = lax.shift_right_logical(mag, _full(mag, frac))
    fmask = _full(mag, (1 << frac) - 1)
    m = lax.bitwise_and(mag, fmask)
    # subnormals: normalise the fraction by its leading zeros
    p = lax.sub(_full(m, nbits), lax.clz(m))           # bit length of m
    sub_m = lax.bitwise_and(lax.shift_left(m, lax.sub(_full(p, frac + 1), p)), fmask)
    sub_e = lax.sub(p, _full(p, bias + frac - 1))
    is_sub = lax.eq(field, _full(field, 0))
    mant_bits = lax.select(is_sub, sub_m, m)
    e = lax.select(is_sub, sub_e, lax.sub(field, _full(field, bias - 1)))
    out_bits = lax.bitwise_or(sign, lax.bitwise_or(
        lax.shift_left(_full(mag, bias - 1), _full(mag, frac)), mant_bits))
    mant = lax.bitcast_convert_type(out_bits, dtype)
    special = lax.bitwise_or(lax.eq(x, _full(x, 0)), lax.bitwise_not(lax.is_finite(x)))
    mant = lax.select(special, x, mant)
    e = lax.select(special, _full(e, 0), e)
    return mant, lax.convert_element_type(e, np.int32)


_PARTS_RAISES = _docs.closing(["""
    TypeError
        If ``x`` is not array_like or complex."""], "none")


@fill(parts_raises=_PARTS_RAISES)
def frexp(x, /):
    """Decompose values into mantissa and exponent: ``x = mantissa * 2**exponent``.

    Array API: (not in the standard). NumPy: numpy.frexp.

    Parameters
    ----------
    x : array_like
        The input, of a real dtype (integers are taken as float64).

    Returns
    -------
    tuple of Array
        ``(mantissa, exponent)``: ``0.5 <= |mantissa| < 1`` (0 for 0), the exponent int32.

    {parts_raises}
    >>> la.frexp(la.asarray([8.0, -0.75, 0.0]))
    (Array([ 0.5 , -0.75,  0.  ]), Array([4, 0, 0], dtype=int32))
    """
    v, dt = _float_arg("frexp", x)
    return call(_frexp_kernel, v, dtype=dt)


@kernel(static=("dtype", "shape"))
def _ldexp_kernel(x, n, *, dtype, shape):
    x = cast_broadcast(x, dtype, shape)
    _, frac, bias = FLOAT_LAYOUT[np.dtype(dtype)]
    limit = 2 * (bias + frac + 2)   # beyond this the result is 0 or inf for every finite x
    n = cast_broadcast(n, _dt.default_index(), shape)
    n = lax.clamp(lax.full((), -limit, _dt.default_index()), n, lax.full((), limit, _dt.default_index()))
    return scale_pow2(x, n)


@kernel()
def _clamp_u64_kernel(n):
    return lax.convert_element_type(lax.min(n, lax.full_like(n, 1 << 20)), _dt.default_index())


@fill(closing=_docs.closing(
    ["TypeError\n    If an operand is not array_like, or ``x2`` is not of an integer dtype.",
     "ValueError\n    If the shapes do not broadcast."],
    "none"))
def ldexp(x1, x2, /):
    """Return ``x1 * 2**x2`` elementwise, for integer ``x2``.

    Array API: (not in the standard). NumPy: numpy.ldexp.

    Parameters
    ----------
    x1 : array_like
        The mantissas.
    x2 : array_like
        The integer exponents; they broadcast with ``x1``.

    Returns
    -------
    Array
        Of the floating dtype of ``x1`` (integers give float64).

    {closing}
    >>> la.ldexp(la.asarray([0.5, 1.0]), la.asarray([4, 1]))
    Array([8., 2.])
    """
    fn = "ldexp"
    v1, dt = _float_arg(fn, x1, "x1")
    v2 = raw(fn, x2, "x2")
    if _dt.kind_of(v2.dtype) not in "iu":
        fail(TypeError, fn, "an integer array for 'x2'", v2.dtype)
    if v2.dtype == _dt.uint64:  # clamp before the int64 conversion inside the kernel
        v2 = call(_clamp_u64_kernel, v2)
    shape = broadcast_shapes2(fn, tuple(v1.shape), tuple(v2.shape))
    return call(_ldexp_kernel, v1, v2, dtype=dt, shape=shape)


@kernel(static=("dtype",))
def _modf_kernel(x, *, dtype):
    x = lax.convert_element_type(x, dtype)
    whole = lax.select(lax.lt(x, _full(x, 0)), lax.ceil(x), lax.floor(x))
    fracpart = lax.sub(x, whole)
    inf = lax.eq(lax.abs(x), _full(x, np.inf))
    fracpart = _copysign(lax.select(inf, _full(x, 0), fracpart), x)
    return fracpart, whole


@fill(parts_raises=_PARTS_RAISES)
def modf(x, /):
    """Return the fractional and integral parts of values.

    Array API: (not in the standard). NumPy: numpy.modf.

    Parameters
    ----------
    x : array_like
        The input, of a real dtype.

    Returns
    -------
    tuple of Array
        ``(fractional part, integral part)``, both with the sign of ``x``.

    {parts_raises}
    >>> la.modf(la.asarray([3.5, -2.25]))
    (Array([ 0.5 , -0.25]), Array([ 3., -2.]))
    """
    v, dt = _float_arg("modf", x)
    return call(_modf_kernel, v, dtype=dt)


# ---- nan_to_num -------------------------------------------------------------------------
@kernel(static=("nan", "posinf", "neginf"))
def _nan_to_num_kernel(x, *, nan, posinf, neginf):
    if _is_complex(x):
        re = _nan_to_num_kernel.fn(lax.real(x), nan=nan, posinf=posinf, neginf=neginf)
        im = _nan_to_num_kernel.fn(lax.imag(x), nan=nan, posinf=posinf, neginf=neginf)
        return lax.complex(re, im)
    if _is_int(x):
        return x
    info = _dt.machine_limits(x.dtype)
    big = float(info.max) if posinf is None else posinf
    small = float(-info.max) if neginf is None else neginf
    out = lax.select(_isnan(x), _full(x, nan), x)
    out = lax.select(lax.eq(x, _full(x, np.inf)), _full(x, big), out)
    return lax.select(lax.eq(x, _full(x, -np.inf)), _full(x, small), out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Replace NaN with zero (or ``nan``) and infinities with large finite numbers.

    Array API: (not in the standard). NumPy: numpy.nan_to_num.

    Parameters
    ----------
    x : array_like
        The input array; integers and bools are returned unchanged.
    copy : bool, optional
        Accepted and ignored (arrays are immutable).
    nan : float, optional
        The value for NaN; default 0.0.
    posinf, neginf : float, optional
        The values for +inf and -inf; default the dtype's largest and smallest finite values.

    Returns
    -------
    Array
        ``x`` with the replacements, of its dtype (complex: in each part).

    Raises
    ------
    TypeError
        If ``x`` is not array_like, or a replacement is not a Python number.

    Notes
    -----
    Static under ``jax.jit``: ``copy``, ``nan``, ``posinf``, ``neginf``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.nan_to_num(la.asarray([la.nan, la.inf, -la.inf, 1.0]), posinf=9.0, neginf=-9.0)
    Array([ 0.,  9., -9.,  1.])
    """
    fn = "nan_to_num"
    v = raw(fn, x)
    vals = []
    for name, val in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if val is None and name != "nan":
            vals.append(None)
            continue
        if isinstance(val, (bool, np.bool_)) or not isinstance(val, (int, float, np.number)) \
                or isinstance(val, (complex, np.complexfloating)):
            fail(TypeError, fn, f"a real Python scalar for '{name}'", val)
        vals.append(float(val))
    return call(_nan_to_num_kernel, v, nan=vals[0], posinf=vals[1], neginf=vals[2])


@kernel(static=("bound",))
def _imag_within_kernel(x, *, bound):
    small = lax.lt(lax.abs(lax.imag(x)), lax.full((), bound, _dt.real_dtype(x.dtype)))
    return lax.reduce_and(small, tuple(range(small.ndim))) if small.ndim else small


def real_if_close(a, tol=100):
    """The real part of ``a`` if every imaginary part is below ``tol`` machine epsilons
    (``tol <= 1``: below ``tol`` itself); otherwise ``a``. NumPy: numpy.real_if_close.

    The result's dtype depends on the values, so under ``jax.jit`` a complex ``a`` raises
    a ``ValueError``; real input is returned as it is.
    """
    fn = "real_if_close"
    v = raw(fn, a)
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.number)) \
            or isinstance(tol, (complex, np.complexfloating)):
        fail(TypeError, fn, "a real Python scalar for 'tol'", tol)
    if _dt.kind_of(v.dtype) != "c":
        return wrap(v)
    if is_tracer(v):
        fail(ValueError, fn, "a concrete 'a' (the result dtype depends on its values; under "
             "jax.jit test the imaginary part and call real explicitly)", a)
    bound = float(tol) * float(np.finfo(v.dtype).eps) if tol > 1 else float(tol)
    if bool(call(_imag_within_kernel, v, bound=bound)._value):
        return wrap(lax.real(v))
    return wrap(v)




# ---- around, round -----------------------------------------------------------------------
@kernel(static=("decimals",))
def _around_kernel(x, *, decimals):
    if _is_complex(x):
        re = _around_kernel.fn(lax.real(x), decimals=decimals)
        return lax.complex(re, _around_kernel.fn(lax.imag(x), decimals=decimals))
    if x.dtype == np.bool_ or (_is_int(x) and decimals >= 0):
        return x
    if _is_int(x):
        f = 10 ** (-decimals)
        if f > np.iinfo(x.dtype).max:
            return lax.full_like(x, 0)
        fx = _full(x, f)
        q = lax.div(x, fx)
        r = lax.sub(x, lax.mul(q, fx))
        neg = lax.lt(r, _full(r, 0))  # truncating division: make r >= 0, q the floor
        q = lax.select(neg, lax.sub(q, _full(q, 1)), q)
        r = lax.select(neg, lax.add(r, fx), r)
        # half to even: r against f - r, in integers (0 <= r < f: no overflow, every width)
        rest = lax.sub(fx, r)
        odd = lax.ne(lax.rem(q, _full(q, 2)), _full(q, 0))
        up = lax.bitwise_or(lax.gt(r, rest), lax.bitwise_and(lax.eq(r, rest), odd))
        q = lax.select(up, lax.add(q, _full(q, 1)), q)
        return lax.mul(q, fx)
    even = lax.RoundingMethod.TO_NEAREST_EVEN
    # behind a barrier XLA cannot turn the division by the constant into a multiplication
    # by its (inexact) reciprocal: NumPy divides, round(1.25, 1) is 1.2, not 1.2000000000000002
    scale = lax.optimization_barrier(_full(x, 10.0 ** abs(decimals)))
    if decimals >= 0:
        return lax.div(lax.round(lax.mul(x, scale), even), scale)
    return lax.mul(lax.round(lax.div(x, scale), even), scale)


_ROUND_PARAMETERS_RETURNS = _docs.compose("""
decimals : int, optional
    The number of decimals to round to (negative: to tens, hundreds ...); default 0.
out : None, optional
    NumPy's; only ``None`` is accepted (laxarray arrays are immutable).

Returns
-------
Array""")


_ROUND_NOTES_EXAMPLES = _docs.compose("""
Integers stay integers (a negative ``decimals`` rounds them half to even, in integers);
floats compute ``rint(x * 10**d) / 10**d`` as NumPy does (the division not turned into a
product by an inexact reciprocal: ``round(1.25, 1)`` is ``1.2``); complex input rounds
both parts.

Examples
--------
>>> import laxarray as xp""")


@fill(round_parameters_returns=_ROUND_PARAMETERS_RETURNS,
      round_notes_examples=_ROUND_NOTES_EXAMPLES)
def around(a, decimals=0, out=None):
    """Round each element half to even, to the given number of decimals.

    NumPy: numpy.around.

    Parameters
    ----------
    a : array_like
        The input array.
    {round_parameters_returns}
        The rounded values, of the dtype of ``a``.

    Raises
    ------
    TypeError
        If ``a`` is not array_like, ``decimals`` is not an int, or ``out`` is given.

    Notes
    -----
    Static under ``jax.jit``: ``decimals``.

    {round_notes_examples}
    >>> xp.around(xp.asarray([1.25, 2.675]), 1)
    Array([1.2, 2.7])
    """
    return _around("around", a, decimals, out)


@fill(round_parameters_returns=_ROUND_PARAMETERS_RETURNS,
      round_notes_examples=_ROUND_NOTES_EXAMPLES)
def round(x, /, decimals=0, out=None):  # noqa: A001 -- the standard's and NumPy's name
    """Round each element half to even, to the given number of decimals.

    Array API: round. NumPy: numpy.round.

    Parameters
    ----------
    x : array_like
        The input array.
    {round_parameters_returns}
        The rounded values, of the dtype of ``x``.

    Raises
    ------
    TypeError
        If the input is not array_like (of a numeric dtype, for ``decimals=0``),
        ``decimals`` is not an int, or ``out`` is given.

    Notes
    -----
    Static under ``jax.jit``: ``decimals``.

    The standard's ``round`` (``decimals=0``, which ``laxarray.array_api.round`` is) with
    NumPy's ``decimals`` as :func:`around` does.  With ``decimals=0`` bool input raises
    ``TypeError`` (the standard's numeric category); with other ``decimals`` it is returned
    as it is.

    {round_notes_examples}
    >>> xp.round(xp.asarray([0.5, 1.5, 2.5]))
    Array([0., 2., 2.])
    >>> xp.round(xp.asarray([1.25, 3.14159]), 2)
    Array([1.25, 3.14])
    >>> xp.round(xp.asarray([125, 135]), -1)
    Array([120, 140])
    """
    if out is None and type(decimals) is int and decimals == 0:
        return _api_round(x)
    return _around("round", x, decimals, out)


def _around(fn, a, decimals, out):
    if out is not None:
        fail(TypeError, fn, "out=None (laxarray arrays are immutable)", out)
    v = raw(fn, a, "a")
    decimals = check_int(fn, decimals, "decimals")
    return call(_around_kernel, v, decimals=decimals)
