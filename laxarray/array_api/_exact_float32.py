"""float32 exponentials and logarithms from exactly rounded operations, for backends whose
XLA lowering of them is far from correctly rounded (``Backend.own_math``).

On a TPU, XLA's float32 ``exp`` is up to about 100 ulps off at large arguments, ``log`` and
``log1p`` about 4000 ulps next to 1, ``expm1``, ``tanh``, ``sinh`` and the inverse
hyperbolic functions 1000-4000 ulps (``docs/accelerators.md``, measured by
``benchmarks/elementwise_accuracy.py``), where the CPU's are within 5.  The functions here
compute them from additions, multiplications, one division at most and bit operations,
which every backend rounds exactly, in the textbook way (fdlibm's): an argument reduction
that loses nothing (``x = n ln2 + r``; ``x = 2**e m``), a short polynomial on the reduced
argument, and an exact rescaling.  Each is within 2-3 float32 ulps over its whole domain,
with the special values (NaN, ±inf, ±0) of the standard.

:func:`pick` is the one switch: a kernel calls ``pick("exp", lax.exp)(x)`` and gets XLA's
own primitive unless the backend's record lists the function and ``x`` is float32 (the
CPU's results do not change).  Each formulation carries the function's derivative
(``jax.custom_jvp``), as XLA's primitive does.
"""

from __future__ import annotations

import decimal
import math

import jax
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core.numerics import (FLOAT_LAYOUT, is_normal, pow2, rounded, scale_pow2,
                                    sign_bit, significand)
from laxarray._core.numerics import copysign as _copysign

_F32 = np.dtype(np.float32)
#: ``ln 2`` split as fdlibm's ``expf`` splits it: the high part has 15 significant bits, so
#: ``n * LN2_HI`` is exact for every reduction count ``|n| <= 150``
_LN2_HI, _LN2_LO = 6.9314575195e-01, 1.4286067653e-06
_LOG2E = 1.4426950408889634
#: the Taylor coefficients 1/k! of exp, k = 2 .. 8 (degree 8 leaves under 2**-30 relative
#: on |r| <= ln2 / 2)
_INV_FACT = tuple(1.0 / math.factorial(k) for k in range(2, 9))


def pick(name, xla_fn):
    """``xla_fn``, or laxarray's own formulation of ``name`` for float32 operands where the
    backend's record lists ``name`` in ``own_math`` (unary or binary: the first operand's
    dtype decides)."""
    def fn(x, *rest):
        return _OWN[name](x, *rest) if own(name, x) else xla_fn(x, *rest)
    return fn


def own(name, x):
    """Whether laxarray's own formulation of ``name`` applies to ``x`` here."""
    return np.dtype(x.dtype) == _F32 and name in _backend.current().own_math


def _full(x, v):
    return lax.full_like(x, v)


def _derivative(dydx):
    """``jax.custom_jvp`` with the tangent ``dx * dydx(x, y)`` (``y`` the primal output):
    the bit operations of a formulation have no derivative of their own."""
    def wrap(fn):
        fn = jax.custom_jvp(fn)

        @fn.defjvp
        def _jvp(primals, tangents):
            (x,), (dx,) = primals, tangents
            y = fn(x)
            return y, lax.mul(dx, dydx(x, y))
        return fn
    return wrap


def _reduce(x):
    """``(n, r)`` with ``x = n ln2 + r``, ``|r| <= ln2 / 2`` and ``n`` an int32 (x clamped to
    where exp is finite and nonzero): ``x - n * LN2_HI`` is exact."""
    x = lax.clamp(_full(x, -104.0), x, _full(x, 89.0))
    nf = lax.round(lax.mul(x, _full(x, _LOG2E)), lax.RoundingMethod.TO_NEAREST_EVEN)
    r = lax.sub(lax.sub(x, lax.mul(nf, _full(x, _LN2_HI))), lax.mul(nf, _full(x, _LN2_LO)))
    return lax.convert_element_type(nf, np.int32), r


def _expm1_poly(r):
    """``exp(r) - 1`` for ``|r| <= ln2 / 2``: ``r + r**2 (1/2! + r/3! + ... + r**6/8!)``."""
    acc = _full(r, _INV_FACT[-1])
    for c in reversed(_INV_FACT[:-1]):
        acc = lax.add(_full(r, c), lax.mul(r, acc))
    return lax.add(r, lax.mul(lax.mul(r, r), acc))


