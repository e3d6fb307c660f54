"""Complex elementary functions with the standard's (C99 Annex G) special cases, on lax.

XLA's complex kernels are accurate for finite values but lose signed zeros and miss some
of the standard's infinity/NaN cases.  Each function here takes and returns a raw complex
jax value; it either computes from real parts with explicit special cases or repairs the
XLA result where the standard says otherwise.  The trigonometric functions use the
standard's own identities (``sin(z) = -1j * sinh(1j * z)`` ...) with the multiplications by
``±1j`` done as exact component swaps, so signed zeros survive.
"""

from __future__ import annotations

import math

import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core.runtime.kernel import flush_subnormals
from laxarray._core.numerics import copysign as _copysign
from laxarray.array_api import _exact_complex64 as _oc
from laxarray.array_api._exact_float32 import own, pick


def _parts(z):
    return lax.real(z), lax.imag(z)


def _c(re, im):
    return lax.complex(re, im)


def _full(x, v):
    return lax.full_like(x, v)


def _isnan(x):
    return lax.ne(x, x)


def _isinf(x):
    return lax.eq(lax.abs(x), _full(x, np.inf))


def _isfinite(x):
    return lax.is_finite(x)


def _keep_nan_copysign(v, sign_src):
    """``v`` with the sign of ``sign_src`` unless ``v`` is NaN."""
    return lax.select(_isnan(v), v, _copysign(v, sign_src))


def _mul_i(z):
    """``1j * z`` exactly: ``-b + a j``."""
    a, b = _parts(z)
    return _c(lax.neg(b), a)


def _mul_neg_i(z):
    """``-1j * z`` exactly: ``b - a j``."""
    a, b = _parts(z)
    return _c(b, lax.neg(a))


