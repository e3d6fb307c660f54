"""complex64 elementary functions from laxarray's own float32 ones (``Backend.own_math``).

XLA lowers a complex ``exp``, ``log``, ``sqrt``, ``abs``, ``pow`` and the inverse functions
to real ones of its own -- on a TPU the chip's ``exp``, ``log``, ``log1p`` and square root,
so the chip's complex64 results were 8-60 ulps off (the conformance runner there: ``abs``
2 ulps against its 1, ``log`` 5e-5 relative).  Each function here takes the real and
imaginary parts ``(a, b)`` of finite values and returns the parts of the result, computed
from :mod:`._exact_float32`'s functions, exact scalings by powers of two, the chip's ``sin``,
``cos`` and ``atan2`` (within 3 ulps there) and the textbook formulas: Kahan's for the
inverse functions ("Branch cuts for complex elementary functions", 1987), which stay within
a few ulps on every part of the plane from an accurate ``sqrt``, ``asinh`` and ``atan2``.

:mod:`._complex_math` calls them where :func:`._exact_float32.own` says so (float32 parts on a
backend that lists the real function) and keeps XLA's value, with the standard's special
cases, for infinite and NaN parts.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core.numerics import copysign, is_normal, scale_pow2, significand
from laxarray.array_api import _exact_float32 as _om

#: past this magnitude the squares in a formula could overflow float32: both parts are
#: scaled down by a power of two first (exactly)
_BIG = 2.0 ** 60
#: ``ln 2`` in two parts (the high part times any exponent of float32 is exact)
_LN2_HI, _LN2_LO = 6.9314575195e-01, 1.4286067653e-06


def _full(x, v):
    return lax.full_like(x, v)


def finite(a, b):
    """Both parts finite (the region the functions here compute)."""
    return lax.bitwise_and(lax.is_finite(a), lax.is_finite(b))


def infinite(a, b):
    """One part infinite and neither NaN (the region of :func:`atan2_at_infinity`)."""
    either = lax.bitwise_or(lax.eq(lax.abs(a), _full(a, np.inf)),
                            lax.eq(lax.abs(b), _full(b, np.inf)))
    return lax.bitwise_and(either, lax.bitwise_and(lax.eq(a, a), lax.eq(b, b)))


def atan2_at_infinity(y, x):
    """``atan2(|y|, x)`` where ``y`` or ``x`` is infinite, from selects alone: ``pi/4`` or
    ``3pi/4`` for two infinities, ``pi/2`` for an infinite ``y``, ``0`` or ``pi`` for an
    infinite ``x`` (the chip's XLA gave NaN parts for such arguments of ``acos``, ``acosh``
    and ``asinh``: ``acos(-inf + 3e38j)``)."""
    inf_y = lax.eq(lax.abs(y), _full(y, np.inf))
    inf_x = lax.eq(lax.abs(x), _full(x, np.inf))
    neg_x = lax.lt(x, _full(x, 0.0))
    both = lax.select(neg_x, _full(x, 3 * math.pi / 4), _full(x, math.pi / 4))
    flat = lax.select(neg_x, _full(x, math.pi), _full(x, 0.0))
    return lax.select(inf_y, lax.select(inf_x, both, _full(x, math.pi / 2)), flat)


def acos_at_infinity(a, b):
    """``acos`` where :func:`infinite`: ``atan2(|b|, a) - inf j`` (the imaginary part's
    sign is the caller's)."""
    return atan2_at_infinity(b, a), _full(b, -np.inf)


def acosh_at_infinity(a, b):
    """``acosh`` where :func:`infinite`: ``+inf + atan2(|b|, a) j``."""
    return _full(a, np.inf), atan2_at_infinity(b, a)


def asinh_at_infinity(a, b):
    """``asinh`` where :func:`infinite`: ``inf + atan2(|b|, |a|) j`` (the signs are the
    caller's)."""
    return _full(a, np.inf), atan2_at_infinity(b, lax.abs(a))


def expm1_at_infinity(a, b):
    """``expm1`` where :func:`infinite`: ``inf cis(b)`` for ``a = +inf``, ``-1 + 0 cis(b)``
    for ``a = -inf`` (``b`` finite), NaN parts for an infinite ``b`` (the callers' cases
    for an infinite ``a`` with it)."""
    c, s = lax.cos(b), lax.sin(b)
    inf = _full(a, np.inf)
    pos = lax.eq(a, inf)
    re = lax.select(pos, lax.mul(inf, c), _full(a, -1.0))
    im = lax.select(pos, lax.mul(inf, s), lax.mul(_full(s, 0.0), s))
    bad_b = lax.eq(lax.abs(b), inf)
    return lax.select(bad_b, _full(a, np.nan), re), lax.select(bad_b, _full(b, np.nan), im)


def _scaled_magnitude(a, b):
    """``(r, e)`` with ``hypot(a, b) = r 2**e``, ``r`` in ``[1, 2 sqrt 2)``, within about half
    an ulp: the larger part's exponent taken out (exactly), the sum of squares carried in two
    floats (Dekker's products), its correctly rounded root corrected once by the residual.
    ``e`` is 0 and ``r`` the (flushed) larger part where that is zero or subnormal."""
    big = lax.max(lax.abs(a), lax.abs(b))
    small = lax.min(lax.abs(a), lax.abs(b))
    ok = is_normal(big)
    _, e = significand(lax.select(ok, big, _full(big, 1.0)))
    bs, ss = scale_pow2(big, lax.neg(e)), scale_pow2(small, lax.neg(e))
    p1, e1 = _om.two_prod(bs, bs)
    p2, e2 = _om.two_prod(ss, ss)
    s, t = _om.two_sum(p1, p2)
    lo = lax.add(t, lax.add(e1, e2))
    r = _om.sqrt(s)
    r = lax.add(r, lax.div(lax.add(_om.residual(s, r, r), lo), lax.add(r, r)))
    r = lax.select(ok, r, lax.select(lax.lt(big, _full(big, np.inf)), _full(big, 0.0), big))
    return r, lax.select(ok, e, lax.full_like(e, 0))


def hypot(a, b):
    """``sqrt(a**2 + b**2)`` of float32 parts, within about half an ulp, without overflow
    or underflow before the result's own; an infinite part gives ``+inf`` even with a NaN."""
    r, e = _scaled_magnitude(a, b)
    out = scale_pow2(r, e)
    inf = lax.bitwise_or(lax.eq(lax.abs(a), _full(a, np.inf)), lax.eq(lax.abs(b), _full(b, np.inf)))
    return lax.select(inf, _full(out, np.inf), out)


def _rescale(a, b):
    """The int32 power of two that brings the larger of ``|a|``, ``|b|`` near 1 where it is
    past ``2**60`` (``-64``) or below ``2**-60`` (``64``), else 0: exact, and both parts
    move together (a ratio or an angle of them does not change)."""
    big = lax.max(lax.abs(a), lax.abs(b))
    zero = lax.full(big.shape, 0, np.int32)
    return lax.select(lax.bitwise_and(lax.gt(big, _full(big, _BIG)),
                                      lax.lt(big, _full(big, np.inf))),
                      lax.full_like(zero, -64),
                      lax.select(lax.lt(big, _full(big, 1.0 / _BIG)), lax.full_like(zero, 64),
                                 zero))


def atan2(y, x):
    """``atan2(y, x)``: the chip's, with both arguments scaled by a power of two first
    (:func:`_rescale`: the chip divides as ``y * (1 / x)``, and ``1 / x`` flushes to zero
    past ``2**126``: ``atan2(4e12, 3e38)`` was 0)."""
    k = _rescale(x, y)
    return copysign(lax.atan2(scale_pow2(y, k), scale_pow2(x, k)), y)


def log(a, b):
    """``(log|z|, arg z)``: near ``|z| = 1`` the real part as ``log1p(a**2 + b**2 - 1) / 2``
    with the squares exact (no cancellation), elsewhere ``log(r) + e ln2`` from
    :func:`_scaled_magnitude` (no overflow)."""
    big = lax.max(lax.abs(a), lax.abs(b))
    small = lax.min(lax.abs(a), lax.abs(b))
    p1, e1 = _om.two_prod(big, big)
    p2, e2 = _om.two_prod(small, small)
    d = lax.add(lax.add(lax.sub(p1, _full(p1, 1.0)), p2), lax.add(e1, e2))
    near_one = lax.bitwise_and(lax.gt(big, _full(big, 0.5)), lax.lt(big, _full(big, 1.5)))
    near_one = lax.bitwise_and(near_one, lax.lt(lax.abs(d), _full(d, 0.5)))
    r, e = _scaled_magnitude(a, b)
    ef = lax.convert_element_type(e, a.dtype)
    far = lax.add(lax.add(_om.log(r), lax.mul(ef, _full(ef, _LN2_LO))),
                  lax.mul(ef, _full(ef, _LN2_HI)))
    re = lax.select(near_one, lax.mul(_full(d, 0.5), _om.log1p(d)), far)
    return re, atan2(b, a)


def log1p(a, b):
    """``log(1 + z)``: near 0 the real part as ``log1p(a (a + 2) + b**2) / 2`` (no
    cancellation), elsewhere :func:`log` of ``1 + z``."""
    one = _full(a, 1.0)
    re, im = log(lax.add(one, a), b)
    half = _full(a, 0.5)
    small = lax.bitwise_and(lax.lt(lax.abs(a), half), lax.lt(lax.abs(b), half))
    near = lax.mul(half, _om.log1p(lax.add(lax.mul(a, lax.add(a, _full(a, 2.0))),
                                           lax.mul(b, b))))
    return lax.select(small, near, re), im


def exp(a, b):
    """``exp(a) (cos b + i sin b)``; past ``a = 88`` as ``(h cos b) h`` with
    ``h = exp(a / 2)``, which stays finite where the product does."""
    large = lax.gt(a, _full(a, 88.0))
    h = _om.exp(lax.select(large, lax.mul(a, _full(a, 0.5)), a))
    c, s = lax.cos(b), lax.sin(b)
    g = lax.select(large, h, _full(h, 1.0))
    return lax.mul(lax.mul(h, c), g), lax.mul(lax.mul(h, s), g)


def expm1(a, b):
    """``exp(z) - 1``: the real part as ``expm1(a) cos b - 2 sin(b/2)**2`` (no cancellation
    near 0), the imaginary ``exp(a) sin b``; past ``a = 88`` as :func:`exp`."""
    re_big, im = exp(a, b)
    h = lax.sin(lax.mul(b, _full(b, 0.5)))
    re = lax.sub(lax.mul(_om.expm1(a), lax.cos(b)), lax.mul(_full(h, 2.0), lax.mul(h, h)))
    return lax.select(lax.gt(a, _full(a, 88.0)), re_big, re), im


def sqrt(a, b):
    """The principal root: ``t = sqrt((|a| + |z|) / 2)`` and ``b / (2t)``, placed by the sign
    of ``a`` (no cancellation); the parts scaled first (:func:`_rescale`) and the root by
    the square root of that power of two."""
    k = _rescale(a, b)
    sa, sb = scale_pow2(a, k), scale_pow2(b, k)
    t = _om.sqrt(lax.mul(_full(sa, 0.5), lax.add(lax.abs(sa), hypot(sa, sb))))
    zero = lax.eq(t, _full(t, 0.0))
    other = lax.div(lax.abs(sb), lax.add(t, t))
    other = lax.select(zero, _full(other, 0.0), other)
    half_k = lax.neg(lax.shift_right_arithmetic(k, lax.full_like(k, 1)))
    t, other = scale_pow2(t, half_k), scale_pow2(other, half_k)
    pos = lax.ge(a, _full(a, 0.0))
    return lax.select(pos, t, other), copysign(lax.select(pos, other, t), b)


def _mul(x, y):
    """The product of complex numbers given as part pairs."""
    (a, b), (c, d) = x, y
    return lax.sub(lax.mul(a, c), lax.mul(b, d)), lax.add(lax.mul(a, d), lax.mul(b, c))


def _conj(x):
    return x[0], lax.neg(x[1])


def _plus(x, v):
    """``x + v`` for a real number ``v``."""
    return lax.add(x[0], _full(x[0], v)), x[1]


def _minus_from(v, x):
    """``v - x`` for a real number ``v``."""
    return lax.sub(_full(x[0], v), x[0]), lax.neg(x[1])


def asin(a, b):
    """Kahan: ``atan2(a, Re(s1 s2)) + i asinh(Im(conj(s1) s2))``, ``s1 = sqrt(1 - z)``,
    ``s2 = sqrt(1 + z)``."""
    z = (a, b)
    s1, s2 = sqrt(*_minus_from(1.0, z)), sqrt(*_plus(z, 1.0))
    return atan2(a, _mul(s1, s2)[0]), _om.asinh(_mul(_conj(s1), s2)[1])


def acos(a, b):
    """Kahan: ``2 atan2(Re s1, Re s2) + i asinh(Im(conj(s2) s1))``, ``s1 = sqrt(1 - z)``,
    ``s2 = sqrt(1 + z)``."""
    z = (a, b)
    s1, s2 = sqrt(*_minus_from(1.0, z)), sqrt(*_plus(z, 1.0))
    re = lax.mul(_full(a, 2.0), atan2(s1[0], s2[0]))
    return re, _om.asinh(_mul(_conj(s2), s1)[1])


def acosh(a, b):
    """Kahan: ``asinh(Re(conj(s1) s2)) + 2i atan2(Im s1, Re s2)``, ``s1 = sqrt(z - 1)``,
    ``s2 = sqrt(z + 1)``."""
    z = (a, b)
    s1, s2 = sqrt(*_plus(z, -1.0)), sqrt(*_plus(z, 1.0))
    return _om.asinh(_mul(_conj(s1), s2)[0]), lax.mul(_full(b, 2.0), atan2(s1[1], s2[0]))


def asinh(a, b):
    """``asinh(z) = -i asin(i z)``, the multiplications by ``±i`` as exact swaps."""
    re, im = asin(lax.neg(b), a)
    return im, lax.neg(re)


def atanh(a, b):
    """``log1p(4a / ((1 - a)**2 + b**2)) / 4 + i atan2(2b, (1 - a)(1 + a) - b**2) / 2`` (the
    real part from ``|a|``, then signed: log1p near -1 would amplify the quotient's error); past
    ``|z| = 2**30`` (where the squares could overflow) ``a / |z|**2 + i pi/2``, the sign of
    ``b``."""
    one = _full(a, 1.0)
    ab = lax.abs(a)         # the real part is odd in a: log1p of a positive argument
    c = lax.sub(one, ab)
    den = lax.add(lax.mul(c, c), lax.mul(b, b))
    re = lax.mul(_full(a, 0.25), _om.log1p(lax.div(lax.mul(_full(a, 4.0), ab), den)))
    re = copysign(re, a)
    im = lax.mul(_full(b, 0.5), atan2(lax.add(b, b),
                                      lax.sub(lax.mul(c, lax.add(one, ab)), lax.mul(b, b))))
    r = hypot(a, b)
    far = lax.gt(r, _full(r, 2.0 ** 30))
    re_far = lax.div(lax.div(a, r), r)
    im_far = copysign(_full(b, math.pi / 2), b)
    return lax.select(far, re_far, re), lax.select(far, im_far, im)


def pow(a, b, c, d):
    """``exp(w log z)`` of ``z = a + bi`` and ``w = c + di``, from :func:`log` and :func:`exp`."""
    lr, li = log(a, b)
    return exp(*_mul((c, d), (lr, li)))