def _scale(v, n):
    """``v * 2**n`` for int32 ``n`` in ``[-150, 128]``, in two exact steps (each power of two
    is normal); one rounding, only where the result is subnormal."""
    n1 = lax.shift_right_arithmetic(n, _full(n, 1))
    return lax.mul(lax.mul(v, pow2(n1, np.float32)), pow2(lax.sub(n, n1), np.float32))


@_derivative(lambda x, y: y)
def exp(x):
    """``e**x``: ``2**n (1 + expm1(r))``."""
    n, r = _reduce(x)
    return _scale(lax.add(_full(r, 1.0), _expm1_poly(r)), n)



@_derivative(lambda x, y: lax.mul(y, _full(y, math.log(2.0))))
def exp2(x):
    """``2**x``: ``2**n 2**r`` with ``n = round(x)``, ``2**r = exp(r ln2)`` (``r`` exact)."""
    x = lax.clamp(_full(x, -151.0), x, _full(x, 129.0))
    nf = lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)
    r = lax.mul(lax.sub(x, nf), _full(x, math.log(2.0)))
    return _scale(lax.add(_full(r, 1.0), _expm1_poly(r)), lax.convert_element_type(nf, np.int32))



@_derivative(lambda x, y: lax.add(y, _full(y, 1.0)))
def expm1(x):
    """``e**x - 1``: ``2**n expm1(r) + (2**n - 1)``, exact but for the last addition while
    ``n <= 24``; past it ``exp(x) - 1`` (the 1 is below the last place)."""
    n, r = _reduce(x)
    p = _expm1_poly(r)
    t = pow2(lax.max(n, _full(n, -126)), np.float32)
    small = lax.add(lax.mul(t, p), lax.sub(t, _full(t, 1.0)))
    big = lax.sub(_scale(lax.add(_full(r, 1.0), p), n), _full(r, 1.0))
    out = lax.select(lax.gt(n, _full(n, 24)), big, small)
    return lax.select(lax.eq(x, _full(x, 0.0)), x, out)        # -0.0 stays -0.0



# ---- logarithms ------------------------------------------------------------------------------
def _split(value, keep):
    """``value`` (a Decimal) as float64 ``hi + lo`` with ``hi`` rounded down to ``keep``
    significant bits, so products of ``hi`` with short factors are exact (fdlibm's split)."""
    mant, ex = math.frexp(float(value))
    hi = math.ldexp(math.floor(math.ldexp(mant, keep)), ex - keep)
    return hi, float(value - decimal.Decimal(hi))