def _and(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = lax.bitwise_and(out, x)
    return out


def _or(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = lax.bitwise_or(out, x)
    return out


def _not(x):
    return lax.bitwise_not(x)


def _value(name, z, xla_fn, own_fn, at_infinity=None):
    """The parts of ``xla_fn(z)``, or, where the backend's record lists the real function
    ``name`` and ``z`` is complex64, of laxarray's own ``own_fn`` (:mod:`._exact_complex64`) for
    finite parts and of ``at_infinity`` (when given) where one part is infinite and neither
    is NaN; XLA's value stays for the rest, which the callers' special cases read."""
    a, b = _parts(z)
    re, im = _parts(xla_fn(z))
    if not own(name, a):
        return re, im
    ore, oim = own_fn(flush_subnormals(a), flush_subnormals(b))
    ok = _oc.finite(a, b)
    re, im = lax.select(ok, ore, re), lax.select(ok, oim, im)
    if at_infinity is None:
        return re, im
    ire, iim = at_infinity(a, b)
    inf = _oc.infinite(a, b)
    return lax.select(inf, ire, re), lax.select(inf, iim, im)


def cabs(z):
    """``|z|`` (XLA's, or laxarray's own :func:`._exact_complex64.hypot` where the record lists
    ``sqrt``)."""
    if own("sqrt", lax.real(z)):
        return _oc.hypot(*_parts(z))
    return lax.abs(z)


def _nan_nan_where(cond, re, im):
    nan = _full(re, np.nan)
    return lax.select(cond, nan, re), lax.select(cond, nan, im)


def hypot(x, y):
    """``sqrt(x**2 + y**2)`` of real values without undue overflow/underflow; an infinite
    argument gives ``+inf`` even with a NaN."""
    if own("sqrt", x):
        return _oc.hypot(x, y)
    if x.dtype == np.float16:   # in float32, rounded once: LLVM's float16 steps (native on
        # AVX-512 FP16, promoted on AVX2) differed by up to 2 ulps between the two (issue 73)
        return lax.convert_element_type(hypot(lax.convert_element_type(x, np.float32),
                                              lax.convert_element_type(y, np.float32)),
                                        np.float16)
    a, b = lax.abs(x), lax.abs(y)
    big, small = lax.max(a, b), lax.min(a, b)
    zero = _full(big, 0)
    safe = lax.select(lax.eq(big, zero), _full(big, 1), big)
    ratio = lax.div(small, safe)
    out = lax.mul(big, lax.sqrt(lax.add(_full(ratio, 1), lax.mul(ratio, ratio))))
    out = lax.select(lax.eq(big, zero), zero, out)
    either_inf = lax.bitwise_or(_isinf(a), _isinf(b))
    return lax.select(either_inf, _full(out, np.inf), out)


def _exp_halves(x):
    """``(exp(|x|)/2, exp(-|x|)/2)`` for real ``x``: from one ``exp(|x|)`` (an ulp or so)
    below ``|x| = 709``, past it as ``h/2 * h`` with ``h = exp(|x|/2)`` (which stays finite
    up to where cosh itself overflows, at twice the error)."""
    ax = lax.abs(x)
    half = _full(x, 0.5)
    exp = pick("exp", lax.exp)
    e = exp(ax)
    h = exp(lax.mul(ax, half))
    large = lax.gt(ax, _full(x, 709.0 if x.dtype == np.float64 else 88.0))
    up = lax.select(large, lax.mul(lax.mul(half, h), h), lax.mul(half, e))
    down = lax.select(large, lax.div(half, lax.mul(h, h)), lax.div(half, e))
    return up, down


def sinh_real(x):
    """Real sinh: XLA's below |x| = 1; fdlibm's ``(t + t/(t + 1))/2`` with ``t = expm1(|x|)``
    up to 22 (no cancellation); ``exp(|x|)/2`` past it, from one ``exp`` (XLA's large-argument
    path, ``exp(|x| - ln 2)``, and the square of ``exp(|x|/2)`` were 3 ulps off)."""
    ax = lax.abs(x)
    up, down = _exp_halves(x)
    t = pick("expm1", lax.expm1)(ax)
    mid = lax.mul(_full(x, 0.5), lax.add(t, lax.div(t, lax.add(t, _full(x, 1)))))
    big = _copysign(lax.select(lax.lt(ax, _full(x, 22)), mid, lax.sub(up, down)), x)
    if own("sinh", x):       # the fdlibm formula below 1 too (XLA's sinh is far off there)
        return lax.select(_isnan(x), x, big)
    return lax.select(lax.lt(ax, _full(x, 1)), lax.sinh(x), big)


def cosh_real(x):
    """Real cosh: XLA's below |x| = 1, else ``exp(|x|)/2 + exp(-|x|)/2``."""
    up, down = _exp_halves(x)
    if own("cosh", x):       # the sum below 1 too (XLA's cosh is far off there)
        return lax.add(up, down)
    return lax.select(lax.lt(lax.abs(x), _full(x, 1)), lax.cosh(x), lax.add(up, down))


# ---- hyperbolic ------------------------------------------------------------------------------
def csinh(z):
    """sinh(a + bj) = sinh(a) cos(b) + j cosh(a) sin(b), with the standard's special cases."""
    a, b = _parts(z)
    zero_b = lax.eq(b, _full(b, 0))
    re = lax.mul(sinh_real(a), lax.cos(b))
    im = lax.mul(cosh_real(a), lax.sin(b))
    # b == ±0: sinh(a) ± 0j exactly (covers inf and NaN a)
    re = lax.select(zero_b, sinh_real(a), re)
    im = lax.select(zero_b, b, im)  # cosh(a) * sin(±0) = ±0 (cosh(a) >= 1)
    # a == ±0 and b infinite or NaN: ±0 + NaN j
    zero_a = lax.eq(a, _full(a, 0))
    bad_b = _not(_isfinite(b))
    re = lax.select(_and(zero_a, bad_b), a, re)
    # a infinite and b infinite or NaN: ±inf + NaN j (sign unspecified; glibc's choice)
    inf_a = _isinf(a)
    re = lax.select(_and(inf_a, bad_b), lax.select(_isinf(b), lax.abs(a), a), re)
    im = lax.select(_and(inf_a, bad_b), _full(b, np.nan), im)
    return _c(re, im)


def ccosh(z):
    """cosh(a + bj) = cosh(a) cos(b) + j sinh(a) sin(b), with the standard's special cases."""
    a, b = _parts(z)
    zero_b = lax.eq(b, _full(b, 0))
    re = lax.mul(cosh_real(a), lax.cos(b))
    im = lax.mul(sinh_real(a), lax.sin(b))
    re = lax.select(zero_b, cosh_real(a), re)
    sign_a = lax.select(_isnan(a), _full(a, 1), _copysign(_full(a, 1), a))
    im = lax.select(zero_b, lax.mul(b, sign_a), im)
    zero_a = lax.eq(a, _full(a, 0))
    bad_b = _not(_isfinite(b))
    im = lax.select(_and(zero_a, bad_b), _full(a, 0), im)  # sign unspecified
    inf_a = _isinf(a)
    re = lax.select(_and(inf_a, bad_b), lax.abs(a), re)
    im = lax.select(_and(inf_a, bad_b), _full(b, np.nan), im)
    return _c(re, im)


def _ctanh_finite(a, b):
    """tanh(a + bj) for finite float32 parts from real functions that are a few ulps or
    better on every backend (Kahan's formula: ``t = tan(b)``, ``s = sinh(a)``,
    ``(beta rho s + t j) / (1 + beta s**2)`` with ``beta = 1 + t**2``, ``rho = cosh(a)``);
    ``sign(a) + 4 sin(b) cos(b) exp(-2|a|) j`` past ``|a| = 11``, where ``tanh(a)`` is 1 to
    float32's precision.  No part overflows: a float32 ``b`` keeps ``|tan(b)|`` under
    ``2.3e7``."""
    div = pick("divide", lax.div)
    one = _full(a, 1.0)
    big = lax.ge(lax.abs(a), _full(a, 11.0))
    small_a = lax.select(big, _full(a, 0.0), a)
    t = lax.tan(b)
    beta = lax.add(one, lax.mul(t, t))
    s = sinh_real(small_a)
    s2 = lax.mul(s, s)
    rho = pick("sqrt", lax.sqrt)(lax.add(one, s2))
    denom = lax.add(one, lax.mul(beta, s2))
    re = div(lax.mul(lax.mul(beta, rho), s), denom)
    im = div(t, denom)
    e = pick("exp", lax.exp)(lax.neg(lax.abs(a)))
    far = lax.mul(lax.mul(lax.mul(_full(a, 4.0), lax.sin(b)), lax.cos(b)), lax.mul(e, e))
    return _c(lax.select(big, _copysign(one, a), re), lax.select(big, far, im))


def ctanh(z):
    """tanh with exact signed zeros (XLA's value otherwise; its special cases agree).

    For a finite ``a`` an imaginary part that underflows to zero keeps the sign of
    ``sin(2b)`` (the sign of the exact value); for ``a = ±inf`` the standard states
    ``±1 + 0j`` for a positive finite ``b`` whatever ``sin(2b)`` is, so the result is
    ``±1`` with a zero of ``b``'s sign (``tanh(conj(x)) == conj(tanh(x))``); ``NaN ± 0j``
    gives ``NaN ± 0j`` on every backend.  complex64 is computed in complex128 where the
    backend has it (as :func:`ctan`), from :func:`_ctanh_finite` where the record computes
    real ``tanh`` itself (a TPU)."""
    if z.dtype == np.complex64 and _backend.current().supports(np.complex128):
        # as ctan: XLA's complex64 tanh is up to 1.8e5 ulps off near the poles of tan(b)
        return lax.convert_element_type(ctanh(lax.convert_element_type(z, np.complex128)),
                                        np.complex64)
    a, b = _parts(z)
    w = lax.tanh(z)
    if own("tanh", a):      # XLA's complex tanh is built on the chip's exp (35 ulps off)
        w = lax.select(_and(_isfinite(a), _isfinite(b)), _ctanh_finite(a, b), w)
    re, im = _parts(w)
    zero = _full(re, 0)
    re = lax.select(lax.eq(re, zero), _copysign(zero, a), re)
    im_sign = lax.mul(lax.sin(b), lax.cos(b))  # the sign of sin(2b), without overflow
    im = lax.select(lax.eq(im, zero), _copysign(zero, im_sign), im)
    inf_a = _isinf(a)
    re = lax.select(inf_a, _copysign(_full(re, 1), a), re)
    im = lax.select(inf_a, _copysign(zero, b), im)
    # a == ±0 and b infinite or NaN: ±0 + NaN j
    zero_a = lax.eq(a, zero)
    bad_b = _not(_isfinite(b))
    re = lax.select(_and(zero_a, bad_b), a, re)
    im = lax.select(_and(zero_a, bad_b), _full(b, np.nan), im)
    # a NaN and b == ±0: NaN ± 0j (XLA:CPU gives it; the TPU's lowering NaN + NaN j)
    nan_a = _and(_isnan(a), lax.eq(b, _full(b, 0)))
    re = lax.select(nan_a, a, re)
    im = lax.select(nan_a, b, im)
    return _c(re, im)


# ---- inverse hyperbolic ----------------------------------------------------------------------
def _nan_a_cases(a, b, re, im, zero_b_imag):
    """Shared NaN rules of asinh/atanh: (NaN, finite nonzero) and (finite, NaN) -> NaN+NaNj."""
    nan_a, nan_b = _isnan(a), _isnan(b)
    zero_b = lax.eq(b, _full(b, 0))
    # a NaN, b finite nonzero -> NaN + NaN j ; a NaN, b == 0 -> NaN ± 0j (if zero_b_imag)
    cond = _and(nan_a, _isfinite(b), _not(zero_b))
    re, im = _nan_nan_where(cond, re, im)
    if zero_b_imag:
        im = lax.select(_and(nan_a, zero_b), b, im)
        re = lax.select(_and(nan_a, zero_b), a, re)
    return re, im, nan_a, nan_b


def casinh(z):
    """asinh: XLA's value with odd/conjugate symmetry enforced and the standard's NaN cases."""
    a, b = _parts(z)
    re, im = _value("asinh", z, lax.asinh, _oc.asinh, _oc.asinh_at_infinity)
    re = _keep_nan_copysign(re, a)
    im = _keep_nan_copysign(im, b)
    re, im, nan_a, nan_b = _nan_a_cases(a, b, re, im, True)
    # a finite, b NaN -> NaN + NaN j
    re, im = _nan_nan_where(_and(_isfinite(a), nan_b), re, im)
    # a NaN, b infinite -> ±inf + NaN j
    cond = _and(nan_a, _isinf(b))
    re = lax.select(cond, _full(re, np.inf), re)
    im = lax.select(cond, _full(im, np.nan), im)
    return _c(re, im)


def catanh(z):
    """atanh: XLA's value with odd/conjugate symmetry enforced and the standard's special
    cases for infinities and NaNs."""
    a, b = _parts(z)
    re, im = _value("atanh", z, lax.atanh, _oc.atanh)
    one = _full(a, 1)
    if not own("atanh", a):
        # near a = ±1 (|b| < 1) XLA's real part underflows: 0.5 (log|1 + z| - log|1 - z|)
        far = _and(lax.gt(lax.abs(a), _full(a, 0.5)), lax.lt(lax.abs(b), one))
        alt = lax.mul(_full(a, 0.5), lax.sub(lax.log(hypot(lax.add(one, a), b)),
                                             lax.log(hypot(lax.sub(one, a), b))))
        re = lax.select(far, alt, re)
    re = _keep_nan_copysign(re, a)
    im = _keep_nan_copysign(im, b)
    half_pi = _full(a, math.pi / 2)
    zero = _full(a, 0)
    nan = _full(a, np.nan)
    inf_a, inf_b = _isinf(a), _isinf(b)
    nan_a, nan_b = _isnan(a), _isnan(b)
    fin_a, fin_b = _isfinite(a), _isfinite(b)
    zero_a = lax.eq(a, zero)
    # b infinite (a not NaN): ±0 ± πj/2 ; a infinite (b not NaN): ±0 ± πj/2
    cond = _or(_and(inf_b, _not(nan_a)), _and(inf_a, _not(nan_b)))
    re = lax.select(cond, _copysign(zero, a), re)
    im = lax.select(cond, _copysign(half_pi, b), im)
    # a NaN, b infinite: ±0 ± πj/2
    cond = _and(nan_a, inf_b)
    re = lax.select(cond, zero, re)
    im = lax.select(cond, _copysign(half_pi, b), im)
    # a ±0 or ±inf, b NaN: ±0 + NaN j ; a nonzero finite, b NaN: NaN + NaN j
    cond = _and(_or(zero_a, inf_a), nan_b)
    re = lax.select(cond, _copysign(zero, a), re)
    im = lax.select(cond, nan, im)
    re, im = _nan_nan_where(_and(fin_a, _not(zero_a), nan_b), re, im)
    # a NaN, b finite or NaN: NaN + NaN j
    re, im = _nan_nan_where(_and(nan_a, _or(fin_b, nan_b)), re, im)
    return _c(re, im)


def cacosh(z):
    """acosh: XLA's value with the standard's NaN cases and conjugate symmetry."""
    a, b = _parts(z)
    re, im = _value("acosh", z, lax.acosh, _oc.acosh, _oc.acosh_at_infinity)
    im = _keep_nan_copysign(im, b)
    fin_a = _isfinite(a)
    re, im = _nan_nan_where(_and(fin_a, lax.ne(a, _full(a, 0)), _isnan(b)), re, im)
    # acosh(±0 + NaN j) = NaN + π/2 j (XLA gives NaN + NaN j)
    im = lax.select(_and(lax.eq(a, _full(a, 0)), _isnan(b)), _full(im, np.pi / 2), im)
    return _c(re, im)


def cacos(z):
    """acos: XLA's value with conjugate symmetry (imaginary part opposite to ``b``) and the
    standard's NaN cases."""
    a, b = _parts(z)
    re, im = _value("acosh", z, lax.acos, _oc.acos, _oc.acos_at_infinity)
    im = _keep_nan_copysign(im, lax.neg(b))
    fin_a = _isfinite(a)
    re, im = _nan_nan_where(_and(fin_a, lax.ne(a, _full(a, 0)), _isnan(b)), re, im)
    # acos(±0 + NaN j) = π/2 + NaN j (XLA gives NaN + NaN j)
    re = lax.select(_and(lax.eq(a, _full(a, 0)), _isnan(b)), _full(re, np.pi / 2), re)
    return _c(re, im)


# ---- via the standard's identities -----------------------------------------------------------
def csin(z):
    """sin(z) = -1j * sinh(1j * z)."""
    return _mul_neg_i(csinh(_mul_i(z)))


def ccos(z):
    """cos(z) = cosh(1j * z)."""
    return ccosh(_mul_i(z))


def ctan(z):
    """tan(z) = -1j * tanh(1j * z); complex64 is computed in complex128 where the backend
    has it (XLA's complex64 tanh loses several ulps near the poles, where NumPy's is within
    one; a TPU has no complex128)."""
    if z.dtype == np.complex64 and _backend.current().supports(np.complex128):
        return lax.convert_element_type(ctan(lax.convert_element_type(z, np.complex128)),
                                        np.complex64)
    return _mul_neg_i(ctanh(_mul_i(z)))


def casin(z):
    """asin(z) = -1j * asinh(1j * z)."""
    return _mul_neg_i(casinh(_mul_i(z)))


def catan(z):
    """atan(z) = -1j * atanh(1j * z)."""
    return _mul_neg_i(catanh(_mul_i(z)))


# ---- exponential, logarithm, square root ------------------------------------------------------
def cexp(z):
    """exp with ``b == ±0`` giving ``exp(a) ± 0j`` exactly (XLA's value otherwise)."""
    a, b = _parts(z)
    re, im = _value("exp", z, lax.exp, _oc.exp)
    zero_b = lax.eq(b, _full(b, 0))
    re, im = lax.select(zero_b, pick("exp", lax.exp)(a), re), lax.select(zero_b, b, im)
    return _infinite_a_nonfinite_b(a, b, re, im, 0)


def _infinite_a_nonfinite_b(a, b, re, im, at_minus_inf):
    """``re + im j`` with exp's and expm1's cases for ``a`` infinite and ``b`` infinite or
    NaN: ``+inf`` gives ``inf + NaN j``, ``-inf`` gives ``at_minus_inf + 0j`` (the signs
    the standard leaves unspecified: those of ``a`` and of zero)."""
    bad_b = _not(_isfinite(b))
    pinf = _and(lax.eq(a, _full(a, np.inf)), bad_b)
    ninf = _and(lax.eq(a, _full(a, -np.inf)), bad_b)
    re = lax.select(pinf, a, lax.select(ninf, _full(a, at_minus_inf), re))
    im = lax.select(pinf, _full(b, np.nan), lax.select(ninf, _full(b, 0), im))
    return _c(re, im)


def cexpm1(z):
    """expm1 with ``b == ±0`` giving ``expm1(a) ± 0j`` exactly (XLA's value otherwise;
    ``a = ±0`` gives ``+0 ± 0j``, as the standard states, where the real expm1 keeps
    ``-0``), and the standard's cases for an infinite ``a`` with ``b`` infinite or NaN:
    ``+inf`` gives ``inf + NaN j``, ``-inf`` gives ``-1 + 0j`` (XLA gives NaN + NaN j)."""
    a, b = _parts(z)
    re, im = _value("expm1", z, lax.expm1, _oc.expm1, _oc.expm1_at_infinity)
    zero = _full(b, 0)
    zero_b = lax.eq(b, zero)
    re = lax.select(zero_b, lax.select(lax.eq(a, zero), zero, pick("expm1", lax.expm1)(a)), re)
    im = lax.select(zero_b, b, im)
    return _infinite_a_nonfinite_b(a, b, re, im, -1)


def clog(z):
    """log (XLA's complex log agrees with the standard once subnormal parts read as 0)."""
    re, im = _parts(z)
    w = _c(*_value("log", _c(flush_subnormals(re), flush_subnormals(im)), lax.log, _oc.log))
    return _nan_inf_log(re, im, w)


def _nan_inf_log(a, b, w):
    """The logarithms' cases ``a`` NaN with ``b`` ±inf, and ``a`` ±inf with ``b`` NaN:
    ``+inf + NaN j`` (XLA gives NaN + NaN j)."""
    case = _or(_and(_isnan(a), _isinf(b)), _and(_isinf(a), _isnan(b)))
    re, im = _parts(w)
    return _c(lax.select(case, _full(re, np.inf), re), im)


def clog1p(z):
    """log1p: ``log(1 + z)`` with the real part from ``log1p`` near 0 (no cancellation)."""
    a, b = _parts(z)
    a, b = flush_subnormals(a), flush_subnormals(b)
    if own("log1p", a):
        re, im = _value("log1p", _c(a, b), lambda w: lax.log(lax.add(w, _full(w, 1))),
                        _oc.log1p)
        return _nan_inf_log(a, b, _c(re, im))
    one = _full(a, 1)
    w = _c(lax.add(one, a), b)
    re, _ = _parts(lax.log(w))
    im = lax.atan2(b, lax.add(one, a))
    half = _full(a, 0.5)
    small = lax.bitwise_and(lax.lt(lax.abs(a), half), lax.lt(lax.abs(b), half))
    near = lax.mul(half, lax.log1p(lax.add(lax.mul(a, lax.add(a, _full(a, 2))),
                                           lax.mul(b, b))))
    re = lax.select(small, near, re)
    return _nan_inf_log(a, b, _c(re, im))


def csqrt(z):
    """sqrt: XLA's value with the imaginary part signed like ``b``, ``b = ±inf`` giving
    ``+inf ± inf j`` (even for NaN ``a``), and for NaN ``b`` an ``a`` of ``+inf`` giving
    ``+inf + NaN j`` and of ``-inf`` giving ``NaN + inf j`` (XLA gives NaN + NaN j)."""
    a, b = _parts(z)
    re, im = _value("sqrt", z, lax.sqrt, _oc.sqrt)
    im = _keep_nan_copysign(im, b)
    inf_b = _isinf(b)
    re = lax.select(inf_b, _full(re, np.inf), re)
    im = lax.select(inf_b, b, im)
    nan_b = _isnan(b)
    pinf = _and(lax.eq(a, _full(a, np.inf)), nan_b)
    ninf = _and(lax.eq(a, _full(a, -np.inf)), nan_b)
    re = lax.select(pinf, a, lax.select(ninf, _full(re, np.nan), re))
    im = lax.select(pinf, b, lax.select(ninf, _full(im, np.inf), im))
    return _c(re, im)
