"""Transcendental, complex and clipping elementwise functions of the standard.

Floating-only functions accept integer and bool input and compute in float64 (as
jax.numpy does).  Under ``jax.jit`` each traces to bare lax primitives.
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
from laxarray._core.kernel import kernel
from laxarray._core.numerics import FLOAT_LAYOUT, cast_value
from laxarray.array_api import _complex_math as _cm
from laxarray.array_api import _own_complex as _oc
from laxarray.array_api import _own_math as _om
from laxarray.array_api._array import Array, wrap, wrap_padded
from laxarray.array_api._broadcast import broadcast_many, broadcast_rule
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array, scalar_operand
from laxarray.array_api._ufunc import (UfuncFacts, binary_operands, cast_broadcast,
                                       elementwise_binary, elementwise_unary, to_float)
from laxarray.array_api.elementwise import _copysign, _is_complex, _zeros

_FLOATING = "numeric"  # ints and bool are accepted and computed in float64


def _unary(body_name, lax_fn, doc, complex_fn=None):
    complex_fn = complex_fn or lax_fn

    def body(x, /):
        return complex_fn(x) if _is_complex(x) else lax_fn(x)
    body.__name__ = body_name
    body.__qualname__ = body_name
    body.__doc__ = doc
    return elementwise_unary(_FLOATING, compute=to_float)(body)


exp = _unary("exp", _om.pick("exp", lax.exp), "Exponential ``e**x``. Array API: exp. NumPy: numpy.exp.",
             _cm.cexp)
expm1 = _unary("expm1", _om.pick("expm1", lax.expm1), "``exp(x) - 1`` accurately near 0. Array API: expm1. "
               "NumPy: numpy.expm1.", _cm.cexpm1)
log = _unary("log", _om.pick("log", lax.log), "Natural logarithm. Array API: log. NumPy: numpy.log.",
             _cm.clog)
log1p = _unary("log1p", _om.pick("log1p", lax.log1p), "``log(1 + x)`` accurately near 0. Array API: log1p. "
               "NumPy: numpy.log1p.", _cm.clog1p)
sqrt = _unary("sqrt", _om.pick("sqrt", lax.sqrt), "Principal square root. Array API: sqrt. NumPy: numpy.sqrt.",
              _cm.csqrt)
sin = _unary("sin", lax.sin, "Sine. Array API: sin. NumPy: numpy.sin.", _cm.csin)
cos = _unary("cos", lax.cos, "Cosine. Array API: cos. NumPy: numpy.cos.", _cm.ccos)
tan = _unary("tan", lax.tan, "Tangent. Array API: tan. NumPy: numpy.tan.", _cm.ctan)
asin = _unary("asin", lax.asin, "Inverse sine. Array API: asin. NumPy: numpy.arcsin.",
              _cm.casin)
acos = _unary("acos", lax.acos, "Inverse cosine. Array API: acos. NumPy: numpy.arccos.",
              _cm.cacos)
atan = _unary("atan", lax.atan, "Inverse tangent. Array API: atan. NumPy: numpy.arctan.",
              _cm.catan)
sinh = _unary("sinh", _cm.sinh_real, "Hyperbolic sine. Array API: sinh. NumPy: numpy.sinh.",
              _cm.csinh)
cosh = _unary("cosh", _cm.cosh_real, "Hyperbolic cosine. Array API: cosh. NumPy: numpy.cosh.",
              _cm.ccosh)
tanh = _unary("tanh", _om.pick("tanh", lax.tanh), "Hyperbolic tangent. Array API: tanh. NumPy: numpy.tanh.",
              _cm.ctanh)
asinh = _unary("asinh", _om.pick("asinh", lax.asinh), "Inverse hyperbolic sine. Array API: asinh. "
               "NumPy: numpy.arcsinh.", _cm.casinh)
acosh = _unary("acosh", _om.pick("acosh", lax.acosh), "Inverse hyperbolic cosine. Array API: acosh. "
               "NumPy: numpy.arccosh.", _cm.cacosh)
atanh = _unary("atanh", _om.pick("atanh", lax.atanh), "Inverse hyperbolic tangent. Array API: atanh. "
               "NumPy: numpy.arctanh.", _cm.catanh)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _log_base_real(x, base):
    """``log_base(x)`` of real floating ``x`` as ``e log_base(2) + log(m) / log(base)`` with
    ``x = m 2**e``, ``m`` in ``[sqrt(1/2), sqrt(2)]`` (``_own_math.log_split``): powers of the base
    come out exact (``log10(0.1) == -1``, ``log2(2**k) == k``), where ``log(x) / log(base)``
    is off by an ulp or two.  float16 and float32 do the arithmetic in float64 (then they
    are correctly rounded, where NumPy's float32 log10 is in 47% of cases); on a backend
    without float64 (a TPU) float32 does it in float32, to under one ulp.  Zero, negative,
    inf and NaN take ``log(x) / log(base)``.  The float64 result is rounded to float16 once
    (``cast_value``: XLA:CPU's own conversion goes through float32 on some instruction sets
    and not on others)."""
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


log2 = _unary("log2", lambda x: _log_base(x, 2), "Base-2 logarithm. Array API: log2. "
              "NumPy: numpy.log2.")
log10 = _unary("log10", lambda x: _log_base(x, 10), "Base-10 logarithm. Array API: log10. "
               "NumPy: numpy.log10.")


@elementwise_binary("real numeric", compute=to_float, flush_subnormals=True,
                    ufunc=UfuncFacts())
def atan2(x1, x2, /):
    """Quadrant-aware inverse tangent of ``x1 / x2``. Array API: atan2. NumPy: numpy.arctan2."""
    # XLA on CPU flushes subnormals in its division but not in its comparisons, so a
    # subnormal pair gives NaN: they are read as signed zeros (the flush-to-zero answer).
    # The result always carries the sign of x1 (XLA loses it for subnormal x1).
    if _om.own("divide", x1):   # the chip's division flushes 1 / x2 past 2**126
        return _oc.atan2(x1, x2)
    return _copysign(lax.atan2(x1, x2), x1)


@elementwise_binary("real numeric", compute=to_float,
                    ufunc=UfuncFacts(identity=0, reorderable=True))
def hypot(x1, x2, /):
    """``sqrt(x1**2 + x2**2)`` without overflow; inf wins over NaN.
    Array API: hypot. NumPy: numpy.hypot."""
    return _cm.hypot(x1, x2)


@elementwise_binary("real numeric", compute=to_float,
                    ufunc=UfuncFacts(identity=-math.inf, reorderable=True))
def logaddexp(x1, x2, /):
    """``log(exp(x1) + exp(x2))`` without overflow. Array API: logaddexp. NumPy: numpy.logaddexp."""
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
    """Real part (real input is returned as is). Array API: real. NumPy: numpy.real."""
    return lax.real(x) if _is_complex(x) else x


@elementwise_unary("numeric")
def imag(x, /):
    """Imaginary part (zeros for real input). Array API: imag. NumPy: numpy.imag."""
    return lax.imag(x) if _is_complex(x) else _zeros(x)


@elementwise_unary("numeric")
def conj(x, /):
    """Complex conjugate (real input unchanged). Array API: conj. NumPy: numpy.conj."""
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


#: (dtype, has_lo, has_hi) -> the bound clip kernel of the eager fast path
_CLIP_BOUND: dict = {}
_REAL_BOUND = (int, float, type(None))


def _clip_fast(x, lo, hi):
    """``clip`` of a concrete real Array between Python scalars of its kind (or None): the
    kernel called directly (on the padded value of a bucketed Array), as an elementwise
    function's hot path is; ``None`` where the general path must run (it validates and
    promotes everything else)."""
    p = x._padded()
    v = p
    if p is False:
        if x.base is not None or x._is_traced():  # a view, or traced: the general path
            return None
        v = x._value
    dt = v.dtype
    kind = dt.kind
    if kind in "iu":
        if type(lo) is float or type(hi) is float:
            return None
        lo = None if lo is None else _in_int_range(lo, dt)
        hi = None if hi is None else _in_int_range(hi, dt)
    elif kind != "f":
        return None
    key = (dt, lo is not None, hi is not None)
    bound = _CLIP_BOUND.get(key)
    if bound is None:
        bound = _CLIP_BOUND[key] = _clip_kernel.bind(
            (("dtype", dt), ("has_lo", key[1]), ("has_hi", key[2])))
    args = [v]
    if lo is not None:
        args.append(scalar_operand("clip", lo, dt, "min"))
    if hi is not None:
        args.append(scalar_operand("clip", hi, dt, "max"))
    if p is False:
        return wrap(bound.run_eager(args))
    return wrap_padded(bound.run_eager(args), x.shape)


def _in_int_range(bound, dt):
    """An int bound of an integer ``clip`` moved into ``dt``'s range: beyond it, it clips
    nothing there."""
    lowest, highest = _dt.int_range(dt)
    return builtins.min(builtins.max(bound, lowest), highest)


def clip(x, /, min=None, max=None):
    """Clamp to ``[min, max]``; the result has ``x``'s dtype and the broadcast shape.
    Array API: clip. NumPy: numpy.clip. NaN in any argument gives NaN."""
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