def _log_constants(base, inv_bits, l2_bits):
    """``1 / log(base)`` and ``log_base(2)``, each split as ``hi + lo`` with ``inv_bits`` and
    ``l2_bits`` significant bits in ``hi`` (``base`` None: e)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 40
        ln_base = decimal.Decimal(1) if base is None else decimal.Decimal(base).ln()
        return (_split(1 / ln_base, inv_bits),
                _split(decimal.Decimal(2).ln() / ln_base, l2_bits))


#: per working dtype: the bits of ``f - f*f/2`` kept in its high part (the low ones masked:
#: 21 significant bits in float64, 12 in float32), and ``(base, constants)``; the constants'
#: high parts are short enough that their products with that high part (21 + 32 bits, 12 +
#: 12) and with the exponent (11 + 42, 8 + 16) are exact
LOG_WORK = {
    np.dtype(np.float64): (np.int64, ~0xFFFFFFFF,
                           {b: _log_constants(b, 32, 42) for b in (2, 10, None)}),
    np.dtype(np.float32): (np.int32, ~0xFFF,
                           {b: _log_constants(b, 12, 16) for b in (2, 10, None)}),
}
# the minimax coefficients of log(1 + f) on [sqrt(1/2) - 1, sqrt(2) - 1] (fdlibm's Lg1..Lg7)
_LG = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
       2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
       1.479819860511658591e-01)


def log_split(m, e, base):
    """``e log_base(2) + log_base(m)`` in ``m``'s dtype (float64, or float32 where the
    backend has no float64) for ``m`` in ``[sqrt(1/2), sqrt(2)]``, to under one ulp
    (``base`` None: e): fdlibm's ``log10``/``log2`` (``f = m - 1`` is exact, ``log(1 + f)``
    is a polynomial in ``s = f / (2 + f)``, and its leading part ``f - f*f/2`` is split in
    two so that multiplying by the split ``1 / log(base)`` loses nothing)."""
    def c(v):
        return lax.full_like(m, v)
    itype, mask, constants = LOG_WORK[np.dtype(m.dtype)]
    (inv_hi, inv_lo), (l2_hi, l2_lo) = constants[base]
    f = lax.sub(m, c(1.0))
    s = lax.div(f, lax.add(c(2.0), f))
    z = lax.mul(s, s)
    w = lax.mul(z, z)
    t1 = lax.mul(w, lax.add(c(_LG[1]), lax.mul(w, lax.add(c(_LG[3]), lax.mul(w, c(_LG[5]))))))
    t2 = lax.mul(z, lax.add(c(_LG[0]), lax.mul(w, lax.add(
        c(_LG[2]), lax.mul(w, lax.add(c(_LG[4]), lax.mul(w, c(_LG[6]))))))))
    hfsq = lax.mul(c(0.5), lax.mul(f, f))
    r = lax.mul(s, lax.add(hfsq, lax.add(t2, t1)))          # log(1 + f) - (f - hfsq)
    hi = lax.sub(f, hfsq)
    bits = lax.bitcast_convert_type(hi, itype)
    hi = lax.bitcast_convert_type(lax.bitwise_and(bits, lax.full_like(bits, mask)),
                                  m.dtype)                # short: exact products
    lo = lax.add(lax.sub(lax.sub(f, hi), hfsq), r)
    if base is None:                                      # 1 / log(e) = 1: no product
        val_hi, val_lo = hi, lo
    else:
        val_hi = lax.mul(hi, c(inv_hi))
        val_lo = lax.add(lax.mul(lax.add(lo, hi), c(inv_lo)), lax.mul(lo, c(inv_hi)))
    if base == 2:
        y2 = e
    else:
        y2 = lax.mul(e, c(l2_hi))
        val_lo = lax.add(val_lo, lax.mul(e, c(l2_lo)))
    total = lax.add(y2, val_hi)
    val_lo = lax.add(val_lo, lax.add(lax.sub(y2, total), val_hi))
    return lax.add(val_lo, total)


def mantissa_exponent(x):
    """``(m, e)`` with ``x = m 2**e`` and ``m`` in ``[sqrt(1/2), sqrt(2)]``, for positive
    finite ``x`` (subnormals included; a dtype of ``FLOAT_LAYOUT``), both in ``x``'s dtype."""
    dt = np.dtype(x.dtype)
    itype, frac_bits, bias = FLOAT_LAYOUT[dt]

    def full(v, like=x):
        return lax.full_like(like, v)
    # a subnormal is its fraction field times 2**(1 - bias - frac): that integer, as a float,
    # is normal (XLA on CPU reads subnormal operands of arithmetic and conversions as zero)
    sub = lax.lt(lax.abs(x), full(np.finfo(dt).tiny))
    bits = lax.bitcast_convert_type(x, itype)
    bits = lax.select(sub, lax.bitcast_convert_type(lax.convert_element_type(bits, dt), itype),
                      bits)
    field = lax.shift_right_logical(bits, full(frac_bits, bits))
    field = lax.bitwise_and(field, full((1 << (dt.itemsize * 8 - 1 - frac_bits)) - 1, bits))
    m = lax.bitcast_convert_type(lax.bitwise_or(
        lax.bitwise_and(bits, full((1 << frac_bits) - 1, bits)), full(bias << frac_bits, bits)),
        dt)
    e = lax.sub(field, lax.select(sub, full(2 * bias + frac_bits - 1, bits), full(bias, bits)))
    big = lax.gt(m, full(math.sqrt(2.0)))
    return (lax.select(big, lax.mul(m, full(0.5)), m),
            lax.convert_element_type(lax.select(big, lax.add(e, full(1, e)), e), dt))


@_derivative(lambda x, y: lax.div(_full(x, 1.0), x))
def log(x):
    """Natural logarithm: ``e ln2 + log(m)`` (:func:`log_split`); zero, negative, inf and
    NaN take XLA's ``log`` (exact there)."""
    m, e = mantissa_exponent(x)
    out = log_split(m, e, None)
    ok = lax.bitwise_and(lax.gt(x, _full(x, 0.0)), lax.is_finite(x))
    return lax.select(ok, out, lax.log(x))



@_derivative(lambda x, y: lax.div(_full(x, 1.0), lax.add(x, _full(x, 1.0))))
def log1p(x):
    """``log(1 + x)``: ``log(u) + (x - (u - 1)) / u`` with ``u = 1 + x`` rounded (the
    correction is the rounding error of ``u``, exact next to 0)."""
    u = lax.add(_full(x, 1.0), x)
    # ``u - 1`` with a 1 XLA cannot see: its simplifier folds ``(1 + x) - 1`` to ``x``
    one = lax.sign(lax.abs(u))                   # 1 wherever the correction is used
    corr = lax.div(lax.sub(x, lax.sub(u, one)), u)
    out = lax.add(log(u), corr)
    plain = lax.bitwise_or(lax.le(u, _full(u, 0.0)), lax.bitwise_not(lax.is_finite(u)))
    out = lax.select(plain, log(u), out)
    return lax.select(lax.eq(x, _full(x, 0.0)), x, out)        # -0.0 stays -0.0



# ---- hyperbolic ------------------------------------------------------------------------------
@_derivative(lambda x, y: lax.sub(_full(y, 1.0), lax.mul(y, y)))
def tanh(x):
    """``-t / (t + 2)`` with ``t = expm1(-2|x|)``, the sign of ``x``; 1 past |x| = 9.1."""
    a = lax.abs(x)
    t = expm1(lax.mul(a, _full(a, -2.0)))
    y = faithful_div(lax.neg(t), lax.add(t, _full(t, 2.0)))
    y = lax.select(lax.gt(a, _full(a, 9.1)), _full(a, 1.0), y)
    return lax.select(lax.ne(x, x), x, _copysign(y, x))



#: past 2**12, ``sqrt(x**2 + 1)`` is ``x`` to float32's precision
_HUGE = 4096.0


@_derivative(lambda x, y: lax.rsqrt(lax.add(lax.mul(x, x), _full(x, 1.0))))
def asinh(x):
    """``log1p(a + a**2 / (1 + sqrt(1 + a**2)))`` with ``a = |x|``; ``log(a) + ln2`` past
    2**12; the sign of ``x``."""
    a = lax.abs(x)
    small = lax.min(a, _full(a, _HUGE))
    a2 = lax.mul(small, small)
    y = log1p(lax.add(small, faithful_div(a2, lax.add(_full(a, 1.0),
                                                      faithful_sqrt(lax.add(_full(a, 1.0), a2))))))
    y = lax.select(lax.gt(a, _full(a, _HUGE)), lax.add(log(a), _full(a, math.log(2.0))), y)
    return lax.select(lax.ne(x, x), x, _copysign(y, x))



@_derivative(lambda x, y: lax.rsqrt(lax.sub(lax.mul(x, x), _full(x, 1.0))))
def acosh(x):
    """``log1p(t + sqrt(2t + t**2))`` with ``t = x - 1`` (exact near 1); ``log(x) + ln2``
    past 2**12; NaN below 1."""
    t = lax.sub(lax.clamp(_full(x, 1.0), x, _full(x, _HUGE)), _full(x, 1.0))
    y = log1p(lax.add(t, faithful_sqrt(lax.add(lax.add(t, t), lax.mul(t, t)))))
    y = lax.select(lax.gt(x, _full(x, _HUGE)), lax.add(log(x), _full(x, math.log(2.0))), y)
    return lax.select(lax.lt(x, _full(x, 1.0)), _full(x, np.nan), lax.select(lax.ne(x, x), x, y))



@_derivative(lambda x, y: lax.div(_full(x, 1.0), lax.sub(_full(x, 1.0), lax.mul(x, x))))
def atanh(x):
    """``log1p(2a / (1 - a)) / 2`` with ``a = |x|``, the sign of ``x``; ``a`` itself below
    2**-12 (where ``a**3 / 3`` is under half an ulp, and the quotient's residual, near the
    subnormals, would not be exact); NaN past 1."""
    a = lax.abs(x)
    y = lax.mul(_full(a, 0.5), log1p(faithful_div(lax.add(a, a), lax.sub(_full(a, 1.0), a))))
    y = lax.select(lax.lt(a, _full(a, 2.0 ** -12)), a, y)
    # NaN past 1 said outright: on the chip 2a / (1 - a) is 0 past 2**126 (its division
    # multiplies by a reciprocal that flushes to zero there)
    y = lax.select(lax.gt(a, _full(a, 1.0)), _full(a, np.nan), y)
    return lax.select(lax.ne(x, x), x, _copysign(y, x))



# ---- correctly rounded division and square root ------------------------------------------
# The standard asks for correctly rounded ``divide``, ``reciprocal`` and ``sqrt`` (and ``+ - *``,
# which every backend rounds exactly).  The chip's division multiplies by an approximate
# reciprocal and its square root is close but not exact (1 ulp off, and far off where a
# reciprocal leaves the exponent range), so where the record lists them the quotient and the
# root are refined in the textbook way: on the operands' significands (no range to leave),
# an exact residual (Dekker's product from a 12-bit split) says whether the true value lies
# above or below half an ulp from the estimate.  A quotient or a root of floats is never
# exactly halfway between two floats, so there is no tie to break.

_HALF_SPLIT, _SPLIT_MASK = 0x800, -0x1000   # round the significand to 12 bits (int32 bits)


def _split12(a):
    """``a = hi + lo`` exactly, ``hi`` ``a`` rounded to 12 significant bits (``lo``: 12 more)."""
    bits = lax.bitcast_convert_type(a, np.int32)
    bits = lax.bitwise_and(lax.add(bits, lax.full_like(bits, _HALF_SPLIT)),
                           lax.full_like(bits, _SPLIT_MASK))
    hi = lax.bitcast_convert_type(bits, np.float32)
    return hi, lax.sub(a, hi)


def two_prod(a, b):
    """``(p, e)``: ``p = a b`` rounded and ``e = a b - p`` exactly (Dekker's product; no
    overflow or underflow)."""
    p = rounded(lax.mul(a, b))     # rounded alone: an fma would leave no error term
    ah, al = _split12(a)
    bh, bl = _split12(b)
    e = lax.sub(lax.mul(ah, bh), p)
    e = lax.add(lax.add(lax.add(e, lax.mul(ah, bl)), lax.mul(al, bh)), lax.mul(al, bl))
    return p, e


def two_sum(a, b):
    """``(s, e)``: ``s = a + b`` rounded and ``e = a + b - s`` exactly (Knuth)."""
    s = lax.add(a, b)
    bb = lax.sub(s, a)
    return s, lax.add(lax.sub(a, lax.sub(s, bb)), lax.sub(b, bb))


def residual(n, a, b):
    """``n - a b``, exact where that is a float32 and ``a b`` is within a factor two of
    ``n`` (Dekker's product: ``p + e = a b`` exactly, ``n - p`` exact by Sterbenz)."""
    p, e = two_prod(a, b)
    return lax.sub(lax.sub(n, p), e)


_ULP1 = 2.0 ** -23      # the ulp of [1, 2)


def newton_quotient(n, d, q0):
    """One Newton step from the estimate ``q0`` of ``n / d``: ``q0 + (n - q0 d) / d``, the
    residual exact (:func:`residual`)."""
    return lax.add(q0, lax.div(residual(n, q0, d), d))


def newton_root(m, s0):
    """One Newton step from the estimate ``s0`` of ``sqrt(m)``: ``s0 + (m - s0**2) / 2s0``,
    the residual exact."""
    return lax.add(s0, lax.div(residual(m, s0, s0), lax.add(s0, s0)))


def refine_quotient(n, d, q0):
    """The correctly rounded ``n / d`` for ``n`` in ``[d, 2d)``, ``d`` in ``[1, 2)``, from an
    estimate ``q0`` within a few ulps: one Newton step makes it faithful (within an ulp;
    its residual is then exact), and the residual's sign against half an ulp times ``d``
    picks it or a neighbour."""
    q = lax.clamp(_full(q0, 1.0), newton_quotient(n, d, q0), _full(q0, 2.0))
    r = residual(n, q, d)
    half = lax.mul(d, _full(d, _ULP1 / 2))
    q = lax.select(lax.gt(r, half), lax.add(q, _full(q, _ULP1)), q)
    return lax.select(lax.lt(r, lax.neg(half)), lax.sub(q, _full(q, _ULP1)), q)


def refine_root(m, s0):
    """The correctly rounded ``sqrt(m)`` for ``m`` in ``[1, 4)`` from an estimate ``s0``
    within a few ulps: a Newton step, then ``r = m - s**2`` (exact).  The root lies above
    ``s + ulp/2`` when ``r > s ulp + ulp**2/4``, that is (``r - s ulp`` is a multiple of
    ``2**-46``, four times ``ulp**2/4``) when ``r > s ulp``; below ``s - ulp/2`` when
    ``r <= -s ulp``."""
    s = lax.clamp(_full(s0, 1.0), newton_root(m, s0), _full(s0, 2.0))
    r = residual(m, s, s)
    t = lax.mul(s, _full(s, _ULP1))
    s2 = lax.select(lax.gt(r, t), lax.add(s, _full(s, _ULP1)), s)
    return lax.select(lax.le(r, lax.neg(t)), lax.sub(s, _full(s, _ULP1)), s2)


def faithful_div(n, d):
    """``n / d`` within about half an ulp on a backend whose division is a few ulps off
    (the chip's: 1-2): its quotient corrected once by the exact residual ``n - q d``
    (:func:`residual`).  For quotients of moderate range (the residual's products must
    neither overflow nor leave the normal range): the own functions' inner divisions.  A
    quotient that is zero or not finite is the backend's."""
    q0 = lax.div(n, d)
    q = newton_quotient(n, d, q0)
    keep = lax.bitwise_or(lax.eq(q0, _full(q0, 0.0)), lax.bitwise_not(lax.is_finite(q)))
    return lax.select(keep, q0, q)


def faithful_sqrt(v):
    """``sqrt(v)`` within about half an ulp as :func:`faithful_div` (one Newton step from
    the backend's root with the exact residual ``v - s**2``); zero, infinity and NaN are
    the backend's."""
    s0 = lax.sqrt(v)
    s = newton_root(v, s0)
    keep = lax.bitwise_or(lax.eq(s0, _full(s0, 0.0)), lax.bitwise_not(lax.is_finite(s)))
    return lax.select(keep, s0, s)


def _divide_jvp(primals, tangents):
    (x, y), (dx, dy) = primals, tangents
    q = divide(x, y)
    return q, lax.div(lax.sub(dx, lax.mul(q, dy)), y)


@jax.custom_jvp
def divide(x, y):
    """``x / y`` correctly rounded (float32, :func:`divide_from`), with the quotient's
    derivative."""
    return divide_from(x, y, lax.div)


divide.defjvp(_divide_jvp)


def divide_from(x, y, estimate):
    """``x / y`` correctly rounded (float32): the quotient of the significands refined
    (:func:`refine_quotient`), then scaled by the exponents' difference (one rounding where
    the result is subnormal); zeros, subnormals and NaN as ``estimate`` gives them, and an
    infinite ``x`` over a finite ``y`` an infinity (the chip divides as ``x * (1 / y)``, and
    ``1 / y`` flushes to zero past ``y = 2**126``: ``inf / 3e38`` was NaN).  ``estimate``:
    the division the refinement starts from (a few ulps off is fine)."""
    ok = lax.bitwise_and(is_normal(x), is_normal(y))
    one = _full(x, 1.0)
    ax, ay = lax.select(ok, lax.abs(x), one), lax.select(ok, lax.abs(y), one)
    mx, ex = significand(ax)
    my, ey = significand(ay)
    low = lax.lt(mx, my)                      # n in [d, 2d): the quotient in [1, 2)
    mx = lax.select(low, lax.add(mx, mx), mx)
    ex = lax.sub(ex, lax.convert_element_type(low, np.int32))
    q = refine_quotient(mx, my, estimate(mx, my))
    q = scale_pow2(q, lax.sub(ex, ey))
    negative = lax.ne(sign_bit(x), sign_bit(y))
    q = lax.select(negative, lax.neg(q), q)
    inf = _full(x, np.inf)
    rest = lax.select(lax.bitwise_and(lax.eq(lax.abs(x), inf), lax.is_finite(y)),
                      lax.select(negative, lax.neg(inf), inf), estimate(x, y))
    return lax.select(ok, q, rest)


@_derivative(lambda x, y: lax.neg(lax.mul(y, y)))
def reciprocal(x):
    """``1 / x`` correctly rounded (float32), as :func:`divide`."""
    return divide(_full(x, 1.0), x)


@_derivative(lambda x, y: lax.div(_full(y, 0.5), y))
def sqrt(x):
    """``sqrt(x)`` correctly rounded (float32, :func:`sqrt_from`), with its derivative."""
    return sqrt_from(x, lax.sqrt)


def sqrt_from(x, estimate):
    """``sqrt(x)`` correctly rounded (float32): the root of ``x``'s significand times an even
    power of two refined (:func:`refine_root`), then scaled exactly; zero, subnormals,
    negatives, infinity and NaN as XLA's square root gives them.  ``estimate``: the root
    the refinement starts from (a few ulps off is fine)."""
    ok = lax.bitwise_and(is_normal(x), lax.gt(x, _full(x, 0.0)))
    m, e = significand(lax.select(ok, x, _full(x, 1.0)))
    odd = lax.bitwise_and(e, lax.full_like(e, 1))
    m = lax.select(lax.eq(odd, lax.full_like(odd, 1)), lax.add(m, m), m)
    half_e = lax.shift_right_arithmetic(lax.sub(e, odd), lax.full_like(e, 1))
    s = scale_pow2(refine_root(m, estimate(m)), half_e)
    return lax.select(ok, s, lax.sqrt(x))


# ---- pow: log2(x) in two floats ----------------------------------------------------------------
# XLA's pow is exp(y log(x)) with a float32 log: its error grows y-fold (122 ulps at
# 0.896 ** 435 on the chip, 18 at 6 ** 10).  Here log2|x| is carried as a pair of floats
# (about 2**-40 relative), multiplied by y exactly (Dekker), and 2**z taken as 2**n times
# exp(r ln2) for |r| <= 1/2: within 2 ulps.

def _df(v):
    """The Python float ``v`` as float32 ``hi + lo``."""
    hi = np.float32(v)
    return float(hi), float(np.float32(v - float(hi)))


_INV_LN2 = _df(1.0 / math.log(2.0))
_TWO_THIRDS = _df(2.0 / 3.0)
#: 2/5, 2/7, ..., 2/19: the atanh series' terms after s**3 (s**2 <= 0.0295: the next is
#: under 2**-40 of the sum)
_ATANH_TAIL = tuple(2.0 / k for k in range(5, 21, 2))


def _log2_pair(a):
    """``(hi, lo)``, ``log2(a) = hi + lo`` to about ``2**-40``, for positive normal
    float32 ``a``: ``a = m 2**e``, ``m`` in ``[sqrt(1/2), sqrt(2)]``; ``ln m = 2 atanh(s)``
    with ``s = (m - 1) / (m + 1)`` (``|s| <= 0.172``) as a pair of floats, ``2s + 2s**3/3``
    in pairs and the rest of the series in float32."""
    m, e = mantissa_exponent(a)
    f = lax.sub(m, _full(m, 1.0))                                  # exact
    dh = lax.add(_full(f, 2.0), f)
    dl = lax.add(lax.sub(_full(f, 2.0), dh), f)                    # 2 + f = dh + dl
    sh = lax.div(f, dh)
    p, pe = two_prod(sh, dh)
    sl = lax.div(lax.sub(lax.sub(lax.sub(f, p), pe), lax.mul(sh, dl)), dh)
    s2h, s2l = two_prod(sh, sh)
    s2l = lax.add(s2l, lax.mul(lax.add(sh, sh), sl))
    s3h, s3l = two_prod(sh, s2h)
    s3l = lax.add(s3l, lax.add(lax.mul(sh, s2l), lax.mul(sl, s2h)))
    t3h, t3l = two_prod(_full(f, _TWO_THIRDS[0]), s3h)
    t3l = lax.add(t3l, lax.add(lax.mul(_full(f, _TWO_THIRDS[0]), s3l),
                               lax.mul(_full(f, _TWO_THIRDS[1]), s3h)))
    acc = _full(f, _ATANH_TAIL[-1])
    for c in reversed(_ATANH_TAIL[:-1]):
        acc = lax.add(_full(f, c), lax.mul(s2h, acc))
    tail = lax.mul(lax.mul(s3h, s2h), acc)
    hi, lo = two_sum(lax.add(sh, sh), t3h)
    lo = lax.add(lo, lax.add(lax.add(sl, sl), lax.add(t3l, tail)))
    hi, lo = two_sum(hi, lo)                                        # ln m = hi + lo
    qh, ql = two_prod(hi, _full(hi, _INV_LN2[0]))
    ql = lax.add(ql, lax.add(lax.mul(hi, _full(hi, _INV_LN2[1])),
                             lax.mul(lo, _full(lo, _INV_LN2[0]))))
    big_h, big_l = two_sum(e, qh)
    return big_h, lax.add(big_l, ql)


def _pow_value(x, y):
    """``x ** y`` for float32 where ``x`` is normal and ``y`` finite and nonzero (the sign:
    a negative ``x`` needs an integer ``y``, odd ones keep it); XLA's ``pow`` elsewhere
    (zeros, infinities, NaN, subnormal bases, ``y = 0``)."""
    ok = lax.bitwise_and(is_normal(x), lax.bitwise_and(lax.is_finite(y),
                                                     lax.ne(y, _full(y, 0.0))))
    one = _full(x, 1.0)
    ax = lax.select(ok, lax.abs(x), one)
    # |y| past 2**64 only says overflow or underflow (|log2 x| >= 1.7e-7 unless x is 1, whose
    # log is 0): clamped, Dekker's split of y stays finite
    yy = lax.clamp(_full(y, -2.0 ** 64), lax.select(ok, y, one), _full(y, 2.0 ** 64))
    lh, ll = _log2_pair(ax)
    zh, zl = two_prod(yy, lh)
    zl = lax.add(zl, lax.mul(yy, ll))
    n = lax.round(lax.clamp(_full(zh, -160.0), zh, _full(zh, 160.0)),
                  lax.RoundingMethod.TO_NEAREST_EVEN)
    r = lax.add(lax.sub(zh, n), zl)
    v = lax.add(one, _expm1_poly(lax.mul(r, _full(r, math.log(2.0)))))
    v = scale_pow2(v, lax.convert_element_type(n, np.int32))
    v = lax.select(lax.gt(zh, _full(zh, 130.0)), _full(v, np.inf), v)
    v = lax.select(lax.lt(zh, _full(zh, -160.0)), _full(v, 0.0), v)
    # a negative base: an odd integer y keeps the sign, a non-integer one is NaN
    integral = lax.eq(y, lax.floor(y))
    half = lax.mul(y, _full(y, 0.5))
    odd = lax.bitwise_and(integral, lax.ne(half, lax.floor(half)))
    neg = lax.lt(x, _full(x, 0.0))
    v = lax.select(lax.bitwise_and(neg, odd), lax.neg(v), v)
    v = lax.select(lax.bitwise_and(neg, lax.bitwise_not(integral)), _full(v, np.nan), v)
    return lax.select(ok, v, lax.pow(x, y))


def _pow_jvp(primals, tangents):
    x, y = primals
    dx, dy = tangents
    out = pow(x, y)
    zero = _full(x, 0.0)
    dfdx = lax.mul(y, pow(x, lax.sub(y, _full(y, 1.0))))
    dfdy = lax.select(lax.eq(x, zero), zero, lax.mul(log(lax.abs(x)), out))
    return out, lax.add(lax.mul(dx, dfdx), lax.mul(dy, dfdy))


@jax.custom_jvp
def pow(x, y):
    """``x ** y`` of float32 within 2 ulps (:func:`_pow_value`), with the derivative XLA's
    pow has."""
    return _pow_value(x, y)


pow.defjvp(_pow_jvp)


_OWN = {"exp": exp, "exp2": exp2, "expm1": expm1, "log": log, "log1p": log1p, "tanh": tanh,
        "asinh": asinh, "acosh": acosh, "atanh": atanh, "reciprocal": reciprocal, "sqrt": sqrt,
        "divide": divide, "pow": pow}
